//! The bad-input matrix of issue 6 for `dupcost logs`, through the real binary: each case
//! either fails with exit code 2 and one stderr line naming the culprit (file, line or flag),
//! or, where the input is odd but usable, succeeds with the right figures. Never a panic.
//!
//! Already covered by `tests/logs/cli.rs` (not repeated here): a missing file, a directory,
//! an empty file, a header with no rows, only GET rows, no timeouts, gzip magic followed by
//! garbage, `--strict` on a bad row, and a closed stdout on a file read.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{dupcost, write};
use crate::support::{fails, report};

const HEADER: &str = "timestamp,method,path,status,upstream_status,idempotency_key\n";

/// Deterministic garbage: every byte value, newlines included.
fn garbage(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 56) as u8
        })
        .collect()
}

#[test]
fn binary_garbage_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Garbage from the first byte: no usable header.
    for seed in [1, 2, 3] {
        let f = write(d, &format!("garbage{seed}.bin"), &garbage(64 << 10, seed));
        fails(&[&f], &[&format!("garbage{seed}.bin")]);
    }
    // A good header, then garbage (NUL bytes and all): every row is bad.
    let mut bytes = HEADER.as_bytes().to_vec();
    bytes.extend(garbage(4096, 9));
    bytes.extend_from_slice(b"\n\0\0\0\0,\0,\0\n");
    let f = write(d, "rows.bin", &bytes);
    fails(
        &[&f],
        &[
            "rows.bin",
            "none of the",
            "rows could be used",
            "rows.bin:2",
        ],
    );
}

#[test]
fn truncated_mid_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = format!(
        "{HEADER}2026-11-01T00:00:00Z,POST,/v1/orders,504,200,a\n2026-11-02T00:00:00Z,POST,/v1/orders,200,200,b\n"
    );
    // Cut in the middle of the third row's fields: that row is bad, the rest is used.
    let cut = format!("{good}2026-11-02T01:00:00Z,POST,/v1/or");
    let f = write(d, "cut.csv", cut.as_bytes());
    let (json, stderr) = report(&[&f]);
    let o = &json["observed"];
    assert_eq!(o["rows"], 3);
    assert_eq!(o["bad_rows"], 1);
    assert_eq!(o["mutating_attempts"], 2);
    assert_eq!(o["timed_out"], 1);
    assert!(stderr.contains("cut.csv:4"), "{stderr}");
    fails(&[&f, "--strict"], &["cut.csv:4", "--strict"]);
    // Cut inside a quoted field: the unterminated quote makes the last row bad.
    let quoted = format!("{good}2026-11-02T01:00:00Z,POST,\"/v1/orders,50");
    let f = write(d, "quote.csv", quoted.as_bytes());
    let (json, stderr) = report(&[&f]);
    assert_eq!(json["observed"]["bad_rows"], 1);
    assert_eq!(json["observed"]["mutating_attempts"], 2);
    assert!(stderr.contains("quote.csv:4"), "{stderr}");
}

#[test]
fn truncated_gzip_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(HEADER.as_bytes()).unwrap();
    for i in 0..5000 {
        writeln!(
            enc,
            "2026-11-01T00:00:{:02}Z,POST,/v1/orders,504,200,k{i}",
            i % 60
        )
        .unwrap();
    }
    let gz = enc.finish().unwrap();
    for (name, len) in [("half.csv.gz", gz.len() / 2), ("tail.log", gz.len() - 4)] {
        let f = write(dir.path(), name, &gz[..len]);
        fails(&[&f], &[name, "corrupt or truncated gzip"]);
    }
    // The same through stdin.
    let out = dupcost()
        .args(["logs", "-"])
        .write_stdin(gz[..gz.len() / 2].to_vec())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("-: corrupt or truncated gzip"), "{stderr}");
}

#[test]
fn a_10_mb_line_is_a_bad_row_or_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = vec![b'x'; 10 << 20];
    // A 10 MB data row: a bad row (line 3), the rows around it are used.
    let mut bytes =
        format!("{HEADER}2026-11-01T00:00:00Z,POST,/v1/orders,504,200,a\n").into_bytes();
    bytes.extend_from_slice(&long);
    bytes.extend_from_slice(b"\n2026-11-02T00:00:00Z,POST,/v1/orders,200,200,b\n");
    let f = write(d, "long-row.csv", &bytes);
    let (json, stderr) = report(&[&f]);
    assert_eq!(json["observed"]["bad_rows"], 1);
    assert_eq!(json["observed"]["mutating_attempts"], 2);
    assert!(
        stderr.contains("long-row.csv:3") && stderr.contains("longer than"),
        "{stderr}"
    );
    fails(&[&f, "--strict"], &["long-row.csv:3", "longer than"]);
    // A 10 MB field in quotes (no newline in it either): the same.
    let mut bytes =
        format!("{HEADER}2026-11-01T00:00:00Z,POST,/v1/orders,504,200,a\n").into_bytes();
    bytes.extend_from_slice(b"2026-11-01T00:00:01Z,POST,\"");
    bytes.extend_from_slice(&long);
    bytes.extend_from_slice(b"\",504,200,c\n2026-11-02T00:00:00Z,POST,/v1/orders,200,200,b\n");
    let f = write(d, "long-field.csv", &bytes);
    let (json, _) = report(&[&f]);
    assert_eq!(json["observed"]["bad_rows"], 1);
    assert_eq!(json["observed"]["mutating_attempts"], 2);
    // A 10 MB header line: a clear error, not a buffer of 10 MB.
    let f = write(d, "long-header.csv", &long);
    fails(&[&f], &["long-header.csv", "header line is longer than"]);
}

