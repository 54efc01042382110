//! Envelopes (issue 22) through the real binary: the same traffic read bare and inside every
//! envelope gives the same figures (rows, timeout rate, requests a day, the succeeded share,
//! with `--outcomes` too), with no flag but the inner `--log-format`; parts of lines are
//! joined, lines on stderr and other non-access lines are skipped and counted, never rows;
//! JSON documents are read one record at a time; and broken envelopes are bad rows or one
//! clear error, never a panic.

use crate::generator;
use crate::keyless;

use std::path::Path;

use crate::common::{dupcost, fixture, json, usage_error, write};
use crate::generator::{Config, Format, NGINX_LOG_FORMAT};
use serde_json::Value;

/// A JSON string literal of `s`.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The envelope's time of line `n`: any valid time (the access line's own time wins).
fn time(n: usize) -> String {
    format!(
        "2026-11-0{}T{:02}:{:02}:05.{:09}Z",
        1 + n % 7,
        n % 24,
        n % 60,
        n
    )
}

/// An nginx error-log line, as nginx writes to stderr beside its access log.
const ERROR_LINE: &str =
    "2026/11/01 00:05:00 [error] 29#29: *1 upstream timed out (110: Connection timed out)";

/// `lines` wrapped in `envelope`, with the extras a real file has: stderr lines, start-up
/// messages, parts of long lines.
fn wrap(envelope: &str, lines: &[&str]) -> String {
    let mut out = String::new();
    let doc = |records: Vec<String>| records.join(",\n  ");
    match envelope {
        "cri" => {
            out.push_str(&format!(
                "{} stdout F /docker-entrypoint.sh: Configuration complete; ready for start up\n",
                time(0)
            ));
            for (n, line) in lines.iter().enumerate() {
                if n % 7 == 3 {
                    // A long line in three parts.
                    let (a, rest) = line.split_at(line.len() / 3);
                    let (b, c) = rest.split_at(rest.len() / 2);
                    for (part, tag) in [(a, "P"), (b, "P"), (c, "F")] {
                        out.push_str(&format!("{} stdout {tag} {part}\n", time(n)));
                    }
                } else {
                    out.push_str(&format!("{} stdout F {line}\n", time(n)));
                }
                if n % 50 == 10 {
                    out.push_str(&format!("{} stderr F {ERROR_LINE}\n", time(n)));
                }
            }
        }
        "docker" => {
            for (n, line) in lines.iter().enumerate() {
                if n % 9 == 4 {
                    let (a, b) = line.split_at(line.len() / 2);
                    out.push_str(&format!(
                        "{{\"log\":{},\"stream\":\"stdout\",\"time\":\"{}\"}}\n",
                        q(a),
                        time(n)
                    ));
                    out.push_str(&format!(
                        "{{\"log\":{},\"stream\":\"stdout\",\"time\":\"{}\"}}\n",
                        q(&format!("{b}\n")),
                        time(n)
                    ));
                } else {
                    out.push_str(&format!(
                        "{{\"log\":{},\"stream\":\"stdout\",\"time\":\"{}\"}}\n",
                        q(&format!("{line}\n")),
                        time(n)
                    ));
                }
                if n % 50 == 10 {
                    out.push_str(&format!(
                        "{{\"log\":{},\"stream\":\"stderr\",\"time\":\"{}\"}}\n",
                        q(&format!("{ERROR_LINE}\n")),
                        time(n)
                    ));
                }
            }
        }
        "syslog5424" => {
            for (n, line) in lines.iter().enumerate() {
                let sd = if n % 3 == 0 {
                    r#"[meta sequenceId="1" note="a \] b"]"#
                } else {
                    "-"
                };
                out.push_str(&format!(
                    "<190>1 {} web-1 nginx 29 - {sd} {line}\n",
                    time(n)
                ));
            }
        }
        "syslog3164" => {
            for line in lines {
                out.push_str(&format!("<190>Nov  1 00:05:00 web-1 nginx[29]: {line}\n"));
            }
        }
        "rsyslog" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!("{} web-1 nginx: {line}\n", time(n)));
            }
        }
        // A sender that writes no syslog tag (Fastly's blank format): two spaces after the
        // host.
        "rsyslog-untagged" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!("{} cache-cdg20764  {line}\n", time(n)));
            }
        }
        "kubectl" => {
            for line in lines {
                out.push_str(&format!("[pod/web-7d9f-abcde/nginx] {line}\n"));
            }
        }
        "kubectl-timestamps" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!("[pod/web-7d9f-abcde/nginx] {} {line}\n", time(n)));
            }
        }
        "stern" => {
            for line in lines {
                out.push_str(&format!("web-7d9f-abcde nginx {line}\n"));
            }
        }
        "timestamped" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!("{} {line}\n", time(n)));
            }
        }
        "logcli" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!(
                    "{} {{app=\"web\", pod=\"web-7d9f-abcde\"}} {line}\n",
                    time(n)
                ));
            }
        }
        "filebeat" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!(
                    "{{\"@timestamp\":\"{}\",\"host\":{{\"name\":\"web-1\"}},\"message\":{}}}\n",
                    time(n),
                    q(line)
                ));
            }
        }
        "ecs" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!(
                    "{{\"@timestamp\":\"{}\",\"event\":{{\"original\":{},\"dataset\":\"nginx.access\"}},\"message\":\"parsed\"}}\n",
                    time(n),
                    q(line)
                ));
            }
        }
        "fluent-bit" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!(
                    "{{\"date\":{}.5,\"log\":{},\"kubernetes\":{{\"pod_name\":\"web\"}}}}\n",
                    1_793_491_200 + n,
                    q(line)
                ));
            }
        }
        "loki-jsonl" => {
            for (n, line) in lines.iter().enumerate() {
                out.push_str(&format!(
                    "{{\"labels\":{{\"app\":\"web\"}},\"line\":{},\"timestamp\":\"{}\"}}\n",
                    q(line),
                    time(n)
                ));
            }
        }
        "cloudwatch" => {
            let records = lines
                .iter()
                .enumerate()
                .map(|(n, line)| {
                    format!(
                        "{{\n      \"logStreamName\": \"web/nginx/1\",\n      \"timestamp\": {},\n      \"message\": {},\n      \"ingestionTime\": 1793491300000,\n      \"eventId\": \"{n}\"\n    }}",
                        1_793_491_200_000u64 + n as u64,
                        q(line)
                    )
                })
                .collect();
            out.push_str(&format!(
                "{{\n  \"events\": [\n  {}\n  ],\n  \"searchedLogStreams\": [\n    {{\"logStreamName\": \"web/nginx/1\", \"searchedCompletely\": true}}\n  ]\n}}\n",
                doc(records)
            ));
        }
        "array" => {
            let records = lines
                .iter()
                .map(|line| {
                    format!(
                        "{{\n    \"message\": {},\n    \"tags\": [\"a\", \"b\"]\n  }}",
                        q(line)
                    )
                })
                .collect();
            out.push_str(&format!("[\n  {}\n]\n", doc(records)));
        }
        "azure" => {
            let records = lines
                .iter()
                .map(|line| format!("{{\"category\": \"x\", \"message\": {}}}", q(line)))
                .collect();
            out.push_str(&format!("{{\"records\": [{}]}}", doc(records)));
        }
        "pretty" => {
            for line in lines {
                out.push_str(&format!(
                    "{{\n  \"message\": {},\n  \"n\": 1\n}}\n",
                    q(line)
                ));
            }
        }
        other => panic!("no envelope {other}"),
    }
    out
}

