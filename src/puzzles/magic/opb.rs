//! The PB model of a magic square, from the definition (as [`super::check`]
//! reads it): a variable `F<r>_<c>_eq<v>` per cell and value ("cell (r, c)
//! holds v", 1-based, the name the encoder gives the same literal); every
//! cell holds exactly one value of `1..=n²`, every value is held exactly
//! once, every row, column and main diagonal sums to `S = n(n²+1)/2`
//! (`Σ_cells Σ_v v·[F = v] = S`), and a given cell holds its value.

use puzzlesat_encodings::dominance::{
    derive_chain, order_prelude, Big, ChainSteps, ProofLines, SymmetryProof,
};
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::lex::LexChain;
use puzzlesat_encodings::pbmodel::Relation;
use puzzlesat_encodings::perm::Perm;
use puzzlesat_encodings::provenance::{Definition, Lemma, Linear};
use puzzlesat_encodings::{Lit, PbLit, PbModel};

use super::encode::{order_pairs, CellMap, Options};
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

/// The VeriPB derivation of the order constraints of `--symmetry order`
/// and `--symmetry diagonals` ([`order_pairs`]), with or without
/// `--complement`, over direct or digit cells, by dominance (Bogaerts,
/// Gocht, McCreesh & Nordström, JAIR 2023).
///
/// **The order.** The keys are the cells `k_0, k_1, …` that are smaller
/// sides of the `F_a < F_b` (F11 then Fn1 for `order`; F11, Fn1 and the
/// rings' F_dd for `diagonals`), and an assignment is better when
/// `Σ_i K^(r−1−i)·F_{k_i}` is smaller (`K = n²+1`, so the keys compare
/// lexicographically, F_{k_0} first).
///
/// **Each `F_a ≤ F_b`** (a the key `k_p`) by `dom` with the witness of a
/// symmetry `g` of the square ([`super::symmetry::maps`]) that fixes the
/// keys before `k_p` and brings F_b to a's place: when `F_a > F_b`, the
/// image has a smaller key `p` and the same keys before it. The proof goal
/// "the image is better" is the negated goal plus `K^(r−1−p)` times the
/// negated constraint plus, for each later key that `g` moves, its image's
/// upper bound `n²` and its own lower bound 1 (each from the cell's "one
/// value"), times its weight: the later keys make up at most
/// `K^(r−1−p) − 1`. **Each `F_a + F_b ≤ n²+1`** (`--complement`, a = F11)
/// likewise with the witness `F ↦ n²+1 − F` composed with a map that brings
/// F_b to F11's place; the complemented line sums are not syntactically
/// the model's, so each has a proof goal: the line's image is `n²+1` times
/// the cells' "one value" minus the image line's sum.
///
/// **The CNF's clauses.** Over direct cells `¬[F_a = v] ∨ ¬[F_b = w]` (w ≤
/// v) by RUP, from the derived constraint (w < v) or "v is held once"
/// (w = v); the complement's clauses (v + w > n²+1) likewise. Over digits,
/// `F_a ≤ F_b` becomes the lex comparison of the digits' order literals
/// weighted n (high) and 1 (low): the derived constraint plus a's "at
/// least one value", b's "at most one value" and the definition halves of
/// the digits' order literals (a's `[d ≥ k] ≤ Σ [F = v]`, b's tight
/// `[d ≥ k] ≥ Σ [F = v]`, found by `ia`) is `Σ w·([b's] − [a's]) ≥ 0`,
/// from which [`derive_chain`] derives the chain; the strict chain's last
/// literal (the digits all equal) is refuted value by value by RUP (equal
/// digits, equal values: "v is held once").
pub fn order_constraints_proof(
    map: &CellMap,
    o: &Options,
    givens: &Givens,
    name: &dyn Fn(Lit) -> String,
) -> Result<SymmetryProof, String> {
    let n = map.n;
    let cells = n * n;
    let big_n = cells as i128 + 1; // n²+1: the complement's sum, and K
    let (lt, sums) = order_pairs(n, o);
    if lt.len() != map.less.len() {
        return Err("the posted order constraints are not the options'".into());
    }
    let group = super::symmetry::maps(n).ok_or_else(|| {
        format!(
            "no symmetry group for n = {n} (more than {})",
            super::symmetry::MAX_GROUP_ORDER
        )
    })?;
    // the keys, in order, and their weights K^(r−1−i)
    let mut keys: Vec<usize> = vec![];
    for &(a, _) in &lt {
        if !keys.contains(&a) {
            keys.push(a);
        }
    }
    if sums.iter().any(|&(a, _)| keys.first() != Some(&a)) {
        return Err("a complement constraint not on the first key".into());
    }
    let r = keys.len();
    let weight = |i: usize| big_n.pow((r - 1 - i) as u32);
    // the model's constraint ids: each cell's "at least / at most one
    // value", each line's `≥ S` and `≤ S`
    let m = model(givens);
    let alo = |c: usize| m.first_id(c);
    let amo = |c: usize| m.first_id(c) + 1;
    let all_lines = lines(n);
    let line_ge = |l: usize| m.first_id(2 * cells + l);
    let lit = |c: usize, v: usize| name(map.direct[c][v - 1]);
    // the order: the keys' values, weighted
    let mut def = vec![];
    let mut loaded = vec![];
    let mut j = 0;
    for (i, &k) in keys.iter().enumerate() {
        for v in 1..=cells {
            let w = weight(i) * v as i128;
            def.push(format!("-{w} u{j}"));
            def.push(format!("+{w} v{j}"));
            loaded.push(lit(k, v));
            j += 1;
        }
    }
    let prelude = order_prelude("keys", &def, &loaded);
    let mut block = ProofLines::default();
    // bounds of a cell's (possibly complemented) value, derived once each:
    // `@ub<c>`: Σ v·[F_c = v] ≤ n², `@ubc<c>`: Σ (n²+1−v)·[F_c = v] ≤ n²,
    // `@lb<c>`: Σ v·[F_c = v] ≥ 1
    let mut have: std::collections::HashSet<String> = Default::default();
    let mut bound = |block: &mut ProofLines, kind: &str, c: usize| -> String {
        let label = format!("@{kind}{c}");
        if have.insert(label.clone()) {
            let line = match kind {
                "lb" => {
                    let terms: Vec<String> =
                        (1..=cells).map(|v| format!("+{v} {}", lit(c, v))).collect();
                    format!("{label} ia {} >= 1 : {};", terms.join(" "), alo(c))
                }
                _ => {
                    // amo·n² plus (n² − coefficient)·[F_c = v]
                    let mut pol = format!("{label} pol {} {cells} *", amo(c));
                    for v in 1..=cells {
                        let coef = if kind == "ub" { v } else { cells + 1 - v };
                        let extra = cells - coef;
                        if extra > 0 {
                            pol.push_str(&format!(" {} {extra} * +", lit(c, v)));
                        }
                    }
                    pol.push(';');
                    pol
                }
            };
            block.add_ids(line, 1);
        }
        label
    };
    // a group element fixing the keys before `p` and mapping a to b
    let find = |p: usize, a: usize, b: usize| {
        group
            .iter()
            .find(|g| {
                g.apply(a as u32) as usize == b
                    && keys[..p].iter().all(|&k| g.apply(k as u32) as usize == k)
            })
            .ok_or_else(|| format!("no symmetry maps cell {a} to {b} and fixes the keys before it"))
    };
    let value_terms = |c: usize, sign: &str, comp: bool| -> Vec<String> {
        (1..=cells)
            .map(|v| {
                let coef = if comp { cells + 1 - v } else { v };
                format!("{sign}{coef} {}", lit(c, v))
            })
            .collect()
    };
    for (idx, ((a, b), chain)) in map.less.iter().enumerate() {
        if (*a, *b) != lt[idx] {
            return Err("the posted order constraints are not the options'".into());
        }
        let (a, b) = (*a, *b);
        let p = keys.iter().position(|&k| k == a).expect("a is a key");
        let g = find(p, a, b)?;
        // the later keys g moves: their images' upper bounds and their lower bounds
        let mut extra = String::new();
        for (i, &k) in keys.iter().enumerate().skip(p + 1) {
            let gk = g.apply(k as u32) as usize;
            if gk != k {
                let ub = bound(&mut block, "ub", gk);
                let lb = bound(&mut block, "lb", k);
                let w = weight(i);
                extra.push_str(&format!(" {ub} {w} * + {lb} {w} * +"));
            }
        }
        let mut terms = value_terms(b, "+", false);
        terms.extend(value_terms(a, "-", false));
        let witness = witness(map, g, false, name);
        let wp = weight(p);
        let goal = format!("pol -1 @nc {wp} * +{extra}; qed : -1;");
        block.add_ids(
            format!(
                "@lt dom {} >= 0 : {} : subproof @nc pol -1; proofgoal #1 {goal} proofgoal #2 {goal} qed;",
                terms.join(" "),
                witness.join(" ")
            ),
            7,
        );
        match chain {
            None if map.ints.is_none() => {
                for v in 0..cells {
                    for w in 0..=v {
                        let clause = vec![!map.direct[a][v], !map.direct[b][w]];
                        block.add_ids(
                            format!("rup +1 {} +1 {} >= 1;", name(clause[0]), name(clause[1])),
                            1,
                        );
                        block.derived.push((clause, block.ids));
                    }
                }
            }
            Some(chain) => digit_chain(map, a, b, chain, alo(a), amo(b), name, &mut block)?,
            None => order_cells_lt(map, a, b, alo(a), amo(b), name, &mut block)?,
        }
    }
    for &(a, b) in &sums {
        let g = find(0, a, b)?;
        let mut extra = String::new();
        for (i, &k) in keys.iter().enumerate().skip(1) {
            let gk = g.apply(k as u32) as usize;
            let ub = bound(&mut block, "ubc", gk);
            let lb = bound(&mut block, "lb", k);
            let w = weight(i);
            extra.push_str(&format!(" {ub} {w} * + {lb} {w} * +"));
        }
        let mut terms = value_terms(a, "-", false);
        terms.extend(value_terms(b, "-", false));
        let witness = witness(map, g, true, name);
        let w0 = weight(0);
        let goal = format!(
            "pol -1 @nc {w0} * + {} {} * +{extra}; qed : -1;",
            amo(b),
            w0 * big_n
        );
        // each line's image under g with the complement: n²+1 times the
        // image line's "one value" minus its sum
        let mut line_goals = vec![];
        for (l, line) in all_lines.iter().enumerate() {
            let mut image: Vec<usize> = line.iter().map(|&c| g.apply(c as u32) as usize).collect();
            image.sort_unstable();
            let l2 = all_lines
                .iter()
                .position(|x| {
                    let mut x = x.clone();
                    x.sort_unstable();
                    x == image
                })
                .ok_or("a symmetry maps a line onto no line")?;
            let ones = |one: &dyn Fn(usize) -> usize| -> String {
                image
                    .iter()
                    .map(|&c| format!(" {} {big_n} * +", one(c)))
                    .collect()
            };
            line_goals.push(format!(
                "proofgoal {} pol -1{} {} +; qed : -1;",
                line_ge(l),
                ones(&alo),
                line_ge(l2) + 1
            ));
            line_goals.push(format!(
                "proofgoal {} pol -1{} {} +; qed : -1;",
                line_ge(l) + 1,
                ones(&amo),
                line_ge(l2)
            ));
        }
        block.add_ids(
            format!(
                "dom {} >= -{big_n} : {} : subproof @nc pol -1; proofgoal #1 {goal} proofgoal #2 {goal} {} qed;",
                terms.join(" "),
                witness.join(" "),
                line_goals.join(" ")
            ),
            7 + 2 * line_goals.len(),
        );
        // ¬[F_a = v] ∨ ¬[F_b = w] for v + w > n²+1
        for v in 1..=cells {
            for w in (cells + 2 - v).max(1)..=cells {
                let clause = vec![!map.direct[a][v - 1], !map.direct[b][w - 1]];
                block.add_ids(
                    format!("rup +1 {} +1 {} >= 1;", name(clause[0]), name(clause[1])),
                    1,
                );
                block.derived.push((clause, block.ids));
            }
        }
    }
    Ok(SymmetryProof { prelude, block })
}

