//! VeriPB certificates from the PB model (`--certify`, docs/certify.md):
//! end to end through the runner, checked by VeriPB 3.0.2 (bundled:
//! `puzzlesat veripb`, src/checker.rs);
//! and mutants — a CNF clause that does not follow from the model, a
//! solution the model does not have — that the check must refuse.

use crate::common;

use puzzlesat::certify::veripb::{self, ProofNames, ProofWriter, INSTALL};
use puzzlesat::certify::{CertifyError, Claim, Producer, ProofFormat};
use puzzlesat::encodings::pbmodel::{PbLit, PbModel};
use puzzlesat::encodings::{ClauseDatabase, Cnf, Lit};
use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::queens::{Options, Queens};
use puzzlesat::run::{self, RunOptions, Status};
use puzzlesat::solver::Limits;

fn require_veripb() {
    common::veripb();
    if let Err(e) = veripb::checker(&Limits::default()) {
        panic!("these tests need the VeriPB checker: {e} (install: {INSTALL})");
    }
}

/// A mutant whose wrong clause drops the optimum: uncertified, it reports
/// less than `best`; certified, VeriPB rejects the proof (saying each of
/// `also`) and the claim is refused.
fn assert_mutant_refused<P: Puzzle>(mutant: &Mutant<P>, best: i64, also: &[&str]) {
    let uncertified = run::run_quiet(mutant, &RunOptions::default()).expect("the mutant solves");
    assert!(
        uncertified.objective.is_some_and(|v| v < best),
        "the wrong clause drops the optimum: {:?}",
        uncertified.objective
    );
    common::assert_veripb_refuses(run::run_quiet(mutant, &certified(false)), also);
}

/// A puzzle whose CNF gets `mutate`'s clauses after its own (and whose map
/// `mutate` may extend, e.g. with posted lex-leader comparisons): a broken
/// encoding or symmetry breaking, for the mutants the check must refuse.
/// Everything else, the PB model included, is the inner puzzle's.
struct Mutant<P: Puzzle> {
    inner: P,
    mutate: Mutation<P::Map>,
}

/// What a mutant does to the inner puzzle's CNF and map.
type Mutation<M> = Box<dyn Fn(&mut Cnf, &mut M) + Send + Sync>;

impl<P: Puzzle> Puzzle for Mutant<P> {
    type Solution = P::Solution;
    type Map = P::Map;
    type Details = P::Details;
    fn describe(&self) -> String {
        format!("mutant of {}", self.inner.describe())
    }
    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<puzzlesat::puzzle::Encoded<Self::Map>> {
        let mut enc = self.inner.encode(cnf)?;
        (self.mutate)(cnf, &mut enc.map);
        Ok(enc)
    }
    fn decode(
        &self,
        map: &Self::Map,
        model: &puzzlesat::encodings::Assignment,
    ) -> anyhow::Result<Self::Solution> {
        self.inner.decode(map, model)
    }
    fn check(&self, sol: &Self::Solution) -> Result<(), String> {
        self.inner.check(sol)
    }
    fn render(&self, sol: &Self::Solution) -> String {
        self.inner.render(sol)
    }
    fn pb_model(&self) -> Option<PbModel> {
        self.inner.pb_model()
    }
    fn separate<DB: ClauseDatabase>(
        &self,
        map: &Self::Map,
        model: &puzzlesat::encodings::Assignment,
        db: &mut DB,
    ) -> bool {
        self.inner.separate(map, model, db)
    }
    fn symmetry_proof(
        &self,
        map: &Self::Map,
        name: &dyn Fn(Lit) -> String,
    ) -> Option<Result<puzzlesat::encodings::dominance::SymmetryProof, String>> {
        self.inner.symmetry_proof(map, name)
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
    let p = Queens::new(8, Options::default());
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
    let m = c
        .certificate
        .from_model
        .as_ref()
        .expect("a VeriPB certificate");
    assert_eq!(m.solutions, 92, "every solution logged by solx");
    assert!(
        c.certificate.checker.starts_with("veripb"),
        "{}",
        c.certificate.checker
    );
    let (model, proof) = m.files.clone().expect("--proof-dir keeps the files");
    assert!(model.ends_with(".opb") && proof.ends_with(".pbp"));
    assert_eq!(
        std::path::Path::new(&model).file_stem(),
        std::path::Path::new(&proof).file_stem(),
        "the proof has its model's stem"
    );
    // anyone can check the kept files by hand
    let out = common::veripb().arg(&model).arg(&proof).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
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
        Options {
            amo: AmoEncoding::Ladder,
            ..Default::default()
        },
        Options {
            encoding: Encoding::Columns,
            ..Default::default()
        },
        Options {
            encoding: Encoding::Columns,
            amo: AmoEncoding::Ladder,
            ..Default::default()
        },
    ] {
        let p = Queens::new(8, o);
        let r = run::run_quiet(
            &p,
            &RunOptions {
                count_only: true,
                ..certified(true)
            },
        )
        .unwrap_or_else(|e| panic!("{o}: {e:#}"));
        assert_eq!(r.count, Some(92), "{o}");
        let c = &r.certificates.expect("certificates")[0];
        let m = c.certificate.from_model.as_ref().unwrap_or_else(|| {
            panic!(
                "{o}: not from the model: {:?}",
                c.certificate.not_from_model
            )
        });
        assert_eq!(m.solutions, 92, "{o}");
        assert!(m.definitions > 0, "{o}: auxiliary variables introduced");
    }
}

#[test]
fn queens_without_a_solution_is_certified_unsat() {
    require_veripb();
    let p = Queens::new(3, Options::default());
    let r = run::run_quiet(&p, &certified(false)).expect("certified run");
    assert_eq!(r.status, Status::Unsat);
    let c = &r.certificates.expect("certificates")[0];
    assert_eq!(c.claim, Claim::Infeasible);
    assert!(c.certificate.from_model.is_some());
}

#[test]
fn an_encoding_without_definitions_is_certified_by_drat_and_says_so() {
    common::veripb(); // the checker, should the run reach it
                      // an auxiliary variable the definitions log knows nothing of (forced
                      // true by two clauses: the placements stay the same)
    let p = Mutant {
        inner: Queens::new(6, Options::default()),
        mutate: Box::new(|cnf, q| {
            let y = cnf.fresh();
            cnf.add(&[y, q.q[0][0]]);
            cnf.add(&[y, !q.q[0][0]]);
        }),
    };
    let r = run::run_quiet(&p, &certified(true)).expect("certified run");
    assert_eq!(r.count, Some(4));
    assert_certified_by_drat_because(&r.certificates, "without a definition");
}

/// The first certificate is a DRAT one whose reason (why no VeriPB proof
/// from the model) says `because`.
fn assert_certified_by_drat_because(
    certificates: &Option<Vec<puzzlesat::certify::Certified>>,
    because: &str,
) {
    let c = &certificates.as_ref().expect("certificates")[0];
    assert!(c.certificate.from_model.is_none());
    let why = c.certificate.not_from_model.as_deref().expect("the reason");
    assert!(why.contains(because), "{why}");
}

