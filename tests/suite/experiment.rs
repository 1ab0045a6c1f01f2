//! `puzzlesat experiment` end to end, with a fake worker (a shell script
//! that answers like `puzzlesat solve <puzzle> ... --json`, crashes, hangs,
//! fails or eats memory on request), so the runner is tested without any
//! puzzle: grid expansion, failures recorded while the grid goes on, resume
//! after a kill, and `--emit-jobs` + `--collect` giving the in-process table.
//! Real puzzlesat rows: the cluster path through GNU parallel, and totals
//! not quantized by the progress heartbeat.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::output as puzzlesat;
use puzzlesat::experiment::{Grid, Row};

/// The fake worker. Options: -n N, --encoding a|b (clause count n²·10 or
/// 7n), --mode ok|crash|hang|bad|hog, --delay SECONDS.
const FAKE: &str = r#"#!/bin/sh
[ "$1" = solve ] || { echo "error: expected solve" >&2; exit 2; }
puzzle=$2; shift 2
n=0; mode=ok; enc=a; delay=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2;;
    --mode) mode=$2; shift 2;;
    --encoding) enc=$2; shift 2;;
    --delay) delay=$2; shift 2;;
    --timeout|--seed) shift 2;;
    --json) shift;;
    *) echo "error: unexpected argument '$1'" >&2; exit 2;;
  esac
done
sleep "$delay"
case "$mode" in
  crash) echo "thread 'main' panicked at src/x.rs" >&2; kill -SEGV $$;;
  hang) sleep 60;;
  bad) echo "error: invalid value 'x' for '--mode'" >&2; exit 2;;
  hog) exec python3 -c 'x = bytearray(1 << 31)';;
esac
if [ "$enc" = a ]; then clauses=$((n * n * 10)); else clauses=$((n * 7)); fi
printf '{"schema_version":7,"puzzle":"%s n=%s","solver":"batsat","seed":null,"status":"optimal","stopped_by":null,"objective":%s,"bound":%s,"count":null,"counted_as":"solutions","classes":null,"solutions":[],"vars":%s,"clauses":%s,"literals":%s,"sat_calls":2,"sat_answers":1,"lazy_constraints":0,"stats":{"conflicts":%s,"decisions":null,"propagations":null},"seconds":{"encode":0.001,"load":0,"bounds":0,"solve":0.0%s,"separate":0,"decode_check":0,"certify":0,"other":0,"total":0.0%s1},"certificates":null,"unchecked":false,"cube":null,"cubes":null,"details":{}}\n' \
  "$puzzle" "$n" $((n * 5)) $((n * 5)) $((n * 3)) $clauses $((clauses * 3)) $((n * 11)) "$n" "$n"
