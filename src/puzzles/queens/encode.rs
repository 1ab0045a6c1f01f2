//! Two encodings of N-queens, both giving the n×n matrix of literals
//! `q[r][c]` ("a queen on row r, column c") the decoder reads:
//!
//! - **matrix**: a Boolean per cell; exactly one per row and per column, at
//!   most one per diagonal (the classic model, e.g. Nadel, "Representing
//!   and solving finite-domain constraint problems using systems of
//!   polynomials", 1990; Gent, Jefferson & Nightingale, "Complexity of
//!   n-Queens Completion", JAIR 59, 2017);
//! - **columns**: an order-encoded integer per row, its column; all different
//!   (the `--alldiff` encoding), at most one direct literal per diagonal.
//!
//! Each at-most-one uses the `--amo` encoding.

use std::fmt;

use puzzlesat_encodings::alldiff::{all_different, AllDiffEncoding};
use puzzlesat_encodings::amo::{at_most_one, exactly_one, AmoEncoding};
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::{ClauseDatabase, Lit, Unsatisfiable};

puzzlesat_encodings::option_enum! {
    /// How the board is represented.
    #[derive(Default)]
    pub enum Encoding("queens encoding") {
        /// a Boolean per cell
        #[default]
        Matrix = "matrix",
        /// an order-encoded column per row, all different
        Columns = "columns",
    }
}

/// The encoding options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// the representation
    pub encoding: Encoding,
    /// at-most-one encoding of every line
    pub amo: AmoEncoding,
    /// all-different encoding of the columns (`columns` only)
    pub alldiff: AllDiffEncoding,
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "encoding={} amo={}", self.encoding, self.amo)?;
        if self.encoding == Encoding::Columns {
            write!(f, " alldiff={}", self.alldiff)?;
        }
        Ok(())
    }
}

/// The cells of every diagonal and anti-diagonal with two cells or more.
fn diagonals(n: usize) -> Vec<Vec<(usize, usize)>> {
    let mut lines = vec![];
    for d in 0..2 * n - 1 {
        // r + c = d, and r − c = d − (n − 1)
        let anti: Vec<_> = (0..n)
            .filter(|&r| d >= r && d - r < n)
            .map(|r| (r, d - r))
            .collect();
        let diag: Vec<_> = (0..n)
            .filter(|&r| r + n > d && r + n - 1 - d < n)
            .map(|r| (r, r + n - 1 - d))
            .collect();
        lines.extend([anti, diag].into_iter().filter(|l| l.len() > 1));
    }
    lines
}

/// Posts the n-queens constraints; returns `q[r][c]`.
pub fn encode<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    o: &Options,
) -> Result<Vec<Vec<Lit>>, Unsatisfiable> {
    // 1. variables (and, for `columns`, one value per row and all different)
    let q: Vec<Vec<Lit>> = match o.encoding {
        Encoding::Matrix => {
            let q: Vec<Vec<Lit>> = (0..n).map(|_| db.fresh_lits(n)).collect();
            for r in 0..n {
                exactly_one(db, &q[r], o.amo)?; // one queen per row
                let col: Vec<Lit> = q.iter().map(|row| row[r]).collect();
                exactly_one(db, &col, o.amo)?; // one queen per column
            }
            q
        }
        Encoding::Columns => {
            let mut xs = (0..n)
                .map(|_| IntVar::new(db, 0, n as i64 - 1))
                .collect::<Result<Vec<_>, _>>()?;
            all_different(db, &mut xs, o.alldiff, o.amo)?; // one queen per column
            xs.iter_mut()
                .map(|x| (0..n as i64).map(|c| x.eq(db, c)).collect())
                .collect()
        }
    };
    // 2. diagonals
    for line in diagonals(n) {
        let lits: Vec<Lit> = line.iter().map(|&(r, c)| q[r][c]).collect();
        at_most_one(db, &lits, o.amo);
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_cover_every_attacking_pair_once() {
        for n in 1..=6 {
            let mut pairs = 0;
            for line in diagonals(n) {
                pairs += line.len() * (line.len() - 1) / 2;
                let sums: std::collections::BTreeSet<_> =
                    line.iter().map(|&(r, c)| r + c).collect();
                let diffs: std::collections::BTreeSet<_> =
                    line.iter().map(|&(r, c)| r as i64 - c as i64).collect();
                assert!(sums.len() == 1 || diffs.len() == 1, "{line:?}");
            }
            // every pair of cells on a common diagonal, by brute force
            let brute = (0..n * n)
                .flat_map(|a| (a + 1..n * n).map(move |b| (a, b)))
                .filter(|&(a, b)| {
                    let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
                    r1.abs_diff(r2) == c1.abs_diff(c2)
                })
                .count();
            assert_eq!(pairs, brute, "n = {n}");
        }
    }
}
