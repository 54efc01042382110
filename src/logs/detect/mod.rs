//! Detection, in its own room: what a file's first lines are, for the envelopes and the
//! formats alike.
//!
//! - [`envelope`]: the envelope around the access lines, if any: the first envelope (in
//!   [`Envelope::ALL`]'s order) that unwraps at least 80% of the first lines into lines a
//!   format reads.
//! - [`inner_lines`]: the first lines as the format sees them: unwrapped, parts joined,
//!   stderr and lines that are not access lines left out.
//! - [`non_access`]: a line that is not an access line (a server's error log, start-up
//!   messages, HAProxy's events), by its shape: skipped and counted by kind, never a row.
//!
//! - [`choose`] (in `format.rs`): the format of an input, named by the flags or told from
//!   its first lines, and the one line of refusal when none reads them.
//!
//! The envelope functions know no format: the caller says which lines a format reads.

mod format;
mod non_http;
pub mod unit;

pub use format::{ChooseOptions, Chosen, SNIFF_LINES, choose, discover};

use super::envelope::{Envelope, Stream};

/// The share of the first lines an envelope or a format must read.
pub const ENOUGH: f64 = 0.8;

/// The first lines as the format under `envelope` sees them; `None` when fewer than
/// [`ENOUGH`] of them unwrap. Lines that are not access lines are left out, so a file that
/// starts with its server's start-up messages is still told by its access lines.
pub fn inner_lines(envelope: Option<Envelope>, lines: &[&[u8]]) -> Option<Vec<Vec<u8>>> {
    let mut inner = match envelope {
        Some(envelope) => unwrapped(envelope, lines)?,
        None => lines.iter().map(|l| l.to_vec()).collect(),
    };
    inner.retain(|l| non_access(l).is_none());
    Some(inner)
}

/// The whole texts `envelope` unwraps the first lines into (a line's parts joined; stderr's
/// and blank texts left out), access lines or not; `None` when fewer than [`ENOUGH`] of the
/// lines unwrap.
pub fn unwrapped(envelope: Envelope, lines: &[&[u8]]) -> Option<Vec<Vec<u8>>> {
    let mut ok = 0;
    let mut texts = Vec::new();
    let mut parts: [Vec<u8>; 2] = Default::default();
    let mut scratch = Vec::new();
    for line in lines {
        let Ok(u) = envelope.unwrap(line, &mut scratch) else {
            continue;
        };
        ok += 1;
        let part = &mut parts[u.stream.index()];
        part.extend_from_slice(u.text);
        if u.partial {
            continue;
        }
        let text = std::mem::take(part);
        if u.stream != Stream::Stderr && !text.trim_ascii().is_empty() {
            texts.push(text);
        }
    }
    (!lines.is_empty() && ok as f64 >= ENOUGH * lines.len() as f64).then_some(texts)
}

/// The envelope of a file whose first lines are `lines`: the first that unwraps them into
/// lines that `reads` accepts.
///
/// rsyslog's `<RFC 3339 time> host tag[pid]: <line>` also unwraps as a timestamped line
/// (`host tag: <line>` after the time), and a format whose first field takes any text reads
/// that with the host and tag in it. So when [`ENOUGH`] of the lines have
/// syslog's `host tag[pid]:` after their time, syslog is tried before the timestamped lines.
pub fn envelope(lines: &[&[u8]], reads: impl Fn(&[&[u8]]) -> bool) -> Option<Envelope> {
    let syslog = lines.iter().filter(|l| syslog_after_time(l)).count();
    let syslog_first = !lines.is_empty() && syslog as f64 >= ENOUGH * lines.len() as f64;
    let mut order = Envelope::ALL.to_vec();
    if syslog_first {
        order.retain(|&e| e != Envelope::Syslog3164);
        let at = order
            .iter()
            .position(|&e| e == Envelope::Timestamped)
            .unwrap_or(0);
        order.insert(at, Envelope::Syslog3164);
    }
    order.into_iter().find(|&e| {
        inner_lines(Some(e), lines).is_some_and(|inner| {
            let refs: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
            !refs.is_empty() && reads(&refs)
        })
    })
}

