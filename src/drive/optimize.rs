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

use puzzlesat_encodings::pb::{Pb, PbEncoding};
use puzzlesat_encodings::Assignment;
use rustsat::types::Lit;
use serde::Serialize;

use crate::solver::{Outcome, Session, SolverError};

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
}

puzzlesat_encodings::option_enum! {
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
    /// or, with no best, the problem is proven infeasible
    pub proven: bool,
    /// solve calls made
    pub sat_calls: u32,
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
    mut separate: impl FnMut(&Assignment, &mut Session) -> bool,
    mut on_improve: impl FnMut(&Assignment, i64, f64),
) -> Result<Optimum, SolverError> {
    let start = Instant::now();
    let calls0 = session.solve_calls;
    let terms: Vec<(Lit, usize)> = obj.terms.iter().map(|&(l, w)| (l, w as usize)).collect();
    let mut pb = Pb::new(pb_encoding, &terms);
    let total = pb.total_weight() as i64;
    // Work on the raw sum s = Σ wᵢ·[lᵢ] ∈ [0, total]; maximise or minimise s.
    let maximize = obj.sense == Sense::Maximize;
    // proven range of the optimal s: [lo, hi]
    let (mut lo, mut hi) = (0i64, total);
    let mut best: Option<(Assignment, i64)> = None;
    let to_obj = |s: i64| obj.offset + s;
    // assumptions demanding a sum at least as good as `target`
    let mut demand = |session: &mut Session, target: i64| -> Option<Vec<Lit>> {
        if maximize {
            pb.at_least(session, target.max(0) as usize).ok()
        } else {
            Some(pb.at_most(session, target.max(0) as usize))
        }
    };
    let mut proven = false;
    let mut infeasible = false;
    loop {
        if lo > hi {
            proven = true;
            break;
        }
        // the next target sum to ask for
        let target = match (strategy, &best) {
            (Strategy::SatUnsat, None) => None,
            (Strategy::SatUnsat, Some(_)) => Some(if maximize { lo } else { hi }),
            (Strategy::UnsatSat, _) => Some(if maximize { hi } else { lo }),
            (Strategy::Binary, None) => None,
            (Strategy::Binary, Some(_)) => Some((lo + hi + if maximize { 1 } else { 0 }) / 2),
        };
        let assumptions = match target {
            None => Some(vec![]),
            Some(t) => demand(session, t),
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
                    lo = s + 1;
                } else {
                    hi = s - 1;
                }
                on_improve(&model, to_obj(s), start.elapsed().as_secs_f64());
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
    let bound = match (&best, infeasible) {
        (_, true) => {
            if maximize {
                to_obj(-1)
            } else {
                to_obj(total + 1)
            }
        }
        (Some((_, v)), false) if proven => *v,
        _ => {
            if maximize {
                to_obj(hi)
            } else {
                to_obj(lo)
            }
        }
    };
    Ok(Optimum {
        best,
        bound,
        proven,
        sat_calls: session.solve_calls - calls0,
    })
}
