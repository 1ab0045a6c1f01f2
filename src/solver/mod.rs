//! The solving layer as the command line sees it. The [`Backend`] trait,
//! the [`Session`], the embedded backends (BatSat, Varisat, Splr, CaDiCaL)
//! and the drivers live in `puzzlesat_encodings::solve`, which a library
//! user depends on without this crate; re-exported here. This module adds
//! the front end's backends (the portfolio in [`FRONT_END`], the external
//! solver) and the `--solver` option, whose names, help and `list` lines
//! come from the registry ([`registry`]); each backend declares its
//! [`Capabilities`], and [`SolverKind::refuse_unless`] refuses before the
//! run what a backend cannot honour:
//!
//! | backend | incremental | failed assumptions | time limit / interrupt | statistics |
//! | --- | --- | --- | --- | --- |
//! | [`external`] | no: CNF file + subprocess | all assumptions | yes / yes (the process is killed) | none |
//! | [`portfolio`] | yes (one worker thread per embedded backend) | the winner's | yes / yes | the winner's |

pub mod external;
pub mod portfolio;

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "cadical")]
pub use puzzlesat_encodings::solve::cadical;
pub use puzzlesat_encodings::solve::{
    abandonable, batsat, splr, varisat, wait_for, Backend, BackendInfo, Capabilities, InSearch,
    Limits, MakeBackend, ModelVerdict, Outcome, Session, Solver, SolverError, SolverStats, Waited,
    EMBEDDED,
};

/// The backends the command line names, with the embedded ones of the
/// library first: one registration line each. `external:<command>` (any
/// DIMACS solver, [`external::CAN`]) is the one backend outside it, named
/// by its command.
pub const FRONT_END: &[BackendInfo] = &[portfolio::BACKEND];

/// Every registered backend: the library's embedded ones, then the front
/// end's.
pub fn registry() -> impl Iterator<Item = &'static BackendInfo> {
    EMBEDDED.iter().chain(FRONT_END)
}

