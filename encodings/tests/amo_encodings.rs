//! The exhaustive at-most-one / exactly-one suite, instantiated for every
//! encoding: for every literal list of `common::literal_lists` (empty, n ≤ 6
//! and 9, repeated and negated literals) the models projected onto the
//! inputs equal the brute-force models of the constraint.

mod common;

use common::*;
use puzzlesat_encodings::amo::{AmoEncoding, AtMostOne};
use puzzlesat_encodings::{Checker, ClauseDatabase, Cnf};

fn suite(enc: AmoEncoding) {
    for (n, lits) in literal_lists() {
        for exactly in [false, true] {
            let c = AtMostOne {
                lits: lits.clone(),
                exactly,
            };
            let mut cnf = Cnf::new();
            let _ = cnf.fresh_lits(n as usize);
            let _ = c.post(&mut cnf, enc); // an Err posts the empty clause, which the models show
            let vars: Vec<u32> = (0..n).collect();
            let got = projected_models(&cnf, &vars);
            let want = brute_force(&vars, |a| c.check(a).is_ok());
            assert_eq!(got, want, "{enc} {lits:?} exactly={exactly}");
        }
    }
}

macro_rules! amo_suite {
    ($($name:ident => $enc:expr),* $(,)?) => {$(
        #[test]
        fn $name() {
            suite($enc);
        }
    )*};
}

amo_suite! {
    pairwise => AmoEncoding::Pairwise,
    ladder => AmoEncoding::Ladder,
    commander => AmoEncoding::Commander,
    bimander => AmoEncoding::Bimander,
    bitwise => AmoEncoding::Bitwise,
}

#[test]
fn every_encoding_is_in_the_suite() {
    assert_eq!(AmoEncoding::ALL.len(), 5);
    for e in AmoEncoding::ALL {
        assert_eq!(e.name().parse::<AmoEncoding>(), Ok(e));
    }
}
