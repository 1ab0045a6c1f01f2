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
//! ```text
//! cargo run --release --example alien_tiles_hunt -- N C SECONDS SEED [EVALS] [OUT]
//! ```
//!
//! Writes the best goal as `OUT` (default `NxN-C-V.txt` in the current
//! directory, V its fewest clicks), in the format of
//! instances/alien-tiles/*.txt; play it with
//! `puzzlesat solve alien-tiles -n N -c C --goal FILE`.

use std::time::Instant;

use puzzlesat::puzzles::alien_tiles::goals::goal_min;

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

/// One random move that keeps `s` reachable (see the module doc).
fn step(s: &mut [u32], n: usize, c: u32, rng: &mut Rng) {
    let d = 1 + rng.below(c - 1);
    let i = rng.below(n as u32) as usize;
    let j = rng.below(n as u32) as usize;
    if rng.below(5) == 0 {
        click(s, n, c, i, j, d);
        return;
    }
    let i2 = (i + 1 + rng.below(n as u32 - 1) as usize) % n;
    let j2 = (j + 1 + rng.below(n as u32 - 1) as usize) % n;
    for (a, b, e) in [(i, j, d), (i2, j2, d), (i, j2, c - d), (i2, j, c - d)] {
        s[a * n + b] = (s[a * n + b] + e) % c;
    }
}

/// A random reachable goal: the board a random click matrix reaches.
fn random_goal(n: usize, c: u32, rng: &mut Rng) -> Vec<u32> {
    let mut s = vec![0; n * n];
    for i in 0..n {
        for j in 0..n {
            click(&mut s, n, c, i, j, rng.below(c));
        }
    }
    s
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(4..=6).contains(&args.len()) {
        eprintln!("usage: alien_tiles_hunt N C SECONDS SEED [EVALS] [OUT]");
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
    let score = |s: &[u32]| goal_min(s, n, c).expect("the moves keep the goal reachable");
    let mut rng = Rng(seed);
    let start = Instant::now();
    // each restart: `len` evaluations, the temperature falling from 2.0 to 0.1
    let len = 4000u64;
    let (t0, t1) = (2.0f64, 0.1f64);
    let mut best = random_goal(n, c, &mut rng);
    let mut best_v = score(&best);
    let mut evals = 1u64;
    let mut restarts = 0u64;
    'hunt: loop {
        // the restarts alternate: a random goal, then the best so far shaken
        let mut s = if restarts % 2 == 0 {
            random_goal(n, c, &mut rng)
        } else {
            let mut s = best.clone();
            for _ in 0..n {
                step(&mut s, n, c, &mut rng);
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
            step(&mut t, n, c, &mut rng);
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
    let out = args
        .get(5)
        .cloned()
        .unwrap_or(format!("{n}x{n}-{c}-{best_v}.txt"));
    let mut text = format!(
        "# {n}x{n}, {c} colours: a goal needing {best_v} clicks (found by\n\
         # cargo run --release --example alien_tiles_hunt -- {n} {c} 0 {seed} {evals})\n"
    );
    for i in 0..n {
        let row: String = (0..n).map(|j| best[i * n + j].to_string()).collect();
        text.push_str(&row);
        text.push('\n');
    }
    std::fs::write(&out, text)?;
    println!(
        "best {best_v} after {evals} evaluations, {restarts} restarts, {:.1} s: {out}",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
