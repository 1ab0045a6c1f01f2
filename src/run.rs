//! The generic runner: encode a [`Puzzle`], hand the CNF to a backend, drive
//! it (solve once, optimise, or enumerate), check every solution with the
//! puzzle's independent checker, and report (text or JSON). Also DIMACS
//! export and decoding of an external solver's answer. Written once for
//! every puzzle.
//!
//! With [`RunOptions::certify`], the session records the formula and every
//! UNSAT answer a claim rests on ("optimal", "infeasible", "exactly N") is
//! certified by a checked proof ([`crate::certify`]); a proof that fails to
//! check is an error. An external solver's UNSAT answer without a proof is
//! reported as unchecked ([`Report::unchecked`]).

use std::borrow::Cow;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use puzzlesat_encodings::pb::PbEncoding;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

use crate::drive::proof::{self, certify_session_claim, Prepared, ProofPlan};
use crate::drive::{self, Objective, ScoredSearch, Sense};
use crate::io::dimacs::{self, Format};
use crate::io::solver_output::{self, SolverAnswer};
use crate::options::Purpose;
pub use crate::options::RunOptions;
pub use crate::puzzle::{decode_checked, encode, encode_recording};
use crate::puzzle::{Encoded, Puzzle};
pub use crate::report::{Report, Status, StoppedBy};
use crate::solver::{Limits, Session};

/// How often enumeration refreshes its status line for the progress display.
const STATUS_INTERVAL: Duration = Duration::from_millis(50);

/// The puzzle's hooks during a run, each timed into its phase.
struct Hooks<'a, P: Puzzle> {
    p: &'a P,
    enc: &'a Encoded<P::Map>,
    separate: Duration,
    decode_check: Duration,
    bounds: Duration,
    rejected: u64,
    /// the last scored solution, and the best one
    last_scored: Option<P::Solution>,
    best_scored: Option<P::Solution>,
}

impl<P: Puzzle> Hooks<'_, P> {
    fn separate<DB: ClauseDatabase>(&mut self, model: &Assignment, db: &mut DB) -> bool {
        let t = Instant::now();
        let rejected = self.p.separate(&self.enc.map, model, db);
        self.separate += t.elapsed();
        self.rejected += u64::from(rejected);
        rejected
    }
    fn decode(&mut self, model: &Assignment) -> anyhow::Result<P::Solution> {
        let t = Instant::now();
        let sol = decode_checked(self.p, self.enc, model);
        self.decode_check += t.elapsed();
        sol
    }
}

impl<P: Puzzle> ScoredSearch for Hooks<'_, P> {
    fn separate(&mut self, model: &Assignment, session: &mut Session) -> bool {
        Hooks::separate(self, model, session)
    }
    fn score(&mut self, model: &Assignment) -> anyhow::Result<i64> {
        let sol = self.decode(model)?;
        let Some(v) = self.p.objective_of(&sol) else {
            bail!("internal error: {} scores no objective", self.p.describe());
        };
        self.last_scored = Some(sol);
        Ok(v)
    }
    fn require_better(&mut self, best: i64, session: &mut Session) {
        // called on an improvement: the last scored solution is the best
        self.best_scored = self.last_scored.take();
        let t = Instant::now();
        self.p.require_better(&self.enc.map, best, session);
        self.bounds += t.elapsed();
    }
    fn block(&mut self, model: &Assignment, session: &mut Session) {
        let t = Instant::now();
        let clause = self
            .p
            .blocking_clause(&self.enc.map, model)
            .unwrap_or_else(|| projection_block(&self.enc.primary, model));
        session.add(&clause);
        self.separate += t.elapsed();
    }
}

/// The clause excluding a model's projection onto `primary`.
fn projection_block(primary: &[Lit], model: &Assignment) -> Vec<Lit> {
    primary
        .iter()
        .map(|&l| if model.lit(l) { !l } else { l })
        .collect()
}

