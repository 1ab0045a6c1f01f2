//! `puzzlesat verify DIR` (docs/certify.md, "Claims a stranger can
//! check"): the claims a `--certify --proof-dir DIR` run keeps are
//! established again from the files alone (the model derived again from
//! the run's parameters, every proof checked by `veripb`), and refused
//! (exit 1, with the reason) after each tampering: a truncated proof, a
//! missing, added or duplicated solution, a dropped model constraint, a
//! changed value. For three counting families (queens, magic, rook tour),
//! an optimum and an infeasible instance.
//!
//! The checker is the one linked into puzzlesat (`puzzlesat veripb`).

use crate::common;

use std::path::{Path, PathBuf};

/// Solves `args` with `--certify --proof-dir` into a fresh folder; returns
/// it (kept alive by the TempDir) and the run's stdout.
fn kept(args: &[&str]) -> (tempfile::TempDir, PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kept");
    let mut all: Vec<&str> = vec!["solve"];
    all.extend_from_slice(args);
    let d = dir.to_str().unwrap();
    all.extend_from_slice(&["--certify", "--proof-dir", d]);
    let (code, out, err) = common::run(&all);
    assert!(matches!(code, Some(0 | 10 | 20)), "{args:?}: {err}");
    (tmp, dir, out)
}

/// `puzzlesat verify dir`: (exit code, stdout, stderr).
fn verify(dir: &Path) -> (i32, String, String) {
    let (code, out, err) = common::run(&["verify", dir.to_str().unwrap()]);
    (code.unwrap_or(-1), out, err)
}

/// The kind of a kept file: the first of these its name ends with.
fn kind(name: &str) -> Option<&'static str> {
    [
        ".excluded.opb",
        ".excluded.pbp",
        ".solutions.pbp",
        ".claim.toml",
        ".opb",
        ".pbp",
    ]
    .into_iter()
    .find(|k| name.ends_with(k))
}

/// The kept file of a kind (see [`kind`]).
fn file(dir: &Path, suffix: &str) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| kind(p.to_str().unwrap()) == Some(suffix))
        .collect();
    assert_eq!(found.len(), 1, "one file *{suffix} in {}", dir.display());
    found.pop().unwrap()
}

/// A kept file's kind and an edit of its lines.
type Edit<'a> = (&'a str, &'a dyn Fn(Vec<String>) -> Vec<String>);

/// A proof's lines without the five before its last three (`output`,
/// `conclusion`, `end`): the steps that reach the contradiction.
fn cut_before_contradiction(mut lines: Vec<String>) -> Vec<String> {
    let n = lines.len();
    lines.drain(n - 8..n - 3);
    lines
}

/// A copy of `dir` with the files named by suffix edited line by line;
/// asserts that `verify` refuses it with exit 1 and a reason containing
/// `reason`.
fn assert_refused(dir: &Path, what: &str, edits: &[Edit], reason: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("tampered");
    std::fs::create_dir(&copy).unwrap();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, copy.join(p.file_name().unwrap())).unwrap();
    }
    for (suffix, edit) in edits {
        let path = file(&copy, suffix);
        let lines: Vec<String> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let mut text = edit(lines).join("\n");
        text.push('\n');
        std::fs::write(&path, text).unwrap();
    }
    let (code, out, err) = verify(&copy);
    assert_eq!(code, 1, "{what}: verify must refuse it\n{out}{err}");
    assert!(
        err.starts_with("rejected: ") && err.contains(reason),
        "{what}: the reason names `{reason}`: {err}"
    );
}

/// Index of the first line starting with `prefix`.
fn first(lines: &[String], prefix: &str) -> usize {
    lines.iter().position(|l| l.starts_with(prefix)).unwrap()
}

/// The exclusion model's header count changed by `delta` (a forger who
/// keeps the file well formed).
fn recount(lines: &mut [String], delta: i64) {
    let (head, n) = lines[0].rsplit_once("#constraint= ").unwrap();
    let n: i64 = n.trim().parse().unwrap();
    lines[0] = format!("{head}#constraint= {}", n + delta);
}

