//! `--certify` end to end: certified UNSAT answers behind "optimal",
//! "infeasible" and "exactly N" (PHP(6,5), Enigma n = 6 board optimality,
//! Alien Tiles 4×4/3), a lying external solver caught, an external
//! solver's UNSAT without a proof reported as unchecked, and docs/usage.md's
//! proven small examples run with `--certify`.
//!
//! Needs `cadical` on PATH (`.ci/run` installs it) for the external-solver
//! tests: they fail with a message naming it if it is missing.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use puzzlesat::certify::{Claim, Producer};
use puzzlesat::experiment::row::RowStatus;
use puzzlesat::experiment::Row;
use puzzlesat::puzzles::alien_tiles::symmetry::Symmetry;
use puzzlesat::puzzles::alien_tiles::{AlienTiles, Task};
use puzzlesat::puzzles::enigma::Enigma;
use puzzlesat::run::{self, RunOptions, Status};

fn certified_opts() -> RunOptions {
    RunOptions {
        certify: Some(Producer::Varisat),
        ..Default::default()
    }
}

/// Runs the binary; returns (exit code, -1 if killed, stdout, stderr).
fn puzzlesat(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = common::run(args);
    (code.unwrap_or(-1), out, err)
}

fn need_cadical() {
    assert!(
        Command::new("cadical").arg("--version").output().is_ok(),
        "this test needs the `cadical` binary on PATH (apt-get install cadical)"
    );
}

/// An executable shell script `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn php_6_5_is_certified_infeasible() {
    let (code, out, err) = puzzlesat(&["sat", "tests/cnf/php-6-5.cnf", "--certify", "--json"]);
    assert_eq!(code, 20, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["status"], "unsat");
    let c = &v["certificates"][0];
    assert_eq!(c["claim"], "infeasible");
    assert_eq!(c["format"], "binary");
    assert_eq!(c["formula_clauses"], 81);
    assert!(c["proof_bytes"].as_u64().unwrap() > 0);
    assert!(c["core_lemmas"].as_u64().unwrap() > 0);
    assert_eq!(v["unchecked"], false);
    // text: the certificate line, then the competition status line
    let (code, out, _) = puzzlesat(&["sat", "tests/cnf/php-6-5.cnf", "--certify"]);
    assert_eq!(code, 20);
    assert!(
        out.contains("c certified (infeasible): binary DRAT proof by varisat"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("s UNSATISFIABLE"), "{out}");
    assert!(out.contains(", certify "), "{out}");
    let seconds = &v["seconds"];
    assert!(seconds["certify"].as_f64().unwrap() >= c["check_seconds"].as_f64().unwrap());
}

#[test]
fn enigma_6_board_optimum_is_certified() {
    let p = Enigma {
        n: 6,
        opts: Default::default(),
    };
    let r = run::run_quiet(&p, &certified_opts()).unwrap();
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(180)));
    let certs = r.certificates.unwrap();
    assert_eq!(certs.len(), 1);
    assert_eq!(certs[0].claim, Claim::Optimal);
    // the decision formula: the CNF plus the bound clauses and units
    assert!(certs[0].formula_clauses > r.clauses, "{certs:?}");
    assert!(certs[0].certificate.core_lemmas > 0);
    // the proof's time is its own phase: at least the proof solve and the
    // check, and the phases still sum to the total
    let (c, t) = (&certs[0].certificate, r.seconds);
    assert!(
        t.certify >= c.solve_seconds + c.check_seconds,
        "{t:?} {c:?}"
    );
    let phases = t.encode + t.load + t.bounds + t.solve + t.separate + t.decode_check;
    assert!(
        (phases + t.certify + t.other - t.total).abs() < 1e-9,
        "{t:?}"
    );
    // without --certify: no certificates, and not unchecked (embedded solver)
    let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
    assert!(r.certificates.is_none() && !r.unchecked);
}

#[test]
fn alien_tiles_4x4_3_optimum_and_count_are_certified() {
    let mut p = AlienTiles::new(4, 3, Task::Hardest).unwrap();
    p.symmetry = Symmetry::Full;
    let opts = RunOptions {
        all: true,
        ..certified_opts()
    };
    let r = run::run_quiet(&p, &opts).unwrap();
    assert_eq!(
        (r.status, r.objective, r.count),
        (Status::All, Some(10), Some(19))
    );
    let claims: Vec<Claim> = r.certificates.unwrap().iter().map(|c| c.claim).collect();
    assert_eq!(claims, [Claim::Optimal, Claim::Complete]);
}

