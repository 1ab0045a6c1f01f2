//! The census of `--hardest --all`: the optimal click matrices' symmetry
//! classes (canonical form: the lexicographically smallest image under the
//! 2·(n!)² symmetries of Gent, Linton & Smith), their goal states, and, for
//! small n, the totals over all matrices by listing each class's orbit, so
//! the numbers do not depend on the symmetry breaking used to enumerate.

use std::collections::HashSet;

use super::model::{self, Grid};
use super::symmetry;
use super::TilesSolution;

/// What `--all` found beyond the count: symmetry classes and goal states.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Census {
    /// optimal click matrices enumerated (with symmetry breaking, fewer
    /// than all)
    pub enumerated: usize,
    /// their classes under the 2·(n!)² symmetries, each as its canonical
    /// representative
    pub classes: Vec<Grid>,
    /// classes of the goal states reached (canonical goals)
    pub goal_classes: usize,
    /// all optimal click matrices: the union of the classes' orbits (None
    /// when n > [`ORBIT_LIMIT_N`])
    pub matrices: Option<usize>,
    /// distinct goal states of all optimal click matrices (same condition)
    pub goals: Option<usize>,
}

/// Orbits are listed (for the totals over all matrices) up to this n.
pub const ORBIT_LIMIT_N: usize = 5;

/// Counts classes by canonicalising every solution under the group (its
/// lexicographically smallest image, [`symmetry::canonical`]: for each
/// column permutation and transpose, sort the rows), goal classes the same
/// way (the goal map commutes with the symmetries), and, for small n, the
/// totals over all matrices by listing each class's orbit, so the numbers do
/// not depend on the symmetry breaking used to enumerate.
pub fn census(solutions: &[TilesSolution], c: u32) -> Census {
    let mut classes: Vec<Grid> = solutions
        .iter()
        .map(|s| symmetry::canonical(&s.clicks))
        .collect();
    classes.sort();
    classes.dedup();
    let goal_classes: HashSet<Grid> = classes
        .iter()
        .map(|g| symmetry::canonical(&model::effect(g, c)))
        .collect();
    let n = solutions.first().map_or(0, |s| s.clicks.n);
    let (matrices, goals) = if n <= ORBIT_LIMIT_N {
        let all: Vec<Grid> = classes.iter().flat_map(symmetry::orbit).collect();
        let goals: HashSet<Grid> = all.iter().map(|g| model::effect(g, c)).collect();
        (Some(all.len()), Some(goals.len()))
    } else {
        (None, None)
    };
    Census {
        enumerated: solutions.len(),
        classes,
        goal_classes: goal_classes.len(),
        matrices,
        goals,
    }
}

/// `2·(n!)²`, if it fits.
pub fn group_order(n: usize) -> Option<u64> {
    let f = (1..=n as u64).try_fold(1u64, |a, k| a.checked_mul(k))?;
    f.checked_mul(f)?.checked_mul(2)
}
