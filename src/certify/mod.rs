//! Certified UNSAT answers: every "optimal", "exactly N" and "infeasible"
//! rests on an UNSAT answer; `--certify` backs each such answer with a
//! checked proof.
//!
//! The decision formula of an UNSAT answer (the CNF, the bound or blocking
//! clauses added since, the assumptions of that call as unit clauses:
//! [`crate::solver::Session::unsat_formula`]) is re-solved by a
//! [`Producer`] with proof logging, and the DRAT proof is checked by
//! [`drat`], a backward checker written here that shares no code with any
//! solver (Wetzler, Heule & Hunt, "DRAT-trim: Efficient Checking and
//! Trimming Using Expressive Clausal Proofs", SAT 2014). The result is a
//! [`Certificate`], or a [`CertifyError`] saying why not — a rejected proof
//! is an error, never a weaker answer.

mod cover;
pub mod digest;
pub mod drat;
pub mod manifest;
mod produce;
pub mod verify;
pub mod veripb;

use std::fmt;
use std::time::Instant;

use puzzlesat_encodings::Cnf;
use serde::{Deserialize, Serialize};

pub use cover::{check_cover, Cover};
pub use digest::{formula_digest, Fnv};
pub use drat::{CheckStats, DratError, DratFormat};
pub use produce::Producer;

use crate::solver::Limits;

/// A checked proof that a formula is unsatisfiable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// the proof format
    pub format: DratFormat,
    /// the solver that wrote the proof
    pub producer: String,
    /// the checker that accepted it
    pub checker: String,
    /// proof size
    pub proof_bytes: u64,
    /// time of the proof-logging solve
    pub solve_seconds: f64,
    /// time of the check
    pub check_seconds: f64,
    /// lemmas in the proof
    pub lemmas: usize,
    /// lemmas the refutation rests on (each one checked)
    pub core_lemmas: usize,
    /// a VeriPB proof from the puzzle's PB model ([`veripb`]): what it
    /// covers (None: a DRAT proof of the CNF; `format` is then the format
    /// of the proof solver's proof its search part was replayed from)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_model: Option<FromModel>,
    /// with `--proof-format veripb`, a DRAT certificate: why the proof is
    /// not from the model
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_from_model: Option<String>,
}

/// What a VeriPB certificate proves from the model, and its parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FromModel {
    /// what the proof derives from the model, e.g. "encoding and search"
    pub covers: String,
    /// what stays outside the checked proof (the `c not covered:` line)
    pub not_covered: String,
    /// auxiliary variables introduced by redundance (two `red` steps each)
    pub definitions: usize,
    /// CNF clauses derived by reverse unit propagation
    pub rup_clauses: usize,
    /// CNF clauses derived by cutting planes from the definitions
    pub pol_clauses: usize,
    /// symmetry-breaking clauses derived by dominance
    pub dom_clauses: usize,
    /// solutions logged by `solx` (an optimum: the best, by `soli`)
    pub solutions: usize,
    /// a count the checker states: the solutions logged over the model,
    /// distinct, and the model with each of them excluded refuted
    /// ([`veripb::count`]); None: the count is read from the proof
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<u64>,
    /// a stated count's solutions proof, where it is kept
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions_file: Option<String>,
    /// the model and proof files kept by `--proof-dir`
    pub files: Option<(String, String)>,
}

puzzlesat_encodings::option_enum! {
    /// The proofs of `--certify` (`--proof-format`).
    #[derive(Default)]
    pub enum ProofFormat("proof format") {
        /// a VeriPB proof from the puzzle's PB model (encoding, symmetry
        /// breaking, search), checked by `veripb`; DRAT for a family
        /// without a model
        #[default]
        Veripb = "veripb",
        /// a DRAT proof of the CNF as encoded, checked here
        Drat = "drat",
    }
}

/// Which claim of a run an UNSAT answer backs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Claim {
    /// "no solution exists"
    Infeasible,
    /// "no better solution": the objective bound one past the optimum
    Optimal,
    /// "exactly N": the enumeration's final UNSAT, every solution blocked
    Complete,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::Infeasible => "infeasible",
            Claim::Optimal => "optimal",
            Claim::Complete => "complete",
        })
    }
}

/// A claim and the certificate of the UNSAT answer it rests on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certified {
    /// what the UNSAT answer proves
    pub claim: Claim,
    /// clauses of the decision formula (CNF, added clauses, assumptions as units)
    pub formula_clauses: usize,
    /// [`formula_digest`] of the decision formula: with `--cubes`, of the
    /// cube's formula as re-derived from the CNF, the cube and its bound
    /// (before any lazily added constraint), so that a resumed run can
    /// re-derive and compare it
    pub formula_digest: String,
    /// with `--cubes`: the cube whose UNSAT answer this is (its literals
    /// are unit clauses of the formula); None for the whole formula
    #[serde(deserialize_with = "Option::deserialize")]
    pub cube: Option<u32>,
    /// the checked proof
    #[serde(flatten)]
    pub certificate: Certificate,
}

