//! At-most-one and exactly-one, one option for every encoding RustSAT has:
//! pairwise (binomial), ladder / sequential (Gent & Nightingale 2004; Sinz
//! 2005), commander (Klieber & Kwon 2007), bimander (Nguyen & Mai 2015),
//! bitwise / binary (Frisch et al. 2005).

use crate::{Assignment, Checker, ClauseDatabase, Unsatisfiable};
use rustsat::encodings::am1::{self, Encode as _};
use rustsat::types::Lit;

crate::option_enum! {
    /// Which at-most-one encoding to use.
    #[derive(Default)]
    pub enum AmoEncoding("at-most-one encoding") {
        /// all pairs: n(n-1)/2 binary clauses, no variables
        #[default]
        Pairwise = "pairwise",
        /// ladder (sequential): 3n clauses, n variables
        Ladder = "ladder",
        /// commander, groups of 4
        Commander = "commander",
        /// bimander, groups of 4
        Bimander = "bimander",
        /// bitwise (binary) encoding
        Bitwise = "bitwise",
    }
}

/// Posts "at most one of `lits`".
pub fn at_most_one<DB: ClauseDatabase>(db: &mut DB, lits: &[Lit], enc: AmoEncoding) {
    if lits.len() <= 1 {
        return;
    }
    if enc == AmoEncoding::Pairwise {
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                db.add(&[!lits[i], !lits[j]]);
            }
        }
        return;
    }
    let it = lits.iter().copied();
    crate::provenance::source(db, || {
        Some(crate::provenance::Linear::count_at_most(lits, 1))
    });
    db.with_rustsat(|col, vm| {
        let r = match enc {
            AmoEncoding::Pairwise => unreachable!(),
            AmoEncoding::Ladder => am1::Ladder::from_iter(it).encode(col, vm),
            AmoEncoding::Commander => {
                am1::Commander::<4, am1::Pairwise>::from_iter(it).encode(col, vm)
            }
            AmoEncoding::Bimander => {
                am1::Bimander::<4, am1::Pairwise>::from_iter(it).encode(col, vm)
            }
            AmoEncoding::Bitwise => am1::Bitwise::from_iter(it).encode(col, vm),
        };
        r.expect("in-memory clause buffer cannot run out of memory")
    });
    crate::provenance::source(db, || None);
}

/// Posts "exactly one of `lits`" (at-most-one plus the at-least-one clause);
/// [`Unsatisfiable`] (after the empty clause) if `lits` is empty.
pub fn exactly_one<DB: ClauseDatabase>(
    db: &mut DB,
    lits: &[Lit],
    enc: AmoEncoding,
) -> Result<(), Unsatisfiable> {
    db.add(lits);
    at_most_one(db, lits, enc);
    if lits.is_empty() {
        return Err(Unsatisfiable);
    }
    Ok(())
}

/// "At most one" (or, with `exactly`, "exactly one") of `lits` as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtMostOne {
    /// the literals (a repeated literal counts twice, so it is forced false)
    pub lits: Vec<Lit>,
    /// exactly one instead of at most one
    pub exactly: bool,
}

impl AtMostOne {
    /// Posts the constraint with the given encoding.
    pub fn post<DB: ClauseDatabase>(
        &self,
        db: &mut DB,
        enc: AmoEncoding,
    ) -> Result<(), Unsatisfiable> {
        if self.exactly {
            exactly_one(db, &self.lits, enc)
        } else {
            at_most_one(db, &self.lits, enc);
            Ok(())
        }
    }
}

impl Checker for AtMostOne {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let count = self.lits.iter().filter(|&&l| a.lit(l)).count();
        match (count, self.exactly) {
            (0, true) => Err("no literal is true (exactly one expected)".into()),
            (0 | 1, _) => Ok(()),
            (n, _) => Err(format!("{n} literals are true (at most one expected)")),
        }
    }
}
