//! The time limit and Ctrl-C hold whatever a run is doing. The solvers and
//! drivers check the limits themselves and end with the best answer so far;
//! building a large CNF and loading it into a solver do not (a 1×1024 rook
//! board took 8.9 s of loading past a 5 s limit, issue 27). The watchdog is
//! a thread that waits for the limits to expire; if the run has neither
//! ended nor loaded its first solver session ([`crate::options::session_loaded`])
//! [`GRACE`] later, it prints the report of a run stopped before any answer
//! (status `unknown`, `stopped_by` the limit) and ends the process, so the
//! limit holds within [`GRACE`] plus a poll step while the CNF is built and
//! loaded; from the first session on, the solvers and drivers answer it.
//!
//! The report is printed once: the run's own report claims the output
//! ([`claim_output`]) before printing, and the watchdog prints only if it
//! claims it first.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::solver::Limits;

/// How long a run may take to end by itself once its limits expired.
pub const GRACE: Duration = Duration::from_millis(500);

/// How often the watchdog looks at the limits.
const POLL: Duration = Duration::from_millis(20);

/// Whether the run's report was (or is being) printed.
static OUTPUT: Mutex<bool> = Mutex::new(false);

/// Claims stdout for the run's report: held while it is printed, so the
/// watchdog prints nothing after it (and nothing is printed twice).
pub fn claim_output() -> MutexGuard<'static, bool> {
    let mut claimed = OUTPUT.lock().unwrap_or_else(|e| e.into_inner());
    *claimed = true;
    claimed
}

/// A started watchdog; dropping it (the run has ended) stops it.
pub struct Watchdog {
    done: Arc<AtomicBool>,
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
    }
}

/// Starts the watchdog of a run under `limits` (none without a timeout and
/// before Ctrl-C: it only waits). Past the limits and [`GRACE`], `stopped`
/// prints the report of a run stopped before any answer to `out` and
/// returns the exit code the process ends with (0, no answer, for a
/// solve); the temporary files of outputs being written are removed first
/// ([`crate::io::output::remove_temporaries`]).
pub fn start(
    limits: &Limits,
    stopped: impl FnOnce(&mut dyn Write) -> i32 + Send + 'static,
) -> Watchdog {
    let done = Arc::new(AtomicBool::new(false));
    let watching = done.clone();
    let limits = limits.clone();
    std::thread::spawn(move || {
        // the run ended, or it reached its solvers, which check the limits
        let ended = || watching.load(Ordering::SeqCst) || crate::options::session_loaded();
        while !limits.expired() {
            if ended() {
                return;
            }
            std::thread::sleep(POLL);
        }
        let expired = Instant::now();
        while expired.elapsed() < GRACE {
            if ended() {
                return;
            }
            std::thread::sleep(POLL);
        }
        let claimed = OUTPUT.lock().unwrap_or_else(|e| e.into_inner());
        if *claimed || ended() {
            return;
        }
        crate::io::output::remove_temporaries();
        let mut out = std::io::stdout().lock();
        let code = stopped(&mut out);
        let _ = out.flush();
        std::process::exit(code);
    });
    Watchdog { done }
}
