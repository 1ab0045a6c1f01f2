//! The instance (order `n`, optional pinned cells) and the solution (the
//! square), with the parser of `--given` files.
//!
//! A *given* file pins cells of a magic-square completion instance (the form
//! of CSPLib prob019's completion variant): `n` lines of `n` whitespace-separated
//! tokens, each a value in `1..=n²` or one of `0`, `.`, `_` for a free cell.
//! Blank lines and everything after `#` are ignored.

use std::fmt;

use serde::Serialize;

use crate::picture::{Colour, Picture};

/// The magic constant `S = n(n²+1)/2`.
pub fn magic_sum(n: usize) -> u64 {
    let n = n as u64;
    n * (n * n + 1) / 2
}

/// A filled square, row-major: `cells[r][c]` in `1..=n²`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Square {
    /// order
    pub n: usize,
    /// rows of values
    pub cells: Vec<Vec<u32>>,
}

impl Square {
    /// The square as a picture: each cell's value, shaded from light (1)
    /// to dark (n²).
    pub fn picture(&self) -> Picture {
        let n = self.n;
        let top = (n * n).max(2) as f64 - 1.0;
        let labels: Vec<Vec<String>> = self
            .cells
            .iter()
            .map(|row| row.iter().map(u32::to_string).collect())
            .collect();
        let title = format!("magic square n={n}, every line sums to {}", magic_sum(n));
        Picture::board(&labels, title, |r, c| {
            Colour::ramp(0.75 * (self.cells[r][c] as f64 - 1.0) / top)
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.n * self.n).to_string().len();
        for (i, row) in self.cells.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let line: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
            write!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

/// Pinned cells of a completion instance: `cells[r][c] = Some(v)` is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Givens {
    /// order
    pub n: usize,
    /// row-major, `None` = free
    pub cells: Vec<Vec<Option<u32>>>,
}

/// A malformed `--given` file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GivenError {
    /// a row has the wrong number of cells
    #[error("line {line}: {found} cells, expected {expected} (the first row has {expected})")]
    RowLength {
        /// 1-based line
        line: usize,
        /// cells on that line
        found: usize,
        /// the square's order
        expected: usize,
    },
    /// a token that is neither a number nor a free-cell mark
    #[error(
        "line {line}: '{token}' is not a value (expected 1..={max}, or 0 . _ for a free cell)"
    )]
    BadToken {
        /// 1-based line
        line: usize,
        /// the token, escaped (a NUL byte as `\x00`)
        token: String,
        /// n²
        max: usize,
    },
    /// a value outside `1..=n²`
    #[error("line {line}: value {value} is outside 1..={max}")]
    OutOfRange {
        /// 1-based line
        line: usize,
        /// the value
        value: u64,
        /// n²
        max: usize,
    },
    /// a value pinned twice
    #[error("line {line}: value {value} is already given on line {first}")]
    Duplicate {
        /// 1-based line
        line: usize,
        /// the value
        value: u32,
        /// where it was given first
        first: usize,
    },
    /// the number of rows is not the number of columns
    #[error("{rows} rows of {cols} cells: a square needs as many rows as columns")]
    NotSquare {
        /// rows read
        rows: usize,
        /// cells per row
        cols: usize,
    },
    /// the file has no rows
    #[error("no rows: a given file has n lines of n cells")]
    Empty,
}

impl Givens {
    /// No cell pinned.
    pub fn free(n: usize) -> Self {
        Givens {
            n,
            cells: vec![vec![None; n]; n],
        }
    }

    /// Parses a given file (format in the module doc).
    pub fn parse(text: &str) -> Result<Self, GivenError> {
        let mut rows: Vec<Vec<Option<u32>>> = vec![];
        let mut first_line_of: std::collections::HashMap<u32, usize> = Default::default();
        let mut width = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = content.split_whitespace().collect();
            if tokens.is_empty() {
                continue;
            }
            let n = *width.get_or_insert(tokens.len());
            if tokens.len() != n {
                return Err(GivenError::RowLength {
                    line,
                    found: tokens.len(),
                    expected: n,
                });
            }
            let max = n * n;
            let mut row = Vec::with_capacity(n);
            for t in tokens {
                let cell = match t {
                    "." | "_" | "0" => None,
                    _ => {
                        let value: u64 = t.parse().map_err(|_| GivenError::BadToken {
                            line,
                            token: crate::io::show(t.as_bytes()),
                            max,
                        })?;
                        if value == 0 || value > max as u64 {
                            return Err(GivenError::OutOfRange { line, value, max });
                        }
                        let value = value as u32;
                        if let Some(&first) = first_line_of.get(&value) {
                            return Err(GivenError::Duplicate { line, value, first });
                        }
                        first_line_of.insert(value, line);
                        Some(value)
                    }
                };
                row.push(cell);
            }
            rows.push(row);
        }
        let Some(n) = width else {
            return Err(GivenError::Empty);
        };
        if rows.len() != n {
            return Err(GivenError::NotSquare {
                rows: rows.len(),
                cols: n,
            });
        }
        Ok(Givens { n, cells: rows })
    }

    /// Number of pinned cells.
    pub fn count(&self) -> usize {
        self.cells.iter().flatten().filter(|c| c.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_free_marks_comments_and_blank_lines() {
        let g = Givens::parse("# a 3x3\n2 . _\n\n0 5 0  # centre\n. . 8\n").unwrap();
        assert_eq!(g.n, 3);
        assert_eq!(g.cells[0], vec![Some(2), None, None]);
        assert_eq!(g.cells[1][1], Some(5));
        assert_eq!(g.count(), 3);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let cases = [
            ("1 2 3\n4 5\n6 7 8\n", "line 2: 2 cells, expected 3"),
            ("1 2 3\n4 x 6\n7 8 9\n", "line 2: 'x' is not a value"),
            (
                "1 2 3\n\n4 10 6\n7 8 9\n",
                "line 3: value 10 is outside 1..=9",
            ),
            (
                "1 2 3\n4 5 6\n7 8 1\n",
                "line 3: value 1 is already given on line 1",
            ),
            ("1 2 3\n4 5 6\n", "2 rows of 3 cells"),
            ("# nothing\n\n", "no rows"),
            ("1 -2 3\n4 5 6\n7 8 9\n", "line 1: '-2' is not a value"),
        ];
        for (text, want) in cases {
            let e = Givens::parse(text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{text:?}: got {e:?}, want {want:?}");
        }
    }

    #[test]
    fn magic_sums() {
        assert_eq!(magic_sum(3), 15);
        assert_eq!(magic_sum(4), 34);
        assert_eq!(magic_sum(8), 260);
    }
}
