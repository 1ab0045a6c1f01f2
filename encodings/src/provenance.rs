//! The definitions log: what each auxiliary variable of an encoding *means*,
//! so that a VeriPB proof can introduce it by redundance-based
//! strengthening and derive every clause of the encoding from the PB model
//! (Gocht, Martins, Nordström & Oertel, "Certified CNF Translations for
//! Pseudo-Boolean Solving", SAT 2022).
//!
//! An encoder that allocates an auxiliary literal `y` states its meaning as
//! a reified linear constraint over literals allocated before it,
//! `y ⇔ Σ a_i·l_i ≥ k` ([`Provenance::define`]); a proof introduces it by
//! the two halves `k·¬y + Σ a_i·l_i ≥ k` (witness `y → 0`) and
//! `(A−k+1)·y + Σ a_i·¬l_i ≥ A−k+1` (witness `y → 1`, `A = Σ a_i`). An
//! encoder may also say which constraint the clauses it is about to add
//! encode ([`Provenance::source`]): the proof then adds that constraint to
//! the sum it derives each of them by.
//!
//! Recording is off unless the database asks for it
//! ([`crate::Cnf::record_provenance`]): [`crate::ClauseDatabase::provenance`]
//! is `None` and encoders skip building the definitions.

use rustsat::types::Lit;

/// A linear constraint `Σ a_i·l_i ≥ bound` with positive coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Linear {
    /// the terms (coefficient > 0, literal)
    pub terms: Vec<(u64, Lit)>,
    /// the right-hand side
    pub bound: i64,
}

impl Linear {
    /// `Σ a_i·l_i ≥ bound`; a term with a negative coefficient is turned
    /// into one over the negated literal (`−a·l = a·¬l − a`), zero terms
    /// are dropped.
    pub fn at_least(terms: impl IntoIterator<Item = (i64, Lit)>, bound: i64) -> Self {
        let mut out = Linear {
            terms: vec![],
            bound,
        };
        for (a, l) in terms {
            match a {
                0 => {}
                a if a > 0 => out.terms.push((a as u64, l)),
                a => {
                    out.terms.push((a.unsigned_abs(), !l));
                    out.bound -= a; // bound + |a|
                }
            }
        }
        out
    }
    /// `Σ lits ≥ k`.
    pub fn count_at_least(lits: &[Lit], k: i64) -> Self {
        Linear::at_least(lits.iter().map(|&l| (1, l)), k)
    }
    /// `Σ lits ≤ k`, as `Σ ¬lits ≥ n − k`.
    pub fn count_at_most(lits: &[Lit], k: i64) -> Self {
        Linear::count_at_least(
            &lits.iter().map(|&l| !l).collect::<Vec<_>>(),
            lits.len() as i64 - k,
        )
    }
    /// `Σ a_i·l_i ≤ k`, as `Σ a_i·¬l_i ≥ A − k`.
    pub fn weighted_at_most(terms: &[(u64, Lit)], k: i64) -> Self {
        let total: u64 = terms.iter().map(|&(a, _)| a).sum();
        Linear {
            terms: terms.iter().map(|&(a, l)| (a, !l)).collect(),
            bound: total as i64 - k,
        }
    }
    /// The sum of the coefficients.
    pub fn total(&self) -> u64 {
        self.terms.iter().map(|&(a, _)| a).sum()
    }
    /// The negation `Σ a_i·l_i ≤ bound − 1`, as `Σ a_i·¬l_i ≥ A − bound + 1`.
    pub fn negation(&self) -> Linear {
        Linear {
            terms: self.terms.iter().map(|&(a, l)| (a, !l)).collect(),
            bound: self.total() as i64 - self.bound + 1,
        }
    }
    /// Whether an assignment (`value(l)`: is literal `l` true) satisfies it.
    pub fn holds(&self, value: impl Fn(Lit) -> bool) -> bool {
        let lhs: u64 = self
            .terms
            .iter()
            .filter(|&&(_, l)| value(l))
            .map(|&(a, _)| a)
            .sum();
        lhs as i64 >= self.bound
    }
}

/// `lit ⇔ meaning`, with `lit` a fresh literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// the defined literal (its variable is fresh at the definition)
    pub lit: Lit,
    /// what it means
    pub meaning: Linear,
}

/// An order-encoded integer as its encoder made it (`ge[i]` is
/// `[x ≥ lb+1+i]`): a proof whose model speaks of the *direct* literals
/// `[x = v]` defines the order literals from them instead
/// (`[x ≥ v] ⇔ Σ_{u ≥ v} [x = u] ≥ 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderInt {
    /// lower bound of the domain
    pub lb: i64,
    /// the order literals
    pub ge: Vec<Lit>,
    /// the fresh direct literals of the inner values, as created
    pub eq: Vec<(i64, Lit)>,
}

