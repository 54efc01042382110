//! Jaeger's own JSON (its UI's "Download JSON" and its query API v1's `/api/traces`, which
//! the UI reads): `{"data": [trace, ...]}`, a trace `{"traceID", "spans": [...],
//! "processes": {...}}`, or spans alone (a list of them, as `jaeger-anonymizer` writes, or one
//! a line).
//! Ids in hex, `startTime` and `duration` in microseconds, the kind as the tag `span.kind`
//! (`client`, `server`), the parent as a `CHILD_OF` reference (or `parentSpanID`), tags as
//! `{"key", "type", "value"}` with typed values (`"error": true` a bool), events as `logs`
//! whose `event` field names them (OpenTracing's `error` event with `error.kind`,
//! OpenTelemetry's `exception` with `exception.type`). Spans are handed on one at a time as
//! they are read. The spans are those OpenTracing's and OpenTelemetry's instrumentations
//! wrote, so their attributes are read by the same names as OTLP's.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::otlp::SpanSink;
use super::{Text, TraceEntry};
use super::span::{Kind, Reading, Span, span_id, trace_id};
use super::zipkin::{hashed_place, micros_to_nanos};

/// Its row of `TRACE_FORMATS` (its catalog row, of the same name, is in `formats/catalog.rs`):
/// `traceID` (Jaeger's spelling, where OTLP and Zipkin write `traceId`) with `spans` (a trace,
/// or `data`'s list of them) or `spanID` (spans alone, a list or one a line) near the start.
pub const TRACE: TraceEntry = TraceEntry {
    name: "jaeger",
    describe: "Jaeger JSON traces",
    opens: b"{[",
    looks: |head| {
        let has = |needle: &[u8]| memchr::memmem::find(head, needle).is_some();
        has(b"\"traceID\"") && (has(b"\"spans\"") || has(b"\"spanID\""))
    },
    document: |de, sink| document(de, sink),
};

/// One Jaeger JSON document: its spans to the sink, one at a time.
pub fn document<'de, D: de::Deserializer<'de>>(
    d: D,
    sink: &mut dyn SpanSink,
) -> Result<(), D::Error> {
    d.deserialize_any(Object(sink))
}

/// The API's answer, a trace, or a span (or a list of these): whichever keys it has.
struct Object<'s>(&'s mut dyn SpanSink);

impl<'de> DeserializeSeed<'de> for Object<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Object<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Jaeger trace, a list of them under \"data\", or a span")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let sink = self.0;
        while seq.next_element_seed(Object(&mut *sink))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let sink = self.0;
        // The keys of one span alone, kept until the object ends.
        let mut alone = RawSpan::default();
        let mut is_span = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            match key.as_str() {
                "data" => map.next_value_seed(Traces(&mut *sink))?,
                "spans" => map.next_value_seed(Spans(&mut *sink))?,
                // A trace's own id, and a span's: a span is an object with a `spanID`.
                "traceID" => alone.trace_id = map.next_value()?,
                "spanID" => {
                    alone.span_id = map.next_value()?;
                    is_span = true;
                }
                "parentSpanID" => alone.parent_span_id = map.next_value()?,
                "references" => alone.references = map.next_value()?,
                "startTime" => alone.start_time = map.next_value()?,
                "duration" => alone.duration = map.next_value()?,
                "tags" => alone.tags = map.next_value()?,
                "logs" => alone.logs = map.next_value()?,
                "processID" => alone.process_id = map.next_value()?,
                "process" => alone.process = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if is_span {
            sink.span(alone.into_span().map_err(de::Error::custom)?)
                .map_err(de::Error::custom)?;
        }
        Ok(())
    }
}

/// `data`: the traces (null when none), or one trace.
struct Traces<'s>(&'s mut dyn SpanSink);

impl<'de> DeserializeSeed<'de> for Traces<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Traces<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of Jaeger traces")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        Object(self.0).visit_seq(seq)
    }
    /// One trace, not in a list (as Jaeger UI's own fixtures hold one).
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        Object(self.0).visit_map(map)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// A trace's `spans`, each to the sink as it is read.
struct Spans<'s>(&'s mut dyn SpanSink);

