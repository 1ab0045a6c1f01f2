//! The VeriPB proof that the goal-space model ([`super::goal_model`]) is
//! UNSAT: no goal needs more than B clicks. It mirrors the goal search of
//! [`super::goals`] (c | n − 1): per T, a depth-first walk over the free
//! cells (rows 0..n−2, columns 0..n−2, row-major); unit propagation of the
//! line clauses fixes each row's last cell and the last row.
//!
//! - **Symmetry.** Row swaps, column swaps and the transpose map the model
//!   onto itself. Under the lexicographic order of the goal's order
//!   literals (row-major), each adjacent row swap, adjacent column swap and
//!   the transpose σ gives `s ⪯ σ(s)` by `dom` with σ as the witness (the
//!   lex-leader constraints of Crawford, Ginsberg, Luks & Roy, KR 1996,
//!   derived as in Bogaerts, Gocht, McCreesh & Nordström, "Certified
//!   Dominance and Symmetry Breaking for Combinatorial Optimisation", JAIR
//!   77, 2023). The walk skips a cell value that breaks one of them with
//!   the cells known so far (its parent's `rup` names the constraint), and
//!   closes a prefix whose forced cells break one by `rup`: it visits the
//!   doubly-lexical goals no larger than their transpose, as the search.
//! - **Leaf** (every free cell set): the clause "not this goal" by reverse
//!   unit propagation from the bound constraint of one (R, C) with at most
//!   B clicks (the row/column minimum).
//! - **Cut** (k rows set, `open = n − k ≥ 2` rows open): the search's
//!   residue bound. Under one C, the set rows' R at their cheapest with
//!   partial sum st, the open rows' clicks are ≡ T − st (mod c) for every
//!   R of theirs with that sum, and some such R costs at most their
//!   average: so at most the largest such value not above it. A `rup`
//!   step F fixes the set cells and T under the prefix; a `pol` step adds
//!   F, `z > B` and the open rows' equations `Σ_j s_ij = T + c·q_i`; one
//!   `pol` step adds that to the bound constraint of each tuple of the
//!   open rows' R (each row taking each value equally often; every term
//!   left is a multiple of c), divides by c (rounding up to the residue),
//!   sums the tuples and takes the equations back (the open cells and
//!   quotients cancel); then the clause "not this prefix" by reverse unit
//!   propagation.
//! - **Inner node**: "not this prefix" by reverse unit propagation from its
//!   children (the cell at 0, 1, …, c−1, less the values the lex-leader
//!   constraints exclude).
//!
//! Every `rup` step names the constraints it propagates (VeriPB's hints),
//! and each node's children are deleted once it is derived. (Cutting
//! planes: Cook, Coullard & Turán 1987.)

use std::io::{self, Write};

use puzzlesat_encodings::dominance::{LexOrder, DOMINANCE_IDS};
use puzzlesat_encodings::perm::Perm;
use puzzlesat_encodings::proof::{self, Coef, Conclusion, Constraint, Op, Ref, Step, Value};
use rustsat::types::Lit;

use super::goal_model::{for_each_vector, goal_name, GoalModel, Id};
use super::goals::RecentFirst;
use crate::certify::veripb::ProofWriter;

/// What the proof holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoalProofSteps {
    /// lex-leader constraints derived by dominance
    pub dominance: u64,
    /// goals closed by one bound constraint
    pub leaves: u64,
    /// prefixes closed by the residue bound (a `rup`, two `pol` and a `rup` step each)
    pub cuts: u64,
    /// prefixes closed by a lex-leader constraint (a forced cell breaks it)
    pub pruned: u64,
    /// inner nodes (a `rup` step from their children each)
    pub nodes: u64,
    /// proof size
    pub bytes: u64,
}

/// Why no proof was written.
#[derive(Debug)]
pub enum GoalProofError {
    /// a goal needs more than the model's B: the claim is false
    Harder(Vec<usize>, u32),
    /// writing failed
    Io(io::Error),
    /// stopped by the caller (the run's time limit, Ctrl-C or SIGTERM)
    Stopped,
    /// the maximising model's proof needs a reachable goal (the hardest
    /// found), the decision model's none
    Witness(String),
}

impl std::fmt::Display for GoalProofError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoalProofError::Harder(goal, v) => {
                write!(
                    f,
                    "the goal {goal:?} needs {v} clicks, more than the claimed bound"
                )
            }
            GoalProofError::Stopped => f.write_str("stopped before the proof was written"),
            GoalProofError::Witness(why) => f.write_str(why),
            GoalProofError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for GoalProofError {
    fn from(e: io::Error) -> Self {
        GoalProofError::Io(e)
    }
}

