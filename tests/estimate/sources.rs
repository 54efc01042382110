//! Every input says exactly where it came from: a `DUPCOST_*` variable by its name (not its
//! flag's), the retry delays and the retries a schedule gave by what gave the schedule, and a
//! sweep's swept input by `--sweep`, in the table, the markdown and the JSON. The real binary,
//! with the environment set on the command as a user's shell sets it.

use crate::common::{dupcost, json_of as json, line, stdout_of, succeed};

#[test]
fn an_environment_variable_is_named_in_every_renderer() {
    let estimate = || {
        let mut cmd = dupcost();
        cmd.args(["estimate", "--retries", "2"])
            .env("DUPCOST_TIMEOUT_RATE", "0.5%")
            .env("DUPCOST_TTL", "2d");
        cmd
    };
    let table = stdout_of(&mut estimate());
    assert!(line(&table, "timeout rate").ends_with("0.5%  given: DUPCOST_TIMEOUT_RATE"));
    assert!(line(&table, "key TTL").ends_with("2d  given: DUPCOST_TTL"));
    assert!(line(&table, "retries").ends_with("2  given: --retries"));

    let md = stdout_of(estimate().args(["--format", "markdown"]));
    assert!(
        md.contains(
            "| timeout rate | 0.5% | given: DUPCOST\\_TIMEOUT\\_RATE | `--timeout-rate` |\n"
        ),
        "{md}"
    );

    let v = json(&mut estimate());
    let k = &v["input_kinds"];
    assert_eq!(k["timeout_rate"]["kind"], "given");
    // The origin keeps its old value; the variable is an added field.
    assert_eq!(k["timeout_rate"]["origin"], "flag");
    assert_eq!(k["timeout_rate"]["env"], "DUPCOST_TIMEOUT_RATE");
    assert_eq!(k["timeout_rate"]["flag"], "--timeout-rate");
    assert_eq!(k["ttl_seconds"]["env"], "DUPCOST_TTL");
    // A flag's value has no env field, and neither has a default.
    assert!(k["retries"].get("env").is_none(), "{}", k["retries"]);
    assert!(k["order_value"].get("env").is_none());
    assert_eq!(v["inputs"]["timeout_rate"], 0.005);
}

#[test]
fn a_preset_named_by_its_variable_says_so() {
    let table = stdout_of(dupcost().args(["estimate"]).env("DUPCOST_PRESET", "stripe"));
    assert!(
        line(&table, "key TTL").ends_with("1d (stripe)  given: DUPCOST_PRESET=stripe"),
        "{table}"
    );
    let v = json(dupcost().args(["estimate"]).env("DUPCOST_PRESET", "stripe"));
    assert_eq!(v["input_kinds"]["ttl_seconds"]["origin"], "preset");
    assert_eq!(v["input_kinds"]["ttl_seconds"]["env"], "DUPCOST_PRESET");
    // Named by the flag, it is the flag.
    let table = stdout_of(dupcost().args(["estimate", "--preset", "stripe"]));
    assert!(line(&table, "key TTL").ends_with("given: --preset stripe"));
}

#[test]
fn the_bare_fraction_note_names_the_variable() {
    let out = succeed(
        dupcost()
            .args(["estimate"])
            .env("DUPCOST_TIMEOUT_RATE", "0.02"),
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "note: DUPCOST_TIMEOUT_RATE: read 0.02 as 2%; write 0.02% for 0.2 in a thousand\n"
    );
    let out = succeed(dupcost().args(["estimate", "--timeout-rate", "0.02"]));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .starts_with("note: --timeout-rate: read 0.02")
    );
}

#[test]
fn a_flag_over_its_variable_is_the_flag() {
    let table = stdout_of(
        dupcost()
            .args(["estimate", "--timeout-rate", "1%"])
            .env("DUPCOST_TIMEOUT_RATE", "0.5%"),
    );
    assert!(line(&table, "timeout rate").ends_with("1%  given: --timeout-rate"));
    let v = json(
        dupcost()
            .args(["estimate", "--timeout-rate", "1%"])
            .env("DUPCOST_TIMEOUT_RATE", "0.5%"),
    );
    assert!(v["input_kinds"]["timeout_rate"].get("env").is_none());
}

