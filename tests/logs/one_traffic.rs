//! One traffic, three ways (issue 35, "Done when" #2): the same requests written as a Google
//! Cloud LogEntry export (protobuf JSON: zero values omitted, `latency` "1.512s",
//! `statusDetails`), as a Caddy-shaped receiver's own log (`ts`, `duration` in seconds) and as
//! ingress-nginx lines (`$request_time` seconds, `$upstream_status`) give one timeout rate
//! and one succeeded share; a duration whose unit nothing says is inferred from its values
//! only when they leave one reading, and the timeout rate says how its durations were read;
//! the proxy's own tries become the layers figure's measured layer.

use crate::common::{dupcost, write};
use crate::support;
use serde_json::Value;

/// The client's timeout, in seconds.
const TIMEOUT: f64 = 15.0;

/// What happened to one request, as every layer saw it.
struct Request {
    secs: u64,
    method: &'static str,
    path: String,
    ip: String,
    /// The client gave up at its timeout (every view sees it).
    timed_out: bool,
    /// The backend's status and how long it took, in seconds.
    status: u16,
    took: f64,
}

/// The truth: 1,100 requests over two days, 1,000 of them mutating; 41 mutating ones given
/// up by the client at its 15 s timeout (4.1%), of which the backend finished 25 with a 200
/// and failed 16 with a 500 after the client had gone; fast 500s that are no timeout; GETs.
struct Traffic {
    requests: Vec<Request>,
    mutating: u64,
    timed_out: u64,
    succeeded: u64,
}

fn traffic(sub_millisecond: bool) -> Traffic {
    let start = 1_793_491_200; // 2026-11-01T00:00:00Z
    let mut t = Traffic {
        requests: Vec::new(),
        mutating: 0,
        timed_out: 0,
        succeeded: 0,
    };
    for i in 0..1100u64 {
        let get = i % 11 == 10;
        let n = t.mutating;
        // 37 is prime to 1,000: i * 37 mod 1,000 runs over 0..1,000 once, so 41 of them.
        let timed_out = !get && (n * 37) % 1000 < 41;
        let method = match (get, n % 7, n % 11) {
            (true, ..) => "GET",
            (false, 3, _) => "PUT",
            (false, _, 5) => "DELETE",
            _ => "POST",
        };
        let (status, took) = if timed_out {
            t.timed_out += 1;
            let executed = t.timed_out <= 25;
            t.succeeded += u64::from(executed);
            let status = if executed { 200 } else { 500 };
            (status, TIMEOUT + 0.2 + (n % 40) as f64 * 0.35)
        } else {
            // The fastest answer: 0.4 ms when `sub_millisecond`, else 85 ms.
            let least = if sub_millisecond { 0.000412 } else { 0.085 };
            let status = if n % 13 == 0 { 500 } else { 200 };
            (status, least + ((n + 48) % 50) as f64 * 0.0571)
        };
        if !get {
            t.mutating += 1;
        }
        t.requests.push(Request {
            secs: start + i * 155,
            method,
            path: format!("/v1/orders/{}", 1000 + i),
            ip: format!("10.{}.{}.9", i / 250, i % 250),
            timed_out,
            status,
            took,
        });
    }
    t
}

