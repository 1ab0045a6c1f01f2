//! Finding a square in two stages, under a restriction: `F − 1 = n·H + L`
//! where the base-`n` digit squares `H` and `L` are each *balanced* — every
//! row, column and main diagonal of each sums to `n(n−1)/2` — and
//! orthogonal (every pair of digits once). Any such pair gives a magic
//! square (each line sums to `n·n(n−1)/2 + n(n−1)/2 + n = S`); not every
//! magic square is of this form, so the method finds squares but never
//! counts or refutes them. It is the digit decomposition of the compact
//! order encoding (Tanjo, Tamura & Banbara, SAT 2011) split in the way the
//! orthogonal-Latin-square construction of magic squares splits it (Euler's
//! method), without asking the digit squares to be Latin.
//!
//! Stage 1 finds `H`: `n·n` digits, each digit `n` times, balanced lines.
//! Stage 2 finds `L` for that `H`: balanced lines, and on the `n` cells of
//! each high digit every low digit once. Each stage is a CNF of `n³` direct
//! literals instead of the `n⁴` of the one-shot encoding, and stage 2 is
//! tightly constrained once `H` is fixed. An `H` with no `L` found within
//! its conflict budget is blocked and stage 1 asked again; the budget
//! doubles at each attempt. Measured in docs/magic.md.

use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::amo::{self, AmoEncoding};
use puzzlesat_encodings::card::{self, CardEncoding};
use puzzlesat_encodings::int::{self, IntVar};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Unsatisfiable};
use rustsat::types::Lit;
use serde::{Deserialize, Serialize};

use super::reference::lines;
use super::{check, Square};
use crate::report::{Details, Report, Status, StoppedBy};
use crate::solver::{Limits, Outcome, Session, SolverKind};

/// Conflicts of the first stage-2 attempt (doubled at each attempt).
pub const FIRST_BUDGET: u64 = 2_000;

/// What the two-stage method did, beside the square.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwoStageDetails {
    /// the restriction the square satisfies
    pub restriction: String,
    /// high-digit squares tried (stage 1 answers)
    pub attempts: u64,
}

impl Details for TwoStageDetails {
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "method two-stage (finds, never counts): restriction {}; {} tried",
            self.restriction,
            crate::report::plural(self.attempts, "high-digit square", "high-digit squares")
        )]
    }
}

/// The restriction, as printed and recorded.
pub const RESTRICTION: &str =
    "balanced orthogonal digit squares (F-1 = n*H + L, every line of H and of L sums to n(n-1)/2)";

/// A digit square `0..n` on `n·n` cells with balanced lines: the direct
/// literals `[x_c = d]`. With `high`, the cells of each high digit take
/// every digit once (orthogonality to `high`); without, each digit is
/// taken by exactly `n` cells.
pub fn digit_square<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    high: Option<&[usize]>,
) -> anyhow::Result<Vec<Vec<Lit>>> {
    let mut xs: Vec<IntVar> = (0..n * n)
        .map(|_| IntVar::new(db, 0, n as i64 - 1))
        .collect::<Result<_, _>>()?;
    let direct: Vec<Vec<Lit>> = xs
        .iter_mut()
        .map(|x| (0..n as i64).map(|d| x.eq(db, d)).collect())
        .collect();
    let half = (n * (n - 1) / 2) as i64;
    for line in lines(n) {
        let terms: Vec<&IntVar> = line.iter().map(|&c| &xs[c]).collect();
        balanced_line(db, &terms, half, n as i64 - 1)?;
    }
    match high {
        None => {
            for d in 0..n {
                let lits: Vec<Lit> = direct.iter().map(|c| c[d]).collect();
                card::exactly(db, &lits, n, CardEncoding::Totalizer)?;
            }
        }
        Some(h) => {
            for hd in 0..n {
                let cells: Vec<&Vec<Lit>> = (0..n * n)
                    .filter(|&c| h[c] == hd)
                    .map(|c| &direct[c])
                    .collect();
                for d in 0..n {
                    let lits: Vec<Lit> = cells.iter().map(|c| c[d]).collect();
                    amo::exactly_one(db, &lits, AmoEncoding::Ladder)?;
                }
            }
        }
    }
    Ok(direct)
}

