//! A backward DRAT proof checker, written here from the definitions and
//! sharing no code with any solver the project links.
//!
//! DRAT (Wetzler, Heule & Hunt, "DRAT-trim: Efficient Checking and Trimming
//! Using Expressive Clausal Proofs", SAT 2014) is a list of clause additions
//! (lemmas) and deletions that ends in the empty clause. A lemma is
//! accepted if it is RUP (asserting its negation makes unit propagation
//! reach a conflict) or RAT on its first literal `p` (every resolvent with a
//! clause containing `¬p` is RUP). Both the text format and the binary
//! format (`a`/`d` bytes, variable-length literals) are read, and so is
//! text FRAT (Baek, Carneiro & Heule, "A Flexible Proof Format for SAT
//! Solver-Elaborator Communication", TACAS 2021; what CryptoMiniSat
//! writes), read as DRAT: its `a` and `d` steps are the additions and
//! deletions, clause ids, hints (`l …`), original (`o`), final (`f`) and
//! relocation (`r`) lines are ignored, so every lemma is still checked by
//! RUP/RAT here. [`detect_format`] tells the three apart.
//!
//! The check runs as drat-trim's does:
//! - **forward**: every lemma is added and propagated at the top level until
//!   the formula conflicts; nothing is checked yet;
//! - **backward**: from that conflict, the clauses it rests on are marked
//!   (the *core*), then the lemmas are removed last to first and only marked
//!   ones are checked, each against the clauses present when it was added;
//!   a check marks the clauses its conflict used;
//! - **core first**: propagation uses marked clauses before unmarked ones,
//!   so checks rest on clauses already in the core and the core stays small.
//!
//! Propagation uses two watched literals per clause with a blocking
//! literal. Removing a lemma that implied a top-level literal unassigns
//! that literal and the ones after it without propagating again, as
//! drat-trim does; since that can lose propagations, a lemma that fails is
//! checked once more after a full top-level propagation before the proof is
//! rejected. Deleting a clause that is the reason of a top-level literal is
//! ignored (solvers delete satisfied reasons; keeping a clause only makes
//! the check stricter), as drat-trim does by default. Deleting a clause
//! that is not present is an error, and so is a proof that does not
//! contain the empty clause (unless the formula does).

use std::collections::HashMap;
use std::fmt;

use puzzlesat_encodings::Cnf;
use serde::{Deserialize, Serialize};

/// A literal: `2 * var + 1` if negative, `2 * var` if positive (0-based var).
type Lit = u32;
const NONE: u32 = u32::MAX;
/// The largest variable index a proof may use (2^28: far above real
/// proofs, and a bound on what a corrupted number can make us allocate).
const MAX_VAR: u64 = 1 << 28;

/// The proof encodings read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DratFormat {
    /// text: `1 -2 0` adds, `d 1 -2 0` deletes
    Text,
    /// binary: `a` or `d`, literals as variable-length integers, `0`
    Binary,
    /// text FRAT (`a ID LITS 0 [l HINTS 0]`, `d ID LITS 0`, `o`, `f`, `r`),
    /// read as DRAT
    Frat,
}

impl fmt::Display for DratFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DratFormat::Text => "DRAT",
            DratFormat::Frat => "FRAT (read as DRAT)",
            DratFormat::Binary => "binary DRAT",
        })
    }
}

/// Why a proof was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DratError {
    /// the check was stopped (time limit, Ctrl-C or SIGTERM)
    #[error("the check was stopped by the time limit or an interrupt")]
    Stopped,
    /// the proof text is malformed
    #[error("malformed proof at {at}: {what}")]
    Malformed {
        /// `line N` (text) or `byte N` (binary)
        at: String,
        /// what is wrong
        what: String,
    },
    /// a lemma the conflict rests on is neither RUP nor RAT
    #[error("proof step {step}: lemma [{lemma}] is neither RUP nor RAT")]
    NotImplied {
        /// 1-based index among the proof's steps
        step: usize,
        /// the lemma in DIMACS
        lemma: String,
    },
    /// the empty clause is added while unit propagation finds no conflict
    #[error("proof step {step}: the empty clause does not follow by unit propagation")]
    EmptyNotImplied {
        /// 1-based index among the proof's steps
        step: usize,
    },
    /// a deletion names a clause that is not in the database
    #[error("proof step {step}: deletes [{clause}], which is not in the formula")]
    DeletesMissing {
        /// 1-based index among the proof's steps
        step: usize,
        /// the clause in DIMACS
        clause: String,
    },
    /// the proof has no empty clause
    #[error("the proof does not contain the empty clause ({lemmas} lemmas, truncated or not a refutation)")]
    NoEmptyClause {
        /// lemmas read
        lemmas: usize,
    },
    /// a literal beyond the supported variable range
    #[error("proof step {step}: variable {var} is out of range")]
    VarOutOfRange {
        /// 1-based index among the proof's steps
        step: usize,
        /// 1-based variable
        var: u64,
    },
    /// an inconsistency of the checker itself (never expected)
    #[error("internal checker error: {0}")]
    Internal(String),
}

/// What a successful check counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckStats {
    /// lemmas (clause additions) in the proof
    pub lemmas: usize,
    /// deletions in the proof
    pub deletions: usize,
    /// lemmas the refutation rests on: each of them was checked
    pub core_lemmas: usize,
    /// checked lemmas that needed RAT (not RUP)
    pub rat_lemmas: usize,
    /// deletions of top-level reason clauses, ignored
    pub ignored_deletions: usize,
}