#[test]
fn mixed_delimiters() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The delimiter comes from the header: rows in another one are bad rows (wrong field
    // count), named with their lines; the rows in the header's delimiter are used.
    let text = format!(
        "{HEADER}2026-11-01T00:00:00Z,POST,/v1/orders,504,200,a\n\
         2026-11-01T00:00:01Z;POST;/v1/orders;504;200;b\n\
         2026-11-01T00:00:02Z\tPOST\t/v1/orders\t504\t200\tc\n\
         2026-11-02T00:00:00Z,POST,/v1/orders,200,200,d\n"
    );
    let f = write(d, "mixed.csv", text.as_bytes());
    let (json, stderr) = report(&[&f]);
    assert_eq!(json["observed"]["rows"], 4);
    assert_eq!(json["observed"]["bad_rows"], 2);
    assert_eq!(json["observed"]["mutating_attempts"], 2);
    assert!(
        stderr.contains("mixed.csv:3") && stderr.contains("mixed.csv:4"),
        "{stderr}"
    );
    // A semicolon header over comma rows: nothing is usable, said with the first culprit.
    let text = "timestamp;method;path;status;upstream_status\n\
                2026-11-01T00:00:00Z,POST,/v1/orders,504,200\n\
                2026-11-02T00:00:00Z,POST,/v1/orders,200,200\n";
    let f = write(d, "semi.csv", text.as_bytes());
    fails(
        &[&f],
        &["semi.csv", "none of the 2 rows could be used", "semi.csv:2"],
    );
    // A header mixing delimiters: the columns it cannot find are named, with --column.
    let f = write(
        d,
        "header.csv",
        b"timestamp,method;path;status\n2026-11-01T00:00:00Z,POST;/a;504\n",
    );
    fails(&[&f], &["header.csv", "--column"]);
}

#[test]
fn timestamps_going_backwards_still_work() {
    let dir = tempfile::tempdir().unwrap();
    // Newest first (some tools write logs that way): the same figures as oldest first.
    let rows = [
        "2026-11-03T00:00:00Z,POST,/v1/orders,201,201,b",
        "2026-11-02T12:00:40Z,POST,/v1/orders,201,201,a",
        "2026-11-02T12:00:00Z,POST,/v1/orders,504,201,a",
        "2026-11-01T00:00:00Z,PUT,/v1/orders/1,200,200,c",
        "2026-11-01T00:00:00Z,GET,/v1/orders/1,504,504,",
    ];
    let backwards = format!("{HEADER}{}\n", rows.join("\n"));
    let mut fwd = rows;
    fwd.reverse();
    let forwards = format!("{HEADER}{}\n", fwd.join("\n"));
    let b = write(dir.path(), "backwards.csv", backwards.as_bytes());
    let f = write(dir.path(), "forwards.csv", forwards.as_bytes());
    let (json, stderr) = report(&[&b]);
    // The figures hold, and the reader says the clock ran backwards (issue 10).
    let warning = "timestamps run backwards by up to 2days (more than the retry window, 1h)";
    assert!(
        stderr.starts_with(&format!("warning: {warning}")),
        "{stderr}"
    );
    let o = &json["observed"];
    assert!(
        o["warnings"][0].as_str().unwrap().starts_with(warning),
        "{}",
        o["warnings"]
    );
    assert_eq!(o["rows"], 5);
    assert_eq!(o["bad_rows"], 0);
    assert_eq!(o["mutating_attempts"], 4);
    assert_eq!(o["timed_out"], 1);
    assert_eq!(o["timed_out_succeeded"], 1);
    assert_eq!(o["intents"], 3, "a's two attempts are one intent");
    assert_eq!(o["days_covered"], 2.0);
    assert_eq!(o["first_timestamp"], "2026-11-01T00:00:00Z");
    assert_eq!(o["last_timestamp"], "2026-11-03T00:00:00Z");
    assert_eq!(o["retries_observed"]["max"], 1);
    assert_eq!(o["per_day"].as_array().unwrap().len(), 3);
    let (mut forward, _) = report(&[&f]);
    assert_eq!(forward["observed"]["warnings"], serde_json::json!([]));
    let mut json = json;
    json["observed"]["warnings"] = serde_json::json!([]);
    forward["observed"]["warnings"] = serde_json::json!([]);
    // The files' names differ, of course.
    json["observed"]["files"] = serde_json::json!([]);
    forward["observed"]["files"] = serde_json::json!([]);
    assert_eq!(forward["observed"], json["observed"]);
    assert_eq!(forward["inputs"], json["inputs"]);
}

