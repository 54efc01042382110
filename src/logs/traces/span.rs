//! One span as the assembly needs it, whichever encoding it came in (OTLP/JSON, Zipkin v2),
//! and the HTTP semantic conventions' attributes read into it: both generations of names.
//!
//! A span's texts (method, path, key, peer) are [`CompactString`]s: held inline up to 24
//! bytes, so the spans of a file of short paths are read without an allocation each.

use compact_str::{CompactString, format_compact};

/// A span's kind, as far as the model cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    Client,
    Server,
    #[default]
    Other,
}

/// What one span says, kept until its trace is judged.
#[derive(Debug, Clone, Default)]
pub struct Span {
    pub trace: u128,
    pub id: u64,
    /// 0: a root span (no parent).
    pub parent: u64,
    pub kind: Kind,
    /// Start and end, nanoseconds since the epoch.
    pub start: i64,
    pub end: i64,
    /// `http.request.method` / `http.method`, upper-case: see [`Span::method`].
    pub method: Method,
    /// `http.response.status_code` / `http.status_code`.
    pub status: Option<u16>,
    /// The request's path: `url.path` / `http.target`, or the path of `url.full` /
    /// `http.url`.
    pub path: Option<CompactString>,
    /// `error.type`, or a recorded exception's `exception.type`, names a timeout.
    pub timeout_named: bool,
    /// Whom a client span called: `server.address:server.port` (`net.peer.name:port`), or
    /// the host of its URL.
    pub peer: Option<CompactString>,
    /// What few spans say (none said: `None`).
    pub rare: Option<Box<Rare>>,
    /// Zipkin's `shared`: the server half of a call whose client half has the same id.
    pub shared: bool,
    /// An error was recorded (`error`, `otel.status_code` `ERROR`, an OTLP status of error).
    pub error: bool,
    /// An HTTP attribute was read (method, path, URL or status).
    pub http: bool,
    /// The span says how long it lasted (Zipkin's `duration`; OTLP's end time).
    pub finished: bool,
    /// Its encoding writes a status only when it is not 2xx (Zipkin v2, after Brave).
    pub status_if_not_2xx: bool,
}

/// What few spans say, held apart: a span is moved several times on its way to its trace's
/// judging (from the parser, into its trace, across threads), and every byte of it is moved
/// each time, so a span is kept to two cache lines.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rare {
    /// `http.request.resend_count`.
    pub resend: Option<u32>,
    /// A captured `http.request.header.idempotency-key`.
    pub key: Option<CompactString>,
    /// The share of traces head sampling kept, from `tracestate`'s `ot=th:`.
    pub kept: Option<f64>,
    /// Where the span was recorded (a hash of Zipkin's `localEndpoint`; 0 when not said):
    /// parts of one span reported apart share it.
    pub local: u64,
    /// A method none of [`METHODS`] (a WebDAV one, a proxy's `PURGE`), upper-case.
    pub method: Option<CompactString>,
}

/// The methods a span's [`Method`] holds by their index.
pub const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE",
];

/// A span's method in two bytes: one of [`METHODS`], or another one (its text in the span's
/// [`Rare`] values), or none said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    #[default]
    Unsaid,
    Known(u8),
    Other,
}

impl Span {
    /// `http.request.method` / `http.method`, upper-case.
    pub fn method(&self) -> Option<&str> {
        match self.method {
            Method::Unsaid => None,
            Method::Known(i) => METHODS.get(usize::from(i)).copied(),
            Method::Other => self.rare.as_ref().and_then(|r| r.method.as_deref()),
        }
    }

    pub fn resend(&self) -> Option<u32> {
        self.rare.as_ref().and_then(|r| r.resend)
    }

    pub fn key(&self) -> Option<&CompactString> {
        self.rare.as_ref().and_then(|r| r.key.as_ref())
    }

    pub fn kept(&self) -> Option<f64> {
        self.rare.as_ref().and_then(|r| r.kept)
    }

    pub fn local(&self) -> u64 {
        self.rare.as_ref().map_or(0, |r| r.local)
    }

    /// Its rare values, made if none were said.
    pub fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }
}

/// The attributes a span is read by, each under the names it has had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attribute {
    Method,
    Status,
    Url,
    Path,
    ErrorType,
    ErrorMessage,
    StatusCode,
    Resend,
    Key,
    Host,
    Port,
}

