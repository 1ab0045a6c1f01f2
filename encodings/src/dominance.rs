//! Certified lex-leader symmetry breaking: the VeriPB derivation of the
//! clauses [`crate::perm::lex_leader`] and [`crate::lex::lex_le`] post, by
//! the dominance rule of Bogaerts, Gocht, McCreesh & Nordström, "Certified
//! Dominance and Symmetry Breaking for Combinatorial Optimisation" (JAIR 77,
//! 2023).
//!
//! A [`LexOrder`] is the lexicographic pre-order over a vector `x` of model
//! variables (position 0 most significant, false < true), defined for VeriPB
//! as `u ⪯ v  ⇔  Σ_j 2^(k−1−j)·(v_j − u_j) ≥ 0` ([`LexOrder::prelude`]: a
//! `def_order` and its `load_order`, which must come before any derived
//! constraint, or VeriPB counts those constraints in the core that every
//! witness must preserve). For a symmetry σ of the model (a permutation of
//! the positions mapping the model's constraints and objective onto
//! themselves), [`LexOrder::derive`] writes:
//!
//! 1. `L_σ: Σ_j w_j·(x_σ(j) − x_j) ≥ 0` (`w_j = 2^(k−1−j)`, i.e. `x ⪯ σ(x)`)
//!    by `dom` with the witness `x_j ↦ x_σ(j)`: an assignment violating it
//!    maps to `σ(x) ≺ x`, which satisfies the model (σ is a symmetry) — this
//!    is the step VeriPB refuses when σ is not a symmetry of the model;
//! 2. the CNF's clauses, position by position along the chain of
//!    [`crate::lex::LexChain`] (reduced positions `i_0 < i_1 < …`, chain
//!    literals `a_1, a_2, …` "equal so far"): each `a_{t+1}` by `red` as
//!    `a_{t+1} → a_t`, `a_{t+1} → x ∨ ¬y` (witness `a_{t+1} ↦ 0`) and the two
//!    CNF clauses `a_t ∧ x → a_{t+1}`, `a_t ∧ ¬y → a_{t+1}` (witness
//!    `a_{t+1} ↦ 1`); then `Q_t: M_t·¬a_t + Σ_{j < i_t} w_j·(x_j + ¬y_j) ≥
//!    M_t` (with `M_t = Σ_{j < i_t} w_j`: "a_t → the prefix of x is not below
//!    that of y") by `pol` from `Q_{t−1}`, the two `→` clauses and, for the
//!    positions the reduction skipped (the last of a σ-cycle, whose other
//!    positions lie in the prefix), `a_t → x_q ∨ ¬y_q` by `rup`; finally the
//!    CNF clause `a_t → (x_{i_t} → y_{i_t})` is RUP from `Q_t + L_σ`, a lex
//!    comparison of the suffix from `i_t`.
//!
//! All constraints are written over variable names given by the caller
//! (model names for the model's variables, the proof's names for the
//! CNF's auxiliary ones).

use std::collections::HashMap;

use rustsat::types::Lit;

use crate::lex::LexChain;
use crate::perm::Perm;
pub use crate::proof::Big;
use crate::proof::{self, Coef, Constraint, Op, PolSum, Ref, Step, Value};

/// A signed coefficient: sign and magnitude.
fn signed(positive: &Big, negative: &Big) -> (bool, Big) {
    match positive.cmp_value(negative) {
        std::cmp::Ordering::Less => (false, negative.sub(positive)),
        _ => (true, positive.sub(negative)),
    }
}

/// Lines of a proof block and what they add.
#[derive(Clone, Debug, Default)]
pub struct ProofLines {
    /// the steps
    pub lines: Vec<Step>,
    /// constraint ids the lines add
    pub ids: usize,
    /// CNF clauses the lines derive (literals as in the CNF), each with the
    /// id, counted from 1 at the block's first line, of the constraint
    /// that is the clause
    pub derived: Vec<(Vec<Lit>, usize)>,
    /// CNF variables the lines introduce by `red` (their definitions)
    pub defines: Vec<rustsat::types::Var>,
    /// the ids (counted from 1 at the block's first line) that derive
    /// clauses of the model's rules (the encoding), not symmetry breaking
    pub rules: std::ops::Range<usize>,
}

