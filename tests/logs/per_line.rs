//! A line's envelope and kind judged per line, where a file mixes them: a line without the
//! syslog prefix the others carry, a shipper's `{"message": ...}` among bare lines, an
//! application server's own lines among its access lines, a proxy's runtime and connect
//! lines; no request line lost, and a refusal names the lines that fit no format. Then the
//! formats' edge cases the published samples show: Istio's undecodable request
//! (`"- - HTTP/1.1"`), Traefik's routerless `-` status, an HAProxy `log-format` as
//! haproxy.cfg holds it, IIS Advanced Logging's doubled quotes inside a quoted field. All
//! on lines made here, shaped like those samples.

use crate::common::{usage_error, write};
use crate::support::{counts, small_report as report};
use serde_json::Value;

/// The lines skipped by kind, sorted.
fn skipped(o: &Value) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = o["files"][0]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["lines"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn kinds(list: &[(&str, u64)]) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = list.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    out.sort();
    out
}

/// HAProxy httplog lines (POSTs; the third and sixth given up by the client, `CD--`).
fn haproxy_lines() -> Vec<String> {
    (0..6)
        .map(|i| {
            let flags = if i % 3 == 2 { "CD--" } else { "----" };
            let status = if i % 3 == 2 { 0 } else { 201 };
            format!(
                "10.0.1.{i}:3331{i} [06/Nov/2026:12:14:1{i}.655] http-in api/srv1 10/0/30/69/109 {status} 2750 - - {flags} 1/1/1/1/0 0/0 {{api.example.com}} {{}} \"POST /v1/orders/{i} HTTP/1.1\""
            )
        })
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Logstash's HAProxy sample has one line without the syslog prefix its others carry: read
/// as it is, never a bad row; the file's figures are those of all its lines in syslog.
#[test]
fn a_line_without_the_files_syslog_prefix_is_read_bare() {
    let dir = tempfile::tempdir().unwrap();
    let bare = haproxy_lines();
    let syslog: Vec<String> = bare
        .iter()
        .map(|l| format!("Nov  6 12:14:20 lb-1 haproxy[14389]: {l}"))
        .collect();
    let all = write(dir.path(), "syslog.log", text(&syslog).as_bytes());
    let mut mixed = syslog.clone();
    mixed[4] = bare[4].clone();
    let one = write(dir.path(), "one-bare.log", text(&mixed).as_bytes());
    let (want, _) = report(&all, &[]);
    let (got, stderr) = report(&one, &[]);
    assert_eq!(counts(&want["observed"]), (6, 0, 6, 2));
    assert_eq!(counts(&got["observed"]), (6, 0, 6, 2), "{stderr}");
    assert!(!stderr.contains("bad row"), "{stderr}");
    assert_eq!(
        got["observed"]["files"][0]["input_format"],
        want["observed"]["files"][0]["input_format"]
    );
    // A line neither the envelope nor the format reads is still a bad row, with the
    // envelope's reason.
    mixed[4] = "garbage that is no line of either".into();
    let bad = write(dir.path(), "bad.log", text(&mixed).as_bytes());
    let (got, stderr) = report(&bad, &[]);
    assert_eq!(counts(&got["observed"]), (6, 1, 5, 2), "{stderr}");
    assert!(
        stderr.contains("bad.log:5: syslog RFC 3164: expected syslog"),
        "{stderr}"
    );
}

/// HAProxy's default-format connect records, its tcplog records and its events, in a file
/// of httplog lines (bare and in syslog, as Datadog's HAProxy sample mixes them): skipped
/// and counted by kind, never bad rows, and every request line read.
#[test]
fn haproxy_connect_records_are_skipped_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = haproxy_lines();
    lines.insert(
        1,
        "Connect from 10.0.1.2:33312 to 10.0.3.31:8012 (www/HTTP)".into(),
    );
    lines.insert(
        3,
        "Nov  6 12:14:12 lb-1 haproxy[137260]: Connect from 188.207.249.162:53412 to 77.222.80.71:80 (fe_http/HTTP)"
            .into(),
    );
    lines.insert(
        5,
        "10.0.1.2:33313 [06/Nov/2026:12:12:51.443] fnt bck/srv1 34/56/5007 212 -- 1/3/6/8/13 15/17"
            .into(),
    );
    let path = write(dir.path(), "haproxy.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 6, 2), "{stderr}");
    assert_eq!(
        skipped(o),
        kinds(&[
            (
                "HAProxy connect records (its default log format, no HTTP request)",
                2
            ),
            ("HAProxy tcplog records (TCP, no HTTP request)", 1),
        ])
    );
}

/// Datadog's gunicorn sample: Apache common and combined access lines, gunicorn's boot line
/// and a Flask error with its traceback. The access lines are read, the rest skipped by
/// kind; no refusal.
#[test]
fn gunicorn_boot_and_flask_lines_are_skipped_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let log = concat!(
        "127.0.0.1 - frank [13/Nov/2026:10:55:36 +0000] \"POST /api/users HTTP/1.0\" 201 2326\n",
        "192.0.2.1 - ana [13/Nov/2026:10:55:54 +0000] \"POST /api/users?x=1 HTTP/1.1\" 500 91 \"http://example.com/\" \"Mozilla/4.08 [en] (Win95)\"\n",
        "[2026-11-13 10:56:24 +0000] [17] [INFO] Booting worker with pid: 17\n",
        "[2026-11-13 10:56:31,580] ERROR in app: Exception on /api/users [POST]\n",
        "Traceback (most recent call last):\n",
        "  File \"/usr/lib/python3/dist-packages/flask/app.py\", line 1982, in wsgi_app\n",
        "127.0.0.1 - - [13/Nov/2026:10:57:02 +0000] \"GET /health HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.29\"\n",
    );
    let path = write(dir.path(), "gunicorn.log", log.as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (3, 0, 2, 0), "{stderr}");
    assert_eq!(
        skipped(o),
        kinds(&[
            ("Flask app log", 1),
            ("Python tracebacks", 2),
            ("gunicorn's own log", 1),
        ])
    );
}

