//! Optimising cube by cube: long optimisation proofs that survive
//! interruption, written once for every puzzle with an objective: the search is split into cubes
//! (cube-and-conquer, Heule, Kullmann, Wieringa and Biere, "Cube and
//! Conquer: Guiding CDCL SAT Solvers by Lookaheads", 2011, here with the
//! puzzle's own choice of splitting literals instead of a lookahead).
//!
//! - **Split.** `--cubes K` takes the first d = ⌈log₂ K⌉ literals the
//!   puzzle proposes ([`Puzzle::split_literals`], default its primary
//!   literals); cube i assumes literal j where bit j of i is set, its
//!   negation where it is not. The 2^d cubes cover every assignment, so the
//!   problem's optimum is the best of the cubes' optima.
//! - **Solve.** Each cube is optimised under its assumptions on a
//!   session ([`Search`]); `--jobs J` runs J threads, each with its own
//!   session (reused for its next cube: learnt clauses hold without the
//!   assumptions). The threads share the incumbent ([`Incumbent`]), so a
//!   cube only searches for values that beat the best one found anywhere.
//! - **Record.** Each improvement and each finished cube is appended to the
//!   cube file (`--cube-file`) as one JSON [`Report`] line with a
//!   [`CubeRecord`]: the cube's proven bound (no model of the cube is better),
//!   its best value with the model as a witness, the [`BUILD`] that wrote
//!   it, the CNF's digest and a [`fingerprint`] of all that. The line is
//!   written and flushed to disk before an improvement is offered to the
//!   other threads, so a bound never rests on a value the file could lose.
//! - **Resume.** A rerun with the same command reads the file, refuses
//!   lines of another problem (instance, options, formula size, split),
//!   lines that do not match their fingerprint, lines of another build or
//!   CNF (unless `--trust-cube-file`), witnesses outside their cube and
//!   bounds a witness of their cube beats; takes the best witness as its
//!   incumbent (decoded and checked, as any model) and skips every cube
//!   whose bound does not beat it.
//! - **Claim.** "optimal" only when every cube's bound is no better than
//!   the best value: each such bound rests on an UNSAT answer under that
//!   cube's assumptions, and the cubes cover every assignment. The report's
//!   [`CubeTally`] says which cubes this run closed and which rest on the
//!   file's records, and the summary never calls the latter proven.
//! - **Certify.** With `--certify`, each closed cube's bound is proved and
//!   checked on a formula derived from the CNF, the cube and the bound alone
//!   (`Shared::certify_cube`), so a resumed run derives it again from a
//!   record and proves the record again instead of trusting it; the cubes'
//!   cover is checked on the cubes as proved ([`check_cover`]).
//! - **Cluster.** `--cube I` solves cube I alone (no shared incumbent) and
//!   prints its report line (with its certificate under `--certify`): an
//!   experiment grid varying `cube` is emitted as jobs and collected as any
//!   other (`docs/experiments.md`); the jobs' outputs, concatenated, are a
//!   cube file that the full command reads.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

use super::file::{fingerprint, read_lines, witness_hex, witness_model, About, CubeFile, BUILD};
use super::split::Split;
use super::threads::{add_stats, certificate_failed, on_threads, thread_count, unless_stopped};
use super::CubeOptions;
use crate::certify::{check_cover, formula_digest, Certified, CertifyError, Claim};
use crate::drive::proof::{self, Part, Prepared, ProofPlan};
use crate::drive::{Incumbent, Objective, ObjectiveBound, Optimum, Search, Sense};
use crate::options::{Purpose, RunOptions};
use crate::puzzle::{decode_checked, Encoded, Puzzle};
use crate::report::{CubeRecord, CubeTally, Report, Status, StoppedBy};
use crate::solver::{Limits, Outcome, Session, SolverStats};

/// Better for a proof: `a` better than `b` in the objective's sense.
pub(super) fn better(sense: Sense, a: i64, b: i64) -> bool {
    match sense {
        Sense::Maximize => a > b,
        Sense::Minimize => a < b,
    }
}

/// The bound of a cube with no model (worse than every value).
fn no_model(obj: &Objective) -> i64 {
    match obj.sense {
        Sense::Maximize => obj.offset - 1,
        Sense::Minimize => obj.max_value() + 1,
    }
}

/// The bound known without search (the best value the terms allow).
fn trivial(obj: &Objective) -> i64 {
    match obj.sense {
        Sense::Maximize => obj.max_value(),
        Sense::Minimize => obj.offset,
    }
}

/// The tightest bound a cube file records for a cube, and who wrote it.
#[derive(Clone, Debug)]
struct Recorded {
    bound: i64,
    /// "BUILD, CNF digest"
    writer: String,
    /// of another build or CNF (taken under `--trust-cube-file`)
    foreign: bool,
    /// the line's certificate, when it was written with `--certify`
    certificate: Option<Certified>,
}

/// What a cube file holds: per cube the tightest bound, and the best witness.
struct Known {
    bounds: Vec<Option<Recorded>>,
    best: Option<(i64, u32, String)>,
    lines: usize,
}

impl Known {
    fn nothing(split: &Split) -> Self {
        Known {
            bounds: vec![None; split.cubes() as usize],
            best: None,
            lines: 0,
        }
    }
    /// The recorded bound of each cube.
    fn bound_values(&self) -> Vec<Option<i64>> {
        self.bounds
            .iter()
            .map(|r| r.as_ref().map(|r| r.bound))
            .collect()
    }
}

