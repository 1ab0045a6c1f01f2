//! The front end above the runner: the options every command shares
//! ([`Common`]), what each puzzle's arguments can do ([`PuzzleCommand`]),
//! the generic `solve` / `dimacs` / `decode` handlers, and the exit code of
//! a report. `crate::cli` builds on this module, each family's command line
//! in `cli/<family>.rs`; the puzzles never depend on either.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use puzzlesat_encodings::pb::PbEncoding;
use puzzlesat_encodings::solve::{EnumerationEngine, Strategy};
use puzzlesat_encodings::OptionEnum;
use puzzlesat_encodings::PbModel;
use serde::Serialize;

pub mod progress;
pub mod watchdog;

use crate::drive::cubes::{CubeOptions, MAX_CUBES};
use crate::io::dimacs::Format;
use crate::picture::{self, Picture, MAX_PICTURES};
use crate::puzzle::Puzzle;
use crate::report::{process_start, Details, Output, Report, Status, PRINT_CAP_BYTES};
use crate::run::{self, RunOptions};
use crate::solver::{Capabilities, Limits, SolverKind};
use crate::values::Seconds;

/// A clap value parser for an option enum: `--help` and error messages list
/// its values.
pub fn choices<T: OptionEnum + Send + Sync + 'static>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::names())
        .map(|s| T::parse_name(&s).expect("clap checked the value against the names"))
}

puzzlesat_encodings::option_enum! {
    /// Which solutions the text output draws (`--print`).
    #[derive(Default)]
    pub enum Print("print mode") {
        /// solutions up to [`PRINT_CAP_BYTES`] of text, then a note with how
        /// many were left out (e.g. `solve enigma -n 400`, `--all` with
        /// thousands of solutions)
        #[default]
        Capped = "capped",
        /// every solution, however long
        All = "all",
    }
}

