//! Runs the structured count of magic squares
//! ([`crate::puzzles::magic::line_sets`]) cube by cube: `--jobs` threads
//! take the cubes in turn, `--cube-file FILE` gets one line per finished
//! cube (appended in one write, with a digest of what it says), a rerun
//! with the same file counts only the cubes it does not close, and the
//! time limit, Ctrl-C and SIGTERM end the run with what the finished cubes
//! counted.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::solve::Limits;
use serde::{Deserialize, Serialize};

use crate::certify::Fnv;
use crate::drive::cubes::{CubeFile, BUILD};
use crate::puzzles::magic::line_sets::{total, Counted, LineSets};
use crate::puzzles::magic::Square;
use crate::report::{CubeTally, Details, Report, Status, StoppedBy, NO_SAT};

/// What the structured count adds to its report.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LineSetDetails {
    /// the order
    pub n: usize,
    /// cubes the blocks were shared out to
    pub cubes: usize,
    /// cubes counted in this run
    pub cubes_this_run: usize,
    /// cubes taken from the cube file
    pub cubes_from_file: usize,
    /// partitions of the values into row sets
    pub row_partitions: u64,
    /// pairs of row and column partitions
    pub pairs: u64,
    /// the squares built and passed through the checker, one per class of
    /// row and column orders that commute with the reversal
    pub checked: u64,
    /// the squares each checked one stands for (those orders)
    pub per_checked: u64,
    /// the count up to rotation and reflection (count / 8, n ≥ 3)
    pub up_to_rotation_and_reflection: Option<u64>,
    /// odd n: the squares by their centre's value (index v − 1)
    pub by_centre: Vec<u64>,
}

impl Details for LineSetDetails {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "c structured count: {} row partitions, {} pairs of row and column partitions, {} squares built and checked (each stands for the {} that reorder its rows and columns alike, commuting with the reversal)",
            self.row_partitions,
            self.pairs,
            self.checked,
            self.per_checked
        )];
        if self.up_to_rotation_and_reflection.is_some() {
            lines.push(
                "c up to rotation and reflection: the count divided by 8 (the values are distinct, so no rotation or reflection fixes a square of order 3 or more)".into(),
            );
        }
        if !self.by_centre.is_empty() {
            let by: Vec<String> = self
                .by_centre
                .iter()
                .enumerate()
                .map(|(v, c)| format!("{}: {c}", v + 1))
                .collect();
            lines.push(format!("c by the centre's value: {}", by.join(", ")));
        }
        lines.push(format!(
            "c cubes: {} ({} counted in this run, {} from the cube file)",
            self.cubes, self.cubes_this_run, self.cubes_from_file
        ));
        lines
    }
}

/// One line of the cube file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CubeLine {
    build: String,
    puzzle: String,
    cubes: usize,
    cube: usize,
    row_partitions: u64,
    pairs: u64,
    arrangements: u64,
    squares: u64,
    by_centre: Vec<u64>,
    digest: String,
}

impl CubeLine {
    fn new(puzzle: &str, cubes: usize, cube: usize, c: &Counted) -> Self {
        let mut line = CubeLine {
            build: BUILD.into(),
            puzzle: puzzle.into(),
            cubes,
            cube,
            row_partitions: c.row_partitions,
            pairs: c.pairs,
            arrangements: c.arrangements,
            squares: c.squares,
            by_centre: c.by_centre.clone(),
            digest: String::new(),
        };
        line.digest = line.fingerprint();
        line
    }
    fn fingerprint(&self) -> String {
        let fnv = Fnv::default()
            .text(&self.build)
            .text(&self.puzzle)
            .text(&self.cubes.to_string())
            .text(&self.cube.to_string())
            .text(&self.row_partitions.to_string())
            .text(&self.pairs.to_string())
            .text(&self.arrangements.to_string())
            .text(&self.squares.to_string())
            .text(&format!("{:?}", self.by_centre));
        fnv.hex()
    }
    fn counted(&self) -> Counted {
        Counted {
            row_partitions: self.row_partitions,
            pairs: self.pairs,
            arrangements: self.arrangements,
            squares: self.squares,
            by_centre: self.by_centre.clone(),
        }
    }
}

/// What a cube file holds for this run: the cubes its records close, and
/// the builds that wrote those records.
#[derive(Default)]
struct Recorded {
    closed: BTreeMap<usize, Counted>,
    builds: std::collections::BTreeSet<String>,
    /// some record is of another build, taken under `--trust-cube-file`
    trusted: bool,
}

