//! Connectivity of a numbered path on partial assignments
//! (`--connectivity lazy`): the rook family's [`PartialCheck`] for the
//! built-in all-solutions engine, the work a CP solver's `circuit`
//! propagator does (Gecode fails on a dead end or a cut-off region as soon
//! as it appears). The position encoding's clauses see one step of the path
//! at a time; this check reads the cells whose number is fixed ("cell c
//! holds k" true) after propagation and fails, with a clause of the fixed
//! literals that explain it, when
//!
//! - **a dead end**: a free cell has fewer than two neighbours that can be
//!   next to it on the path (a free neighbour, or a fixed one whose number
//!   k still misses k − 1 or k + 1), so it must hold 1 or R·C, and more such
//!   cells wait than ends of the path are free (a tour has none);
//! - **a region that cannot be covered**: a connected region R of free
//!   cells is entered and left only through its fixed neighbours, so the
//!   numbers in R are whole *gaps* between consecutive numbers of those
//!   neighbours (w_i + 1 … w_{i+1} − 1), plus the numbers below the least
//!   (from 1) and above the greatest (up to R·C) for a path, or the wrapped
//!   gap for a tour; a gap holding a number fixed elsewhere is out. The
//!   board is bipartite, so each gap's cells have known colours (the colour
//!   alternates along the path). If no choice of gaps has exactly R's
//!   cells of each colour, R cannot be covered.
//!
//! Both clauses are implied: every literal in them is a fixed "holds"
//! literal, and the argument above holds for any path with those numbers
//! in those cells, whatever the other cells hold. (Checking two fixed
//! numbers k < k' for distance and parity is left to the clauses: with
//! `--links both` unit propagation already confines each number to the
//! cells within reach of the fixed ones.)

use puzzlesat_encodings::solve::{Partial, PartialCheck};
use puzzlesat_encodings::Lit;

use super::model::Instance;

const FREE: u32 = 0;
const NONE: usize = usize::MAX;

/// The check for one board (paths or tours), over the position encoding's
/// literals `x[c][k-1]` ⇔ cell c holds k.
pub struct PathCheck {
    n: usize,
    tour: bool,
    x: Vec<Vec<Lit>>,
    nb: Vec<Vec<usize>>,
    colour: Vec<u8>,
    // scratch, reused by every call
    /// the number of each cell, [`FREE`] for none
    val: Vec<u32>,
    /// the cell of each number (index k), [`NONE`] for none
    at: Vec<usize>,
    /// the region of each free cell
    region: Vec<u32>,
    stamp: Vec<u32>,
    round: u32,
    stack: Vec<usize>,
    /// the first variable of x, and per variable from it: (cell, number)
    /// of an x literal, (NONE, 0) for another variable
    base: u32,
    holds: Vec<(usize, u32)>,
    /// the fixed cells in trail order: (trail index, cell)
    fixed: Vec<(usize, usize)>,
    /// the fixed cells changed since the last check
    dirty: bool,
}

impl PathCheck {
    /// The check for `inst` over the position literals `x`.
    pub fn new(inst: &Instance, x: &[Vec<Lit>]) -> Self {
        let n = inst.n();
        let vars = x.iter().flatten().map(|l| l.vidx32());
        let base = vars.clone().min().unwrap_or(0);
        let top = vars.max().map_or(0, |v| v + 1);
        let mut holds = vec![(NONE, 0); (top - base) as usize];
        for (c, row) in x.iter().enumerate() {
            for (k, &l) in row.iter().enumerate() {
                holds[(l.vidx32() - base) as usize] = (c, k as u32 + 1);
            }
        }
        PathCheck {
            base,
            holds,
            fixed: vec![],
            dirty: true,
            n,
            tour: inst.tour,
            x: x.to_vec(),
            nb: (0..n).map(|c| inst.neighbours(c)).collect(),
            colour: (0..n)
                .map(|c| ((c / inst.cols + c % inst.cols) % 2) as u8)
                .collect(),
            val: vec![FREE; n],
            at: vec![NONE; n + 2],
            region: vec![0; n],
            stamp: vec![0; n],
            round: 0,
            stack: vec![],
        }
    }

    /// The literal "cell c holds k" of a fixed cell, negated (a clause's
    /// literal).
    fn not_holds(&self, c: usize) -> Lit {
        !self.x[c][self.val[c] as usize - 1]
    }

