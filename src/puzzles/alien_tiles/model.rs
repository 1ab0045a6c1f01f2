//! The Alien Tiles game (CSPLib problem 027; Gent, Linton & Smith,
//! "Symmetry breaking in the Alien Tiles puzzle", APES-22-2000): an n×n grid
//! of colours `0..c` in a cycle; a click on a cell advances by one (mod c)
//! every cell of its row and of its column, the clicked cell once.
//!
//! Only how often each cell is clicked matters (clicks commute), so a
//! solution is a click matrix `k ∈ Z_c^{n×n}`, and cell `(i, j)` changes by
//! `(row sum i + column sum j − k_ij) mod c`: the linear map of
//! [`click_map`].

use std::path::Path;

use anyhow::{bail, Context};
use serde::Serialize;

use super::zmod::MatMod;

/// An n×n grid of values in `0..c`, row-major (a board of colours or a
/// click matrix).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Grid {
    /// side
    pub n: usize,
    /// row-major entries
    pub cells: Vec<u32>,
}

impl Grid {
    /// The all-zero grid.
    pub fn zeros(n: usize) -> Self {
        Grid {
            n,
            cells: vec![0; n * n],
        }
    }
    /// Entry `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> u32 {
        self.cells[i * self.n + j]
    }
    /// The rows, for printing and JSON.
    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.cells.chunks(self.n).map(|r| r.to_vec()).collect()
    }
    /// Sum of the entries (for a click matrix: the number of clicks).
    pub fn total(&self) -> u32 {
        self.cells.iter().sum()
    }

    /// Parses a grid: `n` non-empty lines (`#` starts a comment), each with
    /// `n` values in `0..c`, either separated by spaces/commas or written as
    /// one run of digits (`0120`).
    pub fn parse(text: &str, n: usize, c: u32) -> anyhow::Result<Self> {
        // the cells the text can hold, not the n² a (too large) n asks for
        let mut cells = Vec::with_capacity(n.saturating_mul(n).min(text.len()));
        let mut rows = 0;
        for (no, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let line_no = no + 1;
            let tokens: Vec<&str> = line
                .split(|ch: char| ch.is_whitespace() || ch == ',')
                .filter(|t| !t.is_empty())
                .collect();
            let values: Vec<&str> = if tokens.len() == 1
                && n > 1
                && tokens[0].len() == n
                && tokens[0].chars().all(|ch| ch.is_ascii_digit())
            {
                (0..n).map(|k| &tokens[0][k..k + 1]).collect()
            } else {
                tokens
            };
            if rows == n {
                bail!("line {line_no}: more than {n} rows");
            }
            if values.len() != n {
                bail!(
                    "line {line_no}: expected {n} values, found {}",
                    values.len()
                );
            }
            for (col, v) in values.iter().enumerate() {
                let x: u32 = v.parse().map_err(|_| {
                    anyhow::anyhow!(
                        "line {line_no}, column {}: '{}' is not a number",
                        col + 1,
                        crate::io::show(v.as_bytes())
                    )
                })?;
                if x >= c {
                    bail!(
                        "line {line_no}, column {}: colour {x} is not in 0..{c}",
                        col + 1
                    );
                }
                cells.push(x);
            }
            rows += 1;
        }
        if rows != n {
            bail!("expected {n} rows, found {rows}");
        }
        Ok(Grid { n, cells })
    }

    /// Reads and parses a grid file.
    pub fn read(path: &Path, n: usize, c: u32) -> anyhow::Result<Self> {
        let text = crate::io::input::read_text(path)?;
        Self::parse(&text, n, c).with_context(|| format!("in {}", path.display()))
    }

    /// The grid as text, one row per line, the numbers right-aligned in
    /// columns of the widest one's width and separated by a space.
    pub fn render(&self) -> String {
        let width = self
            .cells
            .iter()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        self.cells
            .chunks(self.n)
            .map(|r| {
                r.iter()
                    .map(|v| format!("{v:>width$}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Serialize for Grid {
    /// As a list of rows.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.rows().serialize(s)
    }
}

/// The click map `A` over Z_c: `A[(i,j), (k,l)] = 1` iff a click on `(k, l)`
/// changes `(i, j)`, i.e. `k = i` or `l = j`.
pub fn click_map(n: usize, c: u32) -> MatMod {
    let mut a = MatMod::zeros(c, n * n, n * n);
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                for l in 0..n {
                    if k == i || l == j {
                        a.a[(i * n + j) * n * n + k * n + l] = 1 % c;
                    }
                }
            }
        }
    }
    a
}

/// The change a click matrix makes to the board: `(R_i + C_j − k_ij) mod c`.
pub fn effect(clicks: &Grid, c: u32) -> Grid {
    let n = clicks.n;
    let row: Vec<u32> = (0..n)
        .map(|i| (0..n).map(|j| clicks.at(i, j)).sum())
        .collect();
    let col: Vec<u32> = (0..n)
        .map(|j| (0..n).map(|i| clicks.at(i, j)).sum())
        .collect();
    let cells = (0..n * n)
        .map(|p| {
            let (i, j) = (p / n, p % n);
            (row[i] + col[j] + c * c - clicks.cells[p] % c) % c
        })
        .collect();
    Grid { n, cells }
}

/// `(a + b) mod c` cell by cell.
pub fn add_mod(a: &Grid, b: &Grid, c: u32) -> Grid {
    Grid {
        n: a.n,
        cells: a
            .cells
            .iter()
            .zip(&b.cells)
            .map(|(x, y)| (x + y) % c)
            .collect(),
    }
}

/// `(a − b) mod c` cell by cell.
pub fn sub_mod(a: &Grid, b: &Grid, c: u32) -> Grid {
    Grid {
        n: a.n,
        cells: a
            .cells
            .iter()
            .zip(&b.cells)
            .map(|(x, y)| (x + c - y % c) % c)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_both_layouts_and_reports_lines() {
        let g = Grid::parse("# goal\n0 1 2\n2,1,0\n111\n", 3, 3).unwrap();
        assert_eq!(g.cells, vec![0, 1, 2, 2, 1, 0, 1, 1, 1]);
        let e = format!("{:#}", Grid::parse("0 1 2\n2 1\n111\n", 3, 3).unwrap_err());
        assert!(e.contains("line 2: expected 3 values, found 2"), "{e}");
        let e = format!(
            "{:#}",
            Grid::parse("0 1 2\n2 1 3\n111\n", 3, 3).unwrap_err()
        );
        assert!(
            e.contains("line 2, column 3: colour 3 is not in 0..3"),
            "{e}"
        );
        let e = format!("{:#}", Grid::parse("0 1 2\n2 1 x\n", 3, 3).unwrap_err());
        assert!(e.contains("'x' is not a number"), "{e}");
        let e = format!("{:#}", Grid::parse("0 1 2\n", 3, 3).unwrap_err());
        assert!(e.contains("expected 3 rows, found 1"), "{e}");
    }

    #[test]
    fn effect_is_the_click_map() {
        let (n, c) = (3, 4);
        let a = click_map(n, c);
        let k = Grid {
            n,
            cells: vec![1, 0, 3, 2, 2, 0, 0, 1, 3],
        };
        assert_eq!(effect(&k, c).cells, a.mul_vec(&k.cells));
    }
}
