//! Magic squares: counts proven by a final UNSAT, the CNF's solution sets
//! compared with brute force and with the structured reference enumerator,
//! symmetry breaking counted against orbit counts, completion files.

use crate::common;

use std::collections::BTreeSet;

use common::run as binary;
use puzzlesat::cli::magic as cli;
use puzzlesat::encodings::amo::AmoEncoding;
use puzzlesat::encodings::ClauseDatabase;
use puzzlesat::front::PuzzleArgs;
use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::magic::check::{check_square, in_seed_order};
use puzzlesat::puzzles::magic::encode::square_symmetries;
use puzzlesat::puzzles::magic::symmetry;
use puzzlesat::puzzles::magic::{
    reference, CellEncoding, Decisions, Givens, Magic, Options, Square, SumEncoding, Symmetry,
};
use puzzlesat::run::{self, RunOptions, Status};

/// Every solution of `p`, with the proof that the list is complete (by
/// symmetry classes where the run does that by default).
fn all_solutions(p: &Magic) -> Vec<Square> {
    solutions_by(p, false)
}

/// Every solution of `p`; `no_classes`: by plain enumeration.
fn solutions_by(p: &Magic, no_classes: bool) -> Vec<Square> {
    let opts = RunOptions {
        all: true,
        no_classes,
        ..Default::default()
    };
    let r = run::run_quiet(p, &opts).expect("run");
    // a complete enumeration of no solution is reported as infeasible
    let complete = match r.status {
        Status::All => true,
        Status::Unsat => r.solutions.is_empty(),
        _ => false,
    };
    assert!(
        complete,
        "{}: enumeration must end on UNSAT ({:?})",
        p.describe(),
        r.status
    );
    assert_eq!(r.count, Some(r.solutions.len() as u64));
    r.solutions
}

fn count(n: usize, o: Options) -> usize {
    all_solutions(&Magic::new(n, o)).len()
}

/// Every combination of cell and sum encodings that the encoder accepts.
fn encodings() -> Vec<Options> {
    let mut v = vec![];
    for cells in CellEncoding::ALL {
        for sum in SumEncoding::ALL {
            if sum == SumEncoding::Unary && cells == CellEncoding::Direct
                || sum == SumEncoding::Pairs && cells != CellEncoding::Order
            {
                continue;
            }
            v.push(Options {
                cells,
                sum,
                digit_counts: cells == CellEncoding::Digits,
                ..Default::default()
            });
        }
    }
    v
}

/// The lexicographically smallest image of `sq` (row-major) under the
/// symmetries of the square, and with `complement` also under v ↦ n²+1−v.
fn canonical(sq: &Square, complement: bool) -> Vec<u32> {
    let n = sq.n;
    let flat: Vec<u32> = sq.cells.concat();
    let m = (n * n) as u32;
    let mut best: Option<Vec<u32>> = None;
    for g in square_symmetries(n) {
        let img: Vec<u32> = (0..n * n)
            .map(|i| flat[g.apply(i as u32) as usize])
            .collect();
        let mut images = vec![img.clone()];
        if complement {
            images.push(img.iter().map(|v| m + 1 - v).collect());
        }
        for i in images {
            if best.as_ref().is_none_or(|b| i < *b) {
                best = Some(i);
            }
        }
    }
    best.unwrap()
}

#[test]
fn order_three_brute_force_from_the_rules() {
    // all 9! fillings, checked by the rules alone: exactly 8 magic squares
    let mut perm: Vec<u32> = (1..=9).collect();
    let mut found = BTreeSet::new();
    permutohedron_heap(&mut perm, &mut |p| {
        let sq = Square {
            n: 3,
            cells: p.chunks(3).map(|r| r.to_vec()).collect(),
        };
        if check_square(3, &sq).is_ok() {
            found.insert(sq);
        }
    });
    assert_eq!(found.len(), 8);
    // the reference enumerator finds the same set
    let mut by_reference = BTreeSet::new();
    reference::enumerate(&Givens::free(3), u64::MAX, &mut |s| {
        by_reference.insert(s.clone());
    });
    assert_eq!(by_reference, found);
    // and so does the CNF, under every encoding
    for o in encodings() {
        let sat: BTreeSet<Square> = all_solutions(&Magic::new(3, o)).into_iter().collect();
        assert_eq!(sat, found, "{o}");
    }
}

