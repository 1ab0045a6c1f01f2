//! What a VeriPB certificate from the puzzle's PB model needs, shared by
//! the single run ([`crate::run`]) and the cube drivers: the model a
//! `--certify` run proves from, and the encoding's side of the proof kept
//! from before the CNF goes to a session.

use puzzlesat_encodings::provenance::Provenance;
use puzzlesat_encodings::{Cnf, PbModel};
use rustsat::types::Lit;

use crate::certify::{self, ProofFormat};
use crate::options::RunOptions;
use crate::puzzle::{Encoded, Puzzle};

/// What a VeriPB proof from the model needs of the encoding, kept from
/// before the CNF goes to the session.
pub(crate) struct ProofSetup {
    /// the puzzle's PB model
    pub(crate) model: PbModel,
    /// the CNF's definitions log
    pub(crate) provenance: Option<Provenance>,
    /// the derivation of the symmetry breaking, if the run posts any
    pub(crate) symmetry: Option<certify::veripb::SymmetryBlock>,
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
    /// The setup of a VeriPB proof of `p` from `model`, taking the
    /// definitions log out of `cnf`; `Err` says why the proof cannot be
    /// written (the run then certifies by DRAT and says so).
    pub(crate) fn new<P: Puzzle>(
        p: &P,
        model: PbModel,
        cnf: &mut Cnf,
        enc: &Encoded<P::Map>,
    ) -> Result<Option<ProofSetup>, String> {
        // the log stays in the CNF: the session goes on with it (an
        // objective's bound encoding, lazy constraints)
        let provenance = cnf.provenance_log().cloned();
        if enc.scored.is_some() {
            return Err(
                "the optimum is scored outside the CNF (no objective a VeriPB proof can state)"
                    .into(),
            );
        }
        let names = certify::veripb::ProofNames::new(&model, &enc.names, cnf.n_vars())
            .map_err(|e| format!("the model's names: {e}"))?;
        let symmetry = match p.symmetry_proof(&enc.map, &|l| names.lit(l)) {
            None => None,
            // the block derives the symmetry-breaking clauses by `dom` from
            // the model; the chain variables' definitions stay, so that each
            // representative's `solx` fixes them by unit propagation
            Some(Ok(proof)) => Some(
                certify::veripb::SymmetryBlock::new(proof, cnf)
                    .map_err(|e| format!("the symmetry breaking's proof: {e}"))?,
            ),
            Some(Err(e)) => return Err(format!("the symmetry breaking is not derived: {e}")),
        };
        certify::veripb::plan(&model, &names, cnf, provenance.as_ref(), symmetry.as_ref())?;
        Ok(Some(ProofSetup {
            model,
            provenance,
            symmetry,
            cnf_clauses: cnf.len(),
            names: enc.names.clone(),
            primary: enc.primary.clone(),
            stem: certify::veripb::stem(&p.describe()),
        }))
    }
}

/// What a VeriPB certificate from the model leaves out, for every family.
pub(crate) const NOT_COVERED: &str = "the PB model itself (written from the puzzle's rules; every solution printed also passes the independent checker)";

/// The PB model a `--certify` run proves from: with `--proof-format
/// veripb` (the default) and a family that has one; `Err` says why a
/// VeriPB run has none (it certifies by DRAT).
pub(crate) fn model_for_proof<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
) -> Result<Option<PbModel>, String> {
    if opts.certify.is_none() || opts.proof_format != ProofFormat::Veripb {
        return Ok(None);
    }
    p.pb_model()
        .map(Some)
        .ok_or_else(|| format!("{} has no PB model", p.describe()))
}
