//! The key-store model's figures for one case, for bench/keystore.sh to print beside the
//! measured ones: `redis_bytes` and `postgres_bytes` of `src/model/keystore.rs`.
//!
//! ```text
//! cargo run --release --example keystore-model -- LIVE_KEYS KEY_BYTES BODY_BYTES
//! {"redis":3782144,"postgres":4284416}
//! ```

use dupcost::model::keystore::{postgres_bytes, redis_bytes};

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    let [live_keys, key_bytes, body_bytes] = args[..] else {
        eprintln!("usage: keystore-model LIVE_KEYS KEY_BYTES BODY_BYTES (numbers)");
        std::process::exit(2);
    };
    println!(
        "{{\"redis\":{},\"postgres\":{}}}",
        redis_bytes(live_keys, key_bytes, body_bytes),
        postgres_bytes(live_keys, key_bytes, body_bytes)
    );
}
