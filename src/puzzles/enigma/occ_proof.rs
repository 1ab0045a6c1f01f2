//! The VeriPB derivation of `--redundant occ3` (every value on the board
//! occurs at least 3 times, Properties 1–2 of Cambazard, O'Sullivan &
//! Smith, "A Constraint-based Approach to Enigma 1225") from the PB model
//! of [`super::opb`], with `--symmetry cycles`: appended to the block of
//! [`super::cycle_proof`], after the encoding's definitions (the counters'
//! outputs `[c_v ≥ t] ⇔ Σ_cells [x ≥ v] ≥ t`, whose halves it sums).
//!
//! **Why it holds.** Rule 2 with the permutation π makes the cells `(k, i)`
//! and `f(k, i) = (π(i), k)` equal; π has no fixed point, so every orbit of
//! f has at least 3 cells, and a value on the board fills whole orbits.
//! With the canonical matrix, π is fixed by its cycle type.
//!
//! **The steps**, with `e_c` the model's "cell c holds v" and `g_c` its
//! "cell c is at least v" (`[x_c ≥ v]`), N = n² cells:
//! 1. per value v < ub, a proof variable `z_v ⇔ Σ_c e_c ≥ 3` by `red`
//!    (its two halves `Z⁺: z_v ⇒ Σ e ≥ 3`, `Z⁻: ¬z_v ⇒ Σ ¬e ≥ N − 2`);
//! 2. `G_v: Σ_c (g_c + ¬[x_c ≥ v+1]) + 3·¬z_v ≥ N + 3` ("z_v → the cells
//!    at least v outnumber those at least v+1 by 3") by `pol`: `Z⁺` plus,
//!    per cell, `g + ¬[x ≥ v+1] + ¬e ≥ 2` (the model's clauses `e → g`,
//!    `e → ¬[x ≥ v+1]` and the order clause, each restated by RUP, summed
//!    and divided by 2);
//! 3. `K_v: u[v+1] → z_v` along a decision tree over the canonical matrix
//!    (row i closes the current cycle `[s..i]` or not; the units of the
//!    cycle block cut the branches without room): at a leaf Λ (a cycle
//!    type, every `p` literal then fixed by propagation), per cell
//!    `Λ → z_v ∨ ¬e_c` is RUP (e_c spreads over c's orbit of ≥ 3 cells,
//!    against `Z⁻`), then `Λ → (u[v+1] → z_v)` is RUP by rule 3
//!    (`u[v+1] → some cell holds v`); the leaves' clauses meet by RUP up
//!    the tree;
//! 4. each occurrence clause `[c_{v+1} ≥ t] → [c_v ≥ t + 3]` (t ≥ 1): the
//!    sum of the counters' halves (`[c_{v+1} ≥ t] ⇒ Σ [x ≥ v+1] ≥ t`,
//!    `¬[c_v ≥ t+3] ⇒ Σ ¬[x ≥ v] ≥ N − t − 2`) and `G_v`, saturated, is
//!    the clause with `¬z_v`, and the clause is then RUP by `K_v` (with
//!    `[c_{v+1} ≥ t]`, some cell is at least v+1, so u[v+1] holds); for
//!    v = 1 (no counter `c_1 = N`) and past the counter's end the clause
//!    is the unit `¬[c_{v+1} ≥ t]`, the same way;
//! 5. each `u[v] → [c_v ≥ 3]` (t = 0, the top value too) along the same
//!    tree: per cell `Λ → [c_v ≥ 3] ∨ ¬g_c` is RUP against
//!    `¬[c_v ≥ 3] ⇒ Σ ¬g ≥ N − 2`, then rule 3's `u[v] → some g_c`;
//! 6. the objective's link: the CNF maximises `Σ_v Σ_t [c_v ≥ t]`, the
//!    model `Σ_v Σ_c g_c`. Per counter, with `y_t = [c_v ≥ t]` and `S =
//!    Σ_c g_c`, `R_k: Σ_{t ≥ k} y_t + Σ_c ¬g_c ≥ N − k + 1` ("S − k + 1 ≤
//!    the outputs from k on") from `R_N`, the half `¬y_N ⇒ S ≤ N − 1`, down
//!    to `R_1` (`Σ_t y_t ≥ S`): `R_k = ((N−k)·R_{k+1} + H_k) / (N−k+1)`
//!    with `H_k: (N−k+1)·y_k + Σ_c ¬g_c ≥ N − k + 1` (`¬y_k ⇒ S ≤ k − 1`),
//!    the division rounding the degree `(N−k)² + (N−k) + 1` up to
//!    `N − k + 1`. Their sum is the link the optimum's improving
//!    constraint (over the model's g) gets added to, so that the CNF's
//!    bound on its objective follows.