/// Traefik's runtime lines (logrus before v3, zerolog's console from v3) and a plugin's Go
/// log lines among its access lines, CLF and JSON: skipped by kind, never bad rows.
#[test]
fn traefik_runtime_lines_are_skipped_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let clf = concat!(
        "10.32.0.1 - - [07/Nov/2026:06:07:03 +0000] \"POST /v1/pay HTTP/1.1\" 201 5 \"-\" \"curl/8\" 132170 \"pay@docker\" \"http://10.0.0.9:80\" 12ms\n",
        "time=\"2026-11-07T06:07:04Z\" level=info msg=\"Skipping same configuration for provider docker\"\n",
        "2026-11-07T06:07:05+00:00 INF Configuration loaded from flags.\n",
        "10.32.0.2 - - [07/Nov/2026:06:07:06 +0000] \"POST /v1/pay HTTP/1.1\" 201 5 \"-\" \"curl/8\" 132171 \"pay@docker\" \"http://10.0.0.9:80\" 15ms\n",
    );
    let json = concat!(
        "{\"ClientHost\":\"10.0.0.7\",\"DownstreamStatus\":201,\"Duration\":3000000,\"OriginStatus\":201,\"RequestMethod\":\"POST\",\"RequestPath\":\"/v1/pay\",\"StartUTC\":\"2026-11-07T06:07:01.1Z\"}\n",
        "DEBUG: BouncerPlugin: 2026/11/07 06:07:02 handleStreamCache:updated\n",
        "{\"ClientHost\":\"10.0.0.8\",\"DownstreamStatus\":201,\"Duration\":3000000,\"OriginStatus\":201,\"RequestMethod\":\"POST\",\"RequestPath\":\"/v1/pay\",\"StartUTC\":\"2026-11-07T06:07:03.1Z\"}\n",
    );
    let (j, stderr) = report(&write(dir.path(), "traefik.log", clf.as_bytes()), &[]);
    assert_eq!(counts(&j["observed"]), (2, 0, 2, 0), "{stderr}");
    assert_eq!(
        skipped(&j["observed"]),
        kinds(&[
            ("Traefik's own log (logrus: time= level= msg=)", 1),
            ("Traefik's own log (zerolog)", 1),
        ])
    );
    let (j, stderr) = report(&write(dir.path(), "traefik.json", json.as_bytes()), &[]);
    assert_eq!(counts(&j["observed"]), (2, 0, 2, 0), "{stderr}");
    assert_eq!(
        skipped(&j["observed"]),
        kinds(&[("Traefik plugin log (Go log lines)", 1)])
    );
}

