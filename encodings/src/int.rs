//! Integer variables in the **order encoding** (Crawford & Baker 1994;
//! Tamura, Taga, Kitagawa & Banbara, "Compiling finite linear CSP into SAT",
//! Constraints 14(2), 2009): `x ∈ [lb, ub]` is represented by the literals
//! `[x ≥ v]` for `v ∈ (lb, ub]`, tied by the ladder clauses
//! `[x ≥ v+1] → [x ≥ v]`. Direct literals `[x = v] ↔ [x ≥ v] ∧ ¬[x ≥ v+1]`
//! are created on demand, channelled to the ladder and cached, so a variable
//! never gets two copies of the same literal.
//!
//! Comparisons follow Tamura et al.: `x ≤ y` is `∀v: [x ≥ v] → [y ≥ v]`.

use std::collections::HashMap;

mod arith;
mod log;

pub use arith::{max, plus, plus_in, sum, sum_capped, Directions};
pub use log::{LogCmp, LogInt};

use crate::bool::{add_implied, Reify};
use crate::{Assignment, Checker, ClauseDatabase, Unsatisfiable};
use rustsat::types::Lit;

/// An order-encoded integer variable with domain `[lb, ub]`.
#[derive(Clone, Debug)]
pub struct IntVar {
    lb: i64,
    ub: i64,
    /// `ge[i]` is `[x ≥ lb + 1 + i]`
    ge: Vec<Lit>,
    /// cached direct literals `[x = v]`
    eq: HashMap<i64, Lit>,
    t: Lit,
}

impl IntVar {
    /// A fresh variable over `[lb, ub]` with its ladder clauses;
    /// [`Unsatisfiable`] (after the empty clause) if `lb > ub`.
    pub fn new<DB: ClauseDatabase>(db: &mut DB, lb: i64, ub: i64) -> Result<Self, Unsatisfiable> {
        if lb > ub {
            db.add(&[]);
            return Err(Unsatisfiable);
        }
        Ok(Self::nonempty(db, lb, ub))
    }

    /// [`IntVar::new`] on a domain known to be non-empty (`lb ≤ ub`).
    pub(crate) fn nonempty<DB: ClauseDatabase>(db: &mut DB, lb: i64, ub: i64) -> Self {
        debug_assert!(lb <= ub);
        let t = db.true_lit();
        let ge = db.fresh_lits(ub.abs_diff(lb) as usize);
        if let Some(p) = db.provenance() {
            p.int_var(lb, &ge);
        }
        for w in ge.windows(2) {
            db.add(&[!w[1], w[0]]); // [x ≥ v+1] → [x ≥ v]
        }
        IntVar {
            lb,
            ub,
            ge,
            eq: HashMap::new(),
            t,
        }
    }

    /// A constant (no variables).
    pub fn constant<DB: ClauseDatabase>(db: &mut DB, c: i64) -> Self {
        Self::from_order_lits(db, c, vec![])
    }

    /// An integer variable from existing order literals, `ge[i] = [x ≥ lb+1+i]`,
    /// which must already be tied by ladder clauses (e.g. the sorted outputs of
    /// a totalizer, which is how unary sums become integers).
    pub fn from_order_lits<DB: ClauseDatabase>(db: &mut DB, lb: i64, ge: Vec<Lit>) -> Self {
        let t = db.true_lit();
        IntVar {
            lb,
            ub: lb + ge.len() as i64,
            ge,
            eq: HashMap::new(),
            t,
        }
    }

    /// Lower bound of the domain.
    pub fn lb(&self) -> i64 {
        self.lb
    }
    /// Upper bound of the domain.
    pub fn ub(&self) -> i64 {
        self.ub
    }
    /// The order literals `[x ≥ lb+1], …, [x ≥ ub]`.
    pub fn order_lits(&self) -> &[Lit] {
        &self.ge
    }

