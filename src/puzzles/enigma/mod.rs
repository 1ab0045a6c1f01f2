//! Enigma 1225 ("rows are columns"), generalised to n×n, after Cambazard,
//! O'Sullivan & Smith, "A Constraint-based Approach to Enigma 1225", and
//! Csenki, "Enigma 1225: Prolog-assisted solution of a puzzle using discrete
//! mathematics" (2006).
//!
//! Three methods reach the proven optimum, and every board they print passes
//! [`check::check_board`] (the three rules, from the statement):
//! - `board` ([`encode`]): the whole board in CNF, optimised by the core
//!   driver (this module's [`Enigma`] implements [`Puzzle`]);
//! - `partitions` ([`partitions`]): SAT over canonical cycle types with an
//!   UBNVAL bound, each model scored by Algorithm 1;
//! - `reference` ([`reference`]): the structured search, no SAT.
//!
//! [`opb`] is the board's PB model (for VeriPB proofs), [`cycle_proof`]
//! derives `--symmetry cycles` from it by dominance, [`occ_proof`] the
//! occurrence clauses of `--redundant occ3` and the staircase with it,
//! [`ubn_proof`] the `ubnval` and `gcd` clauses, [`dom_proof`] the
//! dominance clauses (`--dominance counts`, `orbits12`), [`rule_proof`]
//! rule 1's clauses; [`brute`] enumerates every board for n ≤ 5 from the
//! rules alone.

pub mod brute;
pub mod check;
pub mod cycle_proof;
pub mod dom_proof;
pub mod encode;
pub mod model;
pub mod occ_proof;
pub mod opb;
pub mod paper;
pub mod partitions;
pub mod reference;
pub mod rule_proof;
pub mod ubn_proof;

use puzzlesat_encodings::dominance::SymmetryProof;
use puzzlesat_encodings::{Assignment, Cnf, Lit, PbModel};
use serde::Serialize;

use crate::picture::{Colour, Picture, Shape};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::{Details, Report};
use encode::{encode_board, BoardMap, BoardOptions};
use model::{
    count_partitions_without_ones, partition_compact, partition_string, Board, Derangement,
};

puzzlesat_encodings::option_enum! {
    /// `--method`.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Method("method") {
        /// the whole board in CNF
        Board = "board",
        /// SAT over cycle types
        #[default]
        Partitions = "partitions",
        /// the structured search
        Reference = "reference",
    }
}

/// What an Enigma report adds, for every method: the cycle types scored
/// by Algorithm 1 (partitions, reference) against all partitions of n
/// without a 1, and the optimal board's cycle type.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EnigmaDetails {
    /// the method that produced the report
    pub method: Method,
    /// cycle types scored by Algorithm 1 (None for the board method)
    pub explored: Option<u64>,
    /// partitions of n without a 1 (None past 2^64)
    pub total_partitions: Option<u64>,
    /// the best board's cycle type, compact (e.g. `2^3 3`)
    pub partition: Option<String>,
}

impl EnigmaDetails {
    /// The details of a finished report.
    pub fn of<D>(
        n: usize,
        method: Method,
        report: &Report<EnigmaSolution, D>,
        explored: Option<u64>,
    ) -> Self {
        EnigmaDetails {
            method,
            explored,
            total_partitions: u64::try_from(count_partitions_without_ones(n)).ok(),
            partition: report
                .solutions
                .first()
                .map(|s| partition_compact(&s.partition)),
        }
    }
}

impl Details for EnigmaDetails {
    fn lines(&self) -> Vec<String> {
        let total = self
            .total_partitions
            .map_or("> 2^64".into(), |t| t.to_string());
        match self.explored {
            Some(e) => vec![format!(
                "c {e} cycle types scored of {total} partitions without a 1"
            )],
            None => vec![],
        }
    }
}

/// A checked solution, as printed (text or `--json`) by every method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EnigmaSolution {
    /// side
    pub n: usize,
    /// the board, rows of cells
    pub board: Vec<Vec<u32>>,
    /// sum of the cells
    pub total: u64,
    /// 1-based images: column i equals row `permutation[i-1]`
    pub permutation: Vec<usize>,
    /// the permutation in cycle notation
    pub cycles: String,
    /// its cycle type
    pub partition: Vec<usize>,
}

