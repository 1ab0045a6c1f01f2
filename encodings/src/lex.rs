//! Lexicographic order `x ≤lex y` and `x <lex y` over literal vectors
//! (false < true, position 0 most significant).
//!
//! The encoding is the linear one with one auxiliary "prefix equal so far"
//! literal per position, as used for lex-leader symmetry breaking by Aloul,
//! Markov & Sakallah, "Efficient symmetry breaking for Boolean
//! satisfiability" (IJCAI 2003; IEEE Trans. Computers 55(5), 2006), and
//! analysed as a decomposition of the global constraint by Frisch, Hnich,
//! Kiziltan, Miguel & Walsh, "Propagation algorithms for lexicographic
//! ordering constraints" (Artificial Intelligence 170(10), 2006). With `a₀`
//! true (or the reification literal) and `aᵢ` meaning "x and y agree on
//! positions `< i`" (only the direction `aᵢ → …` is needed):
//!
//! ```text
//! aᵢ → (xᵢ → yᵢ)             ¬aᵢ ∨ ¬xᵢ ∨ yᵢ
//! aᵢ ∧ xᵢ → aᵢ₊₁            ¬aᵢ ∨ ¬xᵢ ∨ aᵢ₊₁
//! aᵢ ∧ ¬yᵢ → aᵢ₊₁           ¬aᵢ ∨ yᵢ ∨ aᵢ₊₁
//! strict:  ¬aₙ
//! ```
//!
//! so at most `3n` clauses and `n − 1` auxiliary variables. Positions with
//! `xᵢ = yᵢ` (the same literal) are skipped; a position with `xᵢ = ¬yᵢ`
//! forces `xᵢ` false under the prefix and ends the chain (the vectors differ
//! there). Vectors of different lengths are compared as sequences: on an
//! equal common prefix the shorter one is smaller.

use crate::bool::{add_implied, Reify};
use crate::{Assignment, Checker, ClauseDatabase};
use rustsat::types::Lit;

/// `xs ≤lex ys` (`strict`: `xs <lex ys`) over literals, false < true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexLe {
    /// left-hand vector (position 0 most significant)
    pub xs: Vec<Lit>,
    /// right-hand vector
    pub ys: Vec<Lit>,
    /// `<lex` instead of `≤lex`
    pub strict: bool,
}

impl LexLe {
    /// `xs ≤lex ys`.
    pub fn le(xs: &[Lit], ys: &[Lit]) -> Self {
        LexLe {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            strict: false,
        }
    }
    /// `xs <lex ys`.
    pub fn lt(xs: &[Lit], ys: &[Lit]) -> Self {
        LexLe {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            strict: true,
        }
    }
}

/// What [`lex_le`] posted, for a proof to derive it (see
/// [`crate::dominance`]): the positions it compared, in order, as pairs
/// `(xᵢ, yᵢ)` (positions with `xᵢ = yᵢ` skipped), and the chain literals
/// `a₁, a₂, …` ("equal so far", `aₜ` after the t-th pair; none after the
/// last pair when the equal case is allowed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LexChain {
    /// the compared pairs, one clause `aₜ → (xₜ → yₜ)` each
    pub pairs: Vec<(Lit, Lit)>,
    /// the chain literals
    pub chain: Vec<Lit>,
    /// `<lex` (the chain ends with `¬aₘ`)
    pub strict: bool,
    /// the reification literal (`a₀`), if any
    pub cond: Option<Lit>,
    /// the comparison ended at a pair `x = ¬y` (clause `aₜ → ¬x`)
    pub ended_negated: bool,
}

/// Posts `xs ≤lex ys`; returns what it posted.
pub fn lex_le<DB: ClauseDatabase>(db: &mut DB, xs: &[Lit], ys: &[Lit]) -> LexChain {
    encode_lex(db, xs, ys, false, None)
}

/// Posts `xs <lex ys`; returns what it posted.
pub fn lex_lt<DB: ClauseDatabase>(db: &mut DB, xs: &[Lit], ys: &[Lit]) -> LexChain {
    encode_lex(db, xs, ys, true, None)
}

/// Does the equal-prefix case satisfy the constraint?
fn equal_prefix_ok(xs: &[Lit], ys: &[Lit], strict: bool) -> bool {
    xs.len() < ys.len() || (xs.len() == ys.len() && !strict)
}

