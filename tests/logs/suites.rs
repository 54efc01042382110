//! Real logs as other projects' test suites hold them (issue 35): every HTTP request read,
//! no record that is no HTTP request counted, the first and last timestamps as those
//! suites' expected output has them (tests/fixtures/suites/README.md names each source).
//! Generated lines for what no sample shows: a TCP listener's `"- - - "`, Envoy's TCP
//! proxy, HAProxy's tcplog, an epoch-zero time, a POST given up as `-`, a Google Cloud
//! give-up whose status protobuf JSON left out.

use crate::common;

use crate::common::{dupcost, fixture, write};
use serde_json::Value;

/// Figures that the logs cannot give, so that a file with no mutating request still reports.
const GIVEN: [&str; 8] = [
    "--requests-per-day",
    "1000",
    "--timeout-rate",
    "1%",
    "--succeeded-share",
    "50%",
    "--min-span",
    "0s",
];

/// The JSON report of `dupcost logs PATH ARGS`, and its stderr; it must succeed.
fn report(path: &str, args: &[&str]) -> (Value, String) {
    crate::support::report(&[&[path][..], args].concat())
}

/// The lines skipped by kind, as `(kind, lines)`.
fn skipped(o: &Value) -> Vec<(String, u64)> {
    o["files"][0]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["lines"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The formats the first file's lines were read as, as `(name, lines)`.
fn formats(o: &Value) -> Vec<(&str, u64)> {
    o["files"][0]["formats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["lines"].as_u64().unwrap()))
        .collect()
}

fn counts(o: &Value) -> (u64, u64, u64, u64) {
    let n = |k: &str| o[k].as_u64().unwrap();
    (
        n("rows"),
        n("bad_rows"),
        n("mutating_attempts"),
        n("timed_out"),
    )
}

/// A real sample read with [`GIVEN`]: its format (when `format` is given), its rows, bad rows,
/// mutating and timed-out attempts, and its first and last timestamps as the suite's
/// expected output has them; the observed object, for what else a test checks.
fn sample(name: &str, format: Option<&str>, want: (u64, u64, u64, u64), span: [&str; 2]) -> Value {
    let (j, stderr) = report(&fixture("suites", name), &GIVEN);
    let o = &j["observed"];
    if let Some(format) = format {
        assert_eq!(o["files"][0]["input_format"], format, "{name}");
    }
    assert_eq!(counts(o), want, "{name}: {stderr}");
    assert_eq!(
        [&o["first_timestamp"], &o["last_timestamp"]],
        span,
        "{name}"
    );
    assert!(!stderr.contains("bad row"), "{name}: {stderr}");
    o.clone()
}

/// Elastic's ALB pipeline test: ALB requests, NLB `tls 2.0` records and ALB connection log
/// records in one file. The NLB records are no requests (their `2.0` is a version, not an
/// epoch time: read as one, it made the span start in 1970), nor are the connection records.
#[test]
fn elastic_alb_sample_reads_its_requests_and_names_the_rest() {
    // Lines 1, 2 and 10 are HTTP requests (the last one's request unparseable, `- http://...`).
    let o = sample(
        "elastic-alb.log",
        Some("AWS ALB"),
        (3, 0, 0, 0),
        ["2018-07-02T22:23:00.186641Z", "2025-05-01T11:24:32.748149Z"],
    );
    assert_eq!(
        skipped(&o),
        [
            (
                "ALB connection log records (no HTTP request)".to_string(),
                3
            ),
            (
                "NLB TLS connection records (no HTTP request)".to_string(),
                4
            ),
        ]
    );
}

/// Elastic's Traefik JSON test: two records have `StartLocal` and `time` but no `StartUTC`
/// (Traefik lets each field be dropped); each is a request at its `StartLocal`.
#[test]
fn elastic_traefik_json_sample_reads_start_local() {
    sample(
        "elastic-traefik.jsonl",
        Some("JSON lines (Traefik)"),
        (7, 0, 0, 0),
        ["2021-03-16T18:56:54.735539Z", "2024-04-15T13:26:33.809027Z"],
    );
}

/// Elastic's Traefik CLF test: its last line has `-` for the status and the size (no
/// response was sent): a request, not a bad row. Three lines write a bare `-` for the
/// referer (Traefik's older CLF; now it writes `"-"`): read as Traefik's CLF all the same,
/// not as Apache combined with more fields unread. One line is Apache common.
#[test]
fn elastic_traefik_common_sample_reads_a_dash_status() {
    let o = sample(
        "elastic-traefik-common.log",
        None,
        (8, 0, 0, 0),
        ["2000-10-10T20:55:36Z", "2024-04-15T13:04:10Z"],
    );
    assert_eq!(formats(&o), [("Traefik CLF", 7), ("Apache common", 1)]);
    assert!(
        o["files"][0]["formats"][0]["roles"]
            .as_array()
            .unwrap()
            .contains(&"duration".into())
    );
}

/// The same sample's durations are read, in milliseconds, as Elastic's expected output has
/// them (`event.duration` 2, 3, 247, 0, 13, 8 and 0 ms): its seven GETs counted as the
/// intents (`--methods GET`), those that took the client's timeout or more time out. The
/// line with no status, no router, no server and 0 ms never reached a backend: a failed
/// attempt, never a give-up, at any timeout. Read as seconds, each of the five with 2 ms or
/// more would time out at 1 s; as nanoseconds, none. The Apache common line has no
/// duration: a bad row where a timeout needs one.
#[test]
fn elastic_traefik_common_sample_reads_its_durations_in_ms() {
    let path = fixture("suites", "elastic-traefik-common.log");
    for (timeout, timed_out) in [("5ms", 3), ("10ms", 2), ("300ms", 0), ("1s", 0)] {
        let args = [
            "--requests-per-day",
            "1000",
            "--succeeded-share",
            "50%",
            "--min-span",
            "0s",
            "--methods",
            "GET",
            "--log-side",
            "server",
            "--client-timeout",
            timeout,
        ];
        let (j, stderr) = report(&path, &args);
        let o = &j["observed"];
        assert_eq!(counts(o), (8, 1, 7, timed_out), "{timeout}: {stderr}");
        assert!(
            stderr.contains("elastic-traefik-common.log:7: read as Apache common, a second format in this file, which cannot be counted beside the first: it has no duration"),
            "{stderr}"
        );
        let out = dupcost().args(["logs", &path]).args(args).output().unwrap();
        let table = String::from_utf8(out.stdout).unwrap();
        assert!(table.contains("duration=duration_ms (ms)"), "{table}");
        let rate = format!("= {timed_out} timed out (status 0, 408, 460, 499, 504 or took");
        assert!(table.contains(&rate), "{timeout}: {table}");
        assert!(
            table.contains(&format!("/ 7 mutating attempts; thin: {timed_out} of 7")),
            "{timeout}: {table}"
        );
    }
}

/// Records with no HTTP request, as each proxy writes them beside its requests: skipped by
/// kind, never requests; the requests around them read as before.
#[test]
fn tcp_records_are_no_requests() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str, &str); 3] = [
        (
            "elb.log",
            // AWS's classic ELB examples: an HTTP listener's line, then a TCP listener's.
            "2026-11-01T10:00:05.945958Z my-loadbalancer 192.168.131.39:2818 10.0.0.1:80 0.000086 0.201048 0.000057 201 201 512 88 \"POST https://api.example.com:443/v1/orders HTTP/1.1\" \"curl/8.5.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2\n",
            "2026-11-01T10:00:06.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.001069 0.000028 0.000041 - - 82 305 \"- - - \" \"-\" - -\n",
            "classic ELB TCP/SSL listener records (request \"- - -\", no HTTP request)",
        ),
        (
            "envoy.log",
            // Envoy's default format, an HTTP request, then its TCP proxy's line.
            "[2026-11-01T10:00:01.310Z] \"POST /v1/charges HTTP/1.1\" 200 - 154 17 118 116 \"10.0.35.28\" \"curl/8.5.0\" \"cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2\" \"api.example.com\" \"10.0.2.1:8080\"\n",
            "[2026-11-01T10:00:02.310Z] \"- - -\" 0 - 0 0 12 - \"-\" \"-\" \"-\" \"-\" \"10.0.2.1:5432\"\n",
            "Envoy TCP proxy records (request \"- - -\", no HTTP request)",
        ),
        (
            "haproxy.log",
            // HAProxy's httplog and tcplog examples (configuration.txt, 8.2.2 and 8.2.3).
            "Nov  1 10:00:01 lb1 haproxy[14389]: 10.0.1.2:33317 [01/Nov/2026:10:00:01.655] http-in api/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 \"POST /v1/charges HTTP/1.1\"\n",
            "Nov  1 10:00:02 lb1 haproxy[14387]: 10.0.1.2:33313 [01/Nov/2026:10:00:02.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0\n",
            "HAProxy tcplog records (TCP, no HTTP request)",
        ),
    ];
    for (name, http, tcp, kind) in cases {
        // The TCP record between requests, and as the first line.
        for text in [
            format!("{http}{tcp}{http}{http}"),
            format!("{tcp}{http}{http}{http}"),
        ] {
            let path = write(dir.path(), name, text.as_bytes());
            let (j, stderr) = report(&path, &GIVEN);
            let o = &j["observed"];
            assert_eq!(counts(o), (3, 0, 3, 0), "{name}: {stderr}");
            assert_eq!(skipped(o), [(kind.to_string(), 1)], "{name}");
        }
    }
}

