//! The one result type: what `solve --json` prints for every puzzle and
//! method, what the text summary is drawn from, and what an experiment row
//! is read from (strictly: [`Report::from_json_line`] refuses a missing or
//! unknown field). Times cover the whole run, phase by phase.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::certify::{Certified, Claim};
use puzzlesat_encodings::solve::SolverStats;

/// Version of the JSON report's field set; bumped when a field is renamed,
/// removed or changes meaning (3: `certificates`, `unchecked`; 4: `classes`;
/// 5: `seconds.certify`, the proofs' time, no longer in `other`; 6: `cube`;
/// 7: `cubes`, the cube record's `build`, `cnf` and `fingerprint`, the
/// certificates' `formula_digest` and `cube`).
pub const SCHEMA_VERSION: u32 = 7;

/// The `solver` of a report whose method uses no SAT solver.
pub const NO_SAT: &str = "none";

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

impl Status {
    /// The status of a search for the best solution: whether it `found`
    /// one, and whether it `proved` that none is better (or, with none
    /// found, that none exists).
    pub fn of_optimum(found: bool, proved: bool) -> Status {
        match (found, proved) {
            (true, true) => Status::Optimal,
            (true, false) => Status::Sat,
            (false, true) => Status::Unsat,
            (false, false) => Status::Unknown,
        }
    }

    /// The status of an enumeration that found `count` solutions,
    /// `complete` when it ran to its end: none at the end is infeasible
    /// (exit 20, as without `--all`), some are all or part of them.
    pub fn of_count(complete: bool, count: u64) -> Status {
        match (complete, count) {
            (true, 0) => Status::Unsat,
            (true, _) => Status::All,
            (false, 0) => Status::Unknown,
            (false, _) => Status::Partial,
        }
    }

    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
            Status::All => "all",
            Status::Partial => "partial",
        }
    }
    /// SAT-competition exit code: 10 for a solution, 20 for a proven
    /// absence of solutions, 0 for no answer. The one place outcomes map to
    /// exit codes.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Optimal | Status::Sat | Status::All | Status::Partial => 10,
            Status::Unsat => 20,
            Status::Unknown => 0,
        }
    }
}

impl Status {
    /// The status line of the MaxSAT and PB evaluations (Roussel and
    /// Manquinho, the PB competition's rules), `--competition`: a proven
    /// optimum is `s OPTIMUM FOUND`; a solution, or a count, `s SATISFIABLE`.
    pub fn competition_line(self) -> &'static str {
        match self {
            Status::Optimal => "s OPTIMUM FOUND",
            Status::Sat | Status::All | Status::Partial => "s SATISFIABLE",
            Status::Unsat => "s UNSATISFIABLE",
            Status::Unknown => "s UNKNOWN",
        }
    }
}

/// The evaluations' exit code of a proven optimum (`--competition`; the
/// other outcomes keep [`Status::exit_code`]).
pub const OPTIMUM_FOUND_EXIT: u8 = 30;

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a run ended before its answer was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoppedBy {
    /// `--timeout`
    Timeout,
    /// Ctrl-C or SIGTERM
    Interrupt,
    /// `--limit` on enumeration
    Limit,
}

impl StoppedBy {
    /// Why expired `limits` stopped a phase: the interrupt flag, else the
    /// deadline.
    pub fn of_limits(limits: &crate::solver::Limits) -> StoppedBy {
        match limits.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            true => StoppedBy::Interrupt,
            false => StoppedBy::Timeout,
        }
    }
}

/// Seconds per phase. `total` is the wall time (of the whole process when
/// run from the command line); `other` is what no phase accounts for, so
/// the phases sum to `total`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phases {
    /// building the CNF (`Puzzle::encode`)
    pub encode: f64,
    /// handing the CNF to the backend
    pub load: f64,
    /// encoding objective bounds (pseudo-Boolean / cardinality)
    pub bounds: f64,
    /// inside the SAT solver, every call
    pub solve: f64,
    /// lazy constraints (`Puzzle::separate`) and blocking clauses
    pub separate: f64,
    /// decoding, the independent checker and the puzzle's details
    pub decode_check: f64,
    /// `--certify`: writing out the decision formulas, the proof solves
    /// and the proof checks
    pub certify: f64,
    /// the rest: parsing, reading files, freeing memory, …
    pub other: f64,
    /// wall time
    pub total: f64,
}

impl Phases {
    /// Sets `total` and makes `other` the time no phase accounts for.
    pub fn close(&mut self, total: f64) {
        let known = self.encode
            + self.load
            + self.bounds
            + self.solve
            + self.separate
            + self.decode_check
            + self.certify;
        self.total = total;
        self.other = (total - known).max(0.0);
    }
}

