//! Docs that run (issue 13): every command in README.md and docs/*.md is
//! run by the built binary in a scratch directory, its exit code asserted,
//! and the answer its text states found in its output.
//!
//! What is run:
//! - in a ```` ```sh ```` block, every command (a line, with its `\`
//!   continuations, a `for … done` loop, a here-document) that starts with
//!   `puzzlesat` or an external DIMACS solver (`cadical`, whose output the
//!   next `decode` reads); the other commands (git, cargo, apt-get, parallel,
//!   sbatch) are listed as not run;
//! - in a ```` ```console ```` block, every `$ ` line, the lines after it
//!   being its output (`$ echo $?` followed by a number: its exit code);
//! - `puzzlesat` lines in other blocks (syntax, templates with placeholders)
//!   are listed as not run.
//!
//! A command whose trailing comment holds `slow:` is listed as skipped, with
//! the reason the docs give. What is checked:
//! - the exit code: `exit N` in the comment, else 0 for `list`, `dimacs`, `opb`, `verify`,
//!   `experiment` and `--table`; 20 where the comment or the excerpt says
//!   unreachable / infeasible / no solution exists / `s UNSATISFIABLE`; 10
//!   otherwise (a solution, a count, a decoded model, a SAT answer);
//! - answers in the trailing comment: `exactly N`, `N classes`, `N clicks`
//!   and `optimal: N` (both "optimal: N" in the output), `certified`,
//!   `s SATISFIABLE` / `s UNSATISFIABLE`;
//! - output excerpts: comment lines right under a command indented by at
//!   least two spaces (`#   optimal: 47 (proven: …)`), or a console block's
//!   output lines (except `c` and `v` lines, whose numbers vary), must occur
//!   in the output (whitespace-normalised; `...` / `…` elide: a line ending
//!   in one is a prefix, a line starting with one is skipped; a note after
//!   `  ~` is a time, not output).
//!
//! Commands that only read (`solve`, `sat`, `list`) are run once however
//! often the docs repeat them; a document's commands that write files run in
//! order in that document's own scratch directory. Two threads run the
//! work, longest first as measured here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

/// Programs a doc may run next to `puzzlesat` (their Debian packages).
const SOLVERS: &[(&str, &str)] = &[("cadical", "cadical")];

/// Seconds one command may take before it counts as hung.
const HARD_LIMIT_SECONDS: u32 = 300;

#[derive(Clone, Debug)]
struct Cmd {
    /// file:line
    place: String,
    /// the shell text, without its trailing comment
    text: String,
    /// the trailing comment (and, for a loop, its lines' comments)
    comment: String,
    /// output excerpts the docs show
    excerpts: Vec<String>,
    /// exit code from a console block's `$ echo $?`
    exit: Option<i32>,
}

