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

use std::fmt;
use std::str::FromStr;

use crate::card::Infeasible;
use crate::ClauseDatabase;
use rustsat::encodings::pb::{BinaryAdder, BoundUpper, DynamicPolyWatchdog, GeneralizedTotalizer};
use rustsat::types::Lit;

/// Which pseudo-Boolean encoding to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PbEncoding {
    /// generalized totalizer
    #[default]
    Gte,
    /// binary adder
    Adder,
    /// dynamic polynomial watchdog
    Dpw,
}

impl PbEncoding {
    /// Every variant.
    pub const ALL: [PbEncoding; 3] = [PbEncoding::Gte, PbEncoding::Adder, PbEncoding::Dpw];
    /// The option name.
    pub fn name(self) -> &'static str {
        match self {
            PbEncoding::Gte => "gte",
            PbEncoding::Adder => "adder",
            PbEncoding::Dpw => "dpw",
        }
    }
}

impl fmt::Display for PbEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PbEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown pseudo-Boolean encoding '{s}' (expected one of: gte, adder, dpw)"))
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
    fn at_most<DB: ClauseDatabase>(&mut self, db: &mut DB, k: usize) -> Vec<Lit> {
        fn go<E: BoundUpper, DB: ClauseDatabase>(e: &mut E, db: &mut DB, k: usize) -> Vec<Lit> {
            // DPW enforces only bounds it can encode exactly; ask for the
            // coarse bound and keep the exact one (coarse_ub(k) == k for the others)
            db.with_rustsat(|col, vm| e.encode_ub(k..=k, col, vm)).expect("buffer");
            e.enforce_ub(k).expect("bound encoded just above")
        }
        match self {
            UpperEncoder::Gte(e) => go(e, db, k),
            UpperEncoder::Adder(e) => go(e, db, k),
            UpperEncoder::Dpw(e) => go(e, db, k),
        }
    }
}

/// An incremental pseudo-Boolean sum over fixed weighted literals.
#[derive(Debug)]
pub struct Pb {
    enc: PbEncoding,
    terms: Vec<(Lit, usize)>,
    total: usize,
    upper: Option<UpperEncoder>,
    lower: Option<UpperEncoder>,
}

impl Pb {
    /// A sum over `terms` (weights must be positive; zero weights are dropped).
    pub fn new(enc: PbEncoding, terms: &[(Lit, usize)]) -> Self {
        let terms: Vec<(Lit, usize)> = terms.iter().copied().filter(|&(_, w)| w > 0).collect();
        let total = terms.iter().map(|&(_, w)| w).sum();
        Pb {
            enc,
            terms,
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

    /// Assumptions enforcing `Σ ≤ k` (empty when trivially true).
    pub fn at_most<DB: ClauseDatabase>(&mut self, db: &mut DB, k: usize) -> Vec<Lit> {
        if k >= self.total {
            return vec![];
        }
        let (enc, terms) = (self.enc, &self.terms);
        self.upper
            .get_or_insert_with(|| UpperEncoder::new(enc, terms.iter().copied()))
            .at_most(db, k)
    }

    /// Assumptions enforcing `Σ ≥ k` (empty when trivially true).
    pub fn at_least<DB: ClauseDatabase>(&mut self, db: &mut DB, k: usize) -> Result<Vec<Lit>, Infeasible> {
        if k == 0 {
            return Ok(vec![]);
        }
        if k > self.total {
            return Err(Infeasible);
        }
        let (enc, terms) = (self.enc, &self.terms);
        Ok(self
            .lower
            .get_or_insert_with(|| UpperEncoder::new(enc, terms.iter().map(|&(l, w)| (!l, w))))
            .at_most(db, self.total - k))
    }
}

fn post_units<DB: ClauseDatabase>(db: &mut DB, r: Result<Vec<Lit>, Infeasible>) {
    match r {
        Ok(units) => units.into_iter().for_each(|l| db.unit(l)),
        Err(Infeasible) => db.add(&[]),
    }
}

/// Posts `Σ wᵢ·lᵢ ≤ k`.
pub fn at_most<DB: ClauseDatabase>(db: &mut DB, terms: &[(Lit, usize)], k: usize, enc: PbEncoding) {
    let mut pb = Pb::new(enc, terms);
    let r = pb.at_most(db, k);
    post_units(db, Ok(r));
}

/// Posts `Σ wᵢ·lᵢ ≥ k`.
pub fn at_least<DB: ClauseDatabase>(db: &mut DB, terms: &[(Lit, usize)], k: usize, enc: PbEncoding) {
    let mut pb = Pb::new(enc, terms);
    let r = pb.at_least(db, k);
    post_units(db, r);
}

/// Posts `Σ wᵢ·lᵢ = k`.
pub fn exactly<DB: ClauseDatabase>(db: &mut DB, terms: &[(Lit, usize)], k: usize, enc: PbEncoding) {
    let mut pb = Pb::new(enc, terms);
    let r = pb.at_most(db, k);
    post_units(db, Ok(r));
    let r = pb.at_least(db, k);
    post_units(db, r);
}