/// The clauses of `int::lt(F_a, F_b)` over order cells (`[F_a ≥ v] →
/// [F_b ≥ v+1]`, constants simplified as the CNF does), from the derived
/// `F_a ≤ F_b` (`@lt`): it plus a's "at least one value", b's "at most one
/// value" and the order literals' definition halves (b's tight ones, found
/// by `ia`) is `Σ_v ([F_b ≥ v] − [F_a ≥ v]) ≥ 0`; under a clause's
/// negation that propagates both cells to the same value (with the order
/// clauses), which "v is held once" refutes: each clause by RUP.
#[allow(clippy::too_many_arguments)]
fn order_cells_lt(
    map: &CellMap,
    a: usize,
    b: usize,
    alo_a: usize,
    amo_b: usize,
    name: &dyn Fn(Lit) -> String,
    block: &mut ProofLines,
) -> Result<(), String> {
    let ints = map
        .ints
        .as_ref()
        .ok_or("order cells without order literals")?;
    let cells = map.n * map.n;
    let (xs, ys) = (&ints[a], &ints[b]);
    if xs.len() + 1 != cells || ys.len() + 1 != cells {
        return Err("an order cell's order literals are not [F ≥ 2..n²]".into());
    }
    let mut pol = format!("@ordL pol @lt {alo_a} + {amo_b} +");
    for (i, (&yb, &ya)) in ys.iter().zip(xs).enumerate() {
        // [F ≥ i+2] over the values i+2.. (0-based indices i+1..)
        let s: Vec<usize> = (i + 1..cells).collect();
        let terms = |c: usize, negate: bool| -> String {
            s.iter()
                .map(|&u| {
                    let l = map.direct[c][u];
                    format!("+1 {}", name(if negate { !l } else { l }))
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        if s.len() == 1 && map.direct[b][s[0]] == yb {
            continue; // [F ≥ n²] is [F = n²]: both halves trivial
        }
        block.add_ids(
            format!(
                "@tb{i} ia +1 {} {} >= {};",
                name(yb),
                terms(b, true),
                s.len()
            ),
            1,
        );
        block.add_ids(
            format!("@ra{i} ia +1 {} {} >= 1;", name(!ya), terms(a, false)),
            1,
        );
        pol.push_str(&format!(" @tb{i} + @ra{i} +"));
    }
    pol.push(';');
    block.add_ids(pol, 1);
    // the clauses, as the CNF has them: [x ≥ v] for v ≤ 1 is true, for
    // v > n² false
    let ge = |lits: &[Lit], v: usize| -> Option<Option<Lit>> {
        match v {
            0 | 1 => Some(None),    // true
            v if v > cells => None, // false
            v => Some(Some(lits[v - 2])),
        }
    };
    for v in 0..=cells + 1 {
        let mut clause = vec![];
        match ge(xs, v) {
            None => continue, // ¬false: satisfied
            Some(Some(l)) => clause.push(!l),
            Some(None) => {}
        }
        match ge(ys, v + 1) {
            Some(None) => continue, // true: satisfied
            Some(Some(l)) => clause.push(l),
            None => {}
        }
        block.add_ids(
            format!(
                "rup {} >= 1;",
                clause
                    .iter()
                    .map(|&l| format!("+1 {}", name(l)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            1,
        );
        block.derived.push((clause, block.ids));
    }
    block.lines.push("del id @ordL;".to_string());
    Ok(())
}

/// The witness of the cell map `g` (the new `[F_c = v]` is the old
/// `[F_g(c) = v]`), composed with the complement `v ↦ n²+1−v` if `comp`.
fn witness(map: &CellMap, g: &Perm, comp: bool, name: &dyn Fn(Lit) -> String) -> Vec<String> {
    let cells = map.n * map.n;
    let mut out = vec![];
    for c in 0..cells {
        let gc = g.apply(c as u32) as usize;
        for v in 0..cells {
            let w = if comp { cells - 1 - v } else { v };
            if (gc, w) != (c, v) {
                out.push(format!(
                    "{} -> {}",
                    name(map.direct[c][v]),
                    name(map.direct[gc][w])
                ));
            }
        }
    }
    out
}

/// The clauses of the lex chain `F_a < F_b` over the digits' order
/// literals, from the derived `F_a ≤ F_b` (labelled `@lt`); see
/// [`order_constraints_proof`].
#[allow(clippy::too_many_arguments)]
fn digit_chain(
    map: &CellMap,
    a: usize,
    b: usize,
    chain: &LexChain,
    alo_a: usize,
    amo_b: usize,
    name: &dyn Fn(Lit) -> String,
    block: &mut ProofLines,
) -> Result<(), String> {
    let n = map.n;
    let cells = n * n;
    let digits = map.digits.as_ref().ok_or("a chain without digits")?;
    let lits = |c: usize| -> Vec<Lit> { digits[c].iter().flatten().copied().collect() };
    let (xs, ys) = (lits(a), lits(b));
    if chain.pairs
        != xs
            .iter()
            .copied()
            .zip(ys.iter().copied())
            .collect::<Vec<_>>()
        || !chain.strict
        || chain.chain.len() != xs.len()
    {
        return Err("the chain is not the strict comparison of the two cells' digits".into());
    }
    // the definition halves, found in the database by `ia`: for digit
    // `which` and order literal k (`[d ≥ k+1]`) the values S with a larger
    // digit (0-based value indices)
    let set = |which: usize, k: usize| -> Vec<usize> {
        (0..cells)
            .filter(|&i| (if which == 0 { i / n } else { i % n }) > k)
            .collect()
    };
    let mut pol = format!("@lexL pol @lt {alo_a} + {amo_b} +");
    for (which, (ys_b, ys_a)) in digits[b].iter().zip(&digits[a]).enumerate() {
        let w = if which == 0 { n } else { 1 };
        for (k, (&yb, &ya)) in ys_b.iter().zip(ys_a).enumerate() {
            let s = set(which, k);
            let terms = |c: usize, negate: bool| -> String {
                s.iter()
                    .map(|&i| {
                        let l = map.direct[c][i];
                        format!("+1 {}", name(if negate { !l } else { l }))
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            // b's tight half: [d ≥ k+1] + Σ_S ¬[F = v] ≥ |S|
            let (tb, ra) = (format!("@tb{which}_{k}"), format!("@ra{which}_{k}"));
            block.add_ids(
                format!("{tb} ia +1 {} {} >= {};", name(yb), terms(b, true), s.len()),
                1,
            );
            // a's half: ¬[d ≥ k+1] + Σ_S [F = v] ≥ 1
            block.add_ids(
                format!("{ra} ia +1 {} {} >= 1;", name(!ya), terms(a, false)),
                1,
            );
            for label in [tb, ra] {
                pol.push_str(&if w == 1 {
                    format!(" {label} +")
                } else {
                    format!(" {label} {w} * +")
                });
            }
        }
    }
    pol.push(';');
    block.add_ids(pol, 1);
    let positions: Vec<usize> = (0..xs.len()).collect();
    derive_chain(
        &ChainSteps {
            chain,
            positions: &positions,
            weight: &|j| Big::from_u64(if j < n - 1 { n as u64 } else { 1 }),
            skipped: &|_| None,
            hinted: false,
        },
        name,
        block,
    )?;
    // ¬a_m: the digits all equal, so the values too
    let last = *chain.chain.last().expect("a strict chain has literals");
    for v in 0..cells {
        block.add_ids(
            format!(
                "rup +1 {} +1 {} >= 1;",
                name(!last),
                name(!map.direct[a][v])
            ),
            1,
        );
    }
    block.add_ids(format!("rup +1 {} >= 1;", name(!last)), 1);
    block.derived.push((vec![!last], block.ids));
    Ok(())
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
            .flat_map(|&c| std::iter::repeat(count(&direct[c], 1)).take(alpha as usize))
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
            std::iter::repeat(part).take(d.unsigned_abs() as usize)
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
