//! Solver backends behind one object-safe trait, [`Backend`], and the
//! [`Session`] that drivers talk to: it owns a backend, hands out variables
//! (continuing the numbering of the encoded [`Cnf`]), counts what is added,
//! and implements [`ClauseDatabase`] so encoders can add clauses (bounds,
//! blocking clauses) between solves.
//!
//! The drivers, written once for every backend: [`enumerate()`] (every
//! model, by blocking clauses) and [`optimize()`] (iterative bound
//! tightening over an [`Objective`]).
//!
//! RustSAT's `Solve` is not object-safe, hence this trait. Backends, one
//! file each, each behind its cargo feature and registered by one line of
//! `registry!` ([`EMBEDDED`]; [`Solver`] picks one by name). Each declares
//! what it can do ([`Capabilities`], after RustSAT's capability traits), so
//! that a front end refuses a request a backend cannot honour before the
//! run:
//!
//! | backend | incremental | failed assumptions | time limit / interrupt | statistics |
//! | --- | --- | --- | --- | --- |
//! | `batsat` (feature `batsat`, default) | yes | core from final conflict | yes / yes | conflicts, decisions, propagations |
//! | `varisat` (feature `varisat`) | yes | core from final conflict | yes / yes (the solve is abandoned on its thread; the backend is then spent) | none |
//! | `splr` (feature `splr`) | no: re-solved from scratch, assumptions as unit clauses | all assumptions | yes / yes (the solve is abandoned on its thread) | none |
//! | `cadical` (feature `cadical`) | yes | core (`failed`) | yes / yes | none |
//!
//! The `puzzlesat` command line adds an external DIMACS solver and a
//! portfolio as further [`MakeBackend`]s.
//!
//! A clause a backend refuses (e.g. a literal out of its range) is not a
//! panic: [`Session`] keeps the error and returns it from every later
//! [`Session::solve`].
//!
//! For certified answers (the `puzzlesat` crate's `certify`) a session can record the
//! formula it is given ([`Session::record`]): the CNF and every clause added
//! since (bounds, blocking clauses, lazy constraints). At each UNSAT answer
//! it notes how many clauses there were and the assumptions of that call, so
//! [`Session::unsat_formula`] can write out the decision formula of the last
//! UNSAT answer as plain clauses, the assumptions as unit clauses.

pub mod allsat;
pub mod enumerate;
pub mod optimize;

/// The registry of embedded backends: one line `"feature" => module,` per
/// backend, the module (one file, `solve/<module>.rs`, compiled with its
/// cargo feature) declaring its [`BackendInfo`] as `BACKEND`. A backend
/// whose feature is off stays in the registry by name, so that asking for
/// it says how to compile it in.
macro_rules! registry {
    ($($feature:literal => $module:ident,)*) => {
        $(
            #[cfg(feature = $feature)]
            pub mod $module;
        )*

        /// The embedded backends, the default (BatSat) first.
        pub const EMBEDDED: &[BackendInfo] = &[
            $(
                #[cfg(feature = $feature)]
                $module::BACKEND,
                #[cfg(not(feature = $feature))]
                BackendInfo::not_compiled($feature),
            )*
        ];
    };
}

registry! {
    "batsat" => batsat,
    "varisat" => varisat,
    "splr" => splr,
    "cadical" => cadical,
}

pub use allsat::{AllSat, AllSatMode, Assigned, Partial, PartialCheck};
pub use enumerate::{enumerate, enumerate_lazy, Enumeration, EnumerationEngine};
pub use optimize::{
    optimize, optimize_lazy, optimize_scored, Incumbent, Objective, ObjectiveBound, Optimum,
    ScoredOptimum, ScoredSearch, Search, Sense, Strategy,
};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::db::Counts;
use crate::{Assignment, ClauseDatabase, Cnf};
use rustsat::encodings::CollectClauses;
use rustsat::types::{Clause, Lit};
use serde::Serialize;

/// What a solve call answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// a model exists (read it with [`Backend::model`])
    Sat,
    /// no model (under the assumptions, if any)
    Unsat,
    /// stopped before an answer: time limit or interrupt
    Unknown,
}

