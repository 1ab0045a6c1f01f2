use std::process::ExitCode;

use clap::Parser;
use puzzlesat::cli::{main_with, Cli};

fn main() -> ExitCode {
    // the report's total time is the process's
    puzzlesat::report::process_start();
    let cli = Cli::parse();
    match main_with(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
