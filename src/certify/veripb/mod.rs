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
//! 3. **the search** ([`replay_search`]): each blocking clause of the
//!    enumeration follows by RUP (from its solution's exclusion in the
//!    proof's model when the checker states the count, [`count`]; else
//!    after the solution is logged by `solx`); the decision formula is
//!    re-solved by the proof solver and each lemma of its DRAT proof is a
//!    `rup` step (deletions become `del id`), ending in the contradiction;
//! 4. **the conclusion**: `UNSAT` for an infeasible instance and for a
//!    count's exclusion model, `BOUNDS v v` for an optimum, `SAT` for a
//!    count the checker cannot state (VeriPB 3.0.2 has no `EQUIENUMERABLE`
//!    output: that no other solution exists is then the checked
//!    contradiction after the `solx` steps).
//!
//! The proof is written in the syntax of version 3.0 of the format
//! (`proof_format_overview.md` and `migration_guide.md` of the `veripb`
//! crate).

use std::io;
use std::path::{Path, PathBuf};

use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::provenance::{Linear, Provenance};
use puzzlesat_encodings::solve::Objective;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

use super::manifest::{ClaimKind, Kept};
use super::{
    drat, formula_digest, Certificate, Certified, CertifyError, Claim, FromModel, Producer,
};
use crate::io::output::Pending;
use crate::solver::Limits;
use puzzlesat_encodings::proof::{Big, Conclusion, Constraint, PolSum, Ref, Step};
use search::{derive_assumptions, linked, log_optimum};

mod check;
pub mod count;
mod derive;
mod model;
mod search;
mod writer;

pub use check::{bounds, check, checker, Checked, INSTALL};
pub use derive::{derive_from_model, plan, EncodingSteps};
pub use model::{cube_model, ModelConstraints};
pub use search::{replay_search, SearchSteps};
pub use writer::{Halves, Id, ProofNames, ProofWriter, SymmetryBlock};

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
    /// a count's number of solutions, as the run states it: when the
    /// solutions the proof excludes ([`super::count`]) are that many, the
    /// checker states the count
    pub count: Option<u64>,
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

/// A VeriPB certificate: the files, the steps and the check.
#[derive(Clone, Debug)]
pub struct PbCertificate {
    /// a count the checker states (the exclusion model's clauses)
    pub counted: Option<u64>,
    /// a stated count's solutions proof
    pub solutions_path: Option<PathBuf>,
    /// the model file the proof starts from
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

/// The folder a certificate's files go to: `--proof-dir` (made if
/// missing) or a temporary one. Files are written under temporary names
/// and placed under new ones when whole ([`crate::io::output::publish_new`]:
/// nothing in the folder is replaced).
pub struct ProofFolder {
    dir: PathBuf,
    stem: String,
    temp: Option<tempfile::TempDir>,
}

impl ProofFolder {
    /// `dir`, or a temporary folder when None; the files' stem.
    pub fn open(dir: Option<&Path>, stem: &str) -> Result<Self, CertifyError> {
        let io = |e: io::Error| CertifyError::Io(e.to_string());
        let (dir, temp) = match dir {
            Some(d) => {
                std::fs::create_dir_all(d).map_err(io)?;
                (d.to_path_buf(), None)
            }
            None => {
                let t = tempfile::tempdir().map_err(io)?;
                (t.path().to_path_buf(), Some(t))
            }
        };
        Ok(ProofFolder {
            dir,
            stem: stem.to_string(),
            temp,
        })
    }

    /// The file `STEM.ext`, being written.
    pub fn pending(&self, ext: &str) -> Result<crate::io::output::Pending, CertifyError> {
        crate::io::output::Pending::new(&self.dir, &format!("{}.{ext}", self.stem))
            .map_err(|e| CertifyError::Io(format!("{e:#}")))
    }

    /// Places the written files (extension, file) under new names; their
    /// paths, in order.
    pub fn publish(
        &self,
        files: Vec<(&str, crate::io::output::Pending)>,
    ) -> Result<Vec<PathBuf>, CertifyError> {
        crate::io::output::publish_new(&self.dir, &self.stem, files)
            .map_err(|e| CertifyError::Io(format!("{e:#}")))
    }

