//! The goal search's optimum certified from the goal-space model
//! (src/puzzles/alien_tiles/goal_model.rs, goal_proof.rs): the hardest
//! goal logged and "a harder goal" refuted, checked by VeriPB; a claim one
//! click lower, a wrong symmetry and tampered files are refused.

use crate::common;

use puzzlesat::certify::veripb;
use puzzlesat::methods::goal_certify::{self, GoalClaim};
use puzzlesat::puzzles::alien_tiles::goal_model::GoalModel;
use puzzlesat::puzzles::alien_tiles::goal_proof::{write_cube_proof, write_proof, GoalProofSteps};
use puzzlesat::puzzles::alien_tiles::goals::GoalSearch;
use puzzlesat::puzzles::alien_tiles::reference;
use puzzlesat::solver::Limits;

/// The hardest goal by the goal search: its clicks and the goal.
fn hardest(n: usize, c: u32) -> (u32, Vec<usize>) {
    let s = GoalSearch::new(n, c, String::new()).unwrap();
    let (r, done) = s.search_cube(0, 1, &|| false, &mut |_| {});
    assert!(done);
    let goal = r.goal.expect("a hardest goal").concat();
    (
        r.hardest.expect("a hardest goal"),
        goal.into_iter().map(|x| x as usize).collect(),
    )
}

