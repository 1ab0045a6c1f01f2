//! The CNF of a magic square, compiled as a list of passes over one
//! database: cell variables → all-different → line sums → givens →
//! symmetry breaking → redundant constraints.
//!
//! The model is Schulte & Smolka's (the Mozart/Oz tutorial, §7.3): a
//! variable `F_rc ∈ 1..n²` per cell, all different, every row, column and
//! main diagonal summing to `S = n(n²+1)/2`, the three order constraints
//! `F11 < Fnn, Fn1 < F1n, F11 < Fn1` against the 8 symmetries of the square,
//! and the redundant constraint `n·S = Σ F`.
//!
//! - **cells** (`--encoding`): `direct` — one-hot literals `[F = v]` with
//!   exactly-one per cell and per value (the all-different as a permutation
//!   matrix); `order` — order-encoded integers (Tamura et al. 2009) whose
//!   direct literals are channelled to the ladder, with exactly-one per value;
//!   `digits` — `F − 1 = n·high + low` with both base-`n` digits
//!   order-encoded (the compact order encoding of Tanjo, Tamura & Banbara,
//!   "A compact and efficient SAT-encoding of finite domain CSP", SAT 2011),
//!   each direct literal the conjunction of two digit literals.
//! - **line sums** (`--sum`): pseudo-Boolean over the direct literals weighted
//!   by value (`gte`, `adder`, `dpw` — the core's encoders), posted as two
//!   upper bounds, `Σ (F−1) ≤ S−n` and `Σ (n²−F) ≤ n·n²−S` (each cell has
//!   exactly one value, so the second is the lower bound `Σ F ≥ S`); or
//!   `unary` — a balanced tree of order-encoded partial sums (the
//!   totalizer's unary merging, Bailleux & Boufkhad 2003, over integers
//!   rather than bits), each node's domain cut to the sums that `k`
//!   distinct values of a line can take, the root posted as `x + y = S`;
//!   with `digits`, one tree per digit and `n·Σ high + Σ low = S − n` at
//!   the root (the carry of the low digits is implied).
//! - **symmetry** (`--symmetry`): `order` — the source's three constraints;
//!   `lex-leader` — `x ≤lex σ(x)` for the 7 non-identity symmetries of the
//!   square (Crawford, Ginsberg, Luks & Roy, KR 1996), and with
//!   `--complement` also for the 8 maps `F ↦ n²+1−F∘σ`.

use anyhow::bail;
use puzzlesat_encodings::amo::{self, AmoEncoding};
use puzzlesat_encodings::bool::Reify;
use puzzlesat_encodings::card::{self, CardEncoding};
use puzzlesat_encodings::int::{self, IntVar};
use puzzlesat_encodings::lex::{self, LexChain};
use puzzlesat_encodings::pb::{self, PbEncoding};
use puzzlesat_encodings::perm::{self, Perm};
use puzzlesat_encodings::{Assignment, ClauseDatabase};
use rustsat::types::Lit;
use std::fmt;

use super::model::{magic_sum, Givens};
use super::reference::lines;

puzzlesat_encodings::option_enum! {
    /// How `solve magic` looks for a square.
    pub enum Method("method") {
            /// `staged` to find a free square with the default encoding
            /// options, `encoding` otherwise
            Auto = "auto",
            /// the single CNF of the encoding options (finds, counts, refutes)
            Encoding = "encoding",
            /// SAT stages, one per digit of `F − 1`, under the
            /// balanced-digits restriction (finds only; [`super::staged`])
            Staged = "staged",
            /// the structured count, no SAT: row and column partitions into
            /// line sets, then the diagonals (counts only; [`super::line_sets`])
            Reference = "reference",
    }
}

puzzlesat_encodings::option_enum! {
    /// How a cell's value is represented.
    pub enum CellEncoding("cell encoding") {
            /// one-hot literals, exactly-one per cell and per value
            Direct = "direct",
            /// order-encoded integer, direct literals channelled
            Order = "order",
            /// two base-n digits, each order-encoded (compact order encoding)
            Digits = "digits",
    }
}

puzzlesat_encodings::option_enum! {
    /// How a line sum `Σ F = S` is encoded.
    pub enum SumEncoding("sum encoding") {
            /// generalized totalizer over the weighted direct literals
            Gte = "gte",
            /// binary adder over the weighted direct literals
            Adder = "adder",
            /// dynamic polynomial watchdog over the weighted direct literals
            Dpw = "dpw",
            /// tree of order-encoded partial sums (of values with `--encoding
            /// order`, of each digit with `--encoding digits`)
            Unary = "unary",
            /// the line's set of values is one of the sets of distinct values
            /// summing to S, chosen by a selector (small n: counting)
            Table = "table",
            /// `unary` over order cells, but a set of four cells is the sum
            /// of two pair sums shared with every other set that has them:
            /// each set in every pairing whose two pairs both lie in one of
            /// the implied sets (n = 4 with `--implied-sums`: 24 pairs, the
            /// equalities between them propagate as binary clauses)
            Pairs = "pairs",
    }
}

puzzlesat_encodings::option_enum! {
    /// What a count branches on.
    pub enum Decisions("decision literals") {
            /// every variable (the backend's own choice)
            All = "all",
            /// the cells' order literals only (`digits`: both digits',
            /// `order`: the value's, `direct`: the direct literals); the
            /// rest follows by propagation, and a model is blocked by its
            /// decisions
            Cells = "cells",
    }
}

puzzlesat_encodings::option_enum! {
    /// Which symmetries of the square are broken.
    pub enum Symmetry("symmetry breaking") {
            /// none: every magic square is a solution
            None = "none",
            /// the source's F11 < Fnn, Fn1 < F1n, F11 < Fn1
            Order = "order",
            /// lex-leader constraints for the 8 symmetries of the square
            LexLeader = "lex-leader",
            /// order constraints on the diagonals for the larger group of
            /// [`super::symmetry::maps`]: `F11` is the smallest diagonal
            /// cell, `Fn1 < F1n`, and ring by ring `F_dd < F_jj`
            Diagonals = "diagonals",
    }
}

