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

use puzzlesat_encodings::int::IntVar;
use puzzlesat_encodings::lex::{lex_le, LexChain};
use puzzlesat_encodings::perm::{closure, lex_leader, Perm, SquareSymmetry};
use puzzlesat_encodings::{ClauseDatabase, EncodeError};
use rustsat::types::Lit;

use super::model::Grid;

puzzlesat_encodings::option_enum! {
    /// How symmetry is broken (`--symmetry`). All modes post lex-leader
    /// constraints (Crawford, Ginsberg, Luks & Roy, KR 1996) for the row-major
    /// order of the cells, each cell's block being its order literals
    /// `[x ≥ 1], …, [x ≥ c−1]` (unary codes compare lexicographically as their
    /// values do), so the constraints of any set of group elements are
    /// compatible and keep the lex-smallest matrix of every class.
    #[derive(Default)]
    pub enum Symmetry("symmetry breaking") {
        /// no symmetry-breaking clauses
        #[default]
        None = "none",
        /// rows and columns lexicographically non-decreasing (`lex_le` between
        /// neighbours): the lex-leader constraints of adjacent row and column
        /// swaps (Flener et al., "Breaking row and column symmetries in matrix
        /// models", CP 2002)
        DoubleLex = "double-lex",
        /// double-lex plus the lex-leader constraint of the transpose: sound
        /// together, as double-lex's constraints are themselves the
        /// lex-leader constraints (same row-major order, same blocks) of the
        /// adjacent row and column swaps, and lex-leader constraints of any
        /// set of group elements all keep each class's lex-smallest matrix
        DoubleLexTranspose = "double-lex-transpose",
        /// lex-leader constraints of the three generators the seed gave GAP:
        /// cycle the columns, swap the first two columns, transpose
        Generators = "generators",
        /// lex-leader constraints of every element of the group (closure of
        /// the generators, `2·(n!)² − 1` constraints; refused past
        /// [`FULL_GROUP_LIMIT`]): each class keeps exactly one matrix
        Full = "full",
    }
}

/// The largest group `--symmetry full` accepts (n ≤ 4: 1152).
pub const FULL_GROUP_LIMIT: usize = 20_000;

/// A permutation of the cells (row-major) from a map of coordinates.
fn cell_perm(n: usize, f: impl Fn(usize, usize) -> (usize, usize)) -> Perm {
    Perm::on_grid(n, n, f).expect("a bijection of the cells")
}

/// The generators of the board's group used by Gent, Linton & Smith's GAP
/// code: cycle the columns, swap columns 0 and 1, transpose.
pub fn generators(n: usize) -> Vec<Perm> {
    if n < 2 {
        return vec![];
    }
    vec![
        cell_perm(n, |i, j| (i, (j + 1) % n)),
        cell_perm(n, |i, j| (i, if j < 2 { 1 - j } else { j })),
        SquareSymmetry::Transpose.on_grid(n, n),
    ]
}

/// Posts the symmetry-breaking constraints of `mode` over the click
/// variables `xs` (row-major, order-encoded over `[0, c−1]`); returns each
/// group element with the lex comparison posted for it (the row-major
/// order literals against their image), for the proof
/// ([`puzzlesat_encodings::dominance`]).
pub fn post<DB: ClauseDatabase>(
    db: &mut DB,
    xs: &[IntVar],
    n: usize,
    c: u32,
    mode: Symmetry,
) -> Result<Vec<(Perm, LexChain)>, EncodeError> {
    let mut posted = vec![];
    let k = c as usize - 1;
    let lits = |cells: &mut dyn Iterator<Item = usize>| -> Vec<Lit> {
        cells
            .flat_map(|p| xs[p].order_lits().iter().copied())
            .collect()
    };
    match mode {
        Symmetry::None => {}
        Symmetry::DoubleLex | Symmetry::DoubleLexTranspose => {
            if mode == Symmetry::DoubleLexTranspose && n >= 2 {
                let transpose = SquareSymmetry::Transpose.on_grid(n, n).lift_blocks(k);
                posted.extend(lex_leader(db, &lits(&mut (0..n * n)), &[transpose]));
            }
            let swap = |a: usize, b: usize, x: usize| {
                if x == a {
                    b
                } else if x == b {
                    a
                } else {
                    x
                }
            };
            for i in 0..n.saturating_sub(1) {
                let (a, b) = (
                    lits(&mut (0..n).map(|j| i * n + j)),
                    lits(&mut (0..n).map(|j| (i + 1) * n + j)),
                );
                let rows = cell_perm(n, |r, c| (swap(i, i + 1, r), c)).lift_blocks(k);
                posted.push((rows, lex_le(db, &a, &b))); // row i ≤lex row i+1
            }
            for j in 0..n.saturating_sub(1) {
                let (a, b) = (
                    lits(&mut (0..n).map(|i| i * n + j)),
                    lits(&mut (0..n).map(|i| i * n + j + 1)),
                );
                let cols = cell_perm(n, |r, c| (r, swap(j, j + 1, c))).lift_blocks(k);
                posted.push((cols, lex_le(db, &a, &b))); // column j ≤lex column j+1
            }
        }
        Symmetry::Generators | Symmetry::Full => {
            let gens = generators(n);
            let group = if mode == Symmetry::Full {
                closure(&gens, FULL_GROUP_LIMIT)?
            } else {
                gens
            };
            let lifted: Vec<Perm> = group.iter().map(|g| g.lift_blocks(k)).collect();
            posted.extend(lex_leader(db, &lits(&mut (0..n * n)), &lifted));
        }
    }
    Ok(posted)
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

/// Every image of `g` under the group (the orbit, without repeats).
pub fn orbit(g: &Grid) -> std::collections::BTreeSet<Grid> {
    let n = g.n;
    let mut out = std::collections::BTreeSet::new();
    for t in [g.clone(), transpose(g)] {
        for_each_permutation(n, |rows| {
            for_each_permutation(n, |cols| {
                out.insert(Grid {
                    n,
                    cells: (0..n * n).map(|p| t.at(rows[p / n], cols[p % n])).collect(),
                });
            });
        });
    }
    out
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
    fn the_seed_generators_give_the_whole_group() {
        for (n, order) in [(2, 8), (3, 72), (4, 1152)] {
            assert_eq!(
                closure(&generators(n), 10_000).unwrap().len(),
                order,
                "n={n}"
            );
        }
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
        let o = orbit(&g);
        assert!(o.contains(&h) && o.contains(&c) && o.iter().all(|x| canonical(x) == c));
    }
}
