//! Backends compared on generated formulas with known answers: the
//! pigeonhole PHP(8, 7) (UNSAT) and PHP(9, 9) (SAT), and uniform random
//! 3-SAT at the threshold ratio (n = 150, seeds with a recorded answer).
//! "encode" times building the formula and loading it into a fresh session;
//! "solve" times one solve call on a session prepared outside the timing.
//! Every solve asserts its answer and checks SAT models clause by clause.
//!
//! `cargo bench --bench backends` (add `--features cadical` for CaDiCaL).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use puzzlesat::io::generate::{pigeonhole, random_3sat_threshold};
use puzzlesat::solver::{Limits, Outcome, Session, SolverKind};
use puzzlesat_encodings::Cnf;

/// A named formula, its generator and its answer.
struct Instance {
    name: &'static str,
    make: fn() -> Cnf,
    answer: Outcome,
}

/// Answers established by CaDiCaL and every embedded backend
/// (`puzzlesat sat` on the generated files).
const INSTANCES: &[Instance] = &[
    Instance {
        name: "php-8-7",
        make: || pigeonhole(8, 7),
        answer: Outcome::Unsat,
    },
    Instance {
        name: "php-9-9",
        make: || pigeonhole(9, 9),
        answer: Outcome::Sat,
    },
    Instance {
        name: "rand3-150-s4",
        make: || random_3sat_threshold(150, 4),
        answer: Outcome::Sat,
    },
    Instance {
        name: "rand3-150-s1",
        make: || random_3sat_threshold(150, 1),
        answer: Outcome::Unsat,
    },
];

fn solve_and_check(session: &mut Session, cnf: &Cnf, answer: Outcome, what: &str) {
    let got = session.solve(&[]).expect("solve");
    assert_eq!(got, answer, "{what}");
    if got == Outcome::Sat {
        let model = session.model().expect("model");
        assert!(
            model.satisfies(cnf.clauses()),
            "{what}: model falsifies a clause"
        );
    }
}

fn backends(c: &mut Criterion) {
    let mut kinds = SolverKind::embedded();
    kinds.push(SolverKind::named("portfolio").unwrap());
    for inst in INSTANCES {
        let mut group = c.benchmark_group(inst.name);
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(5));
        let cnf = (inst.make)();
        for kind in &kinds {
            group.bench_function(format!("encode/{kind}"), |b| {
                b.iter(|| Session::new(kind, &(inst.make)(), Limits::default()).expect("session"))
            });
            group.bench_function(format!("solve/{kind}"), |b| {
                b.iter_batched(
                    || Session::new(kind, &cnf, Limits::default()).expect("session"),
                    |mut s| {
                        solve_and_check(
                            &mut s,
                            &cnf,
                            inst.answer,
                            &format!("{kind} on {}", inst.name),
                        )
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, backends);
criterion_main!(benches);
