//! Prints the size (variables, clauses, literals) of every encoder on sample
//! sizes, as a Markdown table for docs/encodings.md:
//!
//! ```sh
//! cargo run -p puzzlesat-encodings --release --example counts
//! ```
//!
//! Variables count only those the encoder adds (inputs excluded).

use puzzlesat_encodings::alldiff::{all_different, AllDiffEncoding};
use puzzlesat_encodings::amo::{self, AmoEncoding};
use puzzlesat_encodings::card::{Card, CardEncoding};
use puzzlesat_encodings::db::Counts;
use puzzlesat_encodings::int::{self, IntVar, LogInt};
use puzzlesat_encodings::lex;
use puzzlesat_encodings::pb::{Pb, PbEncoding};
use puzzlesat_encodings::perm::{self, Perm};
use puzzlesat_encodings::{ClauseDatabase, Cnf};

fn row(what: &str, enc: &str, before: Counts, after: Counts) {
    println!(
        "| {what} | {enc} | {} | {} | {} |",
        after.vars - before.vars,
        after.clauses - before.clauses,
        after.literals - before.literals
    );
}

/// Runs `f` on a CNF with `n` input literals and prints what it added.
fn measure(what: &str, enc: &str, n: usize, f: impl FnOnce(&mut Cnf, &[puzzlesat_encodings::Lit])) {
    let mut cnf = Cnf::new();
    let xs = cnf.fresh_lits(n);
    let before = cnf.counts();
    f(&mut cnf, &xs);
    row(what, enc, before, cnf.counts());
}

fn main() {
    println!("| constraint | encoding | vars | clauses | literals |");
    println!("| --- | --- | ---: | ---: | ---: |");
    for enc in AmoEncoding::ALL {
        measure("at most one of 50", enc.name(), 50, |db, xs| {
            amo::at_most_one(db, xs, enc)
        });
    }
    for enc in CardEncoding::ALL {
        measure("Σ of 50 ≤ 10", enc.name(), 50, |db, xs| {
            let units = Card::new(enc, xs).at_most(db, 10);
            db.post_units(units).unwrap();
        });
    }
    for enc in CardEncoding::ALL {
        measure("Σ of 50 ≥ 10", enc.name(), 50, |db, xs| {
            let units = Card::new(enc, xs).at_least(db, 10);
            db.post_units(units).unwrap();
        });
    }
    for enc in CardEncoding::ALL {
        measure("Σ of 50 = 10", enc.name(), 50, |db, xs| {
            let mut c = Card::new(enc, xs);
            let ub = c.at_most(db, 10);
            db.post_units(ub).unwrap();
            let lb = c.at_least(db, 10);
            db.post_units(lb).unwrap();
        });
    }
    // weights 1..=10 cycling, bound a third of the total
    let weights: Vec<usize> = (0..30).map(|i| 1 + i % 10).collect();
    let total: usize = weights.iter().sum();
    for enc in PbEncoding::ALL {
        measure(
            &format!("Σ wᵢxᵢ ≤ {} (30 terms, w 1..10)", total / 3),
            enc.name(),
            30,
            |db, xs| {
                let terms: Vec<_> = xs.iter().copied().zip(weights.iter().copied()).collect();
                let units = Pb::new(enc, &terms).at_most(db, total / 3);
                db.post_units(units).unwrap();
            },
        );
    }
    measure("x ≤lex y, 2 × 50", "linear", 100, |db, xs| {
        lex::lex_le(db, &xs[..50], &xs[50..]);
    });
    measure("x <lex y, 2 × 50", "linear", 100, |db, xs| {
        lex::lex_lt(db, &xs[..50], &xs[50..]);
    });
    // lex-leader of the 8 symmetries of a 5×5 board of Booleans
    let cell = |r: u32, c: u32| r * 5 + c;
    let rot: Vec<u32> = (0..25).map(|i| cell(i % 5, 4 - i / 5)).collect();
    let flip: Vec<u32> = (0..25).map(|i| cell(i / 5, 4 - i % 5)).collect();
    let group = perm::closure(
        &[
            Perm::from_images(rot).unwrap(),
            Perm::from_images(flip).unwrap(),
        ],
        100,
    )
    .unwrap();
    measure(
        "lex-leader, D4 on a 5×5 board (7 perms)",
        "linear",
        25,
        |db, xs| {
            perm::lex_leader(db, xs, &group);
        },
    );
    measure("x + y, x, y ∈ [0, 20]", "order", 0, |db, _| {
        let x = IntVar::new(db, 0, 20).unwrap();
        let y = IntVar::new(db, 0, 20).unwrap();
        let _ = int::plus(db, &x, &y);
    });
    measure("Σ of 10 vars ∈ [0, 9]", "order", 0, |db, _| {
        let xs: Vec<IntVar> = (0..10).map(|_| IntVar::new(db, 0, 9).unwrap()).collect();
        let refs: Vec<&IntVar> = xs.iter().collect();
        let _ = int::sum(db, &refs);
    });
    measure("Σ of 10 vars ∈ [0, 9]", "log", 0, |db, _| {
        let xs: Vec<LogInt> = (0..10).map(|_| LogInt::new(db, 0, 9).unwrap()).collect();
        let refs: Vec<&LogInt> = xs.iter().collect();
        let _ = LogInt::sum(db, &refs);
    });
    measure("max of 10 vars ∈ [0, 9]", "order", 0, |db, _| {
        let xs: Vec<IntVar> = (0..10).map(|_| IntVar::new(db, 0, 9).unwrap()).collect();
        let refs: Vec<&IntVar> = xs.iter().collect();
        let _ = int::max(db, &refs);
    });
    for enc in AllDiffEncoding::ALL {
        measure(
            "all different, 10 vars ∈ [0, 9]",
            enc.name(),
            0,
            |db, _| {
                let mut xs: Vec<IntVar> = (0..10).map(|_| IntVar::new(db, 0, 9).unwrap()).collect();
                all_different(db, &mut xs, enc, AmoEncoding::Pairwise).unwrap();
            },
        );
    }
}
