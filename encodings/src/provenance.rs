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
    pub lemma_halves: std::collections::HashMap<u32, LemmaHalves>,
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
    pub fn lemmas(&mut self, group: Vec<(Linear, Lemma, LemmaHalves)>) {
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
            Some((leaves, thr)) if consecutive => ((**leaves).clone(), lb + 1 - *thr as i64),
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
        let shared = std::sync::Arc::new(leaves.clone());
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
            self.inferred.insert(l, (shared.clone(), thr as u64));
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

/// The definition halves a lemma's derivation adds: each auxiliary
/// literal (whose half is added) with its weight in the sum.
pub type LemmaHalves = Vec<(u64, Lit)>;

/// The leaves of an inferred literal, by literal, with their weights;
/// shared (every output of a totalizer node counts the same leaves).
pub type Leaves = std::sync::Arc<std::collections::BTreeMap<Lit, u64>>;

/// What [`infer_upward`] knows: each inferred literal's leaves and
/// threshold.
pub type Inferred = std::collections::HashMap<Lit, (Leaves, u64)>;

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
    let is_new = |l: Lit| l.var().idx32() >= first_new;
    // only new literals are inferred, so whether a literal is auxiliary
    // (stands for its leaves) or an input (a leaf) stays fixed
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
    let mut folds = Folds::default();
    let mut order = vec![];
    // a fixpoint: in each round every head takes the union of its clauses'
    // leaves and the least threshold, over the clauses whose auxiliary
    // inputs are known from the round before; only the heads one of whose
    // inputs changed in the round before are computed again (the others
    // would find what they hold)
    let heads = Heads::new(&upward, |l| is_aux(l, known));
    let mut candidates: Vec<usize> = (0..heads.lits.len()).collect();
    loop {
        let mut next = vec![];
        for &h in &candidates {
            let mut parts = vec![];
            let mut thr = u64::MAX;
            for &c in &heads.clauses[h] {
                let leaves = folds.clause(&upward[c].1, known, &is_aux, weight, |_, t| t);
                if let Some((leaves, t)) = leaves {
                    parts.push(Part::Map(leaves));
                    thr = thr.min(t);
                }
            }
            if !parts.is_empty() {
                next.push((h, folds.fold(&parts), thr));
            }
        }
        let mut changed = vec![];
        for (h, leaves, thr) in next {
            let head = heads.lits[h];
            if !is_new(head) {
                continue; // an earlier variable keeps its definition
            }
            let v = (folds.maps[leaves as usize].clone(), thr);
            if known.get(&head) != Some(&v) {
                if !known.contains_key(&head) {
                    order.push(head);
                }
                known.insert(head, v);
                changed.push(head);
            }
        }
        if changed.is_empty() {
            break;
        }
        candidates = heads.users_of(&changed);
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
    // a head is defined in the first round in which one of its clauses has
    // all its auxiliary inputs known, by those clauses: the round after
    // its last such input became known
    let heads = Heads::new(&downward, |l| is_aux(l, known));
    let mut candidates: Vec<usize> = (0..heads.lits.len()).collect();
    loop {
        let mut next = vec![];
        for &h in &candidates {
            if known.contains_key(&heads.lits[h]) {
                continue;
            }
            let mut parts = vec![];
            let mut slacks = vec![];
            for &c in &heads.clauses[h] {
                let leaves = folds.clause(&downward[c].1, known, &is_aux, weight, |total, t| {
                    total + 1 - t
                });
                if let Some((leaves, slack)) = leaves {
                    parts.push(Part::Map(leaves));
                    slacks.push(slack);
                }
            }
            if !parts.is_empty() {
                next.push((h, folds.fold(&parts), slacks));
            }
        }
        if next.is_empty() {
            break;
        }
        let mut defined = vec![];
        for (h, leaves, slacks) in next {
            let head = heads.lits[h];
            let total = folds.totals[leaves as usize];
            let slack = slacks.into_iter().min().unwrap_or(0);
            if slack > total {
                // never defined (it has no inputs left to wait for)
                continue;
            }
            order.push(head);
            known.insert(
                head,
                (folds.maps[leaves as usize].clone(), total - slack + 1),
            );
            defined.push(head);
        }
        candidates = heads.users_of(&defined);
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

/// The clauses of an inference grouped by head: each head (in the order of
/// its first clause) with its clauses, and for each auxiliary input the
/// heads whose clauses read it.
struct Heads {
    lits: Vec<Lit>,
    clauses: Vec<Vec<usize>>,
    users: std::collections::HashMap<Lit, Vec<usize>>,
}

impl Heads {
    fn new(rules: &[(Lit, Vec<Lit>)], is_aux: impl Fn(Lit) -> bool) -> Self {
        let mut index = std::collections::HashMap::new();
        let mut heads = Heads {
            lits: vec![],
            clauses: vec![],
            users: Default::default(),
        };
        for (c, (head, body)) in rules.iter().enumerate() {
            let h = *index.entry(*head).or_insert_with(|| {
                heads.lits.push(*head);
                heads.clauses.push(vec![]);
                heads.lits.len() - 1
            });
            heads.clauses[h].push(c);
            for &a in body.iter().filter(|&&a| is_aux(a)) {
                let users = heads.users.entry(a).or_default();
                if users.last() != Some(&h) {
                    users.push(h);
                }
            }
        }
        heads
    }
    /// The heads that read one of `lits`, each once.
    fn users_of(&self, lits: &[Lit]) -> Vec<usize> {
        let mut seen = vec![false; self.lits.len()];
        let mut out = vec![];
        for l in lits {
            for &h in self.users.get(l).into_iter().flatten() {
                if !std::mem::replace(&mut seen[h], true) {
                    out.push(h);
                }
            }
        }
        out
    }
}

/// A piece of a union of leaves: a known leaf map (by its id in
/// [`Folds`]) or one input leaf with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Part {
    Map(u32),
    Leaf(Lit, u64),
}

/// The leaf maps of one inference, each content once (an id per distinct
/// map), and the unions already taken. A union is taken as
/// [`std::collections::BTreeMap::extend`] takes it, in order: a leaf
/// that two parts weigh differently keeps the later weight.
#[derive(Default)]
struct Folds {
    /// by id
    maps: Vec<Leaves>,
    /// the total weight of each map, by id
    totals: Vec<u64>,
    /// the id of each map by content
    by_content: std::collections::HashMap<Leaves, u32>,
    /// the id of each map seen, by address (the maps of `known`), and the
    /// maps themselves, kept alive so that no address is reused
    by_address: std::collections::HashMap<usize, u32>,
    seen: Vec<Leaves>,
    /// the union of each reduced sequence of parts
    unions: std::collections::HashMap<Vec<Part>, u32>,
}

impl Folds {
    /// The id of a map's content.
    fn intern(&mut self, map: std::collections::BTreeMap<Lit, u64>) -> u32 {
        if let Some(&id) = self.by_content.get(&map) {
            return id;
        }
        let id = self.maps.len() as u32;
        let map = std::sync::Arc::new(map);
        self.totals.push(map.values().sum());
        self.maps.push(map.clone());
        self.by_content.insert(map, id);
        id
    }
    /// The id of a shared map.
    fn id(&mut self, map: &Leaves) -> u32 {
        let address = std::sync::Arc::as_ptr(map) as usize;
        if let Some(&id) = self.by_address.get(&address) {
            return id;
        }
        let id = match self.by_content.get(map) {
            Some(&id) => id,
            None => {
                let id = self.maps.len() as u32;
                self.totals.push(map.values().sum());
                self.maps.push(map.clone());
                self.by_content.insert(map.clone(), id);
                id
            }
        };
        self.by_address.insert(address, id);
        self.seen.push(map.clone());
        id
    }
    /// The union of `parts` in order. Only the last occurrence of a part
    /// matters (a key takes its weight from the last part holding it), so
    /// the earlier ones are dropped before the look-up.
    fn fold(&mut self, parts: &[Part]) -> u32 {
        let mut reduced: Vec<Part> = Vec::with_capacity(parts.len());
        if parts.len() <= 8 {
            for (i, p) in parts.iter().enumerate() {
                if !parts[i + 1..].contains(p) {
                    reduced.push(*p);
                }
            }
        } else {
            let mut later = std::collections::HashSet::new();
            for p in parts.iter().rev() {
                if later.insert(*p) {
                    reduced.push(*p);
                }
            }
            reduced.reverse();
        }
        if let [Part::Map(id)] = reduced[..] {
            return id;
        }
        if let Some(&id) = self.unions.get(&reduced) {
            return id;
        }
        let mut map = std::collections::BTreeMap::new();
        for p in &reduced {
            match *p {
                Part::Map(id) => map.extend(self.maps[id as usize].iter().map(|(&k, &v)| (k, v))),
                Part::Leaf(l, w) => {
                    map.insert(l, w);
                }
            }
        }
        let id = self.intern(map);
        self.unions.insert(reduced, id);
        id
    }
    /// The leaves of a clause's `body` and the sum over it of
    /// `aux(total, threshold)` for an auxiliary input (its leaves' total
    /// weight and its threshold) and of the weight for an input; `None`
    /// while an auxiliary input is unknown.
    fn clause(
        &mut self,
        body: &[Lit],
        known: &Inferred,
        is_aux: &dyn Fn(Lit, &Inferred) -> bool,
        weight: &dyn Fn(Lit) -> u64,
        aux: impl Fn(u64, u64) -> u64,
    ) -> Option<(u32, u64)> {
        let mut parts = Vec::with_capacity(body.len());
        let mut sum = 0;
        for &a in body {
            if is_aux(a, known) {
                let (leaves, t) = known.get(&a)?;
                let id = self.id(leaves);
                parts.push(Part::Map(id));
                sum += aux(self.totals[id as usize], *t);
            } else {
                parts.push(Part::Leaf(a, weight(a)));
                sum += weight(a);
            }
        }
        Some((self.fold(&parts), sum))
    }
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
    group: impl FnOnce() -> Vec<(Linear, Lemma, LemmaHalves)>,
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

    /// The fixpoint as first written (every head recomputed in every
    /// round, leaf maps cloned): the reference the inference must match.
    /// Only change: `None` after `cap` rounds (it never ends when a
    /// downward head's slack exceeds its total, or when two heads of a
    /// cycle weigh a leaf differently).
    type OldInferred = std::collections::HashMap<Lit, (std::collections::BTreeMap<Lit, u64>, u64)>;
    fn infer_upward_reference(
        clauses: &[Vec<Lit>],
        first_new: u32,
        weight: &dyn Fn(Lit) -> u64,
        known: &mut OldInferred,
        cap: usize,
    ) -> Option<Vec<Definition>> {
        use std::collections::{BTreeMap, HashMap};
        let is_new = |l: Lit| l.var().idx32() >= first_new;
        let is_aux = |l: Lit, known: &OldInferred| is_new(l) || known.contains_key(&l);
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
        let mut rounds = 0;
        loop {
            rounds += 1;
            if rounds > cap {
                return None;
            }
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
                    continue;
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
        let mut rounds = 0;
        loop {
            rounds += 1;
            if rounds > cap {
                return None;
            }
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
        order.sort_by_key(|l| l.var().idx32());
        Some(
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
                .collect(),
        )
    }

    /// Runs both inferences over a sequence of encoder calls (each its
    /// clauses and first new variable), each with its own `known` (both
    /// starting from `pre`), and asserts after each call that they return
    /// the same definitions and know the same; the definitions of every
    /// call, or `None` if the reference did not end.
    fn same_as_reference(
        calls: &[(Vec<Vec<Lit>>, u32)],
        weight: &dyn Fn(Lit) -> u64,
        pre: &OldInferred,
    ) -> Option<Vec<Vec<Definition>>> {
        let mut old = pre.clone();
        let mut new: Inferred = pre
            .iter()
            .map(|(&l, (m, t))| (l, (std::sync::Arc::new(m.clone()), *t)))
            .collect();
        let mut out = vec![];
        for (clauses, first_new) in calls {
            let expected = infer_upward_reference(clauses, *first_new, weight, &mut old, 10_000)?;
            let got = infer_upward(clauses, *first_new, weight, &mut new);
            assert_eq!(got, expected);
            let new_plain: OldInferred = new
                .iter()
                .map(|(&l, (m, t))| (l, ((**m).clone(), *t)))
                .collect();
            assert_eq!(new_plain, old);
            out.push(got);
        }
        Some(out)
    }

    /// The clauses of a RustSAT encoder call, with the first variable it
    /// could allocate; `next` is the next free variable.
    fn rustsat_call(
        next: &mut u32,
        f: impl FnOnce(&mut rustsat::instances::Cnf, &mut dyn rustsat::instances::ManageVars),
    ) -> (Vec<Vec<Lit>>, u32) {
        use rustsat::instances::ManageVars;
        let first_new = *next;
        let mut vm = rustsat::instances::BasicVarManager::from_next_free(rustsat::types::Var::new(
            first_new,
        ));
        let mut buf = rustsat::instances::Cnf::new();
        f(&mut buf, &mut vm);
        *next = (*next).max(vm.n_used());
        let clauses = buf.iter().map(|c| c.iter().copied().collect()).collect();
        (clauses, first_new)
    }

    #[test]
    fn totalizer_outputs_count_their_inputs_as_the_reference_infers() {
        use rustsat::encodings::card::{BoundLower, BoundUpper, Totalizer};
        let n = 13;
        let xs: Vec<Lit> = (0..n).map(Lit::positive).collect();
        let mut next = n;
        let mut tot = Totalizer::from_iter(xs.clone());
        // the bounds as an optimiser tightens them, then lower bounds
        let mut calls = vec![];
        for k in (0..n as usize).rev().step_by(3) {
            calls.push(rustsat_call(&mut next, |col, vm| {
                tot.encode_ub(k..=k, col, vm).unwrap()
            }));
        }
        for k in [1, 5, 9] {
            calls.push(rustsat_call(&mut next, |col, vm| {
                tot.encode_lb(k..=k, col, vm).unwrap()
            }));
        }
        let defs = same_as_reference(&calls, &|_| 1, &Default::default()).unwrap();
        let all: Vec<&Definition> = defs.iter().flatten().collect();
        assert_eq!(
            defs.iter().map(Vec::len).collect::<Vec<_>>(),
            [12, 21, 6, 1, 1, 0, 1, 1]
        );
        // the first leaf node: x13 ⇔ x0 + x1 ≥ 2
        assert_eq!(all[0].lit, Lit::positive(n));
        assert_eq!(all[0].meaning, Linear::count_at_least(&xs[..2], 2));
        // the root's outputs, [Σ xs ≥ k] for the bounds asked (k + 1 for
        // an upper bound k, k for a lower one), in the order made
        let root: Vec<i64> = all
            .iter()
            .filter(|d| d.meaning.terms == xs.iter().map(|&x| (1, x)).collect::<Vec<_>>())
            .map(|d| d.meaning.bound)
            .collect();
        assert_eq!(root, [13, 10, 7, 4, 1, 5, 9]);
    }

    #[test]
    fn weighted_and_at_most_one_encoders_infer_as_the_reference() {
        use rustsat::encodings::am1::{self, Encode as _};
        use rustsat::encodings::pb::{
            BinaryAdder, BoundUpper, DynamicPolyWatchdog, GeneralizedTotalizer,
        };
        let terms: Vec<(Lit, usize)> = (0..9)
            .map(|i| (Lit::positive(i), 1 + (i as usize * 5) % 7))
            .collect();
        let weights: std::collections::HashMap<Lit, u64> =
            terms.iter().map(|&(l, w)| (l, w as u64)).collect();
        let weight = |l: Lit| weights.get(&l).copied().unwrap_or(1);
        let total: usize = terms.iter().map(|&(_, w)| w).sum();
        let bounds = [total - 3, total / 2, 7, 2];
        fn calls_of<E: BoundUpper>(mut e: E, bounds: &[usize]) -> Vec<(Vec<Vec<Lit>>, u32)> {
            let mut next = 9;
            bounds
                .iter()
                .map(|&k| rustsat_call(&mut next, |col, vm| e.encode_ub(k..=k, col, vm).unwrap()))
                .collect()
        }
        let gte = calls_of(GeneralizedTotalizer::from_iter(terms.clone()), &bounds);
        let dpw = calls_of(DynamicPolyWatchdog::from_iter(terms.clone()), &bounds);
        let adder = calls_of(BinaryAdder::from_iter(terms.clone()), &bounds);
        for (name, calls) in [("gte", gte), ("dpw", dpw), ("adder", adder)] {
            let defs = same_as_reference(&calls, &weight, &Default::default());
            let n: usize = defs.as_ref().map_or(0, |d| d.iter().map(Vec::len).sum());
            assert!(n > 0, "{name}: no definition inferred");
        }
        // the GTE's root outputs are weighted sums of all the inputs
        let gte = calls_of(GeneralizedTotalizer::from_iter(terms.clone()), &bounds);
        let defs = same_as_reference(&gte, &weight, &Default::default()).unwrap();
        let full: Vec<(u64, Lit)> = terms.iter().map(|&(l, w)| (w as u64, l)).collect();
        assert!(defs.iter().flatten().any(|d| d.meaning.terms == full));
        let xs: Vec<Lit> = (0..11).map(Lit::positive).collect();
        for enc in 0..4 {
            let mut next = 11;
            let call = rustsat_call(&mut next, |col, vm| {
                let it = xs.iter().copied();
                match enc {
                    0 => am1::Ladder::from_iter(it).encode(col, vm),
                    1 => am1::Commander::<4, am1::Pairwise>::from_iter(it).encode(col, vm),
                    2 => am1::Bimander::<4, am1::Pairwise>::from_iter(it).encode(col, vm),
                    _ => am1::Bitwise::from_iter(it).encode(col, vm),
                }
                .unwrap()
            });
            same_as_reference(&[call], &|_| 1, &Default::default()).unwrap();
        }
    }

    #[test]
    fn a_leaf_two_parts_weigh_differently_keeps_the_later_weight() {
        // p (known before) counts x0 twice; a clause over p and x0 takes
        // x0's weight from whichever comes last
        let x0 = Lit::positive(0);
        let x1 = Lit::positive(1);
        let p = Lit::positive(2);
        let (c, d, e) = (Lit::positive(3), Lit::positive(4), Lit::positive(5));
        let pre: OldInferred = [(p, ([(x0, 2), (x1, 1)].into(), 2))].into();
        let clauses = vec![
            vec![!p, !x0, c], // c ⇐ p ∧ x0
            vec![!x0, !p, d], // d ⇐ x0 ∧ p
            vec![!c, e],      // e ⇐ c
            vec![!d, !x1, e], // e ⇐ d ∧ x1
        ];
        let defs = same_as_reference(&[(clauses, 3)], &|_| 1, &pre).unwrap();
        let def = |lit, terms: Vec<(u64, Lit)>, bound| Definition {
            lit,
            meaning: Linear { terms, bound },
        };
        assert_eq!(
            defs[0],
            [
                def(c, vec![(1, x0), (1, x1)], 3),
                def(d, vec![(2, x0), (1, x1)], 3),
                def(e, vec![(2, x0), (1, x1)], 3),
            ]
        );
    }

    /// Random clause sets: inputs 0..i, variables known before i..i+k (each
    /// with leaves among the inputs), new variables from i+k.
    fn random_case(
    ) -> impl proptest::strategy::Strategy<Value = (Vec<Vec<Lit>>, u32, Vec<u64>, OldInferred)>
    {
        use proptest::prelude::*;
        (1u32..5, 0u32..3, 1u32..8, any::<bool>()).prop_flat_map(|(i, k, n, consistent)| {
            let vars = i + k + n;
            let lit = (0..vars, any::<bool>()).prop_map(|(v, neg)| Lit::new(v, neg));
            // a clause as drawn, or shaped upward (`¬body ∨ head`) or
            // downward (`¬head ∨ body`, body positive) over a new head
            let clause = (0u8..3, i + k..vars, prop::collection::vec(lit, 1..5)).prop_map(
                |(shape, head, body)| match shape {
                    0 => body,
                    1 => std::iter::once(Lit::positive(head))
                        .chain(body.iter().map(|&l| !l))
                        .collect(),
                    _ => std::iter::once(Lit::negative(head))
                        .chain(body.iter().map(|&l| Lit::positive(l.var().idx32())))
                        .collect(),
                },
            );
            let clauses = prop::collection::vec(clause, 0..16);
            let weights = prop::collection::vec(1u64..4, (2 * i) as usize);
            let pre = prop::collection::vec(
                (
                    prop::collection::vec((0..i, any::<bool>(), 1u64..4), 0..4),
                    1u64..5,
                ),
                k as usize,
            );
            (clauses, weights, pre).prop_map(move |(clauses, weights, pre)| {
                let w = |l: Lit| weights.get(l.lidx()).copied().unwrap_or(1);
                let pre: OldInferred = pre
                    .into_iter()
                    .enumerate()
                    .map(|(j, (leaves, t))| {
                        let leaves = leaves
                            .into_iter()
                            .map(|(v, neg, a)| {
                                let l = Lit::new(v, neg);
                                (l, if consistent { w(l) } else { a })
                            })
                            .collect();
                        (Lit::positive(i + j as u32), (leaves, t))
                    })
                    .collect();
                (clauses, i + k, weights, pre)
            })
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        #[test]
        fn random_clause_sets_infer_as_the_reference(
            (clauses, first_new, weights, pre) in random_case()
        ) {
            let weight = |l: Lit| weights.get(l.lidx()).copied().unwrap_or(1);
            // a second call builds on the first
            let half = clauses.len() / 2;
            let calls = [(clauses[..half].to_vec(), first_new), (clauses.clone(), first_new)];
            same_as_reference(&calls, &weight, &pre);
        }
    }
}
