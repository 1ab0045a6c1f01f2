//! The VeriPB derivation of magic squares' order constraints
//! (`--symmetry order`, `--symmetry diagonals`, with or without
//! `--complement`) from the PB model of [`super::opb`], by the dominance
//! rule of Bogaerts, Gocht, McCreesh & Nordström, "Certified Dominance and
//! Symmetry Breaking for Combinatorial Optimisation" (JAIR 77, 2023): the
//! symmetry block a `--certify` run's proof starts with.

use puzzlesat_encodings::dominance::{
    derive_chain, order_prelude, order_var, Big, ChainSteps, ProofLines, SymmetryProof,
};
use puzzlesat_encodings::lex::LexChain;
use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::perm::Perm;
use puzzlesat_encodings::proof::{self, Coef, Constraint, PolSum, Ref, Step, Value, Var, Witness};
use puzzlesat_encodings::Lit;

use super::encode::{order_pairs, CellMap, CellPair, Options};
use super::model::Givens;
use super::opb::model;
use super::reference::lines;

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
    let (lt, sums) = order_pairs(map.n, o);
    if lt.len() != map.less.len() {
        return Err("the posted order constraints are not the options'".into());
    }
    let mut proof = OrderProof::new(map, &lt, &sums, givens, name)?;
    let prelude = proof.prelude();
    for (idx, ((a, b), chain)) in map.less.iter().enumerate() {
        if (*a, *b) != lt[idx] {
            return Err("the posted order constraints are not the options'".into());
        }
        proof.less_or_equal(*a, *b, chain.as_ref())?;
    }
    for &(a, b) in &sums {
        proof.complement_sum(a, b)?;
    }
    Ok(SymmetryProof {
        early: ProofLines::default(),
        prelude,
        before: ProofLines::default(),
        block: proof.block,
        objective_link: None,
    })
}

/// The state [`order_constraints_proof`] writes with: the square, the
/// symmetry group, the keys of the order, the model's constraint ids, and
/// the block so far with the cells' bounds it has derived.
struct OrderProof<'a> {
    map: &'a CellMap,
    name: &'a dyn Fn(Lit) -> String,
    /// n²
    cells: usize,
    /// n²+1: the complement's sum, and K
    big_n: i128,
    group: Vec<Perm>,
    /// the smaller sides of the order constraints, in order
    keys: Vec<usize>,
    /// the PB model (its constraint ids)
    model: PbModel,
    all_lines: Vec<Vec<usize>>,
    block: ProofLines,
    /// the labels of the bounds derived so far
    have: std::collections::HashSet<String>,
}

impl<'a> OrderProof<'a> {
    fn new(
        map: &'a CellMap,
        lt: &[CellPair],
        sums: &[CellPair],
        givens: &Givens,
        name: &'a dyn Fn(Lit) -> String,
    ) -> Result<Self, String> {
        let n = map.n;
        let group = super::symmetry::maps(n).ok_or_else(|| {
            format!(
                "no symmetry group for n = {n} (more than {})",
                super::symmetry::MAX_GROUP_ORDER
            )
        })?;
        // the keys, in order
        let mut keys: Vec<usize> = vec![];
        for &(a, _) in lt {
            if !keys.contains(&a) {
                keys.push(a);
            }
        }
        if sums.iter().any(|&(a, _)| keys.first() != Some(&a)) {
            return Err("a complement constraint not on the first key".into());
        }
        Ok(OrderProof {
            map,
            name,
            cells: n * n,
            big_n: (n * n) as i128 + 1,
            group,
            keys,
            model: model(givens),
            all_lines: lines(n),
            block: ProofLines::default(),
            have: Default::default(),
        })
    }

    /// The weight K^(r−1−i) of key i.
    fn weight(&self, i: usize) -> i128 {
        self.big_n.pow((self.keys.len() - 1 - i) as u32)
    }

    /// The model's "at least one value" of cell c.
    fn alo(&self, c: usize) -> usize {
        self.model.first_id(c)
    }

    /// The model's "at most one value" of cell c.
    fn amo(&self, c: usize) -> usize {
        self.model.first_id(c) + 1
    }

    /// The model's `≥ S` of line l (its `≤ S` is the next id).
    fn line_ge(&self, l: usize) -> usize {
        self.model.first_id(2 * self.cells + l)
    }

    /// `[F_c = v]`.
    fn lit(&self, c: usize, v: usize) -> proof::Lit {
        proof::Lit::from_text((self.name)(self.map.direct[c][v - 1]))
    }

