//! Counting cube by cube: `--count --cubes K [--jobs J] [--cube-file F]`
//! (and `--all`). The same split as the optimisation cubes (the first d
//! literals of [`Puzzle::split_literals`], 2^d cubes covering every
//! assignment), each cube's solutions enumerated under its literals as
//! assumptions (the enumeration engine treats them as closed levels) and
//! counted as they are found — by symmetry classes where the puzzle counts
//! so ([`crate::drive::classes::Tally`]), the split then being one of the
//! representatives' literals, so that every representative lies in exactly
//! one cube.
//!
//! - **Record.** A cube whose enumeration ends on UNSAT is appended to the
//!   cube file as one JSON [`Report`] line: its `count` and `classes`, the
//!   [`CubeRecord`] with the [`BUILD`], the CNF's digest and a fingerprint
//!   of all that ([`count_fingerprint`]). A cube stopped by the time limit
//!   or an interrupt writes nothing: it is counted again by the rerun.
//! - **Resume.** A rerun reads the file, refuses lines of another run, lines
//!   that do not match their fingerprint, lines of another build or CNF
//!   (unless `--trust-cube-file`) and two records of one cube that differ;
//!   it counts only the cubes the file does not hold.
//! - **Claim.** "exactly N" only when every cube has ended on UNSAT (in this
//!   run or in a record); the summary says how many cubes rest on records
//!   and which builds wrote them.
//! - **Cluster.** `--cube I` counts cube I alone and prints its record (with
//!   no count if it was stopped, which a reader skips): the jobs' outputs,
//!   concatenated, are a cube file the full command sums.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use anyhow::bail;
use puzzlesat_encodings::{ClauseDatabase, Cnf};
use rustsat::types::Lit;

use super::file::{read_records, About, CubeFile, CubeLine, BUILD};
use super::split::Split;
use super::threads::{add_stats, certificate_failed, on_threads, thread_count, unless_stopped};
use super::CubeOptions;
use crate::certify::{check_cover, formula_digest, Certified, Claim, Fnv};
use crate::drive::classes::Tally;
use crate::drive::proof::{self, Part, Prepared, ProofPlan};
use crate::options::{Purpose, RunOptions};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::{plural, CubeRecord, CubeTally, Report, Status, StoppedBy};
use crate::solver::{Limits, Session, SolverStats};

/// The fingerprint of a counting cube's record: what it says (`count`,
/// `classes`) and what about (the puzzle and its options, the build, the
/// CNF digest, the cube's literals).
pub fn count_fingerprint(
    describe: &str,
    c: &CubeRecord,
    count: Option<u64>,
    classes: Option<u64>,
) -> String {
    let number = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    Fnv::default()
        .text("count")
        .text(describe)
        .text(&c.build)
        .text(&c.cnf)
        .clause(c.literals.iter().copied())
        .text(&c.index.to_string())
        .text(&number(count))
        .text(&number(classes))
        .hex()
}

/// One cube counted: solutions, classes, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counted {
    solutions: u64,
    classes: Option<u64>,
}

/// What the cube file holds: per cube its count, and who wrote it.
struct Recorded {
    counts: Vec<Option<Counted>>,
    writers: Vec<String>,
    foreign: bool,
    lines: usize,
}

/// Reads the records of counted cubes from the cube file (missing: none).
fn read_counts(
    file: &CubeFile,
    describe: &str,
    cnf: &Cnf,
    digest: &str,
    split: &Split,
    trust: bool,
) -> anyhow::Result<Recorded> {
    let fact = "its count is a fact about that build's formula";
    let about = About::cnf(describe, cnf, digest, split, trust, fact);
    let fingerprint =
        |r: &CubeLine, c: &CubeRecord| Ok(count_fingerprint(describe, c, r.count, r.classes));
    let (taken, lines) = read_records(file, &about, fingerprint, |line| {
        let r = &line.report;
        // a cluster job stopped before the end: the cube is still to count
        Ok(match (r.count, r.status) {
            (Some(solutions), Status::All | Status::Unsat) => Some(Counted {
                solutions,
                classes: r.classes,
            }),
            _ => None,
        })
    })?;
    let mut writers: Vec<String> = vec![];
    for t in taken.iter().flatten() {
        if !writers.contains(&t.writer) {
            writers.push(t.writer.clone());
        }
    }
    Ok(Recorded {
        foreign: taken.iter().flatten().any(|t| t.foreign),
        counts: taken.into_iter().map(|t| t.map(|t| t.record)).collect(),
        writers,
        lines,
    })
}

