//! Hardening: the malformed-input corpus (`tests/corpus/cases.toml`, run
//! through the binary: expected exit code and message fragment, never a
//! panic, a one-line error), and the limits that must hold before anything
//! is allocated or while a program misbehaves.
//!
//! `PUZZLESAT_BIN=/path/to/puzzlesat cargo test --test hardening corpus`
//! runs the corpus against another build (how the before/after counts of
//! the hardening work were taken).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

fn bin() -> PathBuf {
    std::env::var_os("PUZZLESAT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_puzzlesat")))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with `args` under a 4 GiB address-space limit (a run
/// that allocates without bound fails here instead of taking the machine)
/// and a wall-clock limit (killed past it: `None`).
fn run_limited(args: &[String], limit: Duration) -> Option<Output> {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only setrlimit between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 4 << 30,
                rlim_max: 4 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("the binary starts");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    // read both pipes on threads: a chatty run must not block on a full pipe
    let out_reader = std::thread::spawn(move || {
        let mut v = vec![];
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = vec![];
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (out_reader.join().unwrap(), err_reader.join().unwrap());
    status.map(|status| Output {
        status,
        stdout,
        stderr,
    })
}

#[derive(Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    args: Vec<String>,
    exit: i32,
    says: String,
}

/// What is wrong with one case's run (None: it behaved).
fn check_case(case: &Case) -> Option<String> {
    let tmp = tempfile::tempdir().unwrap();
    let fill = |s: &str| {
        s.replace("{c}", &root().join("tests/corpus/files").to_string_lossy())
            .replace("{cnf}", &root().join("tests/cnf").to_string_lossy())
            .replace("{tmp}", &tmp.path().to_string_lossy())
    };
    let args: Vec<String> = case.args.iter().map(|a| fill(a)).collect();
    let Some(out) = run_limited(&args, Duration::from_secs(60)) else {
        return Some("still running after 60 s (killed)".into());
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let says = fill(&case.says);
    let code = out.status.code();
    let mut wrong = vec![];
    if code != Some(case.exit) {
        wrong.push(format!("exit {code:?}, expected {}", case.exit));
    }
    if !stdout.contains(&says) && !stderr.contains(&says) {
        wrong.push(format!("does not say {says:?}"));
    }
    if stderr.contains("panicked") {
        wrong.push("panicked".into());
    }
    let lines = stderr.lines().filter(|l| !l.trim().is_empty()).count();
    if case.exit == 2 && lines != 1 {
        wrong.push(format!(
            "{lines} lines on stderr, expected a one-line error"
        ));
    }
    let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    (!wrong.is_empty()).then(|| {
        format!(
            "{}; stderr: {}",
            wrong.join(", "),
            first.chars().take(200).collect::<String>()
        )
    })
}

#[test]
fn corpus_of_malformed_inputs() {
    let text = std::fs::read_to_string(root().join("tests/corpus/cases.toml")).unwrap();
    let cases: Cases = toml::from_str(&text).unwrap();
    assert!(
        cases.case.len() >= 100,
        "the corpus has {} cases",
        cases.case.len()
    );
    let mut names = std::collections::BTreeSet::new();
    for c in &cases.case {
        assert!(names.insert(&c.name), "case {} is listed twice", c.name);
    }
    let failed: Vec<String> = cases
        .case
        .iter()
        .filter_map(|c| check_case(c).map(|why| format!("{}: {why}", c.name)))
        .collect();
    eprintln!(
        "corpus: {} of {} cases failed ({})",
        failed.len(),
        cases.case.len(),
        bin().display()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
