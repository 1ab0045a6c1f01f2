//! Pseudo-Boolean linear constraints `Σ wᵢ·lᵢ ≤ k` / `≥ k` / `= k` with
//! positive weights, through RustSAT's encoders behind one option:
//!
//! - **gte**: generalized totalizer (Joshi, Martins & Manquinho, "Generalized
//!   totalizer encoding for pseudo-Boolean constraints", CP 2015);
//! - **adder**: binary adder (Eén & Sörensson, "Translating pseudo-Boolean
//!   constraints into SAT", JSAT 2006);
//! - **dpw**: dynamic polynomial watchdog (Paxian, Reimer & Becker, "Dynamic
//!   polynomial watchdog encoding for solving weighted MaxSAT", SAT 2018).
//!
//! Lower bounds are upper bounds on the negated literals:
//! `Σ wᵢ·lᵢ ≥ k ⇔ Σ wᵢ·¬lᵢ ≤ W − k` with `W = Σ wᵢ`. Encoders are built
//! once and extended lazily, so a driver can tighten bounds by assumptions.

use crate::card::Cmp;
use crate::provenance::Linear as Ge;
use crate::{Assignment, Checker, ClauseDatabase, Unsatisfiable};
use rustsat::encodings::pb::{BinaryAdder, BoundUpper, DynamicPolyWatchdog, GeneralizedTotalizer};
use rustsat::types::Lit;

crate::option_enum! {
    /// Which pseudo-Boolean encoding to use.
    #[derive(Default)]
    pub enum PbEncoding("pseudo-Boolean encoding") {
        /// generalized totalizer
        #[default]
        Gte = "gte",
        /// binary adder
        Adder = "adder",
        /// dynamic polynomial watchdog
        Dpw = "dpw",
    }
}

#[derive(Debug)]
enum UpperEncoder {
    Gte(GeneralizedTotalizer),
    Adder(BinaryAdder),
    Dpw(DynamicPolyWatchdog),
}

impl UpperEncoder {
    fn new(enc: PbEncoding, terms: impl Iterator<Item = (Lit, usize)>) -> Self {
        match enc {
            PbEncoding::Gte => UpperEncoder::Gte(terms.collect()),
            PbEncoding::Adder => UpperEncoder::Adder(terms.collect()),
            PbEncoding::Dpw => UpperEncoder::Dpw(terms.collect()),
        }
    }

    /// Assumptions for `Σ ≤ k`, encoding what is needed first.
    /// `terms` are the encoder's inputs (their weights name the leaves of
    /// the definitions a log infers).
    fn at_most<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        k: usize,
        terms: &[(Lit, usize)],
    ) -> Vec<Lit> {
        fn go<E: BoundUpper, DB: ClauseDatabase>(
            e: &mut E,
            db: &mut DB,
            k: usize,
            weight: &dyn Fn(Lit) -> u64,
        ) -> Vec<Lit> {
            // DPW enforces only bounds it can encode exactly; ask for the
            // coarse bound and keep the exact one (coarse_ub(k) == k for the others)
            db.with_rustsat_weighted(weight, |col, vm| e.encode_ub(k..=k, col, vm))
                .expect("buffer");
            e.enforce_ub(k).expect("bound encoded just above")
        }
        let weights: std::collections::HashMap<Lit, u64> =
            terms.iter().map(|&(l, w)| (l, w as u64)).collect();
        let weight = |l: Lit| weights.get(&l).copied().unwrap_or(1);
        match self {
            UpperEncoder::Gte(e) => go(e, db, k, &weight),
            UpperEncoder::Adder(e) => go(e, db, k, &weight),
            UpperEncoder::Dpw(e) => go(e, db, k, &weight),
        }
    }
}

/// An incremental pseudo-Boolean sum over fixed weighted literals.
#[derive(Debug)]
pub struct Pb {
    enc: PbEncoding,
    /// normalised terms: one per variable, positive weights
    terms: Vec<(Lit, usize)>,
    /// the constant part taken out by normalisation (`w·l + w·¬l = w`)
    offset: usize,
    /// sum of the normalised weights
    norm_total: usize,
    /// sum of the weights as given
    total: usize,
    upper: Option<UpperEncoder>,
    lower: Option<UpperEncoder>,
}

/// Merges the terms of each variable: repeated literals add their weights,
/// and `a·l + b·¬l = min(a, b) + (a − min)·l + (b − min)·¬l` moves the
/// common part into a constant. (RustSAT's encoders keep one weight per
/// literal, so they must never see a literal twice.)
fn normalise(terms: &[(Lit, usize)]) -> (Vec<(Lit, usize)>, usize) {
    let mut by_var: std::collections::BTreeMap<u32, (usize, usize)> = Default::default();
    for &(l, w) in terms {
        let e = by_var.entry(l.var().idx32()).or_default();
        if l.is_pos() {
            e.0 += w;
        } else {
            e.1 += w;
        }
    }
    let mut offset = 0;
    let mut out = Vec::with_capacity(by_var.len());
    for (v, (pos, neg)) in by_var {
        let common = pos.min(neg);
        offset += common;
        let var = rustsat::types::Var::new(v);
        if pos > common {
            out.push((var.pos_lit(), pos - common));
        }
        if neg > common {
            out.push((var.neg_lit(), neg - common));
        }
    }
    (out, offset)
}