/// Optima certified from the model (`soli`, `conclusion BOUNDS`): the
/// hardest Alien Tiles goals with the default redundant bound, derived as
/// a lemma of the model, and the default symmetry breaking, by dominance;
/// 4×4/3 ends on an UNSAT call, 3×3/3 at the end of the objective's range
/// (the bound alone), and 3×3/2's bound comes from disjoint cuts.
#[test]
fn alien_tiles_hardest_optima_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::alien_tiles::{AlienTiles, Task};
    for (n, c, hardest, search) in [(4, 3, 10, true), (3, 3, 18, false), (3, 2, 3, true)] {
        let p = AlienTiles::new(n, c, Task::Hardest).unwrap();
        let r = run::run_quiet(&p, &certified(false)).expect("certified run");
        assert_eq!(r.status, Status::Optimal, "{n}x{n}/{c}");
        assert_eq!(r.objective, Some(hardest), "{n}x{n}/{c}");
        let c = &r.certificates.expect("certificates")[0];
        let from = c.certificate.from_model.as_ref().expect("from the model");
        let covers = match search {
            true => "encoding, symmetry breaking and search",
            false => "encoding and symmetry breaking; no search: the derived bound meets the best solution",
        };
        assert_eq!(from.covers, covers, "{n}x{n}/{c}");
        assert_eq!(from.solutions, 1, "the best, by soli");
        assert!(from.dom_clauses > 0 && from.pol_clauses > 0);
    }
}

/// Mutant: a redundant bound one below the optimum (`Σ clicks ≤ 9` on
/// 4×4/3, whose hardest goal needs 10), stated as a lemma whose derivation
/// (an order clause of the model) does not imply it: the run finds 9 and
/// the VeriPB check refuses the claim.
#[test]
fn a_wrong_lemma_is_refused() {
    require_veripb();
    use puzzlesat::encodings::provenance::{Lemma, Linear};
    use puzzlesat::puzzles::alien_tiles::{AlienTiles, Task};
    let p = Mutant {
        inner: AlienTiles::new(4, 3, Task::Hardest).unwrap(),
        mutate: Box::new(|cnf, map| {
            let lits: Vec<Lit> = map
                .clicks()
                .iter()
                .flat_map(|x| x.order_lits().to_vec())
                .collect();
            let order_clause = Linear::count_at_least(&[!lits[1], lits[0]], 1);
            cnf.provenance().expect("recording").lemma(
                Linear::count_at_most(&lits, 9),
                Lemma {
                    parts: vec![order_clause],
                    divisor: 1,
                },
            );
            use puzzlesat::encodings::card::{Card, CardEncoding};
            let units = Card::new(CardEncoding::Totalizer, &lits).at_most(cnf, 9);
            cnf.post_units(units).unwrap();
            puzzlesat::encodings::provenance::source(cnf, || None);
        }),
    };
    common::assert_veripb_refuses(run::run_quiet(&p, &certified(false)), &[]);
}

/// Mutant: a wrong order axiom in the columns encoding, `[x₁ ≥ 1] →
/// [x₁ ≥ 7]` (`[x₁ ≥ 1]` is `¬[x₁ = 0]` and `[x₁ ≥ 7]` is `[x₁ = 7]`):
/// it drops the placements with row 1's queen in columns 2..7, so the
/// count is wrong, and the VeriPB check refuses the claim.
#[test]
fn a_wrong_order_axiom_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::queens::Encoding;
    let p = Mutant {
        inner: Queens::new(
            8,
            Options {
                encoding: Encoding::Columns,
                ..Default::default()
            },
        ),
        mutate: Box::new(|cnf, q| cnf.add(&[q.q[0][0], q.q[0][7]])),
    };
    let uncertified = run::run_quiet(
        &p,
        &RunOptions {
            all: true,
            no_classes: true,
            ..Default::default()
        },
    )
    .expect("the mutant counts");
    assert!(
        uncertified.count.unwrap() < 92,
        "the mutant drops solutions"
    );
    common::assert_veripb_refuses(run::run_quiet(&p, &certified(true)), &[]);
}

/// Mutant: a totalizer for `Σ ≤ 1` over three literals with one clause
/// dropped (replaced by a copy of another, so the definitions log stays
/// aligned): its CNF admits two true literals, and VeriPB refuses the
/// `solx` of that assignment, while the whole totalizer checks.
#[test]
fn a_totalizer_with_a_clause_dropped_is_refused() {
    require_veripb();
    use puzzlesat::encodings::card::{self, CardEncoding};
    let mut m = PbModel::new();
    let vars: Vec<PbLit> = ["aa", "bb", "cc"].iter().map(|n| m.var(n).pos()).collect();
    m.at_most(&vars, 1, "at most one".to_string());
    let mut enc = Cnf::new();
    enc.record_provenance();
    let x = enc.fresh_lits(3);
    card::at_most(&mut enc, &x, 1, CardEncoding::Totalizer).unwrap();
    let prov = enc.take_provenance();
    let names: Vec<(String, Lit)> = ["aa", "bb", "cc"]
        .iter()
        .zip(&x)
        .map(|(n, &l)| (n.to_string(), l))
        .collect();
    // the models of a CNF projected onto x, by brute force over every variable
    let solutions = |cnf: &Cnf| -> Vec<Vec<Lit>> {
        let n = cnf.n_vars();
        let mut found = std::collections::BTreeSet::new();
        for bits in 0u32..1 << n {
            let value = |l: Lit| (bits >> l.var().idx32() & 1 == 1) != l.is_neg();
            if cnf.clauses().all(|c| c.iter().any(|&l| value(l))) {
                found.insert(
                    x.iter()
                        .map(|&l| if value(l) { l } else { !l })
                        .collect::<Vec<Lit>>(),
                );
            }
        }
        found.into_iter().collect()
    };
    let prove = |cnf: &Cnf| {
        let sols = solutions(cnf);
        let mut formula = cnf.clone();
        for s in &sols {
            formula.add(&s.iter().map(|&l| !l).collect::<Vec<_>>());
        }
        let run = veripb::Run {
            recorded: 0,
            optimum: None,
            search: true,
            model: &m,
            names: &names,
            cnf_clauses: cnf.len(),
            provenance: prov.as_ref(),
            symmetry: None,
            primary: &x,
            claim: Claim::Complete,
            cube: None,
            guard: None,
            dir: None,
            stem: "totalizer",
            count: None,
        };
        (
            sols.len(),
            veripb::prove(&run, &formula, &Producer::Varisat, &Limits::default()).map(|_| ()),
        )
    };
    let (n, honest) = prove(&enc);
    assert_eq!(n, 4, "none or one of three");
    honest.expect("the whole totalizer checks");
    let mut refused = 0;
    for drop in 0..enc.len() {
        let mut mutant = Cnf::new();
        for (i, c) in enc.clauses().enumerate() {
            mutant.add(if i == drop {
                enc.clause((i + 1) % enc.len())
            } else {
                c
            });
        }
        let (n, r) = prove(&mutant);
        if n > 4 {
            let e = r.expect_err("a solution the model does not have");
            assert!(matches!(e, CertifyError::VeripbRejected(_)), "{e}");
            refused += 1;
        }
    }
    assert!(
        refused > 0,
        "some dropped clause admits a second true literal"
    );
}

