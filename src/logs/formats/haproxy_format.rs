//! HAProxy `log-format` strings, as written in haproxy.cfg (`log-format "%ci:%cp [%tr] ..."`,
//! spaces escaped as `\ ` or the whole string quoted), read by the template engine.
//!
//! Each alias gives a field named as the `option httplog` reader names it (`%ci` →
//! `client_ip`, `%tr` → `accept_date`, `%TR/%Tw/%Tc/%Tr/%Ta` → `time_request` ...
//! `time_duration`, `%ST` → `status_code`, `%tsc`/`%ts` → `termination_state`, `%rc` →
//! `retries`, `%ID` → `unique_id`), so the same roles follow; `%{+Q}r` is the quoted request
//! line (method, path, protocol); `%HM`, `%HU`/`%HP` the method and path alone; `%Ts.%ms` one
//! epoch timestamp; `%hr` and `%hs` the captured header blocks `{a|b}`; a sample fetch
//! `%[req.hdr(Idempotency-Key)]` is named after its header (so a logged key or request id
//! becomes its role) and `%[capture.req.hdr(N)]` is `captured_request_header_N`. An alias
//! dupcost does not know is read under its own name. Lines written through syslog keep
//! their prefix (`Feb  6 12:14:14 host haproxy[123]: `); it is read off.

use std::sync::Arc;

use super::template::{Compiled, Family, Item, Kind, Var};
use super::{
    DurationUnit, Fields, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps, LineFormat,
};
use crate::logs::role::Role;

/// HAProxy's `termination_state` (httplog's, and a `log-format`'s `%tsc`): a first letter
/// `c`/`C` (the client side ended it) or `s`/`S` (the server timed out or aborted) is a
/// give-up, but for `sC`, `SC`, `sQ`, `SQ`: the server refused the connection or was never
/// reached (a connect or queue timeout, `<NOSRV>`), so no server got the request and HAProxy
/// answered the client itself (503): nothing ran that may have succeeded (HAProxy's
/// configuration manual, 8.5 "Session state at disconnection": at `C` the server "might at
/// most have noticed a connection attempt", at `Q` no connection was made).
pub static FLAGS: Flags = Flags {
    name: "haproxy",
    field: "termination state",
    give_ups: GiveUps {
        matching: GiveUpMatch::FirstLetter {
            except: &["sC", "SC", "sQ", "SQ"],
        },
        codes: &["c", "C", "s", "S"],
    },
    named_by: |n| n.contains("termination") || n == "tsc",
    empty_status_is_zero: false,
    no_request: None,
};

/// HAProxy's documented HTTP log format (what `option httplog` writes), as a log-format.
pub const HTTPLOG: &str = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r";

/// The presets: name, body, description.
pub const PRESETS: [(&str, &str, &str); 1] = [("httplog", HTTPLOG, "HAProxy log-format (httplog)")];

/// A `--log-format` that is HAProxy's: it has one of HAProxy's own aliases.
pub fn is_haproxy(text: &str) -> bool {
    let t = text.trim();
    t == "httplog"
        || [
            "%ci", "%cp", "%tr", "%ft", "%ST", "%tsc", "%TR", "%Tw", "%Ta", "%hr", "%{+Q}r", "%Ts",
            "%HM", "%HU", "%[",
        ]
        .iter()
        .any(|a| t.contains(a))
}

