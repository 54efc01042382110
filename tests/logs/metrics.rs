//! `dupcost logs FILE --follow --metrics ADDR` through the real binary: a log grows in a temp
//! dir while `/metrics` is scraped over loopback; every series must equal the figure of
//! `dupcost logs --format json` run once on the same lines, before and after the log grows.
//! Also: the endpoints past the top ten summed as `other`, OpenMetrics when asked for, a
//! scraper that never reads does not stall the follower, and the flag's errors.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::usage_error;
use crate::support::{append, batch_json, interrupt, live_and_whole, sample_lines, start_follower};

/// A running `dupcost logs ... --follow --metrics 127.0.0.1:0`.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT/metrics`, as it said on stderr.
    pub url: String,
}

impl Served {
    pub fn start(dir: &Path, args: &[&str]) -> Served {
        // Nothing may be written to stdout with --metrics: `stop` checks the pipe is empty.
        let metrics = ["--metrics", "127.0.0.1:0"];
        let mut child = start_follower(dir, args, &metrics, Stdio::null());
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        // Warnings about the flags may come first; then the address, before any row is read.
        let url = loop {
            let mut line = String::new();
            let read = stderr.read_line(&mut line).unwrap();
            assert!(read > 0, "stderr ended before the address");
            if let Some(url) = line.trim().strip_prefix("serving metrics at ") {
                break url.to_string();
            }
        };
        // Keep reading stderr, so a warning cannot block the follower.
        std::thread::spawn(move || for _ in stderr.lines() {});
        Served { child, url }
    }

    /// One scrape: the content type and the body.
    pub fn scrape(&self, accept: Option<&str>) -> (String, String) {
        let mut request = ureq::get(&self.url);
        if let Some(accept) = accept {
            request = request.header("Accept", accept);
        }
        let mut response = request.call().unwrap();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        (content_type, response.body_mut().read_to_string().unwrap())
    }