#[test]
fn the_drat_path_stays_as_an_option() {
    common::veripb(); // the checker, should the run reach it
    let p = Queens::new(6, Options::default());
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
        recorded: 0,
        optimum: None,
        search: true,
        model: &m,
        names: &names,
        cnf_clauses: n_cnf,
        provenance: None,
        symmetry: None,
        primary: &primary,
        claim: if solutions.is_empty() {
            Claim::Infeasible
        } else {
            Claim::Complete
        },
        cube: None,
        guard: None,
        dir: None,
        stem: "small",
        count: None,
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
    // a model that names its variables x<N> gets auxiliaries of another letter
    let n = ProofNames::new(&m, &[], 4).unwrap();
    let aux = n.lit(rustsat::types::Lit::positive(3));
    assert!(!aux.starts_with('x') && aux.ends_with('4'), "{aux}");
    let mut buf = vec![];
    let w = ProofWriter::new(&mut buf, 0).unwrap();
    w.finish(puzzlesat_encodings::proof::Conclusion::None)
        .unwrap();
}

fn cubes(count: u32) -> puzzlesat::options::CubeOptions {
    puzzlesat::options::CubeOptions {
        count,
        file: None,
        only: None,
        jobs: 1,
        trust: false,
    }
}

/// `--certify --cubes K` on an optimum: a VeriPB proof per cube whose
/// model is the PB model plus the cube's literals and "at least as good as
/// the value past the cube's bound" (concluded `BOUNDS INF INF`: no such
/// solution), then the cover check. Alien Tiles 3×3/2 without symmetry
/// breaking (its dominance steps would not preserve a cube), hardest 3.
#[test]
fn a_cubed_optimum_is_certified_per_cube_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::alien_tiles::{symmetry::Symmetry, AlienTiles, Task};
    let mut p = AlienTiles::new(3, 2, Task::Hardest).unwrap();
    p.symmetry = Symmetry::None;
    let opts = RunOptions {
        cubes: Some(cubes(4)),
        ..certified(false)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(3)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 4, "one certificate per cube");
    for (i, c) in certs.iter().enumerate() {
        assert_eq!(c.cube, Some(i as u32));
        assert!(c.certificate.checker.starts_with("veripb"), "cube {i}");
        let m = c.certificate.from_model.as_ref().expect("from the model");
        assert_eq!(m.covers, "encoding and search", "cube {i}");
    }
    let cover = r.cubes.as_ref().and_then(|t| t.cover.clone());
    assert!(cover.is_some_and(|c| c.contains("4 sign patterns")));
    let text = r.summary();
    assert!(
        text.contains("optimal: 3") && text.contains("certified from the model"),
        "{text}"
    );
}

/// `--certify --cubes K` on an optimum whose symmetry breaking is derived
/// by dominance (Alien Tiles' default double-lex and transpose): the cube
/// cannot be part of the model the `dom` steps preserve, so each cube's
/// proof keeps the puzzle's model, derives the symmetry breaking, then
/// "not (the cube and better than its bound)" by contradiction (a `red`
/// subproof), checked by `e` under `conclusion NONE`. 4×4/3: hardest 10.
#[test]
fn a_cubed_optimum_under_dominance_is_certified_per_cube_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::alien_tiles::{AlienTiles, Task};
    let p = AlienTiles::new(4, 3, Task::Hardest).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let opts = RunOptions {
        cubes: Some(cubes(4)),
        proof_dir: Some(dir.path().to_path_buf()),
        ..certified(false)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(10)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 4, "one certificate per cube");
    for (i, c) in certs.iter().enumerate() {
        assert_eq!(c.cube, Some(i as u32));
        let m = c.certificate.from_model.as_ref().expect("from the model");
        assert_eq!(
            m.covers, "encoding, symmetry breaking and search",
            "cube {i}"
        );
        assert!(m.dom_clauses > 0, "cube {i}");
        let (_, proof) = m.files.clone().expect("kept");
        let text = std::fs::read_to_string(proof).unwrap();
        assert!(
            text.contains(": : subproof") && text.contains("conclusion NONE;"),
            "cube {i}"
        );
    }
    let cover = r.cubes.as_ref().and_then(|t| t.cover.clone());
    assert!(cover.is_some_and(|c| c.contains("4 sign patterns")));
    let text = r.summary();
    assert!(
        text.contains("optimal: 10")
            && text.contains("certified from the model: encoding, symmetry breaking and search"),
        "{text}"
    );
}

