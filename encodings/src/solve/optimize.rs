//! Optimising `offset + Σ wᵢ·[lᵢ]` by iterative bound tightening over an
//! incremental pseudo-Boolean (or cardinality, when all weights are 1)
//! encoding of the objective:
//!
//! - `sat-unsat` (linear search from below, as in MiniSat+ / Le Berre's
//!   "linear search" in Sat4j): each model tightens the bound to beat it,
//!   until UNSAT proves the last model optimal;
//! - `unsat-sat`: from the best conceivable value downwards, the first SAT
//!   answer is optimal;
//! - `binary`: bisection between the best model and the proven bound.
//!
//! Bounds are enforced through assumptions on incremental backends, so the
//! encoding is built once; the proven bound is kept so an interrupted run
//! reports "best found, bound proven" honestly.

use std::time::Instant;

use crate::pb::{Pb, PbEncoding};
use crate::{Assignment, ClauseDatabase};
use rustsat::types::Lit;
use serde::Serialize;

use super::{Outcome, Session, SolverError};

/// Maximise or minimise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sense {
    /// larger is better
    Maximize,
    /// smaller is better
    Minimize,
}

/// A linear objective over literals: `offset + Σ wᵢ·[lᵢ]`.
#[derive(Clone, Debug)]
pub struct Objective {
    /// direction
    pub sense: Sense,
    /// weighted literals (weights positive)
    pub terms: Vec<(Lit, u64)>,
    /// constant added to the sum
    pub offset: i64,
}

impl Objective {
    /// The objective's value under a model.
    pub fn value(&self, a: &Assignment) -> i64 {
        self.offset
            + self
                .terms
                .iter()
                .filter(|(l, _)| a.lit(*l))
                .map(|&(_, w)| w as i64)
                .sum::<i64>()
    }
    /// The largest value the terms allow.
    pub fn max_value(&self) -> i64 {
        self.offset + self.terms.iter().map(|&(_, w)| w as i64).sum::<i64>()
    }
    /// `a` is strictly better than `b`.
    pub fn better(&self, a: i64, b: i64) -> bool {
        match self.sense {
            Sense::Maximize => a > b,
            Sense::Minimize => a < b,
        }
    }
    /// The incremental encoding of "at least as good as a value" (built
    /// lazily, once, and reused for every value).
    pub fn bound_encoding(&self, encoding: PbEncoding) -> ObjectiveBound {
        let terms: Vec<(Lit, usize)> = self.terms.iter().map(|&(l, w)| (l, w as usize)).collect();
        ObjectiveBound {
            pb: Pb::new(encoding, &terms),
            sense: self.sense,
            offset: self.offset,
        }
    }
    /// Literals that, asserted, mean "the objective is at least as good as
    /// `value`" (at least it when maximising, at most it when minimising):
    /// empty when every assignment is, None when none is. The one bound
    /// helper behind `dimacs --bound`, `--all` at the optimum and
    /// [`optimize`].
    pub fn bound<DB: ClauseDatabase>(
        &self,
        db: &mut DB,
        value: i64,
        encoding: PbEncoding,
    ) -> Option<Vec<Lit>> {
        self.bound_encoding(encoding).at_least_as_good(db, value)
    }
}

/// "The objective is at least as good as v" for any v, over one
/// incremental pseudo-Boolean encoding ([`Objective::bound_encoding`]).
pub struct ObjectiveBound {
    pb: Pb,
    sense: Sense,
    offset: i64,
}

impl ObjectiveBound {
    /// See [`Objective::bound`]. Exact for any `value` (no overflow: the
    /// sum's target is computed in 128 bits and clamped to `[0, total]`).
    pub fn at_least_as_good<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        value: i64,
    ) -> Option<Vec<Lit>> {
        let total = self.pb.total_weight() as i128;
        let s = value as i128 - self.offset as i128;
        match self.sense {
            Sense::Maximize if s <= 0 => Some(vec![]),
            Sense::Maximize if s > total => None,
            Sense::Maximize => self.pb.at_least(db, s as usize).ok(),
            Sense::Minimize if s < 0 => None,
            Sense::Minimize if s >= total => Some(vec![]),
            Sense::Minimize => self.pb.at_most(db, s as usize).ok(),
        }
    }
}

