//! VeriPB certificates that start from the puzzle's PB model, not from the
//! CNF: the proof derives the CNF from the model, replays the search, and
//! ends in the claim's conclusion; the `veripb` checker (3.0.2) checks it.
//!
//! The proof, in the order it is written ([`prove`]):
//!
//! 1. **the encoding** (`derive_cnf`): each auxiliary variable of the
//!    definitions log ([`puzzlesat_encodings::provenance`]) is introduced
//!    by redundance-based strengthening, its two halves `y ⇒ D` and
//!    `¬y ⇒ ¬D` with the witnesses `y → 0` and `y → 1`; then each clause of
//!    the CNF, by reverse unit propagation where the model propagates it,
//!    else by the cutting-planes sum of the halves of its auxiliary
//!    literals (and of the constraint it encodes, found in the database by
//!    `ia`), weakened to the clause's variables and saturated (Gocht,
//!    Martins, Nordström & Oertel, "Certified CNF Translations for
//!    Pseudo-Boolean Solving", SAT 2022);
//! 2. **the symmetry breaking**: a block of lines the puzzle's model owner
//!    writes ([`SymmetryBlock`]: `dom` steps, Bogaerts, Gocht, McCreesh &
//!    Nordström, JAIR 77, 2023), in up to three parts: steps before any
//!    order is loaded (the objective must then get strictly better) and
//!    steps over the model alone right after the order's prelude, both
//!    written before step 1, and the steps that use the encoding's
//!    definitions, after it ([`derive_from_model`]);
//! 3. **the search** ([`replay_search`]): each solution the enumeration
//!    found is logged by `solx` and its blocking clause follows by RUP; the
//!    decision formula is re-solved by the proof solver and each lemma of
//!    its DRAT proof is a `rup` step (deletions become `del id`), ending in
//!    the contradiction;
//! 4. **the conclusion**: `UNSAT` for an infeasible instance, `SAT` for an
//!    enumeration (VeriPB 3.0.2 has no `EQUIENUMERABLE` output: that no
//!    other solution exists is the checked contradiction after the `solx`
//!    steps, not a conclusion the checker states).
//!
//! The proof is written in the syntax of version 3.0 of the format
//! (`proof_format_overview.md` and `migration_guide.md` of the `veripb`
//! crate).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use puzzlesat_encodings::dominance::SymmetryProof;
use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::provenance::{Definition, Linear, Provenance};
use puzzlesat_encodings::solve::Objective;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::{Lit, Var};

use super::{
    drat, formula_digest, produce_proof, Certificate, Certified, CertifyError, Claim, FromModel,
    Producer,
};
use crate::solver::Limits;

/// The checker's install command, named whenever it is missing.
pub const INSTALL: &str = "cargo install veripb --version 3.0.2 --locked";

/// The names a proof gives CNF variables: a model variable's name for a
/// CNF variable the encoder names by it (the primary literals), `x<N>`
/// (`N` its DIMACS number) for every other one, or `y<N>`, `z<N>`, … where
/// the model names its own variables `x<N>` (as the PB competitions' files
/// do).
#[derive(Clone, Debug)]
pub struct ProofNames {
    /// per CNF variable: the model name, and whether the CNF literal is the
    /// name's negation
    model: Vec<Option<(String, bool)>>,
    /// the prefix of the other variables' names
    aux: String,
}

