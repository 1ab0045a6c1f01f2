//! `--method board`: the whole board in CNF, after the basic and improved
//! models of Cambazard, O'Sullivan & Smith (Figs. 4 and 5), compiled as
//! passes:
//!
//! 1. **variables**: cells `x_ij ∈ 1..ub` in the order encoding (ub =
//!    the largest UBNVAL over cycle types, Property 4), the permutation
//!    matrix `p_ij` ("column i equals row j");
//! 2. **rules**: exactly one `p` per row and column, no fixed point (C5, C6);
//!    Rule 2 as `p_ij → x_ki = x_jk` for every k (C2; the converse is implied
//!    by Rule 1, see below); Rule 1 as "rows i, i' differ somewhere" (C1);
//!    Rule 3 as "value v+1 used → v occurs" (C3, C4);
//! 3. **symmetry breaking** (`--symmetry cycles`): the permutation restricted
//!    to canonical representatives of cycle types (C9–C11, the
//!    [`CycleMatrix`] of the partitions method);
//! 4. **redundant constraints** (`--redundant`): occurrence counters
//!    `c_v = #{cells ≥ v}` (exact totalizers, `int::sum_capped`) with
//!    - `occ3`: every used value occurs at least 3 times (Properties 1–2):
//!      `[c_{v+1} ≥ t] → [c_v ≥ t+3]`;
//!    - `ubnval` (needs `--symmetry cycles`): the number of values is at
//!      most UBNVAL of the permutation (Property 4);
//!    - `gcd` (refines `ubnval`): UBNVAL counts min(a, b) orbits shared by
//!      two cycles of lengths a, b; there are gcd(a, b), so a 2-cycle and an
//!      odd cycle share one, not two: values ≤ UBNVAL − n₂·n_odd;
//! 5. **dominance** (`--dominance counts`): only size-3 orbits (one per
//!    3-cycle) make a value occur fewer than 4 times; relabelling the values
//!    in the order of their occurrence counts keeps every rule and never
//!    lowers the total (rearrangement inequality), so some optimal board has
//!    non-decreasing counts, and in it every value above the number q of
//!    3-cycles occurs at least 4 times: `[c_{v+1} ≥ t] ∧ [q < v] → [c_v ≥ t+4]`;
//!    with `--symmetry cycles` also every value above s₆ = q + n₂² + n₅ at
//!    least 6 times (orbits of fewer than 6 cells: a 3-cycle's odd orbit, a
//!    2-cycle's diagonal orbit and the 2 shared by two 2-cycles, a 5-cycle's
//!    odd orbit; a value on two orbits has ≥ 6 cells);
//! 6. **objective**: total = Σ_v c_v = n² + Σ_{v ≥ 2} Σ_t [c_v ≥ t] over the
//!    counters' outputs (or over the cells' order literals when no counter
//!    is built), maximised by the core driver.
//!
//! Rule 2's converse ("column i = row j → p_ij") is not needed: in a board
//! with distinct rows the columns matched by the rows are distinct, so the
//! matching is the permutation itself, and a row equal to its own column
//! would repeat a column.

use puzzlesat_encodings::bool::{And, Or, Reify};
use puzzlesat_encodings::int::{lt, sum_capped, Directions, EqInt, IntVar};
use puzzlesat_encodings::provenance::Linear;
use puzzlesat_encodings::{amo, ClauseDatabase};
use rustsat::types::Lit;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

use super::model::max_ubnval;
use super::partitions::CycleMatrix;
use puzzlesat_encodings::solve::{Objective, Sense};

puzzlesat_encodings::option_enum! {
    /// `--symmetry`: which permutations the board CNF allows.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Symmetry("symmetry breaking") {
        /// every derangement
        None = "none",
        /// canonical representatives of cycle types (C9–C11)
        #[default]
        Cycles = "cycles",
    }
}

/// `--redundant`: which redundant constraints to add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Redundant {
    /// every used value occurs ≥ 3 times
    pub occ3: bool,
    /// number of values ≤ UBNVAL(π)
    pub ubnval: bool,
    /// number of values ≤ UBNVAL(π) − (#2-cycles)·(#odd cycles)
    pub gcd: bool,
    /// counter outputs above the occurrence staircase fixed false, and
    /// left out of the objective
    pub staircase: bool,
}

impl Redundant {
    /// Everything.
    pub const ALL: Redundant = Redundant {
        occ3: true,
        ubnval: true,
        gcd: true,
        staircase: true,
    };
}

impl fmt::Display for Redundant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut v = vec![];
        if self.occ3 {
            v.push("occ3");
        }
        if self.ubnval {
            v.push("ubnval");
        }
        if self.gcd {
            v.push("gcd");
        }
        if self.staircase {
            v.push("staircase");
        }
        if v.is_empty() {
            v.push("none");
        }
        f.write_str(&v.join(","))
    }
}

