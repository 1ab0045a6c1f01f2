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

use std::cell::Cell;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::rc::Rc;
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
    let io = |e: std::io::Error| CertifyError::Io(e.to_string());
    let file = File::create(proof).map_err(io)?;
    let (watch, ends_empty) = StepWatch::new(BufWriter::new(file));
    let mut solver = varisat::Solver::new();
    solver.write_proof(watch, varisat::ProofFormat::BinaryDrat);
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
    drop(solver);
    if !sat && !ends_empty.get() {
        // varisat 0.2 refutes a formula whose units conflict while it is
        // loaded (`load_clause`) without logging the empty clause: it is
        // added here, and the checker checks it by RUP like any lemma
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(proof)
            .map_err(io)?;
        file.write_all(b"a\0").map_err(io)?;
    }
    Ok(if sat { Produced::Sat } else { Produced::Unsat })
}

/// A binary DRAT writer that notes whether the last step written is the
/// empty clause's addition: each step is a tag (`a` or `d`), literals as
/// variable-length integers (no byte of which is 0), then a 0 byte.
struct StepWatch<W> {
    inner: W,
    /// at the start of a step (the next byte is its tag)
    at_tag: bool,
    /// the step being read is an addition with no literal yet
    empty_add: bool,
    /// the last complete step is `a 0`
    ends_with_empty: Rc<Cell<bool>>,
}

impl<W: Write> StepWatch<W> {
    /// The writer, and the flag it keeps.
    fn new(inner: W) -> (Self, Rc<Cell<bool>>) {
        let ends_with_empty = Rc::new(Cell::new(false));
        let watch = StepWatch {
            inner,
            at_tag: true,
            empty_add: false,
            ends_with_empty: ends_with_empty.clone(),
        };
        (watch, ends_with_empty)
    }
}

impl<W: Write> Write for StepWatch<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        for &b in &buf[..n] {
            if std::mem::take(&mut self.at_tag) {
                self.empty_add = b == b'a';
            } else if b == 0 {
                self.ends_with_empty.set(self.empty_add);
                self.at_tag = true;
            } else {
                self.empty_add = false;
            }
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::{ClauseDatabase, Lit};

    /// A formula unit propagation refutes: varisat refutes it while
    /// loading it, and its proof still ends in the empty clause, which the
    /// checker accepts.
    #[test]
    fn a_refutation_by_propagation_has_the_empty_clause() {
        let mut f = Cnf::new();
        let x = |i: i32| Lit::from_ipasir(i).unwrap();
        f.add(&[x(-1)]);
        f.add(&[x(-2)]);
        f.add(&[x(1), x(2)]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proof.drat");
        let produced = produce(&f, &Producer::Varisat, &path, &Limits::default()).unwrap();
        assert!(matches!(produced, Produced::Unsat));
        let proof = std::fs::read(&path).unwrap();
        let format = super::super::drat::detect_format(&proof);
        let stats = super::super::drat::check(&f, &proof, format, &|| false).unwrap();
        assert_eq!(stats.lemmas, 1, "the empty clause alone");
    }
}
