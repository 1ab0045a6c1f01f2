//! A structured reference solver, written from the rules and independent of
//! the CNF: depth-first search over cells in an order that completes lines
//! early (the line with the fewest free cells first). The last free cell of
//! a line takes the forced value `S − (sum of the others)`; partial sums are
//! pruned by the smallest and largest values still free. Used to cross-check
//! the SAT counts (every square of order 3 and 4, completions) in tests.

use super::model::{magic_sum, Givens, Square};

/// The lines of an `n×n` square as lists of cell indices (row-major):
/// rows, columns, main diagonal, anti-diagonal.
pub fn lines(n: usize) -> Vec<Vec<usize>> {
    let mut ls = vec![];
    for i in 0..n {
        ls.push((0..n).map(|j| i * n + j).collect());
        ls.push((0..n).map(|j| j * n + i).collect());
    }
    ls.push((0..n).map(|i| i * n + i).collect());
    ls.push((0..n).map(|i| i * n + n - 1 - i).collect());
    ls
}

struct Search<'a> {
    n: usize,
    s: u64,
    order: Vec<usize>,
    /// for each position in `order`, the lines that become complete there
    completes: Vec<Vec<usize>>,
    /// lines through each cell
    through: Vec<Vec<usize>>,
    givens: &'a Givens,
    /// values pinned by the givens (no free cell may take them)
    pinned: Vec<bool>,
    value: Vec<u32>,
    used: Vec<bool>,
    line_sum: Vec<u64>,
    line_free: Vec<usize>,
    count: u64,
    limit: u64,
    on_square: &'a mut dyn FnMut(&Square),
}

impl Search<'_> {
    fn feasible(&self, line: usize) -> bool {
        // the free cells of the line need between the sum of the k smallest
        // and of the k largest unused values (a cheap, sound bound: any k values)
        let k = self.line_free[line] as u64;
        let rest = self.s as i64 - self.line_sum[line] as i64;
        let m = (self.n * self.n) as i64;
        let k = k as i64;
        rest >= k * (k + 1) / 2 && rest <= k * m - k * (k - 1) / 2
    }

    fn place(&mut self, cell: usize, v: u32) -> bool {
        self.value[cell] = v;
        self.used[v as usize] = true;
        let mut ok = true;
        for &l in &self.through[cell] {
            self.line_sum[l] += u64::from(v);
            self.line_free[l] -= 1;
            ok &= self.feasible(l);
        }
        ok
    }

    fn unplace(&mut self, cell: usize, v: u32) {
        self.value[cell] = 0;
        self.used[v as usize] = false;
        for &l in &self.through[cell] {
            self.line_sum[l] -= u64::from(v);
            self.line_free[l] += 1;
        }
    }

    fn go(&mut self, pos: usize) {
        if self.count >= self.limit {
            return;
        }
        if pos == self.order.len() {
            self.count += 1;
            let n = self.n;
            let sq = Square {
                n,
                cells: (0..n)
                    .map(|r| self.value[r * n..(r + 1) * n].to_vec())
                    .collect(),
            };
            (self.on_square)(&sq);
            return;
        }
        let cell = self.order[pos];
        let (r, c) = (cell / self.n, cell % self.n);
        let candidates: Vec<u32> = if let Some(v) = self.givens.cells[r][c] {
            vec![v]
        } else if let Some(&l) = self.completes[pos].first() {
            let need = self.s as i64 - self.line_sum[l] as i64;
            if need < 1 || need > (self.n * self.n) as i64 {
                return;
            }
            vec![need as u32]
        } else {
            (1..=(self.n * self.n) as u32).collect()
        };
        for v in candidates {
            if self.used[v as usize]
                || (self.pinned[v as usize] && self.givens.cells[r][c] != Some(v))
            {
                continue;
            }
            if self.place(cell, v) {
                self.go(pos + 1);
            }
            self.unplace(cell, v);
        }
    }
}

/// Enumerates the magic squares of order `givens.n` that keep the givens,
/// calling `on_square` for each, up to `limit`; returns how many were found.
pub fn enumerate(givens: &Givens, limit: u64, on_square: &mut dyn FnMut(&Square)) -> u64 {
    let n = givens.n;
    let lines = lines(n);
    let mut through = vec![vec![]; n * n];
    for (l, cells) in lines.iter().enumerate() {
        for &c in cells {
            through[c].push(l);
        }
    }
    // cell order: repeatedly take the line with the fewest free cells
    let mut placed = vec![false; n * n];
    let mut order = vec![];
    while order.len() < n * n {
        let best = lines
            .iter()
            .filter(|l| l.iter().any(|&c| !placed[c]))
            .min_by_key(|l| l.iter().filter(|&&c| !placed[c]).count());
        let next: Vec<usize> = match best {
            Some(l) => l.iter().copied().filter(|&c| !placed[c]).collect(),
            None => (0..n * n).filter(|&c| !placed[c]).collect(),
        };
        for c in next {
            placed[c] = true;
            order.push(c);
        }
    }
    let mut free = vec![n; lines.len()];
    let mut completes = vec![vec![]; order.len()];
    for (pos, &cell) in order.iter().enumerate() {
        for &l in &through[cell] {
            free[l] -= 1;
            if free[l] == 0 {
                completes[pos].push(l);
            }
        }
    }
    let mut pinned = vec![false; n * n + 1];
    for v in givens.cells.iter().flatten().flatten() {
        pinned[*v as usize] = true;
    }
    let mut search = Search {
        n,
        s: magic_sum(n),
        order,
        completes,
        line_free: vec![n; lines.len()],
        line_sum: vec![0; lines.len()],
        through,
        givens,
        pinned,
        value: vec![0; n * n],
        used: vec![false; n * n + 1],
        count: 0,
        limit,
        on_square,
    };
    search.go(0);
    search.count
}

/// The number of magic squares of order `givens.n` keeping the givens.
pub fn count(givens: &Givens) -> u64 {
    enumerate(givens, u64::MAX, &mut |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::magic::check::check_square;

    #[test]
    fn order_three_has_eight_squares_all_valid() {
        let mut all = vec![];
        let k = enumerate(&Givens::free(3), u64::MAX, &mut |s| all.push(s.clone()));
        assert_eq!(k, 8);
        for s in &all {
            assert_eq!(check_square(3, s), Ok(()));
        }
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 8);
    }

    #[test]
    fn orders_one_and_two() {
        assert_eq!(count(&Givens::free(1)), 1);
        assert_eq!(count(&Givens::free(2)), 0);
    }
}
