//! `--hardest --method goals`: the hardest goal from the goal side, an
//! exhaustive search over the goals, one or more per symmetry class, each
//! played exactly (the max-min of Gent, Linton & Smith, APES-22-2000,
//! turned around; issue 29).
//!
//! - **The inner minimum.** A click matrix x reaching the goal s has
//!   `x_ij = (R_i + C_j − s_ij) mod c` with R, C its row and column sums,
//!   so the fewest clicks of s is a minimum over the consistent (T, R, C):
//!   `ΣR ≡ ΣC ≡ T`, `(n−1)·R_i ≡ rowsum_i(s) − T`, `(n−1)·C_j ≡
//!   colsum_j(s) − T` ([`goal_min`]).
//! - **One goal per class at least.** Row permutations, column
//!   permutations and the transpose keep the fewest clicks. The
//!   lexicographically smallest goal of a class (row-major) is no larger
//!   than its image under an adjacent row swap, an adjacent column swap
//!   and the transpose, so its rows and its columns are lexicographically
//!   non-decreasing and it is no larger than its transpose (the lex-leader
//!   argument of Crawford, Ginsberg, Luks & Roy, "Symmetry-breaking
//!   predicates for search problems", KR 1996; that such doubly-lexical
//!   orderings exist is Lubiw, "Doubly lexical orderings of matrices", SIAM
//!   J. Comput. 1987). The search visits exactly the goals with those three
//!   properties, so it visits every class.
//! - **c | n − 1** (5×5/4, 6×6/5, 7×7/3, 7×7/6, …): a goal is reachable iff
//!   all its rows and columns have one sum T mod c, and then every (R, C)
//!   with `ΣR ≡ ΣC ≡ T` is consistent. Rows are filled top-down among the
//!   rows of sum T (T set by the first row); the last row is forced by the
//!   column sums. For each column vector C a dynamic programme over the
//!   filled rows keeps the cheapest cost per partial `ΣR mod c`, so a leaf
//!   costs one step of it. **Bound**: with at least two open rows, their
//!   R_i can be chosen jointly with any sum, and each R_i uniform on Z_c
//!   makes a row cost `n(c−1)/2` on average, so every completion needs at
//!   most `min_{C, partial sum} dp + ⌊open·n(c−1)/2⌋` clicks; a branch whose
//!   bound does not beat the cube's best is cut.
//! - **Other (n, c)**: every goal with the three properties is filled in,
//!   reachability and the fewest clicks by [`goal_min`] at the leaf, no
//!   bound (small boards: the tests' brute-force comparisons).
//! - **Cubes.** The goals are split by their first two rows (the first
//!   row when only one row is free): the p-th such prefix in the search's
//!   fixed order belongs to cube `p mod K`. Each cube keeps its own best, so
//!   its counts and digest do not depend on threads or other cubes; the
//!   driver is `crate::drive::cubes::native`, the report the command
//!   line's (`crate::cli::alien_tiles`).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::model::Grid;
use super::play::{fewest_clicks, Played};
use super::rowcol::RowCol;
use super::zmod::gcd;
use crate::certify::Fnv;
use crate::report::{plural, Details};

/// The fewest clicks reaching the goal `s` (row-major, entries in `0..c`)
/// from the all-zero board, by the minimum over the consistent (T, R, C);
/// None if unreachable. A depth-first search over the column values C_j
/// keeps each row's cost per row value R_i over the columns chosen so far
/// (a row's cheapest value bounds it from below, so a branch that cannot
/// beat the best so far is cut); a dynamic programme over the rows picks R
/// at each full column vector.
pub fn goal_min(s: &[u32], n: usize, c: u32) -> Option<u32> {
    let m = (n as u32 + c - 1) % c;
    let row_sum = |i: usize| (0..n).map(|j| s[i * n + j]).sum::<u32>() % c;
    let col_sum = |j: usize| (0..n).map(|i| s[i * n + j]).sum::<u32>() % c;
    // the values v with m·v ≡ a
    let values = |a: u32| -> Vec<u32> { (0..c).filter(|&v| m * v % c == a % c).collect() };
    let mut best = u32::MAX;
    for t in 0..c {
        let rows: Vec<Vec<u32>> = (0..n).map(|i| values(row_sum(i) + c - t)).collect();
        let cols: Vec<Vec<u32>> = (0..n).map(|j| values(col_sum(j) + c - t)).collect();
        if rows.iter().chain(&cols).any(Vec::is_empty) {
            continue;
        }
        let mut min = ColumnSearch {
            s,
            n,
            c,
            t,
            rows: &rows,
            cols: &cols,
            acc: vec![vec![0; n * c as usize]; n + 1],
            best,
        };
        min.descend(0, 0);
        best = min.best;
    }
    Some(best).filter(|&b| b != u32::MAX)
}

/// [`goal_min`]'s search for one T.
struct ColumnSearch<'a> {
    s: &'a [u32],
    n: usize,
    c: u32,
    t: u32,
    /// the admissible values of each R_i and each C_j
    rows: &'a [Vec<u32>],
    cols: &'a [Vec<u32>],
    /// per depth j, `acc[j][i·c + r]`: row i's clicks in columns 0..j at R_i = r
    acc: Vec<Vec<u32>>,
    /// the fewest clicks found (u32::MAX: none yet)
    best: u32,
}

impl ColumnSearch<'_> {
    fn descend(&mut self, j: usize, sum: u32) {
        let (n, c, cu) = (self.n, self.c, self.c as usize);
        if j == n {
            // rows: cheapest per partial ΣR mod c
            let mut dp = vec![u32::MAX; cu];
            dp[0] = 0;
            for (i, vs) in self.rows.iter().enumerate() {
                let mut next = vec![u32::MAX; cu];
                for (st, &d) in dp.iter().enumerate() {
                    if d == u32::MAX {
                        continue;
                    }
                    for &r in vs {
                        let e = &mut next[(st + r as usize) % cu];
                        *e = (*e).min(d + self.acc[n][i * cu + r as usize]);
                    }
                }
                dp = next;
            }
            self.best = self.best.min(dp[self.t as usize]);
            return;
        }
        for k in 0..self.cols[j].len() {
            let v = self.cols[j][k];
            if j + 1 == n && (sum + v) % c != self.t {
                continue;
            }
            let (done, rest) = self.acc.split_at_mut(j + 1);
            let (from, to) = (&done[j], &mut rest[0]);
            let mut low = 0;
            for (i, vs) in self.rows.iter().enumerate() {
                let g = self.s[i * n + j];
                for r in 0..c {
                    to[i * cu + r as usize] = from[i * cu + r as usize] + (r + v + c - g) % c;
                }
                low += vs
                    .iter()
                    .map(|&r| to[i * cu + r as usize])
                    .min()
                    .unwrap_or(0);
            }
            if low < self.best {
                self.descend(j + 1, (sum + v) % c);
            }
        }
    }
}

