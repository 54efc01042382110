//! Plain values read and marked inferred (docs/MODEL.md, "Inferred"): an nginx layout's
//! appended fields named by their values, a duration's unit from its typical values, each
//! said with the flag that makes it given; `--no-infer` reads only what is named.

use crate::common::{dupcost, json, succeed, write};

/// One timed-out attempt in ten (504 or 499); of the timed-out, two in five answered 200
/// upstream, the rest 503 (some as nginx's lists). Returns the log and the true share.
fn nginx_log(order: &str, lines: usize) -> (String, f64) {
    nginx_log_with(order, lines, false)
}

/// As [`nginx_log`]; `copy`: the appended status is `$status` again on every line.
fn nginx_log_with(order: &str, lines: usize, copy: bool) -> (String, f64) {
    let (mut out, mut timed_out, mut succeeded) = (String::new(), 0u32, 0u32);
    for i in 0..lines {
        let (status, upstream, time) = if i % 10 == 3 {
            timed_out += 1;
            let status = if timed_out % 2 == 0 { 504 } else { 499 };
            let upstream = match timed_out % 5 {
                0 | 1 => {
                    succeeded += 1;
                    "200"
                }
                2 => "502, 503",
                3 => "503 : 500",
                _ => "503",
            };
            (status, upstream, format!("{}.{:03}", 30, i % 1000))
        } else {
            (201, "201", format!("0.{:03}", 10 + i % 900))
        };
        let copied = status.to_string();
        let upstream = if copy { copied.as_str() } else { upstream };
        let id = format!(
            "{:032x}",
            0x5eed_u128 * (i as u128 + 1) * 0x9e37_79b9_7f4a_7c15
        );
        let fields = match order {
            "upstream first" => format!("{upstream} {time} \"{id}\""),
            _ => format!("{time} {upstream} \"{id}\""),
        };
        let at = i * 37;
        let (h, m, s) = (8 + at / 3600, at / 60 % 60, at % 60);
        out.push_str(&format!(
            "10.0.0.{} - - [02/Nov/2026:{h:02}:{m:02}:{s:02} +0000] \"POST /v1/charges HTTP/1.1\" {status} 123 \"-\" \"curl/8.0\" {fields}\n",
            i % 50
        ));
    }
    (out, f64::from(succeeded) / f64::from(timed_out))
}

#[test]
fn nginx_appended_fields_are_read_by_their_values_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    for (order, given) in [
        (
            "upstream first",
            r#"combined $upstream_status $request_time "$request_id""#,
        ),
        (
            "time first",
            r#"combined $request_time $upstream_status "$request_id""#,
        ),
    ] {
        let (log, truth) = nginx_log(order, 400);
        let file = write(dir.path(), "access.log", log.as_bytes());
        let v = json(&["logs", &file]);
        let share = v["inputs"]["succeeded_share"].as_f64().unwrap();
        assert!((share - truth).abs() < 1e-9, "{order}: {share} vs {truth}");
        let kind = &v["input_kinds"]["succeeded_share"];
        assert_eq!(kind["kind"], "measured", "{kind}");
        let mark = &kind["inferred_field"];
        assert_eq!(mark["field"], "upstream_status", "{mark}");
        assert_eq!(
            mark["given_by"],
            format!("--log-format '{given}'"),
            "{mark}"
        );
        let read = &v["observed"]["files"][0];
        assert_eq!(
            read["input_format"],
            format!("nginx combined with {}", &given[9..])
        );
        assert_eq!(read["inferred"].as_array().unwrap().len(), 3, "{read}");
        // The flag it names reads the same figures, given: nothing inferred.
        let confirmed = json(&["logs", &file, "--log-format", given]);
        assert_eq!(confirmed["inputs"], v["inputs"]);
        assert!(
            confirmed["input_kinds"]["succeeded_share"]
                .get("inferred_field")
                .is_none()
        );
        assert!(confirmed["observed"]["files"][0].get("inferred").is_none());
        // The table says it on the share's line, and the evidence names the flag.
        let table = succeed(
            dupcost()
                .env_remove("DUPCOST_EXPLAIN")
                .args(["logs", &file]),
        );
        let table = String::from_utf8(table.stdout).unwrap();
        let line = table
            .lines()
            .position(|l| l.trim_start().starts_with("measured succeeded share"))
            .map(|at| table.lines().skip(at).take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        assert!(
            line.contains("upstream_status (extra_") && line.contains("inferred from its values"),
            "{table}"
        );
        let explain = succeed(dupcost().args(["logs", &file, "--explain"]));
        let explain = String::from_utf8(explain.stdout)
            .unwrap()
            .replace("\n    ", " ");
        assert!(
            explain.contains(&format!("--log-format '{given}' makes them given")),
            "{explain}"
        );
        let evidence = explain
            .lines()
            .find(|l| l.trim_start().starts_with("succeeded share"))
            .unwrap_or_default();
        assert!(
            evidence.contains(&format!(
                "inferred from its values; --log-format '{given}' makes it given"
            )),
            "{explain}"
        );
    }
}

