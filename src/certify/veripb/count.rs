//! Counts that the checker states. VeriPB 3.0.2 has no "exactly N"
//! conclusion (`EQUIENUMERABLE` is not implemented), so a count of N
//! solutions is kept as two checks that `veripb` alone makes, over files a
//! reader can count in:
//!
//! 1. **the solutions** (`STEM.solutions.pbp`, over the model): N `solx`
//!    steps, each a full assignment of the model's variables. VeriPB checks
//!    that each is a solution of the model and adds the clause excluding
//!    it, so a repeated assignment violates its earlier exclusion: the N
//!    solutions are distinct;
//! 2. **nothing else** (`STEM.excluded.pbp`, over `STEM.excluded.opb`: the model plus
//!    the N exclusion clauses): a refutation ending `conclusion UNSAT`.
//!
//! The exclusion model is the model followed by exactly the logged
//! assignments' exclusions, in order: a syntactic check ([`excluded_model`]
//! writes it, `puzzlesat verify` compares it byte for byte). N is the
//! number of exclusion clauses. This is what a certificate for model
//! counting must pin down (Fichte, Hecher & Roland, "Proofs for
//! Propositional Model Counting", SAT 2022): each counted object is a
//! solution, the objects are distinct, nothing else is a solution.
//!
//! Under symmetry breaking derived by dominance, every exclusion clause is
//! a constraint of the model that each `dom` witness must map onto an
//! implied one. So the exclusions are of whole orbits ([`orbit_closure`]:
//! the representatives' assignments closed under the witnesses); the image
//! of an exclusion clause is then another exclusion clause, which VeriPB
//! finds in the database. The expansion of the classes is checked with the
//! count.

use std::collections::BTreeSet;
use std::io::{self, Write};

use puzzlesat_encodings::pbmodel::{PbLit, PbModel, PbVar};
use puzzlesat_encodings::proof::{self, Conclusion, Step, Value};
use rustsat::types::{Lit, Var};

use super::{ProofWriter, SymmetryBlock};

/// A full assignment of a model's variables, by variable index.
pub type ModelAssignment = Vec<bool>;

/// The comment before the exclusion clauses in the exclusion model.
const EXCLUDED: &str = "the logged solutions, each excluded (STEM.solutions.pbp logs them)";

/// The witnesses of the `dom` steps among `steps` (a labelled one too; a
/// witness missed leaves the closure short of the run's count, which
/// [`as_counted`] then refuses),
/// as maps of model variables: each pair (x, y) says the witness
/// substitutes y for x. `Err` names a witness that maps a model variable
/// to anything but a model variable (a constant, a negation, an auxiliary
/// variable): the exclusions cannot then be closed under it.
pub fn dom_witnesses<'a>(
    model: &PbModel,
    steps: impl IntoIterator<Item = &'a Step>,
) -> Result<Vec<Vec<(PbVar, PbVar)>>, String> {
    let mut out = vec![];
    for step in steps {
        witnesses_of(model, step, &mut out)?;
    }
    Ok(out)
}

/// The witnesses of `step`'s `dom` steps (in a label or an inline group
/// too), appended to `out`.
fn witnesses_of(
    model: &PbModel,
    step: &Step,
    out: &mut Vec<Vec<(PbVar, PbVar)>>,
) -> Result<(), String> {
    let witness = match step {
        Step::Labelled(_, inner) => return witnesses_of(model, inner, out),
        Step::Inline(steps) => {
            return steps.iter().try_for_each(|s| witnesses_of(model, s, out));
        }
        Step::Dom(_, witness, _) => witness,
        _ => return Ok(()),
    };
    let mut map = vec![];
    for (from, to) in witness {
        let not_a_variable = |to: &dyn std::fmt::Display| {
            format!(
                "the dom witness maps {} to {to}, not a variable of the model: the exclusions cannot be closed under it",
                from.0
            )
        };
        let to_var = match to {
            Value::Lit(l) if !l.is_neg() => l.var(),
            other => return Err(not_a_variable(other)),
        };
        let x = model
            .lookup(&from.0)
            .ok_or_else(|| not_a_variable(&to_var.0))?;
        let y = model
            .lookup(&to_var.0)
            .ok_or_else(|| not_a_variable(&to_var.0))?;
        map.push((x, y));
    }
    out.push(map);
    Ok(())
}