/// Every encoding option of a magic-square instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// cell representation
    pub cells: CellEncoding,
    /// line-sum encoding
    pub sum: SumEncoding,
    /// at-most-one encoding of the exactly-one constraints
    pub amo: AmoEncoding,
    /// symmetry breaking
    pub symmetry: Symmetry,
    /// also break the complement symmetry `F ↦ n²+1−F` (with `lex-leader`)
    pub complement: bool,
    /// the source's redundant constraint `Σ F = n·S` (the sum of all cells)
    pub total: bool,
    /// redundant (digits only): each digit value is the high digit of
    /// exactly `n` cells and the low digit of exactly `n` cells
    pub digit_counts: bool,
    /// restrict to associative squares: `F[r][c] + F[n−1−r][n−1−c] = n²+1`
    /// (not redundant: a subclass that exists for n odd or n ≡ 0 mod 4)
    pub associative: bool,
    /// redundant: every other set of `n` cells whose sum the line sums
    /// imply ([`implied_sets`]; at n = 4 the corners, the centre and the
    /// middle pairs of opposite sides) sums to `S`, encoded like a line
    pub implied_sums: bool,
    /// what a count branches on (`--decisions`)
    pub decisions: Decisions,
}

/// A quick estimate of the clauses of the order-`n` encoding with `opts`,
/// from the parameters alone (before anything is allocated), fitted below
/// the counts measured for n = 4..10 (`dimacs magic -n N --sum S`): unary
/// (the default, with digits) 6.7·n⁵ at n = 4 falling to 4.6·n⁵ at n = 12;
/// adder 18·n⁵ falling to 11·n⁵; dpw 7.7·n⁶ rising to 12.7·n⁶; gte 2.9·n⁷
/// rising to 5.9·n⁷. An underestimate, so a refusal on it is never wrong.
pub fn estimated_clauses(n: usize, opts: &Options) -> u64 {
    let n = n as u64;
    let (k, power) = match opts.sum {
        SumEncoding::Unary | SumEncoding::Pairs => (4, 5),
        SumEncoding::Adder => (8, 5),
        SumEncoding::Dpw => (7, 6),
        SumEncoding::Gte => (2, 7),
        // the value sets grow faster than any power; this bound stays below
        SumEncoding::Table => (4, 5),
    };
    n.saturating_pow(power).saturating_mul(k)
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cells: CellEncoding::Digits,
            sum: SumEncoding::Unary,
            amo: AmoEncoding::Ladder,
            symmetry: Symmetry::None,
            complement: false,
            total: false,
            digit_counts: true,
            associative: false,
            implied_sums: false,
            decisions: Decisions::All,
        }
    }
}

impl Options {
    /// The defaults for counting order-`n` squares (`--all`, `--count`):
    /// decisions on the cells ([`Decisions::Cells`]), and at n = 4 order
    /// cells, the implied sums, the line sums over shared pair sums
    /// ([`SumEncoding::Pairs`]) and commander exactly-one; else the finding
    /// defaults. The 880 count with the shared pair sums and commander took
    /// 1,539 conflicts and 349 M instructions (36.9 ms at load 1.4, hyperfine,
    /// 40 runs), against 1,818, 421 M and 45.4 ms with unary sums and
    /// pairwise exactly-one (the previous default, below). The N = 4
    /// count with the source's order constraints took 4,461 conflicts and
    /// 788 M instructions with the finding defaults, 2,808 and 594 M with
    /// pairwise and the implied sums, 2,442 and 392 M with decisions on the
    /// cells too; cube 0 of 1024 at n = 5 took 1,503 M instructions
    /// deciding every variable, 1,283 M deciding the cells (docs/magic.md).
    /// At n = 4 the cells are order-encoded: 1,818 conflicts against the
    /// digits' 2,442 for the 880, and 8 % less wall and CPU time for the
    /// whole count at rest (hyperfine, 40 runs: 52.0 ms against 56.3 ms;
    /// 7040: 51.5 against 56.1), though 7 % more instructions (421 M
    /// against 393 M); the VeriPB proof derives order cells too.
    pub fn counting(n: usize) -> Options {
        let counting = Options {
            decisions: Decisions::Cells,
            ..Options::default()
        };
        if n == 4 {
            Options {
                cells: CellEncoding::Order,
                digit_counts: false,
                sum: SumEncoding::Pairs,
                amo: AmoEncoding::Commander,
                implied_sums: true,
                ..counting
            }
        } else {
            counting
        }
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "encoding={} sum={} amo={} symmetry={}",
            self.cells, self.sum, self.amo, self.symmetry
        )?;
        for (on, name) in [
            (self.complement, "complement"),
            (self.total, "total"),
            (self.digit_counts, "digit-counts"),
            (self.associative, "associative"),
            (self.implied_sums, "implied-sums"),
        ] {
            if on {
                write!(f, " +{name}")?;
            }
        }
        if self.decisions != Decisions::All {
            write!(f, " decisions={}", self.decisions)?;
        }
        Ok(())
    }
}

/// The variable map: the direct literal `[F_c = v]` of every cell
/// (row-major) and value, `direct[c][v−1]`; for a VeriPB proof of the
/// symmetry breaking, the digits' order literals and the order
/// constraints posted over them.
#[derive(Clone, Debug)]
pub struct CellMap {
    /// order
    pub n: usize,
    /// `direct[c][v−1] = [F_c = v]`
    pub direct: Vec<Vec<Lit>>,
    /// `--encoding digits`: per cell the order literals of `[high, low]`
    pub digits: Option<Vec<[Vec<Lit>; 2]>>,
    /// `--encoding order`: per cell its order literals `[F ≥ 2], …, [F ≥ n²]`
    pub ints: Option<Vec<Vec<Lit>>>,
    /// the pairs `(a, b)` of the posted `F_a < F_b` ([`order_pairs`]),
    /// each with its lex chain over the digits' order literals
    /// (`--encoding digits`; None otherwise)
    pub less: Vec<(CellPair, Option<LexChain>)>,
}

impl CellMap {
    /// The value of every cell under a model (0 if no direct literal is
    /// true, which the checker then rejects).
    pub fn values(&self, a: &Assignment) -> Vec<u32> {
        self.direct
            .iter()
            .map(|lits| {
                lits.iter()
                    .position(|&l| a.lit(l))
                    .map_or(0, |i| i as u32 + 1)
            })
            .collect()
    }
}