/// Writes the proof of `gm`'s claim to `out`: for the decision model
/// ("more than B") that it is UNSAT; for the maximising model that
/// `witness` (a goal, row-major) is a hardest goal, by `soli` on it (z its
/// fewest clicks v, checked against every bound constraint) and the
/// refutation of "z > v" (`conclusion BOUNDS −v −v`, the objective written
/// as min: −z). Without `cuts` every goal is a leaf (the tests' check of
/// the leaves' steps).
pub fn write_proof<W: Write>(
    gm: &GoalModel,
    out: W,
    cuts: bool,
    stop: &dyn Fn() -> bool,
    witness: Option<&[usize]>,
) -> Result<GoalProofSteps, GoalProofError> {
    let mut walk = Walk::new(gm, out, cuts, stop, witness)?;
    walk.w.comment(&format!(
        "no goal of the {n}x{n} board with {c} colours needs more than {b} clicks: a walk over the goal cells per T",
        n = gm.n,
        c = gm.c,
        b = walk.bound
    ))?;
    let mut per_t = vec![];
    for t in 0..gm.c {
        walk.t = t;
        per_t.push(Ref::Id(walk.node(0)?));
    }
    per_t.push(Ref::Id(gm.t_some));
    let root = walk.w.step(&Step::Rup(
        Constraint {
            terms: vec![],
            degree: 1,
        },
        per_t,
    ))?;
    let mut steps = walk.steps;
    let conclusion = match gm.above {
        Some(_) => Conclusion::Unsat(Ref::Id(root)),
        None => Conclusion::Bounds(Some(-i64::from(walk.bound)), Ref::Id(root)),
    };
    steps.bytes = walk.w.finish(conclusion)?;
    Ok(steps)
}

/// Writes the proof of one cube: the clause "not (T = `t` and the first
/// free cells, row-major, = `prefix`)" derived by the walk below it and
/// checked (`e`), ending `conclusion NONE`.
pub fn write_cube_proof<W: Write>(
    gm: &GoalModel,
    out: W,
    t: usize,
    prefix: &[usize],
) -> Result<GoalProofSteps, GoalProofError> {
    let (n, c) = (gm.n, gm.c);
    let free = n - 1;
    if gm.above.is_none() {
        return Err(GoalProofError::Witness(
            "a cube's proof is over the decision model (--above B)".into(),
        ));
    }
    let mut walk = Walk::new(gm, out, true, &|| false, None)?;
    walk.t = t;
    for (q, &v) in prefix.iter().enumerate() {
        let cell = (q / free) * n + q % free;
        walk.s[cell] = v % c;
        walk.known[cell] = true;
        if cell / n + 2 == n {
            walk.force(cell + n);
        }
        // a complete row's last cell (the node forces the one it ends at)
        if (q + 1) % free == 0 && q + 1 < prefix.len() {
            walk.force(cell + 1);
        }
    }
    let id = walk.node(prefix.len())?;
    let clause = walk.not_prefix(prefix.len());
    walk.w.line(&Step::Equals(clause, Ref::Id(id)))?;
    let mut steps = walk.steps;
    steps.bytes = walk.w.finish(Conclusion::None)?;
    Ok(steps)
}

/// The symmetries the proof breaks, as permutations of the cells
/// (row-major) with their names: the adjacent row swaps, the adjacent
/// column swaps and the transpose (they generate every row and column
/// permutation and the transpose).
pub fn generators(n: usize) -> Vec<(String, Vec<usize>)> {
    let mut out = vec![];
    let swap = |p: usize, a: usize, b: usize, by_row: bool| {
        let (i, j) = (p / n, p % n);
        let (x, y) = if by_row { (i, j) } else { (j, i) };
        let x = if x == a {
            b
        } else if x == b {
            a
        } else {
            x
        };
        if by_row {
            x * n + y
        } else {
            y * n + x
        }
    };
    for a in 0..n - 1 {
        let perm = (0..n * n).map(|p| swap(p, a, a + 1, true)).collect();
        out.push((format!("swap rows {a} and {}", a + 1), perm));
    }
    for a in 0..n - 1 {
        let perm = (0..n * n).map(|p| swap(p, a, a + 1, false)).collect();
        out.push((format!("swap columns {a} and {}", a + 1), perm));
    }
    out.push((
        "transpose".to_string(),
        (0..n * n).map(|p| (p % n) * n + p / n).collect(),
    ));
    out
}

