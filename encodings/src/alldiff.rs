//! All-different over order-encoded integers, `xᵢ ≠ xⱼ` for all `i < j`,
//! through their direct literals `[xᵢ = v]` (created on demand and
//! channelled to the ladder by [`IntVar::eq`]):
//!
//! - **amo-per-value**: for each value `v`, at most one of the `[xᵢ = v]`,
//!   with any [`AmoEncoding`] — with the pairwise one this is the direct
//!   encoding of the `n(n−1)/2` disequalities (Gent & Nightingale, "A new
//!   encoding of AllDifferent into SAT", ModRef 2004, call it the "pairwise"
//!   or direct decomposition);
//! - **permutation**: the value graph as a 0/1 matrix, rows the variables and
//!   columns the values (the bipartite form of Régin's matching view,
//!   "A filtering algorithm for constraints of difference in CSPs", AAAI
//!   1994): each row exactly one (redundant with the ladder, stated for
//!   propagation), each column at most one, and — when there are exactly as
//!   many values as variables — each column at least one, so the matrix is a
//!   permutation matrix and unit propagation sees the pigeonhole.
//!
//! Fewer values than variables is [`Unsatisfiable`] under both (after the
//! empty clause).

use std::collections::BTreeSet;

use crate::amo::{at_most_one, exactly_one, AmoEncoding};
use crate::int::IntVar;
use crate::{Assignment, Checker, ClauseDatabase, Lit, Unsatisfiable};

crate::option_enum! {
    /// Which all-different encoding to use.
    #[derive(Default)]
    pub enum AllDiffEncoding("all-different encoding") {
        /// at most one variable per value (direct literals)
        #[default]
        PerValue = "amo-per-value",
        /// permutation matrix: exactly one value per variable, at most
        /// (exactly, when the counts match) one variable per value
        Permutation = "permutation",
    }
}

/// Posts "all of `xs` take different values" with encoding `enc`, its
/// at-most-one constraints encoded by `amo`.
pub fn all_different<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &mut [IntVar],
    enc: AllDiffEncoding,
    amo: AmoEncoding,
) -> Result<(), Unsatisfiable> {
    let values: BTreeSet<i64> = xs.iter().flat_map(|x| x.lb()..=x.ub()).collect();
    if values.len() < xs.len() {
        db.add(&[]); // pigeonhole: fewer values than variables
        return Err(Unsatisfiable);
    }
    // the direct literals of each value, over the variables that can take it
    let column = |db: &mut DB, xs: &mut [IntVar], v: i64| -> Vec<Lit> {
        xs.iter_mut()
            .filter(|x| (x.lb()..=x.ub()).contains(&v))
            .map(|x| x.eq(db, v))
            .collect()
    };
    for &v in &values {
        let col = column(db, xs, v);
        if enc == AllDiffEncoding::Permutation && values.len() == xs.len() {
            exactly_one(db, &col, amo)?; // every value is used
        } else {
            at_most_one(db, &col, amo);
        }
    }
    if enc == AllDiffEncoding::Permutation {
        for x in xs.iter_mut() {
            let row: Vec<Lit> = (x.lb()..=x.ub()).map(|v| x.eq(db, v)).collect();
            exactly_one(db, &row, amo)?; // one value per variable
        }
    }
    Ok(())
}

/// "All different" as data, for checking an assignment.
#[derive(Clone, Copy, Debug)]
pub struct AllDifferent<'a>(pub &'a [IntVar]);

impl Checker for AllDifferent<'_> {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let mut seen = BTreeSet::new();
        for x in self.0 {
            let v = x.value(a);
            if !seen.insert(v) {
                return Err(format!("the value {v} is taken twice"));
            }
        }
        Ok(())
    }
}
