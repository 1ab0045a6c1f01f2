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
//! - **Cut** (k rows set, `open = n − k ≥ 2` rows open): one `pol` step,
//!   the sum of the c^(open−1) bound constraints of (T, R, C) with C and
//!   the set rows' R at the cheapest, the open rows' R every tuple with the
//!   right sum, divided by c^(open−1). Each open row's R then takes every
//!   value equally often, so an open cell's terms add up to the constant
//!   `c(c−1)/2` per c tuples: the open cells drop out and the sum says "the
//!   set rows cost at least B + 1 − ⌊open·n(c−1)/2⌋" (the search's
//!   averaging bound), which the set rows contradict; then the clause "not
//!   this prefix" by reverse unit propagation.
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
use puzzlesat_encodings::proof::{self, Conclusion, Constraint, Op, PolSum, Ref, Step};
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
    /// prefixes closed by the averaging bound (one `pol` step each)
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
    /// close prefixes by the averaging bound
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
            w.comment(&format!("the goal is no larger than its image ({label})"))?;
            let first = w.block(&[order.dominance(&sigma, &name, "lex")], DOMINANCE_IDS)?;
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

    /// The averaging cut with rows `0..k` set, if it closes the prefix.
    fn cut(&mut self, k: usize) -> Result<Option<Id>, GoalProofError> {
        let (n, c) = (self.gm.n, self.gm.c);
        let open = n - k;
        let avg = (open * n * (c - 1) / 2) as u32;
        // a column vector under which the set rows, each at its cheapest
        // R_i, cost at most B − avg
        let (t, above, s) = (self.t, self.bound, &self.s);
        let closes = |col: &[usize]| {
            let mut cost = 0;
            let mut r = vec![];
            for i in 0..k {
                let (v, x) = (0..c)
                    .map(|x| (row_cost(&s[i * n..(i + 1) * n], x, col, c), x))
                    .min()
                    .expect("c ≥ 2");
                cost += v;
                r.push(x);
            }
            (cost + avg <= above).then_some(r)
        };
        let Some((mut r, col)) = closing_vector(&mut self.recent_cuts[k], n, c, t, closes) else {
            return Ok(None);
        };
        // the open rows' R: every tuple with ΣR ≡ T
        let st: usize = r.iter().sum();
        let tuples = c.pow(open as u32 - 1);
        let mut sum = PolSum::new();
        r.resize(n, 0);
        for x in 0..tuples {
            let mut rest = x;
            let mut partial = st;
            for x in &mut r[k..n - 1] {
                *x = rest % c;
                rest /= c;
                partial += *x;
            }
            r[n - 1] = (self.t + c * n - partial % c) % c;
            sum.add(Ref::Id(self.gm.bound(self.t, &r, &col)));
        }
        sum.then(Op::Div(tuples as u64));
        let derived = self.w.step(&sum.step())?;
        let p = k * (n - 1);
        let mut hints = vec![Ref::Id(self.gm.t_one), Ref::Id(self.floor)];
        self.known_hints(p, &mut hints);
        hints.push(Ref::Id(derived));
        let id = self.w.step(&Step::Rup(self.not_prefix(p), hints))?;
        self.w.line(&Step::Del(vec![Ref::Id(derived)]))?;
        self.steps.cuts += 1;
        Ok(Some(id))
    }
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
