//! The goal-space PB model of `--hardest` where c divides n − 1 (`opb
//! --hardest --pb-model goals`): the hardest reachable goal, as "maximise
//! z: every click matrix reaching the goal has at least z clicks"; with
//! `--above B`, the decision model "some reachable goal needs more than B
//! clicks" (z ≥ B + 1, no objective). Its proofs are
//! [`super::goal_proof`]'s.
//!
//! **The lemma it rests on.** A click matrix x reaching the goal s has
//! `x_ij = (R_i + C_j − s_ij) mod c`, R and C its row and column sums (a
//! click on (k, l) adds 1 to row k and column l, so cell (i, j) gets
//! `R_i + C_j − x_ij`). Where n ≡ 1 (mod c) that x is consistent (its row
//! sums are R, its column sums C) iff every row sum and every column sum of
//! s is ≡ T and `ΣR ≡ ΣC ≡ T` (mod c); conversely every such (T, R, C)
//! gives a click matrix reaching s (the goal search's inner minimum,
//! [`super::goals`]). So "s is reachable and needs more than B clicks" is:
//! some T has every row and column sum of s ≡ T, and every (R, C) with
//! `ΣR ≡ ΣC ≡ T` has `Σ_ij ((R_i + C_j − s_ij) mod c) ≥ B + 1`.
//!
//! **Variables.** `s[i][j]_ge<v>` (v = 1..c−1): goal cell (i, j) is at
//! least v (order encoding, `_ge<v+1> → _ge<v>`); `t<T>`: the common sum
//! mod c (exactly one). **The sums.** For each row and each column, each T
//! and each vector a of `0..c` whose sum is not ≡ T, the clause `t<T> → the
//! line is not a`: c^n·(c−1) clauses per line, mapped onto one another by
//! every row and column permutation and the transpose (so the dominance
//! steps of [`super::goal_proof`] hold syntactically); unit propagation
//! fixes a line's last cell from T and the others. The same sums also as
//! equations `Σ s = T + c·q` per line, q the line's quotient in binary
//! (`rowq[i]_b<k>`, `colq[j]_b<k>`): the proof's cuts divide by c with
//! them.
//!
//! **The bound.** z in binary (`z<k>`, weight 2^k). With `(u − s) mod c
//! = u − s + c·[s ≥ u+1]` (u, s in 0..c−1), one constraint per (T, R, C),
//! off unless T holds: `Σ_ij (u_ij − Σ_v [s_ij ≥ v] + c·[s_ij ≥ u_ij + 1])
//! ≥ z`, with
//! `u_ij = (R_i + C_j) mod c`: c^(2n−1) constraints, halved for even c,
//! where (T, R, C) and (T + c/2, R + c/2, C − c/2) give the same click
//! matrix (n ≡ 1 mod c) and share one constraint, reified on the other
//! values of T.

use puzzlesat_encodings::pbmodel::{PbObjective, PbSense, Relation};
use puzzlesat_encodings::{PbLit, PbModel};

/// A model constraint's id as VeriPB numbers them (from 1).
pub type Id = u64;

/// The model and the ids of its constraints, as the proof cites them.
pub struct GoalModel {
    /// the model
    pub model: PbModel,
    /// board size
    pub n: usize,
    /// colours
    pub c: usize,
    /// the model states "more than `above` clicks" (None: it maximises z)
    pub above: Option<u32>,
    /// z's bits, weight 2^k
    pub z: Vec<PbLit>,
    /// with `above`: the constraint "z ≥ above + 1"
    pub floor: Option<Id>,
    /// `[cell][v−1]`: the literal `s ≥ v`
    pub ge: Vec<Vec<PbLit>>,
    /// `t[T]`
    pub t: Vec<PbLit>,
    /// `[cell][v−1]` (v = 1..c−2): `s ≥ v+1 → s ≥ v`
    pub order: Vec<Vec<Id>>,
    /// "some T"
    pub t_some: Id,
    /// "at most one T"
    pub t_one: Id,
    /// the line clauses, per (line, T, the line's values): see
    /// [`GoalModel::line_clause`]
    lines: Vec<Id>,
    /// per line (rows 0..n, columns n..2n), the bits of its quotient q
    /// (weight 2^k): the line's sum is T + c·q
    pub quotient: Vec<Vec<PbLit>>,
    /// per line, the `≥` half of "the line's sum = T + c·q" (the `≤` half
    /// is the next id)
    pub line_sum: Vec<Id>,
    /// the id of the first bound constraint (T = 0, R = C = 0…0)
    pub first_bound: Id,
}