impl EnigmaSolution {
    /// From a board and its column-to-row permutation.
    pub fn new(board: &Board, p: &Derangement) -> Self {
        EnigmaSolution {
            n: board.n,
            board: board.rows.clone(),
            total: board.total(),
            permutation: p.images().iter().map(|&j| j + 1).collect(),
            cycles: p.to_string(),
            partition: p.cycle_type(),
        }
    }
    /// Checks the board against the rules and the stated permutation and
    /// total against the board.
    pub fn check(&self) -> Result<(), String> {
        let b = Board::from_rows(self.board.clone());
        if b.n != self.n {
            return Err(format!("the board has {} rows, expected {}", b.n, self.n));
        }
        let p = check::check_board(&b)?;
        let images: Vec<usize> = p.images().iter().map(|&j| j + 1).collect();
        if images != self.permutation {
            return Err(format!(
                "the stated permutation {:?} is not the board's {}",
                self.permutation, p
            ));
        }
        if b.total() != self.total {
            return Err(format!(
                "the stated total {} is not the board's {}",
                self.total,
                b.total()
            ));
        }
        Ok(())
    }
    /// The board and, beside it, its permutation's cycles: each cycle a
    /// ring of its points (1-based), an arrow from `i` to `p(i)`.
    pub fn picture(&self) -> Picture {
        let n = self.n;
        let labels: Vec<Vec<String>> = self
            .board
            .iter()
            .map(|row| row.iter().map(u32::to_string).collect())
            .collect();
        // the cycles, from the images
        let mut seen = vec![false; n];
        let mut cycles: Vec<Vec<usize>> = vec![];
        for start in 0..n {
            let mut c = vec![];
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                c.push(i);
                i = self.permutation[i] - 1;
            }
            if !c.is_empty() {
                cycles.push(c);
            }
        }
        // each ring in a square of side 2·radius + 1, stacked right of the board
        let radius = |len: usize| (0.25 * len as f64).max(0.6);
        let side = cycles
            .iter()
            .map(|c| 2.0 * radius(c.len()) + 1.0)
            .fold(0.0, f64::max);
        let height: f64 = cycles.iter().map(|c| 2.0 * radius(c.len()) + 1.0).sum();
        let title = format!(
            "enigma n={n}: total {}, permutation {}",
            self.total, self.cycles
        );
        let mut p = Picture::board(&labels, title, |_, _| Colour::WHITE);
        p.width = n as f64 + 0.5 + side;
        p.height = p.height.max(height);
        let mut top = 0.0;
        for (k, cycle) in cycles.iter().enumerate() {
            let r = radius(cycle.len());
            let middle = (n as f64 + 0.5 + side / 2.0, top + r + 0.5);
            let at = |j: usize| {
                let a = std::f64::consts::TAU * j as f64 / cycle.len() as f64;
                (middle.0 + r * a.sin(), middle.1 - r * a.cos())
            };
            let fill = Colour::palette(k, cycles.len());
            for j in 0..cycle.len() {
                let (a, b) = (at(j), at((j + 1) % cycle.len()));
                if cycle.len() > 1 {
                    // from the edge of one disc to the edge of the next
                    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                    let d = (dx * dx + dy * dy).sqrt().max(1e-9);
                    let off = 0.24 / d;
                    p.add(Shape::Arrow {
                        from: (a.0 + dx * off, a.1 + dy * off),
                        to: (b.0 - dx * off, b.1 - dy * off),
                        colour: Colour::BLACK,
                    });
                }
                p.add(Shape::Disc {
                    centre: a,
                    radius: 0.22,
                    fill,
                });
                p.add(Shape::Text {
                    at: a,
                    text: (cycle[j] + 1).to_string(),
                    size: 0.28,
                });
            }
            top += 2.0 * r + 1.0;
        }
        p
    }

    /// Grid, total, permutation and partition.
    pub fn render(&self) -> String {
        format!(
            "{}\ntotal: {}\npermutation (column i = row p(i)): {}\npartition: {}",
            Board::from_rows(self.board.clone()).grid(),
            self.total,
            self.cycles,
            partition_string(&self.partition)
        )
    }
}

/// The board method as a [`Puzzle`]: side n and the CNF options.
#[derive(Clone, Debug)]
pub struct Enigma {
    /// side
    pub n: usize,
    /// encoding options
    pub opts: BoardOptions,
}

impl Puzzle for Enigma {
    type Solution = EnigmaSolution;
    type Map = BoardMap;
    type Details = EnigmaDetails;

