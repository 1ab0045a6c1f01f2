//! N-queens: counting every solution of n = 11 and 12 (OEIS A000170: 2680
//! and 14200, in 341 and 1787 classes, OEIS A002562), by symmetry classes as
//! `solve --all` does, each proven complete by the final UNSAT. Every
//! iteration asserts its answer; every placement has passed the independent
//! checker inside the runner.
//!
//! `cargo bench --bench queens`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::puzzles::queens::{Options, Queens};
use puzzlesat::run::{self, RunOptions, Status};

fn count(n: usize) -> (u64, Option<u64>) {
    let opts = RunOptions {
        all: true,
        ..Default::default()
    };
    let r = run::run_quiet(&Queens::new(n, Options::default()), &opts).expect("run");
    assert_eq!(r.status, Status::All);
    (r.count.expect("count"), r.classes)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("queens");
    g.sample_size(10).warm_up_time(Duration::from_millis(1));
    g.bench_function("count-n11", |b| {
        b.iter(|| assert_eq!(count(11), (2680, Some(341))))
    });
    g.bench_function("count-n12", |b| {
        b.iter(|| assert_eq!(count(12), (14200, Some(1787))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