#[derive(Default)]
struct Doc {
    commands: Vec<Cmd>,
    /// (place, line, why)
    not_run: Vec<(String, String, String)>,
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

fn is_runnable(text: &str) -> bool {
    let w = first_word(text);
    w == "puzzlesat"
        || SOLVERS.iter().any(|(p, _)| *p == w)
        || (w == "for" && text.contains("puzzlesat "))
}

/// Splits a shell line into code and trailing comment: the first `#`
/// outside quotes that starts a word.
fn split_comment(line: &str) -> (&str, &str) {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, ch) in line.char_indices() {
        match ch {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
        prev = ch;
    }
    (line.trim_end(), "")
}

/// An excerpt line from a comment (`#   text`) or a console block, or None
/// for an elision.
fn excerpt(line: &str) -> Option<String> {
    let mut t = line.trim();
    if let Some(i) = t.find("  ~") {
        t = t[..i].trim_end();
    }
    if t.is_empty() || t.starts_with("...") || t.starts_with('…') {
        return None;
    }
    let t = t
        .trim_end_matches("...")
        .trim_end_matches('…')
        .trim_end_matches(',');
    Some(t.trim_end().to_string())
}

fn parse(file: &str, text: &str) -> Doc {
    let mut doc = Doc::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut lang: Option<&str> = None;
    let mut i = 0;
    // the command that an excerpt comment right below belongs to
    let mut last: Option<usize> = None;
    while i < lines.len() {
        let line = lines[i];
        let place = format!("{file}:{}", i + 1);
        i += 1;
        if let Some(info) = line.strip_prefix("```") {
            lang = match lang {
                None => Some(info.trim()),
                Some(_) => None,
            };
            last = None;
            continue;
        }
        let Some(lang) = lang else { continue };
        match lang {
            "sh" => {
                let trimmed = line.trim_start();
                if trimmed.is_empty() {
                    last = None;
                    continue;
                }
                if let Some(rest) = trimmed.strip_prefix('#') {
                    match last {
                        Some(k) if rest.starts_with("  ") => {
                            doc.commands[k].excerpts.extend(excerpt(rest));
                        }
                        _ => last = None,
                    }
                    continue;
                }
                // one command: continuations, a loop, a here-document
                let mut full = vec![line];
                while full
                    .last()
                    .is_some_and(|l| split_comment(l).0.ends_with('\\'))
                    && i < lines.len()
                {
                    full.push(lines[i]);
                    i += 1;
                }
                if first_word(line) == "for" {
                    let depth = |l: &str| {
                        let code = split_comment(l).0;
                        let words: Vec<&str> = code
                            .split(|c: char| c.is_whitespace() || c == ';')
                            .collect();
                        words.iter().filter(|w| **w == "do").count() as i32
                            - words.iter().filter(|w| **w == "done").count() as i32
                    };
                    let mut d = depth(line);
                    while d > 0 && i < lines.len() {
                        full.push(lines[i]);
                        d += depth(lines[i]);
                        i += 1;
                    }
                }
                if let Some(pos) = line.find("<<") {
                    let tag = line[pos + 2..].trim().trim_matches('\'').trim_matches('"');
                    while i < lines.len() && lines[i].trim() != tag {
                        full.push(lines[i]);
                        i += 1;
                    }
                    full.push(lines.get(i).copied().unwrap_or(""));
                    i += 1;
                }
                let (mut code, mut comment) = (vec![], vec![]);
                for l in &full {
                    let (c, m) = split_comment(l);
                    code.push(c);
                    if !m.is_empty() {
                        comment.push(m);
                    }
                }
                let text = code.join("\n");
                if !is_runnable(&text) {
                    doc.not_run.push((
                        place,
                        full[0].trim().to_string(),
                        "not a puzzlesat command".into(),
                    ));
                    last = None;
                    continue;
                }
                doc.commands.push(Cmd {
                    place,
                    text,
                    comment: comment.join(" "),
                    excerpts: vec![],
                    exit: None,
                });
                last = Some(doc.commands.len() - 1);
            }
            "console" => {
                if let Some(cmd) = line.strip_prefix("$ ") {
                    if cmd == "echo $?" {
                        let code = lines.get(i).and_then(|l| l.trim().parse().ok());
                        let k = last.expect("`$ echo $?` follows a command");
                        doc.commands[k].exit = code;
                        i += 1;
                        continue;
                    }
                    doc.commands.push(Cmd {
                        place,
                        text: cmd.to_string(),
                        comment: String::new(),
                        excerpts: vec![],
                        exit: None,
                    });
                    last = Some(doc.commands.len() - 1);
                } else if let Some(k) = last {
                    if !(line.starts_with("c ") || line.starts_with("v ")) {
                        doc.commands[k].excerpts.extend(excerpt(line));
                    }
                }
            }
            _ => {
                let t = line.trim_start().trim_start_matches("$ ");
                if t.starts_with("puzzlesat ") {
                    doc.not_run.push((
                        place,
                        t.to_string(),
                        format!(
                            "in a `{}` block: syntax or a template",
                            if lang.is_empty() { "plain" } else { lang }
                        ),
                    ));
                }
            }
        }
    }
    doc
}

/// The word after "slow:" and the rest of the comment, if marked slow.
fn slow(c: &Cmd) -> Option<&str> {
    c.comment.find("slow:").map(|i| c.comment[i + 5..].trim())
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == ';' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches([',', '.', ':']).to_string())
        .collect()
}

