//! AWS ALB and classic ELB, CloudFront and JSON-lines logs (issue 12) as the servers write
//! them: the generator's logs give the true figures and the same figures as the CSV path on
//! the same rows; hand-made fixtures shaped like the published samples give their worked
//! figures; real-world quirks and bad input.

use std::io::Write;

use crate::common::{dupcost, fixture, json, same_keys, usage_error, write};
use crate::generator::{Config, Format};
use crate::support::{generate, platform_config};
use dupcost::logs::{self, Intents, LogInput, LogOptions};

const NATIVE: [Format; 7] = [
    Format::AlbLog,
    Format::ElbLog,
    Format::CloudfrontLog,
    Format::CaddyJson,
    Format::TraefikJson,
    Format::EnvoyJson,
    Format::NginxJson,
];

/// The generator's truth, read back from each native format by the library.
#[test]
fn native_formats_give_the_true_figures() {
    let dir = tempfile::tempdir().unwrap();
    for format in NATIVE {
        let (bytes, truth) = generate(&platform_config(format));
        let path = write(dir.path(), "log", &bytes);
        // By key (or none): the generator's truth counts a keyless attempt as its own intent.
        let options = LogOptions {
            intents: Intents::Key,
            ..LogOptions::default()
        };
        let a = logs::analyze(&[LogInput::Path(path.into())], &options)
            .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let t = &a.tally;
        let want = (
            truth.rows,
            truth.bad_rows,
            truth.mutating_attempts,
            truth.timed_out,
            truth.timed_out_succeeded,
            truth.intents,
            truth.keyed_intents,
            truth.max_attempts,
            Some(truth.first_ts),
            Some(truth.last_ts),
        );
        let got = (
            t.rows,
            t.bad_rows,
            t.counts.mutating,
            t.counts.timed_out,
            t.counts.timed_out_succeeded,
            t.intents(),
            t.keyed.intents,
            t.keyed.max_attempts,
            t.first_ts,
            t.last_ts,
        );
        assert_eq!(got, want, "{format:?}");
        assert!(truth.timed_out > 20 && truth.bad_rows > 0, "{format:?}");
    }
}

/// Each native format and the CSV of the same proxy from the same seed: the same rows, so
/// the same observed figures and the same measured inputs, through the binary.
#[test]
fn native_formats_equal_the_csv_path() {
    let dir = tempfile::tempdir().unwrap();
    for (csv, native) in [
        (Format::Alb, Format::AlbLog),
        (Format::Alb, Format::ElbLog),
        (Format::Traefik, Format::TraefikJson),
        (Format::Envoy, Format::EnvoyJson),
        (Format::Nginx, Format::NginxJson),
        (Format::Csv, Format::CaddyJson),
    ] {
        let (a, truth_a) = generate(&platform_config(csv));
        let (b, truth_b) = generate(&platform_config(native));
        assert_eq!(truth_a.rows, truth_b.rows);
        let a = write(dir.path(), "a.csv", &a);
        let b = write(dir.path(), "b.log", &b);
        // Grouped by key (or none) on both sides: the native lines carry the client's
        // address, which some CSV siblings lack.
        let args = [
            "--max-unknown",
            "100%",
            "--succeeded-share",
            "50%",
            "--intents",
            "key",
        ];
        let ja = json(&[&["logs", &a][..], &args].concat());
        let jb = json(&[&["logs", &b][..], &args].concat());
        let (oa, ob) = (&ja["observed"], &jb["observed"]);
        let what = format!("{native:?}");
        let keys = [
            "rows",
            "bad_rows",
            "mutating_attempts",
            "intents",
            "timed_out",
        ];
        same_keys(oa, ob, &keys, &what);
        assert_eq!(oa["retries_observed"], ob["retries_observed"], "{native:?}");
        if native == Format::CaddyJson {
            // Caddy logs no upstream status: no timed-out attempt's outcome is measured.
            assert_eq!(ob["timed_out_unknown"], serde_json::Value::Null);
            assert_eq!(ob["timed_out_succeeded"], serde_json::Value::Null);
            let counts = |o: &serde_json::Value| -> Vec<_> {
                let e = o["per_endpoint"].as_array().unwrap();
                e.iter()
                    .map(|e| {
                        (
                            e["route"].clone(),
                            e["mutating"].clone(),
                            e["timed_out"].clone(),
                        )
                    })
                    .collect()
            };
            assert_eq!(counts(oa), counts(ob));
        } else {
            assert_eq!(oa["per_endpoint"], ob["per_endpoint"], "{native:?}");
            let keys = ["timed_out_succeeded", "timed_out_unknown", "per_day"];
            same_keys(oa, ob, &keys, &what);
            let (mut ia, mut ib) = (ja["inputs"].clone(), jb["inputs"].clone());
            if native == Format::TraefikJson {
                // Traefik's JSON has the response size the CSV leaves out.
                ia["body_bytes"] = 0.into();
                ib["body_bytes"] = 0.into();
            }
            assert_eq!(ia, ib, "{native:?}");
        }
    }
}

