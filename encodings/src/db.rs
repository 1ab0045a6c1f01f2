//! The single sink of every encoder: [`ClauseDatabase`] hands out fresh
//! variables and takes clauses, and counts variables, clauses and literals
//! itself (STYLE: "counts you trust"). It is built on RustSAT's
//! [`CollectClauses`] + [`ManageVars`], so RustSAT's encoders write through
//! it via [`ClauseDatabase::with_rustsat`].

use rustsat::encodings::CollectClauses;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use crate::provenance::{Linear, Provenance};

/// The one error of posting a constraint (pindakaas's style): the constraint
/// is trivially false — at least 5 of 4 literals, exactly one of none, an
/// integer with an empty domain, all different over fewer values than
/// variables. The encoder has added the empty clause before returning it, so
/// the database stays the right (unsatisfiable) formula; a caller may stop
/// encoding early, or ignore the error and let the solver answer UNSAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("the constraint is unsatisfiable")]
pub struct Unsatisfiable;

/// Errors of malformed encoder *parameters* (not of an unsatisfiable
/// constraint, which is [`Unsatisfiable`]): an encoder reports them instead
/// of producing a wrong formula.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// The encoder does not support these parameters (never an empty formula).
    #[error("{encoder} does not support {what}")]
    Unsupported {
        /// encoder name
        encoder: &'static str,
        /// the unsupported parameter combination
        what: String,
    },
    /// Malformed input to an encoder (e.g. a list that is not a permutation).
    #[error("invalid input: {what}")]
    Invalid {
        /// what is wrong
        what: String,
    },
    /// A structure would exceed a size guard.
    #[error("{what} has {size} elements, over the limit of {limit}")]
    TooLarge {
        /// what was being built
        what: String,
        /// its size (or a lower bound on it)
        size: usize,
        /// the guard
        limit: usize,
    },
}

/// Running counts of what was added to a database.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// variables allocated (the DIMACS `p cnf` variable count)
    pub vars: u32,
    /// clauses added
    pub clauses: usize,
    /// literal occurrences over all clauses
    pub literals: usize,
}

/// Fresh variables in, clauses out. Implemented by [`Cnf`] and by the solver
/// session of the main crate, so an encoder never knows where its clauses go.
pub trait ClauseDatabase: CollectClauses + ManageVars {
    /// Adds one clause given as a slice of literals.
    fn add(&mut self, lits: &[Lit]);

    /// Counts of variables, clauses and literals so far.
    fn counts(&self) -> Counts;

    /// A literal fixed to true (allocated once, with its unit clause).
    /// Encoders use it (and its negation) for constants such as `[x >= v]`
    /// outside a domain; [`Cnf`] drops satisfied clauses and false literals
    /// mentioning it, so constants cost no clauses.
    fn true_lit(&mut self) -> Lit;

    /// The definitions log ([`crate::provenance`]) when this database
    /// keeps one (for VeriPB proofs), else None (the default): encoders
    /// record their auxiliary variables' meaning through it.
    fn provenance(&mut self) -> Option<&mut Provenance> {
        None
    }

    /// A fresh literal (positive polarity of a fresh variable).
    fn fresh(&mut self) -> Lit {
        self.new_var().pos_lit()
    }

    /// `n` fresh literals.
    fn fresh_lits(&mut self, n: usize) -> Vec<Lit> {
        (0..n).map(|_| self.fresh()).collect()
    }

    /// A unit clause.
    fn unit(&mut self, l: Lit) {
        self.add(&[l]);
    }

    /// Posts each literal as a unit clause (the assumptions a bound of a
    /// [`Card`](crate::card::Card) or [`Pb`](crate::pb::Pb) returns, made
    /// permanent); an `Err` posts the empty clause and is returned.
    fn post_units(&mut self, units: Result<Vec<Lit>, Unsatisfiable>) -> Result<(), Unsatisfiable> {
        match units {
            Ok(units) => {
                units.into_iter().for_each(|l| self.unit(l));
                Ok(())
            }
            Err(e) => {
                self.add(&[]);
                Err(e)
            }
        }
    }

    /// Runs a RustSAT encoder, whose API wants the clause collector and the
    /// variable manager as two separate borrows: clauses are buffered, new
    /// variables are drawn from this database's counter.
    fn with_rustsat<R>(
        &mut self,
        f: impl FnOnce(&mut rustsat::instances::Cnf, &mut dyn ManageVars) -> R,
    ) -> R
    where
        Self: Sized,
    {
        self.with_rustsat_weighted(&|_| 1, f)
    }

