//! The integration tests, gathered into one binary (one link of the
//! library instead of one per file): each file of this folder is a module,
//! named as the file was (`cargo test --release --test suite veripb::`
//! runs one of them). `backends` and `dimacs` stay binaries of their own:
//! CI runs them again with the `cadical` feature.

#[path = "../common/mod.rs"]
mod common;

mod alien_tiles;
mod alien_tiles_rowcol;
mod alien_tiles_witnesses;
mod architecture;
mod certify;
mod certify_cli;
mod count_cubes;
mod cubes;
mod docs_commands;
mod drivers;
mod enigma;
mod enumeration;
mod experiment;
mod fuzz_parsers;
mod goal_certificate;
mod hardening;
mod library_client;
mod magic;
mod magic_reference;
mod output;
mod part_claims;
mod pb;
mod pictures;
mod queens;
mod rook_tour;
mod verify;
mod veripb;
mod veripb_symmetry;
