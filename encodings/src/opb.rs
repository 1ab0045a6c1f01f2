//! Reading OPB files into a [`PbModel`]: the linear subset of the format
//! of the pseudo-Boolean competitions (Roussel & Manquinho, "Input/Output
//! Format and Solver Requirements for the Competitions of Pseudo-Boolean
//! Solvers"), as [`PbModel::write_opb`] writes it.
//!
//! Read: an optional first line `* #variable= N #constraint= M …` (both
//! counts then checked against the file), comment lines starting with `*`,
//! an optional objective `min: Σ a x ;` (or `max:`) before the constraints,
//! and constraints `Σ a l  >=|<=|=  b ;`, with literals `x` or `~x` named
//! as VeriPB names them ([`crate::pbmodel::valid_name`]); a term may also
//! be written `a*l`, as the PB evaluation of 2005 wrote it. A statement ends
//! at its `;` and may span lines. Refused, each with its line: non-linear
//! terms (a product of literals), a term without its integer coefficient,
//! a coefficient or a constraint's sum of coefficients beyond 64 bits,
//! strict relations, anything after the last `;`. Nothing is allocated for
//! the declared sizes.

use std::fmt;
use std::io::{self, BufRead};

use crate::lines::{LineError, NumberedLines};
use crate::pbmodel::{valid_name, PbLit, PbModel, PbObjective, PbSense, Relation};

/// The most variables a model read from a file may have (the CNF's
/// variables are 31-bit indices, and the encodings add their own).
pub const MAX_VARS: usize = 1 << 26;

/// Why an OPB file was refused: its line and what is wrong there.
#[derive(Debug)]
pub enum OpbError {
    /// the input could not be read
    Io {
        /// the line being read
        line: usize,
        /// the error
        error: io::Error,
    },
    /// the text is not OPB as this reader takes it
    Malformed {
        /// the line (from 1)
        line: usize,
        /// what is wrong
        what: String,
    },
}

impl fmt::Display for OpbError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OpbError::Io { line, error } => write!(f, "line {line}: {error}"),
            OpbError::Malformed { line, what } => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for OpbError {}

impl From<LineError> for OpbError {
    fn from(e: LineError) -> Self {
        match e {
            LineError::Io { line, error } => OpbError::Io { line, error },
            LineError::TooLong { line, max } => bad(line, format!("line longer than {max} bytes")),
        }
    }
}

/// The statement being read: its tokens, each with its line.
#[derive(Default)]
struct Statement {
    tokens: Vec<(String, usize)>,
}

/// The sizes the header line declares.
struct Header {
    vars: u64,
    constraints: u64,
}

/// Parses `* #variable= N #constraint= M …`; None for another comment.
fn header(line: &str, lineno: usize) -> Result<Option<Header>, OpbError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) != Some(&"#variable=") {
        return Ok(None);
    }
    let count = |key: &str| -> Result<u64, OpbError> {
        let i = words
            .iter()
            .position(|w| *w == key)
            .ok_or_else(|| bad(lineno, format!("the header has no {key}")))?;
        let v = words.get(i + 1).copied().unwrap_or("");
        v.parse()
            .map_err(|_| bad(lineno, format!("the header's {key} '{v}' is not a count")))
    };
    Ok(Some(Header {
        vars: count("#variable=")?,
        constraints: count("#constraint=")?,
    }))
}

fn bad(line: usize, what: String) -> OpbError {
    OpbError::Malformed { line, what }
}

/// Reads an OPB file (plain text; see the module doc). Errors name the
/// line.
pub fn read_opb(input: impl BufRead) -> Result<PbModel, OpbError> {
    let mut model = PbModel::new();
    let mut declared: Option<Header> = None;
    let mut stmt = Statement::default();
    let mut lines = NumberedLines::new(input);
    while let Some((lineno, bytes)) = lines.next_line()? {
        let line = std::str::from_utf8(bytes)
            .map_err(|_| bad(lineno, "not ASCII text (OPB is plain ASCII)".into()))?;
        let trimmed = line.trim_start();
        if trimmed.starts_with('*') {
            if lineno == 1 {
                declared = header(trimmed, lineno)?;
            }
            continue;
        }
        for word in line.split_whitespace() {
            // `;` may stick to the token before it (`>= 1;`)
            let (word, ends) = match word.strip_suffix(';') {
                Some(w) => (w, true),
                None => (word, false),
            };
            if !word.is_empty() {
                if word.contains(';') {
                    return Err(bad(lineno, format!("'{word};': one statement per ';'")));
                }
                stmt.tokens.push((word.to_string(), lineno));
            }
            if ends {
                statement(&mut model, std::mem::take(&mut stmt), lineno)?;
            }
        }
    }
    if let Some((tok, line)) = stmt.tokens.first() {
        return Err(bad(
            *line,
            format!("the statement starting with '{tok}' has no closing ';'"),
        ));
    }
    if let Some(h) = declared {
        if h.constraints != model.constraints().len() as u64 {
            return Err(bad(
                1,
                format!(
                    "the header declares {} constraints, the file has {}",
                    h.constraints,
                    model.constraints().len()
                ),
            ));
        }
        if (model.n_vars() as u64) > h.vars {
            return Err(bad(
                1,
                format!(
                    "the header declares {} variables, the file uses {}",
                    h.vars,
                    model.n_vars()
                ),
            ));
        }
    }
    Ok(model)
}

