//! Propagation strength: for the encodings the literature proves
//! arc-consistent, check that unit propagation on the CNF enforces
//! generalized arc consistency on the inputs, over every partial assignment
//! of small inputs (3ⁿ of them): UP fails exactly on inconsistent partial
//! assignments and otherwise fixes every forced input.

mod common;

use common::*;
use puzzlesat_encodings::amo::{AmoEncoding, AtMostOne};
use puzzlesat_encodings::card::{CardEncoding, Cardinality, Cmp};
use puzzlesat_encodings::lex::LexLe;
use puzzlesat_encodings::{bool::Reify, Checker, ClauseDatabase, Cnf, Lit};

fn base(n: u32) -> (Cnf, Vec<Lit>, Vec<u32>) {
    let mut cnf = Cnf::new();
    let xs = cnf.fresh_lits(n as usize);
    (cnf, xs, (0..n).collect())
}

#[test]
fn lex_is_arc_consistent_under_unit_propagation() {
    for n in 1..=4u32 {
        for strict in [false, true] {
            let (mut cnf, xs, vars) = base(2 * n);
            let c = LexLe {
                xs: xs[..n as usize].to_vec(),
                ys: xs[n as usize..].to_vec(),
                strict,
            };
            c.post(&mut cnf);
            let cex = gac_counterexample(&cnf, &vars, |a| c.check(a).is_ok());
            assert_eq!(cex, None, "{c:?}");
        }
    }
}

#[test]
fn amo_encodings_are_arc_consistent_under_unit_propagation() {
    for enc in AmoEncoding::ALL {
        for n in 0..=6u32 {
            for exactly in [false, true] {
                let (mut cnf, xs, vars) = base(n);
                let c = AtMostOne { lits: xs, exactly };
                let _ = c.post(&mut cnf, enc); // an Err posts the empty clause, which the models show
                let cex = gac_counterexample(&cnf, &vars, |a| c.check(a).is_ok());
                assert_eq!(cex, None, "{enc} n={n} exactly={exactly}");
            }
        }
    }
}

#[test]
fn card_encodings_are_arc_consistent_under_unit_propagation() {
    for enc in CardEncoding::ALL {
        for n in 0..=6u32 {
            for k in 0..=n as usize + 1 {
                for cmp in [Cmp::Le, Cmp::Ge, Cmp::Eq] {
                    let (mut cnf, xs, vars) = base(n);
                    let c = Cardinality { lits: xs, cmp, k };
                    let posted = c.post(&mut cnf, enc);
                    assert_eq!(
                        posted.is_err(),
                        k > n as usize && cmp != Cmp::Le,
                        "{enc} n={n} {cmp:?} {k}"
                    );
                    let cex = gac_counterexample(&cnf, &vars, |a| c.check(a).is_ok());
                    assert_eq!(cex, None, "{enc} n={n} {cmp:?} {k}");
                }
            }
        }
    }
}

/// Which PB encodings propagate to arc consistency on small instances (a
/// few weight patterns, every bound): a measured fact, printed with
/// `--nocapture`. The binary adder is known not to (Eén & Sörensson 2006),
/// which also shows that this checker can fail.
#[test]
fn pb_arc_consistency_by_encoding() {
    use puzzlesat_encodings::pb::{Linear, PbEncoding};
    let patterns: [&[usize]; 3] = [&[1, 1, 2, 3], &[2, 3, 4, 5], &[1, 2, 4, 7, 3]];
    let mut gac = std::collections::BTreeMap::new();
    for enc in PbEncoding::ALL {
        let mut all = true;
        for ws in patterns {
            let total: usize = ws.iter().sum();
            for k in 0..=total {
                for cmp in [Cmp::Le, Cmp::Ge] {
                    let (mut cnf, xs, vars) = base(ws.len() as u32);
                    let c = Linear {
                        terms: xs.into_iter().zip(ws.iter().copied()).collect(),
                        cmp,
                        k,
                    };
                    let _ = c.post(&mut cnf, enc); // an Err posts the empty clause, which the models show
                    all &= gac_counterexample(&cnf, &vars, |a| c.check(a).is_ok()).is_none();
                }
            }
        }
        println!("{enc}: arc-consistent under UP on all samples: {all}");
        gac.insert(enc.name(), all);
    }
    // measured: the generalized totalizer propagates fully on these samples,
    // the adder and the watchdog (with RustSAT's coarse bounds) do not
    assert_eq!(
        gac,
        [("adder", false), ("dpw", false), ("gte", true)]
            .into_iter()
            .collect()
    );
}