impl FromStr for Redundant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut r = Redundant::default();
        for part in s.split(',').map(str::trim) {
            match part {
                "none" => {}
                "occ3" => r.occ3 = true,
                "ubnval" => r.ubnval = true,
                "gcd" => r.gcd = true,
                "staircase" => r.staircase = true,
                "all" => r = Redundant::ALL,
                _ => return Err(format!("unknown redundant constraint '{part}' (expected a list of occ3, ubnval, gcd, staircase; or none, all)")),
            }
        }
        Ok(r)
    }
}

puzzlesat_encodings::option_enum! {
    /// `--dominance`: constraints that keep at least one optimal board.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Dominance("dominance constraint") {
        /// none
        None = "none",
        /// values ordered by occurrence count (every value above the number of
        /// 3-cycles occurs ≥ 4 times)
        #[default]
        Counts = "counts",
        /// `counts`, and (with `--symmetry cycles`) every value above the
        /// number of orbits of fewer than 12 cells occurs ≥ 12 times
        Orbits12 = "orbits12",
    }
}

impl Dominance {
    /// True if values are ordered by occurrence count.
    pub fn counts(self) -> bool {
        self != Dominance::None
    }
}

/// The options of the board CNF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BoardOptions {
    /// permutation symmetry breaking
    pub symmetry: Symmetry,
    /// redundant constraints
    pub redundant: Redundant,
    /// dominance constraints
    pub dominance: Dominance,
}

impl BoardOptions {
    /// The plain model (Fig. 4 of the paper): no symmetry breaking, no
    /// redundant or dominance constraints.
    pub const NAIVE: BoardOptions = BoardOptions {
        symmetry: Symmetry::None,
        redundant: Redundant {
            occ3: false,
            ubnval: false,
            gcd: false,
            staircase: false,
        },
        dominance: Dominance::None,
    };
    /// Everything on.
    pub const FULL: BoardOptions = BoardOptions {
        symmetry: Symmetry::Cycles,
        redundant: Redundant::ALL,
        dominance: Dominance::Orbits12,
    };
    /// Rejects combinations that need the canonical permutation.
    pub fn validate(&self) -> Result<(), String> {
        if self.redundant.gcd && !self.redundant.ubnval {
            return Err("--redundant gcd refines ubnval: use --redundant ubnval,gcd".into());
        }
        if self.redundant.staircase && !self.redundant.occ3 && !self.dominance.counts() {
            return Err(
                "--redundant staircase needs the steps of occ3 or --dominance counts".into(),
            );
        }
        if self.dominance == Dominance::Orbits12 && self.symmetry != Symmetry::Cycles {
            return Err("--dominance orbits12 needs --symmetry cycles (the orbits are read off the canonical cycle layout)".into());
        }
        if self.redundant.ubnval && self.symmetry != Symmetry::Cycles {
            return Err("--redundant ubnval needs --symmetry cycles (UBNVAL is read off the canonical cycle layout)".into());
        }
        Ok(())
    }
    /// True if occurrence counters are built.
    pub fn counters(&self) -> bool {
        self.redundant.occ3 || self.redundant.ubnval || self.dominance.counts()
    }
}

/// What decoding needs.
#[derive(Clone, Debug)]
pub struct BoardMap {
    /// side
    pub n: usize,
    /// cells, row-major
    pub x: Vec<IntVar>,
    /// `p[i][j]`: column i equals row j (None: fixed false)
    pub p: Vec<Vec<Option<Lit>>>,
    /// rule 1's literals, one per pair of rows and column
    pub differ: Vec<Differ>,
    /// the canonical matrix of `--symmetry cycles` (its literals are `p`'s)
    pub cycles: Option<CycleMatrix>,
    /// the occurrence counters, when built
    pub counters: Option<Counters>,
}

/// Rule 1 in one column for two rows: `d → below ∨ above`, `below →
/// x_a < x_b`, `above → x_b < x_a`.
#[derive(Clone, Copy, Debug)]
pub struct Differ {
    /// the two cells (row-major), the upper row's first
    pub cells: (usize, usize),
    /// "the rows differ in this column" (the model's `d`)
    pub d: Lit,
    /// `[x_a < x_b]` (auxiliary)
    pub below: Lit,
    /// `[x_b < x_a]` (auxiliary)
    pub above: Lit,
}

/// `x_b − x_a ≥ 1` over the order literals, the meaning of "a is below b".
pub(super) fn below_meaning(a: &IntVar, b: &IntVar) -> Linear {
    let ts = || a.lb() + 1..=a.ub();
    Linear::at_least(
        ts().map(|t| (1, b.ge(t)))
            .chain(ts().map(|t| (-1, a.ge(t)))),
        1,
    )
}

