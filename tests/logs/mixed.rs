//! One file, several shapes (issue 22) through the real binary: the same generated traffic
//! written in one format, then half in one layout and half in another (a configuration
//! changed mid-file), or line by line in two (two containers in one log, bare and inside
//! CRI), gives the same figures with no flag; the evidence and `observed.files[].formats` say
//! which lines each format read; a line no format reads is still a bad row with its number;
//! formats whose roles differ say so, and one that lacks what the options need is refused
//! line by line; a named format reads only the lines that fit it; and every refusal names
//! the line, the closest format, where it stopped and the flag that settles it.

use crate::common;
use crate::generator;

use crate::common::{dupcost, usage_error, write};
use crate::generator::{Config, Format};
use crate::support;
use serde_json::{Value, json as j};

/// The generated traffic as Envoy's default text lines, the same as Istio's, and its
/// backend's log (CSV): `(envoy, istio, backend)`.
fn traffic(rows: u64) -> (Vec<String>, Vec<String>, Vec<u8>) {
    let cfg = |format| Config {
        rows,
        seed: 22,
        format,
        request_ids: true,
        unknown_share: 0.4,
        ..Config::default()
    };
    let mut envoy = Vec::new();
    let mut backend = Vec::new();
    generator::generate_with_backend(&cfg(Format::EnvoyLog), &mut envoy, Some(&mut backend))
        .unwrap();
    let mut istio = Vec::new();
    generator::generate(&cfg(Format::IstioLog), &mut istio).unwrap();
    let lines = |b: Vec<u8>| -> Vec<String> {
        String::from_utf8(b)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    };
    (lines(envoy), lines(istio), backend)
}

/// Envoy's text lines with every second one (from the second) written as Envoy JSON.
fn interleaved(envoy: &[String]) -> Vec<String> {
    envoy
        .iter()
        .enumerate()
        .map(|(n, l)| {
            if n % 2 == 1 {
                as_envoy_json(l)
            } else {
                l.clone()
            }
        })
        .collect()
}

/// An Envoy default line as Envoy's JSON access log writes the same request.
fn as_envoy_json(line: &str) -> String {
    // [START] "METHOD PATH PROTO" CODE FLAGS RX TX DURATION UPSTREAM_TIME "XFF" "UA" "ID" "AUTHORITY" "HOST"
    let parts: Vec<&str> = line.split('"').collect();
    let start = parts[0]
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']');
    let request: Vec<&str> = parts[1].split(' ').collect();
    let numbers: Vec<&str> = parts[2].split_whitespace().collect();
    let n = |i: usize| numbers[i].parse::<u64>().unwrap();
    j!({
        "start_time": start,
        "method": request[0],
        "path": request[1],
        "protocol": request[2],
        "response_code": n(0),
        "response_flags": numbers[1],
        "bytes_received": n(2),
        "bytes_sent": n(3),
        "duration": n(4),
        "x_forwarded_for": parts[3],
        "user_agent": parts[5],
        "x_request_id": parts[7],
        "authority": parts[9],
        "upstream_host": parts[11],
    })
    .to_string()
}

/// `lines` inside a CRI container log, one entry each.
fn cri(lines: &[String]) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(n, l)| {
            format!(
                "2026-11-01T00:{:02}:{:02}.000000000Z stdout F {l}\n",
                n / 60 % 60,
                n % 60
            )
        })
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The figures that must not depend on how the lines were laid out.
fn figures(j: &Value) -> Value {
    let o = &j["observed"];
    j!({
        "rows": o["rows"],
        "bad_rows": o["bad_rows"],
        "intents": o["intents"],
        "mutating": o["mutating_attempts"],
        "timed_out": o["timed_out"],
        "timeout_rate": j["inputs"]["timeout_rate"],
        "requests_per_day": j["inputs"]["requests_per_day"],
        "succeeded_share": j["inputs"]["succeeded_share"],
    })
}

/// `dupcost logs PATH ARGS` as JSON.
fn logs(path: &str, extra: &[&str]) -> Value {
    support::json(&[&[path][..], extra].concat())
}

