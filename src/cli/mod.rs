//! The clap front end: `list`, `solve`, `dimacs`, `decode`, `sat`,
//! `experiment`. Each puzzle contributes an `Args` struct and its handlers;
//! the generic handlers here serve every puzzle that needs nothing special.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use puzzlesat_encodings::pb::PbEncoding;

use crate::drive::Strategy;
use crate::puzzle::Puzzle;
use crate::run::{self, RunOptions, Status};
use crate::solver::{Limits, SolverKind};

pub mod experiment;

/// SAT encodings of combinatorial puzzles.
#[derive(Debug, Parser)]
#[command(name = "puzzlesat", version, about, long_about = None)]
pub struct Cli {
    /// what to do
    #[command(subcommand)]
    pub command: Command,
    /// options shared by every command
    #[command(flatten)]
    pub common: Common,
}

/// Options shared by every command (accepted before or after the puzzle).
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// SAT backend: batsat, varisat, splr, cadical, portfolio, external:<cmd or path>
    #[arg(long, global = true, default_value = "batsat")]
    pub solver: SolverKind,
    /// wall-clock limit in seconds (the best solution so far is reported)
    #[arg(long, global = true)]
    pub timeout: Option<f64>,
    /// one JSON object per result on stdout
    #[arg(long, global = true)]
    pub json: bool,
    /// random seed (recorded; used by generators and solvers that take one)
    #[arg(long, global = true, default_value_t = 0)]
    pub seed: u64,
    /// less output on stderr
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// more output on stderr
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// PB encoding of the objective bound: gte, adder, dpw
    #[arg(long, global = true, default_value = "gte")]
    pub objective_encoding: PbEncoding,
    /// bound search: sat-unsat, unsat-sat, binary
    #[arg(long, global = true, default_value = "sat-unsat")]
    pub strategy: Strategy,
}

impl Common {
    /// Limits from `--timeout`, with Ctrl-C wired to the interrupt flag.
    pub fn limits(&self) -> Limits {
        let limits = Limits::with_timeout(self.timeout.map(Duration::from_secs_f64));
        let flag = limits.interrupt.clone();
        // a second handler cannot be installed (tests, experiments): ignore
        let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::SeqCst));
        limits
    }
    /// Run options from the common flags.
    pub fn run_options(&self, all: bool, limit: Option<u64>) -> RunOptions {
        RunOptions {
            solver: self.solver.clone(),
            timeout: self.timeout.map(Duration::from_secs_f64),
            all,
            limit,
            objective_encoding: self.objective_encoding,
            strategy: self.strategy,
            first: false,
        }
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// list the puzzles, their parameters, encodings and defaults
    List,
    /// solve a puzzle (optimise if it has an objective)
    Solve {
        /// which puzzle
        #[command(subcommand)]
        puzzle: PuzzleCmd,
    },
    /// write a puzzle's CNF as DIMACS
    Dimacs {
        /// which puzzle
        #[command(subcommand)]
        puzzle: PuzzleCmd,
        /// output file (default: stdout)
        #[arg(short, long, global = true)]
        output: Option<PathBuf>,
        /// write a JSON map naming the primary variables
        #[arg(long, global = true)]
        map: Option<PathBuf>,
        /// decision version: objective at least (maximise) / at most (minimise) this
        #[arg(long, global = true)]
        bound: Option<i64>,
    },
    /// decode an external solver's `s`/`v` output into a checked solution
    Decode {
        /// which puzzle (same parameters and options as for `dimacs`)
        #[command(subcommand)]
        puzzle: PuzzleCmd,
        /// the solver's output file
        #[arg(long, global = true)]
        model: PathBuf,
    },
    /// run a grid of solves (spec file or flags), collect, summarise, plot
    Experiment(Box<experiment::Args>),
}

/// What each puzzle's argument struct can do. Most implementations call the
/// generic handlers below ([`solve_generic`], [`dimacs_generic`],
/// [`decode_generic`]) after building the puzzle from its arguments.
pub trait PuzzleCommand {
    /// `solve`
    fn solve(&self, common: &Common) -> anyhow::Result<ExitCode>;
    /// `dimacs`
    fn dimacs(&self, common: &Common, output: Option<&PathBuf>, map: Option<&PathBuf>, bound: Option<i64>) -> anyhow::Result<ExitCode>;
    /// `decode`
    fn decode(&self, common: &Common, model: &PathBuf) -> anyhow::Result<ExitCode>;
}