impl Traffic {
    /// As Google Cloud's load balancer exports it: protobuf JSON, so a request the client
    /// left before any response has no `httpRequest.status` at all (zero is omitted).
    fn gcp(&self) -> String {
        let mut out = String::new();
        for r in &self.requests {
            let time = jiff::Timestamp::from_second(r.secs as i64).unwrap();
            let iso = time.strftime("%Y-%m-%dT%H:%M:%S%.3fZ");
            let (status, latency, details) = if r.timed_out {
                (
                    String::new(),
                    TIMEOUT + 0.004,
                    "client_disconnected_before_any_response",
                )
            } else {
                (
                    format!("\"status\":{},", r.status),
                    r.took + 0.001,
                    "response_sent_by_backend",
                )
            };
            out += &format!(
                "{{\"insertId\":\"{:x}\",\"httpRequest\":{{\"requestMethod\":\"{}\",\"requestUrl\":\"https://api.example.com{}\",\"requestSize\":\"412\",{status}\"userAgent\":\"client/1\",\"remoteIp\":\"{}\",\"serverIp\":\"10.128.0.7\",\"latency\":\"{latency:.6}s\"}},\"resource\":{{\"type\":\"http_load_balancer\",\"labels\":{{\"project_id\":\"shop\",\"url_map_name\":\"api\"}}}},\"timestamp\":\"{iso}\",\"severity\":\"INFO\",\"logName\":\"projects/shop/logs/requests\",\"jsonPayload\":{{\"@type\":\"type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry\",\"statusDetails\":\"{details}\"}},\"receiveTimestamp\":\"{iso}\"}}\n",
                r.secs, r.method, r.path, r.ip
            );
        }
        out
    }

    /// As the receiving service's Caddy writes it: its own status and `duration` in seconds.
    fn caddy(&self) -> String {
        let mut out = String::new();
        for r in &self.requests {
            out += &format!(
                "{{\"level\":\"info\",\"ts\":{}.0,\"logger\":\"http.log.access.log0\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"{}\",\"remote_port\":\"51234\",\"proto\":\"HTTP/1.1\",\"method\":\"{}\",\"host\":\"api.example.com\",\"uri\":\"{}\",\"headers\":{{\"User-Agent\":[\"client/1\"]}}}},\"bytes_read\":412,\"user_id\":\"\",\"duration\":{:.6},\"size\":2,\"status\":{},\"resp_headers\":{{\"Server\":[\"Caddy\"]}}}}\n",
                r.secs, r.ip, r.method, r.path, r.took, r.status
            );
        }
        out
    }

    /// As ingress-nginx writes it in front of the receiver: 499 where the client closed,
    /// the backend's status in `$upstream_status`.
    fn nginx(&self) -> String {
        let mut out = String::new();
        for (i, r) in self.requests.iter().enumerate() {
            let time = jiff::Timestamp::from_second(r.secs as i64).unwrap();
            let clf = time.strftime("%d/%b/%Y:%H:%M:%S +0000");
            let (status, request_time) = if r.timed_out {
                (499, TIMEOUT + 0.004)
            } else {
                (r.status, r.took + 0.001)
            };
            out += &format!(
                "{} - - [{clf}] \"{} {} HTTP/1.1\" {status} 2 \"-\" \"client/1\" 412 {request_time:.3} [default-api-80] [] 10.0.0.7:8080 2 {:.3} {} r{i}\n",
                r.ip, r.method, r.path, r.took, r.status
            );
        }
        out
    }

    /// The receiver's own log in a shape no format documents: `duration`, no unit said.
    fn unknown_json(&self) -> String {
        self.receiver("", |time, r| {
            format!(
                "{{\"time\":\"{time}\",\"method\":\"{}\",\"path\":\"{}\",\"status\":{},\"duration\":{:.6}}}",
                r.method, r.path, r.status, r.took
            )
        })
    }

    /// The same as CSV.
    fn unknown_csv(&self) -> String {
        self.receiver("time,method,path,status,elapsed\n", |time, r| {
            format!("{time},{},{},{},{:.6}", r.method, r.path, r.status, r.took)
        })
    }

    /// The receiver's own log: `head`, then a line a request (given its time, RFC 3339).
    fn receiver(&self, head: &str, line: impl Fn(&str, &Request) -> String) -> String {
        let mut out = head.to_string();
        for r in &self.requests {
            let time = jiff::Timestamp::from_second(r.secs as i64).unwrap();
            out += &line(&time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(), r);
            out.push('\n');
        }
        out
    }
}

/// `dupcost logs PATH ARGS` as JSON, and its stderr.
fn report(path: &str, args: &[&str]) -> (Value, String) {
    support::report(&[&[path][..], args].concat())
}