/// The cells of one encoding: direct literals always, order-encoded
/// integers with `--encoding order`, two order-encoded digits with
/// `--encoding digits`.
struct Cells {
    direct: Vec<Vec<Lit>>,
    ints: Option<Vec<IntVar>>,
    /// `[high, low]`: `F − 1 = n·high + low`, both in `0..n`
    digits: Option<Vec<[IntVar; 2]>>,
}

impl Cells {
    /// The literals of each cell in an order whose lex order is the order
    /// of the cell's value, the block length, and the complement map on a
    /// block: position `j` of a sub-block of length `sub` goes to the
    /// reversed position, negated if `negate`.
    fn lex_blocks(&self) -> (Vec<Lit>, usize, usize, bool) {
        if let Some(ints) = &self.ints {
            let k = ints[0].order_lits().len();
            (
                ints.iter()
                    .flat_map(|x| x.order_lits().iter().copied())
                    .collect(),
                k,
                k,
                true,
            )
        } else if let Some(digits) = &self.digits {
            let sub = digits[0][0].order_lits().len();
            let xs = digits
                .iter()
                .flat_map(|[hi, lo]| hi.order_lits().iter().chain(lo.order_lits()).copied())
                .collect();
            (xs, 2 * sub, sub, true)
        } else {
            let k = self.direct[0].len();
            (
                self.direct
                    .iter()
                    .flat_map(|d| d.iter().rev().copied())
                    .collect(),
                k,
                k,
                false,
            )
        }
    }
}

/// The sum of the `k` largest of `1..=m`.
fn top(m: i64, k: i64) -> i64 {
    k * m - k * (k - 1) / 2
}

/// The range of the sum of `k` of the `len` distinct cells of a line summing
/// to `target`, values in `1..=m`: at least the `k` smallest values and what
/// the other `len−k` cells cannot cover, at most symmetrically.
fn partial_bounds(m: i64, len: i64, k: i64, target: i64) -> (i64, i64) {
    let rest = len - k;
    let lo = (k * (k + 1) / 2).max(target - top(m, rest));
    let hi = top(m, k).min(target - rest * (rest + 1) / 2);
    (lo, hi)
}

/// Compiles a magic-square instance into `db`.
pub fn encode<DB: ClauseDatabase>(
    db: &mut DB,
    givens: &Givens,
    o: &Options,
) -> anyhow::Result<CellMap> {
    Ok(encode_with_decisions(db, givens, o)?.0)
}

/// [`encode`], and the cells' own literals, which fix every other
/// variable by propagation ([`Decisions::Cells`]): the order literals of
/// both digits (`digits`) or of the value (`order`), the direct literals
/// (`direct`).
pub fn encode_with_decisions<DB: ClauseDatabase>(
    db: &mut DB,
    givens: &Givens,
    o: &Options,
) -> anyhow::Result<(CellMap, Vec<Lit>)> {
    let n = givens.n;
    if n == 0 {
        bail!("the order n must be at least 1");
    }
    if o.sum == SumEncoding::Unary && o.cells == CellEncoding::Direct {
        bail!("--sum unary adds order-encoded integers: it needs --encoding order or digits");
    }
    if o.decisions == Decisions::Cells && o.sum == SumEncoding::Adder {
        // its sums are not fixed by propagation from the inputs: a square
        // breaking a line would be taken for a model
        bail!("--decisions cells needs line sums that propagate to a verdict once the cells are fixed: not --sum adder");
    }
    if o.complement && o.symmetry == Symmetry::None {
        bail!("--complement needs --symmetry lex-leader or order");
    }
    let m = (n * n) as i64;
    let s = magic_sum(n) as i64;
    let mut cells = cell_variables(db, n, o);
    all_different(db, &cells, o.amo);
    if o.sum == SumEncoding::Pairs {
        let hubs = if o.implied_sums {
            implied_sets(n)?
        } else {
            vec![]
        };
        let mut sets = lines(n);
        sets.extend(hubs.iter().cloned());
        shared_pair_sums(db, &cells, &sets, &hubs, s, m)?;
    } else {
        for line in lines(n) {
            line_sum(db, &mut cells, &line, s, m, o.sum, o.amo)?;
        }
    }
    for (c, given) in givens.cells.iter().flatten().enumerate() {
        if let Some(v) = *given {
            db.unit(cells.direct[c][v as usize - 1]);
        }
    }
    let less = symmetry_breaking(db, &cells, n, o)?;
    if o.total {
        let all: Vec<usize> = (0..n * n).collect();
        line_sum(db, &mut cells, &all, m * (m + 1) / 2, m, o.sum, o.amo)?;
    }
    if o.digit_counts {
        digit_counts(db, &mut cells, n)?;
    }
    if o.associative {
        associative(db, &cells, n);
    }
    if o.implied_sums && o.sum != SumEncoding::Pairs {
        for set in implied_sets(n)? {
            line_sum(db, &mut cells, &set, s, m, o.sum, o.amo)?;
        }
    }
    let digits: Option<Vec<[Vec<Lit>; 2]>> = cells.digits.as_ref().map(|ds| {
        ds.iter()
            .map(|[hi, lo]| [hi.order_lits().to_vec(), lo.order_lits().to_vec()])
            .collect()
    });
    let ints: Option<Vec<Vec<Lit>>> = cells
        .ints
        .as_ref()
        .map(|xs| xs.iter().map(|x| x.order_lits().to_vec()).collect());
    // what a count branches on: the cells' own literals
    let decisions = match (&digits, &ints) {
        (Some(digits), _) => digits
            .iter()
            .flat_map(|[hi, lo]| hi.iter().chain(lo).copied())
            .collect(),
        (None, Some(ints)) => ints.iter().flatten().copied().collect(),
        (None, None) => cells.direct.iter().flatten().copied().collect(),
    };
    let map = CellMap {
        n,
        direct: cells.direct,
        digits,
        ints,
        less,
    };
    Ok((map, decisions))
}

