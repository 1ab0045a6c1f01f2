//! `--cubes` for a search without SAT (solver `none`): the same options
//! (`--cubes K`, `--jobs J`, `--cube-file F`, `--cube I`,
//! `--trust-cube-file`) and the same file (one JSON [`Report`] line per
//! finished cube, with a [`CubeRecord`], appended and flushed, a torn last
//! line cut off) as the SAT cubes of [`super`], for a search that splits
//! itself into K parts ([`CubeSearch`]).
//!
//! - **Record.** A cube searched to its end appends its line: the cube's
//!   value as `objective`, the search's own record (counts, digest,
//!   witness) as `details`, the [`BUILD`], and a fingerprint of all that
//!   ([`native_fingerprint`]). A cube stopped by the time limit or an
//!   interrupt writes nothing: the rerun searches it again.
//! - **Resume.** A rerun reads the file, refuses lines of another run, lines
//!   that do not match their fingerprint, lines of another build (unless
//!   `--trust-cube-file`), records the search's own check rejects
//!   ([`CubeSearch::check`]: e.g. a witness whose value is not the
//!   record's) and two records of one cube that differ; it searches only
//!   the cubes the file does not hold.
//! - **Cluster.** `--cube I` searches cube I alone and prints its line: the
//!   jobs' outputs, concatenated, are a cube file the full command reads.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{mpsc, Mutex};

use anyhow::{bail, Context};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::file::{read_records, About, CubeFile, CubeLine, Taken, BUILD};
use super::threads::on_threads;
use super::CubeOptions;
use crate::certify::Fnv;
use crate::report::{CubeRecord, CubeTally, Report, Status, NO_SAT};
use crate::solver::Limits;

/// A search without SAT, split into cubes by itself.
pub trait CubeSearch: Sync {
    /// What one finished cube found (the line's `details`).
    type Record: Serialize + DeserializeOwned + Clone + Default + Send + std::fmt::Debug;
    /// The instance and options (the lines' `puzzle`).
    fn describe(&self) -> String;
    /// Searches cube `index` of `cubes`: its record, and whether the search
    /// reached its end (false: stopped by `limits`, the record covers what
    /// was searched). Progress lines go to `progress`.
    fn search(
        &self,
        index: u32,
        cubes: u32,
        limits: &Limits,
        progress: &mpsc::Sender<String>,
    ) -> anyhow::Result<(Self::Record, bool)>;
    /// The value a record reports (its line's `objective`).
    fn value(&self, r: &Self::Record) -> Option<i64>;
    /// Checks a record read back from a file (an error refuses it).
    fn check(&self, r: &Self::Record) -> anyhow::Result<()>;
    /// The value every solution the search looks for must exceed (None:
    /// any): a finished cube without a value proves that none of its
    /// solutions does (its line's `bound`, status `unsat`).
    fn floor(&self) -> Option<i64> {
        None
    }
    /// What the search's solutions are called in its lines.
    fn counted_as(&self) -> &'static str {
        "solutions"
    }
}

/// The fingerprint of a native cube's line: what it says (`objective`, the
/// record) and what about (the search and its options, the build, the
/// cube and the split).
pub fn native_fingerprint(
    describe: &str,
    c: &CubeRecord,
    objective: Option<i64>,
    record: &str,
) -> String {
    Fnv::default()
        .text("native")
        .text(describe)
        .text(&c.build)
        .text(&c.index.to_string())
        .text(&c.cubes.to_string())
        .text(&objective.map_or("-".into(), |v| v.to_string()))
        .text(record)
        .hex()
}

/// Every cube's record (None: not searched to its end), and what the
/// answer rests on.
#[derive(Debug)]
pub struct Outcome<R> {
    /// per cube: the record, and whether it was read from the file
    pub records: Vec<Option<(R, bool)>>,
    /// cubes finished now and taken from the file
    pub tally: CubeTally,
    /// with `--cube I`: that cube's line as written to the file
    pub line: Option<Report<serde_json::Value, R>>,
    /// cubes stopped before their end, with what they found until then
    /// (not written to the file)
    pub partial: Vec<(u32, R)>,
}

fn line<S: CubeSearch>(
    s: &S,
    index: u32,
    cubes: u32,
    record: &S::Record,
) -> anyhow::Result<Report<serde_json::Value, S::Record>> {
    let mut r: Report<serde_json::Value, S::Record> =
        Report::new(s.describe(), NO_SAT.into(), s.counted_as());
    r.objective = s.value(record);
    // a cube searched to its end without a solution above the floor
    r.status = match r.objective {
        Some(_) => Status::Optimal,
        None => Status::Unsat,
    };
    r.bound = r.objective.or(s.floor());
    r.details = record.clone();
    let mut c = CubeRecord {
        index,
        cubes,
        literals: vec![],
        incumbent: None,
        closed: true,
        witness: None,
        build: BUILD.to_string(),
        cnf: NO_SAT.to_string(),
        fingerprint: String::new(),
    };
    c.fingerprint = native_fingerprint(&r.puzzle, &c, r.objective, &serde_json::to_string(record)?);
    r.cube = Some(c);
    Ok(r)
}

/// A record read back, compared with another by its JSON text.
#[derive(Debug)]
struct Read<R> {
    record: R,
    text: String,
}

