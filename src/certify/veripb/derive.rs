//! The CNF derived from the model: the definitions of the auxiliary
//! variables by redundance, each clause by RUP or by a cutting-planes sum
//! of definition halves (Gocht, Martins, Nordström & Oertel, "Certified
//! CNF Translations for Pseudo-Boolean Solving", SAT 2022).

use std::collections::HashMap;
use std::io::{self, Write};

use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::provenance::{Definition, Linear, Provenance};
use puzzlesat_encodings::Cnf;
use rustsat::types::{Lit, Var};

use super::model::{ModelConstraints, Sum};
use super::writer::{with_halves, ClauseIds, Halves, Id, ProofNames, ProofWriter, SymmetryBlock};
use crate::certify::CertifyError;
use puzzlesat_encodings::proof::{Big, Op, PolSum, Ref, Step, Value};

/// How each clause of the CNF was derived, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodingSteps {
    /// auxiliary variables introduced (by two `red` steps each)
    pub definitions: usize,
    /// clauses derived by reverse unit propagation
    pub rup: usize,
    /// clauses derived by a cutting-planes sum of definitions
    pub pol: usize,
    /// clauses the symmetry block derives
    pub symmetry: usize,
}

/// How a proof introduces a literal's definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Intro {
    /// an auxiliary variable: by redundance, both halves
    Red,
    /// a model variable: both halves follow from the model by RUP (e.g.
    /// the order literal `[x ≥ lb+1]`, which is the model's `¬[x = lb]`)
    Rup,
}

/// The definitions a proof writes, in order: the order literals of each
/// integer whose model speaks of its direct literals
/// (`[x ≥ v] ⇔ Σ_{u ≥ v} [x = u] ≥ 1`), then the log's, each once.
pub(super) fn definitions(
    names: &ProofNames,
    prov: Option<&Provenance>,
    skip: &[Var],
) -> Vec<(Definition, Intro)> {
    let Some(prov) = prov else { return vec![] };
    let mut out = vec![];
    let mut seen: std::collections::HashSet<Var> = skip.iter().copied().collect();
    let model = |l: Lit| names.is_model(l.var());
    let mut push = |d: Definition, out: &mut Vec<(Definition, Intro)>| {
        if seen.insert(d.lit.var()) {
            let intro = if model(d.lit) { Intro::Rup } else { Intro::Red };
            out.push((d, intro));
        }
    };
    for d in &prov.first {
        push(d.clone(), &mut out);
    }
    for int in &prov.ints {
        if int.ge.iter().all(|&l| model(l)) {
            continue; // the model speaks of the order literals
        }
        let n = int.ge.len();
        let mut direct: Vec<Option<Lit>> = vec![None; n + 1];
        direct[0] = Some(!int.ge[0]);
        direct[n] = Some(int.ge[n - 1]);
        for &(v, l) in &int.eq {
            direct[(v - int.lb) as usize] = Some(l);
        }
        let Some(direct) = direct.into_iter().collect::<Option<Vec<Lit>>>() else {
            continue;
        };
        if !direct.iter().all(|&l| model(l)) {
            continue;
        }
        for (i, &ge) in int.ge.iter().enumerate() {
            push(
                Definition {
                    lit: ge,
                    meaning: Linear::count_at_least(&direct[i + 1..], 1),
                },
                &mut out,
            );
        }
    }
    for d in &prov.definitions {
        push(d.clone(), &mut out);
    }
    out
}