    /// `[x ≥ v]` (the true/false constant outside `(lb, ub]`).
    pub fn ge(&self, v: i64) -> Lit {
        if v <= self.lb {
            self.t
        } else if v > self.ub {
            !self.t
        } else {
            self.ge[(v - self.lb - 1) as usize]
        }
    }
    /// `[x ≤ v]`.
    pub fn le(&self, v: i64) -> Lit {
        !self.ge(v + 1)
    }
    /// `[x = v]`, created on first use and cached.
    pub fn eq<DB: ClauseDatabase>(&mut self, db: &mut DB, v: i64) -> Lit {
        if v < self.lb || v > self.ub {
            return !self.t;
        }
        if self.lb == self.ub {
            return self.t;
        }
        if let Some(&l) = self.eq.get(&v) {
            return l;
        }
        let (a, b) = (self.ge(v), self.ge(v + 1));
        let l = if v == self.lb {
            !b
        } else if v == self.ub {
            a
        } else {
            let l = db.fresh();
            if let Some(p) = db.provenance() {
                p.direct(self.ge[0], v, l, a, b);
            }
            db.add(&[!l, a]); // [x = v] → [x ≥ v]
            db.add(&[!l, !b]); // [x = v] → ¬[x ≥ v+1]
            db.add(&[l, !a, b]); // [x ≥ v] ∧ ¬[x ≥ v+1] → [x = v]
            l
        };
        self.eq.insert(v, l);
        l
    }

    /// The value of the variable under an assignment (reads the ladder).
    pub fn value(&self, a: &Assignment) -> i64 {
        self.lb + self.ge.iter().take_while(|&&l| a.lit(l)).count() as i64
    }

    /// Posts `x ≤ c` as a unit clause.
    pub fn post_le<DB: ClauseDatabase>(&self, db: &mut DB, c: i64) {
        db.add(&[self.le(c)]);
    }
    /// Posts `x ≥ c` as a unit clause.
    pub fn post_ge<DB: ClauseDatabase>(&self, db: &mut DB, c: i64) {
        db.add(&[self.ge(c)]);
    }
}

/// `x + c ≤ y` for order-encoded integers (c = 0: `x ≤ y`; c = 1: `x < y`).
#[derive(Clone, Copy, Debug)]
pub struct LeOffset<'a> {
    /// left-hand side
    pub x: &'a IntVar,
    /// right-hand side
    pub y: &'a IntVar,
    /// offset added to x
    pub c: i64,
}

/// `x ≤ y`.
pub fn le<'a>(x: &'a IntVar, y: &'a IntVar) -> LeOffset<'a> {
    LeOffset { x, y, c: 0 }
}
/// `x < y`.
pub fn lt<'a>(x: &'a IntVar, y: &'a IntVar) -> LeOffset<'a> {
    LeOffset { x, y, c: 1 }
}

impl Reify for LeOffset<'_> {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        // ∀v: [x ≥ v] → [y ≥ v + c]
        let lo = self.x.lb().min(self.y.lb() - self.c);
        let hi = self.x.ub().max(self.y.ub() - self.c) + 1;
        for v in lo..=hi {
            add_implied(db, cond, &[!self.x.ge(v), self.y.ge(v + self.c)]);
        }
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        // ¬(x + c ≤ y)  ⇔  y + (1 - c) ≤ x
        LeOffset {
            x: self.y,
            y: self.x,
            c: 1 - self.c,
        }
        .encode_implied(db, cond)
    }
}

impl Checker for LeOffset<'_> {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let (x, y) = (self.x.value(a), self.y.value(a));
        if x + self.c <= y {
            Ok(())
        } else {
            Err(format!("{x} + {} > {y}", self.c))
        }
    }
}

/// `x = y`, reifiable: the conjunction of `x ≤ y` and `y ≤ x`.
#[derive(Clone, Copy, Debug)]
pub struct EqInt<'a>(pub &'a IntVar, pub &'a IntVar);

