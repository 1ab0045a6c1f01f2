//! The house in order: imports run one way, down (docs/design.md). Every
//! `crate::…` path in the library's sources (its `use` lines and paths
//! written inline; comments left out) is read and held
//! against the floors below: a module imports only modules on lower floors
//! (or itself). The puzzles stand below the runner: a family's model,
//! encoder and checker know the puzzle contract and the encodings crate,
//! never the runner, the drivers, the front end or a solver.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The floors, ground first. A module on floor k may import the modules of
/// floors below k.
const FLOORS: &[(&str, u32)] = &[
    ("io", 1),
    ("values", 2),
    ("solver", 2),
    ("picture", 2),
    ("checker", 2),
    ("certify", 3),
    ("report", 4),
    ("puzzle", 5),
    ("puzzles", 6),
    ("options", 6),
    ("drive", 7),
    ("run", 8),
    ("methods", 9),
    ("front", 10),
    ("experiment", 11),
    ("cli", 12),
    ("lib", 13),
    ("main", 13),
];

fn floor(module: &str) -> u32 {
    FLOORS
        .iter()
        .find(|(m, _)| *m == module)
        .map(|&(_, f)| f)
        .unwrap_or_else(|| panic!("module '{module}' has no floor: add it to FLOORS"))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/ is readable") {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module a source file belongs to: its first path component under
/// `src/` (`src/puzzles/magic/encode.rs` is in `puzzles`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src/");
    let first = rel.components().next().expect("a path");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// The top-level modules a source text names through `crate::` (in `use`
/// lines, groups `crate::{a, b::c}` included, and inline paths), comments
/// left out.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            // `puzzlesat_encodings::…` is another crate, not `crate::`
            let before = rest[..i].chars().last();
            rest = &rest[i + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Every (file, its module, an imported module) of the library.
fn arrows() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    sources(&src, &mut files);
    files.sort();
    assert!(files.len() > 50, "the sources were not found under {src:?}");
    let mut out = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a readable source");
        let from = module_of(&src, &f);
        let name = f.strip_prefix(&src).unwrap().display().to_string();
        for to in imports(&text) {
            out.push((name.clone(), from.clone(), to));
        }
    }
    out
}

#[test]
fn the_import_reader_reads_use_lines_groups_and_inline_paths() {
    let text = "use crate::drive::{Objective, Sense};\n\
                use crate::{report, puzzle::Puzzle};\n\
                // use crate::front; (a comment)\n\
                let x = crate::run::run(p); // crate::cli in a comment\n\
                use puzzlesat_encodings::solve::Session;\n";
    let got: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(got, ["drive", "puzzle", "report", "run"]);
}

#[test]
fn no_import_runs_back_up() {
    let mut up = vec![];
    for (file, from, to) in arrows() {
        if from != to && floor(&to) >= floor(&from) {
            up.push(format!(
                "{file} (floor {}) imports crate::{to} (floor {})",
                floor(&from),
                floor(&to)
            ));
        }
    }
    assert!(
        up.is_empty(),
        "{} import(s) run back up:\n{}",
        up.len(),
        up.join("\n")
    );
}

#[test]
fn no_puzzle_file_imports_the_runner_the_drivers_a_solver_or_the_front_end() {
    let forbidden = [
        "drive",
        "run",
        "solver",
        "front",
        "cli",
        "options",
        "experiment",
    ];
    let bad: Vec<String> = arrows()
        .into_iter()
        .filter(|(_, from, to)| from == "puzzles" && forbidden.contains(&to.as_str()))
        .map(|(file, _, to)| format!("{file} imports crate::{to}"))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // nor a solver session through the encodings crate: a puzzle never
    // talks to a solver (its stages are data: `puzzle::Staged`)
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/puzzles");
    let mut files = vec![];
    sources(&src, &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        // unit tests may solve their own encodings to check them
        let code = code.split("#[cfg(test)]").next().unwrap_or("");
        for name in ["Session", "MakeBackend", "Backend"] {
            let found = code
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == name);
            assert!(
                !found,
                "{} names {name}: a puzzle never talks to a solver",
                f.display()
            );
        }
    }
}

