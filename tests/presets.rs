//! `--preset`, `dupcost presets` and `--schedule` through the real binary: the providers'
//! documented figures (docs/MODEL.md, "For webhook consumers"), the layering (defaults <
//! scenario file < preset < flags) and the bad input.

mod common;

use common::{close, dupcost, json, succeed, usage_error};

fn f(v: &serde_json::Value, path: &str) -> f64 {
    path.split('.')
        .fold(v, |v, key| &v[key])
        .as_f64()
        .unwrap_or_else(|| panic!("{path} is not a number in {v}"))
}

const HOUR: f64 = 3600.0;
const DAY: f64 = 86_400.0;

#[test]
fn svix_gives_seven_retries_and_the_worked_horizon() {
    let v = json(&["estimate", "--preset", "svix-webhooks"]);
    assert_eq!(v["inputs"]["retries"], 7);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 15.0);
    // 8 x 15 s + 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h = 99,425 s, about 27.6 h.
    assert_eq!(f(&v, "retry_horizon_seconds"), 99_425.0);
    let h = f(&v, "retry_horizon_seconds") / HOUR;
    assert!((27.5..=28.0).contains(&h), "{h}");
    assert_eq!(
        v["inputs"]["schedule_seconds"],
        serde_json::json!([5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0])
    );
}

#[test]
fn stripe_webhooks_span_about_three_days_and_stripe_keys_a_day() {
    let v = json(&["estimate", "--preset", "stripe-webhooks"]);
    let days = f(&v, "retry_horizon_seconds") / DAY;
    assert!((2.95..=3.05).contains(&days), "{days}");
    let v = json(&["estimate", "--preset", "stripe"]);
    assert_eq!(f(&v, "inputs.ttl_seconds"), DAY);
    let v = json(&["estimate", "--preset", "adyen"]);
    assert_eq!(f(&v, "inputs.ttl_seconds"), 31.0 * DAY);
    let v = json(&["estimate", "--preset", "github-webhooks"]);
    assert_eq!(v["inputs"]["retries"], 0);
    assert_eq!(f(&v, "duplicates.per_day"), 0.0);
}

/// A 24 h dedupe TTL against Svix's 27.6 h horizon leaks the last redelivery: the key store
/// still lets duplicates through; a TTL past the horizon lets none.
#[test]
fn a_ttl_shorter_than_the_senders_horizon_leaks() {
    let args = [
        "estimate",
        "--preset",
        "svix-webhooks",
        "--timeout-rate",
        "30%",
    ];
    let short = json(&args);
    assert!(f(&short, "duplicates.with_key_store.per_day") > 0.0);
    let table = String::from_utf8(succeed(dupcost().args(args)).stdout).unwrap();
    assert!(
        table.contains("shorter than the client's retry horizon"),
        "{table}"
    );
    let long = json(&[&args[..], &["--ttl", "28h"]].concat());
    assert_eq!(f(&long, "duplicates.with_key_store.per_day"), 0.0);
}

#[test]
fn flags_win_over_the_preset_and_the_preset_over_the_file() {
    // --retries after the preset takes the first two of its delays.
    let v = json(&["estimate", "--preset", "svix-webhooks", "--retries", "2"]);
    assert_eq!(v["inputs"]["retries"], 2);
    assert_eq!(f(&v, "retry_horizon_seconds"), 3.0 * 15.0 + 5.0 + 300.0);
    // The flag's order does not matter: flags always win.
    let v = json(&[
        "estimate",
        "--attempt-timeout",
        "30s",
        "--preset",
        "svix-webhooks",
    ]);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 30.0);
    // Backoff flags describe the schedule instead of the preset's delays.
    let v = json(&["estimate", "--preset", "svix-webhooks", "--backoff", "2s"]);
    assert!(v["inputs"].get("schedule_seconds").is_none(), "{v}");
    assert_eq!(v["inputs"]["retries"], 7);
    // The preset wins over a scenario file.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(
        &file,
        r#"{"attempt_timeout_seconds": 60, "order_value": 12}"#,
    )
    .unwrap();
    let v = json(&[
        "estimate",
        "--scenario",
        file.to_str().unwrap(),
        "--preset",
        "svix-webhooks",
    ]);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 15.0);
    assert_eq!(f(&v, "inputs.order_value"), 12.0);
    // The environment is a flag too.
    let out = succeed(
        dupcost()
            .env("DUPCOST_PRESET", "stripe")
            .args(["estimate", "--format", "json"]),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(f(&v, "inputs.ttl_seconds"), DAY);
}

