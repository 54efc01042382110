//! The platforms of issue 23 (IIS, Cloudflare, Google Cloud, Azure, Kong) through the real
//! binary: each written by the generator from the same rows as its CSV sibling gives the
//! same figures with no flags; the real published samples in tests/fixtures/platforms read
//! with every line accounted for; each platform's give-up fields.

use crate::common::{dupcost, fixture, json, same_keys, usage_error, write};
use crate::generator::Format;
use crate::support::{generate, platform_config};
use serde_json::Value;

const ARGS: [&str; 6] = [
    "--max-unknown",
    "100%",
    "--succeeded-share",
    "50%",
    "--intents",
    "key",
];

fn observed(path: &str) -> Value {
    json(&[&["logs", path][..], &ARGS].concat())
}

/// Each platform, written from the rows of the generic CSV with the same seed: detected with
/// no flags, and the same rows, attempts and give-ups as the CSV and as the generator's
/// truth. What each platform cannot tell (keys, the backend's status) is said, not guessed.
#[test]
fn platforms_give_the_csv_figures() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, truth) = generate(&platform_config(Format::Csv));
    let csv = write(dir.path(), "a.csv", &csv);
    let jc = observed(&csv);
    let c = &jc["observed"];
    assert_eq!(c["timed_out"], truth.timed_out);
    for (format, described) in [
        (Format::IisLog, "IIS W3C extended log"),
        (
            Format::CloudflareJson,
            "Cloudflare Logpush http_requests (JSON lines)",
        ),
        (
            Format::GcpJson,
            "Google Cloud HTTP(S) load balancer LogEntry (JSON lines)",
        ),
        (
            Format::AzureJson,
            "Azure Application Gateway access log (JSON lines)",
        ),
        (Format::KongJson, "Kong log plugin (JSON lines)"),
        (Format::ApiGatewayClf, "AWS API Gateway access log (CLF)"),
        (Format::ApiGatewayCsv, "AWS API Gateway access log (CSV)"),
        (Format::ApiGatewayXml, "AWS API Gateway access log (XML)"),
    ] {
        let (bytes, t) = generate(&platform_config(format));
        assert_eq!((t.rows, t.timed_out), (truth.rows, truth.timed_out));
        let path = write(dir.path(), "b.log", &bytes);
        let j = observed(&path);
        let o = &j["observed"];
        assert_eq!(o["files"][0]["input_format"], described, "{format:?}");
        assert_eq!(o["files"][0]["detected"], true);
        let what = format!("{format:?}");
        same_keys(
            o,
            c,
            &["rows", "bad_rows", "mutating_attempts", "timed_out"],
            &what,
        );
        assert_eq!(days(o), days(c), "{format:?}");
        match format {
            // They log the key and the backend's status: everything as the CSV.
            Format::CloudflareJson | Format::KongJson => {
                let keys = [
                    "intents",
                    "per_day",
                    "retries_observed",
                    "timed_out_succeeded",
                    "timed_out_unknown",
                    "per_endpoint",
                ];
                same_keys(o, c, &keys, &what);
                assert_eq!(j["inputs"], jc["inputs"], "{format:?}");
            }
            // The key is logged; ARR's 502.3 cannot tell what the backend did.
            Format::IisLog => {
                assert_eq!(o["intents"], c["intents"]);
                let unknown = o["timed_out_unknown"].as_u64().unwrap();
                assert!(unknown > c["timed_out_unknown"].as_u64().unwrap());
                assert_eq!(
                    unknown + o["timed_out_succeeded"].as_u64().unwrap() + failed(o),
                    truth.timed_out
                );
            }
            // No request headers: every attempt is its own intent; the backend's status
            // is logged.
            Format::AzureJson => {
                assert_eq!(o["intents"], c["mutating_attempts"]);
                let keys = ["timed_out_succeeded", "timed_out_unknown", "per_day"];
                same_keys(o, c, &keys, &what);
            }
            // No backend status at all: no outcome is measured.
            Format::GcpJson
            | Format::ApiGatewayClf
            | Format::ApiGatewayCsv
            | Format::ApiGatewayXml => {
                assert_eq!(o["timed_out_succeeded"], Value::Null);
                assert_eq!(o["timed_out_unknown"], Value::Null);
            }
            _ => unreachable!(),
        }
    }
}

/// Per day: the date, mutating attempts and give-ups.
fn days(o: &Value) -> Vec<(Value, Value, Value)> {
    o["per_day"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["date"].clone(),
                d["mutating"].clone(),
                d["timed_out"].clone(),
            )
        })
        .collect()
}

