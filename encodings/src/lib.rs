//! # puzzlesat-encodings
//!
//! Puzzle-independent CNF building blocks, in the style of pindakaas and
//! RustSAT: a constraint is *data*, an encoding is a *strategy*, and every
//! encoder writes through one sink, [`ClauseDatabase`], which hands out fresh
//! variables and takes clauses (and counts both).
//!
//! | module | what |
//! | --- | --- |
//! | [`db`] | the [`ClauseDatabase`] trait, the in-memory [`Cnf`], the bridge to RustSAT's encoders |
//! | [`bool`](mod@bool) | Boolean helpers with reification: and, or, implication, equivalence, xor |
//! | [`int`] | order-encoded integers with cached direct literals; comparisons, max, sums (exact, range-restricted, capped); log (binary) encoding |
//! | [`amo`] | at-most-one / exactly-one encodings behind one option |
//! | [`alldiff`] | all-different over integers: at most one per value, or a permutation matrix |
//! | [`card`] | cardinality encodings (totalizer, sequential counter, cardinality network) |
//! | [`pb`] | pseudo-Boolean encodings (generalized totalizer, binary adder, dynamic polynomial watchdog) |
//! | [`lex`] | lexicographic order x ≤lex y |
//! | [`lines`] | text read line by line, each line numbered: the one line reader of the file parsers |
//! | [`perm`] | permutation groups: closure, orbits, lex-leader clauses |
//! | [`provenance`] | the definitions log: auxiliary variables' meaning and clauses' source constraints, for VeriPB proofs |
//! | [`dominance`] | VeriPB derivations of lex-leader clauses by the dominance rule (certified symmetry breaking) |
//! | [`proof`] | VeriPB proof steps as values (`Step`, `Ref`, `Constraint`), written to text in one place |
//! | [`check`] | the [`Checker`] trait: every constraint can test an assignment |
//! | [`pbmodel`] | pseudo-Boolean models over named variables (a puzzle's rules for VeriPB proofs), OPB writing |
//! | `solve` (feature `solve`; with a backend: `batsat` (default), `varisat`, `splr`, `cadical`) | the solving layer: the `Backend` trait, `Session` (a [`ClauseDatabase`] you can solve), the drivers `enumerate` and `optimize` |
//!
//! Without a backend feature (`default-features = false`) the crate is the
//! encoders alone.
#![cfg_attr(feature = "batsat", doc = include_str!("tutorial.md"))]
#![warn(missing_docs)]

pub mod alldiff;
pub mod amo;
pub mod bool;
pub mod card;
pub mod check;
pub mod db;
pub mod dominance;
pub mod int;
pub mod lex;
pub mod lines;
pub mod opb;
pub mod options;
pub mod pb;
pub mod pbmodel;
pub mod perm;
pub mod proof;
pub mod provenance;
#[cfg(feature = "solve")]
pub mod solve;

#[cfg(test)]
extern crate self as puzzlesat_encodings;
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
pub(crate) mod testutil;

pub use check::{Assignment, Checker};
pub use db::{ClauseDatabase, Cnf, EncodeError, Unsatisfiable};
pub use options::OptionEnum;
pub use pbmodel::{PbLit, PbModel, PbVar};
/// RustSAT, the version this crate is built on: use `puzzlesat_encodings::rustsat`
/// instead of pinning it yourself.
pub use rustsat;
pub use rustsat::types::{Clause, Lit, Var};

/// Shorthand for a literal from a 0-based variable index.
pub fn lit(idx: u32, negated: bool) -> Lit {
    Lit::new(idx, negated)
}
