//! Running the built binary from the integration tests (one copy for every
//! test file: `mod common;`). Each test crate uses part of it.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// The VeriPB checker's command (`puzzlesat veripb`, src/checker.rs, unless
/// `PUZZLESAT_VERIPB` names another); the library's runs in this test
/// binary use it too.
pub fn veripb() -> Command {
    puzzlesat::checker::bundled_in(env!("CARGO_BIN_EXE_puzzlesat"));
    puzzlesat::checker::command()
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

/// The cluster path of `solve --cubes` (docs/cubes.md): `grid` (an
/// `experiment` command line up to `--out`) emitted as job lines into
/// `dir`, each line run as GNU parallel runs it, the outputs collected.
/// Returns the job lines, the collected rows (`rows.jsonl`) and the jobs'
/// outputs concatenated in cube order: a cube file.
pub fn run_cube_jobs(
    dir: &std::path::Path,
    grid: &[&str],
    cubes: u32,
) -> (Vec<String>, String, String) {
    let p = |s: &str| dir.join(s).to_str().unwrap().to_string();
    let (out, jobs) = (p("results"), p("jobs.txt"));
    let mut emit = grid.to_vec();
    emit.extend([out.as_str(), "--emit-jobs", jobs.as_str()]);
    let (code, _, err) = run(&emit);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<String> = std::fs::read_to_string(&jobs)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), cubes as usize);
    // what GNU parallel or a Slurm array task does with each line
    for line in &lines {
        Command::new("sh").args(["-c", line]).status().unwrap();
    }
    let jobs_dir = format!("{out}/jobs");
    let mut collect = grid.to_vec();
    collect.extend([out.as_str(), "--collect", jobs_dir.as_str(), "--no-plots"]);
    let (_, _, err) = run(&collect);
    assert!(
        err.contains(&format!("collected {cubes} new rows")),
        "{err}"
    );
    let mut file = String::new();
    for i in 0..cubes {
        let entry = std::fs::read_dir(&jobs_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|e| {
                e.extension().is_some_and(|x| x == "json")
                    && std::fs::read_to_string(e)
                        .unwrap()
                        .contains(&format!("\"index\":{i},"))
            })
            .unwrap_or_else(|| panic!("no output of cube {i}"));
        file += &std::fs::read_to_string(entry).unwrap();
    }
    let rows = std::fs::read_to_string(format!("{out}/rows.jsonl")).unwrap();
    (lines, rows, file)
}

/// The bound of the tests that check a limit holds (`--timeout`, a signal,
/// the clause budget): a run that honours its limit ends far within it even
/// on a loaded machine, one that ignores the limit runs for minutes. A hang
/// guard, not a timing (runs were seen to take 2-10 s under load).
pub const HANG_GUARD: Duration = Duration::from_secs(15);

/// Runs `cmd` (stdin empty) with its stdout and stderr drained on threads,
/// so that a child writing more than a pipe holds never blocks; killed past
/// `limit` (a hang guard, not a timing): None then.
pub fn output_within(mut cmd: Command, limit: Duration) -> Option<Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the child starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = vec![];
            pipe.read_to_end(&mut v).ok();
            v
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("the child is waited for") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Some(Output {
        status,
        stdout: stdout.join().expect("stdout drained"),
        stderr: stderr.join().expect("stderr drained"),
    })
}

/// A certified run the check must refuse (a mutant's proof): its error
/// says the claim could not be certified because VeriPB rejected the
/// proof, and holds each of `also`. Returns the error's text.
pub fn assert_veripb_refuses<T, E: std::fmt::Display>(
    result: Result<T, E>,
    also: &[&str],
) -> String {
    let Err(e) = result else {
        panic!("the claim is refused")
    };
    let text = format!("{e:#}");
    assert!(
        text.contains("could not be certified")
            && text.contains("VeriPB rejected")
            && also.iter().all(|a| text.contains(a)),
        "{text}"
    );
    text
}

/// `solve magic -n 4 --method reference --count --cubes CUBES --cube-file
/// FILE` and `extra`: the structured count by cubes over a record file,
/// the run the cube-file tests start from.
pub fn magic_reference_cubes<'a>(cubes: &'a str, file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "solve",
        "magic",
        "-n",
        "4",
        "--method",
        "reference",
        "--count",
        "--cubes",
        cubes,
        "--cube-file",
        file,
    ];
    args.extend_from_slice(extra);
    args
}
