//! `puzzlesat solve alien-tiles`: play a goal (`--goal`), or find the
//! hardest goal (`--hardest`), optionally enumerating every optimal click
//! matrix (`--all`) with its symmetry classes and goal states (the census
//! is part of the report: [`crate::puzzles::alien_tiles::census`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context};
use puzzlesat_encodings::card::CardEncoding;
use puzzlesat_encodings::pb::PbEncoding;

use crate::certify::{certify_claim, Certified, Claim, Fnv, Producer};
use crate::drive::cubes::native::{self, CubeSearch};
use crate::drive::cubes::CubeOptions;
use puzzlesat_encodings::PbModel;
use crate::front::{
    choices, decode_generic, dimacs_generic, exit_code, pb_model_generic, Common, Cubes, DimacsTarget,
    PuzzleCommand,
};
use crate::puzzle::Puzzle;
use crate::puzzles::alien_tiles::census::group_order;
use crate::puzzles::alien_tiles::check::{self, MinimalityCheck};
use crate::puzzles::alien_tiles::encode::GoalEncoding;
use crate::puzzles::alien_tiles::goals::{GoalRecord, GoalSearch};
use crate::puzzles::alien_tiles::model::{self, Grid};
use crate::puzzles::alien_tiles::play::{fewest_clicks, Played};
use crate::puzzles::alien_tiles::rowcol::RowCol;
use crate::puzzles::alien_tiles::symmetry::Symmetry;
use crate::puzzles::alien_tiles::{
    AlienTiles, Method, Minimality, Redundant, Task, TilesDetails, TilesSolution,
};
use crate::report::{plural, Report, Status, StoppedBy, NO_SAT};
use crate::solver::Limits;

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
    /// play with --method sat: kernel (x = x0 + kernel combination, by linear algebra) or sums (row/column sums mod c, pure SAT) [default: kernel; giving it selects --method sat]
    #[arg(long, value_parser = choices::<GoalEncoding>())]
    pub encoding: Option<GoalEncoding>,
    /// cardinality encoding of the minimality constraints: totalizer, seq-counter, card-network
    #[arg(long, default_value = "totalizer", value_parser = choices::<CardEncoding>())]
    pub card: CardEncoding,
    /// goal search (--method goals): look only for goals needing more than B clicks (B: a known lower bound, e.g. a certified witness's value); ending without one proves that no goal needs more than B
    #[arg(long, value_name = "B", requires = "hardest")]
    pub above: Option<u32>,
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
        if self.above.is_some() && method != Method::Goals {
            bail!("--above B applies to the goal search: give --method goals");
        }
        if method == Method::RowCol && self.encoding.is_some() {
            bail!("--encoding chooses the CNF of --method sat; --method rowcol uses no CNF");
        }
        Ok(method)
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        let p = self.puzzle()?;
        match p.method {
            Method::Sat => common.solve(&p, cubes),
            Method::RowCol => {
                if common.all || common.count || cubes.cubes.is_some() {
                    bail!("--all, --count and --cubes run the SAT search: give --method sat (--method rowcol finds one optimal click matrix, exactly)");
                }
                let r = play_report(
                    &p,
                    common.producer().as_ref(),
                    common.objective_encoding,
                    &common.limits(),
                )?;
                common.print(r, |s| p.render(s), |s| p.picture(s))
            }
            Method::Goals => {
                if common.all || common.count || common.certify {
                    bail!("--method goals searches the goals without SAT: --all, --count and --certify apply to --method sat (certify the hardest goal's value with --goal FILE --certify)");
                }
                let opts = cubes.options()?;
                match goals_run(
                    &p,
                    self.above,
                    opts.as_ref(),
                    &common.limits(),
                    &mut common.progress(),
                )? {
                    GoalsOutcome::Whole(r) => common.print(*r, |s| p.render(s), |s| p.picture(s)),
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
        pb_model_generic(&self.puzzle()?, common)
    }
}

/// Kernels up to this size are listed by the checker of `--method rowcol`
/// (6×6/5's 5¹⁰ would take seconds; past it, the row/column minimum,
/// tested equal to the listing on every small board).
pub const PLAY_ENUMERATE_LIMIT: u64 = 1 << 16;

/// The report of `--method rowcol` for the play instance `p` (solver
/// `none`; the claim rests on the row/column minimisation of
/// [`crate::puzzles::alien_tiles::play`], or with `producer` also on a
/// checked SAT refutation of fewer clicks).
pub fn play_report(
    p: &AlienTiles,
    producer: Option<&Producer>,
    pb: PbEncoding,
    limits: &Limits,
) -> anyhow::Result<Report<TilesSolution, TilesDetails>> {
    let Task::Play { start, goal } = &p.task else {
        bail!("internal error: the row/column method plays a goal");
    };
    let started = Instant::now();
    let mut r = Report::new(p.describe(), NO_SAT.into(), p.counted_as());
    let rowcol = RowCol::new(p.n, p.c);
    let played = fewest_clicks(start, goal, p.c, &rowcol);
    r.seconds.solve = started.elapsed().as_secs_f64();
    let mut notes = vec![];
    let rows = rowcol
        .row_vectors()
        .map_or("more than 2^64".into(), |k| k.to_string());
    match &played {
        Played::Unreachable => {
            r.status = Status::Unsat;
            notes.push(format!(
                "unreachable: the goal is not in the image of the click map over Z_{} (linear algebra: no solution of the diagonal form)",
                p.c
            ));
        }
        Played::Best { clicks, total } => {
            let t = Instant::now();
            let sol = TilesSolution {
                clicks: clicks.clone(),
                total: *total,
                goal: goal.clone(),
                minimality_checked: true,
            };
            // the checker: replay, then minimality by listing the coset up to
            // PLAY_ENUMERATE_LIMIT kernel elements (else the row/column minimum)
            let how = check::check_clicks(start, goal, clicks, p.c, p.kernel(), PLAY_ENUMERATE_LIMIT)
                .map_err(|e| {
                    anyhow::anyhow!("internal error: the minimisation's answer fails the checker: {e}")
                })?;
            r.seconds.decode_check = t.elapsed().as_secs_f64();
            r.status = Status::Optimal;
            r.objective = Some(i64::from(*total));
            r.bound = r.objective;
            r.solutions.push(sol);
            notes.push(format!(
                "proven by the row/column minimisation: every one of the {rows} admissible row vectors R visited, the columns chosen by an exact dynamic programme, so every click matrix reaching the goal (the coset of a linear-algebra solution by the kernel) was counted; the checker replayed the clicks and {}",
                match how {
                    MinimalityCheck::Enumerated => "listed the whole coset",
                    MinimalityCheck::RowColumn => "took the coset minimum again (the kernel is too large to list quickly)",
                }
            ));
        }
    }
    if let Some(producer) = producer {
        let t = Instant::now();
        r.certificates = Some(certify_play(p, &played, producer, pb, limits)?.into_iter().collect());
        r.seconds.certify = t.elapsed().as_secs_f64();
    }
    r.details = TilesDetails {
        kernel_size: p.kernel().size(),
        group_order: group_order(p.n),
        notes,
        ..TilesDetails::default()
    };
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(r)
}

/// `--certify` with `--method rowcol`: the SAT refutation of fewer clicks
/// than the optimum (or of any click matrix, for an unreachable goal) on
/// the play CNF of `--encoding`, seeded with the known optimum: one UNSAT
/// call, its proof checked. None when the optimum is 0 (nothing fewer).
fn certify_play(
    p: &AlienTiles,
    played: &Played,
    producer: &Producer,
    pb: PbEncoding,
    limits: &Limits,
) -> anyhow::Result<Option<Certified>> {
    let (claim, bound) = match played {
        Played::Unreachable => (Claim::Infeasible, None),
        Played::Best { total: 0, .. } => return Ok(None),
        Played::Best { total, .. } => (Claim::Optimal, Some(i64::from(*total) - 1)),
    };
    let (cnf, _) = crate::run::encode_with_bound(p, bound, pb)?;
    let certified = certify_claim(claim, &cnf, producer, limits)
        .context("the row/column optimum could not be certified by SAT")?;
    Ok(Some(certified))
}

impl CubeSearch for GoalSearch {
    type Record = GoalRecord;
    fn describe(&self) -> String {
        GoalSearch::describe(self).to_string()
    }
    fn search(
        &self,
        index: u32,
        cubes: u32,
        limits: &Limits,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<(GoalRecord, bool)> {
        Ok(self.search_cube(index, cubes, &|| limits.expired(), &mut |line| {
            let _ = progress.send(line);
        }))
    }
    fn value(&self, r: &GoalRecord) -> Option<i64> {
        r.hardest.map(i64::from)
    }
    fn check(&self, r: &GoalRecord) -> anyhow::Result<()> {
        self.check_record(r)
    }
}

/// What `--hardest --method goals` prints: the whole problem's report, or
/// with `--cube I` that cube's line as written to a cube file.
pub enum GoalsOutcome {
    /// every cube (or what the cubes found before the limit)
    Whole(Box<Report<TilesSolution, TilesDetails>>),
    /// `--cube I`: that cube's line (None: stopped before its end)
    Cube(Option<Box<Report<serde_json::Value, GoalRecord>>>),
}

/// Runs the goal search ([`crate::puzzles::alien_tiles::goals`]) for the
/// hardest-goal instance `p`, split by `cubes` (none: one cube), looking
/// only above `above` when given.
pub fn goals_run(
    p: &AlienTiles,
    above: Option<u32>,
    cubes: Option<&CubeOptions>,
    limits: &Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<GoalsOutcome> {
    let started = Instant::now();
    let mut search = GoalSearch::new(p.n, p.c, p.describe())?;
    if let Some(b) = above {
        search = search.above(b);
    }
    let opts = cubes.cloned().unwrap_or(CubeOptions {
        count: 1,
        file: None,
        only: None,
        jobs: 1,
        trust: false,
    });
    let out = native::run(&search, &opts, limits, progress)?;
    if opts.only.is_some() {
        return Ok(GoalsOutcome::Cube(out.line.map(Box::new)));
    }
    let mut r: Report<TilesSolution, TilesDetails> =
        Report::new(search.describe().to_string(), NO_SAT.into(), p.counted_as());
    r.seconds.solve = started.elapsed().as_secs_f64();
    let finished = out.records.iter().flatten().count();
    let all = finished == out.records.len();
    let (mut visited, mut cut, mut unreachable) = (0u64, 0u64, 0u64);
    let mut digest = Fnv::default();
    let mut best: Option<(u32, &Vec<Vec<u32>>)> = None;
    // finished cubes, then what the stopped ones found before the limit
    let partial = out.partial.iter().map(|(_, r)| r);
    for rec in out.records.iter().flatten().map(|(r, _)| r).chain(partial) {
        visited += rec.visited;
        cut += rec.cut;
        unreachable += rec.unreachable;
        digest = digest.text(&rec.digest);
        if let (Some(v), Some(g)) = (rec.hardest, &rec.goal) {
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, g));
            }
        }
    }
    if let Some((v, rows)) = best {
        let t = Instant::now();
        let goal = Grid {
            n: p.n,
            cells: rows.concat(),
        };
        let Played::Best { clicks, total } =
            fewest_clicks(&Grid::zeros(p.n), &goal, p.c, &RowCol::new(p.n, p.c))
        else {
            bail!("internal error: the hardest goal found is unreachable");
        };
        anyhow::ensure!(
            total == v,
            "internal error: the goal search values its hardest goal at {v} clicks, the coset minimum at {total}"
        );
        let sol = TilesSolution {
            total,
            goal: model::add_mod(&Grid::zeros(p.n), &model::effect(&clicks, p.c), p.c),
            clicks,
            minimality_checked: true,
        };
        p.check(&sol).map_err(|e| {
            anyhow::anyhow!("internal error: the hardest goal's click matrix fails the checker: {e}")
        })?;
        r.solutions.push(sol);
        r.objective = Some(i64::from(v));
        r.seconds.decode_check = t.elapsed().as_secs_f64();
    }
    r.status = match (best.is_some(), all, above) {
        (true, true, _) => Status::Optimal,
        (true, false, _) => Status::Sat,
        // no goal above B: "hardest > B" has no solution
        (false, true, Some(_)) => Status::Unsat,
        (false, _, _) => Status::Unknown,
    };
    if all {
        r.bound = r.objective.or(above.map(i64::from));
    } else {
        r.stopped_by = Some(if limits.interrupt.load(Ordering::Relaxed) {
            StoppedBy::Interrupt
        } else {
            StoppedBy::Timeout
        });
    }
    let mut notes = vec![format!(
        "goal search: {} visited (at least one per class of the 2·(n!)² symmetries: rows and columns lexicographically non-decreasing, no larger than the transpose; each played exactly, or shown no harder than the best by one (R, C)), {} cut by the bound, {} filled in and unreachable; digest {} ({} of {} finished)",
        plural(visited, "goal", "goals"),
        plural(cut, "branch", "branches"),
        unreachable,
        digest.hex(),
        finished,
        plural(out.records.len() as u64, "cube", "cubes"),
    )];
    if let Some(b) = above {
        notes.push(match (best.is_some(), all) {
            (false, true) => format!("no goal needs more than {b} clicks: the hardest goal needs at most {b}, proven by the exhaustive goal search above {b} (every branch that cannot beat {b} cut from the start)"),
            (true, _) => format!("searched above {b} only (--above): a goal found above {b} is searched on as without it"),
            (false, false) => format!("searched above {b} only (--above): none found before the limit, nothing proven"),
        });
    }
    if all && best.is_some() {
        notes.push("proven by the exhaustive goal search: every goal class visited or cut by a bound that cannot beat the best, each goal's fewest clicks exact (the row/column minimum); the hardest goal's click matrix passed the independent checker".into());
    }
    r.details = TilesDetails {
        kernel_size: p.kernel().size(),
        group_order: group_order(p.n),
        notes,
        ..TilesDetails::default()
    };
    if cubes.is_some() {
        r.cubes = Some(out.tally);
    }
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(GoalsOutcome::Whole(Box::new(r)))
}
