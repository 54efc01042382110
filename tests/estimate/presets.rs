//! `--preset`, `dupcost presets` and `--schedule` through the real binary: the providers'
//! documented figures (docs/MODEL.md, "For webhook consumers"), the layering (defaults <
//! scenario file < preset < flags) and the bad input.

use crate::common::{close, dupcost, json, succeed, usage_error};

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

/// `presets --format json`, parsed.
fn listing() -> serde_json::Value {
    let out = succeed(dupcost().args(["presets", "--format", "json"]));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn preset<'a>(document: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    document["presets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no preset {name}"))
}

fn value<'a>(preset: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    preset["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
}

/// A duration as the presets write it (`30s`, `5m`, `2h`, `1d`), read here without the crate's
/// parser so that the test checks it.
fn secs(text: &str) -> f64 {
    let (number, unit) = text.split_at(text.len() - 1);
    let n: f64 = number.parse().unwrap_or_else(|_| panic!("{text}"));
    n * match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => HOUR,
        "d" => DAY,
        _ => panic!("unit of {text}"),
    }
}

/// Every preset's horizon, computed here from its own values and the defaults: (r + 1) attempt
/// timeouts plus the first r delays, the last delay repeating past the list (docs/MODEL.md,
/// "The schedule"), equals what `dupcost presets` and `dupcost estimate --preset` report.
#[test]
fn every_horizon_is_its_delays_plus_its_attempt_timeouts() {
    let defaults = json(&["estimate"])["inputs"].clone();
    let document = listing();
    let presets = document["presets"].as_array().unwrap();
    assert!(presets.len() >= 23, "{}", presets.len());
    for p in presets {
        let name = p["name"].as_str().unwrap();
        let timeout = value(p, "attempt_timeout_seconds")
            .map(|v| secs(v["value"].as_str().unwrap()))
            .unwrap_or_else(|| defaults["attempt_timeout_seconds"].as_f64().unwrap());
        let delays: Vec<f64> = match value(p, "schedule_seconds") {
            Some(v) => v["value"].as_str().unwrap().split(',').map(secs).collect(),
            None => {
                // The default backoff: 1 s doubling, capped at 30 s.
                let (b, f, c) = (
                    defaults["backoff_seconds"].as_f64().unwrap(),
                    defaults["backoff_factor"].as_f64().unwrap(),
                    defaults["backoff_max_seconds"].as_f64().unwrap(),
                );
                (0..100)
                    .scan(b, |d, _| {
                        let now = d.min(c);
                        *d = (*d * f).min(c);
                        Some(now)
                    })
                    .collect()
            }
        };
        let retries = match value(p, "retries") {
            Some(v) => v["value"].as_str().unwrap().parse::<usize>().unwrap(),
            None if value(p, "schedule_seconds").is_some() => delays.len(),
            None => defaults["retries"].as_u64().unwrap() as usize,
        };
        let slept: f64 = (0..retries).map(|k| delays[k.min(delays.len() - 1)]).sum();
        let horizon = (retries as f64 + 1.0) * timeout + slept;
        assert_eq!(p["retries"], retries, "{name}");
        assert!(
            close(f(p, "retry_horizon_seconds"), horizon, 1e-12),
            "{name}: {} vs {horizon}",
            p["retry_horizon_seconds"]
        );
        assert!(
            close(f(p, "attempt_timeout_seconds"), timeout, 1e-12),
            "{name}"
        );
        if p["side"] == "webhook_sender" {
            let v = json(&["estimate", "--preset", name]);
            assert_eq!(v["inputs"]["retries"], retries, "{name}");
            assert!(
                close(f(&v, "retry_horizon_seconds"), horizon, 1e-12),
                "{name}"
            );
        }
    }
    // Two worked figures, by hand: Square's 78 retries (six listed delays, then 60 minutes)
    // and Plaid's six (30 s, each 4 times the last).
    let square = preset(&document, "square-webhooks");
    assert_eq!(
        f(square, "retry_horizon_seconds"),
        79.0 * 10.0 + 63.0 * 60.0 + 72.0 * HOUR
    );
    let plaid = preset(&document, "plaid-webhooks");
    assert_eq!(
        f(plaid, "retry_horizon_seconds"),
        7.0 * 10.0 + 30.0 * (1.0 + 4.0 + 16.0 + 64.0 + 256.0 + 1024.0)
    );
}