#[test]
fn no_infer_reads_only_what_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (log, _) = nginx_log("upstream first", 400);
    let file = write(dir.path(), "access.log", log.as_bytes());
    let v = json(&["logs", &file, "--no-infer"]);
    assert_eq!(v["input_kinds"]["succeeded_share"]["kind"], "assumed");
    assert_eq!(v["inputs"]["succeeded_share"], 0.5);
    assert!(v["observed"]["files"][0].get("inferred").is_none());
    let format = v["observed"]["files"][0]["input_format"].as_str().unwrap();
    assert!(format.contains("extra_1, extra_2, extra_3"), "{format}");
}

#[test]
fn a_field_that_never_differs_from_the_status_is_no_upstream_status() {
    let dir = tempfile::tempdir().unwrap();
    // The appended status equals $status on every line: a copy, or an upstream that never
    // failed; the values leave two readings, so it stays unnamed.
    let (same, _) = nginx_log_with("upstream first", 400, true);
    let file = write(dir.path(), "same.log", same.as_bytes());
    let v = json(&["logs", &file]);
    assert_eq!(
        v["input_kinds"]["succeeded_share"]["kind"], "assumed",
        "{}",
        v["observed"]["files"]
    );
    let inferred = v["observed"]["files"][0]["inferred"].to_string();
    assert!(!inferred.contains("upstream_status"), "{inferred}");
    // The time and the id are still read by theirs.
    assert!(inferred.contains("request_time"), "{inferred}");
}

/// A webhook receiver's JSON log whose `duration` is seconds from a float clock (as Caddy
/// writes it): `slow` of every 100 deliveries ran past the sender's 15 s timeout.
fn receiver_log(lines: usize, slow: usize) -> String {
    let mut out = String::new();
    for i in 0..lines {
        let duration = if i % 100 < slow {
            15.0 + (i % 7) as f64 * 0.731_402_118_5
        } else {
            0.012_345_678_9 + (i % 13) as f64 * 0.071_234_567_1
        };
        out.push_str(&format!(
            "{{\"ts\":{},\"method\":\"POST\",\"path\":\"/webhooks/orders\",\"status\":200,\"duration\":{duration},\"headers\":{{\"webhook-id\":\"msg_{i}\"}}}}\n",
            1_793_491_200 + 30 * i
        ));
    }
    out
}

#[test]
fn a_receivers_seconds_give_the_true_timeout_rate_with_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "hooks.jsonl", receiver_log(2000, 4).as_bytes());
    let v = json(&["logs", &file, "--client-timeout", "15s"]);
    assert_eq!(v["inputs"]["timeout_rate"], 0.04, "{}", v["inputs"]);
    let unit = &v["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(unit["unit"], "s", "{unit}");
    assert_eq!(unit["kind"], "inferred", "{unit}");
    let inferred = &v["observed"]["files"][0]["inferred"][0];
    assert_eq!(inferred["given_by"], "--duration-unit s", "{inferred}");
    // Read only as named, the unit is assumed milliseconds: no delivery reaches 15 s.
    let named = json(&["logs", &file, "--client-timeout", "15s", "--no-infer"]);
    assert_eq!(named["inputs"]["timeout_rate"], 0.0);
    assert_eq!(
        named["input_kinds"]["timeout_rate"]["duration_unit"]["kind"],
        "assumed"
    );
}