#[test]
fn the_retry_delays_and_their_retries_say_what_gave_them() {
    let table = stdout_of(dupcost().args(["estimate", "--schedule", "5s,5m"]));
    assert!(
        line(&table, "retry delays").ends_with("5s, 5m  given: --schedule"),
        "{table}"
    );
    // The retries are the schedule's length: given by it, not the default.
    assert!(
        line(&table, "retries").ends_with("2  given: one per delay of --schedule"),
        "{table}"
    );

    let table = stdout_of(dupcost().args(["estimate", "--preset", "svix-webhooks"]));
    assert!(
        line(&table, "retry delays").ends_with("(svix-webhooks)  given: --preset svix-webhooks")
    );
    assert!(line(&table, "retries").ends_with("7  given: one per delay of --preset svix-webhooks"));

    let table = stdout_of(
        dupcost()
            .args(["estimate", "--retries", "4"])
            .env("DUPCOST_SCHEDULE", "1s,2s"),
    );
    assert!(line(&table, "retry delays").ends_with("1s, 2s  given: DUPCOST_SCHEDULE"));
    assert!(line(&table, "retries").ends_with("4  given: --retries"));

    let dir = tempfile::tempdir().unwrap();
    let file = crate::common::write(dir.path(), "s.json", br#"{"schedule_seconds": [5, 60]}"#);
    let table = stdout_of(dupcost().args(["estimate", "--scenario", &file]));
    assert!(line(&table, "retry delays").ends_with("given: the scenario file"));
    assert!(line(&table, "retries").ends_with("2  given: one per delay of the scenario file"));

    let md = stdout_of(dupcost().args(["estimate", "--schedule", "5s,5m", "--format", "markdown"]));
    assert!(
        md.contains("| retry delays | 5s, 5m | given: --schedule | `--schedule` |\n"),
        "{md}"
    );

    let html =
        stdout_of(dupcost().args(["estimate", "--preset", "svix-webhooks", "--format", "html"]));
    assert!(
        html.contains(
            "<tr><th scope=\"row\">retry delays</th><td class=\"n\">5s, 5m, 30m, 2h, 5h, 10h, 10h \
             (svix-webhooks)</td><td><span class=\"kind kind-given\">given</span></td><td>--preset \
             svix-webhooks</td></tr>"
        ),
        "{html}"
    );
    let v = json(
        dupcost()
            .args(["estimate"])
            .env("DUPCOST_SCHEDULE", "5s,5m"),
    );
    let k = &v["input_kinds"];
    assert_eq!(k["schedule_seconds"]["kind"], "given");
    assert_eq!(k["schedule_seconds"]["flag"], "--schedule");
    assert_eq!(k["schedule_seconds"]["env"], "DUPCOST_SCHEDULE");
    assert_eq!(k["retries"]["kind"], "given");
    assert_eq!(k["retries"]["from_schedule"], true);
    assert_eq!(k["retries"]["env"], "DUPCOST_SCHEDULE");
    // Without a schedule there is no such key, and the retries are not marked so.
    let v = json(dupcost().args(["estimate"]));
    assert!(v["input_kinds"].get("schedule_seconds").is_none());
    assert!(v["input_kinds"]["retries"].get("from_schedule").is_none());
}

#[test]
fn a_backoff_flag_over_a_scenario_schedule_drops_its_mark() {
    // The flags' backoff replaces the file's schedule (`ScenarioPatch::apply`): no delays line.
    let dir = tempfile::tempdir().unwrap();
    let file = crate::common::write(dir.path(), "s.json", br#"{"schedule_seconds": [5, 60]}"#);
    let table = stdout_of(dupcost().args(["estimate", "--scenario", &file, "--backoff", "2s"]));
    assert!(!table.contains("retry delays"), "{table}");
    assert!(
        line(&table, "backoff").ends_with("2s  given: --backoff"),
        "{table}"
    );
    // The retries are still the file's schedule's length, and say so.
    assert!(line(&table, "retries").ends_with("2  given: one per delay of the scenario file"));
}

#[test]
fn a_swept_input_is_given_by_the_sweep() {
    let md = stdout_of(dupcost().args([
        "estimate",
        "--sweep",
        "retries=0..2",
        "--format",
        "markdown",
    ]));
    assert!(md.contains("| input | value | kind | flag |\n"), "{md}");
    assert!(
        md.contains("| retries | 0 to 2 (3 values) | given: --sweep | `--retries` |\n"),
        "{md}"
    );
    assert!(md.contains("| key TTL | 1d | assumed: the default; --ttl settles it | `--ttl` |\n"));
    let v = json(dupcost().args(["estimate", "--sweep", "retries=0..2", "--ttl", "2d"]));
    let all = v.as_array().expect("a sweep is an array");
    assert_eq!(all.len(), 3);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e["inputs"]["retries"], i);
        assert_eq!(e["input_kinds"]["retries"]["kind"], "given");
        assert_eq!(e["input_kinds"]["retries"]["origin"], "sweep");
        assert_eq!(e["input_kinds"]["ttl_seconds"]["origin"], "flag");
    }
}
