//! Numbered-path boards: the instance (board, value sets, givens, path or
//! tour), its TOML file format (documented in `docs/rook-tour.md`), and the
//! solution type.
//!
//! The rules: place 1..R·C on an R×C board so that consecutive numbers are
//! orthogonally adjacent (a Hamiltonian path); for a tour R·C must also be
//! adjacent to 1. A cell marked with a set holds a value of that set; a set
//! marked `exactly = true` has its values only in its marked cells. A given
//! cell holds its given value.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// Board cells are numbered row-major: `r * cols + c` (0-based).
pub type Cell = usize;

/// The largest board accepted (cells): the position encoding has cells²
/// variables.
pub const MAX_CELLS: usize = 1024;

/// A named set of values a marked cell must take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueSet {
    /// the key in `[sets]`, also the grid token marking its cells
    pub name: String,
    /// what the values are (`primes`, `squares`, `explicit list`, ...)
    pub kind: String,
    /// the values, sorted, within 1..=cells
    pub values: Vec<u32>,
    /// the set's values occur only in its marked cells
    pub exactly: bool,
}

/// A board to fill with a numbered path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Instance {
    /// title
    pub name: String,
    /// where the puzzle comes from
    pub source: Option<String>,
    /// rows
    pub rows: usize,
    /// columns
    pub cols: usize,
    /// value R·C must be adjacent to 1
    pub tour: bool,
    /// the value sets
    pub sets: Vec<ValueSet>,
    /// per cell: the index in `sets` of the set marking it
    pub marks: Vec<Option<usize>>,
    /// per cell: its given value
    pub givens: Vec<Option<u32>>,
}

/// A filled board: `values[r][c]` in 1..=R·C.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Numbering {
    /// the numbers, row by row
    pub values: Vec<Vec<u32>>,
}

impl Numbering {
    /// The value of a cell (row-major index).
    pub fn at(&self, cell: Cell) -> u32 {
        let cols = self.values[0].len();
        self.values[cell / cols][cell % cols]
    }
    /// From row-major values.
    pub fn from_cells(rows: usize, cols: usize, vals: &[u32]) -> Self {
        assert_eq!(vals.len(), rows * cols);
        Numbering {
            values: vals.chunks(cols).map(|r| r.to_vec()).collect(),
        }
    }
    /// Row-major values.
    pub fn cells(&self) -> Vec<u32> {
        self.values.iter().flatten().copied().collect()
    }
}

/// A malformed instance file: what is wrong and where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{file}:{line}:{col}: {what}")]
pub struct InstanceError {
    /// file name (as given)
    pub file: String,
    /// 1-based line
    pub line: usize,
    /// 1-based column
    pub col: usize,
    /// the problem
    pub what: String,
}

impl Instance {
    /// Number of cells (= the largest value).
    pub fn n(&self) -> usize {
        self.rows * self.cols
    }

    /// The orthogonal neighbours of a cell.
    pub fn neighbours(&self, cell: Cell) -> Vec<Cell> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let mut v = Vec::with_capacity(4);
        if r > 0 {
            v.push(cell - self.cols);
        }
        if c > 0 {
            v.push(cell - 1);
        }
        if c + 1 < self.cols {
            v.push(cell + 1);
        }
        if r + 1 < self.rows {
            v.push(cell + self.cols);
        }
        v
    }

    /// `r,c` 1-based, for messages and variable names.
    pub fn cell_name(&self, cell: Cell) -> String {
        format!("{},{}", cell / self.cols + 1, cell % self.cols + 1)
    }

    /// The values each cell may take under the rules, `allowed[cell][v]` for
    /// `v` in 1..=n (index 0 unused): a given cell only its value; a marked
    /// cell only its set's values; no other cell a given value or a value of
    /// an `exactly` set it is not marked with. Every encoding restricts cells
    /// by this table.
    pub fn allowed(&self) -> Vec<Vec<bool>> {
        let n = self.n();
        let given: Vec<u32> = self.givens.iter().flatten().copied().collect();
        (0..n)
            .map(|cell| {
                let mut ok = vec![true; n + 1];
                ok[0] = false;
                match self.givens[cell] {
                    Some(g) => ok
                        .iter_mut()
                        .enumerate()
                        .for_each(|(v, o)| *o &= v == g as usize),
                    None => given.iter().for_each(|&g| ok[g as usize] = false),
                }
                for (i, set) in self.sets.iter().enumerate() {
                    if self.marks[cell] == Some(i) {
                        let mut inside = vec![false; n + 1];
                        set.values.iter().for_each(|&v| inside[v as usize] = true);
                        ok.iter_mut().zip(inside).for_each(|(o, i)| *o &= i);
                    } else if set.exactly {
                        set.values.iter().for_each(|&v| ok[v as usize] = false);
                    }
                }
                ok
            })
            .collect()
    }

    /// Parses an instance file (TOML; see `docs/rook-tour.md`). `file` names
    /// the source in error messages. The phases: the board's size, the
    /// value sets, the grid's rows, the grid's cells.
    pub fn from_toml(text: &str, file: &str) -> Result<Instance, InstanceError> {
        let src = Source { text, file };
        let raw: RawInstance = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            src.at(offset, toml_message(&e))
        })?;
        let (rows, cols) = board_size(&raw, &src)?;
        let n = (rows * cols) as u32;
        let sets = raw
            .sets
            .iter()
            .map(|(name, set)| value_set(name, set, n, &src))
            .collect::<Result<Vec<_>, _>>()?;
        let grid = GridRows::of(&raw.grid, rows, &src)?;
        let (marks, givens) = grid.cells(cols, n, &sets)?;
        Ok(Instance {
            name: raw.name.unwrap_or_else(|| file.to_string()),
            source: raw.source,
            rows,
            cols,
            tour: raw.tour,
            sets,
            marks,
            givens,
        })
    }

    /// Reads and parses an instance file.
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<Instance> {
        let text = crate::io::input::read_text(path)?;
        Ok(Self::from_toml(&text, &path.display().to_string())?)
    }
}

