//! Alien Tiles (CSPLib problem 027): play a position with the fewest clicks,
//! or find the hardest goal state, after Gent, Linton & Smith, "Symmetry
//! breaking in the Alien Tiles puzzle" (APES-22-2000).
//!
//! - [`model`]: boards, click matrices, the click map over Z_c;
//! - [`zmod`]: linear algebra over Z_c (kernel of the click map, solving);
//! - [`rowcol`]: the kernel as row/column pairs, the exact coset minimum
//!   (lazy minimality and the checker, without listing the kernel);
//! - [`encode`]: the CNF (goal constraints, minimality constraints);
//! - [`symmetry`]: the board's symmetry group and canonical forms;
//! - [`census`]: symmetry classes and goal states of `--hardest --all`;
//! - [`check`]: the independent checker (replay, brute-force minimality);
//! - [`opb`]: the PB model (for VeriPB proofs);
//! - [`reference`]: brute force over all click matrices, for tiny sizes;
//! - [`play`]: play a goal exactly by the row/column minimisation, no SAT;
//! - [`goals`]: the hardest goal by an exhaustive search over the goals;
//! - its methods beside SAT: `crate::methods::alien_tiles`; its command
//!   line: `crate::cli::alien_tiles`.

pub mod census;
pub mod check;
pub mod encode;
pub mod goal_model;
pub mod goal_proof;
pub mod goals;
pub mod model;
pub mod opb;
pub mod play;
pub mod play_proof;
pub mod reference;
pub mod rowcol;
pub mod symmetry;
pub mod zmod;

use anyhow::{bail, ensure};
use puzzlesat_encodings::card::CardEncoding;
use puzzlesat_encodings::dominance::{LexOrder, SymmetryProof};
use puzzlesat_encodings::int::{self, IntVar};
use puzzlesat_encodings::lex::LexChain;
use puzzlesat_encodings::perm::Perm;
use puzzlesat_encodings::provenance::{Lemma, Linear};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf, Lit, PbModel};
use serde::Serialize;

use crate::picture::{Colour, Picture};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::{plural, Details, Report, Status};
use census::{census, group_order, Census};
use encode::GoalEncoding;
use model::Grid;
use puzzlesat_encodings::solve::{Objective, Sense};
use rowcol::RowCol;
use symmetry::Symmetry;
use zmod::{gcd, Kernel};

/// Kernels up to this size are enumerated by the checker (larger ones: the
/// row/column minimum of [`rowcol`]).
pub const ENUMERATE_LIMIT: u64 = 1 << 24;
/// The disjoint-cut bound looks at the cuts of kernels up to this size (it
/// keeps them all in memory to sort them).
pub const CUT_BOUND_LIMIT: u64 = 1 << 17;
/// Eager minimality posts one constraint per kernel element, up to this many.
pub const EAGER_LIMIT: u64 = 1 << 20;

puzzlesat_encodings::option_enum! {
    /// How the minimality constraints of `--hardest` are added (`--minimality`).
    #[derive(Default)]
    pub enum Minimality("minimality mode") {
        /// one cardinality constraint per non-zero kernel element, up front
        #[default]
        Eager = "eager",
        /// only the constraint of the kernel element that most lowers each
        /// candidate's total, added when the candidate violates it
        Lazy = "lazy",
    }
}

puzzlesat_encodings::option_enum! {
    /// Redundant constraints of `--hardest` (`--redundant`).
    #[derive(Default)]
    pub enum Redundant("redundant constraint") {
        /// none
        None = "none",
        /// an upper bound on the clicks from disjoint minimality constraints
        /// (see `AlienTiles::disjoint_cut_bound`)
        DisjointCuts = "disjoint-cuts",
        /// an upper bound on the clicks from the average of every minimality
        /// constraint (see `AlienTiles::average_bound`)
        Average = "average",
        /// the smaller of the two bounds
        #[default]
        Both = "both",
    }
}

puzzlesat_encodings::option_enum! {
    /// How `solve alien-tiles` answers (`--method`).
    pub enum Method("alien-tiles method") {
        /// play (`--goal`): the exact row/column minimisation over the goal's
        /// coset, no SAT ([`play`]); the default with `--goal`
        RowCol = "rowcol",
        /// the SAT optimiser over the CNF (play: `--encoding`; the default
        /// with `--hardest`)
        Sat = "sat",
        /// hardest (`--hardest`): the exhaustive search over the goals, at
        /// least one per symmetry class, each played exactly ([`goals`])
        Goals = "goals",
    }
}

