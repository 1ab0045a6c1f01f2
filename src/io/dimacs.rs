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

use std::io::{self, BufRead, Read, Write};

use super::show;

use puzzlesat_encodings::lines::{LineError, NumberedLines};
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
    /// reading failed (or compressed data is corrupt)
    #[error("line {line}: {error}")]
    Io {
        /// 1-based number of the line being read
        line: usize,
        /// the error (not a `source`: the message already shows it)
        error: io::Error,
    },
}

impl From<LineError> for DimacsError {
    fn from(e: LineError) -> Self {
        match e {
            LineError::Io { line, error } => DimacsError::Io { line, error },
            LineError::TooLong { line, max } => DimacsError::Malformed {
                line,
                what: format!("line longer than {max} bytes"),
            },
        }
    }
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
pub fn write_wcnf(
    out: &mut impl Write,
    cnf: &Cnf,
    soft: &[(Lit, u64)],
    header: &[String],
) -> io::Result<()> {
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
pub fn write_opb(
    out: &mut impl Write,
    cnf: &Cnf,
    minimize: &[(Lit, i64)],
    header: &[String],
) -> io::Result<i64> {
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
    writeln!(
        out,
        "* #variable= {} #constraint= {}",
        cnf.n_vars(),
        cnf.len()
    )?;
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

/// Reads a DIMACS CNF, as leniently as CaDiCaL and no more: `c` comment
/// lines anywhere, and a `c` comment after the literals of a line (after a
/// clause's 0 too); clauses may span lines; a `%` line ends the formula
/// (SATLIB files end with `%` and `0`). The `p cnf VARS CLAUSES` line is
/// required before the first clause and both counts are checked. Input
/// compressed with gzip, xz or bzip2 is recognised by its magic bytes and
/// decompressed as it is read. Refused, each with its line: a UTF-8 byte
/// order mark (CaDiCaL refuses it too), any token that is not an integer
/// literal (shown escaped: a NUL byte reads `\x00`).
///
/// Nothing is allocated for the declared sizes: the variable count is a
/// bound every literal is checked against (the [`Cnf`] records it, see
/// [`used_vars`]), the clause count is compared with the clauses read.
pub fn read_cnf(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let input = decompress(input).map_err(|error| DimacsError::Io { line: 1, error })?;
    let mut cnf = Cnf::new();
    let mut header: Option<(u32, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut clause_start = 0;
    let mut lines = NumberedLines::new(input);
    while let Some((lineno, bytes)) = lines.next_line()? {
        let bad = |what: String| DimacsError::Malformed { line: lineno, what };
        if lineno == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            return Err(bad(
                "starts with a UTF-8 byte order mark: DIMACS is plain ASCII (remove the first 3 bytes)"
                    .into(),
            ));
        }
        let mut tokens = bytes
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty());
        let Some(first) = tokens.clone().next() else {
            continue;
        };
        match first[0] {
            b'c' => continue,
            b'%' => break,
            b'p' => {
                if header.is_some() {
                    return Err(bad("second 'p' line".into()));
                }
                header = Some(parse_header(bytes).map_err(bad)?);
                continue;
            }
            _ => {}
        }
        let Some((n_vars, _)) = header else {
            return Err(bad("clause before the 'p cnf' line".into()));
        };
        for tok in tokens.by_ref() {
            // a comment may follow the literals, even glued to one ("1 0c")
            let (lit, comment) = match tok.iter().position(|&b| b == b'c') {
                Some(0) => break,
                Some(i) => (&tok[..i], true),
                None => (tok, false),
            };
            let x = parse_literal(lit)
                .ok_or_else(|| bad(format!("'{}' is not an integer literal", show(tok))))?;
            if x == 0 {
                cnf.add(&clause);
                clause.clear();
            } else {
                if x.unsigned_abs() > u64::from(n_vars) {
                    return Err(bad(format!(
                        "literal {x} exceeds the declared {n_vars} variables"
                    )));
                }
                if clause.is_empty() {
                    clause_start = lineno;
                }
                // |x| <= n_vars <= MAX_VARS, so the literal exists
                let var = Var::new(x.unsigned_abs() as u32 - 1);
                clause.push(if x > 0 { var.pos_lit() } else { var.neg_lit() });
            }
            if comment {
                break;
            }
        }
    }
    let last_line = lines.read().max(1);
    let Some((n_vars, n_clauses)) = header else {
        return Err(DimacsError::Malformed {
            line: last_line,
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

/// `p cnf VARS CLAUSES` → (VARS, CLAUSES), VARS at most [`MAX_VARS`].
fn parse_header(line: &[u8]) -> Result<(u32, usize), String> {
    let f: Vec<&[u8]> = line
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .collect();
    if f.len() != 4 || f[0] != b"p" || f[1] != b"cnf" {
        return Err(format!(
            "expected 'p cnf VARS CLAUSES', got '{}'",
            show(line.trim_ascii())
        ));
    }
    let v: u32 = parse_count(f[2]).ok_or_else(|| format!("bad variable count '{}'", show(f[2])))?;
    if v > MAX_VARS {
        return Err(format!("{v} variables: more than the {MAX_VARS} supported"));
    }
    let c = parse_count(f[3]).ok_or_else(|| format!("bad clause count '{}'", show(f[3])))?;
    Ok((v, c))
}

/// A decimal count: ASCII digits only.
fn parse_count<T: std::str::FromStr>(tok: &[u8]) -> Option<T> {
    if tok.is_empty() || !tok.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(tok).ok()?.parse().ok()
}

/// An integer literal: an optional `-` and ASCII digits, within i64.
fn parse_literal(tok: &[u8]) -> Option<i64> {
    let digits = tok.strip_prefix(b"-").unwrap_or(tok);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(tok).ok()?.parse().ok()
}

/// The number of variables the clauses of `cnf` use (highest index + 1),
/// which can be far below the count a DIMACS header declares: a backend
/// needs only these.
pub fn used_vars(cnf: &Cnf) -> u32 {
    cnf.clauses()
        .flatten()
        .map(|l| l.var().idx32() + 1)
        .max()
        .unwrap_or(0)
}

/// What compressed a stream, from its first bytes.
pub(crate) fn decompress<'a>(mut input: impl BufRead + 'a) -> io::Result<Box<dyn BufRead + 'a>> {
    let head = input.fill_buf()?;
    Ok(if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(io::BufReader::new(Labelled(
            "gzip",
            flate2::bufread::MultiGzDecoder::new(input),
        )))
    } else if head.starts_with(b"\xFD7zXZ\x00") {
        Box::new(io::BufReader::new(Labelled(
            "xz",
            xz2::bufread::XzDecoder::new_multi_decoder(input),
        )))
    } else if head.starts_with(b"BZh") {
        Box::new(io::BufReader::new(Labelled(
            "bzip2",
            bzip2::bufread::MultiBzDecoder::new(input),
        )))
    } else {
        Box::new(input)
    })
}

/// A decompressor whose errors say which format was being read.
struct Labelled<R>(&'static str, R);

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("{} data: {e}", self.0)))
    }
}

/// Reads a DIMACS CNF file (plain or compressed); errors name the file
/// and the line.
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