/// The variable of "cell (i, j) of the goal is at least v".
pub fn goal_name(i: usize, j: usize, v: usize) -> String {
    format!("s[{i}][{j}]_ge{v}")
}

impl GoalModel {
    /// The model of the n×n board with c colours (c | n − 1): with `above`
    /// "some goal needs more than `above` clicks", else "maximise the
    /// clicks of the hardest goal".
    pub fn new(n: usize, c: u32, above: Option<u32>) -> Result<Self, String> {
        let cu = c as usize;
        if n < 2 || c < 2 || (n - 1) % cu != 0 {
            return Err(format!(
                "the goal-space model needs c | n − 1 (n = {n}, c = {c})"
            ));
        }
        let mut m = PbModel::new();
        let what = match above {
            Some(b) => format!("some reachable goal needs more than {b} clicks"),
            None => "the hardest reachable goal, maximise z: every click matrix reaching the goal has at least z clicks".to_string(),
        };
        m.comment(format!(
            "Alien Tiles {n}x{n}, {c} colours, the goal side: {what}. s[i][j]_ge<v> = goal cell (i, j) (0-based) is at least v; t<T> = every row and column sums to T mod {c}; z<k> = bit k of z"
        ));
        m.comment("a click matrix reaching s is x_ij = (R_i + C_j - s_ij) mod c for some R, C with sum R = sum C = T (mod c), and each such (R, C) gives one; one bound per (T, R, C)");
        let ge: Vec<Vec<PbLit>> = (0..n * n)
            .map(|p| {
                (1..cu)
                    .map(|v| m.var(&goal_name(p / n, p % n, v)).pos())
                    .collect()
            })
            .collect();
        let t: Vec<PbLit> = (0..cu).map(|a| m.var(&format!("t{a}")).pos()).collect();
        let z: Vec<PbLit> = (0..z_bits(n, cu))
            .map(|k| m.var(&format!("z{k}")).pos())
            .collect();
        let mut gm = GoalModel {
            model: m,
            n,
            c: cu,
            above,
            z,
            floor: None,
            ge,
            t,
            order: vec![],
            t_some: 0,
            t_one: 0,
            lines: vec![],
            quotient: vec![],
            line_sum: vec![],
            first_bound: 0,
        };
        gm.post_order_and_t();
        gm.post_line_clauses();
        gm.post_line_sums();
        gm.post_claim();
        gm.post_bounds();
        Ok(gm)
    }

    /// The id VeriPB gives the model's constraint number `k`.
    fn id(&self, k: usize) -> Id {
        self.model.first_id(k) as Id
    }

    /// z's terms, times `sign`.
    fn z_terms(&self, sign: i64) -> Vec<(i64, PbLit)> {
        self.z
            .iter()
            .enumerate()
            .map(|(k, &l)| (sign << k, l))
            .collect()
    }

    /// The cells of line `line` (rows 0..n, columns n..2n), in order.
    fn line_cells(&self, line: usize) -> impl Iterator<Item = usize> {
        let n = self.n;
        (0..n).map(move |k| {
            if line < n {
                line * n + k
            } else {
                k * n + line - n
            }
        })
    }

    /// "row i" or "column j".
    fn line_name(&self, line: usize) -> String {
        if line < self.n {
            format!("row {line}")
        } else {
            format!("column {}", line - self.n)
        }
    }

