//! The command line: `list`, `solve`, `dimacs`, `opb`, `decode`, `sat`,
//! `experiment`. This module only parses and dispatches: each puzzle family
//! has its command line here (`cli/<family>.rs`: an `Args` struct
//! implementing [`PuzzleCommand`](crate::front::PuzzleCommand) that turns
//! its arguments into the family's [`Puzzle`](crate::puzzle::Puzzle) value),
//! registered by one line of [`puzzles!`] below; the shared options and
//! handlers live in [`crate::front`], and `list` is generated from the clap
//! definitions.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};

pub mod experiment;
pub mod sat;

/// Declares the families' command-line modules and [`PuzzleCmd`], the
/// subcommand naming a puzzle: one line `Variant => module,` per family,
/// whose `module::Args` implements
/// [`PuzzleCommand`](crate::front::PuzzleCommand) (the doc comment of the
/// `Args` struct is the subcommand's help).
macro_rules! puzzles {
    ($($variant:ident => $module:ident,)*) => {
        $(pub mod $module;)*

        /// The puzzles: one variant per family.
        #[derive(Debug, clap::Subcommand)]
        pub enum PuzzleCmd {
            $(
                #[allow(missing_docs)]
                $variant($module::Args),
            )*
        }

        impl PuzzleCmd {
            /// The puzzle's command handlers.
            pub fn command(&self) -> &dyn crate::front::PuzzleCommand {
                match self {
                    $(PuzzleCmd::$variant(a) => a,)*
                }
            }
        }
    };
}

puzzles! {
    RookTour => rook_tour,
    AlienTiles => alien_tiles,
    Enigma => enigma,
    Magic => magic,
    Queens => queens,
    Pb => pb,
}

