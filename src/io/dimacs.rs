//! DIMACS CNF writing (with a comment header) and reading, plus the two
//! objective formats: WCNF in the MaxSAT Evaluation 2022 format (hard
//! clauses prefixed by `h`, soft clauses by their weight) and OPB, the
//! pseudo-Boolean competition format (Roussel & Manquinho, "Input/Output
//! Format and Solver Requirements for the Competitions of Pseudo-Boolean
//! Solvers", 2016).
//!
//! Reading never panics: every malformed line is a [`DimacsError`] with its
//! 1-based line number (tested on a corpus of malformed files in
//! `tests/dimacs.rs`).

use std::io::{self, BufRead, Write};

use puzzlesat_encodings::{ClauseDatabase, Cnf};
use rustsat::instances::ManageVars;
use rustsat::types::{Lit, Var};

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

/// The largest variable count accepted when reading: 2^26 (67 million),
/// far above real instances and below what would exhaust memory when a
/// solver allocates every declared variable (rustsat's own limit is 2^31).
pub const MAX_VARS: u32 = 1 << 26;

/// Writes a clause list as DIMACS, each header line as a `c` comment.
pub fn write_clauses<'a>(
    out: &mut impl Write,
    n_vars: u32,
    n_clauses: usize,
    clauses: impl IntoIterator<Item = &'a [Lit]>,
    header: &[String],
) -> io::Result<()> {
    for h in header {
        writeln!(out, "c {h}")?;
    }
    writeln!(out, "p cnf {n_vars} {n_clauses}")?;
    for c in clauses {
        write_lits(out, c)?;
        writeln!(out, "0")?;
    }
    Ok(())
}

fn write_lits(out: &mut impl Write, lits: &[Lit]) -> io::Result<()> {
    for l in lits {
        write!(out, "{} ", l.to_ipasir())?;
    }
    Ok(())
}

/// Writes `cnf` as DIMACS, each header line as a `c` comment.
pub fn write_cnf(out: &mut impl Write, cnf: &Cnf, header: &[String]) -> io::Result<()> {
    write_clauses(out, cnf.n_vars(), cnf.len(), cnf.clauses(), header)
}

/// Writes a weighted MaxSAT instance in the 2022 WCNF format: every clause
/// of `cnf` is hard (`h ... 0`), and each `(lit, weight)` of `soft` is a
/// soft unit clause `weight lit 0` — falsifying it costs `weight`. Terms
/// of weight 0 are left out (they cost nothing). The optimum cost is the
/// least total weight of soft literals that must be false.
pub fn write_wcnf(out: &mut impl Write, cnf: &Cnf, soft: &[(Lit, u64)], header: &[String]) -> io::Result<()> {
    for h in header {
        writeln!(out, "c {h}")?;
    }
    for c in cnf.clauses() {
        write!(out, "h ")?;
        write_lits(out, c)?;
        writeln!(out, "0")?;
    }
    for &(l, w) in soft.iter().filter(|&&(_, w)| w > 0) {
        writeln!(out, "{w} {} 0", l.to_ipasir())?;
    }
    Ok(())
}