/// Every envelope the tests wrap lines in.
const ENVELOPES: [&str; 19] = [
    "cri",
    "docker",
    "syslog5424",
    "syslog3164",
    "rsyslog",
    "rsyslog-untagged",
    "kubectl",
    "kubectl-timestamps",
    "stern",
    "timestamped",
    "logcli",
    "filebeat",
    "ecs",
    "fluent-bit",
    "loki-jsonl",
    "cloudwatch",
    "array",
    "azure",
    "pretty",
];

/// The figures that must not depend on the envelope: the inputs measured and every observed
/// figure but the files' names and envelopes.
fn figures(j: &Value) -> Value {
    let mut j = j.clone();
    j["observed"]["files"].take();
    serde_json::json!({"inputs": j["inputs"], "observed": j["observed"], "duplicates": j["duplicates"]})
}

/// The generated nginx traffic, bare and inside every envelope, with and without its
/// backend's log: the same figures.
#[test]
fn the_same_traffic_gives_the_same_figures_in_every_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 1500,
        seed: 22,
        format: Format::NginxLog,
        request_ids: true,
        unknown_share: 0.4,
        ..Config::default()
    };
    let mut bare = Vec::new();
    let mut backend = Vec::new();
    let truth = generator::generate_with_backend(&cfg, &mut bare, Some(&mut backend)).unwrap();
    let bare = String::from_utf8(bare).unwrap();
    let lines: Vec<&str> = bare.lines().collect();
    let bare_path = write(dir.path(), "bare.log", bare.as_bytes());
    let backend_path = write(dir.path(), "backend.csv", &backend);
    let format = format!("{NGINX_LOG_FORMAT} $request_id");
    let base = ["--log-format", &format, "--max-unknown", "1"];
    let read = |path: &str, outcomes: bool| {
        let mut args = vec!["logs", path];
        args.extend(base);
        if outcomes {
            args.extend(["--outcomes", &backend_path]);
        }
        json(&args)
    };
    let want = read(&bare_path, false);
    let want_joined = read(&bare_path, true);
    assert_eq!(want["observed"]["rows"], truth.rows);
    assert_eq!(want["observed"]["bad_rows"], 0);
    assert!(want_joined["inputs"]["succeeded_share"].as_f64().unwrap() > 0.0);
    for envelope in ENVELOPES {
        let path = write(
            dir.path(),
            &format!("{envelope}.log"),
            wrap(envelope, &lines).as_bytes(),
        );
        let got = read(&path, false);
        assert_eq!(figures(&got), figures(&want), "{envelope}");
        let file = &got["observed"]["files"][0];
        assert_eq!(file["detected"], false, "{envelope}: {file}");
        assert!(
            file["envelope"].is_string() || file["document"].is_string(),
            "{envelope}: {file}"
        );
        let got = read(&path, true);
        assert_eq!(
            figures(&got),
            figures(&want_joined),
            "{envelope} with --outcomes"
        );
    }
}

