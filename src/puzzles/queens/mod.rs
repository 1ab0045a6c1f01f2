//! N-queens: place n queens on an n×n board so that no two share a row, a
//! column or a diagonal (Bezzel 1848; Nauck 1850 gave the 92 solutions of
//! n = 8). The number of solutions is OEIS A000170, the number of classes
//! under the board's eight symmetries OEIS A002562. Docs: `docs/queens.md`.
//!
//! - [`encode`]: the `matrix` and `columns` encodings;
//! - [`check`]: the independent checker;
//! - [`opb`]: the PB model (for VeriPB proofs);
//! - its command line: `crate::cli::queens`.

pub mod check;
pub mod encode;
pub mod opb;

use puzzlesat_encodings::dominance::{LexOrder, SymmetryProof};
use puzzlesat_encodings::lex::{lex_le, LexChain};
use puzzlesat_encodings::perm::{board_perms, lex_leader, Perm, SquareSymmetry};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Lit, PbModel};
use serde::Serialize;

use crate::picture::{centre, Colour, Picture, Shape};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::NoDetails;
pub use encode::{Encoding, Options};

puzzlesat_encodings::option_enum! {
    /// The symmetry breaking of the representatives that class counting
    /// enumerates (`--class-symmetry`).
    #[derive(Default)]
    pub enum Symmetry("queens symmetry breaking") {
        /// lex-leader clauses for the board's 8 symmetries (Crawford,
        /// Ginsberg, Luks & Roy 1996): exactly one placement per class
        LexLeader = "lex-leader",
        /// the lex-leader clauses cut to the first row (n cells per
        /// symmetry): about one placement per class, at a fraction of the
        /// clauses (the edges' queens decide)
        #[default]
        FirstRow = "first-row",
        /// the first row's queen in the left half: about half the placements
        LeftHalf = "left-half",
    }
}

/// An N-queens instance with its encoding options.
#[derive(Clone, Debug)]
pub struct Queens {
    /// board side
    pub n: usize,
    /// the encoding
    pub opts: Options,
    /// how class counting breaks the symmetry of its representatives
    pub class_symmetry: Symmetry,
    /// this instance is the representatives' puzzle: `symmetry` is posted
    pub breaking: bool,
}

impl Queens {
    /// The n×n instance.
    pub fn new(n: usize, opts: Options) -> Self {
        Queens {
            n,
            opts,
            class_symmetry: Symmetry::default(),
            breaking: false,
        }
    }
    /// The board's symmetries as permutations of the cells `r·n + c`
    /// (the board group, identity first).
    fn cell_perms(&self) -> Vec<Perm> {
        board_perms(self.n, self.n)
    }
    /// The placement as the cells' truth values, row by row (the order the
    /// lex-leader clauses compare in).
    #[cfg(test)]
    fn cells(sol: &Placement) -> Vec<bool> {
        let n = sol.cols.len();
        (0..n * n).map(|i| sol.cols[i / n] == i % n).collect()
    }
}

/// The variable map: `q[r][c]` ("a queen on (r, c)") and the symmetry
/// breaking posted (each board symmetry with its lex comparison).
#[derive(Debug)]
pub struct QueensMap {
    /// the cells' literals
    pub q: Vec<Vec<Lit>>,
    /// the lex comparisons posted, for the proof
    pub symmetry: Vec<(Perm, LexChain)>,
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
            .map(|&c| {
                (0..n)
                    .map(|j| if j == c { "Q" } else { "." })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    }

    /// The placement as a picture: a chequered board, a disc per queen.
    pub fn picture(&self) -> Picture {
        let n = self.cols.len();
        let labels = vec![vec![String::new(); n]; n];
        let mut p = Picture::board(&labels, format!("{n} queens"), |r, c| {
            if (r + c) % 2 == 0 {
                Colour(240, 217, 181)
            } else {
                Colour(181, 136, 99)
            }
        });
        for (r, &c) in self.cols.iter().enumerate() {
            p.add(Shape::Disc {
                centre: centre(r, c),
                radius: 0.32,
                fill: Colour(20, 20, 60),
            });
        }
        p
    }

    /// The eight images under the board's symmetries (rotations and
    /// reflections), itself included.
    pub fn images(&self) -> Vec<Placement> {
        let n = self.cols.len();
        SquareSymmetry::ALL
            .iter()
            .map(|m| {
                let mut cols = vec![0; n];
                for (r, &c) in self.cols.iter().enumerate() {
                    let (r2, c2) = m.apply(n, n, r, c);
                    cols[r2] = c2;
                }
                Placement { cols }
            })
            .collect()
    }
}

impl Puzzle for Queens {
    type Solution = Placement;
    type Map = QueensMap;
    type Details = NoDetails;