impl Attribute {
    fn of(key: &str) -> Option<Attribute> {
        Some(match key {
            "http.request.method" | "http.method" => Attribute::Method,
            "http.response.status_code" | "http.status_code" => Attribute::Status,
            "url.full" | "http.url" => Attribute::Url,
            // `http.path`: Brave's (Zipkin) name of the path.
            "url.path" | "http.target" | "http.path" => Attribute::Path,
            "error.type" => Attribute::ErrorType,
            // Zipkin's `error` tag holds the message (Brave: the exception's message, or the
            // status; OpenTelemetry's Zipkin exporter: the status description);
            // `otel.status_description` is that exporter's description of an error status.
            "error" | "otel.status_description" => Attribute::ErrorMessage,
            "otel.status_code" => Attribute::StatusCode,
            "http.request.resend_count" => Attribute::Resend,
            "http.request.header.idempotency-key" | "http.request.header.idempotency_key" => {
                Attribute::Key
            }
            "server.address" | "net.peer.name" => Attribute::Host,
            "server.port" | "net.peer.port" => Attribute::Port,
            _ => return None,
        })
    }
}

/// Whether [`Reading::attribute`] reads an attribute of this name (the others can be skipped
/// unread).
pub fn reads(key: &str) -> bool {
    Attribute::of(key).is_some()
}

/// Whether [`Reading::event_attribute`] reads an event's attribute of this name.
pub fn event_reads(key: &str) -> bool {
    key == EXCEPTION_TYPE
}

const EXCEPTION_TYPE: &str = "exception.type";

/// Where a span's attributes put the peer's host and port until the span is finished.
#[derive(Debug, Default)]
pub struct Reading {
    pub span: Span,
    /// The span's rare values until it is finished (a box only for a span that has one).
    pub rare: Rare,
    host: Option<CompactString>,
    port: Option<CompactString>,
    url_host: Option<CompactString>,
    remote: Option<CompactString>,
}

impl Reading {
    /// One attribute, by its semantic-conventions name, with its value as text.
    pub fn attribute(&mut self, key: &str, value: &str) {
        let Some(attribute) = Attribute::of(key) else {
            return;
        };
        let s = &mut self.span;
        match attribute {
            Attribute::Method => {
                let mut method = CompactString::new(value.trim());
                method.make_ascii_uppercase();
                self.set_method(&method);
            }
            Attribute::Status => {
                s.status = value.trim().parse().ok().filter(|&v: &u16| v < 1000);
                s.http = true;
            }
            Attribute::Url => {
                let (host, path) = split_url(value);
                if s.path.is_none() {
                    s.path = Some(path.into());
                }
                self.url_host = host.map(CompactString::new);
                s.http = true;
            }
            Attribute::Path => {
                s.path = Some(value.into());
                s.http = true;
            }
            Attribute::ErrorType => s.timeout_named |= names_timeout(value),
            Attribute::ErrorMessage => {
                s.error = true;
                s.timeout_named |= names_timeout(value);
            }
            Attribute::StatusCode => s.error |= value.trim().eq_ignore_ascii_case("error"),
            Attribute::Resend => self.rare.resend = value.trim().parse().ok(),
            Attribute::Key => {
                let v = value.trim();
                if !v.is_empty() {
                    self.rare.key = Some(v.into());
                }
            }
            Attribute::Host => self.host = Some(value.into()),
            Attribute::Port => self.port = Some(value.into()),
        }
    }

    /// The span's method, upper-case; an HTTP span's.
    pub fn set_method(&mut self, upper: &str) {
        match METHODS.iter().position(|m| *m == upper) {
            Some(i) => {
                self.span.method = Method::Known(i as u8);
                self.rare.method = None;
            }
            None => {
                self.span.method = Method::Other;
                self.rare.method = Some(upper.into());
            }
        }
        self.span.http = true;
    }

    /// An event recorded on the span: an exception's type may name a timeout.
    pub fn event_attribute(&mut self, event: &str, key: &str, value: &str) {
        if event == "exception" && key == EXCEPTION_TYPE {
            self.span.timeout_named |= names_timeout(value);
        }
    }

    /// An OTLP span's status: its code (2: error) and message, which may name a timeout.
    pub fn status(&mut self, code: &str, message: &str) {
        let code = code.trim();
        if code == "2" || code == "STATUS_CODE_ERROR" {
            self.span.error = true;
            self.span.timeout_named |= names_timeout(message);
        }
    }