/// The occurrence counters `c_v = #{cells ≥ v}` and the "value used"
/// literals, as a proof of the occurrence clauses needs them.
#[derive(Clone, Debug)]
pub struct Counters {
    /// `used[v]`: some cell is at least v (v = 1..ub; `used[0]` a
    /// placeholder)
    pub used: Vec<Lit>,
    /// `ge[v][t−1]` = `[c_v ≥ t]`, v = 2..ub, t = 1..n² (`ge[0]`, `ge[1]`
    /// empty: c_1 = n² is no counter)
    pub ge: Vec<Vec<Lit>>,
    /// `cap[v]`: the counter outputs `[c_v ≥ t]` with t > `cap[v]` are
    /// fixed false and left out of the objective (`--redundant
    /// staircase`; n² for every v without it)
    pub cap: Vec<usize>,
    /// the literals of `--redundant ubnval` (and gcd), when posted
    pub ubnval: Option<UbnvalLits>,
    /// `--dominance`: per threshold T (4, 6, 12), the order literals of
    /// the count S of orbits of fewer than T cells (`[S ≥ v]`; the
    /// 3-cycles for T = 4): a value above S occurs at least T times
    pub dominance: Vec<(usize, Vec<Lit>)>,
    /// the dominance clauses as posted: (T, v, clause)
    pub dominance_clauses: Vec<(usize, usize, Vec<Lit>)>,
}

impl Counters {
    /// `[c_v ≥ t]`, t ≥ 1 (None for t = 0, value 1, or past the outputs).
    pub fn output(&self, v: usize, t: usize) -> Option<Lit> {
        self.ge
            .get(v)
            .and_then(|o| o.get(t.checked_sub(1)?))
            .copied()
    }
}

/// The unary numbers the `ubnval` and `gcd` clauses speak of, each as its
/// order literals `[· ≥ 1], [· ≥ 2], …`.
#[derive(Clone, Debug)]
pub struct UbnvalLits {
    /// UBNVAL(π), capped at ub (one-sided: only `[· ≥ k] →` clauses)
    pub ubnval: Vec<Lit>,
    /// n₂ = the number of 2-cycles, capped at ⌊n/2⌋ (empty without gcd)
    pub n2: Vec<Lit>,
    /// n_odd = the number of odd cycles, capped at ⌊n/3⌋ (empty without gcd)
    pub nodd: Vec<Lit>,
}

/// The staircase the occurrence clauses imply: `c_v ≤ n² − Σ_{k<v} step_k`,
/// where value k's clause `[c_{k+1} ≥ t] → [c_k ≥ t + step_k]` has step 3
/// with `occ3` and 4 with `--dominance counts` once k exceeds the largest
/// number of 3-cycles, ⌊n/3⌋ (the chain ends at `c_1 = n²`). The counter
/// outputs above it are false in every model, so the objective (a totalizer
/// over them, built by the optimiser) leaves them out: at n = 10 it keeps
/// about half of the (ub − 1)·n² outputs.
pub(super) fn staircase(n: usize, v: usize, opts: BoardOptions) -> usize {
    let step = |k: usize| {
        let occ = if opts.redundant.occ3 { 3 } else { 0 };
        let dom = if opts.dominance.counts() && k > n / 3 {
            4
        } else {
            0
        };
        occ.max(dom)
    };
    (1..v).fold(n * n, |cap, k| cap.saturating_sub(step(k)))
}

/// Orbits of fewer than `k` cells inside one cycle of length a: ⌊a/2⌋ of
/// 2a cells and, if a is odd, one of a cells.
fn own_small_orbits(a: usize, k: usize) -> usize {
    (if 2 * a < k { a / 2 } else { 0 }) + usize::from(a % 2 == 1 && a < k)
}

/// Orbits of fewer than `k` cells shared by two cycles of lengths a, b:
/// gcd(a, b) of 2·lcm(a, b) cells.
fn shared_small_orbits(a: usize, b: usize, k: usize) -> usize {
    let (mut g, mut r) = (a, b);
    while r != 0 {
        (g, r) = (r, g % r);
    }
    if 2 * (a * b / g) < k {
        g
    } else {
        0
    }
}

