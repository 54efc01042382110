//! The first run on a tiny log: a marked, bounded report, never an exit 2 where one is
//! possible (docs/MODEL.md, "Tiny logs"). One row (a span of no time), a log with no mutating
//! request, and a short log without a timeout: each input's kind in JSON, its mark in the
//! table, and every figure as MODEL.md's arithmetic gives it from the inputs used.

use serde_json::{Value, json};

use super::common::{dupcost, fixture, json, succeed};

/// MODEL.md's defaults, which a tiny log leaves standing.
const REQUESTS_PER_DAY: f64 = 20_000.0;
const TIMEOUT_RATE: f64 = 0.002;
const SUCCEEDED_SHARE: f64 = 0.5;
const RETRIES: i32 = 3;
const ORDER_VALUE: f64 = 40.0;
const DAYS_PER_MONTH: f64 = 30.0;

/// MODEL.md's D, the expected duplicate executions an intent: E - P1.
fn duplicates_per_intent(t: f64, s: f64, r: i32) -> f64 {
    let attempts: f64 = (0..=r).map(|k| t.powi(k)).sum();
    let executions = (1.0 - t + t * s) * attempts;
    let at_least_one = 1.0 - (t * (1.0 - s)).powi(r + 1);
    executions - at_least_one
}

/// Duplicates a month, N * D * M.
fn per_month(n: f64, t: f64, s: f64, r: i32) -> f64 {
    n * duplicates_per_intent(t, s, r) * DAYS_PER_MONTH
}

/// The 95% Wilson interval of k in n (tests/estimate checks the library's against it).
fn wilson(k: f64, n: f64) -> [f64; 2] {
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    [
        if k == 0.0 { 0.0 } else { c - h },
        if k == n { 1.0 } else { c + h },
    ]
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64()
        .is_some_and(|a| super::common::close(a, b, 1e-9) || (a == 0.0 && b == 0.0))
}

fn assert_close(what: &str, a: &Value, b: f64) {
    assert!(close(a, b), "{what}: {a} != {b}");
}