/// Whether a proof can derive every clause of `cnf`: each variable of a
/// clause is a model variable or has a definition (or is the symmetry
/// block's); `Err` names the first one that is neither, with its clause.
pub fn plan(
    model: &PbModel,
    names: &ProofNames,
    cnf: &Cnf,
    prov: Option<&Provenance>,
    symmetry: Option<&SymmetryBlock>,
) -> Result<(), String> {
    // every source constraint a derivation sums must be one the model
    // states (VeriPB's `ia` finds it there)
    if let Some(prov) = prov {
        let model_constraints = ModelConstraints::new(model, names);
        let used: std::collections::BTreeSet<u32> = prov
            .clause_source
            .iter()
            .copied()
            .filter(|&s| s != puzzlesat_encodings::provenance::NO_SOURCE)
            .collect();
        let used: std::collections::BTreeSet<u32> = used
            .into_iter()
            .flat_map(|s| prov.groups.get(&s).cloned().unwrap_or_else(|| vec![s]))
            .collect();
        for s in used {
            if let Some(lemma) = prov.lemma_of(s) {
                if let Some(part) = lemma
                    .parts
                    .iter()
                    .find(|p| p.bound > 0 && model_constraints.source(p).is_none())
                {
                    return Err(format!(
                        "a lemma of the encoding sums a constraint the model does not state ({})",
                        names.linear(part)
                    ));
                }
                continue;
            }
            let c = &prov.sources[s as usize];
            if model_constraints.source(c).is_none() {
                return Err(format!(
                    "the encoding encodes a constraint the model does not state ({})",
                    names.linear(c)
                ));
            }
        }
    }
    let skip: Vec<Var> = symmetry.map(|s| s.defines.clone()).unwrap_or_default();
    let mut defined: std::collections::HashSet<Var> = skip.iter().copied().collect();
    for (d, _) in definitions(names, prov, &skip) {
        defined.insert(d.lit.var());
    }
    let derived: std::collections::HashSet<usize> = symmetry
        .map(|s| s.derives.iter().map(|&(i, _)| i).collect())
        .unwrap_or_default();
    let undefined: Vec<(usize, Lit)> = cnf
        .clauses()
        .enumerate()
        .filter(|(i, _)| !derived.contains(i))
        .flat_map(|(i, c)| c.iter().map(move |&l| (i, l)))
        .filter(|(_, l)| !names.is_model(l.var()) && !defined.contains(&l.var()))
        .collect();
    match undefined.first() {
        None => Ok(()),
        Some(&(i, l)) => Err(format!(
            "the encoding has auxiliary variables without a definition in the log ({} literal occurrences in the CNF, the first {} in clause {i})",
            undefined.len(),
            names.lit(l)
        )),
    }
}

/// `m·c`.
pub(super) fn scaled_by(c: &Linear, m: u64) -> Linear {
    Linear {
        terms: c.terms.iter().map(|&(a, l)| (a * m, l)).collect(),
        bound: c.bound * m as i64,
    }
}

/// How many times to add the definition half `h` to the source `c` so that
/// its terms outside `clause` cancel `c`'s: the largest ratio of `c`'s
/// coefficient of a negated term of `h` to `h`'s coefficient, at least 1.
pub(super) fn multiplier(h: &Linear, c: &Linear, clause: &[Lit]) -> u64 {
    let coef: HashMap<Lit, u64> = c.terms.iter().map(|&(a, l)| (l, a)).collect();
    h.terms
        .iter()
        .filter(|(_, l)| !clause.iter().any(|k| k.var() == l.var()))
        .filter_map(|&(a, l)| Some(coef.get(&!l)?.div_ceil(a)))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Introduces the definitions of `prov` and derives each clause of `cnf`
/// (the ones `symmetry` does not derive) from the model; returns the id
/// that implies each clause, and the definitions' halves.
pub(super) fn derive_cnf<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    model: &ModelConstraints,
    cnf: &Cnf,
    prov: Option<&Provenance>,
    symmetry: Option<&SymmetryBlock>,
) -> io::Result<(Vec<Id>, EncodingSteps, Halves)> {
    let mut steps = EncodingSteps::default();
    let skip_defs: Vec<Var> = symmetry.map(|s| s.defines.clone()).unwrap_or_default();
    // (the block introduces these itself, by `red` too)
    steps.definitions += skip_defs.len();
    let defs = definitions(names, prov, &skip_defs);
    let mut half = introduce_definitions(w, names, &defs, &mut steps)?;
    tighten_first_halves(w, names, model, prov, &defs, &mut half)?;
    w.comment("the CNF's clauses")?;
    let by_symmetry = symmetry_clauses(symmetry);
    let mut clauses = ClauseDerivation::new(names, model, cnf, prov, &half);
    for (i, clause) in cnf.clauses().enumerate() {
        match by_symmetry.get(&i) {
            Some(true) => steps.rup += 1,
            Some(false) => steps.symmetry += 1,
            None => clauses.derive(w, i, clause, &mut steps)?,
        }
    }
    let ids = clauses.ids;
    Ok((ids, steps, half))
}

