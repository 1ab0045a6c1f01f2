//! The solving layer as the command line sees it. The [`Backend`] trait,
//! the [`Session`], the embedded backends (BatSat, Varisat, Splr, CaDiCaL)
//! and the drivers live in `puzzlesat_encodings::solve`, which a library
//! user depends on without this crate; re-exported here. This module adds
//! the two backends of the front end and the `--solver` option that names
//! them all:
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
    abandonable, batsat, splr, varisat, wait_for, Backend, InSearch, Limits, MakeBackend,
    ModelVerdict, Outcome, Session, Solver, SolverError, SolverStats, Waited,
};

/// Which backend: the `--solver` option.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum SolverKind {
    /// BatSat via rustsat-batsat (pure Rust, incremental) — the default
    #[default]
    Batsat,
    /// Varisat (pure Rust, incremental, DRAT proofs)
    Varisat,
    /// Splr (pure Rust, one-shot)
    Splr,
    /// CaDiCaL linked in (feature `cadical`)
    Cadical,
    /// any DIMACS solver executable, by name on PATH or path
    External(String),
    /// races the embedded backends on threads, first answer wins
    Portfolio,
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverKind::Batsat => f.write_str("batsat"),
            SolverKind::Varisat => f.write_str("varisat"),
            SolverKind::Splr => f.write_str("splr"),
            SolverKind::Cadical => f.write_str("cadical"),
            SolverKind::External(cmd) => write!(f, "external:{cmd}"),
            SolverKind::Portfolio => f.write_str("portfolio"),
        }
    }
}

impl FromStr for SolverKind {
    type Err = SolverError;
    fn from_str(s: &str) -> Result<Self, SolverError> {
        Ok(match s {
            "batsat" => SolverKind::Batsat,
            "varisat" => SolverKind::Varisat,
            "splr" => SolverKind::Splr,
            "cadical" => SolverKind::Cadical,
            "portfolio" => SolverKind::Portfolio,
            _ => match s.strip_prefix("external:") {
                Some(cmd) if !cmd.is_empty() => SolverKind::External(cmd.to_string()),
                _ => return Err(SolverError::UnknownSolver(s.to_string())),
            },
        })
    }
}

impl MakeBackend for SolverKind {
    fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        match self {
            SolverKind::Batsat => Solver::Batsat.create(),
            SolverKind::Varisat => Solver::Varisat.create(),
            SolverKind::Splr => Solver::Splr.create(),
            SolverKind::Cadical => Solver::Cadical.create(),
            SolverKind::External(cmd) => Ok(Box::new(external::External::new(cmd)?)),
            SolverKind::Portfolio => Ok(Box::new(portfolio::Portfolio::new(&portfolio::members()))),
        }
    }
}

impl SolverKind {
    /// A fresh backend of this kind.
    pub fn create(&self) -> Result<Box<dyn Backend>, SolverError> {
        MakeBackend::create(self)
    }
    /// The embedded backends compiled into this binary (no external, no
    /// portfolio): what the portfolio races and the shared tests cover.
    pub fn embedded() -> Vec<SolverKind> {
        let mut v = vec![SolverKind::Batsat, SolverKind::Varisat, SolverKind::Splr];
        if cfg!(feature = "cadical") {
            v.push(SolverKind::Cadical);
        }
        v
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
        assert!("minisat".parse::<SolverKind>().is_err());
    }
}
