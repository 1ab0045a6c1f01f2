//! The PB model of Enigma 1225 on an n×n board, from the three rules (as
//! [`super::check`] reads them), for `--method board`:
//!
//! - cell `(i, j)` holds `x_ij ∈ 1..n²`, in unary: `x[i][j]_ge<t>` ("at
//!   least t", t = 2..n², the names the encoder gives its order literals)
//!   with `x ≥ t+1 → x ≥ t`. n² is what the rules give: by rule 3 the
//!   values on the board are 1..max, each on some cell. The encoding's
//!   smaller domain `1..ub` (ub the largest UBNVAL over the cycle types,
//!   Property 4 of Cambazard, O'Sullivan & Smith) is a theorem, which the
//!   proof derives ([`super::ubn_proof::domain_proof`]);
//! - **rule 2** as a permutation: `p[i][j]` ("column i equals row j", i ≠ j,
//!   the encoder's name) exactly one per column i and per row j, and
//!   `p[i][j] → x[k][i] = x[j][k]` for every k (two clauses per t). With
//!   rule 1 this is rule 2: distinct rows equal distinct columns, so "each
//!   row equals a column other than its own" is such a bijection;
//! - **rule 1**: rows i < i' differ: some column k has `d[i][i'][k]`
//!   ("rows i and i' differ in column k"), which means that no value v is
//!   held by both cells: `¬d ∨ ¬e[i][k]_<v> ∨ ¬e[i'][k]_<v>` (at v = n²,
//!   "holds n²" is `x_ge<n²>`). Stated over "holds v", the rule is the same
//!   under any relabelling of the values, which the proof of `--dominance`
//!   uses (the encoder's "row i is below row i'" literals are auxiliary
//!   variables of the proof);
//! - **rule 3**: a cell ≥ t means some cell holds exactly t − 1 (t ≥ 2):
//!   `u[t]` ("some cell is at least t") holds exactly when some
//!   `x[i][j]_ge<t>` does (`u[1]` is true), `e[i][j]_<v>` ("cell (i, j)
//!   holds v") is defined from the unary literals, and `u[t] → ∨_cells
//!   e_<t−1>`;
//! - the objective: maximise the total `n² + Σ x[i][j]_ge<t>`.
//!
//! Indices in names are 1-based.

use puzzlesat_encodings::pbmodel::{PbObjective, PbSense};
use puzzlesat_encodings::{PbLit, PbModel};

/// The model's top value: n² (rule 3 makes the values on the board 1..max,
/// each held by a cell), at least 1.
pub fn top(n: usize) -> usize {
    (n * n).max(1)
}

/// The name of "cell (i, j) is at least t" (0-based i, j).
pub fn ge_name(i: usize, j: usize, t: usize) -> String {
    format!("x[{}][{}]_ge{t}", i + 1, j + 1)
}

/// The name of "column i equals row j" (0-based i, j).
pub fn p_name(i: usize, j: usize) -> String {
    format!("p[{}][{}]", i + 1, j + 1)
}

/// The name of "rows i and i2 differ in column k" (0-based, i < i2).
pub fn differ_name(i: usize, i2: usize, k: usize) -> String {
    format!("d[{}][{}][{}]", i + 1, i2 + 1, k + 1)
}

/// The name of "some cell is at least t".
pub fn used_name(t: usize) -> String {
    format!("u[{t}]")
}

/// The name of "cell (i, j) holds v" (0-based i, j).
pub fn holds_name(i: usize, j: usize, v: usize) -> String {
    format!("e[{}][{}]_{v}", i + 1, j + 1)
}

/// The model of side n.
pub fn model(n: usize) -> PbModel {
    build(n).0
}

