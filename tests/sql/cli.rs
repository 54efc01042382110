//! `dupcost sql` and `dupcost estimate --observed` as a user runs them, without an engine:
//! the flags' errors, and every kind of bad result file (one line naming the column and the
//! line, exit code 2). tests/sql/engines.rs runs the queries on real engines.

use crate::common::{dupcost, json, succeed, usage_error};

/// A result DuckDB exported for samples/access-log.csv.
const RESULT: &str = "tests/fixtures/sql/access-log-result.csv";

fn result_text() -> String {
    std::fs::read_to_string(RESULT).unwrap()
}

/// `estimate --observed` on `text` written to a file: its one-line error.
fn observed_error(text: &str, name: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    usage_error(&["estimate", "--observed", path.to_str().unwrap()])
}

/// `text` with the `index`-th field of the line starting with `prefix` replaced.
fn with_field(text: &str, prefix: &str, index: usize, value: &str) -> String {
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if done || !line.starts_with(prefix) {
                return line.to_string();
            }
            done = true;
            let mut fields: Vec<&str> = line.split(',').collect();
            fields[index] = value;
            fields.join(",")
        })
        .collect();
    assert!(done, "a line starts with {prefix}");
    lines.join("\n") + "\n"
}

/// `text` (a result CSV) with the total row's `column` set to `value`.
fn with_column(text: &str, column: &str, value: &str) -> String {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|h| h == column).unwrap();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&header).unwrap();
    for record in reader.records() {
        let record = record.unwrap();
        let mut fields: Vec<&str> = record.iter().collect();
        if fields[0] == "total" {
            fields[at] = value;
        }
        writer.write_record(&fields).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

#[test]
fn the_result_read_back_is_the_report_of_the_sample() {
    let sql = json(&["estimate", "--observed", RESULT]);
    let logs = json(&["logs", "samples/access-log.csv"]);
    assert_eq!(sql["observed"]["per_day"], logs["observed"]["per_day"]);
    assert_eq!(
        sql["observed"]["per_endpoint"],
        logs["observed"]["per_endpoint"]
    );
    assert_eq!(sql["inputs"], logs["inputs"]);
    assert_eq!(sql["observed"]["intents"], 2069);
}

#[test]
fn stdin_and_json_lines_are_read() {
    let out = succeed(
        dupcost()
            .args(["estimate", "--observed", "-", "--format", "json"])
            .write_stdin(result_text()),
    );
    let from_stdin: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same rows as JSON lines, as BigQuery writes them (integers as strings, null fields
    // left out).
    let mut lines = String::new();
    let mut reader = csv::Reader::from_path(RESULT).unwrap();
    let headers = reader.headers().unwrap().clone();
    for record in reader.records() {
        let record = record.unwrap();
        let object: serde_json::Map<String, serde_json::Value> = headers
            .iter()
            .zip(record.iter())
            .filter(|(_, v)| !v.is_empty())
            .map(|(h, v)| (h.to_string(), v.into()))
            .collect();
        lines.push_str(&serde_json::to_string(&object).unwrap());
        lines.push('\n');
    }
    let out = succeed(
        dupcost()
            .args(["estimate", "--observed", "-", "--format", "json"])
            .write_stdin(lines),
    );
    let from_json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(from_stdin, from_json);
}

#[test]
fn bad_results_name_the_column_and_the_line() {
    let text = result_text();
    let header = text.lines().next().unwrap();
    let cases: Vec<(String, &str)> = vec![
        (
            text.replacen(",intents,", ",intent_count,", 1),
            "unknown column intent_count",
        ),
        (
            text.lines()
                .map(|l| {
                    let mut fields: Vec<&str> = l.split(',').collect();
                    fields.remove(1);
                    fields.join(",")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            "missing column day",
        ),
        (
            with_field(&text, "day,2026-11-03", 8, "-4"),
            "line 11, column mutating: '-4' is negative",
        ),
        (
            with_field(&text, "day,2026-11-03", 9, "2.5"),
            "line 11, column timed_out: '2.5' is not a whole number",
        ),
        (
            with_field(&text, "day,2026-11-03", 1, "2026-11-01"),
            "line 11, column day: 2026-11-01 comes after 2026-11-02: days out of order",
        ),
        (
            with_field(&text, "day,2026-11-03", 1, "Nov 3"),
            "line 11, column day: 'Nov 3' is not a date",
        ),
        (
            with_field(&text, "total", 0, "sum"),
            "line 2, column kind: 'sum' is not total, day, endpoint or attempts",
        ),
        (
            with_field(&text, "endpoint,,POST,/v1/orders,", 11, "9999"),
            "column timed_out_unknown: 5 succeeded and 9999 unknown of 9 timed out",
        ),
        (
            text.lines()
                .filter(|l| !l.starts_with("total"))
                .collect::<Vec<_>>()
                .join("\n"),
            "no total row",
        ),
        (format!("{header}\n"), "no total row"),
    ];
    // More intents with a timed-out attempt than intents, keyed or fingerprinted.
    let mut cases = cases;
    cases.push((
        with_column(&text, "timed_out_intents", "99999"),
        "column timed_out_intents: 99999 of 2069 keyed intents",
    ));
    // A flags style no format's dialect has: every dialect named.
    cases.push((
        with_column(&text, "flags_style", "squid"),
        "column flags_style: 'squid' is not cloudfront, iis, haproxy, envoy, cloudflare or google-cloud",
    ));
    let fingerprinted = with_column(&text, "grouping", "fingerprint");
    let fingerprinted = with_column(&fingerprinted, "fingerprinted_intents", "10");
    let fingerprinted = with_column(&fingerprinted, "fingerprinted_attempts", "12");
    cases.push((
        with_column(&fingerprinted, "fingerprinted_timed_out_intents", "11"),
        "column fingerprinted_timed_out_intents: 11 of 10 fingerprinted intents",
    ));
    for (bad, expected) in cases {
        let error = observed_error(&bad, "result.csv");
        assert!(
            error.contains("result.csv") && error.contains(expected),
            "{expected}: {error}"
        );
    }
    // JSON writers leave null fields out: a total row without its counts is empty there.
    let error = observed_error("{\"kind\": \"total\", \"rows\": 1}\n", "result.json");
    assert!(
        error.contains("line 1, column") && error.contains("empty in a total row"),
        "{error}"
    );
    let error = observed_error("{\"kind\": \"total\", \"rowz\": 1}\n", "result.json");
    assert!(error.contains("line 1: unknown column rowz"), "{error}");
    let error = observed_error("{\"kind\": [1]}\n", "result.json");
    assert!(error.contains("line 1"), "{error}");
}

#[test]
fn observed_flags_are_checked() {
    let error = usage_error(&["estimate", "--observed", "no-such-result.csv"]);
    assert!(error.contains("no-such-result.csv"), "{error}");
    let error = usage_error(&["estimate", "--max-unknown", "50%"]);
    assert!(error.contains("--observed"), "{error}");
    let error = usage_error(&["estimate", "--observed", RESULT, "--sweep", "retries=0..3"]);
    assert!(error.contains("--sweep"), "{error}");
}

#[test]
fn sql_refuses_roles_it_does_not_measure() {
    let error = usage_error(&[
        "sql",
        "--engine",
        "duckdb",
        "--table",
        "logs",
        "--column",
        "proxy_attempts=tries",
    ]);
    assert!(error.contains("--column proxy_attempts"), "{error}");
    let error = usage_error(&["sql", "--engine", "oracle", "--table", "logs"]);
    assert!(error.contains("oracle"), "{error}");
    let error = usage_error(&["sql", "--engine", "duckdb"]);
    assert!(error.contains("--table"), "{error}");
}

#[test]
fn sql_prints_one_query_naming_the_table() {
    for engine in ["duckdb", "clickhouse", "spark", "trino", "bigquery"] {
        let out = succeed(dupcost().args([
            "sql",
            "--engine",
            engine,
            "--table",
            "logs.alb",
            "--preset",
            "athena-alb",
        ]));
        let query = String::from_utf8(out.stdout).unwrap();
        assert!(query.contains("FROM logs.alb"), "{engine}");
        assert!(query.contains("request_url"), "{engine}");
        assert_eq!(
            query.matches("WITH src AS").count(),
            1,
            "{engine}: one statement"
        );
        assert_eq!(query.matches(';').count(), 0, "{engine}: one statement");
    }
}

/// `athena-cloudfront` maps AWS's table as `logs` reads a CloudFront log: the viewer's
/// address (or X-Forwarded-For's first hop), user agent and request size fingerprint its
/// attempts, and its detailed result type says when the viewer gave up; `--column ROLE=`
/// drops one the table lacks.
#[test]
fn athena_cloudfront_is_fingerprinted_as_logs_reads_cloudfront() {
    let query = |extra: &[&str]| {
        let mut args = vec![
            "sql",
            "--engine",
            "trino",
            "--table",
            "cloudfront_standard_logs",
            "--preset",
            "athena-cloudfront",
        ];
        args.extend_from_slice(extra);
        String::from_utf8(succeed(dupcost().args(&args)).stdout).unwrap()
    };
    let q = query(&[]);
    for column in [
        "\"c_ip\"",
        "\"x_forwarded_for\"",
        "\"cs_user_agent\"",
        "\"cs_bytes\"",
        "\"x_edge_detailed_result_type\"",
    ] {
        assert!(q.contains(column), "no {column} in\n{q}");
    }
    assert!(q.contains("'fingerprint' AS \"grouping\""), "{q}");
    assert!(q.contains("'cloudfront' AS \"flags_style\""), "{q}");
    let q = query(&[
        "--column",
        "client_addr=",
        "--column",
        "forwarded_for=",
        "--column",
        "flags=",
    ]);
    assert!(q.contains("'none' AS \"grouping\""), "{q}");
    assert!(!q.contains("c_ip") && !q.contains("x_edge_detailed"), "{q}");
}

/// `--intents` and `--outcomes-table` (issue 24): fingerprints without a client or a clock
/// and a client timeout without a duration are refused by name, the backend's roles are
/// checked, and the join names the backend's table and the proxy's
/// request id (ALB's `trace_id` under its preset).
#[test]
fn sql_intents_and_the_backend_table() {
    let run_error = |extra: &[&str]| {
        let mut args = vec!["sql", "--engine", "duckdb", "--table", "logs"];
        args.extend_from_slice(extra);
        usage_error(&args)
    };
    let e = run_error(&["--intents", "fingerprint", "--column", "client_addr="]);
    assert!(e.contains("--column client_addr=EXPR"), "{e}");
    let e = run_error(&["--intents", "fingerprint", "--column", "timestamp="]);
    assert!(e.contains("--column timestamp=EXPR"), "{e}");
    let e = run_error(&["--client-timeout", "30s"]);
    assert!(e.contains("--column duration=EXPR"), "{e}");
    let e = run_error(&["--duration-unit", "ms"]);
    assert!(e.contains("--client-timeout"), "{e}");
    let e = run_error(&["--log-side", "sideways"]);
    assert!(e.contains("--log-side"), "{e}");
    let e = run_error(&["--shared-address-rate", "0"]);
    assert!(e.contains("--shared-address-rate"), "{e}");
    let e = run_error(&["--outcomes-column", "status=code"]);
    assert!(
        e.contains("--outcomes-column needs --outcomes-table"),
        "{e}"
    );
    let e = run_error(&["--column", "request_id=rid"]);
    assert!(e.contains("only with --outcomes-table"), "{e}");
    let e = run_error(&["--outcomes-table", "b", "--outcomes-column", "bytes=x"]);
    assert!(e.contains("request_id, status, timestamp"), "{e}");
    for engine in ["duckdb", "clickhouse", "spark", "trino", "bigquery"] {
        let out = succeed(dupcost().args([
            "sql",
            "--engine",
            engine,
            "--table",
            "alb",
            "--preset",
            "athena-alb",
            "--outcomes-table",
            "app.backend",
            "--intents",
            "key",
        ]));
        let query = String::from_utf8(out.stdout).unwrap();
        assert!(query.contains("FROM app.backend"), "{engine}");
        assert!(query.contains("trace_id"), "{engine}");
        assert!(
            query.contains("AS \"matched\"")
                || query.contains("AS `matched`")
                || query.contains("AS matched"),
            "{engine}"
        );
    }
    // Without the join, no request id is read.
    let out = succeed(dupcost().args(["sql", "--engine", "duckdb", "--table", "logs"]));
    assert!(
        !String::from_utf8(out.stdout)
            .unwrap()
            .contains("request_id")
    );
}

/// The query's text for the engines no test runs (Trino/Athena, BigQuery), grouped by
/// fingerprint with a client timeout: a change to it is seen in review (tests/sql/engines.rs
/// parses both with sqlglot; DuckDB, chDB and Spark run theirs).
#[test]
fn fingerprint_queries_of_the_engines_not_run_here() {
    for engine in ["trino", "bigquery"] {
        let out = succeed(dupcost().args([
            "sql",
            "--engine",
            engine,
            "--table",
            "logs",
            "--intents",
            "fingerprint",
            "--column",
            "forwarded_for=x_forwarded_for",
            "--column",
            "duration=request_time",
            "--client-timeout",
            "30s",
        ]));
        let query = String::from_utf8(out.stdout).unwrap();
        // The generic table's fingerprint columns are named after their roles.
        for name in ["client_addr", "user_agent", "request_length"] {
            assert!(query.contains(name), "{engine}: {name}");
        }
        insta::assert_snapshot!(format!("sql_fingerprint_{engine}"), query);
    }
}
