//! Brute-force tests of the integer encodings: order-encoded variables and
//! their arithmetic (`plus`, `sum`, `max`), and log-encoded variables
//! (domain, comparisons with constants, direct literals, adders, channelling
//! to the order encoding). For each, the models of the CNF projected onto the
//! variables' own literals are decoded and compared with the set of value
//! tuples the definition allows — and no two models decode to one tuple.
//! All-different is checked the same way, under every encoding.

mod common;

use std::collections::BTreeSet;

use common::*;
use puzzlesat_encodings::alldiff::{all_different, AllDiffEncoding, AllDifferent};
use puzzlesat_encodings::amo::AmoEncoding;
use puzzlesat_encodings::bool::Reify;
use puzzlesat_encodings::int::{self, Directions, EqInt, IntVar, LogInt};
use puzzlesat_encodings::{Assignment, Checker, ClauseDatabase, Cnf, Lit, Unsatisfiable};

fn vars_of(lits: &[Lit]) -> Vec<u32> {
    lits.iter().map(|l| l.var().idx32()).collect()
}

/// Decodes every projected model with `decode`; asserts the decoding is
/// one-to-one and returns the decoded tuples.
fn decoded(
    cnf: &Cnf,
    vars: &[u32],
    decode: impl Fn(&Assignment) -> Vec<i64>,
) -> BTreeSet<Vec<i64>> {
    let models = projected_models(cnf, vars);
    let tuples: BTreeSet<Vec<i64>> = models
        .iter()
        .map(|m| decode(&assignment_of(vars, m)))
        .collect();
    assert_eq!(
        models.len(),
        tuples.len(),
        "two models decode to the same values"
    );
    tuples
}

fn order_vars(xs: &[&IntVar]) -> Vec<u32> {
    xs.iter().flat_map(|x| vars_of(x.order_lits())).collect()
}

/// Every tuple of values of the domains `[lᵢ, uᵢ]`.
fn tuples(doms: &[(i64, i64)]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for &(l, u) in doms {
        out = out
            .into_iter()
            .flat_map(|t: Vec<i64>| (l..=u).map(move |v| [t.clone(), vec![v]].concat()))
            .collect();
    }
    out
}

fn domain(x: (i64, i64)) -> impl Iterator<Item = i64> + Clone {
    x.0..=x.1
}

#[test]
fn order_plus_matches_brute_force() {
    for (dx, dy) in [
        ((0, 0), (0, 2)),
        ((-1, 2), (0, 3)),
        ((2, 4), (-3, -1)),
        ((0, 1), (0, 1)),
    ] {
        let mut cnf = Cnf::new();
        let x = IntVar::new(&mut cnf, dx.0, dx.1).unwrap();
        let y = IntVar::new(&mut cnf, dy.0, dy.1).unwrap();
        let z = int::plus(&mut cnf, &x, &y);
        assert_eq!((z.lb(), z.ub()), (dx.0 + dy.0, dx.1 + dy.1));
        let got = decoded(&cnf, &order_vars(&[&x, &y, &z]), |a| {
            vec![x.value(a), y.value(a), z.value(a)]
        });
        let want: BTreeSet<Vec<i64>> = domain(dx)
            .flat_map(|a| domain(dy).map(move |b| vec![a, b, a + b]))
            .collect();
        assert_eq!(got, want, "{dx:?} + {dy:?}");
    }
}

