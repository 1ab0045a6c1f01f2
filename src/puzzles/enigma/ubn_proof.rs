//! The VeriPB derivation of the encoding's domain (the cells in `1..ub`,
//! ub the largest UBNVAL, where the model of [`super::opb`] states the
//! rules' `1..n²`) and of `--redundant ubnval` and `gcd` (the number of
//! values on the board is at most UBNVAL(π), Property 4 of Cambazard,
//! O'Sullivan & Smith, "A Constraint-based Approach to Enigma 1225", and
//! at most UBNVAL(π) − n₂·n_odd), with `--symmetry cycles`: the domain
//! ([`domain_proof`], steps 1–3) right after the block of
//! [`super::cycle_proof`], before anything that speaks of the encoding's
//! values; the clauses (step 4) after the blocks of [`super::occ_proof`],
//! over the encoding's definitions (UBNVAL's, n₂'s and n_odd's totalizers,
//! each output `⇔` a count of the canonical matrix's `close` literals).
//!
//! **Why it holds.** With π fixed, the cells split into the m(π) orbits of
//! `(k, i) ↦ (π(i), k)`; cells of one orbit are equal, so at most m(π)
//! distinct values appear, and by rule 3 they are 1..N: N ≤ m(π). The
//! orbits are ⌊a/2⌋ + (a mod 2) per cycle of length a and gcd(a, b) per
//! pair of cycles, so m(π) = UBNVAL(π) − Σ_pairs (min(a, b) − gcd(a, b)),
//! at most UBNVAL(π) − n₂·n_odd (a 2-cycle and an odd cycle: 2 − 1).
//!
//! **The steps**, with `e_{c,v}` the model's "cell c holds v", `g_{c,v}`
//! its `[x_c ≥ v]` and `u[v]` "some cell is at least v":
//! 1. the chain `u[v+1] → u[v]` (RUP: no cell ≥ v, so none ≥ v+1);
//! 2. per cell and value, `T_{c,v}`: `¬e_{c,1} + ¬g_{c,2} ≥ 1`, and for
//!    v ≥ 2 `g_{c,v} + ¬g_{c,v+1} + ¬e_{c,v} ≥ 2` (occ_proof's step 2);
//!    their sum over v = 1..m is `Σ_{v ≤ m} ¬e_{c,v} + ¬g_{c,m+1} ≥ m`:
//!    a cell holds at most one of 1..m or is above m;
//! 3. at each leaf Λ of occ_proof's tree over the canonical cycle types (π
//!    fixed, m = m(π) ≤ UBNVAL(π) ≤ ub), the pigeonhole `Λ → ¬u[m+1]`: per cell c
//!    and value v ≤ m, `Λ → (e_{c,v} → e_{r,v})` with r the
//!    representative of c's orbit (RUP: the orbit's cells agree on every
//!    `g`); then `C_v: Λ ∧ u[m+1] → some representative holds v` (v ≤ m,
//!    rule 3 with the chain) and `C_{m+1}: Λ ∧ u[m+1] → some
//!    representative is ≥ m+1` (RUP); the sum of the C's (m + 1 of them)
//!    and of the m representatives' `T` sums is `(m+1)·(¬Λ ∨ ¬u[m+1]) ≥
//!    1`, saturated the clause; then `Λ → ¬u[ub+1]` (RUP by the chain),
//!    and these meet by RUP up the tree in the unit `¬u[ub+1]`: no cell is
//!    above ub, which is the encoding's domain;
//! 4. each clause `u[K+1] → [UBNVAL ≥ K+1]` and `u[K+1] ∧ [n₂ ≥ a] ∧
//!    [n_odd ≥ b] → [UBNVAL ≥ K+1+a·b]` along the same tree: at a leaf the
//!    counts propagate from the fixed `close` literals, and where the
//!    head is false K+1 > m(π), so `¬u[K+1]` follows from the leaf's lemma
//!    and the chain (RUP); the leaves' clauses meet by RUP up the tree.

use puzzlesat_encodings::proof::{self, Op, PolSum};
use std::collections::HashSet;

use puzzlesat_encodings::dominance::{ProofLines, SymmetryProof};
use puzzlesat_encodings::Lit;

use super::encode::BoardMap;
use super::model::max_ubnval;
use super::occ_proof::{along, counters_and_tree, cycle_tree, label, orbits, rup, t_step, Node};
use super::opb::{ge_name, holds_name, top, used_name};

/// The label of `T_{c,v}`.
pub(super) fn t_label(c: usize, v: usize) -> String {
    format!("ubn_t{c}_{v}")
}

/// Writes `T_{c,v}` (label [`t_label`]) once.
pub(super) fn ensure_t(
    n: usize,
    c: usize,
    v: usize,
    done: &mut HashSet<(usize, usize)>,
    b: &mut ProofLines,
) {
    if !done.insert((c, v)) {
        return;
    }
    t_step(n, c, v, t_label(c, v), b);
}