/// `dupcost logs PATH ARGS` as a table: its stdout and stderr.
fn table(path: &str, extra: &[&str]) -> (String, String) {
    support::output(&[&[path][..], extra].concat())
}

const SHARE: [&str; 2] = ["--succeeded-share", "0.5"];

/// Envoy's default layout for the first half, Istio's after a sidecar upgrade: both read,
/// the figures of the file in one layout, and the evidence gives each layout's lines.
#[test]
fn a_layout_changed_mid_file_reads_both() {
    let dir = tempfile::tempdir().unwrap();
    let (envoy, istio, _) = traffic(2000);
    let half = envoy.len() / 2;
    let one = write(dir.path(), "one.log", text(&envoy).as_bytes());
    let mut mixed = envoy[..half].to_vec();
    mixed.extend_from_slice(&istio[half..]);
    let two = write(dir.path(), "two.log", text(&mixed).as_bytes());
    let want = logs(&one, &SHARE);
    let got = logs(&two, &SHARE);
    assert_eq!(figures(&got), figures(&want));
    assert_eq!(got["observed"]["rows"], envoy.len());
    assert_eq!(got["observed"]["bad_rows"], 0);
    let file = &got["observed"]["files"][0];
    assert_eq!(file["input_format"], "Envoy default");
    let formats = file["formats"].as_array().unwrap();
    let lines = |f: &Value| {
        (
            f["name"].clone(),
            f["lines"].clone(),
            f["first_line"].clone(),
            f["last_line"].clone(),
        )
    };
    assert_eq!(
        formats.iter().map(lines).collect::<Vec<_>>(),
        [
            (j!("Envoy default"), j!(half), j!(1), j!(half)),
            (
                j!("Istio (Envoy)"),
                j!(envoy.len() - half),
                j!(half + 1),
                j!(envoy.len())
            ),
        ]
    );
    assert!(file.get("formats_interleaved").is_none(), "{file}");
    // The one-format file lists its one format, every line.
    let single = &want["observed"]["files"][0]["formats"];
    assert_eq!(single.as_array().unwrap().len(), 1);
    assert_eq!(single[0]["lines"], envoy.len());
    let (out, _) = table(&two, &SHARE);
    assert!(
        out.contains(
            "its lines change format: Envoy default (lines 1-1,000), then Istio (Envoy) (lines 1,001-2,000)"
        ),
        "{out}"
    );
    assert!(
        out.contains("two.log as Envoy default and Istio (Envoy) (detected)"),
        "{out}"
    );
    // Istio names the client's own address too, Envoy's default does not: said.
    assert!(
        out.contains("its formats do not have the same roles: client_addr only in Istio (Envoy)"),
        "{out}"
    );
}

/// Envoy text and Envoy JSON line by line (two containers' logs in one), bare and inside
/// CRI, with and without the backend's log: the figures of the traffic in one format.
#[test]
fn two_formats_interleaved_read_as_one_traffic() {
    let dir = tempfile::tempdir().unwrap();
    let (envoy, _, backend) = traffic(2000);
    let backend = write(dir.path(), "backend.csv", &backend);
    let mixed = interleaved(&envoy);
    let one = write(dir.path(), "one.log", text(&envoy).as_bytes());
    let two = write(dir.path(), "two.log", text(&mixed).as_bytes());
    let in_cri = write(dir.path(), "cri.log", cri(&mixed).as_bytes());
    let joined = ["--outcomes", backend.as_str()];
    let want = logs(&one, &SHARE);
    let want_joined = logs(&one, &joined);
    assert!(want_joined["inputs"]["succeeded_share"].as_f64().unwrap() > 0.0);
    for path in [&two, &in_cri] {
        let got = logs(path, &SHARE);
        assert_eq!(figures(&got), figures(&want), "{path}");
        let file = &got["observed"]["files"][0];
        assert_eq!(file["formats_interleaved"], true, "{file}");
        let formats = file["formats"].as_array().unwrap();
        assert_eq!(formats.len(), 2, "{file}");
        assert_eq!(formats[0]["name"], "Envoy default");
        assert_eq!(formats[1]["name"], "JSON lines (Envoy)");
        assert_eq!(formats[0]["lines"], 1000);
        assert_eq!(formats[1]["lines"], 1000);
        assert_eq!(formats[0]["roles"], formats[1]["roles"], "the same roles");
        let got = logs(path, &joined);
        assert_eq!(
            figures(&got),
            figures(&want_joined),
            "{path} with --outcomes"
        );
    }
    assert_eq!(
        logs(&in_cri, &SHARE)["observed"]["files"][0]["envelope"],
        "CRI container log"
    );
    let (out, _) = table(&two, &SHARE);
    assert!(
        out.contains(
            "its lines take turns between 2 formats (interleaved): Envoy default 1,000 lines, JSON lines (Envoy) 1,000 lines"
        ),
        "{out}"
    );
}

