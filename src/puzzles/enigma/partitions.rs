//! `--method partitions`: SAT over cycle types with iterative bound
//! tightening, after the improved model of Cambazard, O'Sullivan & Smith
//! (Fig. 5, constraints C5, C6, C9–C12), with the CP propagator replaced by
//! clauses:
//!
//! - the permutation as a Boolean matrix restricted by C9 (`p_i ≤ i+1`) and
//!   C6 (no fixed point): row i holds `next_i` (i → i+1) or `close_{i,s}`
//!   (i → s < i, ending the cycle [s..i]); exactly one per row and per
//!   column (C5/C11). Then the cycles are consecutive intervals;
//! - C10 (non-decreasing cycle lengths): `close_{i,s} → ¬close_{k,i+1}` for
//!   every k < i + (i − s + 1), so each cycle type has exactly one model,
//!   its canonical representative;
//! - C12, the bound: with the cycles laid out in non-decreasing order, a
//!   cycle of length ℓ ending at e (1-based) contributes e − ⌊ℓ/2⌋ to
//!   UBNVAL (Property 4, Algorithm 3), i.e. `close_{e,e−ℓ+1}` has that
//!   weight. Rather than summing these large weights, the constraint
//!   UBNVAL ≥ V is posted as its *deficit* from the largest UBNVAL,
//!   Σ deficit ≤ max − V ([`CycleMatrix::deficit_terms`]), a
//!   pseudo-Boolean constraint with a small right-hand side (the
//!   generalized totalizer stays tiny).
//!
//! Each model is scored exactly by Algorithm 1 on its permutation plus the
//! distinct-rows check, its cycle type is blocked, and the bound is
//! tightened to what a better total needs, until UNSAT proves the optimum.
//! `--bound paper` asks for n²·UBNVAL > best (the paper's Algorithm 2);
//! `--bound orbits` (default) asks for [`score_bound`]`(n, UBNVAL) > best`,
//! which is much tighter (see `model::score_bound`).

use puzzlesat_encodings::pb::{self, PbEncoding};
use puzzlesat_encodings::{amo, Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;
use serde::Serialize;

use super::model::{best_for_cycle_type, values_needed, Derangement};
use super::{EnigmaDetails, EnigmaSolution, Method};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::Report;
use puzzlesat_encodings::solve::Sense;

puzzlesat_encodings::option_enum! {
    /// Which bound on the total a cycle type must beat.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum BoundKind("score bound") {
        /// the paper's: total ≤ n² · UBNVAL
        Paper = "paper",
        /// ours: total ≤ score_bound(n, UBNVAL)
        #[default]
        Orbits = "orbits",
    }
}

impl BoundKind {
    /// The least UBNVAL a cycle type needs to possibly beat `best`
    /// (None: nothing can).
    pub fn values_needed(self, n: usize, best: u64) -> Option<usize> {
        match self {
            BoundKind::Paper => Some((best / (n * n) as u64) as usize + 1),
            BoundKind::Orbits => values_needed(n, best),
        }
    }
}

/// A C10 clause as posted: the cycle `[start..end]` is not followed by a
/// shorter one. `next_end: Some(k)`: `close[end][start] → ¬close[k][end+1]`
/// (the next cycle `[end+1..k]` is shorter); `None`: `¬close[end][start]`
/// (the positions after `end` are too few for a cycle as long).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct C10 {
    /// the cycle's first position
    pub start: usize,
    /// its last position
    pub end: usize,
    /// the last position of the shorter cycle after it, None: no room
    pub next_end: Option<usize>,
}

impl C10 {
    /// The clause over `m`'s literals.
    pub fn clause(&self, m: &CycleMatrix) -> Vec<Lit> {
        let mut c = vec![!m.close[self.end][self.start]];
        c.extend(self.next_end.map(|k| !m.close[k][self.end + 1]));
        c
    }
}

/// The permutation matrix of the canonical representatives.
#[derive(Clone, Debug)]
pub struct CycleMatrix {
    /// side
    pub n: usize,
    /// `next[i]`: i → i+1 (i < n−1)
    pub next: Vec<Lit>,
    /// `close[i][s]`: i → s (s < i), ending the cycle [s..i]
    pub close: Vec<Vec<Lit>>,
    /// the C10 clauses posted, in order (what a proof derives)
    pub c10: Vec<C10>,
}