/// Writes each leaf's lemma `Λ → ¬u[m+1]` and its `Λ → ¬u[ub+1]`, and
/// these up the tree to `path → ¬u[ub+1]` (see the module docs).
fn lemmas(
    node: &Node,
    (n, ub): (usize, usize),
    path: &mut Vec<proof::Lit>,
    name: &dyn Fn(Lit) -> String,
    done: &mut HashSet<(usize, usize)>,
    b: &mut ProofLines,
) {
    let above_ub = !proof::Lit::from_text(used_name(ub + 1));
    let mut head = path.clone();
    head.push(above_ub);
    match node {
        Node::Branch(l, yes, no) => {
            for (child, lit) in [(yes, *l), (no, !*l)] {
                path.push(!proof::Lit::from_text(name(lit)));
                lemmas(child, (n, ub), path, name, done, b);
                path.pop();
            }
            b.add_ids(rup(&head), 1);
        }
        Node::Leaf(pi) => {
            let orbits = orbits(pi);
            let m = orbits.len();
            let holds = |c: usize, v: usize| proof::Lit::from_text(holds_name(c / n, c % n, v));
            let reps: Vec<usize> = orbits.iter().map(|o| o[0]).collect();
            let not_used = !proof::Lit::from_text(used_name(m + 1));
            // cells of an orbit hold what its representative holds
            for o in &orbits {
                for &c in &o[1..] {
                    for v in 1..=m {
                        let mut cl = path.clone();
                        cl.extend([!holds(c, v), holds(o[0], v)]);
                        b.add_ids(rup(&cl), 1);
                    }
                }
            }
            // C_v: u[m+1] → some representative holds v (v ≤ m), is ≥ m+1
            let mut pol = PolSum::new();
            for v in 1..=m + 1 {
                let mut cl = path.clone();
                cl.push(not_used.clone());
                cl.extend(reps.iter().map(|&r| {
                    if v <= m {
                        holds(r, v)
                    } else {
                        proof::Lit::from_text(ge_name(r / n, r % n, v))
                    }
                }));
                let c_v = format!("ubn_c{v}");
                b.add_ids(rup(&cl).labelled(c_v.clone()), 1);
                pol.add(label(&c_v));
            }
            // each representative: at most one of "holds 1", …, "holds m",
            // "≥ m+1"
            for &r in &reps {
                for v in 1..=m {
                    ensure_t(n, r, v, done, b);
                    pol.add(label(&t_label(r, v)));
                }
            }
            pol.then(Op::Sat);
            b.add_ids(pol.step(), 1);
            let mut cl = path.clone();
            cl.push(not_used);
            b.add_ids(rup(&cl), 1);
            if m < ub {
                b.add_ids(rup(&head), 1);
            }
        }
    }
}

/// The derivation of the encoding's domain `1..ub` (steps 1–3 of the
/// module docs, ending in the unit `¬u[ub+1]`) from the model's `1..n²`,
/// over the canonical matrix of `map` (`name` writes a CNF literal as the
/// proof does): nothing if ub is the model's top already. `Err` if the
/// map has no canonical matrix.
pub fn domain_proof(map: &BoardMap, name: &dyn Fn(Lit) -> String) -> Result<ProofLines, String> {
    let n = map.n;
    let ub = max_ubnval(n).max(1);
    let mut b = ProofLines::default();
    if ub >= top(n) {
        return Ok(b);
    }
    let root = cycle_tree(map, "the cells' domain's proof")?;
    let used_lit = |v: usize| proof::Lit::from_text(used_name(v));
    // 1. the chain u[v+1] → u[v]
    for v in 2..=ub {
        b.add_ids(rup(&[!used_lit(v + 1), used_lit(v)]), 1);
    }
    // 2.–3. the leaves' lemmas, and ¬u[ub+1] up the tree
    lemmas(
        &root,
        (n, ub),
        &mut vec![],
        name,
        &mut HashSet::new(),
        &mut b,
    );
    Ok(b)
}

/// Appends the derivation of the `ubnval` (and, if posted, `gcd`) clauses
/// of `map` (see the module docs) to `proof`'s block, after occ_proof's;
/// `name` writes a CNF literal as the proof does. `Err` if the map has no
/// canonical matrix or no ubnval literals.
pub fn ubnval_proof(
    map: &BoardMap,
    name: &dyn Fn(Lit) -> String,
    proof: &mut SymmetryProof,
) -> Result<(), String> {
    // step 4, after the encoding (1–3 are domain_proof's, before it)
    let block = &mut proof.block;
    let n = map.n;
    let (counters, root) = counters_and_tree(map, "the ubnval clauses' proof")?;
    let lits = counters
        .ubnval
        .as_ref()
        .ok_or("the board has no ubnval clauses")?;
    let ub = max_ubnval(n).max(1);
    // 4. the clauses, as the encoder posts them
    let used = &counters.used;
    let mut clauses: Vec<Vec<Lit>> = vec![];
    for k in 1..ub {
        let mut cl = vec![!used[k + 1]];
        cl.extend(lits.ubnval.get(k).copied());
        clauses.push(cl);
    }
    for k in 1..ub {
        for (a, &ta) in lits.n2.iter().enumerate() {
            for (b, &tb) in lits.nodd.iter().enumerate() {
                let mut cl = vec![!used[k + 1], !ta, !tb];
                cl.extend(lits.ubnval.get(k + (a + 1) * (b + 1)).copied());
                clauses.push(cl);
            }
        }
    }
    for cl in clauses {
        let goal: Vec<proof::Lit> = cl.iter().map(|&l| proof::Lit::from_text(name(l))).collect();
        let leaf = |path: &[proof::Lit], b: &mut ProofLines| {
            let mut c = path.to_vec();
            c.extend(goal.iter().cloned());
            b.add_ids(rup(&c), 1);
        };
        along(&root, &mut vec![], &goal, name, &leaf, block);
        block.derived.push((cl, block.ids));
    }
    Ok(())
}