/// Whether the goal `s` (row-major, entries in `0..c`) is reachable from
/// the all-zero board: with g = gcd(n − 1, c) and S the sum of all cells,
/// some T has every row sum and every column sum ≡ T mod g and
/// S ≡ (2n − 1)·T mod c. (A click matrix reaching s has row and column sums
/// R, C with `(n−1)·R_i ≡ rowsum_i − T`, solvable iff g divides the right
/// side; summed over i with ΣR ≡ T it gives `(n−1)·T ≡ S − n·T`; conversely
/// the R_i are then fixed mod c/g, their sum is ≡ T mod c/g, and the g
/// choices of each R_i make it ≡ T mod c, likewise C.) When c | n − 1 it
/// says: all row and column sums equal T, the search's levels.
pub fn reachable(s: &[u32], n: usize, c: u32) -> bool {
    let g = gcd(u64::from(n as u32 - 1), u64::from(c)) as u32;
    let total: u32 = s.iter().sum();
    let rows: Vec<u32> = (0..n).map(|i| (0..n).map(|j| s[i * n + j]).sum()).collect();
    let cols: Vec<u32> = (0..n).map(|j| (0..n).map(|i| s[i * n + j]).sum()).collect();
    (0..c).any(|t| {
        rows.iter().chain(&cols).all(|&x| (x + c - t % g) % g == 0)
            && total % c == (2 * n as u32 - 1) * t % c
    })
}

/// What one cube of the goal search found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalRecord {
    /// the most clicks any reachable goal of the cube needs (None: the cube
    /// holds no reachable goal)
    pub hardest: Option<u32>,
    /// the first goal found with that many, as rows
    pub goal: Option<Vec<Vec<u32>>>,
    /// reachable goals visited, each played exactly or found no harder
    /// than the cube's best by one (R, C) at or below it
    pub visited: u64,
    /// branches cut by the bound (each a set of goals none of which can
    /// beat the cube's best)
    pub cut: u64,
    /// goals filled in and found unreachable (boards other than c | n − 1)
    pub unreachable: u64,
    /// FNV-1a digest of every goal visited, in order, each improvement
    /// followed by its value
    pub digest: String,
}

/// The goal search of an n×n board with c colours.
#[derive(Clone, Debug)]
pub struct GoalSearch {
    n: usize,
    c: u32,
    /// c divides n − 1
    level: bool,
    /// other (n, c): g = gcd(n − 1, c); the rows are listed per sum mod g
    /// and the last row's cells are fixed mod g by the column sums (1: no
    /// restriction, the plain search)
    modulus: u32,
    /// per row sum T (c | n − 1), or one list of every row: the candidate
    /// rows, n entries each, in lexicographic order
    rows: Vec<Vec<u8>>,
    /// c | n − 1: per T, the column vectors C with ΣC ≡ T, n entries each
    cols: Vec<Vec<u8>>,
    /// c | n − 1: per number k of open rows, per residue r, the most clicks
    /// k rows can need whatever they hold, their row values summing to r
    /// ([`open_bounds`])
    open: Vec<Vec<u32>>,
    /// look only for goals needing more than this many clicks
    above: Option<u32>,
    describe: String,
}

/// The most rows (vectors of length n over Z_c) the search lists: its
/// tables hold every row, every column vector and a dynamic programme per
/// row over them, about 4·n·c^n bytes (8×8/7: 184 MB).
pub const MAX_ROWS: u64 = 1 << 24;

/// The most cost functions of one row (non-decreasing vectors of length n
/// over Z_c) that [`open_bounds`] compares pairwise.
const MAX_ROW_FUNCTIONS: u64 = 20_000;

impl GoalSearch {
    /// Refuses, before anything is allocated, boards whose tables exceed
    /// [`MAX_ROWS`] or [`MAX_ROW_FUNCTIONS`].
    pub fn check_size(n: usize, c: u32) -> anyhow::Result<()> {
        let rows = u64::from(c)
            .checked_pow(n as u32)
            .filter(|&r| r <= MAX_ROWS);
        // C(n + c − 1, n), stopping once past the limit
        let mut multisets = 1u64;
        for i in 1..=n as u64 {
            multisets = multisets.saturating_mul(u64::from(c) - 1 + i) / i;
            if multisets > MAX_ROW_FUNCTIONS * 64 {
                break;
            }
        }
        anyhow::ensure!(
            rows.is_some() && multisets <= MAX_ROW_FUNCTIONS,
            "the goal search would list all {c}^{n} rows of the {n}×{n} board with {c} colours, over its limit of {MAX_ROWS} (2^24) rows or {MAX_ROW_FUNCTIONS} row multisets (--method sat searches such boards)"
        );
        Ok(())
    }
}

/// Every vector of `0..c` of length n (lexicographic order) whose sum is
/// `t` mod c (every vector when `t` is None), flattened.
fn vectors(n: usize, c: u32, t: Option<u32>) -> Vec<u8> {
    vectors_mod(n, c, c, t)
}

/// Every vector of `0..c` of length n (lexicographic order) whose sum is
/// `t` mod `g` (every vector when `t` is None), flattened.
fn vectors_mod(n: usize, c: u32, g: u32, t: Option<u32>) -> Vec<u8> {
    let mut out = vec![];
    let mut v = vec![0u8; n];
    loop {
        if t.is_none_or(|t| v.iter().map(|&x| u32::from(x)).sum::<u32>() % g == t) {
            out.extend_from_slice(&v);
        }
        // next in lexicographic order: the last position counts fastest
        let Some(j) = (0..n).rev().find(|&j| u32::from(v[j]) + 1 < c) else {
            return out;
        };
        v[j] += 1;
        v[j + 1..].fill(0);
    }
}

impl GoalSearch {
    /// The search for n×n boards with c colours (n ≥ 2).
    pub fn new(n: usize, c: u32, describe: String) -> anyhow::Result<Self> {
        anyhow::ensure!(
            n >= 2,
            "--method goals needs n ≥ 2 (the 1×1 board's hardest goal is c − 1)"
        );
        Self::check_size(n, c)?;
        let level = (n as u32 - 1) % c == 0;
        let g = gcd(u64::from(n as u32 - 1), u64::from(c)) as u32;
        let (rows, cols, open) = if level {
            let rows = (0..c).map(|t| vectors(n, c, Some(t))).collect();
            let cols = (0..c).map(|t| vectors(n, c, Some(t))).collect();
            (rows, cols, open_bounds(n, c))
        } else {
            let rows = (0..g).map(|a| vectors_mod(n, c, g, Some(a))).collect();
            (rows, vec![], vec![])
        };
        Ok(GoalSearch {
            n,
            c,
            level,
            modulus: g,
            rows,
            cols,
            open,
            above: None,
            describe,
        })
    }