/// A line no format reads is still a bad row, with its line number; `--strict` stops there.
#[test]
fn a_line_no_format_reads_is_still_a_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let (envoy, _, _) = traffic(600);
    let mut mixed = interleaved(&envoy);
    mixed.insert(
        300,
        "this is not an access log line: 1.2.3.4 [yesterday]".into(),
    );
    let path = write(dir.path(), "bad.log", text(&mixed).as_bytes());
    let got = logs(&path, &SHARE);
    assert_eq!(got["observed"]["rows"], envoy.len() + 1);
    assert_eq!(got["observed"]["bad_rows"], 1);
    let (_, err) = table(&path, &SHARE);
    assert!(err.contains("skipped bad row "), "{err}");
    assert!(
        err.contains("bad.log:301: JSON lines (Envoy): not a JSON object")
            && err.contains("nor is it read by Envoy default"),
        "{err}"
    );
    let err = usage_error(&["logs", &path, "--succeeded-share", "0.5", "--strict"]);
    assert!(err.contains("bad.log:301: JSON lines (Envoy)"), "{err}");
    // Every line accounted for: the formats' lines and the bad row.
    let formats = got["observed"]["files"][0]["formats"].as_array().unwrap();
    let read: u64 = formats.iter().map(|f| f["lines"].as_u64().unwrap()).sum();
    assert_eq!(read + 1, mixed.len() as u64);
}

/// nginx `combined` for the first half, ingress-nginx's `upstreaminfo` after: the roles
/// differ (durations, upstream statuses, request ids only in the second), and the evidence
/// says so; the succeeded share is not measured from upstream statuses that half the lines
/// lack; a format without what `--client-timeout` needs is refused, its lines bad rows.
#[test]
fn formats_whose_roles_differ_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 400,
        seed: 9,
        format: Format::NginxLog,
        ..Config::default()
    };
    let mut out = Vec::new();
    generator::generate(&cfg, &mut out).unwrap();
    let lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // NGINX_LOG_FORMAT: combined, then $request_time $upstream_status "$http_idempotency_key"
    // (the upstream status may hold several values: "504 : 503"; the last is kept).
    let split = |l: &str| {
        let ua_end = l.match_indices('"').nth(5).unwrap().0;
        let rest: Vec<&str> = l[ua_end + 1..].split_whitespace().collect();
        let upstream = rest[rest.len() - 2].to_string();
        (l[..=ua_end].to_string(), rest[0].to_string(), upstream)
    };
    let combined: Vec<String> = lines.iter().map(|l| split(l).0).collect();
    let upstreaminfo: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(n, l)| {
            let (combined, time, upstream) = split(l);
            format!(
                "{combined} 512 {time} [default-api-80] [] 10.1.2.3:8080 100 {time} {upstream} req{n}"
            )
        })
        .collect();
    let half = lines.len() / 2;
    let mut first = combined[..half].to_vec();
    first.extend_from_slice(&upstreaminfo[half..]);
    let path = write(dir.path(), "change.log", text(&first).as_bytes());
    let got = logs(&path, &SHARE);
    assert_eq!(got["observed"]["bad_rows"], 0);
    assert_eq!(got["observed"]["rows"], lines.len());
    let formats = &got["observed"]["files"][0]["formats"];
    assert_eq!(formats[0]["name"], "nginx combined");
    assert_eq!(formats[1]["name"], "ingress-nginx upstreaminfo");
    let roles = |f: &Value| -> Vec<String> {
        f["roles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect()
    };
    assert!(!roles(&formats[0]).contains(&"upstream_status".to_string()));
    assert!(roles(&formats[1]).contains(&"upstream_status".to_string()));
    let (out, _) = table(&path, &SHARE);
    assert!(
        out.contains("its formats do not have the same roles:")
            && out.contains("upstream_status only in ingress-nginx upstreaminfo"),
        "{out}"
    );
    // Half the lines have upstream statuses: the share is not measured from them.
    assert!(
        out.contains("change.log (its nginx combined lines) has no upstream status column"),
        "{out}"
    );
    // upstreaminfo first: the combined lines lack the duration --client-timeout needs.
    let mut second = upstreaminfo[..half].to_vec();
    second.extend_from_slice(&combined[half..]);
    let path = write(dir.path(), "back.log", text(&second).as_bytes());
    let got = logs(&path, &["--client-timeout", "10s", "--max-unknown", "1"]);
    assert_eq!(got["observed"]["bad_rows"], lines.len() - half);
    let formats = &got["observed"]["files"][0]["formats"];
    assert_eq!(formats[1]["name"], "nginx combined");
    assert_eq!(formats[1]["lines"], 0);
    assert_eq!(
        formats[1]["refused"],
        "it has no duration, which --client-timeout needs"
    );
    let (_, err) = table(&path, &["--client-timeout", "10s", "--max-unknown", "1"]);
    assert!(
        err.contains(&format!(
            "back.log:{}: read as nginx combined, a second format in this file, which cannot be counted beside the first: it has no duration, which --client-timeout needs",
            half + 1
        )),
        "{err}"
    );
}

