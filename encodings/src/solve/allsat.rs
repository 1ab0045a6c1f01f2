//! The all-solutions engine: a small CDCL solver built to enumerate models
//! projected onto a set of primary variables without paying a solve call
//! and a long permanent clause per model.
//!
//! Its modes ([`AllSatMode`]) are those of Toda & Soh, "Implementing
//! Efficient All Solutions SAT Solvers" (ACM JEA 21, 2016):
//!
//! - **non-blocking** (default; `non-blocking-learning` and
//!   `non-blocking-dpll` differ in conflicts only): chronological
//!   backtracking after each
//!   model (Grumberg, Schuster & Yadgar, "Memory Efficient All-Solutions SAT
//!   Solver and its Application for Reachability Analysis", FMCAD 2004). The
//!   primary variables are decided before any other, so a model's
//!   projection is fixed by the decisions up to the last primary one. After
//!   a model the deepest primary decision that is not yet *flipped* is
//!   flipped: its level is reopened with the opposite literal, marked
//!   closed (its other branch is enumerated). No clause is added for a
//!   model; the enumerated part of the space is the set of closed levels on
//!   the trail. Learnt clauses are derived by resolution from the formula
//!   alone (a flipped literal has no reason and is treated as a decision in
//!   conflict analysis), so they may be deleted and never block a solution.
//!   A conflict never backjumps below the highest closed level; a conflict
//!   *at* a closed level means both branches below it are done, and the next
//!   open primary decision below is flipped. Memory stays flat: no clause
//!   and no record per model. On a conflict the default learns (first UIP)
//!   only while models are sparse ([`LEARN_AFTER`]); otherwise, and always
//!   in `non-blocking-dpll`, it flips the deepest open decision (DPLL).
//! - **decision-blocking**: after each model, the clause of the negated
//!   primary decisions (not of every primary literal: the rest are implied
//!   by them) is added for good and the solver backjumps from it as from a
//!   conflict.
//!
//! Once every primary variable is assigned, the free auxiliary ones are
//! tried at their saved phases all at once before any is decided. Until an
//! activity is bumped, decisions follow the initial order by a cursor.
//!
//! A puzzle may add its own reasoning ([`PartialCheck`], e.g. the
//! connectivity of a numbered path): after propagation at each step the
//! check looks at the partial assignment and may name a clause that every
//! solution satisfies and the assignment falsifies. The engine stores it as
//! a learnt clause and handles it as a conflict at its highest level, as a
//! CP propagator's failure with its explanation (the lazy clause generation
//! of Ohrimenko, Stuckey & Codish, "Propagation via lazy clause generation",
//! Constraints 2009). The engine knows nothing of the puzzle.
//!
//! Assumptions are closed levels at the bottom of the trail: the search is
//! exhausted when a conflict reaches them. Used as a [`Backend`] it also
//! answers single solve calls (one model under assumptions, or UNSAT), and
//! takes clauses at any time, also mid-enumeration (lazy constraints): a
//! clause the current assignment falsifies is handled as a conflict.

use crate::Assignment;
use rustsat::types::Lit;

use super::{Backend, InSearch, Limits, ModelVerdict, Outcome, SolverError, SolverStats};

crate::option_enum! {
    /// How the all-solutions engine moves on after a model.
    #[derive(Default)]
    pub enum AllSatMode("enumeration mode") {
        /// chronological backtracking after models and conflicts; conflict
        /// learning switched on while models are sparse (after
        /// [`LEARN_AFTER`] conflicts without a model, until the next one)
        #[default]
        NonBlocking = "non-blocking",
        /// chronological backtracking after models; conflicts learnt (first
        /// UIP) with backjumping down to the highest closed level
        NonBlockingLearning = "non-blocking-learning",
        /// chronological backtracking after models and conflicts alike, no
        /// learning: the DPLL enumeration (Davis, Logemann & Loveland 1962)
        NonBlockingDpll = "non-blocking-dpll",
        /// add the clause of the negated primary decisions and backjump from it
        DecisionBlocking = "decision-blocking",
    }
}

/// The engine's partial assignment, as a [`PartialCheck`] sees it: the
/// value of each literal, and the trail (the true literals in the order
/// they were assigned) with how much of it is unchanged since the check's
/// last call, so that a check can follow the assignment incrementally.
pub struct Partial<'a> {
    value: &'a [u8],
    trail: &'a [u32],
    kept: usize,
}

impl<'a> Partial<'a> {
    /// The literal's value: None while unassigned.
    #[inline]
    pub fn lit(&self, l: Lit) -> Option<bool> {
        match self.value.get(code(l) as usize) {
            Some(&TRUE) => Some(true),
            Some(&FALSE) => Some(false),
            _ => None,
        }
    }
    /// True if the literal is assigned true.
    #[inline]
    pub fn is_true(&self, l: Lit) -> bool {
        self.value.get(code(l) as usize) == Some(&TRUE)
    }
    /// The number of literals on the trail.
    pub fn len(&self) -> usize {
        self.trail.len()
    }
    /// True if nothing is assigned.
    pub fn is_empty(&self) -> bool {
        self.trail.is_empty()
    }
    /// The `i`-th true literal of the trail.
    #[inline]
    pub fn at(&self, i: usize) -> Lit {
        let c = self.trail[i];
        Lit::new(c >> 1, c & 1 == 1)
    }
    /// The first `kept` literals of the trail are those of the check's last
    /// call (0 at its first call): the rest were assigned since.
    pub fn kept(&self) -> usize {
        self.kept
    }
}

/// An assignment built by hand (a list of true literals), to try a
/// [`PartialCheck`] outside the engine, e.g. in tests.
pub struct Assigned {
    value: Vec<u8>,
    trail: Vec<u32>,
}

impl Assigned {
    /// `assigned` true (their negations false), in this order, over
    /// variables `0..n_vars`; the rest unassigned.
    pub fn new(assigned: &[Lit], n_vars: u32) -> Self {
        let mut value = vec![UNDEF; 2 * n_vars as usize];
        for &l in assigned {
            value[code(l) as usize] = TRUE;
            value[code(!l) as usize] = FALSE;
        }
        Assigned {
            value,
            trail: assigned.iter().map(|&l| code(l)).collect(),
        }
    }
    /// The view a check sees at its first call.
    pub fn partial(&self) -> Partial<'_> {
        self.partial_since(0)
    }
    /// The view a check sees when the first `kept` literals are those of
    /// its last call.
    pub fn partial_since(&self, kept: usize) -> Partial<'_> {
        Partial {
            value: &self.value,
            trail: &self.trail,
            kept: kept.min(self.trail.len()),
        }
    }
}