/// The ids (VeriPB's, from 1) of the model's permutation constraints,
/// each an equality loaded as `≥ 1` (this id) then `≤ 1` (the next):
/// `rows[i]` of `Σ_j p[i][j] = 1` ("column i equals one other row"),
/// `columns[j]` of `Σ_i p[i][j] = 1` ("row j equals one other column").
#[derive(Clone, Debug)]
pub struct PermutationIds {
    /// per i, the id of `Σ_j p[i][j] ≥ 1`
    pub rows: Vec<usize>,
    /// per j, the id of `Σ_i p[i][j] ≥ 1`
    pub columns: Vec<usize>,
}

/// The ids of the model's permutation constraints (side n).
pub fn permutation_ids(n: usize) -> PermutationIds {
    build(n).1
}

fn build(n: usize) -> (PbModel, PermutationIds) {
    let top = top(n);
    let mut m = PbModel::new();
    m.comment(format!(
        "Enigma 1225, n = {n}, cells in 1..{top}: x[i][j]_ge<t> = cell (i, j) is at least t; p[i][j] = column i equals row j"
    ));
    let cells = post_cells(&mut m, n, top);
    let ids = post_rule2(&mut m, &cells);
    let holds = holds_vars(&mut m, &cells);
    post_rule1(&mut m, &holds, top);
    post_rule3(&mut m, &cells, &holds);
    m.set_objective(PbObjective {
        sense: PbSense::Maximize,
        terms: cells
            .ge
            .iter()
            .flatten()
            .flatten()
            .map(|&l| (1, l))
            .collect(),
        offset: (n * n) as i64,
    });
    (m, ids)
}

/// The cells' order literals: `ge[i][j][t − 2]` = [x_ij ≥ t], t = 2..=top
/// (t = 1 is true, t > top false).
struct Cells {
    n: usize,
    top: usize,
    ge: Vec<Vec<Vec<PbLit>>>,
}

impl Cells {
    fn at_least(&self, i: usize, j: usize, t: usize) -> PbLit {
        self.ge[i][j][t - 2]
    }
}

/// The cells' variables and their order clauses.
fn post_cells(m: &mut PbModel, n: usize, top: usize) -> Cells {
    let ge: Vec<Vec<Vec<PbLit>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (2..=top).map(|t| m.var(&ge_name(i, j, t)).pos()).collect())
                .collect()
        })
        .collect();
    let cells = Cells { n, top, ge };
    for i in 0..n {
        for j in 0..n {
            for t in 3..=top {
                m.clause(
                    &[!cells.at_least(i, j, t), cells.at_least(i, j, t - 1)],
                    format!(
                        "cell ({}, {}): at least {t}, so at least {}",
                        i + 1,
                        j + 1,
                        t - 1
                    ),
                );
            }
        }
    }
    cells
}

/// Rule 2: the permutation (`p[i][j]`, exactly one per row and column)
/// and the equalities it states.
fn post_rule2(m: &mut PbModel, cells: &Cells) -> PermutationIds {
    let (n, top) = (cells.n, cells.top);
    let at_least = |i: usize, j: usize, t: usize| cells.at_least(i, j, t);
    let p: Vec<Vec<Option<PbLit>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (i != j).then(|| m.var(&p_name(i, j)).pos()))
                .collect()
        })
        .collect();
    let mut ids = PermutationIds {
        rows: vec![],
        columns: vec![],
    };
    for (i, images) in p.iter().enumerate() {
        let col: Vec<PbLit> = images.iter().flatten().copied().collect();
        let c = m.exactly(
            &col,
            1,
            format!("rule 2: column {} equals one other row", i + 1),
        );
        ids.rows.push(m.first_id(c));
    }
    for j in 0..n {
        let row: Vec<PbLit> = p.iter().filter_map(|images| images[j]).collect();
        let c = m.exactly(
            &row,
            1,
            format!("rule 2: row {} equals one other column", j + 1),
        );
        ids.columns.push(m.first_id(c));
    }
    for (i, images) in p.iter().enumerate() {
        for (j, &pij) in images.iter().enumerate() {
            let Some(pij) = pij else { continue };
            for k in 0..n {
                for t in 2..=top {
                    let (a, b) = (at_least(k, i, t), at_least(j, k, t));
                    if a == b {
                        continue;
                    }
                    let rule = || {
                        format!(
                            "rule 2: column {} equals row {}: cells ({}, {}) and ({}, {}) agree on 'at least {t}'",
                            i + 1, j + 1, k + 1, i + 1, j + 1, k + 1
                        )
                    };
                    m.clause(&[!pij, !a, b], rule());
                    m.clause(&[!pij, a, !b], rule());
                }
            }
        }
    }
    ids
}