/// `--count --cubes K --no-classes --certify`: a VeriPB proof per cube (the
/// model plus the cube's literals, which split on "the queen of row r is
/// in the second half", defined over the model), each cube's solutions
/// logged by `solx`; queens n = 8: 92 in 8 cubes.
#[test]
fn a_cubed_count_is_certified_per_cube_from_the_model() {
    require_veripb();
    let p = Queens::new(8, Options::default());
    let opts = RunOptions {
        count_only: true,
        cubes: Some(cubes(8)),
        ..certified(true)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!((r.status, r.count), (Status::All, Some(92)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 8, "one certificate per cube");
    let logged: usize = certs
        .iter()
        .map(|c| {
            assert!(c.certificate.checker.starts_with("veripb"));
            c.certificate
                .from_model
                .as_ref()
                .expect("from the model")
                .solutions
        })
        .sum();
    assert_eq!(logged, 92, "every solution logged by solx in its cube");
    let cover = r.cubes.as_ref().and_then(|t| t.cover.clone());
    assert!(cover.is_some_and(|c| c.contains("8 sign patterns")));
    assert!(r.summary().contains("certified from the model"));
    // counting by classes with --cubes is not certified per cube
    let by_classes = RunOptions {
        no_classes: false,
        ..opts
    };
    let e = run::run_quiet(&p, &by_classes).unwrap_err().to_string();
    assert!(e.contains("--no-classes"), "{e}");
}

/// Magic squares with the default encoding (`--encoding digits`, unary
/// digit line sums, digit counts): every clause derived from the model
/// over the values `[F = v]` (the digits' literals defined over them, the
/// line sums and digit counts as lemmas), n = 3: 8 squares logged by `solx`;
/// a clause the model does not imply (`¬[F11 = 2]`) drops two squares and
/// the check refuses the count.
#[test]
fn magic_digits_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::magic::{CellEncoding, Magic, Options};
    let o = Options::default();
    assert_eq!(o.cells, CellEncoding::Digits, "the default encoding");
    let p = Magic::new(3, o);
    let r = run::run_quiet(&p, &certified(true)).expect("certified run");
    assert_eq!((r.status, r.count), (Status::All, Some(8)));
    let c = &r.certificates.clone().expect("certificates")[0];
    let m = c.certificate.from_model.as_ref().expect("from the model");
    assert_eq!(m.solutions, 8);
    assert!(m.definitions > 0 && m.pol_clauses > 0);
    let text = r.summary();
    assert!(
        text.contains("exactly 8")
            && text.contains("certified from the model: encoding and search, VeriPB 3.0.2"),
        "{text}"
    );
    let mutant = Mutant {
        inner: Magic::new(3, o),
        mutate: Box::new(|cnf, map| cnf.add(&[!map.direct[0][1]])),
    };
    common::assert_veripb_refuses(run::run_quiet(&mutant, &certified(true)), &[]);
}

/// Enigma's plain board CNF (`--symmetry none --redundant none --dominance
/// none`) is not derived from the model: the model's cells range over the
/// rules' `1..n²`, the CNF's over `1..ub` (ub the largest UBNVAL, n = 4:
/// 4), and the proof derives that bound along the canonical cycle types
/// only. The run is certified by DRAT and says why; so is the count of the
/// optimal boards (72, as brute force finds). The redundant and dominance
/// constraints of the default options are not derived without the cycle
/// types either: that run is certified by DRAT and names them.
#[test]
fn enigma_plain_board_is_certified_by_drat() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::BoardOptions;
    use puzzlesat::puzzles::enigma::Enigma;
    let plain = Enigma {
        n: 4,
        opts: BoardOptions::NAIVE,
    };
    let r = run::run_quiet(&plain, &certified(false)).expect("certified run");
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(40)));
    assert_certified_by_drat_because(
        &r.certificates,
        "the cells' domain 1..4 (the model's is the rules' 1..n²) without --symmetry cycles",
    );
    let r = run::run_quiet(&plain, &certified(true)).expect("certified run");
    assert_eq!((r.objective, r.count), (Some(40), Some(72)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 2);
    assert!(certs.iter().all(|c| c.certificate.from_model.is_none()));
    assert_eq!(certs[1].claim, Claim::Complete);

    // the dominance is derived over the canonical cycle types and occ3's
    // case split: without them the run certifies by DRAT and says why
    let bare = Enigma {
        n: 5,
        opts: BoardOptions {
            dominance: puzzlesat::puzzles::enigma::encode::Dominance::Counts,
            ..BoardOptions::NAIVE
        },
    };
    let r = run::run_quiet(&bare, &certified(false)).expect("certified run");
    assert_eq!(r.objective, Some(55));
    assert_certified_by_drat_because(
        &r.certificates,
        "--dominance counts without --symmetry cycles and --redundant occ3",
    );
}

/// Runs Enigma's board of side `n` with `opts` certified (the model and
/// proof kept in a temporary directory) and asserts the optimum `best`,
/// certified from the model (encoding, symmetry breaking and search, with
/// the files kept) and `derived` clauses derived by the symmetry block.
fn assert_enigma_certified(
    n: usize,
    opts: puzzlesat::puzzles::enigma::encode::BoardOptions,
    best: i64,
    derived: usize,
) {
    let p = puzzlesat::puzzles::enigma::Enigma { n, opts };
    let dir = tempfile::tempdir().expect("temporary directory");
    let run_opts = RunOptions {
        proof_dir: Some(dir.path().to_path_buf()),
        ..certified(false)
    };
    let r = run::run_quiet(&p, &run_opts).expect("certified run");
    assert_eq!(
        (r.status, r.objective),
        (Status::Optimal, Some(best)),
        "n = {n}"
    );
    let c = &r.certificates.as_ref().expect("certificates")[0];
    let from = c.certificate.from_model.as_ref().expect("from the model");
    assert_eq!(from.covers, "encoding, symmetry breaking and search");
    assert_eq!(from.dom_clauses, derived, "n = {n}, {}", p.opts.redundant);
    let (model, proof) = from.files.clone().expect("--proof-dir keeps the files");
    assert!(std::path::Path::new(&model).exists() && std::path::Path::new(&proof).exists());
    let text = r.summary();
    assert!(
        text.contains(&format!(
            "optimal: {best} (proven: no better solution, UNSAT, certified from the model: encoding, symmetry breaking and search, VeriPB"
        )),
        "{text}"
    );
}

/// Enigma's board with the canonical cycle types (`--symmetry cycles
/// --redundant none --dominance none`): C9's units, C10's clauses by
/// `dom` (conjugations of the permutation, a row-major lex order on the
/// matrix), the canonical matrix's "at least one" and C10's "no room"
/// units by RUP; the optimum (n = 4: 40, n = 5: 55) is certified from the
/// model. n = 4 has 2 "no room" units and 8 rows' and columns' clauses;
/// n = 5 one C10 clause by `dom`, 4 units, 10 rows and columns.
#[test]
fn enigma_cycles_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Symmetry};
    for (n, best, derived) in [(4, 40, 10), (5, 55, 15)] {
        let opts = BoardOptions {
            symmetry: Symmetry::Cycles,
            ..BoardOptions::NAIVE
        };
        assert_enigma_certified(n, opts, best, derived);
    }
}

/// `--symmetry cycles --redundant occ3 --dominance none`: the occurrence
/// clauses `[c_{v+1} ≥ t] → [c_v ≥ t + 3]` and `u[v] → [c_v ≥ 3]` are
/// derived after the cycle block (a case split over the canonical cycle
/// types, whose orbits have ≥ 3 cells), and the CNF's objective over the
/// counters' outputs is tied to the model's; the optimum (n = 4: 40, n =
/// 5: 55) is certified from the model. The block derives C9–C11 (10 and
/// 15 clauses) and the occurrence clauses: n = 4 (ub = 4) 3 units
/// `¬[c_2 ≥ t]` (t ≥ 14), 2 × 16 steps and 3 top ones, 38 in all; n = 5
/// (ub = 5) 3 + 3 × 25 + 4 = 82.
#[test]
fn enigma_occ3_is_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Redundant, Symmetry};
    for (n, best, derived) in [(4, 40, 10 + 38), (5, 55, 15 + 82)] {
        let opts = BoardOptions {
            symmetry: Symmetry::Cycles,
            redundant: Redundant {
                occ3: true,
                ..Redundant::default()
            },
            ..BoardOptions::NAIVE
        };
        assert_enigma_certified(n, opts, best, derived);
    }
}

