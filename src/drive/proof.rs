//! The one proof plan of a `--certify` run, shared by the single run
//! ([`crate::run`]) and the cube drivers: [`prepare`] encodes the puzzle
//! and decides once how its claims are proved ([`ProofPlan`]: VeriPB from
//! the puzzle's PB model, or DRAT proofs of the CNF saying why not), and
//! [`ProofPlan::certify`] proves one claim (an optimum, a count, a cube's
//! bound or count, a cube's bound under a dominance guard) on the formula
//! that refutes it. Proofs from the model follow Gocht & Nordström's VeriPB
//! (a model in OPB, the CNF derived from it, the search as RUP steps).

use std::time::Instant;

use anyhow::Context;
use puzzlesat_encodings::provenance::Provenance;
use puzzlesat_encodings::{Assignment, Cnf, PbModel};
use rustsat::types::Lit;

use crate::certify::{self, veripb, Certified, CertifyError, Claim, ProofFormat};
use crate::drive::Objective;
use crate::options::RunOptions;
use crate::puzzle::{encode_recording, Encoded, Puzzle};
use crate::report::{Report, Status, StoppedBy};
use crate::solver::{Limits, Session};

/// What a VeriPB proof from the model needs of the encoding, kept from
/// before the CNF goes to the session.
pub(crate) struct ProofSetup {
    /// the puzzle's PB model
    pub(crate) model: PbModel,
    /// the CNF's definitions log
    pub(crate) provenance: Option<Provenance>,
    /// the derivation of the symmetry breaking, if the run posts any
    pub(crate) symmetry: Option<veripb::SymmetryBlock>,
    /// clauses of the CNF as encoded
    pub(crate) cnf_clauses: usize,
    /// the encoder's names of the primary literals
    pub(crate) names: Vec<(String, Lit)>,
    /// the primary literals
    pub(crate) primary: Vec<Lit>,
    /// file stem of the model and proofs
    pub(crate) stem: String,
}

impl ProofSetup {
    /// The setup of a VeriPB proof of `p` from `model`, reading the
    /// definitions log of `cnf`; `Err` says why the proof cannot be written
    /// (the run then certifies by DRAT and says so).
    fn new<P: Puzzle>(
        p: &P,
        model: PbModel,
        cnf: &Cnf,
        enc: &Encoded<P::Map>,
    ) -> Result<ProofSetup, String> {
        // the log stays in the CNF: the session goes on with it (an
        // objective's bound encoding, lazy constraints)
        let provenance = cnf.provenance_log().cloned();
        if enc.scored.is_some() {
            return Err(
                "the optimum is scored outside the CNF (no objective a VeriPB proof can state)"
                    .into(),
            );
        }
        let names = veripb::ProofNames::new(&model, &enc.names, cnf.n_vars())
            .map_err(|e| format!("the model's names: {e}"))?;
        let symmetry = match p.symmetry_proof(&enc.map, &|l| names.lit(l)) {
            None => None,
            // the block derives the symmetry-breaking clauses by `dom` from
            // the model; the chain variables' definitions stay, so that each
            // representative's `solx` fixes them by unit propagation
            Some(Ok(proof)) => Some(
                veripb::SymmetryBlock::new(proof, cnf)
                    .map_err(|e| format!("the symmetry breaking's proof: {e}"))?,
            ),
            Some(Err(e)) => return Err(e),
        };
        veripb::plan(&model, &names, cnf, provenance.as_ref(), symmetry.as_ref())?;
        Ok(ProofSetup {
            model,
            provenance,
            symmetry,
            cnf_clauses: cnf.len(),
            names: enc.names.clone(),
            primary: enc.primary.clone(),
            stem: veripb::stem(&p.describe()),
        })
    }
}

/// What a VeriPB certificate from the model leaves out, for every family.
const NOT_COVERED: &str = "the PB model itself (written from the puzzle's rules; every solution printed also passes the independent checker)";

/// How a run's claims are proved, decided once before its session.
pub(crate) enum ProofPlan {
    /// DRAT proofs of the CNF (`--proof-format drat`, or no `--certify`)
    Drat,
    /// DRAT proofs, since no VeriPB proof from the model can be written:
    /// why (said in each certificate)
    NotFromModel(String),
    /// VeriPB proofs from the puzzle's PB model
    Veripb(Box<ProofSetup>),
}