/// Binary DRAT contains a zero byte within its first clause, text never
/// does; text FRAT starts (after comments) with a step letter `o`, `a`,
/// `f` or `r`, text DRAT with a literal or `d`. A binary proof cut before
/// its first zero byte reads as FRAT and is rejected as malformed.
pub fn detect_format(proof: &[u8]) -> DratFormat {
    if proof.iter().take(1 << 16).any(|&b| b == 0) {
        return DratFormat::Binary;
    }
    let first = proof
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii_start())
        .find(|l| !l.is_empty() && l[0] != b'c')
        .and_then(|l| l.first());
    match first {
        Some(b'o' | b'a' | b'f' | b'r') => DratFormat::Frat,
        _ => DratFormat::Text,
    }
}

/// Checks that `proof` refutes `formula`.
pub fn check(
    formula: &Cnf,
    proof: &[u8],
    format: DratFormat,
    stop: &dyn Fn() -> bool,
) -> Result<CheckStats, DratError> {
    check_with_core(formula, proof, format, stop).map(|(stats, _)| stats)
}

/// Checks that `proof` refutes `formula` and returns, for each lemma of
/// the proof in order, whether the refutation rests on it (the core): each
/// core lemma is RUP over the formula and the earlier core lemmas, since
/// every clause a core lemma's check used was marked core itself. The
/// lemmas after the first top-level conflict are not in it.
pub fn check_with_core(
    formula: &Cnf,
    proof: &[u8],
    format: DratFormat,
    stop: &dyn Fn() -> bool,
) -> Result<(CheckStats, Vec<bool>), DratError> {
    let mut ck = Checker::new(formula.n_vars());
    let mut buf = Vec::new();
    for c in formula.clauses() {
        buf.clear();
        buf.extend(c.iter().map(|l| 2 * l.var().idx32() + l.is_neg() as u32));
        ck.add_original(&buf);
    }
    ck.finish_original();
    let mut step = 0;
    parse(proof, format, |delete, lits| {
        step += 1;
        if let Some(&l) = lits.iter().max() {
            if (l >> 1) as u64 >= MAX_VAR {
                return Err(DratError::VarOutOfRange {
                    step,
                    var: (l >> 1) as u64 + 1,
                });
            }
            ck.ensure_var(l >> 1);
        }
        if delete {
            ck.forward_delete(lits, step)
        } else {
            ck.forward_add(lits, step)
        }
    })?;
    ck.backward(stop)
}

/// Calls `f(is_deletion, literals)` for each step of the proof.
pub(crate) fn parse(
    proof: &[u8],
    format: DratFormat,
    f: impl FnMut(bool, &[Lit]) -> Result<(), DratError>,
) -> Result<(), DratError> {
    match format {
        DratFormat::Text => parse_text(proof, f),
        DratFormat::Binary => parse_binary(proof, f),
        DratFormat::Frat => parse_frat(proof, f),
    }
}

/// Text FRAT, one step a line: `a`/`d` steps are passed on (without their
/// id and hints), the other steps are skipped.
fn parse_frat(
    p: &[u8],
    mut f: impl FnMut(bool, &[Lit]) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let mut lits = Vec::new();
    for (k, line) in p.split(|&b| b == b'\n').enumerate() {
        let malformed = |what: &str| DratError::Malformed {
            at: format!("line {}", k + 1),
            what: what.into(),
        };
        let text = std::str::from_utf8(line).map_err(|_| malformed("not text"))?;
        let mut words = text.split_ascii_whitespace();
        let delete = match words.next() {
            None => continue,
            Some(w) if w.starts_with('c') => continue,
            Some("o" | "f" | "r" | "t") => continue,
            Some("a") => false,
            Some("d") => true,
            Some(w) => return Err(malformed(&format!("unexpected step {w:?}"))),
        };
        let id = words.next().ok_or_else(|| malformed("no clause id"))?;
        if id.parse::<u64>().map_or(true, |id| id == 0) {
            return Err(malformed("expected a clause id"));
        }
        lits.clear();
        loop {
            let w = words
                .next()
                .ok_or_else(|| malformed("the step ends inside a clause (truncated?)"))?;
            let x: i64 = w.parse().map_err(|_| malformed("expected a literal"))?;
            if x == 0 {
                break;
            }
            let v = x.unsigned_abs();
            if v > MAX_VAR {
                return Err(malformed("variable out of range"));
            }
            lits.push(2 * (v as u32 - 1) + (x < 0) as u32);
        }
        // the rest of the line is the hint list `l … 0` (of `a` steps)
        match words.next() {
            None => {}
            Some("l") if !delete && words.next_back() == Some("0") => {}
            Some("l") if !delete => return Err(malformed("the hints end without 0 (truncated?)")),
            Some(w) => return Err(malformed(&format!("unexpected {w:?} after the clause"))),
        }
        f(delete, &lits)?;
    }
    Ok(())
}