impl ProofNames {
    /// Names for a CNF over `n_vars` variables whose primary literals are
    /// named `names` (the encoder's `Encoded::names`), identified with the
    /// variables of `model` by name; the other variables are named by the
    /// first prefix of `x`, `y`, `z`, `aux`, `aux_`, … that no model
    /// variable's name followed by digits has. An error if two names give
    /// one CNF variable.
    pub fn new(model: &PbModel, names: &[(String, Lit)], n_vars: u32) -> Result<Self, String> {
        let taken = |prefix: &str| {
            model.vars().any(|v| {
                model
                    .name(v)
                    .strip_prefix(prefix)
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        let mut aux = ["x", "y", "z", "aux"]
            .into_iter()
            .find(|p| !taken(p))
            .unwrap_or("aux")
            .to_string();
        while taken(&aux) {
            aux.push('_');
        }
        let lits = model.cnf_literals(names)?;
        let mut by_var: Vec<Option<(String, bool)>> = vec![None; n_vars as usize];
        for v in model.vars() {
            let Some(l) = lits[v.idx()] else { continue };
            let i = l.var().idx();
            if i >= by_var.len() {
                by_var.resize(i + 1, None);
            }
            if let Some((other, _)) = &by_var[i] {
                return Err(format!(
                    "the model's variables '{other}' and '{}' name one CNF variable",
                    model.name(v)
                ));
            }
            by_var[i] = Some((model.name(v).to_string(), l.is_neg()));
        }
        Ok(ProofNames { model: by_var, aux })
    }
    /// Whether CNF variable `v` is a model variable.
    pub fn is_model(&self, v: Var) -> bool {
        matches!(self.model.get(v.idx()), Some(Some(_)))
    }
    /// The variable as the proof writes it (for weakening): the model's
    /// name, or `x12`.
    pub fn var(&self, v: Var) -> String {
        match self.model.get(v.idx()) {
            Some(Some((name, _))) => name.clone(),
            _ => format!("{}{}", self.aux, v.idx() + 1),
        }
    }
    /// The literal as the proof writes it: `name`, `~name`, `x12`, `~x12`.
    pub fn lit(&self, l: Lit) -> String {
        match self.model.get(l.var().idx()) {
            Some(Some((name, negated))) => {
                if l.is_neg() != *negated {
                    format!("~{name}")
                } else {
                    name.clone()
                }
            }
            _ => format!(
                "{}{}{}",
                if l.is_neg() { "~" } else { "" },
                self.aux,
                l.var().idx() + 1
            ),
        }
    }
    /// `Σ a·l ≥ k` as the proof writes it: `1 a 2 ~b >= k`.
    pub fn linear(&self, c: &Linear) -> String {
        let mut s = String::new();
        for &(a, l) in &c.terms {
            let _ = write!(s, "{a} {} ", self.lit(l));
        }
        let _ = write!(s, ">= {}", c.bound);
        s
    }
    /// A clause as the proof writes it: `1 a 1 ~b >= 1`.
    pub fn clause(&self, lits: &[Lit]) -> String {
        self.linear(&Linear::count_at_least(lits, 1))
    }
}

/// A constraint id of the proof (VeriPB numbers the model's constraints
/// from 1, then each rule that adds one).
pub type Id = u64;

/// Writes a VeriPB proof (syntax 3.0), numbering the constraints it adds.
pub struct ProofWriter<W: Write> {
    out: W,
    /// the id the next added constraint gets
    next: Id,
    /// proof size so far
    bytes: u64,
}

impl<W: Write> ProofWriter<W> {
    /// Starts a proof for a model from which VeriPB loads `loaded`
    /// constraints ([`PbModel::loaded`]): the header and the `f` check.
    pub fn new(out: W, loaded: usize) -> io::Result<Self> {
        let mut w = ProofWriter {
            out,
            next: loaded as Id + 1,
            bytes: 0,
        };
        w.line("pseudo-Boolean proof version 3.0")?;
        w.line(&format!("f {loaded};"))?;
        Ok(w)
    }
    /// A line that adds no constraint (a comment, `output`, `del`).
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.bytes += text.len() as u64 + 1;
        writeln!(self.out, "{text}")
    }
    /// A rule that adds one constraint; returns its id.
    pub fn step(&mut self, text: &str) -> io::Result<Id> {
        self.line(text)?;
        self.next += 1;
        Ok(self.next - 1)
    }
    /// A block of lines written elsewhere that adds `ids` constraints;
    /// returns the id of the first.
    pub fn block(&mut self, lines: &[String], ids: usize) -> io::Result<Id> {
        let first = self.next;
        for l in lines {
            self.line(l)?;
        }
        self.next += ids as Id;
        Ok(first)
    }
    /// A `%` comment.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.line(&format!("% {text}"))
    }
    /// Counts `n` ids that a rule adds without a line of its own (a
    /// subproof's reserved id and premise, its derived constraint).
    pub fn skip(&mut self, n: Id) {
        self.next += n;
    }
    /// The id the next added constraint gets.
    pub fn next_id(&self) -> Id {
        self.next
    }
    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    /// Ends the proof with `output NONE` and `conclusion`, and flushes.
    pub fn finish(mut self, conclusion: &str) -> io::Result<u64> {
        self.line("output NONE;")?;
        self.line(&format!("conclusion {conclusion};"))?;
        self.line("end pseudo-Boolean proof;")?;
        self.out.flush()?;
        Ok(self.bytes)
    }
}

/// Lines the model's owner writes to derive the symmetry-breaking and
/// dominance clauses (by `dom`), placed after the encoding and before the
/// search.
#[derive(Clone, Debug, Default)]
pub struct SymmetryBlock {
    /// lines right after the header, before any definition (`def_order`,
    /// `load_order`: with the order loaded, the definitions and clauses
    /// derived later stay in the derived set); they add no constraint id
    pub prelude: Vec<String>,
    /// lines before the prelude, over the model alone (with their number
    /// of constraint ids)
    pub early: (Vec<String>, usize),
    /// lines right after the prelude, before the encoding's definitions
    /// (with their number of constraint ids)
    pub before: (Vec<String>, usize),
    /// the CNF clauses the `before` lines derive, as `derives`
    pub before_derives: Vec<(usize, usize)>,
    /// the `before` lines' first `before_rule_ids` ids derive clauses of
    /// the model's rules (as `rule_ids`)
    pub before_rule_ids: usize,
    /// the proof lines
    pub lines: Vec<String>,
    /// how many constraint ids the lines add
    pub ids: usize,
    /// CNF variables the lines introduce themselves (no definition is
    /// written for them)
    pub defines: Vec<Var>,
    /// the CNF clauses (indices, in CNF order) the lines derive, each with
    /// the id of the constraint that implies it, counted from 1 at the
    /// block's first line
    pub derives: Vec<(usize, usize)>,
    /// the block's first `rule_ids` ids derive clauses of the model's
    /// rules: counted as the encoding's, not as symmetry breaking
    pub rule_ids: usize,
    /// the label and terms of the constraint tying the CNF's objective to
    /// the model's ([`SymmetryProof::objective_link`])
    pub objective_link: Option<(String, Linear)>,
}

impl SymmetryBlock {
    /// Whether the block breaks symmetry (an order, or steps past the
    /// model's rules): a cube then cannot be a constraint of the model.
    pub fn uses_dominance(&self) -> bool {
        !self.prelude.is_empty()
            || self.early.1 > 0
            || self.before.1 > 0
            || self.ids > self.rule_ids
    }
    /// The block of `proof`, whose derived clauses are found in `cnf`.
    pub fn new(proof: SymmetryProof, cnf: &Cnf) -> Result<Self, String> {
        // both parts' clauses matched at once (a clause posted twice may be
        // derived once in each), the block's ids marked past SPLIT
        const SPLIT: usize = 1 << 40;
        let all = puzzlesat_encodings::dominance::ProofLines {
            derived: proof
                .before
                .derived
                .iter()
                .cloned()
                .chain(
                    proof
                        .block
                        .derived
                        .iter()
                        .map(|(c, id)| (c.clone(), id + SPLIT)),
                )
                .collect(),
            ..Default::default()
        };
        let placed = all.cnf_indices(cnf.clauses())?;
        let before_derives = placed
            .iter()
            .copied()
            .filter(|&(_, id)| id < SPLIT)
            .collect();
        let derives = placed
            .iter()
            .filter(|&&(_, id)| id >= SPLIT)
            .map(|&(i, id)| (i, id - SPLIT))
            .collect();
        Ok(SymmetryBlock {
            early: (proof.early.lines, proof.early.ids),
            before_rule_ids: proof.before.rule_ids,
            before: (proof.before.lines, proof.before.ids),
            before_derives,
            prelude: proof.prelude,
            lines: proof.block.lines,
            ids: proof.block.ids,
            defines: proof
                .before
                .defines
                .iter()
                .chain(&proof.block.defines)
                .copied()
                .collect(),
            derives,
            rule_ids: proof.block.rule_ids,
            objective_link: proof.objective_link,
        })
    }
}

/// The block's lines with each `{half L}` operand
/// ([`puzzlesat_encodings::dominance::ProofLines::half`]) replaced by the
/// id of the definition half in which the literal named `L` occurs; `Err`
/// names a literal with no such half.
fn with_halves(
    lines: &[String],
    halves: &Halves,
    names: &ProofNames,
) -> Result<Vec<String>, String> {
    const OPEN: &str = "{half ";
    if !lines.iter().any(|l| l.contains(OPEN)) {
        return Ok(lines.to_vec());
    }
    let ids: HashMap<String, Id> = halves
        .iter()
        .map(|(&l, &(id, _))| (names.lit(l), id))
        .collect();
    lines
        .iter()
        .map(|line| {
            let mut out = String::with_capacity(line.len());
            let mut rest = line.as_str();
            while let Some(at) = rest.find(OPEN) {
                out.push_str(&rest[..at]);
                let after = &rest[at + OPEN.len()..];
                let end = after
                    .find('}')
                    .ok_or_else(|| format!("an unclosed half in '{line}'"))?;
                let lit = &after[..end];
                let id = ids
                    .get(lit)
                    .ok_or_else(|| format!("no definition half of {lit} (in '{line}')"))?;
                out.push_str(&id.to_string());
                rest = &after[end + 1..];
            }
            out.push_str(rest);
            Ok(out)
        })
        .collect()
}

/// A constraint `Σ c·l ≥ d` in normal form (one literal per variable,
/// positive coefficients), to compute a cutting-planes sum before writing
/// it.
#[derive(Clone, Debug, Default)]
struct Sum {
    terms: std::collections::BTreeMap<Var, (u64, bool)>, // coefficient, negated (ordered: the same proof every run)
    degree: i64,
}

impl Sum {
    fn add(&mut self, c: &Linear) {
        self.degree += c.bound;
        for &(a, l) in &c.terms {
            match self.terms.get_mut(&l.var()) {
                None => {
                    self.terms.insert(l.var(), (a, l.is_neg()));
                }
                Some((b, neg)) if *neg == l.is_neg() => *b += a,
                Some((b, neg)) => {
                    // a·l + b·¬l = min(a, b) + |a − b|·(the larger one's literal)
                    let m = a.min(*b);
                    self.degree -= m as i64;
                    if a > *b {
                        *b = a - *b;
                        *neg = l.is_neg();
                    } else {
                        *b -= m;
                    }
                    if *b == 0 {
                        self.terms.remove(&l.var());
                    }
                }
            }
        }
    }
    /// The sum as a constraint.
    fn linear(&self) -> Linear {
        let mut terms: Vec<(u64, Lit)> = self
            .terms
            .iter()
            .map(|(&v, &(a, neg))| (a, Lit::new(v.idx32(), neg)))
            .collect();
        terms.sort_by_key(|&(_, l)| l);
        Linear {
            terms,
            bound: self.degree,
        }
    }
    /// The variables to weaken away so that only `clause`'s literals stay,
    /// if the sum then still implies the clause (degree ≥ 1).
    fn weakening_to(&self, clause: &[Lit]) -> Option<Vec<Var>> {
        let mut degree = self.degree;
        let mut weaken = vec![];
        for (&v, &(a, neg)) in &self.terms {
            let keep = clause.iter().any(|l| l.var() == v && l.is_neg() == neg);
            if !keep {
                degree -= a as i64;
                weaken.push(v);
            }
        }
        (degree >= 1).then(|| {
            weaken.sort();
            weaken
        })
    }
}

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
enum Intro {
    /// an auxiliary variable: by redundance, both halves
    Red,
    /// a model variable: both halves follow from the model by RUP (e.g.
    /// the order literal `[x ≥ lb+1]`, which is the model's `¬[x = lb]`)
    Rup,
}

/// The definitions a proof writes, in order: the order literals of each
/// integer whose model speaks of its direct literals
/// (`[x ≥ v] ⇔ Σ_{u ≥ v} [x = u] ≥ 1`), then the log's, each once.
fn definitions(
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

/// The model's constraints over CNF literals, as `≥` constraints with
/// their ids in the proof (an equality as two), indexed by variable. A
/// constraint over a model-only variable (one the CNF does not name) is
/// kept apart, its model-only variables as placeholder literals that no
/// CNF has: it serves only as the source of an implied constraint
/// ([`Self::source`]: `ia`, which names the id, not the terms), e.g. an
/// at-most-one over part of a row whose other literals the symmetry
/// breaking fixes false.
pub struct ModelConstraints {
    constraints: Vec<(Id, Linear)>,
    by_var: HashMap<Var, Vec<usize>>,
    partial: Vec<(Id, Linear)>,
    partial_by_var: HashMap<Var, Vec<usize>>,
}

/// The first placeholder variable of [`ModelConstraints`] (above any CNF's).
const MODEL_ONLY: u32 = 1 << 30;

impl ModelConstraints {
    /// The constraints of `model`.
    pub fn new(model: &PbModel, names: &ProofNames) -> Self {
        use puzzlesat_encodings::pbmodel::Relation;
        let mut lit_of: HashMap<&str, Lit> = HashMap::new();
        for (i, m) in names.model.iter().enumerate() {
            if let Some((name, negated)) = m {
                lit_of.insert(name, Lit::new(i as u32, *negated));
            }
        }
        let (mut constraints, mut partial) = (vec![], vec![]);
        let mut id: Id = 1;
        for c in model.constraints() {
            let first = id;
            id += c.loaded() as Id;
            let mut model_only = false;
            let terms: Vec<(i64, Lit)> = c
                .terms
                .iter()
                .map(|&(a, l)| {
                    let x = lit_of.get(model.name(l.var)).copied().unwrap_or_else(|| {
                        model_only = true;
                        Lit::positive(MODEL_ONLY + l.var.idx() as u32)
                    });
                    (a, if l.negated { !x } else { x })
                })
                .collect();
            let to = if model_only {
                &mut partial
            } else {
                &mut constraints
            };
            let ge = || Linear::at_least(terms.iter().copied(), c.rhs);
            let le = || Linear::at_least(terms.iter().map(|&(a, l)| (-a, l)), -c.rhs);
            match c.relation {
                Relation::AtLeast => to.push((first, ge())),
                Relation::AtMost => to.push((first, le())),
                Relation::Equal => {
                    to.push((first, ge()));
                    to.push((first + 1, le()));
                }
            }
        }
        let index = |cs: &[(Id, Linear)]| {
            let mut by_var: HashMap<Var, Vec<usize>> = HashMap::new();
            for (i, (_, c)) in cs.iter().enumerate() {
                for &(_, l) in &c.terms {
                    by_var.entry(l.var()).or_default().push(i);
                }
            }
            by_var
        };
        ModelConstraints {
            by_var: index(&constraints),
            partial_by_var: index(&partial),
            constraints,
            partial,
        }
    }
    /// A model constraint that implies `c`, and the divisor that makes it
    /// imply `c` syntactically (1: as it is; `d`: after VeriPB's division
    /// by `d`, e.g. `3·Σ l ≤ 7` gives `Σ l ≤ 2`).
    pub fn source(&self, c: &Linear) -> Option<(Id, u64)> {
        let (_, first) = c.terms.first()?;
        let candidates = self
            .by_var
            .get(&first.var())
            .into_iter()
            .flatten()
            .map(|&i| &self.constraints[i])
            .chain(
                self.partial_by_var
                    .get(&first.var())
                    .into_iter()
                    .flatten()
                    .map(|&i| &self.partial[i]),
            );
        for (id, m) in candidates {
            if implies(m, c) {
                return Some((*id, 1));
            }
            let mut divisors: Vec<u64> =
                m.terms.iter().map(|&(a, _)| a).filter(|&a| a > 1).collect();
            divisors.sort_unstable();
            divisors.dedup();
            if let Some(d) = divisors.into_iter().find(|&d| implies(&divided(m, d), c)) {
                return Some((*id, d));
            }
        }
        None
    }
}

impl ModelConstraints {
    /// The constraint with id `id` (over CNF literals).
    pub fn get(&self, id: Id) -> Option<&Linear> {
        self.constraints
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, c)| c)
    }
    /// Derives `c` from the model constraint that implies it ([`Self::source`]):
    /// `ia c : id`, after `pol id d d` for a division; without one, `ia c`
    /// (which the check refuses; [`plan`] refuses such a run first).
    fn derive<W: Write>(
        &self,
        w: &mut ProofWriter<W>,
        names: &ProofNames,
        c: &Linear,
    ) -> io::Result<Id> {
        let c_str = names.linear(c);
        match self.source(c) {
            Some((m, 1)) => w.step(&format!("ia {c_str} : {m};")),
            Some((m, d)) => {
                let q = w.step(&format!("pol {m} {d} d;"))?;
                w.step(&format!("ia {c_str} : {q};"))
            }
            None => w.step(&format!("ia {c_str};")),
        }
    }
}

