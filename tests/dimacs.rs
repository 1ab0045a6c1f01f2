//! The DIMACS path end to end: the malformed-input corpus (`tests/cnf/bad`,
//! every file an error with the right line number, never a panic), the
//! write → read round trip (proptest), WCNF / OPB writers, solver-output
//! parsing, and the `puzzlesat sat` command run as a process on the corpus
//! with every embedded backend (exit codes 10/20, `s`/`v` lines, models
//! checked clause by clause here again).

use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;
use puzzlesat::io::dimacs::{
    read_cnf, read_cnf_file, write_cnf, write_opb, write_wcnf, DimacsError,
};
use puzzlesat::io::solver_output::{parse, parse_minisat, write_model, SolverAnswer};
use puzzlesat::solver::SolverKind;
use puzzlesat_encodings::{Assignment, ClauseDatabase, Cnf};
use rustsat::types::Lit;

fn cnf_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cnf")
}

fn lit(x: i32) -> Lit {
    Lit::from_ipasir(x).unwrap()
}

/// Every malformed file, with the line its error must name.
const BAD: &[(&str, usize, &str)] = &[
    ("clause-before-header.cnf", 1, "before the 'p cnf' line"),
    ("bad-var-count.cnf", 2, "bad variable count"),
    ("not-cnf-header.cnf", 1, "expected 'p cnf VARS CLAUSES'"),
    ("header-extra-field.cnf", 1, "expected 'p cnf VARS CLAUSES'"),
    (
        "literal-out-of-range.cnf",
        2,
        "exceeds the declared 2 variables",
    ),
    ("not-an-integer.cnf", 3, "'a' is not an integer literal"),
    ("float-literal.cnf", 2, "'1.5' is not an integer literal"),
    ("unterminated-clause.cnf", 4, "not terminated by 0"),
    ("fewer-clauses.cnf", 3, "header declares 3 clauses, found 2"),
    ("more-clauses.cnf", 3, "header declares 1 clauses, found 2"),
    ("second-header.cnf", 2, "second 'p' line"),
    ("too-many-vars.cnf", 1, "more than the"),
    ("literal-overflow.cnf", 2, "is not an integer literal"),
    ("literal-i64-min.cnf", 2, "exceeds the declared"),
    ("no-header.cnf", 2, "no 'p cnf' line"),
    ("negative-var-count.cnf", 1, "bad variable count"),
    ("not-utf8.cnf", 2, "is not an integer literal"),
    ("empty-file.cnf", 1, "no 'p cnf' line"),
    ("lone-minus.cnf", 2, "'-' is not an integer literal"),
];

#[test]
fn malformed_corpus_gives_line_numbers() {
    let listed: Vec<&str> = BAD.iter().map(|b| b.0).collect();
    for entry in std::fs::read_dir(cnf_dir().join("bad")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            listed.contains(&name.as_str()),
            "tests/cnf/bad/{name} has no expected error in BAD"
        );
    }
    for &(name, line, what) in BAD {
        let bytes = std::fs::read(cnf_dir().join("bad").join(name)).unwrap();
        match read_cnf(&bytes[..]) {
            Err(DimacsError::Malformed { line: l, what: w }) => {
                assert_eq!(l, line, "{name}: {w}");
                assert!(w.contains(what), "{name}: '{w}' should mention '{what}'");
            }
            other => panic!("{name}: expected a malformed-line error, got {other:?}"),
        }
    }
}

#[test]
fn sat_command_reports_malformed_files() {
    for &(name, line, _) in BAD {
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
            .arg("sat")
            .arg(cnf_dir().join("bad").join(name))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("line {line}:")),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["sat", "/nonexistent.cnf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("opening /nonexistent.cnf"));
}

#[test]
fn satlib_percent_line_ends_the_formula() {
    let cnf = read_cnf_file(&cnf_dir().join("satlib-end.cnf")).unwrap();
    assert_eq!(cnf.len(), 2);
    assert_eq!(cnf.n_vars(), 3);
}

fn arb_cnf() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (1u32..12).prop_flat_map(|n| {
        let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        (
            Just(n),
            prop::collection::vec(prop::collection::vec(lit, 0..5), 0..12),
        )
    })
}