/// A time before 1990 is no request's: a bad row with its line, never the span's start.
#[test]
fn an_epoch_zero_time_is_a_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let line = |time: &str| {
        format!(
            "{{\"ts\":\"{time}\",\"method\":\"POST\",\"path\":\"/v1/pay\",\"status\":200,\"duration_ms\":12}}\n"
        )
    };
    let text = [
        line("2026-11-01T10:00:00Z"),
        line("1970-01-01T00:00:02Z"),
        line("2026-11-01T11:00:00Z"),
    ]
    .concat();
    let path = write(dir.path(), "app.jsonl", text.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(counts(o), (3, 1, 2, 0), "{stderr}");
    assert_eq!(o["first_timestamp"], "2026-11-01T10:00:00Z");
    assert!(
        stderr.contains("app.jsonl:2: timestamp '1970-01-01T00:00:02Z' is before 1990"),
        "{stderr}"
    );
}

/// The give-ups themselves: a POST that Traefik's CLF logs with status `-`, and a Google
/// Cloud record whose `httpRequest.status` protobuf JSON left out (it was 0) with
/// `statusDetails` client_disconnected_before_any_response. Each is a timed-out attempt.
#[test]
fn absent_statuses_are_give_ups() {
    let dir = tempfile::tempdir().unwrap();
    let clf = "10.0.0.1 - - [01/Nov/2026:10:00:00 +0000] \"POST /v1/pay HTTP/1.1\" 200 12 \"-\" \"curl/8\" 1 \"pay@docker\" \"http://10.0.0.9:80\" 12ms\n\
               10.0.0.2 - - [01/Nov/2026:10:30:00 +0000] \"POST /v1/pay HTTP/1.1\" - - \"-\" \"curl/8\" 2 \"pay@docker\" \"-\" 30001ms\n\
               10.0.0.3 - - [01/Nov/2026:11:00:00 +0000] \"POST /v1/pay HTTP/1.1\" 201 12 \"-\" \"curl/8\" 3 \"pay@docker\" \"http://10.0.0.9:80\" 15ms\n";
    let gcp = |status: &str, details: &str, time: &str| {
        format!(
            "{{\"httpRequest\":{{\"requestMethod\":\"POST\",\"requestUrl\":\"https://api.example.com/v1/pay\",{status}\"remoteIp\":\"203.0.113.7\",\"latency\":\"0.086s\"}},\"jsonPayload\":{{\"@type\":\"type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry\",\"statusDetails\":\"{details}\"}},\"timestamp\":\"{time}\"}}\n"
        )
    };
    let gcp = [
        gcp(
            "\"status\":200,",
            "response_sent_by_backend",
            "2026-11-01T10:00:00Z",
        ),
        gcp(
            "",
            "client_disconnected_before_any_response",
            "2026-11-01T10:30:00Z",
        ),
        gcp(
            "\"status\":201,",
            "response_sent_by_backend",
            "2026-11-01T11:00:00Z",
        ),
    ]
    .concat();
    for (name, text) in [("traefik.log", clf.to_string()), ("gcp.jsonl", gcp)] {
        let path = write(dir.path(), name, text.as_bytes());
        let (j, stderr) = report(&path, &GIVEN);
        assert_eq!(counts(&j["observed"]), (3, 0, 3, 1), "{name}: {stderr}");
    }
}

