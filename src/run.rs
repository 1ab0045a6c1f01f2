//! The generic runner: encode a [`Puzzle`], hand the CNF to a backend, drive
//! it (solve once, optimise, or enumerate), check every solution with the
//! puzzle's independent checker, and report (text or JSON). Also DIMACS
//! export and decoding of an external solver's answer. Written once for
//! every puzzle.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use puzzlesat_encodings::pb::PbEncoding;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use serde::Serialize;

use crate::drive::{self, Sense, Strategy};
use crate::io::dimacs::{self, Format};
use crate::io::solver_output::{self, SolverAnswer};
use crate::puzzle::{Encoded, Puzzle};
use crate::solver::{Limits, Session, SolverKind, SolverStats};

/// Options common to every puzzle's `solve`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// backend
    pub solver: SolverKind,
    /// wall-clock limit for the whole run
    pub timeout: Option<Duration>,
    /// enumerate all solutions (of the optimum, for optimisation puzzles)
    pub all: bool,
    /// stop enumerating after this many
    pub limit: Option<u64>,
    /// PB encoding of the objective bound
    pub objective_encoding: PbEncoding,
    /// bound search strategy
    pub strategy: Strategy,
    /// stop at the first solution even if the puzzle has an objective
    pub first: bool,
    /// with `all`: enumerate every solution by blocking clauses even where
    /// the puzzle counts by symmetry classes (`--no-classes`)
    pub no_classes: bool,
    /// `--seed`: 0 keeps the backend's own (deterministic) search; any other
    /// value seeds it ([`Session::set_seed`]; an error for a backend that
    /// takes no seed)
    pub seed: u64,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// optimum found and proven by UNSAT
    Optimal,
    /// a solution, no optimality claim
    Sat,
    /// no solution exists (proven)
    Unsat,
    /// time limit or interrupt before an answer
    Unknown,
    /// every solution enumerated, the count is exact (proven by UNSAT)
    All,
    /// enumeration stopped early (limit, timeout): the count is a lower bound
    Partial,
}

/// One result, as printed with `--json` and used as an experiment row.
#[derive(Clone, Debug, Serialize)]
pub struct Report<S: Serialize> {
    /// instance and options
    pub puzzle: String,
    /// backend used
    pub solver: String,
    /// outcome
    pub status: Status,
    /// best objective value found
    pub objective: Option<i64>,
    /// proven bound on the objective
    pub bound: Option<i64>,
    /// solutions (the best one, or all with `--all`), each checked
    pub solutions: Vec<S>,
    /// number of solutions counted with `--all`
    pub count: Option<u64>,
    /// with `--all` by symmetry classes: the classes (orbits) counted
    pub classes: Option<u64>,
    /// variables of the encoding (before bounds / blocking clauses)
    pub vars: u32,
    /// clauses of the encoding
    pub clauses: usize,
    /// literal occurrences of the encoding
    pub literals: usize,
    /// seconds spent encoding
    pub encode_seconds: f64,
    /// seconds spent in the solver
    pub solve_seconds: f64,
    /// solve calls
    pub sat_calls: u32,
    /// backend statistics
    pub stats: SolverStats,
}

/// Encodes `p`, timing it.
pub fn encode<P: Puzzle>(p: &P) -> anyhow::Result<(Cnf, Encoded<P::Map>, f64)> {
    let t = Instant::now();
    let mut cnf = Cnf::new();
    let enc = p
        .encode(&mut cnf)
        .with_context(|| format!("encoding {}", p.describe()))?;
    Ok((cnf, enc, t.elapsed().as_secs_f64()))
}

/// Decodes and checks a model; a failed check is an error (never printed as
/// a solution).
pub fn decode_checked<P: Puzzle>(
    p: &P,
    enc: &Encoded<P::Map>,
    model: &Assignment,
) -> anyhow::Result<P::Solution> {
    let sol = p.decode(&enc.map, model);
    if let Err(e) = p.check(&sol) {
        bail!(
            "internal error: the solver's model decodes to an invalid solution ({e}):\n{}",
            p.render(&sol)
        );
    }
    if let (Some(obj), Some(v)) = (&enc.objective, p.objective_of(&sol)) {
        let cnf_v = obj.value(model);
        if cnf_v != v {
            bail!("internal error: the CNF's objective says {cnf_v}, the rules say {v}");
        }
    }
    Ok(sol)
}