impl fmt::Display for Certified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.certificate;
        let cube = self.cube.map_or(String::new(), |i| format!(", cube {i}"));
        if let Some(m) = &c.from_model {
            write!(
                f,
                "certified ({}{cube}) from the model: {}, {}: {} auxiliary variables by redundance, {} clauses by RUP, {} by cutting planes, {} by dominance",
                self.claim,
                m.covers,
                c.checker,
                m.definitions,
                m.rup_clauses,
                m.pol_clauses,
                m.dom_clauses,
            )?;
            if m.solutions > 0 {
                write!(f, ", {} solutions logged", m.solutions)?;
            }
            // a proof written by a search solver replays part of its proof
            if c.lemmas > 0 {
                write!(
                    f,
                    ", {} of {} lemmas of {} replayed (the DRAT core)",
                    c.core_lemmas, c.lemmas, c.producer
                )?;
            }
            write!(
                f,
                "; {} proof checked in {:.3}s (proof solve {:.3}s)",
                human_bytes(c.proof_bytes),
                c.check_seconds,
                c.solve_seconds
            )?;
            if let Some((model, proof)) = &m.files {
                match &m.solutions_file {
                    Some(sols) => {
                        let opb = model.replace(".excluded.opb", ".opb");
                        write!(f, "; kept: veripb {opb} {sols} (the solutions), veripb {model} {proof} (no other)")?
                    }
                    None => write!(f, "; kept: veripb {model} {proof}")?,
                }
            }
            return Ok(());
        }
        write!(
            f,
            "certified ({}{cube}): {} proof by {}, {}, {} of {} lemmas checked in {:.3}s (proof solve {:.3}s)",
            self.claim,
            c.format,
            c.producer,
            human_bytes(c.proof_bytes),
            c.core_lemmas,
            c.lemmas,
            c.check_seconds,
            c.solve_seconds
        )
    }
}

/// `1234567` → `1.2 MB`.
pub fn human_bytes(b: u64) -> String {
    match b {
        0..=9_999 => format!("{b} B"),
        10_000..=9_999_999 => format!("{:.1} kB", b as f64 / 1e3),
        _ => format!("{:.1} MB", b as f64 / 1e6),
    }
}

/// Certifies the claim `claim` resting on the UNSAT formula `formula`.
pub fn certify_claim(
    claim: Claim,
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
) -> Result<Certified, CertifyError> {
    Ok(Certified {
        claim,
        formula_clauses: formula.len(),
        formula_digest: formula_digest(formula),
        cube: None,
        certificate: certify_unsat(formula, producer, limits)?,
    })
}

/// Why an UNSAT answer could not be certified.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// the proof was checked and rejected
    #[error("certificate rejected: {0}")]
    Rejected(#[from] DratError),
    /// the proof solver found a model: the UNSAT answer is wrong
    #[error("certificate impossible: {producer} finds the decision formula satisfiable, so the UNSAT answer was wrong")]
    Satisfiable {
        /// the proof solver
        producer: String,
    },
    /// stopped by the time limit or an interrupt
    #[error("certificate not finished: stopped by the time limit or an interrupt")]
    Stopped,
    /// the proof solver failed or is unknown
    #[error("{0}")]
    Producer(String),
    /// temporary files
    #[error("certificate: temporary files: {0}")]
    Io(String),
    /// the VeriPB checker rejected the proof
    #[error("VeriPB rejected the proof: {0}")]
    VeripbRejected(String),
}

/// What a certificate does not prove: said on the report's certificate
/// lines and in docs/certify.md.
pub const SCOPE: &str = "the proofs refute the CNF as encoded, its symmetry-breaking and dominance clauses included: those clauses are justified by an argument outside the checked proofs (docs/certify.md)";

/// The checker's name in certificates.
pub const CHECKER: &str = "puzzlesat backward DRAT checker";

/// A proof of UNSAT from `producer`, and the time its solve took.
/// An error if the producer answers SAT or is stopped.
pub fn produce_proof(
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
) -> Result<(Vec<u8>, f64), CertifyError> {
    let dir = tempfile::tempdir().map_err(|e| CertifyError::Io(e.to_string()))?;
    let path = dir.path().join("proof.drat");
    let t = Instant::now();
    let produced = produce::produce(formula, producer, &path, limits)?;
    let seconds = t.elapsed().as_secs_f64();
    match produced {
        produce::Produced::Unsat => {}
        produce::Produced::Sat => {
            return Err(CertifyError::Satisfiable {
                producer: producer.to_string(),
            })
        }
        produce::Produced::Unknown => return Err(CertifyError::Stopped),
    }
    // a solver that claims UNSAT but writes no file has written no proof
    Ok((std::fs::read(&path).unwrap_or_default(), seconds))
}

/// Re-solves `formula` with `producer` writing a proof, and checks the
/// proof. Ok only if the proof refutes the formula.
pub fn certify_unsat(
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
) -> Result<Certificate, CertifyError> {
    let (proof, solve_seconds) = produce_proof(formula, producer, limits)?;
    let t = Instant::now();
    let format = drat::detect_format(&proof);
    let stats =
        drat::check(formula, &proof, format, &|| limits.expired()).map_err(|e| match e {
            DratError::Stopped => CertifyError::Stopped,
            e => CertifyError::Rejected(e),
        })?;
    Ok(Certificate {
        format,
        producer: producer.to_string(),
        checker: CHECKER.into(),
        proof_bytes: proof.len() as u64,
        solve_seconds,
        check_seconds: t.elapsed().as_secs_f64(),
        lemmas: stats.lemmas,
        core_lemmas: stats.core_lemmas,
        from_model: None,
        not_from_model: None,
    })
}
