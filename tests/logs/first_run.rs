//! The first run, as a newcomer types it: numbers from memory (`--timeout-rate 0.2`,
//! `--ttl 48`, `--retries 2.5`), a preset's trace in the report, and the currency that
//! follows `--order-value €85`. The real binary, run as a user runs it.

use crate::common::{dupcost, json, succeed, usage_error};

/// A bare fraction for the timeout rate is read as written, and stderr says how it was read
/// and how to write the small rate people usually mean.
#[test]
fn a_bare_fraction_for_a_rate_is_noted_in_words() {
    let out = succeed(dupcost().args(["estimate", "--timeout-rate", "0.2", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"]["timeout_rate"], 0.2);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.trim_end(),
        "note: --timeout-rate: read 0.2 as 20%; write 0.2% for 2 in a thousand"
    );
    // A percentage, or a fraction too small to be mistaken, goes by without a note.
    for quiet in ["0.2%", "0.002"] {
        let out = succeed(dupcost().args(["estimate", "--timeout-rate", quiet]));
        assert!(out.stderr.is_empty(), "{quiet}");
    }
    // Above 1 is still refused, with the percentage it might mean.
    let err = usage_error(&["estimate", "--timeout-rate", "2"]);
    assert!(err.contains("did you mean 2%?"), "{err}");
}

/// A duration flag without a unit is refused with the forms it takes; 0 needs no unit, and a
/// scenario file's `ttl_seconds` number is still seconds.
#[test]
fn a_duration_without_a_unit_is_refused_with_its_forms() {
    for (flag, forms) in [
        ("--ttl", "1d, 24h, 90m or 30s"),
        ("--attempt-timeout", "10s, 1.5s, 500ms or 2m"),
        ("--backoff", "10s, 1.5s, 500ms or 2m"),
        ("--backoff-max", "10s, 1.5s, 500ms or 2m"),
    ] {
        let err = usage_error(&["estimate", flag, "48"]);
        assert!(err.contains(flag), "{err}");
        assert!(err.contains("'48' has no unit"), "{err}");
        assert!(err.contains(forms), "{err}");
    }
    let v = json(&["estimate", "--ttl", "48h"]);
    assert_eq!(v["inputs"]["ttl_seconds"], 172_800);
    let v = json(&["estimate", "--backoff", "0"]);
    assert_eq!(v["inputs"]["backoff_seconds"], 0.0);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(
        &file,
        r#"{"ttl_seconds": 48, "attempt_timeout_seconds": 2.5}"#,
    )
    .unwrap();
    let v = json(&["estimate", "--scenario", file.to_str().unwrap()]);
    assert_eq!(v["inputs"]["ttl_seconds"], 48);
    assert_eq!(v["inputs"]["attempt_timeout_seconds"], 2.5);
}

/// A whole-number input given a fraction says so in words, not "invalid digit".
#[test]
fn a_whole_number_given_a_fraction_says_so() {
    let err = usage_error(&["estimate", "--retries", "2.5"]);
    assert!(
        err.contains("'2.5' is not a whole number: retries are counted whole, from 0 to 100"),
        "{err}"
    );
    assert!(!err.contains("invalid digit"), "{err}");
    let err = usage_error(&["estimate", "--layers", "1.5"]);
    assert!(err.contains("'1.5' is not a whole number: layers"), "{err}");
    let err = usage_error(&["estimate", "--retries", "101"]);
    assert!(
        err.contains("--retries") && err.contains("0 to 100"),
        "{err}"
    );
}

/// `--preset` leaves a trace: the Scenario section marks each value it set, a flag over it
/// is not marked, and the JSON names the preset and the inputs it set.
#[test]
fn a_preset_is_marked_where_it_set_a_value() {
    let out = succeed(dupcost().args(["estimate", "--preset", "stripe"]));
    let table = String::from_utf8(out.stdout).unwrap();
    let ttl = table.lines().find(|l| l.contains("key TTL")).unwrap();
    // The value marked, then its kind naming the preset (tests/estimate/kinds.rs).
    assert!(
        ttl.ends_with("1d (stripe)  given: --preset stripe"),
        "{ttl}"
    );
    let out = succeed(dupcost().args(["estimate", "--preset", "stripe", "--format", "markdown"]));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("1d (stripe)"), "{md}");

    let v = json(&["estimate", "--preset", "stripe"]);
    assert_eq!(v["preset"]["name"], "stripe");
    assert!(
        v["preset"]["inputs"]
            .as_array()
            .unwrap()
            .contains(&"ttl_seconds".into()),
        "{}",
        v["preset"]
    );
    // A flag over the preset's value: that value is the flag's, and no longer marked.
    let out = succeed(dupcost().args(["estimate", "--preset", "stripe", "--ttl", "2d"]));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(!table.contains("(stripe)"), "{table}");
    let v = json(&["estimate", "--preset", "stripe", "--ttl", "2d"]);
    assert!(
        !v["preset"]["inputs"]
            .as_array()
            .unwrap()
            .contains(&"ttl_seconds".into())
    );
    // No preset, no `preset` key (a field added, none renamed).
    assert!(json(&["estimate"]).get("preset").is_none());
    // A sender's schedule is marked on the retry delays line, which says its kind after it.
    let out = succeed(dupcost().args(["estimate", "--preset", "svix-webhooks"]));
    let table = String::from_utf8(out.stdout).unwrap();
    let delays = table.lines().find(|l| l.contains("retry delays")).unwrap();
    assert!(
        delays.ends_with("(svix-webhooks)  given: --preset svix-webhooks"),
        "{delays}"
    );
}

/// The currency follows the value: `€85` and `85 EUR` print euros; `--currency` still wins.
#[test]
fn the_currency_follows_the_order_value() {
    for value in ["€85", "85 EUR", "85€"] {
        let out = succeed(dupcost().args(["estimate", "--order-value", value]));
        let table = String::from_utf8(out.stdout).unwrap();
        assert!(table.contains("€85"), "{value}: {table}");
        let verdict = table.lines().last().unwrap();
        assert!(verdict.contains('€') && !verdict.contains('$'), "{verdict}");
    }
    let out = succeed(dupcost().args(["estimate", "--order-value", "€85", "--currency", "£"]));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("£85") && !table.contains('€'), "{table}");
    let out = succeed(dupcost().args(["estimate", "--order-value", "85"]));
    assert!(String::from_utf8(out.stdout).unwrap().contains("$85"));
    let v = json(&["estimate", "--order-value", "85 EUR"]);
    assert_eq!(v["inputs"]["order_value"], 85.0);
}