/// The evidence names the envelope and counts what was skipped.
#[test]
fn the_evidence_names_the_envelope_and_the_skipped_lines() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 300,
        seed: 5,
        format: Format::NginxLog,
        ..Config::default()
    };
    let mut bare = Vec::new();
    generator::generate(&cfg, &mut bare).unwrap();
    let bare = String::from_utf8(bare).unwrap();
    let lines: Vec<&str> = bare.lines().collect();
    let path = write(dir.path(), "cri.log", wrap("cri", &lines).as_bytes());
    let out = dupcost()
        .args(["logs", &path, "--log-format", NGINX_LOG_FORMAT])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("cri.log: CRI container log, inside: nginx log_format"),
        "{text}"
    );
    assert!(
        text.contains("6 stderr lines skipped: nginx error log"),
        "{text}"
    );
    assert!(
        text.contains("1 line skipped: container start-up messages"),
        "{text}"
    );
    let j = json(&["logs", &path, "--log-format", NGINX_LOG_FORMAT]);
    let file = &j["observed"]["files"][0];
    assert_eq!(file["envelope"], "CRI container log");
    assert_eq!(file["skipped"][1]["stream"], "stderr");
    assert_eq!(file["skipped"][1]["lines"], 6);
    assert_eq!(j["observed"]["bad_rows"], 0);
    // --strict: skipped lines are not bad rows.
    json(&["logs", &path, "--log-format", NGINX_LOG_FORMAT, "--strict"]);
}

