//! What trust costs (issue 42): Enigma n = 8 with the board method's
//! defaults (`solve enigma -n 8 --method board`, bisection), uncertified
//! against certified from the model (`--certify`: VeriPB, Varisat as the
//! proof solver), each iteration asserting the optimum 544. Before the
//! timings, one certified run prints where its time goes: the run's own
//! solve, the proof solve, writing the proof, and the `veripb` check
//! (docs/certify.md, *What trust costs*).
//!
//! `cargo bench --bench certify` (slow: about 10 certified runs of 10–20 s).

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlesat::certify::{Producer, ProofFormat};
use puzzlesat::drive::Strategy;
use puzzlesat::puzzles::enigma::encode::BoardOptions;
use puzzlesat::puzzles::enigma::Enigma;
use puzzlesat::run::{self, RunOptions, Status};

fn enigma_8(c: &mut Criterion) {
    let p = Enigma {
        n: 8,
        opts: BoardOptions::FULL,
    };
    let plain = RunOptions {
        strategy: Strategy::Binary,
        ..RunOptions::default()
    };
    let certified = RunOptions {
        certify: Some(Producer::Varisat),
        proof_format: ProofFormat::Veripb,
        ..plain.clone()
    };
    // the breakdown of one certified run
    let r = run::run_quiet(&p, &certified).unwrap();
    assert_eq!((r.status, r.objective), (Status::Optimal, Some(544)));
    let cert = &r.certificates.as_ref().expect("certificates")[0];
    assert!(
        cert.certificate.from_model.is_some(),
        "certified from the model"
    );
    let s = &r.seconds;
    let (proof_solve, check) = (
        cert.certificate.solve_seconds,
        cert.certificate.check_seconds,
    );
    eprintln!(
        "enigma n=8 certified, one run: total {:.3} s = encode {:.3} + bounds {:.3} + solve {:.3} + certify {:.3} (proof solve {proof_solve:.3}, writing the proof {:.3}, veripb check {check:.3}) + other; proof {} bytes",
        s.total,
        s.encode,
        s.bounds,
        s.solve,
        s.certify,
        s.certify - proof_solve - check,
        cert.certificate.proof_bytes
    );
    let mut g = c.benchmark_group("certify-enigma");
    g.sample_size(10);
    g.bench_function("n=8 uncertified", |b| {
        b.iter(|| {
            let r = run::run_quiet(&p, &plain).unwrap();
            assert_eq!((r.status, r.objective), (Status::Optimal, Some(544)));
        })
    });
    g.measurement_time(std::time::Duration::from_secs(120));
    g.bench_function("n=8 certified from the model", |b| {
        b.iter(|| {
            let r = run::run_quiet(&p, &certified).unwrap();
            assert_eq!((r.status, r.objective), (Status::Optimal, Some(544)));
            assert!(r.certificates.is_some_and(|c| !c.is_empty()));
        })
    });
    g.finish();
}

criterion_group!(benches, enigma_8);
criterion_main!(benches);