/// What to solve.
#[derive(Clone, Debug)]
pub enum Task {
    /// fewest clicks from `start` to `goal`
    Play {
        /// the board before clicking
        start: Grid,
        /// the board to reach
        goal: Grid,
    },
    /// the most clicks any goal needs: maximise over click matrices minimal
    /// for their goal (start all zero)
    Hardest,
}

/// An Alien Tiles instance with its encoding options.
#[derive(Debug)]
pub struct AlienTiles {
    /// board side
    pub n: usize,
    /// number of colours
    pub c: u32,
    /// play or hardest
    pub task: Task,
    /// eager or lazy minimality constraints (hardest)
    pub minimality: Minimality,
    /// symmetry breaking (hardest)
    pub symmetry: Symmetry,
    /// cardinality encoding of the minimality constraints
    pub card: CardEncoding,
    /// how play constrains the board reached
    pub goal_encoding: GoalEncoding,
    /// redundant constraints (hardest)
    pub redundant: Redundant,
    /// how the command line answers (the SAT pipeline of [`Puzzle`] is the
    /// `sat` method whatever this says; `rowcol` is [`play::report`])
    pub method: Method,
    /// why the command line chose `method` when none was given (a note of
    /// the report)
    pub method_chosen: Option<String>,
    kernel: Kernel,
    rowcol: RowCol,
}

/// The variable map: the click counts, row-major.
#[derive(Debug)]
pub struct TilesMap {
    xs: Vec<IntVar>,
    /// the redundant bound on the clicks posted by `--redundant`
    cut_bound: Option<u64>,
    /// the symmetry breaking posted: each group element with its lex
    /// comparison (for the proof)
    symmetry: Vec<(Perm, LexChain)>,
}

impl TilesMap {
    /// The clicks of each cell (row-major), order-encoded.
    pub fn clicks(&self) -> &[IntVar] {
        &self.xs
    }
}

/// What an Alien Tiles report adds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TilesDetails {
    /// elements of the click map's kernel (click matrices per reachable
    /// goal); None past 2^64
    pub kernel_size: Option<u64>,
    /// the redundant bound on the clicks (`--redundant`: disjoint
    /// minimality cuts, the kernel average, or the smaller)
    pub cut_bound: Option<u64>,
    /// order of the symmetry group, 2·(n!)² (None past 2^64)
    pub group_order: Option<u64>,
    /// `--hardest --all`: classes and goal states of the optimal click
    /// matrices (the report's solutions are then one per class)
    pub census: Option<Census>,
    /// `--hardest` without `--method`: the method chosen and why
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method_chosen: Option<String>,
    /// lines for the text report
    #[serde(skip)]
    pub notes: Vec<String>,
}

impl Details for TilesDetails {
    fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.method_chosen.iter().cloned().collect();
        lines.extend(self.notes.iter().cloned());
        if let Some(cs) = &self.census {
            let matrices = |n: u64| plural(n, "optimal click matrix", "optimal click matrices");
            lines.push(format!(
                "{} enumerated; {} under the {} symmetries (canonical form: lexicographically smallest image; one shown per class); {} in all (orbits of the classes), reaching {} in {}",
                matrices(cs.enumerated as u64),
                plural(cs.classes.len() as u64, "class", "classes"),
                self.group_order.map_or("2·(n!)²".into(), |o| o.to_string()),
                cs.matrices.map_or("? optimal click matrices".into(), |m| matrices(m as u64)),
                cs.goals.map_or("? distinct goal states".into(), |g| {
                    plural(g as u64, "distinct goal state", "distinct goal states")
                }),
                plural(cs.goal_classes as u64, "goal class", "goal classes")
            ));
        }
        let kernel = self.kernel_size.map_or("> 2^64".into(), |s| s.to_string());
        lines.push(format!(
            "c kernel of the click map: {kernel} elements (click matrices per reachable goal); redundant bound on the clicks: {}",
            self.cut_bound.map_or("none".into(), |b| b.to_string())
        ));
        lines
    }
}

