//! Numbered paths on boards: the prime rook tour of Kalvelagen's "Another
//! Rook Tour on the Chessboard" (2021), Numbrix, and any board an instance
//! file describes (`docs/rook-tour.md`). Place 1..R·C so that consecutive
//! numbers are orthogonal neighbours (a Hamiltonian path; a tour closes
//! R·C → 1), with value sets on marked cells and givens.
//!
//! - [`model`]: instance, TOML file format, solution;
//! - [`encode`]: the `position`, `successor` and `edges` encodings;
//! - [`symmetry`]: the board's symmetry group (lex-leader breaking);
//! - [`connect`]: connectivity on partial assignments (`--connectivity lazy`);
//! - [`check`]: the independent checker;
//! - [`opb`]: the PB model (for VeriPB proofs);
//! - [`reference`]: brute-force DFS, to cross-check the CNF on small boards;
//! - its command line: `crate::cli::rook_tour`.

pub mod check;
pub mod connect;
pub mod encode;
pub mod model;
pub mod opb;
pub mod reference;
pub mod symmetry;

use puzzlesat_encodings::dominance::{LexOrder, SymmetryProof};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Lit, PbModel};

use crate::picture::{centre, Colour, Picture, Shape};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::{Details, Report, Status};
use encode::{ClassSymmetry, Options, Symmetry, VarMap};
use model::{Instance, Numbering};
use puzzlesat_encodings::solve::{EnumerationEngine, PartialCheck};
use symmetry::BoardSymmetry;

/// An instance with its encoding options.
#[derive(Clone, Debug)]
pub struct RookTour {
    /// the board
    pub inst: Instance,
    /// the encoding
    pub opts: Options,
    /// the symmetry group of the board (identity included)
    pub group: Vec<BoardSymmetry>,
    /// the symmetry breaking of the representatives that class counting
    /// enumerates (`--class-symmetry`: lex-leader or first-row)
    pub class_symmetry: ClassSymmetry,
    /// this instance is the class representatives' puzzle of an instance
    /// with `--symmetry none` (its `opts.symmetry` is `class_symmetry`'s)
    pub representatives: bool,
}

impl RookTour {
    /// The puzzle with its symmetry group computed.
    pub fn new(inst: Instance, opts: Options) -> Self {
        let group = symmetry::symmetries(&inst);
        RookTour {
            inst,
            opts,
            group,
            class_symmetry: ClassSymmetry::FirstRow,
            representatives: false,
        }
    }
    /// The "cell c holds k" truth values at index `c·n + (k−1)`: the
    /// vector the lex-leader clauses compare.
    #[cfg(test)]
    fn holds(&self, sol: &Numbering) -> Vec<bool> {
        let n = self.inst.n();
        let mut v = vec![false; n * n];
        for (c, &k) in sol.cells().iter().enumerate() {
            v[c * n + k as usize - 1] = true;
        }
        v
    }
}

/// The variable map: the encoding's variables and the symmetry breaking
/// posted (the literals it compares, each group element with its lex
/// comparison), for the proof.
#[derive(Debug)]
pub struct RookMap {
    /// the encoding's variables
    pub vars: VarMap,
    /// what `--symmetry` posted
    pub symmetry: Option<encode::Posted>,
}

/// What a rook-tour report adds: the symmetry group used by lex-leader
/// breaking and, for a complete enumeration of classes, the solutions the
/// classes hold.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct RookDetails {
    /// the group's elements by name (empty without lex-leader breaking)
    pub group: Vec<String>,
    /// solutions in all: the union of the enumerated classes' images (each
    /// checked); only after a complete enumeration of classes
    pub solutions_in_classes: Option<usize>,
}

