//! The VeriPB derivation of `--dominance counts` and `orbits12` (a value
//! above the number S_T of orbits of fewer than T cells occurs at least T
//! times, T = 4, 6, 12; Cambazard, O'Sullivan & Smith, "A Constraint-based
//! Approach to Enigma 1225") from the PB model of [`super::opb`], with
//! `--symmetry cycles` and `--redundant occ3`, by the dominance rule of
//! Bogaerts, Gocht, McCreesh & Nordström, "Certified Dominance and
//! Symmetry Breaking for Combinatorial Optimisation" (JAIR 77, 2023).
//!
//! **Why it holds.** Swapping the values v and v+1 on a board keeps every
//! rule (rule 1 and rule 2 speak of equal and different cells, rule 3 of
//! the values used, and with v+1 on the board so is v) and changes the
//! total by `occ_v − occ_{v+1}`. So an optimal board can be taken with
//! `occ_1 ≤ occ_2 ≤ … ≤ occ_K`. A value occurring fewer than T times fills
//! only orbits of fewer than T cells, at least one; with the counts
//! ordered, values 1..v all do, on distinct orbits, so v ≤ S_T.
//!
//! **The steps**, with `E_{c,w}` "cell c holds w" (the model's
//! `e[i][j]_<w>`, w ≤ ub, below the model's top n²), `G_{c,t}` its `[x_c ≥ t]`,
//! `u[w]` "some cell is at least w", N = n² cells, after the blocks of
//! [`super::cycle_proof`], [`super::occ_proof`] and [`super::ubn_proof`]
//! (whose domain block makes every cell at most ub):
//! 1. the cycle order is unloaded (`load_order;`): from here a `dom` step's
//!    witness must make the objective strictly better;
//! 2. `u[w+1] → u[w]` and `L_w: u[w] → ∨_c E_{c,w}` (RUP through rule 3);
//! 3. per v < ub, `D_v: u[v+1] → Σ_c E_{c,v} ≤ Σ_c E_{c,v+1}` by `dom` with
//!    the swap of v and v+1 as witness: `E_{c,v} ↦ E_{c,v+1}`, `E_{c,v+1} ↦
//!    E_{c,v}`, `G_{c,v+1} ↦ s_c` where the proof variable `s_c ⇔ G_{c,v+2} ∨
//!    E_{c,v}` ("after the swap, c is at least v+1") is introduced by `red`.
//!    The model's constraints map to ones unit propagation proves; the
//!    objective's goal (Σ s_c − Σ G_{c,v+1} ≥ 1, that is `occ_v − occ_{v+1}
//!    ≥ 1`) is a `pol` sum of the negated `D_v`, the `s_c` halves and the
//!    model's `G_{c,v+1} → G_{c,v+2} ∨ E_{c,v+1}`;
//! 4. per threshold T: `f_w ⇔ Σ_c E_{c,w} ≥ T` by `red`, and the chain
//!    `u[w+1] ∧ f_w → f_{w+1}` (a `pol` sum of `D_w` and the halves);
//! 5. at each leaf Λ of occ_proof's tree (π fixed; R the representatives
//!    of the m orbits of fewer than T cells): per value w ≤ m+1 and cell,
//!    `Λ → (E_{c,w} → E_{r,w})` in a small orbit and `Λ ∧ ¬f_w → ¬E_{c,w}`
//!    in a large one (RUP); then the pigeonhole `Λ ∧ u[m+1] → f_{m+1}`,
//!    as in ubn_proof: values 1..m each on a representative, m+1 on one at
//!    least m+1, each representative at most one of them;
//! 6. along the tree, `W_v: [S_T ≥ v] ∨ ¬u[v] ∨ f_v` (RUP at each leaf:
//!    the count propagates, or the chain reaches the leaf's lemma);
//! 7. each dominance clause `[S_T ≥ v] ∨ ¬[c_{v+1} ≥ t] ∨ [c_v ≥ t+T]`:
//!    the counters' halves and `f_v ⇒ Σ G_{c,v} − Σ G_{c,v+1} ≥ T`,
//!    saturated, give it with `¬f_v`, and `W_v` removes that (RUP).

