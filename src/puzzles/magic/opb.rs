//! The PB model of a magic square, from the definition (as [`super::check`]
//! reads it): a variable `F<r>_<c>_eq<v>` per cell and value ("cell (r, c)
//! holds v", 1-based, the name the encoder gives the same literal); every
//! cell holds exactly one value of `1..=n²`, every value is held exactly
//! once, every row, column and main diagonal sums to `S = n(n²+1)/2`
//! (`Σ_cells Σ_v v·[F = v] = S`), and a given cell holds its value.

use puzzlesat_encodings::dominance::{order_prelude, ProofLines, SymmetryProof};
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::provenance::{Definition, Lemma, Linear};
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

/// The meaning of a digit cell's literals over its values (`--encoding
/// digits`, for a VeriPB proof): with `F − 1 = n·high + low` and
/// `lits[n·h + l] = [F = n·h + l + 1]`, each order literal
/// `[high ≥ k] ⇔ Σ_{h ≥ k} [F = n·h + l + 1] ≥ 1` (likewise `low`), and each
/// inner direct literal `[high = h]` (`digit_eqs[0][h]`) the same over the
/// values with that digit.
pub fn digit_definitions(
    n: usize,
    lits: &[Lit],
    digits: [&IntVar; 2],
    digit_eqs: [&[Lit]; 2],
) -> Vec<Definition> {
    let digit = |which: usize, i: usize| if which == 0 { i / n } else { i % n };
    let mut out = vec![];
    for which in 0..2 {
        let with = |keep: &dyn Fn(usize) -> bool| -> Linear {
            let l: Vec<Lit> = (0..n * n)
                .filter(|&i| keep(digit(which, i)))
                .map(|i| lits[i])
                .collect();
            Linear::count_at_least(&l, 1)
        };
        for (k, &ge) in digits[which].order_lits().iter().enumerate() {
            out.push(Definition {
                lit: ge,
                meaning: with(&|d| d > k),
            });
        }
        for (h, &eq) in digit_eqs[which].iter().enumerate().take(n - 1).skip(1) {
            out.push(Definition {
                lit: eq,
                meaning: with(&|d| d == h),
            });
        }
    }
    out
}

/// The lemmas behind a digit line sum `n·H + L = t` (`t = S − len`, `H`,
/// `L` the sums of the line's high and low digits, each the count of its
/// order literals): `n·H + L ≤ t` is the line's `Σ v·[F = v] ≤ S`, each
/// cell's "at least one value" and the halves `[digit ≥ k] ≤ Σ [F = v]`
/// (n times for the high digits); `n·H + L ≥ t` likewise from `≥ S`, "at
/// most one value" and the tight halves `[digit ≥ k] ≥ Σ [F = v]`.
pub fn digit_line_lemmas(
    digits: &[[IntVar; 2]],
    direct: &[Vec<Lit>],
    line: &[usize],
    target: i64,
) -> Vec<(Linear, Lemma, Vec<(u64, Lit)>)> {
    let base = digits[0][0].ub() as u64 + 1;
    let t = target - line.len() as i64;
    let weighted: Vec<(u64, Lit)> = line
        .iter()
        .flat_map(|&c| {
            let hi = digits[c][0].order_lits().iter().map(move |&l| (base, l));
            let lo = digits[c][1].order_lits().iter().map(|&l| (1, l));
            hi.chain(lo).collect::<Vec<_>>()
        })
        .collect();
    let values: Vec<(u64, Lit)> = line
        .iter()
        .flat_map(|&c| {
            direct[c]
                .iter()
                .enumerate()
                .map(|(v, &l)| (v as u64 + 1, l))
        })
        .collect();
    let signed = |terms: &[(u64, Lit)]| {
        terms
            .iter()
            .map(|&(a, l)| (a as i64, l))
            .collect::<Vec<_>>()
    };
    let upper = Lemma {
        parts: std::iter::once(Linear::weighted_at_most(&values, target))
            .chain(line.iter().map(|&c| Linear::count_at_least(&direct[c], 1)))
            .collect(),
        divisor: 1,
    };
    let lower = Lemma {
        parts: std::iter::once(Linear::at_least(signed(&values), target))
            .chain(line.iter().map(|&c| Linear::count_at_most(&direct[c], 1)))
            .collect(),
        divisor: 1,
    };
    vec![
        (
            Linear::weighted_at_most(&weighted, t),
            upper,
            weighted.iter().map(|&(a, l)| (a, !l)).collect(),
        ),
        (
            Linear::at_least(signed(&weighted), t),
            lower,
            weighted.clone(),
        ),
    ]
}

/// The lemmas behind a digit count `Σ_c [digit_c = d] = n` (`which` 0: the
/// high digits, 1: the low ones; `lits[c] = [digit_c = d]`): each of the n
/// values with digit d is held once (the model), and each cell's literal
/// is the sum of its values with digit d (its definition's halves; for
/// d = 0, whose literal is `¬[digit ≥ 1]`, with the cell's "one value").
pub fn digit_count_lemmas(
    direct: &[Vec<Lit>],
    lits: &[Lit],
    which: usize,
    d: usize,
) -> Vec<(Linear, Lemma, Vec<(u64, Lit)>)> {
    let m = direct.first().map_or(0, Vec::len);
    let n = (m as f64).sqrt().round() as usize;
    let digit = |i: usize| if which == 0 { i / n } else { i % n };
    let column = |i: usize| -> Vec<Lit> { direct.iter().map(|cell| cell[i]).collect() };
    let values: Vec<usize> = (0..m).filter(|&i| digit(i) == d).collect();
    // each value of the digit held (at most | at least) once, and for d = 0
    // each cell's "one value" the other way
    type Count = fn(&[Lit], i64) -> Linear;
    let lemma = |per_value: Count, per_cell: Count| Lemma {
        parts: values
            .iter()
            .map(|&i| per_value(&column(i), 1))
            .chain(
                direct
                    .iter()
                    .filter(|_| d == 0)
                    .map(|cell| per_cell(cell, 1)),
            )
            .collect(),
        divisor: 1,
    };
    let at_most = lemma(Linear::count_at_most, Linear::count_at_least);
    let at_least = lemma(Linear::count_at_least, Linear::count_at_most);
    vec![
        (
            Linear::count_at_most(lits, n as i64),
            at_most,
            lits.iter().map(|&l| (1, !l)).collect(),
        ),
        (
            Linear::count_at_least(lits, n as i64),
            at_least,
            lits.iter().map(|&l| (1, l)).collect(),
        ),
    ]
}