/// The field name of an alias.
fn alias_name(alias: &str, has_ta: bool) -> Option<&'static str> {
    Some(match alias {
        "ci" => "client_ip",
        "cp" => "client_port",
        "tr" | "t" | "trg" | "trl" | "T" | "tl" => "accept_date",
        "ft" => "frontend_name_transport",
        "f" => "frontend_name",
        "b" => "backend_name",
        "s" => "server_name",
        "si" => "server_ip",
        "sp" => "server_port",
        "fi" => "frontend_ip",
        "fp" => "frontend_port",
        "TR" | "Tq" => "time_request",
        "Tw" => "time_queue",
        "Tc" => "time_backend_connect",
        "Tr" => "time_backend_response",
        "Ta" => "time_duration",
        "Tt" if has_ta => "time_total",
        "Tt" => "time_duration",
        "Th" => "time_handshake",
        "Ti" => "time_idle",
        "Td" => "time_data",
        "ST" => "status_code",
        "B" => "bytes_read",
        "U" => "bytes_uploaded",
        "CC" => "captured_request_cookie",
        "CS" => "captured_response_cookie",
        "ts" | "tsc" => "termination_state",
        "ac" => "actconn",
        "fc" => "feconn",
        "bc" => "beconn",
        "sc" => "srv_conn",
        "rc" => "retries",
        "sq" => "srv_queue",
        "bq" => "backend_queue",
        "hr" | "hrl" => "captured_request_headers",
        "hs" | "hsl" => "captured_response_headers",
        "ID" => "unique_id",
        "HM" => "http_method",
        "HU" | "HP" | "HPO" => "http_request",
        "HV" => "http_version",
        "H" => "hostname",
        "pid" => "pid",
        "Ts" => "timestamp",
        "ms" => "accept_date_ms",
        _ => return None,
    })
}

/// The items of a log-format body (unescaped: `\ ` is a space, `\"` a quote).
fn items(body: &str) -> Result<Vec<Item>, String> {
    let has_ta = body.contains("%Ta");
    let mut items = Vec::new();
    let mut lit: Vec<u8> = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    let flush = |lit: &mut Vec<u8>, items: &mut Vec<Item>| {
        if !lit.is_empty() {
            items.push(Item::Lit(std::mem::take(lit)));
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() => {
                lit.push(bytes[i + 1]);
                i += 2;
            }
            b'%' if bytes.get(i + 1) == Some(&b'%') => {
                lit.push(b'%');
                i += 2;
            }
            b'%' => {
                let at = i + 1;
                i += 1;
                // Options: `%{+Q}r`, `%{-Q,+E}ci`.
                let mut quoted = false;
                if bytes.get(i) == Some(&b'{') {
                    let close = body[i..]
                        .find('}')
                        .ok_or_else(|| format!("'{{' at column {} is not closed", i + 1))?;
                    quoted = body[i + 1..i + close].split(',').any(|o| o == "+Q");
                    i += close + 1;
                }
                let name: String = if bytes.get(i) == Some(&b'[') {
                    // A sample fetch: `%[req.hdr(Idempotency-Key)]`, `%[capture.req.hdr(0)]`.
                    let close = body[i..]
                        .find(']')
                        .ok_or_else(|| format!("'[' at column {} is not closed", i + 1))?;
                    let fetch = &body[i + 1..i + close];
                    i += close + 1;
                    fetch_name(fetch)
                } else {
                    let start = i;
                    while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    let alias = &body[start..i];
                    if alias.is_empty() {
                        return Err(format!("'%' at column {at} names no alias"));
                    }
                    if alias == "Ts" && body[i..].starts_with(".%ms") {
                        // `%Ts.%ms`: one epoch timestamp with its milliseconds.
                        i += 4;
                    }
                    match alias {
                        "r" => {
                            flush(&mut lit, &mut items);
                            if quoted {
                                items.push(Item::Lit(b"\"".to_vec()));
                            }
                            items.push(Item::Var(Var {
                                name: "request".into(),
                                kind: Kind::Request,
                            }));
                            if quoted {
                                lit.push(b'"');
                            }
                            continue;
                        }
                        "hr" | "hs" => {
                            // `{a|b}`: the block, its braces literal.
                            lit.push(b'{');
                            flush(&mut lit, &mut items);
                            items.push(Item::Var(Var::plain(
                                alias_name(alias, has_ta).unwrap_or(alias),
                            )));
                            lit.push(b'}');
                            continue;
                        }
                        _ => alias_name(alias, has_ta)
                            .map_or_else(|| format!("haproxy_{alias}"), str::to_string),
                    }
                };
                if quoted {
                    lit.push(b'"');
                }
                flush(&mut lit, &mut items);
                items.push(Item::Var(Var::plain(name)));
                if quoted {
                    lit.push(b'"');
                }
            }
            b => {
                lit.push(b);
                i += 1;
            }
        }
    }
    flush(&mut lit, &mut items);
    Ok(items)
}

