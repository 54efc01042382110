//! Issue 10: real proxy logs, measured honestly. Every case on a generated log whose truth is
//! known (unknown outcomes in each proxy's style, the backend's own log with attempts that
//! never reached it, status 0 and give-up flags, per-attempt ids, short spans, clocks set
//! back), and on small hand-made fixtures shaped like the logs real proxies write
//! (`tests/fixtures/proxies/`: ingress-nginx upstreaminfo, AWS ALB as Athena names its
//! fields, Envoy's default format and HAProxy's httplog as Logstash's grok patterns name
//! them, Traefik's CLF fields), converted to CSV as a user would.

use crate::common;
use crate::generator;

use std::path::{Path, PathBuf};

use crate::common::{dupcost, succeed};
use crate::generator::{Config, Format, Truth};
use crate::support::{fails, group, json, output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/proxies");

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

/// Writes a generated proxy log (and the backend's, when `backend` names a file).
fn log(dir: &Path, cfg: &Config, backend: Option<&str>) -> (PathBuf, Option<PathBuf>, Truth) {
    let path = dir.join("proxy.csv");
    let b = backend.map(|name| dir.join(name));
    let truth = generator::generate_with_backend(
        cfg,
        std::fs::File::create(&path).unwrap(),
        b.as_ref().map(|p| std::fs::File::create(p).unwrap()),
    )
    .unwrap();
    (path, b, truth)
}

fn close(a: &serde_json::Value, b: f64) -> bool {
    common::close(a.as_f64().unwrap(), b, 1e-12)
}

/// Unknown outcomes in each proxy's style (nginx `-` and its own 504, ALB `-`, Traefik's
/// echoed status, CSV `-`): left out of the share, counted, and bounded.
#[test]
fn unknown_outcomes_in_each_proxys_style() {
    let dir = tempfile::tempdir().unwrap();
    for format in [Format::Csv, Format::Nginx, Format::Alb, Format::Traefik] {
        let cfg = Config {
            rows: 20_000,
            format,
            seed: 11,
            unknown_share: 0.06,
            ..Config::default()
        };
        let (path, _, truth) = log(dir.path(), &cfg, None);
        assert!(truth.timed_out_unknown > 0, "{format:?}");
        let v = json(&[path.to_str().unwrap()]);
        let o = &v["observed"];
        assert_eq!(o["timed_out"], truth.timed_out, "{format:?}");
        assert_eq!(
            o["timed_out_unknown"], truth.timed_out_unknown,
            "{format:?}"
        );
        assert_eq!(
            o["timed_out_succeeded"], truth.timed_out_succeeded,
            "{format:?}"
        );
        assert!(close(
            &v["inputs"]["succeeded_share"],
            truth.succeeded_share()
        ));
        // The interval holds both bounds (every unknown failed, every unknown succeeded).
        let [lo, hi] = [0, 1].map(|i| v["intervals"]["succeeded_share"][i].as_f64().unwrap());
        let all = truth.timed_out as f64;
        assert!(lo <= truth.timed_out_succeeded as f64 / all, "{format:?}");
        assert!(hi >= (truth.timed_out_succeeded + truth.timed_out_unknown) as f64 / all);
        let (text, _) = output(&[path.to_str().unwrap()]);
        let shown = format!("{} of {} unknown", truth.timed_out_unknown, truth.timed_out);
        assert!(text.contains(&shown), "{format:?}: {text}");
    }
}

/// Over `--max-unknown`, the share is not measured: the report stands on the default, marked
/// assumed, with the bounds the log allows and both ways out; `--require-measured` refuses with
/// one line as before; with `--succeeded-share` the evidence still shows the measured bounds.
#[test]
fn too_many_unknowns_give_the_bounds_not_a_figure() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 8_000,
        format: Format::Nginx,
        unknown_share: 0.5,
        ..Config::default()
    };
    let (path, _, truth) = log(dir.path(), &cfg, None);
    let p = path.to_str().unwrap();
    let all = truth.timed_out as f64;
    let pct = |v: f64| format!("{}%", (v * 1000.0).round() / 10.0);
    let low = pct(truth.timed_out_succeeded as f64 / all);
    let high = pct((truth.timed_out_succeeded + truth.timed_out_unknown) as f64 / all);
    let v = json(&[p]);
    let kind = &v["input_kinds"]["succeeded_share"];
    assert_eq!(kind["kind"], "assumed", "{kind}");
    assert_eq!(kind["reason"], "unknown_outcomes", "{kind}");
    let bounds = kind["bounds"].as_array().unwrap();
    let (lo, hi) = (bounds[0].as_f64().unwrap(), bounds[1].as_f64().unwrap());
    let every_failed = truth.timed_out_succeeded as f64 / all;
    let every_succeeded = (truth.timed_out_succeeded + truth.timed_out_unknown) as f64 / all;
    assert!(lo <= every_failed && every_succeeded <= hi, "{kind}");
    assert_eq!(v["inputs"]["succeeded_share"], 0.5);
    let b = &v["bounds"]["duplicates_per_month"];
    assert!(b[0].as_f64().unwrap() < v["duplicates"]["per_month"].as_f64().unwrap());
    assert!(b[1].as_f64().unwrap() > v["duplicates"]["per_month"].as_f64().unwrap());
    let err = fails(
        &[p, "--require-measured"],
        &[
            &format!(
                "{} of {} timed-out attempts",
                truth.timed_out_unknown, truth.timed_out
            ),
            "more than --max-unknown 10%",
            &format!("between {low} (if every unknown failed) and {high}"),
            "--succeeded-share",
            "--outcomes",
        ],
    );
    assert!(!err.trim_end().contains('\n'));
    // A threshold that allows them derives the share over the known outcomes.
    let v = json(&[p, "--max-unknown", "60%"]);
    assert!(close(
        &v["inputs"]["succeeded_share"],
        truth.succeeded_share()
    ));
    let (text, _) = output(&[p, "--succeeded-share", "40%"]);
    assert!(
        text.contains(&format!(
            "succeeded share 40% from --succeeded-share (measured: between {low} to {high}"
        )),
        "{text}"
    );
}