/// Ambassador's published sample: Envoy lines, bare and after `ACCESS `, and the same inside
/// a shipper's `{"message": "ACCESS ..."}`: every request line read (none a bad row, no
/// JSON format refused), the TCP records among them skipped.
#[test]
fn a_shippers_json_around_some_lines_of_a_bare_file() {
    let dir = tempfile::tempdir().unwrap();
    let envoy = |t: &str, m: &str, code: u16, flags: &str| {
        format!(
            "[{t}] \"{m} /v1/pay HTTP/1.1\" {code} {flags} 0 141 30001 - \"192.168.0.9\" \"curl/8.4.0\" \"b7ba9b4c-{code}\" \"api:9001\" \"192.168.96.113:80\""
        )
    };
    let tcp = "[2026-11-07T06:00:00.000Z] \"- - -\" 0 UF,URX 0 0 0 - \"-\" \"-\" \"-\" \"-\" \"127.0.0.1:9200\"";
    let shipped = |line: &str| {
        serde_json::json!({"message": line, "stream": "stdout", "time": "2026-11-07T06:00:09.1Z",
            "kubernetes": {"container": {"name": "ambassador"}}})
        .to_string()
    };
    let lines = [
        tcp.to_string(),
        envoy("2026-11-07T06:00:01.000Z", "POST", 200, "-"),
        envoy("2026-11-07T06:00:02.000Z", "POST", 0, "DC"),
        format!(
            "ACCESS {}",
            envoy("2026-11-07T06:00:03.000Z", "POST", 201, "-")
        ),
        shipped(&format!(
            "ACCESS {}",
            envoy("2026-11-07T06:00:04.000Z", "POST", 504, "UT")
        )),
        shipped(&format!("ACCESS {tcp}")),
    ];
    let path = write(dir.path(), "ambassador.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (4, 0, 4, 2), "{stderr}");
    assert_eq!(
        skipped(o),
        kinds(&[(
            "Envoy TCP proxy records (request \"- - -\", no HTTP request)",
            2
        )])
    );
    let formats = o["files"][0]["formats"].as_array().unwrap();
    assert!(
        formats.iter().all(|f| f["refused"].is_null()),
        "{formats:?}"
    );
}

/// A refusal names the lines no format reads, not a line another format reads.
#[test]
fn a_refusal_names_each_line_that_fits_no_format() {
    let dir = tempfile::tempdir().unwrap();
    let log = concat!(
        "127.0.0.1 - frank [13/Nov/2026:10:55:36 +0000] \"POST /api/users HTTP/1.0\" 201 2326\n",
        "192.0.2.1 - ana [13/Nov/2026:10:55:54 +0000] \"POST /api/users HTTP/1.1\" 500 91 \"-\" \"curl/8\"\n",
        "worker 17 ready\n",
        "worker 18 ready\n",
        "listening on :8000\n",
    );
    let path = write(dir.path(), "app.log", log.as_bytes());
    let err = usage_error(&["logs", &path]);
    assert!(
        err.contains("but line 3 'worker 17 ready' does not ("),
        "{err}"
    );
    assert!(
        err.contains("nor is line 4 'worker 18 ready', line 5 'listening on :8000'"),
        "{err}"
    );
    assert!(!err.contains("line 2 '"), "{err}");
}

/// Istio's failed-request sample: a request its proxy could not decode (400 `DPE`,
/// `"- - HTTP/1.1"`) is a request, read as a row; `"- - -"` stays a TCP record.
#[test]
fn istio_undecodable_request_is_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let istio = |request: &str, code: u16, flags: &str, details: &str| {
        format!(
            "[2026-09-01T09:36:33.553Z] \"{request}\" {code} {flags} {details} - \"-\" 0 11 46 - \"-\" \"-\" \"-\" \"-\" \"-\" - - 10.124.2.10:8080 10.128.0.60:51643 - -"
        )
    };
    let lines = [
        istio("POST /v1/pay HTTP/1.1", 200, "-", "via_upstream"),
        istio("- - HTTP/1.1", 400, "DPE", "http1.codec_error"),
        istio("- - -", 0, "UF", "-"),
        istio(
            "POST /v1/pay HTTP/1.1",
            0,
            "DC",
            "downstream_remote_disconnect",
        ),
    ];
    let path = write(dir.path(), "istio.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "Istio (Envoy)");
    assert_eq!(counts(o), (3, 0, 2, 1), "{stderr}");
    assert_eq!(
        skipped(o),
        kinds(&[(
            "Envoy TCP proxy records (request \"- - -\", no HTTP request)",
            1
        )])
    );
}

/// Traefik's CLF with no status, no router and no server: Traefik matched no router, so it
/// never reached a backend, at 0 ms or after the client held it two minutes: a failed
/// attempt, no give-up. A `-` status with a router and time taken stays a give-up.
#[test]
fn traefik_routerless_dash_never_reached_a_backend() {
    let dir = tempfile::tempdir().unwrap();
    let log = concat!(
        "172.17.0.1 - - [08/Nov/2026:09:16:05 +0000] \"POST /v1/pay HTTP/1.1\" 201 414 \"-\" \"curl/8\" 500 \"pay@docker\" \"http://172.17.0.3:80\" 12ms\n",
        "172.17.1.1 - - [08/Nov/2026:09:16:06 +0000] \"POST /mobileadmin/home.cs HTTP/1.1\" - - \"-\" \"Mozilla/5.00 (Nikto/2.1.5)\" 45640 \"-\" \"-\" 0ms\n",
        "172.17.0.2 - - [08/Nov/2026:09:16:07 +0000] \"POST /v1/pay HTTP/1.1\" - - \"-\" \"curl/8\" 501 \"pay@docker\" \"-\" 30001ms\n",
        "172.17.1.2 - - [08/Nov/2026:09:18:10 +0000] \"POST /v1/pay HTTP/1.1\" - - \"-\" \"curl/8\" 502 \"-\" \"-\" 123000ms\n",
    );
    let path = write(dir.path(), "traefik.log", log.as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "Traefik CLF");
    assert_eq!(counts(o), (4, 0, 4, 1), "{stderr}");
}

/// HAProxy's default HTTP format given as haproxy.cfg holds it, continued over two lines as
/// its manual prints it: the lines are read as with `--input-format haproxy`.
#[test]
fn haproxy_log_format_as_its_cfg_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "haproxy.log", text(&haproxy_lines()).as_bytes());
    let cfg = "    log-format \"%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC \\\n                %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r\"";
    let (j, stderr) = report(&path, &["--log-format", cfg]);
    assert_eq!(counts(&j["observed"]), (6, 0, 6, 2), "{stderr}");
    let (j, stderr) = report(
        &path,
        &[
            "--log-format",
            "log-format '%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r' # httplog",
        ],
    );
    assert_eq!(counts(&j["observed"]), (6, 0, 6, 2), "{stderr}");
}

