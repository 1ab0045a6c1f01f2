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
//! Restricting `z`'s domain (`plus_in`) makes the first clause forbid pairs
//! summing above it and the second forbid pairs below; truncating it
//! (`sum_capped`, the k-simplified totalizer) reads every sum above the cap
//! as the cap, and either direction can be left out.
//! A sum of many variables is a balanced tree of such merges, which keeps
//! the intermediate domains small. `max` defines each `[z ≥ v]` as the
//! disjunction of the `[xᵢ ≥ v]`.

use super::IntVar;
use crate::{ClauseDatabase, Unsatisfiable};
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

/// Which implications of a sum to encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Directions {
    /// upward, `Σ ≥ v → [z ≥ v]`: enough to bound the sum from above
    pub up: bool,
    /// downward, `[z ≥ v] → Σ ≥ v`: enough to bound the sum from below
    pub down: bool,
}

impl Directions {
    /// Both: `z` is exactly the sum.
    pub const BOTH: Directions = Directions {
        up: true,
        down: true,
    };
    /// Only upward (`z ≥ Σ`, capped).
    pub const UP: Directions = Directions {
        up: true,
        down: false,
    };
    /// Only downward (`z ≤ Σ`).
    pub const DOWN: Directions = Directions {
        up: false,
        down: true,
    };
}

/// The clauses of `z = x + y` over `z`'s domain: outside it, sums are
/// forbidden (`truncate = false`) or read as `z.ub()` (`truncate = true`,
/// `z = min(x + y, z.ub())`).
fn merge<DB: ClauseDatabase>(
    db: &mut DB,
    x: &IntVar,
    y: &IntVar,
    z: &IntVar,
    truncate: bool,
    dirs: Directions,
) {
    let t = db.true_lit();
    if let Some(p) = db.provenance() {
        // [z ≥ v] ⇔ Σ leaves ≥ v − base, over the leaves of x and y (for
        // a VeriPB proof: every merge clause is then a sum of definitions)
        let (mut leaves, bx) = p.count_of(x.lb(), x.order_lits());
        let (ly, by) = p.count_of(y.lb(), y.order_lits());
        for (l, w) in ly {
            *leaves.entry(l).or_insert(0) += w;
        }
        p.define_sum(z.lb(), z.order_lits(), &leaves, bx + by);
    }
    for a in x.lb()..=x.ub() {
        for b in y.lb()..=y.ub() {
            let target = if truncate { (a + b).min(z.ub()) } else { a + b };
            // [x ≥ a] ∧ [y ≥ b] → [z ≥ a + b]   (a false [z ≥ a + b]: the pair is forbidden)
            if dirs.up && target > z.lb() {
                add_simplified(db, t, &[!x.ge(a), !y.ge(b), z.ge(target)]);
            }
            // [z ≥ a + b + 1] → [x ≥ a + 1] ∨ [y ≥ b + 1]   (a true [z ≥ a + b + 1]: forbidden)
            if dirs.down && a + b < z.ub() {
                add_simplified(db, t, &[!z.ge(a + b + 1), x.ge(a + 1), y.ge(b + 1)]);
            }
        }
    }
}

/// `z = x + y`, a fresh order-encoded variable over `[lx+ly, ux+uy]`.
pub fn plus<DB: ClauseDatabase>(db: &mut DB, x: &IntVar, y: &IntVar) -> IntVar {
    let z = IntVar::nonempty(db, x.lb() + y.lb(), x.ub() + y.ub());
    merge(db, x, y, &z, false, Directions::BOTH);
    z
}

/// `z = x + y` restricted to `lo ≤ x + y ≤ hi`: `z` only gets the values of
/// `[lo, hi]` (fewer literals and clauses than [`plus`] then a bound), and
/// pairs summing outside are forbidden. An empty range posts the empty
/// clause and returns [`Unsatisfiable`].
pub fn plus_in<DB: ClauseDatabase>(
    db: &mut DB,
    x: &IntVar,
    y: &IntVar,
    lo: i64,
    hi: i64,
) -> Result<IntVar, Unsatisfiable> {
    let (lo, hi) = (lo.max(x.lb() + y.lb()), hi.min(x.ub() + y.ub()));
    let z = IntVar::new(db, lo, hi)?;
    merge(db, x, y, &z, false, Directions::BOTH);
    Ok(z)
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

/// `min(Σ xs, cap)` with only the requested directions (the "k-simplified"
/// totalizer: every node is cut at `cap`, so a bound `Σ ≤ k` needs
/// `cap = k + 1` and `Directions::UP`, a bound `Σ ≥ k` needs `cap = k` and
/// `Directions::DOWN`). With one direction the result is only a bound on
/// the sum: `UP` gives `z ≥ min(Σ, cap)`, `DOWN` gives `z ≤ min(Σ, cap)`.
pub fn sum_capped<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    cap: i64,
    dirs: Directions,
) -> IntVar {
    match xs {
        [] => IntVar::constant(db, 0.min(cap)),
        [x] if x.ub() <= cap => (*x).clone(),
        _ => {
            let (l, r) = match xs {
                [x] => {
                    // one term reaching past the cap: z = min(x, cap)
                    let lb = x.lb().min(cap);
                    let ge = (lb + 1..=cap).map(|v| x.ge(v)).collect();
                    return IntVar::from_order_lits(db, lb, ge);
                }
                _ => xs.split_at(xs.len() / 2),
            };
            let l = sum_capped(db, l, cap, dirs);
            let r = sum_capped(db, r, cap, dirs);
            let lb = (l.lb() + r.lb()).min(cap);
            let z = IntVar::nonempty(db, lb, (l.ub() + r.ub()).min(cap));
            merge(db, &l, &r, &z, true, dirs);
            z
        }
    }
}

/// `max(xs)` as an order-encoded variable over `[max lbᵢ, max ubᵢ]`:
/// `[z ≥ v] ↔ ∨ᵢ [xᵢ ≥ v]`, reusing `[xᵢ ≥ v]` when only one `xᵢ` can
/// reach `v`. The maximum of no integers has no value: [`Unsatisfiable`]
/// (after the empty clause).
pub fn max<DB: ClauseDatabase>(db: &mut DB, xs: &[&IntVar]) -> Result<IntVar, Unsatisfiable> {
    let (Some(lb), Some(ub)) = (
        xs.iter().map(|x| x.lb()).max(),
        xs.iter().map(|x| x.ub()).max(),
    ) else {
        db.add(&[]);
        return Err(Unsatisfiable);
    };
    let t = db.true_lit();
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
    Ok(IntVar::from_order_lits(db, lb, ge))
}