/// Heap's algorithm: calls `f` on every permutation of `a`.
fn permutohedron_heap(a: &mut [u32], f: &mut dyn FnMut(&[u32])) {
    let n = a.len();
    let mut c = vec![0; n];
    f(a);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            a.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            f(a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn order_three_symmetry_breaking_leaves_one_square() {
    for o in encodings() {
        for (symmetry, complement) in [
            (Symmetry::Order, false),
            (Symmetry::LexLeader, false),
            (Symmetry::LexLeader, true),
            (Symmetry::Diagonals, false),
            (Symmetry::Diagonals, true),
        ] {
            let o = Options {
                symmetry,
                complement,
                ..o
            };
            let sols = all_solutions(&Magic::new(3, o));
            assert_eq!(sols.len(), 1, "{o}");
            assert!(
                in_seed_order(&sols[0]) || symmetry != Symmetry::Order,
                "{o}"
            );
        }
    }
}

#[test]
fn order_four_has_7040_squares_by_reference_and_880_with_the_seed_order() {
    let mut all = vec![];
    reference::enumerate(&Givens::free(4), u64::MAX, &mut |s| all.push(s.clone()));
    assert_eq!(all.len(), 7040);
    let seed: BTreeSet<Square> = all.iter().filter(|s| in_seed_order(s)).cloned().collect();
    assert_eq!(seed.len(), 880);
    // the order cells enumerate fastest (the digits' search is slower here)
    let o = Options {
        cells: CellEncoding::Order,
        digit_counts: false,
        symmetry: Symmetry::Order,
        ..Default::default()
    };
    let sat: BTreeSet<Square> = all_solutions(&Magic::new(4, o)).into_iter().collect();
    assert_eq!(sat, seed);
}

#[test]
fn order_four_lex_leader_counts_are_the_orbit_counts() {
    let mut all = vec![];
    reference::enumerate(&Givens::free(4), u64::MAX, &mut |s| all.push(s.clone()));
    let orbits = |complement| {
        all.iter()
            .map(|s| canonical(s, complement))
            .collect::<BTreeSet<_>>()
            .len()
    };
    assert_eq!(orbits(false), 880);
    assert_eq!(orbits(true), 616);
    let lex = |complement| Options {
        cells: CellEncoding::Order,
        digit_counts: false,
        symmetry: Symmetry::LexLeader,
        complement,
        ..Default::default()
    };
    assert_eq!(count(4, lex(false)), 880);
    assert_eq!(count(4, lex(true)), 616);
}

#[test]
fn every_encoding_finds_a_checked_square() {
    for o in encodings() {
        for amo in [AmoEncoding::Pairwise, AmoEncoding::Ladder] {
            let o = Options { amo, ..o };
            // the weaker sums at smaller orders (the binary adder's two bounds
            // propagate poorly: over a minute at n = 4, see docs/magic.md)
            let n = match o.sum {
                SumEncoding::Unary | SumEncoding::Pairs => 5,
                SumEncoding::Gte | SumEncoding::Dpw | SumEncoding::Table => 4,
                SumEncoding::Adder => 3,
            };
            let p = Magic::new(n, o);
            let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
            assert_eq!(r.status, Status::Sat, "{o}");
            assert_eq!(p.check(&r.solutions[0]), Ok(()));
        }
    }
}

#[test]
fn redundant_and_restricting_flags() {
    // the seed's total is redundant: same count
    let total = Options {
        total: true,
        ..Default::default()
    };
    assert_eq!(count(3, total), 8);
    // associative squares of order 4: opposite cells sum to 17
    let assoc = Options {
        cells: CellEncoding::Order,
        digit_counts: false,
        associative: true,
        symmetry: Symmetry::Order,
        ..Default::default()
    };
    let sols = all_solutions(&Magic::new(4, assoc));
    let mut all = vec![];
    reference::enumerate(&Givens::free(4), u64::MAX, &mut |s| all.push(s.clone()));
    let want = all
        .iter()
        .filter(|s| in_seed_order(s))
        .filter(|s| (0..4).all(|r| (0..4).all(|c| s.cells[r][c] + s.cells[3 - r][3 - c] == 17)))
        .count();
    assert_eq!(sols.len(), want);
    assert_eq!(want, 48);
    // no associative square of order 6 (singly even): the CNF says UNSAT quickly? only checked at n = 2 here
    let r = run::run_quiet(&Magic::new(2, assoc), &RunOptions::default()).unwrap();
    assert_eq!(r.status, Status::Unsat);
}

#[test]
fn completion_files_match_the_reference() {
    for file in [
        "instances/magic/4x4-four-givens.txt",
        "instances/magic/5x5-nine-givens.txt",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let g = Givens::parse(&text).unwrap();
        let want = reference::count(&g);
        // the finding and the counting defaults (the latter branch on the
        // cells and block by decisions: the last completion is forced)
        for options in [Options::default(), Options::counting(g.n)] {
            let p = Magic {
                givens: g.clone(),
                options,
            };
            let sols = all_solutions(&p);
            assert_eq!(sols.len() as u64, want, "{file} {options}");
            assert!(want > 0, "{file}");
            for s in &sols {
                assert_eq!(p.check(s), Ok(()));
            }
        }
    }
    // an impossible completion is proven UNSAT
    let g = Givens::parse(&std::fs::read_to_string("instances/magic/3x3-impossible.txt").unwrap())
        .unwrap();
    assert_eq!(reference::count(&g), 0);
    let p = Magic {
        givens: g,
        options: Options::default(),
    };
    let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
    assert_eq!(r.status, Status::Unsat);
}

#[test]
fn bad_options_and_files_are_errors_with_locations() {
    use clap::Parser;
    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: cli::Args,
    }
    let parse =
        |argv: &[&str]| Wrap::try_parse_from(std::iter::once("magic").chain(argv.iter().copied()));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1 2 3\n4 5 6\n7 8 x\n").unwrap();
    let e = parse(&["--given", bad.to_str().unwrap()])
        .unwrap()
        .args
        .puzzle()
        .unwrap_err();
    assert!(
        format!("{e:#}").contains("line 3: 'x' is not a value"),
        "{e:#}"
    );
    let e = parse(&["-n", "4", "--given", "instances/magic/3x3-impossible.txt"])
        .unwrap()
        .args
        .puzzle()
        .unwrap_err();
    assert!(format!("{e:#}").contains("-n 4 but"), "{e:#}");
    assert!(parse(&[]).unwrap().args.puzzle().is_err());
    assert!(parse(&["-n", "3", "--sum", "nope"]).is_err());
    // unary sums need order-encoded cells; --complement needs a symmetry
    let p = parse(&["-n", "3", "--encoding", "direct", "--sum", "unary"])
        .unwrap()
        .args
        .puzzle()
        .unwrap();
    assert!(run::encode(&p).is_err());
    let p = parse(&["-n", "3", "--complement"])
        .unwrap()
        .args
        .puzzle()
        .unwrap();
    assert!(run::encode(&p).is_err());
    // digit counts need digit cells
    let o = Options {
        cells: CellEncoding::Order,
        digit_counts: true,
        ..Default::default()
    };
    assert!(run::encode(&Magic::new(3, o)).is_err());
    // decisions on the cells need sums that propagate from fixed cells;
    // shared pair sums need order cells
    for argv in [
        &["-n", "3", "--sum", "adder", "--decisions", "cells"][..],
        &["-n", "4", "--sum", "pairs"][..],
    ] {
        let p = parse(argv).unwrap().args.puzzle().unwrap();
        assert!(run::encode(&p).is_err(), "{argv:?}");
    }
}

/// The counting defaults at n = 4 (shared pair sums, commander) give way
/// to what other options need: unary sums for digit cells, and whatever is
/// named on the command line.
#[test]
fn counting_defaults_at_order_four_follow_the_cell_encoding() {
    use clap::Parser;
    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: cli::Args,
    }
    let options = |argv: &[&str]| {
        Wrap::try_parse_from(std::iter::once("magic").chain(argv.iter().copied()))
            .unwrap()
            .args
            .puzzle_for(true)
            .unwrap()
            .options
    };
    assert_eq!(options(&["-n", "4"]), Options::counting(4));
    let o = Options::counting(4);
    assert_eq!((o.sum, o.amo), (SumEncoding::Pairs, AmoEncoding::Commander));
    let digits = options(&["-n", "4", "--encoding", "digits"]);
    assert_eq!(digits.sum, SumEncoding::Unary);
    assert!(run::encode(&Magic::new(4, digits)).is_ok());
    let o = options(&["-n", "4", "--sum", "unary", "--amo", "pairwise"]);
    assert_eq!((o.sum, o.amo), (SumEncoding::Unary, AmoEncoding::Pairwise));
    assert_eq!(options(&["-n", "5"]).sum, SumEncoding::Unary);
}

