//! BatSat (a MiniSat descendant in pure Rust, Eén & Sörensson, "An
//! Extensible SAT-solver", SAT 2003), driven directly through the `batsat`
//! crate: incremental, assumptions, unsat cores. The time limit and the
//! interrupt flag are polled by BatSat's `Callbacks::stop` hook, which the
//! search consults between conflicts; statistics come from BatSat's
//! counters.
//!
//! **Seed.** [`Backend::set_seed`] builds the solver with that random seed,
//! a small random decision frequency ([`RANDOM_VAR_FREQ`]) and random
//! initial activities, so two seeds search differently. Clauses added before
//! the first solve are buffered, so the seed can be set after the formula
//! is loaded (and not after the first solve).
//!
//! **Enumeration inside the search.** [`Backend::enumerate_in_search`] runs
//! one search with a BatSat *theory* whose final check sees every complete
//! model: it hands the model over, then raises the model's blocking clause
//! as a conflict, kept as a permanent clause (BatSat's "costly" lemma). The
//! solver backjumps from the conflict like from any other instead of
//! restarting from the root for every model, as a fresh solve per model
//! does.
//!
//! **Decisions.** [`Backend::set_decisions`] makes every other variable a
//! non-decision variable of BatSat (MiniSat's `decision` flag), so the
//! search branches on those literals only (e.g. a puzzle's cell values
//! rather than its direct literals and sum trees). They fix the primary
//! literals by propagation, so an enumeration blocks each model by its
//! negated decisions (the clause of the decisions on its trail, assumptions
//! included): a model extending them is this one, as everything else was
//! propagated from them. That clause has one literal per decision level
//! instead of one per primary literal.

use std::collections::HashSet;

use crate::Assignment;
use batsat::intmap::AsIndex;
use batsat::{lbool, SolverInterface, SolverOpts, Theory, TheoryArg};
use rustsat::types::Lit;

use super::{Backend, BackendInfo, Capabilities, InSearch, Limits, ModelVerdict, Outcome, SolverError, SolverStats};

/// BatSat in the registry.
pub const BACKEND: BackendInfo = BackendInfo {
    name: "batsat",
    about: "BatSat 0.6 (pure Rust, incremental; the default)",
    can: Capabilities {
        seed: true,
        conflict_limit: true,
        interrupt: true,
        proof: false,
        assumptions: true,
    },
    make: Some(make),
};

fn make() -> Box<dyn Backend> {
    Box::new(Batsat::default())
}

/// The random decision frequency used with a seed (BatSat's default is 0).
pub const RANDOM_VAR_FREQ: f64 = 0.02;

/// BatSat callbacks whose `stop()` answers the run's [`Limits`].
#[derive(Default)]
pub struct LimitCallbacks {
    limits: Limits,
    /// conflicts (learnt clauses) of the current solve call
    conflicts: u64,
}

impl batsat::Callbacks for LimitCallbacks {
    fn stop(&self) -> bool {
        self.limits.expired() || self.limits.conflicts.is_some_and(|c| self.conflicts >= c)
    }
    fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: batsat::clause::Kind) {
        if kind == batsat::clause::Kind::Learnt {
            self.conflicts += 1;
        }
    }
}

type Solver = batsat::Solver<LimitCallbacks>;

/// The BatSat backend.
pub struct Batsat {
    solver: Solver,
    /// the seed's options, until the solver is built with them
    opts: SolverOpts,
    /// clauses added before the first solve (the solver is built then)
    buffered: Option<Vec<Vec<Lit>>>,
    n_vars: u32,
    seed: Option<u64>,
    core: Vec<Lit>,
    /// the decision variables ([`Backend::set_decisions`]), until the
    /// solver is built with them
    decisions: Option<HashSet<u32>>,
    /// the solver was built with a restricted set of decision variables
    restricted: bool,
}

impl Default for Batsat {
    fn default() -> Self {
        Batsat {
            solver: Solver::new(SolverOpts::default(), LimitCallbacks::default()),
            opts: SolverOpts::default(),
            buffered: Some(Vec::new()),
            n_vars: 0,
            seed: None,
            core: Vec::new(),
            decisions: None,
            restricted: false,
        }
    }
}

fn to_batsat(l: Lit) -> batsat::Lit {
    batsat::Lit::new(batsat::Var::from_index(l.vidx()), l.is_pos())
}

fn from_batsat(l: batsat::Lit) -> Lit {
    Lit::new(l.var().idx(), !l.sign())
}

/// BatSat's options for a seed: its random seed (a positive float), a small
/// random decision frequency and random initial activities.
pub fn seeded_opts(seed: u64) -> SolverOpts {
    SolverOpts {
        // BatSat's generator needs a seed in (0, ∞); spread small seeds
        random_seed: 1.0 + (seed % 1_000_000_007) as f64 * 7.0,
        random_var_freq: RANDOM_VAR_FREQ,
        rnd_init_act: true,
        ..SolverOpts::default()
    }
}

