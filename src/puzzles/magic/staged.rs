//! Finding a square in stages, under a restriction: the digits of `F − 1`
//! for place values `n² = w₀ > w₁ > … > w_m = 1` (digit `i` of `v` is
//! `r_{i−1} div w_i`, with `r₀ = v`, `r_i = r_{i−1} mod w_i`; when each
//! place divides the one before, the mixed-radix digits) are digit squares
//! `D_i` that are each *balanced* — every row, column and main diagonal of
//! `D_i` sums to the same value, `Σ_v digit_i(v) / n` — and jointly
//! orthogonal: the cells that agree on `D_1 … D_{i−1}` take in `D_i` the
//! digits of the values with that prefix, each as often as those values
//! have it (so together the digits make every value of `F` once). Any such
//! digits give a magic square (each line sums to `Σ_v v / n + n = S`); not
//! every magic square is of this form, so the method finds squares but
//! never counts or refutes them.
//!
//! With places `(n, 1)` it is Euler's construction from two orthogonal
//! digit squares (`F − 1 = n·H + L`), without asking them to be Latin: the
//! digit split of the compact order encoding (Tanjo, Tamura & Banbara, SAT
//! 2011) staged as Euler's method stages it. Splitting each of them once
//! more (places `n·m, n, m, 1` with `m = ⌈√n⌉`, the default: radices about
//! `√n` instead of `n`, for every `n`, prime or not) makes every stage a
//! small problem.
//!
//! Stage `i` is a CNF over the direct literals of `D_i`, its line sums a
//! balanced tree of cut partial sums with a linear root. An answer of stage
//! `i` that its successors cannot extend within their conflict budget is
//! blocked and stage `i` asked again (at most [`TRIES_PER_STAGE`] times
//! below the first stage); the budget doubles at each failure of the last
//! stage. Measured in docs/magic.md.

use std::collections::HashMap;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::amo::{self, AmoEncoding};
use puzzlesat_encodings::card::{self, CardEncoding};
use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;
use serde::{Deserialize, Serialize};

use super::encode::cut_sum_eq;
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
    /// the place values of the digits of `F − 1`, most significant first
    /// (the last is 1)
    pub places: Vec<usize>,
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
pub fn restriction(places: &[usize]) -> String {
    let ws: Vec<String> = places.iter().map(usize::to_string).collect();
    format!(
        "balanced orthogonal digit squares, place values {} (every line of a digit square has the same sum)",
        ws.join(",")
    )
}

/// The default place values for order `n`: `(n·m, n, m, 1)` with
/// `m = ⌈√n⌉` — the high digit `v div n` split in two, and the low digit
/// `v mod n` too (radices `m, m, m, m` when `n = m²`); `(3, 1)` for
/// `n = 3`. The fastest of the splits measured in docs/magic.md.
pub fn default_places(n: usize) -> Vec<usize> {
    if n <= 3 {
        return vec![n, 1];
    }
    let m = (1..=n).find(|m| m * m >= n).unwrap_or(n);
    vec![n * m, n, m, 1]
}

/// One stage: the digit of every value, the classes (values sharing the
/// digits of the earlier stages) and how often each class holds each digit.
#[derive(Clone, Debug, PartialEq)]
struct Stage {
    radix: usize,
    /// every line's sum of the digit
    target: usize,
    /// the class of each prefix of earlier digits, numbered from 0
    class_of: HashMap<Vec<usize>, usize>,
    /// `counts[class][d]`: values of the class whose digit is `d`
    counts: Vec<Vec<usize>>,
}