    /// [`check`]; when VeriPB rejects the proof, a temporary folder is
    /// kept, so that the paths the error names exist.
    pub fn check(
        &mut self,
        model: &Path,
        proof: &Path,
        limits: &Limits,
    ) -> Result<Checked, CertifyError> {
        let checked = check(model, proof, limits);
        if matches!(checked, Err(CertifyError::VeripbRejected(_))) {
            if let Some(t) = self.temp.take() {
                let _ = t.keep();
            }
        }
        checked
    }
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
    checker(limits)?; // before any work: a missing checker is an error
    let mut folder = ProofFolder::open(run.dir, run.stem)?;
    let mut model_file = folder.pending("opb")?;
    run.model.write_opb(model_file.writer()).map_err(io)?;
    let counted = stated_count(run, formula);
    let excluded = match &counted {
        Ok(sols) => Some(write_excluded(run.model, sols, &folder)?),
        Err(_) => None,
    };
    let proof_model = excluded.as_ref().map_or(run.model, |(x, _, _)| x);
    // the proof has its model's stem
    let proof_ext = match excluded {
        Some(_) => "excluded.pbp",
        None => "pbp",
    };
    let mut proof_file = folder.pending(proof_ext)?;
    let stated = counted.as_ref().ok().map(|sols| sols.len());
    let written = write_proof(
        run,
        formula,
        producer,
        limits,
        proof_model,
        proof_file.writer(),
        stated,
    )?;
    let mut files = vec![("opb", model_file), (proof_ext, proof_file)];
    if let Some((_, xf, sf)) = excluded {
        files.push(("excluded.opb", xf));
        files.push(("solutions.pbp", sf));
    }
    let (placed, checked) = publish_and_check(&mut folder, files, limits)?;
    // the optimum the run states is the checker's bound, mapped back by the
    // objective's constant the model states
    if let Some(v) = written.optimum {
        if check::bounds(&checked.verdict) != Some((v, v)) {
            return Err(CertifyError::Producer(format!(
                "veripb says `{}`, not the optimum's BOUNDS {v} {v}",
                checked.verdict
            )));
        }
    }
    if let (Some(dir), None, None) = (run.dir, &run.cube, &run.guard) {
        keep_claim(dir, run, &written, stated.is_some(), &placed)?;
    }
    Ok(PbCertificate {
        counted: counted.ok().map(|s| s.len() as u64),
        solutions_path: placed.solutions,
        model_path: placed.excluded.unwrap_or(placed.model),
        proof_path: placed.proof,
        proof_bytes: written.proof_bytes,
        encoding: written.encoding,
        search: written.search,
        checked,
    })
}

/// A count the checker states: its solutions, logged over the model, and
/// the model with each of them excluded, which the proof refutes; Err
/// (why not) for any other claim.
fn stated_count(run: &Run, formula: &Cnf) -> Result<Vec<count::ModelAssignment>, String> {
    match (run.claim, run.count, &run.cube, &run.guard) {
        (Claim::Complete, Some(n), None, None) if n > 0 => run
            .model
            .cnf_literals(run.names)
            .and_then(|lits| {
                let added = formula.clauses().skip(run.cnf_clauses);
                count::counted_solutions(run.model, &lits, run.primary, added, run.symmetry)
            })
            .and_then(|sols| count::as_counted(sols, n)),
        _ => Err("not a count".into()),
    }
}

/// Writes a stated count's exclusion model and its solutions proof; the
/// model and the two files.
fn write_excluded(
    model: &PbModel,
    sols: &[count::ModelAssignment],
    folder: &ProofFolder,
) -> Result<(PbModel, Pending, Pending), CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let x = count::excluded_model(model, sols);
    let (mut xf, mut sf) = (
        folder.pending("excluded.opb")?,
        folder.pending("solutions.pbp")?,
    );
    x.write_opb(xf.writer()).map_err(io)?;
    count::write_solutions_proof(model, sols, sf.writer()).map_err(io)?;
    Ok((x, xf, sf))
}

/// What [`write_proof`] wrote.
struct Written {
    proof_bytes: u64,
    encoding: EncodingSteps,
    search: SearchSteps,
    /// an optimum's value in the model's terms (the checker's bound)
    optimum: Option<i64>,
}