impl ProofLines {
    /// A line adding one constraint id.
    fn add(&mut self, line: Step) {
        self.add_ids(line, 1);
    }
    /// A line adding `ids` constraint ids (a rule with a subproof numbers
    /// the constraints of its proof goals too, measured with `veripb
    /// --trace`).
    pub fn add_ids(&mut self, line: Step, ids: usize) {
        self.lines.push(line);
        self.ids += ids;
    }
    /// The operand that stands for the id of a definition half of the
    /// encoding, the one in which the literal named `lit` occurs (`~y`:
    /// `y ⇒ D`; `y`: `¬y ⇒ ¬D`): the proof writer, which introduces the
    /// definitions before the block, puts the id in its place.
    pub fn half(lit: proof::Lit) -> Ref {
        Ref::Half(lit)
    }
    /// Appends `other`'s lines (its derived clauses' ids shifted past
    /// these lines').
    pub fn append(&mut self, other: ProofLines) {
        let shift = self.ids;
        self.lines.extend(other.lines);
        self.derived
            .extend(other.derived.into_iter().map(|(c, id)| (c, id + shift)));
        self.defines.extend(other.defines);
        if !other.rules.is_empty() {
            self.rules = other.rules.start + shift..other.rules.end + shift;
        }
        self.ids += other.ids;
    }
    /// Marks every id of the lines so far as deriving the model's rules.
    pub fn all_rules(&mut self) {
        self.rules = 1..self.ids + 1;
    }
    /// The derived clauses as CNF clause indices: each derivation is
    /// matched, in order, with the next clause of `clauses` equal to it as a
    /// set of literals (a clause posted twice is derived twice, and each copy
    /// gets its own id); returns (CNF index, block-relative id). `Err` names
    /// a derived clause the CNF does not have.
    pub fn cnf_indices<'a>(
        &self,
        clauses: impl IntoIterator<Item = &'a [Lit]>,
    ) -> Result<Vec<(usize, usize)>, String> {
        let key = |c: &[Lit]| {
            let mut k = c.to_vec();
            k.sort();
            k.dedup();
            k
        };
        let mut ids: HashMap<Vec<Lit>, std::collections::VecDeque<usize>> = HashMap::new();
        for (c, id) in &self.derived {
            ids.entry(key(c)).or_default().push_back(*id);
        }
        let mut out = vec![];
        for (i, c) in clauses.into_iter().enumerate() {
            if let Some(id) = ids.get_mut(&key(c)).and_then(|q| q.pop_front()) {
                out.push((i, id));
            }
        }
        match ids.iter().find(|(_, q)| !q.is_empty()) {
            Some((k, _)) => Err(format!("a derived clause {k:?} is not in the CNF")),
            None => Ok(out),
        }
    }
}

/// A family's symmetry-breaking proof: the order's prelude (right after
/// `f N;`, before any derived constraint) and the block deriving the
/// clauses (after the encoding's, before the search).
#[derive(Clone, Debug, Default)]
pub struct SymmetryProof {
    /// steps over the model alone, before the prelude (no order loaded:
    /// a `dom` step's witness makes the objective strictly better); the
    /// prelude's `load_order` then moves what they derive to the core
    pub early: ProofLines,
    /// `def_order` and `load_order` (no constraint ids)
    pub prelude: Vec<Step>,
    /// steps right after the prelude, before the encoding's definitions:
    /// over the model's variables and the block's own (no `{half …}`),
    /// so that unit propagation works on the model alone (no long
    /// definition halves to visit)
    pub before: ProofLines,
    /// the derivation
    pub block: ProofLines,
    /// a constraint the block derives, by its label, with its terms over
    /// CNF literals, that ties the CNF's objective to the model's (e.g.
    /// `Σ outputs of the counters ≥ Σ the cells they count`): added to the
    /// improving constraint of an optimum's `soli`
    pub objective_link: Option<(Ref, crate::provenance::Linear)>,
}

impl LexOrder {
    /// The proof of the lex-leader chains `posted` (each σ with what
    /// [`crate::lex::lex_le`] posted for it) under this order.
    pub fn proof(
        &self,
        posted: &[(Perm, LexChain)],
        name: &dyn Fn(Lit) -> String,
    ) -> Result<SymmetryProof, String> {
        let mut block = ProofLines::default();
        for (sigma, chain) in posted {
            self.derive(sigma, chain, name, &mut block)?;
        }
        Ok(SymmetryProof {
            early: ProofLines::default(),
            prelude: self.prelude(name),
            before: ProofLines::default(),
            block,
            objective_link: None,
        })
    }
}

/// The constraint ids a [`LexOrder::dominance`] line adds (the derived
/// constraint's subproof numbers the negated constraint, goal #2's
/// premise and its sum).
pub const DOMINANCE_IDS: usize = 4;

/// The lexicographic order over a vector of model literals (each the
/// positive literal of a distinct variable), position 0 most significant.
#[derive(Clone, Debug)]
pub struct LexOrder {
    /// the order's name in the proof
    pub name: String,
    /// the vector
    pub vars: Vec<Lit>,
    pos: HashMap<Lit, usize>,
}

