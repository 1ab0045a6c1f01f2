//! A portfolio: the embedded backends race on threads and the first
//! definite answer (SAT or UNSAT) wins — the simplest parallel SAT scheme
//! (no clause sharing; cf. ManySAT, Hamadi, Jabbour & Sais, JSAT 2009, for
//! the idea of racing diversified solvers).
//!
//! Backends are not `Send`, so each one lives in its own worker thread for
//! the whole session, created there from its [`SolverKind`]. Clauses are
//! buffered and shipped to every worker with the next solve call, so each
//! worker stays incremental. When one answers, the others are told to stop
//! through the race's interrupt flag; a backend that cannot be interrupted
//! (varisat, splr) finishes its search in the background and its late
//! answer is discarded — the next solve call is queued behind it on that
//! worker while the other workers already race. Worker panics are caught
//! and become errors; the race fails only if every worker fails.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use puzzlesat_encodings::Assignment;
use rustsat::types::Lit;

use super::{
    Backend, BackendInfo, Capabilities, Limits, Outcome, SolverError, SolverKind, SolverStats,
};

/// The portfolio in the registry: it takes a seed (each member that takes
/// one gets its own); no conflict limit (only some members honour one).
pub const BACKEND: BackendInfo = BackendInfo {
    name: "portfolio",
    about: "the embedded backends racing on threads, first answer wins",
    can: Capabilities {
        seed: true,
        conflict_limit: false,
        interrupt: true,
        proof: false,
        assumptions: true,
    },
    make: Some(make),
};

fn make() -> Box<dyn Backend> {
    Box::new(Portfolio::new(&members()))
}

/// The backends a default portfolio races: every embedded one.
pub fn members() -> Vec<SolverKind> {
    SolverKind::embedded()
}

/// One solve request to a worker.
struct Job {
    race: u64,
    new_clauses: Arc<Vec<Vec<Lit>>>,
    n_vars: u32,
    assumptions: Arc<Vec<Lit>>,
    limits: Limits,
    /// `--seed` (with the first job): members that take a seed get
    /// `seed + their index`, so no two search alike
    seed: Option<u64>,
}

/// What a worker did with the backend's answer.
struct Finished {
    outcome: Outcome,
    model: Option<Assignment>,
    core: Vec<Lit>,
    stats: SolverStats,
}

/// A worker's reply to a job.
struct Reply {
    race: u64,
    worker: usize,
    result: Result<Finished, SolverError>,
}

/// Runs one job on the worker's backend.
fn work(backend: &mut dyn Backend, index: usize, job: &Job) -> Result<Finished, SolverError> {
    if let Some(seed) = job.seed {
        // a member without a seed keeps its own (different) search
        let _ = backend.set_seed(seed.wrapping_add(index as u64));
    }
    backend.reserve(job.n_vars);
    for c in job.new_clauses.iter() {
        backend.add_clause(c)?;
    }
    let outcome = backend.solve(&job.assumptions, &job.limits)?;
    let model = match outcome {
        Outcome::Sat => Some(backend.model(job.n_vars)?),
        _ => None,
    };
    let core = match outcome {
        Outcome::Unsat => backend.failed_assumptions(),
        _ => Vec::new(),
    };
    Ok(Finished {
        outcome,
        model,
        core,
        stats: backend.stats(),
    })
}

/// The worker thread's loop: create the backend, then answer jobs until
/// the portfolio is dropped.
fn worker_loop(index: usize, kind: SolverKind, jobs: Receiver<Job>, replies: Sender<Reply>) {
    let mut backend = kind.create();
    let mut broken: Option<String> = None;
    for job in jobs {
        let result = match (&mut backend, &broken) {
            (Err(e), _) => Err(SolverError::Failed {
                solver: kind.to_string(),
                message: e.to_string(),
            }),
            (Ok(_), Some(msg)) => Err(SolverError::Failed {
                solver: kind.to_string(),
                message: msg.clone(),
            }),
            (Ok(b), None) => match catch_unwind(AssertUnwindSafe(|| work(b.as_mut(), index, &job)))
            {
                Ok(r) => r,
                Err(_) => {
                    let msg = "panicked; worker disabled".to_string();
                    broken = Some(msg.clone());
                    Err(SolverError::Failed {
                        solver: kind.to_string(),
                        message: msg,
                    })
                }
            },
        };
        let reply = Reply {
            race: job.race,
            worker: index,
            result,
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}

/// A worker as the portfolio sees it.
struct Worker {
    kind: SolverKind,
    jobs: Sender<Job>,
}

/// The portfolio backend.
pub struct Portfolio {
    workers: Vec<Worker>,
    replies: Receiver<Reply>,
    pending: Vec<Vec<Lit>>,
    n_vars: u32,
    race: u64,
    stop_current: Arc<AtomicBool>,
    model: Option<Assignment>,
    core: Vec<Lit>,
    stats: SolverStats,
    winner: Option<usize>,
    seed: Option<u64>,
}

impl Portfolio {
    /// A portfolio racing `kinds` (each created inside its own thread).
    pub fn new(kinds: &[SolverKind]) -> Self {
        let (reply_tx, replies) = channel();
        let workers = kinds
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                let (jobs, rx) = channel();
                let (k, tx) = (kind.clone(), reply_tx.clone());
                // without a thread, this member's jobs fail to send: it is skipped
                let _ = thread::Builder::new()
                    .name(format!("portfolio-{kind}"))
                    .spawn(move || worker_loop(i, k, rx, tx));
                Worker {
                    kind: kind.clone(),
                    jobs,
                }
            })
            .collect();
        Portfolio {
            workers,
            replies,
            pending: Vec::new(),
            n_vars: 0,
            race: 0,
            stop_current: Arc::new(AtomicBool::new(false)),
            model: None,
            core: Vec::new(),
            stats: SolverStats::default(),
            winner: None,
            seed: None,
        }
    }
    /// Which member gave the last answer.
    pub fn winner(&self) -> Option<&SolverKind> {
        self.winner.map(|i| &self.workers[i].kind)
    }
}