impl<'de> DeserializeSeed<'de> for Spans<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Spans<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of Jaeger spans")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(raw) = seq.next_element::<RawSpan>()? {
            let span = raw.into_span().map_err(de::Error::custom)?;
            self.0.span(span).map_err(de::Error::custom)?;
        }
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawSpan<'a> {
    #[serde(borrow, rename = "traceID")]
    trace_id: Text<'a>,
    #[serde(borrow, rename = "spanID")]
    span_id: Text<'a>,
    #[serde(borrow, rename = "parentSpanID")]
    parent_span_id: Option<Text<'a>>,
    #[serde(borrow)]
    references: Option<Vec<Reference<'a>>>,
    #[serde(borrow)]
    start_time: Option<Text<'a>>,
    #[serde(borrow)]
    duration: Option<Text<'a>>,
    #[serde(borrow)]
    tags: Option<Vec<Tag<'a>>>,
    #[serde(borrow)]
    logs: Option<Vec<Log<'a>>>,
    #[serde(borrow, rename = "processID")]
    process_id: Text<'a>,
    #[serde(borrow)]
    process: Option<Process<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Reference<'a> {
    #[serde(borrow)]
    ref_type: Text<'a>,
    #[serde(borrow, rename = "spanID")]
    span_id: Text<'a>,
}

/// A tag or a log's field: its value a string, a number or a bool, as its `type` says.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Tag<'a> {
    #[serde(borrow)]
    key: Text<'a>,
    #[serde(borrow)]
    value: Text<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Log<'a> {
    #[serde(borrow)]
    fields: Vec<Tag<'a>>,
}

/// The process a span alone carries (a trace's spans name theirs by `processID`).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Process<'a> {
    #[serde(borrow)]
    service_name: Text<'a>,
}

