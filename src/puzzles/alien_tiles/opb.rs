//! The PB model of Alien Tiles, from the rules (as [`super::check`] reads
//! them). Cell `(i, j)` is clicked `x_ij ∈ [0, c−1]` times, written in
//! unary by the variables `x[i][j]_ge<v>` ("clicked at least v times", v =
//! 1..c−1, the names the encoder gives its order literals) with
//! `x_ij ≥ v+1 → x_ij ≥ v`; the number of clicks is the sum of them all.
//!
//! - **play**: a click on `(k, l)` adds 1 (mod c) to every cell of row k
//!   and column l, so the board reached is the goal iff, for every cell,
//!   `Σ_{k = i or l = j} x_kl ≡ goal_ij − start_ij (mod c)`: an equality
//!   with a quotient `q_ij ≥ 0` written in binary (`q[i][j]_b<k>`, the only
//!   variables of the model the CNF does not name). Minimise the clicks.
//! - **hardest**: maximise the clicks of a click matrix that is a fewest-
//!   clicks way to its own goal: no `x' = (x + z) mod c` with `z` in the
//!   kernel of the click map (the click matrices that change nothing, see
//!   [`super::zmod`]) has fewer clicks. With `(x + z) mod c = x + z −
//!   c·[x ≥ c − z]` (x, z in [0, c−1]), that is `c·Σ_{z_ij ≠ 0} [x_ij ≥ c −
//!   z_ij] ≤ Σ z_ij`, one constraint per non-zero kernel element (identical
//!   and always-true ones once). The kernel is computed by linear algebra
//!   over Z_c; the model builder checks that each element changes nothing
//!   and that the elements are as many as the kernel's size.

use puzzlesat_encodings::pbmodel::{PbObjective, PbSense, Relation};
use puzzlesat_encodings::{PbLit, PbModel};

use super::model::{click_map, effect, sub_mod, Grid};
use super::{AlienTiles, Task, EAGER_LIMIT};

/// The name of the literal "cell p (row-major) is clicked at least v times".
pub fn click_name(n: usize, p: usize, v: usize) -> String {
    format!("x[{}][{}]_ge{v}", p / n, p % n)
}

/// The name of bit b of cell p's quotient in its play equation.
pub fn quotient_name(n: usize, p: usize, b: u32) -> String {
    format!("q[{}][{}]_b{b}", p / n, p % n)
}

/// The model of `t`; None when the hardest task's kernel has more than
/// [`EAGER_LIMIT`] elements (a constraint each).
pub fn model(t: &AlienTiles) -> Option<PbModel> {
    let (n, c) = (t.n, t.c as usize);
    let mut m = PbModel::new();
    m.comment(format!(
        "Alien Tiles {n}x{n}, {c} colours: x[i][j]_ge<v> = cell (i, j) (0-based) is clicked at least v times"
    ));
    // ge[p][v-1] = [x_p ≥ v]
    let ge: Vec<Vec<PbLit>> = (0..n * n)
        .map(|p| (1..c).map(|v| m.var(&click_name(n, p, v)).pos()).collect())
        .collect();
    for (p, lits) in ge.iter().enumerate() {
        for v in 1..lits.len() {
            m.clause(
                &[!lits[v], lits[v - 1]],
                format!(
                    "cell ({}, {}): clicked at least {} times, so at least {v}",
                    p / n,
                    p % n,
                    v + 1
                ),
            );
        }
    }
    let clicks: Vec<(i64, PbLit)> = ge.iter().flatten().map(|&l| (1, l)).collect();
    match &t.task {
        Task::Play { start, goal } => {
            let delta = sub_mod(goal, start, t.c);
            let a = click_map(n, t.c);
            let bits = super::encode::quotient_bits(n, t.c);
            for p in 0..n * n {
                let mut terms: Vec<(i64, PbLit)> = (0..n * n)
                    .filter(|&k| a.get(p, k) != 0)
                    .flat_map(|k| ge[k].iter().map(|&l| (1, l)))
                    .collect();
                for b in 0..bits {
                    let q = m.var(&quotient_name(n, p, b)).pos();
                    terms.push((-((c as i64) << b), q));
                }
                m.linear(
                    terms,
                    Relation::Equal,
                    delta.cells[p] as i64,
                    format!(
                        "cell ({}, {}): the clicks on its row and column change it by {} (mod {c})",
                        p / n,
                        p % n,
                        delta.cells[p]
                    ),
                );
            }
            m.set_objective(PbObjective {
                sense: PbSense::Minimize,
                terms: clicks,
                offset: 0,
            });
        }
        Task::Hardest => {
            let size = t.kernel().size()?;
            if size > EAGER_LIMIT {
                return None;
            }
            let changes_nothing = |z: &[u32]| {
                let clicks = Grid {
                    n,
                    cells: z.to_vec(),
                };
                effect(&clicks, t.c).cells.iter().all(|&v| v == 0)
            };
            let mut seen = std::collections::HashSet::new();
            let mut count = 0u64;
            t.kernel().for_each(n * n, |z| {
                count += 1;
                assert!(changes_nothing(z), "a kernel element changes the board: {z:?}");
                let total: u32 = z.iter().sum();
                let mut terms: Vec<(i64, PbLit)> = (0..n * n)
                    .filter(|&p| z[p] != 0)
                    .map(|p| (c as i64, ge[p][c - 1 - z[p] as usize]))
                    .collect();
                // always true when every term fits: c·#support ≤ Σ z
                if terms.is_empty() || (c * terms.len()) as u32 <= total {
                    return true;
                }
                terms.sort();
                if seen.insert(terms.clone()) {
                    m.linear(
                        terms,
                        Relation::AtMost,
                        total as i64,
                        format!("minimality: adding the kernel element {z:?} (mod {c}) does not lower the clicks"),
                    );
                }
                true
            });
            assert_eq!(count, size, "the kernel enumeration misses elements");
            m.set_objective(PbObjective {
                sense: PbSense::Maximize,
                terms: clicks,
                offset: 0,
            });
        }
    }
    Some(m)
}
