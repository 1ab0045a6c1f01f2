//! SAT-competition solver output: `s SATISFIABLE` / `s UNSATISFIABLE` /
//! `s UNKNOWN` and `v` lines of literals ending in 0 (the format of the SAT
//! Competition rules), and MiniSat's result file (`SAT` / `UNSAT` /
//! `INDET`, then one line of literals ending in 0), which MiniSat and
//! Glucose write instead of `s`/`v` lines.
//!
//! Parsing never panics: malformed output is a [`DimacsError`] with its
//! 1-based line number.

use std::io::Write;

use puzzlesat_encodings::Assignment;
use rustsat::types::{Lit, Var};

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

/// Collects model literals, rejecting out-of-range, contradictory and
/// post-terminator literals.
struct ModelReader {
    n_vars: u32,
    values: Vec<Option<bool>>,
    terminated: bool,
}

impl ModelReader {
    fn new(n_vars: u32) -> Self {
        ModelReader {
            n_vars,
            values: vec![None; n_vars as usize],
            terminated: false,
        }
    }
    fn read(&mut self, tokens: &str, line: usize) -> Result<(), DimacsError> {
        let bad = |what: String| DimacsError::Malformed { line, what };
        for tok in tokens.split_whitespace() {
            let x: i64 = tok.parse().map_err(|_| bad(format!("'{tok}' is not a literal")))?;
            if self.terminated {
                return Err(bad(format!("literal {x} after the terminating 0")));
            }
            if x == 0 {
                self.terminated = true;
                continue;
            }
            if x.unsigned_abs() > u64::from(self.n_vars) {
                return Err(bad(format!("literal {x} exceeds the formula's {} variables", self.n_vars)));
            }
            let slot = &mut self.values[x.unsigned_abs() as usize - 1];
            match *slot {
                Some(v) if v != (x > 0) => return Err(bad(format!("variable {} assigned both ways", x.unsigned_abs()))),
                _ => *slot = Some(x > 0),
            }
        }
        Ok(())
    }
    /// The model (unmentioned variables false), if terminated by 0.
    fn finish(self, last_line: usize) -> Result<Assignment, DimacsError> {
        if !self.terminated {
            return Err(DimacsError::Malformed {
                line: last_line,
                what: "model not terminated by 0".into(),
            });
        }
        let lits = self
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|b| Lit::new(i as u32, !b)));
        Ok(Assignment::from_lits(self.n_vars, lits))
    }
}

/// Parses SAT-competition output (`c` and other lines are ignored) for a
/// formula over `n_vars` variables.
pub fn parse(text: &str, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    let mut status: Option<SolverAnswer> = None;
    let mut model = ModelReader::new(n_vars.min(Var::MAX_IDX));
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        last_line = lineno;
        let bad = |what: String| DimacsError::Malformed { line: lineno, what };
        let t = line.trim();
        let (key, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        match key {
            "s" => {
                if status.is_some() {
                    return Err(bad("second 's' line".into()));
                }
                status = Some(match rest.trim() {
                    "SATISFIABLE" => SolverAnswer::Sat(Assignment::default()),
                    "UNSATISFIABLE" => SolverAnswer::Unsat,
                    "UNKNOWN" | "INDETERMINATE" => SolverAnswer::Unknown,
                    other => return Err(bad(format!("unknown status '{other}'"))),
                });
            }
            "v" => model.read(rest, lineno)?,
            _ => {}
        }
    }
    match status {
        Some(SolverAnswer::Sat(_)) => Ok(SolverAnswer::Sat(model.finish(last_line)?)),
        Some(answer) => Ok(answer),
        None => Err(DimacsError::Malformed {
            line: last_line.max(1),
            what: "no 's' status line".into(),
        }),
    }
}

/// Parses MiniSat's result file (`minisat in.cnf out.txt`): `SAT` and a
/// line of literals ending in 0, `UNSAT`, or `INDET`.
pub fn parse_minisat(text: &str, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((i, first)) = lines.next() else {
        return Err(DimacsError::Malformed {
            line: 1,
            what: "empty result file".into(),
        });
    };
    match first.trim() {
        "SAT" => {
            let mut model = ModelReader::new(n_vars.min(Var::MAX_IDX));
            let mut last_line = i + 1;
            for (j, line) in lines {
                last_line = j + 1;
                model.read(line, j + 1)?;
            }
            Ok(SolverAnswer::Sat(model.finish(last_line)?))
        }
        "UNSAT" => Ok(SolverAnswer::Unsat),
        "INDET" => Ok(SolverAnswer::Unknown),
        other => Err(DimacsError::Malformed {
            line: i + 1,
            what: format!("expected SAT, UNSAT or INDET, got '{other}'"),
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