#[test]
fn an_external_solver_is_asked_for_its_own_proof() {
    need_cadical();
    let (code, out, err) = puzzlesat(&[
        "solve",
        "enigma",
        "-n",
        "6",
        "--method",
        "board",
        "--solver",
        "external:cadical",
        "--certify",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 10, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["objective"].as_i64()),
        (Some("optimal"), Some(180))
    );
    assert_eq!(v["certificates"][0]["producer"], "external:cadical");
    assert_eq!(v["certificates"][0]["claim"], "optimal");
    assert_eq!(v["unchecked"], false);
}

#[test]
fn a_lying_external_solver_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // says UNSAT to every formula; writes no proof
    let liar = script(dir.path(), "liar", "echo 's UNSATISFIABLE'\nexit 20");
    // says UNSAT and writes a "proof" that is only the empty clause
    let forger = script(
        dir.path(),
        "forger",
        "echo 's UNSATISFIABLE'\n[ -n \"$2\" ] && echo 0 > \"$2\"\nexit 20",
    );
    for lie in [&liar, &forger] {
        let solver = format!("--solver=external:{}", lie.display());
        // a 3x3 magic square exists: the UNSAT answer is a lie
        let (code, out, err) = puzzlesat(&["solve", "magic", "-n", "3", &solver, "--certify"]);
        assert_eq!(code, 2, "{out}\n{err}");
        assert!(err.contains("could not be certified"), "{err}");
        assert!(
            !out.contains("proven") && !out.contains("certified"),
            "{out}"
        );
        // PHP(5,5) is satisfiable
        let (code, out, err) = puzzlesat(&["sat", "tests/cnf/php-5-5.cnf", &solver, "--certify"]);
        assert_eq!(code, 2, "{out}\n{err}");
        assert!(err.contains("could not be certified"), "{err}");
        assert!(!out.contains("s UNSATISFIABLE"), "{out}");
        // without --certify the lie gets through, but marked unchecked: by
        // the single CNF, and by the default staged method (its UNSAT
        // first stage claims nothing; it falls back to the single CNF)
        for method in ["auto", "encoding"] {
            let (code, out, _) =
                puzzlesat(&["solve", "magic", "-n", "3", "--method", method, &solver]);
            assert_eq!(code, 20, "{out}");
            assert!(out.contains("unsatisfiable (unchecked)"), "{out}");
            assert!(!out.contains("proven"), "{out}");
        }
        let (code, out, _) = puzzlesat(&["sat", "tests/cnf/php-5-5.cnf", &solver, "--json"]);
        assert_eq!(code, 20);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            (v["status"].as_str(), v["unchecked"].as_bool()),
            (Some("unsat"), Some(true))
        );
    }
}