#[test]
fn every_value_quotes_its_page_with_an_https_source() {
    let document = listing();
    assert_eq!(document["read_on"], "2026-12-02");
    for p in document["presets"].as_array().unwrap() {
        let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
        for key in [
            "name",
            "provider",
            "side",
            "values",
            "retries",
            "retry_horizon_seconds",
            "left_out",
            "horizon_basis",
            "horizon_inferred",
            "attempt_timeout_seconds",
            "notes",
        ] {
            assert!(keys.contains(&key), "{key} in {keys:?}");
        }
        for v in p["values"].as_array().unwrap() {
            let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                [
                    "name",
                    "value",
                    "says",
                    "source",
                    "inference",
                    "disagreement"
                ],
                "{v}"
            );
            assert!(!v["says"].as_str().unwrap().is_empty(), "{v}");
            let mut sources = vec![&v["source"]];
            if !v["disagreement"].is_null() {
                sources.push(&v["disagreement"]["source"]);
                assert!(!v["disagreement"]["choice"].as_str().unwrap().is_empty());
            }
            for source in sources {
                assert!(
                    source["url"].as_str().unwrap().starts_with("https://"),
                    "{v}"
                );
                let read = source["read"].as_str().unwrap();
                assert!(read.starts_with("2026-12-0") && read.len() == 10, "{v}");
                assert!(source.get("page_date").is_some(), "{v}");
            }
        }
    }
}

#[test]
fn inferences_and_disagreements_are_marked() {
    let document = listing();
    let inferred =
        |p: &str, v: &str| !value(preset(&document, p), v).unwrap()["inference"].is_null();
    // dupcost's own readings: Adyen's 100 retries, the fill-ins, schedules computed from a rule.
    assert!(inferred("adyen-webhooks", "retries"));
    assert!(inferred("adyen-webhooks", "schedule_seconds"));
    assert!(inferred("stripe-webhooks", "schedule_seconds"));
    assert!(inferred("shopify-webhooks", "schedule_seconds"));
    assert!(inferred("plaid-webhooks", "schedule_seconds"));
    assert!(inferred("recurly-webhooks", "schedule_seconds"));
    assert!(inferred("twilio-webhooks", "retries"));
    assert!(inferred("standard-webhooks", "attempt_timeout_seconds"));
    // Values the page gives as they stand carry none.
    assert!(!inferred("svix-webhooks", "schedule_seconds"));
    assert!(!inferred("zoom-webhooks", "schedule_seconds"));
    assert!(!inferred("chargebee-webhooks", "schedule_seconds"));
    assert_eq!(
        preset(&document, "adyen-webhooks")["horizon_inferred"],
        true
    );
    assert_eq!(
        preset(&document, "svix-webhooks")["horizon_inferred"],
        false
    );
    // Two pages of one provider that disagree: both shown, the choice said.
    let other = |p: &str, v: &str| value(preset(&document, p), v).unwrap()["disagreement"].clone();
    let truelayer = other("truelayer", "ttl_seconds");
    assert_eq!(truelayer["value"], "6h");
    assert!(
        truelayer["source"]["url"]
            .as_str()
            .unwrap()
            .ends_with("/docs/idempotency")
    );
    let github = other("github-webhooks", "attempt_timeout_seconds");
    assert_eq!(github["value"], "30s");
    assert!(
        github["source"]["url"]
            .as_str()
            .unwrap()
            .contains("enterprise-server")
    );
    let square = other("square-webhooks", "retries");
    assert!(
        square["says"].as_str().unwrap().contains("24 hours"),
        "{square}"
    );
    assert!(other("svix-webhooks", "schedule_seconds").is_null());
    // The table shows both, once each.
    let table = String::from_utf8(succeed(dupcost().arg("presets")).stdout).unwrap();
    assert!(table.contains("another page: 6h"), "{table}");
    assert!(
        table.contains("inference: Adyen lists 12 retries"),
        "{table}"
    );
}

/// The block of one preset in the table, from its name line to the blank line after it.
fn block<'a>(table: &'a str, name: &str) -> &'a str {
    let start = table
        .find(&format!("\n{name}  "))
        .unwrap_or_else(|| panic!("{name} in {table}"));
    let rest = &table[start + 1..];
    &rest[..rest.find("\n\n").unwrap()]
}