/// Adds one statement (the tokens before a `;`, the `;` on line `end`).
fn statement(model: &mut PbModel, stmt: Statement, end: usize) -> Result<(), OpbError> {
    let first_line = stmt.tokens.first().map_or(end, |t| t.1);
    let mut tokens = stmt.tokens.as_slice();
    let mut sense = None;
    if let Some((t, line)) = tokens.first() {
        for (key, s) in [("min:", PbSense::Minimize), ("max:", PbSense::Maximize)] {
            if let Some(rest) = t.strip_prefix(key) {
                if !rest.is_empty() {
                    return Err(bad(*line, format!("'{t}': a space must follow '{key}'")));
                }
                sense = Some(s);
            }
        }
    }
    if let Some(sense) = sense {
        if model.objective().is_some() || !model.constraints().is_empty() {
            return Err(bad(
                first_line,
                "the objective must come once, before every constraint".into(),
            ));
        }
        let terms = terms(model, &tokens[1..])?;
        model.set_objective(PbObjective {
            sense,
            terms,
            offset: 0,
        });
        return Ok(());
    }
    let Some(rel_at) = tokens.iter().position(|(t, _)| is_relation(t)) else {
        return Err(bad(
            first_line,
            "a constraint needs >=, <= or = before its right-hand side".into(),
        ));
    };
    let (rel, line) = &tokens[rel_at];
    let relation = match rel.as_str() {
        ">=" => Relation::AtLeast,
        "<=" => Relation::AtMost,
        "=" => Relation::Equal,
        other => {
            return Err(bad(
                *line,
                format!("'{other}': the relation must be >=, <= or ="),
            ))
        }
    };
    let lhs = terms(model, &tokens[..rel_at])?;
    tokens = &tokens[rel_at + 1..];
    let rhs = match tokens {
        [(t, line)] => coefficient(t).ok_or_else(|| {
            bad(
                *line,
                format!("the right-hand side '{t}' is not a 64-bit integer"),
            )
        })?,
        [] => return Err(bad(end, format!("no right-hand side after '{rel}'"))),
        [_, (t, line), ..] => {
            return Err(bad(
                *line,
                format!("'{t}' after the right-hand side (a missing ';'?)"),
            ))
        }
    };
    let mut total: i64 = 0;
    for &(a, _) in &lhs {
        total = total
            .checked_add(a.checked_abs().unwrap_or(i64::MAX))
            .ok_or_else(|| bad(first_line, "the coefficients' sum exceeds 64 bits".into()))?;
    }
    model.linear(lhs, relation, rhs, None);
    Ok(())
}

fn is_relation(t: &str) -> bool {
    matches!(t, ">=" | "<=" | "=" | ">" | "<" | "==" | "=>" | "=<")
}

