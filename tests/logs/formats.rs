//! Native log formats (issue 12) through the real binary: each format read as the server
//! writes it, detected or named, mapped to the same roles as a CSV of the same rows; and
//! the inputs no format reads, refused in one line.

use std::path::Path;

use crate::common::{dupcost, fixture, json, usage_error, write};
use crate::generator::{APACHE_LOG_FORMAT, Config, Format, NGINX_LOG_FORMAT, Truth};
use crate::support::output;
use dupcost::logs::{self, LogInput, LogOptions};

/// ingress-nginx's default format is detected; `504, 200` is a retried upstream that
/// answered 200 (succeeded), `-` on the 499 is unknown.
#[test]
fn ingress_nginx_upstreaminfo_is_detected_and_read() {
    let log = fixture("formats", "nginx_upstreaminfo.log");
    let (out, _) = output(&[&log, "--min-span", "1m", "--max-unknown", "0.7"]);
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
    assert_eq!(o["files"][0]["input_format"], "ingress-nginx upstreaminfo");
    assert_eq!(o["files"][0]["detected"], true);
}

/// The same lines named by their format string give the same figures as detected.
#[test]
fn a_log_format_string_reads_the_same_lines() {
    let log = fixture("formats", "nginx_upstreaminfo.log");
    let format = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id"#;
    let args = ["--min-span", "1m", "--max-unknown", "0.7"];
    let mut named = json(&[&["logs", &log, "--log-format", format][..], &args].concat());
    let mut detected = json(&[&["logs", &log][..], &args].concat());
    let files = |j: &mut serde_json::Value| {
        j["observed"]
            .as_object_mut()
            .unwrap()
            .remove("files")
            .unwrap()
    };
    let (named_files, detected_files) = (files(&mut named), files(&mut detected));
    assert_eq!(named_files[0]["input_format"], "ingress-nginx upstreaminfo");
    assert_eq!(named_files[0]["detected"], false);
    assert_eq!(detected_files[0]["detected"], true);
    assert_eq!(named["observed"], detected["observed"]);
    assert_eq!(named["inputs"], detected["inputs"]);
}

#[test]
fn a_file_no_format_reads_is_refused_naming_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    // The request line without its quotes.
    let f = write(
        dir.path(),
        "odd.log",
        b"1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] POST / HTTP/1.1 200 5\n",
    );
    let err = usage_error(&["logs", &f]);
    assert!(err.contains("odd.log"), "{err}");
    assert!(
        err.contains(
            "line 1 '1.2.3.4 - - [01/Nov/2026:10:00:01 +0000]…' comes closest to Apache common: field time_local at column 14 '01/Nov/2026:10:00:01' does not fit: expected '] \"' after time_local from column 14"
        ),
        "{err}"
    );
    assert!(err.contains("--log-format"), "{err}");
    assert!(err.contains("--input-format"), "{err}");
}

