//! One module per puzzle family: `model` (instance and solution types),
//! `encode` (its CNF variants), `check` (independent checker), and where
//! the analysis gives one, `reference` (structured non-SAT solver). A family
//! knows the puzzle contract ([`crate::puzzle`]) and the encodings crate,
//! never the runner, the drivers, the front end or a solver: its command
//! line lives with the CLI (`crate::cli::<family>`), which hands the
//! family's value to the runner. A family is registered there by one line of
//! `puzzles!` (`crate::cli`).

pub mod alien_tiles;
pub mod enigma;
pub mod magic;
pub mod pb;
pub mod queens;
pub mod rook_tour;
