//! The kernel of the click map by its row/column structure, and the exact
//! fewest clicks of a click matrix's coset without listing the kernel (the
//! structure Gent, Linton & Smith's kernel elements have, APES-22-2000).
//!
//! A click matrix `z` changes nothing iff every cell's change, row sum `R_i`
//! plus column sum `C_j` minus `z_ij`, is 0 mod c, i.e. `z_ij = R_i + C_j`.
//! Taking the row and column sums of that identity: `z` is in the kernel iff
//! `z_ij = R_i + C_j (mod c)` for vectors `R, C ∈ Z_c^n` with
//! `Σ R ≡ Σ C ≡ T` and `(n−1)·R_i ≡ (n−1)·C_j ≡ −T` (then `R` and `C` are
//! `z`'s row and column sums, so each kernel element has exactly one pair).
//! The kernel's size is therefore `Σ_T N(T)²`, `N(T)` the number of such `R`
//! ([`RowCol::size`], tested equal to the Smith form's count).
//!
//! [`RowCol::coset_min`] minimises `Σ_ij (k_ij + R_i + C_j) mod c` over the
//! kernel exactly: for each `T` and each row vector `R` (at most `c^(n−1)`),
//! the columns are independent but for `Σ C ≡ T`, so a dynamic programme over
//! the columns with the partial sum mod c as state picks `C`. 7×7, c = 6
//! (kernel 6¹²): 6⁶ row vectors, a few milliseconds, where listing the kernel
//! is out of reach. Used to separate lazy minimality constraints and by the
//! checker when the kernel is too large to enumerate.

/// The kernel of the n×n click map over Z_c, as row/column pairs.
#[derive(Clone, Debug)]
pub struct RowCol {
    n: usize,
    c: u32,
    /// for each admissible total `T`: the values `{r : (n−1)·r ≡ −T}`
    levels: Vec<(u32, Vec<u32>)>,
}

impl RowCol {
    /// The pairs of the n×n board with c colours.
    pub fn new(n: usize, c: u32) -> Self {
        let m = (n as u32 + c - 1) % c; // n − 1 mod c (n ≥ 1)
        let levels = (0..c)
            .map(|t| {
                let values = (0..c).filter(|&r| (m * r + t) % c == 0).collect();
                (t, values)
            })
            .filter(|(_, v): &(u32, Vec<u32>)| !v.is_empty())
            .collect();
        RowCol { n, c, levels }
    }

    /// `N(T)`: row vectors with entries in `values` summing to `t` mod c.
    fn count(&self, t: u32, values: &[u32]) -> Option<u64> {
        let c = self.c as usize;
        let mut ways = vec![0u64; c];
        ways[0] = 1;
        for _ in 0..self.n {
            let mut next = vec![0u64; c];
            for (s, &w) in ways.iter().enumerate() {
                for &v in values {
                    let e = &mut next[(s + v as usize) % c];
                    *e = e.checked_add(w)?;
                }
            }
            ways = next;
        }
        Some(ways[t as usize])
    }

    /// Number of kernel elements, `Σ_T N(T)²` (None on overflow of u64).
    pub fn size(&self) -> Option<u64> {
        self.levels.iter().try_fold(0u64, |acc, (t, values)| {
            let n = self.count(*t, values)?;
            acc.checked_add(n.checked_mul(n)?)
        })
    }

    /// Admissible row vectors, `Σ_T N(T)`: how many [`RowCol::coset_min`]
    /// visits (None on overflow of u64).
    pub fn row_vectors(&self) -> Option<u64> {
        self.levels.iter().try_fold(0u64, |acc, (t, values)| {
            acc.checked_add(self.count(*t, values)?)
        })
    }

    /// The fewest clicks of the coset `k + kernel` (k row-major, entries in
    /// `0..c`) and a kernel element `z` reaching it: `Σ (k + z) mod c` is
    /// minimal, and `z = 0` when `k` itself is minimal.
    pub fn coset_min(&self, k: &[u32]) -> (u32, Vec<u32>) {
        let n = self.n;
        assert_eq!(k.len(), n * n, "a {n}×{n} click matrix");
        let mut best: (u32, Vec<u32>, Vec<u32>) = (k.iter().sum(), vec![0; n], vec![0; n]);
        let mut work = Work::new(n, self.c);
        for (t, values) in &self.levels {
            self.for_each_rows(*t, values, |r| {
                if let Some((total, col)) = self.best_columns(k, r, *t, values, best.0, &mut work) {
                    best = (total, r.to_vec(), col);
                }
            });
        }
        let (total, r, col) = best;
        let z = (0..n * n)
            .map(|p| (r[p / n] + col[p % n]) % self.c)
            .collect();
        (total, z)
    }

    /// Calls `f` on every row vector `R` with entries in `values` and
    /// `Σ R ≡ t` (an odometer over `R_0..R_{n−2}`, `R_{n−1}` completing the sum).
    fn for_each_rows(&self, t: u32, values: &[u32], mut f: impl FnMut(&[u32])) {
        let (n, c) = (self.n, self.c);
        let mut idx = vec![0usize; n - 1];
        let mut r = vec![0u32; n];
        loop {
            let partial: u32 = idx.iter().map(|&i| values[i]).sum::<u32>() % c;
            let last = (t + c - partial) % c;
            if values.contains(&last) {
                for (ri, &i) in r.iter_mut().zip(&idx) {
                    *ri = values[i];
                }
                r[n - 1] = last;
                f(&r);
            }
            let Some(i) = idx.iter().position(|&i| i + 1 < values.len()) else {
                return;
            };
            idx[i] += 1;
            idx[..i].fill(0);
        }
    }

