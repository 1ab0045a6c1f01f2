//! `--method reference`: the structured solver, no SAT. Csenki's
//! enumeration of the partitions of n without a part 1 (A. Csenki, "Enigma
//! 1225: Prolog-assisted solution of a puzzle using discrete mathematics",
//! 2006), as a depth-first search over non-decreasing parts, pruned by an
//! upper bound on every completion of a partial partition, with each
//! complete partition scored by Algorithm 1 of Cambazard, O'Sullivan &
//! Smith on its canonical permutation plus the distinct-rows check.
//!
//! The bound (this crate's; the paper's is n²·UBNVAL): write the total as
//! n² + Σ over pairs of orbits of the larger size, equivalently
//! Σₖ (n² − s₁ − … − sₖ) over the orbit sizes sorted ascending. With the
//! parts chosen so far known exactly, the orbits among them are known; every
//! orbit touching a later part b ≥ m has size ≥ 2m, except one orbit of size
//! b per odd later part. That caps the number of further orbits and bounds
//! the prefix sums from below, hence the total from above (splitting an
//! orbit never lowers the total, so the cap may be reached by imaginary
//! orbits of the smallest sizes).

use std::time::Instant;

use super::model::{
    best_for_cycle_type, count_partitions_without_ones, optimal_board, orbit_sizes, score_of_sizes,
    Board, Derangement,
};
use super::{EnigmaDetails, EnigmaSolution, Method};
use crate::report::{Report, Status};

/// What the reference search found.
#[derive(Clone, Debug)]
pub struct ReferenceResult {
    /// board side
    pub n: usize,
    /// the optimum and its partition (None: no cycle type admits a board)
    pub best: Option<(u64, Vec<usize>, Board)>,
    /// complete partitions scored by Algorithm 1
    pub explored: u64,
    /// partitions of n without a 1
    pub total_partitions: u128,
    /// wall time
    pub seconds: f64,
}

struct Search {
    n: usize,
    cells: u64,
    best: Option<(u64, Vec<usize>)>,
    explored: u64,
}

impl Search {
    /// Upper bound on the total of every partition extending `parts` (sum
    /// n − r) with further parts ≥ m summing to r.
    fn bound(&self, parts: &[usize], r: usize, m: usize) -> u64 {
        let known = orbit_sizes(parts);
        if r == 0 {
            return score_of_sizes(&known);
        }
        let new_cells = (self.n * self.n - (self.n - r) * (self.n - r)) as u64;
        let odd_min = if m % 2 == 1 { m } else { m + 1 } as u64;
        let odd_max_count = (r as u64) / odd_min;
        let two_m = 2 * m as u64;
        let further = odd_max_count + new_cells.saturating_sub(odd_max_count * odd_min) / two_m;
        // lower bounds on the sizes, merged with the known sizes
        let mut lows: Vec<u64> = known.iter().map(|&s| s as u64).collect();
        lows.extend(std::iter::repeat_n(odd_min, odd_max_count as usize));
        lows.extend(std::iter::repeat_n(
            two_m,
            (further - odd_max_count) as usize,
        ));
        lows.sort_unstable();
        let mut prefix = 0u64;
        let mut total = 0u64;
        for s in lows {
            if prefix >= self.cells {
                break;
            }
            total += self.cells - prefix;
            prefix += s;
        }
        total
    }

    fn go(&mut self, parts: &mut Vec<usize>, r: usize, m: usize) {
        if r == 0 {
            self.explored += 1;
            let score = score_of_sizes(&orbit_sizes(parts));
            if self.best.as_ref().is_none_or(|(b, _)| score > *b) {
                // Algorithm 1 on the canonical permutation, with Rule 1
                if let Some((total, _)) = best_for_cycle_type(parts) {
                    debug_assert_eq!(total, score);
                    self.best = Some((total, parts.clone()));
                }
            }
            return;
        }
        for part in m..=r {
            if r - part != 0 && r - part < part {
                continue; // the rest could not hold a part ≥ this one
            }
            parts.push(part);
            let prune = self
                .best
                .as_ref()
                .is_some_and(|(b, _)| self.bound(parts, r - part, part) <= *b);
            if !prune {
                self.go(parts, r - part, part);
            }
            parts.pop();
        }
    }
}

/// Solves the n×n puzzle by the structured search.
pub fn solve_reference(n: usize) -> ReferenceResult {
    let t = Instant::now();
    let mut s = Search {
        n,
        cells: (n * n) as u64,
        best: None,
        explored: 0,
    };
    if n >= 2 {
        s.go(&mut vec![], n, 2);
    }
    let best = s.best.map(|(total, parts)| {
        let board = optimal_board(&Derangement::canonical(&parts));
        (total, parts, board)
    });
    ReferenceResult {
        n,
        best,
        explored: s.explored,
        total_partitions: count_partitions_without_ones(n),
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// The exhaustive version (every partition scored, no bound): the
/// cross-check of the pruned search.
pub fn solve_exhaustive(n: usize) -> Option<(u64, Vec<usize>)> {
    let mut best: Option<(u64, Vec<usize>)> = None;
    for parts in super::model::partitions_without_ones(n) {
        if let Some((t, _)) = best_for_cycle_type(&parts) {
            if best.as_ref().is_none_or(|(b, _)| t > *b) {
                best = Some((t, parts));
            }
        }
    }
    best
}

/// The reference search as a [`Report`] like every other method's (no SAT:
/// solver `none`, its search time under `seconds.solve`); the board is
/// checked by the rules.
pub fn report(n: usize) -> anyhow::Result<Report<EnigmaSolution, EnigmaDetails>> {
    let t = Instant::now();
    let r = solve_reference(n);
    let mut report = Report::new(
        format!("enigma n={n} method=reference"),
        crate::report::NO_SAT.into(),
        "solutions",
    );
    report.seconds.solve = r.seconds;
    report.status = if r.best.is_some() {
        Status::Optimal
    } else {
        Status::Unsat
    };
    if let Some((total, parts, board)) = r.best {
        let sol = EnigmaSolution::new(&board, &Derangement::canonical(&parts));
        if let Err(e) = sol.check() {
            anyhow::bail!(
                "internal error: the reference search produced an invalid board ({e}):\n{}",
                sol.render()
            );
        }
        report.objective = Some(total as i64);
        report.bound = Some(total as i64);
        report.solutions.push(sol);
    }
    report.details = EnigmaDetails::of(n, Method::Reference, &report, Some(r.explored));
    report.seconds.decode_check = (t.elapsed().as_secs_f64() - r.seconds).max(0.0);
    report.seconds.close(t.elapsed().as_secs_f64());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruned_equals_exhaustive() {
        for n in 1..=22 {
            let r = solve_reference(n);
            let e = solve_exhaustive(n);
            assert_eq!(r.best.map(|(t, p, _)| (t, p)), e, "n = {n}");
        }
    }

    #[test]
    fn bound_is_valid_for_every_partial_partition() {
        for n in 2..=16 {
            let s = Search {
                n,
                cells: (n * n) as u64,
                best: None,
                explored: 0,
            };
            for parts in super::super::model::partitions_without_ones(n) {
                let exact = score_of_sizes(&orbit_sizes(&parts));
                for cut in 0..parts.len() {
                    let prefix = &parts[..cut];
                    let r: usize = parts[cut..].iter().sum();
                    let m = if cut == 0 { 2 } else { parts[cut - 1] };
                    assert!(s.bound(prefix, r, m) >= exact, "n={n} {parts:?} cut {cut}");
                }
            }
        }
    }
}
