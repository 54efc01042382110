//! `dupcost estimate` (no logs) marks each input's kind on its own line of the Scenario
//! section, in the table, the markdown and the JSON's `input_kinds`: given by a flag, its
//! environment variable, the scenario file or a preset, or assumed (the default) with the
//! flag that settles it; and its verdict names the assumptions its money rests on. The real
//! binary, run as a user runs it.

use crate::common;

use crate::common::{dupcost, line, stdout_of as stdout, succeed};

#[test]
fn each_input_of_the_table_says_where_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(dir.path(), "s.json", br#"{"retries": 5}"#);
    let table = stdout(
        dupcost()
            .args(["estimate", "--preset", "stripe", "--order-value", "85"])
            .args(["--scenario", &file])
            .env("DUPCOST_TIMEOUT_RATE", "0.5%"),
    );
    assert!(line(&table, "order value").ends_with("$85  given: --order-value"));
    assert!(line(&table, "key TTL").ends_with("1d (stripe)  given: --preset stripe"));
    assert!(line(&table, "retries").ends_with("5  given: the scenario file"));
    // From the environment, it names the variable, not the flag.
    assert!(line(&table, "timeout rate").ends_with("0.5%  given: DUPCOST_TIMEOUT_RATE"));
    assert!(
        line(&table, "succeeded share").ends_with(
            "50%  assumed: the default; --succeeded-share or --outcomes FILE settles it"
        ),
        "{table}"
    );
    assert!(line(&table, "key size").ends_with("assumed: the default; --key-size settles it"));
    // The verdict names the assumed inputs its money rests on, and not the given ones.
    let verdict = line(&table, "Verdict:");
    assert!(
        verdict.ends_with(
            "Assuming 20,000 requests a day (--requests-per-day) and a 50% succeeded share \
             (--succeeded-share)."
        ),
        "{verdict}"
    );
}

#[test]
fn the_markdown_has_a_kind_column_and_the_same_verdict() {
    let md = stdout(dupcost().args(["estimate", "--format", "markdown", "--ttl", "2d"]));
    assert!(md.contains("| input | value | kind | flag |\n| --- | ---: | --- | --- |\n"));
    assert!(
        md.contains("| key TTL | 2d | given: --ttl | `--ttl` |\n"),
        "{md}"
    );
    assert!(md.contains(
        "| order value | $40 | assumed: the default; --order-value settles it | `--order-value` |\n"
    ));
    assert!(md.contains("and a $40 order (--order-value).\n"), "{md}");
}

#[test]
fn the_json_names_each_kind_as_the_logs_report_does() {
    let out = succeed(dupcost().args(["estimate", "--format", "json", "--preset", "stripe"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds = v["input_kinds"].as_object().expect("input_kinds");
    // One kind for each input, by the input's JSON name.
    assert_eq!(kinds.len(), 17);
    for name in kinds.keys() {
        assert!(v["inputs"].get(name).is_some(), "{name}");
    }
    assert_eq!(kinds["ttl_seconds"]["kind"], "given");
    assert_eq!(kinds["ttl_seconds"]["origin"], "preset");
    assert_eq!(kinds["order_value"]["kind"], "assumed");
    assert_eq!(kinds["order_value"]["reason"], "default");
    assert_eq!(kinds["order_value"]["flag"], "--order-value");
    assert_eq!(kinds["succeeded_share"]["outcomes"], true);
    // Added, never renaming: the preset's trace and the inputs are still there.
    assert_eq!(v["preset"]["name"], "stripe");
    assert_eq!(v["inputs"]["ttl_seconds"], 86400.0);
}

/// `dupcost logs --format csv` carries an assumed share's bounds as the JSON's `bounds`, in
/// columns added at the end of the logs' own (empty where the share is measured).
#[test]
fn the_logs_csv_carries_the_bounds() {
    let column = |log: &str, name: &str| -> String {
        let out = succeed(dupcost().args(["logs", log, "--format", "csv"]));
        let mut reader = csv::Reader::from_reader(&out.stdout[..]);
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        let at = header.iter().position(|h| h == name).expect(name);
        row[at].to_string()
    };
    let v = common::json(&["logs", "samples/envoy.log"]);
    for (name, json) in [
        (
            "bounds.succeeded_share.low",
            &v["bounds"]["succeeded_share"][0],
        ),
        (
            "bounds.succeeded_share.high",
            &v["bounds"]["succeeded_share"][1],
        ),
        (
            "bounds.duplicates_per_month.high",
            &v["bounds"]["duplicates_per_month"][1],
        ),
        (
            "bounds.refunds_per_month.high",
            &v["bounds"]["refunds_per_month"][1],
        ),
    ] {
        let csv: f64 = column("samples/envoy.log", name).parse().unwrap();
        assert_eq!(csv, json.as_f64().unwrap(), "{name}");
    }
    assert_eq!(
        column("samples/access-log.csv", "bounds.refunds_per_month.low"),
        ""
    );
}
