//! Any DIMACS SAT solver executable as a backend (`--solver
//! external:cadical`, `external:/path/to/kissat`, `external:cadical -q`:
//! the text after `external:` is split on whitespace into the program and
//! its arguments).
//!
//! Each solve call writes every clause added so far, plus the assumptions
//! as unit clauses, to a temporary DIMACS file, runs `PROGRAM ARGS
//! FILE.cnf` and reads its SAT-competition `s`/`v` lines from stdout
//! ([`crate::io::solver_output::parse`]). MiniSat and Glucose print no
//! `v` lines: a program whose file name starts with `minisat` or
//! `glucose` is run as `PROGRAM ARGS FILE.cnf RESULT.txt` and its result
//! file is read instead ([`crate::io::solver_output::parse_minisat`]).
//!
//! Not incremental (every call starts from scratch); after an UNSAT answer
//! under assumptions every assumption is reported as failed. The time limit
//! and the interrupt flag are enforced by killing the process (answer
//! [`Outcome::Unknown`]). A missing binary, a crash, a non-zero exit without
//! an answer, garbage output, or a model that falsifies a clause or an
//! assumption is a [`SolverError`], never a panic nor a wrong answer.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::Duration;

use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

use super::{Backend, Limits, Outcome, SolverError, SolverStats};
use crate::io::dimacs::write_clauses;
use crate::io::solver_output::{self, SolverAnswer};

/// How the program reports its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutputStyle {
    /// `s`/`v` lines on stdout (CaDiCaL, Kissat, PicoSAT, Lingeling, ...)
    Competition,
    /// a result file named as the second argument (MiniSat, Glucose)
    MinisatFile,
}

/// The external backend: a command line and the clauses to hand it.
pub struct External {
    spec: String,
    program: PathBuf,
    args: Vec<String>,
    style: OutputStyle,
    clauses: Cnf,
    model: Option<Assignment>,
    core: Vec<Lit>,
}

/// Finds `program` on PATH (or checks the path if it names a file).
fn resolve(program: &str) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join(program)).find(|c| c.is_file()))
}

impl External {
    /// A backend running `spec` (program and arguments, whitespace
    /// separated). Fails if the program is not found.
    pub fn new(spec: &str) -> Result<Self, SolverError> {
        let mut words = spec.split_whitespace();
        let Some(program) = words.next() else {
            return Err(SolverError::UnknownSolver(format!("external:{spec}")));
        };
        let resolved = resolve(program).ok_or_else(|| SolverError::NotFound {
            command: spec.to_string(),
            message: if program.contains('/') {
                format!("no file {program}")
            } else {
                format!("'{program}' is not on PATH")
            },
        })?;
        let base = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or(program);
        let style = if base.starts_with("minisat") || base.starts_with("glucose") {
            OutputStyle::MinisatFile
        } else {
            OutputStyle::Competition
        };
        Ok(External {
            spec: spec.to_string(),
            program: resolved,
            args: words.map(str::to_string).collect(),
            style,
            clauses: Cnf::new(),
            model: None,
            core: Vec::new(),
        })
    }

    fn failed(&self, message: String) -> SolverError {
        SolverError::Failed {
            solver: format!("external:{}", self.spec),
            message,
        }
    }

    /// Runs the program until it exits or the limits expire (None: killed).
    fn run(&self, cnf_path: &Path, result_path: &Path, out: File, err: File, limits: &Limits) -> Result<Option<ExitStatus>, SolverError> {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).arg(cnf_path);
        if self.style == OutputStyle::MinisatFile {
            cmd.arg(result_path);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| SolverError::NotFound {
                command: self.spec.clone(),
                message: e.to_string(),
            })?;
        let mut pause = Duration::from_millis(1);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Ok(Some(status)),
                Ok(None) if limits.expired() => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Ok(None);
                }
                Ok(None) => {
                    sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(e) => return Err(self.failed(format!("waiting for the process: {e}"))),
            }
        }
    }
}

/// The last lines of a text, for error messages.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

impl Backend for External {
    fn name(&self) -> String {
        format!("external:{}", self.spec)
    }
    fn reserve(&mut self, n_vars: u32) {
        use rustsat::instances::ManageVars;
        self.clauses.increase_next_free(rustsat::types::Var::new(n_vars));
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        self.clauses.add(lits);
        Ok(())
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.model = None;
        self.core.clear();
        let io_failed = |e: std::io::Error| self.failed(format!("temporary files: {e}"));
        let dir = tempfile::tempdir().map_err(io_failed)?;
        let cnf_path = dir.path().join("formula.cnf");
        let result_path = dir.path().join("result.txt");
        let (out_path, err_path) = (dir.path().join("stdout.txt"), dir.path().join("stderr.txt"));
        let n_vars = self.clauses.n_vars().max(assumptions.iter().map(|l| l.var().idx32() + 1).max().unwrap_or(0));
        {
            let mut w = std::io::BufWriter::new(File::create(&cnf_path).map_err(io_failed)?);
            let units: Vec<[Lit; 1]> = assumptions.iter().map(|&l| [l]).collect();
            let all = self.clauses.clauses().chain(units.iter().map(|u| &u[..]));
            write_clauses(&mut w, n_vars, self.clauses.len() + units.len(), all, &[]).map_err(io_failed)?;
            std::io::Write::flush(&mut w).map_err(io_failed)?;
        }
        let out = File::create(&out_path).map_err(io_failed)?;
        let err = File::create(&err_path).map_err(io_failed)?;
        let Some(status) = self.run(&cnf_path, &result_path, out, err, limits)? else {
            return Ok(Outcome::Unknown);
        };
        let stdout = String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned();
        let stderr = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
        let parsed = match self.style {
            OutputStyle::Competition => solver_output::parse(&stdout, n_vars),
            OutputStyle::MinisatFile => match std::fs::read(&result_path) {
                Ok(bytes) => solver_output::parse_minisat(&String::from_utf8_lossy(&bytes), n_vars),
                Err(_) => Err(crate::io::dimacs::DimacsError::Malformed {
                    line: 0,
                    what: "no result file written".into(),
                }),
            },
        };
        let answer = match parsed {
            Ok(a) => a,
            Err(e) => {
                let how = match status.code() {
                    Some(c) => format!("exit code {c}"),
                    None => "killed by a signal (crash?)".into(),
                };
                let detail = if stderr.trim().is_empty() { tail(&stdout) } else { tail(&stderr) };
                return Err(self.failed(format!("no valid answer ({how}): {e}; output: {detail}")));
            }
        };
        match answer {
            SolverAnswer::Sat(model) => {
                if let Some(i) = self.clauses.clauses().position(|c| !c.iter().any(|&l| model.lit(l))) {
                    return Err(self.failed(format!("its model falsifies clause {} of the formula", i + 1)));
                }
                if let Some(a) = assumptions.iter().find(|&&a| !model.lit(a)) {
                    return Err(self.failed(format!("its model falsifies the assumption {}", a.to_ipasir())));
                }
                self.model = Some(model);
                Ok(Outcome::Sat)
            }
            SolverAnswer::Unsat => {
                self.core = assumptions.to_vec();
                Ok(Outcome::Unsat)
            }
            SolverAnswer::Unknown => Ok(Outcome::Unknown),
        }
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        let model = self
            .model
            .as_ref()
            .ok_or_else(|| self.failed("no model: the last answer was not SAT".into()))?;
        Ok(Assignment::from_values(
            (0..n_vars).map(|i| model.var(rustsat::types::Var::new(i))).collect(),
        ))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }
    fn is_incremental(&self) -> bool {
        false
    }
}
