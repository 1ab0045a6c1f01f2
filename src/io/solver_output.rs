//! SAT-competition solver output: `s SATISFIABLE` / `s UNSATISFIABLE` /
//! `s UNKNOWN` and `v` lines of literals ending in 0 (the format of the SAT
//! Competition rules), and MiniSat's result file (`SAT` / `UNSAT` /
//! `INDET`, then one line of literals ending in 0), which MiniSat and
//! Glucose write instead of `s`/`v` lines.
//!
//! Parsing never panics: malformed output is a [`DimacsError`] with its
//! 1-based line number.

use std::io::{BufRead, Write};

use puzzlesat_encodings::lines::NumberedLines;
use puzzlesat_encodings::Assignment;
use rustsat::types::{Lit, Var};

use super::dimacs::DimacsError;
use super::show;

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
    fn read(&mut self, tokens: &[u8], line: usize) -> Result<(), DimacsError> {
        let bad = |what: String| DimacsError::Malformed { line, what };
        for tok in tokens
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
        {
            let x: i64 = std::str::from_utf8(tok)
                .ok()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| bad(format!("'{}' is not a literal", show(tok))))?;
            if self.terminated {
                return Err(bad(format!("literal {x} after the terminating 0")));
            }
            if x == 0 {
                self.terminated = true;
                continue;
            }
            if x.unsigned_abs() > u64::from(self.n_vars) {
                return Err(bad(format!(
                    "literal {x} exceeds the formula's {} variables",
                    self.n_vars
                )));
            }
            let slot = &mut self.values[x.unsigned_abs() as usize - 1];
            match *slot {
                Some(v) if v != (x > 0) => {
                    return Err(bad(format!(
                        "variable {} assigned both ways",
                        x.unsigned_abs()
                    )))
                }
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

/// The longest output line read for a formula over `n_vars` variables:
/// room for every literal of the model on one line (MiniSat writes it so),
/// and at least 1 MiB. A longer line is an error, not a buffer that grows
/// with whatever a solver prints.
pub fn max_line(n_vars: u32) -> usize {
    (1 << 20).max(12 * n_vars as usize + 64)
}

/// The lines of a solver's output, each at most [`max_line`] bytes.
fn lines<R: BufRead>(input: R, n_vars: u32) -> NumberedLines<R> {
    NumberedLines::at_most(input, max_line(n_vars))
}

/// Parses SAT-competition output (`c` and other lines are ignored) for a
/// formula over `n_vars` variables. A MiniSat result file (first line
/// `SAT`, `UNSAT` or `INDET`) is recognised and read as [`parse_minisat`]
/// does.
pub fn parse(text: &str, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    parse_reader(text.as_bytes(), n_vars)
}

/// [`parse`] of a stream, read line by line: the memory used is the model
/// and one line (at most [`max_line`] bytes), whatever the solver prints.
pub fn parse_reader(input: impl BufRead, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    let mut lines = lines(input, n_vars);
    let mut status: Option<SolverAnswer> = None;
    let mut model = ModelReader::new(n_vars.min(Var::MAX_IDX));
    let mut first = true;
    while let Some((lineno, t)) = lines.next_line()? {
        let t = t.trim_ascii();
        if first && !t.is_empty() {
            first = false;
            if matches!(t, b"SAT" | b"UNSAT" | b"INDET") {
                let status = t.to_vec();
                return minisat_rest(&status, lines, n_vars);
            }
        }
        let bad = |what: String| DimacsError::Malformed { line: lineno, what };
        let (key, rest) = match t.iter().position(u8::is_ascii_whitespace) {
            Some(i) => (&t[..i], &t[i..]),
            None => (t, &b""[..]),
        };
        match key {
            b"s" => {
                if status.is_some() {
                    return Err(bad("second 's' line".into()));
                }
                status = Some(match rest.trim_ascii() {
                    b"SATISFIABLE" => SolverAnswer::Sat(Assignment::default()),
                    b"UNSATISFIABLE" => SolverAnswer::Unsat,
                    b"UNKNOWN" | b"INDETERMINATE" => SolverAnswer::Unknown,
                    other => return Err(bad(format!("unknown status '{}'", show(other)))),
                });
            }
            b"v" => model.read(rest, lineno)?,
            _ => {}
        }
    }
    let last_line = lines.read().max(1);
    match status {
        Some(SolverAnswer::Sat(_)) => Ok(SolverAnswer::Sat(model.finish(last_line)?)),
        Some(answer) => Ok(answer),
        None => Err(DimacsError::Malformed {
            line: last_line,
            what: "no 's' status line".into(),
        }),
    }
}

/// Parses MiniSat's result file (`minisat in.cnf out.txt`): `SAT` and a
/// line of literals ending in 0, `UNSAT`, or `INDET`.
pub fn parse_minisat(text: &str, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    parse_minisat_reader(text.as_bytes(), n_vars)
}

/// [`parse_minisat`] of a stream.
pub fn parse_minisat_reader(input: impl BufRead, n_vars: u32) -> Result<SolverAnswer, DimacsError> {
    let mut lines = lines(input, n_vars);
    while let Some((_, t)) = lines.next_line()? {
        let t = t.trim_ascii();
        if !t.is_empty() {
            let status = t.to_vec();
            return minisat_rest(&status, lines, n_vars);
        }
    }
    Err(DimacsError::Malformed {
        line: 1,
        what: "empty result file".into(),
    })
}

/// The rest of a MiniSat result file after its status line.
fn minisat_rest<R: BufRead>(
    status: &[u8],
    mut lines: NumberedLines<R>,
    n_vars: u32,
) -> Result<SolverAnswer, DimacsError> {
    match status {
        b"SAT" => {
            let mut model = ModelReader::new(n_vars.min(Var::MAX_IDX));
            while let Some((line, t)) = lines.next_line()? {
                model.read(t.trim_ascii(), line)?;
            }
            Ok(SolverAnswer::Sat(model.finish(lines.read())?))
        }
        b"UNSAT" => Ok(SolverAnswer::Unsat),
        b"INDET" => Ok(SolverAnswer::Unknown),
        other => Err(DimacsError::Malformed {
            line: lines.read(),
            what: format!("expected SAT, UNSAT or INDET, got '{}'", show(other)),
        }),
    }
}

/// Writes a model as `v` lines (at most 10 literals a line) ending in 0.
pub fn write_model(out: &mut impl Write, a: &Assignment) -> std::io::Result<()> {
    write_model_padded(out, a, a.len() as u32)
}

/// Writes a model over `n_vars` variables as `v` lines (at most 10
/// literals a line) ending in 0: variables past the end of `a` (declared
/// but used by no clause) are written false.
pub fn write_model_padded(
    out: &mut impl Write,
    a: &Assignment,
    n_vars: u32,
) -> std::io::Result<()> {
    let n = (n_vars as usize).max(a.len());
    for start in (0..n).step_by(10) {
        write!(out, "v")?;
        for i in start..n.min(start + 10) {
            let x = i as i64 + 1;
            let value = a.values().get(i).copied().unwrap_or(false);
            write!(out, " {}", if value { x } else { -x })?;
        }
        writeln!(out)?;
    }
    writeln!(out, "v 0")
}
