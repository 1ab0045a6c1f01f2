//! The options of a run: what the runner ([`crate::run`]) and the drivers
//! ([`crate::drive::cubes`], [`crate::drive::staged`]) are asked to do,
//! below both so that neither imports the other for them; and the one way
//! a run opens a solver session ([`RunOptions::open`]).

use std::borrow::Cow;
use std::path::PathBuf;

use puzzlesat_encodings::pb::PbEncoding;
use puzzlesat_encodings::solve::{EnumerationEngine, Strategy};

use puzzlesat_encodings::Cnf;

use crate::certify::{Producer, ProofFormat};
use crate::solver::{Capabilities, Limits, Session, SolverKind};

/// Options common to every puzzle's `solve`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// backend
    pub solver: SolverKind,
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
    /// how `all` enumerates (`--enumeration`); None: the puzzle's preferred
    /// engine with the default solver, blocking clauses in any other (see
    /// [`RunOptions::enumeration_engine`])
    pub enumeration: Option<EnumerationEngine>,
    /// with `all`: count only, keep no solution (`--count`: memory stays
    /// flat however many there are)
    pub count_only: bool,
    /// with `certify`: VeriPB proofs from the puzzle's PB model (where the
    /// family has one) or DRAT proofs of the CNF (`--proof-format`)
    pub proof_format: ProofFormat,
    /// with `certify`: keep the PB model and each proof here
    /// (`--proof-dir`)
    pub proof_dir: Option<PathBuf>,
}

impl RunOptions {
    /// The enumeration engine of an `all` run: `--enumeration`, else the
    /// puzzle's `preferred` one with BatSat (the default solver) and
    /// blocking clauses in any other solver. The built-in engine is a
    /// solver of its own: asking for it with another `--solver` is an error.
    pub fn enumeration_engine(
        &self,
        preferred: EnumerationEngine,
    ) -> anyhow::Result<EnumerationEngine> {
        let default_solver = self.solver.is_default();
        match self.enumeration {
            None if default_solver => Ok(preferred),
            None => Ok(EnumerationEngine::Blocking),
            Some(e) if e.built_in().is_some() && !default_solver => anyhow::bail!(
                "--enumeration {e} runs on the built-in all-solutions engine, not on --solver {}: \
                 drop --solver, or use --enumeration blocking",
                self.solver
            ),
            Some(e) => Ok(e),
        }
    }
}

/// What a session is opened for ([`RunOptions::open`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// solve or optimise with `--solver`, for claims that rest on its
    /// UNSAT answers: with `--certify` the formula is recorded
    Claims,
    /// enumerate with this engine (the built-in one, or blocking clauses on
    /// `--solver`; [`RunOptions::enumeration_engine`]): recorded as for
    /// claims
    Enumerate(EnumerationEngine),
    /// a search whose answers are certified apart or never (a cube, `sat`):
    /// `--solver`, nothing recorded
    Search,
    /// stage `k` of a staged search ([`crate::drive::staged`]): `--solver`
    /// seeded with `--seed + k`, so that each stage searches apart
    Stage(u64),
    /// a formula whose UNSAT answer is itself to be proved: `--solver`, no
    /// seed, always recorded
    Proof,
}

/// Set once a run's first solver session is loaded: from then on the
/// solvers and drivers check the limits themselves, and the front end's
/// watchdog (which covers building and loading the CNF) stands down.
static LOADED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a solver session of this process has been loaded
/// ([`RunOptions::open`]).
pub fn session_loaded() -> bool {
    LOADED.load(std::sync::atomic::Ordering::SeqCst)
}

impl RunOptions {
    /// The one way a run opens a solver session: the backend (`--solver`,
    /// or the built-in all-solutions engine when enumerating with it),
    /// seeded by `--seed`, holding `cnf` and, where the purpose asks for it,
    /// recording the formula for proofs (an owned `cnf` is recorded without
    /// a copy).
    pub fn open(
        &self,
        cnf: Cow<'_, Cnf>,
        limits: Limits,
        purpose: Purpose,
    ) -> anyhow::Result<Session> {
        let built_in = match purpose {
            Purpose::Enumerate(engine) => engine.built_in(),
            _ => None,
        };
        let seed = match purpose {
            Purpose::Proof => None,
            Purpose::Stage(k) => self.seed.map(|s| s.wrapping_add(k)),
            _ => self.seed,
        };
        // refused before the backend is made, in words
        if let (Some(seed), Some(_)) = (seed, built_in) {
            anyhow::bail!(
                "--seed {seed}: the built-in all-solutions engine has no seed (--enumeration blocking enumerates on --solver {})",
                self.solver
            );
        }
        if let Some(seed) = seed {
            let wanted = Capabilities {
                seed: true,
                ..Capabilities::default()
            };
            self.solver
                .refuse_unless(&wanted, &format!("--seed {seed}"))?;
        }
        let mut session = match built_in {
            Some(mode) => Session::new(&mode, &cnf, limits)?,
            None => Session::new(&self.solver, &cnf, limits)?,
        };
        if let Some(seed) = seed {
            session.set_seed(seed)?;
        }
        let record = match purpose {
            Purpose::Claims | Purpose::Enumerate(_) => self.certify.is_some(),
            Purpose::Proof => true,
            Purpose::Search | Purpose::Stage(_) => false,
        };
        if record {
            session.record(cnf.into_owned());
        }
        LOADED.store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(session)
    }
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
