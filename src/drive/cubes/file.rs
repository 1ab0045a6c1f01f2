//! The cube file of `--cubes` (`--cube-file`): lines appended as cubes
//! finish, each fingerprinted with what it says and what it is about, and
//! read back by a resumed run, which refuses what does not belong to it
//! (another run, build or CNF, a line edited since it was written, a
//! witness outside its cube, records that contradict each other).

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context};
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;
use serde::Serialize;

use super::{better, Split};
use crate::certify::{Certified, Fnv};
use crate::drive::Objective;
use crate::report::{CubeRecord, Report};

/// A model over variables `0..n_vars` as hex digits (see [`CubeRecord::witness`]).
pub fn witness_hex(model: &Assignment, n_vars: u32) -> String {
    let v = model.values();
    (0..n_vars as usize)
        .step_by(4)
        .map(|k| {
            let digit = (0..4).fold(0u32, |d, b| {
                d | (u32::from(v.get(k + b).copied().unwrap_or(false)) << b)
            });
            char::from_digit(digit, 16).expect("a hex digit")
        })
        .collect()
}

/// The model a witness stands for.
pub fn witness_model(hex: &str, n_vars: u32) -> anyhow::Result<Assignment> {
    if hex.len() != (n_vars as usize).div_ceil(4) {
        bail!(
            "a witness of {} hex digits, expected {}",
            hex.len(),
            (n_vars as usize).div_ceil(4)
        );
    }
    let mut values = Vec::with_capacity(n_vars as usize);
    for c in hex.chars() {
        let d = c
            .to_digit(16)
            .with_context(|| format!("'{c}' in a witness is not a hex digit"))?;
        values.extend((0..4).map(|b| d >> b & 1 == 1));
    }
    values.truncate(n_vars as usize);
    Ok(Assignment::from_values(values))
}

/// The build that writes cube records: the crate's version and the git
/// commit it was built from (`build.rs`; `unknown` outside a checkout).
pub const BUILD: &str = concat!(
    "puzzlesat ",
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PUZZLESAT_COMMIT"),
    ")"
);

/// The fingerprint of a cube record ([`CubeRecord::fingerprint`]): what it
/// says (`objective`, `bound`, `closed`, `witness`, the formula digests of
/// its `certificates`) and what about (the puzzle and options, the build,
/// the CNF digest, the cube's literals).
pub fn fingerprint(
    describe: &str,
    c: &CubeRecord,
    cube: &[Lit],
    (objective, bound): (Option<i64>, Option<i64>),
    certificates: &[Certified],
) -> String {
    let value = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    let certified = certificates
        .iter()
        .fold(Fnv::default(), |h, c| h.text(&c.formula_digest));
    Fnv::default()
        .text(&certified.hex())
        .text(describe)
        .text(&c.build)
        .text(&c.cnf)
        .clause(cube.iter().map(|l| l.to_ipasir()))
        .text(&value(objective))
        .text(&value(bound))
        .text(if c.closed { "closed" } else { "open" })
        .text(c.witness.as_deref().unwrap_or("-"))
        .hex()
}

/// The tightest bound a cube file records for a cube, and who wrote it.
#[derive(Clone, Debug)]
pub(super) struct Recorded {
    pub(super) bound: i64,
    /// "BUILD, CNF digest"
    pub(super) writer: String,
    /// of another build or CNF (taken under `--trust-cube-file`)
    pub(super) foreign: bool,
    /// the line's certificate, when it was written with `--certify`
    pub(super) certificate: Option<Certified>,
}

/// What a cube file holds: per cube the tightest bound, and the best witness.
pub(super) struct Known {
    pub(super) bounds: Vec<Option<Recorded>>,
    pub(super) best: Option<(i64, u32, String)>,
    pub(super) lines: usize,
}

impl Known {
    pub(super) fn nothing(split: &Split) -> Self {
        Known {
            bounds: vec![None; split.cubes() as usize],
            best: None,
            lines: 0,
        }
    }
    /// The recorded bound of each cube.
    pub(super) fn bound_values(&self) -> Vec<Option<i64>> {
        self.bounds
            .iter()
            .map(|r| r.as_ref().map(|r| r.bound))
            .collect()
    }
}

/// What the lines of a cube file must be about: this run's problem.
pub(super) struct Expected<'a> {
    pub(super) describe: &'a str,
    pub(super) cnf: &'a Cnf,
    /// [`formula_digest`] of `cnf`
    pub(super) digest: &'a str,
    pub(super) split: &'a Split,
    pub(super) obj: &'a Objective,
    /// `--trust-cube-file`: take records of another build or CNF
    pub(super) trust: bool,
}

