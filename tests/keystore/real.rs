//! The key-store model against a real Redis and a real PostgreSQL at 10,000 keys: runs
//! bench/keystore.sh (which starts its own servers on free ports in a temp dir, stores the
//! keys the way the article does, runs a day of hourly sweeps and stops the servers) for a
//! small body (inline rows) and a 10 kB one (TOAST), and holds `redis_bytes` and
//! `postgres_bytes` within 10% of `used_memory` and `pg_total_relation_size`.
//!
//! Without redis-server or PostgreSQL the test is skipped locally but FAILS when `CI` is set
//! (.ci/run installs them).

use std::path::Path;
use std::process::Command;

use crate::common;
use dupcost::model::keystore::{postgres_bytes, redis_bytes};

const KEYS: &str = "10000";
const BODIES: &str = "100 10000";
/// schema.sql's keys are UUIDs as text.
const KEY_BYTES: f64 = 36.0;

/// Whether the servers and clients the bench script runs are installed; without them the test
/// is skipped locally, but fails in CI ([`common::needs`]).
fn servers_present() -> bool {
    let initdb = std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|versions| {
        versions
            .flatten()
            .any(|v| v.path().join("bin/initdb").exists())
    });
    let missing: Vec<String> = ["redis-server", "redis-cli", "psql", "python3"]
        .into_iter()
        .filter(|tool| !common::on_path(tool))
        .chain((!initdb).then_some("PostgreSQL's initdb"))
        .map(String::from)
        .collect();
    common::needs(
        "the key-store models against real Redis and PostgreSQL (tests/keystore/real.rs)",
        &missing,
        "apt-get install redis-server postgresql python3",
    )
}

#[test]
fn model_within_ten_percent_of_real_redis_and_postgres() {
    if !servers_present() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("bash")
        .arg(root.join("bench/keystore.sh"))
        .env("SIZES", KEYS)
        .env("BODIES", BODIES)
        .env("MODEL", "none")
        .output()
        .expect("run bash");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "bench/keystore.sh failed:\n{stderr}"
    );

    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut cases = 0;
    for line in stdout.lines() {
        // keys, body bytes, used_memory delta, pg_total_relation_size
        let fields: Vec<f64> = line.split('\t').map(|f| f.parse().unwrap()).collect();
        let [keys, body, redis, postgres] = fields[..] else {
            panic!("unexpected line {line:?}");
        };
        for (store, model, measured) in [
            ("redis", redis_bytes(keys, KEY_BYTES, body), redis),
            ("postgres", postgres_bytes(keys, KEY_BYTES, body), postgres),
        ] {
            let error = (model - measured) / measured;
            assert!(
                error.abs() <= 0.10,
                "{store} at {keys} keys x {body} B: model {model} vs measured {measured} ({:+.1}%)\n{stderr}",
                100.0 * error
            );
        }
        cases += 1;
    }
    assert_eq!(cases, 2, "one line per body size:\n{stdout}\n{stderr}");
}
