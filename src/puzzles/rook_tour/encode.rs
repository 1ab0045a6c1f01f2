//! Two CNF encodings of numbered paths and tours on a board.
//!
//! - **position** — the model of Erwin Kalvelagen's "Another Rook Tour on the
//!   Chessboard" (Yet Another Math Programming Consultant, 2021; after
//!   puzzling.stackexchange question 111818): `x[c][k]` ⇔ cell `c` holds `k`,
//!   one value per cell and one cell per value (at-most-one encoding
//!   `--amo`), "cell has k ⇒ a neighbour has k+1", and for a tour the
//!   circular lead "cell has n ⇒ a neighbour has 1"; value sets as unit
//!   clauses. `--links both` (default) adds the implied backward links
//!   "cell has k+1 ⇒ a neighbour has k", which propagate better.
//! - **successor** — the SAT counterpart of CP's `circuit`: a Boolean per
//!   directed edge `s[u→v]` ("v follows u"), at most one edge in and out of
//!   each cell, and exactly one where the path passes on, with the position
//!   along the path an order-encoded integer `p[c] ∈ 1..n` (Tamura et al.
//!   2009) tied by `s[u→v] ⇒ p[v] = p[u] + 1`. Positions strictly increase
//!   along edges, which forbids sub-cycles (the Miller–Tucker–Zemlin idea,
//!   "Integer programming formulation of traveling salesman problems",
//!   JACM 1960); a cell with `p ≥ 2` has a predecessor and one with `p < n` a
//!   successor, so the edges form one path through all cells. Value sets
//!   are clauses on the order literals; a tour adds "p[c] = n ⇒ a neighbour
//!   has p = 1".
//! - **edges** — the successor Booleans alone, without positions: at most
//!   one edge in and out of each cell, no 2-cycle, exactly one first cell
//!   (no edge in) and one last (no edge out). Its models are a path plus
//!   disjoint cycles; connectivity is a lazy constraint (`Puzzle::separate`,
//!   [`cut`]): a cycle cut off from the path becomes the clause "an edge
//!   leaves it, or it holds the last cell", the subtour elimination
//!   constraint of Dantzig, Fulkerson & Johnson, "Solution of a large-scale
//!   traveling-salesman problem" (Operations Research 1954), added as a
//!   circuit propagator would fail on the cut-off cells. The encoding
//!   families (position, successor, transitive closure/ordering) are
//!   compared by Zhou, "In Pursuit of an Efficient SAT Encoding for the
//!   Hamiltonian Cycle Problem" (CP 2020); Velev & Gao ("Efficient SAT
//!   techniques for absolute encoding of permutation problems", SARA 2009)
//!   and Prestwich ("SAT problems with chains of dependent variables",
//!   Discrete Applied Mathematics 2003) study the position family. Empty
//!   boards and paths only (a numbered tour is a cycle with a start, which
//!   edges do not name; value sets need positions), no symmetry breaking.
//!
//! Symmetry breaking (`--symmetry lex-leader`): lex-leader clauses over the
//! "cell c holds k" literals (x, or the direct literals of p) for every
//! element of the board's symmetry group ([`super::symmetry`]).

use puzzlesat_encodings::amo::{at_most_one, exactly_one, AmoEncoding};
use puzzlesat_encodings::bool::Reify;
use puzzlesat_encodings::int::{IntVar, LeOffset};
use puzzlesat_encodings::lex::LexChain;
use puzzlesat_encodings::perm::{self, Perm};
use puzzlesat_encodings::{Assignment, ClauseDatabase, EncodeError, Lit};

use super::model::{Instance, Numbering};
use super::symmetry::BoardSymmetry;

puzzlesat_encodings::option_enum! {
    /// Which encoding (`--encoding`).
    #[derive(Default)]
    pub enum Encoding("encoding") {
        /// one-hot value per cell (Kalvelagen's model); measured faster: the default
        #[default]
        Position = "position",
        /// next-cell Booleans per edge with order-encoded positions
        Successor = "successor",
        /// next-cell Booleans alone, connectivity by lazy cuts (empty boards, paths)
        Edges = "edges",
    }
}

