//! The independent checker, from the rules alone: one queen per row (the
//! placement's shape), columns on the board, no two queens in one column or
//! one diagonal.

use super::Placement;

/// `Ok(())` if `sol` places n non-attacking queens on the n×n board.
pub fn check(n: usize, sol: &Placement) -> Result<(), String> {
    if sol.cols.len() != n {
        return Err(format!("{} rows, expected {n}", sol.cols.len()));
    }
    for (r, &c) in sol.cols.iter().enumerate() {
        if c >= n {
            return Err(format!("row {}: column {} is off the board", r + 1, c + 1));
        }
        for (r2, &c2) in sol.cols.iter().enumerate().take(r) {
            if c == c2 {
                return Err(format!(
                    "rows {} and {} share column {}",
                    r2 + 1,
                    r + 1,
                    c + 1
                ));
            }
            if r - r2 == c.abs_diff(c2) {
                return Err(format!(
                    "the queens of rows {} and {} share a diagonal",
                    r2 + 1,
                    r + 1
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_every_broken_rule() {
        let p = |cols: &[usize]| Placement {
            cols: cols.to_vec(),
        };
        assert_eq!(check(4, &p(&[1, 3, 0, 2])), Ok(()));
        assert!(check(4, &p(&[1, 3, 0])).unwrap_err().contains("3 rows"));
        assert!(check(4, &p(&[1, 3, 0, 4]))
            .unwrap_err()
            .contains("off the board"));
        assert!(check(4, &p(&[1, 3, 1, 2])).unwrap_err().contains("column"));
        assert!(check(4, &p(&[0, 2, 3, 1]))
            .unwrap_err()
            .contains("diagonal"));
    }
}
