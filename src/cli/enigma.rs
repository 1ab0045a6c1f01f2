//! `puzzlesat solve|dimacs|decode enigma`: the three methods behind one
//! command line, and `--table A..B` for Table 2 of Cambazard, O'Sullivan &
//! Smith with this machine's numbers next to the paper's.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::solve::Strategy;
use serde::Serialize;

use crate::puzzles::enigma::encode::{BoardOptions, Dominance, Redundant, Symmetry};
use crate::puzzles::enigma::model::MIN_N;
use crate::puzzles::enigma::paper::table2_row;
use crate::puzzles::enigma::partitions::{BoundKind, Partitions};
use crate::puzzles::enigma::{reference, Enigma, EnigmaDetails, EnigmaSolution, Method};
use puzzlesat_encodings::PbModel;
use crate::front::{
    choices, decode_generic, dimacs_generic, pb_model_generic, Common, Cubes, DimacsTarget,
    PuzzleCommand,
};
use crate::report::{Report, Status};
use crate::run::{self, RunOptions};
use crate::solver::Limits;

/// Largest n for the board CNF (its objective totalizer over the occurrence
/// counters needs several GiB from n = 12 on).
pub const BOARD_MAX_N: usize = 12;
/// Largest n for the partitions method (its UBNVAL totalizer grows as n⁴).
pub const PARTITIONS_MAX_N: usize = 100;
/// Largest n for the reference search.
pub const REFERENCE_MAX_N: usize = 400;

/// An inclusive range `A..B` (or a single `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    /// first
    pub from: usize,
    /// last (inclusive)
    pub to: usize,
}

impl FromStr for SizeRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parse = |x: &str| {
            x.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{x}' is not a board size"))
        };
        let r = match s.split_once("..") {
            Some((a, b)) => SizeRange {
                from: parse(a)?,
                to: parse(b.trim_start_matches('='))?,
            },
            None => {
                let n = parse(s)?;
                SizeRange { from: n, to: n }
            }
        };
        if r.from > r.to {
            return Err(format!("empty range {s}"));
        }
        Ok(r)
    }
}

/// Enigma 1225 "rows are columns" on an n×n board (Cambazard, O'Sullivan & Smith)
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// board side n: 1 to 12 for --method board, 1 to 100 for partitions, 1 to 400 for reference (boards exist for n ≥ 3)
    #[arg(short = 'n', long = "size")]
    pub n: Option<usize>,
    /// method: partitions (SAT over cycle types), board (the whole board in
    /// CNF) or reference (structured search, no SAT); dimacs/decode always
    /// use the board CNF
    #[arg(long, value_parser = choices::<Method>())]
    pub method: Option<Method>,
    /// board CNF: permutation symmetry breaking, none or cycles
    #[arg(long, default_value = "cycles", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// board CNF: redundant constraints, a list of occ3, ubnval, gcd, staircase (or none, all)
    #[arg(long, default_value = "occ3,ubnval,gcd,staircase")]
    pub redundant: Redundant,
    /// board CNF: dominance constraints, none, counts or orbits12
    #[arg(long, default_value = "orbits12", value_parser = choices::<Dominance>())]
    pub dominance: Dominance,
    /// partitions: bound a cycle type must beat, orbits or paper (n²·UBNVAL)
    #[arg(long = "score-bound", default_value = "orbits", value_parser = choices::<BoundKind>())]
    pub ub: BoundKind,
    /// partitions: do not start from the {2, …, 2} cycle type
    #[arg(long)]
    pub no_warm_start: bool,
    /// solve every n in A..B (A and B from 1 to 400 within the method's range of -n) and print a Table-2-style table
    #[arg(long)]
    pub table: Option<SizeRange>,
}

impl Args {
    fn options(&self) -> BoardOptions {
        BoardOptions {
            symmetry: self.symmetry,
            redundant: self.redundant,
            dominance: self.dominance,
        }
    }
    fn method(&self) -> Method {
        self.method.unwrap_or_default()
    }
    fn size(&self) -> anyhow::Result<usize> {
        match self.n {
            Some(n) => Ok(n),
            None => bail!("enigma needs the board size: -n N (or --table A..B for solve)"),
        }
    }
    fn board_puzzle(&self, n: usize) -> anyhow::Result<Enigma> {
        check_range(Method::Board, n)?;
        self.options().validate().map_err(anyhow::Error::msg)?;
        Ok(Enigma {
            n,
            opts: self.options(),
        })
    }
}

/// Rejects sizes a method does not take, with a sentence saying why.
pub fn check_range(method: Method, n: usize) -> anyhow::Result<()> {
    let max = match method {
        Method::Board => BOARD_MAX_N,
        Method::Partitions => PARTITIONS_MAX_N,
        Method::Reference => REFERENCE_MAX_N,
    };
    if n < MIN_N || n > max {
        bail!("-n {n} is out of range for --method {method}: expected {MIN_N} ≤ n ≤ {max}");
    }
    Ok(())
}

