//! OTLP/JSON, as the OpenTelemetry protocol's JSON encoding writes it
//! (<https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding>): lowerCamelCase
//! names (snake_case accepted), trace and span ids in hex (base64 accepted, as Tempo writes
//! them), enums as integers (`kind` 2 server, 3 client; names accepted), 64-bit integers as
//! strings (numbers accepted), attribute values as `{"stringValue": ...}`,
//! `{"intValue": "..."}` and the other kinds.
//!
//! One document is an `ExportTraceServiceRequest` (`{"resourceSpans": [...]}`, a line of the
//! Collector's file exporter), or the same inside what the query APIs wrap it in: Tempo's
//! `{"batches": [...]}` and `{"trace": {...}}`, Jaeger's API v3 `{"result": {...}}`. Spans are
//! handed on one at a time as they are read: a document of any size is never held.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Text;
use super::span::{Kind, Reading, Span, span_id, trace_id};

/// Where spans go as they are read; an error from it stops the reading.
pub trait SpanSink {
    fn span(&mut self, span: Span) -> Result<(), String>;
}

/// The levels of an OTLP/JSON document, outermost first.
#[derive(Clone, Copy)]
enum Level {
    Document,
    ResourceSpans,
    ScopeSpans,
    Span,
}

/// One OTLP/JSON document: its spans to the sink, one at a time.
pub fn document<'de, D: de::Deserializer<'de>>(
    d: D,
    sink: &mut dyn SpanSink,
) -> Result<(), D::Error> {
    Node {
        sink,
        level: Level::Document,
    }
    .deserialize(d)
}

/// An object at one level of the document.
struct Node<'s> {
    sink: &'s mut dyn SpanSink,
    level: Level,
}

/// An array of objects of one level.
struct List<'s>(Node<'s>);

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match self.level {
            Level::Span => {
                let span = RawSpan::deserialize(d)?
                    .into_span()
                    .map_err(de::Error::custom)?;
                self.sink.span(span).map_err(de::Error::custom)
            }
            _ => d.deserialize_map(self),
        }
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self.level {
            Level::Document => {
                "an OTLP/JSON ExportTraceServiceRequest ({\"resourceSpans\": [...]})"
            }
            Level::ResourceSpans => "a ResourceSpans object",
            Level::ScopeSpans => "a ScopeSpans object",
            Level::Span => "a span",
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let sink = self.sink;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            let inner = match (self.level, key.as_str()) {
                (Level::Document, "resourceSpans" | "resource_spans" | "batches") => {
                    Some((Level::ResourceSpans, true))
                }
                (Level::Document, "trace" | "result") => Some((Level::Document, false)),
                (
                    Level::ResourceSpans,
                    "scopeSpans"
                    | "scope_spans"
                    | "instrumentationLibrarySpans"
                    | "instrumentation_library_spans",
                ) => Some((Level::ScopeSpans, true)),
                (Level::ScopeSpans, "spans") => Some((Level::Span, true)),
                _ => None,
            };
            match inner {
                Some((level, list)) => {
                    let node = Node {
                        sink: &mut *sink,
                        level,
                    };
                    if list {
                        map.next_value_seed(List(node))?;
                    } else {
                        map.next_value_seed(node)?;
                    }
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for List<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for List<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Node { sink, level } = self.0;
        while seq
            .next_element_seed(Node {
                sink: &mut *sink,
                level,
            })?
            .is_some()
        {}
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// A span as OTLP/JSON writes it, the fields the model reads.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawSpan<'a> {
    #[serde(alias = "trace_id")]
    #[serde(borrow)]
    trace_id: Text<'a>,
    #[serde(alias = "span_id")]
    #[serde(borrow)]
    span_id: Text<'a>,
    #[serde(alias = "parent_span_id")]
    #[serde(borrow)]
    parent_span_id: Text<'a>,
    #[serde(alias = "trace_state")]
    #[serde(borrow)]
    trace_state: Text<'a>,
    #[serde(borrow)]
    kind: Text<'a>,
    #[serde(alias = "start_time_unix_nano")]
    #[serde(borrow)]
    start_time_unix_nano: Text<'a>,
    #[serde(alias = "end_time_unix_nano")]
    #[serde(borrow)]
    end_time_unix_nano: Text<'a>,
    #[serde(borrow)]
    attributes: Vec<KeyValue<'a>>,
    #[serde(borrow)]
    events: Vec<Event<'a>>,
    #[serde(borrow)]
    status: Status<'a>,
}

/// A span's status: its code (0 unset, 1 ok, 2 error; the enum's names accepted) and message.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Status<'a> {
    #[serde(borrow)]
    code: Text<'a>,
    #[serde(borrow)]
    message: Text<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct KeyValue<'a> {
    #[serde(borrow)]
    key: Text<'a>,
    #[serde(borrow)]
    value: AnyValue<'a>,
}

/// An attribute's value: one of its kinds. Integers come as strings (numbers accepted); a
/// captured header is an array of strings, read as its first.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct AnyValue<'a> {
    #[serde(alias = "string_value")]
    #[serde(borrow)]
    string_value: Option<Text<'a>>,
    #[serde(alias = "int_value")]
    #[serde(borrow)]
    int_value: Option<Text<'a>>,
    #[serde(alias = "double_value")]
    #[serde(borrow)]
    double_value: Option<Text<'a>>,
    #[serde(alias = "bool_value")]
    #[serde(borrow)]
    bool_value: Option<Text<'a>>,
    #[serde(alias = "array_value", borrow)]
    array_value: Option<ArrayValue<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ArrayValue<'a> {
    #[serde(borrow)]
    values: Vec<AnyValue<'a>>,
}