/// Solves (or optimises, or enumerates) `p` and returns the report. Progress
/// lines ("improved to …") go to `progress`. Every phase is timed; the
/// report's `seconds.total` is this call's wall time (the command line
/// replaces it by the process's).
pub fn run<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    match &opts.cubes {
        Some(cubes) if opts.all => {
            return drive::cubes::count::run(p, opts, cubes, limits, progress)
        }
        Some(cubes) => {
            return drive::cubes::optimise::optimise_cubes(p, opts, cubes, limits, progress)
        }
        None => {}
    }
    if opts.all && !opts.no_classes && opts.limit.is_none() {
        if let Some(reps) = p.class_representatives() {
            return run_by_classes(p, &reps, opts, limits, progress);
        }
    }
    run_counting_classes_of(p, opts, limits, progress, None)
}

/// [`run`]; with `classes_of`, `p` is the representative puzzle of
/// `classes_of` and each solution it enumerates is expanded into its class
/// of `classes_of`'s solutions as it is found ([`drive::classes`]).
fn run_counting_classes_of<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
    classes_of: Option<&P>,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    let started = Instant::now();
    let (
        Prepared {
            cnf,
            enc,
            encode_seconds,
            plan,
        },
        (),
    ) = proof::prepare(p, opts, |_, _| Ok(()))?;
    let counts = cnf.counts();
    let t = Instant::now();
    let enumerates = opts.all && enc.objective.is_none() && enc.scored.is_none();
    let purpose = match opts.enumeration_engine(p.enumeration())? {
        engine if enumerates => Purpose::Enumerate(engine),
        _ => Purpose::Claims,
    };
    let session = opts.open(Cow::Owned(cnf), limits.clone(), purpose)?;
    let mut report: Report<P::Solution, P::Details> =
        Report::new(p.describe(), session.solver_name(), p.counted_as());
    report.seed = opts.seed;
    report.vars = counts.vars;
    report.clauses = counts.clauses;
    report.literals = counts.literals;
    report.seconds.encode = encode_seconds;
    report.seconds.load = t.elapsed().as_secs_f64();
    report.certificates = opts.certify.as_ref().map(|_| vec![]);
    let mut run = SingleRun {
        p,
        opts,
        enc: &enc,
        plan: &plan,
        session,
        hooks: Hooks {
            p,
            enc: &enc,
            separate: Duration::ZERO,
            decode_check: Duration::ZERO,
            bounds: Duration::ZERO,
            rejected: 0,
            last_scored: None,
            best_scored: None,
        },
        report,
    };
    let mut assumptions = vec![];
    if let (Some(sense), false) = (enc.scored, opts.first) {
        run.optimise_scored(sense, progress)?;
    } else if let (Some(obj), false) = (&enc.objective, opts.first) {
        assumptions = run.optimise(obj, progress)?;
    }
    let at_optimum = opts.all && enc.objective.is_some() && run.report.status == Status::Optimal;
    let mut enumerated = None;
    if (enc.objective.is_none() && enc.scored.is_none()) || opts.first || at_optimum {
        let count = run.enumerate(classes_of, &assumptions, at_optimum, started, progress)?;
        enumerated = Some(count);
    }
    run.finish(&limits, enumerated, started)
}

/// One run of [`run_counting_classes_of`] between its phases (optimise,
/// enumerate, finish): the puzzle, its encoding and proof plan, the
/// session, the timed hooks and the report so far.
struct SingleRun<'a, P: Puzzle> {
    p: &'a P,
    opts: &'a RunOptions,
    enc: &'a Encoded<P::Map>,
    plan: &'a ProofPlan,
    session: Session,
    hooks: Hooks<'a, P>,
    report: Report<P::Solution, P::Details>,
}

/// The progress line of an improvement.
fn improved(progress: &mut dyn Write, v: i64, secs: f64) {
    let _ = writeln!(progress, "c improved: objective {v} after {secs:.2}s");
}