/// `m·c`.
fn scaled_by(c: &Linear, m: u64) -> Linear {
    Linear {
        terms: c.terms.iter().map(|&(a, l)| (a * m, l)).collect(),
        bound: c.bound * m as i64,
    }
}

/// How many times to add the definition half `h` to the source `c` so that
/// its terms outside `clause` cancel `c`'s: the largest ratio of `c`'s
/// coefficient of a negated term of `h` to `h`'s coefficient, at least 1.
fn multiplier(h: &Linear, c: &Linear, clause: &[Lit]) -> u64 {
    let coef: HashMap<Lit, u64> = c.terms.iter().map(|&(a, l)| (l, a)).collect();
    h.terms
        .iter()
        .filter(|(_, l)| !clause.iter().any(|k| k.var() == l.var()))
        .filter_map(|&(a, l)| Some(coef.get(&!l)?.div_ceil(a)))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// VeriPB's division of `c` by `d`: every coefficient and the degree
/// rounded up.
fn divided(c: &Linear, d: u64) -> Linear {
    Linear {
        terms: c.terms.iter().map(|&(a, l)| (a.div_ceil(d), l)).collect(),
        bound: (c.bound.max(0) as u64).div_ceil(d) as i64,
    }
}

/// Whether `c` syntactically implies `d` (a sound test of VeriPB's `i`
/// rule): weaken `c` to `d`'s literals, then each of its coefficients,
/// capped at `d`'s degree, is at most `d`'s, and its degree is at least
/// `d`'s.
fn implies(c: &Linear, d: &Linear) -> bool {
    let mut sum = Sum::default();
    sum.add(c);
    let mut degree = sum.degree;
    let mut dterms: HashMap<Lit, u64> = HashMap::new();
    let mut dsum = Sum::default();
    dsum.add(d);
    for (&v, &(b, neg)) in &dsum.terms {
        dterms.insert(Lit::new(v.idx32(), neg), b);
    }
    let dd = dsum.degree;
    let mut fits = true;
    for (&v, &(a, neg)) in &sum.terms {
        match dterms.get(&Lit::new(v.idx32(), neg)) {
            Some(&b) => fits &= a.min(dd.max(0) as u64) <= b,
            None => degree -= a as i64, // weakened away
        }
    }
    fits && degree >= dd
}

/// The half of each defined literal's definition in which it occurs: for
/// `y ⇔ D`, `k·¬y + D ≥ k` is the half of `¬y`, `(A−k+1)·y + ¬D` of `y`;
/// with its id.
pub type Halves = HashMap<Lit, (Id, Linear)>;

/// Introduces the definitions of `prov` and derives each clause of `cnf`
/// (the ones `symmetry` does not derive) from the model; returns the id
/// that implies each clause, and the definitions' halves.
fn derive_cnf<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    model: &ModelConstraints,
    cnf: &Cnf,
    prov: Option<&Provenance>,
    symmetry: Option<&SymmetryBlock>,
) -> io::Result<(Vec<Id>, EncodingSteps, Halves)> {
    let mut steps = EncodingSteps::default();
    let mut half: Halves = HashMap::new();
    let skip_defs: Vec<Var> = symmetry.map(|s| s.defines.clone()).unwrap_or_default();
    // (the block introduces these itself, by `red` too)
    steps.definitions += skip_defs.len();
    let defs = definitions(names, prov, &skip_defs);
    if !defs.is_empty() {
        w.comment("the encoding's auxiliary variables: red for new ones, rup for model variables")?;
    }
    for (d, intro) in &defs {
        let y = d.lit;
        steps.definitions += usize::from(*intro == Intro::Red);
        let var = names.var(y.var());
        // witness: the value of y's variable that makes y false / true
        let (falsify, satisfy) = if y.is_neg() { ("1", "0") } else { ("0", "1") };
        let rule = |c: &Linear, value: &str| match intro {
            Intro::Red => format!("red {} : {var} -> {value};", names.linear(c)),
            Intro::Rup => format!("rup {};", names.linear(c)),
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
    // a definition written first, `y ⇔ Σ_S l ≥ 1` over model literals
    // of which the model says at most one holds: its tight half
    // `y + Σ_S ¬l ≥ |S|` ("y ≥ Σ_S l"), the sum of the at-most-one and the
    // y-half divided by |S|, replaces the y-half in the sums below
    let first: std::collections::HashSet<Lit> = prov
        .map(|p| p.first.iter().map(|d| d.lit).collect())
        .unwrap_or_default();
    for (d, _) in &defs {
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
        let id = w.step(&format!("pol {amo_id} {} * {y_half} + {k} d;", k - 1))?;
        let mut tight =
            Linear::count_at_least(&lits.iter().map(|&l| !l).collect::<Vec<_>>(), k as i64);
        tight.terms.push((1, d.lit));
        half.insert(d.lit, (id, tight));
    }
    w.comment("the CNF's clauses")?;
    // the symmetry block's clauses get their ids once it is written
    let mut ids = vec![0; cnf.len()];
    // (with the block-relative id, and whether it is a rule's clause)
    let by_symmetry: HashMap<usize, bool> = symmetry
        .map(|s| {
            s.derives
                .iter()
                .map(|&(i, rel)| (i, rel <= s.rule_ids))
                .chain(
                    s.before_derives
                        .iter()
                        .map(|&(i, rel)| (i, rel <= s.before_rule_ids)),
                )
                .collect()
        })
        .unwrap_or_default();
    // each stated source constraint, found once in the database by `ia`
    let mut source_ids: HashMap<u32, Id> = HashMap::new();
    // [x ≥ v+1] → [x ≥ v] of each integer: the lower literal, and the
    // index of the binary clauses (the order clauses among them)
    let lower: HashMap<Lit, Lit> = prov
        .map(|p| {
            p.ints
                .iter()
                .flat_map(|int| int.ge.windows(2).map(|w| (w[1], w[0])))
                .collect()
        })
        .unwrap_or_default();
    let higher: HashMap<Lit, Lit> = lower.iter().map(|(&h, &l)| (l, h)).collect();
    let binary: HashMap<Vec<Lit>, usize> = cnf
        .clauses()
        .enumerate()
        .filter(|(_, c)| c.len() == 2)
        .map(|(i, c)| (ClauseIds::key(c), i))
        .collect();
    for (i, clause) in cnf.clauses().enumerate() {
        if let Some(&rule) = by_symmetry.get(&i) {
            if rule {
                steps.rup += 1;
            } else {
                steps.symmetry += 1;
            }
            continue;
        }
        let all_halves: Vec<&(Id, Linear)> = clause.iter().filter_map(|l| half.get(l)).collect();
        let aux_halves: Vec<&(Id, Linear)> = clause
            .iter()
            .filter(|l| !names.is_model(l.var()))
            .filter_map(|l| half.get(l))
            .collect();
        let sources: Vec<(u32, &Linear)> = prov.map(|p| p.sources_of(i)).unwrap_or_default();
        let source = sources.first().copied();
        if all_halves.is_empty() && source.is_none() {
            ids[i] = w.step(&format!("rup {};", names.clause(clause)))?;
            steps.rup += 1;
            continue;
        }
        // the sum of the auxiliary literals' halves (then of every
        // literal's), with or without a source constraint; each half as it
        // is, or multiplied so that its terms cancel the source's
        let mut derived = None;
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
        'tries: for halves in [&aux_halves, &all_halves, &inner_halves] {
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
                        derived = Some((src, weaken, halves.clone(), mult));
                        break 'tries;
                    }
                }
            }
        }
        let mut ladders = vec![];
        // the auxiliary halves again, with each leaf [x ≥ k] of an integer
        // moved down its order clauses to the clause's [x ≥ j]: with the
        // first source and the inner halves, then with each source and the
        // halves of the clause's literals that are not its terms (a sum's
        // lemma over the order literals of its cells)
        let mut candidates = vec![(source, inner_halves.clone())];
        for &(s, c) in &sources {
            let terms: std::collections::HashSet<Var> =
                c.terms.iter().map(|&(_, l)| l.var()).collect();
            let halves: Vec<&(Id, Linear)> = clause
                .iter()
                .filter(|l| !names.is_model(l.var()) && !terms.contains(&l.var()))
                .filter_map(|l| half.get(l))
                .collect();
            candidates.push((Some((s, c)), halves));
        }
        for (src, halves) in candidates {
            if derived.is_some() {
                break;
            }
            ladders.clear();
            let mut sum = Sum::default();
            for (_, c) in halves.iter() {
                sum.add(c);
            }
            if let Some((_, c)) = src {
                sum.add(c);
            }
            // one step: [x ≥ k] down to [x ≥ k−1], or ¬[x ≥ k] up to
            // ¬[x ≥ k+1], by the order clause ¬[x ≥ k] ∨ [x ≥ k−1]
            let step = |l: Lit| -> Option<(Lit, [Lit; 2])> {
                if let Some(&low) = lower.get(&l) {
                    return Some((low, [!l, low]));
                }
                let &high = higher.get(&!l)?;
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
            'moves: loop {
                for (&v, &(a, neg)) in &sum.terms {
                    let l = Lit::new(v.idx32(), neg);
                    if clause.contains(&l) || !reaches(l) {
                        continue;
                    }
                    let (_, order_clause) = step(l).expect("reaches");
                    let Some(&k) = binary.get(&ClauseIds::key(&order_clause)) else {
                        continue;
                    };
                    if k >= i {
                        continue;
                    }
                    let [p, q] = order_clause;
                    sum.add(&Linear::at_least([(a as i64, p), (a as i64, q)], a as i64));
                    ladders.push((ids[k], a));
                    continue 'moves;
                }
                break;
            }
            if let Some(weaken) = sum.weakening_to(clause) {
                let mult = vec![1; halves.len()];
                derived = Some((src, weaken, halves, mult));
            }
        }
        if derived.is_none() {
            ladders.clear();
        }
        if derived.is_none() {
            // a model constraint over one of the clause's model literals
            // with the auxiliary halves (e.g. a cell's at-most-one for
            // `[high = h] ∧ [low = l] → [F = n·h + l + 1]`)
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
            'model: for v in vars.into_iter().take(2) {
                for &k in model.by_var.get(&v).into_iter().flatten().take(8) {
                    let (id, c) = &model.constraints[k];
                    let mut sum = Sum::default();
                    for (_, h) in aux_halves.iter() {
                        sum.add(h);
                    }
                    sum.add(c);
                    if let Some(weaken) = sum.weakening_to(clause) {
                        ladders.clear();
                        ladders.push((*id, 1));
                        let mult = vec![1; aux_halves.len()];
                        derived = Some((None, weaken, aux_halves.clone(), mult));
                        break 'model;
                    }
                }
            }
        }
        let Some((src, weaken, halves, mult)) = derived else {
            ids[i] = w.step(&format!("rup {};", names.clause(clause)))?;
            steps.rup += 1;
            continue;
        };
        let mut pol = PolSum::new();
        for (id, a) in ladders {
            pol.add(&if a == 1 {
                id.to_string()
            } else {
                format!("{id} {a} *")
            });
        }
        if let Some((s, c)) = src {
            let id = match source_ids.get(&s) {
                Some(&id) => id,
                None => {
                    let lemma = prov.and_then(|p| p.lemma_of(s));
                    let id = match lemma {
                        Some(lemma) => {
                            let extra = prov
                                .and_then(|p| p.lemma_halves.get(&s))
                                .map_or(&[][..], |v| &v[..]);
                            derive_lemma(w, names, model, c, lemma, extra, &half)?
                        }
                        None => model.derive(w, names, c)?,
                    };
                    source_ids.insert(s, id);
                    id
                }
            };
            pol.add(&id.to_string());
        }
        for ((id, _), &m) in halves.iter().zip(&mult) {
            pol.add(&if m == 1 {
                id.to_string()
            } else {
                format!("{id} {m} *")
            });
        }
        for v in weaken {
            pol.then(&format!("{} w", names.var(v)));
        }
        pol.then("s");
        ids[i] = w.step(&pol.finish())?;
        steps.pol += 1;
    }
    Ok((ids, steps, half))
}

