//! The VeriPB derivation of "no click matrix reaches the goal" from the
//! play model ([`super::opb`]): the model states, per cell p, `Σ_k A_pk·x_k
//! − c·q_p = Δ_p` (x_k as the sum of its order literals, q_p ≥ 0 in
//! binary). With a row vector `y` such that `y·A ≡ 0` and `y·Δ ≢ 0 (mod c)`
//! ([`super::zmod::obstruction`], from the diagonal form), the sum of the
//! equations times `y` has only multiples of c on the left: divided by c
//! (VeriPB's `d` rounds the degree up), its `≥` half and its `≤` half
//! add up to `0 ≥ 1`. This is the cutting-planes form of the linear
//! algebra's reason (Gocht, Martins, Nordström & Oertel, "Certified CNF
//! Translations for Pseudo-Boolean Solving", SAT 2022, for the rules).

use puzzlesat_encodings::dominance::{ProofLines, SymmetryProof};
use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::proof::{Big, Op, PolSum, Ref};
use puzzlesat_encodings::PbModel;

/// The block deriving the empty clause (the play CNF of an unreachable
/// goal) from `model`, whose `Equal` constraints are the cells' equations
/// in row-major order, with the obstruction `y` (one weight per cell) and
/// c colours. It goes before the encoding and counts as the encoding's.
pub fn unreachable_block(model: &PbModel, y: &[u32], c: u32) -> SymmetryProof {
    // the ids of each equation's ≥ and ≤ halves (an equality loads as two)
    let halves: Vec<(usize, usize)> = (0..model.constraints().len())
        .filter(|&i| model.constraints()[i].relation == Relation::Equal)
        .map(|i| (model.first_id(i), model.first_id(i) + 1))
        .collect();
    assert_eq!(halves.len(), y.len(), "one equation per cell");
    let sum = |half: &dyn Fn(&(usize, usize)) -> usize| {
        let mut pol = PolSum::new();
        for (h, &w) in halves.iter().zip(y).filter(|(_, &w)| w > 0) {
            pol.add_scaled(Ref::Id(half(h) as u64), Big::from_u64(w.into()));
        }
        pol.then(Op::Div(c.into()));
        pol.step()
    };
    let mut block = ProofLines::default();
    block.add_ids(sum(&|h| h.0).labelled("unreach_ge"), 1);
    block.add_ids(sum(&|h| h.1).labelled("unreach_le"), 1);
    let mut both = PolSum::new();
    both.add(Ref::Label("unreach_ge".into()))
        .add(Ref::Label("unreach_le".into()));
    block.add_ids(both.step(), 1);
    block.derived.push((vec![], block.ids));
    block.all_rules();
    SymmetryProof {
        before: block,
        ..Default::default()
    }
}
