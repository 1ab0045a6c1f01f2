//! Play a goal exactly without SAT (`--goal`, `--method rowcol`, the
//! default): the fewest clicks from `start` to `goal` by the row/column
//! minimisation of [`super::rowcol`].
//!
//! The click matrices reaching the goal are one coset `x₀ + K` of the click
//! map's kernel K (Gent, Linton & Smith, APES-22-2000): `x₀` comes from the
//! diagonal form over Z_c ([`zmod::solve`]; none: the goal is unreachable,
//! the linear-algebra reason). Every kernel element is `z_ij = R_i + C_j`
//! for exactly one admissible pair of row and column vectors, so
//! [`RowCol::coset_min`] — every admissible row vector R (at most
//! `c^(n−1)`, one level per admissible total, the coset enumerated with
//! care when `(n − 1)` is not a multiple of c), the columns by an exact
//! dynamic programme — is the exact minimum of `Σ (x₀ + z) mod c` over the
//! whole coset. That visit of every admissible R is the proof; 7×7 with 6
//! colours (kernel 6¹²) takes tens of milliseconds where the SAT search had
//! to refute each cheaper click matrix.
//!
//! The report, and `--certify` (the optimum proven again by one checked
//! SAT refutation of fewer clicks), are a method beside SAT:
//! `crate::methods::alien_tiles`.

use super::model::{self, Grid};
use super::rowcol::RowCol;
use super::zmod;

/// The exact answer of the row/column minimisation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// the goal is not in the image of the click map over Z_c
    Unreachable,
    /// the fewest clicks and a click matrix with that many
    Best {
        /// the click matrix (entries in `0..c`)
        clicks: Grid,
        /// its number of clicks, the minimum over the coset
        total: u32,
    },
}

/// The fewest clicks from `start` to `goal` on the n×n board with c
/// colours: a particular solution by linear algebra, then the exact
/// minimum over its kernel coset.
pub fn fewest_clicks(start: &Grid, goal: &Grid, c: u32, rowcol: &RowCol) -> Played {
    let n = goal.n;
    let delta = model::sub_mod(goal, start, c);
    let Some(x0) = zmod::solve(&model::click_map(n, c), &delta.cells) else {
        return Played::Unreachable;
    };
    let (total, z) = rowcol.coset_min(&x0);
    let cells = x0.iter().zip(&z).map(|(x, z)| (x + z) % c).collect();
    Played::Best {
        clicks: Grid { n, cells },
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::alien_tiles::check::coset_minimum;
    use crate::puzzles::alien_tiles::zmod::Kernel;

    #[test]
    fn fewest_clicks_is_the_coset_minimum() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |c: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % c as u64) as u32
        };
        for n in 1..=4 {
            for c in 2..=7 {
                let kernel = Kernel::of(&model::click_map(n, c));
                let rc = RowCol::new(n, c);
                for _ in 0..10 {
                    let start = Grid {
                        n,
                        cells: (0..n * n).map(|_| next(c)).collect(),
                    };
                    let goal = Grid {
                        n,
                        cells: (0..n * n).map(|_| next(c)).collect(),
                    };
                    let delta = model::sub_mod(&goal, &start, c);
                    let x0 = zmod::solve(&model::click_map(n, c), &delta.cells);
                    match fewest_clicks(&start, &goal, c, &rc) {
                        Played::Unreachable => assert!(x0.is_none(), "n={n} c={c}"),
                        Played::Best { clicks, total } => {
                            let x0 = Grid {
                                n,
                                cells: x0.unwrap(),
                            };
                            let (want, _) = coset_minimum(&x0, &kernel, 1 << 24).unwrap();
                            assert_eq!(total, want, "n={n} c={c}");
                            assert_eq!(clicks.total(), total);
                            let reached = model::add_mod(&start, &model::effect(&clicks, c), c);
                            assert_eq!(reached, goal, "n={n} c={c}");
                        }
                    }
                }
            }
        }
    }
}
