//! Shapes that logs published in other projects' test suites have and that the formats'
//! own documentation does not show: HAProxy's padded fields, W3C files whose fields are
//! separated by runs of spaces, IIS and CloudFront lines without their `#Fields:` header, an
//! nginx client field that is a list, a duration in nanoseconds under a name that says no
//! unit. No request line is lost, and where a reading is not certain it is marked or refused.
//! All on lines made here, shaped like those files.

use crate::common::write;
use crate::support::{self, counts, small_report as report};

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

/// Oracle Web Cache's W3C log: columns aligned with runs of spaces, quoted fields, local
/// time with `#GMT-Offset:`. Every line is a row (none bad), its times read in that zone,
/// and its `time-taken` unit, which IIS's documentation does not cover, is not asserted.
#[test]
fn oracle_web_cache_w3c_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::from(
        "#Version: 1.0\n#GMT-Offset: -0800\n#Software: Oracle9iAS Web Cache/2.0.0.2.0\n#Start-Date: 2026-10-31 00:00:18\n#Fields:  c-ip  c-dns  c-auth-id  date  time  cs-method  cs-uri  sc-status  bytes  cs(Cookie)  cs(Referrer)  time-taken  cs(User-Agent)\n#Date: 2026-10-31 00:00:18\n",
    );
    for i in 0..6 {
        let (method, status) = if i % 2 == 0 {
            ("POST", 201)
        } else {
            ("GET", 200)
        };
        log.push_str(&format!(
            "64.103.37.{i}      client_a{i}      DMS.user      2026-10-31     00:00:1{i}      {method}      /v1/orders/{i}?x=1    {status}     350    \"BIG=1443321748.19460.0000;A=%2fMP\"         \"http://www.example.com/nl/x.html\"      37087{i}      \"Mozilla/4.5 [en] (WinNT; I)\"\n"
        ));
    }
    let path = write(dir.path(), "access_log", log.as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 3, 0), "{stderr}");
    assert_eq!(o["first_timestamp"], "2026-10-31T08:00:10Z");
    assert_eq!(
        o["files"][0]["input_format"],
        "W3C extended log (Oracle9iAS Web Cache/2.0.0.2.0)"
    );
    // With --client-timeout, the comparison says its unit is assumed.
    let (_, stderr) = report(&path, &["--client-timeout", "30s"]);
    assert!(
        stderr.contains("time-taken says no unit") && stderr.contains("--duration-unit"),
        "{stderr}"
    );
}

/// Elastic's nginx "with host" sample: the virtual host, then a client field that is a list
/// (a proxy logging the forwarded chain in its place: `10.0.0.2, 10.0.0.1, 127.0.0.1`, a
/// quoted list then an address, IPv6 with its zone), some lines with a field appended. Every
/// line is a row; a list is one client, never read into the user fields.
#[test]
fn nginx_with_host_and_a_client_list_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let clients = [
        "10.0.0.2, 10.0.0.1, 127.0.0.1",
        "172.17.0.1",
        "\"10.5.102.222, 199.96.1.1, 204.246.1.1\" 10.2.1.185",
        "2a02:cf40:add:4002:91f2:a9b2:e09a:6fc6, 10.225.192.17 10.2.2.121",
        "localhost, localhost",
        "fe80::d9e3:e981:da2d:427b%3",
    ];
    let lines: Vec<String> = clients
        .iter()
        .enumerate()
        .map(|(i, client)| {
            let status = if i == 2 { 504 } else { 201 };
            let appended = if i % 2 == 1 { " \"-\"" } else { "" };
            format!(
                "example.com:80 {client} - - [07/Dec/2026:11:05:0{i} +0100] \"POST /v1/orders HTTP/1.1\" {status} 571 \"-\" \"Mozilla/5.0 (Macintosh; rv:49.0) Gecko/20100101 Firefox/49.0\"{appended}"
            )
        })
        .collect();
    let path = write(dir.path(), "access.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 6, 1), "{stderr}");
    assert!(
        o["files"][0]["input_format"]
            .as_str()
            .unwrap()
            .starts_with("Apache combined after the virtual host"),
        "{}",
        o["files"][0]
    );
    // A word that is no address is not read into the list: a prefix stays a misfit.
    let mut bad = lines.clone();
    bad[3] = bad[3].replace("10.2.2.121", "not an address");
    let path = write(dir.path(), "bad.log", text(&bad).as_bytes());
    let (j, stderr) = report(&path, &[]);
    assert_eq!(counts(&j["observed"]), (6, 1, 5, 1), "{stderr}");
}

