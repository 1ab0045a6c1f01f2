//! The PB model of a rook tour / Numbrix board, from the rules (as
//! [`super::check`] reads them), over the position encoding's literals
//! `x[r][c]_eq<k>` ("cell (r, c) holds k", 1-based, the names the encoder
//! gives them): every cell holds one value of `1..=R·C` and every value is
//! in one cell; the cell holding k has a neighbour holding k + 1 and the
//! cell holding k + 1 a neighbour holding k (and for a tour the same for
//! R·C and 1); a given cell holds its
//! value, a marked cell a value of its set, and the values of an `exactly`
//! set are in its marked cells only.

use puzzlesat_encodings::{PbLit, PbModel};

use super::model::Instance;

/// The name of "cell `cell` holds k".
pub fn holds_name(inst: &Instance, cell: usize, k: usize) -> String {
    format!(
        "x[{}][{}]_eq{k}",
        cell / inst.cols + 1,
        cell % inst.cols + 1
    )
}

/// The name of the successor encoding's "v follows u".
pub fn follows_name(inst: &Instance, u: usize, v: usize) -> String {
    let at = |c: usize| format!("[{}][{}]", c / inst.cols + 1, c % inst.cols + 1);
    format!("s{}_to{}", at(u), at(v))
}

/// The model of `inst`.
pub fn model(inst: &Instance) -> PbModel {
    let n = inst.n();
    let mut m = PbModel::new();
    m.comment(format!(
        "{}: {}x{} board{}, x[r][c]_eq<k> = cell (r, c) holds k",
        inst.name,
        inst.rows,
        inst.cols,
        if inst.tour { ", a tour" } else { "" }
    ));
    let name = |c: usize| format!("({}, {})", c / inst.cols + 1, c % inst.cols + 1);
    // x[c][k-1] = [cell c holds k]
    let x: Vec<Vec<PbLit>> = (0..n)
        .map(|c| {
            (1..=n)
                .map(|k| m.var(&holds_name(inst, c, k)).pos())
                .collect()
        })
        .collect();
    for (c, lits) in x.iter().enumerate() {
        m.exactly(lits, 1, format!("cell {} holds one value", name(c)));
    }
    for k in 0..n {
        let cells: Vec<PbLit> = x.iter().map(|lits| lits[k]).collect();
        m.exactly(&cells, 1, format!("value {} is in one cell", k + 1));
    }
    // both directions of "k and k+1 are neighbours": the model is then
    // mapped onto itself by reversing the path (k ↦ n+1−k)
    let last = if inst.tour { n } else { n.saturating_sub(1) };
    for c in 0..n {
        for k in 0..last {
            let next = (k + 1) % n;
            let mut clause = vec![!x[c][k]];
            clause.extend(inst.neighbours(c).iter().map(|&d| x[d][next]));
            m.clause(
                &clause,
                format!(
                    "{} in cell {} is followed by {} next to it",
                    k + 1,
                    name(c),
                    next + 1
                ),
            );
            let mut clause = vec![!x[c][next]];
            clause.extend(inst.neighbours(c).iter().map(|&d| x[d][k]));
            m.clause(
                &clause,
                format!(
                    "{} in cell {} follows {} next to it",
                    next + 1,
                    name(c),
                    k + 1
                ),
            );
        }
    }
    for (c, xc) in x.iter().enumerate() {
        if let Some(g) = inst.givens[c] {
            m.clause(
                &[xc[g as usize - 1]],
                format!("cell {} is given {g}", name(c)),
            );
        }
        for (i, set) in inst.sets.iter().enumerate() {
            let marked = inst.marks[c] == Some(i);
            if marked {
                let lits: Vec<PbLit> = set.values.iter().map(|&v| xc[v as usize - 1]).collect();
                m.clause(&lits, format!("cell {} is marked '{}'", name(c), set.name));
            } else if set.exactly {
                for &v in &set.values {
                    m.clause(
                        &[!xc[v as usize - 1]],
                        format!("{v} of the set '{}' is only in its marked cells", set.name),
                    );
                }
            }
        }
    }
    m
}
