//! Rook tours / Numbrix: the seed's reference results, the shipped Numbrix
//! instances, differential tests against brute force, symmetry classes, the
//! DIMACS round trip through an external solver, and malformed files.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::rook_tour::encode::{Connectivity, Encoding, Links, Options, Symmetry};
use puzzlesat::puzzles::rook_tour::model::{Instance, Numbering};
use puzzlesat::puzzles::rook_tour::{class_of, reference, symmetry, RookTour};
use puzzlesat::run::{self, RunOptions, Status};
use puzzlesat_encodings::amo::AmoEncoding;

/// The encodings under test: the seed's position model (forward links only),
/// the position model with backward links and another at-most-one encoder,
/// the successor encoding, and the position model with the connectivity
/// check on partial assignments.
const ENCODINGS: [Options; 5] = [
    Options {
        encoding: Encoding::Position,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Pairwise,
        links: Links::Forward,
        connectivity: Connectivity::None,
    },
    Options {
        encoding: Encoding::Position,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Ladder,
        links: Links::Both,
        connectivity: Connectivity::None,
    },
    Options {
        encoding: Encoding::Position,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Commander,
        links: Links::Forward,
        connectivity: Connectivity::None,
    },
    Options {
        encoding: Encoding::Successor,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Ladder,
        links: Links::Both,
        connectivity: Connectivity::None,
    },
    Options {
        encoding: Encoding::Position,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Pairwise,
        links: Links::Both,
        connectivity: Connectivity::Lazy,
    },
];

fn instance_file(name: &str) -> Instance {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(name);
    Instance::from_file(&path).unwrap()
}

/// All solutions by the CNF (each checked by the runner), sorted.
fn all_by_cnf(inst: &Instance, opts: Options, symmetry: Symmetry) -> Vec<Numbering> {
    let opts = Options { symmetry, ..opts };
    let p = RookTour::new(inst.clone(), opts);
    let run_opts = RunOptions {
        all: true,
        ..RunOptions::default()
    };
    let report = run::run_quiet(&p, &run_opts).unwrap();
    // a complete enumeration of no solution is reported as infeasible
    let complete = match report.status {
        Status::All => true,
        Status::Unsat => report.solutions.is_empty(),
        _ => false,
    };
    assert!(complete, "{}: {:?}", p.describe(), report.status);
    assert_eq!(report.count, Some(report.solutions.len() as u64));
    let mut sols = report.solutions;
    sols.sort();
    sols
}

fn with_tour(inst: &Instance, tour: bool) -> Instance {
    Instance {
        tour,
        ..inst.clone()
    }
}

/// The seed's solution 3, the only closed tour (prime cells negative there).
const SEED_TOUR: [[u32; 8]; 8] = [
    [41, 40, 39, 30, 29, 28, 21, 20],
    [42, 37, 38, 31, 32, 27, 22, 19],
    [43, 36, 35, 34, 33, 26, 23, 18],
    [44, 45, 46, 3, 4, 25, 24, 17],
    [49, 48, 47, 2, 5, 8, 9, 16],
    [50, 51, 64, 1, 6, 7, 10, 15],
    [53, 52, 63, 62, 61, 60, 11, 14],
    [54, 55, 56, 57, 58, 59, 12, 13],
];

#[test]
fn seed_board_has_4_paths_and_1_tour_by_both_encodings() {
    let inst = instance_file("rook-primes-8x8.toml");
    assert_eq!(inst.marks.iter().flatten().count(), 18);
    let want_tour = Numbering {
        values: SEED_TOUR.iter().map(|r| r.to_vec()).collect(),
    };
    for enc in ENCODINGS {
        let paths = all_by_cnf(&with_tour(&inst, false), enc, Symmetry::None);
        assert_eq!(paths.len(), 4, "{enc:?}");
        let tours = all_by_cnf(&with_tour(&inst, true), enc, Symmetry::None);
        assert_eq!(tours, vec![want_tour.clone()], "{enc:?}");
        assert!(paths.contains(&want_tour));
    }
}

