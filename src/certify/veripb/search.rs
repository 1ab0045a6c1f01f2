//! The search replayed: a count's solutions by `solx`, an optimum's best
//! solution by `soli` and the assumptions that ask for a better one, then
//! the proof solver's DRAT lemmas as `rup` steps.

use std::io::{self, Write};

use puzzlesat_encodings::pbmodel::PbModel;
use puzzlesat_encodings::provenance::Linear;
use puzzlesat_encodings::solve::Objective;
use puzzlesat_encodings::{Assignment, Cnf};
use rustsat::types::{Lit, Var};

use super::derive::derive_from;
use super::model::Sum;
use super::writer::{ClauseIds, Halves, Id, ProofNames, ProofWriter};
use super::Run;
use crate::certify::{drat, produce_proof, CertifyError, Producer};
use crate::solver::Limits;
use puzzlesat_encodings::proof::{self, Constraint, Op, Ref, Step};

/// The value of every model variable in the solution `best` (an assignment
/// of the CNF): a variable the CNF names takes its literal's value; the
/// model's own auxiliary variables (which the CNF does not name) are then
/// set one by one, each to a value that keeps every constraint it occurs
/// in satisfiable, and the whole model is checked. `Err` says why no
/// solution of the model follows.
pub(super) fn model_solution(
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
    // bits from the top), each true if it fits; if that fails, first
    // defined first, each false if it fits (Enigma's cells above the
    // encoding's domain, then what they define)
    let named = value.clone();
    let mut missing = None;
    let n = model.n_vars();
    for first in [true, false] {
        value.clone_from(&named);
        let order: Vec<usize> = match first {
            true => (0..n).rev().collect(),
            false => (0..n).collect(),
        };
        missing = order.into_iter().find(|&v| {
            if value[v].is_some() {
                return false;
            }
            let mut fits = |b: bool| {
                value[v] = Some(b);
                occurs[v].iter().all(|&i| feasible(&value, i))
            };
            !fits(first) && !fits(!first)
        });
        if missing.is_none() {
            break;
        }
    }
    if let Some(v) = missing {
        return Err(format!(
            "no value of the model's variable {} fits the solution",
            model.name(vars[v])
        ));
    }
    let value: Vec<bool> = value.into_iter().map(|b| b.unwrap_or(false)).collect();
    model.check(|v| value[v.idx()])?;
    Ok(value)
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
    log_solutions: bool,
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
            // a counted solution is excluded in the proof's model, and its
            // blocking clause follows by RUP from its exclusion
            if log_solutions {
                let sol = c.iter().map(|&l| names.literal(!l)).collect();
                w.step(&Step::Solx(sol)).map_err(io)?;
            }
            steps.solutions += 1;
        } else {
            steps.added += 1;
        }
        let id = w.step(&Step::Rup(names.clause(c), vec![])).map_err(io)?;
        ids.insert(c, id);
    }
    if !spent.is_empty() {
        w.comment("constraints the lemmas do not need (the definitions' halves)")
            .map_err(io)?;
        let ids = spent.iter().map(|&id| Ref::Id(id)).collect();
        w.line(&Step::Deld(ids)).map_err(io)?;
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
                    w.line(&Step::Del(vec![Ref::Id(id)]))
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
            w.step(&Step::Rup(names.clause(&lits), vec![])).map(|id| {
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
        None => w
            .step(&Step::Rup(Constraint::clause([]), vec![]))
            .map_err(io)?,
    };
    Ok((contradiction, steps))
}

/// An optimum's step: logs the best solution by `soli` (VeriPB adds the
/// objective-improving constraint `f ≤ f(best) − 1`), then derives each
/// assumption of the last (UNSAT) call, "better than the best", from it
/// and the halves of the bound encoding's definitions, appending their ids
/// to `ids`. Returns `f(best)`, the value of the OPB file's objective.
pub(super) fn log_optimum<W: Write>(
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
    let lits = run
        .model
        .vars()
        .map(|v| proof::Lit::new(run.model.name(v), !value[v.idx()]))
        .collect();
    w.comment("the best solution; soli adds: the objective is better")
        .map_err(io)?;
    let mut soli = w.step(&Step::Soli(lits)).map_err(io)?;
    let opb = model_obj.opb_value(found);
    // the objective-improving constraint over CNF literals: Σ terms ≤ opb − 1.
    // A term over a variable the CNF does not name (Enigma's cells above
    // the encoding's domain, which the proof has derived) must be false in
    // the best solution and fixed so by propagation: one RUP step says all
    // of them are, and its sum with the improving constraint cancels them
    let mut terms = vec![];
    let mut fixed = vec![];
    for (a, l) in model_obj.opb_terms() {
        match cnf_lits[l.var.idx()] {
            Some(x) => terms.push((-a, if l.negated { !x } else { x })),
            None if -a > 0 && value[l.var.idx()] == l.negated => {
                fixed.push((
                    (-a) as u64,
                    proof::Lit::new(run.model.name(l.var), !l.negated),
                ));
            }
            None => {
                return Err(fail(format!(
                    "the objective's variable {} is not the CNF's and not false",
                    run.model.name(l.var)
                )))
            }
        }
    }
    if !fixed.is_empty() {
        w.comment("the objective's terms the CNF does not name are false")
            .map_err(io)?;
        let all: u64 = fixed.iter().map(|&(a, _)| a).sum();
        let fix = Step::Rup(Constraint::at_least(fixed, all as i64), vec![]);
        let fix = w.step(&fix).map_err(io)?;
        let sum = Step::Pol(vec![Op::Ref(Ref::Id(soli)), Op::Ref(Ref::Id(fix)), Op::Add]);
        soli = w.step(&sum).map_err(io)?;
    }
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
pub(super) fn linked<W: Write>(
    run: &Run,
    w: &mut ProofWriter<W>,
    (id, better): (Id, Linear),
) -> io::Result<(Id, Linear)> {
    let Some((label, link)) = run.symmetry.and_then(|s| s.objective_link.as_ref()) else {
        return Ok((id, better));
    };
    w.comment("the improving constraint in the CNF objective's terms")?;
    let id = w.step(&Step::Pol(vec![
        Op::Ref(Ref::Id(id)),
        Op::Ref(label.clone()),
        Op::Add,
    ]))?;
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
pub(super) fn derive_assumptions<W: Write>(
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
        ids.push(w.step(&Step::Rup(names.clause(c), vec![])).map_err(io)?);
    }
    if !run.search && !terms_derived {
        forced_terms(w).map_err(io)?;
    }
    Ok(())
}
