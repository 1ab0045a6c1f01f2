//! Certified UNSAT answers: the DRAT checker on proofs written by Varisat
//! and by the `cadical` binary (accepted), on corrupted proofs (rejected),
//! and on formulas that are satisfiable (every proof rejected); proofs of
//! random formulas against brute force.
//!
//! Needs `cadical` and `cryptominisat5` on PATH (`.ci/run` installs them):
//! the tests that use them fail with a message naming them if missing.

use std::path::Path;

use proptest::prelude::*;
use puzzlesat::certify::drat::{self, DratError, DratFormat};
use puzzlesat::certify::{certify_unsat, produce_proof, CertifyError, Producer};
use puzzlesat::io::dimacs::read_cnf_file;
use puzzlesat::io::generate::{pigeonhole, random_ksat};
use puzzlesat::solver::Limits;
use puzzlesat_encodings::{ClauseDatabase, Cnf};
use rustsat::types::Lit;

/// The external proof solver `program` (from the Debian package
/// `package`); fails naming it if it is not on PATH.
fn external(program: &str, package: &str) -> Producer {
    assert!(
        std::process::Command::new(program)
            .arg("--version")
            .output()
            .is_ok(),
        "these tests need the `{program}` binary on PATH (apt-get install {package})"
    );
    Producer::External(program.into())
}

fn cadical() -> Producer {
    external("cadical", "cadical")
}

fn cryptominisat() -> Producer {
    external("cryptominisat5", "cryptominisat")
}

fn cadical_text() -> Producer {
    cadical();
    Producer::External("cadical --no-binary".into())
}

fn proof(f: &Cnf, p: &Producer) -> Vec<u8> {
    produce_proof(f, p, &Limits::default()).unwrap().0
}

fn check(f: &Cnf, proof: &[u8]) -> Result<drat::CheckStats, DratError> {
    drat::check(f, proof, drat::detect_format(proof), &|| false)
}

/// The formula without its `i`-th clause.
fn without_clause(f: &Cnf, i: usize) -> Cnf {
    let mut g = Cnf::new();
    for (k, c) in f.clauses().enumerate() {
        if k != i {
            g.add(c);
        }
    }
    g
}

/// Brute force: is there a model?
fn satisfiable(f: &Cnf, n_vars: u32) -> bool {
    (0u32..1 << n_vars).any(|m| {
        f.clauses()
            .all(|c| c.iter().any(|l| ((m >> l.vidx()) & 1 == 1) == l.is_pos()))
    })
}

#[test]
fn php_6_5_is_certified_by_both_producers() {
    let f = pigeonhole(6, 5);
    for p in [Producer::Varisat, cadical(), cadical_text()] {
        let c = certify_unsat(&f, &p, &Limits::default()).unwrap();
        assert!(c.lemmas > 0 && c.core_lemmas > 0 && c.core_lemmas <= c.lemmas);
        assert!(c.proof_bytes > 0);
        let expected = if p.to_string().contains("no-binary") {
            DratFormat::Text
        } else {
            DratFormat::Binary
        };
        assert_eq!(c.format, expected, "{p}");
    }
}

#[test]
fn the_unsat_corpus_is_certified() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cnf");
    let expected = std::fs::read_to_string(dir.join("EXPECTED")).unwrap();
    let mut n = 0;
    for line in expected.lines().filter(|l| l.ends_with(" UNSAT")) {
        let name = line.split_whitespace().next().unwrap();
        let f = read_cnf_file(&dir.join(name)).unwrap();
        for p in [Producer::Varisat, cadical(), cryptominisat()] {
            certify_unsat(&f, &p, &Limits::default())
                .unwrap_or_else(|e| panic!("{name} with {p}: {e}"));
        }
        n += 1;
    }
    assert_eq!(n, 9);
}

