//! `dupcost estimate` through the real binary: the worked figures of `docs/MODEL.md`, every format,
//! every source of inputs, and every kind of bad input.

use std::io::Read;
use std::process::{Command as StdCommand, Stdio};

use crate::common::{close, dupcost, json, succeed, usage_error};

fn f(v: &serde_json::Value, path: &str) -> f64 {
    path.split('.')
        .fold(v, |v, key| &v[key])
        .as_f64()
        .unwrap_or_else(|| panic!("{path} is not a number in {v}"))
}

#[test]
fn worked_figures_rule_of_thumb_and_one_retry() {
    let v = json(&["estimate", "--retries", "1"]);
    assert!(close(
        f(&v, "duplicates.rule_of_thumb_per_day"),
        20.0,
        1e-12
    ));
    assert!(close(f(&v, "duplicates.per_day"), 19.98, 1e-12));
    assert!(close(f(&v, "duplicates.per_month"), 599.4, 1e-12));
    assert!(close(f(&v, "refund_cost.per_month"), 23_976.0, 1e-12));
}

#[test]
fn worked_figures_three_retries_is_the_default() {
    let v = json(&["estimate"]);
    assert_eq!(v["inputs"]["retries"], 3);
    assert_eq!(format!("{:.2}", f(&v, "duplicates.per_day")), "20.04");
    // 20 a day x 30 days x $40: the rule of thumb's $24,000, and the exact $24,048.
    assert!(close(
        f(&v, "duplicates.rule_of_thumb_per_day") * 30.0 * 40.0,
        24_000.0,
        1e-12
    ));
    assert_eq!(format!("{:.0}", f(&v, "refund_cost.per_month")), "24048");
}

#[test]
fn worked_figures_zero_retries() {
    let v = json(&["estimate", "--retries", "0"]);
    assert_eq!(f(&v, "duplicates.per_day"), 0.0);
    assert!(close(f(&v, "unanswered.zero_retries_per_day"), 40.0, 1e-12));
    assert!(close(
        f(&v, "unanswered.zero_retries_per_month"),
        1_200.0,
        1e-12
    ));
    assert!(close(
        f(&v, "unanswered.charged_zero_retries_per_month"),
        600.0,
        1e-12
    ));
}

#[test]
fn worked_figures_key_store() {
    let v = json(&["estimate"]);
    assert_eq!(f(&v, "key_store.live_keys"), 20_000.0);
    assert_eq!(f(&v, "key_store.bytes"), 20_000_000.0);
}

#[test]
fn json_has_exactly_the_contract_of_model_md() {
    let v = json(&["estimate"]);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(&v),
        [
            "inputs",
            "duplicates",
            "refund_cost",
            "unanswered",
            "extra_attempts_per_day",
            "key_store",
            "retry_horizon_seconds",
            "amplification",
            "input_kinds"
        ]
    );
    assert_eq!(
        keys(&v["inputs"]),
        [
            "requests_per_day",
            "timeout_rate",
            "succeeded_share",
            "order_value",
            "retries",
            "ttl_seconds",
            "key_size_bytes",
            "days_per_month",
            "attempt_timeout_seconds",
            "backoff_seconds",
            "backoff_factor",
            "backoff_max_seconds",
            "jitter",
            "layers",
            "key_bytes",
            "body_bytes",
            "store"
        ]
    );
    assert_eq!(
        keys(&v["duplicates"]),
        [
            "per_day",
            "per_month",
            "rule_of_thumb_per_day",
            "with_key_store"
        ]
    );
    assert_eq!(
        keys(&v["duplicates"]["with_key_store"]),
        ["per_day", "per_month"]
    );
    assert_eq!(keys(&v["refund_cost"]), ["per_month", "per_year"]);
    assert_eq!(
        keys(&v["unanswered"]),
        [
            "zero_retries_per_day",
            "zero_retries_per_month",
            "charged_zero_retries_per_month",
            "per_day",
            "charged_per_day"
        ]
    );
    assert_eq!(keys(&v["key_store"]), ["live_keys", "bytes", "by_store"]);
    assert_eq!(
        keys(&v["key_store"]["by_store"]),
        ["bytes", "redis", "postgres"]
    );
    assert_eq!(keys(&v["amplification"]), ["worst_case", "expected"]);
    assert_eq!(v["inputs"]["jitter"], "none");
    assert_eq!(v["inputs"]["store"], "bytes");
}