impl fmt::Display for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rook-tour '{}' {}x{} {}",
            self.name,
            self.rows,
            self.cols,
            if self.tour { "tour" } else { "path" }
        )
    }
}

/// A grid token or set name that reads as an integer (an optional sign and
/// decimal digits, however many: a 23-digit given is a number out of range,
/// not an unknown token).
fn is_number(tok: &str) -> bool {
    let digits = tok.strip_prefix(['+', '-']).unwrap_or(tok);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The keys of an instance file's top level (before any `[table]` header).
const TOP_LEVEL_KEYS: [&str; 6] = ["name", "source", "rows", "cols", "tour", "grid"];

/// A TOML parse error's message, with a hint when a top-level key was read
/// as a key of a `[sets.…]` table: in TOML every key after a table header
/// belongs to that table, so the top-level keys must come first.
fn toml_message(e: &toml::de::Error) -> String {
    let message = crate::io::one_line(e.message());
    let misplaced = TOP_LEVEL_KEYS
        .iter()
        .find(|k| message.contains(&format!("unknown field `{k}`")));
    match misplaced {
        Some(k) => format!(
            "{message} (in TOML, a key after a [table] header belongs to that table: put `{k}` and the other top-level keys before the first [sets.…] header)"
        ),
        None => message,
    }
}

/// Trial division (values are at most [`MAX_CELLS`]).
pub fn is_prime(v: u32) -> bool {
    v >= 2 && (2..).take_while(|d| d * d <= v).all(|d| v % d != 0)
}

fn is_square(v: u32) -> bool {
    let r = (v as f64).sqrt().round() as u32;
    r * r == v
}

/// Per cell: the index in the value sets of the set marking it.
type Marks = Vec<Option<usize>>;
/// Per cell: its given value.
type Givens = Vec<Option<u32>>;

/// An instance file's text and name, for errors that say where.
struct Source<'a> {
    text: &'a str,
    file: &'a str,
}

impl Source<'_> {
    /// The error `what` at byte `offset` of the text.
    fn at(&self, offset: usize, what: String) -> InstanceError {
        let (line, col) = crate::io::line_col(self.text, offset);
        InstanceError {
            file: self.file.to_string(),
            line,
            col,
            what,
        }
    }
}

/// The board's rows and columns: each at least 1, at most [`MAX_CELLS`]
/// cells in all.
fn board_size(raw: &RawInstance, src: &Source) -> Result<(usize, usize), InstanceError> {
    let (rows, cols) = (*raw.rows.get_ref(), *raw.cols.get_ref());
    for (what, v) in [("rows", &raw.rows), ("cols", &raw.cols)] {
        if *v.get_ref() == 0 {
            return Err(src.at(v.span().start, format!("{what} must be at least 1")));
        }
    }
    if rows * cols > MAX_CELLS {
        return Err(src.at(
            raw.cols.span().start,
            format!(
                "board {rows}x{cols} has {} cells, over the limit of {MAX_CELLS}",
                rows * cols
            ),
        ));
    }
    Ok((rows, cols))
}