impl<P: Puzzle> SingleRun<'_, P> {
    /// The best solution by the puzzle's own score ([`drive::optimize_scored`]),
    /// its optimum certified when proven.
    fn optimise_scored(&mut self, sense: Sense, progress: &mut dyn Write) -> anyhow::Result<()> {
        let unsat_before = self.session.unsat_answers();
        let opt = drive::optimize_scored(
            &mut self.session,
            sense,
            &self.enc.hint,
            &mut self.hooks,
            |_, v, s| improved(progress, v, s),
        )?;
        let report = &mut self.report;
        report.objective = opt.best.as_ref().map(|&(_, v)| v);
        report.status = Status::of_optimum(opt.best.is_some(), opt.proven);
        if opt.proven {
            report.bound = report.objective;
            certify_session_claim(
                self.plan,
                &self.session,
                self.opts,
                unsat_before,
                report,
                None,
            )?;
        }
        report.solutions = self.hooks.best_scored.take().into_iter().collect();
        Ok(())
    }

    /// The optimum of `obj` ([`drive::optimize_lazy`]), certified when
    /// proven; with `--all`, the assumptions that fix the objective to it
    /// (the optimal solutions are enumerated next), else the best solution.
    fn optimise(&mut self, obj: &Objective, progress: &mut dyn Write) -> anyhow::Result<Vec<Lit>> {
        let opts = self.opts;
        let unsat_before = self.session.unsat_answers();
        let hooks = &mut self.hooks;
        let opt = drive::optimize_lazy(
            &mut self.session,
            obj,
            opts.objective_encoding,
            opts.strategy,
            |m, s| hooks.separate(m, s),
            |_, v, secs| improved(progress, v, secs),
        )?;
        self.hooks.bounds += Duration::from_secs_f64(opt.bound_seconds);
        let report = &mut self.report;
        report.bound = Some(opt.bound);
        report.objective = opt.value();
        report.status = Status::of_optimum(opt.best.is_some(), opt.proven);
        if opt.proven {
            // the last UNSAT answer is the tightest bound: the one the
            // optimum (or the infeasibility) rests on
            let optimum = opt.best.as_ref().map(|(m, _)| (obj, m));
            certify_session_claim(
                self.plan,
                &self.session,
                opts,
                unsat_before,
                report,
                optimum,
            )?;
        }
        let mut assumptions = vec![];
        if let Some((model, v)) = &opt.best {
            if opts.all && opt.proven {
                // enumerate the optimal solutions: fix the objective to its optimum
                let t = Instant::now();
                assumptions = obj
                    .bound(&mut self.session, *v, opts.objective_encoding)
                    .context("internal error: the optimum is out of the objective's range")?;
                self.hooks.bounds += t.elapsed();
            } else {
                let sol = self.hooks.decode(model)?;
                self.report.solutions.push(sol);
            }
        }
        Ok(assumptions)
    }

    /// Enumerates the solutions (under `assumptions`; `at_optimum`: the
    /// optimal ones) or finds one, each expanded into its class of
    /// `classes_of` where given; a complete enumeration's claim is
    /// certified. Returns how many models it enumerated.
    fn enumerate(
        &mut self,
        classes_of: Option<&P>,
        assumptions: &[Lit],
        at_optimum: bool,
        started: Instant,
        progress: &mut dyn Write,
    ) -> anyhow::Result<u64> {
        let opts = self.opts;
        let limit = if opts.all { opts.limit } else { Some(1) };
        let mut tally = drive::classes::Tally::new(self.p, classes_of, !opts.count_only);
        let mut last_status = Instant::now();
        let unsat_before = self.session.unsat_answers();
        let e = tally.count(&mut self.session, self.enc, assumptions, limit, |tally| {
            // state for the spinner / heartbeat (front::progress), at most
            // every 50 ms: formatting a line per model would cost as much
            // as finding it
            if last_status.elapsed() >= STATUS_INTERVAL || tally.solutions <= 1 {
                last_status = Instant::now();
                let _ = writeln!(
                    progress,
                    "c status: {} found after {:.1}s",
                    tally.solutions,
                    started.elapsed().as_secs_f64()
                );
            }
        })?;
        self.hooks.decode_check += tally.decoding;
        self.hooks.separate += tally.separating;
        self.hooks.rejected += tally.rejected;
        let report = &mut self.report;
        report.classes = tally.classes();
        let solutions = tally.solutions;
        let status = enumeration_status(opts.all, solutions, e.complete);
        if e.complete {
            // the claim, for the certificate, and the count, which a
            // certificate from the model may state
            report.status = status;
            if opts.all {
                report.count = Some(solutions);
            }
            // the optimal solutions' count rests on the assumption "as good
            // as the optimum", which a VeriPB proof from the model cannot
            // take: that count is certified by DRAT
            let not_from_model = ProofPlan::NotFromModel(
                "a count of the optimal solutions rests on the optimum as an assumption; VeriPB proofs of it are not written yet".into(),
            );
            let plan = if at_optimum {
                &not_from_model
            } else {
                self.plan
            };
            certify_session_claim(plan, &self.session, opts, unsat_before, report, None)?;
        }
        report.solutions = std::mem::take(&mut tally.found);
        report.status = status;
        if opts.all {
            report.count = Some(solutions);
        } else if let Some(s) = report.solutions.first() {
            report.objective =
                self.p
                    .objective_of(s)
                    .or(self.enc.objective.as_ref().map(|o| o.offset));
        }
        Ok(e.count)
    }

    /// The report with the session's numbers, the puzzle's details and
    /// every phase's time.
    fn finish(
        self,
        limits: &Limits,
        enumerated: Option<u64>,
        started: Instant,
    ) -> anyhow::Result<Report<P::Solution, P::Details>> {
        let SingleRun {
            p,
            opts,
            enc,
            session,
            mut hooks,
            mut report,
            ..
        } = self;
        report.sat_calls = session.solve_calls;
        report.sat_answers = session.sat_answers;
        report.stats = session.stats();
        report.lazy_constraints = hooks.rejected;
        report.stopped_by = stopped_by(&report, limits, opts, enumerated);
        report.unchecked = opts.solver.is_external()
            && opts.certify.is_none()
            && session.unsat_answers() > 0
            && matches!(report.status, Status::Optimal | Status::Unsat | Status::All);
        report.seconds.solve = session.solve_time.as_secs_f64();
        drop(session);
        let t = Instant::now();
        p.details(&enc.map, &mut report)?;
        hooks.decode_check += t.elapsed();
        report.seconds.bounds = hooks.bounds.as_secs_f64();
        report.seconds.separate = hooks.separate.as_secs_f64();
        report.seconds.decode_check = hooks.decode_check.as_secs_f64();
        report.seconds.close(started.elapsed().as_secs_f64());
        Ok(report)
    }
}