#[test]
fn a_satisfiable_formula_is_never_certified() {
    let f = pigeonhole(5, 5);
    for p in [Producer::Varisat, cadical()] {
        let e = certify_unsat(&f, &p, &Limits::default()).unwrap_err();
        assert!(matches!(e, CertifyError::Satisfiable { .. }), "{e}");
    }
}

#[test]
fn a_proof_of_another_formula_is_rejected() {
    // PHP(6,5) without one clause is satisfiable: no proof of PHP(6,5)
    // may refute it (a lemma that does not follow, or an empty clause
    // that does not)
    let f = pigeonhole(6, 5);
    for p in [Producer::Varisat, cadical(), cadical_text()] {
        let pr = proof(&f, &p);
        assert!(check(&f, &pr).is_ok());
        for i in [0, 3, 5, 6, f.len() - 1] {
            let g = without_clause(&f, i);
            assert!(check(&g, &pr).is_err(), "{p}: clause {i} removed");
        }
    }
}

#[test]
fn truncated_proofs_are_rejected() {
    let f = pigeonhole(6, 5);
    for p in [cadical(), cadical_text(), Producer::Varisat] {
        let pr = proof(&f, &p);
        // (the last byte of a text proof is a newline: cut two)
        for cut in [1, pr.len() / 3, pr.len() / 2, pr.len() - 2] {
            let e = check(&f, &pr[..cut]).unwrap_err();
            assert!(
                matches!(
                    e,
                    DratError::Malformed { .. } | DratError::NoEmptyClause { .. }
                ),
                "{p}, cut at {cut}: {e}"
            );
        }
    }
}

