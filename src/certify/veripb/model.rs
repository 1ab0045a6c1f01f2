//! The model's constraints over CNF literals, indexed by variable, with
//! the syntactic implication that finds the source of an encoded
//! constraint; a cube's model.

use std::collections::HashMap;
use std::io::{self, Write};

use super::writer::{Id, ProofNames, ProofWriter};
use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::proof::{Op, Ref, Step};
use puzzlesat_encodings::provenance::{Linear, Provenance};
use rustsat::types::{Lit, Var};

/// A constraint `Σ c·l ≥ d` in normal form (one literal per variable,
/// positive coefficients), to compute a cutting-planes sum before writing
/// it.
#[derive(Clone, Debug, Default)]
pub(super) struct Sum {
    pub(super) terms: std::collections::BTreeMap<Var, (u64, bool)>, // coefficient, negated (ordered: the same proof every run)
    pub(super) degree: i64,
}

impl Sum {
    pub(super) fn add(&mut self, c: &Linear) {
        self.degree += c.bound;
        for &(a, l) in &c.terms {
            match self.terms.get_mut(&l.var()) {
                None => {
                    self.terms.insert(l.var(), (a, l.is_neg()));
                }
                Some((b, neg)) if *neg == l.is_neg() => *b += a,
                Some((b, neg)) => {
                    // a·l + b·¬l = min(a, b) + |a − b|·(the larger one's literal)
                    let m = a.min(*b);
                    self.degree -= m as i64;
                    if a > *b {
                        *b = a - *b;
                        *neg = l.is_neg();
                    } else {
                        *b -= m;
                    }
                    if *b == 0 {
                        self.terms.remove(&l.var());
                    }
                }
            }
        }
    }
    /// The sum as a constraint.
    pub(super) fn linear(&self) -> Linear {
        let mut terms: Vec<(u64, Lit)> = self
            .terms
            .iter()
            .map(|(&v, &(a, neg))| (a, Lit::new(v.idx32(), neg)))
            .collect();
        terms.sort_by_key(|&(_, l)| l);
        Linear {
            terms,
            bound: self.degree,
        }
    }
    /// The variables to weaken away so that only `clause`'s literals stay,
    /// if the sum then still implies the clause (degree ≥ 1).
    pub(super) fn weakening_to(&self, clause: &[Lit]) -> Option<Vec<Var>> {
        let mut degree = self.degree;
        let mut weaken = vec![];
        for (&v, &(a, neg)) in &self.terms {
            let keep = clause.iter().any(|l| l.var() == v && l.is_neg() == neg);
            if !keep {
                degree -= a as i64;
                weaken.push(v);
            }
        }
        (degree >= 1).then(|| {
            weaken.sort();
            weaken
        })
    }
}

/// The model's constraints over CNF literals, as `≥` constraints with
/// their ids in the proof (an equality as two), indexed by variable. A
/// constraint over a model-only variable (one the CNF does not name) is
/// kept apart, its model-only variables as placeholder literals that no
/// CNF has: it serves only as the source of an implied constraint
/// ([`Self::source`]: `ia`, which names the id, not the terms), e.g. an
/// at-most-one over part of a row whose other literals the symmetry
/// breaking fixes false.
pub struct ModelConstraints {
    pub(super) constraints: Vec<(Id, Linear)>,
    pub(super) by_var: HashMap<Var, Vec<usize>>,
    pub(super) partial: Vec<(Id, Linear)>,
    pub(super) partial_by_var: HashMap<Var, Vec<usize>>,
}

/// The first placeholder variable of [`ModelConstraints`] (above any CNF's).
pub(super) const MODEL_ONLY: u32 = 1 << 30;

