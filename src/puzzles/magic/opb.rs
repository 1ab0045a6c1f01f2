//! The PB model of a magic square, from the definition (as [`super::check`]
//! reads it): a variable `F<r>_<c>_eq<v>` per cell and value ("cell (r, c)
//! holds v", 1-based, the name the encoder gives the same literal); every
//! cell holds exactly one value of `1..=n²`, every value is held exactly
//! once, every row, column and main diagonal sums to `S = n(n²+1)/2`
//! (`Σ_cells Σ_v v·[F = v] = S`), and a given cell holds its value.

use puzzlesat_encodings::dominance::{order_prelude, ProofLines, SymmetryProof};
use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::{Lit, PbLit, PbModel};

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
        .map(|c| {
            (1..=cells)
                .map(|v| m.var(&value_name(n, c, v)).pos())
                .collect()
        })
        .collect();
    for (c, lits) in f.iter().enumerate() {
        m.exactly(
            lits,
            1,
            format!("cell ({}, {}) holds one value", c / n + 1, c % n + 1),
        );
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
            m.clause(
                &[f[c][*g as usize - 1]],
                format!("cell ({}, {}) is given {g}", c / n + 1, c % n + 1),
            );
        }
    }
    m
}

/// The lines' names, in the order of [`lines`].
fn line_names(n: usize) -> Vec<String> {
    let mut names: Vec<String> = (1..=n)
        .flat_map(|i| [format!("row {i}"), format!("column {i}")])
        .collect();
    names.extend([
        "the main diagonal".to_string(),
        "the anti-diagonal".to_string(),
    ]);
    names
}

/// The VeriPB derivation of `--symmetry order` over direct cells (`direct[c][v−1]`,
/// the model's variables): the order constraints `F11 < Fnn`, `Fn1 < F1n`,
/// `F11 < Fn1` (Schulte & Smolka), by dominance (Bogaerts, Gocht, McCreesh &
/// Nordström, JAIR 2023) under the pre-order "K·F11 + Fn1 smaller" (K = n²+1):
/// each `F_a ≤ F_b` by `dom` with the witness of a symmetry of the square
/// that brings F_b to a's place (the anti-diagonal reflection, the
/// transpose, the horizontal mirror) and so lowers K·F11 + Fn1 when it is
/// violated; then each CNF clause `¬[F_a = v] ∨ ¬[F_b = w]` (w ≤ v) by RUP
/// (from it for w < v, from "v is held once" for w = v).
pub fn order_proof(n: usize, direct: &[Vec<Lit>], name: &dyn Fn(Lit) -> String) -> SymmetryProof {
    let cells = n * n;
    let k = cells as i64 + 1;
    let at = |r: usize, c: usize| (r - 1) * n + (c - 1);
    let val = |c: usize, scale: i64, sign: &str, side: &str| -> Vec<String> {
        (0..cells)
            .map(|v| format!("{sign}{} {side}{}", scale * (v as i64 + 1), c * cells + v))
            .collect()
    };
    // order variables: F11's values then Fn1's
    let (c11, cn1) = (at(1, 1), at(n, 1));
    let mut def = val(0, k, "-", "u");
    def.extend(val(0, k, "+", "v"));
    def.extend(val(1, 1, "-", "u"));
    def.extend(val(1, 1, "+", "v"));
    let loaded: Vec<String> = direct[c11]
        .iter()
        .chain(&direct[cn1])
        .map(|&l| name(l))
        .collect();
    let prelude = order_prelude("corners", &def, &loaded);
    let mut block = ProofLines::default();
    // (a, b, the map π with F_a's new value the old F_b, K·ΔF11 + ΔFn1 per unit)
    type Map = fn(usize, usize, usize) -> (usize, usize);
    let steps: [((usize, usize), (usize, usize), Map, i64); 3] = [
        ((1, 1), (n, n), |n, r, c| (n + 1 - c, n + 1 - r), k),
        ((n, 1), (1, n), |_, r, c| (c, r), 1),
        ((1, 1), (n, 1), |n, r, c| (n + 1 - r, c), k - 1),
    ];
    for ((ar, ac), (br, bc), pi, m) in steps {
        let (a, b) = (at(ar, ac), at(br, bc));
        let terms: Vec<String> = (0..cells)
            .flat_map(|v| {
                let w = v as i64 + 1;
                [
                    format!("+{w} {}", name(direct[b][v])),
                    format!("-{w} {}", name(direct[a][v])),
                ]
            })
            .collect();
        let mut witness = vec![];
        for r in 1..=n {
            for c in 1..=n {
                let (r2, c2) = pi(n, r, c);
                if (r2, c2) != (r, c) {
                    for v in 0..cells {
                        witness.push(format!(
                            "{} -> {}",
                            name(direct[at(r, c)][v]),
                            name(direct[at(r2, c2)][v])
                        ));
                    }
                }
            }
        }
        // ids: the negated constraint, its copy @nc, two goals of two each, the constraint
        block.add_ids(
            format!(
                "dom {} >= 0 : {} : subproof @nc pol -1; proofgoal #1 pol -1 @nc {m} * +; qed : -1; proofgoal #2 pol -1 @nc {m} * +; qed : -1; qed;",
                terms.join(" "),
                witness.join(" ")
            ),
            7,
        );
        for v in 0..cells {
            for w in 0..=v {
                let clause = vec![!direct[a][v], !direct[b][w]];
                block.add_ids(
                    format!("rup +1 {} +1 {} >= 1;", name(clause[0]), name(clause[1])),
                    1,
                );
                block.derived.push((clause, block.ids));
            }
        }
    }
    SymmetryProof { prelude, block }
}