/// ALB logs as delivered: gzipped, several 5-minute files of several nodes in one call.
#[test]
fn gzipped_alb_files_in_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, truth) = generate(&Config {
        bad_every: 0,
        ..platform_config(Format::AlbLog)
    });
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut files = Vec::new();
    for (i, chunk) in lines.chunks(lines.len() / 3 + 1).enumerate() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for line in chunk {
            writeln!(gz, "{line}").unwrap();
        }
        let name = format!(
            "123456789012_elasticloadbalancing_us-east-1_app.my-lb.50dc6c495c0c9188_20261101T00{i}5Z_10.0.0.{i}_abc.log.gz"
        );
        files.push(write(dir.path(), &name, &gz.finish().unwrap()));
    }
    let mut args = vec!["logs"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--max-unknown", "100%"]);
    let j = json(&args);
    let o = &j["observed"];
    assert_eq!(o["rows"], truth.rows);
    assert_eq!(o["mutating_attempts"], truth.mutating_attempts);
    assert_eq!(o["timed_out"], truth.timed_out);
    assert_eq!(o["timed_out_succeeded"], truth.timed_out_succeeded);
    let out = dupcost()
        .arg("logs")
        .args(&files)
        .args(["--max-unknown", "100%"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("_10.0.0.0_abc.log.gz as AWS ALB (gzip, detected)"),
        "{stdout}"
    );
}

/// The observed figures of a fixture: rows, mutating, intents, timed out, succeeded, unknown
/// (`None`: not measured, the log has no upstream status).
fn observed(file: &str, extra: &[&str]) -> [Option<u64>; 6] {
    let path = fixture("formats", file);
    let args = [
        &["logs", &path, "--min-span", "1m", "--max-unknown", "100%"][..],
        extra,
    ]
    .concat();
    let o = json(&args)["observed"].clone();
    [
        "rows",
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
        "timed_out_unknown",
    ]
    .map(|k| o[k].as_u64())
}

/// Worked figures of the fixtures. ALB: a 460 and a 504 with target status `-` are give-ups
/// of unknown outcome; the 502 (`Target.ResponseCodeMismatch`) is a failure, not a give-up;
/// ALB logs no headers, so its attempts are grouped by fingerprint: 192.168.131.41's 504, 502
/// and 201 on `POST /v1/payments` (same agent, same request length) are one intent.
/// CloudFront: the `000` and the 201 with `ClientCommError` give up, their outcome unknown (no
/// origin status in a standard log); 192.0.2.101's `000` and the 502 after it are one intent.
#[test]
fn fixtures_give_their_worked_figures() {
    // The logs' own unknown outcomes are the point here: the share is given.
    let share = ["--succeeded-share", "50%"];
    let some = |v: [u64; 6]| v.map(Some);
    let unmeasured = |v: [u64; 4]| [Some(v[0]), Some(v[1]), Some(v[2]), Some(v[3]), None, None];
    assert_eq!(observed("alb.log", &share), some([6, 5, 3, 2, 0, 2]));
    assert_eq!(observed("elb.log", &share), some([4, 3, 3, 2, 0, 2]));
    // Its last line: a 201 whose sending the viewer broke off (`ClientCommError`).
    assert_eq!(observed("cloudfront.log", &share), unmeasured([5, 4, 3, 2]));
    assert_eq!(observed("caddy.json", &share), unmeasured([4, 3, 2, 1]));
    assert_eq!(observed("traefik.json", &share), some([3, 3, 2, 2, 1, 1]));
    assert_eq!(observed("envoy.json", &share), unmeasured([3, 3, 2, 2]));
    assert_eq!(observed("nginx.json", &share), some([3, 3, 2, 2, 1, 1]));
}

/// The evidence names each format, detected or named, and the fields it read.
#[test]
fn the_evidence_names_the_format() {
    for (file, named, says) in [
        ("alb.log", "alb", "as AWS ALB"),
        ("elb.log", "elb", "as AWS classic ELB"),
        ("cloudfront.log", "cloudfront", "as CloudFront standard log"),
        ("caddy.json", "json", "as JSON lines (Caddy)"),
        ("traefik.json", "json", "as JSON lines (Traefik)"),
        ("envoy.json", "json", "as JSON lines (Envoy)"),
        ("nginx.json", "json", "as JSON lines (nginx escape=json)"),
    ] {
        let run = |extra: &[&str]| {
            let out = dupcost()
                .args(["logs", &fixture("formats", file), "--min-span", "1m"])
                .args(["--max-unknown", "100%", "--succeeded-share", "50%"])
                .args(extra)
                .output()
                .unwrap();
            assert!(out.status.success(), "{file}");
            String::from_utf8(out.stdout).unwrap()
        };
        let detected = run(&[]);
        assert!(
            detected.contains(&format!("{says} (detected)")),
            "{detected}"
        );
        let given = run(&["--input-format", named]);
        assert!(given.contains(says) && !given.contains(&format!("{says} (detected)")));
    }
    let caddy = json(&[
        "logs",
        &fixture("formats", "caddy.json"),
        "--min-span",
        "1m",
        "--succeeded-share",
        "50%",
    ]);
    let out = dupcost()
        .args([
            "logs",
            &fixture("formats", "caddy.json"),
            "--min-span",
            "1m",
        ])
        .args(["--succeeded-share", "50%"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("idempotency_key=request.headers.Idempotency-Key[0]"),
        "{text}"
    );
    assert!(text.contains("timestamp=ts"), "{text}");
    assert_eq!(caddy["observed"]["intents"], 2);
}

/// JSON quirks: unicode escapes, keys in another order, missing fields, numbers as strings,
/// a path only a later line has (asked for with --column), and a line that is not an object.
#[test]
fn json_quirks_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "odd.json",
        concat!(
            r#"{"ts":"2026-11-01T10:00:00Z","method":"POST","uri":"/v1/caf\u00e9","status":"201","dur_ms":"12"}"#,
            "\n",
            r#"{"uri":"/v1/caf\u00e9","status":504,"method":"POST","ts":"2026-11-01T10:00:31Z","meta":{"key":["k-\u00e9"]}}"#,
            "\n",
            r#"{"method":"POST","ts":"2026-11-01T10:01:02Z","uri":"/v1/caf\u00e9","status":"201","meta":{"key":["k-\u00e9"]}}"#,
            "\n",
            "[\"not\", \"an object\"]\n",
            "\u{1}\u{2} binary garbage \u{7f}\n",
        )
        .as_bytes(),
    );
    let args = [
        "logs",
        &f,
        "--min-span",
        "1m",
        "--column",
        "idempotency_key=meta.key[0]",
        "--succeeded-share",
        "50%",
    ];
    let o = json(&args)["observed"].clone();
    assert_eq!(o["rows"], 5);
    assert_eq!(o["bad_rows"], 2);
    assert_eq!(o["mutating_attempts"], 3);
    assert_eq!(
        o["intents"], 2,
        "the key of the later lines joins them: {o}"
    );
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["per_endpoint"][0]["route"], "/v1/café", "{o}");
    let out = dupcost().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "odd.json:4: not a JSON object: invalid type: sequence, expected a JSON object"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("odd.json:5: not a JSON object"), "{stderr}");
}

