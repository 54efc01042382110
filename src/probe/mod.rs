//! `dupcost probe`: does an endpoint's idempotency really hold?
//!
//! The contract checked is the IETF httpapi draft "The Idempotency-Key HTTP Header Field": a
//! required key missing gives 400, a key whose first request is still in flight gives 409, a
//! key reused with another payload gives 422, and otherwise the first response is replayed.
//! Each check sends real requests with a fresh random key (`docs/MODEL.md`, "`dupcost probe`"):
//!
//! * `replay`: one key, twice in sequence;
//! * `concurrent`: `concurrency` requests with one key released together by a barrier, one
//!   connection each, `rounds` times;
//! * `payload_mismatch`: one key, then the same key with a changed body;
//! * `missing_key`: no key at all.
//!
//! The rooms: `target` parses the URL and tells loopback from the rest; [`judge`] decides
//! from the answers alone whether a request executed (pure); `checks` sends and judges the
//! four checks through a [`Transport`]; `client` is the real transport (ureq, blocking, one
//! agent and so one connection a request, no redirects followed); [`crate::report::words::probe`] renders the
//! result as table, JSON or markdown, pure functions to bytes.
//!
//! Safety is in two places: the command asks on a terminal and refuses a host that is not
//! loopback without `--yes` (`commands::probe`), and [`Budget`] refuses any request beyond
//! [`MAX_REQUESTS`] whatever the flags say.

mod checks;
mod client;
pub mod judge;
mod target;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

pub use checks::{CHECKS, run};
pub use client::Http;
pub use target::Target;

/// The most requests one run may send, whatever `--concurrency` and `--rounds` say.
pub const MAX_REQUESTS: usize = 500;

/// The most bytes of an answer's body kept for judging.
pub const MAX_BODY: u64 = 1 << 20;

/// What the probe sends: everything but the key, which each check makes fresh.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: ureq::http::Method,
    pub target: Target,
    /// Headers sent with every request, as given (`Name`, `value`).
    pub headers: Vec<(ureq::http::HeaderName, ureq::http::HeaderValue)>,
    pub body: Vec<u8>,
    /// The body `payload_mismatch` sends the second time, or why none could be made.
    pub changed_body: Result<Vec<u8>, String>,
    /// The header that carries the key (`Idempotency-Key`).
    pub key_header: ureq::http::HeaderName,
    /// The key header as the user spelled it, for messages (a `HeaderName` is lower case).
    pub key_header_label: String,
}

/// How hard and how long to probe.
#[derive(Debug, Clone)]
pub struct Options {
    /// Requests released together by one key in `concurrent`.
    pub concurrency: usize,
    /// Rounds of `concurrent`, each with a fresh key.
    pub rounds: usize,
    /// The longest wait for one answer.
    pub timeout: Duration,
    /// A JSON pointer to the created resource's id in a 2xx body (`/id`, `/data/order/id`).
    pub id_pointer: Option<String>,
    /// Do not verify the server's TLS certificate (`--insecure`).
    pub insecure: bool,
}

/// What the probe will send, counted per check, before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// `(check, requests)` in the order they run.
    pub per_check: Vec<(&'static str, usize)>,
}

impl Plan {
    /// The requests of `options`' checks.
    pub fn new(options: &Options, request: &Request) -> Plan {
        let mismatch = if request.changed_body.is_ok() { 2 } else { 0 };
        Plan {
            per_check: vec![
                ("replay", 2),
                ("concurrent", options.concurrency * options.rounds),
                ("payload_mismatch", mismatch),
                ("missing_key", 1),
            ],
        }
    }

    /// Every request of the run.
    pub fn total(&self) -> usize {
        self.per_check.iter().map(|(_, n)| n).sum()
    }
}

/// One answer, as the judge needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The server answered (any status: 4xx and 5xx are answers too).
    Response {
        status: u16,
        /// The `Location` header, if any.
        location: Option<String>,
        /// The body, up to [`MAX_BODY`] bytes.
        body: Vec<u8>,
    },
    /// No answer: the connection failed or timed out (the message says which).
    Failed(String),
}

impl Answer {
    /// The status, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Answer::Response { status, .. } => Some(*status),
            Answer::Failed(_) => None,
        }
    }
}

/// A request made ready to go: calling it sends it and waits for the answer.
pub type Ready<'a> = Box<dyn FnOnce() -> Answer + Send + 'a>;

/// Sends one request of the probe: with `key` in the key header (or none), with `body`.
/// The real one is [`Http`]; tests use in-memory stores.
pub trait Transport: Sync {
    fn send(&self, key: Option<&str>, body: &[u8]) -> Answer;

