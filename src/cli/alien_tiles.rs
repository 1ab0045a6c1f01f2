//! `puzzlesat solve alien-tiles`: play a goal (`--goal`), or find the
//! hardest goal (`--hardest`), optionally enumerating every optimal click
//! matrix (`--all`) with its symmetry classes and goal states (the census
//! is part of the report: [`crate::puzzles::alien_tiles::census`]); the
//! methods beside SAT are [`crate::methods::alien_tiles`]'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use puzzlesat_encodings::card::CardEncoding;

use puzzlesat_encodings::PbModel;
use crate::front::{
    choices, decode_generic, dimacs_generic, exit_code, pb_model_generic, Common, Cubes, DimacsTarget,
    PuzzleCommand,
};
use crate::methods::alien_tiles::{goals_run, hardest_default, play_report, GoalsOutcome};
use crate::methods::goal_certify::certify_goals;
use crate::puzzle::Puzzle;
use crate::puzzles::alien_tiles::encode::GoalEncoding;
use crate::puzzles::alien_tiles::goal_model::GoalModel;
use crate::puzzles::alien_tiles::model::Grid;
use crate::puzzles::alien_tiles::symmetry::Symmetry;
use crate::puzzles::alien_tiles::{AlienTiles, Method, Minimality, Redundant, Task};
use crate::report::Status;

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
    /// rowcol (play: the exact row/column minimisation, no SAT), sat (the SAT optimiser) or goals (hardest: the exhaustive search over the goals, no SAT) [default: rowcol with --goal unless --encoding is given; sat with --hardest]
    #[arg(long, value_parser = choices::<Method>())]
    pub method: Option<Method>,
    /// play with --method sat: kernel (x = x0 + kernel combination, by linear algebra), sums (row/column sums mod c, pure SAT) or linear (the play model's equations with quotients, by generalized totalizers: --certify proves the optimum from the model) [default: kernel; giving it selects --method sat]
    #[arg(long, value_parser = choices::<GoalEncoding>())]
    pub encoding: Option<GoalEncoding>,
    /// cardinality encoding of the minimality constraints: totalizer, seq-counter, card-network
    #[arg(long, default_value = "totalizer", value_parser = choices::<CardEncoding>())]
    pub card: CardEncoding,
    /// goal search (--method goals): look only for goals needing more than B clicks (B: a known lower bound, e.g. a certified witness's value); ending without one proves that no goal needs more than B
    #[arg(long, value_name = "B", requires = "hardest")]
    pub above: Option<u32>,
    /// the PB model `opb --hardest` writes: clicks (the click matrices, each a fewest-clicks way to its goal by the kernel) or goals (the goal side, c | n − 1: maximise the clicks every click matrix reaching the goal needs, or with --above B "some goal needs more than B clicks"; the models of --method goals --certify) [default: clicks]
    #[arg(long = "pb-model", value_name = "MODEL", value_parser = ["clicks", "goals"], requires = "hardest")]
    pub pb_model: Option<String>,
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
        if self.method.is_some_and(|m| m != Method::Sat) {
            bail!("dimacs and decode work on the CNF of --method sat");
        }
        let mut p = self.instance(Minimality::Eager)?;
        p.method = Method::Sat;
        Ok(p)
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
        p.goal_encoding = self.encoding.unwrap_or(GoalEncoding::Kernel);
        p.method = self.method()?;
        p.redundant = self.redundant;
        Ok(p)
    }
}

impl Args {
    /// `--method`, defaulted and checked against the task.
    fn method(&self) -> anyhow::Result<Method> {
        let method = match (self.method, self.goal.is_some()) {
            (Some(m), _) => m,
            (None, true) if self.encoding.is_none() => Method::RowCol,
            (None, _) => Method::Sat,
        };
        if method == Method::RowCol && self.goal.is_none() {
            bail!("--method rowcol plays a goal: give --goal FILE (--hardest searches with --method sat)");
        }
        if method == Method::Goals && !self.hardest {
            bail!("--method goals searches for the hardest goal: give --hardest");
        }
        if self.above.is_some() && method != Method::Goals && self.method.is_some() {
            bail!("--above B applies to the goal search: give --method goals");
        }
        if method == Method::RowCol && self.encoding.is_some() {
            bail!("--encoding chooses the CNF of --method sat; --method rowcol uses no CNF");
        }
        Ok(method)
    }
}