/// No source constraint.
pub const NO_SOURCE: u32 = u32::MAX;

/// How a proof derives an implied constraint (a redundant constraint an
/// encoder adds, e.g. a bound that averages the model's constraints): the
/// sum of `parts`, each implied by one constraint of the model (possibly
/// after a division), divided by `divisor`, implies it syntactically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lemma {
    /// the constraints summed, each implied by a model constraint
    pub parts: Vec<Linear>,
    /// the divisor of the sum (1: none)
    pub divisor: u64,
}

/// The log a recording database keeps: the definitions in the order they
/// were made, the source constraints, and for each clause the index of its
/// source ([`NO_SOURCE`] for none).
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// definitions, in the order of allocation
    pub definitions: Vec<Definition>,
    /// the constraints encoders said they encode
    pub sources: Vec<Linear>,
    /// the sources that are lemmas, not model constraints: by source
    /// index, how a proof derives it ([`Lemma`])
    pub lemmas: std::collections::HashMap<u32, Lemma>,
    /// per clause of the database, in order: its source, or [`NO_SOURCE`]
    pub clause_source: Vec<u32>,
    /// definitions over the model's variables of literals allocated
    /// before them (a proof writes these first; e.g. the digits of a cell
    /// whose model speaks of its values): see [`Provenance::define_first`]
    pub first: Vec<Definition>,
    /// per lemma source: the definition halves its derivation adds, each
    /// `(a, l)`: `a` times the half in which literal `l` occurs
    pub lemma_halves: std::collections::HashMap<u32, Vec<(u64, Lit)>>,
    /// a source that stands for a group: every source of the group (the
    /// clauses encode one of them, e.g. the two halves of an equality)
    pub groups: std::collections::HashMap<u32, Vec<u32>>,
    /// order-encoded integers, by creation
    pub ints: Vec<OrderInt>,
    /// the integer of each first order literal
    int_of: std::collections::HashMap<Lit, usize>,
    /// what inference knows so far
    inferred: Inferred,
    current: u32,
}