impl LexOrder {
    /// The order over `vars` named `name` (letters, digits, `_`).
    ///
    /// # Panics
    /// If a literal is negative or repeated.
    pub fn new(name: &str, vars: &[Lit]) -> Self {
        let pos: HashMap<Lit, usize> = vars.iter().enumerate().map(|(i, &l)| (l, i)).collect();
        assert!(
            pos.len() == vars.len() && vars.iter().all(|l| l.is_pos()),
            "a lex order is over distinct positive literals"
        );
        LexOrder {
            name: name.to_string(),
            vars: vars.to_vec(),
            pos,
        }
    }

    /// The weight `2^(k−1−j)` of position j.
    fn weight(&self, j: usize) -> Big {
        Big::pow2(self.vars.len() - 1 - j)
    }

    /// `def_order` (with its transitivity proof) and `load_order`: the
    /// lines to write before any derived constraint.
    pub fn prelude(&self, name: &dyn Fn(Lit) -> String) -> Vec<Step> {
        let k = self.vars.len();
        let def = (0..k)
            .flat_map(|j| {
                [
                    (Coef::Signed(false, self.weight(j)), order_var("u", j)),
                    (Coef::Signed(true, self.weight(j)), order_var("v", j)),
                ]
            })
            .collect();
        let loaded = self.vars.iter().map(|&l| proof::Lit::from_text(name(l)));
        order_prelude(&self.name, def, loaded.collect())
    }

    /// Derives `x ⪯ σ(x)` by dominance and then the CNF clauses of `chain`
    /// (what [`crate::lex::lex_le`] posted for the reduced positions of σ;
    /// see the module docs), appending to `out`. `Err` if the chain is not
    /// a comparison of `x` with `σ(x)` at increasing positions.
    pub fn derive(
        &self,
        sigma: &Perm,
        chain: &LexChain,
        name: &dyn Fn(Lit) -> String,
        out: &mut ProofLines,
    ) -> Result<(), String> {
        let image = |j: usize| self.vars[sigma.apply(j as u32) as usize];
        // the reduced positions, checked against σ
        let mut positions = vec![];
        for &(x, y) in &chain.pairs {
            let &j = self
                .pos
                .get(&x)
                .ok_or_else(|| format!("{} is not in the order", name(x)))?;
            if image(j) != y {
                return Err(format!("position {j}: {} is not σ({})", name(y), name(x)));
            }
            if positions.last().is_some_and(|&p| p >= j) {
                return Err("the chain's positions do not increase".into());
            }
            positions.push(j);
        }
        if chain.strict || chain.cond.is_some() || chain.chain.len() + 1 < positions.len() {
            return Err("only the plain, non-strict chain of lex_le is derived".into());
        }
        // 1. L_σ, labelled `lexL`
        out.add_ids(self.dominance(sigma, name, "lexL"), DOMINANCE_IDS);
        // 2. the chain, from L
        let skipped = |q: usize| (image(q) != self.vars[q]).then(|| (self.vars[q], image(q)));
        derive_chain(
            &ChainSteps {
                chain,
                positions: &positions,
                weight: &|j| self.weight(j),
                skipped: &skipped,
                hinted: true,
            },
            name,
            out,
        )
    }

    /// `L_σ: Σ_j w_j·(x_σ(j) − x_j) ≥ 0` (`x ⪯ σ(x)`) by `dom` with the
    /// witness `x_j ↦ x_σ(j)`, labelled `label` (step 1 of the module
    /// docs): one line that adds [`DOMINANCE_IDS`] ids, `L_σ` the last.
    /// VeriPB refuses the step when σ (a permutation of the positions) is
    /// not a symmetry of the model.
    pub fn dominance(&self, sigma: &Perm, name: &dyn Fn(Lit) -> String, label: &str) -> Step {
        self.dominance_also(sigma, name, label, vec![])
    }