impl CycleMatrix {
    /// Variables, exactly-one per row and column (C5, C6, C9, C11) and the
    /// non-decreasing order of cycle lengths (C10).
    pub fn encode<DB: ClauseDatabase>(db: &mut DB, n: usize) -> Self {
        let next: Vec<Lit> = (0..n.saturating_sub(1)).map(|_| db.fresh()).collect();
        let close: Vec<Vec<Lit>> = (0..n).map(|i| db.fresh_lits(i)).collect();
        // close[i] has entries for s = 0..i (length i-s+1 ≥ 2)
        let mut m = CycleMatrix {
            n,
            next,
            close,
            c10: vec![],
        };
        for i in 0..n {
            let _ = amo::exactly_one(db, &m.row(i), amo::AmoEncoding::Ladder);
        }
        for j in 0..n {
            let _ = amo::exactly_one(db, &m.column(j), amo::AmoEncoding::Ladder);
        }
        // C10: a cycle [s..i] of length ℓ is followed by one of length ≥ ℓ
        for i in 0..n {
            for s in 0..i {
                let len = i - s + 1;
                for k in i + 2..(i + len).min(n) {
                    m.c10.push(C10 {
                        start: s,
                        end: i,
                        next_end: Some(k),
                    });
                }
                if i + 1 < n && i + len >= n {
                    // no room left for a cycle of length ≥ ℓ
                    m.c10.push(C10 {
                        start: s,
                        end: i,
                        next_end: None,
                    });
                }
            }
        }
        for c in &m.c10 {
            db.add(&c.clause(&m));
        }
        m
    }
    /// The literals of row i (where i maps to).
    pub fn row(&self, i: usize) -> Vec<Lit> {
        let mut r = self.close[i].clone();
        if i + 1 < self.n {
            r.push(self.next[i]);
        }
        r
    }
    /// The literals of column j (what maps to j).
    pub fn column(&self, j: usize) -> Vec<Lit> {
        let mut c: Vec<Lit> = (j + 1..self.n)
            .filter_map(|i| self.close[i].get(j).copied())
            .collect();
        if j >= 1 {
            c.push(self.next[j - 1]);
        }
        c
    }
    /// The weight of `close[i][s]` in UBNVAL: e − ⌊ℓ/2⌋ with e = i+1, ℓ = i−s+1.
    pub fn weight(i: usize, s: usize) -> usize {
        i + 1 - (i - s).div_ceil(2)
    }
    /// Per row, the unary number "this row's contribution to UBNVAL":
    /// `[d_i ≥ t] ↔ ⋁ { close[i][s] : weight(i, s) ≥ t }`.
    pub fn ubnval_leaves<DB: ClauseDatabase>(&self, db: &mut DB) -> Vec<Vec<Lit>> {
        let mut leaves = vec![];
        for i in 0..self.n {
            let max = (0..self.close[i].len())
                .map(|s| Self::weight(i, s))
                .max()
                .unwrap_or(0);
            let ge = db.fresh_lits(max);
            for (t, &g) in ge.iter().enumerate() {
                // for a VeriPB proof: [d_i ≥ t+1] ⇔ Σ { close of weight > t } ≥ 1
                puzzlesat_encodings::provenance::define(db, g, || {
                    let closes: Vec<Lit> = self.close[i]
                        .iter()
                        .enumerate()
                        .filter(|&(s, _)| Self::weight(i, s) > t)
                        .map(|(_, &c)| c)
                        .collect();
                    puzzlesat_encodings::provenance::Linear::count_at_least(&closes, 1)
                });
            }
            for (s, &c) in self.close[i].iter().enumerate() {
                for g in &ge[..Self::weight(i, s)] {
                    db.add(&[!c, *g]); // close → [d ≥ t] for t ≤ weight
                }
            }
            for (t, &g) in ge.iter().enumerate() {
                // [d ≥ t+1] → some close of weight ≥ t+1
                let mut cl: Vec<Lit> = vec![!g];
                cl.extend(
                    self.close[i]
                        .iter()
                        .enumerate()
                        .filter(|&(s, _)| Self::weight(i, s) > t)
                        .map(|(_, &c)| c),
                );
                db.add(&cl);
            }
            leaves.push(ge);
        }
        leaves
    }
    /// `best_tail[s]`: the largest contribution (Σ e − ⌊ℓ/2⌋) of cycles
    /// tiling the positions `s..n` (0-based) with lengths ≥ 2 in any order,
    /// None if they cannot be tiled (a single position left).
    pub fn best_tail(n: usize) -> Vec<Option<usize>> {
        let mut b = vec![None; n + 1];
        b[n] = Some(0);
        for s in (0..n).rev() {
            b[s] = (s + 1..n)
                .filter_map(|i| b[i + 1].map(|t| Self::weight(i, s) + t))
                .max();
        }
        b
    }
    /// The UBNVAL *deficit* terms: `close[i][s]` weighs
    /// `best_tail[s] − weight(i, s) − best_tail[i+1]` (≥ 0 by the maximum).
    /// Along the cycles of any model the terms telescope, so
    /// Σ deficit = best_tail[0] − UBNVAL, and "UBNVAL ≥ V" is the small
    /// pseudo-Boolean constraint Σ deficit ≤ best_tail[0] − V. (Literals that
    /// leave a single position untileable are false in every model: weight 0.)
    pub fn deficit_terms(&self) -> Vec<(Lit, usize)> {
        let b = Self::best_tail(self.n);
        let mut terms = vec![];
        for (i, row) in self.close.iter().enumerate() {
            for (s, &c) in row.iter().enumerate() {
                if let (Some(head), Some(tail)) = (b[s], b[i + 1]) {
                    let g = head - Self::weight(i, s) - tail;
                    if g > 0 {
                        terms.push((c, g));
                    }
                }
            }
        }
        terms
    }
    /// Assumptions selecting {2, …, 2} (n even) or {2, …, 2, 3} (n odd).
    pub fn all_twos(&self) -> Vec<Lit> {
        let n = self.n;
        if n < 2 {
            return vec![];
        }
        let mut lits: Vec<Lit> = (1..n - n % 2 * 3)
            .step_by(2)
            .map(|i| self.close[i][i - 1])
            .collect();
        if n % 2 == 1 && n >= 3 {
            lits.push(self.close[n - 1][n - 3]);
        }
        lits
    }
    /// The permutation of a model.
    pub fn decode(&self, a: &Assignment) -> Derangement {
        let images = (0..self.n)
            .map(|i| {
                if i + 1 < self.n && a.lit(self.next[i]) {
                    i + 1
                } else {
                    self.close[i]
                        .iter()
                        .position(|&c| a.lit(c))
                        .expect("exactly one per row")
                }
            })
            .collect();
        Derangement::from_images(images).expect("exactly one per column")
    }
    /// The clause excluding this model's cycle type (its closing literals).
    pub fn blocking_clause(&self, a: &Assignment) -> Vec<Lit> {
        self.close
            .iter()
            .flatten()
            .filter(|&&c| a.lit(c))
            .map(|&c| !c)
            .collect()
    }
}