/// Pass 1: a variable per cell.
fn cell_variables<DB: ClauseDatabase>(db: &mut DB, n: usize, o: &Options) -> Cells {
    let m = (n * n) as i64;
    match o.cells {
        CellEncoding::Direct => {
            let direct: Vec<Vec<Lit>> = (0..n * n).map(|_| db.fresh_lits(m as usize)).collect();
            for lits in &direct {
                let _ = amo::exactly_one(db, lits, o.amo); // one value per cell
            }
            Cells {
                direct,
                ints: None,
                digits: None,
            }
        }
        CellEncoding::Order => {
            let mut ints: Vec<IntVar> = (0..n * n)
                .map(|_| IntVar::new(db, 1, m).expect("n ≥ 1"))
                .collect();
            let direct: Vec<Vec<Lit>> = ints
                .iter_mut()
                .map(|x| (1..=m).map(|v| x.eq(db, v)).collect())
                .collect();
            // provenance for a VeriPB proof: the order literals over the values
            puzzlesat_encodings::provenance::define_first(db, || {
                ints.iter()
                    .zip(&direct)
                    .flat_map(|(x, lits)| super::opb::order_definitions(lits, x.order_lits()))
                    .collect()
            });
            Cells {
                direct,
                ints: Some(ints),
                digits: None,
            }
        }
        CellEncoding::Digits => {
            let mut digits: Vec<[IntVar; 2]> = (0..n * n)
                .map(|_| {
                    [
                        IntVar::new(db, 0, n as i64 - 1).expect("n ≥ 1"),
                        IntVar::new(db, 0, n as i64 - 1).expect("n ≥ 1"),
                    ]
                })
                .collect();
            let mut direct = vec![];
            for [hi, lo] in digits.iter_mut() {
                let his: Vec<Lit> = (0..n as i64).map(|d| hi.eq(db, d)).collect();
                let los: Vec<Lit> = (0..n as i64).map(|d| lo.eq(db, d)).collect();
                let mut lits = Vec::with_capacity(n * n);
                for &h in &his {
                    for &l in &los {
                        // [F = n·h + l + 1] ↔ [high = h] ∧ [low = l]
                        let d = db.fresh();
                        db.add(&[!d, h]);
                        db.add(&[!d, l]);
                        db.add(&[d, !h, !l]);
                        lits.push(d);
                    }
                }
                // provenance for a VeriPB proof: the digits over the values
                puzzlesat_encodings::provenance::define_first(db, || {
                    super::opb::digit_definitions(n, &lits, [&*hi, &*lo], [&his, &los])
                });
                direct.push(lits);
            }
            Cells {
                direct,
                ints: None,
                digits: Some(digits),
            }
        }
    }
}

/// Pass 2: every value is taken by exactly one cell (with one value per
/// cell, a permutation matrix: the all-different).
fn all_different<DB: ClauseDatabase>(db: &mut DB, cells: &Cells, enc: AmoEncoding) {
    let m = cells.direct.len();
    for v in 0..m {
        let column: Vec<Lit> = cells.direct.iter().map(|lits| lits[v]).collect();
        let _ = amo::exactly_one(db, &column, enc);
    }
}

/// Pass 3: `Σ_{c ∈ line} F_c = target`.
fn line_sum<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &mut Cells,
    line: &[usize],
    target: i64,
    m: i64,
    enc: SumEncoding,
    amo: AmoEncoding,
) -> anyhow::Result<()> {
    let len = line.len() as i64;
    let pb_enc = match enc {
        SumEncoding::Gte => PbEncoding::Gte,
        SumEncoding::Adder => PbEncoding::Adder,
        SumEncoding::Dpw => PbEncoding::Dpw,
        SumEncoding::Table => {
            return value_sets_clauses(db, &cells.direct, line, target, m, amo);
        }
        SumEncoding::Unary | SumEncoding::Pairs => {
            if let Some(digits) = &cells.digits {
                digit_sum_eq(db, digits, &cells.direct, line, target);
            } else {
                let ints = cells
                    .ints
                    .as_ref()
                    .expect("checked in encode: unary sums need integer cells");
                unary_sum_eq(db, ints, &cells.direct, line, target, m);
            }
            return Ok(());
        }
    };
    // Σ (F−1) ≤ target − len
    let up: Vec<(Lit, usize)> = line
        .iter()
        .flat_map(|&c| (1..=m).map(move |v| (c, v)))
        .map(|(c, v)| (cells.direct[c][v as usize - 1], (v - 1) as usize))
        .collect();
    // Σ (m−F) ≤ len·m − target, i.e. Σ F ≥ target
    let down: Vec<(Lit, usize)> = line
        .iter()
        .flat_map(|&c| (1..=m).map(move |v| (c, v)))
        .map(|(c, v)| (cells.direct[c][v as usize - 1], (m - v) as usize))
        .collect();
    if target < len || target > len * m {
        db.add(&[]);
        return Ok(());
    }
    let _ = pb::at_most(db, &up, (target - len) as usize, pb_enc);
    let _ = pb::at_most(db, &down, (len * m - target) as usize, pb_enc);
    Ok(())
}

/// `--sum pairs`: every set of `sets` sums to `target`; a set of four
/// cells as `x + y = target` over two pair sums `x`, `y` (each an
/// order-encoded [`int::plus_in`] cut to what two distinct values of a
/// line can sum to, made once per pair and shared), in every pairing whose
/// two pairs both lie in a set of `hubs`; any other set as a `unary` tree.
fn shared_pair_sums<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &Cells,
    sets: &[Vec<usize>],
    hubs: &[Vec<usize>],
    target: i64,
    m: i64,
) -> anyhow::Result<()> {
    let Some(ints) = cells.ints.as_ref() else {
        bail!("--sum pairs adds order-encoded integers: it needs --encoding order");
    };
    let in_hub = |a: usize, b: usize| hubs.iter().any(|h| h.contains(&a) && h.contains(&b));
    let mut pairs: std::collections::HashMap<(usize, usize), IntVar> = Default::default();
    for set in sets {
        let chosen: Vec<[(usize, usize); 2]> = match set[..] {
            [a, b, c, d] => [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]
                .into_iter()
                .filter(|ps| ps.iter().all(|&(x, y)| in_hub(x, y)))
                .collect(),
            _ => vec![],
        };
        if chosen.is_empty() {
            unary_sum_eq(db, ints, &cells.direct, set, target, m);
            continue;
        }
        let (lo, hi) = partial_bounds(m, 4, 2, target);
        // for a VeriPB proof, as in a `unary` tree: a pair sum's cut is a
        // lemma from this set's sum (the first set that has the pair), the
        // root's equation the set's sum itself
        let note = |db: &mut DB, part: &[usize], lo: i64, hi: i64| {
            if let Some(p) = db.provenance() {
                let group =
                    super::opb::order_sum_lemmas(ints, &cells.direct, set, part, lo, hi, target);
                if group.is_empty() {
                    p.source(None);
                } else {
                    p.lemmas(group);
                }
            }
        };
        for ps in chosen {
            let [x, y] = ps.map(|(a, b)| {
                pairs
                    .entry((a, b))
                    .or_insert_with(|| {
                        note(db, &[a, b], lo, hi);
                        int::plus_in(db, &ints[a], &ints[b], lo, hi)
                            .unwrap_or_else(|_| IntVar::constant(db, lo))
                    })
                    .clone()
            });
            note(db, set, target, target);
            // x + y = target: [x ≥ i] → [y ≤ target − i] and [x ≤ i−1] → [y ≥ target − i + 1]
            for i in x.lb()..=x.ub() + 1 {
                db.add(&[!x.ge(i), !y.ge(target - i + 1)]);
                db.add(&[x.ge(i), y.ge(target - i + 1)]);
            }
        }
    }
    puzzlesat_encodings::provenance::source(db, || None);
    Ok(())
}

