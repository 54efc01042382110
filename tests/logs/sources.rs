//! A `dupcost logs` report names a `DUPCOST_*` variable that gave an input, in its evidence,
//! its kind lines and JSON `input_kinds` (its `sources` still says `flag`). The real binary,
//! with the environment set on the command.

use crate::common::{dupcost, json_of as json, line, stdout_of};

#[test]
fn the_logs_report_names_the_variable_too() {
    // The logs' evidence: a given figure is "from DUPCOST_RETRIES", its kind "given:
    // DUPCOST_RETRIES".
    let out = stdout_of(
        dupcost()
            .args(["logs", "samples/nginx.json"])
            .env("DUPCOST_RETRIES", "2")
            .env("DUPCOST_SUCCEEDED_SHARE", "40%")
            .env("DUPCOST_ORDER_VALUE", "12"),
    );
    assert!(out.contains("retries 2 from DUPCOST_RETRIES"), "{out}");
    assert!(
        out.contains("succeeded share 40% from DUPCOST_SUCCEEDED_SHARE"),
        "{out}"
    );
    assert!(
        line(&out, "order value").ends_with("$12  given: DUPCOST_ORDER_VALUE"),
        "{out}"
    );
    let v = json(
        dupcost()
            .args(["logs", "samples/nginx.json"])
            .env("DUPCOST_RETRIES", "2"),
    );
    assert_eq!(v["sources"]["retries"], "flag");
    assert_eq!(v["input_kinds"]["retries"]["env"], "DUPCOST_RETRIES");
}

#[test]
fn a_flag_over_the_variable_is_named_as_the_flag() {
    let out = stdout_of(
        dupcost()
            .args(["logs", "samples/nginx.json", "--retries", "1"])
            .env("DUPCOST_RETRIES", "2"),
    );
    assert!(out.contains("retries 1 from --retries"), "{out}");
    assert!(!out.contains("DUPCOST_RETRIES"), "{out}");
}

#[test]
fn a_senders_preset_named_by_its_variable_is_named_so() {
    let out = stdout_of(
        dupcost()
            .args(["logs", "samples/nginx.json"])
            .env("DUPCOST_PRESET", "svix-webhooks"),
    );
    assert!(
        out.contains("retries 7 from DUPCOST_PRESET=svix-webhooks"),
        "{out}"
    );
    // The Scenario line (the evidence's line starts with `retries` too).
    assert!(
        out.contains("retries                                    7  given: one per delay of DUPCOST_PRESET=svix-webhooks\n"),
        "{out}"
    );
    // The sender's timeout, taken as the client timeout, is warned of by what named it.
    let run = crate::common::succeed(
        dupcost()
            .args(["logs", "samples/nginx.json"])
            .env("DUPCOST_PRESET", "svix-webhooks"),
    );
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(
        stderr.contains(
            "warning: client timeout 15s from DUPCOST_PRESET=svix-webhooks (the sender's"
        ),
        "{stderr}"
    );
    let out =
        stdout_of(dupcost().args(["logs", "samples/nginx.json", "--preset", "svix-webhooks"]));
    assert!(
        out.contains("retries 7 from --preset svix-webhooks"),
        "{out}"
    );
}
