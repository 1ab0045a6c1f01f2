//! The PB model of a magic square, from the definition (as [`super::check`]
//! reads it): a variable `F<r>_<c>_eq<v>` per cell and value ("cell (r, c)
//! holds v", 1-based, the name the encoder gives the same literal); every
//! cell holds exactly one value of `1..=n²`, every value is held exactly
//! once, every row, column and main diagonal sums to `S = n(n²+1)/2`
//! (`Σ_cells Σ_v v·[F = v] = S`), and a given cell holds its value.

use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::provenance::{Definition, Lemma, Linear};
use puzzlesat_encodings::{Lit, PbLit, PbModel};

use super::model::{magic_sum, Givens};
use super::reference::lines;

/// A lemma of the encoding: the constraint, how the model implies it, and
/// the definition halves its derivation adds ([`puzzlesat_encodings::provenance::lemmas`]).
pub type LemmaEntry = (Linear, Lemma, Vec<(u64, Lit)>);

/// A count constraint over literals ("at least / at most k of").
type Count = fn(&[Lit], i64) -> Linear;

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
) -> Vec<LemmaEntry> {
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
    let signed = |terms: &[(u64, Lit)]| {
        terms
            .iter()
            .map(|&(a, l)| (a as i64, l))
            .collect::<Vec<_>>()
    };
    let n = base as usize;
    let (upper_parts, alpha) = set_sum_parts(n, direct, line, target, true);
    let (lower_parts, _) = set_sum_parts(n, direct, line, target, false);
    let line_parts = |upper: bool| {
        if upper {
            upper_parts.clone()
        } else {
            lower_parts.clone()
        }
    };
    let ones = |count: fn(&[Lit], i64) -> Linear| -> Vec<Linear> {
        line.iter()
            .flat_map(|&c| std::iter::repeat_n(count(&direct[c], 1), alpha as usize))
            .collect()
    };
    let upper = Lemma {
        parts: line_parts(true)
            .into_iter()
            .chain(ones(Linear::count_at_least))
            .collect(),
        divisor: alpha,
    };
    let lower = Lemma {
        parts: line_parts(false)
            .into_iter()
            .chain(ones(Linear::count_at_most))
            .collect(),
        divisor: alpha,
    };
    let times = |a: u64| a * alpha;
    vec![
        (
            Linear::weighted_at_most(&weighted, t),
            upper,
            weighted.iter().map(|&(a, l)| (times(a), !l)).collect(),
        ),
        (
            Linear::at_least(signed(&weighted), t),
            lower,
            weighted.iter().map(|&(a, l)| (times(a), l)).collect(),
        ),
    ]
}

/// The parts whose sum is `α·(Σ_set F ≤ target)` (`upper`) or `α·(Σ_set
/// F ≥ target)`, and α: the set's line of the model (α = 1), or for an
/// implied set (`--implied-sums`) `α·set = Σ δ_i·line_i`
/// ([`line_combination`]): the lines' `≤ S` where δ_i > 0 and `≥ S` where
/// δ_i < 0 for the upper bound (the other way round for the lower), each
/// |δ_i| times. A set the lines do not imply gets no parts (the lemma's sum
/// falls short, and the check refuses it).
fn set_sum_parts(
    n: usize,
    direct: &[Vec<Lit>],
    set: &[usize],
    target: i64,
    upper: bool,
) -> (Vec<Linear>, u64) {
    let all = lines(n);
    let sorted = |l: &[usize]| {
        let mut l = l.to_vec();
        l.sort_unstable();
        l
    };
    let (combination, alpha): (Vec<(usize, i128)>, i128) =
        match all.iter().position(|l| sorted(l) == sorted(set)) {
            Some(i) => (vec![(i, 1)], 1),
            None => match line_combination(n, set) {
                Some((delta, alpha)) => (
                    delta
                        .into_iter()
                        .enumerate()
                        .filter(|&(_, d)| d != 0)
                        .collect(),
                    alpha,
                ),
                None => (vec![], 1),
            },
        };
    let parts = combination
        .iter()
        .flat_map(|&(i, d)| {
            let vals: Vec<(i64, Lit)> = all[i]
                .iter()
                .flat_map(|&c| {
                    direct[c]
                        .iter()
                        .enumerate()
                        .map(|(v, &l)| (v as i64 + 1, l))
                })
                .collect();
            let part = if (d > 0) == upper {
                Linear::at_least(vals.iter().map(|&(a, l)| (-a, l)), -target)
            } else {
                Linear::at_least(vals, target)
            };
            std::iter::repeat_n(part, d.unsigned_abs() as usize)
        })
        .collect();
    (parts, alpha as u64)
}

