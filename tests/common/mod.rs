//! Running the built binary from the integration tests (one copy for every
//! test file: `mod common;`). Each test crate uses part of it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `puzzlesat args` from the crate root with extra environment
/// variables; its whole output.
pub fn output_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("puzzlesat runs")
}

/// Runs `puzzlesat args` from the crate root; its whole output.
pub fn output(args: &[&str]) -> Output {
    output_with_env(args, &[])
}

/// Runs `puzzlesat args` with extra environment variables: (exit code,
/// stdout, stderr).
pub fn run_with_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = output_with_env(args, env);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `puzzlesat args`: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (Option<i32>, String, String) {
    run_with_env(args, &[])
}

/// Runs `puzzlesat args` from the crate root with stderr written to the file
/// `stderr` (not a terminal, as in logs and experiment workers): (exit
/// code, stdout).
pub fn run_with_stderr_file(args: &[&str], stderr: &std::path::Path) -> (Option<i32>, String) {
    let file = std::fs::File::create(stderr).expect("stderr file");
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(args)
        .stderr(file)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("puzzlesat runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Seconds of a report that no phase accounts for: `total` minus the sum of
/// the other phases (computed here, not read from `other`).
pub fn unaccounted_seconds(p: &puzzlesat::report::Phases) -> f64 {
    p.total - (p.encode + p.load + p.bounds + p.solve + p.separate + p.decode_check + p.certify)
}

/// The most seconds a small run's median may leave unaccounted for by its
/// phases (parsing, printing, starting and stopping the progress thread):
/// about 1 ms on an idle machine; on a loaded 2-core machine a descheduled
/// run adds a time slice (5–12 ms seen with the test suite running beside
/// it). The wait for a sleeping progress thread this guards against was
/// 27–51 ms (issue 22).
pub const UNACCOUNTED_LIMIT_SECONDS: f64 = 0.015;

/// The median of some measurements (the upper one of an even count): one
/// run descheduled on a loaded machine does not move it.
pub fn median(mut xs: Vec<f64>) -> f64 {
    assert!(!xs.is_empty(), "median of nothing");
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
