//! `puzzlesat solve alien-tiles`: play a goal (`--goal`), or find the
//! hardest goal (`--hardest`), optionally enumerating every optimal click
//! matrix (`--all`) with its symmetry classes and goal states (the census
//! is part of the report: [`crate::puzzles::alien_tiles::census`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use puzzlesat_encodings::card::CardEncoding;

use crate::puzzles::alien_tiles::encode::GoalEncoding;
use crate::puzzles::alien_tiles::model::Grid;
use crate::puzzles::alien_tiles::symmetry::Symmetry;
use crate::puzzles::alien_tiles::{AlienTiles, Minimality, Redundant, Task};
use crate::front::{
    choices, decode_generic, dimacs_generic, opb_generic, Common, Cubes, DimacsTarget, PuzzleCommand,
};

/// Alien Tiles: fewest clicks to a goal, or the hardest goal (Gent, Linton & Smith 2000, CSPLib 027)
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
    /// minimality constraints of --hardest: eager, lazy [default: lazy for solve; eager for dimacs and decode, which need the whole formula]
    #[arg(long, value_parser = choices::<Minimality>())]
    pub minimality: Option<Minimality>,
    /// symmetry breaking for --hardest [default: double-lex-transpose; none with --goal]
    #[arg(long, value_parser = choices::<Symmetry>())]
    pub symmetry: Option<Symmetry>,
    /// play: kernel (x = x0 + kernel combination, by linear algebra) or sums (row/column sums mod c, pure SAT)
    #[arg(long, default_value = "kernel", value_parser = choices::<GoalEncoding>())]
    pub encoding: GoalEncoding,
    /// cardinality encoding of the minimality constraints: totalizer, seq-counter, card-network
    #[arg(long, default_value = "totalizer", value_parser = choices::<CardEncoding>())]
    pub card: CardEncoding,
    /// redundant bound on the clicks of --hardest: none, disjoint-cuts (from disjoint minimality constraints), average (the average of all minimality constraints), both (the smaller)
    #[arg(long, default_value = "both", value_parser = choices::<Redundant>())]
    pub redundant: Redundant,
}

impl Args {
    /// The instance these options describe, for `solve` (the defaults are
    /// the best measured configuration: docs/alien-tiles.md).
    pub fn puzzle(&self) -> anyhow::Result<AlienTiles> {
        self.instance(Minimality::Lazy)
    }

    /// The instance for `dimacs`/`decode`: eager minimality unless given.
    fn whole_formula(&self) -> anyhow::Result<AlienTiles> {
        self.instance(Minimality::Eager)
    }

    fn instance(&self, minimality: Minimality) -> anyhow::Result<AlienTiles> {
        if self.goal.is_some() && self.symmetry.is_some_and(|s| s != Symmetry::None) {
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
        p.minimality = self.minimality.unwrap_or(minimality);
        p.symmetry = match (&p.task, self.symmetry) {
            (_, Some(s)) => s,
            (Task::Play { .. }, None) => Symmetry::None,
            (Task::Hardest, None) => Symmetry::DoubleLexTranspose,
        };
        p.card = self.card;
        p.goal_encoding = self.encoding;
        p.redundant = self.redundant;
        Ok(p)
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        common.solve(&self.puzzle()?, cubes)
    }

    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode> {
        let p = self.whole_formula()?;
        if matches!(p.task, Task::Hardest) && p.minimality == Minimality::Lazy {
            bail!("dimacs needs the whole formula: use --minimality eager");
        }
        dimacs_generic(&p, common, target).context("alien-tiles dimacs")
    }

    fn decode(
        &self,
        common: &Common,
        model: &Path,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        decode_generic(&self.whole_formula()?, common, model, bound)
    }

    fn opb(&self, common: &Common, output: Option<&Path>) -> anyhow::Result<ExitCode> {
        opb_generic(&self.puzzle()?, common, output)
    }
}