/// A puzzle encoded for a run, with its proof plan.
pub(crate) struct Prepared<M> {
    /// the CNF (with its definitions log where the plan proves from the
    /// model)
    pub(crate) cnf: Cnf,
    /// what the encoding knows of it
    pub(crate) enc: Encoded<M>,
    /// seconds spent encoding
    pub(crate) encode_seconds: f64,
    /// how its claims are proved
    pub(crate) plan: ProofPlan,
}

/// Encodes `p` for a run with `opts` and plans its proofs: with
/// `--certify` and `--proof-format veripb` (the default), from the
/// family's PB model where it has one (the CNF then records its
/// definitions), else by DRAT saying why. `before_plan` sees the CNF
/// first: what it adds (a cube split's definitions) is part of the CNF the
/// proof derives. Returns what `before_plan` returns beside.
pub(crate) fn prepare<P: Puzzle, R>(
    p: &P,
    opts: &RunOptions,
    before_plan: impl FnOnce(&mut Cnf, &Encoded<P::Map>) -> anyhow::Result<R>,
) -> anyhow::Result<(Prepared<P::Map>, R)> {
    let veripb = opts.certify.is_some() && opts.proof_format == ProofFormat::Veripb;
    let model = match veripb {
        false => Ok(None),
        true => p
            .pb_model()
            .map(Some)
            .ok_or_else(|| format!("{} has no PB model", p.describe())),
    };
    let (mut cnf, enc, encode_seconds) = encode_recording(p, matches!(model, Ok(Some(_))))?;
    let r = before_plan(&mut cnf, &enc)?;
    let plan = match model {
        Ok(None) => ProofPlan::Drat,
        Ok(Some(model)) => match ProofSetup::new(p, model, &cnf, &enc) {
            Ok(setup) => ProofPlan::Veripb(Box::new(setup)),
            Err(why) => ProofPlan::NotFromModel(why),
        },
        Err(why) => ProofPlan::NotFromModel(why),
    };
    let prepared = Prepared {
        cnf,
        enc,
        encode_seconds,
        plan,
    };
    Ok((prepared, r))
}

/// What a claim is about, for its proof.
pub(crate) enum Part<'a> {
    /// the whole problem: the session's UNSAT formula, whose first
    /// `recorded` clauses are the CNF and the clauses added since (the rest
    /// the last call's assumptions); with `search` false no solver call
    /// refuted a better solution (an optimum at the end of the objective's
    /// range): the recorded formula and `optimum` contradict a better one
    /// by propagation
    Whole {
        /// clauses of the formula before the assumptions (None: the CNF's)
        recorded: Option<usize>,
        /// whether a solver call refuted the claim's formula
        search: bool,
        /// an optimum's objective and its best solution
        optimum: Option<(&'a Objective, &'a Assignment)>,
        /// the session's definitions log, if it goes past the CNF's
        provenance: Option<&'a Provenance>,
        /// a count's number of solutions, as the run states it (the
        /// checker states it when the proof's exclusions are that many)
        count: Option<u64>,
    },
    /// cube `index`'s count or infeasibility on its own session's final
    /// formula (the CNF, the cube's blocking clauses, its literals): the
    /// cube's literals join the proof's model
    CubeCount {
        /// the cube
        index: u32,
        /// its literals
        cube: &'a [Lit],
    },
    /// cube `index`'s bound on the formula derived from the CNF, the bound
    /// encoding (its first `recorded` clauses) and unit clauses (the bound's
    /// assumptions, the cube's literals): the cube and, with `past`, "at
    /// least as good as `past`" join the proof's model, or under a
    /// symmetry breaking by dominance the proof derives "not (the cube and
    /// better)" by contradiction (a guard)
    CubeBound {
        /// the cube
        index: u32,
        /// its literals
        cube: &'a [Lit],
        /// the objective over CNF literals
        objective: &'a Objective,
        /// the value past the bound (None: the cube has no model)
        past: Option<i64>,
        /// clauses of the formula before its unit clauses
        recorded: usize,
        /// the definitions log of the formula's lazily added constraints
        provenance: Option<&'a Provenance>,
    },
}