/// The backend's own log settles the outcomes: each timed-out attempt takes the backend's
/// status, and one absent from it (within its span) never reached it. CSV and JSON lines;
/// proxies with no upstream column at all (Envoy, HAProxy) and with one (nginx).
#[test]
fn the_backend_log_settles_the_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    for (format, json_lines) in [
        (Format::Envoy, true),
        (Format::Haproxy, false),
        (Format::Nginx, true),
        (Format::Traefik, false),
    ] {
        let cfg = Config {
            rows: 20_000,
            format,
            seed: 5,
            unknown_share: 0.3,
            never_reached_share: 0.25,
            request_ids: true,
            backend_json: json_lines,
            ..Config::default()
        };
        let (path, backend, truth) = log(dir.path(), &cfg, Some("backend.log"));
        let (p, b) = (path.to_str().unwrap(), backend.unwrap());
        let never = truth.backend.never_reached_ts.len() as u64;
        let outside = truth
            .backend
            .never_reached_ts
            .iter()
            .filter(|&&ts| ts < truth.backend.first_ts || ts > truth.backend.last_ts)
            .count() as u64;
        assert!(never > 0, "{format:?}");
        let v = json(&[p, "--outcomes", b.to_str().unwrap()]);
        let o = &v["observed"];
        assert_eq!(o["timed_out"], truth.timed_out, "{format:?}");
        assert_eq!(
            o["timed_out_matched"],
            truth.timed_out - never,
            "{format:?}"
        );
        assert_eq!(o["backend_log"]["never_reached"], never - outside);
        assert_eq!(o["backend_log"]["outside_span"], outside);
        assert_eq!(o["backend_log"]["backend_rows"], truth.backend.rows);
        assert_eq!(o["timed_out_succeeded"], truth.timed_out_truly_succeeded);
        if outside == 0 {
            assert_eq!(o["timed_out_unknown"], 0, "{format:?}");
            assert!(close(
                &v["inputs"]["succeeded_share"],
                truth.timed_out_truly_succeeded as f64 / truth.timed_out as f64
            ));
            let (text, _) = output(&[p, "--outcomes", b.to_str().unwrap()]);
            let evidence = format!(
                " = {} answered 2xx by the backend / {} timed out ({} never reached it, 0 outside the backend log's span)",
                truth.timed_out_truly_succeeded, truth.timed_out, never
            );
            assert!(text.contains(&evidence), "{format:?}: {text}");
        }
    }
}

