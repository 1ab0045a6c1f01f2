//! `puzzlesat verify DIR`: re-checks what a `--certify --proof-dir DIR`
//! run kept, trusting only `veripb` and the model's own writer.
//!
//! Each claim has a manifest, `STEM.claim.toml` ([`Manifest`]): the run's
//! command line, the claim and its value, and the files. The check:
//! 1. the model is derived again from the command line (the code of
//!    `puzzlesat opb`) and compared byte for byte with the kept one;
//! 2. for a count, the solutions proof and the exclusion model are exactly
//!    what the logged assignments make ([`super::count`]);
//! 3. `veripb` checks each proof, and its verdict is what is stated: a
//!    count is the number of distinct solutions logged with the rest
//!    refuted, an optimum the checker's `BOUNDS` mapped back through the
//!    objective's constant written in the model.
//!
//! Anything that does not match is [`VerifyError::Rejected`] (exit 1).

use std::fmt;
use std::path::Path;

use puzzlesat_encodings::pbmodel::{PbModel, PbSense};

use super::manifest::{ClaimKind, Manifest};
use super::veripb::{self, bounds, count};
use super::CertifyError;
use crate::solver::Limits;

/// Why a kept claim is not established.
#[derive(Debug)]
pub enum VerifyError {
    /// the files do not establish the claim (tampered, or wrong): exit 1
    Rejected(String),
    /// the check could not be made (no manifest, no `veripb`, unreadable
    /// files): exit 2
    Error(String),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            VerifyError::Rejected(why) | VerifyError::Error(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for VerifyError {}

/// One established claim.
#[derive(Clone, Debug, PartialEq)]
pub struct Established {
    /// the manifest's file name
    pub manifest: String,
    /// what is established, e.g. `exactly 92 solutions`
    pub statement: String,
    /// how, in one line (the checks made)
    pub how: String,
}

fn rejected(why: impl Into<String>) -> VerifyError {
    VerifyError::Rejected(why.into())
}

/// The first line where `a` and `b` differ (1-based), None if equal.
fn first_difference(a: &str, b: &str) -> Option<usize> {
    if a == b {
        return None;
    }
    let mut la = a.lines();
    let mut lb = b.lines();
    let mut i = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => i += 1,
            _ => return Some(i),
        }
    }
}

/// Verifies every claim kept in `dir`. `model_of` derives the model from a
/// manifest's command line and directory (the CLI parses it as the run
/// did). Returns the established claims, in the manifests' order.
pub fn verify_dir(
    dir: &Path,
    model_of: &dyn Fn(&[String], &Path) -> anyhow::Result<PbModel>,
    limits: &Limits,
) -> Result<Vec<Established>, VerifyError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| VerifyError::Error(format!("{}: {e}", dir.display())))?;
    let mut manifests: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".claim.toml"))
        .collect();
    manifests.sort();
    if manifests.is_empty() {
        return Err(VerifyError::Error(format!(
            "no claim to verify in {}: no STEM.claim.toml (a run of `puzzlesat solve … --certify --proof-dir DIR` keeps one per certified claim)",
            dir.display()
        )));
    }
    veripb::checker(limits).map_err(|e| VerifyError::Error(e.to_string()))?;
    manifests
        .iter()
        .map(|m| verify_claim(dir, m, model_of, limits))
        .collect()
}

fn read(dir: &Path, name: &str) -> Result<String, VerifyError> {
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(rejected(format!(
            "the manifest names a file outside its folder: {name}"
        )));
    }
    std::fs::read_to_string(dir.join(name))
        .map_err(|e| rejected(format!("{name}: {e} (the claim's file is missing)")))
}

/// Runs `veripb model proof`; its verdict line, or the rejection with the
/// checker's reason.
fn run_veripb(
    dir: &Path,
    model: &str,
    proof: &str,
    limits: &Limits,
) -> Result<String, VerifyError> {
    match veripb::check(&dir.join(model), &dir.join(proof), limits) {
        Ok(c) => Ok(c.verdict),
        Err(CertifyError::VeripbRejected(why)) => Err(rejected(format!(
            "veripb {model} {proof} does not verify: {why}"
        ))),
        Err(e) => Err(VerifyError::Error(e.to_string())),
    }
}

