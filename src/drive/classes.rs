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
//!
//! [`Tally::count`] is the one counting loop: the plain run's `--all` /
//! `--count` and every counting cube enumerate through it.

use std::time::{Duration, Instant};

use anyhow::bail;
use puzzlesat_encodings::solve::{enumerate_lazy, Enumeration, Session};
use puzzlesat_encodings::Assignment;
use rustsat::types::Lit;

use crate::puzzle::{decode_checked, Encoded, Puzzle};

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
    let images = p.images(&r);
    // the canonical representative is the least key among the images
    // `reps` keeps: only their keys are needed (a few of the group's)
    let mut itself = false;
    for s in images.iter().filter(|s| reps.keeps(s)) {
        let k = p.class_key(s);
        if k < rk {
            return Ok(None);
        }
        itself |= k == rk;
    }
    if !itself {
        bail!("internal error: a representative is not among the images of itself that the representatives keep");
    }
    // the members: the distinct images that `p` keeps, in key order
    let mut kept: Vec<(Vec<u8>, P::Solution)> = images
        .into_iter()
        .filter(|s| p.keeps(s))
        .map(|s| (p.class_key(&s), s))
        .collect();
    kept.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    kept.dedup_by(|a, b| a.0 == b.0);
    let mut members = Vec::with_capacity(kept.len());
    for (_, s) in kept {
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
    /// time spent decoding, checking and counting models (expanding
    /// included), in [`Tally::count`]
    pub decoding: Duration,
    /// time spent in the puzzle's lazy constraints, in [`Tally::count`]
    pub separating: Duration,
    /// models the lazy constraints rejected, in [`Tally::count`]
    pub rejected: u64,
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
            decoding: Duration::ZERO,
            separating: Duration::ZERO,
            rejected: 0,
        }
    }

    /// The counting loop: enumerates the models of `session` projected
    /// onto `enc.primary` under `assumptions` (at most `limit`), branching
    /// on `enc.decisions` where the puzzle names them, with the
    /// enumerated puzzle's lazy constraints and its check of partial
    /// assignments ([`Puzzle::partial_check`]); each model is decoded, passed
    /// through the independent checker and counted ([`Tally::add`]), then
    /// shown to `on_counted` (e.g. for a progress line). A model that fails
    /// its check is an error, and ends the enumeration.
    pub fn count(
        &mut self,
        session: &mut Session,
        enc: &Encoded<P::Map>,
        assumptions: &[Lit],
        limit: Option<u64>,
        mut on_counted: impl FnMut(&Self),
    ) -> anyhow::Result<Enumeration> {
        let p = self.enumerated;
        if !enc.decisions.is_empty() {
            // where the backend cannot, it branches on every variable
            let _ = session.set_decisions(&enc.decisions);
        }
        // the puzzle's reasoning on partial assignments, where it has some
        // (each call installs its own: the session may be reused)
        session.set_partial_check(p.partial_check(&enc.map));
        let mut err = None;
        // the two callbacks are called in turn, never at once
        let tally = std::cell::RefCell::new(self);
        let e = enumerate_lazy(
            session,
            &enc.primary,
            assumptions,
            limit,
            |m: &Assignment, db| {
                let t = Instant::now();
                let rejected = p.separate(&enc.map, m, db);
                let mut tally = tally.borrow_mut();
                tally.separating += t.elapsed();
                tally.rejected += u64::from(rejected);
                rejected
            },
            |m| {
                let mut tally = tally.borrow_mut();
                let t = Instant::now();
                let counted = decode_checked(p, enc, m).and_then(|s| tally.add(s));
                tally.decoding += t.elapsed();
                match counted {
                    Ok(()) => {
                        on_counted(&tally);
                        true
                    }
                    Err(e) => {
                        err = Some(e);
                        false
                    }
                }
            },
        )?;
        match err {
            Some(e) => Err(e),
            None => Ok(e),
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
