//! Counting cube by cube (`--count --cubes`, `drive/cubes/count.rs`): the
//! sum of the cubes is the count (OEIS A000170 and A002562 for queens, the
//! 552 paths of the empty 4×4 board), a rerun resumes from the records, a
//! killed run's lost cubes are counted again, a cluster job's records sum
//! to the same count, and records that were edited, cut short or written
//! by another build are refused or named.

use crate::common;

use puzzlesat::drive::cubes::count::count_fingerprint;
use puzzlesat::report::CubeRecord;

fn count_line(out: &str) -> &str {
    out.lines()
        .find(|l| l.starts_with("exactly"))
        .unwrap_or_else(|| panic!("no count line in {out}"))
}

#[test]
fn the_cubes_sum_to_the_count_and_a_rerun_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q9.jsonl");
    let f = file.to_str().unwrap();
    let args = [
        "solve",
        "queens",
        "-n",
        "9",
        "--count",
        "--cubes",
        "8",
        "--jobs",
        "2",
        "--cube-file",
        f,
    ];
    let (code, out, err) = common::run(&args);
    assert_eq!(code, Some(10), "{err}");
    assert!(
        count_line(&out).starts_with("exactly 352 solutions, in 46 classes")
            && out.contains("every one of the 8 cubes ended on UNSAT")
            && out.contains("8 in this run"),
        "{out}"
    );
    let lines = std::fs::read_to_string(&file).unwrap();
    assert_eq!(lines.lines().count(), 8);
    // a rerun counts nothing and says the count rests on the records
    let (code, out, _) = common::run(&args);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("exactly 352 solutions, in 46 classes"),
        "{out}"
    );
    assert!(
        out.contains("0 in this run; the other 8 cubes closed by the records of"),
        "{out}"
    );
    // a killed run: three records and a torn fourth line; the rest is counted again
    let kept: Vec<&str> = lines.lines().take(3).collect();
    let torn = &lines.lines().nth(3).unwrap()[..40];
    std::fs::write(&file, format!("{}\n{torn}", kept.join("\n"))).unwrap();
    let (code, out, err) = common::run(&args);
    assert_eq!(code, Some(10), "{err}");
    assert!(
        out.contains("exactly 352 solutions, in 46 classes"),
        "{out}"
    );
    assert!(out.contains("5 in this run; the other 3 cubes"), "{out}");
    assert!(err.contains("3 counted by the records of"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 8);
}

/// The file's line of cube `index`, changed by `edit`, its fingerprint
/// recomputed or not.
fn edited(line: &str, refingerprint: bool, edit: impl Fn(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    edit(&mut v);
    if refingerprint {
        let c: CubeRecord = serde_json::from_value(v["cube"].clone()).unwrap();
        let fp = count_fingerprint(
            v["puzzle"].as_str().unwrap(),
            &c,
            v["count"].as_u64(),
            v["classes"].as_u64(),
        );
        v["cube"]["fingerprint"] = fp.into();
    }
    serde_json::to_string(&v).unwrap()
}

#[test]
fn records_that_do_not_belong_are_refused_or_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q8.jsonl");
    let f = file.to_str().unwrap();
    let args = [
        "solve",
        "queens",
        "-n",
        "8",
        "--count",
        "--cubes",
        "4",
        "--cube-file",
        f,
    ];
    assert_eq!(common::run(&args).0, Some(10));
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let with_first = |first: String| {
        let mut all = vec![first];
        all.extend(lines[1..].iter().cloned());
        std::fs::write(&file, all.join("\n") + "\n").unwrap();
    };
    // a count edited by hand: refused
    with_first(edited(&lines[0], false, |v| v["count"] = 1000.into()));
    let (code, _, err) = common::run(&args);
    assert_eq!(code, Some(2));
    assert!(err.contains("does not match its fingerprint"), "{err}");
    // two records of one cube that disagree: refused
    let mut twice = lines.clone();
    twice.push(edited(&lines[0], true, |v| v["count"] = 1000.into()));
    std::fs::write(&file, twice.join("\n") + "\n").unwrap();
    let (code, _, err) = common::run(&args);
    assert_eq!(code, Some(2));
    assert!(err.contains("the records contradict each other"), "{err}");
    // another build's record: refused, or taken and named under --trust-cube-file
    with_first(edited(&lines[0], true, |v| {
        v["cube"]["build"] = "puzzlesat 0.0.1 (commit old)".into()
    }));
    let (code, _, err) = common::run(&args);
    assert_eq!(code, Some(2));
    assert!(err.contains("--trust-cube-file"), "{err}");
    let trusted: Vec<&str> = args.iter().copied().chain(["--trust-cube-file"]).collect();
    let (code, out, _) = common::run(&trusted);
    assert_eq!(code, Some(10));
    assert!(out.contains("exactly 92 solutions, in 12 classes"), "{out}");
    assert!(
        out.contains("puzzlesat 0.0.1 (commit old)") && out.contains("trusted"),
        "{out}"
    );
    // a cluster job's line for a cube it did not finish: counts nothing,
    // the cube is counted again
    with_first(edited(&lines[0], true, |v| {
        v["status"] = "unknown".into();
        v["count"] = serde_json::Value::Null;
        v["classes"] = serde_json::Value::Null;
        v["cube"]["closed"] = false.into();
    }));
    let (code, out, _) = common::run(&args);
    assert_eq!(code, Some(10));
    assert!(out.contains("exactly 92 solutions, in 12 classes"), "{out}");
    assert!(out.contains("1 in this run; the other 3 cubes"), "{out}");
    // another puzzle's file: refused
    let other = [
        "solve",
        "queens",
        "-n",
        "7",
        "--count",
        "--cubes",
        "4",
        "--cube-file",
        f,
    ];
    let (code, _, err) = common::run(&other);
    assert_eq!(code, Some(2));
    assert!(err.contains("a cube of another run"), "{err}");
}