/// The text proof as lines, comments dropped.
fn lines(pr: &[u8]) -> Vec<String> {
    String::from_utf8(pr.to_vec())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_text_proof_without_its_empty_clause_is_rejected() {
    let f = pigeonhole(6, 5);
    let mut ls = lines(&proof(&f, &cadical_text()));
    assert_eq!(ls.last().map(|l| l.trim()), Some("0"));
    ls.pop();
    let cut = ls.join("\n") + "\n";
    assert!(matches!(
        check(&f, cut.as_bytes()),
        Err(DratError::NoEmptyClause { .. })
    ));
}

#[test]
fn a_wrong_deletion_is_rejected() {
    let f = pigeonhole(6, 5);
    let ls = lines(&proof(&f, &cadical_text()));
    // deleting a clause that is not there
    let bogus = format!("d 1 2 3 4 5 6 0\n{}\n", ls.join("\n"));
    assert!(matches!(
        check(&f, bogus.as_bytes()),
        Err(DratError::DeletesMissing { step: 1, .. })
    ));
    // deleting an original clause first: the rest refutes a satisfiable
    // formula, so it must fail somewhere
    for i in [0, 5, 6, f.len() - 1] {
        let c: Vec<String> = f
            .clause(i)
            .iter()
            .map(|l| l.to_ipasir().to_string())
            .collect();
        let early = format!("d {} 0\n{}\n", c.join(" "), ls.join("\n"));
        assert!(check(&f, early.as_bytes()).is_err(), "clause {i}");
    }
}

#[test]
fn a_missing_lemma_is_rejected() {
    // dropping the learnt clauses of the first half of the proof: the
    // second half does not follow from the formula alone
    let f = pigeonhole(6, 5);
    let ls = lines(&proof(&f, &cadical_text()));
    let half: Vec<&String> = ls
        .iter()
        .enumerate()
        .filter(|(i, l)| *i >= ls.len() / 2 || l.starts_with('d'))
        .map(|(_, l)| l)
        .collect();
    let text: String = half.iter().map(|l| format!("{l}\n")).collect();
    let e = check(&f, text.as_bytes()).unwrap_err();
    assert!(
        matches!(
            e,
            DratError::NotImplied { .. }
                | DratError::EmptyNotImplied { .. }
                | DratError::DeletesMissing { .. }
        ),
        "{e}"
    );
}

#[test]
fn cryptominisat_frat_proofs_are_checked() {
    let f = pigeonhole(6, 5);
    let c = certify_unsat(&f, &cryptominisat(), &Limits::default()).unwrap();
    assert_eq!(c.format, DratFormat::Frat);
    assert!(c.core_lemmas > 0);
    let pr = proof(&f, &cryptominisat());
    // another formula: PHP(6,5) without a clause is satisfiable
    for i in [0, 6, f.len() - 1] {
        assert!(check(&without_clause(&f, i), &pr).is_err(), "clause {i}");
    }
    // a missing lemma: the first half of the additions dropped
    let ls = lines(&pr);
    let adds: Vec<usize> = (0..ls.len()).filter(|&i| ls[i].starts_with("a ")).collect();
    let cut: String = ls
        .iter()
        .enumerate()
        .filter(|(i, _)| !adds[..adds.len() / 2].contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert!(check(&f, cut.as_bytes()).is_err());
}

fn formula(clauses: &[Vec<i32>]) -> Cnf {
    let mut f = Cnf::new();
    for c in clauses {
        let lits: Vec<Lit> = c.iter().map(|&x| Lit::from_ipasir(x).unwrap()).collect();
        f.add(&lits);
    }
    f
}

fn text_proof(steps: &[(bool, Vec<i32>)]) -> String {
    let mut s = String::new();
    for (del, lits) in steps {
        if *del {
            s.push_str("d ");
        }
        for l in lits {
            s.push_str(&format!("{l} "));
        }
        s.push_str("0\n");
    }
    s
}

fn lit(n: i32) -> impl Strategy<Value = i32> {
    (1..=n, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Soundness: whatever the proof, an accepted one refutes the formula
    /// (brute force over 6 variables; lemmas may use a 7th, fresh one).
    #[test]
    fn accepted_proofs_refute(
        clauses in prop::collection::vec(prop::collection::vec(lit(6), 1..4), 1..30),
        steps in prop::collection::vec((prop::bool::weighted(0.15), prop::collection::vec(lit(7), 0..4)), 0..12),
    ) {
        let f = formula(&clauses);
        let mut steps = steps;
        steps.push((false, vec![]));
        if check(&f, text_proof(&steps).as_bytes()).is_ok() {
            prop_assert!(!satisfiable(&f, 6));
        }
    }

    /// Completeness on real proofs: Varisat's proof of every unsatisfiable
    /// random formula is accepted.
    #[test]
    fn varisat_proofs_are_accepted(seed in 0u64..1000) {
        let f = random_ksat(12, 70, 3, seed);
        match produce_proof(&f, &Producer::Varisat, &Limits::default()) {
            Ok((pr, _)) => {
                prop_assert!(!satisfiable(&f, 12));
                prop_assert!(check(&f, &pr).is_ok(), "{:?}", check(&f, &pr));
            }
            Err(CertifyError::Satisfiable { .. }) => prop_assert!(satisfiable(&f, 12)),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}

/// A certificate honours the limits: the checker stops between lemmas and
/// Varisat's proof solve is abandoned, so a stopped certification is a
/// `Stopped` error the run reports as "certificate not finished", never a
/// hang or a claim called certified.
#[test]
fn a_certificate_stops_at_the_limits() {
    let f = pigeonhole(8, 7);
    let pr = proof(&f, &Producer::Varisat);
    assert!(check(&f, &pr).is_ok());
    match drat::check(&f, &pr, drat::detect_format(&pr), &|| true) {
        Err(DratError::Stopped) => {}
        other => panic!("a stopped check must say so, not {other:?}"),
    }
    let expired = Limits::default();
    expired
        .interrupt
        .store(true, std::sync::atomic::Ordering::Relaxed);
    for p in [Producer::Varisat, cadical()] {
        match certify_unsat(&f, &p, &expired) {
            Err(CertifyError::Stopped) => {}
            other => panic!("{p}: an interrupted certificate must say so, not {other:?}"),
        }
    }
}