/// Enigma's board with `--redundant occ3,ubnval,gcd,staircase` (the
/// defaults but the dominance): the `ubnval` and `gcd` clauses are
/// derived per canonical cycle type (a pigeonhole of the values into the
/// orbits), the staircase's units by RUP along the occurrence clauses, and
/// the objective's link leaves the removed outputs out; each subset with
/// occ3 is certified from the model too. The block derives, at n = 4 (ub =
/// 4), the 48 clauses of occ3 and 21 staircase units, 3 ubnval clauses and
/// 3 gcd clauses (one [n₂ ≥ 1], one [n_odd ≥ 1]): 75; at n = 5 (ub = 5)
/// 97 + 34 + 4 + 4 = 139.
#[test]
fn enigma_ubnval_gcd_staircase_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Redundant, Symmetry};
    let all = Redundant {
        occ3: true,
        ubnval: true,
        gcd: true,
        staircase: true,
    };
    let ubnval = Redundant {
        gcd: false,
        staircase: false,
        ..all
    };
    let staircase = Redundant {
        ubnval: false,
        gcd: false,
        ..all
    };
    for (n, best, redundant, derived) in [
        (4, 40, all, 75),
        (5, 55, all, 139),
        (4, 40, ubnval, 10 + 38 + 3),
        (5, 55, staircase, 15 + 82 + 30),
    ] {
        let opts = BoardOptions {
            symmetry: Symmetry::Cycles,
            redundant,
            ..BoardOptions::NAIVE
        };
        assert_enigma_certified(n, opts, best, derived);
    }
}

/// Mutant: a wrong ubnval clause, "value 4 used → UBNVAL ≥ 5" (K one
/// above the right one; n = 4's UBNVAL is at most 4, so the clause is the
/// unit ¬u[4]). n = 4's optimal boards (type {2, 2}, 4 orbits) use the
/// values 1..4: the clause drops the optimum (without `--certify` the run
/// reports less than 40). The proof derives the right clauses only, VeriPB
/// rejects the step and the claim is refused.
#[test]
fn a_wrong_ubnval_clause_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Redundant, Symmetry};
    use puzzlesat::puzzles::enigma::Enigma;
    let mutant = Mutant {
        inner: Enigma {
            n: 4,
            opts: BoardOptions {
                symmetry: Symmetry::Cycles,
                redundant: Redundant {
                    occ3: true,
                    ubnval: true,
                    gcd: true,
                    staircase: true,
                },
                ..BoardOptions::NAIVE
            },
        },
        mutate: Box::new(|cnf, map| {
            let c = map.counters.as_ref().expect("the counters");
            let u = &c.ubnval.as_ref().expect("the ubnval literals").ubnval;
            // used_{K+1} → [UBNVAL ≥ K+2] with K + 1 = 4: [UBNVAL ≥ 5] is
            // past the totalizer's end (false)
            let mut cl = vec![!c.used[4]];
            cl.extend(u.get(4).copied());
            cnf.add(&cl);
        }),
    };
    assert_mutant_refused(&mutant, 40, &[]);
}

/// Enigma's board with its defaults (`--symmetry cycles --redundant
/// occ3,ubnval,gcd,staircase --dominance orbits12`), and with `--dominance
/// counts`: the dominance clauses are derived by `dom` with the swap of
/// two values as witness (enigma/dom_proof.rs), then per threshold by a
/// pigeonhole at each cycle type; the optimum is certified from the model.
/// The block derives, besides rule 1's clauses: at n = 4, 75 clauses of
/// the redundant constraints (as without the dominance) and 130 dominance
/// clauses with orbits12 (thresholds 4, 6, 12), 83 with counts (4, 6);
/// at n = 5, 139 + 265 with orbits12.
#[test]
fn enigma_default_dominance_is_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Dominance};
    let counts = BoardOptions {
        dominance: Dominance::Counts,
        ..BoardOptions::FULL
    };
    // n = 2 (no board) and n = 3 (9 cells: no value can occur 12 times;
    // proven by the derived bound, no search): from the model, with 4 (the
    // cycle types') and 39 clauses by dominance
    for (n, status, best, derived) in [
        (2, Status::Unsat, None, 4),
        (3, Status::Optimal, Some(15), 39),
    ] {
        let p = puzzlesat::puzzles::enigma::Enigma {
            n,
            opts: BoardOptions::FULL,
        };
        let r = run::run_quiet(&p, &certified(false)).expect("certified run");
        assert_eq!((r.status, r.objective), (status, best), "n = {n}");
        let c = &r.certificates.as_ref().expect("certificates")[0];
        let from = c.certificate.from_model.as_ref().expect("from the model");
        assert_eq!(from.dom_clauses, derived, "n = {n}");
    }
    for (n, best, opts, derived) in [
        (4, 40, BoardOptions::FULL, 205),
        (4, 40, counts, 158),
        (5, 55, BoardOptions::FULL, 404),
    ] {
        assert_enigma_certified(n, opts, best, derived);
    }
}

/// Mutant: a wrong dominance clause, "value 1 occurs at least 5 times"
/// (the unit ¬[c_2 ≥ 12]; the dominance gives 4 where no 3-cycle is on
/// the board). n = 4's optimal boards (type {2, 2}) hold each of 1..4 on
/// one orbit of 4 cells: the clause drops the optimum (without
/// `--certify` the run reports less than 40). The proof derives the right
/// clauses only, VeriPB rejects the step and the claim is refused.
#[test]
fn a_wrong_dominance_clause_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::BoardOptions;
    use puzzlesat::puzzles::enigma::Enigma;
    let mutant = Mutant {
        inner: Enigma {
            n: 4,
            opts: BoardOptions::FULL,
        },
        mutate: Box::new(|cnf, map| {
            let c = map.counters.as_ref().expect("the counters");
            // [c_2 ≥ 12] is c.ge[2][11]
            cnf.add(&[!c.ge[2][11]]);
        }),
    };
    assert_mutant_refused(&mutant, 40, &[]);
}

/// The block of `--symmetry cycles --redundant occ3` alone, n = 6 and 7
/// (the search of n = 7 takes minutes to check): the encoding's
/// derivation, then C9–C11 and every occurrence clause, each checked
/// against the CNF's clause by `e`, and the objective's link, checked by
/// VeriPB with no conclusion. The block derives 284 CNF clauses at n = 6
/// and 434 at n = 7 (the canonical matrix's and the occurrence clauses).
#[test]
fn enigma_occurrence_clauses_are_derived_at_n_6_and_7() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Redundant, Symmetry};
    use puzzlesat::puzzles::enigma::Enigma;
    let dir = tempfile::tempdir().expect("temporary directory");
    // the occurrence block's clauses, then rule 1's (one per pair of rows
    // and column: 15·6, 21·7)
    for (n, derived) in [(6, 284 + 90), (7, 434 + 147)] {
        let p = Enigma {
            n,
            opts: BoardOptions {
                symmetry: Symmetry::Cycles,
                redundant: Redundant {
                    occ3: true,
                    ..Redundant::default()
                },
                ..BoardOptions::NAIVE
            },
        };
        let (cnf, enc, model, names) = encoded_with_model(&p);
        let proof = p
            .symmetry_proof(&enc.map, &|l| names.lit(l))
            .expect("a symmetry proof")
            .expect("derived");
        assert!(proof.objective_link.is_some(), "the objective's link");
        let block = veripb::SymmetryBlock::new(proof, &cnf).expect("its clauses are the CNF's");
        assert_eq!(
            block.derives.len() + block.before_derives.len(),
            derived,
            "n = {n}"
        );
        let prov = cnf.provenance_log();
        veripb::plan(&model, &names, &cnf, prov, Some(&block)).expect("a plan");
        // the order's prelude, the block's steps over the model, the
        // encoding, the rest of the block, each derived clause checked (`e`)
        let stem = dir.path().join(format!("occ{n}"));
        let checked = check_block(&stem, &model, &names, &cnf, prov, &block)
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert!(
            checked.verdict.contains("NO CONCLUSION"),
            "{}",
            checked.verdict
        );
        eprintln!(
            "n = {n}: proof {} bytes, checked in {:.2} s",
            std::fs::metadata(stem.with_extension("pbp")).unwrap().len(),
            checked.seconds
        );
    }
}

