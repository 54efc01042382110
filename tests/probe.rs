//! `dupcost probe` against real HTTP servers on loopback (tests/probe_server): the four kinds
//! of key store of the issue, each judged right, with `duplicates_seen` equal to the server's
//! own count of extra executions and the exit code that follows; and the safety rules: a host
//! that is not loopback is refused without `--yes` (nothing sent), a redirect is not followed,
//! a bad URL and an unreachable port are one line each.
//!
//! Only loopback traffic, and few requests: the concurrent check runs 4 at a time, 3 rounds.

mod common;
mod probe_server;

use std::net::TcpListener;

use common::tmux::Tmux;
use common::{dupcost, usage_error};
use probe_server::{Kind, Server};
use serde_json::Value;

/// The flags of every run here: small rounds, a short timeout.
const SMALL: [&str; 6] = ["--concurrency", "4", "--rounds", "3", "--timeout", "5s"];
/// Requests of a run with [`SMALL`]: replay 2, concurrent 12, payload_mismatch 2, missing_key 1.
const SMALL_TOTAL: u64 = 17;

/// Runs the probe against `server` as JSON; returns the exit code and the report.
fn probe_json(server: &Server, extra: &[&str]) -> (i32, Value) {
    let out = dupcost()
        .args(["probe", &server.url, "--data", r#"{"amount": 40}"#])
        .args(SMALL)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON on stdout ({e}); stderr: {stderr}"));
    (out.status.code().unwrap(), report)
}

/// The outcome of each check, by name, in the contract's order.
fn outcomes(report: &Value) -> Vec<(String, String)> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn outcome<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check {name}"))
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_correct_key_store_passes_every_check() {
    let server = Server::start(Kind::Correct);
    let (code, report) = probe_json(&server, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        outcomes(&report),
        pairs(&[
            ("replay", "pass"),
            ("concurrent", "pass"),
            ("payload_mismatch", "pass"),
            ("missing_key", "pass"),
        ]),
        "{report:#}"
    );
    assert_eq!(report["verdict"], "pass");
    assert_eq!(report["duplicates_seen"], 0);
    assert_eq!(server.extra_executions(), 0);
    // One execution per key: replay, each round, payload_mismatch; none without a key.
    assert_eq!(server.executions(), 1 + 3 + 1);
    assert_eq!(report["requests"], SMALL_TOTAL);
    assert_eq!(server.requests() as u64, SMALL_TOTAL);
    assert_eq!(
        server.connections(),
        server.requests(),
        "one connection a request"
    );
    assert!(
        outcome(&report, "payload_mismatch")["detail"]
            .as_str()
            .unwrap()
            .contains("422")
    );
}

#[test]
fn a_check_then_insert_race_fails_concurrent_and_counts_every_extra_execution() {
    let server = Server::start(Kind::CheckThenInsert);
    let (code, report) = probe_json(&server, &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        outcomes(&report),
        pairs(&[
            ("replay", "pass"),
            ("concurrent", "fail"),
            ("payload_mismatch", "pass"),
            ("missing_key", "pass"),
        ]),
        "{report:#}"
    );
    assert_eq!(report["verdict"], "fail");
    let extra = server.extra_executions();
    assert!(extra > 0, "the race is real");
    assert_eq!(report["duplicates_seen"], extra as u64, "{report:#}");
    let concurrent = outcome(&report, "concurrent");
    assert_eq!(concurrent["requests"], 12);
    // Every round executed at least once; the extras are on top.
    assert_eq!(concurrent["executions_seen"], (3 + extra) as u64);
}

#[test]
fn an_endpoint_that_ignores_keys_fails_and_every_execution_is_seen() {
    let server = Server::start(Kind::IgnoresKeys);
    let (code, report) = probe_json(&server, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        outcomes(&report),
        pairs(&[
            ("replay", "fail"),
            ("concurrent", "fail"),
            ("payload_mismatch", "fail"),
            ("missing_key", "warn"),
        ]),
        "{report:#}"
    );
    // replay 1 extra, each round 3, payload_mismatch 1.
    assert_eq!(server.extra_executions(), 1 + 3 * 3 + 1);
    assert_eq!(report["duplicates_seen"], server.extra_executions() as u64);
    assert_eq!(outcome(&report, "concurrent")["executions_seen"], 12);
    assert_eq!(outcome(&report, "missing_key")["executions_seen"], 1);
}

#[test]
fn a_store_blind_to_a_changed_payload_fails_payload_mismatch_only() {
    let server = Server::start(Kind::PayloadBlind);
    let (code, report) = probe_json(&server, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        outcomes(&report),
        pairs(&[
            ("replay", "pass"),
            ("concurrent", "pass"),
            ("payload_mismatch", "fail"),
            ("missing_key", "pass"),
        ]),
        "{report:#}"
    );
    // The changed request was replayed, not executed: a failure without a duplicate.
    assert_eq!(server.extra_executions(), 0);
    assert_eq!(report["duplicates_seen"], 0);
    let detail = outcome(&report, "payload_mismatch")["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("replayed"), "{detail}");
}

#[test]
fn with_id_answers_are_compared_by_the_resource_id() {
    let server = Server::start(Kind::Correct);
    let (code, report) = probe_json(&server, &["--id", "/id"]);
    assert_eq!(
        (code, &report["verdict"]),
        (0, &Value::from("pass")),
        "{report:#}"
    );
    let ignoring = Server::start(Kind::IgnoresKeys);
    let (code, report) = probe_json(&ignoring, &["--id", "/id"]);
    assert_eq!(code, 1);
    let detail = outcome(&report, "replay")["detail"].as_str().unwrap();
    assert!(detail.contains("the id at /id"), "{detail}");
    assert_eq!(
        report["duplicates_seen"],
        ignoring.extra_executions() as u64
    );
}

#[test]
fn a_body_from_a_file_and_a_changed_body_given_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body.txt");
    std::fs::write(&body, "plain text order").unwrap();
    let data = format!("@{}", body.display());
    let server = Server::start(Kind::Correct);
    let out = dupcost()
        .args(["probe", &server.url, "--data", &data, "--format", "json"])
        .args(SMALL)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "a warning is no failure");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mismatch = outcome(&report, "payload_mismatch");
    assert_eq!(mismatch["outcome"], "warn");
    assert_eq!(mismatch["requests"], 0);
    assert!(
        mismatch["detail"]
            .as_str()
            .unwrap()
            .contains("--changed-data")
    );
    assert_eq!(server.requests() as u64, SMALL_TOTAL - 2);

    let out = dupcost()
        .args(["probe", &server.url, "--data", &data, "--format", "json"])
        .args(["--changed-data", "another order"])
        .args(SMALL)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    assert_eq!(outcome(&report, "payload_mismatch")["outcome"], "pass");
    assert_eq!(report["verdict"], "pass");
}

#[test]
fn the_json_report_keeps_its_contract() {
    let server = Server::start(Kind::Correct);
    let (_, report) = probe_json(&server, &[]);
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "url",
            "method",
            "requests",
            "checks",
            "duplicates_seen",
            "verdict",
            "answers_tell_executions_apart"
        ]
    );
    for check in report["checks"].as_array().unwrap() {
        let keys: Vec<&str> = check
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["name", "outcome", "detail", "requests", "executions_seen"]
        );
    }
    assert_eq!(report["method"], "POST");
    assert_eq!(report["url"], server.url.as_str());
    assert_eq!(report["answers_tell_executions_apart"], true);
}

