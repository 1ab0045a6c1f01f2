//! Clause and variable counts, asserted: closed forms where the encoding has
//! one, the measured numbers of docs/encodings.md otherwise (a change in an
//! encoder's size must be deliberate).

use puzzlesat_encodings::amo::{self, AmoEncoding};
use puzzlesat_encodings::card::{Card, CardEncoding};
use puzzlesat_encodings::db::Counts;
use puzzlesat_encodings::{lex, ClauseDatabase, Cnf, Lit};

/// What `f` adds to a CNF holding `n` fresh inputs.
fn added(n: usize, f: impl FnOnce(&mut Cnf, &[Lit])) -> (u32, usize) {
    let mut cnf = Cnf::new();
    let xs = cnf.fresh_lits(n);
    let before: Counts = cnf.counts();
    f(&mut cnf, &xs);
    let after = cnf.counts();
    (after.vars - before.vars, after.clauses - before.clauses)
}

#[test]
fn pairwise_amo_is_n_choose_2() {
    for n in 0..20 {
        assert_eq!(
            added(n, |db, xs| amo::at_most_one(db, xs, AmoEncoding::Pairwise)),
            (0, n * n.saturating_sub(1) / 2)
        );
    }
}

#[test]
fn lex_is_3n_clauses_and_n_minus_1_variables() {
    for n in 1..30usize {
        let le = added(2 * n, |db, xs| {
            lex::lex_le(db, &xs[..n], &xs[n..]);
        });
        assert_eq!(le, (n as u32 - 1, 3 * (n - 1) + 1), "≤lex n={n}");
        let lt = added(2 * n, |db, xs| {
            lex::lex_lt(db, &xs[..n], &xs[n..]);
        });
        assert_eq!(lt, (n as u32, 3 * n + 1), "<lex n={n}");
    }
}

#[test]
fn sequential_counter_at_most_k_size() {
    // registers s(i, j), 1 ≤ i < n, j ≤ min(i+1, k+1); two upward clauses per
    // register minus the missing s(i−1, j) for j = i+1; one unit (the bound)
    for n in 2..40usize {
        for k in 0..n {
            let vars: usize = (1..n).map(|i| (i + 1).min(k + 1)).sum();
            let clauses: usize = vars + (1..n).map(|i| i.min(k + 1)).sum::<usize>() + 1;
            let got = added(n, |db, xs| {
                let units = Card::new(CardEncoding::SeqCounter, xs).at_most(db, k);
                db.post_units(units).unwrap();
            });
            assert_eq!(got, (vars as u32, clauses), "n={n} k={k}");
        }
    }
}

#[test]
fn measured_sizes_of_the_docs_table() {
    let card = |enc, k| {
        added(50, |db, xs| {
            let units = Card::new(enc, xs).at_most(db, k);
            db.post_units(units).unwrap();
        })
    };
    assert_eq!(card(CardEncoding::Totalizer, 10), (203, 633));
    assert_eq!(card(CardEncoding::SeqCounter, 10), (494, 979));
    assert_eq!(card(CardEncoding::CardNetwork, 10), (503, 770));
    assert_eq!(
        added(50, |db, xs| amo::at_most_one(db, xs, AmoEncoding::Ladder)),
        (49, 146)
    );
}