/// Errors of a backend: misuse, a missing external binary, garbage output.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// unknown `--solver` value
    #[error("unknown solver '{name}' (expected {known})")]
    UnknownSolver {
        /// the name asked for
        name: String,
        /// the names of the registry, e.g. `batsat, varisat, splr, cadical`
        known: String,
    },
    /// the backend exists but was not compiled in
    #[error("solver '{0}' is not compiled in: rebuild with `--features {0}`")]
    NotCompiled(String),
    /// an external solver binary could not be started
    #[error("external solver '{command}' could not be started: {message}")]
    NotFound {
        /// the command as given
        command: String,
        /// why (e.g. not on PATH)
        message: String,
    },
    /// the backend failed
    #[error("{solver}: {message}")]
    Failed {
        /// backend name
        solver: String,
        /// what went wrong
        message: String,
    },
}

/// Statistics a backend reports where it has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverStats {
    /// conflicts
    pub conflicts: Option<u64>,
    /// decisions
    pub decisions: Option<u64>,
    /// propagations
    pub propagations: Option<u64>,
}

/// Time limit and interrupt flag shared by every solve of a run.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// stop (answer [`Outcome::Unknown`]) at this instant
    pub deadline: Option<Instant>,
    /// set to stop (e.g. from a Ctrl-C handler)
    pub interrupt: Arc<AtomicBool>,
    /// stop one solve call after this many conflicts (a search budget for
    /// restarts over several attempts; honoured by BatSat, ignored by the
    /// other backends, which then run to the deadline)
    pub conflicts: Option<u64>,
}

impl Limits {
    /// Limits with an optional timeout from now.
    pub fn with_timeout(timeout: Option<Duration>) -> Self {
        Limits {
            deadline: timeout.map(|t| Instant::now() + t),
            interrupt: Arc::new(AtomicBool::new(false)),
            conflicts: None,
        }
    }
    /// True if the run must stop now.
    pub fn expired(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    /// Time left before the deadline (None: unlimited).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// How waiting for a solver thread ended.
#[derive(Debug)]
pub enum Waited<T> {
    /// its answer
    Done(T),
    /// the limits expired first: the thread is abandoned
    Expired,
    /// it ended without an answer (it panicked)
    Gone,
}

/// Runs `work` on a thread of its own and waits for it while `limits`
/// allow; once they expire the thread is abandoned (it runs on, its result
/// dropped). The way to honour a time limit and Ctrl-C with a solver that
/// has no interrupt hook (splr); the CPU it keeps using is released when
/// it ends or the process exits.
pub fn abandonable<T: Send + 'static>(
    limits: &Limits,
    work: impl FnOnce() -> T + Send + 'static,
) -> Waited<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // nobody listening (abandoned): the result is dropped
        let _ = tx.send(work());
    });
    wait_for(&rx, limits)
}

/// The next message of `rx` while `limits` allow (checked every 10 ms).
pub fn wait_for<T>(rx: &std::sync::mpsc::Receiver<T>, limits: &Limits) -> Waited<T> {
    use std::sync::mpsc::RecvTimeoutError;
    loop {
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok(result) => return Waited::Done(result),
            Err(RecvTimeoutError::Timeout) if limits.expired() => return Waited::Expired,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Waited::Gone,
        }
    }
}

