//! The fields stage: which field of a row plays which [`Role`], per log format.
//!
//! Each format gets one module here that turns what names a log's fields (a CSV header
//! today; an nginx `log_format` or Apache `LogFormat` string, the fixed fields of ALB,
//! CloudFront, HAProxy and Envoy, JSON paths later) into one [`ColumnMap`]: the index of
//! each role's field, the duration unit and the flags style. Everything after this stage (the
//! row's meaning, the tally) reads fields by role through a `ColumnMap` and never by format.
//!
//! - [`csv`]: CSV and TSV headers, recognised by name (`ColumnMap::detect`).

pub mod alb;
pub mod cloudfront;
mod csv;
pub mod json;

use std::str::FromStr;

use super::error::LogError;
use super::role::{Role, normalize};

/// The unit of numbers in the duration column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationUnit {
    Seconds,
    Millis,
    Micros,
    Nanos,
}

impl DurationUnit {
    /// Nanoseconds in one unit.
    pub fn nanos(self) -> f64 {
        match self {
            DurationUnit::Seconds => 1e9,
            DurationUnit::Millis => 1e6,
            DurationUnit::Micros => 1e3,
            DurationUnit::Nanos => 1.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DurationUnit::Seconds => "s",
            DurationUnit::Millis => "ms",
            DurationUnit::Micros => "us",
            DurationUnit::Nanos => "ns",
        }
    }
}

impl FromStr for DurationUnit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "secs" | "second" | "seconds" => Ok(DurationUnit::Seconds),
            "ms" | "milli" | "millis" | "milliseconds" => Ok(DurationUnit::Millis),
            "us" | "µs" | "micro" | "micros" | "microseconds" => Ok(DurationUnit::Micros),
            "ns" | "nano" | "nanos" | "nanoseconds" => Ok(DurationUnit::Nanos),
            _ => Err(format!("unknown duration unit '{s}': use s, ms, us or ns")),
        }
    }
}

/// Column index of each role in one file's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMap {
    /// The header names as read (lossy UTF-8), for messages.
    pub headers: Vec<String>,
    pub timestamp: Option<usize>,
    pub method: usize,
    pub path: Option<usize>,
    pub status: usize,
    pub upstream_status: Option<usize>,
    pub duration: Option<usize>,
    pub idempotency_key: Option<usize>,
    pub bytes: Option<usize>,
    pub flags: Option<usize>,
    pub request_id: Option<usize>,
    /// Unit of the duration column, from its name or `--duration-unit`.
    pub duration_unit: DurationUnit,
    /// How the flags column reads, from its name.
    pub flags_style: FlagsStyle,
}

/// The two ways a proxy writes how a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagsStyle {
    /// Envoy `response_flags`: comma-separated codes; `UT` (upstream timeout), `DC`
    /// (downstream closed), `UC` (upstream closed), `URX` (retry limit) are give-ups.
    Envoy,
    /// HAProxy `termination_state`: a first letter `c`/`C` (the client side ended it) or
    /// `s`/`S` (the server timed out or aborted) is a give-up.
    Haproxy,
    /// CloudFront `x-edge-detailed-result-type`: `ClientCommError` and `ClientHungUpRequest`
    /// (the viewer went away before the answer) are give-ups.
    Cloudfront,
}

impl FlagsStyle {
    /// HAProxy's when the column's name says termination state, Envoy's otherwise.
    pub fn from_name(header: &[u8]) -> FlagsStyle {
        let n = normalize(header);
        if n.contains("termination") || n == "tsc" {
            FlagsStyle::Haproxy
        } else if n.starts_with("xedge") {
            FlagsStyle::Cloudfront
        } else {
            FlagsStyle::Envoy
        }
    }

    /// The flags say the client (or the proxy for it) gave up on the request.
    #[inline]
    pub fn gave_up(self, value: &[u8]) -> bool {
        let value = value.trim_ascii();
        match self {
            FlagsStyle::Haproxy => matches!(value.first(), Some(b'c' | b'C' | b's' | b'S')),
            FlagsStyle::Cloudfront => {
                matches!(value, b"ClientCommError" | b"ClientHungUpRequest")
            }
            FlagsStyle::Envoy => value
                .split(|&b| b == b',' || b == b'|' || b == b' ')
                .any(|code| matches!(code, b"UT" | b"DC" | b"UC" | b"URX")),
        }
    }
}

impl ColumnMap {
    /// The header of a role's column, if it has one.
    pub fn header_of(&self, role: Role) -> Option<&str> {
        let index = match role {
            Role::Timestamp => self.timestamp,
            Role::Method => Some(self.method),
            Role::Path => self.path,
            Role::Status => Some(self.status),
            Role::UpstreamStatus => self.upstream_status,
            Role::Duration => self.duration,
            Role::IdempotencyKey => self.idempotency_key,
            Role::Bytes => self.bytes,
            Role::Flags => self.flags,
            Role::RequestId => self.request_id,
        }?;
        self.headers.get(index).map(String::as_str)
    }

    /// A missing-column error for a role that an option needs (e.g. duration for
    /// `--client-timeout`).
    pub fn missing(&self, path: &str, role: Role) -> LogError {
        LogError::MissingColumn {
            path: path.to_string(),
            role,
            aliases: role.aliases().join(", "),
            found: self.headers.join(", "),
        }
    }
}

// ---- Provisional copy of the shared line-format interface (issue 12). FMT-LINES owns it in
// its `formats: framework` commit; its version replaces this block at the merge.

/// `--input-format`: auto (sniffed from the first lines), or one format named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    Auto,
    Csv,
    Tsv,
    Nginx,
    Apache,
    Alb,
    Elb,
    Cloudfront,
    Haproxy,
    Envoy,
    Json,
}

/// One line's fields, back to back: field i is `data[ends[i-1]..ends[i]]` (`ends[-1]` = 0).
#[derive(Debug, Default)]
pub struct Fields {
    pub data: Vec<u8>,
    pub ends: Vec<usize>,
}

impl Fields {
    pub fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
    }

    pub fn push(&mut self, field: &[u8]) {
        self.data.extend_from_slice(field);
        self.ends.push(self.data.len());
    }

    /// Field `i`, for tests.
    pub fn get(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.data[start..self.ends[i]]
    }
}

/// What names cannot tell.
#[derive(Debug, Clone, Default)]
pub struct FormatHints {
    pub duration_unit: Option<DurationUnit>,
    pub flags_style: Option<FlagsStyle>,
}

/// A line-oriented log format, built once per input.
pub trait LineFormat: Send + Sync + std::fmt::Debug {
    fn describe(&self) -> String;
    fn names(&self) -> Vec<String>;
    fn hints(&self) -> FormatHints;
    fn skip(&self, _line: &[u8]) -> bool {
        false
    }
    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String>;
}