/// `<RFC 3339 time> host tag: ` or `... host tag[pid]: `, as rsyslog writes: a host name or
/// address, then a tag of name characters (at most 48) with an optional `[digits]`, then `:`
/// and a space (or the line's end); or no tag, two spaces after the host, as rsyslog writes a
/// message its sender gave none (Fastly's blank format).
pub fn syslog_after_time(line: &[u8]) -> bool {
    let mut tokens = line.splitn(4, |&b| b == b' ');
    let (Some(time), Some(host), Some(tag)) = (tokens.next(), tokens.next(), tokens.next()) else {
        return false;
    };
    let host_ok = !host.is_empty()
        && host
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b':'));
    if tag.is_empty() {
        let message = tokens.next().unwrap_or_default();
        return super::envelope::text::is_rfc3339(time)
            && host_ok
            && message.first().is_some_and(|&b| b != b' ');
    }
    let Some(tag) = tag.strip_suffix(b":") else {
        return false;
    };
    let name = match tag.strip_suffix(b"]") {
        Some(t) => match memchr::memrchr(b'[', t) {
            Some(i) if i + 1 < t.len() && t[i + 1..].iter().all(u8::is_ascii_digit) => &t[..i],
            _ => return false,
        },
        None => tag,
    };
    let name_ok = (1..=48).contains(&name.len())
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'/'));
    super::envelope::text::is_rfc3339(time) && host_ok && name_ok
}