#[test]
fn shipped_numbrix_puzzles_have_unique_solutions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("numbrix-")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for f in files {
        let inst = Instance::from_file(&f).unwrap();
        let mut first = None;
        for enc in ENCODINGS {
            let sols = all_by_cnf(&inst, enc, Symmetry::None);
            assert_eq!(sols.len(), 1, "{} {enc:?}", f.display());
            // the givens are kept (the runner's checker passed too)
            for (cell, g) in inst.givens.iter().enumerate() {
                if let Some(g) = g {
                    assert_eq!(sols[0].at(cell), *g);
                }
            }
            assert_eq!(
                *first.get_or_insert(sols[0].clone()),
                sols[0],
                "{}",
                f.display()
            );
        }
    }
}

/// Small boards: (toml text) layouts for the differential tests.
fn small_layouts() -> Vec<Instance> {
    let texts = [
        // empty boards (1×1 and 1×2: the degenerate tours — 1 is not next to
        // itself, 2 is next to 1)
        "rows = 1\ncols = 1\ngrid = '.'",
        "rows = 1\ncols = 2\ngrid = '. .'",
        "rows = 1\ncols = 4\ngrid = '. . . .'",
        "rows = 2\ncols = 3\ngrid = \"\"\"\n. . .\n. . .\n\"\"\"",
        "rows = 3\ncols = 3\ngrid = \"\"\"\n. . .\n. . .\n. . .\n\"\"\"",
        "rows = 3\ncols = 4\ngrid = \"\"\"\n. . . .\n. . . .\n. . . .\n\"\"\"",
        "rows = 4\ncols = 4\ngrid = \"\"\"\n. . . .\n. . . .\n. . . .\n. . . .\n\"\"\"",
        // primes exactly on marked cells (4x4: 2 3 5 7 11 13)
        "rows = 4\ncols = 4\ngrid = \"\"\"\np . . p\n. p . .\n. . p .\np . . p\n\"\"\"\n[sets.p]\nvalues = 'primes'\nexactly = true",
        "rows = 4\ncols = 4\ngrid = \"\"\"\n. p . .\np . p .\n. p . p\n. . p .\n\"\"\"\n[sets.p]\nvalues = 'primes'\nexactly = true",
        // a set without `exactly`, and a second set
        "rows = 4\ncols = 4\ngrid = \"\"\"\nq . . .\n. . . .\n. . s .\n. . . q\n\"\"\"\n[sets.q]\nvalues = 'squares'\n[sets.s]\nvalues = [6, 7, 8]",
        // givens (Numbrix style) and a symmetric layout
        "rows = 4\ncols = 4\ngrid = \"\"\"\n1 . . .\n. . . .\n. . . .\n. . . .\n\"\"\"",
        "rows = 3\ncols = 4\ngrid = \"\"\"\n. . 5 .\n. . . .\n. 12 . .\n\"\"\"",
        "rows = 4\ncols = 4\ngrid = \"\"\"\ne . . e\n. . . .\n. . . .\ne . . e\n\"\"\"\n[sets.e]\nvalues = [1, 6, 11, 16]\nexactly = true",
    ];
    texts
        .iter()
        .map(|t| Instance::from_toml(t, "layout").unwrap())
        .collect()
}

#[test]
fn cnf_agrees_with_brute_force_on_small_boards() {
    for inst in small_layouts() {
        for tour in [false, true] {
            let inst = with_tour(&inst, tour);
            let mut brute = reference::all_solutions(&inst);
            brute.sort();
            for enc in ENCODINGS {
                let cnf = all_by_cnf(&inst, enc, Symmetry::None);
                assert_eq!(cnf.len(), brute.len(), "{inst:?} {enc:?}");
                assert_eq!(cnf, brute, "{inst:?} {enc:?}");
            }
        }
    }
}

/// The edges encoding (connectivity by lazy cuts) on the empty boards:
/// every path, as brute force finds them, with cuts added on the way (its
/// CNF alone admits cycles beside the path); tours, marked cells and
/// symmetry breaking are refused with a message naming the other
/// encodings.
#[test]
fn edges_encoding_with_lazy_cuts_agrees_with_brute_force() {
    let edges = Options {
        encoding: Encoding::Edges,
        ..Options::default()
    };
    for inst in &small_layouts()[..7] {
        let mut brute = reference::all_solutions(inst);
        brute.sort();
        let p = RookTour::new(inst.clone(), edges);
        let run_opts = RunOptions {
            all: true,
            ..RunOptions::default()
        };
        let report = run::run_quiet(&p, &run_opts).unwrap();
        assert_eq!(report.status, Status::All, "{inst:?}");
        let mut sols = report.solutions;
        sols.sort();
        assert_eq!(sols, brute, "{inst:?}");
        if inst.n() >= 9 {
            assert!(report.lazy_constraints > 0, "{inst:?}: no cut was needed");
        }
    }
    let refused = |inst: &Instance, opts: Options| {
        let p = RookTour::new(inst.clone(), opts);
        let e = run::run_quiet(&p, &RunOptions::default()).unwrap_err();
        let msg = format!("{e:#}");
        assert!(msg.contains("--encoding position or successor"), "{msg}");
    };
    let layouts = small_layouts();
    refused(&with_tour(&layouts[6], true), edges);
    refused(&layouts[7], edges);
    refused(
        &layouts[6],
        Options {
            symmetry: Symmetry::LexLeader,
            ..edges
        },
    );
}

