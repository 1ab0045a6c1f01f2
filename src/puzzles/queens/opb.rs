//! The PB model of N-queens, from the rules (as [`super::check`] reads
//! them): a variable `Q{r}_{c}` per cell ("a queen on row r, column c",
//! 1-based, the name the encoder gives the same literal); exactly one queen
//! in each row and in each column (n queens, no two sharing a line), at
//! most one on each diagonal and anti-diagonal of two cells or more.

use puzzlesat_encodings::{PbLit, PbModel};

/// The name of the cell (r, c) (0-based arguments, 1-based name).
pub fn cell_name(r: usize, c: usize) -> String {
    format!("Q{}_{}", r + 1, c + 1)
}

/// The model of the n×n board.
pub fn model(n: usize) -> PbModel {
    let mut m = PbModel::new();
    m.comment(format!(
        "N-queens, n = {n}: Q<r>_<c> = a queen on row r, column c"
    ));
    let q: Vec<Vec<PbLit>> = (0..n)
        .map(|r| (0..n).map(|c| m.var(&cell_name(r, c)).pos()).collect())
        .collect();
    for (r, row) in q.iter().enumerate() {
        m.exactly(row, 1, format!("one queen in row {}", r + 1));
    }
    for c in 0..n {
        let col: Vec<PbLit> = q.iter().map(|row| row[c]).collect();
        m.exactly(&col, 1, format!("one queen in column {}", c + 1));
    }
    // r − c = d (diagonals) and r + c = s (anti-diagonals), two cells or more
    for d in -(n as i64 - 2)..=n as i64 - 2 {
        let cells: Vec<PbLit> = (0..n)
            .filter_map(|r| {
                usize::try_from(r as i64 - d)
                    .ok()
                    .filter(|&c| c < n)
                    .map(|c| q[r][c])
            })
            .collect();
        m.at_most(
            &cells,
            1,
            format!("at most one queen on the diagonal r - c = {d}"),
        );
    }
    for s in 1..2 * n.saturating_sub(1) {
        let cells: Vec<PbLit> = (0..n)
            .filter(|&r| s >= r && s - r < n)
            .map(|r| q[r][s - r])
            .collect();
        m.at_most(
            &cells,
            1,
            format!("at most one queen on the anti-diagonal r + c = {}", s + 2),
        );
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::queens::{check::check, Placement};

    /// Every assignment of a queen's column to each row (n^n of them): the
    /// model accepts exactly the placements the checker accepts.
    #[test]
    fn model_agrees_with_the_checker() {
        for n in 1..=6 {
            let m = model(n);
            let mut accepted = 0;
            for code in 0..n.pow(n as u32) {
                let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
                let names: Vec<String> = cols
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| cell_name(r, c))
                    .collect();
                let by_model = m.check_named(names.iter().map(String::as_str)).is_ok();
                let by_rules = check(n, &Placement { cols }).is_ok();
                assert_eq!(by_model, by_rules, "n = {n}, code {code}");
                accepted += usize::from(by_model);
            }
            assert_eq!(accepted, [1, 0, 0, 2, 10, 4][n - 1], "n = {n}");
        }
        // two queens in a row, none in another: refused by the row rule
        let m = model(4);
        let err = m.check_named(["Q1_2", "Q1_4", "Q3_1", "Q4_3"]).unwrap_err();
        assert!(err.contains("row 1"), "{err}");
        assert_eq!(m.n_vars(), 16);
        // 4 rows + 4 columns (equalities) + 5 + 5 diagonals
        assert_eq!(m.constraints().len(), 18);
        assert_eq!(m.loaded(), 26);
    }
}
