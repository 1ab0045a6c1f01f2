//! What a part may claim (issue 27): a cluster job, a cube count and a
//! reduced CNF say what they are about, never more; a file the program did
//! not write is never changed; no environment variable panics; no special
//! file blocks; the time limit holds while a CNF is built and loaded.

use crate::common;

use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_puzzlesat")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The summary line of a text report (the line that is not a `c` line,
/// not a drawing).
fn line_with<'a>(out: &'a str, start: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting with {start:?} in:\n{out}"))
}

/// Runs `args`, killing the run past `limit` (a hang guard: None then).
fn run_guarded(args: &[&str], limit: Duration) -> Option<Output> {
    let mut cmd = Command::new(bin());
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    common::output_within(cmd, limit)
}

// ---- cluster jobs and cube counts ----

#[test]
fn a_cluster_job_speaks_for_its_cube_and_exits_0() {
    // the count of one cube of queens n = 9 (352 in all)
    let (code, out, err) = common::run(&[
        "solve", "queens", "-n", "9", "--count", "--cubes", "8", "--cube", "5",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let summary = line_with(&out, "cube 5 of 8");
    assert!(
        summary.contains("not the puzzle's answer")
            && summary.contains("exactly 32 solutions, in 4 classes in this cube")
            && summary.contains("under the cube's assumptions")
            && summary.contains("--cube-file")
            && !out.contains("of the puzzle's whole symmetry group"),
        "{out}"
    );
    // an optimisation cube with no model: not "no solution exists", not exit 20
    let (code, out, err) = common::run(&[
        "solve", "enigma", "-n", "7", "--method", "board", "--cubes", "4", "--cube", "1",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let summary = line_with(&out, "cube 1 of 4");
    assert!(
        summary.contains("no solution in this cube (proven: UNSAT under the cube's assumptions)")
            && summary.contains("the best over every cube")
            && !out.contains("no solution exists"),
        "{out}"
    );
    // its JSON keeps the cube's own status (what a cube file reads)
    let (code, out, _) = common::run(&[
        "solve", "queens", "-n", "9", "--count", "--cubes", "8", "--cube", "5", "--json",
    ]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            v["status"].as_str(),
            v["count"].as_u64(),
            v["cube"]["index"].as_u64()
        ),
        (Some("all"), Some(32), Some(5))
    );
    assert!(v["sat_calls"].as_u64().unwrap() > 0, "{out}");
}

#[test]
fn a_count_by_cubes_reports_its_sat_calls_and_solver() {
    let (code, out, _) = common::run(&[
        "solve", "queens", "-n", "8", "--count", "--cubes", "4", "--json",
    ]);
    assert_eq!(code, Some(10));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"].as_u64(), Some(92));
    assert!(v["sat_calls"].as_u64().unwrap() >= 4, "{out}");
    assert!(v["sat_answers"].as_u64().unwrap() > 0, "{out}");
    assert!(!v["solver"].as_str().unwrap().starts_with("none"), "{out}");
    assert!(
        ["conflicts", "decisions", "propagations"]
            .iter()
            .any(|k| v["stats"][k].as_u64().is_some()),
        "{out}"
    );
    let (code, out, _) = common::run(&["solve", "queens", "-n", "8", "--count", "--cubes", "4"]);
    assert_eq!(code, Some(10));
    assert!(!out.contains(" 0 SAT calls"), "{out}");
}

#[test]
fn an_interrupted_cube_count_reports_at_least_what_it_found() {
    let child = Command::new(bin())
        .args([
            "solve", "queens", "-n", "16", "--count", "--cubes", "8", "--json",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: a signal to our own child
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(10), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["stopped_by"].as_str()),
        (Some("partial"), Some("interrupt")),
        "{v}"
    );
    assert!(v["count"].as_u64().unwrap() > 0, "{v}");
    assert!(!v["solver"].as_str().unwrap().starts_with("none"), "{v}");
}

#[test]
fn what_cubes_do_not_do_is_refused_with_the_way_out() {
    // --all --cubes would print no solution: refused
    let (code, _, err) = common::run(&["solve", "queens", "-n", "6", "--all", "--cubes", "4"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--count --cubes"), "{err}");
    // a puzzle without an objective, without --count: pointed to --count
    let (code, _, err) = common::run(&["solve", "queens", "-n", "9", "--cubes", "8"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--count --cubes K counts its solutions"),
        "{err}"
    );
    // a proof solver that cannot run: refused before anything is solved
    let (code, _, err) = common::run(&[
        "solve",
        "enigma",
        "-n",
        "7",
        "--method",
        "board",
        "--cubes",
        "4",
        "--certify",
        "--proof-solver",
        "external:/nonexistent",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: ")
            && err.contains("no file /nonexistent")
            && err.lines().count() == 1,
        "{err}"
    );
    let (code, _, err) = common::run(&["solve", "queens", "-n", "5", "--proof-solver", "varisat"]);
    assert_eq!(code, Some(2), "{err}");
}

// ---- reduced counts ----

#[test]
fn a_reduced_count_says_what_it_counts() {
    let (code, out, _) =
        common::run(&["solve", "enigma", "-n", "4", "--method", "board", "--count"]);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("exactly 24 solutions of the reduced CNF")
            && out.contains("--symmetry none --redundant none --dominance none counts every board"),
        "{out}"
    );
    let (code, out, _) = common::run(&[
        "solve",
        "enigma",
        "-n",
        "4",
        "--method",
        "board",
        "--count",
        "--symmetry",
        "none",
        "--redundant",
        "none",
        "--dominance",
        "none",
    ]);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("exactly 72 solutions with that value") && !out.contains("reduced"),
        "{out}"
    );
}

#[test]
fn class_symmetry_is_refused_where_it_does_nothing() {
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/rook-empty-4x4.toml");
    for args in [
        &[
            "solve",
            "queens",
            "-n",
            "6",
            "--class-symmetry",
            "lex-leader",
        ][..],
        &[
            "solve",
            "queens",
            "-n",
            "6",
            "--count",
            "--no-classes",
            "--class-symmetry",
            "lex-leader",
        ],
        &[
            "dimacs",
            "queens",
            "-n",
            "6",
            "--class-symmetry",
            "left-half",
        ],
        &[
            "solve",
            "rook-tour",
            "--instance",
            board,
            "--count",
            "--symmetry",
            "first-row",
            "--class-symmetry",
            "lex-leader",
        ],
    ] {
        let (code, _, err) = common::run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--class-symmetry") && err.contains("no effect"),
            "{args:?}: {err}"
        );
    }
    let (code, out, _) = common::run(&[
        "solve",
        "queens",
        "-n",
        "6",
        "--count",
        "--class-symmetry",
        "lex-leader",
    ]);
    assert_eq!(code, Some(10));
    assert!(out.contains("exactly 4 solutions, in 1 class"), "{out}");
}

#[test]
fn a_board_too_big_for_class_counting_names_the_option_and_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("empty-32.toml");
    let grid: String = (0..32)
        .map(|_| format!("{}\n", vec!["."; 32].join(" ")))
        .collect();
    std::fs::write(
        &board,
        format!("rows = 32\ncols = 32\ngrid = \"\"\"\n{grid}\"\"\"\n"),
    )
    .unwrap();
    let (code, _, err) = common::run(&[
        "solve",
        "rook-tour",
        "--instance",
        board.to_str().unwrap(),
        "--count",
        "--class-symmetry",
        "lex-leader",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--class-symmetry lex-leader")
            && err.contains("--no-classes")
            && !err.contains("symmetry=first-row")
            && !err.contains("symmetry=lex-leader"),
        "{err}"
    );
}

// ---- the cube file ----

/// The counting command of queens n = 8 on 4 cubes, on `file`.
fn q8(file: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "solve",
        "queens",
        "-n",
        "8",
        "--count",
        "--cubes",
        "4",
        "--cube-file",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    common::run(&args)
}

#[test]
fn a_file_that_is_not_a_cube_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("imp.txt");
    for content in [
        &b"IMPORTANT: do not delete this line"[..],
        b"IMPORTANT\n",
        b"{\"schema_version\":7,\"puzzle\":\"something else\"",
        b"\xff\xfe",
    ] {
        std::fs::write(&file, content).unwrap();
        for extra in [&[][..], &["--cube", "1"]] {
            let (code, _, err) = q8(&file, extra);
            assert_eq!(code, Some(2), "{content:?} {extra:?}: {err}");
            assert!(err.contains("imp.txt line 1"), "{err}");
            assert_eq!(std::fs::read(&file).unwrap(), content, "{extra:?}");
        }
    }
}

#[test]
fn a_whole_last_record_without_its_newline_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q8.jsonl");
    assert_eq!(q8(&file, &[]).0, Some(10));
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 4);
    // three whole records, the third without its newline
    std::fs::write(&file, format!("{}\n{}\n{}", lines[0], lines[1], lines[2])).unwrap();
    let (code, out, err) = q8(&file, &[]);
    assert_eq!(code, Some(10), "{err}");
    assert!(
        out.contains("exactly 92 solutions") && out.contains("1 in this run; the other 3 cubes"),
        "{out}"
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(
        after.starts_with(&format!("{}\n{}\n{}\n{{", lines[0], lines[1], lines[2])),
        "{after}"
    );
    assert_eq!(after.lines().count(), 4);
    // a byte order mark at the head is skipped
    std::fs::write(&file, format!("\u{feff}{after}")).unwrap();
    let (code, out, err) = q8(&file, &[]);
    assert_eq!(code, Some(10), "{err}");
    assert!(out.contains("0 in this run; the other 4 cubes"), "{out}");
}

#[test]
fn a_locked_cube_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q8.jsonl");
    let held = std::fs::File::create(&file).unwrap();
    // SAFETY: flock on a file this test owns
    let locked = unsafe {
        libc::flock(
            std::os::fd::AsRawFd::as_raw_fd(&held),
            libc::LOCK_EX | libc::LOCK_NB,
        )
    };
    assert_eq!(locked, 0);
    let (code, _, err) = q8(&file, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("locked by another process"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"");
    drop(held);
    assert_eq!(q8(&file, &[]).0, Some(10));
}

#[test]
fn a_fifo_as_cube_file_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo on a path in our own temporary directory
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let f = fifo.to_str().unwrap();
    // a hang guard, not a timing: the old build blocked in open() forever
    let o = run_guarded(
        &[
            "solve",
            "queens",
            "-n",
            "8",
            "--count",
            "--cubes",
            "4",
            "--cube-file",
            f,
        ],
        Duration::from_secs(60),
    )
    .expect("the run ends (it blocked on the FIFO)");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("not a regular file"),
        "{}",
        text(&o.stderr)
    );
}