    fn describe(&self) -> String {
        format!(
            "enigma n={} method=board symmetry={} redundant={} dominance={}",
            self.n, self.opts.symmetry, self.opts.redundant, self.opts.dominance
        )
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<BoardMap>> {
        let b = encode_board(cnf, self.n, self.opts).map_err(anyhow::Error::msg)?;
        Ok(Encoded::new(b.map, b.primary, b.names).with_objective(b.objective))
    }

    fn pb_model(&self) -> Option<PbModel> {
        Some(opb::model(self.n))
    }

    /// The canonical cycle types (`--symmetry cycles`) are derived by
    /// dominance ([`cycle_proof`]), then the encoding's domain `1..ub`
    /// from the model's `1..n²` ([`ubn_proof::domain_proof`]: at each type,
    /// a pigeonhole of the values into the orbits), then rule 1's clauses
    /// down a ladder of RUP lemmas ([`rule_proof`]); with the types the
    /// occurrence clauses
    /// of `--redundant occ3` and the staircase ([`occ_proof`]: π is fixed
    /// by the cycle type, a case split over the types), the `ubnval` and
    /// `gcd` clauses ([`ubn_proof`]: at each type, a pigeonhole of the
    /// values into the orbits) and `--dominance counts`/`orbits12`
    /// ([`dom_proof`]: the swap of two values as the witness of `dom`,
    /// then a pigeonhole per threshold). Not derived: anything without the
    /// cycle types (the domain needs them), the dominance without occ3,
    /// and the counters without occ3 (the objective's link to the model is
    /// written by occ_proof).
    fn symmetry_proof(
        &self,
        map: &BoardMap,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        let o = &self.opts;
        let r = o.redundant;
        let mut missing = vec![];
        if o.symmetry != encode::Symmetry::Cycles {
            missing.push(format!(
                "the cells' domain 1..{} (the model's is the rules' 1..n²) without --symmetry cycles",
                model::max_ubnval(self.n).max(1)
            ));
        }
        if r.occ3 && o.symmetry != encode::Symmetry::Cycles {
            missing.push("--redundant occ3 without --symmetry cycles".to_string());
        }
        if r.ubnval && !r.occ3 {
            missing.push("--redundant ubnval without occ3".to_string());
        }
        if o.dominance.counts() && (o.symmetry != encode::Symmetry::Cycles || !r.occ3) {
            missing.push(format!(
                "--dominance {} without --symmetry cycles and --redundant occ3",
                o.dominance
            ));
        }
        if !missing.is_empty() {
            return Some(Err(format!(
                "the VeriPB proof derives the board's rules, --symmetry cycles, --redundant occ3,ubnval,gcd,staircase and --dominance counts,orbits12 on top of them, not {}",
                missing.join(" or ")
            )));
        }
        Some(cycle_proof::cycles_proof(map, name).and_then(|mut p| {
            // the domain, then the rules' clauses over it
            p.before.append(ubn_proof::domain_proof(map, name)?);
            p.before.append(rule_proof::rule1_proof(map, name));
            if r.occ3 {
                occ_proof::occ3_proof(map, name, &mut p)?;
            }
            if r.ubnval {
                ubn_proof::ubnval_proof(map, name, &mut p)?;
            }
            if o.dominance.counts() {
                dom_proof::dominance_proof(map, name, &mut p)?;
            }
            if r.occ3 {
                occ_proof::staircase_and_link(map, name, &mut p)?;
            }
            Ok(p)
        }))
    }

    fn split_literals(&self, map: &BoardMap, _primary: &[Lit], _cnf: &mut Cnf) -> Vec<Lit> {
        crate::puzzle::middle_literals(&map.x)
    }

    fn details(
        &self,
        _map: &BoardMap,
        report: &mut Report<EnigmaSolution, EnigmaDetails>,
    ) -> anyhow::Result<()> {
        report.details = EnigmaDetails::of(self.n, Method::Board, report, None);
        Ok(())
    }

    fn decode(&self, map: &BoardMap, model: &Assignment) -> anyhow::Result<EnigmaSolution> {
        let n = map.n;
        let rows: Vec<Vec<u32>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| map.x[i * n + j].value(model) as u32)
                    .collect()
            })
            .collect();
        let board = Board::from_rows(rows);
        // the model's permutation (0 where a row of the matrix is empty: the
        // checker then reports the mismatch)
        let images: Vec<usize> = map
            .p
            .iter()
            .map(|row| {
                row.iter()
                    .position(|l| l.is_some_and(|l| model.lit(l)))
                    .map_or(0, |j| j + 1)
            })
            .collect();
        let mut sol =
            match Derangement::from_images(images.iter().map(|&j| j.saturating_sub(1)).collect()) {
                Some(p) if !images.contains(&0) => EnigmaSolution::new(&board, &p),
                _ => EnigmaSolution::new(&board, &Derangement::canonical(&[n])),
            };
        sol.permutation = images;
        Ok(sol)
    }

    fn check(&self, sol: &EnigmaSolution) -> Result<(), String> {
        sol.check()
    }

    fn picture(&self, sol: &EnigmaSolution) -> Option<Picture> {
        Some(sol.picture())
    }

    fn render(&self, sol: &EnigmaSolution) -> String {
        sol.render()
    }

    fn objective_of(&self, sol: &EnigmaSolution) -> Option<i64> {
        Some(sol.total as i64)
    }

    /// With symmetry breaking, redundant or dominance constraints the CNF
    /// keeps only some of the optimal boards: its count is of those, not of
    /// every optimal board (n = 4: 24 against 72), and says so.
    fn counted_as(&self) -> &'static str {
        if self.opts == BoardOptions::NAIVE {
            "solutions"
        } else {
            "solutions of the reduced CNF (its symmetry breaking, redundant and dominance constraints keep some of the boards; --symmetry none --redundant none --dominance none counts every board)"
        }
    }
}
