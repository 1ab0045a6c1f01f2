//! Output modes through the binary (issue 13): `--all` headers, `-q` the
//! summary only, `--count` the count only (text and JSON, same fields),
//! plurals, and the progress heartbeat when stderr is not a terminal (and
//! that it ends with the run, adding nothing to its time).

use crate::common;

use common::run_with_env as run;

const GRID_1: &str = "2 7 6\n9 5 1\n4 3 8\n";

#[test]
fn all_prints_a_header_per_solution() {
    let (code, out, _) = run(&["solve", "magic", "-n", "3", "--all"], &[]);
    assert_eq!(code, Some(10));
    for i in 1..=8 {
        assert!(out.contains(&format!("solution {i} of 8\n")), "{out}");
    }
    assert!(!out.contains("solution 9"), "{out}");
    assert!(out.contains(&format!("solution 1 of 8\n{GRID_1}")), "{out}");
    assert!(
        out.contains("exactly 8 solutions, in 1 class of the puzzle's whole symmetry group (complete: final UNSAT on the classes' representatives)"),
        "{out}"
    );
    // stopped early: the count is not final, the header has no total
    let (code, out, _) = run(&["solve", "magic", "-n", "3", "--all", "--limit", "2"], &[]);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("solution 2\n") && !out.contains(" of "),
        "{out}"
    );
    assert!(out.contains("at least 2 solutions"), "{out}");
}

#[test]
fn one_solution_and_one_class_are_singular() {
    let (code, out, _) = run(&["solve", "magic", "-n", "3", "--all", "--limit", "1"], &[]);
    assert_eq!(code, Some(10));
    assert!(out.contains("at least 1 solution (enumeration"), "{out}");
    // 3×3 magic squares are one class under the 8 symmetries of the square
    let (code, out, _) = run(
        &[
            "solve",
            "magic",
            "-n",
            "3",
            "--symmetry",
            "lex-leader",
            "--count",
        ],
        &[],
    );
    assert_eq!(code, Some(10), "{out}");
    assert!(
        out.starts_with(
            "exactly 1 symmetry class (one lex-leader representative), in 1 class of the puzzle's whole symmetry group ("
        ),
        "{out}"
    );
    assert!(!out.contains("1 classes"), "{out}");
}

#[test]
fn quiet_prints_the_summary_and_count_prints_only_the_count() {
    let (code, out, _) = run(&["solve", "magic", "-n", "3", "--all", "-q"], &[]);
    assert_eq!(code, Some(10));
    assert_eq!(out, "exactly 8 solutions, in 1 class of the puzzle's whole symmetry group (complete: final UNSAT on the classes' representatives)\n");
    let (code, out, _) = run(&["solve", "magic", "-n", "3", "--count"], &[]);
    assert_eq!(code, Some(10));
    assert_eq!(out, "exactly 8 solutions, in 1 class of the puzzle's whole symmetry group (complete: final UNSAT on the classes' representatives)\n");
    // an optimisation with --all keeps its optimum in the summary (Alien
    // Tiles 4×4/3: 10 clicks; 19 classes of optimal click matrices)
    let (code, out, _) = run(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--all",
            "-q",
        ],
        &[],
    );
    assert_eq!(code, Some(10));
    assert!(out.starts_with("optimal: 10 (proven"), "{out}");
    assert!(
        out.contains("exactly 53 symmetry-reduced solutions (not one per class"),
        "{out}"
    );
    assert!(
        out.contains("\n53 optimal click matrices enumerated; 19 classes under the 1152"),
        "{out}"
    );
    let (_, out, _) = run(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--all",
            "--limit",
            "1",
            "-q",
        ],
        &[],
    );
    assert!(
        out.contains("at least 1 symmetry-reduced solution (not"),
        "{out}"
    );
    assert!(
        out.contains("\n1 optimal click matrix enumerated; 1 class under"),
        "{out}"
    );
    assert!(!out.contains("\nc "), "{out}");
    // JSON: the same fields, solutions empty, the count kept
    let json = |extra: &str| {
        let mut args = vec!["solve", "magic", "-n", "3", "--all", "--json"];
        if !extra.is_empty() {
            args.push(extra);
        }
        let (code, out, _) = run(&args, &[]);
        assert_eq!(code, Some(10));
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let (all, count) = (json(""), json("--count"));
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&all), keys(&count));
    assert_eq!(all["solutions"].as_array().unwrap().len(), 8);
    assert_eq!(count["solutions"], serde_json::json!([]));
    assert_eq!((&all["count"], &count["count"]), (&8.into(), &8.into()));
}