impl AnyValue<'_> {
    fn text(&self) -> Option<&str> {
        self.string_value
            .as_ref()
            .or(self.int_value.as_ref())
            .or(self.double_value.as_ref())
            .or(self.bool_value.as_ref())
            .map(Text::as_str)
            .or_else(|| {
                self.array_value
                    .as_ref()
                    .and_then(|a| a.values.first())
                    .and_then(AnyValue::text)
            })
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Event<'a> {
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(borrow)]
    attributes: Vec<KeyValue<'a>>,
}

impl RawSpan<'_> {
    fn into_span(self) -> Result<Span, String> {
        let trace = trace_id(&self.trace_id.0)
            .ok_or_else(|| format!("traceId '{}' is not a trace id", self.trace_id.0))?;
        let id = span_id(&self.span_id.0)
            .filter(|&id| id != 0)
            .ok_or_else(|| format!("spanId '{}' is not a span id", self.span_id.0))?;
        let parent = span_id(&self.parent_span_id.0)
            .ok_or_else(|| format!("parentSpanId '{}' is not a span id", self.parent_span_id.0))?;
        let nanos = |t: &Text| t.as_str().trim().parse::<u64>().ok().map(|n| n as i64);
        let mut r = Reading::default();
        r.span.trace = trace;
        r.span.id = id;
        r.span.parent = parent;
        r.span.kind = match self.kind.as_str() {
            "2" | "SPAN_KIND_SERVER" => Kind::Server,
            "3" | "SPAN_KIND_CLIENT" => Kind::Client,
            _ => Kind::Other,
        };
        r.span.start = nanos(&self.start_time_unix_nano).unwrap_or(0);
        r.span.end = nanos(&self.end_time_unix_nano).unwrap_or(r.span.start);
        r.span.finished = true;
        r.status(self.status.code.as_str(), self.status.message.as_str());
        for kv in &self.attributes {
            if let Some(v) = kv.value.text() {
                r.attribute(kv.key.as_str(), v);
            }
        }
        for e in &self.events {
            for kv in &e.attributes {
                if let Some(v) = kv.value.text() {
                    r.event_attribute(e.name.as_str(), kv.key.as_str(), v);
                }
            }
        }
        if !self.trace_state.0.is_empty() {
            r.trace_state(&self.trace_state.0);
        }
        Ok(r.finish())
    }
}