/// The lines' combination of a set of cells: `α·set = Σ δ_i·line_i`
/// (the lines of [`lines`], `α > 0`), by Gaussian elimination over the
/// rationals; None if the set's indicator is not in the lines' span.
pub fn line_combination(n: usize, set: &[usize]) -> Option<(Vec<i128>, i128)> {
    type Q = (i128, i128); // numerator, positive denominator
    fn gcd(a: i128, b: i128) -> i128 {
        if b == 0 {
            a.abs()
        } else {
            gcd(b, a % b)
        }
    }
    fn norm((a, b): Q) -> Q {
        let g = gcd(a, b).max(1);
        let s = if b < 0 { -1 } else { 1 };
        (s * a / g, s * b / g)
    }
    let sub = |x: Q, k: Q, y: Q| norm((x.0 * k.1 * y.1 - k.0 * y.0 * x.1, x.1 * k.1 * y.1));
    let div = |x: Q, y: Q| norm((x.0 * y.1, x.1 * y.0));
    let ls = lines(n);
    let m = n * n;
    let width = m + ls.len();
    let row = |cells: &[usize], unit: Option<usize>| -> Vec<Q> {
        (0..width)
            .map(|j| {
                let one = if j < m {
                    cells.contains(&j)
                } else {
                    unit == Some(j - m)
                };
                (i128::from(one), 1)
            })
            .collect()
    };
    let mut rest: Vec<Vec<Q>> = ls
        .iter()
        .enumerate()
        .map(|(i, l)| row(l, Some(i)))
        .collect();
    let mut basis: Vec<(usize, Vec<Q>)> = vec![];
    for col in 0..m {
        let Some(k) = rest.iter().position(|r| r[col].0 != 0) else {
            continue;
        };
        let p = rest.swap_remove(k);
        let p: Vec<Q> = p.iter().map(|&x| div(x, p[col])).collect();
        for r in rest.iter_mut() {
            let f = r[col];
            for j in 0..width {
                r[j] = sub(r[j], f, p[j]);
            }
        }
        basis.push((col, p));
    }
    let mut t = row(set, None);
    for (col, p) in &basis {
        let f = t[*col];
        if f.0 != 0 {
            for j in 0..width {
                t[j] = sub(t[j], f, p[j]);
            }
        }
    }
    if t[..m].iter().any(|x| x.0 != 0) {
        return None;
    }
    // set = Σ −t_i·line_i: clear the denominators
    let alpha = t[m..].iter().fold(1, |l, x| l / gcd(l, x.1) * x.1);
    let delta = t[m..].iter().map(|x| -x.0 * (alpha / x.1)).collect();
    Some((delta, alpha))
}

/// The meaning of an order cell's order literals over its values
/// (`--encoding order`, for a VeriPB proof): `ge[i] = [F ≥ i+2] ⇔
/// Σ_{u ≥ i+2} [F = u] ≥ 1` (`lits[u−1] = [F = u]`).
pub fn order_definitions(lits: &[Lit], ge: &[Lit]) -> Vec<Definition> {
    ge.iter()
        .enumerate()
        .map(|(i, &l)| Definition {
            lit: l,
            meaning: Linear::count_at_least(&lits[i + 1..], 1),
        })
        .collect()
}

/// The lemmas behind a node of a unary line sum over order cells
/// (`--encoding order`): the cells `part` of `line` sum to within
/// `[lo, hi]`, stated over their order literals (`Σ_part F = |part| + Σ
/// [F ≥ v]`). Each bound is the line's sum (the whole line), or the sum of
/// `k` distinct values (at least `1 + … + k`, at most the `k` largest:
/// [`distinct_sum`]), or the line's sum less the other cells' distinct
/// bound; then each cell's "one value" shifts `v` to `v − 1`, and the
/// order literals' definition halves replace the values (the tight half
/// `[F ≥ v] ≥ Σ_{u ≥ v} [F = u]` for a lower bound). Trivial bounds are
/// left out.
pub fn order_sum_lemmas(
    ints: &[IntVar],
    direct: &[Vec<Lit>],
    line: &[usize],
    part: &[usize],
    lo: i64,
    hi: i64,
    target: i64,
) -> Vec<LemmaEntry> {
    let m = direct.first().map_or(0, Vec::len) as i64;
    let k = part.len() as i64;
    let rest: Vec<usize> = line.iter().copied().filter(|c| !part.contains(c)).collect();
    let r = rest.len() as i64;
    let leaves: Vec<Lit> = part
        .iter()
        .flat_map(|&c| ints[c].order_lits().iter().copied())
        .collect();
    let whole = rest.is_empty();
    let n = (m as f64).sqrt().round() as usize;
    // whether a bound is the distinct values' alone (no line sum)
    let distinct_only = |upper: bool| {
        !whole
            && if upper {
                top(m, k) <= target - r * (r + 1) / 2
            } else {
                k * (k + 1) / 2 >= target - top(m, r)
            }
    };
    // the line's sum (α times, an implied set's: see set_sum_parts), then
    // `others` α times, divided by α; the halves α times
    let lemma = |upper: bool, others: Vec<Linear>, halves: Vec<(u64, Lit)>| {
        let (mut parts, alpha) = if !distinct_only(upper) {
            set_sum_parts(n, direct, line, target, upper)
        } else {
            (vec![], 1)
        };
        for _ in 0..alpha {
            parts.extend(others.iter().cloned());
        }
        let halves = halves.into_iter().map(|(a, l)| (a * alpha, l)).collect();
        (
            Lemma {
                parts,
                divisor: alpha,
            },
            halves,
        )
    };
    let mut out = vec![];
    if lo - k > 0 {
        let mut others = match (whole, distinct_only(false)) {
            (true, _) => vec![],
            (false, true) => distinct_sum(direct, part, false),
            (false, false) => distinct_sum(direct, &rest, true),
        };
        others.extend(part.iter().map(|&c| Linear::count_at_most(&direct[c], 1)));
        let (l, halves) = lemma(false, others, leaves.iter().map(|&l| (1, l)).collect());
        out.push((Linear::count_at_least(&leaves, lo - k), l, halves));
    }
    if hi - k < k * (m - 1) {
        let mut others = match (whole, distinct_only(true)) {
            (true, _) => vec![],
            (false, true) => distinct_sum(direct, part, true),
            (false, false) => distinct_sum(direct, &rest, false),
        };
        others.extend(part.iter().map(|&c| Linear::count_at_least(&direct[c], 1)));
        let (l, halves) = lemma(true, others, leaves.iter().map(|&l| (1, !l)).collect());
        out.push((Linear::count_at_most(&leaves, hi - k), l, halves));
    }
    out
}

