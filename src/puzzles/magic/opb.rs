//! The PB model of a magic square, from the definition (as [`super::check`]
//! reads it): a variable `F<r>_<c>_eq<v>` per cell and value ("cell (r, c)
//! holds v", 1-based, the name the encoder gives the same literal); every
//! cell holds exactly one value of `1..=n²`, every value is held exactly
//! once, every row, column and main diagonal sums to `S = n(n²+1)/2`
//! (`Σ_cells Σ_v v·[F = v] = S`), and a given cell holds its value.

use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::{PbLit, PbModel};

use super::model::{magic_sum, Givens};
use super::reference::lines;

/// The name of the literal "cell c (row-major) holds v" in an n×n square.
pub fn value_name(n: usize, c: usize, v: usize) -> String {
    format!("F{}_{}_eq{v}", c / n + 1, c % n + 1)
}

/// The model of the instance.
pub fn model(givens: &Givens) -> PbModel {
    let n = givens.n;
    let (cells, s) = (n * n, magic_sum(n) as i64);
    let mut m = PbModel::new();
    m.comment(format!(
        "magic square of order {n}, magic sum {s}: F<r>_<c>_eq<v> = cell (r, c) holds v"
    ));
    // f[c][v-1] = [F_c = v]
    let f: Vec<Vec<PbLit>> = (0..cells)
        .map(|c| (1..=cells).map(|v| m.var(&value_name(n, c, v)).pos()).collect())
        .collect();
    for (c, lits) in f.iter().enumerate() {
        m.exactly(lits, 1, format!("cell ({}, {}) holds one value", c / n + 1, c % n + 1));
    }
    for v in 1..=cells {
        let holders: Vec<PbLit> = f.iter().map(|lits| lits[v - 1]).collect();
        m.exactly(&holders, 1, format!("value {v} is held once"));
    }
    let names = line_names(n);
    for (line, name) in lines(n).iter().zip(names) {
        let terms = line
            .iter()
            .flat_map(|&c| f[c].iter().enumerate().map(|(v, &l)| (v as i64 + 1, l)))
            .collect();
        m.linear(terms, Relation::Equal, s, format!("{name} sums to {s}"));
    }
    for (c, g) in givens.cells.iter().flatten().enumerate() {
        if let Some(g) = g {
            m.clause(&[f[c][*g as usize - 1]], format!("cell ({}, {}) is given {g}", c / n + 1, c % n + 1));
        }
    }
    m
}

/// The lines' names, in the order of [`lines`].
fn line_names(n: usize) -> Vec<String> {
    let mut names: Vec<String> = (1..=n)
        .flat_map(|i| [format!("row {i}"), format!("column {i}")])
        .collect();
    names.extend(["the main diagonal".to_string(), "the anti-diagonal".to_string()]);
    names
}
