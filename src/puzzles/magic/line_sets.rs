//! The structured count of magic squares (`solve magic --method reference
//! --count`), written from the rules and independent of the CNF.
//!
//! A magic square's rows are `n` disjoint *line sets* (n values of 1..n²
//! summing to S), and so are its columns; each column meets each row in
//! exactly one cell. The rows and the columns as sets fix the square up to
//! the order of its rows and of its columns, and the two diagonals choose
//! among those orders. So the count runs in three stages:
//!
//! 1. every partition of 1..n² into `n` line sets: the row sets (the set
//!    holding the least value free first, so each partition comes once);
//! 2. for each, every partition into column sets: exact covers of the values
//!    by transversals (one value of each row set, summing to S), the set of
//!    the least row's i-th value chosen i-th;
//! 3. for each pair, the orders: row a holds row set σ(a) and column b
//!    column set τ(b). With ρ = τσ⁻¹ the main diagonal holds the cells
//!    (i, ρ(i)) of the pair's matrix, and with t = σ r σ⁻¹ (r the reversal
//!    a ↦ n−1−a) the anti-diagonal holds (i, ρ(t(i))). The map (σ, τ) ↦
//!    (ρ, t) is onto the pairs with t conjugate to r, and |C(r)| orders (the
//!    centraliser of r: row and column orders that commute with the
//!    reversal, 8 at n = 4 and 5) give each (ρ, t). So the pair holds |C(r)|
//!    squares for each (ρ, t) whose two diagonals sum to S.
//!
//! Every square is counted once: its row sets and column sets are one
//! pair, its row and column orders one (σ, τ). Each (ρ, t) counted is built
//! as a square (with the first σ of its t) and passed through the
//! independent checker ([`super::check::check_square`]); its |C(r)| squares
//! are its images under row and column orders that commute with the
//! reversal, which keep every row, column and diagonal. No square of order
//! n ≥ 3 is fixed by a rotation or reflection (its values are distinct and
//! each of them moves a cell), so the classes up to rotation and reflection
//! are the count divided by 8.
//!
//! The split for cubes: the row set that holds the value 1 (244 sets at
//! n = 5); cube i of K takes the sets whose index is i modulo K.

use super::check::check_square;
use super::model::Square;

/// The largest order counted: n = 6 has about 1.8·10¹⁹ squares.
pub const MAX_ORDER: usize = 5;

/// The counter of order `n`: the line sets and the orders of stage 3.
pub struct LineSets {
    n: usize,
    /// S − n: the sum of a line of 0-based values
    sum: u32,
    /// the line sets (bitmasks of 0-based values) by their least value
    by_least: Vec<Vec<u32>>,
    /// every permutation of 0..n
    perms: Vec<Vec<usize>>,
    /// the conjugates t of the reversal, each with one σ: σ r σ⁻¹ = t
    reversals: Vec<(Vec<usize>, Vec<usize>)>,
    /// |C(r)|: the orders that give each (ρ, t)
    centraliser: u64,
}

/// What one cube counted (a record of the cube file).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counted {
    /// partitions into row sets
    pub row_partitions: u64,
    /// pairs of row and column partitions
    pub pairs: u64,
    /// the (ρ, t) counted, each checked as a square: classes of |C(r)| squares
    pub arrangements: u64,
    /// squares: `arrangements · |C(r)|`
    pub squares: u64,
    /// odd n: the squares by the value of their centre (index v − 1; the
    /// reorderings of an arrangement keep the middle row and column, so
    /// its |C(r)| squares share their centre); empty for even n
    pub by_centre: Vec<u64>,
}

impl Counted {
    fn add(&mut self, other: &Counted) {
        self.row_partitions += other.row_partitions;
        self.pairs += other.pairs;
        self.arrangements += other.arrangements;
        self.squares += other.squares;
        if self.by_centre.len() < other.by_centre.len() {
            self.by_centre.resize(other.by_centre.len(), 0);
        }
        for (mine, theirs) in self.by_centre.iter_mut().zip(&other.by_centre) {
            *mine += theirs;
        }
    }
}

/// The sum of counts.
pub fn total<'a>(counts: impl IntoIterator<Item = &'a Counted>) -> Counted {
    let mut t = Counted::default();
    for c in counts {
        t.add(c);
    }
    t
}

