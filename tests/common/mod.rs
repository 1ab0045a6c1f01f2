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

/// A cube line edited: `edit` changes the report, then the fingerprint is
/// recomputed (as a forger who read the source would) or not.
pub fn edited_cube_line(
    line: &str,
    refingerprint: bool,
    edit: impl Fn(&mut serde_json::Value),
) -> String {
    use puzzlesat::report::{CubeRecord, Report};
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    edit(&mut v);
    if refingerprint {
        let r: Report<serde_json::Value> = Report::from_json_line(&v.to_string()).unwrap();
        let c: CubeRecord = r.cube.clone().unwrap();
        let cube: Vec<rustsat::types::Lit> = c
            .literals
            .iter()
            .enumerate()
            .map(|(j, &l)| {
                let l = rustsat::types::Lit::from_ipasir(l).unwrap();
                if c.index >> j & 1 == 1 {
                    l
                } else {
                    !l
                }
            })
            .collect();
        v["cube"]["fingerprint"] = puzzlesat::drive::cubes::fingerprint(
            &r.puzzle,
            &c,
            &cube,
            (r.objective, r.bound),
            r.certificates.as_deref().unwrap_or_default(),
        )
        .into();
    }
    format!("{v}\n")
}
