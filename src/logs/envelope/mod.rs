//! The envelope stage: what wraps each access line on its way to the reader
//! (`docs/MODEL.md`, "Envelopes"), taken off before the line's format reads it.
//!
//! ```text
//! source -> envelope (this room) -> framing (lines) -> fields per format -> row -> tally
//! ```
//!
//! An [`Envelope`] turns one physical line into an [`Unwrapped`] access line: its text (the
//! line as the server wrote it), the envelope's time (a fallback: the access line's own time
//! wins), its stream (stdout/stderr) and whether it is only a part of a line to be joined
//! with what follows (CRI `P`, Docker's entries without a trailing newline). The framing
//! keeps the parts and the stream; this room keeps no state and knows no format, so it
//! imports nothing but the error leaf.
//!
//! - [`text`]: CRI, syslog (RFC 3164 and 5424), `kubectl logs --prefix/--timestamps`,
//!   stern's prefix, `<time> <line>` (CloudWatch's S3 export) and Loki's `logcli`;
//! - [`json`]: JSON records carrying the line in a field: Docker json-file (`log`), Fluent
//!   Bit and Vector (`log`, `message`), Elastic/Filebeat/Logstash (`message`,
//!   `event.original`), CloudWatch (`message`), Loki (`line`).
//!
//! Which envelope a file has is told by `detect` from its first lines, or named with
//! `--envelope`.

pub mod compose;
pub mod json;
pub mod text;

use std::fmt;
use std::str::FromStr;

/// The stream a container line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
    /// The envelope does not say.
    Unknown,
}

impl Stream {
    /// Index into per-stream state: 0 stdout (or unknown), 1 stderr.
    pub fn index(self) -> usize {
        usize::from(self == Stream::Stderr)
    }
}

/// One physical line, unwrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unwrapped<'a> {
    /// The access line (or a part of it) as the server wrote it, without its line end.
    pub text: &'a [u8],
    /// The envelope's time, as written (RFC 3339, or epoch milliseconds); `None` when it
    /// has none or one without a year (RFC 3164).
    pub time: Option<&'a [u8]>,
    pub stream: Stream,
    /// Only a part of a line: joined with the next lines of its stream up to the last part.
    pub partial: bool,
}

/// Where a JSON envelope carries the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonField {
    /// `log`: Docker json-file, Fluent Bit.
    Log,
    /// `message`: Vector, Filebeat, Logstash, CloudWatch's events.
    Message,
    /// `event.original`: Elastic Common Schema.
    EventOriginal,
    /// `line`: Loki (`logcli -o jsonl`, the push API).
    Line,
}

impl JsonField {
    pub const ALL: [JsonField; 4] = [
        JsonField::EventOriginal,
        JsonField::Log,
        JsonField::Message,
        JsonField::Line,
    ];

    pub fn name(self) -> &'static str {
        match self {
            JsonField::Log => "log",
            JsonField::Message => "message",
            JsonField::EventOriginal => "event.original",
            JsonField::Line => "line",
        }
    }
}

/// What wraps a file's access lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// Kubernetes' CRI log format: `<RFC 3339 time> <stdout|stderr> <F|P> <text>`.
    Cri,
    /// Docker's json-file driver: `{"log":"...\n","stream":"stdout","time":"..."}`; an
    /// entry without the trailing newline is a part.
    Docker,
    /// A JSON record with the line in one field (log shippers, log stores' exports).
    Json(JsonField),
    /// Syslog RFC 5424: `<PRI>1 TIME HOST APP PROCID MSGID [SD] MSG`.
    Syslog5424,
    /// Syslog RFC 3164 (BSD) as files and relays write it: `[<PRI>]TIME HOST TAG[PID]: MSG`,
    /// TIME as `Mmm dd hh:mm:ss` or RFC 3339 (rsyslog's high-precision file format).
    Syslog3164,
    /// `kubectl logs --prefix` (`[pod/NAME/CONTAINER] `), with `--timestamps` when `time`.
    Kubectl { time: bool },
    /// stern's default prefix: `POD CONTAINER `.
    Stern,
    /// `<RFC 3339 time> <line>`: `kubectl logs --timestamps`, CloudWatch's S3 export.
    Timestamped,
    /// Loki's `logcli query` text output: `<RFC 3339 time> {labels} <line>`.
    Logcli,
    /// `docker compose logs`: `SERVICE-1  | <line>` (with `--timestamps`, a time after `| `).
    Compose,
}

impl Envelope {
    /// Every envelope, in the order detection tries them (most particular first).
    pub const ALL: [Envelope; 14] = [
        Envelope::Cri,
        Envelope::Docker,
        Envelope::Json(JsonField::EventOriginal),
        Envelope::Json(JsonField::Log),
        Envelope::Json(JsonField::Message),
        Envelope::Json(JsonField::Line),
        Envelope::Syslog5424,
        Envelope::Kubectl { time: true },
        Envelope::Kubectl { time: false },
        Envelope::Logcli,
        Envelope::Compose,
        Envelope::Timestamped,
        Envelope::Syslog3164,
        Envelope::Stern,
    ];

