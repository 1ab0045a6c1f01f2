//! One row of results: a job's parameters, how its worker ended, and the
//! numbers of its `--json` report. The same function builds a row whether
//! the worker ran here ([`super::worker`]) or on a cluster (`--collect`), so
//! both give the same table.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::grid::{Grid, Job};
use crate::certify::Certificate;
use crate::report::{Phases, Report, Status};

/// How a worker process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// exited with this code
    Code(i32),
    /// killed by this signal (not by us)
    Signal(i32),
    /// killed by the runner (or `timeout`) at the wall-clock limit
    TimedOut,
}

/// What a finished worker left behind.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// its standard output (the JSON report)
    pub stdout: String,
    /// its standard error
    pub stderr: String,
    /// how it ended
    pub exit: Exit,
    /// wall-clock seconds, when measured here
    pub wall_seconds: Option<f64>,
    /// peak resident set size in KiB (wait4's ru_maxrss), when measured here
    pub peak_rss_kib: Option<u64>,
}

puzzlesat_encodings::option_enum! {
    /// A row's status: the report's [`Status`], or how the runner saw the
    /// worker fail.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum RowStatus("row status") {
        /// [`Status::Optimal`]
        Optimal = "optimal",
        /// [`Status::Sat`]
        Sat = "sat",
        /// [`Status::Unsat`]
        Unsat = "unsat",
        /// [`Status::All`]
        All = "all",
        /// [`Status::Partial`]
        Partial = "partial",
        /// [`Status::Unknown`]
        Unknown = "unknown",
        /// killed at the wall-clock limit
        Timeout = "timeout",
        /// out of memory under the address-space limit
        Memout = "memout",
        /// killed by a signal
        Crash = "crash",
        /// exited without a report, or with one that does not parse
        Error = "error",
    }
}

impl From<Status> for RowStatus {
    fn from(s: Status) -> Self {
        match s {
            Status::Optimal => RowStatus::Optimal,
            Status::Sat => RowStatus::Sat,
            Status::Unsat => RowStatus::Unsat,
            Status::All => RowStatus::All,
            Status::Partial => RowStatus::Partial,
            Status::Unknown => RowStatus::Unknown,
        }
    }
}

impl RowStatus {
    /// An answer a longer run would not change (for `sat`, see
    /// [`Row::solved`]).
    pub fn is_answer(self) -> bool {
        matches!(
            self,
            RowStatus::Optimal | RowStatus::Sat | RowStatus::Unsat | RowStatus::All
        )
    }
}

/// What a worker that ran out of memory under the address-space limit
/// prints: Rust's allocation failure, C/C++ and Python's.
const MEMORY_FAILURES: &[&str] = &[
    "memory allocation of",
    "out of memory",
    "Out of memory",
    "Cannot allocate memory",
    "bad_alloc",
    "MemoryError",
];

/// One run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// stable id (hash of the key): the worker's output files are `<id>.json`
    pub id: String,
    /// experiment name
    pub experiment: String,
    /// the `solve` subcommand
    pub puzzle: String,
    /// every option of the run, by flag name
    pub params: BTreeMap<String, String>,
    /// repeat index
    pub repeat: u32,
    /// seed given to the worker (None: no `--seed`)
    pub seed: Option<u64>,
    /// the report's status, or how the runner saw the worker fail
    pub status: RowStatus,
    /// why a run failed (last line of its stderr)
    pub message: Option<String>,
    /// the instance as the puzzle describes it
    pub instance: Option<String>,
    /// backend name as the worker reports it
    pub solver_name: Option<String>,
    /// best objective found
    pub objective: Option<i64>,
    /// proven bound
    pub bound: Option<i64>,
    /// solutions counted (with `--all`)
    pub count: Option<u64>,
    /// variables of the encoding
    pub vars: Option<u64>,
    /// clauses of the encoding
    pub clauses: Option<u64>,
    /// literal occurrences of the encoding
    pub literals: Option<u64>,
    /// the worker's seconds per phase (its own measure; total is its
    /// process's wall time)
    pub seconds: Option<Phases>,
    /// wall-clock seconds of the whole worker process (measured here)
    pub wall_seconds: Option<f64>,
    /// SAT calls
    pub sat_calls: Option<u64>,
    /// SAT answers (models returned)
    pub sat_answers: Option<u64>,
    /// models rejected by lazily added constraints
    pub lazy_constraints: Option<u64>,
    /// conflicts
    pub conflicts: Option<u64>,
    /// decisions
    pub decisions: Option<u64>,
    /// propagations
    pub propagations: Option<u64>,
    /// peak resident memory of the worker, MiB (measured here)
    pub peak_rss_mib: Option<f64>,
    /// with `--certify`: UNSAT answers certified
    pub certificates: Option<u64>,
    /// with `--certify`: bytes of their proofs
    pub proof_bytes: Option<u64>,
    /// with `--certify`: seconds of their proof-logging solves
    pub proof_seconds: Option<f64>,
    /// with `--certify`: seconds of their checks
    pub check_seconds: Option<f64>,
    /// exit code or signal of the worker
    pub exit: String,
    /// wall-clock limit of the run
    pub timeout: f64,
    /// the runner that made the row
    pub version: String,
}