#[test]
fn two_decimal_milliseconds_stay_assumed() {
    let dir = tempfile::tempdir().unwrap();
    // lograge's JSON `duration`: milliseconds to two decimals, a median over 1. Seconds and
    // milliseconds both stay plausible.
    let values = ["58.33", "12.5", "3.02", "80.11", "7.4", "22.87"];
    let log: String = (0..60)
        .map(|i| {
            format!(
                "{{\"time\":\"2026-11-02T08:{:02}:00Z\",\"method\":\"POST\",\"path\":\"/orders\",\"status\":201,\"duration\":{},\"view\":0.51,\"db\":12.02,\"controller\":\"OrdersController\",\"action\":\"create\"}}\n",
                i,
                values[i % values.len()]
            )
        })
        .collect();
    let file = write(dir.path(), "lograge.jsonl", log.as_bytes());
    let v = json(&["logs", &file, "--client-timeout", "10s"]);
    let unit = &v["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(
        (&unit["unit"], &unit["kind"]),
        (&"ms".into(), &"assumed".into()),
        "{unit}"
    );
}

/// `tui --logs` reads its logs as `logs` does, `--no-infer` included: the flag is taken
/// (the refusal is the missing terminal's, exit 1, not a usage error).
#[test]
fn tui_takes_no_infer() {
    let out = dupcost()
        .args(["tui", "--logs", "samples/nginx.log", "--no-infer"])
        .write_stdin("")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("needs an interactive terminal"), "{stderr}");
}

/// pino-http's `responseTime` says its unit by its name: milliseconds, never inferred nor
/// read as seconds; 2 of 20 requests past a 15 s timeout time out.
#[test]
fn pino_response_time_is_milliseconds_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let log: String = (0..20)
        .map(|i| {
            let took = if i % 10 == 0 { 16_000.5 } else { 181.2 + f64::from(i) };
            format!(
                "{{\"level\":30,\"time\":{},\"req\":{{\"method\":\"POST\",\"url\":\"/api/v1/orders\"}},\"res\":{{\"statusCode\":201}},\"responseTime\":{took},\"msg\":\"request completed\"}}\n",
                1_710_234_902_184_u64 + 60_000 * i as u64
            )
        })
        .collect();
    let file = write(dir.path(), "pino.jsonl", log.as_bytes());
    let v = json(&[
        "logs",
        &file,
        "--column",
        "method=req.method",
        "--column",
        "path=req.url",
        "--column",
        "status=res.statusCode",
        "--client-timeout",
        "15s",
    ]);
    assert_eq!(v["observed"]["timed_out"], 2, "{}", v["observed"]);
    assert!(
        v["input_kinds"]["timeout_rate"]
            .get("duration_unit")
            .is_none()
    );
    assert!(v["observed"]["files"][0].get("inferred").is_none());
}

/// A Go service's slog JSON line per request, `duration` a `time.Duration` (whole
/// nanoseconds): `every_ms` apart from 2026-11-02 08:00:00, each 20 to 57 ms, and every tenth
/// 16 s when `slow`.
fn go_log(lines: usize, every_ms: u64, slow: bool) -> String {
    let took = [
        20_950_259_u64,
        24_479_472,
        56_560_748,
        21_004_118,
        36_437_134,
    ];
    (0..lines)
        .map(|i| {
            let at = i as u64 * every_ms;
            let (s, ms) = (at / 1000, at % 1000);
            let duration = if slow && i % 10 == 9 {
                16_000_000_000
            } else {
                took[i % took.len()]
            };
            let hours = 8 + s / 3600;
            format!(
                "{{\"time\":\"2026-11-{:02}T{:02}:{:02}:{:02}.{ms:03}Z\",\"level\":\"INFO\",\"msg\":\"request\",\"method\":\"POST\",\"path\":\"/v1/orders\",\"status\":201,\"duration\":{duration}}}\n",
                2 + hours / 24,
                hours % 24,
                s / 60 % 60,
                s % 60
            )
        })
        .collect()
}

