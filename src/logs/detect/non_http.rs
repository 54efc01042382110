//! Records that are no HTTP request, by their shape: a load balancer's or proxy's
//! TCP and TLS connection records, written to the same log as its HTTP requests. A format
//! refuses them (they have no request line), and [`kind`] names them, so they are skipped
//! and counted by kind, as stderr lines are, never rows and never bad rows.
//!
//! - AWS Network Load Balancer TLS records (`tls 2.0 <time> net/<name>/... ...`), which an
//!   S3 bucket of ELB logs holds beside ALB's (AWS, "Access logs for your Network Load
//!   Balancer": the first fields are `type`, `version`, `time`).
//! - ALB connection log records (`<time> <client ip> <client port> <listener port>
//!   <tls protocol> ...`: AWS, "Connection logs for your Application Load Balancer").
//! - HAProxy's default log format (`Connect from ip:port to ip:port (frontend/mode)`),
//!   written when neither `option httplog` nor `option tcplog` is set.
//! - HAProxy `option tcplog` records (`ip:port [date] fe be/srv Tw/Tc/Tt bytes ts
//!   ac/fc/bc/sc/rc sq/bq`: HAProxy's configuration manual, section 8.2.2): no quoted
//!   request, timers in three parts.
//!
//! - IIS FTP log records (`date time c-ip cs-username s-ip s-port cs-method cs-uri-stem
//!   sc-status sc-win32-status sc-substatus x-session x-fullpath`: Microsoft, "FTP Logging"
//!   of IIS 7 and later): their `cs-method` is an FTP command (`USER`, `PASS`, `RETR`) or
//!   one of IIS's own (`ControlChannelOpened`, `sent`, `created`), and `x-session` a GUID.
//!   FTP commands are no HTTP requests, whatever their fields' names say.
//! - The line of the test file (`ELBAccessLogTestFile`) Elastic Load Balancing puts in the
//!   bucket when access logging is turned on (`Enable AccessLog for ELB: <name> at <time>`),
//!   which a copy of the bucket's `AWSLogs/` holds beside the logs.
//! - Istio's Mixer TCP access log entries (`{"level":"info",...,"instance":
//!   "tcpaccesslog.logentry.istio-system",...}`, Istio before 1.5 with Mixer's
//!   `tcpaccesslog` rule), which the `istio-proxy` container writes beside its HTTP entries.
//!
//! The records whose request is `- - -` (a classic ELB TCP/SSL listener, Envoy's TCP proxy)
//! are read by their formats and told at the row (`row::no_request_kind`).

/// The kind of a record that is no HTTP request, by its shape; `None` for any other line.
pub fn kind(line: &[u8]) -> Option<&'static str> {
    if nlb_tls(line) {
        return Some("NLB TLS connection records (no HTTP request)");
    }
    if alb_connection(line) {
        return Some("ALB connection log records (no HTTP request)");
    }
    if iis_ftp(line) {
        return Some(IIS_FTP);
    }
    if elb_test_file(line) {
        return Some(ELB_TEST_FILE);
    }
    if mixer_tcp(line) {
        return Some("Istio Mixer TCP access log entries (no HTTP request)");
    }
    if haproxy_connect(line) {
        return Some("HAProxy connect records (its default log format, no HTTP request)");
    }
    match haproxy_after_date(line) {
        Some(rest) if haproxy_tcplog(rest) => Some("HAProxy tcplog records (TCP, no HTTP request)"),
        Some(rest) if haproxy_connection_error(rest) => {
            Some("HAProxy connection errors (SSL handshake, no HTTP request)")
        }
        _ => None,
    }
}

/// What IIS FTP log records are called where they are counted.
pub const IIS_FTP: &str = "IIS FTP log records (FTP commands, no HTTP request)";

/// What the line of Elastic Load Balancing's access-log test file is called where it is
/// counted.
pub const ELB_TEST_FILE: &str =
    "ELB access log test file lines (ELBAccessLogTestFile, written when logging is enabled)";