/// A line of a cube file read back: its report, untyped.
pub(super) type CubeLine = Report<serde_json::Value, serde_json::Value>;

use crate::io::input::BOM;

/// The lines of the cube file ([`report_lines`]), each a cube report about
/// this run's problem (`describe`, `cnf`'s size, the split): a line of
/// another run is refused, and the file is left as it was.
pub(super) fn cube_lines(
    file: &CubeFile,
    describe: &str,
    cnf: &Cnf,
    split: &Split,
) -> anyhow::Result<Vec<(usize, CubeLine)>> {
    let counts = cnf.counts();
    let literals = split.dimacs();
    let lines = report_lines(file, describe)?;
    for (k, r) in &lines {
        let c = r.cube.as_ref().expect("report_lines: a cube report");
        if r.puzzle != describe
            || (r.vars, r.clauses, r.literals) != (counts.vars, counts.clauses, counts.literals)
            || c.cubes != split.cubes()
            || c.literals != literals
        {
            bail!(
                "{} line {}: a cube of another run ({}, {} vars, {} clauses, {} cubes on literals {:?}); this run is {}, {} vars, {} clauses, {} cubes on literals {:?}: give another --cube-file, or the options the file was written with",
                file.path.display(), k + 1,
                r.puzzle, r.vars, r.clauses, c.cubes, c.literals,
                describe, counts.vars, counts.clauses, split.cubes(), literals
            );
        }
    }
    Ok(lines)
}

/// The lines of the cube file (none if it was missing), each a report with
/// a cube record (index below its `cubes`), with its 0-based line number;
/// whether a line is about this run is the caller's check. A UTF-8 byte
/// order mark at its head is skipped. The last line may lack its newline:
/// if it is a whole record it is kept (the newline is added before the next
/// line is appended); if it is a record of this run's kind (`describe`) cut
/// short by a kill, it is not a fact and is cut off before anything is
/// appended ([`CubeFile::append`]). Any other content (a file that is not a
/// cube file) is refused, and the file is left as it was.
pub(super) fn report_lines(
    file: &CubeFile,
    describe: &str,
) -> anyhow::Result<Vec<(usize, CubeLine)>> {
    let path = &file.path;
    let lines = file.records("a cube report", CubeLine::from_json_line, |l| {
        torn_record(l, describe)
    })?;
    for (k, r) in &lines {
        let at = || format!("{} line {}", path.display(), k + 1);
        let Some(c) = &r.cube else {
            bail!("{}: a report without a cube (not written by --cubes)", at());
        };
        if c.index >= c.cubes {
            bail!("{}: cube {} of {}", at(), c.index, c.cubes);
        }
    }
    Ok(lines)
}

/// A last line (without its newline) that a kill cut short while this run's
/// kind of record was written: it begins as every record of `describe`
/// begins (`{"schema_version":N,"puzzle":"…"`), or is a beginning of that.
fn torn_record(line: &[u8], describe: &str) -> bool {
    let head = format!(
        "{{\"schema_version\":{},\"puzzle\":{},",
        crate::report::SCHEMA_VERSION,
        serde_json::Value::from(describe)
    );
    let head = head.as_bytes();
    !line.is_empty() && (line.starts_with(head) || head.starts_with(line))
}