#[test]
fn brute_force_counts_known_values() {
    // 4x4 grid: 552 directed Hamiltonian paths (OEIS A096969; 276 undirected),
    // 6 Hamiltonian cycles (A003763) → 6 · 16 · 2 numbered tours
    let empty = &small_layouts()[6];
    assert_eq!(reference::all_solutions(empty).len(), 552);
    assert_eq!(
        reference::all_solutions(&with_tour(empty, true)).len(),
        6 * 16 * 2
    );
}

#[test]
fn symmetry_classes_partition_the_solutions() {
    for inst in small_layouts() {
        for tour in [false, true] {
            let inst = with_tour(&inst, tour);
            let group = symmetry::symmetries(&inst);
            let brute: BTreeSet<Numbering> = reference::all_solutions(&inst).into_iter().collect();
            // the classes of the brute-force solutions
            let classes: BTreeSet<Vec<Numbering>> =
                brute.iter().map(|s| class_of(&group, s)).collect();
            for enc in ENCODINGS {
                let reps = all_by_cnf(&inst, enc, Symmetry::LexLeader);
                assert_eq!(reps.len(), classes.len(), "{inst:?} {enc:?}");
                let rep_classes: BTreeSet<Vec<Numbering>> =
                    reps.iter().map(|s| class_of(&group, s)).collect();
                assert_eq!(
                    rep_classes, classes,
                    "one representative per class: {inst:?} {enc:?}"
                );
            }
        }
    }
}

#[test]
fn symmetry_groups_of_known_boards() {
    let names = |inst: &Instance| -> Vec<String> {
        symmetry::symmetries(inst)
            .into_iter()
            .map(|g| g.name)
            .collect()
    };
    let layouts = small_layouts();
    // empty square: dihedral group × reversal
    assert_eq!(names(&layouts[6]).len(), 16);
    // empty square tour: dihedral × the 32 value maps of a 16-cycle
    assert_eq!(names(&with_tour(&layouts[6], true)).len(), 8 * 32);
    // thin boards: maps that coincide are listed once
    assert_eq!(names(&layouts[0]), vec!["id"]);
    let four = vec!["id", "reverse", "rot180", "rot180+reverse"];
    assert_eq!(names(&layouts[1]), four);
    // 1×2 tour: shift 1 = reverse, reverse+shift 1 = id
    assert_eq!(names(&with_tour(&layouts[1], true)), four);
    // 1×4: flip-h = rot180, flip-v = id
    assert_eq!(names(&layouts[2]), four);
    // empty 3x4 rectangle: 4 × 2
    assert_eq!(names(&layouts[5]).len(), 8);
    // a given 1 in a corner: the transpose only
    assert_eq!(names(&layouts[10]), vec!["id", "transpose"]);
    // the seed's board: no symmetry but the identity
    assert_eq!(names(&instance_file("rook-primes-8x8.toml")), vec!["id"]);
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
}