/// Pieces read on several threads find the same formats and count the same lines as one
/// reading of the whole file.
#[test]
fn pieces_agree_on_the_formats() {
    use dupcost::logs::{LogInput, LogOptions, analyze};
    let dir = tempfile::tempdir().unwrap();
    let (envoy, istio, _) = traffic(3000);
    let mut lines: Vec<String> = Vec::new();
    for (n, l) in envoy.iter().enumerate() {
        // Envoy text, then Istio, then text and JSON in turns.
        lines.push(match n {
            n if n < 1000 => l.clone(),
            n if n < 2000 => istio[n].clone(),
            n if n % 2 == 0 => as_envoy_json(l),
            _ => l.clone(),
        });
    }
    lines.insert(2500, "not an access line at all".into());
    let path = write(dir.path(), "pieces.log", text(&lines).as_bytes());
    let sources = [LogInput::Path(path.into())];
    let opts = |threads, split_bytes| LogOptions {
        threads,
        split_bytes,
        ..LogOptions::default()
    };
    let whole = analyze(&sources, &opts(1, u64::MAX)).unwrap();
    assert_eq!(whole.tally.bad_rows, 1);
    let counts = |a: &dupcost::logs::LogAnalysis| -> Vec<(String, u64, u64, u64)> {
        a.files[0]
            .formats
            .iter()
            .map(|f| (f.name.clone(), f.lines, f.first_line, f.last_line))
            .collect()
    };
    assert_eq!(
        counts(&whole),
        [
            ("Envoy default".to_string(), 1500, 1, 3001),
            ("Istio (Envoy)".to_string(), 1000, 1001, 2000),
            ("JSON lines (Envoy)".to_string(), 500, 2001, 3000),
        ]
    );
    assert!(whole.files[0].interleaved);
    for (threads, split) in [(2, 8192), (3, 50_000), (4, 200_000)] {
        let pieces = analyze(&sources, &opts(threads, split)).unwrap();
        assert!(pieces.files[0].pieces > 1, "read in pieces");
        assert_eq!(
            pieces.tally, whole.tally,
            "{threads} threads, {split} bytes"
        );
        // In the order of their first lines, whichever piece found them first.
        assert_eq!(
            counts(&pieces),
            counts(&whole),
            "{threads} threads, {split} bytes"
        );
    }
}