/// The most value sets a `table` line may have (beyond, the CNF would be
/// too large: use `unary`).
const MAX_VALUE_SETS: usize = 200_000;

/// Every set of `len` distinct values in `1..=m` summing to `target`, each
/// ascending.
pub fn value_sets(m: i64, len: usize, target: i64) -> Vec<Vec<i64>> {
    fn go(
        next: i64,
        m: i64,
        left: usize,
        target: i64,
        cur: &mut Vec<i64>,
        out: &mut Vec<Vec<i64>>,
    ) {
        if left == 0 {
            if target == 0 {
                out.push(cur.clone());
            }
            return;
        }
        let k = left as i64;
        for v in next..=m {
            // the smallest and largest sums of the k values from v on
            let lo = k * v + k * (k - 1) / 2;
            let hi = top(m, k);
            if lo > target {
                break;
            }
            if hi < target {
                return;
            }
            cur.push(v);
            go(v + 1, m, left - 1, target - v, cur, out);
            cur.pop();
        }
    }
    let mut out = vec![];
    go(1, m, len, target, &mut vec![], &mut out);
    out
}

/// The `table` line sum: a selector per set of distinct values summing to
/// `target`, exactly one selected; a cell's value must belong to the selected
/// set (`[F_c = v] → ∨ {s_k : v ∈ set k}`) and every value of the selected
/// set sits in some cell of the line (`s_k → ∨_c [F_c = v]`). With the
/// all-different, unit propagation then removes every value that no
/// remaining set supports (a table constraint on the set of line values).
fn value_sets_clauses<DB: ClauseDatabase>(
    db: &mut DB,
    direct: &[Vec<Lit>],
    line: &[usize],
    target: i64,
    m: i64,
    amo: AmoEncoding,
) -> anyhow::Result<()> {
    let sets = value_sets(m, line.len(), target);
    if sets.len() > MAX_VALUE_SETS {
        bail!(
            "--sum table: a line has {} value sets (more than {MAX_VALUE_SETS}): use --sum unary",
            sets.len()
        );
    }
    let sel = db.fresh_lits(sets.len());
    let _ = amo::exactly_one(db, &sel, amo);
    let mut supports: Vec<Vec<Lit>> = vec![vec![]; m as usize];
    for (k, set) in sets.iter().enumerate() {
        for &v in set {
            supports[v as usize - 1].push(sel[k]);
            // s_k → value v is in some cell of the line
            let mut clause = vec![!sel[k]];
            clause.extend(line.iter().map(|&c| direct[c][v as usize - 1]));
            db.add(&clause);
        }
        // s_k → no cell of the line takes a value outside set k
        let mut inside = vec![false; m as usize];
        for &v in set {
            inside[v as usize - 1] = true;
        }
        for &c in line {
            for v in (0..m as usize).filter(|&v| !inside[v]) {
                db.add(&[!sel[k], !direct[c][v]]);
            }
        }
    }
    for &c in line {
        for v in 0..m as usize {
            // [F_c = v] → some selected set holds v
            let mut clause = vec![!direct[c][v]];
            clause.extend(&supports[v]);
            db.add(&clause);
        }
    }
    Ok(())
}

/// `Σ_{c ∈ line} F_c = target` for distinct order-encoded integers in
/// `1..=m`: a [`cut_sum_eq`] with [`partial_bounds`]; for a VeriPB proof,
/// each node's cut is a lemma from the model ([`super::opb::order_sum_lemmas`]).
fn unary_sum_eq<DB: ClauseDatabase>(
    db: &mut DB,
    ints: &[IntVar],
    direct: &[Vec<Lit>],
    line: &[usize],
    target: i64,
    m: i64,
) {
    let len = line.len() as i64;
    let xs: Vec<&IntVar> = line.iter().map(|&c| &ints[c]).collect();
    let bounds = |k| partial_bounds(m, len, k, target);
    let mut note = |db: &mut DB, part: std::ops::Range<usize>| {
        if let Some(p) = db.provenance() {
            let (lo, hi) = bounds(part.len() as i64);
            let group =
                super::opb::order_sum_lemmas(ints, direct, line, &line[part], lo, hi, target);
            if group.is_empty() {
                p.source(None);
            } else {
                p.lemmas(group);
            }
        }
    };
    cut_sum_eq_noting(db, &xs, target, &bounds, &mut note);
    puzzlesat_encodings::provenance::source(db, || None);
}

/// `Σ xs = target` as a balanced tree of unary adders whose partial sums of
/// `k` terms are cut to `bounds(k)` (what the rest of the line can
/// complete), with `x + y = target` at the root — linear in the domain,
/// where a full adder there would be quadratic. The single CNF cuts for
/// distinct values ([`partial_bounds`]); the staged method's digit squares
/// for digits that repeat.
pub(super) fn cut_sum_eq<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    target: i64,
    bounds: &dyn Fn(i64) -> (i64, i64),
) {
    cut_sum_eq_noting(db, xs, target, bounds, &mut |_, _| {});
}