/// Where the cell permutation `perm` (row-major) takes each line (rows
/// 0..n, columns n..2n): the line holding its cells' images.
fn line_images(n: usize, perm: &[usize]) -> Vec<usize> {
    (0..2 * n)
        .map(|line| {
            let cells: Vec<usize> = (0..n)
                .map(|k| {
                    perm[if line < n {
                        line * n + k
                    } else {
                        k * n + line - n
                    }]
                })
                .collect();
            if cells.iter().all(|&p| p / n == cells[0] / n) {
                cells[0] / n
            } else {
                n + cells[0] % n
            }
        })
        .collect()
}

/// One lex-leader constraint `s ⪯ σ(s)` in the proof.
struct LexLeader {
    /// σ on the cells
    perm: Vec<usize>,
    /// its id
    id: Id,
}

struct Walk<'a, W: Write> {
    gm: &'a GoalModel,
    /// whether to stop (asked at every node)
    stop: &'a dyn Fn() -> bool,
    /// close prefixes by the residue bound
    cuts: bool,
    w: ProofWriter<W>,
    /// the lex-leader constraints
    lex: Vec<LexLeader>,
    /// the bound B: no goal needs more than B clicks
    bound: u32,
    /// "z ≥ B + 1": the decision model's, or the one `soli` adds
    floor: Id,
    /// the common sum T
    t: usize,
    /// the goal, row-major (the set cells and the forced ones)
    s: Vec<usize>,
    /// which cells of `s` are set or forced
    known: Vec<bool>,
    /// column vectors that closed recent leaves, and cuts per set rows
    recent_leaves: RecentFirst<Vec<usize>>,
    recent_cuts: Vec<RecentFirst<Vec<usize>>>,
    steps: GoalProofSteps,
}

impl<'a, W: Write> Walk<'a, W> {
    /// Starts the proof: the lex order over the goal's order literals
    /// (row-major, `s[i][j]_ge1` first), the witness by `soli` (the
    /// maximising model), and the lex-leader constraint of each generator
    /// by `dom`.
    fn new(
        gm: &'a GoalModel,
        out: W,
        cuts: bool,
        stop: &'a dyn Fn() -> bool,
        witness: Option<&[usize]>,
    ) -> Result<Self, GoalProofError> {
        let (n, c) = (gm.n, gm.c);
        let mut w = ProofWriter::new(out, gm.model.loaded())?;
        let per = c - 1;
        let bits = n * n * per;
        let vars: Vec<Lit> = (0..bits).map(|i| Lit::new(i as u32, false)).collect();
        let name = |l: Lit| {
            let (cell, v) = (l.vidx() / per, l.vidx() % per + 1);
            goal_name(cell / n, cell % n, v)
        };
        let order = LexOrder::new("goals", &vars);
        w.comment("the lexicographic order of the goal's order literals, row-major")?;
        for step in order.prelude(&name) {
            w.line(&step)?;
        }
        let (bound, floor) = match (gm.above, gm.floor, witness) {
            (Some(b), Some(floor), None) => (b, floor),
            (None, None, Some(goal)) => {
                let (bound, lits) = witness_assignment(gm, goal)?;
                w.comment(&format!(
                    "a goal that needs {bound} clicks; soli adds z > {bound}"
                ))?;
                (bound, w.step(&Step::Soli(lits))?)
            }
            _ => {
                return Err(GoalProofError::Witness(
                    "the maximising model's proof needs the hardest goal found, the decision model's none".into(),
                ))
            }
        };
        let mut lex = vec![];
        for (label, perm) in generators(n) {
            let images = (0..bits)
                .map(|i| (perm[i / per] * per + i % per) as u32)
                .collect();
            let sigma = Perm::from_images(images).expect("a permutation of the literals");
            // each line's quotient goes with the line
            let mut quotients = vec![];
            for (line, image) in line_images(n, &perm).into_iter().enumerate() {
                if image != line {
                    for (&a, &b) in gm.quotient[line].iter().zip(&gm.quotient[image]) {
                        quotients.push((
                            proof::Var(gm.model.name(a.var).to_string()),
                            Value::Lit(proof::Lit::new(gm.model.name(b.var), false)),
                        ));
                    }
                }
            }
            w.comment(&format!("the goal is no larger than its image ({label})"))?;
            let dom = order.dominance_also(&sigma, &name, "lex", quotients);
            let first = w.block(&[dom], DOMINANCE_IDS)?;
            lex.push(LexLeader {
                perm,
                id: first + DOMINANCE_IDS as Id - 1,
            });
        }
        let steps = GoalProofSteps {
            dominance: lex.len() as u64,
            ..GoalProofSteps::default()
        };
        Ok(Walk {
            gm,
            stop,
            cuts,
            w,
            lex,
            bound,
            floor,
            t: 0,
            s: vec![0; n * n],
            known: vec![false; n * n],
            recent_leaves: RecentFirst::default(),
            recent_cuts: (0..n).map(|_| RecentFirst::default()).collect(),
            steps,
        })
    }

