//! OTLP/JSON, as the OpenTelemetry protocol's JSON encoding writes it
//! (<https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding>): lowerCamelCase
//! names (snake_case accepted), trace and span ids in hex (base64 accepted, as Tempo writes
//! them), enums as integers (`kind` 2 server, 3 client; names accepted), 64-bit integers as
//! strings (numbers accepted), attribute values as `{"stringValue": ...}`,
//! `{"intValue": "..."}` and the other kinds.
//!
//! One document is an `ExportTraceServiceRequest` (`{"resourceSpans": [...]}`, a line of the
//! Collector's file exporter), or the same inside what the query APIs wrap it in: Tempo's
//! `{"batches": [...]}` and `{"trace": {...}}`, Jaeger's API v3 `{"result": {...}}`; or one
//! `ResourceSpans` alone (`{"resource": {...}, "scopeSpans": [...]}`), as the OpenTelemetry
//! Java agent's `logging-otlp` exporter writes one a line. Spans are handed on one at a time
//! as they are read: a document of any size is never held.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::span::{self, Kind, Reading, Span, span_id, trace_id};
use super::{Text, TraceEntry};
use crate::logs::json_scan::{Bail, Kind as Json, Leaf, Scan, unescape};

/// Its row of `TRACE_FORMATS` (its catalog row, of the same name, is in `formats/catalog.rs`):
/// `ExportTraceServiceRequest` documents (the Collector's file exporter, one a line), or
/// Tempo's and Jaeger's API answers around them: `resourceSpans` (or Tempo's `batches`, or
/// `trace`/`result` around them) near the start; or one `ResourceSpans` a line (the Java
/// agent's `logging-otlp` exporter): `resource` and `scopeSpans`.
pub const TRACE: TraceEntry = TraceEntry {
    name: "otlp",
    describe: "OTLP/JSON traces",
    opens: b"{",
    looks: |head| {
        let has = |needle: &[u8]| memchr::memmem::find(head, needle).is_some();
        let scopes = has(b"\"scopeSpans\"") || has(b"\"instrumentationLibrarySpans\"");
        // A ResourceSpans alone: its first key is one of its own.
        let key = head.get(1..).unwrap_or_default().trim_ascii_start();
        let bare = key.starts_with(b"\"resource\"") || key.starts_with(b"\"scopeSpans\"");
        has(b"\"resourceSpans\"")
            || has(b"\"resource_spans\"")
            || (scopes && (has(b"\"batches\"") || bare))
    },
    document: |de, sink| document(de, sink),
};

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
            let inner = child(self.level, key.as_str());
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
        let mut r = Reading::default();
        self.into_span_with(&mut r)?;
        Ok(r.finish())
    }

    /// The span read into `r`, which holds what was already read of it (the scanner's
    /// attributes, read as they came: a span's attributes are read in their order, and its
    /// status, events and trace state only ever add to them, so the order between those is
    /// free). The span is filled in place, not moved: it is about 200 bytes.
    fn into_span_with(self, r: &mut Reading) -> Result<(), String> {
        let trace = trace_id(&self.trace_id.0)
            .ok_or_else(|| format!("traceId '{}' is not a trace id", self.trace_id.0))?;
        let id = span_id(&self.span_id.0)
            .filter(|&id| id != 0)
            .ok_or_else(|| format!("spanId '{}' is not a span id", self.span_id.0))?;
        let parent = span_id(&self.parent_span_id.0)
            .ok_or_else(|| format!("parentSpanId '{}' is not a span id", self.parent_span_id.0))?;
        let nanos = |t: &Text| t.as_str().trim().parse::<u64>().ok().map(|n| n as i64);
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
        Ok(())
    }
}

/// One OTLP/JSON document held in memory, read by the JSON scanner rather than by serde: the
/// levels walked in place, and of each span only the fields and attributes the model reads
/// taken (into the same `RawSpan`, so a span comes out exactly as serde would make it);
/// every other attribute is checked as JSON and skipped, never listed. Anything the scanner
/// is not sure of is a [`Bail`], and the caller reads the document with serde instead (which
/// then reads it, or says what is wrong with it).
pub fn scan_document(text: &str, sink: &mut dyn SpanSink) -> Result<(), Bail> {
    let mut scan = Scan::new(text);
    scan_level(&mut scan, Level::Document, sink)?;
    scan.end()
}