/// One traffic in four shapes: 1,000 POSTs, 40 given up by the client at its 15 s timeout,
/// 25 of which the backend finished with a 200. As ingress-nginx writes it (499, upstream
/// 200 or 500), as Google Cloud's load balancer exports it (no status,
/// client_disconnected_before_any_response), as a Caddy-shaped receiver's own log
/// (`duration` in seconds, documented) and as an unknown JSON receiver log (`duration`,
/// no unit said): the same timeout rate, and the same succeeded share where it is logged.
/// The unknown one's unit is never guessed in silence: a warning names `--duration-unit`.
#[test]
fn one_traffic_in_four_shapes_gives_one_timeout_rate() {
    let dir = tempfile::tempdir().unwrap();
    let (mut nginx, mut gcp, mut caddy, mut other) =
        (String::new(), String::new(), String::new(), String::new());
    let start = 1_793_491_200; // 2026-11-01T00:00:00Z
    let mut timed_out = 0;
    for i in 0..1000u64 {
        let gave_up = i % 25 == 7;
        let executed = gave_up && {
            timed_out += 1;
            timed_out <= 25
        };
        let secs = start + i * 170;
        let time = jiff::Timestamp::from_second(secs as i64).unwrap();
        let (iso, clf) = (
            time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            time.strftime("%d/%b/%Y:%H:%M:%S +0000").to_string(),
        );
        let ip = format!("10.{}.{}.9", i / 250, i % 250);
        let (status, backend, took) = match (gave_up, executed) {
            (false, _) => (200, 200, 0.085),
            (true, true) => (499, 200, 16.2),
            (true, false) => (499, 500, 15.4),
        };
        let proxy_took = if gave_up { 15.0 } else { 0.086 };
        nginx += &format!(
            "{ip} - - [{clf}] \"POST /v1/pay HTTP/1.1\" {status} 2 \"-\" \"client/1\" 412 {proxy_took:.3} [default-api-80] [] 10.0.0.7:8080 2 {took:.3} {backend} r{i}\n"
        );
        let gcp_status = if gave_up {
            String::new()
        } else {
            "\"status\":200,".to_string()
        };
        let details = if gave_up {
            "client_disconnected_before_any_response"
        } else {
            "response_sent_by_backend"
        };
        gcp += &format!(
            "{{\"httpRequest\":{{\"requestMethod\":\"POST\",\"requestUrl\":\"https://api.example.com/v1/pay\",\"requestSize\":\"412\",{gcp_status}\"remoteIp\":\"{ip}\",\"latency\":\"{proxy_took:.3}s\"}},\"jsonPayload\":{{\"@type\":\"type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry\",\"statusDetails\":\"{details}\"}},\"timestamp\":\"{iso}\"}}\n"
        );
        caddy += &format!(
            "{{\"level\":\"info\",\"ts\":{secs}.0,\"logger\":\"http.log.access\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"{ip}\",\"method\":\"POST\",\"uri\":\"/v1/pay\"}},\"duration\":{took:.3},\"size\":2,\"status\":{backend}}}\n"
        );
        other += &format!(
            "{{\"time\":\"{iso}\",\"method\":\"POST\",\"path\":\"/v1/pay\",\"status\":{backend},\"duration\":{took:.3}}}\n"
        );
    }
    let shapes = [
        ("nginx.log", nginx, vec![]),
        ("gcp.jsonl", gcp, vec!["--succeeded-share", "62.5%"]),
        (
            "caddy.jsonl",
            caddy,
            vec!["--client-timeout", "15s", "--log-side", "server"],
        ),
        (
            "other.jsonl",
            other.clone(),
            vec![
                "--client-timeout",
                "15s",
                "--log-side",
                "server",
                "--duration-unit",
                "s",
            ],
        ),
    ];
    for (name, text, args) in shapes {
        let path = write(dir.path(), name, text.as_bytes());
        let (j, stderr) = report(&path, &args);
        assert_eq!(j["observed"]["timed_out"], 40, "{name}: {stderr}");
        assert_eq!(j["inputs"]["timeout_rate"], 0.04, "{name}");
        assert_eq!(j["inputs"]["succeeded_share"], 0.625, "{name}");
    }
    // Without --duration-unit their typical values (median under 1 s) read as seconds;
    // read only as named (--no-infer) the durations are ms, assumed, and it says so.
    let path = write(dir.path(), "other.jsonl", other.as_bytes());
    let (j, _) = report(&path, &["--client-timeout", "15s", "--log-side", "server"]);
    assert_eq!(j["inputs"]["timeout_rate"], 0.04);
    let args = [
        "--client-timeout",
        "15s",
        "--log-side",
        "server",
        "--no-infer",
    ];
    let (j, stderr) = report(&path, &args);
    let warned = "its duration field duration says no unit (neither its name nor a format's documentation): read as ms, so --client-timeout compares with an assumed unit; give --duration-unit s, ms, us or ns";
    assert!(stderr.contains(warned), "{stderr}");
    assert!(
        j["observed"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains(warned))
    );
    let out = dupcost().args(["logs", &path]).args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("duration=duration (ms, assumed: --duration-unit)")
            && text.contains("or took 15s or more, duration read in ms, assumed)"),
        "{text}"
    );
}

