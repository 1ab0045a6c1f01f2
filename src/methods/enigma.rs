//! Enigma 1225's three methods as one library call returning a [`Report`]
//! (the board CNF, SAT over the partitions' cycle types, the structured
//! reference search), and Table 2 of Cambazard, O'Sullivan & Smith,
//! "Enigma 1225" (with this machine's numbers next to the paper's).

use std::io::Write;
use std::ops::RangeInclusive;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::solve::Strategy;
use serde::Serialize;

use crate::puzzles::enigma::encode::BoardOptions;
use crate::puzzles::enigma::model::MIN_N;
use crate::puzzles::enigma::paper::table2_row;
use crate::puzzles::enigma::partitions::{BoundKind, Partitions};
use crate::puzzles::enigma::{reference, Enigma, EnigmaDetails, EnigmaSolution, Method};
use crate::report::{Report, Status};
use crate::run::{self, check_budget, RunOptions};
use crate::solver::Limits;

/// Largest n for the board CNF (its objective totalizer over the occurrence
/// counters needs several GiB from n = 12 on).
pub const BOARD_MAX_N: usize = 12;
/// Largest n for the partitions method (its UBNVAL totalizer grows as n⁴).
pub const PARTITIONS_MAX_N: usize = 100;
/// Largest n for the reference search.
pub const REFERENCE_MAX_N: usize = 400;

/// What each method is run with, beside the run's options.
#[derive(Clone, Debug)]
pub struct Methods {
    /// the board CNF's options
    pub board: BoardOptions,
    /// the bound a cycle type must beat (partitions)
    pub bound: BoundKind,
    /// start the partitions from the {2, …, 2} cycle type
    pub warm_start: bool,
    /// the board CNF's bound search: None for bisection (the staircase
    /// refutes targets far above the optimum by propagation, docs/enigma.md:
    /// n = 10, 3× faster)
    pub board_strategy: Option<Strategy>,
    /// the largest board CNF, in estimated clauses
    pub max_clauses: u64,
}

impl Methods {
    /// The board CNF of side `n`, its options checked.
    pub fn board(&self, n: usize) -> anyhow::Result<Enigma> {
        check_range(Method::Board, n)?;
        self.board.validate().map_err(anyhow::Error::msg)?;
        Ok(Enigma {
            n,
            opts: self.board,
        })
    }

    /// Runs `method` on side `n` and returns its report (every board
    /// checked).
    pub fn run(
        &self,
        method: Method,
        n: usize,
        opts: &RunOptions,
        limits: Limits,
        progress: &mut dyn Write,
    ) -> anyhow::Result<Report<EnigmaSolution, EnigmaDetails>> {
        check_range(method, n)?;
        match method {
            Method::Board => {
                let p = self.board(n)?;
                check_budget(&p, self.max_clauses)?;
                let opts = &RunOptions {
                    strategy: self.board_strategy.unwrap_or(Strategy::Binary),
                    ..opts.clone()
                };
                run::run(&p, opts, limits, progress)
            }
            Method::Partitions => {
                let p = Partitions {
                    n,
                    bound: self.bound,
                    warm_start: self.warm_start,
                    pb: opts.objective_encoding,
                };
                run::run(&p, opts, limits, progress)
            }
            Method::Reference => reference::report(n),
        }
    }

    /// Table 2: runs `method` on every n of `sizes` under one time limit
    /// (not one per row), writing a row per n to `out` (Markdown, or JSON
    /// lines with `json`) as it finishes; an error if a proven optimum
    /// differs from the paper's.
    pub fn table(
        &self,
        method: Method,
        sizes: RangeInclusive<usize>,
        opts: &RunOptions,
        limits: &Limits,
        json: bool,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        if !json {
            writeln!(
                out,
                "| n | optimum | seconds | SAT calls | explored | total partitions | optimal partition | paper optimum | paper seconds | paper explored |"
            )?;
            writeln!(out, "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")?;
        }
        let mut all_agree = true;
        for n in sizes {
            if limits.expired() {
                eprintln!("stopped before n = {n}: time limit or interrupt");
                break;
            }
            let t = Instant::now();
            let r = self.run(method, n, opts, limits.clone(), &mut std::io::sink())?;
            let paper = table2_row(n);
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
                paper_optimum: paper.map(|p| p.optimum),
                paper_seconds: paper.map(|p| p.seconds),
                paper_explored: paper.map(|p| p.explored),
            };
            // a row stopped by the limit proves nothing: only optima are compared
            if let (Some(a), Some(b), Status::Optimal) =
                (row.optimum, row.paper_optimum, row.status)
            {
                all_agree &= a == b;
            }
            if json {
                serde_json::to_writer(&mut *out, &row)?;
                writeln!(out)?;
            } else {
                row.write_markdown(out)?;
            }
            out.flush()?;
        }
        if !all_agree {
            bail!("some proven optimum differs from the paper's Table 2");
        }
        Ok(())
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

/// One row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct TableRow {
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

impl TableRow {
    fn write_markdown(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let opt = |v: Option<u64>| v.map_or("–".to_string(), |v| v.to_string());
        let status = match self.status {
            Status::Optimal | Status::Unsat => String::new(),
            s => format!(" ({s:?}, not proven)").to_lowercase(),
        };
        writeln!(
            out,
            "| {} | {}{} | {:.3} | {} | {} | {} | {} | {} | {} | {} |",
            self.n,
            opt(self.optimum),
            status,
            self.seconds,
            self.sat_calls,
            opt(self.explored),
            opt(self.total_partitions),
            self.partition.as_deref().unwrap_or("infeasible"),
            opt(self.paper_optimum),
            self.paper_seconds
                .map_or("–".to_string(), |s| s.to_string()),
            opt(self.paper_explored),
        )
    }
}