impl Row {
    /// Builds the row of `job` from what its worker left.
    pub fn from_outcome(grid: &Grid, job: &Job, out: &Outcome) -> Row {
        let mut row = Row {
            id: job.id.clone(),
            experiment: grid.name.clone(),
            puzzle: grid.puzzle.clone(),
            params: job.params.iter().cloned().collect(),
            repeat: job.repeat,
            seed: job.seed,
            status: RowStatus::Error,
            message: None,
            instance: None,
            solver_name: None,
            objective: None,
            bound: None,
            count: None,
            vars: None,
            clauses: None,
            literals: None,
            seconds: None,
            wall_seconds: out.wall_seconds,
            sat_calls: None,
            sat_answers: None,
            lazy_constraints: None,
            conflicts: None,
            decisions: None,
            propagations: None,
            peak_rss_mib: out
                .peak_rss_kib
                .map(|k| (k as f64 / 1024.0 * 10.0).round() / 10.0),
            certificates: None,
            proof_bytes: None,
            proof_seconds: None,
            check_seconds: None,
            exit: match out.exit {
                Exit::Code(c) => format!("exit {c}"),
                Exit::Signal(s) => format!("signal {s}"),
                Exit::TimedOut => "killed at timeout".into(),
            },
            timeout: grid.timeout,
            version: concat!("puzzlesat ", env!("CARGO_PKG_VERSION")).into(),
        };
        // the report is the last line of stdout, read strictly: a missing or
        // unknown field is an error row, never a silent gap
        let report = out
            .stdout
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(Report::<serde_json::Value>::from_json_line);
        // the line that says what went wrong: the last `error…` or panic
        // line (clap ends with a usage hint), else the last line
        let lines: Vec<&str> = out
            .stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let last_err = lines
            .iter()
            .rev()
            .find(|l| l.to_ascii_lowercase().starts_with("error") || l.contains("panicked"))
            .or(lines.last())
            .map(|l| l.chars().take(300).collect::<String>());
        match (out.exit, report) {
            (Exit::TimedOut, _) => {
                row.status = RowStatus::Timeout;
                row.message = Some(format!("no answer within {}s (killed)", grid.timeout));
            }
            (_, Some(Ok(r))) => {
                row.status = r.status.into();
                if let Some(c) = &r.cube {
                    // a cluster job (--cube I): its status is its cube's
                    row.message = Some(format!(
                        "cube {} of {}: the status and numbers are the cube's, not the puzzle's (docs/cubes.md)",
                        c.index, c.cubes
                    ));
                }
                row.instance = Some(r.puzzle);
                row.solver_name = Some(r.solver);
                row.objective = r.objective;
                row.bound = r.bound;
                row.count = r.count;
                row.vars = Some(r.vars.into());
                row.clauses = Some(r.clauses as u64);
                row.literals = Some(r.literals as u64);
                row.seconds = Some(r.seconds);
                row.sat_calls = Some(r.sat_calls.into());
                row.sat_answers = Some(r.sat_answers.into());
                row.lazy_constraints = Some(r.lazy_constraints);
                row.conflicts = r.stats.conflicts;
                row.decisions = r.stats.decisions;
                row.propagations = r.stats.propagations;
                if let Some(cs) = &r.certificates {
                    let sum =
                        |f: fn(&Certificate) -> f64| cs.iter().map(|c| f(&c.certificate)).sum();
                    row.certificates = Some(cs.len() as u64);
                    row.proof_bytes = Some(cs.iter().map(|c| c.certificate.proof_bytes).sum());
                    row.proof_seconds = Some(sum(|c| c.solve_seconds));
                    row.check_seconds = Some(sum(|c| c.check_seconds));
                }
            }
            (_, Some(Err(e))) => {
                row.status = RowStatus::Error;
                row.message = Some(format!("the worker's JSON report does not parse: {e}"));
            }
            (exit, None) => {
                let memory = MEMORY_FAILURES.iter().any(|m| out.stderr.contains(m));
                row.status = match exit {
                    _ if memory => RowStatus::Memout,
                    Exit::Signal(_) => RowStatus::Crash,
                    _ => RowStatus::Error,
                };
                row.message = Some(match (exit, last_err) {
                    (Exit::Signal(s), Some(e)) => format!("killed by signal {s}: {e}"),
                    (Exit::Signal(s), None) => format!("killed by signal {s}"),
                    (_, Some(e)) => e,
                    (_, None) => "no JSON report on stdout".into(),
                });
            }
        }
        row
    }