/// "cell (i, j) holds v": `e[i][j]_<v>` below the top, the top value's
/// order literal at top (defined under rule 3).
fn holds_vars(m: &mut PbModel, cells: &Cells) -> Vec<Vec<Vec<PbLit>>> {
    let (n, top) = (cells.n, cells.top);
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    (1..=top)
                        .filter(|_| top >= 2)
                        .map(|v| {
                            if v < top {
                                m.var(&holds_name(i, j, v)).pos()
                            } else {
                                cells.at_least(i, j, top)
                            }
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Rule 1: rows differ (`d` = rows i and i' differ in column k: they do
/// not hold the same value there).
fn post_rule1(m: &mut PbModel, holds: &[Vec<Vec<PbLit>>], top: usize) {
    let n = holds.len();
    for i in 0..n {
        for i2 in i + 1..n {
            let mut columns = vec![];
            for (k, (upper, lower)) in holds[i].iter().zip(&holds[i2]).enumerate() {
                let d = m.var(&differ_name(i, i2, k)).pos();
                let rule = format!(
                    "rule 1: d = rows {} and {} differ in column {}",
                    i + 1,
                    i2 + 1,
                    k + 1
                );
                if top < 2 {
                    m.clause(&[!d], rule); // every cell holds 1
                } else {
                    for (&a, &b) in upper.iter().zip(lower) {
                        m.clause(&[!d, !a, !b], rule.clone());
                    }
                }
                columns.push(d);
            }
            m.clause(
                &columns,
                format!("rule 1: rows {} and {} differ", i + 1, i2 + 1),
            );
        }
    }
}

/// Rule 3: a cell ≥ t means some cell holds t − 1 (`u` = some cell is at
/// least t, `e` = a cell holds v).
fn post_rule3(m: &mut PbModel, cells: &Cells, holds: &[Vec<Vec<PbLit>>]) {
    let (n, top) = (cells.n, cells.top);
    let at_least = |i: usize, j: usize, t: usize| cells.at_least(i, j, t);
    let used: Vec<PbLit> = (1..=top).map(|t| m.var(&used_name(t)).pos()).collect();
    m.clause(
        &[used[0]],
        "rule 3: u = some cell is at least 1".to_string(),
    );
    for t in 2..=top {
        let u = used[t - 1];
        let rule = format!("rule 3: u = some cell is at least {t}");
        let mut some = vec![!u];
        for i in 0..n {
            for j in 0..n {
                m.clause(&[!at_least(i, j, t), u], rule.clone());
                some.push(at_least(i, j, t));
            }
        }
        m.clause(&some, rule);
    }
    for v in 1..top {
        let mut holders = vec![];
        for (i, row) in holds.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let e = cell[v - 1];
                let rule = format!("rule 3: e = cell ({}, {}) holds {v}", i + 1, j + 1);
                // e ⇔ [x ≥ v] ∧ ¬[x ≥ v+1]
                let next = at_least(i, j, v + 1);
                if v >= 2 {
                    let ge_v = at_least(i, j, v);
                    m.clause(&[!e, ge_v], rule.clone());
                    m.clause(&[!ge_v, next, e], rule.clone());
                } else {
                    m.clause(&[next, e], rule.clone());
                }
                m.clause(&[!e, !next], rule);
                holders.push(e);
            }
        }
        let mut clause = vec![!used[v]];
        clause.extend(&holders);
        m.clause(
            &clause,
            format!(
                "rule 3: some cell is at least {}, so {v} is on the board",
                v + 1
            ),
        );
    }
}
