//! Enumerating all solutions projected onto primary literals: after each
//! model, a blocking clause over the primary literals excludes its
//! projection (so auxiliary variables never multiply the count). The count
//! is "exactly N" only when the final answer is UNSAT.

use puzzlesat_encodings::{Assignment, ClauseDatabase};
use rustsat::types::Lit;

use crate::solver::{Outcome, Session, SolverError};

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

/// [`enumerate`] with constraints added lazily: `separate(model, session)`
/// may add clauses excluding a model (returning `true`: it is not counted and
/// the solver is asked again) or accept it (`false`).
pub fn enumerate_lazy(
    session: &mut Session,
    primary: &[Lit],
    assumptions: &[Lit],
    limit: Option<u64>,
    mut separate: impl FnMut(&Assignment, &mut Session) -> bool,
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
                if separate(&model, session) {
                    continue;
                }
                result.count += 1;
                // block this projection: at least one primary literal flips
                let block: Vec<Lit> = primary
                    .iter()
                    .map(|&l| if model.lit(l) { !l } else { l })
                    .collect();
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