    /// The number before and after k along the path (a tour wraps).
    fn around(&self, k: usize) -> [Option<usize>; 2] {
        let n = self.n;
        let before = if k > 1 {
            Some(k - 1)
        } else {
            self.tour.then_some(n)
        };
        let after = if k < n {
            Some(k + 1)
        } else {
            self.tour.then_some(1)
        };
        [before, after]
    }

    /// True if fixed cell w can be a path neighbour of a free cell: its
    /// number misses a neighbouring number.
    fn open(&self, w: usize) -> bool {
        let k = self.val[w] as usize;
        self.around(k).iter().flatten().any(|&j| self.at[j] == NONE)
    }

    /// Why fixed cell w cannot be a free cell's path neighbour: its literal
    /// and those of the cells holding its neighbouring numbers.
    fn closed_because(&self, w: usize, clause: &mut Vec<Lit>) {
        clause.push(self.not_holds(w));
        for j in self.around(self.val[w] as usize).into_iter().flatten() {
            clause.push(!self.x[self.at[j]][j - 1]);
        }
    }

    /// Dead ends (module docs): a clause, or None.
    fn dead_ends(&self) -> Option<Vec<Lit>> {
        let n = self.n;
        // the path's ends still free to be placed (a tour has none)
        let ends: Vec<usize> = if self.tour {
            vec![]
        } else {
            [1, n].into_iter().filter(|&k| self.at[k] == NONE).collect()
        };
        let mut clause = vec![];
        let mut dead = 0;
        for v in 0..n {
            if self.val[v] != FREE {
                continue;
            }
            let avail = self.nb[v]
                .iter()
                .filter(|&&w| self.val[w] == FREE || self.open(w))
                .count();
            if avail >= 2 {
                continue;
            }
            // v must be an end of the path; with no neighbour at all, it
            // cannot be on a path of more than one cell
            if avail == 0 {
                let mut clause = vec![];
                for &w in &self.nb[v] {
                    self.closed_because(w, &mut clause);
                }
                return Some(clause);
            }
            for &w in &self.nb[v] {
                if self.val[w] != FREE && !self.open(w) {
                    self.closed_because(w, &mut clause);
                }
            }
            dead += 1;
            if dead > ends.len() {
                // the ends already placed
                if !self.tour {
                    for k in [1, n] {
                        if self.at[k] != NONE {
                            clause.push(!self.x[self.at[k]][k - 1]);
                        }
                    }
                }
                return Some(clause);
            }
        }
        None
    }

