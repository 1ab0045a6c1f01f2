//! Integers in the **log (binary) encoding**, for domains too wide for the
//! order encoding: `x = lb + Σᵢ 2ⁱ·bᵢ` over `⌈log₂(ub − lb + 1)⌉` bits (see
//! e.g. Iwama & Miyazaki, "SAT-variable complexity of hard combinatorial
//! problems", IFIP 1994; Walsh, "SAT v CSP", CP 2000 for the comparison with
//! the direct and order encodings).
//!
//! Comparison with a constant needs no auxiliary variable. With `c` the
//! offset constant in binary, `x ≤ c` is the conjunction over the 0-bits `i`
//! of `c` of
//!
//! ```text
//! ¬bᵢ ∨ ∨{ ¬bⱼ : j > i, cⱼ = 1 }
//! ```
//!
//! (x exceeds c exactly when, at the highest differing bit, x has a 1 where
//! c has a 0), and dually `x ≥ c` is the conjunction over the 1-bits `i` of
//! `bᵢ ∨ ∨{ bⱼ : j > i, cⱼ = 0 }`. Addition is a ripple-carry adder of full
//! adders (Tseitin, both directions), so `plus` is exact.

use std::collections::HashMap;

use super::IntVar;
use crate::bool::{add_implied, And, Reify};
use crate::{Assignment, Checker, ClauseDatabase, Unsatisfiable};
use rustsat::types::Lit;

/// A log-encoded integer with domain `[lb, ub]`.
#[derive(Clone, Debug)]
pub struct LogInt {
    lb: i64,
    ub: i64,
    /// little-endian bits of `x − lb`
    bits: Vec<Lit>,
    eq: HashMap<i64, Lit>,
}

/// Number of bits for values `0..=span`.
fn width(span: u64) -> usize {
    (u64::BITS - span.leading_zeros()) as usize
}

impl LogInt {
    /// A fresh variable over `[lb, ub]` (bits plus the clauses of `x ≤ ub`
    /// when the range is not a power of two); [`Unsatisfiable`] (after the
    /// empty clause) if `lb > ub`.
    pub fn new<DB: ClauseDatabase>(db: &mut DB, lb: i64, ub: i64) -> Result<Self, Unsatisfiable> {
        if lb > ub {
            db.add(&[]);
            return Err(Unsatisfiable);
        }
        let mut x = LogInt::from_bits(lb, db.fresh_lits(width(ub.abs_diff(lb))));
        x.le_const(ub).post(db); // trims the power-of-two range to the domain
        x.ub = ub;
        Ok(x)
    }

    /// A variable from existing bits (little-endian) meaning `lb + Σ 2ⁱ bᵢ`;
    /// the upper bound is `lb + 2^len − 1` (no clauses added).
    pub fn from_bits(lb: i64, bits: Vec<Lit>) -> Self {
        let ub = lb + ((1i64 << bits.len()) - 1);
        LogInt {
            lb,
            ub,
            bits,
            eq: HashMap::new(),
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
    /// The bits of `x − lb`, least significant first.
    pub fn bits(&self) -> &[Lit] {
        &self.bits
    }

    /// The value under an assignment.
    pub fn value(&self, a: &Assignment) -> i64 {
        self.lb
            + self
                .bits
                .iter()
                .enumerate()
                .filter(|&(_, &b)| a.lit(b))
                .map(|(i, _)| 1i64 << i)
                .sum::<i64>()
    }

    /// The constraint `x ≤ c` (reifiable).
    pub fn le_const(&self, c: i64) -> LogCmp<'_> {
        LogCmp {
            x: self,
            c,
            ge: false,
        }
    }
    /// The constraint `x ≥ c` (reifiable).
    pub fn ge_const(&self, c: i64) -> LogCmp<'_> {
        LogCmp {
            x: self,
            c,
            ge: true,
        }
    }
    /// Posts `x ≤ c`.
    pub fn post_le<DB: ClauseDatabase>(&self, db: &mut DB, c: i64) {
        self.le_const(c).post(db)
    }
    /// Posts `x ≥ c`.
    pub fn post_ge<DB: ClauseDatabase>(&self, db: &mut DB, c: i64) {
        self.ge_const(c).post(db)
    }