/// The positions of the terms whose node's clauses come next (for a
/// proof's provenance): the whole range before the root's.
type Note<'a, DB> = &'a mut dyn FnMut(&mut DB, std::ops::Range<usize>);

/// [`cut_sum_eq`], calling `note` before each node's clauses.
fn cut_sum_eq_noting<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    target: i64,
    bounds: &dyn Fn(i64) -> (i64, i64),
    note: Note<DB>,
) {
    if xs.len() == 1 {
        note(db, 0..1);
        xs[0].post_ge(db, target);
        xs[0].post_le(db, target);
        return;
    }
    let half = xs.len() / 2;
    let left = cut_partial_sum(db, &xs[..half], 0, bounds, note);
    let right = cut_partial_sum(db, &xs[half..], half, bounds, note);
    note(db, 0..xs.len());
    // x + y = target: [x ≥ i] → [y ≤ target − i] and [x ≤ i−1] → [y ≥ target − i + 1]
    for i in left.lb()..=left.ub() + 1 {
        db.add(&[!left.ge(i), !right.ge(target - i + 1)]);
        db.add(&[left.ge(i), right.ge(target - i + 1)]);
    }
}

/// The partial sum of `xs` (the terms from position `at`), its domain cut
/// to `bounds(xs.len())`.
fn cut_partial_sum<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    at: usize,
    bounds: &dyn Fn(i64) -> (i64, i64),
    note: Note<DB>,
) -> IntVar {
    let (lo, hi) = bounds(xs.len() as i64);
    if xs.len() == 1 {
        // a single cell: post its bounds, reuse it
        note(db, at..at + 1);
        xs[0].post_ge(db, lo);
        xs[0].post_le(db, hi);
        return xs[0].clone();
    }
    let half = xs.len() / 2;
    let x = cut_partial_sum(db, &xs[..half], at, bounds, note);
    let y = cut_partial_sum(db, &xs[half..], at + half, bounds, note);
    note(db, at..at + xs.len());
    // an empty range has posted the empty clause: any variable will do
    int::plus_in(db, &x, &y, lo, hi).unwrap_or_else(|_| IntVar::constant(db, lo))
}

/// `Σ F = target` over digit cells: with `H = Σ high` and `L = Σ low`
/// (balanced unary sums, `int::sum`), `n·H + L = target − len`, posted as
/// `[H ≥ h] → [L ≤ t − n·h]` and `[H ≤ h] → [L ≥ t − n·h]` (so `L` only
/// takes the values `t − n·H`: the carry of the low digits is implied).
fn digit_sum_eq<DB: ClauseDatabase>(
    db: &mut DB,
    digits: &[[IntVar; 2]],
    direct: &[Vec<Lit>],
    line: &[usize],
    target: i64,
) {
    let base = digits[0][0].ub() + 1;
    let t = target - line.len() as i64;
    let his: Vec<&IntVar> = line.iter().map(|&c| &digits[c][0]).collect();
    let los: Vec<&IntVar> = line.iter().map(|&c| &digits[c][1]).collect();
    let high = int::sum(db, &his);
    let low = int::sum(db, &los);
    // provenance for a VeriPB proof: n·H + L = t from the line's sum
    puzzlesat_encodings::provenance::lemmas(db, || {
        super::opb::digit_line_lemmas(digits, direct, line, target)
    });
    for h in high.lb()..=high.ub() + 1 {
        db.add(&[!high.ge(h), !low.ge(t - base * h + 1)]); // H ≥ h → L ≤ t − n·h
        db.add(&[high.ge(h), low.ge(t - base * (h - 1))]); // H ≤ h−1 → L ≥ t − n·(h−1)
    }
    puzzlesat_encodings::provenance::source(db, || None);
}

/// `F_a < F_b`; over digits, the lex chain it posted.
fn less<DB: ClauseDatabase>(db: &mut DB, cells: &Cells, a: usize, b: usize) -> Option<LexChain> {
    match (&cells.ints, &cells.digits) {
        (Some(ints), _) => int::lt(&ints[a], &ints[b]).post(db),
        (None, Some(digits)) => {
            // (high, low) of a before (high, low) of b, lexicographically
            let lits = |c: usize| -> Vec<Lit> {
                digits[c]
                    .iter()
                    .flat_map(|d| d.order_lits().iter().copied())
                    .collect()
            };
            return Some(lex::lex_lt(db, &lits(a), &lits(b)));
        }
        (None, None) => {
            let m = cells.direct[a].len();
            for v in 0..m {
                for w in 0..=v {
                    db.add(&[!cells.direct[a][v], !cells.direct[b][w]]); // F_a = v → F_b ≠ w ≤ v
                }
            }
        }
    }
    None
}

/// Pass 4: symmetry breaking; the posted `F_a < F_b` with their chains.
fn symmetry_breaking<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &Cells,
    n: usize,
    o: &Options,
) -> anyhow::Result<Vec<(CellPair, Option<LexChain>)>> {
    if o.symmetry == Symmetry::LexLeader {
        lex_leader(db, cells, n, o.complement)?;
        return Ok(vec![]);
    }
    let (lt, sums) = order_pairs(n, o);
    let posted = lt
        .into_iter()
        .map(|(a, b)| ((a, b), less(db, cells, a, b)))
        .collect();
    for (a, b) in sums {
        complement_corners(db, cells, a, b, n);
    }
    Ok(posted)
}

/// The order constraints of `--symmetry order` and `diagonals`: the pairs
/// `(a, b)` of `F_a < F_b`, in the order they are posted, and with
/// `--complement` the pairs of `F_a + F_b ≤ n²+1`; none for the other
/// symmetry breakings.
pub fn order_pairs(n: usize, o: &Options) -> (Vec<CellPair>, Vec<CellPair>) {
    let at = |r: usize, c: usize| (r - 1) * n + (c - 1);
    let mut sums = vec![];
    let lt = match o.symmetry {
        Symmetry::Order if n > 1 => {
            if o.complement {
                sums = vec![(at(1, 1), at(1, n)), (at(1, 1), at(n, n))];
            }
            vec![
                (at(1, 1), at(n, n)),
                (at(n, 1), at(1, n)),
                (at(1, 1), at(n, 1)),
            ]
        }
        Symmetry::Diagonals => {
            let (first, rings) = diagonal_order(n);
            if o.complement {
                sums = first.iter().copied().filter(|&(a, _)| a == 0).collect();
            }
            first.into_iter().chain(rings).collect()
        }
        _ => vec![],
    };
    (lt, sums)
}

