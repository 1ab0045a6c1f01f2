//! The objects of Enigma 1225 ("rows are columns", New Scientist, 8 Feb
//! 2003), generalised to n×n boards as in Cambazard, O'Sullivan & Smith, "A
//! Constraint-based Approach to Enigma 1225" (the source of every property
//! named here), after Csenki, "Enigma 1225: Prolog-assisted solution of a
//! puzzle using discrete mathematics" (2006):
//!
//! - [`Board`]: the n×n grid of positive integers;
//! - [`Derangement`]: the column-to-row permutation (`p[i] = j`: column i
//!   equals row j), with its cycle notation and cycle type;
//! - cycle types = partitions of n without a part 1 ([`partitions_without_ones`]);
//! - [`cell_orbits`] and [`optimal_board`]: Algorithm 1 of the paper (the
//!   cells forced equal by the permutation are the orbits of
//!   (i, j) → (π(j), i); the k-th smallest orbit gets value k);
//! - [`orbit_sizes`]: the same orbits counted in closed form from the cycle
//!   type (Properties 1–2 and their cross-cycle generalisation);
//! - [`nval`] / [`ubnval`]: Properties 3–4 (upper bound on the number of
//!   distinct values), and [`score_bound`], this crate's tighter bound on
//!   the total given the number of values.
//!
//! Indices are 0-based inside, 1-based when printed.

use std::fmt;

use serde::Serialize;

/// Smallest board size this program accepts.
pub const MIN_N: usize = 1;
/// Largest board size this program accepts (the board of n = 2000 has 4
/// million cells; the structured methods stay fast well below that).
pub const MAX_N: usize = 2000;

/// An n×n board of positive integers, row-major.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// side
    pub n: usize,
    /// rows of cells
    pub rows: Vec<Vec<u32>>,
}

impl Board {
    /// A board from its rows (must be square; checked by the checker).
    pub fn from_rows(rows: Vec<Vec<u32>>) -> Self {
        Board {
            n: rows.len(),
            rows,
        }
    }
    /// Cell in row `i`, column `j`.
    pub fn at(&self, i: usize, j: usize) -> u32 {
        self.rows[i][j]
    }
    /// Column `j` as a vector.
    pub fn column(&self, j: usize) -> Vec<u32> {
        self.rows.iter().map(|r| r[j]).collect()
    }
    /// The sum of the cells (the puzzle's *total*).
    pub fn total(&self) -> u64 {
        self.rows.iter().flatten().map(|&v| v as u64).sum()
    }
    /// The board as an aligned grid, one row per line.
    pub fn grid(&self) -> String {
        let w = self
            .rows
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|v| format!("{v:>w$}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A permutation of `0..n` given by its images; for the puzzle, `p[i] = j`
/// means "column i equals row j".
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Derangement {
    images: Vec<usize>,
}

impl Derangement {
    /// From images; `None` if not a permutation of `0..len`.
    pub fn from_images(images: Vec<usize>) -> Option<Self> {
        let n = images.len();
        let mut seen = vec![false; n];
        for &j in &images {
            if j >= n || std::mem::replace(&mut seen[j], true) {
                return None;
            }
        }
        Some(Derangement { images })
    }
    /// The canonical representative of a cycle type (the paper's §4.2):
    /// cycles on consecutive indices, in the order given (non-decreasing
    /// lengths for the canonical form), each `s → s+1 → … → e → s`.
    pub fn canonical(parts: &[usize]) -> Self {
        let mut images = Vec::with_capacity(parts.iter().sum());
        let mut s = 0;
        for &l in parts {
            for i in s..s + l {
                images.push(if i + 1 < s + l { i + 1 } else { s });
            }
            s += l;
        }
        Derangement { images }
    }
    /// Degree n.
    pub fn len(&self) -> usize {
        self.images.len()
    }
    /// True for the permutation of nothing.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }
    /// Image of `i`.
    pub fn apply(&self, i: usize) -> usize {
        self.images[i]
    }
    /// The images.
    pub fn images(&self) -> &[usize] {
        &self.images
    }
    /// True if no point is fixed (Rule 2: no row equals its own column).
    pub fn is_derangement(&self) -> bool {
        self.images.iter().enumerate().all(|(i, &j)| i != j)
    }
    /// Disjoint cycles, each starting at its smallest point, ordered by it.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.len()];
        let mut out = vec![];
        for s in 0..self.len() {
            if seen[s] {
                continue;
            }
            let mut c = vec![];
            let mut i = s;
            while !seen[i] {
                seen[i] = true;
                c.push(i);
                i = self.images[i];
            }
            out.push(c);
        }
        out
    }
    /// Cycle type: the cycle lengths, non-decreasing.
    pub fn cycle_type(&self) -> Vec<usize> {
        let mut t: Vec<usize> = self.cycles().iter().map(Vec::len).collect();
        t.sort_unstable();
        t
    }
}

impl fmt::Display for Derangement {
    /// Cycle notation, 1-based: `(1 2)(3 4 5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cycles() {
            let s: Vec<String> = c.iter().map(|i| (i + 1).to_string()).collect();
            write!(f, "({})", s.join(" "))?;
        }
        Ok(())
    }
}