/// The puzzles: one variant each (add a line here and in [`PuzzleCmd::command`]
/// and [`LIST`]).
#[derive(Debug, Subcommand)]
pub enum PuzzleCmd {}

impl PuzzleCmd {
    /// The puzzle's command handlers.
    pub fn command(&self) -> &dyn PuzzleCommand {
        match *self {}
    }
}

/// `puzzlesat list`: one entry per puzzle (name, parameters, encodings and
/// defaults), contributed by each puzzle module's `ABOUT`.
pub const LIST: &[&str] = &[];

/// What `solve` prints and returns for any puzzle.
pub fn solve_generic<P: Puzzle>(p: &P, common: &Common, all: bool, limit: Option<u64>) -> anyhow::Result<ExitCode> {
    let opts = common.run_options(all, limit);
    let mut progress: Box<dyn Write> = if common.quiet { Box::new(std::io::sink()) } else { Box::new(std::io::stderr()) };
    let report = run::run(p, &opts, common.limits(), &mut progress)?;
    let mut out = std::io::stdout().lock();
    if common.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        run::print_text(p, &report, &mut out)?;
    }
    Ok(exit_code(report.status))
}

/// SAT-competition exit codes: 10 for a solution, 20 for UNSAT, 0 unknown.
pub fn exit_code(s: Status) -> ExitCode {
    match s {
        Status::Optimal | Status::Sat | Status::All | Status::Partial => ExitCode::from(10),
        Status::Unsat => ExitCode::from(20),
        Status::Unknown => ExitCode::from(0),
    }
}

/// `dimacs` for any puzzle.
pub fn dimacs_generic<P: Puzzle>(
    p: &P,
    common: &Common,
    output: Option<&PathBuf>,
    map: Option<&PathBuf>,
    bound: Option<i64>,
) -> anyhow::Result<ExitCode> {
    let mut out: Box<dyn Write> = match output {
        Some(path) => Box::new(File::create(path).with_context(|| format!("creating {}", path.display()))?),
        None => Box::new(std::io::stdout().lock()),
    };
    let enc = run::export_dimacs(p, bound, common.objective_encoding, &mut out)?;
    if let Some(path) = map {
        let names: serde_json::Map<String, serde_json::Value> = enc
            .names
            .iter()
            .map(|(name, lit)| (name.clone(), serde_json::Value::from(lit.to_ipasir())))
            .collect();
        let doc = serde_json::json!({ "instance": p.describe(), "variables": names });
        std::fs::write(path, serde_json::to_string_pretty(&doc)?).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `decode` for any puzzle.
pub fn decode_generic<P: Puzzle>(p: &P, common: &Common, model: &PathBuf) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(model).with_context(|| format!("reading {}", model.display()))?;
    let (status, sol) = run::decode_output(p, &text).with_context(|| format!("decoding {}", model.display()))?;
    let mut out = std::io::stdout().lock();
    if common.json {
        serde_json::to_writer(&mut out, &serde_json::json!({ "puzzle": p.describe(), "status": status, "solution": sol }))?;
        writeln!(out)?;
    } else {
        match &sol {
            Some(s) => {
                writeln!(out, "{}", p.render(s))?;
                if let Some(v) = p.objective_of(s) {
                    writeln!(out, "objective: {v}")?;
                }
                writeln!(out, "solution checked")?;
            }
            None => writeln!(out, "solver answered {status:?}: no solution to decode")?,
        }
    }
    Ok(exit_code(status))
}

/// Runs the parsed command line.
pub fn main_with(cli: Cli) -> anyhow::Result<ExitCode> {
    let common = &cli.common;
    match &cli.command {
        Command::List => {
            for about in LIST {
                println!("{about}\n");
            }
            println!("solvers: batsat (default), varisat, splr, cadical (feature), portfolio, external:<cmd>");
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve { puzzle } => puzzle.command().solve(common),
        Command::Dimacs { puzzle, output, map, bound } => puzzle.command().dimacs(common, output.as_ref(), map.as_ref(), *bound),
        Command::Decode { puzzle, model } => puzzle.command().decode(common, model),
        Command::Experiment(args) => args.run(common),
    }
}
