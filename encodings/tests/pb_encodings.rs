//! The exhaustive pseudo-Boolean suite, instantiated for every encoding: for
//! every literal list of `common::literal_lists` (repeated and negated
//! literals) with several weight patterns and every bound `k ∈ 0..=W+1`,
//! the models projected onto the inputs equal the brute-force models —
//! posted, and incrementally through one `Pb` with assumptions; plus
//! proptest with random weights and bounds.

mod common;

use common::*;
use proptest::prelude::*;
use puzzlesat_encodings::card::Cmp;
use puzzlesat_encodings::pb::{Linear, Pb, PbEncoding};
use puzzlesat_encodings::{Checker, ClauseDatabase, Cnf, Lit};

const PATTERNS: [&[usize]; 4] = [&[1], &[2, 1], &[1, 2, 3], &[5, 3, 2, 7]];

fn weighted(lits: &[Lit], pattern: &[usize]) -> Vec<(Lit, usize)> {
    lits.iter()
        .enumerate()
        .map(|(i, &l)| (l, pattern[i % pattern.len()]))
        .collect()
}

fn base_cnf(n: u32) -> (Cnf, Vec<u32>) {
    let mut cnf = Cnf::new();
    let _ = cnf.fresh_lits(n as usize);
    (cnf, (0..n).collect())
}

fn check_posted(enc: PbEncoding, n: u32, terms: &[(Lit, usize)], cmp: Cmp, k: usize) {
    let c = Linear {
        terms: terms.to_vec(),
        cmp,
        k,
    };
    let (mut cnf, vars) = base_cnf(n);
    let posted = c.post(&mut cnf, enc);
    let got = projected_models(&cnf, &vars);
    // Unsatisfiable only where the constraint has no model
    assert!(posted.is_ok() || got.is_empty(), "{c:?}");
    let want = brute_force(&vars, |a| c.check(a).is_ok());
    assert_eq!(got, want, "{enc} {terms:?} {cmp:?} {k}");
}

fn posted(enc: PbEncoding) {
    for (n, lits) in literal_lists().into_iter().filter(|(n, _)| *n <= 6) {
        for pattern in PATTERNS {
            let terms = weighted(&lits, pattern);
            let total: usize = terms.iter().map(|t| t.1).sum();
            for k in 0..=total + 1 {
                for cmp in [Cmp::Le, Cmp::Ge, Cmp::Eq] {
                    check_posted(enc, n, &terms, cmp, k);
                }
            }
        }
    }
}

fn incremental(enc: PbEncoding) {
    for (n, lits) in literal_lists().into_iter().filter(|(n, _)| *n <= 6) {
        for pattern in PATTERNS {
            let terms = weighted(&lits, pattern);
            let total: usize = terms.iter().map(|t| t.1).sum();
            let (mut cnf, vars) = base_cnf(n);
            let mut pb = Pb::new(enc, &terms);
            // decreasing upper bounds and increasing lower bounds, as the
            // optimisation drivers ask them, interleaved
            let mut asked = Vec::new();
            for i in 0..=total + 1 {
                let ub = total + 1 - i;
                let c = |cmp, k| Linear {
                    terms: terms.clone(),
                    cmp,
                    k,
                };
                asked.push((c(Cmp::Le, ub), pb.at_most(&mut cnf, ub).ok()));
                asked.push((c(Cmp::Ge, i), pb.at_least(&mut cnf, i).ok()));
            }
            assert_assumption_sets(enc.name(), &cnf, &vars, &asked);
        }
    }
}

macro_rules! pb_suite {
    ($($name:ident => $enc:expr),* $(,)?) => {$(
        mod $name {
            use super::*;
            #[test]
            fn posted_matches_brute_force() {
                posted($enc);
            }
            #[test]
            fn incremental_bounds_match_brute_force() {
                incremental($enc);
            }
            proptest! {
                #![proptest_config(ProptestConfig::with_cases(64))]
                #[test]
                fn random_weights_match_brute_force(
                    ws in proptest::collection::vec((0u32..6, any::<bool>(), 1usize..=12), 0..=7),
                    kfrac in 0.0f64..1.2,
                    cmp in prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
                ) {
                    let terms: Vec<(Lit, usize)> = ws.iter().map(|&(v, neg, w)| (Lit::new(v, neg), w)).collect();
                    let total: usize = terms.iter().map(|t| t.1).sum();
                    let k = (kfrac * total as f64) as usize;
                    check_posted($enc, 6, &terms, cmp, k);
                }
            }
        }
    )*};
}

pb_suite! {
    gte => PbEncoding::Gte,
    adder => PbEncoding::Adder,
    dpw => PbEncoding::Dpw,
}