/// Timed-out attempts known to have failed: neither succeeded nor unknown.
fn failed(o: &Value) -> u64 {
    o["per_endpoint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e["timed_out"].as_u64().unwrap()
                - e["timed_out_succeeded"].as_u64().unwrap_or(0)
                - e["timed_out_unknown"].as_u64().unwrap_or(0)
        })
        .sum()
}

/// The table report names each platform's give-up fields and the mapped columns.
#[test]
fn the_evidence_names_the_platform_fields() {
    let dir = tempfile::tempdir().unwrap();
    for (format, wants) in [
        (
            Format::IisLog,
            &[
                "or sc-win32-status 64, 1236, 12002",
                "idempotency_key=cs(Idempotency-Key)",
                "duration=time-taken (ms)",
            ][..],
        ),
        (
            Format::CloudflareJson,
            &[
                "or edge status 524",
                "idempotency_key=RequestHeaders.idempotency-key",
                "upstream_status=OriginResponseStatus",
            ],
        ),
        (
            Format::GcpJson,
            &[
                "statusDetails client_disconnected_before_any_response",
                "duration=httpRequest.latency (s)",
                "it logs no backend status",
            ],
        ),
        (
            Format::AzureJson,
            &[
                "records of other categories skipped, not access records (ApplicationGatewayFirewallLog: 80)",
                "upstream_status=properties.serverStatus",
            ],
        ),
        (
            Format::KongJson,
            &[
                "timestamp=started_at",
                "duration=latencies.request (ms)",
                "idempotency_key=request.headers.idempotency-key",
            ],
        ),
    ] {
        let (bytes, _) = generate(&platform_config(format));
        let path = write(dir.path(), "b.log", &bytes);
        let out = dupcost().args(["logs", &path]).args(ARGS).output().unwrap();
        assert!(out.status.success(), "{format:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        for want in wants {
            assert!(text.contains(want), "{format:?}: no '{want}' in\n{text}");
        }
    }
}

/// The real published samples (tests/fixtures/platforms/README.md): each line a row, a
/// skipped directive, or a bad row named by its line.
#[test]
fn real_samples_account_for_every_line() {
    let given = [
        "--requests-per-day",
        "1000",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ];
    for (name, format, rows, bad, mutating) in [
        ("iis-filebeat.log", "IIS W3C extended log", 5, 2, 0),
        (
            "cloudflare-filebeat.jsonl",
            "Cloudflare Logpush http_requests (JSON lines)",
            1,
            0,
            1,
        ),
        (
            "gcp-lb.jsonl",
            "Google Cloud HTTP(S) load balancer LogEntry (JSON lines)",
            1,
            0,
            0,
        ),
        (
            "azure-appgw-v1.jsonl",
            "Azure Application Gateway access log (JSON lines)",
            1,
            0,
            0,
        ),
        (
            "kong-file-log-grpc.jsonl",
            "Kong log plugin (JSON lines)",
            2,
            0,
            2,
        ),
        (
            "apigateway-rest-elastic.jsonl",
            "AWS API Gateway access log (JSON lines)",
            5,
            0,
            0,
        ),
        (
            "apigateway-elastic.jsonl",
            "AWS API Gateway access log (JSON lines)",
            2,
            0,
            0,
        ),
    ] {
        let path = fixture("platforms", name);
        let out = dupcost()
            .args(["logs", &path, "--format", "json"])
            .args(given)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{name}: {stderr}");
        let j: Value = serde_json::from_slice(&out.stdout).unwrap();
        let o = &j["observed"];
        assert_eq!(o["files"][0]["input_format"], format, "{name}");
        assert_eq!(
            (
                o["rows"].clone(),
                o["bad_rows"].clone(),
                o["mutating_attempts"].clone()
            ),
            (rows.into(), bad.into(), mutating.into()),
            "{name}"
        );
        if name.starts_with("apigateway") {
            // requestTime is the time, never also a duration (nginx's request_time alias).
            let out = dupcost()
                .args(["logs", &path])
                .args(given)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(
                text.contains("columns: timestamp=requestTime ")
                    && !text.contains("duration=requestTime"),
                "{text}"
            );
        }
        if name.starts_with("kong") {
            // started_at, epoch ms, as Kong's guide printed it.
            assert_eq!(o["first_timestamp"], "2019-07-30T23:02:12.516Z");
            assert_eq!(o["last_timestamp"], "2019-07-30T23:02:13.554Z");
        }
        if bad > 0 {
            // The two lines filebeat's fixture appends in the first layout, under the third.
            assert!(
                stderr.contains("iis-filebeat.log:16: expected 22 space-separated fields (the #Fields: line), found 15"),
                "{stderr}"
            );
        }
    }
}

