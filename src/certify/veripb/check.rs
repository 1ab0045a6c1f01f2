//! The `veripb` checker process: its version probe and the check of a
//! model and a proof, stopped when the run's limits expire.

use std::io::{self};
use std::path::Path;
use std::time::Instant;

use crate::certify::CertifyError;
use crate::solver::Limits;

/// The checker's install command, named whenever it is missing.
pub const INSTALL: &str = "cargo install veripb --version 3.0.2 --locked";

/// A checked VeriPB proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// the checker and its version (`veripb 3.0.2`)
    pub checker: String,
    /// the checker's verdict line (`s VERIFIED …`)
    pub verdict: String,
    /// time of the check
    pub seconds: f64,
}

/// The `veripb` on PATH and its version, or the error naming the install
/// command (or saying that the `veripb` found is not executable). The probe
/// runs under `limits` like the check: a checker that hangs there is
/// killed when the time limit expires or on Ctrl-C or SIGTERM.
pub fn checker(limits: &Limits) -> Result<String, CertifyError> {
    let out = run_veripb(&[std::ffi::OsStr::new("--version")], limits)?;
    let v = String::from_utf8_lossy(&out.stdout);
    let v = v
        .lines()
        .find(|l| l.starts_with("veripb"))
        .unwrap_or("veripb (unknown version)");
    Ok(v.trim().to_string())
}

/// Runs `veripb ARGS` until it exits or `limits` expire (then it is
/// killed: `Stopped`), its output in temporary files (no pipe to fill).
fn run_veripb(
    args: &[&std::ffi::OsStr],
    limits: &Limits,
) -> Result<std::process::Output, CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let (mut out_file, mut err_file) = (
        tempfile::tempfile().map_err(io)?,
        tempfile::tempfile().map_err(io)?,
    );
    let mut child = crate::checker::command()
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(out_file.try_clone().map_err(io)?)
        .stderr(err_file.try_clone().map_err(io)?)
        .spawn()
        .map_err(not_run)?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            break status;
        }
        if limits.expired() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(CertifyError::Stopped);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let read = |f: &mut std::fs::File| -> Result<Vec<u8>, CertifyError> {
        use std::io::{Read, Seek};
        let mut v = vec![];
        f.seek(io::SeekFrom::Start(0)).map_err(io)?;
        f.read_to_end(&mut v).map_err(io)?;
        Ok(v)
    };
    Ok(std::process::Output {
        status,
        stdout: read(&mut out_file)?,
        stderr: read(&mut err_file)?,
    })
}

/// Why `veripb` could not be started: not on PATH, found but not
/// executable, or another error of the system.
fn not_run(e: io::Error) -> CertifyError {
    CertifyError::Producer(match e.kind() {
        io::ErrorKind::NotFound => format!(
            "the VeriPB checker could not be run (not found): {} names an installed one (`{INSTALL}`), or a library's binary registers `puzzlesat` with `checker::bundled_in`",
            crate::checker::ENV
        ),
        io::ErrorKind::PermissionDenied => {
            let found = std::env::var_os("PATH")
                .map(|p| {
                    std::env::split_paths(&p)
                        .map(|d| d.join("veripb"))
                        .find(|f| f.is_file())
                })
                .unwrap_or_default();
            let at = found.map_or(String::new(), |f| format!(" ({})", f.display()));
            format!("the `veripb` on PATH{at} is not executable: make it executable, or install the checker with `{INSTALL}`")
        }
        _ => format!("veripb could not be run: {e}"),
    })
}

/// Runs `veripb MODEL PROOF`; Ok only if it verifies the proof. The check
/// is stopped (and the run told so) when `limits` expire: the time limit,
/// Ctrl-C or SIGTERM.
pub fn check(model: &Path, proof: &Path, limits: &Limits) -> Result<Checked, CertifyError> {
    let checker = checker(limits)?;
    let t = Instant::now();
    let args = [
        std::ffi::OsStr::new("--hide-warnings"),
        model.as_os_str(),
        proof.as_os_str(),
    ];
    let out = run_veripb(&args, limits)?;
    let seconds = t.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict = stdout.lines().find(|l| l.starts_with("s VERIFIED"));
    match verdict {
        Some(v) if out.status.success() => Ok(Checked {
            checker,
            verdict: v.to_string(),
            seconds,
        }),
        _ => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why: Vec<&str> = stderr
                .lines()
                .chain(stdout.lines())
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("Running VeriPB"))
                .take(6)
                .collect();
            Err(CertifyError::VeripbRejected(format!(
                "{} (kept: {})",
                why.join(" / "),
                proof.display()
            )))
        }
    }
}

/// The bounds of `s VERIFIED BOUNDS LO <= obj <= HI`.
pub fn bounds(verdict: &str) -> Option<(i64, i64)> {
    let rest = verdict.strip_prefix("s VERIFIED BOUNDS ")?;
    let (lo, rest) = rest.split_once(" <= obj <= ")?;
    Some((lo.trim().parse().ok()?, rest.trim().parse().ok()?))
}