    /// The cells' order clauses, "some T" and "one T".
    fn post_order_and_t(&mut self) {
        let n = self.n;
        for p in 0..n * n {
            let mut ids = vec![];
            for v in 1..self.ge[p].len() {
                let lits = [!self.ge[p][v], self.ge[p][v - 1]];
                let k = self.model.clause(
                    &lits,
                    format!(
                        "goal cell ({}, {}): at least {} so at least {v}",
                        p / n,
                        p % n,
                        v + 1
                    ),
                );
                ids.push(self.id(k));
            }
            self.order.push(ids);
        }
        let t = self.t.clone();
        let k = self.model.clause(
            &t,
            "the row and column sums have some value T mod c".to_string(),
        );
        self.t_some = self.id(k);
        let k = self.model.at_most(&t, 1, "one value T".to_string());
        self.t_one = self.id(k);
    }

    /// Per line, per T, per vector a of the line's values (rank
    /// Σ a_k·c^(n−1−k)) not summing to T: "T → the line is not a".
    fn post_line_clauses(&mut self) {
        let (n, cu) = (self.n, self.c);
        // "cell p holds b": its literals negated, for a clause
        let not_holds = |ge: &[Vec<PbLit>], p: usize, b: usize| -> Vec<PbLit> {
            let mut out = vec![];
            if b >= 1 {
                out.push(!ge[p][b - 1]);
            }
            if b + 1 < cu {
                out.push(ge[p][b]);
            }
            out
        };
        let per_line = cu.pow(n as u32);
        self.lines = vec![Id::MAX; 2 * n * cu * per_line];
        for line in 0..2 * n {
            let cells: Vec<usize> = self.line_cells(line).collect();
            let what = self.line_name(line);
            for tv in 0..cu {
                let tl = self.t[tv];
                for rank in 0..per_line {
                    let a = digits(rank, n, cu);
                    if a.iter().sum::<usize>() % cu == tv {
                        continue;
                    }
                    let mut lits = vec![!tl];
                    for (k, &b) in a.iter().enumerate() {
                        lits.extend(not_holds(&self.ge, cells[k], b));
                    }
                    let i = self.model.clause(
                        &lits,
                        format!("{what}, T = {tv}: not {a:?} (its sum is not {tv} mod {cu})"),
                    );
                    self.lines[(line * cu + tv) * per_line + rank] = self.id(i);
                }
            }
        }
    }

    /// The sums as equations: `Σ s = T + c·q` per line, q the line's
    /// quotient in binary.
    fn post_line_sums(&mut self) {
        let (n, cu) = (self.n, self.c);
        let q_bits = quotient_bits(n, cu);
        for line in 0..2 * n {
            let (what, k) = if line < n {
                ("row", line)
            } else {
                ("col", line - n)
            };
            let q: Vec<PbLit> = (0..q_bits)
                .map(|b| self.model.var(&format!("{what}q[{k}]_b{b}")).pos())
                .collect();
            self.quotient.push(q);
        }
        for line in 0..2 * n {
            let mut terms: Vec<(i64, PbLit)> = self
                .line_cells(line)
                .flat_map(|p| self.ge[p].iter().map(|&l| (1, l)))
                .collect();
            terms.extend(
                self.t
                    .iter()
                    .enumerate()
                    .skip(1)
                    .map(|(x, &l)| (-(x as i64), l)),
            );
            terms.extend(
                self.quotient[line]
                    .iter()
                    .enumerate()
                    .map(|(b, &l)| (-((cu as i64) << b), l)),
            );
            let what = self.line_name(line);
            let k = self.model.linear(
                terms,
                Relation::Equal,
                0,
                format!("{what} sums to T + {cu}·q"),
            );
            let id = self.id(k);
            self.line_sum.push(id);
        }
    }

    /// The claim: "z > B" (the decision model), or maximise z.
    fn post_claim(&mut self) {
        let z = self.z_terms(1);
        self.floor = match self.above {
            Some(b) => {
                let k = self.model.linear(
                    z,
                    Relation::AtLeast,
                    i64::from(b) + 1,
                    format!("some goal needs more than {b} clicks: z > {b}"),
                );
                Some(self.id(k))
            }
            None => {
                self.model.set_objective(PbObjective {
                    sense: PbSense::Maximize,
                    terms: z,
                    offset: 0,
                });
                None
            }
        };
    }