/// The instant the process started (first call wins; `main` calls it first).
pub fn process_start() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// Puzzle-specific results that a report carries under `details` (the
/// Alien Tiles census, the rook-tour classes, Enigma's explored cycle
/// types). `lines` are the text report's extra lines about them.
pub trait Details: Serialize + Default + Clone + std::fmt::Debug {
    /// Lines for the text report (after the summary).
    fn lines(&self) -> Vec<String> {
        vec![]
    }
}

/// For puzzles with nothing to add.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NoDetails {}

impl Details for NoDetails {}

impl Details for serde_json::Value {}

/// One result, as printed with `--json` and read back as an experiment row.
/// `S` is the solution type, `D` the puzzle's details.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report<S, D = serde_json::Value> {
    /// [`SCHEMA_VERSION`]
    pub schema_version: u32,
    /// instance and options
    pub puzzle: String,
    /// backend used (`none` for a method without SAT)
    pub solver: String,
    /// the `--seed` given to the backend, if any
    #[serde(deserialize_with = "Option::deserialize")]
    pub seed: Option<u64>,
    /// outcome
    pub status: Status,
    /// why the answer is incomplete (None when it is complete)
    #[serde(deserialize_with = "Option::deserialize")]
    pub stopped_by: Option<StoppedBy>,
    /// best objective value found
    #[serde(deserialize_with = "Option::deserialize")]
    pub objective: Option<i64>,
    /// proven bound on the objective
    #[serde(deserialize_with = "Option::deserialize")]
    pub bound: Option<i64>,
    /// models counted with `--all`
    #[serde(deserialize_with = "Option::deserialize")]
    pub count: Option<u64>,
    /// what a counted model stands for: `solutions` or `symmetry classes`
    pub counted_as: String,
    /// with `--all` by symmetry classes (`drive::classes`): the classes
    /// (orbits of the puzzle's group) the `count` solutions fall into; for
    /// the structured magic count (solver `none`), the classes up to
    /// rotation and reflection
    #[serde(deserialize_with = "Option::deserialize")]
    pub classes: Option<u64>,
    /// solutions (the best one, or all with `--all`), each checked
    pub solutions: Vec<S>,
    /// variables of the encoding (before bounds / blocking clauses)
    pub vars: u32,
    /// clauses of the encoding
    pub clauses: usize,
    /// literal occurrences of the encoding
    pub literals: usize,
    /// solve calls
    pub sat_calls: u32,
    /// SAT answers (models the solver returned)
    pub sat_answers: u32,
    /// models rejected by lazily added constraints (`Puzzle::separate`)
    pub lazy_constraints: u64,
    /// backend statistics
    pub stats: SolverStats,
    /// wall time per phase
    pub seconds: Phases,
    /// with `--certify`: the checked proof of each UNSAT answer the claim
    /// rests on (empty if it rests on none, e.g. an optimum at the end of
    /// the objective's range); without: None
    #[serde(deserialize_with = "Option::deserialize")]
    pub certificates: Option<Vec<Certified>>,
    /// with `--certify`: the certificate of the last UNSAT answer was
    /// stopped (time limit, Ctrl-C or SIGTERM) before its proof was checked;
    /// the claim stands on the solver's UNSAT answer alone
    #[serde(default)]
    pub certificate_stopped: Option<StoppedBy>,
    /// the claim rests on an external solver's UNSAT answer, taken without
    /// a proof
    pub unchecked: bool,
    /// with `--cubes`: the cube of the problem this report is about, and the
    /// facts a resumed run reads back ([`crate::drive::cubes`]); None for a
    /// report about the whole problem
    #[serde(deserialize_with = "Option::deserialize")]
    pub cube: Option<CubeRecord>,
    /// with `--cubes`, a report about the whole problem: what its claim
    /// rests on, cube by cube (this run's answers or the cube file's)
    #[serde(deserialize_with = "Option::deserialize")]
    pub cubes: Option<CubeTally>,
    /// puzzle-specific results
    pub details: D,
}

impl<S, D: Default> Report<S, D> {
    /// An empty report (status unknown, nothing measured yet).
    pub fn new(puzzle: String, solver: String, counted_as: &str) -> Self {
        Report {
            schema_version: SCHEMA_VERSION,
            puzzle,
            solver,
            seed: None,
            status: Status::Unknown,
            stopped_by: None,
            objective: None,
            bound: None,
            count: None,
            counted_as: counted_as.to_string(),
            classes: None,
            solutions: vec![],
            vars: 0,
            clauses: 0,
            literals: 0,
            sat_calls: 0,
            sat_answers: 0,
            lazy_constraints: 0,
            stats: SolverStats::default(),
            seconds: Phases::default(),
            certificates: None,
            certificate_stopped: None,
            unchecked: false,
            cube: None,
            cubes: None,
            details: D::default(),
        }
    }
}

