//! Enigma 1225: `--method partitions` at n = 20, 40, 55, the reference
//! search at n = 55 and 200, and `--method board` (all options) at n = 8
//! (the real puzzle), n = 10, 11 and 12 (the largest n it takes). Every iteration
//! asserts the proven optimum (Table 2 of Cambazard, O'Sullivan & Smith).

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::drive::Strategy;
use puzzlesat::puzzles::enigma::encode::BoardOptions;
use puzzlesat::puzzles::enigma::paper::table2_row;
use puzzlesat::puzzles::enigma::partitions::{BoundKind, Partitions};
use puzzlesat::puzzles::enigma::reference::solve_reference;
use puzzlesat::puzzles::enigma::Enigma;
use puzzlesat::run::{self, RunOptions, Status};

fn partitions(c: &mut Criterion) {
    let mut g = c.benchmark_group("enigma-partitions");
    g.sample_size(10);
    for n in [20, 40, 55] {
        let want = table2_row(n).unwrap().optimum;
        g.bench_function(format!("n={n}"), |b| {
            b.iter(|| {
                let p = Partitions {
                    n,
                    bound: BoundKind::Orbits,
                    warm_start: true,
                    pb: Default::default(),
                };
                let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
                assert_eq!(
                    (r.status, r.objective),
                    (Status::Optimal, Some(want as i64))
                );
            })
        });
    }
    g.finish();
}

fn reference(c: &mut Criterion) {
    let mut g = c.benchmark_group("enigma-reference");
    g.sample_size(10);
    for (n, want) in [(55, table2_row(55).unwrap().optimum), (200, 200_020_000)] {
        g.bench_function(format!("n={n}"), |b| {
            b.iter(|| assert_eq!(solve_reference(n).best.map(|(t, _, _)| t), Some(want)))
        });
    }
    g.finish();
}

fn board(c: &mut Criterion) {
    let mut g = c.benchmark_group("enigma-board");
    g.sample_size(10);
    let p = Enigma {
        n: 8,
        opts: BoardOptions::FULL,
    };
    g.bench_function("n=8 full", |b| {
        b.iter(|| {
            let r = run::run_quiet(&p, &RunOptions::default()).unwrap();
            assert_eq!((r.status, r.objective), (Status::Optimal, Some(544)));
        })
    });
    // the default bound search of the board method: bisection
    let binary = RunOptions {
        strategy: Strategy::Binary,
        ..RunOptions::default()
    };
    // n = 10 (about 2 s an iteration), n = 11 (about 45 s) and n = 12
    // (about 30 s; the largest n the board method takes), no knowledge of
    // the answer
    for (n, optimum, secs) in [(10, 1300, 30), (11, 1703, 600), (12, 2664, 400)] {
        let p = Enigma {
            n,
            opts: BoardOptions::FULL,
        };
        g.measurement_time(std::time::Duration::from_secs(secs));
        g.bench_function(format!("n={n} full binary"), |b| {
            b.iter(|| {
                let r = run::run_quiet(&p, &binary).unwrap();
                assert_eq!((r.status, r.objective), (Status::Optimal, Some(optimum)));
            })
        });
    }
    g.finish();
}

criterion_group!(benches, partitions, reference, board);
criterion_main!(benches);