    /// Does what can be done before sending (building the request and its agent), so that
    /// the requests of a `concurrent` round leave together once released. By default, nothing.
    fn prepare<'a>(&'a self, key: Option<&'a str>, body: &'a [u8]) -> Ready<'a> {
        Box::new(move || self.send(key, body))
    }
}

/// A transport that sends at most `cap` requests; any beyond it fail without being sent.
pub struct Budget<'a> {
    inner: &'a dyn Transport,
    cap: usize,
    sent: AtomicUsize,
}

impl<'a> Budget<'a> {
    pub fn new(inner: &'a dyn Transport, cap: usize) -> Self {
        Budget {
            inner,
            cap,
            sent: AtomicUsize::new(0),
        }
    }

    /// Requests sent so far.
    pub fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst).min(self.cap)
    }
}

impl Budget<'_> {
    /// Takes one request from the budget, or says why not.
    fn take(&self) -> Result<(), Answer> {
        if self.sent.fetch_add(1, Ordering::SeqCst) >= self.cap {
            return Err(Answer::Failed(format!(
                "not sent: the run reached its cap of {} requests",
                self.cap
            )));
        }
        Ok(())
    }
}

impl Transport for Budget<'_> {
    fn send(&self, key: Option<&str>, body: &[u8]) -> Answer {
        match self.take() {
            Ok(()) => self.inner.send(key, body),
            Err(refused) => refused,
        }
    }

    fn prepare<'a>(&'a self, key: Option<&'a str>, body: &'a [u8]) -> Ready<'a> {
        match self.take() {
            Ok(()) => self.inner.prepare(key, body),
            Err(refused) => Box::new(move || refused),
        }
    }
}

/// A check's result, in rising order of trouble.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    Pass,
    Warn,
    Fail,
}

impl Grade {
    pub fn name(self) -> &'static str {
        match self {
            Grade::Pass => "pass",
            Grade::Warn => "warn",
            Grade::Fail => "fail",
        }
    }
}

/// What a check found, for the report's "what a failure costs" (not in the JSON: the figures
/// come from the scenario, and the report computes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// Nothing that costs anything in the scenario.
    None,
    /// A sequential retry with the same key executed again: the key protects nothing.
    KeyIgnored,
    /// Concurrent requests with one key: `extra` of `of` that should have been refused or
    /// replayed executed.
    Race { extra: usize, of: usize },
    /// A key reused with another payload was replayed (`executed` false) or executed (true),
    /// or one of the two when the answers cannot tell (`None`).
    PayloadIgnored { executed: Option<bool> },
    /// The endpoint accepts requests without a key.
    KeyOptional,
}

/// One check, as the JSON contract names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub outcome: Grade,
    pub detail: String,
    /// Requests this check sent.
    pub requests: usize,
    /// Distinct executions its answers show, over all its keys.
    pub executions_seen: usize,
    /// Executions beyond the first for one key, summed over the check's keys.
    #[serde(skip)]
    pub extra_executions: usize,
    #[serde(skip)]
    pub finding: Finding,
}

/// The result of a run: the JSON contract of `docs/MODEL.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Probe {
    pub url: String,
    pub method: String,
    /// Requests sent in all.
    pub requests: usize,
    pub checks: Vec<Check>,
    /// Executions beyond the first for one key, summed over every key of the run.
    pub duplicates_seen: usize,
    /// `fail` when a check failed, else `warn` when one warned, else `pass`.
    pub verdict: Grade,
    /// Whether the answers to different keys differed, so that a second execution shows;
    /// when false, `duplicates_seen` is only a lower bound.
    pub answers_tell_executions_apart: bool,
}

impl Probe {
    /// The run's result from its checks (and whether the answers told executions apart).
    pub fn new(request: &Request, (checks, told_apart): (Vec<Check>, bool)) -> Probe {
        let verdict = checks
            .iter()
            .map(|c| c.outcome)
            .max()
            .unwrap_or(Grade::Pass);
        Probe {
            url: request.target.to_string(),
            method: request.method.to_string(),
            requests: checks.iter().map(|c| c.requests).sum(),
            duplicates_seen: checks.iter().map(|c| c.extra_executions).sum(),
            checks,
            verdict,
            answers_tell_executions_apart: told_apart,
        }
    }
}

/// Why a run stopped before it could judge anything: one line, exit code 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    #[error("{0}")]
    Unreachable(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Redirected(String),
}