#[test]
fn table_and_markdown_put_a_failure_into_the_scenario() {
    let server = Server::start(Kind::IgnoresKeys);
    let scenario = ["--requests-per-day", "20000", "--retries", "3"];
    for format in ["table", "markdown"] {
        let out = dupcost()
            .args(["probe", &server.url, "--format", format])
            .args(SMALL)
            .args(scenario)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        let text = String::from_utf8(out.stdout).unwrap();
        // The model's figures for the defaults with 3 retries: 601 a month, $24,048.
        assert!(
            text.contains("601 duplicates a month ($24,048 of refunds)"),
            "{format}: {text}"
        );
        // The race's share of them: 9 of the 9 that should not have executed.
        assert!(
            text.contains("9 of 9 concurrent retries executed again"),
            "{format}: {text}"
        );
        assert!(
            text.contains("fail: idempotency does not hold"),
            "{format}: {text}"
        );
    }
}

/// The reports people read, pinned (the server's port replaced): every request to an endpoint
/// that ignores keys executes, so every figure is fixed.
#[test]
fn table_and_markdown_reports() {
    let server = Server::start(Kind::IgnoresKeys);
    for format in ["table", "markdown"] {
        let out = dupcost()
            .args([
                "probe",
                &server.url,
                "--data",
                r#"{"amount": 40}"#,
                "--format",
                format,
            ])
            .args(SMALL)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout)
            .unwrap()
            .replace(&server.port.to_string(), "PORT");
        insta::assert_snapshot!(format!("probe_{format}"), text);
    }
}