/// Options shared by every command (accepted before or after the puzzle).
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// enumerate every solution (the count is exact when it ends on UNSAT)
    #[arg(long, global = true)]
    pub all: bool,
    /// with --all: stop after this many (at least 1)
    #[arg(long, global = true, requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// SAT backend (the registry's names, `puzzlesat list` says what each can do)
    #[arg(long, global = true, default_value = "batsat", help = crate::solver::help())]
    pub solver: SolverKind,
    /// wall-clock limit in seconds, above 0 and at most 10000000 (the best solution so far is reported)
    #[arg(long, global = true, allow_negative_numbers = true)]
    pub timeout: Option<Seconds>,
    /// the most clauses a puzzle's CNF may have (for `opb`: the most terms its PB model may have), checked on an estimate from the parameters before anything is built, 1 to 4294967295
    #[arg(long, global = true, default_value_t = crate::values::DEFAULT_MAX_CLAUSES, value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    pub max_clauses: u64,
    /// one JSON object per result on stdout
    #[arg(long, global = true)]
    pub json: bool,
    /// the MaxSAT / PB evaluations' output: `o V` as the objective improves,
    /// then `s OPTIMUM FOUND|SATISFIABLE|UNSATISFIABLE|UNKNOWN` and a `v`
    /// line; exit 30 for a proven optimum (docs/usage.md)
    #[arg(long, global = true, conflicts_with = "json")]
    pub competition: bool,
    /// also draw every answer into FILE, an SVG picture (the answers side by side)
    #[arg(long, global = true, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// the solver's random seed, 0 to 18446744073709551615 (default: its own fixed search); a solver
    /// without one refuses it
    #[arg(long, global = true)]
    pub seed: Option<u64>,
    /// with --all: enumerate every solution by blocking clauses, not one
    /// representative per symmetry class expanded by the puzzle's group
    #[arg(long, global = true)]
    pub no_classes: bool,
    /// the summary only: no solutions drawn on stdout, no progress on stderr
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// count the solutions (as --all does) and print only the count: text,
    /// the summary line; JSON, the report with `solutions` empty
    #[arg(long, global = true)]
    pub count: bool,
    /// more output on stderr
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// which solutions the text output draws: capped (up to 100 kB of
    /// text, then a note saying how many were left out) or all (JSON always
    /// carries every solution)
    #[arg(long, global = true, default_value = "capped", value_parser = choices::<Print>())]
    pub print: Print,
    /// PB encoding of the objective bound
    #[arg(long, global = true, default_value = "gte", value_parser = choices::<PbEncoding>())]
    pub objective_encoding: PbEncoding,
    /// bound search: sat-unsat, unsat-sat, binary [default: sat-unsat; binary for enigma --method board]
    #[arg(long, global = true, value_parser = choices::<Strategy>())]
    pub strategy: Option<Strategy>,
    /// back every UNSAT answer a claim rests on by a checked proof: a VeriPB
    /// proof from the puzzle's PB model where it covers the run, else a
    /// DRAT proof checked here (--proof-format; docs/certify.md)
    #[arg(long, global = true)]
    pub certify: bool,
    /// with --certify: the solver writing proofs: varisat, cadical, kissat,
    /// cryptominisat5, external:<cmd> (default: the external solver itself,
    /// else varisat)
    #[arg(long, global = true, requires = "certify")]
    pub proof_solver: Option<crate::certify::Producer>,
    /// with --certify: veripb (a VeriPB proof from the puzzle's PB model,
    /// checked by `veripb`, where the family has a model; DRAT otherwise) or
    /// drat (a DRAT proof of the CNF, checked here)
    #[arg(long, global = true, requires = "certify", default_value = "veripb", value_parser = choices::<crate::certify::ProofFormat>())]
    pub proof_format: crate::certify::ProofFormat,
    /// with --certify: keep the PB model (.opb) and each VeriPB proof (.pbp,
    /// the same stem, a new one per run: STEM-2 … where STEM is taken) in
    /// this directory
    #[arg(long, global = true, requires = "certify")]
    pub proof_dir: Option<std::path::PathBuf>,
    /// how --all / --count enumerate: non-blocking (the built-in engine,
    /// chronological backtracking, no clause per model), decision-blocking
    /// (the built-in engine, a clause of the negated decisions per model) or
    /// blocking (the --solver, a clause over every primary literal per
    /// model) [default: non-blocking; blocking with a --solver other than batsat]
    #[arg(long, global = true, value_parser = choices::<EnumerationEngine>())]
    pub enumeration: Option<EnumerationEngine>,
}

/// `solve --cubes` and its companions (docs/cubes.md): options of `solve`
/// that travel beside [`Common`] (flattened into the `solve` command).
#[derive(Debug, Clone, Default, Args)]
pub struct Cubes {
    /// optimise cube by cube: split on the puzzle's first ⌈log2 K⌉ splitting literals into at least K cubes, 2 to 65536 (docs/cubes.md)
    #[arg(long, global = true, value_name = "K", value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_CUBES)))]
    pub cubes: Option<u32>,
    /// with --cubes: append each cube's result to FILE as it finishes, and skip the cubes it closes (a rerun resumes)
    #[arg(long, global = true, value_name = "FILE", requires = "cubes")]
    pub cube_file: Option<PathBuf>,
    /// with --cube-file: take records written by another build or for another CNF (refused otherwise); the claim then says they are trusted, not proven
    #[arg(long, global = true, requires = "cube_file")]
    pub trust_cube_file: bool,
    /// with --cubes: solve cube I alone and print its report (a cluster job)
    #[arg(long, global = true, value_name = "I", requires = "cubes")]
    pub cube: Option<u32>,
    /// with --cubes: threads solving cubes, each with its own solver session, 1 to 256 (at most one per cube to solve)
    #[arg(long, global = true, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
}

