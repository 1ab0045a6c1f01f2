//! The drivers against brute force on small formulas: optimisation by every
//! strategy and PB encoding finds the brute-force optimum and proves it;
//! enumeration counts exactly the projected models.

use puzzlesat::drive::{enumerate, optimize, Objective, Sense, Strategy};
use puzzlesat::encodings::pb::PbEncoding;
use puzzlesat::encodings::{card, Assignment, ClauseDatabase, Cnf};
use puzzlesat::solver::{Limits, Session, SolverKind};
use rustsat::types::Lit;

/// x0..x5 with: at most 3 true; x0 → ¬x1; x2 ∨ x3.
fn small_formula() -> (Cnf, Vec<Lit>) {
    let mut cnf = Cnf::new();
    let xs = cnf.fresh_lits(6);
    card::at_most(&mut cnf, &xs, 3, card::CardEncoding::Totalizer).unwrap();
    cnf.add(&[!xs[0], !xs[1]]);
    cnf.add(&[xs[2], xs[3]]);
    (cnf, xs)
}

fn satisfies_rules(v: &[bool]) -> bool {
    v.iter().filter(|&&b| b).count() <= 3 && !(v[0] && v[1]) && (v[2] || v[3])
}

fn brute_force_best(weights: &[u64], sense: Sense) -> i64 {
    let vals = (0u32..64).filter_map(|bits| {
        let v: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
        satisfies_rules(&v).then(|| {
            v.iter()
                .zip(weights)
                .filter(|(b, _)| **b)
                .map(|(_, w)| *w as i64)
                .sum::<i64>()
        })
    });
    match sense {
        Sense::Maximize => vals.max().unwrap(),
        Sense::Minimize => vals.min().unwrap(),
    }
}

#[test]
fn optimize_matches_brute_force_for_every_strategy_and_pb_encoding() {
    let weights = [5u64, 7, 1, 2, 3, 4];
    for sense in [Sense::Maximize, Sense::Minimize] {
        let want = brute_force_best(&weights, sense) + 10;
        for strategy in Strategy::ALL {
            for pb in PbEncoding::ALL {
                let (cnf, xs) = small_formula();
                let obj = Objective {
                    sense,
                    terms: xs.iter().copied().zip(weights).collect(),
                    offset: 10,
                };
                let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
                let mut improving = vec![];
                let opt =
                    optimize(&mut s, &obj, pb, strategy, |_, v, _| improving.push(v)).unwrap();
                let (model, v) = opt.best.clone().expect("satisfiable");
                assert_eq!(v, want, "{sense:?} {strategy} {pb}");
                assert!(
                    opt.proven,
                    "{sense:?} {strategy} {pb}: optimality must be proven"
                );
                assert_eq!(opt.bound, want);
                assert_eq!(obj.value(&model), v);
                let vals: Vec<bool> = xs.iter().map(|&l| model.lit(l)).collect();
                assert!(satisfies_rules(&vals));
                // improving values are strictly improving
                assert!(improving.windows(2).all(|w| obj.better(w[1], w[0])));
            }
        }
    }
}

#[test]
fn optimize_reports_infeasible_as_proven_without_solution() {
    let mut cnf = Cnf::new();
    let x = cnf.fresh();
    cnf.add(&[x]);
    cnf.add(&[!x]);
    let obj = Objective {
        sense: Sense::Maximize,
        terms: vec![(x, 1)],
        offset: 0,
    };
    let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
    let opt = optimize(
        &mut s,
        &obj,
        PbEncoding::Gte,
        Strategy::SatUnsat,
        |_, _, _| {},
    )
    .unwrap();
    assert!(opt.best.is_none());
    assert!(opt.proven);
}