/// Checks the claim of the manifest `name` in `dir`: the model derived
/// again, the claim's files and `veripb`'s verdicts, the value the run
/// stated.
fn verify_claim(
    dir: &Path,
    name: &str,
    model_of: &dyn Fn(&[String], &Path) -> anyhow::Result<PbModel>,
    limits: &Limits,
) -> Result<Established, VerifyError> {
    let text = read(dir, name)?;
    let m: Manifest = toml::from_str(&text).map_err(|e| {
        rejected(format!(
            "{name} is not a manifest: {}",
            crate::io::one_line(&e.to_string())
        ))
    })?;
    let model = derived_model(dir, name, &m, model_of)?;
    let Finding {
        value,
        statement,
        how,
    } = match m.claim {
        ClaimKind::Count => verify_count(dir, name, &m, &model, limits)?,
        ClaimKind::Optimal => verify_optimum(dir, name, &m, &model, limits)?,
        ClaimKind::Infeasible => verify_infeasible(dir, &m, &model, limits)?,
    };
    // the run's printed value must be the one established
    if m.value.is_some() && m.value != value {
        return Err(in_claim(
            name,
            format!(
                "the run stated {}, the files establish `{statement}`",
                m.value.unwrap_or_default()
            ),
        ));
    }
    Ok(Established {
        manifest: name.to_string(),
        statement,
        how,
    })
}

/// What a claim's files establish: its value, the statement, how.
struct Finding {
    value: Option<i64>,
    statement: String,
    how: String,
}

/// The model a manifest's proof refutes: a count's exclusion model, else
/// the model itself.
fn proof_model(m: &Manifest) -> &str {
    m.proof_model.as_deref().unwrap_or(&m.model)
}

/// The rejection of the claim of manifest `name`.
fn in_claim(name: &str, why: String) -> VerifyError {
    rejected(format!("{name}: {why}"))
}

/// Step 1: the model, derived again from the run's parameters, and the
/// kept one the same byte for byte.
fn derived_model(
    dir: &Path,
    name: &str,
    m: &Manifest,
    model_of: &dyn Fn(&[String], &Path) -> anyhow::Result<PbModel>,
) -> Result<PbModel, VerifyError> {
    let model = model_of(&m.command, &m.directory).map_err(|e| {
        VerifyError::Error(format!(
            "{name}: the model of `puzzlesat {}` cannot be derived: {}",
            m.command.join(" "),
            crate::io::one_line(&format!("{e:#}"))
        ))
    })?;
    let kept = read(dir, &m.model)?;
    if let Some(line) = first_difference(&model.to_opb(), &kept) {
        return Err(in_claim(
            name,
            format!(
                "{} is not the model of `puzzlesat {}` (`puzzlesat opb` writes another line {line})",
                m.model,
                m.command.join(" ")
            ),
        ));
    }
    Ok(model)
}

/// A count: with no solutions the proof refutes the model; else the
/// solutions proof logs them, the proof refutes the model with each of
/// them excluded ([`logged_solutions`]).
fn verify_count(
    dir: &Path,
    name: &str,
    m: &Manifest,
    model: &PbModel,
    limits: &Limits,
) -> Result<Finding, VerifyError> {
    let proof_model = proof_model(m);
    let n = match &m.solutions {
        None => {
            // no solution: the model itself is refuted
            if proof_model != m.model.as_str() {
                return Err(in_claim(
                    name,
                    "a count without solutions refutes the model itself".into(),
                ));
            }
            expect_verdict(dir, &m.model, &m.proof, "s VERIFIED UNSATISFIABLE", limits)?;
            0
        }
        Some(sols) => logged_solutions(dir, name, m, model, sols, limits)?,
    };
    let statement = match n {
        0 => "no solution".to_string(),
        1 => "exactly 1 solution".to_string(),
        n => format!("exactly {n} solutions"),
    };
    let how = match &m.solutions {
        None => format!("veripb: {} refutes {}", m.proof, m.model),
        Some(s) => format!(
            "veripb: {s} logs {n} distinct solutions of {}, {} refutes {proof_model} (the model with each of them excluded)",
            m.model, m.proof
        ),
    };
    Ok(Finding {
        value: Some(n as i64),
        statement,
        how,
    })
}