    /// Regions that cannot be covered (module docs): a clause, or None.
    fn regions(&mut self) -> Option<Vec<Lit>> {
        let n = self.n;
        let mut regions = 0u32;
        for c in 0..n {
            self.region[c] = u32::MAX;
        }
        for start in 0..n {
            if self.val[start] != FREE || self.region[start] != u32::MAX {
                continue;
            }
            // the region of `start`: its cells' colours and fixed neighbours
            regions += 1;
            let id = regions;
            self.round += 1;
            let round = self.round;
            let mut cells = [0usize; 2];
            let mut boundary = vec![];
            self.region[start] = id;
            self.stack.clear();
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                cells[self.colour[c] as usize] += 1;
                for i in 0..self.nb[c].len() {
                    let d = self.nb[c][i];
                    if self.val[d] == FREE {
                        if self.region[d] == u32::MAX {
                            self.region[d] = id;
                            self.stack.push(d);
                        }
                    } else if self.stamp[d] != round {
                        self.stamp[d] = round;
                        boundary.push(d);
                    }
                }
            }
            if boundary.is_empty() {
                continue;
            }
            if let Some(clause) = self.uncoverable(cells, &mut boundary) {
                return Some(clause);
            }
        }
        None
    }

    /// With the region's cell counts by colour and its fixed neighbours:
    /// the clause if no choice of gaps covers it.
    fn uncoverable(&self, cells: [usize; 2], boundary: &mut [usize]) -> Option<Vec<Lit>> {
        let n = self.n;
        boundary.sort_unstable_by_key(|&w| self.val[w]);
        let mut clause: Vec<Lit> = boundary.iter().map(|&w| self.not_holds(w)).collect();
        // each usable gap: its cells by colour
        let mut gaps: Vec<[usize; 2]> = vec![];
        // a gap of `len` numbers going away from the fixed cell `from`
        // (up from its number, or down for the numbers below the least):
        // colours alternate, starting with the other colour
        let mut gap =
            |from: usize, numbers: &mut dyn Iterator<Item = usize>, clause: &mut Vec<Lit>| {
                let mut len = 0usize;
                for k in numbers {
                    if self.at[k] != NONE {
                        // a number of the gap is fixed outside the region
                        clause.push(!self.x[self.at[k]][k - 1]);
                        return;
                    }
                    len += 1;
                }
                if len > 0 {
                    let other = 1 - self.colour[from] as usize;
                    let mut g = [0; 2];
                    g[other] = len.div_ceil(2);
                    g[1 - other] = len / 2;
                    gaps.push(g);
                }
            };
        let values: Vec<usize> = boundary.iter().map(|&w| self.val[w] as usize).collect();
        for i in 0..boundary.len() - 1 {
            gap(
                boundary[i],
                &mut (values[i] + 1..values[i + 1]),
                &mut clause,
            );
        }
        let (first, last) = (values[0], values[values.len() - 1]);
        let (wf, wl) = (boundary[0], boundary[boundary.len() - 1]);
        if self.tour {
            gap(wl, &mut (last + 1..=n).chain(1..first), &mut clause);
        } else {
            gap(wf, &mut (1..first).rev(), &mut clause);
            gap(wl, &mut (last + 1..=n), &mut clause);
        }
        // is there a subset of the gaps with exactly `cells` by colour?
        let total = gaps.iter().fold([0, 0], |t, g| [t[0] + g[0], t[1] + g[1]]);
        if total[0] < cells[0] || total[1] < cells[1] {
            return Some(clause);
        }
        if total == cells {
            return None;
        }
        let w = cells[1] + 1;
        let mut reach = vec![false; (cells[0] + 1) * w];
        reach[0] = true;
        for g in &gaps {
            for a in (g[0]..=cells[0]).rev() {
                for b in (g[1]..=cells[1]).rev() {
                    if reach[(a - g[0]) * w + b - g[1]] {
                        reach[a * w + b] = true;
                    }
                }
            }
            if reach[cells[0] * w + cells[1]] {
                return None;
            }
        }
        Some(clause)
    }
}