/// A `pol` step in reverse Polish notation: the sum of its operands
/// (constraint ids or literal axioms, each possibly multiplied), then
/// weakenings, a division and saturation.
struct PolSum {
    text: String,
    operands: usize,
}

impl PolSum {
    fn new() -> Self {
        PolSum {
            text: String::from("pol"),
            operands: 0,
        }
    }
    /// Adds `operand` (e.g. `12`, `12 3 *`, `~x 3 *`) to the sum.
    fn add(&mut self, operand: &str) {
        let _ = write!(self.text, " {operand}");
        if self.operands > 0 {
            self.text.push_str(" +");
        }
        self.operands += 1;
    }
    /// Applies `op` to the sum (`x w`, `3 d`, `s`).
    fn then(&mut self, op: &str) {
        let _ = write!(self.text, " {op}");
    }
    /// The step's text.
    fn finish(mut self) -> String {
        self.text.push(';');
        self.text
    }
}

/// Derives the lemma `c` from the model: each part from the model
/// constraint that implies it (`ia`, after `pol … d` for a division), their
/// sum divided by the lemma's divisor, then `c` by `ia`. Returns its id.
#[allow(clippy::too_many_arguments)]
fn derive_lemma<W: Write>(
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
            pol.add(&if a == 1 {
                id.to_string()
            } else {
                format!("{id} {a} *")
            });
        }
    }
    for part in &lemma.parts {
        if part.bound <= 0 {
            // always true: the sum of its literals' axioms is stronger
            for &(a, l) in &part.terms {
                pol.add(&format!("{} {a} *", names.lit(l)));
            }
            continue;
        }
        pol.add(&model.derive(w, names, part)?.to_string());
    }
    if lemma.divisor > 1 {
        pol.then(&format!("{} d", lemma.divisor));
    }
    let sum = w.step(&pol.finish())?;
    w.step(&format!("ia {} : {sum};", names.linear(c)))
}

/// Derives `clause` from the constraint `c` (id `c_id`) and the halves of
/// its defined literals, by one `pol` sum weakened to the clause's
/// variables; None if that sum does not imply it.
fn derive_from<W: Write>(
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
    pol.add(&c_id.to_string());
    for id in used {
        pol.add(&id.to_string());
    }
    for v in weaken {
        pol.then(&format!("{} w", names.var(v)));
    }
    pol.then("s");
    w.step(&pol.finish()).map(Some)
}