fn parse_text(
    p: &[u8],
    mut f: impl FnMut(bool, &[Lit]) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let malformed = |line: usize, what: String| DratError::Malformed {
        at: format!("line {line}"),
        what,
    };
    let (mut i, mut line) = (0, 1);
    let (mut in_step, mut delete) = (false, false);
    let mut lits = Vec::new();
    while i < p.len() {
        match p[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'c' if !in_step => {
                while i < p.len() && p[i] != b'\n' {
                    i += 1;
                }
            }
            b'd' if !in_step => {
                in_step = true;
                delete = true;
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let neg = p[i] == b'-';
                i += neg as usize;
                let start = i;
                let mut v: u64 = 0;
                while i < p.len() && p[i].is_ascii_digit() {
                    v = v * 10 + (p[i] - b'0') as u64;
                    if v > MAX_VAR {
                        return Err(malformed(line, "variable out of range".into()));
                    }
                    i += 1;
                }
                if i == start || (neg && v == 0) {
                    return Err(malformed(line, "expected a literal".into()));
                }
                if v == 0 {
                    f(delete, &lits)?;
                    lits.clear();
                    in_step = false;
                    delete = false;
                } else {
                    in_step = true;
                    lits.push(2 * (v as u32 - 1) + neg as u32);
                }
            }
            b => {
                return Err(malformed(
                    line,
                    format!("unexpected character {:?}", b as char),
                ))
            }
        }
    }
    if in_step {
        return Err(malformed(
            line,
            "the proof ends inside a clause (truncated?)".into(),
        ));
    }
    Ok(())
}

fn parse_binary(
    p: &[u8],
    mut f: impl FnMut(bool, &[Lit]) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let malformed = |at: usize, what: &str| DratError::Malformed {
        at: format!("byte {at}"),
        what: what.into(),
    };
    let mut i = 0;
    let mut lits = Vec::new();
    while i < p.len() {
        let delete = match p[i] {
            b'a' => false,
            b'd' => true,
            _ => return Err(malformed(i, "expected 'a' or 'd'")),
        };
        i += 1;
        lits.clear();
        loop {
            let (mut u, mut shift) = (0u64, 0);
            loop {
                let Some(&b) = p.get(i) else {
                    return Err(malformed(i, "the proof ends inside a clause (truncated?)"));
                };
                i += 1;
                u |= ((b & 0x7f) as u64) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 35 {
                    return Err(malformed(i, "literal out of range"));
                }
            }
            match u {
                0 => break,
                1 => return Err(malformed(i, "literal -0")),
                u if u >= 2 * MAX_VAR + 2 => return Err(malformed(i, "literal out of range")),
                u => lits.push(u as u32 - 2),
            }
        }
        f(delete, &lits)?;
    }
    Ok(())
}

const ACTIVE: u8 = 1;
const CORE: u8 = 2;
const TAUTOLOGY: u8 = 4;

/// One step of the proof as replayed backwards.
#[derive(Clone, Copy)]
enum Step {
    Add(u32),
    Delete(u32),
    /// a deletion ignored because the clause was a top-level reason
    Ignored,
}

#[derive(Clone, Copy)]
struct Watch {
    /// the clause index, with [`WATCH_CORE`] set if it is in the core
    tagged: u32,
    blocker: Lit,
}

/// Core flag in a watch, so a propagation pass skips the other pass's
/// clauses without reading them.
const WATCH_CORE: u32 = 1 << 31;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Core,
    Rest,
}

struct Checker {
    // clauses: literals (watched two first), first literal as written (the
    // RAT pivot), flags
    lits: Vec<Lit>,
    start: Vec<usize>,
    len: Vec<u32>,
    pivot: Vec<Lit>,
    flags: Vec<u8>,
    n_original: u32,
    // hash of the literal set -> last clause with it; chains through next_same
    index: HashMap<u64, u32>,
    next_same: Vec<u32>,
    // assignment
    value: Vec<bool>, // per literal: true
    reason: Vec<u32>, // per variable
    pos: Vec<u32>,    // per variable: trail position
    seen: Vec<bool>,  // per variable (analysis)
    mark: Vec<bool>,  // per literal (duplicate removal)
    trail: Vec<Lit>,
    head_core: usize,
    head_rest: usize,
    watches: Vec<Vec<Watch>>,
    units: Vec<u32>,
    // replay
    steps: Vec<Step>,
    /// index in `steps` and clause of the first conflict
    conflict: Option<(usize, u32)>,
    has_empty: bool,
    stats: CheckStats,
    scratch: Vec<Lit>,
    scratch2: Vec<Lit>,
}

/// A clause in DIMACS, sorted by variable.
fn dimacs(lits: &[Lit]) -> String {
    let mut sorted = lits.to_vec();
    sorted.sort_unstable();
    let v: Vec<String> = sorted
        .iter()
        .map(|&l| {
            let x = (l >> 1) as i64 + 1;
            (if l & 1 == 1 { -x } else { x }).to_string()
        })
        .collect();
    v.join(" ")
}

