//! Refusals that name the right neighbour (issues 34 and 35): the format whose fields came
//! closest on the line, over every row of the formats' catalog, and the field that did not
//! fit; records that are no HTTP request (IIS FTP, HAProxy tcplog) named as what they are,
//! and never an empty line blamed.

use crate::common::{fixture, usage_error, write};

/// `dupcost logs PATH ARGS --format json` with the rate given: its JSON and its stderr.
fn report(path: &str, args: &[&str]) -> (serde_json::Value, String) {
    let given = [path, "--min-span", "0s", "--succeeded-share", "0.5"];
    let rate = ["--requests-per-day", "10", "--timeout-rate", "1%"];
    crate::support::report(&[&given[..], &rate, args].concat())
}

const IIS_FTP: &str = "IIS FTP log records (FTP commands, no HTTP request)";

/// An IIS FTP log as IIS's FTP service writes it (its default `#Fields:`, Microsoft's "FTP
/// Logging"): a session's commands.
const FTP_LOG: &str = "#Software: Microsoft Internet Information Services 10.0
#Version: 1.0
#Date: 2023-12-29 06:27:23
#Fields: date time c-ip cs-username s-ip s-port cs-method cs-uri-stem sc-status sc-win32-status sc-substatus x-session x-fullpath
2023-12-29 06:27:23 10.211.55.53 - 10.211.55.52 21 ControlChannelOpened - - 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea -
2023-12-29 06:27:23 10.211.55.53 - 10.211.55.52 21 USER anonymous 331 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea -
2023-12-29 06:27:23 10.211.55.53 - 10.211.55.52 21 PASS IEUser@ 230 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea /
2023-12-29 06:27:24 10.211.55.53 - 10.211.55.52 21 STOR upload.bin 226 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea /upload.bin
2023-12-29 06:27:24 10.211.55.53 - 10.211.55.52 21 created /upload.bin 226 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea /upload.bin
";

