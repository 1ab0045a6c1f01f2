//! The exhaustive cardinality suite, instantiated for every encoding: for
//! every literal list of `common::literal_lists` (n ≤ 6, repeated and
//! negated literals) and every bound `k ∈ 0..=n+1`, the models of the
//! encoding projected onto the inputs equal the brute-force models of
//! `Σ cmp k` — posted permanently, and incrementally through one `Card` with
//! bounds given as assumptions.

mod common;

use common::*;
use puzzlesat_encodings::card::{self, Card, CardEncoding, Cardinality, Cmp};
use puzzlesat_encodings::{Assignment, Checker, ClauseDatabase, Cnf, Lit};

fn base_cnf(n: u32) -> (Cnf, Vec<u32>) {
    let mut cnf = Cnf::new();
    let _ = cnf.fresh_lits(n as usize);
    (cnf, (0..n).collect())
}

fn posted(enc: CardEncoding) {
    for (n, lits) in literal_lists() {
        for k in 0..=lits.len() + 1 {
            for cmp in [Cmp::Le, Cmp::Ge, Cmp::Eq] {
                let c = Cardinality {
                    lits: lits.clone(),
                    cmp,
                    k,
                };
                let (mut cnf, vars) = base_cnf(n);
                let posted = c.post(&mut cnf, enc);
                let got = projected_models(&cnf, &vars);
                // Unsatisfiable only where the constraint has no model
                assert!(posted.is_ok() || got.is_empty(), "{c:?}");
                let want = brute_force(&vars, |a| c.check(a).is_ok());
                assert_eq!(got, want, "{enc} {lits:?} {cmp:?} {k}");
            }
        }
    }
}

fn incremental(enc: CardEncoding) {
    for (n, lits) in literal_lists() {
        let (mut cnf, vars) = base_cnf(n);
        let mut counter = Card::new(enc, &lits);
        // bounds asked in a scrambled order, all on one encoding
        let mut ks: Vec<usize> = (0..=lits.len() + 1).collect();
        ks.sort_by_key(|&k| (k * 7 + 3) % (lits.len() + 2));
        let mut asked = Vec::new();
        for &k in &ks {
            let c = |cmp| Cardinality {
                lits: lits.clone(),
                cmp,
                k,
            };
            asked.push((c(Cmp::Le), counter.at_most(&mut cnf, k).ok()));
            asked.push((c(Cmp::Ge), counter.at_least(&mut cnf, k).ok()));
        }
        // every assumption set still means its bound after all were encoded
        assert_assumption_sets(enc.name(), &cnf, &vars, &asked);
        // no bound asked: the encoding alone excludes nothing
        assert_eq!(
            projected_models(&cnf, &vars).len(),
            1 << n,
            "{enc} {lits:?}"
        );
    }
}

/// Checker sanity: the checker counts occurrences.
#[test]
fn checker_counts_occurrences() {
    let x = Lit::new(0, false);
    let c = Cardinality {
        lits: vec![x, x, !x],
        cmp: Cmp::Eq,
        k: 2,
    };
    assert!(c.check(&Assignment::from_values(vec![true])).is_ok());
    assert!(c.check(&Assignment::from_values(vec![false])).is_err());
}

/// The helpers themselves: `card::exactly` on 3 of 5 has C(5,3) models.
#[test]
fn exactly_three_of_five_has_ten_models() {
    for enc in CardEncoding::ALL {
        let (mut cnf, vars) = base_cnf(5);
        let lits: Vec<Lit> = (0..5).map(|i| Lit::new(i, false)).collect();
        card::exactly(&mut cnf, &lits, 3, enc).unwrap();
        assert_eq!(projected_models(&cnf, &vars).len(), 10, "{enc}");
    }
}

macro_rules! card_suite {
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
        }
    )*};
}

card_suite! {
    totalizer => CardEncoding::Totalizer,
    seq_counter => CardEncoding::SeqCounter,
    card_network => CardEncoding::CardNetwork,
}