use puzzlesat_encodings::dominance::{ProofLines, SymmetryProof};
use puzzlesat_encodings::proof::{self, Big, Constraint, Op, PolSum, Ref, Step, Value, Var};
use puzzlesat_encodings::provenance::Linear;
use puzzlesat_encodings::Lit;

use super::encode::{BoardMap, Counters};
use super::model::max_ubnval;
use super::opb::{ge_name, holds_name, used_name};

/// The name of the proof variable `z_v` ("at least 3 cells hold v").
fn z_name(v: usize) -> String {
    format!("occ3_z[{v}]")
}

/// The decision tree over the canonical matrix: a branch on "row i closes
/// the cycle `[s..i]`" (`close[i][s]`), or a leaf with its permutation.
pub(super) enum Node {
    Leaf(Vec<usize>),
    Branch(Lit, Box<Node>, Box<Node>),
}

/// What the occurrence and UBNVAL derivations start from: the board's
/// counters and the decision tree over its canonical matrix. `Err` (saying
/// for which `proof`) if the map has no canonical matrix, no counters, or
/// no canonical cycle type.
pub(super) fn counters_and_tree<'a>(
    map: &'a BoardMap,
    proof: &str,
) -> Result<(&'a Counters, Node), String> {
    let root = cycle_tree(map, proof)?;
    let counters = map
        .counters
        .as_ref()
        .ok_or("the board has no occurrence counters")?;
    Ok((counters, root))
}

/// The decision tree over the board's canonical matrix; `Err` (saying for
/// which `proof`) if the map has none or no canonical cycle type fits.
pub(super) fn cycle_tree(map: &BoardMap, proof: &str) -> Result<Node, String> {
    let m = map
        .cycles
        .as_ref()
        .ok_or(format!("{proof} needs the canonical cycle matrix"))?;
    tree(&m.close, map.n, 0, 0, 0, &mut vec![0; map.n]).ok_or("no canonical cycle type".into())
}

/// The tree from row i, the current cycle starting at s, the previous
/// cycle of length `prev`, `pi` the images so far; None if no canonical
/// cycle type fits.
pub(super) fn tree(
    close: &[Vec<Lit>],
    n: usize,
    i: usize,
    s: usize,
    prev: usize,
    pi: &mut Vec<usize>,
) -> Option<Node> {
    let len = i - s + 1;
    let rest = n - 1 - i;
    let closed = (len >= 2 && len >= prev && (rest == 0 || rest >= len))
        .then(|| {
            pi[i] = s;
            if rest == 0 {
                Some(Node::Leaf(pi.clone()))
            } else {
                tree(close, n, i + 1, i + 1, len, pi)
            }
        })
        .flatten();
    let open = (rest > 0)
        .then(|| {
            pi[i] = i + 1;
            tree(close, n, i + 1, s, prev, pi)
        })
        .flatten();
    match (closed, open) {
        (Some(a), Some(b)) => Some(Node::Branch(close[i][s], Box::new(a), Box::new(b))),
        (a, b) => a.or(b),
    }
}

/// The orbits of the cells (row-major indices) under `(k, i) ↦ (π(i), k)`.
pub(super) fn orbits(pi: &[usize]) -> Vec<Vec<usize>> {
    let n = pi.len();
    let mut seen = vec![false; n * n];
    let mut out = vec![];
    for c in 0..n * n {
        let mut orbit = vec![];
        let mut d = c;
        while !seen[d] {
            seen[d] = true;
            orbit.push(d);
            let (k, i) = (d / n, d % n);
            d = pi[i] * n + k;
        }
        if !orbit.is_empty() {
            out.push(orbit);
        }
    }
    out
}