    /// Whether the known cells break a lex-leader constraint: at its first
    /// moved cell (row-major) where the goal and its image are not both
    /// known and equal, both are known and the goal is the larger.
    fn breaks_lex(&self) -> bool {
        self.lex.iter().any(|l| {
            for (p, &q) in l.perm.iter().enumerate() {
                if q == p {
                    continue;
                }
                if !self.known[p] || !self.known[q] {
                    return false;
                }
                if self.s[p] != self.s[q] {
                    return self.s[p] > self.s[q];
                }
            }
            false
        })
    }

    /// The clause "not (T and the first `p` free cells)", derived.
    fn node(&mut self, p: usize) -> Result<Id, GoalProofError> {
        if (self.stop)() {
            return Err(GoalProofError::Stopped);
        }
        let n = self.gm.n;
        let free = n - 1;
        if p > 0 && p % free == 0 {
            let k = p / free;
            // row k − 1's last cell, forced by its sum (the last row's
            // last cell too, once row n − 2 is complete)
            let mut forced = vec![k * n - 1];
            if k == n - 1 {
                forced.push(n * n - 1);
            }
            for &cell in &forced {
                self.force(cell);
            }
            let id = if self.breaks_lex() {
                self.close_by_lex(p)
            } else if k == n - 1 {
                self.leaf()
            } else {
                match if self.cuts { self.cut(k)? } else { None } {
                    Some(id) => Ok(id),
                    None => self.branch(p),
                }
            };
            for &cell in &forced {
                self.known[cell] = false;
            }
            return id;
        }
        self.branch(p)
    }

    /// Fills in a forced cell: the last of its row (rows 0..n−2) or of its
    /// column (the last row), from the line's other cells and T.
    fn force(&mut self, cell: usize) {
        let (n, c) = (self.gm.n, self.gm.c);
        let (i, j) = (cell / n, cell % n);
        let sum: usize = if i + 1 == n {
            (0..n - 1).map(|r| self.s[r * n + j]).sum()
        } else {
            self.s[i * n..i * n + n - 1].iter().sum()
        };
        self.s[cell] = (self.t + c * n - sum % c) % c;
        self.known[cell] = true;
    }

    /// An inner node: the next free cell at each value the lex-leader
    /// constraints allow. A cell of row n − 2 completes its column, whose
    /// last cell is then forced too.
    fn branch(&mut self, p: usize) -> Result<Id, GoalProofError> {
        let (n, c) = (self.gm.n, self.gm.c);
        let free = n - 1;
        let cell = (p / free) * n + p % free;
        let completes = (cell / n + 2 == n).then_some(cell + n);
        let mut children = vec![];
        let mut skipped = false;
        self.known[cell] = true;
        for v in 0..c {
            self.s[cell] = v;
            if self.breaks_lex() {
                skipped = true;
                continue;
            }
            let child = match completes {
                Some(last) => {
                    self.force(last);
                    let id = if self.breaks_lex() {
                        self.close_by_lex(p + 1)
                    } else {
                        self.node(p + 1)
                    };
                    self.known[last] = false;
                    id
                }
                None => self.node(p + 1),
            };
            match child {
                Ok(id) => children.push(Ref::Id(id)),
                Err(e) => {
                    self.known[cell] = false;
                    return Err(e);
                }
            }
        }
        self.known[cell] = false;
        let mut hints = children.clone();
        if skipped {
            // the lex-leader constraints exclude the skipped values: they
            // propagate on the known cells' order literals
            self.known_hints(p, &mut hints);
            hints.extend(self.lex.iter().map(|l| Ref::Id(l.id)));
        }
        let id = self.w.step(&Step::Rup(self.not_prefix(p), hints))?;
        if !children.is_empty() {
            self.w.line(&Step::Del(children))?;
        }
        self.steps.nodes += 1;
        Ok(id)
    }

    /// A prefix of `p` free cells whose forced cells break a lex-leader
    /// constraint.
    fn close_by_lex(&mut self, p: usize) -> Result<Id, GoalProofError> {
        let mut hints = vec![];
        self.known_hints(p, &mut hints);
        hints.extend(self.lex.iter().map(|l| Ref::Id(l.id)));
        let id = self.w.step(&Step::Rup(self.not_prefix(p), hints))?;
        self.steps.pruned += 1;
        Ok(id)
    }