proptest! {
    /// DIMACS write → read gives back the same formula.
    #[test]
    fn dimacs_round_trip((n, clauses) in arb_cnf()) {
        let mut cnf = Cnf::new();
        for c in &clauses {
            cnf.add(&c.iter().map(|&x| lit(x)).collect::<Vec<_>>());
        }
        use rustsat::instances::ManageVars;
        cnf.increase_next_free(rustsat::types::Var::new(n));
        let mut buf = Vec::new();
        write_cnf(&mut buf, &cnf, &["a header".into(), "two lines".into()]).unwrap();
        let back = read_cnf(&buf[..]).unwrap();
        prop_assert_eq!(back.n_vars(), cnf.n_vars());
        prop_assert_eq!(back.clauses().collect::<Vec<_>>(), cnf.clauses().collect::<Vec<_>>());
    }

    /// Model write → parse gives back the same assignment.
    #[test]
    fn model_round_trip(values in prop::collection::vec(any::<bool>(), 0..40)) {
        let a = Assignment::from_values(values.clone());
        let mut buf = b"c comment\ns SATISFIABLE\n".to_vec();
        write_model(&mut buf, &a).unwrap();
        let parsed = parse(std::str::from_utf8(&buf).unwrap(), values.len() as u32).unwrap();
        prop_assert_eq!(parsed, SolverAnswer::Sat(a));
    }
}

fn small_cnf() -> Cnf {
    let mut cnf = Cnf::new();
    cnf.add(&[lit(1), lit(-2)]);
    cnf.add(&[lit(2), lit(3)]);
    cnf
}

#[test]
fn wcnf_2022_format() {
    let mut out = Vec::new();
    write_wcnf(
        &mut out,
        &small_cnf(),
        &[(lit(1), 3), (lit(-3), 2), (lit(2), 0)],
        &["min x".into()],
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "c min x\nh 1 -2 0\nh 2 3 0\n3 1 0\n2 -3 0\n"
    );
}

#[test]
fn opb_format() {
    let mut out = Vec::new();
    let constant = write_opb(&mut out, &small_cnf(), &[(lit(1), 3), (lit(-3), 2)], &[]).unwrap();
    assert_eq!(constant, 2);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "* #variable= 3 #constraint= 2\n* literal objective = OPB objective + 2\nmin: +3 x1 -2 x3 ;\n+1 x1 -1 x2 >= 0 ;\n+1 x2 +1 x3 >= 1 ;\n"
    );
}

