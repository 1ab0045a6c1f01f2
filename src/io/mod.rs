//! Files in and out: DIMACS CNF / WCNF / OPB writing and reading
//! ([`dimacs`]) and SAT-competition solver output (`s`/`v` lines,
//! [`solver_output`]).

pub mod dimacs;
pub mod solver_output;