impl ModelConstraints {
    /// The constraints of `model`.
    pub fn new(model: &PbModel, names: &ProofNames) -> Self {
        use puzzlesat_encodings::pbmodel::Relation;
        let lit_of = names.by_model_name();
        let (mut constraints, mut partial) = (vec![], vec![]);
        let mut id: Id = 1;
        for c in model.constraints() {
            let first = id;
            id += c.loaded() as Id;
            let mut model_only = false;
            let terms: Vec<(i64, Lit)> = c
                .terms
                .iter()
                .map(|&(a, l)| {
                    let x = lit_of.get(model.name(l.var)).copied().unwrap_or_else(|| {
                        model_only = true;
                        Lit::positive(MODEL_ONLY + l.var.idx() as u32)
                    });
                    (a, if l.negated { !x } else { x })
                })
                .collect();
            let to = if model_only {
                &mut partial
            } else {
                &mut constraints
            };
            let ge = || Linear::at_least(terms.iter().copied(), c.rhs);
            let le = || Linear::at_least(terms.iter().map(|&(a, l)| (-a, l)), -c.rhs);
            match c.relation {
                Relation::AtLeast => to.push((first, ge())),
                Relation::AtMost => to.push((first, le())),
                Relation::Equal => {
                    to.push((first, ge()));
                    to.push((first + 1, le()));
                }
            }
        }
        let index = |cs: &[(Id, Linear)]| {
            let mut by_var: HashMap<Var, Vec<usize>> = HashMap::new();
            for (i, (_, c)) in cs.iter().enumerate() {
                for &(_, l) in &c.terms {
                    by_var.entry(l.var()).or_default().push(i);
                }
            }
            by_var
        };
        ModelConstraints {
            by_var: index(&constraints),
            partial_by_var: index(&partial),
            constraints,
            partial,
        }
    }
    /// A model constraint that implies `c`, and the divisor that makes it
    /// imply `c` syntactically (1: as it is; `d`: after VeriPB's division
    /// by `d`, e.g. `3·Σ l ≤ 7` gives `Σ l ≤ 2`).
    pub fn source(&self, c: &Linear) -> Option<(Id, u64)> {
        let (_, first) = c.terms.first()?;
        let candidates = self
            .by_var
            .get(&first.var())
            .into_iter()
            .flatten()
            .map(|&i| &self.constraints[i])
            .chain(
                self.partial_by_var
                    .get(&first.var())
                    .into_iter()
                    .flatten()
                    .map(|&i| &self.partial[i]),
            );
        for (id, m) in candidates {
            if implies(m, c) {
                return Some((*id, 1));
            }
            let mut divisors: Vec<u64> =
                m.terms.iter().map(|&(a, _)| a).filter(|&a| a > 1).collect();
            divisors.sort_unstable();
            divisors.dedup();
            if let Some(d) = divisors.into_iter().find(|&d| implies(&divided(m, d), c)) {
                return Some((*id, d));
            }
        }
        None
    }
}

impl ModelConstraints {
    /// The constraint with id `id` (over CNF literals).
    pub fn get(&self, id: Id) -> Option<&Linear> {
        self.constraints
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, c)| c)
    }
    /// Derives `c` from the model constraint that implies it ([`Self::source`]):
    /// `ia c : id`, after `pol id d d` for a division; without one, `ia c`
    /// (which the check refuses; [`plan`](super::plan) refuses such a run first).
    pub(super) fn derive<W: Write>(
        &self,
        w: &mut ProofWriter<W>,
        names: &ProofNames,
        c: &Linear,
    ) -> io::Result<Id> {
        let c_step = names.linear(c);
        match self.source(c) {
            Some((m, 1)) => w.step(&Step::Ia(c_step, Some(Ref::Id(m)))),
            Some((m, d)) => {
                let q = w.step(&Step::Pol(vec![Op::Ref(Ref::Id(m)), Op::Div(d)]))?;
                w.step(&Step::Ia(c_step, Some(Ref::Id(q))))
            }
            None => w.step(&Step::Ia(c_step, None)),
        }
    }
}