    /// The clause "not (T and the first `p` free cells)".
    fn not_prefix(&self, p: usize) -> Constraint {
        let (n, c) = (self.gm.n, self.gm.c);
        let free = n - 1;
        let mut lits = vec![self.lit(self.gm.t[self.t], true)];
        for q in 0..p {
            let cell = (q / free) * n + q % free;
            let v = self.s[cell];
            if v >= 1 {
                lits.push(self.lit(self.gm.ge[cell][v - 1], true));
            }
            if v + 1 < c {
                lits.push(self.lit(self.gm.ge[cell][v], false));
            }
        }
        Constraint::clause(lits)
    }

    fn lit(&self, l: puzzlesat_encodings::PbLit, negated: bool) -> proof::Lit {
        proof::Lit::new(self.gm.model.name(l.var), l.negated != negated)
    }

    /// The hints that fix every order literal of the known cells: for the
    /// first `p` free cells the order clauses that unit propagation needs
    /// past the prefix clause's (at most) two literals per cell, for each
    /// known forced cell its line's clauses.
    fn known_hints(&self, p: usize, hints: &mut Vec<Ref>) {
        let (n, c) = (self.gm.n, self.gm.c);
        let free = n - 1;
        for q in 0..p {
            let cell = (q / free) * n + q % free;
            let v = self.s[cell];
            // order clause x: `ge_(x+1) → ge_x`; value v sets ge_v and
            // ¬ge_(v+1) itself
            for x in 1..c - 1 {
                if x != v {
                    hints.push(Ref::Id(self.gm.order[cell][x - 1]));
                }
            }
        }
        for i in 0..n - 1 {
            if self.known[i * n + n - 1] {
                let row = self.s[i * n..(i + 1) * n].to_vec();
                self.line_hints(i, row, hints);
            }
        }
        for j in 0..n {
            if self.known[(n - 1) * n + j] {
                let col = (0..n).map(|i| self.s[i * n + j]).collect();
                self.line_hints(n + j, col, hints);
            }
        }
    }

    /// The line clauses that fix line `line`'s last cell from the others
    /// (`values`, the last entry overwritten).
    fn line_hints(&self, line: usize, mut values: Vec<usize>, hints: &mut Vec<Ref>) {
        let last = values.len() - 1;
        for b in 0..self.gm.c {
            values[last] = b;
            if let Some(id) = self.gm.line_clause(line, self.t, &values) {
                hints.push(Ref::Id(id));
            }
        }
    }

    /// A leaf: every cell set or forced, the goal no larger than its
    /// images.
    fn leaf(&mut self) -> Result<Id, GoalProofError> {
        let n = self.gm.n;
        let p = (n - 1) * (n - 1);
        let (c, t, above) = (self.gm.c, self.t, self.bound);
        let s = &self.s;
        let closes = |col: &[usize]| {
            let (v, r) = best_rows(s, n, c, t, col);
            (v <= above).then_some(r)
        };
        let Some((r, col)) = closing_vector(&mut self.recent_leaves, n, c, t, closes) else {
            let (value, _, _) = cheapest(&self.s, n, c, t);
            return Err(GoalProofError::Harder(self.s.clone(), value));
        };
        // "one T" turns the bound constraint's other values of T off; with
        // z > B it says the goal needs more than B clicks
        let mut hints = vec![Ref::Id(self.gm.t_one), Ref::Id(self.floor)];
        self.known_hints(p, &mut hints);
        hints.push(Ref::Id(self.gm.bound(self.t, &r, &col)));
        let id = self.w.step(&Step::Rup(self.not_prefix(p), hints))?;
        self.steps.leaves += 1;
        Ok(id)
    }