/// Azure's time key changes between records; a record with any of them has its time, and
/// one with none is a bad row that says so.
#[test]
fn azure_time_keys_vary() {
    let dir = tempfile::tempdir().unwrap();
    let record = |key: &str, time: &str, status: u16| {
        format!(
            r#"{{"{key}":"{time}","category":"ApplicationGatewayAccessLog","properties":{{"httpMethod":"POST","requestUri":"/v1/pay","httpStatus":{status},"serverStatus":"-","timeTaken":30.001,"transactionId":"t"}}}}"#
        )
    };
    let lines = [
        record("time", "2026-11-01T00:00:00Z", 200),
        record("timeStamp", "2026-11-01T06:00:00Z", 504),
        record("timestamp", "2026-11-01T12:00:00Z", 200),
        r#"{"category":"ApplicationGatewayFirewallLog","properties":{"action":"Blocked"}}"#
            .to_string(),
        record("when", "2026-11-01T13:00:00Z", 200),
    ];
    let path = write(dir.path(), "appgw.json", lines.join("\n").as_bytes());
    let out = dupcost()
        .args([
            "logs",
            &path,
            "--format",
            "json",
            "--max-unknown",
            "100%",
            "--succeeded-share",
            "50%",
            "--min-span",
            "1h",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("appgw.json:5: unparseable timestamp ''"),
        "{stderr}"
    );
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &j["observed"];
    assert_eq!(
        (o["rows"].as_u64(), o["bad_rows"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["timed_out_unknown"], 1, "serverStatus '-' says nothing");
    assert_eq!(o["first_timestamp"], "2026-11-01T00:00:00Z", "{o}");
}

/// Each platform's own give-up fields, one attempt each.
#[test]
fn platform_give_ups() {
    let dir = tempfile::tempdir().unwrap();
    let cf = |status: u16, origin: u16, s: u32| {
        format!(
            r#"{{"ClientRequestMethod":"POST","ClientRequestURI":"/v1/pay","EdgeResponseStatus":{status},"OriginResponseStatus":{origin},"EdgeStartTimestamp":"2026-11-01T0{s}:00:00Z","RayID":"r{s}"}}"#
        )
    };
    // 524: the origin timed out (unknown); 499 with the origin's 200: succeeded; 522 never
    // reached the origin: no give-up.
    let lines = [
        cf(524, 0, 1),
        cf(499, 200, 2),
        cf(522, 0, 3),
        cf(200, 200, 4),
    ];
    let path = write(dir.path(), "cf.json", lines.join("\n").as_bytes());
    let j = json(&["logs", &path, "--max-unknown", "100%", "--min-span", "1h"]);
    let o = &j["observed"];
    assert_eq!(o["mutating_attempts"], 4);
    assert_eq!(o["timed_out"], 2);
    assert_eq!(o["timed_out_succeeded"], 1);
    assert_eq!(o["timed_out_unknown"], 1);

    let gcp = |details: &str, s: u32| {
        format!(
            r#"{{"httpRequest":{{"requestMethod":"POST","requestUrl":"https://x/v1/pay?a=1","status":502,"latency":"0.5s"}},"jsonPayload":{{"statusDetails":"{details}"}},"timestamp":"2026-11-01T0{s}:00:00.123456789Z"}}"#
        )
    };
    let lines = [
        gcp("backend_timeout", 1),
        gcp("client_disconnected_before_any_response", 2),
        gcp("client_timed_out", 3),
        gcp("response_sent_by_backend", 4),
        gcp("backend_connection_closed_before_data_sent_to_client", 5),
    ];
    let path = write(dir.path(), "gcp.json", lines.join("\n").as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--max-unknown",
        "100%",
        "--min-span",
        "1h",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["timed_out"], 3);
    // "0.5s" is read as half a second: --client-timeout 0.4s makes every attempt a give-up.
    let j = json(&[
        "logs",
        &path,
        "--max-unknown",
        "100%",
        "--min-span",
        "1h",
        "--succeeded-share",
        "50%",
        "--client-timeout",
        "0.4s",
    ]);
    assert_eq!(j["observed"]["timed_out"], 5);
}

/// `--input-format iis` on a file that is not IIS's: one line naming the file.
#[test]
fn iis_named_on_another_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "nginx.log",
        b"10.0.0.1 - - [01/Nov/2026:00:00:01 +0000] \"POST /v1/pay HTTP/1.1\" 200 12 \"-\" \"curl/8\"\n",
    );
    let err = usage_error(&["logs", &path, "--input-format", "iis"]);
    assert!(err.contains("nginx.log"), "{err}");
}

/// The JSON documents of #22's framing: `gcloud logging read --format=json` prints an
/// array; Azure's storage blobs hold `{"records": [...]}`; some write pretty-printed objects.
#[test]
fn json_documents_read_as_records() {
    let dir = tempfile::tempdir().unwrap();
    let gcp = std::fs::read_to_string(fixture("platforms", "gcp-lb.jsonl")).unwrap();
    let array = format!("[\n{},\n{}\n]\n", gcp.trim(), gcp.trim());
    let path = write(dir.path(), "gcloud.json", array.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["rows"], 2);
    let azure = std::fs::read_to_string(fixture("platforms", "azure-appgw-v1.jsonl")).unwrap();
    let records = format!(
        "{{\"records\": [\n{},\n{}\n]}}\n",
        azure.trim(),
        azure.trim()
    );
    let path = write(dir.path(), "PT1H.json", records.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["rows"], 2);
    let pretty: Value = serde_json::from_str(&azure).unwrap();
    let text = format!("{:#}\n{:#}\n", pretty, pretty);
    let path = write(dir.path(), "pretty.json", text.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["rows"], 2);
}

/// HAProxy's own log-format string, as written in haproxy.cfg, reads a real file written
/// with a captured Host inserted; the one line in the default httplog layout is a bad row.
#[test]
fn haproxy_log_format_reads_a_real_custom_layout() {
    let log = fixture("platforms", "haproxy-filebeat.log");
    let format = r"%ci:%cp\ [%tr]\ %ft\ %b/%s\ %[capture.req.hdr(0)]\ %TR/%Tw/%Tc/%Tr/%Ta\ %ST\ %B\ %CC\ %CS\ %tsc\ %ac/%fc/%bc/%sc/%rc\ %sq/%bq\ %{+Q}r";
    let out = dupcost()
        .args(["logs", &log, "--log-format", format, "--format", "json"])
        .args([
            "--requests-per-day",
            "1",
            "--timeout-rate",
            "1%",
            "--succeeded-share",
            "50%",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("haproxy-filebeat.log:1: expected"),
        "{stderr}"
    );
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &j["observed"];
    assert_eq!(
        (o["rows"].as_u64(), o["bad_rows"].as_u64()),
        (Some(10), Some(1))
    );
    assert_eq!(o["files"][0]["input_format"], "HAProxy log-format");
    // The same string as the preset's name reads the first line instead.
    let j = json(&[
        "logs",
        &log,
        "--log-format",
        "httplog",
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["bad_rows"], 9);
}

/// Captured request headers named in their haproxy.cfg order: a captured Idempotency-Key
/// groups the retries into intents, in httplog and in a log-format's %hr alike.
#[test]
fn haproxy_captured_headers_become_roles() {
    let dir = tempfile::tempdir().unwrap();
    let line = |t: &str, key: &str, status: &str, flags: &str, tt: &str| {
        format!(
            "Nov  1 00:00:00 lb1 haproxy[1]: 10.0.0.7:5000 [01/Nov/2026:{t}.000] https-in~ api/api-1 0/0/1/{tt}/{tt} {status} 10 - - {flags} 3/3/1/1/0 0/0 {{api.example.com|{key}|r-{t}}} {{}} \"POST /v1/pay HTTP/1.1\""
        )
    };
    let lines = [
        line("00:00:01", "k-1", "504", "sH--", "30000"),
        line("00:00:40", "k-1", "200", "----", "20"),
        line("01:00:00", "k-2", "200", "----", "20"),
        line("02:00:00", "", "200", "----", "20"),
    ];
    let path = write(dir.path(), "haproxy.log", lines.join("\n").as_bytes());
    let args = [
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "50%",
        "--min-span",
        "1h",
        "--intents",
        "key",
    ];
    for extra in [
        &["--input-format", "haproxy"][..],
        &["--log-format", "httplog"],
        &[
            "--log-format",
            "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r",
        ],
    ] {
        let j = json(
            &[
                &[
                    "logs",
                    &path,
                    "--haproxy-captures",
                    "Host,Idempotency-Key,X-Request-Id",
                ][..],
                extra,
                &args,
            ]
            .concat(),
        );
        let o = &j["observed"];
        assert_eq!(o["mutating_attempts"], 4, "{extra:?}");
        assert_eq!(o["timed_out"], 1, "{extra:?}");
        assert_eq!(o["intents"], 3, "{extra:?}: k-1 twice is one intent");
    }
    // Without the names, the block is one field and no key is read: four intents.
    let j = json(&[&["logs", &path][..], &args].concat());
    assert_eq!(j["observed"]["intents"], 4);
    // A format with no captured block says so.
    let csv = write(dir.path(), "a.log", b"10.0.0.1 - - [01/Nov/2026:00:00:01 +0000] \"POST /v1/pay HTTP/1.1\" 200 12 \"-\" \"curl/8\"\n");
    let err = usage_error(&["logs", &csv, "--haproxy-captures", "Idempotency-Key"]);
    assert!(
        err.contains("--haproxy-captures") && err.contains("no captured request headers block"),
        "{err}"
    );
}

/// Istio's default layouts since 1.1 are each detected: a real 1.2 line, and Istio's JSON
/// encoding (Envoy's keys) with its `request_id`.
#[test]
fn every_istio_layout_is_detected() {
    let given = [
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ];
    let j = json(
        &[
            &["logs", &fixture("platforms", "istio-1.2.log")][..],
            &given,
        ]
        .concat(),
    );
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "Istio 1.1 (Envoy)");
    assert_eq!(
        (o["rows"].as_u64(), o["mutating_attempts"].as_u64()),
        (Some(1), Some(1))
    );
    let dir = tempfile::tempdir().unwrap();
    let line = r#"{"authority":"httpbin:8000","bytes_received":"0","bytes_sent":"0","downstream_local_address":"10.44.1.27:80","downstream_remote_address":"10.44.1.23:37652","duration":"30001","istio_policy_status":"-","method":"POST","path":"/v1/pay","protocol":"HTTP/1.1","request_id":"d209e46f","requested_server_name":"-","response_code":"504","response_flags":"UT","route_name":"default","start_time":"2020-03-06T09:31:27.360Z","upstream_cluster":"inbound|8000|http|httpbin","upstream_host":"127.0.0.1:80","upstream_local_address":"-","upstream_service_time":"-","upstream_transport_failure_reason":"-","user_agent":"curl/7.69.1","x_forwarded_for":"-"}"#;
    let path = write(dir.path(), "istio.json", line.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--requests-per-day",
        "1",
        "--succeeded-share",
        "50%",
    ]);
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "JSON lines (Envoy)");
    assert_eq!(o["timed_out"], 1, "UT is a give-up");
}