/// `cond → xs ≤lex ys` (or `<lex`); `cond = None` posts it.
fn encode_lex<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[Lit],
    ys: &[Lit],
    strict: bool,
    cond: Option<Lit>,
) -> LexChain {
    let mut out = LexChain {
        strict,
        cond,
        ..LexChain::default()
    };
    let m = xs.len().min(ys.len());
    let end_ok = equal_prefix_ok(xs, ys, strict);
    // the last position that can differ; the chain may stop after it when the
    // equal case is allowed
    let last = (0..m).rev().find(|&i| xs[i] != ys[i]);
    // a = "equal so far" (None: true, i.e. the constraint's own condition)
    let mut a = cond;
    for i in 0..m {
        let (x, y) = (xs[i], ys[i]);
        if x == y {
            continue; // always equal here
        }
        if x == !y {
            // never equal here: the prefix decides, xᵢ < yᵢ is needed
            add_implied(db, a, &[!x]); // aᵢ → ¬xᵢ (then yᵢ holds)
            out.ended_negated = true;
            return out;
        }
        add_implied(db, a, &[!x, y]); // aᵢ → (xᵢ → yᵢ)
        out.pairs.push((x, y));
        if end_ok && Some(i) == last {
            return out; // nothing after this position can violate the order
        }
        let next = db.fresh();
        add_implied(db, a, &[!x, next]); // aᵢ ∧ xᵢ → aᵢ₊₁
        add_implied(db, a, &[y, next]); // aᵢ ∧ ¬yᵢ → aᵢ₊₁
        out.chain.push(next);
        a = Some(next);
    }
    if !end_ok {
        add_implied(db, a, &[]); // equal common prefix is not allowed: ¬aₘ
    }
    out
}

impl Reify for LexLe {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        encode_lex(db, &self.xs, &self.ys, self.strict, cond);
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        // lex order is total: ¬(x ≤lex y) ⇔ y <lex x, ¬(x <lex y) ⇔ y ≤lex x
        encode_lex(db, &self.ys, &self.xs, !self.strict, cond);
    }
}

/// The lexicographic comparison of two Boolean sequences (false < true;
/// a proper prefix is smaller).
pub fn lex_cmp(xs: &[bool], ys: &[bool]) -> std::cmp::Ordering {
    xs.cmp(ys)
}

