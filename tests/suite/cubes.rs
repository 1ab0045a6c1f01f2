//! `solve --cubes`: optimising cube by cube gives the optima of the plain
//! search, a killed or timed-out run resumes from its cube file (skipping
//! the cubes it closed), a file of another run is refused, and the cubes
//! run as emitted experiment jobs and collected give the same answer.

use crate::common;

use common::output as puzzlesat;
use std::path::Path;
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// (status, objective) of a `--json` report.
fn answer(o: &Output) -> (String, Option<i64>) {
    let out = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {out}\nstderr: {}", stderr(o)));
    (
        v["status"].as_str().unwrap().to_string(),
        v["objective"].as_i64(),
    )
}

/// (closed now, skipped) from the closing `c cubes:` line.
fn cube_counts(o: &Output) -> (usize, usize) {
    let err = stderr(o);
    let line = err
        .lines()
        .find(|l| l.contains(" closed now, "))
        .unwrap_or_else(|| panic!("no cube count line in:\n{err}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[2].parse().unwrap(), words[5].parse().unwrap())
}

/// The report lines of a cube file whose cube was closed.
fn closed_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["cube"]["closed"].as_bool().unwrap()
        })
        .map(String::from)
        .collect()
}

#[test]
fn cubes_give_the_optima_of_the_plain_search() {
    let tiles = [("4", "3", 10), ("3", "4", 15), ("4", "6", 36)];
    for (n, c, optimum) in tiles {
        for extra in [&["--cubes", "4"][..], &["--cubes", "8", "--jobs", "2"]] {
            let mut args = vec![
                "solve",
                "alien-tiles",
                "-n",
                n,
                "-c",
                c,
                "--hardest",
                "--json",
            ];
            args.extend_from_slice(extra);
            let o = puzzlesat(&args);
            assert_eq!(
                answer(&o),
                ("optimal".to_string(), Some(optimum)),
                "{args:?}"
            );
        }
    }
    for (n, optimum) in [("5", 55), ("6", 180), ("7", 275), ("8", 544)] {
        let o = puzzlesat(&[
            "solve", "enigma", "-n", n, "--method", "board", "--json", "--cubes", "8", "--jobs",
            "2",
        ]);
        assert_eq!(answer(&o), ("optimal".to_string(), Some(optimum)), "n={n}");
    }
}

#[test]
fn a_killed_run_resumes_and_skips_the_cubes_it_closed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cubes.jsonl");
    let f = file.to_str().unwrap();
    let run = |f: &str| {
        puzzlesat(&[
            "solve",
            "enigma",
            "-n",
            "8",
            "--method",
            "board",
            "--json",
            "--cubes",
            "8",
            "--cube-file",
            f,
        ])
    };
    let o = run(f);
    assert_eq!(answer(&o), ("optimal".to_string(), Some(544)));
    assert_eq!(cube_counts(&o), (8, 0));
    // killed after three cubes closed, in the middle of writing a line
    let text = std::fs::read_to_string(&file).unwrap();
    let mut kept = String::new();
    let mut closed = 0;
    for line in text.lines() {
        kept += line;
        kept += "\n";
        closed += usize::from(line.contains("\"closed\":true"));
        if closed == 3 {
            break;
        }
    }
    let torn = dir.path().join("torn.jsonl");
    // a record of this run's kind cut short by a kill (a line of any other
    // kind is refused: tests/suite/part_claims.rs)
    let head = format!(
        "{{\"schema_version\":{},\"puz",
        ::puzzlesat::report::SCHEMA_VERSION
    );
    std::fs::write(&torn, format!("{kept}{head}")).unwrap();
    let o = run(torn.to_str().unwrap());
    assert_eq!(answer(&o), ("optimal".to_string(), Some(544)));
    assert_eq!(cube_counts(&o), (5, 3), "{}", stderr(&o));
    // the torn line was cut off before appending: every line reads back
    assert_eq!(closed_lines(&torn).len(), 8);
    // a third run solves nothing
    let o = run(torn.to_str().unwrap());
    assert_eq!(answer(&o), ("optimal".to_string(), Some(544)));
    assert_eq!(cube_counts(&o), (0, 8));
}