    /// The residue cut with rows `0..k` set (at least two open), if it
    /// closes the prefix: under one column vector C, the set rows at
    /// their cheapest R with partial sum st cost S, and the open rows'
    /// fewest clicks at ΣR ≡ ρ = T − st are at most the largest value
    /// ≡ ρ (mod c) not above their average: with `S + that ≤ B` no
    /// completion needs more than B clicks (the search's bound,
    /// [`super::goals`]).
    ///
    /// Derived in three steps. `F` ("the set rows and T are as the prefix
    /// says, or the prefix does not hold", by RUP) cancels the set cells
    /// and T from each bound constraint of (T, R, C), R the set rows' R
    /// and a tuple of the open rows' with ΣR ≡ ρ. With z's floor and the
    /// open rows' sums `Σ_j s_ij = T + c·q_i` added, every term left is a
    /// multiple of c: dividing by c rounds up to the residue ρ. The sum
    /// over the c^(open−1) tuples, with c^(open−2) times each open row's
    /// sum taken back, leaves T's literals alone, and the prefix clause
    /// follows by RUP.
    fn cut(&mut self, k: usize) -> Result<Option<Id>, GoalProofError> {
        let (n, c) = (self.gm.n, self.gm.c);
        let open = n - k;
        let (t, above, s) = (self.t, i64::from(self.bound), &self.s);
        let closes = |col: &[usize]| {
            let (bound, r) = residue_bound(s, n, c, t, k, col);
            (bound <= above).then_some(r)
        };
        let Some((mut r, col)) = closing_vector(&mut self.recent_cuts[k], n, c, t, closes) else {
            return Ok(None);
        };
        let p = k * (n - 1);
        let prefix = self.not_prefix(p);
        let fixed = self.fixing(k, &r, &col, prefix.terms.iter().map(|(_, l)| l.clone()));
        let mut hints = vec![Ref::Id(self.gm.t_one)];
        self.known_hints(p, &mut hints);
        let fixed = self.w.step(&Step::Rup(fixed, hints))?;
        // what every tuple adds: F, z's floor and the open rows' equations
        let mut shared = vec![
            Op::Ref(Ref::Id(fixed)),
            Op::Ref(Ref::Id(self.floor)),
            Op::Add,
        ];
        for i in k..n {
            shared.extend([Op::Ref(Ref::Id(self.gm.line_sum[i])), Op::Add]);
        }
        let shared = self.w.step(&Step::Pol(shared))?;
        let st: usize = r.iter().sum();
        let tuples = balanced_tuples(open, c, (self.t + c - st % c) % c);
        let mut ops = vec![];
        r.resize(n, 0);
        for (x, tuple) in tuples.iter().enumerate() {
            r[k..].copy_from_slice(tuple);
            ops.extend([
                Op::Ref(Ref::Id(self.gm.bound(self.t, &r, &col))),
                Op::Ref(Ref::Id(shared)),
                Op::Add,
                Op::Div(c as u64),
            ]);
            if x > 0 {
                ops.push(Op::Add);
            }
        }
        // each open row's R took each value tuples/c times
        let times = puzzlesat_encodings::proof::Big::from_u64((tuples.len() / c) as u64);
        for i in k..n {
            ops.extend([
                Op::Ref(Ref::Id(self.gm.line_sum[i] + 1)),
                Op::Mul(times.clone()),
                Op::Add,
            ]);
        }
        let derived = self.w.step(&Step::Pol(ops))?;
        let hints = vec![Ref::Id(self.gm.t_one), Ref::Id(derived)];
        let id = self.w.step(&Step::Rup(prefix, hints))?;
        self.w.line(&Step::Del(vec![
            Ref::Id(derived),
            Ref::Id(shared),
            Ref::Id(fixed),
        ]))?;
        self.steps.cuts += 1;
        Ok(Some(id))
    }

    /// The constraint `F`: `−G + M·(the prefix clause) ≥ −G₀`, where G is
    /// the part of the bound constraint of (T, R, C) on rows `0..k`, with
    /// the terms of T that the bound constraint and the open rows' sums
    /// give, and G₀ its value under the prefix; M is large enough that any
    /// literal of the prefix clause satisfies it.
    fn fixing(
        &self,
        k: usize,
        r: &[usize],
        col: &[usize],
        prefix: impl Iterator<Item = proof::Lit>,
    ) -> Constraint {
        let (n, c, gm) = (self.gm.n, self.gm.c, self.gm);
        let open = (n - k) as i64;
        let mut g = LinearForm::default();
        let mut value = 0i64;
        for (i, &ri) in r.iter().enumerate().take(k) {
            for (j, &cj) in col.iter().enumerate() {
                let u = (ri + cj) % c;
                let cell = i * n + j;
                for v in 1..c {
                    let coef = if v == u + 1 { c as i64 - 1 } else { -1 };
                    g.add(coef, gm.model.name(gm.ge[cell][v - 1].var));
                    if self.s[cell] >= v {
                        value += coef;
                    }
                }
            }
        }
        for (x, off) in gm.bound_t_coefficients(self.t).into_iter().enumerate() {
            let beta = off - open * x as i64;
            g.add(beta, gm.model.name(gm.t[x].var));
            if x == self.t {
                value += beta;
            }
        }
        let big = g.0.values().map(|a| a.abs()).sum::<i64>() + value.abs() + 1;
        let mut f = LinearForm::default();
        for (var, a) in &g.0 {
            f.add(-a, var);
        }
        let mut degree = -value;
        for l in prefix {
            // M·¬x = M − M·x
            if l.is_neg() {
                f.add(-big, &l.var().0);
                degree -= big;
            } else {
                f.add(big, &l.var().0);
            }
        }
        f.constraint(degree)
    }
}