puzzlesat_encodings::option_enum! {
    /// Symmetry breaking (`--symmetry`).
    #[derive(Default)]
    pub enum Symmetry("symmetry breaking") {
        /// count every solution
        #[default]
        None = "none",
        /// lex-leader clauses for the board's symmetry group: count classes
        LexLeader = "lex-leader",
        /// the lex-leader clauses cut to the first row's cells: at least
        /// one solution per class (about one), at a fraction of the clauses
        FirstRow = "first-row",
    }
}

puzzlesat_encodings::option_enum! {
    /// The symmetry breaking of the representatives that class counting
    /// enumerates (`--class-symmetry`): a [`Symmetry`] other than none.
    #[derive(Default)]
    pub enum ClassSymmetry("class symmetry breaking") {
        /// the lex-leader clauses cut to the first row's cells
        #[default]
        FirstRow = "first-row",
        /// the whole lex-leader clauses: one representative per class
        LexLeader = "lex-leader",
    }
}

impl ClassSymmetry {
    /// The instance's symmetry breaking that cuts the representatives.
    pub fn symmetry(self) -> Symmetry {
        match self {
            ClassSymmetry::FirstRow => Symmetry::FirstRow,
            ClassSymmetry::LexLeader => Symmetry::LexLeader,
        }
    }
}

/// The largest board (cells) whose default at-most-one encoding is
/// `pairwise` ([`default_amo`]): n·n(n−1) clauses, 990,000 at 10×10.
pub const PAIRWISE_CELLS: usize = 100;

/// The default `--amo` for a board of `cells` cells: `pairwise` up to
/// [`PAIRWISE_CELLS`] (no auxiliary variables, the fewest propagations:
/// measured faster on every board up to 10×10, docs/rook-tour.md), the
/// linear `ladder` above, where pairwise grows as n³ clauses.
pub fn default_amo(cells: usize) -> AmoEncoding {
    if cells <= PAIRWISE_CELLS {
        AmoEncoding::Pairwise
    } else {
        AmoEncoding::Ladder
    }
}

/// The encoding options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// position or successor
    pub encoding: Encoding,
    /// symmetry breaking
    pub symmetry: Symmetry,
    /// at-most-one encoding of the one-hot constraints (position encoding)
    pub amo: AmoEncoding,
    /// which neighbour links the position encoding states
    pub links: Links,
    /// the connectivity check during the search (position encoding)
    pub connectivity: Connectivity,
}

puzzlesat_encodings::option_enum! {
    /// Connectivity reasoning during the built-in engine's search
    /// (`--connectivity`; [`super::connect`]).
    #[derive(Default)]
    pub enum Connectivity("connectivity check") {
        /// the clauses alone
        #[default]
        None = "none",
        /// dead ends and regions that cannot be covered fail at once, each with an explaining clause (position encoding)
        Lazy = "lazy",
    }
}

puzzlesat_encodings::option_enum! {
    /// The position encoding's neighbour links (`--links`).
    #[derive(Default)]
    pub enum Links("link set") {
        /// only "cell has k ⇒ a neighbour has k+1" (the source's model)
        Forward = "forward",
        /// also the redundant "cell has k+1 ⇒ a neighbour has k"
        #[default]
        Both = "both",
    }
}

/// What decoding needs.
#[derive(Debug)]
pub enum VarMap {
    /// `x[c][k-1]` ⇔ cell c holds k
    Position(Vec<Vec<Lit>>),
    /// `p[c]`: the position of cell c along the path
    Successor(Vec<IntVar>),
    /// the edges encoding's literals
    Edges(Edges),
}

/// The edges encoding's literals.
#[derive(Debug)]
pub struct Edges {
    /// `(u, v, s)`: s ⇔ v follows u
    pub follows: Vec<(usize, usize, Lit)>,
    /// `last[c]` ⇔ no edge leaves c
    pub last: Vec<Lit>,
}

