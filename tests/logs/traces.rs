//! `dupcost logs` on OpenTelemetry traces (issue 39): OTLP/JSON and Zipkin v2, detected.
//!
//! Real spans first: tests/traces/spans.py runs an instrumented client and server on loopback
//! (the OpenTelemetry Python SDK and its instrumentations, in the venv `.ci/run` makes:
//! target/sql-venv, or `DUPCOST_SQL_PYTHON`), with timeouts, resends and a server that
//! finishes after the client gave up, and writes what its server and client counted. The
//! figures read from its spans must equal those counts, in both encodings and both
//! generations of attribute names. Without the venv the test is skipped locally but FAILS when
//! `CI` is set. Then hand-made traces for what the SDK run does not show: head sampling,
//! orphans, cut traces, attempts that never arrived, servers not traced, the query APIs'
//! wrappers, captured keys, a line of many megabytes, bad input.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{close, dupcost, succeed, usage_error};
use serde_json::{Value, json};

/// The venv's python, when it has the OpenTelemetry SDK and chDB.
fn python() -> Option<PathBuf> {
    common::venv_python(
        "traces from an instrumented client and server (tests/logs/traces.rs)",
        "chdb, opentelemetry.sdk, opentelemetry.exporter.zipkin.json, opentelemetry.instrumentation.requests, opentelemetry.instrumentation.wsgi",
        "chDB and the OpenTelemetry SDK (tests/sql/requirements.txt, tests/traces/requirements.txt)",
    )
}

/// `dupcost logs FILE ARGS` as JSON.
fn report(file: &Path, args: &[&str]) -> Value {
    crate::support::json(&[&[file.to_str().unwrap()][..], args].concat())
}

fn gzip(path: &Path) -> PathBuf {
    let gz = path.with_extension("gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    enc.write_all(&std::fs::read(path).unwrap()).unwrap();
    enc.finish().unwrap();
    gz
}

#[test]
fn real_sdk_spans_give_the_figures_the_server_counted() {
    let Some(python) = python() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces/spans.py");
    for mode in ["old", "new"] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(&python)
            .arg(&script)
            .arg(dir.path())
            .arg(mode)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let truth: Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("truth.json")).unwrap()).unwrap();
        let n = |k: &str| truth[k].as_u64().unwrap();
        // Every attempt the client sent reached the server, and the run has what it is for.
        assert_eq!(n("server_requests"), n("attempts"), "{mode}: {truth}");
        assert!(
            n("timed_out") >= 30 && n("ran_twice") > 0,
            "{mode}: {truth}"
        );
        assert!(n("timed_out_succeeded") < n("timed_out"), "{mode}: {truth}");
        assert!(n("otlp_lines") > 1, "{mode}: several export batches");
        let otlp = dir.path().join("otlp.jsonl");
        let zipkin = dir.path().join("zipkin.json");
        for file in [otlp.clone(), gzip(&otlp), zipkin] {
            let what = format!("{mode} {}", file.display());
            let r = report(&file, &["--min-span", "1s"]);
            let o = &r["observed"];
            assert_eq!(o["mutating_attempts"], truth["attempts"], "{what}");
            assert_eq!(o["intents"], truth["intents"], "{what}");
            assert_eq!(o["timed_out"], truth["timed_out"], "{what}");
            assert_eq!(
                o["timed_out_succeeded"], truth["timed_out_succeeded"],
                "{what}"
            );
            assert_eq!(o["timed_out_unknown"], 0, "{what}");
            assert_eq!(
                o["observed_duplicates"]["count"], truth["ran_twice"],
                "{what}"
            );
            assert_eq!(o["retries_observed"]["max"], truth["max_retries"], "{what}");
            let i = &r["inputs"];
            let f = |v: &Value| v.as_f64().unwrap();
            assert_eq!(
                f(&i["timeout_rate"]),
                n("timed_out") as f64 / n("attempts") as f64,
                "{what}"
            );
            assert_eq!(
                f(&i["succeeded_share"]),
                n("timed_out_succeeded") as f64 / n("timed_out") as f64,
                "{what}"
            );
            assert_eq!(i["retries"], truth["max_retries"], "{what}");
            // Requests a day: the intents over the days the spans cover.
            assert!(
                close(
                    f(&i["requests_per_day"]) * f(&o["days_covered"]),
                    n("intents") as f64,
                    1e-9
                ),
                "{what}: {}",
                i["requests_per_day"]
            );
            for measured in [
                "requests_per_day",
                "timeout_rate",
                "succeeded_share",
                "retries",
            ] {
                assert_eq!(r["sources"][measured], "log", "{what}: {measured}");
            }
            let read = &o["files"][0];
            assert_eq!(read["detected"], true, "{what}");
            assert_eq!(read["traces"]["cut"], 0, "{what}");
            assert_eq!(read["traces"]["server_without_client"], 0, "{what}");
        }
        // Past one machine: the same spans in the Collector's ClickHouse table (otel_traces),
        // the query of `dupcost sql --preset otel-traces` run on it in chDB, and its result
        // read back: the same figures.
        let from_file = report(&otlp, &["--min-span", "1s"]);
        // The exporter's older versions write SpanKind SPAN_KIND_CLIENT, newer ones Client.
        for kinds in ["old", "new"] {
            let r = through_sql(&python, &otlp, dir.path(), kinds, &["--min-span", "1s"]);
            let what = format!("{mode} sql {kinds}");
            for k in [
                "mutating_attempts",
                "intents",
                "timed_out",
                "timed_out_succeeded",
                "timed_out_unknown",
                "retries_observed",
            ] {
                assert_eq!(r["observed"][k], from_file["observed"][k], "{what}: {k}");
            }
            assert_eq!(
                r["observed"]["observed_duplicates"]["count"], truth["ran_twice"],
                "{what}"
            );
            for k in ["timeout_rate", "succeeded_share", "retries"] {
                assert_eq!(r["inputs"][k], from_file["inputs"][k], "{what}: {k}");
            }
            assert!(close(
                r["inputs"]["requests_per_day"].as_f64().unwrap(),
                from_file["inputs"]["requests_per_day"].as_f64().unwrap(),
                1e-6
            ));
        }
    }
}