    fn describe(&self) -> String {
        format!("queens n={} {}", self.n, self.opts)
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<Self::Map>> {
        let q = encode::encode(cnf, self.n, &self.opts)?;
        let mut symmetry = vec![];
        if self.breaking {
            let cells: Vec<Lit> = q.iter().flatten().copied().collect();
            match self.class_symmetry {
                Symmetry::LeftHalf => {
                    for &l in &q[0][self.n.div_ceil(2)..] {
                        cnf.add(&[!l]); // the first row's queen in the left half
                    }
                }
                Symmetry::LexLeader => {
                    symmetry = lex_leader(cnf, &cells, &self.cell_perms()[1..]);
                }
                Symmetry::FirstRow => {
                    // x[0..n] ≤lex σ(x)[0..n]: implied by the full lex-leader
                    let k = self.n;
                    for perm in &self.cell_perms()[1..] {
                        let image: Vec<Lit> = (0..k)
                            .map(|i| cells[perm.apply(i as u32) as usize])
                            .collect();
                        symmetry.push((perm.clone(), lex_le(cnf, &cells[..k], &image)));
                    }
                }
            }
        }
        let names = (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .map(|(r, c)| (opb::cell_name(r, c), q[r][c]))
            .collect();
        let primary = q.iter().flatten().copied().collect();
        Ok(Encoded::new(QueensMap { q, symmetry }, primary, names))
    }

    fn decode(&self, map: &Self::Map, model: &Assignment) -> anyhow::Result<Placement> {
        let mut cols = Vec::with_capacity(self.n);
        for (r, row) in map.q.iter().enumerate() {
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

    fn picture(&self, sol: &Placement) -> Option<Picture> {
        Some(sol.picture())
    }

    fn estimated_clauses(&self) -> u64 {
        // pairwise at-most-one over rows, columns and diagonals: < 2n³
        2 * (self.n as u64).pow(3)
    }

    /// Every cell in its row, its column and two diagonals.
    fn estimated_pb_terms(&self) -> u64 {
        4 * (self.n as u64).pow(2)
    }

    fn pb_model(&self) -> Option<PbModel> {
        Some(opb::model(self.n))
    }

    /// The representatives' lex-leader and first-row clauses, by dominance
    /// under the row-major lex order of the cells (`left-half` is not
    /// derived: it breaks the reflection the other way round).
    fn symmetry_proof(
        &self,
        map: &QueensMap,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        if !self.breaking {
            return None;
        }
        if self.class_symmetry == Symmetry::LeftHalf {
            return Some(Err(
                "the VeriPB proof does not derive --class-symmetry left-half".into(),
            ));
        }
        let cells: Vec<Lit> = map.q.iter().flatten().copied().collect();
        Some(LexOrder::new("lex", &cells).proof(&map.symmetry, name))
    }

    fn class_representatives(&self) -> Option<Self> {
        Some(Queens {
            breaking: true,
            ..self.clone()
        })
    }

    fn images(&self, sol: &Placement) -> Vec<Placement> {
        sol.images()
    }

    fn keeps(&self, sol: &Placement) -> bool {
        if !self.breaking {
            return true;
        }
        // row by row, the cells compare as the queens' columns in reverse:
        // at the first row where two placements differ, the one whose queen
        // stands further right has its true cell later, so it is smaller
        match self.class_symmetry {
            Symmetry::LeftHalf => sol.cols.first().is_none_or(|&c| c < self.n.div_ceil(2)),
            Symmetry::LexLeader => sol.images().iter().all(|img| sol.cols >= img.cols),
            Symmetry::FirstRow => sol
                .images()
                .iter()
                .all(|img| sol.cols[..1] >= img.cols[..1]),
        }
    }

    /// Balanced splits for `--cubes`: "row r's queen is in the right half"
    /// ([`crate::puzzle::half_literals`]), middle rows first (class
    /// counting's symmetry breaking fixes much of the first row's queen).
    fn split_literals(&self, map: &QueensMap, _primary: &[Lit], cnf: &mut Cnf) -> Vec<Lit> {
        let n = self.n;
        let middle_out = (0..n).map(|i| {
            if i % 2 == 0 {
                n / 2 + i / 2
            } else {
                n / 2 - 1 - i / 2
            }
        });
        crate::puzzle::half_literals(cnf, middle_out.map(|r| map.q[r].clone()))
    }

    fn class_key(&self, sol: &Placement) -> Vec<u8> {
        sol.cols
            .iter()
            .flat_map(|&c| (c as u32).to_be_bytes())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_compare_as_columns_in_reverse() {
        // every pair of column vectors of a 4×4 board (queens anywhere)
        let all: Vec<Placement> = (0..256usize)
            .map(|i| Placement {
                cols: (0..4).map(|r| i >> (2 * r) & 3).collect(),
            })
            .collect();
        for a in &all {
            for b in &all {
                let by_cells = Queens::cells(a) <= Queens::cells(b);
                assert_eq!(by_cells, a.cols >= b.cols, "{:?} {:?}", a.cols, b.cols);
                let first_row = Queens::cells(a)[..4] <= Queens::cells(b)[..4];
                assert_eq!(first_row, a.cols[..1] >= b.cols[..1]);
            }
        }
    }
}