/// IIS's default W3C fields, 15 a line, with no `#Fields:` line (a file whose directives were
/// cut off, as a published test file has): read by that default, which the values leave as
/// the one reading, and marked inferred wherever a figure read through it is; `--no-infer`
/// refuses it; the flag the mark names reads the same figures, given.
#[test]
fn iis_without_its_fields_line_is_read_by_its_default_inferred() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..10)
        .map(|i| {
            let (status, win32, taken) = if i % 5 == 4 { (200, 64, 30001) } else { (201, 0, 120 + i) };
            format!(
                "2026-11-01 10:13:{i:02} 10.0.0.5 POST /v1/orders - 443 - 10.0.0.{i} okhttp/4.12.0 - {status} 0 {win32} {taken}"
            )
        })
        .collect();
    let path = write(dir.path(), "u_ex261101.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (10, 0, 10, 2), "{stderr}");
    let file = &o["files"][0];
    assert_eq!(
        file["input_format"],
        "IIS W3C extended log (no #Fields: line: IIS's default fields, inferred)"
    );
    assert_eq!(file["inferred"][0]["field"], "layout");
    assert_eq!(file["inferred"][0]["read_as"], "IIS's 15 default fields");
    let given_by = file["inferred"][0]["given_by"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        given_by.starts_with("--input-format iis --log-format '#Fields: date time s-ip"),
        "{given_by}"
    );
    assert_eq!(
        j["input_kinds"]["timeout_rate"]["inferred_field"]["field"],
        "layout"
    );
    // The answer's inputs line says so.
    let (table, _) = support::output(&[&path, "--min-span", "0s"]);
    assert!(
        table.contains(
            "layout (IIS's 15 default fields, no #Fields: line) inferred from its values"
        ),
        "{table}"
    );
    // The flag it names reads the same figures, given.
    let flag = given_by.trim_start_matches("--input-format iis --log-format '");
    let flag = flag.trim_end_matches('\'');
    let (given, _) = report(&path, &["--input-format", "iis", "--log-format", flag]);
    assert_eq!(counts(&given["observed"]), counts(o));
    assert!(given["observed"]["files"][0]["inferred"].is_null());
    // --no-infer reads only what is named: refused, naming the missing line and the flag.
    support::fails(
        &[&path, "--no-infer"],
        &[
            "no #Fields: line",
            "--no-infer",
            "--input-format iis --log-format",
        ],
    );
    // A line with a 16th field fits no default: refused naming the missing line, never a
    // closest guess of another format.
    let more: Vec<String> = lines.iter().map(|l| format!("{l} 10.0.0.9")).collect();
    let path = write(dir.path(), "more.log", text(&more).as_bytes());
    let err = support::fails(
        &[&path],
        &[
            "no #Fields: line",
            "16 fields",
            "IIS's 15 default fields",
            "--input-format iis --log-format",
        ],
    );
    assert!(!err.contains("closest"), "{err}");
}

/// CloudFront's standard log with no `#Fields:` line: today's 33 fields and an older log's
/// 23 (before `cs-protocol-version` and the fields after it), in one file: each line read
/// by the documented layout its count names, marked inferred; a count no layout has is a
/// bad row.
#[test]
fn cloudfront_without_its_fields_line_reads_each_documented_layout() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: usize, status: &str, taken: &str, result: &str, n: usize| {
        let all = [
            "2026-11-01",
            &format!("10:00:0{i}"),
            "LAX1",
            "512",
            "192.0.2.101",
            "POST",
            "d111111abcdef8.cloudfront.net",
            "/v1/orders",
            status,
            "-",
            "okhttp/4.12.0",
            "-",
            "-",
            "Error",
            "SOKRB5drohxR1NYTlnZMBwq5USH4tVZHLSTTaxD1LF3nzPsrGkWF5Q==",
            "d111111abcdef8.cloudfront.net",
            "https",
            "23",
            taken,
            "-",
            "TLSv1.2",
            "ECDHE-RSA-AES128-GCM-SHA256",
            "Error",
            "HTTP/2.0",
            "-",
            "-",
            "11040",
            taken,
            result,
            "text/html",
            "78",
            "-",
            "-",
        ];
        all[..n].join("\t")
    };
    let mut lines: Vec<String> = (0..6)
        .map(|i| match i {
            0 => line(i, "504", "30.001", "ClientCommError", 33),
            1 => line(i, "000", "30.002", "-", 23),
            _ if i % 2 == 0 => line(i, "201", "0.120", "Miss", 33),
            _ => line(i, "201", "0.130", "Miss", 23),
        })
        .collect();
    let path = write(
        dir.path(),
        "E2EXAMPLE.2026-11-01-10.log",
        text(&lines).as_bytes(),
    );
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 6, 2), "{stderr}");
    assert_eq!(o["files"][0]["inferred"][0]["field"], "layout");
    lines.push(line(7, "201", "0.1", "Miss", 25));
    let path = write(dir.path(), "odd.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    assert_eq!(counts(&j["observed"]), (7, 1, 6, 2), "{stderr}");
    assert!(stderr.contains("found 25"), "{stderr}");
}
