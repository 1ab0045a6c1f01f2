//! The `veripb` checker process: its version probe and the check of a
//! model and a proof, stopped when the run's limits expire.

use std::io::{self};
use std::path::Path;
use std::process::Command;
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
/// command.
pub fn checker() -> Result<String, CertifyError> {
    let out = Command::new("veripb")
        .arg("--version")
        .output()
        .map_err(|_| {
            CertifyError::Producer(format!(
            "the VeriPB checker is not installed (no `veripb` on PATH): install it with `{INSTALL}`"
        ))
        })?;
    let v = String::from_utf8_lossy(&out.stdout);
    let v = v
        .lines()
        .find(|l| l.starts_with("veripb"))
        .unwrap_or("veripb (unknown version)");
    Ok(v.trim().to_string())
}

/// Runs `veripb MODEL PROOF`; Ok only if it verifies the proof. The check
/// is stopped (and the run told so) when `limits` expire: the time limit,
/// Ctrl-C or SIGTERM.
pub fn check(model: &Path, proof: &Path, limits: &Limits) -> Result<Checked, CertifyError> {
    let checker = checker()?;
    let t = Instant::now();
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    let (mut out_file, mut err_file) = (
        tempfile::tempfile().map_err(io)?,
        tempfile::tempfile().map_err(io)?,
    );
    let mut child = Command::new("veripb")
        .arg("--hide-warnings")
        .arg(model)
        .arg(proof)
        .stdout(out_file.try_clone().map_err(io)?)
        .stderr(err_file.try_clone().map_err(io)?)
        .spawn()
        .map_err(|e| CertifyError::Producer(format!("veripb could not be run: {e}")))?;
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
    let seconds = t.elapsed().as_secs_f64();
    let read = |f: &mut std::fs::File| -> Result<Vec<u8>, CertifyError> {
        use std::io::{Read, Seek};
        let mut v = vec![];
        f.seek(io::SeekFrom::Start(0)).map_err(io)?;
        f.read_to_end(&mut v).map_err(io)?;
        Ok(v)
    };
    let out = std::process::Output {
        status,
        stdout: read(&mut out_file)?,
        stderr: read(&mut err_file)?,
    };
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
                "{} ({})",
                why.join(" / "),
                proof.display()
            )))
        }
    }
}
