//! Enigma 1225: the three methods against brute force and against Table 2 of
//! Cambazard, O'Sullivan & Smith.

use puzzlesat::puzzles::enigma::brute::brute_force;
use puzzlesat::puzzles::enigma::check::check_board;
use puzzlesat::puzzles::enigma::model::partition_string;
use puzzlesat::puzzles::enigma::paper::TABLE2;
use puzzlesat::puzzles::enigma::reference::solve_reference;

/// The optimal partition of Table 2: {2, …, 2} for even n, {2, …, 2, 3} for
/// odd n, except {5} for n = 5 and {3} for n = 3.
fn paper_partition(n: usize) -> String {
    let parts: Vec<usize> = match n {
        3 => vec![3],
        5 => vec![5],
        _ if n % 2 == 0 => vec![2; n / 2],
        _ => {
            let mut p = vec![2; n / 2];
            p[n / 2 - 1] = 3;
            p
        }
    };
    partition_string(&parts)
}

#[test]
fn brute_force_confirms_the_small_optima() {
    for (n, best) in [
        (1, None),
        (2, None),
        (3, Some(15)),
        (4, Some(40)),
        (5, Some(55)),
    ] {
        let b = brute_force(n).unwrap();
        assert_eq!(b.best.as_ref().map(|(t, _)| *t), best, "n = {n}");
        if let Some((_, board)) = &b.best {
            check_board(board).unwrap();
        }
    }
}

#[test]
fn reference_reproduces_table_2() {
    for row in TABLE2 {
        let r = solve_reference(row.n);
        let (total, parts, board) = r.best.expect("feasible");
        assert_eq!(total, row.optimum, "n = {}", row.n);
        assert_eq!(
            partition_string(&parts),
            paper_partition(row.n),
            "n = {}",
            row.n
        );
        assert_eq!(
            r.total_partitions, row.total_partitions as u128,
            "n = {}",
            row.n
        );
        let p = check_board(&board).unwrap();
        assert_eq!(board.total(), total);
        assert_eq!(p.cycle_type(), parts);
        eprintln!(
            "n={} explored {} (paper {}) {:.4}s",
            row.n, r.explored, row.explored, r.seconds
        );
    }
}

#[test]
fn partitions_method_agrees_with_reference_and_table_2() {
    use puzzlesat::puzzles::enigma::paper::table2_row;
    use puzzlesat::puzzles::enigma::partitions::{BoundKind, Partitions};
    use puzzlesat::run::{self, RunOptions, Status};
    for n in 1..=30 {
        let p = Partitions {
            n,
            bound: BoundKind::Orbits,
            warm_start: true,
            pb: Default::default(),
        };
        let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
        let reference = solve_reference(n).best;
        match (&reference, n) {
            (None, _) => assert_eq!(r.status, Status::Unsat, "n = {n}"),
            (Some((total, parts, _)), _) => {
                assert_eq!(r.status, Status::Optimal, "n = {n}");
                assert_eq!(r.objective, Some(*total as i64), "n = {n}");
                assert_eq!(r.bound, Some(*total as i64), "n = {n}");
                let best = &r.solutions[0];
                assert_eq!(&best.partition, parts, "n = {n}");
                let board = puzzlesat::puzzles::enigma::model::Board::from_rows(best.board.clone());
                check_board(&board).unwrap();
                assert_eq!(board.total(), *total);
            }
        }
        if let Some(row) = table2_row(n) {
            assert_eq!(r.objective, Some(row.optimum as i64), "n = {n}");
        }
        eprintln!(
            "n={n} {:?} calls {} explored {:?} {:.3}s",
            r.objective, r.sat_calls, r.details.explored, r.seconds.total
        );
    }
}

mod board {
    use puzzlesat::drive::enumerate;
    use puzzlesat::encodings::{ClauseDatabase, Cnf};
    use puzzlesat::puzzle::Puzzle;
    use puzzlesat::puzzles::enigma::brute::brute_force;
    use puzzlesat::puzzles::enigma::encode::{
        encode_board, BoardOptions, Dominance, Redundant, Symmetry,
    };
    use puzzlesat::puzzles::enigma::Enigma;
    use puzzlesat::run::{self, RunOptions, Status};
    use puzzlesat::solver::{Limits, Session, SolverKind};

