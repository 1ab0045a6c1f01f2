//! Symmetries of magic squares acting on solutions. The 8 maps of the
//! square (rotations and reflections; Schulte & Smolka break them with the
//! source's order constraints) lie in a larger group that keeps every line
//! sum: permute the rows and the columns by the same permutation `π` that
//! commutes with `i ↦ n−1−i` (each diagonal maps onto itself, rows and
//! columns onto rows and columns), reverse the columns, transpose — `2^k·k!·4`
//! maps for `k = ⌊n/2⌋` (8 for n = 3, 32 for n = 4) — and each composed with
//! the complement `F ↦ n²+1−F`. Counting by classes
//! ([`crate::drive::classes`]) enumerates `--symmetry diagonals
//! --complement` and expands by this group; [`keeps`] says which squares an
//! instance's own symmetry breaking keeps, written from the definitions
//! (the tests compare it with the CNF).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use puzzlesat_encodings::perm::{self, Perm, SquareSymmetry};

use super::encode::{square_symmetries, Options, Symmetry};
use super::model::Square;

/// The largest order whose group [`maps`] is built (`2^4·4!·4 = 1536`
/// maps at n = 8, 9); beyond, counting is out of reach anyway.
pub const MAX_GROUP_ORDER: usize = 9;

/// The geometric maps of the group (cells row-major, identity first): the
/// closure of: `π = (i n−1−i)` and `π = (i i+1)(n−1−i n−2−i)` on rows and
/// columns together, the column reversal and the transpose. `None` for
/// `n > MAX_GROUP_ORDER`.
pub fn maps(n: usize) -> Option<Vec<Perm>> {
    if n > MAX_GROUP_ORDER {
        return None;
    }
    let both = |pi: Vec<usize>| {
        Perm::on_grid(n, n, |r, c| (pi[r], pi[c])).expect("a permutation of the cells")
    };
    let mut gens = vec![
        SquareSymmetry::FlipH.on_grid(n, n),
        SquareSymmetry::Transpose.on_grid(n, n),
    ];
    let k = n / 2;
    for i in 0..k {
        let mut pi: Vec<usize> = (0..n).collect();
        pi.swap(i, n - 1 - i);
        gens.push(both(pi));
        if i + 1 < k {
            let mut pi: Vec<usize> = (0..n).collect();
            pi.swap(i, i + 1);
            pi.swap(n - 1 - i, n - 2 - i);
            gens.push(both(pi));
        }
    }
    let order = (1..=k).product::<usize>() << (k + 2);
    perm::closure(&gens, order).ok()
}

/// [`maps`], built once per order and kept for the process (class counting
/// expands every representative by it); empty for `n > MAX_GROUP_ORDER`.
pub fn maps_cached(n: usize) -> Arc<Vec<Perm>> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Vec<Perm>>>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cache
        .entry(n)
        .or_insert_with(|| Arc::new(maps(n).unwrap_or_default()))
        .clone()
}

/// The images of `sq` under `group` (cell maps) and with `complement`
/// also composed with the complement; `sq` first.
pub fn images_under(group: &[Perm], sq: &Square, complement: bool) -> Vec<Square> {
    let n = sq.n;
    let m = (n * n) as u32;
    let flat: Vec<u32> = sq.cells.concat();
    let mut out = Vec::with_capacity(2 * group.len());
    for g in group {
        let img = |i: usize| flat[g.apply(i as u32) as usize];
        let cells: Vec<Vec<u32>> = (0..n)
            .map(|r| (r * n..(r + 1) * n).map(img).collect())
            .collect();
        if complement {
            let c = cells
                .iter()
                .map(|row| row.iter().map(|v| m + 1 - v).collect())
                .collect();
            out.push(Square { n, cells });
            out.push(Square { n, cells: c });
        } else {
            out.push(Square { n, cells });
        }
    }
    out
}

/// The images of `sq` under the 8 maps of the square (and the complement).
pub fn images(sq: &Square, complement: bool) -> Vec<Square> {
    let group = square_symmetries(sq.n);
    images_under(&group, sq, complement)
}

