//! Progress on stderr: a spinner with the elapsed time and the latest
//! progress line ("c improved: objective 540 after 0.31s") while a solve runs
//! on a terminal; when stderr is a file or a pipe (logs, CI, experiment
//! workers), the progress lines as plain `c` lines plus a heartbeat every few
//! seconds ([`HEARTBEAT_ENV`], default 5 s): `c progress: 12s elapsed;
//! latest: …`, so a long single solve is never silent. Results never go
//! here: they go to stdout.
//!
//! Lines starting with [`STATUS`] are state, not events ("c status: 120
//! solutions so far"): the spinner shows them, the heartbeat repeats the
//! latest one, neither prints each of them.
//!
//! Neither thread delays the end of a run: the heartbeat waits on a channel
//! with a timeout (dropping the sender wakes it at once) and the spinner's
//! ticker on indicatif's condvar, so the process's `total` seconds hold no
//! wait for a sleeping thread (issue 22: small runs' totals used to land on
//! multiples of the heartbeat's 50 ms sleep steps).

use std::io::{self, Write};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Environment variable: seconds between heartbeat lines when stderr is not
/// a terminal (default 5).
pub const HEARTBEAT_ENV: &str = "PUZZLESAT_PROGRESS_SECONDS";

/// The heartbeat's period bounds: whatever [`HEARTBEAT_ENV`] says, no
/// faster than 0.1 s (a line per wake-up would flood stderr) and no slower
/// than a million seconds (an `Instant` past that may overflow).
const HEARTBEAT_RANGE: (f64, f64) = (0.1, 1e6);

/// The heartbeat's period from [`HEARTBEAT_ENV`]'s value: 5 s when unset or
/// not a positive number of seconds, else the value clamped to
/// [`HEARTBEAT_RANGE`] (never a panic: `1e300`, `inf`, `NaN`, `-1` and
/// non-UTF-8 bytes are all values a user may set).
fn heartbeat_every(value: Option<&std::ffi::OsStr>) -> Duration {
    let (low, high) = HEARTBEAT_RANGE;
    value
        .and_then(|v| v.to_str())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| *s > 0.0) // NaN fails this too
        .map_or(Duration::from_secs(5), |s| {
            Duration::from_secs_f64(s.clamp(low, high))
        })
}

/// Prefix of a state line (shown as the latest state, not printed as such).
pub const STATUS: &str = "c status: ";

/// A `Write` sink for the runner's progress lines.
pub struct Progress {
    bar: ProgressBar,
    pending: Vec<u8>,
    latest: Arc<Mutex<String>>,
    heartbeat: Option<Heartbeat>,
}

/// The heartbeat thread and the sender whose drop stops it.
struct Heartbeat {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Heartbeat {
    /// Prints `c progress: …` with the latest line every [`HEARTBEAT_ENV`]
    /// seconds until stopped.
    fn start(latest: Arc<Mutex<String>>) -> Self {
        let every = heartbeat_every(std::env::var_os(HEARTBEAT_ENV).as_deref());
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut next = start + every;
            // a message or a dropped sender ends the wait at once
            while let Err(RecvTimeoutError::Timeout) =
                stopped.recv_timeout(next.saturating_duration_since(Instant::now()))
            {
                next = next.checked_add(every).unwrap_or(next);
                let latest = latest.lock().map(|s| s.clone()).unwrap_or_default();
                eprintln!(
                    "c progress: {:.0}s elapsed; latest: {latest}",
                    start.elapsed().as_secs_f64()
                );
            }
        });
        Heartbeat { stop, thread }
    }

    /// Wakes the thread and waits for it: no longer than its last line takes.
    fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

impl Progress {
    /// A spinner on stderr, or plain lines and a heartbeat when stderr is not
    /// a terminal.
    pub fn stderr() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}").expect("static template"),
        );
        bar.set_message("solving");
        let latest = Arc::new(Mutex::new("solving".to_string()));
        let heartbeat = if bar.is_hidden() {
            Some(Heartbeat::start(latest.clone()))
        } else {
            bar.enable_steady_tick(Duration::from_millis(200));
            None
        };
        Progress {
            bar,
            pending: Vec::new(),
            latest,
            heartbeat,
        }
    }

    fn emit(&self, line: &str) {
        let state = line.strip_prefix(STATUS);
        let shown = state.unwrap_or_else(|| line.trim_start_matches("c "));
        if let Ok(mut l) = self.latest.lock() {
            *l = shown.to_string();
        }
        if self.bar.is_hidden() {
            if state.is_none() {
                eprintln!("{line}");
            }
        } else {
            if state.is_none() {
                self.bar.println(line);
            }
            self.bar.set_message(shown.to_string());
        }
    }
}

impl Write for Progress {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(pos) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=pos).collect();
            self.emit(String::from_utf8_lossy(&line[..line.len() - 1]).as_ref());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let rest = String::from_utf8_lossy(&self.pending).into_owned();
            self.emit(&rest);
        }
        if let Some(heartbeat) = self.heartbeat.take() {
            heartbeat.stop();
        }
        // stops the spinner's ticker thread now (woken by its condvar)
        self.bar.disable_steady_tick();
        self.bar.finish_and_clear();
    }
}

/// The prefix of the runner's line for a better solution ("c improved:
/// objective 540 after 0.31s", also "… in cube 3 …").
const IMPROVED: &str = "c improved: objective ";

/// `--competition`'s progress: the progress lines go on to `inner`, and
/// each [`IMPROVED`] line is also printed on stdout at once as the
/// evaluations' `o V` line.
pub struct OLines {
    inner: Box<dyn Write>,
    line: Vec<u8>,
}

impl OLines {
    /// Progress lines to `inner`, `o` lines to stdout.
    pub fn new(inner: Box<dyn Write>) -> Self {
        OLines {
            inner,
            line: vec![],
        }
    }
}

impl Write for OLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(buf);
        while let Some(end) = self.line.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.line.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line);
            if let Some(v) = text
                .strip_prefix(IMPROVED)
                .and_then(|rest| rest.split_whitespace().next())
            {
                let mut out = io::stdout().lock();
                writeln!(out, "o {v}")?;
                out.flush()?;
            }
            self.inner.write_all(&line)?;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn any_heartbeat_value_gives_a_period() {
        let every = |v: &str| heartbeat_every(Some(OsStr::new(v)));
        assert_eq!(heartbeat_every(None), Duration::from_secs(5));
        assert_eq!(every("2"), Duration::from_secs(2));
        assert_eq!(every("1e300"), Duration::from_secs(1_000_000));
        assert_eq!(every("inf"), Duration::from_secs(1_000_000));
        assert_eq!(every("1e-300"), Duration::from_millis(100));
        for v in ["NaN", "-1", "0", "", "five"] {
            assert_eq!(every(v), Duration::from_secs(5), "{v}");
        }
    }
}