impl Provenance {
    /// An empty log.
    pub fn new() -> Self {
        Provenance {
            current: NO_SOURCE,
            ..Self::default()
        }
    }
    /// Records `lit ⇔ meaning`.
    pub fn define(&mut self, lit: Lit, meaning: Linear) {
        self.definitions.push(Definition { lit, meaning });
    }
    /// The clauses added from now on encode `c` (None: no stated source).
    pub fn source(&mut self, c: Option<Linear>) {
        self.current = match c {
            Some(c) => {
                self.sources.push(c);
                (self.sources.len() - 1) as u32
            }
            None => NO_SOURCE,
        };
    }
    /// The clauses added from now on encode `c`, a lemma the proof derives
    /// by `lemma` (not a constraint of the model).
    pub fn lemma(&mut self, c: Linear, lemma: Lemma) {
        self.source(Some(c));
        self.lemmas.insert(self.current, lemma);
    }
    /// Records `lit ⇔ meaning` for a literal allocated *before* the model
    /// variables `meaning` speaks of: a proof introduces it before every
    /// definition of the log (so that the log's own definition of the
    /// same literal, over other auxiliary literals, is not used).
    pub fn define_first(&mut self, lit: Lit, meaning: Linear) {
        self.first.push(Definition { lit, meaning });
    }
    /// The clauses added from now on encode one of the lemmas of `group`
    /// (each a constraint, how the model implies it, and the definition
    /// halves its derivation adds, see [`Provenance::lemma_halves`]).
    pub fn lemmas(&mut self, group: Vec<(Linear, Lemma, Vec<(u64, Lit)>)>) {
        let mut members = vec![];
        for (c, lemma, halves) in group {
            self.lemma(c, lemma);
            self.lemma_halves.insert(self.current, halves);
            members.push(self.current);
        }
        if let Some(&first) = members.first() {
            self.current = first;
            self.groups.insert(first, members);
        }
    }
    /// The sources clause `i` may encode (the members of its group, or its
    /// one source), with their indices.
    pub fn sources_of(&self, i: usize) -> Vec<(u32, &Linear)> {
        match self.clause_source.get(i) {
            Some(&s) if s != NO_SOURCE => self
                .groups
                .get(&s)
                .cloned()
                .unwrap_or_else(|| vec![s])
                .into_iter()
                .filter_map(|s| Some((s, self.sources.get(s as usize)?)))
                .collect(),
            _ => vec![],
        }
    }
    /// The lemma behind source `s`, if it is one.
    pub fn lemma_of(&self, s: u32) -> Option<&Lemma> {
        self.lemmas.get(&s)
    }
    /// An order-encoded integer `x` (lower bound `lb`, order literals
    /// `ge`) as a count: its leaves and a base with `x = base + Σ leaves`
    /// — the leaves of its order literals' definitions when they count
    /// (a sum built by [`Provenance::define_sum`]), else its own order
    /// literals.
    pub fn count_of(&self, lb: i64, ge: &[Lit]) -> (std::collections::BTreeMap<Lit, u64>, i64) {
        // a sum's outputs only if the literals are its consecutive ones (not,
        // say, a square's repeated `[n ≥ ⌈√k⌉]`) up to the leaves' total
        // (not a sum capped below it)
        let first = ge.first().and_then(|l| self.inferred.get(l));
        let consecutive = first.is_some_and(|(leaves, thr)| {
            let total: u64 = leaves.values().sum();
            thr + ge.len() as u64 > total
                && ge.iter().enumerate().all(|(i, l)| {
                    self.inferred
                        .get(l)
                        .is_some_and(|(o, t)| o == leaves && *t == thr + i as u64)
                })
        });
        match first {
            Some((leaves, thr)) if consecutive => (leaves.clone(), lb + 1 - *thr as i64),
            _ => {
                // each order literal counts 1 (a repeated one as often)
                let mut own = std::collections::BTreeMap::new();
                for &l in ge {
                    *own.entry(l).or_insert(0) += 1;
                }
                (own, lb)
            }
        }
    }
    /// Defines the order literals `ge` (values `lb+1, …`) of a sum over the
    /// leaves `leaves` with `sum = base + Σ leaves` (capped at the last
    /// value): `[sum ≥ v] ⇔ Σ leaves ≥ v − base`.
    pub fn define_sum(
        &mut self,
        lb: i64,
        ge: &[Lit],
        leaves: &std::collections::BTreeMap<Lit, u64>,
        base: i64,
    ) {
        for (i, &l) in ge.iter().enumerate() {
            let thr = lb + 1 + i as i64 - base;
            if thr < 1 {
                continue;
            }
            self.define(
                l,
                Linear {
                    terms: leaves.iter().map(|(&l, &w)| (w, l)).collect(),
                    bound: thr,
                },
            );
            self.inferred.insert(l, (leaves.clone(), thr as u64));
        }
    }
    /// Records an order-encoded integer.
    pub fn int_var(&mut self, lb: i64, ge: &[Lit]) {
        if let Some(&first) = ge.first() {
            self.int_of.insert(first, self.ints.len());
            self.ints.push(OrderInt {
                lb,
                ge: ge.to_vec(),
                eq: vec![],
            });
        }
    }
    /// Records the fresh direct literal `l = [x = v]` of the integer whose
    /// first order literal is `first`, and its definition
    /// `l ⇔ [x ≥ v] ∧ ¬[x ≥ v+1]`.
    pub fn direct(&mut self, first: Lit, v: i64, l: Lit, ge_v: Lit, ge_next: Lit) {
        if let Some(&i) = self.int_of.get(&first) {
            self.ints[i].eq.push((v, l));
        }
        self.define(l, Linear::count_at_least(&[ge_v, !ge_next], 2));
    }
    /// Records the meaning of the auxiliary variables of clauses an
    /// encoder wrote (RustSAT's totalizer, generalized totalizer, ladder):
    /// see [`infer_upward`].
    pub fn infer(&mut self, clauses: &[Vec<Lit>], first_new: u32, weight: &dyn Fn(Lit) -> u64) {
        for d in infer_upward(clauses, first_new, weight, &mut self.inferred) {
            self.definitions.push(d);
        }
    }
    /// Notes that a clause was added (called by the database).
    pub fn clause_added(&mut self) {
        self.clause_source.push(self.current);
    }
    /// The source constraint of clause `i`, if one was stated.
    pub fn source_of(&self, i: usize) -> Option<&Linear> {
        match self.clause_source.get(i) {
            Some(&s) if s != NO_SOURCE => self.sources.get(s as usize),
            _ => None,
        }
    }
}

/// What [`infer_upward`] knows: each inferred literal's leaves and
/// threshold.
pub type Inferred = std::collections::HashMap<Lit, (std::collections::BTreeMap<Lit, u64>, u64)>;