/// IIS Advanced Logging's quoted fields with a quote inside, doubled (`" ""garbage"" w/
/// spaces "`, Matomo's later sample: 19 fields split at spaces against a `#Fields:` of 16):
/// one field, so the fields after it keep their names; none a bad row.
#[test]
fn iis_advanced_logging_doubled_quotes_keep_the_fields_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::from(
        "#Software: IIS Advanced Logging Module\n\n#Version: 1.0\n#Start-Date: 2026-11-18 00:00:00.128\n#Fields:   date-local time-local   s-ip   cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) cs(Host) sc-status sc-substatus sc-win32-status TimeTakenMS\n",
    );
    for (i, (status, win32)) in [(201, 0), (200, 64), (201, 0)].iter().enumerate() {
        log += &format!(
            "2026-11-18 17:00:0{i}.363 1.2.3.4 POST /v1/orders - 443 - \"70.95.0.{i}\" \"curl/8.5 (x)\" - \"api.example.com\" {status} \" \"\"garbage\"\" w/ spaces \" {win32} 30109\n"
        );
    }
    let path = write(dir.path(), "iis.log", log.as_bytes());
    // The client gave up on the second (win32 64); with a 30 s client timeout, every one
    // took 30.109 s: the durations are read where they are, not from a shifted field.
    let (j, stderr) = report(&path, &[]);
    assert_eq!(counts(&j["observed"]), (3, 0, 3, 1), "{stderr}");
    let (j, stderr) = report(&path, &["--client-timeout", "30s"]);
    assert_eq!(counts(&j["observed"]), (3, 0, 3, 3), "{stderr}");
}