#[test]
fn dimacs_and_decode_round_trip_through_cadical() {
    let dir = tempfile::tempdir().unwrap();
    let inst = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/rook-primes-8x8.toml");
    for enc in ["position", "successor"] {
        let cnf = dir.path().join(format!("{enc}.cnf"));
        let out = bin()
            .args([
                "dimacs",
                "rook-tour",
                "--tour",
                "--encoding",
                enc,
                "--instance",
            ])
            .arg(&inst)
            .arg("-o")
            .arg(&cnf)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // CI installs cadical (.ci/run); its absence is a failure
        let solved =
            Command::new("cadical").arg("-q").arg(&cnf).output().expect(
                "the external solver `cadical` must be installed (apt-get install cadical)",
            );
        assert_eq!(solved.status.code(), Some(10), "cadical says SAT");
        let model = dir.path().join(format!("{enc}.out"));
        std::fs::write(&model, &solved.stdout).unwrap();
        let out = bin()
            .args([
                "decode",
                "rook-tour",
                "--tour",
                "--encoding",
                enc,
                "--instance",
            ])
            .arg(&inst)
            .arg("--model")
            .arg(&model)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(10),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("solution checked"), "{text}");
        // the unique tour: the seed's solution 3
        let first_row = text.lines().next().unwrap();
        let nums: Vec<u32> = first_row
            .split_whitespace()
            .map(|t| {
                t.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(nums, SEED_TOUR[0].to_vec(), "{text}");
    }
}

#[test]
fn cli_counts_and_explains_symmetry_classes() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("empty4.toml");
    std::fs::write(
        &f,
        "rows = 4\ncols = 4\ngrid = \"\"\"\n. . . .\n. . . .\n. . . .\n. . . .\n\"\"\"\n",
    )
    .unwrap();
    let out = bin()
        .args([
            "solve",
            "rook-tour",
            "--all",
            "--tour",
            "--symmetry",
            "lex-leader",
            "-q",
            "--instance",
        ])
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(10), "{text}");
    // 6 Hamiltonian cycles of the 4x4 grid fall into 2 classes under D4
    assert!(text.contains("exactly 2 symmetry classes"), "{text}");
    assert!(text.contains("hold 192 solutions in all"), "{text}");
}