/// `start` closed under the witnesses: the image of an assignment α under
/// a witness ω (x ↦ ω(x)) is the assignment β with β(ω(x)) = α(x), the one
/// whose exclusion clause is the image of α's. Sorted, without repeats.
/// `Err` if a witness is not a permutation of the variables it moves.
pub fn orbit_closure(
    start: Vec<ModelAssignment>,
    witnesses: &[Vec<(PbVar, PbVar)>],
) -> Result<Vec<ModelAssignment>, String> {
    for w in witnesses {
        let from: BTreeSet<PbVar> = w.iter().map(|&(x, _)| x).collect();
        let to: BTreeSet<PbVar> = w.iter().map(|&(_, y)| y).collect();
        if from.len() != w.len() || from != to {
            return Err("a dom witness is not a permutation of the model's variables".into());
        }
    }
    let mut seen: BTreeSet<ModelAssignment> = BTreeSet::new();
    let mut todo: Vec<ModelAssignment> = start;
    while let Some(a) = todo.pop() {
        if seen.contains(&a) {
            continue;
        }
        for w in witnesses {
            let mut b = a.clone();
            for &(x, y) in w {
                b[y.idx()] = a[x.idx()];
            }
            if !seen.contains(&b) {
                todo.push(b);
            }
        }
        seen.insert(a);
    }
    Ok(seen.into_iter().collect())
}

