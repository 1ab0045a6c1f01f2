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
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::{Assignment, Cnf};

use super::Common;
use crate::certify::{self, Claim};
use crate::io::dimacs::read_cnf_file;
use crate::io::solver_output::write_model;
use crate::solver::{Outcome, Session, SolverKind};

/// The first clause (1-based index) the assignment falsifies, if any.
pub fn first_falsified(cnf: &Cnf, model: &Assignment) -> Option<usize> {
    cnf.clauses()
        .position(|c| !c.iter().any(|&l| model.lit(l)))
        .map(|i| i + 1)
}

/// Runs `sat` on `file`; returns the competition exit code.
pub fn sat(common: &Common, file: &Path, print_model: bool) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let cnf = read_cnf_file(file)?;
    let parse_seconds = t.elapsed().as_secs_f64();
    let mut session = Session::new(&common.solver, &cnf, common.limits())?;
    let outcome = session.solve(&[])?;
    let model = match outcome {
        Outcome::Sat => {
            let model = session.model()?;
            if let Some(i) = first_falsified(&cnf, &model) {
                bail!(
                    "{} returned a model that falsifies clause {i} of {}",
                    session.solver_name(),
                    file.display()
                );
            }
            Some(model)
        }
        _ => None,
    };
    let certificate = match (outcome, common.producer()) {
        (Outcome::Unsat, Some(producer)) => Some(
            certify::certify_claim(Claim::Infeasible, &cnf, &producer, &session.limits).map_err(
                |e| {
                    anyhow::anyhow!(
                        "{} answered UNSAT for {}, but it could not be certified: {e}",
                        session.solver_name(),
                        file.display()
                    )
                },
            )?,
        ),
        _ => None,
    };
    let unchecked = outcome == Outcome::Unsat
        && certificate.is_none()
        && matches!(common.solver, SolverKind::External(_));
    let mut out = std::io::stdout().lock();
    if common.json {
        let doc = serde_json::json!({
            "file": file.display().to_string(),
            "status": outcome,
            "solver": session.solver_name(),
            "vars": cnf.n_vars(),
            "clauses": cnf.len(),
            "parse_seconds": parse_seconds,
            "solve_seconds": session.solve_time.as_secs_f64(),
            "stats": session.stats(),
            "model": model.as_ref().filter(|_| print_model).map(|m| {
                (0..m.len()).map(|i| if m.values()[i] { i as i64 + 1 } else { -(i as i64 + 1) }).collect::<Vec<_>>()
            }),
            "model_checked": model.is_some(),
            "certificate": certificate,
            "unchecked": unchecked,
        });
        serde_json::to_writer(&mut out, &doc)?;
        writeln!(out)?;
    } else {
        if !common.quiet {
            writeln!(
                out,
                "c puzzlesat {} sat {}",
                env!("CARGO_PKG_VERSION"),
                file.display()
            )?;
            writeln!(
                out,
                "c {} vars, {} clauses; solver {}",
                cnf.n_vars(),
                cnf.len(),
                session.solver_name()
            )?;
            writeln!(
                out,
                "c parse {parse_seconds:.3}s, solve {:.3}s",
                session.solve_time.as_secs_f64()
            )?;
            let s = session.stats();
            if let (Some(c), Some(d), Some(p)) = (s.conflicts, s.decisions, s.propagations) {
                writeln!(out, "c conflicts {c}, decisions {d}, propagations {p}")?;
            }
        }
        match (&model, outcome) {
            (Some(m), _) => {
                if !common.quiet {
                    writeln!(
                        out,
                        "c model checked: it satisfies all {} clauses",
                        cnf.len()
                    )?;
                }
                writeln!(out, "s SATISFIABLE")?;
                if print_model {
                    write_model(&mut out, m)?;
                }
            }
            (None, Outcome::Unsat) => {
                if let Some(c) = &certificate {
                    writeln!(out, "c {c}")?;
                } else if unchecked {
                    writeln!(out, "c unsatisfiable (unchecked): the external solver's word, no proof (use --certify)")?;
                }
                writeln!(out, "s UNSATISFIABLE")?
            }
            (None, _) => writeln!(out, "s UNKNOWN")?,
        }
    }
    out.flush()?;
    Ok(ExitCode::from(match outcome {
        Outcome::Sat => 10,
        Outcome::Unsat => 20,
        Outcome::Unknown => 0,
    }))
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