    /// [`LexOrder::dominance`] with the witness also mapping variables
    /// outside the order (`also`: the symmetry's action on auxiliary
    /// variables of the model, e.g. a line's quotient moved with the line).
    pub fn dominance_also(
        &self,
        sigma: &Perm,
        name: &dyn Fn(Lit) -> String,
        label: &str,
        also: Vec<(proof::Var, Value)>,
    ) -> Step {
        let k = self.vars.len();
        let image = |j: usize| self.vars[sigma.apply(j as u32) as usize];
        let lit = |l: Lit| proof::Lit::from_text(name(l));
        let var = |l: Lit| proof::Var(name(l));
        // 1. L: Σ_j w_j (x_σ(j) − x_j) ≥ 0, merged per variable
        let mut plus: Vec<Big> = vec![Big::zero(); k];
        let mut minus: Vec<Big> = vec![Big::zero(); k];
        for (j, m) in minus.iter_mut().enumerate() {
            let s = sigma.apply(j as u32) as usize;
            if s != j {
                plus[s].add_assign(&self.weight(j));
                m.add_assign(&self.weight(j));
            }
        }
        let mut terms = vec![];
        for ((p, m), &v) in plus.iter().zip(&minus).zip(&self.vars) {
            let (pos, c) = signed(p, m);
            if !c.is_zero() {
                terms.push((Coef::Signed(pos, c), lit(v)));
            }
        }
        let witness = (0..k)
            .filter(|&j| image(j) != self.vars[j])
            .map(|j| (var(self.vars[j]), Value::Lit(lit(image(j)))))
            .chain(also)
            .collect();
        // the order's strictness goal (#2: "x ⪯ σ(x)" is the constraint
        // itself) is contradicted by adding it to the negated constraint;
        // the model's goals (σ maps each constraint onto one) are autoproven
        // ids: the negated constraint, goal #2's premise and sum, the
        // constraint
        let l = Constraint { terms, degree: 0 };
        Step::Inline(vec![
            Step::Dom(l, witness, true).labelled(label.to_string()),
            Step::ProofGoal(2),
            Step::Pol(vec![Op::Ref(Ref::Last(1)), Op::Ref(Ref::Last(2)), Op::Add]),
            Step::Qed(Some(Ref::Last(1))),
            Step::Qed(None),
        ])
    }
}

/// A lex chain's derivation from a constraint `@lexL` in the database,
/// `Σ_j w_j·(y_j − x_j) ≥ 0` over the compared pairs `(x_j, y_j)` (and
/// the positions the chain skipped): see [`derive_chain`].
pub struct ChainSteps<'a> {
    /// what [`crate::lex::lex_le`] or [`crate::lex::lex_lt`] posted
    pub chain: &'a LexChain,
    /// the position of each compared pair, increasing
    pub positions: &'a [usize],
    /// the weight of a position in `@lexL`
    pub weight: &'a dyn Fn(usize) -> Big,
    /// the pair at a position the chain skipped (between two compared
    /// ones), None where `x = y`
    pub skipped: &'a dyn Fn(usize) -> Option<(Lit, Lit)>,
    /// each clause `a_t → (x_t → y_t)` by RUP on `@lexL` (or `Q_t + @lexL`)
    /// alone (the weights are powers of two); else by RUP on the whole
    /// database (weights that need its clauses, e.g. the order clauses of
    /// order-encoded digits weighted by their place value)
    pub hinted: bool,
}