/// The value set `name` of `[sets]`, its values within 1..=n; its name must
/// read as a grid token (not '.', a number or blank).
fn value_set(
    name: &str,
    raw: &Spanned<RawSet>,
    n: u32,
    src: &Source,
) -> Result<ValueSet, InstanceError> {
    if name.is_empty() || name == "." || is_number(name) || name.contains(char::is_whitespace) {
        return Err(src.at(
            raw.span().start,
            format!(
                "set name '{name}' cannot be used as a grid token (not '.', a number or blank)"
            ),
        ));
    }
    let rs = raw.get_ref();
    let (kind, values) = match rs.values.get_ref() {
        RawValues::Named(s) => {
            let vals: Vec<u32> = match s.as_str() {
                "primes" => (1..=n).filter(|&v| is_prime(v)).collect(),
                "squares" => (1..=n).filter(|&v| is_square(v)).collect(),
                "odd" => (1..=n).filter(|v| v % 2 == 1).collect(),
                "even" => (1..=n).filter(|v| v % 2 == 0).collect(),
                other => {
                    return Err(src.at(
                        rs.values.span().start,
                        format!("unknown value set '{other}' (expected primes, squares, odd, even or a list of numbers)"),
                    ))
                }
            };
            (s.clone(), vals)
        }
        RawValues::List(list) => {
            let mut vals = Vec::new();
            for v in list {
                if *v < 1 || *v > n as i64 {
                    return Err(src.at(
                        rs.values.span().start,
                        format!("value {v} in set '{name}' is outside 1..={n}"),
                    ));
                }
                vals.push(*v as u32);
            }
            vals.sort_unstable();
            vals.dedup();
            ("explicit list".to_string(), vals)
        }
    };
    Ok(ValueSet {
        name: name.to_string(),
        kind,
        values,
        exactly: rs.exactly,
    })
}

/// The grid's non-blank rows, each with its index among the string's
/// lines, and where they stand in the file.
struct GridRows<'a> {
    rows: Vec<(usize, &'a str)>,
    /// the file's line of the grid's first row
    first_line: usize,
    /// a multi-line string: a row's line is first_line + its index
    multiline: bool,
    file: &'a str,
}

impl<'a> GridRows<'a> {
    /// The rows of `grid`, which must be `rows` many.
    fn of(grid: &'a Spanned<String>, rows: usize, src: &Source<'a>) -> Result<Self, InstanceError> {
        // the line of the first grid row: a multi-line string drops its first newline
        let literal = &src.text[grid.span()];
        let mut first_line = crate::io::line_col(src.text, grid.span().start).0;
        let multiline = literal.starts_with("\"\"\"") || literal.starts_with("'''");
        if multiline && literal[3..].starts_with(['\n', '\r']) {
            first_line += 1;
        }
        let found = GridRows {
            rows: grid
                .get_ref()
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .collect(),
            first_line,
            multiline,
            file: src.file,
        };
        if found.rows.len() != rows {
            let idx = found.rows.last().map_or(0, |l| l.0);
            return Err(found.err(
                idx,
                format!(
                    "the grid has {} rows, expected rows = {rows}",
                    found.rows.len()
                ),
            ));
        }
        Ok(found)
    }

    /// The error `what` on the grid's line `idx`.
    fn err(&self, idx: usize, what: String) -> InstanceError {
        InstanceError {
            file: self.file.to_string(),
            line: self.first_line + if self.multiline { idx } else { 0 },
            col: 1,
            what,
        }
    }

    /// The cells' marks (an index in `sets`) and givens (a value in
    /// 1..=n, each given once), row by row, `cols` cells a row.
    fn cells(
        &self,
        cols: usize,
        n: u32,
        sets: &[ValueSet],
    ) -> Result<(Marks, Givens), InstanceError> {
        let cells = self.rows.len() * cols;
        let (mut marks, mut givens) = (vec![None; cells], vec![None; cells]);
        let mut given_at: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
        for (r, &(idx, line)) in self.rows.iter().enumerate() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() != cols {
                return Err(self.err(
                    idx,
                    format!(
                        "grid row {} has {} cells, expected cols = {cols}",
                        r + 1,
                        tokens.len()
                    ),
                ));
            }
            for (c, tok) in tokens.into_iter().enumerate() {
                let cell = r * cols + c;
                if tok == "." {
                    continue;
                }
                if is_number(tok) {
                    // a number past i64 (23 digits) is outside the range too
                    let v = tok
                        .parse::<i64>()
                        .ok()
                        .filter(|v| (1..=n as i64).contains(v));
                    let Some(v) = v else {
                        return Err(self.err(
                            idx,
                            format!(
                                "given {} at cell {},{} is outside 1..={n}",
                                crate::io::show(tok.as_bytes()),
                                r + 1,
                                c + 1
                            ),
                        ));
                    };
                    let v = v as u32;
                    if let Some((r0, c0)) = given_at.insert(v, (r + 1, c + 1)) {
                        return Err(self.err(
                            idx,
                            format!(
                                "value {v} is given twice: at {r0},{c0} and at {},{}",
                                r + 1,
                                c + 1
                            ),
                        ));
                    }
                    givens[cell] = Some(v);
                } else if let Some(i) = sets.iter().position(|s| s.name == tok) {
                    marks[cell] = Some(i);
                } else {
                    let known: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
                    return Err(self.err(
                        idx,
                        format!(
                            "unknown grid token '{}' at cell {},{} (expected '.', a given number, or a set name: {})",
                            crate::io::show(tok.as_bytes()),
                            r + 1,
                            c + 1,
                            if known.is_empty() { "none defined in [sets]".to_string() } else { known.join(", ") }
                        ),
                    ));
                }
            }
        }
        Ok((marks, givens))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    name: Option<String>,
    source: Option<String>,
    rows: Spanned<usize>,
    cols: Spanned<usize>,
    #[serde(default)]
    tour: bool,
    grid: Spanned<String>,
    #[serde(default)]
    sets: BTreeMap<String, Spanned<RawSet>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    values: Spanned<RawValues>,
    #[serde(default)]
    exactly: bool,
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a set name (primes, squares, odd, even) or a list of numbers"
)]
enum RawValues {
    Named(String),
    List(Vec<i64>),
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
name = "small"
rows = 2
cols = 3
grid = """
p . 6
. p .
"""
[sets.p]
values = [2, 3]
exactly = true
"#;