impl<S: DeserializeOwned, D: DeserializeOwned> Report<S, D> {
    /// Reads a report strictly: a missing or unknown field, or another
    /// schema version, is an error naming it.
    pub fn from_json_line(line: &str) -> anyhow::Result<Self> {
        let r: Self = serde_json::from_str(line.trim())?;
        if r.schema_version != SCHEMA_VERSION {
            anyhow::bail!(
                "report schema_version {} (this build reads {SCHEMA_VERSION})",
                r.schema_version
            );
        }
        Ok(r)
    }
}

impl<S: Serialize, D: Details> Report<S, D> {
    /// The report for people (`mode` [`Output::Full`]): the instance, each
    /// solution drawn by `render` (under a "solution i of N" header when
    /// there are several) until the drawings reach the mode's cap, then a
    /// note saying how many were not printed, a summary line saying exactly
    /// what is proven, the details' lines, and `c` lines with the sizes and
    /// phase times. [`Output::Quiet`] keeps the summary and the details'
    /// answer lines (not the `c` lines); [`Output::Count`] the summary line
    /// alone.
    pub fn print_text(
        &self,
        mode: Output,
        render: impl Fn(&S) -> String,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let Output::Full { cap } = mode else {
            writeln!(out, "{}", self.summary())?;
            if mode == Output::Quiet {
                for line in self.details.lines() {
                    if !line.starts_with("c ") {
                        writeln!(out, "{line}")?;
                    }
                }
            }
            return Ok(());
        };
        writeln!(out, "{}", self.puzzle)?;
        let many = self.solutions.len() > 1 || self.count.is_some();
        let (mut printed, mut left_out, mut left_bytes) = (0, 0u64, 0);
        for (i, s) in self.solutions.iter().enumerate() {
            let header = if many {
                format!("{}\n", self.solution_header(i))
            } else {
                String::new()
            };
            let text = format!("{header}{}\n", render(s));
            if left_out > 0 || cap.is_some_and(|cap| printed + text.len() > cap) {
                left_out += 1;
                left_bytes += text.len();
                continue;
            }
            printed += text.len();
            out.write_all(text.as_bytes())?;
        }
        if left_out > 0 {
            writeln!(
                out,
                "({} not printed: {} of text past the cap of {}; --print all prints {})",
                plural(left_out, "solution", "solutions"),
                kilobytes(left_bytes),
                kilobytes(cap.unwrap_or_default()),
                if left_out == 1 { "it" } else { "them" }
            )?;
        }
        writeln!(out, "{}", self.summary())?;
        for c in self.certificates.iter().flatten() {
            writeln!(out, "c {c}")?;
        }
        if let Some(by) = self.certificate_stopped {
            writeln!(
                out,
                "c certificate not finished: {}; the claim rests on the solver's UNSAT answer, not checked",
                match by {
                    StoppedBy::Interrupt => "interrupted (Ctrl-C or SIGTERM)",
                    _ => "stopped by the time limit",
                }
            )?;
        }
        if let Some(cover) = self.cubes.as_ref().and_then(|t| t.cover.as_ref()) {
            writeln!(out, "c {cover}")?;
        }
        if let Some(first) = self.certificates.as_ref().and_then(|c| c.first()) {
            // a count by classes: the proof covers the representatives
            let expansion = match (self.classes, self.count) {
                // the proof states the whole count: nothing is computed outside it
                _ if self.count_stated() => String::new(),
                (Some(k), Some(n)) => format!(
                    "; the expansion of the representatives into the {n} solutions of {} (their images under the symmetry group, each passed through the independent checker) is computed outside the proof",
                    plural(k, "class", "classes")
                ),
                _ => String::new(),
            };
            match (
                &first.certificate.from_model,
                &first.certificate.not_from_model,
            ) {
                (Some(m), _) => writeln!(out, "c not covered: {}{expansion}", m.not_covered)?,
                (None, Some(why)) => writeln!(
                    out,
                    "c not covered: {}{expansion}; no VeriPB proof from the model: {why} (DRAT instead)",
                    crate::certify::SCOPE
                )?,
                (None, None) => {
                    writeln!(out, "c not covered: {}{expansion}", crate::certify::SCOPE)?
                }
            }
        }
        for line in self.details.lines() {
            writeln!(out, "{line}")?;
        }
        let t = &self.seconds;
        writeln!(
            out,
            "c {} vars, {} clauses, {} literals; {} SAT calls ({}{})",
            self.vars,
            self.clauses,
            self.literals,
            self.sat_calls,
            self.solver,
            self.seed.map_or(String::new(), |s| format!(", seed {s}"))
        )?;
        // the certify phase is shown when there was one (--certify)
        let certify = match self.certificates {
            Some(_) => format!(", certify {:.3}", t.certify),
            None => String::new(),
        };
        writeln!(
            out,
            "c seconds: encode {:.3}, load {:.3}, bounds {:.3}, solve {:.3}, separate {:.3}, decode+check {:.3}{certify}, other {:.3}, total {:.3}",
            t.encode, t.load, t.bounds, t.solve, t.separate, t.decode_check, t.other, t.total
        )
    }

