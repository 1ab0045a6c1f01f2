use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;
use puzzlesat::cli::{main_with, Cli};

// mimalloc instead of the system allocator: the solvers and the class
// expansion allocate many small vectors (magic N = 4, the 880 count with the
// shared pair sums: 349 M → 318 M instructions, 36.9 → 33.9 ms; the empty
// 6×6 rook board's count 1.96 → 1.58 s; 8–11 MB more resident memory)
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // `puzzlesat veripb …` is the bundled VeriPB checker (`--certify`'s child)
    if let Some(code) = puzzlesat::checker::serve() {
        return code;
    }
    // the report's total time is the process's
    puzzlesat::report::process_start();
    // a kept claim names the command line its model is derived from
    puzzlesat::certify::manifest::record_command_line(std::env::args().skip(1).collect());
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