/// Caddy's own log among its access lines in one JSON stream (the admin endpoint, the
/// reverse proxy's `selected upstream`, as `docker compose logs` shows a Caddy container), and
/// a Go service's own records among its request records: no method, path or status, so no
/// request; skipped by kind, never bad rows. A record with a method and no status stays bad.
#[test]
fn json_records_with_no_request_are_skipped_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let access = |i: u32, status: &str| {
        format!(
            "{{\"level\":\"info\",\"ts\":{}.31,\"logger\":\"http.log.access\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"172.19.0.{i}\",\"proto\":\"HTTP/1.1\",\"method\":\"POST\",\"host\":\"api\",\"uri\":\"/v1/pay\"}},\"duration\":0.0016,\"size\":12,\"status\":{status}}}",
            1_793_000_000 + i
        )
    };
    let lines = [
        "{\"level\":\"info\",\"ts\":1793000000.3153872,\"msg\":\"using config from file\",\"file\":\"/etc/caddy/Caddyfile\"}".to_string(),
        "{\"level\":\"info\",\"ts\":1793000000.316192,\"logger\":\"admin\",\"msg\":\"admin endpoint started\",\"address\":\"localhost:2019\"}".to_string(),
        access(1, "201"),
        "{\"level\":\"debug\",\"ts\":1793000001.5,\"logger\":\"http.handlers.reverse_proxy\",\"msg\":\"selected upstream\",\"dial\":\"app:8080\"}".to_string(),
        access(2, "0"),
        access(3, "201"),
        access(4, "\"\""),
    ];
    let path = write(dir.path(), "caddy.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (4, 1, 3, 1), "{stderr}");
    assert!(
        stderr.contains("caddy.log:7: unparseable status"),
        "{stderr}"
    );
    let no_request = "records with no request (no method, path or status: the server's own log)";
    assert_eq!(skipped(o), kinds(&[(no_request, 3)]));
    let go = concat!(
        "{\"duration\":20950259,\"level\":\"debug\",\"method\":\"POST\",\"msg\":\"request completed\",\"remote\":\"10.1.5.40:52702\",\"request\":\"/api/builds\",\"status\":201,\"time\":\"2026-11-16T15:03:32Z\"}\n",
        "{\"id\":\"q62wCcIkEOueqFKF\",\"level\":\"debug\",\"msg\":\"check capacity complete\",\"time\":\"2026-11-16T15:03:33Z\"}\n",
        "{\"id\":\"q62wCcIkEOueqFKF\",\"level\":\"debug\",\"max-pool\":4,\"msg\":\"check capacity\",\"pending-builds\":0}\n",
        "{\"duration\":24479472,\"level\":\"debug\",\"method\":\"POST\",\"msg\":\"request completed\",\"remote\":\"10.1.5.40:52702\",\"request\":\"/api/builds\",\"status\":201,\"time\":\"2026-11-16T15:03:37Z\"}\n",
    );
    let (j, stderr) = report(&write(dir.path(), "go.log", go.as_bytes()), &[]);
    assert_eq!(counts(&j["observed"]), (2, 0, 2, 0), "{stderr}");
    assert_eq!(skipped(&j["observed"]), kinds(&[(no_request, 2)]));
}

