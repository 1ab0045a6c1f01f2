//! Any DIMACS SAT solver executable as a backend (`--solver
//! external:cadical`, `external:/path/to/kissat`, `external:cadical -q`:
//! the text after `external:` is split on whitespace into the program and
//! its arguments).
//!
//! Each solve call writes every clause added so far, plus the assumptions
//! as unit clauses, to a temporary DIMACS file, runs `PROGRAM ARGS
//! FILE.cnf` and parses its SAT-competition `s`/`v` lines from stdout as
//! they arrive ([`crate::io::solver_output::parse_reader`]): nothing it
//! prints is buffered whole, and past [`output_cap`] bytes on either
//! stream the program is killed and the call fails. MiniSat and Glucose print no
//! `v` lines: a program whose file name starts with `minisat` or
//! `glucose` is run as `PROGRAM ARGS FILE.cnf RESULT.txt` and its result
//! file is read instead ([`crate::io::solver_output::parse_minisat`]).
//!
//! Not incremental (every call starts from scratch); after an UNSAT answer
//! under assumptions every assumption is reported as failed. The time limit
//! and the interrupt flag are enforced by killing the process group (answer
//! [`Outcome::Unknown`]). A missing binary, a crash, a non-zero exit without
//! an answer, garbage output, or a model that falsifies a clause or an
//! assumption is a [`SolverError`], never a panic nor a wrong answer.

use std::fs::File;
use std::io::{BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::sleep;
use std::time::Duration;

use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

use super::{Backend, Limits, Outcome, SolverError, SolverStats};
use crate::io::dimacs::{write_clauses, DimacsError};
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
pub(crate) fn resolve(program: &str) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|c| c.is_file())
    })
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
        let base = Path::new(program)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(program);
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

    /// Runs the program until it exits or the limits expire. Its stdout is
    /// parsed as it arrives (competition style) and its stderr kept as a
    /// tail only, each stream capped at [`output_cap`] bytes: past the cap
    /// the program is killed and the call fails. The program runs in its own
    /// process group, killed whole (a wrapper script's solver too).
    fn run(
        &self,
        cnf_path: &Path,
        result_path: &Path,
        n_vars: u32,
        limits: &Limits,
    ) -> Result<Run, SolverError> {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).arg(cnf_path);
        if self.style == OutputStyle::MinisatFile {
            cmd.arg(result_path);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| SolverError::NotFound {
                command: self.spec.clone(),
                message: e.to_string(),
            })?;
        let group = child.id() as libc::pid_t;
        let kill_group = || {
            // SAFETY: a plain system call; the group is the child's own
            unsafe { libc::kill(-group, libc::SIGKILL) };
        };
        let cap = output_cap(n_vars);
        let over = Arc::new(AtomicBool::new(false));
        let stdout = Capped::new(child.stdout.take().expect("piped"), cap, over.clone());
        let stderr = Capped::new(child.stderr.take().expect("piped"), cap, over.clone());
        let style = self.style;
        let out_thread = std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let parsed = match style {
                OutputStyle::Competition => Some(solver_output::parse_reader(&mut r, n_vars)),
                OutputStyle::MinisatFile => None,
            };
            // read to the end (the pipe must not fill while the program runs)
            let _ = std::io::copy(&mut r, &mut std::io::sink());
            (parsed, r.into_inner().tail())
        });
        let err_thread = std::thread::spawn(move || {
            let mut r = stderr;
            let _ = std::io::copy(&mut r, &mut std::io::sink());
            r.tail()
        });
        let mut pause = Duration::from_millis(1);
        let mut status = None;
        let stopped = loop {
            if status.is_none() {
                status = child
                    .try_wait()
                    .map_err(|e| self.failed(format!("waiting for the process: {e}")))?;
            }
            if over.load(Ordering::Relaxed) {
                break Some(format!(
                    "printed more than {cap} bytes (the cap for a formula of {n_vars} variables): stopped"
                ));
            }
            if status.is_some() && out_thread.is_finished() && err_thread.is_finished() {
                break None;
            }
            if limits.expired() {
                break Some(String::new());
            }
            sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        };
        if stopped.is_some() || status.is_some() {
            // the program, or what it started and left holding the pipes
            kill_group();
        }
        if status.is_none() {
            let _ = child.wait();
        }
        let (parsed, out_tail) = out_thread.join().expect("stdout reader does not panic");
        let err_tail = err_thread.join().expect("stderr reader does not panic");
        Ok(match stopped {
            Some(why) if why.is_empty() => Run::Killed,
            Some(why) => return Err(self.failed(why)),
            None => Run::Exited {
                status: status.expect("exited"),
                parsed,
                out_tail,
                err_tail,
            },
        })
    }
}

