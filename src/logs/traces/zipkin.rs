//! Zipkin v2 JSON (<https://zipkin.io/zipkin-api/#/default/post_spans>): an array of spans,
//! as a Zipkin reporter posts them (and OpenTelemetry's Zipkin exporters write them), or an
//! array of such arrays, as Zipkin's `/api/v2/traces` answers. Ids in hex (64- or 128-bit
//! trace ids), `kind` `CLIENT`/`SERVER`, `timestamp` and `duration` in microseconds, the
//! attributes as string `tags`, events as `annotations` (OpenTelemetry's exporters write an
//! event as the JSON `{"exception": {"exception.type": ...}}`). Spans are handed on one at a
//! time as they are read.
//!
//! Zipkin v1 JSON (Brave 3 and 4, Spring Cloud Sleuth 1, and what `/api/v1/spans` took) is
//! read too: it has no `kind`, but core annotations (`cs`/`cr` a client's send and receive,
//! `sr`/`ss` a server's) and its tags as `binaryAnnotations` (`sa`/`ca` the other side's
//! address). One v1 span object may hold both halves of a call; it is read as the CLIENT span
//! and the SERVER span that answered it, shared, as Zipkin's own v1-to-v2 conversion splits
//! it. A server half that did not start its span (no `timestamp`: in v1 only the side that
//! started a span writes it) is shared with the client half reported apart.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::otlp::SpanSink;
use super::span::{Kind, Method, Reading, Span, span_id, trace_id};
use super::{Text, TraceEntry};

/// Its row of `TRACE_FORMATS` (its catalog row, of the same name, is in `formats/catalog.rs`):
/// an array whose first element has Zipkin's `traceId` and `id`; or one span a line
/// (`jq -c '.[][]'` of `/api/v2/traces`, a collector's dump), whose first has an endpoint
/// too: a JSON access log may carry a `traceId` and an `id`, not Zipkin's `localEndpoint`.
pub const TRACE: TraceEntry = TraceEntry {
    name: "zipkin",
    describe: "Zipkin v2 JSON traces",
    opens: b"[{",
    looks: |head| {
        let has = |needle: &[u8]| memchr::memmem::find(head, needle).is_some();
        let span = has(b"\"traceId\"") && has(b"\"id\"") && !has(b"\"resourceSpans\"");
        span && (head.first() == Some(&b'[')
            || has(b"\"localEndpoint\"")
            || has(b"\"remoteEndpoint\""))
    },
    document: |de, sink| document(de, sink),
};

/// One Zipkin v2 document (an array): its spans to the sink, one at a time.
pub fn document<'de, D: de::Deserializer<'de>>(
    d: D,
    sink: &mut dyn SpanSink,
) -> Result<(), D::Error> {
    Element(sink).deserialize(d)
}

/// A span, or an array of spans (or of arrays).
struct Element<'s>(&'s mut dyn SpanSink);

impl<'de> DeserializeSeed<'de> for Element<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Element<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Zipkin v2 span or an array of them")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let sink = self.0;
        while seq.next_element_seed(Element(&mut *sink))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let raw = RawSpan::deserialize(de::value::MapAccessDeserializer::new(map))?;
        raw.send(self.0).map_err(de::Error::custom)
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawSpan<'a> {
    #[serde(borrow)]
    trace_id: Text<'a>,
    #[serde(borrow)]
    id: Text<'a>,
    #[serde(borrow)]
    parent_id: Option<Text<'a>>,
    #[serde(borrow)]
    kind: Option<Text<'a>>,
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(borrow)]
    timestamp: Option<Text<'a>>,
    #[serde(borrow)]
    duration: Option<Text<'a>>,
    #[serde(borrow)]
    tags: BTreeMap<Text<'a>, Text<'a>>,
    shared: Option<bool>,
    #[serde(borrow)]
    local_endpoint: Option<Endpoint<'a>>,
    #[serde(borrow)]
    remote_endpoint: Option<Endpoint<'a>>,
    #[serde(borrow)]
    annotations: Vec<Annotation<'a>>,
    /// Zipkin v1's tags.
    #[serde(borrow)]
    binary_annotations: Vec<BinaryAnnotation<'a>>,
}

