//! The CNF of Alien Tiles, after Gent, Linton & Smith ("Symmetry breaking in
//! the Alien Tiles puzzle", APES-22-2000), in the order encoding: cell
//! `(i, j)` is clicked `x_ij ∈ [0, c−1]` times, an order-encoded integer
//! (Tamura et al. 2009) whose literals `[x_ij ≥ v]` also count the clicks
//! (`x_ij = Σ_v [x_ij ≥ v]`, so the objective is a plain cardinality).
//!
//! - **play** ([`encode_goal`]): the board reached is the goal. Row and
//!   column sums mod c are chained modular additions over direct literals
//!   (`[s = a] ∧ [x = b] → [s' = (a+b) mod c]`, c² clauses per step), and
//!   each cell says `[R_i = a] ∧ [C_j = b] → [x_ij = (a + b − Δ_ij) mod c]`.
//! - **minimality** ([`minimality_cut`]): the paper's 728 constraints for
//!   4×4/3, generated here from the kernel of the click map (see
//!   [`super::zmod`]) instead of GAP, as cardinality constraints over order
//!   literals (derivation in [`minimality_cut`]).

use puzzlesat_encodings::card::{self, CardEncoding};
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::pb;
use puzzlesat_encodings::{ClauseDatabase, EncodeError};
use rustsat::types::Lit;

use super::model::Grid;
use super::zmod::Kernel;

/// The click variables, row-major.
pub fn click_vars<DB: ClauseDatabase>(db: &mut DB, n: usize, c: u32) -> Vec<IntVar> {
    (0..n * n)
        .map(|_| IntVar::new(db, 0, c as i64 - 1).expect("c ≥ 2 colours"))
        .collect()
}

/// The direct literals `[x = 0], …, [x = c−1]` of each variable.
fn direct_lits<DB: ClauseDatabase>(db: &mut DB, xs: &mut [IntVar], c: u32) -> Vec<Vec<Lit>> {
    xs.iter_mut()
        .map(|x| (0..c as i64).map(|v| x.eq(db, v)).collect())
        .collect()
}

/// `(a + b) mod c` over direct literals: a fresh order-encoded variable (its
/// ladder makes its direct literals exactly-one) and one clause per pair of
/// values.
fn add_mod<DB: ClauseDatabase>(db: &mut DB, a: &[Lit], b: &[Lit], c: u32) -> Vec<Lit> {
    let mut s = IntVar::new(db, 0, c as i64 - 1).expect("c ≥ 2 colours");
    let sum: Vec<Lit> = (0..c as i64).map(|v| s.eq(db, v)).collect();
    for (va, &la) in a.iter().enumerate() {
        for (vb, &lb) in b.iter().enumerate() {
            db.add(&[!la, !lb, sum[(va + vb) % c as usize]]); // [a = va] ∧ [b = vb] → [s = va + vb mod c]
        }
    }
    sum
}

/// `Σ terms mod c` by a chain of modular additions.
fn sum_mod<DB: ClauseDatabase>(db: &mut DB, terms: &[&Vec<Lit>], c: u32) -> Vec<Lit> {
    let mut acc = terms[0].clone();
    for t in &terms[1..] {
        acc = add_mod(db, &acc, t, c);
    }
    acc
}

/// Play: clicking `xs` changes the board by `delta = goal − start (mod c)`.
pub fn encode_goal<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &mut [IntVar],
    n: usize,
    c: u32,
    delta: &Grid,
) {
    let d = direct_lits(db, xs, c);
    let rows: Vec<Vec<Lit>> = (0..n)
        .map(|i| sum_mod(db, &(0..n).map(|j| &d[i * n + j]).collect::<Vec<_>>(), c))
        .collect();
    let cols: Vec<Vec<Lit>> = (0..n)
        .map(|j| sum_mod(db, &(0..n).map(|i| &d[i * n + j]).collect::<Vec<_>>(), c))
        .collect();
    for i in 0..n {
        for j in 0..n {
            let want = delta.at(i, j);
            for a in 0..c {
                for b in 0..c {
                    let v = (a + b + c - want) % c;
                    // [R_i = a] ∧ [C_j = b] → [x_ij = a + b − Δ_ij mod c]
                    db.add(&[
                        !rows[i][a as usize],
                        !cols[j][b as usize],
                        d[i * n + j][v as usize],
                    ]);
                }
            }
        }
    }
}

