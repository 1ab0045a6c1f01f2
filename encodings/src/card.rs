//! Cardinality constraints `Σ lits ≤ k`, `≥ k`, `= k`, built once and
//! tightened incrementally through assumptions.
//!
//! - **totalizer** (Bailleux & Boufkhad, "Efficient CNF encoding of Boolean
//!   cardinality constraints", CP 2003), RustSAT's implementation;
//! - **sequential counter** (Sinz, "Towards an optimal CNF encoding of Boolean
//!   cardinality constraints", CP 2005);
//! - **cardinality network** (Asín, Nieuwenhuis, Oliveras & Rodríguez-Carbonell,
//!   "Cardinality networks: a theoretical and empirical study", Constraints
//!   16(2), 2011).
//!
//! The last two are written here ([`SeqCounter`] in `card/seq_counter.rs`,
//! [`CardNetwork`] in `card/network.rs`); all three are built lazily, only
//! as far as the bounds asked so far need, in the direction each bound
//! needs, and all three make unit propagation enforce arc consistency
//! (checked exhaustively on small inputs in `tests/propagation.rs`).
//!
//! Repeated literals count once per occurrence.

mod network;
mod seq_counter;

pub use network::{CardNetwork, Output};
pub use seq_counter::SeqCounter;

use crate::provenance::Linear;
use crate::{Assignment, Checker, ClauseDatabase, Unsatisfiable};
use rustsat::encodings::card::{BoundLower, BoundUpper, Totalizer};
use rustsat::types::Lit;

crate::option_enum! {
    /// Which cardinality encoding to use.
    #[derive(Default)]
    pub enum CardEncoding("cardinality encoding") {
        /// totalizer (RustSAT)
        #[default]
        Totalizer = "totalizer",
        /// Sinz's sequential counter
        SeqCounter = "seq-counter",
        /// cardinality network (Asín et al.)
        CardNetwork = "card-network",
    }
}

/// An incremental cardinality counter over fixed input literals: encode once,
/// then ask for the assumptions enforcing any bound.
#[derive(Debug)]
pub struct Card {
    enc: CardEncoding,
    n: usize,
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Totalizer(Totalizer),
    SeqCounter(SeqCounter),
    /// the inputs, and the current network (rebuilt wider when a bound
    /// needs more outputs than it counts)
    Network(Vec<Lit>, Option<CardNetwork>),
}

impl Inner {
    /// The network counting at least `j` outputs exactly.
    fn network<'a>(xs: &[Lit], net: &'a mut Option<CardNetwork>, j: usize) -> &'a mut CardNetwork {
        if !matches!(net, Some(n) if n.capacity() >= j) {
            *net = Some(CardNetwork::new(xs, j));
        }
        net.as_mut().expect("just built")
    }
}

impl Card {
    /// A counter over `lits` (nothing is encoded until a bound is asked for);
    /// every encoding supports every input.
    pub fn new(enc: CardEncoding, lits: &[Lit]) -> Self {
        let inner = match enc {
            CardEncoding::Totalizer => Inner::Totalizer(Totalizer::from_iter(lits.iter().copied())),
            CardEncoding::SeqCounter => Inner::SeqCounter(SeqCounter::new(lits)),
            CardEncoding::CardNetwork => Inner::Network(lits.to_vec(), None),
        };
        Card {
            enc,
            n: lits.len(),
            inner,
        }
    }

    /// The encoding in use.
    pub fn encoding(&self) -> CardEncoding {
        self.enc
    }
    /// Number of input literals.
    pub fn n_lits(&self) -> usize {
        self.n
    }