/// The query of `dupcost sql --preset otel-traces`, run in chDB on `spans` loaded as the
/// Collector's ClickHouse table (`kinds`: as the exporter's older or newer versions write its
/// kinds), its result read back by `estimate --observed` with `args`, as JSON.
fn through_sql(python: &Path, spans: &Path, dir: &Path, kinds: &str, args: &[&str]) -> Value {
    let out = succeed(dupcost().args([
        "sql",
        "--engine",
        "clickhouse",
        "--preset",
        "otel-traces",
        "--table",
        "t.otel_traces",
    ]));
    let query = dir.join("query.sql");
    std::fs::write(&query, &out.stdout).unwrap();
    let result = dir.join(format!("result-{kinds}.csv"));
    let loader = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces/chdb_otel.py");
    let run = Command::new(python)
        .arg(loader)
        .args([spans, &query, &result])
        .arg(kinds)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = succeed(
        dupcost()
            .arg("estimate")
            .arg("--observed")
            .arg(&result)
            .args(args)
            .args(["--format", "json"]),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A handler that makes two different calls of one route under one parent span (the items of
/// two orders, `/orders/{id}/items`) sends two intents, not one retried: the file reader and
/// the query of `dupcost sql --preset otel-traces` (in chDB, on the Collector's ClickHouse
/// table of the same spans) both count them apart, so neither counts a call that ran once as
/// work that ran twice.
#[test]
fn two_calls_under_one_parent_are_two_intents_in_the_file_and_in_sql() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let call = |trace: u64, id: u64, parent: u64, start: u64, path: &str, timeout: bool| {
        let mut attrs = vec![
            attr("http.request.method", "POST"),
            attr("url.full", format!("http://10.0.0.2:8080{path}")),
            attr("server.address", "10.0.0.2"),
            attr("server.port", 8080),
        ];
        if timeout {
            attrs.push(attr("error.type", "timeout"));
        } else {
            attrs.push(attr("http.response.status_code", 201));
        }
        span(trace, id, parent, 3, start, start + 400, attrs)
    };
    let docs: Vec<Value> = (1..=20u64)
        .map(|t| {
            let at = (t - 1) * 3_600_000;
            let root = t * 100;
            let mut spans = vec![span(t, root, 0, 1, at, at + 9_000, vec![])];
            // Every 5th first call timed out once, its server answering 201: it ran twice.
            let first = format!("/orders/{t}/items");
            let second = format!("/orders/{}/items", t + 500);
            let mut id = root + 1;
            if t % 5 == 0 {
                spans.push(call(t, id, root, at, &first, true));
                spans.push(span(t, id + 1, id, 2, at + 10, at + 800, server_attrs(201)));
                id += 2;
            }
            spans.push(call(t, id, root, at + 1_000, &first, false));
            spans.push(span(
                t,
                id + 1,
                id,
                2,
                at + 1_010,
                at + 1_300,
                server_attrs(201),
            ));
            spans.push(call(t, id + 2, root, at + 2_000, &second, false));
            spans.push(span(
                t,
                id + 3,
                id + 2,
                2,
                at + 2_010,
                at + 2_300,
                server_attrs(201),
            ));
            request(spans)
        })
        .collect();
    let file = write_lines(dir.path(), "calls.jsonl", &docs);
    let args = ["--min-span", "1s", "--succeeded-share", "50%"];
    let from_file = report(&file, &args);
    let o = &from_file["observed"];
    assert_eq!(o["mutating_attempts"], 44);
    assert_eq!(o["intents"], 40);
    assert_eq!(o["observed_duplicates"]["count"], 4);
    let r = through_sql(&python, &file, dir.path(), "new", &args);
    for k in [
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
    ] {
        assert_eq!(r["observed"][k], o[k], "sql: {k}");
    }
    assert_eq!(r["observed"]["observed_duplicates"]["count"], 4);
}

// --- hand-made traces -------------------------------------------------------------------

const T0: u64 = 1_764_547_200_000_000_000; // 2025-12-01T00:00:00Z, ns

fn attr(key: &str, value: impl Into<Value>) -> Value {
    match value.into() {
        Value::Number(n) => json!({"key": key, "value": {"intValue": n.to_string()}}),
        Value::String(s) => json!({"key": key, "value": {"stringValue": s}}),
        other => json!({"key": key, "value": other}),
    }
}

/// A span of OTLP/JSON: ids as small numbers written in hex.
#[allow(clippy::too_many_arguments)]
fn span(
    trace: u64,
    id: u64,
    parent: u64,
    kind: u8,
    start_ms: u64,
    end_ms: u64,
    attributes: Vec<Value>,
) -> Value {
    let mut s = json!({
        "traceId": format!("{trace:032x}"),
        "spanId": format!("{id:016x}"),
        "name": "span",
        "kind": kind,
        "startTimeUnixNano": (T0 + start_ms * 1_000_000).to_string(),
        "endTimeUnixNano": (T0 + end_ms * 1_000_000).to_string(),
        "attributes": attributes,
    });
    if parent != 0 {
        s["parentSpanId"] = json!(format!("{parent:016x}"));
    }
    s
}

fn request(spans: Vec<Value>) -> Value {
    json!({"resourceSpans": [{"resource": {"attributes": [attr("service.name", "shop")]},
        "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}]}]})
}

fn client_attrs(order: u64, status: Option<u16>, timeout: bool) -> Vec<Value> {
    let mut a = vec![
        attr("http.request.method", "POST"),
        attr("url.full", format!("http://10.0.0.2:8080/orders/{order}")),
        attr("server.address", "10.0.0.2"),
        attr("server.port", 8080),
    ];
    if let Some(s) = status {
        a.push(attr("http.response.status_code", s));
    }
    if timeout {
        a.push(attr("error.type", "timeout"));
    }
    a
}

fn server_attrs(status: u16) -> Vec<Value> {
    vec![
        attr("http.request.method", "POST"),
        attr("http.route", "/orders/{id}"),
        attr("http.response.status_code", status),
    ]
}

/// One trace per intent, an hour apart: a root, then `plan`'s attempts under it, each
/// `(timed out, the server's answer if traced)`; the last attempt answered 201.
fn intent(trace: u64, plan: &[(bool, Option<u16>)]) -> Vec<Value> {
    let t = (trace - 1) * 3_600_000;
    let root = trace * 100;
    let mut spans = vec![span(trace, root, 0, 1, t, t + 9_000, vec![])];
    for (n, &(timed_out, server)) in plan.iter().enumerate() {
        let id = root + 1 + 2 * n as u64;
        let start = t + 1_000 * n as u64;
        let status = (!timed_out).then_some(201);
        spans.push(span(
            trace,
            id,
            root,
            3,
            start,
            start + 500,
            client_attrs(trace, status, timed_out),
        ));
        if let Some(s) = server {
            spans.push(span(
                trace,
                id + 1,
                id,
                2,
                start + 10,
                start + 800,
                server_attrs(s),
            ));
        }
    }
    spans
}

/// 40 intents: every 4th timed out once, its server answering 201 (the work ran twice), every
/// 8th also timed out a second time with a server answering 500.
fn traces(tracestate: Option<&str>) -> Vec<Value> {
    (1..=40)
        .map(|i| {
            let plan: Vec<(bool, Option<u16>)> = match i % 8 {
                0 => vec![(true, Some(201)), (true, Some(500)), (false, Some(201))],
                4 => vec![(true, Some(201)), (false, Some(201))],
                _ => vec![(false, Some(201))],
            };
            let mut spans = intent(i, &plan);
            if let Some(state) = tracestate {
                for s in &mut spans {
                    s["traceState"] = json!(state);
                }
            }
            request(spans)
        })
        .collect()
}

fn write_lines(dir: &Path, name: &str, docs: &[Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = docs.iter().map(|d| format!("{d}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn hand_made_traces_give_their_figures() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_lines(dir.path(), "t.jsonl", &traces(None));
    let r = report(&file, &[]);
    let o = &r["observed"];
    assert_eq!(o["mutating_attempts"], 55);
    assert_eq!(o["intents"], 40);
    assert_eq!(o["timed_out"], 15);
    assert_eq!(o["timed_out_succeeded"], 10);
    assert_eq!(o["observed_duplicates"]["count"], 10);
    assert_eq!(o["retries_observed"]["max"], 2);
    assert_eq!(o["files"][0]["input_format"], "OTLP/JSON traces");
    let days = o["days_covered"].as_f64().unwrap();
    assert!(close(
        r["inputs"]["requests_per_day"].as_f64().unwrap(),
        40.0 / days,
        1e-12
    ));
    // Unsampled as far as the spans tell: said, not refused.
    assert!(
        o["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("--sample-rate")),
        "{}",
        o["warnings"]
    );
}

#[test]
fn head_sampling_scales_counts_not_rates() {
    let dir = tempfile::tempdir().unwrap();
    let plain = report(&write_lines(dir.path(), "t.jsonl", &traces(None)), &[]);
    let sampled = report(
        &write_lines(
            dir.path(),
            "s.jsonl",
            &traces(Some("ot=th:c;rv:01234567890abc")),
        ),
        &[],
    );
    let flag = report(
        &write_lines(dir.path(), "f.jsonl", &traces(None)),
        &["--sample-rate", "25%"],
    );
    let n = |r: &Value| r["inputs"]["requests_per_day"].as_f64().unwrap();
    for (what, r) in [("tracestate th:c", &sampled), ("--sample-rate", &flag)] {
        assert!(
            close(n(r), 4.0 * n(&plain), 1e-12),
            "{what}: {} vs {}",
            n(r),
            n(&plain)
        );
        for rate in ["timeout_rate", "succeeded_share", "retries"] {
            assert_eq!(r["inputs"][rate], plain["inputs"][rate], "{what}: {rate}");
        }
        assert!(
            !r["observed"]["warnings"]
                .to_string()
                .contains("no sampling threshold"),
            "{what}"
        );
    }
    assert_eq!(
        sampled["observed"]["files"][0]["traces"]["with_threshold"],
        40
    );
    // The text says the counts were scaled, and by what.
    let out = succeed(dupcost().arg("logs").arg(dir.path().join("s.jsonl")));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("head sampling kept 1 trace in 4"), "{text}");
}

#[test]
fn what_traces_cannot_tell_is_counted_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut docs = traces(None);
    // A SERVER span no traced client called: counted, not an attempt.
    docs.push(request(vec![span(
        900,
        9001,
        0,
        2,
        10,
        20,
        server_attrs(201),
    )]));
    // A trace cut at the file's edge: its root is not in the file; its attempt timed out
    // and has no server span: unknown.
    docs.push(request(vec![span(
        901,
        9011,
        9010,
        3,
        30,
        40,
        client_attrs(901, None, true),
    )]));
    // A whole trace whose timed-out attempt has no server span, to a server traced elsewhere:
    // it never arrived.
    docs.push(request(intent(41, &[(true, None), (false, Some(201))])));
    let file = write_lines(dir.path(), "edges.jsonl", &docs);
    let r = report(&file, &[]);
    let o = &r["observed"];
    let t = &o["files"][0]["traces"];
    assert_eq!(t["server_without_client"], 1);
    assert_eq!(t["cut"], 1);
    assert_eq!(t["never_reached"], 1);
    assert_eq!(t["server_untraced"], 1);
    assert_eq!(o["timed_out"], 15 + 2);
    assert_eq!(o["timed_out_succeeded"], 10);
    assert_eq!(o["timed_out_unknown"], 1);
    let text = String::from_utf8(succeed(dupcost().arg("logs").arg(&file)).stdout).unwrap();
    for said in [
        "1 SERVER span with no traced CLIENT span",
        "1 trace not whole in the file",
        "never arrived",
        "unknown, not failed",
        // The share's evidence says what a trace's outcome is: the SERVER span, not a proxy.
        "whose SERVER span answered 2xx",
    ] {
        assert!(text.contains(said), "{said}: {text}");
    }
}

#[test]
fn a_server_not_traced_leaves_outcomes_unknown() {
    let dir = tempfile::tempdir().unwrap();
    // Only the client is instrumented: whole traces, no SERVER span anywhere.
    let docs: Vec<Value> = (1..=8)
        .map(|i| request(intent(i, &[(true, None), (false, None)])))
        .collect();
    let r = report(&write_lines(dir.path(), "c.jsonl", &docs), &[]);
    let o = &r["observed"];
    assert_eq!(o["timed_out"], 8);
    assert_eq!(o["timed_out_unknown"], 8);
    assert_eq!(o["timed_out_succeeded"], 0);
    assert_eq!(o["files"][0]["traces"]["never_reached"], 0);
    assert_eq!(o["files"][0]["traces"]["server_untraced"], 8);
    // The held attempts stay with their intents' resends, hours apart as they are.
    assert_eq!(o["intents"], 8);
    assert_eq!(o["retries_observed"]["max"], 1);
    assert!(
        !o["warnings"].to_string().contains("backwards"),
        "{}",
        o["warnings"]
    );
    assert_ne!(r["sources"]["succeeded_share"], "log");
}

#[test]
fn old_attribute_names_and_an_exception_event() {
    let dir = tempfile::tempdir().unwrap();
    let mut spans = vec![span(1, 10, 0, 1, 0, 9_000, vec![])];
    let mut timed = span(
        1,
        11,
        10,
        3,
        0,
        500,
        vec![
            attr("http.method", "POST"),
            attr("http.url", "http://orders:80/orders/7?x=1"),
        ],
    );
    timed["events"] = json!([{"name": "exception", "timeUnixNano": T0.to_string(),
        "attributes": [attr("exception.type", "requests.exceptions.ReadTimeout")]}]);
    spans.push(timed);
    spans.push(span(
        1,
        12,
        11,
        2,
        10,
        900,
        vec![attr("http.method", "POST"), attr("http.status_code", 201)],
    ));
    spans.push(span(
        1,
        13,
        10,
        3,
        1_000,
        1_100,
        vec![
            attr("http.method", "POST"),
            attr("http.url", "http://orders:80/orders/7?x=1"),
            attr("http.status_code", 201),
        ],
    ));
    spans.push(span(
        1,
        14,
        13,
        2,
        1_010,
        1_090,
        vec![attr("http.method", "POST"), attr("http.status_code", 201)],
    ));
    // A GET is no attempt.
    spans.push(span(
        1,
        15,
        10,
        3,
        2_000,
        2_100,
        vec![attr("http.method", "GET"), attr("http.status_code", 200)],
    ));
    let r = report(
        &write_lines(dir.path(), "old.jsonl", &[request(spans)]),
        &["--min-span", "1s"],
    );
    let o = &r["observed"];
    assert_eq!(o["mutating_attempts"], 2);
    assert_eq!(o["intents"], 1);
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["timed_out_succeeded"], 1);
    assert_eq!(o["observed_duplicates"]["count"], 1);
    assert_eq!(o["per_endpoint"][0]["route"], "/orders/{id}");
}

#[test]
fn resend_counts_and_captured_keys_group_intents() {
    let dir = tempfile::tempdir().unwrap();
    // Two orders under one parent, each sent, timed out and resent (resend_count 1): two
    // intents, not one.
    let mut spans = vec![span(1, 10, 0, 1, 0, 9_000, vec![])];
    for (n, resend) in [(0u64, None), (1, Some(1)), (2, None), (3, Some(1))] {
        let mut a = client_attrs(5, if n % 2 == 0 { None } else { Some(201) }, n % 2 == 0);
        if let Some(r) = resend {
            a.push(attr("http.request.resend_count", r));
        }
        spans.push(span(1, 11 + n, 10, 3, n * 1000, n * 1000 + 500, a));
    }
    // One key across two traces: one intent.
    let keyed = |trace: u64, timed_out: bool| {
        let mut a = client_attrs(6, (!timed_out).then_some(201), timed_out);
        a.push(json!({"key": "http.request.header.idempotency-key",
            "value": {"arrayValue": {"values": [{"stringValue": "k-1"}]}}}));
        request(vec![
            span(
                trace,
                trace * 10,
                0,
                1,
                trace * 60_000,
                trace * 60_000 + 900,
                vec![],
            ),
            span(
                trace,
                trace * 10 + 1,
                trace * 10,
                3,
                trace * 60_000,
                trace * 60_000 + 500,
                a,
            ),
        ])
    };
    let docs = vec![request(spans), keyed(2, true), keyed(3, false)];
    let r = report(
        &write_lines(dir.path(), "k.jsonl", &docs),
        &["--min-span", "1s"],
    );
    let o = &r["observed"];
    assert_eq!(o["mutating_attempts"], 6);
    assert_eq!(o["intents"], 3);
    assert_eq!(o["retries_observed"]["max"], 1);
}

#[test]
fn the_query_apis_wrappers_base64_ids_and_zipkin_lists() {
    let dir = tempfile::tempdir().unwrap();
    let plain = report(&write_lines(dir.path(), "t.jsonl", &traces(None)), &[]);
    let b64 = |hex: &str| {
        use base64::Engine;
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    // Tempo: {"batches": [...]} with base64 ids, pretty-printed; Jaeger v3: {"result": ...}.
    let mut tempo = Vec::new();
    let mut jaeger = Vec::new();
    for doc in traces(None) {
        let mut batches = doc["resourceSpans"].clone();
        for s in batches[0]["scopeSpans"][0]["spans"].as_array_mut().unwrap() {
            for k in ["traceId", "spanId", "parentSpanId"] {
                if let Some(h) = s[k].as_str().map(str::to_string) {
                    s[k] = json!(b64(&h));
                }
            }
            // Enum names and numbers instead of strings are read too.
            s["kind"] = json!(match s["kind"].as_u64() {
                Some(2) => "SPAN_KIND_SERVER",
                Some(3) => "SPAN_KIND_CLIENT",
                _ => "SPAN_KIND_INTERNAL",
            });
        }
        tempo.push(serde_json::to_string_pretty(&json!({"batches": batches})).unwrap());
        jaeger.push(json!({"result": doc}).to_string());
    }
    let tempo_file = dir.path().join("tempo.json");
    std::fs::write(&tempo_file, tempo.join("\n")).unwrap();
    let jaeger_file = dir.path().join("jaeger.json");
    std::fs::write(&jaeger_file, jaeger.join("\n")).unwrap();
    // Zipkin: the API's list of traces, each a list of spans.
    let zipkin: Vec<Value> = traces(None)
        .iter()
        .map(|doc| {
            let spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let ns = |k: &str| s[k].as_str().unwrap().parse::<u64>().unwrap();
                    let mut tags = serde_json::Map::new();
                    for a in s["attributes"].as_array().unwrap() {
                        let v = &a["value"];
                        let text = v["stringValue"]
                            .as_str()
                            .map(str::to_string)
                            .or_else(|| v["intValue"].as_str().map(str::to_string))
                            .unwrap();
                        tags.insert(a["key"].as_str().unwrap().to_string(), json!(text));
                    }
                    let mut z = json!({
                        "traceId": s["traceId"], "id": s["spanId"],
                        "timestamp": ns("startTimeUnixNano") / 1000,
                        "duration": (ns("endTimeUnixNano") - ns("startTimeUnixNano")) / 1000,
                        "localEndpoint": {"serviceName": "shop"},
                        "tags": tags,
                    });
                    if let Some(p) = s.get("parentSpanId") {
                        z["parentId"] = p.clone();
                    }
                    match s["kind"].as_u64() {
                        Some(2) => z["kind"] = json!("SERVER"),
                        Some(3) => z["kind"] = json!("CLIENT"),
                        _ => {}
                    }
                    z
                })
                .collect();
            Value::Array(spans)
        })
        .collect();
    let zipkin_file = dir.path().join("zipkin.json");
    std::fs::write(&zipkin_file, Value::Array(zipkin).to_string()).unwrap();
    for (file, format) in [
        (&tempo_file, "OTLP/JSON traces"),
        (&jaeger_file, "OTLP/JSON traces"),
        (&zipkin_file, "Zipkin v2 JSON traces"),
    ] {
        let r = report(file, &[]);
        let what = file.display();
        assert_eq!(r["observed"]["files"][0]["input_format"], format, "{what}");
        for k in [
            "mutating_attempts",
            "intents",
            "timed_out",
            "timed_out_succeeded",
            "observed_duplicates",
        ] {
            assert_eq!(r["observed"][k], plain["observed"][k], "{what}: {k}");
        }
        assert_eq!(r["inputs"], plain["inputs"], "{what}");
    }
    // Named, not detected.
    let r = report(&zipkin_file, &["--input-format", "zipkin"]);
    assert_eq!(r["observed"]["files"][0]["detected"], false);
}

#[test]
fn a_line_of_many_megabytes_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // One ExportTraceServiceRequest of 6,000 traces on one line: the Collector's file exporter
    // writes a batch so.
    let mut spans = Vec::new();
    for i in 1..=6_000u64 {
        spans.extend(intent(
            i,
            &[(i % 3 == 0, Some(201)), (false, Some(201))][(i % 3 != 0) as usize..],
        ));
    }
    let file = write_lines(dir.path(), "big.jsonl", &[request(spans)]);
    assert!(std::fs::metadata(&file).unwrap().len() > 4 << 20);
    let r = report(&file, &[]);
    assert_eq!(r["observed"]["intents"], 6_000);
    assert_eq!(r["observed"]["timed_out"], 2_000);
    assert_eq!(r["observed"]["timed_out_succeeded"], 2_000);
}

/// Several threads parse a file of a document a line in chunks of about a megabyte, and the
/// spans go on in the file's order: the report is the same, byte for byte, as one thread's,
/// over many chunks, across what stops a chunk (a pretty-printed document, a Zipkin array
/// line) and with blank, indented and CRLF lines; an error late in the file is the same line.
#[test]
fn threads_read_the_same_report_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let line = |from: u64, to: u64| {
        let mut spans = Vec::new();
        for i in from..to {
            let plan: &[(bool, Option<u16>)] = match i % 7 {
                0 => &[(true, Some(201)), (false, Some(201))],
                3 => &[(true, None), (false, Some(201))],
                5 => &[(true, Some(500)), (true, Some(201)), (false, Some(201))],
                _ => &[(false, Some(201))],
            };
            spans.extend(intent(i, plan));
        }
        request(spans).to_string()
    };
    // About 6 MB: 60 lines of 100 traces.
    let mut text = String::new();
    for n in 0..60u64 {
        let doc = line(1 + n * 100, 1 + (n + 1) * 100);
        match n {
            7 => text.push_str("\n   "),
            11 => text.push('\t'),
            _ => {}
        }
        text.push_str(&doc);
        text.push_str(if n == 19 { "\r\n" } else { "\n" });
    }
    let plain = dir.path().join("plain.jsonl");
    std::fs::write(&plain, &text).unwrap();
    let at = |n: usize| text.match_indices('\n').nth(n).unwrap().0 + 1;
    // A pretty-printed document after the fourth megabyte, then more lines.
    let pretty_doc = serde_json::to_string_pretty(&request(intent(
        9_001,
        &[(true, Some(201)), (false, Some(201))],
    )))
    .unwrap();
    let pretty = dir.path().join("pretty.jsonl");
    std::fs::write(
        &pretty,
        format!("{}{pretty_doc}\n{}", &text[..at(41)], &text[at(41)..]),
    )
    .unwrap();
    // A line cut short near the end: the error names its line.
    let cut = dir.path().join("cut.jsonl");
    let last = line(9_100, 9_110);
    std::fs::write(&cut, format!("{}{}\n", &text, &last[..last.len() / 2])).unwrap();
    for file in [&plain, &pretty] {
        let path = file.to_str().unwrap();
        let one = crate::support::output(&[path, "--threads", "1", "--format", "json"]);
        let four = crate::support::output(&[path, "--threads", "4", "--format", "json"]);
        assert_eq!(one, four, "{path}");
        let three = crate::support::output(&[path, "--threads", "3"]);
        assert_eq!(
            crate::support::output(&[path, "--threads", "1"]),
            three,
            "{path}"
        );
    }
    // The same bytes on stdin (read, not mapped), by one thread and by several.
    for file in [&plain, &pretty] {
        let path = file.to_str().unwrap();
        let mapped: Value = serde_json::from_str(
            &crate::support::output(&[path, "--threads", "1", "--format", "json"]).0,
        )
        .unwrap();
        for threads in ["1", "3"] {
            let out = dupcost()
                .args(["logs", "-", "--threads", threads, "--format", "json"])
                .pipe_stdin(file)
                .unwrap()
                .output()
                .unwrap();
            assert!(out.status.success(), "{path}");
            let mut read: Value = serde_json::from_slice(&out.stdout).unwrap();
            read["observed"]["files"][0]["name"] = json!(path);
            // Equal values (their texts are equal but for the name's).
            assert!(read == mapped, "{path}, stdin, --threads {threads}");
        }
    }
    // Gzip: read by the reading thread, and the same; cut short, the same one line.
    let gz = gzip(&plain);
    let (mapped, _) = crate::support::output(&[plain.to_str().unwrap(), "--format", "json"]);
    let mapped: Value = serde_json::from_str(&mapped).unwrap();
    let gz_path = gz.to_str().unwrap();
    let gz_name = json!(gz_path);
    for threads in ["1", "3"] {
        let (out, _) = crate::support::output(&[gz_path, "--threads", threads, "--format", "json"]);
        let mut read: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(read["observed"]["files"][0]["name"], gz_name);
        read["observed"]["files"][0]["name"] = json!(plain.to_str().unwrap());
        assert!(read == mapped, "gzip, --threads {threads}");
    }
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let one = usage_error(&["logs", gz_path, "--threads", "1"]);
    assert!(one.contains("corrupt or truncated gzip data"), "{one}");
    assert_eq!(usage_error(&["logs", gz_path, "--threads", "3"]), one);
    let cut = cut.to_str().unwrap();
    let one = usage_error(&["logs", cut, "--threads", "1"]);
    assert!(
        one.contains("cut.jsonl:63:0: not OTLP/JSON traces"),
        "{one}"
    );
    assert_eq!(usage_error(&["logs", cut, "--threads", "3"]), one);
    for threads in ["1", "3"] {
        let out = dupcost()
            .args(["logs", "-", "--threads", threads])
            .pipe_stdin(cut)
            .unwrap()
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("-:63:0: not OTLP/JSON traces"), "{err}");
    }
}

/// With several threads, traces are judged on a thread of their own while the spans are
/// read. A row the row stage refuses under `--strict` (an attempt dated 1970) stops the run at
/// that row, as one thread stops there, though the reading has gone on past it to a line cut
/// short: the judging's error comes first, as it came first in the file.
#[test]
fn a_strict_stop_while_judging_is_the_same_for_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut epoch = intent(1, &[(false, Some(201))]);
    for s in &mut epoch {
        s["startTimeUnixNano"] = json!("1000000000");
        s["endTimeUnixNano"] = json!("1500000000");
    }
    let mut text = format!("{}\n", request(epoch));
    // About 2 MB of traces after it (many sweeps), then a line cut short.
    for n in 0..20u64 {
        let spans = (2 + n * 100..2 + (n + 1) * 100)
            .flat_map(|i| intent(i, &[(i % 3 == 0, Some(201)), (false, Some(201))]))
            .collect();
        text.push_str(&format!("{}\n", request(spans)));
    }
    let whole = dir.path().join("whole.jsonl");
    std::fs::write(&whole, &text).unwrap();
    let last = request(intent(9_000, &[(false, Some(201))])).to_string();
    let cut = dir.path().join("cut.jsonl");
    std::fs::write(&cut, format!("{text}{}\n", &last[..last.len() / 2])).unwrap();
    for file in [&whole, &cut] {
        let path = file.to_str().unwrap();
        let one = usage_error(&["logs", path, "--strict", "--threads", "1"]);
        assert!(one.contains("before 1990"), "{one}");
        for threads in ["2", "3"] {
            let many = usage_error(&["logs", path, "--strict", "--threads", threads]);
            assert_eq!(many, one, "{path}, --threads {threads}");
            let out = dupcost()
                .args(["logs", "-", "--strict", "--threads", threads])
                .pipe_stdin(file)
                .unwrap()
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{path}, stdin");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.replace("-:", &format!("{path}:")), one, "{path}, stdin");
        }
    }
    // Without --strict the row is counted bad, and the cut line is the error, by every count.
    let path = cut.to_str().unwrap();
    let one = usage_error(&["logs", path, "--threads", "1"]);
    assert!(
        one.contains("cut.jsonl:23:0: not OTLP/JSON traces"),
        "{one}"
    );
    assert_eq!(usage_error(&["logs", path, "--threads", "3"]), one);
}

/// A large file is read through a memory map; one that shrinks while it is read (truncated,
/// or rewritten in place) is one line naming it and exit code 2, not a bus error.
#[cfg(unix)]
#[test]
fn a_file_that_shrinks_while_it_is_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("growing.jsonl");
    let doc = request(intent(1, &[(true, Some(201)), (false, Some(201))])).to_string();
    let one = format!("{:032x}", 1);
    // Caught once the file outlasts the wait below: larger each time it was read whole first.
    for megabytes in [40, 160, 640] {
        let lines = megabytes * (1 << 20) / doc.len();
        let text: String = (0..lines as u64)
            .map(|i| doc.replace(&one, &format!("{:032x}", i + 1)) + "\n")
            .collect();
        std::fs::write(&path, text).unwrap();
        let child = Command::new(assert_cmd::cargo::cargo_bin("dupcost"))
            .args(["logs", path.to_str().unwrap(), "--threads", "2"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            continue;
        }
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("growing.jsonl: cannot read: the file shrank while it was read"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        return;
    }
    panic!("every file was read whole before it was truncated");
}

#[test]
fn client_timeout_judges_a_span_without_status() {
    let dir = tempfile::tempdir().unwrap();
    // An attempt with no status and no error.type that lasted 30 s: timed out only with
    // --client-timeout 30s.
    let spans = vec![
        span(1, 10, 0, 1, 0, 40_000, vec![]),
        span(1, 11, 10, 3, 0, 30_000, client_attrs(1, None, false)),
        span(1, 12, 11, 2, 10, 31_000, server_attrs(201)),
        span(
            1,
            13,
            10,
            3,
            31_000,
            31_100,
            client_attrs(1, Some(201), false),
        ),
        span(1, 14, 13, 2, 31_010, 31_090, server_attrs(201)),
    ];
    let file = write_lines(dir.path(), "ct.jsonl", &[request(spans)]);
    assert_eq!(
        report(&file, &["--min-span", "1s"])["observed"]["timed_out"],
        0
    );
    let r = report(&file, &["--client-timeout", "30s", "--min-span", "1s"]);
    assert_eq!(r["observed"]["timed_out"], 1);
    assert_eq!(r["observed"]["timed_out_succeeded"], 1);
}

#[test]
fn bad_traces_are_one_line_naming_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let good = request(intent(1, &[(false, Some(201))])).to_string();
    let cases = [
        (
            "cut.jsonl",
            format!("{good}\n{}\n", &good[..good.len() / 2]),
            "cut.jsonl:3:0: not OTLP/JSON traces",
        ),
        (
            "ids.jsonl",
            good.replacen(&format!("{:032x}", 1), "not-hex", 1),
            "not a trace id",
        ),
        (
            "zipkin.json",
            "[{\"traceId\": \"a\", \"id\": \"b\", ".to_string(),
            "zipkin.json:1:",
        ),
        (
            "server-only.json",
            "[{\"traceId\": \"a\", \"id\": \"b\", \"kind\": \"SERVER\"}]".to_string(),
            "server-only.json: 1 span and no CLIENT span with a mutating method",
        ),
    ];
    for (name, text, says) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let err = usage_error(&["logs", path.to_str().unwrap()]);
        assert!(err.contains(says), "{name}: {err}");
    }
    let err = usage_error(&["logs", "--sample-rate", "0", "x.jsonl"]);
    assert!(err.contains("--sample-rate"), "{err}");
    // --follow reads access logs: traces are refused by name, not misread as JSON lines.
    let good_file = dir.path().join("good.jsonl");
    std::fs::write(&good_file, format!("{good}\n")).unwrap();
    let err = usage_error(&["logs", "--follow", good_file.to_str().unwrap()]);
    assert!(
        err.contains("--follow reads access logs, not traces"),
        "{err}"
    );
}

#[test]
fn traces_inside_an_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let docs = traces(None);
    let plain = report(&write_lines(dir.path(), "t.jsonl", &docs), &[]);
    // A Collector writing to stdout in Kubernetes: CRI lines, a long document cut into `P`
    // parts of 1,000 bytes, the Collector's own log on stderr between them.
    let mut cri = String::new();
    for (n, d) in docs.iter().enumerate() {
        let text = d.to_string();
        let chunks: Vec<&str> = text
            .as_bytes()
            .chunks(1000)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        for (i, c) in chunks.iter().enumerate() {
            let tag = if i + 1 < chunks.len() { "P" } else { "F" };
            cri.push_str(&format!(
                "2025-12-01T00:00:{:02}.000000000Z stdout {tag} {c}\n",
                n % 60
            ));
        }
        cri.push_str("2025-12-01T00:00:00.000000000Z stderr F 2025-12-01T00:00:00.000Z\tinfo\tfileexporter\tflushed\n");
    }
    let cri_file = dir.path().join("collector.cri.log");
    std::fs::write(&cri_file, cri).unwrap();
    // Docker's json-file: the document in "log", escaped.
    let docker: String = docs
        .iter()
        .map(|d| {
            format!(
                "{}\n",
                json!({"log": format!("{d}\n"), "stream": "stdout", "time": "2025-12-01T00:00:00Z"})
            )
        })
        .collect();
    let docker_file = dir.path().join("collector.docker.log");
    std::fs::write(&docker_file, docker).unwrap();
    for file in [&cri_file, &docker_file] {
        let r = report(file, &[]);
        let what = file.display();
        for k in [
            "mutating_attempts",
            "intents",
            "timed_out",
            "timed_out_succeeded",
        ] {
            assert_eq!(r["observed"][k], plain["observed"][k], "{what}: {k}");
        }
        assert_eq!(r["inputs"], plain["inputs"], "{what}");
        assert!(r["observed"]["files"][0]["envelope"].is_string(), "{what}");
    }
}