    /// The order: the keys' values, weighted.
    fn prelude(&self) -> Vec<Step> {
        let mut def = vec![];
        let mut loaded = vec![];
        let mut j = 0;
        for (i, &k) in self.keys.iter().enumerate() {
            for v in 1..=self.cells {
                let w = self.weight(i) * v as i128;
                let w = Big::from_u128(w as u128);
                def.push((Coef::Signed(false, w.clone()), order_var("u", j)));
                def.push((Coef::Signed(true, w), order_var("v", j)));
                loaded.push(self.lit(k, v));
                j += 1;
            }
        }
        order_prelude("keys", def, loaded)
    }

    /// A bound of a cell's (possibly complemented) value, derived once
    /// each: `@ub<c>`: Σ v·[F_c = v] ≤ n², `@ubc<c>`: Σ (n²+1−v)·[F_c = v]
    /// ≤ n², `@lb<c>`: Σ v·[F_c = v] ≥ 1.
    fn bound(&mut self, kind: &str, c: usize) -> Ref {
        let label = format!("{kind}{c}");
        if self.have.insert(label.clone()) {
            let cells = self.cells;
            let step = match kind {
                "lb" => {
                    let terms = (1..=cells).map(|v| (v as u64, self.lit(c, v)));
                    let alo_c = Ref::Id(self.alo(c) as u64);
                    Step::Ia(Constraint::at_least(terms, 1), Some(alo_c))
                }
                _ => {
                    // amo·n² plus (n² − coefficient)·[F_c = v]
                    let mut pol = PolSum::new();
                    pol.add_scaled(Ref::Id(self.amo(c) as u64), Big::from_u64(cells as u64));
                    for v in 1..=cells {
                        let coef = if kind == "ub" { v } else { cells + 1 - v };
                        let extra = cells - coef;
                        if extra > 0 {
                            pol.add_axiom(self.lit(c, v), Big::from_u64(extra as u64));
                        }
                    }
                    pol.step()
                }
            };
            self.block.add_ids(step.labelled(label.clone()), 1);
        }
        Ref::Label(label)
    }

    /// A group element fixing the keys before `p` and mapping a to b.
    fn find(&self, p: usize, a: usize, b: usize) -> Result<Perm, String> {
        self.group
            .iter()
            .find(|g| {
                g.apply(a as u32) as usize == b
                    && self.keys[..p]
                        .iter()
                        .all(|&k| g.apply(k as u32) as usize == k)
            })
            .cloned()
            .ok_or_else(|| format!("no symmetry maps cell {a} to {b} and fixes the keys before it"))
    }

    /// `±v·[F_c = v]` for each value v.
    fn value_terms(&self, c: usize, positive: bool) -> Vec<(Coef, proof::Lit)> {
        (1..=self.cells)
            .map(|v| {
                (
                    Coef::Signed(positive, Big::from_u64(v as u64)),
                    self.lit(c, v),
                )
            })
            .collect()
    }

    /// `F_a ≤ F_b` (a a key) by `dom`, labelled `@lt`, then the CNF's
    /// clauses of `F_a < F_b` from it.
    fn less_or_equal(
        &mut self,
        a: usize,
        b: usize,
        chain: Option<&LexChain>,
    ) -> Result<(), String> {
        let p = self.keys.iter().position(|&k| k == a).expect("a is a key");
        let g = self.find(p, a, b)?;
        // the later keys g moves: their images' upper bounds and their lower bounds
        let mut goal = PolSum::new();
        goal.add(Ref::Last(1))
            .add_scaled(Ref::Label("nc".into()), big(self.weight(p)));
        for i in p + 1..self.keys.len() {
            let k = self.keys[i];
            let gk = g.apply(k as u32) as usize;
            if gk != k {
                let ub = self.bound("ub", gk);
                let lb = self.bound("lb", k);
                goal.add_scaled(ub, big(self.weight(i)))
                    .add_scaled(lb, big(self.weight(i)));
            }
        }
        let mut terms = self.value_terms(b, true);
        terms.extend(self.value_terms(a, false));
        let witness = witness(self.map, &g, false, self.name);
        let mut steps = dom(terms, 0, witness, &goal, vec![]);
        steps[0] = steps[0].clone().labelled("lt");
        self.block.add_ids(Step::Inline(steps), 7);
        let (map, name) = (self.map, self.name);
        let (alo_a, amo_b) = (self.alo(a), self.amo(b));
        match chain {
            None if map.ints.is_none() => {
                for v in 0..self.cells {
                    for w in 0..=v {
                        let clause = vec![!map.direct[a][v], !map.direct[b][w]];
                        self.block.add_ids(rup(&clause, name), 1);
                        self.block.derived.push((clause, self.block.ids));
                    }
                }
            }
            Some(chain) => digit_chain(map, a, b, chain, alo_a, amo_b, name, &mut self.block)?,
            None => order_cells_lt(map, a, b, alo_a, amo_b, name, &mut self.block)?,
        }
        Ok(())
    }