impl Details for RookDetails {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![];
        if !self.group.is_empty() {
            lines.push(format!(
                "symmetry group of the board and values ({} elements): {}",
                self.group.len(),
                self.group.join(", ")
            ));
        }
        if let Some(total) = self.solutions_in_classes {
            lines.push(format!(
                "lex-leader clauses keep the lex-least member of each class; the classes' images (each checked) hold {total} solutions in all"
            ));
        }
        lines
    }
}

impl Puzzle for RookTour {
    type Solution = Numbering;
    type Map = RookMap;
    type Details = RookDetails;

    fn describe(&self) -> String {
        format!(
            "{} encoding={} symmetry={}{}",
            self.inst,
            self.opts.encoding.name(),
            if self.representatives {
                format!(
                    "none (counted by classes: --class-symmetry {})",
                    self.class_symmetry.name()
                )
            } else {
                self.opts.symmetry.name().to_string()
            },
            if self.opts.encoding == encode::Encoding::Position {
                format!(
                    " amo={} links={} connectivity={}",
                    self.opts.amo,
                    self.opts.links.name(),
                    self.opts.connectivity.name()
                )
            } else {
                String::new()
            }
        )
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<RookMap>> {
        let e = encode::encode(cnf, &self.inst, &self.opts, &self.group).map_err(|e| {
            if self.representatives {
                anyhow::anyhow!(
                    "counting by symmetry classes: {e}; --no-classes counts every solution without them{}",
                    match self.class_symmetry {
                        ClassSymmetry::LexLeader => ", --class-symmetry first-row compares the first row only",
                        ClassSymmetry::FirstRow => "",
                    }
                )
            } else {
                e.into()
            }
        })?;
        let map = RookMap {
            vars: e.map,
            symmetry: e.symmetry,
        };
        Ok(Encoded::new(map, e.primary, e.names))
    }

    fn details(
        &self,
        _map: &RookMap,
        report: &mut Report<Numbering, RookDetails>,
    ) -> anyhow::Result<()> {
        if self.opts.symmetry == Symmetry::LexLeader {
            report.details.group = self.group.iter().map(|g| g.name.clone()).collect();
            if report.status == Status::All {
                let total = report
                    .solutions
                    .iter()
                    .map(|s| class_of(&self.group, s).len())
                    .sum();
                report.details.solutions_in_classes = Some(total);
            }
        }
        Ok(())
    }

    fn decode(&self, map: &RookMap, model: &Assignment) -> anyhow::Result<Numbering> {
        Ok(map.vars.decode(&self.inst, model))
    }

    fn check(&self, sol: &Numbering) -> Result<(), String> {
        check::check(&self.inst, sol)?;
        // with lex-leader or first-row breaking asked for, every member of
        // the class is a solution too; the class representatives of a
        // count are expanded by the group and every member is checked
        // there (`crate::drive::classes`), so they are not checked twice
        if self.opts.symmetry != Symmetry::None && !self.representatives {
            for g in &self.group {
                check::check(&self.inst, &g.apply(sol))
                    .map_err(|e| format!("image under {}: {e}", g.name))?;
            }
        }
        Ok(())
    }

    /// Over the position encoding's literals (None for `successor`, whose
    /// CNF does not name them).
    fn pb_model(&self) -> Option<PbModel> {
        (self.opts.encoding == encode::Encoding::Position).then(|| opb::model(&self.inst))
    }

    /// The lex-leader and first-row clauses, by dominance under the lex
    /// order of the "holds" literals (with the position encoding, the
    /// model's variables).
    fn symmetry_proof(
        &self,
        map: &RookMap,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        let (holds, posted) = map.symmetry.as_ref()?;
        if self.opts.encoding != encode::Encoding::Position {
            return Some(Err(
                "the VeriPB proof derives the symmetry breaking of the position encoding only"
                    .into(),
            ));
        }
        Some(LexOrder::new("lex", holds).proof(posted, name))
    }

    fn counted_as(&self) -> &'static str {
        match self.opts.symmetry {
            Symmetry::LexLeader => "symmetry classes (one lex-leader representative each)",
            Symmetry::FirstRow => "solutions (at least one of every symmetry class)",
            Symmetry::None => "solutions",
        }
    }