#[test]
fn a_timed_out_run_resumes_to_the_same_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cubes.jsonl");
    let f = file.to_str().unwrap();
    let args = [
        "solve",
        "enigma",
        "-n",
        "9",
        "--method",
        "board",
        "--json",
        "--cubes",
        "8",
        "--jobs",
        "2",
        "--cube-file",
        f,
    ];
    let mut first = args.to_vec();
    first.extend(["--timeout", "0.5"]);
    let o = puzzlesat(&first);
    // usually stopped by the limit (then not optimal); whatever it closed is skipped
    let (status, _) = answer(&o);
    assert!(
        ["optimal", "sat", "unknown"].contains(&status.as_str()),
        "{status}"
    );
    assert_ne!(
        status, "optimal",
        "n = 9 is not proven in 1 s: nothing interrupted"
    );
    let closed_first = closed_lines(&file).len();
    let o = puzzlesat(&args);
    assert_eq!(answer(&o), ("optimal".to_string(), Some(753)));
    // every cube closed in the file is skipped; so is an open cube whose
    // proven bound the file's best witness already reaches
    let (now, skipped) = cube_counts(&o);
    assert_eq!(now + skipped, 8, "{}", stderr(&o));
    assert!(skipped >= closed_first, "{}", stderr(&o));
}

#[test]
fn a_cube_file_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cubes.jsonl");
    let f = file.to_str().unwrap();
    let tiles = |c: &str, cubes: &str| {
        puzzlesat(&[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            c,
            "--hardest",
            "-q",
            "--cubes",
            cubes,
            "--cube-file",
            f,
        ])
    };
    assert_eq!(tiles("3", "4").status.code(), Some(10));
    for (c, cubes) in [("4", "4"), ("3", "8")] {
        let o = tiles(c, cubes);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains("line 1: a cube of another run")
                && err.lines().filter(|l| !l.starts_with("c ")).count() == 1,
            "{err}"
        );
    }
    std::fs::write(&file, "not json\n").unwrap();
    let err = stderr(&tiles("3", "4"));
    assert!(err.contains("line 1: not a cube report"), "{err}");
    // what --cubes does not split
    for args in [
        &[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--all",
            "--cubes",
            "4",
        ][..],
        &["solve", "enigma", "-n", "5", "--cubes", "4"],
        &["solve", "queens", "-n", "6", "--cubes", "4"],
        &[
            "solve", "enigma", "-n", "5", "--method", "board", "--jobs", "2",
        ],
    ] {
        let o = puzzlesat(args);
        let err = stderr(&o);
        assert!(
            o.status.code() == Some(2)
                && err.lines().any(|l| l.starts_with("error: "))
                && err.contains("--cubes"),
            "{args:?}: {err}"
        );
    }
}

/// The cluster form: one `--cube I` job per cube, emitted and collected as
/// experiment rows; the jobs' outputs together are a cube file the full
/// command reads, solving nothing.
#[test]
fn cubes_emitted_as_jobs_and_collected_give_the_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let p = |s: &str| dir.path().join(s).to_str().unwrap().to_string();
    let grid = [
        "experiment",
        "--puzzle",
        "alien-tiles",
        "--sizes",
        "4",
        "--fixed",
        "colours=6",
        "--fixed",
        "hardest=true",
        "--fixed",
        "cubes=4",
        "--vary",
        "cube=0,1,2,3",
        "--timeout",
        "120",
        "--out",
    ];
    let (_, _, file) = common::run_cube_jobs(dir.path(), &grid, 4);
    let cubes = p("cubes.jsonl");
    std::fs::write(&cubes, file).unwrap();
    let o = puzzlesat(&[
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "6",
        "--hardest",
        "--json",
        "--cubes",
        "4",
        "--cube-file",
        &cubes,
    ]);
    assert_eq!(answer(&o), ("optimal".to_string(), Some(36)));
    assert_eq!(cube_counts(&o), (0, 4));
}

/// The run of issue 22: Enigma n = 7 on 4 cubes, written to `file`;
/// `extra` arguments appended.
fn enigma7(file: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "solve",
        "enigma",
        "-n",
        "7",
        "--method",
        "board",
        "--cubes",
        "4",
        "--cube-file",
        file,
    ];
    args.extend_from_slice(extra);
    puzzlesat(&args)
}

/// The forgery of issue 22: the first three lines of a real file (the
/// third holds a witness of 263), then four lines claiming that every cube
/// is closed at bound 263 (the optimum is 275).
fn forged(real: &str, refingerprint: bool) -> String {
    let mut text: String = real.lines().take(3).map(|l| format!("{l}\n")).collect();
    for k in 0..4 {
        text += &common::edited_cube_line(real.lines().next().unwrap(), refingerprint, |v| {
            v["cube"]["index"] = k.into();
            v["cube"]["closed"] = true.into();
            v["cube"]["witness"] = serde_json::Value::Null;
            v["objective"] = serde_json::Value::Null;
            v["solutions"] = serde_json::json!([]);
            v["bound"] = 263.into();
        });
    }
    text
}