/// Unary leaves counting the orbits of fewer than `k` cells of the
/// canonical permutation ([`own_small_orbits`], [`shared_small_orbits`];
/// tested against the orbits of every partition of n ≤ 12). Cycle `[s..i]`
/// is `close[i][s]`; a pair of cycles is the conjunction of their literals.
fn small_orbit_leaves<DB: ClauseDatabase>(db: &mut DB, m: &CycleMatrix, k: usize) -> Vec<Vec<Lit>> {
    let n = m.n;
    // every possible cycle: (start, end, literal)
    let cycles: Vec<(usize, usize, Lit)> = (0..n)
        .flat_map(|i| (0..i).map(move |s| (s, i)))
        .map(|(s, i)| (s, i, m.close[i][s]))
        .collect();
    let mut leaves = vec![];
    for &(s, i, l) in &cycles {
        let a = i - s + 1;
        let own = own_small_orbits(a, k);
        if own > 0 {
            leaves.push(vec![l; own]);
        }
        for &(s2, i2, l2) in cycles.iter().filter(|&&(s2, _, _)| s2 > i) {
            let shared = shared_small_orbits(a, i2 - s2 + 1, k);
            if shared > 0 {
                let both = db.fresh();
                // for a VeriPB proof: both cycles are on the board
                puzzlesat_encodings::provenance::define(db, both, || {
                    Linear::count_at_least(&[l, l2], 2)
                });
                And(vec![l, l2]).reify(db, both);
                leaves.push(vec![both; shared]);
            }
        }
    }
    leaves
}

/// The encoded board: map, objective, and the literals a solution is told
/// apart by (the cells' order literals).
pub struct BoardCnf {
    /// variable map
    pub map: BoardMap,
    /// total, to maximise
    pub objective: Objective,
    /// cells' order literals
    pub primary: Vec<Lit>,
    /// names for `--map`
    pub names: Vec<(String, Lit)>,
}

/// The order literals `[Σ ≥ 1], …` of `min(Σ, cap)` over unary numbers
/// given by their order literals (the core's capped totalizer,
/// `int::sum_capped`, with the requested directions).
pub fn unary_sum<DB: ClauseDatabase>(
    db: &mut DB,
    leaves: &[Vec<Lit>],
    cap: usize,
    dirs: Directions,
) -> Vec<Lit> {
    let xs: Vec<IntVar> = leaves
        .iter()
        .map(|l| IntVar::from_order_lits(db, 0, l.clone()))
        .collect();
    let refs: Vec<&IntVar> = xs.iter().collect();
    sum_capped(db, &refs, cap as i64, dirs)
        .order_lits()
        .to_vec()
}

/// Builds the board CNF of side n.
pub fn encode_board<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    opts: BoardOptions,
) -> Result<BoardCnf, String> {
    opts.validate()?;
    let ub = max_ubnval(n).max(1) as i64;
    // 1. variables
    let mut x: Vec<IntVar> = (0..n * n)
        .map(|_| IntVar::new(db, 1, ub).expect("ub ≥ 1"))
        .collect();
    let cycles = match opts.symmetry {
        Symmetry::Cycles => Some(CycleMatrix::encode(db, n)),
        Symmetry::None => None,
    };
    let p = permutation_matrix(db, n, cycles.as_ref());
    post_rule2(db, n, &x, &p);
    // the names of the rules' literals in the PB model (super::opb), so
    // that a VeriPB proof reads the CNF's rules as the model's
    let mut names = vec![];
    let differ = post_rule1(db, n, &x, &mut names);
    let used = post_rule3(db, n, ub, &mut x, &mut names);
    let cells = n * n;
    let (counters, objective_terms) = if opts.counters() {
        let size = Size { n, ub, opts };
        let (counters, terms) = post_counters(db, size, &x, &used, cycles.as_ref());
        (Some(counters), terms)
    } else {
        let terms = x
            .iter()
            .flat_map(|xc| xc.order_lits().iter().map(|&l| (l, 1u64)))
            .collect();
        (None, terms)
    };
    let objective = Objective {
        sense: Sense::Maximize,
        terms: objective_terms,
        offset: cells as i64,
    };
    let primary: Vec<Lit> = x.iter().flat_map(|c| c.order_lits().to_vec()).collect();
    for i in 0..n {
        for j in 0..n {
            for (t, &l) in x[i * n + j].order_lits().iter().enumerate() {
                names.push((super::opb::ge_name(i, j, t + 2), l));
            }
        }
    }
    for (i, row) in p.iter().enumerate() {
        for (j, l) in row.iter().enumerate() {
            if let Some(l) = l {
                names.push((super::opb::p_name(i, j), *l));
            }
        }
    }
    Ok(BoardCnf {
        map: BoardMap {
            n,
            x,
            p,
            differ,
            cycles,
            counters,
        },
        objective,
        primary,
        names,
    })
}

/// The board's side, the largest value and the options: what the
/// counters' phases of [`encode_board`] share.
#[derive(Clone, Copy)]
struct Size {
    n: usize,
    ub: i64,
    opts: BoardOptions,
}

impl Size {
    /// n²
    fn cells(self) -> usize {
        self.n * self.n
    }

