//! `--method goals --certify`: the goal search's upper bound refuted from
//! the goal-space model ([`crate::puzzles::alien_tiles::goal_model`]) by the
//! proof of [`crate::puzzles::alien_tiles::goal_proof`], checked by VeriPB.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::certify::manifest::{keep_command, ClaimKind, Kept};
use crate::certify::veripb::{Checked, ProofFolder};
use crate::certify::{Certificate, Certified, CertifyError, Claim, DratFormat, FromModel};
use crate::puzzle::Puzzle;
use crate::puzzles::alien_tiles::goal_model::GoalModel;
use crate::puzzles::alien_tiles::goal_proof::{write_proof, GoalProofError, GoalProofSteps};
use crate::puzzles::alien_tiles::{AlienTiles, TilesDetails, TilesSolution};
use crate::report::{Report, Status, StoppedBy};
use crate::solver::Limits;

/// A checked certificate of "no goal needs more than B clicks".
#[derive(Clone, Debug)]
pub struct GoalCertificate {
    /// the model file
    pub model_path: PathBuf,
    /// the proof file
    pub proof_path: PathBuf,
    /// what the proof holds
    pub steps: GoalProofSteps,
    /// FNV-1a digest of the model file
    pub model_digest: String,
    /// time to build the model and write both files
    pub write_seconds: f64,
    /// the check
    pub checked: Checked,
}

/// What a goal-space certificate proves.
#[derive(Clone, Debug)]
pub enum GoalClaim {
    /// the hardest goal needs exactly as many clicks as this one (a goal,
    /// row-major): the maximising model's optimum
    Hardest(Vec<usize>),
    /// no goal needs more than B clicks: the decision model is UNSAT
    Above(u32),
}

/// Writes the goal-space model of the n×n board with c colours (the
/// maximising one for [`GoalClaim::Hardest`], "some goal needs more than
/// B clicks" for [`GoalClaim::Above`]) and the proof of the claim into
/// `dir` (a temporary folder when None) as `STEM.opb` and `STEM.pbp` (new
/// names if taken), and checks them with VeriPB.
pub fn certify(
    n: usize,
    c: u32,
    claim: &GoalClaim,
    dir: Option<&Path>,
    stem: &str,
    limits: &Limits,
) -> Result<GoalCertificate, CertifyError> {
    let io = |e: io::Error| CertifyError::Io(e.to_string());
    crate::certify::veripb::checker(limits)?;
    let started = Instant::now();
    let (above, witness) = match claim {
        GoalClaim::Hardest(goal) => (None, Some(goal.as_slice())),
        GoalClaim::Above(b) => (Some(*b), None),
    };
    let gm = GoalModel::new(n, c, above).map_err(CertifyError::Producer)?;
    if limits.expired() {
        return Err(CertifyError::Stopped);
    }
    let mut folder = ProofFolder::open(dir, stem)?;
    let (mut model_file, mut proof_file) = (folder.pending("opb")?, folder.pending("pbp")?);
    let text = gm.model.to_opb();
    let model_digest = crate::certify::Fnv::default().text(&text).hex();
    model_file.writer().write_all(text.as_bytes()).map_err(io)?;
    drop(text);
    let stop = || limits.expired();
    let steps =
        write_proof(&gm, proof_file.writer(), true, &stop, witness).map_err(|e| match e {
            GoalProofError::Io(e) => io(e),
            GoalProofError::Stopped => CertifyError::Stopped,
            e => CertifyError::Producer(format!("goal-space proof: {e}")),
        })?;
    let placed = folder.publish(vec![("opb", model_file), ("pbp", proof_file)])?;
    let write_seconds = started.elapsed().as_secs_f64();
    let (model_path, proof_path) = (placed[0].clone(), placed[1].clone());
    let checked = folder.check(&model_path, &proof_path, limits)?;
    Ok(GoalCertificate {
        model_path,
        proof_path,
        steps,
        model_digest,
        write_seconds,
        checked,
    })
}