/// The cubes a cube file closes for this run; an error for a line that
/// belongs to another run or build (unless `trust`), was edited, or
/// contradicts another. A last line cut short by a kill is dropped (and
/// cut off before the next record is appended), as in the SAT cube files.
fn read_file(
    file: &CubeFile,
    puzzle: &str,
    cubes: usize,
    trust: bool,
) -> anyhow::Result<Recorded> {
    let path = file.path();
    let mut recorded = Recorded::default();
    let lines = file.records(
        "a record of the structured count",
        |raw| Ok(serde_json::from_str::<CubeLine>(raw)?),
        // every record begins so; a kill may cut it anywhere
        |l| {
            let head: &[u8] = b"{\"build\":";
            !l.is_empty() && (l.starts_with(head) || head.starts_with(l))
        },
    )?;
    for (k, line) in lines {
        let at = || format!("{} line {}", path.display(), k + 1);
        if line.digest != line.fingerprint() {
            bail!(
                "{}: its digest does not match what it says (edited since it was written)",
                at()
            );
        }
        if line.puzzle != puzzle || line.cubes != cubes {
            bail!(
                "{}: it is about {} in {} cubes, this run is {puzzle} in {cubes} cubes",
                at(),
                line.puzzle,
                line.cubes
            );
        }
        if line.build != BUILD && !trust {
            bail!(
                "{}: written by {}, this is {BUILD} (--trust-cube-file takes it)",
                at(),
                line.build
            );
        }
        if line.cube >= cubes {
            bail!("{}: cube {} of {cubes}", at(), line.cube);
        }
        let counted = line.counted();
        if let Some(before) = recorded.closed.insert(line.cube, counted.clone()) {
            if before != counted {
                bail!(
                    "{}: cube {} was counted differently before",
                    at(),
                    line.cube
                );
            }
        }
        recorded.trusted |= line.build != BUILD;
        recorded.builds.insert(line.build);
    }
    Ok(recorded)
}

/// The count of order `n`'s squares in `cubes` cubes on `jobs` threads
/// (`file`: the cube file to resume from and append to).
pub fn run(
    n: usize,
    cubes: usize,
    jobs: usize,
    file: Option<(&Path, bool)>,
    limits: &Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<Square, LineSetDetails>> {
    let start = Instant::now();
    let sets = LineSets::new(n)?;
    let cubes = cubes.clamp(1, sets.blocks().max(1));
    let puzzle = format!("magic n={n} method=reference");
    let cube_file = CubeFile::open(file.map(|(path, _)| path))?;
    let recorded = match file {
        Some((_, trust)) => read_file(&cube_file, &puzzle, cubes, trust)?,
        None => Recorded::default(),
    };
    let mut closed = recorded.closed.clone();
    let from_file = closed.len();
    let todo: Vec<usize> = (0..cubes).filter(|c| !closed.contains_key(c)).collect();
    let _ = writeln!(
        progress,
        "c structured count of order {n}: {} blocks in {cubes} cubes, {} to count on {jobs} thread(s), {from_file} from the cube file",
        sets.blocks(),
        todo.len()
    );
    let next = AtomicUsize::new(0);
    let stop = || limits.expired();
    let (tx, rx) = mpsc::channel::<(usize, anyhow::Result<Option<Counted>>)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (sets, todo, next, stop) = (&sets, &todo, &next, &stop);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&cube) = todo.get(k) else { break };
                let counted = sets.count_cube(cube, cubes, stop);
                let done = !matches!(counted, Ok(Some(_)));
                if tx.send((cube, counted)).is_err() || done {
                    break;
                }
            });
        }
        drop(tx);
        for (cube, counted) in rx {
            match counted {
                Ok(Some(c)) => {
                    let line = serde_json::to_string(&CubeLine::new(&puzzle, cubes, cube, &c))
                        .expect("a cube line serialises");
                    if let Err(e) = cube_file.append_line(&line) {
                        failure.get_or_insert(e);
                    }
                    let squares = c.squares;
                    closed.insert(cube, c);
                    let so_far = total(closed.values());
                    let _ = writeln!(
                        progress,
                        "c cube {cube}: {squares} squares; {} of {cubes} cubes, {} squares so far, {:.1} s",
                        closed.len(),
                        so_far.squares,
                        start.elapsed().as_secs_f64()
                    );
                }
                Ok(None) => {}
                Err(e) => {
                    failure.get_or_insert(e);
                    // the other threads stop at their next cube
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let counted = total(closed.values());
    let complete = closed.len() == cubes;
    let mut report = Report::new(puzzle, NO_SAT.into(), "squares");
    report.count = Some(counted.squares);
    report.classes = (complete && n >= 3).then_some(counted.squares / 8);
    // as the SAT count says it: none, proven (exit 20); none found before
    // the limit (exit 0)
    report.status = match (complete, counted.squares) {
        (true, 0) => Status::Unsat,
        (true, _) => Status::All,
        (false, 0) => Status::Unknown,
        (false, _) => Status::Partial,
    };
    if !complete {
        report.stopped_by = Some(StoppedBy::of_limits(limits));
    }
    // what the claim rests on, as the SAT cube runs say it: the records
    // of the cube file are taken as written, not counted in this run
    report.cubes = file.map(|(path, _)| CubeTally {
        cubes: cubes as u32,
        closed_now: (closed.len() - from_file) as u32,
        from_file: from_file as u32,
        file: Some(path.display().to_string()),
        written_by: recorded.builds.iter().cloned().collect(),
        trusted: recorded.trusted,
        ..CubeTally::default()
    });
    report.details = LineSetDetails {
        n,
        cubes,
        cubes_this_run: closed.len() - from_file,
        cubes_from_file: from_file,
        row_partitions: counted.row_partitions,
        pairs: counted.pairs,
        checked: counted.arrangements,
        per_checked: sets.centraliser(),
        up_to_rotation_and_reflection: (complete && n >= 3).then_some(counted.squares / 8),
        by_centre: counted.by_centre.clone(),
    };
    report.seconds.solve = start.elapsed().as_secs_f64();
    Ok(report)
}