/// Writes an OPB instance: the objective `min: Σ coef·lit` (literals
/// rewritten over variables `x1..xN`; the constant this rewriting produces
/// is reported in a comment and returned) and every clause as the linear
/// constraint `Σ_{pos} x − Σ_{neg} x ≥ 1 − #neg`. Only the standard OPB
/// syntax is used (no `~x` negation), so every PB solver reads it.
/// Returns the constant `c` such that the original objective equals the
/// OPB objective plus `c`.
pub fn write_opb(out: &mut impl Write, cnf: &Cnf, minimize: &[(Lit, i64)], header: &[String]) -> io::Result<i64> {
    // objective over variables: coef·¬x = coef − coef·x
    let mut constant = 0i64;
    let mut objective: Vec<(i64, u32)> = Vec::new();
    for &(l, c) in minimize.iter().filter(|&&(_, c)| c != 0) {
        if l.is_pos() {
            objective.push((c, l.var().idx32() + 1));
        } else {
            constant += c;
            objective.push((-c, l.var().idx32() + 1));
        }
    }
    writeln!(out, "* #variable= {} #constraint= {}", cnf.n_vars(), cnf.len())?;
    for h in header {
        writeln!(out, "* {h}")?;
    }
    if !objective.is_empty() {
        writeln!(out, "* literal objective = OPB objective + {constant}")?;
        write!(out, "min:")?;
        for (c, x) in &objective {
            write!(out, " {c:+} x{x}")?;
        }
        writeln!(out, " ;")?;
    }
    for clause in cnf.clauses() {
        let negatives = clause.iter().filter(|l| l.is_neg()).count() as i64;
        for l in clause {
            let x = l.var().idx32() + 1;
            if l.is_pos() {
                write!(out, "+1 x{x} ")?;
            } else {
                write!(out, "-1 x{x} ")?;
            }
        }
        writeln!(out, ">= {} ;", 1 - negatives)?;
    }
    Ok(constant)
}

/// Reads a DIMACS CNF. The `p cnf VARS CLAUSES` line is required before the
/// first clause and its counts are checked; clauses may span lines; `c`
/// lines are comments; a `%` line ends the formula (SATLIB files end with
/// `%` and `0`).
pub fn read_cnf(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let mut cnf = Cnf::new();
    let mut header: Option<(u32, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    let mut clause_start = 0;
    for (i, line) in input.lines().enumerate() {
        let lineno = i + 1;
        let bad = |what: String| DimacsError::Malformed { line: lineno, what };
        let line = line.map_err(|e| match e.kind() {
            io::ErrorKind::InvalidData => bad("not UTF-8 text".into()),
            _ => DimacsError::Io(e),
        })?;
        last_line = lineno;
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if t.starts_with('%') {
            break;
        }
        if t.starts_with('p') {
            let f: Vec<&str> = t.split_whitespace().collect();
            if header.is_some() {
                return Err(bad("second 'p' line".into()));
            }
            if f.len() != 4 || f[0] != "p" || f[1] != "cnf" {
                return Err(bad(format!("expected 'p cnf VARS CLAUSES', got '{t}'")));
            }
            let v: u32 = f[2].parse().map_err(|_| bad(format!("bad variable count '{}'", f[2])))?;
            if v > MAX_VARS {
                return Err(bad(format!("{v} variables: more than the {MAX_VARS} supported")));
            }
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
                if clause.is_empty() {
                    clause_start = lineno;
                }
                // |x| <= n_vars <= MAX_VARS, so the literal exists
                let var = Var::new(x.unsigned_abs() as u32 - 1);
                clause.push(if x > 0 { var.pos_lit() } else { var.neg_lit() });
            }
        }
    }
    let Some((n_vars, n_clauses)) = header else {
        return Err(DimacsError::Malformed {
            line: last_line.max(1),
            what: "no 'p cnf' line".into(),
        });
    };
    if !clause.is_empty() {
        return Err(DimacsError::Malformed {
            line: clause_start,
            what: "last clause is not terminated by 0".into(),
        });
    }
    if cnf.len() != n_clauses {
        return Err(DimacsError::Malformed {
            line: last_line,
            what: format!("header declares {n_clauses} clauses, found {}", cnf.len()),
        });
    }
    cnf.increase_next_free(Var::new(n_vars));
    Ok(cnf)
}

/// Reads a DIMACS CNF file; errors name the file and the line.
pub fn read_cnf_file(path: &std::path::Path) -> anyhow::Result<Cnf> {
    use anyhow::Context;
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    read_cnf(io::BufReader::new(file)).with_context(|| format!("reading {}", path.display()))
}

/// Which file format `dimacs` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// DIMACS CNF (decision problem; with `--bound`, the objective bound)
    #[default]
    Cnf,
    /// MaxSAT WCNF (2022 format): hard clauses plus the objective as soft units
    Wcnf,
    /// OPB: the objective as `min:` plus every clause as a linear constraint
    Opb,
}