/// The stages of `places` for order `n`, checked: places strictly
/// decreasing from below `n²` to 1, at least two stages, and every stage's
/// digit total divisible by `n` (so its lines can be balanced).
fn stages(n: usize, places: &[usize]) -> anyhow::Result<Vec<Stage>> {
    if n > 1000 {
        bail!("--places: n = {n} is over 1000");
    }
    let nn = n * n;
    if places.len() < 2 || places.last() != Some(&1) {
        bail!("--places needs at least two place values, the last one 1 (e.g. --places {n},1)");
    }
    if places[0] >= nn || places.windows(2).any(|w| w[0] <= w[1]) {
        bail!("--places must decrease strictly from below n² = {nn} to 1");
    }
    let mut rest: Vec<usize> = (0..nn).collect();
    let mut prefix: Vec<Vec<usize>> = vec![vec![]; nn];
    let mut out = vec![];
    for &w in places {
        let digit: Vec<usize> = rest.iter().map(|r| r / w).collect();
        let radix = digit.iter().max().map_or(1, |m| m + 1);
        let total: usize = digit.iter().sum();
        if total % n != 0 {
            bail!(
                "--places: the digit of place {w} totals {total} over 1..n², not a multiple of n = {n}: its lines cannot be balanced"
            );
        }
        let mut class_of: HashMap<Vec<usize>, usize> = HashMap::new();
        for p in &prefix {
            let next = class_of.len();
            class_of.entry(p.clone()).or_insert(next);
        }
        let mut counts = vec![vec![0; radix]; class_of.len()];
        for v in 0..nn {
            counts[class_of[&prefix[v]]][digit[v]] += 1;
        }
        out.push(Stage {
            radix,
            target: total / n,
            class_of,
            counts,
        });
        for v in 0..nn {
            prefix[v].push(digit[v]);
            rest[v] %= w;
        }
    }
    Ok(out)
}

/// Checks place values for order `n` (see [`stages`]).
pub fn check_places(n: usize, places: &[usize]) -> anyhow::Result<()> {
    stages(n, places).map(|_| ())
}

/// An upper estimate of the clauses of a stage of radix `r` for order `n`
/// (before anything is allocated): `2n + 2` line trees of at most about
/// `3n²r²/4` clauses each, plus the class counts (totalizers: at most
/// about `2n⁴` over the `r` values of a class of all `n²` cells; test
/// `estimates_bound_the_stages`).
pub fn estimated_clauses(n: usize, r: usize) -> u64 {
    let (n, r) = (n as u64, r as u64);
    let lines = (2 * n + 2)
        .saturating_mul(n * n)
        .saturating_mul(r * r)
        .saturating_mul(3)
        / 4;
    let counts = (n * n).saturating_mul(n * n).saturating_mul(2);
    lines.saturating_add(counts).saturating_add(8 * n * n * r)
}

/// A digit square with values `0..radix` on `n·n` cells, every line
/// summing to `target`, each class of cells (`classes[c]`) taking digit
/// `d` exactly `counts[class][d]` times: the direct literals `[D_c = d]`.
pub fn digit_square<DB: ClauseDatabase>(
    db: &mut DB,
    n: usize,
    radix: usize,
    target: usize,
    classes: &[usize],
    counts: &[Vec<usize>],
) -> anyhow::Result<Vec<Vec<Lit>>> {
    let mut xs: Vec<IntVar> = (0..n * n)
        .map(|_| IntVar::new(db, 0, radix as i64 - 1))
        .collect::<Result<_, _>>()?;
    let direct: Vec<Vec<Lit>> = xs
        .iter_mut()
        .map(|x| (0..radix as i64).map(|d| x.eq(db, d)).collect())
        .collect();
    // partial sums of k digits in 0..=max: at least what the other
    // len − k cannot exceed, at most the target
    let (len, target, max) = (n as i64, target as i64, radix as i64 - 1);
    let bounds = |k: i64| ((target - (len - k) * max).max(0), target.min(k * max));
    for line in lines(n) {
        let terms: Vec<&IntVar> = line.iter().map(|&c| &xs[c]).collect();
        cut_sum_eq(db, &terms, target, &bounds);
    }
    let mut members: Vec<Vec<usize>> = vec![vec![]; counts.len()];
    for (c, &k) in classes.iter().enumerate() {
        members[k].push(c);
    }
    for (cells, counts) in members.iter().zip(counts) {
        for (d, &count) in counts.iter().enumerate() {
            let lits: Vec<Lit> = cells.iter().map(|&c| direct[c][d]).collect();
            match count {
                0 => lits.iter().for_each(|&l| db.add(&[!l])),
                1 => amo::exactly_one(db, &lits, AmoEncoding::Ladder)?,
                _ => card::exactly(db, &lits, count, CardEncoding::Totalizer)?,
            }
        }
    }
    Ok(direct)
}

fn digits(direct: &[Vec<Lit>], a: &Assignment) -> Vec<usize> {
    direct
        .iter()
        .map(|ls| ls.iter().position(|&l| a.lit(l)).unwrap_or(usize::MAX))
        .collect()
}

