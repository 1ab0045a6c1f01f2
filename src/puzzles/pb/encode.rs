//! The CNF of a PB model: a variable per model variable (in order), then
//! each constraint as `≥` halves (`Σ a·l ≤ b` is `Σ −a·l ≥ −b`, an
//! equality both), each half normalised (positive coefficients over
//! literals, a variable's terms merged, coefficients saturated at the
//! degree) and encoded by its shape: nothing when trivially true, the empty
//! clause when no assignment reaches the degree, a clause, units, an
//! at-most-one (`--amo`), a cardinality constraint (`--card`), else a PB
//! constraint (`--pb`). The encoders log their definitions and sources
//! ([`puzzlesat_encodings::provenance`]) for a VeriPB proof from the model.

use std::collections::BTreeMap;

use puzzlesat_encodings::amo::at_most_one;
use puzzlesat_encodings::pbmodel::{PbLit, PbObjective, Relation};
use puzzlesat_encodings::solve::{Objective, Sense};
use puzzlesat_encodings::{card, pb, ClauseDatabase, Cnf, Lit, PbModel};

use super::Options;

/// Encodes `model` into `cnf`; returns the literal of each model variable
/// (indexed by [`puzzlesat_encodings::PbVar::idx`]).
pub fn encode(cnf: &mut Cnf, model: &PbModel, opts: &Options) -> Vec<Lit> {
    let x = cnf.fresh_lits(model.n_vars());
    let lit = |l: PbLit| {
        if l.negated {
            !x[l.var.idx()]
        } else {
            x[l.var.idx()]
        }
    };
    for c in model.constraints() {
        let terms: Vec<(i64, Lit)> = c.terms.iter().map(|&(a, l)| (a, lit(l))).collect();
        let negated = || terms.iter().map(|&(a, l)| (-a, l)).collect::<Vec<_>>();
        if c.relation != Relation::AtMost {
            at_least(cnf, normalise(&terms, c.rhs), opts);
        }
        if c.relation != Relation::AtLeast {
            at_least(cnf, normalise(&negated(), -c.rhs), opts);
        }
    }
    x
}

/// `Σ a·l ≥ bound` with every `a > 0`, at most one term per variable, no
/// `a` above the degree (when the degree is positive).
#[derive(Debug, PartialEq, Eq)]
pub struct Normal {
    /// the terms
    pub terms: Vec<(u64, Lit)>,
    /// the degree
    pub bound: i128,
}

/// `Σ a·l ≥ rhs` normalised ([`Normal`]).
pub fn normalise(terms: &[(i64, Lit)], rhs: i64) -> Normal {
    let mut bound = i128::from(rhs);
    // per variable: the weights of its positive and negative literal
    let mut by_var: BTreeMap<u32, (u128, u128)> = BTreeMap::new();
    for &(a, l) in terms {
        // −a·l = a·¬l − a
        let (w, l) = if a < 0 {
            bound -= i128::from(a);
            (u128::from(a.unsigned_abs()), !l)
        } else {
            (a as u128, l)
        };
        let e = by_var.entry(l.var().idx32()).or_default();
        if l.is_pos() {
            e.0 += w;
        } else {
            e.1 += w;
        }
    }
    let mut out = vec![];
    for (v, (p, n)) in by_var {
        // a·x + b·¬x = min(a, b) + (a − min)·x + (b − min)·¬x
        let common = p.min(n);
        bound -= common as i128;
        let var = puzzlesat_encodings::Var::new(v);
        for (w, l) in [(p - common, var.pos_lit()), (n - common, var.neg_lit())] {
            if w > 0 {
                out.push((w, l));
            }
        }
    }
    // saturation: no coefficient counts beyond the degree
    let cap = bound.max(1) as u128;
    Normal {
        terms: out
            .into_iter()
            .map(|(w, l)| (w.min(cap) as u64, l))
            .collect(),
        bound,
    }
}

/// What a normalised constraint is encoded as.
#[derive(Debug, PartialEq, Eq)]
pub enum Shape {
    /// trivially true
    True,
    /// no assignment reaches the degree
    False,
    /// every literal true
    Units(Vec<Lit>),
    /// at least one literal true
    Clause(Vec<Lit>),
    /// at most one of these literals true
    AtMostOne(Vec<Lit>),
    /// at least k of these literals true
    Card(Vec<Lit>, usize),
    /// `Σ w·l ≥ k`
    Pb(Vec<(Lit, usize)>, usize),
}