/// Which backend: the `--solver` option, a registered backend by name or an
/// external DIMACS solver.
#[derive(Clone, Debug)]
pub enum SolverKind {
    /// a backend of the [`registry`]
    Registered(&'static BackendInfo),
    /// any DIMACS solver executable, by name on PATH or path
    External(String),
}

impl PartialEq for SolverKind {
    fn eq(&self, other: &SolverKind) -> bool {
        match (self, other) {
            (SolverKind::Registered(a), SolverKind::Registered(b)) => a.name == b.name,
            (SolverKind::External(a), SolverKind::External(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for SolverKind {}

/// The default: the first embedded backend (BatSat).
impl Default for SolverKind {
    fn default() -> Self {
        SolverKind::Registered(&EMBEDDED[0])
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverKind::Registered(b) => f.write_str(b.name),
            SolverKind::External(cmd) => write!(f, "external:{cmd}"),
        }
    }
}

impl FromStr for SolverKind {
    type Err = SolverError;
    fn from_str(s: &str) -> Result<Self, SolverError> {
        if let Some(b) = registry().find(|b| b.name == s) {
            return Ok(SolverKind::Registered(b));
        }
        match s.strip_prefix("external:") {
            Some(cmd) if !cmd.is_empty() => Ok(SolverKind::External(cmd.to_string())),
            _ => Err(SolverError::UnknownSolver {
                name: s.to_string(),
                known: format!("{} or external:<command>", names()),
            }),
        }
    }
}

impl MakeBackend for SolverKind {
    fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        match self {
            SolverKind::Registered(b) => b.create(),
            SolverKind::External(cmd) => Ok(Box::new(external::External::new(cmd)?)),
        }
    }
}

/// The `--solver` help: the registered names and the external form.
pub fn help() -> String {
    format!(
        "SAT backend: {}, external:<cmd or path> (any DIMACS solver)",
        names()
    )
}

/// `puzzlesat list`'s lines about the solvers: each registered backend with
/// what it can do, and the external form.
pub fn listing() -> String {
    let mut out = String::from("solvers (--solver):\n");
    let yes = |b: bool, what: &str| if b { Some(what.to_string()) } else { None };
    for b in registry() {
        let c = b.can;
        let can: Vec<String> = [
            yes(c.seed, "seed"),
            yes(c.conflict_limit, "conflict limit"),
            yes(c.interrupt, "interrupt"),
            yes(c.proof, "proof output"),
            yes(c.assumptions, "incremental assumptions"),
        ]
        .into_iter()
        .flatten()
        .collect();
        out += &match (b.make, can.is_empty()) {
            (None, _) => format!(
                "  {:<14} not compiled in (cargo feature {})\n",
                b.name, b.name
            ),
            (Some(_), true) => format!("  {:<14} {}\n", b.name, b.about),
            (Some(_), false) => format!("  {:<14} {} — {}\n", b.name, b.about, can.join(", ")),
        };
    }
    out += &format!(
        "  {:<14} any DIMACS solver, a process per call — interrupt\n",
        "external:<cmd>"
    );
    out
}

/// The registered names, comma-separated.
pub fn names() -> String {
    puzzlesat_encodings::solve::names(registry())
}

impl SolverKind {
    /// The registered backend called `name` (e.g. `batsat`); None if there
    /// is none.
    pub fn named(name: &str) -> Option<SolverKind> {
        registry()
            .find(|b| b.name == name)
            .map(SolverKind::Registered)
    }
    /// A fresh backend of this kind.
    pub fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        MakeBackend::create(self)
    }
    /// What it can do.
    pub fn capabilities(&self) -> Capabilities {
        match self {
            SolverKind::Registered(b) => b.can,
            SolverKind::External(_) => external::CAN,
        }
    }
    /// True for the default backend (BatSat).
    pub fn is_default(&self) -> bool {
        *self == SolverKind::default()
    }
    /// True for an external DIMACS solver.
    pub fn is_external(&self) -> bool {
        matches!(self, SolverKind::External(_))
    }
    /// The embedded backends compiled into this binary (no external, no
    /// portfolio): what the portfolio races and the shared tests cover.
    pub fn embedded() -> Vec<SolverKind> {
        EMBEDDED
            .iter()
            .filter(|b| b.make.is_some())
            .map(SolverKind::Registered)
            .collect()
    }
    /// Refuses, in one sentence, what this backend cannot honour of
    /// `wanted` (before the run: e.g. `--seed` with a backend that takes
    /// none); `what` names the request, e.g. `--seed 3`.
    pub fn refuse_unless(&self, wanted: &Capabilities, what: &str) -> anyhow::Result<()> {
        let missing = self.capabilities().missing(wanted);
        if missing.is_empty() {
            return Ok(());
        }
        let able: Vec<&str> = registry()
            .filter(|b| b.make.is_some() && b.can.missing(wanted).is_empty())
            .map(|b| b.name)
            .collect();
        let instead = match able.as_slice() {
            [] => String::new(),
            names => format!(" (solvers that have: {})", names.join(", ")),
        };
        anyhow::bail!(
            "{what}: --solver {self} has no {}{instead}",
            missing.join(" and ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_names_parse_and_print() {
        for name in [
            "batsat",
            "varisat",
            "splr",
            "cadical",
            "portfolio",
            "external:cadical -q",
        ] {
            let kind: SolverKind = name.parse().unwrap();
            assert_eq!(kind.to_string(), name);
        }
        assert!("external:".parse::<SolverKind>().is_err());
        let e = "minisat".parse::<SolverKind>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown solver 'minisat' (expected batsat, varisat, splr, cadical, portfolio or external:<command>)"
        );
        assert!(SolverKind::default().is_default());
        assert_eq!(SolverKind::default().to_string(), "batsat");
    }

    #[test]
    fn capabilities_refuse_in_words() {
        let seed = Capabilities {
            seed: true,
            ..Capabilities::default()
        };
        let varisat: SolverKind = "varisat".parse().unwrap();
        let e = varisat
            .refuse_unless(&seed, "--seed 3")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--seed 3: --solver varisat has no seed (solvers that have: batsat"),
            "{e}"
        );
        assert!(SolverKind::default()
            .refuse_unless(&seed, "--seed 3")
            .is_ok());
        assert!(SolverKind::External("x".into())
            .refuse_unless(&seed, "--seed 3")
            .is_err());
    }
}
