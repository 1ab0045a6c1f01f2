//! The symmetries of the board: row permutations × column permutations ×
//! transpose, a group of order `2·(n!)²` (1152 for n = 4) acting on the
//! cells; it maps click matrices minimal for their goal to click matrices
//! minimal for theirs, with the same number of clicks (Gent, Linton & Smith,
//! APES-22-2000, section 4).
//!
//! [`canonical`] picks one representative per orbit without listing the
//! group: for a fixed column permutation (and transpose or not), the
//! row-major lexicographically smallest image under row permutations is the
//! one with its rows sorted, so the orbit's minimum is the smallest of
//! `2·n!` sorted images.

use std::fmt;
use std::str::FromStr;

use super::model::Grid;

/// How symmetry is broken (`--symmetry`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// no symmetry-breaking clauses
    #[default]
    None,
}

impl Symmetry {
    /// Every variant.
    pub const ALL: [Symmetry; 1] = [Symmetry::None];
    /// The option name.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|e| e.name()).collect();
                format!(
                    "unknown symmetry breaking '{s}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Calls `f` on every permutation of `0..n` (Heap's algorithm).
fn for_each_permutation(n: usize, mut f: impl FnMut(&[usize])) {
    let mut p: Vec<usize> = (0..n).collect();
    let mut c = vec![0; n];
    f(&p);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            p.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            f(&p);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The transpose of a grid.
pub fn transpose(g: &Grid) -> Grid {
    let n = g.n;
    Grid {
        n,
        cells: (0..n * n).map(|p| g.at(p % n, p / n)).collect(),
    }
}

/// The lexicographically smallest (row-major) image of `g` under the group.
pub fn canonical(g: &Grid) -> Grid {
    let n = g.n;
    let mut best: Option<Vec<u32>> = None;
    for t in [g.clone(), transpose(g)] {
        for_each_permutation(n, |cols| {
            let mut rows: Vec<Vec<u32>> = (0..n)
                .map(|i| cols.iter().map(|&j| t.at(i, j)).collect())
                .collect();
            rows.sort();
            let flat: Vec<u32> = rows.concat();
            if best.as_ref().is_none_or(|b| flat < *b) {
                best = Some(flat);
            }
        });
    }
    Grid {
        n,
        cells: best.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_visits_every_permutation_once() {
        let mut seen = std::collections::HashSet::new();
        for_each_permutation(4, |p| assert!(seen.insert(p.to_vec())));
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn canonical_is_constant_on_orbits() {
        let g = Grid {
            n: 3,
            cells: vec![0, 1, 2, 2, 0, 0, 1, 1, 0],
        };
        let c = canonical(&g);
        assert_eq!(canonical(&transpose(&g)), c);
        // swap rows 0 and 2, columns 1 and 2
        let h = Grid {
            n: 3,
            cells: vec![1, 0, 1, 2, 0, 0, 0, 2, 1],
        };
        assert_eq!(canonical(&h), c);
        assert!(c <= g);
    }
}
