//! Validating types for numeric option values: every number a user gives
//! (on the command line or in a spec file) is parsed here into a value
//! that is known to be in range, so no later conversion can panic
//! (`Duration::from_secs_f64(-1.0)`) or allocate without bound (a range
//! of a billion sizes). Each type's error message states the allowed
//! range, which `--help` states too.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A wall-clock limit in seconds: finite, above 0, at most
/// [`Seconds::MAX`] (10^7 s, about 115 days). `-1`, `NaN`, `inf` and
/// `1e300` are refused.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Seconds(f64);

impl Seconds {
    /// The largest limit accepted.
    pub const MAX: f64 = 1e7;
    /// The range, as `--help` and the error messages state it.
    pub const RANGE: &'static str = "a number of seconds above 0, at most 10000000";

    /// `s` if it is in range.
    pub fn new(s: f64) -> Result<Self, String> {
        if s > 0.0 && s <= Self::MAX {
            Ok(Seconds(s))
        } else {
            // 1e300 as written, not its 301 digits; -1 not -1.0
            let shown = if s.is_finite() && s.abs() < 1e15 {
                s.to_string()
            } else {
                format!("{s:?}")
            };
            Err(format!("expected {}, got {shown}", Self::RANGE))
        }
    }
    /// The value in seconds.
    pub fn get(self) -> f64 {
        self.0
    }
    /// As a [`Duration`] (cannot panic: the value is in range).
    pub fn duration(self) -> Duration {
        Duration::from_secs_f64(self.0)
    }
}

impl FromStr for Seconds {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let s: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("expected {}, got '{}'", Self::RANGE, shown(text)))?;
        Seconds::new(s)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An integer in `lo..=hi`, or an error naming `what` and the range.
pub fn in_range<T>(value: T, lo: T, hi: T, what: &str) -> Result<T, String>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if value < lo || value > hi {
        return Err(format!("{what}: expected {lo} to {hi}, got {value}"));
    }
    Ok(value)
}

/// Parses an integer in `lo..=hi` (text that is no integer, or one out of
/// range, is an error stating the range).
pub fn parse_in_range<T>(text: &str, lo: T, hi: T, what: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display + Copy,
{
    let value: T = text.trim().parse().map_err(|_| {
        format!(
            "{what}: expected an integer from {lo} to {hi}, got '{}'",
            shown(text)
        )
    })?;
    in_range(value, lo, hi, what)
}

/// The default `--max-clauses`: 20 million clauses, about 1.5 GB while a
/// backend solves them (magic -n 14, 2.4 million clauses, peaks at 167 MB).
pub const DEFAULT_MAX_CLAUSES: u64 = 20_000_000;

/// Runs per grid point of an experiment.
pub const REPEATS: (u32, u32) = (1, 1000);
/// Runs of an experiment at the same time.
pub const JOBS: (usize, usize) = (1, 256);
/// Rows of one experiment grid (checked before the grid is built).
pub const MAX_ROWS: u64 = 1_000_000;
/// Values of one `a..b` range (`--sizes`, `--vary`).
pub const MAX_RANGE_VALUES: u64 = 100_000;
/// An address-space limit in MiB (1 PiB: above any machine).
pub const MAX_MEMORY_MIB: u64 = 1 << 30;

/// This process's hard address-space limit (`RLIMIT_AS`) in MiB, `None`
/// if unlimited: a worker's limit can be lowered, never raised above it.
pub fn hard_memory_limit_mib() -> Option<u64> {
    // SAFETY: rlimit is plain data; getrlimit fills it.
    let mut lim: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a local.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_max == libc::RLIM_INFINITY
    {
        return None;
    }
    Some(lim.rlim_max as u64 >> 20)
}

/// User text in a message: control characters escaped, at most 40
/// characters.
fn shown(text: &str) -> String {
    crate::io::show(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuse_what_duration_cannot_hold() {
        for bad in [
            "-1", "0", "NaN", "nan", "inf", "-inf", "1e300", "", "x", "1e7.5", "10000001",
        ] {
            let err = bad.parse::<Seconds>().unwrap_err();
            assert!(err.contains("above 0, at most 10000000"), "{bad}: {err}");
        }
        for good in ["0.001", "5", "1e7", " 30 "] {
            let s: Seconds = good.parse().unwrap();
            assert!(s.duration() > Duration::ZERO);
        }
    }

    #[test]
    fn integers_state_their_range() {
        assert_eq!(parse_in_range("5", 1u32, 1000, "repeats"), Ok(5));
        let e = parse_in_range("0", 1u32, 1000, "repeats").unwrap_err();
        assert_eq!(e, "repeats: expected 1 to 1000, got 0");
        let e = parse_in_range("18446744073709551616", 1u64, 9, "n").unwrap_err();
        assert!(e.contains("expected an integer from 1 to 9"), "{e}");
        let e = parse_in_range("\0", 1u64, 9, "n").unwrap_err();
        assert!(e.contains("'\\x00'"), "{e}");
    }
}
