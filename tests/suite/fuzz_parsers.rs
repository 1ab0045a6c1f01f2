//! Property-based fuzzing of every parser of user input: DIMACS (plain
//! and compressed), solver output (the model files `decode` reads),
//! rook-tour instance TOML, magic givens, Alien Tiles goal/start grids and
//! experiment specs. Each target feeds raw bytes and text assembled from
//! the format's own tokens (extreme numbers, NUL, a BOM, `\r`, stray
//! keywords) and asserts: no panic, and an error is one line that says
//! where (a line number, or the file). Only the public parsing API is used,
//! so the same file runs against an older build for comparison.

use std::io::Write;

use proptest::prelude::*;
use puzzlesat::io::dimacs::read_cnf;
use puzzlesat::io::solver_output::{parse, SolverAnswer};

/// One-line, non-empty error text.
fn assert_one_line(err: &str, input: &[u8]) {
    assert!(!err.trim().is_empty(), "empty error for {input:?}");
    assert!(
        !err.contains('\n') && !err.contains('\0'),
        "error not on one line (or with a raw NUL) for {:?}: {err:?}",
        String::from_utf8_lossy(input)
    );
}

/// Tokens of DIMACS and of its usual mistakes.
fn dimacs_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-6i64..=6).prop_map(|x| x.to_string()),
        1 => any::<i64>().prop_map(|x| x.to_string()),
        1 => Just("0".to_string()),
        1 => prop::sample::select(vec![
            "p", "cnf", "p cnf", "c", "c comment", "%", "-", "--1", "+1", "1.5", "0x1",
            "\u{feff}", "\0", "\r", "\t", "9223372036854775808", "18446744073709551616",
            "-9223372036854775808", "67108864", "67108865", "4294967296", "1c", "0c",
        ])
        .prop_map(str::to_string),
        1 => "[ -~]{0,6}",
    ]
}

/// A DIMACS-like text: a header (mostly small counts, sometimes extreme
/// or missing), then lines of tokens.
fn dimacs_text() -> impl Strategy<Value = String> {
    let count = prop_oneof![
        8 => 0u64..8,
        1 => Just(1 << 26),
        1 => Just((1 << 26) + 1),
        1 => Just(u64::from(u32::MAX)),
        1 => Just(u64::MAX)
    ];
    (
        prop::option::weighted(0.9, (count.clone(), count)),
        prop::collection::vec(prop::collection::vec(dimacs_token(), 0..6), 0..8),
    )
        .prop_map(|(header, lines)| {
            let mut text = String::new();
            if let Some((v, c)) = header {
                text.push_str(&format!("p cnf {v} {c}\n"));
            }
            for l in lines {
                text.push_str(&l.join(" "));
                text.push('\n');
            }
            text
        })
}

/// A well-formed formula: (variables, clauses).
fn formula() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (1u32..8).prop_flat_map(|n| {
        let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        (
            Just(n),
            prop::collection::vec(prop::collection::vec(lit, 0..4), 0..6),
        )
    })
}

/// DIMACS text of a formula; `comments[i]` puts a comment after clause i's 0.
fn formula_text(n: u32, clauses: &[Vec<i32>], comments: &[bool]) -> String {
    let mut text = format!("p cnf {n} {}\n", clauses.len());
    for (i, c) in clauses.iter().enumerate() {
        for x in c {
            text.push_str(&format!("{x} "));
        }
        text.push('0');
        if comments.get(i) == Some(&true) {
            text.push_str(" c a comment 1 2 0");
        }
        text.push('\n');
    }
    text
}

/// What a read gave, comparable: the clauses in DIMACS numbers, or the message.
fn outcome(bytes: &[u8]) -> Result<(u32, Vec<Vec<i32>>), String> {
    read_cnf(bytes)
        .map(|cnf| {
            let clauses = cnf
                .clauses()
                .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
                .collect();
            (cnf.n_vars(), clauses)
        })
        .map_err(|e| e.to_string())
}