/// Whether `sq` is the lexicographically smallest (row-major) of its
/// images: what the lex-leader constraints keep.
pub fn is_lex_leader(sq: &Square, complement: bool) -> bool {
    images(sq, complement).iter().all(|i| sq.cells <= i.cells)
}

/// The source's order `F11 < Fnn`, `Fn1 < F1n`, `F11 < Fn1`, and with
/// `complement` also `F11 + F1n ≤ n²+1` and `F11 + Fnn ≤ n²+1` (the
/// smallest and largest corners sum to at most `n²+1`).
pub fn in_order(sq: &Square, complement: bool) -> bool {
    let n = sq.n;
    let m = (n * n) as u32;
    let f = |r: usize, c: usize| sq.cells[r - 1][c - 1];
    let order = n < 2 || (f(1, 1) < f(n, n) && f(n, 1) < f(1, n) && f(1, 1) < f(n, 1));
    order && (!complement || n < 2 || (f(1, 1) + f(1, n) <= m + 1 && f(1, 1) + f(n, n) <= m + 1))
}

/// `--symmetry diagonals`: every pair of [`super::encode::diagonal_order`] in order, and
/// with `complement` also `F00 + x ≤ n²+1` for every other diagonal cell
/// `x` but the centre.
pub fn in_diagonal_order(sq: &Square, complement: bool) -> bool {
    // the pairs of `diagonal_order`, walked without building them (class
    // counting tests every image of every representative)
    let n = sq.n;
    if n < 2 {
        return true;
    }
    let f = |r: usize, c: usize| sq.cells[r][c];
    let centre = |r: usize, c: usize| n % 2 == 1 && r == n / 2 && c == n / 2;
    let (f00, top) = (f(0, 0), (n * n) as u32 + 1);
    // F00 below every other diagonal cell but the centre (with the
    // complement: F00 + x ≤ n²+1 too)
    let first = (0..n).all(|j| {
        [(j, j), (j, n - 1 - j)].into_iter().all(|(r, c)| {
            (r, c) == (0, 0)
                || centre(r, c)
                || (f00 < f(r, c) && (!complement || f00 + f(r, c) <= top))
        })
    });
    // F_{n−1,0} < F_{0,n−1}, then ring by ring F_dd < F_jj
    first
        && f(n - 1, 0) < f(0, n - 1)
        && (1..n / 2).all(|d| (d + 1..n - d).all(|j| centre(j, j) || f(d, d) < f(j, j)))
}

/// Whether the symmetry breaking of `o` keeps `sq` (a magic square).
pub fn keeps(o: &Options, sq: &Square) -> bool {
    match o.symmetry {
        Symmetry::None => true,
        Symmetry::Order => in_order(sq, o.complement),
        Symmetry::LexLeader => is_lex_leader(sq, o.complement),
        Symmetry::Diagonals => in_diagonal_order(sq, o.complement),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::magic::encode::diagonal_order;

    /// The walk of [`in_diagonal_order`] states the pairs of
    /// [`diagonal_order`]: the same verdict on every arrangement of
    /// `1..=n²` of a pseudo-random sample (magic or not), n = 1..=6.
    #[test]
    fn in_diagonal_order_is_the_pairs_of_diagonal_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        for n in 1..=6 {
            let (first, rings) = diagonal_order(n);
            let top = (n * n) as u32 + 1;
            for _ in 0..2000 {
                let mut flat: Vec<u32> = (1..=(n * n) as u32).collect();
                for i in (1..flat.len()).rev() {
                    flat.swap(i, next(i + 1));
                }
                let sq = Square {
                    n,
                    cells: flat.chunks(n).map(<[u32]>::to_vec).collect(),
                };
                for complement in [false, true] {
                    let want = first.iter().chain(&rings).all(|&(a, b)| flat[a] < flat[b])
                        && (!complement
                            || first
                                .iter()
                                .filter(|&&(a, _)| a == 0)
                                .all(|&(a, b)| flat[a] + flat[b] <= top));
                    assert_eq!(in_diagonal_order(&sq, complement), want, "{n} {flat:?}");
                }
            }
        }
    }
}