/// A few broken lines anywhere, the first included, never refuse a file that a format reads:
/// a 3-line file with one bad line, a pasted Istio log of 9 lines with 2 broken (a tail
/// that starts mid-line): the broken lines are bad rows with their line numbers.
#[test]
fn a_few_broken_lines_never_refuse_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let nginx = |h: u32| {
        format!(
            "10.1.2.3 - - [01/Nov/2026:{h:02}:00:01 +0000] \"POST /v1/charges HTTP/1.1\" 200 17 \"-\" \"curl/8.5.0\"\n"
        )
    };
    let three = format!("garbage from a paste\n{}{}", nginx(10), nginx(11));
    let path = write(dir.path(), "three.log", three.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    assert_eq!(j["observed"]["files"][0]["input_format"], "nginx combined");
    assert_eq!(counts(&j["observed"]), (3, 1, 2, 0), "{stderr}");
    assert!(stderr.contains("three.log:1: "), "{stderr}");

    let istio = std::fs::read_to_string(fixture("formats", "istio.log")).unwrap();
    let lines: Vec<&str> = istio.lines().collect();
    // A tail cut mid-line, 7 whole lines, a line broken in the middle.
    let mut paste = format!("{}\n", &lines[0][40..]);
    for i in 0..7 {
        paste += lines[i % lines.len()];
        paste += "\n";
        if i == 3 {
            paste += &lines[1][..60];
            paste += "\n";
        }
    }
    let path = write(dir.path(), "istio.log", paste.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert!(
        o["files"][0]["input_format"]
            .as_str()
            .unwrap()
            .starts_with("Istio"),
        "{o}"
    );
    assert_eq!(o["bad_rows"], 2, "{stderr}");
    assert_eq!(o["rows"], 9, "{stderr}");
}

/// A refusal names what the lines are: TCP records only (never an empty line blamed), or
/// mod_ssl's ssl_request_log (no status), not "closest to Apache vcombined".
#[test]
fn refusals_name_what_the_lines_are() {
    let dir = tempfile::tempdir().unwrap();
    let tcplog = "Nov  1 10:00:02 lb1 haproxy[14387]: 10.0.1.2:33313 [01/Nov/2026:10:00:02.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0\n";
    let path = write(dir.path(), "tcp.log", tcplog.repeat(3).as_bytes());
    let err = common::usage_error(&["logs", &path]);
    assert!(
        err.contains("its first lines hold no HTTP access line, only lines that are not access lines (HAProxy tcplog records (TCP, no HTTP request): 3)"),
        "{err}"
    );
    assert!(!err.contains("''"), "{err}");
    let ssl = "[10/Oct/2026:13:55:36 -0700] 192.168.1.1 TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 \"POST /index.html HTTP/1.1\" 2326\n";
    let path = write(dir.path(), "ssl_request_log", ssl.repeat(3).as_bytes());
    let err = common::usage_error(&["logs", &path]);
    assert!(
        err.contains("is mod_ssl's ssl_request_log") && err.contains("which logs no status"),
        "{err}"
    );
    assert!(!err.contains("vcombined"), "{err}");
}

/// The proxy's own retries, where a format logs them: HAProxy's retries counter (`+1`
/// redispatched), nginx's `$upstream_addr` (one address a try), Envoy's
/// `%UPSTREAM_REQUEST_ATTEMPT_COUNT%`: counted per endpoint, reported beside the clients'
/// retries with the tries they put on the backend.
#[test]
fn the_proxys_own_retries_by_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let mut nginx = String::new();
    for i in 0..40u32 {
        let (m, s) = (i / 60, i % 60);
        // Every tenth charge tried a second upstream; refunds never.
        let addr = if i % 10 == 3 {
            "10.0.0.7:8080, 10.0.0.8:8080"
        } else {
            "10.0.0.7:8080"
        };
        nginx += &format!(
            "10.1.{i}.3 - - [01/Nov/2026:10:{m:02}:{s:02} +0000] \"POST /v1/charges HTTP/1.1\" 200 17 \"-\" \"curl/8.5.0\" 412 0.120 [default-api-80] [] {addr} 17 0.118 200 r{i}\n\
             10.2.{i}.3 - - [01/Nov/2026:11:{m:02}:{s:02} +0000] \"POST /v1/refunds/{i} HTTP/1.1\" 200 17 \"-\" \"curl/8.5.0\" 412 0.120 [default-api-80] [] 10.0.0.7:8080 17 0.118 200 q{i}\n"
        );
    }
    let path = write(dir.path(), "ingress.log", nginx.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    let p = &o["proxy_retries"];
    assert_eq!(
        (&p["attempts"], &p["retried"], &p["retries"], &p["max"]),
        (&80.into(), &4.into(), &4.into(), &1.into()),
        "{stderr}"
    );
    assert_eq!(p["attempts_per_attempt"], 1.05);
    assert_eq!(p["attempts_max"], 2);
    let by_route = |route: &str| {
        o["per_endpoint"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["route"] == route)
            .unwrap()["proxy_retries"]
            .clone()
    };
    assert_eq!(by_route("/v1/charges")["retried"], 4);
    assert_eq!(by_route("/v1/refunds/{id}")["retried"], 0);
    let out = dupcost()
        .args(["logs", &path])
        .args(GIVEN)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("beside the client's, the proxy retried 4 of 80 mutating attempts itself (4 in all, at most 1 for one attempt)")
            && text.contains("1.050 tries at the backend a client attempt (at most 2)"),
        "{text}"
    );

    // HAProxy's httplog fixture: one `+1` (redispatched) among four mutating attempts.
    let (j, stderr) = report(&fixture("formats", "haproxy_httplog.log"), &GIVEN);
    let p = &j["observed"]["proxy_retries"];
    assert_eq!(
        (&p["attempts"], &p["retried"]),
        (&4.into(), &1.into()),
        "{stderr}"
    );
}

