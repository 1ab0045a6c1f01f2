//! Varisat 0.2 (Jannis Harder's CDCL solver in pure Rust, with DRAT/LRAT
//! proof output): incremental, assumptions, failed-assumption cores.
//!
//! Limits: varisat 0.2 has no terminate callback and no budget (its only
//! interruption is a proof processor error, which leaves the solver
//! unusable), so a solve call runs to its answer; the [`Limits`] are
//! checked by [`super::Session`] before each call only. Use batsat or an
//! external solver where a hard time limit matters. No statistics are
//! exposed by its API.

use puzzlesat_encodings::Assignment;
use rustsat::types::Lit;
use varisat::ExtendFormula;

use super::{Backend, Limits, Outcome, SolverError, SolverStats};

/// The Varisat backend.
#[derive(Default)]
pub struct Varisat {
    solver: varisat::Solver<'static>,
    core: Vec<Lit>,
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.vidx(), l.is_pos())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    Lit::new(l.index() as u32, !l.is_positive())
}

impl Backend for Varisat {
    fn name(&self) -> String {
        "varisat 0.2".into()
    }
    fn reserve(&mut self, _n_vars: u32) {
        // varisat creates variables as clauses mention them; unseen
        // variables read as false in the model
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        let clause: Vec<varisat::Lit> = lits.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&clause);
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], _limits: &Limits) -> Result<Outcome, SolverError> {
        self.core.clear();
        let assumed: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&assumed);
        match self.solver.solve() {
            Ok(true) => Ok(Outcome::Sat),
            Ok(false) => {
                self.core = self.solver.failed_core().unwrap_or(&[]).iter().map(|&l| from_varisat(l)).collect();
                Ok(Outcome::Unsat)
            }
            Err(varisat::solver::SolverError::Interrupted) => Ok(Outcome::Unknown),
            Err(e) => Err(SolverError::Failed {
                solver: "varisat".into(),
                message: e.to_string(),
            }),
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let model = self.solver.model().ok_or_else(|| SolverError::Failed {
            solver: "varisat".into(),
            message: "no model: the last answer was not SAT".into(),
        })?;
        let mut values = vec![false; n_vars as usize];
        for l in model {
            if let Some(v) = values.get_mut(l.index()) {
                *v = l.is_positive();
            }
        }
        Ok(Assignment::from_values(values))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }
    fn is_incremental(&self) -> bool {
        true
    }
}
