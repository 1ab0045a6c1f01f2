//! The independent checker, written from the rules of the game and never
//! from the CNF: replay the clicks one by one on the start board, and
//! confirm minimality by brute force over the coset `clicks + kernel` (every
//! click matrix reaching the same board), or, past the enumeration limit, by
//! the exact row/column minimum of [`super::rowcol`] (tested equal to the
//! enumeration on every small board).

use super::model::Grid;
use super::rowcol::RowCol;
use super::zmod::Kernel;

/// The board after clicking every cell `(i, j)` `clicks(i, j)` times, one
/// click at a time: each click advances its row and its column by one, the
/// clicked cell once.
pub fn replay(start: &Grid, clicks: &Grid, c: u32) -> Grid {
    let n = start.n;
    let mut board = start.clone();
    for i in 0..n {
        for j in 0..n {
            for _ in 0..clicks.at(i, j) {
                for a in 0..n {
                    for b in 0..n {
                        if a == i || b == j {
                            let v = &mut board.cells[a * n + b];
                            *v = (*v + 1) % c;
                        }
                    }
                }
            }
        }
    }
    board
}

/// The fewest clicks reaching the same board as `clicks`, by enumerating the
/// coset `clicks + z (mod c)` over every kernel element `z`, and a matrix
/// attaining it. None if the kernel has more than `limit` elements.
pub fn coset_minimum(clicks: &Grid, kernel: &Kernel, limit: u64) -> Option<(u32, Grid)> {
    if kernel.size().is_none_or(|s| s > limit) {
        return None;
    }
    let c = kernel.c;
    let mut best = (clicks.total(), clicks.clone());
    kernel.for_each(clicks.cells.len(), |z| {
        let t: u32 = clicks.cells.iter().zip(z).map(|(x, z)| (x + z) % c).sum();
        if t < best.0 {
            best = (
                t,
                Grid {
                    n: clicks.n,
                    cells: clicks
                        .cells
                        .iter()
                        .zip(z)
                        .map(|(x, z)| (x + z) % c)
                        .collect(),
                },
            );
        }
        true
    });
    Some(best)
}

/// How [`check_clicks`] confirmed minimality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimalityCheck {
    /// every element of the coset was listed
    Enumerated,
    /// the kernel has more than `limit` elements: the row/column minimum
    RowColumn,
}

/// Checks a click matrix: values in `0..c`, replaying it on `start` gives
/// `goal`, and no matrix of its coset has fewer clicks (by enumeration when
/// the kernel has at most `limit` elements, else by the row/column minimum).
pub fn check_clicks(
    start: &Grid,
    goal: &Grid,
    clicks: &Grid,
    c: u32,
    kernel: &Kernel,
    limit: u64,
) -> Result<MinimalityCheck, String> {
    if let Some(v) = clicks.cells.iter().find(|&&v| v >= c) {
        return Err(format!("a cell is clicked {v} times, not in 0..{c}"));
    }
    let reached = replay(start, clicks, c);
    if &reached != goal {
        return Err(format!(
            "the clicks reach\n{}\ninstead of the goal\n{}",
            reached.render(),
            goal.render()
        ));
    }
    let (how, (t, better)) = match coset_minimum(clicks, kernel, limit) {
        Some(best) => (MinimalityCheck::Enumerated, best),
        None => {
            let (t, z) = RowCol::new(clicks.n, c).coset_min(&clicks.cells);
            let cells = clicks.cells.iter().zip(&z).map(|(x, z)| (x + z) % c);
            let better = Grid {
                n: clicks.n,
                cells: cells.collect(),
            };
            (MinimalityCheck::RowColumn, (t, better))
        }
    };
    if t < clicks.total() {
        return Err(format!(
            "not minimal: {} clicks, but {t} clicks reach the same board:\n{}",
            clicks.total(),
            better.render()
        ));
    }
    Ok(how)
}