    /// "solution 3 of 880" when the enumeration is complete and every
    /// solution is shown, "solution 3 of 19 shown" when fewer are shown
    /// (e.g. one per symmetry class), "solution 3" while the count is not
    /// final.
    fn solution_header(&self, i: usize) -> String {
        let shown = self.solutions.len();
        match (self.status, self.count) {
            (Status::All, Some(n)) if n == shown as u64 => format!("solution {} of {n}", i + 1),
            (Status::All, _) => format!("solution {} of {shown} shown", i + 1),
            _ => format!("solution {}", i + 1),
        }
    }

    /// Whether a certificate from the model states the run's count (the
    /// solutions logged, the model with them excluded refuted:
    /// [`crate::certify::veripb::count`]), classes expanded and all.
    pub fn count_stated(&self) -> bool {
        self.certificate_stopped.is_none()
            && self.count.is_some()
            && self.certificates.iter().flatten().any(|c| {
                c.claim == Claim::Complete
                    && c.certificate
                        .from_model
                        .as_ref()
                        .is_some_and(|m| m.counted == self.count)
            })
    }

    /// The summary line: what is proven, and why the answer is incomplete
    /// when it is.
    pub fn summary(&self) -> String {
        let why = match self.stopped_by {
            Some(StoppedBy::Timeout) => "; stopped by the time limit",
            Some(StoppedBy::Interrupt) => "; interrupted (Ctrl-C or SIGTERM)",
            Some(StoppedBy::Limit) => "; stopped at --limit",
            None => "",
        };
        // a certificate the limits stopped leaves the claim on UNSAT alone
        // (the certificates of a run's other cubes do not certify it)
        let certs = match self.certificate_stopped {
            Some(_) => &[],
            None => self.certificates.as_deref().unwrap_or_default(),
        };
        let unsat = &self.backing(certs.first())[..];
        // an optimum's enumeration of the solutions with that value rests
        // on its own final UNSAT, certified on its own
        let unsat_complete = &self.backing(
            certs
                .iter()
                .rev()
                .find(|c| c.claim == Claim::Complete)
                .or(certs.first()),
        )[..];
        if let Some(c) = &self.cube {
            return format!("{}{why}", self.cube_summary(c, unsat));
        }
        let line = match (self.status, self.objective, self.bound, self.count) {
            (Status::Optimal, Some(v), _, _) if self.unchecked => {
                format!("optimal: {v} (no better solution: {unsat})")
            }
            (Status::Optimal, Some(v), _, _) => {
                format!("optimal: {v} ({})", self.rests_on("no better solution, ", unsat))
            }
            (Status::Sat, Some(v), Some(b), _) => {
                let file = self.cubes.as_ref().and_then(CubeTally::from_file);
                format!(
                    "best found: {v}, not proven optimal (proven bound {b}{})",
                    file.map_or(String::new(), |f| format!("; {f}"))
                )
            }
            (Status::Sat, Some(v), None, _) => format!("best found: {v}, not proven optimal"),
            (Status::Sat, _, _, _) => "solution found (checked)".to_string(),
            (Status::Unsat, _, _, _) if self.unchecked => {
                "unsatisfiable (unchecked): the external solver's word, no proof (use --certify)"
                    .to_string()
            }
            (Status::Unsat, _, _, _) => format!(
                "no solution exists ({})",
                self.rests_on("", unsat)
            ),
            (Status::Unknown, _, Some(b), _) => {
                format!("no solution found before the limit (proven bound {b})")
            }
            (Status::Unknown, _, _, _) => "no answer before the limit".to_string(),
            (Status::All, Some(v), _, Some(n)) => format!(
                "optimal: {v} (proven: no better solution, {unsat}); exactly {} with that value (complete: final {unsat_complete})",
                self.counted(n)
            ),
            (Status::All, _, _, Some(n)) => self.count_summary(n, certs, unsat),
            (Status::Partial, Some(v), _, Some(n)) => format!(
                "optimal: {v} (proven: no better solution, {unsat}); at least {} with that value (enumeration stopped early)",
                self.counted(n)
            ),
            (Status::Partial, _, _, Some(n)) => {
                let classes = self.classes.map_or(String::new(), |c| {
                    format!(", in {} of the puzzle's whole symmetry group", plural(c, "class", "classes"))
                });
                let cubes = self.cubes.as_ref().map_or(String::new(), |t| {
                    format!(": {} of {} cubes complete", t.closed_now + t.from_file, t.cubes)
                });
                format!("at least {}{classes} (enumeration stopped early{cubes})", self.counted(n))
            }
            (s, ..) => s.to_string(),
        };
        format!("{line}{why}")
    }

