//! Test helpers shared by the unit tests (via `#[path]`) and the integration
//! suites: a tiny DPLL solver and the projection of a CNF's models onto a
//! set of input variables, the reference every encoder is compared with.
#![allow(dead_code)]

use std::collections::BTreeSet;

// the crate names itself `puzzlesat_encodings` too (`extern crate self`),
// so this path works in the unit tests and in the integration suites
use puzzlesat_encodings::{Assignment, Checker, Cnf, Lit};

/// Is the CNF satisfiable with the given variable values fixed? A plain
/// DPLL with unit propagation: small formulas only (tests).
pub fn satisfiable_with(cnf: &Cnf, fixed: &[(u32, bool)]) -> bool {
    let n = cnf.n_vars() as usize;
    let mut val: Vec<Option<bool>> = vec![None; n];
    for &(v, b) in fixed {
        if (v as usize) < n {
            match val[v as usize] {
                Some(old) if old != b => return false,
                _ => val[v as usize] = Some(b),
            }
        }
    }
    let clauses: Vec<&[Lit]> = cnf.clauses().collect();
    dpll(&clauses, &mut val)
}

fn lit_value(val: &[Option<bool>], l: Lit) -> Option<bool> {
    val[l.var().idx()].map(|b| b == l.is_pos())
}

fn dpll(clauses: &[&[Lit]], val: &mut Vec<Option<bool>>) -> bool {
    let saved = val.clone();
    // unit propagation to a fixpoint
    loop {
        let mut changed = false;
        let mut branch: Option<Lit> = None;
        for c in clauses {
            let mut unassigned = None;
            let mut n_unassigned = 0;
            let mut sat = false;
            for &l in c.iter() {
                match lit_value(val, l) {
                    Some(true) => {
                        sat = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        n_unassigned += 1;
                        unassigned = Some(l);
                    }
                }
            }
            if sat {
                continue;
            }
            match n_unassigned {
                0 => {
                    *val = saved;
                    return false;
                }
                1 => {
                    let l = unassigned.unwrap();
                    val[l.var().idx()] = Some(l.is_pos());
                    changed = true;
                }
                _ => {
                    if branch.is_none() {
                        branch = unassigned;
                    }
                }
            }
        }
        if changed {
            continue;
        }
        match branch {
            None => return true, // every clause satisfied
            Some(l) => {
                for b in [l.is_pos(), !l.is_pos()] {
                    let mut v2 = val.clone();
                    v2[l.var().idx()] = Some(b);
                    if dpll(clauses, &mut v2) {
                        *val = v2;
                        return true;
                    }
                }
                *val = saved;
                return false;
            }
        }
    }
}

/// The set of assignments to `vars` (as bit vectors, in `vars` order) that
/// extend to a model of the CNF. Enumerates all 2^|vars| and asks DPLL.
pub fn projected_models(cnf: &Cnf, vars: &[u32]) -> BTreeSet<Vec<bool>> {
    assert!(vars.len() <= 20, "too many projection variables");
    all_vectors(vars.len())
        .filter(|v| {
            let fixed: Vec<(u32, bool)> = vars.iter().copied().zip(v.iter().copied()).collect();
            satisfiable_with(cnf, &fixed)
        })
        .collect()
}

/// Every Boolean vector of length `n`, in counting order.
pub fn all_vectors(n: usize) -> impl Iterator<Item = Vec<bool>> {
    (0u64..1 << n).map(move |bits| (0..n).map(|i| bits >> i & 1 == 1).collect())
}

/// The assignment giving `vars[i]` the value `v[i]` (others false).
pub fn assignment_of(vars: &[u32], v: &[bool]) -> Assignment {
    let n = vars.iter().map(|&x| x as usize + 1).max().unwrap_or(0);
    let mut values = vec![false; n];
    for (&x, &b) in vars.iter().zip(v) {
        values[x as usize] = b;
    }
    Assignment::from_values(values)
}

/// Like [`projected_models`], with assumption literals fixed as well.
pub fn projected_models_under(cnf: &Cnf, vars: &[u32], assumptions: &[Lit]) -> BTreeSet<Vec<bool>> {
    assert!(vars.len() <= 20, "too many projection variables");
    all_vectors(vars.len())
        .filter(|v| {
            let mut fixed: Vec<(u32, bool)> = vars.iter().copied().zip(v.iter().copied()).collect();
            fixed.extend(assumptions.iter().map(|l| (l.var().idx32(), l.is_pos())));
            satisfiable_with(cnf, &fixed)
        })
        .collect()
}

/// The input vectors over `vars` whose assignment satisfies `pred`.
pub fn brute_force(vars: &[u32], pred: impl Fn(&Assignment) -> bool) -> BTreeSet<Vec<bool>> {
    all_vectors(vars.len())
        .filter(|v| pred(&assignment_of(vars, v)))
        .collect()
}

