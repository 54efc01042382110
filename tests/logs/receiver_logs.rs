//! A webhook receiver's own log (issue 28), from `examples/gen-access-log --receiver`, whose
//! true events, deliveries past the sender's timeout, processed ones and duplicates are known:
//! `dupcost logs` measures them from `--client-timeout` alone or from the sender's `--preset`,
//! detects whose log it is from the event-id column, and says so.

use std::path::{Path, PathBuf};

use crate::common::{dupcost, json, succeed};
use crate::receiver::{ReceiverConfig, ReceiverTruth, generate_receiver};
use crate::support::group;

const SVIX: [f64; 7] = [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0];

fn config(schedule: &[f64], csv: bool) -> ReceiverConfig {
    ReceiverConfig {
        events: 20_000,
        seed: 28,
        days: 7.0,
        start: 1_793_491_200.0,
        timeout_rate: 0.08,
        succeeded_share: 0.45,
        sender_timeout: 15.0,
        schedule: schedule.to_vec(),
        csv,
    }
}

fn write(dir: &Path, name: &str, cfg: &ReceiverConfig) -> (PathBuf, ReceiverTruth) {
    let path = dir.join(name);
    let truth = generate_receiver(cfg, std::fs::File::create(&path).unwrap()).unwrap();
    (path, truth)
}

fn within(measured: f64, truth: f64, what: &str) {
    assert!(
        (measured - truth).abs() <= 0.01 * truth.abs(),
        "{what}: measured {measured}, truth {truth}"
    );
}

/// Events a day, timeout rate, succeeded share and deliveries processed twice, each within
/// 1% of the truth (in fact exact).
fn assert_truth(v: &serde_json::Value, truth: &ReceiverTruth) {
    let days = truth.days_covered();
    let f = |path: &str| {
        path.split('.')
            .fold(v, |v, k| &v[k])
            .as_f64()
            .unwrap_or_else(|| panic!("{path} in {v}"))
    };
    within(
        f("inputs.requests_per_day"),
        truth.events as f64 / days,
        "events a day",
    );
    within(
        f("inputs.timeout_rate"),
        truth.timed_out as f64 / truth.deliveries as f64,
        "timeout rate",
    );
    within(
        f("inputs.succeeded_share"),
        truth.timed_out_processed as f64 / truth.timed_out as f64,
        "succeeded share",
    );
    within(
        f("observed.processed_twice.extra_executions"),
        truth.extra_processings as f64,
        "deliveries processed twice",
    );
    within(
        f("observed.processed_twice.intents"),
        truth.processed_twice as f64,
        "events processed twice",
    );
    assert!(truth.extra_processings > 100, "the test needs duplicates");
    assert_eq!(v["observed"]["files"][0]["log_side"], "server");
}

#[test]
fn the_client_timeout_alone_measures_a_receivers_log() {
    let dir = tempfile::tempdir().unwrap();
    // A schedule inside the default retry window (1 h between deliveries).
    let (path, truth) = write(
        dir.path(),
        "hooks.csv",
        &config(&[5.0, 300.0, 1800.0], true),
    );
    let v = json(&["logs", path.to_str().unwrap(), "--client-timeout", "15s"]);
    assert_truth(&v, &truth);
    let why = v["observed"]["files"][0]["log_side_why"].as_str().unwrap();
    assert!(why.starts_with("detected"), "{why}");
    assert!(why.contains("webhook-id"), "{why}");
}

#[test]
fn the_senders_preset_measures_a_receivers_log_over_the_whole_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let (path, truth) = write(dir.path(), "hooks.jsonl", &config(&SVIX, false));
    let v = json(&["logs", path.to_str().unwrap(), "--preset", "svix-webhooks"]);
    assert_truth(&v, &truth);
    // The sender's published budget, not the most the log happened to show.
    assert_eq!(v["inputs"]["retries"], 7);
    let warnings = v["observed"]["warnings"].to_string();
    assert!(
        warnings.contains("client timeout 15s from --preset svix-webhooks"),
        "{warnings}"
    );
    assert!(warnings.contains("retry window widened"), "{warnings}");
    let table =
        succeed(dupcost().args(["logs", path.to_str().unwrap(), "--preset", "svix-webhooks"]));
    let table = String::from_utf8(table.stdout).unwrap();
    let line = format!(
        "processed twice: {} executions past the first",
        truth.extra_processings
    );
    let line = line.replace(
        &truth.extra_processings.to_string(),
        &group(truth.extra_processings),
    );
    assert!(table.contains(&line), "{line} in {table}");
    // With a window under the 2 h delay the later redeliveries split events in two.
    let split = json(&[
        "logs",
        path.to_str().unwrap(),
        "--preset",
        "svix-webhooks",
        "--retry-window",
        "59m",
    ]);
    assert!(split["observed"]["intents"].as_u64().unwrap() > truth.events);
}

