//! Zipkin v2 JSON (<https://zipkin.io/zipkin-api/#/default/post_spans>): an array of spans,
//! as a Zipkin reporter posts them (and OpenTelemetry's Zipkin exporters write them), or an
//! array of such arrays, as Zipkin's `/api/v2/traces` answers. Ids in hex (64- or 128-bit
//! trace ids), `kind` `CLIENT`/`SERVER`, `timestamp` and `duration` in microseconds, the
//! attributes as string `tags`, events as `annotations` (OpenTelemetry's exporters write an
//! event as the JSON `{"exception": {"exception.type": ...}}`). Spans are handed on one at a
//! time as they are read.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::Text;
use super::otlp::SpanSink;
use super::span::{Kind, Reading, Span, span_id, trace_id};

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
        let span = raw.into_span().map_err(de::Error::custom)?;
        self.0.span(span).map_err(de::Error::custom)
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
    timestamp: Option<Text<'a>>,
    #[serde(borrow)]
    duration: Option<Text<'a>>,
    #[serde(borrow)]
    tags: BTreeMap<Text<'a>, Text<'a>>,
    #[serde(borrow)]
    annotations: Vec<Annotation<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Annotation<'a> {
    #[serde(borrow)]
    value: Text<'a>,
}

impl RawSpan<'_> {
    fn into_span(self) -> Result<Span, String> {
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
        let micros = |t: &Option<Text>| {
            t.as_ref()
                .and_then(|t| t.as_str().trim().parse::<f64>().ok())
        };
        let mut r = Reading::default();
        r.span.trace = trace;
        r.span.id = id;
        r.span.parent = parent;
        r.span.kind = match self.kind.as_ref().map(Text::as_str) {
            Some("SERVER") => Kind::Server,
            Some("CLIENT") => Kind::Client,
            _ => Kind::Other,
        };
        let start = micros(&self.timestamp).unwrap_or(0.0);
        r.span.start = (start * 1000.0) as i64;
        r.span.end = ((start + micros(&self.duration).unwrap_or(0.0)) * 1000.0) as i64;
        for (k, v) in &self.tags {
            r.attribute(k.as_str(), v.as_str());
        }
        for a in &self.annotations {
            annotation(&mut r, a.value.as_str());
        }
        Ok(r.finish())
    }
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