/// A sample fetch's field name: a request header by its name, a capture slot by number.
fn fetch_name(fetch: &str) -> String {
    let fetch = fetch.split(',').next().unwrap_or(fetch).trim();
    let arg = |prefix: &str| {
        fetch
            .strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(')'))
            .map(str::to_string)
    };
    if let Some(n) = arg("capture.req.hdr(") {
        format!("captured_request_header_{n}")
    } else if let Some(n) = arg("capture.res.hdr(") {
        format!("captured_response_header_{n}")
    } else if let Some(h) = arg("req.hdr(").or_else(|| arg("req.fhdr(")) {
        h
    } else {
        fetch.to_string()
    }
}

static FAMILY: Family = Family {
    presets: &PRESETS,
    items,
    hints: || FormatHints {
        duration_unit: Some(DurationUnit::Millis),
        flags_style: Some(FlagsStyle(&FLAGS)),
        columns: Vec::new(),
        notes: vec![crate::logs::FormatNote::UtcAcceptDate],
    },
    custom: "HAProxy log-format",
    appended: (&[], ""),
    compiled: Compiled::new(),
};

/// A log-format line, with the syslog prefix read off when it has one.
#[derive(Debug)]
struct LogFormat {
    inner: Box<dyn LineFormat>,
}

/// Where the message starts after a syslog prefix (`... haproxy[123]: `), if there is one.
fn after_syslog(line: &[u8]) -> usize {
    let head = &line[..line.len().min(128)];
    memchr::memmem::find(head, b"]: ")
        .filter(|&i| memchr::memmem::rfind(&head[..i], b"[").is_some())
        .filter(|_| {
            line.first()
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'<')
        })
        .map_or(0, |i| i + 3)
}

impl LineFormat for LogFormat {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn names(&self) -> Vec<String> {
        self.inner.names()
    }

    fn hints(&self) -> FormatHints {
        let mut hints = self.inner.hints();
        // `%B`: the bytes sent to the client, as the httplog reader reads them.
        if self.inner.names().iter().any(|n| n == "bytes_read") {
            hints.columns.push((Role::Bytes, "bytes_read".into()));
        }
        hints
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.inner.split(&line[after_syslog(line)..], out)
    }
}

/// A format whose `captured_request_headers` block (`{a|b}`) is also split into one field
/// per captured header, named as `--haproxy-captures` names them.
#[derive(Debug)]
struct Captures {
    inner: Arc<dyn LineFormat>,
    block: usize,
    names: Vec<String>,
}

/// `format` with its captured request headers named; an error when it has no such block.
pub fn with_captures(
    format: Arc<dyn LineFormat>,
    names: &[String],
) -> Result<Arc<dyn LineFormat>, String> {
    let block = format
        .names()
        .iter()
        .position(|n| n == "captured_request_headers")
        .ok_or_else(|| {
            format!(
                "its format ({}) has no captured request headers block ({{...}}, %hr)",
                format.describe()
            )
        })?;
    let names = names.iter().map(|n| n.trim().to_string()).collect();
    Ok(Arc::new(Captures {
        inner: format,
        block,
        names,
    }))
}

impl LineFormat for Captures {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn names(&self) -> Vec<String> {
        let mut names = self.inner.names();
        names.extend(self.names.iter().cloned());
        names
    }

    fn hints(&self) -> FormatHints {
        self.inner.hints()
    }

    fn skip(&self, line: &[u8]) -> bool {
        self.inner.skip(line)
    }

    fn stateful(&self) -> bool {
        self.inner.stateful()
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.inner.split(line, out)?;
        if out.len() == 1 && out.data.is_empty() {
            return Ok(()); // no row
        }
        let (start, end) = match self.block {
            0 => (0, out.ends[0]),
            i => (out.ends[i - 1], out.ends[i]),
        };
        let block = out.data[start..end].to_vec();
        let block: &[u8] = if block == b"-" { b"" } else { &block };
        let mut values = block.split(|&b| b == b'|');
        for _ in &self.names {
            let v = values.next().unwrap_or_default();
            out.push(v);
        }
        Ok(())
    }
}

/// A preset's name (`httplog`) or a log-format string as in haproxy.cfg, compiled.
pub fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    let inner = FAMILY.compile(text, unwrap_cfg)?;
    Ok(Box::new(LogFormat { inner }))
}

