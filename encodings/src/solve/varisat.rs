//! Varisat 0.2 (Jannis Harder's CDCL solver in pure Rust, with DRAT/LRAT
//! proof output): incremental, assumptions, failed-assumption cores.
//!
//! Limits: varisat 0.2 has no terminate callback and no budget (its only
//! interruption is a proof processor error, which leaves the solver
//! unusable), and its solver cannot move between threads. So the solver
//! lives on a thread of its own, fed clauses and solve requests through a
//! channel: when the time limit passes or Ctrl-C is pressed during a solve,
//! the call answers [`Outcome::Unknown`] at once and the thread is
//! abandoned (it ends when its search does, or with the process). The
//! backend keeps a log of its clauses, so the next call starts a fresh
//! solver thread from them (what was learnt is lost, nothing else: a
//! portfolio's varisat member goes on after losing a race). No statistics
//! are exposed by its API.

use std::sync::mpsc::{channel, Receiver, Sender};

use crate::Assignment;
use rustsat::types::Lit;
use varisat::ExtendFormula;

use super::{wait_for, Backend, BackendInfo, Capabilities, Limits, Outcome, SolverError, SolverStats, Waited};

/// Varisat in the registry.
pub const BACKEND: BackendInfo = BackendInfo {
    name: "varisat",
    about: "Varisat 0.2 (pure Rust, incremental, DRAT proofs)",
    can: Capabilities {
        seed: false,
        conflict_limit: false,
        interrupt: true,
        proof: true,
        assumptions: true,
    },
    make: Some(make),
};

fn make() -> Box<dyn Backend> {
    Box::new(Varisat::default())
}

/// What the solver thread is asked to do.
enum Command {
    Add(Vec<varisat::Lit>),
    Solve(Vec<varisat::Lit>),
}

/// A solve's answer from the solver thread.
enum Reply {
    Sat(Vec<varisat::Lit>),
    Unsat(Vec<varisat::Lit>),
    Unknown,
    Error(String),
}

/// The Varisat backend: the channel to its solver thread.
pub struct Varisat {
    commands: Sender<Command>,
    replies: Receiver<Reply>,
    /// every clause added, to restart after an abandoned solve
    clauses: Vec<Vec<varisat::Lit>>,
    /// a solve was abandoned: the next call starts a fresh thread
    abandoned: bool,
    model: Option<Vec<varisat::Lit>>,
    core: Vec<Lit>,
}

impl Default for Varisat {
    fn default() -> Self {
        let (commands, replies) = solver_thread();
        Varisat {
            commands,
            replies,
            clauses: Vec::new(),
            abandoned: false,
            model: None,
            core: Vec::new(),
        }
    }
}

/// Starts a thread owning a varisat solver: the channels to it.
fn solver_thread() -> (Sender<Command>, Receiver<Reply>) {
    let (commands, jobs) = channel::<Command>();
    let (answer, replies) = channel::<Reply>();
    std::thread::spawn(move || {
        let mut solver = varisat::Solver::new();
        // ends when the backend drops its sender (or abandons the thread)
        for job in jobs {
            match job {
                Command::Add(clause) => solver.add_clause(&clause),
                Command::Solve(assumptions) => {
                    solver.assume(&assumptions);
                    let reply = match solver.solve() {
                        Ok(true) => Reply::Sat(solver.model().unwrap_or_default()),
                        Ok(false) => Reply::Unsat(solver.failed_core().unwrap_or(&[]).to_vec()),
                        Err(varisat::solver::SolverError::Interrupted) => Reply::Unknown,
                        Err(e) => Reply::Error(e.to_string()),
                    };
                    if answer.send(reply).is_err() {
                        break;
                    }
                }
            }
        }
    });
    (commands, replies)
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.vidx(), l.is_pos())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    Lit::new(l.index() as u32, !l.is_positive())
}

fn failed(message: &str) -> SolverError {
    SolverError::Failed {
        solver: "varisat".into(),
        message: message.into(),
    }
}

impl Varisat {
    fn send(&mut self, command: Command) -> Result<(), SolverError> {
        let gone = || failed("the solver thread has ended");
        if self.abandoned {
            // the old thread keeps its search (and ends with it): start
            // afresh from the clause log
            (self.commands, self.replies) = solver_thread();
            for c in &self.clauses {
                self.commands
                    .send(Command::Add(c.clone()))
                    .map_err(|_| gone())?;
            }
            self.abandoned = false;
        }
        self.commands.send(command).map_err(|_| gone())
    }
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
        self.clauses.push(clause.clone());
        self.send(Command::Add(clause))
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.core.clear();
        self.model = None;
        self.send(Command::Solve(
            assumptions.iter().map(|&l| to_varisat(l)).collect(),
        ))?;
        let reply = match wait_for(&self.replies, limits) {
            Waited::Done(reply) => reply,
            Waited::Expired => {
                self.abandoned = true;
                return Ok(Outcome::Unknown);
            }
            Waited::Gone => return Err(failed("varisat panicked")),
        };
        match reply {
            Reply::Sat(model) => {
                self.model = Some(model);
                Ok(Outcome::Sat)
            }
            Reply::Unsat(core) => {
                self.core = core.into_iter().map(from_varisat).collect();
                Ok(Outcome::Unsat)
            }
            Reply::Unknown => Ok(Outcome::Unknown),
            Reply::Error(e) => Err(failed(&e)),
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let model = self
            .model
            .as_ref()
            .ok_or_else(|| failed("no model: the last answer was not SAT"))?;
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
}