// --- Zipkin as Brave and OpenTelemetry's Zipkin exporter write it ----------------------

/// The real SDK's spans through OpenTelemetry's Zipkin exporter, read three ways: as written;
/// with only the `error` tag the exporter writes as timeout evidence (no `error.type`, no
/// exception annotation, no `otel.status_description`); and rewritten as Brave writes a call
/// (the SERVER half shares its CLIENT's id, `"shared": true`, and its parent; statuses only
/// when not 2xx; the `error` tag the message). Each must give what the server counted.
#[test]
fn real_sdk_spans_through_zipkin_error_tags_and_shared_spans() {
    let Some(python) = common::venv_python(
        "traces through the Zipkin exporter (tests/logs/traces.rs)",
        "opentelemetry.sdk, opentelemetry.exporter.zipkin.json, opentelemetry.instrumentation.requests, opentelemetry.instrumentation.wsgi",
        "the OpenTelemetry SDK (tests/traces/requirements.txt)",
    ) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces/spans.py");
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(&python)
        .arg(&script)
        .arg(dir.path())
        .arg("new")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let truth: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("truth.json")).unwrap()).unwrap();
    let spans: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.path().join("zipkin.json")).unwrap()).unwrap();
    assert!(
        spans.iter().any(|s| s["tags"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("Read timed out"))),
        "the exporter writes the error tag"
    );
    // Only the error tag.
    let error_tag: Vec<Value> = spans
        .iter()
        .cloned()
        .map(|mut s| {
            s.as_object_mut().unwrap().remove("annotations");
            let tags = s["tags"].as_object_mut().unwrap();
            tags.remove("error.type");
            tags.remove("otel.status_description");
            s
        })
        .collect();
    // As Brave: the server half takes its client's id and parent.
    let by_id: std::collections::HashMap<String, Value> = spans
        .iter()
        .map(|s| (s["id"].as_str().unwrap().to_string(), s.clone()))
        .collect();
    let mut renamed = std::collections::HashMap::new();
    for s in &spans {
        let client = s["parentId"].as_str().and_then(|p| by_id.get(p));
        if let Some(client) = client.filter(|c| s["kind"] == "SERVER" && c["kind"] == "CLIENT") {
            renamed.insert(s["id"].as_str().unwrap().to_string(), client.clone());
        }
    }
    assert!(!renamed.is_empty());
    let brave: Vec<Value> = spans
        .iter()
        .cloned()
        .map(|mut s| {
            let id = s["id"].as_str().unwrap().to_string();
            if let Some(client) = renamed.get(&id) {
                s["id"] = client["id"].clone();
                s["shared"] = json!(true);
                match client.get("parentId") {
                    Some(p) => s["parentId"] = p.clone(),
                    None => {
                        s.as_object_mut().unwrap().remove("parentId");
                    }
                }
            } else if let Some(client) = s["parentId"].as_str().and_then(|p| renamed.get(p)) {
                s["parentId"] = client["id"].clone();
            }
            s.as_object_mut().unwrap().remove("annotations");
            let tags = s["tags"].as_object_mut().unwrap();
            tags.retain(|k, _| !k.starts_with("otel.") && k != "error.type");
            for k in ["http.status_code", "http.response.status_code"] {
                if tags
                    .get(k)
                    .and_then(Value::as_str)
                    .and_then(|c| c.parse::<u16>().ok())
                    .is_some_and(|c| (200..300).contains(&c))
                {
                    tags.remove(k);
                }
            }
            s
        })
        .collect();
    for (name, doc) in [
        ("as-written.json", &spans),
        ("error-tag.json", &error_tag),
        ("brave.json", &brave),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, Value::Array(doc.clone()).to_string()).unwrap();
        let r = report(&file, &["--min-span", "1s"]);
        let o = &r["observed"];
        for (k, t) in [
            ("mutating_attempts", "attempts"),
            ("intents", "intents"),
            ("timed_out", "timed_out"),
            ("timed_out_succeeded", "timed_out_succeeded"),
        ] {
            assert_eq!(o[k], truth[t], "{name}: {k}");
        }
        assert_eq!(o["timed_out_unknown"], 0, "{name}");
        assert_eq!(
            o["observed_duplicates"]["count"], truth["ran_twice"],
            "{name}"
        );
        assert_eq!(o["retries_observed"]["max"], truth["max_retries"], "{name}");
        let t = &o["files"][0]["traces"];
        assert_eq!(t["server_without_client"], 0, "{name}");
        if name == "brave.json" {
            assert_eq!(t["shared_joined"], truth["attempts"], "{name}");
        }
    }
}

