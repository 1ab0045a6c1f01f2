//! The proof's names for CNF variables and the writer that numbers the
//! constraints a proof adds; the symmetry block the model's owner writes.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use puzzlesat_encodings::dominance::SymmetryProof;
use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::proof::{self, Coef, Conclusion, Constraint, Ref, Step};
use puzzlesat_encodings::provenance::Linear;
use puzzlesat_encodings::Cnf;
use rustsat::types::{Lit, Var};

/// The names a proof gives CNF variables: a model variable's name for a
/// CNF variable the encoder names by it (the primary literals), `x<N>`
/// (`N` its DIMACS number) for every other one, or `y<N>`, `z<N>`, … where
/// the model names its own variables `x<N>` (as the PB competitions' files
/// do).
#[derive(Clone, Debug)]
pub struct ProofNames {
    /// per CNF variable: the model name, and whether the CNF literal is the
    /// name's negation
    pub(super) model: Vec<Option<(String, bool)>>,
    /// the prefix of the other variables' names
    aux: String,
}

impl ProofNames {
    /// The CNF literal of each model variable the CNF names, by name (the
    /// literal that is the variable, negated where the CNF's is the
    /// name's negation).
    pub(super) fn by_model_name(&self) -> HashMap<&str, Lit> {
        self.model
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                m.as_ref()
                    .map(|(name, negated)| (name.as_str(), Lit::new(i as u32, *negated)))
            })
            .collect()
    }

    /// Names for a CNF over `n_vars` variables whose primary literals are
    /// named `names` (the encoder's `Encoded::names`), identified with the
    /// variables of `model` by name. An error if two names give one CNF
    /// variable; the other variables are named by the
    /// first prefix of `x`, `y`, `z`, `aux`, `aux_`, … that no model
    /// variable's name followed by digits has.
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
    pub fn var(&self, v: Var) -> proof::Var {
        proof::Var(match self.model.get(v.idx()) {
            Some(Some((name, _))) => name.clone(),
            _ => format!("{}{}", self.aux, v.idx() + 1),
        })
    }
    /// The literal as the proof writes it: `name`, `~name`, `x12`, `~x12`.
    pub fn lit(&self, l: Lit) -> String {
        self.literal(l).to_string()
    }
    /// The literal as a proof step's value ([`Self::lit`]).
    pub fn literal(&self, l: Lit) -> proof::Lit {
        match self.model.get(l.var().idx()) {
            Some(Some((name, negated))) => proof::Lit::new(name, l.is_neg() != *negated),
            _ => proof::Lit::from_text(format!(
                "{}{}{}",
                if l.is_neg() { "~" } else { "" },
                self.aux,
                l.var().idx() + 1
            )),
        }
    }
    /// `Σ a·l ≥ k` as the proof writes it: `1 a 2 ~b >= k`.
    pub fn linear(&self, c: &Linear) -> Constraint {
        Constraint {
            terms: c
                .terms
                .iter()
                .map(|&(a, l)| (Coef::Unsigned(a), self.literal(l)))
                .collect(),
            degree: c.bound,
        }
    }
    /// A clause as the proof writes it: `1 a 1 ~b >= 1`.
    pub fn clause(&self, lits: &[Lit]) -> Constraint {
        self.linear(&Linear::count_at_least(lits, 1))
    }
}

/// A constraint id of the proof (VeriPB numbers the model's constraints
/// from 1, then each rule that adds one).
pub type Id = u64;

/// Writes a VeriPB proof (syntax 3.0), numbering the constraints it adds:
/// the one place where the proof's steps become text (through their
/// `Display`, [`puzzlesat_encodings::proof`]).
pub struct ProofWriter<W: Write> {
    out: W,
    /// the id the next added constraint gets
    next: Id,
    /// proof size so far
    bytes: u64,
    /// the text of the step being written
    text: String,
}

