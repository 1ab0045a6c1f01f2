//! The **sequential counter** of Sinz, "Towards an optimal CNF encoding of
//! Boolean cardinality constraints" (CP 2005, LNCS 3709), built lazily and
//! in both directions.
//!
//! Register `s(i, j)` (`1 ≤ j ≤ min(i+1, width)`) means "at least `j` of the
//! inputs `x₀ … xᵢ` are true"; `s(0, 1)` is `x₀` itself. The *upward* clauses
//! (Sinz's, enough for `Σ ≤ k` with the assumption `¬s(n−1, k+1)`):
//!
//! ```text
//! s(i−1, j) → s(i, j)
//! xᵢ ∧ s(i−1, j−1) → s(i, j)          (j = 1: xᵢ → s(i, 1))
//! ```
//!
//! and the *downward* ones (for `Σ ≥ k` with the assumption `s(n−1, k)`):
//!
//! ```text
//! s(i, j) → s(i−1, j) ∨ xᵢ
//! s(i, j) → s(i−1, j) ∨ s(i−1, j−1)    (s(i−1, j) is false when j > i)
//! ```
//!
//! For `Σ ≤ k` over `n` inputs this is `(k+1)(n−1) − k(k−1)/2` variables and
//! `2(k+1)(n−1) − k²` clauses (asserted in `tests/sizes.rs`; n = 50, k = 10:
//! 494 and 978, against Sinz's 490 and 1019 — the extra register column makes
//! the bound the single assumption `¬s(n−1, k+1)`, and registers `s(i, j)`
//! exist only for `j ≤ i + 1`).
//! The width grows on demand: a later, larger bound adds the missing
//! registers and clauses and keeps everything already built.

use crate::ClauseDatabase;
use rustsat::types::Lit;

/// A lazily widened sequential counter over fixed inputs.
#[derive(Clone, Debug)]
pub struct SeqCounter {
    xs: Vec<Lit>,
    /// `s[i][j-1]` is `s(i, j)`
    s: Vec<Vec<Lit>>,
    /// upward clauses exist for `j ≤ up`
    up: usize,
    /// downward clauses exist for `j ≤ down`
    down: usize,
}

impl SeqCounter {
    /// A counter over `xs` (nothing encoded yet).
    pub fn new(xs: &[Lit]) -> Self {
        SeqCounter {
            xs: xs.to_vec(),
            s: vec![Vec::new(); xs.len()],
            up: 0,
            down: 0,
        }
    }

    /// Makes sure the upward clauses exist for `j ≤ up_to` and the downward
    /// ones for `j ≤ down_to` (both capped at the number of inputs).
    fn ensure<DB: ClauseDatabase>(&mut self, db: &mut DB, up_to: usize, down_to: usize) {
        let n = self.xs.len();
        let (up_to, down_to) = (up_to.min(n), down_to.min(n));
        let width = up_to.max(down_to);
        for i in 0..n {
            let len = (i + 1).min(width);
            while self.s[i].len() < len {
                let l = if i == 0 { self.xs[0] } else { db.fresh() };
                self.s[i].push(l);
            }
        }
        for i in 1..n {
            let (prev, cur, x) = (&self.s[i - 1], &self.s[i], self.xs[i]);
            for j in self.up + 1..=up_to.min(i + 1) {
                if j <= i {
                    db.add(&[!prev[j - 1], cur[j - 1]]); // s(i−1, j) → s(i, j)
                }
                if j == 1 {
                    db.add(&[!x, cur[0]]); // xᵢ → s(i, 1)
                } else {
                    db.add(&[!x, !prev[j - 2], cur[j - 1]]); // xᵢ ∧ s(i−1, j−1) → s(i, j)
                }
            }
            for j in self.down + 1..=down_to.min(i + 1) {
                if j <= i {
                    db.add(&[!cur[j - 1], prev[j - 1], x]); // s(i, j) → s(i−1, j) ∨ xᵢ
                } else {
                    db.add(&[!cur[j - 1], x]); // s(i, i+1) → xᵢ
                }
                if j > 1 {
                    if j <= i {
                        db.add(&[!cur[j - 1], prev[j - 1], prev[j - 2]]); // s(i, j) → s(i−1, j) ∨ s(i−1, j−1)
                    } else {
                        db.add(&[!cur[j - 1], prev[j - 2]]); // s(i, i+1) → s(i−1, i)
                    }
                }
            }
        }
        self.up = self.up.max(up_to);
        self.down = self.down.max(down_to);
    }

    /// The literal "at least `j` inputs are true" with its upward clauses
    /// (true count ≥ j forces it), `1 ≤ j ≤ n`.
    pub fn at_least_lit_up<DB: ClauseDatabase>(&mut self, db: &mut DB, j: usize) -> Lit {
        self.ensure(db, j, 0);
        self.s[self.xs.len() - 1][j - 1]
    }

    /// The literal "at least `j` inputs are true" with its downward clauses
    /// (it forces count ≥ j), `1 ≤ j ≤ n`.
    pub fn at_least_lit_down<DB: ClauseDatabase>(&mut self, db: &mut DB, j: usize) -> Lit {
        self.ensure(db, 0, j);
        self.s[self.xs.len() - 1][j - 1]
    }
}
