//! `puzzlesat pb FILE.opb`: every model the families' `puzzlesat opb`
//! writes round-trips (the file solved as a PB model finds the family's
//! count or optimum), certified from the file where asked (these need
//! `veripb` on PATH: without it they fail, naming its install command),
//! and `dimacs --from FILE` plus an external answer decodes to a checked
//! assignment.

use crate::common;

use std::path::Path;

use common::run;

/// The first line of `puzzlesat args -q` (the claim), with its exit code.
fn claim(args: &[&str]) -> (Option<i32>, String) {
    let mut args = args.to_vec();
    args.push("-q");
    let (code, out, err) = run(&args);
    let line = out.lines().next().unwrap_or_default().to_string();
    assert!(!line.is_empty(), "{args:?}: no output; stderr {err}");
    (code, line)
}

/// `optimal: V` of a claim.
fn optimum(line: &str) -> i64 {
    let v = line.strip_prefix("optimal: ").expect(line);
    v.split(' ').next().unwrap().parse().expect(line)
}

/// The model of `family` written by `puzzlesat opb` into `dir`.
fn write_model(family: &[&str], dir: &Path) -> String {
    let path = dir.join("model.opb").display().to_string();
    let mut args = vec!["opb"];
    args.extend_from_slice(family);
    args.extend(["-o", &path]);
    let (code, _, err) = run(&args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    path
}

/// The OPB value of the family's objective value `v`: the file's `min:` is
/// the objective minus its constant, negated for a maximisation (the
/// header comment says which).
fn opb_value(model: &str, v: i64) -> i64 {
    let text = std::fs::read_to_string(model).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("* objective: "))
        .expect("an objective comment");
    let constant: i64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    if line.contains("maximise") {
        constant - v
    } else {
        v - constant
    }
}

/// `solve FAMILY` and `pb MODEL` agree: the count (`--count`, or the
/// UNSAT claim) of a satisfaction problem, the optimum of an optimisation.
fn round_trip(family: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(family, dir.path());
    let solve: Vec<&str> = [&["solve"][..], family].concat();
    let pb = ["pb", model.as_str()];
    let (c1, l1) = claim(&solve);
    let (c2, l2) = claim(&pb);
    assert_eq!(c1, c2, "{family:?}: {l1} | {l2}");
    if l1.starts_with("optimal: ") {
        assert_eq!(optimum(&l1).to_string(), expected, "{family:?}: {l1}");
        assert_eq!(
            optimum(&l2),
            opb_value(&model, optimum(&l1)),
            "{family:?}: {l2}"
        );
        return;
    }
    let (c1, l1) = claim(&[&solve[..], &["--count"]].concat());
    let (c2, l2) = claim(&[&pb[..], &["--count"]].concat());
    assert_eq!(c1, c2, "{family:?}: {l1} | {l2}");
    for l in [&l1, &l2] {
        assert!(
            l.starts_with(expected),
            "{family:?}: '{l}', expected '{expected}'"
        );
    }
}

#[test]
fn queens_round_trip() {
    round_trip(&["queens", "-n", "6"], "exactly 4 solutions");
    round_trip(&["queens", "-n", "3"], "no solution exists (proven: UNSAT)");
}

#[test]
fn magic_round_trips() {
    round_trip(&["magic", "-n", "3"], "exactly 8 solutions");
    round_trip(
        &["magic", "--given", "instances/magic/3x3-impossible.txt"],
        "no solution exists (proven: UNSAT)",
    );
}

#[test]
fn rook_tour_round_trips() {
    round_trip(
        &["rook-tour", "--instance", "instances/rook-empty-4x4.toml"],
        "exactly 552 solutions",
    );
    round_trip(
        &["rook-tour", "--instance", "instances/numbrix-6x6.toml"],
        "exactly 1 solution ",
    );
}

#[test]
fn alien_tiles_round_trips() {
    let goal = "instances/alien-tiles/4x4-3-goal.txt";
    round_trip(&["alien-tiles", "-n", "4", "-c", "3", "--goal", goal], "4");
    round_trip(&["alien-tiles", "-n", "3", "-c", "3", "--hardest"], "18");
}

#[test]
fn enigma_round_trips() {
    round_trip(&["enigma", "-n", "4", "--method", "board"], "40");
}

