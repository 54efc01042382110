//! JSON envelopes: one JSON record a line, the access line in one of its fields (Docker's
//! json-file, Fluent Bit, Vector, Filebeat/Logstash, CloudWatch's events, Loki).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{JsonField, Stream, Unwrapped};

/// The fields an envelope reads; the others are skipped unread.
#[derive(Deserialize)]
struct Record<'a> {
    #[serde(borrow, default)]
    log: Option<&'a RawValue>,
    #[serde(borrow, default)]
    message: Option<&'a RawValue>,
    #[serde(borrow, default)]
    line: Option<&'a RawValue>,
    #[serde(borrow, default)]
    event: Option<&'a RawValue>,
    #[serde(borrow, default)]
    stream: Option<&'a RawValue>,
    #[serde(borrow, default)]
    time: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "@timestamp")]
    at_timestamp: Option<&'a RawValue>,
    #[serde(borrow, default)]
    timestamp: Option<&'a RawValue>,
    /// Fluent Bit's CRI parser: `P` for a part, `F` for the last.
    #[serde(borrow, default, rename = "_p")]
    part: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(borrow, default)]
    original: Option<&'a RawValue>,
}

/// A JSON string's text; `None` for another kind of value.
fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    if text.starts_with('"') {
        serde_json::from_str(text).ok()
    } else {
        None
    }
}

/// The line of a record whose `field` holds it (Docker's `log` with its partial entries when
/// `field` is `None`). A record without the field gives an empty text (a line that is not
/// an access line, skipped by the framing).
pub fn unwrap<'a>(
    line: &'a [u8],
    scratch: &'a mut Vec<u8>,
    field: Option<JsonField>,
) -> Result<Unwrapped<'a>, String> {
    let record: Record<'a> = serde_json::from_slice(line).map_err(|e| {
        format!(
            "expected one JSON record a line ({}{}), {e}",
            field.map_or("Docker json-file", |_| "a record with the line in `"),
            field.map_or(String::new(), |f| format!("{}`", f.name()))
        )
    })?;
    let raw = match field.unwrap_or(JsonField::Log) {
        JsonField::Log => record.log,
        JsonField::Message => record.message,
        JsonField::Line => record.line,
        JsonField::EventOriginal => match record.event {
            Some(event) => serde_json::from_str::<Event<'_>>(event.get())
                .ok()
                .and_then(|e| e.original),
            None => None,
        },
    };
    let text = match raw {
        Some(raw) => string(raw).ok_or_else(|| {
            format!(
                "expected the `{}` field to be a string",
                field.unwrap_or(JsonField::Log).name()
            )
        })?,
        None => Cow::Borrowed(""),
    };
    let mut text: &str = &text;
    let mut partial = record
        .part
        .and_then(string)
        .is_some_and(|p| p.as_ref() == "P");
    if field.is_none() {
        // Docker: every whole entry ends with its newline; one without it is a part.
        match text.strip_suffix('\n') {
            Some(t) => text = t,
            None => partial = true,
        }
    }
    let stream = match record.stream.and_then(string).as_deref() {
        Some("stdout") => Stream::Stdout,
        Some("stderr") => Stream::Stderr,
        _ => Stream::Unknown,
    };
    let time = [record.time, record.at_timestamp, record.timestamp]
        .into_iter()
        .flatten()
        .find_map(|raw| match string(raw) {
            Some(s) => Some(s.into_owned()),
            None => {
                let t = raw.get();
                t.bytes().all(|b| b.is_ascii_digit()).then(|| t.to_string())
            }
        });
    scratch.clear();
    scratch.extend_from_slice(text.strip_suffix('\r').unwrap_or(text).as_bytes());
    let split = scratch.len();
    if let Some(time) = &time {
        scratch.extend_from_slice(time.as_bytes());
    }
    let all: &'a Vec<u8> = scratch;
    let (text, time_bytes) = all.split_at(split);
    Ok(Unwrapped {
        text,
        time: time.is_some().then_some(time_bytes),
        stream,
        partial,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_entries() {
        let mut s = Vec::new();
        let u = unwrap(
            br#"{"log":"1.2.3.4 - - \"POST /a\"\n","stream":"stdout","time":"2019-01-01T11:11:11.111111111Z"}"#,
            &mut s,
            None,
        )
        .unwrap();
        assert_eq!(u.text, br#"1.2.3.4 - - "POST /a""#);
        assert_eq!(u.time, Some(&b"2019-01-01T11:11:11.111111111Z"[..]));
        assert_eq!((u.stream, u.partial), (Stream::Stdout, false));
        let mut s = Vec::new();
        let u = unwrap(
            br#"{"log":"part","stream":"stderr","time":"x"}"#,
            &mut s,
            None,
        )
        .unwrap();
        assert_eq!((u.stream, u.partial), (Stream::Stderr, true));
    }

    #[test]
    fn fields_and_times() {
        let mut s = Vec::new();
        let line = br#"{"eventId":"1","timestamp":1700000000000,"message":"GET / 200"}"#;
        let u = unwrap(line, &mut s, Some(JsonField::Message)).unwrap();
        assert_eq!(u.text, b"GET / 200");
        assert_eq!(u.time, Some(&b"1700000000000"[..]));
        let mut s = Vec::new();
        let line =
            br#"{"@timestamp":"2024-01-01T00:00:00Z","event":{"original":"x y"},"message":"z"}"#;
        let u = unwrap(line, &mut s, Some(JsonField::EventOriginal)).unwrap();
        assert_eq!(u.text, b"x y");
        let mut s = Vec::new();
        let u = unwrap(br#"{"other":1}"#, &mut s, Some(JsonField::Line)).unwrap();
        assert_eq!(u.text, b"");
        let mut s = Vec::new();
        assert!(unwrap(br#"{"log":"#, &mut s, None).is_err());
        let mut s = Vec::new();
        assert!(
            unwrap(br#"{"log":5}"#, &mut s, None)
                .unwrap_err()
                .contains("string")
        );
    }
}
