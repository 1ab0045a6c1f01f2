//! The VeriPB derivation of `--symmetry cycles` (the canonical cycle-type
//! matrix, C9–C11 of Cambazard, O'Sullivan & Smith, "A Constraint-based
//! Approach to Enigma 1225") from the PB model of [`super::opb`], by the
//! dominance rule of Bogaerts, Gocht, McCreesh & Nordström, "Certified
//! Dominance and Symmetry Breaking for Combinatorial Optimisation" (JAIR
//! 77, 2023): the symmetry block of a `--certify` run's proof.
//!
//! **The symmetry.** Conjugating the permutation by any σ ∈ S_n keeps
//! every rule and the total: the board `x'[a][b] = x[σ(a)][σ(b)]` (rows
//! and columns permuted alike) has the permutation `σ⁻¹πσ`, distinct rows
//! and the same values. Its witness maps each model variable to its image
//! ([`witness`]): `x[a][b]_ge<t> ↦ x[σa][σb]_ge<t>`, `p[i][j] ↦
//! p[σi][σj]`, `d[i][i'][k] ↦ d[σi][σi'][σk]` (the pair sorted),
//! `e[a][b]_<v> ↦ e[σa][σb]_<v>`; every
//! constraint of the model maps onto one of the model, so VeriPB proves
//! those goals syntactically.
//!
//! **The order.** The matrix `p` row-major (`p[0][1], p[0][2], …, p[1][0],
//! …`), a true literal at an earlier position smaller: `u ⪯ v ⇔ Σ_j
//! 2^(K−1−j)·(u_j − v_j) ≥ 0`, i.e. `(π(0), π(1), …)` compared
//! lexicographically, smaller images first. The canonical representative of
//! a cycle type (cycles as consecutive intervals `[s..i]`, each `s → s+1 →
//! … → i → s`, lengths non-decreasing) is the least permutation of its
//! conjugacy class.
//!
//! **The steps**, each clause with a fixed witness:
//! 1. `¬p[i][j]` for `j > i+1` (C9), row by row, by `dom` with the
//!    transposition `(i+1 j)`: rows before i map below i (the units already
//!    derived), so they and their images are unchanged, and row i's image
//!    becomes `i+1 < j`;
//! 2. each row's and column's "at least one" of the canonical matrix (the
//!    CNF's clauses) by RUP from the model's and the units;
//! 3. helper lemmas `H_s`: rows `0..s` sum their "at least one", columns
//!    `0..s` their "at most one": `Σ_{r ≥ s, c < s} ¬p[r][c] + Σ_{r < s, c
//!    ≥ s} p[r][c] ≥ s·(n−s)` (as many rows leave the first s as enter
//!    them), so when `p[s−1][s]` is false nothing from `s` on maps below s;
//!    with it, unit propagation lays out the two cycles of a C10 clause;
//! 4. each C10 clause `close[i][s] → ¬close[k][i+1]` (the cycle `[i+1..k]`
//!    shorter than `[s..i]`) by `dom` with the conjugation that swaps the
//!    two blocks (the shorter cycle first): rows before s are unchanged,
//!    rows `s..` agree until the shorter cycle closes, where the image
//!    maps to s, below the original's next position;
//! 5. each "no room" unit `¬close[i][s]` by RUP from the C10 clauses of
//!    `[s..i]` and column `i+1`'s "at least one";
//!
//! then the helper lemmas are deleted. Each `dom` step's goals (the order's
//! two and the model's) are autoproven by VeriPB.

use puzzlesat_encodings::dominance::{order_prelude, order_var, Big, ProofLines, SymmetryProof};
use puzzlesat_encodings::proof::{self, Coef, Constraint, PolSum, Ref, Step, Value, Witness};
use puzzlesat_encodings::Lit;

use super::encode::BoardMap;
use super::opb::{differ_name, ge_name, holds_name, p_name, permutation_ids, top, PermutationIds};
use super::partitions::CycleMatrix;

