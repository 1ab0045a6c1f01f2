//! Magic squares (Schulte & Smolka, "Finite domain constraint programming in
//! Oz. A tutorial", §7.3 — the seed of this puzzle): an `n×n` grid holding
//! `1..=n²` once each, every row, column and main diagonal summing to
//! `S = n(n²+1)/2`; optionally with given cells (completion).
//!
//! - [`model`]: instance, solution, the `--given` file format;
//! - [`encode`]: the CNF variants (cells, line sums, symmetry, redundancy);
//! - [`check`]: the independent checker from the definition;
//! - [`opb`]: the PB model (for VeriPB proofs);
//! - [`reference`]: a structured depth-first enumerator used to cross-check;
//! - [`line_sets`]: the structured count (`--method reference --count`):
//!   row and column partitions into line sets, then the diagonals;
//! - [`symmetry`]: the 16 maps (square × complement) acting on solutions,
//!   for counting by classes;
//! - [`staged`]: finding under the balanced-digits restriction, one SAT
//!   stage per digit of `F − 1`;
//! - its command line: `crate::cli::magic`.

pub mod check;
pub mod encode;
pub mod line_sets;
pub mod model;
pub mod opb;
pub mod order_proof;
pub mod reference;
pub mod staged;
pub mod symmetry;

use puzzlesat_encodings::dominance::SymmetryProof;
use puzzlesat_encodings::{Assignment, Cnf, Lit, PbModel};

use crate::puzzle::{bit_literals, Encoded, Puzzle};
pub use encode::{CellEncoding, CellMap, Decisions, Method, Options, SumEncoding, Symmetry};
pub use model::{magic_sum, Givens, Square};
use puzzlesat_encodings::solve::EnumerationEngine;

/// A magic-square instance with its encoding options.
#[derive(Clone, Debug)]
pub struct Magic {
    /// order and pinned cells
    pub givens: Givens,
    /// encoding options
    pub options: Options,
}

impl Magic {
    /// The free square of order `n`.
    pub fn new(n: usize, options: Options) -> Self {
        Magic {
            givens: Givens::free(n),
            options,
        }
    }
}

impl Puzzle for Magic {
    type Solution = Square;
    type Map = CellMap;
    type Details = crate::report::NoDetails;

    fn estimated_clauses(&self) -> u64 {
        encode::estimated_clauses(self.givens.n, &self.options)
    }

    /// The model's n⁴ value literals, each in its cell's and its value's
    /// exactly-one and in the sums of its row, its column (and a diagonal).
    fn estimated_pb_terms(&self) -> u64 {
        let n = self.givens.n as u64;
        2 * n.pow(4) + (2 * n + 2) * n.pow(3)
    }

    /// Blocking clauses in BatSat: the representatives are sparse and hard
    /// to find, where BatSat's restarts pay (N = 4, all 7040 in 166
    /// classes, three runs each: 0.18–0.22 s blocking, 0.47–0.49 s
    /// non-blocking-learning, 0.56–0.58 s non-blocking; docs/enumeration.md).
    fn enumeration(&self) -> EnumerationEngine {
        EnumerationEngine::Blocking
    }

    fn pb_model(&self) -> Option<PbModel> {
        Some(opb::model(&self.givens))
    }

    /// The order constraints of `--symmetry order` and `diagonals` (with
    /// or without `--complement`) over direct, order or digit cells
    /// ([`order_proof::order_constraints_proof`]); lex-leader and given cells are
    /// not derived.
    fn symmetry_proof(
        &self,
        map: &CellMap,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        let o = &self.options;
        match o.symmetry {
            Symmetry::None => None,
            Symmetry::Order | Symmetry::Diagonals if self.givens.count() == 0 => {
                Some(order_proof::order_constraints_proof(map, o, &self.givens, name))
            }
            s => Some(Err(format!(
                "the VeriPB proof derives --symmetry order and diagonals without givens, not --symmetry {s}{}",
                if self.givens.count() > 0 { " with givens" } else { "" },
            ))),
        }
    }

