//! The VeriPB proof that the goal-space model ([`super::goal_model`]) is
//! UNSAT: no goal needs more than B clicks. It mirrors the goal search of
//! [`super::goals`] (c | n − 1): per T, a depth-first walk over the free
//! cells (rows 0..n−2, columns 0..n−2, row-major); unit propagation of the
//! chain clauses fixes each row's last cell and the last row.
//!
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
//!   c children (the cell at 0, 1, …, c−1).
//!
//! Every `rup` step names the constraints it propagates (VeriPB's hints),
//! and each node's children are deleted once it is derived. (Cutting
//! planes: Cook, Coullard & Turán 1987; the proof format: Bogaerts, Gocht,
//! McCreesh & Nordström, "Certified Dominance and Symmetry Breaking for
//! Combinatorial Optimisation", JAIR 77, 2023.)

use std::io::{self, Write};

use puzzlesat_encodings::proof::{self, Conclusion, Constraint, Op, PolSum, Ref, Step};

use super::goal_model::{for_each_vector, GoalModel, Id};
use crate::certify::veripb::ProofWriter;

/// What the proof holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoalProofSteps {
    /// goals closed by one bound constraint
    pub leaves: u64,
    /// prefixes closed by the averaging bound (one `pol` step each)
    pub cuts: u64,
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
            GoalProofError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for GoalProofError {
    fn from(e: io::Error) -> Self {
        GoalProofError::Io(e)
    }
}