fn number(w: &str) -> Option<u64> {
    let d: String = w.chars().filter(|c| *c != ',').collect();
    (!d.is_empty() && d.chars().all(|c| c.is_ascii_digit())).then(|| d.parse().ok())?
}

/// What the comment says the output shows: (what, any of these strings).
fn claims(comment: &str) -> Vec<(String, Vec<String>)> {
    let w = words(comment);
    let mut out = vec![];
    for (k, word) in w.iter().enumerate() {
        let next = w.get(k + 1).map(String::as_str).unwrap_or("");
        let prev = if k > 0 { w[k - 1].as_str() } else { "" };
        if let Some(n) = number(word) {
            if prev == "exactly" {
                out.push((format!("exactly {n}"), vec![format!("exactly {n}")]));
            }
            if prev == "optimal" {
                out.push((format!("optimal: {n}"), vec![format!("optimal: {n}")]));
            }
            match next {
                "classes" => out.push((
                    format!("{n} classes"),
                    vec![format!("{n} classes"), format!("{n} symmetry classes")],
                )),
                "clicks" => out.push((format!("{n} clicks"), vec![format!("optimal: {n}")])),
                _ => {}
            }
        }
        if word == "certified" {
            out.push(("certified".into(), vec!["certified".into()]));
        }
        if word == "s" && (next == "UNSATISFIABLE" || next == "SATISFIABLE") {
            out.push((format!("s {next}"), vec![format!("s {next}")]));
        }
    }
    out
}

fn expected_exit(c: &Cmd) -> i32 {
    if let Some(code) = c.exit {
        return code;
    }
    let w = words(&c.comment);
    if let Some(k) = w.iter().position(|x| x == "exit") {
        if let Some(n) = w.get(k + 1).and_then(|n| number(n)) {
            return n as i32;
        }
    }
    let cmd = words(&c.text);
    let sub = cmd.get(1).map(String::as_str).unwrap_or("");
    if cmd[0] != "puzzlesat" && cmd[0] != "for" {
        return 10; // a DIMACS solver: SAT unless the comment says otherwise
    }
    if matches!(sub, "list" | "dimacs" | "opb" | "verify" | "experiment")
        || cmd.iter().any(|x| x == "--table")
    {
        return 0;
    }
    let said = format!("{} {}", c.comment, c.excerpts.join(" ")).to_lowercase();
    if [
        "unreachable",
        "infeasible",
        "no solution exists",
        "s unsatisfiable",
    ]
    .iter()
    .any(|s| said.contains(s))
    {
        20
    } else {
        10
    }
}

/// Commands that only read files can run anywhere, once (`--proof-dir`
/// writes the folder a later `verify` reads).
fn reads_only(c: &Cmd) -> bool {
    let w = words(&c.text);
    w[0] == "puzzlesat"
        && matches!(w.get(1).map(String::as_str), Some("solve" | "sat" | "list"))
        && !c.text.contains('>')
        && !w
            .iter()
            .any(|x| x == "-o" || x == "--cube-file" || x == "--proof-dir")
}