    /// Assumptions enforcing `Σ ≤ k` (empty when trivially true).
    pub fn at_most<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        k: usize,
    ) -> Result<Vec<Lit>, Unsatisfiable> {
        if k >= self.n {
            return Ok(vec![]);
        }
        Ok(match &mut self.inner {
            Inner::Totalizer(t) => {
                db.with_rustsat(|col, vm| t.encode_ub(k..=k, col, vm))
                    .expect("buffer");
                t.enforce_ub(k).expect("encoded just above")
            }
            Inner::SeqCounter(c) => vec![!c.at_least_lit_up(db, k + 1)],
            Inner::Network(xs, net) => {
                match Inner::network(xs, net, k + 1).at_least_output(db, k + 1, true) {
                    Output::Lit(l) => vec![!l],
                    Output::Const(false) => vec![],
                    Output::Const(true) => return Err(Unsatisfiable), // always more than k
                }
            }
        })
    }

    /// Assumptions enforcing `Σ ≥ k` (empty when trivially true).
    pub fn at_least<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        k: usize,
    ) -> Result<Vec<Lit>, Unsatisfiable> {
        if k == 0 {
            return Ok(vec![]);
        }
        if k > self.n {
            return Err(Unsatisfiable);
        }
        match &mut self.inner {
            Inner::Totalizer(t) => {
                db.with_rustsat(|col, vm| t.encode_lb(k..=k, col, vm))
                    .expect("buffer");
                t.enforce_lb(k).map_err(|_| Unsatisfiable)
            }
            Inner::SeqCounter(c) => Ok(vec![c.at_least_lit_down(db, k)]),
            Inner::Network(xs, net) => {
                match Inner::network(xs, net, k).at_least_output(db, k, false) {
                    Output::Lit(l) => Ok(vec![l]),
                    Output::Const(true) => Ok(vec![]),
                    Output::Const(false) => Err(Unsatisfiable),
                }
            }
        }
    }
}

/// Posts `Σ lits ≤ k`.
pub fn at_most<DB: ClauseDatabase>(
    db: &mut DB,
    lits: &[Lit],
    k: usize,
    enc: CardEncoding,
) -> Result<(), Unsatisfiable> {
    crate::provenance::source(db, || Some(Linear::count_at_most(lits, k as i64)));
    let units = Card::new(enc, lits).at_most(db, k);
    let r = db.post_units(units);
    crate::provenance::source(db, || None);
    r
}

/// Posts `Σ lits ≥ k` ([`Unsatisfiable`], after the empty clause, if
/// `k > lits.len()`).
pub fn at_least<DB: ClauseDatabase>(
    db: &mut DB,
    lits: &[Lit],
    k: usize,
    enc: CardEncoding,
) -> Result<(), Unsatisfiable> {
    crate::provenance::source(db, || Some(Linear::count_at_least(lits, k as i64)));
    let units = Card::new(enc, lits).at_least(db, k);
    let r = db.post_units(units);
    crate::provenance::source(db, || None);
    r
}

/// Posts `Σ lits = k`.
pub fn exactly<DB: ClauseDatabase>(
    db: &mut DB,
    lits: &[Lit],
    k: usize,
    enc: CardEncoding,
) -> Result<(), Unsatisfiable> {
    let mut c = Card::new(enc, lits);
    let ub = c.at_most(db, k);
    db.post_units(ub)?;
    let lb = c.at_least(db, k);
    db.post_units(lb)
}

/// The comparison of a cardinality or pseudo-Boolean constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `Σ ≤ k`
    Le,
    /// `Σ ≥ k`
    Ge,
    /// `Σ = k`
    Eq,
}

impl Cmp {
    /// Does `value cmp k` hold?
    pub fn holds(self, value: usize, k: usize) -> bool {
        match self {
            Cmp::Le => value <= k,
            Cmp::Ge => value >= k,
            Cmp::Eq => value == k,
        }
    }
    /// The symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Le => "≤",
            Cmp::Ge => "≥",
            Cmp::Eq => "=",
        }
    }
}

/// A cardinality constraint as data: `Σ lits cmp k` (repeated literals
/// count once per occurrence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cardinality {
    /// the counted literals
    pub lits: Vec<Lit>,
    /// the comparison
    pub cmp: Cmp,
    /// the bound
    pub k: usize,
}

impl Cardinality {
    /// Posts the constraint with the given encoding.
    pub fn post<DB: ClauseDatabase>(
        &self,
        db: &mut DB,
        enc: CardEncoding,
    ) -> Result<(), Unsatisfiable> {
        match self.cmp {
            Cmp::Le => at_most(db, &self.lits, self.k, enc),
            Cmp::Ge => at_least(db, &self.lits, self.k, enc),
            Cmp::Eq => exactly(db, &self.lits, self.k, enc),
        }
    }
}

impl Checker for Cardinality {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let count = self.lits.iter().filter(|&&l| a.lit(l)).count();
        if self.cmp.holds(count, self.k) {
            Ok(())
        } else {
            Err(format!(
                "{count} true literals, expected {} {}",
                self.cmp.symbol(),
                self.k
            ))
        }
    }
}