/// Attempts outside the backend log's span keep the proxy log's outcome; the memory kept is
/// the timed-out attempts' ids only.
#[test]
fn attempts_outside_the_backend_logs_span_keep_the_proxys_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 10_000,
        format: Format::Nginx,
        request_ids: true,
        ..Config::default()
    };
    let (path, backend, truth) = log(dir.path(), &cfg, Some("backend.csv"));
    // Only the first half of the backend's log.
    let text = std::fs::read_to_string(backend.unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = lines[..lines.len() / 2].join("\n") + "\n";
    let b = dir.path().join("half.csv");
    std::fs::write(&b, half).unwrap();
    let v = json(&[path.to_str().unwrap(), "--outcomes", b.to_str().unwrap()]);
    let o = &v["observed"];
    let j = &o["backend_log"];
    let matched = j["matched"].as_u64().unwrap();
    let outside = j["outside_span"].as_u64().unwrap();
    assert!(matched > 0 && outside > 0, "{j}");
    assert_eq!(j["never_reached"], 0);
    assert_eq!(matched + outside, truth.timed_out);
    // Every outcome is known here, so the figures agree with the proxy's own.
    assert_eq!(o["timed_out_succeeded"], truth.timed_out_succeeded);
}

/// Status 0 and the give-up flags (Envoy `UT`, `DC`, `UC`, `URX`; HAProxy `sH`, `CD`, `cR`,
/// `SH`) count as timeouts whatever the status; without an upstream column the share needs
/// `--outcomes` or `--succeeded-share`.
#[test]
fn status_0_and_give_up_flags_count_as_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    for format in [Format::Envoy, Format::Haproxy, Format::Traefik] {
        let cfg = Config {
            rows: 6_000,
            format,
            ..Config::default()
        };
        let (path, _, truth) = log(dir.path(), &cfg, None);
        let v = json(&[path.to_str().unwrap(), "--succeeded-share", "50%"]);
        assert_eq!(v["observed"]["timed_out"], truth.timed_out, "{format:?}");
        assert!(close(&v["inputs"]["timeout_rate"], truth.timeout_rate()));
    }
    let text = std::fs::read_to_string(fixture("envoy.csv")).unwrap();
    assert!(text.contains(",0,DC,") && text.contains(",504,UT,"));
    let v = json(&[&fixture("envoy.csv"), "--succeeded-share", "50%"]);
    // UT (504), DC (status 0), "UC,URX" (503): three of seven mutating attempts; NR is not one.
    assert_eq!(v["observed"]["timed_out"], 3);
    assert_eq!(v["observed"]["mutating_attempts"], 7);
    // Three timed-out attempts are too few to ask for the share: the default, and why.
    let (text, _) = output(&[&fixture("envoy.csv")]);
    assert!(
        text.contains(
            "succeeded share: not measured from 3 timed-out attempts: too few (needs 30), and "
        ) && text.contains("no upstream status column")
            && text.contains("--outcomes FILE"),
        "{text}"
    );
}