use puzzlesat_encodings::proof::{self, Big, Constraint, Op, PolSum, Ref, Step, Value, Witness};
use std::collections::HashSet;

use puzzlesat_encodings::dominance::{ProofLines, SymmetryProof};
use puzzlesat_encodings::Lit;

use super::encode::BoardMap;
use super::model::max_ubnval;
use super::occ_proof::{along, counters_and_tree, label, orbits, rup, Node};
use super::opb::{ge_name, holds_name, top, used_name};
use super::ubn_proof::{ensure_t, t_label};

/// The proof's names for one board: the encoding's values 1..ub, the
/// model's 1..top.
struct Names {
    n: usize,
    ub: usize,
    top: usize,
}

impl Names {
    /// "cell c holds w" (w = top: "cell c is at least top").
    fn holds(&self, c: usize, w: usize) -> proof::Lit {
        proof::Lit::from_text(if w < self.top {
            holds_name(c / self.n, c % self.n, w)
        } else {
            ge_name(c / self.n, c % self.n, w)
        })
    }
    /// `[x_c ≥ t]`, t = 2..top.
    fn ge(&self, c: usize, t: usize) -> proof::Lit {
        proof::Lit::from_text(ge_name(c / self.n, c % self.n, t))
    }
    /// the swap's "after it, cell c is at least v+1"
    fn swapped(&self, v: usize, c: usize) -> proof::Lit {
        proof::Lit::from_text(format!("swap{v}[{}][{}]", c / self.n + 1, c % self.n + 1))
    }
    /// `f_w` of threshold T
    fn often(&self, threshold: usize, w: usize) -> proof::Lit {
        proof::Lit::from_text(format!("occ{threshold}_f[{w}]"))
    }
    /// `u[w]`
    fn used(&self, w: usize) -> proof::Lit {
        proof::Lit::from_text(used_name(w))
    }
}

/// `+1 l` for each literal.
fn ones(lits: impl IntoIterator<Item = proof::Lit>) -> impl Iterator<Item = (u64, proof::Lit)> {
    lits.into_iter().map(|l| (1, l))
}

