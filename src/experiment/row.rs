//! One row of results: a job's parameters, how its worker ended, and the
//! numbers of its `--json` report. The same function builds a row whether
//! the worker ran here ([`super::worker`]) or on a cluster (`--collect`), so
//! both give the same table.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::grid::{Grid, Job};

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

/// Statuses a row can have: the report's (`optimal`, `sat`, `unsat`, `all`,
/// `partial`, `unknown`) or the runner's (`timeout`, `memout`, `crash`,
/// `error`).
pub const SOLVED: &[&str] = &["optimal", "sat", "unsat", "all"];

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
    /// seed given to the worker
    pub seed: u64,
    /// optimal/sat/unsat/all/partial/unknown (from the report), or
    /// timeout/memout/crash/error (from the runner)
    pub status: String,
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
    /// encoding seconds (worker's own measure)
    pub encode_seconds: Option<f64>,
    /// solver seconds (worker's own measure)
    pub solve_seconds: Option<f64>,
    /// wall-clock seconds of the whole worker process (measured here)
    pub wall_seconds: Option<f64>,
    /// SAT calls
    pub sat_calls: Option<u64>,
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

/// The fields of `run::Report` a row keeps (solutions are left out).
#[derive(Deserialize)]
struct ReportFields {
    puzzle: Option<String>,
    solver: Option<String>,
    status: String,
    objective: Option<i64>,
    bound: Option<i64>,
    count: Option<u64>,
    vars: Option<u64>,
    clauses: Option<u64>,
    literals: Option<u64>,
    encode_seconds: Option<f64>,
    solve_seconds: Option<f64>,
    sat_calls: Option<u64>,
    #[serde(default)]
    stats: StatsFields,
    certificates: Option<Vec<CertificateFields>>,
}

#[derive(Deserialize)]
struct CertificateFields {
    proof_bytes: u64,
    solve_seconds: f64,
    check_seconds: f64,
}