/// How a run of the program ended.
enum Run {
    /// killed at the time limit or on an interrupt
    Killed,
    /// it exited by itself
    Exited {
        status: ExitStatus,
        /// its stdout parsed (competition style)
        parsed: Option<Result<SolverAnswer, DimacsError>>,
        /// the end of its stdout and stderr, for error messages
        out_tail: String,
        err_tail: String,
    },
}

/// The most bytes read from each of the program's output streams for a
/// formula over `n_vars` variables: 256 MiB of comments, plus room for a
/// model printed one literal a line.
pub fn output_cap(n_vars: u32) -> u64 {
    (256 << 20) + 16 * u64::from(n_vars)
}

/// A stream read up to a cap (past it: an error, and `over` raised) that
/// keeps its last few KiB for error messages.
struct Capped<R> {
    inner: R,
    left: u64,
    over: Arc<AtomicBool>,
    tail: Vec<u8>,
}

impl<R: Read> Capped<R> {
    fn new(inner: R, cap: u64, over: Arc<AtomicBool>) -> Self {
        Capped {
            inner,
            left: cap,
            over,
            tail: Vec::new(),
        }
    }
    /// The last lines read, joined by ` | ` (at most three).
    fn tail(&self) -> String {
        tail(&String::from_utf8_lossy(&self.tail))
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        const KEEP: usize = 2048;
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            self.over.store(true, Ordering::Relaxed);
            return Err(std::io::Error::other("output cap reached"));
        }
        self.left -= n as u64;
        self.tail.extend_from_slice(&buf[..n]);
        if self.tail.len() > 2 * KEEP {
            self.tail.drain(..self.tail.len() - KEEP);
        }
        Ok(n)
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
        self.clauses
            .increase_next_free(rustsat::types::Var::new(n_vars));
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
        let n_vars = self.clauses.n_vars().max(
            assumptions
                .iter()
                .map(|l| l.var().idx32() + 1)
                .max()
                .unwrap_or(0),
        );
        {
            let mut w = std::io::BufWriter::new(File::create(&cnf_path).map_err(io_failed)?);
            let units: Vec<[Lit; 1]> = assumptions.iter().map(|&l| [l]).collect();
            let all = self.clauses.clauses().chain(units.iter().map(|u| &u[..]));
            write_clauses(&mut w, n_vars, self.clauses.len() + units.len(), all, &[])
                .map_err(io_failed)?;
            std::io::Write::flush(&mut w).map_err(io_failed)?;
        }
        let Run::Exited {
            status,
            parsed,
            out_tail,
            err_tail,
        } = self.run(&cnf_path, &result_path, n_vars, limits)?
        else {
            return Ok(Outcome::Unknown);
        };
        let parsed = match parsed {
            Some(p) => p,
            None => match File::open(&result_path) {
                Ok(f) => solver_output::parse_minisat_reader(
                    BufReader::new(f.take(output_cap(n_vars))),
                    n_vars,
                ),
                Err(_) => Err(DimacsError::Malformed {
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
                let detail = if err_tail.is_empty() {
                    out_tail
                } else {
                    err_tail
                };
                return Err(self.failed(format!("no valid answer ({how}): {e}; output: {detail}")));
            }
        };
        match answer {
            SolverAnswer::Sat(model) => {
                if let Some(i) = self
                    .clauses
                    .clauses()
                    .position(|c| !c.iter().any(|&l| model.lit(l)))
                {
                    return Err(self.failed(format!(
                        "its model falsifies clause {} of the formula",
                        i + 1
                    )));
                }
                if let Some(a) = assumptions.iter().find(|&&a| !model.lit(a)) {
                    return Err(self.failed(format!(
                        "its model falsifies the assumption {}",
                        a.to_ipasir()
                    )));
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
            (0..n_vars)
                .map(|i| model.var(rustsat::types::Var::new(i)))
                .collect(),
        ))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }
}
