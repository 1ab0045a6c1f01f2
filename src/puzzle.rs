//! The [`Puzzle`] trait: what every puzzle family implements so the generic
//! runner ([`crate::run`]) can solve, optimise, enumerate, export and decode
//! it. A puzzle never talks to a solver.

use std::time::Instant;

use anyhow::{bail, Context};
use puzzlesat_encodings::dominance::SymmetryProof;
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, PbModel};
use rustsat::types::Lit;
use serde::Serialize;

use crate::picture::Picture;
use crate::report::{Details, Report};
use puzzlesat_encodings::solve::{EnumerationEngine, Objective, PartialCheck, Sense};

/// What encoding produced besides clauses.
#[derive(Debug)]
pub struct Encoded<M> {
    /// the puzzle's own variable map, used by `decode`
    pub map: M,
    /// objective to optimise, if the puzzle has one
    pub objective: Option<Objective>,
    /// primary literals: two solutions are different iff they differ here
    /// (enumeration blocks on these)
    pub primary: Vec<Lit>,
    /// human names of primary literals, for `dimacs --map FILE.json`
    pub names: Vec<(String, Lit)>,
    /// an objective the puzzle scores from each solution by its rules
    /// ([`Puzzle::objective_of`]) instead of one in the CNF: optimised by
    /// [`crate::drive::optimize_scored`] with [`Puzzle::require_better`]
    pub scored: Option<Sense>,
    /// assumptions tried first (a warm start); an UNSAT under them proves
    /// nothing
    pub hint: Vec<Lit>,
    /// the literals a count may branch on (empty: every variable); they
    /// must fix every primary literal by propagation
    /// ([`puzzlesat_encodings::solve::Session::set_decisions`])
    pub decisions: Vec<Lit>,
}

impl<M> Encoded<M> {
    /// A satisfaction problem over `primary` (no objective, no hint).
    pub fn new(map: M, primary: Vec<Lit>, names: Vec<(String, Lit)>) -> Self {
        Encoded {
            map,
            objective: None,
            primary,
            names,
            scored: None,
            hint: vec![],
            decisions: vec![],
        }
    }
    /// With the literals a count may branch on.
    pub fn with_decisions(self, decisions: Vec<Lit>) -> Self {
        Encoded { decisions, ..self }
    }
    /// With a linear objective in the CNF.
    pub fn with_objective(self, objective: Objective) -> Self {
        Encoded {
            objective: Some(objective),
            ..self
        }
    }
}

/// A puzzle instance with its chosen encoding options (`Sync`, as its
/// variable map: `--jobs` solves cubes on several threads).
pub trait Puzzle: Sync {
    /// A decoded solution (serialised in `--json` output).
    type Solution: Serialize;
    /// Whatever `decode` needs to read a model.
    type Map: Sync;
    /// Puzzle-specific results the report carries (`NoDetails` for none).
    type Details: Details;