/// lnav's HAProxy test log (syslog, captured headers, `Proxy ... started.` events and an
/// `SSL handshake failure` line) and the CrowdSec hub's HAProxy parser test: every HTTP
/// request read, the events and the failed handshake named, not requests nor bad rows.
#[test]
fn lnav_and_crowdsec_haproxy_samples() {
    let o = sample(
        "lnav-haproxy.log",
        None,
        (13, 0, 3, 0),
        ["2019-02-25T16:19:48.143Z", "2019-02-25T16:20:12.331Z"],
    );
    assert_eq!(
        skipped(&o),
        [
            (
                "HAProxy connection errors (SSL handshake, no HTTP request)".to_string(),
                1
            ),
            ("HAProxy events".to_string(), 3),
        ]
    );
    // Named, the same.
    let (j, _) = report(
        &fixture("suites", "lnav-haproxy.log"),
        &[&GIVEN[..], &["--input-format", "haproxy"]].concat(),
    );
    assert_eq!(counts(&j["observed"]), (13, 0, 3, 0));

    sample(
        "crowdsec-haproxy.log",
        Some("HAProxy httplog"),
        (2, 0, 0, 0),
        ["2015-01-14T12:48:57.127Z", "2021-03-12T06:56:28.088Z"],
    );
}

/// `docker compose logs` output (issue 35), with another service's line among the access
/// lines: told as an envelope (never a CSV header), the access lines read inside it.
#[test]
fn docker_compose_logs_are_an_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..40u64 {
        let secs = 1_793_491_200 + i * 90;
        text += &format!(
            "caddy-1  | {{\"level\":\"info\",\"ts\":{secs}.25,\"logger\":\"http.log.access\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"10.0.0.{i}\",\"method\":\"POST\",\"uri\":\"/v1/pay\"}},\"duration\":0.012,\"size\":2,\"status\":200}}\n"
        );
        if i == 3 {
            text += "app-1    | listening on :8080\n";
        }
    }
    let path = write(dir.path(), "compose.log", text.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(
        o["files"][0]["input_format"], "JSON lines (Caddy)",
        "{stderr}"
    );
    assert_eq!(counts(o), (41, 1, 40, 0), "{stderr}");
    assert!(stderr.contains("compose.log:5: "), "{stderr}");
    let out = dupcost()
        .args(["logs", &path])
        .args(GIVEN)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("docker compose logs, inside: JSON lines (Caddy)"),
        "{text}"
    );
}