/// Inputs that are not the format named, or not any: one line, exit 2, never a panic.
#[test]
fn bad_inputs_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = "timestamp,method,path,status\n2026-11-01T00:00:00Z,POST,/a,200\n2026-11-01T01:00:00Z,POST,/a,200\n";
    let err = usage_error(&[
        "logs",
        &write(dir.path(), "a.csv", csv.as_bytes()),
        "--input-format",
        "json",
    ]);
    assert!(
        err.contains("a.csv: not a log format dupcost knows as json"),
        "{err}"
    );
    // A gzip of a CSV named like an ALB log, read as ALB: every line a bad row.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(csv.as_bytes()).unwrap();
    let f = write(
        dir.path(),
        "x_app.lb_20261101T0000Z.log.gz",
        &gz.finish().unwrap(),
    );
    let out = dupcost()
        .args(["logs", &f, "--input-format", "alb"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !out.status.success() && !stderr.contains("panicked"),
        "{stderr}"
    );
    assert!(
        stderr.contains("log.gz:1: expected an AWS ALB line"),
        "{stderr}"
    );
    // The same gzip detected: read as the CSV it is.
    let j = json(&["logs", &f, "--min-span", "0s", "--succeeded-share", "50%"]);
    assert_eq!(j["observed"]["rows"], 2);
    // JSON lines whose first line is an object, then garbage.
    let f = write(dir.path(), "j.json", b"{\"a\":1}\n\xff\xfe{{{\n");
    let err = usage_error(&["logs", &f]);
    assert!(err.contains("j.json") && !err.contains("panicked"), "{err}");
}