/// A linear form over the model's variables (positive literals), its
/// coefficients merged per variable.
#[derive(Default)]
struct LinearForm(std::collections::BTreeMap<String, i64>);

impl LinearForm {
    fn add(&mut self, a: i64, var: &str) {
        *self.0.entry(var.to_string()).or_insert(0) += a;
    }

    /// `form ≥ degree`, the zero terms dropped.
    fn constraint(self, degree: i64) -> Constraint {
        Constraint {
            terms: self
                .0
                .into_iter()
                .filter(|&(_, a)| a != 0)
                .map(|(var, a)| {
                    (
                        Coef::Signed(
                            a > 0,
                            puzzlesat_encodings::proof::Big::from_u64(a.unsigned_abs()),
                        ),
                        proof::Lit::new(&var, false),
                    )
                })
                .collect(),
            degree,
        }
    }
}

/// Tuples of the `open` rows' R with sum ≡ `rho` (mod c) in which each
/// row takes each value equally often, so that an open cell's terms sum
/// to a multiple of the cell's value: `(x, ρ − x)` for two rows, else
/// `(x, y, …, y, ρ − x − (open−2)·y)` over every x and y (c² tuples
/// instead of all c^(open−1)).
fn balanced_tuples(open: usize, c: usize, rho: usize) -> Vec<Vec<usize>> {
    let last = |used: usize| (rho + c * c * open - used % c) % c;
    if open == 2 {
        return (0..c).map(|x| vec![x, last(x)]).collect();
    }
    let mut out = vec![];
    for x in 0..c {
        for y in 0..c {
            let mut tuple = vec![x];
            tuple.extend(std::iter::repeat_n(y, open - 2));
            tuple.push(last(x + (open - 2) * y));
            out.push(tuple);
        }
    }
    out
}

/// Under the column vector `col`, the residue bound of a goal with rows
/// `0..k` set (at least two open): the least, over the set rows' R with
/// partial sum st, of their clicks plus the open rows' cap at ΣR ≡ T − st
/// (the largest value ≡ T − st mod c at most their average
/// `⌊open·n(c−1)/2⌋`: their clicks are ≡ T − st, and some tuple costs at
/// most the average), and that R.
fn residue_bound(
    s: &[usize],
    n: usize,
    c: usize,
    t: usize,
    k: usize,
    col: &[usize],
) -> (i64, Vec<usize>) {
    let avg = ((n - k) * n * (c - 1) / 2) as i64;
    // per partial sum: the cheapest set rows and their R
    let mut best: Vec<Option<(u32, Vec<usize>)>> = vec![None; c];
    best[0] = Some((0, vec![]));
    for i in 0..k {
        let mut next: Vec<Option<(u32, Vec<usize>)>> = vec![None; c];
        for (st, b) in best.iter().enumerate() {
            let Some((v, r)) = b else { continue };
            for x in 0..c {
                let cost = v + row_cost(&s[i * n..(i + 1) * n], x, col, c);
                let e = &mut next[(st + x) % c];
                if e.as_ref().is_none_or(|(w, _)| cost < *w) {
                    let mut r = r.clone();
                    r.push(x);
                    *e = Some((cost, r));
                }
            }
        }
        best = next;
    }
    best.into_iter()
        .enumerate()
        .filter_map(|(st, b)| {
            let (v, r) = b?;
            let rho = ((t + c - st) % c) as i64;
            Some((i64::from(v) + avg - (avg - rho).rem_euclid(c as i64), r))
        })
        .min_by_key(|(b, _)| *b)
        .expect("c ≥ 2")
}

