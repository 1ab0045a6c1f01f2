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
//! With `--certify` the optimum is proven again by SAT: the play CNF of
//! `--encoding` with "fewer clicks than the optimum" is refuted in one call
//! by the proof solver and its DRAT proof checked ([`crate::certify`]).

use std::time::Instant;

use anyhow::Context;
use puzzlesat_encodings::pb::PbEncoding;

use super::model::{self, Grid};
use super::rowcol::RowCol;
use super::{zmod, AlienTiles, Task, TilesDetails, TilesSolution};
use crate::certify::{certify_claim, Claim, Producer};
use crate::puzzle::Puzzle;
use crate::report::{Report, Status};
use crate::solver::Limits;

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

/// The report of `--method rowcol` for the play instance `p` (solver
/// `none`; the claim rests on the minimisation, or with `producer` also on
/// a checked SAT refutation of fewer clicks).
pub fn report(
    p: &AlienTiles,
    producer: Option<&Producer>,
    pb: PbEncoding,
    limits: &Limits,
) -> anyhow::Result<Report<TilesSolution, TilesDetails>> {
    let Task::Play { start, goal } = &p.task else {
        anyhow::bail!("internal error: the row/column method plays a goal");
    };
    let started = Instant::now();
    let mut r = Report::new(p.describe(), crate::report::NO_SAT.into(), p.counted_as());
    let rowcol = RowCol::new(p.n, p.c);
    let played = fewest_clicks(start, goal, p.c, &rowcol);
    r.seconds.solve = started.elapsed().as_secs_f64();
    let mut notes = vec![];
    let rows = rowcol
        .row_vectors()
        .map_or("more than 2^64".into(), |k| k.to_string());
    match &played {
        Played::Unreachable => {
            r.status = Status::Unsat;
            notes.push(format!(
                "unreachable: the goal is not in the image of the click map over Z_{} (linear algebra: no solution of the diagonal form)",
                p.c
            ));
        }
        Played::Best { clicks, total } => {
            let t = Instant::now();
            let sol = TilesSolution {
                clicks: clicks.clone(),
                total: *total,
                goal: goal.clone(),
                minimality_checked: true,
            };
            p.check(&sol)
                .map_err(|e| anyhow::anyhow!("internal error: the minimisation's answer fails the checker: {e}"))?;
            r.seconds.decode_check = t.elapsed().as_secs_f64();
            r.status = Status::Optimal;
            r.objective = Some(*total as i64);
            r.bound = Some(*total as i64);
            r.solutions.push(sol);
            notes.push(format!(
                "proven by the row/column minimisation: every one of the {rows} admissible row vectors R visited, the columns chosen by an exact dynamic programme, so every click matrix reaching the goal (the coset of a linear-algebra solution by the kernel) was counted; the answer passed the independent checker"
            ));
        }
    }
    if let Some(producer) = producer {
        let t = Instant::now();
        r.certificates = Some(certify(p, &played, producer, pb, limits)?.into_iter().collect());
        r.seconds.certify = t.elapsed().as_secs_f64();
    }
    r.details = TilesDetails {
        kernel_size: p.kernel().size(),
        group_order: super::census::group_order(p.n),
        notes,
        ..TilesDetails::default()
    };
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(r)
}

/// `--certify`: the SAT refutation of fewer clicks than the optimum (or of
/// any click matrix, for an unreachable goal) on the play CNF of
/// `--encoding`, seeded with the known optimum: one UNSAT call, its proof
/// checked. None when the optimum is 0 (no fewer clicks to refute).
fn certify(
    p: &AlienTiles,
    played: &Played,
    producer: &Producer,
    pb: PbEncoding,
    limits: &Limits,
) -> anyhow::Result<Option<crate::certify::Certified>> {
    let (claim, bound) = match played {
        Played::Unreachable => (Claim::Infeasible, None),
        Played::Best { total: 0, .. } => return Ok(None),
        Played::Best { total, .. } => (Claim::Optimal, Some(*total as i64 - 1)),
    };
    let (cnf, _) = crate::run::encode_with_bound(p, bound, pb)?;
    let certified = certify_claim(claim, &cnf, producer, limits)
        .context("the row/column optimum could not be certified by SAT")?;
    Ok(Some(certified))
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
                            let x0 = Grid { n, cells: x0.unwrap() };
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
