//! Native log formats (issue 12) through the real binary: each format read as the server
//! writes it, detected or named, mapped to the same roles as a CSV of the same rows; and
//! the inputs no format reads, refused in one line.

mod common;

use std::path::{Path, PathBuf};

use common::{dupcost, json, usage_error};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// The table report's stdout and stderr for `dupcost logs ARGS`, which must succeed.
fn table(args: &[&str]) -> (String, String) {
    let out = dupcost().arg("logs").args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// ingress-nginx's default format is detected; `504, 200` is a retried upstream that
/// answered 200 (succeeded), `-` on the 499 is unknown.
#[test]
fn ingress_nginx_upstreaminfo_is_detected_and_read() {
    let log = fixture("nginx_upstreaminfo.log");
    let (out, _) = table(&[&log, "--min-span", "1m", "--max-unknown", "0.7"]);
    assert!(
        out.contains("nginx_upstreaminfo.log as ingress-nginx upstreaminfo (detected)"),
        "{out}"
    );
    assert!(out.contains("upstream_status=upstream_status"), "{out}");
    let j = json(&["logs", &log, "--min-span", "1m", "--max-unknown", "0.7"]);
    let o = &j["observed"];
    assert_eq!(o["rows"], 6);
    assert_eq!(o["mutating_attempts"], 5);
    assert_eq!(o["timed_out"], 3);
    assert_eq!(o["timed_out_unknown"], 2, "{o}");
    assert_eq!(o["timed_out_succeeded"], 1, "{o}");
}

/// The same lines named by their format string give the same figures as detected.
#[test]
fn a_log_format_string_reads_the_same_lines() {
    let log = fixture("nginx_upstreaminfo.log");
    let format = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id"#;
    let args = ["--min-span", "1m", "--max-unknown", "0.7"];
    let named = json(&[&["logs", &log, "--log-format", format][..], &args].concat());
    let detected = json(&[&["logs", &log][..], &args].concat());
    assert_eq!(named["observed"], detected["observed"]);
    assert_eq!(named["inputs"], detected["inputs"]);
}

#[test]
fn a_file_no_format_reads_is_refused_naming_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "odd.log",
        b"1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] \"POST / HTTP/1.1\" 200 5 extra stuff here\n",
    );
    let err = usage_error(&["logs", &f]);
    assert!(err.contains("odd.log"), "{err}");
    assert!(err.contains("closest to nginx combined"), "{err}");
    assert!(err.contains("--log-format"), "{err}");
    assert!(err.contains("--input-format"), "{err}");
}

#[test]
fn binary_and_gzipped_binary_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let f = write(dir.path(), "x.bin", &bytes);
    let err = usage_error(&["logs", &f]);
    assert!(err.contains("x.bin: not a text log"), "{err}");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &bytes).unwrap();
    let f = write(dir.path(), "x.log.gz", &gz.finish().unwrap());
    let err = usage_error(&["logs", &f]);
    assert!(err.contains("x.log.gz: not a text log"), "{err}");
    assert!(err.contains("after gunzip"), "{err}");
}

/// Bad lines are counted and the first reported as file:line with what was expected.
#[test]
fn bad_lines_name_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = std::fs::read_to_string(fixture("nginx_upstreaminfo.log")).unwrap();
    text.push_str("this is not an nginx line\n");
    let f = write(dir.path(), "bad.log", text.as_bytes());
    let (_, stderr) = table(&[&f, "--min-span", "1m", "--max-unknown", "0.7"]);
    assert!(stderr.contains("bad.log:7: expected"), "{stderr}");
}
