//! The symmetry breaking of the default and target runs, derived from each
//! family's PB model by VeriPB's dominance rule (`Puzzle::symmetry_proof`)
//! and checked by VeriPB 3.0.2 (bundled: `puzzlesat veripb`,
//! src/checker.rs). The proof here
//! is the model, the order's prelude and the symmetry block alone: each
//! derived clause is a checked `rup`/`red`, and the test asserts that every
//! symmetry-breaking clause of the CNF is among them. A permutation that is
//! not a symmetry of the model (the wrong-symmetry mutant) must be refused.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use puzzlesat::encodings::dominance::{LexOrder, SymmetryProof};
use puzzlesat::encodings::perm::{lex_leader, Perm};
use puzzlesat::encodings::{Cnf, Lit, PbModel};
use puzzlesat::puzzle::{encode, Puzzle};
use puzzlesat::puzzles::alien_tiles::symmetry::Symmetry;
use puzzlesat::puzzles::alien_tiles::{AlienTiles, Task};

use crate::common;

/// The proof's name of each CNF literal: the model's name for a named
/// primary literal, `x<N>` (DIMACS number) for the others.
fn namer(names: &[(String, Lit)]) -> impl Fn(Lit) -> String {
    let by_var: HashMap<u32, String> = names
        .iter()
        .map(|(s, l)| (l.var().idx32(), s.clone()))
        .collect();
    move |l: Lit| {
        let base = by_var
            .get(&l.var().idx32())
            .cloned()
            .unwrap_or_else(|| format!("x{}", l.var().idx32() + 1));
        if l.is_neg() {
            format!("~{base}")
        } else {
            base
        }
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "puzzlesat-veripb-sym-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `model.opb` and `proof.pbp` (prelude, block, no conclusion) to
/// `dir` and runs veripb: (verified, output).
fn check(
    dir: &Path,
    model: &PbModel,
    proof: &SymmetryProof,
    name: &dyn Fn(Lit) -> String,
) -> (bool, String) {
    std::fs::write(dir.join("model.opb"), model.to_opb()).unwrap();
    let mut lines = vec![
        "pseudo-Boolean proof version 3.0".to_string(),
        format!("f {};", model.loaded()),
    ];
    lines.extend(proof.prelude.iter().map(ToString::to_string));
    lines.extend(proof.block.lines.iter().map(ToString::to_string));
    // each derived clause has the id the block says (relative ids start
    // after the model's constraints: the prelude adds none)
    for (c, id) in &proof.block.derived {
        lines.push(format!(
            "e {} >= 1 : {};",
            terms(c, name),
            model.loaded() + id
        ));
    }
    lines.extend(
        [
            "output NONE;",
            "conclusion NONE;",
            "end pseudo-Boolean proof;",
        ]
        .map(String::from),
    );
    std::fs::write(dir.join("proof.pbp"), lines.join("\n") + "\n").unwrap();
    let out = common::veripb()
        .arg(dir.join("model.opb"))
        .arg(dir.join("proof.pbp"))
        .output()
        .expect("the VeriPB checker runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned()
        + String::from_utf8_lossy(&out.stderr).as_ref();
    (out.status.success() && text.contains("s VERIFIED"), text)
}

fn terms(c: &[Lit], name: &dyn Fn(Lit) -> String) -> String {
    c.iter()
        .map(|&l| format!("+1 {}", name(l)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Clauses of `with` that `without` lacks (as literal sets): what the
/// symmetry breaking added, its chain variables renumbered away.
fn added_clauses(with: &Cnf, without: &Cnf) -> usize {
    with.len() - without.len()
}

fn tiles(symmetry: Symmetry) -> AlienTiles {
    let mut t = AlienTiles::new(4, 3, Task::Hardest).unwrap();
    t.symmetry = symmetry;
    t
}

#[test]
fn alien_tiles_symmetry_is_derived_by_dominance() {
    for symmetry in [Symmetry::Full, Symmetry::DoubleLexTranspose] {
        let t = tiles(symmetry);
        let (cnf, enc, _) = encode(&t).unwrap();
        let model = t.pb_model().expect("a model");
        let name = namer(&enc.names);
        let proof = t
            .symmetry_proof(&enc.map, &name)
            .expect("symmetry clauses")
            .unwrap();
        // every clause the symmetry breaking added is derived
        let (plain, _, _) = encode(&tiles(Symmetry::None)).unwrap();
        let derived = proof.block.cnf_indices(cnf.clauses()).unwrap();
        assert_eq!(derived.len(), added_clauses(&cnf, &plain), "{symmetry}");
        let (ok, out) = check(&dir(&format!("tiles-{symmetry}")), &model, &proof, &name);
        assert!(ok, "{symmetry}: {}", &out[..out.len().min(3000)]);
    }
}

#[test]
fn a_wrong_symmetry_is_refused() {
    // swapping two cells of the board is not a symmetry of Alien Tiles:
    // its lex-leader constraint must not be derivable from the model
    let t = tiles(Symmetry::None);
    let (mut cnf, enc, _) = encode(&t).unwrap();
    let model = t.pb_model().unwrap();
    let name = namer(&enc.names);
    let k = 2; // order literals per cell (c = 3)
    let swap = Perm::from_cycles(16, &[&[0, 5]]).unwrap().lift_blocks(k);
    let posted = lex_leader(&mut cnf, &enc.primary, &[swap]);
    let proof = LexOrder::new("lex", &enc.primary)
        .proof(&posted, &name)
        .unwrap();
    let (ok, out) = check(&dir("tiles-wrong"), &model, &proof, &name);
    assert!(
        !ok,
        "veripb accepted a permutation that is not a symmetry:\n{out}"
    );
    // refused at the model's constraints the permutation does not preserve
    assert!(
        out.contains("could not be autoproven") && !out.contains("Proofgoal #"),
        "{out}"
    );
}

/// Magic squares' order constraints (`--symmetry order` and `diagonals`,
/// with and without `--complement`) over direct cells: the block alone
/// checks. Over order cells and digits (the default) the block also uses
/// the encoding's definitions (found by `ia`) and order clauses, so it is
/// checked end to end in `tests/suite/veripb.rs`; here it derives every clause
/// the breaking adds.
#[test]
fn magic_order_constraints_are_derived_by_dominance() {
    use puzzlesat::puzzles::magic::{CellEncoding, Magic, Options, SumEncoding, Symmetry};
    let cases = [
        (Symmetry::Order, false),
        (Symmetry::Order, true),
        (Symmetry::Diagonals, false),
        (Symmetry::Diagonals, true),
    ];
    for n in [3, 4, 5] {
        for (symmetry, complement) in cases {
            let options = |symmetry, cells| Options {
                cells,
                sum: SumEncoding::Adder,
                symmetry,
                complement: complement && symmetry != Symmetry::None,
                digit_counts: false,
                ..Options::default()
            };
            let what = format!("n = {n}, {symmetry}, complement {complement}");
            for cells in [
                CellEncoding::Direct,
                CellEncoding::Order,
                CellEncoding::Digits,
            ] {
                let p = Magic::new(n, options(symmetry, cells));
                let (cnf, enc, _) = encode(&p).unwrap();
                let name = namer(&enc.names);
                let proof = p
                    .symmetry_proof(&enc.map, &name)
                    .expect("order clauses")
                    .unwrap();
                let (plain, _, _) = encode(&Magic::new(n, options(Symmetry::None, cells))).unwrap();
                let derived = proof.block.cnf_indices(cnf.clauses()).unwrap();
                assert_eq!(
                    derived.len(),
                    added_clauses(&cnf, &plain),
                    "{what}, {cells}"
                );
                if cells == CellEncoding::Direct {
                    let model = p.pb_model().unwrap();
                    let (ok, out) = check(
                        &dir(&format!("magic{n}-{symmetry}-{complement}")),
                        &model,
                        &proof,
                        &name,
                    );
                    assert!(ok, "{what}: {}", &out[..out.len().min(3000)]);
                }
            }
        }
    }
    // lex-leader: refused
    let p = Magic::new(
        4,
        Options {
            symmetry: Symmetry::LexLeader,
            ..Options::default()
        },
    );
    let (_, enc, _) = encode(&p).unwrap();
    assert!(p
        .symmetry_proof(&enc.map, &namer(&enc.names))
        .unwrap()
        .is_err());
}

#[test]
fn queens_representatives_are_derived_by_dominance() {
    use puzzlesat::puzzles::queens::{Options, Queens, Symmetry};
    for symmetry in [Symmetry::FirstRow, Symmetry::LexLeader] {
        let mut q = Queens::new(8, Options::default());
        q.class_symmetry = symmetry;
        let p = q.class_representatives().unwrap();
        let (cnf, enc, _) = encode(&p).unwrap();
        let model = p.pb_model().unwrap();
        let name = namer(&enc.names);
        let proof = p
            .symmetry_proof(&enc.map, &name)
            .expect("symmetry clauses")
            .unwrap();
        let (plain, _, _) = encode(&q).unwrap();
        let derived = proof.block.cnf_indices(cnf.clauses()).unwrap();
        assert_eq!(derived.len(), added_clauses(&cnf, &plain), "{symmetry}");
        let (ok, out) = check(&dir(&format!("queens-{symmetry}")), &model, &proof, &name);
        assert!(ok, "{symmetry}: {}", &out[..out.len().min(3000)]);
    }
}

#[test]
fn rook_tour_symmetry_is_derived_by_dominance() {
    use puzzlesat::encodings::amo::AmoEncoding;
    use puzzlesat::puzzles::rook_tour::encode::{Connectivity, Encoding, Links, Options, Symmetry};
    use puzzlesat::puzzles::rook_tour::model::Instance;
    use puzzlesat::puzzles::rook_tour::RookTour;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/rook-empty-4x4.toml");
    let inst = Instance::from_file(&path).unwrap();
    for symmetry in [Symmetry::LexLeader, Symmetry::FirstRow] {
        let opts = |symmetry| Options {
            encoding: Encoding::Position,
            symmetry,
            amo: AmoEncoding::Ladder,
            links: Links::Both,
            connectivity: Connectivity::None,
        };
        let p = RookTour::new(inst.clone(), opts(symmetry));
        let (cnf, enc, _) = encode(&p).unwrap();
        let model = p.pb_model().unwrap();
        let name = namer(&enc.names);
        let proof = p
            .symmetry_proof(&enc.map, &name)
            .expect("symmetry clauses")
            .unwrap();
        let (plain, _, _) = encode(&RookTour::new(inst.clone(), opts(Symmetry::None))).unwrap();
        let derived = proof.block.cnf_indices(cnf.clauses()).unwrap();
        assert_eq!(
            derived.len(),
            added_clauses(&cnf, &plain),
            "{}",
            symmetry.name()
        );
        let (ok, out) = check(
            &dir(&format!("rook-{}", symmetry.name())),
            &model,
            &proof,
            &name,
        );
        assert!(ok, "{}: {}", symmetry.name(), &out[..out.len().min(3000)]);
    }
}