impl Cubes {
    /// The cube options of the run (None: no `--cubes`); `--jobs` without
    /// `--cubes` is an error.
    pub fn options(&self) -> anyhow::Result<Option<CubeOptions>> {
        match self.cubes {
            None if self.jobs > 1 => anyhow::bail!(
                "--jobs {} solves cubes in parallel: give --cubes K too",
                self.jobs
            ),
            None => Ok(None),
            Some(count) => Ok(Some(CubeOptions {
                count,
                file: self.cube_file.clone(),
                only: self.cube,
                jobs: usize::from(self.jobs),
                trust: self.trust_cube_file,
            })),
        }
    }
}

impl Common {
    /// Where the runner's progress lines go: nowhere with `-q`, else a
    /// spinner on stderr ([`progress::Progress`]).
    pub fn progress(&self) -> Box<dyn Write> {
        let lines: Box<dyn Write> = if self.quiet {
            Box::new(std::io::sink())
        } else {
            Box::new(progress::Progress::stderr())
        };
        if self.competition {
            Box::new(progress::OLines::new(lines))
        } else {
            lines
        }
    }
    /// Limits from `--timeout`, counted from the process's start (reading
    /// and parsing the instance count too), with Ctrl-C wired to the
    /// interrupt flag.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::with_timeout(None);
        limits.deadline = self
            .timeout
            .and_then(|t| process_start().checked_add(t.duration()));
        limits.interrupt = interrupt_flag();
        limits
    }
    /// Refuses a puzzle whose CNF is estimated (from its parameters, before
    /// anything is allocated) to exceed `--max-clauses`.
    pub fn check_budget<P: Puzzle>(&self, p: &P) -> anyhow::Result<()> {
        run::check_budget(p, self.max_clauses)
    }
    /// The proof solver, with `--certify`.
    pub fn producer(&self) -> Option<crate::certify::Producer> {
        self.certify.then(|| {
            self.proof_solver
                .clone()
                .unwrap_or_else(|| crate::certify::Producer::for_solver(&self.solver))
        })
    }
    /// How much of a report is printed (`--count`, `-q`).
    pub fn output(&self) -> Output {
        if self.count {
            Output::Count
        } else if self.quiet {
            Output::Quiet
        } else {
            Output::Full {
                cap: match self.print {
                    Print::Capped => Some(PRINT_CAP_BYTES),
                    Print::All => None,
                },
            }
        }
    }
    /// Run options from the common flags (`--count` enumerates, as `--all`)
    /// and the cube options beside them; a flag the backend cannot honour
    /// (`--seed` with a backend that takes none) is refused here, before
    /// the run, in one sentence.
    pub fn run_options(&self, cubes: &Cubes) -> anyhow::Result<RunOptions> {
        if let Some(seed) = self.seed {
            let wanted = Capabilities {
                seed: true,
                ..Capabilities::default()
            };
            self.solver
                .refuse_unless(&wanted, &format!("--seed {seed}"))?;
        }
        Ok(RunOptions {
            solver: self.solver.clone(),
            all: self.all || self.count,
            limit: self.limit,
            objective_encoding: self.objective_encoding,
            strategy: self.strategy.unwrap_or_default(),
            first: false,
            seed: self.seed,
            certify: self.producer(),
            no_classes: self.no_classes,
            cubes: cubes.options()?,
            enumeration: self.enumeration,
            count_only: self.count,
            proof_format: self.proof_format,
            proof_dir: self.proof_dir.clone(),
        })
    }
    /// Runs `p` with these options and prints the report (JSON or text).
    pub fn solve<P: Puzzle>(&self, p: &P, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        let opts = self.run_options(cubes)?;
        self.check_budget(p)?;
        let limits = self.limits();
        let watchdog = self.watchdog(p.describe(), p.counted_as(), &opts.solver, &limits);
        let report = run::run(p, &opts, limits, &mut self.progress())?;
        drop(watchdog);
        self.print(report, |s| p.render(s), |s| p.picture(s))
    }
    /// Starts the [`watchdog`] of a run of `describe` under `limits`: past
    /// them (and its grace) it prints the report of a run stopped before any
    /// answer, as [`Common::print`] would, and ends the process.
    pub fn watchdog(
        &self,
        describe: String,
        counted_as: &str,
        solver: &SolverKind,
        limits: &Limits,
    ) -> watchdog::Watchdog {
        let (json, mode, competition) = (self.json, self.output(), self.competition);
        let mut report: Report<serde_json::Value, serde_json::Value> =
            Report::new(describe, solver.to_string(), counted_as);
        let interrupt = limits.interrupt.clone();
        watchdog::start(limits, move |out| {
            report.stopped_by = Some(if interrupt.load(std::sync::atomic::Ordering::SeqCst) {
                crate::report::StoppedBy::Interrupt
            } else {
                crate::report::StoppedBy::Timeout
            });
            report
                .seconds
                .close(process_start().elapsed().as_secs_f64());
            let _ = if competition {
                report.print_competition(out)
            } else {
                report.print(json, mode, |_| String::new(), out)
            };
            if !json {
                let _ = writeln!(
                    out,
                    "c the limit came while the CNF was built or loaded, before the solver's first check: no answer"
                );
            }
            0
        })
    }
    /// Prints a report, its total time the process's wall time, and returns
    /// its exit code; with `--svg FILE`, draws its answers there first.
    pub fn print<S: Serialize, D: Details>(
        &self,
        mut report: Report<S, D>,
        render: impl Fn(&S) -> String,
        picture: impl Fn(&S) -> Option<Picture>,
    ) -> anyhow::Result<ExitCode> {
        if let Some(path) = &self.svg {
            self.draw(path, report.solutions.iter().filter_map(picture).collect())?;
        }
        report
            .seconds
            .close(process_start().elapsed().as_secs_f64());
        if self.count {
            // the same fields, the count without the solutions
            report.solutions.clear();
        }
        let _claimed = watchdog::claim_output();
        if self.competition {
            report.print_competition(&mut std::io::stdout().lock())?;
            return Ok(ExitCode::from(report.competition_exit_code()));
        }
        report.print(
            self.json,
            self.output(),
            render,
            &mut std::io::stdout().lock(),
        )?;
        // a cluster job's cube is not the puzzle: Report::exit_code
        Ok(ExitCode::from(report.exit_code()))
    }
}