/// The changed body `payload_mismatch` sends: a JSON object gains a member, an empty body
/// becomes one, a form gains a field; anything else cannot be changed without risking a body
/// the server rejects for itself (or reads as the same payload), so the check is not run.
pub fn changed_body(body: &[u8], marker: &str) -> Result<Vec<u8>, String> {
    let text = std::str::from_utf8(body).map_err(|_| not_changeable())?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(format!("{{\"dupcost_probe\":\"{marker}\"}}").into_bytes());
    }
    if let Ok(serde_json::Value::Object(mut object)) = serde_json::from_str(trimmed) {
        object.insert(
            "dupcost_probe".to_string(),
            serde_json::Value::String(marker.to_string()),
        );
        return Ok(serde_json::to_vec(&object).expect("a JSON object serialises"));
    }
    let form = trimmed.split('&').all(|pair| {
        pair.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == '"')
        })
    });
    if form {
        return Ok(format!("{trimmed}&dupcost_probe={marker}").into_bytes());
    }
    Err(not_changeable())
}

fn not_changeable() -> String {
    "not run: the body is neither a JSON object nor a form, so dupcost cannot change it \
     safely; give the changed request with --changed-data"
        .to_string()
}

/// `--header 'Name: value'`.
pub fn parse_header(
    text: &str,
) -> Result<(ureq::http::HeaderName, ureq::http::HeaderValue), String> {
    let (name, value) = text.split_once(':').ok_or_else(|| {
        format!("'{text}' is not 'Name: value', e.g. 'Authorization: Bearer ...'")
    })?;
    let name = parse_header_name(name.trim())?;
    let value = ureq::http::HeaderValue::from_str(value.trim())
        .map_err(|_| format!("the value of '{name}' holds a character a header cannot carry"))?;
    Ok((name, value))
}

/// A header name (`--key-header`).
pub fn parse_header_name(text: &str) -> Result<ureq::http::HeaderName, String> {
    ureq::http::HeaderName::from_bytes(text.as_bytes())
        .map_err(|_| format!("'{text}' is not a header name (letters, digits and -)"))
}

/// `--method`: an HTTP method, upper-cased.
pub fn parse_method(text: &str) -> Result<ureq::http::Method, String> {
    ureq::http::Method::from_bytes(text.trim().to_ascii_uppercase().as_bytes())
        .ok()
        .filter(|_| !text.trim().is_empty())
        .ok_or_else(|| format!("'{text}' is not an HTTP method, e.g. POST, PUT or PATCH"))
}

/// `--id`: a JSON pointer (RFC 6901), `/id` or `/data/order/id`.
pub fn parse_pointer(text: &str) -> Result<String, String> {
    if text.starts_with('/') {
        Ok(text.to_string())
    } else {
        Err(format!(
            "'{text}' is not a JSON pointer: start it with /, e.g. /id or /data/order/id"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse() {
        let (name, value) = parse_header("Authorization:  Bearer abc ").unwrap();
        assert_eq!(
            (name.as_str(), value.to_str().unwrap()),
            ("authorization", "Bearer abc")
        );
        assert!(
            parse_header("no colon")
                .unwrap_err()
                .contains("Name: value")
        );
        assert!(
            parse_header("bad name: x")
                .unwrap_err()
                .contains("header name")
        );
        assert!(parse_header("X-A: line\nbreak").is_err());
        assert_eq!(parse_method("patch").unwrap(), ureq::http::Method::PATCH);
        assert!(parse_method("").is_err());
        assert!(parse_method("PO ST").is_err());
        assert_eq!(parse_pointer("/data/id").unwrap(), "/data/id");
        assert!(parse_pointer("id").unwrap_err().contains("JSON pointer"));
    }

    #[test]
    fn changed_bodies() {
        assert_eq!(
            changed_body(br#"{"amount": 40}"#, "x").unwrap(),
            br#"{"amount":40,"dupcost_probe":"x"}"#
        );
        assert_eq!(changed_body(b"", "x").unwrap(), br#"{"dupcost_probe":"x"}"#);
        assert_eq!(
            changed_body(b"amount=40&currency=eur", "x").unwrap(),
            b"amount=40&currency=eur&dupcost_probe=x"
        );
        assert!(changed_body(b"[1, 2]", "x").is_err());
        assert!(changed_body(b"plain text", "x").is_err());
        assert!(changed_body(&[0xff, 0xfe], "x").is_err());
    }

    struct Counting(AtomicUsize);
    impl Transport for Counting {
        fn send(&self, _: Option<&str>, _: &[u8]) -> Answer {
            self.0.fetch_add(1, Ordering::SeqCst);
            Answer::Failed("counted".into())
        }
    }

    #[test]
    fn the_budget_sends_no_more_than_its_cap() {
        let inner = Counting(AtomicUsize::new(0));
        let budget = Budget::new(&inner, 3);
        let mut answers: Vec<_> = (0..4).map(|_| budget.send(None, b"")).collect();
        answers.push(budget.prepare(None, b"")());
        assert_eq!(inner.0.load(Ordering::SeqCst), 3);
        assert_eq!(budget.sent(), 3);
        assert!(matches!(&answers[4], Answer::Failed(m) if m.contains("cap of 3")));
    }
}