impl Pb {
    /// A sum over `terms` (weights must be positive; zero weights are
    /// dropped; repeated and complementary literals are merged).
    pub fn new(enc: PbEncoding, terms: &[(Lit, usize)]) -> Self {
        let total = terms.iter().map(|&(_, w)| w).sum();
        let (terms, offset) = normalise(terms);
        let norm_total = terms.iter().map(|&(_, w)| w).sum();
        Pb {
            enc,
            terms,
            offset,
            norm_total,
            total,
            upper: None,
            lower: None,
        }
    }
    /// The encoding in use.
    pub fn encoding(&self) -> PbEncoding {
        self.enc
    }
    /// Sum of all weights.
    pub fn total_weight(&self) -> usize {
        self.total
    }

    /// Assumptions enforcing `Σ ≤ k` (empty when trivially true;
    /// [`Unsatisfiable`] when impossible, e.g. below the constant part of
    /// `l + ¬l`).
    pub fn at_most<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        k: usize,
    ) -> Result<Vec<Lit>, Unsatisfiable> {
        let k = k.checked_sub(self.offset).ok_or(Unsatisfiable)?;
        if k >= self.norm_total {
            return Ok(vec![]);
        }
        let (enc, terms) = (self.enc, &self.terms);
        Ok(self
            .upper
            .get_or_insert_with(|| UpperEncoder::new(enc, terms.iter().copied()))
            .at_most(db, k, terms))
    }

    /// Assumptions enforcing `Σ ≥ k` (empty when trivially true).
    pub fn at_least<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        k: usize,
    ) -> Result<Vec<Lit>, Unsatisfiable> {
        let k = k.saturating_sub(self.offset);
        if k == 0 {
            return Ok(vec![]);
        }
        if k > self.norm_total {
            return Err(Unsatisfiable);
        }
        let (enc, terms) = (self.enc, &self.terms);
        let negated: Vec<(Lit, usize)> = terms.iter().map(|&(l, w)| (!l, w)).collect();
        Ok(self
            .lower
            .get_or_insert_with(|| UpperEncoder::new(enc, negated.iter().copied()))
            .at_most(db, self.norm_total - k, &negated))
    }
}

/// Posts `Σ wᵢ·lᵢ ≤ k`.
pub fn at_most<DB: ClauseDatabase>(
    db: &mut DB,
    terms: &[(Lit, usize)],
    k: usize,
    enc: PbEncoding,
) -> Result<(), Unsatisfiable> {
    let weighted: Vec<(u64, Lit)> = terms.iter().map(|&(l, w)| (w as u64, l)).collect();
    crate::provenance::source(db, || Some(Ge::weighted_at_most(&weighted, k as i64)));
    let units = Pb::new(enc, terms).at_most(db, k);
    let r = db.post_units(units);
    crate::provenance::source(db, || None);
    r
}

/// Posts `Σ wᵢ·lᵢ ≥ k`.
pub fn at_least<DB: ClauseDatabase>(
    db: &mut DB,
    terms: &[(Lit, usize)],
    k: usize,
    enc: PbEncoding,
) -> Result<(), Unsatisfiable> {
    crate::provenance::source(db, || {
        Some(Ge::at_least(
            terms.iter().map(|&(l, w)| (w as i64, l)),
            k as i64,
        ))
    });
    let units = Pb::new(enc, terms).at_least(db, k);
    let r = db.post_units(units);
    crate::provenance::source(db, || None);
    r
}

/// Posts `Σ wᵢ·lᵢ = k`.
pub fn exactly<DB: ClauseDatabase>(
    db: &mut DB,
    terms: &[(Lit, usize)],
    k: usize,
    enc: PbEncoding,
) -> Result<(), Unsatisfiable> {
    let mut pb = Pb::new(enc, terms);
    let ub = pb.at_most(db, k);
    db.post_units(ub)?;
    let lb = pb.at_least(db, k);
    db.post_units(lb)
}

/// A pseudo-Boolean constraint as data: `Σ wᵢ·lᵢ cmp k` (positive weights;
/// a repeated literal adds its weights).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linear {
    /// weighted literals
    pub terms: Vec<(Lit, usize)>,
    /// the comparison
    pub cmp: Cmp,
    /// the bound
    pub k: usize,
}

impl Linear {
    /// Posts the constraint with the given encoding.
    pub fn post<DB: ClauseDatabase>(
        &self,
        db: &mut DB,
        enc: PbEncoding,
    ) -> Result<(), Unsatisfiable> {
        match self.cmp {
            Cmp::Le => at_most(db, &self.terms, self.k, enc),
            Cmp::Ge => at_least(db, &self.terms, self.k, enc),
            Cmp::Eq => exactly(db, &self.terms, self.k, enc),
        }
    }
    /// The weighted sum under an assignment.
    pub fn value(&self, a: &Assignment) -> usize {
        self.terms
            .iter()
            .filter(|&&(l, _)| a.lit(l))
            .map(|&(_, w)| w)
            .sum()
    }
}

impl Checker for Linear {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let v = self.value(a);
        if self.cmp.holds(v, self.k) {
            Ok(())
        } else {
            Err(format!(
                "weighted sum {v}, expected {} {}",
                self.cmp.symbol(),
                self.k
            ))
        }
    }
}