    /// The cap of the counter c_v: the staircase's, else n².
    fn cap(self, v: usize) -> usize {
        if self.opts.redundant.staircase {
            staircase(self.n, v, self.opts)
        } else {
            self.cells()
        }
    }
}

/// 2./3. The permutation matrix p_ij: with the symmetry breaking, the
/// canonical matrix of `cycles` (already constrained); else fresh literals
/// with exactly one per row and column and no fixed point.
fn permutation_matrix<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    cycles: Option<&CycleMatrix>,
) -> Vec<Vec<Option<Lit>>> {
    match cycles {
        // 3. symmetry breaking: the canonical matrix (already constrained)
        Some(m) => (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if j == i + 1 {
                            Some(m.next[i])
                        } else if j < i {
                            Some(m.close[i][j])
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect(),
        None => {
            let p: Vec<Vec<Option<Lit>>> = (0..n)
                .map(|i| (0..n).map(|j| (i != j).then(|| db.fresh())).collect())
                .collect();
            // 2. exactly one per row and column, no fixed point
            for (i, row) in p.iter().enumerate() {
                let row: Vec<Lit> = row.iter().flatten().copied().collect();
                let _ = amo::exactly_one(db, &row, amo::AmoEncoding::Ladder);
                let col: Vec<Lit> = (0..n).filter_map(|k| p[k][i]).collect();
                let _ = amo::exactly_one(db, &col, amo::AmoEncoding::Ladder);
            }
            p
        }
    }
}

/// 2. Rule 2: p_ij → column i = row j, cell by cell: x[k][i] = x[j][k].
fn post_rule2<DB: ClauseDatabase>(db: &mut DB, n: usize, x: &[IntVar], p: &[Vec<Option<Lit>>]) {
    let cell = |i: usize, j: usize| i * n + j;
    for (i, row) in p.iter().enumerate() {
        for (j, &l) in row.iter().enumerate() {
            if let Some(l) = l {
                for k in 0..n {
                    let (a, b) = (cell(k, i), cell(j, k));
                    if a != b {
                        EqInt(&x[a], &x[b]).implied_by(db, l);
                    }
                }
            }
        }
    }
}

/// Rule 1: rows i < i' differ in some column k: d[i][i'][k] → row i is
/// below row i' there (lt[i][i'][k]) or above it (lt[i'][i][k]); the two
/// "below" literals are auxiliary (the model states rule 1 over "cell
/// holds v"): defined `[x_b − x_a ≥ 1]` for a VeriPB proof. The d's are
/// named.
fn post_rule1<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    x: &[IntVar],
    names: &mut Vec<(String, Lit)>,
) -> Vec<Differ> {
    let cell = |i: usize, j: usize| i * n + j;
    let mut differ = vec![];
    for i in 0..n {
        for i2 in i + 1..n {
            let mut some = vec![];
            for k in 0..n {
                let (a, b) = (cell(i, k), cell(i2, k));
                let d = db.fresh();
                let below = db.fresh();
                puzzlesat_encodings::provenance::define(db, below, || below_meaning(&x[a], &x[b]));
                let above = db.fresh();
                puzzlesat_encodings::provenance::define(db, above, || below_meaning(&x[b], &x[a]));
                db.add(&[!d, below, above]); // d → x[i][k] ≠ x[i'][k]
                lt(&x[a], &x[b]).implied_by(db, below);
                lt(&x[b], &x[a]).implied_by(db, above);
                names.push((super::opb::differ_name(i, i2, k), d));
                differ.push(Differ {
                    cells: (a, b),
                    d,
                    below,
                    above,
                });
                some.push(d);
            }
            db.add(&some);
        }
    }
    differ
}

/// Rule 3: value v+1 on the board → value v on the board. Returns
/// `used[v] ↔ some cell ≥ v` (v = 1..ub; used[0] is a placeholder), named
/// as the model's, and names the cells' "holds v" literals.
fn post_rule3<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    ub: i64,
    x: &mut [IntVar],
    names: &mut Vec<(String, Lit)>,
) -> Vec<Lit> {
    let mut used: Vec<Lit> = vec![db.true_lit()];
    for v in 1..=ub {
        let u = db.fresh();
        let mut back = vec![!u];
        for c in x.iter() {
            db.add(&[!c.ge(v), u]); // [x ≥ v] → used_v
            back.push(c.ge(v));
        }
        db.add(&back); // used_v → some [x ≥ v]
        names.push((super::opb::used_name(v as usize), u));
        used.push(u);
    }
    for v in 2..=ub {
        let mut some = vec![!used[v as usize]];
        for (c, xc) in x.iter_mut().enumerate() {
            let holds = xc.eq(db, v - 1);
            // the model's "cell holds v − 1" where it is a fresh literal
            // (below ub, above 1: the ends are order literals)
            if v - 1 > 1 && v - 1 < ub {
                names.push((super::opb::holds_name(c / n, c % n, v as usize - 1), holds));
            }
            some.push(holds);
        }
        db.add(&some);
    }
    used
}

