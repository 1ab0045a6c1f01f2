//! The command line: `list`, `solve`, `dimacs`, `decode`, `sat`,
//! `experiment`. This module only parses and dispatches: each puzzle
//! contributes an `Args` struct implementing
//! [`PuzzleCommand`](crate::front::PuzzleCommand), and the shared options
//! and handlers live in [`crate::front`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

pub mod experiment;
pub mod sat;

use crate::front::{Common, DimacsTarget, PuzzleCommand};
use crate::io::dimacs::Format;

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
        /// decision version: objective at least (maximise) / at most (minimise) this, any integer from -9223372036854775808 to 9223372036854775807 (beyond the objective's range: trivially true or false)
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
        /// the `--bound` the formula was exported with (`dimacs --bound`), -9223372036854775808 to 9223372036854775807
        #[arg(long, global = true)]
        bound: Option<i64>,
    },
    /// solve a DIMACS CNF file: SAT-competition output, exit code 10/20/0
    Sat(sat::SatArgs),
    /// run a grid of solves (spec file or flags), collect, summarise, plot
    Experiment(Box<experiment::Args>),
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
            let target = DimacsTarget {
                output: output.clone(),
                map: map.clone(),
                bound: *bound,
                format,
            };
            puzzle.command().dimacs(common, &target)
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
            puzzle.command().decode(common, model, *bound)
        }
        Command::Experiment(args) => args.run(common),
    }
}