#[test]
fn worked_figures_retry_horizon_and_amplification() {
    let v = json(&["estimate"]);
    assert_eq!(f(&v, "retry_horizon_seconds"), 47.0);
    assert_eq!(f(&v, "duplicates.with_key_store.per_day"), 0.0);
    assert_eq!(f(&v, "key_store.by_store.bytes"), 20_000_000.0);
    // The article's 243x: 2 retries (3 tries a layer) at 5 layers.
    let v = json(&["estimate", "--retries", "2", "--layers", "5"]);
    assert_eq!(f(&v, "amplification.worst_case"), 243.0);
    assert!(f(&v, "amplification.expected") < 1.02);
    // Jitter only shortens sleeps: the worst case is the same.
    let v = json(&["estimate", "--jitter", "full", "--backoff", "500ms"]);
    assert_eq!(f(&v, "retry_horizon_seconds"), 40.0 + 0.5 + 1.0 + 2.0);
    assert_eq!(v["inputs"]["jitter"], "full");
}

#[test]
fn a_ttl_shorter_than_the_horizon_is_named_and_counted() {
    let v = json(&["estimate", "--ttl", "20s", "--timeout-rate", "10%"]);
    let left = f(&v, "duplicates.with_key_store.per_month");
    assert!(left > 0.0 && left < f(&v, "duplicates.per_month"), "{left}");
    let out = dupcost()
        .args(["estimate", "--ttl", "20s"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("the key TTL (20s) is shorter than the client's retry horizon (47s)"),
        "{text}"
    );
}

#[test]
fn the_store_flag_picks_the_headline() {
    let v = json(&["estimate", "--store", "redis", "--body-bytes", "2kB"]);
    assert_eq!(v["inputs"]["store"], "redis");
    assert_eq!(f(&v, "inputs.body_bytes"), 2000.0);
    let redis = f(&v, "key_store.by_store.redis");
    let out = dupcost()
        .args(["estimate", "--store", "redis", "--body-bytes", "2kB"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let shown = format!("a {} key store", dupcost::report::human::size(redis));
    assert!(text.contains(&shown), "{shown} not in\n{text}");
    assert!(text.contains("size in Redis (--store)"), "{text}");
}

#[test]
fn scenario_file_takes_the_new_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.json");
    std::fs::write(
        &path,
        r#"{"attempt_timeout_seconds": "2s", "backoff_seconds": 0.1, "backoff_factor": 3,
            "backoff_max_seconds": "1m", "jitter": "equal", "layers": 3, "key_bytes": 26,
            "body_bytes": "4kB", "store": "postgres"}"#,
    )
    .unwrap();
    let v = json(&["estimate", "--scenario", path.to_str().unwrap()]);
    let i = &v["inputs"];
    assert_eq!(i["attempt_timeout_seconds"], 2.0);
    assert_eq!(i["backoff_seconds"], 0.1);
    assert_eq!(i["backoff_factor"], 3.0);
    assert_eq!(i["backoff_max_seconds"], 60.0);
    assert_eq!(i["jitter"], "equal");
    assert_eq!(i["layers"], 3);
    assert_eq!(i["key_bytes"], 26);
    assert_eq!(i["body_bytes"], 4000);
    assert_eq!(i["store"], "postgres");
    // 4 x 2 s + 0.1 + 0.3 + 0.9
    assert!(close(f(&v, "retry_horizon_seconds"), 9.3, 1e-12));
    // A saved scenario (the inputs object) reads back the same.
    std::fs::write(&path, serde_json::to_string(i).unwrap()).unwrap();
    let again = json(&["estimate", "--scenario", path.to_str().unwrap()]);
    assert_eq!(again["inputs"], *i);
}

#[test]
fn default_table_snapshot() {
    let out = dupcost().arg("estimate").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b'), "no colour on a pipe");
    insta::assert_snapshot!("default_table", text);
}

#[test]
fn zero_retries_table_snapshot() {
    let out = dupcost()
        .args(["estimate", "--retries", "0", "--currency", "€"])
        .output()
        .unwrap();
    insta::assert_snapshot!("zero_retries_table", String::from_utf8(out.stdout).unwrap());
}

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let coloured = dupcost()
        .args(["estimate", "--color", "always"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&coloured.stdout).contains('\x1b'));
    let never = dupcost()
        .args(["estimate", "--color", "never"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&never.stdout).contains('\x1b'));
    let no_color = dupcost()
        .args(["estimate"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&no_color.stdout).contains('\x1b'));
}