#[test]
fn cluster_jobs_sum_to_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r4.jsonl");
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/rook-empty-4x4.toml");
    let mut lines = String::new();
    for i in 0..4 {
        let cube = i.to_string();
        let out = common::output(&[
            "solve",
            "rook-tour",
            "--instance",
            board,
            "--count",
            "--cubes",
            "4",
            "--cube",
            &cube,
            "--json",
        ]);
        lines += &String::from_utf8(out.stdout).unwrap();
    }
    std::fs::write(&file, lines).unwrap();
    let (code, out, err) = common::run(&[
        "solve",
        "rook-tour",
        "--instance",
        board,
        "--count",
        "--cubes",
        "4",
        "--cube-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(10), "{err}");
    assert!(
        count_line(&out).starts_with("exactly 552 solutions"),
        "{out}"
    );
    assert!(out.contains("0 in this run; the other 4 cubes"), "{out}");
    // and without classes, by plain enumeration, cube by cube
    let (code, out, _) = common::run(&[
        "solve",
        "rook-tour",
        "--instance",
        board,
        "--count",
        "--cubes",
        "8",
        "--jobs",
        "2",
        "--no-classes",
    ]);
    assert_eq!(code, Some(10));
    assert!(
        count_line(&out).starts_with("exactly 552 solutions (complete"),
        "{out}"
    );
}

/// `--jobs` beyond the cubes to solve starts one thread per cube, and says
/// so on stderr (it used to promise 256 threads for 4 cubes).
#[test]
fn jobs_are_capped_at_the_cubes_and_the_cap_is_said() {
    let (code, out, err) = common::run(&[
        "solve", "queens", "-n", "6", "--count", "--cubes", "4", "--jobs", "256",
    ]);
    assert_eq!(code, Some(10), "{err}");
    assert!(count_line(&out).starts_with("exactly 4 solutions"), "{out}");
    assert!(
        err.contains("c cubes: --jobs 256 capped at 4: one thread per cube to solve")
            && err.contains("4 to count on 4 thread(s)"),
        "{err}"
    );
    // the optimisation cubes alike
    let (code, _, err) = common::run(&[
        "solve", "enigma", "-n", "5", "--method", "board", "--cubes", "4", "--jobs", "256",
    ]);
    assert_eq!(code, Some(10), "{err}");
    assert!(
        err.contains("--jobs 256 capped at 4") && err.contains("4 to solve on 4 thread(s)"),
        "{err}"
    );
}
