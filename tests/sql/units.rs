//! `dupcost sql --client-timeout` says the duration column's unit and where it came from, as
//! `dupcost logs` does: from the column's name, given by `--duration-unit`, or assumed (then
//! warned of on stderr too). The real binary, run as a user runs it.

use crate::common::dupcost;

/// The query's header lines (its leading comments) and stderr.
fn header(args: &[&str]) -> (Vec<String>, String) {
    let out = dupcost()
        .args(["sql", "--engine", "duckdb", "--table", "logs"])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines = stdout
        .lines()
        .take_while(|l| l.starts_with("--"))
        .map(str::to_string)
        .collect();
    (lines, stderr)
}

#[test]
fn the_unit_from_the_column_name_is_said() {
    let (lines, stderr) = header(&[
        "--column",
        "duration=request_time",
        "--client-timeout",
        "30s",
    ]);
    assert_eq!(
        lines[1],
        "-- --client-timeout 30s: the duration column request_time is read in s, from its name \
         (--duration-unit overrides it); a value that writes its unit (1m30s) is read in that"
    );
    assert_eq!(stderr, "");
    let (lines, _) = header(&[
        "--column",
        "duration=upstream_ms",
        "--client-timeout",
        "1500ms",
    ]);
    assert!(
        lines[1].contains("upstream_ms is read in ms, from its name"),
        "{lines:?}"
    );
}

#[test]
fn a_given_unit_is_said_given() {
    let (lines, stderr) = header(&[
        "--column",
        "duration=elapsed",
        "--client-timeout",
        "1.5s",
        "--duration-unit",
        "s",
    ]);
    assert_eq!(
        lines[1],
        "-- --client-timeout 1.5s: the duration column elapsed is read in s, given by --duration-unit; a \
         value that writes its unit (1m30s) is read in that"
    );
    assert_eq!(stderr, "");
}

#[test]
fn an_assumed_unit_is_marked_and_warned_of() {
    let (lines, stderr) = header(&["--column", "duration=latency", "--client-timeout", "2s"]);
    let said = "--client-timeout 2s: the duration column latency is read in ms, assumed: its name \
                says no unit; --duration-unit settles it; a value that writes its unit (1m30s) is \
                read in that";
    assert_eq!(lines[1], format!("-- {said}"));
    assert_eq!(stderr, format!("warning: {said}\n"));
}

#[test]
fn without_a_client_timeout_nothing_is_said() {
    let (lines, stderr) = header(&["--column", "duration=latency"]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(stderr, "");
}

#[test]
fn a_column_expression_stays_one_comment_line() {
    let (lines, _) = header(&[
        "--column",
        "duration=CAST(\nlatency AS DOUBLE)",
        "--client-timeout",
        "2s",
    ]);
    assert!(
        lines[1].contains("CAST( latency AS DOUBLE) is read in ms"),
        "{lines:?}"
    );
}