    /// `[x = v]`, created on first use and cached (the false constant outside
    /// the domain).
    pub fn eq<DB: ClauseDatabase>(&mut self, db: &mut DB, v: i64) -> Lit {
        if v < self.lb || v > self.ub {
            return !db.true_lit();
        }
        if let Some(&l) = self.eq.get(&v) {
            return l;
        }
        let off = (v - self.lb) as u64;
        let pattern: Vec<Lit> = (0..self.bits.len())
            .map(|i| {
                if off >> i & 1 == 1 {
                    self.bits[i]
                } else {
                    !self.bits[i]
                }
            })
            .collect();
        let l = match pattern[..] {
            [] => db.true_lit(),
            [one] => one,
            _ => And(pattern).reified(db),
        };
        self.eq.insert(v, l);
        l
    }

    /// An order-encoded copy of `x`, channelled: `[y ≥ v] ↔ x ≥ v` for every
    /// `v` in the domain (`(ub − lb)` reifications of `x ≥ v`).
    pub fn to_order<DB: ClauseDatabase>(&self, db: &mut DB) -> IntVar {
        let y = IntVar::nonempty(db, self.lb, self.ub);
        for v in self.lb + 1..=self.ub {
            self.ge_const(v).reify(db, y.ge(v));
        }
        y
    }

    /// `z = x + y` with a ripple-carry adder, over `[lx+ly, ux+uy]`.
    pub fn plus<DB: ClauseDatabase>(db: &mut DB, x: &LogInt, y: &LogInt) -> LogInt {
        let w = x.bits.len().max(y.bits.len());
        let f = !db.true_lit();
        let bit = |v: &LogInt, i: usize| v.bits.get(i).copied().unwrap_or(f);
        let mut out = Vec::with_capacity(w + 1);
        let mut carry = f;
        for i in 0..w {
            let (a, b) = (bit(x, i), bit(y, i));
            let (s, c) = full_adder(db, f, a, b, carry);
            out.push(s);
            carry = c;
        }
        out.push(carry);
        let mut z = LogInt::from_bits(x.lb + y.lb, out);
        z.ub = x.ub + y.ub; // implied by the adder
        z
    }

    /// `Σ xs` by a balanced tree of adders (the constant 0 for no terms).
    pub fn sum<DB: ClauseDatabase>(db: &mut DB, xs: &[&LogInt]) -> LogInt {
        match xs {
            [] => LogInt::from_bits(0, vec![]),
            [x] => (*x).clone(),
            _ => {
                let (l, r) = xs.split_at(xs.len() / 2);
                let l = LogInt::sum(db, l);
                let r = LogInt::sum(db, r);
                LogInt::plus(db, &l, &r)
            }
        }
    }
}

