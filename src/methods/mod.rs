//! Each family's methods beside the SAT run, as library calls returning a
//! [`crate::report::Report`], below the command line (which only maps its
//! arguments onto them): Alien Tiles' play and goal search, Enigma's
//! methods and Table 2, magic's stages and line sets, and a bare DIMACS
//! CNF solved as one run.

pub mod alien_tiles;
pub mod enigma;
pub mod goal_certify;
pub mod magic;
pub mod sat;