/// Mutant: a wrong occurrence clause, `[c_3 ≥ 8] → [c_2 ≥ 13]` ("value 2
/// occurs at least 5 times once 8 cells are above it"). n = 4's optimal
/// boards (type {2, 2}) fill four orbits of 4 cells with 1..4, so c_3 = 8
/// and c_2 = 12: the clause drops the optimum (without `--certify` the run
/// reports less than 40). The proof has no derivation of it (the block
/// derives the right clauses only), VeriPB rejects the step and the claim
/// is refused.
#[test]
fn a_wrong_occurrence_clause_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Redundant, Symmetry};
    use puzzlesat::puzzles::enigma::Enigma;
    let mutant = Mutant {
        inner: Enigma {
            n: 4,
            opts: BoardOptions {
                symmetry: Symmetry::Cycles,
                redundant: Redundant {
                    occ3: true,
                    ..Redundant::default()
                },
                ..BoardOptions::NAIVE
            },
        },
        mutate: Box::new(|cnf, map| {
            let c = map.counters.as_ref().expect("the counters");
            // [c_v ≥ t] is c.ge[v][t − 1]
            cnf.add(&[!c.ge[3][7], c.ge[2][12]]);
        }),
    };
    assert_mutant_refused(&mutant, 40, &[]);
}

/// The symmetry block of `--symmetry cycles` alone, n = 6..8 (where the
/// search takes minutes): the encoding's derivation, then every C9 unit
/// and C10 clause by `dom`, each checked against the CNF's clause by `e`,
/// checked by VeriPB with no conclusion.
#[test]
fn enigma_cycle_clauses_are_derived_up_to_n_8() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Symmetry};
    use puzzlesat::puzzles::enigma::Enigma;
    let dir = tempfile::tempdir().expect("temporary directory");
    for (n, doms) in [(6, 13), (7, 22), (8, 34)] {
        let p = Enigma {
            n,
            opts: BoardOptions {
                symmetry: Symmetry::Cycles,
                ..BoardOptions::NAIVE
            },
        };
        let (cnf, enc, model, names) = encoded_with_model(&p);
        let proof = p
            .symmetry_proof(&enc.map, &|l| names.lit(l))
            .expect("a symmetry proof")
            .expect("derived");
        let block = veripb::SymmetryBlock::new(proof, &cnf).expect("its clauses are the CNF's");
        let prov = cnf.provenance_log();
        veripb::plan(&model, &names, &cnf, prov, Some(&block)).expect("a plan");
        assert_eq!(
            block
                .before
                .0
                .iter()
                .filter(|l| l.to_string().starts_with("dom "))
                .count(),
            doms,
            "n = {n}"
        );
        let model_path = dir.path().join(format!("cycles{n}.opb"));
        let proof_path = dir.path().join(format!("cycles{n}.pbp"));
        let mut f = std::fs::File::create(&model_path).unwrap();
        model.write_opb(&mut f).unwrap();
        let mut w = ProofWriter::new(
            std::io::BufWriter::new(std::fs::File::create(&proof_path).unwrap()),
            model.loaded(),
        )
        .unwrap();
        // the order's prelude, the block's steps over the model, the
        // encoding, the rest of the block, each derived clause checked (`e`)
        let constraints = veripb::ModelConstraints::new(&model, &names);
        veripb::derive_from_model(&mut w, &names, &constraints, &cnf, prov, Some(&block)).unwrap();
        w.finish(puzzlesat_encodings::proof::Conclusion::None)
            .unwrap();
        let checked = veripb::check(&model_path, &proof_path, &Limits::default())
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert!(
            checked.verdict.contains("NO CONCLUSION"),
            "{}",
            checked.verdict
        );
    }
}

/// Enigma's model states the cells' domain the rules give, `1..n²` (rule 3
/// makes the values on the board 1..max, each on a cell), not the
/// encoding's `1..ub` (ub = 16 at n = 8, the largest UBNVAL: a theorem of
/// Cambazard, O'Sullivan & Smith, which the proof derives): n = 8 has the
/// literal "cell (8, 8) is at least 64" and none for 65; 8,408 variables
/// and 90,987 constraints.
#[test]
fn enigma_model_states_the_rules_domain() {
    use puzzlesat::puzzles::enigma::model::max_ubnval;
    use puzzlesat::puzzles::enigma::opb;
    let m = opb::model(8);
    assert_eq!((m.n_vars(), m.constraints().len()), (8408, 90987));
    assert!(m.lookup(&opb::ge_name(7, 7, 64)).is_some());
    assert!(m.lookup(&opb::ge_name(7, 7, 65)).is_none());
    assert!(m.lookup(&opb::used_name(64)).is_some());
    for n in 2..=8 {
        assert_eq!(opb::top(n), n * n);
        assert!(max_ubnval(n) < opb::top(n), "n = {n}");
    }
}

/// Mutant: Enigma's proof without the derivation of the encoding's domain
/// (`¬u[ub+1]` along the cycle types, enigma/ubn_proof.rs): the canonical
/// cycle types' block, then rule 1's clauses straight away. Rule 1's
/// ladder assumes every cell at most ub (n = 4: 4) and the model allows 16,
/// so VeriPB refuses its first lemma; with the domain's block in between
/// the same proof checks.
#[test]
fn an_enigma_proof_without_the_domain_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Symmetry};
    use puzzlesat::puzzles::enigma::{cycle_proof, rule_proof, ubn_proof, Enigma};
    let dir = tempfile::tempdir().expect("temporary directory");
    let p = Enigma {
        n: 4,
        opts: BoardOptions {
            symmetry: Symmetry::Cycles,
            ..BoardOptions::NAIVE
        },
    };
    let (cnf, enc, model, names) = encoded_with_model(&p);
    let name = |l| names.lit(l);
    for with_domain in [true, false] {
        let mut proof = cycle_proof::cycles_proof(&enc.map, &name).expect("the cycle block");
        if with_domain {
            let domain = ubn_proof::domain_proof(&enc.map, &name).expect("the domain");
            assert!(domain.ids > 0);
            proof.before.append(domain);
        }
        proof
            .before
            .append(rule_proof::rule1_proof(&enc.map, &name));
        let block = veripb::SymmetryBlock::new(proof, &cnf).expect("its clauses are the CNF's");
        let prov = cnf.provenance_log();
        let stem = dir.path().join(format!("domain-{with_domain}"));
        let checked = check_block(&stem, &model, &names, &cnf, prov, &block);
        match with_domain {
            true => assert!(
                checked
                    .as_ref()
                    .is_ok_and(|c| c.verdict.contains("NO CONCLUSION")),
                "{checked:?}"
            ),
            false => assert!(
                matches!(
                    checked,
                    Err(puzzlesat::certify::CertifyError::VeripbRejected(_))
                ),
                "{checked:?}"
            ),
        }
    }
}