/// What a line that is not an access line is, by its shape; `None` for any other line.
pub fn non_access(line: &[u8]) -> Option<&'static str> {
    let line = line.trim_ascii();
    if let Some(kind) = non_http::kind(line) {
        return Some(kind);
    }
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    let digits = |r: std::ops::Range<usize>| {
        line.get(r)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let has = |s: &[u8]| memchr::memmem::find(line, s).is_some();
    // A comment a person or a test suite put in the file ("# Plugin version v1.6.0"); W3C's
    // directives (`#Fields:`) have no space after the `#`, and are their format's to read.
    if line.starts_with(b"# ") {
        return Some("comment lines (# ...)");
    }
    // nginx: "2024/01/02 03:04:05 [error] 7#7: ..."
    if digits(0..4) && at(4) == b'/' && at(7) == b'/' && at(13) == b':' && has(b"] ") {
        let level = line.get(20..).unwrap_or_default();
        if level.starts_with(b"[") {
            return Some("nginx error log");
        }
    }
    // LiteSpeed's error log: "2022-06-08 22:49:20.774649 [NOTICE] [1226033] ...": a time to
    // the microsecond, then the level, upper case, in brackets.
    if digits(0..4) && at(4) == b'-' && at(10) == b' ' && at(13) == b':' && at(19) == b'.' {
        let level = line.get(20..).unwrap_or_default();
        let level = level
            .iter()
            .position(|&b| b == b' ')
            .and_then(|i| level.get(i + 1..))
            .and_then(|l| l.strip_prefix(b"["))
            .unwrap_or_default();
        let word = level.iter().take_while(|b| b.is_ascii_uppercase()).count();
        if word >= 4 && level.get(word..word + 3) == Some(b"] [") {
            return Some("LiteSpeed error log");
        }
    }
    // Apache: "[Tue Jan 02 03:04:05.123456 2024] [core:error] ..."
    if at(0) == b'['
        && at(4) == b' '
        && has(b"] [")
        && line[1..4].iter().all(u8::is_ascii_alphabetic)
    {
        return Some("Apache error log");
    }
    // Envoy's own log: "[2024-01-02 03:04:05.678][1][info][main] ..."
    if at(0) == b'[' && digits(1..5) && at(5) == b'-' && at(11) == b' ' && has(b"][") {
        return Some("Envoy's own log");
    }
    // klog (Kubernetes controllers, ingress-nginx's own log): "I1103 08:59:55.102334  7 x.go:1] ..."
    if matches!(at(0), b'I' | b'W' | b'E' | b'F') && digits(1..5) && at(5) == b' ' && at(8) == b':'
    {
        return Some("controller log (klog)");
    }
    // Start-up banners: ingress-nginx's, a rule of dashes.
    let banner: [&[u8]; 5] = [
        b"NGINX Ingress controller",
        b"Release:",
        b"Build:",
        b"Repository:",
        b"nginx version:",
    ];
    if banner.iter().any(|b| line.starts_with(b))
        || (line.len() >= 10 && line.iter().all(|&b| b == b'-'))
    {
        return Some("start-up banner");
    }
    if has(b"docker-entrypoint") || line.starts_with(b"/docker-entrypoint") {
        return Some("container start-up messages");
    }
    if let Some(kind) = app_log(line) {
        return Some(kind);
    }
    // HAProxy's events: "Proxy web started.", "Server be/s1 is DOWN", "[NOTICE] (1) : ..."
    let events: [&[u8]; 6] = [
        b"[NOTICE]",
        b"[WARNING]",
        b"[ALERT]",
        b" started.",
        b" is DOWN",
        b" is UP",
    ];
    if (line.starts_with(b"Proxy ") || line.starts_with(b"Server ") || line.starts_with(b"["))
        && events.iter().any(|e| has(e))
    {
        return Some("HAProxy events");
    }
    // The same events through syslog: "Nov  1 00:00:01 lb haproxy[7]: Server be/s1 is DOWN, ...".
    if let Some(at) = memchr::memmem::find(line, b"haproxy[") {
        let rest = &line[at..];
        let message = memchr::memmem::find(rest, b"]: ").map_or(&b""[..], |i| &rest[i + 3..]);
        let starts: [&[u8]; 7] = [
            b"Server ",
            b"Proxy ",
            b"backend ",
            b"Stopping ",
            b"Pausing ",
            b"Resuming ",
            b"[",
        ];
        let told: [&[u8]; 7] = [
            b" is DOWN",
            b" is UP",
            b" started.",
            b" stopped",
            b"has no server available",
            b"proxy",
            b"]",
        ];
        let in_message = |s: &[u8]| memchr::memmem::find(message, s).is_some();
        // `[NOTICE]`, `[WARNING]`, `[ALERT]`: a word in the brackets. A `log-format` may
        // open an access line with brackets too (`[%pid] [%Ts.%ms] ...`), and an access
        // line quotes its request.
        let bracketed_word = message.strip_prefix(b"[").is_none_or(|m| {
            let word = m.iter().take_while(|b| b.is_ascii_alphabetic()).count();
            word > 0 && m.get(word) == Some(&b']')
        });
        if starts.iter().any(|s| message.starts_with(s))
            && told.iter().any(|t| in_message(t))
            && bracketed_word
            && !quotes_a_request(message)
        {
            return Some("HAProxy events");
        }
    }
    None
}

/// A quoted HTTP request line in `text`: `"POST /x HTTP/1.1"`, as an access line has.
fn quotes_a_request(text: &[u8]) -> bool {
    memchr::memmem::find_iter(text, b" HTTP/").any(|at| {
        let before = &text[..at];
        let Some(open) = memchr::memrchr(b'"', before) else {
            return false;
        };
        let request = &before[open + 1..];
        let method = request
            .iter()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
        method >= 3 && request.get(method) == Some(&b' ')
    })
}

