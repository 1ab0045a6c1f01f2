//! The lex-leader clauses of `perm::lex_leader` and `lex::lex_le`, derived
//! from a PB model by VeriPB's dominance rule ([`dominance`]), checked by
//! VeriPB 3.0.2 (the `veripb` crate, run in the test's process); a
//! permutation that is not a symmetry of the model must be refused.

use std::path::Path;

use puzzlesat_encodings::dominance::{LexOrder, ProofLines};
use puzzlesat_encodings::lex::lex_le;
use puzzlesat_encodings::perm::{closure, lex_leader, Perm};
use puzzlesat_encodings::{ClauseDatabase, Cnf, Lit, PbModel};

/// An n×n 0/1 matrix with exactly one 1 per row and at most one per column:
/// the row and column permutations are its symmetries.
fn model(n: usize) -> (PbModel, Cnf, Vec<Lit>) {
    let mut m = PbModel::new();
    let mut cnf = Cnf::new();
    let cells: Vec<Lit> = cnf.fresh_lits(n * n);
    let v: Vec<_> = (0..n * n)
        .map(|p| m.var(&format!("c{}_{}", p / n, p % n)).pos())
        .collect();
    for r in 0..n {
        m.exactly(&v[r * n..(r + 1) * n], 1, None);
    }
    for c in 0..n {
        let col: Vec<_> = (0..n).map(|r| v[r * n + c]).collect();
        m.at_most(&col, 1, None);
    }
    (m, cnf, cells)
}

fn name(n: usize) -> impl Fn(Lit) -> String {
    move |l: Lit| {
        let i = l.var().idx();
        let base = if i < n * n {
            format!("c{}_{}", i / n, i % n)
        } else {
            format!("x{}", i + 1)
        };
        if l.is_neg() {
            format!("~{base}")
        } else {
            base
        }
    }
}

fn cell_perm(n: usize, f: impl Fn(usize, usize) -> (usize, usize)) -> Perm {
    Perm::from_images(
        (0..n * n)
            .map(|p| {
                let (r, c) = f(p / n, p % n);
                (r * n + c) as u32
            })
            .collect(),
    )
    .unwrap()
}