/// Appends the derivation of the dominance clauses of `map` (see the
/// module docs) to `proof`'s block; `name` writes a CNF literal as the
/// proof does. `Err` if the map has no canonical matrix or no counters.
pub fn dominance_proof(
    map: &BoardMap,
    name: &dyn Fn(Lit) -> String,
    proof: &mut SymmetryProof,
) -> Result<(), String> {
    let n = map.n;
    let ub = max_ubnval(n).max(1);
    let cells = n * n;
    let (counters, root) = counters_and_tree(map, "the dominance clauses' proof")?;
    if ub < 2 || counters.dominance_clauses.is_empty() {
        return Ok(()); // nothing to derive (n ≤ 2)
    }
    let at = Names { n, ub, top: top(n) };
    swaps(&at, &mut proof.early);
    // steps 4–5 and each value's G over the model alone (before the
    // encoding), 6–7 after
    let (before, block) = (&mut proof.before, &mut proof.block);
    // 4.–7. per threshold
    let mut done = HashSet::new();
    for (threshold, small) in &counters.dominance {
        let tt = *threshold;
        let f = |w: usize| at.often(tt, w);
        // 4. f_w and the chain
        for w in 1..=ub {
            let es = || (0..cells).map(|c| at.holds(c, w));
            let fw = f(w);
            let plus =
                Constraint::at_least(ones(es()).chain([(tt as u64, !fw.clone())]), tt as i64);
            let off = vec![(fw.var(), Value::False)];
            before.add_ids(
                Step::Red(plus, off, false).labelled(format!("fp{tt}_{w}")),
                1,
            );
            // ¬f_w ⇒ Σ ≤ T − 1: nothing to say when T exceeds the cells
            // (f_w is then false: the first half propagates it)
            if tt <= cells {
                let k = cells - tt + 1;
                let minus = Constraint::at_least(
                    ones(es().map(|e| !e)).chain([(k as u64, fw.clone())]),
                    k as i64,
                );
                let on = vec![(fw.var(), Value::True)];
                before.add_ids(
                    Step::Red(minus, on, false).labelled(format!("fm{tt}_{w}")),
                    1,
                );
            }
        }
        for w in 1..ub {
            let step = if tt <= cells {
                let mut pol = PolSum::new();
                pol.add(label(&format!("fm{tt}_{}", w + 1)))
                    .add(label(&format!("dom_d{w}")))
                    .add(label(&format!("fp{tt}_{w}")))
                    .then(Op::Sat);
                pol.step()
            } else {
                rup(&[!at.used(w + 1), !f(w), f(w + 1)])
            };
            before.add_ids(step, 1);
        }
        // 5. the leaves' lemmas
        leaf_lemmas(&root, &at, tt, &mut vec![], name, &mut done, before);
        // 6.–7. W_v, then each clause of value v
        for v in 1..=ub {
            let clauses: Vec<&Vec<Lit>> = counters
                .dominance_clauses
                .iter()
                .filter(|(t, w, _)| *t == tt && *w == v)
                .map(|(_, _, c)| c)
                .collect();
            if clauses.is_empty() {
                continue;
            }
            let mut goal: Vec<proof::Lit> = small
                .get(v - 1)
                .map(|&l| proof::Lit::from_text(name(l)))
                .into_iter()
                .collect();
            goal.extend([!at.used(v), f(v)]);
            let leaf = |path: &[proof::Lit], b: &mut ProofLines| {
                let mut c = path.to_vec();
                c.extend(goal.iter().cloned());
                b.add_ids(rup(&c), 1);
            };
            along(&root, &mut vec![], &goal, name, &leaf, block);
            // G_v: f_v ⇒ Σ_c (G_{c,v} + ¬G_{c,v+1}) ≥ N + T (v ≥ 2), and
            // its end: Σ_c ¬G_{c,2} + T·¬f_1 ≥ T
            let mut g = PolSum::new();
            g.add(label(&format!("fp{tt}_{v}")));
            if v < at.top {
                for c in 0..cells {
                    ensure_t(n, c, v, &mut done, before);
                    g.add(label(&t_label(c, v)));
                }
            }
            before.add_ids(g.step().labelled(format!("gt{tt}_{v}")), 1);
            for cl in clauses {
                derive_clause(cl, v, tt, counters, &at, name, block);
            }
        }
    }
    Ok(())
}