/// A key column that is in fact per-attempt: ignored for intents and retries, with a
/// warning on stderr and in the JSON; retries come from the scenario, never a silent 0.
#[test]
fn per_attempt_keys_are_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 6_000,
        per_attempt_keys: true,
        ..Config::default()
    };
    let (path, _, truth) = log(dir.path(), &cfg, None);
    let p = path.to_str().unwrap();
    let out = succeed(dupcost().args(["logs", p, "--format", "json"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("warning: the key column idempotency_key looks per-attempt"),
        "{stderr}"
    );
    assert!(
        v["observed"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("--retries")
    );
    assert_eq!(v["observed"]["intents"], truth.mutating_attempts);
    assert_eq!(v["inputs"]["retries"], 3, "the scenario's default, not 0");
    let v = json(&[p, "--retries", "2"]);
    assert_eq!(v["inputs"]["retries"], 2);
}

/// A span under `--min-span` is not scaled to a day: 3 rows within a second, 2 rows 74 s
/// apart, 14 minutes of generated log.
#[test]
fn short_spans_are_not_scaled_to_a_day() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let second = write(
        "second.csv",
        "timestamp,method,status,upstream_status\n2026-11-01T00:00:00.1Z,POST,201,201\n2026-11-01T00:00:00.5Z,POST,504,201\n2026-11-01T00:00:00.9Z,POST,201,201\n",
    );
    fails(
        &[&second, "--require-measured"],
        &[
            "span only 800ms, less than --min-span 1h",
            "--requests-per-day",
        ],
    );
    // Without it the span is scaled all the same, marked assumed, naming what settles it.
    let (text, _) = output(&[&second]);
    assert!(
        text.contains("assumed: the log's timestamps span only 800ms, less than --min-span 1h"),
        "{text}"
    );
    let v = json(&[&second]);
    assert_eq!(v["input_kinds"]["requests_per_day"]["kind"], "assumed");
    assert_eq!(v["input_kinds"]["requests_per_day"]["reason"], "short_span");
    let two = write(
        "two.csv",
        "timestamp,method,status,upstream_status\n2026-11-01T00:00:00Z,POST,201,201\n2026-11-01T00:01:14Z,POST,504,201\n",
    );
    fails(
        &[&two, "--require-measured"],
        &["span only 1m 14s", "--min-span", "--requests-per-day"],
    );
    let v = json(&[&two, "--requests-per-day", "1000"]);
    assert_eq!(v["inputs"]["requests_per_day"], 1000.0);
    let v = json(&[&two, "--min-span", "1m"]);
    assert!(close(
        &v["inputs"]["requests_per_day"],
        2.0 / (74.0 / 86_400.0)
    ));

    let cfg = Config {
        rows: 2_000,
        days: 0.01,
        ..Config::default()
    };
    let (path, _, _) = log(dir.path(), &cfg, None);
    fails(
        &[path.to_str().unwrap(), "--require-measured"],
        &["less than --min-span 1h"],
    );

    // No mutating request in a short span: requests a day is not the log's 0, so no cost is
    // said to be 0 beside the figures the scenario's traffic gives.
    let gets = write(
        "gets.csv",
        "timestamp,method,status
2026-11-01T00:00:00Z,GET,200
2026-11-01T00:54:00Z,GET,200
",
    );
    let v = json(&[&gets]);
    let warnings = v["observed"]["warnings"].to_string();
    assert!(v["duplicates"]["per_month"].as_f64().unwrap() > 0.0);
    assert!(
        warnings
            .contains("log's 54m, too short to stand for a day: requests a day is the scenario's"),
        "{warnings}"
    );
    assert!(!warnings.contains("so is every cost"), "{warnings}");
    let v = json(&[&gets, "--min-span", "10m"]);
    assert_eq!(v["duplicates"]["per_month"], 0.0);
    assert!(
        v["observed"]["warnings"]
            .to_string()
            .contains("requests a day from it is 0, and so is every cost")
    );
}

/// A clock set back by more than the retry window, and days missing in the middle, are
/// warned about on stderr and in `observed.warnings`.
#[test]
fn backwards_clocks_and_missing_days_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 6_000,
        clock_back_secs: 3 * 3600,
        key_share: 0.0,
        ..Config::default()
    };
    let (path, _, truth) = log(dir.path(), &cfg, None);
    let out = succeed(dupcost().args(["logs", path.to_str().unwrap(), "--format", "json"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // Set back by 3 hours, less the time since the row before.
    let w = "timestamps run backwards by up to 2h 5";
    assert!(stderr.contains(w), "{stderr}");
    assert!(
        v["observed"]["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with(w)
    );
    assert_eq!(v["observed"]["timed_out"], truth.timed_out);
    // The same log read in pieces by threads finds the same jump.
    let v4 = json(&[path.to_str().unwrap(), "--threads", "4"]);
    assert_eq!(v4["observed"]["warnings"], v["observed"]["warnings"]);

    // Days 3 and 4 of a week taken out.
    let (path, _, _) = log(
        dir.path(),
        &Config {
            rows: 4_000,
            ..Config::default()
        },
        None,
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: String = text
        .lines()
        .filter(|l| !l.starts_with("2026-11-03") && !l.starts_with("2026-11-04"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, kept).unwrap();
    let (_, stderr) = output(&[path.to_str().unwrap()]);
    assert!(
        stderr.contains("warning: no mutating requests on 2 days inside the log's span (2026-11-03 to 2026-11-04)"),
        "{stderr}"
    );
}

/// The intervals: Wilson for the timeout rate, and the propagated low and high around the
/// estimate, in the JSON and the table.
#[test]
fn intervals_bracket_every_figure() {
    let p = "samples/access-log.csv";
    let v = json(&[p]);
    let i = &v["intervals"];
    let keys: Vec<&str> = i.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "requests_per_day",
            "timeout_rate",
            "succeeded_share",
            "duplicates_per_month",
            "refund_cost_per_month"
        ]
    );
    let within = |k: &str, value: f64| {
        let (lo, hi) = (i[k][0].as_f64().unwrap(), i[k][1].as_f64().unwrap());
        assert!(lo < value && value < hi, "{k}: {lo} {value} {hi}");
    };
    within(
        "requests_per_day",
        v["inputs"]["requests_per_day"].as_f64().unwrap(),
    );
    within(
        "timeout_rate",
        v["inputs"]["timeout_rate"].as_f64().unwrap(),
    );
    within(
        "succeeded_share",
        v["inputs"]["succeeded_share"].as_f64().unwrap(),
    );
    within(
        "duplicates_per_month",
        v["duplicates"]["per_month"].as_f64().unwrap(),
    );
    within(
        "refund_cost_per_month",
        v["refund_cost"]["per_month"].as_f64().unwrap(),
    );
    // Wilson for 68 timeouts in 2,137 attempts, by hand.
    let (k, n, z) = (68.0f64, 2137.0f64, 1.959963984540054f64);
    let p_hat = k / n;
    let centre = (p_hat + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p_hat * (1.0 - p_hat) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    assert!(close(&i["timeout_rate"][0], centre - half));
    assert!(close(&i["timeout_rate"][1], centre + half));
    let (text, _) = output(&[p]);
    assert!(
        text.lines()
            .any(|l| l.starts_with("  refunds $") && l.contains(" a month (95%: $")),
        "{text}"
    );
    // A given input has no interval of its own.
    let v = json(&[p, "--timeout-rate", "2%"]);
    assert_eq!(
        v["intervals"]["timeout_rate"],
        serde_json::json!([0.02, 0.02])
    );
}

/// Errors and messages that point at the fix.
#[test]
fn messages_point_at_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // No timestamp column: the headers and --column timestamp=.
    let f = write(
        "nots.csv",
        "when,method,status,upstream_status\nx,POST,504,201\n",
    );
    fails(
        &[&f, "--require-measured"],
        &[
            "no timestamp column",
            "headers found: when, method, status, upstream_status",
            "--column timestamp=HEADER",
            "--requests-per-day",
        ],
    );
    // Unparseable timestamps: the value and --timestamp-format. (HAProxy's accept_date,
    // `12/Mar/2024:09:15:02.184`, was the example; it is read since issue 12.)
    let f = write(
        "dotted.csv",
        "timestamp,method,status,upstream_status\n12.03.2024 09:15:02,POST,504,201\n",
    );
    fails(
        &[&f],
        &[
            "unparseable timestamp '12.03.2024 09:15:02'",
            "--timestamp-format",
        ],
    );
    let (auto, _) = output(&[&fixture("haproxy.csv"), "--succeeded-share", "50%"]);
    assert!(auto.contains("/ 6 mutating attempts"), "{auto}");
    let (text, _) = output(&[
        &fixture("haproxy.csv"),
        "--timestamp-format",
        "%d/%b/%Y:%H:%M:%S%.f",
        "--succeeded-share",
        "50%",
    ]);
    assert!(text.contains("3 timed out (status 0, 408, 460, 499, 504 or termination state c, C, s, S) / 6 mutating attempts"), "{text}");
    // No timeouts: no demand for the share, and the evidence says why; the timeout rate is
    // the log's thin 0 (of one attempt), so the share, assumed, changes no figure.
    let f = write(
        "none.csv",
        "timestamp,method,status\n2026-11-01T00:00:00Z,POST,201\n2026-11-01T02:00:00Z,GET,200\n",
    );
    let (text, _) = output(&[&f]);
    assert!(text.contains("succeeded share not measured: no timed-out mutating attempts in the log to tell it, so it cannot change the result (the timeout rate used is 0; only the 95% intervals' upper ends use it); using the default 50%, assumed (the log allows 0% to 100%)"), "{text}");
    // Plurals, tiny figures, the methods in the per-day header.
    assert!(
        text.contains("requests a day 12 = 1 intent (no idempotency keys"),
        "{text}"
    );
    assert!(
        text.contains("2 rows from") && text.contains(": 1 mutating attempt, 0 bad rows skipped"),
        "{text}"
    );
    assert!(
        text.contains("Per day (UTC; mutating = POST, PUT, PATCH, DELETE)"),
        "{text}"
    );
    let (text, _) = output(&[&f, "--methods", "POST"]);
    assert!(text.contains("Per day (UTC; mutating = POST)"), "{text}");
    let f = write(
        "slow.csv",
        "timestamp,method,status\n2025-01-01T00:00:00Z,POST,201\n2026-04-11T00:00:00Z,POST,201\n",
    );
    let (text, _) = output(&[&f]);
    assert!(text.contains("requests a day 0.0043 = 2 intents"), "{text}");
    // --since/--until: rows kept and filtered out.
    let (path, _, _) = log(
        dir.path(),
        &Config {
            rows: 3_000,
            ..Config::default()
        },
        None,
    );
    let v = json(&[
        path.to_str().unwrap(),
        "--since",
        "2026-11-03",
        "--until",
        "2026-11-05",
    ]);
    let filtered = v["observed"]["rows_filtered"].as_u64().unwrap();
    assert!(filtered > 1_000, "{filtered}");
    let (text, _) = output(&[
        path.to_str().unwrap(),
        "--since",
        "2026-11-03",
        "--until",
        "2026-11-05",
    ]);
    let kept = 3_000 - filtered;
    let shown = format!(
        "3,000 rows ({} kept, {} filtered out)",
        group(kept),
        group(filtered)
    );
    assert!(text.contains(&shown), "{shown}: {text}");
}

/// The hand-made fixtures shaped like real proxies' logs, with their backends' logs.
#[test]
fn logs_shaped_like_real_ones() {
    // ingress-nginx: 499 with upstream `-`, 504 with its own 504, 504 retried to a 201. One
    // known outcome is too little evidence (issue 24): the default stands, with the bounds.
    let (text, _) = output(&[&fixture("ingress-nginx.csv")]);
    assert!(
        text.contains("succeeded share: not measured: 3 of 4 timed-out attempts (75%) have no known outcome, more than --max-unknown allows for a measure; they lie between 25% to 100%"),
        "{text}"
    );
    let (text, _) = output(&[
        &fixture("ingress-nginx.csv"),
        "--outcomes",
        &fixture("ingress-nginx-backend.jsonl"),
    ]);
    assert!(text.contains("succeeded share 50% = 2 answered 2xx by the backend / 4 timed out (1 never reached it, 0 outside the backend log's span)"), "{text}");
    assert!(text.contains("request_id=req_id"), "{text}");
    // ALB: 460 and 504 with target_status_code `-`; the backend logs the trace id.
    let v = json(&[
        &fixture("alb.csv"),
        "--outcomes",
        &fixture("alb-backend.csv"),
    ]);
    let o = &v["observed"];
    assert_eq!(
        (o["timed_out"].as_u64(), o["timed_out_matched"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(o["backend_log"]["never_reached"], 1);
    // Two timed-out attempts are thin, yet the log's: 1 of 2, and `sources` says so.
    assert_eq!(v["sources"]["succeeded_share"], "log");
    assert_eq!(v["inputs"]["succeeded_share"], 0.5);
    assert_eq!(
        v["input_kinds"]["succeeded_share"]["thin"],
        serde_json::json!({"count": 1, "of": 2})
    );
    // Traefik: 499 echoed, 0 and 504 echoed: all unknown, and too few to ask for more.
    let (text, _) = output(&[&fixture("traefik.csv")]);
    assert!(
        text.contains("succeeded share: not measured: 3 of 3 timed-out attempts (100%) have no known outcome, more than --max-unknown allows for a measure; they lie between 0% to 100% (95%: 0% to 100%); using the default 50%, assumed"),
        "{text}"
    );
    let v = json(&[
        &fixture("traefik.csv"),
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "10%",
    ]);
    assert_eq!(v["observed"]["timed_out_unknown"], 3);
    // A backend-only column is named with --outcomes-column, and a wrong one is an error.
    fails(
        &[
            &fixture("alb.csv"),
            "--outcomes",
            &fixture("alb-backend.csv"),
            "--outcomes-column",
            "request_id=nope",
        ],
        &[
            "--outcomes-column request_id=nope: no such header",
            "x_amzn_trace_id",
        ],
    );
    // stdin is read once, whether as the proxy's log or the backend's.
    fails(
        &["-", "--outcomes", "-"],
        &["stdin ('-') can be read only once"],
    );
    // The proxy log needs a request id to join.
    fails(
        &[
            "samples/access-log.csv",
            "--outcomes",
            &fixture("alb-backend.csv"),
        ],
        &[
            "--outcomes joins by request id",
            "--column request_id=HEADER",
        ],
    );
}

/// An endpoint's succeeded share is its own only where the whole log's is measured and its
/// own unknown outcomes are within `--max-unknown`; else the scenario's share is used, and the
/// table shows `-`. (/a: 60 timeouts, 24 upstream 2xx, 6 5xx, 30 unknown; /b: 30 and 30,
/// none unknown; the whole log: 54 of 90 known, 30 of 120 unknown; each endpoint has the
/// minimum evidence of 30 known outcomes.)
#[test]
fn endpoint_shares_follow_the_whole_logs_rules() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("endpoints.csv");
    let mut text = String::from("time,method,path,status,upstream_status\n");
    let mut minute = 0;
    let mut row = |path: &str, status: &str, upstream: &str| {
        minute += 1;
        text.push_str(&format!(
            "2026-11-01T{:02}:{:02}:00Z,POST,{path},{status},{upstream}\n",
            minute / 60,
            minute % 60
        ));
    };
    for _ in 0..6 {
        for upstream in ["200", "200", "200", "200", "500", "-", "-", "-", "-", "-"] {
            row("/a", "504", upstream);
        }
        for upstream in [
            "200", "200", "200", "200", "200", "500", "500", "500", "500", "500",
        ] {
            row("/b", "504", upstream);
        }
    }
    for path in ["/a", "/b"] {
        for _ in 0..60 {
            row(path, "201", "201");
        }
    }
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let shares = |extra: &[&str]| -> Vec<String> {
        let (out, _) = output(&[&[path, "--min-span", "30m"], extra].concat());
        ["POST /a", "POST /b"]
            .into_iter()
            .map(|name| {
                let line = out
                    .lines()
                    .find(|l| l.trim_start().starts_with(name))
                    .unwrap_or_else(|| panic!("{name} in\n{out}"));
                line.split_whitespace().nth(4).unwrap().to_string()
            })
            .collect()
    };
    assert_eq!(shares(&["--max-unknown", "100%"]), ["80%", "50%"]);
    // /a's 50% unknown is over the limit the whole log's 25% is within.
    assert_eq!(shares(&["--max-unknown", "40%"]), ["-", "50%"]);
    // A share given for the log is given for its endpoints too.
    assert_eq!(shares(&["--succeeded-share", "40%"]), ["-", "-"]);
}

/// A real-shaped 5-row ingress-nginx log with per-attempt request ids (issue 24): 5 intents
/// and 2 timed out are no measurement of the clients' retries, timeout rate or succeeded
/// share. The defaults stand, the evidence names what was seen, and `sources` says where each
/// input came from; a flag still wins.
#[test]
fn five_rows_keep_the_defaults_with_a_note() {
    let path = fixture("ingress-nginx-5.log");
    let (text, _) = output(&[&path]);
    for line in [
        "retries 3: assumed: at least 0 retries seen from 2 timed-out fingerprinted intents, a floor (under 30, few timeouts rarely show a client's last retry); using the default 3, within it",
        "timeout rate 40% = 2 timed out (status 0, 408, 460, 499, 504) / 5 mutating attempts; thin: 2 of 5 (under 30)",
        "succeeded share: not measured: 2 of 2 timed-out attempts (100%) have no known outcome",
        "timeout rate 40% (95%: ",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let v = json(&[&path]);
    assert_eq!(v["inputs"]["retries"], 3);
    assert_eq!(v["inputs"]["timeout_rate"], 0.4);
    assert_eq!(v["observed"]["retries_observed"]["max"], 0);
    let s = &v["sources"];
    assert_eq!(s["retries"], "default");
    assert_eq!(s["timeout_rate"], "log");
    assert_eq!(s["succeeded_share"], "default");
    assert_eq!(s["requests_per_day"], "log");
    assert_eq!(s["body_bytes"], "log");
    assert_eq!(s["order_value"], "default");
    // A flag, and a scenario file, are named as the source instead.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(&file, r#"{"retries": 5, "order_value": 12}"#).unwrap();
    let file = file.to_str().unwrap();
    let v = json(&[&path, "--scenario", file, "--timeout-rate", "1%"]);
    assert_eq!(v["inputs"]["retries"], 5);
    let s = &v["sources"];
    assert_eq!(s["retries"], "scenario");
    assert_eq!(s["order_value"], "scenario");
    assert_eq!(s["timeout_rate"], "flag");
    let (text, _) = output(&[&path, "--scenario", file]);
    assert!(
        text.contains("a floor (under 30, few timeouts rarely show a client's last retry); using the scenario file's 5, within it"),
        "{text}"
    );
    // Endpoints with fewer than 30 attempts are marked, not ranked as measured.
    assert!(text.contains("POST /api/v1/payments *"), "{text}");
    let endpoints = v["observed"]["per_endpoint"].as_array().unwrap();
    assert!(endpoints.iter().all(|e| e["enough_evidence"] == false));
}
