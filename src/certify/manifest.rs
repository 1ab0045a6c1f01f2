//! The manifest of a claim kept by a `--certify --proof-dir DIR` run
//! (`STEM.claim.toml`): the run's command line, the claim and its value,
//! and the files, which `puzzlesat verify` ([`super::verify`]) re-checks.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The manifest's file name for a claim's stem.
pub fn manifest_name(stem: &str) -> String {
    format!("{stem}.claim.toml")
}

/// The command line of this process, recorded by `main` so that a kept
/// claim can name the parameters its model is derived from.
pub fn record_command_line(args: Vec<String>) {
    let _ = COMMAND_LINE.set(args);
}

static COMMAND_LINE: OnceLock<Vec<String>> = OnceLock::new();

/// The recorded command line (None in a library call).
pub fn command_line() -> Option<&'static [String]> {
    COMMAND_LINE.get().map(Vec::as_slice)
}

/// The files of a kept claim.
pub struct Kept<'a> {
    /// the model
    pub model: &'a Path,
    /// the proof
    pub proof: &'a Path,
    /// the model the proof starts from, if not `model`
    pub proof_model: Option<&'a Path>,
    /// a count's solutions proof
    pub solutions: Option<&'a Path>,
}

/// Writes the manifest of a claim kept in `dir` beside its files
/// (`STEM.claim.toml`, STEM the model's stem), when the command line is
/// recorded (a library call keeps none).
pub fn keep(dir: &Path, claim: ClaimKind, value: Option<i64>, files: &Kept) -> anyhow::Result<()> {
    let Some(command) = command_line() else {
        return Ok(());
    };
    keep_command(dir, command, claim, value, files)
}

/// [`keep`] with the `solve` command line `verify` derives the model from,
/// when it is not this process's (the goal search's certificate: the
/// goal-space model of its value, `--pb-model goals --above V`).
pub fn keep_command(
    dir: &Path,
    command: &[String],
    claim: ClaimKind,
    value: Option<i64>,
    files: &Kept,
) -> anyhow::Result<()> {
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let stem = files
        .model
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let m = Manifest {
        puzzlesat: env!("CARGO_PKG_VERSION").to_string(),
        command: command.to_vec(),
        directory: std::env::current_dir()?,
        claim,
        value,
        model: name(files.model),
        proof: name(files.proof),
        proof_model: files.proof_model.map(name),
        solutions: files.solutions.map(name),
    };
    let mut pending = crate::io::output::Pending::new(dir, &manifest_name(&stem))?;
    std::io::Write::write_all(pending.writer(), m.to_toml().as_bytes())?;
    let placed = crate::io::output::publish_new(dir, &stem, vec![("claim.toml", pending)])?;
    if placed.first().map(|p| p.as_path()) != Some(dir.join(manifest_name(&stem)).as_path()) {
        anyhow::bail!(
            "{}: a manifest of that stem is already there",
            dir.display()
        );
    }
    Ok(())
}

/// What a claim's manifest says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// the version of puzzlesat that wrote it
    pub puzzlesat: String,
    /// the run's arguments (after the program's name); `verify` derives the
    /// model from them
    pub command: Vec<String>,
    /// the directory the run was started in (relative paths in `command`)
    pub directory: PathBuf,
    /// `count`, `optimal` or `infeasible`
    pub claim: ClaimKind,
    /// the number of solutions, or the optimum as the puzzle counts it
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// the model, as `puzzlesat opb` writes it
    pub model: String,
    /// the proof of the claim
    pub proof: String,
    /// the model the proof starts from, when it is not `model` (a count:
    /// the model plus the logged solutions' exclusions)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_model: Option<String>,
    /// a count's solutions proof, over `model`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions: Option<String>,
}

/// The kinds of claims a manifest holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    /// exactly N solutions
    Count,
    /// the optimum
    Optimal,
    /// no solution
    Infeasible,
}

impl Manifest {
    /// The manifest as TOML, with a first comment line saying how to use it.
    pub fn to_toml(&self) -> String {
        format!(
            "# A claim kept by puzzlesat; re-check it with `puzzlesat verify DIR`\n{}",
            toml::to_string(self).expect("a manifest is plain data")
        )
    }
}