/// One attempt of a generated intent: whether the client gave up, and what its server did:
/// `Some(status)` answered (2xx: the work ran), `None` never arrived.
type Try = (bool, Option<u16>);

/// A week of checkout traces as Brave reports them to Zipkin, one intent every two minutes:
/// a gateway's root SERVER span (its caller not traced), its CLIENT POSTs to the orders
/// service, each answered by the SERVER half that shares its id; the orders service's own GET
/// to an inventory service under it (a deeper SERVER span, always 2xx). Timeouts carry only
/// the `error` tag "Read timed out" (one of them in a part reported apart); statuses are
/// written only when not 2xx. Returns the spans and each intent's tries.
fn brave_week() -> (Vec<Value>, Vec<Vec<Try>>) {
    const T0_US: u64 = 1_764_547_200_000_000; // 2025-12-01T00:00:00Z
    let intents = 7 * 24 * 30;
    let mut spans = Vec::new();
    let mut plans = Vec::new();
    let endpoint = |service: &str| json!({"serviceName": service, "ipv4": "10.0.0.9"});
    for i in 0..intents as u64 {
        let plan: Vec<Try> = match i % 120 {
            0 | 40 | 80 => vec![(true, Some(201)), (false, Some(201))],
            10 | 70 => vec![(true, Some(500)), (false, Some(201))],
            20 => vec![(true, Some(201)), (true, Some(201)), (false, Some(201))],
            30 => vec![(true, None), (false, Some(201))],
            // The orders service failed; the inventory service under it answered 200.
            50 => vec![(true, Some(503)), (false, Some(201))],
            _ => vec![(false, Some(201))],
        };
        let trace = format!("{:016x}", 0x5af7_0000_0000_0000 | i);
        let t = T0_US + i * 120_000_000 + 983_049;
        let root = 0x1000_0000_0000_0000 | (i << 8);
        spans.push(
            json!({"traceId": trace, "id": format!("{root:016x}"), "kind": "SERVER",
            "name": "post /checkout", "timestamp": t, "duration": 40_000_000,
            "localEndpoint": endpoint("gateway"),
            "tags": {"http.method": "POST", "http.path": "/checkout"}}),
        );
        for (n, &(timed_out, server)) in plan.iter().enumerate() {
            let id = format!("{:016x}", root + 1 + 2 * n as u64);
            let at = t + 1_000 + n as u64 * 12_000_000;
            let mut tags = json!({"http.method": "POST", "http.path": "/orders"});
            // The error tag of the 20th intent's second timeout comes in a part of its own.
            let apart = timed_out && i % 120 == 20 && n == 1;
            if timed_out && !apart {
                tags["error"] = json!("Read timed out");
            }
            spans.push(
                json!({"traceId": trace, "parentId": format!("{root:016x}"), "id": id,
                "kind": "CLIENT", "name": "post",  "timestamp": at,
                "duration": if timed_out { 10_000_000 } else { 150_000 },
                "localEndpoint": endpoint("gateway"),
                "remoteEndpoint": {"ipv4": "10.0.0.2", "port": 8080}, "tags": tags}),
            );
            if apart {
                spans.push(json!({"traceId": trace, "parentId": format!("{root:016x}"),
                    "id": id, "kind": "CLIENT", "localEndpoint": endpoint("gateway"),
                    "tags": {"error": "Read timed out"}}));
            }
            let Some(status) = server else { continue };
            let mut tags = json!({"http.method": "POST", "http.path": "/orders"});
            if !(200..300).contains(&status) {
                tags["http.status_code"] = json!(status.to_string());
                tags["error"] = json!(status.to_string());
            }
            spans.push(
                json!({"traceId": trace, "parentId": format!("{root:016x}"), "id": id,
                "kind": "SERVER", "shared": true, "name": "post /orders",
                "timestamp": at + 2_000, "duration": if timed_out { 11_000_000 } else { 140_000 },
                "localEndpoint": endpoint("orders"), "tags": tags}),
            );
            // The orders service asks the inventory service (a GET: no attempt).
            let inventory = format!("{:016x}", root + 0x80 + n as u64);
            for (kind, local) in [("CLIENT", "orders"), ("SERVER", "inventory")] {
                let mut s = json!({"traceId": trace, "parentId": id, "id": inventory,
                    "kind": kind, "name": "get", "timestamp": at + 3_000,
                    "duration": 5_000, "localEndpoint": endpoint(local),
                    "tags": {"http.method": "GET", "http.path": "/stock"}});
                if kind == "SERVER" {
                    s["shared"] = json!(true);
                }
                spans.push(s);
            }
            // A part of the orders span reported apart: its annotation, late.
            if i % 7 == 3 {
                spans.push(json!({"traceId": trace, "parentId": format!("{root:016x}"),
                    "id": id, "name": "post /orders", "localEndpoint": endpoint("orders"),
                    "annotations": [{"timestamp": at + 9_000, "value": "ws"}]}));
            }
        }
        plans.push(plan);
    }
    (spans, plans)
}