/// Writes the proof from `proof_model` to `out`: the encoding and the
/// symmetry breaking derived from the model, the claim's assumptions, the
/// search, the conclusion. `stated`: a count the checker states (its
/// number of solutions).
fn write_proof<W: io::Write>(
    run: &Run,
    formula: &Cnf,
    producer: &Producer,
    limits: &Limits,
    proof_model: &PbModel,
    out: W,
    stated: Option<usize>,
) -> Result<Written, CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let names = ProofNames::new(run.model, run.names, formula.n_vars())
        .map_err(|e| CertifyError::Producer(format!("VeriPB proof: {e}")))?;
    let mut w = ProofWriter::new(out, proof_model.loaded()).map_err(io)?;
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
    let (optimum, guarded) =
        derive_claim_assumptions(run, &names, &mut w, formula, &halves, &mut cnf_ids)?;
    let spent = match guarded {
        None => spent_halves(&halves, &cnf_ids),
        Some(_) => vec![],
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
            stated.is_none(),
            &spent,
            producer,
            limits,
        )?
    } else {
        w.comment("no better solution: by propagation")
            .map_err(io)?;
        let contradiction = Step::Rup(Constraint::clause([]), vec![]);
        (w.step(&contradiction).map_err(io)?, SearchSteps::default())
    };
    search.solutions += usize::from(optimum.is_some());
    if let Some(n) = stated {
        search.solutions = n;
    }
    if let Some(claim) = &guarded {
        close_guard(&names, &mut w, claim, contradiction).map_err(io)?;
    }
    let conclusion = match (run.claim, search.solutions, optimum) {
        // the cube's claim is the derived constraint checked above
        _ if guarded.is_some() => Conclusion::None,
        (Claim::Complete, n, _) if n > 0 && stated.is_none() => Conclusion::Sat,
        (Claim::Optimal, _, Some(v)) => Conclusion::Bounds(Some(v), Ref::Id(contradiction)),
        // a model with an objective and no solution (a cube's, with its
        // bound): VeriPB says so by infinite bounds
        _ if run.model.objective().is_some() => Conclusion::Bounds(None, Ref::Id(contradiction)),
        _ => Conclusion::Unsat(Ref::Id(contradiction)),
    };
    let proof_bytes = w.finish(conclusion).map_err(io)?;
    Ok(Written {
        proof_bytes,
        encoding,
        search,
        optimum,
    })
}

/// An optimum's assumptions, after the derived CNF: a guarded cube's
/// premise (its claim, opened by contradiction), a cube's bound, or the
/// best solution logged and the constraint asking for a better one.
/// Returns the optimum's value (not a cube's) and a guarded cube's claim.
fn derive_claim_assumptions<W: io::Write>(
    run: &Run,
    names: &ProofNames,
    w: &mut ProofWriter<W>,
    formula: &Cnf,
    halves: &Halves,
    cnf_ids: &mut Vec<Id>,
) -> Result<(Option<i64>, Option<Linear>), CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    if run.claim != Claim::Optimal {
        return Ok((None, None));
    }
    if let Some(g) = &run.guard {
        let claim = open_guard(names, w, g).map_err(io)?;
        let p = w.next_id() - 1;
        let mut sum = PolSum::new();
        sum.add(Ref::Id(p));
        for &l in g.cube {
            sum.add_axiom(names.literal(!l), Big::from_u64(guard_weight(g) as u64));
        }
        let better = w.step(&sum.step()).map_err(io)?;
        // tied to the CNF's objective where the symmetry block says how
        let (better, linked_better) = linked(run, w, (better, g.better.clone())).map_err(io)?;
        derive_assumptions(
            run,
            g.objective,
            names,
            w,
            formula,
            halves,
            cnf_ids,
            (better, &linked_better),
        )?;
        Ok((None, Some(claim)))
    } else if let Some(c) = &run.cube {
        w.comment("the cube's assumptions: better than its bound, its literals")
            .map_err(io)?;
        let (id, better) = linked(run, w, (c.id, c.better.clone())).map_err(io)?;
        derive_assumptions(
            run,
            c.objective,
            names,
            w,
            formula,
            halves,
            cnf_ids,
            (id, &better),
        )?;
        Ok((None, None))
    } else {
        let opb = log_optimum(run, names, w, formula, halves, cnf_ids)?;
        Ok((Some(opb), None))
    }
}

/// The weight `k` of a guarded cube's literals in its premise: large
/// enough that the premise forces every one of them.
fn guard_weight(g: &CubeGuard) -> i64 {
    let most: i64 = g.better.terms.iter().map(|&(a, _)| a as i64).sum();
    (most - g.better.bound + 1).max(1)
}

/// Opens a guarded cube's claim `C` by contradiction: `red C` with a
/// subproof whose premise ¬C is `better + Σ k·l ≥ bound + k·|cube|`.
/// Returns `C`; the premise is the last id.
fn open_guard<W: io::Write>(
    names: &ProofNames,
    w: &mut ProofWriter<W>,
    g: &CubeGuard,
) -> io::Result<Linear> {
    let k = guard_weight(g);
    let terms = g
        .better
        .terms
        .iter()
        .map(|&(a, l)| (a as i64, l))
        .chain(g.cube.iter().map(|&l| (k, l)));
    let premise = Linear::at_least(terms, g.better.bound + k * g.cube.len() as i64);
    let claim = premise.negation();
    w.comment("the cube's claim, by contradiction: not (its literals and better than its bound)")?;
    w.line(&Step::Red(names.linear(&claim), vec![], true))?;
    w.line(&Step::ProofGoal(1))?;
    // the rule's reserved id, then the premise
    w.skip(2);
    Ok(claim)
}