/// One SAT solver. Object-safe: drivers hold a `Box<dyn Backend>`. Not
/// `Send` (BatSat's callbacks are not): a portfolio creates each backend
/// inside its own thread.
pub trait Backend {
    /// Name and version, e.g. `batsat 0.6`.
    fn name(&self) -> String;
    /// Makes sure variables `0..n_vars` exist.
    fn reserve(&mut self, n_vars: u32);
    /// Adds a clause (allowed after a solve: incremental use).
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError>;
    /// Solves under assumptions, within the limits.
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError>;
    /// The model of the last SAT answer, over variables `0..n_vars`.
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError>;
    /// After UNSAT under assumptions: a subset of the assumptions that is
    /// already unsatisfiable (all of them where the backend gives no core).
    fn failed_assumptions(&self) -> Vec<Lit>;
    /// Conflicts, decisions, propagations (cumulative).
    fn stats(&self) -> SolverStats;
    /// Seeds the backend's random choices (`--seed`), so that two seeds
    /// search differently; an error for a backend that takes no seed.
    fn set_seed(&mut self, _seed: u64) -> Result<(), SolverError> {
        Err(SolverError::Failed {
            solver: self.name(),
            message: "this solver takes no seed: drop --seed, or use --solver batsat".into(),
        })
    }
    /// Restricts the search's decisions to the variables of `decisions`
    /// (before the first solve), which must fix every primary literal by
    /// propagation: [`Backend::enumerate_in_search`] then blocks a model by
    /// its negated decisions, which are fewer than the primary literals.
    /// False where the backend cannot (it then branches on every variable).
    fn set_decisions(&mut self, _decisions: &[Lit]) -> bool {
        false
    }
    /// True if [`Backend::enumerate_in_search`] keeps its search across a
    /// [`ModelVerdict::Retry`] (then the driver keeps nothing per model).
    fn resumes_enumeration(&self) -> bool {
        false
    }
    /// Installs (Some) or removes (None) a puzzle's reasoning on partial
    /// assignments ([`PartialCheck`]); false: this backend runs none (the
    /// check only prunes what no solution needs, so the answers are the
    /// same without it). Only the built-in engine runs one.
    fn set_partial_check(&mut self, _check: Option<Box<dyn PartialCheck>>) -> bool {
        false
    }
    /// Enumerates the models projected onto `primary` inside one search,
    /// where the backend can: each complete model is shown to `on_model`,
    /// then excluded by its blocking clause (added for good) as a conflict.
    /// `None`: not supported, the driver solves once per model instead.
    fn enumerate_in_search(
        &mut self,
        _primary: &[Lit],
        _assumptions: &[Lit],
        _limits: &Limits,
        _n_vars: u32,
        _on_model: &mut dyn FnMut(&Assignment) -> ModelVerdict,
    ) -> Option<Result<InSearch, SolverError>> {
        None
    }
}

/// What [`Backend::enumerate_in_search`] does after showing a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelVerdict {
    /// counted: block it and search on
    Next,
    /// counted: stop the search
    Stop,
    /// not counted: end the search (the caller adds clauses that exclude
    /// it, e.g. lazy constraints, and searches again)
    Retry,
}

/// The result of [`Backend::enumerate_in_search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InSearch {
    /// distinct projections counted
    pub count: u64,
    /// `Unsat`: every model was enumerated; `Unknown`: stopped (limit,
    /// [`ModelVerdict::Stop`] or [`ModelVerdict::Retry`])
    pub outcome: Outcome,
}

/// Something that makes a fresh backend: [`Solver`] here, a front end's own
/// choice of backends (external solvers, portfolios) elsewhere.
pub trait MakeBackend {
    /// A fresh backend.
    fn create(&self) -> Result<Box<dyn Backend>, SolverError>;
}

/// What a backend can do, declared with it in the registry: a front end
/// refuses a request a backend cannot honour before the run, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// takes a random seed ([`Backend::set_seed`], `--seed`)
    pub seed: bool,
    /// stops a solve call after [`Limits::conflicts`] conflicts (the budgets
    /// of a staged search)
    pub conflict_limit: bool,
    /// stops at the deadline and on the interrupt flag (`--timeout`, Ctrl-C)
    pub interrupt: bool,
    /// writes a proof of its UNSAT answers (DRAT)
    pub proof: bool,
    /// solves under assumptions incrementally and names the failed ones
    /// (else every call is solved afresh, the assumptions as unit clauses,
    /// all of them failed)
    pub assumptions: bool,
}

impl Capabilities {
    /// What is missing for `wanted`, in words (e.g. `seed`): each
    /// capability `wanted` asks for and this lacks.
    pub fn missing(&self, wanted: &Capabilities) -> Vec<&'static str> {
        let pairs = [
            (wanted.seed && !self.seed, "seed"),
            (
                wanted.conflict_limit && !self.conflict_limit,
                "conflict limit",
            ),
            (wanted.interrupt && !self.interrupt, "interrupt"),
            (wanted.proof && !self.proof, "proof output"),
            (
                wanted.assumptions && !self.assumptions,
                "incremental assumptions",
            ),
        ];
        pairs.iter().filter(|(m, _)| *m).map(|&(_, w)| w).collect()
    }
}

/// A backend of a registry: its name (the `--solver` value), a line about
/// it, what it can do and how to make one.
#[derive(Clone, Copy, Debug)]
pub struct BackendInfo {
    /// the `--solver` name, e.g. `batsat`
    pub name: &'static str,
    /// one line about it, e.g. `BatSat 0.6 (pure Rust, incremental)`
    pub about: &'static str,
    /// what it can do
    pub can: Capabilities,
    /// a fresh backend; None where it is not compiled in
    pub make: Option<fn() -> Box<dyn Backend>>,
}

