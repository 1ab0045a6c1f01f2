//! N-queens counting: every solution of n = 11 and 12 (OEIS A000170: 2680
//! and 14200, in 341 and 1787 classes, OEIS A002562), by symmetry classes as
//! `solve --count` does, each proven complete by the final UNSAT; and the
//! cost per solution of each enumeration engine (`--enumeration`), by plain
//! enumeration of n = 10 (724 solutions, no symmetry: every model one
//! solution). Every iteration asserts its answer; every placement has passed
//! the independent checker inside the runner.
//!
//! `cargo bench --bench queens` (criterion's time per iteration over 724 is
//! the time per solution of the `per-solution/*` rows)

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzlesat::encodings::solve::EnumerationEngine;
use puzzlesat::puzzles::queens::{Options, Queens};
use puzzlesat::run::{self, RunOptions, Status};

fn count(n: usize, engine: EnumerationEngine, no_classes: bool) -> (u64, Option<u64>) {
    let opts = RunOptions {
        all: true,
        count_only: true,
        no_classes,
        enumeration: Some(engine),
        ..Default::default()
    };
    let r = run::run_quiet(&Queens::new(n, Options::default()), &opts).expect("run");
    assert_eq!(r.status, Status::All);
    (r.count.expect("count"), r.classes)
}

fn bench(c: &mut Criterion) {
    let default = EnumerationEngine::default();
    let mut g = c.benchmark_group("queens");
    g.sample_size(10).warm_up_time(Duration::from_millis(1));
    g.bench_function("count-n11", |b| {
        b.iter(|| assert_eq!(count(11, default, false), (2680, Some(341))))
    });
    g.bench_function("count-n12", |b| {
        b.iter(|| assert_eq!(count(12, default, false), (14200, Some(1787))))
    });
    g.finish();
    let mut g = c.benchmark_group("per-solution");
    g.sample_size(10).warm_up_time(Duration::from_millis(1));
    g.throughput(Throughput::Elements(724));
    for engine in EnumerationEngine::ALL {
        g.bench_function(engine.name(), |b| {
            b.iter(|| assert_eq!(count(10, engine, true), (724, None)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