/// The RUP step of the clause over `lits`.
pub(super) fn rup(lits: &[proof::Lit]) -> Step {
    Step::rup_clause(lits.iter().cloned())
}

/// Writes, along `node`, the clause `path ∨ goal` (path: the negated
/// decisions so far), each leaf's by `leaf`.
pub(super) fn along(
    node: &Node,
    path: &mut Vec<proof::Lit>,
    goal: &[proof::Lit],
    name: &dyn Fn(Lit) -> String,
    leaf: &dyn Fn(&[proof::Lit], &mut ProofLines),
    block: &mut ProofLines,
) {
    match node {
        Node::Leaf(_) => leaf(path, block),
        Node::Branch(l, yes, no) => {
            for (child, lit) in [(yes, *l), (no, !*l)] {
                path.push(!proof::Lit::from_text(name(lit)));
                along(child, path, goal, name, leaf, block);
                path.pop();
            }
            let mut c = path.clone();
            c.extend(goal.iter().cloned());
            block.add_ids(rup(&c), 1);
        }
    }
}

/// Appends the derivation of the occurrence clauses of `map` (see the
/// module docs) to `block`, after the canonical matrix's; `name` writes a
/// CNF literal as the proof does. `Err` if the map has no canonical
/// matrix or no counters.
pub fn occ3_proof(
    map: &BoardMap,
    name: &dyn Fn(Lit) -> String,
    proof: &mut SymmetryProof,
) -> Result<(), String> {
    // steps 1–3 over the model alone (before the encoding), 4–5 after
    let (before, block) = (&mut proof.before, &mut proof.block);
    let n = map.n;
    let ub = max_ubnval(n).max(1);
    let cells = n * n;
    if n < 2 || cells < 3 {
        return Err(format!("no occurrence proof for n = {n}"));
    }
    let (counters, root) = counters_and_tree(map, "the occurrence clauses' proof")?;
    // every orbit of every leaf has ≥ 3 cells
    let mut stack = vec![&root];
    while let Some(node) = stack.pop() {
        match node {
            Node::Leaf(pi) => {
                if let Some(o) = orbits(pi).iter().find(|o| o.len() < 3) {
                    return Err(format!("an orbit of {} cells ({pi:?})", o.len()));
                }
            }
            Node::Branch(_, a, b) => stack.extend([&**a, &**b]),
        }
    }
    let lit = |l: Lit| proof::Lit::from_text(name(l));
    let g = |c: usize, v: usize| proof::Lit::from_text(ge_name(c / n, c % n, v));
    let e = |c: usize, v: usize| proof::Lit::from_text(holds_name(c / n, c % n, v));
    let ge = |v: usize, t: usize| counters.output(v, t);
    let n_minus_2 = cells - 2;
    // 1.–3. per value v < ub: z_v, G_v, K_v
    for v in 1..ub {
        let z = z_name(v);
        let zl = proof::Lit::from_text(z.clone());
        let es: Vec<proof::Lit> = (0..cells).map(|c| e(c, v)).collect();
        let ones = |negate: bool| {
            es.iter()
                .map(move |l| (1, if negate { !l.clone() } else { l.clone() }))
        };
        let zp = Constraint::at_least(ones(false).chain([(3, !zl.clone())]), 3);
        let off = vec![(Var(z.clone()), Value::False)];
        before.add_ids(Step::Red(zp, off, false).labelled("occ3_zp"), 1);
        let zm = Constraint::at_least(
            ones(true).chain([(n_minus_2 as u64, zl.clone())]),
            n_minus_2 as i64,
        );
        let on = vec![(Var(z.clone()), Value::True)];
        before.add_ids(Step::Red(zm, on, false), 1);
        // G_v
        let mut pol = PolSum::new();
        pol.add(label("occ3_zp"));
        for c in 0..es.len() {
            let t = format!("occ3_t{c}");
            t_step(n, c, v, t.clone(), before);
            pol.add(label(&t));
        }
        before.add_ids(pol.step().labelled(format!("occ3_g{v}")), 1);
        // K_v
        let u = proof::Lit::from_text(used_name(v + 1));
        let goal = vec![!u, zl.clone()];
        let leaf = |path: &[proof::Lit], b: &mut ProofLines| {
            for e_c in &es {
                let mut cl = path.to_vec();
                cl.extend([zl.clone(), !e_c.clone()]);
                b.add_ids(rup(&cl), 1);
            }
            let mut cl = path.to_vec();
            cl.extend(goal.iter().cloned());
            b.add_ids(rup(&cl), 1);
        };
        along(&root, &mut vec![], &goal, name, &leaf, before);
        // 4. the clauses [c_{v+1} ≥ t] → [c_v ≥ t+3]
        for t in 1..=cells {
            let Some(p) = ge(v + 1, t) else { break };
            let q = if v >= 2 { ge(v, t + 3) } else { None };
            if v == 1 && t + 3 <= cells {
                continue; // [c_1 ≥ t+3] is true: the encoding's clause has the true literal
            }
            let mut pol = PolSum::new();
            pol.add(ProofLines::half(!lit(p)));
            if let Some(q) = q {
                pol.add(ProofLines::half(lit(q)));
            }
            pol.add(label(&format!("occ3_g{v}")));
            if q.is_none() && v >= 2 {
                for c in 0..cells {
                    pol.then(Op::Weaken(g(c, v).var()));
                }
            }
            pol.then(Op::Sat);
            block.add_ids(pol.step(), 1);
            let mut lits = vec![!p];
            lits.extend(q);
            let names: Vec<proof::Lit> = lits.iter().map(|&l| lit(l)).collect();
            block.add_ids(rup(&names), 1);
            block.derived.push((lits, block.ids));
        }
    }
    // 5. u[v] → [c_v ≥ 3]
    for v in 2..=ub {
        let Some(q) = ge(v, 3) else { continue };
        let qn = lit(q);
        let u = proof::Lit::from_text(used_name(v));
        let goal = vec![!u, qn.clone()];
        let leaf = |path: &[proof::Lit], b: &mut ProofLines| {
            for c in 0..cells {
                let mut cl = path.to_vec();
                cl.extend([qn.clone(), !g(c, v)]);
                b.add_ids(rup(&cl), 1);
            }
            let mut cl = path.to_vec();
            cl.extend(goal.iter().cloned());
            b.add_ids(rup(&cl), 1);
        };
        along(&root, &mut vec![], &goal, name, &leaf, block);
        block.derived.push((vec![!counters.used[v], q], block.ids));
    }
    Ok(())
}