// ---- panics and limits ----

#[test]
fn no_heartbeat_value_panics() {
    let dir = tempfile::tempdir().unwrap();
    for value in ["1e300", "inf", "NaN", "-1", "1e-300", "x"] {
        let err = dir.path().join("err.txt");
        let file = std::fs::File::create(&err).unwrap();
        // stderr to a file: the heartbeat runs (not a terminal)
        let o = Command::new(bin())
            .args(["solve", "queens", "-n", "6", "--count"])
            .env("PUZZLESAT_PROGRESS_SECONDS", value)
            .stderr(file)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(10),
            "{value}: {}",
            std::fs::read_to_string(&err).unwrap()
        );
    }
}

#[test]
fn the_time_limit_holds_while_a_large_cnf_is_built_and_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("line.toml");
    let row = vec!["."; 1024].join(" ");
    std::fs::write(&board, format!("rows = 1\ncols = 1024\ngrid = \"{row}\"\n")).unwrap();
    let mut cmd = Command::new(bin());
    cmd.args([
        "solve",
        "rook-tour",
        "--instance",
        board.to_str().unwrap(),
        "--count",
        "--timeout",
        "1",
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    // SAFETY: only setrlimit between fork and exec: 6 GiB of address space
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 6 << 30,
                rlim_max: 6 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let start = Instant::now();
    let o = cmd.output().unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("stopped by the time limit"), "{out}");
    // the old build returned after 11 s (8.9 s loading without a look at the
    // clock); the limit and its 0.5 s grace, with room for a loaded machine
    // (5 times the 1.5 s it takes; the old build's 11 s stays caught)
    assert!(seconds < 8.0, "{seconds} s for --timeout 1");
}
