//! At-most-one and exactly-one, one option for every encoding RustSAT has:
//! pairwise (binomial), ladder / sequential (Gent & Nightingale 2004; Sinz
//! 2005), commander (Klieber & Kwon 2007), bimander (Nguyen & Mai 2015),
//! bitwise / binary (Frisch et al. 2005).

use std::fmt;
use std::str::FromStr;

use crate::{Assignment, Checker, ClauseDatabase};
use rustsat::encodings::am1::{self, Encode as _};
use rustsat::types::Lit;

/// Which at-most-one encoding to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AmoEncoding {
    /// all pairs: n(n-1)/2 binary clauses, no variables
    #[default]
    Pairwise,
    /// ladder (sequential): 3n clauses, n variables
    Ladder,
    /// commander, groups of 4
    Commander,
    /// bimander, groups of 4
    Bimander,
    /// bitwise (binary) encoding
    Bitwise,
}

impl AmoEncoding {
    /// Every variant, for experiments and exhaustive tests.
    pub const ALL: [AmoEncoding; 5] = [
        AmoEncoding::Pairwise,
        AmoEncoding::Ladder,
        AmoEncoding::Commander,
        AmoEncoding::Bimander,
        AmoEncoding::Bitwise,
    ];
    /// The option name.
    pub fn name(self) -> &'static str {
        match self {
            AmoEncoding::Pairwise => "pairwise",
            AmoEncoding::Ladder => "ladder",
            AmoEncoding::Commander => "commander",
            AmoEncoding::Bimander => "bimander",
            AmoEncoding::Bitwise => "bitwise",
        }
    }
}

impl fmt::Display for AmoEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AmoEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown at-most-one encoding '{s}' (expected one of: pairwise, ladder, commander, bimander, bitwise)"))
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
}

/// Posts "exactly one of `lits`" (at-most-one plus the at-least-one clause).
pub fn exactly_one<DB: ClauseDatabase>(db: &mut DB, lits: &[Lit], enc: AmoEncoding) {
    db.add(lits);
    at_most_one(db, lits, enc);
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
    pub fn post<DB: ClauseDatabase>(&self, db: &mut DB, enc: AmoEncoding) {
        if self.exactly {
            exactly_one(db, &self.lits, enc)
        } else {
            at_most_one(db, &self.lits, enc)
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