/// Reads the cube file (missing: nothing known), refusing lines of another
/// run, of another build or CNF (unless trusted), lines edited since they
/// were written ([`read_lines`]), witnesses outside their cube, and bounds
/// that a witness of their cube beats.
fn read_file(
    file: &CubeFile,
    about: &About,
    cnf: &Cnf,
    split: &Split,
    obj: &Objective,
) -> anyhow::Result<Known> {
    let sense = obj.sense;
    let mut known = Known::nothing(split);
    let lines = read_lines(file, about, |r, c| {
        let certificates = r.certificates.as_deref().unwrap_or_default();
        let cube = split.cube(c.index);
        Ok(fingerprint(
            about.describe,
            c,
            &cube,
            (r.objective, r.bound),
            certificates,
        ))
    })?;
    // per cube: its best witness value, and the line it is on
    let mut values: Vec<Option<(i64, usize)>> = vec![None; split.cubes() as usize];
    let mut bound_lines = vec![0usize; split.cubes() as usize];
    for line in lines {
        let at = || line.at(file);
        let (r, c) = (&line.report, line.cube());
        let cube = split.cube(c.index);
        known.lines += 1;
        if let Some(b) = r.bound {
            let slot = &mut known.bounds[c.index as usize];
            if slot.as_ref().is_none_or(|s| better(sense, s.bound, b)) {
                *slot = Some(Recorded {
                    bound: b,
                    writer: line.writer.clone(),
                    foreign: line.foreign,
                    certificate: r.certificates.iter().flatten().next().cloned(),
                });
                bound_lines[c.index as usize] = line.number;
            }
        }
        if let (Some(v), Some(w)) = (r.objective, &c.witness) {
            // a witness is a model of its cube with its value
            let model = witness_model(w, cnf.n_vars())
                .with_context(|| format!("{}: the witness of cube {}", at(), c.index))?;
            if !cube.iter().all(|&l| model.lit(l)) {
                bail!(
                    "{}: the witness of cube {} is not in that cube",
                    at(),
                    c.index
                );
            }
            if obj.value(&model) != v {
                bail!(
                    "{}: the witness of cube {} has value {}, not the objective {v} of its line",
                    at(),
                    c.index,
                    obj.value(&model)
                );
            }
            let slot = &mut values[c.index as usize];
            if slot.is_none_or(|(b, _)| better(sense, v, b)) {
                *slot = Some((v, line.number));
            }
            if known
                .best
                .as_ref()
                .is_none_or(|(b, _, _)| better(sense, v, *b))
            {
                known.best = Some((v, c.index, w.clone()));
            }
        }
    }
    // no witness of a cube may beat a bound recorded for that cube
    for (i, (r, v)) in known.bounds.iter().zip(&values).enumerate() {
        if let (Some(r), Some((v, line))) = (r, v) {
            if better(sense, *v, r.bound) {
                bail!(
                    "{}: line {} records that no model of cube {i} is better than {}, but line {line} holds a witness of value {v} in that cube: the records contradict each other",
                    file.path().display(),
                    bound_lines[i],
                    r.bound
                );
            }
        }
    }
    Ok(known)
}

/// A cube for a thread to take.
#[derive(Clone, Copy, Debug)]
enum Job {
    /// optimise the cube
    Solve(u32),
    /// `--certify` on a resumed run: prove again the bound the file records
    /// for the cube
    Recheck(u32, i64),
}

/// What every thread shares.
struct Shared<'a, P: Puzzle> {
    p: &'a P,
    /// with `--certify`: how each cube's bound is proved
    proof: &'a ProofPlan,
    enc: &'a Encoded<P::Map>,
    obj: &'a Objective,
    cnf: &'a Cnf,
    /// [`formula_digest`] of `cnf`
    digest: &'a str,
    split: &'a Split,
    opts: &'a RunOptions,
    limits: &'a Limits,
    solver: String,
    incumbent: Incumbent,
    /// the best model and its value
    best: Mutex<Option<(i64, Assignment)>>,
    file: CubeFile,
    /// the bound the file records for each cube: a model found now that
    /// beats it proves the record wrong
    recorded: Vec<Option<i64>>,
    /// the certificate each of those records carries, if any
    recorded_certificates: Vec<Option<Certified>>,
    queue: Mutex<VecDeque<Job>>,
    /// set on a thread's error: the others stop after their cube
    failed: AtomicBool,
    /// set when the limits stopped a cube's certificate
    certificate_stopped: AtomicBool,
}

/// A thread's totals.
#[derive(Default)]
struct Totals {
    load: f64,
    solve: Duration,
    bounds: f64,
    separate: Duration,
    decode_check: Duration,
    certify: Duration,
    sat_calls: u32,
    sat_answers: u32,
    lazy: u64,
    stats: Option<SolverStats>,
    /// per cube solved: (index, bound, closed)
    done: Vec<(u32, i64, bool)>,
    /// cubes whose recorded bound was proven again (`Job::Recheck`)
    rechecked: Vec<u32>,
    /// with `--certify`: the cubes whose bounds were proven (their
    /// literals, as written into the proved formulas) and the certificates
    proved: Vec<(u32, Vec<Lit>, Option<Certified>)>,
}

