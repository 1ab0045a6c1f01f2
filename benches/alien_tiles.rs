//! Alien Tiles benches (criterion), each asserting its answer:
//! - the hardest 4×4, 3-colour goal (10 clicks, proven) with every
//!   `--symmetry` mode and both `--minimality` modes — the seed's 40× speed-up
//!   question (Gent, Linton & Smith, APES-22-2000);
//! - the shipped 7×7, 4-colour goal (47 clicks, proven) with both play
//!   encodings;
//! - hardest-goal instances of the README table: 5×5/2, 5×5/3, 4×4/6,
//!   4×4/7 and the largest non-trivial one proven, 7×7/2 (lazy, ~30 s).
//!
//! - playing a goal by the row/column minimisation (issue 30): the time
//!   per goal for every n ≤ 7, c ≤ 7, on a random reachable goal each;
//! - the goal search (issue 29) on 4×4/3 (10) and 5×5/2 (8).
//!
//! Run: `cargo bench --bench alien_tiles` (encode + solve per iteration).

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::puzzle::Puzzle;
use puzzlesat::puzzles::alien_tiles::encode::GoalEncoding;
use puzzlesat::puzzles::alien_tiles::goals::GoalSearch;
use puzzlesat::puzzles::alien_tiles::model::{effect, Grid};
use puzzlesat::puzzles::alien_tiles::play::{fewest_clicks, Played};
use puzzlesat::puzzles::alien_tiles::rowcol::RowCol;
use puzzlesat::puzzles::alien_tiles::symmetry::Symmetry;
use puzzlesat::puzzles::alien_tiles::{AlienTiles, Minimality, Task};
use puzzlesat::run::{self, RunOptions, Status};

fn optimum(p: &AlienTiles) -> i64 {
    let r = run::run_quiet(p, &RunOptions::default()).unwrap();
    assert_eq!(r.status, Status::Optimal, "{}", p.describe());
    r.objective.unwrap()
}

fn hardest(n: usize, c: u32, m: Minimality, s: Symmetry) -> AlienTiles {
    let mut p = AlienTiles::new(n, c, Task::Hardest).unwrap();
    p.minimality = m;
    p.symmetry = s;
    p
}

fn bench_hardest_4x4(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("alien-tiles hardest 4x4 c=3");
    g.sample_size(10);
    for m in Minimality::ALL {
        for s in Symmetry::ALL {
            let p = hardest(4, 3, m, s);
            g.bench_function(format!("minimality={m} symmetry={s}"), |b| {
                b.iter(|| assert_eq!(optimum(&p), 10))
            });
        }
    }
    g.finish();
}

fn bench_largest(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("alien-tiles largest proven");
    g.sample_size(10);
    // the largest hardest-goal instances of the README table solved in seconds
    for (n, c, want) in LARGEST {
        let p = hardest(n, c, Minimality::Eager, Symmetry::DoubleLex);
        g.bench_function(format!("hardest n={n} c={c}"), |b| {
            b.iter(|| assert_eq!(optimum(&p), want))
        });
    }
    // the largest non-trivial cell proven: 7×7, c = 2 (the defaults)
    let p = hardest(7, 2, Minimality::Lazy, Symmetry::DoubleLexTranspose);
    g.bench_function("hardest n=7 c=2 lazy", |b| {
        b.iter(|| assert_eq!(optimum(&p), 17))
    });
    let goal = Grid::read(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/instances/alien-tiles/7x7-4-goal.txt"
        )
        .as_ref(),
        7,
        4,
    )
    .unwrap();
    let mut p = AlienTiles::new(
        7,
        4,
        Task::Play {
            start: Grid::zeros(7),
            goal,
        },
    )
    .unwrap();
    p.goal_encoding = GoalEncoding::Kernel;
    g.bench_function("play 7x7 c=4 encoding=kernel", |b| {
        b.iter(|| assert_eq!(optimum(&p), 47))
    });
    g.finish();
}

/// Playing a random reachable goal (the board a pseudo-random click matrix
/// reaches) by the row/column minimisation, every n ≤ 7 and c ≤ 7; the
/// answer is checked against the click matrix's own count (never more).
fn bench_play_rowcol(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("alien-tiles play rowcol");
    g.sample_size(10);
    let mut seed = 30u64;
    for n in 2..=7 {
        for c in 2..=7u32 {
            let clicks = Grid {
                n,
                cells: (0..n * n)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((seed >> 33) % u64::from(c)) as u32
                    })
                    .collect(),
            };
            let goal = effect(&clicks, c);
            let rowcol = RowCol::new(n, c);
            g.bench_function(format!("n={n} c={c}"), |b| {
                b.iter(|| match fewest_clicks(&Grid::zeros(n), &goal, c, &rowcol) {
                    Played::Best { total, .. } => assert!(total <= clicks.total()),
                    Played::Unreachable => panic!("a reached board is reachable"),
                })
            });
        }
    }
    g.finish();
}

/// The goal search's whole run on the cells it proves in seconds: 4×4/3
/// (10), 5×5/2 (8), 5×5/4 (22, the settled cell), and with `above` (only
/// goals needing more than B clicks) 7×7/3 above 39, which ends with none
/// (the proof that 7×7/3 needs at most 39).
fn bench_goal_search(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("alien-tiles hardest goals");
    g.sample_size(10);
    for (n, c, above, want) in [
        (4, 3, None, Some(10)),
        (5, 2, None, Some(8)),
        (5, 4, None, Some(22)),
        (7, 3, Some(39), None),
    ] {
        let mut s = GoalSearch::new(n, c, String::new()).unwrap();
        let mut name = format!("n={n} c={c}");
        if let Some(b) = above {
            s = s.above(b);
            name = format!("{name} above={b}");
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                let (r, finished) = s.search_cube(0, 1, &|| false, &mut |_| {});
                assert!(finished);
                assert_eq!(r.hardest, want)
            })
        });
    }
    g.finish();
}

/// (n, c, hardest clicks), from the README table.
const LARGEST: [(usize, u32, i64); 4] = [(5, 2, 8), (5, 3, 24), (4, 6, 36), (4, 7, 45)];

criterion_group!(
    benches,
    bench_hardest_4x4,
    bench_largest,
    bench_play_rowcol,
    bench_goal_search
);
criterion_main!(benches);
