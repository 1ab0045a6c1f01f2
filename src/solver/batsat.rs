//! BatSat (a MiniSat descendant in pure Rust) through `rustsat-batsat`:
//! incremental, assumptions, unsat cores.

use puzzlesat_encodings::Assignment;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal, Var};

use super::{Backend, Limits, Outcome, SolverError, SolverStats};

/// The BatSat backend.
#[derive(Default)]
pub struct Batsat {
    solver: rustsat_batsat::BasicSolver,
    core: Vec<Lit>,
}

fn failed(e: anyhow::Error) -> SolverError {
    SolverError::Failed {
        solver: "batsat".into(),
        message: e.to_string(),
    }
}

impl Backend for Batsat {
    fn name(&self) -> String {
        self.solver.signature().to_string()
    }
    fn reserve(&mut self, n_vars: u32) {
        if n_vars > 0 {
            self.solver.reserve(Var::new(n_vars - 1)).expect("batsat reserve");
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        self.solver.add_clause_ref(lits).map_err(failed)
    }
    fn solve(&mut self, assumptions: &[Lit], _limits: &Limits) -> Result<Outcome, SolverError> {
        self.core.clear();
        match self.solver.solve_assumps(assumptions).map_err(failed)? {
            SolverResult::Sat => Ok(Outcome::Sat),
            SolverResult::Unsat => {
                self.core = self.solver.core().map_err(failed)?;
                Ok(Outcome::Unsat)
            }
            SolverResult::Interrupted => Ok(Outcome::Unknown),
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let mut values = Vec::with_capacity(n_vars as usize);
        for i in 0..n_vars {
            let v = self.solver.var_val(Var::new(i)).map_err(failed)?;
            values.push(v == TernaryVal::True);
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