#[test]
fn solver_output_errors_have_line_numbers() {
    let cases: &[(&str, usize, &str)] = &[
        ("c x\ns SATISFIABLE\nv 1 -2\n", 3, "not terminated by 0"),
        ("s SATISFIABLE\nv 1 x 0\n", 2, "'x' is not a literal"),
        (
            "s SATISFIABLE\nv 1 4 0\n",
            2,
            "exceeds the formula's 3 variables",
        ),
        ("s SATISFIABLE\nv 1 -1 0\n", 2, "assigned both ways"),
        (
            "s SATISFIABLE\nv 1 0\nv 2 0\n",
            3,
            "after the terminating 0",
        ),
        ("s SATISFIABLE\ns SATISFIABLE\n", 2, "second 's' line"),
        ("c nothing\n", 1, "no 's' status line"),
        ("s MAYBE\n", 1, "unknown status 'MAYBE'"),
        ("", 1, "no 's' status line"),
    ];
    for &(text, line, what) in cases {
        match parse(text, 3) {
            Err(DimacsError::Malformed { line: l, what: w }) => {
                assert_eq!(l, line, "{text:?}: {w}");
                assert!(w.contains(what), "{text:?}: {w}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert_eq!(parse("s UNSATISFIABLE\n", 3).unwrap(), SolverAnswer::Unsat);
    assert_eq!(parse("s UNKNOWN\n", 3).unwrap(), SolverAnswer::Unknown);
    assert_eq!(parse_minisat("UNSAT\n", 3).unwrap(), SolverAnswer::Unsat);
    assert_eq!(parse_minisat("INDET\n", 3).unwrap(), SolverAnswer::Unknown);
    assert_eq!(
        parse_minisat("SAT\n1 -2 3 0\n", 3).unwrap(),
        SolverAnswer::Sat(Assignment::from_values(vec![true, false, true]))
    );
    assert_eq!(
        parse("SAT\n-1 0\n", 3).unwrap(),
        SolverAnswer::Sat(Assignment::from_values(vec![false; 3]))
    );
    assert!(parse_minisat("", 3).is_err());
    assert!(parse_minisat("SAT\n1 -2 3\n", 3).is_err());
    assert!(parse_minisat("YES\n", 3).is_err());
}

/// Runs `puzzlesat sat FILE --solver S`; returns exit code and stdout.
fn run_sat(file: &Path, solver: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["sat", "--solver", solver])
        .arg(file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.is_empty() || !stderr.contains("panicked"),
        "{stderr}"
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn expected() -> Vec<(PathBuf, bool)> {
    std::fs::read_to_string(cnf_dir().join("EXPECTED"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, status) = l.split_once(' ').unwrap();
            (cnf_dir().join(name), status.trim() == "SAT")
        })
        .collect()
}

/// `puzzlesat sat` on the whole corpus with every embedded backend: status
/// line, exit code, and the printed model satisfies every clause.
#[test]
fn sat_command_on_the_corpus() {
    for kind in SolverKind::embedded()
        .into_iter()
        .chain([SolverKind::named("portfolio").unwrap()])
    {
        let solver = kind.to_string();
        for (path, sat) in expected() {
            let (code, stdout) = run_sat(&path, &solver);
            let cnf = read_cnf_file(&path).unwrap();
            if sat {
                assert_eq!(code, 10, "{solver} {}: {stdout}", path.display());
                let SolverAnswer::Sat(model) = parse(&stdout, cnf.n_vars()).unwrap() else {
                    panic!("{solver} {}: not SAT: {stdout}", path.display());
                };
                assert_eq!(model.len(), cnf.n_vars() as usize);
                assert!(
                    model.satisfies(cnf.clauses()),
                    "{solver} {}",
                    path.display()
                );
            } else {
                assert_eq!(code, 20, "{solver} {}: {stdout}", path.display());
                assert_eq!(parse(&stdout, cnf.n_vars()).unwrap(), SolverAnswer::Unsat);
            }
        }
    }
}

#[test]
fn sat_command_timeout_and_json() {
    let php = cnf_dir().join("php-7-6.cnf");
    // a time limit that expires at once answers UNKNOWN with exit code 0
    // (0 itself is refused: the range is above 0)
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["sat", "--timeout", "0.000001"])
        .arg(&php)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l == "s UNKNOWN"));
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["sat", "--json"])
        .arg(&php)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "unsat");
    assert_eq!(doc["vars"], 42);
    assert_eq!(doc["clauses"], 7 + 6 * 21);
    // an unknown solver is a clear error
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlesat"))
        .args(["sat", "--solver", "minisat"])
        .arg(&php)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown solver 'minisat'"));
}

/// A toy optimisation puzzle for the `--wcnf` / `--opb` exports: three
/// items, (x1 ∨ x2) ∧ (x2 ∨ x3) ∧ (¬x1 ∨ ¬x3), objective 1 + 3·x1 + 2·x2 + 4·x3.
struct Toy(puzzlesat::drive::Sense);

impl puzzlesat::puzzle::Puzzle for Toy {
    type Solution = Vec<bool>;
    type Map = ();
    type Details = puzzlesat::report::NoDetails;
    fn describe(&self) -> String {
        format!("toy {:?}", self.0)
    }
    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<puzzlesat::puzzle::Encoded<()>> {
        let x = cnf.fresh_lits(3);
        cnf.add(&[x[0], x[1]]);
        cnf.add(&[x[1], x[2]]);
        cnf.add(&[!x[0], !x[2]]);
        let objective = puzzlesat::drive::Objective {
            sense: self.0,
            terms: vec![(x[0], 3), (x[1], 2), (x[2], 4)],
            offset: 1,
        };
        Ok(puzzlesat::puzzle::Encoded::new((), x.clone(), vec![]).with_objective(objective))
    }
    fn decode(&self, _: &(), m: &Assignment) -> anyhow::Result<Vec<bool>> {
        Ok(m.values()[..3].to_vec())
    }
    fn check(&self, _: &Vec<bool>) -> Result<(), String> {
        Ok(())
    }
    fn render(&self, s: &Vec<bool>) -> String {
        format!("{s:?}")
    }
}

/// All 8 assignments of the toy's 3 variables.
fn toy_assignments() -> impl Iterator<Item = [bool; 3]> {
    (0..8u32).map(|b| [b & 1 == 1, b & 2 == 2, b & 4 == 4])
}

fn holds(x: &[bool; 3], l: i64) -> bool {
    x[(l.unsigned_abs() - 1) as usize] == (l > 0)
}

