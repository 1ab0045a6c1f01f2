//! `puzzlesat solve alien-tiles`: play a goal (`--goal`), or find the
//! hardest goal (`--hardest`), optionally enumerating every optimal click
//! matrix (`--all`) with its symmetry classes and goal states.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use puzzlesat_encodings::card::CardEncoding;

use super::encode::GoalEncoding;
use super::model::{self, Grid};
use super::symmetry::{self, Symmetry};
use super::{zmod, AlienTiles, Minimality, Redundant, Task, TilesSolution};
use crate::cli::{decode_generic, dimacs_generic, exit_code, Common, PuzzleCommand};
use crate::run::{self, Report, Status};

/// Alien Tiles options.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// board side, 1 to 12
    #[arg(short = 'n', long = "size", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=12))]
    pub n: usize,
    /// number of colours, 2 to 64
    #[arg(short = 'c', long = "colours", value_parser = clap::value_parser!(u32).range(2..=64))]
    pub c: u32,
    /// goal board file (n lines of n colours 0..c): find the fewest clicks
    #[arg(long, conflicts_with = "hardest")]
    pub goal: Option<PathBuf>,
    /// start board file (default all 0)
    #[arg(long, requires = "goal")]
    pub start: Option<PathBuf>,
    /// find the goal that needs the most clicks
    #[arg(long)]
    pub hardest: bool,
    /// minimality constraints of --hardest: eager, lazy
    #[arg(long, default_value = "eager")]
    pub minimality: Minimality,
    /// symmetry breaking for --hardest
    #[arg(long, default_value = "none")]
    pub symmetry: Symmetry,
    /// play: kernel (x = x0 + kernel combination, by linear algebra) or sums (row/column sums mod c, pure SAT)
    #[arg(long, default_value = "kernel")]
    pub encoding: GoalEncoding,
    /// cardinality encoding of the minimality constraints: totalizer, seq-counter, card-network
    #[arg(long, default_value = "totalizer")]
    pub card: CardEncoding,
    /// redundant constraints of --hardest: none, disjoint-cuts (an upper bound on the clicks from disjoint minimality constraints)
    #[arg(long, default_value = "disjoint-cuts")]
    pub redundant: Redundant,
    /// enumerate every optimal click matrix (with symmetry classes and goal states)
    #[arg(long)]
    pub all: bool,
    /// stop enumerating after this many (with --all; at least 1)
    #[arg(long, requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
}

impl Args {
    /// The instance these options describe.
    pub fn puzzle(&self) -> anyhow::Result<AlienTiles> {
        if self.goal.is_some() && self.symmetry != Symmetry::None {
            bail!("--symmetry applies to --hardest (a goal board breaks the symmetry)");
        }
        let task = match (&self.goal, self.hardest) {
            (Some(goal), false) => {
                let goal = Grid::read(goal, self.n, self.c)?;
                let start = match &self.start {
                    Some(s) => Grid::read(s, self.n, self.c)?,
                    None => Grid::zeros(self.n),
                };
                Task::Play { start, goal }
            }
            (None, true) => Task::Hardest,
            _ => bail!("give --goal FILE (play) or --hardest"),
        };
        let mut p = AlienTiles::new(self.n, self.c, task)?;
        p.minimality = self.minimality;
        p.symmetry = self.symmetry;
        p.card = self.card;
        p.goal_encoding = self.encoding;
        p.redundant = self.redundant;
        Ok(p)
    }
}

/// What `--all` found beyond the count: symmetry classes and goal states.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Census {
    /// optimal click matrices enumerated (with symmetry breaking, fewer
    /// than all)
    pub enumerated: usize,
    /// their classes under the 2·(n!)² symmetries, each as its canonical
    /// representative
    pub classes: Vec<Grid>,
    /// classes of the goal states reached (canonical goals)
    pub goal_classes: usize,
    /// all optimal click matrices: the union of the classes' orbits (None
    /// when n > [`ORBIT_LIMIT_N`])
    pub matrices: Option<usize>,
    /// distinct goal states of all optimal click matrices (same condition)
    pub goals: Option<usize>,
}

/// Orbits are listed (for the totals over all matrices) up to this n.
pub const ORBIT_LIMIT_N: usize = 5;

/// Counts classes by canonicalising every solution under the group (its
/// lexicographically smallest image, [`symmetry::canonical`]: for each
/// column permutation and transpose, sort the rows), goal classes the same
/// way (the goal map commutes with the symmetries), and, for small n, the
/// totals over all matrices by listing each class's orbit, so the numbers do
/// not depend on the symmetry breaking used to enumerate.
pub fn census(solutions: &[TilesSolution], c: u32) -> Census {
    let mut classes: Vec<Grid> = solutions
        .iter()
        .map(|s| symmetry::canonical(&s.clicks))
        .collect();
    classes.sort();
    classes.dedup();
    let goal_classes: HashSet<Grid> = classes
        .iter()
        .map(|g| symmetry::canonical(&model::effect(g, c)))
        .collect();
    let n = solutions.first().map_or(0, |s| s.clicks.n);
    let (matrices, goals) = if n <= ORBIT_LIMIT_N {
        let all: Vec<Grid> = classes.iter().flat_map(symmetry::orbit).collect();
        let goals: HashSet<Grid> = all.iter().map(|g| model::effect(g, c)).collect();
        (Some(all.len()), Some(goals.len()))
    } else {
        (None, None)
    };
    Census {
        enumerated: solutions.len(),
        classes,
        goal_classes: goal_classes.len(),
        matrices,
        goals,
    }
}