impl Drop for Portfolio {
    fn drop(&mut self) {
        // interruptible members stop now; the others end after their search
        self.stop_current.store(true, Ordering::SeqCst);
    }
}

impl Backend for Portfolio {
    fn name(&self) -> String {
        let members: Vec<String> = self.workers.iter().map(|w| w.kind.to_string()).collect();
        match self.winner() {
            Some(w) => format!("portfolio of {} (last answer: {w})", members.join(", ")),
            None => format!("portfolio of {}", members.join(", ")),
        }
    }
    fn reserve(&mut self, n_vars: u32) {
        self.n_vars = self.n_vars.max(n_vars);
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        for l in lits {
            self.n_vars = self.n_vars.max(l.var().idx32() + 1);
        }
        self.pending.push(lits.to_vec());
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.model = None;
        self.core.clear();
        self.race += 1;
        self.stop_current.store(true, Ordering::SeqCst);
        self.stop_current = Arc::new(AtomicBool::new(false));
        for a in assumptions {
            self.n_vars = self.n_vars.max(a.var().idx32() + 1);
        }
        let race_limits = Limits {
            deadline: limits.deadline,
            interrupt: self.stop_current.clone(),
            conflicts: limits.conflicts,
        };
        let new_clauses = Arc::new(std::mem::take(&mut self.pending));
        let assumptions = Arc::new(assumptions.to_vec());
        let mut racing = 0;
        for w in &self.workers {
            let job = Job {
                race: self.race,
                new_clauses: new_clauses.clone(),
                n_vars: self.n_vars,
                assumptions: assumptions.clone(),
                limits: race_limits.clone(),
                seed: self.seed.filter(|_| self.race == 1),
            };
            if w.jobs.send(job).is_ok() {
                racing += 1;
            }
        }
        if racing == 0 {
            return Err(SolverError::Failed {
                solver: "portfolio".into(),
                message: "no member could be started".into(),
            });
        }
        let mut errors = Vec::new();
        let mut unknowns = 0;
        while racing > 0 {
            match self.replies.recv_timeout(Duration::from_millis(20)) {
                Ok(reply) if reply.race != self.race => {} // a late answer to an earlier race
                Ok(reply) => {
                    racing -= 1;
                    match reply.result {
                        Ok(f) if f.outcome != Outcome::Unknown => {
                            self.stop_current.store(true, Ordering::SeqCst);
                            self.model = f.model;
                            self.core = f.core;
                            self.stats = f.stats;
                            self.winner = Some(reply.worker);
                            return Ok(f.outcome);
                        }
                        Ok(_) => unknowns += 1,
                        Err(e) => errors.push(e),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if limits.expired() {
                        self.stop_current.store(true, Ordering::SeqCst);
                        return Ok(Outcome::Unknown);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        if unknowns == 0 && !errors.is_empty() {
            Err(errors.swap_remove(0))
        } else {
            Ok(Outcome::Unknown)
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let model = self.model.as_ref().ok_or_else(|| SolverError::Failed {
            solver: "portfolio".into(),
            message: "no model: the last answer was not SAT".into(),
        })?;
        Ok(Assignment::from_values(
            (0..n_vars)
                .map(|i| model.var(rustsat::types::Var::new(i)))
                .collect(),
        ))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        self.stats
    }
    fn set_seed(&mut self, seed: u64) -> Result<(), SolverError> {
        if self.race > 0 {
            return Err(SolverError::Failed {
                solver: "portfolio".into(),
                message: "the seed must be set before the first solve".into(),
            });
        }
        self.seed = Some(seed);
        Ok(())
    }
}
