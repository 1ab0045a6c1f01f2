//! Arithmetic on order-encoded integers: `x + y`, sums, `max`.
//!
//! `z = x + y` uses the totalizer's unary merge (Bailleux & Boufkhad, CP
//! 2003), which is also the order-encoding addition of Tamura et al.
//! (Constraints 2009): for every `a ∈ [lx, ux]`, `b ∈ [ly, uy]`
//!
//! ```text
//! [x ≥ a] ∧ [y ≥ b] → [z ≥ a + b]                 (upward)
//! [z ≥ a + b + 1] → [x ≥ a + 1] ∨ [y ≥ b + 1]      (downward)
//! ```
//!
//! so `z` is exactly `x + y` (both directions; `(ux−lx+1)(uy−ly+1)` pairs).
//! A sum of many variables is a balanced tree of such merges, which keeps
//! the intermediate domains small. `max` defines each `[z ≥ v]` as the
//! disjunction of the `[xᵢ ≥ v]`.

use super::IntVar;
use crate::ClauseDatabase;
use rustsat::types::Lit;

/// Adds a clause after removing false constants; drops it if a literal is
/// the true constant.
fn add_simplified<DB: ClauseDatabase>(db: &mut DB, t: Lit, lits: &[Lit]) {
    if lits.contains(&t) {
        return;
    }
    let kept: Vec<Lit> = lits.iter().copied().filter(|&l| l != !t).collect();
    db.add(&kept);
}

/// `z = x + y`, a fresh order-encoded variable over `[lx+ly, ux+uy]`.
pub fn plus<DB: ClauseDatabase>(db: &mut DB, x: &IntVar, y: &IntVar) -> IntVar {
    let t = db.true_lit();
    let z = IntVar::new(db, x.lb() + y.lb(), x.ub() + y.ub());
    for a in x.lb()..=x.ub() {
        for b in y.lb()..=y.ub() {
            // [x ≥ a] ∧ [y ≥ b] → [z ≥ a + b]
            if a + b > z.lb() {
                add_simplified(db, t, &[!x.ge(a), !y.ge(b), z.ge(a + b)]);
            }
            // [z ≥ a + b + 1] → [x ≥ a + 1] ∨ [y ≥ b + 1]
            if a + b < z.ub() {
                add_simplified(db, t, &[!z.ge(a + b + 1), x.ge(a + 1), y.ge(b + 1)]);
            }
        }
    }
    z
}

/// `Σ xs` as a fresh order-encoded variable (balanced tree of [`plus`]);
/// the constant 0 for no terms.
pub fn sum<DB: ClauseDatabase>(db: &mut DB, xs: &[&IntVar]) -> IntVar {
    match xs {
        [] => IntVar::constant(db, 0),
        [x] => (*x).clone(),
        _ => {
            let (l, r) = xs.split_at(xs.len() / 2);
            let l = sum(db, l);
            let r = sum(db, r);
            plus(db, &l, &r)
        }
    }
}

/// `max(xs)` as an order-encoded variable over `[max lbᵢ, max ubᵢ]`:
/// `[z ≥ v] ↔ ∨ᵢ [xᵢ ≥ v]`, reusing `[xᵢ ≥ v]` when only one `xᵢ` can
/// reach `v`.
///
/// # Panics
/// If `xs` is empty (the maximum of nothing is undefined).
pub fn max<DB: ClauseDatabase>(db: &mut DB, xs: &[&IntVar]) -> IntVar {
    assert!(!xs.is_empty(), "max of no integers");
    let t = db.true_lit();
    let lb = xs.iter().map(|x| x.lb()).max().expect("non-empty");
    let ub = xs.iter().map(|x| x.ub()).max().expect("non-empty");
    let mut ge = Vec::with_capacity((ub - lb) as usize);
    let mut fresh = Vec::with_capacity((ub - lb) as usize);
    for v in lb + 1..=ub {
        let reach: Vec<Lit> = xs.iter().filter(|x| x.ub() >= v).map(|x| x.ge(v)).collect();
        let is_fresh = !reach.contains(&t) && reach.len() > 1;
        fresh.push(is_fresh);
        let z = if reach.contains(&t) {
            t
        } else if let [one] = reach[..] {
            one
        } else {
            let z = db.fresh();
            for &l in &reach {
                db.add(&[!l, z]); // [xᵢ ≥ v] → [z ≥ v]
            }
            let mut c = vec![!z];
            c.extend(&reach);
            db.add(&c); // [z ≥ v] → ∨ᵢ [xᵢ ≥ v]
            z
        };
        ge.push(z);
    }
    // the [z ≥ v] are equivalences, so the ladder holds; make it explicit
    // for propagation when fresh literals were introduced
    for i in 1..ge.len() {
        if fresh[i] || fresh[i - 1] {
            add_simplified(db, t, &[!ge[i], ge[i - 1]]); // [z ≥ v+1] → [z ≥ v]
        }
    }
    IntVar::from_order_lits(db, lb, ge)
}