impl Checker for LexLe {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let xv: Vec<bool> = self.xs.iter().map(|&l| a.lit(l)).collect();
        let yv: Vec<bool> = self.ys.iter().map(|&l| a.lit(l)).collect();
        let ord = lex_cmp(&xv, &yv);
        let ok = if self.strict {
            ord.is_lt()
        } else {
            ord.is_le()
        };
        if ok {
            Ok(())
        } else {
            let bits = |v: &[bool]| {
                v.iter()
                    .map(|&b| if b { '1' } else { '0' })
                    .collect::<String>()
            };
            let rel = if self.strict { "<lex" } else { "≤lex" };
            Err(format!("{} {rel} {} is false", bits(&xv), bits(&yv)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cnf;
    use std::collections::BTreeSet;

    /// Projections onto `inputs` (positive literals of distinct variables)
    /// of all models of the CNF.
    fn projected_models(cnf: &Cnf, inputs: &[Lit]) -> BTreeSet<Vec<bool>> {
        let vars: Vec<u32> = inputs.iter().map(|l| l.var().idx32()).collect();
        crate::testutil::projected_models(cnf, &vars)
    }

    /// Every assignment of `vars` base variables, as literal values.
    fn all_inputs(
        n_base: u32,
        inputs: &[Lit],
    ) -> impl Iterator<Item = (Vec<bool>, Assignment)> + '_ {
        (0u64..1 << n_base).map(move |bits| {
            let a = Assignment::from_values((0..n_base).map(|i| bits >> i & 1 == 1).collect());
            (inputs.iter().map(|&l| a.lit(l)).collect(), a)
        })
    }

    /// Compares the CNF of `c` (posted, and reified) with its checker on
    /// every assignment of the base variables.
    fn check_against_brute_force(n_base: u32, xs: Vec<Lit>, ys: Vec<Lit>, strict: bool) {
        let c = LexLe { xs, ys, strict };
        let base: Vec<Lit> = (0..n_base).map(|i| Lit::new(i, false)).collect();
        // posted
        let mut cnf = Cnf::new();
        let _ = cnf.fresh_lits(n_base as usize);
        c.post(&mut cnf);
        let got = projected_models(&cnf, &base);
        let want: BTreeSet<Vec<bool>> = all_inputs(n_base, &base)
            .filter(|(_, a)| c.check(a).is_ok())
            .map(|(v, _)| v)
            .collect();
        assert_eq!(got, want, "posted {c:?}");
        // reified: r ↔ c
        let mut cnf = Cnf::new();
        let _ = cnf.fresh_lits(n_base as usize);
        let r = c.reified(&mut cnf);
        let mut with_r = base.clone();
        with_r.push(r);
        let got = projected_models(&cnf, &with_r);
        let want: BTreeSet<Vec<bool>> = all_inputs(n_base, &base)
            .map(|(mut v, a)| {
                v.push(c.check(&a).is_ok());
                v
            })
            .collect();
        assert_eq!(got, want, "reified {c:?}");
    }

    fn lits(idx: &[i32]) -> Vec<Lit> {
        idx.iter()
            .map(|&i| Lit::new(i.unsigned_abs() - 1, i < 0))
            .collect()
    }

    #[test]
    fn distinct_vectors_match_brute_force() {
        for n in 0..=4u32 {
            let xs: Vec<Lit> = (0..n).map(|i| Lit::new(i, false)).collect();
            let ys: Vec<Lit> = (n..2 * n).map(|i| Lit::new(i, false)).collect();
            for strict in [false, true] {
                check_against_brute_force(2 * n, xs.clone(), ys.clone(), strict);
            }
        }
    }

    #[test]
    fn shared_negated_and_unequal_length_vectors_match_brute_force() {
        let cases: Vec<(Vec<i32>, Vec<i32>)> = vec![
            (vec![1, 2, 3], vec![1, 3, 2]),       // a symmetry image
            (vec![1, 2, 3], vec![-1, -2, -3]),    // negation image
            (vec![1, 2, 3], vec![2, -1, 3]),      // mixed
            (vec![1, 2, 3, 4], vec![1, 2, 3, 4]), // identical
            (vec![1, -1, 2], vec![2, 2, -2]),
            (vec![1, 2], vec![3]),
            (vec![1], vec![2, 3]),
            (vec![], vec![1]),
            (vec![1, 2, 3], vec![3, 1, 2]),
            (vec![-1, 2, -3, 4], vec![4, -3, 2, -1]),
        ];
        for (x, y) in cases {
            let n_base = x
                .iter()
                .chain(&y)
                .map(|i| i.unsigned_abs())
                .max()
                .unwrap_or(0);
            for strict in [false, true] {
                check_against_brute_force(n_base, lits(&x), lits(&y), strict);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Random vectors over 5 variables (shared, repeated, negated
        /// literals, unequal lengths), posted and reified.
        #[test]
        fn random_vectors_match_brute_force(
            xs in proptest::collection::vec((1i32..=5, proptest::bool::ANY), 0..6),
            ys in proptest::collection::vec((1i32..=5, proptest::bool::ANY), 0..6),
            strict in proptest::bool::ANY,
        ) {
            let signed = |v: &[(i32, bool)]| v.iter().map(|&(i, neg)| if neg { -i } else { i }).collect::<Vec<i32>>();
            check_against_brute_force(5, lits(&signed(&xs)), lits(&signed(&ys)), strict);
        }
    }

    #[test]
    fn size_is_linear() {
        let mut cnf = Cnf::new();
        let xs = cnf.fresh_lits(10);
        let ys = cnf.fresh_lits(10);
        lex_lt(&mut cnf, &xs, &ys);
        let c = cnf.counts();
        assert_eq!(c.vars, 20 + 10);
        assert_eq!(c.clauses, 3 * 10 + 1);
        let mut cnf = Cnf::new();
        let xs = cnf.fresh_lits(10);
        let ys = cnf.fresh_lits(10);
        lex_le(&mut cnf, &xs, &ys);
        let c = cnf.counts();
        assert_eq!(c.vars, 20 + 9);
        assert_eq!(c.clauses, 3 * 9 + 1);
    }
}
