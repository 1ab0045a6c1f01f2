//! Names the build: `PUZZLESAT_COMMIT` is the git commit the binary was
//! built from (12 hex digits), or `unknown` outside a git checkout. Cube
//! records carry it (`drive::cubes`), so a file written by another build is
//! told apart from this one's.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PUZZLESAT_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // rebuilt when HEAD moves: HEAD itself, the branch it names, packed refs
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
    }
    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
        println!("cargo:rerun-if-changed={common}/packed-refs");
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={common}/{branch}");
        }
    }
}
