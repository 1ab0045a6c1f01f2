//! Alien Tiles' methods beside the SAT optimiser, as library calls
//! returning a [`Report`]: play a goal by the exact row/column
//! minimisation (`--method rowcol`, optionally certified by one SAT
//! refutation), and the exhaustive goal search for the hardest goal
//! (`--method goals`), cube by cube through the native cube engine (Gent,
//! Linton & Smith, "Symmetry breaking in the Alien Tiles puzzle", 2000).

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context};

use crate::certify::{certify_claim, Certified, Claim, Fnv, Producer, ProofFormat};
use crate::drive::cubes::native::{self, CubeSearch};
use crate::drive::cubes::CubeOptions;
use crate::options::RunOptions;
use crate::puzzle::Puzzle;
use crate::puzzles::alien_tiles::census::group_order;
use crate::puzzles::alien_tiles::check::{self, MinimalityCheck};
use crate::puzzles::alien_tiles::encode::GoalEncoding;
use crate::puzzles::alien_tiles::goals::{GoalRecord, GoalSearch};
use crate::puzzles::alien_tiles::model::{self, Grid};
use crate::puzzles::alien_tiles::play::{fewest_clicks, Played};
use crate::puzzles::alien_tiles::rowcol::RowCol;
use crate::puzzles::alien_tiles::{AlienTiles, Method, Task, TilesDetails, TilesSolution};
use crate::report::{plural, Report, Status, StoppedBy, NO_SAT};
use crate::solver::Limits;

/// Kernels up to this size are listed by the checker of `--method rowcol`
/// (6×6/5's 5¹⁰ would take seconds; past it, the row/column minimum,
/// tested equal to the listing on every small board).
pub const PLAY_ENUMERATE_LIMIT: u64 = 1 << 16;

/// The method `--hardest` runs on n×n with c colours when none is given:
/// the goal search where it has its bound (c divides n − 1) and its
/// tables fit, else the SAT optimiser; with the reason. Measured in
/// docs/alien-tiles.md (*The default method of --hardest*).
pub fn hardest_default(n: usize, c: u32) -> (Method, String) {
    if n < 2 || (n as u32 - 1) % c != 0 {
        return (Method::Sat, format!("the SAT optimiser: c = {c} does not divide n − 1 = {}, where the goal search has no bound", n.saturating_sub(1)));
    }
    match GoalSearch::check_size(n, c) {
        Ok(()) => (Method::Goals, format!("the goal search: c = {c} divides n − 1 = {}, where it has its bound; measured faster than the SAT optimiser on every such cell (5×5/4 proven in about 1 s, unproven by SAT in 300 s)", n - 1)),
        Err(e) => (Method::Sat, format!("the SAT optimiser: {e}")),
    }
}

/// The report of `--method rowcol` for the play instance `p` (solver
/// `none`; the claim rests on the row/column minimisation of
/// [`crate::puzzles::alien_tiles::play`], or with `producer` also on a
/// checked SAT refutation of fewer clicks).
pub fn play_report(
    p: &AlienTiles,
    opts: &RunOptions,
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
            let how =
                check::check_clicks(start, goal, clicks, p.c, p.kernel(), PLAY_ENUMERATE_LIMIT)
                    .map_err(|e| {
                        anyhow::anyhow!(
                            "internal error: the minimisation's answer fails the checker: {e}"
                        )
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
    if let Some(producer) = &opts.certify {
        let t = Instant::now();
        let (certified, stopped) = certify_play(p, &played, producer, opts, limits)?;
        r.certificates = Some(certified.into_iter().collect());
        r.certificate_stopped = stopped;
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
/// An unreachable goal with VeriPB proofs and the kernel encoding (whose
/// CNF is then the empty clause) is certified from the play model by the
/// SAT run, as `--method sat` does (`play_proof`); with the time limit's
/// stop, if it struck first.
fn certify_play(
    p: &AlienTiles,
    played: &Played,
    producer: &Producer,
    opts: &RunOptions,
    limits: &Limits,
) -> anyhow::Result<(Option<Certified>, Option<StoppedBy>)> {
    let (claim, bound) = match played {
        Played::Unreachable => (Claim::Infeasible, None),
        Played::Best { total: 0, .. } => return Ok((None, None)),
        Played::Best { total, .. } => (Claim::Optimal, Some(i64::from(*total) - 1)),
    };
    if claim == Claim::Infeasible
        && opts.proof_format == ProofFormat::Veripb
        && p.goal_encoding == GoalEncoding::Kernel
    {
        let sat = RunOptions {
            all: false,
            count_only: false,
            cubes: None,
            ..opts.clone()
        };
        let r = crate::run::run(p, &sat, limits.clone(), &mut std::io::sink())?;
        if r.status != Status::Unsat && r.status != Status::Unknown {
            bail!(
                "internal error: the SAT run of an unreachable goal ends {:?}",
                r.status
            );
        }
        return Ok((
            r.certificates.and_then(|c| c.into_iter().next()),
            r.certificate_stopped,
        ));
    }
    let (cnf, _) = crate::run::encode_with_bound(p, bound, opts.objective_encoding)?;
    let certified = certify_claim(claim, &cnf, producer, limits)
        .context("the row/column optimum could not be certified by SAT")?;
    Ok((Some(certified), None))
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
        Ok(
            self.search_cube(index, cubes, &|| limits.expired(), &mut |line| {
                let _ = progress.send(line);
            }),
        )
    }
    fn value(&self, r: &GoalRecord) -> Option<i64> {
        r.hardest.map(i64::from)
    }
    fn check(&self, r: &GoalRecord) -> anyhow::Result<()> {
        self.check_record(r)
    }
    fn floor(&self) -> Option<i64> {
        GoalSearch::floor(self).map(i64::from)
    }
    fn counted_as(&self) -> &'static str {
        "goals"
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
    // the bound of a search the limit stops (computed first: the limit
    // holds the whole run)
    let root = search.upper_bound();
    let out = native::search_cubes(&search, &opts, limits, progress)?;
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
            if best.is_none_or(|(b, _)| v > b) {
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
            anyhow::anyhow!(
                "internal error: the hardest goal's click matrix fails the checker: {e}"
            )
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
    // stopped: the goal side's bound before any search
    let root = if all { None } else { root };
    if all {
        r.bound = r.objective.or(above.map(i64::from));
    } else {
        r.bound = root.map(i64::from);
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
    if let Some(b) = root {
        notes.push(format!("upper bound {b}: the goal side's bound before any search (every row's worst cost under one column vector, over the admissible row sums T and their row-value cosets; GoalSearch::upper_bound)"));
    }
    if all && best.is_some() {
        notes.push("proven by the exhaustive goal search: every goal class visited or cut by a bound that cannot beat the best, each goal's fewest clicks exact (the row/column minimum); the hardest goal's click matrix passed the independent checker".into());
    }
    r.details = TilesDetails {
        kernel_size: p.kernel().size(),
        group_order: group_order(p.n),
        method_chosen: p.method_chosen.clone(),
        notes,
        ..TilesDetails::default()
    };
    if cubes.is_some() {
        r.cubes = Some(out.tally);
    }
    r.seconds.close(started.elapsed().as_secs_f64());
    Ok(GoalsOutcome::Whole(Box::new(r)))
}