/// Every tampering of a kept count is refused.
fn assert_count_tamperings_refused(dir: &Path) {
    let excluded = |lines: &Vec<String>| first(lines, "* the logged solutions") + 1;
    assert_refused(
        dir,
        "the refutation cut before its contradiction",
        &[(".excluded.pbp", &|mut l| {
            let n = l.len();
            l.drain(n - 13..n - 3);
            l
        })],
        "does not verify",
    );
    assert_refused(
        dir,
        "the solutions proof cut to its first solution",
        &[(".solutions.pbp", &|mut l| {
            let s = first(&l, "solx");
            let n = l.len();
            l.drain(s + 1..n - 3);
            l
        })],
        "is not the model plus exactly the 1 solutions",
    );
    assert_refused(
        dir,
        "a solution missing from both the log and the exclusion model",
        &[
            (".solutions.pbp", &|mut l| {
                l.remove(first(&l, "solx") + 1);
                l
            }),
            (".excluded.opb", &|mut l| {
                l.remove(excluded(&l) + 1);
                recount(&mut l, -1);
                l
            }),
        ],
        "does not verify",
    );
    assert_refused(
        dir,
        "a solution logged twice, and excluded twice",
        &[
            (".solutions.pbp", &|mut l| {
                let s = first(&l, "solx");
                let dup = l[s].clone();
                l.insert(s + 1, dup);
                l
            }),
            (".excluded.opb", &|mut l| {
                let s = excluded(&l);
                let dup = l[s].clone();
                l.insert(s + 1, dup);
                recount(&mut l, 1);
                l
            }),
        ],
        "solutions.pbp does not verify",
    );
    assert_refused(
        dir,
        "a model constraint dropped",
        &[(".opb", &|mut l| {
            let c = first(&l, "+");
            l.remove(c);
            recount(&mut l, -1);
            l
        })],
        "is not the model of",
    );
    assert_refused(
        dir,
        "a model constraint dropped from the exclusion model",
        &[(".excluded.opb", &|mut l| {
            let c = first(&l, "+");
            l.remove(c);
            recount(&mut l, -1);
            l
        })],
        "is not the model plus exactly",
    );
    assert_refused(
        dir,
        "the stated count changed",
        &[(".claim.toml", &|l| {
            l.into_iter()
                .map(|x| match x.strip_prefix("value = ") {
                    Some(v) => format!("value = {}", v.parse::<i64>().unwrap() + 1),
                    None => x,
                })
                .collect()
        })],
        "the run stated",
    );
}