    /// The search for goals needing more than `b` clicks only (`b` a known
    /// lower bound on the hardest, e.g. a certified witness's value): every
    /// branch that cannot beat `b` is cut from the start. A search that ends
    /// without a goal proves that no goal needs more than `b` clicks; one
    /// that finds goals finds the hardest, as without `b`. The description
    /// says `above=b` (a cube file of another `b` is refused).
    pub fn above(mut self, b: u32) -> Self {
        self.above = Some(b);
        self.describe = format!("{} above={b}", self.describe);
        self
    }

    /// The plain search over every doubly-lexical goal (reachability and
    /// fewest clicks by [`goal_min`] at each leaf, no bound), for any (n, c):
    /// the cross-check of the bounded one.
    pub fn without_bound(n: usize, c: u32, describe: String) -> anyhow::Result<Self> {
        anyhow::ensure!(n >= 2, "--method goals needs n ≥ 2");
        Self::check_size(n, c)?;
        Ok(GoalSearch {
            n,
            c,
            level: false,
            modulus: 1,
            rows: vec![vectors(n, c, None)],
            cols: vec![],
            open: vec![],
            above: None,
            describe,
        })
    }

    /// Checks a record read back from a cube file: its goal (if any) is an
    /// n×n board whose fewest clicks, by the coset minimum, are its value.
    pub fn check_record(&self, r: &GoalRecord) -> anyhow::Result<()> {
        let (n, c) = (self.n, self.c);
        match (&r.hardest, &r.goal) {
            (None, None) => Ok(()),
            (Some(v), Some(rows)) => {
                anyhow::ensure!(
                    rows.len() == n
                        && rows
                            .iter()
                            .all(|r| r.len() == n && r.iter().all(|&x| x < c)),
                    "its goal is not an {n}×{n} board of colours 0..{c}"
                );
                let goal = Grid {
                    n,
                    cells: rows.concat(),
                };
                match fewest_clicks(&Grid::zeros(n), &goal, c, &RowCol::new(n, c)) {
                    Played::Best { total, .. } if total == *v => Ok(()),
                    Played::Best { total, .. } => {
                        anyhow::bail!("its goal needs {total} clicks, not the {v} it records")
                    }
                    Played::Unreachable => anyhow::bail!("its goal is unreachable"),
                }
            }
            _ => anyhow::bail!("a value without a goal, or a goal without a value"),
        }
    }

    /// An upper bound on the hardest goal before any search: where c | n − 1
    /// the open rows' bound with every row open (the search's tables),
    /// else [`root_bound`].
    pub fn upper_bound(&self) -> Option<u32> {
        match self.open.get(self.n) {
            Some(all) if self.level => all.iter().copied().max(),
            _ => root_bound(self.n, self.c),
        }
    }

    /// `above`'s value: every goal the search looks for needs more clicks.
    pub fn floor(&self) -> Option<u32> {
        self.above
    }

    /// The instance and options, as given to [`GoalSearch::new`].
    pub fn describe(&self) -> &str {
        &self.describe
    }

    /// Rows filled by the search (the last one is forced when c | n − 1).
    fn free_rows(&self) -> usize {
        if self.level {
            self.n - 1
        } else {
            self.n
        }
    }

    /// Searches cube `index` of `cubes` (all goals with `cubes` = 1): what
    /// it found, and whether it reached its end (false: `stop` said so,
    /// the record covers the goals visited so far).
    pub fn search_cube(
        &self,
        index: u32,
        cubes: u32,
        stop: &dyn Fn() -> bool,
        progress: &mut dyn FnMut(String),
    ) -> (GoalRecord, bool) {
        let n = self.n;
        let mut w = Walk {
            g: self,
            t: 0,
            goal: vec![0; n * n],
            dp: (0..n)
                .map(|_| {
                    vec![u16::MAX; self.cols.first().map_or(0, |c| c.len() / n) * self.c as usize]
                })
                .collect(),
            best: None,
            visited: 0,
            cut: 0,
            unreachable: 0,
            digest: Fnv::default(),
            prefix_depth: self.free_rows().min(2),
            prefixes: 0,
            cube: u64::from(index),
            cubes: u64::from(cubes),
            stop,
            stopped: false,
            ticks: 0,
            started: Instant::now(),
            reported: Instant::now(),
            progress,
            index,
            hints: RecentFirst::default(),
            witnesses: (0..n).map(|_| RecentFirst::default()).collect(),
        };
        if self.level {
            for t in 0..self.c as usize {
                w.t = t;
                let dp0 = &mut w.dp[0];
                dp0.fill(u16::MAX);
                for k in 0..dp0.len() / self.c as usize {
                    dp0[k * self.c as usize] = 0;
                }
                w.place(0, 0, u32::MAX);
            }
        } else {
            // per row sum mod g
            for a in 0..self.rows.len() {
                w.t = a;
                w.place(0, 0, u32::MAX);
            }
        }
        let (hardest, goal) = match w.best {
            Some((v, g)) => (
                Some(v),
                Some(
                    g.chunks(n)
                        .map(|r| r.iter().map(|&x| u32::from(x)).collect())
                        .collect(),
                ),
            ),
            None => (None, None),
        };
        let record = GoalRecord {
            hardest,
            goal,
            visited: w.visited,
            cut: w.cut,
            unreachable: w.unreachable,
            digest: w.digest.hex(),
        };
        (record, !w.stopped)
    }
}

/// One cube's depth-first walk.
struct Walk<'a, 'p> {
    g: &'a GoalSearch,
    /// the row sum T (c | n − 1), else the row sum mod g
    t: usize,
    /// the goal being filled, row-major
    goal: Vec<u8>,
    /// c | n − 1: per filled-row count k, per column vector C, per partial
    /// ΣR mod c, the fewest clicks of the first k rows
    dp: Vec<Vec<u16>>,
    best: Option<(u32, Vec<u8>)>,
    visited: u64,
    cut: u64,
    unreachable: u64,
    digest: Fnv,
    prefix_depth: usize,
    prefixes: u64,
    cube: u64,
    cubes: u64,
    /// true once the time limit or an interrupt struck
    stop: &'a dyn Fn() -> bool,
    stopped: bool,
    ticks: u64,
    started: Instant,
    reported: Instant,
    progress: &'p mut dyn FnMut(String),
    index: u32,
    /// column vectors that held recent goals at or below the best
    hints: RecentFirst<usize>,
    /// per depth k, the column vectors that cut recent branches there
    witnesses: Vec<RecentFirst<usize>>,
}