/// Whole numbers too large for milliseconds: as ms (185 days) or µs (24 s, longer than the
/// 0.19 s the busy log's first 20 lines span, and a second) they cannot be, so nanoseconds,
/// inferred by the span; the
/// timeout rate is the truth, 1 in 10 past 15 s. Read only as named (ms, assumed), every
/// request would time out.
#[test]
fn go_nanoseconds_are_inferred_where_the_span_leaves_them_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "go.jsonl", go_log(400, 10, true).as_bytes());
    let v = json(&["logs", &file, "--client-timeout", "15s"]);
    assert_eq!(v["inputs"]["timeout_rate"], 0.1, "{}", v["inputs"]);
    let unit = &v["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(
        (&unit["unit"], &unit["kind"]),
        (&"ns".into(), &"inferred".into()),
        "{unit}"
    );
    let warnings = v["observed"]["warnings"].to_string();
    assert!(
        warnings.contains("in every unit but ns the median request would last longer than"),
        "{warnings}"
    );
    let named = json(&["logs", &file, "--client-timeout", "15s", "--no-infer"]);
    assert_eq!(named["inputs"]["timeout_rate"], 1.0, "{}", named["inputs"]);
}

/// The same nanoseconds in a quiet log whose first 20 lines span 4m 45s: as ms the median
/// request would last 6h 48m (impossible), but as µs (24 s) or ns (24 ms) both fit: no unit
/// is inferred, and a warning says ms cannot be and names `--duration-unit us or ns`. A log
/// spanning longer than the ms reading keeps the assumption's own warning, as before.
#[test]
fn go_nanoseconds_that_fit_two_units_are_warned_not_inferred() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "quiet.jsonl",
        go_log(400, 15_000, false).as_bytes(),
    );
    let v = json(&["logs", &file, "--client-timeout", "15s"]);
    let unit = &v["input_kinds"]["timeout_rate"]["duration_unit"];
    assert_eq!(
        (&unit["unit"], &unit["kind"]),
        (&"ms".into(), &"assumed".into()),
        "{unit}"
    );
    let warnings = v["observed"]["warnings"].to_string();
    for part in [
        "cannot be milliseconds: as ms the median request would last 6h 48m, longer than the 4m 45s its first lines' timestamps span (and a second more)",
        "as µs or ns each fits, and nothing tells which",
        "give --duration-unit us or ns",
    ] {
        assert!(warnings.contains(part), "{part}: {warnings}");
    }
    let (explained, _) = crate::support::output(&[&file, "--client-timeout", "15s", "--explain"]);
    assert!(
        explained.contains(
            "duration=duration (ms, assumed, though its values rule it out: --duration-unit us or ns)"
        ),
        "{explained}"
    );
    let given = json(&[
        "logs",
        &file,
        "--client-timeout",
        "15s",
        "--duration-unit",
        "ns",
    ]);
    assert_eq!(given["inputs"]["timeout_rate"], 0.0);
    // Six hours apart, the first 20 lines span 114 hours: as ms the median (6h 48m) fits, and ms
    // stays assumed with the assumption's own warning, as before.
    let file = write(
        dir.path(),
        "sparse.jsonl",
        go_log(60, 6 * 3_600_000, false).as_bytes(),
    );
    let v = json(&["logs", &file, "--client-timeout", "15s"]);
    let warnings = v["observed"]["warnings"].to_string();
    assert!(!warnings.contains("cannot be milliseconds"), "{warnings}");
    assert!(
        warnings.contains("read as ms, so --client-timeout compares with an assumed unit"),
        "{warnings}"
    );
}
