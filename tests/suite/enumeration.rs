//! The enumeration engines (`--enumeration`) against each other and against
//! brute force: every engine, by symmetry classes and by plain enumeration,
//! counts exactly the known numbers (OEIS A000170 and A002562 for queens,
//! the brute-force paths of small rook boards, the 8 magic squares of order
//! 3); `--count` keeps no solution and counts the same; the built-in engine
//! refuses another `--solver`.

use crate::common;

use std::collections::BTreeSet;

use puzzlesat::encodings::solve::EnumerationEngine;
use puzzlesat::puzzles::magic::Magic;
use puzzlesat::puzzles::queens::{Options, Queens, Symmetry as ClassSymmetry};
use puzzlesat::puzzles::rook_tour::encode::{
    ClassSymmetry as RookClassSymmetry, Options as RookOptions,
};
use puzzlesat::puzzles::rook_tour::model::Instance;
use puzzlesat::puzzles::rook_tour::{reference, RookTour};
use puzzlesat::run::{self, RunOptions, Status};

/// OEIS A000170, n = 1..10.
const SOLUTIONS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
/// OEIS A002562, n = 1..10.
const CLASSES: [u64; 10] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92];

fn opts(engine: EnumerationEngine, no_classes: bool, count_only: bool) -> RunOptions {
    RunOptions {
        all: true,
        no_classes,
        count_only,
        enumeration: Some(engine),
        ..Default::default()
    }
}

#[test]
fn every_engine_counts_queens_by_classes_and_plainly() {
    for engine in EnumerationEngine::ALL.iter().copied() {
        for n in 1..=9 {
            for class_symmetry in ClassSymmetry::ALL.iter().copied() {
                let p = Queens {
                    class_symmetry,
                    ..Queens::new(n, Options::default())
                };
                let r = run::run_quiet(&p, &opts(engine, false, false)).unwrap();
                let what = format!("{engine} {class_symmetry} n = {n}");
                assert_eq!(r.count, Some(SOLUTIONS[n - 1]), "{what}");
                assert_eq!(r.classes, Some(CLASSES[n - 1]), "{what}");
                let distinct: BTreeSet<&Vec<usize>> = r.solutions.iter().map(|s| &s.cols).collect();
                assert_eq!(distinct.len() as u64, SOLUTIONS[n - 1], "{what}: repeats");
                let want = if n == 2 || n == 3 {
                    Status::Unsat
                } else {
                    Status::All
                };
                assert_eq!(r.status, want, "{what}");
            }
            let p = Queens::new(n, Options::default());
            let plain = run::run_quiet(&p, &opts(engine, true, false)).unwrap();
            assert_eq!(
                plain.count,
                Some(SOLUTIONS[n - 1]),
                "{engine} plain n = {n}"
            );
            assert_eq!(plain.classes, None);
            // --count: the same count, no solution kept
            let counted = run::run_quiet(&p, &opts(engine, false, true)).unwrap();
            assert_eq!(
                counted.count,
                Some(SOLUTIONS[n - 1]),
                "{engine} --count n = {n}"
            );
            assert!(counted.solutions.is_empty());
        }
    }
}

fn board(rows: usize, cols: usize, tour: bool) -> Instance {
    let grid = vec![vec!["."; cols].join(" "); rows].join("\n");
    let text =
        format!("rows = {rows}\ncols = {cols}\ntour = {tour}\ngrid = \"\"\"\n{grid}\n\"\"\"\n");
    Instance::from_toml(&text, "board").unwrap()
}

#[test]
fn every_engine_finds_the_brute_force_paths_of_small_boards() {
    for (rows, cols) in [(2, 3), (3, 3), (3, 4), (4, 4)] {
        for tour in [false, true] {
            let inst = board(rows, cols, tour);
            let mut brute = reference::all_solutions(&inst);
            brute.sort();
            for engine in EnumerationEngine::ALL.iter().copied() {
                for (no_classes, class_symmetry) in [
                    (true, RookClassSymmetry::FirstRow),
                    (false, RookClassSymmetry::FirstRow),
                    (false, RookClassSymmetry::LexLeader),
                ] {
                    let p = RookTour {
                        class_symmetry,
                        ..RookTour::new(inst.clone(), RookOptions::default())
                    };
                    let r = run::run_quiet(&p, &opts(engine, no_classes, false)).unwrap();
                    let mut sols = r.solutions.clone();
                    sols.sort();
                    let what = format!("{rows}x{cols} tour={tour} {engine} no_classes={no_classes} {class_symmetry}");
                    assert_eq!(sols, brute, "{what}");
                    assert_eq!(r.count, Some(brute.len() as u64), "{what}");
                }
            }
        }
    }
}

#[test]
fn every_engine_counts_the_order_3_magic_squares() {
    for engine in EnumerationEngine::ALL.iter().copied() {
        let p = Magic::new(3, Default::default());
        let r = run::run_quiet(&p, &opts(engine, true, false)).unwrap();
        assert_eq!((r.count, r.status), (Some(8), Status::All), "{engine}");
    }
}

#[test]
fn the_built_in_engine_is_a_solver_of_its_own() {
    let (code, _, err) = common::run(&[
        "solve",
        "queens",
        "-n",
        "6",
        "--count",
        "--solver",
        "varisat",
        "--enumeration",
        "non-blocking",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("built-in all-solutions engine"), "{err}");
    // another solver alone enumerates by blocking clauses in that solver
    let out = common::output(&[
        "solve", "queens", "-n", "6", "--count", "--solver", "varisat", "--json",
    ]);
    assert_eq!(out.status.code(), Some(10));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["count"], 4);
    assert!(
        report["solver"].as_str().unwrap().contains("arisat"),
        "{report}"
    );
    let out = common::output(&["solve", "queens", "-n", "8", "--count", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["count"].as_u64(), report["classes"].as_u64()),
        (Some(92), Some(12))
    );
    assert!(report["solver"]
        .as_str()
        .unwrap()
        .contains("all-solutions engine (non-blocking)"));
}

#[test]
fn the_engine_honours_the_time_limit() {
    // 39,029,188,884 placements: far from done after a second
    let started = std::time::Instant::now();
    let (code, out, _) = common::run(&["solve", "queens", "-n", "20", "--count", "--timeout", "1"]);
    let took = started.elapsed().as_secs_f64();
    assert!(
        took < common::HANG_GUARD.as_secs_f64(),
        "stopped after {took:.1} s"
    );
    assert!(matches!(code, Some(10) | Some(0)), "{code:?} {out}");
    assert!(out.contains("stopped by the time limit"), "{out}");
    assert!(!out.contains("exactly"), "{out}");
}
