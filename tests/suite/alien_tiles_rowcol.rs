//! Alien Tiles without SAT: playing a goal by the row/column minimisation
//! (issue 30) and the hardest goal by the goal search (issue 29), each
//! against the SAT pipeline and brute force.

use crate::common;

use common::run as cli;
use puzzlesat::puzzles::alien_tiles::check::coset_minimum;
use puzzlesat::puzzles::alien_tiles::goals::{goal_min, GoalRecord, GoalSearch};
use puzzlesat::puzzles::alien_tiles::model::{click_map, effect, Grid};
use puzzlesat::puzzles::alien_tiles::play::{fewest_clicks, Played};
use puzzlesat::puzzles::alien_tiles::rowcol::RowCol;
use puzzlesat::puzzles::alien_tiles::{reference, zmod, AlienTiles, Task};
use puzzlesat::run::{self, RunOptions, Status};

/// A fixed pseudo-random sequence.
struct Rng(u64);
impl Rng {
    fn below(&mut self, m: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(m)) as u32
    }
    fn grid(&mut self, n: usize, c: u32) -> Grid {
        Grid {
            n,
            cells: (0..n * n).map(|_| self.below(c)).collect(),
        }
    }
}

/// The SAT pipeline's answer for playing `goal` from all zero.
fn sat_play(goal: &Grid, c: u32) -> (Status, Option<i64>) {
    let p = AlienTiles::new(
        goal.n,
        c,
        Task::Play {
            start: Grid::zeros(goal.n),
            goal: goal.clone(),
        },
    )
    .unwrap();
    let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
    (r.status, r.objective)
}

/// The row/column minimisation, the SAT optimiser and brute force over the
/// goal's kernel coset (where the kernel has at most 2^24 elements) agree on
/// random reachable goals (the board a random click matrix reaches) and
/// random boards (mostly unreachable where the kernel is large), for every
/// n ≤ 5 and c ≤ 7.
#[test]
fn rowcol_play_equals_sat_and_brute_force_up_to_5x5() {
    let mut rng = Rng(30);
    for n in 1..=5 {
        for c in 2..=7 {
            let rowcol = RowCol::new(n, c);
            let kernel = zmod::Kernel::of(&click_map(n, c));
            for k in 0..4 {
                let goal = if k < 3 {
                    effect(&rng.grid(n, c), c)
                } else {
                    rng.grid(n, c)
                };
                let played = fewest_clicks(&Grid::zeros(n), &goal, c, &rowcol);
                let x0 = zmod::solve(&click_map(n, c), &goal.cells);
                let (status, objective) = sat_play(&goal, c);
                match played {
                    Played::Best { clicks, total } => {
                        assert!(k == 3 || x0.is_some());
                        assert_eq!(effect(&clicks, c), goal, "n={n} c={c}");
                        assert_eq!(clicks.total(), total);
                        assert_eq!(
                            (status, objective),
                            (Status::Optimal, Some(i64::from(total))),
                            "n={n} c={c} goal {goal:?}"
                        );
                        let x0 = Grid {
                            n,
                            cells: x0.unwrap(),
                        };
                        if let Some((brute, _)) = coset_minimum(&x0, &kernel, 1 << 24) {
                            assert_eq!(brute, total, "n={n} c={c}");
                        }
                        assert_eq!(goal_min(&goal.cells, n, c), Some(total), "n={n} c={c}");
                    }
                    Played::Unreachable => {
                        assert_eq!(k, 3, "n={n} c={c}: a reached board is reachable");
                        assert!(x0.is_none());
                        assert_eq!(status, Status::Unsat, "n={n} c={c}");
                        assert_eq!(goal_min(&goal.cells, n, c), None, "n={n} c={c}");
                    }
                }
            }
        }
    }
}