/// nginx `combined` with `$upstream_status $request_time` appended, as most production
/// configurations have it: the named layout plus the appended variables reads, and measures
/// the succeeded share from the upstream status.
#[test]
fn combined_with_appended_variables_measures_the_succeeded_share() {
    let log = "tests/fixtures/firstrun/combined-upstream.log";
    let v = json(&[
        "logs",
        log,
        "--log-format",
        "combined $upstream_status $request_time",
    ]);
    let observed = &v["observed"];
    assert_eq!(observed["timed_out"], 23);
    assert_eq!(observed["timed_out_succeeded"], 9);
    assert_eq!(observed["timed_out_unknown"], 3);
    let out = succeed(dupcost().args([
        "logs",
        log,
        "--log-format",
        "combined $upstream_status $request_time",
    ]));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("as nginx combined with $upstream_status $request_time"),
        "{table}"
    );
    assert!(
        table.contains("3 of 23 timed-out attempts (13%) have no known outcome"),
        "{table}"
    );
}

/// Detected with fields past its layout, the log reads what it knows, names the extra fields
/// extra_N, and prints a ready-to-paste --log-format line with each field's likely variable by
/// its shape; pasted, it measures the share; `--column upstream_status=extra_N` does too.
#[test]
fn a_detected_layout_with_extra_fields_prints_the_line_to_paste() {
    for (log, paste, column) in [
        (
            "tests/fixtures/firstrun/combined-upstream.log",
            "combined $upstream_status $request_time",
            "extra_1",
        ),
        (
            "samples/nginx.log",
            r#"combined $request_time $upstream_status "$request_id""#,
            "extra_2",
        ),
    ] {
        let out = succeed(dupcost().args(["logs", log, "--no-infer"]));
        let table = String::from_utf8(out.stdout).unwrap();
        let line = format!("--log-format '{paste}'");
        assert!(table.contains(&line), "{log}: {line} in\n{table}");
        assert!(
            table.contains(&format!("--column (upstream_status={column})")),
            "{table}"
        );
        // Pasted, named by place, or read by its values with no flag: the same outcomes.
        for args in [
            vec!["logs", log],
            vec!["logs", log, "--log-format", paste],
            vec![
                "logs",
                log,
                "--column",
                &format!("upstream_status={column}"),
            ],
        ] {
            let v = json(&args);
            assert_eq!(v["observed"]["timed_out_succeeded"], 9, "{args:?}");
            assert_eq!(v["observed"]["timed_out_unknown"], 3, "{args:?}");
        }
    }
    // Plain combined, nothing appended: read as the preset, no paste line.
    let out = succeed(dupcost().args(["logs", "tests/fixtures/firstrun/combined.log"]));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("as nginx combined (detected)"), "{table}");
    assert!(!table.contains("--log-format '"), "{table}");
}