impl LineSets {
    /// The counter of order `n` (1 to [`MAX_ORDER`]).
    pub fn new(n: usize) -> anyhow::Result<Self> {
        if n == 0 || n > MAX_ORDER {
            anyhow::bail!(
                "--method reference counts the squares of order 1 to {MAX_ORDER}, not {n}"
            );
        }
        let m = n * n;
        let sum = (n * (m - 1) / 2) as u32;
        let mut by_least = vec![vec![]; m];
        line_sets(m, n, sum, 0, 0, 0, None, &mut by_least);
        let perms = permutations(n);
        let mut reversals: Vec<(Vec<usize>, Vec<usize>)> = vec![];
        for sigma in &perms {
            let mut inv = vec![0; n];
            for (a, &s) in sigma.iter().enumerate() {
                inv[s] = a;
            }
            let t: Vec<usize> = (0..n).map(|i| sigma[n - 1 - inv[i]]).collect();
            if !reversals.iter().any(|(u, _)| *u == t) {
                reversals.push((t, sigma.clone()));
            }
        }
        let centraliser = (perms.len() / reversals.len()) as u64;
        Ok(LineSets {
            n,
            sum,
            by_least,
            perms,
            reversals,
            centraliser,
        })
    }

    /// The number of blocks (line sets holding the value 1), which the
    /// cubes share out.
    pub fn blocks(&self) -> usize {
        self.by_least[0].len()
    }

    /// |C(r)|: the squares each checked one stands for.
    pub fn centraliser(&self) -> u64 {
        self.centraliser
    }

    /// Counts cube `cube` of `cubes` (the blocks `b ≡ cube mod cubes`);
    /// None if `stop` said so first. An error if a square fails the checker.
    pub fn count_cube(
        &self,
        cube: usize,
        cubes: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> anyhow::Result<Option<Counted>> {
        let mut run = Run {
            sets: self,
            counted: Counted {
                by_centre: vec![0; if self.n % 2 == 1 { self.n * self.n } else { 0 }],
                ..Counted::default()
            },
            rows: vec![0; self.n],
            cols: vec![0; self.n],
            square: Square {
                n: self.n,
                cells: vec![vec![0; self.n]; self.n],
            },
            stop,
            stopped: false,
        };
        let all = (1u32 << (self.n * self.n)) - 1;
        for (b, &set) in self.by_least[0].iter().enumerate() {
            if b % cubes != cube {
                continue;
            }
            run.rows[0] = set;
            run.row_partitions(all & !set, 1)?;
            if run.stopped {
                return Ok(None);
            }
        }
        run.counted.squares = run.counted.arrangements * self.centraliser;
        for c in &mut run.counted.by_centre {
            *c *= self.centraliser;
        }
        Ok(Some(run.counted))
    }
}

/// The line sets of `k` more values from `start..m` with `sum` so far.
#[allow(clippy::too_many_arguments)]
fn line_sets(
    m: usize,
    k: usize,
    target: u32,
    start: usize,
    sum: u32,
    mask: u32,
    least: Option<usize>,
    out: &mut [Vec<u32>],
) {
    if k == 0 {
        if sum == target {
            out[least.expect("a line set has a least value")].push(mask);
        }
        return;
    }
    for v in start..m {
        if sum + v as u32 > target {
            break;
        }
        line_sets(
            m,
            k - 1,
            target,
            v + 1,
            sum + v as u32,
            mask | 1 << v,
            least.or(Some(v)),
            out,
        );
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn extend(k: usize, p: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k == p.len() {
            out.push(p.clone());
            return;
        }
        for i in k..p.len() {
            p.swap(k, i);
            extend(k + 1, p, out);
            p.swap(k, i);
        }
    }
    let mut out = vec![];
    extend(0, &mut (0..n).collect(), &mut out);
    out
}

/// The values of a bitmask, in increasing order.
fn values(mask: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |v| mask >> v & 1 == 1)
}

/// One cube's search.
struct Run<'a> {
    sets: &'a LineSets,
    counted: Counted,
    rows: Vec<u32>,
    cols: Vec<u32>,
    /// the square each arrangement is checked as
    square: Square,
    stop: &'a (dyn Fn() -> bool + Sync),
    stopped: bool,
}

