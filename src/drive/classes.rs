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

use anyhow::bail;

use crate::puzzle::Puzzle;

/// Representatives expanded into classes and solutions.
#[derive(Debug)]
pub struct Expansion<S> {
    /// symmetry classes (orbits) with at least one representative
    pub classes: u64,
    /// every member of those orbits that the instance keeps, checked
    pub solutions: Vec<S>,
}

/// A solution's key: its serialised form (a total order on solutions of
/// any puzzle, used to pick a canonical member and to drop repeats).
fn key<S: serde::Serialize>(s: &S) -> String {
    serde_json::to_string(s).expect("solutions serialise")
}

/// Expands `found`, the solutions of `reps` (the representative puzzle of
/// `p`), into `p`'s classes and solutions.
pub fn expand<P: Puzzle>(
    p: &P,
    reps: &P,
    found: Vec<P::Solution>,
) -> anyhow::Result<Expansion<P::Solution>> {
    let mut out = Expansion {
        classes: 0,
        solutions: vec![],
    };
    for r in found {
        let rk = key(&r);
        let mut orbit: BTreeMap<String, P::Solution> =
            p.images(&r).into_iter().map(|s| (key(&s), s)).collect();
        let canonical = orbit
            .iter()
            .find(|(_, s)| reps.keeps(s))
            .map(|(k, _)| k.clone());
        if !orbit.contains_key(&rk) {
            bail!("internal error: the images of a solution do not include itself");
        }
        if canonical.as_ref() != Some(&rk) {
            continue; // the class is counted from its canonical representative
        }
        out.classes += 1;
        for (_, s) in std::mem::take(&mut orbit) {
            if !p.keeps(&s) {
                continue;
            }
            if let Err(e) = p.check(&s) {
                bail!(
                    "internal error: a symmetric image of a solution is invalid ({e}):\n{}",
                    p.render(&s)
                );
            }
            out.solutions.push(s);
        }
    }
    Ok(out)
}