/// Elastic's CloudFront test: its last line has 31 of the 33 `#Fields:` (Elastic reads it as
/// a GET 404); the POST answered `000` is a give-up.
#[test]
fn elastic_cloudfront_sample_reads_a_short_line() {
    sample(
        "elastic-cloudfront.log",
        Some("CloudFront standard log"),
        (12, 0, 2, 1),
        ["2019-12-04T21:02:31Z", "2024-07-13T15:29:45Z"],
    );
}

/// Ambassador's `ACCESS [...]` lines beside plain Envoy lines, and the same inside a
/// shipper's `{"message": "ACCESS ..."}`: every request read.
#[test]
fn ambassador_access_lines_are_envoys() {
    let dir = tempfile::tempdir().unwrap();
    let envoy = std::fs::read_to_string(fixture("formats", "envoy_default.log")).unwrap();
    let lines: Vec<&str> = envoy.lines().collect();
    let mut text = String::new();
    let mut shipped = String::new();
    for (i, line) in lines.iter().enumerate() {
        text += &if i % 2 == 0 {
            format!("ACCESS {line}\n")
        } else {
            format!("{line}\n")
        };
        shipped += &format!(
            "{}\n",
            serde_json::json!({"message": format!("ACCESS {line}"), "stream": "stdout"})
        );
    }
    let plain = write(dir.path(), "envoy.log", envoy.as_bytes());
    let (want, _) = report(&plain, &GIVEN);
    for (name, text) in [("ambassador.log", text), ("shipped.jsonl", shipped)] {
        let path = write(dir.path(), name, text.as_bytes());
        let (j, stderr) = report(&path, &GIVEN);
        let o = &j["observed"];
        assert!(
            o["files"][0]["input_format"]
                .as_str()
                .unwrap()
                .ends_with("(Ambassador's ACCESS lines)"),
            "{name}: {o}"
        );
        assert_eq!(counts(o), counts(&want["observed"]), "{name}: {stderr}");
        assert_eq!(o["bad_rows"], 0, "{name}: {stderr}");
    }
}

/// Matomo log-analytics' IIS Advanced Logging test (`iis_custom.log`): `date-local` and
/// `time-local`, `TimeTakenMS`, quoted fields (one holding spaces), blank lines between the
/// directives. Matomo reads three hits, 200, 301 and 404, at 2012-08-15 17:00 (to the
/// second), taking 109, 0 and 359 ms.
#[test]
fn matomo_iis_advanced_logging_sample() {
    sample(
        "matomo-iis-advanced.log",
        Some("IIS W3C extended log"),
        (3, 0, 0, 0),
        ["2012-08-15T17:00:00.363Z", "2012-08-15T17:00:00.675Z"],
    );
    let out = dupcost()
        .args(["logs", &fixture("suites", "matomo-iis-advanced.log")])
        .args(GIVEN)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("duration=TimeTakenMS (ms)")
            && text.contains("date-local and time-local have no zone"),
        "{text}"
    );
    // Its durations, in ms (Matomo's generation_time_milli): the same lines as POSTs, with a
    // client that gives up at 300 ms, time out once (the 359 ms one).
    let posts = std::fs::read_to_string(fixture("suites", "matomo-iis-advanced.log"))
        .unwrap()
        .replace(" GET ", " POST ");
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "posts.log", posts.as_bytes());
    let args = [
        &GIVEN[..],
        &["--client-timeout", "300ms", "--log-side", "server"],
    ]
    .concat();
    let (j, stderr) = report(&path, &args);
    assert_eq!(counts(&j["observed"]), (3, 0, 3, 1), "{stderr}");
}

/// Matomo's Traefik CLF test: the duration after the router and the server URL is in
/// milliseconds (`29ms`), as Traefik's docs say.
#[test]
fn traefik_clf_samples_read_the_duration_in_ms() {
    sample(
        "matomo-traefik.log",
        Some("Traefik CLF"),
        (1, 0, 1, 0),
        ["2012-02-10T21:42:07Z", "2012-02-10T21:42:07Z"],
    );
    // Its one POST took 29 ms: timed out for a client that waits 20 ms, not for one that
    // waits 30 ms (read as seconds it would time out for both; as ns for neither).
    for (timeout, timed_out) in [("20ms", 1), ("30ms", 0)] {
        let args = [
            &GIVEN[..],
            &["--client-timeout", timeout, "--log-side", "server"],
        ]
        .concat();
        let (j, stderr) = report(&fixture("suites", "matomo-traefik.log"), &args);
        assert_eq!(j["observed"]["timed_out"], timed_out, "{timeout}: {stderr}");
    }
}

/// Matomo's HAProxy test: one POST, syslog's prefix.
#[test]
fn matomo_haproxy_sample() {
    sample(
        "matomo-haproxy.log",
        Some("HAProxy httplog"),
        (1, 0, 1, 0),
        ["2018-09-25T06:05:27.584Z", "2018-09-25T06:05:27.584Z"],
    );
}

