//! The loops, written once for every puzzle and backend: optimise a linear
//! objective by iterative bound tightening ([`optimize`]), or a score the
//! puzzle computes from each solution ([`optimize_scored`]), enumerate all
//! solutions projected onto primary literals ([`enumerate`]), expand
//! symmetry classes into solutions ([`classes`]).

pub mod classes;
pub mod enumerate;
pub mod optimize;

pub use enumerate::{enumerate, enumerate_lazy, Enumeration};
pub use optimize::{
    optimize, optimize_lazy, optimize_scored, Objective, ObjectiveBound, Optimum, ScoredOptimum,
    ScoredSearch, Sense, Strategy,
};
