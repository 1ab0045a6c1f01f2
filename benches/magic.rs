//! Magic squares: counting all squares of order 4 (7040 in 166 classes of
//! the 64 maps of `symmetry::maps`, and 880 with the seed's order constraints — each proven
//! complete by the final UNSAT, by symmetry classes as `solve --all` does)
//! one cube of the order-5 count (its cost per class; and one cube of the
//! structured count, `--method reference`), and finding squares
//! of large order (see docs/magic.md). Every iteration
//! asserts its answer; every solution has passed the independent checker
//! inside the runner.
//!
//! `cargo bench --bench magic`; `MAGIC_BENCH_FIND=16,20,25` sets the orders
//! of the "find" benchmarks (default: 10, 16, 20), each under a 120 s limit.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzlesat::drive;
use puzzlesat::options::CubeOptions;
use puzzlesat::puzzles::magic::check::check_square;
use puzzlesat::puzzles::magic::line_sets::LineSets;
use puzzlesat::puzzles::magic::staged::{self, StagedMagic};
use puzzlesat::puzzles::magic::{Magic, Options, Symmetry};
use puzzlesat::run::{self, RunOptions, Status};
use puzzlesat::solver::Limits;

/// Counts every solution with the defaults; asserts the enumeration is
/// complete and returns (solutions, classes).
fn count(n: usize, o: Options) -> (u64, Option<u64>) {
    count_cube(n, o, None)
}

/// [`count`], or with `cube = Some((k, i))` cube `i` of `k` alone (the
/// split of `--cubes`, as a cluster job counts it).
fn count_cube(n: usize, o: Options, cube: Option<(u32, u32)>) -> (u64, Option<u64>) {
    let opts = RunOptions {
        all: true,
        count_only: true,
        cubes: cube.map(|(count, i)| CubeOptions {
            count,
            file: None,
            only: Some(i),
            jobs: 1,
            trust: false,
        }),
        ..Default::default()
    };
    let r = run::run_quiet(&Magic::new(n, o), &opts).expect("run");
    assert_eq!(r.status, Status::All);
    (r.count.expect("count"), r.classes)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("magic");
    g.sample_size(10).warm_up_time(Duration::from_millis(1));
    g.bench_function("count-n4-all", |b| {
        b.iter(|| assert_eq!(count(4, Options::counting(4)), (7040, Some(166))))
    });
    let seed_order = Options {
        symmetry: Symmetry::Order,
        ..Options::counting(4)
    };
    g.bench_function("count-n4-order", |b| {
        b.iter(|| assert_eq!(count(4, seed_order).0, 880))
    });
    // finding by the default method (staged, default radices,
    // docs/magic.md): N = 10, 16 and 20 by default; MAGIC_BENCH_FIND=25
    // asks for others, MAGIC_BENCH_FIND= (empty) skips finding
    let orders: Vec<usize> = std::env::var("MAGIC_BENCH_FIND")
        .unwrap_or_else(|_| "10,16,20".into())
        .split(',')
        .filter(|v| !v.trim().is_empty())
        .map(|v| {
            v.trim()
                .parse()
                .expect("MAGIC_BENCH_FIND: orders like 16,20")
        })
        .collect();
    let opts = RunOptions::default();
    for n in orders {
        g.bench_function(format!("find-n{n}"), |b| {
            b.iter(|| {
                let limits = Limits::with_timeout(Some(Duration::from_secs(120)));
                let search = StagedMagic::new(n, &staged::default_places(n), u64::MAX)
                    .expect("the default places");
                let r =
                    drive::staged::search_in_stages(&search, &opts, limits, &mut std::io::sink())
                        .expect("run")
                        .expect("the restriction holds a square");
                assert_eq!(r.status, Status::Sat, "n = {n}: no square in 120 s");
                check_square(n, &r.solutions[0]).expect("a magic square");
            })
        });
    }
    g.finish();
    let mut h = c.benchmark_group("magic-n5");
    h.sample_size(10).warm_up_time(Duration::from_millis(1));
    // the cost per class of the order-5 count (docs/magic.md): cube 0 of
    // 1024 (centre 1, every corner's bit 0 clear, the top-left corner's bit 1
    // clear), 37 classes; criterion's throughput is classes per second
    h.throughput(Throughput::Elements(37));
    h.bench_function("count-n5-cube0-of-1024", |b| {
        b.iter(|| {
            assert_eq!(
                count_cube(5, Options::counting(5), Some((1024, 0))),
                (2368, Some(37))
            )
        })
    });
    // the structured count (`--method reference`, no SAT): cube 0 of 244 at
    // n = 5 (the first line set holding the value 1); throughput: squares
    // checked (each standing for 8) per second
    let sets = LineSets::new(5).expect("order 5");
    let cube0 = sets.count_cube(0, 244, &|| false).unwrap().unwrap();
    h.throughput(Throughput::Elements(cube0.arrangements));
    h.bench_function("reference-n5-cube0-of-244", |b| {
        b.iter(|| {
            assert_eq!(
                sets.count_cube(0, 244, &|| false).unwrap(),
                Some(cube0.clone())
            )
        })
    });
    h.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