/// Mutant: a wrong C10 clause, "a 2-cycle [1..2] is not followed by the
/// 2-cycle [3..4]", posted and derived like the right ones (`dom` with the
/// conjugation that swaps the two blocks). It excludes n = 4's optimal
/// cycle type {2, 2}: without `--certify` the run reports less than 40.
/// The swap maps (1 2)(3 4) onto itself, not onto a smaller permutation,
/// so the `dom` step's goal "the image is strictly smaller" fails, VeriPB
/// rejects the proof and the claim is refused.
#[test]
fn a_wrong_cycle_clause_is_refused() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::{BoardOptions, Symmetry};
    use puzzlesat::puzzles::enigma::partitions::C10;
    use puzzlesat::puzzles::enigma::Enigma;
    let mutant = Mutant {
        inner: Enigma {
            n: 4,
            opts: BoardOptions {
                symmetry: Symmetry::Cycles,
                ..BoardOptions::NAIVE
            },
        },
        mutate: Box::new(|cnf, map| {
            let m = map.cycles.as_mut().expect("the canonical matrix");
            let wrong = C10 {
                start: 0,
                end: 1,
                next_end: Some(3),
            };
            cnf.add(&wrong.clause(m));
            m.c10.push(wrong);
        }),
    };
    assert_mutant_refused(&mutant, 40, &["Proofgoal #2 could not be autoproven"]);
}

/// Magic N = 4 `--all --symmetry order` (the counting defaults: order cells,
/// pairwise exactly-one, the implied sums) from the model: counting by
/// classes enumerates the representatives of `--symmetry diagonals
/// --complement` (166), whose order constraints and complement bounds are
/// derived by dominance, and expands them to the 880 squares the order
/// constraints keep; `--no-classes` logs the 880 under the order
/// constraints themselves.
#[test]
fn magic_4_order_count_is_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::magic::{Magic, Options, Symmetry};
    let p = Magic::new(
        4,
        Options {
            symmetry: Symmetry::Order,
            ..Options::counting(4)
        },
    );
    let claim = "certified from the model: encoding, symmetry breaking and search, VeriPB 3.0.2";
    for (no_classes, logged) in [(false, 166), (true, 880)] {
        let opts = RunOptions {
            no_classes,
            ..certified(true)
        };
        let r = run::run_quiet(&p, &opts).expect("certified run");
        assert_eq!((r.status, r.count), (Status::All, Some(880)));
        let c = &r.certificates.clone().expect("certificates")[0];
        let m = c.certificate.from_model.as_ref().expect("from the model");
        assert_eq!(m.solutions, logged, "no_classes {no_classes}");
        assert!(m.dom_clauses > 0);
        let text = r.summary();
        assert!(
            text.contains("exactly 880") && text.contains(claim),
            "{text}"
        );
    }
}

/// Magic squares over order-encoded cells (`--encoding order`, unary line
/// sums): each node of a line's sum tree is cut to the sums its cells can
/// take, a lemma from the line's sum and the distinct values' bounds
/// (e.g. `¬[F12 = 1] ∨ [F13 ≥ 3]`, from `F12 + F13 ≥ 15 − 9`), stated over
/// the cells' order literals. n = 3: the 8 squares; N = 4 with four
/// givens (the counting defaults: the implied sums too): 4.
#[test]
fn magic_order_cells_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::magic::{CellEncoding, Givens, Magic, Options};
    let claim = "certified from the model: encoding and search, VeriPB 3.0.2";
    let p = Magic::new(
        3,
        Options {
            cells: CellEncoding::Order,
            digit_counts: false,
            ..Options::default()
        },
    );
    let givens = Givens::parse(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("instances/magic/4x4-four-givens.txt"),
        )
        .unwrap(),
    )
    .unwrap();
    let q = Magic {
        givens,
        options: Options {
            cells: CellEncoding::Order,
            digit_counts: false,
            ..Options::counting(4)
        },
    };
    for (p, count) in [(p, 8), (q, 4)] {
        let r = run::run_quiet(&p, &certified(true)).expect("certified run");
        assert_eq!((r.status, r.count), (Status::All, Some(count)));
        let c = &r.certificates.clone().expect("certificates")[0];
        let m = c.certificate.from_model.as_ref().expect("from the model");
        assert_eq!(m.solutions, count as usize);
        let text = r.summary();
        assert!(
            text.contains(&format!("exactly {count}")) && text.contains(claim),
            "{text}"
        );
    }
}

/// Mutant (issue 26, item 5): lex-leader for a permutation that is not a
/// symmetry of the puzzle. n = 8 queens' 12 class representatives are
/// certified with their lex-leader constraints derived by dominance; with
/// one more constraint for the swap of the first row's first two cells
/// (no symmetry: it moves a queen onto another diagonal), the `dom` step's
/// proof goals for the model's diagonal constraints fail, VeriPB rejects
/// the proof and the claim is refused (an error, nothing "certified").
#[test]
fn a_wrong_symmetry_is_refused() {
    require_veripb();
    let n = 8;
    let representatives = Queens::new(n, Options::default())
        .class_representatives()
        .expect("queens have representatives");
    let swap =
        puzzlesat::encodings::perm::Perm::from_cycles(n * n, &[&[n as u32 + 2, n as u32 + 3]])
            .unwrap();
    // the representatives with one more lex-leader constraint for `wrong`,
    // posted and derived by the production path (the encoder's
    // `perm::lex_leader`, the family's `symmetry_proof` over every posted
    // comparison: `LexOrder::proof`, `dom`)
    let with = |wrong: Option<puzzlesat::encodings::perm::Perm>| Mutant {
        inner: representatives.clone(),
        mutate: Box::new(move |cnf: &mut Cnf, map: &mut <Queens as Puzzle>::Map| {
            if let Some(wrong) = &wrong {
                let cells: Vec<Lit> = map.q.iter().flatten().copied().collect();
                let posted = puzzlesat::encodings::perm::lex_leader(
                    cnf,
                    &cells,
                    std::slice::from_ref(wrong),
                );
                map.symmetry.extend(posted);
            }
        }),
    };
    let right = with(None);
    let r = run::run_quiet(&right, &certified(true)).expect("certified run");
    assert_eq!((r.status, r.count), (Status::All, Some(18)));
    assert!(
        r.summary()
            .contains("certified from the model: encoding, symmetry breaking and search"),
        "{}",
        r.summary()
    );
    let wrong = with(Some(swap));
    // without --certify the run counts (the swap removes representatives)
    let uncertified = run::run_quiet(
        &wrong,
        &RunOptions {
            all: true,
            no_classes: true,
            ..Default::default()
        },
    )
    .expect("the mutant counts");
    assert!(
        uncertified.count.unwrap() < 18,
        "the wrong symmetry drops representatives: {:?}",
        uncertified.count
    );
    // at a model constraint's proof goal of the `dom` step: the
    // swap does not map it onto a constraint of the model
    common::assert_veripb_refuses(
        run::run_quiet(&wrong, &certified(true)),
        &["could not be autoproven"],
    );
}