impl Reify for EqInt<'_> {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        le(self.0, self.1).encode_implied(db, cond);
        le(self.1, self.0).encode_implied(db, cond);
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        // cond → (x < y ∨ y < x): two fresh literals, each implying one side
        let a = db.fresh();
        let b = db.fresh();
        add_implied(db, cond, &[a, b]);
        lt(self.0, self.1).implied_by(db, a);
        lt(self.1, self.0).implied_by(db, b);
    }
}

/// `x ≠ y`, reifiable (the negation of [`EqInt`]).
#[derive(Clone, Copy, Debug)]
pub struct NeInt<'a>(pub &'a IntVar, pub &'a IntVar);

impl Reify for NeInt<'_> {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        EqInt(self.0, self.1).encode_negation_implied(db, cond)
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        EqInt(self.0, self.1).encode_implied(db, cond)
    }
}

impl Checker for EqInt<'_> {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let (x, y) = (self.0.value(a), self.1.value(a));
        if x == y {
            Ok(())
        } else {
            Err(format!("{x} ≠ {y}"))
        }
    }
}

impl Checker for NeInt<'_> {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let (x, y) = (self.0.value(a), self.1.value(a));
        if x != y {
            Ok(())
        } else {
            Err(format!("both are {x}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cnf;

    /// All assignments (over every variable) satisfying the CNF, projected
    /// onto the values of the given integers.
    fn int_solutions(cnf: &Cnf, xs: &[&IntVar]) -> std::collections::BTreeSet<Vec<i64>> {
        let n = cnf.n_vars();
        assert!(n <= 20, "too many variables for brute force: {n}");
        (0u64..1 << n)
            .map(|bits| Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect()))
            .filter(|a| a.satisfies(cnf.clauses()))
            .map(|a| xs.iter().map(|x| x.value(&a)).collect())
            .collect()
    }

    #[test]
    fn ladder_gives_exactly_the_domain() {
        let mut cnf = Cnf::new();
        let x = IntVar::new(&mut cnf, -1, 3).unwrap();
        let sols = int_solutions(&cnf, &[&x]);
        assert_eq!(sols, (-1..=3).map(|v| vec![v]).collect());
    }

    #[test]
    fn direct_literals_are_cached_and_channelled() {
        let mut cnf = Cnf::new();
        let mut x = IntVar::new(&mut cnf, 0, 3).unwrap();
        let e1 = x.eq(&mut cnf, 1);
        assert_eq!(x.eq(&mut cnf, 1), e1);
        let before = cnf.len();
        let _ = x.eq(&mut cnf, 1);
        assert_eq!(cnf.len(), before, "a cached literal adds no clauses");
        cnf.add(&[e1]);
        assert_eq!(int_solutions(&cnf, &[&x]), [vec![1]].into_iter().collect());
    }

    #[test]
    fn reified_comparisons_match_brute_force() {
        type Rel = fn(i64, i64) -> bool;
        let cases: [(&str, Rel); 4] = [
            ("le", |a, b| a <= b),
            ("lt", |a, b| a < b),
            ("eq", |a, b| a == b),
            ("ne", |a, b| a != b),
        ];
        for (name, rel) in cases {
            let mut cnf = Cnf::new();
            let x = IntVar::new(&mut cnf, 0, 3).unwrap();
            let y = IntVar::new(&mut cnf, 1, 3).unwrap();
            let r = cnf.fresh();
            match name {
                "le" => le(&x, &y).reify(&mut cnf, r),
                "lt" => lt(&x, &y).reify(&mut cnf, r),
                "eq" => EqInt(&x, &y).reify(&mut cnf, r),
                _ => NeInt(&x, &y).reify(&mut cnf, r),
            }
            let rv = IntVar::from_order_lits(&mut cnf, 0, vec![r]);
            let got = int_solutions(&cnf, &[&x, &y, &rv]);
            let want = (0..=3)
                .flat_map(|a| (1..=3).map(move |b| vec![a, b, rel(a, b) as i64]))
                .collect();
            assert_eq!(got, want, "{name}");
        }
    }
}