/// What every counting thread shares.
struct Shared<'a, P: Puzzle> {
    /// the enumerated puzzle (the representatives when counting by classes)
    enumerated: &'a P,
    /// the whole puzzle, when counting by classes
    classes_of: Option<&'a P>,
    enc: &'a Encoded<P::Map>,
    cnf: &'a Cnf,
    digest: &'a str,
    describe: &'a str,
    split: &'a Split,
    opts: &'a RunOptions,
    limits: &'a Limits,
    file: CubeFile,
    queue: Mutex<VecDeque<u32>>,
    /// with `--certify`: how each cube's count is proved
    proof: ProofPlan,
    /// set when the limits stopped a cube's certificate
    certificate_stopped: AtomicBool,
}

/// A cube counted to its end, or stopped.
struct CubeResult {
    index: u32,
    counted: Option<Counted>,
    /// what was counted before a stop (the whole count when complete)
    found: Counted,
    solve: Duration,
    decode_check: Duration,
    sat_calls: u32,
    sat_answers: u32,
    stats: SolverStats,
    /// with `--certify`: the certificate of the cube's final UNSAT
    certified: Option<Certified>,
    certify: Duration,
}

impl<P: Puzzle> Shared<'_, P> {
    /// A cluster job's line for cube `index`: its count, or, stopped, what
    /// it found before the stop (a lower bound its status says is not a
    /// count: the full command counts the cube again).
    fn cluster_record(
        &self,
        index: u32,
        sums: &Sums,
        solver: &str,
    ) -> Report<P::Solution, P::Details> {
        let i = index as usize;
        let mut r = self.record(index, sums.counts[i], solver);
        if sums.counts[i].is_none() {
            r.stopped_by = Some(StoppedBy::of_limits(self.limits));
            if let Some(found) = sums.stopped_found[i].filter(|f| f.solutions > 0) {
                r.status = Status::Partial;
                r.count = Some(found.solutions);
                r.classes = found.classes;
                seal(&mut r, self.describe);
            }
        }
        r
    }
    /// The record line of cube `index`: its count (None: stopped before the
    /// end, a cluster job's line that counts nothing and is read back as
    /// such).
    fn record(
        &self,
        index: u32,
        c: Option<Counted>,
        solver: &str,
    ) -> Report<P::Solution, P::Details> {
        let counts = self.cnf.counts();
        let mut r: Report<P::Solution, P::Details> = Report::new(
            self.describe.to_string(),
            solver.to_string(),
            self.classes_of.unwrap_or(self.enumerated).counted_as(),
        );
        r.status = c.map_or(Status::Unknown, |c| Status::of_count(true, c.solutions));
        r.count = c.map(|c| c.solutions);
        r.classes = c.and_then(|c| c.classes);
        (r.vars, r.clauses, r.literals) = (counts.vars, counts.clauses, counts.literals);
        let record = CubeRecord {
            index,
            cubes: self.split.cubes(),
            literals: self.split.dimacs(),
            incumbent: None,
            closed: c.is_some(),
            witness: None,
            build: BUILD.to_string(),
            cnf: self.digest.to_string(),
            fingerprint: String::new(),
        };
        r.cube = Some(record);
        seal(&mut r, self.describe);
        r
    }

    /// A thread's session, loaded with the CNF once and reused for every
    /// cube the thread counts (the cube's literals are assumptions; learnt
    /// clauses follow from the formula alone, so they carry over).
    fn open(&self) -> anyhow::Result<Session> {
        let engine = self
            .opts
            .enumeration_engine(self.enumerated.enumeration())?;
        self.opts.open(
            Cow::Borrowed(self.cnf),
            self.limits.clone(),
            Purpose::Enumerate(engine),
        )
    }

    /// Counts cube `index` on the thread's `session`.
    fn count(&self, index: u32, session: &mut Session) -> anyhow::Result<CubeResult> {
        let before = (
            session.solve_time,
            session.solve_calls,
            session.sat_answers,
            session.stats(),
        );
        let mut tally = Tally::new(self.enumerated, self.classes_of, false);
        let cube = self.split.cube(index);
        let e = tally.count(session, self.enc, &cube, None, |_| {})?;
        let decode_check = tally.decoding;
        let found = Counted {
            solutions: tally.solutions,
            classes: tally.classes(),
        };
        let counted = e.complete.then_some(found);
        let t = Instant::now();
        let certified = match counted {
            Some(c) if self.opts.certify.is_some() => unless_stopped(
                self.certify(index, &cube, session, c),
                &self.certificate_stopped,
            )?,
            _ => None,
        };
        let certify = t.elapsed();
        let solver = session.solver_name();
        if let Some(c) = counted {
            self.file.append(&self.record(index, Some(c), &solver))?;
        }
        let since = |now: Option<u64>, then: Option<u64>| now.map(|n| n - then.unwrap_or(0));
        let stats = session.stats();
        Ok(CubeResult {
            index,
            counted,
            found,
            solve: session.solve_time - before.0,
            decode_check,
            sat_calls: session.solve_calls - before.1,
            sat_answers: session.sat_answers - before.2,
            stats: SolverStats {
                conflicts: since(stats.conflicts, before.3.conflicts),
                decisions: since(stats.decisions, before.3.decisions),
                propagations: since(stats.propagations, before.3.propagations),
            },
            certified,
            certify,
        })
    }

    /// With `--certify`: the certificate of cube `index`'s final UNSAT
    /// (its session is the cube's own, so the decision formula is the CNF,
    /// the cube's blocking clauses and its literals). A VeriPB proof from
    /// the model plus the cube's literals where the family has a model
    /// ([`crate::certify::veripb::cube_model`]): each solution logged by
    /// `solx`, the rest refuted; DRAT otherwise, saying why.
    fn certify(
        &self,
        index: u32,
        cube: &[Lit],
        session: &Session,
        c: Counted,
    ) -> anyhow::Result<Certified> {
        let claim = if c.solutions > 0 {
            Claim::Complete
        } else {
            Claim::Infeasible
        };
        let formula = session.unsat_formula().ok_or_else(|| {
            anyhow::anyhow!("internal error: --certify but no formula was recorded")
        })?;
        let part = Part::CubeCount { index, cube };
        self.proof
            .certify(claim, &part, &formula, self.opts, self.limits)
            .map_err(|e| {
                certificate_failed(e, || {
                    format!("the count of cube {index} could not be certified")
                })
            })
    }

    /// A thread's loop: counts cubes from the queue until it is empty or
    /// the limits expire.
    fn work(&self, progress: &mpsc::Sender<String>) -> anyhow::Result<Vec<CubeResult>> {
        let mut done = vec![];
        let mut session = None;
        loop {
            if self.limits.expired() {
                return Ok(done);
            }
            let Some(i) = self.queue.lock().expect("queue lock").pop_front() else {
                return Ok(done);
            };
            let t = Instant::now();
            if self.opts.certify.is_some() {
                // each cube's own session: its final UNSAT formula holds
                // only its own blocking clauses
                session = None;
            }
            let session = match &mut session {
                Some(s) => s,
                None => session.insert(self.open()?),
            };
            let r = self.count(i, session)?;
            if let Some(c) = r.counted {
                let classes = c.classes.map_or(String::new(), |k| {
                    format!(" in {}", plural(k, "class", "classes"))
                });
                let _ = progress.send(format!(
                    "c cube {i}: {}{classes}, complete after {:.2}s",
                    plural(c.solutions, "solution", "solutions"),
                    t.elapsed().as_secs_f64()
                ));
            }
            done.push(r);
        }
    }
}