    /// `n` solutions (or whatever the puzzle counts).
    fn counted(&self, n: u64) -> String {
        format!("{n} {}", counted_noun(&self.counted_as, n))
    }

    /// What backs the UNSAT answer a claim rests on: its certificate `cert`
    /// (the first one's for the run's first claim), else what the run
    /// says of it.
    fn backing(&self, cert: Option<&Certified>) -> String {
        match (cert, self.unchecked) {
            (Some(c), _) => match &c.certificate.from_model {
                Some(m) => format!(
                    "UNSAT, certified from the model: {}, {}",
                    m.covers,
                    c.certificate.checker.replace("veripb", "VeriPB")
                ),
                None => "UNSAT, certified".into(),
            },
            // a method without SAT proves by its own exact argument (its
            // details name it)
            _ if self.solver == NO_SAT => "exact method, no SAT solver".into(),
            (_, true) => "UNSAT from the external solver, unchecked".into(),
            // --certify asked, the limits stopped the check
            _ if self.certificate_stopped.is_some() => {
                "UNSAT (not certified: the check was not finished)".into()
            }
            _ => "UNSAT".into(),
        }
    }

    /// The summary of a complete count of `n` (`certs` the run's
    /// certificates, `unsat` what backs its final UNSAT): how it is
    /// complete, by classes, by cubes.
    fn count_summary(&self, n: u64, certs: &[Certified], unsat: &str) -> String {
        let on = match (self.classes.is_some(), self.count_stated()) {
            (_, true) => ", which states the count: each solution logged, no other",
            (true, false) if !certs.is_empty() => {
                " on the classes' representatives; their expansion into the classes is computed, not checked"
            }
            (true, false) => " on the classes' representatives",
            (false, false) => "",
        };
        let complete = match &self.cubes {
            // an exact method ends its search, not on UNSAT
            None if self.solver == NO_SAT => format!("complete: {unsat}"),
            None => format!("complete: final {unsat}{on}"),
            Some(t) => {
                let file = t
                    .from_file()
                    .map_or(String::new(), |f| format!("; the other {f}"));
                let ended = match self.solver == NO_SAT {
                    true => "counted to its end by the exact method (no SAT solver)".into(),
                    false => format!("ended on {unsat}{on}"),
                };
                format!(
                    "complete: every one of the {} cubes {ended}, {} in this run{file}",
                    t.cubes, t.closed_now
                )
            }
        };
        match self.classes {
            // the structured magic count: its classes are those of
            // the square's rotations and reflections
            Some(c) if self.solver == NO_SAT => format!(
                "exactly {}, {c} up to rotation and reflection ({complete})",
                self.counted(n)
            ),
            Some(c) => format!(
                "exactly {}, in {} of the puzzle's whole symmetry group ({complete})",
                self.counted(n),
                plural(c, "class", "classes")
            ),
            None => format!("exactly {} ({complete})", self.counted(n)),
        }
    }

    /// The summary of a report about one cube (a cluster job, `--cube I`):
    /// what was proven about that cube, under its assumptions, and that the
    /// puzzle's answer needs every cube's record, never a claim about the
    /// puzzle.
    fn cube_summary(&self, c: &CubeRecord, unsat: &str) -> String {
        let under = format!("{unsat} under the cube's assumptions");
        let about = match (self.status, self.objective, self.bound, self.count) {
            (Status::All | Status::Unsat, _, _, Some(n)) => {
                let (classes, on) = match self.classes {
                    Some(k) => (
                        format!(", in {}", plural(k, "class", "classes")),
                        " on the classes' representatives",
                    ),
                    None => (String::new(), ""),
                };
                format!(
                    "exactly {}{classes} in this cube (complete: its enumeration ended on {under}{on})",
                    self.counted(n)
                )
            }
            (_, _, _, Some(n)) => format!("at least {} in this cube", self.counted(n)),
            (Status::Optimal, Some(v), ..) => {
                format!("best in this cube: {v} (proven: no better solution in the cube, {under})")
            }
            // a search without SAT that looked only above a floor
            (Status::Unsat, None, Some(b), _) if self.solver == NO_SAT => format!(
                "no {} above {b} in this cube (proven: {unsat}, the cube searched to its end)",
                counted_noun(&self.counted_as, 1)
            ),
            (Status::Unsat, ..) => format!("no solution in this cube (proven: {under})"),
            (Status::Sat, Some(v), Some(b), _) => format!(
                "best found in this cube: {v}, not proven the cube's best (its proven bound {b})"
            ),
            (Status::Unknown, _, Some(b), _) => {
                format!("no solution found in this cube (its proven bound {b})")
            }
            _ => "no answer about this cube".to_string(),
        };
        let whole = if self.stopped_by.is_some() {
            "its record counts for nothing: the command without --cube runs this cube again"
        } else if self.count.is_some() {
            "the puzzle's count is the sum over every cube: the command without --cube, with the jobs' outputs as its --cube-file, adds the records and counts the cubes they lack"
        } else {
            "the puzzle's answer is the best over every cube: the command without --cube, with the jobs' outputs as its --cube-file, combines the records and solves the cubes they lack"
        };
        format!(
            "cube {} of {}, a part of the puzzle (a cluster job: not the puzzle's answer): {about}; {whole}",
            c.index, c.cubes
        )
    }

