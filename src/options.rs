//! The options of a run: what the runner ([`crate::run`]) and the cube
//! driver ([`crate::drive::cubes`]) are asked to do, below both so that
//! neither imports the other for them.

use std::path::PathBuf;
use std::time::Duration;

use puzzlesat_encodings::pb::PbEncoding;

use crate::certify::Producer;
use crate::drive::Strategy;
use crate::solver::SolverKind;

/// Options common to every puzzle's `solve`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// backend
    pub solver: SolverKind,
    /// wall-clock limit for the whole run
    pub timeout: Option<Duration>,
    /// enumerate all solutions (of the optimum, for optimisation puzzles)
    pub all: bool,
    /// stop enumerating after this many
    pub limit: Option<u64>,
    /// PB encoding of the objective bound
    pub objective_encoding: PbEncoding,
    /// bound search strategy
    pub strategy: Strategy,
    /// stop at the first solution even if the puzzle has an objective
    pub first: bool,
    /// the backend's random seed (None: its default search)
    pub seed: Option<u64>,
    /// certify every UNSAT answer a claim rests on, with proofs from this
    /// solver (`--certify`, `--proof-solver`)
    pub certify: Option<Producer>,
    /// with `all`: enumerate every solution by blocking clauses even where
    /// the puzzle counts by symmetry classes (`--no-classes`)
    pub no_classes: bool,
    /// optimise cube by cube (`--cubes`, [`crate::drive::cubes`])
    pub cubes: Option<CubeOptions>,
}

/// `--cubes`, `--cube-file`, `--cube`, `--jobs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeOptions {
    /// at least this many cubes (rounded up to a power of two)
    pub count: u32,
    /// where results are appended and read back from
    pub file: Option<PathBuf>,
    /// solve this cube alone (a cluster job)
    pub only: Option<u32>,
    /// threads, each with its own solver session
    pub jobs: usize,
    /// take records of another build or CNF from the file
    /// (`--trust-cube-file`); the claim then says trusted
    pub trust: bool,
}