/// For play: the linear algebra's verdict on reachability must agree with
/// the solver's.
fn cross_check_reachability(p: &AlienTiles, report: &Report<TilesSolution>) -> anyhow::Result<()> {
    if let Task::Play { start, goal } = &p.task {
        let delta = model::sub_mod(goal, start, p.c);
        let reachable = zmod::solve(&model::click_map(p.n, p.c), &delta.cells).is_some();
        let sat_says = match report.status {
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

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common) -> anyhow::Result<ExitCode> {
        let p = self.puzzle()?;
        let opts = common.run_options(self.all, self.limit);
        let report = run::run(&p, &opts, common.limits(), &mut common.progress())?;
        cross_check_reachability(&p, &report)?;
        let census = self.all.then(|| census(&report.solutions, p.c));
        let mut out = std::io::stdout().lock();
        if common.json {
            let mut v = serde_json::to_value(&report)?;
            v["kernel_size"] = serde_json::json!(p.kernel().size());
            v["lazy_cuts"] = serde_json::json!(p.lazy_cuts());
            v["cut_bound"] = serde_json::json!(p.cut_bound());
            if let Some(cs) = &census {
                v["solutions"] = serde_json::json!([]);
                v["census"] = serde_json::to_value(cs)?;
            }
            serde_json::to_writer(&mut out, &v)?;
            writeln!(out)?;
            return Ok(exit_code(report.status));
        }
        if let Some(cs) = &census {
            // one representative per class instead of every matrix
            let reps: Vec<TilesSolution> = cs
                .classes
                .iter()
                .map(|g| {
                    let goal = model::effect(g, p.c);
                    TilesSolution {
                        total: g.total(),
                        clicks: g.clone(),
                        goal,
                        minimality_checked: true,
                    }
                })
                .collect();
            let shown = Report {
                solutions: reps,
                ..report.clone()
            };
            run::print_text(&p, &shown, &mut out)?;
            let opt = |v: Option<usize>| v.map_or("?".to_string(), |v| v.to_string());
            writeln!(
                out,
                "{} optimal click matrices enumerated; {} classes under the {} symmetries (canonical form: lexicographically smallest image); {} optimal click matrices in all (orbits of the classes), reaching {} distinct goal states in {} goal classes",
                cs.enumerated,
                cs.classes.len(),
                group_order(p.n).map_or("2·(n!)²".into(), |o| o.to_string()),
                opt(cs.matrices),
                opt(cs.goals),
                cs.goal_classes
            )?;
        } else {
            run::print_text(&p, &report, &mut out)?;
        }
        if let (Task::Play { .. }, Status::Unsat) = (&p.task, report.status) {
            match p.goal_encoding {
                GoalEncoding::Kernel => writeln!(out, "unreachable: the goal is not in the image of the click map over Z_{} (linear algebra; the CNF is the empty clause)", p.c)?,
                GoalEncoding::Sums => writeln!(out, "unreachable: no click matrix reaches the goal (proven: UNSAT; linear algebra over Z_{} agrees)", p.c)?,
            }
        }
        let kernel = p.kernel().size().map_or("> 2^64".into(), |s| s.to_string());
        match p.task {
            Task::Play { .. } => writeln!(out, "c kernel of the click map: {kernel} elements (click matrices per reachable goal)")?,
            Task::Hardest => writeln!(
                out,
                "c kernel of the click map: {kernel} elements; {} minimality constraints added lazily; redundant bound from disjoint cuts: {}",
                p.lazy_cuts(),
                p.cut_bound().map_or("none".into(), |b| b.to_string())
            )?,
        }
        Ok(exit_code(report.status))
    }

    fn dimacs(
        &self,
        common: &Common,
        output: Option<&PathBuf>,
        map: Option<&PathBuf>,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        let p = self.puzzle()?;
        if matches!(p.task, Task::Hardest) && p.minimality == Minimality::Lazy {
            bail!("dimacs needs the whole formula: use --minimality eager");
        }
        dimacs_generic(&p, common, output, map, bound).context("alien-tiles dimacs")
    }

    fn decode(&self, common: &Common, model: &std::path::Path) -> anyhow::Result<ExitCode> {
        decode_generic(&self.puzzle()?, common, model)
    }
}

/// `2·(n!)²`, if it fits.
pub fn group_order(n: usize) -> Option<u64> {
    let f = (1..=n as u64).try_fold(1u64, |a, k| a.checked_mul(k))?;
    f.checked_mul(f)?.checked_mul(2)
}
