//! The model's cost: one estimate, the worst case of 100 retries, and a 10,000-value sweep.
//! `cargo bench --bench model`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dupcost::model::{Estimate, Scenario};
use dupcost::sweep::Sweep;

fn model(c: &mut Criterion) {
    c.bench_function("estimate, default scenario (3 retries)", |b| {
        b.iter(|| Estimate::new(black_box(Scenario::default())))
    });
    let worst = Scenario {
        retries: 100,
        timeout_rate: 0.3,
        ..Scenario::default()
    };
    c.bench_function("estimate, 100 retries", |b| {
        b.iter(|| Estimate::new(black_box(worst)))
    });
    // The key store's worst case: 100 retries every 0.1 s, jittered, against a 20 s TTL.
    let keyed = Scenario {
        retries: 100,
        timeout_rate: 0.3,
        ttl_seconds: 20,
        attempt_timeout_seconds: 0.1,
        backoff_seconds: 0.01,
        backoff_factor: 1.5,
        backoff_max_seconds: 1.0,
        jitter: dupcost::model::Jitter::Full,
        ..Scenario::default()
    };
    c.bench_function("estimate, 100 jittered retries against a short TTL", |b| {
        b.iter(|| Estimate::new(black_box(keyed)))
    });
    let sweep: Sweep = "timeout-rate=0%..100%:10000".parse().unwrap();
    c.bench_function("sweep of 10,000 timeout rates", |b| {
        b.iter(|| sweep.run(black_box(&Scenario::default())))
    });
}

criterion_group!(benches, model);
criterion_main!(benches);
