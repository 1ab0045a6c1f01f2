//! The command line: `list`, `solve`, `dimacs`, `opb`, `decode`, `sat`,
//! `experiment`. This module only parses and dispatches: each puzzle
//! contributes an `Args` struct implementing
//! [`PuzzleCommand`](crate::front::PuzzleCommand), registered by one line in
//! [`crate::puzzles`]; the shared options and handlers live in
//! [`crate::front`], and `list` is generated from the clap definitions.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

pub mod experiment;
pub mod sat;

use crate::front::{Common, DimacsTarget};
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
        /// optimise cube by cube: split on the puzzle's first ⌈log2 K⌉ splitting literals into at least K cubes, 2 to 65536 (docs/cubes.md)
        #[arg(long, global = true, value_name = "K", value_parser = clap::value_parser!(u32).range(2..=i64::from(crate::drive::cubes::MAX_CUBES)))]
        cubes: Option<u32>,
        /// with --cubes: append each cube's result to FILE as it finishes, and skip the cubes it closes (a rerun resumes)
        #[arg(long, global = true, value_name = "FILE", requires = "cubes")]
        cube_file: Option<PathBuf>,
        /// with --cube-file: take records written by another build or for another CNF (refused otherwise); the claim then says they are trusted, not proven
        #[arg(long, global = true, requires = "cube_file")]
        trust_cube_file: bool,
        /// with --cubes: solve cube I alone and print its report (a cluster job)
        #[arg(long, global = true, value_name = "I", requires = "cubes")]
        cube: Option<u32>,
        /// with --cubes: threads solving cubes, each with its own solver session, 1 to 256
        #[arg(long, global = true, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
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
    /// write a puzzle's PB model as OPB: its rules over the primary variables, what a VeriPB proof starts from
    Opb {
        /// which puzzle
        #[command(subcommand)]
        puzzle: PuzzleCmd,
        /// output file (default: stdout)
        #[arg(short, long, global = true)]
        output: Option<PathBuf>,
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

pub use crate::puzzles::PuzzleCmd;

/// `puzzlesat list`, generated from the clap definitions: each puzzle's
/// name and help, then its options with their values and defaults.
pub fn list() -> String {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let solve = cli.find_subcommand("solve").expect("the solve command");
    let mut out = String::new();
    for p in solve.get_subcommands() {
        let about = p.get_about().map(|a| a.to_string()).unwrap_or_default();
        out += &format!("{} — {about}\n", p.get_name());
        for arg in p
            .get_arguments()
            .filter(|a| !a.is_global_set() && a.get_id() != "help")
        {
            let name = match (arg.get_short(), arg.get_long()) {
                (Some(s), Some(l)) => format!("-{s}, --{l}"),
                (None, Some(l)) => format!("--{l}"),
                (Some(s), None) => format!("-{s}"),
                (None, None) => format!("<{}>", arg.get_id()),
            };
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
            let mut line = format!("  {name}");
            if !values.is_empty() && takes_value {
                line += &format!(" {}", values.join("|"));
            }
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !defaults.is_empty() && takes_value {
                line += &format!(" (default {})", defaults.join(","));
            }
            if let Some(help) = arg.get_help() {
                line = format!("{line:<36} {help}");
            }
            out += line.trim_end();
            out += "\n";
        }
        out += "\n";
    }
    out
}

/// Runs the parsed command line.
pub fn main_with(cli: Cli) -> anyhow::Result<ExitCode> {
    let common = &cli.common;
    match &cli.command {
        Command::List => {
            print!("{}", list());
            println!("solvers: batsat (default), varisat, splr, cadical (feature), portfolio, external:<cmd>");
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve {
            puzzle,
            cubes,
            cube_file,
            trust_cube_file,
            cube,
            jobs,
        } => {
            if *jobs > 1 && cubes.is_none() {
                anyhow::bail!("--jobs {jobs} solves cubes in parallel: give --cubes K too");
            }
            let common = &Common {
                cubes: cubes.map(|count| crate::drive::cubes::CubeOptions {
                    count,
                    file: cube_file.clone(),
                    only: *cube,
                    jobs: usize::from(*jobs),
                    trust: *trust_cube_file,
                }),
                ..common.clone()
            };
            puzzle.command().solve(common)
        }
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
        Command::Opb { puzzle, output } => puzzle.command().opb(common, output.as_deref()),
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