impl Edges {
    /// The successor of each cell in a model (None: the last cell).
    fn successors(&self, n: usize, model: &Assignment) -> Vec<Option<usize>> {
        let mut next = vec![None; n];
        for &(u, v, s) in &self.follows {
            if model.lit(s) {
                next[u] = Some(v);
            }
        }
        next
    }
}

/// The cells of a model of the edges encoding in path order from its first
/// cell (the one no edge enters), and the cycles cut off from that path.
fn components(edges: &Edges, n: usize, model: &Assignment) -> (Vec<usize>, Vec<Vec<usize>>) {
    let next = edges.successors(n, model);
    let mut entered = vec![false; n];
    for v in next.iter().flatten() {
        entered[*v] = true;
    }
    let mut seen = vec![false; n];
    let walk = |from: usize, seen: &mut Vec<bool>| {
        let mut cells = vec![];
        let mut at = Some(from);
        while let Some(c) = at.filter(|&c| !seen[c]) {
            seen[c] = true;
            cells.push(c);
            at = next[c];
        }
        cells
    };
    let path = match (0..n).find(|&c| !entered[c]) {
        Some(first) => walk(first, &mut seen),
        None => vec![],
    };
    let mut cycles = vec![];
    for c in 0..n {
        if !seen[c] {
            cycles.push(walk(c, &mut seen));
        }
    }
    (path, cycles)
}

/// The lazy connectivity constraint of the edges encoding: for every cycle
/// of `model` cut off from the path, the clause "an edge leaves the cycle's
/// cells, or one of them is the last cell" (true of every Hamiltonian
/// path: the last cell of the set on the path is followed by a cell
/// outside it, unless it ends the path). False when the model is one path.
pub fn cut<DB: ClauseDatabase>(edges: &Edges, n: usize, model: &Assignment, db: &mut DB) -> bool {
    let (_, cycles) = components(edges, n, model);
    for cycle in &cycles {
        let mut inside = vec![false; n];
        for &c in cycle {
            inside[c] = true;
        }
        let mut clause: Vec<Lit> = edges
            .follows
            .iter()
            .filter(|&&(u, v, _)| inside[u] && !inside[v])
            .map(|e| e.2)
            .collect();
        clause.extend(cycle.iter().map(|&c| edges.last[c]));
        db.add(&clause);
    }
    !cycles.is_empty()
}

impl VarMap {
    /// The numbering a model encodes.
    pub fn decode(&self, inst: &Instance, model: &Assignment) -> Numbering {
        let vals: Vec<u32> = match self {
            VarMap::Position(x) => x
                .iter()
                .map(|row| {
                    row.iter()
                        .position(|&l| model.lit(l))
                        .map_or(0, |k| k as u32 + 1)
                })
                .collect(),
            VarMap::Successor(p) => p.iter().map(|p| p.value(model) as u32).collect(),
            VarMap::Edges(e) => {
                // a model that is not one path (the lazy cuts reject it)
                // decodes to a numbering the checker refuses (value 0)
                let mut vals = vec![0; inst.n()];
                for (k, c) in components(e, inst.n(), model).0.into_iter().enumerate() {
                    vals[c] = k as u32 + 1;
                }
                vals
            }
        };
        Numbering::from_cells(inst.rows, inst.cols, &vals)
    }
}

/// The symmetry breaking posted: the "holds" literals it compares
/// (cell-major, then value) and each group element with its lex
/// comparison.
pub type Posted = (Vec<Lit>, Vec<(Perm, LexChain)>);

/// The encoded board: decoding map, primary literals (a solution is
/// determined by them) and their names.
pub struct Encoded {
    /// for decoding
    pub map: VarMap,
    /// the symmetry breaking posted: the "holds" literals it compares
    /// (cell-major, then value) and each group element with its lex
    /// comparison, for the proof
    pub symmetry: Option<Posted>,
    /// enumeration blocks on these
    pub primary: Vec<Lit>,
    /// names of the primary literals
    pub names: Vec<(String, Lit)>,
}