    /// For the row vector `r`: the fewest clicks over the column vectors
    /// `C ∈ values^n` with `Σ C ≡ t`, and that `C`, if fewer than `bound`.
    /// Column `j` at value `v` costs `Σ_i (k_ij + R_i + v) mod c`; a dynamic
    /// programme over the columns keeps the cheapest per partial sum mod c.
    fn best_columns(
        &self,
        k: &[u32],
        r: &[u32],
        t: u32,
        values: &[u32],
        bound: u32,
        w: &mut Work,
    ) -> Option<(u32, Vec<u32>)> {
        let (n, c) = (self.n, self.c as usize);
        // per column: the histogram of m_ij = (k_ij + R_i) mod c; adding v to
        // m gives m + v − c·[m ≥ c − v]
        w.hist.fill(0);
        w.sums.fill(0);
        for i in 0..n {
            for j in 0..n {
                let m = (k[i * n + j] + r[i]) as usize % c;
                w.hist[j * (c + 1) + m] += 1;
                w.sums[j] += m as u32;
            }
        }
        let mut lower = 0;
        for j in 0..n {
            let h = &mut w.hist[j * (c + 1)..(j + 1) * (c + 1)];
            for m in (0..c).rev() {
                h[m] += h[m + 1]; // h[m] = rows with m_ij ≥ m
            }
            let mut cheapest = u32::MAX;
            for (a, &v) in values.iter().enumerate() {
                let wrap = if v == 0 { 0 } else { h[c - v as usize] };
                let cost = w.sums[j] + n as u32 * v - c as u32 * wrap;
                w.cost[j * c + a] = cost;
                cheapest = cheapest.min(cost);
            }
            lower += cheapest;
        }
        // each column at its cheapest value bounds the total from below
        if lower >= bound {
            return None;
        }
        w.dp.fill(u32::MAX);
        w.dp[0] = 0;
        for j in 0..n {
            w.next.fill(u32::MAX);
            for s in 0..c {
                let d = w.dp[s];
                if d == u32::MAX {
                    continue;
                }
                for (a, &v) in values.iter().enumerate() {
                    let s2 = (s + v as usize) % c;
                    let e = d + w.cost[j * c + a];
                    if e < w.next[s2] {
                        w.next[s2] = e;
                        w.choice[j * c + s2] = a as u8;
                    }
                }
            }
            std::mem::swap(&mut w.dp, &mut w.next);
        }
        let total = w.dp[t as usize];
        if total >= bound {
            return None;
        }
        // walk the choices back from Σ C ≡ t
        let mut col = vec![0u32; n];
        let mut s = t as usize;
        for j in (0..n).rev() {
            col[j] = values[w.choice[j * c + s] as usize];
            s = (s + c - col[j] as usize) % c;
        }
        Some((total, col))
    }
}

/// Scratch space of [`RowCol::best_columns`].
struct Work {
    hist: Vec<u32>,
    sums: Vec<u32>,
    cost: Vec<u32>,
    choice: Vec<u8>,
    dp: Vec<u32>,
    next: Vec<u32>,
}

impl Work {
    fn new(n: usize, c: u32) -> Self {
        let c = c as usize;
        Work {
            hist: vec![0; n * (c + 1)],
            sums: vec![0; n],
            cost: vec![0; n * c],
            choice: vec![0; n * c],
            dp: vec![0; c],
            next: vec![0; c],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::alien_tiles::model::click_map;
    use crate::puzzles::alien_tiles::zmod::Kernel;

    #[test]
    fn size_is_the_smith_form_count() {
        for n in 1..=7 {
            for c in 2..=12 {
                let want = Kernel::of(&click_map(n, c)).size();
                assert_eq!(RowCol::new(n, c).size(), want, "n={n} c={c}");
            }
        }
    }

    #[test]
    fn coset_min_equals_enumeration() {
        // a fixed pseudo-random sequence of click matrices
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |c: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % c as u64) as u32
        };
        for n in 1..=5 {
            for c in 2..=7 {
                let kernel = Kernel::of(&click_map(n, c));
                if kernel.size().is_none_or(|s| s > 1 << 16) {
                    continue;
                }
                let rc = RowCol::new(n, c);
                for _ in 0..20 {
                    let k: Vec<u32> = (0..n * n).map(|_| next(c)).collect();
                    let mut want = k.iter().sum::<u32>();
                    kernel.for_each(n * n, |z| {
                        want = want.min(k.iter().zip(z).map(|(a, b)| (a + b) % c).sum());
                        true
                    });
                    let (got, z) = rc.coset_min(&k);
                    assert_eq!(got, want, "n={n} c={c} k={k:?}");
                    // z is in the kernel and attains the minimum
                    let effect = click_map(n, c).mul_vec(&z);
                    assert!(effect.iter().all(|&e| e == 0), "n={n} c={c} z={z:?}");
                    let t: u32 = k.iter().zip(&z).map(|(a, b)| (a + b) % c).sum();
                    assert_eq!(t, got);
                }
            }
        }
    }
}