    /// The process's exit code for this report: [`Status::exit_code`] for a
    /// report about the puzzle; 0 for a report about one cube (a cluster
    /// job, `--cube I`), whatever the cube's status, since a cube's outcome
    /// is not the puzzle's (docs/cubes.md).
    pub fn exit_code(&self) -> u8 {
        if self.cube.is_some() {
            0
        } else {
            self.status.exit_code()
        }
    }

    /// The exit code under `--competition`: [`Report::exit_code`], except
    /// [`OPTIMUM_FOUND_EXIT`] for a proven optimum of the puzzle.
    pub fn competition_exit_code(&self) -> u8 {
        match self.exit_code() {
            10 if self.status == Status::Optimal => OPTIMUM_FOUND_EXIT,
            code => code,
        }
    }

    /// `--competition`'s report (after the `o` lines the run printed as it
    /// improved): the summary as a `c` line, the status line
    /// ([`Status::competition_line`]) and the first solution as a `v` line
    /// (its JSON on one line).
    pub fn print_competition(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "c {}", self.summary())?;
        writeln!(out, "{}", self.status.competition_line())?;
        if let Some(best) = self.solutions.first() {
            writeln!(out, "v {}", serde_json::to_string(best)?)?;
        }
        out.flush()?;
        Ok(())
    }

    /// What a "no better solution" or "no solution" claim rests on:
    /// "proven: {what}{unsat}" (`what` is "no better solution, " or empty), unless cubes closed by a cube file's
    /// records count, which are named with the file and the builds that
    /// wrote them, and never called proven by UNSAT.
    fn rests_on(&self, what: &str, unsat: &str) -> String {
        let Some(t) = &self.cubes else {
            return format!("proven: {what}{unsat}");
        };
        let now = t.closed_now + t.rechecked;
        let rechecked = match t.rechecked {
            0 => String::new(),
            k => format!(
                " ({} closed in this run, {} of {} proven again)",
                t.closed_now,
                plural(k, "record", "records"),
                t.file.as_deref().unwrap_or("the cube file")
            ),
        };
        match t.from_file() {
            None => format!("proven: {what}{unsat}{rechecked}"),
            Some(file) if now == 0 => {
                format!("not proven in this run: all {file}")
            }
            Some(file) => format!(
                "proven in this run for {now} of {} cubes: {what}{unsat}{rechecked}; the other {file}",
                t.cubes
            ),
        }
    }

    /// Prints the report as one JSON line (whatever `mode`: the caller
    /// empties `solutions` for `--count`) or as text.
    pub fn print(
        &self,
        json: bool,
        mode: Output,
        render: impl Fn(&S) -> String,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        if json {
            serde_json::to_writer(&mut *out, self)?;
            writeln!(out)?;
        } else {
            self.print_text(mode, render, out)?;
        }
        out.flush()?;
        Ok(())
    }
}

/// How much of a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// everything (text: solutions, summary, details, `c` lines), the
    /// solutions' drawings up to `cap` bytes in all (None: every one)
    Full {
        /// bytes of drawn solutions, at most
        cap: Option<usize>,
    },
    /// `-q`: the summary and the details' answer lines, no solutions
    Quiet,
    /// `--count`: the summary line only (JSON: `solutions` empty)
    Count,
}

impl Default for Output {
    /// Everything, the drawings capped at [`PRINT_CAP_BYTES`].
    fn default() -> Self {
        Output::Full {
            cap: Some(PRINT_CAP_BYTES),
        }
    }
}

/// The default cap on the text of the solutions `solve` draws (`--print
/// capped`): 100 kB, about 1,500 magic 4×4 squares (an Enigma board of
/// n = 400 alone is 963 kB); what is past it is counted in a note, not
/// printed.
pub const PRINT_CAP_BYTES: usize = 100_000;

fn kilobytes(bytes: usize) -> String {
    format!("{:.0} kB", (bytes as f64 / 1000.0).ceil())
}