/// nginx `combined` with fields appended (the bundled sample: `$request_time $upstream_status
/// "$http_idempotency_key"`) read only as named (`--no-infer`) is read as combined, the rest
/// not: the evidence says so, and the succeeded share it cannot measure names `--log-format`;
/// given the format, all is read; with no flag, the fields its values leave one reading for.
#[test]
fn combined_with_fields_appended_reads_the_combined_fields_and_says_so() {
    let sample = "samples/nginx.log";
    // 23 timed-out attempts are too few to demand the succeeded share (issue 24): the
    // default stands, and the evidence says what would read it.
    let (err, _) = output(&[sample, "--no-infer"]);
    assert!(
        err.contains(
            "succeeded share: not measured from 23 timed-out attempts: too few (needs 30), and "
        ),
        "{err}"
    );
    assert!(err.contains("no upstream status column"), "{err}");
    // The fields past the layout are read as extra_N, and a line to paste names each by its
    // shape (the third, 32 hex digits, is nginx's $request_id shape; here it is the key).
    assert!(
        err.contains(r#"--log-format 'combined $request_time $upstream_status "$request_id"'"#),
        "{err}"
    );
    let (out, _) = output(&[sample, "--succeeded-share", "50%", "--no-infer"]);
    assert!(
        out.contains("as nginx combined with 3 more fields (extra_1, extra_2, extra_3) (detected)"),
        "{out}"
    );
    let guessed = json(&["logs", sample, "--succeeded-share", "50%", "--no-infer"]);
    assert_eq!(guessed["observed"]["bad_rows"], 0);
    // Its keys are among the fields not read: the attempts are grouped by fingerprint.
    assert_eq!(guessed["observed"]["intent_grouping"], "fingerprint");
    // Read whole, it shows its unknown outcomes (more than --max-unknown: allowed here).
    let given = json(&[
        "logs",
        sample,
        "--log-format",
        NGINX_LOG_FORMAT,
        "--max-unknown",
        "100%",
    ]);
    assert_eq!(given["observed"]["intent_grouping"], "key");
    assert_eq!(
        given["observed"]["mutating_attempts"],
        guessed["observed"]["mutating_attempts"]
    );
    assert_eq!(given["observed"]["timed_out_unknown"], 3);
    assert_eq!(given["observed"]["timed_out_succeeded"], 9);
    // With no flag, the upstream status and the request time are read by their values (the
    // key, which repeats on retries, is no $request_id and stays unnamed): the same outcomes.
    let inferred = json(&["logs", sample, "--max-unknown", "100%"]);
    assert_eq!(inferred["observed"]["timed_out_unknown"], 3);
    assert_eq!(inferred["observed"]["timed_out_succeeded"], 9);
    let read = inferred["observed"]["files"][0]["inferred"].to_string();
    assert!(
        read.contains("upstream_status") && read.contains("request_time"),
        "{read}"
    );
    assert!(!read.contains("request_id"), "{read}");
}

/// Apache `common` with `%D` and a header appended (the bundled sample) is read as common,
/// the rest not, and says so.
#[test]
fn apache_common_with_fields_appended_is_read_as_common() {
    let (out, _) = output(&["samples/apache.log", "--succeeded-share", "50%"]);
    assert!(
        out.contains("as Apache common with more fields (not read) (detected)"),
        "{out}"
    );
    assert!(out.contains("(e.g. %D, %{Idempotency-Key}i)"), "{out}");
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
    let mut text = std::fs::read_to_string(fixture("formats", "nginx_upstreaminfo.log")).unwrap();
    text.push_str("this is not an nginx line\n");
    let f = write(dir.path(), "bad.log", text.as_bytes());
    let (_, stderr) = output(&[&f, "--min-span", "1m", "--max-unknown", "0.7"]);
    assert!(stderr.contains("bad.log:7: expected"), "{stderr}");
}

/// HAProxy lines with and without the syslog prefix, with and without captured headers,
/// a `-1` status and a `+1` retry counter; Envoy's default and Istio's lines with `UT` and
/// `DC` flags: every line reads, and the give-ups are counted from the status or the flags.
#[test]
fn haproxy_envoy_and_istio_fixtures_read() {
    for (file, described, flags) in [
        (
            "haproxy_httplog.log",
            "HAProxy httplog",
            "flags=termination_state",
        ),
        ("envoy_default.log", "Envoy default", "flags=response_flags"),
        ("istio.log", "Istio (Envoy)", "flags=response_flags"),
        ("apache_common.log", "Apache common", "status=status"),
    ] {
        let log = fixture("formats", file);
        let args = [&log, "--min-span", "1m", "--succeeded-share", "0.5"];
        let (out, _) = output(&args);
        assert!(
            out.contains(&format!("{file} as {described} (detected)")),
            "{out}"
        );
        assert!(out.contains(flags), "{out}");
        let j = json(&[&["logs"][..], &args].concat());
        let o = &j["observed"];
        assert_eq!(o["bad_rows"], 0, "{file}: {o}");
        let mutating = if file.starts_with("apache") { 3 } else { 4 };
        assert_eq!(o["mutating_attempts"], mutating, "{file}: {o}");
        let timed_out = if file.starts_with("apache") { 1 } else { 2 };
        assert_eq!(o["timed_out"], timed_out, "{file}: {o}");
    }
}

/// A named format that does not read the file says so, naming the closest and the flags.
#[test]
fn a_named_format_that_does_not_fit_is_refused() {
    let err = usage_error(&[
        "logs",
        &fixture("formats", "envoy_default.log"),
        "--input-format",
        "haproxy",
    ]);
    assert!(err.contains("as haproxy"), "{err}");
    assert!(
        err.contains("is read as Envoy default; name that format with --input-format"),
        "{err}"
    );
    let err = usage_error(&[
        "logs",
        &fixture("formats", "envoy_default.log"),
        "--log-format",
        "%h %z",
    ]);
    assert!(
        err.contains("--log-format: unknown directive '%z'"),
        "{err}"
    );
}

trait Described {
    /// How `dupcost logs` names the format it reads this as.
    fn describe_as(self) -> &'static str;
}

impl Described for Format {
    fn describe_as(self) -> &'static str {
        match self {
            Format::NginxLog => "nginx log_format",
            Format::ApacheLog => "Apache LogFormat",
            Format::HaproxyLog => "HAProxy httplog",
            Format::EnvoyLog => "Envoy default",
            Format::IstioLog => "Istio (Envoy)",
            _ => "csv",
        }
    }
}