#[test]
fn csv_has_a_header_of_dotted_names_and_one_row() {
    let out = dupcost()
        .args(["estimate", "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let header: Vec<_> = lines[0].split(',').collect();
    let row: Vec<_> = lines[1].split(',').collect();
    assert_eq!(header.len(), row.len());
    let at = |name: &str| {
        row[header.iter().position(|h| *h == name).unwrap()]
            .parse::<f64>()
            .unwrap()
    };
    assert_eq!(at("inputs.retries"), 3.0);
    assert_eq!(format!("{:.2}", at("duplicates.per_day")), "20.04");
    assert_eq!(at("key_store.bytes"), 20_000_000.0);
}

#[test]
fn sweep_of_retries_in_every_format() {
    let v = json(&["estimate", "--sweep", "retries=0..5"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(f(&rows[0], "duplicates.per_day"), 0.0);
    assert!(close(f(&rows[1], "duplicates.per_day"), 19.98, 1e-12));
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["inputs"]["retries"], i);
    }

    let csv = dupcost()
        .args([
            "estimate",
            "--sweep",
            "timeout-rate=0.1%..2%:20",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(csv.stdout).unwrap().lines().count(), 21);

    let table = dupcost()
        .args(["estimate", "--sweep", "retries=0..3"])
        .output()
        .unwrap();
    insta::assert_snapshot!(
        "sweep_retries_table",
        String::from_utf8(table.stdout).unwrap()
    );
}

#[test]
fn every_input_flag_in_its_forms() {
    let v = json(&[
        "estimate",
        "--requests-per-day",
        "1.5M",
        "--timeout-rate",
        "0.35%",
        "--succeeded-share",
        "0.25",
        "--order-value",
        "$1,250.50",
        "--retries",
        "2",
        "--ttl",
        "1h30m",
        "--key-size",
        "2KiB",
        "--days-per-month",
        "30.44",
    ]);
    let inputs = &v["inputs"];
    assert_eq!(inputs["requests_per_day"], 1_500_000.0);
    assert_eq!(inputs["timeout_rate"], 0.0035);
    assert_eq!(inputs["succeeded_share"], 0.25);
    assert_eq!(inputs["order_value"], 1250.5);
    assert_eq!(inputs["retries"], 2);
    assert_eq!(inputs["ttl_seconds"], 5400);
    assert_eq!(inputs["key_size_bytes"], 2048);
    assert_eq!(inputs["days_per_month"], 30.44);
    assert!(close(
        f(&v, "key_store.live_keys"),
        1_500_000.0 * 5400.0 / 86400.0,
        1e-12
    ));
}

#[test]
fn precedence_file_then_environment_then_flags() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(
        &file,
        r#"{"order_value": 10, "retries": 1, "timeout_rate": "1%"}"#,
    )
    .unwrap();
    let out = succeed(
        dupcost()
            .args(["estimate", "--format", "json", "--scenario"])
            .arg(&file)
            .args(["--retries", "2"])
            .env("DUPCOST_RETRIES", "5")
            .env("DUPCOST_ORDER_VALUE", "20"),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"]["timeout_rate"], 0.01, "from the file");
    assert_eq!(
        v["inputs"]["order_value"], 20.0,
        "environment beats the file"
    );
    assert_eq!(v["inputs"]["retries"], 2, "the flag beats the environment");
}

#[test]
fn scenario_from_stdin_and_json_round_trip() {
    let first = dupcost()
        .args([
            "estimate",
            "--format",
            "json",
            "--retries",
            "1",
            "--ttl",
            "2d",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let inputs = serde_json::to_string(&v["inputs"]).unwrap();
    let again = succeed(
        dupcost()
            .args(["estimate", "--format", "json", "--scenario", "-"])
            .write_stdin(inputs),
    );
    let mut again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    let mut v = v;
    // The same figures; only where the inputs came from differs: the flags, then the file.
    assert_eq!(v["input_kinds"]["retries"]["origin"], "flag");
    assert_eq!(again["input_kinds"]["retries"]["origin"], "scenario");
    v.as_object_mut().unwrap().remove("input_kinds");
    again.as_object_mut().unwrap().remove("input_kinds");
    assert_eq!(v, again);
}

/// `--scenario -` reads standard input once, in every command that takes a scenario: the
/// file's values are used and marked as the scenario file's.
#[test]
fn scenario_from_stdin_serves_every_command() {
    let scenario = r#"{"order_value": 85, "ttl_seconds": "2d"}"#;
    let result = "tests/fixtures/sql/access-log-result.csv";
    let commands: [&[&str]; 3] = [
        &["estimate"],
        &["logs", "samples/access-log.csv"],
        &["estimate", "--observed", result],
    ];
    for args in commands {
        let out = succeed(
            dupcost()
                .args(args)
                .args(["--scenario", "-", "--format", "json"])
                .write_stdin(scenario),
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["inputs"]["order_value"], 85.0, "{args:?}");
        assert_eq!(v["inputs"]["ttl_seconds"], 172_800.0, "{args:?}");
        assert_eq!(
            v["input_kinds"]["order_value"]["origin"], "scenario",
            "{args:?}"
        );
    }
}

/// Two readers of standard input are refused before either reads it, naming both.
#[test]
fn stdin_is_read_by_one_flag() {
    let cases: [&[&str]; 4] = [
        &["logs", "-", "--scenario", "-"],
        &["estimate", "--observed", "-", "--scenario", "-"],
        &["tui", "--logs", "-", "--scenario", "-"],
        &[
            "probe",
            "http://127.0.0.1:9/",
            "--data",
            "@-",
            "--scenario",
            "-",
        ],
    ];
    for args in cases {
        let err = usage_error(args);
        assert!(err.contains("--scenario -"), "{args:?}: {err}");
        assert!(err.contains("can be read only once"), "{args:?}: {err}");
    }
}

#[test]
fn bad_flag_values_name_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (&["--timeout-rate", "2"], "did you mean 2%?"),
        (&["--timeout-rate", "abc"], "--timeout-rate"),
        (&["--timeout-rate", "-0.1"], "--timeout-rate"),
        (&["--timeout-rate", "NaN"], "--timeout-rate"),
        (&["--timeout-rate", "inf"], "--timeout-rate"),
        (&["--timeout-rate", "150%"], "--timeout-rate"),
        (&["--succeeded-share", "1.5"], "--succeeded-share"),
        (&["--requests-per-day", "-5"], "--requests-per-day"),
        (&["--requests-per-day", "lots"], "--requests-per-day"),
        (&["--requests-per-day", "1e400"], "--requests-per-day"),
        (&["--order-value", "-1"], "--order-value"),
        (&["--order-value", "1,25"], "--order-value"),
        (&["--order-value", "$"], "--order-value"),
        (&["--retries", "101"], "--retries"),
        (&["--retries", "-1"], "--retries"),
        (&["--retries", "1.5"], "--retries"),
        (&["--ttl", "0s"], "--ttl"),
        (&["--ttl", "forever"], "--ttl"),
        (&["--ttl", "-1h"], "--ttl"),
        (&["--key-size", "0"], "--key-size"),
        (&["--key-size", "1XB"], "--key-size"),
        (&["--key-size", "0.5"], "--key-size"),
        (&["--days-per-month", "0"], "--days-per-month"),
        (&["--days-per-month", "inf"], "--days-per-month"),
        (
            &["--requests-per-day", "1e300", "--days-per-month", "1e300"],
            "too large",
        ),
        (&["--attempt-timeout", "0s"], "--attempt-timeout"),
        (&["--attempt-timeout", "soon"], "--attempt-timeout"),
        (&["--attempt-timeout", "-1s"], "--attempt-timeout"),
        (&["--backoff", "NaN"], "--backoff"),
        (&["--backoff-factor", "0.5"], "--backoff-factor"),
        (&["--backoff-factor", "x"], "--backoff-factor"),
        (&["--backoff-max", "-5s"], "--backoff-max"),
        (&["--jitter", "some"], "--jitter"),
        (&["--layers", "0"], "--layers"),
        (&["--layers", "21"], "--layers"),
        (&["--key-bytes", "0"], "--key-bytes"),
        (&["--body-bytes", "-1"], "--body-bytes"),
        (&["--store", "mysql"], "--store"),
        (&["--sweep", "layers=0..3"], "--sweep"),
        (&["--sweep", "jitter=none..some"], "--sweep"),
        (&["--format", "xml"], "--format"),
        (&["--sweep", "retries"], "--sweep"),
        (&["--sweep", "bogus=1..2"], "--sweep"),
        (&["--sweep", "retries=0..500"], "--sweep"),
        (&["--nonsense"], "--nonsense"),
    ];
    for (args, needle) in cases {
        let line = usage_error(&[&["estimate"], *args].concat());
        assert!(line.contains(needle), "{args:?}: {line}");
        assert!(line.starts_with("error: "), "{args:?}: {line}");
    }
}

#[test]
fn bad_environment_values_are_usage_errors() {
    let out = dupcost()
        .arg("estimate")
        .env("DUPCOST_TIMEOUT_RATE", "5")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--timeout-rate") && stderr.contains("did you mean 5%?"),
        "{stderr}"
    );
}

#[test]
fn bad_scenario_files_name_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("not-json.json", "retries: 3", "not valid JSON"),
        ("array.json", "[1, 2]", "JSON object"),
        ("unknown.json", r#"{"retry": 3}"#, "unknown input 'retry'"),
        (
            "range.json",
            r#"{"timeout_rate": 1.5}"#,
            "timeout_rate: must be between 0 and 1",
        ),
        (
            "negative.json",
            r#"{"requests_per_day": -1}"#,
            "requests_per_day",
        ),
        ("fraction.json", r#"{"retries": 2.5}"#, "retries"),
        ("string.json", r#"{"ttl_seconds": "soon"}"#, "ttl_seconds"),
    ];
    for (name, text, needle) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let line = usage_error(&["estimate", "--scenario", path.to_str().unwrap()]);
        assert!(
            line.contains(name) && line.contains(needle),
            "{name}: {line}"
        );
    }
    let line = usage_error(&["estimate", "--scenario", "/no/such/file.json"]);
    assert!(line.contains("/no/such/file.json"), "{line}");
    let line = usage_error(&["estimate", "--scenario", dir.path().to_str().unwrap()]);
    assert!(line.contains("scenario file"), "{line}");
}

#[test]
fn a_closed_stdout_exits_quietly() {
    // Enough output to fill the pipe, so the write must meet the closed reader.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("dupcost"))
        .args(["estimate", "--sweep", "retries=0..100", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn help_and_version() {
    let out = dupcost().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("dupcost ")
    );
    let help = dupcost().args(["estimate", "--help"]).output().unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    for flag in [
        "--requests-per-day",
        "--timeout-rate",
        "--succeeded-share",
        "--order-value",
        "--retries",
        "--ttl",
        "--key-size",
        "--days-per-month",
        "--scenario",
        "--sweep",
        "--format",
        "--currency",
        "DUPCOST_ORDER_VALUE",
        "Examples:",
    ] {
        assert!(text.contains(flag), "{flag} missing from estimate --help");
    }
    let bare = dupcost().output().unwrap();
    assert_eq!(
        bare.status.code(),
        Some(2),
        "no subcommand is a usage error"
    );
}

#[test]
fn the_new_inputs_sweep() {
    let v = json(&["estimate", "--sweep", "attempt-timeout=1s..5s:5"]);
    let horizons: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| f(e, "retry_horizon_seconds"))
        .collect();
    assert_eq!(horizons, [11.0, 15.0, 19.0, 23.0, 27.0]);
    let v = json(&["estimate", "--sweep", "jitter=none..full"]);
    let kinds: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["inputs"]["jitter"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["none", "equal", "full"]);
    let v = json(&["estimate", "--sweep", "layers=1..5", "--retries", "2"]);
    let worst: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| f(e, "amplification.worst_case"))
        .collect();
    assert_eq!(worst, [3.0, 9.0, 27.0, 81.0, 243.0]);
    let out = dupcost()
        .args(["estimate", "--sweep", "store=bytes..postgres"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("postgres"), "{text}");
    let csv = dupcost()
        .args([
            "estimate",
            "--sweep",
            "body-bytes=100..10kB:3",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains("key_store.by_store.postgres")
    );
}

#[test]
fn environment_sets_the_new_inputs() {
    let out = succeed(
        dupcost()
            .args(["estimate", "--format", "json"])
            .env("DUPCOST_JITTER", "equal")
            .env("DUPCOST_ATTEMPT_TIMEOUT", "2500ms")
            .env("DUPCOST_STORE", "redis"),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"]["jitter"], "equal");
    assert_eq!(v["inputs"]["attempt_timeout_seconds"], 2.5);
    assert_eq!(v["inputs"]["store"], "redis");
}

/// A duration typed without a unit is refused with the unit that fits its number.
#[test]
fn a_bare_duration_suggests_the_unit_that_fits() {
    for (flag, value, suggested) in [
        ("--attempt-timeout", "1500", "did you mean 1500ms?"),
        ("--attempt-timeout", "30", "did you mean 30s?"),
        ("--backoff", "2", "did you mean 2s?"),
        ("--ttl", "48", "did you mean 48h?"),
        ("--ttl", "86400", "did you mean 86400s?"),
    ] {
        let err = usage_error(&["estimate", flag, value]);
        assert!(err.contains(suggested), "{flag} {value}: {err}");
        assert!(
            !err.contains(&format!("{value}h or")),
            "{flag} {value}: {err}"
        );
    }
}

/// Valid inputs that are most likely not what was meant are used, with one warning each on
/// stderr: an order value of 0 names the unquoted-`$` trap; over a billion requests a day.
#[test]
fn implausible_inputs_warn() {
    let stderr = |args: &[&str]| {
        let out = succeed(dupcost().arg("estimate").args(args));
        String::from_utf8(out.stderr).unwrap()
    };
    let zero = stderr(&["--order-value", "0"]);
    assert_eq!(zero.lines().count(), 1, "{zero}");
    assert!(zero.starts_with("warning: --order-value is 0"), "{zero}");
    assert!(zero.contains("'$40'"), "{zero}");
    let zero_env = {
        let out = succeed(dupcost().arg("estimate").env("DUPCOST_ORDER_VALUE", "0"));
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(zero_env.contains("DUPCOST_ORDER_VALUE is 0"), "{zero_env}");
    let huge = stderr(&["--requests-per-day", "2e9"]);
    assert_eq!(huge.lines().count(), 1, "{huge}");
    assert!(huge.contains("over a billion requests a day"), "{huge}");
    assert!(stderr(&["--requests-per-day", "1e9", "--order-value", "40"]).is_empty());
}

/// A tiny given rate reads `<0.000001%` in every human format, never in e-notation.
#[test]
fn a_tiny_rate_reads_without_e_notation() {
    for (format, tiny) in [
        ("table", "<0.000001%"),
        ("markdown", "<0.000001%"),
        ("html", "&lt;0.000001%"),
    ] {
        let out = succeed(dupcost().args([
            "estimate",
            "--timeout-rate",
            "1e-22",
            "--explain",
            "--format",
            format,
        ]));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(tiny), "{format}: {text}");
        assert!(!text.contains("e-20"), "{format}: {text}");
    }
}