/// The meaning of the auxiliary variables (index ≥ `first_new`) of an
/// encoding whose clauses count *upwards*, inferred from its clauses: a
/// clause `¬a_1 ∨ … ∨ ¬a_m ∨ c` (c auxiliary, positive) says that `c`
/// holds once its inputs `a_i` do, so `c` counts the leaves under the
/// `a_i` (an input literal `l` is a leaf of weight `weight(l)`) and its
/// threshold is the least `Σ threshold(a_i)` over such clauses. This is
/// the shape of the totalizer, the generalized totalizer and the ladder;
/// each auxiliary variable gets `c ⇔ Σ leaves(c) ≥ threshold(c)`. An
/// inference that does not fit an encoding yields definitions whose
/// clauses then fail to derive: the proof check refuses them.
/// `known` holds what earlier calls inferred (an incremental encoder's
/// later clauses build on its earlier variables); it is extended.
pub fn infer_upward(
    clauses: &[Vec<Lit>],
    first_new: u32,
    weight: &dyn Fn(Lit) -> u64,
    known: &mut Inferred,
) -> Vec<Definition> {
    use std::collections::{BTreeMap, HashMap};
    let is_new = |l: Lit| l.var().idx32() >= first_new;
    let is_aux = |l: Lit, known: &Inferred| is_new(l) || known.contains_key(&l);
    let upward: Vec<(Lit, Vec<Lit>)> = clauses
        .iter()
        .filter_map(|c| {
            let pos: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&l| is_new(l) && l.is_pos())
                .collect();
            match pos[..] {
                [head] => Some((
                    head,
                    c.iter()
                        .filter(|&&l| l != head)
                        .map(|&l| !l)
                        .collect::<Vec<Lit>>(),
                )),
                _ => None,
            }
        })
        .filter(|(_, body)| !body.is_empty())
        .collect();
    let mut order = vec![];
    loop {
        let mut changed = false;
        let mut next: HashMap<Lit, (BTreeMap<Lit, u64>, u64)> = HashMap::new();
        for (head, body) in &upward {
            let mut leaves = BTreeMap::new();
            let mut thr = 0;
            let mut ok = true;
            for &a in body {
                if is_aux(a, known) {
                    match known.get(&a) {
                        Some((l, t)) => {
                            leaves.extend(l.iter().map(|(&k, &v)| (k, v)));
                            thr += t;
                        }
                        None => ok = false,
                    }
                } else {
                    leaves.insert(a, weight(a));
                    thr += weight(a);
                }
            }
            if !ok {
                continue;
            }
            let e = next
                .entry(*head)
                .or_insert_with(|| (BTreeMap::new(), u64::MAX));
            e.0.extend(leaves);
            e.1 = e.1.min(thr);
        }
        for (head, v) in next {
            if !is_new(head) {
                continue; // an earlier variable keeps its definition
            }
            if known.get(&head) != Some(&v) {
                if !known.contains_key(&head) {
                    order.push(head);
                }
                known.insert(head, v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // the heads only counted *downwards* (a totalizer's lower-bound
    // outputs): a clause `¬c ∨ p_1 ∨ … ∨ p_m` says that c needs one of its
    // inputs; with the p_i from disjoint subtrees, `c ⇔ Σ leaves(c) ≥
    // W(c) − Σ_i slack(p_i) + 1`, where W is the leaves' total weight and
    // slack(p) = W(p) − threshold(p) + 1 what subtree p may miss while p
    // is false (an input: its weight)
    let downward: Vec<(Lit, Vec<Lit>)> = clauses
        .iter()
        .filter_map(|c| {
            let neg: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&l| is_new(l) && l.is_neg())
                .collect();
            match neg[..] {
                [head] if c.len() > 1 && c.iter().all(|&l| l == head || l.is_pos()) => {
                    Some((!head, c.iter().copied().filter(|&l| l != head).collect()))
                }
                _ => None,
            }
        })
        .filter(|(head, _)| !known.contains_key(head))
        .collect();
    loop {
        let mut next: HashMap<Lit, (BTreeMap<Lit, u64>, Vec<u64>)> = HashMap::new();
        for (head, body) in &downward {
            if known.contains_key(head) {
                continue;
            }
            let mut leaves = BTreeMap::new();
            let mut slack = 0;
            let mut ok = true;
            for &p in body {
                if is_aux(p, known) {
                    match known.get(&p) {
                        Some((l, t)) => {
                            let total: u64 = l.values().sum();
                            leaves.extend(l.iter().map(|(&k, &v)| (k, v)));
                            slack += total + 1 - t;
                        }
                        None => ok = false,
                    }
                } else {
                    leaves.insert(p, weight(p));
                    slack += weight(p);
                }
            }
            if !ok {
                continue;
            }
            let e = next.entry(*head).or_default();
            e.0.extend(leaves);
            e.1.push(slack);
        }
        if next.is_empty() {
            break;
        }
        for (head, (leaves, slacks)) in next {
            let total: u64 = leaves.values().sum();
            let slack = slacks.into_iter().min().unwrap_or(0);
            if slack > total {
                continue;
            }
            order.push(head);
            known.insert(head, (leaves, total - slack + 1));
        }
    }
    // definitions in an order where every auxiliary leaf comes first
    // (leaves are inputs, so any order of the heads works)
    order.sort_by_key(|l| l.var().idx32());
    order
        .into_iter()
        .map(|head| {
            let (leaves, thr) = &known[&head];
            Definition {
                lit: head,
                meaning: Linear {
                    terms: leaves.iter().map(|(&l, &w)| (w, l)).collect(),
                    bound: *thr as i64,
                },
            }
        })
        .collect()
}

/// Records `lit ⇔ meaning` in `db`'s log, if it keeps one (the meaning is
/// built only then).
pub fn define<DB: crate::ClauseDatabase + ?Sized>(
    db: &mut DB,
    lit: Lit,
    meaning: impl FnOnce() -> Linear,
) {
    if let Some(p) = db.provenance() {
        p.define(lit, meaning());
    }
}

/// Records `lit ⇔ meaning` in `db`'s log as a definition a proof writes
/// first ([`Provenance::define_first`]).
pub fn define_first<DB: crate::ClauseDatabase + ?Sized>(
    db: &mut DB,
    defs: impl FnOnce() -> Vec<Definition>,
) {
    if let Some(p) = db.provenance() {
        for d in defs() {
            p.define_first(d.lit, d.meaning);
        }
    }
}

/// States that the next clauses added to `db` encode one of the lemmas
/// `group` builds ([`Provenance::lemmas`]), if `db` keeps a log.
pub fn lemmas<DB: crate::ClauseDatabase + ?Sized>(
    db: &mut DB,
    group: impl FnOnce() -> Vec<(Linear, Lemma, Vec<(u64, Lit)>)>,
) {
    if let Some(p) = db.provenance() {
        p.lemmas(group());
    }
}

/// States the constraint the next clauses added to `db` encode, if `db`
/// keeps a log; `None` ends the scope.
pub fn source<DB: crate::ClauseDatabase + ?Sized>(db: &mut DB, c: impl FnOnce() -> Option<Linear>) {
    if let Some(p) = db.provenance() {
        p.source(c());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClauseDatabase, Cnf};

    #[test]
    fn negative_coefficients_flip_the_literal() {
        let a = Lit::positive(0);
        let b = Lit::positive(1);
        let c = Linear::at_least([(2, a), (-3, b)], 1);
        assert_eq!(c.terms, vec![(2, a), (3, !b)]);
        assert_eq!(c.bound, 4);
        // 2a − 3b ≥ 1 holds only for a = 1, b = 0
        for (va, vb) in [(false, false), (false, true), (true, false), (true, true)] {
            let value = |l: Lit| {
                if l.var() == a.var() {
                    va != l.is_neg()
                } else {
                    vb != l.is_neg()
                }
            };
            assert_eq!(c.holds(value), va && !vb);
            assert_eq!(c.negation().holds(value), !va || vb);
        }
    }

    #[test]
    fn a_recording_cnf_tags_clauses_with_their_source() {
        let mut cnf = Cnf::new();
        cnf.record_provenance();
        let x = cnf.fresh_lits(2);
        cnf.add(&[x[0], x[1]]);
        source(&mut cnf, || Some(Linear::count_at_most(&x, 1)));
        let y = cnf.fresh();
        define(&mut cnf, y, || Linear::count_at_least(&x, 2));
        cnf.add(&[!y]);
        source(&mut cnf, || None);
        cnf.add(&[x[0]]);
        let p = cnf.provenance().unwrap();
        assert_eq!(p.clause_source, vec![NO_SOURCE, 0, NO_SOURCE]);
        assert_eq!(p.definitions.len(), 1);
        assert_eq!(p.source_of(1), Some(&Linear::count_at_most(&x, 1)));
        // not recording: nothing is built
        let mut plain = Cnf::new();
        define(&mut plain, y, || unreachable!());
        assert!(plain.provenance().is_none());
    }
}