#[test]
fn order_sum_and_max_match_brute_force() {
    let doms = [(0, 2), (-1, 1), (1, 2), (0, 1)];
    for n in 0..=doms.len() {
        let mut cnf = Cnf::new();
        let xs: Vec<IntVar> = doms[..n]
            .iter()
            .map(|&(l, u)| IntVar::new(&mut cnf, l, u).unwrap())
            .collect();
        let refs: Vec<&IntVar> = xs.iter().collect();
        let s = int::sum(&mut cnf, &refs);
        let m = (n > 0).then(|| int::max(&mut cnf, &refs).unwrap());
        let mut all = refs.clone();
        all.push(&s);
        if let Some(m) = &m {
            all.push(m);
        }
        // projected onto inputs and results: one model per input tuple, so
        // the results are functionally determined
        let got = decoded(&cnf, &order_vars(&all), |a| {
            let mut v: Vec<i64> = refs.iter().map(|x| x.value(a)).collect();
            v.push(s.value(a));
            if let Some(m) = &m {
                v.push(m.value(a));
            }
            v
        });
        // every tuple of the inputs, with its sum and max determined
        let want: BTreeSet<Vec<i64>> = tuples(&doms[..n])
            .into_iter()
            .map(|mut t| {
                let sum = t.iter().sum();
                let max = t.iter().max().copied();
                t.push(sum);
                t.extend(max);
                t
            })
            .collect();
        assert_eq!(got, want, "n = {n}");
    }
}

#[test]
fn order_direct_literals_channel_every_value() {
    let mut cnf = Cnf::new();
    let mut x = IntVar::new(&mut cnf, -2, 2).unwrap();
    let eqs: Vec<Lit> = (-3..=3).map(|v| x.eq(&mut cnf, v)).collect();
    // each direct literal is true exactly when the value matches
    for (i, v) in (-3..=3).enumerate() {
        let mut c = cnf.clone();
        c.unit(eqs[i]);
        let got = decoded(&c, &order_vars(&[&x]), |a| vec![x.value(a)]);
        let want: BTreeSet<Vec<i64>> = if (-2..=2).contains(&v) {
            BTreeSet::from([vec![v]])
        } else {
            BTreeSet::new()
        };
        assert_eq!(got, want, "x = {v}");
    }
}

#[test]
fn order_bounds_and_reified_equality() {
    let mut cnf = Cnf::new();
    let x = IntVar::new(&mut cnf, 0, 4).unwrap();
    let y = IntVar::new(&mut cnf, 2, 5).unwrap();
    x.post_ge(&mut cnf, 1);
    y.post_le(&mut cnf, 3);
    let r = EqInt(&x, &y).reified(&mut cnf);
    let mut vars = order_vars(&[&x, &y]);
    vars.push(r.var().idx32());
    let got = decoded(&cnf, &vars, |a| {
        vec![x.value(a), y.value(a), a.lit(r) as i64]
    });
    let want: BTreeSet<Vec<i64>> = (1..=4)
        .flat_map(|a| (2..=3).map(move |b| vec![a, b, (a == b) as i64]))
        .collect();
    assert_eq!(got, want);
    // the checker agrees on every model
    for m in projected_models(&cnf, &vars) {
        let a = assignment_of(&vars, &m);
        assert_eq!(EqInt(&x, &y).check(&a).is_ok(), a.lit(r));
    }
}

#[test]
fn log_domain_and_constant_comparisons() {
    for (lb, ub) in [(0, 0), (0, 1), (3, 7), (-2, 3), (5, 10), (0, 8)] {
        let mut cnf = Cnf::new();
        let x = LogInt::new(&mut cnf, lb, ub).unwrap();
        let bits = vars_of(x.bits());
        let got = decoded(&cnf, &bits, |a| vec![x.value(a)]);
        assert_eq!(got, (lb..=ub).map(|v| vec![v]).collect(), "[{lb}, {ub}]");
        for c in lb - 2..=ub + 2 {
            for ge in [false, true] {
                let mut cnf2 = cnf.clone();
                let cmp = if ge { x.ge_const(c) } else { x.le_const(c) };
                let r = cmp.reified(&mut cnf2);
                let mut vars = bits.clone();
                vars.push(r.var().idx32());
                let got = decoded(&cnf2, &vars, |a| vec![x.value(a), a.lit(r) as i64]);
                let want: BTreeSet<Vec<i64>> = (lb..=ub)
                    .map(|v| vec![v, if ge { v >= c } else { v <= c } as i64])
                    .collect();
                assert_eq!(got, want, "[{lb}, {ub}] ge={ge} c={c}");
                for m in projected_models(&cnf2, &vars) {
                    let a = assignment_of(&vars, &m);
                    assert_eq!(cmp.check(&a).is_ok(), a.lit(r));
                }
            }
        }
    }
}