/// The behaviour, defined: an idempotency key identifies an intent on one endpoint (method and
/// route template). The same key on another method or another route is another intent; on
/// another concrete path of the same route (`/v1/orders/1` and `/v1/orders/2` are both
/// `/v1/orders/{id}`) it is the same intent.
#[test]
fn the_same_key_on_different_methods_or_paths() {
    let dir = tempfile::tempdir().unwrap();
    let intents = |rows: &[&str]| {
        let text = format!(
            "{HEADER}{}\n2026-11-02T00:00:00Z,POST,/z,200,200,\n",
            rows.join("\n")
        );
        let f = write(dir.path(), "keys.csv", text.as_bytes());
        let (json, _) = report(&[&f]);
        // The last row, unkeyed, is one intent of its own.
        json["observed"]["intents"].as_u64().unwrap() - 1
    };
    let same = |method: &str, path: &str| format!("2026-11-01T00:00:30Z,{method},{path},200,200,k");
    let first = "2026-11-01T00:00:00Z,POST,/v1/orders,504,200,k";
    assert_eq!(intents(&[first, &same("POST", "/v1/orders")]), 1);
    assert_eq!(
        intents(&[first, &same("PUT", "/v1/orders")]),
        2,
        "another method"
    );
    assert_eq!(
        intents(&[first, &same("POST", "/v1/payments")]),
        2,
        "another route"
    );
    let one = "2026-11-01T00:00:00Z,POST,/v1/orders/1,504,200,k";
    assert_eq!(
        intents(&[one, &same("POST", "/v1/orders/2")]),
        1,
        "the same route template"
    );
}

/// Whether this process runs as root (its `/proc/self` belongs to its effective user).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A mode-000 file is refused, naming it. Root reads such a file anyway (permission checks do
/// not apply to it), so as root (the CI containers) the binary is run as the unprivileged
/// user `nobody` through `setpriv` (util-linux), as a user would run it.
#[test]
fn an_unreadable_file_is_refused_naming_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // Anyone may pass through the folder; only the file is closed.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let f = write(
        dir.path(),
        "secret.csv",
        format!("{HEADER}2026-11-01T00:00:00Z,POST,/a,504,200,a\n").as_bytes(),
    );
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o000)).unwrap();
    if !is_root() {
        fails(&[&f], &["secret.csv", "ermission denied"]);
        return;
    }
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(assert_cmd::cargo::cargo_bin("dupcost"))
        .args(["logs", &f])
        .output()
        .expect("setpriv (util-linux) runs the binary as nobody");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    for needle in ["secret.csv", "ermission denied"] {
        assert!(stderr.contains(needle), "{stderr:?} lacks {needle:?}");
    }
}

#[test]
fn a_directory_among_files_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let ok = write(
        dir.path(),
        "ok.csv",
        format!("{HEADER}2026-11-01T00:00:00Z,POST,/a,504,200,a\n2026-11-02T00:00:00Z,POST,/a,200,200,b\n").as_bytes(),
    );
    let sub = dir.path().join("rotated");
    std::fs::create_dir(&sub).unwrap();
    fails(
        &[&ok, sub.to_str().unwrap()],
        &["rotated", "is a directory"],
    );
}

#[test]
fn closed_stdout_on_stdin_input_exits_quietly() {
    let log = std::fs::read("samples/access-log.csv").unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("dupcost"))
        .args(["logs", "-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&log).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A log's bytes in a message are escaped: a status holding an ANSI sequence cannot colour,
/// move or clear the reader's terminal.
#[test]
fn control_characters_in_messages_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("esc.csv");
    std::fs::write(
        &path,
        "time,method,path,status,upstream_status\n\
         2026-11-01T00:00:00Z,POST,/a,5\x1b[31m04,200\n\
         2026-11-01T01:00:00Z,POST,/a,504,200\n\
         2026-11-01T02:00:00Z,POST,/a,200,200\n",
    )
    .unwrap();
    let out = dupcost()
        .arg("logs")
        .arg(&path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(r"unparseable status '5\u{1b}[31m04'"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\x1b'),
        "no raw escape reaches the terminal: {stderr:?}"
    );
}