    /// Scrapes until `dupcost_rows_total` is `rows`; returns that scrape's series. (The limit
    /// only stops a hung test.)
    pub fn wait_rows(&self, rows: u64) -> BTreeMap<String, f64> {
        let start = Instant::now();
        loop {
            let series = parse(&self.scrape(None).1);
            let read = series.get("dupcost_rows_total").copied().unwrap_or(-1.0);
            assert!(read <= rows as f64, "read {read} rows of {rows}");
            if read == rows as f64 && series.get("dupcost_report_waiting") == Some(&0.0) {
                return series;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no scrape with {rows} rows: {series:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Ctrl-C: exits 0, and wrote nothing on stdout.
    pub fn stop(mut self) {
        let status = interrupt(&mut self.child);
        assert_eq!(status.code(), Some(0));
        let mut out = String::new();
        std::io::Read::read_to_string(self.child.stdout.as_mut().unwrap(), &mut out).unwrap();
        assert_eq!(out, "", "--metrics writes no report on stdout");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scraped value equals the report's, NaN standing for the report's `null`.
pub fn same(got: Option<&f64>, want: &f64) -> bool {
    got.is_some_and(|g| g == want || (g.is_nan() && want.is_nan()))
}

/// The samples of an exposition by series (`name{labels}`), their values parsed as
/// Prometheus parses them.
pub fn parse(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (series, value) = l.rsplit_once(' ').unwrap();
            (series.to_string(), value.parse::<f64>().unwrap())
        })
        .collect()
}

/// The series of the report `json` (of `dupcost logs --format json`), by the names of
/// docs/METRICS.md, each with its JSON figure.
pub fn expected(json: &Value, rows: u64) -> BTreeMap<String, f64> {
    let f = |v: &Value| exact(v);
    let mut out = BTreeMap::new();
    let mut put = |k: &str, v: f64| {
        out.insert(k.to_string(), v);
    };
    let (inputs, observed, i) = (&json["inputs"], &json["observed"], &json["intervals"]);
    put("dupcost_rows_total", rows as f64);
    put("dupcost_report_waiting", 0.0);
    put("dupcost_requests_per_day", f(&inputs["requests_per_day"]));
    put("dupcost_timeout_ratio", f(&inputs["timeout_rate"]));
    put(
        "dupcost_succeeded_share_ratio",
        f(&inputs["succeeded_share"]),
    );
    put("dupcost_retries", f(&inputs["retries"]));
    put("dupcost_key_ttl_seconds", f(&inputs["ttl_seconds"]));
    put(
        "dupcost_duplicates_per_day",
        f(&json["duplicates"]["per_day"]),
    );
    put(
        "dupcost_duplicates_per_month",
        f(&json["duplicates"]["per_month"]),
    );
    put(
        "dupcost_duplicates_with_key_store_per_day",
        f(&json["duplicates"]["with_key_store"]["per_day"]),
    );
    put(
        r#"dupcost_refunds_per_month{currency="$"}"#,
        f(&json["refund_cost"]["per_month"]),
    );
    put(
        r#"dupcost_refunds_per_year{currency="$"}"#,
        f(&json["refund_cost"]["per_year"]),
    );
    put("dupcost_key_store_bytes", f(&json["key_store"]["bytes"]));
    for store in ["bytes", "redis", "postgres"] {
        put(
            &format!(r#"dupcost_key_store_model_bytes{{store="{store}"}}"#),
            f(&json["key_store"]["by_store"][store]),
        );
    }
    put(
        "dupcost_key_store_live_keys",
        f(&json["key_store"]["live_keys"]),
    );
    put(
        "dupcost_retry_horizon_seconds",
        f(&json["retry_horizon_seconds"]),
    );
    put(
        "dupcost_mutating_attempts",
        f(&observed["mutating_attempts"]),
    );
    put("dupcost_timed_out_attempts", f(&observed["timed_out"]));
    put("dupcost_intents", f(&observed["intents"]));
    put("dupcost_days_covered", f(&observed["days_covered"]));
    let keyed = !observed["key_coverage"].is_null();
    if keyed {
        put(
            "dupcost_keyed_attempts",
            f(&observed["key_coverage"]["keyed_attempts"]),
        );
        put(
            "dupcost_key_coverage_ratio",
            f(&observed["key_coverage"]["share"]),
        );
    } else {
        put("dupcost_key_coverage_ratio", f64::NAN);
    }
    let none = Vec::new();
    let uncovered: BTreeMap<(String, String), f64> = observed["key_coverage"]["per_endpoint"]
        .as_array()
        .unwrap_or(&none)
        .iter()
        .map(|e| {
            (
                (e["method"].to_string(), e["route"].to_string()),
                f(&e["share"]),
            )
        })
        .collect();
    for e in observed["per_endpoint"].as_array().unwrap() {
        let labels = format!("method={},route={}", e["method"], e["route"]);
        put(
            &format!("dupcost_endpoint_mutating_attempts{{{labels}}}"),
            f(&e["mutating"]),
        );
        put(
            &format!("dupcost_endpoint_timed_out_attempts{{{labels}}}"),
            f(&e["timed_out"]),
        );
        put(
            &format!("dupcost_endpoint_duplicates_per_month{{{labels}}}"),
            f(&e["duplicates_per_month"]),
        );
        put(
            &format!(r#"dupcost_endpoint_refunds_per_month{{{labels},currency="$"}}"#),
            f(&e["refund_per_month"]),
        );
        let key = (e["method"].to_string(), e["route"].to_string());
        if keyed {
            put(
                &format!("dupcost_endpoint_key_coverage_ratio{{{labels}}}"),
                uncovered.get(&key).copied().unwrap_or(1.0),
            );
        }
    }
    for (name, field) in [
        ("requests_per_day", "requests_per_day"),
        ("timeout_ratio", "timeout_rate"),
        ("succeeded_share_ratio", "succeeded_share"),
        ("duplicates_per_month", "duplicates_per_month"),
    ] {
        for (n, bound) in ["lower", "upper"].into_iter().enumerate() {
            put(
                &format!(r#"dupcost_interval_{name}{{bound="{bound}"}}"#),
                f(&i[field][n]),
            );
        }
    }
    for (n, bound) in ["lower", "upper"].into_iter().enumerate() {
        put(
            &format!(r#"dupcost_interval_refunds_per_month{{bound="{bound}",currency="$"}}"#),
            f(&i["refund_cost_per_month"][n]),
        );
    }
    for (input, kind) in json["input_kinds"].as_object().unwrap() {
        if input == "schedule_seconds" {
            continue;
        }
        put(
            &format!(
                "dupcost_input_info{{input=\"{input}\",kind={},origin={}}}",
                kind["kind"], kind["origin"]
            ),
            1.0,
        );
    }
    out
}

/// A number of a report read to the last bit. serde_json's own reading of a decimal can be
/// an ulp off (without its `float_roundtrip` feature, which the crate does not enable), so
/// [`logs_once`] keeps each number's text and Rust's parser reads it.
pub fn exact(v: &Value) -> f64 {
    match v {
        Value::String(text) => text
            .strip_prefix("\u{0}num:")
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("a number in the report: {v}")),
        _ => panic!("a number in the report: {v}"),
    }
}

/// `dupcost logs NAME --format json`, run in `dir`, each number kept as its text (read
/// with [`exact`]).
pub fn logs_once(dir: &Path, name: &str) -> Value {
    let raw: Box<serde_json::value::RawValue> =
        serde_json::from_slice(&batch_json(dir, name, &[])).unwrap();
    texts(&raw)
}

/// `raw` with every number as a string of its text (`"\0num:12.705385265038487"`).
fn texts(raw: &serde_json::value::RawValue) -> Value {
    use serde_json::value::RawValue;
    let text = raw.get().trim();
    match text.as_bytes().first() {
        Some(b'{') => {
            let map: Vec<(String, Box<RawValue>)> =
                serde_json::from_str::<indexed::Object>(text).unwrap().0;
            Value::Object(map.into_iter().map(|(k, v)| (k, texts(&v))).collect())
        }
        Some(b'[') => {
            let items: Vec<Box<RawValue>> = serde_json::from_str(text).unwrap();
            Value::Array(items.iter().map(|v| texts(v)).collect())
        }
        Some(b'-' | b'0'..=b'9') => Value::String(format!("\u{0}num:{text}")),
        _ => serde_json::from_str(text).unwrap(),
    }
}

/// A JSON object's members in order, their values unread.
mod indexed {
    use serde::de::{Deserializer, MapAccess, Visitor};
    use serde_json::value::RawValue;

    pub struct Object(pub Vec<(String, Box<RawValue>)>);

    impl<'de> serde::Deserialize<'de> for Object {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
            struct Members;
            impl<'de> Visitor<'de> for Members {
                type Value = Object;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                    let mut out = Vec::new();
                    while let Some(entry) = map.next_entry()? {
                        out.push(entry);
                    }
                    Ok(Object(out))
                }
            }
            d.deserialize_map(Members)
        }
    }
}

/// Copies the first `rows` lines of the live log into `whole/NAME`, for the batch report.
fn batch_of(live: &Path, whole: &Path, rows: u64) -> Value {
    std::fs::copy(live.join("access.csv"), whole.join("access.csv")).unwrap();
    let json = logs_once(whole, "access.csv");
    assert_eq!(exact(&json["observed"]["rows"]), rows as f64);
    json
}

/// The issue's "done when": the contract's names carry the batch report's figures, bit for
/// bit, before and after the log grows.
#[test]
fn every_series_equals_the_batch_report_before_and_after_the_log_grows() {
    let (_tmp, live, whole) = live_and_whole();
    let (header, rows) = sample_lines();
    let path = live.join("access.csv");
    std::fs::write(&path, format!("{header}{}", rows[..1800].concat())).unwrap();
    let served = Served::start(&live, &["access.csv"]);

    for (written, upto) in [(1800u64, 1800usize), (3000, 3000)] {
        if upto > 1800 {
            append(&path, &rows[1800..].concat());
        }
        let got = served.wait_rows(written);
        let json = batch_of(&live, &whole, written);
        let want = expected(&json, written);
        for name in [
            "dupcost_requests_per_day",
            "dupcost_timeout_ratio",
            "dupcost_succeeded_share_ratio",
            "dupcost_duplicates_per_day",
            r#"dupcost_refunds_per_month{currency="$"}"#,
            "dupcost_key_coverage_ratio",
            "dupcost_key_store_bytes",
            "dupcost_retry_horizon_seconds",
            "dupcost_key_ttl_seconds",
            "dupcost_rows_total",
        ] {
            assert!(got.contains_key(name), "{name} exposed");
        }
        for (series, value) in &want {
            assert!(
                same(got.get(series), value),
                "{series} after {written} rows: {:?}, want {value}",
                got.get(series)
            );
        }
        assert_eq!(
            got.len(),
            want.len(),
            "no series the report has no figure for: {:?}",
            got.keys()
                .filter(|k| !want.contains_key(*k))
                .collect::<Vec<_>>()
        );
    }
    served.stop();
}

/// A CSV log of 13 mutating endpoints over two hours: endpoint i has 40 + 10i attempts, a
/// timeout every 7th (answered 2xx upstream), and every 4th endpoint leaves a key out of a
/// third of its attempts.
fn thirteen_endpoints() -> String {
    let mut out = String::from(
        "time_local,request_method,request_uri,status,upstream_status,request_time,http_idempotency_key,body_bytes_sent\n",
    );
    let mut n = 0u64;
    for i in 0..13u64 {
        for a in 0..40 + 10 * i {
            n += 1;
            let minute = n % 120;
            let key = if i % 4 == 0 && a % 3 == 0 {
                "-".to_string()
            } else {
                format!("k-{i}-{a}")
            };
            let (status, upstream) = if a % 7 == 3 { (504, 200) } else { (201, 201) };
            out.push_str(&format!(
                "01/Nov/2026:{:02}:{:02}:00 +0000,POST,/v1/r{i}/{a},{status},{upstream},0.1,{key},100\n",
                minute / 60,
                minute % 60
            ));
        }
    }
    out
}

#[test]
fn endpoints_past_the_top_ten_are_summed_as_other() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("access.csv"), thirteen_endpoints()).unwrap();
    let served = Served::start(tmp.path(), &["access.csv"]);
    let json = logs_once(tmp.path(), "access.csv");
    let rows = exact(&json["observed"]["rows"]) as u64;
    let got = served.wait_rows(rows);
    let want = expected(&json, rows);
    for (series, value) in &want {
        assert!(
            same(got.get(series), value),
            "{series}: {:?}",
            got.get(series)
        );
    }
    let sum = |name: &str| -> f64 {
        got.iter()
            .filter(|(k, _)| k.starts_with(&format!("{name}{{")))
            .map(|(_, v)| v)
            .sum()
    };
    // Ten endpoints and `other`: the counts add up to the whole log's.
    let other = r#"{method="other",route="other"}"#;
    assert_eq!(
        got.keys()
            .filter(|k| k.starts_with("dupcost_endpoint_mutating_attempts{"))
            .count(),
        11
    );
    assert_eq!(
        sum("dupcost_endpoint_mutating_attempts"),
        got["dupcost_mutating_attempts"]
    );
    assert_eq!(
        sum("dupcost_endpoint_timed_out_attempts"),
        got["dupcost_timed_out_attempts"]
    );
    // The rest's key coverage: its keyed attempts over its attempts, counted from the log.
    let top: Vec<String> = json["observed"]["per_endpoint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["route"].as_str().unwrap().to_string())
        .collect();
    let (mut keyed, mut all) = (0u64, 0u64);
    for line in thirteen_endpoints().lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let route = fields[2].rsplit_once('/').unwrap().0.to_string() + "/{id}";
        if !top.contains(&route) {
            all += 1;
            keyed += u64::from(fields[6] != "-");
        }
    }
    assert_eq!(
        got[&format!("dupcost_endpoint_key_coverage_ratio{other}")],
        keyed as f64 / all as f64
    );
    assert!(got["dupcost_key_coverage_ratio"] < 1.0);
    // Estimates are each endpoint's own: the rest's are not in the report, so no `other`.
    assert!(!got.contains_key(&format!("dupcost_endpoint_duplicates_per_month{other}")));
    served.stop();
}

#[test]
fn openmetrics_when_the_scraper_asks_and_only_metrics_is_served() {
    let tmp = tempfile::tempdir().unwrap();
    let (header, rows) = sample_lines();
    std::fs::write(
        tmp.path().join("access.csv"),
        format!("{header}{}", rows.concat()),
    )
    .unwrap();
    let served = Served::start(tmp.path(), &["access.csv"]);
    let text = served.wait_rows(3000);
    let (content_type, body) = served.scrape(Some(
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
    ));
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    assert!(body.ends_with("# EOF\n"), "OpenMetrics ends with # EOF");
    assert!(body.contains("# TYPE dupcost_rows counter\n"), "{body}");
    assert!(body.contains("# TYPE dupcost_input info\n"), "{body}");
    // The same samples in both formats.
    assert_eq!(parse(&body), text);
    let (content_type, body) = served.scrape(None);
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    assert!(
        body.contains("# TYPE dupcost_rows_total counter\n"),
        "{body}"
    );
    assert!(!body.contains("# EOF"));
    // Nothing but /metrics.
    let base = served.url.strip_suffix("/metrics").unwrap();
    let err = ureq::get(&format!("{base}/")).call().unwrap_err();
    assert!(matches!(err, ureq::Error::StatusCode(404)), "{err}");
    let err = ureq::post(&served.url).send("").unwrap_err();
    assert!(matches!(err, ureq::Error::StatusCode(405)), "{err}");
    served.stop();
}

/// A scraper that connects and never sends its request (or never reads) holds no one up:
/// the log is still read, and another scraper still answered.
#[test]
fn a_scraper_that_never_reads_stalls_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (header, rows) = sample_lines();
    let path = tmp.path().join("access.csv");
    std::fs::write(&path, format!("{header}{}", rows[..1000].concat())).unwrap();
    let served = Served::start(tmp.path(), &["access.csv"]);
    served.wait_rows(1000);
    let addr = served
        .url
        .strip_prefix("http://")
        .unwrap()
        .strip_suffix("/metrics")
        .unwrap();
    // One that connects and says nothing, and one that asks and never reads the answer.
    let silent = TcpStream::connect(addr).unwrap();
    let mut asking = TcpStream::connect(addr).unwrap();
    asking
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    append(&path, &rows[1000..].concat());
    served.wait_rows(3000);
    drop((silent, asking));
    served.stop();
}

#[test]
fn metrics_flag_errors_are_one_line() {
    let err = usage_error(&["logs", "samples/access-log.csv", "--metrics", "127.0.0.1:0"]);
    assert!(err.contains("--follow"), "{err}");
    let err = usage_error(&[
        "logs",
        "samples/access-log.csv",
        "--follow",
        "--metrics",
        "localhost",
    ]);
    assert!(
        err.contains("--metrics") && err.contains("IP:PORT"),
        "{err}"
    );
    // An address already taken is named with the flag, before anything is read.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let err = usage_error(&[
        "logs",
        "samples/access-log.csv",
        "--follow",
        "--metrics",
        &addr,
    ]);
    assert!(err.contains(&format!("--metrics {addr}")), "{err}");
}