#[test]
fn certify_with_the_reference_method_is_a_clear_error() {
    let (code, _, err) = puzzlesat(&[
        "solve",
        "enigma",
        "-n",
        "6",
        "--method",
        "reference",
        "--certify",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the reference method uses no SAT solver"),
        "{err}"
    );
    // the partitions method's optimum rests on one final UNSAT: certified
    let (code, out, err) = puzzlesat(&["solve", "enigma", "-n", "8", "--certify", "--json", "-q"]);
    assert_eq!(code, 10, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            v["objective"].as_i64(),
            v["certificates"][0]["claim"].as_str()
        ),
        (Some(544), Some("optimal"))
    );
    let (code, _, err) = puzzlesat(&[
        "sat",
        "tests/cnf/php-6-5.cnf",
        "--certify",
        "--proof-solver",
        "minisat",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown proof solver 'minisat'"), "{err}");
}

/// The proven examples for small sizes of docs/usage.md (each line appears
/// verbatim there), run with `--certify`: each claim is certified.
#[test]
fn the_usage_proven_examples_are_certified() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/usage.md"))
            .unwrap();
    let examples: &[(&str, &[&str])] = &[
        ("solve enigma -n 8", &["optimal"]),
        ("solve enigma -n 8 --method board", &["optimal"]),
        (
            "solve rook-tour --instance instances/rook-primes-8x8.toml --all",
            &["complete"],
        ),
        (
            "solve rook-tour --instance instances/rook-primes-8x8.toml --tour --all",
            &["complete"],
        ),
        (
            "solve rook-tour --instance instances/rook-empty-5x5.toml --all --symmetry lex-leader",
            &["complete"],
        ),
        ("solve magic -n 4 --all --symmetry order", &["complete"]),
        (
            "solve magic -n 4 --all --given instances/magic/4x4-four-givens.txt",
            &["complete"],
        ),
        (
            "solve alien-tiles -n 4 -c 3 --hardest --symmetry full --all",
            &["optimal", "complete"],
        ),
    ];
    for (cmd, claims) in examples {
        assert!(
            readme.contains(&format!("puzzlesat {cmd} ")),
            "docs/usage.md no longer shows `puzzlesat {cmd}`"
        );
        let mut args: Vec<&str> = cmd.split_whitespace().collect();
        args.extend(["--certify", "--json", "-q"]);
        let (code, out, err) = puzzlesat(&args);
        assert_eq!(code, 10, "{cmd}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim().lines().last().unwrap())
            .unwrap_or_else(|e| panic!("{cmd}: {e}: {out}"));
        let got: Vec<&str> = v["certificates"]
            .as_array()
            .unwrap_or_else(|| panic!("{cmd}: no certificates in {out}"))
            .iter()
            .map(|c| c["claim"].as_str().unwrap())
            .collect();
        assert_eq!(&got, claims, "{cmd}");
    }
}

/// `experiment --certify`: every worker runs with `--certify`, and each
/// row records its certificates (count, proof bytes, proof and check time).
#[test]
fn experiment_rows_record_their_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("res");
    let (code, _, err) = puzzlesat(&[
        "experiment",
        "--puzzle",
        "magic",
        "--sizes",
        "3",
        "--vary",
        "all=true,false",
        "--certify",
        "--timeout",
        "60",
        "--jobs",
        "1",
        "--no-plots",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out.join("rows.jsonl")).unwrap();
    let rows: Vec<Row> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r.params["certify"], "true");
        if r.params["all"] == "true" {
            // exactly 8 squares: the final UNSAT is certified
            assert_eq!((r.status, r.count), (RowStatus::All, Some(8)));
            assert_eq!(r.certificates, Some(1));
            assert!(r.proof_bytes.is_some_and(|b| b > 0));
            assert!(r.check_seconds.is_some() && r.proof_seconds.is_some());
        } else {
            // one square: no claim rests on UNSAT
            assert_eq!((r.status, r.certificates), (RowStatus::Sat, Some(0)));
        }
    }
    let csv = std::fs::read_to_string(out.join("rows.csv")).unwrap();
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .contains("certificates,proof_bytes,proof_seconds,check_seconds"));
}

/// `solve … --cubes K --certify --json`, its report parsed.
fn cubes_json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let (code, out, err) = puzzlesat(args);
    let v = serde_json::from_str(out.trim()).unwrap_or(serde_json::Value::Null);
    (code, v, err)
}

/// The cube indices of a report's certificates, each checked by the
/// DRAT checker.
fn certified_cubes(v: &serde_json::Value) -> Vec<u64> {
    certified_cubes_by(v, puzzlesat::certify::CHECKER)
}

/// The cube indices of a report's certificates, each checked by a checker
/// whose name starts with `checker`.
fn certified_cubes_by(v: &serde_json::Value, checker: &str) -> Vec<u64> {
    v["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["claim"], "optimal");
            let by = c["checker"].as_str().unwrap();
            assert!(by.starts_with(checker), "{by}");
            c["cube"].as_u64().unwrap()
        })
        .collect()
}

