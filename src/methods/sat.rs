//! A bare DIMACS CNF solved as one run: the `sat` command's report
//! ([`solve_dimacs`]). The model is checked clause by clause against the
//! formula as read from the file before it is reported; with a proof
//! producer an UNSAT answer is re-solved with proof logging and the proof
//! checked ([`crate::certify`]); an external solver's UNSAT without one is
//! marked unchecked.

use std::borrow::Cow;
use std::path::Path;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::instances::ManageVars;
use rustsat::types::Var;

use crate::certify::{self, Claim};
use crate::io::dimacs::{read_cnf_file, used_vars};
use crate::options::{Purpose, RunOptions};
use crate::report::{NoDetails, Report, Status, StoppedBy};
use crate::solver::{Limits, Outcome};

/// What [`solve_dimacs`] found.
pub struct DimacsRun {
    /// the run's report (its solution, with `model_in_report`, the model as
    /// DIMACS literals over every declared variable)
    pub report: Report<Vec<i64>, NoDetails>,
    /// the model, checked against every clause of the file
    pub model: Option<Assignment>,
    /// variables the header declares
    pub declared: u32,
    /// clauses of the file
    pub clauses: usize,
}

/// The first clause (1-based index) the assignment falsifies, if any.
pub fn first_falsified(cnf: &Cnf, model: &Assignment) -> Option<usize> {
    cnf.clauses()
        .position(|c| !c.iter().any(|&l| model.lit(l)))
        .map(|i| i + 1)
}

/// Solves the DIMACS CNF in `file` with `opts`' solver under `limits`
/// (and certifies an UNSAT answer with `opts.certify`).
pub fn solve_dimacs(
    file: &Path,
    opts: &RunOptions,
    limits: Limits,
    model_in_report: bool,
) -> anyhow::Result<DimacsRun> {
    let t = Instant::now();
    let mut cnf = read_cnf_file(file)?;
    // the header's count is a bound each literal was checked against, not a
    // size: the backends allocate only for the variables the clauses use (a
    // 30-byte file may declare 2^26), the model printed covers all declared
    let declared = cnf.n_vars();
    cnf.forget_from(Var::new(used_vars(&cnf)));
    let parse_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut session = opts.open(Cow::Borrowed(&cnf), limits, Purpose::Search)?;
    let load_seconds = t.elapsed().as_secs_f64();
    let outcome = session.solve(&[])?;
    let t = Instant::now();
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
    let mut report: Report<Vec<i64>, NoDetails> = Report::new(
        format!("dimacs {}", file.display()),
        session.solver_name(),
        "solutions",
    );
    let counts = cnf.counts();
    report.seed = opts.seed;
    report.status = match outcome {
        Outcome::Sat => Status::Sat,
        Outcome::Unsat => Status::Unsat,
        Outcome::Unknown => Status::Unknown,
    };
    if outcome == Outcome::Unknown {
        report.stopped_by = Some(
            if session
                .limits
                .interrupt
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                StoppedBy::Interrupt
            } else {
                StoppedBy::Timeout
            },
        );
    }
    (report.vars, report.clauses, report.literals) = (declared, counts.clauses, counts.literals);
    report.sat_calls = session.solve_calls;
    report.sat_answers = session.sat_answers;
    report.stats = session.stats();
    report.seconds.encode = parse_seconds;
    report.seconds.load = load_seconds;
    report.seconds.solve = session.solve_time.as_secs_f64();
    report.seconds.decode_check = t.elapsed().as_secs_f64();
    if let Some(producer) = &opts.certify {
        let mut certificates = vec![];
        let t = Instant::now();
        if outcome == Outcome::Unsat {
            match certify::certify_claim(Claim::Infeasible, &cnf, producer, &session.limits) {
                Ok(c) => certificates.push(c),
                // stopped before the proof was checked: the answer stands, uncertified
                Err(certify::CertifyError::Stopped) => {
                    report.certificate_stopped =
                        Some(crate::report::StoppedBy::of_limits(&session.limits))
                }
                Err(e) => anyhow::bail!(
                    "{} answered UNSAT for {}, but it could not be certified: {e}",
                    session.solver_name(),
                    file.display()
                ),
            }
        }
        report.seconds.certify = t.elapsed().as_secs_f64();
        report.certificates = Some(certificates);
    }
    report.unchecked =
        outcome == Outcome::Unsat && report.certificates.is_none() && opts.solver.is_external();
    if model_in_report {
        report.solutions = model
            .iter()
            .map(|m| {
                (0..declared as usize)
                    .map(|i| {
                        if m.values().get(i) == Some(&true) {
                            i as i64 + 1
                        } else {
                            -(i as i64 + 1)
                        }
                    })
                    .collect()
            })
            .collect();
    }
    Ok(DimacsRun {
        report,
        model,
        declared,
        clauses: cnf.len(),
    })
}
