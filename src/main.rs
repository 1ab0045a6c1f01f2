use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;
use puzzlesat::cli::{main_with, Cli};

fn main() -> ExitCode {
    // the report's total time is the process's
    puzzlesat::report::process_start();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version and a bare `puzzlesat` print as clap prints them
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        // a usage error on one line: clap's first paragraph (the error and,
        // for a missing argument, its name), without the usage hints
        Err(e) => {
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", first.join(" "));
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
