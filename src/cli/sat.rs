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

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::instances::ManageVars;
use rustsat::types::Var;

use crate::certify::{self, Claim};
use crate::front::{exit_code, Common, Cubes};
use crate::io::dimacs::{read_cnf_file, used_vars};
use crate::io::solver_output::write_model_padded;
use crate::options::Purpose;
use crate::report::{process_start, NoDetails, Report, Status, StoppedBy};
use crate::solver::Outcome;

/// The first clause (1-based index) the assignment falsifies, if any.
pub fn first_falsified(cnf: &Cnf, model: &Assignment) -> Option<usize> {
    cnf.clauses()
        .position(|c| !c.iter().any(|&l| model.lit(l)))
        .map(|i| i + 1)
}

/// Runs `sat` on `file`; returns the competition exit code. `--json`
/// prints the one report type ([`Report`]) with the model (DIMACS
/// literals) as its solution.
pub fn sat(common: &Common, file: &Path, print_model: bool) -> anyhow::Result<ExitCode> {
    if common.svg.is_some() {
        bail!("--svg draws a puzzle's answers: `sat` solves a bare CNF, with nothing to draw");
    }
    let t = Instant::now();
    let mut cnf = read_cnf_file(file)?;
    // the header's count is a bound each literal was checked against, not a
    // size: the backends allocate only for the variables the clauses use (a
    // 30-byte file may declare 2^26), the model printed covers all declared
    let declared = cnf.n_vars();
    cnf.forget_from(Var::new(used_vars(&cnf)));
    let parse_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let opts = common.run_options(&Cubes::default())?;
    let mut session = opts.open(Cow::Borrowed(&cnf), common.limits(), Purpose::Search)?;
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
    report.seed = common.seed;
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
    if let Some(producer) = common.producer() {
        let mut certificates = vec![];
        let t = Instant::now();
        if outcome == Outcome::Unsat {
            match certify::certify_claim(Claim::Infeasible, &cnf, &producer, &session.limits) {
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
        outcome == Outcome::Unsat && report.certificates.is_none() && common.solver.is_external();
    if common.json {
        report.solutions = model
            .iter()
            .filter(|_| print_model)
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
        return common.print(report, |_| String::new(), |_| None);
    }
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
            declared,
            cnf.len(),
            report.solver
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
                writeln!(
                    out,
                    "c model checked: it satisfies all {} clauses",
                    cnf.len()
                )?;
            }
            writeln!(out, "s SATISFIABLE")?;
            if print_model {
                write_model_padded(&mut out, m, declared)?;
            }
        }
        (None, Outcome::Unsat) => {
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