    /// `F_a + F_b ≤ n²+1` (a the first key, `--complement`) by `dom` with
    /// the complement, then its clauses `¬[F_a = v] ∨ ¬[F_b = w]` for
    /// v + w > n²+1 by RUP.
    fn complement_sum(&mut self, a: usize, b: usize) -> Result<(), String> {
        let (big_n, cells) = (self.big_n, self.cells);
        let g = self.find(0, a, b)?;
        let w0 = self.weight(0);
        let mut goal = PolSum::new();
        goal.add(Ref::Last(1))
            .add_scaled(Ref::Label("nc".into()), big(w0))
            .add_scaled(Ref::Id(self.amo(b) as u64), big(w0 * big_n));
        for i in 1..self.keys.len() {
            let k = self.keys[i];
            let gk = g.apply(k as u32) as usize;
            let ub = self.bound("ubc", gk);
            let lb = self.bound("lb", k);
            goal.add_scaled(ub, big(self.weight(i)))
                .add_scaled(lb, big(self.weight(i)));
        }
        let mut terms = self.value_terms(a, false);
        terms.extend(self.value_terms(b, false));
        let witness = witness(self.map, &g, true, self.name);
        let line_goals = self.complemented_line_goals(&g)?;
        let goals = line_goals.len() / 3;
        let steps = dom(terms, -(big_n as i64), witness, &goal, line_goals);
        self.block.add_ids(Step::Inline(steps), 7 + 2 * goals);
        // ¬[F_a = v] ∨ ¬[F_b = w] for v + w > n²+1
        for v in 1..=cells {
            for w in (cells + 2 - v).max(1)..=cells {
                let clause = vec![!self.map.direct[a][v - 1], !self.map.direct[b][w - 1]];
                self.block.add_ids(rup(&clause, self.name), 1);
                self.block.derived.push((clause, self.block.ids));
            }
        }
        Ok(())
    }

    /// The proof goals of the lines' sums under g with the complement:
    /// each line's image is n²+1 times the image line's "one value" minus
    /// its sum.
    fn complemented_line_goals(&self, g: &Perm) -> Result<Vec<Step>, String> {
        let mut line_goals = vec![];
        for (l, line) in self.all_lines.iter().enumerate() {
            let mut image: Vec<usize> = line.iter().map(|&c| g.apply(c as u32) as usize).collect();
            image.sort_unstable();
            let l2 = self
                .all_lines
                .iter()
                .position(|x| {
                    let mut x = x.clone();
                    x.sort_unstable();
                    x == image
                })
                .ok_or("a symmetry maps a line onto no line")?;
            // the goal of line `of`: n²+1 times the image's `one` minus the
            // image line's other half
            let mut line_goal = |of: usize, one: &dyn Fn(usize) -> usize, other: usize| {
                let mut pol = PolSum::new();
                pol.add(Ref::Last(1));
                for &c in &image {
                    pol.add_scaled(Ref::Id(one(c) as u64), big(self.big_n));
                }
                pol.add(Ref::Id(other as u64));
                line_goals.extend([
                    Step::ProofGoalOf(Ref::Id(of as u64)),
                    pol.step(),
                    Step::Qed(Some(Ref::Last(1))),
                ]);
            };
            line_goal(self.line_ge(l), &|c| self.alo(c), self.line_ge(l2) + 1);
            line_goal(self.line_ge(l) + 1, &|c| self.amo(c), self.line_ge(l2));
        }
        Ok(line_goals)
    }
}

/// `v·F ≥ degree` by `dom` and its subproof: `@nc` the negated
/// constraint, the two goals of the order by `goal`, then `extra` (the
/// lines' goals).
fn dom(
    terms: Vec<(Coef, proof::Lit)>,
    degree: i64,
    witness: Witness,
    goal: &PolSum,
    extra: Vec<Step>,
) -> Vec<Step> {
    let mut nc = PolSum::new();
    nc.add(Ref::Last(1));
    let mut steps = vec![
        Step::Dom(Constraint { terms, degree }, witness, true),
        nc.step().labelled("nc"),
    ];
    for g in [1, 2] {
        steps.extend([
            Step::ProofGoal(g),
            goal.clone().step(),
            Step::Qed(Some(Ref::Last(1))),
        ]);
    }
    steps.extend(extra);
    steps.push(Step::Qed(None));
    steps
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
    let mut pol = PolSum::new();
    pol.add(label("lt"))
        .add(Ref::Id(alo_a as u64))
        .add(Ref::Id(amo_b as u64));
    for (i, (&yb, &ya)) in ys.iter().zip(xs).enumerate() {
        // [F ≥ i+2] over the values i+2.. (0-based indices i+1..)
        let s: Vec<usize> = (i + 1..cells).collect();
        if s.len() == 1 && map.direct[b][s[0]] == yb {
            continue; // [F ≥ n²] is [F = n²]: both halves trivial
        }
        for l in order_halves(map, (a, ya), (b, yb), &s, &i.to_string(), name, block) {
            pol.add(label(&l));
        }
    }
    block.add_ids(pol.step().labelled("ordL"), 1);
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
        block.add_ids(rup(&clause, name), 1);
        block.derived.push((clause, block.ids));
    }
    block.lines.push(Step::Del(vec![label("ordL")]));
    Ok(())
}