/// The value of every model variable in the solution `best` (an assignment
/// of the CNF): a variable the CNF names takes its literal's value; the
/// model's own auxiliary variables (which the CNF does not name) are then
/// set one by one, each to a value that keeps every constraint it occurs
/// in satisfiable, and the whole model is checked. `Err` says why no
/// solution of the model follows.
fn model_solution(
    model: &PbModel,
    cnf_lits: &[Option<Lit>],
    best: &Assignment,
) -> Result<Vec<bool>, String> {
    use puzzlesat_encodings::pbmodel::Relation;
    let mut value: Vec<Option<bool>> = cnf_lits
        .iter()
        .map(|l| {
            l.filter(|l| l.var().idx() < best.len())
                .map(|l| best.lit(l))
        })
        .collect();
    let mut occurs: Vec<Vec<usize>> = vec![vec![]; model.n_vars()];
    for (i, c) in model.constraints().iter().enumerate() {
        for &(_, l) in &c.terms {
            occurs[l.var.idx()].push(i);
        }
    }
    // can constraint i still hold, the unset variables free?
    let feasible = |value: &[Option<bool>], i: usize| {
        let c = &model.constraints()[i];
        let (mut lo, mut hi) = (0i64, 0i64);
        for &(a, l) in &c.terms {
            match value[l.var.idx()] {
                Some(v) if v != l.negated => {
                    lo += a;
                    hi += a;
                }
                Some(_) => {}
                None => {
                    if a > 0 {
                        hi += a
                    } else {
                        lo += a
                    }
                }
            }
        }
        match c.relation {
            Relation::AtLeast => hi >= c.rhs,
            Relation::AtMost => lo <= c.rhs,
            Relation::Equal => lo <= c.rhs && hi >= c.rhs,
        }
    };
    let vars: Vec<puzzlesat_encodings::pbmodel::PbVar> = model.vars().collect();
    // the model's own variables, last defined first (a binary number's
    // bits from the top)
    for v in (0..model.n_vars()).rev() {
        if value[v].is_some() {
            continue;
        }
        let fits = |value: &mut Vec<Option<bool>>, b: bool| {
            value[v] = Some(b);
            occurs[v].iter().all(|&i| feasible(value, i))
        };
        if !fits(&mut value, true) && !fits(&mut value, false) {
            return Err(format!(
                "no value of the model's variable {} fits the solution",
                model.name(vars[v])
            ));
        }
    }
    let value: Vec<bool> = value.into_iter().map(|b| b.unwrap_or(false)).collect();
    model.check(|v| value[v.idx()])?;
    Ok(value)
}

/// Clauses by their sorted literals, to find the ids a DRAT deletion
/// names.
#[derive(Default)]
struct ClauseIds(HashMap<Vec<Lit>, Vec<Id>>);

impl ClauseIds {
    fn key(lits: &[Lit]) -> Vec<Lit> {
        let mut k = lits.to_vec();
        k.sort_unstable();
        k.dedup();
        k
    }
    fn insert(&mut self, lits: &[Lit], id: Id) {
        self.0.entry(Self::key(lits)).or_default().push(id);
    }
    fn remove(&mut self, lits: &[Lit]) -> Option<Id> {
        let key = Self::key(lits);
        let ids = self.0.get_mut(&key)?;
        let id = ids.pop();
        if ids.is_empty() {
            self.0.remove(&key);
        }
        id
    }
}

/// What the search part of a proof holds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchSteps {
    /// solutions logged by `solx` (or, for an optimum, the best by `soli`)
    pub solutions: usize,
    /// other clauses added during the run, derived by RUP
    pub added: usize,
    /// lemmas of the proof solver's DRAT proof
    pub lemmas: usize,
    /// those the refutation rests on (the DRAT core), as `rup` steps
    pub replayed: usize,
    /// its deletions, as `del id`
    pub deletions: usize,
    /// time of the proof solver's solve
    pub solve_seconds: f64,
    /// the format of the proof solver's proof
    pub format: Option<drat::DratFormat>,
}

/// Replays the search of an UNSAT answer: `formula` is the decision
/// formula (the CNF's `n_cnf` clauses, whose ids are `cnf_ids`, then the
/// clauses added since and the assumptions as units); a clause over every
/// primary literal is a blocking clause, logged as its solution by `solx`.
/// Then the proof solver re-solves the formula and each DRAT lemma is a
/// `rup` step. Returns the id of the contradiction.
#[allow(clippy::too_many_arguments)]
pub fn replay_search<W: Write>(
    w: &mut ProofWriter<W>,
    names: &ProofNames,
    formula: &Cnf,
    n_cnf: usize,
    cnf_ids: &[Id],
    primary: &[Lit],
    deletions: bool,
    spent: &[Id],
    producer: &Producer,
    limits: &Limits,
) -> Result<(Id, SearchSteps), CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let mut steps = SearchSteps::default();
    let mut ids = ClauseIds::default();
    for (i, c) in formula.clauses().take(n_cnf).enumerate() {
        ids.insert(c, cnf_ids[i]);
    }
    let mut primary_vars: Vec<Var> = primary.iter().map(|l| l.var()).collect();
    primary_vars.sort_unstable();
    w.comment("the search: the solutions found, then the proof solver's lemmas")
        .map_err(io)?;
    for c in formula.clauses().skip(n_cnf) {
        let mut vars: Vec<Var> = c.iter().map(|l| l.var()).collect();
        vars.sort_unstable();
        if !primary_vars.is_empty() && vars == primary_vars {
            let sol: Vec<String> = c.iter().map(|&l| names.lit(!l)).collect();
            w.step(&format!("solx {};", sol.join(" "))).map_err(io)?;
            steps.solutions += 1;
        } else {
            steps.added += 1;
        }
        let id = w.step(&format!("rup {};", names.clause(c))).map_err(io)?;
        ids.insert(c, id);
    }
    if !spent.is_empty() {
        w.comment("constraints the lemmas do not need (the definitions' halves)")
            .map_err(io)?;
        let ids: Vec<String> = spent.iter().map(Id::to_string).collect();
        w.line(&format!("deld {};", ids.join(" "))).map_err(io)?;
    }
    let (proof, solve_seconds) = produce_proof(formula, producer, limits)?;
    steps.solve_seconds = solve_seconds;
    let format = drat::detect_format(&proof);
    steps.format = Some(format);
    // only the lemmas the refutation rests on: the backward DRAT check
    // marks them (each is RUP over the formula and the earlier core
    // lemmas), and VeriPB replays those alone
    let stop = || limits.expired();
    let core = match drat::check_with_core(formula, &proof, format, &stop) {
        Ok((_, core)) => core,
        Err(drat::DratError::Stopped) => return Err(CertifyError::Stopped),
        Err(e) => {
            return Err(CertifyError::Producer(format!(
                "the proof solver's DRAT proof does not refute the formula: {e}"
            )))
        }
    };
    let mut lemma = 0;
    let mut empty = None;
    let mut failed = None;
    let mut lits = vec![];
    drat::parse(&proof, format, |delete, raw| {
        if failed.is_some() || empty.is_some() {
            return Ok(());
        }
        lits.clear();
        lits.extend(raw.iter().map(|&l| Lit::new(l >> 1, l & 1 == 1)));
        let r = if delete && !deletions {
            Ok(())
        } else if delete {
            match ids.remove(&lits) {
                Some(id) if id != 0 => {
                    steps.deletions += 1;
                    w.line(&format!("del id {id};"))
                }
                _ => Ok(()),
            }
        } else if !core.get(lemma).copied().unwrap_or(false) {
            // not replayed; kept as a placeholder (id 0) so that a deletion
            // of this clause removes the placeholder, not a copy the proof
            // has (identical clauses are a stack)
            lemma += 1;
            steps.lemmas += 1;
            ids.insert(&lits, 0);
            Ok(())
        } else {
            lemma += 1;
            steps.lemmas += 1;
            steps.replayed += 1;
            w.step(&format!("rup {};", names.clause(&lits))).map(|id| {
                if lits.is_empty() {
                    empty = Some(id);
                }
                ids.insert(&lits, id);
            })
        };
        if let Err(e) = r {
            failed = Some(e);
        }
        Ok(())
    })?;
    if let Some(e) = failed {
        return Err(io(e));
    }
    let contradiction = match empty {
        Some(id) => id,
        None => w.step("rup >= 1;").map_err(io)?,
    };
    Ok((contradiction, steps))
}

/// A checked VeriPB proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// the checker and its version (`veripb 3.0.2`)
    pub checker: String,
    /// the checker's verdict line (`s VERIFIED …`)
    pub verdict: String,
    /// time of the check
    pub seconds: f64,
}

/// The `veripb` on PATH and its version, or the error naming the install
/// command.
pub fn checker() -> Result<String, CertifyError> {
    let out = Command::new("veripb")
        .arg("--version")
        .output()
        .map_err(|_| {
            CertifyError::Producer(format!(
            "the VeriPB checker is not installed (no `veripb` on PATH): install it with `{INSTALL}`"
        ))
        })?;
    let v = String::from_utf8_lossy(&out.stdout);
    let v = v
        .lines()
        .find(|l| l.starts_with("veripb"))
        .unwrap_or("veripb (unknown version)");
    Ok(v.trim().to_string())
}