/// IIS FTP records are FTP commands, never HTTP requests: a file of only them (Elastic's
/// record with no `#Fields:`, or a whole FTP log) is refused naming them, with no closest
/// HTTP format; after a web log's requests (`cat`ed logs of both services) they are skipped
/// and counted by kind, and the requests read as before.
#[test]
fn iis_ftp_records_are_no_requests() {
    let err = usage_error(&["logs", &fixture("suites", "elastic-iis-ftp.log")]);
    assert!(
        err.contains(&format!(
            "its first lines hold no HTTP access line, only lines that are not access lines ({IIS_FTP}: 1)"
        )),
        "{err}"
    );
    assert!(!err.contains("closest"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "u_ex231229.log", FTP_LOG.as_bytes());
    let err = usage_error(&["logs", &path]);
    assert!(err.contains(&format!("({IIS_FTP}: 5)")), "{err}");
    assert!(!err.contains("vcombined") && !err.contains("''"), "{err}");
    // Named IIS, its FTP records are still no requests.
    let err = usage_error(&["logs", &path, "--input-format", "iis"]);
    assert!(
        err.contains(&format!(
            "no log lines in it to read as IIS W3C extended log, only lines that are not access lines ({IIS_FTP}: 5)"
        )),
        "{err}"
    );

    let web = "#Software: Microsoft Internet Information Services 10.0
#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken
2023-12-29 06:27:20 10.0.2.10 POST /api/orders - 443 - 10.0.1.50 curl/8.5.0 - 201 0 0 120
2023-12-29 06:27:21 10.0.2.10 POST /api/orders - 443 - 10.0.1.51 curl/8.5.0 - 201 0 0 95
2023-12-29 06:27:22 10.0.2.10 GET /api/orders - 443 - 10.0.1.52 curl/8.5.0 - 200 0 0 12
";
    let path = write(dir.path(), "both.log", format!("{web}{FTP_LOG}").as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(o["rows"], 3, "{stderr}");
    assert_eq!(o["bad_rows"], 0, "{stderr}");
    let skipped = &o["files"][0]["skipped"][0];
    assert_eq!(skipped["kind"], IIS_FTP, "{o}");
    assert_eq!(skipped["lines"], 5, "{o}");
}

/// A file of only HAProxy tcplog lines (Elastic's five, in their several shapes; then one
/// longer than the first bytes read, its last line there cut) is refused naming them, auto or
/// named `haproxy`: never an empty line blamed ("line 14 ''"), no closest HTTP format.
#[test]
fn a_tcplog_file_is_refused_naming_its_records() {
    let elastic = fixture("suites", "elastic-haproxy-tcplog.log");
    for extra in [&[][..], &["--input-format", "haproxy"][..]] {
        let err = usage_error(&[&["logs", &elastic][..], extra].concat());
        assert!(
            err.contains("only lines that are not access lines (HAProxy tcplog records (TCP, no HTTP request): 5)"),
            "{err}"
        );
        assert!(!err.contains("closest"), "{err}");
    }
    let tcplog = "Nov  1 10:00:02 lb1 haproxy[14387]: 10.0.1.2:33313 [01/Nov/2026:10:00:02.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "tcp.log", tcplog.repeat(5000).as_bytes());
    let err = usage_error(&["logs", &path]);
    assert!(
        err.contains(
            "only lines that are not access lines (HAProxy tcplog records (TCP, no HTTP request): "
        ),
        "{err}"
    );
    assert!(!err.contains("''") && !err.contains("closest"), "{err}");
}

/// The closest format is ranked over every catalog row by the fields it read before the one
/// that did not fit, and the refusal names that field by number, name and text.
#[test]
fn the_refusal_names_the_closest_format_and_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str); 3] = [
        (
            // CLF without the request's quotes: Apache common read 3 of its 7 fields.
            "clf.log",
            "1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] POST / HTTP/1.1 200 5\n",
            "comes closest to Apache common: field time_local at column 14 '01/Nov/2026:10:00:01' does not fit: expected '] \"' after time_local from column 14",
        ),
        (
            // An ALB line cut short: ALB, not a text format.
            "alb.log",
            "http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001\n",
            "comes closest to AWS ALB: field response_processing_time is missing: expected an AWS ALB line of at least 13 space-separated fields up to the quoted request, found 7 (the line ends at column 114)",
        ),
        (
            // An Envoy line cut after its duration.
            "envoy.log",
            "[2026-11-01T10:00:01.310Z] \"POST /v1/charges HTTP/1.1\" 200 - 154 17 118\n",
            "comes closest to Envoy default: field duration at column 69 '118' does not fit: expected ' ' after duration from column 69",
        ),
    ];
    for (name, line, want) in cases {
        let path = write(dir.path(), name, line.as_bytes());
        let err = usage_error(&["logs", &path]);
        assert!(err.contains(want), "{name}: {err}");
        assert!(err.contains("line 1 '"), "{name}: {err}");
        assert!(!err.contains("vcombined"), "{name}: {err}");
    }
}