/// A named format reads the lines that fit it, even when a server's events are a fifth or
/// more of the first lines, and only those: another format's lines are bad rows.
#[test]
fn a_named_format_reads_the_lines_that_fit_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 300,
        seed: 3,
        format: Format::HaproxyLog,
        ..Config::default()
    };
    let mut out = Vec::new();
    let truth = generator::generate(&cfg, &mut out).unwrap();
    let events = [
        "Nov  1 00:00:01 lb haproxy[7]: Server be_app/app2 is DOWN, reason: Layer4 timeout, check duration: 2001ms. 1 active and 0 backup servers left.",
        "Nov  1 00:00:02 lb haproxy[7]: backend be_app has no server available!",
        "just some words the server wrote",
    ];
    let mut lines = Vec::new();
    for (n, l) in String::from_utf8(out).unwrap().lines().enumerate() {
        if n < 12 && n % 2 == 0 {
            lines.push(events[n / 2 % 3].to_string());
        }
        lines.push(l.to_string());
    }
    let path = write(dir.path(), "events.log", text(&lines).as_bytes());
    let got = logs(
        &path,
        &["--input-format", "haproxy", "--succeeded-share", "0.5"],
    );
    assert_eq!(got["observed"]["rows"].as_u64().unwrap(), truth.rows + 2);
    assert_eq!(got["observed"]["bad_rows"], 2, "the words are bad rows");
    let skipped = &got["observed"]["files"][0]["skipped"][0];
    assert_eq!(skipped["kind"], "HAProxy events");
    assert_eq!(skipped["lines"], 4);
    // Named, Envoy's format reads its own lines of a mixed file, not the JSON ones.
    let (envoy, _, _) = traffic(400);
    let mixed = interleaved(&envoy);
    let path = write(dir.path(), "mixed.log", text(&mixed).as_bytes());
    let got = logs(
        &path,
        &["--input-format", "envoy", "--succeeded-share", "0.5"],
    );
    assert_eq!(got["observed"]["bad_rows"], envoy.len() / 2);
    assert_eq!(
        got["observed"]["files"][0]["formats"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// Every refusal names the line, the closest format, where it stopped, and the flag.
#[test]
fn refusals_name_the_line_the_closest_format_and_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let (envoy, _, _) = traffic(40);
    // Named, not that format: the line, the named family's closest and where it stopped,
    // the format that reads it and its flag.
    let path = write(dir.path(), "envoy.log", text(&envoy).as_bytes());
    let err = usage_error(&["logs", &path, "--input-format", "nginx"]);
    assert!(
        err.contains("envoy.log: not a log format dupcost knows as nginx: line 1 '[2026-11-01"),
        "{err}"
    );
    assert!(err.contains("the closest nginx format, "), "{err}");
    // Of nginx's formats, Nginx Proxy Manager's `[$time_local] ...` reads furthest into
    // Envoy's `[START_TIME] "..."`: its status is no word with a space.
    assert!(
        err.contains("the closest nginx format, Nginx Proxy Manager proxy: field status at column 45 'HTTP/1.1\"' does not fit: expected status at column 45 to be one word"),
        "{err}"
    );
    assert!(
        err.contains("it is read as Envoy default; name that format with --input-format envoy"),
        "{err}"
    );
    // A few broken lines among a format's (issue 35): read, the broken ones bad rows.
    let mut lines = envoy[..6].to_vec();
    lines.insert(2, "garbage here 1 2 3".into());
    lines.insert(4, "more garbage".into());
    let path = write(dir.path(), "few.log", text(&lines).as_bytes());
    let out = dupcost()
        .args([
            "logs",
            &path,
            "--format",
            "json",
            "--succeeded-share",
            "0.5",
        ])
        .args([
            "--timeout-rate",
            "1%",
            "--requests-per-day",
            "10",
            "--min-span",
            "0s",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("few.log:3: expected '[' at column 1, found 'garbage here 1 2 3'")
            && stderr.contains("few.log:5: "),
        "{stderr}"
    );
    // Detected, but fewer than half of the first lines agree: the first line that does not
    // fit.
    let mut lines = envoy[..3].to_vec();
    lines.insert(2, "garbage here 1 2 3".into());
    lines.insert(4, "more garbage".into());
    lines.push("and more".into());
    lines.push("and more still".into());
    let path = write(dir.path(), "disagree.log", text(&lines).as_bytes());
    let err = usage_error(&["logs", &path]);
    assert!(
        err.contains("disagree.log: its first lines are not one log format dupcost knows: line 1 reads as Envoy default, but line 3 'garbage here 1 2 3' does not (field start_time at column 1 'garbage' does not fit: expected '[' at column 1"),
        "{err}"
    );
    assert!(err.contains("--input-format envoy"), "{err}");
    assert!(!err.contains("which reads it"), "{err}");
    // No format reads it: the closest, where it stopped, the flags.
    let path = write(
        dir.path(),
        "odd.log",
        b"\n1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] POST / HTTP/1.1 200 5\n",
    );
    let err = usage_error(&["logs", &path]);
    assert!(
        err.contains("odd.log: not a log format dupcost knows: line 2 '1.2.3.4"),
        "{err}"
    );
    assert!(err.contains("comes closest to "), "{err}");
    assert!(err.contains("--log-format '...'"), "{err}");
    assert!(err.contains("--input-format ("), "{err}");
}

/// `--follow` reads a mixed input the same way: both formats, the same rows, each format's
/// lines in its last report.
#[test]
fn follow_reads_both_formats() {
    let (envoy, _, _) = traffic(600);
    let mixed = interleaved(&envoy);
    let out = dupcost()
        .args([
            "logs",
            "-",
            "--follow",
            "--format",
            "json",
            "--succeeded-share",
            "0.5",
        ])
        .write_stdin(text(&mixed))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["observed"]["rows"], envoy.len());
    assert_eq!(last["observed"]["bad_rows"], 0);
    let formats = &last["observed"]["files"][0]["formats"];
    assert_eq!(formats[0]["lines"], envoy.len() / 2, "{formats}");
    assert_eq!(formats[1]["name"], "JSON lines (Envoy)", "{formats}");
    assert_eq!(formats[1]["lines"], envoy.len() / 2, "{formats}");
}

/// The bundled samples of Envoy's default layout, Istio's and Envoy's JSON, one after
/// another in one file and then line by line: every line accounted for (each format's
/// lines are its sample's rows), none a bad row.
#[test]
fn the_samples_of_three_layouts_in_one_file_are_all_read() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["envoy_default.log", "istio.log", "envoy.json"];
    let samples: Vec<Vec<String>> = names
        .iter()
        .map(|n| {
            std::fs::read_to_string(common::fixture("formats", n))
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect();
    let args = ["--succeeded-share", "0.5", "--min-span", "1m"];
    let alone: Vec<u64> = names
        .iter()
        .map(|n| {
            logs(&common::fixture("formats", n), &args)["observed"]["rows"]
                .as_u64()
                .unwrap()
        })
        .collect();
    for (k, s) in samples.iter().enumerate() {
        assert_eq!(alone[k], s.len() as u64, "{}: every line a row", names[k]);
    }
    let after: Vec<String> = samples.concat();
    let longest = samples.iter().map(Vec::len).max().unwrap();
    let turns: Vec<String> = (0..longest)
        .flat_map(|i| samples.iter().filter_map(move |s| s.get(i).cloned()))
        .collect();
    for (name, lines) in [("after.log", &after), ("turns.log", &turns)] {
        let path = write(dir.path(), name, text(lines).as_bytes());
        let got = logs(&path, &args);
        assert_eq!(got["observed"]["rows"], lines.len(), "{name}");
        assert_eq!(got["observed"]["bad_rows"], 0, "{name}");
        let formats = got["observed"]["files"][0]["formats"].as_array().unwrap();
        let read: Vec<(&str, u64)> = formats
            .iter()
            .map(|f| (f["name"].as_str().unwrap(), f["lines"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            read,
            [
                ("Envoy default", alone[0]),
                ("Istio (Envoy)", alone[1]),
                ("JSON lines (Envoy)", alone[2]),
            ],
            "{name}"
        );
    }
}