impl Batsat {
    /// Builds the solver from the buffered clauses (at the first solve).
    fn flush(&mut self) {
        if let Some(clauses) = self.buffered.take() {
            self.solver = Solver::new(self.opts.clone(), LimitCallbacks::default());
            let decisions = self.decisions.take();
            self.restricted = decisions.is_some();
            for v in 0..self.n_vars {
                let decide = decisions.as_ref().is_none_or(|d| d.contains(&v));
                self.solver.new_var(lbool::UNDEF, decide);
            }
            for c in clauses {
                self.push(&c);
            }
        }
    }
    fn push(&mut self, lits: &[Lit]) {
        let mut c: Vec<batsat::Lit> = lits.iter().map(|&l| to_batsat(l)).collect();
        for l in lits {
            self.solver.var_of_int(l.vidx32());
        }
        self.solver.add_clause_reuse(&mut c);
    }
    fn prepare(&mut self, assumptions: &[Lit], limits: &Limits) -> Vec<batsat::Lit> {
        self.flush();
        self.core.clear();
        for a in assumptions {
            self.solver.var_of_int(a.vidx32());
        }
        self.solver.cb_mut().limits = limits.clone();
        self.solver.cb_mut().conflicts = 0;
        assumptions.iter().map(|&l| to_batsat(l)).collect()
    }
    fn finish(&mut self, answer: lbool) -> Outcome {
        // drop the shared flag: a later solve gets its own limits
        self.solver.cb_mut().limits = Limits::default();
        if answer == lbool::TRUE {
            Outcome::Sat
        } else if answer == lbool::FALSE {
            self.core = self
                .solver
                .unsat_core()
                .iter()
                .map(|&l| from_batsat(!l))
                .collect();
            Outcome::Unsat
        } else {
            Outcome::Unknown
        }
    }
}

impl Backend for Batsat {
    fn name(&self) -> String {
        match self.seed {
            Some(s) => format!("BatSat 0.6.0 (seed {s})"),
            None => "BatSat 0.6.0".to_string(),
        }
    }
    fn reserve(&mut self, n_vars: u32) {
        self.n_vars = self.n_vars.max(n_vars);
        if self.buffered.is_none() && n_vars > 0 {
            self.solver.var_of_int(n_vars - 1);
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        for l in lits {
            self.n_vars = self.n_vars.max(l.vidx32() + 1);
        }
        match &mut self.buffered {
            Some(b) => b.push(lits.to_vec()),
            None => self.push(lits),
        }
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        let assumps = self.prepare(assumptions, limits);
        let answer = self.solver.solve_limited(&assumps);
        Ok(self.finish(answer))
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let known = self.solver.num_vars();
        Ok(Assignment::from_values(
            (0..n_vars)
                .map(|i| {
                    i < known
                        && self
                            .solver
                            .value_lit(batsat::Lit::new(batsat::Var::from_index(i as usize), true))
                            == lbool::TRUE
                })
                .collect(),
        ))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            conflicts: Some(self.solver.num_conflicts()),
            decisions: Some(self.solver.num_decisions()),
            propagations: Some(self.solver.num_propagations()),
        }
    }
    fn set_seed(&mut self, seed: u64) -> Result<(), SolverError> {
        if self.buffered.is_none() {
            return Err(SolverError::Failed {
                solver: "batsat".into(),
                message: "the seed must be set before the first solve".into(),
            });
        }
        self.opts = seeded_opts(seed);
        self.seed = Some(seed);
        Ok(())
    }
    fn set_decisions(&mut self, decisions: &[Lit]) -> bool {
        if self.buffered.is_none() {
            return self.restricted; // built already
        }
        for l in decisions {
            self.n_vars = self.n_vars.max(l.vidx32() + 1);
        }
        self.decisions = Some(decisions.iter().map(|l| l.vidx32()).collect());
        true
    }
    fn enumerate_in_search(
        &mut self,
        primary: &[Lit],
        assumptions: &[Lit],
        limits: &Limits,
        n_vars: u32,
        on_model: &mut dyn FnMut(&Assignment) -> ModelVerdict,
    ) -> Option<Result<InSearch, SolverError>> {
        let assumps = self.prepare(assumptions, limits);
        self.reserve(n_vars);
        let mut th = Enumerator {
            primary: primary.iter().map(|&l| to_batsat(l)).collect(),
            n_vars,
            seen: HashSet::new(),
            on_model,
            stopped: false,
            levels: 0,
            values: vec![false; n_vars as usize],
            block: Vec::new(),
            by_decisions: self.restricted,
            starts: Vec::new(),
            trail_len: 0,
            undecided: false,
            exhausted: false,
        };
        let answer = self.solver.solve_limited_th(&mut th, &assumps);
        let (count, stopped, exhausted) = (th.seen.len() as u64, th.stopped, th.exhausted);
        let outcome = self.finish(answer);
        if exhausted {
            // the last model was forced at the root: block it for good (the
            // formula has no model left)
            self.push(&[]);
        }
        if th.undecided {
            return Some(Err(SolverError::Failed {
                solver: self.name(),
                message: "the decision literals left a primary literal unassigned: they must fix the primary literals".into(),
            }));
        }
        Some(Ok(InSearch {
            count,
            // a SAT answer means the enumerator accepted a model to stop
            outcome: if exhausted {
                Outcome::Unsat
            } else if stopped && outcome == Outcome::Sat {
                Outcome::Unknown
            } else {
                outcome
            },
        }))
    }
}