    fn optimum(n: usize, opts: BoardOptions) -> (Status, Option<i64>) {
        let p = Enigma { n, opts };
        let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
        for s in &r.solutions {
            p.check(s).unwrap();
        }
        (r.status, r.objective)
    }

    /// Every valid board from the plain CNF (no symmetry breaking, no
    /// redundant or dominance constraints) = every board brute force finds.
    #[test]
    fn plain_cnf_has_exactly_the_brute_force_boards() {
        for n in 1..=4 {
            let mut cnf = Cnf::new();
            let b = encode_board(&mut cnf, n, BoardOptions::NAIVE).unwrap();
            let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
            let p = Enigma {
                n,
                opts: BoardOptions::NAIVE,
            };
            let mut best = 0;
            let e = enumerate(&mut s, &b.primary, &[], None, |m| {
                let sol = p.decode(&b.map, m).unwrap();
                p.check(&sol).unwrap();
                best = best.max(sol.total);
                true
            })
            .unwrap();
            assert!(e.complete);
            let brute = brute_force(n).unwrap();
            assert_eq!(e.count, brute.count, "n = {n}");
            assert_eq!(brute.best.map_or(0, |(t, _)| t), best, "n = {n}");
            let _ = cnf.counts();
        }
    }

    #[test]
    fn every_option_set_proves_the_small_optima() {
        let sets = [
            BoardOptions::NAIVE,
            BoardOptions {
                symmetry: Symmetry::Cycles,
                ..BoardOptions::NAIVE
            },
            BoardOptions {
                redundant: Redundant {
                    occ3: true,
                    ubnval: false,
                    gcd: false,
                    staircase: false,
                },
                dominance: Dominance::Counts,
                ..BoardOptions::NAIVE
            },
            BoardOptions::FULL,
        ];
        for opts in sets {
            assert_eq!(optimum(1, opts), (Status::Unsat, None));
            assert_eq!(optimum(2, opts), (Status::Unsat, None));
            assert_eq!(optimum(3, opts), (Status::Optimal, Some(15)), "{opts:?}");
            assert_eq!(optimum(4, opts), (Status::Optimal, Some(40)), "{opts:?}");
        }
    }

    /// `--all` on the plain CNF counts exactly the optimal boards brute force finds.
    #[test]
    fn all_optimal_boards_match_brute_force() {
        for n in 3..=5 {
            let p = Enigma {
                n,
                opts: BoardOptions::NAIVE,
            };
            let opts = RunOptions {
                all: true,
                ..RunOptions::default()
            };
            let r = run::run_quiet(&p, &opts).unwrap();
            let brute = brute_force(n).unwrap();
            assert_eq!(r.status, Status::All, "n = {n}");
            assert_eq!(r.count, Some(brute.best_count), "n = {n}");
            for s in &r.solutions {
                p.check(s).unwrap();
                assert_eq!(Some(s.total), brute.best.as_ref().map(|(t, _)| *t));
            }
        }
    }

    /// The full board CNF proves Table 2's optima up to n = 9 (n = 8 is the
    /// real puzzle; bisection on the bound: n = 9 in about a second; n = 10,
    /// 11 and 12 are in the bench).
    #[test]
    fn full_board_cnf_proves_n_3_to_9() {
        for (n, want) in [(5, 55), (6, 180), (7, 275), (8, 544), (9, 753)] {
            let p = Enigma {
                n,
                opts: BoardOptions::FULL,
            };
            let opts = RunOptions {
                strategy: puzzlesat::drive::Strategy::Binary,
                ..RunOptions::default()
            };
            let r = run::run_quiet(&p, &opts).unwrap();
            for s in &r.solutions {
                p.check(s).unwrap();
            }
            assert_eq!(
                (r.status, r.objective),
                (Status::Optimal, Some(want)),
                "n = {n}, binary"
            );
            if n <= 8 {
                // and with the default linear climb
                assert_eq!(
                    optimum(n, BoardOptions::FULL),
                    (Status::Optimal, Some(want)),
                    "n = {n}"
                );
            }
        }
    }