/// `dupcost logs PATH --format FORMAT ARGS`: its stdout.
fn run(path: &str, args: &[&str], format: &str) -> String {
    support::output(&[&[path, "--format", format][..], args].concat()).0
}

/// The report as text (table, markdown).
fn rendered(path: &str, args: &[&str], format: &str) -> String {
    run(path, args, format)
}

/// The CSV report's one row, by column name.
fn csv_row(path: &str, args: &[&str]) -> std::collections::HashMap<String, String> {
    let csv = run(path, args, "csv");
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let header = rows.headers().unwrap().clone();
    let row = rows.records().next().unwrap().unwrap();
    header
        .iter()
        .map(String::from)
        .zip(row.iter().map(String::from))
        .collect()
}

/// The timeout rate's kind has no duration-unit mark.
fn unmarked(j: &Value) -> bool {
    j["input_kinds"]["timeout_rate"]
        .get("duration_unit")
        .is_none()
}

/// A server's own log, read with the client's timeout.
const RECEIVER: [&str; 4] = ["--client-timeout", "15s", "--log-side", "server"];

#[test]
fn one_traffic_as_gcp_caddy_and_nginx_gives_one_timeout_rate_and_share() {
    let truth = traffic(true);
    assert_eq!(
        (truth.mutating, truth.timed_out, truth.succeeded),
        (1000, 41, 25)
    );
    let (rate, share) = (0.041, 25.0 / 41.0);
    let dir = tempfile::tempdir().unwrap();
    let gcp = write(dir.path(), "gcp.jsonl", truth.gcp().as_bytes());
    let caddy = write(dir.path(), "caddy.jsonl", truth.caddy().as_bytes());
    let nginx = write(dir.path(), "ingress.log", truth.nginx().as_bytes());

    // Each intent is sent once here; the duplicates are those of a client retrying 3 times.
    let retries = ["--retries", "3"];
    let (n, stderr) = report(&nginx, &retries);
    let (c, caddy_err) = report(&caddy, &[&RECEIVER[..], &retries].concat());
    let (g, gcp_err) = report(&gcp, &retries);
    for (name, j, err) in [
        ("nginx", &n, &stderr),
        ("caddy", &c, &caddy_err),
        ("gcp", &g, &gcp_err),
    ] {
        let o = &j["observed"];
        assert_eq!(o["bad_rows"], 0, "{name}: {err}");
        assert_eq!(o["mutating_attempts"], 1000, "{name}");
        assert_eq!(o["timed_out"], 41, "{name}: {err}");
        assert_eq!(j["inputs"]["timeout_rate"], rate, "{name}");
        assert_eq!(
            j["input_kinds"]["timeout_rate"]["kind"], "measured",
            "{name}"
        );
        // Units from the documentation: nothing to mark.
        assert!(
            j["input_kinds"]["timeout_rate"]
                .get("duration_unit")
                .is_none(),
            "{name}: {}",
            j["input_kinds"]["timeout_rate"]
        );
        assert_eq!(o["first_timestamp"], "2026-11-01T00:00:00Z", "{name}");
        assert_eq!(
            j["inputs"]["requests_per_day"], n["inputs"]["requests_per_day"],
            "{name}"
        );
    }
    assert_eq!(
        c["observed"]["files"][0]["input_format"],
        "JSON lines (Caddy)"
    );
    // The proxy and the receiver both tell the outcome: one share.
    for (name, j) in [("nginx", &n), ("caddy", &c)] {
        assert_eq!(j["observed"]["timed_out_succeeded"], 25, "{name}");
        assert_eq!(j["inputs"]["succeeded_share"], share, "{name}");
        assert_eq!(j["input_kinds"]["succeeded_share"]["kind"], "measured");
    }
    assert_eq!(n["duplicates"], c["duplicates"]);
    // The load balancer's export cannot tell what the backend did after the client left:
    // the share is assumed, its bounds hold the truth, and the flag or the backend's log
    // settles it; given the receiver's measured share, the figures are the others'.
    let kind = &g["input_kinds"]["succeeded_share"];
    assert_eq!(kind["kind"], "assumed", "{kind}");
    assert_eq!(kind["bounds"], serde_json::json!([0.0, 1.0]));
    assert_eq!(kind["flag"], "--succeeded-share");
    let given = format!("{share}");
    let (g, _) = report(&gcp, &["--succeeded-share", &given, "--retries", "3"]);
    assert_eq!(g["inputs"]["succeeded_share"], share);
    assert_eq!(g["duplicates"], n["duplicates"]);
}