/// Where a span was recorded, or whom it called.
#[derive(Deserialize, Default, Hash, PartialEq, Eq)]
#[serde(default, rename_all = "camelCase")]
struct Endpoint<'a> {
    #[serde(borrow)]
    service_name: Text<'a>,
    #[serde(borrow)]
    ipv4: Text<'a>,
    #[serde(borrow)]
    ipv6: Text<'a>,
    #[serde(borrow)]
    port: Text<'a>,
}

impl Endpoint<'_> {
    /// Its name, else its address.
    fn host(&self) -> &str {
        [&self.service_name, &self.ipv4, &self.ipv6]
            .into_iter()
            .map(Text::as_str)
            .find(|h| !h.is_empty())
            .unwrap_or("")
    }

    /// Not 0: the endpoint, hashed, to tell parts of one span from other spans of its id.
    fn hashed(&self) -> u64 {
        hashed_place(self)
    }
}

/// Not 0: where a span was recorded (an endpoint, a process), hashed, to tell parts of one
/// span reported apart from other spans of its id.
pub(super) fn hashed_place(place: &(impl std::hash::Hash + ?Sized)) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(place) | 1
}

/// A Zipkin time (µs since the epoch, or µs long) as ns: whole microseconds exactly (a
/// float would put 1540799212983049 µs a microsecond early); a fraction is rounded.
pub(super) fn micros_to_nanos(t: &Text) -> Option<i64> {
    let t = t.as_str().trim();
    match t.parse::<i64>() {
        Ok(us) => us.checked_mul(1000),
        Err(_) => t
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite() && f.abs() < 9.2e15)
            .map(|f| (f * 1000.0).round() as i64),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Annotation<'a> {
    #[serde(borrow)]
    value: Text<'a>,
    /// Zipkin v1's core annotations (`cs`, `sr`, ...) time the halves of a call.
    #[serde(borrow)]
    timestamp: Option<Text<'a>>,
    /// Zipkin v1: where it was recorded.
    #[serde(borrow)]
    endpoint: Option<Endpoint<'a>>,
}

/// A Zipkin v1 tag (`"value"` a string; `true` for the `sa`/`ca` addresses), with the
/// endpoint that recorded it.
#[derive(Deserialize, Default)]
#[serde(default)]
struct BinaryAnnotation<'a> {
    #[serde(borrow)]
    key: Text<'a>,
    #[serde(borrow)]
    value: Text<'a>,
    #[serde(borrow)]
    endpoint: Option<Endpoint<'a>>,
}

/// Zipkin v1's core annotations: the times of a call's halves.
#[derive(Default)]
struct Core<'s, 'a> {
    cs: Option<&'s Annotation<'a>>,
    cr: Option<&'s Annotation<'a>>,
    sr: Option<&'s Annotation<'a>>,
    ss: Option<&'s Annotation<'a>>,
}

impl<'s, 'a> Core<'s, 'a> {
    fn of(annotations: &'s [Annotation<'a>]) -> Core<'s, 'a> {
        let mut core = Core::default();
        for a in annotations {
            let slot = match a.value.as_str() {
                "cs" => &mut core.cs,
                "cr" => &mut core.cr,
                "sr" => &mut core.sr,
                "ss" => &mut core.ss,
                _ => continue,
            };
            slot.get_or_insert(a);
        }
        core
    }

    fn client(&self) -> bool {
        self.cs.is_some() || self.cr.is_some()
    }

    fn server(&self) -> bool {
        self.sr.is_some() || self.ss.is_some()
    }
}

/// An annotation's time, as ns.
fn at(a: Option<&Annotation>) -> Option<i64> {
    a?.timestamp.as_ref().and_then(micros_to_nanos)
}