/// 4./5. The counters c_v = #{cells ≥ v} (v = 2..ub, c_1 = n²) with the
/// dominance's and the redundant constraints over them; 6. the objective's
/// terms: the counters' outputs, up to the staircase.
fn post_counters<DB: ClauseDatabase>(
    db: &mut DB,
    size: Size,
    x: &[IntVar],
    used: &[Lit],
    cycles: Option<&CycleMatrix>,
) -> (Counters, Vec<(Lit, u64)>) {
    let (cells, ub) = (size.cells(), size.ub);
    let t_lit = db.true_lit();
    let mut c: Vec<Vec<Lit>> = vec![vec![], vec![t_lit; cells]]; // c[v][t-1] = [c_v ≥ t]
    for v in 2..=ub {
        let leaves: Vec<Vec<Lit>> = x.iter().map(|xc| vec![xc.ge(v)]).collect();
        let out = unary_sum(db, &leaves, cells, Directions::BOTH);
        db.add(&[!used[v as usize], out[0]]); // used_v ↔ c_v ≥ 1
        db.add(&[used[v as usize], !out[0]]);
        c.push(out);
    }
    let mut counters = Counters {
        used: used.to_vec(),
        ge: c
            .iter()
            .enumerate()
            .map(|(v, o)| if v < 2 { vec![] } else { o.clone() })
            .collect(),
        cap: (0..=ub as usize).map(|v| size.cap(v)).collect(),
        ubnval: None,
        dominance: vec![],
        dominance_clauses: vec![],
    };
    let thresholds = dominance_sums(db, size, cycles);
    counters.dominance_clauses = post_occurrences(db, size, t_lit, used, &c, &thresholds);
    counters.dominance = thresholds
        .into_iter()
        .filter_map(|(t, s)| Some((t, s?)))
        .collect();
    if size.opts.redundant.ubnval {
        let m = cycles.expect("validated");
        counters.ubnval = Some(post_ubnval(db, size, m, used));
    }
    // 6. objective: the counters' outputs, up to the staircase
    let mut objective_terms = vec![];
    for (v, out) in c.iter().enumerate().skip(2) {
        let cap = size.cap(v);
        for (t, &l) in out.iter().enumerate() {
            if t < cap {
                objective_terms.push((l, 1u64));
            } else {
                db.add(&[!l]); // [c_v ≥ t+1], t+1 > cap_v: implied false
            }
        }
    }
    (counters, objective_terms)
}

/// The dominance's thresholds (with `--dominance` counting): a value above
/// `[S ≥ ·]` occurs at least T times, as (T, S): T = 4 with S the number of
/// 3-cycles (None: without them counted, S = ⌊n/3⌋), 6 with `s6` and 12
/// with `s12` (below).
fn dominance_sums<DB: ClauseDatabase>(
    db: &mut DB,
    size: Size,
    cycles: Option<&CycleMatrix>,
) -> Vec<(usize, Option<Vec<Lit>>)> {
    let (n, ub, opts) = (size.n, size.ub, size.opts);
    // q = number of 3-cycles (exact unary count), for dominance
    let q: Option<Vec<Lit>> = match (cycles, opts.dominance) {
        (Some(m), d) if d.counts() => {
            let threes: Vec<Vec<Lit>> = (2..n).map(|i| vec![m.close[i][i - 2]]).collect();
            Some(unary_sum(db, &threes, n / 3, Directions::BOTH))
        }
        _ => None,
    };
    // s6 = q + n₂² + n₅ bounds the number of values occurring fewer than
    // 6 times (single orbits of size 3, 4 or 5: a 3-cycle's odd orbit, a
    // 2-cycle's diagonal orbit or one of the 2 shared by two 2-cycles,
    // a 5-cycle's odd orbit; anything else has ≥ 6 cells)
    let s6: Option<Vec<Lit>> = match (cycles, &q) {
        (Some(m), Some(q)) => {
            let twos: Vec<Vec<Lit>> = (1..n).map(|i| vec![m.close[i][i - 1]]).collect();
            let n2 = unary_sum(db, &twos, n / 2, Directions::BOTH);
            // n₂² in unary: [n₂² ≥ k] = [n₂ ≥ ⌈√k⌉]
            let sq: Vec<Lit> = (1..=n2.len() * n2.len())
                .map(|k| n2[(1..).find(|a| a * a >= k).expect("k ≤ len²") - 1])
                .collect();
            let fives: Vec<Vec<Lit>> = (4..n).map(|i| vec![m.close[i][i - 4]]).collect();
            let n5 = unary_sum(db, &fives, n / 5, Directions::BOTH);
            Some(unary_sum(
                db,
                &[q.clone(), sq, n5],
                ub as usize,
                Directions::BOTH,
            ))
        }
        _ => None,
    };
    // s12 = the number of orbits of fewer than 12 cells (a value
    // occurring fewer than 12 times sits on at least one of them)
    let s12: Option<Vec<Lit>> = match (cycles, opts.dominance) {
        (Some(m), Dominance::Orbits12) => {
            let leaves = small_orbit_leaves(db, m, 12);
            Some(unary_sum(db, &leaves, ub as usize, Directions::BOTH))
        }
        _ => None,
    };
    let mut thresholds: Vec<(usize, Option<Vec<Lit>>)> = vec![];
    if opts.dominance.counts() {
        thresholds.push((4, q));
        if let Some(s6) = s6 {
            thresholds.push((6, Some(s6)));
        }
        if let Some(s12) = s12 {
            thresholds.push((12, Some(s12)));
        }
    }
    thresholds
}

