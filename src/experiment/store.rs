//! The results folder of an experiment:
//! - `rows.jsonl`: one JSON row per finished run, appended (and flushed) as
//!   each run ends — the record that makes a grid resumable;
//! - `rows.csv`: the same rows as a table, appended as they finish and
//!   rewritten in grid order at the end;
//! - `runs/<id>.json`, `runs/<id>.err`: each worker's stdout and stderr.
//!
//! Files rewritten whole go through a temporary file renamed into place
//! ([`write_string_atomic`]): a full disk leaves the old file, never a
//! truncated one.
//!
//! Reopening the folder loads the rows already there (a line torn by a kill
//! is dropped), so a rerun skips them and never writes a row twice.

use std::collections::{BTreeSet, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::io::write_string_atomic;

use super::grid::Job;
use super::row::{csv_header, csv_line, Row};

/// An open results folder.
pub struct Store {
    dir: PathBuf,
    param_names: Vec<String>,
    rows: Vec<Row>,
    index: HashMap<String, usize>,
    jsonl: File,
    csv: File,
}

impl Store {
    /// Opens (creating) `dir`, loading the rows already recorded. The CSV's
    /// parameter columns are `param_names`, then any others the old rows have.
    pub fn open(dir: &Path, param_names: &[String]) -> anyhow::Result<Store> {
        std::fs::create_dir_all(dir.join("runs"))
            .with_context(|| format!("creating {}", dir.display()))?;
        let jsonl_path = dir.join("rows.jsonl");
        let mut rows = vec![];
        if jsonl_path.exists() {
            let text = std::fs::read_to_string(&jsonl_path)
                .with_context(|| format!("reading {}", jsonl_path.display()))?;
            let lines: Vec<&str> = text.lines().collect();
            let mut torn = false;
            for (i, line) in lines.iter().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Row>(line) {
                    Ok(r) => rows.push(r),
                    // the last line of a file cut by a kill: drop it, the run is redone
                    Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => torn = true,
                    Err(e) => bail!(
                        "{} line {}: not a result row ({e})",
                        jsonl_path.display(),
                        i + 1
                    ),
                }
            }
            if torn {
                let mut clean = String::new();
                for r in &rows {
                    clean.push_str(&serde_json::to_string(r)?);
                    clean.push('\n');
                }
                write_string_atomic(&jsonl_path, &clean)?;
            }
        }
        let mut index = HashMap::new();
        let mut unique = vec![];
        for r in rows {
            if !index.contains_key(&r.id) {
                index.insert(r.id.clone(), unique.len());
                unique.push(r);
            }
        }
        let mut names = param_names.to_vec();
        let extra: BTreeSet<&String> = unique
            .iter()
            .flat_map(|r| r.params.keys())
            .filter(|k| !param_names.contains(k))
            .collect();
        names.extend(extra.into_iter().cloned());
        let jsonl = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&jsonl_path)
            .with_context(|| format!("opening {}", jsonl_path.display()))?;
        // written whole (renamed into place) by `write_csv_all` below
        let csv_path = dir.join("rows.csv");
        let csv = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&csv_path)
            .with_context(|| format!("opening {}", csv_path.display()))?;
        let mut store = Store {
            dir: dir.to_path_buf(),
            param_names: names,
            rows: unique,
            index,
            jsonl,
            csv,
        };
        store.write_csv_all()?;
        Ok(store)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rows recorded so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Whether the row with this id is recorded.
    pub fn contains(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// Records a finished row (JSON line and CSV line, both flushed); a row
    /// already present is not written again. Returns whether it was new.
    pub fn push(&mut self, row: Row) -> anyhow::Result<bool> {
        if self.contains(&row.id) {
            return Ok(false);
        }
        let mut line = serde_json::to_string(&row)?;
        line.push('\n');
        self.jsonl
            .write_all(line.as_bytes())
            .with_context(|| format!("appending to {}", self.dir.join("rows.jsonl").display()))?;
        self.jsonl.flush()?;
        let mut csv = csv_line(&row, &self.param_names);
        csv.push('\n');
        self.csv
            .write_all(csv.as_bytes())
            .with_context(|| format!("appending to {}", self.dir.join("rows.csv").display()))?;
        self.csv.flush()?;
        self.index.insert(row.id.clone(), self.rows.len());
        self.rows.push(row);
        Ok(true)
    }

    /// Drops the recorded rows of `jobs` that `pred` selects (e.g. timeouts,
    /// to rerun them with a longer limit), rewriting both files. Returns how
    /// many were dropped.
    pub fn forget(&mut self, jobs: &[Job], pred: impl Fn(&Row) -> bool) -> anyhow::Result<usize> {
        let ids: BTreeSet<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        let before = self.rows.len();
        self.rows
            .retain(|r| !(ids.contains(r.id.as_str()) && pred(r)));
        let dropped = before - self.rows.len();
        if dropped > 0 {
            self.index = self
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.id.clone(), i))
                .collect();
            let path = self.dir.join("rows.jsonl");
            let mut text = String::new();
            for r in &self.rows {
                text.push_str(&serde_json::to_string(r)?);
                text.push('\n');
            }
            write_string_atomic(&path, &text)?;
            self.jsonl = OpenOptions::new()
                .append(true)
                .open(&path)
                .with_context(|| format!("opening {}", path.display()))?;
            self.write_csv_all()?;
        }
        Ok(dropped)
    }

    /// Rewrites the CSV with the rows of `jobs` first, in grid order, then
    /// any other rows the folder holds (from an earlier, different grid).
    pub fn finish(&mut self, jobs: &[Job]) -> anyhow::Result<()> {
        let mut order: Vec<usize> = jobs
            .iter()
            .filter_map(|j| self.index.get(&j.id).copied())
            .collect();
        let in_grid: BTreeSet<usize> = order.iter().copied().collect();
        order.extend((0..self.rows.len()).filter(|i| !in_grid.contains(i)));
        let rows: Vec<Row> = order.iter().map(|&i| self.rows[i].clone()).collect();
        self.index = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.clone(), i))
            .collect();
        self.rows = rows;
        self.write_csv_all()
    }

    /// The rows of `jobs`, in grid order (those recorded).
    pub fn grid_rows(&self, jobs: &[Job]) -> Vec<Row> {
        jobs.iter()
            .filter_map(|j| self.index.get(&j.id).map(|&i| self.rows[i].clone()))
            .collect()
    }

    fn write_csv_all(&mut self) -> anyhow::Result<()> {
        let path = self.dir.join("rows.csv");
        let mut text = csv_header(&self.param_names);
        text.push('\n');
        for r in &self.rows {
            text.push_str(&csv_line(r, &self.param_names));
            text.push('\n');
        }
        write_string_atomic(&path, &text)?;
        self.csv = OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(())
    }
}