#[test]
fn log_direct_literals_and_channelling() {
    let mut cnf = Cnf::new();
    let mut x = LogInt::new(&mut cnf, -1, 4).unwrap();
    let eqs: Vec<(i64, Lit)> = (-2..=5).map(|v| (v, x.eq(&mut cnf, v))).collect();
    assert_eq!(x.eq(&mut cnf, 2), eqs[4].1, "cached");
    let y = x.to_order(&mut cnf);
    let mut vars = vars_of(x.bits());
    vars.extend(order_vars(&[&y]));
    let got = decoded(&cnf, &vars, |a| vec![x.value(a), y.value(a)]);
    assert_eq!(got, (-1..=4).map(|v| vec![v, v]).collect());
    for &(v, l) in &eqs {
        let mut c = cnf.clone();
        c.unit(l);
        let got = decoded(&c, &vars, |a| vec![x.value(a)]);
        let want: BTreeSet<Vec<i64>> = if (-1..=4).contains(&v) {
            BTreeSet::from([vec![v]])
        } else {
            BTreeSet::new()
        };
        assert_eq!(got, want, "[x = {v}]");
    }
}

#[test]
fn log_adders_match_brute_force() {
    let doms = [(0, 3), (-1, 1), (2, 6)];
    for n in 1..=doms.len() {
        let mut cnf = Cnf::new();
        let xs: Vec<LogInt> = doms[..n]
            .iter()
            .map(|&(l, u)| LogInt::new(&mut cnf, l, u).unwrap())
            .collect();
        let refs: Vec<&LogInt> = xs.iter().collect();
        let s = LogInt::sum(&mut cnf, &refs);
        let lo: i64 = doms[..n].iter().map(|d| d.0).sum();
        let hi: i64 = doms[..n].iter().map(|d| d.1).sum();
        assert_eq!((s.lb(), s.ub()), (lo, hi));
        // inputs and the sum's bits (deduplicated: a one-term sum is the term)
        let vars: BTreeSet<u32> = refs
            .iter()
            .flat_map(|x| vars_of(x.bits()))
            .chain(vars_of(s.bits()))
            .collect();
        let vars: Vec<u32> = vars.into_iter().collect();
        let got = decoded(&cnf, &vars, |a| {
            let mut v: Vec<i64> = refs.iter().map(|x| x.value(a)).collect();
            v.push(s.value(a));
            v
        });
        let want: BTreeSet<Vec<i64>> = tuples(&doms[..n])
            .into_iter()
            .map(|mut t| {
                t.push(t.iter().sum());
                t
            })
            .collect();
        assert_eq!(got, want, "n = {n}");
    }
}

#[test]
fn order_plus_in_restricts_the_sum() {
    let (dx, dy) = ((0, 3), (1, 4));
    for (lo, hi) in [(-5, 20), (2, 5), (4, 4), (0, 1), (7, 7), (8, 9), (5, 3)] {
        let mut cnf = Cnf::new();
        let x = IntVar::new(&mut cnf, dx.0, dx.1).unwrap();
        let y = IntVar::new(&mut cnf, dy.0, dy.1).unwrap();
        let Ok(z) = int::plus_in(&mut cnf, &x, &y, lo, hi) else {
            assert!(lo > hi.min(dx.1 + dy.1) || hi < dx.0 + dy.0, "[{lo}, {hi}]");
            assert!(projected_models(&cnf, &order_vars(&[&x, &y])).is_empty());
            continue;
        };
        let got = decoded(&cnf, &order_vars(&[&x, &y, &z]), |a| {
            vec![x.value(a), y.value(a), z.value(a)]
        });
        let want: BTreeSet<Vec<i64>> = tuples(&[dx, dy])
            .into_iter()
            .filter(|t| (lo..=hi).contains(&(t[0] + t[1])))
            .map(|t| vec![t[0], t[1], t[0] + t[1]])
            .collect();
        assert_eq!(got, want, "[{lo}, {hi}]");
    }
}