/// Writes a generated log of `format` (same seed: the same rows for a raw format and its
/// CSV sibling).
fn generated(dir: &Path, format: Format, cfg: &Config) -> (String, Truth) {
    let cfg = Config {
        format,
        ..cfg.clone()
    };
    let (path, truth) = crate::support::generated(dir, &format!("{format:?}.log"), &cfg);
    (path.to_str().unwrap().to_string(), truth)
}

/// Every raw format from the generator gives the figures of the CSV path on the same rows:
/// the JSON `observed` and `inputs` are equal (Apache's log has no upstream status, so
/// its outcomes are unknown: its counts are checked against the truth instead).
#[test]
fn every_raw_format_gives_the_figures_of_the_csv_path() {
    let dir = tempfile::tempdir().unwrap();
    let base = Config {
        rows: 3_000,
        seed: 12,
        unknown_share: 0.2,
        bad_every: 700,
        ..Config::default()
    };
    // Grouped by key (or not at all) on both sides: the raw lines carry the client's address,
    // which their CSV siblings lack, and a keyless log with one is grouped by fingerprint.
    let args = [
        "--max-unknown",
        "1",
        "--succeeded-share",
        "0.5",
        "--intents",
        "key",
    ];
    let nginx_format = format!("{NGINX_LOG_FORMAT} $request_id");
    let with_ids = Config {
        request_ids: true,
        ..base.clone()
    };
    let no_keys = Config {
        key_share: 0.0,
        ..base.clone()
    };
    // HAProxy's CSV names its bytes field as HAProxy does, which no alias finds (the raw
    // format maps it itself).
    let haproxy_bytes = vec!["--column", "bytes=bytes_read"];
    for (raw, cfg, extra, csv_extra) in [
        (
            Format::NginxLog,
            &with_ids,
            vec!["--log-format", nginx_format.as_str()],
            vec![],
        ),
        (Format::HaproxyLog, &base, vec![], haproxy_bytes),
        (Format::EnvoyLog, &no_keys, vec![], vec![]),
        (Format::IstioLog, &no_keys, vec![], vec![]),
    ] {
        let (raw_log, raw_truth) = generated(dir.path(), raw, cfg);
        let (csv_log, csv_truth) = generated(dir.path(), raw.style(), cfg);
        assert_eq!(raw_truth.rows, csv_truth.rows, "{raw:?}: the same rows");
        let mut from_raw = json(&[&["logs", &raw_log][..], &args, &extra].concat());
        let mut from_csv = json(&[&["logs", &csv_log][..], &args, &csv_extra].concat());
        // How each was read differs, of course.
        let raw_files = from_raw["observed"]
            .as_object_mut()
            .unwrap()
            .remove("files")
            .unwrap();
        assert_eq!(raw_files[0]["input_format"], raw.describe_as(), "{raw:?}");
        assert_eq!(from_csv["observed"]["files"][0]["input_format"], "csv");
        from_csv["observed"]
            .as_object_mut()
            .unwrap()
            .remove("files");
        if cfg.key_share == 0.0 {
            // Envoy's and Istio's default lines have no key field, their CSV siblings an empty
            // key column: how the attempts were grouped is told differently (none against
            // key, with its warning and a 0% coverage), the intents are the same.
            for side in [&mut from_raw, &mut from_csv] {
                let observed = side["observed"].as_object_mut().unwrap();
                for field in ["intent_grouping", "key_coverage", "warnings"] {
                    observed.remove(field);
                }
            }
        }
        if from_csv["observed"]["proxy_retries"].is_null() {
            // HAProxy's retries counter (issue 35) has no column in the CSV sibling: the raw
            // log's own retries (none in the generator's lines) are its extra evidence.
            let observed = from_raw["observed"].as_object_mut().unwrap();
            if let Some(p) = observed.remove("proxy_retries") {
                assert!(p.is_null() || p["retries"] == 0, "{raw:?}: {p}");
            }
            for e in observed["per_endpoint"].as_array_mut().unwrap() {
                e.as_object_mut().unwrap().remove("proxy_retries");
            }
            from_csv["observed"]
                .as_object_mut()
                .unwrap()
                .remove("proxy_retries");
            // Nor the layers figure it measures (its tries: 1 each).
            if let Some(a) = observed.remove("amplification") {
                assert!(a.is_null() || a["attempts_max"] == 1, "{raw:?}: {a}");
            }
            from_csv["observed"]
                .as_object_mut()
                .unwrap()
                .remove("amplification");
        }
        assert_eq!(from_raw["observed"], from_csv["observed"], "{raw:?}");
        assert_eq!(from_raw["inputs"], from_csv["inputs"], "{raw:?}");
        assert_eq!(from_raw["observed"]["rows"], raw_truth.rows, "{raw:?}");
        assert_eq!(
            from_raw["observed"]["bad_rows"], raw_truth.bad_rows,
            "{raw:?}"
        );
        assert!(raw_truth.bad_rows > 0);
    }
    let (log, truth) = generated(dir.path(), Format::ApacheLog, &base);
    let j = json(
        &[
            &["logs", &log, "--log-format", APACHE_LOG_FORMAT][..],
            &args,
        ]
        .concat(),
    );
    let o = &j["observed"];
    assert_eq!(o["rows"], truth.rows);
    assert_eq!(o["bad_rows"], truth.bad_rows);
    assert_eq!(o["mutating_attempts"], truth.mutating_attempts);
    assert_eq!(o["intents"], truth.intents);
    assert_eq!(o["timed_out"], truth.timed_out);
    // No upstream status: every timed-out outcome is unknown, and not counted as measured.
    assert_eq!(truth.timed_out_unknown, truth.timed_out);
    assert!(o["timed_out_unknown"].is_null(), "{o}");
    assert_eq!(o["files"][0]["input_format"], "Apache LogFormat");
    assert_eq!(o["files"][0]["detected"], false);
}

