//! The VeriPB derivation of rule 1's clauses `d → below ∨ above` ("rows i
//! and i' differ in column k, so one cell is below the other") from the PB
//! model of [`super::opb`], which states rule 1 over "cell holds v"
//! (`¬d ∨ ¬e_a,v ∨ ¬e_b,v`) so that relabelling the values maps it onto
//! itself. `below` and `above` are the encoding's auxiliary variables
//! (`[x_b − x_a ≥ 1]`, `[x_a − x_b ≥ 1]`), which this block introduces
//! itself, with their halves, right after the order's prelude and before
//! the encoding's other definitions (so that its RUP steps propagate over
//! the model alone).
//!
//! Under `d ∧ ¬below ∧ ¬above` the halves say `x_a = x_b`, which unit
//! propagation cannot split into values, so the clause comes down a
//! ladder: for t = ub, ub−1, …, 2, the lemmas `d ∧ ¬below ∧ ¬above →
//! ¬[x_a ≥ t]` and `… → ¬[x_b ≥ t]` are RUP (with the lemmas above them
//! both cells are at most t; `[x_a ≥ t]` makes `x_a = t`, the half gives
//! `x_b ≥ t`, so both hold t, against the model's clause), and at the
//! bottom both cells hold 1. The lemmas are deleted after each clause.

use puzzlesat_encodings::dominance::ProofLines;
use puzzlesat_encodings::proof::{self, Constraint, Ref, Step, Value, Var};
use puzzlesat_encodings::Lit;

use puzzlesat_encodings::provenance::Linear;

use super::encode::{below_meaning, BoardMap};
use super::occ_proof::rup;

/// The block deriving rule 1's clauses of `map` (see the module docs);
/// `name` writes a CNF literal as the proof does. Its clauses are the
/// encoding's (`rules` covers the whole block); it goes before the
/// encoding (`SymmetryProof::before`).
pub fn rule1_proof(map: &BoardMap, name: &dyn Fn(Lit) -> String) -> ProofLines {
    let mut block = ProofLines::default();
    let (lb, ub) = map.x.first().map_or((1, 1), |x| (x.lb(), x.ub()));
    let lit = |l: Lit| proof::Lit::from_text(name(l));
    // the block introduces `below` and `above` itself, before the
    // encoding's other definitions: its RUP steps then propagate over the
    // model alone (not over the counters' long definition halves)
    let linear =
        |c: &Linear| Constraint::at_least(c.terms.iter().map(|&(k, l)| (k, lit(l))), c.bound);
    for r in &map.differ {
        let (a, b) = r.cells;
        for (y, low, high) in [(r.below, a, b), (r.above, b, a)] {
            // y ⇔ x_high − x_low ≥ 1: its two halves, as the encoding's
            // definitions are introduced (witnesses y → 0, y → 1)
            let meaning = below_meaning(&map.x[low], &map.x[high]);
            let var = Var(name(y));
            let mut half = meaning.clone();
            half.terms.push((meaning.bound as u64, !y));
            let off = vec![(var.clone(), Value::False)];
            block.add_ids(Step::Red(linear(&half), off, false), 1);
            let mut other = meaning.negation();
            other.terms.push((other.bound as u64, y));
            let on = vec![(var, Value::True)];
            block.add_ids(Step::Red(linear(&other), on, false), 1);
            block.defines.push(y.var());
        }
        let head = [!lit(r.d), lit(r.below), lit(r.above)];
        let mut labels = vec![];
        for t in (lb + 1..=ub).rev() {
            for c in [a, b] {
                let mut cl = head.to_vec();
                cl.push(!lit(map.x[c].ge(t)));
                let label = format!("r1_{}", labels.len());
                block.add_ids(rup(&cl).labelled(label.clone()), 1);
                labels.push(Ref::Label(label));
            }
        }
        block.add_ids(rup(&head), 1);
        block
            .derived
            .push((vec![!r.d, r.below, r.above], block.ids));
        if !labels.is_empty() {
            block.lines.push(Step::Del(labels));
        }
    }
    block.all_rules();
    block
}