/// A click matrix with the board it reaches.
#[derive(Clone, Debug, Serialize)]
pub struct TilesSolution {
    /// how often each cell is clicked
    pub clicks: Grid,
    /// number of clicks
    pub total: u32,
    /// the board reached from the start
    pub goal: Grid,
    /// true once the checker confirmed minimality (by enumerating the kernel
    /// coset, or by the exact row/column minimum past 2^24 kernel elements)
    pub minimality_checked: bool,
}

impl AlienTiles {
    /// An instance (computes the kernel of the click map).
    pub fn new(n: usize, c: u32, task: Task) -> anyhow::Result<Self> {
        ensure!(
            (1..=12).contains(&n),
            "the board side n must be in 1..=12, not {n}"
        );
        ensure!(
            (2..=64).contains(&c),
            "the number of colours c must be in 2..=64, not {c}"
        );
        if let Task::Play { start, goal } = &task {
            ensure!(
                start.n == n && goal.n == n,
                "start and goal must be {n}×{n} boards"
            );
        }
        let kernel = Kernel::of(&model::click_map(n, c));
        Ok(AlienTiles {
            n,
            c,
            task,
            minimality: Minimality::Lazy,
            symmetry: Symmetry::DoubleLexTranspose,
            card: CardEncoding::Totalizer,
            goal_encoding: GoalEncoding::Kernel,
            redundant: Redundant::Both,
            method: Method::Sat,
            method_chosen: None,
            kernel,
            rowcol: RowCol::new(n, c),
        })
    }

    /// The kernel of the click map: click matrices that change nothing.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The start board (all zero for `--hardest`).
    pub fn start(&self) -> Grid {
        match &self.task {
            Task::Play { start, .. } => start.clone(),
            Task::Hardest => Grid::zeros(self.n),
        }
    }

    /// Hardest: the minimality constraints, eagerly (one per non-zero kernel
    /// element; identical ones once).
    fn encode_minimality_eager(&self, cnf: &mut Cnf, xs: &[IntVar]) -> anyhow::Result<()> {
        let size = self.kernel.size().unwrap_or(u64::MAX);
        if size > EAGER_LIMIT {
            bail!("the kernel has {size} elements, too many for eager minimality constraints (limit {EAGER_LIMIT}): use --minimality lazy");
        }
        let mut seen = std::collections::HashSet::new();
        let mut result = Ok(());
        self.kernel.for_each(self.n * self.n, |z| {
            if let Some((mut lits, k)) = encode::minimality_cut(xs, z, self.c) {
                lits.sort();
                if seen.insert((lits.clone(), k)) {
                    if let Err(e) = puzzlesat_encodings::card::at_most(cnf, &lits, k, self.card) {
                        result = Err(e);
                        return false;
                    }
                }
            }
            true
        });
        Ok(result?)
    }

    /// Hardest, redundant: an upper bound on the clicks implied by the
    /// minimality constraints. Minimality constraints with pairwise disjoint
    /// literal sets bound their literals' sum by the sum of their bounds;
    /// every other order literal counts at most 1. With the sets picked
    /// greedily (lowest bound per literal first), `Σ x ≤ B = Σ k_z + uncovered`.
    /// When the kernel holds the multiples of the all-ones matrix
    /// (c | 2n−1), the cuts of `a·J` are exactly the levels `[x ≥ c−a]` and
    /// `B = Σ_a ⌊a·n²/c⌋`, the optimum in those cases of the table — a
    /// counting argument CDCL does not find by itself. None past
    /// [`CUT_BOUND_LIMIT`] kernel elements.
    fn disjoint_cut_bound(&self, xs: &[IntVar]) -> Option<(u64, Vec<Linear>)> {
        if self.kernel.size().is_none_or(|s| s > CUT_BOUND_LIMIT) {
            return None;
        }
        let mut cuts: Vec<(Vec<Lit>, usize)> = vec![];
        self.kernel.for_each(self.n * self.n, |z| {
            if let Some(cut) = encode::minimality_cut(xs, z, self.c) {
                cuts.push(cut);
            }
            true
        });
        // lowest bound per literal first, larger sets first on ties
        cuts.sort_by(|(a, ka), (b, kb)| {
            (ka * b.len())
                .cmp(&(kb * a.len()))
                .then(b.len().cmp(&a.len()))
        });
        let mut covered = std::collections::HashSet::new();
        let mut sum = 0;
        let mut chosen = vec![];
        for (lits, k) in &cuts {
            if lits.iter().all(|l| !covered.contains(l)) {
                covered.extend(lits.iter().copied());
                sum += k;
                chosen.push(Linear::count_at_most(lits, *k as i64));
            }
        }
        let all = xs.len() * (self.c as usize - 1);
        Some(((sum + all - covered.len()) as u64, chosen))
    }