#[test]
fn a_week_of_brave_traces_gives_its_truth() {
    let (spans, plans) = brave_week();
    // The truth, from the plan.
    let tries: Vec<&Try> = plans.iter().flatten().collect();
    let attempts = tries.len();
    let timed_out = tries.iter().filter(|t| t.0).count();
    let ok = |s: &Option<u16>| s.is_some_and(|s| (200..300).contains(&s));
    let succeeded = tries.iter().filter(|t| t.0 && ok(&t.1)).count();
    let never = tries.iter().filter(|t| t.0 && t.1.is_none()).count();
    let ran_twice = plans
        .iter()
        .filter(|p| p.iter().filter(|t| ok(&t.1)).count() >= 2)
        .count();
    let max_retries = plans.iter().map(Vec::len).max().unwrap() - 1;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("week.json");
    std::fs::write(&file, Value::Array(spans).to_string()).unwrap();
    let r = report(&file, &[]);
    let o = &r["observed"];
    assert_eq!(o["mutating_attempts"], attempts);
    assert_eq!(o["intents"], plans.len());
    assert_eq!(o["timed_out"], timed_out);
    assert_eq!(o["timed_out_succeeded"], succeeded);
    assert_eq!(o["timed_out_unknown"], 0);
    assert_eq!(o["observed_duplicates"]["count"], ran_twice);
    assert_eq!(o["retries_observed"]["max"], max_retries);
    let i = &r["inputs"];
    assert_eq!(
        i["timeout_rate"].as_f64().unwrap(),
        timed_out as f64 / attempts as f64
    );
    assert_eq!(
        i["succeeded_share"].as_f64().unwrap(),
        succeeded as f64 / timed_out as f64
    );
    assert_eq!(i["retries"], max_retries);
    for measured in ["timeout_rate", "succeeded_share", "retries"] {
        assert_eq!(r["sources"][measured], "log", "{measured}");
    }
    let t = &o["files"][0]["traces"];
    assert_eq!(t["never_reached"], never);
    // Each trace's root is a SERVER span no traced client called; every other is joined.
    assert_eq!(t["server_without_client"], plans.len());
    assert_eq!(
        t["shared_joined"],
        tries.iter().filter(|t| t.1.is_some()).count() * 2
    );
    assert_eq!(t["cut"], 0);
    assert_eq!(t["late"], 0);
    assert!(t["merged"].as_u64().unwrap() > 0);
    assert!(t["status_implied"].as_u64().unwrap() > 0);
    let text = String::from_utf8(succeed(dupcost().arg("logs").arg(&file)).stdout).unwrap();
    for said in [
        "joined to the CLIENT span that shares their id",
        "reported in parts: merged",
        "Brave writes http.status_code only when it is not 2xx",
    ] {
        assert!(text.contains(said), "{said}: {text}");
    }
}

