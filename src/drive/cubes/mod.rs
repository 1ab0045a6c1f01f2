//! One cube engine, written once for every puzzle: a run split into
//! cubes ([`split`]), solved on `--jobs` threads ([`threads`]), each
//! finished cube appended to one record file that a rerun resumes from
//! ([`file`], generic over the record), and three searches over them:
//! optimise a CNF objective ([`optimise`]), count the solutions
//! ([`count`]), and a search without SAT that splits itself
//! ([`native::CubeSearch`]: Alien Tiles' goal search, magic's line sets).

pub use crate::options::CubeOptions;

pub mod count;
mod file;
pub mod native;
pub mod optimise;
mod split;
mod threads;

pub use file::{fingerprint, witness_hex, witness_model, BUILD};
pub use split::{Split, MAX_CUBES};