impl<P: Puzzle> Shared<'_, P> {
    /// A cube's report line (no solution drawn: the witness is the model).
    fn line(
        &self,
        index: u32,
        best: Option<(&Assignment, i64)>,
        bound: Option<i64>,
        closed: bool,
    ) -> anyhow::Result<Report<P::Solution, P::Details>> {
        let mut r = Report::new(self.p.describe(), self.solver.clone(), self.p.counted_as());
        let c = self.cnf.counts();
        (r.vars, r.clauses, r.literals) = (c.vars, c.clauses, c.literals);
        r.seed = self.opts.seed;
        r.objective = best.map(|(_, v)| v);
        r.bound = bound;
        if let Some((model, _)) = best {
            r.solutions.push(decode_checked(self.p, self.enc, model)?);
        }
        // proven: the bound meets the best, or says there is no model
        let proved = bound == Some(best.map_or(no_model(self.obj), |(_, v)| v));
        r.status = Status::of_optimum(best.is_some(), proved);
        if bound.is_some() && !closed {
            r.stopped_by = Some(StoppedBy::of_limits(self.limits));
        }
        let record = CubeRecord {
            index,
            cubes: self.split.cubes(),
            literals: self.split.dimacs(),
            incumbent: self.incumbent.get(),
            closed,
            witness: best.map(|(m, _)| witness_hex(m, self.cnf.n_vars())),
            build: BUILD.to_string(),
            cnf: self.digest.to_string(),
            fingerprint: String::new(),
        };
        r.cube = Some(record);
        Ok(r)
    }

    /// Seals a line: its fingerprint, once everything it says is in it.
    fn seal(&self, r: &mut Report<P::Solution, P::Details>, index: u32) {
        let fp = r.cube.as_ref().map(|c| {
            fingerprint(
                &r.puzzle,
                c,
                &self.split.cube(index),
                (r.objective, r.bound),
                r.certificates.as_deref().unwrap_or_default(),
            )
        });
        if let (Some(c), Some(fp)) = (&mut r.cube, fp) {
            c.fingerprint = fp;
        }
    }

    /// With `--certify`: proves that no model of cube `index` is better
    /// than `bound`. The decision formula is derived from the CNF alone:
    /// the CNF, a fresh encoding of "at least as good as the value past
    /// `bound`" with its assumptions as unit clauses, and the cube's
    /// literals as unit clauses (for a cube with no model, the CNF and the
    /// cube), so a resumed run derives the same formula from a record. If
    /// the puzzle adds constraints lazily and the proof solver finds that
    /// formula satisfiable, its models are separated by the puzzle's
    /// constraints until it is not. Returns the cube's literals and the
    /// certificate (None: the bound is past the objective's range, no
    /// UNSAT answer needed).
    fn certify_cube(
        &self,
        index: u32,
        bound: i64,
    ) -> anyhow::Result<Option<(Vec<Lit>, Option<Certified>)>> {
        if self.opts.certify.is_none() {
            return Ok(None);
        }
        let cube = self.split.cube(index);
        let mut f = self.cnf.clone();
        let past = match self.obj.sense {
            Sense::Maximize => bound + 1,
            Sense::Minimize => bound - 1,
        };
        let (claim, lits) = if bound == no_model(self.obj) {
            (Claim::Infeasible, Some(vec![]))
        } else {
            let mut enc = self.obj.bound_encoding(self.opts.objective_encoding);
            (Claim::Optimal, enc.at_least_as_good(&mut f, past))
        };
        let Some(lits) = lits else {
            return Ok(Some((cube, None)));
        };
        let recorded = f.len();
        for &l in lits.iter().chain(&cube) {
            f.add(&[l]);
        }
        let digest = formula_digest(&f);
        let what = || format!("the bound {bound} of cube {index} could not be certified");
        let past = (claim == Claim::Optimal).then_some(past);
        // the definitions log of the lazily added constraints, if any
        let log;
        let part = |recorded, provenance| Part::CubeBound {
            index,
            cube: &cube,
            objective: self.obj,
            past,
            recorded,
            provenance,
        };
        let (plan, opts, limits) = (self.proof, self.opts, self.limits);
        let mut attempt = plan.veripb(claim, &part(recorded, None), &f, opts, limits);
        if let Err(CertifyError::Satisfiable { .. }) = attempt {
            // the puzzle adds constraints lazily: the formula with those
            // its models violate, derived in the proof like the CNF's
            // clauses (so they go before the unit clauses)
            let lazy;
            (lazy, log) = self.with_lazy_constraints(f.clone(), index, bound)?;
            let units = f.len() - recorded;
            let mut g = Cnf::new();
            for c in lazy.clauses().take(recorded) {
                g.add(c);
            }
            for c in lazy.clauses().skip(recorded + units) {
                g.add(c);
            }
            for c in lazy.clauses().skip(recorded).take(units) {
                g.add(c);
            }
            let recorded = g.len() - units;
            attempt = plan.veripb(claim, &part(recorded, log.as_ref()), &g, opts, limits);
        }
        let certified = match attempt {
            Ok(Ok(c)) => c,
            Ok(Err(why)) => {
                let part = part(recorded, None);
                match proof::drat(claim, &part, &f, opts, why.clone(), limits) {
                    Err(CertifyError::Satisfiable { .. }) => {
                        let (f, _) = self.with_lazy_constraints(f, index, bound)?;
                        proof::drat(claim, &part, &f, opts, why, limits)
                    }
                    other => other,
                }
                .map_err(|e| certificate_failed(e, what))?
            }
            Err(e) => return Err(certificate_failed(e, what)),
        };
        // the formula as derived from the record, before any lazy constraint
        let certified = Certified {
            formula_digest: digest,
            ..certified
        };
        Ok(Some((cube, Some(certified))))
    }

    /// `f` with the puzzle's lazily added constraints that its models
    /// violate, until it has no model; an error if a model violates none
    /// (the bound being certified is wrong).
    /// Returns it with the session's definitions log (when `f` keeps one).
    fn with_lazy_constraints(
        &self,
        f: Cnf,
        index: u32,
        bound: i64,
    ) -> anyhow::Result<(Cnf, Option<puzzlesat_encodings::provenance::Provenance>)> {
        let mut s = self
            .opts
            .open(Cow::Owned(f), self.limits.clone(), Purpose::Proof)?;
        loop {
            match s.solve(&[])? {
                Outcome::Unsat => {
                    return Ok((
                        s.unsat_formula().expect("recorded"),
                        s.provenance_log().cloned(),
                    ))
                }
                Outcome::Sat => {
                    let m = s.model()?;
                    if !self.p.separate(&self.enc.map, &m, &mut s) {
                        bail!(
                            "the bound {bound} of cube {index} is wrong: the cube has a model of value {}",
                            self.obj.value(&m)
                        );
                    }
                }
                Outcome::Unknown => {
                    bail!("the bound {bound} of cube {index} could not be certified: stopped by the time limit or an interrupt")
                }
            }
        }
    }

    /// A thread: its own session, cubes from the queue until none is left.
    fn work(&self, progress: &mpsc::Sender<String>) -> anyhow::Result<Totals> {
        let mut t = Totals::default();
        let started = Instant::now();
        let mut session = self.opts.open(
            Cow::Borrowed(self.cnf),
            self.limits.clone(),
            Purpose::Search,
        )?;
        t.load = started.elapsed().as_secs_f64();
        let mut bound_encoding = self.obj.bound_encoding(self.opts.objective_encoding);
        loop {
            if self.limits.expired() || self.failed.load(Ordering::Relaxed) {
                break;
            }
            let Some(job) = self.queue.lock().expect("queue lock").pop_front() else {
                break;
            };
            match job {
                Job::Solve(index) => {
                    self.solve_cube(index, &mut session, &mut bound_encoding, &mut t, progress)?
                }
                Job::Recheck(index, bound) => {
                    if !self.recheck(index, bound, &mut t, progress)? {
                        break;
                    }
                }
            }
        }
        t.solve = session.solve_time;
        t.sat_calls = session.solve_calls;
        t.sat_answers = session.sat_answers;
        t.stats = Some(session.stats());
        Ok(t)
    }

    /// The progress line of cube `index`'s certificate.
    fn certificate_line(
        &self,
        progress: &mpsc::Sender<String>,
        index: u32,
        c: &Option<Certified>,
        what: &str,
    ) {
        let _ = progress.send(format!(
            "c cube {index}/{}: {what}{}",
            self.split.cubes(),
            c.as_ref()
                .map_or("no UNSAT answer to certify".to_string(), |c| c.to_string())
        ));
    }

    /// Proves the cube file's record of cube `index` (its `bound`) again;
    /// false when the limits stopped the proof (the thread ends).
    fn recheck(
        &self,
        index: u32,
        bound: i64,
        t: &mut Totals,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<bool> {
        let t0 = Instant::now();
        let Some(proved) =
            unless_stopped(self.certify_cube(index, bound), &self.certificate_stopped)?
        else {
            return Ok(false);
        };
        t.certify += t0.elapsed();
        if let Some((cube, c)) = proved {
            // a record certified when written names the formula
            // it proved: the one its cube and bound give now
            let written = self.recorded_certificates[index as usize].as_ref();
            if let (Some(w), Some(now)) = (written, &c) {
                if w.formula_digest != now.formula_digest {
                    bail!(
                        "the record of cube {index} carries the certificate of formula {}, but its cube and bound {bound} give formula {}: the record is not about this problem",
                        w.formula_digest,
                        now.formula_digest
                    );
                }
            }
            self.certificate_line(progress, index, &c, "the file's record proven again: ");
            t.proved.push((index, cube, c));
        }
        t.rechecked.push(index);
        Ok(true)
    }

    /// Optimises cube `index` on `session`, certifies its bound when the
    /// cube is closed, and appends its report line to the cube file.
    fn solve_cube(
        &self,
        index: u32,
        session: &mut Session,
        bound_encoding: &mut ObjectiveBound,
        t: &mut Totals,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<()> {
        let cube_started = Instant::now();
        let solve_before = session.solve_time;
        let (opt, work) = self.search_cube(index, session, bound_encoding, progress)?;
        t.separate += work.separate;
        t.decode_check += work.decode_check;
        t.lazy += work.lazy;
        t.bounds += opt.bound_seconds;
        let threshold = self.incumbent.get().unwrap_or(no_model(self.obj));
        let closed = opt.proven && !better(self.obj.sense, opt.bound, threshold);
        let t0 = Instant::now();
        // closed by its UNSAT answer; a certificate the limits stop
        // leaves it uncertified (the run then ends)
        let proved = match closed {
            true => unless_stopped(
                self.certify_cube(index, opt.bound),
                &self.certificate_stopped,
            )?
            .flatten(),
            false => None,
        };
        let certify_time = t0.elapsed();
        t.certify += certify_time;
        let t0 = Instant::now();
        let mut r = self.line(
            index,
            opt.best.as_ref().map(|(m, v)| (m, *v)),
            Some(opt.bound),
            closed,
        )?;
        // this cube's share of the session: its calls and solving time
        r.sat_calls = opt.sat_calls;
        r.lazy_constraints = work.lazy;
        r.seconds.bounds = opt.bound_seconds;
        r.seconds.solve = (session.solve_time - solve_before).as_secs_f64();
        r.seconds.separate = work.separate.as_secs_f64();
        if self.opts.certify.is_some() {
            r.certificates = Some(proved.iter().flat_map(|(_, c)| c.iter().cloned()).collect());
            r.seconds.certify = certify_time.as_secs_f64();
        }
        r.seconds.close(cube_started.elapsed().as_secs_f64());
        self.seal(&mut r, index);
        self.file.append(&r)?;
        t.decode_check += t0.elapsed();
        t.done.push((index, opt.bound, closed));
        let _ = progress.send(format!(
            "c cube {index}/{}: {}{}, bound {} ({:.2}s)",
            self.split.cubes(),
            if closed { "closed" } else { "open" },
            opt.best
                .as_ref()
                .map_or(String::new(), |(_, v)| format!(", best {v}")),
            opt.bound,
            cube_started.elapsed().as_secs_f64()
        ));
        if let Some((cube, c)) = proved {
            self.certificate_line(progress, index, &c, "");
            t.proved.push((index, cube, c));
        }
        Ok(())
    }

    /// The search of cube `index` under its assumptions, with the shared
    /// incumbent; each improvement recorded ([`Shared::improved`]).
    fn search_cube(
        &self,
        index: u32,
        session: &mut Session,
        bound_encoding: &mut ObjectiveBound,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<(Optimum, CubeWork)> {
        let cube = self.split.cube(index);
        let search = Search {
            obj: self.obj,
            strategy: self.opts.strategy,
            cube: &cube,
            incumbent: &self.incumbent,
        };
        let mut err = None;
        let (mut separate, mut decode_check, mut lazy) = (Duration::ZERO, Duration::ZERO, 0);
        let opt = search.run(
            session,
            bound_encoding,
            |m, s| {
                let t0 = Instant::now();
                let rejected = self.p.separate(&self.enc.map, m, s);
                separate += t0.elapsed();
                lazy += u64::from(rejected);
                rejected
            },
            |m, v, _| {
                if err.is_none() {
                    if let Err(e) = self.improved(index, m, v, &mut decode_check, progress) {
                        err = Some(e);
                    }
                }
            },
        )?;
        let work = CubeWork {
            separate,
            decode_check,
            lazy,
        };
        match err {
            Some(e) => Err(e),
            None => Ok((opt, work)),
        }
    }

    /// An improvement `v` (model `m`) in cube `index`: refused if the cube
    /// file records that none is better, else written to the file (durable
    /// before the other threads rely on it) and offered as the best.
    fn improved(
        &self,
        index: u32,
        m: &Assignment,
        v: i64,
        decode_check: &mut Duration,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<()> {
        let sense = self.obj.sense;
        if let Some(b) = self.recorded[index as usize] {
            if better(sense, v, b) {
                bail!(
                    "cube {index} has a model of value {v}, found now, but the cube file records that none is better than {b}: the record is wrong"
                );
            }
        }
        let t0 = Instant::now();
        // durable before the other threads rely on it
        let written = self
            .line(index, Some((m, v)), None, false)
            .and_then(|mut r| {
                self.seal(&mut r, index);
                self.file.append(&r)
            });
        *decode_check += t0.elapsed();
        written?;
        let mut best = self.best.lock().expect("best lock");
        if best.as_ref().is_none_or(|(b, _)| better(sense, v, *b)) {
            *best = Some((v, m.clone()));
            let _ = progress.send(format!(
                "c improved: objective {v} in cube {index} after {:.2}s",
                crate::report::process_start().elapsed().as_secs_f64()
            ));
        }
        Ok(())
    }
}

/// A cube search's share of the puzzle's hooks: the time separating
/// (checking lazy constraints) and recording, and the lazy constraints
/// added.
struct CubeWork {
    separate: Duration,
    decode_check: Duration,
    lazy: u64,
}

/// Refuses what `--cubes` does not split: no objective, a scored one,
/// `--all`, `--first`.
fn check_supported<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    enc: &Encoded<P::Map>,
) -> anyhow::Result<()> {
    let what = if opts.all {
        Some("--all")
    } else if opts.first {
        Some("a first-solution run")
    } else if enc.scored.is_some() {
        Some("an objective scored from each solution (not one in the CNF)")
    } else if enc.objective.is_none() {
        Some("a puzzle without an objective")
    } else {
        None
    };
    let count = if enc.objective.is_none() && enc.scored.is_none() {
        ": --count --cubes K counts its solutions cube by cube"
    } else {
        ""
    };
    match what {
        Some(w) => bail!(
            "--cubes splits an optimisation over its CNF objective; {} has {w}{count}",
            p.describe()
        ),
        None => Ok(()),
    }
}

/// Optimises `p` cube by cube (module docs) and returns the report of the
/// whole problem, or with [`CubeOptions::only`] the report of that cube.
pub fn optimise_cubes<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    cubes: &CubeOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    let started = Instant::now();
    // the split's literals' definitions are part of the CNF the proofs derive
    let (
        Prepared {
            cnf,
            enc,
            encode_seconds,
            plan,
        },
        split,
    ) = proof::prepare(p, opts, |cnf, enc| {
        check_supported(p, opts, enc)?;
        Split::new(&p.split_literals(&enc.map, &enc.primary, cnf), cubes.count)
    })?;
    let obj = enc.objective.as_ref().expect("checked: an objective");
    let t = Instant::now();
    let digest = formula_digest(&cnf);
    let digest_seconds = t.elapsed().as_secs_f64();
    let (file, known) = open_cube_file(&p.describe(), &cnf, &digest, &split, obj, cubes)?;
    let shared = Shared {
        p,
        proof: &plan,
        enc: &enc,
        obj,
        cnf: &cnf,
        digest: &digest,
        split: &split,
        opts,
        limits: &limits,
        solver: Session::empty(&opts.solver)
            .map(|s| s.solver_name())
            .unwrap_or_else(|_| opts.solver.to_string()),
        incumbent: Incumbent::new(obj.sense),
        best: Mutex::new(None),
        file,
        recorded: known.bound_values(),
        recorded_certificates: known
            .bounds
            .iter()
            .map(|r| r.as_ref().and_then(|r| r.certificate.clone()))
            .collect(),
        queue: Mutex::new(VecDeque::new()),
        failed: AtomicBool::new(false),
        certificate_stopped: AtomicBool::new(false),
    };
    let t = Instant::now();
    shared.take_file_witness(&known, cubes)?;
    let read_seconds = t.elapsed().as_secs_f64() + digest_seconds;
    let (jobs, rechecks) = shared.jobs(&known, cubes);
    let todo = jobs.len() - rechecks;
    let skipped = split.cubes() as usize - todo;
    let threads = thread_count(cubes.jobs, jobs.len(), progress)?;
    if cubes.only.is_none() {
        writeln!(
            progress,
            "c cubes: {} on {} splitting literals; {} closed in {} ({} lines){}, {} to solve on {} thread(s)",
            split.cubes(),
            split.literals.len(),
            skipped,
            cubes.file.as_deref().map_or("no file".into(), |p| p.display().to_string()),
            known.lines,
            match rechecks {
                0 => String::new(),
                k => format!(", {k} of them to prove again (--certify)"),
            },
            todo,
            threads
        )?;
    }
    let mut totals = shared.solve_on_threads(jobs, threads, progress)?;
    let mut report = shared.summed_report(&totals);
    report.seconds.encode = encode_seconds;
    report.seconds.decode_check += read_seconds;
    let bounds = known.bounds_with(&totals, obj.sense);
    // with --certify: every proven cube's certificate, in cube order
    let mut proved: Vec<(u32, Vec<Lit>, Option<Certified>)> =
        totals.iter_mut().flat_map(|t| t.proved.drain(..)).collect();
    proved.sort_by_key(|(i, _, _)| *i);
    if opts.certify.is_some() {
        report.certificates = Some(proved.iter().flat_map(|(_, _, c)| c.clone()).collect());
    }
    let best = shared.best.lock().expect("best lock").take();
    match cubes.only {
        Some(i) => shared.cube_claim(&mut report, i, &totals, best)?,
        None => {
            let closed = Closed {
                known: &known,
                totals: &totals,
                bounds: &bounds,
                skipped,
            };
            shared.whole_claim(&mut report, closed, cubes, best, proved, progress)?
        }
    }
    if shared.certificate_stopped.load(Ordering::Relaxed) {
        report.certificate_stopped = Some(StoppedBy::of_limits(&limits));
    }
    let t = Instant::now();
    p.details(&enc.map, &mut report)?;
    report.seconds.decode_check += t.elapsed().as_secs_f64();
    report.seconds.close(started.elapsed().as_secs_f64());
    Ok(report)
}

/// Opens the cube file and reads what it knows (nothing without a file,
/// and for a cluster job, [`CubeOptions::only`], which checks the file
/// but searches its cube on its own); refuses a `--cube` outside the
/// split.
fn open_cube_file(
    describe: &str,
    cnf: &Cnf,
    digest: &str,
    split: &Split,
    obj: &Objective,
    cubes: &CubeOptions,
) -> anyhow::Result<(CubeFile, Known)> {
    let file = CubeFile::open(cubes.file.as_deref())?;
    let mut known = match &cubes.file {
        Some(_) => {
            let fact = "its bounds are facts about that build's formula, not this one's";
            let about = About::cnf(describe, cnf, digest, split, cubes.trust, fact);
            read_file(&file, &about, cnf, split, obj)?
        }
        None => Known::nothing(split),
    };
    if let Some(i) = cubes.only {
        known = Known::nothing(split);
        if i >= split.cubes() {
            bail!(
                "--cube {i}: this split has cubes 0 to {}",
                split.cubes() - 1
            );
        }
    }
    Ok((file, known))
}

/// What the whole problem's claim sums: the file's records, this run's
/// cubes, each cube's best bound, and how many cubes the file closed.
struct Closed<'a> {
    known: &'a Known,
    totals: &'a [Totals],
    bounds: &'a [Option<i64>],
    skipped: usize,
}