    fn counted_as(&self) -> &'static str {
        match (self.options.symmetry, self.options.complement) {
            (Symmetry::None, _) => "solutions",
            (Symmetry::Order, false) => {
                "symmetry classes (one representative each, by the order constraints)"
            }
            (Symmetry::Diagonals, false) => {
                "symmetry classes (one representative each, by the diagonal order constraints)"
            }
            // the complement is broken partly: one or two per class
            (Symmetry::Order | Symmetry::Diagonals, true) => {
                "squares (one or two per class, by the order constraints and the complement bound)"
            }
            (Symmetry::LexLeader, false) => "symmetry classes (one lex-leader representative each)",
            (Symmetry::LexLeader, true) => {
                "symmetry classes (one lex-leader representative each, complement included)"
            }
        }
    }

    fn describe(&self) -> String {
        let given = match self.givens.count() {
            0 => String::new(),
            k => format!(" given={k}"),
        };
        format!("magic n={}{given} {}", self.givens.n, self.options)
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<CellMap>> {
        let (map, decisions) = encode::encode_with_decisions(cnf, &self.givens, &self.options)?;
        let n = map.n;
        let mut names = vec![];
        for (c, lits) in map.direct.iter().enumerate() {
            for (v, &l) in lits.iter().enumerate() {
                names.push((opb::value_name(n, c, v + 1), l));
            }
        }
        let primary = map.direct.iter().flatten().copied().collect();
        let decisions = match self.options.decisions {
            Decisions::All => vec![],
            Decisions::Cells => decisions,
        };
        Ok(Encoded::new(map, primary, names).with_decisions(decisions))
    }

    fn decode(&self, map: &CellMap, model: &Assignment) -> anyhow::Result<Square> {
        let n = map.n;
        let values = map.values(model);
        Ok(Square {
            n,
            cells: values.chunks(n).map(|r| r.to_vec()).collect(),
        })
    }

    fn check(&self, sol: &Square) -> Result<(), String> {
        check::check_square(self.givens.n, sol)?;
        check::check_givens(&self.givens, sol)
    }

    fn render(&self, sol: &Square) -> String {
        sol.to_string()
    }

    fn picture(&self, sol: &Square) -> Option<crate::picture::Picture> {
        Some(sol.picture())
    }

    /// `--symmetry diagonals --complement`: cheap order constraints that
    /// keep one or two squares of every class of the group of
    /// [`symmetry::maps`] with the complement. None with given cells (the
    /// maps move them), beyond [`symmetry::MAX_GROUP_ORDER`], or when this
    /// is already that instance.
    fn class_representatives(&self) -> Option<Self> {
        let o = Options {
            symmetry: Symmetry::Diagonals,
            complement: true,
            ..self.options
        };
        let n = self.givens.n;
        (self.givens.count() == 0 && n <= symmetry::MAX_GROUP_ORDER && o != self.options).then(
            || Magic {
                givens: self.givens.clone(),
                options: o,
            },
        )
    }

    fn images(&self, sol: &Square) -> Vec<Square> {
        symmetry::images_under(&symmetry::maps_cached(sol.n), sol, true)
    }

    /// The values, row-major, two bytes each (big-endian): the least key is
    /// the row-major lexicographically least square.
    fn class_key(&self, sol: &Square) -> Vec<u8> {
        let mut key = Vec::with_capacity(2 * sol.n * sol.n);
        for &v in sol.cells.iter().flatten() {
            key.extend_from_slice(&(v as u16).to_be_bytes());
        }
        key
    }

    /// The centre's value, then the corners', in binary ([`bit_literals`]):
    /// all the centre's bits first (odd orders; its `⌈log₂ n²⌉` bits make
    /// one cube per centre value, as Schroeppel's count went by centre), then
    /// bit 0 of each corner, bit 1 of each, and so on (the lowest bits split
    /// a corner's values into residue classes of about equal size, whatever
    /// range the symmetry breaking leaves it), then the other cells the same
    /// way, row-major.
    fn split_literals(&self, map: &CellMap, _primary: &[Lit], cnf: &mut Cnf) -> Vec<Lit> {
        let n = map.n;
        let at = |r: usize, c: usize| r * n + c;
        let mut cells = vec![];
        if n % 2 == 1 {
            cells.push(vec![at(n / 2, n / 2)]);
        }
        if n > 1 {
            cells.push(vec![at(0, 0), at(n - 1, n - 1), at(0, n - 1), at(n - 1, 0)]);
        }
        let rest: Vec<usize> = (0..n * n)
            .filter(|c| !cells.iter().flatten().any(|x| x == c))
            .collect();
        cells.push(rest);
        let mut out = vec![];
        for group in cells {
            let bits: Vec<Vec<Lit>> = group
                .iter()
                .map(|&c| bit_literals(cnf, &map.direct[c]))
                .collect();
            let width = bits.iter().map(Vec::len).max().unwrap_or(0);
            for j in 0..width {
                out.extend(bits.iter().filter_map(|b| b.get(j)));
            }
        }
        out
    }

    fn keeps(&self, sol: &Square) -> bool {
        symmetry::keeps(&self.options, sol)
    }
}