/// `Σ xs = target` for `xs` in `0..=max`: a balanced tree of unary adders
/// whose partial sums are cut to what the rest of the line can complete
/// (`int::plus_in`), and `x + y = target` at the root (linear in the
/// domain, where a full adder there would be quadratic).
fn balanced_line<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    target: i64,
    max: i64,
) -> Result<(), Unsatisfiable> {
    let len = xs.len() as i64;
    let partial = |db: &mut DB, part: &[&IntVar]| -> Result<IntVar, Unsatisfiable> {
        partial_line(db, part, len, target, max)
    };
    let half = xs.len() / 2;
    let x = partial(db, &xs[..half])?;
    let y = partial(db, &xs[half..])?;
    // x + y = target: [x ≥ i] → [y ≤ target − i], [x ≤ i − 1] → [y ≥ target − i + 1]
    for i in x.lb()..=x.ub() + 1 {
        db.add(&[!x.ge(i), !y.ge(target - i + 1)]);
        db.add(&[x.ge(i), y.ge(target - i + 1)]);
    }
    Ok(())
}

/// The partial sum of `xs`, part of a line of `len` terms in `0..=max`
/// summing to `target`: at least `target − (len − k)·max`, at most `target`.
fn partial_line<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[&IntVar],
    len: i64,
    target: i64,
    max: i64,
) -> Result<IntVar, Unsatisfiable> {
    let k = xs.len() as i64;
    let (lo, hi) = ((target - (len - k) * max).max(0), target.min(k * max));
    if xs.len() == 1 {
        xs[0].post_ge(db, lo);
        xs[0].post_le(db, hi);
        return Ok(xs[0].clone());
    }
    let half = xs.len() / 2;
    let x = partial_line(db, &xs[..half], len, target, max)?;
    let y = partial_line(db, &xs[half..], len, target, max)?;
    int::plus_in(db, &x, &y, lo, hi)
}

fn digits(direct: &[Vec<Lit>], a: &Assignment) -> Vec<usize> {
    direct
        .iter()
        .map(|ls| ls.iter().position(|&l| a.lit(l)).unwrap_or(usize::MAX))
        .collect()
}