/// "1 class", "2 classes": `n` and the word for that many.
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `counted_as` in the number `n` of: "1 solution", "1 symmetry class
/// (one lex-leader representative)", "2 symmetry classes (…)".
fn counted_noun(what: &str, n: u64) -> String {
    if n == 1 {
        let (head, tail) = what.split_once(" (").unwrap_or((what, ""));
        let head = head
            .strip_suffix("classes")
            .map(|h| format!("{h}class"))
            .or_else(|| head.strip_suffix("matrices").map(|h| format!("{h}matrix")))
            .or_else(|| head.strip_suffix('s').map(str::to_string))
            .unwrap_or_else(|| head.to_string());
        match tail {
            "" => head,
            t => format!("{head} ({}", t.replace(" each", "")),
        }
    } else {
        what.to_string()
    }
}

/// A map of named values, for details built at run time.
pub type DetailMap = BTreeMap<String, serde_json::Value>;

/// What a cube file line ([`crate::drive::cubes`]) says about its cube, besides the report's
/// `objective` (the cube's best value, if any) and `bound` (no model of the
/// cube is better; None on an improvement line, written mid-search).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CubeRecord {
    /// which cube, 0-based
    pub index: u32,
    /// of how many
    pub cubes: u32,
    /// the splitting literals (DIMACS numbers): cube `index` assumes the
    /// j-th where bit j of `index` is set, its negation where it is not
    pub literals: Vec<i32>,
    /// the best value of the whole run when this line was written
    #[serde(deserialize_with = "Option::deserialize")]
    pub incumbent: Option<i64>,
    /// the cube needs no more search: its bound is no better than the
    /// incumbent (or, with none, the cube has no model)
    pub closed: bool,
    /// the model of `objective` over the formula's variables, as hex digits
    /// (variable 4k+b is bit b of digit k)
    #[serde(deserialize_with = "Option::deserialize")]
    pub witness: Option<String>,
    /// the build that wrote the line: `puzzlesat VERSION (commit C)`
    /// ([`crate::drive::cubes::BUILD`])
    pub build: String,
    /// [`crate::certify::formula_digest`] of the puzzle's CNF
    pub cnf: String,
    /// a digest of what the line says and what it is about: the puzzle and
    /// its options, `build`, `cnf`, the cube's literals, `objective`,
    /// `bound`, `closed` and `witness` (a line edited by hand no longer
    /// matches it; [`crate::drive::cubes`])
    pub fingerprint: String,
}

/// What the claim of a cube run (`--cubes`, [`crate::drive::cubes`]) rests
/// on: how many cubes this run closed by its own UNSAT answers, and how many
/// rest on the cube file's records as they were written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CubeTally {
    /// cubes of the split
    pub cubes: u32,
    /// closed by this run's search (its UNSAT answers)
    pub closed_now: u32,
    /// closed by records of the cube file and proven again in this run
    /// (`--certify`: the cube's formula re-derived, re-proved and checked)
    pub rechecked: u32,
    /// closed by records of the cube file, taken as written
    pub from_file: u32,
    /// of `from_file`: records whose line carries a certificate (checked
    /// by the run that wrote it, not by this one)
    pub certified_in_file: u32,
    /// the cube file
    #[serde(deserialize_with = "Option::deserialize")]
    pub file: Option<String>,
    /// the builds and CNF digests that wrote the records relied on
    pub written_by: Vec<String>,
    /// some of those records are of another build or CNF, taken because
    /// `--trust-cube-file` was given
    pub trusted: bool,
    /// with `--certify`: the cover check of the cubes (certify::Cover)
    #[serde(deserialize_with = "Option::deserialize")]
    pub cover: Option<String>,
}