    /// Solved: an answer that a longer run would not change. A `sat` row of
    /// an optimisation run whose objective is short of its proven bound is
    /// not solved (the worker's time limit came before the optimality proof).
    pub fn solved(&self) -> bool {
        self.status.is_answer() && !self.unproven()
    }

    /// A `sat` answer of an optimisation run without the optimality proof.
    pub fn unproven(&self) -> bool {
        self.status == RowStatus::Sat
            && self.objective.is_some()
            && self.bound.is_some()
            && self.objective != self.bound
    }

    /// The status for summaries: `sat` without the proof reads `sat (not proven)`.
    pub fn status_label(&self) -> String {
        if self.unproven() {
            "sat (not proven)".into()
        } else {
            self.status.to_string()
        }
    }

    /// Time the summaries use: the worker process's whole wall time (its
    /// report's total, from process start; else as measured here); the
    /// wall-clock limit for unsolved rows.
    pub fn time(&self) -> f64 {
        if !self.solved() {
            return self.timeout;
        }
        self.seconds
            .map(|s| s.total)
            .or(self.wall_seconds)
            .unwrap_or(self.timeout)
    }

    /// The row's options other than the size, as "k=v k=v" (in `names` order).
    pub fn config(&self, names: &[String]) -> String {
        let parts: Vec<String> = names
            .iter()
            .map(|k| {
                format!(
                    "{k}={}",
                    self.params.get(k).map(String::as_str).unwrap_or("-")
                )
            })
            .collect();
        if parts.is_empty() {
            "all".into()
        } else {
            parts.join(" ")
        }
    }
}

/// CSV columns after the parameters.
const CSV_TAIL: &[&str] = &[
    "repeat",
    "seed",
    "status",
    "objective",
    "bound",
    "count",
    "vars",
    "clauses",
    "literals",
    "encode_seconds",
    "load_seconds",
    "bounds_seconds",
    "solve_seconds",
    "separate_seconds",
    "decode_check_seconds",
    "certify_seconds",
    "other_seconds",
    "total_seconds",
    "wall_seconds",
    "sat_calls",
    "sat_answers",
    "lazy_constraints",
    "conflicts",
    "decisions",
    "propagations",
    "peak_rss_mib",
    "certificates",
    "proof_bytes",
    "proof_seconds",
    "check_seconds",
    "exit",
    "timeout",
    "solver_name",
    "instance",
    "message",
    "version",
    "id",
];

/// The CSV header: experiment, puzzle, one column per parameter, then the
/// numbers.
pub fn csv_header(param_names: &[String]) -> String {
    let mut cols: Vec<String> = vec!["experiment".into(), "puzzle".into()];
    cols.extend(param_names.iter().cloned());
    cols.extend(CSV_TAIL.iter().map(|s| s.to_string()));
    cols.iter()
        .map(|c| csv_field(c))
        .collect::<Vec<_>>()
        .join(",")
}

/// One CSV line (no newline) with the columns of [`csv_header`].
pub fn csv_line(row: &Row, param_names: &[String]) -> String {
    fn o<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map(T::to_string).unwrap_or_default()
    }
    let mut cols: Vec<String> = vec![row.experiment.clone(), row.puzzle.clone()];
    cols.extend(
        param_names
            .iter()
            .map(|k| row.params.get(k).cloned().unwrap_or_default()),
    );
    let phase = |f: fn(&Phases) -> f64| o(&row.seconds.as_ref().map(f));
    cols.extend([
        row.repeat.to_string(),
        o(&row.seed),
        row.status.to_string(),
        o(&row.objective),
        o(&row.bound),
        o(&row.count),
        o(&row.vars),
        o(&row.clauses),
        o(&row.literals),
        phase(|p| p.encode),
        phase(|p| p.load),
        phase(|p| p.bounds),
        phase(|p| p.solve),
        phase(|p| p.separate),
        phase(|p| p.decode_check),
        phase(|p| p.certify),
        phase(|p| p.other),
        phase(|p| p.total),
        o(&row.wall_seconds),
        o(&row.sat_calls),
        o(&row.sat_answers),
        o(&row.lazy_constraints),
        o(&row.conflicts),
        o(&row.decisions),
        o(&row.propagations),
        o(&row.peak_rss_mib),
        o(&row.certificates),
        o(&row.proof_bytes),
        o(&row.proof_seconds),
        o(&row.check_seconds),
        row.exit.clone(),
        row.timeout.to_string(),
        o(&row.solver_name),
        o(&row.instance),
        o(&row.message),
        row.version.clone(),
        row.id.clone(),
    ]);
    cols.iter()
        .map(|c| csv_field(c))
        .collect::<Vec<_>>()
        .join(",")
}