impl Walk<'_, '_> {
    /// Places row `k` from candidate `from` on (rows are non-decreasing);
    /// `ties` has bit j while columns j and j+1 are equal so far.
    fn place(&mut self, k: usize, from: usize, ties: u32) {
        let g = self.g;
        let n = g.n;
        let list = self.t;
        let count = g.rows[list].len() / n;
        for idx in from..count {
            if self.stopped {
                return;
            }
            let row = &g.rows[list][idx * n..(idx + 1) * n];
            if (0..n - 1).any(|j| ties >> j & 1 == 1 && row[j] > row[j + 1]) {
                continue;
            }
            // other (n, c), the last row: every column sum ≡ the row sums mod g
            if !g.level && g.modulus > 1 && k + 1 == n {
                let m = g.modulus;
                if (0..n).any(|j| {
                    let col: u32 = (0..n - 1).map(|i| u32::from(self.goal[i * n + j])).sum();
                    (col + u32::from(row[j])) % m != self.t as u32
                }) {
                    continue;
                }
            }
            let ties2 = (0..n - 1).fold(0u32, |b, j| {
                b | (u32::from(ties >> j & 1 == 1 && row[j] == row[j + 1]) << j)
            });
            self.goal[k * n..(k + 1) * n].copy_from_slice(row);
            if self.larger_than_transpose(k) {
                continue;
            }
            if k + 1 == self.prefix_depth {
                let p = self.prefixes;
                self.prefixes += 1;
                if p % self.cubes != self.cube {
                    continue;
                }
            }
            // the last free row is scored with the forced one at the leaf
            if self.g.level && k + 1 < self.g.free_rows() {
                // above the split only by `above` (the prefixes' order must
                // not depend on a cube's best)
                let floor = if k + 1 >= self.prefix_depth {
                    self.floor()
                } else {
                    g.above
                };
                // (at least two rows open here: k + 1 < n − 1)
                let cuts = floor.is_some();
                let f = floor.unwrap_or(0);
                // a column vector that cut a recent sibling often cuts this
                // one: the same verdict as the full step's, without it
                if cuts && self.cut_by_witness(k, f) {
                    self.cut += 1;
                    self.tick();
                    continue;
                }
                let (bound, ci) = self.step(k);
                if cuts && bound <= f {
                    self.witnesses[k].remember(ci);
                    self.cut += 1;
                    self.tick();
                    continue;
                }
            }
            if k + 1 == self.g.free_rows() {
                self.leaf(ties2);
            } else {
                self.place(k + 1, idx, ties2);
            }
        }
    }

    /// Whether one of the column vectors that cut recent branches at depth
    /// k bounds rows 0..=k at or below `floor` (then the full step would
    /// cut too: its bound is the minimum over every column vector).
    fn cut_by_witness(&mut self, k: usize, floor: u32) -> bool {
        let mut cost = [0u16; 64];
        let mut witnesses = std::mem::take(&mut self.witnesses[k]);
        let cut = witnesses
            .find(|&ci| self.bound_under(k, ci, &mut cost[..self.g.c as usize]) <= floor)
            .is_some();
        self.witnesses[k] = witnesses;
        cut
    }

    /// The value a goal must beat: the best so far, else the search's
    /// `above`.
    fn floor(&self) -> Option<u32> {
        self.best.as_ref().map(|(b, _)| *b).or(self.g.above)
    }

    /// The bound of rows 0..=k under the column vector `ci` alone: the
    /// fewest clicks of those rows (dp[k] and row k) at partial sum st plus
    /// the open rows' bound at T − st, minimised over st.
    fn bound_under(&self, k: usize, ci: usize, cost: &mut [u16]) -> u32 {
        let (n, c) = (self.g.n, self.g.c as usize);
        let col = &self.g.cols[self.t][ci * n..(ci + 1) * n];
        row_costs(&self.goal[k * n..(k + 1) * n], col, c, cost);
        let open = &self.g.open[n - k - 1];
        let mut bound = u32::MAX;
        for (st, &x) in self.dp[k][ci * c..(ci + 1) * c].iter().enumerate() {
            if x != u16::MAX {
                for (v, &y) in cost.iter().enumerate() {
                    let r = (self.t + 2 * c - st - v) % c;
                    bound = bound.min(u32::from(x + y) + open[r]);
                }
            }
        }
        bound
    }

    /// c | n − 1: `dp[k+1]` from `dp[k]` and row k of the goal; returns the
    /// bound on the fewest clicks of every completion of rows 0..=k (the
    /// open rows k+1.., the forced last one included), the minimum over the
    /// column vectors of [`Walk::bound_under`], and a column vector at the
    /// minimum.
    fn step(&mut self, k: usize) -> (u32, usize) {
        let g = self.g;
        let (n, c) = (g.n, g.c as usize);
        let open = &g.open[n - k - 1];
        let (before, after) = self.dp.split_at_mut(k + 1);
        let (dp, next) = (&before[k], &mut after[0]);
        let row = &self.goal[k * n..(k + 1) * n];
        let mut best = (u32::MAX, 0);
        let mut cost = vec![0u16; c];
        for (ci, col) in g.cols[self.t].chunks(n).enumerate() {
            row_costs(row, col, c, &mut cost);
            let (d, e) = (&dp[ci * c..(ci + 1) * c], &mut next[ci * c..(ci + 1) * c]);
            e.fill(u16::MAX);
            for (st, &x) in d.iter().enumerate() {
                if x == u16::MAX {
                    continue;
                }
                for (v, &cv) in cost.iter().enumerate() {
                    let slot = &mut e[(st + v) % c];
                    *slot = (*slot).min(x + cv);
                }
            }
            // the filled rows at partial sum st, the open ones at T − st
            for (st, &x) in e.iter().enumerate() {
                if x != u16::MAX {
                    let b = u32::from(x) + open[(self.t + c - st) % c];
                    if b < best.0 {
                        best = (b, ci);
                    }
                }
            }
        }
        best
    }

