//! The encodings crate as a client uses it: a new crate outside the
//! workspace, depending on `puzzlesat-encodings` alone, whose whole program
//! is `encodings/examples/queens.rs` (under 40 lines, shown verbatim in
//! docs/library.md), must build offline — every dependency resolved from the
//! local registry cache, pinned by the workspace's Cargo.lock — and count
//! the 92 queens.

use std::path::Path;
use std::process::Command;

const EXAMPLE: &str = include_str!("../../encodings/examples/queens.rs");

#[test]
fn the_example_is_short_and_in_the_docs() {
    let lines = EXAMPLE.lines().count();
    assert!(lines < 40, "the client example has {lines} lines");
    let docs = std::fs::read_to_string("docs/library.md").unwrap();
    assert!(
        docs.contains(EXAMPLE),
        "docs/library.md shows encodings/examples/queens.rs verbatim"
    );
}

#[test]
fn a_crate_outside_the_workspace_counts_92_queens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "[package]\nname = \"queens-client\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\npuzzlesat-encodings = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("encodings")
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), EXAMPLE).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .args(["run", "--offline", "--quiet"])
        .current_dir(dir.path())
        // its own target directory, kept between runs (incremental)
        .env("CARGO_TARGET_DIR", root.join("target/library-client"))
        .output()
        .unwrap_or_else(|e| panic!("this test needs cargo ({cargo}): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the client crate failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("92 solutions"), "{stdout}");
}