#[test]
fn a_host_that_is_not_loopback_is_refused_without_yes_and_nothing_is_sent() {
    // Anything sent would go through this "proxy" (a loopback server counting connections).
    let proxy = Server::start(Kind::Correct);
    let proxy_url = format!("http://127.0.0.1:{}", proxy.port);
    for url in ["http://example.invalid/orders", "http://192.0.2.1/orders"] {
        let out = dupcost()
            .args(["probe", url])
            .args(SMALL)
            .env("HTTP_PROXY", &proxy_url)
            .env("http_proxy", &proxy_url)
            .env("ALL_PROXY", &proxy_url)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("not loopback") && stderr.contains("--yes"),
            "{stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
    assert_eq!(proxy.connections(), 0, "nothing was sent");

    // With --yes it is sent: here, to the proxy, which answers as a correct store.
    let out = dupcost()
        .args([
            "probe",
            "http://example.invalid/orders",
            "--yes",
            "--format",
            "json",
        ])
        .args(SMALL)
        .env("HTTP_PROXY", &proxy_url)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(proxy.requests() as u64, SMALL_TOTAL);
}

#[test]
fn tls_is_verified_unless_insecure() {
    let server = Server::start_tls(Kind::Correct);
    let out = dupcost()
        .args(["probe", &server.url])
        .args(SMALL)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("certificate") && stderr.contains("--insecure"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert_eq!(
        server.requests(),
        0,
        "no request over an unverified connection"
    );

    let (code, report) = probe_json(&server, &["--insecure"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["verdict"], "pass");
    assert_eq!(server.requests() as u64, SMALL_TOTAL);
}

#[test]
fn a_redirect_is_not_followed() {
    // To another host name of the same server: were it followed, the server would see it.
    let server = Server::start(Kind::Redirect(
        307,
        "http://localhost:{port}/elsewhere".to_string(),
    ));
    let out = dupcost()
        .args(["probe", &server.url])
        .args(SMALL)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("307") && stderr.contains("follows no redirect"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert_eq!(
        server.requests(),
        1,
        "one request, the redirect not followed"
    );
}

#[test]
fn an_unreachable_port_is_one_line() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/orders");
    let out = dupcost()
        .args(["probe", &url])
        .args(SMALL)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: no answer from") && stderr.contains(&url),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

#[test]
fn bad_flags_are_one_line_and_exit_2() {
    for (args, says) in [
        (vec!["probe", "not a url"], "not a URL"),
        (vec!["probe", "ftp://127.0.0.1/x"], "scheme is ftp"),
        (vec!["probe", "127.0.0.1:8080/orders"], "URL"),
        (
            vec!["probe", "http://127.0.0.1:9/x", "--concurrency", "1"],
            "--concurrency",
        ),
        (
            vec![
                "probe",
                "http://127.0.0.1:9/x",
                "--concurrency",
                "64",
                "--rounds",
                "50",
            ],
            "cap of 500",
        ),
        (
            vec!["probe", "http://127.0.0.1:9/x", "--header", "nocolon"],
            "Name: value",
        ),
        (
            vec![
                "probe",
                "http://127.0.0.1:9/x",
                "--header",
                "Idempotency-Key: k",
            ],
            "key header",
        ),
        (
            vec!["probe", "http://127.0.0.1:9/x", "--id", "id"],
            "JSON pointer",
        ),
        (
            vec![
                "probe",
                "http://127.0.0.1:9/x",
                "--data",
                "@/nonexistent/body.json",
            ],
            "--data @/nonexistent",
        ),
        (
            vec!["probe", "http://127.0.0.1:9/x", "--timeout-rate", "3"],
            "timeout-rate",
        ),
        (
            vec![
                "probe",
                "http://127.0.0.1:9/x",
                "--data",
                "x",
                "--changed-data",
                "x",
            ],
            "same as --data",
        ),
    ] {
        let stderr = usage_error(&args);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// On a terminal the probe shows what it will send and sends nothing until told yes.
#[test]
fn on_a_terminal_it_asks_first() {
    for (answer, code, requests) in [("n", 2, 0), ("y", 0, 7)] {
        let server = Server::start(Kind::Correct);
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("session.sh");
        std::fs::write(
            &script,
            format!(
                "'{bin}' probe {url} --concurrency 2 --rounds 1 -H 'Authorization: Bearer s3cret'\n\
                 echo \"exit=$?\"\nsleep 600\n",
                bin = env!("CARGO_BIN_EXE_dupcost"),
                url = server.url,
            ),
        )
        .unwrap();
        if !Tmux::present("the probe's question in a terminal (tests/probe.rs)") {
            return;
        }
        let terminal = Tmux::start("probe", &script, 100, 30).joining_wrapped_lines();
        let screen = terminal.wait_for("the question", |s| s.contains("Send them? [y/N]"));
        assert!(
            screen.contains(&format!("will send 7 POST requests to {}", server.url)),
            "{screen}"
        );
        assert!(screen.contains("loopback"), "{screen}");
        assert!(
            screen.contains("replay 2, concurrent 2, payload_mismatch 2, missing_key 1"),
            "{screen}"
        );
        assert!(
            screen.contains("authorization: (hidden)") && !screen.contains("s3cret"),
            "{screen}"
        );
        assert_eq!(server.requests(), 0, "nothing before the answer");
        terminal.keys(&[answer, "Enter"]);
        let screen = terminal.wait_for("the exit code", |s| s.contains("exit="));
        assert!(
            screen.contains(&format!("exit={code}")),
            "{answer}: {screen}"
        );
        assert_eq!(server.requests(), requests, "{answer}");
        if answer == "n" {
            assert!(
                screen.contains("not confirmed: nothing was sent"),
                "{screen}"
            );
        } else {
            assert!(screen.contains("Verdict: pass"), "{screen}");
        }
    }
}

/// `--format junit` against `server`: the exit code and the report, read as XML.
fn probe_junit(server: &Server, extra: &[&str]) -> (i32, String) {
    let out = dupcost()
        .args(["probe", &server.url])
        .args(SMALL)
        .args(["--format", "junit"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let xml = String::from_utf8(out.stdout).unwrap();
    roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("well-formed XML ({e}): {xml}"));
    (out.status.code().unwrap(), xml)
}

/// A test case: its name, its failure's message and text, whether it was skipped.
type Case = (String, Option<(String, String)>, bool);

/// Each test case, in order.
fn cases(xml: &str) -> Vec<Case> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|case| {
            let failure = case
                .children()
                .find(|n| n.has_tag_name("failure"))
                .map(|f| {
                    (
                        f.attribute("message").unwrap().to_string(),
                        f.text().unwrap_or_default().to_string(),
                    )
                });
            let skipped = case.children().any(|n| n.has_tag_name("skipped"));
            (
                case.attribute("name").unwrap().to_string(),
                failure,
                skipped,
            )
        })
        .collect()
}

fn suite_counts(xml: &str) -> [String; 3] {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let suite = doc
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    ["tests", "failures", "skipped"].map(|a| suite.attribute(a).unwrap().to_string())
}

#[test]
fn junit_fails_a_broken_key_store_with_its_evidence_and_exit_1() {
    let server = Server::start(Kind::IgnoresKeys);
    let (code, xml) = probe_junit(&server, &["--data", r#"{"amount": 40}"#]);
    assert_eq!(code, 1, "{xml}");
    let cases = cases(&xml);
    let names: Vec<&str> = cases.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(
        names,
        ["replay", "concurrent", "payload_mismatch", "missing_key"],
        "one test case a check"
    );
    assert_eq!(suite_counts(&xml), ["4", "3", "0"].map(String::from));
    let (message, evidence) = cases[0].1.clone().expect("replay fails");
    assert!(message.contains("ran twice"), "{message}");
    assert!(
        evidence.contains("requests: 2\nexecutions seen: 2\n"),
        "{evidence}"
    );
    assert!(evidence.contains("what it costs: "), "{evidence}");
    let (_, evidence) = cases[1].1.clone().expect("concurrent fails");
    assert!(evidence.contains("executions seen: 12"), "{evidence}");
    // A warning passes: no failure, not skipped.
    assert_eq!(cases[3].1, None);
    assert!(!cases[3].2);
    assert!(
        xml.contains(r#"<property name="duplicates_seen" value="11"/>"#),
        "{xml}"
    );
}

#[test]
fn junit_passes_a_correct_store_and_skips_a_check_that_does_not_apply() {
    let server = Server::start(Kind::Correct);
    let (code, xml) = probe_junit(&server, &["--data", r#"{"amount": 40}"#]);
    assert_eq!(code, 0, "{xml}");
    assert_eq!(suite_counts(&xml), ["4", "0", "0"].map(String::from));
    assert!(cases(&xml).iter().all(|c| c.1.is_none() && !c.2));
    // A plain-text body cannot be changed: payload_mismatch sends nothing and is skipped.
    let (code, xml) = probe_junit(&server, &["--data", "plain text order"]);
    assert_eq!(code, 0, "{xml}");
    assert_eq!(suite_counts(&xml), ["4", "0", "1"].map(String::from));
    let cases = cases(&xml);
    assert!(cases[2].2 && cases[2].0 == "payload_mismatch", "{xml}");
    assert!(xml.contains("--changed-data"), "{xml}");
}