/// A receiver's log with Caddy-style `duration` seconds under keys no format documents: its
/// values (0.000412 to 28.85) fit seconds alone, so it is read in seconds, inferred, and the
/// timeout rate says so in every renderer; `--duration-unit` settles it.
#[test]
fn a_unit_the_values_leave_one_reading_of_is_inferred_and_said() {
    let truth = traffic(true);
    let dir = tempfile::tempdir().unwrap();
    for (name, text, field) in [
        ("receiver.jsonl", truth.unknown_json(), "duration"),
        ("receiver.csv", truth.unknown_csv(), "elapsed"),
    ] {
        let path = write(dir.path(), name, text.as_bytes());
        let (j, stderr) = report(&path, &RECEIVER);
        assert_eq!(j["observed"]["timed_out"], 41, "{name}: {stderr}");
        assert_eq!(j["inputs"]["timeout_rate"], 0.041, "{name}");
        assert_eq!(j["inputs"]["succeeded_share"], 25.0 / 41.0, "{name}");
        let mark = &j["input_kinds"]["timeout_rate"]["duration_unit"];
        assert_eq!(
            *mark,
            serde_json::json!({"unit": "s", "kind": "inferred", "field": field, "flag": "--duration-unit"}),
            "{name}"
        );
        let warned = format!(
            "its duration field {field} says no unit (neither its name nor a format's documentation): its first "
        );
        assert!(stderr.contains(&warned), "{name}: {stderr}");
        assert!(
            stderr.contains(" values (0.000412 to ") && stderr.contains(") fit one unit only, s ("),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains("give --duration-unit s, ms, us or ns"),
            "{stderr}"
        );
        let table = rendered(&path, &RECEIVER, "table");
        assert!(
            table.contains(&format!(
                "duration={field} (s, inferred from its values: --duration-unit)"
            )),
            "{table}"
        );
        assert!(
            table.contains("measured: durations read in s, inferred from their values; --duration-unit settles it"),
            "{table}"
        );
        assert!(table.contains("read in s, inferred from its values) / 1,000 mutating attempts"));
        let md = rendered(&path, &RECEIVER, "markdown");
        assert!(
            md.contains(
                "durations read in s, inferred from their values; --duration-unit settles it"
            ),
            "{md}"
        );
        let row = csv_row(&path, &RECEIVER);
        let at = |n: &str| row[n].as_str();
        assert_eq!(at("input_kinds.timeout_rate.duration_unit.unit"), "s");
        assert_eq!(
            at("input_kinds.timeout_rate.duration_unit.kind"),
            "inferred"
        );
        assert_eq!(at("inputs.timeout_rate"), "0.041");
        // The flag wins, and then nothing is marked.
        let (j, stderr) = report(&path, &[&RECEIVER[..], &["--duration-unit", "s"]].concat());
        assert_eq!(j["inputs"]["timeout_rate"], 0.041);
        assert!(unmarked(&j));
        assert!(!stderr.contains("says no unit"), "{stderr}");
    }
}