    /// None for the edges encoding (its CNF has no positions to compare).
    fn class_representatives(&self) -> Option<Self> {
        let compares = self.opts.encoding != encode::Encoding::Edges;
        (compares && self.opts.symmetry == Symmetry::None && self.group.len() > 1).then(|| {
            RookTour {
                opts: Options {
                    symmetry: self.class_symmetry.symmetry(),
                    ..self.opts
                },
                representatives: true,
                ..self.clone()
            }
        })
    }

    /// The non-blocking engine without learning (DPLL) for the complete
    /// encodings: their models are dense, and learning (which the default
    /// mode switches on after 1,000 conflicts without a model, as happens
    /// on 7×7 and in sparse cubes) made the empty 7×7 board's count 2.2
    /// times slower per class (docs/rook-tour.md). The edges encoding's
    /// lazy cuts need an engine that takes a clause against the models of
    /// a closed level (measured on the empty 5×5 board's 8,648 paths:
    /// decision-blocking 0.76 s, blocking 1.29 s; non-blocking refuses the
    /// cuts).
    fn enumeration(&self) -> EnumerationEngine {
        match self.opts.encoding {
            encode::Encoding::Edges => EnumerationEngine::DecisionBlocking,
            _ => EnumerationEngine::NonBlockingDpll,
        }
    }

    /// With `--connectivity lazy` and the position encoding: dead ends and
    /// regions that cannot be covered, on partial assignments
    /// ([`connect::PathCheck`]).
    fn partial_check(&self, map: &RookMap) -> Option<Box<dyn PartialCheck>> {
        match (&map.vars, self.opts.connectivity) {
            (VarMap::Position(x), encode::Connectivity::Lazy) => {
                Some(Box::new(connect::PathCheck::new(&self.inst, x)))
            }
            _ => None,
        }
    }

    /// The edges encoding's connectivity ([`encode::cut`]); the other
    /// encodings are complete.
    fn separate<DB: ClauseDatabase>(&self, map: &RookMap, model: &Assignment, db: &mut DB) -> bool {
        match &map.vars {
            VarMap::Edges(e) => encode::cut(e, self.inst.n(), model, db),
            _ => false,
        }
    }

    fn images(&self, sol: &Numbering) -> Vec<Numbering> {
        class_of(&self.group, sol)
    }

    fn keeps(&self, sol: &Numbering) -> bool {
        // cell by cell, the "holds" vectors compare as the values in
        // reverse: the larger value has its true literal later
        let cells = match self.opts.symmetry {
            Symmetry::None => return true,
            Symmetry::LexLeader => self.inst.n(),
            Symmetry::FirstRow => self.inst.cols,
        };
        let own = sol.cells();
        // the first `cells` cells of each image, without building it
        let mut image = vec![0; cells];
        self.group.iter().all(|g| {
            for (c, &v) in own.iter().enumerate() {
                if let Some(d) = image.get_mut(g.cells[c]) {
                    *d = g.values[v as usize];
                }
            }
            own[..cells] >= image[..]
        })
    }

    /// Balanced splits for `--cubes`: "cell c holds a number in the upper
    /// half" (position encoding: [`crate::puzzle::half_literals`]; the
    /// successor encoding's middle order literal), for the cells in the
    /// order the enumeration decides them (row by row: a cube's literal is
    /// settled early in its search), from the second row on: the symmetry
    /// breaking of the representatives (first row, or lex-leader) pushes
    /// the first row's numbers up (the corner's into the upper half, by
    /// the reversal in the group), so its literals would leave most cubes
    /// empty. At most 16 (2^16 cubes at most), each defined by n clauses.
    /// A literal "cell c holds k" splits off 1/n of the paths only.
    fn split_literals(&self, map: &RookMap, primary: &[Lit], cnf: &mut Cnf) -> Vec<Lit> {
        let cells = self.inst.n();
        let cols = self.inst.cols.min(cells - 1);
        let order = (cols..cells).chain(0..cols).take(16);
        match &map.vars {
            VarMap::Position(x) => crate::puzzle::half_literals(cnf, order.map(|c| x[c].clone())),
            VarMap::Successor(p) => {
                let spread: Vec<_> = order.map(|c| p[c].clone()).collect();
                crate::puzzle::middle_literals(&spread)
            }
            VarMap::Edges(_) => primary.to_vec(),
        }
    }