#[test]
fn the_listing_says_its_date_once_and_what_each_preset_means() {
    let table = String::from_utf8(succeed(dupcost().arg("presets")).stdout).unwrap();
    assert_eq!(table.matches("2026-12-02").count(), 1, "{table}");
    // Pages read earlier say their own date; a page's own date is shown as such.
    assert!(block(&table, "adyen").contains("(read 2026-12-01)"));
    assert!(block(&table, "truelayer").contains("(page dated 2026-06-02)"));
    // No retries: no word of redeliveries a dedupe TTL would process twice.
    for name in ["github-webhooks", "twilio-webhooks"] {
        let b = block(&table, name);
        assert!(!b.contains("processes the last redeliveries twice"), "{b}");
        assert!(b.contains("no automatic redelivery after a timeout"), "{b}");
    }
    assert!(block(&table, "twilio-webhooks").contains("fails the request"));
    // A schedule: its retries and horizon.
    let svix = block(&table, "svix-webhooks");
    assert!(
        svix.contains("7 retries after a timeout, horizon 1d3h37m5s"),
        "{svix}"
    );
    assert!(!svix.contains("inference"), "{svix}");
    // No published delays: the defaults are not the provider's, a documented span is said.
    let gocardless = block(&table, "gocardless-webhooks");
    assert!(gocardless.contains("not the provider's"), "{gocardless}");
    assert!(gocardless.contains("up to 8 times"), "{gocardless}");
    let razorpay = block(&table, "razorpay-webhooks");
    assert!(razorpay.contains("documented span is 24h"), "{razorpay}");
    // A payment API: its key window.
    assert!(block(&table, "qonto").contains("key window 30m"));
}

/// Twilio retries a failed connection only: that request never reached the receiver, so it
/// cannot run twice, and the model has no retry after a timeout.
#[test]
fn twilio_connection_retries_create_no_duplicates() {
    let v = json(&[
        "estimate",
        "--preset",
        "twilio-webhooks",
        "--timeout-rate",
        "5%",
    ]);
    assert_eq!(v["inputs"]["retries"], 0);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 15.0);
    assert_eq!(f(&v, "retry_horizon_seconds"), 15.0);
    assert_eq!(f(&v, "duplicates.per_day"), 0.0);
}

#[test]
fn the_added_presets_set_their_documented_values() {
    let v = json(&["estimate", "--preset", "qonto"]);
    assert_eq!(f(&v, "inputs.ttl_seconds"), 30.0 * 60.0);
    let v = json(&["estimate", "--preset", "zoom-webhooks"]);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 3.0);
    assert_eq!(
        v["inputs"]["schedule_seconds"],
        serde_json::json!([300.0, 1200.0, 3600.0])
    );
    let v = json(&["estimate", "--preset", "braintree-webhooks"]);
    assert_eq!(v["inputs"]["retries"], 24);
    assert_eq!(f(&v, "retry_horizon_seconds"), 25.0 * 30.0 + 24.0 * HOUR);
    let v = json(&["estimate", "--preset", "chargebee-webhooks"]);
    assert_eq!(v["inputs"]["retries"], 7);
    // A span without delays sets no input: the defaults stay, and the sources say so.
    let v = json(&["estimate", "--preset", "razorpay-webhooks"]);
    assert_eq!(v["inputs"], json(&["estimate"])["inputs"]);
    // Mollie: a 15 s timeout, 10 calls over 26 hours (9 retries); GoCardless: a 10 s
    // timeout and 8 retries, with the default backoff between them.
    let v = json(&["estimate", "--preset", "mollie-webhooks"]);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 15.0);
    assert_eq!(v["inputs"]["retries"], 9);
    assert_eq!(f(&v, "retry_horizon_seconds"), 10.0 * 15.0 + 26.0 * HOUR);
    let v = json(&["estimate", "--preset", "gocardless-webhooks"]);
    assert_eq!(f(&v, "inputs.attempt_timeout_seconds"), 10.0);
    assert_eq!(v["inputs"]["retries"], 8);
    assert_eq!(
        f(&v, "retry_horizon_seconds"),
        9.0 * 10.0 + (1.0 + 2.0 + 4.0 + 8.0 + 16.0 + 30.0 + 30.0 + 30.0)
    );
}

/// docs/PRESETS.md quotes every value of the listing with its URL (it is generated from the
/// JSON listing; this keeps it in step).
#[test]
fn docs_quote_every_value_with_its_url() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/PRESETS.md")).unwrap();
    let document = listing();
    assert!(doc.contains(document["read_on"].as_str().unwrap()));
    for p in document["presets"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        assert!(doc.contains(&format!("### `{name}`")), "{name}");
        for v in p["values"].as_array().unwrap() {
            let mut quoted = vec![v];
            if !v["disagreement"].is_null() {
                quoted.push(&v["disagreement"]);
            }
            for q in quoted {
                let says = q["says"].as_str().unwrap();
                assert!(doc.contains(says), "{name}: {says}");
                let url = q["source"]["url"].as_str().unwrap();
                assert!(doc.contains(&format!("<{url}>")), "{name}: {url}");
            }
            if let Some(how) = v["inference"].as_str() {
                assert!(doc.contains(how), "{name}: {how}");
            }
        }
    }
}