fn check_dimacs(bytes: &[u8]) {
    match read_cnf(bytes) {
        Ok(cnf) => {
            // what was accepted is a formula over its declared variables
            assert!(cnf
                .clauses()
                .flatten()
                .all(|l| l.var().idx32() < cnf.n_vars()));
        }
        Err(e) => {
            let msg = e.to_string();
            assert_one_line(&msg, bytes);
            assert!(msg.starts_with("line "), "no line number: {msg}");
        }
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// Solver output lines: status lines, `v` lines, MiniSat's words, garbage.
fn output_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        prop::sample::select(vec![
            "s SATISFIABLE",
            "s UNSATISFIABLE",
            "s UNKNOWN",
            "s MAYBE",
            "s",
            "SAT",
            "UNSAT",
            "INDET",
            "c solver says hi",
            "v 0",
            "v",
            "\0",
            "\u{feff}s SATISFIABLE",
            "s \0",
            "v \0 1 0",
            "v 1 \u{1b}[31m 0",
            "s SATISFIABLE\r",
            "v 1 -2 0\r",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(dimacs_token(), 0..6).prop_map(|t| format!("v {}", t.join(" "))),
        prop::collection::vec(dimacs_token(), 0..6).prop_map(|t| t.join(" ")),
    ];
    prop::collection::vec(line, 0..8).prop_map(|l| l.join("\n"))
}

/// Grid text for givens and goals: about `n` rows of about `n` cells from
/// a small alphabet (the odd cell where a parser's error shows).
fn grid_text(n: usize) -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        6 => (0u64..12).prop_map(|x| x.to_string()),
        1 => any::<u64>().prop_map(|x| x.to_string()),
        1 => prop::sample::select(vec![
            ".", "_", "-1", "#", "# comment", "\0", "\u{feff}", "\r", ",", "x", "\u{1b}[31m",
            "18446744073709551616",
        ])
        .prop_map(str::to_string),
    ]
    .boxed();
    let size = move || prop_oneof![4 => Just(n), 1 => 0..n + 2];
    let row = size().prop_flat_map(move |w| prop::collection::vec(cell.clone(), w));
    size()
        .prop_flat_map(move |h| prop::collection::vec(row.clone(), h))
        .prop_map(|rows| {
            rows.iter()
                .map(|r| r.join(" "))
                .collect::<Vec<_>>()
                .join("\n")
        })
}

/// TOML assembled from an instance file's (or a spec's) keys with odd values.
fn toml_text(keys: &'static [&'static str]) -> impl Strategy<Value = String> {
    let value = prop_oneof![
        (-3i64..12).prop_map(|x| x.to_string()),
        any::<i64>().prop_map(|x| x.to_string()),
        prop::sample::select(vec![
            "nan",
            "inf",
            "-inf",
            "1e300",
            "-1.0",
            "0.5",
            "true",
            "\"\"",
            "\"enigma\"",
            "\"3..5\"",
            "\"3..1000000000\"",
            "\"-9223372036854775808..9223372036854775807\"",
            "[3, 4]",
            "[]",
            "[\"none\", \"cycles\"]",
            "\"\"\"\n. 1\n2 .\n\"\"\"",
            "\"\"\"\n. . .\n. . .\n. . .\n\"\"\"",
            "\"\\u0000\"",
            "{ a = 1 }",
            "= =",
        ])
        .prop_map(str::to_string),
    ];
    let line = (prop::sample::select(keys.to_vec()), value).prop_map(|(k, v)| format!("{k} = {v}"));
    prop::collection::vec(line, 0..7).prop_map(|l| l.join("\n"))
}

const INSTANCE_KEYS: &[&str] = &["name", "source", "rows", "cols", "tour", "grid", "colour"];
const SPEC_KEYS: &[&str] = &[
    "name",
    "puzzle",
    "size",
    "sizes",
    "repeats",
    "timeout",
    "memory",
    "seed",
    "jobs",
    "command",
    "vary.symmetry",
    "fixed.n",
    "exclude",
];