/// `logs --help` names the formats it reads, says the measured inputs come from the logs
/// (no model default shown for them), and is grouped so that each group fits a screen.
#[test]
fn logs_help_names_the_formats_and_reads_a_screen_a_group() {
    let out = succeed(dupcost().args(["logs", "--help"]));
    let help = String::from_utf8(out.stdout).unwrap();
    for format in ["nginx", "Apache", "Envoy", "HAProxy", "ALB", "JSON", "CSV"] {
        assert!(help.contains(format), "{format}");
    }
    let flag_help = |flag: &str| {
        let at = help.find(&format!("      {flag} <")).unwrap();
        let rest = &help[at..];
        let text = &rest[..rest[1..].find("\n      --").map_or(rest.len(), |i| i + 1)];
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    for flag in ["--requests-per-day", "--timeout-rate", "--succeeded-share"] {
        let text = flag_help(flag);
        assert!(text.contains("measured from the logs"), "{text}");
        assert!(!text.contains("[default: 20000]") && !text.contains("[default: 0.2%]"));
    }
    // The estimate still shows the model's default.
    let out = succeed(dupcost().args(["estimate", "--help"]));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("[default: 20000]")
    );
    // Each group (a line ending in ':' at the margin) fits one 60-line screen.
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            groups.push((line, 0));
        } else if let Some(last) = groups.last_mut() {
            last.1 += 1;
        }
    }
    assert!(groups.len() >= 8, "{groups:?}");
    for (name, lines) in &groups {
        assert!(*lines <= 60, "{name} runs to {lines} lines");
    }
}

/// Ordinary logs read with no flag give a report, exit 0: logs without outcomes (Envoy,
/// HAProxy, Istio), a short one with outcomes mostly unknown (ingress-nginx), nginx
/// `combined` and `combined` with appended fields. Each assumed input is marked on its own
/// line with its bounds and the flag that settles it; the bounds reach the duplicates and
/// refunds in the table and the JSON.
#[test]
fn ordinary_logs_give_a_marked_bounded_report() {
    for log in [
        "samples/envoy.log",
        "samples/haproxy.log",
        "samples/istio.log",
        "samples/ingress-nginx.cri.log",
        "samples/nginx.log",
        "tests/fixtures/firstrun/combined.log",
        "tests/fixtures/firstrun/combined-upstream.log",
    ] {
        let out = succeed(dupcost().args(["logs", log]));
        let table = String::from_utf8(out.stdout).unwrap();
        let line = |label: &str| {
            table
                .lines()
                .find(|l| {
                    l.starts_with(&format!("  {label} ")) && l.contains("  assumed")
                        || l.starts_with(&format!("  {label} ")) && l.contains("  measured")
                })
                .unwrap_or_else(|| panic!("{log}: no kind for {label}:\n{table}"))
                .to_string()
        };
        let share = line("succeeded share");
        assert!(share.contains("assumed: "), "{log}: {share}");
        assert!(share.contains("the log allows "), "{log}: {share}");
        assert!(
            share.contains("--succeeded-share or --outcomes FILE settles it"),
            "{share}"
        );
        let order = line("order value");
        assert!(
            order.ends_with("assumed: the default; --order-value settles it"),
            "{order}"
        );
        assert!(
            table.contains("over the succeeded share's bounds"),
            "{log}: the bounds reach the money:\n{table}"
        );
        let verdict = table.lines().last().unwrap();
        assert!(verdict.contains("(--order-value)"), "{verdict}");

        let v = json(&["logs", log]);
        let kind = &v["input_kinds"]["succeeded_share"];
        assert_eq!(kind["kind"], "assumed", "{log}: {kind}");
        let b = &v["bounds"];
        let [lo, hi] = [0, 1].map(|i| b["duplicates_per_month"][i].as_f64().unwrap());
        let at = v["duplicates"]["per_month"].as_f64().unwrap();
        assert!(lo <= at && at <= hi, "{log}: {b}");
        assert!(
            b["refunds_per_month"][1].as_f64().unwrap()
                >= v["refund_cost"]["per_month"].as_f64().unwrap()
        );
        assert_eq!(v["input_kinds"]["order_value"]["kind"], "assumed");
        assert_eq!(v["input_kinds"]["timeout_rate"]["flag"], "--timeout-rate");
    }
    // With no outcome known the share lies in 0% to 100%, and the duplicates from 0 to
    // their value at a share of 1 (docs/MODEL.md's worked figure, on this log's traffic).
    let v = json(&["logs", "samples/envoy.log"]);
    assert_eq!(
        v["bounds"]["succeeded_share"],
        serde_json::json!([0.0, 1.0])
    );
    assert_eq!(v["bounds"]["duplicates_per_month"][0], 0.0);
    let at_one = json(&["logs", "samples/envoy.log", "--succeeded-share", "100%"]);
    assert_eq!(
        v["bounds"]["duplicates_per_month"][1],
        at_one["duplicates"]["per_month"]
    );
    // Measured inputs are marked measured; a given one names its flag.
    let out = succeed(dupcost().args(["logs", "samples/envoy.log", "--order-value", "€85"]));
    let table = String::from_utf8(out.stdout).unwrap();
    let order = table
        .lines()
        .find(|l| l.starts_with("  order value "))
        .unwrap();
    assert!(
        order.contains("€85") && order.ends_with("given: --order-value"),
        "{order}"
    );
    let rate = table
        .lines()
        .find(|l| l.starts_with("  timeout rate ") && l.ends_with("measured"));
    assert!(rate.is_some(), "{table}");
}