/// The reference to the constraint labelled `name`.
/// `T_{c,v}`, labelled `name`: `¬e_{c,1} + ¬g_{c,2} ≥ 1` at v = 1, else
/// `g_{c,v} + ¬g_{c,v+1} + ¬e_{c,v} ≥ 2` (cell c holds v, `g` its order
/// literals), the sum of the three clauses of `e_{c,v}`'s meaning divided by
/// 2: per cell, "holds v" counts as `[x ≥ v] − [x ≥ v+1]`.
pub(super) fn t_step(n: usize, c: usize, v: usize, name: String, b: &mut ProofLines) {
    let e = proof::Lit::from_text(holds_name(c / n, c % n, v));
    let up = proof::Lit::from_text(ge_name(c / n, c % n, v + 1));
    if v == 1 {
        b.add_ids(rup(&[!e, !up]).labelled(name), 1);
        return;
    }
    let g = proof::Lit::from_text(ge_name(c / n, c % n, v));
    b.add_ids(rup(&[!e.clone(), g.clone()]).labelled("t_a"), 1);
    b.add_ids(rup(&[!e, !up.clone()]).labelled("t_b"), 1);
    b.add_ids(rup(&[!up, g]).labelled("t_c"), 1);
    let mut sum = PolSum::new();
    sum.add(label("t_a"))
        .add(label("t_b"))
        .add(label("t_c"))
        .then(Op::Div(2));
    b.add_ids(sum.step().labelled(name), 1);
}