/// The object at the cursor, at `level` of the document.
fn scan_level(scan: &mut Scan<'_>, level: Level, sink: &mut dyn SpanSink) -> Result<(), Bail> {
    if let Level::Span = level {
        let mut r = Reading::default();
        scan_span(scan, &mut r)?;
        return sink.span(r.finish()).map_err(|_| Bail);
    }
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        let inner = child(level, key);
        match inner {
            Some((inner, true)) => {
                if scan.peek()? == Json::Null {
                    scan.skip()?;
                    continue;
                }
                let mut items = scan.array()?;
                while items.next(scan)?.is_some() {
                    scan_level(scan, inner, sink)?;
                }
            }
            Some((inner, false)) => scan_level(scan, inner, sink)?,
            None => {
                scan.skip()?;
            }
        }
    }
    Ok(())
}

/// A leaf as serde reads it into [`Text`]: a string (unescaped), `null` (empty), a bool, an
/// integer as written; anything else (a fraction, an exponent, a number past 64 bits, whose
/// text serde writes otherwise) bails.
fn scan_text<'a>(scan: &mut Scan<'a>) -> Result<Text<'a>, Bail> {
    Ok(match scan.leaf()? {
        Leaf::Text(t) => Text(Cow::Borrowed(t)),
        Leaf::Escaped(t) => {
            let mut out = Vec::with_capacity(t.len());
            unescape(t, &mut out)?;
            Text(Cow::Owned(String::from_utf8(out).map_err(|_| Bail)?))
        }
        Leaf::Null => Text::default(),
        Leaf::Raw(raw) => match raw {
            "true" | "false" => Text(Cow::Borrowed(raw)),
            _ => {
                let digits = raw.strip_prefix('-').unwrap_or(raw);
                let plain = !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && (digits == "0" || !digits.starts_with('0'))
                    && raw != "-0"
                    && if raw.starts_with('-') {
                        raw.parse::<i64>().is_ok()
                    } else {
                        raw.parse::<u64>().is_ok()
                    };
                if !plain {
                    return Err(Bail);
                }
                Text(Cow::Borrowed(raw))
            }
        },
    })
}

/// Marks field `bit` of a struct read; a field met twice bails (serde: "duplicate field").
fn once(seen: &mut u32, bit: u32) -> Result<(), Bail> {
    if *seen & (1 << bit) != 0 {
        return Err(Bail);
    }
    *seen |= 1 << bit;
    Ok(())
}

/// A span into `r`, its attributes read into the span as they come (never listed).
fn scan_span(scan: &mut Scan<'_>, r: &mut Reading) -> Result<(), Bail> {
    let raw = scan_span_fields(scan, r)?;
    raw.into_span_with(r).map_err(|_| Bail)
}

/// A span's fields but its attributes, which go into `r`.
fn scan_span_fields<'a>(scan: &mut Scan<'a>, r: &mut Reading) -> Result<RawSpan<'a>, Bail> {
    let mut raw = RawSpan::default();
    let mut seen = 0;
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        let (bit, field) = match key {
            "traceId" | "trace_id" => (0, &mut raw.trace_id),
            "spanId" | "span_id" => (1, &mut raw.span_id),
            "parentSpanId" | "parent_span_id" => (2, &mut raw.parent_span_id),
            "traceState" | "trace_state" => (3, &mut raw.trace_state),
            "kind" => (4, &mut raw.kind),
            "startTimeUnixNano" | "start_time_unix_nano" => (5, &mut raw.start_time_unix_nano),
            "endTimeUnixNano" | "end_time_unix_nano" => (6, &mut raw.end_time_unix_nano),
            "attributes" => {
                once(&mut seen, 7)?;
                scan_attributes(scan, span::reads, |key, value| {
                    if let Some(v) = value.text() {
                        r.attribute(key.as_str(), v);
                    }
                })?;
                continue;
            }
            "events" => {
                once(&mut seen, 8)?;
                let mut items = scan.array()?;
                while items.next(scan)?.is_some() {
                    raw.events.push(scan_event(scan)?);
                }
                continue;
            }
            "status" => {
                once(&mut seen, 9)?;
                raw.status = scan_status(scan)?;
                continue;
            }
            _ => {
                scan.skip()?;
                continue;
            }
        };
        once(&mut seen, bit)?;
        *field = scan_text(scan)?;
    }
    Ok(raw)
}

