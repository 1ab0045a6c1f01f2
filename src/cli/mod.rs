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

pub mod progress;
pub mod sat;

use crate::drive::Strategy;
use crate::io::dimacs::Format;
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
    /// random seed: 0 = the solver's own search; otherwise seeds the solver
    /// (an error for a solver that takes none) and generators
    #[arg(long, global = true, default_value_t = 0)]
    pub seed: u64,
    /// with --all: enumerate every solution by blocking clauses, not one
    /// representative per symmetry class expanded by the puzzle's group
    #[arg(long, global = true)]
    pub no_classes: bool,
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
    /// file format for `dimacs` (set from its `--wcnf` / `--opb` flags)
    #[arg(skip)]
    pub format: Format,
    /// for `decode`: the `--bound` the decoded formula was exported with
    #[arg(skip)]
    pub decode_bound: Option<i64>,
}

impl Common {
    /// Where the runner's progress lines go: nowhere with `-q`, else a
    /// spinner on stderr ([`progress::Progress`]).
    pub fn progress(&self) -> Box<dyn Write> {
        if self.quiet {
            Box::new(std::io::sink())
        } else {
            Box::new(progress::Progress::stderr())
        }
    }
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
            seed: self.seed,
            no_classes: self.no_classes,
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
        /// write MaxSAT WCNF (2022 format): clauses hard, objective as soft units
        #[arg(long, global = true, conflicts_with = "opb")]
        wcnf: bool,
        /// write OPB: objective as `min:`, clauses as linear constraints
        #[arg(long, global = true)]
        opb: bool,
    },
    /// decode an external solver's `s`/`v` output into a checked solution
    Decode {
        /// which puzzle (same parameters and options as for `dimacs`)
        #[command(subcommand)]
        puzzle: PuzzleCmd,
        /// the solver's output file (required; clap forbids required global options)
        #[arg(long, global = true)]
        model: Option<PathBuf>,
        /// the `--bound` the formula was exported with (`dimacs --bound`)
        #[arg(long, global = true)]
        bound: Option<i64>,
    },
    /// solve a DIMACS CNF file: SAT-competition output, exit code 10/20/0
    Sat(sat::SatArgs),
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
    fn dimacs(
        &self,
        common: &Common,
        output: Option<&PathBuf>,
        map: Option<&PathBuf>,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode>;
    /// `decode`
    fn decode(&self, common: &Common, model: &std::path::Path) -> anyhow::Result<ExitCode>;
}

/// The puzzles: one variant each (add a line here and in [`PuzzleCmd::command`]
/// and [`LIST`]).
#[derive(Debug, Subcommand)]
pub enum PuzzleCmd {
    /// numbered paths / tours on a board (prime rook tour, Numbrix)
    RookTour(crate::puzzles::rook_tour::cli::Args),
    /// Alien Tiles: fewest clicks to a goal, or the hardest goal
    AlienTiles(crate::puzzles::alien_tiles::cli::Args),
    /// Enigma 1225 "rows are columns" on an n×n board
    Enigma(crate::puzzles::enigma::cli::Args),
    /// magic squares: find, count, complete
    Magic(crate::puzzles::magic::cli::Args),
}

impl PuzzleCmd {
    /// The puzzle's command handlers.
    pub fn command(&self) -> &dyn PuzzleCommand {
        match self {
            PuzzleCmd::RookTour(a) => a,
            PuzzleCmd::AlienTiles(a) => a,
            PuzzleCmd::Enigma(a) => a,
            PuzzleCmd::Magic(a) => a,
        }
    }
}

/// `puzzlesat list`: one entry per puzzle (name, parameters, encodings and
/// defaults), contributed by each puzzle module's `ABOUT`.
pub const LIST: &[&str] = &[
    crate::puzzles::rook_tour::ABOUT,
    crate::puzzles::alien_tiles::ABOUT,
    crate::puzzles::enigma::cli::ABOUT,
    crate::puzzles::magic::ABOUT,
];

/// What `solve` prints and returns for any puzzle.
pub fn solve_generic<P: Puzzle>(
    p: &P,
    common: &Common,
    all: bool,
    limit: Option<u64>,
) -> anyhow::Result<ExitCode> {
    let opts = common.run_options(all, limit);
    let report = run::run(p, &opts, common.limits(), &mut common.progress())?;
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
        Some(path) => {
            Box::new(File::create(path).with_context(|| format!("creating {}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let enc = run::export_formula(p, bound, common.objective_encoding, common.format, &mut out)?;
    if let Some(path) = map {
        let names: serde_json::Map<String, serde_json::Value> = enc
            .names
            .iter()
            .map(|(name, lit)| (name.clone(), serde_json::Value::from(lit.to_ipasir())))
            .collect();
        let doc = serde_json::json!({ "instance": p.describe(), "variables": names });
        std::fs::write(path, serde_json::to_string_pretty(&doc)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `decode` for any puzzle.
pub fn decode_generic<P: Puzzle>(
    p: &P,
    common: &Common,
    model: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(model).with_context(|| format!("reading {}", model.display()))?;
    let (status, sol) =
        run::decode_output(p, &text, common.decode_bound, common.objective_encoding).with_context(
            || {
                format!(
            "decoding {} (decode needs the options the CNF was exported with, including --bound)",
            model.display()
        )
            },
        )?;
    let mut out = std::io::stdout().lock();
    if common.json {
        serde_json::to_writer(
            &mut out,
            &serde_json::json!({ "puzzle": p.describe(), "status": status, "solution": sol }),
        )?;
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
        Command::Dimacs {
            puzzle,
            output,
            map,
            bound,
            wcnf,
            opb,
        } => {
            let format = match (wcnf, opb) {
                (true, _) => Format::Wcnf,
                (_, true) => Format::Opb,
                _ => Format::Cnf,
            };
            let common = &Common {
                format,
                ..common.clone()
            };
            puzzle
                .command()
                .dimacs(common, output.as_ref(), map.as_ref(), *bound)
        }
        Command::Sat(args) => sat::sat(common, &args.file, !args.no_model),
        Command::Decode {
            puzzle,
            model,
            bound,
        } => {
            let model = model
                .as_ref()
                .context("decode needs --model FILE (the solver's output)")?;
            let common = &Common {
                decode_bound: *bound,
                ..common.clone()
            };
            puzzle.command().decode(common, model)
        }
        Command::Experiment(args) => args.run(common),
    }
}