impl RawSpan<'_> {
    /// The span to the sink: a v1 span with both halves of a call as two.
    fn send(self, sink: &mut dyn SpanSink) -> Result<(), String> {
        let core = Core::of(&self.annotations);
        if self.kind.is_some() || !(core.client() || core.server()) {
            return sink.span(self.into_span()?);
        }
        let (client, server) = (core.client(), core.server());
        let timestamp = self.timestamp.as_ref().and_then(micros_to_nanos);
        let duration = self.duration.as_ref().and_then(micros_to_nanos);
        let client_at = core.cs.or(core.cr).and_then(|a| a.endpoint.as_ref());
        let server_at = core.sr.or(core.ss).and_then(|a| a.endpoint.as_ref());
        if client {
            // The client started the span: its timestamp and duration are the client's.
            let start = at(core.cs).or(timestamp);
            let end = match (at(core.cs), at(core.cr)) {
                (Some(cs), Some(cr)) => Some(cr.max(cs)),
                _ => start.zip(duration).map(|(s, d)| s.saturating_add(d.max(0))),
            };
            let mut r = self.v1_half(Kind::Client, start, end, client_at, server_at)?;
            r.span.shared = false;
            self.v1_remote(&mut r, "sa");
            sink.span(r.finish())?;
        }
        if server {
            let (start, end) = match (at(core.sr), at(core.ss)) {
                (Some(sr), Some(ss)) => (Some(sr), Some(ss.max(sr))),
                (sr, _) if client => (sr, None),
                (sr, _) => {
                    let start = sr.or(timestamp);
                    let end = start.zip(duration).map(|(s, d)| s.saturating_add(d.max(0)));
                    (start, end)
                }
            };
            let mut r = self.v1_half(Kind::Server, start, end, server_at, client_at)?;
            r.span.shared = client || timestamp.is_none();
            self.v1_remote(&mut r, "ca");
            sink.span(r.finish())?;
        }
        Ok(())
    }

    /// One half of a v1 span: recorded at `here`, with the tags recorded there (or where no
    /// endpoint, or both halves', is said) and none of those recorded only at `there`.
    fn v1_half(
        &self,
        kind: Kind,
        start: Option<i64>,
        end: Option<i64>,
        here: Option<&Endpoint>,
        there: Option<&Endpoint>,
    ) -> Result<Reading, String> {
        let mut r = self.ids()?;
        r.span.kind = kind;
        r.span.start = start.unwrap_or(0);
        r.span.end = end.unwrap_or(r.span.start).max(r.span.start);
        r.span.finished = end.is_some();
        r.rare.local = here.map_or(0, Endpoint::hashed);
        r.span.status_if_not_2xx = true;
        let mut http = false;
        for b in &self.binary_annotations {
            let key = b.key.as_str();
            if matches!(key, "sa" | "ca" | "ma") {
                continue;
            }
            let elsewhere = b.endpoint.is_some() && b.endpoint.as_ref() == there && there != here;
            if !elsewhere {
                r.attribute(key, b.value.as_str());
                http |= key.starts_with("http.");
            }
        }
        if r.span.method == Method::Unsaid
            && http
            && let Some(method) = method_named(self.name.as_str())
        {
            r.set_method(method);
        }
        Ok(r)
    }

    /// The other side of a v1 half, from its address annotation (`sa`: the server a client
    /// called; `ca`: the client a server answered).
    fn v1_remote(&self, r: &mut Reading, key: &str) {
        let address = self
            .binary_annotations
            .iter()
            .find(|b| b.key.as_str() == key);
        if let Some(e) = address.and_then(|b| b.endpoint.as_ref()) {
            r.remote(e.host(), Some(e.port.as_str()));
        }
    }

    /// A reading with the span's trace, id and parent.
    fn ids(&self) -> Result<Reading, String> {
        let trace = trace_id(self.trace_id.as_str())
            .ok_or_else(|| format!("traceId '{}' is not a trace id", self.trace_id.as_str()))?;
        let id = span_id(self.id.as_str())
            .filter(|&id| id != 0)
            .ok_or_else(|| format!("id '{}' is not a span id", self.id.as_str()))?;
        let parent = match &self.parent_id {
            Some(p) => span_id(p.as_str())
                .ok_or_else(|| format!("parentId '{}' is not a span id", p.as_str()))?,
            None => 0,
        };
        let mut r = Reading::default();
        r.span.trace = trace;
        r.span.id = id;
        r.span.parent = parent;
        Ok(r)
    }

    fn into_span(self) -> Result<Span, String> {
        let mut r = self.ids()?;
        r.span.kind = match self.kind.as_ref().map(Text::as_str) {
            Some("SERVER") => Kind::Server,
            Some("CLIENT") => Kind::Client,
            _ => Kind::Other,
        };
        let start = self
            .timestamp
            .as_ref()
            .and_then(micros_to_nanos)
            .unwrap_or(0);
        let duration = self.duration.as_ref().and_then(micros_to_nanos);
        r.span.start = start;
        r.span.end = start.saturating_add(duration.unwrap_or(0).max(0));
        r.span.finished = duration.is_some();
        r.span.shared = self.shared == Some(true);
        r.rare.local = self.local_endpoint.as_ref().map_or(0, Endpoint::hashed);
        r.span.status_if_not_2xx = true;
        if let Some(e) = &self.remote_endpoint {
            r.remote(e.host(), Some(e.port.as_str()));
        }
        for (k, v) in &self.tags {
            r.attribute(k.as_str(), v.as_str());
        }
        if r.span.method == Method::Unsaid
            && let Some(method) = method_named(self.name.as_str())
            && self.tags.keys().any(|k| k.as_str().starts_with("http."))
        {
            r.set_method(method);
        }
        for a in &self.annotations {
            annotation(&mut r, a.value.as_str());
        }
        Ok(r.finish())
    }
}