#[test]
fn clause_counts_of_the_default_encoding() {
    // golden sizes: a change of encoding shows here
    let sizes: Vec<(u32, usize)> = (3..=5)
        .map(|n| {
            let (cnf, _, _) = run::encode(&Magic::new(n, Options::default())).unwrap();
            (cnf.counts().vars, cnf.counts().clauses)
        })
        .collect();
    assert_eq!(sizes, vec![(494, 1872), (1489, 6885), (3538, 19144)]);
}

#[test]
fn orders_one_and_two_under_every_encoding_and_symmetry() {
    for o in encodings() {
        for symmetry in Symmetry::ALL {
            let o = Options {
                symmetry,
                complement: symmetry == Symmetry::LexLeader,
                ..o
            };
            assert_eq!(count(1, o), 1, "{o}");
            assert_eq!(count(2, o), 0, "{o}");
        }
    }
}

/// Every symmetry option, with and without the complement.
const SYMMETRIES: [(Symmetry, bool); 7] = [
    (Symmetry::None, false),
    (Symmetry::Order, false),
    (Symmetry::Order, true),
    (Symmetry::LexLeader, false),
    (Symmetry::LexLeader, true),
    (Symmetry::Diagonals, false),
    (Symmetry::Diagonals, true),
];

/// `--symmetry diagonals` for n = 3, 4 from its definition: `F11` is the
/// smallest diagonal cell but the centre, `Fn1 < F1n`, for n = 4 also
/// `F22 < F33`; with the complement `F11 + x ≤ n²+1` for those cells.
fn in_diagonal_order(s: &Square, complement: bool) -> bool {
    let n = s.n;
    let f = |r: usize, c: usize| s.cells[r][c];
    let mut diag: Vec<u32> = (0..n).flat_map(|j| [f(j, j), f(j, n - 1 - j)]).collect();
    if n % 2 == 1 {
        let centre = f(n / 2, n / 2);
        diag.retain(|&v| v != centre);
    }
    let min = *diag.iter().min().unwrap();
    let max = *diag.iter().max().unwrap();
    f(0, 0) == min
        && f(n - 1, 0) < f(0, n - 1)
        && (n != 4 || f(1, 1) < f(2, 2))
        && (!complement || min + max <= (n * n) as u32 + 1)
}