/// RFC 4180 quoting.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        Grid::from_spec(
            toml::from_str("puzzle = \"p\"\nsizes = [3]\ntimeout = 5").unwrap(),
            "t",
        )
        .unwrap()
    }

    fn outcome(stdout: &str, stderr: &str, exit: Exit) -> Outcome {
        Outcome {
            stdout: stdout.into(),
            stderr: stderr.into(),
            exit,
            wall_seconds: Some(0.5),
            peak_rss_kib: Some(2048),
        }
    }

    /// A worker's report line.
    fn report(status: Status, objective: Option<i64>, bound: Option<i64>) -> String {
        let mut r: Report<Vec<u32>, crate::report::NoDetails> =
            Report::new("p n=3".into(), "batsat".into(), "solutions");
        r.status = status;
        (r.objective, r.bound) = (objective, bound);
        (r.vars, r.clauses, r.literals, r.sat_calls) = (10, 20, 50, 3);
        r.stats.conflicts = Some(7);
        r.seconds.encode = 0.1;
        r.seconds.solve = 0.2;
        r.seconds.close(0.4);
        r.solutions.push(vec![1]);
        serde_json::to_string(&r).unwrap()
    }

    #[test]
    fn report_fields_become_columns() {
        let g = grid();
        let job = &g.expand()[0];
        let json = report(Status::Optimal, Some(15), Some(15));
        let row = Row::from_outcome(&g, job, &outcome(&json, "c improved", Exit::Code(10)));
        assert_eq!(
            (row.status, row.objective, row.clauses, row.conflicts),
            (RowStatus::Optimal, Some(15), Some(20), Some(7))
        );
        assert_eq!(row.peak_rss_mib, Some(2.0));
        // the time is the whole process's, not encode + solve
        assert_eq!(row.time(), 0.4);
        assert_eq!(row.seconds.map(|s| s.total), Some(0.4));
        let header = csv_header(&["n".into()]);
        let line = csv_line(&row, &["n".into()]);
        assert_eq!(header.split(',').count(), line.split(',').count());
        assert!(
            line.starts_with("t,p,3,0,,optimal,15,15,,10,20,50,0.1,"),
            "{line}"
        );
    }

    #[test]
    fn a_report_with_a_missing_or_unknown_field_is_an_error_row() {
        let g = grid();
        let job = &g.expand()[0];
        let json = report(Status::Optimal, Some(15), Some(15));
        for bad in [
            json.replace("\"bound\":15,", ""),
            json.replace("\"bound\":15", "\"bound\":15,\"extra\":1"),
        ] {
            let row = Row::from_outcome(&g, job, &outcome(&bad, "", Exit::Code(10)));
            assert_eq!(row.status, RowStatus::Error, "{bad}");
            assert!(row.message.unwrap().contains("does not parse"));
            assert_eq!(row.objective, None);
        }
    }

    #[test]
    fn failures_are_classified() {
        let g = grid();
        let job = &g.expand()[0];
        let status = |o: Outcome| Row::from_outcome(&g, job, &o);
        let unproven = report(Status::Sat, Some(702), Some(760));
        let r = status(outcome(&unproven, "", Exit::Code(10)));
        assert!(!r.solved() && r.unproven());
        assert_eq!(
            (r.time(), r.status_label().as_str()),
            (5.0, "sat (not proven)")
        );
        let decision = report(Status::Sat, None, None);
        assert!(status(outcome(&decision, "", Exit::Code(10))).solved());
        let r = status(outcome("", "", Exit::TimedOut));
        assert_eq!((r.status, r.time()), (RowStatus::Timeout, 5.0));
        let r = status(outcome("", "boom\n", Exit::Signal(11)));
        assert_eq!(
            (r.status, r.message.as_deref()),
            (RowStatus::Crash, Some("killed by signal 11: boom"))
        );
        assert_eq!(
            status(outcome(
                "",
                "memory allocation of 8 bytes failed",
                Exit::Signal(6)
            ))
            .status,
            RowStatus::Memout
        );
        let clap = "error: unexpected argument '--x' found\n\nUsage: puzzlesat solve\n\nFor more information, try '--help'.\n";
        let r = status(outcome("", clap, Exit::Code(2)));
        assert_eq!(
            r.message.as_deref(),
            Some("error: unexpected argument '--x' found")
        );
        let r = status(outcome("", "error: unknown flag --x\n\n", Exit::Code(2)));
        assert_eq!(
            (r.status, r.message.as_deref()),
            (RowStatus::Error, Some("error: unknown flag --x"))
        );
        assert!(status(outcome("not json", "", Exit::Code(0)))
            .message
            .unwrap()
            .starts_with("the worker's JSON report does not parse"));
        assert!(csv_line(&r, &[]).contains("error: unknown flag --x"));
    }
}