#[test]
fn the_goal_search_bound_is_certified_and_a_lower_claim_refused() {
    common::veripb();
    // 5×5/2 cuts with four rows open: the balanced tuples (c² of them, not
    // all c^(open−1))
    for (n, c, want) in [(3, 2, 3), (4, 3, 10), (5, 2, 8)] {
        let (v, goal) = hardest(n, c);
        assert_eq!(v, want, "{n}×{n}/{c}");
        if n == 3 {
            assert_eq!(reference::hardest(n, c).clicks, v, "brute force");
        }
        let dir = tempfile::tempdir().unwrap();
        let claim = GoalClaim::Hardest(goal.clone());
        let cert =
            goal_certify::certify(n, c, &claim, Some(dir.path()), "goals", &Limits::default())
                .unwrap_or_else(|e| panic!("{n}×{n}/{c}: {e}"));
        assert_eq!(
            cert.checked.verdict.trim(),
            format!("s VERIFIED BOUNDS -{v} <= obj <= -{v}"),
            "{n}×{n}/{c}"
        );
        // the lex-leader constraints of the n − 1 row swaps, the n − 1
        // column swaps and the transpose
        assert_eq!(cert.steps.dominance, 2 * n as u64 - 1, "{:?}", cert.steps);
        assert!(cert.steps.cuts > 0, "the residue cuts: {:?}", cert.steps);
        // a claim one lower: the writer finds the goal that breaks it
        let e = goal_certify::certify(
            n,
            c,
            &GoalClaim::Above(v - 1),
            None,
            "goals",
            &Limits::default(),
        )
        .unwrap_err();
        assert!(format!("{e}").contains(&format!("needs {v} clicks")), "{e}");
        // "no goal above v", and that proof against the model of v − 1:
        // refused by the checker
        let above = goal_certify::certify(
            n,
            c,
            &GoalClaim::Above(v),
            Some(dir.path()),
            "above",
            &Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{n}×{n}/{c}: {e}"));
        assert_eq!(above.checked.verdict.trim(), "s VERIFIED UNSATISFIABLE");
        let lower = GoalModel::new(n, c, Some(v - 1)).unwrap();
        let model = dir.path().join("lower.opb");
        let mut f = std::fs::File::create(&model).unwrap();
        lower.model.write_opb(&mut f).unwrap();
        let e = veripb::check(&model, &above.proof_path, &Limits::default()).unwrap_err();
        assert!(
            format!("{e}").contains("VeriPB rejected"),
            "{n}×{n}/{c}: {e}"
        );
        // and the writer's own proof, written again, has the same steps
        let mut buf = vec![];
        let steps = write_proof(
            &GoalModel::new(n, c, None).unwrap(),
            &mut buf,
            true,
            &|| false,
            Some(&goal),
        )
        .unwrap();
        assert_eq!(
            steps,
            GoalProofSteps {
                bytes: steps.bytes,
                ..cert.steps
            }
        );
    }
}

/// The proof's first dominance step with a permutation that is not a
/// symmetry (two cells of row 0 swapped, which the column clauses and the
/// bound constraints do not allow): VeriPB refuses it.
#[test]
fn a_wrong_symmetry_is_refused() {
    common::veripb();
    let dir = tempfile::tempdir().unwrap();
    let gm = GoalModel::new(3, 2, Some(3)).unwrap();
    let model = dir.path().join("m.opb");
    std::fs::write(&model, gm.model.to_opb()).unwrap();
    let mut buf = vec![];
    write_proof(&gm, &mut buf, true, &|| false, None).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let proof = dir.path().join("p.pbp");
    std::fs::write(&proof, &text).unwrap();
    assert!(veripb::check(&model, &proof, &Limits::default()).is_ok());
    // the row swap (rows 0 and 1) replaced by the swap of cells (0, 0) and
    // (0, 1): its constraint and witness
    let dom = text
        .lines()
        .find(|l| l.starts_with("@lex dom"))
        .expect("a dominance step");
    let wrong = "@lex dom +4 s[0][1]_ge1 -4 s[0][0]_ge1 >= 0 : s[0][0]_ge1 -> s[0][1]_ge1 s[0][1]_ge1 -> s[0][0]_ge1 : subproof proofgoal #2 pol -1 -2 +; qed : -1; qed;";
    assert!(dom.ends_with("qed;"), "{dom}");
    std::fs::write(&proof, text.replacen(dom, wrong, 1)).unwrap();
    let e = veripb::check(&model, &proof, &Limits::default()).unwrap_err();
    assert!(format!("{e}").contains("VeriPB rejected"), "{e}");
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
        out.contains("optimal: 10 (proven: no better solution, UNSAT, certified from the model: the maximising goal-space model: a goal that needs 10 clicks logged"),
        "{out}"
    );
    let kept: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(
        kept.len(),
        3,
        "the model, the proof and the claim's manifest"
    );
    // `verify` derives the maximising model again and states VeriPB's bounds
    let (code, out, err) = common::run_with_env(&["verify", d], &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("optimal: 10") && out.contains("proves BOUNDS -10 -10"),
        "{out}"
    );
    // the model tampered with (the decision model "more than 9" in its
    // place): refused
    let model = dir
        .path()
        .join("alien_tiles-n_4-c_3-hardest-method_goals-goals.opb");
    std::fs::write(
        &model,
        GoalModel::new(4, 3, Some(9)).unwrap().model.to_opb(),
    )
    .unwrap();
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

/// `opb --hardest --pb-model goals` writes the maximising model the
/// certificate's bounds are about, and with `--above B` the decision model.
#[test]
fn opb_writes_the_goal_space_models() {
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
    assert_eq!(text, GoalModel::new(3, 2, Some(3)).unwrap().model.to_opb());
    assert!(text.contains("needs more than 3 clicks") && !text.contains("min:"));
    std::fs::remove_file(&path).unwrap();
    let (code, _, err) = common::run_with_env(&[&args[..], &["-o", p]].concat(), &[]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, GoalModel::new(3, 2, None).unwrap().model.to_opb());
    assert!(text.contains("maximise z") && text.contains("min: -1 z0 -2 z1 -4 z2 -8 z3 ;"));
}

/// Without the cuts every doubly-lexical goal of 3×3/2 no larger than its
/// transpose is a leaf, closed by one bound constraint (the others by the
/// lex-leader constraints): checked, and refused against the model of one
/// click less.
#[test]
fn the_leaves_alone_are_checked() {
    common::veripb();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, above: u32| {
        let path = dir.path().join(name);
        let text = GoalModel::new(3, 2, Some(above)).unwrap().model.to_opb();
        std::fs::write(&path, text).unwrap();
        path
    };
    let (model, lower) = (write("g.opb", 3), write("low.opb", 2));
    let mut buf = vec![];
    let steps = write_proof(
        &GoalModel::new(3, 2, Some(3)).unwrap(),
        &mut buf,
        false,
        &|| false,
        None,
    )
    .unwrap();
    // the leaves are the goals the plain goal search visits: doubly
    // lexical, no larger than the transpose
    let plain = GoalSearch::without_bound(3, 2, String::new()).unwrap();
    let (r, _) = plain.search_cube(0, 1, &|| false, &mut |_| {});
    assert_eq!((steps.leaves, steps.cuts), (r.visited, 0), "{steps:?}");
    assert!(steps.pruned > 0, "{steps:?}");
    let proof = dir.path().join("g.pbp");
    std::fs::write(&proof, &buf).unwrap();
    let checked = veripb::check(&model, &proof, &Limits::default()).unwrap();
    assert!(checked.verdict.starts_with("s VERIFIED"));
    assert!(veripb::check(&lower, &proof, &Limits::default()).is_err());
}

/// One cube's proof: the clause "not (T and these cells)" derived and
/// checked (`e`), `conclusion NONE`; refused against the lower model. (The
/// cells (0, 1, 1) and T = 1 force row 0 to 0 1 1 2: doubly lexical so
/// far.)
#[test]
fn a_cube_s_clause_is_derived_and_checked() {
    common::veripb();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.opb");
    let lower = dir.path().join("low.opb");
    std::fs::write(
        &model,
        GoalModel::new(4, 3, Some(10)).unwrap().model.to_opb(),
    )
    .unwrap();
    std::fs::write(
        &lower,
        GoalModel::new(4, 3, Some(8)).unwrap().model.to_opb(),
    )
    .unwrap();
    let mut buf = vec![];
    let steps = write_cube_proof(
        &GoalModel::new(4, 3, Some(10)).unwrap(),
        &mut buf,
        1,
        &[0, 1, 1],
    )
    .unwrap();
    assert!(steps.cuts > 0 && steps.pruned == 0, "{steps:?}");
    let proof = dir.path().join("p.pbp");
    std::fs::write(&proof, &buf).unwrap();
    let checked = veripb::check(&model, &proof, &Limits::default()).unwrap();
    assert_eq!(checked.verdict, "s VERIFIED NO CONCLUSION");
    assert!(veripb::check(&lower, &proof, &Limits::default()).is_err());
}
