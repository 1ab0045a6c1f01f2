//! The test helper every suite relies on — the little DPLL of
//! `common::satisfiable_with` — checked against brute force over all
//! variables on random small CNFs (with fixed literals), so the reference
//! of the exhaustive suites is itself tested.

mod common;

use common::*;
use proptest::prelude::*;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Lit};

fn brute_force_sat(cnf: &Cnf, fixed: &[(u32, bool)]) -> bool {
    all_vectors(cnf.n_vars() as usize).any(|v| {
        fixed.iter().all(|&(x, b)| v[x as usize] == b)
            && Assignment::from_values(v).satisfies(cnf.clauses())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn dpll_agrees_with_brute_force(
        clauses in proptest::collection::vec(proptest::collection::vec((0u32..8, any::<bool>()), 0..4), 0..30),
        fixed in proptest::collection::vec((0u32..8, any::<bool>()), 0..3),
    ) {
        let mut cnf = Cnf::new();
        let _ = cnf.fresh_lits(8);
        for c in &clauses {
            let lits: Vec<Lit> = c.iter().map(|&(v, neg)| Lit::new(v, neg)).collect();
            cnf.add(&lits);
        }
        prop_assert_eq!(satisfiable_with(&cnf, &fixed), brute_force_sat(&cnf, &fixed));
    }
}