/// `phrase` occurs in `text` as whole words (no digit or letter glued to
/// either end: "exactly 880" is not in "exactly 8800").
fn has_phrase(text: &str, phrase: &str) -> bool {
    let glued = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(phrase).any(|(i, _)| {
        !glued(text[..i].chars().next_back()) && !glued(text[i + phrase.len()..].chars().next())
    })
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Ran {
    code: Option<i32>,
    out: String,
    seconds: f64,
}

fn run_command(dir: &Path, path_env: &str, text: &str) -> Ran {
    let start = Instant::now();
    let o = Command::new("timeout")
        .args([
            "-k",
            "5",
            &HARD_LIMIT_SECONDS.to_string(),
            "bash",
            "-o",
            "pipefail",
            "-c",
            text,
        ])
        .current_dir(dir)
        .env("PATH", path_env)
        .env("PUZZLESAT_PROGRESS_SECONDS", "60")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash and coreutils' timeout");
    Ran {
        code: o.status.code(),
        out: format!(
            "{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Checks one command's run against what the docs say: what was checked, or why it disagrees.
fn verdict(c: &Cmd, r: &Ran) -> Result<String, String> {
    let want = expected_exit(c);
    let tail = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    };
    if r.code != Some(want) {
        return Err(format!(
            "{}: `{}` exited with {:?}, the docs imply {want}; output ends:\n{}",
            c.place,
            c.text,
            r.code,
            tail(&r.out)
        ));
    }
    let out = norm(&r.out) + " ";
    let mut checked = vec![format!("exit {want}")];
    for (what, any) in claims(&c.comment) {
        if !any.iter().any(|s| has_phrase(&out, s)) {
            return Err(format!(
                "{}: `{}`: the comment says `{what}`, not in the output:\n{}",
                c.place,
                c.text,
                tail(&r.out)
            ));
        }
        checked.push(what);
    }
    for e in &c.excerpts {
        if !out.contains(&norm(e)) {
            return Err(format!(
                "{}: `{}`: the docs show `{e}`, not in the output:\n{}",
                c.place,
                c.text,
                tail(&r.out)
            ));
        }
    }
    if !c.excerpts.is_empty() {
        checked.push(format!("{} output lines", c.excerpts.len()));
    }
    Ok(checked.join(", "))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn docs() -> Vec<(String, String)> {
    let mut files = vec!["README.md".to_string()];
    let mut more: Vec<String> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| format!("docs/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    more.sort();
    files.extend(more);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(repo().join(&f)).unwrap();
            (f, text)
        })
        .collect()
}

/// A scratch directory where the docs' relative paths resolve.
fn scratch(bin: &Path) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for sub in ["instances", "experiments", "tests"] {
        std::os::unix::fs::symlink(repo().join(sub), d.path().join(sub)).unwrap();
    }
    std::fs::create_dir(d.path().join(".bin")).unwrap();
    std::os::unix::fs::symlink(bin, d.path().join(".bin/puzzlesat")).unwrap();
    d
}

#[test]
fn parsing_the_docs_conventions() {
    let doc = parse(
        "x.md",
        "```sh\n\
         puzzlesat solve a -n 4 --all   # exactly 7,040, in 166 classes\n\
         #   optimal: 47 (proven)        ~0.7 s\n\
         #   ... 4 grids ...\n\
         # a plain comment\n\
         #   not an excerpt\n\
         puzzlesat experiment --x \\\n    --y 2   # slow: a minute\n\
         for n in 1 2; do\n  puzzlesat solve b -n $n\ndone   # loop\n\
         git clone x\n\
         ```\n\
         ```console\n$ puzzlesat sat f.cnf\ns UNSATISFIABLE\nc 3 vars\n$ echo $?\n20\n```\n\
         ```text\npuzzlesat solve magic -n N\n```\n",
    );
    let texts: Vec<&str> = doc.commands.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "puzzlesat solve a -n 4 --all",
            "puzzlesat experiment --x \\\n    --y 2",
            "for n in 1 2; do\n  puzzlesat solve b -n $n\ndone",
            "puzzlesat sat f.cnf"
        ]
    );
    let c = &doc.commands;
    assert_eq!(c[0].excerpts, ["optimal: 47 (proven)"]);
    let what: Vec<String> = claims(&c[0].comment).into_iter().map(|x| x.0).collect();
    assert_eq!(what, ["exactly 7040", "166 classes"]);
    assert_eq!(slow(&c[1]), Some("a minute"));
    assert_eq!(slow(&c[0]), None);
    assert_eq!((expected_exit(&c[0]), expected_exit(&c[1])), (10, 0));
    assert_eq!((c[3].exit, expected_exit(&c[3])), (Some(20), 20));
    assert_eq!(c[3].excerpts, ["s UNSATISFIABLE"]);
    assert_eq!(doc.not_run.len(), 2, "{:?}", doc.not_run);
    assert!(reads_only(&c[0]) && !reads_only(&c[1]));
}