/// Two cells (row-major indices).
pub type CellPair = (usize, usize);

/// The pairs `(a, b)` (cells, row-major) of `F_a < F_b` of `--symmetry
/// diagonals`: first `F_00` below every other diagonal cell but the centre
/// (pairs `(0, b)`) and `F_{n−1,0} < F_{0,n−1}`, then ring by ring
/// `F_dd < F_jj` for `d < j ≤ n−1−d` (0-based). The group of
/// [`super::symmetry::maps`] moves `(0,0)` to every diagonal cell but the
/// centre; what fixes it is the transpose and, ring by ring, the maps of
/// the inner rows; each constraint picks one image of one of them, so
/// every class keeps one square ([`super::symmetry::in_diagonal_order`]
/// states the same from the definitions).
pub fn diagonal_order(n: usize) -> (Vec<CellPair>, Vec<CellPair>) {
    let at = |r: usize, c: usize| r * n + c;
    let centre = (n % 2 == 1).then(|| at(n / 2, n / 2));
    let mut first = vec![];
    if n < 2 {
        return (first, vec![]);
    }
    let mut diag: Vec<usize> = (0..n).flat_map(|j| [at(j, j), at(j, n - 1 - j)]).collect();
    diag.sort_unstable();
    diag.dedup();
    for b in diag {
        if b != at(0, 0) && Some(b) != centre {
            first.push((at(0, 0), b));
        }
    }
    first.push((at(n - 1, 0), at(0, n - 1)));
    let mut rings = vec![];
    for d in 1..n / 2 {
        for j in d + 1..n - d {
            if Some(at(j, j)) != centre {
                rings.push((at(d, d), at(j, j)));
            }
        }
    }
    (first, rings)
}

/// `F_a + F_b ≤ n²+1` over direct literals. With the source's order and `b`
/// the corners `F1n`, `Fnn`, this keeps a square whose smallest and largest
/// corners sum to at most `n²+1`: of a square and its complement's
/// in-order image, at least one (both when the sum is `n²+1`). A partial
/// breaking of the complement, cheap to propagate; counting by classes
/// ([`crate::drive::classes`]) enumerates it and keeps each class once.
fn complement_corners<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &Cells,
    a: usize,
    b: usize,
    n: usize,
) {
    let m = n * n;
    for v in 1..=m {
        for w in (m + 2 - v).max(1)..=m {
            db.add(&[!cells.direct[a][v - 1], !cells.direct[b][w - 1]]); // v + w > n²+1
        }
    }
}

/// The 8 symmetries of the square as permutations of the cells (row-major),
/// identity first: the board group ([`perm::board_group`]).
pub fn square_symmetries(n: usize) -> Vec<Perm> {
    perm::board_perms(n, n)
}

/// The lex-leader constraints. The lex vector lists each cell's literals,
/// cells row-major, ordered so that lex order on a cell's block is the
/// order of its value: the order literals `[F ≥ 2], …, [F ≥ n²]` (order
/// cells), or the direct literals `[F = n²], …, [F = 1]` (direct cells, a
/// larger value sets an earlier position). A geometric symmetry permutes
/// whole blocks (`lift_blocks`); the complement `F ↦ n²+1−F` maps a block
/// onto itself reversed — `[F' ≥ v] = ¬[F ≥ n²+2−v]` for order literals,
/// `[F' = v] = [F = n²+1−v]` for direct ones — so with `complement` the 8
/// composed maps are posted as literal images (`lex_leader_images`).
fn lex_leader<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &Cells,
    n: usize,
    complement: bool,
) -> anyhow::Result<()> {
    let m = n * n;
    let (xs, k, sub, negate) = cells.lex_blocks();
    let group = square_symmetries(n);
    let lifted: Vec<Perm> = group.iter().map(|g| g.lift_blocks(k)).collect();
    perm::lex_leader(db, &xs, &lifted);
    if complement {
        // position j of a sub-block ↦ the reversed position, negated for order literals
        let images: Vec<Vec<Lit>> = group
            .iter()
            .map(|g| {
                (0..m)
                    .flat_map(|c| (0..k).map(move |j| (c, j)))
                    .map(|(c, j)| {
                        let l = xs
                            [g.apply(c as u32) as usize * k + j / sub * sub + (sub - 1 - j % sub)];
                        if negate {
                            !l
                        } else {
                            l
                        }
                    })
                    .collect()
            })
            .collect();
        perm::lex_leader_images(db, &xs, &images);
    }
    Ok(())
}

/// Redundant: `|{c : high_c = d}| = |{c : low_c = d}| = n` for every digit
/// `d` (the `n` values `n·d+1 … n·d+n` share the high digit `d`; the `n`
/// values `d+1, n+d+1, …` share the low digit `d`), as totalizers.
fn digit_counts<DB: ClauseDatabase>(
    db: &mut DB,
    cells: &mut Cells,
    n: usize,
) -> anyhow::Result<()> {
    let Cells { direct, digits, .. } = cells;
    let Some(digits) = digits.as_mut() else {
        bail!("--digit-counts counts digits: it needs --encoding digits");
    };
    for which in 0..2 {
        for d in 0..n as i64 {
            let lits: Vec<Lit> = digits.iter_mut().map(|c| c[which].eq(db, d)).collect();
            // provenance for a VeriPB proof: the count from "each value once"
            puzzlesat_encodings::provenance::lemmas(db, || {
                super::opb::digit_count_lemmas(direct, &lits, which, d as usize)
            });
            card::exactly(db, &lits, n, CardEncoding::Totalizer)?;
            puzzlesat_encodings::provenance::source(db, || None);
        }
    }
    Ok(())
}

/// The largest order whose [`implied_sets`] are searched (`C(n², n)`
/// subsets: 53,130 at n = 5, 1.9 M at n = 6).
pub const MAX_IMPLIED_ORDER: usize = 5;