    /// For the evidence: "CRI container log", "syslog RFC 5424".
    pub fn describe(self) -> String {
        match self {
            Envelope::Cri => "CRI container log".into(),
            Envelope::Docker => "Docker json-file".into(),
            Envelope::Json(field) => format!("JSON records with the line in `{}`", field.name()),
            Envelope::Syslog5424 => "syslog RFC 5424".into(),
            Envelope::Syslog3164 => "syslog RFC 3164".into(),
            Envelope::Kubectl { time: true } => "kubectl logs --prefix --timestamps".into(),
            Envelope::Kubectl { time: false } => "kubectl logs --prefix".into(),
            Envelope::Stern => "stern's prefix".into(),
            Envelope::Timestamped => {
                "timestamped lines (kubectl logs --timestamps, CloudWatch S3 export)".into()
            }
            Envelope::Logcli => "Loki logcli output".into(),
            Envelope::Compose => "docker compose logs".into(),
        }
    }

    /// Its lines carry a time (the fallback for access lines without one). RFC 3164's
    /// `Mmm dd` has no year, so only its RFC 3339 variant does.
    pub fn has_time(self) -> bool {
        !matches!(
            self,
            Envelope::Kubectl { time: false }
                | Envelope::Stern
                | Envelope::Syslog3164
                | Envelope::Compose
        )
    }

    /// Unwraps one physical line (without its line end). `scratch` holds what had to be
    /// unescaped (JSON). Err(what was expected) makes the line a bad row.
    pub fn unwrap<'a>(
        self,
        line: &'a [u8],
        scratch: &'a mut Vec<u8>,
    ) -> Result<Unwrapped<'a>, String> {
        match self {
            Envelope::Cri => text::cri(line),
            Envelope::Docker => json::unwrap(line, scratch, None),
            Envelope::Json(field) => json::unwrap(line, scratch, Some(field)),
            Envelope::Syslog5424 => text::syslog_5424(line),
            Envelope::Syslog3164 => text::syslog_3164(line),
            Envelope::Kubectl { time } => text::kubectl(line, time),
            Envelope::Stern => text::stern(line),
            Envelope::Timestamped => text::timestamped(line),
            Envelope::Logcli => text::logcli(line),
            Envelope::Compose => compose::compose(line),
        }
    }
}

/// `--envelope`: auto (told from the first lines), none, or one envelope named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnvelopeChoice {
    #[default]
    Auto,
    None,
    Named(Envelope),
}

/// The names `--envelope` takes, with what each is.
pub const NAMES: [(&str, Option<Envelope>); 12] = [
    ("none", None),
    ("cri", Some(Envelope::Cri)),
    ("docker", Some(Envelope::Docker)),
    ("json-log", Some(Envelope::Json(JsonField::Log))),
    ("json-message", Some(Envelope::Json(JsonField::Message))),
    (
        "json-event-original",
        Some(Envelope::Json(JsonField::EventOriginal)),
    ),
    ("json-line", Some(Envelope::Json(JsonField::Line))),
    ("syslog", Some(Envelope::Syslog3164)),
    ("syslog5424", Some(Envelope::Syslog5424)),
    ("kubectl", Some(Envelope::Kubectl { time: false })),
    ("kubectl-timestamps", Some(Envelope::Kubectl { time: true })),
    ("timestamped", Some(Envelope::Timestamped)),
];

/// Names past [`NAMES`] (kept apart so `NAMES` stays one table to read).
const MORE_NAMES: [(&str, Envelope); 3] = [
    ("logcli", Envelope::Logcli),
    ("stern", Envelope::Stern),
    ("compose", Envelope::Compose),
];

impl FromStr for EnvelopeChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase();
        if wanted == "auto" {
            return Ok(EnvelopeChoice::Auto);
        }
        if let Some((_, e)) = NAMES.iter().find(|(n, _)| *n == wanted) {
            return Ok(e.map_or(EnvelopeChoice::None, EnvelopeChoice::Named));
        }
        if let Some((_, e)) = MORE_NAMES.iter().find(|(n, _)| *n == wanted) {
            return Ok(EnvelopeChoice::Named(*e));
        }
        let mut names = vec!["auto"];
        names.extend(NAMES.iter().map(|(n, _)| *n));
        names.extend(MORE_NAMES.iter().map(|(n, _)| *n));
        Err(format!(
            "unknown envelope '{s}': use one of {}",
            names.join(", ")
        ))
    }
}

impl fmt::Display for EnvelopeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvelopeChoice::Auto => f.write_str("auto"),
            EnvelopeChoice::None => f.write_str("none"),
            EnvelopeChoice::Named(e) => {
                let name = NAMES
                    .iter()
                    .find(|(_, n)| *n == Some(*e))
                    .map(|(n, _)| *n)
                    .or_else(|| MORE_NAMES.iter().find(|(_, n)| n == e).map(|(n, _)| *n))
                    .unwrap_or("auto");
                f.write_str(name)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for (name, _) in NAMES
            .iter()
            .chain(&[("logcli", None), ("stern", None), ("compose", None)])
        {
            let choice: EnvelopeChoice = name.parse().unwrap();
            assert_eq!(choice.to_string(), *name);
        }
        assert!(
            "gelf"
                .parse::<EnvelopeChoice>()
                .unwrap_err()
                .contains("cri")
        );
    }
}
