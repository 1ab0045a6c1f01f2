//! `puzzlesat experiment`: run a grid of `solve` runs from a spec file or
//! from flags, emit it as cluster jobs, collect their outputs, summarise
//! and plot. See `docs/experiments.md`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use crate::experiment::row::RowStatus;
use crate::experiment::{self, grid, Grid, Store};
use crate::front::{choices, Common};

/// Options of `experiment`; `--timeout` (per run) and `--seed` (base seed)
/// are the global ones.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// spec file (TOML, see experiments/); or describe the grid with --puzzle, --sizes, --vary
    pub spec: Option<PathBuf>,
    /// the `solve` subcommand to run (e.g. enigma); not with a spec file, which names its own
    #[arg(long)]
    pub puzzle: Option<String>,
    /// values of the size parameter: 3..8 (inclusive, at most 100000 values), or 3,5,7, or file names
    #[arg(long, allow_hyphen_values = true)]
    pub sizes: Option<String>,
    /// a folder whose OPB files are the instances, each run as `solve pb FILE` (instead of --sizes)
    #[arg(long, value_name = "DIR", conflicts_with = "sizes")]
    pub instances: Option<PathBuf>,
    /// name of the size parameter (default n)
    #[arg(long, value_name = "NAME")]
    pub size_param: Option<String>,
    /// a varied option: NAME=V1,V2,... (repeatable; the grid is the cross product)
    #[arg(long, value_name = "NAME=V1,V2")]
    pub vary: Vec<String>,
    /// an option given to every run: NAME=VALUE (repeatable; true/false for switches)
    #[arg(long, value_name = "NAME=VALUE")]
    pub fixed: Vec<String>,
    /// runs per grid point, 1 to 1000 (the grid: at most 1000000 rows)
    #[arg(long)]
    pub repeats: Option<u32>,
    /// address-space limit per run in MiB, 0 to 1073741824 (0: none) and at most this process's hard limit (default 8192, or that limit if lower)
    #[arg(long, value_name = "MIB")]
    pub memory: Option<u64>,
    /// runs in parallel on this machine, 1 to 256
    #[arg(long)]
    pub jobs: Option<usize>,
    /// results folder (default results/<name>)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// experiment name (default: the spec's, or the puzzle's)
    #[arg(long)]
    pub name: Option<String>,
    /// worker program replacing this puzzlesat (words split on spaces)
    #[arg(long, value_name = "CMD")]
    pub worker: Option<String>,
    /// write one shell command per row to FILE (for GNU parallel, Slurm) instead of running
    #[arg(long, value_name = "FILE")]
    pub emit_jobs: Option<PathBuf>,
    /// where emitted commands write their outputs (default <out>/jobs)
    #[arg(long, value_name = "DIR")]
    pub jobs_dir: Option<PathBuf>,
    /// merge the outputs of emitted commands found in DIR into the results
    #[arg(long, value_name = "DIR")]
    pub collect: Option<PathBuf>,
    /// rerun the recorded rows with these statuses (e.g. timeout,error) instead of skipping them
    #[arg(long, value_name = "STATUS,...", value_delimiter = ',', value_parser = choices::<RowStatus>())]
    pub retry: Vec<RowStatus>,
    /// only summarise (and plot) the rows already recorded
    #[arg(long)]
    pub report: bool,
    /// no plots
    #[arg(long)]
    pub no_plots: bool,
}