impl<R> PartialEq for Read<R> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

/// Reads the records of the cube file (missing: none) for `s` split into
/// `cubes` ([`read_records`]), each also checked by the search
/// ([`CubeSearch::check`]).
fn read<S: CubeSearch>(
    s: &S,
    file: &CubeFile,
    cubes: u32,
    trust: bool,
) -> anyhow::Result<Vec<Option<Taken<S::Record>>>> {
    let describe = s.describe();
    let about = About {
        describe: &describe,
        cubes,
        literals: vec![],
        size: None,
        digest: NO_SAT,
        trust,
        fact: "its record is a fact about that build's search",
    };
    let parse = |r: &CubeLine| -> anyhow::Result<Read<S::Record>> {
        let record: S::Record =
            serde_json::from_value(r.details.clone()).context("not a record of this search")?;
        let text = serde_json::to_string(&record)?;
        Ok(Read { record, text })
    };
    let fingerprint = |r: &CubeLine, c: &CubeRecord| {
        let read = parse(r)?;
        // a line whose value is not its record's is not as written
        Ok(match r.objective == s.value(&read.record) {
            true => native_fingerprint(&describe, c, r.objective, &read.text),
            false => String::new(),
        })
    };
    let (taken, _) = read_records(file, &about, fingerprint, |line| {
        let read = parse(&line.report)?;
        s.check(&read.record).with_context(|| {
            format!(
                "{}: the record of cube {}",
                line.at(file),
                line.cube().index
            )
        })?;
        Ok(Some(read))
    })?;
    Ok(taken
        .into_iter()
        .map(|t| {
            t.map(|t| Taken {
                record: t.record.record,
                writer: t.writer,
                foreign: t.foreign,
            })
        })
        .collect())
}

/// A finished cube: its index, record and report line.
type Finished<S> = (
    u32,
    <S as CubeSearch>::Record,
    Report<serde_json::Value, <S as CubeSearch>::Record>,
);

/// Runs `s` cube by cube with `opts` (module docs).
pub fn search_cubes<S: CubeSearch>(
    s: &S,
    opts: &CubeOptions,
    limits: &Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Outcome<S::Record>> {
    let cubes = opts.count;
    if let Some(i) = opts.only {
        if i >= cubes {
            bail!("--cube {i}: this split has cubes 0 to {}", cubes - 1);
        }
    }
    let file = CubeFile::open(opts.file.as_deref())?;
    let known = read(s, &file, cubes, opts.trust)?;
    let todo: VecDeque<u32> = match opts.only {
        Some(i) => [i].into(),
        None => (0..cubes)
            .filter(|&i| known[i as usize].is_none())
            .collect(),
    };
    if opts.only.is_none() && (cubes > 1 || opts.file.is_some()) {
        writeln!(
            progress,
            "c cubes: {cubes}; {} finished in {}, {} to search on {} thread(s)",
            cubes as usize - todo.len(),
            opts.file
                .as_deref()
                .map_or("no file".into(), |p| p.display().to_string()),
            todo.len(),
            opts.jobs
        )?;
    }
    let threads = opts.jobs.clamp(1, todo.len().max(1));
    let queue = Mutex::new(todo);
    let done: Mutex<Vec<Finished<S>>> = Mutex::new(vec![]);
    let partial: Mutex<Vec<(u32, S::Record)>> = Mutex::new(vec![]);
    let results = on_threads(threads, progress, |tx| loop {
        if limits.expired() {
            return Ok(());
        }
        let Some(i) = queue.lock().expect("queue lock").pop_front() else {
            return Ok(());
        };
        let (record, finished) = s.search(i, cubes, limits, tx)?;
        if !finished {
            partial.lock().expect("partial lock").push((i, record));
        } else {
            let l = line(s, i, cubes, &record)?;
            file.append(&l)?;
            let value = s.value(&record).map(|v| format!(", value {v}"));
            let _ = tx.send(format!(
                "c cube {i}/{cubes}: finished{}",
                value.unwrap_or_default()
            ));
            done.lock().expect("done lock").push((i, record, l));
        }
    });
    for r in results {
        r?;
    }
    let mut tally = CubeTally {
        cubes,
        file: opts.file.as_ref().map(|p| p.display().to_string()),
        ..CubeTally::default()
    };
    let mut records: Vec<Option<(S::Record, bool)>> = vec![None; cubes as usize];
    let mut writers = std::collections::BTreeSet::new();
    let mut only_line = None;
    for (i, record, l) in done.into_inner().expect("done lock") {
        records[i as usize] = Some((record, false));
        tally.closed_now += 1;
        if opts.only == Some(i) {
            only_line = Some(l);
        }
    }
    if opts.only.is_none() {
        for (i, k) in known.into_iter().enumerate() {
            if let (None, Some(t)) = (&records[i], k) {
                records[i] = Some((t.record, true));
                tally.from_file += 1;
                tally.trusted |= t.foreign;
                writers.insert(t.writer);
            }
        }
    }
    tally.written_by = writers.into_iter().collect();
    let mut partial = partial.into_inner().expect("partial lock");
    partial.sort_by_key(|(i, _)| *i);
    Ok(Outcome {
        records,
        tally,
        line: only_line,
        partial,
    })
}
