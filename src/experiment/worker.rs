//! Runs one job as an isolated worker process: its own process group (so a
//! timeout kills the worker and any solver it started), an address-space
//! limit (`RLIMIT_AS`, the memory guard), stdout and stderr into files named
//! by the job's id, a wall-clock limit enforced by SIGKILL, and the peak
//! resident memory read from `wait4`'s resource usage. Whatever happens to
//! the worker, the runner gets an [`Outcome`] and the grid goes on.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;

use super::grid::{Grid, Job};
use super::row::{Exit, Outcome};

/// The hard limit: the worker's own `--timeout` plus a grace period for it
/// to stop and print its best answer.
pub fn hard_limit(timeout: f64) -> f64 {
    timeout + (timeout * 0.1).max(2.0)
}

/// Runs `job` and waits for it; `None` if `interrupt` was raised (the worker
/// is killed and no row should be written, so a rerun does the job again).
pub fn run_job(
    grid: &Grid,
    job: &Job,
    runs_dir: &Path,
    interrupt: &AtomicBool,
) -> anyhow::Result<Option<Outcome>> {
    let argv = grid.command_line(job);
    let out_path = runs_dir.join(format!("{}.json", job.id));
    let err_path = runs_dir.join(format!("{}.err", job.id));
    let stdout =
        File::create(&out_path).with_context(|| format!("creating {}", out_path.display()))?;
    let stderr =
        File::create(&err_path).with_context(|| format!("creating {}", err_path.display()))?;
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0);
    let memory_bytes = grid.memory_mib.map(|m| m.saturating_mul(1 << 20));
    // SAFETY: only async-signal-safe system calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(bytes) = memory_bytes {
                let lim = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // die with the runner (a killed runner leaves no orphan workers)
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let start = Instant::now();
    let child = match cmd.spawn() {
        Ok(child) => child,
        // the limit is too small even to load the program: that row's memout
        Err(e) if memory_bytes.is_some() && e.raw_os_error() == Some(libc::ENOMEM) => {
            return Ok(Some(Outcome {
                stdout: String::new(),
                stderr: format!(
                    "starting the worker: {e} (address-space limit {} MiB)",
                    grid.memory_mib.unwrap_or(0)
                ),
                exit: Exit::Code(127),
                wall_seconds: Some(start.elapsed().as_secs_f64()),
                peak_rss_kib: None,
            }))
        }
        Err(e) => return Err(e).with_context(|| format!("starting worker {}", argv[0])),
    };
    let pid = child.id() as libc::pid_t;
    let hard = Duration::from_secs_f64(hard_limit(grid.timeout));
    let mut nap = Duration::from_millis(1);
    let mut timed_out = false;
    loop {
        if has_exited(pid)? {
            break;
        }
        let interrupted = interrupt.load(Ordering::SeqCst);
        if interrupted || start.elapsed() >= hard {
            kill_group(pid);
            if interrupted {
                wait4(pid)?;
                return Ok(None);
            }
            timed_out = true;
            break;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(50));
    }
    let wall = start.elapsed().as_secs_f64();
    // a solver the worker started may outlive it: end the group while the
    // unreaped worker still holds the group's id, then reap
    kill_group(pid);
    let (status, usage) = wait4(pid)?;
    drop(child);
    let exit = if timed_out {
        Exit::TimedOut
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let read = |p: &Path| {
        std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    let stdout = read(&out_path);
    let mut stderr = read(&err_path);
    if let (Some(m), Exit::Signal(sig)) = (grid.memory_mib, exit) {
        // under a small address-space limit a program dies while loading,
        // before it can say so (no allocation-failure message): a memout
        let silent = stdout.is_empty() && stderr.trim().is_empty();
        if silent && [libc::SIGSEGV, libc::SIGBUS, libc::SIGABRT].contains(&sig) {
            stderr = format!(
                "out of memory: died by signal {sig} before writing anything, under the address-space limit of {m} MiB"
            );
        }
    }
    Ok(Some(Outcome {
        stdout,
        stderr,
        exit,
        wall_seconds: Some(wall),
        peak_rss_kib: Some(usage.ru_maxrss.max(0) as u64),
    }))
}

/// Whether our child has ended, without reaping it (`waitid` with `WNOWAIT`).
fn has_exited(pid: libc::pid_t) -> anyhow::Result<bool> {
    loop {
        // SAFETY: siginfo_t is plain data; waitid fills it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer to a local; pid is our unreaped child.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if r == 0 {
            // SAFETY: waitid succeeded, si_pid is set (0 if nothing ended)
            return Ok(unsafe { info.si_pid() } == pid);
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err).context("waiting for a worker");
        }
    }
}

/// Reaps our own child (blocking): its wait status and resource usage.
fn wait4(pid: libc::pid_t) -> anyhow::Result<(libc::c_int, libc::rusage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to locals; pid is our unreaped child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err).context("waiting for a worker");
        }
    }
}

/// SIGKILL to the worker's process group (ignored if it is gone).
fn kill_group(pid: libc::pid_t) {
    // SAFETY: plain system call.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}
