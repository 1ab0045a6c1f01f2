//! DIMACS CNF writing (with a comment header) and reading (errors carry the
//! line number; never a panic).

use std::io::{self, BufRead, Write};

use puzzlesat_encodings::{ClauseDatabase, Cnf};
use rustsat::types::Lit;

/// A DIMACS parse error, with its 1-based line number.
#[derive(Debug, thiserror::Error)]
pub enum DimacsError {
    /// malformed content
    #[error("line {line}: {what}")]
    Malformed {
        /// 1-based line number
        line: usize,
        /// what is wrong
        what: String,
    },
    /// reading failed
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes `cnf` as DIMACS, each header line as a `c` comment.
pub fn write_cnf(out: &mut impl Write, cnf: &Cnf, header: &[String]) -> io::Result<()> {
    for h in header {
        writeln!(out, "c {h}")?;
    }
    writeln!(out, "p cnf {} {}", cnf.n_vars(), cnf.len())?;
    for c in cnf.clauses() {
        for l in c {
            write!(out, "{} ", l.to_ipasir())?;
        }
        writeln!(out, "0")?;
    }
    Ok(())
}

/// Reads a DIMACS CNF. The `p` line is required; clauses may span lines.
pub fn read_cnf(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let mut cnf = Cnf::new();
    let mut header: Option<(u32, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let lineno = i + 1;
        last_line = lineno;
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') || t.starts_with('%') {
            continue;
        }
        let bad = |what: String| DimacsError::Malformed { line: lineno, what };
        if t.starts_with('p') {
            let f: Vec<&str> = t.split_whitespace().collect();
            if header.is_some() {
                return Err(bad("second 'p' line".into()));
            }
            if f.len() != 4 || f[1] != "cnf" {
                return Err(bad(format!("expected 'p cnf VARS CLAUSES', got '{t}'")));
            }
            let v = f[2].parse().map_err(|_| bad(format!("bad variable count '{}'", f[2])))?;
            let c = f[3].parse().map_err(|_| bad(format!("bad clause count '{}'", f[3])))?;
            header = Some((v, c));
            continue;
        }
        let Some((n_vars, _)) = header else {
            return Err(bad("clause before the 'p cnf' line".into()));
        };
        for tok in t.split_whitespace() {
            let x: i64 = tok.parse().map_err(|_| bad(format!("'{tok}' is not an integer literal")))?;
            if x == 0 {
                cnf.add(&clause);
                clause.clear();
            } else {
                if x.unsigned_abs() > u64::from(n_vars) {
                    return Err(bad(format!("literal {x} exceeds the declared {n_vars} variables")));
                }
                clause.push(Lit::from_ipasir(x as i32).expect("non-zero, in range"));
            }
        }
    }
    let Some((n_vars, n_clauses)) = header else {
        return Err(DimacsError::Malformed {
            line: last_line,
            what: "no 'p cnf' line".into(),
        });
    };
    if !clause.is_empty() {
        return Err(DimacsError::Malformed {
            line: last_line,
            what: "last clause is not terminated by 0".into(),
        });
    }
    if cnf.len() != n_clauses {
        return Err(DimacsError::Malformed {
            line: last_line,
            what: format!("header declares {n_clauses} clauses, found {}", cnf.len()),
        });
    }
    cnf.increase_next_free_to(n_vars);
    Ok(cnf)
}

trait IncreaseTo {
    fn increase_next_free_to(&mut self, n: u32);
}
impl IncreaseTo for Cnf {
    fn increase_next_free_to(&mut self, n: u32) {
        use rustsat::instances::ManageVars;
        self.increase_next_free(rustsat::types::Var::new(n));
    }
}