/// Writes model and proof to `dir`, runs veripb, returns (passed, output).
fn check(
    dir: &Path,
    m: &PbModel,
    prelude: &[puzzlesat_encodings::proof::Step],
    block: &ProofLines,
    cnf: &Cnf,
) -> (bool, String) {
    std::fs::write(dir.join("m.opb"), m.to_opb()).unwrap();
    let mut proof = vec![
        "pseudo-Boolean proof version 3.0".to_string(),
        format!("f {};", m.loaded()),
    ];
    proof.extend(prelude.iter().map(ToString::to_string));
    proof.extend(block.lines.iter().map(ToString::to_string));
    let nm = name(3);
    // each derived clause has the id the block says (relative ids start
    // after the model's constraints: the prelude adds none)
    for (c, id) in &block.derived {
        let terms: Vec<String> = c.iter().map(|&l| format!("+1 {}", nm(l))).collect();
        proof.push(format!("e {} >= 1 : {};", terms.join(" "), m.loaded() + id));
    }
    // every CNF clause is now in the database
    for c in cnf.clauses() {
        let terms: Vec<String> = c.iter().map(|&l| format!("+1 {}", nm(l))).collect();
        proof.push(format!("ia {} >= 1;", terms.join(" ")));
    }
    proof.extend([
        "output NONE;".to_string(),
        "conclusion NONE;".into(),
        "end pseudo-Boolean proof;".into(),
    ]);
    std::fs::write(dir.join("p.pbp"), proof.join("\n") + "\n").unwrap();
    let checked = veripb::run_checker(veripb::args::Args {
        formula: dir.join("m.opb"),
        derivation: dir.join("p.pbp"),
        show_warnings: false,
        ..Default::default()
    });
    match checked {
        Ok(()) => (true, "verified".into()),
        Err(e) => (false, format!("{e:?}")),
    }
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("puzzlesat-dominance-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn lex_leader_of_the_whole_group_is_derived_by_dominance() {
    let n = 3;
    let (m, mut cnf, cells) = model(n);
    let gens = [
        cell_perm(n, |r, c| ((r + 1) % n, c)),
        cell_perm(n, |r, c| (if r < 2 { 1 - r } else { r }, c)),
        cell_perm(n, |r, c| (r, (c + 1) % n)),
        cell_perm(n, |r, c| (r, if c < 2 { 1 - c } else { c })),
    ];
    let group = closure(&gens, 100).unwrap();
    assert_eq!(group.len(), 36);
    let posted = lex_leader(&mut cnf, &cells, &group);
    let order = LexOrder::new("lex", &cells);
    let nm = name(n);
    let mut block = ProofLines::default();
    for (sigma, chain) in &posted {
        order.derive(sigma, chain, &nm, &mut block).unwrap();
    }
    assert_eq!(
        block.derived.len(),
        cnf.len(),
        "every posted clause is derived"
    );
    let indices = block.cnf_indices(cnf.clauses()).unwrap();
    assert_eq!(indices.len(), cnf.len());
    let (ok, out) = check(&tmp("group"), &m, &order.prelude(&nm), &block, &cnf);
    assert!(ok, "{out}");
}

#[test]
fn double_lex_is_derived_by_dominance() {
    // rows and columns non-decreasing (lex_le between neighbours): the
    // lex-leader constraints of the adjacent swaps, after the reduction
    let n = 3;
    let (m, mut cnf, cells) = model(n);
    let order = LexOrder::new("lex", &cells);
    let nm = name(n);
    let mut block = ProofLines::default();
    for i in 0..n - 1 {
        let row = |r: usize| cells[r * n..(r + 1) * n].to_vec();
        let chain = lex_le(&mut cnf, &row(i), &row(i + 1));
        let swap = cell_perm(n, |r, c| {
            (
                if r == i {
                    i + 1
                } else if r == i + 1 {
                    i
                } else {
                    r
                },
                c,
            )
        });
        order.derive(&swap, &chain, &nm, &mut block).unwrap();
        let col = |c: usize| (0..n).map(|r| cells[r * n + c]).collect::<Vec<_>>();
        let chain = lex_le(&mut cnf, &col(i), &col(i + 1));
        let swap = cell_perm(n, |r, c| {
            (
                r,
                if c == i {
                    i + 1
                } else if c == i + 1 {
                    i
                } else {
                    c
                },
            )
        });
        order.derive(&swap, &chain, &nm, &mut block).unwrap();
    }
    assert_eq!(block.derived.len(), cnf.len());
    let (ok, out) = check(&tmp("doublelex"), &m, &order.prelude(&nm), &block, &cnf);
    assert!(ok, "{out}");
}

#[test]
fn a_permutation_that_is_not_a_symmetry_is_refused() {
    // swapping two cells of one row with two cells of different rows is no
    // symmetry of "one 1 per row": the dominance step must fail
    let n = 3;
    let (m, mut cnf, cells) = model(n);
    let wrong = Perm::from_cycles(n * n, &[&[1, 3]]).unwrap();
    let posted = lex_leader(&mut cnf, &cells, &[wrong]);
    let order = LexOrder::new("lex", &cells);
    let nm = name(n);
    let mut block = ProofLines::default();
    for (sigma, chain) in &posted {
        order.derive(sigma, chain, &nm, &mut block).unwrap();
    }
    let (ok, out) = check(&tmp("wrong"), &m, &order.prelude(&nm), &block, &cnf);
    assert!(!ok, "veripb accepted a non-symmetry:\n{out}");
    // refused for a constraint of the model σ does not preserve (a numbered
    // goal), not for the order's goals (#1, #2)
    assert!(out.contains("could not be autoproven"), "{out}");
    assert!(!out.contains("Proofgoal #"), "{out}");
}