/// VeriPB's division of `c` by `d`: every coefficient and the degree
/// rounded up.
pub(super) fn divided(c: &Linear, d: u64) -> Linear {
    Linear {
        terms: c.terms.iter().map(|&(a, l)| (a.div_ceil(d), l)).collect(),
        bound: (c.bound.max(0) as u64).div_ceil(d) as i64,
    }
}

/// Whether `c` syntactically implies `d` (a sound test of VeriPB's `i`
/// rule): weaken `c` to `d`'s literals, then each of its coefficients,
/// capped at `d`'s degree, is at most `d`'s, and its degree is at least
/// `d`'s.
pub(super) fn implies(c: &Linear, d: &Linear) -> bool {
    let mut sum = Sum::default();
    sum.add(c);
    let mut degree = sum.degree;
    let mut dterms: HashMap<Lit, u64> = HashMap::new();
    let mut dsum = Sum::default();
    dsum.add(d);
    for (&v, &(b, neg)) in &dsum.terms {
        dterms.insert(Lit::new(v.idx32(), neg), b);
    }
    let dd = dsum.degree;
    let mut fits = true;
    for (&v, &(a, neg)) in &sum.terms {
        match dterms.get(&Lit::new(v.idx32(), neg)) {
            Some(&b) => fits &= a.min(dd.max(0) as u64) <= b,
            None => degree -= a as i64, // weakened away
        }
    }
    fits && degree >= dd
}

/// The model of cube `index`'s proof: `model` plus the cube's literals as
/// unit constraints and, with `past` (a value of the objective), the
/// constraint "at least as good as `past`" (the objective's terms over the
/// model's variables). Returns it with that constraint's id and its terms
/// over CNF literals (for a `guarded` cube, whose claim is derived, see
/// `named_objective_at_least`). `Err` if a cube literal is not a model
/// variable.
pub fn cube_model(
    model: &PbModel,
    names: &ProofNames,
    prov: Option<&Provenance>,
    index: u32,
    cube: &[Lit],
    past: Option<i64>,
    guarded: bool,
) -> Result<(PbModel, Option<(Id, Linear)>), String> {
    use puzzlesat_encodings::pbmodel::{PbSense, Relation};
    let mut m = model.clone();
    let model_lit = |m: &PbModel, l: Lit| {
        let (name, negated) = names.model.get(l.var().idx())?.as_ref()?;
        let v = m.lookup(name)?;
        Some(if l.is_neg() != *negated {
            v.neg()
        } else {
            v.pos()
        })
    };
    for &l in cube {
        let rule = format!("cube {index}: {}", names.lit(l));
        if let Some(pl) = model_lit(&m, l) {
            m.clause(&[pl], rule);
            continue;
        }
        // a literal the encoding defines over the model's variables (a
        // splitting literal "in the second half"): its meaning
        let meaning = prov
            .and_then(|p| p.definitions.iter().find(|d| d.lit.var() == l.var()))
            .map(|d| {
                if d.lit == l {
                    d.meaning.clone()
                } else {
                    d.meaning.negation()
                }
            });
        let terms: Option<Vec<(i64, puzzlesat_encodings::PbLit)>> =
            meaning.as_ref().and_then(|c| {
                c.terms
                    .iter()
                    .map(|&(a, t)| Some((a as i64, model_lit(&m, t)?)))
                    .collect()
            });
        match (terms, meaning) {
            (Some(terms), Some(c)) => {
                m.linear(terms, Relation::AtLeast, c.bound, rule);
            }
            _ => {
                return Err(format!(
                "cube {index} splits on {}, neither a variable of the model nor defined over them",
                names.lit(l)
            ))
            }
        }
    }
    let Some(past) = past else {
        return Ok((m, None));
    };
    let obj = model
        .objective()
        .ok_or_else(|| "the model has no objective".to_string())?
        .clone();
    let (relation, what) = match obj.sense {
        PbSense::Minimize => (Relation::AtMost, "at most"),
        PbSense::Maximize => (Relation::AtLeast, "at least"),
    };
    let i = m.linear(
        obj.terms.clone(),
        relation,
        past - obj.offset,
        format!("cube {index}: the objective is {what} {past}"),
    );
    let id = m.first_id(i) as Id;
    let better = match ModelConstraints::new(&m, names).get(id) {
        Some(better) => better.clone(),
        None if guarded => named_objective_at_least(&m, names, &obj, past)?,
        None => return Err("the objective has a variable the CNF does not name".to_string()),
    };
    Ok((m, Some((id, better))))
}