/// Closes a guarded cube's subproof at `contradiction` and checks its
/// claim among the derived constraints.
fn close_guard<W: io::Write>(
    names: &ProofNames,
    w: &mut ProofWriter<W>,
    claim: &Linear,
    contradiction: Id,
) -> io::Result<()> {
    w.line(&Step::Qed(Some(Ref::Id(contradiction))))?;
    w.line(&Step::Qed(None))?;
    w.skip(1);
    let id = w.next_id() - 1;
    w.comment("the cube's claim, derived")?;
    w.line(&Step::Equals(names.linear(claim), Ref::Id(id)))
}

/// The definitions' halves did their work once the clauses and the
/// assumptions are derived: the search's lemmas are RUP over the formula's
/// clauses, so the halves (long PB constraints) go before the lemmas, after
/// a count's `solx` steps (which need the definitions to propagate the
/// auxiliary variables to a full assignment), and VeriPB propagates over
/// less while it replays (Enigma n = 6 with occ3: checked in 6.8 s instead
/// of 22.6 s); not inside a cube's subproof. The halves' ids that are not
/// a CNF clause's.
fn spent_halves(halves: &Halves, cnf_ids: &[Id]) -> Vec<Id> {
    let keep: std::collections::HashSet<Id> = cnf_ids.iter().copied().collect();
    let mut gone: Vec<Id> = halves
        .values()
        .map(|&(id, _)| id)
        .filter(|id| !keep.contains(id))
        .collect();
    gone.sort_unstable();
    gone.dedup();
    gone
}

/// Where [`publish_and_check`] placed the files.
struct Placed {
    model: PathBuf,
    proof: PathBuf,
    /// a stated count's exclusion model
    excluded: Option<PathBuf>,
    /// a stated count's solutions proof
    solutions: Option<PathBuf>,
}

/// Places the written files (the model, the proof, then a stated count's
/// exclusion model and solutions proof) and checks the proof (and the
/// solutions proof: its time is added).
fn publish_and_check(
    folder: &mut ProofFolder,
    files: Vec<(&str, Pending)>,
    limits: &Limits,
) -> Result<(Placed, Checked), CertifyError> {
    let stated = files.len() > 2;
    let placed = folder.publish(files)?;
    let (excluded, solutions) = match stated {
        true => (Some(placed[2].clone()), Some(placed[3].clone())),
        false => (None, None),
    };
    let placed = Placed {
        model: placed[0].clone(),
        proof: placed[1].clone(),
        excluded,
        solutions,
    };
    let mut checked = folder.check(
        placed.excluded.as_ref().unwrap_or(&placed.model),
        &placed.proof,
        limits,
    )?;
    if let Some(sols) = &placed.solutions {
        let logged = check(&placed.model, sols, limits)?;
        checked.seconds += logged.seconds;
    }
    Ok((placed, checked))
}

/// Keeps the claim the checked files establish in `dir`'s manifest, for
/// `puzzlesat verify`.
fn keep_claim(
    dir: &Path,
    run: &Run,
    written: &Written,
    stated: bool,
    placed: &Placed,
) -> Result<(), CertifyError> {
    let claim = match (run.claim, written.optimum) {
        (Claim::Optimal, Some(v)) => Some((
            ClaimKind::Optimal,
            run.model.objective().map(|o| o.from_opb_value(v)),
        )),
        // a count whose solutions the checker does not state has no
        // claim `verify` can establish
        (Claim::Complete, _) if !stated && written.search.solutions > 0 => None,
        (Claim::Complete, _) => Some((ClaimKind::Count, Some(written.search.solutions as i64))),
        _ => Some((ClaimKind::Infeasible, None)),
    };
    let Some((claim, value)) = claim else {
        return Ok(());
    };
    let files = Kept {
        model: &placed.model,
        proof: &placed.proof,
        proof_model: placed.excluded.as_deref(),
        solutions: placed.solutions.as_deref(),
    };
    super::manifest::keep(dir, claim, value, &files).map_err(|e| CertifyError::Io(format!("{e:#}")))
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
    if run.claim == Claim::Complete && pc.search.solutions > 0 && pc.counted.is_none() {
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
                counted: pc.counted,
                solutions_file: run
                    .dir
                    .and(pc.solutions_path.as_ref())
                    .map(|p| p.display().to_string()),
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
