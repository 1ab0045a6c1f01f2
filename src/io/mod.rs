//! Files in and out: DIMACS CNF reading and writing, WCNF and OPB writing
//! ([`dimacs`]), SAT-competition solver output (`s`/`v` lines, MiniSat
//! result files: [`solver_output`]), and generated formulas with known
//! answers for tests and benches ([`generate`]).

pub mod dimacs;
pub mod generate;
pub mod solver_output;