impl BackendInfo {
    /// The entry of a backend whose cargo feature (named as the backend) is
    /// off: asking for it is [`SolverError::NotCompiled`].
    pub const fn not_compiled(name: &'static str) -> Self {
        BackendInfo {
            name,
            about: "not compiled in",
            can: Capabilities {
                seed: false,
                conflict_limit: false,
                interrupt: false,
                proof: false,
                assumptions: false,
            },
            make: None,
        }
    }
    /// A fresh backend, or why there is none.
    pub fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        match self.make {
            Some(make) => Ok(make()),
            None => Err(SolverError::NotCompiled(self.name.into())),
        }
    }
}

/// An embedded backend of this crate ([`EMBEDDED`]), by name: `"varisat"
/// .parse::<Solver>()`; the default is BatSat.
#[derive(Clone, Copy, Debug)]
pub struct Solver(&'static BackendInfo);

impl PartialEq for Solver {
    fn eq(&self, other: &Solver) -> bool {
        self.0.name == other.0.name
    }
}
impl Eq for Solver {}

impl Default for Solver {
    fn default() -> Self {
        Solver(&EMBEDDED[0])
    }
}

impl Solver {
    /// The embedded backend called `name`.
    pub fn named(name: &str) -> Result<Solver, SolverError> {
        EMBEDDED
            .iter()
            .find(|b| b.name == name)
            .map(Solver)
            .ok_or_else(|| SolverError::UnknownSolver {
                name: name.into(),
                known: names(EMBEDDED.iter()),
            })
    }
    /// Its registry entry.
    pub fn info(self) -> &'static BackendInfo {
        self.0
    }
    /// The name of the backend and of its cargo feature.
    pub fn name(self) -> &'static str {
        self.0.name
    }
    /// The backends compiled in (their features on).
    pub fn compiled() -> Vec<Solver> {
        EMBEDDED
            .iter()
            .filter(|b| b.make.is_some())
            .map(Solver)
            .collect()
    }
}

/// The names of registry entries, comma-separated (for messages).
pub fn names<'a>(entries: impl Iterator<Item = &'a BackendInfo>) -> String {
    entries.map(|b| b.name).collect::<Vec<_>>().join(", ")
}

impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl std::str::FromStr for Solver {
    type Err = SolverError;
    fn from_str(s: &str) -> Result<Self, SolverError> {
        Solver::named(s)
    }
}

impl MakeBackend for Solver {
    fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        self.0.create()
    }
}

impl AllSatMode {
    /// What the built-in all-solutions engine can do: it stops at the
    /// deadline and on the interrupt flag, takes assumptions (closed
    /// levels), and has no seed, no conflict limit, no proof.
    pub const CAN: Capabilities = Capabilities {
        seed: false,
        conflict_limit: false,
        interrupt: true,
        proof: false,
        assumptions: true,
    };
}

impl MakeBackend for AllSatMode {
    fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        Ok(Box::new(AllSat::new(*self)))
    }
}

/// A backend plus the bookkeeping drivers need. Implements
/// [`ClauseDatabase`], continuing the variable numbering of the CNF it was
/// loaded from.
pub struct Session {
    backend: Box<dyn Backend>,
    n_vars: u32,
    counts: Counts,
    true_lit: Option<Lit>,
    /// why the backend refused a clause: every later solve is this error
    refused: Option<String>,
    /// time limit and interrupt for every solve
    pub limits: Limits,
    /// number of solve calls so far
    pub solve_calls: u32,
    /// number of SAT answers so far (models returned)
    pub sat_answers: u32,
    /// wall time spent inside solve calls
    pub solve_time: Duration,
    /// every clause given to the backend, when recording
    record: Option<Cnf>,
    /// at the last UNSAT answer while recording: clauses recorded, and the
    /// clauses that are not in the record (blocking clauses of an in-search
    /// enumeration, the assumptions as units)
    last_unsat: Option<(usize, Vec<Vec<Lit>>)>,
    /// solve calls that answered UNSAT
    unsat_answers: u32,
    /// when recording: the blocking clause of every model counted by an
    /// in-search enumeration so far (over all its calls: a lazy constraint
    /// ends a call and the driver calls again)
    in_search_blocks: Vec<Vec<Lit>>,
}