/// Step 2 for a count with solutions: the solutions proof `sols` holds the
/// logged solutions and nothing else, the exclusion model is the model
/// plus exactly those, and `veripb` verifies both proofs. The number of
/// solutions.
fn logged_solutions(
    dir: &Path,
    name: &str,
    m: &Manifest,
    model: &PbModel,
    sols: &str,
    limits: &Limits,
) -> Result<usize, VerifyError> {
    let proof_model = proof_model(m);
    let text = read(dir, sols)?;
    let logged = count::parse_solutions_proof(model, &text)
        .map_err(|e| in_claim(name, format!("{sols}: {e}")))?;
    let mut expected = vec![];
    count::write_solutions_proof(model, &logged, &mut expected)
        .map_err(|e| VerifyError::Error(e.to_string()))?;
    if let Some(line) = first_difference(&String::from_utf8_lossy(&expected), &text) {
        return Err(in_claim(
            name,
            format!("{sols} holds more than the logged solutions (line {line})"),
        ));
    }
    let excluded = read(dir, proof_model)?;
    let expected = count::excluded_model(model, &logged).to_opb();
    if let Some(line) = first_difference(&expected, &excluded) {
        return Err(in_claim(
            name,
            format!(
                "{proof_model} is not the model plus exactly the {} solutions {sols} logs (line {line} differs)",
                logged.len()
            ),
        ));
    }
    expect_verdict(dir, &m.model, sols, "s VERIFIED SATISFIABLE", limits)?;
    expect_verdict(
        dir,
        proof_model,
        &m.proof,
        "s VERIFIED UNSATISFIABLE",
        limits,
    )?;
    Ok(logged.len())
}

/// An optimum: `veripb`'s `BOUNDS v v`, mapped back through the
/// objective's constant the model states.
fn verify_optimum(
    dir: &Path,
    name: &str,
    m: &Manifest,
    model: &PbModel,
    limits: &Limits,
) -> Result<Finding, VerifyError> {
    let prefix = |why: String| in_claim(name, why);
    let verdict = run_veripb(dir, &m.model, &m.proof, limits)?;
    let (lo, hi) = bounds(&verdict).ok_or_else(|| {
        prefix(format!(
            "veripb says `{verdict}`, not the bounds of an optimum"
        ))
    })?;
    if lo != hi {
        return Err(prefix(format!(
            "veripb proves {lo} <= obj <= {hi}, not an optimum"
        )));
    }
    let obj = model
        .objective()
        .ok_or_else(|| prefix(format!("{} has no objective", m.model)))?;
    let value = obj.from_opb_value(lo);
    let sense = match obj.sense {
        PbSense::Minimize => "min: as written",
        PbSense::Maximize => "the negation of min:",
    };
    Ok(Finding {
        value: Some(value),
        statement: format!("optimal: {value}"),
        how: format!(
            "veripb: {} proves BOUNDS {lo} {lo} for {}; the puzzle's value is {sense} plus the constant {} the model states",
            m.proof, m.model, obj.offset
        ),
    })
}

/// An infeasible model: the proof refutes it.
fn verify_infeasible(
    dir: &Path,
    m: &Manifest,
    model: &PbModel,
    limits: &Limits,
) -> Result<Finding, VerifyError> {
    expect_verdict(dir, &m.model, &m.proof, "s VERIFIED UNSATISFIABLE", limits)?;
    // what has no solution: the model's own first sentence (the
    // goal-space model's is "… needs more than B clicks")
    let statement = match model.header().first() {
        Some(line) => format!(
            "no solution of the model \"{}\"",
            line.split(". ").next().unwrap_or(line)
        ),
        None => "no solution".to_string(),
    };
    Ok(Finding {
        value: None,
        statement,
        how: format!("veripb: {} refutes {}", m.proof, m.model),
    })
}

fn expect_verdict(
    dir: &Path,
    model: &str,
    proof: &str,
    want: &str,
    limits: &Limits,
) -> Result<(), VerifyError> {
    let verdict = run_veripb(dir, model, proof, limits)?;
    if verdict.trim() != want {
        return Err(rejected(format!(
            "veripb {model} {proof} says `{verdict}`, not `{want}`"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_read_from_the_verdict() {
        assert_eq!(
            bounds("s VERIFIED BOUNDS -144 <= obj <= -144"),
            Some((-144, -144))
        );
        assert_eq!(bounds("s VERIFIED BOUNDS INF <= obj <= INF"), None);
        assert_eq!(bounds("s VERIFIED SATISFIABLE"), None);
    }

    #[test]
    fn a_manifest_round_trips() {
        let m = Manifest {
            puzzlesat: "0.1.0".into(),
            command: vec!["solve".into(), "queens".into(), "-n".into(), "8".into()],
            directory: "/tmp".into(),
            claim: ClaimKind::Count,
            value: Some(92),
            model: "q.opb".into(),
            proof: "q.pbp".into(),
            proof_model: Some("q.excluded.opb".into()),
            solutions: Some("q.solutions.pbp".into()),
        };
        let back: Manifest = toml::from_str(&m.to_toml()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn the_first_difference_is_a_line_number() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nc\n"), Some(2));
        assert_eq!(first_difference("a\nb\n", "a\n"), Some(2));
    }
}
