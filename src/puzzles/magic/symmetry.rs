//! The symmetry group of magic squares acting on solutions: the 8 maps of
//! the square (rotations and reflections) and, composed with them, the
//! complement `F ↦ n²+1−F` — 16 maps in all (Schulte & Smolka break the 8
//! geometric ones with the seed's order constraints). Used to count by
//! classes ([`crate::drive::classes`]) and to say which squares an
//! instance's symmetry breaking keeps ([`keeps`]), the meaning of its
//! clauses written from the definitions (tests compare it with the CNF).

use super::encode::{square_symmetries, Options, Symmetry};
use super::model::Square;

/// The images of `sq` under the 8 geometric maps, and with `complement`
/// also under the 8 maps composed with the complement; `sq` first.
pub fn images(sq: &Square, complement: bool) -> Vec<Square> {
    let n = sq.n;
    let m = (n * n) as u32;
    let flat: Vec<u32> = sq.cells.concat();
    let group = square_symmetries(n).expect("the square's group is a group");
    let mut out = Vec::with_capacity(16);
    for g in &group {
        let img: Vec<u32> = (0..n * n)
            .map(|i| flat[g.apply(i as u32) as usize])
            .collect();
        out.push(to_square(n, &img));
        if complement {
            let c: Vec<u32> = img.iter().map(|v| m + 1 - v).collect();
            out.push(to_square(n, &c));
        }
    }
    out
}

fn to_square(n: usize, flat: &[u32]) -> Square {
    Square {
        n,
        cells: flat.chunks(n).map(|r| r.to_vec()).collect(),
    }
}

/// Whether `sq` is the lexicographically smallest (row-major) of its
/// images: what the lex-leader constraints keep.
pub fn is_lex_leader(sq: &Square, complement: bool) -> bool {
    images(sq, complement).iter().all(|i| sq.cells <= i.cells)
}

/// The seed's order `F11 < Fnn`, `Fn1 < F1n`, `F11 < Fn1`, and with
/// `complement` also `F11 + F1n ≤ n²+1` and `F11 + Fnn ≤ n²+1` (the
/// smallest and largest corners sum to at most `n²+1`).
pub fn in_order(sq: &Square, complement: bool) -> bool {
    let n = sq.n;
    let m = (n * n) as u32;
    let f = |r: usize, c: usize| sq.cells[r - 1][c - 1];
    let order = n < 2 || (f(1, 1) < f(n, n) && f(n, 1) < f(1, n) && f(1, 1) < f(n, 1));
    order && (!complement || n < 2 || (f(1, 1) + f(1, n) <= m + 1 && f(1, 1) + f(n, n) <= m + 1))
}

/// Whether the symmetry breaking of `o` keeps `sq` (a magic square).
pub fn keeps(o: &Options, sq: &Square) -> bool {
    match o.symmetry {
        Symmetry::None => true,
        Symmetry::Order => in_order(sq, o.complement),
        Symmetry::LexLeader => is_lex_leader(sq, o.complement),
    }
}
