//! The lower bounds of docs/alien-tiles.md's frontier table: every witness
//! goal `instances/alien-tiles/NxN-C-V.txt` is played by the row/column
//! minimisation (`solve alien-tiles --goal`, exact) and needs exactly V
//! clicks, proven (issue 43).

use crate::common::run as cli;

/// (n, c, clicks) from a witness's file name `NxN-C-V.txt`; None for other files.
fn witness(name: &str) -> Option<(String, String, u64)> {
    let stem = name.strip_suffix(".txt")?;
    let (size, rest) = stem.split_once('x')?;
    let (size2, rest) = rest.split_once('-')?;
    let (c, v) = rest.split_once('-')?;
    (size == size2 && size.parse::<u32>().is_ok() && c.parse::<u32>().is_ok())
        .then(|| Some((size.to_string(), c.to_string(), v.parse().ok()?)))?
}

#[test]
fn every_witness_needs_the_clicks_its_name_says() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/alien-tiles");
    let mut played = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some((n, c, v)) = witness(&name) else {
            continue;
        };
        let file = format!("instances/alien-tiles/{name}");
        let (code, out, err) = cli(&[
            "solve",
            "alien-tiles",
            "-n",
            &n,
            "-c",
            &c,
            "--goal",
            &file,
            "--json",
            "-q",
        ]);
        assert_eq!(code, Some(10), "{name}: {err}");
        let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(r["status"], "optimal", "{name}: {out}");
        assert_eq!(r["objective"], v, "{name}: {out}");
        assert_eq!(r["bound"], v, "{name}: {out}");
        assert_eq!(
            r["solutions"][0]["minimality_checked"], true,
            "{name}: {out}"
        );
        played.push(name);
    }
    // the frontier's witnesses: 5×5/4, 5×5/6, 6×6/5, 7×7/3, 7×7/4 at least
    for prefix in ["5x5-4-", "5x5-6-", "6x6-5-", "7x7-3-", "7x7-4-"] {
        assert!(
            played.iter().any(|p| p.starts_with(prefix)),
            "no witness {prefix}*.txt in {played:?}"
        );
    }
}