/// The occurrence clauses over the counters `c` (`t_lit` true): with
/// occ3, each value used occurs at least 3 times; for each threshold
/// (T, S), a value above S occurs at least T times. Returns the
/// thresholds' clauses kept for the dominance proof, as (T, v, clause).
fn post_occurrences<DB: ClauseDatabase>(
    db: &mut DB,
    size: Size,
    t_lit: Lit,
    used: &[Lit],
    c: &[Vec<Lit>],
    thresholds: &[(usize, Option<Vec<Lit>>)],
) -> Vec<(usize, usize, Vec<Lit>)> {
    let (n, opts) = (size.n, size.opts);
    // [c_v ≥ t]: true for t = 0, None (false) past the cells
    let ge = |v: usize, t: usize| -> Option<Lit> {
        if t == 0 {
            Some(t_lit)
        } else {
            c.get(v).and_then(|o| o.get(t - 1)).copied()
        }
    };
    let mut posted = vec![];
    for (v, &used_v) in used.iter().enumerate().skip(1) {
        for t in 0..=size.cells() {
            // premise: [c_{v+1} ≥ t], or for t = 0 "v is used"
            let premise = if t == 0 { Some(used_v) } else { ge(v + 1, t) };
            let Some(premise) = premise else { break };
            if opts.redundant.occ3 {
                // occurrence of v ≥ 3: [c_{v+1} ≥ t] → [c_v ≥ t+3]
                let mut cl = vec![!premise];
                cl.extend(ge(v, t + 3));
                db.add(&cl);
            }
            // v above S → occurrence ≥ T: [S ≥ v] ∨ ¬premise ∨ [c_v ≥ t+T]
            // (without 3-cycles counted, S = ⌊n/3⌋: v above it)
            for (threshold, s) in thresholds {
                let cond: Option<Vec<Lit>> = match s {
                    Some(s) => Some(s.get(v - 1).copied().into_iter().collect()),
                    None => (v > n / 3).then(Vec::new),
                };
                if let Some(mut cl) = cond {
                    cl.push(!premise);
                    cl.extend(ge(v, t + threshold));
                    db.add(&cl);
                    if !cl.contains(&t_lit) {
                        posted.push((*threshold, v, cl)); // (else not kept)
                    }
                }
            }
        }
    }
    posted
}

/// ubnval: UBNVAL, the number of orbits the cycles of `m` make, bounds the
/// values used (used_{K+1} → UBNVAL ≥ K+1); with gcd, tightened by the
/// 2-cycles and odd cycles' shared orbits ([`post_gcd`]).
fn post_ubnval<DB: ClauseDatabase>(
    db: &mut DB,
    size: Size,
    m: &CycleMatrix,
    used: &[Lit],
) -> UbnvalLits {
    let ub = size.ub;
    let leaves = m.ubnval_leaves(db);
    // [d_i ≥ t+1] → [d_i ≥ t]: implied by the leaves' clauses, but
    // a VeriPB proof needs them as clauses to derive the
    // totalizer's by RUP (each follows from the two definitions)
    for d in &leaves {
        if let Some(p) = db.provenance() {
            p.int_var(0, d); // its order clauses, for the proof's ladders
        }
        for w in d.windows(2) {
            db.add(&[!w[1], w[0]]);
        }
    }
    let u = unary_sum(db, &leaves, ub as usize, Directions::DOWN);
    // used_{K+1} → UBNVAL ≥ K+1
    for k in 1..ub as usize {
        match u.get(k) {
            Some(&l) => db.add(&[!used[k + 1], l]),
            None => db.add(&[!used[k + 1]]),
        }
    }
    let (n2, nodd) = match size.opts.redundant.gcd {
        true => post_gcd(db, size, m, used, &u),
        false => (vec![], vec![]),
    };
    UbnvalLits {
        ubnval: u,
        n2,
        nodd,
    }
}