/// The CrowdSec hub's Nginx Proxy Manager test: its `proxy` and `standard` formats, an
/// nginx combined line and two nginx error log lines in one file. CrowdSec parses four
/// access lines (404, 404, 444, 304) and the two error lines.
#[test]
fn crowdsec_nginx_proxy_manager_sample() {
    let o = sample(
        "crowdsec-npm.log",
        None,
        (4, 0, 0, 0),
        ["2022-01-24T13:40:19Z", "2022-01-24T16:51:02Z"],
    );
    let skipped = &o["files"][0]["skipped"];
    assert_eq!(skipped[0]["kind"], "nginx error log");
    assert_eq!(skipped[0]["lines"], 2);
    assert_eq!(
        formats(&o),
        [
            ("Nginx Proxy Manager proxy", 2),
            ("nginx combined", 1),
            ("Nginx Proxy Manager standard", 1)
        ]
    );
}

/// What no sample shows: POSTs in both of Nginx Proxy Manager's formats, one given up by the
/// client (499) and one that timed out at the upstream (504) among them.
#[test]
fn nginx_proxy_manager_give_ups() {
    let dir = tempfile::tempdir().unwrap();
    let proxy = |m: u32, status: &str, upstream: &str| {
        format!(
            "[01/Nov/2026:10:{m:02}:00 +0000] - {upstream} {status} - POST https api.example.com \"/v1/pay\" [Client 10.0.0.{m}] [Length 17] [Gzip -] [Sent-to 10.0.0.9:8080] \"curl/8.5.0\" \"-\"\n"
        )
    };
    let standard = |m: u32, status: &str| {
        format!(
            "[01/Nov/2026:11:{m:02}:00 +0000] {status} - POST https api.example.com \"/v1/pay\" [Client 10.1.0.{m}] [Length 17] [Gzip -] \"curl/8.5.0\" \"-\"\n"
        )
    };
    let text = [
        proxy(1, "200", "200"),
        proxy(2, "504", "504"),
        standard(3, "201"),
        proxy(4, "200", "200"),
        standard(5, "499"),
        standard(6, "200"),
    ]
    .concat();
    let path = write(dir.path(), "npm.log", text.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    assert_eq!(counts(&j["observed"]), (6, 0, 6, 2), "{stderr}");
}

/// BunkerWeb's access log (as the CrowdSec hub's BunkerWeb test holds it): the virtual host,
/// then combined with nginx's `$request_id` between the ident and the user. Its API's health
/// checks, a redirect, a 404, and POSTs given up by the client (499) and timed out at the
/// upstream (504): every line a row, read as BunkerWeb's, each request id read. It was
/// refused as no format, naming its second line.
#[test]
fn bunkerweb_lines_are_read_with_their_request_ids() {
    let dir = tempfile::tempdir().unwrap();
    let line = |host: &str, m: u32, id: &str, request: &str, status: u16| {
        format!(
            "{host} 172.18.0.1 - {id} - [22/Oct/2025:14:{m:02}:07 +0000] \"{request}\" {status} 162 \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"\n"
        )
    };
    let text = [
        line(
            "bwapi",
            1,
            "95386da81aa13b6ab3ce9c989e1e470e",
            "GET /health HTTP/1.1",
            200,
        ),
        line(
            "www.example.com",
            2,
            "7bde940ef0f870cdee1f6d53fe0ff157",
            "GET / HTTP/1.1",
            301,
        ),
        line(
            "www.example.com",
            3,
            "a430e8da0018d750473c0464b73edd05",
            "GET / HTTP/2.0",
            404,
        ),
        line(
            "shop.example.com",
            4,
            "d65798fd987d1b2c09afa608325b91e6",
            "POST /v1/pay HTTP/2.0",
            504,
        ),
        line(
            "shop.example.com",
            5,
            "b50dafb5a9ae487b115e302e9590d54e",
            "POST /v1/pay HTTP/2.0",
            499,
        ),
        line(
            "shop.example.com",
            6,
            "c0ffee0018d750473c0464b73edd0599",
            "POST /v1/pay HTTP/2.0",
            201,
        ),
    ]
    .concat();
    let path = write(dir.path(), "bunkerweb.log", text.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 3, 2), "{stderr}");
    assert_eq!(formats(o), [("BunkerWeb", 6)]);
    let roles = &o["files"][0]["formats"][0]["roles"];
    assert!(
        roles.as_array().unwrap().contains(&"request_id".into()),
        "{o}"
    );
}

/// Elastic's HAProxy tests: a host field between the server and the timers (and `-` for the
/// client's address), captured headers with and without a second block. Elastic reads each
/// line as a request (OPTIONS, GET...).
#[test]
fn elastic_haproxy_samples() {
    sample(
        "elastic-haproxy.log",
        Some("HAProxy httplog"),
        (3, 0, 0, 0),
        ["2009-02-06T12:14:14.655Z", "2021-05-22T02:22:22.222Z"],
    );
    sample(
        "elastic-haproxy-noheaders.log",
        Some("HAProxy httplog"),
        (3, 0, 0, 0),
        ["2018-12-10T12:01:46.395Z", "2018-12-10T15:48:56.017Z"],
    );
    let named = [&GIVEN[..], &["--input-format", "haproxy"]].concat();
    let (j, _) = report(&fixture("suites", "elastic-haproxy.log"), &named);
    assert_eq!(counts(&j["observed"]), (3, 0, 0, 0));
}