/// Runs one method on one n and returns its report (every board checked).
pub fn run_method(
    args: &Args,
    method: Method,
    n: usize,
    common: &Common,
    cubes: &Cubes,
    limits: Limits,
    progress: &mut dyn Write,
) -> anyhow::Result<Report<EnigmaSolution, EnigmaDetails>> {
    check_range(method, n)?;
    let opts = &common.run_options(cubes)?;
    match method {
        Method::Board => {
            let p = args.board_puzzle(n)?;
            common.check_budget(&p)?;
            // bisection: the staircase refutes targets far above the
            // optimum by propagation (docs/enigma.md: n = 10, 3× faster)
            let opts = &RunOptions {
                strategy: common.strategy.unwrap_or(Strategy::Binary),
                ..opts.clone()
            };
            run::run(&p, opts, limits, progress)
        }
        Method::Partitions => {
            let p = Partitions {
                n,
                bound: args.ub,
                warm_start: !args.no_warm_start,
                pb: common.objective_encoding,
            };
            run::run(&p, opts, limits, progress)
        }
        Method::Reference => reference::report(n),
    }
}

/// One row of `--table`.
#[derive(Clone, Debug, Serialize)]
struct TableRow {
    n: usize,
    method: Method,
    status: Status,
    optimum: Option<u64>,
    seconds: f64,
    sat_calls: u32,
    explored: Option<u64>,
    total_partitions: Option<u64>,
    partition: Option<String>,
    paper_optimum: Option<u64>,
    paper_seconds: Option<f64>,
    paper_explored: Option<u64>,
}

fn table(
    args: &Args,
    range: SizeRange,
    common: &Common,
    cubes: &Cubes,
) -> anyhow::Result<ExitCode> {
    let method = args.method();
    let mut out = std::io::stdout().lock();
    if !common.json {
        writeln!(
            out,
            "| n | optimum | seconds | SAT calls | explored | total partitions | optimal partition | paper optimum | paper seconds | paper explored |"
        )?;
        writeln!(out, "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")?;
    }
    let mut all_agree = true;
    // one time limit for the whole table (not one per row)
    let limits = common.limits();
    for n in range.from..=range.to {
        if limits.expired() {
            eprintln!("stopped before n = {n}: time limit or interrupt");
            break;
        }
        let t = Instant::now();
        let r = run_method(
            args,
            method,
            n,
            common,
            cubes,
            limits.clone(),
            &mut std::io::sink(),
        )?;
        let row = TableRow {
            n,
            method,
            status: r.status,
            optimum: r.objective.map(|v| v as u64),
            seconds: t.elapsed().as_secs_f64(),
            sat_calls: r.sat_calls,
            explored: r.details.explored,
            total_partitions: r.details.total_partitions,
            partition: r.details.partition.clone(),
            paper_optimum: None,
            paper_seconds: None,
            paper_explored: None,
        };
        let paper = table2_row(n);
        let row = TableRow {
            paper_optimum: paper.map(|p| p.optimum),
            paper_seconds: paper.map(|p| p.seconds),
            paper_explored: paper.map(|p| p.explored),
            ..row
        };
        // a row stopped by the limit proves nothing: only optima are compared
        if let (Some(a), Some(b), Status::Optimal) = (row.optimum, row.paper_optimum, row.status) {
            all_agree &= a == b;
        }
        if common.json {
            serde_json::to_writer(&mut out, &row)?;
            writeln!(out)?;
        } else {
            let opt = |v: Option<u64>| v.map_or("–".to_string(), |v| v.to_string());
            let status = match row.status {
                Status::Optimal | Status::Unsat => String::new(),
                s => format!(" ({s:?}, not proven)").to_lowercase(),
            };
            writeln!(
                out,
                "| {} | {}{} | {:.3} | {} | {} | {} | {} | {} | {} | {} |",
                n,
                opt(row.optimum),
                status,
                row.seconds,
                row.sat_calls,
                opt(row.explored),
                opt(row.total_partitions),
                row.partition.as_deref().unwrap_or("infeasible"),
                opt(row.paper_optimum),
                row.paper_seconds.map_or("–".to_string(), |s| s.to_string()),
                opt(row.paper_explored),
            )?;
        }
        out.flush()?;
    }
    if !all_agree {
        bail!("some proven optimum differs from the paper's Table 2");
    }
    Ok(ExitCode::SUCCESS)
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        if common.certify && self.method() == Method::Reference {
            bail!("--certify backs UNSAT answers: the reference method uses no SAT solver (use --method board or partitions)");
        }
        if let Some(range) = self.table {
            return table(self, range, common, cubes);
        }
        let n = self.size()?;
        let method = self.method();
        if method != Method::Board && (common.all || common.count) {
            bail!(
                "--all and --count enumerate boards of the board CNF: use them with --method board"
            );
        }
        let limits = common.limits();
        let watchdog = common.watchdog(
            format!("enigma n={n} method={method}"),
            "solutions",
            &common.solver,
            &limits,
        );
        let r = run_method(self, method, n, common, cubes, limits, &mut common.progress())?;
        drop(watchdog);
        common.print(r, EnigmaSolution::render, |s| Some(s.picture()))
    }

    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "dimacs writes the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(self.size()?)?;
        dimacs_generic(&p, common, target)
    }

    fn decode(
        &self,
        common: &Common,
        model: &Path,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "decode reads models of the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(self.size()?)?;
        decode_generic(&p, common, model, bound)
    }

    /// The board's model, whatever the method (the rules are the same).
    fn pb_model(&self, common: &Common) -> anyhow::Result<PbModel> {
        pb_model_generic(&self.board_puzzle(self.size()?)?, common)
    }
}