/// An HAProxy `log-format` that opens with the pid and the time in brackets, through syslog
/// (`haproxy[10282]: [10282] [1394201930.258] ...`): access lines, not HAProxy's events.
/// Read with the format given; refused without it, naming no kind of skipped line.
#[test]
fn haproxy_bracketed_log_format_lines_are_no_events() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..4)
        .map(|i| {
            let (status, flags) = if i == 2 { (504, "sH--") } else { (201, "----") };
            format!(
                "Nov  7 14:18:5{i} lb-1 haproxy[10282]: [10282] [179317393{i}.258] 1/1/0/0/1/0/0 91/0/0/3/95 {flags} 10.2.1.{i}:52354 10.15.1.22:443 127.0.0.1:8000 api-https~ ECDHE-RSA-AES128-SHA TLSv1.2 \"POST /v1/orders HTTP/1.1\" {status} api:node1 485B7525:CC82_0A977AE4:01BB_5319D54A_000{i}:282A"
            )
        })
        .collect();
    let path = write(dir.path(), "haproxy.log", text(&lines).as_bytes());
    let format = "log-format \"[%pid] [%Ts.%ms] %ac/%fc/%bc/%bq/%sc/%sq/%rc %Tq/%Tw/%Tc/%Tr/%Tt %tsc %ci:%cp %fi:%fp %si:%sp %ft %sslc %sslv %{+Q}r %ST %b:%s %ID\"";
    let (j, stderr) = report(&path, &["--log-format", format]);
    assert_eq!(counts(&j["observed"]), (4, 0, 4, 1), "{stderr}");
    let err = usage_error(&["logs", &path]);
    assert!(!err.contains("HAProxy events"), "{err}");
    assert!(err.contains("--log-format"), "{err}");
}

/// Apache lines, some written through syslog (`Nov  6 12:14:22 web-1 apache2: `, with a PRI,
/// or rsyslog's RFC 3339 time), in a file whose first lines are bare: each syslog line is
/// read inside its envelope, so its client is the line's own address, never the header's
/// month (`%h %l %u` would read `Nov`, ``, `6 12:14:22 web-1 apache2: 10.0.0.3 - -`). Eight
/// clients one second apart, each given up on the same POST (504), are eight intents, as the
/// bare file says, not one client's retries.
#[test]
fn a_syslog_header_is_never_read_as_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: u32| {
        format!(
            "10.0.0.{i} - - [06/Nov/2026:12:14:2{i} +0000] \"POST /v1/orders HTTP/1.1\" 504 12 \"-\" \"shop-client/2.1\""
        )
    };
    let bare: Vec<String> = (0..8).map(line).collect();
    let mut mixed = bare.clone();
    mixed[3] = format!("Nov  6 12:14:23 web-1 apache2: {}", line(3));
    mixed[4] = format!("<13>Nov  6 12:14:24 web-1 apache2: {}", line(4));
    mixed[5] = format!("Nov  6 12:14:25 web-1 apache2[812]: {}", line(5));
    mixed[6] = format!("2026-11-06T12:14:26.000+00:00 web-1 apache2: {}", line(6));
    let (want, _) = report(&write(dir.path(), "bare.log", text(&bare).as_bytes()), &[]);
    let (got, stderr) = report(
        &write(dir.path(), "mixed.log", text(&mixed).as_bytes()),
        &[],
    );
    assert_eq!(counts(&want["observed"]), (8, 0, 8, 8));
    assert_eq!(counts(&got["observed"]), (8, 0, 8, 8), "{stderr}");
    assert_eq!(want["observed"]["intents"], 8);
    assert_eq!(got["observed"]["intents"], 8, "{stderr}");
}

