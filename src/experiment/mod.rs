//! Encoding experiments: grids of runs (puzzle × size × encoding options ×
//! symmetry breaking × solver × repeats) → rows → JSON Lines / CSV →
//! summary tables and plots.
//!
//! Every row runs `puzzlesat solve <puzzle> <flags> --timeout S --seed K
//! --json` as an isolated worker process ([`worker`]): a crash, a blow-up
//! or a timeout becomes a row with that status and the grid goes on. The
//! runner is generic: the spec names the puzzle subcommand and the flags to
//! vary, so every encoding option a puzzle exposes is an experiment axis.
//! A grid outgrows one machine through `--emit-jobs` (one shell line per
//! row, for GNU parallel or a Slurm array) and `--collect` (their outputs
//! merged into the same table, by the same row builder).

pub mod grid;
pub mod plot;
pub mod row;
pub mod store;
pub mod summary;
pub mod worker;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use anyhow::Context;
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

pub use grid::{Grid, Job};
pub use row::{Exit, Outcome, Row};
pub use store::Store;

/// What a run of the grid did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// rows run now
    pub ran: usize,
    /// rows run now that did not solve (timeout, memout, crash, error, unknown, partial)
    pub failed: usize,
    /// rows skipped because they were already recorded
    pub skipped: usize,
    /// stopped by an interrupt before the grid was done
    pub interrupted: bool,
}

/// Runs the rows of `grid` not yet in `store`, `grid.jobs` at a time,
/// recording each as it finishes. A progress bar (rows done, failures,
/// ETA) goes to stderr unless `quiet`; with `verbose`, one line per row.
/// Raising `interrupt` kills the running workers and returns (their rows
/// are not recorded, so a rerun does them).
pub fn run_grid(
    grid: &Grid,
    store: &mut Store,
    quiet: bool,
    verbose: bool,
    interrupt: Arc<AtomicBool>,
) -> anyhow::Result<RunCounts> {
    let jobs = grid.expand();
    let todo: Vec<&Job> = jobs.iter().filter(|j| !store.contains(&j.id)).collect();
    let mut counts = RunCounts {
        skipped: jobs.len() - todo.len(),
        ..RunCounts::default()
    };
    if !quiet && counts.skipped > 0 {
        eprintln!(
            "{}: {} of {} rows already in {}, running the other {}",
            grid.name,
            counts.skipped,
            jobs.len(),
            store.dir().display(),
            todo.len()
        );
    }
    let bar = progress_bar(&grid.name, todo.len() as u64, quiet);
    let runs_dir = store.dir().join("runs");
    let queue = Mutex::new(todo.into_iter().collect::<VecDeque<&Job>>());
    let (tx, rx) = mpsc::channel::<(&Job, anyhow::Result<Option<Outcome>>)>();
    let result = std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..grid.jobs {
            let tx = tx.clone();
            let (queue, interrupt, runs_dir) = (&queue, &interrupt, &runs_dir);
            scope.spawn(move || loop {
                if interrupt.load(Ordering::SeqCst) {
                    break;
                }
                let Some(job) = queue.lock().expect("queue lock").pop_front() else {
                    break;
                };
                let outcome = worker::run_job(grid, job, runs_dir, interrupt);
                if tx.send((job, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (job, outcome) in rx {
            let outcome = match outcome {
                Ok(Some(o)) => o,
                Ok(None) => continue, // interrupted: not recorded
                Err(e) => {
                    // the worker could not even start: a setup error, not a row
                    interrupt.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            };
            let row = Row::from_outcome(grid, job, &outcome);
            counts.ran += 1;
            if !row.solved() {
                counts.failed += 1;
            }
            if verbose {
                bar.println(format!(
                    "{} {}: {} ({:.2}s)",
                    job.id,
                    row.config(&param_keys(job)),
                    row.status,
                    row.time()
                ));
            }
            if let Err(e) = store.push(row) {
                // cannot record (disk full?): stop the workers, keep what is written
                interrupt.store(true, Ordering::SeqCst);
                return Err(e);
            }
            bar.set_message(format!("{} failed", counts.failed));
            bar.inc(1);
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    counts.interrupted = interrupt.load(Ordering::SeqCst);
    store.finish(&jobs)?;
    Ok(counts)
}

/// The grid's progress bar: rows done/total, failures (the message),
/// elapsed time and an ETA from the rows finished so far ([`eta`]); every
/// field is set before it is first drawn, and it is redrawn every second.
fn progress_bar(name: &str, rows: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_length(rows);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} rows, {msg}, {elapsed} elapsed, ETA {rows_eta}",
        )
        .expect("valid template")
        .with_key(
            "rows_eta",
            |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let total = s.len().unwrap_or(0);
                let _ = match eta(s.elapsed(), s.pos(), total) {
                    Some(left) => write!(w, "{}", HumanDuration(left)),
                    None => write!(w, "after the first row"),
                };
            },
        )
        .progress_chars("=> "),
    );
    bar.set_prefix(name.to_string());
    bar.set_message("0 failed");
    if !quiet {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_secs(1));
    }
    bar
}

/// Time left when `done` of `total` rows took `elapsed`: the rows' mean
/// wall time so far (rows running in parallel included) times the rows
/// left; None before the first row has finished.
pub fn eta(elapsed: Duration, done: u64, total: u64) -> Option<Duration> {
    (done > 0).then(|| elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64))
}

fn param_keys(job: &Job) -> Vec<String> {
    job.params.iter().map(|(k, _)| k.clone()).collect()
}

/// Writes one shell line per row of `grid` to `file`: the worker command
/// under `ulimit -v` (memory guard) and `timeout` (wall-clock limit), its
/// stdout, stderr and exit code into `dir/<id>.json`, `.err`, `.rc` — what
/// [`collect`] reads. Rows that `done` says are recorded already are left
/// out (the cluster form of resuming). Returns the number of lines.
pub fn emit_jobs(
    grid: &Grid,
    file: &Path,
    dir: &Path,
    done: &dyn Fn(&Job) -> bool,
) -> anyhow::Result<usize> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let dir = std::path::absolute(dir).with_context(|| format!("resolving {}", dir.display()))?;
    let q = |p: &Path| grid::shell_quote(&p.to_string_lossy());
    let mut text = String::new();
    let jobs: Vec<Job> = grid.expand().into_iter().filter(|j| !done(j)).collect();
    for job in &jobs {
        let cmd: Vec<String> = grid
            .command_line(job)
            .iter()
            .map(|w| grid::shell_quote(w))
            .collect();
        let ulimit = match grid.memory_mib {
            Some(m) => format!("ulimit -v {} && ", m * 1024),
            None => String::new(),
        };
        let base = dir.join(&job.id);
        text.push_str(&format!(
            "({ulimit}exec timeout -k 5 {} {}) > {} 2> {}; echo $? > {}\n",
            grid::format_seconds(worker::hard_limit(grid.timeout)),
            cmd.join(" "),
            q(&base.with_extension("json")),
            q(&base.with_extension("err")),
            q(&base.with_extension("rc")),
        ));
    }
    crate::io::write_string_atomic(file, &text)?;
    Ok(jobs.len())
}