#[test]
fn malformed_instance_is_a_clear_error_with_location() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    std::fs::write(&f, "rows = 2\ncols = 2\ngrid = \"\"\"\n. .\n. z\n\"\"\"\n").unwrap();
    let out = bin()
        .args(["solve", "rook-tour", "--instance"])
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("bad.toml:5:1: unknown grid token 'z'"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    std::fs::write(&f, "rows = 2\ncols = 2x\ngrid = ''\n").unwrap();
    let out = bin()
        .args(["solve", "rook-tour", "--instance"])
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.toml:2:"), "{err}");
    let out = bin()
        .args(["solve", "rook-tour", "--instance", "/nonexistent.toml"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("reading /nonexistent.toml"));
}

/// Random layouts (a fixed-seed generator) on boards up to 4×4: a random value
/// set, `exactly` or not, and up to two givens; in half of them the marks and
/// givens are read off a random Hamiltonian path (so a solution exists), in
/// the other half they are random.
#[test]
fn cnf_agrees_with_brute_force_on_random_layouts() {
    use puzzlesat::puzzles::rook_tour::model::ValueSet;
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    let mut solvable = 0;
    for round in 0..60 {
        let (rows, cols) = (2 + next(3) as usize, 2 + next(3) as usize);
        let n = rows * cols;
        let values: Vec<u32> = (1..=n as u32).filter(|_| next(3) == 0).collect();
        let mut marks: Vec<Option<usize>> = (0..n).map(|_| (next(4) == 0).then_some(0)).collect();
        let mut givens = vec![None; n];
        let tour = next(3) == 0;
        let mut inst = Instance {
            name: "random".into(),
            source: None,
            rows,
            cols,
            tour,
            sets: vec![ValueSet {
                name: "r".into(),
                kind: "explicit list".into(),
                values: values.clone(),
                exactly: next(2) == 0,
            }],
            marks: vec![None; n],
            givens: vec![None; n],
        };
        if round % 2 == 0 {
            // read marks and givens off a random path of the empty board
            let paths = reference::all_solutions(&Instance {
                sets: vec![],
                ..inst.clone()
            });
            if let Some(path) = paths.get(next(paths.len().max(1) as u64) as usize) {
                marks = (0..n)
                    .map(|c| values.contains(&path.at(c)).then_some(0))
                    .collect();
                for _ in 0..next(3) {
                    let cell = next(n as u64) as usize;
                    givens[cell] = Some(path.at(cell));
                }
            }
        } else {
            for _ in 0..next(3) {
                let (cell, v) = (next(n as u64) as usize, 1 + next(n as u64) as u32);
                if !givens.contains(&Some(v)) {
                    givens[cell] = Some(v);
                }
            }
        }
        inst.marks = marks;
        inst.givens = givens;
        let mut brute = reference::all_solutions(&inst);
        brute.sort();
        solvable += usize::from(!brute.is_empty());
        for opts in [ENCODINGS[0], ENCODINGS[1], ENCODINGS[3], ENCODINGS[4]] {
            assert_eq!(
                all_by_cnf(&inst, opts, Symmetry::None),
                brute,
                "{inst:?} {opts:?}"
            );
        }
    }
    assert!(
        solvable >= 20,
        "only {solvable} of 60 random layouts have solutions"
    );
}

#[test]
fn oversized_symmetry_group_is_an_error_not_a_cut() {
    let grid = ". . . . . . . . . .\n".repeat(10);
    let inst = Instance::from_toml(
        &format!("rows = 10\ncols = 10\ntour = true\ngrid = \"\"\"\n{grid}\"\"\""),
        "e",
    )
    .unwrap();
    let opts = Options {
        symmetry: Symmetry::LexLeader,
        ..ENCODINGS[1]
    };
    let p = RookTour::new(inst, opts);
    assert_eq!(p.group.len(), 8 * 200);
    let err = p
        .encode(&mut puzzlesat_encodings::Cnf::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("over the limit"), "{err}");
}

/// The connectivity check on partial assignments (`--connectivity lazy`)
/// prunes, and only what no solution needs: the empty boards' counts (by
/// classes, every path, and cube by cube) are the known ones with and
/// without it, and it cuts the search (fewer conflicts).
#[test]
fn lazy_connectivity_keeps_the_counts_and_cuts_the_search() {
    use puzzlesat::options::CubeOptions;
    for (k, paths, classes) in [(4, 552, 38), (5, 8648, 549)] {
        let inst = instance_file(&format!("rook-empty-{k}x{k}.toml"));
        let mut conflicts = vec![];
        for connectivity in [Connectivity::None, Connectivity::Lazy] {
            let p = RookTour::new(
                inst.clone(),
                Options {
                    connectivity,
                    ..ENCODINGS[4]
                },
            );
            let count = RunOptions {
                all: true,
                count_only: true,
                ..RunOptions::default()
            };
            let r = run::run_quiet(&p, &count).unwrap();
            assert_eq!(r.status, Status::All, "{k}x{k} {connectivity}");
            assert_eq!(
                (r.count, r.classes),
                (Some(paths), Some(classes)),
                "{k}x{k} {connectivity}"
            );
            conflicts.push(r.stats.conflicts.unwrap());
            // every path, no classes
            let every = RunOptions {
                no_classes: true,
                ..count.clone()
            };
            let r = run::run_quiet(&p, &every).unwrap();
            assert_eq!(r.count, Some(paths), "{k}x{k} {connectivity} --no-classes");
            // cube by cube, on two threads
            let cubes = RunOptions {
                cubes: Some(CubeOptions {
                    count: 8,
                    file: None,
                    only: None,
                    jobs: 2,
                    trust: false,
                }),
                ..count.clone()
            };
            let r = run::run_quiet(&p, &cubes).unwrap();
            assert_eq!(
                (r.count, r.classes),
                (Some(paths), Some(classes)),
                "{k}x{k} {connectivity} --cubes 8"
            );
        }
        assert!(
            conflicts[1] < conflicts[0],
            "{k}x{k}: conflicts without and with the check: {conflicts:?}"
        );
    }
}

/// `--connectivity lazy` reads the position encoding's literals: with
/// another encoding it is refused in words, not ignored.
#[test]
fn lazy_connectivity_with_another_encoding_is_refused() {
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/rook-empty-4x4.toml");
    for encoding in ["successor", "edges"] {
        let out = bin()
            .args(["solve", "rook-tour", "--count", "--connectivity", "lazy"])
            .args(["--encoding", encoding, "--instance"])
            .arg(&board)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{encoding}");
        assert!(
            err.contains("--connectivity lazy") && err.contains("--encoding position"),
            "{err}"
        );
    }
    let opts = Options {
        encoding: Encoding::Successor,
        ..ENCODINGS[4]
    };
    let p = RookTour::new(instance_file("rook-empty-4x4.toml"), opts);
    let err = p
        .encode(&mut puzzlesat_encodings::Cnf::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("--connectivity lazy"), "{err}");
}