    /// One line naming the instance and options, e.g. `enigma n=5 method=board`.
    fn describe(&self) -> String;
    /// Compiles the instance into `cnf` (variables → rules → symmetry
    /// breaking → redundant constraints → objective).
    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<Self::Map>>;
    /// Reads a solution from a model; an error where the model stands for
    /// no solution (e.g. an external solver's model of another formula), so
    /// no placeholder value is ever made up.
    fn decode(&self, map: &Self::Map, model: &Assignment) -> anyhow::Result<Self::Solution>;
    /// The independent checker, written from the puzzle's rules (never from
    /// the CNF): `Ok(())` or what rule is broken.
    fn check(&self, sol: &Self::Solution) -> Result<(), String>;
    /// The solution drawn for people (a grid).
    fn render(&self, sol: &Self::Solution) -> String;
    /// The solution as a picture (`--svg FILE`, [`crate::picture`]); None:
    /// the puzzle draws none.
    fn picture(&self, _sol: &Self::Solution) -> Option<Picture> {
        None
    }
    /// An estimate of the clauses `encode` adds, from the parameters alone
    /// (checked against `--max-clauses` before anything is allocated); 0
    /// where the parameters' own ranges keep every instance small.
    fn estimated_clauses(&self) -> u64 {
        0
    }
    /// An estimate of the terms (variable occurrences) of
    /// [`Puzzle::pb_model`], from the parameters alone (checked against
    /// `--max-clauses` before `opb` builds the model); by default the CNF's
    /// estimate, which bounds a model no larger than its CNF.
    fn estimated_pb_terms(&self) -> u64 {
        self.estimated_clauses()
    }
    /// The objective value computed from the solution by the rules, to
    /// cross-check the CNF's objective (None if the puzzle has none).
    fn objective_of(&self, _sol: &Self::Solution) -> Option<i64> {
        None
    }
    /// What an enumerated model stands for, in the "exactly N …" line:
    /// `solutions`, or e.g. `symmetry classes` when lex-leader clauses keep
    /// one representative per class.
    fn counted_as(&self) -> &'static str {
        "solutions"
    }
    /// Counting by symmetry classes ([`crate::drive::classes`]): a variant
    /// of this puzzle whose solutions hold at least one member of every
    /// class of this puzzle's solutions under [`Puzzle::images`] (e.g. with
    /// cheap symmetry-breaking clauses). `None` (the default): no group, or
    /// one that does not map this instance's solutions onto each other.
    fn class_representatives(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Every image of `sol` under the puzzle's symmetry group, itself
    /// included (repeats allowed); needed with `class_representatives`.
    fn images(&self, _sol: &Self::Solution) -> Vec<Self::Solution> {
        vec![]
    }
    /// How `--all` / `--count` enumerate when `--enumeration` is not given
    /// (with the default solver): the best measured engine for the family.
    /// Default: the built-in non-blocking engine (docs/enumeration.md).
    fn enumeration(&self) -> EnumerationEngine {
        EnumerationEngine::NonBlocking
    }
    /// A key of a solution, distinct for distinct solutions: class counting
    /// ([`crate::drive::classes`]) drops repeated images and picks a class's
    /// canonical member (the least key) by it. Default: the serialised form;
    /// a puzzle with a compact form saves the serialising.
    fn class_key(&self, sol: &Self::Solution) -> Vec<u8> {
        serde_json::to_vec(sol).expect("solutions serialise")
    }
    /// Whether this instance's CNF keeps `sol`, a solution by the rules:
    /// false where its symmetry-breaking clauses exclude it.
    fn keeps(&self, _sol: &Self::Solution) -> bool {
        true
    }
    /// Lazily added constraints: given a model of the formula so far, add
    /// the clauses of some constraint it violates and return `true`, or
    /// return `false` to accept it. The puzzle's constraints are the CNF plus
    /// every constraint this can add (default: none, the CNF is complete).
    fn separate<DB: ClauseDatabase>(
        &self,
        _map: &Self::Map,
        _model: &Assignment,
        _db: &mut DB,
    ) -> bool {
        false
    }
    /// Reasoning on partial assignments during the built-in engine's search
    /// ([`PartialCheck`]: a conflict it finds comes with an implied clause
    /// that explains it, learnt as a conflict clause). The drivers install
    /// it wherever they enumerate; a backend that runs none ignores it (it
    /// only prunes what no solution needs). Default: none.
    fn partial_check(&self, _map: &Self::Map) -> Option<Box<dyn PartialCheck>> {
        None
    }
    /// With a scored objective ([`Encoded::scored`]): adds clauses keeping
    /// only models that may score better than `best`.
    fn require_better<DB: ClauseDatabase>(&self, _map: &Self::Map, _best: i64, _db: &mut DB) {}
    /// The clause excluding a model in enumeration and scored optimisation;
    /// None: block its projection onto the primary literals.
    fn blocking_clause(&self, _map: &Self::Map, _model: &Assignment) -> Option<Vec<Lit>> {
        None
    }
    /// The literals `--cubes` splits the search on, the most useful first
    /// ([`crate::drive::cubes`]: 2^d cubes assume the first d of them, each
    /// with either sign). A puzzle may define new literals for it, each by
    /// clauses added to `cnf` that fix its value from the primary literals
    /// (so the solutions stay the same). Default: the primary literals, in
    /// order.
    fn split_literals(&self, _map: &Self::Map, primary: &[Lit], _cnf: &mut Cnf) -> Vec<Lit> {
        primary.to_vec()
    }
    /// The puzzle's pseudo-Boolean model, written from its rules (like
    /// [`Puzzle::check`], never from the CNF), over the primary literals
    /// (each variable named as `encode` names the same literal in
    /// [`Encoded::names`]) plus the objective where there is one: what a
    /// VeriPB proof starts from (`puzzlesat opb`). None: the family has no
    /// model (its certificates stay on the DRAT path).
    fn pb_model(&self) -> Option<PbModel> {
        None
    }
    /// The VeriPB derivation, from [`Puzzle::pb_model`], of the
    /// symmetry-breaking and dominance clauses `encode` posted
    /// ([`puzzlesat_encodings::dominance`]), writing each CNF literal by
    /// `name` (the proof's names). None: `encode` posted none. `Err`: it
    /// posted some this family does not derive (a certificate from the
    /// model must then be refused).
    fn symmetry_proof(
        &self,
        _map: &Self::Map,
        _name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        None
    }
    /// Fills the report's details (and may cross-check the answer, or
    /// replace the shown solutions, e.g. by one per symmetry class) once the
    /// run is over.
    fn details(
        &self,
        _map: &Self::Map,
        _report: &mut Report<Self::Solution, Self::Details>,
    ) -> anyhow::Result<()> {
        Ok(())
    }
}
/// A puzzle found in stages, driven by [`crate::drive::staged`]: stage `i`
/// is a CNF built from the answers of the stages before it; an answer that
/// the later stages cannot extend is blocked and its stage asked again. A
/// restriction of the puzzle (not every solution has the staged form), so
/// the stages find solutions but never count or refute them. The stages are
/// data for the driver: a puzzle never opens a solver session.
pub trait Staged {
    /// One stage's answer (e.g. a digit square).
    type Answer: Clone;
    /// What the stage's `read` needs (the literals of its variables).
    type Map;
    /// What the answers of all stages make together.
    type Solution: Serialize;
    /// Puzzle-specific results the report carries.
    type Details: Details;