/// Solves (or optimises, or enumerates) `p` and returns the report. Progress
/// lines ("improved to …") go to `progress`.
pub fn run<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution>> {
    if opts.all && !opts.no_classes && opts.limit.is_none() {
        if let Some(reps) = p.class_representatives() {
            return run_by_classes(p, &reps, opts, limits, progress);
        }
    }
    let (cnf, enc, encode_seconds) = encode(p)?;
    let counts = cnf.counts();
    let mut session = Session::new(&opts.solver, &cnf, limits)?;
    if opts.seed != 0 {
        session.set_seed(opts.seed)?;
    }
    drop(cnf);
    let mut report = Report {
        puzzle: p.describe(),
        solver: session.solver_name(),
        status: Status::Unknown,
        objective: None,
        bound: None,
        solutions: vec![],
        count: None,
        classes: None,
        vars: counts.vars,
        clauses: counts.clauses,
        literals: counts.literals,
        encode_seconds,
        solve_seconds: 0.0,
        sat_calls: 0,
        stats: SolverStats::default(),
    };
    let mut assumptions = vec![];
    if let (Some(obj), false) = (&enc.objective, opts.first) {
        let separate = |m: &Assignment, s: &mut Session| p.separate(&enc.map, m, s);
        let opt = drive::optimize_lazy(
            &mut session,
            obj,
            opts.objective_encoding,
            opts.strategy,
            separate,
            |_, v, secs| {
                let _ = writeln!(progress, "c improved: objective {v} after {secs:.2}s");
            },
        )?;
        report.bound = Some(opt.bound);
        report.objective = opt.value();
        report.status = match (&opt.best, opt.proven) {
            (Some(_), true) => Status::Optimal,
            (Some(_), false) => Status::Sat,
            (None, true) => Status::Unsat,
            (None, false) => Status::Unknown,
        };
        if let Some((model, v)) = &opt.best {
            report.solutions.push(decode_checked(p, &enc, model)?);
            if opts.all && opt.proven {
                // enumerate the optimal solutions: fix the objective to its optimum
                let terms: Vec<(rustsat::types::Lit, usize)> =
                    obj.terms.iter().map(|&(l, w)| (l, w as usize)).collect();
                let s = (v - obj.offset) as usize;
                let mut pb = puzzlesat_encodings::pb::Pb::new(opts.objective_encoding, &terms);
                assumptions = match obj.sense {
                    Sense::Maximize => pb.at_least(&mut session, s).unwrap_or_default(),
                    Sense::Minimize => pb.at_most(&mut session, s),
                };
                report.solutions.clear();
            }
        }
    }
    let enumerate =
        opts.all && !matches!(report.status, Status::Unsat | Status::Unknown | Status::Sat);
    if enc.objective.is_none() || opts.first || enumerate {
        let limit = if opts.all { opts.limit } else { Some(1) };
        let mut err = None;
        let separate = |m: &Assignment, db: &mut Cnf| p.separate(&enc.map, m, db);
        let e = drive::enumerate_lazy(
            &mut session,
            &enc.primary,
            &assumptions,
            limit,
            separate,
            |m| match decode_checked(p, &enc, m) {
                Ok(s) => {
                    report.solutions.push(s);
                    true
                }
                Err(e) => {
                    err = Some(e);
                    false
                }
            },
        )?;
        if let Some(e) = err {
            return Err(e);
        }
        if opts.all {
            report.count = Some(e.count);
            report.status = if e.complete {
                Status::All
            } else {
                Status::Partial
            };
        } else if enc.objective.is_none() || opts.first {
            report.status = match (e.count, e.complete) {
                (0, true) => Status::Unsat,
                (0, false) => Status::Unknown,
                _ => Status::Sat,
            };
            if let (Some(obj), Some(s)) = (&enc.objective, report.solutions.first()) {
                report.objective = p.objective_of(s).or(Some(obj.offset));
            }
        }
    }
    report.solve_seconds = session.solve_time.as_secs_f64();
    report.sat_calls = session.solve_calls;
    report.stats = session.stats();
    Ok(report)
}