/// AWS API Gateway's documented JSON layout (`$context` variables under their own names):
/// detected; 504 is the integration timing out, `integrationStatus` `-` says nothing.
#[test]
fn api_gateway_json_layout() {
    let dir = tempfile::tempdir().unwrap();
    let line = |t: &str, status: u16, integration: &str, id: &str| {
        format!(
            r#"{{"requestId":"{id}","ip":"192.0.2.1","caller":"-","user":"-","requestTime":"01/Nov/2026:{t} +0000","httpMethod":"POST","resourcePath":"/orders","status":"{status}","protocol":"HTTP/1.1","responseLength":"36","integrationStatus":"{integration}","responseLatency":"29012"}}"#
        )
    };
    let lines = [
        line("00:00:01", 504, "-", "a"),
        line("01:00:01", 200, "200", "b"),
        line("02:00:01", 201, "201", "c"),
    ];
    let path = write(dir.path(), "apigw.json", lines.join("\n").as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "50%",
        "--min-span",
        "1h",
    ]);
    let o = &j["observed"];
    assert_eq!(
        o["files"][0]["input_format"],
        "AWS API Gateway access log (JSON lines)"
    );
    assert_eq!(o["mutating_attempts"], 3);
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["timed_out_unknown"], 1);
}

/// API Gateway's text layouts: a layout of `$context` variables given with `--log-format`
/// reads the integration's status (a 504 with `-` is unknown) and a key a mapping template
/// logged; the documented CLF, which logs neither, says what settles the outcome.
#[test]
fn api_gateway_text_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        r#"1793491201000 POST /orders 504 - 29012 "k-1" c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a"#,
        r#"1793491240000 POST /orders 201 201 130 "k-1" d0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a"#,
        r#"1793494801000 POST /orders 201 201 120 "k-2" e0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a"#,
        r#"1793498401000 GET /orders 200 200 12 "-" f0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a"#,
    ];
    let path = write(dir.path(), "custom.log", lines.join("\n").as_bytes());
    let layout = r#"$context.requestTimeEpoch $context.httpMethod $context.resourcePath $context.status $context.integration.status $context.responseLatency "$context.requestOverride.header.Idempotency-Key" $context.requestId"#;
    let args = [
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "50%",
        "--min-span",
        "1h",
    ];
    let j = json(&[&["logs", &path, "--log-format", layout][..], &args].concat());
    let o = &j["observed"];
    assert_eq!(
        o["files"][0]["input_format"],
        "AWS API Gateway $context layout"
    );
    assert_eq!(o["mutating_attempts"], 3);
    assert_eq!(o["intents"], 2, "k-1's two attempts are one intent");
    assert_eq!(o["intent_grouping"], "key");
    assert_eq!(o["timed_out"], 1, "the integration's 504");
    assert_eq!(o["timed_out_unknown"], 1, "integration.status '-'");

    let out = dupcost()
        .args(["logs", "samples/apigateway.log"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("as AWS API Gateway access log (CLF) (detected)")
            && text.contains("$context.integration.status in the stage's access log format"),
        "{text}"
    );
}

