//! A hunt for hard Alien Tiles goals, lower bounds for the open cells of
//! docs/alien-tiles.md (issue 43): simulated annealing with restarts over
//! reachable goals, each scored by its exact fewest clicks
//! (`goals::goal_min`, the minimum over the consistent (T, R, C) of Gent,
//! Linton & Smith, "Symmetry Breaking in the Alien Tiles Puzzle",
//! APES-22-2000). Two moves keep a goal reachable: a rectangle move
//! (+d at (i1, j1), (i2, j2), −d at (i1, j2), (i2, j1)) keeps every row and
//! column sum, so the reachability test's inputs; a click (+d on row i and
//! column j, the clicked cell once) moves to another reachable goal and can
//! change the sums. Deterministic for a seed: the walk depends only on the
//! seed and the number of evaluations, the time limit only says where it
//! stops (the run prints the evaluations; EVALS replays exactly them).
//!
//! `--group G` keeps to the goals a group of board symmetries fixes (hard
//! goals are often symmetric): G is generators joined by `+`, each `t`
//! (the transpose) or `dA,B` ((i, j) → (i + A, j + B) mod N; `d1,1` gives
//! the circulants). Every move is summed over the group's images, which
//! keeps the goal fixed and reachable (the click map commutes with the
//! symmetries). When the fixed goals are few (C to the number of cell
//! orbits at most 10⁷) the hunt lists them all instead: an exhaustive
//! answer for the family, SECONDS and SEED unused.
//!
//! ```text
//! cargo run --release --example alien_tiles_hunt -- [--group G] N C SECONDS SEED [EVALS] [OUT]
//! ```
//!
//! Writes the best goal as `OUT` (default `NxN-C-V.txt` in the current
//! directory, V its fewest clicks), in the format of
//! instances/alien-tiles/*.txt; play it with
//! `puzzlesat solve alien-tiles -n N -c C --goal FILE`.

use std::io::Write;
use std::time::Instant;

use puzzlesat::puzzles::alien_tiles::goals::{goal_min, reachable};

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, k: u32) -> u32 {
        (self.next() % u64::from(k)) as u32
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Adds `d` clicks at (i, j) to the goal `s`: row i and column j advance.
fn click(s: &mut [u32], n: usize, c: u32, i: usize, j: usize, d: u32) {
    for k in 0..n {
        s[i * n + k] = (s[i * n + k] + d) % c;
        if k != i {
            s[k * n + j] = (s[k * n + j] + d) % c;
        }
    }
}

/// The group a list of generators spans, as permutations of the n² cells
/// (each maps cell p to `g[p]`), the identity first.
fn group(spec: &str, n: usize) -> anyhow::Result<Vec<Vec<usize>>> {
    let mut gens = Vec::new();
    for g in spec.split('+').filter(|g| !g.is_empty() && *g != "none") {
        let (a, b) = if g == "t" {
            (None, 0)
        } else {
            let (a, b) = g
                .strip_prefix('d')
                .and_then(|ab| ab.split_once(','))
                .ok_or_else(|| anyhow::anyhow!("--group: {g} is neither t nor dA,B"))?;
            (Some(a.parse::<usize>()? % n), b.parse::<usize>()? % n)
        };
        gens.push(
            (0..n * n)
                .map(|p| {
                    let (i, j) = (p / n, p % n);
                    match a {
                        None => j * n + i,
                        Some(a) => (i + a) % n * n + (j + b) % n,
                    }
                })
                .collect::<Vec<usize>>(),
        );
    }
    // the closure of the identity under the generators
    let mut all: Vec<Vec<usize>> = vec![(0..n * n).collect()];
    let mut k = 0;
    while k < all.len() {
        for g in &gens {
            let h: Vec<usize> = all[k].iter().map(|&p| g[p]).collect();
            if !all.contains(&h) {
                all.push(h);
            }
        }
        k += 1;
    }
    Ok(all)
}

/// Adds the change `d` (per cell) to `s`, summed over the images under the
/// group `g` (the trivial group: `d` once).
fn apply(s: &mut [u32], d: &[u32], c: u32, g: &[Vec<usize>]) {
    for h in g {
        for (p, &e) in d.iter().enumerate() {
            s[h[p]] = (s[h[p]] + e) % c;
        }
    }
}

/// One random move that keeps `s` reachable and fixed by `g` (see the
/// module doc).
fn step(s: &mut [u32], n: usize, c: u32, rng: &mut Rng, g: &[Vec<usize>]) {
    let mut delta = vec![0; n * n];
    let d = 1 + rng.below(c - 1);
    let i = rng.below(n as u32) as usize;
    let j = rng.below(n as u32) as usize;
    if rng.below(5) == 0 {
        click(&mut delta, n, c, i, j, d);
    } else {
        let i2 = (i + 1 + rng.below(n as u32 - 1) as usize) % n;
        let j2 = (j + 1 + rng.below(n as u32 - 1) as usize) % n;
        for (a, b, e) in [(i, j, d), (i2, j2, d), (i, j2, c - d), (i2, j, c - d)] {
            delta[a * n + b] = (delta[a * n + b] + e) % c;
        }
    }
    apply(s, &delta, c, g);
}

/// A random reachable goal fixed by `g`: the board a random click matrix,
/// summed over the group's images, reaches.
fn random_goal(n: usize, c: u32, rng: &mut Rng, g: &[Vec<usize>]) -> Vec<u32> {
    let mut s = vec![0; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut delta = vec![0; n * n];
            click(&mut delta, n, c, i, j, rng.below(c));
            apply(&mut s, &delta, c, g);
        }
    }
    s
}