/// 6×6 and 7×7: the minimisation equals the SAT optimiser on a sample of
/// reachable goals where SAT answers in seconds, and the coset minimum
/// from the goal side ([`goal_min`]) everywhere, 7×7 with 6 colours (a
/// kernel of 6¹²) included.
#[test]
fn rowcol_play_on_6x6_and_7x7() {
    let mut rng = Rng(7);
    for n in [6, 7] {
        for c in 2..=7 {
            let rowcol = RowCol::new(n, c);
            let goal = effect(&rng.grid(n, c), c);
            let Played::Best { clicks, total } = fewest_clicks(&Grid::zeros(n), &goal, c, &rowcol)
            else {
                panic!("n={n} c={c}: a reached board is reachable");
            };
            assert_eq!(effect(&clicks, c), goal);
            if c != 6 || n != 7 {
                assert_eq!(goal_min(&goal.cells, n, c), Some(total), "n={n} c={c}");
            }
            // SAT where it is fast (small kernels); 6×6/5, 7×7/3, 7×7/6 take
            // seconds to minutes (docs/alien-tiles.md)
            let kernel = zmod::Kernel::of(&click_map(n, c)).size();
            if kernel.is_some_and(|k| k <= 4096) {
                assert_eq!(
                    sat_play(&goal, c),
                    (Status::Optimal, Some(i64::from(total))),
                    "n={n} c={c}"
                );
            }
        }
    }
}

#[test]
fn command_line_play_says_how_it_is_proven() {
    let goal = "instances/alien-tiles/7x7-4-goal.txt";
    let args = ["solve", "alien-tiles", "-n", "7", "-c", "4", "--goal", goal];
    let (code, out, _) = cli(&[&args[..], &["-q"]].concat());
    assert_eq!(code, Some(10));
    assert!(
        out.contains("optimal: 47 (proven: no better solution, exact method, no SAT solver)"),
        "{out}"
    );
    assert!(
        out.contains("proven by the row/column minimisation"),
        "{out}"
    );
    let (code, out, _) = cli(&[&args[..], &["--json", "-q"]].concat());
    assert_eq!(code, Some(10));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["solver"], "none");
    assert_eq!(v["puzzle"], "alien-tiles n=7 c=4 play method=rowcol");
    assert_eq!(v["solutions"][0]["total"], 47);
    // the SAT path stays, by --method sat or by naming an encoding
    for extra in [&["--method", "sat"][..], &["--encoding", "sums"][..]] {
        let (code, out, _) = cli(&[&args[..], extra, &["-q"]].concat());
        assert_eq!(code, Some(10), "{extra:?}");
        assert!(
            out.contains("optimal: 47 (proven: no better solution, UNSAT)"),
            "{extra:?}: {out}"
        );
    }
    // --certify: the optimum proven again by one checked SAT refutation
    let (code, out, _) = cli(&[&args[..], &["--certify", "-q"]].concat());
    assert_eq!(code, Some(10));
    assert!(
        out.contains("optimal: 47 (proven: no better solution, UNSAT, certified)"),
        "{out}"
    );
    let (code, out, _) = cli(&[&args[..], &["--certify"]].concat());
    assert_eq!(code, Some(10));
    assert_eq!(out.matches("c certified (optimal)").count(), 1, "{out}");
    // unreachable: the linear-algebra reason, exit 20
    let bad = "instances/alien-tiles/7x7-4-unreachable.txt";
    let (code, out, _) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "7",
        "-c",
        "4",
        "--goal",
        bad,
        "-q",
    ]);
    assert_eq!(code, Some(20));
    assert!(
        out.contains("no solution exists (proven: exact method, no SAT solver)"),
        "{out}"
    );
    assert!(
        out.contains(
            "unreachable: the goal is not in the image of the click map over Z_4 (linear algebra"
        ),
        "{out}"
    );
    // contradictory options: one line, exit 2
    for (extra, want) in [
        (
            &["--method", "rowcol", "--encoding", "sums"][..],
            "--encoding chooses the CNF of --method sat",
        ),
        (
            &["--method", "goals"][..],
            "--method goals searches for the hardest goal",
        ),
        (&["--all"][..], "give --method sat"),
    ] {
        let (code, _, err) = cli(&[&args[..], extra].concat());
        assert_eq!(code, Some(2), "{extra:?}");
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    let (code, _, err) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "3",
        "--hardest",
        "--method",
        "rowcol",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--method rowcol plays a goal"), "{err}");
}

fn hardest_by_goals(n: usize, c: u32, search: &GoalSearch) -> GoalRecord {
    let (record, finished) = search.search_cube(0, 1, &|| false, &mut |_| {});
    assert!(finished, "{n}×{n}/{c} stopped");
    record
}

fn search(n: usize, c: u32) -> GoalSearch {
    GoalSearch::new(n, c, format!("test n={n} c={c}")).unwrap()
}