/// `(method, route, mutating)` of each endpoint in `--format json`, sorted.
fn endpoints(j: &Value) -> Vec<(String, String, u64)> {
    let mut all: Vec<_> = j["observed"]["per_endpoint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["method"].as_str().unwrap().to_string(),
                e["route"].as_str().unwrap().to_string(),
                e["mutating"].as_u64().unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// An HTTP API's `routeKey` holds the method (`POST /orders/{id}`, `ANY /{proxy+}`): the
/// endpoint is the method and the path after it, never `POST /POST /orders/{id}`; the
/// catch-all `$default` is named as it is. In elastic's real HTTP API record, and in the
/// JSON, CLF and CSV layouts.
#[test]
fn api_gateway_http_api_route_keys_are_paths() {
    let given = [
        "--requests-per-day",
        "1000",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ];
    // elastic's fixture holds an HTTP API record, then a REST API one (whose resourcePath the
    // whole file's path column then is): the HTTP API record alone, as its API writes it.
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(fixture("platforms", "apigateway-elastic.jsonl")).unwrap();
    let http = sample.lines().next().unwrap();
    assert!(http.contains(r#""routeKey":"GET /""#), "{http}");
    let path = write(dir.path(), "elastic-http.jsonl", http.as_bytes());
    let j = json(&[&["logs", &path, "--methods", "GET"][..], &given].concat());
    assert_eq!(endpoints(&j), [("GET".to_string(), "/".to_string(), 1)]);

    // (time, method, routeKey, id)
    let rows = [
        ("00:00:01", "POST", "POST /orders/{id}", "GQIVriFLIAMEMsA="),
        ("00:10:01", "POST", "POST /orders/{id}", "GQIVriFLIAMEMsB="),
        ("00:20:01", "PUT", "ANY /{proxy+}", "GQIVriFLIAMEMsC="),
        ("00:30:01", "POST", "$default", "GQIVriFLIAMEMsD="),
        ("00:40:01", "DELETE", "$default", "GQIVriFLIAMEMsE="),
    ];
    let want = [
        ("DELETE".to_string(), "$default".to_string(), 1),
        ("POST".to_string(), "$default".to_string(), 1),
        ("POST".to_string(), "/orders/{id}".to_string(), 2),
        ("PUT".to_string(), "/{proxy+}".to_string(), 1),
    ];
    let json_lines: Vec<String> = rows
        .iter()
        .map(|(t, m, r, id)| {
            format!(
                r#"{{"requestId":"{id}","ip":"192.0.2.1","requestTime":"01/Nov/2026:{t} +0000","httpMethod":"{m}","routeKey":"{r}","status":"200","protocol":"HTTP/1.1","responseLength":"36"}}"#
            )
        })
        .collect();
    let clf: Vec<String> = rows
        .iter()
        .map(|(t, m, r, id)| {
            format!(r#"192.0.2.1 - - [01/Nov/2026:{t} +0000] "{m} {r} HTTP/1.1" 200 36 {id}"#)
        })
        .collect();
    let csv: Vec<String> = rows
        .iter()
        .map(|(t, m, r, id)| {
            format!("192.0.2.1,01/Nov/2026:{t} +0000,{m},{r},HTTP/1.1,200,36,{id}")
        })
        .collect();
    for (name, lines, format) in [
        (
            "http.jsonl",
            json_lines,
            "AWS API Gateway access log (JSON lines)",
        ),
        (
            "http-clf.log",
            clf,
            "AWS API Gateway HTTP API access log (CLF)",
        ),
        (
            "http-csv.log",
            csv,
            "AWS API Gateway HTTP API access log (CSV)",
        ),
    ] {
        let path = write(dir.path(), name, lines.join("\n").as_bytes());
        let j = json(&[&["logs", &path][..], &given].concat());
        assert_eq!(j["observed"]["files"][0]["input_format"], format, "{name}");
        assert_eq!(j["observed"]["bad_rows"], 0, "{name}");
        assert_eq!(endpoints(&j), want, "{name}");
    }
}

/// A WebSocket API's access records (elastic's fixture) log events on a connection, not HTTP
/// requests: no method, refused in a line that names the flag, never read as requests.
#[test]
fn api_gateway_websocket_records_are_not_requests() {
    let path = fixture("platforms", "apigateway-websocket-elastic.jsonl");
    let out = dupcost()
        .args([
            "logs",
            &path,
            "--requests-per-day",
            "1000",
            "--timeout-rate",
            "1%",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no method column") && stderr.contains("eventType"),
        "{stderr}"
    );
}

/// Envoy's default layout with fields appended (a key, the attempt count), detected from
/// the lines: read as extra_1, extra_2 with no role until named, and said so; named with
/// --column, the same figures as the whole format string given with --log-format. The
/// generator's Envoy lines with a field appended give its truth, as bare.
#[test]
fn envoy_appended_fields_are_detected_never_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let line = |t: &str, status: u16, flags: &str, key: &str, tries: u8| {
        format!(
            r#"[2026-11-01T{t}.000Z] "POST /v1/pay HTTP/1.1" {status} {flags} 154 0 226 100 "10.0.35.28" "curl/8" "cc21d9b0-{t}" "api" "10.0.2.1:80" "{key}" {tries}"#
        )
    };
    let lines = [
        line("00:00:01", 504, "UT", "k-1", 3),
        line("00:00:40", 200, "-", "k-1", 1),
        line("01:00:01", 200, "-", "k-2", 2),
    ];
    let path = write(dir.path(), "envoy.log", lines.join("\n").as_bytes());
    let args = [
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "50%",
        "--min-span",
        "1h",
    ];
    let j = json(&[&["logs", &path][..], &args].concat());
    let o = &j["observed"];
    assert_eq!(
        o["files"][0]["input_format"],
        "Envoy default with 2 more fields (extra_1, extra_2)"
    );
    assert_eq!(o["files"][0]["detected"], true);
    assert_ne!(o["intent_grouping"], "key", "an unnamed field is not a key");
    assert_eq!(o["proxy_retries"], Value::Null);
    let out = dupcost().args(["logs", &path]).args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "its lines have 2 fields after Envoy default's layout, read as extra_1, extra_2"
        ),
        "{text}"
    );

    let named = json(
        &[
            &["logs", &path, "--column", "idempotency_key=extra_1"][..],
            &["--column", "proxy_attempts=extra_2"],
            &args,
        ]
        .concat(),
    );
    let format = format!(
        "{} \"%REQ(IDEMPOTENCY-KEY)%\" %UPSTREAM_REQUEST_ATTEMPT_COUNT%",
        r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%""#
    );
    let given = json(&[&["logs", &path, "--log-format", &format][..], &args].concat());
    assert_eq!(named["observed"]["intents"], 2);
    assert_eq!(named["observed"]["proxy_retries"]["retries"], 3);
    let keys = [
        "intents",
        "intent_grouping",
        "timed_out",
        "proxy_retries",
        "retries_observed",
    ];
    same_keys(&named["observed"], &given["observed"], &keys, "named");

    let (bytes, truth) = generate(&platform_config(Format::EnvoyLog));
    let text = String::from_utf8(bytes).unwrap();
    let appended: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with('[') {
                format!("{l} \"-\"")
            } else {
                l.to_string()
            }
        })
        .collect();
    let bare = observed(&write(dir.path(), "bare.log", text.as_bytes()));
    let more = observed(&write(
        dir.path(),
        "more.log",
        appended.join("\n").as_bytes(),
    ));
    assert_eq!(
        more["observed"]["files"][0]["input_format"],
        "Envoy default with 1 more field (extra_1)"
    );
    assert_eq!(more["observed"]["timed_out"], truth.timed_out);
    let keys = [
        "rows",
        "bad_rows",
        "mutating_attempts",
        "timed_out",
        "per_day",
    ];
    same_keys(&more["observed"], &bare["observed"], &keys, "appended");
}

/// The generator's HAProxy httplog lines (half through syslog) with a captured key appended:
/// detected as httplog with 1 more field, the generator's truth, the figures of the bare
/// lines; the key groups intents only once named with --column.
#[test]
fn haproxy_appended_fields_are_detected_never_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, truth) = generate(&platform_config(Format::HaproxyLog));
    let text = String::from_utf8(bytes).unwrap();
    let appended: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if l.ends_with("HTTP/1.1\"") {
                format!("{l} \"k-{}\"", i / 2)
            } else {
                l.to_string()
            }
        })
        .collect();
    let bare = observed(&write(dir.path(), "bare.log", text.as_bytes()));
    let path = write(dir.path(), "more.log", appended.join("\n").as_bytes());
    let more = observed(&path);
    let o = &more["observed"];
    assert_eq!(
        o["files"][0]["input_format"],
        "HAProxy httplog with 1 more field (extra_1)"
    );
    assert_eq!(o["timed_out"], truth.timed_out);
    let keys = [
        "rows",
        "bad_rows",
        "mutating_attempts",
        "timed_out",
        "per_day",
        "intents",
        "per_endpoint",
    ];
    same_keys(o, &bare["observed"], &keys, "appended");
    let named = json(
        &[
            &["logs", &path, "--column", "idempotency_key=extra_1"][..],
            &ARGS,
        ]
        .concat(),
    );
    assert_eq!(named["observed"]["intent_grouping"], "key");
    assert!(
        named["observed"]["intents"].as_u64() < o["intents"].as_u64(),
        "pairs of lines share a key"
    );
}