crate::option_enum! {
    /// Search strategy for the bound.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Strategy("bound strategy") {
        /// improve the model until UNSAT
        #[default]
        SatUnsat = "sat-unsat",
        /// lower the target from the top until SAT
        UnsatSat = "unsat-sat",
        /// bisection
        Binary = "binary",
    }
}

/// The result of an optimisation run.
#[derive(Clone, Debug)]
pub struct Optimum {
    /// best model and its value
    pub best: Option<(Assignment, i64)>,
    /// the proven bound: no solution is better than this (for maximisation,
    /// an upper bound); equals the best value when optimality is proven
    pub bound: i64,
    /// true if the best value is proven optimal (rests on an UNSAT answer),
    /// or, with no best, the problem is proven infeasible (with an
    /// [`Incumbent`] shared by several searches: no model of this search's
    /// cube is better than `bound`)
    pub proven: bool,
    /// solve calls made
    pub sat_calls: u32,
    /// seconds spent encoding bounds
    pub bound_seconds: f64,
}

impl Optimum {
    /// The best value found.
    pub fn value(&self) -> Option<i64> {
        self.best.as_ref().map(|(_, v)| *v)
    }
}

/// Optimises `obj` over the formula in `session`. `on_improve(model, value,
/// seconds)` is called for each better solution.
pub fn optimize(
    session: &mut Session,
    obj: &Objective,
    pb_encoding: PbEncoding,
    strategy: Strategy,
    on_improve: impl FnMut(&Assignment, i64, f64),
) -> Result<Optimum, SolverError> {
    optimize_lazy(
        session,
        obj,
        pb_encoding,
        strategy,
        |_, _| false,
        on_improve,
    )
}

/// The result of [`optimize_scored`].
#[derive(Clone, Debug)]
pub struct ScoredOptimum {
    /// best model and its score
    pub best: Option<(Assignment, i64)>,
    /// true if the search ended on UNSAT: the best is optimal (or, with no
    /// best, no solution exists)
    pub proven: bool,
    /// accepted models (each scored)
    pub models: u64,
}

/// What [`optimize_scored`] asks of the puzzle.
pub trait ScoredSearch {
    /// Lazily added constraints (see [`optimize_lazy`]): `true` rejects the
    /// model after adding clauses that exclude it.
    fn separate(&mut self, model: &Assignment, session: &mut Session) -> bool;
    /// The model's score, computed from its decoded, checked solution.
    fn score(&mut self, model: &Assignment) -> anyhow::Result<i64>;
    /// Adds clauses keeping only models that may score better than `best`.
    fn require_better(&mut self, best: i64, session: &mut Session);
    /// Adds a clause excluding this model.
    fn block(&mut self, model: &Assignment, session: &mut Session);
}