impl Common {
    /// The watchdog of `dimacs` and `opb` (`command`) writing `output`
    /// (None: stdout): past `--timeout` or at Ctrl-C / SIGTERM (and
    /// [`watchdog::GRACE`]) it says that nothing was written (the
    /// temporary file is removed) and ends the process with exit code 2.
    pub(crate) fn writer_watchdog(
        &self,
        command: &str,
        output: Option<&Path>,
    ) -> watchdog::Watchdog {
        let what = match output {
            Some(p) => format!("{} not written", p.display()),
            None => "the output on stdout is cut short".into(),
        };
        let command = command.to_string();
        let limits = self.limits();
        let interrupt = limits.interrupt.clone();
        watchdog::start(&limits, move |_| {
            let why = if interrupt.load(std::sync::atomic::Ordering::SeqCst) {
                "interrupted (Ctrl-C or SIGTERM)"
            } else {
                "stopped by the time limit"
            };
            eprintln!("error: {command}: {why} before the end: {what}");
            2
        })
    }

    /// `--svg FILE`: writes the pictures of the answers (the first
    /// [`MAX_PICTURES`]), saying on stderr what it drew.
    fn draw(&self, path: &Path, pictures: Vec<Picture>) -> anyhow::Result<()> {
        if pictures.is_empty() {
            eprintln!("c --svg: no answer to draw, {} not written", path.display());
            return Ok(());
        }
        picture::write(path, &pictures).with_context(|| format!("--svg {}", path.display()))?;
        if !self.quiet {
            let drawn = pictures.len().min(MAX_PICTURES);
            let more = match pictures.len() - drawn {
                0 => String::new(),
                k => format!(" ({k} more not drawn)"),
            };
            eprintln!(
                "c --svg: {drawn} answer(s) drawn in {}{more}",
                path.display()
            );
        }
        Ok(())
    }
}

