//! N-queens: place n queens on an n×n board so that no two share a row, a
//! column or a diagonal (Bezzel 1848; Nauck 1850 gave the 92 solutions of
//! n = 8). The number of solutions is OEIS A000170, the number of classes
//! under the board's eight symmetries OEIS A002562. Docs: `docs/queens.md`.
//!
//! - [`encode`]: the `matrix` and `columns` encodings;
//! - [`check`]: the independent checker;
//! - [`cli`]: `puzzlesat solve queens -n N ...`.

pub mod check;
pub mod cli;
pub mod encode;

use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Lit};
use serde::Serialize;

use crate::puzzle::{Encoded, Puzzle};
use crate::report::NoDetails;
pub use encode::{Encoding, Options};

/// An N-queens instance with its encoding options.
#[derive(Clone, Debug)]
pub struct Queens {
    /// board side
    pub n: usize,
    /// the encoding
    pub opts: Options,
    /// symmetry breaking for class counting: the first row's queen in the
    /// left half (every class has such a member: mirror the board)
    pub left_half: bool,
}

impl Queens {
    /// The n×n instance.
    pub fn new(n: usize, opts: Options) -> Self {
        Queens {
            n,
            opts,
            left_half: false,
        }
    }
}

/// A placement: `cols[r]` is the column of the queen of row `r` (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// the queen's column in each row
    pub cols: Vec<usize>,
}

impl Placement {
    /// The placement drawn as rows of `Q` and `.`.
    pub fn render(&self) -> String {
        let n = self.cols.len();
        let rows: Vec<String> = self
            .cols
            .iter()
            .map(|&c| (0..n).map(|j| if j == c { "Q" } else { "." }).collect::<Vec<_>>().join(" "))
            .collect();
        rows.join("\n")
    }

    /// The eight images under the board's symmetries (rotations and
    /// reflections), itself included.
    pub fn images(&self) -> Vec<Placement> {
        let n = self.cols.len();
        type Map = fn(usize, usize, usize) -> (usize, usize);
        let maps: [Map; 8] = [
            |_, r, c| (r, c),
            |n, r, c| (c, n - 1 - r),
            |n, r, c| (n - 1 - r, n - 1 - c),
            |n, r, c| (n - 1 - c, r),
            |n, r, c| (r, n - 1 - c),
            |n, r, c| (n - 1 - r, c),
            |_, r, c| (c, r),
            |n, r, c| (n - 1 - c, n - 1 - r),
        ];
        maps.iter()
            .map(|f| {
                let mut cols = vec![0; n];
                for (r, &c) in self.cols.iter().enumerate() {
                    let (r2, c2) = f(n, r, c);
                    cols[r2] = c2;
                }
                Placement { cols }
            })
            .collect()
    }
}

impl Puzzle for Queens {
    type Solution = Placement;
    type Map = Vec<Vec<Lit>>;
    type Details = NoDetails;

    fn describe(&self) -> String {
        format!("queens n={} {}", self.n, self.opts)
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<Self::Map>> {
        let q = encode::encode(cnf, self.n, &self.opts)?;
        if self.left_half {
            for &l in &q[0][self.n.div_ceil(2)..] {
                cnf.add(&[!l]); // the first row's queen in the left half
            }
        }
        let names = (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .map(|(r, c)| (format!("Q{}_{}", r + 1, c + 1), q[r][c]))
            .collect();
        let primary = q.iter().flatten().copied().collect();
        Ok(Encoded::new(q, primary, names))
    }

    fn decode(&self, q: &Self::Map, model: &Assignment) -> anyhow::Result<Placement> {
        let mut cols = Vec::with_capacity(self.n);
        for (r, row) in q.iter().enumerate() {
            let on: Vec<usize> = (0..row.len()).filter(|&c| model.lit(row[c])).collect();
            match on[..] {
                [c] => cols.push(c),
                _ => anyhow::bail!("row {} holds {} queens in the model", r + 1, on.len()),
            }
        }
        Ok(Placement { cols })
    }

    fn check(&self, sol: &Placement) -> Result<(), String> {
        check::check(self.n, sol)
    }

    fn render(&self, sol: &Placement) -> String {
        sol.render()
    }

    fn estimated_clauses(&self) -> u64 {
        // pairwise at-most-one over rows, columns and diagonals: < 2n³
        2 * (self.n as u64).pow(3)
    }

    fn class_representatives(&self) -> Option<Self> {
        Some(Queens {
            left_half: true,
            ..self.clone()
        })
    }

    fn images(&self, sol: &Placement) -> Vec<Placement> {
        sol.images()
    }

    fn keeps(&self, sol: &Placement) -> bool {
        !self.left_half || sol.cols.first().map_or(true, |&c| c < self.n.div_ceil(2))
    }
}