/// Values that fit seconds and milliseconds alike by their range (0.085 to 28.85) are read
/// by their typical values: a median under 1, written to 6 decimals, is seconds, inferred
/// and said so; the rate is the truth's. With `--no-infer` the assumption (ms) stays,
/// marked assumed beside the timeout rate, and a warning names `--duration-unit`; with it,
/// the rate is the truth's.
#[test]
fn ambiguous_values_keep_the_assumption_and_say_it() {
    let truth = traffic(false);
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "receiver.jsonl",
        truth.unknown_json().as_bytes(),
    );
    let (j, stderr) = report(&path, &RECEIVER);
    assert_eq!(j["inputs"]["timeout_rate"], 0.041, "{stderr}");
    let mark = &j["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(
        (&mark["unit"], &mark["kind"]),
        (&"s".into(), &"inferred".into())
    );
    assert!(
        stderr.contains("their typical value reads as s"),
        "{stderr}"
    );
    let named = [&RECEIVER[..], &["--no-infer"]].concat();
    let (j, stderr) = report(&path, &named);
    assert_eq!(j["observed"]["timed_out"], 0, "{stderr}");
    let mark = &j["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(mark["unit"], "ms");
    assert_eq!(mark["kind"], "assumed");
    assert_eq!(mark["flag"], "--duration-unit");
    assert!(
        stderr.contains("read as ms, so --client-timeout compares with an assumed unit; give --duration-unit s, ms, us or ns"),
        "{stderr}"
    );
    let table = rendered(&path, &named, "table");
    assert!(
        table.contains("measured: durations read in ms, assumed; --duration-unit settles it"),
        "{table}"
    );
    let (j, _) = report(&path, &[&RECEIVER[..], &["--duration-unit", "s"]].concat());
    assert_eq!(j["inputs"]["timeout_rate"], 0.041);
    // Without --client-timeout the unit changes no figure: no warning, no mark.
    let (j, stderr) = report(&path, &["--log-side", "server"]);
    assert!(unmarked(&j));
    assert!(!stderr.contains("--duration-unit"), "{stderr}");
}

/// Envoy's `%UPSTREAM_REQUEST_ATTEMPT_COUNT%` (tries, 1 = not retried) measures the proxy's
/// layer: 90 attempts tried once, 8 twice, 2 three times make 1.12 tries a client attempt,
/// at most 3. Below the scenario's one client layer (3 retries: 4 attempts), the layers
/// figure is 1.12x expected (no timeouts) and 12x at most, where the model's own would say
/// 16x if the proxy made the client's 4 tries; said beside the clients' retries, in the load
/// section, in JSON and CSV.
#[test]
fn the_proxys_measured_tries_make_the_layers_figure() {
    let mut text = String::from(
        "start_time,method,path,response_code,duration,upstream_request_attempt_count\n",
    );
    for i in 0..100 {
        let tries = match i % 50 {
            0 => 3,
            1..=4 => 2,
            _ => 1,
        };
        text += &format!(
            "2026-11-01T{:02}:{:02}:00Z,POST,/v1/pay,200,12,{tries}\n",
            i / 5,
            (i % 5) * 12
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "envoy.csv", text.as_bytes());
    let args = ["--retries", "3"];
    let (j, stderr) = report(&path, &args);
    let a = &j["observed"]["amplification"];
    assert_eq!(a["layer"], "proxy", "{stderr}");
    assert_eq!(a["attempts"], 100);
    assert!(
        (a["attempts_mean"].as_f64().unwrap() - 1.12).abs() < 1e-12,
        "{a}"
    );
    assert_eq!(a["attempts_max"], 3);
    assert_eq!(a["layers"], 2);
    assert!(
        (a["expected"].as_f64().unwrap() - 1.12).abs() < 1e-12,
        "{a}"
    );
    assert_eq!(a["worst_case"], 12.0);
    assert_eq!(a["modelled_worst_case"], 16.0);
    assert_eq!(j["amplification"]["worst_case"], 4.0);
    let table = rendered(&path, &args, "table");
    assert!(
        table.contains("the layers figure with the proxy's layer measured: 1.12x expected, 12x at most at the backend an intent, over 2 layers (the model's 16x if the proxy made the client's tries)"),
        "{table}"
    );
    let load: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("Extra load from retries"))
        .take(6)
        .collect();
    let shown = |label: &str, value: &str| {
        load.iter()
            .any(|l| l.trim_start().starts_with(label) && l.ends_with(&format!(" {value}")))
    };
    assert!(shown("+ proxy's tries, expected", "1.12x"), "{load:?}");
    assert!(shown("+ proxy's tries, at most", "12x"), "{load:?}");
    let md = rendered(&path, &args, "markdown");
    assert!(
        md.contains("| attempts at 1 layer and the proxy's measured tries, at most | 12x |"),
        "{md}"
    );
    let row = csv_row(&path, &args);
    let at = |n: &str| row[n].as_str();
    assert_eq!(at("observed.amplification.attempts_max"), "3");
    assert_eq!(at("observed.amplification.worst_case"), "12");
    assert_eq!(at("observed.amplification.layers"), "2");
    // Without a proxy-attempts column there is nothing measured: null, empty, not shown.
    let plain = text
        .replace(",upstream_request_attempt_count", "")
        .replace(",1\n", "\n")
        .replace(",2\n", "\n")
        .replace(",3\n", "\n");
    let path = write(dir.path(), "plain.csv", plain.as_bytes());
    let (j, _) = report(&path, &args);
    assert!(j["observed"]["amplification"].is_null());
    assert!(!rendered(&path, &args, "table").contains("proxy's tries"));
}

