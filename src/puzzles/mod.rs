//! One module per puzzle family: `model` (instance and solution types),
//! `encode` (its CNF variants), `check` (independent checker), and where the
//! analysis gives one, `reference` (structured non-SAT solver).

pub mod alien_tiles;
pub mod enigma;
pub mod magic;
pub mod rook_tour;