#[test]
fn whose_log_it_is_can_be_told_and_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write(dir.path(), "hooks.csv", &config(&[5.0], true));
    let file = path.to_str().unwrap();
    // Told it is a proxy's log, the outcomes are unknown: the figure is assumed and its line
    // names the fix; scripts that ask for a measure are refused.
    let args = [
        "logs",
        file,
        "--client-timeout",
        "15s",
        "--log-side",
        "proxy",
    ];
    let out = succeed(dupcost().args(args));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("no upstream status column"), "{text}");
    assert!(text.contains("assumed: no outcome is known"), "{text}");
    let out = dupcost()
        .args(args)
        .arg("--require-measured")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no upstream status column"), "{err}");
    // Without a client timeout the server's log shows no timeouts: it says so.
    let out = succeed(dupcost().args(["logs", file, "--succeeded-share", "50%"]));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--client-timeout"), "{err}");
    // A log keyed by idempotency key with no upstream column is assumed a proxy's, and
    // --log-side server makes its status the outcome.
    let plain = dir.path().join("api.csv");
    std::fs::write(
        &plain,
        "timestamp,method,path,status,duration_ms,idempotency_key\n\
         2026-11-01T00:00:00Z,POST,/pay,200,31000,k1\n\
         2026-11-01T00:01:00Z,POST,/pay,200,40,k1\n\
         2026-11-01T02:00:00Z,POST,/pay,500,31000,k2\n\
         2026-11-01T02:01:00Z,POST,/pay,200,35,k2\n",
    )
    .unwrap();
    let plain = plain.to_str().unwrap();
    let v = json(&[
        "logs",
        plain,
        "--client-timeout",
        "30s",
        "--log-side",
        "server",
        "--min-span",
        "1m",
    ]);
    assert_eq!(v["inputs"]["succeeded_share"], 0.5);
    assert_eq!(v["observed"]["processed_twice"]["extra_executions"], 1);
    assert_eq!(
        v["observed"]["files"][0]["log_side_why"],
        "--log-side server"
    );
    // Assumed a proxy's: its two timeouts are too few to need the outcome (the minimum-evidence
    // rule), so the default share stands, and the note names --log-side server.
    let v = json(&["logs", plain, "--client-timeout", "30s", "--min-span", "1m"]);
    assert_eq!(v["sources"]["succeeded_share"], "default");
    assert_eq!(v["observed"]["files"][0]["log_side"], "proxy");
    let out =
        succeed(dupcost().args(["logs", plain, "--client-timeout", "30s", "--min-span", "1m"]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("--log-side server"), "{text}");
}

/// `--format csv` has the JSON's `processed_twice` figures in its last `observed.*` columns,
/// and leaves them empty for a proxy's log.
#[test]
fn csv_has_the_processed_twice_figures() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("api.csv");
    std::fs::write(
        &plain,
        "timestamp,method,path,status,duration_ms,idempotency_key\n\
         2026-11-01T00:00:00Z,POST,/pay,200,31000,k1\n\
         2026-11-01T00:01:00Z,POST,/pay,200,40,k1\n\
         2026-11-01T00:02:00Z,POST,/pay,200,35,k1\n\
         2026-11-02T00:00:00Z,POST,/pay,500,31000,k2\n\
         2026-11-02T00:01:00Z,POST,/pay,200,35,k2\n",
    )
    .unwrap();
    let plain = plain.to_str().unwrap();
    let csv = |side: &str| {
        let out = succeed(dupcost().args([
            "logs",
            plain,
            "--client-timeout",
            "30s",
            "--log-side",
            side,
            "--format",
            "csv",
        ]));
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
        let row: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
        assert_eq!(header.len(), row.len(), "{text}");
        move |name: &str| {
            let i = header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("no {name} in {header:?}"));
            row[i].clone()
        }
    };
    let column = csv("server");
    let v = json(&[
        "logs",
        plain,
        "--client-timeout",
        "30s",
        "--log-side",
        "server",
    ]);
    let p = &v["observed"]["processed_twice"];
    assert_eq!(p["intents"], 1, "{p}");
    assert_eq!(p["extra_executions"], 2, "{p}");
    assert_eq!(column("observed.processed_twice.intents"), "1");
    assert_eq!(column("observed.processed_twice.extra_executions"), "2");
    let per_day: f64 = column("observed.processed_twice.per_day").parse().unwrap();
    let want = p["per_day"].as_f64().unwrap();
    assert!(
        want > 0.0 && (per_day - want).abs() < 1e-9 * want,
        "{per_day} {want}"
    );
    let column = csv("proxy");
    for name in ["intents", "extra_executions", "per_day"] {
        assert_eq!(column(&format!("observed.processed_twice.{name}")), "");
    }
}
