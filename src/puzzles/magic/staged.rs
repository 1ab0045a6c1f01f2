//! Finding a square in stages, under a restriction: the mixed-radix digits
//! of `F − 1` (radices `r₁ … r_m`, `r₁⋯r_m = n²`, place values
//! `w_i = r_{i+1}⋯r_m`) are digit squares `D_i` that are each *balanced* —
//! every row, column and main diagonal of `D_i` sums to `n(r_i − 1)/2` — and
//! jointly orthogonal: within each class of cells that agree on
//! `D_1 … D_{i−1}`, `D_i` takes each of its values equally often (so the
//! last digit makes every value of `F` distinct). Any such digits give a
//! magic square (each line sums to `Σ w_i·n(r_i − 1)/2 + n = S`); not every
//! magic square is of this form, so the method finds squares but never
//! counts or refutes them.
//!
//! With radices `(n, n)` it is Euler's construction from two orthogonal
//! digit squares (`F − 1 = n·H + L`), without asking them to be Latin: the
//! digit split of the compact order encoding (Tanjo, Tamura & Banbara, SAT
//! 2011) staged as Euler's method stages it. Splitting each digit once more
//! (`n/k`, `n/k`, `k`, `k` for `n = k·(n/k)`, the default) makes every
//! stage a small problem: radices up to `√n`-ish instead of `n`, and the
//! last stage only permutes `k` values on classes of `k` cells.
//!
//! Stage `i` is a CNF over the direct literals of `D_i` (`n²·r_i`), its line
//! sums a balanced tree of cut partial sums with a linear root. An answer
//! of stage `i` that its successors cannot extend within their conflict
//! budget is blocked and stage `i` asked again (at most
//! [`TRIES_PER_STAGE`] times below the first stage); the budget doubles at
//! each failure of the last stage. Measured in docs/magic.md.

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

/// Conflicts of the first budgeted attempt (doubled at each failure of the
/// last stage).
pub const FIRST_BUDGET: u64 = 2_000;

/// Answers a stage below the first may give before its predecessor is
/// asked for another.
pub const TRIES_PER_STAGE: u64 = 4;

/// What the staged method did, beside the square.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagedDetails {
    /// the restriction the square satisfies
    pub restriction: String,
    /// the radices of the digits of `F − 1`, most significant first
    pub radices: Vec<usize>,
    /// answers of each stage (digit squares found)
    pub attempts: Vec<u64>,
}

impl Details for StagedDetails {
    fn lines(&self) -> Vec<String> {
        let tried: Vec<String> = self.attempts.iter().map(u64::to_string).collect();
        vec![format!(
            "method staged (finds, never counts): restriction {}; digit squares found per stage: {}",
            self.restriction,
            tried.join(", ")
        )]
    }
}

/// The restriction, as printed and recorded.
pub fn restriction(radices: &[usize]) -> String {
    let rs: Vec<String> = radices.iter().map(usize::to_string).collect();
    format!(
        "balanced orthogonal digit squares of radices {} (every line of a digit square of radix r sums to n(r-1)/2)",
        rs.join("·")
    )
}

/// The default radices for order `n`: `(n/k, n/k, k, k)` with `k` the
/// largest divisor of `n` up to `√n`, else `(n, n)` (`n` prime); the
/// fastest of the orders measured in docs/magic.md.
pub fn default_radices(n: usize) -> Vec<usize> {
    match (2..n).filter(|k| n % k == 0 && k * k <= n).max() {
        Some(k) => vec![n / k, n / k, k, k],
        None => vec![n, n],
    }
}

/// Checks radices for order `n`: each at least 2, product `n²`, and every
/// balanced line sum `n(r − 1)/2` an integer.
pub fn check_radices(n: usize, radices: &[usize]) -> anyhow::Result<()> {
    let n = n.min(1 << 20);
    if radices.len() < 2 || radices.iter().any(|&r| r < 2) {
        bail!("--radices needs at least two radices, each at least 2");
    }
    let product = radices
        .iter()
        .try_fold(1usize, |p, &r| p.checked_mul(r))
        .filter(|&p| p == n * n);
    if product.is_none() {
        bail!("--radices must multiply to n² = {}", n * n);
    }
    if let Some(r) = radices.iter().find(|&&r| n * (r - 1) % 2 == 1) {
        bail!("--radices: a digit of radix {r} cannot have balanced lines for odd n = {n} (n(r-1)/2 is not an integer): use odd radices");
    }
    Ok(())
}

/// An upper estimate of the clauses of a stage of radix `r` for order `n`
/// (before anything is allocated): `2n + 2` line trees of about
/// `n²r²/2` clauses each, plus the class counts.
pub fn estimated_clauses(n: usize, r: usize) -> u64 {
    let (n, r) = (n as u64, r as u64);
    (2 * n + 2)
        .saturating_mul(n * n)
        .saturating_mul(r * r)
        / 2
        + 8 * n * n * r
}

