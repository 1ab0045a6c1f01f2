//! The cube file of `--cubes` (`--cube-file`): lines appended as cubes
//! finish, each fingerprinted with what it says and what it is about, and
//! read back by a resumed run, which refuses what does not belong to it
//! (another run, build or CNF, a line edited since it was written, a
//! witness outside its cube, records that contradict each other).

use std::fs::{File, OpenOptions};
use std::io::Write;
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
    /// bytes of whole lines (a torn last line is cut off)
    pub(super) whole: usize,
}

impl Known {
    pub(super) fn nothing(split: &Split) -> Self {
        Known {
            bounds: vec![None; split.cubes() as usize],
            best: None,
            lines: 0,
            whole: 0,
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

/// The whole lines of the cube file `path` ([`report_lines`]), each a cube
/// report about this run's problem (`describe`, `cnf`'s size, the split):
/// a line of another run is refused.
pub(super) fn cube_lines(
    path: &Path,
    describe: &str,
    cnf: &Cnf,
    split: &Split,
) -> anyhow::Result<(Vec<(usize, CubeLine)>, usize)> {
    let counts = cnf.counts();
    let literals = split.dimacs();
    let (lines, whole) = report_lines(path)?;
    for (k, r) in &lines {
        let c = r.cube.as_ref().expect("report_lines: a cube report");
        if r.puzzle != describe
            || (r.vars, r.clauses, r.literals) != (counts.vars, counts.clauses, counts.literals)
            || c.cubes != split.cubes()
            || c.literals != literals
        {
            bail!(
                "{} line {}: a cube of another run ({}, {} vars, {} clauses, {} cubes on literals {:?}); this run is {}, {} vars, {} clauses, {} cubes on literals {:?}: give another --cube-file, or the options the file was written with",
                path.display(), k + 1,
                r.puzzle, r.vars, r.clauses, c.cubes, c.literals,
                describe, counts.vars, counts.clauses, split.cubes(), literals
            );
        }
    }
    Ok((lines, whole))
}

/// The whole lines of the cube file `path` (none if it is missing), each a
/// report with a cube record (index below its `cubes`), with its 0-based
/// line number; and the bytes of whole lines (a line cut short by a kill
/// while it was written is not a fact: the file is cut back to the last
/// whole line before appending). Whether a line is about this run is the
/// caller's check.
pub(super) fn report_lines(path: &Path) -> anyhow::Result<(Vec<(usize, CubeLine)>, usize)> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((vec![], 0)),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let mut whole = bytes.len();
    let mut lines = vec![];
    for (k, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !line.ends_with(b"\n") {
            whole -= line.len();
            break;
        }
        let at = || format!("{} line {}", path.display(), k + 1);
        let Ok(line) = std::str::from_utf8(line) else {
            bail!("{}: not UTF-8 text", at());
        };
        if line.trim().is_empty() {
            continue;
        }
        let r: CubeLine =
            Report::from_json_line(line).with_context(|| format!("{}: not a cube report", at()))?;
        let Some(c) = &r.cube else {
            bail!("{}: a report without a cube (not written by --cubes)", at());
        };
        if c.index >= c.cubes {
            bail!("{}: cube {} of {}", at(), c.index, c.cubes);
        }
        lines.push((k, r));
    }
    Ok((lines, whole))
}

/// Reads `path` (missing: nothing known), refusing lines of another run, of
/// another build or CNF (unless trusted), lines edited since they were
/// written, witnesses outside their cube, and bounds that a witness of
/// their cube beats.
pub(super) fn read_file(path: &Path, e: &Expected) -> anyhow::Result<Known> {
    let (split, sense) = (e.split, e.obj.sense);
    let mut known = Known::nothing(split);
    let (lines, whole) = cube_lines(path, e.describe, e.cnf, split)?;
    // per cube: its best witness value, and the line it is on
    let mut values: Vec<Option<(i64, usize)>> = vec![None; split.cubes() as usize];
    let mut bound_lines = vec![0usize; split.cubes() as usize];
    known.whole = whole;
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

/// Appends lines to the cube file, each flushed to disk before it counts.
pub(super) struct CubeFile {
    file: Option<Mutex<File>>,
    path: PathBuf,
}

impl CubeFile {
    /// Opens `path` for appending after its first `whole` bytes.
    pub(super) fn open(path: Option<&Path>, whole: usize) -> anyhow::Result<Self> {
        let file = match path {
            Some(p) => {
                let f = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .with_context(|| format!("opening {}", p.display()))?;
                if f.metadata()?.len() > whole as u64 {
                    f.set_len(whole as u64).with_context(|| {
                        format!("cutting the torn last line of {}", p.display())
                    })?;
                }
                Some(Mutex::new(f))
            }
            None => None,
        };
        Ok(CubeFile {
            file,
            path: path.map(Path::to_path_buf).unwrap_or_default(),
        })
    }
    pub(super) fn append<S: Serialize, D: Serialize>(
        &self,
        r: &Report<S, D>,
    ) -> anyhow::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mut line = serde_json::to_string(r)?;
        line.push('\n');
        let mut f = file.lock().expect("cube file lock");
        f.write_all(line.as_bytes())
            .and_then(|()| f.sync_data())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}