/// The most literal pairs the lex-leader constraints may compare (group
/// elements × n², or × the first row's cols·n with `first-row`): about 3
/// clauses and 1 variable each.
pub const MAX_LEX_PAIRS: usize = 10_000_000;

/// Encodes `inst` into `db`, with lex-leader clauses for `group` when
/// symmetry breaking is on ([`EncodeError::TooLarge`] past
/// [`MAX_LEX_PAIRS`]: counting classes needs the whole group, so it is not
/// silently cut down).
pub fn encode<DB: ClauseDatabase>(
    db: &mut DB,
    inst: &Instance,
    opts: &Options,
    group: &[BoardSymmetry],
) -> Result<Encoded, EncodeError> {
    // the literals each symmetry compares: every cell's n "holds" literals,
    // or the first row's alone
    let compared = match opts.symmetry {
        Symmetry::FirstRow => inst.cols * inst.n(),
        _ => inst.n() * inst.n(),
    };
    let pairs = group.len().saturating_mul(compared);
    if opts.symmetry != Symmetry::None && pairs > MAX_LEX_PAIRS {
        return Err(EncodeError::TooLarge {
            what: format!(
                "lex-leader constraints for {} symmetries of {} cells (literal pairs)",
                group.len(),
                inst.n()
            ),
            size: pairs,
            limit: MAX_LEX_PAIRS,
        });
    }
    if opts.connectivity == Connectivity::Lazy && opts.encoding != Encoding::Position {
        return Err(EncodeError::Unsupported {
            encoder: "--connectivity lazy",
            what: format!(
                "the {} encoding (the check reads the position encoding's \"cell holds k\" literals): use --encoding position",
                opts.encoding.name()
            ),
        });
    }
    let allowed = inst.allowed();
    if opts.encoding == Encoding::Edges {
        let why = if inst.tour {
            Some("tours (a numbered tour is a cycle with a start, which edges do not name)")
        } else if allowed.iter().any(|a| a[1..].contains(&false)) {
            Some("marked or given cells (they need positions)")
        } else if opts.symmetry != Symmetry::None {
            Some("symmetry breaking (it compares positions)")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(EncodeError::Unsupported {
                encoder: "the edges encoding",
                what: format!("{why}: use --encoding position or successor"),
            });
        }
        return Ok(edges(db, inst));
    }
    let mut enc = match opts.encoding {
        Encoding::Position => position(db, inst, &allowed, opts.amo, opts.links),
        Encoding::Successor => successor(db, inst, &allowed),
        Encoding::Edges => unreachable!("encoded above"),
    };
    match opts.symmetry {
        Symmetry::None => {}
        Symmetry::LexLeader => {
            let holds = holds_literals(db, &mut enc.map);
            let posted = lex_leader(db, &holds, group);
            enc.symmetry = Some((holds, posted));
        }
        Symmetry::FirstRow => {
            // x[..k] ≤lex σ(x)[..k] for the first row's k literals: implied
            // by the whole lex-leader constraint, so sound
            let holds = holds_literals(db, &mut enc.map);
            let k = inst.cols * inst.n();
            let mut posted = vec![];
            for g in group {
                let perm = g.on_holds();
                if perm.is_identity() {
                    continue;
                }
                let image: Vec<Lit> = (0..k)
                    .map(|i| holds[perm.apply(i as u32) as usize])
                    .collect();
                posted.push((
                    perm,
                    puzzlesat_encodings::lex::lex_le(db, &holds[..k], &image),
                ));
            }
            enc.symmetry = Some((holds, posted));
        }
    }
    Ok(enc)
}

/// The names of the successor Booleans `(u, v, s)`: s ⇔ v follows u.
fn edge_names(inst: &Instance, edges: &[(usize, usize, Lit)]) -> Vec<(String, Lit)> {
    edges
        .iter()
        .map(|&(u, v, s)| (super::opb::follows_name(inst, u, v), s))
        .collect()
}