    /// How a VeriPB proof derives [`AlienTiles::average_bound`] from the
    /// model: the sum of every minimality constraint (an always-true one
    /// by its literals' axioms), divided by the kernel's size. It is the
    /// bound when every cell's kernel subgroup is all of Z_c or trivial
    /// (then each order literal has coefficient 1); None otherwise, or past
    /// [`EAGER_LIMIT`] kernel elements.
    fn average_lemma(&self, xs: &[IntVar]) -> Option<Lemma> {
        let c = self.c;
        let size = self.kernel.size().filter(|&s| s <= EAGER_LIMIT)?;
        let whole_or_trivial = (0..self.n * self.n).all(|p| {
            let step = self
                .kernel
                .gens
                .iter()
                .fold(c as u64, |g, (gen, _)| gcd(g, gen[p] as u64));
            step == 1 || step == c as u64
        });
        if !whole_or_trivial {
            return None;
        }
        let mut parts = vec![];
        self.kernel.for_each(self.n * self.n, |z| {
            let terms: Vec<(u64, Lit)> = xs
                .iter()
                .zip(z)
                .filter(|(_, &zv)| zv != 0)
                .map(|(x, &zv)| (c as u64, x.ge((c - zv) as i64)))
                .collect();
            if !terms.is_empty() {
                let total: u32 = z.iter().sum();
                parts.push(Linear::weighted_at_most(&terms, total as i64));
            }
            true
        });
        Some(Lemma {
            parts,
            divisor: size,
        })
    }

    /// Hardest, redundant: the average of every minimality constraint (the
    /// Lagrangian bound with equal multipliers). A minimal `x` has
    /// `Σ x ≤ Σ (x + z) mod c` for every kernel element `z`, so `Σ x` is at
    /// most the average of the right-hand side over the kernel, which splits
    /// by cells: `Σ_ij max_v E_z[(v + z_ij) mod c]`. Over the whole kernel,
    /// `z_ij` is uniform on the subgroup of Z_c its generators span at that
    /// cell, of order `o` and step `s = c/o`; the coset of `v` averages
    /// `(v mod s) + s(o−1)/2`, at most `(c + s − 2)/2`. When every cell's
    /// subgroup is all of Z_c the bound is `⌊n²(c−1)/2⌋` (5×5, c = 4: 37,
    /// the bound a CP solver reached). Needs no enumeration.
    pub fn average_bound(&self) -> u64 {
        let c = self.c as u64;
        let twice: u64 = (0..self.n * self.n)
            .map(|p| {
                let step = self
                    .kernel
                    .gens
                    .iter()
                    .fold(c, |g, (gen, _)| gcd(g, gen[p] as u64));
                c + step - 2
            })
            .sum();
        twice / 2
    }