/// The HTTP method a span's name gives, upper-case: Brave names an HTTP span by its method
/// in lower case (`post`), or the method and the route (`post /orders/{id}`); a part of a
/// span flushed apart, or another tracer's span (py_zipkin's), may carry that name without
/// an `http.method` tag. Read only from a span with an `http.*` tag: a cache client's
/// `delete` or `get` span is no HTTP call.
fn method_named(name: &str) -> Option<&'static str> {
    let word = name.trim().split(' ').next()?;
    ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        .into_iter()
        .find(|m| m.eq_ignore_ascii_case(word))
}

/// An annotation: OpenTelemetry's Zipkin exporters write an event as
/// `{"exception": {"exception.type": "...", ...}}`; other annotations are plain words.
fn annotation(r: &mut Reading, value: &str) {
    if !value.trim_start().starts_with('{') {
        return;
    }
    let Ok(serde_json::Value::Object(events)) = serde_json::from_str(value) else {
        return;
    };
    for (name, attributes) in &events {
        if let serde_json::Value::Object(attributes) = attributes {
            for (k, v) in attributes {
                if let Some(v) = v.as_str() {
                    r.event_attribute(name, k, v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn microseconds_are_kept_exact() {
        let t = Text(Cow::Borrowed("1540799212983049"));
        let ns = micros_to_nanos(&t).unwrap();
        assert_eq!(ns, 1_540_799_212_983_049_000);
        assert_eq!(
            crate::logs::to_rfc3339(ns / 1000),
            "2018-10-29T07:46:52.983049Z"
        );
        assert_eq!(micros_to_nanos(&Text(Cow::Borrowed("2.5"))), Some(2_500));
        assert_eq!(micros_to_nanos(&Text(Cow::Borrowed("x"))), None);
        assert_eq!(
            micros_to_nanos(&Text(Cow::Borrowed("9223372036854775807"))),
            None
        );
    }

    /// Zipkin v1 (Brave 4's, as Telegraf's Zipkin input tests it): a call's halves reported
    /// apart, the server's without a timestamp (shared), then one object with both halves.
    #[test]
    fn v1_core_annotations_give_the_halves() {
        let ep = |s: &str| format!(r#"{{"serviceName":"{s}","ipv4":"192.168.0.8","port":8010}}"#);
        let (gw, app) = (ep("gw"), ep("app"));
        let spans = format!(
            r#"[{{"traceId":"7312f822d43d0fd8","id":"b26412d1ac16767d","name":"http:/hi2",
            "parentId":"7312f822d43d0fd8",
            "annotations":[{{"timestamp":1503031538791000,"value":"sr","endpoint":{app}}},
                {{"timestamp":1503031538794000,"value":"ss","endpoint":{app}}}],
            "binaryAnnotations":[{{"key":"mvc.controller.method","value":"hi2","endpoint":{app}}}]}},
            {{"traceId":"7312f822d43d0fd8","id":"b26412d1ac16767d","name":"http:/hi2",
            "parentId":"7312f822d43d0fd8","timestamp":1503031538786000,"duration":10000,
            "annotations":[{{"timestamp":1503031538786000,"value":"cs","endpoint":{gw}}},
                {{"timestamp":1503031538796000,"value":"cr","endpoint":{gw}}}],
            "binaryAnnotations":[{{"key":"http.method","value":"POST","endpoint":{gw}}},
                {{"key":"http.url","value":"http://localhost:8010/hi2","endpoint":{gw}}},
                {{"key":"sa","value":true,"endpoint":{app}}}]}},
            {{"traceId":"7312f822d43d0fd8","id":"c1","name":"post","timestamp":1503031538800000,
            "annotations":[{{"timestamp":1503031538800000,"value":"cs","endpoint":{gw}}},
                {{"timestamp":1503031538801000,"value":"sr","endpoint":{app}}},
                {{"timestamp":1503031538802000,"value":"ss","endpoint":{app}}}],
            "binaryAnnotations":[{{"key":"http.path","value":"/pay","endpoint":{gw}}},
                {{"key":"error","value":"Read timed out","endpoint":{gw}}}]}}]"#
        );
        struct Keep(Vec<Span>);
        impl SpanSink for Keep {
            fn span(&mut self, span: Span) -> Result<(), String> {
                self.0.push(span);
                Ok(())
            }
        }
        let mut keep = Keep(Vec::new());
        document(&mut serde_json::Deserializer::from_str(&spans), &mut keep).unwrap();
        let [server, client, merged_client, merged_server] = &keep.0[..] else {
            panic!("four spans: {:?}", keep.0)
        };
        assert_eq!(
            (server.kind, server.shared, server.finished),
            (Kind::Server, true, true)
        );
        assert_eq!(server.end - server.start, 3_000_000);
        assert!(server.method().is_none(), "its tags are its own");
        assert_eq!((client.kind, client.shared), (Kind::Client, false));
        assert_eq!(client.method(), Some("POST"));
        assert_eq!(client.peer.as_deref(), Some("localhost:8010"));
        assert_eq!(client.end - client.start, 10_000_000);
        assert_ne!(client.local(), server.local());
        // One object, both halves: the client's start, no `cr` (unfinished); the error
        // recorded at the client is no error of the server that answered.
        assert_eq!(
            (merged_client.kind, merged_client.finished),
            (Kind::Client, false)
        );
        assert!(merged_client.error && merged_client.timeout_named);
        assert_eq!(
            (merged_server.kind, merged_server.shared),
            (Kind::Server, true)
        );
        assert!(!merged_server.error && merged_server.finished);
        assert_eq!(merged_server.path.as_deref(), None);
    }

    #[test]
    fn error_tags_and_shared_halves_are_read() {
        let spans = r#"[{"traceId":"a","id":"b","kind":"SERVER","shared":true,
            "timestamp":1,"duration":2,"localEndpoint":{"serviceName":"s"},
            "tags":{"http.path":"/x"}},
            {"traceId":"a","id":"b","kind":"CLIENT","timestamp":1,
            "remoteEndpoint":{"ipv4":"10.0.0.2","port":8080},
            "tags":{"http.method":"post","error":"Read timed out"}},
            {"traceId":"a","id":"c","kind":"CLIENT",
            "tags":{"otel.status_code":"ERROR","otel.status_description":"context deadline exceeded"}}]"#;
        struct Keep(Vec<Span>);
        impl SpanSink for Keep {
            fn span(&mut self, span: Span) -> Result<(), String> {
                self.0.push(span);
                Ok(())
            }
        }
        let mut keep = Keep(Vec::new());
        document(&mut serde_json::Deserializer::from_str(spans), &mut keep).unwrap();
        let [server, client, other] = &keep.0[..] else {
            panic!("three spans")
        };
        assert!(server.shared && server.finished && server.http && server.local() != 0);
        assert_eq!(server.status, None);
        assert!(client.timeout_named && client.error && !client.finished);
        assert_eq!(client.peer.as_deref(), Some("10.0.0.2:8080"));
        assert_eq!(client.method(), Some("POST"));
        assert!(other.timeout_named && other.error);
    }
}