impl Known {
    /// Each cube's bound: the file's, or this run's where it is better.
    fn bounds_with(&self, totals: &[Totals], sense: Sense) -> Vec<Option<i64>> {
        let mut bounds = self.bound_values();
        for &(i, b, _) in totals.iter().flat_map(|t| &t.done) {
            let slot = &mut bounds[i as usize];
            if slot.is_none_or(|s| better(sense, s, b)) {
                *slot = Some(b);
            }
        }
        bounds
    }
}

impl<P: Puzzle> Shared<'_, P> {
    /// Takes the file's best witness, decoded and checked as any model, as
    /// the incumbent.
    fn take_file_witness(&self, known: &Known, cubes: &CubeOptions) -> anyhow::Result<()> {
        let Some((v, index, hex)) = &known.best else {
            return Ok(());
        };
        let path = cubes.file.as_deref().unwrap_or(Path::new("")).display();
        let model = witness_model(hex, self.cnf.n_vars())
            .with_context(|| format!("{path}: the witness of cube {index}"))?;
        if !model.satisfies(self.cnf.clauses()) || self.obj.value(&model) != *v {
            bail!(
                "{path}: the witness of cube {index} is not a model of value {v} of this formula"
            );
        }
        decode_checked(self.p, self.enc, &model)
            .with_context(|| format!("{path}: the witness of cube {index}"))?;
        self.incumbent.offer(*v);
        *self.best.lock().expect("best lock") = Some((*v, model));
        Ok(())
    }

    /// The jobs: every cube the file does not close (with `--certify`, a
    /// record that closes its cube is proven again, not trusted), or the
    /// cluster job's one cube; and how many are such rechecks.
    fn jobs(&self, known: &Known, cubes: &CubeOptions) -> (Vec<Job>, usize) {
        if let Some(i) = cubes.only {
            return (vec![Job::Solve(i)], 0);
        }
        let threshold = self.incumbent.get().unwrap_or(no_model(self.obj));
        let closes = |b: i64| !better(self.obj.sense, b, threshold);
        let mut jobs: Vec<Job> = vec![];
        let mut rechecks = 0;
        for (i, r) in known.bounds.iter().enumerate() {
            match r {
                Some(r) if closes(r.bound) && self.opts.certify.is_some() => {
                    rechecks += 1;
                    jobs.push(Job::Recheck(i as u32, r.bound));
                }
                Some(r) if closes(r.bound) => {}
                _ => jobs.push(Job::Solve(i as u32)),
            }
        }
        (jobs, rechecks)
    }

    /// Runs `jobs` on `threads` threads; a thread's error stops the others
    /// after their cube.
    fn solve_on_threads(
        &self,
        jobs: Vec<Job>,
        threads: usize,
        progress: &mut dyn Write,
    ) -> anyhow::Result<Vec<Totals>> {
        self.queue.lock().expect("queue lock").extend(jobs);
        let results: Vec<anyhow::Result<Totals>> = on_threads(threads, progress, |tx| {
            let r = self.work(tx);
            if r.is_err() {
                self.failed.store(true, Ordering::Relaxed);
            }
            r
        });
        results.into_iter().collect()
    }

    /// The report with the formula's size and the threads' times, calls
    /// and statistics summed.
    fn summed_report(&self, totals: &[Totals]) -> Report<P::Solution, P::Details> {
        let mut report: Report<P::Solution, P::Details> =
            Report::new(self.p.describe(), String::new(), self.p.counted_as());
        let counts = self.cnf.counts();
        (report.vars, report.clauses, report.literals) =
            (counts.vars, counts.clauses, counts.literals);
        report.seed = self.opts.seed;
        report.solver = self.solver.clone();
        let mut stats = SolverStats::default();
        for t in totals {
            report.seconds.load += t.load;
            report.seconds.solve += t.solve.as_secs_f64();
            report.seconds.bounds += t.bounds;
            report.seconds.separate += t.separate.as_secs_f64();
            report.seconds.decode_check += t.decode_check.as_secs_f64();
            report.seconds.certify += t.certify.as_secs_f64();
            report.sat_calls += t.sat_calls;
            report.sat_answers += t.sat_answers;
            report.lazy_constraints += t.lazy;
            if let Some(s) = t.stats {
                add_stats(&mut stats, s);
            }
        }
        report.stats = stats;
        report
    }

    /// A cluster job's claim: cube `i`'s own line, as written to the file.
    fn cube_claim(
        &self,
        report: &mut Report<P::Solution, P::Details>,
        i: u32,
        totals: &[Totals],
        best: Option<(i64, Assignment)>,
    ) -> anyhow::Result<()> {
        let t = totals
            .iter()
            .flat_map(|t| &t.done)
            .find(|d| d.0 == i)
            .copied();
        let mut line = self.line(
            i,
            best.as_ref().map(|(v, m)| (m, *v)),
            t.map(|(_, b, _)| b),
            t.is_some_and(|(_, _, closed)| closed),
        )?;
        line.certificates = report.certificates.clone();
        self.seal(&mut line, i);
        report.status = line.status;
        report.objective = line.objective;
        report.bound = line.bound;
        report.solutions = line.solutions;
        report.cube = line.cube;
        report.stopped_by = line.stopped_by;
        if t.is_none() {
            report.stopped_by = Some(StoppedBy::of_limits(self.limits));
        }
        Ok(())
    }

    /// The whole problem's claim: optimal when every cube's bound is no
    /// better than the best value; with `--certify`, the cubes not proved
    /// yet are proved now and their cover is checked.
    fn whole_claim(
        &self,
        report: &mut Report<P::Solution, P::Details>,
        closed: Closed,
        cubes: &CubeOptions,
        best: Option<(i64, Assignment)>,
        mut proved: Vec<(u32, Vec<Lit>, Option<Certified>)>,
        progress: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let (obj, bounds) = (self.obj, closed.bounds);
        let threshold = best.as_ref().map_or(no_model(obj), |(v, _)| *v);
        let closes = |b: &Option<i64>| b.is_some_and(|b| !better(obj.sense, b, threshold));
        let all_closed = bounds.iter().all(closes);
        // the problem's bound: the loosest of the cubes'
        let overall = bounds
            .iter()
            .map(|b| b.unwrap_or(trivial(obj)))
            .reduce(|a, b| if better(obj.sense, b, a) { b } else { a })
            .unwrap_or(trivial(obj));
        report.objective = best.as_ref().map(|(v, _)| *v);
        report.bound = Some(if all_closed { threshold } else { overall });
        report.status = Status::of_optimum(best.is_some(), all_closed);
        if !all_closed {
            report.stopped_by = Some(StoppedBy::of_limits(self.limits));
        }
        if let Some((_, model)) = &best {
            let t = Instant::now();
            report
                .solutions
                .push(decode_checked(self.p, self.enc, model)?);
            report.seconds.decode_check += t.elapsed().as_secs_f64();
        }
        let tally = tally(self.split, closed.known, closed.totals, cubes, |b| {
            closes(&Some(b))
        });
        writeln!(
            progress,
            "c cubes: {} closed now, {} skipped (closed in the file: {} taken as written, {} proven again); {} of {} closed",
            tally.closed_now,
            closed.skipped,
            tally.from_file,
            tally.rechecked,
            bounds.iter().filter(|b| closes(b)).count(),
            self.split.cubes()
        )?;
        report.cubes = Some(tally);
        let stopped = &self.certificate_stopped;
        if self.opts.certify.is_some() && all_closed && !stopped.load(Ordering::Relaxed) {
            self.certify_the_rest(report, bounds, &mut proved)?;
        }
        Ok(())
    }

    /// Proves each cube whose bound closes it only against the final
    /// incumbent (found by another thread after the cube ended), then, with
    /// every cube's bound proven in this run, checks that the cubes cover
    /// every assignment.
    fn certify_the_rest(
        &self,
        report: &mut Report<P::Solution, P::Details>,
        bounds: &[Option<i64>],
        proved: &mut Vec<(u32, Vec<Lit>, Option<Certified>)>,
    ) -> anyhow::Result<()> {
        let stopped = &self.certificate_stopped;
        let t = Instant::now();
        for (i, b) in bounds.iter().enumerate() {
            let i = i as u32;
            if let (Some(b), false) = (b, proved.iter().any(|(j, _, _)| *j == i)) {
                match unless_stopped(self.certify_cube(i, *b), stopped)? {
                    Some(Some((cube, c))) => proved.push((i, cube, c)),
                    Some(None) => {}
                    None => break,
                }
            }
        }
        proved.sort_by_key(|(i, _, _)| *i);
        report.certificates = Some(proved.iter().flat_map(|(_, _, c)| c.clone()).collect());
        report.seconds.certify += t.elapsed().as_secs_f64();
        if !stopped.load(Ordering::Relaxed) {
            let cubes: Vec<Vec<Lit>> = proved.iter().map(|(_, c, _)| c.clone()).collect();
            let cover = check_cover(&cubes).map_err(|e| {
                anyhow::anyhow!("the cubes' certificates do not cover the problem: {e}")
            })?;
            if let Some(t) = &mut report.cubes {
                t.cover = Some(cover.to_string());
            }
        }
        Ok(())
    }
}

/// What the claim rests on, cube by cube: this run's answers (a cube it
/// solved and closed, a record it proved again) or the file's records.
fn tally(
    split: &Split,
    known: &Known,
    totals: &[Totals],
    cubes: &CubeOptions,
    closes: impl Fn(i64) -> bool,
) -> CubeTally {
    let mut t = CubeTally {
        cubes: split.cubes(),
        file: cubes.file.as_ref().map(|p| p.display().to_string()),
        ..CubeTally::default()
    };
    let mut writers = std::collections::BTreeSet::new();
    for i in 0..split.cubes() {
        let now = totals
            .iter()
            .flat_map(|t| &t.done)
            .any(|&(j, b, _)| j == i && closes(b));
        if now {
            t.closed_now += 1;
        } else if totals.iter().any(|t| t.rechecked.contains(&i)) {
            t.rechecked += 1;
        } else if let Some(r) = known.bounds[i as usize]
            .as_ref()
            .filter(|r| closes(r.bound))
        {
            t.from_file += 1;
            t.trusted |= r.foreign;
            t.certified_in_file += u32::from(r.certificate.is_some());
            writers.insert(r.writer.clone());
        }
    }
    t.written_by = writers.into_iter().collect();
    t
}