/// Reasoning the built-in engine runs on partial assignments (installed by
/// [`Backend::set_partial_check`]): after propagation, before each
/// decision, [`PartialCheck::conflict`] may return a clause that *every
/// solution of the problem* satisfies (an implied constraint, so that it
/// never excludes a model, counted or not) and that the current assignment
/// falsifies (every literal false). The engine learns it and backtracks
/// from it as from a conflict. A check that finds nothing returns None;
/// one that is never installed changes nothing.
pub trait PartialCheck {
    /// A falsified implied clause, or None.
    fn conflict(&mut self, partial: &Partial<'_>) -> Option<Vec<Lit>>;
}

/// Conflicts without a model after which [`AllSatMode::NonBlocking`] learns.
/// Learning pays where models are sparse (magic squares: DPLL finds none of
/// the 4×4 representatives in 90 s, learning all in 0.5 s) and costs where
/// they are dense (queens n = 14: 2.1 s without learning, 5.0 s with; the
/// empty 6×6 rook board: 9.2 s against 12.8 s).
pub const LEARN_AFTER: u64 = 1000;

const TRUE: u8 = 1;
const FALSE: u8 = 0;
const UNDEF: u8 = 2;
const NONE: u32 = u32::MAX;

/// Learnt clauses kept beyond one per assigned literal: the database is
/// halved (by LBD) past it and never grows. Enumeration gains little from
/// learnt clauses and pays for visiting them: on queens n = 12 (plain
/// enumeration, an early build of this engine that always learnt) a budget
/// of 200 enumerated in 0.55 s, 2,000 in 0.97 s, and a budget growing by
/// 10% at each reduction (MiniSat's schedule) in 5.8 s.
const LEARNT_BUDGET: usize = 200;

/// A watch: the clause and a literal of it (if true, the clause is
/// satisfied and need not be visited); binary clauses are never visited
/// (the other literal is the blocker).
#[derive(Clone, Copy)]
struct Watch {
    cref: u32,
    blocker: u32,
    binary: bool,
}

struct Clause {
    lits: Vec<u32>,
    /// 0 for a clause of the formula
    lbd: u32,
}

#[derive(Clone, Copy)]
struct Level {
    /// trail index of the level's first literal
    start: usize,
    /// the decision (or flipped decision, or assumption); NONE for an
    /// assumption that was already true
    decision: u32,
    /// flipped or assumption: never flipped again, never backjumped over
    closed: bool,
}

/// An indexed max-heap of variables by activity.
#[derive(Default)]
struct VarHeap {
    heap: Vec<u32>,
    pos: Vec<u32>,
}

impl VarHeap {
    fn contains(&self, v: u32) -> bool {
        self.pos.get(v as usize).is_some_and(|&p| p != NONE)
    }
    fn grow(&mut self, n: usize) {
        if self.pos.len() < n {
            self.pos.resize(n, NONE);
        }
    }
    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let pv = self.heap[parent];
            if act[pv as usize] >= act[v as usize] {
                break;
            }
            self.heap[i] = pv;
            self.pos[pv as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && act[self.heap[r] as usize] > act[self.heap[l] as usize] {
                r
            } else {
                l
            };
            let cv = self.heap[c];
            if act[cv as usize] <= act[v as usize] {
                break;
            }
            self.heap[i] = cv;
            self.pos[cv as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
    fn insert(&mut self, v: u32, act: &[f64]) {
        self.grow(v as usize + 1);
        if self.contains(v) {
            return;
        }
        self.heap.push(v);
        let i = self.heap.len() - 1;
        self.pos[v as usize] = i as u32;
        self.up(i, act);
    }
    fn bumped(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            let i = self.pos[v as usize] as usize;
            self.up(i, act);
        }
    }
    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = NONE;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0, act);
        }
        Some(top)
    }
    fn clear(&mut self) {
        for &v in &self.heap {
            self.pos[v as usize] = NONE;
        }
        self.heap.clear();
    }
}

/// How a search ended.
enum Searched {
    /// every variable assigned, no conflict
    Model,
    /// no (further) model under the closed levels
    Exhausted,
    /// the limits expired
    Stopped,
}

/// The all-solutions engine; see the module docs.
pub struct AllSat {
    mode: AllSatMode,
    n_vars: u32,
    clauses: Vec<Clause>,
    free: Vec<u32>,
    learnts: Vec<u32>,
    watches: Vec<Vec<Watch>>,
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    polarity: Vec<bool>,
    /// [`AllSat::completes_by_phase`] tries the free auxiliary variables
    /// false before their saved phases (it did so for the last model)
    aux_false_first: bool,
    activity: Vec<f64>,
    var_inc: f64,
    primary: Vec<bool>,
    primary_heap: VarHeap,
    aux_heap: VarHeap,
    trail: Vec<u32>,
    qhead: usize,
    levels: Vec<Level>,
    /// the closed levels, ascending
    closed: Vec<u32>,
    seen: Vec<bool>,
    /// per literal of a non-primary variable (by its code): the formula's
    /// clauses it occurs in
    aux_occurs: Vec<Vec<u32>>,
    /// deleted learnt clauses whose watches may remain
    deleted: Vec<u32>,
    /// scratch: the literals whose `seen` flag analysis clears
    to_clear: Vec<u32>,
    /// scratch for [`AllSat::lbd`]: the stamp of each level
    level_stamp: Vec<u64>,
    stamp: u64,
    /// false once the formula is UNSAT at level 0
    ok: bool,
    /// an enumeration in progress (primary literals and assumptions as
    /// IPASIR numbers): a call with the same ones resumes it
    enumerating: Option<(Vec<u32>, Vec<u32>)>,
    /// the state is a model shown to the caller, not yet moved past
    at_model: bool,
    /// the enumeration in progress ended while a clause was added
    exhausted: bool,
    /// an invariant broken by a clause added mid-enumeration
    broken: Option<String>,
    saved_model: Vec<bool>,
    /// the assumptions of the last UNSAT answer (no smaller core is made)
    failed: Vec<Lit>,
    /// conflicts since the last model (or the start)
    conflicts_since_model: u64,
    /// the primary variables in the initial decision order (by index), the
    /// position of each, and the first one that may be unassigned: the
    /// decisions while not learning ([`AllSat::pick_primary`])
    primary_order: Vec<u32>,
    order_position: Vec<u32>,
    order_cursor: usize,
    /// an activity was bumped: the heap's order is no longer the initial one
    bumped: bool,
    /// search steps since the limits were last looked at
    since_check: u32,
    /// [`LEARNT_BUDGET`] (tests lower it to exercise the reduction)
    learnt_budget: usize,
    /// the trail's first literals unchanged since the check's last call
    check_kept: usize,
    /// the levels of the assumptions, at the bottom of the trail
    assumed: usize,
    /// the puzzle's check of partial assignments, if installed
    partial_check: Option<Box<dyn PartialCheck>>,
    conflicts: u64,
    decisions: u64,
    propagations: u64,
}

impl Default for AllSat {
    fn default() -> Self {
        AllSat::new(AllSatMode::default())
    }
}

fn code(l: Lit) -> u32 {
    l.lidx() as u32
}