impl CubeTally {
    /// "4 cubes closed by the records of f.jsonl (written by …), taken as
    /// written": None when no record is relied on.
    pub fn from_file(&self) -> Option<String> {
        (self.from_file > 0).then(|| {
            let certified = match self.certified_in_file {
                0 => String::new(),
                k if k == self.from_file => ", certified when written".to_string(),
                k => format!(", {k} of them certified when written"),
            };
            format!(
                "{} closed by the records of {} (written by {}), {}{certified}",
                plural(self.from_file, "cube", "cubes"),
                self.file.as_deref().unwrap_or("the cube file"),
                self.written_by.join("; "),
                if self.trusted {
                    "trusted (--trust-cube-file), not re-proved"
                } else {
                    "taken as written, not re-proved"
                }
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_strictness() {
        let mut r: Report<Vec<u32>, NoDetails> =
            Report::new("p n=3".into(), "batsat".into(), "solutions");
        r.status = Status::Optimal;
        r.objective = Some(15);
        r.seconds.encode = 0.5;
        r.seconds.certify = 0.25;
        r.seconds.close(2.0);
        assert_eq!(r.seconds.other, 1.25);
        let line = serde_json::to_string(&r).unwrap();
        let back: Report<serde_json::Value> = Report::from_json_line(&line).unwrap();
        assert_eq!((back.status, back.objective), (Status::Optimal, Some(15)));
        // a missing optional field is an error, not a silent None
        let missing = line.replace("\"objective\":15,", "");
        let e = Report::<serde_json::Value>::from_json_line(&missing).unwrap_err();
        assert!(e.to_string().contains("objective"), "{e}");
        // a missing phase (a schema 4 report had no `certify`) is an error
        let no_phase = line.replace("\"certify\":0.25,", "");
        assert!(no_phase.len() < line.len());
        let e = Report::<serde_json::Value>::from_json_line(&no_phase).unwrap_err();
        assert!(e.to_string().contains("certify"), "{e}");
        // an unknown field is an error
        let unknown = line.replace("\"objective\":15", "\"objectiv\":15,\"objective\":15");
        let e = Report::<serde_json::Value>::from_json_line(&unknown).unwrap_err();
        assert!(e.to_string().contains("objectiv"), "{e}");
        // another schema version is refused
        let old = line.replace(
            &format!("\"schema_version\":{SCHEMA_VERSION}"),
            "\"schema_version\":1",
        );
        assert!(Report::<serde_json::Value>::from_json_line(&old).is_err());
    }

    #[test]
    fn plurals_and_count_mode() {
        let mut r: Report<u32, NoDetails> = Report::new("p".into(), "b".into(), "solutions");
        r.status = Status::All;
        r.count = Some(1);
        r.solutions = vec![7];
        assert_eq!(r.summary(), "exactly 1 solution (complete: final UNSAT)");
        r.counted_as = "symmetry classes (one lex-leader representative each)".into();
        assert_eq!(
            r.summary(),
            "exactly 1 symmetry class (one lex-leader representative) (complete: final UNSAT)"
        );
        r.count = Some(2);
        r.solutions = vec![7, 8];
        assert!(r
            .summary()
            .starts_with("exactly 2 symmetry classes (one lex-leader representative each)"));
        let text = |r: &Report<u32, NoDetails>, mode| {
            let mut out = vec![];
            r.print(false, mode, |s| format!("<{s}>"), &mut out)
                .unwrap();
            String::from_utf8(out).unwrap()
        };
        let full = text(&r, Output::default());
        assert!(
            full.contains("solution 1 of 2\n<7>\nsolution 2 of 2\n<8>\n"),
            "{full}"
        );
        assert_eq!(text(&r, Output::Count), format!("{}\n", r.summary()));
        assert_eq!(text(&r, Output::Quiet), format!("{}\n", r.summary()));
        r.status = Status::Partial;
        assert!(text(&r, Output::default()).contains("solution 2\n<8>"));
    }

    #[test]
    fn a_cube_claim_says_what_it_rests_on() {
        let mut r: Report<u32, NoDetails> = Report::new("p".into(), "b".into(), "solutions");
        (r.status, r.objective) = (Status::Optimal, Some(263));
        let mut t = CubeTally {
            cubes: 4,
            closed_now: 4,
            file: Some("f.jsonl".into()),
            written_by: vec!["puzzlesat 0.1.0 (commit c), CNF d".into()],
            ..CubeTally::default()
        };
        r.cubes = Some(t.clone());
        assert_eq!(
            r.summary(),
            "optimal: 263 (proven: no better solution, UNSAT)"
        );
        (t.closed_now, t.from_file) = (0, 4);
        r.cubes = Some(t.clone());
        assert_eq!(
            r.summary(),
            "optimal: 263 (not proven in this run: all 4 cubes closed by the records of f.jsonl (written by puzzlesat 0.1.0 (commit c), CNF d), taken as written, not re-proved)"
        );
        (t.closed_now, t.from_file, t.trusted, t.certified_in_file) = (1, 3, true, 2);
        r.cubes = Some(t.clone());
        assert_eq!(
            r.summary(),
            "optimal: 263 (proven in this run for 1 of 4 cubes: no better solution, UNSAT; the other 3 cubes closed by the records of f.jsonl (written by puzzlesat 0.1.0 (commit c), CNF d), trusted (--trust-cube-file), not re-proved, 2 of them certified when written)"
        );
        (t.closed_now, t.from_file, t.rechecked) = (1, 0, 3);
        r.cubes = Some(t);
        r.certificates = Some(vec![]);
        assert_eq!(
            r.summary(),
            "optimal: 263 (proven: no better solution, UNSAT (1 closed in this run, 3 records of f.jsonl proven again))"
        );
    }

    #[test]
    fn exit_codes() {
        let codes: Vec<u8> = [
            Status::Optimal,
            Status::Sat,
            Status::All,
            Status::Partial,
            Status::Unsat,
            Status::Unknown,
        ]
        .map(Status::exit_code)
        .to_vec();
        assert_eq!(codes, [10, 10, 10, 10, 20, 0]);
    }
}
