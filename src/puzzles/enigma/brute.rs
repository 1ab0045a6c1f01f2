//! Brute force from the rules alone, for n ≤ 5: every valid board is found
//! and checked by [`check_board`], without the orbit analysis or any CNF.
//!
//! Why this is exhaustive: in a valid board the rows are distinct (Rule 1)
//! and each equals a column other than its own (Rule 2), so distinct rows
//! match distinct columns: the matching is a derangement σ with
//! column j = row σ(j). For each of the derangements of n, the equalities
//! "cell (k, j) = cell (σ(j), k)" are merged with union–find into classes of
//! cells; every board with that σ gives one value per class, and the values
//! form 1..N (Rule 3), so enumerating every map from the classes onto an
//! initial segment 1..N lists every candidate board exactly once. Each
//! candidate is then run through the independent checker.

use super::check::check_board;
use super::model::Board;

/// Largest n brute force accepts (n = 6 already has 9-class derangements,
/// 9⁹ maps).
pub const BRUTE_MAX_N: usize = 5;

/// Result of the brute-force enumeration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BruteForce {
    /// number of valid boards
    pub count: u64,
    /// the largest total, with one board reaching it (None: no valid board)
    pub best: Option<(u64, Board)>,
    /// number of valid boards reaching the largest total
    pub best_count: u64,
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    parent[x] = r;
    r
}

fn derangements(n: usize) -> Vec<Vec<usize>> {
    fn go(
        i: usize,
        n: usize,
        used: &mut Vec<bool>,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if i == n {
            out.push(cur.clone());
            return;
        }
        for j in 0..n {
            if j != i && !used[j] {
                used[j] = true;
                cur.push(j);
                go(i + 1, n, used, cur, out);
                cur.pop();
                used[j] = false;
            }
        }
    }
    let mut out = vec![];
    go(0, n, &mut vec![false; n], &mut vec![], &mut out);
    out
}

/// Every valid n×n board (n ≤ [`BRUTE_MAX_N`]), counted, with the best.
pub fn brute_force(n: usize) -> Result<BruteForce, String> {
    if n > BRUTE_MAX_N {
        return Err(format!("brute force is limited to n ≤ {BRUTE_MAX_N}"));
    }
    let mut result = BruteForce {
        count: 0,
        best: None,
        best_count: 0,
    };
    for sigma in derangements(n) {
        let mut parent: Vec<usize> = (0..n * n).collect();
        for (j, &sj) in sigma.iter().enumerate() {
            for k in 0..n {
                // column j equals row σ(j): cell (k, j) = cell (σ(j), k)
                let (a, b) = (find(&mut parent, k * n + j), find(&mut parent, sj * n + k));
                parent[a] = b;
            }
        }
        let mut class_of = vec![usize::MAX; n * n];
        let mut roots = vec![];
        for (c, class) in class_of.iter_mut().enumerate() {
            let r = find(&mut parent, c);
            let idx = match roots.iter().position(|&x| x == r) {
                Some(i) => i,
                None => {
                    roots.push(r);
                    roots.len() - 1
                }
            };
            *class = idx;
        }
        let m = roots.len();
        // every map classes → 1..=m; keep those onto an initial segment
        let mut vals = vec![1u32; m];
        loop {
            let max = *vals.iter().max().unwrap();
            if (1..=max).all(|v| vals.contains(&v)) {
                let rows = (0..n)
                    .map(|i| (0..n).map(|j| vals[class_of[i * n + j]]).collect())
                    .collect();
                let b = Board::from_rows(rows);
                if check_board(&b).is_ok() {
                    result.count += 1;
                    let t = b.total();
                    match &result.best {
                        Some((bt, _)) if *bt > t => {}
                        Some((bt, _)) if *bt == t => result.best_count += 1,
                        _ => {
                            result.best = Some((t, b));
                            result.best_count = 1;
                        }
                    }
                }
            }
            // next map (odometer)
            let mut pos = 0;
            while pos < m && vals[pos] == m as u32 {
                vals[pos] = 1;
                pos += 1;
            }
            if pos == m {
                break;
            }
            vals[pos] += 1;
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_force_small() {
        assert_eq!(brute_force(1).unwrap().best, None);
        assert_eq!(brute_force(2).unwrap().best, None);
        assert_eq!(brute_force(3).unwrap().best.unwrap().0, 15);
        assert_eq!(brute_force(4).unwrap().best.unwrap().0, 40);
    }
}
