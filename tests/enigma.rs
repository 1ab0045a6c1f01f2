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
    use puzzlesat::puzzles::enigma::partitions::{solve_partitions, BoundKind};
    use puzzlesat::solver::{Limits, SolverKind};
    for n in 1..=30 {
        let r = solve_partitions(
            n,
            BoundKind::Orbits,
            true,
            &SolverKind::Batsat,
            Limits::default(),
        )
        .unwrap();
        let reference = solve_reference(n).best;
        match (&reference, n) {
            (None, _) => assert_eq!(r.status, "unsat", "n = {n}"),
            (Some((total, parts, _)), _) => {
                assert_eq!(r.status, "optimal", "n = {n}");
                assert_eq!(r.optimum, Some(*total), "n = {n}");
                assert_eq!(r.partition.as_ref(), Some(parts), "n = {n}");
                let board = r.board.as_ref().unwrap();
                check_board(board).unwrap();
                assert_eq!(board.total(), *total);
            }
        }
        if let Some(row) = table2_row(n) {
            assert_eq!(r.optimum, Some(row.optimum), "n = {n}");
        }
        eprintln!(
            "n={n} {:?} calls {} explored {} {:.3}s",
            r.optimum, r.sat_calls, r.explored, r.seconds
        );
    }
}