/// Literal lists over the base variables `0..n_base` for the exhaustive
/// suites: all distinct positive, plus lists with repeated and negated
/// literals (given as 1-based signed indices).
pub fn literal_lists() -> Vec<(u32, Vec<Lit>)> {
    let mut out = Vec::new();
    for n in (0..=6u32).chain([9]) {
        out.push((n, (0..n).map(|i| Lit::new(i, false)).collect()));
    }
    let signed: &[&[i32]] = &[
        &[1, 1],
        &[1, -1],
        &[1, 2, -1],
        &[1, 1, 2, 3],
        &[-1, -2, -3],
        &[1, -2, 3, -1, 2],
        &[2, 2, 2, 1],
        &[1, -1, 2, -2, 3],
        &[-1, 2, -3, 4, 1, 1],
    ];
    for s in signed {
        let n = s.iter().map(|i| i.unsigned_abs()).max().unwrap();
        out.push((
            n,
            s.iter()
                .map(|&i| Lit::new(i.unsigned_abs() - 1, i < 0))
                .collect(),
        ));
    }
    out
}

/// Checks the assumption sets an incremental encoder returned, after all
/// of them were encoded into `cnf`: each must give exactly the models of its
/// constraint (`None`: the encoder reported the bound infeasible, so the
/// constraint must have no model).
pub fn assert_assumption_sets<C: Checker + std::fmt::Debug>(
    what: &str,
    cnf: &Cnf,
    vars: &[u32],
    asked: &[(C, Option<Vec<Lit>>)],
) {
    for (c, assumptions) in asked {
        let want = brute_force(vars, |a| c.check(a).is_ok());
        match assumptions {
            Some(assumptions) => {
                let got = projected_models_under(cnf, vars, assumptions);
                assert_eq!(got, want, "{what} incremental {c:?}");
            }
            None => assert!(want.is_empty(), "{what} {c:?} reported infeasible"),
        }
    }
}

/// Unit propagation from the given literals: the resulting partial
/// assignment of every variable, or `None` on a conflict.
pub fn unit_propagate(cnf: &Cnf, fixed: &[Lit]) -> Option<Vec<Option<bool>>> {
    let mut val: Vec<Option<bool>> = vec![None; cnf.n_vars() as usize];
    for &l in fixed {
        match val[l.var().idx()] {
            Some(b) if b != l.is_pos() => return None,
            _ => val[l.var().idx()] = Some(l.is_pos()),
        }
    }
    loop {
        let mut changed = false;
        for c in cnf.clauses() {
            let mut unassigned = None;
            let mut n_unassigned = 0;
            if c.iter().any(|&l| lit_value(&val, l) == Some(true)) {
                continue;
            }
            for &l in c {
                if lit_value(&val, l).is_none() {
                    n_unassigned += 1;
                    unassigned = Some(l);
                }
            }
            match (n_unassigned, unassigned) {
                (0, _) => return None,
                (1, Some(l)) => {
                    val[l.var().idx()] = Some(l.is_pos());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return Some(val);
        }
    }
}

/// Every partial assignment of `vars` (each variable unassigned, false or
/// true): 3^|vars| of them.
pub fn all_partial(n: usize) -> impl Iterator<Item = Vec<Option<bool>>> {
    (0u64..3u64.pow(n as u32)).map(move |mut code| {
        (0..n)
            .map(|_| {
                let d = code % 3;
                code /= 3;
                [None, Some(false), Some(true)][d as usize]
            })
            .collect()
    })
}

/// Does unit propagation on the CNF enforce generalized arc consistency of
/// the constraint `holds` on the input variables? For every partial
/// assignment of the inputs: UP fails iff no completion satisfies the
/// constraint, and otherwise fixes every input the constraint forces.
/// Returns the first counterexample.
pub fn gac_counterexample(
    cnf: &Cnf,
    vars: &[u32],
    holds: impl Fn(&Assignment) -> bool,
) -> Option<Vec<Option<bool>>> {
    let models: Vec<Vec<bool>> = all_vectors(vars.len())
        .filter(|v| holds(&assignment_of(vars, v)))
        .collect();
    for partial in all_partial(vars.len()) {
        let fixed: Vec<Lit> = vars
            .iter()
            .zip(&partial)
            .filter_map(|(&v, &b)| b.map(|b| Lit::new(v, !b)))
            .collect();
        let compatible: Vec<&Vec<bool>> = models
            .iter()
            .filter(|m| {
                partial
                    .iter()
                    .zip(m.iter())
                    .all(|(p, &b)| p.is_none_or(|p| p == b))
            })
            .collect();
        match unit_propagate(cnf, &fixed) {
            None if compatible.is_empty() => {}
            None => return Some(partial),
            Some(_) if compatible.is_empty() => return Some(partial),
            Some(val) => {
                for (i, &v) in vars.iter().enumerate() {
                    let forced = if compatible.iter().all(|m| m[i]) {
                        Some(true)
                    } else if compatible.iter().all(|m| !m[i]) {
                        Some(false)
                    } else {
                        None
                    };
                    if forced.is_some() && val[v as usize] != forced {
                        return Some(partial);
                    }
                }
            }
        }
    }
    None
}