/// A line format read in pieces by several threads gives the figures of one thread.
#[test]
fn line_formats_read_in_pieces_equal_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 20_000,
        seed: 5,
        bad_every: 3_000,
        ..Config::default()
    };
    for (format, log_format) in [
        (Format::NginxLog, Some(NGINX_LOG_FORMAT)),
        (Format::HaproxyLog, None),
        (Format::EnvoyLog, None),
    ] {
        let (path, truth) = generated(dir.path(), format, &cfg);
        let read = |threads: usize| {
            let opts = LogOptions {
                log_format: log_format.map(str::to_string),
                threads,
                split_bytes: 64 << 10,
                ..LogOptions::default()
            };
            logs::analyze(&[LogInput::from(path.as_str())], &opts).unwrap()
        };
        let (one, four) = (read(1), read(4));
        assert!(four.files[0].pieces > 1, "{format:?}: read in pieces");
        assert_eq!(one.tally.rows, truth.rows, "{format:?}");
        assert_eq!(one.tally.bad_rows, truth.bad_rows, "{format:?}");
        assert_eq!(one.tally.counts, four.tally.counts, "{format:?}");
        assert_eq!(one.tally.intents(), four.tally.intents(), "{format:?}");
        assert_eq!(one.tally.bad_samples, four.tally.bad_samples, "{format:?}");
    }
}

/// A line format read from stdin and from gzip (recognised by content) gives the figures of
/// the plain file.
#[test]
fn stdin_and_gzip_read_line_formats() {
    let log = fixture("formats", "haproxy_httplog.log");
    let args = [
        "--min-span",
        "1m",
        "--succeeded-share",
        "0.5",
        "--format",
        "json",
    ];
    let plain = json(&[&["logs", &log][..], &args[..4]].concat());
    let bytes = std::fs::read(&log).unwrap();
    let out = dupcost()
        .args([&["logs", "-"][..], &args].concat())
        .write_stdin(bytes.clone())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let piped: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(piped["observed"]["rows"], plain["observed"]["rows"]);
    assert_eq!(piped["inputs"], plain["inputs"]);
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &bytes).unwrap();
    let f = write(dir.path(), "haproxy.log.1", &gz.finish().unwrap());
    let zipped = json(&[&["logs", &f][..], &args[..4]].concat());
    assert_eq!(zipped["inputs"], plain["inputs"]);
    assert_eq!(
        zipped["observed"]["files"][0]["input_format"],
        "HAProxy httplog"
    );
}