/// The status an enumeration ends in, and the claim a complete one
/// certifies: with `--all` the count's ([`Status::of_count`]); else the
/// one solution asked for, none (proven), or none found.
fn enumeration_status(all: bool, solutions: u64, complete: bool) -> Status {
    match (all, solutions, complete) {
        (true, n, complete) => Status::of_count(complete, n),
        (false, 0, true) => Status::Unsat,
        (false, 0, false) => Status::Unknown,
        (false, _, _) => Status::Sat,
    }
}

/// `--all` by symmetry classes: enumerates `reps`, expanding each
/// representative into its class of `p`'s solutions as it is found
/// ([`drive::classes`]; the expansion is timed as decode+check).
fn run_by_classes<P: Puzzle>(
    p: &P,
    reps: &P,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    let plain = RunOptions {
        no_classes: true,
        ..opts.clone()
    };
    let mut r = run_counting_classes_of(reps, &plain, limits, progress, Some(p))?;
    r.puzzle = p.describe();
    r.counted_as = p.counted_as().to_string();
    Ok(r)
}

/// Why an answer is incomplete: the interrupt flag, the deadline, or the
/// enumeration limit (None when the answer is complete).
fn stopped_by<S, D>(
    report: &Report<S, D>,
    limits: &Limits,
    opts: &RunOptions,
    enumerated: Option<u64>,
) -> Option<StoppedBy> {
    let complete = match report.status {
        Status::Optimal | Status::Unsat | Status::All => true,
        // a solution without an optimality claim is complete when none was asked
        Status::Sat => report.bound.is_none() || opts.first,
        Status::Unknown | Status::Partial => false,
    };
    if complete {
        None
    } else if opts.all
        && opts.limit.is_some()
        && enumerated >= opts.limit
        && !limits.interrupt.load(std::sync::atomic::Ordering::Relaxed)
    {
        Some(StoppedBy::Limit)
    } else {
        Some(StoppedBy::of_limits(limits))
    }
}