/// A partition printed the paper's way: `{2, 2, 3}`.
pub fn partition_string(parts: &[usize]) -> String {
    let s: Vec<String> = parts.iter().map(usize::to_string).collect();
    format!("{{{}}}", s.join(", "))
}

/// A partition with runs of equal parts abbreviated: `{2×13, 3}` (runs of
/// up to 3 are written out).
pub fn partition_compact(parts: &[usize]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < parts.len() {
        let run = parts[i..].iter().take_while(|&&p| p == parts[i]).count();
        if run > 3 {
            out.push(format!("{}×{run}", parts[i]));
        } else {
            out.extend(std::iter::repeat_n(parts[i].to_string(), run));
        }
        i += run;
    }
    format!("{{{}}}", out.join(", "))
}

/// Algorithm 1, first half: the sets of cells forced equal by `p` (orbits of
/// (i, j) → (p(j), i)), each as a list of `(row, column)`, in the order of
/// their first cell (row-major).
pub fn cell_orbits(p: &Derangement) -> Vec<Vec<(usize, usize)>> {
    let n = p.len();
    let mut marked = vec![false; n * n];
    let mut orbits = vec![];
    for i in 0..n {
        for j in 0..n {
            if marked[i * n + j] {
                continue;
            }
            let mut set = vec![];
            let (mut a, mut b) = (i, j);
            loop {
                set.push((a, b));
                marked[a * n + b] = true;
                (a, b) = (p.apply(b), a);
                if (a, b) == (i, j) {
                    break;
                }
            }
            orbits.push(set);
        }
    }
    orbits
}

/// Algorithm 1 (COMPUTESFROMPERMUTATION): the board with the largest total
/// for permutation `p`: the orbits sorted by increasing size, the k-th gets
/// value k. (Any board for `p` is constant on orbits, so giving every orbit
/// its own value, larger values to larger orbits, is best by the
/// rearrangement inequality.) Returns the board; it satisfies Rules 1–3 iff
/// its rows are pairwise distinct ([`rows_distinct`]) and `p` is a
/// derangement.
pub fn optimal_board(p: &Derangement) -> Board {
    let n = p.len();
    let mut orbits = cell_orbits(p);
    orbits.sort_by_key(Vec::len); // stable: ties keep row-major order
    let mut rows = vec![vec![0u32; n]; n];
    for (k, set) in orbits.iter().enumerate() {
        for &(i, j) in set {
            rows[i][j] = k as u32 + 1;
        }
    }
    Board { n, rows }
}

/// True if no two rows of the board are equal (Rule 1).
pub fn rows_distinct(b: &Board) -> bool {
    let mut rows: Vec<&Vec<u32>> = b.rows.iter().collect();
    rows.sort();
    rows.windows(2).all(|w| w[0] != w[1])
}