    /// One bound constraint per (T, R, C): the click matrix has at least
    /// z clicks, off for the other values of T.
    fn post_bounds(&mut self) {
        let (n, cu) = (self.n, self.c);
        self.first_bound = self.model.loaded() as Id + 1;
        // off: z's largest value
        let b = (1i64 << self.z.len()) - 1;
        let minus_z = self.z_terms(-1);
        // (T, R, C) and (T + c/2, R + c/2, C − c/2) give the same click
        // matrix (n ≡ 1 mod c): for even c one constraint serves both T
        let classes = if cu % 2 == 0 { cu / 2 } else { cu };
        let (ge, m) = (&self.ge, &mut self.model);
        for tv in 0..classes {
            let same: Vec<usize> = (tv..cu).step_by(classes).collect();
            // off unless T is one of `same` (one T holds: `t_some`, `t_one`)
            let off: Vec<PbLit> = (0..cu)
                .filter(|x| !same.contains(x))
                .map(|x| self.t[x])
                .collect();
            let which = same
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" or ");
            for_each_vector(n, cu, tv, |r| {
                for_each_vector(n, cu, tv, |col| {
                    let mut terms: Vec<(i64, PbLit)> = off.iter().map(|&l| (b, l)).collect();
                    terms.extend(minus_z.iter().copied());
                    let mut total_u = 0i64;
                    for (i, &ri) in r.iter().enumerate() {
                        for (j, &cj) in col.iter().enumerate() {
                            let u = (ri + cj) % cu;
                            total_u += u as i64;
                            for v in 1..cu {
                                let coef = if v == u + 1 { cu as i64 - 1 } else { -1 };
                                terms.push((coef, ge[i * n + j][v - 1]));
                            }
                        }
                    }
                    m.linear(
                        terms,
                        Relation::AtLeast,
                        -total_u,
                        format!("T = {which}, R = {r:?}, C = {col:?}: the click matrix (R_i + C_j - s_ij) mod {cu} has at least z clicks"),
                    );
                });
            });
        }
    }

    /// About how many terms the model of the n×n board with c colours has
    /// (its bound constraints of about n²(c−1) terms dominate),
    /// from the parameters alone; u64::MAX past it.
    pub fn estimated_terms(n: usize, c: u32) -> u64 {
        let c = u64::from(c);
        let n = n as u64;
        let classes = if c % 2 == 0 { c / 2 } else { c };
        c.checked_pow(2 * n as u32 - 2)
            .and_then(|k| k.checked_mul(classes))
            .and_then(|k| {
                k.checked_mul(n * n * (c - 1) + c + z_bits(n as usize, c as usize) as u64)
            })
            .and_then(|t| t.checked_add(2 * n * c.pow(n as u32) * (c - 1) * (2 * n + 1)))
            .and_then(|t| t.checked_add(4 * n * (n * (c - 1) + c + 8)))
            .unwrap_or(u64::MAX)
    }

    /// The id of the bound constraint of (T, R, C) (ΣR ≡ ΣC ≡ T); for even
    /// c, T ≥ c/2 shares the constraint of (T − c/2, R − c/2, C + c/2).
    pub fn bound(&self, t: usize, r: &[usize], col: &[usize]) -> Id {
        let (n, c) = (self.n, self.c);
        let h = if c % 2 == 0 { c / 2 } else { c };
        let (t, shift) = if t >= h { (t - h, h) } else { (t, 0) };
        let per = c.pow(n as u32 - 1) as u64;
        let rank = |v: &[usize], by: usize| {
            v[..n - 1]
                .iter()
                .fold(0u64, |x, &y| x * c as u64 + ((y + by) % c) as u64)
        };
        self.first_bound + (t as u64 * per + rank(r, c - shift)) * per + rank(col, shift)
    }

    /// The coefficient of each `t<x>` in the bound constraints of T = `t`:
    /// z's largest value where the constraint is off (x neither t nor,
    /// for even c, t ± c/2, which shares it), else 0.
    pub fn bound_t_coefficients(&self, t: usize) -> Vec<i64> {
        let c = self.c;
        let classes = if c % 2 == 0 { c / 2 } else { c };
        let off = (1i64 << self.z.len()) - 1;
        (0..c)
            .map(|x| if x % classes == t % classes { 0 } else { off })
            .collect()
    }

    /// The id of the clause "T = `t` → line `line` is not `values`" (lines
    /// 0..n the rows, n..2n the columns, values along the line); None when
    /// the values sum to t (no such clause).
    pub fn line_clause(&self, line: usize, t: usize, values: &[usize]) -> Option<Id> {
        let c = self.c;
        let rank = values.iter().fold(0usize, |x, &y| x * c + y);
        let id = self.lines[(line * c + t) * c.pow(self.n as u32) + rank];
        (id != Id::MAX).then_some(id)
    }
}

