//! Criterion bench: all Hamiltonian paths and all closed tours on the seed's
//! prime board (`instances/rook-primes-8x8.toml`), per encoding, asserting
//! the seed's counts (4 paths, 1 tour) on every iteration.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::puzzles::rook_tour::encode::{Connectivity, Encoding, Links, Options, Symmetry};
use puzzlesat::puzzles::rook_tour::model::Instance;
use puzzlesat::puzzles::rook_tour::RookTour;
use puzzlesat::run::{self, RunOptions, Status};
use puzzlesat_encodings::amo::AmoEncoding;

fn count_all(inst: &Instance, encoding: Encoding) -> u64 {
    let opts = Options {
        encoding,
        symmetry: Symmetry::None,
        amo: AmoEncoding::Ladder,
        links: Links::Both,
        connectivity: Connectivity::None,
    };
    let p = RookTour::new(inst.clone(), opts);
    let run_opts = RunOptions {
        all: true,
        ..RunOptions::default()
    };
    let report = run::run_quiet(&p, &run_opts).unwrap();
    assert_eq!(report.status, Status::All);
    report.count.unwrap()
}

fn seed_board(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/rook-primes-8x8.toml");
    let inst = Instance::from_file(&path).unwrap();
    let mut g = c.benchmark_group("rook-primes-8x8");
    g.sample_size(10);
    for enc in [Encoding::Position, Encoding::Successor] {
        for (tour, what, want) in [(false, "all-paths", 4), (true, "all-tours", 1)] {
            let inst = Instance {
                tour,
                ..inst.clone()
            };
            g.bench_function(format!("{}/{what}", enc.name()), |b| {
                b.iter(|| assert_eq!(count_all(&inst, enc), want))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, seed_board);
criterion_main!(benches);