impl RawSpan<'_> {
    fn into_span(self) -> Result<Span, String> {
        let trace = trace_id(self.trace_id.as_str())
            .ok_or_else(|| format!("traceID '{}' is not a trace id", self.trace_id.as_str()))?;
        let id = span_id(self.span_id.as_str())
            .filter(|&id| id != 0)
            .ok_or_else(|| format!("spanID '{}' is not a span id", self.span_id.as_str()))?;
        // The parent: the `CHILD_OF` reference (a span's first), else the older field.
        let references = self.references.unwrap_or_default();
        let parent = references
            .iter()
            .find(|r| r.ref_type.as_str().eq_ignore_ascii_case("CHILD_OF"))
            .or(references.first())
            .map(|r| &r.span_id)
            .or(self.parent_span_id.as_ref());
        let parent = match parent {
            Some(p) => span_id(p.as_str())
                .ok_or_else(|| format!("parent spanID '{}' is not a span id", p.as_str()))?,
            None => 0,
        };
        let mut r = Reading::default();
        r.span.trace = trace;
        r.span.id = id;
        r.span.parent = parent;
        let start = self
            .start_time
            .as_ref()
            .and_then(micros_to_nanos)
            .unwrap_or(0);
        let duration = self.duration.as_ref().and_then(micros_to_nanos);
        r.span.start = start;
        r.span.end = start.saturating_add(duration.unwrap_or(0).max(0));
        r.span.finished = duration.is_some();
        let place = match &self.process {
            Some(p) => p.service_name.as_str(),
            None => self.process_id.as_str(),
        };
        r.rare.local = if place.is_empty() { 0 } else { hashed_place(place) };
        let (mut host, mut port) = (None, None);
        for tag in self.tags.iter().flatten() {
            let (key, value) = (tag.key.as_str(), tag.value.as_str());
            match key {
                "span.kind" => {
                    r.span.kind = match value.trim() {
                        "client" => Kind::Client,
                        "server" => Kind::Server,
                        _ => Kind::Other,
                    };
                }
                // OpenTracing's `error` is a bool: `false` says no error.
                "error" if value.trim() == "false" => {}
                "error" if value.trim() == "true" => r.span.error = true,
                // OpenTracing's peer: whom a client called, when no OpenTelemetry name says.
                "peer.hostname" | "peer.ipv4" | "peer.ipv6" => host = Some(value),
                "peer.port" => port = Some(value),
                _ => r.attribute(key, value),
            }
        }
        if let Some(host) = host {
            r.remote(host, port);
        }
        for log in self.logs.iter().flatten() {
            let event = log
                .fields
                .iter()
                .find(|f| f.key.as_str() == "event")
                .map_or("", |f| f.value.as_str());
            for field in &log.fields {
                match field.key.as_str() {
                    // OpenTracing's error event names its kind as an exception's type.
                    "error.kind" => {
                        r.event_attribute("exception", "exception.type", field.value.as_str())
                    }
                    key => r.event_attribute(event, key, field.value.as_str()),
                }
            }
        }
        Ok(r.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Keep(Vec<Span>);
    impl SpanSink for Keep {
        fn span(&mut self, span: Span) -> Result<(), String> {
            self.0.push(span);
            Ok(())
        }
    }

    fn read(text: &str) -> Vec<Span> {
        let mut keep = Keep(Vec::new());
        document(&mut serde_json::Deserializer::from_str(text), &mut keep).unwrap();
        keep.0
    }

    /// The UI's download (OpenTracing's tags, typed), a trace alone and a span alone read as
    /// the same spans.
    #[test]
    fn the_apis_answer_a_trace_and_a_span_alone() {
        let client = r#"{"traceID":"51e0000000000001","spanID":"0000000100000001",
            "flags":1,"operationName":"HTTP POST",
            "references":[{"refType":"CHILD_OF","traceID":"51e0000000000001","spanID":"0000000100000000"}],
            "startTime":1764547201000000,"duration":10000000,
            "tags":[{"key":"span.kind","type":"string","value":"client"},
                {"key":"http.method","type":"string","value":"POST"},
                {"key":"http.url","type":"string","value":"http://orders:8080/orders"},
                {"key":"error","type":"bool","value":true},
                {"key":"peer.hostname","type":"string","value":"orders"},
                {"key":"peer.port","type":"int64","value":8080}],
            "logs":[{"timestamp":1764547211000000,"fields":[
                {"key":"event","type":"string","value":"error"},
                {"key":"error.kind","type":"string","value":"SocketTimeoutException"},
                {"key":"message","type":"string","value":"Read timed out"}]}],
            "processID":"p1","warnings":null}"#;
        let server = r#"{"traceID":"51e0000000000001","spanID":"0000000100000002",
            "parentSpanID":"0000000100000001","startTime":1764547201002000,"duration":900,
            "tags":[{"key":"span.kind","type":"string","value":"server"},
                {"key":"http.status_code","type":"int64","value":201},
                {"key":"error","type":"bool","value":false}],
            "process":{"serviceName":"orders","tags":[]}}"#;
        let answer = format!(
            r#"{{"data":[{{"traceID":"51e0000000000001","spans":[{client},{server}],
            "processes":{{"p1":{{"serviceName":"gateway","tags":[]}}}},"warnings":null}}],
            "total":0,"limit":0,"offset":0,"errors":null}}"#
        );
        let [c, s] = &read(&answer)[..] else {
            panic!("two spans")
        };
        assert_eq!((c.kind, c.method()), (Kind::Client, Some("POST")));
        assert_eq!(
            (c.parent, c.start),
            (0x1_0000_0000, 1_764_547_201_000_000_000)
        );
        assert_eq!(c.end - c.start, 10_000_000_000);
        assert!(c.error && c.timeout_named && c.finished);
        assert_eq!(c.peer.as_deref(), Some("orders:8080"));
        assert_eq!(
            (s.kind, s.status, s.parent),
            (Kind::Server, Some(201), c.id)
        );
        assert!(!s.error);
        assert_ne!(s.local(), c.local());
        // A trace alone, and each span alone, read the same.
        let trace = format!(r#"{{"traceID":"51e0000000000001","spans":[{client},{server}]}}"#);
        let alone: Vec<Span> = [client, server].iter().flat_map(|s| read(s)).collect();
        for spans in [read(&trace), alone] {
            assert_eq!(format!("{:?}", spans[0]), format!("{c:?}"));
            assert_eq!(spans[1].status, Some(201));
        }
        assert!(
            read(r#"{"data":null,"errors":[{"code":404,"msg":"trace not found"}]}"#).is_empty()
        );
        let one = format!(r#"{{"data":{{"services":[],"spans":[{client},{server}]}}}}"#);
        assert_eq!(read(&one).len(), 2);
    }
}
