use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;
use puzzlesat::cli::{main_with, Cli};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version and a bare `puzzlesat` print as clap prints them
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        // a usage error is one line (clap's usage hints follow it)
        Err(e) => {
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    match main_with(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", puzzlesat::io::one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}