exit 10
"#;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fake.sh"), FAKE).unwrap();
        Fixture { dir }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    /// A spec file using the fake worker, results into `out`.
    fn spec(&self, name: &str, body: &str, out: &str) -> PathBuf {
        let text = format!(
            "puzzle = \"fake\"\ncommand = [\"sh\", {:?}]\nout = {:?}\n{body}",
            self.path("fake.sh").display().to_string(),
            self.path(out).display().to_string()
        );
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

fn rows(out: &Path) -> Vec<Row> {
    std::fs::read_to_string(out.join("rows.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The CSV without the columns measured here (wall time, peak memory),
/// which differ run to run and are not measured for collected jobs.
fn table(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("rows.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !["wall_seconds", "peak_rss_mib"].contains(&header[i]))
        .collect();
    std::iter::once(header.join(","))
        .chain(lines.map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            keep.iter()
                .map(|&i| cells.get(i).copied().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(",")
        }))
        .collect()
}

/// Runs the grid of `spec` here, `jobs` workers at a time, quietly; it must
/// succeed.
fn run_grid(spec: &Path, jobs: u32) {
    let o = puzzlesat(&[
        "experiment",
        spec.to_str().unwrap(),
        "-q",
        "--no-plots",
        "--jobs",
        &jobs.to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn status_of<'a>(rows: &'a [Row], mode: &str) -> &'a Row {
    rows.iter().find(|r| r.params["mode"] == mode).unwrap()
}

#[test]
fn failing_workers_are_recorded_and_the_grid_finishes() {
    let f = Fixture::new();
    // the memory hog worker is a python3 one-liner: a missing python3 fails
    assert!(
        Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "the memory-hog worker needs python3: install it (apt-get install python3)"
    );
    let modes = r#"["ok", "crash", "hang", "bad", "hog"]"#;
    let spec = f.spec(
        "s.toml",
        &format!("sizes = [4]\ntimeout = 0.5\nmemory = 256\njobs = 2\n[vary]\nmode = {modes}\n"),
        "out",
    );
    let o = puzzlesat(&["experiment", spec.to_str().unwrap(), "-q", "--no-plots"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = self::rows(&f.path("out"));
    assert_eq!(rows.len(), 5);
    let ok = status_of(&rows, "ok");
    assert_eq!(
        (ok.status.name(), ok.objective, ok.clauses, ok.conflicts),
        ("optimal", Some(20), Some(160), Some(44))
    );
    assert!(ok.peak_rss_mib.is_some_and(|m| m > 0.0));
    let crash = status_of(&rows, "crash");
    assert_eq!(crash.status.name(), "crash");
    assert_eq!(
        crash.message.as_deref(),
        Some("killed by signal 11: thread 'main' panicked at src/x.rs")
    );
    let hang = status_of(&rows, "hang");
    assert_eq!(
        (hang.status.name(), hang.exit.as_str()),
        ("timeout", "killed at timeout")
    );
    // killed at the hard limit (0.5 s + 2 s grace), not after the worker's 60 s
    assert!(hang.wall_seconds.unwrap() < 30.0);
    let bad = status_of(&rows, "bad");
    assert_eq!(
        (bad.status.name(), bad.message.as_deref()),
        ("error", Some("error: invalid value 'x' for '--mode'"))
    );
    assert_eq!(status_of(&rows, "hog").status.name(), "memout");
    // --retry reruns the rows with a status, the others stay
    let o = puzzlesat(&[
        "experiment",
        spec.to_str().unwrap(),
        "--retry",
        "crash,error",
        "--no-plots",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 rows with status crash or error will be run again")
            && err.contains("ran 2 rows"),
        "{err}"
    );
    let again = self::rows(&f.path("out"));
    assert_eq!(again.len(), rows.len());
    assert_eq!(status_of(&again, "crash").status.name(), "crash");
    assert_eq!(
        status_of(&again, "ok"),
        ok,
        "rows not retried are kept as they were"
    );
    // the summary counts them
    let o = puzzlesat(&[
        "experiment",
        spec.to_str().unwrap(),
        "-q",
        "--report",
        "--no-plots",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("mode=crash"), "{text}");
    assert!(text.contains("1 timeout"), "{text}");
}

#[test]
fn a_killed_grid_resumes_to_the_same_table_without_duplicates() {
    let f = Fixture::new();
    let body = "name = \"r\"\nsizes = \"1..5\"\ntimeout = 20\n[fixed]\ndelay = 0.3\n[vary]\nencoding = [\"a\", \"b\"]\n";
    let clean = f.spec("clean.toml", body, "clean");
    let o = puzzlesat(&["experiment", clean.to_str().unwrap(), "-q", "--no-plots"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&f.path("clean")).len(), 10);

    let spec = f.spec("resume.toml", body, "resume");
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["experiment", spec.to_str().unwrap(), "-q", "--no-plots"])
        .spawn()
        .unwrap();
    let jsonl = f.path("resume").join("rows.jsonl");
    let start = Instant::now();
    while std::fs::read_to_string(&jsonl)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < 3
    {
        assert!(start.elapsed() < Duration::from_secs(60), "no rows written");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done_before = rows(&f.path("resume")).len();
    assert!(
        (3..10).contains(&done_before),
        "killed mid-grid: {done_before} rows"
    );

    let o = puzzlesat(&["experiment", spec.to_str().unwrap(), "--no-plots"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{done_before} of 10 rows already in")),
        "{err}"
    );
    let resumed = rows(&f.path("resume"));
    let ids: std::collections::BTreeSet<_> = resumed.iter().map(|r| r.id.clone()).collect();
    assert_eq!((resumed.len(), ids.len()), (10, 10), "no duplicates");
    assert_eq!(table(&f.path("resume")), table(&f.path("clean")));
    // a third run has nothing to do
    let o = puzzlesat(&["experiment", spec.to_str().unwrap(), "--no-plots"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 0 rows"));
    assert_eq!(rows(&f.path("resume")).len(), 10);
}

#[test]
fn emitted_jobs_collected_give_the_in_process_table() {
    let f = Fixture::new();
    let body = "name = \"tiny\"\nsizes = [2, 3]\ntimeout = 0.5\n[vary]\nencoding = [\"a\", \"b\"]\nmode = [\"ok\", \"crash\", \"bad\"]\n";
    let here = f.spec("here.toml", body, "here");
    run_grid(&here, 2);

    let there = f.spec("there.toml", body, "there");
    let jobs = f.path("jobs.txt");
    let o = puzzlesat(&[
        "experiment",
        there.to_str().unwrap(),
        "--emit-jobs",
        jobs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<String> = std::fs::read_to_string(&jobs)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 12);
    assert!(
        lines[0].contains(" solve fake -n 2 --encoding a --mode ok --timeout 0.5 --json"),
        "{}",
        lines[0]
    );
    // what GNU parallel or a Slurm array task does with each line
    for line in &lines[..7] {
        Command::new("sh").args(["-c", line]).status().unwrap();
    }
    let jobs_dir = f.path("there").join("jobs");
    let o = puzzlesat(&[
        "experiment",
        there.to_str().unwrap(),
        "--collect",
        jobs_dir.to_str().unwrap(),
        "--no-plots",
    ]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("collected 7 new rows"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // emitting again leaves out the rows already collected
    let jobs2 = f.path("jobs2.txt");
    puzzlesat(&[
        "experiment",
        there.to_str().unwrap(),
        "--emit-jobs",
        jobs2.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&jobs2)
            .unwrap()
            .lines()
            .collect::<Vec<_>>(),
        lines[7..]
    );
    for line in &lines[7..] {
        Command::new("sh").args(["-c", line]).status().unwrap();
    }
    let o = puzzlesat(&[
        "experiment",
        there.to_str().unwrap(),
        "--collect",
        jobs_dir.to_str().unwrap(),
        "--no-plots",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("collected 5 new rows") && err.contains("(0 rows have no output yet)"),
        "{err}"
    );
    assert_eq!(table(&f.path("there")), table(&f.path("here")));
    let collected = rows(&f.path("there"));
    assert_eq!(
        collected
            .iter()
            .filter(|r| r.status.name() == "crash")
            .count(),
        4
    );
    assert!(collected.iter().all(|r| r.wall_seconds.is_none()));
}

#[test]
fn flag_form_summarises_and_plots() {
    let f = Fixture::new();
    let out = f.path("flags");
    let worker = format!("sh {}", f.path("fake.sh").display());
    let o = puzzlesat(&[
        "experiment",
        "--puzzle",
        "fake",
        "--sizes",
        "2..5",
        "--vary",
        "encoding=a,b",
        "--repeats",
        "2",
        "--timeout",
        "5",
        "--worker",
        &worker,
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    // 4 sizes × 2 encodings × 2 repeats; mean clauses of a: 10·(4+9+16+25)/4 = 135, of b: 7·3.5 = 24.5
    assert!(text.contains("# fake — puzzle fake, 16 rows"), "{text}");
    let line_a = text.lines().find(|l| l.starts_with("encoding=a")).unwrap();
    let cells: Vec<&str> = line_a.split_whitespace().collect();
    assert_eq!(
        (cells[1], cells[2], cells[6]),
        ("8", "8", "135"),
        "{line_a}"
    );
    // configuration × size tables: times with answers, then clauses
    let a_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("encoding=a"))
        .collect();
    assert_eq!(a_lines.len(), 3, "{text}");
    assert!(a_lines[1].ends_with("0.051 =25"), "{text}");
    assert_eq!(
        a_lines[2].split_whitespace().collect::<Vec<_>>(),
        ["encoding=a", "40", "90", "160", "250"]
    );
    // repeats search with distinct seeds
    let seeds: std::collections::BTreeSet<Option<u64>> =
        rows(&out).iter().map(|r| r.seed).collect();
    assert_eq!(seeds, [Some(0), Some(1)].into());
    if puzzlesat::experiment::plot::ensure_font().is_ok() {
        for name in ["time", "clauses", "cactus"] {
            for ext in ["svg", "png"] {
                let p = out.join("plots").join(format!("{name}.{ext}"));
                assert!(
                    std::fs::metadata(&p).is_ok_and(|m| m.len() > 1000),
                    "{}",
                    p.display()
                );
            }
        }
        let svg = std::fs::read_to_string(out.join("plots/clauses.svg")).unwrap();
        assert!(svg.contains("encoding=a") && svg.contains("encoding=b"));
    }
}

#[test]
fn shipped_specs_expand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let g = Grid::from_file(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
            assert!(!g.expand().is_empty(), "{}", path.display());
            assert!(g.question.is_some(), "{}: say what it asks", path.display());
            n += 1;
        }
    }
    assert!(n >= 6, "one spec per question of the issue");
}

/// Ctrl-C or SIGTERM mid-grid stops the experiment with exit 130 (rerun to
/// resume), the rows done so far kept; the rerun finishes the grid.
#[test]
fn an_interrupted_grid_exits_130_and_resumes() {
    let f = Fixture::new();
    let body = "name = \"i\"\nsizes = \"1..5\"\ntimeout = 20\n[fixed]\ndelay = 0.3\n[vary]\nencoding = [\"a\", \"b\"]\n";
    for (signal, name) in [(libc::SIGINT, "int"), (libc::SIGTERM, "term")] {
        let spec = f.spec(&format!("{name}.toml"), body, name);
        let child = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
            .args(["experiment", spec.to_str().unwrap(), "-q", "--no-plots"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let jsonl = f.path(name).join("rows.jsonl");
        let start = Instant::now();
        while std::fs::read_to_string(&jsonl)
            .map(|t| t.lines().count())
            .unwrap_or(0)
            < 2
        {
            assert!(start.elapsed() < Duration::from_secs(60), "no rows written");
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: a plain system call to our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let sent = Instant::now();
        let status = child.wait_with_output().unwrap().status;
        assert_eq!(status.code(), Some(130), "signal {signal}");
        assert!(sent.elapsed() < common::HANG_GUARD, "signal {signal}");
        let done = rows(&f.path(name)).len();
        assert!((2..10).contains(&done), "signal {signal}: {done} rows");
        let o = puzzlesat(&["experiment", spec.to_str().unwrap(), "-q", "--no-plots"]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(rows(&f.path(name)).len(), 10, "signal {signal}");
    }
}

/// The global solve options given to `experiment` go to every run (they
/// used to be accepted and ignored); the defaults add nothing.
#[test]
fn global_solve_options_reach_every_run() {
    let f = Fixture::new();
    let spec = f.spec("g.toml", "name = \"g\"\nsizes = [3, 4]\n", "g");
    let jobs = f.path("g.jobs");
    let emit = |extra: &[&str]| {
        let mut args = vec![
            "experiment",
            spec.to_str().unwrap(),
            "-q",
            "--emit-jobs",
            jobs.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = puzzlesat(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(&jobs).unwrap()
    };
    let plain = emit(&[]);
    assert_eq!(plain.lines().count(), 2);
    for flag in [
        "--solver",
        "--max-clauses",
        "--strategy",
        "--objective-encoding",
    ] {
        assert!(!plain.contains(flag), "{plain}");
    }
    let set = emit(&[
        "--solver",
        "varisat",
        "--max-clauses",
        "1000",
        "--strategy",
        "binary",
        "--objective-encoding",
        "adder",
    ]);
    for line in set.lines() {
        for part in [
            "--solver varisat",
            "--max-clauses 1000",
            "--strategy binary",
            "--objective-encoding adder",
        ] {
            assert!(line.contains(part), "{part}: {line}");
        }
    }
}

/// Experiment rows of small runs are not quantized (issue 22): a worker's
/// stderr is a file, so each run has a heartbeat thread, whose 50 ms sleep
/// steps the run used to wait out, every total landing near a multiple of
/// 50 ms. Now a row's total is its phases plus a little parsing and
/// printing. One worker at a time; the median row, so that a run
/// descheduled on a loaded machine does not fail the test.
#[test]
fn small_rows_totals_are_their_phases() {
    let f = Fixture::new();
    let spec = f.path("small.toml");
    let body = "name = \"small\"\npuzzle = \"enigma\"\nsizes = [3, 4, 5, 6]\n[fixed]\nmethod = \"board\"\nredundant = \"occ3\"\ndominance = \"counts\"\n[vary]\nsymmetry = [\"none\", \"cycles\"]\n";
    std::fs::write(
        &spec,
        format!("out = {:?}\n{body}", f.path("small").display().to_string()),
    )
    .unwrap();
    run_grid(&spec, 1);
    let rows = rows(&f.path("small"));
    assert_eq!(rows.len(), 8);
    let gaps: Vec<f64> = rows
        .iter()
        .map(|r| {
            let phases = r.seconds.as_ref();
            common::unaccounted_seconds(phases.unwrap_or_else(|| panic!("no phases: {r:?}")))
        })
        .collect();
    assert!(
        common::median(gaps.clone()) < common::UNACCOUNTED_LIMIT_SECONDS,
        "seconds unaccounted per row: {gaps:?}"
    );
}

/// The cluster path for real (issue 13): a grid of real puzzlesat rows
/// emitted as a job list, run by GNU parallel itself, and collected, gives
/// the rows a local run gives: same statuses, objectives, counts and sizes.
#[test]
fn jobs_run_by_gnu_parallel_collect_to_the_local_table() {
    assert!(
        Command::new("parallel")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "this test runs job lists through GNU parallel: install it (apt-get install parallel; .ci/run does)"
    );
    let f = Fixture::new();
    // an optimisation grid (Enigma board optima) and a counting grid
    // (magic 3×3 squares, with and without symmetry breaking)
    let grids = [
        (
            "enigma",
            "puzzle = \"enigma\"\nsizes = [3, 4, 5, 6]\n[fixed]\nmethod = \"board\"\nredundant = \"occ3\"\ndominance = \"counts\"\n[vary]\nsymmetry = [\"none\", \"cycles\"]\n",
        ),
        (
            "magic",
            "puzzle = \"magic\"\nsizes = [3]\n[fixed]\nall = true\n[vary]\nsymmetry = [\"none\", \"order\", \"lex-leader\"]\n",
        ),
    ];
    for (name, body) in grids {
        let spec = |out: &str| {
            let p = f.path(&format!("{name}-{out}.toml"));
            let text = format!(
                "name = {name:?}\ntimeout = 120\nout = {:?}\n{body}",
                f.path(&format!("{name}-{out}")).display().to_string()
            );
            std::fs::write(&p, text).unwrap();
            p
        };
        let (local, cluster) = (spec("local"), spec("cluster"));
        run_grid(&local, 2);
        let jobs = f.path(&format!("{name}-jobs.txt"));
        let jobs_dir = f.path(&format!("{name}-jobs"));
        let o = puzzlesat(&[
            "experiment",
            cluster.to_str().unwrap(),
            "--emit-jobs",
            jobs.to_str().unwrap(),
            "--jobs-dir",
            jobs_dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = Command::new("parallel")
            .args(["--will-cite", "--jobs", "2", "--joblog"])
            .arg(f.path(&format!("{name}-jobs.log")))
            .stdin(std::fs::File::open(&jobs).unwrap())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "parallel: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = puzzlesat(&[
            "experiment",
            cluster.to_str().unwrap(),
            "--collect",
            jobs_dir.to_str().unwrap(),
            "--no-plots",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && err.contains("(0 rows have no output yet)"),
            "{err}"
        );
        let answers = |out: &str| {
            let mut v: Vec<_> = rows(&f.path(&format!("{name}-{out}")))
                .into_iter()
                .map(|r| {
                    let size = r.params.get("n").cloned().unwrap_or_default();
                    let sym = r.params["symmetry"].clone();
                    (
                        size,
                        sym,
                        r.status.name().to_string(),
                        r.objective,
                        r.count,
                        r.clauses,
                    )
                })
                .collect();
            v.sort();
            v
        };
        let here = answers("local");
        assert_eq!(
            answers("cluster"),
            here,
            "{name}: parallel + collect vs local"
        );
        let numbers: Vec<(&str, &str, Option<i64>, Option<u64>)> = here
            .iter()
            .map(|(_, sym, status, obj, count, _)| (sym.as_str(), status.as_str(), *obj, *count))
            .collect();
        match name {
            "enigma" => {
                let opt = |o| {
                    [
                        ("cycles", "optimal", Some(o), None),
                        ("none", "optimal", Some(o), None),
                    ]
                };
                assert_eq!(numbers, [opt(15), opt(40), opt(55), opt(180)].concat());
            }
            _ => assert_eq!(
                numbers,
                [
                    ("lex-leader", "all", None, Some(1)),
                    ("none", "all", None, Some(8)),
                    ("order", "all", None, Some(1)),
                ]
            ),
        }
    }
}

/// `--sizes 6..8` on a spec whose instances carry their own size (files)
/// is one refusal, exit 2, nothing run (it used to run every row and
/// record rows of "reading 6" errors).
#[test]
fn numeric_sizes_on_a_spec_of_instance_files_are_one_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let out = puzzlesat(&[
        "experiment",
        "experiments/rook-tour-encodings.toml",
        "--sizes",
        "6..8",
        "--timeout",
        "5",
        "--no-plots",
        "--out",
        results.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: --sizes 6..8: the instances of experiments/rook-tour-encodings.toml carry their own size")
            && err.contains("instances/numbrix-6x6.toml"),
        "{err}"
    );
    assert!(!results.exists(), "nothing is run or recorded");
    // files are still taken
    let out = puzzlesat(&[
        "experiment",
        "experiments/rook-tour-encodings.toml",
        "--sizes",
        "instances/rook-empty-4x4.toml",
        "--vary",
        "encoding=position",
        "--vary",
        "tour=false",
        "--vary",
        "symmetry=none",
        "--timeout",
        "30",
        "--no-plots",
        "--out",
        results.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