/// Every set of `n` cells (row-major, ascending) other than a line whose sum
/// is the same in every magic square: its indicator vector is a rational
/// combination `Σ c_i·line_i` of the lines' (exact integer elimination,
/// [`null_space`]). Each line has `n` cells, so `Σ c_i = |T|/n = 1` and the
/// set sums to `S`. At n = 4: the four corners, the centre 2×2, and the
/// middle pairs of the top and bottom rows, of the left and right columns;
/// at n = 3 and 5 none. An error beyond [`MAX_IMPLIED_ORDER`].
pub fn implied_sets(n: usize) -> anyhow::Result<Vec<Vec<usize>>> {
    if n > MAX_IMPLIED_ORDER {
        bail!(
            "--implied-sums searches the sets of n cells for n ≤ {MAX_IMPLIED_ORDER}, not n = {n}"
        );
    }
    let m = n * n;
    let ls = lines(n);
    let indicator = |set: &[usize]| {
        let mut v = vec![0i64; m];
        set.iter().for_each(|&c| v[c] = 1);
        v
    };
    let basis = echelon(ls.iter().map(|l| indicator(l)).collect());
    // in the row space exactly when orthogonal to the null space: a sum
    // over the set's cells per null vector, for each of the C(n², n) sets
    let null = null_space(&basis, m);
    let mut out = vec![];
    let mut set: Vec<usize> = (0..n).collect();
    loop {
        if null
            .iter()
            .all(|w| set.iter().map(|&c| w[c]).sum::<i64>() == 0)
            && !ls.contains(&set)
        {
            out.push(set.clone());
        }
        // the next n-subset of 0..m in lexicographic order
        let Some(i) = (0..n).rev().find(|&i| set[i] < m - n + i) else {
            return Ok(out);
        };
        set[i] += 1;
        for j in i + 1..n {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// Integer row echelon form of `rows` (fraction-free: a row is eliminated
/// by `a·r − b·p` and divided by its gcd), zero rows dropped; each row's
/// first non-zero entry is its pivot, strictly to the right of the rows'
/// above.
fn echelon(mut rows: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = vec![];
    let width = rows.first().map_or(0, Vec::len);
    for col in 0..width {
        let Some(k) = rows.iter().position(|r| r[col] != 0) else {
            continue;
        };
        let p = rows.swap_remove(k);
        for r in rows.iter_mut() {
            eliminate(r, &p, col);
        }
        out.push(p);
    }
    out
}

/// `r ← p[col]·r − r[col]·p`, divided by the gcd of its entries: `r[col]`
/// becomes 0.
fn eliminate(r: &mut [i64], p: &[i64], col: usize) {
    let (a, b) = (p[col], r[col]);
    if b == 0 {
        return;
    }
    for (x, y) in r.iter_mut().zip(p) {
        *x = a * *x - b * y;
    }
    let g = r.iter().fold(0, |g, &x| gcd(g, x.abs()));
    if g > 1 {
        r.iter_mut().for_each(|x| *x /= g);
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A basis of the integer vectors `w` of length `width` orthogonal to every
/// row of `basis` (an [`echelon`] form): one per free column `f` (no
/// row's pivot), `w[f] = 1` before scaling, and the pivots' entries solved
/// row by row from the bottom (`p·w = 0`), the vector scaled where a
/// division would not be exact. A vector is a rational combination of the
/// rows exactly when it is orthogonal to each of these.
fn null_space(basis: &[Vec<i64>], width: usize) -> Vec<Vec<i64>> {
    let pivots: Vec<usize> = basis
        .iter()
        .map(|p| p.iter().position(|&x| x != 0).expect("no zero rows"))
        .collect();
    let mut out = vec![];
    for f in (0..width).filter(|f| !pivots.contains(f)) {
        let mut w = vec![0i64; width];
        w[f] = 1;
        for (p, &c) in basis.iter().zip(&pivots).rev() {
            // p[c]·w[c] = −Σ_{j > c} p[j]·w[j]
            let rest: i64 = (c + 1..width).map(|j| p[j] * w[j]).sum();
            let g = gcd(rest.abs(), p[c].abs());
            let scale = (p[c] / g).abs();
            if scale > 1 {
                w.iter_mut().for_each(|x| *x *= scale);
            }
            w[c] = -rest * scale / p[c];
        }
        let g = w.iter().fold(0, |g, &x| gcd(g, x.abs()));
        if g > 1 {
            w.iter_mut().for_each(|x| *x /= g);
        }
        out.push(w);
    }
    out
}

/// The associative restriction: opposite cells sum to `n²+1`.
fn associative<DB: ClauseDatabase>(db: &mut DB, cells: &Cells, n: usize) {
    let m = n * n;
    for c in 0..m {
        let opp = m - 1 - c;
        for v in 0..m {
            // [F_c = v] → [F_opp = m+1−v]  (values 1-based: index m−1−v)
            db.add(&[!cells.direct[c][v], cells.direct[opp][m - 1 - v]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_bounds_of_order_three() {
        // two cells of a 3-line summing to 15 over 1..9: 15−9 = 6 ≤ x+y ≤ 15−1 = 14
        assert_eq!(partial_bounds(9, 3, 2, 15), (6, 14));
        assert_eq!(partial_bounds(9, 3, 1, 15), (1, 9));
        assert_eq!(partial_bounds(9, 3, 3, 15), (15, 15));
    }

    #[test]
    fn implied_sets_of_orders_three_to_five() {
        assert!(implied_sets(3).unwrap().is_empty());
        assert_eq!(
            implied_sets(4).unwrap(),
            vec![
                vec![0, 3, 12, 15], // the corners
                vec![1, 2, 13, 14], // middle pairs of the top and bottom rows
                vec![4, 7, 8, 11],  // middle pairs of the left and right columns
                vec![5, 6, 9, 10],  // the centre
            ]
        );
        assert!(implied_sets(5).unwrap().is_empty());
        assert!(implied_sets(6).is_err());
    }

    #[test]
    fn option_names_round_trip() {
        for e in SumEncoding::ALL {
            assert_eq!(e.name().parse::<SumEncoding>(), Ok(e));
        }
        assert!("nope"
            .parse::<Symmetry>()
            .unwrap_err()
            .contains("none, order, lex-leader"));
    }
}
