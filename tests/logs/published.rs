//! Shapes that logs published in other projects' test suites have and that the formats'
//! own documentation does not show: HAProxy's padded fields, W3C files whose fields are
//! separated by runs of spaces, IIS and CloudFront lines without their `#Fields:` header, an
//! nginx client field that is a list, a duration in nanoseconds under a name that says no
//! unit. No request line is lost, and where a reading is not certain it is marked or refused.
//! All on lines made here, shaped like those files.

use crate::common::write;
use crate::support;
use serde_json::Value;

/// Figures the logs cannot give, so that a small file still reports.
const GIVEN: [&str; 6] = [
    "--requests-per-day",
    "1000",
    "--succeeded-share",
    "50%",
    "--min-span",
    "0s",
];

fn report(path: &str, args: &[&str]) -> (Value, String) {
    support::report(&[&[path][..], &GIVEN, args].concat())
}

/// `(rows, bad rows, mutating attempts, timed out)`.
fn counts(o: &Value) -> (u64, u64, u64, u64) {
    let n = |k: &str| o[k].as_u64().unwrap();
    (
        n("rows"),
        n("bad_rows"),
        n("mutating_attempts"),
        n("timed_out"),
    )
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// HAProxy pads some fields (a run of spaces before the status, as a published sample has
/// on one line of two): the padded line reads as the unpadded one, never a bad row.
#[test]
fn haproxy_padded_fields_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..4)
        .map(|i| {
            let (timers, status, flags) = if i == 1 {
                ("0/0/0/-1/30001", "504", "sH--")
            } else {
                ("0/0/1/30/31", "201", "----")
            };
            format!(
                "<30>Nov  6 21:43:4{i} haproxy[22021]: 10.0.0.{i}:55480 [06/Nov/2026:21:43:4{i}.916] public~ be_http/srva {timers} {status} 194 - - {flags} 15/13/10/0/0 0/0 \"PATCH /api/upload/{i} HTTP/1.1\""
            )
        })
        .collect();
    let plain = write(dir.path(), "plain.log", text(&lines).as_bytes());
    let mut padded = lines.clone();
    padded[1] = padded[1].replace(" 504 ", "    504 ");
    padded[2] = padded[2].replace(" 201 ", "   201 ");
    let padded = write(dir.path(), "padded.log", text(&padded).as_bytes());
    let (want, _) = report(&plain, &[]);
    let (got, stderr) = report(&padded, &[]);
    assert_eq!(counts(&want["observed"]), (4, 0, 4, 1));
    assert_eq!(counts(&got["observed"]), (4, 0, 4, 1), "{stderr}");
    assert!(!stderr.contains("bad row"), "{stderr}");
}
