//! The loops, written once for every puzzle and backend: optimise a linear
//! objective by iterative bound tightening ([`optimize`]), or a score the
//! puzzle computes from each solution ([`optimize_scored`]), enumerate all
//! solutions projected onto primary literals ([`enumerate`]), expand
//! symmetry classes into solutions and count them ([`classes`]), optimise
//! or count cube by cube with a file of results that a rerun resumes from,
//! or split a search without SAT the same way ([`cubes`], the one cube
//! engine), find in stages ([`staged`]); and the one proof plan of a
//! `--certify` run ([`proof`]).

pub mod classes;
pub mod cubes;
pub mod proof;
pub mod staged;

pub use puzzlesat_encodings::solve::{
    enumerate, enumerate_lazy, optimize, optimize_lazy, optimize_scored, Enumeration, Incumbent,
    Objective, ObjectiveBound, Optimum, ScoredOptimum, ScoredSearch, Search, Sense, Strategy,
};
