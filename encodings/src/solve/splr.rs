//! Splr 0.17 (Shuji Narazaki's CDCL solver in pure Rust, after Glucose and
//! CaDiCaL's heuristics), used **one-shot**: splr 0.17 has no assumption
//! interface, so every solve call builds a fresh splr solver from all the
//! clauses added so far plus the assumptions as unit clauses. Consequences:
//! nothing learnt is kept between calls, and after an UNSAT answer under
//! assumptions every assumption is reported as failed (a valid, not
//! minimal, core).
//!
//! Limits: splr has no interrupt hook, and checks its `c_timeout` (whole
//! seconds) only at the end of its search stages. So each solve runs on a
//! thread of its own ([`super::abandonable`]): at the time limit or on
//! Ctrl-C the call answers [`Outcome::Unknown`] at once and the thread is
//! abandoned (nothing is lost: every call starts from the clause list;
//! the remaining time is still passed as `c_timeout`, so an abandoned
//! search ends soon after). splr's internal panics are caught and turned
//! into [`SolverError::Failed`].

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::Assignment;
use rustsat::types::Lit;
use splr::{Certificate, Config, SolveIF};

use super::{abandonable, Backend, BackendInfo, Capabilities, Limits, Outcome, SolverError, SolverStats, Waited};

/// Splr in the registry.
pub const BACKEND: BackendInfo = BackendInfo {
    name: "splr",
    about: "Splr 0.17 (pure Rust, one-shot: solved afresh at each call)",
    can: Capabilities {
        seed: false,
        conflict_limit: false,
        interrupt: true,
        proof: false,
        assumptions: false,
    },
    make: Some(make),
};

fn make() -> Box<dyn Backend> {
    Box::new(Splr::default())
}

/// The splr backend: the clause list, solved from scratch on each call.
#[derive(Default)]
pub struct Splr {
    clauses: Vec<Vec<i32>>,
    n_vars: u32,
    has_empty: bool,
    model: Option<Vec<i32>>,
    core: Vec<Lit>,
}

fn failed(message: String) -> SolverError {
    SolverError::Failed {
        solver: "splr".into(),
        message,
    }
}

/// splr's `c_timeout` for the time left: whole seconds, at least 1, and
/// "practically unlimited" without a deadline.
fn timeout_seconds(limits: &Limits) -> f64 {
    match limits.remaining() {
        Some(left) => left.as_secs_f64().ceil().max(1.0),
        None => 1.0e9,
    }
}

impl Backend for Splr {
    fn name(&self) -> String {
        "splr 0.17".into()
    }
    fn reserve(&mut self, n_vars: u32) {
        self.n_vars = self.n_vars.max(n_vars);
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        if lits.is_empty() {
            self.has_empty = true;
        }
        for l in lits {
            self.n_vars = self.n_vars.max(l.var().idx32() + 1);
        }
        self.clauses
            .push(lits.iter().map(|l| l.to_ipasir()).collect());
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.model = None;
        self.core.clear();
        if self.has_empty {
            return Ok(Outcome::Unsat);
        }
        let mut clauses = self.clauses.clone();
        clauses.extend(assumptions.iter().map(|l| vec![l.to_ipasir()]));
        let config = Config {
            c_timeout: timeout_seconds(limits),
            quiet_mode: true,
            ..Config::default()
        };
        let answer = match abandonable(limits, move || {
            catch_unwind(AssertUnwindSafe(|| {
                match splr::Solver::try_from((config, clauses.as_slice())) {
                    Ok(mut solver) => solver.solve(),
                    Err(early) => early,
                }
            }))
        }) {
            Waited::Done(Ok(answer)) => answer,
            Waited::Expired => return Ok(Outcome::Unknown),
            Waited::Done(Err(_)) | Waited::Gone => return Err(failed("splr panicked".into())),
        };
        match answer {
            Ok(Certificate::SAT(model)) => {
                self.model = Some(model);
                Ok(Outcome::Sat)
            }
            Ok(Certificate::UNSAT)
            | Err(splr::SolverError::EmptyClause)
            | Err(splr::SolverError::RootLevelConflict(_))
            | Err(splr::SolverError::Inconsistent) => {
                self.core = assumptions.to_vec();
                Ok(Outcome::Unsat)
            }
            Err(splr::SolverError::TimeOut) => Ok(Outcome::Unknown),
            Err(e) => Err(failed(format!("{e}"))),
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let model = self
            .model
            .as_ref()
            .ok_or_else(|| failed("no model: the last answer was not SAT".into()))?;
        let mut values = vec![false; n_vars as usize];
        for &x in model {
            let index = (x.unsigned_abs() as usize).checked_sub(1);
            if let Some(v) = index.and_then(|i| values.get_mut(i)) {
                *v = x > 0;
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
}