/// Refuses a puzzle whose CNF is estimated (from its parameters, before
/// anything is allocated) to exceed `max_clauses` (`--max-clauses`).
pub fn check_budget<P: Puzzle>(p: &P, max_clauses: u64) -> anyhow::Result<()> {
    let estimate = p.estimated_clauses();
    if estimate > max_clauses {
        bail!(
            "{}: about {estimate} clauses estimated, over the budget of {max_clauses} (--max-clauses raises it)",
            p.describe()
        );
    }
    Ok(())
}

/// [`run`] without a time limit and without progress output: what tests,
/// benches and library users want when they only need the report.
pub fn run_quiet<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    run(p, opts, Limits::default(), &mut std::io::sink())
}

/// Prints a report for people: each solution as a grid, then a summary line
/// that says exactly what is proven.
pub fn print_text<P: Puzzle>(
    p: &P,
    r: &Report<P::Solution, P::Details>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    r.print_text(crate::report::Output::default(), |s| p.render(s), out)
}

/// Encodes `p`; with `bound`, adds the decision constraint "objective at
/// least (maximise) / at most (minimise) `bound`" — the formula `dimacs
/// --bound` writes and `decode --bound` reads models of.
pub fn encode_with_bound<P: Puzzle>(
    p: &P,
    bound: Option<i64>,
    pb: PbEncoding,
) -> anyhow::Result<(Cnf, Encoded<P::Map>)> {
    let (mut cnf, enc, _) = encode(p)?;
    if let Some(b) = bound {
        let Some(obj) = &enc.objective else {
            bail!("--bound: {} has no objective", p.describe());
        };
        match obj.bound(&mut cnf, b, pb) {
            Some(units) => units.into_iter().for_each(|l| cnf.add(&[l])),
            None => cnf.add(&[]),
        }
    }
    Ok((cnf, enc))
}

/// Writes the puzzle's CNF as DIMACS with a header. With `bound`, the
/// objective is turned into the decision constraint "objective at least
/// (max) / at most (min) `bound`". Returns the encoding (for the var map).
pub fn export_dimacs<P: Puzzle>(
    p: &P,
    bound: Option<i64>,
    pb: PbEncoding,
    out: &mut dyn Write,
) -> anyhow::Result<Encoded<P::Map>> {
    export_formula(p, bound, pb, Format::Cnf, out)
}

