//! All 92 placements of 8 queens, in a crate of its own (`tests/suite/library_client.rs`
//! builds this file against the library alone): `cargo run --example queens`.
use puzzlesat_encodings::amo::{at_most_one, exactly_one, AmoEncoding::Pairwise};
use puzzlesat_encodings::solve::{enumerate, Session, Solver};
use puzzlesat_encodings::{ClauseDatabase, Lit};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 8;
    let mut s = Session::empty(&Solver::default())?; // a ClauseDatabase you can solve
    let q: Vec<Vec<Lit>> = (0..n).map(|_| s.fresh_lits(n)).collect(); // a queen on (r, c)?
    let line = |on: &dyn Fn(usize, usize) -> bool| -> Vec<Lit> {
        let cells = (0..n).flat_map(|r| (0..n).map(move |c| (r, c)));
        cells
            .filter(|&(r, c)| on(r, c))
            .map(|(r, c)| q[r][c])
            .collect()
    };
    for i in 0..n {
        exactly_one(&mut s, &line(&|r, _| r == i), Pairwise)?; // row i
        exactly_one(&mut s, &line(&|_, c| c == i), Pairwise)?; // column i
    }
    for d in 0..2 * n - 1 {
        at_most_one(&mut s, &line(&|r, c| r + c == d), Pairwise); // a diagonal
        at_most_one(&mut s, &line(&|r, c| r + n - 1 == c + d), Pairwise); // an anti-diagonal
    }
    let mut first: Option<Vec<usize>> = None; // the queen's column in each row
    let all = enumerate(&mut s, &q.concat(), &[], None, |model| {
        let col = |row: &Vec<Lit>| row.iter().position(|&l| model.lit(l));
        first.get_or_insert_with(|| q.iter().filter_map(col).collect());
        true // go on
    })?;
    assert!(all.complete, "ended on UNSAT: the count is exact");
    println!("{} solutions, e.g. columns {:?}", all.count, first.unwrap());
    assert_eq!(all.count, 92);
    Ok(())
}
