//! VeriPB certificates from the PB model (`--certify`, docs/certify.md):
//! end to end through the runner, checked by the `veripb` binary (3.0.2);
//! and mutants — a CNF clause that does not follow from the model, a
//! solution the model does not have — that the check must refuse.
//!
//! These tests need `veripb` on PATH: without it they fail, naming the
//! install command.

use puzzlesat::certify::veripb::{self, ProofNames, ProofWriter, INSTALL};
use puzzlesat::certify::{Claim, CertifyError, ProofFormat, Producer};
use puzzlesat::encodings::pbmodel::{PbLit, PbModel};
use puzzlesat::encodings::{ClauseDatabase, Cnf, Lit};
use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::queens::{Options, Queens};
use puzzlesat::run::{self, RunOptions, Status};
use puzzlesat::solver::Limits;

fn require_veripb() {
    if let Err(e) = veripb::checker() {
        panic!("these tests need the VeriPB checker: {e} (install: {INSTALL})");
    }
}

/// Queens with its PB model (from the rules: one queen per row and per
/// column, at most one per diagonal), over the encoder's names `Qr_c`.
struct ModelledQueens(Queens);

fn queens_model(n: usize) -> PbModel {
    let mut m = PbModel::new();
    let q: Vec<Vec<PbLit>> = (0..n)
        .map(|r| (0..n).map(|c| m.var(&format!("Q{}_{}", r + 1, c + 1)).pos()).collect())
        .collect();
    for r in 0..n {
        m.exactly(&q[r], 1, format!("one queen in row {}", r + 1));
    }
    for c in 0..n {
        let col: Vec<PbLit> = (0..n).map(|r| q[r][c]).collect();
        m.exactly(&col, 1, format!("one queen in column {}", c + 1));
    }
    for d in 0..2 * n - 1 {
        let anti: Vec<PbLit> = (0..n).filter(|&r| d >= r && d - r < n).map(|r| q[r][d - r]).collect();
        let diag: Vec<PbLit> = (0..n)
            .filter(|&r| r + n > d && r + n - 1 - d < n)
            .map(|r| q[r][r + n - 1 - d])
            .collect();
        for line in [anti, diag] {
            if line.len() > 1 {
                m.at_most(&line, 1, None);
            }
        }
    }
    m
}

impl Puzzle for ModelledQueens {
    type Solution = <Queens as Puzzle>::Solution;
    type Map = <Queens as Puzzle>::Map;
    type Details = <Queens as Puzzle>::Details;
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<puzzlesat::puzzle::Encoded<Self::Map>> {
        self.0.encode(cnf)
    }
    fn decode(&self, map: &Self::Map, model: &puzzlesat::encodings::Assignment) -> anyhow::Result<Self::Solution> {
        self.0.decode(map, model)
    }
    fn check(&self, sol: &Self::Solution) -> Result<(), String> {
        self.0.check(sol)
    }
    fn render(&self, sol: &Self::Solution) -> String {
        self.0.render(sol)
    }
    fn pb_model(&self) -> Option<PbModel> {
        self.0.pb_model().or_else(|| Some(queens_model(self.0.n)))
    }
}

fn certified(all: bool) -> RunOptions {
    RunOptions {
        all,
        no_classes: true,
        certify: Some(Producer::Varisat),
        proof_format: ProofFormat::Veripb,
        ..Default::default()
    }
}