/// What the symmetry option keeps, from the definitions (not the CNF).
fn kept(all: &[Square], symmetry: Symmetry, complement: bool) -> BTreeSet<Square> {
    all.iter()
        .filter(|s| match symmetry {
            Symmetry::None => true,
            Symmetry::Order => {
                let (n, f) = (s.n, |r: usize, c: usize| s.cells[r][c]);
                let m = (n * n) as u32 + 1;
                in_seed_order(s)
                    && (!complement
                        || (f(0, 0) + f(0, n - 1) <= m && f(0, 0) + f(n - 1, n - 1) <= m))
            }
            Symmetry::LexLeader => canonical(s, complement) == s.cells.concat(),
            Symmetry::Diagonals => in_diagonal_order(s, complement),
        })
        .cloned()
        .collect()
}

/// The 8 magic squares of order 3, by the reference enumerator.
fn all3() -> Vec<Square> {
    let mut all = vec![];
    reference::enumerate(&Givens::free(3), u64::MAX, &mut |s| all.push(s.clone()));
    all
}

#[test]
fn counting_by_classes_gives_the_plain_enumeration_sets() {
    // n = 3: every encoding, symmetry and decision option, both ways,
    // against brute force
    for (o, decisions) in encodings()
        .into_iter()
        .flat_map(|o| Decisions::ALL.map(|d| (o, d)))
        .filter(|&(o, d)| !(d == Decisions::Cells && o.sum == SumEncoding::Adder))
    {
        for (symmetry, complement) in SYMMETRIES {
            let o = Options {
                symmetry,
                complement,
                decisions,
                ..o
            };
            let p = Magic::new(3, o);
            let classes: BTreeSet<Square> = solutions_by(&p, false).into_iter().collect();
            let plain: BTreeSet<Square> = solutions_by(&p, true).into_iter().collect();
            assert_eq!(classes, plain, "{o}");
            let want = kept(&all3(), symmetry, complement).len();
            assert_eq!(classes.len(), want, "{o}");
            assert_eq!(want, if symmetry == Symmetry::None { 8 } else { 1 }, "{o}");
        }
    }
    // n = 4, the finding and the counting defaults (order cells, shared pair
    // sums, commander, implied sums, decisions on the cells) and the
    // previous counting default (unary sums, pairwise): the sets of the
    // reference enumerator's 7040 that each option keeps; classes = orbits
    // under the 64 maps
    let mut all = vec![];
    reference::enumerate(&Givens::free(4), u64::MAX, &mut |s| all.push(s.clone()));
    let unary = Options {
        sum: SumEncoding::Unary,
        amo: AmoEncoding::Pairwise,
        ..Options::counting(4)
    };
    for ((symmetry, complement), base) in SYMMETRIES.iter().flat_map(|&s| {
        [
            (s, Options::default()),
            (s, Options::counting(4)),
            (s, unary),
        ]
    }) {
        let o = Options {
            symmetry,
            complement,
            ..base
        };
        let want = kept(&all, symmetry, complement);
        let r = run::run_quiet(
            &Magic::new(4, o),
            &RunOptions {
                all: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.status, Status::All, "{o}");
        let got: BTreeSet<Square> = r.solutions.iter().cloned().collect();
        assert_eq!(
            (got.len(), r.solutions.len()),
            (want.len(), want.len()),
            "{o}"
        );
        assert_eq!(got, want, "{o}");
        assert_eq!(r.count, Some(want.len() as u64));
        // the representatives instance itself is enumerated plainly
        let classes = if (symmetry, complement) == (Symmetry::Diagonals, true) {
            None
        } else {
            Some(166)
        };
        assert_eq!(r.classes, classes, "{o}");
    }
    assert_eq!(kept(&all, Symmetry::None, false).len(), 7040);
    assert_eq!(kept(&all, Symmetry::Order, false).len(), 880);
    assert_eq!(kept(&all, Symmetry::Order, true).len(), 672);
    assert_eq!(kept(&all, Symmetry::Diagonals, false).len(), 220);
    assert_eq!(kept(&all, Symmetry::Diagonals, true).len(), 166);
    // the group: 32 maps of the cells, each with and without the
    // complement, map magic squares to magic squares; 166 orbits
    let group = symmetry::maps(4).unwrap();
    assert_eq!(group.len(), 32);
    let mut orbits = BTreeSet::new();
    for s in &all {
        let images = symmetry::images_under(&group, s, true);
        assert!(images.iter().all(|i| check_square(4, i).is_ok()));
        orbits.insert(images.into_iter().min().unwrap());
    }
    assert_eq!(orbits.len(), 166);
    assert_eq!(symmetry::maps(3).unwrap().len(), 8);
    // plain enumeration of the seed's order: the same 880
    let o = Options {
        symmetry: Symmetry::Order,
        ..Default::default()
    };
    let plain: BTreeSet<Square> = solutions_by(&Magic::new(4, o), true).into_iter().collect();
    assert_eq!(plain, kept(&all, Symmetry::Order, false));
}

/// Counting by cubes (`--count --cubes K`, the split on the centre's and the
/// corners' value bits): the cubes of order 4 sum to the reference's 7040 and
/// 880; a cube of order 5 counts the same under two cell encodings (the
/// cube is a set of squares, whatever the encoding).
#[test]
fn counting_by_cubes_sums_to_the_reference_counts() {
    let cubes = |count, only| RunOptions {
        all: true,
        count_only: true,
        cubes: Some(puzzlesat::options::CubeOptions {
            count,
            file: None,
            only,
            jobs: 2,
            trust: false,
        }),
        ..Default::default()
    };
    for (symmetry, want) in [(Symmetry::None, 7040), (Symmetry::Order, 880)] {
        for k in [4, 64] {
            let o = Options {
                symmetry,
                ..Options::counting(4)
            };
            let r = run::run_quiet(&Magic::new(4, o), &cubes(k, None)).unwrap();
            assert_eq!(
                (r.status, r.count),
                (Status::All, Some(want)),
                "{o}, {k} cubes"
            );
        }
    }
    let order = Options {
        cells: CellEncoding::Order,
        digit_counts: false,
        ..Options::counting(5)
    };
    for o in [Options::counting(5), order] {
        let r = run::run_quiet(&Magic::new(5, o), &cubes(1024, Some(0))).unwrap();
        assert_eq!(
            (r.status, r.count, r.classes),
            (Status::All, Some(2368), Some(37)),
            "{o}"
        );
    }
}

/// Finding a free square goes through the staged method by default (the
/// square checked, the restriction and place values said); counting, completion
/// and other encodings use the single CNF; staged refuses what it cannot
/// answer.
#[test]
fn finding_uses_stages_and_says_which_restriction() {
    for (n, places) in [
        ("3", vec![3, 1]),
        ("5", vec![15, 5, 3, 1]),
        ("8", vec![24, 8, 3, 1]),
        ("12", vec![48, 12, 4, 1]),
    ] {
        let (code, out, err) = binary(&["solve", "magic", "-n", n, "--json"]);
        assert_eq!(code, Some(10), "{out}{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["status"], "sat");
        assert!(
            v["puzzle"].as_str().unwrap().contains("method=staged"),
            "{v}"
        );
        let said: Vec<u64> = v["details"]["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .collect();
        assert_eq!(said, places, "{v}");
        assert!(
            v["details"]["restriction"]
                .as_str()
                .unwrap()
                .contains("balanced"),
            "{v}"
        );
        let attempts = v["details"]["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), places.len(), "{v}");
        assert!(attempts.iter().all(|a| a.as_u64().unwrap() >= 1), "{v}");
        let n: usize = n.parse().unwrap();
        let cells: Vec<u32> = v["solutions"][0]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
            })
            .collect();
        let sq = Square {
            n,
            cells: cells.chunks(n).map(|r| r.to_vec()).collect(),
        };
        check_square(n, &sq).unwrap();
    }
    // the single CNF: explicitly, with another encoding, or to count
    for args in [
        &[
            "solve", "magic", "-n", "4", "--method", "encoding", "--json",
        ][..],
        &["solve", "magic", "-n", "4", "--encoding", "order", "--json"][..],
    ] {
        let (code, out, _) = binary(args);
        assert_eq!(code, Some(10));
        assert!(!out.contains("staged"), "{out}");
    }
    let (code, out, _) = binary(&["solve", "magic", "-n", "3", "--count"]);
    assert_eq!(code, Some(10));
    assert!(out.starts_with("exactly 8 solutions"), "{out}");
    for args in [
        &["solve", "magic", "-n", "4", "--method", "staged", "--all"][..],
        &[
            "solve", "magic", "-n", "4", "--method", "staged", "--sum", "gte",
        ][..],
    ] {
        let (code, _, err) = binary(args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--method encoding"), "{err}");
    }
    // places: decreasing from below n² to 1, each digit's lines balanced;
    // another valid split still gives a checked square
    for (places, says) in [
        ("81,1", "decrease strictly"),
        ("6,2", "the last one 1"),
        ("2,1", "cannot be balanced"),
    ] {
        let (code, _, err) = binary(&["solve", "magic", "-n", "9", "--places", places]);
        assert_eq!(code, Some(2), "{places}: {err}");
        assert!(err.contains(says), "{places}: {err}");
    }
    for args in [
        &[
            "solve", "magic", "-n", "6", "--places", "6,1", "--method", "encoding",
        ][..],
        &["solve", "magic", "-n", "6", "--places", "6,1", "--all"][..],
    ] {
        let (code, _, err) = binary(args);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("--places belongs to the staged method"),
            "{err}"
        );
    }
    let (code, out, err) = binary(&["solve", "magic", "-n", "6", "--places", "6,2,1", "--json"]);
    assert_eq!(code, Some(10), "{err}");
    assert!(out.contains("\"places\":[6,2,1]"), "{out}");
}

/// The staged method through the staged driver: a checked square of every
/// small order, on the default places and on uneven splits.
fn find_staged(n: usize, places: &[usize], seed: Option<u64>) -> Square {
    use puzzlesat::drive::staged;
    use puzzlesat::puzzles::magic::staged::StagedMagic;
    let s = StagedMagic::new(n, places, u64::MAX).unwrap();
    let opts = RunOptions {
        seed,
        ..RunOptions::default()
    };
    let r = staged::search_in_stages(&s, &opts, Default::default(), &mut std::io::sink())
        .unwrap()
        .unwrap();
    assert_eq!(r.status, Status::Sat, "n = {n}, places {places:?}");
    check_square(n, &r.solutions[0]).unwrap();
    assert_eq!(r.details.attempts.len(), places.len());
    r.solutions[0].clone()
}

#[test]
fn staged_finds_checked_squares_for_small_orders() {
    use puzzlesat::puzzles::magic::staged::default_places;
    for n in 3..=11 {
        find_staged(n, &default_places(n), None);
    }
}

#[test]
fn the_staged_restriction_holds_for_every_found_square() {
    use puzzlesat::puzzles::magic::reference::lines;
    // radices 6·3·2 (places 6, 2, 1), and the uneven split of a prime
    // (7: places 7, 3, 1 — digits 0..2 of v mod 7 by 3, then the rest)
    for (n, places) in [(6, vec![6, 2, 1]), (7, vec![7, 3, 1])] {
        let sq = find_staged(n, &places, Some(3));
        let cells: Vec<usize> = sq.cells.iter().flatten().map(|&v| v as usize - 1).collect();
        let mut rest = cells.clone();
        for &w in &places {
            let digit: Vec<usize> = rest.iter().map(|r| r / w).collect();
            let sums: Vec<usize> = lines(n)
                .iter()
                .map(|line| line.iter().map(|&c| digit[c]).sum())
                .collect();
            assert!(sums.iter().all(|&s| s == sums[0]), "place {w}: {sums:?}");
            rest.iter_mut().for_each(|r| *r %= w);
        }
    }
}