/// Writes the two halves of each definition, `red` for an auxiliary
/// variable and `rup` for a model variable; returns them by literal.
fn introduce_definitions<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    defs: &[(Definition, Intro)],
    steps: &mut EncodingSteps,
) -> io::Result<Halves> {
    let mut half: Halves = HashMap::new();
    if !defs.is_empty() {
        w.comment("the encoding's auxiliary variables: red for new ones, rup for model variables")?;
    }
    for (d, intro) in defs {
        let y = d.lit;
        steps.definitions += usize::from(*intro == Intro::Red);
        let var = names.var(y.var());
        // witness: the value of y's variable that makes y false / true
        let (falsify, satisfy) = if y.is_neg() {
            (Value::True, Value::False)
        } else {
            (Value::False, Value::True)
        };
        let rule = |c: &Linear, value: Value| match intro {
            Intro::Red => Step::Red(names.linear(c), vec![(var.clone(), value)], false),
            Intro::Rup => Step::Rup(names.linear(c), vec![]),
        };
        let k = d.meaning.bound;
        if k > 0 {
            let mut c = d.meaning.clone();
            c.terms.push((k as u64, !y));
            let id = w.step(&rule(&c, falsify))?;
            half.insert(!y, (id, c));
        }
        let neg = d.meaning.negation();
        if neg.bound > 0 {
            let mut c = neg.clone();
            c.terms.push((neg.bound as u64, y));
            let id = w.step(&rule(&c, satisfy))?;
            half.insert(y, (id, c));
        }
    }
    Ok(half)
}

/// A definition written first, `y ⇔ Σ_S l ≥ 1` over model literals of
/// which the model says at most one holds: its tight half
/// `y + Σ_S ¬l ≥ |S|` ("y ≥ Σ_S l"), the sum of the at-most-one and the
/// y-half divided by |S|, replaces the y-half in the clauses' sums.
fn tighten_first_halves<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    model: &ModelConstraints,
    prov: Option<&Provenance>,
    defs: &[(Definition, Intro)],
    half: &mut Halves,
) -> io::Result<()> {
    let first: std::collections::HashSet<Lit> = prov
        .map(|p| p.first.iter().map(|d| d.lit).collect())
        .unwrap_or_default();
    for (d, _) in defs {
        let m = &d.meaning;
        let lits: Vec<Lit> = m.terms.iter().map(|&(_, l)| l).collect();
        // (a model literal's too: `¬[x = lb]` for `[x ≥ lb+1]`, whose
        // y-half is by RUP)
        if !first.contains(&d.lit)
            || m.bound != 1
            || lits.len() < 2
            || m.terms
                .iter()
                .any(|&(a, l)| a != 1 || !names.is_model(l.var()))
        {
            continue;
        }
        let amo = Linear::count_at_most(&lits, 1);
        if model.source(&amo).is_none() {
            continue;
        }
        let Some(&(y_half, _)) = half.get(&d.lit) else {
            continue;
        };
        let amo_id = model.derive(w, names, &amo)?;
        let k = lits.len();
        let mut sum = PolSum::new();
        sum.add_scaled(Ref::Id(amo_id), Big::from_u64(k as u64 - 1))
            .add(Ref::Id(y_half))
            .then(Op::Div(k as u64));
        let id = w.step(&sum.step())?;
        let mut tight =
            Linear::count_at_least(&lits.iter().map(|&l| !l).collect::<Vec<_>>(), k as i64);
        tight.terms.push((1, d.lit));
        half.insert(d.lit, (id, tight));
    }
    Ok(())
}

/// The CNF clauses the symmetry block derives (they get their ids once it
/// is written), each with whether it is one of a rule's clauses.
fn symmetry_clauses(symmetry: Option<&SymmetryBlock>) -> HashMap<usize, bool> {
    symmetry
        .map(|s| {
            s.derives
                .iter()
                .map(|&(i, rel)| (i, s.rules.contains(&rel)))
                .chain(
                    s.before_derives
                        .iter()
                        .map(|&(i, rel)| (i, s.before_rules.contains(&rel))),
                )
                .collect()
        })
        .unwrap_or_default()
}