    /// Hardest, redundant: posts the bound `B` of `--redundant` (the smaller
    /// of the disjoint-cut and average bounds with `both`). To make it usable
    /// by the optimiser, the clicks are summed into one order-encoded integer
    /// `s = Σ x_ij` (totalizer merge, `int::sum`), `s ≤ B` is a unit, and the
    /// objective is `[s ≥ 1] + … + [s ≥ B]`: a target above `B` is then
    /// refused without a solver call. Returns the objective literals and the
    /// bound.
    fn encode_click_bound(&self, cnf: &mut Cnf, xs: &[IntVar]) -> (Vec<Lit>, u64) {
        let total = int::sum(cnf, &xs.iter().collect::<Vec<_>>());
        let all = (xs.len() * (self.c as usize - 1)) as u64;
        let cuts = || self.disjoint_cut_bound(xs);
        let average = || (self.average_bound(), None);
        let (bound, parts) = match self.redundant {
            Redundant::None => (all, None),
            Redundant::DisjointCuts => cuts().map_or((all, None), |(b, p)| (b, Some(p))),
            Redundant::Average => average(),
            Redundant::Both => match cuts() {
                Some((b, p)) if b <= self.average_bound() => (b, Some(p)),
                _ => average(),
            },
        };
        if cnf.provenance().is_some() {
            // the bound is a lemma of the model, for a VeriPB proof
            let order_lits: Vec<Lit> = xs.iter().flat_map(|x| x.order_lits().to_vec()).collect();
            let c = Linear::count_at_most(&order_lits, bound as i64);
            let lemma = match parts {
                Some(parts) => Some(Lemma { parts, divisor: 1 }),
                None => self.average_lemma(xs),
            };
            let p = cnf.provenance().expect("recording");
            match lemma {
                Some(lemma) => p.lemma(c, lemma),
                // not a model constraint: the proof's plan refuses it
                None => p.source(Some(c)),
            }
        }
        total.post_le(cnf, bound as i64);
        puzzlesat_encodings::provenance::source(cnf, || None);
        let lits = total.order_lits()[..(bound as usize).min(total.order_lits().len())].to_vec();
        (lits, bound)
    }

    /// For play: the linear algebra's verdict on reachability must agree
    /// with the solver's.
    fn cross_check_reachability(&self, status: Status) -> anyhow::Result<()> {
        if let Task::Play { start, goal } = &self.task {
            let delta = model::sub_mod(goal, start, self.c);
            let reachable = zmod::solve(&model::click_map(self.n, self.c), &delta.cells).is_some();
            let sat_says = match status {
                Status::Unsat => Some(false),
                Status::Optimal | Status::Sat | Status::All | Status::Partial => Some(true),
                Status::Unknown => None,
            };
            if sat_says.is_some_and(|s| s != reachable) {
                bail!("internal error: the solver says reachable = {sat_says:?}, linear algebra over Z_c says {reachable}");
            }
        }
        Ok(())
    }

    fn clicks_of(&self, map: &TilesMap, model: &Assignment) -> Grid {
        Grid {
            n: self.n,
            cells: map.xs.iter().map(|x| x.value(model) as u32).collect(),
        }
    }
}

impl Puzzle for AlienTiles {
    type Solution = TilesSolution;
    type Map = TilesMap;
    type Details = TilesDetails;

    fn pb_model(&self) -> Option<PbModel> {
        opb::model(self)
    }

    /// The lex-leader clauses of every `--symmetry` mode, by dominance under
    /// the row-major lex order of the order literals (each mode's
    /// constraints are lex-leader constraints of group elements for that
    /// order).
    fn symmetry_proof(
        &self,
        map: &TilesMap,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<SymmetryProof, String>> {
        if let Task::Play { start, goal } = &self.task {
            // an unreachable goal's CNF (kernel encoding) is the empty
            // clause: derived from the model by the linear algebra's reason
            let delta = model::sub_mod(goal, start, self.c);
            let y = zmod::obstruction(&model::click_map(self.n, self.c), &delta.cells)?;
            if self.goal_encoding != GoalEncoding::Kernel {
                return None;
            }
            let model = opb::model(self)?;
            return Some(Ok(play_proof::unreachable_block(&model, &y, self.c)));
        }
        if map.symmetry.is_empty() {
            return None;
        }
        let vars: Vec<Lit> = map
            .xs
            .iter()
            .flat_map(|x| x.order_lits().to_vec())
            .collect();
        Some(LexOrder::new("lex", &vars).proof(&map.symmetry, name))
    }

    fn counted_as(&self) -> &'static str {
        match (&self.task, self.symmetry) {
            (Task::Play { .. }, _) | (Task::Hardest, Symmetry::None) => "solutions",
            (Task::Hardest, Symmetry::Full) => {
                "symmetry classes (one lex-leader representative each)"
            }
            (
                Task::Hardest,
                Symmetry::DoubleLex | Symmetry::DoubleLexTranspose | Symmetry::Generators,
            ) => "symmetry-reduced solutions (not one per class: the classes are counted below)",
        }
    }

