//! `--svg FILE`: a picture of every answer, for every family. Each file is
//! checked to be well-formed SVG (one `<svg>` root, every element closed in
//! order, attributes quoted) holding the elements the answer needs: 8
//! queens, a path through the whole board, the n points of a permutation's
//! cycles, 16 numbers of a magic square, the colours of an Alien Tiles goal.

use crate::common;

use std::path::Path;

/// Runs `puzzlesat args --svg FILE` and returns the file's text.
fn drawn(dir: &Path, name: &str, args: &[&str]) -> String {
    let file = dir.join(name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--svg", file.to_str().unwrap()]);
    let (code, out, err) = common::run(&all);
    assert_eq!(code, Some(10), "{args:?}: {out}{err}");
    assert!(err.contains("answer(s) drawn in"), "{err}");
    let text = std::fs::read_to_string(&file).expect("the SVG file is written");
    well_formed(&text);
    text
}

/// A small XML well-formedness check: one root `svg` element, tags nested
/// and closed in order, every attribute value quoted.
fn well_formed(text: &str) {
    let mut stack: Vec<String> = vec![];
    let mut roots = 0;
    let mut rest = text.trim();
    if rest.starts_with("<?xml") {
        rest = &rest[rest.find("?>").expect("the declaration ends") + 2..];
    }
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("a tag ends") + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "closing {name}");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
        // attributes: name="value" pairs
        let attrs = body[name.len()..].trim();
        assert_eq!(
            attrs.matches('"').count() % 2,
            0,
            "unquoted attribute in <{tag}>"
        );
        for part in attrs.split('"').step_by(2) {
            let part = part.trim();
            assert!(
                part.is_empty() || part.ends_with('='),
                "attribute {part:?} in <{tag}>"
            );
        }
        if stack.is_empty() {
            roots += 1;
            assert_eq!(name, "svg", "the root element");
        }
        if !self_closing {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1);
}

#[test]
fn every_family_draws_its_answers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 8 queens: a disc each on a chequered board
    let q = drawn(d, "q.svg", &["solve", "queens", "-n", "8"]);
    assert_eq!(q.matches("<circle").count(), 8);
    // every answer: the 4 placements of n = 6, side by side
    let q6 = drawn(d, "q6.svg", &["solve", "queens", "-n", "6", "--all"]);
    assert_eq!(q6.matches("<circle").count(), 4 * 6);
    // the rook tour: one path through the 36 cells, the marked cells shaded
    let r = drawn(
        d,
        "r.svg",
        &[
            "solve",
            "rook-tour",
            "--instance",
            "instances/numbrix-6x6.toml",
        ],
    );
    assert_eq!(r.matches("<polyline").count(), 1);
    let points = r
        .split("<polyline")
        .nth(1)
        .and_then(|p| p.split("points=\"").nth(1))
        .and_then(|p| p.split('"').next())
        .unwrap();
    assert_eq!(points.split_whitespace().count(), 36, "{points}");
    assert!(
        r.contains("#CDCDCD") || r.contains("#cdcdcd"),
        "shaded cells"
    );
    // Enigma: the board and the n = 8 points of its permutation's cycles
    let e = drawn(d, "e.svg", &["solve", "enigma", "-n", "8"]);
    assert_eq!(e.matches("<circle").count(), 8);
    assert!(e.contains("<polygon"), "arrow heads");
    assert!(e.contains("total 544"), "{e}");
    // a magic square: its 16 numbers
    let m = drawn(d, "m.svg", &["solve", "magic", "-n", "4"]);
    for v in 1..=16 {
        assert!(m.contains(&format!(">\n{v}\n</text>")), "{v} in the square");
    }
    // Alien Tiles: the goal's cells in colours, the clicks as numbers
    let a = drawn(
        d,
        "a.svg",
        &["solve", "alien-tiles", "-n", "3", "-c", "3", "--hardest"],
    );
    assert!(a.matches("<rect").count() > 2 * 9, "{a}");
    // the title, wrapped to the 3-cell picture's width
    assert!(
        a.contains(">\ngoal in 3\n<") && a.contains(">\ncolours;\n<"),
        "{a}"
    );
}

#[test]
fn nothing_to_draw_is_said_and_sat_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("none.svg");
    let (code, _, err) = common::run(&[
        "solve",
        "queens",
        "-n",
        "3",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(20), "{err}");
    assert!(err.contains("no answer to draw"), "{err}");
    assert!(!file.exists());
    let (code, _, err) = common::run(&[
        "sat",
        "tests/cnf/php-4-3.cnf",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--svg draws a puzzle's answers"), "{err}");
}