/// An integer coefficient: an optional sign and ASCII digits, within i64.
fn coefficient(t: &str) -> Option<i64> {
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The terms `a l a l …` of a sum. A literal glued to the next
/// coefficient (`-1 x4-1 x5`, as some published files have it) is split
/// where reading it whole would make a product of literals.
fn terms(model: &mut PbModel, tokens: &[(String, usize)]) -> Result<Vec<(i64, PbLit)>, OpbError> {
    let mut tokens: std::collections::VecDeque<(String, usize)> = tokens.iter().cloned().collect();
    let mut out = vec![];
    while let Some((t, line)) = tokens.pop_front() {
        // `+25*x1`: a term as the PB evaluation of 2005 wrote it
        let t = match t.split_once('*') {
            Some((c, l)) if coefficient(c).is_some() && literal_like(l) => {
                tokens.push_front((l.to_string(), line));
                c.to_string()
            }
            _ => t,
        };
        let Some(a) = coefficient(&t) else {
            let what = if literal_like(&t) {
                format!("the term '{t}' has no integer coefficient (write '+1 {t}')")
            } else {
                format!("'{t}' is not an integer coefficient")
            };
            return Err(bad(line, what));
        };
        let Some((mut l, line)) = tokens.pop_front() else {
            return Err(bad(line, format!("the coefficient '{t}' has no literal")));
        };
        let product = |next: Option<&(String, usize)>| {
            next.is_some_and(|(n, _)| coefficient(n).is_none() && literal_like(n))
        };
        if product(tokens.front()) {
            if let Some((name, coef)) = glued(&l) {
                tokens.push_front((coef.to_string(), line));
                l = name.to_string();
            } else {
                let (next, line) = tokens.front().expect("a next token");
                return Err(bad(
                    *line,
                    format!("'{l} {next}': a product of literals (non-linear OPB is not read)"),
                ));
            }
        }
        out.push((a, literal(model, &l, line)?));
    }
    Ok(out)
}

/// `x4-1` as the literal `x4` and the coefficient `-1`.
fn glued(t: &str) -> Option<(&str, &str)> {
    let at = t.rfind(['+', '-'])?;
    let (name, coef) = t.split_at(at);
    (literal_like(name) && coefficient(coef).is_some()).then_some((name, coef))
}

fn literal_like(t: &str) -> bool {
    valid_name(t.strip_prefix('~').unwrap_or(t))
}

/// A literal `x` or `~x`, its variable created on first use.
fn literal(model: &mut PbModel, t: &str, line: usize) -> Result<PbLit, OpbError> {
    let (name, negated) = match t.strip_prefix('~') {
        Some(n) => (n, true),
        None => (t, false),
    };
    if !valid_name(name) {
        return Err(bad(
            line,
            format!("'{t}' is not a literal (a name: a letter, then letters, digits or _[]{{}}^-)"),
        ));
    }
    if model.lookup(name).is_none() && model.n_vars() >= MAX_VARS {
        return Err(bad(line, format!("more than {MAX_VARS} variables")));
    }
    let v = model.var(name);
    Ok(if negated { v.neg() } else { v.pos() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PbModel, String> {
        read_opb(text.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_what_write_opb_writes() {
        let text = "* #variable= 3 #constraint= 3\n* a comment\nmin: +1 x1 -2 ~x3 ;\n\
                    +1 x1 +1 x2 >= 1 ;\n+2 x1\n +3 ~x2 <= 3;\n1 x1 1 x2 1 x3 = 2 ;\n";
        let m = read(text).unwrap();
        assert_eq!(m.n_vars(), 3);
        assert_eq!(m.constraints().len(), 3);
        assert_eq!(m.constraints()[1].relation, Relation::AtMost);
        assert_eq!(m.constraints()[1].terms[1].0, 3);
        assert!(m.constraints()[1].terms[1].1.negated);
        let obj = m.objective().unwrap();
        assert_eq!(obj.terms.len(), 2);
        // the model writes itself back and reads the same
        let again = read(&m.to_opb()).unwrap();
        assert_eq!(again.constraints(), m.constraints());
        assert_eq!(again.objective(), m.objective());
        // x1 = x2 = 1, x3 = 0 satisfies all three
        assert_eq!(m.check_named(["x1", "x2"]), Ok(()));
        // a literal glued to the next coefficient, a name with '-' kept whole
        let m = read("-1 x7 -1 x4-1 x5 +2 y-2 >= -2 ;\n").unwrap();
        let names: Vec<&str> = m.vars().map(|v| m.name(v)).collect();
        assert_eq!(names, ["x7", "x4", "x5", "y-2"]);
        assert_eq!(m.constraints()[0].terms[2].0, -1);
        assert!(m.check_named(["x1", "x2", "x3"]).is_err());
        // the PB evaluation of 2005's `coefficient*literal`
        let m = read("min: +25*x1 +3*x2 ;\n+1*x1 +2*~x2 >= +1;\n").unwrap();
        assert_eq!(m.objective().unwrap().terms[0].0, 25);
        assert_eq!(m.constraints()[0].terms[1].0, 2);
        assert!(m.constraints()[0].terms[1].1.negated);
    }

    #[test]
    fn malformed_inputs_name_their_line() {
        for (text, line, what) in [
            ("+1 x1 >= 1\n", 1, "no closing ';'"),
            ("+1 x1 x2 >= 1 ;\n", 1, "product of literals"),
            ("+1 x1 -1 x4-1 x5 x6 >= 1 ;\n", 1, "'x5 x6': a product"),
            ("x1 >= 1 ;\n", 1, "no integer coefficient"),
            ("+1 x1 > 0 ;\n", 1, "must be >=, <= or ="),
            ("* c\n+1 x1 +1 x2 1 ;\n", 2, "needs >=, <= or ="),
            ("+1 x1 >= ;\n", 1, "no right-hand side"),
            ("+1 x1 >= 1 2 ;\n", 1, "after the right-hand side"),
            ("+1 x1 >= 99999999999999999999 ;\n", 1, "64-bit"),
            ("+1 3x >= 1 ;\n", 1, "not a literal"),
            ("+1 x1 >= 1 ;\nmin: +1 x1 ;\n", 2, "before every constraint"),
            (
                "* #variable= 1 #constraint= 2\n+1 x1 >= 1 ;\n",
                1,
                "declares 2 constraints",
            ),
            (
                "* #variable= 1 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n",
                1,
                "declares 1 variables",
            ),
            ("* #variable= x #constraint= 1\n", 1, "not a count"),
            (
                "+9223372036854775807 x1 +1 x2 >= 1 ;\n",
                1,
                "exceeds 64 bits",
            ),
        ] {
            let err = read(text).expect_err(text);
            assert!(
                err.starts_with(&format!("line {line}: ")),
                "{text:?}: {err}"
            );
            assert!(err.contains(what), "{text:?}: {err}");
        }
        let err = read_opb(&b"+1 x1 >= 1 ;\n\xff\n"[..])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("line 2: not ASCII"), "{err}");
    }
}