/// The position encoding.
fn position<DB: ClauseDatabase>(
    db: &mut DB,
    inst: &Instance,
    allowed: &[Vec<bool>],
    amo: AmoEncoding,
    links: Links,
) -> Encoded {
    let n = inst.n();
    // variables: x[c][k-1] ⇔ cell c holds k
    let x: Vec<Vec<Lit>> = (0..n).map(|_| db.fresh_lits(n)).collect();
    // one value per cell
    for row in &x {
        let _ = exactly_one(db, row, amo);
    }
    // one cell per value
    for k in 0..n {
        let col: Vec<Lit> = x.iter().map(|row| row[k]).collect();
        let _ = exactly_one(db, &col, amo);
    }
    // x[c][k] → ∨_{d ∈ N(c)} x[d][k+1]; for a tour also x[c][n] → ∨ x[d][1]
    let last = if inst.tour { n } else { n - 1 };
    for c in 0..n {
        let nb = inst.neighbours(c);
        for k in 0..last {
            let next = (k + 1) % n;
            let mut clause = vec![!x[c][k]];
            clause.extend(nb.iter().map(|&d| x[d][next]));
            db.add(&clause);
        }
    }
    // redundant (--links both): x[c][k+1] → ∨_{d ∈ N(c)} x[d][k]; tour: x[c][1] → ∨ x[d][n]
    if links == Links::Both {
        let first = if inst.tour { 0 } else { 1 };
        for c in 0..n {
            let nb = inst.neighbours(c);
            for k in first..n {
                let prev = (k + n - 1) % n;
                let mut clause = vec![!x[c][k]];
                clause.extend(nb.iter().map(|&d| x[d][prev]));
                db.add(&clause);
            }
        }
    }
    // value sets and givens: ¬x[c][k] for every value k the cell may not hold
    for c in 0..n {
        for k in 0..n {
            if !allowed[c][k + 1] {
                db.unit(!x[c][k]);
            }
        }
    }
    let mut names = vec![];
    for (c, row) in x.iter().enumerate() {
        for (k, &l) in row.iter().enumerate() {
            names.push((super::opb::holds_name(inst, c, k + 1), l));
        }
    }
    Encoded {
        primary: x.iter().flatten().copied().collect(),
        map: VarMap::Position(x),
        symmetry: None,
        names,
    }
}

/// The successor encoding.
fn successor<DB: ClauseDatabase>(db: &mut DB, inst: &Instance, allowed: &[Vec<bool>]) -> Encoded {
    let n = inst.n();
    let nn = n as i64;
    // variables: the position p[c] ∈ 1..n of each cell along the path
    let p: Vec<IntVar> = (0..n)
        .map(|_| IntVar::new(db, 1, nn).expect("a board has cells"))
        .collect();
    // variables: s[u→v] ⇔ v follows u
    let mut edges = vec![]; // (u, v, s)
    for u in 0..n {
        for v in inst.neighbours(u) {
            edges.push((u, v, db.fresh()));
        }
    }
    // s[u→v] → p[u] + 1 ≤ p[v] ∧ p[v] - 1 ≤ p[u]
    for &(u, v, s) in &edges {
        LeOffset {
            x: &p[u],
            y: &p[v],
            c: 1,
        }
        .implied_by(db, s);
        LeOffset {
            x: &p[v],
            y: &p[u],
            c: -1,
        }
        .implied_by(db, s);
    }
    for c in 0..n {
        let ins: Vec<Lit> = edges.iter().filter(|e| e.1 == c).map(|e| e.2).collect();
        let outs: Vec<Lit> = edges.iter().filter(|e| e.0 == c).map(|e| e.2).collect();
        // at most one edge in and one out
        at_most_one(db, &ins, AmoEncoding::Pairwise);
        at_most_one(db, &outs, AmoEncoding::Pairwise);
        // p[c] ≥ 2 → some edge in
        let mut clause = vec![!p[c].ge(2)];
        clause.extend(&ins);
        db.add(&clause);
        // p[c] < n → some edge out
        let mut clause = vec![p[c].ge(nn)];
        clause.extend(&outs);
        db.add(&clause);
        // tour: p[c] = n → a neighbour has p = 1
        if inst.tour {
            let mut clause = vec![!p[c].ge(nn)];
            clause.extend(inst.neighbours(c).iter().map(|&d| !p[d].ge(2)));
            db.add(&clause);
        }
        // value sets and givens: ¬(p[c] = k), i.e. p[c] < k ∨ p[c] > k
        for k in 1..=nn {
            if !allowed[c][k as usize] {
                db.add(&[!p[c].ge(k), p[c].ge(k + 1)]);
            }
        }
    }
    let names = edge_names(inst, &edges);
    Encoded {
        primary: edges.iter().map(|e| e.2).collect(),
        map: VarMap::Successor(p),
        symmetry: None,
        names,
    }
}