/// The proxy's own retries beside the client's: Envoy's %UPSTREAM_REQUEST_ATTEMPT_COUNT%
/// appended to a format string (1 = not retried) and Traefik's RetryAttempts (0 = not).
#[test]
fn proxy_measured_retries() {
    let dir = tempfile::tempdir().unwrap();
    let format = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION% "%REQ(IDEMPOTENCY-KEY)%" %UPSTREAM_REQUEST_ATTEMPT_COUNT%"#;
    let lines = [
        r#"[2026-11-01T00:00:01.000Z] "POST /v1/pay HTTP/1.1" 504 UT 30001 "k-1" 3"#,
        r#"[2026-11-01T00:00:40.000Z] "POST /v1/pay HTTP/1.1" 200 - 20 "k-1" 1"#,
        r#"[2026-11-01T01:00:00.000Z] "POST /v1/pay HTTP/1.1" 200 - 20 "k-2" 2"#,
        r#"[2026-11-01T02:00:00.000Z] "GET /v1/pay HTTP/1.1" 200 - 20 "-" 5"#,
    ];
    let path = write(dir.path(), "envoy.log", lines.join("\n").as_bytes());
    let args = [
        "--max-unknown",
        "100%",
        "--succeeded-share",
        "50%",
        "--min-span",
        "1h",
    ];
    let j = json(&[&["logs", &path, "--log-format", format][..], &args].concat());
    let p = &j["observed"]["proxy_retries"];
    assert_eq!(p["attempts"], 3, "mutating attempts only: {p}");
    assert_eq!(p["retried"], 2);
    assert_eq!(p["retries"], 3, "2 + 0 + 1");
    assert_eq!(p["max"], 2);
    assert_eq!(
        j["observed"]["retries_observed"]["max"], 1,
        "the client's, apart"
    );
    let out = dupcost()
        .args(["logs", &path, "--log-format", format])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("the proxy retried 2 of 3 mutating attempts itself (3 in all, at most 2 for one attempt)"),
        "{text}"
    );
    // CSV carries the same five figures, by name.
    let out = dupcost()
        .args(["logs", &path, "--log-format", format, "--format", "csv"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = text.lines().map(|l| l.split(',').collect::<Vec<_>>());
    let (header, values) = (rows.next().unwrap(), rows.next().unwrap());
    let column = |name: &str| values[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(column("observed.proxy_retries.attempts"), "3");
    assert_eq!(column("observed.proxy_retries.retried"), "2");
    assert_eq!(column("observed.proxy_retries.retries"), "3");
    assert_eq!(column("observed.proxy_retries.mean"), "1");
    assert_eq!(column("observed.proxy_retries.max"), "2");

    let traefik = |t: &str, retries: u32| {
        format!(
            r#"{{"StartUTC":"2026-11-01T{t}Z","RequestMethod":"POST","RequestPath":"/v1/pay","DownstreamStatus":200,"OriginStatus":200,"Duration":20000000,"RetryAttempts":{retries}}}"#
        )
    };
    let lines = [
        traefik("00:00:01", 0),
        traefik("01:00:01", 2),
        traefik("02:00:01", 0),
    ];
    let path = write(dir.path(), "traefik.json", lines.join("\n").as_bytes());
    let j = json(&[&["logs", &path][..], &args].concat());
    let p = &j["observed"]["proxy_retries"];
    assert_eq!(
        (
            p["attempts"].as_u64(),
            p["retried"].as_u64(),
            p["retries"].as_u64()
        ),
        (Some(3), Some(1), Some(2))
    );
    // Without such a column: null.
    let j = json(&[
        "logs",
        &fixture("platforms", "istio-1.2.log"),
        "--requests-per-day",
        "1",
        "--timeout-rate",
        "1%",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(j["observed"]["proxy_retries"], Value::Null);
}

/// The generator's HAProxy lines (half through syslog) read by the httplog reader and by the
/// same layout as an HAProxy log-format string: the same figures, the generator's truth.
#[test]
fn haproxy_log_format_equals_httplog() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, truth) = generate(&platform_config(Format::HaproxyLog));
    let path = write(dir.path(), "haproxy.log", &bytes);
    let format = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %{+Q}r";
    let a = observed(&path);
    let b = json(&[&["logs", &path, "--log-format", format][..], &ARGS].concat());
    assert_eq!(
        b["observed"]["files"][0]["input_format"],
        "HAProxy log-format"
    );
    assert_eq!(a["observed"]["timed_out"], truth.timed_out);
    let keys = [
        "rows",
        "bad_rows",
        "mutating_attempts",
        "intents",
        "timed_out",
        "per_endpoint",
    ];
    same_keys(&a["observed"], &b["observed"], &keys, "log-format");
    assert_eq!(a["inputs"], b["inputs"]);
}