/// A digit square with values `0..radix` on `n·n` cells, balanced lines
/// (each sums to `n(radix − 1)/2`), taking each value `per` times within
/// each class of cells (`classes[c]`, numbered from 0): the direct literals
/// `[D_c = d]`.
pub fn digit_square<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    radix: usize,
    classes: &[usize],
    per: usize,
) -> anyhow::Result<Vec<Vec<Lit>>> {
    let mut xs: Vec<IntVar> = (0..n * n)
        .map(|_| IntVar::new(db, 0, radix as i64 - 1))
        .collect::<Result<_, _>>()?;
    let direct: Vec<Vec<Lit>> = xs
        .iter_mut()
        .map(|x| (0..radix as i64).map(|d| x.eq(db, d)).collect())
        .collect();
    let half = (n * (radix - 1) / 2) as i64;
    for line in lines(n) {
        let terms: Vec<&IntVar> = line.iter().map(|&c| &xs[c]).collect();
        balanced_line(db, &terms, half, radix as i64 - 1)?;
    }
    let mut members: Vec<Vec<usize>> = vec![];
    for (c, &k) in classes.iter().enumerate() {
        if members.len() <= k {
            members.resize(k + 1, vec![]);
        }
        members[k].push(c);
    }
    for cells in &members {
        for d in 0..radix {
            let lits: Vec<Lit> = cells.iter().map(|&c| direct[c][d]).collect();
            if per == 1 {
                amo::exactly_one(db, &lits, AmoEncoding::Ladder)?;
            } else {
                card::exactly(db, &lits, per, CardEncoding::Totalizer)?;
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

/// The staged search, one stage per radix.
struct Search<'a> {
    n: usize,
    radices: &'a [usize],
    solver: &'a SolverKind,
    seed: Option<u64>,
    limits: Limits,
    budget: u64,
    sessions: u64,
    started: Instant,
    report: Report<Square, StagedDetails>,
    progress: &'a mut dyn std::io::Write,
}

impl Search<'_> {
    /// Stage `i` for the cells' classes so far; the digits of stages
    /// `i..` when found.
    fn stage(&mut self, i: usize, classes: &[usize]) -> anyhow::Result<Option<Vec<Vec<usize>>>> {
        let (n, radix) = (self.n, self.radices[i]);
        let class_size = n * n / (classes.iter().max().map_or(0, |m| m + 1)).max(1);
        let t = Instant::now();
        let mut cnf = Cnf::new();
        let lits = digit_square(&mut cnf, n, radix, classes, class_size / radix)?;
        self.report.seconds.encode += t.elapsed().as_secs_f64();
        self.report.vars = self.report.vars.max(cnf.n_vars() as _);
        self.report.clauses = self.report.clauses.max(cnf.len() as _);
        let t = Instant::now();
        let limits = if i == 0 {
            self.limits.clone()
        } else {
            Limits {
                conflicts: Some(self.budget),
                ..self.limits.clone()
            }
        };
        let mut session = Session::new(self.solver, &cnf, limits)?;
        if let Some(s) = self.seed {
            session.set_seed(s.wrapping_add(self.sessions))?;
        }
        self.sessions += 1;
        self.report.solver = session.solver_name();
        self.report.seconds.load += t.elapsed().as_secs_f64();
        let mut tries = 0;
        loop {
            let t = Instant::now();
            let outcome = session.solve(&[])?;
            self.report.sat_calls += 1;
            self.report.seconds.solve += t.elapsed().as_secs_f64();
            if outcome != Outcome::Sat {
                if i + 1 == self.radices.len() {
                    self.budget = self.budget.saturating_mul(2);
                }
                return Ok(None);
            }
            self.report.sat_answers += 1;
            self.report.details.attempts[i] += 1;
            let digits = digits(&lits, &session.model()?);
            if i + 1 == self.radices.len() {
                self.report.stats = session.stats();
                return Ok(Some(vec![digits]));
            }
            let _ = writeln!(
                self.progress,
                "c staged: digit square {} of stage {} (radix {radix}) at {:.1} s; stage {} within {} conflicts",
                self.report.details.attempts[i],
                i + 1,
                self.started.elapsed().as_secs_f64(),
                i + 2,
                self.budget
            );
            let finer: Vec<usize> = classes
                .iter()
                .zip(&digits)
                .map(|(&k, &d)| k * radix + d)
                .collect();
            if let Some(mut rest) = self.stage(i + 1, &finer)? {
                rest.insert(0, digits);
                return Ok(Some(rest));
            }
            tries += 1;
            if self.limits.expired() || (i > 0 && tries >= TRIES_PER_STAGE) {
                return Ok(None);
            }
            // no extension (within the budget): block this digit square
            let block: Vec<Lit> = lits.iter().zip(&digits).map(|(c, &d)| !c[d]).collect();
            session.add(&block);
        }
    }
}

/// Runs the staged search for an order-`n` square (no givens) with the
/// given radices (checked by [`check_radices`]). `None` when the first
/// stage runs out of digit squares: the restriction holds no square (or
/// the budgets found none), which proves nothing about magic squares — the
/// caller falls back to the single CNF.
pub fn report(
    n: usize,
    radices: &[usize],
    solver: &SolverKind,
    seed: Option<u64>,
    limits: Limits,
    max_clauses: u64,
    progress: &mut dyn std::io::Write,
) -> anyhow::Result<Option<Report<Square, StagedDetails>>> {
    if n < 3 {
        bail!("--method staged needs n ≥ 3 (n = {n}: use --method encoding)");
    }
    check_radices(n, radices)?;
    let largest = radices.iter().map(|&r| estimated_clauses(n, r)).max().unwrap_or(0);
    if largest > max_clauses {
        bail!(
            "magic n={n} method=staged: about {largest} clauses estimated for the largest stage, over the budget of {max_clauses} (--max-clauses raises it)"
        );
    }
    let started = Instant::now();
    let mut report: Report<Square, StagedDetails> = Report::new(
        format!("magic n={n} method=staged"),
        String::new(),
        "solutions",
    );
    report.seed = seed;
    report.details = StagedDetails {
        restriction: restriction(radices),
        radices: radices.to_vec(),
        attempts: vec![0; radices.len()],
    };
    let mut search = Search {
        n,
        radices,
        solver,
        seed,
        limits: limits.clone(),
        budget: FIRST_BUDGET,
        sessions: 0,
        started,
        report,
        progress,
    };
    let found = search.stage(0, &vec![0; n * n])?;
    let mut r = search.report;
    match found {
        Some(ds) => {
            let t = Instant::now();
            let cells: Vec<u32> = (0..n * n)
                .map(|c| {
                    let v = ds.iter().zip(radices).fold(0, |v, (d, &r)| v * r + d[c]);
                    (v + 1) as u32
                })
                .collect();
            let square = Square {
                n,
                cells: cells.chunks(n).map(|row| row.to_vec()).collect(),
            };
            if let Err(e) = check::check_square(n, &square) {
                bail!("internal error: the staged method built an invalid square ({e}):\n{square}");
            }
            r.solutions.push(square);
            r.status = Status::Sat;
            r.seconds.decode_check += t.elapsed().as_secs_f64();
        }
        None if !limits.expired() => return Ok(None),
        None => {
            r.stopped_by = Some(
                if limits.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                    StoppedBy::Interrupt
                } else {
                    StoppedBy::Timeout
                },
            );
        }
    }
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(Some(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(n: usize, radices: &[usize], seed: Option<u64>) -> Square {
        let r = report(
            n,
            radices,
            &SolverKind::Batsat,
            seed,
            Limits::default(),
            u64::MAX,
            &mut std::io::sink(),
        )
            .unwrap()
            .unwrap();
        assert_eq!(r.status, Status::Sat, "n = {n}, radices {radices:?}");
        check::check_square(n, &r.solutions[0]).unwrap();
        r.solutions[0].clone()
    }

    #[test]
    fn finds_checked_squares_for_small_orders() {
        for n in 3..=9 {
            find(n, &default_radices(n), None);
        }
    }

    #[test]
    fn the_restriction_holds_for_every_found_square() {
        // digits of F − 1 in radices 6·3·2: each digit square balanced
        let (n, radices) = (6, [6, 3, 2]);
        let sq = find(n, &radices, Some(3));
        let cells: Vec<usize> = sq.cells.iter().flatten().map(|&v| v as usize - 1).collect();
        let mut place = 1;
        for &r in radices.iter().rev() {
            for line in lines(n) {
                let sum: usize = line.iter().map(|&c| cells[c] / place % r).sum();
                assert_eq!(sum, n * (r - 1) / 2, "radix {r}");
            }
            place *= r;
        }
    }

    #[test]
    fn radices_are_checked() {
        assert_eq!(default_radices(16), vec![4, 4, 4, 4]);
        assert_eq!(default_radices(20), vec![5, 5, 4, 4]);
        assert_eq!(default_radices(4), vec![2, 2, 2, 2]);
        assert_eq!(default_radices(13), vec![13, 13]);
        assert!(check_radices(6, &[6, 6]).is_ok());
        assert!(check_radices(6, &[6, 5]).is_err()); // product
        assert!(check_radices(5, &[25, 1]).is_err()); // radix 1
        assert!(check_radices(9, &[9, 3, 3]).is_ok());
        assert!(check_radices(15, &[15, 5, 3]).is_ok());
        assert!(check_radices(5, &[5, 5]).is_ok());
        assert!(check_radices(3, &[9]).is_err()); // one radix
        // odd n needs odd radices: 9·(2 − 1)/2 is not an integer
        assert!(check_radices(9, &[9, 9]).is_ok());
        assert!(check_radices(6, &[4, 9]).is_ok());
        assert!(check_radices(3, &[9, 1]).is_err());
    }
}