#[test]
fn progress_heartbeat_when_stderr_is_a_pipe() {
    // Alien Tiles 4×4/3 without symmetry breaking takes a few seconds (the
    // slowest configuration of docs/alien-tiles.md); stderr is a pipe here
    let (code, out, err) = run(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--symmetry",
            "none",
            "--minimality",
            "eager",
        ],
        &[("PUZZLESAT_PROGRESS_SECONDS", "0.5")],
    );
    assert_eq!(code, Some(10));
    assert!(out.contains("optimal: 10 (proven"), "{out}");
    let beats: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("c progress: "))
        .collect();
    assert!(beats.len() >= 2, "{err}");
    assert!(
        beats[0].contains("s elapsed; latest: improved: objective"),
        "{err}"
    );
    // -q: no progress at all
    let (_, _, err) = run(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "-q",
        ],
        &[("PUZZLESAT_PROGRESS_SECONDS", "0.01")],
    );
    assert_eq!(err, "");
}

/// The heartbeat thread stops at once (issue 22): with stderr to a file, a
/// small run's `total` is its phases plus parsing and printing, not a wait
/// for a sleeping thread (that used to add up to 50 ms, the thread's sleep
/// step: 36–51 ms to this 3 ms solve). Enigma n = 5, because its report is
/// printed after the progress sink is dropped (magic's staged finder prints
/// before). The median of five runs, so that one run descheduled on a
/// loaded machine does not fail the test.
#[test]
fn a_small_runs_total_is_its_phases() {
    let dir = tempfile::tempdir().unwrap();
    let gaps: Vec<f64> = (0..5)
        .map(|i| {
            let err = dir.path().join(format!("{i}.err"));
            let (code, out) = common::run_with_stderr_file(
                &["solve", "enigma", "-n", "5", "--method", "board", "--json"],
                &err,
            );
            assert_eq!(code, Some(10), "{out}");
            let report: serde_json::Value = serde_json::from_str(&out).unwrap();
            let phases: puzzlesat::report::Phases =
                serde_json::from_value(report["seconds"].clone()).unwrap();
            common::unaccounted_seconds(&phases)
        })
        .collect();
    assert!(gaps.iter().all(|g| *g >= -1e-9), "{gaps:?}");
    assert!(
        common::median(gaps.clone()) < common::UNACCOUNTED_LIMIT_SECONDS,
        "seconds unaccounted: {gaps:?}"
    );
}

#[test]
fn large_outputs_are_capped_unless_print_all() {
    // magic 4×4, every square: 7040 drawings (492 kB) capped at 100 kB
    let (code, out, _) = run(&["solve", "magic", "-n", "4", "--all"], &[]);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("solution 1444 of 7040\n"),
        "{}",
        &out[out.len() - 600..]
    );
    assert!(!out.contains("solution 1445 "));
    assert!(
        out.contains("\n(5596 solutions not printed: 392 kB of text past the cap of 100 kB; --print all prints them)\nexactly 7040 solutions"),
        "{}",
        &out[out.len() - 600..]
    );
    let (_, all, _) = run(
        &["solve", "magic", "-n", "4", "--all", "--print", "all"],
        &[],
    );
    assert!(all.contains("solution 7040 of 7040\n") && !all.contains("not printed"));
    assert_eq!(all.matches("\nsolution ").count(), 7040);
    // one board over the cap: Enigma n = 150 (114 kB)
    let (code, out, _) = run(
        &["solve", "enigma", "-n", "150", "--method", "reference"],
        &[],
    );
    assert_eq!(code, Some(10));
    assert!(
        out.starts_with("enigma n=150 method=reference\n(1 solution not printed: 114 kB of text past the cap of 100 kB; --print all prints it)\noptimal: "),
        "{out}"
    );
    let (_, all, _) = run(
        &[
            "solve",
            "enigma",
            "-n",
            "150",
            "--method",
            "reference",
            "--print",
            "all",
        ],
        &[],
    );
    assert!(all.contains("\npartition: {2, 2, 2,") && !all.contains("not printed"));
    // JSON carries every solution whatever --print says
    let (_, json, _) = run(&["solve", "magic", "-n", "4", "--all", "--json"], &[]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["solutions"].as_array().unwrap().len(), 7040);
}