    /// A goal's rows are all placed (c | n − 1: all but the last, which the
    /// column sums force).
    fn leaf(&mut self, ties: u32) {
        let (n, c) = (self.g.n, self.g.c);
        if self.g.level {
            let t = self.t as u32;
            for j in 0..n {
                let above: u32 = (0..n - 1).map(|i| u32::from(self.goal[i * n + j])).sum();
                self.goal[(n - 1) * n + j] = ((t + c * n as u32 - above) % c) as u8;
            }
            let (prev, last) = self.goal[(n - 2) * n..].split_at(n);
            if last < prev || (0..n - 1).any(|j| ties >> j & 1 == 1 && last[j] > last[j + 1]) {
                return;
            }
        }
        if !self.no_larger_than_transpose() {
            return;
        }
        let floor = self.floor();
        // the goal's fewest clicks when they beat the best so far (None: they
        // do not); level boards stop at the first (R, C) at or below it
        let above = if self.g.level {
            self.level_value_above(floor)
        } else {
            let s: Vec<u32> = self.goal.iter().map(|&x| u32::from(x)).collect();
            match Some(())
                .filter(|_| reachable(&s, n, c))
                .and_then(|_| goal_min(&s, n, c))
            {
                None => {
                    self.unreachable += 1;
                    self.tick();
                    return;
                }
                Some(v) => Some(v).filter(|&v| floor.is_none_or(|f| v > f)),
            }
        };
        self.visited += 1;
        self.digest = self.digest.bytes(&self.goal);
        if let Some(v) = above {
            self.digest = self.digest.bytes(&v.to_le_bytes());
            self.best = Some((v, self.goal.clone()));
        }
        self.tick();
    }

    /// Every 4096 goals or cuts: the time limit, and a progress line every
    /// 10 s.
    fn tick(&mut self) {
        self.ticks += 1;
        if self.ticks % 4096 == 0 {
            if (self.stop)() {
                self.stopped = true;
            }
            if self.reported.elapsed().as_secs() >= 10 {
                self.reported = Instant::now();
                (self.progress)(format!(
                    "c goals: cube {}/{}: {} goals visited, {} branches cut, best {} ({:.0}s)",
                    self.index,
                    self.cubes,
                    self.visited,
                    self.cut,
                    self.best.as_ref().map_or(0, |(b, _)| *b),
                    self.started.elapsed().as_secs_f64()
                ));
            }
        }
    }

    /// Rows 0..=k already make the goal larger than its transpose whatever
    /// follows: the first row-major position where the goal and its
    /// transpose differ lies in row 0 at a column j ≤ k (both cells known),
    /// with `s_0j > s_j0`.
    fn larger_than_transpose(&self, k: usize) -> bool {
        let n = self.g.n;
        (1..=k.min(n - 1))
            .map(|j| (self.goal[j], self.goal[j * n]))
            .find(|(a, b)| a != b)
            .is_some_and(|(a, b)| a > b)
    }

    /// The goal is row-major no larger than its transpose.
    fn no_larger_than_transpose(&self) -> bool {
        let n = self.g.n;
        for p in 0..n * n {
            let (a, b) = (self.goal[p], self.goal[(p % n) * n + p / n]);
            if a != b {
                return a < b;
            }
        }
        true
    }

    /// c | n − 1: the fewest clicks of the whole goal if they are above
    /// `floor` (None: at most `floor`), from `dp[n−2]`, the last free row
    /// and the forced one (ΣR ≡ T). The column vectors that held recent
    /// goals at or below the floor are tried first.
    fn level_value_above(&mut self, floor: Option<u32>) -> Option<u32> {
        let (n, c) = (self.g.n, self.g.c as usize);
        let cols = &self.g.cols[self.t];
        let dp = &self.dp[n - 2];
        let rows = &self.goal[(n - 2) * n..];
        let mut cost = vec![0u16; 3 * c];
        let mut eval = |ci: usize| {
            pair_cost(
                &dp[ci * c..(ci + 1) * c],
                rows,
                &cols[ci * n..(ci + 1) * n],
                c,
                self.t,
                &mut cost,
            )
        };
        if self
            .hints
            .find(|&ci| floor.is_some_and(|f| eval(ci) <= f))
            .is_some()
        {
            return None;
        }
        let mut best = u32::MAX;
        for ci in 0..cols.len() / n {
            let v = eval(ci);
            if floor.is_some_and(|f| v <= f) {
                self.hints.remember(ci);
                return None;
            }
            best = best.min(v);
        }
        Some(best)
    }
}

/// The few column vectors that closed recent goals or cut recent
/// branches, most recent first: a neighbouring goal is often closed by the
/// same one, so the search ([`Walk`]) and the proof of
/// [`super::goal_proof`] try them before all c^(n−1).
#[derive(Clone, Debug)]
pub(super) struct RecentFirst<T>(Vec<T>);

impl<T> Default for RecentFirst<T> {
    fn default() -> Self {
        RecentFirst(Vec::with_capacity(RecentFirst::<T>::KEPT))
    }
}

impl<T> RecentFirst<T> {
    /// How many are kept.
    const KEPT: usize = 8;

    /// The first kept item, most recent first, for which `closes` holds;
    /// it moves to the front.
    pub(super) fn find(&mut self, closes: impl FnMut(&T) -> bool) -> Option<&T> {
        let h = self.0.iter().position(closes)?;
        self.0[..=h].rotate_right(1);
        self.0.first()
    }

    /// Keeps `item` in front, forgetting the oldest past [`Self::KEPT`].
    pub(super) fn remember(&mut self, item: T) {
        if self.0.len() == Self::KEPT {
            self.0.pop();
        }
        self.0.insert(0, item);
    }
}

/// The fewest clicks over the row values of the last two rows (`rows`:
/// the last free one, then the forced one) under the column vector `col`,
/// given `dp` (per partial ΣR mod c, the cheapest first n − 2 rows) and
/// ΣR ≡ t; `cost` is scratch space of 3c entries.
fn pair_cost(dp: &[u16], rows: &[u8], col: &[u8], c: usize, t: usize, cost: &mut [u16]) -> u32 {
    let n = col.len();
    let (a, rest) = cost.split_at_mut(c);
    let (b, e) = rest.split_at_mut(c);
    row_costs(&rows[..n], col, c, a);
    row_costs(&rows[n..], col, c, b);
    // e[u]: the cheapest two rows whose values sum to u
    e.fill(u16::MAX);
    for (va, &x) in a.iter().enumerate() {
        for (vb, &y) in b.iter().enumerate() {
            let slot = &mut e[(va + vb) % c];
            *slot = (*slot).min(x + y);
        }
    }
    let mut best = u32::MAX;
    for (st, &d) in dp.iter().enumerate() {
        if d != u16::MAX {
            best = best.min(u32::from(d) + u32::from(e[(t + c - st) % c]));
        }
    }
    best
}