/// The maximising model's solution of the goal `goal` (row-major, entries
/// in 0..c): its order literals, T, and z its fewest clicks; Err if the
/// goal is not reachable.
fn witness_assignment(
    gm: &GoalModel,
    goal: &[usize],
) -> Result<(u32, Vec<proof::Lit>), GoalProofError> {
    let (n, c) = (gm.n, gm.c);
    let bad = |why: &str| {
        Err(GoalProofError::Witness(format!(
            "the witness goal {goal:?} {why}"
        )))
    };
    if goal.len() != n * n || goal.iter().any(|&x| x >= c) {
        return bad("is not an n×n board over 0..c");
    }
    let cells: Vec<u32> = goal.iter().map(|&x| x as u32).collect();
    if !super::goals::reachable(&cells, n, c as u32) {
        return bad("is not reachable");
    }
    let t = goal[..n].iter().sum::<usize>() % c;
    let (value, _, _) = cheapest(goal, n, c, t);
    let name = |l: puzzlesat_encodings::PbLit, on: bool| proof::Lit::new(gm.model.name(l.var), !on);
    let mut lits = vec![];
    for (cell, &x) in goal.iter().enumerate() {
        lits.extend(gm.ge[cell].iter().enumerate().map(|(v, &l)| name(l, x > v)));
    }
    lits.extend(gm.t.iter().enumerate().map(|(k, &l)| name(l, k == t)));
    lits.extend(
        gm.z.iter()
            .enumerate()
            .map(|(k, &l)| name(l, value >> k & 1 == 1)),
    );
    for (line, q) in gm.quotient.iter().enumerate() {
        let sum: usize = (0..n)
            .map(|k| {
                goal[if line < n {
                    line * n + k
                } else {
                    k * n + line - n
                }]
            })
            .sum();
        let quotient = (sum - t) / c;
        lits.extend(
            q.iter()
                .enumerate()
                .map(|(b, &l)| name(l, quotient >> b & 1 == 1)),
        );
    }
    Ok((value, lits))
}

/// `Σ_j (x + C_j − s_j) mod c`: the clicks of goal row `s` at row value x.
fn row_cost(s: &[usize], x: usize, col: &[usize], c: usize) -> u32 {
    s.iter()
        .zip(col)
        .map(|(&sv, &cv)| ((x + cv + c - sv) % c) as u32)
        .sum()
}

/// Under the column vector `col`, the fewest clicks of the goal `s` with
/// ΣR ≡ t (a dynamic programme over the rows by partial ΣR), and its R.
fn best_rows(s: &[usize], n: usize, c: usize, t: usize, col: &[usize]) -> (u32, Vec<usize>) {
    // dp[i][st]: the cheapest rows 0..i at partial sum st, and the row
    // value of row i − 1 there
    let mut dp = vec![vec![(u32::MAX, 0usize); c]; n + 1];
    dp[0][0] = (0, 0);
    for i in 0..n {
        for st in 0..c {
            let (d, _) = dp[i][st];
            if d == u32::MAX {
                continue;
            }
            for x in 0..c {
                let v = d + row_cost(&s[i * n..(i + 1) * n], x, col, c);
                let e = &mut dp[i + 1][(st + x) % c];
                if v < e.0 {
                    *e = (v, x);
                }
            }
        }
    }
    let mut r = vec![0; n];
    let mut st = t;
    for i in (0..n).rev() {
        r[i] = dp[i + 1][st].1;
        st = (st + c - r[i]) % c;
    }
    (dp[n][t].0, r)
}

/// The fewest clicks of the goal `s` with row and column sums ≡ t, and an
/// (R, C) reaching them (ΣR ≡ ΣC ≡ t).
pub fn cheapest(s: &[usize], n: usize, c: usize, t: usize) -> (u32, Vec<usize>, Vec<usize>) {
    let mut best: Option<(u32, Vec<usize>, Vec<usize>)> = None;
    for_each_vector(n, c, t, |col| {
        let (v, r) = best_rows(s, n, c, t, col);
        if best.as_ref().is_none_or(|b| v < b.0) {
            best = Some((v, r, col.to_vec()));
        }
    });
    best.expect("a column vector")
}

/// The first column vector with sum ≡ t for which `closes` gives a
/// witness: the recently used ones first, then every one (remembered).
fn closing_vector<X>(
    recent: &mut RecentFirst<Vec<usize>>,
    n: usize,
    c: usize,
    t: usize,
    mut closes: impl FnMut(&[usize]) -> Option<X>,
) -> Option<(X, Vec<usize>)> {
    let mut witness = None;
    // (a vector of another T's walk does not qualify)
    let hit = recent.find(|col| {
        col.iter().sum::<usize>() % c == t && {
            witness = closes(col);
            witness.is_some()
        }
    });
    if let (Some(col), Some(x)) = (hit, witness) {
        return Some((x, col.clone()));
    }
    let mut found = None;
    for_each_vector(n, c, t, |col| {
        if found.is_none() {
            if let Some(x) = closes(col) {
                found = Some((x, col.to_vec()));
            }
        }
    });
    if let Some((_, col)) = &found {
        recent.remember(col.clone());
    }
    found
}