/// gcd: UBNVAL (`u`) counts min(a, b) orbits shared by cycles a, b; there
/// are gcd(a, b): a 2-cycle and an odd cycle share 1, not 2, so values ≤
/// UBNVAL − n₂·n_odd: used_{K+1} ∧ [n₂ ≥ a] ∧ [n_odd ≥ b] → UBNVAL ≥
/// K+1+a·b. Returns n₂'s and n_odd's order literals.
fn post_gcd<DB: ClauseDatabase>(
    db: &mut DB,
    size: Size,
    m: &CycleMatrix,
    used: &[Lit],
    u: &[Lit],
) -> (Vec<Lit>, Vec<Lit>) {
    let (n, ub) = (size.n, size.ub);
    let twos: Vec<Vec<Lit>> = (1..n).map(|i| vec![m.close[i][i - 1]]).collect();
    let odds: Vec<Vec<Lit>> = (0..n)
        .map(|i| {
            (0..i)
                .filter(|s| (i - s) % 2 == 0)
                .map(|s| m.close[i][s])
                .collect::<Vec<_>>()
        })
        .filter(|l| !l.is_empty())
        .map(|l| {
            vec![if l.len() == 1 {
                l[0]
            } else {
                let y = db.fresh();
                // for a VeriPB proof: y ⇔ one of the odd cycles ending here
                puzzlesat_encodings::provenance::define(db, y, || {
                    puzzlesat_encodings::provenance::Linear::count_at_least(&l, 1)
                });
                Or(l).reify(db, y);
                y
            }]
        })
        .collect();
    let n2 = unary_sum(db, &twos, n / 2, Directions::BOTH);
    let nodd = unary_sum(db, &odds, n / 3, Directions::BOTH);
    for k in 1..ub as usize {
        for (a, &ta) in n2.iter().enumerate() {
            for (b, &tb) in nodd.iter().enumerate() {
                let mut cl = vec![!used[k + 1], !ta, !tb];
                cl.extend(u.get(k + (a + 1) * (b + 1)).copied());
                db.add(&cl);
            }
        }
    }
    (n2, nodd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::enigma::model::score_bound;

    #[test]
    fn small_orbit_counts_match_the_orbits_of_every_partition() {
        use crate::puzzles::enigma::model::{cell_orbits, partitions_without_ones, Derangement};
        for n in 2..=12 {
            for parts in partitions_without_ones(n) {
                let orbits = cell_orbits(&Derangement::canonical(&parts));
                for k in [6, 8, 12] {
                    let want = orbits.iter().filter(|o| o.len() < k).count();
                    let mut got: usize = parts.iter().map(|&a| own_small_orbits(a, k)).sum();
                    for (x, &a) in parts.iter().enumerate() {
                        for &b in &parts[x + 1..] {
                            got += shared_small_orbits(a, b, k);
                        }
                    }
                    assert_eq!(got, want, "{parts:?} k={k}");
                }
            }
        }
    }

    #[test]
    fn orbits12_and_staircase_need_their_premises() {
        let no_cycles = BoardOptions {
            symmetry: Symmetry::None,
            redundant: Redundant::default(),
            dominance: Dominance::Orbits12,
        };
        assert!(no_cycles.validate().unwrap_err().contains("orbits12"));
        let no_steps = BoardOptions {
            redundant: Redundant {
                staircase: true,
                ..Redundant::default()
            },
            dominance: Dominance::None,
            ..BoardOptions::FULL
        };
        assert!(no_steps.validate().unwrap_err().contains("staircase"));
        assert_eq!(BoardOptions::FULL.validate(), Ok(()));
    }

    #[test]
    fn staircase_is_the_score_bound_per_value() {
        // with occ3 and dominance, the caps c_1..c_v sum to the orbit bound
        // of the partitions method (model::score_bound)
        for n in 3..=12 {
            for v in 1..=max_ubnval(n) {
                let caps: usize = (1..=v).map(|k| staircase(n, k, BoardOptions::FULL)).sum();
                assert_eq!(caps as u64, score_bound(n, v), "n={n} v={v}");
            }
        }
        // occ3 alone: steps of 3
        let occ3 = BoardOptions {
            dominance: Dominance::None,
            ..BoardOptions::FULL
        };
        assert_eq!(staircase(10, 5, occ3), 100 - 12);
        assert_eq!(staircase(10, 5, BoardOptions::FULL), 100 - 9 - 4);
    }
}
