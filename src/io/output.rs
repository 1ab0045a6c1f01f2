//! One way to write a file: every output of the program (`-o` of `dimacs`
//! and `opb`, `--map`, `--svg`, the files of `--proof-dir`, the
//! experiment's stores and plots) is written here, and what it may write
//! is checked before any work ([`check_file`], [`check_folder`],
//! [`refuse_onto_inputs`]: `--svg adir` fails before solving).
//!
//! - **Whole or not at all.** A file is written under a temporary name
//!   beside it ([`Pending`]) and renamed into place when complete; a full
//!   disk, an error, a time limit or a signal leaves the old file (or
//!   none), and no temporary file ([`remove_temporaries`] runs on the way
//!   out of a stopped run).
//! - **A symbolic link is followed, a write-protected file refused.** `-o
//!   link` writes the file the link points to and keeps the link, as the
//!   shell's `>` does; a file without write permission is refused (as `>`
//!   refuses it), never replaced; a replaced file keeps its permission bits.
//! - **Never onto an input.** An output naming a file the same run reads
//!   (`--svg` onto `--cube-file`, `-o` onto `--instance`) is refused.
//! - **Proof files are new files.** The files of `--proof-dir` get names no
//!   file of the folder has ([`publish_new`]: `STEM.pbp`, else `STEM-2.pbp`
//!   …), by a link that fails rather than replace anything, so two runs
//!   into one folder never clobber each other and no link in the folder is
//!   followed out of it.
//!
//! A path that exists and is not a regular file (`/dev/stdout`, a FIFO,
//! `/dev/null`) is written directly.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context};

/// The temporary files being written now (removed by [`remove_temporaries`]).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary file still being written: called on the way out
/// of a run stopped by a limit or a signal.
pub fn remove_temporaries() {
    let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    for p in pending.iter() {
        let _ = std::fs::remove_file(p);
    }
}

/// A file written under a temporary name beside its destination, removed
/// unless it is renamed ([`Pending::replace`]) or linked
/// ([`publish_new`]) into place.
pub struct Pending {
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Pending {
    /// A new temporary file in `dir` for a file named `name`:
    /// `.tmpPID-K.NAME`, keeping its extension (mode 0666 less the umask,
    /// like a file `std::fs::write` creates).
    pub fn new(dir: &Path, name: &str) -> anyhow::Result<Pending> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let tmp = dir.join(format!(
                ".tmp{}-{}.{name}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    pending.push(tmp.clone());
                    return Ok(Pending {
                        tmp,
                        out: Some(BufWriter::new(f)),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!(
                            "creating a temporary file for {}",
                            dir.join(name).display()
                        )
                    })
                }
            }
        }
    }

    /// The temporary file's path (for a writer that opens the file by
    /// its name, such as the PNG encoder, which reads its extension).
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Where to write.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("a pending file is open until it is placed")
    }

    /// Flushes and syncs the file, and closes it.
    fn complete(&mut self) -> std::io::Result<()> {
        if let Some(out) = self.out.take() {
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_data()?;
        }
        Ok(())
    }

    /// Completes the file and renames it over `path`.
    pub fn replace(mut self, path: &Path) -> std::io::Result<()> {
        self.complete()?;
        std::fs::rename(&self.tmp, path)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| p != &self.tmp);
    }
}

/// Checks, before any work, that `path` can be written as the output
/// `flag` (e.g. `--svg`): not a directory, not write-protected, not a link
/// to nowhere, in a folder that exists and can be written. A device or a
/// FIFO is written directly (`/dev/stdout`).
pub fn check_file(flag: &str, path: &Path) -> anyhow::Result<()> {
    let at = || format!("{flag} {}", path.display());
    let target = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!("{}: a directory, not a file: give a file name", at()),
        Ok(m) if !m.is_file() => return Ok(()),
        Ok(m) if m.permissions().readonly() => bail!(
            "{}: write-protected (mode {:o}): refused, the file is left as it was; make it writable or give another file",
            at(),
            m.mode() & 0o7777
        ),
        Ok(_) => std::fs::canonicalize(path).with_context(at)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if path.symlink_metadata().is_ok() {
                bail!("{}: a symbolic link to a missing file: refused", at());
            }
            path.to_path_buf()
        }
        Err(e) => return Err(e).with_context(at),
    };
    let folder = folder_of(&target);
    match std::fs::metadata(&folder) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!("{}: {} is not a folder", at(), folder.display()),
        Err(e) => {
            return Err(e).with_context(|| format!("{}: its folder {}", at(), folder.display()))
        }
    }
    probe(&folder).with_context(|| format!("{}: its folder {} cannot be written", at(), folder.display()))
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates and removes a file in `folder`: whether files can be made there
/// (a read-only file system fails here, whoever runs).
fn probe(folder: &Path) -> anyhow::Result<()> {
    drop(Pending::new(folder, "puzzlesat-probe")?);
    Ok(())
}