    fn describe(&self) -> String {
        match &self.task {
            Task::Play { .. } if self.method == Method::RowCol => {
                format!("alien-tiles n={} c={} play method=rowcol", self.n, self.c)
            }
            Task::Play { .. } => format!(
                "alien-tiles n={} c={} play encoding={}",
                self.n, self.c, self.goal_encoding
            ),
            Task::Hardest if self.method == Method::Goals => {
                format!("alien-tiles n={} c={} hardest method=goals", self.n, self.c)
            }
            Task::Hardest => format!(
                "alien-tiles n={} c={} hardest minimality={} symmetry={} card={} redundant={}",
                self.n, self.c, self.minimality, self.symmetry, self.card, self.redundant
            ),
        }
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<TilesMap>> {
        let (n, c) = (self.n, self.c);
        // variables
        let mut xs = encode::click_vars(cnf, n, c);
        // the quotient bits of `--encoding linear`, which the model names
        let mut quotients: Vec<Vec<Lit>> = vec![];
        // rules
        let sense = match &self.task {
            Task::Play { start, goal } => {
                let delta = model::sub_mod(goal, start, c);
                match self.goal_encoding {
                    GoalEncoding::Sums => encode::encode_goal(cnf, &mut xs, n, c, &delta),
                    GoalEncoding::Linear => {
                        quotients = encode::encode_goal_linear(cnf, &xs, n, c, &delta)
                    }
                    GoalEncoding::Kernel => {
                        let x0 = zmod::solve(&model::click_map(n, c), &delta.cells);
                        encode::encode_goal_kernel(cnf, &mut xs, c, x0.as_deref(), &self.kernel)
                    }
                }
                Sense::Minimize
            }
            Task::Hardest => {
                if self.minimality == Minimality::Eager {
                    self.encode_minimality_eager(cnf, &xs)?;
                }
                Sense::Maximize
            }
        };
        // symmetry breaking (hardest only: a goal board is not symmetric)
        let posted = match self.task {
            Task::Hardest => symmetry::post(cnf, &xs, n, c, self.symmetry)?,
            Task::Play { .. } => vec![],
        };
        // objective: the number of clicks, Σ_ij Σ_v [x_ij ≥ v]
        let primary: Vec<_> = xs
            .iter()
            .flat_map(|x| x.order_lits().iter().copied())
            .collect();
        let names = xs
            .iter()
            .enumerate()
            .flat_map(|(p, x)| {
                x.order_lits()
                    .iter()
                    .enumerate()
                    .map(move |(v, &l)| (opb::click_name(n, p, v + 1), l))
            })
            .chain(quotients.iter().enumerate().flat_map(|(p, q)| {
                q.iter()
                    .enumerate()
                    .map(move |(b, &l)| (opb::quotient_name(n, p, b as u32), l))
            }))
            .collect();
        let (objective_lits, cut_bound) = match (&self.task, self.redundant) {
            (Task::Hardest, Redundant::None) | (Task::Play { .. }, _) => (primary.clone(), None),
            (Task::Hardest, _) => {
                let (lits, bound) = self.encode_click_bound(cnf, &xs);
                (lits, Some(bound))
            }
        };
        let objective = Objective {
            sense,
            terms: objective_lits.iter().map(|&l| (l, 1)).collect(),
            offset: 0,
        };
        let map = TilesMap {
            xs,
            cut_bound,
            symmetry: posted,
        };
        Ok(Encoded::new(map, primary, names).with_objective(objective))
    }

    fn decode(&self, map: &TilesMap, model: &Assignment) -> anyhow::Result<TilesSolution> {
        let clicks = self.clicks_of(map, model);
        let goal = model::add_mod(&self.start(), &model::effect(&clicks, self.c), self.c);
        Ok(TilesSolution {
            total: clicks.total(),
            clicks,
            goal,
            minimality_checked: true,
        })
    }

    fn check(&self, sol: &TilesSolution) -> Result<(), String> {
        if let Task::Play { goal, .. } = &self.task {
            if &sol.goal != goal {
                return Err("the solution claims another goal".into());
            }
        }
        if sol.total != sol.clicks.total() {
            return Err(format!(
                "total {} is not the number of clicks {}",
                sol.total,
                sol.clicks.total()
            ));
        }
        check::check_clicks(
            &self.start(),
            &sol.goal,
            &sol.clicks,
            self.c,
            &self.kernel,
            ENUMERATE_LIMIT,
        )?;
        if !sol.minimality_checked {
            return Err("minimality is not checked".into());
        }
        Ok(())
    }

    /// The goal in its colours (colour k of the `c` as a hue), each cell
    /// labelled with its clicks.
    fn picture(&self, sol: &TilesSolution) -> Option<Picture> {
        let n = self.n;
        let labels: Vec<Vec<String>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match sol.clicks.at(i, j) {
                        0 => String::new(),
                        k => k.to_string(),
                    })
                    .collect()
            })
            .collect();
        let title = format!(
            "goal in {} colours; numbers: clicks ({} in all)",
            self.c, sol.total
        );
        Some(Picture::board(&labels, title, |i, j| {
            Colour::palette(sol.goal.at(i, j) as usize, self.c as usize)
        }))
    }

    fn render(&self, sol: &TilesSolution) -> String {
        let clicks = sol.clicks.render();
        let goal = sol.goal.render();
        let label = format!("clicks ({})", sol.total);
        // three spaces after the widest clicks line, two after the label
        let widest = clicks.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        let width = (widest + 3).max(label.len() + 2);
        let mut out = format!("{label:<width$}goal\n");
        for (a, b) in clicks.lines().zip(goal.lines()) {
            out.push_str(&format!("{a:<width$}{b}\n"));
        }
        out.pop();
        out
    }

    fn objective_of(&self, sol: &TilesSolution) -> Option<i64> {
        Some(sol.total as i64)
    }

    fn details(
        &self,
        map: &TilesMap,
        report: &mut Report<TilesSolution, TilesDetails>,
    ) -> anyhow::Result<()> {
        self.cross_check_reachability(report.status)?;
        let d = &mut report.details;
        d.method_chosen.clone_from(&self.method_chosen);
        d.kernel_size = self.kernel.size();
        d.cut_bound = map.cut_bound;
        d.group_order = group_order(self.n);
        if let (Task::Play { .. }, Status::Unsat) = (&self.task, report.status) {
            d.notes.push(match self.goal_encoding {
                GoalEncoding::Kernel => format!("unreachable: the goal is not in the image of the click map over Z_{} (linear algebra; the CNF is the empty clause)", self.c),
                GoalEncoding::Sums | GoalEncoding::Linear => format!("unreachable: no click matrix reaches the goal (proven: UNSAT; linear algebra over Z_{} agrees)", self.c),
            });
        }
        if report.count.is_some() {
            let cs = census(&report.solutions, self.c);
            // one representative per class instead of every matrix
            report.solutions = cs
                .classes
                .iter()
                .map(|g| TilesSolution {
                    total: g.total(),
                    clicks: g.clone(),
                    goal: model::add_mod(&self.start(), &model::effect(g, self.c), self.c),
                    minimality_checked: true,
                })
                .collect();
            report.details.census = Some(cs);
        }
        Ok(())
    }

    fn split_literals(&self, map: &TilesMap, _primary: &[Lit], _cnf: &mut Cnf) -> Vec<Lit> {
        // the last cells first: symmetry breaking orders the first row and
        // column, so cubes on them are mostly refuted at once
        let reversed: Vec<IntVar> = map.xs.iter().rev().cloned().collect();
        crate::puzzle::middle_literals(&reversed)
    }

    fn separate<DB: ClauseDatabase>(
        &self,
        map: &TilesMap,
        model: &Assignment,
        db: &mut DB,
    ) -> bool {
        if !matches!(self.task, Task::Hardest) || self.minimality != Minimality::Lazy {
            return false;
        }
        let x = self.clicks_of(map, model);
        // the kernel element that most lowers the total (exact, row/column minimum)
        let (best_total, z) = self.rowcol.coset_min(&x.cells);
        if best_total == x.total() {
            return false;
        }
        let (lits, k) =
            encode::minimality_cut(&map.xs, &z, self.c).expect("a violated cut is not trivial");
        puzzlesat_encodings::card::at_most(db, &lits, k, self.card)
            .expect("checked at encode time");
        true
    }
}