/// An attribute list: the attributes `wanted` names handed to `take` in their order, the
/// others checked and skipped.
fn scan_attributes<'a>(
    scan: &mut Scan<'a>,
    wanted: fn(&str) -> bool,
    mut take: impl FnMut(Text<'a>, AnyValue<'a>),
) -> Result<(), Bail> {
    let mut items = scan.array()?;
    while items.next(scan)?.is_some() {
        if let Some((key, value)) = plain_attribute(scan) {
            if wanted(key) {
                take(Text(Cow::Borrowed(key)), value);
            }
            continue;
        }
        let mut keys = scan.object()?;
        let mut kv: Option<KeyValue> = None;
        let mut seen = 0;
        while let Some(key) = keys.next(scan)? {
            match key {
                "key" => {
                    once(&mut seen, 0)?;
                    let key = scan_text(scan)?;
                    if wanted(key.as_str()) {
                        kv = Some(KeyValue {
                            key,
                            value: AnyValue::default(),
                        });
                    }
                }
                // The value before its key: not known to be wanted yet.
                "value" if seen & 1 == 0 => return Err(Bail),
                "value" => {
                    once(&mut seen, 1)?;
                    match &mut kv {
                        Some(kv) => kv.value = scan_any(scan)?,
                        None => check_any(scan)?,
                    }
                }
                _ => {
                    scan.skip()?;
                }
            }
        }
        if let Some(kv) = kv {
            take(kv.key, kv.value);
        }
    }
    Ok(())
}

/// An attribute as the SDKs and the Collector write it, `{"key":"K","value":{"stringValue":"V"}}`
/// (or `intValue`, `doubleValue`, `boolValue`) with no whitespace and no escape: its key and
/// value, the cursor past it, read as the general way reads them. Anything else is `None`
/// with nothing read.
#[inline]
fn plain_attribute<'a>(scan: &mut Scan<'a>) -> Option<(&'a str, AnyValue<'a>)> {
    let mut s = scan.clone();
    if !s.literal(r#"{"key":"#) {
        return None;
    }
    let key = s.plain_string()?;
    if !s.literal(r#","value":{""#) {
        return None;
    }
    let mut any = AnyValue::default();
    let field = if s.literal(r#"stringValue":"#) {
        &mut any.string_value
    } else if s.literal(r#"intValue":"#) {
        &mut any.int_value
    } else if s.literal(r#"boolValue":"#) {
        &mut any.bool_value
    } else if s.literal(r#"doubleValue":"#) {
        &mut any.double_value
    } else {
        return None;
    };
    *field = Some(Text(Cow::Borrowed(s.plain_string()?)));
    if !s.literal("}}") {
        return None;
    }
    *scan = s;
    Some((key, any))
}

fn scan_any<'a>(scan: &mut Scan<'a>) -> Result<AnyValue<'a>, Bail> {
    let mut any = AnyValue::default();
    let mut seen = 0;
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        let (bit, field) = match key {
            "stringValue" | "string_value" => (0, &mut any.string_value),
            "intValue" | "int_value" => (1, &mut any.int_value),
            "doubleValue" | "double_value" => (2, &mut any.double_value),
            "boolValue" | "bool_value" => (3, &mut any.bool_value),
            "arrayValue" | "array_value" => {
                once(&mut seen, 4)?;
                if scan.peek()? == Json::Null {
                    scan.skip()?;
                    continue;
                }
                let mut values = Vec::new();
                let mut inner = scan.object()?;
                let mut seen_values = 0;
                while let Some(key) = inner.next(scan)? {
                    if key == "values" {
                        once(&mut seen_values, 0)?;
                        let mut items = scan.array()?;
                        while items.next(scan)?.is_some() {
                            values.push(scan_any(scan)?);
                        }
                    } else {
                        scan.skip()?;
                    }
                }
                any.array_value = Some(ArrayValue { values });
                continue;
            }
            _ => {
                scan.skip()?;
                continue;
            }
        };
        once(&mut seen, bit)?;
        // `null` is serde's None for an Option field.
        *field = if scan.peek()? == Json::Null {
            scan.skip()?;
            None
        } else {
            Some(scan_text(scan)?)
        };
    }
    Ok(any)
}

