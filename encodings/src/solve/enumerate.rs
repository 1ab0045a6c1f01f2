//! Enumerating all solutions projected onto primary literals: after each
//! model, a blocking clause over the primary literals excludes its
//! projection (so auxiliary variables never multiply the count). The count
//! is "exactly N" only when the final answer is UNSAT.
//!
//! Where the backend can ([`Session::enumerate_in_search`], BatSat), the
//! whole enumeration is one search: each model's blocking clause is raised
//! as a conflict and the solver backjumps from it; otherwise one solve call
//! per model. Lazy constraints (`separate`) end the search when they add
//! clauses, which are then added and the search resumes. The backend's set
//! of projections seen lives for one search, and BatSat may keep a model's
//! blocking clause only as a learnt clause (when the clause it learns from
//! the conflict is the same clause), which its clause-database reduction
//! may delete; so when a lazy constraint ends a search, the blocking clauses
//! of the models that search accepted are added as permanent clauses too,
//! and no model is counted twice across searches.

use crate::{Assignment, ClauseDatabase, Cnf};
use rustsat::instances::ManageVars;
use rustsat::types::{Lit, Var};

use super::{ModelVerdict, Outcome, Session, SolverError};

crate::option_enum! {
    /// How models are enumerated (`--enumeration`; Toda & Soh, "Implementing
    /// Efficient All Solutions SAT Solvers", ACM JEA 2016).
    #[derive(Default)]
    pub enum EnumerationEngine("enumeration engine") {
        /// the built-in engine ([`super::allsat`]): chronological backtracking, no clause per model, learning while models are sparse
        #[default]
        NonBlocking = "non-blocking",
        /// the built-in engine: chronological backtracking after models, learning from every conflict
        NonBlockingLearning = "non-blocking-learning",
        /// the built-in engine: chronological backtracking after models and conflicts, no learning
        NonBlockingDpll = "non-blocking-dpll",
        /// the built-in engine: one clause of the negated primary decisions per model
        DecisionBlocking = "decision-blocking",
        /// the chosen backend: one blocking clause over every primary literal per model
        Blocking = "blocking",
    }
}

impl EnumerationEngine {
    /// The built-in engine's mode, None for `blocking` (the chosen backend).
    pub fn built_in(self) -> Option<super::AllSatMode> {
        match self {
            EnumerationEngine::NonBlocking => Some(super::AllSatMode::NonBlocking),
            EnumerationEngine::NonBlockingLearning => Some(super::AllSatMode::NonBlockingLearning),
            EnumerationEngine::NonBlockingDpll => Some(super::AllSatMode::NonBlockingDpll),
            EnumerationEngine::DecisionBlocking => Some(super::AllSatMode::DecisionBlocking),
            EnumerationEngine::Blocking => None,
        }
    }
}

/// The result of an enumeration.
#[derive(Clone, Debug, Default)]
pub struct Enumeration {
    /// number of distinct projected solutions found
    pub count: u64,
    /// true if the enumeration ended on UNSAT: the count is exact
    pub complete: bool,
}

/// Enumerates models projected onto `primary`, calling `on_model` for each
/// (return `false` from it to stop early), up to `limit` models.
pub fn enumerate(
    session: &mut Session,
    primary: &[Lit],
    assumptions: &[Lit],
    limit: Option<u64>,
    on_model: impl FnMut(&Assignment) -> bool,
) -> Result<Enumeration, SolverError> {
    enumerate_lazy(session, primary, assumptions, limit, |_, _| false, on_model)
}

