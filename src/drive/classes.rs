//! Counting by symmetry classes, written once for every puzzle with a
//! group ([`Puzzle::images`]). The solver enumerates a *representative*
//! puzzle ([`Puzzle::class_representatives`]) whose solutions contain at
//! least one member of every class — typically the instance plus cheap
//! symmetry-breaking clauses — and each representative is expanded into
//! its orbit: the distinct images under the group. The orbit's size is the
//! group order over the stabiliser, never assumed to be the group order
//! (the action need not be free: the Lo Shu is its own complement's half
//! turn). A class is counted once, from its canonical representative: the
//! smallest (by its serialised form) member of the orbit that the
//! representative puzzle keeps ([`Puzzle::keeps`]). Of each orbit the
//! members that the instance itself keeps (its own symmetry breaking) are
//! the instance's solutions, each passed through the independent checker.
//!
//! The result is the same set of solutions as plain enumeration (the tests
//! compare both); "exactly N" rests on the representatives' final UNSAT.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::puzzle::Puzzle;

/// Expands `r`, a solution of `reps` (the representative puzzle of `p`):
/// None if `r` is not its class's canonical representative (the class is
/// counted from that one), else every member of its class that `p` keeps,
/// each passed through `p`'s checker.
pub fn expand_one<P: Puzzle>(
    p: &P,
    reps: &P,
    r: P::Solution,
) -> anyhow::Result<Option<Vec<P::Solution>>> {
    let rk = p.class_key(&r);
    let orbit: BTreeMap<Vec<u8>, P::Solution> = p
        .images(&r)
        .into_iter()
        .map(|s| (p.class_key(&s), s))
        .collect();
    if !orbit.contains_key(&rk) {
        bail!("internal error: the images of a solution do not include itself");
    }
    let canonical = orbit.iter().find(|(_, s)| reps.keeps(s)).map(|(k, _)| k);
    if canonical != Some(&rk) {
        return Ok(None);
    }
    let mut members = vec![];
    for (_, s) in orbit {
        if !p.keeps(&s) {
            continue;
        }
        if let Err(e) = p.check(&s) {
            bail!(
                "internal error: a symmetric image of a solution is invalid ({e}):\n{}",
                p.render(&s)
            );
        }
        members.push(s);
    }
    Ok(Some(members))
}

/// Solutions counted as they are found: each solution of the enumerated
/// puzzle, expanded into its class of `classes_of`'s solutions when
/// counting by classes ([`expand_one`]), kept only when asked (`--all`, not
/// `--count`).
pub struct Tally<'a, P: Puzzle> {
    /// the enumerated puzzle (the representatives when counting by classes)
    enumerated: &'a P,
    /// the whole puzzle, when counting by classes
    classes_of: Option<&'a P>,
    keep: bool,
    /// solutions of the whole puzzle counted
    pub solutions: u64,
    /// classes counted (with `classes_of`)
    pub classes: u64,
    /// the solutions, when kept
    pub found: Vec<P::Solution>,
    /// time spent expanding classes
    pub expanding: Duration,
}

impl<'a, P: Puzzle> Tally<'a, P> {
    /// An empty tally of `enumerated`'s solutions (with `classes_of`: its
    /// representatives' classes).
    pub fn new(enumerated: &'a P, classes_of: Option<&'a P>, keep: bool) -> Self {
        Tally {
            enumerated,
            classes_of,
            keep,
            solutions: 0,
            classes: 0,
            found: vec![],
            expanding: Duration::ZERO,
        }
    }
    /// Counts one solution of the enumerated puzzle (checked already).
    pub fn add(&mut self, sol: P::Solution) -> anyhow::Result<()> {
        let Some(whole) = self.classes_of else {
            self.solutions += 1;
            if self.keep {
                self.found.push(sol);
            }
            return Ok(());
        };
        let t = Instant::now();
        let members = expand_one(whole, self.enumerated, sol);
        self.expanding += t.elapsed();
        if let Some(members) = members? {
            self.classes += 1;
            self.solutions += members.len() as u64;
            if self.keep {
                self.found.extend(members);
            }
        }
        Ok(())
    }
    /// The class count, when counting by classes.
    pub fn classes(&self) -> Option<u64> {
        self.classes_of.map(|_| self.classes)
    }
}
