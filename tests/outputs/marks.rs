//! Every renderer marks the inputs a report uses, and only those: the backoff a schedule
//! replaces is left out of the table, markdown and HTML alike (JSON keeps its kind, with
//! `replaced_by`), the jitter that still randomises the schedule's delays is kept, and a
//! sweep's compact table lists each input's kind under its rows as the full forms say it
//! beside the value. The real binary, run as a user runs it.

use crate::common::{dupcost, json, line, stdout_of as stdout};

const SCHEDULE: [&str; 3] = ["estimate", "--schedule", "1s,5s,30s"];

/// The inputs a schedule replaces, by label and JSON name.
const BACKOFF: [(&str, &str); 3] = [
    ("backoff", "backoff_seconds"),
    ("backoff factor", "backoff_factor"),
    ("backoff max", "backoff_max_seconds"),
];

fn estimate(format: &str) -> String {
    stdout(dupcost().args(SCHEDULE).args(["--format", format]))
}

#[test]
fn a_schedule_leaves_the_backoff_out_of_markdown_and_html_as_of_the_table() {
    let md = estimate("markdown");
    let html = estimate("html");
    let table = estimate("table");
    for (label, _) in BACKOFF {
        assert!(!md.contains(&format!("| {label} |")), "{label} in\n{md}");
        assert!(
            !html.contains(&format!("<th scope=\"row\">{label}</th>")),
            "{label} in\n{html}"
        );
        assert!(
            !table.lines().any(|l| l.trim_start().starts_with(label)),
            "{label} in\n{table}"
        );
    }
    // The delays in the backoff's place, given by the flag.
    assert!(
        md.contains(
            "| attempt timeout | 10s | assumed: the default; --attempt-timeout settles it | \
             `--attempt-timeout` |\n| retry delays | 1s, 5s, 30s | given: --schedule | \
             `--schedule` |\n| jitter |"
        ),
        "{md}"
    );
    assert!(html.contains(
        "<tr><th scope=\"row\">retry delays</th><td class=\"n\">1s, 5s, 30s</td><td><span \
         class=\"kind kind-given\">given</span></td><td>--schedule</td></tr>"
    ));
    assert!(line(&table, "retry delays").ends_with("1s, 5s, 30s  given: --schedule"));
    // The jitter randomises the schedule's delays: it is used, and assumed, in all three.
    let jitter = "assumed: the default; --jitter settles it";
    assert!(
        md.contains(&format!("| jitter | none | {jitter} | `--jitter` |")),
        "{md}"
    );
    assert!(html.contains(
        "<tr class=\"assumed\"><th scope=\"row\">jitter</th><td class=\"n\">none</td><td><span \
         class=\"kind kind-assumed\">assumed</span></td><td>the default; --jitter settles it</td>"
    ));
    assert!(
        line(&table, "jitter").ends_with(&format!("none  {jitter}")),
        "{table}"
    );
}

#[test]
fn the_json_marks_what_the_schedule_replaced_and_nothing_else() {
    let v = json(&SCHEDULE);
    let kinds = v["input_kinds"].as_object().unwrap();
    for (_, name) in BACKOFF {
        // Still there, as they were (the contract drops nothing), and marked replaced.
        assert_eq!(kinds[name]["kind"], "assumed", "{name}");
        assert_eq!(kinds[name]["replaced_by"], "schedule_seconds", "{name}");
        assert!(v["inputs"].get(name).is_some(), "{name}");
    }
    for (name, kind) in kinds {
        if !BACKOFF.iter().any(|(_, n)| n == name) {
            assert!(kind.get("replaced_by").is_none(), "{name}: {kind}");
        }
    }
    assert_eq!(kinds["jitter"]["kind"], "assumed");
    assert_eq!(kinds["schedule_seconds"]["kind"], "given");
    // Without a schedule nothing is replaced, and the key is left out.
    let plain = json(&["estimate"]);
    let kinds = plain["input_kinds"].as_object().unwrap();
    assert!(kinds.values().all(|k| k.get("replaced_by").is_none()));
}

