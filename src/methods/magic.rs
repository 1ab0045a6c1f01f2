//! Magic squares' methods beside the single CNF, as library calls
//! returning a [`Report`]: finding in stages under the balanced-digits
//! restriction ([`crate::puzzles::magic::staged`]), and the structured
//! count by line sets, cube by cube, with no SAT solver
//! ([`crate::puzzles::magic::line_sets`]).

use std::io::Write;

use crate::drive;
use crate::drive::cubes::CubeOptions;
use crate::drive::line_sets::LineSetDetails;
use crate::options::RunOptions;
use crate::puzzles::magic::staged::{self, StagedDetails, StagedMagic};
use crate::puzzles::magic::Square;
use crate::report::Report;
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
    let found = drive::staged::run(&search, opts, limits, progress)?;
    if found.is_none() {
        let _ = writeln!(
            progress,
            "c staged: the restriction (places {places:?}) holds no square of order {n}: solving the single CNF"
        );
    }
    Ok(found)
}

/// Counts every square of order `n` (1 to 5) by line sets, without SAT:
/// split by `cubes` (None: one cube) on `--jobs` threads, resuming from and
/// appending to its cube file.
pub fn count_by_line_sets(
    n: usize,
    cubes: Option<&CubeOptions>,
    limits: &Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<Square, LineSetDetails>> {
    if cubes.is_some_and(|c| c.only.is_some()) {
        anyhow::bail!("--method reference counts all its cubes in one run (--cubes K --jobs J, resumable with --cube-file): not --cube I");
    }
    let file = cubes.and_then(|c| c.file.as_deref().map(|f| (f, c.trust)));
    drive::line_sets::run(
        n,
        cubes.map_or(1, |c| c.count as usize),
        cubes.map_or(1, |c| c.jobs),
        file,
        limits,
        progress,
    )
}