/// Counts `p`'s solutions cube by cube (module docs) and returns the report
/// of the whole problem, or with [`CubeOptions::only`] the record of that
/// cube.
pub fn run<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    cubes: &CubeOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<P::Solution, P::Details>> {
    let started = Instant::now();
    refuse_unsupported(opts, cubes)?;
    let reps = if opts.no_classes {
        None
    } else {
        p.class_representatives()
    };
    let enumerated = reps.as_ref().unwrap_or(p);
    let classes_of = reps.as_ref().map(|_| p);
    // the split's literals' definitions are part of the CNF the proofs derive
    let (
        Prepared {
            cnf,
            enc,
            encode_seconds,
            plan: proof,
        },
        split,
    ) = proof::prepare(enumerated, opts, |cnf, enc| {
        if enc.objective.is_some() || enc.scored.is_some() {
            bail!(
                "--count --cubes counts a puzzle without an objective; {} has one (--cubes without --count/--all optimises it cube by cube)",
                p.describe()
            );
        }
        Split::new(
            &enumerated.split_literals(&enc.map, &enc.primary, cnf),
            cubes.count,
        )
    })?;
    let describe = p.describe();
    let digest = formula_digest(&cnf);
    // a cluster job checks the file too (it appends to it), but counts its
    // cube whatever the file holds
    let file = CubeFile::open(cubes.file.as_deref())?;
    let mut known = read_counts(&file, &describe, &cnf, &digest, &split, cubes.trust)?;
    if cubes.only.is_some() {
        known = Recorded {
            counts: vec![None; split.cubes() as usize],
            writers: vec![],
            foreign: false,
            lines: 0,
        };
    }
    let todo = to_count(cubes.only, &split, &known)?;
    let from_file = split.cubes() - todo.len() as u32;
    let threads = thread_count(cubes.jobs, todo.len(), progress)?;
    if cubes.only.is_none() {
        writeln!(
            progress,
            "c cubes: {} on {} splitting literals; {from_file} counted by the records of {} ({} lines), {} to count on {} thread(s)",
            split.cubes(),
            split.literals.len(),
            cubes.file.as_deref().map_or("no cube file".into(), |p| p.display().to_string()),
            known.lines,
            todo.len(),
            threads
        )?;
    }
    // the engine's name, for the report even if no cube is started
    let solver = opts
        .open(
            Cow::Owned(Cnf::new()),
            Limits::default(),
            Purpose::Enumerate(opts.enumeration_engine(enumerated.enumeration())?),
        )?
        .solver_name();
    let shared = Shared {
        enumerated,
        classes_of,
        enc: &enc,
        cnf: &cnf,
        digest: &digest,
        describe: &describe,
        split: &split,
        opts,
        limits: &limits,
        file,
        queue: Mutex::new(todo),
        proof,
        certificate_stopped: AtomicBool::new(false),
    };
    let results = on_threads(threads, progress, |tx| shared.work(tx));
    let mut sums = Sums::of(results, known.counts.clone())?;
    if let Some(i) = cubes.only {
        // a cluster job: the cube's record, counted or stopped
        let mut r = shared.cluster_record(i, &sums, &solver);
        sums.fill(&mut r, encode_seconds, started);
        return Ok(r);
    }
    let mut r = shared.whole_report(
        p.counted_as(),
        &mut sums,
        known,
        from_file,
        solver,
        cubes.file.as_deref(),
    )?;
    sums.fill(&mut r, encode_seconds, started);
    Ok(r)
}