/// The staged search, one stage per place value.
struct Search<'a> {
    n: usize,
    stages: Vec<Stage>,
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
    /// Stage `i` given each cell's digits so far; the digits of stages
    /// `i..` when found.
    fn stage(
        &mut self,
        i: usize,
        prefix: &[Vec<usize>],
    ) -> anyhow::Result<Option<Vec<Vec<usize>>>> {
        let n = self.n;
        let stage = &self.stages[i];
        // a cell's class: that of the values whose earlier digits it holds
        let classes: Vec<usize> = prefix.iter().map(|p| stage.class_of[p]).collect();
        let t = Instant::now();
        let mut cnf = Cnf::new();
        let lits = digit_square(
            &mut cnf,
            n,
            stage.radix,
            stage.target,
            &classes,
            &stage.counts,
        )?;
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
        let last = i + 1 == self.stages.len();
        let mut tries = 0;
        loop {
            let t = Instant::now();
            let outcome = session.solve(&[])?;
            self.report.sat_calls += 1;
            self.report.seconds.solve += t.elapsed().as_secs_f64();
            if outcome != Outcome::Sat {
                if last {
                    self.budget = self.budget.saturating_mul(2);
                }
                return Ok(None);
            }
            self.report.sat_answers += 1;
            self.report.details.attempts[i] += 1;
            let digits = digits(&lits, &session.model()?);
            if last {
                self.report.stats = session.stats();
                return Ok(Some(vec![digits]));
            }
            let _ = writeln!(
                self.progress,
                "c staged: digit square {} of stage {} at {:.1} s; stage {} within {} conflicts",
                self.report.details.attempts[i],
                i + 1,
                self.started.elapsed().as_secs_f64(),
                i + 2,
                self.budget
            );
            let longer: Vec<Vec<usize>> = prefix
                .iter()
                .zip(&digits)
                .map(|(p, &d)| p.iter().copied().chain([d]).collect())
                .collect();
            if let Some(mut rest) = self.stage(i + 1, &longer)? {
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
/// given place values (checked as [`check_places`] does). `None` when the
/// first stage runs out of digit squares: the restriction holds no square
/// (or the budgets found none), which proves nothing about magic squares —
/// the caller falls back to the single CNF.
pub fn report(
    n: usize,
    places: &[usize],
    solver: &SolverKind,
    seed: Option<u64>,
    limits: Limits,
    max_clauses: u64,
    progress: &mut dyn std::io::Write,
) -> anyhow::Result<Option<Report<Square, StagedDetails>>> {
    if n < 3 {
        bail!("--method staged needs n ≥ 3 (n = {n}: use --method encoding)");
    }
    if places.is_empty() {
        bail!("--places needs at least two place values, the last one 1");
    }
    // sizes before allocation: every stage's CNF, from its radix
    for w in places.windows(2) {
        let radix = w[0].div_ceil(w[1].max(1));
        let estimate = estimated_clauses(n, radix);
        if estimate > max_clauses {
            bail!(
                "magic n={n} method=staged: about {estimate} clauses estimated for a stage of radix {radix}, over the budget of {max_clauses} (--max-clauses raises it)"
            );
        }
    }
    let estimate = estimated_clauses(n, (n * n).div_ceil(places[0].max(1)));
    if estimate > max_clauses {
        bail!(
            "magic n={n} method=staged: about {estimate} clauses estimated for the first stage, over the budget of {max_clauses} (--max-clauses raises it)"
        );
    }
    let stages = stages(n, places)?;
    let started = Instant::now();
    let mut report: Report<Square, StagedDetails> = Report::new(
        format!("magic n={n} method=staged"),
        String::new(),
        "solutions",
    );
    report.seed = seed;
    report.details = StagedDetails {
        restriction: restriction(places),
        places: places.to_vec(),
        attempts: vec![0; places.len()],
    };
    let mut search = Search {
        n,
        stages,
        solver,
        seed,
        limits: limits.clone(),
        budget: FIRST_BUDGET,
        sessions: 0,
        started,
        report,
        progress,
    };
    let found = search.stage(0, &vec![vec![]; n * n])?;
    let mut r = search.report;
    match found {
        Some(ds) => {
            let t = Instant::now();
            let cells: Vec<u32> = (0..n * n)
                .map(|c| {
                    let v: usize = ds.iter().zip(places).map(|(d, &w)| d[c] * w).sum();
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

    fn find(n: usize, places: &[usize], seed: Option<u64>) -> Square {
        let r = report(
            n,
            places,
            &SolverKind::Batsat,
            seed,
            Limits::default(),
            u64::MAX,
            &mut std::io::sink(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.status, Status::Sat, "n = {n}, places {places:?}");
        check::check_square(n, &r.solutions[0]).unwrap();
        r.solutions[0].clone()
    }

    #[test]
    fn finds_checked_squares_for_small_orders() {
        for n in 3..=11 {
            find(n, &default_places(n), None);
        }
    }

    #[test]
    fn the_restriction_holds_for_every_found_square() {
        // radices 6·3·2 (places 6, 2, 1), and the uneven split of a prime
        // (7: places 7, 3, 1 — digits 0..2 of v mod 7 by 3, then the rest)
        for (n, places) in [(6, vec![6, 2, 1]), (7, vec![7, 3, 1])] {
            let sq = find(n, &places, Some(3));
            let cells: Vec<usize> = sq.cells.iter().flatten().map(|&v| v as usize - 1).collect();
            let mut rest = cells.clone();
            for &w in &places {
                let digit: Vec<usize> = rest.iter().map(|r| r / w).collect();
                let sums: Vec<usize> = lines(n)
                    .iter()
                    .map(|line| line.iter().map(|&c| digit[c]).sum())
                    .collect();
                assert!(sums.iter().all(|&s| s == sums[0]), "place {w}: {sums:?}");
                rest.iter_mut().for_each(|r| *r %= w);
            }
        }
    }

    #[test]
    fn places_are_checked() {
        assert_eq!(default_places(16), vec![64, 16, 4, 1]);
        assert_eq!(default_places(20), vec![100, 20, 5, 1]);
        assert_eq!(default_places(4), vec![8, 4, 2, 1]);
        assert_eq!(default_places(3), vec![3, 1]);
        assert_eq!(default_places(17), vec![85, 17, 5, 1]);
        for n in 3..=30 {
            check_places(n, &default_places(n)).unwrap();
        }
        assert!(check_places(6, &[6, 1]).is_ok());
        assert!(check_places(6, &[36, 1]).is_err()); // not below n²
        assert!(check_places(6, &[6]).is_err()); // one stage
        assert!(check_places(6, &[6, 2]).is_err()); // the last is not 1
        assert!(check_places(6, &[2, 6, 1]).is_err()); // not decreasing
        // v div 2 over 0..81 totals 1600, not a multiple of 9
        assert!(check_places(9, &[2, 1]).is_err());
        assert!(check_places(9, &[3, 1]).is_ok());
        assert!(check_places(9, &[27, 9, 3, 1]).is_ok());
    }

    #[test]
    fn estimates_bound_the_stages() {
        for n in 3..=16 {
            for places in [default_places(n), vec![n, 1]] {
                // cell v holds value v: its class is that of v's earlier digits
                let mut prefix: Vec<Vec<usize>> = vec![vec![]; n * n];
                let mut rest: Vec<usize> = (0..n * n).collect();
                for (stage, &w) in stages(n, &places).unwrap().iter().zip(&places) {
                    let classes: Vec<usize> = prefix.iter().map(|p| stage.class_of[p]).collect();
                    let mut cnf = Cnf::new();
                    digit_square(&mut cnf, n, stage.radix, stage.target, &classes, &stage.counts)
                        .unwrap();
                    let estimate = estimated_clauses(n, stage.radix);
                    assert!(
                        cnf.len() as u64 <= estimate,
                        "n = {n}, places {places:?}: {} clauses, estimate {estimate}",
                        cnf.len()
                    );
                    for (p, r) in prefix.iter_mut().zip(&mut rest) {
                        p.push(*r / w);
                        *r %= w;
                    }
                }
            }
        }
    }

    #[test]
    fn stages_count_each_class_digits() {
        // n = 3, places 3, 1: H = v div 3 (each digit 3 times), then L = v
        // mod 3 once per class of H
        let st = stages(3, &[3, 1]).unwrap();
        assert_eq!((st[0].radix, st[0].target), (3, 3));
        assert_eq!(st[0].counts, vec![vec![3, 3, 3]]);
        assert_eq!(st[1].counts, vec![vec![1, 1, 1]; 3]);
        // n = 5, places 5, 2, 1: the middle digit of v mod 5 is 0, 0, 1, 1,
        // 2 — class counts 2, 2, 1; its total 2·5·(0+0+1+1+2)... /5 = 4·…
        let st = stages(5, &[5, 2, 1]).unwrap();
        assert_eq!(st[1].counts, vec![vec![2, 2, 1]; 5]);
        assert_eq!(st[1].target, 4);
        assert_eq!(st[2].radix, 2);
    }
}