/// [`enumerate`] with constraints added lazily: `separate(model, db)` may
/// add clauses to `db` excluding a model (returning `true`: it is not
/// counted, the clauses are added to the session and the solver is asked
/// again) or accept it (`false`). `db` continues the session's variable
/// numbering.
pub fn enumerate_lazy(
    session: &mut Session,
    primary: &[Lit],
    assumptions: &[Lit],
    limit: Option<u64>,
    mut separate: impl FnMut(&Assignment, &mut Cnf) -> bool,
    mut on_model: impl FnMut(&Assignment) -> bool,
) -> Result<Enumeration, SolverError> {
    let mut result = Enumeration::default();
    if primary.is_empty() {
        // nothing to project on: at most one solution class
        return enumerate_by_solves(session, primary, assumptions, Some(1), separate, on_model);
    }
    // a backend that resumes its search after a lazy constraint needs no
    // record of the models it counted (memory stays flat)
    let keep_blocks = !session.resumes_enumeration();
    loop {
        if limit.is_some_and(|l| result.count >= l) {
            return Ok(result);
        }
        let mut cuts: Option<Cnf> = None;
        let mut accepted: Vec<Vec<Lit>> = vec![];
        let n_vars = session.n_used();
        let count0 = result.count;
        let answer = session.enumerate_in_search(primary, assumptions, &mut |model| {
            let mut db = scratch(n_vars);
            if separate(model, &mut db) {
                cuts = Some(db);
                return ModelVerdict::Retry;
            }
            if keep_blocks {
                accepted.push(block(primary, model));
            }
            result.count += 1;
            if !on_model(model) || limit.is_some_and(|l| result.count >= l) {
                return ModelVerdict::Stop;
            }
            ModelVerdict::Next
        });
        let Some(answer) = answer else {
            // the backend cannot: one solve per model
            return enumerate_by_solves(session, primary, assumptions, limit, separate, on_model);
        };
        let found = answer?;
        debug_assert_eq!(found.count, result.count - count0);
        match (found.outcome, cuts) {
            (Outcome::Unsat, _) => {
                result.complete = true;
                return Ok(result);
            }
            (_, Some(db)) => {
                for c in db.clauses() {
                    session.add(c);
                }
                if keep_blocks {
                    // the next search starts with an empty set of projections seen
                    for c in &accepted {
                        session.add(c);
                    }
                }
            }
            // the limit, on_model's stop, or the time limit
            _ => return Ok(result),
        }
    }
}

/// The blocking clause of `model`'s projection: at least one primary
/// literal flips.
fn block(primary: &[Lit], model: &Assignment) -> Vec<Lit> {
    primary
        .iter()
        .map(|&l| if model.lit(l) { !l } else { l })
        .collect()
}

/// A clause database for lazy constraints that continues the session's
/// variable numbering from `n_vars`.
fn scratch(n_vars: u32) -> Cnf {
    let mut db = Cnf::new();
    if n_vars > 0 {
        db.increase_next_free(Var::new(n_vars));
    }
    db
}

/// One solve call per model, each followed by a blocking clause.
fn enumerate_by_solves(
    session: &mut Session,
    primary: &[Lit],
    assumptions: &[Lit],
    limit: Option<u64>,
    mut separate: impl FnMut(&Assignment, &mut Cnf) -> bool,
    mut on_model: impl FnMut(&Assignment) -> bool,
) -> Result<Enumeration, SolverError> {
    let mut result = Enumeration::default();
    loop {
        if limit.is_some_and(|l| result.count >= l) {
            return Ok(result);
        }
        match session.solve(assumptions)? {
            Outcome::Sat => {
                let model = session.model()?;
                let mut db = scratch(session.n_used());
                if separate(&model, &mut db) {
                    for c in db.clauses() {
                        session.add(c);
                    }
                    continue;
                }
                result.count += 1;
                let block = block(primary, &model);
                if block.is_empty() {
                    // nothing to project on: exactly one solution class
                    on_model(&model);
                    result.complete = true;
                    return Ok(result);
                }
                session.add(&block);
                if !on_model(&model) {
                    return Ok(result);
                }
            }
            Outcome::Unsat => {
                result.complete = true;
                return Ok(result);
            }
            Outcome::Unknown => return Ok(result),
        }
    }
}