/// The test file a load balancer puts in its bucket when access logging is enabled
/// (`ELBAccessLogTestFile`, one line, `Enable AccessLog for ELB: <name> at <time>`): inside a
/// log it is skipped and counted by kind, never a bad row; on its own it is refused naming
/// it, never blamed on a format it came closest to.
#[test]
fn the_load_balancers_test_file_is_no_request() {
    let dir = tempfile::tempdir().unwrap();
    let test_line =
        "Enable AccessLog for ELB: app/shop-lb/50dc6c495c0c9188 at 2026-11-01T09:59:00.781Z";
    let alb = |time: &str, status: &str| {
        format!(
            "https {time} app/shop-lb/50dc6c495c0c9188 192.0.2.10:2817 10.0.0.1:80 0.001 0.048 0.000 {status} {status} 34 366 \"POST https://shop.example.com:443/v1/pay HTTP/1.1\" \"curl/8.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/shop/73e2d6bc24d8a067 \"Root=1-58337281-1d84f3d73c47ec4e58577259\" \"shop.example.com\" \"-\" 0 {time} \"forward\" \"-\" \"-\" \"10.0.0.1:80\" \"{status}\" \"-\" \"-\" TID_1234abcd5678ef90"
        )
    };
    let lines = [
        test_line.to_string(),
        alb("2026-11-01T10:00:00.186641Z", "201"),
        alb("2026-11-01T11:00:00.186641Z", "201"),
    ];
    let f = write(dir.path(), "bucket.log", lines.join("\n").as_bytes());
    let out = dupcost()
        .args(["logs", &f, "--min-span", "1h", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("bad row"), "{stderr}");
    let o = serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["observed"].clone();
    assert_eq!((&o["rows"], &o["bad_rows"]), (&2.into(), &0.into()), "{o}");
    assert_eq!(o["files"][0]["input_format"], "AWS ALB");
    assert_eq!(
        o["files"][0]["skipped"][0]["kind"],
        "ELB access log test file lines (ELBAccessLogTestFile, written when logging is enabled)"
    );
    assert_eq!(o["files"][0]["skipped"][0]["lines"], 1);
    let only = write(dir.path(), "ELBAccessLogTestFile", test_line.as_bytes());
    let err = usage_error(&["logs", &only]);
    assert!(
        err.contains("only lines that are not access lines (ELB access log test file lines")
            && !err.contains("comes closest"),
        "{err}"
    );
}