#[test]
fn the_command_line_only_maps_arguments() {
    // a family's methods (play, the goal search, Enigma's methods and table,
    // magic's stages and line sets) are library calls returning a report
    // (`src/methods/`): no file under src/cli/ implements a cube search or
    // builds a report itself
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files = vec![];
    sources(&src, &mut files);
    assert!(!files.is_empty(), "src/cli/ was not found");
    let mut bad = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let cube_search = code.contains("impl") && code.contains("CubeSearch for");
            let builds = code.contains("Report::new(")
                || code.contains("Report {")
                || code.contains("Report::<");
            if cube_search || builds {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "src/cli/ implements a method (a CubeSearch, or a Report built by hand):\n{}",
        bad.join("\n")
    );
}

/// VeriPB's keywords, as a line of proof syntax starts.
const PROOF_KEYWORDS: &[&str] = &[
    "rup",
    "pol",
    "red",
    "dom",
    "solx",
    "soli",
    "ia",
    "e",
    "del",
    "deld",
    "conclusion",
    "output",
    "proofgoal",
    "qed",
    "def_order",
    "load_order",
    "f",
    "end",
];

/// Whether a string literal's text starts a line of proof syntax: a
/// keyword (after an optional `@label`) followed by a space or `;`.
fn is_proof_syntax(text: &str) -> bool {
    let text = match text.strip_prefix('@') {
        Some(rest) => rest.split_once(' ').map_or("", |(_, r)| r),
        None => text,
    };
    PROOF_KEYWORDS.iter().any(|k| {
        text.strip_prefix(k)
            .is_some_and(|rest| rest.starts_with(' ') || rest.starts_with(';'))
    })
}

/// No proof syntax is written with `format!` outside the proof writer
/// (`encodings/src/proof.rs`, whose `Display` is the one place a step
/// becomes text, and `src/certify/veripb/writer.rs`, which writes the
/// steps); no file wraps hand-written text in a step (`Step::Raw`, which
/// the puzzles' proof files used until their lines became typed steps).
#[test]
fn proof_syntax_is_written_only_by_the_proof_writer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    sources(&root.join("src"), &mut files);
    sources(&root.join("encodings/src"), &mut files);
    let mut found = vec![];
    for file in &files {
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        // the writer: the steps' text, and the ProofWriter that places them
        let writer = ["encodings/src/proof.rs", "src/certify/veripb/writer.rs"];
        if writer.contains(&rel.as_str()) {
            continue;
        }
        // the code without its comment lines (a format! may open on one
        // line and its string start on the next)
        let code: String = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("//") {
                    ""
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let line_of = |at: usize| code[..at].matches('\n').count() + 1;
        for (at, m) in code.match_indices("format!(") {
            let rest = code[at + m.len()..].trim_start();
            if rest.strip_prefix('"').is_some_and(is_proof_syntax) {
                found.push(format!("{rel}:{}: a format! of proof syntax", line_of(at)));
            }
        }
        for (at, _) in code.match_indices("Step::Raw(") {
            found.push(format!("{rel}:{}: Step::Raw", line_of(at)));
        }
    }
    assert!(
        found.is_empty(),
        "proof syntax outside the proof writer:\n{}",
        found.join("\n")
    );
    // the reader sees what it must
    assert!(is_proof_syntax("rup {} >= 1;") && is_proof_syntax("@lexS pol @lexQ1 @lexL +;"));
    assert!(is_proof_syntax("red {c} : x -> 0;") && is_proof_syntax("qed;"));
    assert!(!is_proof_syntax("cube {index}: {}") && !is_proof_syntax("x{}"));
}
