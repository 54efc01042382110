//! The per-backend key-store byte models (src/model/keystore.rs) hold their interface:
//! pure, finite and non-negative for finite non-negative inputs, and never smaller with more
//! keys. Redis never shrinks when a key or body grows; PostgreSQL does at the TOAST step, where
//! rows start being compressed, as the real server does (src/model/keystore.rs).

use dupcost::model::keystore::{postgres_bytes, redis_bytes};
use proptest::prelude::*;

fn keys() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.0..10.0, 0.0..1e6, 1e6..1e12]
}

fn bytes() -> impl Strategy<Value = f64> {
    // Around every threshold of the models: embstr (44), sds headers (256, 65,536), varlena
    // (126), TOAST (about 2 kB) and its 1,996-byte chunks.
    prop_oneof![Just(0.0), 0.0..300.0, 0.0..10_000.0, 0.0..1e6, 1e6..1e9]
}

type Model = fn(f64, f64, f64) -> f64;
const MODELS: [(&str, Model); 2] = [("redis", redis_bytes), ("postgres", postgres_bytes)];
const REDIS: [(&str, Model); 1] = [("redis", redis_bytes)];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn finite_non_negative_and_pure(n in keys(), key in bytes(), body in bytes()) {
        for (name, model) in MODELS {
            let b = model(n, key, body);
            prop_assert!(b.is_finite() && b >= 0.0, "{name}({n}, {key}, {body}) = {b}");
            prop_assert_eq!(b.to_bits(), model(n, key, body).to_bits(), "{} is not pure", name);
        }
    }

    #[test]
    fn monotone_in_live_keys(a in keys(), b in keys(), key in bytes(), body in bytes()) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        for (name, model) in MODELS {
            prop_assert!(model(lo, key, body) <= model(hi, key, body), "{name}: keys {lo} -> {hi}");
        }
    }

    #[test]
    fn monotone_in_key_bytes(n in keys(), a in bytes(), b in bytes(), body in bytes()) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        for (name, model) in REDIS {
            prop_assert!(model(n, lo, body) <= model(n, hi, body), "{name}: key {lo} -> {hi}");
        }
    }

    #[test]
    fn monotone_in_body_bytes(n in keys(), key in bytes(), a in bytes(), b in bytes()) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        for (name, model) in REDIS {
            prop_assert!(model(n, key, lo) <= model(n, key, hi), "{name}: body {lo} -> {hi}");
        }
    }

    /// Near each other too, where a threshold is crossed by a byte.
    #[test]
    fn monotone_step_by_step(n in 1.0..1e5f64, key in 1.0..300.0f64, body in 0.0..5000.0f64) {
        let (key, body) = (key.round(), body.round());
        for (name, model) in MODELS {
            prop_assert!(model(n, key, body) <= model(n + 1.0, key, body), "{name}: keys {n}+1");
        }
        for (name, model) in REDIS {
            prop_assert!(model(n, key, body) <= model(n, key + 1.0, body), "{name}: key {key}+1");
            prop_assert!(model(n, key, body) <= model(n, key, body + 1.0), "{name}: body {body}+1");
        }
    }
}
