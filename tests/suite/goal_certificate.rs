//! The goal search's upper bound certified from the goal-space model
//! (src/puzzles/alien_tiles/goal_model.rs, goal_proof.rs): the proof that
//! no goal needs more than the hardest found is checked by VeriPB, and the
//! same proof against a model claiming one click less is refused.

use crate::common;

use puzzlesat::certify::veripb;
use puzzlesat::methods::goal_certify;
use puzzlesat::puzzles::alien_tiles::goal_model::GoalModel;
use puzzlesat::puzzles::alien_tiles::goal_proof::{write_cube_proof, write_proof, GoalProofSteps};
use puzzlesat::puzzles::alien_tiles::goals::GoalSearch;
use puzzlesat::puzzles::alien_tiles::reference;
use puzzlesat::solver::Limits;

/// The hardest goal's clicks by the goal search.
fn hardest(n: usize, c: u32) -> u32 {
    let s = GoalSearch::new(n, c, String::new()).unwrap();
    let (r, done) = s.search_cube(0, 1, &|| false, &mut |_| {});
    assert!(done);
    r.hardest.expect("a hardest goal")
}

#[test]
fn the_goal_search_bound_is_certified_and_a_lower_claim_refused() {
    common::veripb();
    for (n, c, want) in [(3, 2, 3), (4, 3, 10)] {
        let v = hardest(n, c);
        assert_eq!(v, want, "{n}×{n}/{c}");
        if n == 3 {
            assert_eq!(reference::hardest(n, c).clicks, v, "brute force");
        }
        let dir = tempfile::tempdir().unwrap();
        let cert = goal_certify::certify(n, c, v, Some(dir.path()), "goals", &Limits::default())
            .unwrap_or_else(|e| panic!("{n}×{n}/{c}: {e}"));
        assert!(
            cert.checked.verdict.starts_with("s VERIFIED"),
            "{n}×{n}/{c}"
        );
        assert!(
            cert.steps.leaves + cert.steps.cuts > 0,
            "{n}×{n}/{c}: {:?}",
            cert.steps
        );
        // a claim one lower: the writer finds the goal that breaks it
        let e = goal_certify::certify(n, c, v - 1, None, "goals", &Limits::default()).unwrap_err();
        assert!(format!("{e}").contains(&format!("needs {v} clicks")), "{e}");
        // the proof of v against the model of v − 1: refused by the checker
        let lower = GoalModel::new(n, c, v - 1).unwrap();
        let model = dir.path().join("lower.opb");
        let mut f = std::fs::File::create(&model).unwrap();
        lower.model.write_opb(&mut f).unwrap();
        let e = veripb::check(&model, &cert.proof_path, &Limits::default()).unwrap_err();
        assert!(
            format!("{e}").contains("VeriPB rejected"),
            "{n}×{n}/{c}: {e}"
        );
        // and the writer's own proof for v against a model of v is accepted
        let mut buf = vec![];
        let steps =
            write_proof(&GoalModel::new(n, c, v).unwrap(), &mut buf, true, &|| false).unwrap();
        assert_eq!(
            steps,
            GoalProofSteps {
                bytes: steps.bytes,
                ..cert.steps
            }
        );
    }
}

