//! `puzzlesat solve|dimacs|decode enigma`: the three methods behind one
//! command line, and `--table A..B` for Table 2 of Cambazard, O'Sullivan &
//! Smith with this machine's numbers next to the paper's.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use anyhow::bail;
use serde::Serialize;

use super::encode::{BoardOptions, Dominance, Redundant, Symmetry};
use super::model::{partition_compact, Derangement, MIN_N};
use super::paper::table2_row;
use super::partitions::{solve_partitions, BoundKind};
use super::reference::solve_reference;
use super::{Enigma, EnigmaSolution};
use crate::cli::{decode_generic, dimacs_generic, exit_code, solve_generic, Common, PuzzleCommand};
use crate::run::{self, Status};

/// Largest n for the board CNF (its objective totalizer over the occurrence
/// counters needs several GiB from n = 12 on).
pub const BOARD_MAX_N: usize = 12;
/// Largest n for the partitions method (its UBNVAL totalizer grows as n⁴).
pub const PARTITIONS_MAX_N: usize = 100;
/// Largest n for the reference search.
pub const REFERENCE_MAX_N: usize = 400;

/// One line for `puzzlesat list`.
pub const ABOUT: &str = "enigma: Enigma 1225 'rows are columns' on an n×n board (Cambazard, O'Sullivan & Smith)
  solve enigma -n N [--method partitions|board|reference] [--table A..B]
  board CNF options: --symmetry none|cycles (cycles) --redundant none|occ3,ubnval,gcd (occ3,ubnval,gcd) --dominance none|counts (counts)
  partitions options: --score-bound orbits|paper (orbits) --no-warm-start
  dimacs enigma -n N [--bound T] [board options]; decode enigma -n N --model OUT [board options]";

puzzlesat_encodings::option_enum! {
    /// `--method`.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Method("method") {
        /// the whole board in CNF
        Board = "board",
        /// SAT over cycle types
        #[default]
        Partitions = "partitions",
        /// the structured search
        Reference = "reference",
    }
}

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

/// Arguments of `enigma`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// board side n (boards exist for n ≥ 3)
    #[arg(short = 'n', long = "size")]
    pub n: Option<usize>,
    /// method: partitions (SAT over cycle types), board (the whole board in
    /// CNF) or reference (structured search, no SAT); dimacs/decode always
    /// use the board CNF
    #[arg(long)]
    pub method: Option<Method>,
    /// board CNF: permutation symmetry breaking, none or cycles
    #[arg(long, default_value = "cycles")]
    pub symmetry: Symmetry,
    /// board CNF: redundant constraints, a list of occ3, ubnval, gcd (or none, all)
    #[arg(long, default_value = "occ3,ubnval,gcd")]
    pub redundant: Redundant,
    /// board CNF: dominance constraints, none or counts
    #[arg(long, default_value = "counts")]
    pub dominance: Dominance,
    /// partitions: bound a cycle type must beat, orbits or paper (n²·UBNVAL)
    #[arg(long = "score-bound", default_value = "orbits")]
    pub ub: BoundKind,
    /// partitions: do not start from the {2, …, 2} cycle type
    #[arg(long)]
    pub no_warm_start: bool,
    /// solve every n in A..B and print a Table-2-style table
    #[arg(long)]
    pub table: Option<SizeRange>,
    /// board method: enumerate every optimal board
    #[arg(long)]
    pub all: bool,
    /// board method: stop enumerating after this many
    #[arg(long)]
    pub limit: Option<u64>,
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

/// The result of one structured run (partitions or reference), for text and
/// `--json`.
#[derive(Clone, Debug, Serialize)]
pub struct MethodReport {
    /// instance and options
    pub puzzle: String,
    /// outcome: optimal, unsat (no board exists), unknown (time limit)
    pub status: Status,
    /// best total
    pub objective: Option<u64>,
    /// the best board, checked
    pub solutions: Vec<EnigmaSolution>,
    /// solve calls (partitions)
    pub sat_calls: u32,
    /// complete cycle types scored by Algorithm 1
    pub explored: u64,
    /// partitions of n without a 1
    pub total_partitions: u128,
    /// CNF size (partitions)
    pub vars: u32,
    /// CNF size (partitions)
    pub clauses: usize,
    /// wall time
    pub seconds: f64,
}

/// Runs the partitions or reference method on one n; every board is checked.
pub fn run_structured(
    args: &Args,
    method: Method,
    n: usize,
    common: &Common,
) -> anyhow::Result<MethodReport> {
    check_range(method, n)?;
    let (puzzle, status, best, sat_calls, explored, total_partitions, vars, clauses, seconds) =
        match method {
            Method::Partitions => {
                let r = solve_partitions(
                    n,
                    args.ub,
                    !args.no_warm_start,
                    common.objective_encoding,
                    &common.solver,
                    common.limits(),
                )?;
                let status = match r.status.as_str() {
                    "optimal" => Status::Optimal,
                    "unsat" => Status::Unsat,
                    _ if r.optimum.is_some() => Status::Sat,
                    _ => Status::Unknown,
                };
                let best = r.board.zip(r.permutation);
                let puzzle = format!(
                    "enigma n={n} method=partitions bound={} warm-start={}",
                    args.ub, !args.no_warm_start
                );
                (
                    puzzle,
                    status,
                    best,
                    r.sat_calls,
                    r.explored,
                    r.total_partitions,
                    r.vars,
                    r.clauses,
                    r.seconds,
                )
            }
            Method::Reference => {
                let r = solve_reference(n);
                let status = if r.best.is_some() {
                    Status::Optimal
                } else {
                    Status::Unsat
                };
                let best = r
                    .best
                    .map(|(_, parts, board)| (board, Derangement::canonical(&parts)));
                let puzzle = format!("enigma n={n} method=reference");
                (
                    puzzle,
                    status,
                    best,
                    0,
                    r.explored,
                    r.total_partitions,
                    0,
                    0,
                    r.seconds,
                )
            }
            Method::Board => unreachable!("the board method runs through the generic runner"),
        };
    let solutions = match best {
        Some((board, p)) => {
            let sol = EnigmaSolution::new(&board, &p);
            if let Err(e) = sol.check() {
                bail!(
                    "internal error: {puzzle} produced an invalid board ({e}):\n{}",
                    sol.render()
                );
            }
            vec![sol]
        }
        None => vec![],
    };
    Ok(MethodReport {
        puzzle,
        status,
        objective: solutions.first().map(|s| s.total),
        solutions,
        sat_calls,
        explored,
        total_partitions,
        vars,
        clauses,
        seconds,
    })
}