/// FTP's commands (RFC 959 and its extensions) and the events IIS's FTP service logs in
/// `cs-method` (`ControlChannelOpened`, `sent` for a file sent, ...).
const FTP_METHODS: [&str; 58] = [
    "USER",
    "PASS",
    "ACCT",
    "CWD",
    "XCWD",
    "CDUP",
    "XCUP",
    "SMNT",
    "QUIT",
    "REIN",
    "PORT",
    "PASV",
    "TYPE",
    "STRU",
    "MODE",
    "RETR",
    "STOR",
    "STOU",
    "APPE",
    "ALLO",
    "REST",
    "RNFR",
    "RNTO",
    "ABOR",
    "DELE",
    "RMD",
    "XRMD",
    "MKD",
    "XMKD",
    "PWD",
    "XPWD",
    "LIST",
    "NLST",
    "SITE",
    "SYST",
    "STAT",
    "HELP",
    "NOOP",
    "FEAT",
    "OPTS",
    "AUTH",
    "PBSZ",
    "PROT",
    "EPRT",
    "EPSV",
    "MDTM",
    "SIZE",
    "MLSD",
    "MLST",
    "HOST",
    "CLNT",
    "ControlChannelOpened",
    "ControlChannelClosed",
    "DataChannelOpened",
    "DataChannelClosed",
    "sent",
    "created",
    "deleted",
];

/// HTTP's methods, which an IIS FTP record never has.
const HTTP_METHODS: [&[u8]; 9] = [
    b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"HEAD", b"OPTIONS", b"CONNECT", b"TRACE",
];

/// `2cf9cd35-e364-4b1a-ab27-fe9050daa5ea`: IIS FTP's `x-session`.
fn guid(t: &[u8]) -> bool {
    t.len() == 36
        && t.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// `2023-12-29 06:27:23 10.211.55.53 - 10.211.55.52 21 USER anonymous 331 0 0 <guid> -`:
/// W3C's date and time, an FTP command among the fields, a GUID (the session) after it, and
/// no HTTP method.
fn iis_ftp(line: &[u8]) -> bool {
    let t: Vec<&[u8]> = tokens(line).collect();
    let (Some(date), Some(time)) = (t.first(), t.get(1)) else {
        return false;
    };
    let w3c = date.len() == 10
        && date[4] == b'-'
        && date[7] == b'-'
        && time.len() >= 8
        && time[2] == b':'
        && time[5] == b':';
    let ftp = |f: &[u8]| {
        FTP_METHODS
            .iter()
            .any(|m| f.eq_ignore_ascii_case(m.as_bytes()))
    };
    let command = t.iter().position(|f| ftp(f));
    w3c && !line.contains(&b'"')
        && command.is_some_and(|at| t[at..].iter().any(|f| guid(f)))
        && !t.iter().any(|f| HTTP_METHODS.contains(f))
}

fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| b == b' ').filter(|t| !t.is_empty())
}

fn digits(t: &[u8]) -> bool {
    !t.is_empty() && t.iter().all(u8::is_ascii_digit)
}

/// `2018-12-20T02:59:40`, with or without a fraction and a zone.
fn iso_time(t: &[u8]) -> bool {
    t.len() >= 19 && digits(&t[..4]) && t[4] == b'-' && t[7] == b'-' && t[10] == b'T'
}

/// `tls 2.0 2018-12-20T02:59:40 net/...`.
fn nlb_tls(line: &[u8]) -> bool {
    let mut t = tokens(line);
    let (Some(kind), Some(version), Some(time)) = (t.next(), t.next(), t.next()) else {
        return false;
    };
    let version_ok = version.split(|&b| b == b'.').all(digits) && version.contains(&b'.');
    kind == b"tls" && version_ok && iso_time(time)
}

/// `2024-10-04T17:05:15.514108Z 192.168.131.39 36280 443 TLSv1.2 ...`: a time, an address
/// without its port, then two ports.
fn alb_connection(line: &[u8]) -> bool {
    let mut t = tokens(line);
    let (Some(time), Some(ip), Some(port), Some(listener)) =
        (t.next(), t.next(), t.next(), t.next())
    else {
        return false;
    };
    let ip_ok = ip.len() >= 2
        && (ip.contains(&b'.') || ip.contains(&b':'))
        && ip
            .iter()
            .all(|&b| b.is_ascii_hexdigit() || b == b'.' || b == b':');
    iso_time(time) && ip_ok && digits(port) && digits(listener)
}

/// `Enable AccessLog for ELB: app/my-alb/50dc6c495c0c9188 at 2026-05-30T16:47:00.781Z`: the
/// load balancer's name, then the time logging was enabled.
fn elb_test_file(line: &[u8]) -> bool {
    line.strip_prefix(b"Enable AccessLog for ELB: ")
        .and_then(|rest| memchr::memmem::rfind(rest, b" at ").map(|at| &rest[at + 4..]))
        .is_some_and(|time| iso_time(time) && !time.contains(&b' '))
}