/// Derives the CNF clauses of a lex chain from `@lexL` (the module docs,
/// step 2): each chain literal `a_{t+1}` by `red`, the clauses, and `Q_t`.
/// A strict chain's last literal is defined with its two clauses; its unit
/// `¬a_m` is the caller's (the vectors differ: a reason outside the chain).
/// The helper constraints (L, Q, S, E) are deleted at the end.
pub fn derive_chain(
    steps: &ChainSteps,
    name: &dyn Fn(Lit) -> String,
    out: &mut ProofLines,
) -> Result<(), String> {
    let ChainSteps {
        chain,
        positions,
        weight,
        skipped,
        hinted,
    } = *steps;
    let lit = |l: Lit| proof::Lit::from_text(name(l));
    let var = |l: Lit| proof::Var(name(l));
    let clause = |c: &[Lit]| Constraint::clause(c.iter().map(|&l| lit(l)));
    let label = |s: String| Ref::Label(s);
    // the helper constraints (L, Q, S, E) are deleted once the chain is
    // done, so that the database keeps only the CNF's clauses and the chain
    // literals' definitions (RUP without hints propagates over all of it).
    // The definitions `a_{t+1} → a_t`, `a_{t+1} → x ∨ ¬y` stay: with the
    // CNF's `a_t ∧ x → a_{t+1}`, `a_t ∧ ¬y → a_{t+1}` they fix every chain
    // literal by unit propagation from the primary literals, as a logged
    // solution (`solx`) needs
    let mut helpers = vec![label("lexL".into())];
    let mut prefix_weight = Big::zero(); // M_t
    for (t, &i) in positions.iter().enumerate() {
        let (x, y) = chain.pairs[t];
        let a = if t == 0 {
            None
        } else {
            Some(chain.chain[t - 1])
        };
        // the CNF clause a_t → (x → y): RUP from L (t = 0) or Q_t + L
        let mut cl = vec![];
        cl.extend(a.map(|a| !a));
        cl.extend([!x, y]);
        let hint = if t == 0 {
            label("lexL".into())
        } else {
            let mut s = PolSum::new();
            s.add(label(format!("lexQ{t}"))).add(label("lexL".into()));
            out.add(s.step().labelled("lexS"));
            label("lexS".into())
        };
        let hints = if hinted { vec![hint] } else { vec![] };
        out.add(Step::Rup(clause(&cl), hints));
        out.derived.push((cl, out.ids));
        if t > 0 {
            out.lines.push(Step::Del(vec![label("lexS".into())]));
        }
        let Some(&next) = chain.chain.get(t) else {
            break;
        };
        // a_{t+1}: its definition and the CNF's two clauses
        out.defines.push(next.var());
        let t1 = t + 1;
        let off = || vec![(var(next), Value::False)];
        if let Some(a) = a {
            out.add(Step::Red(clause(&[!next, a]), off(), false).labelled(format!("lexA{t1}")));
        }
        out.add(Step::Red(clause(&[!next, x, !y]), off(), false).labelled(format!("lexB{t1}")));
        for other in [!x, y] {
            let mut c = vec![];
            c.extend(a.map(|a| !a));
            c.extend([other, next]);
            out.add(Step::Red(clause(&c), vec![(var(next), Value::True)], false));
            out.derived.push((c, out.ids));
        }
        let Some(&until) = positions.get(t + 1) else {
            if chain.strict {
                break; // ¬a_m is the caller's
            }
            return Err("a chain literal after the last position".into());
        };
        // Q_{t+1} = Q_t + M_t·(a_{t+1} → a_t) + w_i·(a_{t+1} → x ∨ ¬y)
        //         + Σ w_q·(a_{t+1} → x_q ∨ ¬y_q)
        let mut sum = PolSum::new();
        if t > 0 {
            sum.add(label(format!("lexQ{t}")))
                .add_scaled(label(format!("lexA{t1}")), prefix_weight.clone());
        }
        let w = weight(i);
        sum.add_scaled(label(format!("lexB{t1}")), w.clone());
        prefix_weight.add_assign(&w);
        for q in i + 1..until {
            let Some((xq, yq)) = skipped(q) else {
                continue; // a fixed point: x_q − y_q = 0
            };
            out.add(Step::Rup(clause(&[!next, xq, !yq]), vec![]).labelled(format!("lexE{q}")));
            helpers.push(label(format!("lexE{q}")));
            let wq = weight(q);
            sum.add_scaled(label(format!("lexE{q}")), wq.clone());
            prefix_weight.add_assign(&wq);
        }
        out.add(sum.step().labelled(format!("lexQ{t1}")));
        helpers.push(label(format!("lexQ{t1}")));
    }
    out.lines.push(Step::Del(helpers));
    Ok(())
}

/// The variable `{side}{j}` of an order's definition (`u0`, `v3`).
pub fn order_var(side: &str, j: usize) -> proof::Lit {
    proof::Lit::from_text(format!("{side}{j}"))
}

/// The steps that define a preorder `name` over `loaded.len()` variables
/// (`left` u0…, `right` v0…) by the PB constraint `Σ def ≥ 0`, prove its
/// transitivity (fresh variables w0…: the sum of the two hypotheses and the
/// negated goal), and load it on `loaded`: what a proof writes before any
/// derived constraint.
pub fn order_prelude(
    name: &str,
    def: Vec<(Coef, proof::Lit)>,
    loaded: Vec<proof::Lit>,
) -> Vec<Step> {
    vec![
        Step::DefOrder {
            name: name.to_string(),
            vars: loaded.len(),
            def: Constraint {
                terms: def,
                degree: 0,
            },
        },
        Step::LoadOrder(name.to_string(), loaded),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_numbers() {
        assert_eq!(Big::pow2(0).to_string(), "1");
        assert_eq!(Big::pow2(10).to_string(), "1024");
        assert_eq!(Big::pow2(64).to_string(), "18446744073709551616");
        assert_eq!(
            Big::pow2(128).to_string(),
            "340282366920938463463374607431768211456"
        );
        let d = Big::pow2(100).sub(&Big::pow2(3));
        assert_eq!(d.to_string(), "1267650600228229401496703205368");
        let (pos, c) = signed(&Big::pow2(3), &Big::pow2(100));
        assert!(!pos);
        assert_eq!(c, d);
        assert!(Big::pow2(5).sub(&Big::pow2(5)).is_zero());
    }
}