/// The optimum read back from each export equals brute force on the toy.
#[test]
fn wcnf_and_opb_exports_keep_the_optimum() {
    use puzzlesat::drive::Sense;
    use puzzlesat::io::dimacs::Format;
    use puzzlesat_encodings::pb::PbEncoding;
    for (sense, best) in [(Sense::Minimize, 3), (Sense::Maximize, 7)] {
        // brute force: feasible assignments and their objective
        let feasible = |x: &[bool; 3]| {
            [[1, 2], [2, 3], [-1, -3]]
                .iter()
                .all(|c| c.iter().any(|&l| holds(x, l)))
        };
        let value = |x: &[bool; 3]| 1 + 3 * x[0] as i64 + 2 * x[1] as i64 + 4 * x[2] as i64;
        let values = toy_assignments().filter(feasible).map(|x| value(&x));
        let brute = if sense == Sense::Minimize {
            values.min()
        } else {
            values.max()
        }
        .unwrap();
        assert_eq!(brute, best);

        // WCNF: least cost over assignments satisfying every hard clause
        let mut out = Vec::new();
        puzzlesat::run::export_formula(&Toy(sense), None, PbEncoding::Gte, Format::Wcnf, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let (mut hard, mut soft) = (Vec::new(), Vec::new());
        for line in text.lines().filter(|l| !l.starts_with('c')) {
            let mut f = line.split_whitespace();
            let head = f.next().unwrap();
            let lits: Vec<i64> = f
                .map(|t| t.parse().unwrap())
                .take_while(|&x| x != 0)
                .collect();
            if head == "h" {
                hard.push(lits);
            } else {
                soft.push((head.parse::<i64>().unwrap(), lits));
            }
        }
        let cost = toy_assignments()
            .filter(|x| hard.iter().all(|c| c.iter().any(|&l| holds(x, l))))
            .map(|x| {
                soft.iter()
                    .filter(|(_, c)| !c.iter().any(|&l| holds(&x, l)))
                    .map(|(w, _)| w)
                    .sum::<i64>()
            })
            .min()
            .unwrap();
        let objective = if sense == Sense::Minimize {
            1 + cost
        } else {
            1 + 9 - cost
        };
        assert_eq!(objective, best, "{sense:?} WCNF:\n{text}");
        let mapping = if sense == Sense::Minimize {
            "objective (minimise) = 1 + cost"
        } else {
            "objective (maximise) = 10 - cost"
        };
        assert!(text.contains(mapping), "{text}");

        // OPB: least `min:` value over assignments satisfying every constraint
        let mut out = Vec::new();
        puzzlesat::run::export_formula(&Toy(sense), None, PbEncoding::Gte, Format::Opb, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let terms = |s: &str| -> Vec<(i64, usize)> {
            let f: Vec<&str> = s.split_whitespace().collect();
            f.chunks(2)
                .map(|p| {
                    (
                        p[0].parse().unwrap(),
                        p[1][1..].parse::<usize>().unwrap() - 1,
                    )
                })
                .collect()
        };
        let sum = |t: &[(i64, usize)], x: &[bool; 3]| {
            t.iter()
                .filter(|&&(_, v)| x[v])
                .map(|&(c, _)| c)
                .sum::<i64>()
        };
        let mut objective = Vec::new();
        let mut constraints = Vec::new();
        let mut constant = None;
        for line in text.lines() {
            if let Some(c) = line.strip_prefix("* literal objective = OPB objective + ") {
                constant = Some(c.parse::<i64>().unwrap());
            } else if let Some(o) = line.strip_prefix("min:") {
                objective = terms(o.trim_end_matches(';'));
            } else if !line.starts_with('*') {
                let (lhs, rhs) = line.split_once(">=").unwrap();
                constraints.push((
                    terms(lhs),
                    rhs.trim_end_matches(';').trim().parse::<i64>().unwrap(),
                ));
            }
        }
        let opb_min = toy_assignments()
            .filter(|x| constraints.iter().all(|(t, k)| sum(t, x) >= *k))
            .map(|x| sum(&objective, &x))
            .min()
            .unwrap();
        let literal_objective = opb_min + constant.unwrap();
        let objective = if sense == Sense::Minimize {
            1 + literal_objective
        } else {
            1 - literal_objective
        };
        assert_eq!(objective, best, "{sense:?} OPB:\n{text}");
    }
}