/// The goal search equals brute force over every click matrix (the
/// hardest goal of [`reference::hardest`]) on small boards, both where
/// c | n − 1 (the bound and the forced last row) and elsewhere.
#[test]
fn goal_search_equals_brute_force_on_small_boards() {
    for (n, c) in [
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
        (2, 7),
        (3, 2),
        (3, 3),
        (3, 4),
        (3, 5),
        (4, 2),
    ] {
        let want = reference::hardest(n, c);
        let got = hardest_by_goals(n, c, &search(n, c));
        assert_eq!(got.hardest, Some(want.clicks), "{n}×{n}/{c}");
        // the goal found is one of brute force's hardest goals
        let rows = got.goal.unwrap();
        let goal = Grid {
            n,
            cells: rows.concat(),
        };
        assert!(
            want.optimal.iter().any(|k| effect(k, c) == goal),
            "{n}×{n}/{c}: {goal:?}"
        );
    }
}

/// Where c | n − 1, the bounded search with the forced last row equals the
/// plain search over every doubly-lexical goal (no bound, reachability at
/// the leaf), and the SAT pipeline's proven optima: 3×3/2 = 3, 4×4/3 = 10
/// (the source's answer), 5×5/2 = 8, 7×7/2 = 17.
#[test]
fn goal_search_agrees_with_the_proven_cells() {
    for (n, c, want) in [(3, 2, 3), (4, 3, 10), (5, 2, 8), (7, 2, 17)] {
        let s = search(n, c);
        let got = hardest_by_goals(n, c, &s);
        assert_eq!(got.hardest, Some(want), "{n}×{n}/{c}");
        assert_eq!(
            got.unreachable, 0,
            "{n}×{n}/{c}: only reachable goals are filled in"
        );
        if n <= 5 {
            let plain = hardest_by_goals(
                n,
                c,
                &GoalSearch::without_bound(n, c, String::new()).unwrap(),
            );
            assert_eq!(plain.hardest, Some(want), "{n}×{n}/{c} without the bound");
            assert!(
                plain.visited + plain.unreachable >= got.visited,
                "{n}×{n}/{c}"
            );
        }
    }
}

/// Split into cubes, the search gives the same hardest value, and without
/// a bound the cubes' goals add up to the whole search's; the CLI resumes
/// from its cube file and a cluster job's line is a record the full command
/// reads.
#[test]
fn goal_search_cubes_partition_the_goals() {
    let (n, c) = (3, 4);
    let s = search(n, c);
    let whole = hardest_by_goals(n, c, &s);
    let mut visited = 0;
    let mut best = 0;
    for i in 0..5 {
        let (r, finished) = s.search_cube(i, 5, &|| false, &mut |_| {});
        assert!(finished);
        visited += r.visited + r.unreachable;
        best = best.max(r.hardest.unwrap_or(0));
    }
    assert_eq!(visited, whole.visited + whole.unreachable);
    assert_eq!(Some(best), whole.hardest);
    // the command line, with a cube file and a rerun
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    let f = file.to_str().unwrap();
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
    let (code, out, _) = cli(&[
        &args[..],
        &["--cubes", "4", "--jobs", "2", "--cube-file", f, "-q"],
    ]
    .concat());
    assert_eq!(code, Some(10), "{out}");
    assert!(
        out.contains("optimal: 10 (proven: no better solution, exact method, no SAT solver)"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 4);
    let (code, out, _) = cli(&[&args[..], &["--cubes", "4", "--cube-file", f, "-q"]].concat());
    assert_eq!(code, Some(10));
    assert!(
        out.contains("optimal: 10 (not proven in this run: all 4 cubes closed by the records of"),
        "{out}"
    );
    // an edited record is refused
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = dir.path().join("edited.jsonl");
    std::fs::write(&edited, text.replacen("\"visited\":", "\"visited\":1", 1)).unwrap();
    let (code, _, err) = cli(&[
        &args[..],
        &[
            "--cubes",
            "4",
            "--cube-file",
            edited.to_str().unwrap(),
            "-q",
        ],
    ]
    .concat());
    assert_eq!(code, Some(2));
    assert!(err.contains("does not match its fingerprint"), "{err}");
    // cluster jobs: each prints its line; together they are a cube file
    let mut lines = String::new();
    for i in 0..4 {
        let (code, out, _) = cli(&[
            &args[..],
            &["--cubes", "4", "--cube", &i.to_string(), "--json", "-q"],
        ]
        .concat());
        // a cluster job answers for its cube, not the puzzle: exit 0 (docs/cubes.md)
        assert_eq!(code, Some(0), "{out}");
        lines.push_str(&out);
    }
    let jobs = dir.path().join("jobs.jsonl");
    std::fs::write(&jobs, lines).unwrap();
    let (code, out, _) = cli(&[
        &args[..],
        &["--cubes", "4", "--cube-file", jobs.to_str().unwrap(), "-q"],
    ]
    .concat());
    assert_eq!(code, Some(10));
    assert!(
        out.contains("optimal: 10 (not proven in this run: all 4 cubes"),
        "{out}"
    );
}

/// `above(b)`: the search for goals needing more than b clicks. Just below
/// the hardest value it finds the hardest value; at it, it ends with no goal
/// (the proof that no goal needs more); on cells where c | n − 1 (the bound
/// cuts from the start) and elsewhere (3×3/4, brute force's 15).
#[test]
fn goal_search_above_a_known_value() {
    for (n, c, want) in [(3, 4, 15), (4, 3, 10), (5, 2, 8), (5, 4, 22), (7, 2, 17)] {
        let below = hardest_by_goals(n, c, &search(n, c).above(want - 1));
        assert_eq!(below.hardest, Some(want), "{n}×{n}/{c} above {}", want - 1);
        let at = hardest_by_goals(n, c, &search(n, c).above(want));
        assert_eq!(at.hardest, None, "{n}×{n}/{c} above {want}");
        assert_eq!(at.goal, None);
    }
    // the command line: no goal above the hardest is "no solution", with
    // the bound in the report
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
    let (code, out, _) = cli(&[&args[..], &["--above", "10"]].concat());
    assert_eq!(code, Some(20), "{out}");
    assert!(out.contains("above=10"), "{out}");
    assert!(
        out.contains("no goal needs more than 10 clicks: the hardest goal needs at most 10"),
        "{out}"
    );
    let (code, out, _) = cli(&[&args[..], &["--above", "9", "-q"]].concat());
    assert_eq!(code, Some(10), "{out}");
    assert!(out.contains("optimal: 10"), "{out}");
    let (code, _, err) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "3",
        "--hardest",
        "--method",
        "sat",
        "--above",
        "9",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--above B applies to the goal search"),
        "{err}"
    );
}