impl<P: Puzzle> Shared<'_, P> {
    /// The whole problem's report from the cubes' `sums` and the file's
    /// records (`known`; `from_file` cubes counted by them): the count,
    /// complete when every cube is, the cube tally, the certificates and
    /// their cover.
    fn whole_report(
        &self,
        counted_as: &str,
        sums: &mut Sums,
        known: Recorded,
        from_file: u32,
        solver: String,
        cube_file: Option<&Path>,
    ) -> anyhow::Result<Report<P::Solution, P::Details>> {
        let complete = sums.counts.iter().all(Option::is_some);
        // every complete cube's count, and what the stopped ones found
        let found: Vec<Counted> = sums
            .counts
            .iter()
            .zip(&sums.stopped_found)
            .filter_map(|(c, f)| c.or(*f))
            .collect();
        let solutions: u64 = found.iter().map(|c| c.solutions).sum();
        let classes = self
            .classes_of
            .map(|_| found.iter().filter_map(|c| c.classes).sum());
        let mut r: Report<P::Solution, P::Details> = Report::new(
            self.describe.to_string(),
            if from_file == self.split.cubes() {
                "none (every cube from the cube file)".to_string()
            } else {
                solver
            },
            counted_as,
        );
        r.status = Status::of_count(complete, solutions);
        r.count = Some(solutions);
        r.classes = classes;
        let c = self.cnf.counts();
        (r.vars, r.clauses, r.literals) = (c.vars, c.clauses, c.literals);
        r.stopped_by = (!complete).then(|| StoppedBy::of_limits(self.limits));
        r.cubes = Some(CubeTally {
            cubes: self.split.cubes(),
            closed_now: sums.closed_now,
            rechecked: 0,
            from_file,
            certified_in_file: 0,
            file: cube_file.map(|f| f.display().to_string()),
            written_by: known.writers,
            trusted: known.foreign,
            cover: None,
        });
        if self.opts.certify.is_some() {
            let stopped = self.certificate_stopped.load(Ordering::Relaxed);
            if stopped {
                r.certificate_stopped = Some(StoppedBy::of_limits(self.limits));
            }
            let mut proved = std::mem::take(&mut sums.proved);
            proved.sort_by_key(|(i, _)| *i);
            if complete && !stopped {
                let cover = covered(self.split, &proved)?;
                if let Some(t) = &mut r.cubes {
                    t.cover = Some(cover);
                }
            }
            r.certificates = Some(proved.into_iter().map(|(_, c)| c).collect());
            r.seconds.certify = sums.certify.as_secs_f64();
        }
        Ok(r)
    }
}

