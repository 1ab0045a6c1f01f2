//! The loops, written once for every puzzle and backend: optimise a linear
//! objective by iterative bound tightening ([`optimize`]), or a score the
//! puzzle computes from each solution ([`optimize_scored`]), enumerate all
//! solutions projected onto primary literals ([`enumerate`]), expand
//! symmetry classes into solutions ([`classes`]).

pub mod classes;

pub use puzzlesat_encodings::solve::{
    enumerate, enumerate_lazy, optimize, optimize_lazy, optimize_scored, Enumeration, Objective,
    ObjectiveBound, Optimum, ScoredOptimum, ScoredSearch, Sense, Strategy,
};