/// Values of numeric options: numbers of every size and form, ranges,
/// lists, and junk (NUL, newline, sign soup).
fn option_value() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        3 => (-20i64..=20).prop_map(|x| x.to_string()),
        1 => any::<i64>().prop_map(|x| x.to_string()),
        1 => any::<f64>().prop_map(|x| x.to_string()),
        1 => any::<u64>().prop_map(|x| format!("{x}0")),
        2 => prop::sample::select(vec![
            "", "0", "-0", "NaN", "nan", "inf", "-inf", "infinity", "1e300", "1e-300",
            "18446744073709551616", "-9223372036854775808", "0x10", "+5", "--1", "1_000",
            " 7 ", "\0", "\n", "é", "\u{feff}3",
        ])
        .prop_map(str::to_string),
        1 => "[ -~]{0,5}",
    ];
    prop_oneof![
        3 => atom.clone(),
        1 => (atom.clone(), atom.clone()).prop_map(|(a, b)| format!("{a}..{b}")),
        1 => (atom.clone(), atom.clone()).prop_map(|(a, b)| format!("{a}..={b}")),
        1 => prop::collection::vec(atom, 0..4).prop_map(|v| v.join(",")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_dimacs_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_dimacs(&bytes);
    }

    #[test]
    fn fuzz_dimacs_tokens(text in dimacs_text()) {
        check_dimacs(text.as_bytes());
    }

    #[test]
    fn fuzz_dimacs_compressed(text in dimacs_text(), cut in any::<prop::sample::Index>()) {
        let packed = gzip(text.as_bytes());
        // gzip-compressed input reads exactly as the plain text does
        prop_assert_eq!(outcome(&packed), outcome(text.as_bytes()));
        // truncated compressed data is an error with a line, not a panic
        check_dimacs(&packed[..cut.index(packed.len() + 1)]);
    }

    #[test]
    fn fuzz_dimacs_comments_after_literals((n, clauses) in formula(), comments in prop::collection::vec(any::<bool>(), 6)) {
        // CaDiCaL's leniency: a comment after a clause's 0 changes nothing
        let plain = formula_text(n, &clauses, &[]);
        let commented = formula_text(n, &clauses, &comments);
        prop_assert_eq!(outcome(commented.as_bytes()), Ok((n, clauses)));
        prop_assert_eq!(outcome(plain.as_bytes()), outcome(commented.as_bytes()));
    }

    #[test]
    fn fuzz_solver_output(text in output_text(), n_vars in prop_oneof![0u32..40, Just(u32::MAX)]) {
        match parse(&text, n_vars.min(1 << 20)) {
            Ok(SolverAnswer::Sat(model)) => prop_assert_eq!(model.len(), n_vars.min(1 << 20) as usize),
            Ok(_) => {}
            Err(e) => {
                let msg = e.to_string();
                assert_one_line(&msg, text.as_bytes());
                prop_assert!(msg.starts_with("line "), "no line number: {}", msg);
            }
        }
    }

    #[test]
    fn fuzz_instance_toml(text in toml_text(INSTANCE_KEYS)) {
        if let Err(e) = puzzlesat::puzzles::rook_tour::model::Instance::from_toml(&text, "fuzz.toml") {
            let msg = e.to_string();
            assert_one_line(&msg, text.as_bytes());
            prop_assert!(msg.starts_with("fuzz.toml:"), "no place: {}", msg);
        }
    }

    #[test]
    fn fuzz_magic_givens(text in (1usize..6).prop_flat_map(grid_text)) {
        if let Err(e) = puzzlesat::puzzles::magic::Givens::parse(&text) {
            assert_one_line(&e.to_string(), text.as_bytes());
        }
    }

    #[test]
    fn fuzz_alien_tiles_grids((n, text) in (1usize..6).prop_flat_map(|n| (Just(n), grid_text(n))), c in 1u32..6) {
        if let Err(e) = puzzlesat::puzzles::alien_tiles::model::Grid::parse(&text, n, c) {
            assert_one_line(&format!("{e:#}"), text.as_bytes());
        }
    }

    #[test]
    fn fuzz_experiment_spec(text in toml_text(SPEC_KEYS)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spec.toml");
        std::fs::write(&path, &text).unwrap();
        match puzzlesat::experiment::Grid::from_file(&path) {
            // what is accepted can be expanded (no unbounded grid got through)
            Ok(g) => prop_assert!(g.expand().len() <= 1_000_000),
            Err(e) => assert_one_line(&format!("{e:#}"), text.as_bytes()),
        }
    }

    #[test]
    fn fuzz_numeric_option_values(text in option_value()) {
        use puzzlesat::experiment::grid::{parse_assignment, parse_values};
        use puzzlesat::values::{self, Seconds};
        match text.parse::<Seconds>() {
            // what is accepted converts to a Duration without panicking
            Ok(s) => prop_assert!(s.get() > 0.0 && s.duration().as_secs_f64() <= 1e7),
            Err(e) => assert_one_line(&e, text.as_bytes()),
        }
        match values::parse_in_range(&text, 1u32, 1000, "repeats") {
            Ok(r) => prop_assert!((1..=1000).contains(&r)),
            Err(e) => assert_one_line(&e, text.as_bytes()),
        }
        match parse_values(&text) {
            Ok(v) => prop_assert!(!v.is_empty() && v.len() as u64 <= values::MAX_RANGE_VALUES),
            Err(e) => assert_one_line(&format!("{e:#}"), text.as_bytes()),
        }
        if let Err(e) = parse_assignment(&format!("n={text}")) {
            assert_one_line(&format!("{e:#}"), text.as_bytes());
        }
        // the --table range: no panic, and what is accepted is not empty
        if let Ok(r) = text.parse::<puzzlesat::cli::enigma::SizeRange>() {
            prop_assert!(r.from <= r.to);
        }
    }
}