/// The goal search (with the witness columns that cut recent siblings,
/// and cuts above the split by `--above`) agrees with the SAT optimiser
/// on every cell both finish quickly: n = 2 and 3 for every c ≤ 7 (the
/// plain search where c ∤ n − 1), 4×4/2, and the cells with c | n − 1 up
/// to 5×5/2, each with and without `above` one below the optimum.
#[test]
fn goal_search_equals_the_sat_optimiser_on_every_small_cell() {
    let mut cells: Vec<(usize, u32)> = (2..=3).flat_map(|n| (2..=7).map(move |c| (n, c))).collect();
    cells.extend([(4, 2), (4, 3), (5, 2)]);
    for (n, c) in cells {
        let p = AlienTiles::new(n, c, Task::Hardest).unwrap();
        let sat = run::run_quiet(&p, &RunOptions::default()).unwrap();
        assert_eq!(sat.status, Status::Optimal, "{n}×{n}/{c} by SAT");
        let want = u32::try_from(sat.objective.unwrap()).unwrap();
        let got = hardest_by_goals(n, c, &search(n, c));
        assert_eq!(got.hardest, Some(want), "{n}×{n}/{c}");
        if want > 0 {
            let below = hardest_by_goals(n, c, &search(n, c).above(want - 1));
            assert_eq!(below.hardest, Some(want), "{n}×{n}/{c} above {}", want - 1);
        }
    }
}