/// A prefix before an Apache line that no envelope takes off (nginx's `$host` first, as
/// Elastic's nginx sample has it; a bare `host tag:`): the preset reads identd's logname and
/// the user as one word each, so the prefix is never read as the client and the line is a
/// bad row that says why. A LogFormat of its own reads a user with a space as written.
#[test]
fn a_prefix_before_an_apache_line_is_never_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: u32, user: &str| {
        format!(
            "10.0.0.{i} - {user} [06/Nov/2026:12:14:2{i} +0000] \"POST /v1/orders HTTP/1.1\" 504 12"
        )
    };
    let mut lines: Vec<String> = (0..8).map(|i| line(i, "-")).collect();
    lines[4] = format!("shop.example.com {}", line(4, "-"));
    lines[6] = format!("web-1 apache2: {}", line(6, "-"));
    let path = write(dir.path(), "prefixed.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(o["files"][0]["input_format"], "Apache common", "{stderr}");
    assert_eq!(counts(o), (8, 2, 6, 6), "{stderr}");
    assert_eq!(o["intents"], 6);
    assert!(stderr.contains("prefixed.log:5: "), "{stderr}");
    assert!(stderr.contains("prefixed.log:7: "), "{stderr}");
    // A user with a space, under a LogFormat of its own (not a preset's text).
    let spaced: Vec<String> = (0..4).map(|i| line(i, "CN=Ana Lima")).collect();
    let path = write(dir.path(), "spaced.log", text(&spaced).as_bytes());
    let format = r#"%a %l %u %t "%r" %>s %b"#;
    let (j, stderr) = report(&path, &["--log-format", format]);
    assert_eq!(counts(&j["observed"]), (4, 0, 4, 4), "{stderr}");
}

/// Comments a test suite puts in its sample files (`# line below should be ignored` between
/// classic ELB lines, `# Plugin version v1.6.0` before Traefik's JSON): skipped by kind,
/// never bad rows, whether the format would read their words as fields or not.
#[test]
fn comment_lines_are_skipped_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let elb = concat!(
        "2026-05-13T23:39:43.945958Z my-lb 1.2.3.4:2817 10.0.0.1:80 0.000086 0.001048 0.001337 201 201 0 57 \"POST https://api.example.com:443/v1/pay HTTP/1.1\" \"curl/8\" DHE-RSA-AES128-SHA TLSv1.2\n",
        "# the line below is a TCP record, no HTTP request, as the suite's own comment says\n",
        "2026-05-13T23:39:44.945958Z my-lb 1.2.3.5:2817 10.0.0.1:80 0.000086 0.001048 0.001337 504 - 0 57 \"POST https://api.example.com:443/v1/pay HTTP/1.1\" \"curl/8\" DHE-RSA-AES128-SHA TLSv1.2\n",
    );
    let (j, stderr) = report(&write(dir.path(), "elb.log", elb.as_bytes()), &[]);
    assert_eq!(counts(&j["observed"]), (2, 0, 2, 1), "{stderr}");
    assert_eq!(
        skipped(&j["observed"]),
        kinds(&[("comment lines (# ...)", 1)])
    );
    let json = concat!(
        "# Plugin version v1.6.0\n",
        "{\"ClientHost\":\"10.0.0.7\",\"DownstreamStatus\":201,\"Duration\":3000000,\"OriginStatus\":201,\"RequestMethod\":\"POST\",\"RequestPath\":\"/v1/pay\",\"StartUTC\":\"2026-11-07T06:07:01.1Z\"}\n",
        "# Plugin version v1.5.1\n",
        "{\"ClientHost\":\"10.0.0.8\",\"DownstreamStatus\":201,\"Duration\":3000000,\"OriginStatus\":201,\"RequestMethod\":\"POST\",\"RequestPath\":\"/v1/pay\",\"StartUTC\":\"2026-11-07T06:07:03.1Z\"}\n",
    );
    let (j, stderr) = report(&write(dir.path(), "traefik.json", json.as_bytes()), &[]);
    assert_eq!(counts(&j["observed"]), (2, 0, 2, 0), "{stderr}");
    assert_eq!(
        skipped(&j["observed"]),
        kinds(&[("comment lines (# ...)", 2)])
    );
}

/// combined lines after the virtual host (`www.example.com 10.0.0.3 - - [...]`, as Elastic's
/// and CrowdSec's nginx and Apache samples mix them with bare combined lines and an error
/// line): every access line read, with its own address as the client.
#[test]
fn combined_after_the_virtual_host_is_read_with_its_client() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: u32| {
        format!(
            "10.0.0.{i} - - [06/Nov/2026:12:14:2{i} +0000] \"POST /v1/orders HTTP/1.1\" 504 12 \"-\" \"shop-client/2.1\""
        )
    };
    let mut lines: Vec<String> = (0..6).map(line).collect();
    lines[3] = format!("www.example.com {}", line(3));
    lines[4] = format!("shop.example.com {}", line(4));
    lines[5] = format!("shop.example.com:443 {}", line(5));
    lines.push(
        "2026/11/06 12:14:30 [error] 31#31: *46 open() \"/usr/share/nginx/html/x\" failed".into(),
    );
    let path = write(dir.path(), "vhost.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (6, 0, 6, 6), "{stderr}");
    // Six clients, each giving up once: six intents, none another's retry.
    assert_eq!(o["intents"], 6, "{stderr}");
    assert_eq!(skipped(o), kinds(&[("nginx error log", 1)]));
}