/// The same week as a reporter's batches by service (every gateway span, then every orders
/// span, ...): a trace's other spans come days after it was judged. Not silent: the late
/// spans are counted and said.
#[test]
fn zipkin_spans_out_of_time_order_are_counted_and_said() {
    let (mut spans, _) = brave_week();
    spans.sort_by_key(|s| {
        s["localEndpoint"]["serviceName"]
            .as_str()
            .unwrap()
            .to_string()
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("by-service.json");
    std::fs::write(&file, Value::Array(spans).to_string()).unwrap();
    let r = report(&file, &[]);
    let t = &r["observed"]["files"][0]["traces"];
    assert!(t["late"].as_u64().unwrap() > 1000, "{t}");
    let text = String::from_utf8(succeed(dupcost().arg("logs").arg(&file)).stdout).unwrap();
    assert!(
        text.contains("came after the rest of their trace was judged"),
        "{text}"
    );
}

/// Zipkin spans as Brave and other Zipkin tracers name them, where no `http.method` tag says
/// the method (a part flushed apart, py_zipkin): the span's name `post`, `post /route` is the
/// method on a span with an `http.*` tag, and a cache client's `delete` is no attempt. And
/// sends under one parent that are no resends of each other: one answered 2xx before the next
/// was sent, two in flight at once (a fan-out, a proxy chain whose hops report one parent),
/// two to other paths. Only the timed-out send and its resend are one intent, executed twice.
#[test]
fn zipkin_span_names_and_sends_that_are_no_resends() {
    const T0_US: u64 = 1_764_547_200_000_000; // 2025-12-01T00:00:00Z
    let at = |ms: u64| T0_US + ms * 1000;
    let mut spans = Vec::new();
    let mut id = 0x100_u64;
    let mut trace = |n: u64, calls: &[(&str, &str, u64, u64, Option<&str>)]| {
        let trace = format!("{:016x}", 0xa03e_0000_0000_0000 | n);
        let root = format!("{:016x}", n << 32);
        spans.push(json!({"traceId": trace, "id": root, "kind": "SERVER",
            "name": "post /checkout", "timestamp": at(n * 60_000), "duration": 30_000_000,
            "localEndpoint": {"serviceName": "gateway"}, "tags": {"http.path": "/checkout"}}));
        for &(name, path, from, to, error) in calls {
            id += 1;
            let span = format!("{id:016x}");
            let mut tags = json!({"http.path": path});
            if path.is_empty() {
                tags = json!({"cache.key": "nonce:7"});
            }
            if let Some(e) = error {
                tags["error"] = json!(e);
            }
            let (start, lasted) = (at(n * 60_000 + from), (to - from) * 1000);
            spans.push(json!({"traceId": trace, "parentId": root, "id": span,
                "kind": "CLIENT", "name": name, "timestamp": start, "duration": lasted,
                "localEndpoint": {"serviceName": "gateway"}, "tags": tags}));
            if !path.is_empty() {
                // The server half answered: the work ran.
                spans.push(json!({"traceId": trace, "parentId": root, "id": span,
                    "kind": "SERVER", "shared": true, "name": format!("{name} {path}"),
                    "timestamp": start + 1000, "duration": lasted.saturating_sub(2000),
                    "localEndpoint": {"serviceName": "orders"}, "tags": {"http.path": path}}));
            }
        }
    };
    // A timeout, then its resend: one intent executed twice.
    trace(
        1,
        &[
            ("post", "/orders", 10, 10_010, Some("Read timed out")),
            ("post", "/orders", 10_500, 10_650, None),
        ],
    );
    // Two in flight at once (0.239 s to 0.364 s, 0.287 s to 0.343 s).
    trace(
        2,
        &[
            ("post /payments", "/payments", 239, 364, None),
            ("post /payments", "/payments", 287, 343, None),
        ],
    );
    // The first answered 2xx before the second was sent.
    trace(
        3,
        &[
            ("put", "/events", 10, 60, None),
            ("put", "/events", 285, 330, None),
        ],
    );
    // Other paths; and a cache client's delete, no HTTP call.
    trace(
        4,
        &[
            ("post", "/approvals", 10, 40, Some("500")),
            ("post", "/codes", 50, 90, None),
            ("delete", "", 95, 96, None),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("named.json");
    std::fs::write(&file, Value::Array(spans).to_string()).unwrap();
    let r = report(&file, &["--min-span", "0s"]);
    let o = &r["observed"];
    assert_eq!(o["mutating_attempts"], 8, "{o}");
    assert_eq!(o["intents"], 7);
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["timed_out_succeeded"], 1);
    assert_eq!(o["observed_duplicates"]["count"], 1);
    assert_eq!(o["retries_observed"]["max"], 1);
    let t = &o["files"][0]["traces"];
    assert_eq!(t["attempts"], 8);
    // The count of intents the traces say is the one the report groups.
    assert_eq!(t["intents"], 7);
    assert_eq!(t["shared_joined"], 8);
}

/// A Zipkin export written one span a line (`jq -c '.[][]'` of `/api/v2/traces`, a
/// collector's dump): detected as Zipkin and read to the same figures as the array. A JSON
/// access log whose records carry a `traceId` and an `id` (and no Zipkin endpoint) stays an
/// access log.
#[test]
fn zipkin_one_span_a_line_reads_as_the_array() {
    let (spans, _) = brave_week();
    let dir = tempfile::tempdir().unwrap();
    let array = dir.path().join("week.json");
    std::fs::write(&array, Value::Array(spans.clone()).to_string()).unwrap();
    let lines = dir.path().join("week.jsonl");
    let text: String = spans.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&lines, text).unwrap();
    let want = report(&array, &[]);
    let got = report(&lines, &[]);
    assert_eq!(got["observed"]["files"][0]["traces"]["format"], "zipkin");
    for k in [
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
        "observed_duplicates",
        "retries_observed",
    ] {
        assert_eq!(got["observed"][k], want["observed"][k], "{k}");
    }
    assert_eq!(got["inputs"], want["inputs"]);
    let access = dir.path().join("access.jsonl");
    std::fs::write(
        &access,
        concat!(
            "{\"time\":\"2026-11-01T00:00:00Z\",\"traceId\":\"5af7\",\"id\":\"a1\",\"method\":\"POST\",\"path\":\"/orders\",\"status\":201}\n",
            "{\"time\":\"2026-11-01T00:00:09Z\",\"traceId\":\"5af8\",\"id\":\"a2\",\"method\":\"POST\",\"path\":\"/orders\",\"status\":504}\n",
        ),
    )
    .unwrap();
    let r = report(&access, &["--min-span", "0s"]);
    let o = &r["observed"];
    assert!(o["files"][0]["traces"].is_null(), "{o}");
    assert_eq!(o["mutating_attempts"], 2);
    assert_eq!(o["timed_out"], 1);
}

/// Zipkin v1 JSON (Brave 4, Spring Cloud Sleuth 1; what Telegraf's Zipkin input is tested
/// on): no `kind`, the halves of a call told by core annotations (`cs`/`cr`, `sr`/`ss`), the
/// tags as `binaryAnnotations` each with the endpoint that recorded it. The same calls
/// written as v2 give the same figures, whether v1 reports a call's halves apart (the server
/// half without `timestamp`) or in one object (tags and the error go to the half whose
/// endpoint recorded them: the client's timeout is no error of the server that answered).
#[test]
fn zipkin_v1_reads_as_the_same_calls_in_v2() {
    const T0_US: u64 = 1_764_547_200_000_000; // 2025-12-01T00:00:00Z
    let gateway = json!({"serviceName": "gateway", "ipv4": "10.0.0.1"});
    let orders = json!({"serviceName": "orders", "ipv4": "10.0.0.2", "port": 8080});
    let note = |value: &str, at: u64, endpoint: &Value| json!({"value": value, "timestamp": at, "endpoint": endpoint});
    let tag = |key: &str, value: Value, endpoint: &Value| json!({"key": key, "value": value, "endpoint": endpoint});
    // (trace, the client gave up, the server answered, v1 writes both halves in one object).
    // The v2 spans: 6 roots, 6 clients, 5 shared servers.
    let plan = [
        (1, false, true, false),
        (2, true, true, false),
        (3, true, false, false),
        (4, false, true, true),
        (5, true, true, true),
        (6, false, true, false),
    ];
    let (mut v1, mut v2) = (Vec::new(), Vec::new());
    for (n, gave_up, answered, merged) in plan {
        let trace = format!("{:016x}", 0x51e0_0000_0000_0000_u64 | n);
        let (root, call) = (format!("{:016x}", n << 32), format!("{:016x}", n << 32 | 1));
        let t = T0_US + n * 60_000_000;
        let (start, end) = (t + 1_000, t + if gave_up { 10_001_000 } else { 151_000 });
        let (sr, ss) = (
            start + 2_000,
            if gave_up { end + 900_000 } else { end - 2_000 },
        );
        v2.push(
            json!({"traceId": trace, "id": root, "kind": "SERVER", "name": "post",
            "timestamp": t, "duration": 12_000_000, "localEndpoint": gateway,
            "tags": {"http.path": "/checkout"}}),
        );
        v1.push(
            json!({"traceId": trace, "id": root, "name": "post", "timestamp": t,
            "duration": 12_000_000,
            "annotations": [note("sr", t, &gateway), note("ss", t + 12_000_000, &gateway)],
            "binaryAnnotations": [tag("http.path", json!("/checkout"), &gateway)]}),
        );
        let mut client_tags = json!({"http.method": "POST", "http.path": "/orders"});
        let mut client_v1 = vec![
            tag("http.method", json!("POST"), &gateway),
            tag("http.path", json!("/orders"), &gateway),
        ];
        if gave_up {
            client_tags["error"] = json!("Read timed out");
            client_v1.push(tag("error", json!("Read timed out"), &gateway));
        }
        v2.push(
            json!({"traceId": trace, "parentId": root, "id": call, "kind": "CLIENT",
            "name": "post", "timestamp": start, "duration": end - start,
            "localEndpoint": gateway, "remoteEndpoint": orders, "tags": client_tags}),
        );
        if answered {
            v2.push(
                json!({"traceId": trace, "parentId": root, "id": call, "kind": "SERVER",
                "shared": true, "name": "post", "timestamp": sr, "duration": ss - sr,
                "localEndpoint": orders, "tags": {"http.path": "/orders"}}),
            );
        }
        let client_notes = [note("cs", start, &gateway), note("cr", end, &gateway)];
        let server_notes = [note("sr", sr, &orders), note("ss", ss, &orders)];
        let server_tags = [tag("http.path", json!("/orders"), &orders)];
        if merged && answered {
            let notes: Vec<Value> = client_notes.into_iter().chain(server_notes).collect();
            let tags: Vec<Value> = client_v1.into_iter().chain(server_tags).collect();
            v1.push(
                json!({"traceId": trace, "parentId": root, "id": call, "name": "post",
                "timestamp": start, "duration": end - start, "annotations": notes,
                "binaryAnnotations": tags}),
            );
            continue;
        }
        client_v1.push(tag("sa", json!(true), &orders));
        v1.push(
            json!({"traceId": trace, "parentId": root, "id": call, "name": "post",
            "timestamp": start, "duration": end - start, "annotations": client_notes,
            "binaryAnnotations": client_v1}),
        );
        if answered {
            v1.push(
                json!({"traceId": trace, "parentId": root, "id": call, "name": "post",
                "annotations": server_notes, "binaryAnnotations": server_tags}),
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("v1.json"), dir.path().join("v2.json"));
    std::fs::write(&one, Value::Array(v1).to_string()).unwrap();
    std::fs::write(&two, Value::Array(v2).to_string()).unwrap();
    let (got, want) = (
        report(&one, &["--min-span", "0s"]),
        report(&two, &["--min-span", "0s"]),
    );
    let o = &got["observed"];
    assert_eq!(o["mutating_attempts"], 6, "{o}");
    assert_eq!(o["timed_out"], 3);
    assert_eq!(o["timed_out_succeeded"], 2);
    // The call no server answered, in a trace whose server is traced: it never arrived.
    assert_eq!(o["timed_out_unknown"], 0);
    let traces = &o["files"][0]["traces"];
    assert_eq!(
        (&traces["shared_joined"], &traces["never_reached"]),
        (&5.into(), &1.into())
    );
    for k in [
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
        "timed_out_unknown",
        "first_timestamp",
        "last_timestamp",
    ] {
        assert_eq!(o[k], want["observed"][k], "{k}");
    }
    for k in [
        "spans",
        "attempts",
        "shared_joined",
        "status_implied",
        "never_reached",
    ] {
        assert_eq!(traces[k], want["observed"]["files"][0]["traces"][k], "{k}");
    }
    assert_eq!(got["inputs"], want["inputs"]);
}

/// One `ResourceSpans` a line, not wrapped in `{"resourceSpans": [...]}`: what the
/// OpenTelemetry Java agent's `logging-otlp` exporter writes. Detected as OTLP (it was read
/// as a JSON access log and refused for its missing method column) and read to the figures
/// of the same spans wrapped.
#[test]
fn one_resource_spans_a_line_reads_as_the_request() {
    let dir = tempfile::tempdir().unwrap();
    let wrapped = traces(None);
    let bare: Vec<Value> = wrapped
        .iter()
        .flat_map(|d| d["resourceSpans"].as_array().unwrap().clone())
        .map(|mut rs| {
            rs["schemaUrl"] = json!("https://opentelemetry.io/schemas/1.19.0");
            rs
        })
        .collect();
    assert!(bare[0].get("resourceSpans").is_none() && bare[0].get("resource").is_some());
    let want = report(&write_lines(dir.path(), "wrapped.jsonl", &wrapped), &[]);
    let got = report(&write_lines(dir.path(), "bare.jsonl", &bare), &[]);
    let o = &got["observed"];
    assert_eq!(o["files"][0]["traces"]["format"], "otlp", "{o}");
    assert_eq!(
        (&o["mutating_attempts"], &o["timed_out"]),
        (&55.into(), &15.into())
    );
    for k in [
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
        "observed_duplicates",
        "retries_observed",
    ] {
        assert_eq!(o[k], want["observed"][k], "{k}");
    }
    assert_eq!(got["inputs"], want["inputs"]);
}

/// An OTLP/JSON request's spans as Jaeger's JSON writes them (what its query API v1 answers
/// and its UI downloads): one trace each, the kind as the tag `span.kind`, the parent as a
/// `CHILD_OF` reference, µs times, typed tags.
fn as_jaeger(request: &Value) -> Value {
    let mut trace_id = Value::Null;
    let mut spans = Vec::new();
    for s in request["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap()
    {
        let us = |k: &str| s[k].as_str().unwrap().parse::<u64>().unwrap() / 1000;
        let kind = match s["kind"].as_u64() {
            Some(2) => "server",
            Some(3) => "client",
            _ => "internal",
        };
        let mut tags = vec![json!({"key": "span.kind", "type": "string", "value": kind})];
        for a in s["attributes"].as_array().unwrap() {
            let v = &a["value"];
            tags.push(match (v.get("intValue"), v.get("stringValue")) {
                (Some(i), _) => json!({"key": a["key"], "type": "int64",
                    "value": i.as_str().unwrap().parse::<i64>().unwrap()}),
                (_, Some(t)) => json!({"key": a["key"], "type": "string", "value": t}),
                _ => panic!("{a}"),
            });
        }
        let references = match s.get("parentSpanId") {
            Some(p) => json!([{"refType": "CHILD_OF", "traceID": s["traceId"], "spanID": p}]),
            None => json!([]),
        };
        trace_id = s["traceId"].clone();
        spans.push(
            json!({"traceID": s["traceId"], "spanID": s["spanId"], "flags": 1,
            "operationName": s["name"], "references": references,
            "startTime": us("startTimeUnixNano"),
            "duration": us("endTimeUnixNano") - us("startTimeUnixNano"),
            "tags": tags, "logs": [], "processID": "p1", "warnings": null}),
        );
    }
    json!({"traceID": trace_id, "spans": spans,
        "processes": {"p1": {"serviceName": "shop", "tags": []}}, "warnings": null})
}

/// Jaeger's own JSON: the query API v1's answer as its UI downloads it (`{"data": [...]}`,
/// here pretty-printed) and spans alone, one a line. Detected as Jaeger's (it was read as a
/// JSON access log and refused for its missing method column) and read to the figures of
/// the same spans in OTLP/JSON.
#[test]
fn jaeger_json_reads_as_the_same_spans_in_otlp() {
    let dir = tempfile::tempdir().unwrap();
    let requests = traces(None);
    let want = report(&write_lines(dir.path(), "otlp.jsonl", &requests), &[]);
    let jaeger: Vec<Value> = requests.iter().map(as_jaeger).collect();
    let answer = dir.path().join("ui-download.json");
    let doc = json!({"data": jaeger, "total": 0, "limit": 0, "offset": 0, "errors": null});
    std::fs::write(&answer, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let alone: Vec<Value> = jaeger
        .iter()
        .flat_map(|t| t["spans"].as_array().unwrap().clone())
        .map(|mut s| {
            s["process"] = json!({"serviceName": "shop", "tags": []});
            s
        })
        .collect();
    let alone = write_lines(dir.path(), "spans.jsonl", &alone);
    for file in [answer, alone] {
        let got = report(&file, &[]);
        let o = &got["observed"];
        assert_eq!(o["files"][0]["traces"]["format"], "jaeger", "{o}");
        assert_eq!(
            (
                &o["mutating_attempts"],
                &o["timed_out"],
                &o["timed_out_succeeded"]
            ),
            (&55.into(), &15.into(), &10.into()),
            "{o}"
        );
        for k in [
            "mutating_attempts",
            "intents",
            "timed_out",
            "timed_out_succeeded",
            "timed_out_unknown",
            "observed_duplicates",
            "retries_observed",
            "first_timestamp",
            "last_timestamp",
        ] {
            assert_eq!(o[k], want["observed"][k], "{k}");
        }
        assert_eq!(got["inputs"], want["inputs"]);
    }
}