/// How one clause follows: the sum of `ladders` (ids, each times its
/// multiplier), the `source` constraint, the `halves` (each times its
/// `mult`), weakened on `weaken`.
struct Derivation<'a> {
    ladders: Vec<(Id, u64)>,
    source: Option<(u32, &'a Linear)>,
    halves: Vec<&'a (Id, Linear)>,
    mult: Vec<u64>,
    weaken: Vec<Var>,
}

/// The derivation of the CNF's clauses in order: the ids written so far,
/// the definitions' halves, the stated sources found so far, and the order
/// clauses of the integers (`[x ≥ v+1] → [x ≥ v]`) a sum can move down.
struct ClauseDerivation<'a> {
    names: &'a ProofNames,
    model: &'a ModelConstraints,
    prov: Option<&'a Provenance>,
    half: &'a Halves,
    /// the id that implies each clause (0 for the symmetry block's)
    ids: Vec<Id>,
    /// each stated source constraint, found once in the database by `ia`
    source_ids: HashMap<u32, Id>,
    /// [x ≥ v+1] → [x ≥ v] of each integer: the lower literal
    lower: HashMap<Lit, Lit>,
    /// the other way: [x ≥ v] → [x ≥ v+1]
    higher: HashMap<Lit, Lit>,
    /// the index of each binary clause (the order clauses among them)
    binary: HashMap<Vec<Lit>, usize>,
}

impl<'a> ClauseDerivation<'a> {
    fn new(
        names: &'a ProofNames,
        model: &'a ModelConstraints,
        cnf: &Cnf,
        prov: Option<&'a Provenance>,
        half: &'a Halves,
    ) -> Self {
        let lower: HashMap<Lit, Lit> = prov
            .map(|p| {
                p.ints
                    .iter()
                    .flat_map(|int| int.ge.windows(2).map(|w| (w[1], w[0])))
                    .collect()
            })
            .unwrap_or_default();
        let higher = lower.iter().map(|(&h, &l)| (l, h)).collect();
        let binary = cnf
            .clauses()
            .enumerate()
            .filter(|(_, c)| c.len() == 2)
            .map(|(i, c)| (ClauseIds::key(c), i))
            .collect();
        ClauseDerivation {
            names,
            model,
            prov,
            half,
            ids: vec![0; cnf.len()],
            source_ids: HashMap::new(),
            lower,
            higher,
            binary,
        }
    }

    /// Writes clause `i`: by a `pol` sum where one is found, else by RUP.
    fn derive<W: Write>(
        &mut self,
        w: &mut ProofWriter<W>,
        i: usize,
        clause: &[Lit],
        steps: &mut EncodingSteps,
    ) -> io::Result<()> {
        self.ids[i] = match self.find(i, clause) {
            Some(d) => {
                steps.pol += 1;
                self.write_sum(w, d)?
            }
            None => {
                steps.rup += 1;
                w.step(&Step::Rup(self.names.clause(clause), vec![]))?
            }
        };
        Ok(())
    }

