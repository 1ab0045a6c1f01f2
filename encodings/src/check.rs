//! Checking assignments. Every constraint type implements [`Checker`] so that
//! tests (and the drivers, in debug builds) can verify a model against the
//! constraint's *meaning*, independent of its clauses.
//!
//! [`Assignment`] is the one model type of the crate: solver sessions return
//! it, [`IntVar::value`](crate::int::IntVar::value) and [`Checker`] read it.
//! RustSAT's `rustsat::types::Assignment` (what `Solve::full_solution`
//! gives) converts both ways with `From`; an unassigned variable reads false.

use rustsat::types::{Lit, Var};

/// A full assignment to variables `0..len`, as read from a solver model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    values: Vec<bool>,
}

impl Assignment {
    /// An assignment from the values of variables `0..values.len()`.
    pub fn from_values(values: Vec<bool>) -> Self {
        Assignment { values }
    }
    /// An assignment from the true literals of a model (e.g. a `v` line).
    /// Variables not mentioned are false.
    pub fn from_lits(n_vars: u32, lits: impl IntoIterator<Item = Lit>) -> Self {
        let mut values = vec![false; n_vars as usize];
        for l in lits {
            let i = l.var().idx();
            if i >= values.len() {
                values.resize(i + 1, false);
            }
            values[i] = l.is_pos();
        }
        Assignment { values }
    }
    /// Value of a variable (false if out of range: unconstrained aux variables).
    pub fn var(&self, v: Var) -> bool {
        self.values.get(v.idx()).copied().unwrap_or(false)
    }
    /// Value of a literal.
    pub fn lit(&self, l: Lit) -> bool {
        self.var(l.var()) == l.is_pos()
    }
    /// Number of variables assigned.
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// True if no variable is assigned.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// The values, indexed by variable.
    pub fn values(&self) -> &[bool] {
        &self.values
    }
    /// Does this assignment satisfy every clause?
    pub fn satisfies<'a>(&self, clauses: impl IntoIterator<Item = &'a [Lit]>) -> bool {
        clauses.into_iter().all(|c| c.iter().any(|&l| self.lit(l)))
    }
}

impl From<&rustsat::types::Assignment> for Assignment {
    fn from(a: &rustsat::types::Assignment) -> Self {
        Assignment::from_lits(a.len() as u32, a.iter().filter(|l| l.is_pos()))
    }
}

impl From<rustsat::types::Assignment> for Assignment {
    fn from(a: rustsat::types::Assignment) -> Self {
        Assignment::from(&a)
    }
}

impl From<&Assignment> for rustsat::types::Assignment {
    fn from(a: &Assignment) -> Self {
        a.values.iter().copied().collect()
    }
}

impl From<Assignment> for rustsat::types::Assignment {
    fn from(a: Assignment) -> Self {
        (&a).into()
    }
}

/// A constraint that can test an assignment.
pub trait Checker {
    /// `Ok(())` if the assignment satisfies the constraint, else a message.
    fn check(&self, a: &Assignment) -> Result<(), String>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_to_and_from_rustsat() {
        let ours = Assignment::from_values(vec![true, false, true]);
        let theirs = rustsat::types::Assignment::from(&ours);
        assert_eq!(
            theirs.lit_value(Lit::positive(2)),
            rustsat::types::TernaryVal::True
        );
        assert_eq!(
            theirs.lit_value(Lit::positive(1)),
            rustsat::types::TernaryVal::False
        );
        assert_eq!(Assignment::from(theirs), ours);
    }
}