/// The VeriPB derivation of the canonical matrix's clauses (C9–C11) of
/// `map` from the model (see the module docs); `name` writes a CNF literal
/// as the proof does. `Err` if the map has no canonical matrix or its
/// literals are not the model's `p`.
pub fn cycles_proof(map: &BoardMap, name: &dyn Fn(Lit) -> String) -> Result<SymmetryProof, String> {
    let n = map.n;
    let m = map
        .cycles
        .as_ref()
        .ok_or("the board has no canonical cycle matrix")?;
    check_names(m, name)?;
    let order = MatrixOrder::new(n);
    let ids = permutation_ids(n);
    let mut block = ProofLines::default();
    // 1. C9: row i maps to i+1 or below
    for i in 0..n {
        for j in i + 2..n {
            let sigma = transposition(n, i + 1, j);
            let c = Constraint::clause([proof::Lit::new(&p_name(i, j), true)]);
            block.add_ids(Step::Dom(c, witness(n, &sigma), false), 1);
        }
    }
    // 2. the canonical matrix's rows and columns: at least one
    for lits in (0..n).map(|i| m.row(i)).chain((0..n).map(|j| m.column(j))) {
        block.add_ids(Step::Rup(terms(&lits, name), vec![]), 1);
        block.derived.push((lits, block.ids));
    }
    // 3. the helper lemmas
    let mut helpers = vec![];
    for s in 1..n {
        block.add_ids(balance(&ids, s).labelled(format!("h{s}")), 1);
        helpers.push(Ref::Label(format!("h{s}")));
    }
    // 4./5. C10
    for c in &m.c10 {
        let clause = c.clause(m);
        let line = match c.next_end {
            Some(k) => {
                let tau = swap_blocks(n, c.start, c.end, k);
                Step::Dom(terms(&clause, name), witness(n, &tau), false)
            }
            None => Step::Rup(terms(&clause, name), vec![]),
        };
        block.add_ids(line, 1);
        block.derived.push((clause, block.ids));
    }
    if !helpers.is_empty() {
        block.lines.push(Step::Del(helpers));
    }
    Ok(SymmetryProof {
        early: ProofLines::default(),
        prelude: order.prelude(),
        // over the model's permutation alone: before the encoding
        before: block,
        block: ProofLines::default(),
        objective_link: None,
    })
}

/// Checks that the canonical matrix's literals are the model's `p[i][j]`
/// (`next[i]` is `p[i][i+1]`, `close[i][s]` is `p[i][s]`).
fn check_names(m: &CycleMatrix, name: &dyn Fn(Lit) -> String) -> Result<(), String> {
    let mut pairs: Vec<(Lit, String)> = vec![];
    for (i, &l) in m.next.iter().enumerate() {
        pairs.push((l, p_name(i, i + 1)));
    }
    for (i, row) in m.close.iter().enumerate() {
        for (s, &l) in row.iter().enumerate() {
            pairs.push((l, p_name(i, s)));
        }
    }
    match pairs.into_iter().find(|(l, want)| name(*l) != *want) {
        None => Ok(()),
        Some((l, want)) => Err(format!(
            "the canonical matrix's literal {} is not the model's {want}",
            name(l)
        )),
    }
}

/// The lex order over the matrix `p`, row-major, true smaller.
struct MatrixOrder {
    /// (i, j) per position
    vars: Vec<(usize, usize)>,
}

impl MatrixOrder {
    fn new(n: usize) -> Self {
        MatrixOrder {
            vars: (0..n)
                .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
                .collect(),
        }
    }
    /// `def_order` and `load_order`: `Σ_j 2^(K−1−j)·(u_j − v_j) ≥ 0`.
    fn prelude(&self) -> Vec<Step> {
        let k = self.vars.len();
        let def = (0..k)
            .flat_map(|j| {
                let w = Big::pow2(k - 1 - j);
                [
                    (Coef::Signed(true, w.clone()), order_var("u", j)),
                    (Coef::Signed(false, w), order_var("v", j)),
                ]
            })
            .collect();
        let loaded = self
            .vars
            .iter()
            .map(|&(i, j)| proof::Lit::new(&p_name(i, j), false));
        order_prelude("cycles", def, loaded.collect())
    }
}