/// Runs `veripb MODEL PROOF`; Ok only if it verifies the proof. The check
/// is stopped (and the run told so) when `limits` expire: the time limit,
/// Ctrl-C or SIGTERM.
pub fn check(model: &Path, proof: &Path, limits: &Limits) -> Result<Checked, CertifyError> {
    let checker = checker()?;
    let t = Instant::now();
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let (mut out_file, mut err_file) = (
        tempfile::tempfile().map_err(io)?,
        tempfile::tempfile().map_err(io)?,
    );
    let mut child = Command::new("veripb")
        .arg("--hide-warnings")
        .arg(model)
        .arg(proof)
        .stdout(out_file.try_clone().map_err(io)?)
        .stderr(err_file.try_clone().map_err(io)?)
        .spawn()
        .map_err(|e| CertifyError::Producer(format!("veripb could not be run: {e}")))?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            break status;
        }
        if limits.expired() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(CertifyError::Stopped);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let seconds = t.elapsed().as_secs_f64();
    let read = |f: &mut std::fs::File| -> Result<Vec<u8>, CertifyError> {
        use std::io::{Read, Seek};
        let mut v = vec![];
        f.seek(io::SeekFrom::Start(0)).map_err(io)?;
        f.read_to_end(&mut v).map_err(io)?;
        Ok(v)
    };
    let out = std::process::Output {
        status,
        stdout: read(&mut out_file)?,
        stderr: read(&mut err_file)?,
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict = stdout.lines().find(|l| l.starts_with("s VERIFIED"));
    match verdict {
        Some(v) if out.status.success() => Ok(Checked {
            checker,
            verdict: v.to_string(),
            seconds,
        }),
        _ => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why: Vec<&str> = stderr
                .lines()
                .chain(stdout.lines())
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("Running VeriPB"))
                .take(6)
                .collect();
            Err(CertifyError::VeripbRejected(format!(
                "{} ({})",
                why.join(" / "),
                proof.display()
            )))
        }
    }
}

/// What [`prove`] needs of a run.
pub struct Run<'a> {
    /// the puzzle's PB model
    pub model: &'a PbModel,
    /// the encoder's names of the primary literals
    pub names: &'a [(String, Lit)],
    /// the CNF as encoded
    pub cnf_clauses: usize,
    /// clauses of the UNSAT formula the session recorded (the CNF and the
    /// clauses added since; the rest are the last call's assumptions)
    pub recorded: usize,
    /// an optimum's objective over CNF literals and the best solution
    pub optimum: Option<(&'a Objective, &'a Assignment)>,
    /// false: no solver call refuted a better solution (the optimum is at
    /// the end of the objective's range); the derived clauses and the
    /// objective-improving constraint contradict by propagation
    pub search: bool,
    /// its definitions log
    pub provenance: Option<&'a Provenance>,
    /// the symmetry block, if the family has one
    pub symmetry: Option<&'a SymmetryBlock>,
    /// the primary literals (enumeration's blocking clauses are over them)
    pub primary: &'a [Lit],
    /// the claim
    pub claim: Claim,
    /// a cube's optimum: its bound is a constraint of the proof's model
    /// ([`cube_model`]), from which the formula's assumptions follow (no
    /// best solution is logged)
    pub cube: Option<CubeBound<'a>>,
    /// a cube's optimum when the symmetry breaking is derived by dominance:
    /// the model stays the puzzle's, and the proof derives "not (the cube
    /// and better than its bound)" by contradiction ([`CubeGuard`])
    pub guard: Option<CubeGuard<'a>>,
    /// where the model and proof are kept (None: a temporary directory)
    pub dir: Option<&'a Path>,
    /// the file stem of model and proof
    pub stem: &'a str,
}

/// Why a run whose symmetry breaking is derived by dominance has no VeriPB
/// proof per cube.
pub const CUBE_AFTER_DOMINANCE: &str = "a cube is not closed under the symmetries its run breaks, so its literals cannot be constraints of the model the dominance steps preserve; a proof that assumes the cube after the dominance steps is not written";

/// A cube proved under the symmetry breaking: the dominance steps need a
/// model that every symmetry maps onto itself, which the cube's literals
/// are not. So the model stays the puzzle's, the dominance steps come
/// first, and the cube's claim is the derived constraint `C` = "not (every
/// cube literal and better than the bound)", by `red` with the identity
/// witness and a subproof: its premise ¬C gives the cube's literals by
/// propagation and "better" by adding the literals' axioms; the last
/// call's assumptions follow as for an optimum, and the proof solver's
/// lemmas refute them. The proof ends `conclusion NONE` with `C` checked
/// (`e`) among the derived constraints: among the solutions the dominance
/// steps keep, none in the cube is better than its bound, and the cover
/// check makes the cubes' claims the puzzle's.
pub struct CubeGuard<'a> {
    /// the objective over CNF literals
    pub objective: &'a Objective,
    /// the cube's literals
    pub cube: &'a [Lit],
    /// "better than the bound" over CNF literals
    pub better: Linear,
}

/// A cube's bound in the proof's model: the constraint "better than the
/// bound" (its id and its terms over CNF literals) and the CNF's objective.
pub struct CubeBound<'a> {
    /// the objective over CNF literals (its terms are the candidates the
    /// bound forces)
    pub objective: &'a Objective,
    /// the id of the constraint in the proof's model
    pub id: Id,
    /// the constraint over CNF literals
    pub better: Linear,
}

/// The model of cube `index`'s proof: `model` plus the cube's literals as
/// unit constraints and, with `past` (a value of the objective), the
/// constraint "at least as good as `past`" (the objective's terms over the
/// model's variables). Returns it with that constraint's id and its terms
/// over CNF literals. `Err` if a cube literal is not a model variable.
pub fn cube_model(
    model: &PbModel,
    names: &ProofNames,
    prov: Option<&Provenance>,
    index: u32,
    cube: &[Lit],
    past: Option<i64>,
) -> Result<(PbModel, Option<(Id, Linear)>), String> {
    use puzzlesat_encodings::pbmodel::{PbSense, Relation};
    let mut m = model.clone();
    let model_lit = |m: &PbModel, l: Lit| {
        let (name, negated) = names.model.get(l.var().idx())?.as_ref()?;
        let v = m.lookup(name)?;
        Some(if l.is_neg() != *negated {
            v.neg()
        } else {
            v.pos()
        })
    };
    for &l in cube {
        let rule = format!("cube {index}: {}", names.lit(l));
        if let Some(pl) = model_lit(&m, l) {
            m.clause(&[pl], rule);
            continue;
        }
        // a literal the encoding defines over the model's variables (a
        // splitting literal "in the second half"): its meaning
        let meaning = prov
            .and_then(|p| p.definitions.iter().find(|d| d.lit.var() == l.var()))
            .map(|d| {
                if d.lit == l {
                    d.meaning.clone()
                } else {
                    d.meaning.negation()
                }
            });
        let terms: Option<Vec<(i64, puzzlesat_encodings::PbLit)>> =
            meaning.as_ref().and_then(|c| {
                c.terms
                    .iter()
                    .map(|&(a, t)| Some((a as i64, model_lit(&m, t)?)))
                    .collect()
            });
        match (terms, meaning) {
            (Some(terms), Some(c)) => {
                m.linear(terms, Relation::AtLeast, c.bound, rule);
            }
            _ => {
                return Err(format!(
                "cube {index} splits on {}, neither a variable of the model nor defined over them",
                names.lit(l)
            ))
            }
        }
    }
    let Some(past) = past else {
        return Ok((m, None));
    };
    let obj = model
        .objective()
        .ok_or_else(|| "the model has no objective".to_string())?
        .clone();
    let (relation, what) = match obj.sense {
        PbSense::Minimize => (Relation::AtMost, "at most"),
        PbSense::Maximize => (Relation::AtLeast, "at least"),
    };
    let i = m.linear(
        obj.terms.clone(),
        relation,
        past - obj.offset,
        format!("cube {index}: the objective is {what} {past}"),
    );
    let id = m.first_id(i) as Id;
    let better = ModelConstraints::new(&m, names)
        .get(id)
        .cloned()
        .ok_or_else(|| "the objective has a variable the CNF does not name".to_string())?;
    Ok((m, Some((id, better))))
}

/// A VeriPB certificate: the files, the steps and the check.
#[derive(Clone, Debug)]
pub struct PbCertificate {
    /// the model file
    pub model_path: PathBuf,
    /// the proof file
    pub proof_path: PathBuf,
    /// proof size
    pub proof_bytes: u64,
    /// the encoding part
    pub encoding: EncodingSteps,
    /// the search part
    pub search: SearchSteps,
    /// the check
    pub checked: Checked,
}