    /// Whom a client span called, when no attribute says it (Zipkin's `remoteEndpoint`).
    pub fn remote(&mut self, host: &str, port: Option<&str>) {
        if !host.is_empty() {
            self.remote = Some(match port.filter(|p| !p.is_empty()) {
                Some(p) => format_compact!("{host}:{p}"),
                None => host.into(),
            });
        }
    }

    /// `tracestate`: the sampling threshold of `ot=th:`.
    pub fn trace_state(&mut self, state: &str) {
        self.rare.kept = kept_share(state);
    }

    pub fn finish(mut self) -> Span {
        self.span.peer = match (self.host, self.port) {
            (Some(h), Some(p)) => Some(format_compact!("{h}:{p}")),
            (Some(h), None) => Some(h),
            (None, _) => self.url_host.or(self.remote),
        };
        if self.rare != Rare::default() {
            self.span.rare = Some(Box::new(self.rare));
        }
        self.span
    }
}

/// `error.type` or an exception's type names a timeout: `timeout` (the conventions' own
/// example), `requests.exceptions.ReadTimeout`, `httpx.ReadTimeout`, `TimeoutError`,
/// `java.net.SocketTimeoutException`, `context deadline exceeded`, `DEADLINE_EXCEEDED`,
/// Node's `ETIMEDOUT` and `ESOCKETTIMEDOUT`.
pub fn names_timeout(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["timeout", "timed out", "timedout", "deadline"]
        .iter()
        .any(|t| lower.contains(t))
}

/// A URL's host (with its port) and its path with the query: `https://h:8443/a?b` ->
/// (`h:8443`, `/a?b`); a URL without scheme is taken as a path.
fn split_url(url: &str) -> (Option<&str>, &str) {
    let Some(i) = url.find("://") else {
        return (None, url);
    };
    let rest = &url[i + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    // Credentials are no part of the host.
    let host = host.rsplit('@').next().unwrap_or(host);
    let path = &rest[end..];
    (Some(host), if path.is_empty() { "/" } else { path })
}

/// The share of traces kept by head sampling, from a W3C `tracestate`'s OpenTelemetry entry
/// (`ot=th:c;rv:...`): `th` is the rejection threshold, up to 14 hex digits of a 56-bit
/// number (trailing zeros dropped), so the kept share is 1 - th / 2^56 (`th:0` keeps all,
/// `th:8` half, `th:c` a quarter). `None` without a valid `th`.
pub fn kept_share(state: &str) -> Option<f64> {
    let ot = state
        .split(',')
        .find_map(|m| m.trim().strip_prefix("ot="))?;
    let th = ot.split(';').find_map(|kv| kv.strip_prefix("th:"))?;
    if th.is_empty() || th.len() > 14 || !th.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let padded = format!("{th:0<14}");
    let t = u64::from_str_radix(&padded, 16).ok()?;
    Some(1.0 - t as f64 / (1u64 << 56) as f64)
}

/// A trace id: 32 hex digits (OTLP/JSON), 16 (Zipkin's 64-bit ids), or base64 of 16 bytes
/// (the protobuf JSON mapping, as Tempo's API writes it).
pub fn trace_id(text: &str) -> Option<u128> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if t.len() <= 32 {
        let (high, low) = t.as_bytes().split_at(t.len().saturating_sub(16));
        if let (Some(high), Some(low)) = (hex(high), hex(low)) {
            return Some(u128::from(high) << 64 | u128::from(low));
        }
    }
    let bytes = base64_bytes(t)?;
    Some(
        bytes
            .iter()
            .fold(0u128, |acc, &b| (acc << 8) | u128::from(b)),
    )
    .filter(|_| bytes.len() == 16)
}

/// A span id: 16 hex digits, or base64 of 8 bytes. `Some(0)` for an empty one (no parent).
pub fn span_id(text: &str) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() {
        return Some(0);
    }
    if t.len() <= 16
        && let Some(id) = hex(t.as_bytes())
    {
        return Some(id);
    }
    let bytes = base64_bytes(t)?;
    Some(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))).filter(|_| bytes.len() == 8)
}

/// The value of up to 16 hex digits (none: 0); `None` if any is no hex digit. By a table,
/// not by branches: ids' digits are random, and a branch on each was mispredicted half the
/// time.
fn hex(digits: &[u8]) -> Option<u64> {
    debug_assert!(digits.len() <= 16);
    let mut value = 0u64;
    let mut bad = 0u8;
    for &b in digits {
        let d = HEX_DIGIT[usize::from(b)];
        bad |= d;
        value = value << 4 | u64::from(d & 0xf);
    }
    (bad & 0x10 == 0).then_some(value)
}

