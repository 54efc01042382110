//! HAProxy `option httplog` lines, with or without the syslog prefix:
//!
//! ```text
//! Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in \
//!   static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"
//! ```
//!
//! Fields are named as HAProxy's manual (and Logstash's pattern) names them: `accept_date`
//! (milliseconds, no zone: read as UTC), the timers `time_request`/`time_queue`/
//! `time_backend_connect`/`time_backend_response`/`time_duration` (`Tq/Tw/Tc/Tr/Ta`, ms, `-1`
//! when the step never happened), `status_code` (`-1` when no response was sent),
//! `termination_state` (the flags role, HAProxy style: `cD`, `sH`...), `retries` (`+` when
//! redispatched) and the request line as `http_method`, `http_request`, `http_version`.
//! Captured headers (`{...}`) are kept as they are: which header sits where is the
//! configuration's, so map one with `--column idempotency_key=...` only when it is alone.

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample, Told};
use super::haproxy_format::FLAGS;
use super::{Fields, FlagsStyle, FormatHints, LineFormat, best_of};
use crate::logs::formats::DurationUnit;
use crate::logs::role::Role;

/// The names of the fields, in order.
const NAMES: [&str; 28] = [
    "client_ip",
    "client_port",
    "accept_date",
    "frontend_name",
    "backend_name",
    "server_name",
    "time_request",
    "time_queue",
    "time_backend_connect",
    "time_backend_response",
    "time_duration",
    "status_code",
    "bytes_read",
    "captured_request_cookie",
    "captured_response_cookie",
    "termination_state",
    "actconn",
    "feconn",
    "beconn",
    "srv_conn",
    "retries",
    "srv_queue",
    "backend_queue",
    "captured_request_headers",
    "captured_response_headers",
    "http_method",
    "http_request",
    "http_version",
];

/// HAProxy's HTTP log format.
#[derive(Debug, Default)]
pub struct Haproxy;

impl LineFormat for Haproxy {
    fn describe(&self) -> String {
        "HAProxy httplog".into()
    }

    fn names(&self) -> Vec<String> {
        NAMES.iter().map(|n| n.to_string()).collect()
    }

    fn hints(&self) -> FormatHints {
        FormatHints {
            duration_unit: Some(DurationUnit::Millis),
            flags_style: Some(FlagsStyle(&FLAGS)),
            columns: vec![(Role::Bytes, "bytes_read".into())],
            notes: vec![crate::logs::FormatNote::UtcAcceptDate],
        }
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        split(line, out)
    }
}

/// `option httplog` with fields a `log-format` appended after the request line (a captured
/// key, `%ID`, ...): read as `extra_1`, `extra_2`, ... with no role, since what they hold is
/// the configuration's; the evidence says so and names `--column` and `--log-format`.
#[derive(Debug)]
pub struct Appended {
    extra: usize,
}

impl Appended {
    fn list(&self) -> String {
        crate::logs::extra_fields(self.extra)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl LineFormat for Appended {
    fn describe(&self) -> String {
        let many = if self.extra == 1 { "" } else { "s" };
        format!(
            "HAProxy httplog with {} more field{many} ({})",
            self.extra,
            self.list()
        )
    }

    fn names(&self) -> Vec<String> {
        let mut names = Haproxy.names();
        names.extend(crate::logs::extra_fields(self.extra));
        names
    }

    fn hints(&self) -> FormatHints {
        let mut hints = Haproxy.hints();
        hints
            .notes
            .push(crate::logs::FormatNote::HaproxyAppended { extra: self.extra });
        hints
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        let after = split_parts(line, out)?;
        let words = words(after);
        if words.len() != self.extra {
            return Err(format!(
                "expected {} field{} after the request line, found {}",
                self.extra,
                if self.extra == 1 { "" } else { "s" },
                words.len()
            ));
        }
        for w in words {
            out.push(w);
        }
        Ok(())
    }
}

/// The first lines are HAProxy httplog lines (with fields appended, as many as the first
/// line has).
pub fn sniff(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    best_of(vec![Box::new(Haproxy)], lines).or_else(|| {
        let mut scratch = Fields::default();
        let extra = words(split_parts(lines.first()?, &mut scratch).ok()?).len();
        (1..=8)
            .contains(&extra)
            .then(|| best_of(vec![Box::new(Appended { extra })], lines))
            .flatten()
    })
}

/// Space-separated words, a quoted one (`"k 1"`) to its closing quote, without the quotes.
fn words(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if text[at] == b' ' {
            at += 1;
        } else if text[at] == b'"' {
            let body = &text[at + 1..];
            let end = memchr::memmem::find(body, b"\" ").unwrap_or(body.len());
            out.push(body[..end].strip_suffix(b"\"").unwrap_or(&body[..end]));
            at += 1 + end + 1;
        } else {
            let end = memchr::memchr(b' ', &text[at..]).unwrap_or(text.len() - at);
            out.push(&text[at..at + end]);
            at += end;
        }
    }
    out
}

/// Where the accept date's `[` is: `[dd/Mon/yyyy:` after a space.
fn date_start(line: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'[', line).find(|&i| {
        i > 0
            && line[i - 1] == b' '
            && line.get(i + 3) == Some(&b'/')
            && line.get(i + 7) == Some(&b'/')
            && line.get(i + 12) == Some(&b':')
            && line[i + 1].is_ascii_digit()
    })
}