pub(super) fn label(name: &str) -> Ref {
    Ref::Label(name.to_string())
}

/// Appends the staircase's units and the objective's link (steps 5b and
/// 6 of the module docs) to `proof`'s block, after the occurrence clauses
/// and any dominance block (whose clauses the staircase's RUP steps go
/// along); `name` writes a CNF literal as the proof does.
pub fn staircase_and_link(
    map: &BoardMap,
    name: &dyn Fn(Lit) -> String,
    proof: &mut SymmetryProof,
) -> Result<(), String> {
    let block = &mut proof.block;
    let n = map.n;
    let ub = max_ubnval(n).max(1);
    let cells = n * n;
    let (counters, _) = counters_and_tree(map, "the staircase's proof")?;
    let lit = |l: Lit| proof::Lit::from_text(name(l));
    let ge = |v: usize, t: usize| counters.output(v, t);
    // 5b. `--redundant staircase`: the outputs [c_v ≥ t], t > cap_v, are
    // false: by RUP along the occurrence clauses [c_v ≥ t] → [c_{v−1} ≥
    // t+3] → … down to the unit ¬[c_2 ≥ t'] (t' + 3 > N)
    let mut removed: Vec<(usize, usize)> = vec![];
    for v in 2..=ub {
        let cap = counters.cap.get(v).copied().unwrap_or(cells);
        for t in cap + 1..=cells {
            let Some(y) = ge(v, t) else { break };
            block.add_ids(rup(&[!lit(y)]).labelled(format!("occ3_u{v}_{t}")), 1);
            block.derived.push((vec![!y], block.ids));
            removed.push((v, t));
        }
    }
    // 6. the objective's link: Σ_t [c_v ≥ t] ≥ Σ_c [x_c ≥ v] per counter
    // (the outputs the staircase removes cancelled by their units)
    let mut link = vec![];
    let mut sum = PolSum::new();
    for v in 2..=ub {
        let y = &counters.ge[v];
        if y.len() != cells {
            return Err(format!(
                "the counter of value {v} has {} outputs, not {cells}",
                y.len()
            ));
        }
        for k in (1..=cells).rev() {
            let h = ProofLines::half(lit(y[k - 1]));
            let mut r = PolSum::new();
            if k == cells {
                r.add(h);
            } else {
                r.add_scaled(label("occ3_r"), Big::from_u64((cells - k) as u64))
                    .add(h)
                    .then(Op::Div((cells - k + 1) as u64));
            }
            block.add_ids(r.step().labelled("occ3_r"), 1);
        }
        let mut r = PolSum::new();
        r.add(label("occ3_r"));
        for (_, t) in removed.iter().filter(|&&(w, _)| w == v) {
            r.add(label(&format!("occ3_u{v}_{t}")));
        }
        block.add_ids(r.step().labelled(format!("occ3_r{v}")), 1);
        sum.add(label(&format!("occ3_r{v}")));
        link.extend(
            y.iter()
                .enumerate()
                .filter(|&(t, _)| !removed.contains(&(v, t + 1)))
                .map(|(_, &l)| (1, l)),
        );
        link.extend(map.x.iter().map(|xc| (1, !xc.ge(v as i64))));
    }
    if ub >= 2 {
        block.add_ids(sum.step().labelled("occ3_obj"), 1);
        proof.objective_link = Some((
            Ref::Label("occ3_obj".to_string()),
            Linear::at_least(link, ((ub - 1) * cells) as i64),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orbit_of_a_derangement_has_three_cells() {
        // (0 1)(2 3): 16 cells in orbits of 4 and 8... at least 3 each
        let o = orbits(&[1, 0, 3, 2]);
        assert_eq!(o.iter().map(Vec::len).sum::<usize>(), 16);
        assert!(o.iter().all(|o| o.len() >= 3), "{o:?}");
        // a 2-cycle on n = 2: the diagonal orbit (0,0) → (1,0) → (1,1)
        // → (0,1) → (0,0) has 4 cells
        assert_eq!(orbits(&[1, 0]), vec![vec![0, 2, 3, 1]]);
    }
}
