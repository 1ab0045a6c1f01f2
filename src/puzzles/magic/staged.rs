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
//! balanced tree of cut partial sums with a linear root. The stages are data
//! ([`StagedMagic`] implements [`Staged`]): the staged driver
//! (`crate::drive::staged`) solves them, blocking an answer of stage `i`
//! that its successors cannot extend within their conflict budget. Measured
//! in docs/magic.md.

use std::collections::HashMap;

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
use crate::puzzle::Staged;
use crate::report::Details;

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

/// An order-`n` square (no givens) found in stages, one per place value.
#[derive(Clone, Debug)]
pub struct StagedMagic {
    n: usize,
    places: Vec<usize>,
    stages: Vec<Stage>,
}

impl StagedMagic {
    /// The staged search for order `n` with the given place values (checked
    /// as [`check_places`] does), every stage's CNF estimated against
    /// `max_clauses` before anything is allocated.
    pub fn new(n: usize, places: &[usize], max_clauses: u64) -> anyhow::Result<Self> {
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
        Ok(StagedMagic {
            n,
            places: places.to_vec(),
            stages: stages(n, places)?,
        })
    }
}

impl Staged for StagedMagic {
    /// each cell's digit
    type Answer = Vec<usize>;
    /// the direct literals `[D_c = d]`
    type Map = Vec<Vec<Lit>>;
    type Solution = Square;
    type Details = StagedDetails;

    fn describe(&self) -> String {
        format!("magic n={} method=staged", self.n)
    }
    fn stages(&self) -> usize {
        self.stages.len()
    }
    fn answer_noun(&self) -> &'static str {
        "digit square"
    }
    fn encode_stage(
        &self,
        i: usize,
        earlier: &[Vec<usize>],
        cnf: &mut Cnf,
    ) -> anyhow::Result<Vec<Vec<Lit>>> {
        let stage = &self.stages[i];
        // a cell's class: that of the values whose earlier digits it holds
        let classes: Vec<usize> = (0..self.n * self.n)
            .map(|c| {
                let prefix: Vec<usize> = earlier.iter().map(|d| d[c]).collect();
                stage.class_of[&prefix]
            })
            .collect();
        digit_square(
            cnf,
            self.n,
            stage.radix,
            stage.target,
            &classes,
            &stage.counts,
        )
    }
    fn read(&self, _i: usize, direct: &Vec<Vec<Lit>>, model: &Assignment) -> Vec<usize> {
        digits(direct, model)
    }
    fn block(&self, _i: usize, direct: &Vec<Vec<Lit>>, digits: &Vec<usize>) -> Vec<Lit> {
        direct.iter().zip(digits).map(|(c, &d)| !c[d]).collect()
    }
    fn solution(&self, answers: &[Vec<usize>]) -> anyhow::Result<Square> {
        let n = self.n;
        let cells: Vec<u32> = (0..n * n)
            .map(|c| {
                let v: usize = answers
                    .iter()
                    .zip(&self.places)
                    .map(|(d, &w)| d[c] * w)
                    .sum();
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
        Ok(square)
    }
    fn details(&self, answers_per_stage: &[u64]) -> StagedDetails {
        StagedDetails {
            restriction: restriction(&self.places),
            places: self.places.clone(),
            attempts: answers_per_stage.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    digit_square(
                        &mut cnf,
                        n,
                        stage.radix,
                        stage.target,
                        &classes,
                        &stage.counts,
                    )
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
