//! The hand-written timestamp layouts against jiff's general parsers, on the layouts access
//! logs use. `cargo bench --bench timestamps`
//!
//! The fast path exists only because this shows it matters: see README, "Logs".

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dupcost::logs::{parse_auto, parse_strftime, parse_with_jiff};

fn timestamps(c: &mut Criterion) {
    let iso = b"2026-11-01T13:45:01.123Z";
    let local = b"01/Nov/2026:13:45:01 +0000";
    assert_eq!(parse_auto(iso), parse_with_jiff(iso));
    assert_eq!(
        parse_auto(local),
        parse_strftime("%d/%b/%Y:%H:%M:%S %z", local)
    );
    c.bench_function("RFC 3339, hand-written", |b| {
        b.iter(|| parse_auto(black_box(iso)))
    });
    c.bench_function("RFC 3339, jiff", |b| {
        b.iter(|| parse_with_jiff(black_box(iso)))
    });
    c.bench_function("nginx $time_local, hand-written", |b| {
        b.iter(|| parse_auto(black_box(local)))
    });
    c.bench_function("nginx $time_local, jiff strptime", |b| {
        b.iter(|| parse_strftime("%d/%b/%Y:%H:%M:%S %z", black_box(local)))
    });
}

criterion_group!(benches, timestamps);
criterion_main!(benches);
