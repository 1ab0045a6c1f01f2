//! Sums of unary numbers by a totalizer tree (Bailleux & Boufkhad,
//! "Efficient CNF encoding of Boolean cardinality constraints", CP 2003),
//! generalised from single literals to order-encoded leaves (a leaf is the
//! list `[x ≥ 1], [x ≥ 2], …`), with outputs truncated at a cap (the last
//! output then reads "≥ cap"), and each direction optional:
//!
//! - *up* (inputs → outputs): `[l ≥ a] ∧ [r ≥ b] → [s ≥ a+b]`;
//! - *down* (outputs → inputs): `¬[l ≥ a+1] ∧ ¬[r ≥ b+1] → ¬[s ≥ a+b+1]`.
//!
//! Enigma needs the outputs themselves (occurrence counters whose outputs
//! are chained and summed, the UBNVAL sum over cycle ends), which the
//! assumption-only `card`/`pb` modules do not expose. (The core's planned
//! `int::sum` covers the same ground; this stays local until it lands.)

use puzzlesat_encodings::ClauseDatabase;
use rustsat::types::Lit;

/// Which implications to encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Directions {
    /// inputs → outputs (needed to bound a sum from above)
    pub up: bool,
    /// outputs → inputs (needed to bound a sum from below)
    pub down: bool,
}

impl Directions {
    /// Both directions: the outputs equal the sum (up to the cap).
    pub const EXACT: Directions = Directions {
        up: true,
        down: true,
    };
    /// Only outputs → inputs.
    pub const DOWN: Directions = Directions {
        up: false,
        down: true,
    };
}

/// The unary sum of `leaves` (each a list of order literals), truncated at
/// `cap`: returns `out` with `out[t-1]` standing for `[Σ ≥ t]`, t = 1..=min(cap, Σ max).
pub fn unary_sum<DB: ClauseDatabase>(
    db: &mut DB,
    leaves: &[Vec<Lit>],
    cap: usize,
    dirs: Directions,
) -> Vec<Lit> {
    match leaves.len() {
        0 => vec![],
        1 => leaves[0].iter().copied().take(cap).collect(),
        len => {
            let (l, r) = leaves.split_at(len / 2);
            let left = unary_sum(db, l, cap, dirs);
            let right = unary_sum(db, r, cap, dirs);
            merge(db, &left, &right, cap, dirs)
        }
    }
}

/// Merges two unary numbers into their (truncated) sum.
pub fn merge<DB: ClauseDatabase>(
    db: &mut DB,
    left: &[Lit],
    right: &[Lit],
    cap: usize,
    dirs: Directions,
) -> Vec<Lit> {
    if left.is_empty() {
        return right.iter().copied().take(cap).collect();
    }
    if right.is_empty() {
        return left.iter().copied().take(cap).collect();
    }
    let width = (left.len() + right.len()).min(cap);
    let out = db.fresh_lits(width);
    let (nl, nr) = (left.len(), right.len());
    for a in 0..=nl {
        for b in 0..=nr {
            // up: [l ≥ a] ∧ [r ≥ b] → [s ≥ min(a+b, cap)]
            if dirs.up && a + b >= 1 {
                let mut c = vec![out[(a + b).min(width) - 1]];
                if a > 0 {
                    c.push(!left[a - 1]);
                }
                if b > 0 {
                    c.push(!right[b - 1]);
                }
                db.add(&c);
            }
            // down: ¬[l ≥ a+1] ∧ ¬[r ≥ b+1] → ¬[s ≥ a+b+1]
            if dirs.down && a + b < width {
                let mut c = vec![!out[a + b]];
                if a < nl {
                    c.push(left[a]);
                }
                if b < nr {
                    c.push(right[b]);
                }
                db.add(&c);
            }
            if a + b > width {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::{Assignment, Cnf};

    /// Every assignment of the leaves' order literals (as ladders) extended
    /// to the outputs: the outputs must read exactly min(Σ, cap).
    #[test]
    fn exact_sum_matches_brute_force() {
        for (sizes, cap) in [
            (vec![1, 1, 1], 3),
            (vec![2, 3], 5),
            (vec![2, 1, 2], 3),
            (vec![3, 2, 1, 1], 4),
        ] {
            let mut cnf = Cnf::new();
            let leaves: Vec<Vec<Lit>> = sizes.iter().map(|&s| cnf.fresh_lits(s)).collect();
            let inputs = cnf.n_vars();
            let out = unary_sum(&mut cnf, &leaves, cap, Directions::EXACT);
            let n = cnf.n_vars();
            let mut seen = 0;
            for bits in 0u64..1 << n {
                let a = Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
                let ladders_ok = leaves
                    .iter()
                    .all(|l| l.windows(2).all(|w| !a.lit(w[1]) || a.lit(w[0])));
                if !ladders_ok || !a.satisfies(cnf.clauses()) {
                    continue;
                }
                seen += 1;
                let sum: usize = leaves
                    .iter()
                    .map(|l| l.iter().filter(|&&x| a.lit(x)).count())
                    .sum();
                let got = out.iter().take_while(|&&x| a.lit(x)).count();
                assert_eq!(got, sum.min(cap), "{sizes:?}");
                assert!(out.iter().skip(got).all(|&x| !a.lit(x)));
            }
            // exactly one model per ladder assignment of the inputs
            let ladders: usize = sizes.iter().map(|s| s + 1).product();
            assert_eq!(seen, ladders, "{sizes:?}, {inputs} inputs");
        }
    }
}