/// The CRI-wrapped ingress-nginx sample: detected through the envelope, every line read,
/// the client address not the container's time.
#[test]
fn the_cri_wrapped_ingress_nginx_sample_reads_like_its_lines() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/ingress-nginx.cri.log");
    let sample = sample.to_str().unwrap();
    let args = ["--min-span", "1m", "--succeeded-share", "0.5"];
    let mut with = vec!["logs", sample];
    with.extend(args);
    let j = json(&with);
    let file = &j["observed"]["files"][0];
    assert_eq!(file["envelope"], "CRI container log", "{file}");
    assert_eq!(file["input_format"], "ingress-nginx upstreaminfo");
    assert_eq!(file["detected"], true);
    assert_eq!(j["observed"]["bad_rows"], 0);
    // The same lines unwrapped by hand.
    let text = std::fs::read_to_string(sample).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bare: String = text
        .lines()
        .filter_map(|l| l.splitn(4, ' ').nth(3).filter(|_| l.contains(" stdout F ")))
        .filter(|text| text.starts_with("10."))
        .map(|text| format!("{text}\n"))
        .collect();
    let bare = write(dir.path(), "bare.log", bare.as_bytes());
    let mut with = vec!["logs", bare.as_str()];
    with.extend(args);
    let want = json(&with);
    assert_eq!(figures(&j)["inputs"], figures(&want)["inputs"]);
    assert_eq!(j["observed"]["rows"], want["observed"]["rows"]);
    assert_eq!(j["observed"]["intents"], want["observed"]["intents"]);
    assert_eq!(j["observed"]["rows"], 63);
    // Every line accounted for: 63 rows, 7 banner lines, 3 on stderr.
    let skipped: u64 = file["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["lines"].as_u64().unwrap())
        .sum();
    assert_eq!(63 + skipped, text.lines().count() as u64);
    assert_eq!(
        j["observed"]["attempts_per_intent"], want["observed"]["attempts_per_intent"],
        "retries are grouped by the client's address, not the container's time"
    );
}

/// An access line without a time of its own takes its envelope's, and says so.
#[test]
fn a_line_without_a_time_takes_the_envelopes() {
    let dir = tempfile::tempdir().unwrap();
    let format = r#"$remote_addr "$request" $status $request_time $upstream_status"#;
    let mut cri = String::new();
    for n in 0..40 {
        let status = if n % 10 == 0 { "504 200" } else { "200 200" };
        cri.push_str(&format!(
            "2026-11-01T00:{:02}:00.000000000Z stdout F 10.0.0.{n} \"POST /orders HTTP/1.1\" {status}\n",
            n
        ));
    }
    let path = write(
        dir.path(),
        "cri.log",
        cri.replace("504 200", "504 1.000 200")
            .replace("200 200\n", "200 0.010 200\n")
            .as_bytes(),
    );
    let j = json(&["logs", &path, "--log-format", format, "--min-span", "1m"]);
    let o = &j["observed"];
    assert_eq!(o["rows"], 40, "{o}");
    assert_eq!(o["first_timestamp"], "2026-11-01T00:00:00Z");
    assert_eq!(o["last_timestamp"], "2026-11-01T00:39:00Z");
    let out = dupcost()
        .args(["logs", &path, "--log-format", format, "--min-span", "1m"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("each takes its envelope's time"), "{text}");
}

/// Broken envelopes: bad rows with their line, or one clear error; never a panic.
#[test]
fn broken_envelopes_are_bad_rows_or_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let line = r#"10.0.0.1 - - [01/Nov/2026:00:05:00 +0000] "POST /a HTTP/1.1" 200 1 "-" "c" 0.1 200 "k1""#;
    let mut cri = String::new();
    for n in 0..10 {
        cri.push_str(&format!("2026-11-01T00:05:0{n}.1Z stdout F {line}\n"));
    }
    cri.push_str(&format!("2026-11-01T00:05:bad stdout F {line}\n"));
    cri.push_str(&format!("2026-11-01T00:05:00.1Z stdout P {line}\n"));
    let path = write(dir.path(), "broken.log", cri.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--log-format",
        NGINX_LOG_FORMAT,
        "--requests-per-day",
        "1000",
    ]);
    assert_eq!(j["observed"]["rows"], 12);
    assert_eq!(j["observed"]["bad_rows"], 2);
    let err = usage_error(&["logs", &path, "--log-format", NGINX_LOG_FORMAT, "--strict"]);
    assert!(
        err.contains("broken.log:11") && err.contains("CRI"),
        "{err}"
    );
    // A part with no last part at the end of the input.
    let err = usage_error(&[
        "logs",
        &write(
            dir.path(),
            "cut.log",
            cri.replace(&format!("2026-11-01T00:05:bad stdout F {line}\n"), "")
                .as_bytes(),
        ),
        "--log-format",
        NGINX_LOG_FORMAT,
        "--strict",
    ]);
    assert!(
        err.contains("cut.log:11") && err.contains("no last part"),
        "{err}"
    );
    // A truncated JSON document.
    let doc = format!("[\n  {{\"message\": {}}},\n  {{\"message\": ", q(line));
    let out = dupcost()
        .args([
            "logs",
            &write(dir.path(), "cut.json", doc.as_bytes()),
            "--log-format",
            NGINX_LOG_FORMAT,
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cut.json") && stderr.contains("truncated"),
        "{stderr}"
    );
    assert!(!out.status.success());
    // An absurd syslog PRI is a bad row; --envelope names one that does not fit.
    let mut syslog = String::new();
    for _ in 0..9 {
        syslog.push_str(&format!(
            "<190>1 2026-11-01T00:05:00Z web nginx - - - {line}\n"
        ));
    }
    syslog.push_str(&format!(
        "<99999>1 2026-11-01T00:05:00Z web nginx - - - {line}\n"
    ));
    let path = write(dir.path(), "syslog.log", syslog.as_bytes());
    let err = usage_error(&["logs", &path, "--log-format", NGINX_LOG_FORMAT, "--strict"]);
    assert!(
        err.contains("syslog.log:10") && err.contains("PRI"),
        "{err}"
    );
    let err = usage_error(&["logs", &path, "--envelope", "cri"]);
    assert!(
        err.contains("--envelope cri") && err.contains("time"),
        "{err}"
    );
    let err = usage_error(&["logs", &path, "--envelope", "gelf"]);
    assert!(err.contains("unknown envelope"), "{err}");
    let err = usage_error(&["logs", &path, "--envelope", "cri", "--input-format", "csv"]);
    assert!(
        err.contains("--envelope cri") && err.contains("CSV"),
        "{err}"
    );
}