/// Merges the outputs of emitted jobs found in `dir` into `store`, as rows
/// built exactly as for a run here (wall time and peak memory, not measured
/// there, stay empty). Jobs without an exit code yet are left out. Returns
/// (rows added, rows still missing).
pub fn collect(grid: &Grid, store: &mut Store, dir: &Path) -> anyhow::Result<(usize, usize)> {
    let jobs = grid.expand();
    let (mut added, mut missing) = (0, 0);
    for job in &jobs {
        let base = dir.join(&job.id);
        let Ok(rc) = std::fs::read_to_string(base.with_extension("rc")) else {
            missing += usize::from(!store.contains(&job.id));
            continue;
        };
        let rc: i32 = rc.trim().parse().with_context(|| {
            format!("{}: not an exit code", base.with_extension("rc").display())
        })?;
        let read = |ext: &str| {
            std::fs::read(base.with_extension(ext))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        };
        let exit = match rc {
            // GNU timeout: 124 after SIGTERM, 137 when it had to SIGKILL
            124 | 137 => Exit::TimedOut,
            c if c > 128 => Exit::Signal(c - 128),
            c => Exit::Code(c),
        };
        let outcome = Outcome {
            stdout: read("json"),
            stderr: read("err"),
            exit,
            wall_seconds: None,
            peak_rss_kib: None,
        };
        if store.push(Row::from_outcome(grid, job, &outcome))? {
            added += 1;
        }
    }
    store.finish(&jobs)?;
    Ok((added, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_from_finished_rows() {
        let s = Duration::from_secs;
        assert_eq!(eta(s(60), 0, 10), None);
        assert_eq!(eta(s(60), 2, 10), Some(s(240)));
        assert_eq!(eta(s(90), 3, 4), Some(s(30)));
        assert_eq!(eta(s(90), 4, 4), Some(s(0)));
    }
}