/// Writes the model and the proof of `run`'s claim resting on the UNSAT
/// `formula` (whose first `run.cnf_clauses` clauses are the CNF), and
/// checks the proof with `veripb`.
pub fn prove(
    run: &Run,
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
) -> Result<PbCertificate, CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    checker()?; // before any work: a missing checker is an error
    let temp;
    let dir = match run.dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(io)?;
            d.to_path_buf()
        }
        None => {
            temp = tempfile::tempdir().map_err(io)?;
            temp.path().to_path_buf()
        }
    };
    let model_path = dir.join(format!("{}.opb", run.stem));
    let proof_path = dir.join(format!("{}.pbp", run.stem));
    {
        let mut f = BufWriter::new(std::fs::File::create(&model_path).map_err(io)?);
        run.model.write_opb(&mut f).map_err(io)?;
        f.flush().map_err(io)?;
    }
    let names = ProofNames::new(run.model, run.names, formula.n_vars())
        .map_err(|e| CertifyError::Producer(format!("VeriPB proof: {e}")))?;
    let file = std::fs::File::create(&proof_path).map_err(io)?;
    let mut w = ProofWriter::new(BufWriter::new(file), run.model.loaded()).map_err(io)?;
    // an optimum's proof derives every recorded clause (the objective's
    // bound encoding among them) and then, after the best solution, the
    // assumptions that ask for a better one
    let derived = match run.claim {
        Claim::Optimal => run.recorded,
        _ => run.cnf_clauses,
    };
    let mut cnf = Cnf::new();
    for c in formula.clauses().take(derived) {
        cnf.add(c);
    }
    let model_constraints = ModelConstraints::new(run.model, &names);
    let (mut cnf_ids, encoding, halves) = derive_from_model(
        &mut w,
        &names,
        &model_constraints,
        &cnf,
        run.provenance,
        run.symmetry,
    )?;
    let mut optimum = None;
    let mut guarded = None;
    if let (Claim::Optimal, Some(g)) = (run.claim, &run.guard) {
        // the premise ¬C: better + Σ k·l ≥ bound + k·|cube|, k large enough
        // that it forces every cube literal
        let most: i64 = g.better.terms.iter().map(|&(a, _)| a as i64).sum();
        let k = (most - g.better.bound + 1).max(1);
        let terms = g
            .better
            .terms
            .iter()
            .map(|&(a, l)| (a as i64, l))
            .chain(g.cube.iter().map(|&l| (k, l)));
        let premise = Linear::at_least(terms, g.better.bound + k * g.cube.len() as i64);
        let claim = premise.negation();
        w.comment(
            "the cube's claim, by contradiction: not (its literals and better than its bound)",
        )
        .map_err(io)?;
        w.line(&format!("red {} : : subproof", names.linear(&claim)))
            .map_err(io)?;
        w.line("proofgoal #1").map_err(io)?;
        // the rule's reserved id, then the premise
        w.skip(2);
        let p = w.next_id() - 1;
        let axioms: String = g
            .cube
            .iter()
            .map(|&l| format!(" {} {k} * +", names.lit(!l)))
            .collect();
        let better = w.step(&format!("pol {p}{axioms};")).map_err(io)?;
        // tied to the CNF's objective where the symmetry block says how
        let (better, linked_better) =
            linked(run, &mut w, (better, g.better.clone())).map_err(io)?;
        derive_assumptions(
            run,
            g.objective,
            &names,
            &mut w,
            formula,
            &halves,
            &mut cnf_ids,
            (better, &linked_better),
        )?;
        guarded = Some(claim);
    } else if let (Claim::Optimal, Some(c)) = (run.claim, &run.cube) {
        w.comment("the cube's assumptions: better than its bound, its literals")
            .map_err(io)?;
        let (id, better) = linked(run, &mut w, (c.id, c.better.clone())).map_err(io)?;
        derive_assumptions(
            run,
            c.objective,
            &names,
            &mut w,
            formula,
            &halves,
            &mut cnf_ids,
            (id, &better),
        )?;
    } else if run.claim == Claim::Optimal {
        let opb = log_optimum(run, &names, &mut w, formula, &halves, &mut cnf_ids)?;
        optimum = Some(opb);
    }
    // the definitions' halves did their work once the clauses and the
    // assumptions are derived: the search's lemmas are RUP over the
    // formula's clauses, so the halves (long PB constraints) go before the
    // lemmas, after a count's `solx` steps (which need the definitions to
    // propagate the auxiliary variables to a full assignment), and VeriPB
    // propagates over less while it replays (Enigma n = 6 with occ3:
    // checked in 6.8 s instead of 22.6 s); not inside a cube's subproof
    let spent: Vec<Id> = if guarded.is_none() {
        let keep: std::collections::HashSet<Id> = cnf_ids.iter().copied().collect();
        let mut gone: Vec<Id> = halves
            .values()
            .map(|&(id, _)| id)
            .filter(|id| !keep.contains(id))
            .collect();
        gone.sort_unstable();
        gone.dedup();
        gone
    } else {
        vec![]
    };
    let (contradiction, mut search) = if run.search {
        replay_search(
            &mut w,
            &names,
            formula,
            cnf_ids.len(),
            &cnf_ids,
            run.primary,
            // a subproof deletes nothing of the database around it
            guarded.is_none(),
            &spent,
            producer,
            limits,
        )?
    } else {
        w.comment("no better solution: by propagation")
            .map_err(io)?;
        (w.step("rup >= 1;").map_err(io)?, SearchSteps::default())
    };
    search.solutions += usize::from(optimum.is_some());
    if let Some(claim) = &guarded {
        w.line(&format!("qed : {contradiction};")).map_err(io)?;
        w.line("qed;").map_err(io)?;
        w.skip(1);
        let id = w.next_id() - 1;
        w.comment("the cube's claim, derived").map_err(io)?;
        w.line(&format!("e {} : {id};", names.linear(claim)))
            .map_err(io)?;
    }
    let conclusion = match (run.claim, search.solutions, optimum) {
        // the cube's claim is the derived constraint checked above
        _ if guarded.is_some() => "NONE".to_string(),
        (Claim::Complete, n, _) if n > 0 => "SAT".to_string(),
        (Claim::Optimal, _, Some(v)) => format!("BOUNDS {v} : {contradiction} {v}"),
        // a model with an objective and no solution (a cube's, with its
        // bound): VeriPB says so by infinite bounds
        _ if run.model.objective().is_some() => format!("BOUNDS INF : {contradiction} INF"),
        _ => format!("UNSAT : {contradiction}"),
    };
    let proof_bytes = w.finish(&conclusion).map_err(io)?;
    let checked = check(&model_path, &proof_path, limits)?;
    if run.dir.is_none() {
        // the temporary directory goes; the paths are reported as kept nowhere
    }
    Ok(PbCertificate {
        model_path,
        proof_path,
        proof_bytes,
        encoding,
        search,
        checked,
    })
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
            w.line(&format!("e {} : {id};", names.clause(clauses[i])))
                .map_err(io)?;
        }
    }
    Ok((cnf_ids, steps, halves))
}

/// An optimum's step: logs the best solution by `soli` (VeriPB adds the
/// objective-improving constraint `f ≤ f(best) − 1`), then derives each
/// assumption of the last (UNSAT) call, "better than the best", from it
/// and the halves of the bound encoding's definitions, appending their ids
/// to `ids`. Returns `f(best)`, the value of the OPB file's objective.
fn log_optimum<W: Write>(
    run: &Run,
    names: &ProofNames,
    w: &mut ProofWriter<W>,
    formula: &Cnf,
    halves: &Halves,
    ids: &mut Vec<Id>,
) -> Result<i64, CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let fail = |why: String| CertifyError::Producer(format!("VeriPB proof of the optimum: {why}"));
    let (objective, best) = run
        .optimum
        .ok_or_else(|| fail("the run kept no best solution".into()))?;
    let model_obj = run
        .model
        .objective()
        .ok_or_else(|| fail("the model has no objective".into()))?;
    let cnf_lits = run.model.cnf_literals(run.names).map_err(fail)?;
    let value = model_solution(run.model, &cnf_lits, best).map_err(fail)?;
    let found = model_obj.value(|v| value[v.idx()]);
    if found != objective.value(best) {
        return Err(fail(format!(
            "the model counts the best solution {found}, the CNF's objective {}",
            objective.value(best)
        )));
    }
    let lits: Vec<String> = run
        .model
        .vars()
        .map(|v| {
            let name = run.model.name(v);
            if value[v.idx()] {
                name.to_string()
            } else {
                format!("~{name}")
            }
        })
        .collect();
    w.comment("the best solution; soli adds: the objective is better")
        .map_err(io)?;
    let soli = w.step(&format!("soli {};", lits.join(" "))).map_err(io)?;
    let opb = model_obj.opb_value(found);
    // the objective-improving constraint over CNF literals: Σ terms ≤ opb − 1
    let terms: Option<Vec<(i64, Lit)>> = model_obj
        .opb_terms()
        .iter()
        .map(|&(a, l)| {
            let x = cnf_lits[l.var.idx()]?;
            Some((-a, if l.negated { !x } else { x }))
        })
        .collect();
    let terms =
        terms.ok_or_else(|| fail("the objective has a variable the CNF does not name".into()))?;
    let better = Linear::at_least(terms, 1 - opb);
    let (soli, better) = linked(run, w, (soli, better)).map_err(io)?;
    w.comment("the last call's assumptions: better than the best")
        .map_err(io)?;
    derive_assumptions(
        run,
        objective,
        names,
        w,
        formula,
        halves,
        ids,
        (soli, &better),
    )?;
    Ok(opb)
}