    /// [`ClauseDatabase::with_rustsat`] for an encoder over weighted
    /// inputs: when the database keeps a definitions log, the meaning of
    /// the encoder's new variables is inferred from its clauses with the
    /// inputs' weights ([`crate::provenance::infer_upward`]).
    fn with_rustsat_weighted<R>(
        &mut self,
        weight: &dyn Fn(Lit) -> u64,
        f: impl FnOnce(&mut rustsat::instances::Cnf, &mut dyn ManageVars) -> R,
    ) -> R
    where
        Self: Sized,
    {
        let first_new = self.n_used();
        let mut vm = BasicVarManager::from_next_free(Var::new(first_new));
        let mut buf = rustsat::instances::Cnf::new();
        let r = f(&mut buf, &mut vm);
        if vm.n_used() > 0 {
            self.increase_next_free(Var::new(vm.n_used()));
        }
        if let Some(p) = self.provenance() {
            let clauses: Vec<Vec<Lit>> = buf.iter().map(|c| c.iter().copied().collect()).collect();
            p.infer(&clauses, first_new, weight);
        }
        for cl in buf {
            self.add(&cl[..]);
        }
        r
    }
}

/// An in-memory CNF: the default target of `Puzzle::encode`, the source of
/// DIMACS export, and what a solver session is loaded from.
#[derive(Clone, Debug, Default)]
pub struct Cnf {
    n_vars: u32,
    true_lit: Option<Lit>,
    lits: Vec<Lit>,
    starts: Vec<usize>,
    /// clauses kept at most (None: no limit)
    budget: Option<usize>,
    /// clauses counted but not kept, past the budget
    refused: usize,
    /// the definitions log, when recording ([`Cnf::record_provenance`])
    provenance: Option<Box<Provenance>>,
}

impl Cnf {
    /// An empty formula over no variables.
    pub fn new() -> Self {
        Self::default()
    }
    /// An empty formula that keeps at most `max_clauses` clauses: past
    /// that, clauses are counted ([`Cnf::refused`]) but not stored, so the
    /// memory an encoder that outgrew its budget takes stays bounded until
    /// it returns and the caller reports it.
    pub fn with_budget(max_clauses: usize) -> Self {
        Cnf {
            budget: Some(max_clauses),
            ..Self::default()
        }
    }
    /// Starts the definitions log ([`crate::provenance`]): from now on
    /// every clause is tagged with its source and encoders record their
    /// auxiliary variables' meaning. Call it on an empty formula.
    pub fn record_provenance(&mut self) {
        assert!(
            self.is_empty(),
            "Cnf::record_provenance on a formula with clauses"
        );
        self.provenance = Some(Box::new(Provenance::new()));
    }
    /// The definitions log, if recording.
    pub fn provenance_log(&self) -> Option<&Provenance> {
        self.provenance.as_deref()
    }
    /// The definitions log, taken out (recording stops).
    pub fn take_provenance(&mut self) -> Option<Provenance> {
        self.provenance.take().map(|b| *b)
    }
    /// Clauses added past the budget (and dropped): any is an incomplete
    /// formula, never to be solved or written.
    pub fn refused(&self) -> usize {
        self.refused
    }
    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.starts.len()
    }
    /// True if there are no clauses.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
    /// The `i`-th clause.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.lits.len());
        &self.lits[self.starts[i]..end]
    }
    /// All clauses, in insertion order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        (0..self.len()).map(move |i| self.clause(i))
    }
    /// Number of variables (max index + 1 over allocated and used variables).
    pub fn n_vars(&self) -> u32 {
        self.n_vars
    }
}

