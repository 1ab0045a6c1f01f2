//! Enigma 1225 ("rows are columns"), generalised to n×n, after Cambazard,
//! O'Sullivan & Smith, "A Constraint-based Approach to Enigma 1225".
//! Three methods reach the proven optimum: the board in CNF (`encode`), SAT
//! over cycle types (`partitions`) and the structured search (`reference`).

pub mod brute;
pub mod check;
pub mod model;
pub mod paper;
pub mod partitions;
pub mod reference;
pub mod unary;
