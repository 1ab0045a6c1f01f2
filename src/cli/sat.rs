//! `puzzlesat sat FILE.cnf`: the pipeline as a DIMACS front end. Solves
//! any DIMACS CNF with the chosen backend and answers in the SAT
//! Competition format: `s SATISFIABLE` and `v` lines, `s UNSATISFIABLE`
//! or `s UNKNOWN`, with exit codes 10 / 20 / 0 (2 for an error). Before a
//! model is printed it is checked clause by clause against the formula as
//! read from the file; a model that falsifies a clause is an error, never
//! printed. With `--certify` an UNSAT answer is re-solved with proof logging
//! and the proof checked ([`crate::certify`]); a proof that fails is an
//! error (exit 2), never `s UNSATISFIABLE`. An external solver's UNSAT
//! without `--certify` is marked unchecked in a comment line and the JSON.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use crate::front::{exit_code, Common, Cubes};
use crate::io::solver_output::write_model_padded;
use crate::methods::sat::{solve_dimacs, DimacsRun};
use crate::report::{process_start, Status};

/// Runs `sat` on `file`; returns the competition exit code. `--json`
/// prints the one report type ([`crate::report::Report`]) with the model (DIMACS
/// literals) as its solution.
pub fn sat(common: &Common, file: &Path, print_model: bool) -> anyhow::Result<ExitCode> {
    if common.svg.is_some() {
        bail!("--svg draws a puzzle's answers: `sat` solves a bare CNF, with nothing to draw");
    }
    let opts = common.run_options(&Cubes::default())?;
    let DimacsRun {
        mut report,
        model,
        declared,
        clauses,
    } = solve_dimacs(file, &opts, common.limits(), common.json && print_model)?;
    if common.json {
        return common.print(report, |_| String::new(), |_| None);
    }
    let outcome = report.status;
    let mut out = std::io::stdout().lock();
    if !common.quiet {
        report
            .seconds
            .close(process_start().elapsed().as_secs_f64());
        let p = &report.seconds;
        writeln!(
            out,
            "c puzzlesat {} sat {}",
            env!("CARGO_PKG_VERSION"),
            file.display()
        )?;
        writeln!(
            out,
            "c {} vars, {} clauses; solver {}",
            declared, clauses, report.solver
        )?;
        let certify = match report.certificates {
            Some(_) => format!(", certify {:.3}", p.certify),
            None => String::new(),
        };
        writeln!(
            out,
            "c seconds: parse {:.3}, load {:.3}, solve {:.3}, check {:.3}{certify}, total {:.3}",
            p.encode, p.load, p.solve, p.decode_check, p.total
        )?;
        let s = report.stats;
        if let (Some(c), Some(d), Some(p)) = (s.conflicts, s.decisions, s.propagations) {
            writeln!(out, "c conflicts {c}, decisions {d}, propagations {p}")?;
        }
    }
    match (&model, outcome) {
        (Some(m), _) => {
            if !common.quiet {
                writeln!(out, "c model checked: it satisfies all {} clauses", clauses)?;
            }
            writeln!(out, "s SATISFIABLE")?;
            if print_model {
                write_model_padded(&mut out, m, declared)?;
            }
        }
        (None, Status::Unsat) => {
            for c in report.certificates.iter().flatten() {
                writeln!(out, "c {c}")?;
            }
            if report.unchecked {
                writeln!(out, "c unsatisfiable (unchecked): the external solver's word, no proof (use --certify)")?;
            }
            writeln!(out, "s UNSATISFIABLE")?
        }
        (None, _) => writeln!(out, "s UNKNOWN")?,
    }
    out.flush()?;
    Ok(exit_code(report.status))
}

/// The `sat` command's arguments.
#[derive(Debug, clap::Args)]
pub struct SatArgs {
    /// DIMACS CNF file
    pub file: PathBuf,
    /// print only the `s` line, no `v` lines (the model is still checked)
    #[arg(long)]
    pub no_model: bool,
}