/// [`export_dimacs`] in a chosen format: DIMACS CNF, or, for a puzzle with
/// an objective, MaxSAT WCNF (the objective as soft unit clauses: minimise
/// Σ w·[l] becomes soft `¬l` of weight w, maximise becomes soft `l`) or OPB
/// (the objective as `min:`, negated when maximising). The header records
/// how the file's optimum maps back to the puzzle's objective.
pub fn export_formula<P: Puzzle>(
    p: &P,
    bound: Option<i64>,
    pb: PbEncoding,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<Encoded<P::Map>> {
    let (cnf, enc) = encode_with_bound(p, bound, pb)?;
    let c = cnf.counts();
    let mut header = vec![
        format!(
            "puzzlesat {} ({})",
            env!("CARGO_PKG_VERSION"),
            format_flag(format)
        ),
        format!("instance: {}", p.describe()),
        format!(
            "vars {} clauses {} literals {}",
            c.vars, c.clauses, c.literals
        ),
    ];
    if let Some(b) = bound {
        header.push(format!("decision: objective bound {b}"));
    }
    let mut buf = std::io::BufWriter::new(out);
    match (format, &enc.objective) {
        (Format::Cnf, _) => dimacs::write_cnf(&mut buf, &cnf, &header)?,
        (Format::Wcnf | Format::Opb, None) => bail!(
            "{}: {} has no objective (write plain DIMACS)",
            format_flag(format),
            p.describe()
        ),
        (Format::Wcnf, Some(obj)) => {
            let total: u64 = obj.terms.iter().map(|&(_, w)| w).sum();
            let soft: Vec<(rustsat::types::Lit, u64)> = match obj.sense {
                Sense::Minimize => obj.terms.iter().map(|&(l, w)| (!l, w)).collect(),
                Sense::Maximize => obj.terms.clone(),
            };
            header.push(match obj.sense {
                Sense::Minimize => format!("objective (minimise) = {} + cost", obj.offset),
                Sense::Maximize => format!(
                    "objective (maximise) = {} - cost",
                    obj.offset + total as i64
                ),
            });
            dimacs::write_wcnf(&mut buf, &cnf, &soft, &header)?;
        }
        (Format::Opb, Some(obj)) => {
            let sign = match obj.sense {
                Sense::Minimize => 1,
                Sense::Maximize => -1,
            };
            let terms: Vec<(rustsat::types::Lit, i64)> = obj
                .terms
                .iter()
                .map(|&(l, w)| (l, sign * w as i64))
                .collect();
            header.push(match obj.sense {
                Sense::Minimize => {
                    format!("objective (minimise) = {} + literal objective", obj.offset)
                }
                Sense::Maximize => {
                    format!("objective (maximise) = {} - literal objective", obj.offset)
                }
            });
            dimacs::write_opb(&mut buf, &cnf, &terms, &header)?;
        }
    }
    buf.flush()?;
    Ok(enc)
}

/// The flag that selects a format, for messages and headers.
fn format_flag(format: Format) -> &'static str {
    match format {
        Format::Cnf => "dimacs cnf",
        Format::Wcnf => "--wcnf",
        Format::Opb => "--opb",
    }
}

/// Decodes an external solver's output for `p` (re-encoding it, with the
/// same `bound` as the export, to get the variable map and the formula the
/// model must satisfy), checks the solution, and returns it (None for UNSAT /
/// UNKNOWN, reported in the returned status).
pub fn decode_output<P: Puzzle>(
    p: &P,
    text: &str,
    bound: Option<i64>,
    pb: PbEncoding,
) -> anyhow::Result<(Status, Option<P::Solution>)> {
    let (cnf, enc) = encode_with_bound(p, bound, pb)?;
    match solver_output::parse(text, cnf.n_vars())? {
        SolverAnswer::Sat(model) => {
            if !model.satisfies(cnf.clauses()) {
                bail!("the model does not satisfy the formula of {} (was it produced for other options?)", p.describe());
            }
            Ok((Status::Sat, Some(decode_checked(p, &enc, &model)?)))
        }
        SolverAnswer::Unsat => Ok((Status::Unsat, None)),
        SolverAnswer::Unknown => Ok((Status::Unknown, None)),
    }
}