#[test]
fn a_forged_cube_file_never_yields_an_unqualified_proof() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.jsonl");
    let o = enigma7(real.to_str().unwrap(), &["-q"]);
    assert_eq!(o.status.code(), Some(10));
    let real = std::fs::read_to_string(&real).unwrap();
    assert!(real
        .lines()
        .take(3)
        .any(|l| l.contains("\"objective\":263")));
    let f = dir.path().join("f.jsonl");
    let fs = f.to_str().unwrap();
    // edited by hand: the lines no longer match their fingerprints
    std::fs::write(&f, forged(&real, false)).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 4: the record of cube 0 does not match its fingerprint"),
        "{}",
        stderr(&o)
    );
    // forged with the fingerprints recomputed: the claim says it rests on
    // the file alone, and never "proven" or "UNSAT"
    std::fs::write(&f, forged(&real, true)).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(10));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(
            "optimal: 263 (not proven in this run: all 4 cubes closed by the records of "
        ) && out.contains("taken as written, not re-proved")
            && !out.contains("proven:")
            && !out.contains("UNSAT"),
        "{out}"
    );
    let o = enigma7(fs, &["--json"]);
    assert_eq!(cube_counts(&o), (0, 4));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let t = &v["cubes"];
    assert_eq!(
        (
            t["closed_now"].as_u64(),
            t["from_file"].as_u64(),
            t["rechecked"].as_u64()
        ),
        (Some(0), Some(4), Some(0)),
        "{t}"
    );
    assert!(t["written_by"][0]
        .as_str()
        .unwrap()
        .starts_with("puzzlesat "));
    // with --certify the records are proven again: the forgery is caught
    let o = enigma7(fs, &["-q", "--certify"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is wrong: the cube has a model of value"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn records_that_contradict_each_other_or_another_build_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.jsonl");
    assert_eq!(
        enigma7(real.to_str().unwrap(), &["-q"]).status.code(),
        Some(10)
    );
    let real = std::fs::read_to_string(&real).unwrap();
    let f = dir.path().join("f.jsonl");
    let fs = f.to_str().unwrap();
    // the real file, and a record that bounds the cube of its 275 by 263
    let witness_275 = real
        .lines()
        .find(|l| l.contains("\"objective\":275") && l.contains("\"bound\":null"))
        .unwrap();
    let low = common::edited_cube_line(witness_275, true, |v| {
        v["bound"] = 263.into();
        v["objective"] = serde_json::Value::Null;
        v["cube"]["witness"] = serde_json::Value::Null;
        v["solutions"] = serde_json::json!([]);
    });
    std::fs::write(&f, format!("{real}{low}")).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the records contradict each other"),
        "{}",
        stderr(&o)
    );
    // a witness moved to another cube
    let moved = common::edited_cube_line(witness_275, true, |v| {
        let i = v["cube"]["index"].as_u64().unwrap();
        v["cube"]["index"] = ((i + 1) % 4).into();
    });
    std::fs::write(&f, &moved).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not in that cube"), "{}", stderr(&o));
    // written by another build: refused, unless trusted by name
    let other: String = real
        .lines()
        .map(|l| {
            common::edited_cube_line(l, true, |v| {
                v["cube"]["build"] = "puzzlesat 0.0.9 (commit 0123456789ab)".into()
            })
        })
        .collect();
    std::fs::write(&f, &other).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("line 1: written by puzzlesat 0.0.9 (commit 0123456789ab)")
            && err.contains("--trust-cube-file")
            && err.lines().count() == 1,
        "{err}"
    );
    let o = enigma7(fs, &["-q", "--trust-cube-file"]);
    assert_eq!(o.status.code(), Some(10));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(
            "optimal: 275 (not proven in this run: all 4 cubes closed by the records of "
        ) && out.contains("written by puzzlesat 0.0.9 (commit 0123456789ab)")
            && out.contains("trusted (--trust-cube-file), not re-proved"),
        "{out}"
    );
    // a file of another CNF (another encoding): its digest differs
    let other_cnf: String = real
        .lines()
        .map(|l| {
            common::edited_cube_line(l, true, |v| v["cube"]["cnf"] = "0000000000000000".into())
        })
        .collect();
    std::fs::write(&f, &other_cnf).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("for a CNF of digest 0000000000000000"),
        "{}",
        stderr(&o)
    );
    // half the cubes from the file: the claim says which
    let mut half = String::new();
    let mut closed = 0;
    for l in real.lines() {
        half += l;
        half += "\n";
        closed += usize::from(l.contains("\"closed\":true"));
        if closed == 2 {
            break;
        }
    }
    std::fs::write(&f, &half).unwrap();
    let o = enigma7(fs, &["-q"]);
    assert_eq!(o.status.code(), Some(10));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("optimal: 275 (proven in this run for 2 of 4 cubes: no better solution, UNSAT; the other 2 cubes closed by the records of "),
        "{out}"
    );
}