/// The constraint `better` (id `id`: the model's objective better than a
/// bound) in the terms of the CNF's objective, where the symmetry block
/// ties the two ([`SymmetryBlock::objective_link`]: their sum); else as
/// it is.
fn linked<W: Write>(
    run: &Run,
    w: &mut ProofWriter<W>,
    (id, better): (Id, Linear),
) -> io::Result<(Id, Linear)> {
    let Some((label, link)) = run.symmetry.and_then(|s| s.objective_link.as_ref()) else {
        return Ok((id, better));
    };
    w.comment("the improving constraint in the CNF objective's terms")?;
    let id = w.step(&format!("pol {id} {label} +;"))?;
    let mut sum = Sum::default();
    sum.add(&better);
    sum.add(link);
    Ok((id, sum.linear()))
}

/// Derives each clause of `formula` after the first `ids.len()` (the last
/// call's assumptions: "better than the best", a cube's literals) from the
/// constraint `better` (id `better_id`: the objective better than the best
/// or than a cube's bound) and the halves of the bound encoding's
/// definitions, else by RUP, appending their ids to `ids`.
#[allow(clippy::too_many_arguments)]
fn derive_assumptions<W: Write>(
    run: &Run,
    objective: &Objective,
    names: &ProofNames,
    w: &mut ProofWriter<W>,
    formula: &Cnf,
    halves: &Halves,
    ids: &mut Vec<Id>,
    (soli, better): (Id, &Linear),
) -> Result<(), CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    // for an objective over literals the model does not name (e.g. the
    // order literals of a sum of the model's): each of its terms the
    // improving constraint forces, as a unit
    // — and each defined literal the formula fixes by a unit clause (a
    // redundant bound of the encoding) that the improving constraint
    // forces the other way
    let fixed = formula
        .clauses()
        .filter(|c| c.len() == 1 && halves.contains_key(&!c[0]))
        .map(|c| !c[0]);
    let candidates: Vec<Lit> = objective
        .terms
        .iter()
        .map(|&(l, _)| match objective.sense {
            puzzlesat_encodings::solve::Sense::Maximize => l,
            puzzlesat_encodings::solve::Sense::Minimize => !l,
        })
        .chain(fixed)
        .collect();
    let forced_terms = |w: &mut ProofWriter<W>| -> io::Result<()> {
        for &l in &candidates {
            derive_from(w, names, &[l], (soli, better), halves)?;
        }
        Ok(())
    };
    let mut terms_derived = false;
    for c in formula.clauses().skip(ids.len()) {
        if let Some(id) = derive_from(w, names, c, (soli, better), halves).map_err(io)? {
            ids.push(id);
            continue;
        }
        // then the assumption by RUP
        if !terms_derived {
            terms_derived = true;
            forced_terms(w).map_err(io)?;
        }
        ids.push(w.step(&format!("rup {};", names.clause(c))).map_err(io)?);
    }
    if !run.search && !terms_derived {
        forced_terms(w).map_err(io)?;
    }
    Ok(())
}

/// The certificate of `run.claim` resting on the UNSAT `formula`: a VeriPB
/// proof from the model ([`prove`]), checked. `not_covered` says what the
/// family's proof leaves out.
pub fn certify(
    run: &Run,
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
    not_covered: &str,
) -> Result<Certified, CertifyError> {
    let pc = prove(run, formula, producer, limits)?;
    let covers = match (pc.encoding.symmetry > 0, run.search) {
        (true, true) => "encoding, symmetry breaking and search",
        (false, true) => "encoding and search",
        // the optimum is the encoding's (derived) bound: no solver call
        (true, false) => {
            "encoding and symmetry breaking; no search: the derived bound meets the best solution"
        }
        (false, false) => "encoding; no search: the derived bound meets the best solution",
    };
    let mut not_covered = not_covered.to_string();
    if run.claim == Claim::Complete && pc.search.solutions > 0 {
        not_covered.push_str(&format!(
            "; the count: VeriPB 3.0.2 has no EQUIENUMERABLE output, so its conclusion is SAT and 'no other solution' is the checked contradiction after the {} solx steps, which puzzlesat counts",
            pc.search.solutions
        ));
    }
    Ok(Certified {
        claim: run.claim,
        formula_clauses: formula.len(),
        formula_digest: formula_digest(formula),
        cube: None,
        certificate: Certificate {
            format: pc.search.format.unwrap_or(drat::DratFormat::Binary),
            producer: producer.to_string(),
            checker: pc.checked.checker,
            proof_bytes: pc.proof_bytes,
            solve_seconds: pc.search.solve_seconds,
            check_seconds: pc.checked.seconds,
            lemmas: pc.search.lemmas,
            core_lemmas: pc.search.replayed,
            from_model: Some(FromModel {
                covers: covers.to_string(),
                not_covered,
                definitions: pc.encoding.definitions,
                rup_clauses: pc.encoding.rup,
                pol_clauses: pc.encoding.pol,
                dom_clauses: pc.encoding.symmetry,
                solutions: pc.search.solutions,
                files: run.dir.map(|_| {
                    (
                        pc.model_path.display().to_string(),
                        pc.proof_path.display().to_string(),
                    )
                }),
            }),
            not_from_model: None,
        },
    })
}

/// A file stem from a run's description: `queens n=8 encoding=matrix` →
/// `queens-n_8-encoding_matrix`.
pub fn stem(describe: &str) -> String {
    let mut s = String::new();
    for c in describe.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if c == ' ' && !s.ends_with('-') {
            s.push('-');
        } else if !s.ends_with(['-', '_']) {
            s.push('_');
        }
    }
    s.trim_end_matches(['-', '_']).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(i: u32) -> Lit {
        Lit::positive(i)
    }

    #[test]
    fn syntactic_implication() {
        let (a, b, c) = (l(0), l(1), l(2));
        let amo = Linear::count_at_most(&[a, b, c], 1);
        assert!(implies(&amo, &amo));
        // Σ ≤ 1 over three implies Σ ≤ 1 over two of them, not the reverse
        let two = Linear::count_at_most(&[a, b], 1);
        assert!(implies(&amo, &two));
        assert!(!implies(&two, &amo));
        // a + b + c ≥ 2 implies a + b ≥ 1, not a + b ≥ 2
        let ge2 = Linear::count_at_least(&[a, b, c], 2);
        assert!(implies(&ge2, &Linear::count_at_least(&[a, b], 1)));
        assert!(!implies(&ge2, &Linear::count_at_least(&[a, b], 2)));
    }

    #[test]
    fn a_totalizer_clause_is_the_sum_of_three_halves() {
        // a ⇔ x0 ≥ 1, b ⇔ x1 ≥ 1, c ⇔ x0 + x1 ≥ 2: the clause ¬a ∨ ¬b ∨ c
        let (x0, x1, a, b, c) = (l(0), l(1), l(2), l(3), l(4));
        let half_not_a = Linear::at_least([(1, x0), (1, !a)], 1);
        let half_not_b = Linear::at_least([(1, x1), (1, !b)], 1);
        let d = Linear::count_at_least(&[x0, x1], 2);
        let mut half_c = d.negation();
        half_c.terms.push((half_c.bound as u64, c));
        let mut s = Sum::default();
        for h in [&half_not_a, &half_not_b, &half_c] {
            s.add(h);
        }
        assert_eq!(s.weakening_to(&[!a, !b, c]), Some(vec![]));
        // without c's half the sum does not imply the clause
        let mut s = Sum::default();
        s.add(&half_not_a);
        s.add(&half_not_b);
        assert_eq!(s.weakening_to(&[!a, !b, c]), None);
    }

    #[test]
    fn the_writer_numbers_constraints_after_the_model() {
        let mut buf = vec![];
        let mut w = ProofWriter::new(&mut buf, 3).unwrap();
        assert_eq!(w.step("rup 1 a >= 1;").unwrap(), 4);
        assert_eq!(w.block(&["x;".into(), "y;".into()], 2).unwrap(), 5);
        assert_eq!(w.next_id(), 7);
        w.finish("UNSAT : 6").unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with("pseudo-Boolean proof version 3.0\nf 3;\n"),
            "{text}"
        );
        assert!(
            text.ends_with("conclusion UNSAT : 6;\nend pseudo-Boolean proof;\n"),
            "{text}"
        );
    }
}