#[derive(Default, Deserialize)]
struct StatsFields {
    conflicts: Option<u64>,
    decisions: Option<u64>,
    propagations: Option<u64>,
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
            status: String::new(),
            message: None,
            instance: None,
            solver_name: None,
            objective: None,
            bound: None,
            count: None,
            vars: None,
            clauses: None,
            literals: None,
            encode_seconds: None,
            solve_seconds: None,
            wall_seconds: out.wall_seconds,
            sat_calls: None,
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
        let report = out
            .stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str::<ReportFields>(l.trim()).ok());
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
                row.status = "timeout".into();
                row.message = Some(format!("no answer within {}s (killed)", grid.timeout));
            }
            (_, Some(r)) => {
                row.status = r.status;
                row.instance = r.puzzle;
                row.solver_name = r.solver;
                row.objective = r.objective;
                row.bound = r.bound;
                row.count = r.count;
                row.vars = r.vars;
                row.clauses = r.clauses;
                row.literals = r.literals;
                row.encode_seconds = r.encode_seconds;
                row.solve_seconds = r.solve_seconds;
                row.sat_calls = r.sat_calls;
                row.conflicts = r.stats.conflicts;
                row.decisions = r.stats.decisions;
                row.propagations = r.stats.propagations;
                if let Some(cs) = &r.certificates {
                    row.certificates = Some(cs.len() as u64);
                    row.proof_bytes = Some(cs.iter().map(|c| c.proof_bytes).sum());
                    row.proof_seconds = Some(cs.iter().map(|c| c.solve_seconds).sum());
                    row.check_seconds = Some(cs.iter().map(|c| c.check_seconds).sum());
                }
            }
            (exit, None) => {
                let memory = MEMORY_FAILURES.iter().any(|m| out.stderr.contains(m));
                row.status = match exit {
                    _ if memory => "memout",
                    Exit::Signal(_) => "crash",
                    _ => "error",
                }
                .into();
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
        SOLVED.contains(&self.status.as_str()) && !self.unproven()
    }

    /// A `sat` answer of an optimisation run without the optimality proof.
    pub fn unproven(&self) -> bool {
        self.status == "sat"
            && self.objective.is_some()
            && self.bound.is_some()
            && self.objective != self.bound
    }

    /// The status for summaries: `sat` without the proof reads `sat (not proven)`.
    pub fn status_label(&self) -> String {
        if self.unproven() {
            "sat (not proven)".into()
        } else {
            self.status.clone()
        }
    }

    /// Time the summaries use: encode + solve as the worker measured them;
    /// the wall-clock limit for unsolved rows.
    pub fn time(&self) -> f64 {
        if !self.solved() {
            return self.timeout;
        }
        match (self.encode_seconds, self.solve_seconds) {
            (Some(e), Some(s)) => e + s,
            _ => self.wall_seconds.unwrap_or(self.timeout),
        }
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
    "solve_seconds",
    "wall_seconds",
    "sat_calls",
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
    cols.extend([
        row.repeat.to_string(),
        row.seed.to_string(),
        row.status.clone(),
        o(&row.objective),
        o(&row.bound),
        o(&row.count),
        o(&row.vars),
        o(&row.clauses),
        o(&row.literals),
        o(&row.encode_seconds),
        o(&row.solve_seconds),
        o(&row.wall_seconds),
        o(&row.sat_calls),
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

    #[test]
    fn report_fields_become_columns() {
        let g = grid();
        let job = &g.expand()[0];
        let json = r#"{"puzzle":"p n=3","solver":"batsat","status":"optimal","objective":15,"bound":15,"solutions":[[1]],"count":null,"vars":10,"clauses":20,"literals":50,"encode_seconds":0.1,"solve_seconds":0.2,"sat_calls":3,"stats":{"conflicts":7,"decisions":8,"propagations":9}}"#;
        let row = Row::from_outcome(&g, job, &outcome(json, "c improved", Exit::Code(10)));
        assert_eq!(
            (
                row.status.as_str(),
                row.objective,
                row.clauses,
                row.conflicts
            ),
            ("optimal", Some(15), Some(20), Some(7))
        );
        assert_eq!(row.peak_rss_mib, Some(2.0));
        assert!((row.time() - 0.3).abs() < 1e-9);
        let header = csv_header(&["n".into()]);
        let line = csv_line(&row, &["n".into()]);
        assert_eq!(header.split(',').count(), line.split(',').count());
        assert!(line.starts_with("t,p,3,0,0,optimal,15,15,,10,20,50,"));
    }

    #[test]
    fn failures_are_classified() {
        let g = grid();
        let job = &g.expand()[0];
        let status = |o: Outcome| Row::from_outcome(&g, job, &o);
        let unproven = r#"{"status":"sat","objective":702,"bound":760,"vars":1,"clauses":2}"#;
        let r = status(outcome(unproven, "", Exit::Code(10)));
        assert!(!r.solved() && r.unproven());
        assert_eq!(
            (r.time(), r.status_label().as_str()),
            (5.0, "sat (not proven)")
        );
        let decision = r#"{"status":"sat","objective":null,"bound":null}"#;
        assert!(status(outcome(decision, "", Exit::Code(10))).solved());
        let r = status(outcome("", "", Exit::TimedOut));
        assert_eq!((r.status.as_str(), r.time()), ("timeout", 5.0));
        let r = status(outcome("", "boom\n", Exit::Signal(11)));
        assert_eq!(
            (r.status.as_str(), r.message.as_deref()),
            ("crash", Some("killed by signal 11: boom"))
        );
        assert_eq!(
            status(outcome(
                "",
                "memory allocation of 8 bytes failed",
                Exit::Signal(6)
            ))
            .status,
            "memout"
        );
        let clap = "error: unexpected argument '--x' found\n\nUsage: puzzlesat solve\n\nFor more information, try '--help'.\n";
        let r = status(outcome("", clap, Exit::Code(2)));
        assert_eq!(
            r.message.as_deref(),
            Some("error: unexpected argument '--x' found")
        );
        let r = status(outcome("", "error: unknown flag --x\n\n", Exit::Code(2)));
        assert_eq!(
            (r.status.as_str(), r.message.as_deref()),
            ("error", Some("error: unknown flag --x"))
        );
        assert_eq!(
            status(outcome("not json", "", Exit::Code(0)))
                .message
                .as_deref(),
            Some("no JSON report on stdout")
        );
        assert!(
            csv_line(&r, &[]).contains("\"error: unknown flag --x\"")
                || csv_line(&r, &[]).contains("error: unknown flag --x")
        );
    }
}