/// The partitions method as a [`Puzzle`]: the canonical cycle types in
/// CNF, each model scored by Algorithm 1 ([`Puzzle::objective_of`]) and
/// blocked, an improvement tightening C12 ([`Puzzle::require_better`]),
/// through the generic scored driver ([`crate::drive::optimize_scored`]).
#[derive(Clone, Debug)]
pub struct Partitions {
    /// board side
    pub n: usize,
    /// the bound a cycle type must beat
    pub bound: BoundKind,
    /// try the {2, …, 2} cycle type first
    pub warm_start: bool,
    /// encoding of the C12 deficit bound
    pub pb: PbEncoding,
}

/// The partitions method's variables.
#[derive(Clone, Debug)]
pub struct PartitionsMap {
    m: CycleMatrix,
    deficit: Vec<(Lit, usize)>,
    best_ubnval: usize,
}

impl Puzzle for Partitions {
    type Solution = EnigmaSolution;
    type Map = PartitionsMap;
    type Details = EnigmaDetails;

    fn describe(&self) -> String {
        format!(
            "enigma n={} method=partitions bound={} warm-start={}",
            self.n, self.bound, self.warm_start
        )
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<PartitionsMap>> {
        let m = CycleMatrix::encode(cnf, self.n);
        let primary: Vec<Lit> = m.close.iter().flatten().copied().collect();
        let map = PartitionsMap {
            deficit: m.deficit_terms(),
            best_ubnval: CycleMatrix::best_tail(self.n)[0].unwrap_or(0),
            m,
        };
        let hint = if self.warm_start {
            // the cycle type the paper's search heuristic builds first,
            // {2, …, 2} or {2, …, 2, 3}
            map.m.all_twos()
        } else {
            vec![]
        };
        Ok(Encoded {
            scored: Some(Sense::Maximize),
            hint,
            ..Encoded::new(map, primary, vec![])
        })
    }

    fn decode(&self, map: &PartitionsMap, model: &Assignment) -> anyhow::Result<EnigmaSolution> {
        let p = map.m.decode(model);
        // `separate` rejects cycle types without a board
        let Some((_, board)) = best_for_cycle_type(&p.cycle_type()) else {
            anyhow::bail!("the model's cycle type {:?} has no board", p.cycle_type());
        };
        Ok(EnigmaSolution::new(&board, &p))
    }

    fn check(&self, sol: &EnigmaSolution) -> Result<(), String> {
        sol.check()
    }

    fn picture(&self, sol: &EnigmaSolution) -> Option<crate::picture::Picture> {
        Some(sol.picture())
    }

    fn render(&self, sol: &EnigmaSolution) -> String {
        sol.render()
    }

    fn objective_of(&self, sol: &EnigmaSolution) -> Option<i64> {
        Some(sol.total as i64)
    }

    /// A cycle type that admits no board is blocked and rejected.
    fn separate<DB: ClauseDatabase>(
        &self,
        map: &PartitionsMap,
        model: &Assignment,
        db: &mut DB,
    ) -> bool {
        if best_for_cycle_type(&map.m.decode(model).cycle_type()).is_some() {
            return false;
        }
        db.add(&map.m.blocking_clause(model));
        true
    }

    /// C12 tightened: UBNVAL ≥ the values a better total needs, posted as
    /// Σ deficit ≤ max UBNVAL − V (nothing can: the empty clause).
    fn require_better<DB: ClauseDatabase>(&self, map: &PartitionsMap, best: i64, db: &mut DB) {
        match self.bound.values_needed(self.n, best as u64) {
            Some(v) if v <= map.best_ubnval => {
                // an Err has posted the empty clause: nothing better exists
                let _ = pb::at_most(db, &map.deficit, map.best_ubnval - v, self.pb);
            }
            _ => db.add(&[]),
        }
    }

    /// A cycle type is blocked by its closing literals alone.
    fn blocking_clause(&self, map: &PartitionsMap, model: &Assignment) -> Option<Vec<Lit>> {
        Some(map.m.blocking_clause(model))
    }

    fn details(
        &self,
        _map: &PartitionsMap,
        report: &mut Report<EnigmaSolution, EnigmaDetails>,
    ) -> anyhow::Result<()> {
        // every SAT answer is one cycle type, scored by Algorithm 1
        report.details = EnigmaDetails::of(
            self.n,
            Method::Partitions,
            report,
            Some(report.sat_answers.into()),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::enigma::encode::unary_sum;
    use crate::puzzles::enigma::model::{max_ubnval, partitions_without_ones, ubnval};
    use puzzlesat_encodings::int::Directions;
    use puzzlesat_encodings::solve::{enumerate, Limits, Outcome, Session, Solver};

    #[test]
    fn one_model_per_cycle_type() {
        for n in 1..=12 {
            let mut cnf = Cnf::new();
            let m = CycleMatrix::encode(&mut cnf, n);
            let primary: Vec<Lit> = m.close.iter().flatten().copied().collect();
            let mut s = Session::new(&Solver::default(), &cnf, Limits::default()).unwrap();
            let mut types = vec![];
            let e = enumerate(&mut s, &primary, &[], None, |a| {
                let p = m.decode(a);
                assert_eq!(p, Derangement::canonical(&p.cycle_type()));
                assert!(p.is_derangement());
                types.push(p.cycle_type());
                true
            })
            .unwrap();
            assert!(e.complete);
            types.sort();
            let mut want = partitions_without_ones(n);
            want.sort();
            assert_eq!(types, want, "n = {n}");
        }
    }

    #[test]
    fn ubnval_sum_reads_property_4() {
        let n = 9;
        for parts in partitions_without_ones(n) {
            let mut cnf = Cnf::new();
            let m = CycleMatrix::encode(&mut cnf, n);
            let leaves = m.ubnval_leaves(&mut cnf);
            let out = unary_sum(&mut cnf, &leaves, max_ubnval(n), Directions::BOTH);
            let p = Derangement::canonical(&parts);
            for i in 0..n {
                let j = p.apply(i);
                let l = if j == i + 1 { m.next[i] } else { m.close[i][j] };
                cnf.add(&[l]);
            }
            let mut s = Session::new(&Solver::default(), &cnf, Limits::default()).unwrap();
            assert_eq!(s.solve(&[]).unwrap(), Outcome::Sat);
            let a = s.model().unwrap();
            let got = out.iter().filter(|&&l| a.lit(l)).count();
            assert_eq!(got, ubnval(&parts), "{parts:?}");
            let deficit: usize = m
                .deficit_terms()
                .iter()
                .filter(|(l, _)| a.lit(*l))
                .map(|(_, w)| w)
                .sum();
            // the best tiling ignores the order of lengths: at least max UBNVAL
            let best = CycleMatrix::best_tail(n)[0].unwrap();
            assert!(best >= max_ubnval(n));
            assert_eq!(deficit, best - ubnval(&parts), "{parts:?}");
        }
    }
}