/// Each byte's value as a hex digit, or 0x10 for a byte that is none.
static HEX_DIGIT: [u8; 256] = {
    let mut table = [0x10u8; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

fn base64_bytes(t: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(t).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A span is moved several times on its way to its trace's judging: its rare values are
    /// boxed to keep it small (see [`Rare`]).
    #[test]
    fn a_span_is_small_to_move() {
        let size = std::mem::size_of::<Span>();
        assert!(size <= 128, "{size}");
    }

    /// A common method is a code and boxes nothing; any other keeps its text, boxed; a later
    /// method attribute replaces an earlier one either way.
    #[test]
    fn methods_by_code_and_by_text() {
        let read = |methods: &[&str]| {
            let mut r = Reading::default();
            for m in methods {
                r.attribute("http.request.method", m);
            }
            r.finish()
        };
        let post = read(&[" post "]);
        assert_eq!(
            (post.method(), post.rare.is_none(), post.http),
            (Some("POST"), true, true)
        );
        let purge = read(&["purge"]);
        assert_eq!(
            (purge.method(), purge.rare.is_some()),
            (Some("PURGE"), true)
        );
        assert_eq!(read(&["purge", "PUT"]).method(), Some("PUT"));
        assert_eq!(read(&["GET", "Propfind"]).method(), Some("PROPFIND"));
        assert_eq!(read(&[]).method(), None);
        for (i, m) in METHODS.iter().enumerate() {
            assert_eq!(read(&[m]).method, Method::Known(i as u8));
        }
    }

    #[test]
    fn sampling_thresholds_as_the_spec_gives_them() {
        assert_eq!(kept_share("ot=th:0"), Some(1.0));
        assert_eq!(kept_share("ot=th:8"), Some(0.5));
        assert_eq!(kept_share("ot=th:c"), Some(0.25));
        assert_eq!(kept_share("vendor=x,ot=rv:abc;th:c"), Some(0.25));
        assert_eq!(
            kept_share("ot=th:fd70a4"),
            Some(1.0 - 0xfd70a4 as f64 / 16_777_216.0)
        );
        assert_eq!(kept_share("ot=rv:abcdef"), None);
        assert_eq!(kept_share("ot=th:xyz"), None);
        assert_eq!(kept_share(""), None);
    }

    #[test]
    fn ids_in_hex_and_base64() {
        assert_eq!(
            trace_id("5b8efff798038103d269b633813fc60c"),
            Some(0x5b8efff798038103d269b633813fc60c)
        );
        assert_eq!(
            trace_id("AAAAAAAAAABRtRrRD1zE7g=="),
            Some(0x51b51ad10f5cc4ee)
        );
        assert_eq!(span_id("eee19b7ec3c1b174"), Some(0xeee19b7ec3c1b174));
        assert_eq!(span_id(""), Some(0));
        assert_eq!(span_id("not an id"), None);
        assert_eq!(span_id("EEE19B7EC3C1B17g"), None);
        assert_eq!(span_id("0EE19B7EC3C1B174"), Some(0x0ee19b7ec3c1b174));
        assert_eq!(trace_id("1"), Some(1));
        assert_eq!(
            trace_id("ffffffffffffffffffffffffffffffff"),
            Some(u128::MAX)
        );
        assert_eq!(trace_id("ffffffffffffffffffffffffffffffff0"), None);
        assert_eq!(trace_id("1ffffffffffffffff"), Some(0x1ffffffffffffffff));
    }

    #[test]
    fn timeouts_named() {
        for t in [
            "timeout",
            "requests.exceptions.ReadTimeout",
            "httpx.ReadTimeout",
            "java.net.SocketTimeoutException",
            "context deadline exceeded",
            "Error: connect ETIMEDOUT 10.0.0.2:8080",
            "ESOCKETTIMEDOUT",
        ] {
            assert!(names_timeout(t), "{t}");
        }
        for t in ["500", "requests.exceptions.ConnectionError", "_OTHER"] {
            assert!(!names_timeout(t), "{t}");
        }
    }

    #[test]
    fn urls_split() {
        assert_eq!(
            split_url("http://127.0.0.1:8080/orders/7?x=1"),
            (Some("127.0.0.1:8080"), "/orders/7?x=1")
        );
        assert_eq!(split_url("https://u:p@h"), (Some("h"), "/"));
        assert_eq!(split_url("/a"), (None, "/a"));
    }
}