    /// One line naming the instance and the method.
    fn describe(&self) -> String;
    /// The number of stages (at least one).
    fn stages(&self) -> usize;
    /// What an answer is called in progress lines, e.g. `digit square`.
    fn answer_noun(&self) -> &'static str;
    /// Compiles stage `i` into `cnf`, given the answers of stages `0..i`.
    fn encode_stage(
        &self,
        i: usize,
        earlier: &[Self::Answer],
        cnf: &mut Cnf,
    ) -> anyhow::Result<Self::Map>;
    /// The answer of stage `i` in a model of its CNF.
    fn read(&self, i: usize, map: &Self::Map, model: &Assignment) -> Self::Answer;
    /// The clause that excludes `answer` from its stage's CNF.
    fn block(&self, i: usize, map: &Self::Map, answer: &Self::Answer) -> Vec<Lit>;
    /// The solution the answers of every stage make, passed through the
    /// puzzle's independent checker (an error if it fails).
    fn solution(&self, answers: &[Self::Answer]) -> anyhow::Result<Self::Solution>;
    /// The report's details, given the answers each stage gave.
    fn details(&self, answers_per_stage: &[u64]) -> Self::Details;
}

/// Splitting literals for a puzzle of integer cells: `[x ≥ middle]` of
/// each (x's middle order literal), in order, so each split halves a
/// cell's domain instead of cutting off one value of it.
pub fn middle_literals(vars: &[IntVar]) -> Vec<Lit> {
    vars.iter()
        .filter_map(|x| {
            let ge = x.order_lits();
            ge.get(ge.len().saturating_sub(1) / 2).copied()
        })
        .collect()
}