impl AllSat {
    /// An empty engine in `mode`.
    pub fn new(mode: AllSatMode) -> Self {
        AllSat {
            mode,
            n_vars: 0,
            clauses: vec![],
            free: vec![],
            learnts: vec![],
            watches: vec![],
            value: vec![],
            level: vec![],
            reason: vec![],
            polarity: vec![],
            aux_false_first: false,
            activity: vec![],
            var_inc: 1.0,
            primary: vec![],
            primary_heap: VarHeap::default(),
            aux_heap: VarHeap::default(),
            trail: vec![],
            qhead: 0,
            levels: vec![],
            closed: vec![],
            seen: vec![],
            aux_occurs: vec![],
            deleted: vec![],
            to_clear: vec![],
            level_stamp: vec![],
            stamp: 0,
            ok: true,
            enumerating: None,
            at_model: false,
            exhausted: false,
            broken: None,
            saved_model: vec![],
            failed: vec![],
            conflicts_since_model: 0,
            primary_order: vec![],
            order_position: vec![],
            order_cursor: 0,
            bumped: false,
            since_check: 0,
            learnt_budget: LEARNT_BUDGET,
            check_kept: 0,
            assumed: 0,
            partial_check: None,
            conflicts: 0,
            decisions: 0,
            propagations: 0,
        }
    }

    fn grow(&mut self, n: u32) {
        if n <= self.n_vars {
            return;
        }
        let n_us = n as usize;
        self.watches.resize_with(2 * n_us, Vec::new);
        self.value.resize(2 * n_us, UNDEF);
        self.level.resize(n_us, 0);
        self.reason.resize(n_us, NONE);
        self.polarity.resize(n_us, false);
        // a tiny decreasing initial activity: ties follow variable order
        for v in self.n_vars..n {
            self.activity.push(-(v as f64) * 1e-9);
        }
        self.primary.resize(n_us, false);
        self.seen.resize(n_us, false);
        self.primary_heap.grow(n_us);
        self.aux_heap.grow(n_us);
        for v in self.n_vars..n {
            self.aux_heap.insert(v, &self.activity);
        }
        self.n_vars = n;
    }

    fn decision_level(&self) -> u32 {
        self.levels.len() as u32
    }

    fn top_closed(&self) -> u32 {
        self.closed.last().copied().unwrap_or(0)
    }

    fn lit_value(&self, c: u32) -> u8 {
        self.value[c as usize]
    }

    fn assign(&mut self, c: u32, reason: u32) {
        let v = (c >> 1) as usize;
        self.value[c as usize] = TRUE;
        self.value[(c ^ 1) as usize] = FALSE;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(c);
    }

    fn push_level(&mut self, decision: u32, closed: bool) {
        self.levels.push(Level {
            start: self.trail.len(),
            decision,
            closed,
        });
        if closed {
            self.closed.push(self.decision_level());
        }
        if decision != NONE {
            self.assign(decision, NONE);
        }
    }

    fn backtrack(&mut self, to: u32) {
        if self.decision_level() <= to {
            return;
        }
        let start = self.levels[to as usize].start;
        for i in (start..self.trail.len()).rev() {
            let c = self.trail[i];
            let v = c >> 1;
            self.value[c as usize] = UNDEF;
            self.value[(c ^ 1) as usize] = UNDEF;
            self.reason[v as usize] = NONE;
            self.polarity[v as usize] = c & 1 == 0;
            if self.primary[v as usize] {
                self.primary_heap.insert(v, &self.activity);
                self.order_cursor = self
                    .order_cursor
                    .min(self.order_position[v as usize] as usize);
            } else {
                self.aux_heap.insert(v, &self.activity);
            }
        }
        self.trail.truncate(start);
        self.qhead = self.qhead.min(start);
        self.check_kept = self.check_kept.min(start);
        self.levels.truncate(to as usize);
        while self.closed.last().is_some_and(|&l| l > to) {
            self.closed.pop();
        }
    }

    fn new_clause(&mut self, lits: Vec<u32>, lbd: u32) -> u32 {
        let c = Clause { lits, lbd };
        match self.free.pop() {
            Some(i) => {
                self.clauses[i as usize] = c;
                i
            }
            None => {
                self.clauses.push(c);
                (self.clauses.len() - 1) as u32
            }
        }
    }

    fn attach(&mut self, cref: u32) {
        let c = &self.clauses[cref as usize].lits;
        let (a, b) = (c[0], c[1]);
        let binary = c.len() == 2;
        self.watches[a as usize].push(Watch {
            cref,
            blocker: b,
            binary,
        });
        self.watches[b as usize].push(Watch {
            cref,
            blocker: a,
            binary,
        });
    }