    #[test]
    fn parses_grid_sets_and_givens() {
        let inst = Instance::from_toml(SMALL, "small.toml").unwrap();
        assert_eq!((inst.rows, inst.cols, inst.tour), (2, 3, false));
        assert_eq!(inst.marks, vec![Some(0), None, None, None, Some(0), None]);
        assert_eq!(inst.givens[2], Some(6));
        let a = inst.allowed();
        assert_eq!(a[0], vec![false, false, true, true, false, false, false]);
        assert_eq!(a[1], vec![false, true, false, false, true, true, false]);
        assert_eq!(a[2], vec![false, false, false, false, false, false, true]);
    }

    fn err(text: &str) -> InstanceError {
        Instance::from_toml(text, "f.toml").unwrap_err()
    }

    #[test]
    fn malformed_files_name_line_and_problem() {
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n. .\n. x\n\"\"\"\n");
        assert_eq!(e.line, 5, "{e}");
        assert!(e.what.contains("unknown grid token 'x'"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n. .\n. . .\n\"\"\"\n");
        assert_eq!(e.line, 5, "{e}");
        assert!(e.what.contains("grid row 2 has 3 cells"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n. .\n\"\"\"\n");
        assert!(e.what.contains("the grid has 1 rows"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n4 .\n. 4\n\"\"\"\n");
        assert!(e.what.contains("value 4 is given twice"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n5 .\n. .\n\"\"\"\n");
        assert!(e.what.contains("outside 1..=4"), "{e}");
        let e = err("rows = 2\ncols = 2\ncolour = 3\ngrid = \". .\\n. .\"\n");
        assert_eq!(
            (e.line, e.what.contains("unknown field `colour`")),
            (3, true),
            "{e}"
        );
        // a 23-digit given is a number out of range, not an unknown token
        let e = err("rows = 2\ncols = 2\ngrid = \"\"\"\n12345678901234567890123 .\n. .\n\"\"\"\n");
        assert!(
            e.what
                .contains("given 12345678901234567890123 at cell 1,1 is outside 1..=4"),
            "{e}"
        );
        // a top-level key after a [sets.…] header: TOML's table order, named
        let e = err("rows = 2\ngrid = \". .\\n. p\"\n[sets.p]\nvalues = [1]\ncols = 2\n");
        assert!(
            e.what.contains("unknown field `cols`")
                && e.what.contains("before the first [sets.…] header"),
            "{e}"
        );
        let e = err("rows = 2\ncols = \ngrid = \"\"\n");
        assert_eq!(e.line, 2, "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \". .\\n. p\"\n[sets.p]\nvalues = \"fibs\"\n");
        assert_eq!((e.line, e.col), (5, 10), "{e}");
        assert!(e.what.contains("unknown value set 'fibs'"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \". .\\n. p\"\n[sets.p]\nvalues = [1, 9]\n");
        assert!(
            e.what.contains("value 9 in set 'p' is outside 1..=4"),
            "{e}"
        );
        let e = err("rows = 0\ncols = 2\ngrid = \"\"\n");
        assert!(e.what.contains("rows must be at least 1"), "{e}");
        let e = err("rows = 2\ncols = 2\ngrid = \". .\\n. p\"\n[sets.p]\nvalues = true\n");
        assert!(e.what.contains("a set name"), "{e}");
        let e = err("rows = 100\ncols = 100\ngrid = \"\"\n");
        assert!(e.what.contains("over the limit"), "{e}");
    }

    #[test]
    fn named_sets() {
        assert_eq!((1..=64).filter(|&v| is_prime(v)).count(), 18);
        assert_eq!(
            (1..=64).filter(|&v| is_square(v)).collect::<Vec<_>>(),
            vec![1, 4, 9, 16, 25, 36, 49, 64]
        );
    }
}