/// Unreachable goals played by SAT (`--method sat`, the kernel encoding,
/// whose CNF is then the empty clause) are certified from the model: the
/// linear algebra's obstruction `y` (`y·A ≡ 0`, `y·Δ ≢ 0 mod c`) sums the
/// model's equations into `0 ≥ 1` (issue 41: VeriPB refused these proofs).
/// A wrong obstruction (one weight changed) is refused by the check.
#[test]
fn unreachable_goals_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::alien_tiles::model::{click_map, Grid};
    use puzzlesat::puzzles::alien_tiles::{play_proof, zmod, AlienTiles, Task};
    let corner = |n: usize| {
        let mut g = Grid::zeros(n);
        g.cells[0] = 1;
        g
    };
    let shipped = Grid::read(
        std::path::Path::new("instances/alien-tiles/7x7-4-unreachable.txt"),
        7,
        4,
    )
    .unwrap();
    for (n, c, goal) in [(3, 2, corner(3)), (4, 3, corner(4)), (7, 4, shipped)] {
        let task = Task::Play {
            start: Grid::zeros(n),
            goal: goal.clone(),
        };
        let p = AlienTiles::new(n, c, task).unwrap();
        let r = run::run_quiet(&p, &certified(false)).expect("certified run");
        assert_eq!(r.status, Status::Unsat, "{n}x{n}/{c}");
        let cert = &r.certificates.expect("certificates")[0];
        assert_eq!(cert.claim, Claim::Infeasible);
        let from = cert
            .certificate
            .from_model
            .as_ref()
            .expect("from the model");
        assert_eq!(from.covers, "encoding and search", "{n}x{n}/{c}");
        // the default method (row/column) certifies it the same way
        let rowcol = puzzlesat::methods::alien_tiles::play_report(
            &p,
            &certified(false),
            &puzzlesat::solver::Limits::default(),
        )
        .expect("row/column report");
        assert_eq!(rowcol.status, Status::Unsat, "{n}x{n}/{c}");
        let cert = &rowcol.certificates.expect("certificates")[0];
        assert!(
            cert.certificate.from_model.is_some(),
            "{n}x{n}/{c}: row/column"
        );
        // the block alone checks with the obstruction, and is refused with
        // its first non-zero weight moved by one (y·A is no longer ≡ 0)
        let model = puzzlesat::puzzles::alien_tiles::opb::model(&p).unwrap();
        let y = zmod::obstruction(&click_map(n, c), &goal.cells).expect("unreachable");
        let mut wrong = y.clone();
        let k = wrong.iter().position(|&w| w > 0).unwrap();
        wrong[k] = (wrong[k] + 1) % c;
        for (y, passes) in [(y, true), (wrong, false)] {
            let block = play_proof::unreachable_block(&model, &y, c).before;
            let dir = tempfile::tempdir().unwrap();
            let (opb, pbp) = (dir.path().join("m.opb"), dir.path().join("m.pbp"));
            std::fs::write(&opb, model.to_opb()).unwrap();
            let proof = format!(
                "pseudo-Boolean proof version 3.0\nf {};\n{}\nrup >= 1;\noutput NONE;\nconclusion BOUNDS INF INF;\nend pseudo-Boolean proof;\n",
                model.loaded(),
                block.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
            );
            std::fs::write(&pbp, proof).unwrap();
            let out = common::veripb().arg(&opb).arg(&pbp).output().unwrap();
            assert_eq!(out.status.success(), passes, "{n}x{n}/{c}: {y:?}");
        }
    }
}

/// Writes `model` to `STEM.opb` and the derivation of the CNF with the
/// symmetry block `block` from it to `STEM.pbp` (ending `conclusion
/// NONE`), and checks them with VeriPB.
fn check_block(
    stem: &std::path::Path,
    model: &PbModel,
    names: &ProofNames,
    cnf: &Cnf,
    prov: Option<&puzzlesat::encodings::provenance::Provenance>,
    block: &veripb::SymmetryBlock,
) -> Result<veripb::Checked, CertifyError> {
    let (model_path, proof_path) = (stem.with_extension("opb"), stem.with_extension("pbp"));
    model
        .write_opb(&mut std::fs::File::create(&model_path).unwrap())
        .unwrap();
    let mut w = ProofWriter::new(
        std::io::BufWriter::new(std::fs::File::create(&proof_path).unwrap()),
        model.loaded(),
    )
    .unwrap();
    let constraints = veripb::ModelConstraints::new(model, names);
    veripb::derive_from_model(&mut w, names, &constraints, cnf, prov, Some(block)).unwrap();
    w.finish(puzzlesat_encodings::proof::Conclusion::None)
        .unwrap();
    veripb::check(&model_path, &proof_path, &Limits::default())
}

/// Enigma `--method board --cubes K --certify` with the default options: a
/// VeriPB proof from the model per cube, each cube's claim "not (its
/// literals and a total of at least the best)" derived under the
/// cycle-type dominance over the objective's terms the CNF names (the
/// cells above the encoding's domain are derived false); n = 5, 55.
#[test]
fn enigma_cubes_are_certified_from_the_model() {
    require_veripb();
    use puzzlesat::puzzles::enigma::encode::BoardOptions;
    use puzzlesat::puzzles::enigma::Enigma;
    // the command line's defaults
    let p = Enigma {
        n: 5,
        opts: BoardOptions::FULL,
    };
    let opts = RunOptions {
        cubes: Some(cubes(4)),
        ..certified(false)
    };
    let r = run::run_quiet(&p, &opts).expect("certified run");
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(55)));
    let certs = r.certificates.clone().expect("certificates");
    assert_eq!(certs.len(), 4, "one certificate per cube");
    for c in &certs {
        assert!(c.certificate.checker.starts_with("veripb"), "{c:?}");
        assert!(c.certificate.from_model.is_some(), "{c:?}");
    }
}

/// The CNF of `p` with its provenance, its encoding, its PB model and the
/// proof's names of the CNF's variables.
fn encoded_with_model<P: Puzzle>(
    p: &P,
) -> (Cnf, puzzlesat::puzzle::Encoded<P::Map>, PbModel, ProofNames) {
    let (cnf, enc, _) = puzzlesat::puzzle::encode_recording(p, true).expect("encoded");
    let model = p.pb_model().expect("a model");
    let names = ProofNames::new(&model, &enc.names, cnf.n_vars()).expect("names");
    (cnf, enc, model, names)
}