/// `--hardest` without `--method` takes the goal search where c | n − 1
/// (5×5/4: 22, proven, the SAT optimiser had not proven it in 300 s) and
/// the SAT optimiser elsewhere, and says which and why on stderr and in
/// the report's notes; `--above` without `--method` needs the goal search.
#[test]
fn hardest_picks_its_method_and_says_why() {
    let (code, out, err) = cli(&["solve", "alien-tiles", "-n", "5", "-c", "4", "--hardest"]);
    assert_eq!(code, Some(10), "{out}{err}");
    assert!(
        out.contains("optimal: 22 (proven: no better solution, exact method, no SAT solver)"),
        "{out}"
    );
    assert!(
        err.contains("c method: goals (the goal search: c = 4 divides n − 1 = 4"),
        "{err}"
    );
    let (code, out, err) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "2",
        "--hardest",
        "--json",
    ]);
    assert_eq!(code, Some(10), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["objective"], 16);
    assert_ne!(v["solver"], "none", "{out}");
    let chosen = v["details"]["method_chosen"].as_str().unwrap_or_default();
    assert!(
        chosen.starts_with("method: sat (the SAT optimiser: c = 2 does not divide n − 1 = 3"),
        "{out}"
    );
    assert!(err.contains("c method: sat"), "{err}");
    // --all needs SAT, --above needs the goal search
    let (_, _, err) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "3",
        "-c",
        "2",
        "--hardest",
        "--all",
    ]);
    assert!(
        err.contains("method: sat (--all and --count need the SAT optimiser"),
        "{err}"
    );
    // --certify: the goal search where its goal-space model fits the
    // budget, else the SAT optimiser
    let certify = |max: &str| {
        let (code, out, err) = cli(&[
            "solve",
            "alien-tiles",
            "-n",
            "4",
            "-c",
            "3",
            "--hardest",
            "--certify",
            "--max-clauses",
            max,
        ]);
        assert_eq!(code, Some(10), "{out}{err}");
        assert!(out.contains("optimal: 10 (proven"), "{out}");
        err
    };
    assert!(
        certify("20000000").contains("method: goals ("),
        "--certify, 4×4/3"
    );
    let err = certify("1000");
    assert!(
        err.contains("method: sat (the SAT optimiser: the goal search's certificate needs its goal-space model"),
        "{err}"
    );
    let (code, _, err) = cli(&[
        "solve",
        "alien-tiles",
        "-n",
        "4",
        "-c",
        "2",
        "--hardest",
        "--above",
        "3",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--above B applies to the goal search"),
        "{err}"
    );
}

/// A cluster job whose cube ends without a goal above `--above` says so,
/// in words and in its JSON line (status unsat, bound B, no objective).
#[test]
fn a_closed_cube_says_no_goal_above_the_floor() {
    let args = [
        "solve",
        "alien-tiles",
        "-n",
        "5",
        "-c",
        "4",
        "--hardest",
        "--method",
        "goals",
        "--above",
        "22",
        "--cubes",
        "4",
        "--cube",
        "1",
    ];
    let (code, out, _) = cli(&args);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("cube 1 of 4, a part of the puzzle (a cluster job: not the puzzle's answer): no goal above 22 in this cube (proven: exact method, no SAT solver, the cube searched to its end)"),
        "{out}"
    );
    let (_, out, _) = cli(&[&args[..], &["--json", "-q"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "unsat", "{out}");
    assert_eq!(v["bound"], 22, "{out}");
    assert_eq!(v["objective"], serde_json::Value::Null, "{out}");
    assert_eq!(v["counted_as"], "goals", "{out}");
}

/// The committed cube files of the frontier runs (`results/alien-tiles/`,
/// their commands in `results/alien-tiles/README.md`): the first two
/// records of each, and the first of each further build that wrote the
/// file, replayed as cluster jobs by this build, find exactly what they
/// say (value, goals visited, branches cut, digest).
#[test]
fn frontier_cube_files_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/alien-tiles");
    for (file, n, c, above, cubes) in [
        ("a73-above32.jsonl", "7", "3", "32", "256"),
        ("a73-above31.jsonl", "7", "3", "31", "256"),
        ("a65-above49.jsonl", "6", "5", "49", "64"),
        ("a65-above48.jsonl", "6", "5", "48", "64"),
    ] {
        let text =
            std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let records: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}: {e}")))
            .collect();
        assert!(records.len() >= 2, "{file}: fewer than two records");
        let mut replay: Vec<&serde_json::Value> = records[..2].iter().collect();
        for r in &records {
            if replay
                .iter()
                .all(|w| w["cube"]["build"] != r["cube"]["build"])
            {
                replay.push(r);
            }
        }
        for want in replay {
            let i = want["cube"]["index"].to_string();
            let (code, out, err) = cli(&[
                "solve",
                "alien-tiles",
                "-n",
                n,
                "-c",
                c,
                "--hardest",
                "--method",
                "goals",
                "--above",
                above,
                "--cubes",
                cubes,
                "--cube",
                &i,
                "--json",
                "-q",
            ]);
            assert_eq!(code, Some(0), "{file} cube {i}: {err}");
            let got: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(got["details"], want["details"], "{file} cube {i}");
            assert_eq!(got["objective"], want["objective"], "{file} cube {i}");
            assert_eq!(got["puzzle"], want["puzzle"], "{file} cube {i}");
        }
    }
}