impl<W: Write> ProofWriter<W> {
    /// Starts a proof for a model from which VeriPB loads `loaded`
    /// constraints ([`PbModel::loaded`]): the header and the `f` check.
    pub fn new(out: W, loaded: usize) -> io::Result<Self> {
        let mut w = ProofWriter {
            out,
            next: loaded as Id + 1,
            bytes: 0,
            text: String::new(),
        };
        w.line(&Step::Header)?;
        w.line(&Step::Formula(loaded))?;
        Ok(w)
    }
    /// A step that adds no constraint (a comment, `output`, `del`).
    pub fn line(&mut self, step: &Step) -> io::Result<()> {
        self.text.clear();
        let _ = writeln!(self.text, "{step}");
        self.bytes += self.text.len() as u64;
        self.out.write_all(self.text.as_bytes())
    }
    /// A rule that adds one constraint; returns its id.
    pub fn step(&mut self, step: &Step) -> io::Result<Id> {
        self.line(step)?;
        self.next += 1;
        Ok(self.next - 1)
    }
    /// A block of steps written elsewhere that adds `ids` constraints;
    /// returns the id of the first.
    pub fn block(&mut self, steps: &[Step], ids: usize) -> io::Result<Id> {
        let first = self.next;
        for s in steps {
            self.line(s)?;
        }
        self.next += ids as Id;
        Ok(first)
    }
    /// A `%` comment.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.line(&Step::Comment(text.to_string()))
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
    pub fn finish(mut self, conclusion: Conclusion) -> io::Result<u64> {
        self.line(&Step::OutputNone)?;
        self.line(&Step::Conclusion(conclusion))?;
        self.line(&Step::End)?;
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
    pub prelude: Vec<Step>,
    /// lines before the prelude, over the model alone (with their number
    /// of constraint ids)
    pub early: (Vec<Step>, usize),
    /// lines right after the prelude, before the encoding's definitions
    /// (with their number of constraint ids)
    pub before: (Vec<Step>, usize),
    /// the CNF clauses the `before` lines derive, as `derives`
    pub before_derives: Vec<(usize, usize)>,
    /// the `before` lines' ids that derive clauses of the model's rules
    /// (as `rules`)
    pub before_rules: std::ops::Range<usize>,
    /// the proof lines
    pub lines: Vec<Step>,
    /// how many constraint ids the lines add
    pub ids: usize,
    /// CNF variables the lines introduce themselves (no definition is
    /// written for them)
    pub defines: Vec<Var>,
    /// the CNF clauses (indices, in CNF order) the lines derive, each with
    /// the id of the constraint that implies it, counted from 1 at the
    /// block's first line
    pub derives: Vec<(usize, usize)>,
    /// the block's ids (from 1) in `rules` derive clauses of the model's
    /// rules: counted as the encoding's, not as symmetry breaking
    pub rules: std::ops::Range<usize>,
    /// the label and terms of the constraint tying the CNF's objective to
    /// the model's ([`SymmetryProof::objective_link`])
    pub objective_link: Option<(Ref, Linear)>,
}

impl SymmetryBlock {
    /// Whether the block breaks symmetry (an order, or steps past the
    /// model's rules): a cube then cannot be a constraint of the model.
    pub fn uses_dominance(&self) -> bool {
        !self.prelude.is_empty()
            || self.early.1 > 0
            || self.before.1 > 0
            || self.ids > self.rules.len()
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
            before_rules: proof.before.rules,
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
            rules: proof.block.rules,
            objective_link: proof.objective_link,
        })
    }
}

/// The block's lines with each `{half L}` operand
/// ([`puzzlesat_encodings::dominance::ProofLines::half`]) replaced by the
/// id of the definition half in which the literal named `L` occurs; `Err`
/// names a literal with no such half.
pub(super) fn with_halves(
    steps: &[Step],
    halves: &Halves,
    names: &ProofNames,
) -> Result<Vec<Step>, String> {
    let ids: HashMap<proof::Lit, Id> = halves
        .iter()
        .map(|(&l, &(id, _))| (names.literal(l), id))
        .collect();
    steps
        .iter()
        .map(|orig| {
            let mut step = orig.clone();
            step.map_refs(&mut |r| match r {
                Ref::Half(lit) => ids
                    .get(lit)
                    .map(|&id| Some(Ref::Id(id)))
                    .ok_or_else(|| format!("no definition half of {lit} (in '{orig}')")),
                _ => Ok(None),
            })?;
            Ok(step)
        })
        .collect()
}

/// The half of each defined literal's definition in which it occurs: for
/// `y ⇔ D`, `k·¬y + D ≥ k` is the half of `¬y`, `(A−k+1)·y + ¬D` of `y`;
/// with its id.
pub type Halves = HashMap<Lit, (Id, Linear)>;

/// Clauses by their sorted literals, to find the ids a DRAT deletion
/// names.
#[derive(Default)]
pub(super) struct ClauseIds(HashMap<Vec<Lit>, Vec<Id>>);

impl ClauseIds {
    pub(super) fn key(lits: &[Lit]) -> Vec<Lit> {
        let mut k = lits.to_vec();
        k.sort_unstable();
        k.dedup();
        k
    }
    pub(super) fn insert(&mut self, lits: &[Lit], id: Id) {
        self.0.entry(Self::key(lits)).or_default().push(id);
    }
    pub(super) fn remove(&mut self, lits: &[Lit]) -> Option<Id> {
        let key = Self::key(lits);
        let ids = self.0.get_mut(&key)?;
        let id = ids.pop();
        if ids.is_empty() {
            self.0.remove(&key);
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_numbers_constraints_after_the_model() {
        let mut buf = vec![];
        let mut w = ProofWriter::new(&mut buf, 3).unwrap();
        let a = proof::Lit::new("a", false);
        assert_eq!(w.step(&Step::rup_clause([a.clone()])).unwrap(), 4);
        let del = Step::Del(vec![Ref::Id(4)]);
        assert_eq!(w.block(&[del.clone(), del], 2).unwrap(), 5);
        assert_eq!(w.next_id(), 7);
        w.finish(Conclusion::Unsat(Ref::Id(6))).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with("pseudo-Boolean proof version 3.0\nf 3;\nrup +1 a >= 1;\n"),
            "{text}"
        );
        assert!(
            text.ends_with("conclusion UNSAT : 6;\nend pseudo-Boolean proof;\n"),
            "{text}"
        );
    }
}
