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