/// A cursor over the body of a line, for the error messages' columns.
struct Cursor<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The next word, up to `end` (which is consumed). After a space, the spaces that pad
    /// the next field are consumed too: HAProxy pads some fields (runs of spaces before the
    /// status), and no httplog field before the request line is empty (an absent one is `-`).
    fn until(&mut self, end: u8, what: &str) -> Result<&'a [u8], String> {
        let rest = &self.line[self.at..];
        let i = memchr::memchr(end, rest).ok_or_else(|| {
            format!(
                "expected {what} then '{}' at column {}",
                end as char,
                self.at + 1
            )
        })?;
        self.at += i + 1;
        if end == b' ' {
            self.pad();
        }
        Ok(&rest[..i])
    }

    /// Past the spaces at the cursor.
    fn pad(&mut self) {
        self.at += self.line[self.at..]
            .iter()
            .take_while(|&&b| b == b' ')
            .count();
    }

    /// `n` values separated by `/`, then a space.
    fn slashed(&mut self, n: usize, what: &str, out: &mut Fields) -> Result<(), String> {
        let start = self.at;
        let word = self.until(b' ', what)?;
        let mut parts = word.split(|&b| b == b'/');
        for _ in 0..n {
            match parts.next() {
                Some(p) => out.push(p),
                None => {
                    return Err(format!("expected {what} at column {}", start + 1));
                }
            }
        }
        if parts.next().is_some() {
            return Err(format!("expected {what} at column {}", start + 1));
        }
        Ok(())
    }

    /// A word with no `/` between the server and the timers (a log-format that adds the
    /// request's host there, as Elastic's HAProxy sample has: `myapp/node2 site.domain.com
    /// 0/0/0/18/18`): passed over, not read, when the timers follow it.
    fn extra_word(&mut self) {
        let rest = &self.line[self.at..];
        let Some(space) = memchr::memchr(b' ', rest) else {
            return;
        };
        let timers = rest[space + 1..]
            .trim_ascii_start()
            .split(|&b| b == b' ')
            .next()
            .unwrap_or_default();
        let slashes = |w: &[u8]| w.iter().filter(|&&b| b == b'/').count();
        if space > 0 && slashes(&rest[..space]) == 0 && slashes(timers) == 4 {
            self.at += space + 1;
            self.pad();
        }
    }

    /// A `{...}` capture block and its space, if one is next; `{}`-less lines give `-`.
    fn capture(&mut self) -> Option<&'a [u8]> {
        let rest = &self.line[self.at..];
        if rest.first() != Some(&b'{') {
            return None;
        }
        let close = memchr::memchr(b'}', rest)?;
        if rest.get(close + 1) != Some(&b' ') {
            return None;
        }
        self.at += close + 2;
        self.pad();
        Some(&rest[1..close])
    }
}

fn split(line: &[u8], out: &mut Fields) -> Result<(), String> {
    let after = split_parts(line, out)?;
    if after.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "expected the line to end after the request line, found '{}' (fields after httplog's layout: give haproxy.cfg's log-format with --log-format)",
            crate::logs::error::shown(after)
        ))
    }
}