impl Part<'_> {
    /// The cube the part is, if one.
    fn cube(&self) -> Option<u32> {
        match self {
            Part::Whole { .. } => None,
            Part::CubeCount { index, .. } | Part::CubeBound { index, .. } => Some(*index),
        }
    }
}

impl ProofPlan {
    /// Certifies `claim` about `part`, which `formula` refutes: by VeriPB
    /// from the model where the plan and the part allow it, else by DRAT
    /// (saying why not from the model, where VeriPB was asked).
    pub(crate) fn certify(
        &self,
        claim: Claim,
        part: &Part,
        formula: &Cnf,
        opts: &RunOptions,
        limits: &Limits,
    ) -> Result<Certified, CertifyError> {
        match self.veripb(claim, part, formula, opts, limits)? {
            Ok(c) => Ok(c),
            Err(why) => drat(claim, part, formula, opts, why, limits),
        }
    }

    /// The VeriPB certificate of `claim` about `part` (refuted by
    /// `formula`); `Ok(Err(why))` when no proof from the model is written:
    /// `why` it cannot be (None: the plan is DRAT).
    pub(crate) fn veripb(
        &self,
        claim: Claim,
        part: &Part,
        formula: &Cnf,
        opts: &RunOptions,
        limits: &Limits,
    ) -> Result<Result<Certified, Option<String>>, CertifyError> {
        let setup = match self {
            ProofPlan::Veripb(setup) => setup,
            ProofPlan::NotFromModel(why) => return Ok(Err(Some(why.clone()))),
            ProofPlan::Drat => return Ok(Err(None)),
        };
        let producer = opts.certify.as_ref().expect("--certify");
        let dominance = setup.symmetry.as_ref().is_some_and(|s| s.uses_dominance());
        let mut run = veripb::Run {
            model: &setup.model,
            names: &setup.names,
            cnf_clauses: setup.cnf_clauses,
            recorded: setup.cnf_clauses,
            optimum: None,
            search: true,
            provenance: setup.provenance.as_ref(),
            symmetry: setup.symmetry.as_ref(),
            primary: &setup.primary,
            claim,
            cube: None,
            guard: None,
            dir: opts.proof_dir.as_deref(),
            stem: "",
            count: None,
        };
        let cube_model: PbModel;
        let stem = match part {
            Part::Whole {
                recorded,
                search,
                optimum,
                provenance,
                count,
            } => {
                run.count = *count;
                run.recorded = recorded.unwrap_or(setup.cnf_clauses);
                run.search = *search;
                run.optimum = *optimum;
                // the session's log goes on past the CNF
                run.provenance = provenance.or(run.provenance);
                format!("{}-{claim}", setup.stem)
            }
            Part::CubeCount { index, cube } => {
                // under dominance steps the cube cannot be part of the
                // model, and a count has no guard yet
                if dominance {
                    return Ok(Err(Some(veripb::CUBE_AFTER_DOMINANCE.into())));
                }
                let names =
                    match veripb::ProofNames::new(&setup.model, &setup.names, formula.n_vars()) {
                        Ok(n) => n,
                        Err(e) => return Ok(Err(Some(e))),
                    };
                match veripb::cube_model(
                    &setup.model,
                    &names,
                    run.provenance,
                    *index,
                    cube,
                    None,
                    false,
                ) {
                    Ok((m, _)) => cube_model = m,
                    Err(e) => return Ok(Err(Some(e))),
                }
                run.model = &cube_model;
                format!("{}-cube{index}-{claim}", setup.stem)
            }
            Part::CubeBound {
                index,
                cube,
                objective,
                past,
                recorded,
                provenance,
            } => {
                // under dominance steps the cube cannot be part of the
                // model: an optimum's cube is then proved as a derived
                // constraint ([`veripb::CubeGuard`])
                if dominance && (claim != Claim::Optimal || past.is_none()) {
                    return Ok(Err(Some(veripb::CUBE_AFTER_DOMINANCE.into())));
                }
                let names =
                    match veripb::ProofNames::new(&setup.model, &setup.names, formula.n_vars()) {
                        Ok(n) => n,
                        Err(e) => return Ok(Err(Some(format!("the model's names: {e}")))),
                    };
                let prov = provenance
                    .or(formula.provenance_log())
                    .or(setup.provenance.as_ref());
                let in_model: &[Lit] = if dominance { &[] } else { cube };
                let better = match veripb::cube_model(
                    &setup.model,
                    &names,
                    prov,
                    *index,
                    in_model,
                    *past,
                    dominance,
                ) {
                    Ok((m, better)) => {
                        cube_model = m;
                        better
                    }
                    Err(e) => return Ok(Err(Some(e))),
                };
                match (dominance, better) {
                    (true, Some((_, better))) => {
                        run.guard = Some(veripb::CubeGuard {
                            objective,
                            cube,
                            better,
                        })
                    }
                    (_, better) => {
                        run.model = &cube_model;
                        run.cube = better.map(|(id, better)| veripb::CubeBound {
                            objective,
                            id,
                            better,
                        });
                    }
                }
                (run.cnf_clauses, run.recorded, run.provenance) = (*recorded, *recorded, prov);
                format!("{}-cube{index}-{claim}", setup.stem)
            }
        };
        run.stem = &stem;
        let mut c = veripb::certify(&run, formula, producer, limits, NOT_COVERED)?;
        c.cube = part.cube();
        Ok(Ok(c))
    }
}