/// Every encoding choice finds the same optimum of a file with every
/// constraint shape (clause, at-most-one, cardinality, PB, equalities,
/// negative coefficients and `~x`), named as the PB competitions name
/// variables.
#[test]
fn every_encoding_finds_the_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shapes.opb");
    std::fs::write(
        &file,
        "* #variable= 6 #constraint= 6\nmin: +2 x1 +3 x2 -1 x3 +4 ~x4 +1 x6 ;\n\
         +1 x1 +1 x2 +1 x3 >= 2 ;\n+3 x1 +2 x2 +5 x4 +1 x5 >= 6 ;\n\
         +1 x2 +1 x3 +1 x4 +1 x5 <= 2 ;\n+1 x1 +1 ~x5 = 1 ;\n\
         +1 x3 +1 x4 +1 x6 <= 1 ;\n-2 x2 +3 x6 -1 ~x1 >= -2 ;\n",
    )
    .unwrap();
    let f = file.display().to_string();
    // brute force over the 64 assignments: the least objective
    let best = (0..64u32)
        .filter_map(|m| {
            let x = |i: u32| i64::from(m >> (i - 1) & 1);
            let ok = x(1) + x(2) + x(3) >= 2
                && 3 * x(1) + 2 * x(2) + 5 * x(4) + x(5) >= 6
                && x(2) + x(3) + x(4) + x(5) <= 2
                && x(1) + (1 - x(5)) == 1
                && x(3) + x(4) + x(6) <= 1
                && -2 * x(2) + 3 * x(6) - (1 - x(1)) >= -2;
            ok.then(|| 2 * x(1) + 3 * x(2) - x(3) + 4 * (1 - x(4)) + x(6))
        })
        .min()
        .unwrap();
    for extra in [
        &[][..],
        &[
            "--amo",
            "pairwise",
            "--card",
            "seq-counter",
            "--pb",
            "adder",
        ],
        &["--amo", "bitwise", "--card", "card-network", "--pb", "dpw"],
        &["--amo", "commander"],
    ] {
        let (code, line) = claim(&[&["pb", f.as_str()][..], extra].concat());
        assert_eq!(code, Some(10), "{extra:?}: {line}");
        assert_eq!(optimum(&line), best, "{extra:?}: {line}");
    }
}

/// The certified runs: the encoding derived from the file by redundance,
/// the search replayed, checked by `veripb`.
#[test]
fn certified_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let queens = write_model(&["queens", "-n", "6"], dir.path());
    let (code, line) = claim(&["pb", &queens, "--count", "--certify"]);
    assert_eq!(code, Some(10), "{line}");
    assert!(line.starts_with("exactly 4 solutions"), "{line}");
    assert!(
        line.contains("certified from the model: encoding and search, VeriPB"),
        "{line}"
    );
    // the competition's names x<N>, an objective with negative terms
    let file = dir.path().join("t.opb");
    std::fs::write(
        &file,
        "* #variable= 5 #constraint= 4\nmin: +2 x1 +3 x2 -1 x3 +4 ~x4 ;\n\
         +1 x1 +1 x2 +1 x3 >= 2 ;\n+3 x1 +2 x2 +5 x4 +1 x5 >= 6 ;\n\
         +1 x2 +1 x3 +1 x4 +1 x5 <= 2 ;\n+1 x1 +1 ~x5 = 1 ;\n",
    )
    .unwrap();
    let (code, line) = claim(&["pb", &file.display().to_string(), "--certify"]);
    assert_eq!(code, Some(10), "{line}");
    assert!(line.starts_with("optimal: 9 "), "{line}");
    assert!(line.contains("certified from the model"), "{line}");
}

/// A published instance that unit propagation refutes (the encoding's
/// units conflict): its infeasibility is certified from the file too.
#[test]
fn a_refutation_by_propagation_is_certified() {
    let (code, line) = claim(&["pb", "instances/pb/sync-2_3_0.opb", "--certify"]);
    assert_eq!(code, Some(20), "{line}");
    assert!(
        line.starts_with("no solution exists (proven: UNSAT, certified from the model"),
        "{line}"
    );
}

/// Published optimisation instances (the PB evaluation of 2005, terms
/// written `+25*x1`): the optimum certified from the file, and the same
/// optimum under every PB encoding of the weighted constraints.
#[test]
fn published_optima() {
    let (code, line) = claim(&["pb", "instances/pb/normalized-C17.opb", "--certify"]);
    assert_eq!(code, Some(10), "{line}");
    assert_eq!(optimum(&line), 260, "{line}");
    assert!(line.contains("certified from the model"), "{line}");
    for pb in ["gte", "adder", "dpw"] {
        let (code, line) = claim(&["pb", "instances/pb/normalized-circ4_3.opb", "--pb", pb]);
        assert_eq!(code, Some(10), "{pb}: {line}");
        assert_eq!(optimum(&line), 20, "{pb}: {line}");
    }
}