/// An application server's or proxy's own log lines, written to the same file or stream as
/// its access lines: gunicorn's (`[2018-06-22 09:33:24 +0000] [17] [INFO] Booting worker`),
/// a Flask app's (`[2017-06-22 09:31:11,580] ERROR in app: ...`, Flask's default handler)
/// and the Python traceback it prints, Traefik's (logrus text before v3: `time="..."
/// level=info msg="..."`; zerolog's console from v3: `2024-05-03T10:00:00Z INF ...`) and a
/// Traefik plugin's Go log (`DEBUG: Plugin: 2025/09/05 13:53:40 ...`).
fn app_log(line: &[u8]) -> Option<&'static str> {
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    let digits = |r: std::ops::Range<usize>| {
        line.get(r)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    // `[yyyy-mm-dd hh:mm:ss`, then gunicorn's zone and `] [pid] [LEVEL] ` or Flask's
    // `,mmm] LEVEL in module: `.
    let bracketed_date = at(0) == b'['
        && digits(1..5)
        && at(5) == b'-'
        && at(8) == b'-'
        && at(11) == b' '
        && at(14) == b':'
        && at(17) == b':';
    if bracketed_date {
        let rest = &line[20.min(line.len())..];
        if let Some(after) = rest.iter().position(|&b| b == b']').map(|i| &rest[i + 1..]) {
            let pid_then_level = after.strip_prefix(b" [").is_some_and(|a| {
                let pid = a.iter().take_while(|b| b.is_ascii_digit()).count();
                pid > 0 && a[pid..].starts_with(b"] [")
            });
            if pid_then_level {
                return Some("gunicorn's own log");
            }
            let level = after.strip_prefix(b" ").unwrap_or_default();
            let levels: [&[u8]; 5] = [b"DEBUG", b"INFO", b"WARNING", b"ERROR", b"CRITICAL"];
            if levels.iter().any(|l| {
                level
                    .strip_prefix(*l)
                    .is_some_and(|r| r.starts_with(b" in "))
            }) {
                return Some("Flask app log");
            }
        }
    }
    if line.starts_with(b"Traceback (most recent call last):")
        || (line.starts_with(b"File \"") && memchr::memmem::find(line, b"\", line ").is_some())
    {
        return Some("Python tracebacks");
    }
    // logrus's text formatter: `time="<RFC 3339>" level=<level> msg=`.
    if let Some(rest) = line.strip_prefix(b"time=\"") {
        let time_end = memchr::memchr(b'"', rest).unwrap_or(0);
        let after = &rest[(time_end + 1).min(rest.len())..];
        let levels: [&[u8]; 7] = [
            b"trace", b"debug", b"info", b"warning", b"error", b"fatal", b"panic",
        ];
        let level = after.strip_prefix(b" level=").and_then(|l| {
            levels
                .iter()
                .find(|x| l.starts_with(x))
                .map(|x| &l[x.len()..])
        });
        if super::envelope::text::is_rfc3339(&rest[..time_end])
            && level.is_some_and(|l| l.starts_with(b" msg="))
        {
            return Some("Traefik's own log (logrus: time= level= msg=)");
        }
    }
    // zerolog's console writer: `<RFC 3339> INF <message>`.
    if let Some(space) = memchr::memchr(b' ', line) {
        let levels: [&[u8]; 7] = [b"TRC", b"DBG", b"INF", b"WRN", b"ERR", b"FTL", b"PNC"];
        let rest = &line[space + 1..];
        if super::envelope::text::is_rfc3339(&line[..space])
            && levels
                .iter()
                .any(|l| rest.strip_prefix(*l).is_some_and(|r| r.starts_with(b" ")))
        {
            return Some("Traefik's own log (zerolog)");
        }
    }
    // Go's log package with a prefix: `LEVEL: Name: yyyy/mm/dd hh:mm:ss message`.
    let mut words = line.splitn(4, |&b| b == b' ');
    if let (Some(level), Some(name), Some(date)) = (words.next(), words.next(), words.next()) {
        let levels: [&[u8]; 6] = [
            b"DEBUG:",
            b"INFO:",
            b"WARN:",
            b"WARNING:",
            b"ERROR:",
            b"TRACE:",
        ];
        let go_date = date.len() == 10
            && date[4] == b'/'
            && date[7] == b'/'
            && date.iter().all(|&b| b.is_ascii_digit() || b == b'/');
        if levels.contains(&level) && name.len() > 1 && name.ends_with(b":") && go_date {
            return Some("Traefik plugin log (Go log lines)");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn application_and_proxy_runtime_lines() {
        let cases: [(&[u8], Option<&str>); 10] = [
            (
                b"[2018-06-22 09:33:24 +0000] [17] [INFO] Booting worker with pid: 17",
                Some("gunicorn's own log"),
            ),
            (
                b"[2026-11-01 10:00:00 +0100] [1] [INFO] Listening at: http://0.0.0.0:8000 (1)",
                Some("gunicorn's own log"),
            ),
            (
                b"[2017-06-22 09:31:11,580] ERROR in app: Exception on /api/users [POST]",
                Some("Flask app log"),
            ),
            (b"Traceback (most recent call last):", Some("Python tracebacks")),
            (
                b"  File \"/srv/app.py\", line 1982, in wsgi_app",
                Some("Python tracebacks"),
            ),
            (
                b"time=\"2019-04-05T11:57:47Z\" level=info msg=\"Skipping same configuration\"",
                Some("Traefik's own log (logrus: time= level= msg=)"),
            ),
            (
                b"2024-05-03T10:00:00+02:00 INF Configuration loaded from flags.",
                Some("Traefik's own log (zerolog)"),
            ),
            (
                b"DEBUG: SomeBouncerPlugin: 2025/09/05 13:53:40 cache:updated",
                Some("Traefik plugin log (Go log lines)"),
            ),
            // Access lines of the same servers are none of these.
            (
                b"127.0.0.1 - - [22/Jun/2018:09:33:24 +0000] \"POST /api/users HTTP/1.1\" 500 291 \"-\" \"curl/8\"",
                None,
            ),
            (
                b"[2026-11-01T10:00:00.000Z] \"POST /v1/pay HTTP/1.1\" 200 - 0 1 2 - \"-\" \"curl\" \"id\" \"h\" \"-\"",
                None,
            ),
        ];
        for (line, kind) in cases {
            assert_eq!(non_access(line), kind, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn lines_that_are_not_access_lines() {
        let cases: [(&[u8], Option<&str>); 20] = [
            (
                b"I1103 08:59:55.102334       7 main.go:205] \"Creating API client\"",
                Some("controller log (klog)"),
            ),
            (
                b"2022-06-08 22:49:20.774649 [NOTICE] [1226033] [1.2.3.4:45164:HTTP2-41#_AdminVHost] [STDERR] x",
                Some("LiteSpeed error log"),
            ),
            (
                b"2022-06-09 12:22:07.353044 [INFO] [1226038] [192.168.9.163:61120-5#Example] User 'a' failed",
                Some("LiteSpeed error log"),
            ),
            // IIS's default W3C fields: the time has no fraction, no level follows.
            (
                b"2022-06-09 12:22:07 W3SVC1 10.0.0.1 POST /v1/pay - 443 - 10.0.0.9 curl/8 - 504 0 0 30001",
                None,
            ),
            (b"  Release:       v1.11.2", Some("start-up banner")),
            (b"----------------------------", Some("start-up banner")),
            (
                b"2024/01/02 03:04:05 [error] 7#7: *1 connect() failed",
                Some("nginx error log"),
            ),
            (
                b"[Tue Jan 02 03:04:05.123456 2024] [core:error] [pid 1] x",
                Some("Apache error log"),
            ),
            (
                b"[2024-01-02 03:04:05.678][1][info][main] starting",
                Some("Envoy's own log"),
            ),
            (
                b"/docker-entrypoint.sh: Configuration complete; ready for start up",
                Some("container start-up messages"),
            ),
            (b"Proxy web started.", Some("HAProxy events")),
            (b"# Plugin version v1.6.0", Some("comment lines (# ...)")),
            (b"#Fields: date time cs-method", None),
            (
                b"Nov  1 00:00:01 lb haproxy[7]: Server be/s2 is DOWN, reason: Layer4 timeout",
                Some("HAProxy events"),
            ),
            (
                b"Nov  1 00:00:02 lb haproxy[7]: backend be has no server available!",
                Some("HAProxy events"),
            ),
            (
                b"Nov  1 00:00:03 lb haproxy[7]: 10.0.0.7:5123 [01/Nov/2026:00:50:06.992] fe be/s1 0/0/1/1049/1051 200 1427 - - ---- 3/3/1/1/0 0/0 \"POST /x HTTP/1.1\"",
                None,
            ),
            (
                b"1.2.3.4 - - [02/Jan/2024:03:04:05 +0000] \"POST / HTTP/1.1\" 200 1",
                None,
            ),
            (
                b"Nov  1 00:00:04 lb haproxy[7]: [NOTICE]   (1) : haproxy version is 2.8.3",
                Some("HAProxy events"),
            ),
            // A log-format that opens with the pid and time in brackets: an access line.
            (
                b"Mar  7 14:18:50 lb haproxy[10282]: [10282] [1394201930.258] 1/1/0/0/1/0/0 91/0/0/3/95 ---- 10.0.0.7:52354 10.0.0.8:443 127.0.0.1:8000 fe~ \"POST /v1/x HTTP/1.1\" 200 be:s1",
                None,
            ),
            (
                b"[2024-01-02T03:04:05.678Z] \"POST / HTTP/1.1\" 200 - 0 1 2 - \"-\"",
                None,
            ),
        ];
        for (line, kind) in cases {
            assert_eq!(non_access(line), kind, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn rsyslog_is_told_from_a_timestamped_line() {
        let syslog: [&[u8]; 6] = [
            b"2026-11-30T10:00:00.123456+00:00 web-1 nginx: 10.0.0.1 2026-11-30T10:00:00+00:00 x",
            b"2026-11-30T10:00:00Z web-1.example.com nginx[29]: x",
            b"2026-11-30T10:00:00Z 10.0.0.9 envoy/proxy[7]:",
            // No tag: two spaces after the host.
            b"2026-11-30T10:00:00Z 1.1.1.1  {\"url\": \"/\"}",
            b"2026-11-30T10:00:00Z web-1 nginx[]: x",
            b"2026-11-30T10:00:00Z web-1   x",
        ];
        let shapes: Vec<bool> = syslog.iter().map(|l| syslog_after_time(l)).collect();
        assert_eq!(shapes, [true, true, true, true, false, false]);
        let timestamped: [&[u8]; 4] = [
            b"2026-11-30T10:00:00Z 10.0.0.1 - - [30/Nov/2026:10:00:00 +0000] \"POST / HTTP/1.1\" 200 1",
            b"2026-11-30T10:00:00Z {\"time\": \"2026-11-30T10:00:00Z\", \"status\": 200}",
            b"2026-11-30T10:00:00Z [2026-11-30T10:00:00.000Z] \"POST / HTTP/1.1\" 200 -",
            b"Nov 30 10:00:00 web-1 nginx: x",
        ];
        assert!(!timestamped.iter().any(|l| syslog_after_time(l)));
        // A reader that takes any text: the first envelope tried wins.
        let any = |_: &[&[u8]]| true;
        assert_eq!(envelope(&syslog[..4], any), Some(Envelope::Syslog3164));
        assert_eq!(
            envelope(&timestamped[..3], any),
            Some(Envelope::Timestamped)
        );
    }

    #[test]
    fn parts_are_joined_and_stderr_left_out() {
        let lines: [&[u8]; 5] = [
            b"2024-01-02T03:04:05.1Z stdout F ",
            b"2024-01-02T03:04:05.1Z stdout P 1.2.3.4 - ",
            b"2024-01-02T03:04:05.1Z stderr F 2024/01/02 03:04:05 [error] 7#7: x",
            b"2024-01-02T03:04:05.1Z stdout F - [x]",
            b"not a CRI line",
        ];
        let inner = inner_lines(Some(Envelope::Cri), &lines).unwrap();
        assert_eq!(inner, [b"1.2.3.4 - - [x]".to_vec()]);
        assert!(inner_lines(Some(Envelope::Cri), &lines[3..]).is_none());
        assert!(
            inner_lines(Some(Envelope::Cri), &lines[1..]).is_none(),
            "3 in 4 is too few"
        );
    }
}