/// The best total for a cycle type, or `None` if the cycle type admits no
/// board (a part 1, or two rows forced equal, as for {2, 3}): Algorithm 1
/// on the canonical permutation plus the distinct-rows check.
pub fn best_for_cycle_type(parts: &[usize]) -> Option<(u64, Board)> {
    if parts.contains(&1) || parts.is_empty() {
        return None;
    }
    let b = optimal_board(&Derangement::canonical(parts));
    rows_distinct(&b).then(|| (b.total(), b))
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The orbit sizes of a cycle type in closed form (sorted): a cycle of
/// length a contributes ⌊a/2⌋ orbits of size 2a, plus one of size a if a is
/// odd (Properties 1–2); two cycles of lengths a and b share gcd(a, b)
/// orbits of size 2·lcm(a, b) (the square of the map, (i, j) → (π(i), π(j)),
/// has orbits of size lcm(a, b) on each of the two a×b blocks, and the map
/// alternates between them).
pub fn orbit_sizes(parts: &[usize]) -> Vec<usize> {
    let mut sizes = vec![];
    for (x, &a) in parts.iter().enumerate() {
        sizes.extend(std::iter::repeat_n(2 * a, a / 2));
        if a % 2 == 1 {
            sizes.push(a);
        }
        for &b in &parts[x + 1..] {
            let g = gcd(a, b);
            sizes.extend(std::iter::repeat_n(2 * a * b / g, g));
        }
    }
    sizes.sort_unstable();
    sizes
}

/// Σ k·sₖ over sizes sorted ascending (k from 1): the total of Algorithm 1.
pub fn score_of_sizes(sorted_sizes: &[usize]) -> u64 {
    sorted_sizes
        .iter()
        .enumerate()
        .map(|(k, &s)| (k as u64 + 1) * s as u64)
        .sum()
}

/// Property 3: at most `n − ⌊k/2⌋` distinct values in the cells of a cycle
/// of length k on an n×n board.
pub fn nval(n: usize, k: usize) -> usize {
    n - k / 2
}

/// Property 4 / Algorithm 3: UBNVAL(n, C), the parts taken from the largest
/// down, each on the board left by the previous ones.
pub fn ubnval(parts: &[usize]) -> usize {
    let mut sorted = parts.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut n: usize = parts.iter().sum();
    let mut u = 0;
    for k in sorted {
        u += nval(n, k);
        n -= k;
    }
    u
}

/// The largest UBNVAL over the cycle types of n (the paper's ub(N)):
/// {2, …, 2} for even n, {3, 2, …, 2} for odd n, as the paper shows (smaller
/// cycles never lower the bound); 0 for n < 2.
pub fn max_ubnval(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        _ => {
            let mut parts = vec![2; n / 2];
            if n % 2 == 1 {
                parts[n / 2 - 1] = 3;
            }
            ubnval(&parts)
        }
    }
}

/// An upper bound on the total of any board of side n that uses at most `v`
/// distinct values, knowing that at most `⌊n/3⌋` values occur fewer than 4
/// times (only the size-3 orbit of a 3-cycle can: Properties 1–2) and none
/// fewer than 3. With the values' occurrence counts o₁ ≤ … ≤ o_v (relabelling
/// sorted by count, which never lowers the total), the total is
/// Σₖ (n² − o₁ − … − oₖ) for k = 0..v−1, and each prefix sum is at least
/// 3·min(k, ⌊n/3⌋) + 4·max(0, k − ⌊n/3⌋).
///
/// This is tighter than the paper's n²·UBNVAL (every cell holding the
/// largest value), which is what `--bound paper` uses.
pub fn score_bound(n: usize, v: usize) -> u64 {
    let cells = (n * n) as u64;
    let threes = (n / 3) as u64;
    (0..v as u64)
        .map(|k| {
            let prefix = 3 * k.min(threes) + 4 * k.saturating_sub(threes);
            cells.saturating_sub(prefix)
        })
        .sum()
}

/// The smallest number of values `v` with `score_bound(n, v) > target`
/// (a board with total > target needs at least that many values), or `None`
/// if no number of values reaches it.
pub fn values_needed(n: usize, target: u64) -> Option<usize> {
    let mut acc = 0u64;
    let cells = (n * n) as u64;
    let threes = (n / 3) as u64;
    for k in 0..(n * n) as u64 {
        let prefix = 3 * k.min(threes) + 4 * k.saturating_sub(threes);
        if prefix >= cells {
            return None;
        }
        acc += cells - prefix;
        if acc > target {
            return Some(k as usize + 1);
        }
    }
    None
}