fn print_structured(r: &MethodReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{}", r.puzzle)?;
    for s in &r.solutions {
        writeln!(out, "{}", s.render())?;
    }
    let summary = match (r.status, r.objective) {
        (Status::Optimal, Some(v)) => format!(
            "optimal: {v} (proven: every other cycle type is infeasible or bounded below it)"
        ),
        (Status::Sat, Some(v)) => format!("best found: {v}, not proven optimal (time limit)"),
        (Status::Unsat, _) => {
            "no solution exists (proven: no cycle type admits a board)".to_string()
        }
        _ => "no answer before the limit".to_string(),
    };
    writeln!(out, "{summary}")?;
    writeln!(
        out,
        "c {} cycle types explored of {} without a 1; {} SAT calls; {} vars, {} clauses; {:.3}s",
        r.explored, r.total_partitions, r.sat_calls, r.vars, r.clauses, r.seconds
    )
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
    total_partitions: u128,
    partition: Option<String>,
    paper_optimum: Option<u64>,
    paper_seconds: Option<f64>,
    paper_explored: Option<u64>,
}

fn table(args: &Args, range: SizeRange, common: &Common) -> anyhow::Result<ExitCode> {
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
    for n in range.from..=range.to {
        let t = Instant::now();
        let row = match method {
            Method::Board => {
                let p = args.board_puzzle(n)?;
                let opts = common.run_options(false, None);
                let report = run::run(&p, &opts, common.limits(), &mut std::io::sink())?;
                TableRow {
                    n,
                    method,
                    status: report.status,
                    optimum: report.objective.map(|v| v as u64),
                    seconds: t.elapsed().as_secs_f64(),
                    sat_calls: report.sat_calls,
                    explored: None,
                    total_partitions: super::model::count_partitions_without_ones(n),
                    partition: report
                        .solutions
                        .first()
                        .map(|s| partition_compact(&s.partition)),
                    paper_optimum: None,
                    paper_seconds: None,
                    paper_explored: None,
                }
            }
            _ => {
                let r = run_structured(args, method, n, common)?;
                TableRow {
                    n,
                    method,
                    status: r.status,
                    optimum: r.objective,
                    seconds: r.seconds,
                    sat_calls: r.sat_calls,
                    explored: Some(r.explored),
                    total_partitions: r.total_partitions,
                    partition: r.solutions.first().map(|s| partition_compact(&s.partition)),
                    paper_optimum: None,
                    paper_seconds: None,
                    paper_explored: None,
                }
            }
        };
        let paper = table2_row(n);
        let row = TableRow {
            paper_optimum: paper.map(|p| p.optimum),
            paper_seconds: paper.map(|p| p.seconds),
            paper_explored: paper.map(|p| p.explored),
            ..row
        };
        if let (Some(a), Some(b)) = (row.optimum, row.paper_optimum) {
            all_agree &= a == b && row.status == Status::Optimal;
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
                row.total_partitions,
                row.partition.as_deref().unwrap_or("infeasible"),
                opt(row.paper_optimum),
                row.paper_seconds.map_or("–".to_string(), |s| s.to_string()),
                opt(row.paper_explored),
            )?;
        }
        out.flush()?;
    }
    if !all_agree {
        bail!("some optimum differs from the paper's Table 2 or is not proven");
    }
    Ok(ExitCode::SUCCESS)
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common) -> anyhow::Result<ExitCode> {
        if common.certify && self.method() != Method::Board {
            bail!("--certify backs the UNSAT answers of the board CNF: use it with --method board (the partitions method's optimum also rests on Algorithm 1's arithmetic, the reference method on no SAT answer)");
        }
        if let Some(range) = self.table {
            return table(self, range, common);
        }
        let n = self.size()?;
        match self.method() {
            Method::Board => {
                let p = self.board_puzzle(n)?;
                solve_generic(&p, common, self.all, self.limit)
            }
            method => {
                if self.all {
                    bail!("--all enumerates boards of the board CNF: use it with --method board");
                }
                let r = run_structured(self, method, n, common)?;
                let mut out = std::io::stdout().lock();
                if common.json {
                    serde_json::to_writer(&mut out, &r)?;
                    writeln!(out)?;
                } else {
                    print_structured(&r, &mut out)?;
                }
                Ok(exit_code(r.status))
            }
        }
    }

    fn dimacs(
        &self,
        common: &Common,
        output: Option<&PathBuf>,
        map: Option<&PathBuf>,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "dimacs writes the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(self.size()?)?;
        dimacs_generic(&p, common, output, map, bound)
    }

    fn decode(&self, common: &Common, model: &std::path::Path) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "decode reads models of the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(self.size()?)?;
        decode_generic(&p, common, model)
    }
}