/// SAT-competition exit codes ([`Status::exit_code`]): 10 for a solution,
/// 20 for a proven absence of solutions, 0 for no answer.
pub fn exit_code(s: Status) -> ExitCode {
    ExitCode::from(s.exit_code())
}

/// Where `dimacs` writes, and what.
#[derive(Clone, Debug, Default)]
pub struct DimacsTarget {
    /// output file (None: stdout)
    pub output: Option<PathBuf>,
    /// JSON map naming the primary variables
    pub map: Option<PathBuf>,
    /// decision version: objective at least (maximise) / at most (minimise)
    pub bound: Option<i64>,
    /// CNF, WCNF or OPB
    pub format: Format,
}

/// A puzzle's clap arguments turned into its [`Puzzle`] value: all most
/// puzzles' command lines write. [`PuzzleCommand`] follows for free (the
/// generic `solve`, `dimacs` and `decode` handlers).
pub trait PuzzleArgs {
    /// The puzzle these arguments describe.
    type Puzzle: Puzzle;
    /// The instance to solve (parameters checked: a clear error, never a panic).
    fn puzzle(&self) -> anyhow::Result<Self::Puzzle>;
    /// `solve`: the generic runner on [`PuzzleArgs::puzzle`] unless a
    /// puzzle has another method to offer.
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        common.solve(&self.puzzle()?, cubes)
    }
    /// The option choosing how class counting breaks the symmetry of its
    /// representatives (`--class-symmetry`), when the command line gives
    /// it: it is refused where nothing counts by classes.
    fn class_option(&self) -> Option<String> {
        None
    }
    /// The files these arguments name for the command to read, with their
    /// flags (checked against the run's outputs before any work).
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        vec![]
    }
}

/// Refuses a class-counting option ([`PuzzleArgs::class_option`]) where it
/// has no effect: not `solve` with `--all`/`--count`, with `--no-classes`,
/// or on an instance not counted by classes (a rook tour with its own
/// `--symmetry`).
fn refuse_unused_class_option<A: PuzzleArgs>(
    args: &A,
    common: &Common,
    solving: bool,
) -> anyhow::Result<()> {
    let Some(flag) = args.class_option() else {
        return Ok(());
    };
    let why = if !solving || !(common.all || common.count) {
        "it chooses how solve --all / --count count by symmetry classes, and this command does not count"
    } else if common.no_classes {
        "--no-classes counts without symmetry classes"
    } else if args.puzzle()?.class_representatives().is_none() {
        "this instance is not counted by symmetry classes (its own --symmetry breaks the symmetry, or its board has none)"
    } else {
        return Ok(());
    };
    anyhow::bail!("{flag} has no effect here: {why}; drop it")
}

impl<A: PuzzleArgs> PuzzleCommand for A {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        refuse_unused_class_option(self, common, true)?;
        PuzzleArgs::solve(self, common, cubes)
    }
    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode> {
        refuse_unused_class_option(self, common, false)?;
        dimacs_generic(&self.puzzle()?, common, target)
    }
    fn decode(
        &self,
        common: &Common,
        model: &Path,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        refuse_unused_class_option(self, common, false)?;
        decode_generic(&self.puzzle()?, common, model, bound)
    }
    fn pb_model(&self, common: &Common) -> anyhow::Result<PbModel> {
        refuse_unused_class_option(self, common, false)?;
        pb_model_generic(&self.puzzle()?, common)
    }
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        PuzzleArgs::inputs(self)
    }
}