#[test]
fn schedule_sets_the_retries_and_the_horizon() {
    let v = json(&[
        "estimate",
        "--schedule",
        "5s,5m,30m,2h,5h,10h,10h",
        "--attempt-timeout",
        "15s",
    ]);
    assert_eq!(v["inputs"]["retries"], 7);
    assert_eq!(f(&v, "retry_horizon_seconds"), 99_425.0);
    // More retries than delays: the last delay repeats.
    let v = json(&["estimate", "--schedule", "1m,1h", "--retries", "4"]);
    assert_eq!(
        f(&v, "retry_horizon_seconds"),
        5.0 * 10.0 + 60.0 + 3.0 * HOUR
    );
    // The JSON round-trips as a scenario file.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("saved.json");
    std::fs::write(&file, serde_json::to_vec(&v).unwrap()).unwrap();
    let again = json(&["estimate", "--scenario", file.to_str().unwrap()]);
    assert_eq!(again["inputs"], v["inputs"]);
    // A scenario file may give the delays as text too.
    std::fs::write(&file, r#"{"schedule_seconds": "5s,5m"}"#).unwrap();
    let v = json(&["estimate", "--scenario", file.to_str().unwrap()]);
    assert_eq!(v["inputs"]["retries"], 2);
}

#[test]
fn bad_presets_and_schedules_name_what_is_wrong() {
    let err = usage_error(&["estimate", "--preset", "strip"]);
    assert!(err.contains("unknown preset 'strip'"), "{err}");
    assert!(err.contains("stripe, adyen"), "{err}");
    assert!(err.contains("svix-webhooks"), "{err}");
    let err = usage_error(&["estimate", "--preset", "braintree"]);
    assert!(err.contains("no preset for braintree"), "{err}");
    let err = usage_error(&["estimate", "--schedule", "5s,-5m,30m"]);
    assert!(err.contains("delay 2 ('-5m')"), "{err}");
    assert!(err.contains("negative"), "{err}");
    let err = usage_error(&["estimate", "--schedule", "5s,5m,soon"]);
    assert!(err.contains("delay 3 ('soon')"), "{err}");
    let err = usage_error(&["estimate", "--schedule", "5s", "--backoff-max", "1m"]);
    assert!(err.contains("cannot be used with"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(&file, r#"{"schedule_seconds": [5, -1]}"#).unwrap();
    let err = usage_error(&["estimate", "--scenario", file.to_str().unwrap()]);
    assert!(err.contains("schedule_seconds: delay 2"), "{err}");
}

#[test]
fn presets_cite_a_source_for_every_value() {
    let out = succeed(dupcost().args(["presets", "--format", "json"]));
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = document["presets"].as_array().unwrap();
    let unconfirmed = document["unconfirmed"].to_string();
    assert!(unconfirmed.contains("braintree"), "{unconfirmed}");
    let names: Vec<&str> = list.iter().map(|p| p["name"].as_str().unwrap()).collect();
    for wanted in [
        "stripe",
        "adyen",
        "paypal",
        "stripe-webhooks",
        "svix-webhooks",
        "shopify-webhooks",
        "github-webhooks",
        "adyen-webhooks",
        "twilio-webhooks",
    ] {
        assert!(names.contains(&wanted), "{wanted} in {names:?}");
    }
    for preset in list {
        let values = preset["values"].as_array().unwrap();
        assert!(!values.is_empty(), "{preset}");
        for value in values {
            let url = value["source"]["url"].as_str().unwrap();
            assert!(url.starts_with("https://"), "{value}");
            assert!(!value["source"]["read"].as_str().unwrap().is_empty());
        }
    }
    let svix = list.iter().find(|p| p["name"] == "svix-webhooks").unwrap();
    assert_eq!(svix["retries"], 7);
    assert!(close(f(svix, "retry_horizon_seconds"), 99_425.0, 1e-12));
    let table = String::from_utf8(succeed(dupcost().arg("presets")).stdout).unwrap();
    assert!(
        table.contains("source: https://docs.svix.com/retries"),
        "{table}"
    );
    assert!(table.contains("left out:"), "{table}");
    assert!(table.contains("braintree"), "{table}");
}
