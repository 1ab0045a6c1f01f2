//! Proof producers: re-solve a plain-clause formula and write a DRAT proof.
//!
//! - [`Producer::Varisat`]: Varisat 0.2 linked in (`Solver::write_proof`,
//!   binary DRAT). Always available.
//! - [`Producer::External`]: a DIMACS solver executable run as
//!   `PROGRAM ARGS FORMULA.cnf PROOF`, the convention of CaDiCaL and Kissat
//!   (proof path as the second positional argument, binary DRAT by
//!   default, text with `--no-binary`) and of CryptoMiniSat 5 (text FRAT).
//!   Its `s` line is read from stdout. `cadical`, `kissat` and
//!   `cryptominisat5` name `external:<the same>`.
//!
//! The checker ([`super::drat`]) shares no code with either.

use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::thread::sleep;
use std::time::Duration;

use puzzlesat_encodings::solve::Waited;
use puzzlesat_encodings::Cnf;
use varisat::ExtendFormula;

use super::CertifyError;
use crate::io::dimacs::write_cnf;
use crate::solver::{Limits, SolverKind};

/// Which solver writes the proof: the `--proof-solver` option.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Producer {
    /// Varisat 0.2, linked in (pure Rust): the default
    #[default]
    Varisat,
    /// a DIMACS solver executable writing DRAT to its second positional
    /// argument (CaDiCaL, Kissat)
    External(String),
}

impl Producer {
    /// The default proof solver for a run on `solver`: an external solver
    /// is asked for its own proof (so its UNSAT answers are checked, not
    /// trusted); for the embedded solvers, Varisat.
    pub fn for_solver(solver: &SolverKind) -> Producer {
        match solver {
            SolverKind::External(cmd) => Producer::External(cmd.clone()),
            _ => Producer::Varisat,
        }
    }
}

impl Producer {
    /// Refuses a proof solver that cannot run (its program is neither a
    /// file nor on PATH), so that `--certify` fails before anything is
    /// solved, not after the search it was to certify.
    pub fn check(&self) -> Result<(), CertifyError> {
        let Producer::External(spec) = self else {
            return Ok(());
        };
        let program = spec.split_whitespace().next().unwrap_or_default();
        match crate::solver::external::resolve(program) {
            Some(_) => Ok(()),
            None => Err(CertifyError::Producer(format!(
                "--proof-solver external:{spec}: {} (install it, or use --proof-solver varisat)",
                if program.contains('/') {
                    format!("no file {program}")
                } else {
                    format!("'{program}' is not on PATH")
                }
            ))),
        }
    }
}

impl fmt::Display for Producer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Producer::Varisat => f.write_str("varisat"),
            Producer::External(cmd) => write!(f, "external:{cmd}"),
        }
    }
}

impl FromStr for Producer {
    type Err = CertifyError;
    fn from_str(s: &str) -> Result<Self, CertifyError> {
        match s {
            "varisat" => Ok(Producer::Varisat),
            "cadical" | "kissat" | "cryptominisat5" => Ok(Producer::External(s.to_string())),
            _ => match s.strip_prefix("external:") {
                Some(cmd) if !cmd.trim().is_empty() => Ok(Producer::External(cmd.to_string())),
                _ => Err(CertifyError::Producer(format!(
                    "unknown proof solver '{s}' (expected varisat, cadical, kissat, cryptominisat5 or external:<command>)"
                ))),
            },
        }
    }
}

/// What a proof-logging solve answered.
pub(super) enum Produced {
    /// UNSAT, the proof written to the given file
    Unsat,
    /// the formula has a model: the UNSAT being certified was wrong
    Sat,
    /// stopped by the limits before an answer
    Unknown,
}

/// Solves `formula` with proof logging into `proof`.
pub(super) fn produce(
    formula: &Cnf,
    producer: &Producer,
    proof: &Path,
    limits: &Limits,
) -> Result<Produced, CertifyError> {
    match producer {
        // varisat has no interrupt hook: its thread is abandoned at the limits
        Producer::Varisat => {
            let (formula, proof) = (formula.clone(), proof.to_path_buf());
            match puzzlesat_encodings::solve::abandonable(limits, move || varisat(&formula, &proof))
            {
                Waited::Done(produced) => produced,
                Waited::Expired => Ok(Produced::Unknown),
                Waited::Gone => Err(CertifyError::Producer(
                    "varisat: its thread ended without an answer".into(),
                )),
            }
        }
        Producer::External(cmd) => external(formula, cmd, proof, limits),
    }
}

fn varisat(formula: &Cnf, proof: &Path) -> Result<Produced, CertifyError> {
    let file = File::create(proof).map_err(|e| CertifyError::Io(e.to_string()))?;
    let mut solver = varisat::Solver::new();
    solver.write_proof(BufWriter::new(file), varisat::ProofFormat::BinaryDrat);
    let mut clause = Vec::new();
    for c in formula.clauses() {
        clause.clear();
        clause.extend(
            c.iter()
                .map(|l| varisat::Lit::from_index(l.vidx(), l.is_pos())),
        );
        solver.add_clause(&clause);
    }
    let sat = solver
        .solve()
        .map_err(|e| CertifyError::Producer(format!("varisat: {e}")))?;
    solver
        .close_proof()
        .map_err(|e| CertifyError::Producer(format!("varisat: writing the proof: {e}")))?;
    Ok(if sat { Produced::Sat } else { Produced::Unsat })
}

fn external(
    formula: &Cnf,
    spec: &str,
    proof: &Path,
    limits: &Limits,
) -> Result<Produced, CertifyError> {
    let failed = |m: String| CertifyError::Producer(format!("external:{spec}: {m}"));
    let mut words = spec.split_whitespace();
    let program = words.next().ok_or_else(|| failed("no program".into()))?;
    let base = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    if base.starts_with("minisat") || base.starts_with("glucose") {
        return Err(failed(
            "MiniSat and Glucose write no DRAT proof (their second argument is a result file): \
             choose a proof solver with --proof-solver cadical, kissat or cryptominisat5"
                .into(),
        ));
    }
    let dir = proof
        .parent()
        .ok_or_else(|| failed("no directory for the proof".into()))?;
    let cnf_path = dir.join("formula.cnf");
    let out_path = dir.join("stdout.txt");
    {
        let io = |e: std::io::Error| CertifyError::Io(e.to_string());
        let mut w = BufWriter::new(File::create(&cnf_path).map_err(io)?);
        write_cnf(&mut w, formula, &[]).map_err(io)?;
        w.flush().map_err(io)?;
    }
    let out = File::create(&out_path).map_err(|e| CertifyError::Io(e.to_string()))?;
    let mut child = Command::new(program)
        .args(words)
        .arg(&cnf_path)
        .arg(proof)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| failed(format!("could not be started: {e}")))?;
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if limits.expired() => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Produced::Unknown);
            }
            Ok(None) => {
                sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => return Err(failed(format!("waiting for the process: {e}"))),
        }
    }
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    // the status line alone: the model is not needed (a SAT answer means
    // the claim being certified is wrong, whatever the model)
    let status = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("s "))
        .map(str::trim)
        .next_back();
    match status {
        Some("UNSATISFIABLE") => Ok(Produced::Unsat),
        Some("SATISFIABLE") => Ok(Produced::Sat),
        Some("UNKNOWN") => Ok(Produced::Unknown),
        _ => Err(failed("no 's' status line on stdout".into())),
    }
}