/// An attribute's value not read, checked as serde checks it: an object whose value fields
/// are scalars, its `arrayValue` an object of `values` checked so, once each.
fn check_any(scan: &mut Scan<'_>) -> Result<(), Bail> {
    let mut seen = 0;
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        let bit = match key {
            "stringValue" | "string_value" => 0,
            "intValue" | "int_value" => 1,
            "doubleValue" | "double_value" => 2,
            "boolValue" | "bool_value" => 3,
            "arrayValue" | "array_value" => {
                once(&mut seen, 4)?;
                if scan.peek()? == Json::Null {
                    scan.skip()?;
                    continue;
                }
                let mut inner = scan.object()?;
                let mut seen_values = 0;
                while let Some(key) = inner.next(scan)? {
                    if key == "values" {
                        once(&mut seen_values, 0)?;
                        let mut items = scan.array()?;
                        while items.next(scan)?.is_some() {
                            check_any(scan)?;
                        }
                    } else {
                        scan.skip()?;
                    }
                }
                continue;
            }
            _ => {
                scan.skip()?;
                continue;
            }
        };
        once(&mut seen, bit)?;
        if matches!(scan.peek()?, Json::Object | Json::Array) {
            return Err(Bail);
        }
        scan.skip()?;
    }
    Ok(())
}

fn scan_event<'a>(scan: &mut Scan<'a>) -> Result<Event<'a>, Bail> {
    let mut event = Event::default();
    let mut seen = 0;
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        match key {
            "name" => {
                once(&mut seen, 0)?;
                event.name = scan_text(scan)?;
            }
            "attributes" => {
                once(&mut seen, 1)?;
                scan_attributes(scan, span::event_reads, |key, value| {
                    event.attributes.push(KeyValue { key, value });
                })?;
            }
            _ => {
                scan.skip()?;
            }
        }
    }
    Ok(event)
}

fn scan_status<'a>(scan: &mut Scan<'a>) -> Result<Status<'a>, Bail> {
    let mut status = Status::default();
    let mut seen = 0;
    let mut keys = scan.object()?;
    while let Some(key) = keys.next(scan)? {
        let (bit, field) = match key {
            "code" => (0, &mut status.code),
            "message" => (1, &mut status.message),
            _ => {
                scan.skip()?;
                continue;
            }
        };
        once(&mut seen, bit)?;
        *field = scan_text(scan)?;
    }
    Ok(status)
}