use crate::front::{Common, Cubes, DimacsTarget};
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
        /// `--cubes` and its companions
        #[command(flatten)]
        cubes: Cubes,
    },
    /// write a puzzle's CNF as DIMACS
    #[command(subcommand_required = false, args_conflicts_with_subcommands = true)]
    Dimacs {
        /// which puzzle
        #[command(subcommand)]
        puzzle: Option<PuzzleCmd>,
        /// an OPB file instead of a puzzle: `dimacs pb FILE` with the default encodings
        #[arg(long, value_name = "FILE.opb")]
        from: Option<PathBuf>,
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
    /// solve or optimise an OPB file (the same as `solve pb FILE`)
    Pb {
        /// the file and its encodings
        #[command(flatten)]
        args: pb::Args,
        /// `--cubes` and its companions
        #[command(flatten)]
        cubes: Cubes,
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
    /// re-check the claims a `solve … --certify --proof-dir DIR` run kept: the model derived again, every proof checked by veripb
    Verify {
        /// the folder the run kept its model and proofs in
        dir: PathBuf,
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

impl Cli {
    /// The files the command writes (with their flags), the folders it
    /// writes into, and the files it reads.
    #[allow(clippy::type_complexity)]
    fn files(&self) -> (Vec<(&str, &Path)>, Vec<(&str, &Path)>, Vec<(&str, &Path)>) {
        let (mut outputs, mut folders, mut inputs) = (vec![], vec![], vec![]);
        let common = &self.common;
        if let Some(p) = &common.svg {
            outputs.push(("--svg", p.as_path()));
        }
        if let Some(p) = &common.proof_dir {
            folders.push(("--proof-dir", p.as_path()));
        }
        let puzzle = match &self.command {
            Command::Solve { puzzle, cubes } => {
                if let Some(p) = &cubes.cube_file {
                    // read, then appended to as a record file
                    inputs.push(("--cube-file", p.as_path()));
                }
                Some(puzzle)
            }
            Command::Pb { args, cubes } => {
                if let Some(p) = &cubes.cube_file {
                    inputs.push(("--cube-file", p.as_path()));
                }
                inputs.extend(crate::front::PuzzleCommand::inputs(args));
                None
            }
            Command::Dimacs {
                puzzle,
                from,
                output,
                map,
                ..
            } => {
                outputs.extend(output.as_deref().map(|p| ("-o", p)));
                outputs.extend(map.as_deref().map(|p| ("--map", p)));
                inputs.extend(from.as_deref().map(|p| ("--from", p)));
                puzzle.as_ref()
            }
            Command::Opb { puzzle, output } => {
                outputs.extend(output.as_deref().map(|p| ("-o", p)));
                Some(puzzle)
            }
            Command::Decode { puzzle, model, .. } => {
                inputs.extend(model.as_deref().map(|p| ("--model", p)));
                Some(puzzle)
            }
            Command::Sat(args) => {
                inputs.push(("sat", args.file.as_path()));
                None
            }
            Command::List | Command::Experiment(_) | Command::Verify { .. } => None,
        };
        if let Some(p) = puzzle {
            inputs.extend(p.command().inputs());
        }
        (outputs, folders, inputs)
    }

    /// Refuses, before any work, what the options ask that cannot be
    /// done or would do nothing: an output that cannot be written or
    /// would replace an input of the run, `--proof-dir` where no VeriPB
    /// proof is kept, and for `dimacs` and `opb` (which write a formula or
    /// a model and solve nothing) `--svg`, `--json` and `--certify`.
    fn check(&self) -> anyhow::Result<()> {
        let common = &self.common;
        if common.proof_dir.is_some() && common.proof_format == crate::certify::ProofFormat::Drat {
            bail!("--proof-dir keeps VeriPB proofs, and --proof-format drat writes none (its DRAT proof is checked here and deleted): drop one of them");
        }
        if let Command::Dimacs { .. } | Command::Opb { .. } = &self.command {
            let name = match &self.command {
                Command::Opb { .. } => "opb writes a PB model",
                _ => "dimacs writes a formula",
            };
            for (given, flag) in [
                (common.svg.is_some(), "--svg"),
                (common.json, "--json"),
                (common.certify, "--certify"),
            ] {
                if given {
                    bail!("{flag} has no effect here: {name} and solves nothing; drop it");
                }
            }
        }
        let (outputs, folders, inputs) = self.files();
        for &(flag, path) in &outputs {
            crate::io::output::check_file(flag, path)?;
        }
        for &(flag, path) in &folders {
            crate::io::output::check_folder(flag, path)?;
        }
        crate::io::output::refuse_onto_inputs(&outputs, &inputs)
    }
}

/// Runs the parsed command line.
pub fn main_with(cli: Cli) -> anyhow::Result<ExitCode> {
    let common = &cli.common;
    cli.check()?;
    // a proof solver that cannot run is refused before anything is solved
    if let Some(producer) = common.producer() {
        producer.check()?;
    }
    match &cli.command {
        Command::List => {
            print!("{}", list());
            print!("{}", crate::solver::listing());
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve { puzzle, cubes } => puzzle.command().solve(common, cubes),
        Command::Pb { args, cubes } => crate::front::PuzzleCommand::solve(args, common, cubes),
        Command::Dimacs {
            puzzle,
            from,
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
            match (puzzle, from) {
                (Some(p), _) => p.command().dimacs(common, &target),
                (None, Some(file)) => crate::front::PuzzleCommand::dimacs(
                    &pb::Args::with_defaults(file.clone()),
                    common,
                    &target,
                ),
                (None, None) => anyhow::bail!("dimacs needs a puzzle or --from FILE.opb"),
            }
        }
        Command::Opb { puzzle, output } => {
            let _watchdog = common.writer_watchdog("opb", output.as_deref());
            crate::front::write_opb(&puzzle.command().pb_model(common)?, output.as_deref())
        }
        Command::Verify { dir } => verify(dir, &common.limits()),
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

/// `verify DIR`: prints each established claim (exit 0), or the reason the
/// kept files do not establish one (exit 1).
fn verify(dir: &std::path::Path, limits: &crate::solver::Limits) -> anyhow::Result<ExitCode> {
    use crate::certify::verify::{verify_dir, VerifyError};
    let dir = std::path::absolute(dir).context("verify")?;
    // the model of a kept command line, as `puzzlesat opb` writes it (its
    // relative paths are the run's directory's, where that still exists)
    let model_of = |args: &[String], cwd: &std::path::Path| {
        if cwd.is_dir() {
            std::env::set_current_dir(cwd)?;
        }
        let words = std::iter::once("puzzlesat".to_string()).chain(args.iter().cloned());
        let cli = Cli::try_parse_from(words).map_err(|e| anyhow::anyhow!("{}", e.kind()))?;
        let Command::Solve { puzzle, .. } = &cli.command else {
            anyhow::bail!("not a `solve` command");
        };
        puzzle.command().pb_model(&cli.common)
    };
    match verify_dir(&dir, &model_of, limits) {
        Ok(claims) => {
            // a closed pipe is an error, not a panic (as the other commands)
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for c in claims {
                writeln!(out, "{} ({})", c.statement, c.manifest)?;
                writeln!(out, "c {}", c.how)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(VerifyError::Rejected(why)) => {
            eprintln!("rejected: {}", crate::io::one_line(&why));
            Ok(ExitCode::from(1))
        }
        Err(e @ VerifyError::Error(_)) => Err(e.into()),
    }
}