/// `ManageVars` for a database that counts its variables in a field
/// `n_vars: u32` (the in-memory [`Cnf`] and the solver session);
/// `forget_from` is given, as the two differ there.
macro_rules! manage_vars_by_counter {
    ($ty:ty, |$this:ident, $min_var:ident| $forget:block) => {
        impl rustsat::instances::ManageVars for $ty {
            fn new_var(&mut self) -> rustsat::types::Var {
                let v = rustsat::types::Var::new(self.n_vars);
                self.n_vars += 1;
                v
            }
            fn max_var(&self) -> Option<rustsat::types::Var> {
                self.n_vars.checked_sub(1).map(rustsat::types::Var::new)
            }
            fn increase_next_free(&mut self, v: rustsat::types::Var) -> bool {
                if v.idx32() > self.n_vars {
                    self.n_vars = v.idx32();
                    true
                } else {
                    false
                }
            }
            fn combine(&mut self, other: Self) {
                self.n_vars = self.n_vars.max(other.n_vars);
            }
            fn n_used(&self) -> u32 {
                self.n_vars
            }
            fn forget_from(&mut $this, $min_var: rustsat::types::Var) $forget
        }
    };
}
pub(crate) use manage_vars_by_counter;

manage_vars_by_counter!(Cnf, |self, min_var| {
    self.n_vars = self.n_vars.min(min_var.idx32());
});

impl CollectClauses for Cnf {
    fn n_clauses(&self) -> usize {
        self.len()
    }
    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        for cl in cl_iter {
            self.add(&cl[..]);
        }
        Ok(())
    }
}

impl ClauseDatabase for Cnf {
    fn add(&mut self, lits: &[Lit]) {
        if let Some(t) = self.true_lit {
            if lits.contains(&t) {
                return; // satisfied by the constant
            }
        }
        if self.budget.is_some_and(|b| self.starts.len() >= b) {
            self.refused += 1;
            return;
        }
        if let Some(p) = &mut self.provenance {
            p.clause_added();
        }
        let start = self.lits.len();
        for &l in lits {
            if l.var().idx32() >= self.n_vars {
                self.n_vars = l.var().idx32() + 1;
            }
            if Some(!l) != self.true_lit {
                self.lits.push(l);
            }
        }
        self.starts.push(start);
    }
    fn true_lit(&mut self) -> Lit {
        if let Some(t) = self.true_lit {
            return t;
        }
        let t = self.new_var().pos_lit();
        if let Some(p) = &mut self.provenance {
            // t ⇔ (0 ≥ 0): true
            p.define(t, Linear::at_least([], 0));
            p.clause_added();
        }
        self.starts.push(self.lits.len());
        self.lits.push(t);
        self.true_lit = Some(t);
        t
    }
    fn provenance(&mut self) -> Option<&mut Provenance> {
        self.provenance.as_deref_mut()
    }
    fn counts(&self) -> Counts {
        Counts {
            vars: self.n_vars,
            clauses: self.starts.len(),
            literals: self.lits.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::encodings::card::{BoundUpper, Totalizer};

    #[test]
    fn a_budget_bounds_the_clauses_kept() {
        let mut cnf = Cnf::with_budget(2);
        let x = cnf.fresh_lits(3);
        for l in &x {
            cnf.add(&[*l]);
        }
        assert_eq!((cnf.len(), cnf.refused()), (2, 1));
        assert_eq!(Cnf::new().refused(), 0);
    }

    #[test]
    fn counts_and_clauses() {
        let mut cnf = Cnf::new();
        let a = cnf.fresh();
        let b = cnf.fresh();
        cnf.add(&[a, b]);
        cnf.add(&[!a]);
        assert_eq!(
            cnf.counts(),
            Counts {
                vars: 2,
                clauses: 2,
                literals: 3
            }
        );
        assert_eq!(cnf.clause(1), &[!a]);
    }

    #[test]
    fn constants_are_simplified_away() {
        let mut cnf = Cnf::new();
        let a = cnf.fresh();
        let t = cnf.true_lit();
        cnf.add(&[a, t]); // satisfied: dropped
        cnf.add(&[a, !t]); // false literal removed
        assert_eq!(cnf.len(), 2); // the unit [t] and [a]
        assert_eq!(cnf.clause(1), &[a]);
        assert_eq!(cnf.true_lit(), t);
    }

    #[test]
    fn rustsat_encoder_draws_fresh_vars_from_the_database() {
        let mut cnf = Cnf::new();
        let xs = cnf.fresh_lits(4);
        let mut tot = Totalizer::from_iter(xs.clone());
        cnf.with_rustsat(|col, vm| tot.encode_ub(1..=1, col, vm).unwrap());
        assert!(cnf.n_vars() > 4);
        let next = cnf.fresh();
        // no clause may mention the variable handed out after the encoder ran
        assert!(cnf
            .clauses()
            .all(|c| c.iter().all(|l| l.var() != next.var())));
    }
}