fn table(args: &[&str]) -> (String, String) {
    let out = succeed(dupcost().args(args));
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `text` written to a file `name` in a new directory (kept while the first is alive), and its
/// path.
fn temp_log(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

/// The line of the Scenario block that starts with `label`, spaces squeezed.
fn scenario_line(text: &str, label: &str) -> String {
    let block = text.split("\nScenario\n").nth(1).expect("a Scenario block");
    let line = block
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no {label} line in {block}"));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One row, so its timestamps span no time: requests a day is the default, assumed, at least
/// the one intent the log proves, and the rest of the report is as the defaults give it.
#[test]
fn one_row_gives_the_default_requests_a_day_assumed_at_least_its_own() {
    let log = fixture("tiny", "one-row.csv");
    let j = json(&["logs", &log]);
    let k = &j["input_kinds"]["requests_per_day"];
    assert_eq!(k["kind"], "assumed", "{k}");
    assert_eq!(k["reason"], "zero_span", "{k}");
    assert_eq!(k["bounds"], json!([1.0, null]), "{k}");
    assert_eq!(k["flag"], "--requests-per-day", "{k}");
    assert_eq!(j["inputs"]["requests_per_day"], REQUESTS_PER_DAY);
    // One attempt, timed out: any evidence beats a default, so the rate is the log's 100%,
    // thin (1 of 1), its 95% interval carried to the duplicates.
    let t = &j["input_kinds"]["timeout_rate"];
    assert_eq!(
        (&t["kind"], &t["reason"], &t["thin"]),
        (
            &json!("measured"),
            &Value::Null,
            &json!({"count": 1, "of": 1})
        )
    );
    assert_eq!(j["inputs"]["timeout_rate"], 1.0);
    let [lo, hi] = wilson(1.0, 1.0);
    assert_close("timeout rate low", &j["intervals"]["timeout_rate"][0], lo);
    assert_close("timeout rate high", &j["intervals"]["timeout_rate"][1], hi);
    let s = &j["input_kinds"]["succeeded_share"];
    assert_eq!(s["kind"], "assumed", "{s}");
    assert_eq!(s["bounds"], json!([0.0, 1.0]), "{s}");
    // The figures, from MODEL.md's arithmetic on the inputs used.
    let n = REQUESTS_PER_DAY;
    let want = per_month(n, 1.0, SUCCEEDED_SHARE, RETRIES);
    assert_close("duplicates", &j["duplicates"]["per_month"], want);
    assert_close(
        "refunds",
        &j["refund_cost"]["per_month"],
        want * ORDER_VALUE,
    );
    assert_close(
        "duplicates over the share's bounds, high",
        &j["bounds"]["duplicates_per_month"][1],
        per_month(n, 1.0, 1.0, RETRIES),
    );
    assert_close(
        "duplicates over the share's bounds, low",
        &j["bounds"]["duplicates_per_month"][0],
        0.0,
    );
    let (text, _) = table(&["logs", &log]);
    assert_eq!(
        scenario_line(&text, "requests per day"),
        "requests per day 20,000 assumed: the default, the log's timestamps span no time; the log allows at least 1; --requests-per-day settles it"
    );
    assert!(
        text.contains("requests a day 20,000: assumed: the log's timestamps span no time (first = last), so no pace scales its 1 intent to a day; using the default 20,000, at least the 1 the log proves (--requests-per-day, or a log that spans time, settles it)"),
        "{text}"
    );
    assert!(
        text.contains("  requests a day 20,000 (assumed, not measured)"),
        "{text}"
    );
}

/// Rows that all share one timestamp are a span of no time too; where the log proves more
/// intents than the scenario's figure, the figure is raised to them.
#[test]
fn equal_timestamps_are_no_span_and_raise_a_smaller_figure_to_what_the_log_proves() {
    let mut text = String::from("timestamp,method,path,status,idempotency_key\n");
    for i in 0..5 {
        text.push_str(&format!("2026-11-01T00:00:00Z,POST,/v1/orders,201,k{i}\n"));
    }
    let (dir, log) = temp_log("same.csv", &text);
    let log = log.as_str();
    let j = json(&["logs", log]);
    assert_eq!(j["input_kinds"]["requests_per_day"]["reason"], "zero_span");
    assert_eq!(
        j["input_kinds"]["requests_per_day"]["bounds"],
        json!([5.0, null])
    );
    assert_eq!(j["inputs"]["requests_per_day"], REQUESTS_PER_DAY);
    let scenario = dir.path().join("scenario.json");
    std::fs::write(&scenario, r#"{"requests_per_day": 2}"#).unwrap();
    let j = json(&["logs", log, "--scenario", scenario.to_str().unwrap()]);
    assert_eq!(j["inputs"]["requests_per_day"], 5.0);
    // Five attempts, none timed out: a thin measured 0, so no duplicates.
    assert_eq!(j["inputs"]["timeout_rate"], 0.0);
    assert_eq!(
        j["input_kinds"]["timeout_rate"]["thin"],
        json!({"count": 0, "of": 5})
    );
    assert_close("duplicates", &j["duplicates"]["per_month"], 0.0);
    // A flag settles it; scripts that ask for a measure are still refused.
    let j = json(&["logs", log, "--requests-per-day", "300"]);
    assert_eq!(j["input_kinds"]["requests_per_day"]["kind"], "given");
    assert_eq!(j["inputs"]["requests_per_day"], 300.0);
    let err = super::common::usage_error(&["logs", log, "--require-measured"]);
    assert!(
        err.contains("span no time") && err.contains("--requests-per-day"),
        "{err}"
    );
}

/// No mutating request in a log that spans days: requests a day is a measured 0 (95%: 0 to
/// the rule of three over the span), every cost 0, and the warning names --methods and
/// --requests-per-day.
#[test]
fn no_mutating_request_over_days_measures_zero_with_the_rule_of_three() {
    let (_dir, log) = temp_log(
        "gets.csv",
        "timestamp,method,path,status,upstream_status\n2026-11-01T00:00:00Z,GET,/v1/orders/1,200,200\n2026-11-03T00:00:00Z,GET,/v1/orders/2,200,200\n",
    );
    let log = log.as_str();
    let j = json(&["logs", log]);
    let k = &j["input_kinds"]["requests_per_day"];
    assert_eq!(
        (&k["kind"], &k["bounds"]),
        (&json!("measured"), &Value::Null)
    );
    assert_eq!(j["inputs"]["requests_per_day"], 0.0);
    // -ln(0.05) over the 2 days: the 95% upper bound of a rate seen 0 times.
    let high = -(0.05_f64.ln()) / 2.0;
    assert_eq!(j["intervals"]["requests_per_day"][0], 0.0);
    assert_close(
        "requests a day, high",
        &j["intervals"]["requests_per_day"][1],
        high,
    );
    assert_close(
        "duplicates a month, high",
        &j["intervals"]["duplicates_per_month"][1],
        per_month(high, TIMEOUT_RATE, SUCCEEDED_SHARE, RETRIES),
    );
    assert_eq!(j["duplicates"]["per_month"], 0.0);
    assert_eq!(j["refund_cost"]["per_month"], 0.0);
    let t = &j["input_kinds"]["timeout_rate"];
    assert_eq!(
        (&t["kind"], &t["bounds"]),
        (&json!("assumed"), &json!([0.0, 1.0]))
    );
    let warnings = j["observed"]["warnings"].to_string();
    assert!(
        warnings.contains("no mutating (POST, PUT, PATCH, DELETE) requests in the log's 2 days")
            && warnings.contains("--methods")
            && warnings.contains("--requests-per-day"),
        "{warnings}"
    );
    let (text, stderr) = table(&["logs", log]);
    assert_eq!(
        scenario_line(&text, "requests per day"),
        "requests per day 0 measured"
    );
    assert!(
        text.contains("  timeout rate: not measured: no mutating attempts in the log; using the default 0.2%, assumed (the log allows 0% to 100%)"),
        "{text}"
    );
    assert!(stderr.contains("--methods"), "{stderr}");
    // The methods named otherwise: --methods counts them.
    let j = json(&["logs", log, "--methods", "GET"]);
    assert_close(
        "requests a day by GET",
        &j["inputs"]["requests_per_day"],
        1.0,
    );
}

/// The first three lines of a generated log: two GETs 4 s apart. No mutating request over a
/// span shorter than --min-span: the span only bounds requests a day (0 to the rule of three
/// at that pace), so the default stands within those bounds, assumed.
#[test]
fn no_mutating_request_over_a_short_span_is_zero_assumed() {
    let log = fixture("tiny", "first-three.csv");
    let j = json(&["logs", &log]);
    let k = &j["input_kinds"]["requests_per_day"];
    assert_eq!(
        (&k["kind"], &k["reason"]),
        (&json!("assumed"), &json!("short_span"))
    );
    let span = 5.167 - 1.061;
    assert_eq!(k["bounds"][0], 0.0);
    assert_close(
        "the rule of three at that pace",
        &k["bounds"][1],
        -(0.05_f64.ln()) * 86_400.0 / span,
    );
    assert_eq!(j["inputs"]["requests_per_day"], REQUESTS_PER_DAY);
    assert_close(
        "duplicates",
        &j["duplicates"]["per_month"],
        per_month(REQUESTS_PER_DAY, TIMEOUT_RATE, SUCCEEDED_SHARE, RETRIES),
    );
    let (text, stderr) = table(&["logs", &log]);
    assert!(
        text.contains("attempts per intent: none (no mutating attempt)"),
        "{text}"
    );
    assert!(
        stderr.contains("no mutating (POST, PUT, PATCH, DELETE) requests in the log's 4s")
            && stderr.contains("--methods"),
        "{stderr}"
    );
}

/// The first twenty lines of a generated log: 11 keyed mutating attempts over 56 s, none timed
/// out. With a timeout rate given (the log's thin 0 would make the share change nothing), the
/// succeeded share, which nothing measured, changes every figure: assumed, 0 to 1, in every
/// renderer.
#[test]
fn a_short_log_without_timeouts_assumes_the_succeeded_share_everywhere() {
    let log = fixture("tiny", "first-twenty.csv");
    let log = &log;
    let rate = ["--timeout-rate", "0.2%"];
    let json = |args: &[&str]| json(&[&["logs", log][..], &rate, args].concat());
    let table = |args: &[&str]| table(&[&["logs", log][..], &rate, args].concat());
    let j = json(&[]);
    let s = &j["input_kinds"]["succeeded_share"];
    assert_eq!(s["kind"], "assumed", "{s}");
    assert_eq!(s["origin"], "default", "{s}");
    assert_eq!(s["reason"], "no_timeouts", "{s}");
    assert_eq!(s["bounds"], json!([0.0, 1.0]), "{s}");
    assert_eq!(s["flag"], "--succeeded-share", "{s}");
    assert_eq!(s["outcomes"], true, "{s}");
    let r = &j["input_kinds"]["retries"];
    assert_eq!(
        (&r["kind"], &r["reason"]),
        (&json!("assumed"), &json!("too_few"))
    );
    let n_kind = &j["input_kinds"]["requests_per_day"];
    assert_eq!(n_kind["reason"], "short_span");
    assert_eq!(n_kind["bounds"], json!([11.0, null]));
    // 11 intents over 56.343 s: too short to stand for a day, the default within its bounds.
    let n = REQUESTS_PER_DAY;
    assert_close("requests a day", &j["inputs"]["requests_per_day"], n);
    let want = per_month(n, TIMEOUT_RATE, SUCCEEDED_SHARE, RETRIES);
    assert_close("duplicates", &j["duplicates"]["per_month"], want);
    assert_close(
        "duplicates at a share of 1",
        &j["bounds"]["duplicates_per_month"][1],
        per_month(n, TIMEOUT_RATE, 1.0, RETRIES),
    );
    assert_close(
        "refunds at a share of 1",
        &j["bounds"]["refunds_per_month"][1],
        per_month(n, TIMEOUT_RATE, 1.0, RETRIES) * ORDER_VALUE,
    );
    // The table: the evidence, the intervals and the Scenario block agree.
    let (text, _) = table(&[]);
    assert!(
        text.contains("succeeded share not measured: no timed-out mutating attempts in the log to tell it, yet the timeout rate used is not 0, so it changes every figure; using the default 50%, assumed (the log allows 0% to 100%)"),
        "{text}"
    );
    assert!(!text.contains("cannot change the result"), "{text}");
    assert!(
        text.contains("  succeeded share 50% (assumed, not measured)"),
        "{text}"
    );
    assert_eq!(
        scenario_line(&text, "succeeded share"),
        "succeeded share 50% assumed: the default, no timed-out attempt in the log; the log allows 0% to 100%; --succeeded-share or --outcomes FILE settles it"
    );
    assert!(
        text.contains("a 50% succeeded share (--succeeded-share)"),
        "the verdict names the assumption: {text}"
    );
    // Markdown and HTML say the same kind.
    let md = table(&["--format", "markdown"]).0;
    assert!(
        md.contains(
            "assumed: the default, no timed-out attempt in the log; the log allows 0% to 100%"
        ),
        "{md}"
    );
    let html = table(&["--format", "html"]).0;
    assert!(
        html.contains("the default, no timed-out attempt in the log; the log allows 0% to 100%"),
        "{html}"
    );
    // CSV: the share's bounds and the duplicates over them.
    let csv = table(&["--format", "csv"]).0;
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let values: Vec<&str> = rows.next().unwrap().split(',').collect();
    let at = |name: &str| values[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(at("bounds.succeeded_share.low"), "0");
    assert_eq!(at("bounds.succeeded_share.high"), "1");
    // Given, it is given, and the log's silence is said.
    let j = json(&["--succeeded-share", "30%"]);
    assert_eq!(j["input_kinds"]["succeeded_share"]["kind"], "given");
    assert_close(
        "duplicates at the given share",
        &j["duplicates"]["per_month"],
        per_month(n, TIMEOUT_RATE, 0.3, RETRIES),
    );
}

/// Enough mutating attempts, none timed out: the timeout rate is a measured 0, so the share,
/// still assumed, truly cannot change a figure, and the report says so and leaves it out of
/// the verdict's assumptions.
#[test]
fn a_measured_zero_timeout_rate_is_where_the_share_cannot_change_the_result() {
    let mut text = String::from("timestamp,method,path,status,upstream_status\n");
    for i in 0..40 {
        text.push_str(&format!(
            "2026-11-01T{:02}:{:02}:00Z,POST,/v1/orders,201,201\n",
            i / 20,
            (i % 20) * 3
        ));
    }
    let (_dir, log) = temp_log("forty.csv", &text);
    let log = log.as_str();
    let j = json(&["logs", log]);
    assert_eq!(j["input_kinds"]["timeout_rate"]["kind"], "measured");
    assert_eq!(j["inputs"]["timeout_rate"], 0.0);
    let s = &j["input_kinds"]["succeeded_share"];
    assert_eq!(
        (&s["kind"], &s["reason"], &s["bounds"]),
        (&json!("assumed"), &json!("no_effect"), &json!([0.0, 1.0]))
    );
    assert_eq!(j["duplicates"]["per_month"], 0.0);
    assert_eq!(j["bounds"]["duplicates_per_month"], json!([0.0, 0.0]));
    // The intervals: the timeout rate's upper end, at the assumed share.
    let n = 40.0 / (7_020.0 / 86_400.0);
    let [_, t_high] = wilson(0.0, 40.0);
    let n_high = j["intervals"]["requests_per_day"][1].as_f64().unwrap();
    assert!(n_high > n, "{n_high} > {n}");
    assert_close(
        "duplicates a month, high",
        &j["intervals"]["duplicates_per_month"][1],
        per_month(n_high, t_high, SUCCEEDED_SHARE, RETRIES),
    );
    let (text, _) = table(&["logs", log]);
    assert!(text.contains("so it cannot change the result"), "{text}");
    assert!(
        scenario_line(&text, "succeeded share")
            .contains("so it changes no figure but the intervals"),
        "{text}"
    );
    assert!(
        !text.contains("succeeded share (--succeeded-share)"),
        "{text}"
    );
}

/// One GET and nothing else: no mutating request and no span, so the span of no time rules
/// (the scenario's requests a day, assumed, at least the log's 0), and the warning says so.
#[test]
fn no_mutating_request_and_no_span_takes_the_scenario_assumed() {
    let (_dir, log) = temp_log(
        "get.csv",
        "timestamp,method,path,status\n2026-11-01T00:00:00Z,GET,/v1/orders/1,200\n",
    );
    let log = log.as_str();
    let j = json(&["logs", log]);
    let k = &j["input_kinds"]["requests_per_day"];
    assert_eq!(
        (&k["kind"], &k["reason"], &k["bounds"]),
        (&json!("assumed"), &json!("zero_span"), &json!([0.0, null]))
    );
    assert_eq!(j["inputs"]["requests_per_day"], REQUESTS_PER_DAY);
    assert_close(
        "duplicates",
        &j["duplicates"]["per_month"],
        per_month(REQUESTS_PER_DAY, TIMEOUT_RATE, SUCCEEDED_SHARE, RETRIES),
    );
    let (_, stderr) = table(&["logs", log]);
    assert!(
        stderr.contains("whose timestamps span no time: requests a day is the scenario's, assumed")
            && stderr.contains("--methods")
            && stderr.contains("--requests-per-day"),
        "{stderr}"
    );
}

/// No timestamp column: nothing says over what time the intents came, so requests a day is
/// the default, assumed with no bounds (as the order value is), and the rest of the report
/// stands on what the rows tell; `--require-measured` is still refused.
#[test]
fn no_timestamp_column_takes_the_default_requests_a_day_unbounded() {
    let (_dir, log) = temp_log(
        "nots.csv",
        "method,path,status,upstream_status\nPOST,/v1/orders,201,201\nPOST,/v1/orders,504,201\nGET,/v1/x,200,200\n",
    );
    let j = json(&["logs", &log]);
    let k = &j["input_kinds"]["requests_per_day"];
    assert_eq!(k["kind"], "assumed", "{k}");
    assert_eq!(k["reason"], "no_timestamps", "{k}");
    assert_eq!(k["bounds"], Value::Null, "{k}");
    assert_eq!(k["flag"], "--requests-per-day", "{k}");
    assert_eq!(j["inputs"]["requests_per_day"], REQUESTS_PER_DAY);
    // Two mutating attempts, one timed out: the log's 50%, thin.
    assert_eq!(j["inputs"]["timeout_rate"], 0.5);
    assert_eq!(
        j["input_kinds"]["timeout_rate"]["thin"],
        json!({"count": 1, "of": 2})
    );
    let s = j["inputs"]["succeeded_share"].as_f64().unwrap();
    let want = per_month(REQUESTS_PER_DAY, 0.5, s, RETRIES);
    assert_close("duplicates", &j["duplicates"]["per_month"], want);
    let (text, _) = table(&["logs", &log]);
    assert_eq!(
        scenario_line(&text, "requests per day"),
        "requests per day 20,000 assumed: the default, the log has no timestamps; --requests-per-day settles it"
    );
    assert!(
        text.contains("so nothing says over what time its 2 intents came, a minute or a year; using the default 20,000 (--requests-per-day, or --column timestamp=HEADER, settles it)"),
        "{text}"
    );
    let err = super::common::usage_error(&["logs", &log, "--require-measured"]);
    assert!(err.contains("no timestamp column"), "{err}");
}