#[test]
fn the_logs_reports_put_the_schedule_in_the_backoffs_place() {
    let log = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv").to_string();
    let run = |format: &str| {
        stdout(
            dupcost()
                .args(["logs", "--schedule", "1s,5s", "--format", format])
                .arg(&log),
        )
    };
    let (md, html) = (run("markdown"), run("html"));
    for (label, _) in BACKOFF {
        assert!(!md.contains(&format!("| {label} |")), "{label} in\n{md}");
        assert!(!html.contains(&format!("<th scope=\"row\">{label}</th>")));
    }
    assert!(
        md.contains(
            "| retry delays | 1s, 5s | given: --schedule | not in logs: the scenario's \
             (`--schedule`) |  |\n| jitter | none | assumed: the default; --jitter settles it |"
        ),
        "{md}"
    );
    assert!(
        html.contains(
            "<tr><th scope=\"row\">retry delays</th><td data-label=\"value\" class=\"n\">1s, \
             5s</td><td data-label=\"kind\"><span class=\"kind kind-given\">given</span> \
             --schedule</td><td data-label=\"evidence\">not in logs</td>"
        ),
        "{html}"
    );
    let kinds = &json(&["logs", "--schedule", "1s,5s", log.as_str()])["input_kinds"];
    assert_eq!(kinds["backoff_seconds"]["replaced_by"], "schedule_seconds");
    assert_eq!(kinds["schedule_seconds"]["kind"], "given");
}

/// The marks under a sweep's table, one paragraph a kind, continuation lines indented.
fn marks_of(table: &str) -> Vec<String> {
    let after_rows = table.split("\n\n").nth(1).expect("marks under the rows");
    let mut marks: Vec<String> = Vec::new();
    for l in after_rows.lines() {
        match l.strip_prefix("  ") {
            Some(more) => {
                let last = marks.last_mut().expect("a first line");
                last.push(' ');
                last.push_str(more);
            }
            None => marks.push(l.to_string()),
        }
    }
    marks
}