/// `--envelope none` reads the lines as they are; a named envelope is used as named.
#[test]
fn the_envelope_can_be_named_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let line = r#"10.0.0.1 - - [01/Nov/2026:00:05:00 +0000] "POST /a HTTP/1.1" 200 1 "-" "c" 0.1 200 "k1""#;
    let text: String = (0..20)
        .map(|n| format!("[pod/web-1/nginx] 2026-11-01T00:05:{n:02}.1Z {line}\n"))
        .collect();
    let path = write(dir.path(), "k.log", text.as_bytes());
    let j = json(&[
        "logs",
        &path,
        "--log-format",
        NGINX_LOG_FORMAT,
        "--envelope",
        "kubectl-timestamps",
        "--requests-per-day",
        "1000",
    ]);
    assert_eq!(
        j["observed"]["files"][0]["envelope"],
        "kubectl logs --prefix --timestamps"
    );
    assert_eq!(j["observed"]["rows"], 20);
    // Detected through the envelope without the flag; nginx's first field never takes in a
    // prefix (the line is refused instead).
    let j = json(&["logs", &path, "--requests-per-day", "1000"]);
    assert_eq!(
        j["observed"]["files"][0]["envelope"],
        "kubectl logs --prefix --timestamps"
    );
    assert_eq!(j["observed"]["rows"], 20);
    let err = usage_error(&[
        "logs",
        &path,
        "--envelope",
        "none",
        "--input-format",
        "nginx",
        "--requests-per-day",
        "1000",
    ]);
    assert!(
        err.contains("not a log format dupcost knows as nginx"),
        "{err}"
    );
}

/// One unwrapped line as text: (text, time, stream, partial).
type Line = (String, Option<String>, String, bool);

/// Each line of a fixture, unwrapped by `envelope`.
fn unwrapped(envelope: &str, name: &str) -> Vec<Result<Line, String>> {
    let dupcost::logs::EnvelopeChoice::Named(envelope) = envelope.parse().unwrap() else {
        panic!("{envelope}");
    };
    let bytes = std::fs::read(fixture("envelopes", name)).unwrap();
    let mut scratch = Vec::new();
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|line| {
            envelope.unwrap(line, &mut scratch).map(|u| {
                (
                    String::from_utf8_lossy(u.text).into_owned(),
                    u.time.map(|t| String::from_utf8_lossy(t).into_owned()),
                    format!("{:?}", u.stream),
                    u.partial,
                )
            })
        })
        .collect()
}