/// Fluent Bit's Kubernetes test logs: an Apache line in Docker's JSON (Fluent Bit's expected
/// output has it at 1519234013.360921, 2018-02-21T17:26:53Z), and an istio-proxy container's
/// Mixer TCP access log entry, which is no HTTP request: never counted.
#[test]
fn fluent_bit_samples() {
    sample(
        "fluentbit-apache.log",
        Some("Apache common"),
        (1, 0, 0, 0),
        ["2018-02-21T17:26:53Z", "2018-02-21T17:26:53Z"],
    );
    // Wrapped in Docker's JSON, the entries are told for what they are, not read as JSON
    // lines without a method.
    let err = common::usage_error(&["logs", &fixture("suites", "fluentbit-istio-tcp.log")]);
    assert!(
        err.contains("fluentbit-istio-tcp.log (inside its Docker json-file lines)")
            && err.contains("Istio Mixer TCP access log entries (no HTTP request): 1")
            && !err.contains("no method column"),
        "{err}"
    );
    // Unwrapped, the entries are told for what they are.
    let text = std::fs::read_to_string(fixture("suites", "fluentbit-istio-tcp.log")).unwrap();
    let record: Value = serde_json::from_str(&text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "istio-proxy.log",
        record["log"].as_str().unwrap().repeat(3).as_bytes(),
    );
    let err = common::usage_error(&["logs", &path]);
    assert!(
        err.contains("Istio Mixer TCP access log entries (no HTTP request): 3"),
        "{err}"
    );
}

/// Vector's `parse_nginx_log` examples (vectordotdev/vrl, src/stdlib/parse_nginx_log.rs):
/// combined (with `"2.75"` after it), error, ingress_upstreaminfo and main, one file. Vector
/// reads the POST at 2021-04-01T12:02:31Z, the GETs at 2023-03-18T15:00:00Z and
/// 2024-12-31T17:32:06Z, and the error line as an error, not a request.
#[test]
fn vector_nginx_examples() {
    let lines = [
        r#"172.17.0.1 - alice [01/Apr/2021:12:02:31 +0000] "POST /not-found HTTP/1.1" 404 153 "http://localhost/somewhere" "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.119 Safari/537.36" "2.75""#,
        r#"2021/04/01 13:02:31 [error] 31#31: *1 open() "/usr/share/nginx/html/not-found" failed (2: No such file or directory), client: 172.17.0.1, server: localhost, request: "POST /not-found HTTP/1.1", host: "localhost:8081""#,
        r#"0.0.0.0 - bob [18/Mar/2023:15:00:00 +0000] "GET /some/path HTTP/2.0" 200 12312 "https://10.0.0.1/some/referer" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/111.0.0.0 Safari/537.36" 462 0.050 [some-upstream-service-9000] [some-other-upstream-5000] 10.0.50.80:9000 19437 0.049 200 752178adb17130b291aefd8c386279e7"#,
        r#"172.24.0.3 - alice [31/Dec/2024:17:32:06 +0000] "GET / HTTP/1.1" 200 615 "https://domain.tld/path" "curl/8.11.1" "1.2.3.4, 10.10.1.1""#,
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "vector.log",
        (lines.join("\n") + "\n").as_bytes(),
    );
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(counts(o), (3, 0, 1, 0), "{stderr}");
    assert_eq!(
        [&o["first_timestamp"], &o["last_timestamp"]],
        ["2021-04-01T12:02:31Z", "2024-12-31T17:32:06Z"]
    );
    assert_eq!(skipped(o), [("nginx error log".to_string(), 1)]);
}

/// What no sample shows, with known truth: nginx lines with one ident field (`1.2.3.4 -
/// [time]`), and Istio 1.2's default layout (its pilot's EnvoyTextLogFormat12) with a POST
/// that timed out upstream (`504 UT`).
#[test]
fn one_ident_field_and_istio_1_2() {
    let dir = tempfile::tempdir().unwrap();
    let nginx: String = (0..5)
        .map(|i| {
            format!(
                "10.0.0.{i} - [01/Nov/2026:10:0{i}:00 +0000] \"POST /v1/pay HTTP/1.1\" {} 17 \"-\" \"curl/8.5.0\"\n",
                if i == 2 { 499 } else { 200 }
            )
        })
        .collect();
    let path = write(dir.path(), "one-ident.log", nginx.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(
        o["files"][0]["input_format"],
        "nginx combined with one ident field"
    );
    assert_eq!(counts(o), (5, 0, 5, 1), "{stderr}");
    assert_eq!(o["first_timestamp"], "2026-11-01T10:00:00Z");

    let istio = |m: u32, status: &str, flags: &str, took: u32| {
        format!(
            "[2026-11-01T10:{m:02}:01.000Z] \"POST /v1/charges HTTP/1.1\" {status} {flags} \"-\" \"-\" 412 24 {took} - \"-\" \"curl/7.64.0\" \"5c8f6a1e-1b7e-9a3c-8f2d-0a6f3e1d2c{m:02}\" \"api:8080\" \"10.44.1.27:8080\" outbound|8080||api.default.svc.cluster.local - 10.0.45.184:8080 10.44.1.23:46520 -\n"
        )
    };
    let text = [
        istio(1, "200", "-", 12),
        istio(2, "504", "UT", 15001),
        istio(3, "201", "-", 9),
    ]
    .concat();
    let path = write(dir.path(), "istio.log", text.as_bytes());
    let (j, stderr) = report(&path, &GIVEN);
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "Istio 1.2 (Envoy)");
    assert_eq!(counts(o), (3, 0, 3, 1), "{stderr}");
}
