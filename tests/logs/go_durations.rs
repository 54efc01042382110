//! Durations that write their unit, as Go's `time.Duration.String()` does (zap, logrus,
//! zerolog): each value read in its own unit (docs/MODEL.md, "Duration units"), the field's
//! unit neither assumed nor inferred.

use crate::common::{dupcost, json, write};

/// Under the 15 s timeout, in every form Go writes (and the `us` and `μ` spellings).
const FAST: [&str; 9] = [
    "20.512345ms",
    "850µs",
    "850us",
    "120ns",
    "14.999999999s",
    "1.5s",
    "14999ms",
    "310.2\u{3bc}s",
    "0s",
];
/// At or over 15 s: `15000ms` and `15000000µs` are exactly the timeout, which counts.
const SLOW: [&str; 6] = [
    "16.2s",
    "1m30s",
    "15000ms",
    "1h2m3.5s",
    "15000000µs",
    "2m0s",
];

/// The duration of line `i`: every tenth POST at or over 15 s.
fn took(i: usize) -> &'static str {
    if i % 10 == 9 {
        SLOW[i / 10 % SLOW.len()]
    } else {
        FAST[i % FAST.len()]
    }
}

/// A zap production logger's JSON line per request (`ts` in float seconds), 2,000 POSTs and
/// 500 GETs, the GETs' durations all slow (they are no attempts of an intent).
fn zap_log() -> String {
    let mut out = String::new();
    for i in 0..2_500 {
        let (method, duration) = if i % 5 == 4 {
            ("GET", "1m0s")
        } else {
            ("POST", took(i - i / 5))
        };
        out.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.{:03},\"caller\":\"http/server.go:112\",\"msg\":\"request\",\"method\":\"{method}\",\"path\":\"/v1/charges\",\"status\":200,\"duration\":\"{duration}\"}}\n",
            1_793_491_200 + i * 7,
            i % 1000
        ));
    }
    out
}

/// logrus's JSON formatter: keys sorted, an RFC 3339 `time`; 1,000 POSTs.
fn logrus_log() -> String {
    (0..1_000)
        .map(|i| {
            format!(
                "{{\"duration\":\"{}\",\"level\":\"info\",\"method\":\"POST\",\"msg\":\"request\",\"path\":\"/v1/refunds\",\"status\":201,\"time\":\"2026-11-02T08:{:02}:{:02}Z\"}}\n",
                took(i),
                i / 60 % 60,
                i % 60
            )
        })
        .collect()
}

#[test]
fn go_durations_give_the_true_timeout_rate() {
    let dir = tempfile::tempdir().unwrap();
    for (name, log) in [("zap.jsonl", zap_log()), ("logrus.jsonl", logrus_log())] {
        let file = write(dir.path(), name, log.as_bytes());
        // The truth: one POST in ten at or past 15 s.
        for extra in [&[][..], &["--no-infer"], &["--duration-unit", "ns"]] {
            let v = json(&[&["logs", &file, "--client-timeout", "15s"], extra].concat());
            assert_eq!(v["inputs"]["timeout_rate"], 0.1, "{name} {extra:?}");
            // The unit is the values': nothing assumed or inferred of it, and no warning.
            let kind = &v["input_kinds"]["timeout_rate"];
            assert!(kind.get("duration_unit").is_none(), "{name}: {kind}");
            let warnings = v["observed"]["warnings"].to_string();
            assert!(!warnings.contains("duration"), "{name}: {warnings}");
        }
        let out = dupcost()
            .args(["logs", &file, "--client-timeout", "15s", "--explain"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("duration=duration (in the unit each value writes)"),
            "{text}"
        );
        // Half a minute: only 1m30s, 1h2m3.5s and 2m0s reach it.
        let v = json(&["logs", &file, "--client-timeout", "30s"]);
        assert_eq!(v["inputs"]["timeout_rate"], 0.05, "{name}");
    }
}

/// Values that are no duration (`1x`, `s`, `""`, `-5ms`, units out of order) never time an
/// attempt out and never stop the file: the rest are read.
#[test]
fn bad_go_durations_are_no_duration() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = logrus_log();
    for (i, bad) in ["1x", "s", "", "-5ms", "1s1h", "5 ms", "NaNs"]
        .iter()
        .enumerate()
    {
        log.push_str(&format!(
            "{{\"duration\":\"{bad}\",\"level\":\"info\",\"method\":\"POST\",\"msg\":\"request\",\"path\":\"/v1/refunds\",\"status\":201,\"time\":\"2026-11-02T09:00:{i:02}Z\"}}\n"
        ));
    }
    let file = write(dir.path(), "bad.jsonl", log.as_bytes());
    let v = json(&["logs", &file, "--client-timeout", "15s"]);
    assert_eq!(
        v["observed"]["mutating_attempts"], 1_007,
        "{}",
        v["observed"]
    );
    assert_eq!(v["observed"]["timed_out"], 100, "{}", v["observed"]);
}

/// A number with an `s` after it is seconds whatever reads it: with 5 values or more, the
/// "written with an s" rule infers seconds, as before; with fewer, or with `--no-infer`, the
/// values carry their unit (once they were read as assumed ms: 16.2 ms).
#[test]
fn numbers_written_with_an_s_are_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: usize, took: &str| {
        format!(
            "{{\"time\":\"2026-11-02T08:00:{i:02}Z\",\"method\":\"POST\",\"path\":\"/v1/orders\",\"status\":201,\"latency\":\"{took}\"}}\n"
        )
    };
    let few: String = ["16.2s", "0.085s", "1.5s"]
        .iter()
        .enumerate()
        .map(|(i, t)| line(i, t))
        .collect();
    let many: String = (0..40)
        .map(|i| line(i, if i % 10 == 0 { "16.2s" } else { "0.085s" }))
        .collect();
    let few = write(dir.path(), "few.jsonl", few.as_bytes());
    let many = write(dir.path(), "many.jsonl", many.as_bytes());
    let timed_out = |file: &str, extra: &[&str]| {
        let v = json(&[&["logs", file, "--client-timeout", "15s"], extra].concat());
        (
            v["observed"]["timed_out"].as_u64().unwrap(),
            v["input_kinds"]["timeout_rate"]["duration_unit"]["kind"].clone(),
        )
    };
    assert_eq!(timed_out(&few, &[]), (1, serde_json::Value::Null));
    assert_eq!(
        timed_out(&few, &["--no-infer"]),
        (1, serde_json::Value::Null)
    );
    assert_eq!(timed_out(&many, &[]), (4, "inferred".into()));
    assert_eq!(
        timed_out(&many, &["--no-infer"]),
        (4, serde_json::Value::Null)
    );
}