/// Certified cube-and-conquer (issue 22): one checked certificate per
/// closed cube and the cover check; a resumed run proves the records again
/// (re-derives each cube's formula, compares its digest, proves and checks
/// it), on two threads too.
#[test]
fn cubes_are_certified_one_by_one_and_records_proven_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e9.jsonl");
    let f = file.to_str().unwrap();
    let args = [
        "solve",
        "enigma",
        "-n",
        "9",
        "--method",
        "board",
        "--cubes",
        "8",
        "--certify",
        // the records' mechanics, on DRAT (a VeriPB proof from the model
        // per cube of n = 9 takes minutes)
        "--proof-format",
        "drat",
        "--cube-file",
        f,
    ];
    let with = |extra: &[&'static str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        a
    };
    let (code, v, err) = cubes_json(&with(&["--json"]));
    assert_eq!(code, 10, "{err}");
    assert_eq!(
        (v["status"].as_str(), v["objective"].as_i64()),
        (Some("optimal"), Some(753))
    );
    assert_eq!(certified_cubes(&v), (0..8).collect::<Vec<_>>());
    let cover = v["cubes"]["cover"].as_str().unwrap();
    assert!(
        cover.starts_with(
            "cover checked: the 8 cubes are the 8 sign patterns of 3 distinct variables"
        ),
        "{cover}"
    );
    assert_eq!(v["cubes"]["closed_now"], 8);
    // every closed cube's line carries its certificate
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let closed: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["cube"]["closed"] == true)
        .collect();
    assert_eq!(closed.len(), 8);
    for l in &closed {
        assert_eq!(l["certificates"][0]["cube"], l["cube"]["index"]);
    }
    // resumed, on two threads, as text: each record proven again
    let (code, out, err) = puzzlesat(&with(&["--jobs", "2"]));
    assert_eq!(code, 10, "{err}");
    assert!(
        out.contains("optimal: 753 (proven: no better solution, UNSAT, certified (0 closed in this run, 8 records of "),
        "{out}"
    );
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("c certified (optimal, cube "))
            .count(),
        8,
        "{out}"
    );
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("c cover checked: the 8 cubes"))
            .count(),
        1
    );
    assert!(out.contains("c not covered: the proofs refute the CNF as encoded, its symmetry-breaking and dominance clauses included"), "{out}");
    assert!(
        err.contains("8 skipped (closed in the file: 0 taken as written, 8 proven again)"),
        "{err}"
    );
    assert!(out.contains("; 0 SAT calls"), "{out}");
}

/// A record whose certificate is of another formula than its cube and
/// bound give is refused by a resumed `--certify` run.
#[test]
fn a_record_certificate_of_another_formula_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e7.jsonl");
    let f = file.to_str().unwrap();
    let args = [
        "solve",
        "enigma",
        "-n",
        "7",
        "--method",
        "board",
        "--cubes",
        "4",
        "--certify",
        // the records' mechanics, on DRAT (fast)
        "--proof-format",
        "drat",
        "-q",
        "--cube-file",
        f,
    ];
    let (code, out, err) = puzzlesat(&args);
    assert_eq!(code, 10, "{err}");
    assert!(
        out.starts_with("optimal: 275 (proven: no better solution, UNSAT, certified)"),
        "{out}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    // the digest is 16 hex digits: one more makes it another formula's
    let other = |refingerprint| -> String {
        text.lines()
            .map(|l| {
                common::edited_cube_line(l, refingerprint, |v| {
                    if let Some(c) = v["certificates"].get_mut(0) {
                        let d = c["formula_digest"].as_str().unwrap().to_string();
                        c["formula_digest"] = format!("f{d}").into();
                    }
                })
            })
            .collect()
    };
    // edited by hand: refused as it is read
    std::fs::write(&file, other(false)).unwrap();
    let (code, _, err) = puzzlesat(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not match its fingerprint"), "{err}");
    // with the fingerprints made to match: refused when proven again
    std::fs::write(&file, other(true)).unwrap();
    let (code, out, err) = puzzlesat(&args);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("carries the certificate of formula f"),
        "{err}"
    );
}

/// The cluster path with `--certify`: each `--cube I` job's line carries
/// its certificate; the full command on the collected lines either takes
/// them as written (and says they were certified when written) or, with
/// `--certify`, proves them again.
#[test]
fn cube_jobs_carry_their_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let p = |s: &str| dir.path().join(s).to_str().unwrap().to_string();
    let grid = [
        "experiment",
        "--puzzle",
        "enigma",
        "--sizes",
        "7",
        "--fixed",
        "method=board",
        "--fixed",
        "cubes=4",
        "--fixed",
        "certify=true",
        "--fixed",
        "proof-format=drat",
        "--vary",
        "cube=0,1,2,3",
        "--timeout",
        "120",
        "--out",
    ];
    let (lines, rows, file) = common::run_cube_jobs(dir.path(), &grid, 4);
    for line in &lines {
        assert!(line.contains("--certify"), "{line}");
    }
    let certified: Vec<Row> = rows
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        certified
            .iter()
            .filter(|r| r.certificates == Some(1))
            .count(),
        4
    );
    let cubes = p("cubes.jsonl");
    std::fs::write(&cubes, file).unwrap();
    let full = [
        "solve",
        "enigma",
        "-n",
        "7",
        "--method",
        "board",
        "--cubes",
        "4",
        "-q",
        "--cube-file",
        &cubes,
    ];
    let (code, out, err) = puzzlesat(&full);
    assert_eq!(code, 10, "{err}");
    assert!(
        out.starts_with(
            "optimal: 275 (not proven in this run: all 4 cubes closed by the records of "
        ) && out.contains("taken as written, not re-proved, certified when written"),
        "{out}"
    );
    let mut again = full.to_vec();
    again.extend(["--certify", "--proof-format", "drat", "--jobs", "2"]);
    let (code, out, err) = puzzlesat(&again);
    assert_eq!(code, 10, "{err}");
    assert!(out.starts_with("optimal: 275 (proven: no better solution, UNSAT, certified (0 closed in this run, 4 records of "), "{out}");
}