impl Run<'_> {
    /// Stage 1: the row sets `k..n` from the values `free`.
    fn row_partitions(&mut self, free: u32, k: usize) -> anyhow::Result<()> {
        if free == 0 {
            self.counted.row_partitions += 1;
            if (self.stop)() {
                self.stopped = true;
                return Ok(());
            }
            return self.column_partitions();
        }
        let least = free.trailing_zeros() as usize;
        for &set in &self.sets.by_least[least] {
            if set & !free == 0 {
                self.rows[k] = set;
                self.row_partitions(free & !set, k + 1)?;
                if self.stopped {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Stage 2: the transversals of the row sets (grouped by their value in
    /// row set 0), then their exact covers.
    fn column_partitions(&mut self) -> anyhow::Result<()> {
        let n = self.sets.n;
        let sum = self.sets.sum;
        let members: Vec<Vec<u32>> = self.rows.iter().map(|&r| values(r).collect()).collect();
        let last = self.rows[n - 1];
        let mut by_first: Vec<Vec<u32>> = vec![vec![]; n];
        // every choice of one value in each of the row sets 0..n−1; the last
        // value is forced by the sum
        let mut pick = vec![0usize; n - 1];
        loop {
            let (mut s, mut mask) = (0u32, 0u32);
            for (row, &i) in members.iter().zip(&pick) {
                s += row[i];
                mask |= 1 << row[i];
            }
            if s <= sum && sum - s < 32 && last >> (sum - s) & 1 == 1 {
                by_first[pick.first().copied().unwrap_or(0)].push(mask | 1 << (sum - s));
            }
            // the next choice (odometer); done when it wraps around
            let mut k = n - 1;
            loop {
                if k == 0 {
                    return self.cover(&by_first, 0, 0);
                }
                k -= 1;
                pick[k] += 1;
                if pick[k] < n {
                    break;
                }
                pick[k] = 0;
            }
        }
    }

    /// Column `j` (the transversal through row set 0's j-th value).
    fn cover(&mut self, by_first: &[Vec<u32>], j: usize, used: u32) -> anyhow::Result<()> {
        if j == self.sets.n {
            self.counted.pairs += 1;
            return self.arrange();
        }
        for &t in &by_first[j] {
            if t & used == 0 {
                self.cols[j] = t;
                self.cover(by_first, j + 1, used | t)?;
            }
        }
        Ok(())
    }

    /// Stage 3: the (ρ, t) whose diagonals sum to S, each checked as a
    /// square.
    fn arrange(&mut self) -> anyhow::Result<()> {
        let n = self.sets.n;
        let sum = self.sets.sum;
        let mut v = [[0u32; MAX_ORDER]; MAX_ORDER];
        for (i, row) in v.iter_mut().enumerate().take(n) {
            for (j, cell) in row.iter_mut().enumerate().take(n) {
                *cell = (self.rows[i] & self.cols[j]).trailing_zeros();
            }
        }
        for rho in &self.sets.perms {
            let main: u32 = (0..n).map(|i| v[i][rho[i]]).sum();
            if main != sum {
                continue;
            }
            for (t, sigma) in &self.sets.reversals {
                let anti: u32 = (0..n).map(|i| v[i][rho[t[i]]]).sum();
                if anti != sum {
                    continue;
                }
                self.counted.arrangements += 1;
                // row a holds row set σ(a), column b column set τ(b) = ρσ(b)
                for (a, row) in self.square.cells.iter_mut().enumerate() {
                    for (b, cell) in row.iter_mut().enumerate() {
                        *cell = v[sigma[a]][rho[sigma[b]]] + 1;
                    }
                }
                if n % 2 == 1 {
                    let centre = self.square.cells[n / 2][n / 2];
                    self.counted.by_centre[centre as usize - 1] += 1;
                }
                check_square(n, &self.square).map_err(|e| {
                    anyhow::anyhow!(
                        "internal error: the structured count built a square that is not magic ({e}):\n{}",
                        self.square
                    )
                })?;
            }
        }
        Ok(())
    }
}

/// Counts every square of order `n` in one cube (tests, small orders).
pub fn count(n: usize) -> anyhow::Result<Counted> {
    let sets = LineSets::new(n)?;
    Ok(sets.count_cube(0, 1, &|| false)?.expect("never stopped"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_orders_are_counted() {
        // OEIS A006052 times 8: 1, 0, 1, 880, 275,305,224 classes
        assert_eq!(count(1).unwrap().squares, 1);
        assert_eq!(count(2).unwrap().squares, 0);
        let three = count(3).unwrap();
        assert_eq!(three.squares, 8);
        assert_eq!(three.by_centre, [0, 0, 0, 0, 8, 0, 0, 0, 0]);
        let four = count(4).unwrap();
        assert_eq!(four.squares, 7040);
        assert_eq!(
            (four.row_partitions, four.pairs, four.arrangements),
            (392, 954, 880)
        );
        assert!(LineSets::new(6).is_err());
        assert!(LineSets::new(0).is_err());
    }

    #[test]
    fn the_cubes_share_the_count() {
        let sets = LineSets::new(4).unwrap();
        let parts: Vec<Counted> = (0..3)
            .map(|i| sets.count_cube(i, 3, &|| false).unwrap().unwrap())
            .collect();
        assert_eq!(total(&parts).squares, 7040);
        assert!(parts.iter().all(|c| c.squares > 0));
    }

    #[test]
    fn agrees_with_the_depth_first_reference() {
        use super::super::model::Givens;
        for n in 3..=4 {
            assert_eq!(
                count(n).unwrap().squares,
                super::super::reference::count(&Givens::free(n))
            );
        }
    }

    #[test]
    fn a_stop_ends_the_cube_without_a_count() {
        let sets = LineSets::new(4).unwrap();
        assert_eq!(sets.count_cube(0, 1, &|| true).unwrap(), None);
    }
}
