//! The VeriPB checker's process (Gocht and Nordström's VeriPB; the `veripb`
//! crate 3.0.2 by Oertel et al., linked in as a library). `--certify` runs
//! the checker in a child process: the program `PUZZLESAT_VERIPB` names (an
//! installed `veripb`, with its own arguments), else the binary registered
//! with [`bundled_in`] run as `PROGRAM veripb …` (the `puzzlesat` binary
//! registers itself), else `veripb` on PATH.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::sync::OnceLock;

/// The environment variable naming an external checker (`veripb`'s
/// command line) to run instead of the bundled one.
pub const ENV: &str = "PUZZLESAT_VERIPB";

/// The first argument that makes a `puzzlesat` binary the checker.
pub const SUBCOMMAND: &str = "veripb";

static BUNDLED: OnceLock<PathBuf> = OnceLock::new();

/// Registers `program` (a binary whose `main` calls [`serve`], such as
/// `puzzlesat`) as the bundled checker. A test or library binary registers
/// the `puzzlesat` binary's path; the first registration stays.
pub fn bundled_in(program: impl Into<PathBuf>) {
    let _ = BUNDLED.set(program.into());
}

/// The checker's command, before its arguments (`veripb`'s).
pub fn command() -> Command {
    if let Some(p) = std::env::var_os(ENV).filter(|p| !p.is_empty()) {
        return Command::new(p);
    }
    match BUNDLED.get() {
        Some(p) => {
            let mut c = Command::new(p);
            c.arg(SUBCOMMAND);
            c
        }
        None => Command::new("veripb"),
    }
}

/// A binary's first step. `PROGRAM veripb ARGS…` runs the bundled checker
/// with `veripb`'s arguments, output and exit code: Some(exit code).
/// Otherwise the running binary registers itself with [`bundled_in`]: None.
pub fn serve() -> Option<ExitCode> {
    let mut args = std::env::args_os();
    args.next();
    if args.next().as_deref() != Some(OsStr::new(SUBCOMMAND)) {
        if let Ok(exe) = std::env::current_exe() {
            bundled_in(exe);
        }
        return None;
    }
    let argv = std::iter::once(OsString::from(SUBCOMMAND)).chain(args);
    let args = match <veripb::args::Args as clap::Parser>::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    // as the `veripb` binary prints it (the checks read the `s` lines)
    println!("Running VeriPB version 3.0.2 (bundled in puzzlesat)");
    match veripb::run_checker(args) {
        Ok(()) => Some(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("Error: {e:?}");
            Some(ExitCode::FAILURE)
        }
    }
}