impl Session {
    /// A session of a backend of `kind` (e.g. [`Solver::default`], BatSat) holding
    /// the clauses of `cnf`.
    pub fn new(kind: &impl MakeBackend, cnf: &Cnf, limits: Limits) -> Result<Self, SolverError> {
        Self::with_backend(kind.create()?, cnf, limits)
    }
    /// A session of a backend of `kind` over no clauses yet, without a time
    /// limit: encode into it directly (it is a [`ClauseDatabase`]).
    pub fn empty(kind: &impl MakeBackend) -> Result<Self, SolverError> {
        Self::new(kind, &Cnf::new(), Limits::default())
    }
    /// A session around a backend built by the caller (e.g. a backend
    /// configured by hand, or a test double), holding the clauses of `cnf`.
    pub fn with_backend(
        mut backend: Box<dyn Backend>,
        cnf: &Cnf,
        limits: Limits,
    ) -> Result<Self, SolverError> {
        backend.reserve(cnf.n_vars());
        for c in cnf.clauses() {
            backend.add_clause(c)?;
        }
        Ok(Session {
            backend,
            n_vars: cnf.n_vars(),
            counts: cnf.counts(),
            true_lit: None,
            refused: None,
            limits,
            solve_calls: 0,
            sat_answers: 0,
            solve_time: Duration::ZERO,
            record: None,
            last_unsat: None,
            unsat_answers: 0,
            in_search_blocks: vec![],
        })
    }
    /// Starts recording the formula: `initial` must be the CNF the session
    /// was created from (taken by value, so recording costs no copy), and
    /// no clause may have been added since.
    pub fn record(&mut self, initial: Cnf) {
        assert_eq!(
            initial.len(),
            self.counts.clauses,
            "Session::record: the CNF the session was created from, before any clause is added"
        );
        self.record = Some(initial);
    }
    /// When recording: the formula of the last UNSAT answer as plain
    /// clauses — every clause given before that solve call, and its
    /// assumptions as unit clauses. None if not recording or no solve call
    /// answered UNSAT.
    pub fn unsat_formula(&self) -> Option<Cnf> {
        let (record, (n, extra)) = (self.record.as_ref()?, self.last_unsat.as_ref()?);
        let mut f = Cnf::new();
        for c in record.clauses().take(*n) {
            f.add(c);
        }
        for c in extra {
            f.add(c);
        }
        Some(f)
    }
    /// When recording: every clause given so far, as plain clauses.
    pub fn recorded_formula(&self) -> Option<Cnf> {
        let record = self.record.as_ref()?;
        let mut f = Cnf::new();
        for c in record.clauses() {
            f.add(c);
        }
        Some(f)
    }
    /// When recording: how many clauses of [`Session::unsat_formula`] are
    /// recorded clauses (the rest are its assumptions and in-search
    /// blocks, as units and clauses).
    pub fn unsat_recorded(&self) -> Option<usize> {
        self.last_unsat.as_ref().map(|(n, _)| *n)
    }
    /// When recording a CNF that keeps a definitions log: the log, which
    /// goes on with every clause and definition added since (e.g. an
    /// objective's bound encoding).
    pub fn provenance_log(&self) -> Option<&crate::provenance::Provenance> {
        self.record.as_ref().and_then(|r| r.provenance_log())
    }
    /// The number of solve calls that answered UNSAT so far (tells a
    /// driver's caller whether an UNSAT answer happened in its phase).
    pub fn unsat_answers(&self) -> u32 {
        self.unsat_answers
    }
    /// The backend's name and version.
    pub fn solver_name(&self) -> String {
        self.backend.name()
    }
    /// Solves under assumptions.
    /// Once the backend has refused a clause, every solve is an error (an
    /// answer without that clause could be wrong).
    pub fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if let Some(why) = &self.refused {
            return Err(SolverError::Failed {
                solver: self.backend.name(),
                message: format!("a clause was refused, no answer is possible: {why}"),
            });
        }
        if self.limits.expired() {
            return Ok(Outcome::Unknown);
        }
        for a in assumptions {
            self.n_vars = self.n_vars.max(a.var().idx32() + 1);
        }
        let t = Instant::now();
        self.backend.reserve(self.n_vars);
        let r = self.backend.solve(assumptions, &self.limits);
        self.solve_time += t.elapsed();
        self.solve_calls += 1;
        self.sat_answers += u32::from(matches!(r, Ok(Outcome::Sat)));
        if let Ok(Outcome::Unsat) = r {
            self.unsat_answers += 1;
            if let Some(record) = &self.record {
                let units = assumptions.iter().map(|&a| vec![a]).collect();
                self.last_unsat = Some((record.len(), units));
            }
        }
        r
    }
    /// The model of the last SAT answer.
    pub fn model(&self) -> Result<Assignment, SolverError> {
        self.backend.model(self.n_vars)
    }
    /// Failed assumptions of the last UNSAT answer.
    pub fn failed_assumptions(&self) -> Vec<Lit> {
        self.backend.failed_assumptions()
    }
    /// Backend statistics.
    pub fn stats(&self) -> SolverStats {
        self.backend.stats()
    }
    /// Seeds the backend (before the first solve); an error if the backend
    /// takes no seed.
    pub fn set_seed(&mut self, seed: u64) -> Result<(), SolverError> {
        self.backend.set_seed(seed)
    }
    /// [`Backend::set_decisions`]: false where the backend cannot.
    pub fn set_decisions(&mut self, decisions: &[Lit]) -> bool {
        self.backend.set_decisions(decisions)
    }
    /// [`Backend::resumes_enumeration`].
    pub fn resumes_enumeration(&self) -> bool {
        self.backend.resumes_enumeration()
    }
    /// [`Backend::set_partial_check`].
    pub fn set_partial_check(&mut self, check: Option<Box<dyn PartialCheck>>) -> bool {
        self.backend.set_partial_check(check)
    }
    /// [`Backend::enumerate_in_search`] (timed and counted as one solve
    /// call); `None` if the backend does not support it.
    pub fn enumerate_in_search(
        &mut self,
        primary: &[Lit],
        assumptions: &[Lit],
        on_model: &mut dyn FnMut(&Assignment) -> ModelVerdict,
    ) -> Option<Result<InSearch, SolverError>> {
        if let Some(why) = &self.refused {
            return Some(Err(SolverError::Failed {
                solver: self.backend.name(),
                message: format!("a clause was refused, no answer is possible: {why}"),
            }));
        }
        for l in primary.iter().chain(assumptions) {
            self.n_vars = self.n_vars.max(l.var().idx32() + 1);
        }
        let t = Instant::now();
        self.backend.reserve(self.n_vars);
        // when recording: the blocking clause of each model the backend
        // blocks (the driver's own blocking clause), for the final UNSAT
        let recording = self.record.is_some();
        let blocks = &mut self.in_search_blocks;
        let mut watched = |m: &Assignment| {
            let verdict = on_model(m);
            if recording && verdict == ModelVerdict::Next {
                blocks.push(
                    primary
                        .iter()
                        .map(|&l| if m.lit(l) { !l } else { l })
                        .collect(),
                );
            }
            verdict
        };
        let r = self.backend.enumerate_in_search(
            primary,
            assumptions,
            &self.limits,
            self.n_vars,
            &mut watched,
        );
        if let Some(answer) = &r {
            self.solve_time += t.elapsed();
            self.solve_calls += 1;
            // every model shown counts as a SAT answer
            if let Ok(found) = answer {
                self.sat_answers += u32::try_from(found.count).unwrap_or(u32::MAX);
            }
        }
        if let Some(Ok(InSearch {
            outcome: Outcome::Unsat,
            ..
        })) = r
        {
            self.unsat_answers += 1;
            if let Some(record) = &self.record {
                let mut extra = self.in_search_blocks.clone();
                extra.extend(assumptions.iter().map(|&a| vec![a]));
                self.last_unsat = Some((record.len(), extra));
            }
        }
        r
    }
}