/// The level a key under `level` opens, and whether it holds a list of them: the path to the
/// spans that both the scanner and serde's visitor follow (`resourceSpans` or Jaeger's
/// `batches`, then `scopeSpans` or the older `instrumentationLibrarySpans`, then `spans`; a
/// document that is one `ResourceSpans` opens `scopeSpans` itself).
fn child(level: Level, key: &str) -> Option<(Level, bool)> {
    match (level, key) {
        (Level::Document, "resourceSpans" | "resource_spans" | "batches") => {
            Some((Level::ResourceSpans, true))
        }
        (Level::Document, "trace" | "result") => Some((Level::Document, false)),
        (
            Level::Document | Level::ResourceSpans,
            "scopeSpans"
            | "scope_spans"
            | "instrumentationLibrarySpans"
            | "instrumentation_library_spans",
        ) => Some((Level::ScopeSpans, true)),
        (Level::ScopeSpans, "spans") => Some((Level::Span, true)),
        _ => None,
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

    /// The spans serde reads from a document, or its error.
    fn by_serde(text: &str) -> Result<String, String> {
        let mut keep = Keep(Vec::new());
        let mut de = serde_json::Deserializer::from_str(text);
        document(&mut de, &mut keep)
            .and_then(|()| de.end())
            .map_err(|e| e.to_string())?;
        Ok(format!("{:?}", keep.0))
    }

    /// The spans the scanner reads, or its bail.
    fn by_scan(text: &str) -> Result<String, Bail> {
        let mut keep = Keep(Vec::new());
        scan_document(text, &mut keep)?;
        Ok(format!("{:?}", keep.0))
    }

    /// Where the scanner reads a document, it reads the spans serde reads.
    pub fn agree(text: &str) {
        if let Ok(scanned) = by_scan(text) {
            assert_eq!(Ok(scanned), by_serde(text), "{text}");
        }
    }

    #[test]
    fn the_scanner_reads_the_spans_serde_reads() {
        let span = r#"{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
            "parentSpanId":"eee19b7ec3c1b173","name":"x","kind":3,
            "startTimeUnixNano":"1544712660000000000","endTimeUnixNano":1544712661000000000,
            "traceState":"ot=th:c","attributes":[
              {"key":"http.request.method","value":{"stringValue":"post"}},
              {"key":"url.full","value":{"stringValue":"http:\/\/h:80\/orders\/7?x=\u00e9"}},
              {"key":"server.port","value":{"intValue":"8080"}},
              {"key":"other","value":{"doubleValue":1.5}},
              {"key":"http.response.status_code","value":{"intValue":201}},
              {"key":"http.request.header.idempotency-key","value":{"arrayValue":{"values":[{"stringValue":"k-1"}]}}},
              {"key":"http.request.resend_count","value":{"intValue":"1","stringValue":null}}],
            "events":[{"attributes":[{"key":"exception.type","value":{"stringValue":"ReadTimeout"}}],"name":"exception"}],
            "status":{"code":2,"message":"Read timed out"}}"#;
        let docs = [
            format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{span}]}}]}}]}}"#),
            format!(r#"{{"result":{{"resource_spans":[{{"scope_spans":[{{"spans":[{span},{span}]}}]}}]}}}}"#),
            format!(r#"{{"batches":[{{"instrumentationLibrarySpans":[{{"spans":[{span}]}}]}}]}}"#),
            // One ResourceSpans a line (the Java agent's `logging-otlp` exporter).
            format!(r#"{{"resource":{{"attributes":[]}},"scopeSpans":[{{"spans":[{span}]}}],"schemaUrl":"s"}}"#),
            r#"{"resourceSpans":null}"#.to_string(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2","kind":"SPAN_KIND_SERVER","status":{"code":"STATUS_CODE_ERROR"}}]}]}]}"#.to_string(),
        ];
        for doc in &docs {
            assert!(by_scan(doc).is_ok(), "the scanner reads {doc}");
            agree(doc);
        }
        // What the scanner declines, serde reads or refuses.
        for doc in [
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","traceId":"1","spanId":"2"}]}]}]}"#,
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2","attributes":[{"value":{"stringValue":"POST"},"key":"http.method"}]}]}]}]}"#,
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2","startTimeUnixNano":1.5e18}]}]}]}"#,
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz","spanId":"2"}]}]}]}"#,
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2"}]}]}]} x"#,
        ] {
            assert!(by_scan(doc).is_err(), "the scanner declines {doc}");
        }
    }

    proptest::proptest! {
        /// Spans of generated attributes and values: the scanner reads what serde reads.
        #[test]
        fn scanner_and_serde_agree(
            keys in proptest::collection::vec(
                proptest::sample::select(vec![
                    "http.method", "http.request.method", "http.status_code", "url.full",
                    "http.target", "error.type", "error", "server.address", "server.port",
                    "http.request.resend_count", "other", "otel.status_code",
                ]),
                0..6,
            ),
            values in proptest::collection::vec(
                proptest::sample::select(vec![
                    r#"{"stringValue":"POST"}"#, r#"{"intValue":"201"}"#, r#"{"intValue":201}"#,
                    r#"{"intValue":-3}"#, r#"{"doubleValue":2.5}"#, r#"{"boolValue":true}"#,
                    r#"{"stringValue":"a\"b\\u00e9"}"#, r#"{"stringValue":null}"#, r#"{}"#,
                    r#"{"arrayValue":{"values":[{"stringValue":"k"}]}}"#, r#"null"#, r#"7"#,
                    r#"{"stringValue":"timeout","intValue":"1"}"#, r#"{"intValue":1e3}"#,
                    r#"{"stringValue":{}}"#, r#"{"arrayValue":null}"#, r#"{"kvlistValue":{"values":[]}}"#,
                    r#"{"arrayValue":{"values":[{"intValue":[]}]}}"#, r#"{"boolValue":false}"#,
                ]),
                6,
            ),
            kind in proptest::sample::select(vec!["2", "3", "\"3\"", "\"SPAN_KIND_CLIENT\"", "null"]),
        ) {
            let attributes: Vec<String> = keys
                .iter()
                .zip(&values)
                .map(|(k, v)| format!(r#"{{"key":"{k}","value":{v}}}"#))
                .collect();
            let doc = format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"traceId":"ab","spanId":"cd","kind":{kind},"attributes":[{}]}}]}}]}}]}}"#,
                attributes.join(",")
            );
            agree(&doc);
        }
    }
}
