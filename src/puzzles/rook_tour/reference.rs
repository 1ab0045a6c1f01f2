//! A structured reference solver, no SAT: depth-first search over
//! Hamiltonian paths, placing 1, 2, … on neighbouring cells, pruning a cell
//! as soon as its value breaks a given or a value set, and passing every
//! complete numbering through the independent checker. Exponential: for
//! cross-checking the CNF on small boards (up to 5×5 or so).

use super::check::check;
use super::model::{Cell, Instance, Numbering};

/// Every solution of `inst` (paths or tours per `inst.tour`), in DFS order.
pub fn all_solutions(inst: &Instance) -> Vec<Numbering> {
    let n = inst.n();
    let mut given_cell = vec![None; n + 1];
    for (cell, g) in inst.givens.iter().enumerate() {
        if let Some(g) = g {
            given_cell[*g as usize] = Some(cell);
        }
    }
    let mut search = Search {
        inst,
        given_cell,
        vals: vec![0; n],
        out: vec![],
    };
    for start in 0..n {
        if search.fits(start, 1) {
            search.vals[start] = 1;
            search.extend(start, 1);
            search.vals[start] = 0;
        }
    }
    search.out
}

struct Search<'a> {
    inst: &'a Instance,
    given_cell: Vec<Option<Cell>>,
    vals: Vec<u32>,
    out: Vec<Numbering>,
}

impl Search<'_> {
    /// May `cell` hold `v` by the givens and the sets?
    fn fits(&self, cell: Cell, v: u32) -> bool {
        if self.inst.givens[cell].is_some_and(|g| g != v)
            || self.given_cell[v as usize].is_some_and(|c| c != cell)
        {
            return false;
        }
        self.inst.sets.iter().enumerate().all(|(i, set)| {
            let marked = self.inst.marks[cell] == Some(i);
            let member = set.values.contains(&v);
            (!marked || member) && (!set.exactly || !member || marked)
        })
    }

    fn extend(&mut self, last: Cell, v: u32) {
        if v as usize == self.inst.n() {
            let sol = Numbering::from_cells(self.inst.rows, self.inst.cols, &self.vals);
            if check(self.inst, &sol).is_ok() {
                self.out.push(sol);
            }
            return;
        }
        for next in self.inst.neighbours(last) {
            if self.vals[next] == 0 && self.fits(next, v + 1) {
                self.vals[next] = v + 1;
                self.extend(next, v + 1);
                self.vals[next] = 0;
            }
        }
    }
}
