//! Magic squares' methods beside the single CNF, as library calls
//! returning a [`Report`]: finding in stages under the balanced-digits
//! restriction ([`crate::puzzles::magic::staged`]), and the structured
//! count by line sets, cube by cube in the native cube engine, with no SAT
//! solver ([`crate::puzzles::magic::line_sets`]).

use std::io::Write;
use std::sync::mpsc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::drive;
use crate::drive::cubes::native::{self, CubeSearch};
use crate::drive::cubes::CubeOptions;
use crate::options::RunOptions;
use crate::puzzles::magic::line_sets::{total, Counted, LineSets};
use crate::puzzles::magic::staged::{self, StagedDetails, StagedMagic};
use crate::puzzles::magic::Square;
use crate::report::{Details, Report, Status, StoppedBy, NO_SAT};
use crate::solver::Limits;

/// Finds a free square of order `n` in stages (`places`: the place values
/// of the digits, None for [`staged::default_places`]); None when the
/// restriction holds no square (or the budgets found none), which proves
/// nothing: the caller then solves the single CNF.
pub fn staged(
    n: usize,
    places: Option<&[usize]>,
    max_clauses: u64,
    opts: &RunOptions,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Option<Report<Square, StagedDetails>>> {
    let places = places.map_or_else(|| staged::default_places(n), <[usize]>::to_vec);
    let search = StagedMagic::new(n, &places, max_clauses)?;
    let found = drive::staged::search_in_stages(&search, opts, limits, progress)?;
    if found.is_none() {
        let _ = writeln!(
            progress,
            "c staged: the restriction (places {places:?}) holds no square of order {n}: solving the single CNF"
        );
    }
    Ok(found)
}

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

/// The structured count as a search without SAT that splits itself:
/// cube i of K takes the line sets holding the value 1 whose index is i
/// modulo K ([`LineSets::count_cube`]).
struct LineSetCount {
    sets: LineSets,
    describe: String,
}

impl CubeSearch for LineSetCount {
    type Record = Counted;
    fn describe(&self) -> String {
        self.describe.clone()
    }
    fn search(
        &self,
        index: u32,
        cubes: u32,
        limits: &Limits,
        _progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<(Counted, bool)> {
        let stop = || limits.expired();
        Ok(
            match self
                .sets
                .count_cube(index as usize, cubes as usize, &stop)?
            {
                Some(c) => (c, true),
                // a cube stopped before its end counts nothing
                None => (Counted::default(), false),
            },
        )
    }
    fn value(&self, _: &Counted) -> Option<i64> {
        None
    }
    fn check(&self, c: &Counted) -> anyhow::Result<()> {
        // each arrangement stands for the orders of the centraliser, and
        // for odd n every square has a centre
        let by_centre: u64 = c.by_centre.iter().sum();
        if c.squares != c.arrangements * self.sets.centraliser()
            || (!c.by_centre.is_empty() && by_centre != c.squares)
        {
            anyhow::bail!(
                "{} squares from {} arrangements (each standing for {}), {by_centre} by the centre's value: not a count of the structured search",
                c.squares,
                c.arrangements,
                self.sets.centraliser()
            );
        }
        Ok(())
    }
}

/// Counts every square of order `n` (1 to 5) by line sets, without SAT,
/// in the native cube engine ([`native::search_cubes`]): split by `cubes` (None: one
/// cube; at most one per block of line sets) on `--jobs` threads, resuming
/// from and appending to its cube file.
pub fn count_by_line_sets(
    n: usize,
    cubes: Option<&CubeOptions>,
    limits: &Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<Square, LineSetDetails>> {
    if cubes.is_some_and(|c| c.only.is_some()) {
        anyhow::bail!("--method reference counts all its cubes in one run (--cubes K --jobs J, resumable with --cube-file): not --cube I");
    }
    let start = Instant::now();
    let sets = LineSets::new(n)?;
    let blocks = sets.blocks().max(1);
    let mut opts = cubes.cloned().unwrap_or(CubeOptions {
        count: 1,
        file: None,
        only: None,
        jobs: 1,
        trust: false,
    });
    opts.count = opts
        .count
        .clamp(1, u32::try_from(blocks).unwrap_or(u32::MAX));
    let _ = writeln!(
        progress,
        "c structured count of order {n}: {blocks} blocks in {} cubes",
        opts.count
    );
    let search = LineSetCount {
        sets,
        describe: format!("magic n={n} method=reference"),
    };
    let out = native::search_cubes(&search, &opts, limits, progress)?;
    let closed: Vec<&Counted> = out.records.iter().flatten().map(|(c, _)| c).collect();
    let complete = closed.len() == out.records.len();
    let counted = total(closed.iter().copied());
    let mut report = Report::new(search.describe, NO_SAT.into(), "squares");
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
    if opts.file.is_some() {
        report.cubes = Some(out.tally.clone());
    }
    report.details = LineSetDetails {
        n,
        cubes: out.records.len(),
        cubes_this_run: out.tally.closed_now as usize,
        cubes_from_file: out.tally.from_file as usize,
        row_partitions: counted.row_partitions,
        pairs: counted.pairs,
        checked: counted.arrangements,
        per_checked: search.sets.centraliser(),
        up_to_rotation_and_reflection: report.classes,
        by_centre: counted.by_centre,
    };
    report.seconds.solve = start.elapsed().as_secs_f64();
    Ok(report)
}
