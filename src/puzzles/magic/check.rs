//! The independent checker, written from the definition of a magic square
//! (never from the CNF): an `n×n` grid holding each of `1..=n²` exactly once,
//! whose rows, columns and two main diagonals all sum to `S = n(n²+1)/2`;
//! for a completion instance, every given cell keeps its value.

use super::model::{magic_sum, Givens, Square};

/// `Ok(())` if `sq` is a magic square of order `n`, else the first broken rule.
pub fn check_square(n: usize, sq: &Square) -> Result<(), String> {
    if sq.n != n || sq.cells.len() != n || sq.cells.iter().any(|r| r.len() != n) {
        return Err(format!("the grid is not {n}×{n}"));
    }
    let max = (n * n) as u32;
    let mut seen = vec![false; n * n + 1];
    for (r, row) in sq.cells.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v == 0 || v > max {
                return Err(format!(
                    "cell ({}, {}) holds {v}, outside 1..={max}",
                    r + 1,
                    c + 1
                ));
            }
            if std::mem::replace(&mut seen[v as usize], true) {
                return Err(format!(
                    "value {v} appears twice (again at ({}, {}))",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    let s = magic_sum(n);
    let at = |r: usize, c: usize| u64::from(sq.cells[r][c]);
    for i in 0..n {
        let row: u64 = (0..n).map(|j| at(i, j)).sum();
        if row != s {
            return Err(format!("row {} sums to {row}, not {s}", i + 1));
        }
        let col: u64 = (0..n).map(|j| at(j, i)).sum();
        if col != s {
            return Err(format!("column {} sums to {col}, not {s}", i + 1));
        }
    }
    let diag: u64 = (0..n).map(|i| at(i, i)).sum();
    if diag != s {
        return Err(format!("the main diagonal sums to {diag}, not {s}"));
    }
    let anti: u64 = (0..n).map(|i| at(i, n - 1 - i)).sum();
    if anti != s {
        return Err(format!("the anti-diagonal sums to {anti}, not {s}"));
    }
    Ok(())
}

/// `Ok(())` if every given cell of `g` holds its value in `sq`.
pub fn check_givens(g: &Givens, sq: &Square) -> Result<(), String> {
    for (r, row) in g.cells.iter().enumerate() {
        for (c, &given) in row.iter().enumerate() {
            if let Some(v) = given {
                let got = sq.cells.get(r).and_then(|row| row.get(c)).copied();
                if got != Some(v) {
                    return Err(format!(
                        "cell ({}, {}) is given as {v} but holds {got:?}",
                        r + 1,
                        c + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The seed's symmetry-breaking order (Schulte & Smolka): with `F` 1-based,
/// `F11 < FNN`, `FN1 < F1N` and `F11 < FN1`. Not a rule of the puzzle: used
/// by tests to confirm that `--symmetry order` keeps exactly these squares.
pub fn in_seed_order(sq: &Square) -> bool {
    let n = sq.n;
    let f = |r: usize, c: usize| sq.cells[r - 1][c - 1];
    f(1, 1) < f(n, n) && f(n, 1) < f(1, n) && f(1, 1) < f(n, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lo_shu() -> Square {
        Square {
            n: 3,
            cells: vec![vec![2, 7, 6], vec![9, 5, 1], vec![4, 3, 8]],
        }
    }

    #[test]
    fn accepts_the_seed_square() {
        assert_eq!(check_square(3, &lo_shu()), Ok(()));
    }

    #[test]
    fn rejects_each_broken_rule() {
        let mut s = lo_shu();
        s.cells[0].swap(0, 1);
        assert!(check_square(3, &s).unwrap_err().contains("column 1"));
        let mut s = lo_shu();
        s.cells[2][2] = 2;
        assert!(check_square(3, &s).unwrap_err().contains("twice"));
        let mut s = lo_shu();
        s.cells[1][1] = 10;
        assert!(check_square(3, &s).unwrap_err().contains("outside"));
        // rows and columns right, diagonals wrong: a 3×3 Latin-like square
        let s = Square {
            n: 3,
            cells: vec![vec![1, 5, 9], vec![6, 7, 2], vec![8, 3, 4]],
        };
        assert!(check_square(3, &s).unwrap_err().contains("diagonal"));
        assert!(check_square(4, &lo_shu()).unwrap_err().contains("4×4"));
    }

    #[test]
    fn givens_are_compared_cell_by_cell() {
        let mut g = Givens::free(3);
        g.cells[1][1] = Some(5);
        assert_eq!(check_givens(&g, &lo_shu()), Ok(()));
        g.cells[0][0] = Some(4);
        assert!(check_givens(&g, &lo_shu()).is_err());
    }
}