/// The edges encoding (module docs): an empty board's paths, connectivity
/// left to [`cut`].
fn edges<DB: ClauseDatabase>(db: &mut DB, inst: &Instance) -> Encoded {
    let n = inst.n();
    let mut follows = vec![];
    for u in 0..n {
        for v in inst.neighbours(u) {
            follows.push((u, v, db.fresh()));
        }
    }
    let mut firsts = vec![];
    let mut last = vec![];
    for c in 0..n {
        let ins: Vec<Lit> = follows.iter().filter(|e| e.1 == c).map(|e| e.2).collect();
        let outs: Vec<Lit> = follows.iter().filter(|e| e.0 == c).map(|e| e.2).collect();
        at_most_one(db, &ins, AmoEncoding::Pairwise);
        at_most_one(db, &outs, AmoEncoding::Pairwise);
        // first[c] ⇔ no edge in, last[c] ⇔ no edge out
        for (edges, end) in [(&ins, &mut firsts), (&outs, &mut last)] {
            let e = db.fresh();
            let mut clause = vec![e];
            clause.extend(edges.iter());
            db.add(&clause);
            for &s in edges.iter() {
                db.add(&[!e, !s]);
            }
            end.push(e);
        }
    }
    let _ = exactly_one(db, &firsts, AmoEncoding::Pairwise);
    let _ = exactly_one(db, &last, AmoEncoding::Pairwise);
    // no 2-cycle (a path of 2 cells has one edge)
    for &(u, v, s) in &follows {
        if u < v {
            if let Some(&(_, _, back)) = follows.iter().find(|e| e.0 == v && e.1 == u) {
                db.add(&[!s, !back]);
            }
        }
    }
    let names = edge_names(inst, &follows);
    Encoded {
        primary: follows.iter().map(|e| e.2).collect(),
        map: VarMap::Edges(Edges { follows, last }),
        symmetry: None,
        names,
    }
}

/// The literals "cell c holds k" at index `c * n + (k - 1)`: x itself, or the
/// (cached, channelled) direct literals of the positions.
fn holds_literals<DB: ClauseDatabase>(db: &mut DB, map: &mut VarMap) -> Vec<Lit> {
    match map {
        VarMap::Position(x) => x.iter().flatten().copied().collect(),
        VarMap::Successor(p) => {
            let n = p.len() as i64;
            p.iter_mut()
                .flat_map(|p| (1..=n).map(|k| p.eq(db, k)).collect::<Vec<_>>())
                .collect()
        }
        VarMap::Edges(_) => unreachable!("the edges encoding refuses symmetry breaking"),
    }
}

/// Lex-leader clauses over the "holds" literals for every element of the
/// group (the identity is skipped by the core).
fn lex_leader<DB: ClauseDatabase>(
    db: &mut DB,
    holds: &[Lit],
    group: &[BoardSymmetry],
) -> Vec<(Perm, LexChain)> {
    let perms: Vec<Perm> = group.iter().map(BoardSymmetry::on_holds).collect();
    perm::lex_leader(db, holds, &perms)
}