/// The witness of the cell map `g` (the new `[F_c = v]` is the old
/// `[F_g(c) = v]`), composed with the complement `v ↦ n²+1−v` if `comp`.
fn witness(map: &CellMap, g: &Perm, comp: bool, name: &dyn Fn(Lit) -> String) -> Witness {
    let cells = map.n * map.n;
    let mut out = vec![];
    for c in 0..cells {
        let gc = g.apply(c as u32) as usize;
        for v in 0..cells {
            let w = if comp { cells - 1 - v } else { v };
            if (gc, w) != (c, v) {
                out.push((
                    Var(name(map.direct[c][v])),
                    Value::Lit(proof::Lit::from_text(name(map.direct[gc][w]))),
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
    let mut pol = PolSum::new();
    pol.add(label("lt"))
        .add(Ref::Id(alo_a as u64))
        .add(Ref::Id(amo_b as u64));
    for (which, (ys_b, ys_a)) in digits[b].iter().zip(&digits[a]).enumerate() {
        let w = if which == 0 { n } else { 1 };
        for (k, (&yb, &ya)) in ys_b.iter().zip(ys_a).enumerate() {
            let s = set(which, k);
            let tag = format!("{which}_{k}");
            for l in order_halves(map, (a, ya), (b, yb), &s, &tag, name, block) {
                pol.add_times(label(&l), w as u64);
            }
        }
    }
    block.add_ids(pol.step().labelled("lexL"), 1);
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
        block.add_ids(rup(&[!last, !map.direct[a][v]], name), 1);
    }
    block.add_ids(rup(&[!last], name), 1);
    block.derived.push((vec![!last], block.ids));
    Ok(())
}

/// The definition halves of the order literals `y_a` of cell a and `y_b`
/// of cell b over the values `s` (0-based value indices; `y` is true when
/// the cell's value is in `s`), found in the database by `ia`: b's tight
/// half `y_b + Σ_S ¬[F_b = v] ≥ |S|` (labelled `tb{tag}`) and a's half
/// `¬y_a + Σ_S [F_a = v] ≥ 1` (`ra{tag}`). Returns the two labels.
fn order_halves(
    map: &CellMap,
    (a, ya): (usize, Lit),
    (b, yb): (usize, Lit),
    s: &[usize],
    tag: &str,
    name: &dyn Fn(Lit) -> String,
    block: &mut ProofLines,
) -> [String; 2] {
    let values = |c: usize| s.iter().map(move |&u| map.direct[c][u]);
    let (tb, ra) = (format!("tb{tag}"), format!("ra{tag}"));
    let tight = Constraint {
        degree: s.len() as i64,
        ..Constraint::clause(names_of(
            name,
            [yb].into_iter().chain(values(b).map(|l| !l)),
        ))
    };
    block.add_ids(Step::Ia(tight, None).labelled(tb.clone()), 1);
    let half = Constraint::clause(names_of(name, [!ya].into_iter().chain(values(a))));
    block.add_ids(Step::Ia(half, None).labelled(ra.clone()), 1);
    [tb, ra]
}

/// The proof's names of `lits`.
fn names_of(name: &dyn Fn(Lit) -> String, lits: impl IntoIterator<Item = Lit>) -> Vec<proof::Lit> {
    lits.into_iter()
        .map(|l| proof::Lit::from_text(name(l)))
        .collect()
}

/// The RUP step of the clause of `clause`.
fn rup(clause: &[Lit], name: &dyn Fn(Lit) -> String) -> Step {
    Step::rup_clause(names_of(name, clause.iter().copied()))
}

/// The reference to the constraint labelled `name`.
fn label(name: &str) -> Ref {
    Ref::Label(name.to_string())
}

/// A (non-negative) weight of the order.
fn big(w: i128) -> Big {
    Big::from_u128(w as u128)
}