impl Args {
    /// The grid: the spec file's, with the flags overriding it.
    pub fn grid(&self, common: &Common) -> anyhow::Result<Grid> {
        let mut g = match (&self.spec, &self.puzzle) {
            (Some(path), Some(puzzle)) => bail!(
                "--puzzle {puzzle} with the spec {}: the spec names its puzzle (`puzzle = ...`); give one or the other",
                path.display()
            ),
            (Some(path), None) => Grid::from_file(path)?,
            (None, Some(puzzle)) => {
                let spec =
                    toml::from_str(&format!("puzzle = {}", toml::Value::String(puzzle.clone())))?;
                Grid::from_spec(spec, puzzle)?
            }
            (None, None) => bail!(
                "give a spec file (see experiments/) or --puzzle NAME with --sizes and --vary"
            ),
        };
        if let Some(s) = &self.sizes {
            let sizes = grid::parse_values(s).with_context(|| format!("--sizes {s}"))?;
            // a spec whose instances carry their own size (files) takes files
            let is_number = |v: &String| v.parse::<f64>().is_ok();
            let files = !g.sizes.is_empty() && !g.sizes.iter().any(is_number);
            if files && self.size_param.is_none() && sizes.iter().all(is_number) {
                bail!(
                    "--sizes {s}: the instances of {} carry their own size (its size parameter `{}` takes files such as {}): give --sizes FILE,FILE,... or drop --sizes",
                    self.spec.as_deref().map_or("the spec".into(), |p| p.display().to_string()),
                    g.size_param,
                    g.sizes[0]
                );
            }
            g.sizes = sizes;
            if g.size_param.is_empty() {
                g.size_param = "n".into();
            }
        }
        if let Some(dir) = &self.instances {
            g.sizes = grid::opb_files(dir)?;
            g.positional = true;
            g.size_param = grid::FILE_PARAM.into();
        }
        if let Some(p) = &self.size_param {
            g.size_param = p.clone();
        }
        for (flags, target) in [(&self.fixed, true), (&self.vary, false)] {
            for text in flags {
                let (k, vs) = grid::parse_assignment(text)?;
                g.fixed.retain(|(n, _)| *n != k);
                g.vary.retain(|(n, _)| *n != k);
                if target {
                    if vs.len() != 1 {
                        bail!("--fixed {text}: one value expected (use --vary for several)");
                    }
                    g.fixed.push((k, vs[0].clone()));
                } else {
                    g.vary.push((k, vs));
                }
            }
        }
        // the global solve options, when set, go to every run as --fixed
        // ones do (they used to be accepted and ignored)
        let globals = [
            ("solver", common.solver.to_string(), "batsat".to_string()),
            (
                "objective-encoding",
                common.objective_encoding.to_string(),
                "gte".to_string(),
            ),
            (
                "strategy",
                common.strategy.unwrap_or_default().to_string(),
                "sat-unsat".to_string(),
            ),
            (
                "max-clauses",
                common.max_clauses.to_string(),
                crate::values::DEFAULT_MAX_CLAUSES.to_string(),
            ),
            ("certify", common.certify.to_string(), "false".to_string()),
            (
                "proof-solver",
                common
                    .proof_solver
                    .as_ref()
                    .map_or(String::new(), |p| p.to_string()),
                String::new(),
            ),
        ];
        for (k, v, default) in globals {
            if v != default {
                g.fixed.retain(|(n, _)| n != k);
                g.vary.retain(|(n, _)| n != k);
                g.fixed.push((k.to_string(), v));
            }
        }
        if let Some(n) = &self.name {
            g.name = n.clone();
        }
        if let Some(r) = self.repeats {
            g.repeats = r;
        }
        if let Some(t) = common.timeout {
            g.timeout = t.get();
        }
        if common.seed.is_some() {
            g.seed = common.seed;
        }
        if self.memory.is_some() {
            g.memory_mib = grid::memory_limit(self.memory);
        }
        if let Some(j) = self.jobs {
            g.jobs = j;
        }
        if let Some(w) = &self.worker {
            g.command = Some(w.split_whitespace().map(String::from).collect());
        }
        g.out = match &self.out {
            Some(o) => o.clone(),
            None if self.spec.is_some() && (self.name.is_none()) => g.out,
            None => PathBuf::from("results").join(&g.name),
        };
        g.validate()?;
        Ok(g)
    }