/// What each puzzle's argument struct can do: implemented through
/// [`PuzzleArgs`], or by hand where a command does more than the generic
/// handlers ([`Common::solve`], [`dimacs_generic`], [`decode_generic`]).
pub trait PuzzleCommand {
    /// `solve` (with the cube options of `solve` beside the common ones)
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode>;
    /// `dimacs`
    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode>;
    /// `decode`: `bound` is the `--bound` the formula was exported with
    fn decode(&self, common: &Common, model: &Path, bound: Option<i64>)
        -> anyhow::Result<ExitCode>;
    /// The puzzle's PB model ([`Puzzle::pb_model`]): what `opb` writes
    /// ([`write_opb`]) and `verify` derives again from a kept command line
    fn pb_model(&self, common: &Common) -> anyhow::Result<PbModel>;
    /// The files the puzzle's arguments name for the command to read
    /// ([`PuzzleArgs::inputs`]).
    fn inputs(&self) -> Vec<(&'static str, &Path)> {
        vec![]
    }
}

/// The PB model of any puzzle, or an error naming the puzzle when it has
/// none for these options (or when its estimated size is over the budget).
pub fn pb_model_generic<P: Puzzle>(p: &P, common: &Common) -> anyhow::Result<PbModel> {
    let terms = p.estimated_pb_terms();
    if terms > common.max_clauses {
        anyhow::bail!(
            "{}: about {terms} terms estimated in its PB model, over the budget of {} (--max-clauses raises it)",
            p.describe(),
            common.max_clauses
        );
    }
    p.pb_model()
        .ok_or_else(|| anyhow::anyhow!("{} has no PB model", p.describe()))
}

/// `opb`: the model as OPB to `output` (None: stdout).
pub fn write_opb(model: &PbModel, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    match output {
        Some(path) => crate::io::write_atomic(path, |mut out| Ok(model.write_opb(&mut out)?))?,
        None => model.write_opb(&mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `dimacs` for any puzzle.
pub fn dimacs_generic<P: Puzzle>(
    p: &P,
    common: &Common,
    target: &DimacsTarget,
) -> anyhow::Result<ExitCode> {
    common.check_budget(p)?;
    let _watchdog = common.writer_watchdog("dimacs", target.output.as_deref());
    let write_formula = |out: &mut dyn Write| {
        run::export_formula(
            p,
            target.bound,
            common.objective_encoding,
            target.format,
            out,
        )
    };
    // a file appears whole or not at all (a full disk leaves no truncated CNF)
    let enc = match &target.output {
        Some(path) => {
            let mut enc = None;
            crate::io::write_atomic(path, |out| {
                enc = Some(write_formula(out)?);
                Ok(())
            })?;
            enc.expect("written")
        }
        None => write_formula(&mut std::io::stdout().lock())?,
    };
    if let Some(path) = &target.map {
        let names: serde_json::Map<String, serde_json::Value> = enc
            .names
            .iter()
            .map(|(name, lit)| (name.clone(), serde_json::Value::from(lit.to_ipasir())))
            .collect();
        let doc = serde_json::json!({ "instance": p.describe(), "variables": names });
        crate::io::write_string_atomic(path, &serde_json::to_string_pretty(&doc)?)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `decode` for any puzzle.
pub fn decode_generic<P: Puzzle>(
    p: &P,
    common: &Common,
    model: &Path,
    bound: Option<i64>,
) -> anyhow::Result<ExitCode> {
    common.check_budget(p)?;
    let text = crate::io::input::read_text(model)?;
    let (status, sol) = run::decode_output(p, &text, bound, common.objective_encoding)
        .with_context(|| {
            format!(
            "decoding {} (decode needs the options the CNF was exported with, including --bound)",
            model.display()
        )
        })?;
    if let Some(path) = &common.svg {
        common.draw(path, sol.iter().filter_map(|s| p.picture(s)).collect())?;
    }
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
            None => writeln!(out, "solver answered {status}: no solution to decode")?,
        }
    }
    Ok(exit_code(status))
}

/// The process's one interrupt flag, set by Ctrl-C and SIGTERM: every
/// [`Common::limits`] shares it (a process has one signal handler, so a
/// second flag would never be set).
fn interrupt_flag() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    static FLAG: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
        std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let set = flag.clone();
        // a handler installed by the embedding program stays: ignore
        let _ = ctrlc::set_handler(move || set.store(true, std::sync::atomic::Ordering::SeqCst));
        flag
    })
    .clone()
}