/// Checks, before any work, the folder `dir` of the output `flag` (e.g.
/// `--proof-dir`): created if missing, a folder (not a file), and one where
/// files can be made.
pub fn check_folder(flag: &str, dir: &Path) -> anyhow::Result<()> {
    let at = || format!("{flag} {}", dir.display());
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!("{}: not a folder (a file of that name exists): give a folder", at()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).with_context(|| format!("{}: creating it", at()))?
        }
        Err(e) => return Err(e).with_context(at),
    }
    probe(dir).with_context(|| format!("{}: no file can be made in it", at()))
}

/// Refuses, before any work, an output (`flag`, path) that names the same
/// file as an input of the run (by device and inode, so a link or another
/// spelling is caught), or the same file as another output.
pub fn refuse_onto_inputs(
    outputs: &[(&str, &Path)],
    inputs: &[(&str, &Path)],
) -> anyhow::Result<()> {
    let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    for &(out_flag, out) in outputs {
        let Some(out_id) = id(out) else { continue };
        for &(in_flag, input) in inputs {
            if id(input) == Some(out_id) {
                bail!(
                    "{out_flag} {} is the {in_flag} file this run reads: writing it would replace that input; give another file",
                    out.display()
                );
            }
        }
    }
    for (k, &(a_flag, a)) in outputs.iter().enumerate() {
        for &(b_flag, b) in &outputs[k + 1..] {
            if same_place(a, b) {
                bail!(
                    "{a_flag} {} and {b_flag} {} name the same file: give two files",
                    a.display(),
                    b.display()
                );
            }
        }
    }
    Ok(())
}

/// Whether two output paths name one file (existing or not).
fn same_place(a: &Path, b: &Path) -> bool {
    let place = |p: &Path| {
        std::fs::canonicalize(p).ok().or_else(|| {
            let folder = std::fs::canonicalize(folder_of(p)).ok()?;
            Some(folder.join(p.file_name()?))
        })
    };
    matches!((place(a), place(b)), (Some(x), Some(y)) if x == y)
}

/// Writes `path` through `write`, whole or not at all (see the module's
/// rules): a link is followed and kept, a write-protected file refused, a
/// replaced file keeps its mode; the error names `path`.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let at = || format!("writing {}", path.display());
    let existing = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(at),
    };
    if let Some(m) = existing.as_ref().filter(|m| !m.is_file()) {
        if m.is_dir() {
            bail!("{}: a directory, not a file", at());
        }
        let file = OpenOptions::new().write(true).open(path).with_context(at)?;
        let mut out = BufWriter::new(file);
        write(&mut out).with_context(at)?;
        return out.flush().with_context(at);
    }
    let target = match &existing {
        Some(m) if m.permissions().readonly() => bail!(
            "{}: write-protected (mode {:o}): refused, the file is left as it was",
            at(),
            m.mode() & 0o7777
        ),
        // a link is replaced at its target, and stays
        Some(_) => std::fs::canonicalize(path).with_context(at)?,
        None if path.symlink_metadata().is_ok() => {
            bail!("{}: a symbolic link to a missing file: refused", at())
        }
        None => path.to_path_buf(),
    };
    let name = target
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?
        .to_string_lossy()
        .into_owned();
    let mut pending = Pending::new(&folder_of(&target), &name).with_context(at)?;
    write(pending.writer()).with_context(at)?;
    if let Some(m) = &existing {
        std::fs::set_permissions(&pending.tmp, m.permissions()).with_context(at)?;
    }
    pending.replace(&target).with_context(at)
}

