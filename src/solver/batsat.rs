//! BatSat (a MiniSat descendant in pure Rust, Eén & Sörensson, "An
//! Extensible SAT-solver", SAT 2003) through `rustsat-batsat`:
//! incremental, assumptions, unsat cores. The time limit and the interrupt
//! flag are polled by BatSat's `Callbacks::stop` hook, which the search
//! consults between conflicts; statistics come from BatSat's counters.

use batsat::SolverInterface;
use puzzlesat_encodings::Assignment;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal, Var};

use super::{Backend, Limits, Outcome, SolverError, SolverStats};

/// BatSat callbacks whose `stop()` answers the run's [`Limits`].
#[derive(Default)]
pub struct LimitCallbacks {
    limits: Limits,
}

impl batsat::Callbacks for LimitCallbacks {
    fn stop(&self) -> bool {
        self.limits.expired()
    }
}

/// The BatSat backend.
#[derive(Default)]
pub struct Batsat {
    solver: rustsat_batsat::Solver<LimitCallbacks>,
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
            // batsat's reserve only allocates variables: it cannot fail
            let _ = self.solver.reserve(Var::new(n_vars - 1));
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        self.solver.add_clause_ref(lits).map_err(failed)
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.core.clear();
        self.solver.batsat_mut().cb_mut().limits = limits.clone();
        let answer = self.solver.solve_assumps(assumptions).map_err(failed)?;
        // drop the shared flag: a later solve gets its own limits
        self.solver.batsat_mut().cb_mut().limits = Limits::default();
        match answer {
            SolverResult::Sat => Ok(Outcome::Sat),
            SolverResult::Unsat => {
                // rustsat's core is the clause of negated failed assumptions
                self.core = self.solver.core().map_err(failed)?.into_iter().map(|l| !l).collect();
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
        let s = self.solver.batsat_ref();
        SolverStats {
            conflicts: Some(s.num_conflicts()),
            decisions: Some(s.num_decisions()),
            propagations: Some(s.num_propagations()),
        }
    }
    fn is_incremental(&self) -> bool {
        true
    }
}