/// The shippers' and the RFCs' own samples unwrap to the messages they expect.
#[test]
fn real_published_samples_unwrap_as_the_shippers_do() {
    let cri = unwrapped("cri", "beats-cri.log");
    let texts: Vec<_> = cri.iter().map(|u| u.as_ref().unwrap()).collect();
    assert_eq!(texts[1].2, "Stderr");
    assert_eq!(
        texts[1].0,
        "2017-11-12 23:32:21.212 [ERROR][77] table.go 111: error"
    );
    // The P part and its F join to the message Filebeat expects.
    assert!(texts[3].3 && !texts[4].3);
    assert_eq!(
        format!("{}{}", texts[3].0, texts[4].0),
        "2017-10-12 13:32:21.212 [INFO][88] table.go 710: Invalidating dataplane cache error"
    );
    assert_eq!(
        texts[5].0,
        "2017-09-12 22:32:21.212 [INFO][88] table.go 710: Invalidating dataplane cache"
    );
    assert_eq!(
        texts[0].1.as_deref(),
        Some("2017-10-12T13:32:21.232861448Z")
    );

    let docker = unwrapped("docker", "beats-docker.log");
    let d: Vec<_> = docker.iter().map(|u| u.as_ref().unwrap()).collect();
    assert_eq!(
        d[0].0,
        "1:M 09 Nov 13:27:36.276 # User requested shutdown..."
    );
    assert_eq!(d[2].2, "Stderr");
    assert!(d[3].3 && !d[4].3);
    assert_eq!(format!("{}{}", d[3].0, d[4].0), d[0].0);

    let syslog = unwrapped("syslog5424", "rfc5424.log");
    let s: Vec<_> = syslog.iter().map(|u| u.as_ref().unwrap()).collect();
    assert_eq!(
        s[0].0, "'su root' failed for lonvick on /dev/pts/8",
        "the BOM is dropped"
    );
    assert_eq!(s[1].0, "%% It's time to make the do-nuts.");
    assert_eq!(s[1].1.as_deref(), Some("2003-08-24T05:14:15.000003-07:00"));
    assert_eq!(s[2].0, "An application event log entry...");
    assert_eq!(s[3].0, "", "structured data and no message");
    let bsd = unwrapped("syslog", "rfc3164.log");
    let b: Vec<_> = bsd.iter().map(|u| u.as_ref().unwrap()).collect();
    assert_eq!(b[0].0, "'su root' failed for lonvick on /dev/pts/8");
    assert_eq!(b[1].0, "Use the BFG!");
    assert_eq!(b[0].1, None, "no year: the time is not used");
}

/// The real CRI-wrapped ingress-nginx line and the real Docker-wrapped Apache line are read
/// through their envelopes, every line a row.
#[test]
fn real_published_access_lines_are_read_through_their_envelopes() {
    let j = json(&[
        "logs",
        &fixture("envelopes", "cri-ingress-nginx.log"),
        "--requests-per-day",
        "1000",
        "--succeeded-share",
        "0.5",
    ]);
    let file = &j["observed"]["files"][0];
    assert_eq!(file["envelope"], "CRI container log");
    assert_eq!(file["input_format"], "ingress-nginx upstreaminfo");
    assert_eq!(j["observed"]["rows"], 1);
    assert_eq!(j["observed"]["mutating_attempts"], 1);
    assert_eq!(j["observed"]["first_timestamp"], "2022-11-04T10:24:57Z");
    // A GET only: read (one row); the timeout rate it cannot tell is the default, assumed
    // from 0 of 0 (0% to 100%), and refused only where scripts ask for a measure.
    let j = json(&[
        "logs",
        &fixture("envelopes", "fluent-bit-docker-apache.log"),
        "--requests-per-day",
        "1000",
    ]);
    let k = &j["input_kinds"]["timeout_rate"];
    assert_eq!(
        (&k["kind"], &k["reason"], &k["bounds"]),
        (
            &"assumed".into(),
            &"too_few".into(),
            &serde_json::json!([0.0, 1.0])
        ),
        "{k}"
    );
    let err = usage_error(&[
        "logs",
        &fixture("envelopes", "fluent-bit-docker-apache.log"),
        "--requests-per-day",
        "1000",
        "--require-measured",
    ]);
    assert!(
        err.contains("no mutating") && err.contains("--timeout-rate"),
        "{err}"
    );
    let j = json(&[
        "logs",
        &fixture("envelopes", "fluent-bit-docker-apache.log"),
        "--requests-per-day",
        "1000",
        "--timeout-rate",
        "0.01",
        "--succeeded-share",
        "0.5",
    ]);
    let file = &j["observed"]["files"][0];
    assert_eq!(file["envelope"], "Docker json-file", "{file}");
    assert_eq!(j["observed"]["rows"], 1);
    assert_eq!(j["observed"]["bad_rows"], 0);
}