/// The clause `cl` of value v and threshold T (see the module docs, step
/// 7), after `@gt<T>_<v>` (value v's G).
fn derive_clause(
    cl: &[Lit],
    v: usize,
    tt: usize,
    counters: &super::encode::Counters,
    at: &Names,
    name: &dyn Fn(Lit) -> String,
    block: &mut ProofLines,
) {
    let cells = at.n * at.n;
    let lit = |l: Lit| proof::Lit::from_text(name(l));
    let out = |w: usize| -> &[Lit] { counters.ge.get(w).map_or(&[], |o| &o[..]) };
    // the premise ¬[c_{v+1} ≥ t] (t ≥ 1) and the head [c_v ≥ t+T], if the
    // clause has them (the rest is [S ≥ v] and ¬u[v])
    let premise = cl.iter().copied().find(|&l| out(v + 1).contains(&!l));
    let head = cl.iter().copied().find(|&l| out(v).contains(&l));
    let used_v = cl.contains(&!counters.used[v]);
    let names: Vec<proof::Lit> = cl.iter().map(|&l| lit(l)).collect();
    if v == 1 && head.is_none() && premise.is_none() {
        // t = 0 at value 1 (T > N: with the true [c_1 ≥ T] it is not posted):
        // RUP by W_1, f_1 being false
        block.add_ids(rup(&names), 1);
        block.derived.push((cl.to_vec(), block.ids));
        return;
    }
    let mut pol = PolSum::new();
    pol.add(label(&format!("gt{tt}_{v}")));
    if let Some(p) = premise {
        pol.add(ProofLines::half(lit(p)));
    }
    if let Some(h) = head {
        pol.add(ProofLines::half(lit(h)));
    }
    // weaken what the clause does not speak of
    if v >= 2 && head.is_none() {
        for c in 0..cells {
            pol.then(Op::Weaken(at.ge(c, v).var()));
        }
    }
    // (at v = ub no premise takes ¬G_{c,ub+1} away: every cell is at
    // most ub)
    if (used_v || v == at.ub) && v < at.top {
        for c in 0..cells {
            pol.then(Op::Weaken(at.ge(c, v + 1).var()));
        }
    }
    pol.then(Op::Sat);
    block.add_ids(pol.step(), 1);
    block.add_ids(rup(&names), 1);
    block.derived.push((cl.to_vec(), block.ids));
}

/// Writes each leaf's lemma `Λ ∧ u[m+1] → f_{m+1}` for threshold T (see
/// the module docs, step 5).
fn leaf_lemmas(
    node: &Node,
    at: &Names,
    tt: usize,
    path: &mut Vec<proof::Lit>,
    name: &dyn Fn(Lit) -> String,
    done: &mut HashSet<(usize, usize)>,
    b: &mut ProofLines,
) {
    let pi = match node {
        Node::Branch(l, yes, no) => {
            for (child, lit) in [(yes, *l), (no, !*l)] {
                path.push(!proof::Lit::from_text(name(lit)));
                leaf_lemmas(child, at, tt, path, name, done, b);
                path.pop();
            }
            return;
        }
        Node::Leaf(pi) => pi,
    };
    let n = at.n;
    let orbits = orbits(pi);
    let (small, large): (Vec<&Vec<usize>>, Vec<&Vec<usize>>) =
        orbits.iter().partition(|o| o.len() < tt);
    let m = small.len();
    if m + 1 > at.ub {
        return; // no value m+1: [S ≥ v] holds for every v at this leaf
    }
    let lemma = |extra: &[proof::Lit]| {
        let mut cl = path.clone();
        cl.extend(extra.iter().cloned());
        rup(&cl)
    };
    for w in 1..=m + 1 {
        for o in &small {
            for &c in &o[1..] {
                b.add_ids(lemma(&[!at.holds(c, w), at.holds(o[0], w)]), 1);
            }
        }
        for o in &large {
            for &c in o.iter() {
                b.add_ids(lemma(&[at.often(tt, w), !at.holds(c, w)]), 1);
            }
        }
    }
    let head = [!at.used(m + 1), at.often(tt, m + 1)];
    if m == 0 {
        b.add_ids(lemma(&head), 1);
        return;
    }
    // values 1..m on a representative, m+1 on one at least m+1; each
    // representative holds at most one of 1..m or is above m
    let mut pol = PolSum::new();
    for w in 1..=m + 1 {
        let mut cl = head.to_vec();
        cl.extend(small.iter().map(|o| {
            if w <= m {
                at.holds(o[0], w)
            } else {
                at.ge(o[0], w)
            }
        }));
        let pg = format!("pg{w}");
        b.add_ids(lemma(&cl).labelled(pg.clone()), 1);
        pol.add(label(&pg));
    }
    for o in &small {
        for w in 1..=m {
            ensure_t(n, o[0], w, done, b);
            pol.add(label(&t_label(o[0], w)));
        }
    }
    pol.then(Op::Sat);
    b.add_ids(pol.step(), 1);
    b.add_ids(lemma(&head), 1);
}

