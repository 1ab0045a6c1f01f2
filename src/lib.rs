//! # puzzlesat
//!
//! Combinatorial puzzles compiled to CNF: Enigma 1225, rook tours / Numbrix,
//! magic squares, Alien Tiles and N-queens. Each puzzle implements [`puzzle::Puzzle`];
//! the [`run`] module drives any of them through any [`solver`] backend with
//! the loops of [`drive`] and returns one [`report::Report`]; [`methods`]
//! holds each family's methods beside the SAT run (play, the goal search,
//! Enigma's partitions and table, magic's stages and line sets, a bare
//! DIMACS CNF), each a library call returning a report; [`io`] writes
//! and reads DIMACS and solver output. [`front`] holds the handlers the
//! puzzles' command lines share; [`cli`] parses and dispatches, each
//! family's command line in `cli/<family>.rs`. [`picture`] draws answers as
//! SVG (`--svg`). Imports run one way, down (`tests/suite/architecture.rs`).
//! CNF building blocks live in the `puzzlesat-encodings` crate.

pub mod certify;
pub mod checker;
pub mod cli;
pub mod drive;
pub mod experiment;
pub mod front;
pub mod io;
pub mod methods;
pub mod options;
pub mod picture;
pub mod puzzle;
pub mod puzzles;
pub mod report;
pub mod run;
pub mod solver;
pub mod values;

pub use puzzlesat_encodings as encodings;