/// `--all` by symmetry classes: enumerates `reps` (every solution, by
/// blocking clauses) and expands the representatives into `p`'s classes and
/// solutions ([`drive::classes`]).
fn run_by_classes<P: Puzzle>(
    p: &P,
    reps: &P,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution>> {
    let plain = RunOptions {
        no_classes: true,
        ..opts.clone()
    };
    let mut r = run(reps, &plain, limits, progress)?;
    let e = drive::classes::expand(p, reps, std::mem::take(&mut r.solutions))?;
    r.puzzle = p.describe();
    r.count = Some(e.solutions.len() as u64);
    r.classes = Some(e.classes);
    r.solutions = e.solutions;
    Ok(r)
}

/// [`run`] without a time limit and without progress output: what tests,
/// benches and library users want when they only need the report.
pub fn run_quiet<P: Puzzle>(p: &P, opts: &RunOptions) -> anyhow::Result<Report<P::Solution>> {
    run(p, opts, Limits::default(), &mut std::io::sink())
}

/// Prints a report for people: each solution as a grid, then a summary line
/// that says exactly what is proven.
pub fn print_text<P: Puzzle>(
    p: &P,
    r: &Report<P::Solution>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "{}", r.puzzle)?;
    for s in &r.solutions {
        writeln!(out, "{}", p.render(s))?;
    }
    let summary = match (r.status, r.objective, r.bound, r.count) {
        (Status::Optimal, Some(v), _, _) => {
            format!("optimal: {v} (proven: no better solution, UNSAT)")
        }
        (Status::Sat, Some(v), Some(b), _) => {
            format!("best found: {v}, not proven optimal (proven bound {b})")
        }
        (Status::Sat, _, _, _) => "solution found (checked)".to_string(),
        (Status::Unsat, _, _, _) => "no solution exists (proven: UNSAT)".to_string(),
        (Status::Unknown, _, Some(b), _) => {
            format!("no solution found before the limit (proven bound {b})")
        }
        (Status::Unknown, _, _, _) => "no answer before the limit".to_string(),
        (Status::All, _, _, Some(n)) => match r.classes {
            Some(c) => format!(
                "exactly {n} {} in {c} symmetry classes (complete: final UNSAT on the classes' representatives)",
                p.counted_as()
            ),
            None => format!("exactly {n} {} (complete: final UNSAT)", p.counted_as()),
        },
        (Status::Partial, _, _, Some(n)) => {
            let classes = r.classes.map_or(String::new(), |c| format!(" in {c} symmetry classes"));
            format!(
                "at least {n} {}{classes} (enumeration stopped early)",
                p.counted_as()
            )
        }
        _ => format!("{:?}", r.status),
    };
    writeln!(out, "{summary}")?;
    writeln!(
        out,
        "c {} vars, {} clauses, {} literals; encode {:.3}s, solve {:.3}s, {} SAT calls ({})",
        r.vars, r.clauses, r.literals, r.encode_seconds, r.solve_seconds, r.sat_calls, r.solver
    )
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
        let terms: Vec<(rustsat::types::Lit, usize)> =
            obj.terms.iter().map(|&(l, w)| (l, w as usize)).collect();
        let s = b - obj.offset;
        match obj.sense {
            Sense::Maximize => {
                puzzlesat_encodings::pb::at_least(&mut cnf, &terms, s.max(0) as usize, pb)
            }
            Sense::Minimize if s < 0 => cnf.add(&[]),
            Sense::Minimize => puzzlesat_encodings::pb::at_most(&mut cnf, &terms, s as usize, pb),
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