    /// dimacs (decision version: SAT at the optimum, UNSAT above it), and
    /// dimacs → (an in-process solver writing SAT-competition output) →
    /// decode gives back a checked board.
    #[test]
    fn dimacs_export_and_decode_round_trip() {
        let p = Enigma {
            n: 4,
            opts: BoardOptions::FULL,
        };
        let mut buf = vec![];
        run::export_dimacs(&p, Some(40), Default::default(), &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("decision: objective bound 40"));
        let cnf = puzzlesat::io::dimacs::read_cnf(text.as_bytes()).unwrap();
        let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
        assert_eq!(s.solve(&[]).unwrap(), puzzlesat::solver::Outcome::Sat);
        // the plain CNF (no bound) for the decode round trip
        let mut buf = vec![];
        run::export_dimacs(&p, None, Default::default(), &mut buf).unwrap();
        let cnf = puzzlesat::io::dimacs::read_cnf(&buf[..]).unwrap();
        let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
        assert_eq!(s.solve(&[]).unwrap(), puzzlesat::solver::Outcome::Sat);
        let m = s.model().unwrap();
        let v: Vec<String> = (0..cnf.n_vars())
            .map(|i| {
                let l = puzzlesat::encodings::lit(i, false);
                if m.lit(l) {
                    format!("{}", i + 1)
                } else {
                    format!("-{}", i + 1)
                }
            })
            .collect();
        let out = format!("s SATISFIABLE\nv {} 0\n", v.join(" "));
        let (status, sol) =
            run::decode_output(&p, &out, None, puzzlesat::encodings::pb::PbEncoding::Gte).unwrap();
        assert_eq!(status, Status::Sat);
        let sol = sol.unwrap();
        p.check(&sol).unwrap();
        assert!(sol.total <= 40);
        // total ≥ 41 is UNSAT
        let mut buf = vec![];
        run::export_dimacs(&p, Some(41), Default::default(), &mut buf).unwrap();
        let cnf = puzzlesat::io::dimacs::read_cnf(&buf[..]).unwrap();
        let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
        assert_eq!(s.solve(&[]).unwrap(), puzzlesat::solver::Outcome::Unsat);
    }
}

/// The command line: every method prints the same optimum; n = 1, 2 are
/// reported infeasible (exit 20), out-of-range n is an error (exit 2).
#[test]
fn command_line() {
    use std::process::Command;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    for method in ["partitions", "reference", "board"] {
        let (code, out, _) = run(&[
            "solve", "enigma", "-n", "6", "--method", method, "--json", "-q",
        ]);
        assert_eq!(code, Some(10), "{method}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["status"], "optimal", "{method}");
        assert_eq!(v["objective"], 180, "{method}");
        assert_eq!(
            v["solutions"][0]["partition"],
            serde_json::json!([2, 2, 2]),
            "{method}"
        );
        let (code, out, _) = run(&["solve", "enigma", "-n", "2", "--method", method]);
        assert_eq!(code, Some(20), "{method}");
        assert!(out.contains("no solution exists"), "{method}: {out}");
    }
    let (code, out, _) = run(&["solve", "enigma", "-n", "4", "--method", "board"]);
    assert_eq!(code, Some(10));
    assert!(
        out.contains("total: 40")
            && out.contains("partition: {2, 2}")
            && out.contains("(1 2)(3 4)"),
        "{out}"
    );
    // -q: the summary only, no board
    let (code, out, _) = run(&["solve", "enigma", "-n", "4", "--method", "board", "-q"]);
    assert_eq!(code, Some(10));
    assert!(out.starts_with("optimal: 40 (proven"), "{out}");
    assert!(!out.contains("partition:"), "{out}");
    let (code, _, err) = run(&["solve", "enigma", "-n", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("out of range"), "{err}");
    let (code, _, err) = run(&[
        "solve",
        "enigma",
        "-n",
        "5",
        "--method",
        "board",
        "--symmetry",
        "none",
        "--redundant",
        "ubnval",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs --symmetry cycles"), "{err}");
}