/// The shape of a normalised constraint.
pub fn shape(c: &Normal) -> Shape {
    let total: u128 = c.terms.iter().map(|&(w, _)| u128::from(w)).sum();
    if c.bound <= 0 {
        return Shape::True;
    }
    if total < c.bound as u128 {
        return Shape::False;
    }
    let lits: Vec<Lit> = c.terms.iter().map(|&(_, l)| l).collect();
    let w0 = c.terms[0].0;
    if c.terms.iter().all(|&(w, _)| w == w0) {
        let n = lits.len();
        let k = (c.bound as u128).div_ceil(u128::from(w0)) as usize;
        return match k {
            1 => Shape::Clause(lits),
            k if k == n => Shape::Units(lits),
            k if k + 1 == n => Shape::AtMostOne(lits.iter().map(|&l| !l).collect()),
            k => Shape::Card(lits, k),
        };
    }
    let terms = c.terms.iter().map(|&(w, l)| (l, w as usize)).collect();
    Shape::Pb(terms, c.bound as usize)
}

/// Posts a normalised `≥` constraint by its shape.
fn at_least(cnf: &mut Cnf, c: Normal, opts: &Options) {
    match shape(&c) {
        Shape::True => {}
        Shape::False => cnf.add(&[]),
        Shape::Units(lits) => lits.iter().for_each(|&l| cnf.add(&[l])),
        Shape::Clause(lits) => cnf.add(&lits),
        Shape::AtMostOne(lits) => at_most_one(cnf, &lits, opts.amo),
        // as `Σ ¬l ≤ n − k`: the encoders count upwards, the way the
        // definitions log infers their variables' meaning
        Shape::Card(lits, k) => {
            let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            let _ = card::at_most(cnf, &negated, lits.len() - k, opts.card);
        }
        Shape::Pb(terms, k) => {
            let _ = pb::at_least(cnf, &terms, k, opts.pb);
        }
    }
}

/// The CNF's objective for the model's: positive weights over literals
/// (`−a·l = a·¬l − a`), the same value under every assignment.
pub fn objective(o: &PbObjective, x: &[Lit], sense: Sense) -> Objective {
    let mut offset = o.offset;
    let mut terms = vec![];
    for &(a, l) in &o.terms {
        let lit = if l.negated {
            !x[l.var.idx()]
        } else {
            x[l.var.idx()]
        };
        match a {
            0 => {}
            a if a > 0 => terms.push((lit, a as u64)),
            a => {
                offset += a;
                terms.push((!lit, a.unsigned_abs()));
            }
        }
    }
    Objective {
        sense,
        terms,
        offset,
    }
}

/// An estimate of the clauses [`encode`] adds, from the model alone: a
/// clause per clause, n²/2 per at-most-one, about n·min(k, n − k) per
/// cardinality and PB constraint (a generalized totalizer over large
/// distinct weights can take more).
pub fn estimated_clauses(model: &PbModel) -> u64 {
    let mut total: u64 = 0;
    for c in model.constraints() {
        let n = c.terms.len() as u64;
        let halves = if c.relation == Relation::Equal { 2 } else { 1 };
        total = total.saturating_add(halves * n.saturating_mul(n / 2 + 1));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::Var;

    fn l(i: u32) -> Lit {
        Var::new(i).pos_lit()
    }

    #[test]
    fn shapes() {
        let (a, b, c) = (l(0), l(1), l(2));
        // 2a + 2b ≥ 1: a clause
        assert_eq!(
            shape(&normalise(&[(2, a), (2, b)], 1)),
            Shape::Clause(vec![a, b])
        );
        // a + b + c ≤ 1 is −a − b − c ≥ −1: at most one
        assert_eq!(
            shape(&normalise(&[(-1, a), (-1, b), (-1, c)], -1)),
            Shape::AtMostOne(vec![a, b, c])
        );
        // a − a ≥ 1: false; a + ¬a ≥ 1: true
        assert_eq!(shape(&normalise(&[(1, a), (-1, a)], 1)), Shape::False);
        assert_eq!(shape(&normalise(&[(1, a), (1, !a)], 1)), Shape::True);
        // 3a + 3b + 3c ≥ 4: at least two, posted as at most one of the negations
        assert_eq!(
            shape(&normalise(&[(3, a), (3, b), (3, c)], 4)),
            Shape::AtMostOne(vec![!a, !b, !c])
        );
        // 5a + b + c ≥ 2: a saturated to 2
        assert_eq!(
            shape(&normalise(&[(5, a), (1, b), (1, c)], 2)),
            Shape::Pb(vec![(a, 2), (b, 1), (c, 1)], 2)
        );
        // 2a + 2b ≥ 4: both
        assert_eq!(
            shape(&normalise(&[(2, a), (2, b)], 4)),
            Shape::Units(vec![a, b])
        );
        // extreme coefficients do not overflow
        let n = normalise(&[(i64::MIN + 1, a), (i64::MAX, b)], i64::MIN);
        assert_eq!(shape(&n), Shape::True);
    }
}