#[test]
fn a_sweeps_compact_table_marks_every_input_as_the_full_form_does() {
    let args = ["estimate", "--sweep", "retries=0..3", "--order-value", "50"];
    let table = stdout(dupcost().args(args));
    let marks = marks_of(&table);
    // Wrapped to about the rows' width.
    let under = table.split("\n\n").nth(1).unwrap();
    assert!(under.lines().all(|l| l.chars().count() <= 96), "{table}");
    assert_eq!(
        marks[0], "given: order value $50 (--order-value); retries 0 to 3 (--sweep)",
        "{table}"
    );
    let assumed = &marks[1];
    assert!(
        assumed.starts_with(
            "assumed, the default, each settled by its flag: requests per day 20,000 \
             (--requests-per-day); timeout rate 0.2% (--timeout-rate); succeeded share 50% \
             (--succeeded-share or --outcomes FILE); key TTL 1d (--ttl);"
        ),
        "{table}"
    );
    assert_eq!(marks.len(), 2, "{table}");
    // Every input of the markdown's full form is in the marks, with its value and its kind.
    let md = stdout(dupcost().args(args).args(["--format", "markdown"]));
    let rows: Vec<Vec<&str>> = md
        .lines()
        .skip_while(|l| !l.starts_with("| input |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 17, "{md}");
    for row in rows {
        let (label, value, kind) = (row[0], row[1], row[2]);
        let shown = if label == "retries" { "0 to 3" } else { value };
        let kind_name = kind.split(':').next().unwrap();
        let mark = marks
            .iter()
            .find(|m| m.starts_with(kind_name))
            .unwrap_or_else(|| panic!("no {kind_name} marks in\n{table}"));
        assert!(
            mark.contains(&format!("{label} {shown} (")),
            "{label} {shown} not in {mark}"
        );
    }
}

#[test]
fn a_sweep_under_a_schedule_marks_the_delays_not_the_backoff() {
    let table = stdout(
        dupcost()
            .args(["estimate", "--sweep", "ttl=1m..3m:3"])
            .args(["--schedule", "1s,5s,30s"]),
    );
    let marks = marks_of(&table).join("\n");
    assert!(
        marks.starts_with(
            "given: retries 3 (one per delay of --schedule); key TTL 1m to 3m (--sweep); retry \
             delays 1s, 5s, 30s (--schedule)\n"
        ),
        "{table}"
    );
    assert!(marks.contains("; jitter none (--jitter);"), "{table}");
    for (label, _) in BACKOFF {
        assert!(!marks.contains(&format!("{label} ")), "{label} in\n{table}");
    }
}

/// A preset's values are marked once: `attempt timeout 15s (--preset svix-webhooks)`, not with
/// the preset's name after the value as well.
#[test]
fn a_sweep_under_a_preset_names_the_preset_once() {
    let table = stdout(
        dupcost()
            .args(["estimate", "--preset", "svix-webhooks"])
            .args(["--sweep", "retries=0..3"]),
    );
    let marks = marks_of(&table).join("\n");
    assert!(
        marks.starts_with(
            "given: retries 0 to 3 (--sweep); attempt timeout 15s (--preset svix-webhooks); \
             retry delays 5s, 5m, 30m, 2h, 5h, 10h, 10h (--preset svix-webhooks)\n"
        ),
        "{table}"
    );
    assert!(!marks.contains("(svix-webhooks)"), "{table}");
}

/// Without `:STEPS`, a wide whole-number range takes 11 values, not one a second.
#[test]
fn a_wide_ttl_sweep_takes_eleven_values() {
    let v = json(&["estimate", "--sweep", "ttl=1h..3h"]);
    let ttls: Vec<f64> = v
        .as_array()
        .unwrap_or_else(|| panic!("an array of estimates: {v}"))
        .iter()
        .map(|e| e["inputs"]["ttl_seconds"].as_f64().unwrap())
        .collect();
    assert_eq!(ttls.len(), 11, "{v}");
    assert_eq!((ttls[0], ttls[1], ttls[10]), (3600.0, 4320.0, 10_800.0));
}

/// CSV carries what JSON marks on the measured inputs and the endpoints past the top ones:
/// `input_kinds.NAME.thin` (count, of), `input_kinds.NAME.inferred_field` (field, given_by)
/// and `observed.per_endpoint_other`, each column equal to its JSON value, empty where JSON
/// leaves it out.
#[test]
fn csv_has_the_thin_inferred_and_other_endpoints_columns() {
    let dir = tempfile::tempdir().unwrap();
    // 12 endpoints (two past the top 10), one timed-out attempt in ten, two in five of them
    // answered 200 upstream: nginx combined with $upstream_status $request_time appended.
    let mut log = String::new();
    for i in 0..480 {
        let (status, upstream, time) = if i % 10 == 3 {
            let up = if (i / 10) % 5 < 2 { "200" } else { "503" };
            (504, up, "30.001")
        } else {
            (201, "201", "0.125")
        };
        let at = i * 90;
        log += &format!(
            "10.0.{}.{} - - [02/Nov/2026:{:02}:{:02}:{:02} +0000] \"POST /v1/e{} HTTP/1.1\" {status} 12 \"-\" \"curl/8.0\" {upstream} {time}\n",
            i % 7,
            i % 251,
            at / 3600,
            at / 60 % 60,
            at % 60,
            i % 12
        );
    }
    let path = dir.path().join("access.log");
    std::fs::write(&path, log).unwrap();
    let file = path.to_str().unwrap();
    let csv_of = |file: &str| {
        let text = stdout(dupcost().args(["logs", file, "--format", "csv"]));
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        header
            .iter()
            .zip(row.iter())
            .map(|(h, v)| (h.to_string(), v.to_string()))
            .collect::<std::collections::HashMap<_, _>>()
    };
    let cell = |row: &std::collections::HashMap<String, String>, name: &str| {
        row.get(name)
            .unwrap_or_else(|| panic!("{name} in {:?}", row.keys()))
            .clone()
    };
    let row = csv_of(file);
    let v = json(&["logs", file]);
    let other = &v["observed"]["per_endpoint_other"];
    assert_eq!(other["endpoints"], 2, "{other}");
    for name in [
        "endpoints",
        "mutating",
        "timed_out",
        "duplicates_per_month",
        "refund_per_month",
    ] {
        let csv_value: f64 = cell(&row, &format!("observed.per_endpoint_other.{name}"))
            .parse()
            .unwrap();
        assert_eq!(csv_value, other[name].as_f64().unwrap(), "{name}");
    }
    let mark = &v["input_kinds"]["succeeded_share"]["inferred_field"];
    assert_eq!(mark["field"], "upstream_status", "{mark}");
    assert_eq!(
        cell(&row, "input_kinds.succeeded_share.inferred_field.field"),
        "upstream_status"
    );
    assert_eq!(
        cell(&row, "input_kinds.succeeded_share.inferred_field.given_by"),
        mark["given_by"].as_str().unwrap()
    );
    assert_eq!(
        cell(&row, "input_kinds.succeeded_share.inferred_field.given_by"),
        "--log-format 'combined $upstream_status $request_time'"
    );
    // The bundled ALB sample's share is thin: 10 of 26.
    let row = csv_of("samples/alb.log");
    let v = json(&["logs", "samples/alb.log"]);
    let thin = &v["input_kinds"]["succeeded_share"]["thin"];
    assert_eq!((&thin["count"], &thin["of"]), (&10.into(), &26.into()));
    assert_eq!(cell(&row, "input_kinds.succeeded_share.thin.count"), "10");
    assert_eq!(cell(&row, "input_kinds.succeeded_share.thin.of"), "26");
    // Left out of JSON, empty in CSV.
    assert!(v["input_kinds"]["timeout_rate"].get("thin").is_none());
    assert_eq!(cell(&row, "input_kinds.timeout_rate.thin.count"), "");
    assert_eq!(cell(&row, "observed.per_endpoint_other.endpoints"), "");
    assert_eq!(
        cell(&row, "input_kinds.succeeded_share.inferred_field.field"),
        ""
    );
}