/// The cubes this run counts: `only` (a cluster job's), else every cube
/// the file has no count of.
fn to_count(only: Option<u32>, split: &Split, known: &Recorded) -> anyhow::Result<VecDeque<u32>> {
    Ok(match only {
        Some(i) if i >= split.cubes() => {
            bail!(
                "--cube {i}: this split has cubes 0 to {}",
                split.cubes() - 1
            )
        }
        Some(i) => [i].into(),
        None => (0..split.cubes())
            .filter(|&i| known.counts[i as usize].is_none())
            .collect(),
    })
}

/// The options a count by cubes refuses, each with what to do instead.
fn refuse_unsupported(opts: &RunOptions, cubes: &CubeOptions) -> anyhow::Result<()> {
    if opts.limit.is_some() {
        bail!("--cubes counts every solution: drop --limit");
    }
    if !opts.count_only {
        bail!("--all --cubes: a count by cubes keeps no solution (its cube file records counts, not solutions): use --count --cubes K for the count, or --all without --cubes to print every solution");
    }
    if opts.certify.is_some() && !opts.no_classes {
        bail!("--certify --count --cubes certifies a count of the solutions cube by cube: add --no-classes (a count by classes is certified without --cubes)");
    }
    if opts.certify.is_some() && (cubes.file.is_some() || cubes.only.is_some()) {
        bail!(
            "--certify --count --cubes proves every cube in this run: drop --cube-file and --cube"
        );
    }
    Ok(())
}

/// The cover check of the certified cubes (sorted by index): every
/// assignment falls in one of them (certify::check_cover).
fn covered(split: &Split, proved: &[(u32, Certified)]) -> anyhow::Result<String> {
    let literals: Vec<Vec<Lit>> = proved.iter().map(|(i, _)| split.cube(*i)).collect();
    let cover = check_cover(&literals)
        .map_err(|e| anyhow::anyhow!("the cubes' certificates do not cover the problem: {e}"))?;
    Ok(cover.to_string())
}

/// The cubes of this run summed: each cube's count (the file's, then this
/// run's), what the stopped ones found, and the run's work.
struct Sums {
    counts: Vec<Option<Counted>>,
    /// what the cubes stopped before their end had found: a lower bound
    stopped_found: Vec<Option<Counted>>,
    closed_now: u32,
    proved: Vec<(u32, Certified)>,
    solve: Duration,
    decode_check: Duration,
    certify: Duration,
    sat_calls: u32,
    sat_answers: u32,
    stats: SolverStats,
}

impl Sums {
    /// The threads' results over the counts the file gave.
    fn of(
        results: Vec<anyhow::Result<Vec<CubeResult>>>,
        counts: Vec<Option<Counted>>,
    ) -> anyhow::Result<Sums> {
        let mut sums = Sums {
            stopped_found: vec![None; counts.len()],
            counts,
            closed_now: 0,
            proved: vec![],
            solve: Duration::ZERO,
            decode_check: Duration::ZERO,
            certify: Duration::ZERO,
            sat_calls: 0,
            sat_answers: 0,
            stats: SolverStats::default(),
        };
        for r in results {
            for c in r? {
                sums.solve += c.solve;
                sums.decode_check += c.decode_check;
                sums.sat_calls += c.sat_calls;
                sums.sat_answers += c.sat_answers;
                add_stats(&mut sums.stats, c.stats);
                sums.certify += c.certify;
                if let Some(cert) = c.certified {
                    sums.proved.push((c.index, cert));
                }
                match c.counted {
                    Some(counted) => {
                        sums.closed_now += 1;
                        sums.counts[c.index as usize] = Some(counted);
                    }
                    None => sums.stopped_found[c.index as usize] = Some(c.found),
                }
            }
        }
        Ok(sums)
    }

    /// The report's solver work and phase times (`started`: the run's
    /// start).
    fn fill<S, D>(&self, r: &mut Report<S, D>, encode_seconds: f64, started: Instant) {
        (r.sat_calls, r.sat_answers, r.stats) = (self.sat_calls, self.sat_answers, self.stats);
        r.seconds.encode = encode_seconds;
        r.seconds.solve = self.solve.as_secs_f64();
        r.seconds.decode_check = self.decode_check.as_secs_f64();
        r.seconds.close(started.elapsed().as_secs_f64());
    }
}

/// Seals a counting cube's line: its fingerprint, once its count is in it.
fn seal<S, D>(r: &mut Report<S, D>, describe: &str) {
    let fp = r
        .cube
        .as_ref()
        .map(|c| count_fingerprint(describe, c, r.count, r.classes));
    if let (Some(c), Some(fp)) = (&mut r.cube, fp) {
        c.fingerprint = fp;
    }
}
