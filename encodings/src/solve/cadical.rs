//! CaDiCaL 1.9 (Biere, Fazekas, Fleury & Heisinger, "CaDiCaL, Kissat,
//! Paracooba, Plingeling and Treengeling entering the SAT Competition
//! 2020") linked in through the `cadical` crate (compiled from its C++
//! sources with the system C++ compiler; cargo feature `cadical`).
//! Incremental, assumptions, failed assumptions through `failed`; the time
//! limit and interrupt flag are polled by CaDiCaL's terminate callback.
//! The crate exposes no search statistics.

use crate::Assignment;
use rustsat::types::Lit;

use super::{Backend, BackendInfo, Capabilities, Limits, Outcome, SolverError, SolverStats};

/// CaDiCaL in the registry.
pub const BACKEND: BackendInfo = BackendInfo {
    name: "cadical",
    about: "CaDiCaL 1.9 linked in (C++, incremental; feature cadical)",
    can: Capabilities {
        seed: false,
        conflict_limit: false,
        interrupt: true,
        proof: false,
        assumptions: true,
    },
    make: Some(make),
};

fn make() -> Box<dyn Backend> {
    Box::new(Cadical::default())
}

/// CaDiCaL's terminate callback answering the run's [`Limits`].
#[derive(Default)]
struct LimitCallbacks {
    limits: Limits,
}

impl cadical::Callbacks for LimitCallbacks {
    fn terminate(&mut self) -> bool {
        self.limits.expired()
    }
}

/// The CaDiCaL backend.
#[derive(Default)]
pub struct Cadical {
    solver: cadical::Solver<LimitCallbacks>,
    n_vars: u32,
    core: Vec<Lit>,
}

impl Backend for Cadical {
    fn name(&self) -> String {
        self.solver.signature().to_string()
    }
    fn reserve(&mut self, n_vars: u32) {
        if n_vars > self.n_vars {
            self.n_vars = n_vars;
            self.solver.reserve(n_vars as i32);
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        for l in lits {
            self.reserve(l.var().idx32() + 1);
        }
        self.solver.add_clause(lits.iter().map(|l| l.to_ipasir()));
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.core.clear();
        for a in assumptions {
            self.reserve(a.var().idx32() + 1);
        }
        self.solver.set_callbacks(Some(LimitCallbacks {
            limits: limits.clone(),
        }));
        let answer = self
            .solver
            .solve_with(assumptions.iter().map(|l| l.to_ipasir()));
        self.solver.set_callbacks(None);
        Ok(match answer {
            Some(true) => Outcome::Sat,
            Some(false) => {
                self.core = assumptions
                    .iter()
                    .copied()
                    .filter(|a| self.solver.failed(a.to_ipasir()))
                    .collect();
                Outcome::Unsat
            }
            None => Outcome::Unknown,
        })
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        if self.solver.status() != Some(true) {
            return Err(SolverError::Failed {
                solver: "cadical".into(),
                message: "no model: the last answer was not SAT".into(),
            });
        }
        let known = n_vars.min(self.n_vars);
        let mut values: Vec<bool> = (1..=known as i32)
            .map(|x| self.solver.value(x) == Some(true))
            .collect();
        values.resize(n_vars as usize, false);
        Ok(Assignment::from_values(values))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }
}
