//! SAT-competition solver output: `s SATISFIABLE` / `s UNSATISFIABLE` /
//! `s UNKNOWN` and `v` lines of literals ending in 0.

use std::io::Write;

use puzzlesat_encodings::Assignment;
use rustsat::types::Lit;

use super::dimacs::DimacsError;

/// The status line's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// `s SATISFIABLE` with its model
    Sat(Assignment),
    /// `s UNSATISFIABLE`
    Unsat,
    /// `s UNKNOWN`
    Unknown,
}

/// Parses solver output (other lines, e.g. `c` comments, are ignored).
pub fn parse(text: &str, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    let mut status: Option<&str> = None;
    let mut lits: Vec<Lit> = Vec::new();
    let mut terminated = false;
    for (i, line) in text.lines().enumerate() {
        let bad = |what: String| DimacsError::Malformed { line: i + 1, what };
        let t = line.trim();
        if let Some(s) = t.strip_prefix("s ") {
            if status.is_some() {
                return Err(bad("second 's' line".into()));
            }
            status = Some(match s.trim() {
                "SATISFIABLE" => "sat",
                "UNSATISFIABLE" => "unsat",
                "UNKNOWN" | "INDETERMINATE" => "unknown",
                other => return Err(bad(format!("unknown status '{other}'"))),
            });
        } else if let Some(vs) = t.strip_prefix("v ").or(if t == "v" { Some("") } else { None }) {
            for tok in vs.split_whitespace() {
                let x: i64 = tok.parse().map_err(|_| bad(format!("'{tok}' is not a literal")))?;
                if x == 0 {
                    terminated = true;
                } else if x.unsigned_abs() > u64::from(n_vars) {
                    return Err(bad(format!("literal {x} exceeds the formula's {n_vars} variables")));
                } else {
                    lits.push(Lit::from_ipasir(x as i32).expect("in range"));
                }
            }
        }
    }
    match status {
        Some("sat") => {
            if !terminated {
                return Err(DimacsError::Malformed {
                    line: text.lines().count(),
                    what: "model ('v' lines) not terminated by 0".into(),
                });
            }
            Ok(SolverAnswer::Sat(Assignment::from_lits(n_vars, lits)))
        }
        Some("unsat") => Ok(SolverAnswer::Unsat),
        Some(_) => Ok(SolverAnswer::Unknown),
        None => Err(DimacsError::Malformed {
            line: text.lines().count(),
            what: "no 's' status line".into(),
        }),
    }
}

/// Writes a model as `v` lines (at most 10 literals a line) ending in 0.
pub fn write_model(out: &mut impl Write, a: &Assignment) -> std::io::Result<()> {
    let lits: Vec<i64> = (0..a.len())
        .map(|i| if a.values()[i] { i as i64 + 1 } else { -(i as i64 + 1) })
        .collect();
    for chunk in lits.chunks(10) {
        write!(out, "v")?;
        for x in chunk {
            write!(out, " {x}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "v 0")
}