/// The bits of z: enough for n²(c−1), the most clicks.
fn z_bits(n: usize, c: usize) -> usize {
    (usize::BITS - (n * n * (c - 1)).leading_zeros()) as usize
}

/// The bits of a line's quotient q: enough for ⌊n(c−1)/c⌋ (a line's sum
/// is T + c·q, T in 0..c).
pub fn quotient_bits(n: usize, c: usize) -> usize {
    ((usize::BITS - (n * (c - 1) / c).leading_zeros()) as usize).max(1)
}

/// The n digits of `rank` in base c, most significant first.
fn digits(rank: usize, n: usize, c: usize) -> Vec<usize> {
    let mut out = vec![0; n];
    let mut r = rank;
    for d in out.iter_mut().rev() {
        *d = r % c;
        r /= c;
    }
    out
}

/// Calls `f` on every vector of `0..c` of length n whose sum is ≡ t mod c,
/// in the lexicographic order of its first n − 1 entries.
pub fn for_each_vector(n: usize, c: usize, t: usize, mut f: impl FnMut(&[usize])) {
    let mut v = vec![0usize; n];
    loop {
        let partial: usize = v[..n - 1].iter().sum();
        v[n - 1] = (t + c * n - partial % c) % c;
        f(&v);
        let Some(j) = (0..n - 1).rev().find(|&j| v[j] + 1 < c) else {
            return;
        };
        v[j] += 1;
        v[j + 1..n - 1].fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::super::goals::goal_min;
    use super::*;

    /// The true variables of goal `s` with common sum `t` and z: its
    /// order literals, `t<T>` and z's bits.
    fn assignment(s: &[u32], n: usize, c: u32, t: usize, z: u32) -> Vec<String> {
        let mut out = vec![format!("t{t}")];
        for (p, &x) in s.iter().enumerate() {
            out.extend((1..=x as usize).map(|v| goal_name(p / n, p % n, v)));
        }
        out.extend((0..32).filter(|k| z >> k & 1 == 1).map(|k| format!("z{k}")));
        for line in 0..2 * n {
            let sum: u32 = (0..n)
                .map(|k| {
                    if line < n {
                        s[line * n + k]
                    } else {
                        s[k * n + line - n]
                    }
                })
                .sum();
            let q = sum.saturating_sub(t as u32) / c;
            let (what, k) = if line < n {
                ("row", line)
            } else {
                ("col", line - n)
            };
            out.extend(
                (0..8)
                    .filter(|b| q >> b & 1 == 1)
                    .map(|b| format!("{what}q[{k}]_b{b}")),
            );
        }
        out
    }

    /// Every goal of 3×3/2 and random goals of 4×4/3 and 5×5/2: the model
    /// with B holds on a goal, T and z = its fewest clicks (the row/column
    /// minimum) exactly when T is its rows' and columns' common sum and its
    /// fewest clicks exceed B; the maximising model holds on z = the fewest
    /// clicks, not on one more.
    #[test]
    fn the_model_holds_on_exactly_the_goals_harder_than_b() {
        let mut seed = 42u64;
        let mut next = |c: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % u64::from(c)) as u32
        };
        for (n, c, goals) in [(3usize, 2u32, 512usize), (4, 3, 300), (5, 2, 100)] {
            let models: Vec<GoalModel> = (0..4)
                .map(|b| GoalModel::new(n, c, Some(b * n as u32)).unwrap())
                .collect();
            let hardest = GoalModel::new(n, c, None).unwrap();
            let (mut held, mut reached) = (0, 0);
            for k in 0..goals {
                let s: Vec<u32> = if goals == 512 {
                    (0..n * n).map(|p| (k >> p) as u32 & 1).collect()
                } else if k % 2 == 0 {
                    (0..n * n).map(|_| next(c)).collect()
                } else {
                    // a goal some click matrix reaches
                    let x: Vec<u32> = (0..n * n).map(|_| next(c)).collect();
                    let r: Vec<u32> = (0..n).map(|i| (0..n).map(|j| x[i * n + j]).sum()).collect();
                    let col: Vec<u32> =
                        (0..n).map(|j| (0..n).map(|i| x[i * n + j]).sum()).collect();
                    (0..n * n)
                        .map(|p| (r[p / n] + col[p % n] + c * c - x[p]) % c)
                        .collect()
                };
                let value = goal_min(&s, n, c);
                reached += usize::from(value.is_some());
                let row0 = s[..n].iter().sum::<u32>() % c;
                let z = value.unwrap_or(0);
                let holds = |gm: &GoalModel, t: usize, z: u32| {
                    let names = assignment(&s, n, c, t, z);
                    gm.model
                        .check_named(names.iter().map(String::as_str))
                        .is_ok()
                };
                for gm in &models {
                    let b = gm.above.unwrap();
                    for t in 0..c as usize {
                        let h = holds(gm, t, z);
                        let want = t == row0 as usize && value.is_some_and(|v| v > b);
                        assert_eq!(h, want, "{n}×{n}/{c}, B = {b}, T = {t}, goal {s:?}");
                        held += usize::from(h);
                    }
                }
                if let Some(v) = value {
                    let t = row0 as usize;
                    assert!(holds(&hardest, t, v), "{n}×{n}/{c}, goal {s:?}: z = {v}");
                    assert!(!holds(&hardest, t, v + 1), "{n}×{n}/{c}, goal {s:?}");
                }
            }
            assert!(
                reached > 0 && held > 0,
                "{n}×{n}/{c}: {reached} reached, {held} held"
            );
        }
    }

    #[test]
    fn the_bound_ids_follow_the_vectors_order() {
        for (n, c) in [(3, 2), (4, 3), (5, 2)] {
            let gm = GoalModel::new(n, c, Some(1)).unwrap();
            let cu = c as usize;
            let classes = if cu % 2 == 0 { cu / 2 } else { cu };
            let mut k = 0;
            for t in 0..classes {
                for_each_vector(n, cu, t, |r| {
                    for_each_vector(n, cu, t, |col| {
                        assert_eq!(gm.bound(t, r, col), gm.first_bound + k);
                        k += 1;
                        // even c: T + c/2 with R + c/2, C − c/2 is the same
                        if classes < cu {
                            let h = classes;
                            let r2: Vec<usize> = r.iter().map(|x| (x + h) % cu).collect();
                            let c2: Vec<usize> = col.iter().map(|x| (x + cu - h) % cu).collect();
                            assert_eq!(gm.bound(t + h, &r2, &c2), gm.bound(t, r, col));
                        }
                    });
                });
            }
            assert_eq!(gm.first_bound + k, gm.model.loaded() as Id + 1);
        }
        // the estimate is at least the terms written, and close to them
        for (n, c) in [(3, 2), (4, 3), (5, 2)] {
            let gm = GoalModel::new(n, c, Some(1)).unwrap();
            let terms: usize = gm.model.constraints().iter().map(|k| k.terms.len()).sum();
            let est = GoalModel::estimated_terms(n, c);
            assert!(
                est >= terms as u64 && est <= 2 * terms as u64,
                "{n}×{n}/{c}: {est} vs {terms}"
            );
        }
    }
}