/// `dimacs --from FILE`, an answer from `puzzlesat sat`, `decode pb FILE`:
/// the assignment checked against every constraint.
#[test]
fn dimacs_from_and_decode() {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(&["queens", "-n", "5"], dir.path());
    let cnf = dir.path().join("q.cnf").display().to_string();
    let (code, _, err) = run(&["dimacs", "--from", &model, "-o", &cnf]);
    assert_eq!(code, Some(0), "{err}");
    let (code, answer, _) = run(&["sat", &cnf]);
    assert_eq!(code, Some(10));
    let out = dir.path().join("answer.txt");
    std::fs::write(&out, &answer).unwrap();
    let (code, text, err) = run(&[
        "decode",
        "pb",
        &model,
        "--model",
        &out.display().to_string(),
    ]);
    assert_eq!(code, Some(10), "{err}");
    assert!(text.contains("solution checked"), "{text}");
    assert_eq!(text.matches(" Q").count(), 5, "five queens: {text}");
    // an answer with a queen moved is refused
    let flipped = if answer.contains("v -1 ") {
        answer.replacen("v -1 ", "v 1 ", 1)
    } else {
        answer.replacen("v 1 ", "v -1 ", 1)
    };
    assert_ne!(flipped, answer);
    std::fs::write(&out, flipped).unwrap();
    let (code, _, err) = run(&[
        "decode",
        "pb",
        &model,
        "--model",
        &out.display().to_string(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("does not satisfy the formula"), "{err}");
}

/// The OPB file a run reads is its input: no output of `pb` or
/// `dimacs --from` may replace it (refused with exit 2, the file
/// unchanged), and proofs kept beside it leave it as it was.
#[test]
fn the_opb_file_read_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("F.opb");
    let text = std::fs::read("instances/pb/sync-3_5_2.opb").unwrap();
    std::fs::write(&file, &text).unwrap();
    let link = dir.path().join("L.opb");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let (f, l) = (file.display().to_string(), link.display().to_string());
    let d = dir.path().display().to_string();
    for args in [
        &["dimacs", "--from", &f, "-o", &f][..],
        &["dimacs", "--from", &l, "-o", &f],
        &["dimacs", "pb", &f, "-o", &l],
        &["pb", &f, "--svg", &f],
        &["pb", &f, "--certify", "--proof-dir", &f],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(std::fs::read(&file).unwrap(), text, "{args:?}");
    }
    // proofs kept in the file's folder: new files beside it, the input as it was
    let (code, line) = claim(&["pb", &f, "--certify", "--proof-dir", &d]);
    assert_eq!(code, Some(20), "{line}");
    assert_eq!(std::fs::read(&file).unwrap(), text);
    let kept: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "F.opb" && n != "L.opb")
        .collect();
    assert!(kept.iter().all(|n| n.starts_with("pb-")), "{kept:?}");
    assert!(kept.iter().any(|n| n.ends_with(".pbp")), "{kept:?}");
}

/// An experiment over a folder of OPB files (`instances = DIR`): each file
/// is run as `solve pb FILE` under every varied encoding, and every row
/// gives the file's verdict (one satisfiable, one infeasible instance).
#[test]
fn an_experiment_runs_a_folder_of_opb_files() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("opb");
    std::fs::create_dir(&folder).unwrap();
    for f in ["sync-2_4_6.opb", "sync-3_5_2.opb"] {
        std::fs::copy(format!("instances/pb/{f}"), folder.join(f)).unwrap();
    }
    let spec = dir.path().join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "puzzle = \"pb\"\ninstances = {:?}\ntimeout = 30\n[vary]\npb = [\"gte\", \"adder\", \"dpw\"]\ncard = [\"totalizer\", \"seq-counter\"]\n",
            folder.display().to_string()
        ),
    )
    .unwrap();
    let out = dir.path().join("results").display().to_string();
    let (code, text, err) = run(&[
        "experiment",
        &spec.display().to_string(),
        "--out",
        &out,
        "--no-plots",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("file=sync-2_4_6"), "{text}");
    let rows = std::fs::read_to_string(dir.path().join("results/rows.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = rows
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2 * 3 * 2);
    for r in &rows {
        let file = r["params"]["file"].as_str().unwrap();
        let expected = if file.ends_with("sync-2_4_6.opb") {
            "sat"
        } else {
            "unsat"
        };
        assert_eq!(r["status"], expected, "{r}");
        assert!(r["vars"].as_u64().is_some(), "{r}");
    }
}