impl Args {
    /// `--hardest` without `--method`: the SAT optimiser for the options
    /// only it has, else [`hardest_default`] of n and c (with `--certify`
    /// the goal search only where its goal-space model fits the budget).
    fn hardest_default(&self, common: &Common) -> (Method, String) {
        if common.all || common.count {
            return (Method::Sat, "--all and --count need the SAT optimiser".into());
        }
        if self.symmetry.is_some() || self.minimality.is_some() {
            return (Method::Sat, "--symmetry and --minimality are options of the SAT optimiser".into());
        }
        let (method, why) = hardest_default(self.n, self.c);
        if common.certify && method == Method::Goals {
            if let Err(e) = goal_model_budget(self.n, self.c, common) {
                return (Method::Sat, format!("the SAT optimiser: the goal search's certificate needs its goal-space model, and {e:#}"));
            }
            return (method, format!("{why}; certified from its goal-space model (5×5/4 in about 26 s)"));
        }
        (method, why)
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        let mut p = self.puzzle()?;
        if self.hardest && self.method.is_none() {
            let (method, why) = self.hardest_default(common);
            if self.above.is_some() && method != Method::Goals {
                bail!("--above B applies to the goal search, which {why}: --above needs it (give --method goals to search without its bound)");
            }
            let note = format!("method: {method} ({why}; --method forces one)");
            if !common.quiet {
                eprintln!("c {note}");
            }
            p.method = method;
            p.method_chosen = Some(note);
        }
        match p.method {
            Method::Sat => common.solve(&p, cubes),
            Method::RowCol => {
                if common.all || common.count || cubes.cubes.is_some() {
                    bail!("--all, --count and --cubes run the SAT search: give --method sat (--method rowcol finds one optimal click matrix, exactly)");
                }
                let r = play_report(&p, &common.run_options(cubes)?, &common.limits())?;
                common.print(r, |s| p.render(s), |s| p.picture(s))
            }
            Method::Goals => {
                if common.all || common.count {
                    bail!("--method goals searches the goals without SAT: --all and --count apply to --method sat");
                }
                if common.certify {
                    if p.n < 2 || (p.n as u32 - 1) % p.c != 0 {
                        bail!("--method goals --certify refutes the goal-space model, which needs c | n − 1 (n = {}, c = {})", p.n, p.c);
                    }
                    goal_model_budget(p.n, p.c, common)?;
                }
                let opts = cubes.options()?;
                match goals_run(
                    &p,
                    self.above,
                    opts.as_ref(),
                    &common.limits(),
                    &mut common.progress(),
                )? {
                    GoalsOutcome::Whole(mut r) => {
                        if common.certify {
                            certify_goals(&p, &mut r, self.above, common.proof_dir.as_deref(), &common.limits())?;
                        }
                        common.print(*r, |s| p.render(s), |s| p.picture(s))
                    }
                    GoalsOutcome::Cube(Some(line)) => {
                        common.print(*line, |_| String::new(), |_| None)
                    }
                    GoalsOutcome::Cube(None) => {
                        eprintln!("c the cube was stopped before its end (time limit or interrupt): no record");
                        Ok(exit_code(Status::Unknown))
                    }
                }
            }
        }
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

    fn pb_model(&self, common: &Common) -> anyhow::Result<PbModel> {
        if self.pb_model.as_deref() != Some("goals") {
            return pb_model_generic(&self.puzzle()?, common);
        }
        goal_model_budget(self.n, self.c, common)?;
        // without --above: the maximising model; with it, "more than B"
        GoalModel::new(self.n, self.c, self.above)
            .map(|gm| gm.model)
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let goal = self.goal.as_deref().map(|p| ("--goal", p));
        goal.into_iter()
            .chain(self.start.as_deref().map(|p| ("--start", p)))
            .collect()
    }
}


/// Refuses, before any search, a goal-space model over `--max-clauses`
/// terms.
fn goal_model_budget(n: usize, c: u32, common: &Common) -> anyhow::Result<()> {
    let terms = GoalModel::estimated_terms(n, c);
    if terms > common.max_clauses {
        bail!(
            "the goal-space model of {n}×{n} with {c} colours has about {terms} terms, over the budget of {} (--max-clauses raises it)",
            common.max_clauses
        );
    }
    Ok(())
}