/// A CRI file read in pieces by two threads (a piece may begin inside a line in parts) gives
/// the tally of the file read whole.
#[test]
fn parts_across_pieces_are_read_once() {
    use dupcost::logs::{LogInput, LogOptions, analyze};
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 3000,
        seed: 8,
        format: Format::NginxLog,
        ..Config::default()
    };
    let mut bare = Vec::new();
    generator::generate(&cfg, &mut bare).unwrap();
    let bare = String::from_utf8(bare).unwrap();
    let lines: Vec<&str> = bare.lines().collect();
    let path = write(dir.path(), "cri.log", wrap("cri", &lines).as_bytes());
    let sources = [LogInput::Path(path.into())];
    let opts = |threads, split_bytes| LogOptions {
        log_format: Some(NGINX_LOG_FORMAT.into()),
        threads,
        split_bytes,
        ..LogOptions::default()
    };
    let whole = analyze(&sources, &opts(1, u64::MAX)).unwrap();
    assert_eq!(whole.tally.rows, lines.len() as u64);
    for split in [4096, 10_000, 65_536] {
        let pieces = analyze(&sources, &opts(2, split)).unwrap();
        assert!(pieces.files[0].pieces > 1, "read in pieces");
        assert_eq!(pieces.tally, whole.tally, "split at {split} bytes");
        assert_eq!(pieces.tally.skipped, whole.tally.skipped);
    }
}

/// Every line format the generator writes (Envoy and Istio text and JSON, HAProxy, Apache,
/// nginx JSON, Caddy, ALB), detected through CRI and Docker's envelopes: the figures of the
/// bare file.
#[test]
fn every_format_reads_the_same_inside_cri_and_docker() {
    let dir = tempfile::tempdir().unwrap();
    let formats = [
        Format::EnvoyJson,
        Format::EnvoyLog,
        Format::IstioLog,
        Format::HaproxyLog,
        Format::ApacheLog,
        Format::NginxJson,
        Format::CaddyJson,
        Format::AlbLog,
    ];
    for format in formats {
        let cfg = Config {
            rows: 400,
            seed: 4,
            format,
            ..Config::default()
        };
        let mut bare = Vec::new();
        generator::generate(&cfg, &mut bare).unwrap();
        let bare = String::from_utf8(bare).unwrap();
        let lines: Vec<&str> = bare.lines().collect();
        let bare_path = write(dir.path(), "bare.log", bare.as_bytes());
        let args = ["--max-unknown", "100%", "--succeeded-share", "0.5"];
        let read = |path: &str| {
            let mut all = vec!["logs", path];
            all.extend(args);
            json(&all)
        };
        let want = read(&bare_path);
        for envelope in ["cri", "docker"] {
            let path = write(dir.path(), "wrapped.log", wrap(envelope, &lines).as_bytes());
            let got = read(&path);
            assert_eq!(figures(&got), figures(&want), "{format:?} in {envelope}");
            let (g, w) = (&got["observed"]["files"][0], &want["observed"]["files"][0]);
            assert_eq!(
                g["input_format"], w["input_format"],
                "{format:?} in {envelope}"
            );
            assert!(g["envelope"].is_string(), "{format:?} in {envelope}: {g}");
        }
    }
}

