//! The structured count of magic squares (`solve magic --method reference
//! --count`, `puzzles/magic/line_sets.rs`, `drive/line_sets.rs`): the counts
//! of orders 1 to 4 (OEIS A006052 times 8), the same count as the SAT count
//! of the same order, cubes that sum to it, a cube file that a rerun resumes
//! from and that refuses lines it does not belong with, a time limit that
//! ends the run with the cubes counted so far, the counts by the centre
//! value (odd orders), and the options it refuses.

use crate::common;

fn summary(out: &str) -> &str {
    out.lines()
        .next()
        .unwrap_or_else(|| panic!("no summary in {out:?}"))
}

#[test]
fn the_orders_one_to_four_are_counted() {
    for (n, line) in [
        ("1", "exactly 1 square (complete: exact method, no SAT solver)"),
        ("2", "no solution exists (proven: exact method, no SAT solver)"),
        (
            "3",
            "exactly 8 squares, 1 up to rotation and reflection (complete: exact method, no SAT solver)",
        ),
        (
            "4",
            "exactly 7040 squares, 880 up to rotation and reflection (complete: exact method, no SAT solver)",
        ),
    ] {
        let (code, out, err) = common::run(&["solve", "magic", "-n", n, "--method", "reference", "--count"]);
        // none, proven: 20, as the SAT count exits
        let expected = if n == "2" { 20 } else { 10 };
        assert_eq!(code, Some(expected), "n = {n}: {err}");
        assert_eq!(summary(&out), line, "n = {n}");
    }
}

#[test]
fn it_agrees_with_the_sat_count_and_reports_its_stages() {
    let (code, out, err) = common::run(&["solve", "magic", "-n", "4", "--count", "--json"]);
    assert_eq!(code, Some(10), "{err}");
    let sat: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (code, out, err) = common::run(&[
        "solve",
        "magic",
        "-n",
        "4",
        "--method",
        "reference",
        "--count",
        "--json",
    ]);
    assert_eq!(code, Some(10), "{err}");
    let reference: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(sat["count"], 7040);
    assert_eq!(reference["count"], sat["count"]);
    assert_eq!(reference["solver"], "none");
    assert_eq!(reference["classes"], 880);
    let d = &reference["details"];
    assert_eq!(
        (
            &d["row_partitions"],
            &d["pairs"],
            &d["checked"],
            &d["per_checked"]
        ),
        (
            &serde_json::json!(392),
            &serde_json::json!(954),
            &serde_json::json!(880),
            &serde_json::json!(8)
        )
    );
}

#[test]
fn odd_orders_are_counted_by_the_centre_value() {
    let (code, out, err) = common::run(&[
        "solve",
        "magic",
        "-n",
        "3",
        "--method",
        "reference",
        "--count",
        "--json",
    ]);
    assert_eq!(code, Some(10), "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        r["details"]["by_centre"],
        serde_json::json!([0, 0, 0, 0, 8, 0, 0, 0, 0])
    );
}

#[test]
fn the_cubes_sum_to_the_count_and_a_rerun_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m4.jsonl");
    let f = file.to_str().unwrap();
    let args = common::magic_reference_cubes("5", f, &["--jobs", "2", "--json"]);
    let (code, out, err) = common::run(&args);
    assert_eq!(code, Some(10), "{err}");
    let first: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(first["count"], 7040);
    assert_eq!(first["details"]["cubes_this_run"], 5);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    let sum: u64 = lines
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["details"]["squares"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(sum, 7040);
    // a rerun takes every cube from the file
    let (code, out, err) = common::run(&args);
    assert_eq!(code, Some(10), "{err}");
    let again: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(again["count"], 7040);
    assert_eq!(
        (
            &again["details"]["cubes_this_run"],
            &again["details"]["cubes_from_file"]
        ),
        (&serde_json::json!(0), &serde_json::json!(5))
    );
    // a lost cube is counted again
    std::fs::write(&file, lines[..3].join("\n") + "\n").unwrap();
    let (code, out, err) = common::run(&args);
    assert_eq!(code, Some(10), "{err}");
    let resumed: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(resumed["count"], 7040);
    assert_eq!(resumed["details"]["cubes_this_run"], 2);
    // an edited line, and a file of another split, are refused
    let edited = lines[0].replacen("\"squares\":", "\"squares\":1", 1);
    std::fs::write(&file, format!("{edited}\n")).unwrap();
    let (code, _, err) = common::run(&args);
    assert_eq!(code, Some(2));
    assert!(err.contains("edited since it was written"), "{err}");
    std::fs::write(&file, format!("{}\n", lines[0])).unwrap();
    let mut other = args.to_vec();
    other[8] = "4";
    let (code, _, err) = common::run(&other);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("a cube of another run (magic n=4 method=reference, 5 cubes); this run is magic n=4 method=reference, 4 cubes"),
        "{err}"
    );
}

#[test]
fn a_time_limit_ends_the_count_with_what_it_counted() {
    let (code, out, err) = common::run(&[
        "solve",
        "magic",
        "-n",
        "5",
        "--method",
        "reference",
        "--count",
        "--cubes",
        "64",
        "--timeout",
        "1",
    ]);
    let line = summary(&out);
    // no cube finished (a loaded machine): no answer, exit 0, as the SAT count
    if code == Some(0) {
        assert_eq!(
            line,
            "no answer before the limit; stopped by the time limit"
        );
        return;
    }
    assert_eq!(code, Some(10), "{err}");
    assert!(
        line.starts_with("at least ")
            && line.ends_with("squares (enumeration stopped early); stopped by the time limit"),
        "{line}"
    );
}

#[test]
fn what_it_cannot_do_is_refused() {
    for (extra, message) in [
        (&["-n", "4", "--all"][..], "it does not list them (--all)"),
        (&["-n", "6", "--count"][..], "order 1 to 5, not 6"),
        (
            &["-n", "4", "--count", "--symmetry", "order"][..],
            "leave --symmetry",
        ),
        (
            &["-n", "4", "--count", "--certify"][..],
            "uses no SAT solver",
        ),
        (
            &["-n", "4", "--count", "--cubes", "4", "--cube", "1"][..],
            "not --cube I",
        ),
    ] {
        let mut args = vec!["solve", "magic", "--method", "reference"];
        args.extend_from_slice(extra);
        let (code, _, err) = common::run(&args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
