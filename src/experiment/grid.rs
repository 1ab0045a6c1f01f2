//! The grid of an experiment: a spec (TOML file or command-line flags)
//! expanded into jobs, the cross product size × fixed options × varied
//! options × repeats. The sizes may be a folder's OPB files (`instances`),
//! each run as `solve pb FILE`. Each job knows its worker command line
//! (`puzzlesat solve <puzzle> <flags> --timeout S --seed K --json`) and its
//! key (the parameters and the repeat), which names its row in the results
//! and its output files, so a rerun can skip the rows already done.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

use crate::values::{self, Seconds};

/// Names the worker sets itself; a spec cannot use them as parameters.
const RESERVED: &[&str] = &["timeout", "seed", "json", "quiet", "verbose"];

/// The spec's own top-level fields that no `solve` flag shares (`size` and
/// `jobs` are also flags: `--size`, `--jobs`).
const SPEC_FIELDS: &[&str] = &[
    "name",
    "question",
    "puzzle",
    "sizes",
    "instances",
    "repeats",
    "timeout",
    "memory",
    "seed",
    "out",
    "command",
];

/// The size parameter of an `instances` folder's files (default).
pub const FILE_PARAM: &str = "file";

/// An experiment spec as written in `experiments/*.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// name of the experiment (default: the file's stem)
    pub name: Option<String>,
    /// what the experiment asks, printed above its summary
    pub question: Option<String>,
    /// the `solve` subcommand (e.g. "enigma", "rook-tour")
    pub puzzle: String,
    /// the parameter that is the instance size, the x axis of the plots
    /// (default "n"); `sizes` are its values
    pub size: Option<String>,
    /// "3..8" (inclusive), or a list of values (numbers or file names)
    pub sizes: Option<SizesField>,
    /// a folder whose OPB files (`*.opb`, `.opb.gz`, `.opb.xz`,
    /// `.opb.bz2`) are the instances, in name order, each given to the
    /// `pb` command as its file (instead of `sizes`)
    pub instances: Option<PathBuf>,
    /// options passed to every run: `flag = value`
    #[serde(default)]
    pub fixed: BTreeMap<String, toml::Value>,
    /// options varied in the grid: `flag = [values]`
    #[serde(default)]
    pub vary: BTreeMap<String, Vec<toml::Value>>,
    /// combinations left out of the cross product: each table lists
    /// `flag = value` pairs, and a job matching all of them is skipped
    #[serde(default)]
    pub exclude: Vec<BTreeMap<String, toml::Value>>,
    /// runs per grid point (each with seed = seed + repeat)
    pub repeats: Option<u32>,
    /// wall-clock limit per run, seconds
    pub timeout: Option<f64>,
    /// address-space limit per run, MiB (0: none)
    pub memory: Option<u64>,
    /// base seed
    pub seed: Option<u64>,
    /// parallel runs on this machine
    pub jobs: Option<usize>,
    /// results directory (default: `results/<name>`)
    pub out: Option<PathBuf>,
    /// worker program and leading arguments, replacing this `puzzlesat`
    pub command: Option<Vec<String>>,
}

/// `sizes = "3..8"` or `sizes = [3, 4, 5]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum SizesField {
    /// a range "a..b" (inclusive) or a comma list
    Text(String),
    /// explicit values
    List(Vec<toml::Value>),
}

/// A normalised experiment: what every entry point (spec file, flags,
/// emit-jobs, collect) works from.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// experiment name (used in rows and as the default results folder)
    pub name: String,
    /// the question, for the summary header
    pub question: Option<String>,
    /// the `solve` subcommand
    pub puzzle: String,
    /// the size parameter and its values (empty name: no size axis)
    pub size_param: String,
    /// values of the size parameter
    pub sizes: Vec<String>,
    /// the sizes are files given as the subcommand's argument (`solve pb
    /// FILE`), not as a flag
    pub positional: bool,
    /// options common to every run
    pub fixed: Vec<(String, String)>,
    /// varied options, each with its values
    pub vary: Vec<(String, Vec<String>)>,
    /// combinations left out (a job matching every pair of one entry)
    pub exclude: Vec<Vec<(String, String)>>,
    /// runs per grid point
    pub repeats: u32,
    /// wall-clock limit per run, seconds
    pub timeout: f64,
    /// address-space limit per run, MiB (None: no limit)
    pub memory_mib: Option<u64>,
    /// base seed (None: no `--seed` unless repeats > 1, which count from 0)
    pub seed: Option<u64>,
    /// parallel runs
    pub jobs: usize,
    /// results directory
    pub out: PathBuf,
    /// worker program and leading arguments (None: this executable)
    pub command: Option<Vec<String>>,
}