/// A JSON record of Istio Mixer's `tcpaccesslog` instance.
fn mixer_tcp(line: &[u8]) -> bool {
    line.first() == Some(&b'{')
        && memchr::memmem::find(line, b"\"instance\":\"tcpaccesslog.").is_some()
}

/// `Connect from 10.0.1.2:33312 to 10.0.3.31:8012 (www/HTTP)`: what HAProxy logs for a
/// connection with neither `option httplog` nor `option tcplog` (its configuration manual,
/// section 8.2.1, "Default log format"), bare or after syslog's `haproxy[pid]: `.
fn haproxy_connect(line: &[u8]) -> bool {
    let message = match memchr::memmem::find(line, b"]: Connect from ") {
        Some(at) => &line[at + 3..],
        None => line,
    };
    let Some(rest) = message.strip_prefix(b"Connect from ") else {
        return false;
    };
    let t: Vec<&[u8]> = tokens(rest).collect();
    let address = |a: &[u8]| a.contains(&b':') && a.iter().any(u8::is_ascii_digit);
    t.len() == 4
        && address(t[0])
        && t[1] == b"to"
        && address(t[2])
        && t[3].starts_with(b"(")
        && t[3].ends_with(b")")
        && t[3].contains(&b'/')
}

/// A count of HAProxy's slash-separated timers or counters: `parts` numbers (`-1` or a `+`
/// allowed).
fn slashed(t: &[u8], parts: usize) -> bool {
    let mut n = 0;
    for part in t.split(|&b| b == b'/') {
        let part = part
            .strip_prefix(b"-")
            .or_else(|| part.strip_prefix(b"+"))
            .unwrap_or(part);
        if !digits(part) {
            return false;
        }
        n += 1;
    }
    n == parts
}

/// What follows HAProxy's accept date (` [dd/Mmm/yyyy:hh:mm:ss.mmm] `, after the client's
/// `ip:port`, with or without syslog's prefix), on a line with no quoted request.
fn haproxy_after_date(line: &[u8]) -> Option<&[u8]> {
    if line.contains(&b'"') {
        return None;
    }
    let open = memchr::memmem::find_iter(line, b" [")
        .map(|i| i + 1)
        .find(|&i| line.get(i + 3) == Some(&b'/') && line.get(i + 7) == Some(&b'/'))?;
    let date = &line[open + 1..];
    let close = memchr::memchr(b']', date)?;
    (close >= 20 && line[..open - 1].contains(&b':')).then(|| &date[close + 1..])
}

/// `fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0` (tcplog's fields after the date).
fn haproxy_tcplog(rest: &[u8]) -> bool {
    let rest: Vec<&[u8]> = tokens(rest).collect();
    rest.len() >= 7
        && rest[1].contains(&b'/')
        && slashed(rest[2], 3)
        && rest[3].iter().all(|&b| b.is_ascii_digit() || b == b'+')
        && rest[4].len() == 2
        && slashed(rest[5], 5)
        && slashed(rest[6], 2)
}

