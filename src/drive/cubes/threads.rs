//! The threads of the cube searches: `--jobs` threads taking cubes in
//! turn, their progress lines passed on, their statistics summed, and a
//! cube's certificate stopped by the limits told apart from one that
//! failed.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::certify::CertifyError;
use crate::solver::SolverStats;

/// Runs `work` on `threads` threads, writing the progress lines they send
/// to `progress` as they come (the threads cannot share it); each thread's
/// result.
pub(super) fn on_threads<T: Send>(
    threads: usize,
    progress: &mut dyn Write,
    work: impl Fn(&mpsc::Sender<String>) -> anyhow::Result<T> + Sync,
) -> Vec<anyhow::Result<T>> {
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (tx, work) = (tx.clone(), &work);
                scope.spawn(move || work(&tx))
            })
            .collect();
        drop(tx);
        for line in rx {
            let _ = writeln!(progress, "{line}");
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(anyhow::anyhow!("internal error: a cube thread panicked"))
                })
            })
            .collect()
    })
}

/// The threads for `queued` cubes: `--jobs`, capped at one per cube (and
/// said on `progress` when capped).
pub(super) fn thread_count(
    jobs: usize,
    queued: usize,
    progress: &mut dyn Write,
) -> std::io::Result<usize> {
    let threads = jobs.clamp(1, queued.max(1));
    if threads < jobs {
        writeln!(
            progress,
            "c cubes: --jobs {jobs} capped at {threads}: one thread per cube to solve"
        )?;
    }
    Ok(threads)
}

/// Adds one session's statistics to a run's (a statistic no session
/// reported stays None).
pub(super) fn add_stats(into: &mut SolverStats, s: SolverStats) {
    let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
    };
    into.conflicts = add(into.conflicts, s.conflicts);
    into.decisions = add(into.decisions, s.decisions);
    into.propagations = add(into.propagations, s.propagations);
}

/// A cube's certificate stopped by the limits (the time limit, Ctrl-C,
/// SIGTERM): the run ends with its best so far, the cube closed by its
/// UNSAT answer but not certified, as a single run's claim does
/// (`c certificate not finished`), never an error.
#[derive(Debug)]
pub(super) struct CertificateStopped;

impl std::fmt::Display for CertificateStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a certificate was stopped by the limits")
    }
}

impl std::error::Error for CertificateStopped {}

/// The error of a certificate that failed: [`CertificateStopped`] when the
/// limits stopped it, else `e` in the context `what`.
pub(super) fn certificate_failed(e: CertifyError, what: impl FnOnce() -> String) -> anyhow::Error {
    match e {
        CertifyError::Stopped => CertificateStopped.into(),
        e => anyhow::Error::new(e).context(what()),
    }
}

/// `r`, or None (after raising `stopped`) if it is a certificate the
/// limits stopped.
pub(super) fn unless_stopped<T>(
    r: anyhow::Result<T>,
    stopped: &AtomicBool,
) -> anyhow::Result<Option<T>> {
    match r {
        Err(e) if e.is::<CertificateStopped>() => {
            stopped.store(true, Ordering::Relaxed);
            Ok(None)
        }
        r => r.map(Some),
    }
}