/// Reads the cube file (missing: nothing known), refusing lines of another
/// run, of another build or CNF (unless trusted), lines edited since they
/// were written, witnesses outside their cube, and bounds that a witness of
/// their cube beats.
pub(super) fn read_file(file: &CubeFile, e: &Expected) -> anyhow::Result<Known> {
    let (split, sense) = (e.split, e.obj.sense);
    let path = &file.path;
    let mut known = Known::nothing(split);
    let lines = cube_lines(file, e.describe, e.cnf, split)?;
    // per cube: its best witness value, and the line it is on
    let mut values: Vec<Option<(i64, usize)>> = vec![None; split.cubes() as usize];
    let mut bound_lines = vec![0usize; split.cubes() as usize];
    for (k, r) in lines {
        let at = || format!("{} line {}", path.display(), k + 1);
        let c = r.cube.as_ref().expect("cube_lines: a cube report");
        let cube = split.cube(c.index);
        let certificates = r.certificates.as_deref().unwrap_or_default();
        if c.fingerprint != fingerprint(e.describe, c, &cube, (r.objective, r.bound), certificates)
        {
            bail!(
                "{}: the record of cube {} does not match its fingerprint (edited since it was written?): refused",
                at(),
                c.index
            );
        }
        let foreign = c.build != BUILD || c.cnf != e.digest;
        if foreign && !e.trust {
            bail!(
                "{}: written by {} for a CNF of digest {}; this run is {}, CNF digest {}: its bounds are facts about that build's formula, not this one's: give --trust-cube-file to take them (the claim then says trusted), or another --cube-file",
                at(),
                c.build,
                c.cnf,
                BUILD,
                e.digest
            );
        }
        known.lines += 1;
        if let Some(b) = r.bound {
            let slot = &mut known.bounds[c.index as usize];
            if slot.as_ref().map_or(true, |s| better(sense, s.bound, b)) {
                *slot = Some(Recorded {
                    bound: b,
                    writer: format!("{}, CNF {}", c.build, c.cnf),
                    foreign,
                    certificate: r.certificates.iter().flatten().next().cloned(),
                });
                bound_lines[c.index as usize] = k + 1;
            }
        }
        if let (Some(v), Some(w)) = (r.objective, &c.witness) {
            // a witness is a model of its cube with its value
            let model = witness_model(w, e.cnf.n_vars())
                .with_context(|| format!("{}: the witness of cube {}", at(), c.index))?;
            if !cube.iter().all(|&l| model.lit(l)) {
                bail!(
                    "{}: the witness of cube {} is not in that cube",
                    at(),
                    c.index
                );
            }
            if e.obj.value(&model) != v {
                bail!(
                    "{}: the witness of cube {} has value {}, not the objective {v} of its line",
                    at(),
                    c.index,
                    e.obj.value(&model)
                );
            }
            let slot = &mut values[c.index as usize];
            if slot.map_or(true, |(b, _)| better(sense, v, b)) {
                *slot = Some((v, k + 1));
            }
            if known
                .best
                .as_ref()
                .map_or(true, |(b, _, _)| better(sense, v, *b))
            {
                known.best = Some((v, c.index, w.clone()));
            }
        }
    }
    // no witness of a cube may beat a bound recorded for that cube
    for (i, (r, v)) in known.bounds.iter().zip(&values).enumerate() {
        if let (Some(r), Some((v, line))) = (r, v) {
            if better(sense, *v, r.bound) {
                bail!(
                    "{}: line {} records that no model of cube {i} is better than {}, but line {line} holds a witness of value {v} in that cube: the records contradict each other",
                    path.display(),
                    bound_lines[i],
                    r.bound
                );
            }
        }
    }
    Ok(known)
}

/// What the last line of the cube file needs before a line is appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tail {
    /// nothing: the file is empty or ends with a newline
    Clean,
    /// a whole record lacking only its newline: add it
    Newline,
    /// a record cut short by a kill: cut the file back to this length
    Cut(usize),
}

/// The cube file of a run: opened (created if missing), locked for the
/// run's whole length, read, and appended to, each line flushed to disk
/// before it counts.
///
/// - **Only regular files.** A FIFO, a device or a directory is refused
///   before it is opened (`stat`; the open itself is non-blocking, so a
///   file swapped for a FIFO in between does not hang the run either).
/// - **One writer at a time.** An exclusive advisory lock (`flock`, the
///   lock of `flock(1)` and of other tools) is taken without waiting; a file
///   another process holds locked (another run on it) is refused, so two
///   writers never interleave their lines or cut each other's.
/// - **Nothing but records is changed.** The file is changed only by
///   appending records, adding the missing newline of a whole last record,
///   or cutting off a last line that is a record of this run's kind cut
///   short ([`cube_lines`]); and only when a line is appended, after every
///   line was read and accepted.
pub(crate) struct CubeFile {
    file: Option<Mutex<File>>,
    path: PathBuf,
    /// the bytes the file held when it was opened
    read: Vec<u8>,
    /// what its last line needs before a line is appended
    tail: Mutex<Tail>,
}