/// Optimising a score the puzzle computes from each solution by its rules
/// rather than one written in the CNF (Enigma's partitions method scores a
/// cycle type by Algorithm 1): every accepted model is scored and blocked,
/// an improvement tightens the formula through
/// [`ScoredSearch::require_better`], and the final UNSAT proves the best
/// optimal. `hint` is tried first as assumptions (a warm start); an UNSAT
/// under it proves nothing and the search goes on without it.
pub fn optimize_scored(
    session: &mut Session,
    sense: Sense,
    hint: &[Lit],
    search: &mut dyn ScoredSearch,
    mut on_improve: impl FnMut(&Assignment, i64, f64),
) -> anyhow::Result<ScoredOptimum> {
    let start = Instant::now();
    let mut result = ScoredOptimum {
        best: None,
        proven: false,
        models: 0,
    };
    let mut assumptions = hint.to_vec();
    loop {
        let outcome = session.solve(&assumptions)?;
        if !assumptions.is_empty() && outcome == Outcome::Unsat {
            assumptions.clear();
            continue;
        }
        assumptions.clear();
        match outcome {
            Outcome::Sat => {
                let model = session.model()?;
                if search.separate(&model, session) {
                    continue;
                }
                result.models += 1;
                let score = search.score(&model)?;
                let better = result.best.as_ref().is_none_or(|&(_, b)| match sense {
                    Sense::Maximize => score > b,
                    Sense::Minimize => score < b,
                });
                search.block(&model, session);
                if better {
                    search.require_better(score, session);
                    on_improve(&model, score, start.elapsed().as_secs_f64());
                    result.best = Some((model, score));
                }
            }
            Outcome::Unsat => {
                result.proven = true;
                return Ok(result);
            }
            Outcome::Unknown => return Ok(result),
        }
    }
}

/// [`optimize`] with constraints added lazily: each model is first shown to
/// `separate(model, session)`, which may add clauses excluding it (returning
/// `true`: the model is rejected and the same bound is solved again) or
/// accept it (`false`). The constraints of the problem are then the formula
/// plus every constraint `separate` would add, so an UNSAT still proves the
/// optimum.
pub fn optimize_lazy(
    session: &mut Session,
    obj: &Objective,
    pb_encoding: PbEncoding,
    strategy: Strategy,
    separate: impl FnMut(&Assignment, &mut Session) -> bool,
    on_improve: impl FnMut(&Assignment, i64, f64),
) -> Result<Optimum, SolverError> {
    let mut bound_encoding = obj.bound_encoding(pb_encoding);
    let alone = Incumbent::new(obj.sense);
    let search = Search {
        obj,
        strategy,
        cube: &[],
        incumbent: &alone,
    };
    search.run(session, &mut bound_encoding, separate, on_improve)
}

/// The best objective value found so far by any of several searches (e.g.
/// threads solving the cubes of one problem): each search asks only for
/// values better than it, and offers its own improvements.
#[derive(Debug)]
pub struct Incumbent {
    sense: Sense,
    best: std::sync::Mutex<Option<i64>>,
}

impl Incumbent {
    /// No value yet.
    pub fn new(sense: Sense) -> Self {
        Incumbent {
            sense,
            best: std::sync::Mutex::new(None),
        }
    }
    /// The best value offered so far.
    pub fn get(&self) -> Option<i64> {
        *self.best.lock().expect("incumbent lock")
    }
    /// Records `value` if it is better than the best so far; true if it was.
    pub fn offer(&self, value: i64) -> bool {
        let mut best = self.best.lock().expect("incumbent lock");
        let better = match *best {
            None => true,
            Some(b) => match self.sense {
                Sense::Maximize => value > b,
                Sense::Minimize => value < b,
            },
        };
        if better {
            *best = Some(value);
        }
        better
    }
}

/// One optimisation over a session: the objective, the bound strategy, the
/// cube (assumptions every solve call adds: the search covers only the
/// models of the cube) and the incumbent it shares.
///
/// The proof: every UNSAT answer at a target t (under the cube) proves that
/// no model of the cube reaches t, so the returned bound holds for the
/// cube's models; targets beyond a shared incumbent's value are skipped,
/// so a search that ends (`proven`) with no model of its own better than
/// the incumbent has proven that none exists in its cube. Searches over
/// cubes that cover every model, each ended, prove the best incumbent
/// optimal.
pub struct Search<'a> {
    /// the objective
    pub obj: &'a Objective,
    /// how targets are chosen
    pub strategy: Strategy,
    /// assumptions added to every solve call
    pub cube: &'a [Lit],
    /// the best value of every search sharing it
    pub incumbent: &'a Incumbent,
}