/// 96% and 57% unknown outcomes follow one rule: both bounded, both reported, the point the
/// scenario's share inside the bounds; `--require-measured` refuses both as scripts had it.
#[test]
fn unknown_outcomes_follow_one_rule_and_scripts_can_ask_for_the_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, unknown: usize, succeeded: usize| {
        let mut text = String::from("timestamp,method,status,upstream_status\n");
        let total = 100;
        for i in 0..total {
            let upstream = if i < unknown {
                "-"
            } else if i < unknown + succeeded {
                "200"
            } else {
                "500"
            };
            text.push_str(&format!(
                "2026-11-01T{:02}:{:02}:00Z,POST,504,{upstream}\n",
                i / 60,
                i % 60
            ));
        }
        for i in 0..200 {
            text.push_str(&format!(
                "2026-11-02T{:02}:{:02}:00Z,POST,200,200\n",
                i / 60,
                i % 60
            ));
        }
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    for (name, unknown, succeeded) in [("96.csv", 96, 2), ("57.csv", 57, 20)] {
        let p = write(name, unknown, succeeded);
        let v = json(&["logs", &p]);
        let kind = &v["input_kinds"]["succeeded_share"];
        assert_eq!(kind["kind"], "assumed", "{name}: {kind}");
        let [lo, hi] = [0, 1].map(|i| kind["bounds"][i].as_f64().unwrap());
        let every_failed = succeeded as f64 / 100.0;
        let every_succeeded = (succeeded + unknown) as f64 / 100.0;
        assert!(
            lo <= every_failed && every_succeeded <= hi,
            "{name}: {kind}"
        );
        let share = v["inputs"]["succeeded_share"].as_f64().unwrap();
        assert_eq!(share, 0.5_f64.clamp(lo, hi), "{name}");
        let err = usage_error(&["logs", &p, "--require-measured"]);
        assert!(err.contains("--succeeded-share"), "{name}: {err}");
    }
}

/// Fewer duplicates seen than the model predicts: one sentence gives both figures, why, and
/// what would show them, and the reasons follow what the log has (no outcome column, then
/// unknown outcomes once the upstream status is read).
#[test]
fn fewer_seen_than_predicted_says_why_and_what_would_show_them() {
    let log = "tests/fixtures/firstrun/combined-upstream.log";
    let note = |args: &[&str]| {
        let j = json(&[&["logs", log][..], args].concat());
        j["observed"]["observed_duplicates"]["note"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let plain = note(&["--no-infer"]);
    assert!(
        plain.starts_with(
            "fewer duplicates are seen (0 a day) than the model predicts (6.32 a day, 95%: 3.65 to 10.8) because the log has no upstream status"
        ) && plain.contains("--outcomes FILE) would show which timed-out attempts executed")
            && plain.contains("a logged idempotency key (--column idempotency_key=NAME) would group retries from any address"),
        "{plain}"
    );
    let read = note(&["--log-format", "combined $upstream_status $request_time"]);
    assert!(
        read.contains("because 3 timed-out attempts with an unknown outcome cannot count")
            && read.contains(
                "the backend's own log (--outcomes FILE) would tell the unknown outcomes"
            )
            && !read.contains("no upstream status"),
        "{read}"
    );
}