/// Splitting literals for one-hot groups (exactly one literal of each group
/// holds in every solution, e.g. the cells of a row, the values of a cell):
/// per group a new literal "the true one is in the group's second half",
/// defined in `cnf` by `lit → ±half` (so the solutions stay the same). A
/// group's own literal splits off 1/n of the space; this one about half.
pub fn half_literals(cnf: &mut Cnf, groups: impl IntoIterator<Item = Vec<Lit>>) -> Vec<Lit> {
    groups
        .into_iter()
        .map(|group| {
            let half = cnf.fresh();
            // its meaning, for a VeriPB proof: some literal of the second half
            puzzlesat_encodings::provenance::define(cnf, half, || {
                let second: Vec<Lit> = group[group.len().div_ceil(2)..].to_vec();
                puzzlesat_encodings::provenance::Linear::count_at_least(&second, 1)
            });
            for (k, &l) in group.iter().enumerate() {
                let second = 2 * k >= group.len();
                cnf.add(&[!l, if second { half } else { !half }]);
            }
            half
        })
        .collect()
}

/// Splitting literals for one-hot groups by the binary code of the true
/// literal's position: per group a new literal per bit `j` of the position
/// `k` (`0 ≤ k < len`), defined in `cnf` by `lit_k → ±bit_j` (so the
/// solutions stay the same), least significant bit first. The `b` lowest
/// bits split a group's positions into `2^b` classes of residues mod `2^b`,
/// each of about `len/2^b` positions wherever the true one may lie (a range
/// of values that symmetry breaking cuts keeps each class about as large);
/// all `⌈log₂ len⌉` bits fix the position.
pub fn bit_literals(cnf: &mut Cnf, group: &[Lit]) -> Vec<Lit> {
    let bits = usize::BITS - group.len().saturating_sub(1).leading_zeros();
    (0..bits)
        .map(|j| {
            let bit = cnf.fresh();
            for (k, &l) in group.iter().enumerate() {
                cnf.add(&[!l, if k >> j & 1 == 1 { bit } else { !bit }]);
            }
            bit
        })
        .collect()
}

/// Encodes `p`, timing it.
pub fn encode<P: Puzzle>(p: &P) -> anyhow::Result<(Cnf, Encoded<P::Map>, f64)> {
    encode_recording(p, false)
}

/// [`encode`]; with `provenance`, the CNF keeps the definitions log its
/// encoders write (for VeriPB proofs: [`Cnf::take_provenance`]).
pub fn encode_recording<P: Puzzle>(
    p: &P,
    provenance: bool,
) -> anyhow::Result<(Cnf, Encoded<P::Map>, f64)> {
    let t = Instant::now();
    let mut cnf = Cnf::new();
    if provenance {
        cnf.record_provenance();
    }
    let enc = p
        .encode(&mut cnf)
        .with_context(|| format!("encoding {}", p.describe()))?;
    Ok((cnf, enc, t.elapsed().as_secs_f64()))
}

/// Decodes and checks a model; a failed check is an error (never printed as
/// a solution).
pub fn decode_checked<P: Puzzle>(
    p: &P,
    enc: &Encoded<P::Map>,
    model: &Assignment,
) -> anyhow::Result<P::Solution> {
    let sol = p.decode(&enc.map, model)?;
    if let Err(e) = p.check(&sol) {
        bail!(
            "internal error: the solver's model decodes to an invalid solution ({e}):\n{}",
            p.render(&sol)
        );
    }
    if let (Some(obj), Some(v)) = (&enc.objective, p.objective_of(&sol)) {
        let cnf_v = obj.value(model);
        if cnf_v != v {
            bail!("internal error: the CNF's objective says {cnf_v}, the rules say {v}");
        }
    }
    Ok(sol)
}