    /// Unit propagation; the conflicting clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        let mut conflict = None;
        while self.qhead < self.trail.len() && conflict.is_none() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.propagations += 1;
            let false_lit = p ^ 1;
            let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
            let (mut i, mut j) = (0, 0);
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                let bv = self.value[w.blocker as usize];
                if bv == TRUE {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.binary {
                    ws[j] = w;
                    j += 1;
                    if bv == FALSE {
                        conflict = Some(w.cref);
                        break;
                    }
                    self.assign(w.blocker, w.cref);
                    continue;
                }
                let lits = &mut self.clauses[w.cref as usize].lits;
                if lits.is_empty() {
                    continue; // a deleted clause: drop the watch
                }
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                let first = lits[0];
                if first != w.blocker && self.value[first as usize] == TRUE {
                    ws[j] = Watch {
                        blocker: first,
                        ..w
                    };
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..lits.len() {
                    if self.value[lits[k] as usize] != FALSE {
                        lits.swap(1, k);
                        let nw = lits[1];
                        self.watches[nw as usize].push(Watch {
                            cref: w.cref,
                            blocker: first,
                            binary: false,
                        });
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = Watch {
                    blocker: first,
                    ..w
                };
                j += 1;
                if self.value[first as usize] == FALSE {
                    conflict = Some(w.cref);
                    break;
                }
                self.assign(first, w.cref);
            }
            while i < ws.len() {
                ws[j] = ws[i];
                i += 1;
                j += 1;
            }
            ws.truncate(j);
            self.watches[false_lit as usize] = ws;
        }
        conflict
    }

    fn bump(&mut self, v: u32) {
        self.bumped = true;
        let a = &mut self.activity[v as usize];
        *a += self.var_inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        if self.primary[v as usize] {
            self.primary_heap.bumped(v, &self.activity);
        } else {
            self.aux_heap.bumped(v, &self.activity);
        }
    }

    /// First-UIP conflict analysis at the current level; the learnt clause
    /// (asserting literal first, a literal of the second highest level
    /// second) and that level.
    fn analyze(&mut self, conflict: u32) -> (Vec<u32>, u32) {
        let current = self.decision_level();
        let mut learnt = vec![NONE];
        let mut path = 0usize;
        let mut p = NONE;
        let mut idx = self.trail.len();
        let mut cref = conflict;
        loop {
            let lits = std::mem::take(&mut self.clauses[cref as usize].lits);
            for &q in &lits {
                let v = q >> 1;
                if p != NONE && v == p >> 1 {
                    continue;
                }
                if !self.seen[v as usize] && self.level[v as usize] > 0 {
                    self.seen[v as usize] = true;
                    self.bump(v);
                    if self.level[v as usize] >= current {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            self.clauses[cref as usize].lits = lits;
            loop {
                idx -= 1;
                if self.seen[(self.trail[idx] >> 1) as usize] {
                    break;
                }
            }
            p = self.trail[idx];
            self.seen[(p >> 1) as usize] = false;
            path -= 1;
            if path == 0 {
                break;
            }
            cref = self.reason[(p >> 1) as usize];
            debug_assert_ne!(cref, NONE, "a decision before the UIP");
        }
        learnt[0] = p ^ 1;
        // local minimisation: drop a literal whose reason's other literals
        // are all in the clause (or at level 0)
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&learnt[1..]);
        let mut kept = 1;
        for i in 1..learnt.len() {
            let q = learnt[i];
            let r = self.reason[(q >> 1) as usize];
            let redundant = r != NONE
                && self.clauses[r as usize].lits.iter().all(|&x| {
                    let v = (x >> 1) as usize;
                    v == (q >> 1) as usize || self.seen[v] || self.level[v] == 0
                });
            if !redundant {
                learnt[kept] = q;
                kept += 1;
            }
        }
        learnt.truncate(kept);
        for i in 0..self.to_clear.len() {
            let v = (self.to_clear[i] >> 1) as usize;
            self.seen[v] = false;
        }
        let mut back = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for i in 2..learnt.len() {
                if self.level[(learnt[i] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = i;
                }
            }
            learnt.swap(1, best);
            back = self.level[(learnt[1] >> 1) as usize];
        }
        self.var_inc /= 0.95;
        (learnt, back)
    }

    /// The number of distinct levels of `lits` (literal block distance).
    fn lbd(&mut self, lits: &[u32]) -> u32 {
        self.stamp += 1;
        let mut n = 0;
        for &q in lits {
            let l = self.level[(q >> 1) as usize] as usize;
            if self.level_stamp.len() <= l {
                self.level_stamp.resize(l + 1, 0);
            }
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                n += 1;
            }
        }
        n
    }

    /// Stores a learnt clause and watches it (a unit learnt clause is
    /// dropped: it is implied, nothing depends on keeping it).
    fn learn(&mut self, lits: Vec<u32>, lbd: u32) -> Option<u32> {
        if lits.len() < 2 {
            return None;
        }
        let cref = self.new_clause(lits, lbd);
        self.attach(cref);
        self.learnts.push(cref);
        Some(cref)
    }

    /// The highest open (not closed) level at or below `level`, if any.
    fn open_level_at_most(&self, level: u32) -> Option<u32> {
        (1..=level)
            .rev()
            .find(|&l| !self.levels[l as usize - 1].closed)
    }

    /// Moves past an exhausted closed level `c` (or the model's subtree):
    /// flips the highest open decision at or below `from`. False when none
    /// is left: the enumeration is complete.
    fn flip_below(&mut self, from: u32) -> bool {
        let Some(j) = self.open_level_at_most(from) else {
            return false;
        };
        let d = self.levels[j as usize - 1].decision;
        self.backtrack(j - 1);
        self.push_level(d ^ 1, true);
        true
    }

    /// Handles a conflict; false when the search space (under the closed
    /// levels) is exhausted.
    fn handle_conflict(&mut self, conflict: u32) -> bool {
        self.conflicts += 1;
        let current = self.decision_level();
        if current == 0 {
            self.ok = false;
            return false;
        }
        self.conflicts_since_model += 1;
        if !self.learning() {
            // DPLL: no model below the current level's decision (or below
            // any level down to the next open one): flip that decision
            return self.flip_below(current);
        }
        let (learnt, back) = self.analyze(conflict);
        let lbd = self.lbd(&learnt);
        if self.levels[current as usize - 1].closed {
            // both branches of the closed level are done: flip the next
            // open decision below it (the learnt clause is kept, unasserted)
            let Some(j) = self.open_level_at_most(current - 1) else {
                return false;
            };
            let d = self.levels[j as usize - 1].decision;
            self.backtrack(j - 1);
            self.learn(learnt, lbd);
            self.push_level(d ^ 1, true);
            return true;
        }
        let to = back.max(self.top_closed());
        self.backtrack(to);
        let asserting = learnt[0];
        match self.learn(learnt, lbd) {
            Some(cref) => self.assign(asserting, cref),
            None if to == 0 => self.assign(asserting, NONE),
            None => {
                // a unit learnt above level 0: keep it as a reason clause
                let cref = self.new_clause(vec![asserting], 1);
                self.learnts.push(cref);
                self.assign(asserting, cref);
            }
        }
        true
    }

    /// Learning from conflicts now (see [`AllSatMode`]).
    fn learning(&self) -> bool {
        match self.mode {
            AllSatMode::NonBlocking => self.conflicts_since_model > LEARN_AFTER,
            AllSatMode::NonBlockingDpll => false,
            AllSatMode::NonBlockingLearning | AllSatMode::DecisionBlocking => true,
        }
    }

    fn pick_primary(&mut self) -> Option<u32> {
        if !self.bumped {
            // no conflict learnt from yet, no activity bumped: the order is
            // the initial one (by variable), followed by a cursor instead of
            // popping the heap past every assigned variable
            while let Some(&v) = self.primary_order.get(self.order_cursor) {
                if self.value[2 * v as usize] == UNDEF {
                    return Some(2 * v + u32::from(!self.polarity[v as usize]));
                }
                self.order_cursor += 1;
            }
            return None;
        }
        while let Some(v) = self.primary_heap.pop(&self.activity) {
            if self.value[2 * v as usize] == UNDEF {
                return Some(2 * v + u32::from(!self.polarity[v as usize]));
            }
        }
        None
    }

    fn pick_aux(&mut self) -> Option<u32> {
        while let Some(v) = self.aux_heap.pop(&self.activity) {
            if self.value[2 * v as usize] == UNDEF {
                return Some(2 * v + u32::from(!self.polarity[v as usize]));
            }
        }
        None
    }

    /// The value of a variable in the model: assigned, else its saved phase
    /// (a model completed by [`AllSat::completes_by_phase`]).
    fn model_value(&self, v: u32) -> bool {
        match self.value[2 * v as usize] {
            UNDEF => self.polarity[v as usize],
            x => x == TRUE,
        }
    }

    /// A clause of the formula (not learnt) with a non-primary variable.
    fn is_aux_clause(&self, c: u32) -> bool {
        let cl = &self.clauses[c as usize];
        cl.lbd == 0 && cl.lits.iter().any(|&q| !self.primary[(q >> 1) as usize])
    }

    /// True if a decision on a non-primary variable is on the trail (the
    /// assumptions' levels at the bottom are not decisions: a cube's
    /// splitting literals are often auxiliary variables).
    fn aux_decided(&self) -> bool {
        self.levels[self.assumed.min(self.levels.len())..]
            .iter()
            .rev()
            .any(|l| l.decision != NONE && !self.primary[(l.decision >> 1) as usize])
    }

    /// With every primary variable assigned and propagation done: does the
    /// assignment, completed by the saved phases, satisfy every clause of
    /// the formula? Only the clauses of the unassigned variables need a
    /// look: a clause whose variables are all assigned holds (propagation
    /// ended without conflict). One pass over those clauses instead of a
    /// decision and a propagation per free auxiliary variable (lex-leader
    /// chains leave thousands of them free).
    ///
    /// Where the saved phases do not complete it, every free auxiliary
    /// variable false is tried too (their phases are then set so): the
    /// one-directional definitions of the encoders (lex-leader chains,
    /// ladders, "aᵢ → …") hold with a free auxiliary false, and stale
    /// phases left by earlier models would otherwise cost a decision and a
    /// propagation per free variable for every model. Whichever of the two completed the last model is tried first.
    fn completes_by_phase(&mut self) -> bool {
        let phases = |s: &Self| s.completes_with(|s, v| s.polarity[v as usize]);
        let falses = |s: &Self| s.completes_with(|_, _| false);
        let (done, by_false) = if self.aux_false_first {
            if falses(self) {
                (true, true)
            } else {
                (phases(self), false)
            }
        } else if phases(self) {
            (true, false)
        } else {
            (falses(self), true)
        };
        if !done {
            return false;
        }
        self.aux_false_first = by_false;
        if by_false {
            for i in 0..self.aux_heap.heap.len() {
                let v = self.aux_heap.heap[i];
                if self.value[2 * v as usize] == UNDEF {
                    self.polarity[v as usize] = false;
                }
            }
        }
        true
    }

    /// [`AllSat::completes_by_phase`] with the free auxiliary variables at
    /// `free(self, v)`.
    fn completes_with(&self, free: impl Fn(&Self, u32) -> bool) -> bool {
        let value = |v: u32| match self.value[2 * v as usize] {
            UNDEF => free(self, v),
            x => x == TRUE,
        };
        // a free variable at b makes its literals of sign b true: only the
        // clauses where it occurs with the other sign need a look
        self.aux_heap.heap.iter().all(|&v| {
            self.value[2 * v as usize] != UNDEF
                || self
                    .aux_occurs
                    .get((2 * v + u32::from(free(self, v))) as usize)
                    .is_none_or(|occurs| {
                        occurs.iter().all(|&c| {
                            self.clauses[c as usize]
                                .lits
                                .iter()
                                .any(|&q| value(q >> 1) == (q & 1 == 0))
                        })
                    })
        })
    }

    /// Notes an aux clause of the formula in the occurrence lists of its
    /// non-primary variables.
    fn note_aux_clause(&mut self, c: u32) {
        for i in 0..self.clauses[c as usize].lits.len() {
            let q = self.clauses[c as usize].lits[i] as usize;
            if !self.primary[q >> 1] {
                if self.aux_occurs.len() <= q {
                    self.aux_occurs.resize_with(q + 1, Vec::new);
                }
                self.aux_occurs[q].push(c);
            }
        }
    }

    /// The installed [`PartialCheck`]'s clause for the current assignment
    /// (above level 0), if it finds one.
    fn check_partial(&mut self) -> Option<Vec<u32>> {
        if self.decision_level() == 0 {
            return None;
        }
        let check = self.partial_check.as_mut()?;
        let partial = Partial {
            value: &self.value,
            trail: &self.trail,
            kept: self.check_kept,
        };
        let clause = check.conflict(&partial);
        self.check_kept = self.trail.len();
        let clause = clause?;
        let lits: Vec<u32> = clause.iter().map(|&l| code(l)).collect();
        assert!(
            lits.iter().all(|&q| self.value[q as usize] == FALSE),
            "internal error: a partial check's clause is not falsified by the assignment"
        );
        Some(lits)
    }

    /// Handles a clause of the partial check (every literal false): learnt,
    /// and a conflict at its highest level. Levels above that level, closed
    /// ones included, hold no model (the clause is implied and false there),
    /// so they are left. False when the search space is exhausted.
    fn partial_conflict(&mut self, mut lits: Vec<u32>) -> bool {
        lits.sort_unstable();
        lits.dedup();
        // the highest levels first: the clause's watches are its two latest
        lits.sort_by_key(|&q| std::cmp::Reverse(self.level[(q >> 1) as usize]));
        let top = lits.first().map_or(0, |&q| self.level[(q >> 1) as usize]);
        if top == 0 {
            self.ok = false;
            return false;
        }
        if lits.len() == 1 {
            lits.push(lits[0]); // a unit kept as a watched pair
        }
        let lbd = self.lbd(&lits).max(1);
        let cref = self.new_clause(lits, lbd);
        self.attach(cref);
        self.learnts.push(cref);
        self.backtrack(top);
        self.handle_conflict(cref)
    }

    fn reduce_db(&mut self) {
        let mut cands: Vec<u32> = std::mem::take(&mut self.learnts);
        cands.sort_unstable_by_key(|&c| std::cmp::Reverse(self.clauses[c as usize].lbd));
        let mut dropped = 0;
        let target = cands.len() / 2;
        let mut keep = vec![];
        for c in cands {
            let cl = &self.clauses[c as usize];
            // the literal a clause implies is its first (propagation and
            // learning keep it there), or either of a binary clause's
            let locked =
                cl.lits.iter().take(2).any(|&q| {
                    self.value[q as usize] == TRUE && self.reason[(q >> 1) as usize] == c
                });
            if dropped < target && !locked {
                let lits = std::mem::take(&mut self.clauses[c as usize].lits);
                if lits.len() == 2 {
                    // propagation visits a binary clause's watches without
                    // looking at the clause: remove them now
                    for q in lits {
                        self.watches[q as usize].retain(|w| w.cref != c);
                    }
                }
                self.deleted.push(c);
                dropped += 1;
            } else {
                keep.push(c);
            }
        }
        self.learnts = keep;
        // a deleted clause's watches are dropped when propagation meets
        // them; its slot is reused only after every watch list is swept
        if self.deleted.len() > 10_000.max(self.clauses.len() / 2) {
            let clauses = &self.clauses;
            for ws in &mut self.watches {
                ws.retain(|w| !clauses[w.cref as usize].lits.is_empty());
            }
            self.free.append(&mut self.deleted);
        }
    }

    /// Propagates and decides until a model, exhaustion or the limits.
    fn search(&mut self, limits: &Limits) -> Searched {
        if !self.ok {
            return Searched::Exhausted;
        }
        loop {
            // the limits, every 256 conflicts, decisions or models
            self.since_check += 1;
            if self.since_check >= 256 {
                self.since_check = 0;
                if limits.expired() {
                    return Searched::Stopped;
                }
            }
            if let Some(conflict) = self.propagate() {
                if !self.handle_conflict(conflict) {
                    return Searched::Exhausted;
                }
                continue;
            }
            if let Some(clause) = self.check_partial() {
                if !self.partial_conflict(clause) {
                    return Searched::Exhausted;
                }
                continue;
            }
            if self.learnts.len() >= self.learnt_budget + self.trail.len() {
                self.reduce_db();
            }
            let next = match self.pick_primary() {
                Some(d) => Some(d),
                // every primary variable assigned: before deciding the
                // others one by one, try them all at their saved phases
                None if !self.aux_decided() && self.completes_by_phase() => return Searched::Model,
                None => self.pick_aux(),
            };
            match next {
                Some(d) => {
                    self.decisions += 1;
                    self.push_level(d, false);
                }
                None => return Searched::Model,
            }
        }
    }

    /// Starts a search: back to level 0, the primary variables marked, the
    /// assumptions as closed levels. False if they conflict.
    fn start(&mut self, primary: &[Lit], assumptions: &[Lit]) -> bool {
        self.backtrack(0);
        self.conflicts_since_model = 0;
        self.at_model = false;
        let n = primary
            .iter()
            .chain(assumptions)
            .map(|l| l.vidx32() + 1)
            .max()
            .unwrap_or(0);
        self.grow(n);
        self.primary.iter_mut().for_each(|p| *p = false);
        for l in primary {
            self.primary[l.vidx()] = true;
        }
        self.primary_order = (0..self.n_vars)
            .filter(|&v| self.primary[v as usize])
            .collect();
        self.order_position = vec![NONE; self.n_vars as usize];
        for (i, &v) in self.primary_order.iter().enumerate() {
            self.order_position[v as usize] = i as u32;
        }
        self.order_cursor = 0;
        self.aux_occurs.iter_mut().for_each(Vec::clear);
        for c in 0..self.clauses.len() as u32 {
            if self.is_aux_clause(c) {
                self.note_aux_clause(c);
            }
        }
        self.primary_heap.clear();
        self.aux_heap.clear();
        for v in 0..self.n_vars {
            if self.value[2 * v as usize] != UNDEF {
                continue;
            }
            if self.primary[v as usize] {
                self.primary_heap.insert(v, &self.activity);
            } else {
                self.aux_heap.insert(v, &self.activity);
            }
        }
        if !self.ok || self.propagate().is_some() {
            self.ok = false;
            return false;
        }
        self.assumed = assumptions.len();
        for &a in assumptions {
            match self.lit_value(code(a)) {
                TRUE => self.push_level(NONE, true),
                FALSE => return false,
                _ => self.push_level(code(a), true),
            }
            if let Some(conflict) = self.propagate() {
                self.handle_conflict(conflict);
                return false;
            }
        }
        true
    }

    /// After a model the caller accepted: moves to the next part of the
    /// space. False when the enumeration is complete.
    fn next_after_model(&mut self) -> bool {
        self.at_model = false;
        self.conflicts_since_model = 0;
        // the last level holding a primary decision
        let last_primary = (1..=self.decision_level()).rev().find(|&l| {
            let d = self.levels[l as usize - 1].decision;
            d != NONE && self.primary[(d >> 1) as usize]
        });
        let Some(last) = last_primary else {
            return false; // every primary literal is fixed: one projection
        };
        match self.mode {
            AllSatMode::NonBlocking
            | AllSatMode::NonBlockingLearning
            | AllSatMode::NonBlockingDpll => self.flip_below(last),
            AllSatMode::DecisionBlocking => {
                let mut block: Vec<u32> = (1..=last)
                    .rev()
                    .filter_map(|l| {
                        let lv = self.levels[l as usize - 1];
                        (!lv.closed && self.primary[(lv.decision >> 1) as usize])
                            .then_some(lv.decision ^ 1)
                    })
                    .collect();
                if block.is_empty() {
                    return false;
                }
                // the last decision first, the next highest second
                let asserting = block[0];
                let back = block
                    .get(1)
                    .map_or(0, |&q| self.level[(q >> 1) as usize])
                    .max(self.top_closed());
                self.backtrack(back);
                if block.len() == 1 {
                    block.push(block[0]); // a unit kept as a watched pair
                }
                let cref = self.new_clause(block, 0);
                self.attach(cref);
                self.assign(asserting, cref);
                true
            }
        }
    }

    fn current_model(&self, n_vars: u32) -> Assignment {
        Assignment::from_values(
            (0..n_vars)
                .map(|v| v < self.n_vars && self.model_value(v))
                .collect(),
        )
    }

    /// Adds a clause now, whatever the state: a clause the current
    /// assignment falsifies is handled as a conflict at its highest level.
    fn add_now(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        let mut c: Vec<u32> = lits.iter().map(|&l| code(l)).collect();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return Ok(()); // a tautology
        }
        if let Some(&max) = c.iter().max() {
            self.grow((max >> 1) + 1);
        }
        // keep the primary/aux heaps in step with new variables
        if c.is_empty() {
            self.ok = false;
            return Ok(());
        }
        // non-false literals first (true before unassigned), then false
        // ones by decreasing level
        let rank = |s: &Self, q: u32| -> (u8, std::cmp::Reverse<u32>) {
            match s.value[q as usize] {
                TRUE => (0, std::cmp::Reverse(0)),
                UNDEF => (1, std::cmp::Reverse(0)),
                _ => (2, std::cmp::Reverse(s.level[(q >> 1) as usize])),
            }
        };
        c.sort_by_key(|&q| rank(self, q));
        if c.len() == 1 {
            let q = c[0];
            if self.decision_level() == 0 {
                match self.value[q as usize] {
                    TRUE => {}
                    FALSE => self.ok = false,
                    _ => self.assign(q, NONE),
                }
                return Ok(());
            }
            c.push(q); // a unit kept as a watched pair
        }
        let cref = self.new_clause(c, 0);
        self.attach(cref);
        if self.is_aux_clause(cref) {
            self.note_aux_clause(cref);
        }
        let (a, b) = {
            let l = &self.clauses[cref as usize].lits;
            (l[0], l[1])
        };
        match (self.value[a as usize], self.value[b as usize]) {
            (TRUE, _) | (UNDEF, UNDEF) => Ok(()),
            (UNDEF, _) => {
                self.assign(a, cref);
                Ok(())
            }
            _ => {
                // falsified: a conflict at its highest level
                let top = self.level[(a >> 1) as usize];
                if top == 0 {
                    self.ok = false;
                    return Ok(());
                }
                if top < self.top_closed() {
                    let why = "a clause added during enumeration excludes a model already counted \
                               (a lazy constraint that is not valid for every solution)";
                    self.broken = Some(why.into());
                    return Err(SolverError::Failed {
                        solver: self.name(),
                        message: why.into(),
                    });
                }
                self.at_model = false;
                self.backtrack(top);
                if !self.handle_conflict(cref) {
                    // exhausted: the next search answers so at once
                    self.backtrack(0);
                    self.exhausted = true;
                }
                Ok(())
            }
        }
    }
}

impl Backend for AllSat {
    fn name(&self) -> String {
        format!("puzzlesat all-solutions engine ({})", self.mode)
    }
    fn reserve(&mut self, n_vars: u32) {
        self.grow(n_vars);
    }
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), SolverError> {
        if let Some(why) = &self.broken {
            return Err(SolverError::Failed {
                solver: self.name(),
                message: why.clone(),
            });
        }
        self.add_now(lits)
    }
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Result<Outcome, SolverError> {
        self.enumerating = None;
        self.failed.clear();
        if !self.start(&[], assumptions) {
            self.backtrack(0);
            // no core: every assumption (as the trait allows)
            self.failed = assumptions.to_vec();
            return Ok(Outcome::Unsat);
        }
        let outcome = match self.search(limits) {
            Searched::Model => {
                self.saved_model = (0..self.n_vars).map(|v| self.model_value(v)).collect();
                Outcome::Sat
            }
            Searched::Exhausted => {
                self.failed = assumptions.to_vec();
                Outcome::Unsat
            }
            Searched::Stopped => Outcome::Unknown,
        };
        self.backtrack(0);
        Ok(outcome)
    }
    fn model(&self, n_vars: u32) -> Result<Assignment, SolverError> {
        Ok(Assignment::from_values(
            (0..n_vars as usize)
                .map(|v| self.saved_model.get(v).copied().unwrap_or(false))
                .collect(),
        ))
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }
    fn resumes_enumeration(&self) -> bool {
        true
    }
    fn set_partial_check(&mut self, check: Option<Box<dyn PartialCheck>>) -> bool {
        self.partial_check = check;
        self.check_kept = 0;
        true
    }
    fn set_seed(&mut self, _seed: u64) -> Result<(), SolverError> {
        Err(SolverError::Failed {
            solver: self.name(),
            message: "the built-in enumeration engine takes no seed: drop --seed, or use \
                      --enumeration blocking"
                .into(),
        })
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            conflicts: Some(self.conflicts),
            decisions: Some(self.decisions),
            propagations: Some(self.propagations),
        }
    }
    fn enumerate_in_search(
        &mut self,
        primary: &[Lit],
        assumptions: &[Lit],
        limits: &Limits,
        n_vars: u32,
        on_model: &mut dyn FnMut(&Assignment) -> ModelVerdict,
    ) -> Option<Result<InSearch, SolverError>> {
        if let Some(why) = &self.broken {
            return Some(Err(SolverError::Failed {
                solver: self.name(),
                message: why.clone(),
            }));
        }
        self.grow(n_vars);
        let key = (
            primary.iter().map(|&l| code(l)).collect::<Vec<_>>(),
            assumptions.iter().map(|&l| code(l)).collect::<Vec<_>>(),
        );
        let resumed = self.enumerating.as_ref() == Some(&key);
        let mut count = 0;
        let done = |s: &mut Self, count: u64, outcome: Outcome| {
            s.enumerating = None;
            s.exhausted = false;
            s.at_model = false;
            s.backtrack(0);
            Some(Ok(InSearch { count, outcome }))
        };
        if resumed && self.exhausted {
            return done(self, 0, Outcome::Unsat);
        }
        if !resumed && !self.start(primary, assumptions) {
            return done(self, 0, Outcome::Unsat);
        }
        self.enumerating = Some(key);
        loop {
            match self.search(limits) {
                Searched::Model => {
                    self.at_model = true;
                    let model = self.current_model(n_vars);
                    match on_model(&model) {
                        ModelVerdict::Next => {
                            count += 1;
                            if !self.next_after_model() {
                                return done(self, count, Outcome::Unsat);
                            }
                        }
                        ModelVerdict::Stop => {
                            count += 1;
                            return done(self, count, Outcome::Unknown);
                        }
                        ModelVerdict::Retry => {
                            // the caller adds clauses excluding this model
                            // and calls again: the search resumes here
                            return Some(Ok(InSearch {
                                count,
                                outcome: Outcome::Unknown,
                            }));
                        }
                    }
                }
                Searched::Exhausted => return done(self, count, Outcome::Unsat),
                Searched::Stopped => return done(self, count, Outcome::Unknown),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClauseDatabase, Cnf};
    use std::collections::BTreeSet;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_cnf(rng: &mut Rng, n: u32, m: usize, width: u64) -> Cnf {
        let mut cnf = Cnf::new();
        let x = cnf.fresh_lits(n as usize);
        for _ in 0..m {
            let k = 1 + rng.below(width) as usize;
            let c: Vec<Lit> = (0..k)
                .map(|_| {
                    let l = x[rng.below(u64::from(n)) as usize];
                    if rng.below(2) == 0 {
                        l
                    } else {
                        !l
                    }
                })
                .collect();
            cnf.add(&c);
        }
        cnf
    }

    /// The distinct projections of every model, by brute force.
    fn brute(cnf: &Cnf, n: u32, primary: &[Lit], assumptions: &[Lit]) -> BTreeSet<Vec<bool>> {
        let mut out = BTreeSet::new();
        for bits in 0u64..1 << n {
            let a = Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
            if a.satisfies(cnf.clauses()) && assumptions.iter().all(|&l| a.lit(l)) {
                out.insert(primary.iter().map(|&l| a.lit(l)).collect());
            }
        }
        out
    }

    fn engine_projections(
        mode: AllSatMode,
        cnf: &Cnf,
        n: u32,
        primary: &[Lit],
        assumptions: &[Lit],
    ) -> (Vec<Vec<bool>>, Outcome) {
        let mut e = AllSat::new(mode);
        e.learnt_budget = 0; // reduce the learnt clauses all the time
        e.reserve(n);
        for c in cnf.clauses() {
            e.add_clause(c).unwrap();
        }
        let mut found = vec![];
        let r = e
            .enumerate_in_search(primary, assumptions, &Limits::default(), n, &mut |m| {
                assert!(m.satisfies(cnf.clauses()), "a model that is none");
                assert!(assumptions.iter().all(|&l| m.lit(l)));
                found.push(primary.iter().map(|&l| m.lit(l)).collect());
                ModelVerdict::Next
            })
            .unwrap()
            .unwrap();
        assert_eq!(r.count, found.len() as u64);
        (found, r.outcome)
    }

    #[test]
    fn projected_counts_agree_with_brute_force() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..300 {
            let n = 4 + rng.below(13) as u32;
            let m = rng.below(3 * u64::from(n)) as usize;
            let cnf = random_cnf(&mut rng, n, m, 3);
            let all: Vec<Lit> = (0..n).map(Lit::positive).collect();
            let primary: Vec<Lit> = all.iter().copied().filter(|_| rng.below(3) > 0).collect();
            let assumptions: Vec<Lit> = if rng.below(3) == 0 {
                vec![if rng.below(2) == 0 { all[0] } else { !all[0] }]
            } else {
                vec![]
            };
            let want = brute(&cnf, n, &primary, &assumptions);
            for mode in AllSatMode::ALL.iter().copied() {
                let (found, outcome) = engine_projections(mode, &cnf, n, &primary, &assumptions);
                let set: BTreeSet<Vec<bool>> = found.iter().cloned().collect();
                assert_eq!(
                    set.len(),
                    found.len(),
                    "round {round} {mode}: a projection twice"
                );
                assert_eq!(
                    set, want,
                    "round {round} {mode}: n {n}, primary {primary:?}"
                );
                assert_eq!(outcome, Outcome::Unsat, "round {round}");
            }
        }
    }

    #[test]
    fn single_solves_agree_with_brute_force_and_stay_incremental() {
        let mut rng = Rng(12345);
        for _ in 0..200 {
            let n = 3 + rng.below(8) as u32;
            let cnf = random_cnf(&mut rng, n, 4 * n as usize, 3);
            let mut e = AllSat::default();
            for c in cnf.clauses() {
                e.add_clause(c).unwrap();
            }
            let a = vec![Lit::positive(0)];
            for assumptions in [vec![], a.clone(), vec![!a[0]]] {
                let sat = !brute(&cnf, n, &[], &assumptions).is_empty();
                let r = e.solve(&assumptions, &Limits::default()).unwrap();
                assert_eq!(r == Outcome::Sat, sat);
                if sat {
                    let m = e.model(n).unwrap();
                    assert!(m.satisfies(cnf.clauses()));
                    assert!(assumptions.iter().all(|&l| m.lit(l)));
                }
            }
        }
    }

    #[test]
    fn lazy_clauses_mid_enumeration_exclude_models_and_resume() {
        // x0..x4 free; lazily forbid every model with x0 ∧ x1 (one clause
        // added at the first such model): 32 − 8 = 24 models
        let mut cnf = Cnf::new();
        let x = cnf.fresh_lits(5);
        cnf.add(&[x[0], !x[0]]);
        let mut e = AllSat::default();
        e.reserve(5);
        let mut count = 0;
        let mut added = false;
        loop {
            let mut retry = false;
            let r = e
                .enumerate_in_search(&x, &[], &Limits::default(), 5, &mut |m| {
                    if m.lit(x[0]) && m.lit(x[1]) {
                        assert!(!added, "an excluded model came back");
                        retry = true;
                        return ModelVerdict::Retry;
                    }
                    ModelVerdict::Next
                })
                .unwrap()
                .unwrap();
            count += r.count;
            if retry {
                e.add_clause(&[!x[0], !x[1]]).unwrap();
                added = true;
                continue;
            }
            assert_eq!(r.outcome, Outcome::Unsat);
            break;
        }
        assert_eq!(count, 24);
    }

    /// A check that knows every model (brute force): where no model
    /// extends the true literals of the trail, it returns the clause of a
    /// minimal subset of them that no model extends (an implied clause,
    /// often false below the current level).
    struct Oracle {
        models: Vec<Assignment>,
        fired: std::rc::Rc<std::cell::Cell<u64>>,
    }

    impl PartialCheck for Oracle {
        fn conflict(&mut self, partial: &Partial<'_>) -> Option<Vec<Lit>> {
            let mut lits: Vec<Lit> = (0..partial.len()).map(|i| partial.at(i)).collect();
            let extended =
                |lits: &[Lit]| self.models.iter().any(|m| lits.iter().all(|&l| m.lit(l)));
            if extended(&lits) {
                return None;
            }
            // drop literals from the start while no model extends the rest
            let mut i = 0;
            while i < lits.len() {
                let l = lits.remove(i);
                if extended(&lits) {
                    lits.insert(i, l);
                    i += 1;
                }
            }
            self.fired.set(self.fired.get() + 1);
            Some(lits.iter().map(|&l| !l).collect())
        }
    }

    #[test]
    fn partial_check_clauses_prune_and_keep_the_projections() {
        let mut rng = Rng(0x5151_7777_abcd_0001);
        let fired = std::rc::Rc::new(std::cell::Cell::new(0));
        for round in 0..400 {
            // 3-clauses near the threshold: few models, and branches
            // without one that propagation does not see
            let n = 6 + rng.below(7) as u32;
            let all: Vec<Lit> = (0..n).map(Lit::positive).collect();
            let mut cnf = Cnf::new();
            cnf.fresh_lits(n as usize);
            for _ in 0..(3 + rng.below(2)) * u64::from(n) {
                let c: Vec<Lit> = (0..3)
                    .map(|_| {
                        let l = all[rng.below(u64::from(n)) as usize];
                        if rng.below(2) == 0 {
                            l
                        } else {
                            !l
                        }
                    })
                    .collect();
                cnf.add(&c);
            }
            let primary: Vec<Lit> = all.iter().copied().filter(|_| rng.below(3) > 0).collect();
            let assumptions: Vec<Lit> = if rng.below(3) == 0 {
                vec![!all[1]]
            } else {
                vec![]
            };
            let models: Vec<Assignment> = (0u64..1 << n)
                .map(|bits| Assignment::from_values((0..n).map(|i| bits >> i & 1 == 1).collect()))
                .filter(|a| a.satisfies(cnf.clauses()))
                .collect();
            let want = brute(&cnf, n, &primary, &assumptions);
            for mode in AllSatMode::ALL.iter().copied() {
                let mut e = AllSat::new(mode);
                e.learnt_budget = 0;
                e.reserve(n);
                for c in cnf.clauses() {
                    e.add_clause(c).unwrap();
                }
                let check = Oracle {
                    models: models.clone(),
                    fired: fired.clone(),
                };
                assert!(e.set_partial_check(Some(Box::new(check))));
                let mut found = BTreeSet::new();
                let r = e
                    .enumerate_in_search(&primary, &assumptions, &Limits::default(), n, &mut |a| {
                        assert!(a.satisfies(cnf.clauses()));
                        let p: Vec<bool> = primary.iter().map(|&l| a.lit(l)).collect();
                        assert!(found.insert(p), "round {round} {mode}: a projection twice");
                        ModelVerdict::Next
                    })
                    .unwrap()
                    .unwrap();
                assert_eq!(r.outcome, Outcome::Unsat, "round {round} {mode}");
                assert_eq!(found, want, "round {round} {mode}");
            }
        }
        assert!(fired.get() > 300, "the check fired {} times", fired.get());
    }
}