crate::db::manage_vars_by_counter!(Session, |self, _min_var| {});

impl CollectClauses for Session {
    fn n_clauses(&self) -> usize {
        self.counts.clauses
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

impl ClauseDatabase for Session {
    fn add(&mut self, lits: &[Lit]) {
        for l in lits {
            if l.var().idx32() >= self.n_vars {
                self.n_vars = l.var().idx32() + 1;
            }
        }
        self.counts.vars = self.n_vars;
        self.counts.clauses += 1;
        self.counts.literals += lits.len();
        self.backend.reserve(self.n_vars);
        if let Some(record) = &mut self.record {
            record.add(lits);
        }
        if let Err(e) = self.backend.add_clause(lits) {
            // `ClauseDatabase::add` cannot fail: keep the first refusal and
            // report it from the next solve, so no answer is given without it
            self.refused.get_or_insert(e.to_string());
        }
    }
    fn counts(&self) -> Counts {
        Counts {
            vars: self.n_vars,
            ..self.counts
        }
    }
    fn true_lit(&mut self) -> Lit {
        if let Some(t) = self.true_lit {
            return t;
        }
        let t = self.fresh();
        if let Some(p) = self.provenance() {
            // t ⇔ (0 ≥ 0): true
            p.define(t, crate::provenance::Linear::at_least([], 0));
        }
        self.add(&[t]);
        self.true_lit = Some(t);
        t
    }
    fn provenance(&mut self) -> Option<&mut crate::provenance::Provenance> {
        self.record.as_mut().and_then(|r| r.provenance())
    }
}

#[cfg(all(test, feature = "batsat"))]
mod tests {
    use super::*;

    /// A backend that refuses every clause longer than two literals.
    struct Picky(batsat::Batsat);

    impl Backend for Picky {
        fn name(&self) -> String {
            "picky".into()
        }
        fn reserve(&mut self, n_vars: u32) {
            self.0.reserve(n_vars)
        }
        fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
            if lits.len() > 2 {
                return Err(SolverError::Failed {
                    solver: "picky".into(),
                    message: format!("refuses a clause of {} literals", lits.len()),
                });
            }
            self.0.add_clause(lits)
        }
        fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
            self.0.solve(assumptions, limits)
        }
        fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
            self.0.model(n_vars)
        }
        fn failed_assumptions(&self) -> Vec<Lit> {
            self.0.failed_assumptions()
        }
        fn stats(&self) -> SolverStats {
            self.0.stats()
        }
    }

    /// The clauses of a formula, as IPASIR literals.
    fn ipasir(f: &Cnf) -> Vec<Vec<i32>> {
        f.clauses()
            .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
            .collect()
    }

    #[test]
    fn the_formula_of_the_last_unsat_answer_is_recorded() {
        let mut cnf = Cnf::new();
        let x = cnf.fresh_lits(3);
        cnf.add(&[x[0], x[1]]);
        let mut s = Session::new(&Solver::default(), &cnf, Limits::default()).unwrap();
        s.record(cnf);
        assert!(s.unsat_formula().is_none());
        s.add(&[!x[0]]);
        assert_eq!(s.solve(&[!x[1]]).unwrap(), Outcome::Unsat);
        let f = s.unsat_formula().unwrap();
        // the CNF, the clause added since, the assumption as a unit
        assert_eq!(ipasir(&f), [vec![1, 2], vec![-1], vec![-2]]);
        // later clauses and SAT answers leave the last UNSAT's formula alone
        s.add(&[x[2]]);
        assert_eq!(s.solve(&[]).unwrap(), Outcome::Sat);
        assert_eq!(ipasir(&s.unsat_formula().unwrap()), ipasir(&f));
        assert_eq!(s.unsat_answers(), 1);
        // in-search enumeration: the blocking clause of each model blocked
        let mut models = 0;
        let r = s
            .enumerate_in_search(&[x[1]], &[], &mut |_| {
                models += 1;
                ModelVerdict::Next
            })
            .expect("BatSat enumerates in its search");
        assert_eq!((r.unwrap().outcome, models), (Outcome::Unsat, 1));
        // the CNF, the clauses added, the block of the one model (x2 true)
        assert_eq!(
            ipasir(&s.unsat_formula().unwrap()),
            [vec![1, 2], vec![-1], vec![3], vec![-2]]
        );
        assert_eq!(s.unsat_answers(), 2);
    }

    #[test]
    fn a_refused_clause_is_an_error_at_the_next_solve() {
        let mut s = Session::with_backend(
            Box::new(Picky(batsat::Batsat::default())),
            &Cnf::new(),
            Limits::default(),
        )
        .unwrap();
        let x = s.fresh_lits(3);
        s.add(&[x[0], x[1]]);
        assert_eq!(s.solve(&[]).unwrap(), Outcome::Sat);
        s.add(&x); // refused: must not panic, must not be lost silently
        let err = s.solve(&[]).unwrap_err();
        assert!(
            err.to_string().contains("refuses a clause of 3 literals"),
            "{err}"
        );
        // and stays an error: the clause is not silently dropped
        assert!(s.solve(&[]).is_err());
    }
}