impl Search<'_> {
    /// Runs the search. `separate` and `on_improve` as in [`optimize_lazy`];
    /// `on_improve` is called for each model better than this search's
    /// previous one, before it is offered to the incumbent.
    pub fn run(
        &self,
        session: &mut Session,
        bound_encoding: &mut ObjectiveBound,
        mut separate: impl FnMut(&Assignment, &mut Session) -> bool,
        mut on_improve: impl FnMut(&Assignment, i64, f64),
    ) -> Result<Optimum, SolverError> {
        let obj = self.obj;
        let start = Instant::now();
        let calls0 = session.solve_calls;
        let total = obj.max_value() - obj.offset;
        let mut bound_seconds = 0.0;
        // Work on the raw sum s = Σ wᵢ·[lᵢ] ∈ [0, total]; maximise or minimise s.
        let maximize = obj.sense == Sense::Maximize;
        // proven range of the optimal s: [lo, hi]
        let (mut lo, mut hi) = (0i64, total);
        let mut best: Option<(Assignment, i64)> = None;
        let to_obj = |s: i64| obj.offset + s;
        // assumptions demanding a sum at least as good as `target`
        let mut demand = |session: &mut Session, target: i64| -> Option<Vec<Lit>> {
            let t = Instant::now();
            let lits = bound_encoding.at_least_as_good(session, to_obj(target));
            bound_seconds += t.elapsed().as_secs_f64();
            lits
        };
        let mut proven = false;
        let mut infeasible = false;
        loop {
            // only what beats the shared incumbent is of interest
            let shared = self.incumbent.get().map(|v| v - obj.offset);
            if let Some(v) = shared {
                if maximize {
                    lo = lo.max(v + 1);
                } else {
                    hi = hi.min(v - 1);
                }
            }
            if lo > hi {
                proven = true;
                break;
            }
            let known = best.is_some() || shared.is_some();
            // the next target sum to ask for
            let target = match (self.strategy, known) {
                (Strategy::SatUnsat | Strategy::Binary, false) => None,
                (Strategy::SatUnsat, true) => Some(if maximize { lo } else { hi }),
                (Strategy::UnsatSat, _) => Some(if maximize { hi } else { lo }),
                (Strategy::Binary, true) => Some((lo + hi + if maximize { 1 } else { 0 }) / 2),
            };
            let assumptions = match target {
                None => Some(self.cube.to_vec()),
                Some(t) => demand(session, t).map(|mut a| {
                    a.extend_from_slice(self.cube);
                    a
                }),
            };
            let outcome = match &assumptions {
                None => Outcome::Unsat, // the target is beyond the weights
                Some(a) => session.solve(a)?,
            };
            match outcome {
                Outcome::Sat => {
                    let model = session.model()?;
                    if separate(&model, session) {
                        continue;
                    }
                    let s = obj.value(&model) - obj.offset;
                    if maximize {
                        lo = lo.max(s + 1);
                    } else {
                        hi = hi.min(s - 1);
                    }
                    on_improve(&model, to_obj(s), start.elapsed().as_secs_f64());
                    self.incumbent.offer(to_obj(s));
                    best = Some((model, to_obj(s)));
                }
                Outcome::Unsat => match target {
                    None => {
                        infeasible = true;
                        proven = true;
                        break;
                    }
                    Some(t) => {
                        if maximize {
                            hi = t - 1;
                        } else {
                            lo = t + 1;
                        }
                    }
                },
                Outcome::Unknown => break,
            }
        }
        // proven with a model of its own, hi (lo) is its value
        let bound = match (infeasible, maximize) {
            (true, true) => to_obj(-1),
            (true, false) => to_obj(total + 1),
            (false, true) => to_obj(hi),
            (false, false) => to_obj(lo),
        };
        Ok(Optimum {
            best,
            bound,
            proven,
            sat_calls: session.solve_calls - calls0,
            bound_seconds,
        })
    }
}