/// Steps 2–3 of the module docs, over the model alone (before any order
/// is loaded: each `dom` step's witness makes the objective strictly
/// better): the chain, the `L_w` and the `D_v` (label `@dom_d<v>`), the
/// swap's variables deleted after each.
fn swaps(at: &Names, block: &mut ProofLines) {
    let (ub, cells) = (at.ub, at.n * at.n);
    // 2. the chain u[w+1] → u[w] and L_w: u[w] → some cell holds w
    for w in 1..ub {
        block.add_ids(rup(&[!at.used(w + 1), at.used(w)]), 1);
    }
    for w in 1..ub {
        let mut cl = vec![!at.used(w)];
        cl.extend((0..cells).map(|c| at.holds(c, w)));
        block.add_ids(rup(&cl), 1);
    }
    // 3. D_v by the swap of v and v+1
    for v in 1..ub {
        let top = v + 1 == at.top;
        let mut witness: Witness = vec![];
        for c in 0..cells {
            let (low, high) = (at.holds(c, v), at.holds(c, v + 1));
            witness.push((low.var(), Value::Lit(high.clone())));
            witness.push((high.var(), Value::Lit(low)));
        }
        if !top {
            for c in 0..cells {
                let s = at.swapped(v, c);
                let (above, holds) = (at.ge(c, v + 2), at.holds(c, v));
                let def = Constraint::clause([s.clone(), !above.clone(), !holds.clone()]);
                let def = Constraint { degree: 2, ..def };
                let on = vec![(s.var(), Value::True)];
                block.add_ids(Step::Red(def, on, false).labelled(format!("sw_d{c}")), 1);
                let back = Constraint::clause([!s.clone(), above.clone(), holds]);
                let off = vec![(s.var(), Value::False)];
                block.add_ids(Step::Red(back, off, false).labelled(format!("sw_n{c}")), 1);
                // the model's G_{c,v+1} → G_{c,v+2} ∨ E_{c,v+1}, restated
                let restated = rup(&[!at.ge(c, v + 1), above, at.holds(c, v + 1)]);
                block.add_ids(restated.labelled(format!("sw_e{c}")), 1);
                witness.push((at.ge(c, v + 1).var(), Value::Lit(s)));
            }
        }
        let d = Constraint::at_least(
            [(cells as u64, !at.used(v + 1))]
                .into_iter()
                .chain(ones((0..cells).map(|c| at.holds(c, v + 1))))
                .chain(ones((0..cells).map(|c| !at.holds(c, v)))),
            cells as i64,
        );
        // the objective's goal: its negation (-1), ¬D_v (-2), the swap's
        // halves and restated clauses sum to cells·u ≥ cells + 1
        let mut pol = PolSum::new();
        pol.add(Ref::Last(1)).add(Ref::Last(2));
        if !top {
            for c in 0..cells {
                pol.add(label(&format!("sw_d{c}")))
                    .add(label(&format!("sw_e{c}")));
            }
        }
        pol.add_axiom(!at.used(v + 1), Big::from_u64(cells as u64));
        // ids: ¬D_v, the goal's negation, the sum, then D_v
        block.add_ids(Step::Dom(d, witness, true), 1);
        block.lines.push(Step::ProofGoal(1));
        block.add_ids(pol.step(), 2);
        block.lines.push(Step::Qed(Some(Ref::Last(1))));
        block.lines.push(Step::Qed(None));
        block.ids += 1;
        let mut d_v = PolSum::new();
        d_v.add(Ref::Last(1));
        block.add_ids(d_v.step().labelled(format!("dom_d{v}")), 1);
        if !top {
            let spent: Vec<Ref> = (0..cells)
                .flat_map(|c| [format!("sw_d{c}"), format!("sw_n{c}"), format!("sw_e{c}")])
                .map(Ref::Label)
                .collect();
            block.lines.push(Step::Del(spent));
        }
    }
}