    /// A sum that implies clause `i`, tried in turn: the halves with or
    /// without a source, then the halves moved down the order clauses,
    /// then a model constraint with the halves; None for RUP.
    fn find(&self, i: usize, clause: &[Lit]) -> Option<Derivation<'a>> {
        let names = self.names;
        let half: &'a Halves = self.half;
        let all_halves: Vec<&(Id, Linear)> = clause.iter().filter_map(|l| half.get(l)).collect();
        let aux_halves: Vec<&(Id, Linear)> = clause
            .iter()
            .filter(|l| !names.is_model(l.var()))
            .filter_map(|l| half.get(l))
            .collect();
        let sources: Vec<(u32, &Linear)> = self.prov.map(|p| p.sources_of(i)).unwrap_or_default();
        if all_halves.is_empty() && sources.is_empty() {
            return None;
        }
        // without the halves of literals that are terms of another
        // literal's half (a leaf of a sum next to the sum's node)
        let inner_halves: Vec<&(Id, Linear)> = clause
            .iter()
            .filter(|l| !names.is_model(l.var()))
            .filter(|&&l| {
                !clause.iter().any(|&k| {
                    k != l
                        && half
                            .get(&k)
                            .is_some_and(|(_, o)| o.terms.iter().any(|(_, t)| t.var() == l.var()))
                })
            })
            .filter_map(|l| half.get(l))
            .collect();
        Self::by_halves(clause, &sources, [&aux_halves, &all_halves, &inner_halves])
            .or_else(|| self.by_order_ladders(i, clause, &sources, &inner_halves))
            .or_else(|| self.by_model_constraint(clause, &aux_halves))
    }

    /// The sum of the auxiliary literals' halves (then of every literal's,
    /// then of the inner ones), with or without a source constraint; each
    /// half as it is, or multiplied so that its terms cancel the source's.
    fn by_halves(
        clause: &[Lit],
        sources: &[(u32, &'a Linear)],
        tries: [&Vec<&'a (Id, Linear)>; 3],
    ) -> Option<Derivation<'a>> {
        for halves in tries {
            for src in sources.iter().copied().map(Some).chain([None]) {
                for scaled in [false, true] {
                    let mult: Vec<u64> = halves
                        .iter()
                        .map(|(_, h)| match (scaled, src) {
                            (true, Some((_, c))) => multiplier(h, c, clause),
                            _ => 1,
                        })
                        .collect();
                    if scaled && mult.iter().all(|&m| m == 1) {
                        continue;
                    }
                    let mut sum = Sum::default();
                    for ((_, c), &m) in halves.iter().zip(&mult) {
                        sum.add(&scaled_by(c, m));
                    }
                    if let Some((_, c)) = src {
                        sum.add(c);
                    }
                    if let Some(weaken) = sum.weakening_to(clause) {
                        return Some(Derivation {
                            ladders: vec![],
                            source: src,
                            halves: halves.clone(),
                            mult,
                            weaken,
                        });
                    }
                }
            }
        }
        None
    }

    /// The auxiliary halves again, with each leaf [x ≥ k] of an integer
    /// moved down its order clauses to the clause's [x ≥ j]: with the
    /// first source and the inner halves, then with each source and the
    /// halves of the clause's literals that are not its terms (a sum's
    /// lemma over the order literals of its cells).
    fn by_order_ladders(
        &self,
        i: usize,
        clause: &[Lit],
        sources: &[(u32, &'a Linear)],
        inner_halves: &[&'a (Id, Linear)],
    ) -> Option<Derivation<'a>> {
        let half: &'a Halves = self.half;
        let mut candidates = vec![(sources.first().copied(), inner_halves.to_vec())];
        for &(s, c) in sources {
            let terms: std::collections::HashSet<Var> =
                c.terms.iter().map(|&(_, l)| l.var()).collect();
            let halves: Vec<&(Id, Linear)> = clause
                .iter()
                .filter(|l| !self.names.is_model(l.var()) && !terms.contains(&l.var()))
                .filter_map(|l| half.get(l))
                .collect();
            candidates.push((Some((s, c)), halves));
        }
        // one step: [x ≥ k] down to [x ≥ k−1], or ¬[x ≥ k] up to
        // ¬[x ≥ k+1], by the order clause ¬[x ≥ k] ∨ [x ≥ k−1]
        let step = |l: Lit| -> Option<(Lit, [Lit; 2])> {
            if let Some(&low) = self.lower.get(&l) {
                return Some((low, [!l, low]));
            }
            let &high = self.higher.get(&!l)?;
            Some((!high, [!high, !l]))
        };
        let reaches = |mut l: Lit| {
            while let Some((next, _)) = step(l) {
                if clause.contains(&next) {
                    return true;
                }
                l = next;
            }
            false
        };
        for (src, halves) in candidates {
            let mut ladders = vec![];
            let mut sum = Sum::default();
            for (_, c) in halves.iter() {
                sum.add(c);
            }
            if let Some((_, c)) = src {
                sum.add(c);
            }
            'moves: loop {
                for (&v, &(a, neg)) in &sum.terms {
                    let l = Lit::new(v.idx32(), neg);
                    if clause.contains(&l) || !reaches(l) {
                        continue;
                    }
                    let (_, order_clause) = step(l).expect("reaches");
                    let Some(&k) = self.binary.get(&ClauseIds::key(&order_clause)) else {
                        continue;
                    };
                    if k >= i {
                        continue;
                    }
                    let [p, q] = order_clause;
                    sum.add(&Linear::at_least([(a as i64, p), (a as i64, q)], a as i64));
                    ladders.push((self.ids[k], a));
                    continue 'moves;
                }
                break;
            }
            if let Some(weaken) = sum.weakening_to(clause) {
                let mult = vec![1; halves.len()];
                return Some(Derivation {
                    ladders,
                    source: src,
                    halves,
                    mult,
                    weaken,
                });
            }
        }
        None
    }

    /// A model constraint over one of the clause's model literals with the
    /// auxiliary halves (e.g. a cell's at-most-one for
    /// `[high = h] ∧ [low = l] → [F = n·h + l + 1]`).
    fn by_model_constraint(
        &self,
        clause: &[Lit],
        aux_halves: &[&'a (Id, Linear)],
    ) -> Option<Derivation<'a>> {
        let names = self.names;
        let mut vars: Vec<Var> = clause
            .iter()
            .map(|l| l.var())
            .chain(
                aux_halves
                    .iter()
                    .flat_map(|(_, h)| h.terms.iter().map(|(_, l)| l.var())),
            )
            .filter(|&v| names.is_model(v))
            .collect();
        vars.dedup();
        for v in vars.into_iter().take(2) {
            for &k in self.model.by_var.get(&v).into_iter().flatten().take(8) {
                let (id, c) = &self.model.constraints[k];
                let mut sum = Sum::default();
                for (_, h) in aux_halves.iter() {
                    sum.add(h);
                }
                sum.add(c);
                if let Some(weaken) = sum.weakening_to(clause) {
                    return Some(Derivation {
                        ladders: vec![(*id, 1)],
                        source: None,
                        halves: aux_halves.to_vec(),
                        mult: vec![1; aux_halves.len()],
                        weaken,
                    });
                }
            }
        }
        None
    }

    /// Writes the `pol` step of `d`: the ladders, the source, the halves,
    /// the weakenings, saturated. Returns its id.
    fn write_sum<W: Write>(&mut self, w: &mut ProofWriter<W>, d: Derivation) -> io::Result<Id> {
        let mut pol = PolSum::new();
        for (id, a) in d.ladders {
            pol.add_times(Ref::Id(id), a);
        }
        if let Some((s, c)) = d.source {
            pol.add(Ref::Id(self.source_id(w, s, c)?));
        }
        for ((id, _), &m) in d.halves.iter().zip(&d.mult) {
            pol.add_times(Ref::Id(*id), m);
        }
        for v in d.weaken {
            pol.then(Op::Weaken(self.names.var(v)));
        }
        pol.then(Op::Sat);
        w.step(&pol.step())
    }

    /// The id of the stated source `s` (`c`): derived from the model (a
    /// lemma by [`derive_lemma`]) the first time, then remembered.
    fn source_id<W: Write>(
        &mut self,
        w: &mut ProofWriter<W>,
        s: u32,
        c: &Linear,
    ) -> io::Result<Id> {
        if let Some(&id) = self.source_ids.get(&s) {
            return Ok(id);
        }
        let (names, model, prov) = (self.names, self.model, self.prov);
        let id = match prov.and_then(|p| p.lemma_of(s)) {
            Some(lemma) => {
                let extra = prov
                    .and_then(|p| p.lemma_halves.get(&s))
                    .map_or(&[][..], |v| &v[..]);
                derive_lemma(w, names, model, c, lemma, extra, self.half)?
            }
            None => model.derive(w, names, c)?,
        };
        self.source_ids.insert(s, id);
        Ok(id)
    }
}

/// Derives the lemma `c` from the model: each part from the model
/// constraint that implies it (`ia`, after `pol … d` for a division), their
/// sum divided by the lemma's divisor, then `c` by `ia`. Returns its id.
#[allow(clippy::too_many_arguments)]
pub(super) fn derive_lemma<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    model: &ModelConstraints,
    c: &Linear,
    lemma: &puzzlesat_encodings::provenance::Lemma,
    extra: &[(u64, Lit)],
    half: &Halves,
) -> io::Result<Id> {
    w.comment(&format!("a lemma: {}", names.linear(c)))?;
    let mut pol = PolSum::new();
    // the definition halves it adds (a missing one leaves the sum short:
    // the check refuses the lemma)
    for &(a, l) in extra {
        if let Some((id, _)) = half.get(&l) {
            pol.add_times(Ref::Id(*id), a);
        }
    }
    for part in &lemma.parts {
        if part.bound <= 0 {
            // always true: the sum of its literals' axioms is stronger
            for &(a, l) in &part.terms {
                pol.add_axiom(names.literal(l), Big::from_u64(a));
            }
            continue;
        }
        pol.add(Ref::Id(model.derive(w, names, part)?));
    }
    if lemma.divisor > 1 {
        pol.then(Op::Div(lemma.divisor));
    }
    let sum = w.step(&pol.step())?;
    w.step(&Step::Ia(names.linear(c), Some(Ref::Id(sum))))
}

/// Derives `clause` from the constraint `c` (id `c_id`) and the halves of
/// its defined literals, by one `pol` sum weakened to the clause's
/// variables; None if that sum does not imply it.
pub(super) fn derive_from<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    clause: &[Lit],
    (c_id, c): (Id, &Linear),
    halves: &Halves,
) -> io::Result<Option<Id>> {
    let mut sum = Sum::default();
    sum.add(c);
    let used: Vec<Id> = clause
        .iter()
        .filter_map(|l| halves.get(l))
        .map(|(id, h)| {
            sum.add(h);
            *id
        })
        .collect();
    let Some(weaken) = sum.weakening_to(clause) else {
        return Ok(None);
    };
    let mut pol = PolSum::new();
    pol.add(Ref::Id(c_id));
    for id in used {
        pol.add(Ref::Id(id));
    }
    for v in weaken {
        pol.then(Op::Weaken(names.var(v)));
    }
    pol.then(Op::Sat);
    w.step(&pol.step()).map(Some)
}