/// `+1 a +1 ~b … >= 1`.
fn terms(lits: &[Lit], name: &dyn Fn(Lit) -> String) -> Constraint {
    Constraint::clause(lits.iter().map(|&l| proof::Lit::from_text(name(l))))
}

/// The identity of 0..n with a and b swapped.
fn transposition(n: usize, a: usize, b: usize) -> Vec<usize> {
    let mut s: Vec<usize> = (0..n).collect();
    s.swap(a, b);
    s
}

/// The relabelling that puts the cycle `[i+1..k]` before `[s..i]`: the
/// new position `s+t` is the old `i+1+t` (t < k−i), the new `s+(k−i)+t`
/// the old `s+t` (t ≤ i−s).
fn swap_blocks(n: usize, s: usize, i: usize, k: usize) -> Vec<usize> {
    let b = k - i;
    let mut tau: Vec<usize> = (0..n).collect();
    for t in 0..b {
        tau[s + t] = i + 1 + t;
    }
    for t in 0..=i - s {
        tau[s + b + t] = s + t;
    }
    tau
}

/// `H_s` by `pol`: the model's "at least one" of rows `0..s` plus its "at
/// most one" of columns `0..s` (module docs, step 3).
fn balance(ids: &PermutationIds, s: usize) -> Step {
    let mut sum = PolSum::new();
    for r in 0..s {
        sum.add(Ref::Id(ids.rows[r] as u64));
    }
    for c in 0..s {
        sum.add(Ref::Id(ids.columns[c] as u64 + 1));
    }
    sum.step()
}

/// The witness of conjugation by σ (the new board's `x[a][b]` is the old
/// `x[σa][σb]`): each model variable that σ moves, `var -> image`.
pub fn witness(n: usize, sigma: &[usize]) -> Witness {
    let top = top(n);
    let mut out = vec![];
    let mut map = |from: String, to: String| {
        if from != to {
            out.push((proof::Var(from), Value::Lit(proof::Lit::from_text(to))));
        }
    };
    let s = |a: usize| sigma[a];
    for a in 0..n {
        for b in 0..n {
            for t in 2..=top {
                map(ge_name(a, b, t), ge_name(s(a), s(b), t));
            }
            if a != b {
                map(p_name(a, b), p_name(s(a), s(b)));
            }
            for v in 1..top {
                map(holds_name(a, b, v), holds_name(s(a), s(b), v));
            }
        }
    }
    for i in 0..n {
        for i2 in i + 1..n {
            for k in 0..n {
                let (a, b) = (s(i).min(s(i2)), s(i).max(s(i2)));
                map(differ_name(i, i2, k), differ_name(a, b, s(k)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_blocks_puts_the_shorter_cycle_first() {
        // [0..2] (length 3) then [3..4] (length 2), n = 6
        let tau = swap_blocks(6, 0, 2, 4);
        assert_eq!(tau, vec![3, 4, 0, 1, 2, 5]);
        // the permutation (0 1 2)(3 4) conjugated: τ⁻¹πτ = (0 1)(2 3 4)
        let pi = [1, 2, 0, 4, 3, 5];
        let mut inv = [0; 6];
        for (x, &y) in tau.iter().enumerate() {
            inv[y] = x;
        }
        let conj: Vec<usize> = (0..6).map(|x| inv[pi[tau[x]]]).collect();
        assert_eq!(conj, vec![1, 0, 3, 4, 2, 5]);
    }

    #[test]
    fn the_order_is_row_major_over_the_matrix() {
        let o = MatrixOrder::new(3);
        assert_eq!(o.vars, vec![(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]);
        let p = o.prelude();
        assert!(p[0].to_string().contains("+32 u0 -32 v0"), "{}", p[0]);
        assert_eq!(
            p.last().unwrap().to_string(),
            "load_order cycles p[1][2] p[1][3] p[2][1] p[2][3] p[3][1] p[3][2];"
        );
    }
}