impl PartialCheck for PathCheck {
    fn conflict(&mut self, partial: &Partial<'_>) -> Option<Vec<Lit>> {
        let n = self.n;
        if n < 2 {
            return None;
        }
        // follow the trail: undo the cells fixed past the kept part, fix
        // the cells of the "holds" literals assigned since
        let kept = partial.kept();
        while let Some(&(i, c)) = self.fixed.last() {
            if i < kept {
                break;
            }
            self.fixed.pop();
            self.at[self.val[c] as usize] = NONE;
            self.val[c] = FREE;
            self.dirty = true;
        }
        for i in kept..partial.len() {
            let l = partial.at(i);
            if l.is_neg() {
                continue;
            }
            let Some(&(c, k)) = l
                .vidx32()
                .checked_sub(self.base)
                .and_then(|v| self.holds.get(v as usize))
            else {
                continue;
            };
            if c != NONE {
                self.val[c] = k;
                self.at[k as usize] = c;
                self.fixed.push((i, c));
                self.dirty = true;
            }
        }
        // the same fixed cells as at the last check, which found nothing
        if !self.dirty {
            return None;
        }
        self.dirty = false;
        let fixed = self.fixed.len();
        if fixed == 0 || fixed == n {
            return None;
        }
        // a conflict is backtracked from: check again next time
        let found = self.dead_ends().or_else(|| self.regions());
        self.dirty = found.is_some();
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rook_tour::reference;
    use puzzlesat_encodings::solve::Assigned;
    use puzzlesat_encodings::{ClauseDatabase, Cnf};

    fn board(rows: usize, cols: usize, tour: bool) -> Instance {
        let grid = vec![vec!["."; cols].join(" "); rows].join("\n");
        let text =
            format!("rows = {rows}\ncols = {cols}\ntour = {tour}\ngrid = \"\"\"\n{grid}\n\"\"\"\n");
        Instance::from_toml(&text, "test.toml").expect("a board")
    }

    /// Every clause the check returns, on partial numberings cut from
    /// random numberings (solutions or not), holds in every solution found
    /// by brute force: the check is sound.
    #[test]
    fn every_clause_holds_in_every_solution() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut fired = 0;
        for (rows, cols, tour) in [
            (3, 3, false),
            (3, 4, false),
            (4, 4, false),
            (4, 4, true),
            (2, 5, false),
            (3, 4, true),
        ] {
            let inst = board(rows, cols, tour);
            let n = inst.n();
            let sols = reference::all_solutions(&inst);
            let mut cnf = Cnf::new();
            let x: Vec<Vec<Lit>> = (0..n).map(|_| cnf.fresh_lits(n)).collect();
            for round in 0..4000 {
                // a numbering: a solution's, or a random permutation
                let mut vals: Vec<u32> = if round % 2 == 0 && !sols.is_empty() {
                    sols[(next() % sols.len() as u64) as usize].cells()
                } else {
                    let mut v: Vec<u32> = (1..=n as u32).collect();
                    for i in (1..n).rev() {
                        v.swap(i, (next() % (i as u64 + 1)) as usize);
                    }
                    v
                };
                // keep a random subset of the cells
                let keep = next() % (n as u64 + 1);
                for v in vals.iter_mut() {
                    if next() % (n as u64) >= keep {
                        *v = 0;
                    }
                }
                let assigned: Vec<Lit> = (0..n)
                    .filter(|&c| vals[c] > 0)
                    .map(|c| x[c][vals[c] as usize - 1])
                    .collect();
                // a fresh check (its first call reads the whole trail)
                let mut check = PathCheck::new(&inst, &x);
                let a = Assigned::new(&assigned, cnf.n_vars());
                if let Some(clause) = check.conflict(&a.partial()) {
                    fired += 1;
                    assert!(
                        clause.iter().all(|&l| assigned.contains(&!l)),
                        "a literal not fixed false"
                    );
                    for s in &sols {
                        let cells = s.cells();
                        // x[c][k] is variable c·n + k
                        let holds = |l: Lit| {
                            let v = l.vidx();
                            (cells[v / n] == (v % n) as u32 + 1) != l.is_neg()
                        };
                        assert!(
                            clause.iter().any(|&l| holds(l)),
                            "{rows}x{cols} tour={tour}: a clause excludes a solution: {vals:?}"
                        );
                    }
                }
            }
        }
        assert!(fired > 1000, "the check fired {fired} times");
    }

    /// Followed incrementally along a trail that grows and shrinks (as the
    /// engine's does), the check answers as a fresh one does on the same
    /// assignment.
    #[test]
    fn incremental_answers_equal_fresh_ones() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let mut compared = [0; 2];
        for (rows, cols, tour) in [(4, 4, false), (5, 5, false), (4, 4, true)] {
            let inst = board(rows, cols, tour);
            let n = inst.n();
            let mut cnf = Cnf::new();
            let x: Vec<Vec<Lit>> = (0..n).map(|_| cnf.fresh_lits(n)).collect();
            let mut check = PathCheck::new(&inst, &x);
            // the trail: "holds" literals of free cells and free numbers,
            // and some negative ones
            let mut trail: Vec<Lit> = vec![];
            let mut kept = 0;
            for _ in 0..20_000 {
                if next(3) == 0 && !trail.is_empty() {
                    let to = next(trail.len() + 1);
                    trail.truncate(to);
                    kept = kept.min(to);
                }
                for _ in 0..next(3) {
                    let (c, k) = (next(n), next(n));
                    let taken = trail.iter().any(|&l| {
                        let v = l.vidx();
                        !l.is_neg() && (v / n == c || v % n == k)
                    });
                    let l = if next(4) == 0 { !x[c][k] } else { x[c][k] };
                    if !taken && !trail.contains(&l) && !trail.contains(&!l) {
                        trail.push(l);
                    }
                }
                let a = Assigned::new(&trail, cnf.n_vars());
                let incremental = check.conflict(&a.partial_since(kept));
                kept = trail.len();
                let fresh = PathCheck::new(&inst, &x).conflict(&a.partial());
                assert_eq!(incremental, fresh, "{rows}x{cols} tour={tour}: {trail:?}");
                compared[usize::from(fresh.is_some())] += 1;
            }
        }
        assert!(compared[0] > 1000 && compared[1] > 1000, "{compared:?}");
    }
}