/// A log that starts empty: the follower's own series at once (waiting, no row), the report's
/// as soon as the lines give one, equal to the batch report.
#[test]
fn a_log_that_starts_empty_waits_then_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("access.csv");
    std::fs::write(&path, "").unwrap();
    let served = Served::start(tmp.path(), &["access.csv", "--input-format", "csv"]);
    let first = parse(&served.scrape(None).1);
    assert_eq!(first.get("dupcost_rows_total"), Some(&0.0), "{first:?}");
    assert_eq!(first.get("dupcost_report_waiting"), Some(&1.0), "{first:?}");
    assert!(
        !first.contains_key("dupcost_duplicates_per_day"),
        "{first:?}"
    );
    let (header, rows) = sample_lines();
    append(&path, &format!("{header}{}", rows.concat()));
    let got = served.wait_rows(3000);
    let want = expected(&logs_once(tmp.path(), "access.csv"), 3000);
    assert_eq!(got.len(), want.len());
    for (series, value) in &want {
        assert!(same(got.get(series), value), "{series}");
    }
    served.stop();
}

/// A log without a key column: attempts are grouped by fingerprint and key coverage is
/// `null` in the report, so the contract's `dupcost_key_coverage_ratio` is NaN (no alert
/// takes it for a share) and no endpoint has a coverage series.
#[test]
fn a_log_without_keys_has_no_coverage_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let (header, rows) = sample_lines();
    let strip = |line: &str| {
        let mut fields: Vec<&str> = line.trim_end().split(',').collect();
        fields.remove(6);
        format!("{}\n", fields.join(","))
    };
    let text: String = std::iter::once(strip(&header))
        .chain(rows.iter().map(|r| strip(r)))
        .collect();
    std::fs::write(tmp.path().join("access.csv"), text).unwrap();
    let served = Served::start(tmp.path(), &["access.csv"]);
    let json = logs_once(tmp.path(), "access.csv");
    assert!(json["observed"]["key_coverage"].is_null());
    let got = served.wait_rows(3000);
    assert!(got["dupcost_key_coverage_ratio"].is_nan(), "{got:?}");
    assert!(
        !got.keys()
            .any(|k| k.starts_with("dupcost_endpoint_key_coverage_ratio"))
    );
    let want = expected(&json, 3000);
    assert_eq!(got.len(), want.len());
    for (series, value) in &want {
        assert!(same(got.get(series), value), "{series}");
    }
    served.stop();
}
