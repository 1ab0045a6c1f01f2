//! Finding in stages, written once for every [`Staged`] puzzle: stage `i`
//! is a CNF built from the answers of stages `0..i`, solved on a session of
//! its own. An answer of stage `i` that its successors cannot extend
//! within their conflict budget is blocked and stage `i` asked again (at
//! most [`TRIES_PER_STAGE`] times below the first stage); the budget
//! doubles at each failure of the last stage. The first stage runs without
//! a conflict budget: when it runs out of answers the restriction holds no
//! solution (or the budgets found none), which proves nothing about the
//! puzzle, and the driver answers `None` so that the caller falls back to
//! a complete method. (Backtracking over stages with budgets, as in
//! Euler's staged construction of magic squares from orthogonal digit
//! squares; see `docs/magic.md`.)

use std::borrow::Cow;
use std::io::Write;
use std::time::Instant;

use puzzlesat_encodings::solve::{Capabilities, Limits, Outcome};
use puzzlesat_encodings::{ClauseDatabase, Cnf};

use crate::options::{Purpose, RunOptions};
use crate::puzzle::Staged;
use crate::report::{Report, Status, StoppedBy};

/// Conflicts of the first budgeted attempt (doubled at each failure of the
/// last stage).
pub const FIRST_BUDGET: u64 = 2_000;

/// Answers a stage below the first may give before its predecessor is
/// asked for another.
pub const TRIES_PER_STAGE: u64 = 4;

/// The search over the stages.
struct Search<'a, S: Staged> {
    s: &'a S,
    opts: &'a RunOptions,
    limits: Limits,
    budget: u64,
    /// sessions opened so far: the seed of each is `--seed` plus this
    sessions: u64,
    started: Instant,
    attempts: Vec<u64>,
    report: Report<S::Solution, S::Details>,
    progress: &'a mut dyn Write,
}

impl<S: Staged> Search<'_, S> {
    /// Stage `i` given the answers of the stages before; the answers of
    /// stages `i..` when found.
    fn stage(&mut self, i: usize, earlier: &mut Vec<S::Answer>) -> anyhow::Result<bool> {
        let t = Instant::now();
        let mut cnf = Cnf::new();
        let map = self.s.encode_stage(i, earlier, &mut cnf)?;
        self.report.seconds.encode += t.elapsed().as_secs_f64();
        self.report.vars = self.report.vars.max(cnf.n_vars() as _);
        self.report.clauses = self.report.clauses.max(cnf.len() as _);
        let t = Instant::now();
        let limits = if i == 0 {
            self.limits.clone()
        } else {
            Limits {
                conflicts: Some(self.budget),
                ..self.limits.clone()
            }
        };
        let mut session =
            self.opts
                .open(Cow::Borrowed(&cnf), limits, Purpose::Stage(self.sessions))?;
        self.sessions += 1;
        self.report.solver = session.solver_name();
        self.report.seconds.load += t.elapsed().as_secs_f64();
        let last = i + 1 == self.s.stages();
        let mut tries = 0;
        loop {
            let t = Instant::now();
            let outcome = session.solve(&[])?;
            self.report.sat_calls += 1;
            self.report.seconds.solve += t.elapsed().as_secs_f64();
            if outcome != Outcome::Sat {
                if last {
                    self.budget = self.budget.saturating_mul(2);
                }
                return Ok(false);
            }
            self.report.sat_answers += 1;
            self.attempts[i] += 1;
            let answer = self.s.read(i, &map, &session.model()?);
            earlier.push(answer.clone());
            if last {
                self.report.stats = session.stats();
                return Ok(true);
            }
            let _ = writeln!(
                self.progress,
                "c staged: {} {} of stage {} at {:.1} s; stage {} within {} conflicts",
                self.s.answer_noun(),
                self.attempts[i],
                i + 1,
                self.started.elapsed().as_secs_f64(),
                i + 2,
                self.budget
            );
            if self.stage(i + 1, earlier)? {
                return Ok(true);
            }
            earlier.pop();
            tries += 1;
            if self.limits.expired() || (i > 0 && tries >= TRIES_PER_STAGE) {
                return Ok(false);
            }
            // no extension (within the budget): block this answer
            session.add(&self.s.block(i, &map, &answer));
        }
    }
}

/// Runs the staged search of `s` (module docs). `None` when the first
/// stage runs out of answers (the caller falls back to a complete method);
/// else the report: a checked solution, or none when the limits stopped the
/// search.
pub fn search_in_stages<S: Staged>(
    s: &S,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Option<Report<S::Solution, S::Details>>> {
    let budgets = Capabilities {
        conflict_limit: true,
        ..Capabilities::default()
    };
    if s.stages() > 1 {
        opts.solver
            .refuse_unless(&budgets, "the staged method (its stages' conflict budgets)")?;
    }
    let started = Instant::now();
    let mut report: Report<S::Solution, S::Details> =
        Report::new(s.describe(), String::new(), "solutions");
    report.seed = opts.seed;
    let mut search = Search {
        s,
        opts,
        limits: limits.clone(),
        budget: FIRST_BUDGET,
        sessions: 0,
        started,
        attempts: vec![0; s.stages()],
        report,
        progress,
    };
    let mut answers = vec![];
    let found = search.stage(0, &mut answers)?;
    let attempts = std::mem::take(&mut search.attempts);
    let mut r = search.report;
    r.details = s.details(&attempts);
    if found {
        let t = Instant::now();
        r.solutions.push(s.solution(&answers)?);
        r.status = Status::Sat;
        r.seconds.decode_check += t.elapsed().as_secs_f64();
    } else if !limits.expired() {
        return Ok(None);
    } else {
        r.stopped_by = Some(
            if limits.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                StoppedBy::Interrupt
            } else {
                StoppedBy::Timeout
            },
        );
    }
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(Some(r))
}