/// The format string of a `log-format` line as haproxy.cfg holds it: the keyword, its
/// indentation and a comment after it dropped, the string inside its double or single
/// quotes, and lines continued with a backslash (as HAProxy's manual prints its long
/// formats) joined. A bare string (spaces escaped as `\ `) is kept as it is.
fn unwrap_cfg(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let line = if joined.is_empty() {
            line
        } else {
            line.trim_start()
        };
        match line.trim_end().strip_suffix('\\') {
            Some(head) if lines.peek().is_some() => joined.push_str(head),
            _ => joined.push_str(line),
        }
    }
    let t = joined.trim();
    let t = t
        .strip_prefix("log-format")
        .filter(|rest| rest.starts_with([' ', '\t']))
        .map_or(t, str::trim);
    for quote in ['"', '\''] {
        if let Some(inner) = t.strip_prefix(quote) {
            // Up to the last quote: a comment may follow it.
            if let Some(end) = inner.rfind(quote) {
                return inner[..end].to_string();
            }
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{field, fields};
    use super::*;

    const LINE: &[u8] = b"Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 504 2750 - - sH-- 1/1/1/1/0 0/0 {k-1|1wt.eu} {} \"POST /v1/pay HTTP/1.1\"";

    #[test]
    fn the_documented_http_format() {
        let f = compile(HTTPLOG).unwrap();
        assert_eq!(f.describe(), "HAProxy log-format (httplog)");
        let v = fields(f.as_ref(), LINE).unwrap();
        let g = |n| field(f.as_ref(), &v, n);
        assert_eq!(g("client_ip"), "10.0.1.2");
        assert_eq!(g("accept_date"), "06/Feb/2009:12:14:14.655");
        assert_eq!(g("time_duration"), "109");
        assert_eq!(g("status_code"), "504");
        assert_eq!(g("termination_state"), "sH--");
        assert_eq!(g("captured_request_headers"), "k-1|1wt.eu");
        assert_eq!(g("request_method"), "POST");
        assert_eq!(g("request_uri"), "/v1/pay");
    }

    #[test]
    fn haproxy_cfg_lines_as_written() {
        let want = compile(HTTPLOG).unwrap();
        let mut want_fields = Fields::default();
        want.split(LINE, &mut want_fields).unwrap();
        // The manual's default HTTP format, as its section 8.2.3 prints it (continued with a
        // backslash), indented as in a `defaults` section, single-quoted, with a comment.
        let cfgs = [
            "    log-format \"%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC \\\n                %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r\"",
            "\tlog-format '%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r'",
            "log-format \"%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r\" # as httplog",
        ];
        for cfg in cfgs {
            let f = compile(cfg).unwrap_or_else(|e| panic!("{cfg}: {e}"));
            let mut got = Fields::default();
            f.split(LINE, &mut got)
                .unwrap_or_else(|e| panic!("{cfg}: {e}"));
            assert_eq!(got, want_fields, "{cfg}");
            assert_eq!(f.names(), want.names(), "{cfg}");
        }
    }

    #[test]
    fn as_written_in_haproxy_cfg() {
        let cfg = r#"log-format "%ci:%cp\ [%tr]\ %ft\ %b/%s\ %TR/%Tw/%Tc/%Tr/%Ta\ %ST\ %B\ %tsc\ %ID\ %[req.hdr(Idempotency-Key)]\ %Ts.%ms\ %{+Q}r""#;
        let f = compile(cfg).unwrap();
        assert_eq!(f.describe(), "HAProxy log-format");
        let line = b"10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in~ api/srv1 0/0/1/30000/30001 504 0 sH-- 7f3a-1 k-9 1234567890.655 \"POST /v1/pay HTTP/1.1\"";
        let v = fields(f.as_ref(), line).unwrap();
        let g = |n| field(f.as_ref(), &v, n);
        assert_eq!(g("unique_id"), "7f3a-1");
        assert_eq!(g("Idempotency-Key"), "k-9");
        assert_eq!(g("timestamp"), "1234567890.655");
        assert_eq!(g("frontend_name_transport"), "http-in~");
        assert!(is_haproxy(cfg));
        assert!(!is_haproxy(r#"%h %l %u %t "%r" %>s %b"#));
        assert!(compile("%ci %{+Q").is_err());
    }
}
