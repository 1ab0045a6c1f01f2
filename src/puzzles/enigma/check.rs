//! The independent checker of Enigma 1225, written from the puzzle statement
//! (New Scientist, 8 Feb 2003, as quoted by Cambazard, O'Sullivan & Smith),
//! never from a CNF or from the orbit analysis:
//!
//! 1. no two rows are exactly the same;
//! 2. each row is equal to one of the columns, but not to the column with the
//!    same index as the row;
//! 3. if N is the largest number on the board, every number 1, …, N − 1 is on
//!    the board too (all numbers are positive integers).

use super::model::{Board, Derangement};

/// Checks the three rules; on success returns the column-to-row permutation
/// read off the board (`p[j] = i`: column j equals row i).
pub fn check_board(b: &Board) -> Result<Derangement, String> {
    let n = b.n;
    if n == 0 {
        return Err("the board is empty".into());
    }
    if b.rows.len() != n || b.rows.iter().any(|r| r.len() != n) {
        return Err(format!("the board is not {n}×{n}"));
    }
    if let Some((i, j)) = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .find(|&(i, j)| b.at(i, j) == 0)
    {
        return Err(format!(
            "cell ({}, {}) is not a positive integer",
            i + 1,
            j + 1
        ));
    }
    // Rule 1
    for i in 0..n {
        for k in i + 1..n {
            if b.rows[i] == b.rows[k] {
                return Err(format!("rule 1: rows {} and {} are the same", i + 1, k + 1));
            }
        }
    }
    // Rule 2
    let columns: Vec<Vec<u32>> = (0..n).map(|j| b.column(j)).collect();
    let mut row_of_column = vec![usize::MAX; n];
    for i in 0..n {
        if b.rows[i] == columns[i] {
            return Err(format!("rule 2: row {} equals column {}", i + 1, i + 1));
        }
        match (0..n).find(|&j| b.rows[i] == columns[j]) {
            Some(j) => row_of_column[j] = i,
            None => return Err(format!("rule 2: row {} equals no column", i + 1)),
        }
    }
    // Rule 3
    let max = *b.rows.iter().flatten().max().expect("non-empty");
    let mut present = vec![false; max as usize + 1];
    for &v in b.rows.iter().flatten() {
        present[v as usize] = true;
    }
    if let Some(v) = (1..=max).find(|&v| !present[v as usize]) {
        return Err(format!(
            "rule 3: the largest number is {max} but {v} is missing"
        ));
    }
    // rows distinct and each matching a column ⇒ the matching is a bijection
    Derangement::from_images(row_of_column)
        .ok_or_else(|| "rule 2: two rows match the same column".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&[u32]]) -> Board {
        Board::from_rows(rows.iter().map(|r| r.to_vec()).collect())
    }

    #[test]
    fn paper_figure_1() {
        let b4 = board(&[&[1, 1, 2, 3], &[1, 1, 3, 2], &[3, 2, 4, 4], &[2, 3, 4, 4]]);
        let p = check_board(&b4).unwrap();
        assert_eq!(p.to_string(), "(1 2)(3 4)");
        assert_eq!(b4.total(), 40);
        let b6 = board(&[
            &[1, 2, 1, 3, 4, 5],
            &[1, 1, 2, 5, 3, 4],
            &[2, 1, 1, 4, 5, 3],
            &[5, 4, 3, 6, 7, 6],
            &[3, 5, 4, 6, 6, 7],
            &[4, 3, 5, 7, 6, 6],
        ]);
        assert_eq!(check_board(&b6).unwrap().to_string(), "(1 2 3)(4 5 6)");
        let b7 = board(&[
            &[1, 2, 2, 2, 2, 1, 3],
            &[2, 4, 5, 5, 4, 2, 2],
            &[2, 4, 4, 5, 5, 2, 2],
            &[2, 5, 4, 4, 5, 2, 2],
            &[2, 5, 5, 4, 4, 2, 2],
            &[3, 2, 2, 2, 2, 1, 1],
            &[1, 2, 2, 2, 2, 3, 1],
        ]);
        assert_eq!(check_board(&b7).unwrap().to_string(), "(1 7 6)(2 3 4 5)");
    }

    #[test]
    fn each_rule_is_caught() {
        // equal rows
        assert!(check_board(&board(&[&[1, 1], &[1, 1]]))
            .unwrap_err()
            .contains("rule 1"));
        // row equals its own column (symmetric board)
        assert!(check_board(&board(&[&[1, 2], &[2, 1]]))
            .unwrap_err()
            .contains("rule 2"));
        // value gap: 1, 3 without 2
        assert!(check_board(&board(&[&[1, 1, 3], &[3, 1, 1], &[1, 3, 1]])).is_err());
        let gap = board(&[&[1, 3, 1], &[1, 1, 3], &[3, 1, 1]]);
        let e = check_board(&gap).unwrap_err();
        assert!(e.contains("rule"), "{e}");
        assert!(check_board(&board(&[&[0]])).is_err());
        assert!(check_board(&board(&[&[1, 2]])).is_err());
    }
}