/// [`write_atomic`] of a string.
pub fn write_string_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    write_atomic(path, |out| Ok(out.write_all(text.as_bytes())?))
}

/// Places completed files into `dir` under new names sharing one stem:
/// `STEM.EXT` for every `(ext, file)`, or `STEM-2.EXT`, `STEM-3.EXT` … the
/// first stem none of whose names exists. Each name is made by a hard link
/// that fails on any existing entry (a file, a link, another run's file
/// placed a moment before), so nothing is replaced and nothing followed.
/// Returns the paths, in the order given.
pub fn publish_new(
    dir: &Path,
    stem: &str,
    files: Vec<(&str, Pending)>,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = files;
    for (_, f) in &mut files {
        f.complete()
            .with_context(|| format!("writing {}", f.tmp.display()))?;
    }
    for k in 1u64.. {
        let stem = match k {
            1 => stem.to_string(),
            k => format!("{stem}-{k}"),
        };
        let mut placed: Vec<PathBuf> = vec![];
        let mut taken = false;
        for (ext, f) in &files {
            let path = dir.join(format!("{stem}.{ext}"));
            match std::fs::hard_link(&f.tmp, &path) {
                Ok(()) => placed.push(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    taken = true;
                    break;
                }
                Err(e) => {
                    for p in &placed {
                        let _ = std::fs::remove_file(p);
                    }
                    return Err(e).with_context(|| format!("writing {}", path.display()));
                }
            }
        }
        if !taken {
            // the temporary names go when `files` is dropped
            return Ok(placed);
        }
        for p in &placed {
            let _ = std::fs::remove_file(p);
        }
    }
    unreachable!("some stem is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
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
        assert_eq!(entries(dir.path()), ["out.txt"], "no temporary file left behind");
        let err = write_string_atomic(Path::new("/dev/full"), "x").unwrap_err();
        assert!(format!("{err:#}").contains("/dev/full"), "{err:#}");
    }

    #[test]
    fn links_are_followed_modes_kept_protected_files_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (file, link) = (dir.path().join("f"), dir.path().join("link"));
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink("f", &link).unwrap();
        write_string_atomic(&link, "new").unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = check_file("-o", &link).unwrap_err();
        assert!(format!("{e:#}").contains("write-protected (mode 444)"), "{e:#}");
        assert!(write_string_atomic(&file, "x").is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let e = check_file("--svg", dir.path()).unwrap_err();
        assert!(format!("{e:#}").contains("a directory"), "{e:#}");
    }

    #[test]
    fn outputs_onto_inputs_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.toml");
        std::fs::write(&input, "x").unwrap();
        let other = dir.path().join("./in.toml");
        let e = refuse_onto_inputs(&[("-o", &other)], &[("--instance", &input)]).unwrap_err();
        assert!(e.to_string().contains("is the --instance file"), "{e}");
        let fresh = dir.path().join("new.svg");
        refuse_onto_inputs(&[("-o", &fresh)], &[("--instance", &input)]).unwrap();
        let e = refuse_onto_inputs(&[("-o", &fresh), ("--map", &fresh)], &[]).unwrap_err();
        assert!(e.to_string().contains("name the same file"), "{e}");
    }

    #[test]
    fn published_names_are_new() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let proofs = dir.path().join("proofs");
        std::fs::create_dir(&proofs).unwrap();
        std::os::unix::fs::symlink("../victim.txt", proofs.join("s.pbp")).unwrap();
        let publish = || {
            let mut a = Pending::new(&proofs, "s.opb").unwrap();
            a.writer().write_all(b"model").unwrap();
            let mut b = Pending::new(&proofs, "s.pbp").unwrap();
            b.writer().write_all(b"proof").unwrap();
            publish_new(&proofs, "s", vec![("opb", a), ("pbp", b)]).unwrap()
        };
        let first = publish();
        assert_eq!(first, [proofs.join("s-2.opb"), proofs.join("s-2.pbp")]);
        let second = publish();
        assert_eq!(second, [proofs.join("s-3.opb"), proofs.join("s-3.pbp")]);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(
            entries(&proofs),
            ["s-2.opb", "s-2.pbp", "s-3.opb", "s-3.pbp", "s.pbp"]
        );
    }
}