/// Splits httplog's fields into `out`; what follows the request line's closing quote (past a
/// space), if anything.
fn split_parts<'a>(line: &'a [u8], out: &mut Fields) -> Result<&'a [u8], String> {
    let date = date_start(line).ok_or(
        "expected an HAProxy accept date '[dd/Mon/yyyy:hh:mm:ss.mmm]' after the client address",
    )?;
    // The client `ip:port` is the word before the date; what comes before it is syslog's.
    let client_start = line[..date - 1]
        .iter()
        .rposition(|&b| b == b' ')
        .map_or(0, |i| i + 1);
    let client = &line[client_start..date - 1];
    let colon = memchr::memrchr(b':', client)
        .ok_or("expected the client as 'address:port' before the accept date")?;
    out.push(&client[..colon]);
    out.push(&client[colon + 1..]);
    let mut c = Cursor { line, at: date + 1 };
    out.push(c.until(b']', "the accept date")?);
    if line.get(c.at) != Some(&b' ') {
        return Err(format!("expected ' ' at column {}", c.at + 1));
    }
    c.pad();
    out.push(c.until(b' ', "the frontend name")?);
    c.slashed(2, "backend/server", out)?;
    c.extra_word();
    c.slashed(5, "the timers Tq/Tw/Tc/Tr/Ta", out)?;
    let status_at = c.at;
    let status = c.until(b' ', "the status")?;
    if !(status == b"-1"
        || (1..=3).contains(&status.len()) && status.iter().all(u8::is_ascii_digit))
    {
        return Err(format!("expected a status at column {}", status_at + 1));
    }
    out.push(status);
    out.push(c.until(b' ', "the bytes read")?);
    out.push(c.until(b' ', "the captured request cookie")?);
    out.push(c.until(b' ', "the captured response cookie")?);
    out.push(c.until(b' ', "the termination state")?);
    c.slashed(
        5,
        "the connection counts actconn/feconn/beconn/srv_conn/retries",
        out,
    )?;
    c.slashed(2, "the queues srv_queue/backend_queue", out)?;
    let request_headers = c.capture();
    let response_headers = request_headers.and_then(|_| c.capture());
    out.push(request_headers.unwrap_or(b"-"));
    out.push(response_headers.unwrap_or(b"-"));
    let rest = &line[c.at..];
    let Some(request) = rest.strip_prefix(b"\"") else {
        return Err(format!(
            "expected the quoted request line at column {}",
            c.at + 1
        ));
    };
    // The request line ends at a quote before a space (HAProxy writes a quote in it as #22)
    // or at the line's end; HAProxy cuts a long one, closing quote and all.
    let (request, after) = match memchr::memmem::find(request, b"\" ") {
        Some(i) => (&request[..i], &request[i + 2..]),
        None => (request.strip_suffix(b"\"").unwrap_or(request), &b""[..]),
    };
    let mut words = request.splitn(2, |&b| b == b' ');
    out.push(words.next().unwrap_or_default());
    let rest = words.next().unwrap_or_default();
    match memchr::memrchr(b' ', rest) {
        Some(i) if rest[i + 1..].starts_with(b"HTTP/") => {
            out.push(&rest[..i]);
            out.push(&rest[i + 1..]);
        }
        _ => {
            out.push(rest);
            out.push(b"");
        }
    }
    Ok(after)
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "haproxy",
    named: true,
    describe: "HAProxy `option httplog` (with or without syslog's prefix), or any `log-format`",
    detect: Some(Detect {
        order: 60,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Fitting,
    candidates: |_| vec![Box::new(Haproxy)],
    looks: Some(Looks {
        name: "HAProxy httplog",
        test: |l| {
            memchr::memmem::find(l, b"haproxy[").is_some()
                || memchr::memmem::find(l, b"/Tw/").is_some()
        },
    }),
    compile: Some(haproxy_compile),
    told: Some(Told {
        order: 20,
        is: super::haproxy_format::is_haproxy,
    }),
    flags: &[&FLAGS],
    samples: &[
        Sample {
            name: "httplog",
            lines: r#"Nov  1 10:00:01 lb1 haproxy[14389]: 10.0.1.2:33317 [01/Nov/2026:10:00:01.655] http-in api/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {api.example.com} {} "POST /v1/charges HTTP/1.1"
Nov  1 10:05:01 lb1 haproxy[14389]: 10.0.1.3:40112 [01/Nov/2026:10:05:01.002] http-in api/srv2 0/0/1/-1/30001 504 194 - - sH-- 3/3/1/1/0 0/0 {api.example.com} {} "POST /v1/charges HTTP/1.1""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:10:05:01.002"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/charges"),
                (Role::Status, "504"),
                (Role::Duration, "30001"),
                (Role::Flags, "sH--"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "httplog, no server reached",
            lines: r#"Nov  1 10:00:01 lb1 haproxy[14389]: 10.0.1.2:33317 [01/Nov/2026:10:00:01.655] http-in api/srv1 10/0/30/69/109 201 2750 - - ---- 1/1/1/1/0 0/0 {api.example.com} {} "POST /v1/charges HTTP/1.1"
Nov  1 10:06:01 lb1 haproxy[14389]: 10.0.1.4:40113 [01/Nov/2026:10:06:01.395] http-in api/<NOSRV> 0/-1/-1/-1/0 503 213 - - SC-- 1/1/0/0/0 0/0 {api.example.com} {} "POST /v1/charges HTTP/1.1""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:10:06:01.395"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/charges"),
                (Role::Status, "503"),
                (Role::Duration, "0"),
                (Role::Flags, "SC--"),
            ],
            gave_up: Some(false),
        },
    ],
};

fn haproxy_compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    if text.trim().is_empty() {
        Ok(Box::new(Haproxy))
    } else {
        super::haproxy_format::compile(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::formats::ColumnMap;

    fn fields(line: &str) -> Vec<String> {
        let mut out = Fields::default();
        split(line.as_bytes(), &mut out).unwrap();
        assert_eq!(out.len(), NAMES.len());
        (0..out.len())
            .map(|i| String::from_utf8_lossy(out.get(i).unwrap()).into_owned())
            .collect()
    }

    /// httplog with a captured key and `%ID` appended: detected, the fields named extra_N with
    /// no role; plain httplog refuses such a line instead of reading the rest into the path.
    #[test]
    fn appended_fields_are_read_but_never_guessed() {
        let line = br#"10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "POST /pay HTTP/1.1" "k 1" 0A1B"#;
        let mut out = Fields::default();
        assert!(Haproxy.split(line, &mut out).is_err());
        let f = sniff(&[line]).unwrap();
        assert_eq!(
            f.describe(),
            "HAProxy httplog with 2 more fields (extra_1, extra_2)"
        );
        let m = ColumnMap::for_format("h.log", f.as_ref(), &[], None).unwrap();
        assert_eq!(m.idempotency_key, None);
        let named = [(Role::IdempotencyKey, "extra_1".to_string())];
        let m = ColumnMap::for_format("h.log", f.as_ref(), &named, None).unwrap();
        out.clear();
        f.split(line, &mut out).unwrap();
        assert_eq!(out.get(m.idempotency_key.unwrap()), Some(&b"k 1"[..]));
        assert_eq!(out.get(m.path.unwrap()), Some(&b"/pay"[..]));
        assert_eq!(out.len(), NAMES.len() + 2);
    }

    /// Elastic's HAProxy sample: a host field between the server and the timers (and `-`
    /// for the client's address): passed over, the rest read as httplog's.
    #[test]
    fn a_host_field_before_the_timers() {
        let f = fields(
            r#"May 22 02:22:22 server1 haproxy[5089]: -:22222 [22/May/2021:02:22:22.222] www-https~ myapp/node2 site.domain.com 0/0/0/18/18 200 200 - - ---- 222/222/2/0/0 0/0 "OPTIONS /api/v2/app/ HTTP/1.1""#,
        );
        let get = |n: &str| f[NAMES.iter().position(|x| *x == n).unwrap()].as_str();
        assert_eq!(get("server_name"), "node2");
        assert_eq!(get("time_duration"), "18");
        assert_eq!(get("status_code"), "200");
        assert_eq!(get("http_method"), "OPTIONS");
        // A word with a slash there is no host field: the timers must follow the server.
        let mut out = Fields::default();
        let bad = br#"10.0.1.2:1 [22/May/2021:02:22:22.222] fe be/srv a/b 0/0/0/18/18 200 200 - - ---- 1/1/1/1/0 0/0 "GET / HTTP/1.1""#;
        assert!(Haproxy.split(bad, &mut out).is_err());
    }

    #[test]
    fn the_manuals_example_with_and_without_syslog() {
        let body = r#"10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1""#;
        let with = format!("Feb  6 12:14:14 localhost haproxy[14389]: {body}");
        let a = fields(body);
        assert_eq!(a, fields(&with));
        let get = |n: &str| a[NAMES.iter().position(|x| *x == n).unwrap()].clone();
        assert_eq!(get("client_ip"), "10.0.1.2");
        assert_eq!(get("accept_date"), "06/Feb/2009:12:14:14.655");
        assert_eq!(get("server_name"), "srv1");
        assert_eq!(get("time_duration"), "109");
        assert_eq!(get("termination_state"), "----");
        assert_eq!(get("retries"), "0");
        assert_eq!(get("captured_request_headers"), "1wt.eu");
        assert_eq!(get("http_method"), "GET");
        assert_eq!(get("http_request"), "/index.html");
    }

    /// HAProxy pads some fields: runs of spaces before the status (cerebro's sample) or
    /// between other fields read as one separator.
    #[test]
    fn padded_fields() {
        let padded = fields(
            r#"<30>Nov  1 10:00:05 haproxy[22021]: 10.0.0.7:55480 [01/Nov/2026:10:00:05.916] api~  be_http/srva 0/0/0/-1/30001    504 194 - -  sH-- 15/13/10/0/0 0/0  {k-1}  "PATCH /v1/orders/7 HTTP/1.1""#,
        );
        let get = |n: &str| padded[NAMES.iter().position(|x| *x == n).unwrap()].clone();
        assert_eq!(get("frontend_name"), "api~");
        assert_eq!(get("time_duration"), "30001");
        assert_eq!(get("status_code"), "504");
        assert_eq!(get("termination_state"), "sH--");
        assert_eq!(get("captured_request_headers"), "k-1");
        assert_eq!(get("http_method"), "PATCH");
        let single = fields(
            r#"<30>Nov  1 10:00:05 haproxy[22021]: 10.0.0.7:55480 [01/Nov/2026:10:00:05.916] api~ be_http/srva 0/0/0/-1/30001 504 194 - - sH-- 15/13/10/0/0 0/0 {k-1} "PATCH /v1/orders/7 HTTP/1.1""#,
        );
        assert_eq!(padded, single);
    }

    #[test]
    fn a_client_abort_without_captures() {
        let a = fields(
            r#"<134>1 2026-11-01T10:00:01Z lb haproxy 81 - - 192.168.1.9:50412 [01/Nov/2026:10:00:01.001] fe~ be/s2 0/0/1/-1/30002 -1 0 - - cD-- 3/3/1/1/+1 0/0 "POST /v1/charges HTTP/1.1""#,
        );
        let get = |n: &str| a[NAMES.iter().position(|x| *x == n).unwrap()].clone();
        assert_eq!(get("status_code"), "-1");
        assert_eq!(get("retries"), "+1");
        assert_eq!(get("captured_request_headers"), "-");
        assert_eq!(get("http_request"), "/v1/charges");
    }

    #[test]
    fn roles() {
        let m = ColumnMap::for_format("h.log", &Haproxy, &[], None).unwrap();
        assert_eq!(m.headers[m.method], "http_method");
        assert_eq!(m.headers[m.status], "status_code");
        assert_eq!(m.path.map(|i| m.headers[i].as_str()), Some("http_request"));
        assert_eq!(
            m.timestamp.map(|i| m.headers[i].as_str()),
            Some("accept_date")
        );
        assert_eq!(
            m.flags.map(|i| m.headers[i].as_str()),
            Some("termination_state")
        );
        assert_eq!(
            m.duration.map(|i| m.headers[i].as_str()),
            Some("time_duration")
        );
        assert_eq!(m.bytes.map(|i| m.headers[i].as_str()), Some("bytes_read"));
        assert_eq!(m.flags_style, FlagsStyle(&FLAGS));
        assert_eq!(m.duration_unit, DurationUnit::Millis);
    }

    #[test]
    fn not_haproxy() {
        let mut out = Fields::default();
        let err = split(
            b"1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] \"GET / HTTP/1.1\" 200 5",
            &mut out,
        )
        .unwrap_err();
        assert!(err.contains("expected"), "{err}");
    }
}