    /// Runs the command.
    pub fn run(&self, common: &Common) -> anyhow::Result<ExitCode> {
        let grid = self.grid(common)?;
        // what it writes, checked before any run
        match &self.emit_jobs {
            Some(file) => {
                crate::io::output::check_file("--emit-jobs", file)?;
                let spec = self.spec.iter().map(|s| ("spec", s.as_path()));
                crate::io::output::refuse_onto_inputs(
                    &[("--emit-jobs", file.as_path())],
                    &spec.collect::<Vec<_>>(),
                )?;
            }
            None if !self.report => crate::io::output::check_folder("--out", &grid.out)?,
            None => {}
        }
        let params: Vec<String> = grid
            .expand()
            .first()
            .map(|j| j.params.iter().map(|(k, _)| k.clone()).collect())
            .unwrap_or_default();
        if let Some(file) = &self.emit_jobs {
            let dir = self
                .jobs_dir
                .clone()
                .unwrap_or_else(|| grid.out.join("jobs"));
            // rows already recorded (a resumed grid) are not emitted again
            let recorded = match grid.out.join("rows.jsonl").exists() {
                true => Some(Store::open(&grid.out, &params)?),
                false => None,
            };
            let done = |j: &experiment::Job| recorded.as_ref().is_some_and(|s| s.contains(&j.id));
            let n = experiment::emit_jobs(&grid, file, &dir, &done)?;
            eprintln!(
                "wrote {n} commands to {} (outputs into {}); run them, e.g. `parallel -j 2 < {}`, then `puzzlesat experiment {} --collect {}`",
                file.display(),
                dir.display(),
                file.display(),
                self.spec.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "<same flags>".into()),
                dir.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        let mut store = Store::open(&grid.out, &params)?;
        let mut interrupted = false;
        if let Some(dir) = &self.collect {
            if !dir.is_dir() {
                bail!(
                    "--collect {}: no such folder (where the emitted commands wrote their outputs)",
                    dir.display()
                );
            }
            let (added, missing) = experiment::collect(&grid, &mut store, dir)?;
            eprintln!(
                "collected {added} new rows from {} ({missing} rows have no output yet)",
                dir.display()
            );
        } else if !self.report {
            if !self.retry.is_empty() {
                let n = store.forget(&grid.expand(), |r| self.retry.contains(&r.status))?;
                if !common.quiet {
                    eprintln!(
                        "{}: {n} rows with status {} will be run again",
                        grid.name,
                        self.retry
                            .iter()
                            .map(|s| s.name())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    );
                }
            }
            let limits = common.limits();
            let counts = experiment::run_grid(
                &grid,
                &mut store,
                common.quiet,
                common.verbose > 0,
                limits.interrupt.clone(),
            )?;
            interrupted = counts.interrupted;
            if !common.quiet {
                eprintln!(
                    "{}: ran {} rows ({} not solved), skipped {} already recorded{}; rows in {}",
                    grid.name,
                    counts.ran,
                    counts.failed,
                    counts.skipped,
                    if interrupted {
                        ", INTERRUPTED (rerun to resume)"
                    } else {
                        ""
                    },
                    grid.out.join("rows.csv").display()
                );
            }
        }
        let mut out = std::io::stdout().lock();
        if common.json {
            for row in store.grid_rows(&grid.expand()) {
                serde_json::to_writer(&mut out, &row)?;
                writeln!(out)?;
            }
        } else {
            let rows = store.grid_rows(&grid.expand());
            experiment::summary::print(&grid, &rows, &mut out)?;
            if !self.no_plots {
                match experiment::plot::write_all(&grid, &rows, &grid.out.join("plots")) {
                    Ok(files) if !files.is_empty() => writeln!(
                        out,
                        "plots: {}",
                        files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )?,
                    Ok(_) => {}
                    Err(e) => eprintln!("warning: no plots: {e:#}"),
                }
            }
        }
        Ok(if interrupted {
            ExitCode::from(130)
        } else {
            ExitCode::SUCCESS
        })
    }
}