/// `--method goals --certify`: the goal search's upper bound ("no goal
/// needs more than v clicks", v the hardest found, or the `--above` B of a
/// search that found none) refuted from the goal-space model by a VeriPB
/// proof ([`crate::puzzles::alien_tiles::goal_proof`]), checked; the
/// certificate is the report's. A search that did not finish proves no
/// bound: nothing is certified.
pub fn certify_goals(
    p: &AlienTiles,
    r: &mut Report<TilesSolution, TilesDetails>,
    above: Option<u32>,
    dir: Option<&std::path::Path>,
    limits: &Limits,
) -> anyhow::Result<()> {
    let (bound, claim, goal_claim) = match (r.status, r.objective, above, r.solutions.last()) {
        (Status::Optimal, Some(v), _, Some(best)) => {
            let goal = best.goal.cells.iter().map(|&x| x as usize).collect();
            (v as u32, Claim::Optimal, GoalClaim::Hardest(goal))
        }
        (Status::Unsat, _, Some(b), _) => (b, Claim::Infeasible, GoalClaim::Above(b)),
        _ => return Ok(()),
    };
    let stem = format!("{}-goals", crate::certify::veripb::stem(&p.describe()));
    let cert = match certify(p.n, p.c, &goal_claim, dir, &stem, limits) {
        // the limits stopped the proof: the bound stands on the search,
        // reported as not certified
        Err(CertifyError::Stopped) => {
            r.certificate_stopped = Some(StoppedBy::of_limits(limits));
            return Ok(());
        }
        c => {
            c.map_err(|e| anyhow::anyhow!("the goal search's bound could not be certified: {e}"))?
        }
    };
    let s = cert.steps;
    if let (Some(dir), Some(_)) = (dir, crate::certify::manifest::command_line()) {
        // `puzzlesat verify DIR` derives the model from this command line
        // and checks the proof: the maximising model's optimum (VeriPB's
        // bounds), or "no goal needs more than `bound` clicks", the
        // decision model's "no solution"
        let (above, kind, value) = match claim {
            Claim::Optimal => (String::new(), ClaimKind::Optimal, Some(i64::from(bound))),
            _ => (format!(" --above {bound}"), ClaimKind::Infeasible, None),
        };
        let command: Vec<String> = format!(
            "solve alien-tiles -n {} -c {} --hardest --method goals --pb-model goals{above}",
            p.n, p.c
        )
        .split(' ')
        .map(String::from)
        .collect();
        let files = Kept {
            model: &cert.model_path,
            proof: &cert.proof_path,
            proof_model: None,
            solutions: None,
        };
        keep_command(dir, &command, kind, value, &files)?;
    }
    r.seconds.certify = cert.write_seconds + cert.checked.seconds;
    let total = r.seconds.total + r.seconds.certify;
    r.seconds.close(total);
    r.certificates = Some(vec![Certified {
        claim,
        formula_clauses: 0,
        formula_digest: cert.model_digest.clone(),
        cube: None,
        certificate: Certificate {
            format: DratFormat::Text,
            producer: "puzzlesat goal-space proof writer".into(),
            checker: cert.checked.checker.clone(),
            proof_bytes: s.bytes,
            solve_seconds: cert.write_seconds,
            check_seconds: cert.checked.seconds,
            // no DRAT lemmas: every step is the proof writer's own
            lemmas: 0,
            core_lemmas: 0,
            from_model: Some(FromModel {
                covers: format!(
                    "{}, refuted by a walk over the goals ({} closed by one (R, C), {} prefixes cut by the residue bound, {} closed by a lex-leader constraint, {} inner nodes; the row, column and transpose symmetries broken by {} lex-leader constraints derived by dominance)",
                    match claim {
                        Claim::Optimal => format!("the maximising goal-space model: a goal that needs {bound} clicks logged (soli), \"some goal needs more than {bound}\""),
                        _ => format!("the goal-space model \"some goal needs more than {bound} clicks\""),
                    },
                    s.leaves, s.cuts, s.pruned, s.nodes, s.dominance
                ),
                not_covered: "the model's characterisation of a goal's fewest clicks (the lemma of docs/certify.md)".into(),
                definitions: 0,
                rup_clauses: (s.leaves + s.pruned + s.nodes) as usize,
                pol_clauses: s.cuts as usize,
                dom_clauses: s.dominance as usize,
                solutions: usize::from(matches!(claim, Claim::Optimal)),
                counted: None,
                solutions_file: None,
                files: dir.map(|_| {
                    (
                        cert.model_path.display().to_string(),
                        cert.proof_path.display().to_string(),
                    )
                }),
            }),
            not_from_model: None,
        },
    }]);
    Ok(())
}