/// "The objective is at least `past`" over the CNF's literals, for a
/// maximised objective with positive terms over variables the CNF does
/// not name (Enigma's cells above the encoding's domain, which the proof
/// derives false): those terms left out. The constraint is then stronger,
/// so a guarded cube's claim "not (its literals and better than `past`)"
/// is weaker, and as strong on every solution of the rules, where those
/// terms are 0.
fn named_objective_at_least(
    m: &PbModel,
    names: &ProofNames,
    obj: &puzzlesat_encodings::pbmodel::PbObjective,
    past: i64,
) -> Result<Linear, String> {
    use puzzlesat_encodings::pbmodel::PbSense;
    let unnamed = || "the objective has a variable the CNF does not name".to_string();
    if obj.sense != PbSense::Maximize {
        return Err(unnamed());
    }
    let lit_of = names.by_model_name();
    let mut terms = vec![];
    for &(a, l) in &obj.terms {
        match lit_of.get(m.name(l.var)) {
            Some(&x) => terms.push((a, if l.negated { !x } else { x })),
            None if a > 0 && !l.negated => {}
            None => return Err(unnamed()),
        }
    }
    Ok(Linear::at_least(terms, past - obj.offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(i: u32) -> Lit {
        Lit::positive(i)
    }

    #[test]
    fn syntactic_implication() {
        let (a, b, c) = (l(0), l(1), l(2));
        let amo = Linear::count_at_most(&[a, b, c], 1);
        assert!(implies(&amo, &amo));
        // Σ ≤ 1 over three implies Σ ≤ 1 over two of them, not the reverse
        let two = Linear::count_at_most(&[a, b], 1);
        assert!(implies(&amo, &two));
        assert!(!implies(&two, &amo));
        // a + b + c ≥ 2 implies a + b ≥ 1, not a + b ≥ 2
        let ge2 = Linear::count_at_least(&[a, b, c], 2);
        assert!(implies(&ge2, &Linear::count_at_least(&[a, b], 1)));
        assert!(!implies(&ge2, &Linear::count_at_least(&[a, b], 2)));
    }

    #[test]
    fn a_totalizer_clause_is_the_sum_of_three_halves() {
        // a ⇔ x0 ≥ 1, b ⇔ x1 ≥ 1, c ⇔ x0 + x1 ≥ 2: the clause ¬a ∨ ¬b ∨ c
        let (x0, x1, a, b, c) = (l(0), l(1), l(2), l(3), l(4));
        let half_not_a = Linear::at_least([(1, x0), (1, !a)], 1);
        let half_not_b = Linear::at_least([(1, x1), (1, !b)], 1);
        let d = Linear::count_at_least(&[x0, x1], 2);
        let mut half_c = d.negation();
        half_c.terms.push((half_c.bound as u64, c));
        let mut s = Sum::default();
        for h in [&half_not_a, &half_not_b, &half_c] {
            s.add(h);
        }
        assert_eq!(s.weakening_to(&[!a, !b, c]), Some(vec![]));
        // without c's half the sum does not imply the clause
        let mut s = Sum::default();
        s.add(&half_not_a);
        s.add(&half_not_b);
        assert_eq!(s.weakening_to(&[!a, !b, c]), None);
    }
}