fn hash(lits: &[Lit]) -> u64 {
    let (mut sum, mut xor) = (0u64, 0u64);
    for &l in lits {
        let mut z = (l as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        sum = sum.wrapping_add(z);
        xor ^= z.rotate_left(17);
    }
    sum ^ xor.wrapping_mul(31) ^ (lits.len() as u64).rotate_left(56)
}

impl Checker {
    fn new(n_vars: u32) -> Self {
        let mut ck = Checker {
            lits: Vec::new(),
            start: Vec::new(),
            len: Vec::new(),
            pivot: Vec::new(),
            flags: Vec::new(),
            n_original: 0,
            index: HashMap::new(),
            next_same: Vec::new(),
            value: Vec::new(),
            reason: Vec::new(),
            pos: Vec::new(),
            seen: Vec::new(),
            mark: Vec::new(),
            trail: Vec::new(),
            head_core: 0,
            head_rest: 0,
            watches: Vec::new(),
            units: Vec::new(),
            steps: Vec::new(),
            conflict: None,
            has_empty: false,
            stats: CheckStats::default(),
            scratch: Vec::new(),
            scratch2: Vec::new(),
        };
        if n_vars > 0 {
            ck.ensure_var(n_vars - 1);
        }
        ck
    }

    fn ensure_var(&mut self, v: u32) {
        let n = v as usize + 1;
        if self.reason.len() < n {
            self.value.resize(2 * n, false);
            self.mark.resize(2 * n, false);
            self.watches.resize_with(2 * n, Vec::new);
            self.reason.resize(n, NONE);
            self.pos.resize(n, 0);
            self.seen.resize(n, false);
        }
    }

    fn clause(&self, c: u32) -> &[Lit] {
        let s = self.start[c as usize];
        &self.lits[s..s + self.len[c as usize] as usize]
    }

    fn is_false(&self, l: Lit) -> bool {
        self.value[(l ^ 1) as usize]
    }

    /// Stores a clause (duplicate literals removed, order kept) and indexes
    /// it; not attached.
    fn store(&mut self, lits: &[Lit]) -> u32 {
        let c = self.start.len() as u32;
        assert!(c < WATCH_CORE, "more than 2^31 clauses");
        let s = self.lits.len();
        let mut taut = false;
        for &l in lits {
            if self.mark[l as usize] {
                continue;
            }
            taut |= self.mark[(l ^ 1) as usize];
            self.mark[l as usize] = true;
            self.lits.push(l);
        }
        for &l in &self.lits[s..] {
            self.mark[l as usize] = false;
        }
        self.start.push(s);
        self.len.push((self.lits.len() - s) as u32);
        self.pivot.push(lits.first().copied().unwrap_or(NONE));
        self.flags.push(if taut { TAUTOLOGY } else { 0 });
        let h = hash(&self.lits[s..]);
        let prev = self.index.insert(h, c).unwrap_or(NONE);
        self.next_same.push(prev);
        c
    }

    fn assign(&mut self, l: Lit, reason: u32) {
        self.value[l as usize] = true;
        let v = (l >> 1) as usize;
        self.reason[v] = reason;
        self.pos[v] = self.trail.len() as u32;
        self.trail.push(l);
    }

    fn undo(&mut self, to: usize) {
        for &l in &self.trail[to..] {
            self.value[l as usize] = false;
            self.reason[(l >> 1) as usize] = NONE;
        }
        self.trail.truncate(to);
        self.head_core = self.head_core.min(to);
        self.head_rest = self.head_rest.min(to);
    }

    /// Makes `c` active under the current assignment: watches its two best
    /// literals, propagates it if unit. Returns `c` if it is falsified.
    fn attach(&mut self, c: u32) -> Option<u32> {
        self.flags[c as usize] |= ACTIVE;
        if self.flags[c as usize] & TAUTOLOGY != 0 {
            return None;
        }
        let (s, n) = (self.start[c as usize], self.len[c as usize] as usize);
        match n {
            0 => return Some(c),
            1 => {
                self.units.push(c);
                let l = self.lits[s];
                if self.is_false(l) {
                    return Some(c);
                }
                if !self.value[l as usize] {
                    self.assign(l, c);
                }
                return None;
            }
            _ => {}
        }
        // best first: true, then unassigned, then false assigned latest
        let rank = |ck: &Checker, l: Lit| -> u64 {
            if ck.value[l as usize] {
                u64::MAX
            } else if !ck.is_false(l) {
                u64::MAX - 1
            } else {
                ck.pos[(l >> 1) as usize] as u64
            }
        };
        for p in 0..2 {
            let best = (p..n)
                .max_by_key(|&k| rank(self, self.lits[s + k]))
                .expect("clause has two literals");
            self.lits.swap(s + p, s + best);
        }
        let (a, b) = (self.lits[s], self.lits[s + 1]);
        let tagged = if self.flags[c as usize] & CORE != 0 {
            c | WATCH_CORE
        } else {
            c
        };
        self.watches[a as usize].push(Watch { tagged, blocker: b });
        self.watches[b as usize].push(Watch { tagged, blocker: a });
        if self.is_false(a) {
            return Some(c);
        }
        if !self.value[a as usize] && self.is_false(b) {
            self.assign(a, c);
        }
        None
    }

    /// Unit propagation, core clauses before the others. Returns a
    /// falsified clause.
    fn propagate(&mut self) -> Option<u32> {
        loop {
            while self.head_core < self.trail.len() {
                let l = self.trail[self.head_core];
                self.head_core += 1;
                if let Some(c) = self.visit(l, Pass::Core) {
                    return Some(c);
                }
            }
            if self.head_rest == self.trail.len() {
                return None;
            }
            let l = self.trail[self.head_rest];
            self.head_rest += 1;
            if let Some(c) = self.visit(l, Pass::Rest) {
                return Some(c);
            }
        }
    }

    /// Visits the clauses watching `¬t` (just made false), those of `pass`.
    fn visit(&mut self, t: Lit, pass: Pass) -> Option<u32> {
        let f = t ^ 1;
        let mut ws = std::mem::take(&mut self.watches[f as usize]);
        let mut conflict = None;
        let mut j = 0;
        let mut i = 0;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if conflict.is_some() || self.value[w.blocker as usize] {
                ws[j] = w;
                j += 1;
                continue;
            }
            if (w.tagged & WATCH_CORE != 0) != (pass == Pass::Core) {
                ws[j] = w;
                j += 1;
                continue;
            }
            let clause = w.tagged & !WATCH_CORE;
            let c = clause as usize;
            if self.flags[c] & ACTIVE == 0 {
                continue; // detached: drop the watch
            }
            let (s, n) = (self.start[c], self.len[c] as usize);
            if self.lits[s] == f {
                self.lits.swap(s, s + 1);
            } else if self.lits[s + 1] != f {
                continue; // stale watch (the clause was re-attached)
            }
            let other = self.lits[s];
            if self.value[other as usize] {
                ws[j] = Watch {
                    tagged: w.tagged,
                    blocker: other,
                };
                j += 1;
                continue;
            }
            if let Some(k) = (2..n).find(|&k| !self.is_false(self.lits[s + k])) {
                self.lits.swap(s + 1, s + k);
                let nw = self.lits[s + 1];
                self.watches[nw as usize].push(Watch {
                    tagged: w.tagged,
                    blocker: other,
                });
                continue;
            }
            ws[j] = w;
            j += 1;
            if self.is_false(other) {
                conflict = Some(clause);
            } else {
                self.assign(other, clause);
            }
        }
        ws.truncate(j);
        // watches pushed onto this list meanwhile cannot exist: a new watch
        // is never false, and `f` is
        debug_assert!(self.watches[f as usize].is_empty());
        self.watches[f as usize] = ws;
        conflict
    }

    fn set_core(&mut self, c: u32) {
        let flags = &mut self.flags[c as usize];
        if *flags & CORE != 0 {
            return;
        }
        *flags |= CORE;
        if *flags & (ACTIVE | TAUTOLOGY) != ACTIVE || self.len[c as usize] < 2 {
            return;
        }
        // tag its watches (on its first two literals) as core
        let s = self.start[c as usize];
        for k in s..s + 2 {
            for w in &mut self.watches[self.lits[k] as usize] {
                if w.tagged == c {
                    w.tagged |= WATCH_CORE;
                }
            }
        }
    }

    /// Marks the clauses that derive the conflict `c`, or (with `c` =
    /// NONE) the literal `t` that is true.
    fn analyze(&mut self, c: u32, t: Lit) {
        let mut pending = 0usize;
        if c != NONE {
            self.set_core(c);
            let (s, n) = (self.start[c as usize], self.len[c as usize] as usize);
            for k in s..s + n {
                let v = (self.lits[k] >> 1) as usize;
                if !self.seen[v] {
                    self.seen[v] = true;
                    pending += 1;
                }
            }
        } else {
            self.seen[(t >> 1) as usize] = true;
            pending = 1;
        }
        let mut i = self.trail.len();
        while pending > 0 {
            i -= 1;
            let v = (self.trail[i] >> 1) as usize;
            if !self.seen[v] {
                continue;
            }
            self.seen[v] = false;
            pending -= 1;
            let r = self.reason[v];
            if r == NONE {
                continue;
            }
            self.set_core(r);
            let (s, n) = (self.start[r as usize], self.len[r as usize] as usize);
            for k in s..s + n {
                let u = (self.lits[k] >> 1) as usize;
                if u != v && !self.seen[u] {
                    self.seen[u] = true;
                    pending += 1;
                }
            }
        }
    }

    fn add_original(&mut self, lits: &[Lit]) {
        // a formula with the empty clause needs no proof
        self.has_empty |= lits.is_empty();
        let c = self.store(lits);
        if self.conflict.is_none() {
            if let Some(k) = self.attach(c) {
                self.conflict = Some((0, k));
            }
        } else {
            self.flags[c as usize] |= ACTIVE;
        }
    }

    fn finish_original(&mut self) {
        self.n_original = self.start.len() as u32;
        if self.conflict.is_none() {
            if let Some(k) = self.propagate() {
                self.conflict = Some((0, k));
            }
        }
    }

    fn forward_add(&mut self, lits: &[Lit], step: usize) -> Result<(), DratError> {
        if lits.is_empty() {
            if self.conflict.is_none() {
                return Err(DratError::EmptyNotImplied { step });
            }
            self.has_empty = true;
        }
        self.stats.lemmas += 1;
        if self.conflict.is_some() {
            return Ok(()); // after the conflict: nothing left to derive
        }
        let c = self.store(lits);
        self.steps.push(Step::Add(c));
        let k = self.attach(c).or_else(|| self.propagate());
        if let Some(k) = k {
            self.conflict = Some((self.steps.len(), k));
        }
        Ok(())
    }

    fn forward_delete(&mut self, lits: &[Lit], step: usize) -> Result<(), DratError> {
        self.stats.deletions += 1;
        if self.conflict.is_some() {
            return Ok(());
        }
        let Some(c) = self.find(lits) else {
            return Err(DratError::DeletesMissing {
                step,
                clause: dimacs(lits),
            });
        };
        if self.is_reason(c) {
            self.stats.ignored_deletions += 1;
            self.steps.push(Step::Ignored);
            return Ok(());
        }
        self.flags[c as usize] &= !ACTIVE;
        self.unindex(c);
        self.steps.push(Step::Delete(c));
        Ok(())
    }

    /// An active clause with the literal set of `lits`.
    fn find(&mut self, lits: &[Lit]) -> Option<u32> {
        let mut q = std::mem::take(&mut self.scratch);
        q.clear();
        q.extend_from_slice(lits);
        q.sort_unstable();
        q.dedup();
        let mut found = None;
        let mut c = self.index.get(&hash(&q)).copied().unwrap_or(NONE);
        while c != NONE {
            let mut d = std::mem::take(&mut self.scratch2);
            d.clear();
            d.extend_from_slice(self.clause(c));
            d.sort_unstable();
            let same = d == q;
            self.scratch2 = d;
            if same && self.flags[c as usize] & ACTIVE != 0 {
                found = Some(c);
                break;
            }
            c = self.next_same[c as usize];
        }
        self.scratch = q;
        found
    }

    fn unindex(&mut self, c: u32) {
        let h = hash(self.clause(c));
        let next = self.next_same[c as usize];
        if self.index.get(&h) == Some(&c) {
            if next == NONE {
                self.index.remove(&h);
            } else {
                self.index.insert(h, next);
            }
            return;
        }
        let mut p = self.index.get(&h).copied().unwrap_or(NONE);
        while p != NONE {
            if self.next_same[p as usize] == c {
                self.next_same[p as usize] = next;
                return;
            }
            p = self.next_same[p as usize];
        }
    }

    fn is_reason(&self, c: u32) -> bool {
        self.len[c as usize] > 0
            && self.flags[c as usize] & TAUTOLOGY == 0
            && self.reason[(self.lits[self.start[c as usize]] >> 1) as usize] == c
    }

    /// Clears the top-level assignment and propagates the unit clauses
    /// present now.
    fn rebuild(&mut self) -> Result<(), DratError> {
        self.undo(0);
        let flags = &self.flags;
        self.units.retain(|&c| flags[c as usize] & ACTIVE != 0);
        for i in 0..self.units.len() {
            let c = self.units[i];
            let l = self.lits[self.start[c as usize]];
            if self.is_false(l) {
                return Err(DratError::Internal("unit conflict on replay".into()));
            }
            if !self.value[l as usize] {
                self.assign(l, c);
            }
        }
        if self.propagate().is_some() {
            return Err(DratError::Internal("top-level conflict on replay".into()));
        }
        Ok(())
    }

    /// The backward pass; returns the counts and, per lemma in proof order,
    /// whether it is in the core.
    fn backward(mut self, stop: &dyn Fn() -> bool) -> Result<(CheckStats, Vec<bool>), DratError> {
        let mut core_step = vec![false; self.steps.len()];
        let Some((last, conflict)) = self.conflict else {
            return Err(DratError::NoEmptyClause {
                lemmas: self.stats.lemmas,
            });
        };
        if !self.has_empty {
            return Err(DratError::NoEmptyClause {
                lemmas: self.stats.lemmas,
            });
        }
        self.analyze(conflict, NONE);
        let mut fresh = true; // the trail still holds the conflict
        for i in (0..last).rev() {
            if i % 256 == 0 && stop() {
                return Err(DratError::Stopped);
            }
            match self.steps[i] {
                Step::Ignored => {}
                Step::Delete(c) => {
                    if self.attach(c).is_some() || self.propagate().is_some() {
                        return Err(DratError::Internal("conflict on undeletion".into()));
                    }
                }
                Step::Add(c) => {
                    if self.is_reason(c) {
                        // what c implied, and everything assigned after it
                        let l = self.lits[self.start[c as usize]];
                        self.undo(self.pos[(l >> 1) as usize] as usize);
                    }
                    self.flags[c as usize] &= !ACTIVE;
                    if fresh {
                        self.rebuild()?;
                        fresh = false;
                    }
                    if self.flags[c as usize] & CORE != 0 {
                        core_step[i] = true;
                        if !self.check_lemma(c) {
                            // truncating the trail may have lost propagations
                            // (as in drat-trim); before rejecting, check again
                            // from a full top-level propagation
                            self.rebuild()?;
                            if !self.check_lemma(c) {
                                return Err(DratError::NotImplied {
                                    step: i + 1,
                                    lemma: dimacs(self.clause(c)),
                                });
                            }
                        }
                    }
                }
            }
        }
        // the steps are the proof's steps up to its first conflict, one each
        let core = self
            .steps
            .iter()
            .zip(&core_step)
            .filter(|(s, _)| matches!(s, Step::Add(_)))
            .map(|(_, &core)| core)
            .collect();
        Ok((self.stats, core))
    }

    /// Checks lemma `c` (detached) at its place in the proof; marks what
    /// the check used.
    fn check_lemma(&mut self, c: u32) -> bool {
        if self.flags[c as usize] & TAUTOLOGY != 0 {
            self.stats.core_lemmas += 1;
            return true;
        }
        let lemma = self.clause(c).to_vec();
        let top = self.trail.len();
        let ok = self.rup_after(&lemma) || {
            let ok = self.rat(&lemma, self.pivot[c as usize]);
            self.stats.rat_lemmas += ok as usize;
            ok
        };
        self.undo(top);
        self.stats.core_lemmas += ok as usize;
        ok
    }

    /// Asserts the negation of `lits` and propagates; true (with the used
    /// clauses marked) if that conflicts. Leaves the assignment in place.
    fn rup_after(&mut self, lits: &[Lit]) -> bool {
        for &l in lits {
            if self.value[l as usize] {
                self.analyze(NONE, l);
                return true;
            }
            if !self.is_false(l) {
                self.assign(l ^ 1, NONE);
            }
        }
        match self.propagate() {
            Some(k) => {
                self.analyze(k, NONE);
                true
            }
            None => false,
        }
    }

    /// RAT on `pivot`, with the negation of the lemma already asserted.
    fn rat(&mut self, lemma: &[Lit], pivot: Lit) -> bool {
        if pivot == NONE {
            return false;
        }
        let np = pivot ^ 1;
        let candidates: Vec<u32> = (0..self.start.len() as u32)
            .filter(|&d| {
                self.flags[d as usize] & (ACTIVE | TAUTOLOGY) == ACTIVE
                    && self.clause(d).contains(&np)
            })
            .collect();
        debug_assert!(lemma.contains(&pivot));
        for d in candidates {
            let base = self.trail.len();
            let rest: Vec<Lit> = self
                .clause(d)
                .iter()
                .copied()
                .filter(|&l| l != np)
                .collect();
            let ok = self.rup_after(&rest);
            self.undo(base);
            if !ok {
                return false;
            }
            self.set_core(d);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::ClauseDatabase;
    use rustsat::types::Lit as RLit;

    fn cnf(clauses: &[&[i32]]) -> Cnf {
        let mut f = Cnf::new();
        for c in clauses {
            let lits: Vec<RLit> = c.iter().map(|&x| RLit::from_ipasir(x).unwrap()).collect();
            f.add(&lits);
        }
        f
    }

    fn text(f: &Cnf, proof: &str) -> Result<CheckStats, DratError> {
        check(f, proof.as_bytes(), DratFormat::Text, &|| false)
    }

    const XOR2: &[&[i32]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]];

    /// every clause over three variables: unsatisfiable, and no single
    /// assignment propagates to a conflict
    const PARITY3: &[&[i32]] = &[
        &[1, 2, 4],
        &[1, 2, -4],
        &[1, -2, 4],
        &[1, -2, -4],
        &[-1, 2, 4],
        &[-1, 2, -4],
        &[-1, -2, 4],
        &[-1, -2, -4],
    ];
    const PARITY3_PROOF: &str = "1 2 0\n1 -2 0\n1 0\n-1 2 0\n-1 -2 0\n0\n";

    #[test]
    fn accepts_a_rup_refutation() {
        let s = text(&cnf(XOR2), "2 0\n0\n").unwrap();
        assert_eq!(s.lemmas, 2);
        // the conflict arises with lemma 2: the empty clause needs no check
        assert_eq!(s.core_lemmas, 1);
        let s = text(&cnf(PARITY3), PARITY3_PROOF).unwrap();
        assert_eq!((s.lemmas, s.rat_lemmas), (6, 0));
        // which lemmas the conflict rests on depends on propagation order
        assert!((3..=5).contains(&s.core_lemmas), "{s:?}");
    }

    #[test]
    fn rejects_a_proof_without_the_empty_clause() {
        assert_eq!(
            text(&cnf(XOR2), "2 0\n"),
            Err(DratError::NoEmptyClause { lemmas: 1 })
        );
        let cut = PARITY3_PROOF.trim_end_matches("0\n");
        assert!(text(&cnf(PARITY3), cut).is_err());
    }

    #[test]
    fn rejects_an_empty_clause_that_does_not_follow() {
        assert_eq!(
            text(&cnf(XOR2), "0\n"),
            Err(DratError::EmptyNotImplied { step: 1 })
        );
    }

    #[test]
    fn rejects_a_lemma_that_does_not_follow() {
        // (1 2)(-1 2) is satisfiable: -2 is neither RUP nor RAT
        let f = cnf(&[&[1, 2], &[-1, 2]]);
        let e = text(&f, "-2 0\n0\n").unwrap_err();
        assert_eq!(
            e,
            DratError::NotImplied {
                step: 1,
                lemma: "-2".into()
            }
        );
    }

    #[test]
    fn rejects_a_missing_lemma() {
        // 1 needs two decisions over 2, 3; -1 two over 4, 5
        let f = cnf(&[
            &[1, 2, 3],
            &[1, 2, -3],
            &[1, -2, 3],
            &[1, -2, -3],
            &[-1, 4, 5],
            &[-1, 4, -5],
            &[-1, -4, 5],
            &[-1, -4, -5],
        ]);
        let proof = "1 2 0\n1 0\n-1 4 0\n-1 0\n0\n";
        // the top level conflicts once -1 4 is added: -1 is never checked
        assert_eq!(text(&f, proof).unwrap().core_lemmas, 3);
        // without (1 2), the unit 1 is neither RUP nor RAT
        assert_eq!(
            text(&f, &proof.replacen("1 2 0\n", "", 1)),
            Err(DratError::NotImplied {
                step: 1,
                lemma: "1".into()
            })
        );
    }

    #[test]
    fn rejects_a_deletion_of_a_needed_clause() {
        // without (-1 -2) the formula is satisfiable; the lemma 2 then
        // still follows, but the empty clause does not
        let e = text(&cnf(XOR2), "d -1 -2 0\n2 0\n0\n").unwrap_err();
        assert_eq!(e, DratError::EmptyNotImplied { step: 3 });
        // the first lemma needs the deleted clause
        let proof = format!("d 1 2 4 0\n{PARITY3_PROOF}");
        assert_eq!(
            text(&cnf(PARITY3), &proof),
            Err(DratError::NotImplied {
                step: 2,
                lemma: "1 2".into()
            })
        );
        // deleting what is no longer needed is fine
        let proof = PARITY3_PROOF.replacen("\n1 0\n", "\n1 0\nd 1 2 0\nd 1 2 4 0\n", 1);
        assert!(text(&cnf(PARITY3), &proof).is_ok());
    }

    #[test]
    fn rejects_a_deletion_of_a_missing_clause() {
        let e = text(&cnf(XOR2), "d 1 3 0\n2 0\n0\n").unwrap_err();
        assert_eq!(
            e,
            DratError::DeletesMissing {
                step: 1,
                clause: "1 3".into()
            }
        );
    }

    #[test]
    fn accepts_rat_lemmas_and_rejects_a_false_one() {
        // 3 is defined as -1 by two RAT lemmas, then used
        let proof = "3 1 0\n-3 -1 0\n3 2 0\n3 -2 0\n3 0\n-3 2 0\n-3 -2 0\n-3 0\n0\n";
        let s = text(&cnf(PARITY3), proof).unwrap();
        assert_eq!((s.lemmas, s.rat_lemmas), (9, 2), "{s:?}");
        // with (-3 -2) present, the unit 3 is not RAT: its resolvent (-2)
        // does not follow from the satisfiable (1 2)(-1 2)
        let g = cnf(&[&[1, 2], &[-1, 2], &[-3, -2]]);
        assert_eq!(
            text(&g, "3 0\n0\n"),
            Err(DratError::NotImplied {
                step: 1,
                lemma: "3".into()
            })
        );
    }

    #[test]
    fn ignores_the_deletion_of_a_reason() {
        // 1 and 2 are propagated; (-1 2) is the reason of 2
        let f = cnf(&[
            &[1],
            &[-1, 2],
            &[-2, 3, 4],
            &[-2, 3, -4],
            &[-2, -3, 4],
            &[-2, -3, -4],
        ]);
        let s = text(&f, "d -1 2 0\n3 0\n0\n").unwrap();
        assert_eq!((s.ignored_deletions, s.core_lemmas), (1, 1));
    }

    #[test]
    fn binary_and_text_agree() {
        let bin: Vec<u8> = vec![b'a', 4, 0, b'a', 0];
        assert_eq!(detect_format(&bin), DratFormat::Binary);
        assert_eq!(detect_format(b"2 0\n0\n"), DratFormat::Text);
        let s = check(&cnf(XOR2), &bin, DratFormat::Binary, &|| false).unwrap();
        assert_eq!(s.lemmas, 2);
        // a truncated binary clause
        assert!(matches!(
            check(&cnf(XOR2), &[b'a', 4], DratFormat::Binary, &|| false),
            Err(DratError::Malformed { .. })
        ));
        // a truncated text clause
        assert!(matches!(
            text(&cnf(XOR2), "2 0\n0 5"),
            Err(DratError::Malformed { .. })
        ));
    }

    #[test]
    fn frat_is_read_as_drat() {
        let frat = "o 1 1 2 0\no 2 -1 2 0\no 3 1 -2 0\no 4 -1 -2 0\n\
                    a 5 2 0 l 1 2 0\nd 1 1 2 0\na 6 0 l 5 3 4 0\nf 6 0\nf 5 2 0\n";
        assert_eq!(detect_format(frat.as_bytes()), DratFormat::Frat);
        let s = check(&cnf(XOR2), frat.as_bytes(), DratFormat::Frat, &|| false).unwrap();
        assert_eq!((s.lemmas, s.deletions), (2, 1));
        // the hints are not trusted: an empty clause that does not
        // follow by unit propagation fails whatever its hints
        let bad = "a 5 0 l 1 2 3 4 0\n";
        assert!(check(&cnf(XOR2), bad.as_bytes(), DratFormat::Frat, &|| false).is_err());
        // a line cut inside its clause or its hints
        for cut in ["a 5 2", "a 5 2 0 l 1 2", "a", "x 1 0"] {
            assert!(
                matches!(
                    check(&cnf(XOR2), cut.as_bytes(), DratFormat::Frat, &|| false),
                    Err(DratError::Malformed { .. })
                ),
                "{cut}"
            );
        }
    }

    #[test]
    fn malformed_text_says_where() {
        let e = text(&cnf(XOR2), "2 0\nx 0\n").unwrap_err();
        assert_eq!(
            e,
            DratError::Malformed {
                at: "line 2".into(),
                what: "unexpected character 'x'".into()
            }
        );
    }
}