/// `prod_http_in/sktst2: SSL handshake failure`: a frontend and bind, then HAProxy's
/// message for a connection that sent no request.
fn haproxy_connection_error(rest: &[u8]) -> bool {
    let mut t = tokens(rest);
    let Some(bind) = t.next() else {
        return false;
    };
    bind.len() > 2 && bind.ends_with(b":") && bind.contains(&b'/') && t.next().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_that_are_no_http_request() {
        let nlb = b"tls 2.0 2018-12-20T02:59:40 net/my-network-loadbalancer/c6e77e28c25b2234 g3d4b5e8bb8464cd 192.168.131.39:2817 10.0.0.1:80 5 2 98 246 - arn:aws:acm:us-east-2:671290407336:certificate/2a108f19 - ECDHE-RSA-AES128-SHA tlsv12 - my-nlb.elb.us-east-2.amazonaws.com - - - 2018-12-20T02:59:30";
        assert_eq!(
            kind(nlb),
            Some("NLB TLS connection records (no HTTP request)")
        );
        let conn = b"2024-10-04T17:05:15.514108Z 192.168.131.39 36280 443 TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 4.036 \"CN=amazondomains.com,O=endEntity\" NotBefore=2023-09-21T22:43:21Z;NotAfter=2026-06-17T22:43:21Z FEF257372D5C14D4 Success";
        assert_eq!(
            kind(conn),
            Some("ALB connection log records (no HTTP request)")
        );
        let conn2 = b"2024-11-29T13:45:24.599544Z 172.31.43.26 58206 80 - - - \"-\" - - - TID_16132ed0b4112148";
        assert!(kind(conn2).is_some());
        let tcplog = b"Feb  6 12:12:56 localhost haproxy[14387]: 10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0";
        assert_eq!(
            kind(tcplog),
            Some("HAProxy tcplog records (TCP, no HTTP request)")
        );
        assert!(kind(&tcplog[42..]).is_some(), "without syslog's prefix");
        let ssl = b"Feb 25 16:20:12 192.168.4.2 haproxy[7]: 95.216.197.33:56224 [25/Feb/2019:16:20:10.111] prod_http_in/sktst2: SSL handshake failure";
        assert_eq!(
            kind(ssl),
            Some("HAProxy connection errors (SSL handshake, no HTTP request)")
        );
        // HAProxy's default format, bare and through syslog (its manual's example).
        let connect: [&[u8]; 2] = [
            b"Connect from 10.0.1.2:33312 to 10.0.3.31:8012 (www/HTTP)",
            b"Feb  6 12:12:09 localhost haproxy[14385]: Connect from 10.0.1.2:33312 to 10.0.3.31:8012 (www/HTTP)",
        ];
        for line in connect {
            assert_eq!(
                kind(line),
                Some("HAProxy connect records (its default log format, no HTTP request)")
            );
        }
        assert_eq!(kind(b"Connect from the docs to the code (a/b) now"), None);
        // Elastic's IIS FTP test record (packages/iis), and an FTP command with its session.
        let ftp = b"2022-10-05 10:43:56 172.16.1.1 user1 192.168.2.2 21 ControlChannelClosed - - 0 0 8124db49-68d2-461c-a95b-d92ad1e8af15 -";
        assert_eq!(kind(ftp), Some(IIS_FTP));
        let pass = b"2023-12-29 06:27:23 10.211.55.53 - 10.211.55.52 21 PASS IEUser@ 230 0 0 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea /";
        assert_eq!(kind(pass), Some(IIS_FTP));
        // The test file a load balancer writes when access logging is enabled.
        let test_file =
            b"Enable AccessLog for ELB: app/my-alb/50dc6c495c0c9188 at 2026-05-30T16:47:00.781Z";
        assert_eq!(kind(test_file), Some(ELB_TEST_FILE));
        assert_eq!(kind(b"Enable AccessLog for ELB: my-elb at noon"), None);
        // Fluent Bit's test log of an istio-proxy container (its JSON, unwrapped).
        let mixer = br#"{"level":"info","time":"2018-09-21T02:56:05.979833Z","instance":"tcpaccesslog.logentry.istio-system","connectionDuration":"0s","connectionEvent":"continue","protocol":"tcp","receivedBytes":432,"sentBytes":424}"#;
        assert_eq!(
            kind(mixer),
            Some("Istio Mixer TCP access log entries (no HTTP request)")
        );
        let http = br#"{"level":"info","time":"2018-09-21T02:56:05.979833Z","instance":"accesslog.logentry.istio-system","method":"POST","url":"/v1/pay","responseCode":200}"#;
        assert_eq!(kind(http), None);
        // HTTP lines of the same proxies are none of these.
        let http: [&[u8]; 6] = [
            b"2026-03-17 08:01:15 10.0.2.10 GET /Dashboard.aspx - 80 DOMAIN\\jsmith 10.0.1.50 Mozilla/5.0 - 200 0 0 1250",
            b"2026-03-17 08:01:15 10.0.2.10 POST /list - 80 - 10.0.1.50 curl - 200 0 0 12 2cf9cd35-e364-4b1a-ab27-fe9050daa5ea",
            b"http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET http://www.example.com:80/ HTTP/1.1\" \"curl/7.46.0\" - -",
            b"2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000086 0.001048 0.001337 200 200 0 57 \"GET https://www.example.com:443/ HTTP/1.1\" \"curl/7.38.0\" DHE-RSA-AES128-SHA TLSv1.2",
            b"Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} \"GET /index.html HTTP/1.1\"",
            b"10.0.0.1 - - [06/Feb/2009:12:14:14 +0000] \"POST / HTTP/1.1\" 200 1",
        ];
        for line in http {
            assert_eq!(kind(line), None, "{}", String::from_utf8_lossy(line));
        }
    }
}