/// Option help lists each value once (issue 13 saw "none: none:" in
/// `solve rook-tour --help`): no word followed by itself, colon and all.
#[test]
fn help_texts_repeat_no_word() {
    for puzzle in ["enigma", "rook-tour", "magic", "alien-tiles"] {
        let (code, help, _) = run(&["solve", puzzle, "--help"], &[]);
        assert_eq!(code, Some(0));
        let words: Vec<&str> = help.split_whitespace().collect();
        for pair in words.windows(2) {
            assert!(
                !(pair[0] == pair[1] && pair[0].ends_with(':')),
                "solve {puzzle} --help: '{} {}'",
                pair[0],
                pair[1]
            );
        }
    }
}

/// `--competition`, the MaxSAT / PB evaluations' output: `o` lines as the
/// objective improves, one of the four status lines, a `v` line with the
/// answer, and exit 30 for a proven optimum (10, 20, 0 otherwise).
#[test]
fn competition_output_has_the_evaluations_four_status_lines() {
    let status = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("s "))
            .map(String::from)
            .collect()
    };
    // a proven optimum: improving `o` lines ending at 544
    let args = ["solve", "enigma", "-n", "8", "--method", "board"];
    let (code, out, _) = run(&[&args[..], &["--competition", "-q"]].concat(), &[]);
    assert_eq!(code, Some(30), "{out}");
    assert_eq!(status(&out), ["s OPTIMUM FOUND"], "{out}");
    let o: Vec<i64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("o "))
        .map(|v| v.parse().expect("an o line's value"))
        .collect();
    assert_eq!(o.last(), Some(&544), "{out}");
    assert!(o.windows(2).all(|w| w[0] < w[1]), "{o:?}");
    let v = out
        .lines()
        .find_map(|l| l.strip_prefix("v "))
        .expect("a v line");
    assert!(v.starts_with('{'), "{v}");
    // without --competition, the same run keeps exit 10 and prints no o line
    let (code, out, _) = run(&[&args[..], &["-q"]].concat(), &[]);
    assert_eq!(code, Some(10), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("o ")), "{out}");
    // a solution without an objective: SATISFIABLE
    let (code, out, _) = run(&["solve", "queens", "-n", "8", "--competition"], &[]);
    assert_eq!(code, Some(10), "{out}");
    assert_eq!(status(&out), ["s SATISFIABLE"], "{out}");
    assert!(out.lines().any(|l| l.starts_with("v ")), "{out}");
    // no placement of 3 queens: UNSATISFIABLE, no v line
    let (code, out, _) = run(&["solve", "queens", "-n", "3", "--competition"], &[]);
    assert_eq!(code, Some(20), "{out}");
    assert_eq!(status(&out), ["s UNSATISFIABLE"], "{out}");
    assert!(!out.lines().any(|l| l.starts_with("v ")), "{out}");
    // a time limit before any answer: UNKNOWN
    let (code, out, _) = run(
        &[
            "solve",
            "enigma",
            "-n",
            "12",
            "--method",
            "board",
            "--timeout",
            "0.01",
            "--competition",
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(status(&out), ["s UNKNOWN"], "{out}");
}

/// The top-level `--help` names the five families.
#[test]
fn help_names_the_five_families() {
    let (code, help, _) = run(&["--help"], &[]);
    assert_eq!(code, Some(0));
    for family in [
        "Enigma 1225",
        "rook tours",
        "magic squares",
        "Alien Tiles",
        "N-queens",
    ] {
        assert!(help.contains(family), "{family}: {help}");
    }
}