/// The solutions a count's final formula excludes, as full assignments of
/// the model's variables, closed under the `dom` witnesses of `symmetry`
/// (a count by classes: the representatives' orbits), sorted. A blocking
/// clause is a clause of `added` (the clauses added after the CNF) over
/// exactly the variables of `primary`; `cnf_lits` are the model
/// variables' CNF literals. `Err` if a model variable has no CNF literal
/// or a witness cannot close the set.
pub fn counted_solutions<'a>(
    model: &PbModel,
    cnf_lits: &[Option<Lit>],
    primary: &[Lit],
    added: impl Iterator<Item = &'a [Lit]>,
    symmetry: Option<&SymmetryBlock>,
) -> Result<Vec<ModelAssignment>, String> {
    let lits: Vec<Lit> = cnf_lits
        .iter()
        .zip(model.vars())
        .map(|(l, v)| {
            l.ok_or_else(|| {
                format!(
                    "the model's variable {} is not named in the CNF",
                    model.name(v)
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let mut primary_vars: Vec<Var> = primary.iter().map(|l| l.var()).collect();
    primary_vars.sort_unstable();
    let mut reps = vec![];
    for c in added {
        let mut vars: Vec<Var> = c.iter().map(|l| l.var()).collect();
        vars.sort_unstable();
        if primary_vars.is_empty() || vars != primary_vars {
            continue;
        }
        // the solution is the clause's negation
        let value = |x: Lit| {
            c.iter()
                .find(|l| l.var() == x.var())
                .map(|&l| (!l).is_pos() == x.is_pos())
                .ok_or_else(|| "a model variable is not among the primary literals".to_string())
        };
        reps.push(
            lits.iter()
                .map(|&x| value(x))
                .collect::<Result<Vec<bool>, _>>()?,
        );
    }
    let witnesses = match symmetry {
        Some(s) => dom_witnesses(model, s.early.0.iter().chain(&s.before.0).chain(&s.lines))?,
        None => vec![],
    };
    orbit_closure(reps, &witnesses)
}

/// `sols` if they are the run's count `n`; else why the checker cannot
/// state it (a count of the model with its own symmetry breaking: the
/// orbits hold more solutions than the run counts).
pub fn as_counted(sols: Vec<ModelAssignment>, n: u64) -> Result<Vec<ModelAssignment>, String> {
    if sols.len() as u64 != n {
        return Err(format!(
            "the excluded solutions would be {}, closed under the symmetry breaking's witnesses, while the run counts {n}: the count is of the model with its symmetry breaking",
            sols.len()
        ));
    }
    Ok(sols)
}

/// The literals of a full assignment, `x` or `~x` per model variable.
fn assignment_lits(model: &PbModel, a: &ModelAssignment) -> Vec<proof::Lit> {
    model
        .vars()
        .map(|v| proof::Lit::new(model.name(v), !a[v.idx()]))
        .collect()
}

/// Writes the solutions proof: over `model`, each assignment logged by
/// `solx`, then `conclusion SAT`.
pub fn write_solutions_proof(
    model: &PbModel,
    solutions: &[ModelAssignment],
    out: &mut impl Write,
) -> io::Result<()> {
    let mut w = ProofWriter::new(out, model.loaded())?;
    for a in solutions {
        w.step(&Step::Solx(assignment_lits(model, a)))?;
    }
    w.finish(Conclusion::Sat).map(|_| ())
}

/// The assignments a solutions proof logs, each a full assignment of
/// `model`'s variables; `Err` says which line is not one. The proof must
/// be what [`write_solutions_proof`] writes for them (the caller compares).
pub fn parse_solutions_proof(model: &PbModel, text: &str) -> Result<Vec<ModelAssignment>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("solx ") else {
            continue;
        };
        let mut a: Vec<Option<bool>> = vec![None; model.n_vars()];
        for lit in rest.trim_end_matches(';').split_whitespace() {
            let (name, value) = match lit.strip_prefix('~') {
                Some(n) => (n, false),
                None => (lit, true),
            };
            let v = model
                .lookup(name)
                .ok_or_else(|| format!("line {}: {name} is not a variable of the model", i + 1))?;
            if a[v.idx()].replace(value).is_some() {
                return Err(format!("line {}: {name} is assigned twice", i + 1));
            }
        }
        let a: Option<ModelAssignment> = a.into_iter().collect();
        out.push(a.ok_or_else(|| {
            format!(
                "line {}: the solx step does not assign every variable of the model",
                i + 1
            )
        })?);
    }
    Ok(out)
}

/// The exclusion model: `model` followed by the clause excluding each of
/// `solutions`, in order.
pub fn excluded_model(model: &PbModel, solutions: &[ModelAssignment]) -> PbModel {
    let mut m = model.clone();
    for (i, a) in solutions.iter().enumerate() {
        let lits: Vec<PbLit> = model
            .vars()
            .map(|v| if a[v.idx()] { v.neg() } else { v.pos() })
            .collect();
        m.clause(&lits, (i == 0).then(|| EXCLUDED.to_string()));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> PbModel {
        let mut m = PbModel::new();
        let v: Vec<PbVar> = (0..3).map(|i| m.var(&format!("a{i}"))).collect();
        m.exactly(&[v[0].pos(), v[1].pos(), v[2].pos()], 1, None);
        m
    }

    #[test]
    fn the_closure_is_the_orbits() {
        let m = model();
        let v: Vec<PbVar> = m.vars().collect();
        // the cycle a0 -> a1 -> a2 -> a0: one solution's orbit is all three
        let w = vec![vec![(v[0], v[1]), (v[1], v[2]), (v[2], v[0])]];
        let all = orbit_closure(vec![vec![true, false, false]], &w).unwrap();
        assert_eq!(all.len(), 3);
        // a swap alone: {a0} and {a1} are one orbit, {a2} its own
        let swap = vec![vec![(v[0], v[1]), (v[1], v[0])]];
        assert_eq!(
            orbit_closure(vec![vec![false, false, true]], &swap)
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            orbit_closure(vec![vec![true, false, false]], &swap)
                .unwrap()
                .len(),
            2
        );
        // not a permutation
        let bad = vec![vec![(v[0], v[1])]];
        assert!(orbit_closure(vec![vec![true, false, false]], &bad).is_err());
    }

    #[test]
    fn witnesses_are_read_from_dom_steps() {
        let m = model();
        let lit = |name: &str| proof::Lit::new(name, false);
        let swap = |a: &str, b: &str| {
            vec![
                (proof::Var(a.into()), Value::Lit(lit(b))),
                (proof::Var(b.into()), Value::Lit(lit(a))),
            ]
        };
        let c = proof::Constraint::clause(vec![lit("a0")]);
        let steps = [
            Step::Labelled(
                "lexL".into(),
                Box::new(Step::Dom(c.clone(), swap("a0", "a1"), true)),
            ),
            Step::Rup(c.clone(), vec![]),
            Step::Dom(c.clone(), swap("a1", "a2"), false),
        ];
        let w = dom_witnesses(&m, &steps).unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(w[1].len(), 2);
        let to_constant = Step::Dom(c, vec![(proof::Var("a0".into()), Value::False)], false);
        assert!(dom_witnesses(&m, [&to_constant]).is_err());
    }

    #[test]
    fn solutions_round_trip_and_exclusions_follow_them() {
        let m = model();
        let sols = vec![vec![true, false, false], vec![false, false, true]];
        let mut buf = vec![];
        write_solutions_proof(&m, &sols, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("solx a0 ~a1 ~a2;"));
        assert_eq!(parse_solutions_proof(&m, &text).unwrap(), sols);
        let x = excluded_model(&m, &sols);
        assert_eq!(x.loaded(), m.loaded() + 2);
        let opb = x.to_opb();
        assert!(opb.contains("+1 ~a0 +1 a1 +1 a2 >= 1 ;"), "{opb}");
        assert!(parse_solutions_proof(&m, "solx a0 ~a1;").is_err());
        assert!(parse_solutions_proof(&m, "solx a0 a0 ~a1 ~a2;").is_err());
    }
}
