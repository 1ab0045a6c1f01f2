//! Files in and out: DIMACS CNF reading and writing, WCNF and OPB writing
//! ([`dimacs`]), SAT-competition solver output (`s`/`v` lines, MiniSat
//! result files: [`solver_output`]), generated formulas with known answers
//! for tests and benches ([`generate`]), and the two helpers every reader
//! and writer shares: [`show`] (input quoted in a message) and
//! [`write_atomic`] (a file appears whole or not at all).

pub mod dimacs;
pub mod generate;
pub mod opb;
pub mod solver_output;

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context;

/// Input bytes as they may appear in a one-line message: control bytes,
/// NUL and non-ASCII escaped (`\x00`, `\n`, `\xff`), cut after 40 bytes.
pub fn show(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let mut s = bytes[..bytes.len().min(MAX)].escape_ascii().to_string();
    if bytes.len() > MAX {
        s.push_str("...");
    }
    s
}

/// A message on one line: its lines joined by `; ` (TOML's messages
/// span lines).
pub fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// 1-based line and column (in characters) of a byte offset of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A TOML parse error of `file` as one line: `FILE:LINE:COL: message`.
pub fn toml_error(file: &Path, text: &str, e: &toml::de::Error) -> String {
    let (line, col) = line_col(text, e.span().map_or(0, |s| s.start));
    format!("{}:{line}:{col}: {}", file.display(), one_line(e.message()))
}

/// Writes `path` through `write`, atomically: the bytes go to a temporary
/// file in the same folder, which is flushed, synced and renamed over
/// `path` only when complete. A full disk, an I/O error or a kill leaves
/// the old file (or none), never a truncated one; the error names `path`.
/// A `path` that exists and is not a regular file (`/dev/stdout`, a FIFO,
/// `/dev/full`) is written directly.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let direct = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
    if direct {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let mut out = BufWriter::new(file);
        write(&mut out).with_context(|| format!("writing {}", path.display()))?;
        return out
            .flush()
            .with_context(|| format!("writing {}", path.display()));
    }
    let (tmp_path, file) = temporary_beside(path)?;
    let result = (|| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        out.flush()?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_data()?;
        std::fs::rename(&tmp_path, path)?;
        anyhow::Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp_path);
    }
    result.with_context(|| format!("writing {}", path.display()))
}

/// [`write_atomic`] of a string.
pub fn write_string_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    write_atomic(path, |out| Ok(out.write_all(text.as_bytes())?))
}

/// A new file `.NAME.tmpPID-K` beside `path` (mode 0666 less the umask,
/// like a file `std::fs::write` creates).
fn temporary_beside(path: &Path) -> anyhow::Result<(std::path::PathBuf, File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?;
    loop {
        let tmp = path.with_file_name(format!(
            ".{}.tmp{}-{}",
            name.to_string_lossy(),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("creating a temporary file for {}", path.display()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn show_escapes_and_cuts() {
        assert_eq!(show(b"a\0b\xff\n"), "a\\x00b\\xff\\n");
        assert_eq!(show(&[b'x'; 50]).len(), 43);
    }

    #[test]
    fn atomic_write_replaces_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_string_atomic(&path, "old").unwrap();
        let err = write_atomic(&path, |out| {
            out.write_all(b"half")?;
            anyhow::bail!("disk full")
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("out.txt"), "{err:#}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
        let err = write_string_atomic(Path::new("/dev/full"), "x").unwrap_err();
        assert!(format!("{err:#}").contains("/dev/full"), "{err:#}");
    }
}