/// The count is kept, `verify` states it, and every tampering is refused.
fn assert_count_round_trip(args: &[&str], n: u64) {
    let (_tmp, dir, out) = kept(args);
    assert!(out.contains(&format!("exactly {n} ")), "{out}");
    assert!(
        out.contains("which states the count"),
        "the summary says the checker states the count: {out}"
    );
    let (code, v, err) = verify(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(v.starts_with(&format!("exactly {n} solutions (")), "{v}");
    assert_count_tamperings_refused(&dir);
}

#[test]
fn queens_8_by_classes_is_stated_by_the_checker() {
    assert_count_round_trip(&["queens", "-n", "8", "--count"], 92);
}

#[test]
fn queens_8_without_classes_is_stated_by_the_checker() {
    assert_count_round_trip(&["queens", "-n", "8", "--count", "--no-classes"], 92);
}

#[test]
fn magic_3_by_classes_is_stated_by_the_checker() {
    assert_count_round_trip(&["magic", "-n", "3", "--all"], 8);
}

#[test]
fn rook_paths_4x4_by_classes_are_stated_by_the_checker() {
    assert_count_round_trip(
        &[
            "rook-tour",
            "--instance",
            "instances/rook-empty-4x4.toml",
            "--count",
        ],
        552,
    );
}

#[test]
fn an_optimum_is_the_checkers_bound_mapped_back() {
    // Alien Tiles 3×3/2: veripb proves BOUNDS −3 −3 on the negated objective
    let (_tmp, dir, out) = kept(&["alien-tiles", "-n", "3", "-c", "2", "--hardest"]);
    assert!(out.lines().any(|l| l.starts_with("optimal: 3 ")), "{out}");
    let (code, v, err) = verify(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(v.starts_with("optimal: 3 ("), "{v}");
    assert!(v.contains("BOUNDS -3 -3"), "{v}");
    assert_refused(
        &dir,
        "the stated optimum changed",
        &[(".claim.toml", &|l| {
            l.into_iter()
                .map(|x| {
                    if x.starts_with("value = ") {
                        "value = 4".into()
                    } else {
                        x
                    }
                })
                .collect()
        })],
        "the run stated 4",
    );
    assert_refused(
        &dir,
        "the proof cut before its contradiction",
        &[(".pbp", &cut_before_contradiction)],
        "does not verify",
    );
}

#[test]
fn an_infeasible_instance_is_refuted() {
    let (_tmp, dir, out) = kept(&["queens", "-n", "3"]);
    assert!(
        out.lines().any(|l| l.starts_with("no solution exists")),
        "{out}"
    );
    let (code, v, err) = verify(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        v.starts_with("no solution of the model \"N-queens, n = 3"),
        "{v}"
    );
}

#[test]
fn a_folder_without_claims_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = verify(tmp.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no claim to verify"), "{err}");
}

#[test]
fn alien_tiles_play_is_certified_from_the_model() {
    // a reachable goal, `--encoding linear`: the play model's equations
    // with quotients, so the optimum 4 is proven from the model (not DRAT)
    let goal = "instances/alien-tiles/4x4-3-goal.txt";
    let play = [
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "3",
        "--goal",
        goal,
        "--encoding",
        "linear",
    ];
    let (_tmp, dir, out) = kept(&play);
    assert!(
        out.lines()
            .any(|l| l.starts_with("optimal: 4 (") && l.contains("certified from the model")),
        "{out}"
    );
    let (code, v, err) = verify(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(v.starts_with("optimal: 4 ("), "{v}");
    assert_refused(
        &dir,
        "the proof cut before its contradiction",
        &[(".pbp", &cut_before_contradiction)],
        "does not verify",
    );
    assert_refused(
        &dir,
        "a cell's equation dropped",
        &[(".opb", &|mut l| {
            let c = first(&l, "+1 x[0][0]_ge1 +1 x[0][0]_ge2 +1 x[0][1]_ge1");
            l.remove(c);
            recount(&mut l, -1);
            l
        })],
        "is not the model of",
    );
    // the same proof against the model of another goal (cell (0, 0) one
    // colour on) is refused by the checker itself
    let tmp = tempfile::tempdir().unwrap();
    let (model, proof) = (file(&dir, ".opb"), file(&dir, ".pbp"));
    let text = std::fs::read_to_string(&model).unwrap();
    let line = text
        .lines()
        .find(|l| {
            l.starts_with("+1 x[0][0]_ge1 +1 x[0][0]_ge2 +1 x[0][1]_ge1") && l.ends_with(" ;")
        })
        .unwrap();
    let (lhs, rhs) = line.rsplit_once(" = ").unwrap();
    let d: i64 = rhs.trim_end_matches(" ;").parse().unwrap();
    let other = text.replace(line, &format!("{lhs} = {} ;", (d + 1) % 3));
    let other_model = tmp.path().join("other.opb");
    std::fs::write(&other_model, other).unwrap();
    let (code, _, _) = common::run(&[
        "veripb",
        other_model.to_str().unwrap(),
        proof.to_str().unwrap(),
    ]);
    assert_eq!(
        code,
        Some(1),
        "the proof of one goal refutes another's model"
    );
}