/// Every partition of n with no part 1, parts non-decreasing, in
/// lexicographic order ({2, 2, …} first).
pub fn partitions_without_ones(n: usize) -> Vec<Vec<usize>> {
    fn go(rest: usize, min: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if rest == 0 {
            out.push(cur.clone());
            return;
        }
        for part in min..=rest {
            if rest - part != 0 && rest - part < part {
                continue; // the remainder could not hold a part ≥ this one
            }
            cur.push(part);
            go(rest - part, part, cur, out);
            cur.pop();
        }
    }
    let mut out = vec![];
    if n >= 2 {
        go(n, 2, &mut vec![], &mut out);
    }
    out
}

/// The number of partitions of n with no part 1 (= p(n) − p(n−1)), by
/// dynamic programming over parts 2..n; the paper's "Total partitions".
pub fn count_partitions_without_ones(n: usize) -> u128 {
    let mut ways = vec![0u128; n + 1];
    ways[0] = 1;
    for part in 2..=n {
        for s in part..=n {
            ways[s] += ways[s - part];
        }
    }
    if n == 0 {
        0
    } else {
        ways[n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_examples() {
        // π3 = (1 7 6)(2 3 4 5) of Eq. (1)
        let p = Derangement::from_images(vec![6, 2, 3, 4, 1, 0, 5]).unwrap();
        assert_eq!(p.to_string(), "(1 7 6)(2 3 4 5)");
        assert_eq!(p.cycle_type(), vec![3, 4]);
        // eqc(6,1) = {(6,1), (7,6), (1,7)}
        let orbit = cell_orbits(&p)
            .into_iter()
            .find(|o| o.contains(&(5, 0)))
            .unwrap();
        let mut o = orbit.clone();
        o.sort();
        assert_eq!(o, vec![(0, 6), (5, 0), (6, 5)]);
        assert_eq!(
            Derangement::canonical(&[3, 4]).to_string(),
            "(1 2 3)(4 5 6 7)"
        );
        // Property 4 examples
        assert_eq!(ubnval(&[4, 2]), 5);
        assert_eq!(ubnval(&[4, 3, 2, 2]), 19);
        assert_eq!(max_ubnval(8), 16);
    }

    #[test]
    fn closed_form_orbits_match_algorithm_1() {
        for n in 2..=12 {
            for parts in partitions_without_ones(n) {
                let p = Derangement::canonical(&parts);
                let mut sizes: Vec<usize> = cell_orbits(&p).iter().map(Vec::len).collect();
                sizes.sort_unstable();
                assert_eq!(sizes, orbit_sizes(&parts), "{parts:?}");
                assert_eq!(optimal_board(&p).total(), score_of_sizes(&sizes));
                assert!(sizes.len() <= ubnval(&parts), "Property 4 for {parts:?}");
                // the board CNF's `--redundant gcd`: a 2-cycle and an odd
                // cycle share one orbit where UBNVAL counts two
                let twos = parts.iter().filter(|&&p| p == 2).count();
                let odds = parts.iter().filter(|&&p| p % 2 == 1).count();
                assert!(
                    sizes.len() <= ubnval(&parts) - twos * odds,
                    "gcd bound for {parts:?}"
                );
                if let Some((total, _)) = best_for_cycle_type(&parts) {
                    assert!(total <= score_bound(n, sizes.len()));
                }
            }
        }
    }

    #[test]
    fn partition_counts() {
        // the paper's "Total partitions" column
        for (n, c) in [(3, 1), (8, 7), (20, 137), (25, 383), (55, 65121)] {
            assert_eq!(count_partitions_without_ones(n), c);
        }
        for n in 2..=20 {
            assert_eq!(
                partitions_without_ones(n).len() as u128,
                count_partitions_without_ones(n)
            );
        }
    }

    #[test]
    fn two_three_is_infeasible() {
        assert!(best_for_cycle_type(&[2, 3]).is_none());
        assert_eq!(best_for_cycle_type(&[5]).unwrap().0, 55);
        assert_eq!(best_for_cycle_type(&[2, 2]).unwrap().0, 40);
    }
}