#[test]
fn a_wrong_exit_code_answer_or_excerpt_is_caught() {
    let doc = parse(
        "x.md",
        "```sh\npuzzlesat solve m --all   # exactly 880\n#   exactly 880 solutions (complete: …\n```\n",
    );
    let c = &doc.commands[0];
    let ran = |code, out: &str| Ran {
        code: Some(code),
        out: out.into(),
        seconds: 0.0,
    };
    let good = "grid\nexactly 880 solutions (complete: final UNSAT)\n";
    assert_eq!(
        verdict(c, &ran(10, good)).unwrap(),
        "exit 10, exactly 880, 1 output lines"
    );
    assert!(verdict(c, &ran(0, good))
        .unwrap_err()
        .contains("exited with Some(0)"));
    let e = verdict(
        c,
        &ran(10, "exactly 8800 solutions (complete: final UNSAT)"),
    )
    .unwrap_err();
    assert!(e.contains("the comment says `exactly 880`"), "{e}");
    let e = verdict(c, &ran(10, "exactly 880 classes")).unwrap_err();
    assert!(
        e.contains("the docs show `exactly 880 solutions (complete:`"),
        "{e}"
    );
}

#[test]
fn every_command_in_the_docs_runs_and_says_what_the_docs_say() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_puzzlesat"));
    for (program, package) in SOLVERS {
        assert!(
            Command::new(program).arg("--version").output().is_ok(),
            "the docs run `{program}`: install it (apt-get install {package}; .ci/run does)"
        );
    }
    let start = Instant::now();
    let shared = scratch(&bin);
    let path_env = format!(
        "{}:{}",
        shared.path().join(".bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // the work: read-only commands once each, each document's file-writing
    // commands in order in a directory of its own
    let mut once: BTreeMap<String, Vec<Cmd>> = BTreeMap::new();
    let mut sequences: Vec<Vec<Cmd>> = vec![];
    let (mut skipped, mut not_run) = (vec![], vec![]);
    for (file, text) in docs() {
        let doc = parse(&file, &text);
        not_run.extend(doc.not_run);
        let mut seq = vec![];
        for c in doc.commands {
            if let Some(why) = slow(&c) {
                skipped.push(format!("{}: {}   (slow: {why})", c.place, c.text));
            } else if reads_only(&c) {
                once.entry(norm(&c.text)).or_default().push(c);
            } else {
                seq.push(c);
            }
        }
        if !seq.is_empty() {
            sequences.push(seq);
        }
    }
    enum Work {
        Once(Vec<Cmd>),
        Sequence(Vec<Cmd>),
    }
    let mut work: Vec<Work> = sequences
        .into_iter()
        .map(Work::Sequence)
        .chain(once.into_values().map(Work::Once))
        .collect();
    // sequences (experiments, proofs) first: they are the long ones
    work.reverse();
    let work = Mutex::new(work);
    let results: Mutex<Vec<(String, Result<String, String>)>> = Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(w) = work.lock().unwrap().pop() else {
                    break;
                };
                let record = |c: &Cmd, r: &Ran| {
                    let v = verdict(c, r).map(|ok| format!("{ok}; {:.1} s", r.seconds));
                    results
                        .lock()
                        .unwrap()
                        .push((format!("{}: {}", c.place, c.text), v));
                };
                match w {
                    Work::Once(cmds) => {
                        let r = run_command(shared.path(), &path_env, &cmds[0].text);
                        for c in &cmds {
                            record(c, &r);
                        }
                    }
                    Work::Sequence(cmds) => {
                        let dir = scratch(&bin);
                        for c in &cmds {
                            let r = run_command(dir.path(), &path_env, &c.text);
                            record(c, &r);
                        }
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut failures = vec![];
    for (what, v) in &results {
        match v {
            Ok(checked) => println!("ran      {what}   [{checked}]"),
            Err(e) => failures.push(e.clone()),
        }
    }
    for s in &skipped {
        println!("SKIPPED  {s}");
    }
    for (place, line, why) in &not_run {
        println!("not run  {place}: {line}   ({why})");
    }
    println!(
        "{} commands run ({} failed), {} skipped as slow, {} lines not run; {:.0} s",
        results.len(),
        failures.len(),
        skipped.len(),
        not_run.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} docs commands disagree with the docs:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        results.len() >= 50,
        "only {} commands found in the docs",
        results.len()
    );
}