/// Runs the two-stage search for an order-`n` square (no givens). `None`
/// when stage 1 runs out of high-digit squares: the restriction holds no
/// square (or the solver says so), which proves nothing about magic
/// squares — the caller falls back to the single CNF.
pub fn report(
    n: usize,
    solver: &SolverKind,
    seed: Option<u64>,
    limits: Limits,
    progress: &mut dyn std::io::Write,
) -> anyhow::Result<Option<Report<Square, TwoStageDetails>>> {
    if n < 3 {
        bail!("--method two-stage needs n ≥ 3 (n = {n}: use --method encoding)");
    }
    let started = Instant::now();
    let mut r: Report<Square, TwoStageDetails> = Report::new(
        format!("magic n={n} method=two-stage"),
        String::new(),
        "solutions",
    );
    r.seed = seed;
    r.details.restriction = RESTRICTION.to_string();
    let t = Instant::now();
    let mut high_cnf = Cnf::new();
    let high_lits = digit_square(&mut high_cnf, n, None)?;
    r.seconds.encode += t.elapsed().as_secs_f64();
    r.vars = high_cnf.n_vars() as _;
    r.clauses = high_cnf.len() as _;
    let t = Instant::now();
    let mut high = Session::new(solver, &high_cnf, limits.clone())?;
    if let Some(s) = seed {
        high.set_seed(s)?;
    }
    r.solver = high.solver_name();
    r.seconds.load += t.elapsed().as_secs_f64();
    let mut budget = FIRST_BUDGET;
    loop {
        let t = Instant::now();
        let outcome = high.solve(&[])?;
        r.sat_calls += 1;
        r.seconds.solve += t.elapsed().as_secs_f64();
        match outcome {
            Outcome::Sat => {}
            // the restriction is exhausted: no claim about magic squares
            Outcome::Unsat => return Ok(None),
            Outcome::Unknown => break,
        }
        r.sat_answers += 1;
        r.details.attempts += 1;
        let h = digits(&high_lits, &high.model()?);
        let t = Instant::now();
        let mut low_cnf = Cnf::new();
        let low_lits = digit_square(&mut low_cnf, n, Some(&h))?;
        r.seconds.encode += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut low = Session::new(
            solver,
            &low_cnf,
            Limits {
                conflicts: Some(budget),
                ..limits.clone()
            },
        )?;
        if let Some(s) = seed {
            low.set_seed(s.wrapping_add(r.details.attempts))?;
        }
        r.seconds.load += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let _ = writeln!(
            progress,
            "c two-stage: high-digit square {} found at {:.1} s; low digits within {budget} conflicts",
            r.details.attempts,
            started.elapsed().as_secs_f64()
        );
        let outcome = low.solve(&[])?;
        r.sat_calls += 1;
        r.seconds.solve += t.elapsed().as_secs_f64();
        r.stats = low.stats();
        if outcome == Outcome::Sat {
            r.sat_answers += 1;
            let t = Instant::now();
            let l = digits(&low_lits, &low.model()?);
            let cells = (0..n * n)
                .map(|c| (n * h[c] + l[c] + 1) as u32)
                .collect::<Vec<_>>();
            let square = Square {
                n,
                cells: cells.chunks(n).map(|row| row.to_vec()).collect(),
            };
            if let Err(e) = check::check_square(n, &square) {
                bail!(
                    "internal error: the two-stage method built an invalid square ({e}):\n{square}"
                );
            }
            r.vars = r.vars.max(low_cnf.n_vars() as _);
            r.clauses = r.clauses.max(low_cnf.len() as _);
            r.solutions.push(square);
            r.status = Status::Sat;
            r.seconds.decode_check += t.elapsed().as_secs_f64();
            break;
        }
        if limits.expired() {
            break;
        }
        // no low square for this H (within the budget): block H, try another
        let block: Vec<Lit> = high_lits.iter().zip(&h).map(|(c, &d)| !c[d]).collect();
        high.add(&block);
        budget = budget.saturating_mul(2);
    }
    if r.status == Status::Unknown {
        r.stopped_by = Some(
            if limits.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                StoppedBy::Interrupt
            } else {
                StoppedBy::Timeout
            },
        );
    }
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(Some(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_checked_squares_for_small_orders() {
        for n in 3..=8 {
            let r = report(
                n,
                &SolverKind::Batsat,
                None,
                Limits::default(),
                &mut std::io::sink(),
            )
            .unwrap()
            .unwrap();
            assert_eq!(r.status, Status::Sat, "n = {n}");
            check::check_square(n, &r.solutions[0]).unwrap();
        }
    }

    #[test]
    fn the_restriction_holds_for_every_found_square() {
        let r = report(
            6,
            &SolverKind::Batsat,
            Some(3),
            Limits::default(),
            &mut std::io::sink(),
        )
        .unwrap()
        .unwrap();
        let sq = &r.solutions[0];
        let n = 6;
        let cells: Vec<u32> = sq.cells.iter().flatten().copied().collect();
        for line in lines(n) {
            let high: u32 = line.iter().map(|&c| (cells[c] - 1) / n as u32).sum();
            let low: u32 = line.iter().map(|&c| (cells[c] - 1) % n as u32).sum();
            assert_eq!((high, low), (15, 15));
        }
    }
}