/// The proof up to the search: the symmetry block's steps before any order
/// and the order's prelude, its steps over the model, the encoding's
/// derivation (`derive_cnf`), then the block's steps that use the
/// encoding's definitions, each clause a block derives checked (`e`)
/// against its CNF clause (a miscounted block fails there, not at a later
/// deletion of the wrong constraint). Returns the CNF clauses' ids, the
/// steps and the definitions' halves.
pub fn derive_from_model<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    model: &ModelConstraints,
    cnf: &Cnf,
    prov: Option<&Provenance>,
    symmetry: Option<&SymmetryBlock>,
) -> Result<(Vec<Id>, EncodingSteps, Halves), CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let mut first_before = 0;
    if let Some(s) = symmetry {
        if !s.early.0.is_empty() {
            w.comment("dominance over the model alone, before any order")
                .map_err(io)?;
            w.block(&s.early.0, s.early.1).map_err(io)?;
        }
        w.comment("the order of the symmetry breaking")
            .map_err(io)?;
        w.block(&s.prelude, 0).map_err(io)?;
        if !s.before.0.is_empty() {
            w.comment("the symmetry breaking over the model, before the encoding")
                .map_err(io)?;
            first_before = w.block(&s.before.0, s.before.1).map_err(io)?;
        }
    }
    let (mut cnf_ids, steps, halves) =
        derive_cnf(w, names, model, cnf, prov, symmetry).map_err(io)?;
    if let Some(s) = symmetry {
        w.comment("the symmetry breaking, by dominance")
            .map_err(io)?;
        let lines = with_halves(&s.lines, &halves, names).map_err(|e| {
            CertifyError::Producer(format!("VeriPB proof of the symmetry breaking: {e}"))
        })?;
        let first = w.block(&lines, s.ids).map_err(io)?;
        let clauses: Vec<&[Lit]> = cnf.clauses().collect();
        let placed = s
            .derives
            .iter()
            .map(|&(i, rel)| (i, first + rel as Id - 1))
            .chain(
                s.before_derives
                    .iter()
                    .map(|&(i, rel)| (i, first_before + rel as Id - 1)),
            );
        for (i, id) in placed {
            cnf_ids[i] = id;
            w.line(&Step::Equals(names.clause(clauses[i]), Ref::Id(id)))
                .map_err(io)?;
        }
    }
    Ok((cnf_ids, steps, halves))
}