    fn class_key(&self, sol: &Numbering) -> Vec<u8> {
        sol.cells().iter().flat_map(|v| v.to_be_bytes()).collect()
    }

    /// The path drawn over the board: each cell's number, the marked cells
    /// (a value set or a given) shaded, a line through 1, 2, …, R·C (back
    /// to 1 for a tour).
    fn picture(&self, sol: &Numbering) -> Option<Picture> {
        let inst = &self.inst;
        let labels: Vec<Vec<String>> = sol
            .values
            .iter()
            .map(|row| row.iter().map(u32::to_string).collect())
            .collect();
        let marked = |r: usize, c: usize| {
            let cell = r * inst.cols + c;
            inst.marks[cell].is_some() || inst.givens[cell].is_some()
        };
        let what = if inst.tour { "tour" } else { "path" };
        let mut p = Picture::board(&labels, format!("{} ({what})", inst.name), |r, c| {
            if marked(r, c) {
                Colour::SHADE
            } else {
                Colour::WHITE
            }
        });
        let mut order: Vec<(u32, usize)> = sol.cells().into_iter().zip(0..).collect();
        order.sort_unstable();
        p.add(Shape::Line {
            points: order
                .iter()
                .map(|&(_, cell)| centre(cell / inst.cols, cell % inst.cols))
                .collect(),
            colour: Colour::PATH,
            width: 0.06,
            closed: inst.tour,
        });
        Some(p)
    }

    fn render(&self, sol: &Numbering) -> String {
        let w = self.inst.n().to_string().len();
        let mut s = String::new();
        for r in 0..self.inst.rows {
            for c in 0..self.inst.cols {
                let cell = r * self.inst.cols + c;
                let mark = match (self.inst.marks[cell], self.inst.givens[cell]) {
                    (Some(i), _) => self.inst.sets[i].name.clone(),
                    (None, Some(_)) => "*".to_string(),
                    (None, None) => String::new(),
                };
                let wm = self
                    .inst
                    .sets
                    .iter()
                    .map(|s| s.name.chars().count())
                    .max()
                    .unwrap_or(1)
                    .max(1);
                s.push_str(&format!(" {:>w$}{:<wm$}", sol.values[r][c], mark));
            }
            s.push('\n');
        }
        s.pop();
        s
    }
}

/// The distinct images of a solution under the group (its symmetry class).
pub fn class_of(group: &[BoardSymmetry], sol: &Numbering) -> Vec<Numbering> {
    let mut v: Vec<Numbering> = group.iter().map(|g| g.apply(sol)).collect();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_compare_as_values_in_reverse() {
        let inst = Instance::from_file(std::path::Path::new("instances/rook-empty-4x4.toml"))
            .expect("the shipped 4×4 board");
        let p = RookTour::new(inst, Options::default());
        // numberings of the 4×4 board (not paths: the order only)
        let mut x = 7u64;
        let mut random = || {
            let mut v: Vec<u32> = (1..=16).collect();
            for i in (1..16).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                v.swap(i, (x % (i as u64 + 1)) as usize);
            }
            Numbering::from_cells(4, 4, &v)
        };
        for _ in 0..2000 {
            let (a, b) = (random(), random());
            assert_eq!(p.holds(&a) <= p.holds(&b), a.cells() >= b.cells());
        }
    }
}
