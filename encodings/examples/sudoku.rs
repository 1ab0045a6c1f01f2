//! A 9×9 Sudoku: an order-encoded integer 1..9 per cell, all different in
//! every row, column and box (the `permutation` encoding), the givens as
//! unit clauses; solved, decoded and checked, then proven unique (no second
//! solution: UNSAT). `cargo run -p puzzlesat-encodings --example sudoku`.

use puzzlesat_encodings::alldiff::{all_different, AllDiffEncoding, AllDifferent};
use puzzlesat_encodings::amo::AmoEncoding;
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::solve::{enumerate, Outcome, Session, Solver};
use puzzlesat_encodings::Checker;

/// A puzzle with a unique solution ('.' is an empty cell).
const GIVENS: &str = "\
53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut s = Session::empty(&Solver::default())?;
    let mut cells = (0..81)
        .map(|_| IntVar::new(&mut s, 1, 9))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, ch) in GIVENS.lines().flat_map(str::chars).enumerate() {
        if let Some(v) = ch.to_digit(10) {
            cells[i].post_ge(&mut s, v as i64); // x ≥ v and x ≤ v: x = v
            cells[i].post_le(&mut s, v as i64);
        }
    }
    // the 27 units: rows, columns, boxes (cell indices)
    let units: Vec<Vec<usize>> = (0..9)
        .map(|r| (0..9).map(|c| r * 9 + c).collect())
        .chain((0..9).map(|c| (0..9).map(|r| r * 9 + c).collect()))
        .chain((0..9).map(|b| {
            (0..9)
                .map(|k| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3)
                .collect()
        }))
        .collect();
    for x in cells.iter_mut() {
        (1..=9).for_each(|v| _ = x.eq(&mut s, v)); // direct literals, cached: the copies below share them
    }
    for unit in &units {
        let mut xs: Vec<IntVar> = unit.iter().map(|&i| cells[i].clone()).collect();
        all_different(
            &mut s,
            &mut xs,
            AllDiffEncoding::Permutation,
            AmoEncoding::Pairwise,
        )?;
    }
    assert_eq!(s.solve(&[])?, Outcome::Sat);
    let model = s.model()?;
    for unit in &units {
        let xs: Vec<IntVar> = unit.iter().map(|&i| cells[i].clone()).collect();
        AllDifferent(&xs).check(&model)?; // the rules, read from the model
    }
    for row in cells.chunks(9) {
        let values: Vec<String> = row.iter().map(|x| x.value(&model).to_string()).collect();
        println!("{}", values.join(" "));
    }
    // unique: block this solution, then no other exists
    let order_lits: Vec<_> = cells.iter().flat_map(|x| x.order_lits().to_vec()).collect();
    let all = enumerate(&mut s, &order_lits, &[], None, |_| true)?;
    assert!(all.complete && all.count == 1, "a unique solution");
    println!("unique (the second search answered UNSAT)");
    Ok(())
}