/// Writes the proof that `gm` is UNSAT to `out`; without `cuts` every
/// goal is a leaf (the tests' check of the leaves' steps).
pub fn write_proof<W: Write>(
    gm: &GoalModel,
    out: W,
    cuts: bool,
    stop: &dyn Fn() -> bool,
) -> Result<GoalProofSteps, GoalProofError> {
    let mut walk = Walk {
        gm,
        stop,
        cuts,
        w: ProofWriter::new(out, gm.model.loaded())?,
        t: 0,
        s: vec![0; gm.n * gm.n],
        steps: GoalProofSteps::default(),
    };
    walk.w.comment(&format!(
        "no goal of the {n}x{n} board with {c} colours needs more than {b} clicks: a walk over the goal cells per T",
        n = gm.n,
        c = gm.c,
        b = gm.above
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
    steps.bytes = walk.w.finish(Conclusion::Unsat(Ref::Id(root)))?;
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
    let mut walk = Walk {
        gm,
        stop: &|| false,
        cuts: true,
        w: ProofWriter::new(out, gm.model.loaded())?,
        t,
        s: vec![0; n * n],
        steps: GoalProofSteps::default(),
    };
    for (q, &v) in prefix.iter().enumerate() {
        walk.s[(q / free) * n + q % free] = v % c;
    }
    for k in 1..=prefix.len() / free {
        let sum: usize = walk.s[(k - 1) * n..k * n - 1].iter().sum();
        walk.s[k * n - 1] = (t + c * n - sum % c) % c;
    }
    let id = walk.node(prefix.len())?;
    let clause = walk.not_prefix(prefix.len());
    walk.w.line(&Step::Equals(clause, Ref::Id(id)))?;
    let mut steps = walk.steps;
    steps.bytes = walk.w.finish(Conclusion::None)?;
    Ok(steps)
}

struct Walk<'a, W: Write> {
    gm: &'a GoalModel,
    /// whether to stop (asked at every node)
    stop: &'a dyn Fn() -> bool,
    /// close prefixes by the averaging bound
    cuts: bool,
    w: ProofWriter<W>,
    /// the common sum T
    t: usize,
    /// the goal, row-major (the set cells and the forced ones)
    s: Vec<usize>,
    steps: GoalProofSteps,
}

impl<W: Write> Walk<'_, W> {
    /// The clause "not (T and the first `p` free cells)", derived.
    fn node(&mut self, p: usize) -> Result<Id, GoalProofError> {
        if (self.stop)() {
            return Err(GoalProofError::Stopped);
        }
        let (n, c) = (self.gm.n, self.gm.c);
        let free = n - 1;
        if p > 0 && p % free == 0 {
            let k = p / free;
            // row k − 1's last cell, forced by its sum
            let sum: usize = self.s[(k - 1) * n..k * n - 1].iter().sum();
            self.s[k * n - 1] = (self.t + c * n - sum % c) % c;
            if k == n - 1 {
                return self.leaf();
            }
            let cut = if self.cuts { self.cut(k)? } else { None };
            if let Some(id) = cut {
                return Ok(id);
            }
        }
        let cell = (p / free) * n + p % free;
        let mut children = vec![];
        for v in 0..c {
            self.s[cell] = v;
            children.push(Ref::Id(self.node(p + 1)?));
        }
        let id = self
            .w
            .step(&Step::Rup(self.not_prefix(p), children.clone()))?;
        self.w.line(&Step::Del(children))?;
        self.steps.nodes += 1;
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

    /// The hints that fix rows `0..k` (their last cells by the row chains)
    /// and every cell's order literals, with "one T".
    fn row_hints(&self, k: usize, hints: &mut Vec<Ref>) {
        let (n, c) = (self.gm.n, self.gm.c);
        hints.push(Ref::Id(self.gm.t_one));
        for i in 0..k {
            let mut a = 0;
            for j in 0..n - 1 {
                let v = self.s[i * n + j];
                hints.push(Ref::Id(self.gm.rows[i][j][a * c + v]));
                a = (a + v) % c;
                hints.extend(self.gm.order[i * n + j].iter().map(|&id| Ref::Id(id)));
            }
            hints.extend((0..c).map(|b| Ref::Id(self.gm.rows[i][n - 1][a * c + b])));
        }
    }

    /// A leaf: every free cell set.
    fn leaf(&mut self) -> Result<Id, GoalProofError> {
        let (n, c) = (self.gm.n, self.gm.c);
        for j in 0..n {
            let sum: usize = (0..n - 1).map(|i| self.s[i * n + j]).sum();
            self.s[(n - 1) * n + j] = (self.t + c * n - sum % c) % c;
        }
        let (value, r, col) = cheapest(&self.s, n, c, self.t);
        if value > self.gm.above {
            return Err(GoalProofError::Harder(self.s.clone(), value));
        }
        let mut hints = vec![];
        self.row_hints(n - 1, &mut hints);
        for j in 0..n {
            let mut a = 0;
            for i in 0..n - 1 {
                let v = self.s[i * n + j];
                hints.push(Ref::Id(self.gm.cols[j][i][a * c + v]));
                a = (a + v) % c;
            }
            hints.extend((0..c).map(|b| Ref::Id(self.gm.cols[j][n - 1][a * c + b])));
        }
        hints.push(Ref::Id(self.gm.bound(self.t, &r, &col)));
        let id = self
            .w
            .step(&Step::Rup(self.not_prefix((n - 1) * (n - 1)), hints))?;
        self.steps.leaves += 1;
        Ok(id)
    }

    /// The averaging cut with rows `0..k` set, if it closes the prefix.
    fn cut(&mut self, k: usize) -> Result<Option<Id>, GoalProofError> {
        let (n, c) = (self.gm.n, self.gm.c);
        let open = n - k;
        let avg = (open * n * (c - 1) / 2) as u32;
        let mut best: Option<(u32, Vec<usize>, Vec<usize>)> = None;
        for_each_vector(n, c, self.t, |col| {
            let mut cost = 0;
            let mut r = vec![];
            for i in 0..k {
                let (v, x) = (0..c)
                    .map(|x| (row_cost(&self.s[i * n..(i + 1) * n], x, col, c), x))
                    .min()
                    .expect("c ≥ 2");
                cost += v;
                r.push(x);
            }
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, r, col.to_vec()));
            }
        });
        let (cost, mut r, col) = best.expect("a column vector");
        if cost + avg > self.gm.above {
            return Ok(None);
        }
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
        let mut hints = vec![];
        self.row_hints(k, &mut hints);
        hints.push(Ref::Id(derived));
        let id = self
            .w
            .step(&Step::Rup(self.not_prefix(k * (n - 1)), hints))?;
        self.w.line(&Step::Del(vec![Ref::Id(derived)]))?;
        self.steps.cuts += 1;
        Ok(Some(id))
    }
}

/// `Σ_j (x + C_j − s_j) mod c`: the clicks of goal row `s` at row value x.
fn row_cost(s: &[usize], x: usize, col: &[usize], c: usize) -> u32 {
    s.iter()
        .zip(col)
        .map(|(&sv, &cv)| ((x + cv + c - sv) % c) as u32)
        .sum()
}

/// The fewest clicks of the goal `s` with row and column sums ≡ t, and an
/// (R, C) reaching them (ΣR ≡ ΣC ≡ t): per C, a dynamic programme over the
/// rows by partial ΣR.
pub fn cheapest(s: &[usize], n: usize, c: usize, t: usize) -> (u32, Vec<usize>, Vec<usize>) {
    let mut best: Option<(u32, Vec<usize>, Vec<usize>)> = None;
    for_each_vector(n, c, t, |col| {
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
        let v = dp[n][t].0;
        if best.as_ref().is_none_or(|b| v < b.0) {
            let mut r = vec![0; n];
            let mut st = t;
            for i in (0..n).rev() {
                r[i] = dp[i + 1][st].1;
                st = (st + c - r[i]) % c;
            }
            best = Some((v, r, col.to_vec()));
        }
    });
    best.expect("a column vector")
}
