//! Boolean constraints with reification, Pumpkin-style: every constraint can
//! be posted, `implied_by(l)` (l → C) or `reify(l)` (l ↔ C).
//!
//! Tseitin, "On the complexity of derivation in propositional calculus"
//! (1968): each gate is defined by the clauses of its two implications.

use crate::{Assignment, Checker, ClauseDatabase};
use rustsat::types::Lit;

/// A constraint that can be posted, implied by a literal, or reified.
pub trait Reify {
    /// Adds clauses for `cond → self` (`cond = None`: post unconditionally).
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>);
    /// Adds clauses for `cond → ¬self`.
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>);

    /// Posts the constraint.
    fn post<DB: ClauseDatabase>(&self, db: &mut DB) {
        self.encode_implied(db, None)
    }
    /// `l → self`.
    fn implied_by<DB: ClauseDatabase>(&self, db: &mut DB, l: Lit) {
        self.encode_implied(db, Some(l))
    }
    /// `l ↔ self`.
    fn reify<DB: ClauseDatabase>(&self, db: &mut DB, l: Lit) {
        self.encode_implied(db, Some(l));
        self.encode_negation_implied(db, Some(!l));
    }
    /// A fresh literal equivalent to the constraint.
    fn reified<DB: ClauseDatabase>(&self, db: &mut DB) -> Lit {
        let l = db.fresh();
        self.reify(db, l);
        l
    }
}

/// Adds `cond → clause`, i.e. the clause extended by `¬cond`.
pub fn add_implied<DB: ClauseDatabase>(db: &mut DB, cond: Option<Lit>, clause: &[Lit]) {
    match cond {
        None => db.add(clause),
        Some(c) => {
            let mut v = Vec::with_capacity(clause.len() + 1);
            v.push(!c);
            v.extend_from_slice(clause);
            db.add(&v);
        }
    }
}

/// Conjunction of literals (empty: true).
#[derive(Clone, Debug)]
pub struct And(pub Vec<Lit>);
/// Disjunction of literals (empty: false).
#[derive(Clone, Debug)]
pub struct Or(pub Vec<Lit>);
/// `a → b`.
#[derive(Clone, Copy, Debug)]
pub struct Implies(pub Lit, pub Lit);
/// `a ↔ b`.
#[derive(Clone, Copy, Debug)]
pub struct Equiv(pub Lit, pub Lit);
/// Parity: the xor of the literals is true (empty: false).
#[derive(Clone, Debug)]
pub struct Xor(pub Vec<Lit>);

impl Reify for And {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        for &l in &self.0 {
            add_implied(db, cond, &[l]); // cond → l
        }
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        let neg: Vec<Lit> = self.0.iter().map(|&l| !l).collect();
        add_implied(db, cond, &neg); // cond → ∨ ¬l
    }
}

impl Reify for Or {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        add_implied(db, cond, &self.0);
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        for &l in &self.0 {
            add_implied(db, cond, &[!l]);
        }
    }
}

impl Reify for Implies {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        add_implied(db, cond, &[!self.0, self.1]);
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        add_implied(db, cond, &[self.0]);
        add_implied(db, cond, &[!self.1]);
    }
}

impl Reify for Equiv {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        add_implied(db, cond, &[!self.0, self.1]);
        add_implied(db, cond, &[self.0, !self.1]);
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        add_implied(db, cond, &[self.0, self.1]);
        add_implied(db, cond, &[!self.0, !self.1]);
    }
}

impl Xor {
    /// Chains the xor through fresh literals `t_i ↔ t_{i-1} ⊕ l_i`, returning
    /// a literal equivalent to the parity (`None` for the empty xor).
    fn parity_lit<DB: ClauseDatabase>(&self, db: &mut DB) -> Option<Lit> {
        let mut it = self.0.iter().copied();
        let mut acc = it.next()?;
        for l in it {
            let t = db.fresh();
            // t ↔ acc ⊕ l
            db.add(&[!t, acc, l]);
            db.add(&[!t, !acc, !l]);
            db.add(&[t, !acc, l]);
            db.add(&[t, acc, !l]);
            acc = t;
        }
        Some(acc)
    }
}

impl Reify for Xor {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        match self.parity_lit(db) {
            Some(p) => add_implied(db, cond, &[p]),
            None => add_implied(db, cond, &[]),
        }
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        if let Some(p) = self.parity_lit(db) {
            add_implied(db, cond, &[!p]);
        }
    }
}

impl Checker for And {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        match self.0.iter().find(|&&l| !a.lit(l)) {
            None => Ok(()),
            Some(l) => Err(format!("and: {l} is false")),
        }
    }
}
impl Checker for Or {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        if self.0.iter().any(|&l| a.lit(l)) {
            Ok(())
        } else {
            Err("or: every literal is false".into())
        }
    }
}
impl Checker for Implies {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        if !a.lit(self.0) || a.lit(self.1) {
            Ok(())
        } else {
            Err(format!("{} is true but {} is false", self.0, self.1))
        }
    }
}
impl Checker for Equiv {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        if a.lit(self.0) == a.lit(self.1) {
            Ok(())
        } else {
            Err(format!("{} and {} differ", self.0, self.1))
        }
    }
}
impl Checker for Xor {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        if self.0.iter().filter(|&&l| a.lit(l)).count() % 2 == 1 {
            Ok(())
        } else {
            Err("xor: even parity".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cnf;

    /// Every assignment of the inputs extended to the aux vars: does some
    /// extension satisfy the CNF? (brute force over all variables)
    fn satisfiable_with(cnf: &Cnf, fixed: &[(Lit, bool)]) -> bool {
        let n = cnf.n_vars();
        (0u64..1 << n).any(|bits| {
            let a = Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
            fixed.iter().all(|&(l, v)| a.lit(l) == v) && a.satisfies(cnf.clauses())
        })
    }

    fn check_reified<C: Reify>(
        make: impl Fn(&[Lit]) -> C,
        arity: usize,
        truth: impl Fn(&[bool]) -> bool,
    ) {
        let mut cnf = Cnf::new();
        let xs = cnf.fresh_lits(arity);
        let r = cnf.fresh();
        make(&xs).reify(&mut cnf, r);
        for bits in 0u32..1 << arity {
            let vals: Vec<bool> = (0..arity).map(|i| bits >> i & 1 == 1).collect();
            let mut fixed: Vec<(Lit, bool)> =
                xs.iter().copied().zip(vals.iter().copied()).collect();
            let expect = truth(&vals);
            fixed.push((r, expect));
            assert!(satisfiable_with(&cnf, &fixed), "{vals:?} with r = {expect}");
            fixed.last_mut().unwrap().1 = !expect;
            assert!(
                !satisfiable_with(&cnf, &fixed),
                "{vals:?} with r = {}",
                !expect
            );
        }
    }

    #[test]
    fn reified_gates_match_truth_tables() {
        for n in 0..4 {
            check_reified(|x| And(x.to_vec()), n, |v| v.iter().all(|&b| b));
            check_reified(|x| Or(x.to_vec()), n, |v| v.iter().any(|&b| b));
            check_reified(
                |x| Xor(x.to_vec()),
                n,
                |v| v.iter().filter(|&&b| b).count() % 2 == 1,
            );
        }
        check_reified(|x| Implies(x[0], x[1]), 2, |v| !v[0] || v[1]);
        check_reified(|x| Equiv(x[0], x[1]), 2, |v| v[0] == v[1]);
    }
}