puzzlesat_encodings::option_enum! {
    /// How play constrains the board reached (`--encoding`).
    #[derive(Default)]
    pub enum GoalEncoding("goal encoding") {
        /// `x = x₀ + Σ_k y_k·g_k (mod c)`: one particular solution `x₀` and
        /// the kernel generators `g_k` from linear algebra over Z_c, the
        /// coefficients `y_k ∈ [0, order_k)` the only free variables (an
        /// unreachable goal has no `x₀`: the empty clause, proven by the algebra)
        #[default]
        Kernel = "kernel",
        /// row and column sums mod c as chained modular additions, the goal
        /// cell by cell: pure SAT, the solver finds the coset (and proves
        /// unreachability) itself
        Sums = "sums",
        /// the play model's equations themselves, `Σ_{row, column} x − c·q =
        /// Δ` per cell with the quotient q in binary, each half by a
        /// generalized totalizer: every clause is derived from the model, so
        /// `--certify` proves the optimum from the model
        Linear = "linear",
    }
}

/// The quotient bits of a play equation: the largest quotient is that of
/// (2n − 1) cells of at most c − 1 clicks.
pub fn quotient_bits(n: usize, c: u32) -> u32 {
    let max_q = (2 * n - 1) * (c as usize - 1) / c as usize;
    usize::BITS - max_q.leading_zeros()
}

/// Play, linear form (the play model's equations, [`super::opb`]): per
/// cell p, `Σ_{k in p's row or column} x_k − c·Σ_b 2^b·q_{p,b} = Δ_p`, x_k
/// the sum of its order literals, each half posted by a generalized
/// totalizer with its source constraint logged. Returns the quotient bits
/// (per cell, least significant first), which the model names.
pub fn encode_goal_linear<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[IntVar],
    n: usize,
    c: u32,
    delta: &Grid,
) -> Vec<Vec<Lit>> {
    let bits = quotient_bits(n, c);
    let mut quotients = vec![];
    for p in 0..n * n {
        let (i, j) = (p / n, p % n);
        let q = db.fresh_lits(bits as usize);
        // −c·2^b·q = c·2^b·¬q − c·2^b: positive weights, the constant moved right
        let mut terms: Vec<(Lit, usize)> = (0..n * n)
            .filter(|&k| k / n == i || k % n == j)
            .flat_map(|k| xs[k].order_lits().iter().map(|&l| (l, 1)))
            .collect();
        let shift: usize = (0..bits).map(|b| (c as usize) << b).sum();
        terms.extend((0..bits).map(|b| (!q[b as usize], (c as usize) << b)));
        let k = delta.at(i, j) as usize + shift;
        // a bound out of reach posts the empty clause: no click matrix reaches the goal
        let _ = pb::at_least(db, &terms, k, pb::PbEncoding::Gte);
        let _ = pb::at_most(db, &terms, k, pb::PbEncoding::Gte);
        quotients.push(q);
    }
    quotients
}

/// Play, kernel form: `x_p = (x₀_p + Σ_k y_k·g_k[p]) mod c` for every cell,
/// each a chain of `[acc = a] ∧ [y_k = b] → [acc' = a + b·g_k[p] mod c]`
/// steps ending on `x_p`'s direct literals. `x0 = None`: unreachable.
pub fn encode_goal_kernel<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &mut [IntVar],
    c: u32,
    x0: Option<&[u32]>,
    kernel: &Kernel,
) {
    let Some(x0) = x0 else {
        db.add(&[]); // no particular solution: the goal is not in the image of the click map
        return;
    };
    let t = db.true_lit();
    let mut ys: Vec<IntVar> = kernel
        .gens
        .iter()
        .map(|(_, order)| IntVar::new(db, 0, *order as i64 - 1).expect("orders are ≥ 1"))
        .collect();
    let y_lits: Vec<Vec<Lit>> = ys
        .iter_mut()
        .map(|y| (0..=y.ub()).map(|v| y.eq(db, v)).collect())
        .collect();
    let d = direct_lits(db, xs, c);
    for (p, x_direct) in d.iter().enumerate() {
        let terms: Vec<(usize, u32)> = kernel
            .gens
            .iter()
            .enumerate()
            .filter(|(_, (g, _))| g[p] != 0)
            .map(|(k, (g, _))| (k, g[p]))
            .collect();
        // the constant x₀_p as direct literals
        let mut acc: Vec<Lit> = (0..c).map(|v| if v == x0[p] { t } else { !t }).collect();
        for (step, &(k, coef)) in terms.iter().enumerate() {
            let next = if step + 1 == terms.len() {
                x_direct.clone()
            } else {
                let mut s = IntVar::new(db, 0, c as i64 - 1).expect("c ≥ 2 colours");
                (0..c as i64).map(|v| s.eq(db, v)).collect()
            };
            for (a, &la) in acc.iter().enumerate() {
                for (b, &lb) in y_lits[k].iter().enumerate() {
                    // [acc = a] ∧ [y_k = b] → [acc' = a + b·g_k[p] mod c]
                    db.add(&[!la, !lb, next[(a + b * coef as usize) % c as usize]]);
                }
            }
            acc = next;
        }
        if terms.is_empty() {
            db.add(&[x_direct[x0[p] as usize]]); // no generator moves this cell
        }
    }
}

