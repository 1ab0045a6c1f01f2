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