/// A keyless log (issue 24): its clients are fingerprinted by address, X-Forwarded-For, user
/// agent, method, path and request length. Inside every envelope, the same fingerprints: a
/// container's or syslog's prefix (a pod, a host name, a stream, a time) never becomes part of
/// a client's identity, and the intents, retries and duplicates are those of the bare lines.
#[test]
fn fingerprints_are_the_same_inside_every_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv_bytes = Vec::new();
    let truth = keyless::generate_keyless(
        &keyless::KeylessConfig {
            intents: 600,
            seed: 31,
            days: 0.2,
            clients: 150,
            timeout_rate: 0.1,
            ..keyless::KeylessConfig::default()
        },
        &mut csv_bytes,
    )
    .unwrap();
    // The same rows as nginx writes them with this log_format.
    let format = r#"$remote_addr $time_iso8601 "$http_x_forwarded_for" "$request" $status $upstream_status $request_length "$http_user_agent""#;
    let mut reader = csv::Reader::from_reader(&csv_bytes[..]);
    let mut bare = String::new();
    for row in reader.records() {
        let r = row.unwrap();
        // timestamp,method,path,status,upstream_status,duration_ms,remote_addr,
        // x_forwarded_for,user_agent,request_length
        bare.push_str(&format!(
            "{} {} \"{}\" \"{} {} HTTP/1.1\" {} {} {} \"{}\"\n",
            &r[6], &r[0], &r[7], &r[1], &r[2], &r[3], &r[4], &r[9], &r[8]
        ));
    }
    let lines: Vec<&str> = bare.lines().collect();
    let read = |path: &str| {
        json(&[
            "logs",
            path,
            "--log-format",
            format,
            "--intents",
            "fingerprint",
            "--max-unknown",
            "100%",
        ])
    };
    let want = read(&write(dir.path(), "bare.log", bare.as_bytes()));
    let observed = &want["observed"];
    assert_eq!(observed["intent_grouping"], "fingerprint");
    assert_eq!(observed["mutating_attempts"], truth.mutating_attempts);
    // The bare lines group as the generator's CSV does.
    let from_csv = json(&[
        "logs",
        &write(dir.path(), "keyless.csv", &csv_bytes),
        "--max-unknown",
        "100%",
    ]);
    assert_eq!(observed["intents"], from_csv["observed"]["intents"]);
    assert_eq!(
        observed["attempts_per_intent"],
        from_csv["observed"]["attempts_per_intent"]
    );
    assert!(observed["intents"].as_u64().unwrap() < truth.mutating_attempts);
    for envelope in ENVELOPES {
        let path = write(
            dir.path(),
            &format!("{envelope}.log"),
            wrap(envelope, &lines).as_bytes(),
        );
        // rsyslog's `TIME host tag:` before a line with an RFC 3339 time of its own is told
        // from a timestamped line by its `host tag:` (issue 22): no --envelope needed.
        let got = read(&path);
        assert_eq!(figures(&got), figures(&want), "{envelope}");
        if envelope == "rsyslog" {
            assert_eq!(
                got["observed"]["files"][0]["envelope"], "syslog RFC 3164",
                "{got}"
            );
        }
    }
}

/// nginx `escape=json` lines are read in place when bare (the log's shape, no copy) and
/// copied out of every envelope: the same figures either way, with lines of another spacing,
/// key order or escapes among them (read by the scanner).
#[test]
fn json_lines_read_in_place_give_the_figures_read_through_envelopes() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 1500,
        seed: 38,
        format: Format::NginxJson,
        unknown_share: 0.4,
        ..Config::default()
    };
    let mut bare = Vec::new();
    let truth = generator::generate(&cfg, &mut bare).unwrap();
    let bare = String::from_utf8(bare).unwrap();
    // Every ninth line is written otherwise: a space after each colon, or its URI escaped.
    let lines: Vec<String> = bare
        .lines()
        .enumerate()
        .map(|(n, line)| match n % 9 {
            4 => line.replace("\":\"", "\": \""),
            7 => line.replace("\"request_uri\":\"/", "\"request_uri\":\"\\/"),
            _ => line.to_string(),
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let bare_path = write(dir.path(), "bare.log", (lines.join("\n") + "\n").as_bytes());
    let read = |path: &str| json(&["logs", path, "--max-unknown", "1"]);
    let want = read(&bare_path);
    assert_eq!(want["observed"]["rows"], truth.rows);
    assert_eq!(want["observed"]["bad_rows"], 0);
    assert_eq!(
        want["observed"]["files"][0]["input_format"],
        "JSON lines (nginx escape=json)"
    );
    for envelope in ["cri", "docker", "syslog5424"] {
        let path = write(
            dir.path(),
            &format!("{envelope}.log"),
            wrap(envelope, &lines).as_bytes(),
        );
        assert_eq!(figures(&read(&path)), figures(&want), "{envelope}");
    }
}
