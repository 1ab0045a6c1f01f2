//! N-queens, the fifth family: the counts of OEIS A000170 (solutions) and
//! A002562 (classes under the board's eight symmetries) for n = 1..10 under
//! every encoding, by symmetry classes and by plain enumeration, each count
//! proven by the final UNSAT and every placement passed through the
//! independent checker; and the command line. n = 11 and 12 are in
//! `benches/queens.rs`.

use puzzlesat::encodings::alldiff::AllDiffEncoding;
use puzzlesat::encodings::amo::AmoEncoding;
use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::queens::{Encoding, Options, Placement, Queens};
use puzzlesat::run::{self, RunOptions, Status};

/// OEIS A000170, n = 1..12.
const SOLUTIONS: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
/// OEIS A002562, n = 1..12.
const CLASSES: [u64; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

/// (solutions, classes) of a complete enumeration; every placement distinct
/// and checked.
fn count(n: usize, opts: Options, no_classes: bool) -> (u64, Option<u64>) {
    let p = Queens::new(n, opts);
    let run_opts = RunOptions {
        all: true,
        no_classes,
        ..Default::default()
    };
    let r = run::run_quiet(&p, &run_opts).expect("run");
    let count = r.count.expect("a count");
    match count {
        0 => assert_eq!(r.status, Status::Unsat, "n = {n}"),
        _ => assert_eq!(r.status, Status::All, "n = {n}"),
    }
    let distinct: std::collections::BTreeSet<&Vec<usize>> =
        r.solutions.iter().map(|s| &s.cols).collect();
    assert_eq!(distinct.len() as u64, count, "n = {n}: repeated placements");
    for s in &r.solutions {
        p.check(s).expect("every placement passes the checker");
    }
    (count, r.classes)
}

#[test]
fn counts_match_oeis_by_classes() {
    for n in 1..=10 {
        let (solutions, classes) = count(n, Options::default(), false);
        assert_eq!(solutions, SOLUTIONS[n - 1], "A000170 at n = {n}");
        if solutions > 0 {
            assert_eq!(classes, Some(CLASSES[n - 1]), "A002562 at n = {n}");
        }
    }
}

#[test]
fn every_encoding_counts_the_same_by_plain_enumeration() {
    let mut configs = vec![];
    for amo in AmoEncoding::ALL {
        configs.push(Options {
            amo,
            ..Default::default()
        });
    }
    for alldiff in AllDiffEncoding::ALL {
        configs.push(Options {
            encoding: Encoding::Columns,
            alldiff,
            ..Default::default()
        });
    }
    for o in configs {
        for n in 1..=7 {
            assert_eq!(count(n, o, true).0, SOLUTIONS[n - 1], "n = {n} {o}");
        }
    }
}

#[test]
fn a_model_with_two_queens_in_a_row_is_a_decode_error() {
    let p = Queens::new(2, Options::default());
    let mut cnf = puzzlesat::encodings::Cnf::new();
    let enc = p.encode(&mut cnf).unwrap();
    // every cell true: row 1 holds two queens
    let all = puzzlesat::encodings::Assignment::from_values(vec![true; cnf.n_vars() as usize]);
    let err = p.decode(&enc.map, &all).unwrap_err().to_string();
    assert_eq!(err, "row 1 holds 2 queens in the model");
}

#[test]
fn the_eight_images_of_a_placement() {
    let p = Placement {
        cols: vec![1, 3, 0, 2],
    };
    let images = p.images();
    assert_eq!(images.len(), 8);
    assert!(images.contains(&p));
    // the two 4-queens solutions are mirror images
    assert!(images.contains(&Placement {
        cols: vec![2, 0, 3, 1]
    }));
}

#[test]
fn cli_counts_and_draws() {
    let bin = env!("CARGO_BIN_EXE_puzzlesat");
    let out = std::process::Command::new(bin)
        .args(["solve", "queens", "-n", "8", "--count"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("exactly 92 solutions, in 12 classes"),
        "{text}"
    );
    let out = std::process::Command::new(bin)
        .args(["solve", "queens", "-n", "4", "--encoding", "columns"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains('Q')).count(),
        4,
        "{text}"
    );
    let out = std::process::Command::new(bin)
        .args(["solve", "queens", "-n", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20));
    let list = std::process::Command::new(bin)
        .arg("list")
        .output()
        .unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(list.contains("queens — N-queens"), "{list}");
    assert!(
        list.contains("--alldiff amo-per-value|permutation (default permutation)"),
        "{list}"
    );
}