/// A known format's duration unit is its documentation's, never inferred nor assumed: Caddy
/// `duration` seconds, Envoy `%DURATION%` milliseconds, Traefik `Duration` nanoseconds,
/// nginx `$request_time` seconds, IIS `time-taken` milliseconds, ALB seconds.
#[test]
fn known_formats_read_durations_in_their_documented_units() {
    let cases = [
        ("formats", "caddy.json", "duration=duration (s)"),
        ("formats", "envoy.json", "duration=duration (ms)"),
        ("formats", "envoy_default.log", "duration=duration (ms)"),
        ("formats", "istio.log", "duration=duration (ms)"),
        ("formats", "traefik.json", "duration=Duration (ns)"),
        (
            "formats",
            "nginx_upstreaminfo.log",
            "duration=request_time (s)",
        ),
        ("formats", "nginx.json", "duration=request_time (s)"),
        ("platforms", "iis-filebeat.log", "duration=time-taken (ms)"),
        ("formats", "alb.log", "duration=duration_s (s)"),
    ];
    for (folder, name, columns) in cases {
        let path = crate::common::fixture(folder, name);
        let out = dupcost()
            .args(["logs", &path, "--client-timeout", "15s"])
            .args(["--methods", "GET,HEAD,POST,PUT,PATCH,DELETE"])
            .args(["--requests-per-day", "1", "--timeout-rate", "1%"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(text.contains(columns), "{name}: {text}");
        assert!(!stderr.contains("--duration-unit"), "{name}: {stderr}");
    }
}

/// Values that each write an s after the number (`2.5s`) are read as seconds, and the warning
/// says so by how they are written, not by a range they fit.
#[test]
fn values_written_with_an_s_are_seconds_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("time,method,path,status,duration\n");
    for i in 0..60 {
        csv += &format!(
            "2026-01-01T00:{:02}:{:02}Z,POST,/pay,200,{}.5s\n",
            i / 60,
            i % 60,
            i % 3
        );
    }
    let path = write(dir.path(), "receiver.csv", csv.as_bytes());
    let out = dupcost()
        .args(["logs", &path, "--client-timeout", "2s", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("are each written with an s after the number, so they are read as seconds")
            && !stderr.contains("fit one unit only"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // A third of the attempts took 2.5 s: timed out at a 2 s client timeout.
    let rate = report["inputs"]["timeout_rate"].as_f64().unwrap();
    assert!((rate - 20.0 / 60.0).abs() < 1e-12, "{report:#}");
}
