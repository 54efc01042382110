//! `dupcost logs`: the model's inputs measured from access logs (`docs/MODEL.md`,
//! "From access logs").
//!
//! # The rooms, in the order the bytes go through them
//!
//! ```text
//! source/    files or stdin, gzip by magic bytes, the first lines; pieces of a file for threads
//! envelope/  what wraps each access line (CRI, Docker, syslog, kubectl, log stores' JSON),
//!            taken off before the format reads it; `detect` tells it (and the formats' first
//!            lines) apart
//! framing/   bytes -> records of fields (CSV/TSV: the SIMD splitter, csv_core when quoted;
//!            line formats: lines unwrapped, parts joined, split by their format; JSON
//!            documents framed as one record a line)
//! formats/   what a log's lines are and which field plays which role, one module per format
//! row/       a row's meaning: mutating, give-up, outcome, endpoint, key, request id
//! tally/     mergeable counts per day, per endpoint and per intent (the intents table)
//! outcomes   the join with the backend's own log (--outcomes)
//! ```
//!
//! `analyze` drives them: it opens each input, maps its header, reads its records into a
//! [`Tally`] (one per piece, on one thread or several) and merges the tallies in order;
//! `options` holds the [`LogOptions`] and their defaults. There is no import circle: the
//! framing does not know rows (it hands records to a `RecordSink`, which the row stage
//! implements), the tally does not know rows (the row stage calls it), `envelope` and
//! `detect` know no format (the formats stage asks `detect` with its own reader), and
//! `error`, `role`, `limits` and `timestamp` are leaves that every room may use.
//!
//! Entry points: [`analyze`] reads the logs into a [`LogAnalysis`] (tallies and file facts);
//! [`crate::findings::derive`] turns it into the findings, and `report` words them. Nothing
//! here imports `findings`, `report`, `tui` or `commands`. Clap stays out: the CLI converts its arguments into a
//! [`LogOptions`]. The modules are private; what the commands, the reports, the explorer,
//! the tests and the fuzz targets use is re-exported here.

mod analysis;
mod analyze;
mod detect;
mod envelope;
mod error;
mod follow;
mod formats;
mod framing;
mod limits;
mod note;
mod options;
mod outcomes;
mod role;
mod row;
mod source;
mod tally;
#[cfg(test)]
mod tests;
mod timestamp;
mod traces;

pub use analysis::{FileInfo, FormatRead, Lacking, LogAnalysis};
pub use analyze::{analyze, analyze_bytes};
pub use detect::non_access;
pub use detect::unit::infer as infer_duration_unit;
pub use envelope::{Envelope, EnvelopeChoice, JsonField};
pub use error::{BadRow, LogError, RowPlace};
pub use follow::{DEFAULT_EVERY, FollowOptions, Tick, follow};
pub use formats::csv::duration_unit_named;
pub use formats::{
    ColumnMap, DurationUnit, Fields, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps,
    InputFormat, LineFormat, UnitDoubt, UnitInference, UnitRule, alb, ambassador, apigateway,
    catalog, cloudfront, compile as compile_format, duration_unit_from_name, haproxy_format, iis,
    json,
};
pub use framing::json_doc::{Document, Documents, sniff as sniff_document};
pub use framing::json_scan;
pub use framing::{CsvRecord, csv_records};
pub use note::{FormatNote, extra_fields};
pub use options::{
    DEFAULT_METHODS, DEFAULT_RETRY_WINDOW, DEFAULT_TIMEOUT_STATUSES, Intents, LogOptions, LogSide,
    SideRead, parse_time_bound,
};
pub use outcomes::Join;
pub use role::{Role, is_event_id};
pub use row::Grouping;
pub use row::PROXY_GIVE_UPS;
// The SQL query's tests hold its duration patterns to the reader's.
#[cfg(test)]
pub(crate) use row::values::{Took, parse_duration};
// The timestamp parsers too, for their benchmark and the log generator.
pub use source::LogInput;
pub use tally::{
    AttemptsHistogram, Counts, DEFAULT_SHARED_RATE, Duplicates, Endpoint, KeyedStats,
    MAX_ENDPOINTS, ProxyRetries, Shared, Tally, TimedOut,
};
pub use timestamp::{
    MICROS_PER_DAY, TimestampFormat, civil_from_days, date_string, days_from_civil, parse_auto,
    parse_strftime, parse_with_jiff, to_rfc3339,
};
pub use traces::{
    SpanReadings, TraceFormat, TraceRead, kept_share, sniff as sniff_traces, span_readers,
};