/// One run of the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// parameters in command-line order: size, fixed, varied
    pub params: Vec<(String, String)>,
    /// repeat index (0-based)
    pub repeat: u32,
    /// seed passed to the worker (`--seed`): base + repeat, so repeats
    /// search differently; None: the solver's default search
    pub seed: Option<u64>,
    /// canonical key: puzzle, sorted parameters, repeat
    pub key: String,
    /// short stable name derived from the key (output file names)
    pub id: String,
}

impl Grid {
    /// Reads a spec file.
    pub fn from_file(path: &Path) -> anyhow::Result<Self> {
        let text = crate::io::input::read_text(path)?;
        let spec: SpecFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!(crate::io::toml_error(path, &text, &e)))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        Self::from_spec(spec, &stem).with_context(|| format!("in {}", path.display()))
    }

    /// Normalises a parsed spec (`default_name` when it names none).
    pub fn from_spec(spec: SpecFile, default_name: &str) -> anyhow::Result<Self> {
        // the TOML trap: a top-level field written after `[fixed]` or
        // `[vary]` lands in that table, as a solve flag
        let misplaced = spec
            .fixed
            .keys()
            .map(|k| ("fixed", k))
            .chain(spec.vary.keys().map(|k| ("vary", k)))
            .find(|(_, k)| SPEC_FIELDS.contains(&k.as_str()));
        if let Some((table, k)) = misplaced {
            bail!("[{table}] sets {k:?}, a field of the spec itself, set by the experiment and not a solve flag: TOML puts every key written after a [table] header into that table, so write `{k} = ...` above the first [table]");
        }
        let name = spec.name.unwrap_or_else(|| default_name.to_string());
        let positional = spec.instances.is_some();
        let size_param = spec
            .size
            .unwrap_or_else(|| if positional { FILE_PARAM } else { "n" }.to_string());
        let sizes = match (spec.sizes, &spec.instances) {
            (Some(_), Some(dir)) => bail!(
                "sizes and instances = {:?}: the instances are the folder's files; give one of them",
                dir.display().to_string()
            ),
            (None, Some(dir)) => opb_files(dir)?,
            (None, None) => vec![],
            (Some(SizesField::Text(t)), None) => {
                parse_values(&t).with_context(|| format!("sizes = {t:?}"))?
            }
            (Some(SizesField::List(l)), None) => l
                .iter()
                .map(|v| value_text(v, "sizes"))
                .collect::<anyhow::Result<_>>()?,
        };
        let fixed = spec
            .fixed
            .iter()
            .map(|(k, v)| Ok((k.clone(), value_text(v, k)?)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let vary = spec
            .vary
            .iter()
            .map(|(k, vs)| {
                Ok((
                    k.clone(),
                    vs.iter()
                        .map(|v| value_text(v, k))
                        .collect::<anyhow::Result<Vec<_>>>()?,
                ))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let exclude = spec
            .exclude
            .iter()
            .map(|t| {
                t.iter()
                    .map(|(k, v)| Ok((k.clone(), value_text(v, k)?)))
                    .collect::<anyhow::Result<Vec<_>>>()
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let grid = Grid {
            exclude,
            out: spec
                .out
                .unwrap_or_else(|| PathBuf::from("results").join(&name)),
            name,
            question: spec.question,
            puzzle: spec.puzzle,
            size_param: if sizes.is_empty() {
                String::new()
            } else {
                size_param
            },
            sizes,
            positional,
            fixed,
            vary,
            repeats: spec.repeats.unwrap_or(1),
            timeout: spec.timeout.unwrap_or(60.0),
            memory_mib: memory_limit(spec.memory),
            seed: spec.seed,
            jobs: spec.jobs.unwrap_or(1),
            command: spec.command,
        };
        grid.validate()?;
        Ok(grid)
    }

    /// Checks names and values (clear errors instead of odd command lines).
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.puzzle.is_empty() || self.puzzle.starts_with('-') {
            bail!(
                "puzzle {:?}: expected a `solve` subcommand such as enigma",
                self.puzzle
            );
        }
        let (lo, hi) = values::REPEATS;
        values::in_range(self.repeats, lo, hi, "repeats").map_err(anyhow::Error::msg)?;
        Seconds::new(self.timeout).map_err(|e| anyhow::anyhow!("timeout: {e}"))?;
        let (lo, hi) = values::JOBS;
        values::in_range(self.jobs, lo, hi, "jobs").map_err(anyhow::Error::msg)?;
        if let Some(m) = self.memory_mib {
            values::in_range(m, 0, values::MAX_MEMORY_MIB, "memory (MiB)")
                .map_err(anyhow::Error::msg)?;
            if let Some(hard) = values::hard_memory_limit_mib().filter(|&h| m > h) {
                bail!("memory {m} MiB: above this process's hard address-space limit of {hard} MiB, which a run cannot exceed");
            }
        }
        let rows = self.row_count();
        if rows > values::MAX_ROWS {
            bail!(
                "the grid has {rows} rows (sizes x varied values x repeats), more than the {} one experiment runs: split it",
                values::MAX_ROWS
            );
        }
        if self.positional && self.puzzle != "pb" {
            bail!(
                "instances: a folder of OPB files is read by the pb command (puzzle = \"pb\"), not by {}",
                self.puzzle
            );
        }
        if matches!(&self.command, Some(c) if c.is_empty()) {
            bail!("command must name a program");
        }
        let mut seen = std::collections::BTreeSet::new();
        let names = std::iter::once(self.size_param.as_str())
            .filter(|s| !s.is_empty())
            .chain(self.fixed.iter().map(|(k, _)| k.as_str()))
            .chain(self.vary.iter().map(|(k, _)| k.as_str()));
        for name in names {
            if name.is_empty() || name.starts_with('-') || name.contains(char::is_whitespace) {
                bail!("parameter {name:?}: expected a flag name without dashes, e.g. symmetry");
            }
            if RESERVED.contains(&name) {
                bail!("parameter {name:?} is set by the experiment itself (use the spec's `{name}` field)");
            }
            if !seen.insert(name) {
                bail!("parameter {name:?} is given twice (size, fixed or vary)");
            }
        }
        for entry in &self.exclude {
            for (k, _) in entry {
                if !seen.contains(k.as_str()) {
                    bail!("exclude: {k:?} is not a parameter of the grid");
                }
            }
        }
        for (k, vs) in &self.vary {
            if vs.is_empty() {
                bail!("vary {k}: no values");
            }
        }
        Ok(())
    }

    /// The number of rows before exclusions (sizes × varied values ×
    /// repeats), computed without building them and saturating.
    pub fn row_count(&self) -> u64 {
        self.vary
            .iter()
            .map(|(_, vs)| vs.len() as u64)
            .fold(self.sizes.len().max(1) as u64, u64::saturating_mul)
            .saturating_mul(u64::from(self.repeats))
    }

    /// The varied parameters (not the size): what the summaries group by.
    pub fn varied_names(&self) -> Vec<String> {
        self.vary.iter().map(|(k, _)| k.clone()).collect()
    }

    /// The cross product, in a fixed order: sizes outermost (so the small
    /// instances of every configuration come first), then the varied options
    /// (first one outermost), then repeats.
    pub fn expand(&self) -> Vec<Job> {
        let sizes: Vec<Option<&String>> = if self.sizes.is_empty() {
            vec![None]
        } else {
            self.sizes.iter().map(Some).collect()
        };
        let mut combos: Vec<Vec<(String, String)>> = vec![vec![]];
        for (k, vs) in &self.vary {
            combos = combos
                .iter()
                .flat_map(|c| {
                    vs.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((k.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        let mut jobs = vec![];
        for size in &sizes {
            for combo in &combos {
                for repeat in 0..self.repeats {
                    let mut params = vec![];
                    if let Some(s) = size {
                        params.push((self.size_param.clone(), (*s).clone()));
                    }
                    params.extend(self.fixed.iter().cloned());
                    params.extend(combo.iter().cloned());
                    if self.excluded(&params) {
                        continue;
                    }
                    jobs.push(Job::new(&self.puzzle, params, repeat, self.seed_of(repeat)));
                }
            }
        }
        jobs
    }

    /// The seed of a repeat: base + repeat when a base seed is given or the
    /// grid repeats (so repeats differ by more than timing noise), else none.
    pub fn seed_of(&self, repeat: u32) -> Option<u64> {
        match (self.seed, self.repeats) {
            (None, 0 | 1) => None,
            (base, _) => Some(base.unwrap_or(0).saturating_add(u64::from(repeat))),
        }
    }

    /// Whether some `exclude` entry matches every one of its pairs in `params`.
    fn excluded(&self, params: &[(String, String)]) -> bool {
        self.exclude
            .iter()
            .any(|e| !e.is_empty() && e.iter().all(|pair| params.contains(pair)))
    }

    /// The worker's program and arguments for `job`.
    pub fn command_line(&self, job: &Job) -> Vec<String> {
        let mut cmd = match &self.command {
            Some(c) => c.clone(),
            None => vec![std::env::current_exe()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "puzzlesat".into())],
        };
        cmd.push("solve".into());
        cmd.push(self.puzzle.clone());
        for (k, v) in &job.params {
            if self.positional && *k == self.size_param {
                cmd.push(v.clone());
                continue;
            }
            match v.as_str() {
                "true" => cmd.push(flag(k)),
                "false" => {}
                _ => {
                    cmd.push(flag(k));
                    cmd.push(v.clone());
                }
            }
        }
        cmd.extend(["--timeout".into(), format_seconds(self.timeout)]);
        if let Some(seed) = job.seed {
            cmd.extend(["--seed".into(), seed.to_string()]);
        }
        cmd.push("--json".into());
        cmd
    }
}

/// The OPB files of the folder `dir` (plain or compressed), in name
/// order, as paths under `dir`.
pub fn opb_files(dir: &Path) -> anyhow::Result<Vec<String>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("instances {}", dir.display()))?;
    let mut files = vec![];
    for entry in entries {
        let path = entry
            .with_context(|| format!("instances {}", dir.display()))?
            .path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let opb = [".opb", ".opb.gz", ".opb.xz", ".opb.bz2"]
            .iter()
            .any(|e| name.ends_with(e));
        if opb && path.is_file() {
            files.push(path.to_string_lossy().into_owned());
        }
    }
    if files.is_empty() {
        bail!(
            "instances {}: no OPB file (*.opb, *.opb.gz, *.opb.xz, *.opb.bz2) in that folder",
            dir.display()
        );
    }
    files.sort();
    Ok(files)
}

/// Default address-space limit per run (lowered to this process's hard
/// limit where that is lower: a child cannot be given more).
pub const DEFAULT_MEMORY_MIB: u64 = 8192;

/// The limit per run from a spec's or `--memory`'s value: 0 is none,
/// nothing is the default.
pub fn memory_limit(given: Option<u64>) -> Option<u64> {
    match given {
        Some(0) => None,
        Some(m) => Some(m),
        None => Some(
            values::hard_memory_limit_mib()
                .map_or(DEFAULT_MEMORY_MIB, |h| h.min(DEFAULT_MEMORY_MIB)),
        ),
    }
}

impl Job {
    /// A job with its key and id computed.
    pub fn new(
        puzzle: &str,
        params: Vec<(String, String)>,
        repeat: u32,
        seed: Option<u64>,
    ) -> Self {
        let sorted: BTreeMap<&str, &str> = params
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let key =
            serde_json::json!({ "puzzle": puzzle, "params": sorted, "repeat": repeat }).to_string();
        let id = format!("{:016x}", fnv1a(key.as_bytes()));
        Job {
            params,
            repeat,
            seed,
            key,
            id,
        }
    }
}

/// `n` → `-n`, `symmetry` → `--symmetry` (clap's short and long forms).
fn flag(name: &str) -> String {
    if name.chars().count() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

/// Seconds without a trailing `.0` for whole numbers.
pub fn format_seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and release
/// (std's hasher promises neither), for file names shared by a cluster.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A spec value as command-line text.
fn value_text(v: &toml::Value, what: &str) -> anyhow::Result<String> {
    Ok(match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        other => bail!("{what}: expected a string, number or boolean, found {other}"),
    })
}

/// "3..8" (inclusive; "3..=8" too), "3,4,6", or "a.toml,b.toml".
pub fn parse_values(text: &str) -> anyhow::Result<Vec<String>> {
    let text = text.trim();
    if let Some((a, b)) = text.split_once("..") {
        let b = b.strip_prefix('=').unwrap_or(b);
        let lo: i64 = a
            .trim()
            .parse()
            .with_context(|| format!("range start {a:?} is not an integer"))?;
        let hi: i64 = b
            .trim()
            .parse()
            .with_context(|| format!("range end {b:?} is not an integer"))?;
        if lo > hi {
            bail!("empty range {text} (ranges are inclusive: 3..8 is 3 to 8)");
        }
        let count = (i128::from(hi) - i128::from(lo) + 1) as u128;
        if count > u128::from(values::MAX_RANGE_VALUES) {
            bail!(
                "range {text} has {count} values, more than the {} a range may have",
                values::MAX_RANGE_VALUES
            );
        }
        return Ok((lo..=hi).map(|v| v.to_string()).collect());
    }
    let vals: Vec<String> = text.split(',').map(|s| s.trim().to_string()).collect();
    if vals.iter().any(String::is_empty) {
        bail!("empty value in {text:?}");
    }
    Ok(vals)
}

/// `name=v1,v2` from `--vary` / `--fixed`.
pub fn parse_assignment(text: &str) -> anyhow::Result<(String, Vec<String>)> {
    let Some((k, v)) = text.split_once('=') else {
        bail!("{text:?}: expected NAME=VALUE[,VALUE...], e.g. symmetry=none,cycles");
    };
    let k = k.trim().trim_start_matches('-').to_string();
    // values may be ranges too: c=2..7
    Ok((k, parse_values(v)?))
}

/// Quotes a word for a POSIX shell (emitted job lines).
pub fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> anyhow::Result<Grid> {
        Grid::from_spec(toml::from_str(text)?, "t")
    }

    #[test]
    fn a_spec_field_written_under_a_table_is_refused_with_the_toml_rule() {
        for (table, method, field) in [
            ("fixed", "\"board\"", "repeats = 2"),
            ("vary", "[\"board\"]", "timeout = [5]"),
        ] {
            let e = spec(&format!(
                "puzzle = \"enigma\"\nsizes = \"3..4\"\n[{table}]\nmethod = {method}\n{field}\n"
            ))
            .unwrap_err()
            .to_string();
            let key = field.split(' ').next().unwrap();
            assert!(
                e.contains(&format!("[{table}] sets \"{key}\""))
                    && e.contains("above the first [table]"),
                "{e}"
            );
        }
        // `jobs` and `size` are also solve flags: kept as parameters
        assert!(spec("puzzle = \"enigma\"\nsizes = \"3..4\"\n[fixed]\njobs = 2\n").is_ok());
    }

    #[test]
    fn cross_product_in_order() {
        let g = spec(
            r#"puzzle = "enigma"
               sizes = "3..4"
               repeats = 2
               [fixed]
               method = "board"
               [vary]
               symmetry = ["none", "cycles"]
               solver = ["batsat", "varisat", "external:cadical"]"#,
        )
        .unwrap();
        let jobs = g.expand();
        assert_eq!(jobs.len(), 2 * 2 * 3 * 2);
        // sizes outermost, then vary (sorted by name in a TOML table: solver, symmetry), then repeats
        let first: Vec<_> = jobs[0]
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        assert_eq!(
            first,
            ["n=3", "method=board", "solver=batsat", "symmetry=none"]
        );
        assert_eq!(
            (jobs[0].repeat, jobs[1].repeat, jobs[0].seed, jobs[1].seed),
            (0, 1, Some(0), Some(1)),
            "repeats search with distinct seeds"
        );
        assert_eq!(jobs[12].params[0], ("n".into(), "4".into()));
        let ids: std::collections::BTreeSet<_> = jobs.iter().map(|j| &j.id).collect();
        assert_eq!(ids.len(), jobs.len(), "every row has its own id");
        let cmd = g.command_line(&jobs[0]);
        assert_eq!(
            cmd[1..].join(" "),
            "solve enigma -n 3 --method board --solver batsat --symmetry none --timeout 60 --seed 0 --json"
        );
    }

    #[test]
    fn key_ignores_parameter_order_and_bool_flags() {
        let a = Job::new(
            "p",
            vec![("a".into(), "1".into()), ("b".into(), "2".into())],
            0,
            Some(0),
        );
        let b = Job::new(
            "p",
            vec![("b".into(), "2".into()), ("a".into(), "1".into())],
            0,
            Some(0),
        );
        assert_eq!(a.id, b.id);
        assert_ne!(a.id, Job::new("p", a.params.clone(), 1, Some(0)).id);
        let g = spec("puzzle = \"magic\"\nsizes = [3]\n[vary]\nall = [true, false]").unwrap();
        let jobs = g.expand();
        assert!(g.command_line(&jobs[0]).contains(&"--all".to_string()));
        assert!(!g.command_line(&jobs[1]).contains(&"--all".to_string()));
    }

    #[test]
    fn excluded_combinations_are_left_out() {
        let g = spec(
            r#"puzzle = "magic"
               sizes = [3, 4]
               exclude = [{ encoding = "direct", sum = "unary" }, { n = 4, sum = "gte" }]
               [vary]
               encoding = ["direct", "order"]
               sum = ["gte", "unary"]"#,
        )
        .unwrap();
        let jobs: Vec<String> = g
            .expand()
            .iter()
            .map(|j| {
                j.params
                    .iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            jobs,
            [
                "3 direct gte",
                "3 order gte",
                "3 order unary",
                "4 order unary"
            ]
        );
        assert!(spec("puzzle = \"m\"\nexclude = [{ x = 1 }]").is_err());
    }

    #[test]
    fn no_sizes_no_vary_is_one_row() {
        let g = spec("puzzle = \"rook-tour\"\n[fixed]\ninstance = \"instances/x.toml\"").unwrap();
        assert_eq!(g.expand().len(), 1);
        assert_eq!(
            g.expand()[0].params,
            vec![("instance".to_string(), "instances/x.toml".to_string())]
        );
    }

    #[test]
    fn bad_specs_are_clear_errors() {
        let err = |t: &str| format!("{:#}", spec(t).unwrap_err());
        assert!(err("puzzle = \"e\"\nsizes = \"8..3\"").contains("empty range"));
        assert!(err("puzzle = \"e\"\n[vary]\ntimeout = [1]").contains("set by the experiment"));
        assert!(err("puzzle = \"e\"\nsizes = [3]\n[fixed]\nn = 4").contains("given twice"));
        assert!(err("puzzle = \"e\"\n[vary]\nx = []").contains("no values"));
        assert!(err("puzzle = \"e\"\nrepeat = 2").contains("unknown field"));
        assert!(parse_assignment("symmetry").is_err());
        assert_eq!(parse_assignment("c=2..4").unwrap().1, ["2", "3", "4"]);
    }

    #[test]
    fn an_instances_folder_is_its_opb_files_given_to_pb() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["b.opb", "a.opb.gz", "notes.txt"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("c.opb")).unwrap();
        let d = dir.path().display().to_string();
        let g = spec(&format!(
            "puzzle = \"pb\"\ninstances = {d:?}\n[vary]\npb = [\"gte\", \"adder\"]"
        ))
        .unwrap();
        let files = [format!("{d}/a.opb.gz"), format!("{d}/b.opb")];
        assert_eq!(g.sizes, files);
        assert_eq!(g.size_param, FILE_PARAM);
        let jobs = g.expand();
        assert_eq!(jobs.len(), 4);
        assert_eq!(
            g.command_line(&jobs[1])[1..].join(" "),
            format!("solve pb {} --pb adder --timeout 60 --json", files[0])
        );
        let err = |t: &str| format!("{:#}", spec(t).unwrap_err());
        let e = err(&format!("puzzle = \"pb\"\nsizes = [3]\ninstances = {d:?}"));
        assert!(e.contains("give one of them"), "{e}");
        let e = err(&format!("puzzle = \"magic\"\ninstances = {d:?}"));
        assert!(e.contains("read by the pb command"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let e = err(&format!(
            "puzzle = \"pb\"\ninstances = {:?}",
            empty.path().display().to_string()
        ));
        assert!(e.contains("no OPB file"), "{e}");
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("external:cadical"), "external:cadical");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