/// The literals and bound of the minimality constraint of a non-zero kernel
/// element `z`: "adding `z` (mod c) does not lower the number of clicks".
///
/// Derivation. For `x, z ∈ [0, c−1]`, `(x + z) mod c = x + z − c·[x ≥ c − z]`.
/// Summing over the cells with `z_ij ≠ 0`, the change of the total is
/// `Σ z_ij − c·#{ij : x_ij ≥ c − z_ij}`, and it is `≥ 0` iff
/// `#{ij : [x_ij ≥ c − z_ij]} ≤ ⌊Σ z_ij / c⌋` — an at-most-k over order
/// literals, one per cell in the support of `z`. Returns None when the bound
/// is at least the number of literals (the constraint always holds).
pub fn minimality_cut(xs: &[IntVar], z: &[u32], c: u32) -> Option<(Vec<Lit>, usize)> {
    let lits: Vec<Lit> = xs
        .iter()
        .zip(z)
        .filter(|(_, &zv)| zv != 0)
        .map(|(x, &zv)| x.ge((c - zv) as i64))
        .collect();
    let k = (z.iter().sum::<u32>() / c) as usize;
    (k < lits.len()).then_some((lits, k))
}

/// Posts the minimality constraint of `z` (if not trivially true).
pub fn post_minimality<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[IntVar],
    z: &[u32],
    c: u32,
    enc: CardEncoding,
) -> Result<bool, EncodeError> {
    match minimality_cut(xs, z, c) {
        Some((lits, k)) => {
            // at most k: never trivially false
            let _ = card::at_most(db, &lits, k, enc);
            Ok(true)
        }
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::{Assignment, Cnf};

    /// Every model of the CNF, projected onto the values of `xs`.
    fn models(cnf: &Cnf, xs: &[IntVar]) -> std::collections::BTreeSet<Vec<i64>> {
        let n = cnf.n_vars();
        assert!(n <= 22, "{n} variables");
        (0u64..1 << n)
            .map(|bits| Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect()))
            .filter(|a| a.satisfies(cnf.clauses()))
            .map(|a| xs.iter().map(|x| x.value(&a)).collect())
            .collect()
    }

    #[test]
    fn modular_sum_is_exact() {
        for c in 2..=4u32 {
            let mut cnf = Cnf::new();
            let mut xs: Vec<IntVar> = (0..2)
                .map(|_| IntVar::new(&mut cnf, 0, c as i64 - 1).unwrap())
                .collect();
            let d = direct_lits(&mut cnf, &mut xs, c);
            let s = add_mod(&mut cnf, &d[0], &d[1], c);
            // read s through an order variable built on the same literals
            let got: std::collections::BTreeSet<Vec<i64>> = {
                let n = cnf.n_vars();
                (0u64..1 << n)
                    .map(|bits| {
                        Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect())
                    })
                    .filter(|a| a.satisfies(cnf.clauses()))
                    .map(|a| {
                        let v: Vec<i64> = xs.iter().map(|x| x.value(&a)).collect();
                        let sv = s.iter().position(|&l| a.lit(l)).unwrap() as i64;
                        vec![v[0], v[1], sv]
                    })
                    .collect()
            };
            let want = (0..c as i64)
                .flat_map(|a| (0..c as i64).map(move |b| vec![a, b, (a + b) % c as i64]))
                .collect();
            assert_eq!(got, want, "c={c}");
        }
    }

    #[test]
    fn minimality_cut_means_no_decrease() {
        let c = 3;
        let z = [1u32, 2, 0];
        let mut cnf = Cnf::new();
        let xs: Vec<IntVar> = (0..3)
            .map(|_| IntVar::new(&mut cnf, 0, 2).unwrap())
            .collect();
        post_minimality(&mut cnf, &xs, &z, c, CardEncoding::Totalizer).unwrap();
        let got = models(&cnf, &xs);
        let mut want = std::collections::BTreeSet::new();
        for code in 0..27 {
            let x = [code % 3, code / 3 % 3, code / 9];
            let before: i64 = x.iter().sum();
            let after: i64 = x.iter().zip(z).map(|(a, b)| (a + b as i64) % 3).sum();
            if after >= before {
                want.insert(x.to_vec());
            }
        }
        assert_eq!(got, want);
    }
}