/// c | n − 1: per number k of open rows (0..=n) and residue r, an upper
/// bound on the fewest clicks of k goal rows whatever they hold, their row
/// values chosen with sum ≡ r and the column vector fixed.
///
/// Under a column vector C a goal row s (sum T ≡ ΣC) costs
/// `f(v) = Σ_j (v + m_j) mod c` at row value v, with `m_j = (C_j − s_j) mod c`
/// any n values summing to 0 mod c: one row's possible cost functions are
/// those of the multisets m. k rows at values summing to r cost at least
/// `(f_1 ⊕ … ⊕ f_k)(r)` (min-plus convolution over Z_c), so the bound is the
/// maximum of that over every k-tuple of cost functions. The sets of
/// convolutions are kept to their maximal elements (⊕ is monotone), and
/// past [`PRODUCTS`] pairs the bound `B_k ≤ B_{k−1} ⊕ B_1` is used instead.
/// Every value of a k-row cost is ≡ r mod c (f(v) ≡ v, as n ≡ 1), and for
/// k ≥ 2 the average over the row values, `k·n(c−1)/2`, bounds the minimum
/// too: the result is never above the largest value ≡ r below it (the
/// bound of the issue, sharpened).
fn open_bounds(n: usize, c: u32) -> Vec<Vec<u32>> {
    let cu = c as usize;
    let mut one: Vec<Vec<u32>> = vec![];
    let mut m = vec![0u32; n];
    loop {
        if m.iter().sum::<u32>() % c == 0 {
            one.push(
                (0..c)
                    .map(|v| m.iter().map(|&x| (v + x) % c).sum())
                    .collect(),
            );
        }
        // the next non-decreasing vector
        let Some(j) = (0..n).rev().find(|&j| m[j] + 1 < c) else {
            break;
        };
        let x = m[j] + 1;
        m[j..].fill(x);
    }
    let one = maximal(one);
    let none = u32::MAX;
    let mut zero = vec![none; cu];
    zero[0] = 0;
    let mut out = vec![zero.clone()];
    let mut set = Some(vec![zero]);
    for k in 1..=n {
        set = set.filter(|s| s.len() * one.len() <= PRODUCTS).map(|s| {
            let mut next = Vec::with_capacity(s.len() * one.len());
            for f in &s {
                for g in &one {
                    next.push(min_plus(f, g, cu));
                }
            }
            maximal(next)
        });
        let mut b: Vec<u32> = match &set {
            Some(s) => (0..cu)
                .map(|r| s.iter().map(|f| f[r]).max().unwrap_or(none))
                .collect(),
            None => min_plus(&out[k - 1], &out[1], cu),
        };
        if k >= 2 {
            let avg = (k * n * (cu - 1) / 2) as u32;
            for (r, x) in b.iter_mut().enumerate() {
                // the largest value ≡ r mod c at most the average
                let y = avg - (avg + cu as u32 - r as u32) % c;
                *x = (*x).min(y);
            }
        }
        out.push(b);
    }
    out
}

/// An upper bound on the hardest goal of any (n, c) from the goal side,
/// before any search (None past 2^16 rows of n cells over Z_c).
///
/// A reachable goal has some T with every row sum `ρ_i ≡ T` and column
/// sum ≡ T mod g = gcd(n − 1, c) and `S ≡ (2n − 1)·T mod c`; with T the
/// admissible R_i are the g solutions of `(n−1)·R_i ≡ ρ_i − T` (a coset of
/// the multiples of h = c/g), ΣR ≡ T, likewise C. Every T' = T + D with
/// D ≡ 0 mod g and `(2n − 1)·D ≡ 0 mod c` is admissible too, and
/// `C' = C + 2D` (every entry) is admissible for it, while R_i + C'_j
/// ranges over `R_i + C_j + ε + 2D + h·t` with `(n−1)·ε ≡ −D`. So, C fixed,
/// a row costs `f(u) = Σ_j (r + u + m_j) mod c` at the shifts u of each T
/// (m_j = C_j − s_ij, any values with `Σ m ≡ −(ρ_i − T)`), the shifts'
/// index t summing to a fixed residue mod g per T. The bound is the
/// maximum over n-tuples of rows of the minimum over T of the worst such
/// residue of the rows' min-plus convolution over t (the maximal row
/// functions only, as [`open_bounds`]; past [`ROOT_PRODUCTS`] pairs a set is
/// replaced by its componentwise maximum, an upper bound). Where c | n − 1
/// it is the average bound of the open rows; it sharpens the kernel average
/// where c ∤ n − 1: 5×5/6 57 (62), 7×7/4 93 (98).
pub fn root_bound(n: usize, c: u32) -> Option<u32> {
    let cu = c as usize;
    if cu.checked_pow(n as u32).is_none_or(|r| r > 1 << 16) {
        return None;
    }
    let g = gcd(n as u64 - 1, u64::from(c)) as usize;
    let h = cu / g;
    let solve = |a: usize| (0..cu).find(|&e| ((n - 1) * e) % cu == a % cu);
    // per admissible offset D of T, its g shifts u_t = ε + 2D + h·t
    let shifts: Vec<Vec<usize>> = (0..cu)
        .filter(|&d| d % g == 0 && ((2 * n - 1) * d) % cu == 0)
        .map(|d| {
            let e = solve(cu - d).expect("g divides D");
            (0..g).map(|t| (e + 2 * d + h * t) % cu).collect()
        })
        .collect();
    let width = shifts.len() * g;
    // one row's cost vectors over every (T, t), per ρ − T ≡ a (mod c)
    let mut one = vec![];
    for a in (0..cu).step_by(g) {
        let r = solve(a).expect("g divides a");
        let mut m = vec![0usize; n];
        loop {
            if (m.iter().sum::<usize>() + a) % cu == 0 {
                one.push(
                    shifts
                        .iter()
                        .flatten()
                        .map(|&u| m.iter().map(|&x| ((r + u + x) % cu) as u32).sum())
                        .collect(),
                );
            }
            // the next non-decreasing vector (the cost is a function of the multiset)
            let Some(j) = (0..n).rev().find(|&j| m[j] + 1 < cu) else {
                break;
            };
            let x = m[j] + 1;
            m[j..].fill(x);
        }
    }
    let one = maximal(one);
    let none = u32::MAX;
    let mut zero = vec![none; width];
    for k in 0..shifts.len() {
        zero[k * g] = 0;
    }
    let mut set = vec![zero];
    for _ in 0..n {
        if set.len() * one.len() > ROOT_PRODUCTS {
            let top = (0..width)
                .map(|i| set.iter().map(|f| f[i]).max().unwrap_or(none))
                .collect();
            set = vec![top];
        }
        let mut next = Vec::with_capacity(set.len() * one.len());
        for f in &set {
            for row in &one {
                let mut e = vec![none; width];
                for k in 0..shifts.len() {
                    for p in 0..g {
                        for q in 0..g {
                            let x = f[k * g + p];
                            if x != none {
                                let slot = &mut e[k * g + (p + q) % g];
                                *slot = (*slot).min(x + row[k * g + q]);
                            }
                        }
                    }
                }
                next.push(e);
            }
        }
        set = maximal(next);
    }
    // the adversary picks the rows; each T's residue is the goal's, so the
    // worst; the goal's fewest clicks take the best T
    set.iter()
        .map(|f| {
            (0..shifts.len())
                .map(|k| f[k * g..(k + 1) * g].iter().copied().max().unwrap_or(none))
                .min()
                .unwrap_or(none)
        })
        .max()
}