/// A puzzle that adds constraints lazily (Alien Tiles' minimality, the
/// default for `solve`): a cube's formula derived from the CNF alone has
/// models; the constraints they violate are added until it has none, and
/// the proof covers them.
#[test]
fn lazily_added_constraints_enter_the_cube_formulas() {
    // DRAT per cube, and VeriPB per cube (the default: after the symmetry
    // breaking's dominance steps, each cube's claim derived by contradiction)
    for (format, checker) in [("drat", puzzlesat::certify::CHECKER), ("veripb", "veripb")] {
        let (code, v, err) = cubes_json(&[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--method",
            "sat",
            "--cubes",
            "4",
            "--certify",
            "--proof-format",
            format,
            "--json",
        ]);
        assert_eq!(code, 10, "{format}: {err}");
        assert_eq!(v["objective"], 10);
        assert_eq!(certified_cubes_by(&v, checker), vec![0, 1, 2, 3]);
        assert!(v["cubes"]["cover"]
            .as_str()
            .unwrap()
            .starts_with("cover checked: the 4 cubes"));
    }
}

/// A cube's certificate stopped by the time limit ends the run with its
/// best so far, as a single run's does: the cubes counted so far, the
/// claim not certified (`certificate_stopped`), the answer's exit code;
/// never an error. Queens n = 13 in 2 cubes: the first cube counts in
/// about a second, its DRAT certificate takes minutes.
#[test]
fn a_cube_certificate_stops_at_the_limits() {
    let (code, out, err) = puzzlesat(&[
        "solve",
        "queens",
        "-n",
        "13",
        "--count",
        "--cubes",
        "2",
        "--no-classes",
        "--certify",
        "--proof-format",
        "drat",
        "--timeout",
        "10",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 10, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["certificate_stopped"], "timeout", "{out}");
    assert_eq!(v["stopped_by"], "timeout", "{out}");
    assert!(v["count"].as_u64().unwrap() > 0, "{out}");
}

/// A count by classes certified from the model is stated by the checker:
/// the 92 solutions of queens n = 8 (the 18 representatives' orbits) are
/// logged and the rest refuted, so nothing is left out but the model
/// (docs/certify.md). Where the run counts the model with its own symmetry
/// breaking (magic N = 3 with `--symmetry order`: 1 class, while the
/// orbits hold 8 squares), the proof covers the representatives and the
/// summary and the `c not covered:` line say that the expansion is
/// computed outside it.
#[test]
fn a_count_by_classes_says_what_the_checker_states() {
    let (code, out, err) = puzzlesat(&["solve", "queens", "-n", "8", "--all", "--certify"]);
    assert_eq!(code, 10, "{err}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("exactly 92 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(summary.contains("which states the count"), "{summary}");
    let cert = out.lines().find(|l| l.starts_with("c certified")).unwrap();
    assert!(cert.contains("92 solutions logged"), "{cert}");
    let line = out
        .lines()
        .find(|l| l.starts_with("c not covered:"))
        .unwrap();
    assert!(
        !line.contains("expansion") && !line.contains("solx"),
        "{line}"
    );

    let (code, out, err) = puzzlesat(&[
        "solve",
        "magic",
        "-n",
        "3",
        "--all",
        "--symmetry",
        "order",
        "--certify",
    ]);
    assert_eq!(code, 10, "{err}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("exactly 1 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        summary.contains("on the classes' representatives; their expansion into the classes is computed, not checked"),
        "{summary}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("c not covered:"))
        .unwrap();
    assert!(line.contains("after the 1 solx steps"), "{line}");
    assert!(
        line.contains("the expansion of the representatives into the 1 solutions of 1 class"),
        "{line}"
    );
}