/// The field a refusal blames is placed by its column on the line (the byte offset + 1, as
/// ripgrep counts), which is where a user finds its text: never by its number among the
/// format's own fields, which are not the line's (an ALB `client:port` is two of them, its
/// quoted request three: the trace id below was "field 22", the 18th field as AWS lists
/// them, awk's `$20`). A field the line ends before is named missing, with the column where
/// the line ends.
#[test]
fn the_refusal_places_the_field_by_its_column_on_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let alb = "http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET http://www.example.com:80/ HTTP/1.1\" \"curl/7.46.0\" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337262-36d228ad5d99923122bbe354";
    let haproxy = "Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 2OO 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} \"GET /index.html HTTP/1.1\"";
    let short = &alb[..113];
    let cases: [(&str, &str, &str); 3] = [
        (
            // The trace id's quote is not closed.
            "alb.log",
            alb,
            "comes closest to AWS ALB: field trace_id at column 288 '\"Root=1-58337262-36d228ad5d99923122bbe35…' does not fit: a quoted field opened at column 288 is not closed",
        ),
        (
            "short-alb.log",
            short,
            "comes closest to AWS ALB: field response_processing_time is missing: expected an AWS ALB line of at least 13 space-separated fields up to the quoted request, found 7 (the line ends at column 114)",
        ),
        (
            // A letter O for a zero in the status.
            "haproxy.log",
            haproxy,
            "comes closest to HAProxy httplog: field status_code at column 120 '2OO' does not fit: expected a status at column 120",
        ),
    ];
    for (name, line, want) in cases {
        let path = write(dir.path(), name, format!("{line}\n").as_bytes());
        let err = usage_error(&["logs", &path]);
        assert!(err.contains(want), "{name}: {err}");
        // What a user finds at that column is the text the refusal shows.
        if let Some((column, text)) = want
            .split_once(" at column ")
            .and_then(|(_, rest)| rest.split_once(" '"))
            .and_then(|(c, rest)| Some((c.parse::<usize>().ok()?, rest.split_once("' ")?.0)))
        {
            let text = text.trim_end_matches('…');
            assert!(line[column - 1..].starts_with(text), "{name}: {column}");
        }
        assert!(!err.contains("field 2"), "{name}: no field number: {err}");
    }
    assert_eq!(short.len() + 1, 114);
    let trace = alb
        .split(' ')
        .position(|w| w.starts_with("\"Root="))
        .unwrap();
    assert_eq!((trace + 1, alb.find("\"Root=").unwrap() + 1), (20, 288));
}

/// Every catalog name `--input-format` takes is listed in the refusal's flags and accepted;
/// a name not in it is refused with the list.
#[test]
fn input_format_names_come_from_the_catalog() {
    let err = usage_error(&["logs", "-", "--input-format", "ftp"]);
    assert!(
        err.contains("unknown input format 'ftp': use one of auto, csv, tsv, nginx, apache, alb, elb, cloudfront, iis, haproxy, envoy, json, otlp, zipkin, jaeger"),
        "{err}"
    );
}

/// An envelope whose lines are all on stderr (`--envelope cri`, or named with
/// `--input-format`) leaves no access line to read: the refusal says so, and blames no empty
/// line (it said "line 5 ''").
#[test]
fn no_empty_line_is_blamed() {
    let line = "2026-11-01T10:00:01.000000000Z stderr F 10.0.0.1 - - [01/Nov/2026:10:00:01 +0000] \"POST / HTTP/1.1\" 200 1\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "cri.log", line.repeat(4).as_bytes());
    for extra in [&[][..], &["--input-format", "nginx"][..]] {
        let err = usage_error(&[&["logs", &path, "--envelope", "cri"][..], extra].concat());
        assert!(
            err.contains("none of its first lines is an access line to read"),
            "{err}"
        );
        assert!(!err.contains("''"), "{err}");
    }
}

/// A log no format reads whose lines have as many fields as a classic ELB line and an ISO
/// time first (Heroku's router: `<time> heroku[router]: at=info method=POST ...`): refused as
/// the format it comes closest to, never said to "read as AWS classic ELB" on its first line
/// and not on that same line, nor sent to `--input-format elb`.
#[test]
fn a_line_with_no_client_address_is_no_load_balancer_line() {
    let dir = tempfile::tempdir().unwrap();
    let line = |t: &str, at: &str, status: u16| {
        format!(
            "2026-11-01T10:00:{t}.281885+00:00 heroku[router]: at={at} method=POST path=\"/v1/orders\" host=shop.herokuapp.com request_id=1724c365-a1c1-4688-aa71-d538e477d04{t} fwd=\"203.0.113.7\" dyno=web.1 connect=0ms service=425ms status={status} bytes=23 protocol=https\n"
        )
    };
    let text = [line("01", "info", 201), line("02", "info", 201)].concat();
    let f = write(dir.path(), "router.log", text.as_bytes());
    let err = usage_error(&["logs", &f]);
    assert!(
        err.contains("comes closest to") && !err.contains("classic ELB"),
        "{err}"
    );
    assert!(!err.contains("--input-format elb "), "{err}");
}