/// The theory that enumerates: every complete model is shown to `on_model`
/// and then blocked by a conflict on its projection onto `primary`.
struct Enumerator<'a> {
    primary: Vec<batsat::Lit>,
    n_vars: u32,
    /// projections seen (a repeat is blocked again, never counted twice)
    seen: HashSet<Vec<bool>>,
    on_model: &'a mut dyn FnMut(&Assignment) -> ModelVerdict,
    stopped: bool,
    levels: usize,
    values: Vec<bool>,
    block: Vec<batsat::Lit>,
    /// block a model by its negated decisions ([`Backend::set_decisions`])
    by_decisions: bool,
    /// where each decision level starts on the trail
    starts: Vec<usize>,
    /// the trail's length at the last partial check (where the next level
    /// starts)
    trail_len: usize,
    /// a complete assignment of the decision variables left a primary
    /// literal unassigned (the search stops)
    undecided: bool,
    /// the last model was forced without a decision: none is left
    exhausted: bool,
}

impl Theory for Enumerator<'_> {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        if self.stopped {
            return; // accept: the search ends SAT
        }
        self.values.iter_mut().for_each(|v| *v = false);
        for l in acts.model() {
            let i = l.var().idx();
            if l.sign() && i < self.n_vars {
                self.values[i as usize] = true;
            }
        }
        if self.by_decisions && self.primary.iter().any(|&l| acts.value(l.var()) == lbool::UNDEF) {
            self.undecided = true;
            self.stopped = true;
            return; // accept: the search ends, and the caller reports the error
        }
        let projection: Vec<bool> = self
            .primary
            .iter()
            .map(|&l| acts.value(l.var()) == lbool::new(l.sign()))
            .collect();
        self.block.clear();
        if self.by_decisions {
            // the blocking clause: some decision takes the other value (a
            // level whose assumption was true already is empty)
            let trail = acts.model();
            for (i, &start) in self.starts.iter().enumerate() {
                let end = self.starts.get(i + 1).copied().unwrap_or(trail.len());
                if start < end {
                    self.block.push(!trail[start]);
                }
            }
        } else {
            // the blocking clause: some primary literal takes the other value
            self.block.extend(
                self.primary
                    .iter()
                    .zip(&projection)
                    .map(|(&l, &t)| if t { !l } else { l }),
            );
        }
        if self.block.is_empty() {
            // nothing to project on: one class, then stop; or no decision
            // on the trail: this model is the only one left
            if self.seen.insert(projection) {
                let verdict = (self.on_model)(&Assignment::from_values(self.values.clone()));
                self.exhausted = self.by_decisions && verdict == ModelVerdict::Next;
            }
            self.stopped = true;
            return;
        }
        if !self.seen.contains(&projection) {
            match (self.on_model)(&Assignment::from_values(self.values.clone())) {
                ModelVerdict::Next => {
                    self.seen.insert(projection);
                }
                ModelVerdict::Stop => {
                    self.seen.insert(projection);
                    self.stopped = true;
                    return;
                }
                ModelVerdict::Retry => {
                    self.stopped = true;
                    return;
                }
            }
        }
        acts.raise_conflict(&self.block, true);
    }
    fn create_level(&mut self) {
        self.levels += 1;
        // BatSat checks partially after each propagation, so the new level
        // starts where the last partial check saw the trail end
        self.starts.push(self.trail_len);
    }
    fn pop_levels(&mut self, n: usize) {
        self.levels -= n;
        self.starts.truncate(self.levels);
    }
    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.trail_len = acts.model().len();
    }
    fn n_levels(&self) -> usize {
        self.levels
    }
    fn explain_propagation(&mut self, _p: batsat::Lit) -> &[batsat::Lit] {
        &[]
    }
}