/// The sum of `k + 1 … ` largest of `1..=m`: `k·m − k(k−1)/2`.
fn top(m: i64, k: i64) -> i64 {
    k * m - k * (k - 1) / 2
}

/// The constraints whose sum bounds the values of the distinct cells
/// `cells` (k of them, values `1..=m`): `Σ v·[F = v] ≥ 1 + … + k`
/// (`upper` false) is `k+1` times each cell's "at least one value", `k+1−v`
/// times "v is held at most once" (over these cells) for v ≤ k, and the
/// literal axioms `(v−k−1)·[F = v]` for v > k+1; `Σ v·[F = v] ≤` the k
/// largest (`upper`) likewise with "at most one value" `m−k` times, "v at
/// most once" `v−m+k` times for v > m−k and the axioms `(m−k−v)·[F = v]`
/// for v < m−k (linear-programming duality, in cutting planes).
fn distinct_sum(direct: &[Vec<Lit>], cells: &[usize], upper: bool) -> Vec<Linear> {
    let m = direct.first().map_or(0, Vec::len) as i64;
    let k = cells.len() as i64;
    let held = |v: i64| -> Linear {
        let lits: Vec<Lit> = cells.iter().map(|&c| direct[c][v as usize - 1]).collect();
        Linear::count_at_most(&lits, 1)
    };
    let (cell_times, per_cell): (i64, Count) = if upper {
        (m - k, Linear::count_at_most)
    } else {
        (k + 1, Linear::count_at_least)
    };
    let mut parts = vec![];
    for &c in cells {
        for _ in 0..cell_times {
            parts.push(per_cell(&direct[c], 1));
        }
    }
    let mut axioms = vec![];
    for v in 1..=m {
        let (held_times, axiom) = if upper {
            ((v - m + k).max(0), (m - k - v).max(0))
        } else {
            ((k + 1 - v).max(0), (v - k - 1).max(0))
        };
        for _ in 0..held_times {
            parts.push(held(v));
        }
        if axiom > 0 {
            axioms.extend(cells.iter().map(|&c| (axiom, direct[c][v as usize - 1])));
        }
    }
    if !axioms.is_empty() {
        parts.push(Linear::at_least(axioms, 0));
    }
    parts
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
) -> Vec<LemmaEntry> {
    let m = direct.first().map_or(0, Vec::len);
    let n = (m as f64).sqrt().round() as usize;
    let digit = |i: usize| if which == 0 { i / n } else { i % n };
    let column = |i: usize| -> Vec<Lit> { direct.iter().map(|cell| cell[i]).collect() };
    let values: Vec<usize> = (0..m).filter(|&i| digit(i) == d).collect();
    // each value of the digit held (at most | at least) once, and for d = 0
    // each cell's "one value" the other way
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_sets_are_combinations_of_the_lines() {
        let n = 4;
        let ls = lines(n);
        for set in super::super::encode::implied_sets(n).unwrap() {
            let (delta, alpha) = line_combination(n, &set).expect("implied");
            assert!(alpha > 0);
            for c in 0..n * n {
                let got: i128 = ls
                    .iter()
                    .zip(&delta)
                    .filter(|(l, _)| l.contains(&c))
                    .map(|(_, d)| d)
                    .sum();
                assert_eq!(
                    got,
                    alpha * i128::from(set.contains(&c)),
                    "{set:?}, cell {c}"
                );
            }
            // Σ δ = α: the set sums to S
            assert_eq!(delta.iter().sum::<i128>(), alpha);
        }
        assert!(line_combination(n, &[0, 1, 4, 5]).is_none());
        assert_eq!(line_combination(n, &[0, 1, 2, 3]).map(|(_, a)| a), Some(1));
    }
}