/// LiteSpeed's access log and its error log in one file, as CrowdSec's LiteSpeed test holds
/// them (`2022-06-08 22:49:20.774649 [NOTICE] [pid] ...`): the error lines are skipped by
/// kind and the access lines read. It was refused, its first error line taken for an IIS
/// line without its `#Fields:`.
#[test]
fn litespeed_error_lines_are_skipped_among_its_access_lines() {
    let dir = tempfile::tempdir().unwrap();
    let access = |i: u32, status: u16| {
        format!(
            "10.0.0.{i} - - [08/Jun/2026:22:4{i}:57 +0200] \"POST /v1/orders HTTP/1.1\" {status} 195 \"-\" \"shop-client/2.1\""
        )
    };
    let lines = [
        "2026-06-08 22:40:20.774649 [NOTICE] [1226033] [1.2.3.4:45164:HTTP2-41#_AdminVHost] [STDERR] [WebAdmin Console] Failed Login Attempt - username:admin ip:127.0.0.1 url:".to_string(),
        access(1, 201),
        access(2, 504),
        "2026-06-08 22:43:07.353044 [INFO] [1226038] [192.168.9.163:61120-5#Example] User 'admin' failed to authenticate.".to_string(),
        access(4, 201),
    ];
    let path = write(dir.path(), "litespeed.log", text(&lines).as_bytes());
    let (j, stderr) = report(&path, &[]);
    let o = &j["observed"];
    assert_eq!(counts(o), (3, 0, 3, 1), "{stderr}");
    assert_eq!(skipped(o), kinds(&[("LiteSpeed error log", 2)]));
}

/// HAProxy's termination state says who ended a request and when: a server-side end while
/// HAProxy was connecting to a server or queued for one (`sC`, `SC`, `sQ`, `SQ`; `<NOSRV>`
/// when no server was up, as Elastic's `httplog-no-headers` sample has it) reached no server,
/// and HAProxy answered 503 itself: a failed attempt, no give-up that may have succeeded. A
/// server timeout once the request was sent (`sH`) and the client's end at any state (`CC`,
/// the client left while HAProxy connected) stay give-ups.
#[test]
fn haproxy_requests_that_reached_no_server_are_no_give_ups() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: usize, server: &str, timers: &str, status: &str, state: &str| {
        format!(
            "Dec 10 12:0{i}:46 lb-1 haproxy[19312]: 127.0.0.1:3598{i} [10/Dec/2026:12:0{i}:46.395] http-in api/{server} {timers} {status} 213 - - {state} 1/1/0/0/0 0/0 \"POST /v1/orders HTTP/1.1\""
        )
    };
    let lines = [
        line(0, "srv1", "0/0/1/20/21", "201", "----"),
        line(1, "<NOSRV>", "0/-1/-1/-1/0", "503", "SC--"),
        line(2, "srv1", "0/0/-1/-1/5001", "503", "sC--"),
        line(3, "srv1", "0/5000/-1/-1/5000", "503", "sQ--"),
        line(4, "srv1", "0/0/1/-1/30001", "504", "sH--"),
        line(5, "srv1", "0/0/-1/-1/900", "-1", "CC--"),
        line(6, "srv1", "0/0/1/20/25", "201", "cD--"),
    ];
    let f = write(dir.path(), "haproxy.log", text(&lines).as_bytes());
    let (r, stderr) = report(&f, &[]);
    let o = &r["observed"];
    // Timed out: sH, CC and cD; the three that reached no server are failed attempts.
    assert_eq!(counts(o), (7, 0, 7, 3), "{stderr}");
    assert_eq!(o["per_day"][0]["timed_out"], 3);
}