/// Pairs of cost vectors [`root_bound`] convolves exactly per row (5×5/6:
/// at most 56,700).
const ROOT_PRODUCTS: usize = 200_000;

/// Pairs of cost functions [`open_bounds`] convolves exactly per k.
const PRODUCTS: usize = 50_000;

/// `(f ⊕ g)(r) = min_{u} f(u) + g(r − u)` over Z_c (u32::MAX: none).
fn min_plus(f: &[u32], g: &[u32], c: usize) -> Vec<u32> {
    let mut h = vec![u32::MAX; c];
    for (u, &x) in f.iter().enumerate() {
        for (w, &y) in g.iter().enumerate() {
            if x != u32::MAX && y != u32::MAX {
                let e = &mut h[(u + w) % c];
                *e = (*e).min(x + y);
            }
        }
    }
    h
}

/// The maximal vectors of `v` (componentwise), without duplicates.
fn maximal(mut v: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    // a vector is only dominated by one of larger or equal sum
    v.sort_by_key(|f| std::cmp::Reverse(f.iter().map(|&x| u64::from(x)).sum::<u64>()));
    let mut kept: Vec<Vec<u32>> = vec![];
    for f in v {
        if !kept.iter().any(|g| g.iter().zip(&f).all(|(a, b)| a >= b)) {
            kept.push(f);
        }
    }
    kept
}

/// `cost[v] = Σ_j (v + C_j − s_j) mod c`: the clicks of a goal row `s`
/// under the column vector `col` with row value v.
fn row_costs(s: &[u8], col: &[u8], c: usize, cost: &mut [u16]) {
    // m_j = (C_j − s_j) mod c; adding v wraps the m_j ≥ c − v
    let mut hist = [0u16; 65];
    let mut base = 0u16;
    for (&x, &y) in col.iter().zip(s) {
        let m = (usize::from(x) + c - usize::from(y)) % c;
        hist[m] += 1;
        base += m as u16;
    }
    let n = s.len() as u16;
    let mut wrap = 0u16; // #{j : m_j ≥ c − v}
    cost[0] = base;
    for v in 1..c {
        wrap += hist[c - v];
        cost[v] = base + n * v as u16 - c as u16 * wrap;
    }
}