#[test]
fn order_sum_capped_in_every_direction() {
    let doms = [(0, 2), (0, 1), (1, 2), (0, 2)];
    for cap in 0..=8 {
        for dirs in [Directions::BOTH, Directions::UP, Directions::DOWN] {
            let mut cnf = Cnf::new();
            let xs: Vec<IntVar> = doms
                .iter()
                .map(|&(l, u)| IntVar::new(&mut cnf, l, u).unwrap())
                .collect();
            let refs: Vec<&IntVar> = xs.iter().collect();
            let z = int::sum_capped(&mut cnf, &refs, cap, dirs);
            let (zlo, zhi) = (1.min(cap), 7.min(cap));
            assert_eq!((z.lb(), z.ub()), (zlo, zhi), "cap {cap}");
            let mut all = refs.clone();
            all.push(&z);
            let got = decoded(&cnf, &order_vars(&all), |a| {
                all.iter().map(|x| x.value(a)).collect()
            });
            let want: BTreeSet<Vec<i64>> = tuples(&doms)
                .into_iter()
                .flat_map(|t| {
                    let capped = t.iter().sum::<i64>().min(cap);
                    (zlo..=zhi)
                        .filter(move |&v| match (dirs.up, dirs.down) {
                            (true, true) => v == capped,
                            (true, false) => v >= capped,
                            _ => v <= capped,
                        })
                        .map(move |v| [t.clone(), vec![v]].concat())
                })
                .collect();
            assert_eq!(got, want, "cap {cap} {dirs:?}");
        }
    }
}

#[test]
fn empty_domains_are_unsatisfiable_not_panics() {
    let mut cnf = Cnf::new();
    assert_eq!(IntVar::new(&mut cnf, 3, 2).err(), Some(Unsatisfiable));
    assert_eq!(LogInt::new(&mut cnf, 0, -1).err(), Some(Unsatisfiable));
    assert_eq!(int::max(&mut cnf, &[]).err(), Some(Unsatisfiable));
    assert!(
        projected_models(&cnf, &[]).is_empty(),
        "the empty clause was posted"
    );
}

#[test]
fn all_different_matches_brute_force() {
    let cases: [&[(i64, i64)]; 8] = [
        &[],
        &[(0, 0)],
        &[(0, 1), (0, 1)],
        &[(1, 3), (1, 3), (1, 3)],
        &[(0, 2), (1, 2), (0, 1)],
        &[(0, 3), (2, 2), (1, 2)],
        &[(-1, 1), (0, 3), (1, 1), (0, 0)],
        &[(0, 1), (0, 1), (0, 1)], // pigeonhole
    ];
    for doms in cases {
        for enc in AllDiffEncoding::ALL {
            for amo in AmoEncoding::ALL {
                let mut cnf = Cnf::new();
                let mut xs: Vec<IntVar> = doms
                    .iter()
                    .map(|&(l, u)| IntVar::new(&mut cnf, l, u).unwrap())
                    .collect();
                let posted = all_different(&mut cnf, &mut xs, enc, amo);
                let refs: Vec<&IntVar> = xs.iter().collect();
                let got = decoded(&cnf, &order_vars(&refs), |a| {
                    assert!(AllDifferent(&xs).check(a).is_ok(), "{doms:?} {enc} {amo}");
                    refs.iter().map(|x| x.value(a)).collect()
                });
                let want: BTreeSet<Vec<i64>> = tuples(doms)
                    .into_iter()
                    .filter(|t| t.iter().collect::<BTreeSet<_>>().len() == t.len())
                    .collect();
                assert_eq!(got, want, "{doms:?} {enc} {amo}");
                let values: BTreeSet<i64> = doms.iter().flat_map(|&(l, u)| l..=u).collect();
                assert_eq!(posted.is_err(), values.len() < doms.len(), "{doms:?} {enc}");
            }
        }
    }
}