#[test]
fn enumerate_counts_projected_models_exactly() {
    let (cnf, xs) = small_formula();
    let want = (0u32..64)
        .filter(|bits| satisfies_rules(&(0..6).map(|i| bits >> i & 1 == 1).collect::<Vec<_>>()))
        .count() as u64;
    let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
    let mut seen = std::collections::HashSet::new();
    let e = enumerate(&mut s, &xs, &[], None, |m: &Assignment| {
        assert!(
            seen.insert(xs.iter().map(|&l| m.lit(l)).collect::<Vec<_>>()),
            "duplicate projection"
        );
        true
    })
    .unwrap();
    assert!(e.complete);
    assert_eq!(e.count, want);
    // under an assumption, and with a limit
    let (cnf, xs) = small_formula();
    let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
    let e = enumerate(&mut s, &xs, &[xs[0]], Some(2), |m| m.lit(xs[0])).unwrap();
    assert_eq!(e.count, 2);
    assert!(!e.complete, "stopped by the limit: not complete");
}

#[test]
fn an_expired_limit_answers_unknown() {
    let (cnf, _) = small_formula();
    let limits = Limits::default();
    limits
        .interrupt
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let mut s = Session::new(&SolverKind::default(), &cnf, limits).unwrap();
    assert_eq!(s.solve(&[]).unwrap(), puzzlesat::solver::Outcome::Unknown);
}

/// Issue 14: BatSat enumerates inside one search and forgets its set of
/// seen projections when a lazy constraint ends the call (the driver adds
/// the cut and calls again). A model blocked in an earlier call must stay
/// blocked, never shown and counted again. 16 variables, 20 random
/// clauses of 3 literals (thousands of models), and 7 lazy cuts each ending
/// a call: the count equals brute force and no projection is shown twice.
#[test]
fn lazy_cuts_ending_in_search_enumeration_never_count_a_model_twice() {
    use puzzlesat::drive::enumerate::enumerate_lazy;
    const N: usize = 16;
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let clauses: Vec<Vec<(usize, bool)>> = (0..20)
        .map(|_| (0..3).map(|_| (next() % N, next() % 2 == 0)).collect())
        .collect();
    // the lazy constraint j (even, up to 12): not all of x_j, x_{j+1}, x_{j+2}
    let cut_hit = |v: &[bool], j: usize| j % 2 == 0 && v[j] && v[j + 1] && v[j + 2];
    let want = (0u32..1 << N)
        .filter(|bits| {
            let v: Vec<bool> = (0..N).map(|i| bits >> i & 1 == 1).collect();
            clauses.iter().all(|c| c.iter().any(|&(i, s)| v[i] == s))
                && (0..N - 2).all(|j| !cut_hit(&v, j))
        })
        .count() as u64;
    let mut cnf = Cnf::new();
    let xs = cnf.fresh_lits(N);
    for c in &clauses {
        let lits: Vec<Lit> = c
            .iter()
            .map(|&(i, s)| if s { xs[i] } else { !xs[i] })
            .collect();
        cnf.add(&lits);
    }
    let mut s = Session::new(&SolverKind::default(), &cnf, Limits::default()).unwrap();
    let (mut seen, mut calls_ended) = (std::collections::HashSet::new(), 0);
    let mut shown_twice = 0;
    let e = enumerate_lazy(
        &mut s,
        &xs,
        &[],
        None,
        |m: &Assignment, db: &mut Cnf| {
            let v: Vec<bool> = xs.iter().map(|&l| m.lit(l)).collect();
            match (0..N - 2).find(|&j| cut_hit(&v, j)) {
                Some(j) => {
                    db.add(&[!xs[j], !xs[j + 1], !xs[j + 2]]);
                    calls_ended += 1;
                    true
                }
                None => false,
            }
        },
        |m: &Assignment| {
            if !seen.insert(xs.iter().map(|&l| m.lit(l)).collect::<Vec<_>>()) {
                shown_twice += 1;
            }
            true
        },
    )
    .unwrap();
    assert!(want > 1000, "{want} models: too few to exercise the search");
    assert_eq!(calls_ended, 7, "each lazy cut ends one call");
    assert_eq!(shown_twice, 0, "projections shown again after a lazy cut");
    assert!(e.complete);
    assert_eq!((e.count, seen.len() as u64), (want, want));
}