/// The DRAT certificate of `claim` about `part` (refuted by `formula`),
/// saying `why` it is not from the model (where VeriPB was asked).
pub(crate) fn drat(
    claim: Claim,
    part: &Part,
    formula: &Cnf,
    opts: &RunOptions,
    why: Option<String>,
    limits: &Limits,
) -> Result<Certified, CertifyError> {
    let producer = opts.certify.as_ref().expect("--certify");
    let mut c = certify::certify_claim(claim, formula, producer, limits)?;
    c.certificate.not_from_model = why;
    c.cube = part.cube();
    Ok(c)
}

/// With `--certify`, after a driver phase of a single run whose claim
/// (`report.status`) is proven: if a solve call of the phase (after
/// `unsat_before` UNSAT answers) answered UNSAT, proves the claim on the
/// formula of the last one and adds the certificate to the report. A
/// proof that does not check is an error. A phase with no UNSAT answer (an
/// optimum at the end of the objective's range, which a redundant bound of
/// the encoding may have cut short) has no formula to refute: with a
/// VeriPB proof from the model, the best solution and the derived encoding
/// contradict a better one by propagation; otherwise it has nothing to
/// certify.
pub(crate) fn certify_session_claim<S, D>(
    plan: &ProofPlan,
    session: &Session,
    opts: &RunOptions,
    unsat_before: u32,
    report: &mut Report<S, D>,
    optimum: Option<(&Objective, &Assignment)>,
) -> anyhow::Result<()> {
    if opts.certify.is_none() || report.certificates.is_none() {
        return Ok(());
    }
    let claim = match report.status {
        Status::Optimal => Claim::Optimal,
        Status::All => Claim::Complete,
        _ => Claim::Infeasible,
    };
    let no_call = session.unsat_answers() == unsat_before;
    let from_model = matches!(plan, ProofPlan::Veripb(_));
    if no_call && !(claim == Claim::Optimal && optimum.is_some() && from_model) {
        return Ok(());
    }
    let t = Instant::now();
    let formula = if no_call {
        session.recorded_formula()
    } else {
        session.unsat_formula()
    }
    .context("internal error: --certify but no formula was recorded")?;
    let part = Part::Whole {
        recorded: match no_call {
            true => Some(formula.len()),
            false => session.unsat_recorded(),
        },
        search: !no_call,
        optimum,
        provenance: session.provenance_log(),
        count: report.count,
    };
    let c = plan.certify(claim, &part, &formula, opts, &session.limits);
    report.seconds.certify += t.elapsed().as_secs_f64();
    // stopped before the proof was checked: the answer stands uncertified,
    // reported as the best so far says it (the claim rests on UNSAT alone)
    if let Err(CertifyError::Stopped) = c {
        report.certificate_stopped = Some(StoppedBy::of_limits(&session.limits));
        return Ok(());
    }
    let c = c.with_context(|| {
        format!(
            "the {claim} claim of {} could not be certified",
            report.puzzle
        )
    })?;
    report.certificates.get_or_insert_with(Vec::new).push(c);
    Ok(())
}