/// Every goal fixed by `g`, when they are at most `limit`: the hardest
/// reachable one and its fewest clicks, and how many were reachable.
fn every_fixed_goal(
    n: usize,
    c: u32,
    g: &[Vec<usize>],
    limit: u64,
) -> Option<(Vec<u32>, u32, u64)> {
    // the cell orbits, each named by its smallest cell
    let orbit: Vec<usize> = (0..n * n)
        .map(|p| g.iter().map(|h| h[p]).min().expect("the identity"))
        .collect();
    let reps: Vec<usize> = (0..n * n).filter(|&p| orbit[p] == p).collect();
    if u64::from(c).checked_pow(reps.len() as u32)? > limit {
        return None;
    }
    let mut vals = vec![0u32; n * n];
    let (mut best, mut best_v, mut count) = (Vec::new(), 0, 0u64);
    loop {
        let s: Vec<u32> = (0..n * n).map(|p| vals[orbit[p]]).collect();
        if reachable(&s, n, c) {
            count += 1;
            let v = goal_min(&s, n, c).expect("reachable");
            if v > best_v || best.is_empty() {
                (best, best_v) = (s, v);
            }
        }
        let Some(k) = reps.iter().position(|&p| vals[p] + 1 < c) else {
            break;
        };
        vals[reps[k]] += 1;
        for &p in &reps[..k] {
            vals[p] = 0;
        }
    }
    Some((best, best_v, count))
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let spec = if args.first().is_some_and(|a| a == "--group") && args.len() > 1 {
        args.drain(..2).nth(1).expect("two arguments")
    } else {
        "none".to_string()
    };
    if !(4..=6).contains(&args.len()) {
        eprintln!("usage: alien_tiles_hunt [--group G] N C SECONDS SEED [EVALS] [OUT]");
        std::process::exit(2);
    }
    let n: usize = args[0].parse()?;
    let c: u32 = args[1].parse()?;
    let seconds: f64 = args[2].parse()?;
    let seed: u64 = args[3].parse()?;
    let max_evals: u64 = args.get(4).map_or(Ok(u64::MAX), |a| a.parse())?;
    if !(2..=7).contains(&n) || !(2..=7).contains(&c) {
        eprintln!("alien_tiles_hunt: N and C must be in 2..=7");
        std::process::exit(2);
    }
    let g = match group(&spec, n) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("alien_tiles_hunt: {e}");
            std::process::exit(2);
        }
    };
    let group_note = if spec == "none" {
        String::new()
    } else {
        format!("--group {spec} ")
    };
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    if let Some((best, best_v, count)) = every_fixed_goal(n, c, &g, 10_000_000) {
        say(
            &mut out,
            format_args!(
                "every goal fixed by {spec} ({} symmetries): {count} reachable, the hardest needs {best_v} ({:.1} s)",
                g.len(),
                start.elapsed().as_secs_f64()
            ),
        )?;
        let note = format!("the hardest of the {count} reachable goals fixed by {spec}");
        let file = write_goal(
            &args,
            n,
            c,
            &best,
            best_v,
            &note,
            &format!("{group_note}{n} {c} 0 0"),
        )?;
        say(&mut out, format_args!("wrote {file}"))?;
        return Ok(());
    }
    let score = |s: &[u32]| goal_min(s, n, c).expect("the moves keep the goal reachable");
    let mut rng = Rng(seed);
    // each restart: `len` evaluations, the temperature falling from 2.0 to 0.1
    let len = 4000u64;
    let (t0, t1) = (2.0f64, 0.1f64);
    let mut best = random_goal(n, c, &mut rng, &g);
    let mut best_v = score(&best);
    let mut evals = 1u64;
    let mut restarts = 0u64;
    'hunt: loop {
        // the restarts alternate: a random goal, then the best so far shaken
        let mut s = if restarts % 2 == 0 {
            random_goal(n, c, &mut rng, &g)
        } else {
            let mut s = best.clone();
            for _ in 0..n {
                step(&mut s, n, c, &mut rng, &g);
            }
            s
        };
        restarts += 1;
        let mut v = score(&s);
        evals += 1;
        for k in 0..len {
            if evals >= max_evals || (seconds > 0.0 && start.elapsed().as_secs_f64() >= seconds) {
                break 'hunt;
            }
            let temp = t0 * (t1 / t0).powf(k as f64 / len as f64);
            let mut t = s.clone();
            step(&mut t, n, c, &mut rng, &g);
            let w = score(&t);
            evals += 1;
            if w >= v || rng.unit() < ((f64::from(w) - f64::from(v)) / temp).exp() {
                s = t;
                v = w;
            }
            if v > best_v {
                best_v = v;
                best = s.clone();
                eprintln!(
                    "{:.1} s, evaluation {evals}, restart {restarts}: {best_v}",
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    say(
        &mut out,
        format_args!(
            "best {best_v} after {evals} evaluations, {restarts} restarts, {:.1} s",
            start.elapsed().as_secs_f64()
        ),
    )?;
    let file = write_goal(
        &args,
        n,
        c,
        &best,
        best_v,
        "found by",
        &format!("{group_note}{n} {c} 0 {seed} {evals}"),
    )?;
    say(&mut out, format_args!("wrote {file}"))?;
    Ok(())
}

/// Writes a line to stdout (locked: one lock for the run); a closed pipe
/// (`| head`) ends the printing cleanly, not with a panic, and the hunt
/// goes on to write its goal file.
fn say(out: &mut impl Write, line: std::fmt::Arguments) -> std::io::Result<()> {
    match writeln!(out, "{line}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// Writes the goal `s` as OUT (args[5], default `NxN-C-V.txt`), in the
/// format of instances/alien-tiles/*.txt, with the command that finds it;
/// returns OUT.
fn write_goal(
    args: &[String],
    n: usize,
    c: u32,
    s: &[u32],
    v: u32,
    how: &str,
    replay: &str,
) -> anyhow::Result<String> {
    let file = args
        .get(5)
        .cloned()
        .unwrap_or(format!("{n}x{n}-{c}-{v}.txt"));
    let mut text = format!(
        "# {n}x{n}, {c} colours: a goal needing {v} clicks ({how}\n\
         # cargo run --release --example alien_tiles_hunt -- {replay})\n"
    );
    for i in 0..n {
        let row: String = (0..n).map(|j| s[i * n + j].to_string()).collect();
        text.push_str(&row);
        text.push('\n');
    }
    std::fs::write(&file, text)?;
    Ok(file)
}