#[test]
fn queens_8_count_is_certified_from_the_model() {
    require_veripb();
    let p = ModelledQueens(Queens::new(8, Options::default()));
    let dir = tempfile::tempdir().unwrap();
    let opts = RunOptions {
        proof_dir: Some(dir.path().to_path_buf()),
        count_only: true,
        ..certified(true)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!((r.status, r.count), (Status::All, Some(92)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 1);
    let c = &certs[0];
    assert_eq!(c.claim, Claim::Complete);
    let m = c.certificate.from_model.as_ref().expect("a VeriPB certificate");
    assert_eq!(m.solutions, 92, "every solution logged by solx");
    assert!(c.certificate.checker.starts_with("veripb"), "{}", c.certificate.checker);
    let (model, proof) = m.files.clone().expect("--proof-dir keeps the files");
    assert!(model.ends_with(".opb") && proof.ends_with(".pbp"));
    assert_eq!(
        std::path::Path::new(&model).file_stem(),
        std::path::Path::new(&proof).file_stem(),
        "the proof has its model's stem"
    );
    // anyone can check the kept files by hand
    let out = std::process::Command::new("veripb").arg(&model).arg(&proof).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let text = r.summary();
    assert!(text.contains("certified from the model"), "{text}");
}

/// Queens `--count --no-classes --certify` from the model under other
/// encodings: the ladder at-most-one (RustSAT's, its auxiliary variables'
/// meaning inferred from its clauses) and the columns encoding
/// (order-encoded integers whose direct literals are the model's, all
/// different); every clause derived, 92 solutions logged.
#[test]
fn queens_8_other_encodings_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::encodings::amo::AmoEncoding;
    use puzzlesat::puzzles::queens::Encoding;
    for o in [
        Options { amo: AmoEncoding::Ladder, ..Default::default() },
        Options { encoding: Encoding::Columns, ..Default::default() },
        Options { encoding: Encoding::Columns, amo: AmoEncoding::Ladder, ..Default::default() },
    ] {
        let p = ModelledQueens(Queens::new(8, o));
        let r = run::run_quiet(&p, &RunOptions { count_only: true, ..certified(true) })
            .unwrap_or_else(|e| panic!("{o}: {e:#}"));
        assert_eq!(r.count, Some(92), "{o}");
        let c = &r.certificates.expect("certificates")[0];
        let m = c.certificate.from_model.as_ref().unwrap_or_else(|| {
            panic!("{o}: not from the model: {:?}", c.certificate.not_from_model)
        });
        assert_eq!(m.solutions, 92, "{o}");
        assert!(m.definitions > 0, "{o}: auxiliary variables introduced");
    }
}

#[test]
fn queens_without_a_solution_is_certified_unsat() {
    require_veripb();
    let p = ModelledQueens(Queens::new(3, Options::default()));
    let r = run::run_quiet(&p, &certified(false)).expect("certified run");
    assert_eq!(r.status, Status::Unsat);
    let c = &r.certificates.expect("certificates")[0];
    assert_eq!(c.claim, Claim::Infeasible);
    assert!(c.certificate.from_model.is_some());
}

#[test]
fn a_family_without_a_model_is_certified_by_drat_and_says_so() {
    let p = Queens::new(6, Options::default());
    if p.pb_model().is_some() {
        return; // queens has its model now: nothing falls back here
    }
    let r = run::run_quiet(&p, &certified(true)).expect("certified run");
    let c = &r.certificates.expect("certificates")[0];
    assert!(c.certificate.from_model.is_none());
    let why = c.certificate.not_from_model.as_deref().expect("the reason");
    assert!(why.contains("no PB model"), "{why}");
}

#[test]
fn the_drat_path_stays_as_an_option() {
    let p = ModelledQueens(Queens::new(6, Options::default()));
    let opts = RunOptions {
        proof_format: ProofFormat::Drat,
        ..certified(true)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!(r.count, Some(4));
    let c = &r.certificates.expect("certificates")[0];
    assert!(c.certificate.from_model.is_none(), "a DRAT certificate");
}

/// A tiny model `a + b = 1` with the CNF `(a ∨ b)`, `(¬a ∨ ¬b)` and
/// `extra`, proved UNSAT under `unit` by hand through [`veripb::prove`].
fn prove_small(extra: &[&[i32]], solutions: &[&[i32]]) -> Result<(), CertifyError> {
    let mut m = PbModel::new();
    let (a, b) = (m.var("aa"), m.var("bb"));
    m.exactly(&[a.pos(), b.pos()], 1, "one of a, b".to_string());
    let lit = |x: i32| Lit::new(x.unsigned_abs() - 1, x < 0);
    let mut cnf = Cnf::new();
    cnf.add(&[lit(1), lit(2)]);
    cnf.add(&[lit(-1), lit(-2)]);
    for c in extra {
        cnf.add(&c.iter().map(|&x| lit(x)).collect::<Vec<_>>());
    }
    let n_cnf = cnf.len();
    for s in solutions {
        cnf.add(&s.iter().map(|&x| !lit(x)).collect::<Vec<_>>());
    }
    let names = vec![("aa".to_string(), lit(1)), ("bb".to_string(), lit(2))];
    let primary = [lit(1), lit(2)];
    let run = veripb::Run {
        model: &m,
        names: &names,
        cnf_clauses: n_cnf,
        provenance: None,
        symmetry: None,
        primary: &primary,
        claim: if solutions.is_empty() { Claim::Infeasible } else { Claim::Complete },
        dir: None,
        stem: "small",
    };
    veripb::prove(&run, &cnf, &Producer::Varisat, &Limits::default()).map(|_| ())
}

#[test]
fn a_clause_the_model_does_not_imply_is_refused() {
    require_veripb();
    // both solutions logged, the rest refuted: checks
    prove_small(&[], &[&[1, -2], &[-1, 2]]).expect("the honest proof checks");
    // a wrong clause (¬a) drops the solution a: the count of 1 is refused
    let e = prove_small(&[&[-1]], &[&[-1, 2]]).unwrap_err();
    assert!(matches!(e, CertifyError::VeripbRejected(_)), "{e}");
}

#[test]
fn a_solution_the_model_does_not_have_is_refused() {
    require_veripb();
    // an enumeration that reports a = b = 1 (as a CNF without (¬a ∨ ¬b)
    // would): its solx step fails
    let e = prove_small(&[], &[&[1, 2], &[1, -2], &[-1, 2]]).unwrap_err();
    assert!(matches!(e, CertifyError::VeripbRejected(_)), "{e}");
}

#[test]
fn proof_names_refuse_a_model_name_of_the_auxiliary_form() {
    let mut m = PbModel::new();
    m.var("x12");
    let e = ProofNames::new(&m, &[], 4).unwrap_err();
    assert!(e.contains("x12"), "{e}");
    let mut buf = vec![];
    let w = ProofWriter::new(&mut buf, 0).unwrap();
    w.finish("NONE").unwrap();
}