/// The command line: the search's optimum, certified from the goal-space
/// model, the model and proof kept; `--above` below the optimum finds it,
/// and `--above` at it certifies that none is harder.
#[test]
fn solve_method_goals_certify_keeps_a_checked_proof() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = [
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "3",
        "--hardest",
        "--method",
        "goals",
    ];
    let (code, out, err) =
        common::run_with_env(&[&args[..], &["--certify", "--proof-dir", d]].concat(), &[]);
    assert_eq!(code, Some(10), "{out}{err}");
    assert!(
        out.contains("optimal: 10 (proven: no better solution, UNSAT, certified from the model"),
        "{out}"
    );
    let kept: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(
        kept.len(),
        3,
        "the model, the proof and the claim's manifest"
    );
    // `verify` derives the model "more than 10" again and checks the proof
    let (code, out, err) = common::run_with_env(&["verify", d], &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("some reachable goal needs more than") && out.contains("refutes"),
        "{out}"
    );
    // the model tampered with (the bound lowered to "more than 9"): refused
    let model = dir
        .path()
        .join("alien_tiles-n_4-c_3-hardest-method_goals-goals.opb");
    std::fs::write(&model, GoalModel::new(4, 3, 9).unwrap().model.to_opb()).unwrap();
    let (code, out, err) = common::run_with_env(&["verify", d], &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("rejected"), "{err}");
    let (code, out, err) =
        common::run_with_env(&[&args[..], &["--above", "10", "--certify"]].concat(), &[]);
    assert_eq!(code, Some(20), "{out}{err}");
    assert!(out.contains("certified from the model"), "{out}");
    // c ∤ n − 1: refused before any search
    let (code, _, err) = common::run_with_env(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "2",
            "--hardest",
            "--method",
            "goals",
            "--certify",
        ],
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("needs c | n − 1"), "{err}");
    // 7×7/3: c^(2n−1) = 1,594,323 bound constraints, over the default
    // budget: refused before the search
    let (code, _, err) = common::run_with_env(
        &[
            "solve",
            "alien-tiles",
            "-n",
            "7",
            "-c",
            "3",
            "--hardest",
            "--method",
            "goals",
            "--above",
            "33",
            "--certify",
        ],
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("over the budget"), "{err}");
}

/// `opb --hardest --pb-model goals --above B` writes the model the
/// certificate refutes; it needs B, and `decode --model FILE` still parses.
#[test]
fn opb_writes_the_goal_space_model() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.opb");
    let p = path.to_str().unwrap();
    let args = [
        "opb",
        "alien-tiles",
        "-n",
        "3",
        "-c",
        "2",
        "--hardest",
        "--pb-model",
        "goals",
    ];
    let (code, _, err) =
        common::run_with_env(&[&args[..], &["--above", "3", "-o", p]].concat(), &[]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let want = GoalModel::new(3, 2, 3).unwrap().model.to_opb();
    assert_eq!(text, want);
    assert!(text.contains("needs more than 3 clicks"));
    let (code, _, err) = common::run_with_env(&args, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("give --above B"), "{err}");
}

/// Without the cuts every goal of 3×3/2 is a leaf, closed by one bound
/// constraint: checked, and refused against the model of one click less.
#[test]
fn the_leaves_alone_are_checked() {
    common::veripb();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, above: u32| {
        let path = dir.path().join(name);
        let text = GoalModel::new(3, 2, above).unwrap().model.to_opb();
        std::fs::write(&path, text).unwrap();
        path
    };
    let (model, lower) = (write("g.opb", 3), write("low.opb", 2));
    let mut buf = vec![];
    let steps = write_proof(&GoalModel::new(3, 2, 3).unwrap(), &mut buf, false, &|| {
        false
    })
    .unwrap();
    assert_eq!((steps.leaves, steps.cuts), (2 * 16, 0));
    let proof = dir.path().join("g.pbp");
    std::fs::write(&proof, &buf).unwrap();
    let checked = veripb::check(&model, &proof, &Limits::default()).unwrap();
    assert!(checked.verdict.starts_with("s VERIFIED"));
    assert!(veripb::check(&lower, &proof, &Limits::default()).is_err());
}

/// One cube's proof: the clause "not (T and these cells)" derived and
/// checked (`e`), `conclusion NONE`; refused against the lower model.
#[test]
fn a_cube_s_clause_is_derived_and_checked() {
    common::veripb();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.opb");
    let lower = dir.path().join("low.opb");
    std::fs::write(&model, GoalModel::new(4, 3, 10).unwrap().model.to_opb()).unwrap();
    std::fs::write(&lower, GoalModel::new(4, 3, 8).unwrap().model.to_opb()).unwrap();
    let mut buf = vec![];
    let steps =
        write_cube_proof(&GoalModel::new(4, 3, 10).unwrap(), &mut buf, 1, &[0, 1, 2]).unwrap();
    assert!(steps.cuts > 0, "{steps:?}");
    let proof = dir.path().join("p.pbp");
    std::fs::write(&proof, &buf).unwrap();
    let checked = veripb::check(&model, &proof, &Limits::default()).unwrap();
    assert_eq!(checked.verdict, "s VERIFIED NO CONCLUSION");
    assert!(veripb::check(&lower, &proof, &Limits::default()).is_err());
}