impl CubeFile {
    /// Opens and locks `path` (None: no file, appending does nothing), and
    /// reads what it holds (at most [`crate::io::input::DATA_CAP`] bytes).
    pub(crate) fn open(path: Option<&Path>) -> anyhow::Result<Self> {
        let mut cube_file = CubeFile {
            file: None,
            path: path.map(Path::to_path_buf).unwrap_or_default(),
            read: vec![],
            tail: Mutex::new(Tail::Clean),
        };
        let Some(p) = path else {
            return Ok(cube_file);
        };
        let regular = |m: &std::fs::Metadata| {
            if m.is_file() {
                Ok(())
            } else {
                Err(anyhow::anyhow!(
                    "--cube-file {}: not a regular file (a FIFO, a device or a directory): a cube file is a regular file that records are appended to; give another --cube-file",
                    p.display()
                ))
            }
        };
        match std::fs::metadata(p) {
            Ok(m) => regular(&m)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("--cube-file {}", p.display())),
        }
        let mut f = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(p)
            .with_context(|| format!("opening {}", p.display()))?;
        regular(&f.metadata()?)?;
        // SAFETY: flock on a file descriptor this function owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::WouldBlock {
                bail!(
                    "--cube-file {}: locked by another process (another run writing it?): wait for it to end, or give another --cube-file",
                    p.display()
                );
            }
            return Err(e).with_context(|| format!("locking {}", p.display()));
        }
        crate::io::input::check_size(p, &f, crate::io::input::DATA_CAP)?;
        f.read_to_end(&mut cube_file.read)
            .with_context(|| format!("reading {}", p.display()))?;
        cube_file.file = Some(Mutex::new(f));
        Ok(cube_file)
    }

    /// The file's path (empty without one).
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The records of the file (`what`, e.g. "a cube report"), each line
    /// parsed by `parse`, with its 0-based line number. A UTF-8 byte order
    /// mark at its head is skipped, blank lines too. The last line may
    /// lack its newline: if it parses it is kept (the newline is added
    /// before the next line is appended); if `torn` says it is a record of
    /// this run's kind cut short by a kill, it is not a fact and is cut off
    /// before anything is appended ([`CubeFile::append_line`]). Any other
    /// content (a file that is not a cube file) is refused, and the file is
    /// left as it was.
    pub(crate) fn records<T>(
        &self,
        what: &str,
        parse: impl Fn(&str) -> anyhow::Result<T>,
        torn: impl Fn(&[u8]) -> bool,
    ) -> anyhow::Result<Vec<(usize, T)>> {
        let (path, bytes) = (&self.path, &self.read);
        let mut lines = vec![];
        let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
        for (k, line) in body.split_inclusive(|&b| b == b'\n').enumerate() {
            let at = || format!("{} line {}", path.display(), k + 1);
            let ends = line.ends_with(b"\n");
            let text = std::str::from_utf8(line).ok();
            let parsed = text.filter(|t| !t.trim().is_empty()).map(&parse);
            if !ends {
                // the last line, without its newline
                match parsed {
                    Some(Ok(_)) => *self.tail.lock().expect("tail lock") = Tail::Newline,
                    None if text.is_some_and(|t| t.trim().is_empty()) => break,
                    _ if torn(line) => {
                        *self.tail.lock().expect("tail lock") =
                            Tail::Cut(bytes.len() - line.len());
                        break;
                    }
                    _ => bail!(
                        "{}: neither {what} nor one cut short by a kill (is {} a cube file?): refused, the file is left as it was; give another --cube-file",
                        at(),
                        path.display()
                    ),
                }
            }
            let r = match parsed {
                None if text.is_none() => bail!(
                    "{}: not UTF-8 text (is {} a cube file?): refused, the file is left as it was",
                    at(),
                    path.display()
                ),
                None => continue, // a blank line
                Some(r) => r.with_context(|| {
                    format!(
                        "{}: not {what} (is {} a cube file?): refused, the file is left as it was",
                        at(),
                        path.display()
                    )
                })?,
            };
            lines.push((k, r));
        }
        Ok(lines)
    }

    /// Appends a report as one line, first settling the file's last line
    /// ([`Tail`]), and flushes it to disk.
    pub(super) fn append<S: Serialize, D: Serialize>(
        &self,
        r: &Report<S, D>,
    ) -> anyhow::Result<()> {
        self.append_line(&serde_json::to_string(r)?)
    }

    /// Appends `line` and its newline, first settling the file's last line
    /// ([`Tail`]), and flushes it to disk.
    pub(crate) fn append_line(&self, line: &str) -> anyhow::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let line = format!("{line}\n");
        let mut f = file.lock().expect("cube file lock");
        let what = || format!("writing {}", self.path.display());
        let mut tail = self.tail.lock().expect("tail lock");
        match *tail {
            Tail::Clean => {}
            Tail::Newline => f.write_all(b"\n").with_context(what)?,
            Tail::Cut(len) => f.set_len(len as u64).with_context(|| {
                format!("cutting the torn last line of {}", self.path.display())
            })?,
        }
        *tail = Tail::Clean;
        f.write_all(line.as_bytes())
            .and_then(|()| f.sync_data())
            .with_context(what)
    }
}