/// A full adder `s = a ⊕ b ⊕ c`, `carry = maj(a, b, c)`, Tseitin both ways;
/// inputs equal to the false constant `f` are simplified (half adders).
fn full_adder<DB: ClauseDatabase>(db: &mut DB, f: Lit, a: Lit, b: Lit, c: Lit) -> (Lit, Lit) {
    let ins: Vec<Lit> = [a, b, c].into_iter().filter(|&l| l != f).collect();
    match ins[..] {
        [] => (f, f),
        [x] => (x, f),
        [x, y] => {
            let s = db.fresh();
            // s ↔ x ⊕ y
            db.add(&[!s, x, y]);
            db.add(&[!s, !x, !y]);
            db.add(&[s, !x, y]);
            db.add(&[s, x, !y]);
            let k = db.fresh();
            // k ↔ x ∧ y
            db.add(&[!k, x]);
            db.add(&[!k, y]);
            db.add(&[k, !x, !y]);
            (s, k)
        }
        _ => {
            let s = db.fresh();
            // s ↔ a ⊕ b ⊕ c: the 8 clauses excluding wrong parities
            for m in 0u8..8 {
                let lits: Vec<Lit> = [a, b, c]
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if m >> i & 1 == 1 { !l } else { l })
                    .collect();
                let odd = m.count_ones() % 2 == 1; // parity of the inputs this clause excludes
                let mut cl = lits;
                cl.push(if odd { s } else { !s });
                db.add(&cl);
            }
            let k = db.fresh();
            // k ↔ at least two of a, b, c
            db.add(&[!a, !b, k]);
            db.add(&[!a, !c, k]);
            db.add(&[!b, !c, k]);
            db.add(&[a, b, !k]);
            db.add(&[a, c, !k]);
            db.add(&[b, c, !k]);
            (s, k)
        }
    }
}

/// `x ≤ c` (or `x ≥ c` when `ge`) for a log-encoded `x`.
#[derive(Clone, Copy, Debug)]
pub struct LogCmp<'a> {
    /// the variable
    pub x: &'a LogInt,
    /// the constant
    pub c: i64,
    /// `x ≥ c` instead of `x ≤ c`
    pub ge: bool,
}

impl LogCmp<'_> {
    /// Clauses of `x' ≤ c'` (ge: `x' ≥ c'`) on the offset bits, or `None`
    /// when trivially true; `Some([[]])` when trivially false.
    fn clauses(&self) -> Option<Vec<Vec<Lit>>> {
        let x = self.x;
        let w = x.bits.len();
        let (trivially_true, trivially_false) = if self.ge {
            (self.c <= x.lb, self.c > x.ub)
        } else {
            (self.c >= x.ub, self.c < x.lb)
        };
        if trivially_true {
            return None;
        }
        if trivially_false {
            return Some(vec![vec![]]);
        }
        let c = (self.c - x.lb) as u64;
        // ≤: for each 0-bit i of c: ¬bᵢ ∨ ∨{¬bⱼ : j > i, cⱼ = 1}
        // ≥: for each 1-bit i of c: bᵢ ∨ ∨{bⱼ : j > i, cⱼ = 0}
        let key = self.ge as u64; // the bit value of c that gives a clause: 0 for ≤, 1 for ≥
        let sign = |l: Lit| if self.ge { l } else { !l };
        let mut out = Vec::new();
        for i in 0..w {
            if c >> i & 1 == key {
                let mut cl = vec![sign(x.bits[i])];
                cl.extend(
                    (i + 1..w)
                        .filter(|&j| c >> j & 1 != key)
                        .map(|j| sign(x.bits[j])),
                );
                out.push(cl);
            }
        }
        Some(out)
    }
}

impl Reify for LogCmp<'_> {
    fn encode_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        for cl in self.clauses().unwrap_or_default() {
            add_implied(db, cond, &cl);
        }
    }
    fn encode_negation_implied<DB: ClauseDatabase>(&self, db: &mut DB, cond: Option<Lit>) {
        // ¬(x ≤ c) ⇔ x ≥ c + 1;  ¬(x ≥ c) ⇔ x ≤ c − 1
        let neg = LogCmp {
            x: self.x,
            c: if self.ge { self.c - 1 } else { self.c + 1 },
            ge: !self.ge,
        };
        neg.encode_implied(db, cond)
    }
}

impl Checker for LogCmp<'_> {
    fn check(&self, a: &Assignment) -> Result<(), String> {
        let v = self.x.value(a);
        let (ok, rel) = if self.ge {
            (v >= self.c, "≥")
        } else {
            (v <= self.c, "≤")
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{v} {rel} {} is false", self.c))
        }
    }
}
