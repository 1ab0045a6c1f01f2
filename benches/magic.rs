//! Magic squares: counting all squares of order 4 (7040, and 880 with the
//! seed's order constraints — each proven complete by the final UNSAT) and
//! finding a square of the largest order reached within 60 s (see
//! docs/magic.md). Every iteration asserts its answer; every solution has
//! passed the independent checker inside the runner.
//!
//! `cargo bench --bench magic`; `MAGIC_BENCH_N=N` changes the order of the
//! "find" benchmark (default 13, the frontier of the default encoding);
//! `MAGIC_BENCH_FULL=0` skips the single timed run counting all 7040.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::puzzles::magic::{CellEncoding, Magic, Options, Symmetry};
use puzzlesat::run::{self, RunOptions, Status};

/// Counts every solution; asserts the enumeration is complete.
fn count(n: usize, o: Options) -> u64 {
    let opts = RunOptions {
        all: true,
        ..Default::default()
    };
    let r = run::run_quiet(&Magic::new(n, o), &opts).expect("run");
    assert_eq!(r.status, Status::All);
    r.count.expect("count")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("magic");
    g.sample_size(10).warm_up_time(Duration::from_millis(1));
    let seed_order = Options {
        cells: CellEncoding::Order,
        digit_counts: false,
        symmetry: Symmetry::Order,
        ..Default::default()
    };
    g.bench_function("count-n4-order", |b| {
        b.iter(|| assert_eq!(count(4, seed_order), 880))
    });
    // the full count takes 15–50 s: timed once (ten criterion samples would
    // take minutes); MAGIC_BENCH_FULL=0 skips it
    if std::env::var("MAGIC_BENCH_FULL").as_deref() != Ok("0") {
        let order_cells = Options {
            cells: CellEncoding::Order,
            digit_counts: false,
            ..Default::default()
        };
        let t = Instant::now();
        assert_eq!(count(4, order_cells), 7040);
        println!(
            "magic/count-n4-all: 7040 squares, complete, in {:.1} s (one run)",
            t.elapsed().as_secs_f64()
        );
    }
    let n: usize = std::env::var("MAGIC_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(13);
    g.bench_function(format!("find-n{n}"), |b| {
        b.iter(|| {
            let p = Magic::new(n, Options::default());
            let r = run::run_quiet(&p, &RunOptions::default()).expect("run");
            assert_eq!(r.status, Status::Sat);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