impl Details for GoalRecord {
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "c goals of this cube: hardest {}, {} visited, {} cut by the bound, {} unreachable; digest {}",
            self.hardest.map_or("none".into(), |v| v.to_string()),
            plural(self.visited, "goal", "goals"),
            plural(self.cut, "branch", "branches"),
            self.unreachable,
            self.digest
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every n-vector over Z_c summing to 0 mod c (rows under a column
    /// vector, as m_j = C_j − s_j), as cost functions v ↦ Σ (v + m_j) mod c.
    fn row_functions(n: usize, c: u32) -> Vec<Vec<u32>> {
        vectors(n, c, Some(0))
            .chunks(n)
            .map(|m| {
                (0..c)
                    .map(|v| m.iter().map(|&x| (v + u32::from(x)) % c).sum())
                    .collect()
            })
            .collect()
    }

    /// `open_bounds` is the max-min by brute force over every k-tuple of
    /// rows (k = 1, 2, 3) and every choice of row values with the sum r,
    /// and never above the average rounded down to the residue.
    #[test]
    fn open_bounds_equal_brute_force() {
        for (n, c) in [(3, 2), (4, 3), (5, 2), (5, 4)] {
            let b = open_bounds(n, c);
            let fs = row_functions(n, c);
            let cu = c as usize;
            assert!(b.len() > 3, "bounds for 1..=3 open rows");
            for (k, bk) in b.iter().enumerate().skip(1).take(3) {
                if fs.len().pow(k as u32) > 200_000 {
                    continue;
                }
                let mut want = vec![0u32; cu];
                let mut idx = vec![0usize; k];
                loop {
                    // min over row values v_1..v_k with Σ v ≡ r
                    let mut low = vec![u32::MAX; cu];
                    let mut v = vec![0usize; k];
                    loop {
                        let r = v.iter().sum::<usize>() % cu;
                        let cost: u32 = (0..k).map(|i| fs[idx[i]][v[i]]).sum();
                        low[r] = low[r].min(cost);
                        let Some(i) = (0..k).find(|&i| v[i] + 1 < cu) else {
                            break;
                        };
                        v[i] += 1;
                        v[..i].fill(0);
                    }
                    for r in 0..cu {
                        want[r] = want[r].max(low[r]);
                    }
                    let Some(i) = (0..k).find(|&i| idx[i] + 1 < fs.len()) else {
                        break;
                    };
                    idx[i] += 1;
                    idx[..i].fill(0);
                }
                assert_eq!(*bk, want, "{n}×{n}/{c}, {k} open rows");
                for (r, &bound) in bk.iter().enumerate() {
                    assert_eq!(bound as usize % cu, r, "{n}×{n}/{c}: the residue");
                    if k >= 2 {
                        assert!(bound as usize <= k * n * (cu - 1) / 2);
                    }
                }
            }
        }
    }

    /// The cut's bound holds on random reachable goals of the open cells:
    /// for every number of filled rows, the cheapest filled rows per
    /// partial ΣR (over every column vector, by brute force over their row
    /// values) plus the open rows' bound is at least the goal's fewest
    /// clicks.
    #[test]
    fn the_bound_is_at_least_the_fewest_clicks_on_random_goals() {
        let mut seed = 29u64;
        let mut next = |c: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % u64::from(c)) as u32
        };
        for (n, c) in [(5, 4), (6, 5), (7, 3), (5, 2)] {
            let open = open_bounds(n, c);
            let cu = c as usize;
            for _ in 0..4 {
                // the goal a random click matrix reaches
                let x: Vec<u32> = (0..n * n).map(|_| next(c)).collect();
                let r: Vec<u32> = (0..n).map(|i| (0..n).map(|j| x[i * n + j]).sum()).collect();
                let col: Vec<u32> = (0..n).map(|j| (0..n).map(|i| x[i * n + j]).sum()).collect();
                let s: Vec<u32> = (0..n * n)
                    .map(|p| (r[p / n] + col[p % n] + c * c - x[p]) % c)
                    .collect();
                let t = s[..n].iter().sum::<u32>() as usize % cu;
                let value = goal_min(&s, n, c).expect("a reached goal");
                for filled in 1..=n - 2 {
                    let mut low = vec![u32::MAX; cu];
                    for cv in vectors(n, c, Some(t as u32)).chunks(n) {
                        // the first `filled` rows at every row-value tuple
                        let mut v = vec![0u32; filled];
                        loop {
                            let st = v.iter().sum::<u32>() as usize % cu;
                            let cost: u32 = (0..filled)
                                .map(|i| {
                                    (0..n)
                                        .map(|j| (v[i] + u32::from(cv[j]) + c - s[i * n + j]) % c)
                                        .sum::<u32>()
                                })
                                .sum();
                            low[st] = low[st].min(cost);
                            let Some(i) = (0..filled).find(|&i| v[i] + 1 < c) else {
                                break;
                            };
                            v[i] += 1;
                            v[..i].fill(0);
                        }
                    }
                    let bound = (0..cu)
                        .map(|st| low[st] + open[n - filled][(t + cu - st) % cu])
                        .min()
                        .unwrap();
                    assert!(
                        value <= bound,
                        "{n}×{n}/{c}, {filled} rows filled: {value} > {bound}, goal {s:?}"
                    );
                }
            }
        }
    }

    /// The reachability test equals the row/column minimum's verdict on
    /// every goal of the small boards and on random boards (reached and
    /// not) of 4×4/4, 4×4/6, 5×5/6, 7×7/4.
    #[test]
    fn reachable_is_goal_min_s_verdict() {
        for (n, c) in [
            (2, 2),
            (2, 3),
            (2, 4),
            (2, 6),
            (3, 2),
            (3, 4),
            (3, 6),
            (4, 2),
        ] {
            if (c as usize).pow((n * n) as u32) > 1 << 20 {
                continue;
            }
            for s in vectors(n * n, c, None).chunks(n * n) {
                let s: Vec<u32> = s.iter().map(|&x| u32::from(x)).collect();
                assert_eq!(
                    reachable(&s, n, c),
                    goal_min(&s, n, c).is_some(),
                    "{n}×{n}/{c} {s:?}"
                );
            }
        }
        let mut seed = 7u64;
        let mut next = |c: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % u64::from(c)) as u32
        };
        for (n, c) in [(3, 6), (4, 4), (4, 6), (5, 6), (7, 4)] {
            let mut reached = 0;
            for k in 0..200 {
                let s: Vec<u32> = if k % 2 == 0 {
                    (0..n * n).map(|_| next(c)).collect()
                } else {
                    let x: Vec<u32> = (0..n * n).map(|_| next(c)).collect();
                    let r: Vec<u32> = (0..n).map(|i| (0..n).map(|j| x[i * n + j]).sum()).collect();
                    let col: Vec<u32> =
                        (0..n).map(|j| (0..n).map(|i| x[i * n + j]).sum()).collect();
                    (0..n * n)
                        .map(|p| (r[p / n] + col[p % n] + c * c - x[p]) % c)
                        .collect()
                };
                let want = goal_min(&s, n, c).is_some();
                reached += u32::from(want);
                assert_eq!(reachable(&s, n, c), want, "{n}×{n}/{c} {s:?}");
            }
            assert!(reached >= 100, "{n}×{n}/{c}: the reached boards");
        }
    }

    /// The goal side's root bound is never below the hardest goal: brute
    /// force on every cell with c^(n²) ≤ 2^20 (n = 2: c ≤ 7; 3×3/2..4;
    /// 4×4/2), the proven cells 4×4/3 = 10, 4×4/6 = 36, 5×5/4 = 22,
    /// 6×6/5 ≥ 39, 7×7/3 ≥ 30; and it is below the kernel average where
    /// c ∤ n − 1: 5×5/6 57 (average 62), 7×7/4 93 (98), 4×4/6 44 (48).
    #[test]
    fn the_root_bound_holds_and_sharpens_the_open_cells() {
        for (n, c) in [
            (2, 2),
            (2, 3),
            (2, 4),
            (2, 5),
            (2, 6),
            (2, 7),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 2),
        ] {
            let want = super::super::reference::hardest(n, c).clicks;
            let b = root_bound(n, c).unwrap();
            assert!(b >= want, "{n}×{n}/{c}: {b} < {want}");
        }
        for (n, c, at_least) in [
            (4, 3, 10),
            (4, 6, 36),
            (5, 4, 22),
            (6, 5, 39),
            (7, 3, 30),
            (3, 6, 27),
        ] {
            assert!(root_bound(n, c).unwrap() >= at_least, "{n}×{n}/{c}");
        }
        assert_eq!(root_bound(5, 6), Some(57));
        assert_eq!(root_bound(7, 4), Some(93));
        assert_eq!(root_bound(4, 6), Some(44));
        assert_eq!(root_bound(2, 6), Some(10), "2×2/6: the hardest, 10");
        assert_eq!(root_bound(12, 64), None);
        // where c | n − 1 the search's own tables give it
        for (n, c, at_least) in [(4, 3, 10), (5, 4, 22), (7, 3, 30)] {
            let b = GoalSearch::new(n, c, String::new())
                .unwrap()
                .upper_bound()
                .unwrap();
            assert!(
                b >= at_least && b as usize <= n * n * (c as usize - 1) / 2,
                "{n}×{n}/{c}: {b}"
            );
        }
    }

    /// Where c ∤ n − 1 the search fills in only rows of one sum mod g and a
    /// last row fixed mod g: the plain search's hardest value with fewer
    /// unreachable goals filled in (3×3/4 = 15, 3×3/6 = 27, 4×4/2 = 16).
    #[test]
    fn the_lattice_restriction_keeps_the_hardest_value() {
        for (n, c, want) in [(3, 4, 15), (3, 6, 27), (4, 2, 16)] {
            let run = |s: &GoalSearch| {
                let (r, finished) = s.search_cube(0, 1, &|| false, &mut |_| {});
                assert!(finished);
                r
            };
            let got = run(&GoalSearch::new(n, c, String::new()).unwrap());
            let plain = run(&GoalSearch::without_bound(n, c, String::new()).unwrap());
            assert_eq!(got.hardest, Some(want), "{n}×{n}/{c}");
            assert_eq!(plain.hardest, Some(want), "{n}×{n}/{c} plain");
            assert!(got.visited <= plain.visited, "{n}×{n}/{c}");
            if gcd(n as u64 - 1, u64::from(c)) > 1 {
                assert!(got.unreachable < plain.unreachable, "{n}×{n}/{c}");
            }
        }
    }
}
