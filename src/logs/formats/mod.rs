//! The fields stage: what a log's lines are, and which field of a row plays which [`Role`].
//!
//! Each format gets one module here, declared by its one line in `formats!` (below). CSV
//! and TSV ([`csv`]) name their fields in a header; a line-oriented format (nginx, Apache,
//! HAProxy, Envoy, ...) is a [`LineFormat`], which names its fields ([`LineFormat::names`]) and splits each line into them
//! ([`LineFormat::split`], into a reused [`Fields`]). Either way the names become one
//! [`ColumnMap`] (by the aliases in `role.rs`, `--column` overriding them): the index of each
//! role's field, the duration unit and the flags style. Everything after this stage (the
//! row's meaning, the tally) reads fields by role through a `ColumnMap` and never by format.
//!
//! Which format an input is (the one `--input-format` names, or, auto, the first that reads
//! its first lines, in a fixed order) is told by the detection room, `logs::detect`, which
//! tells the envelopes too.
//!
//! - [`csv`]: CSV and TSV headers, recognised by name (`ColumnMap::detect`).
//! - [`template`]: a format string compiled to literals and variables, the engine of
//!   [`nginx`] (`log_format`), [`apache`] (`LogFormat`) and [`envoy`] (format strings,
//!   Istio's too).
//! - [`haproxy`]: HAProxy `option httplog` lines, with or without the syslog prefix.

pub mod ambassador;
pub mod catalog;
pub mod entry;
pub mod haproxy_format;
pub mod set;
pub mod sources;
mod template;

/// Declares each log format's module and lists the catalog's rows, in the order
/// `--input-format` lists them, as [`catalog::CATALOG`]: one line a format.
///
/// `VIS mod NAME;` is `formats/NAME.rs`, whose row is its `pub const ENTRY`;
/// `VIS mod NAME: ROW, ...;` names its rows when it has other or several (CSV's and TSV's,
/// ALB's and ELB's); a path is a row of no module here (`auto`'s, the trace formats', which
/// are read by `traces` and named in `catalog.rs`).
macro_rules! formats {
    (@rows [$($rows:tt)*]) => {
        /// Every format, in the order `--input-format` lists them: one line a format in
        /// `formats!`, its row in its own file.
        pub static CATALOG: &[entry::FormatEntry] = &[$($rows)*];
    };
    (@rows [$($rows:tt)*] $vis:vis mod $name:ident: $($row:ident),+; $($rest:tt)*) => {
        $vis mod $name;
        formats!(@rows [$($rows)* $($name::$row,)+] $($rest)*);
    };
    (@rows [$($rows:tt)*] $vis:vis mod $name:ident; $($rest:tt)*) => {
        $vis mod $name;
        formats!(@rows [$($rows)* $name::ENTRY,] $($rest)*);
    };
    (@rows [$($rows:tt)*] $row:path; $($rest:tt)*) => {
        formats!(@rows [$($rows)* $row,] $($rest)*);
    };
    ($($lines:tt)*) => {
        formats!(@rows [] $($lines)*);
    };
}

formats! {
    catalog::AUTO;
    pub(super) mod csv: CSV, TSV;
    pub(super) mod nginx;
    pub(super) mod apache;
    pub mod alb: ENTRY, ELB;
    pub mod cloudfront;
    pub mod iis;
    pub(super) mod haproxy;
    pub(super) mod envoy;
    pub mod json;
    catalog::OTLP;
    catalog::ZIPKIN;
    catalog::JAEGER;
    pub mod apigateway;
}

use std::fmt;
use std::str::FromStr;

pub use self::csv::{CsvHeader, duration_unit_from_name, sniff_delimiter};

use super::error::LogError;
use super::role::{Role, normalize};

/// `--input-format`: auto (sniffed from the first lines), or one format named: a row of the
/// formats' catalog ([`catalog::CATALOG`]), by its name. A new format needs no constant here:
/// its row makes its name one `--input-format` takes; the constants are the formats the code
/// names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputFormat(&'static str);

#[allow(non_upper_case_globals)]
impl InputFormat {
    pub const Auto: InputFormat = InputFormat("auto");
    pub const Csv: InputFormat = InputFormat("csv");
    pub const Tsv: InputFormat = InputFormat("tsv");
    pub const Nginx: InputFormat = InputFormat("nginx");
    pub const Apache: InputFormat = InputFormat("apache");
    pub const Alb: InputFormat = InputFormat("alb");
    pub const Elb: InputFormat = InputFormat("elb");
    pub const Cloudfront: InputFormat = InputFormat("cloudfront");
    pub const Haproxy: InputFormat = InputFormat("haproxy");
    pub const Envoy: InputFormat = InputFormat("envoy");
    pub const Json: InputFormat = InputFormat("json");
    pub const Iis: InputFormat = InputFormat("iis");
    /// OpenTelemetry traces as OTLP/JSON.
    pub const Otlp: InputFormat = InputFormat("otlp");
    /// Zipkin v2 JSON traces.
    pub const Zipkin: InputFormat = InputFormat("zipkin");
    /// Jaeger's own JSON traces (its UI's download, its query API v1).
    pub const Jaeger: InputFormat = InputFormat("jaeger");

    /// The name as written in `--input-format`: its catalog row's.
    pub fn name(self) -> &'static str {
        self.0
    }
}

impl Default for InputFormat {
    fn default() -> Self {
        InputFormat::Auto
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase();
        catalog::CATALOG
            .iter()
            .find(|e| e.named && e.name == wanted)
            .map(|e| InputFormat(e.name))
            .ok_or_else(|| {
                let names: Vec<_> = catalog::names().collect();
                format!(
                    "unknown input format '{s}': use one of {}",
                    names.join(", ")
                )
            })
    }
}

/// One line's fields, back to back: field i is `data[ends[i-1]..ends[i]]` (`ends[-1]` = 0);
/// the row stage reads it as a record with gap 0, through the file's [`ColumnMap`]. Reused
/// from line to line, so a line costs no allocation.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Fields {
    pub data: Vec<u8>,
    pub ends: Vec<usize>,
}

impl Fields {
    pub fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
    }

    /// Appends one field.
    #[inline]
    pub fn push(&mut self, field: &[u8]) {
        self.data.extend_from_slice(field);
        self.ends.push(self.data.len());
    }

    /// Appends one field that `write` writes into the data (to unescape it on the way).
    #[inline]
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.data);
        self.ends.push(self.data.len());
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Field `i`.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.data.get(start..end)
    }
}

/// How a format detected with fields after it ends its name ("nginx combined with more
/// fields (not read)"); its `FormatNote::UnreadFields` tells the findings so.
const UNREAD_FIELDS: &str = "with more fields (not read)";

/// What a format's field names cannot tell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormatHints {
    /// The unit of the duration field (`--duration-unit` overrides it).
    pub duration_unit: Option<DurationUnit>,
    /// How the flags field reads.
    pub flags_style: Option<FlagsStyle>,
    /// Fields for roles that no alias finds, as `--column ROLE=NAME` would give them (a
    /// `--column` for the same role wins).
    pub columns: Vec<(Role, String)>,
    /// Something the evidence should say about this format's fields (e.g. timestamps
    /// without a zone, read as UTC).
    pub notes: Vec<super::FormatNote>,
}

/// A line-oriented log format, built once per input (from the options and its first lines).
pub trait LineFormat: Send + Sync + fmt::Debug {
    /// For the evidence: "nginx combined", "AWS ALB", "JSON lines (Caddy)".
    fn describe(&self) -> String;
    /// The names of the fields split() emits, in order. ColumnMap::detect maps them to roles
    /// by the aliases in role.rs (and --column ROLE=NAME overrides them), exactly as CSV headers.
    fn names(&self) -> Vec<String>;
    /// What names cannot tell: the duration unit, the flags style, a timestamp layout.
    fn hints(&self) -> FormatHints;
    /// Lines that are not records (CloudFront's `#Version`/`#Fields:`): skipped, not bad.
    fn skip(&self, _line: &[u8]) -> bool {
        false
    }
    /// Its lines depend on the lines before them (IIS's `#Fields:` lines set the layout of
    /// the lines after them): the input is read in one piece, in order.
    fn stateful(&self) -> bool {
        false
    }
    /// Splits one line (no newline) into `out` (cleared by the caller). Err(text saying
    /// what was expected) makes the line a bad row: counted, the first five reported as
    /// file:line.
    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String>;
    /// A line read in place where the format can (a JSON line of the log's shape): `Ok(true)`,
    /// field `i` being `line[starts[i]..ends[i]]`; else [`LineFormat::split`] into `out`,
    /// `Ok(false)`. One call a line either way: the hot loop's.
    fn split_in_place(
        &self,
        line: &[u8],
        _starts: &mut Vec<usize>,
        _ends: &mut Vec<usize>,
        out: &mut Fields,
    ) -> Result<bool, String> {
        self.split(line, out).map(|()| false)
    }
}

/// A line format that reads `lines`: the share of them it splits without error.
pub(in crate::logs) fn reads(format: &dyn LineFormat, lines: &[&[u8]]) -> f64 {
    let mut fields = Fields::default();
    let records: Vec<&&[u8]> = lines.iter().filter(|l| !format.skip(l)).collect();
    if records.is_empty() {
        return 0.0;
    }
    let ok = records
        .iter()
        .filter(|l| {
            fields.clear();
            format.split(l, &mut fields).is_ok()
        })
        .count();
    ok as f64 / records.len() as f64
}

/// The share of a sniff's lines a format must read to be taken.
pub(in crate::logs) const BEST_OF: f64 = 0.8;

/// The first of `candidates` that reads at least 80% of `lines` (and the first of them).
pub(in crate::logs) fn best_of(
    candidates: Vec<Box<dyn LineFormat>>,
    lines: &[&[u8]],
) -> Option<Box<dyn LineFormat>> {
    candidates
        .into_iter()
        .find(|f| reads(f.as_ref(), lines) >= BEST_OF)
}

/// The line format that `--input-format FORMAT --log-format TEXT` reads: TEXT is a format
/// string or a preset's name (nginx, apache, envoy, haproxy; `auto` tells which). For the fuzz targets and tools; `dupcost logs` picks a format with `detect::choose`.
pub fn compile(input: InputFormat, text: &str) -> Result<Box<dyn LineFormat>, String> {
    let compile = if input == InputFormat::Auto {
        catalog::told_by_text(text)
    } else {
        catalog::entry(input).compile
    };
    match compile {
        Some(compile) => compile(text),
        None => Err(format!(
            "it is for --input-format {}, not {input}",
            catalog::compiled_names()
        )),
    }
}

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

/// A duration unit inferred from a field's first values: the unit, how many values
/// were read, and the smallest and largest as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitInference {
    pub unit: DurationUnit,
    pub values: usize,
    pub min: String,
    pub max: String,
    /// Every value was written with an `s` after its digits (`1.512s`): seconds by how they
    /// are written, not only by their range.
    pub written_with_s: bool,
    /// Which step of the rule left the unit (`logs::detect::unit`).
    pub rule: UnitRule,
    /// The median value, as written.
    pub median: String,
    /// The time the first lines' timestamps span, in µs, where the [`UnitRule::Span`] step
    /// read it (it allows a second more: `detect::unit::SPAN_SLACK_MICROS`).
    pub span_micros: Option<i64>,
}

/// Whole numbers too large to be milliseconds (as ms the median request would last longer than
/// the log's first lines span, or some value longer than a day) whose values leave two units or
/// none: no unit is inferred, and milliseconds, assumed, are an impossible reading that a
/// warning names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitDoubt {
    pub values: usize,
    pub min: String,
    pub max: String,
    /// The median value, as written.
    pub median: String,
    /// The median as milliseconds, in seconds.
    pub median_as_ms_s: u64,
    /// The time the first lines' timestamps span, in µs (`None`: none read).
    pub span_micros: Option<i64>,
    /// The units left plausible (µs and ns, or one of them with no other ruled out).
    pub units: Vec<DurationUnit>,
}

/// The step of the unit rule (`logs::detect::unit`) that left one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitRule {
    /// Only one unit puts every value between 1 µs and a day.
    Range,
    /// Every value is written with an `s` after its digits.
    WrittenWithS,
    /// Their range fits two units; their median (and precision) leaves one.
    Typical,
    /// Whole numbers too large for milliseconds: as ms (or as one of µs and ns) the median
    /// request would last longer than the first lines' timestamps span; one unit is left.
    Span,
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
    /// The fingerprint of a keyless log's attempts: who sent it and how big.
    pub client_addr: Option<usize>,
    pub forwarded_for: Option<usize>,
    pub user_agent: Option<usize>,
    pub request_length: Option<usize>,
    /// The proxy's own tries (or retries) at the backend per attempt.
    pub proxy_attempts: Option<usize>,
    /// Unit of the duration column, from its name or `--duration-unit`.
    pub duration_unit: DurationUnit,
    /// The duration's unit is an assumption (milliseconds): no `--duration-unit`, no
    /// format's documentation and no part of its name says it.
    pub duration_unit_assumed: bool,
    /// The duration's unit was inferred from its first values (nothing else said it, and the
    /// values leave one reading: `detect::unit`), with what they were; `None` otherwise.
    pub duration_unit_inferred: Option<UnitInference>,
    /// The duration's unit is assumed (ms) though its values rule milliseconds out, and leave
    /// two units or none: said in a warning naming `--duration-unit`; `None` otherwise.
    pub duration_unit_doubt: Option<UnitDoubt>,
    /// The duration's first values each write their own unit (Go's `1m30s`, `20.512345ms`),
    /// and are read in it: nothing is assumed or inferred of them (`detect::unit`).
    pub duration_unit_carried: bool,
    /// How the flags column reads, from its name.
    pub flags_style: FlagsStyle,
}

/// How a proxy's flags field says the client (or the proxy for it) gave up: one dialect, as
/// data in the file of the format that writes it (`envoy::FLAGS`, `haproxy::FLAGS`, ...) and
/// listed by that format's catalog row ([`entry::FormatEntry::flags`]). `logs`, the SQL
/// builder and the evidence's words read it through [`FlagsStyle`], never by format.
#[derive(Debug)]
pub struct Flags {
    /// Its name, as the SQL result's `flags_style` writes it ("google-cloud").
    pub name: &'static str,
    /// The field, as the evidence names it ("termination state").
    pub field: &'static str,
    /// Its give-up codes and how a value holds one.
    pub give_ups: GiveUps,
    /// A column's name, normalised, says this dialect (a CSV header, a SQL `--column flags=`
    /// expression); a column no dialect claims reads as [`FlagsStyle::DEFAULT`]'s.
    pub named_by: fn(&str) -> bool,
    /// An empty status is no status, 0: protobuf JSON omits a zero.
    pub empty_status_is_zero: bool,
    /// What its records with no HTTP request (`"- - -"`) are, when a flags column is mapped.
    pub no_request: Option<&'static str>,
}

/// The dialect a flags column reads in: a [`Flags`] from a format's file.
#[derive(Clone, Copy)]
pub struct FlagsStyle(pub &'static Flags);

impl PartialEq for FlagsStyle {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for FlagsStyle {}

impl fmt::Debug for FlagsStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

impl std::ops::Deref for FlagsStyle {
    type Target = Flags;

    fn deref(&self) -> &Flags {
        self.0
    }
}

impl FlagsStyle {
    /// A flags column no name tells: Envoy's response flags, the codes most proxies share.
    pub const DEFAULT: FlagsStyle = FlagsStyle(&envoy::FLAGS);

    /// The dialect the column's name says (HAProxy's for a termination state, CloudFront's
    /// for an `x-edge-...` field), [`FlagsStyle::DEFAULT`] otherwise.
    pub fn from_name(header: &[u8]) -> FlagsStyle {
        let n = normalize(header);
        catalog::flags()
            .find(|f| (f.named_by)(&n))
            .map_or(FlagsStyle::DEFAULT, FlagsStyle)
    }

    /// The dialect of that name (`flags_style` in an outcomes table).
    pub fn by_name(name: &str) -> Option<FlagsStyle> {
        catalog::flags().find(|f| f.name == name).map(FlagsStyle)
    }

    /// Every dialect's name, as a sentence ("envoy, haproxy or iis").
    pub fn names() -> String {
        let names: Vec<&str> = catalog::flags().map(|f| f.name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            Some((last, _)) => last.to_string(),
            None => String::new(),
        }
    }

    /// Its give-up codes, as data: read by `logs` ([`FlagsStyle::gave_up`]), by the SQL
    /// builder and by the evidence's words.
    pub const fn give_ups(self) -> GiveUps {
        self.0.give_ups
    }

    /// The flags say the client (or the proxy for it) gave up on the request.
    #[inline]
    pub fn gave_up(self, value: &[u8]) -> bool {
        let value = value.trim_ascii();
        let GiveUps { matching, codes } = self.give_ups();
        let is = |code: &[u8]| codes.iter().any(|c| c.as_bytes() == code);
        match matching {
            GiveUpMatch::AnyCode => value
                .split(|&b| b == b',' || b == b'|' || b == b' ')
                .any(is),
            GiveUpMatch::FirstLetter { except } => {
                value.first().is_some_and(|b| is(std::slice::from_ref(b)))
                    && !except.iter().any(|e| value.starts_with(e.as_bytes()))
            }
            GiveUpMatch::Whole => is(value),
        }
    }
}

/// A flags style's give-up codes and how a value is matched against them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GiveUps {
    pub matching: GiveUpMatch,
    pub codes: &'static [&'static str],
}

/// How a flags value holds a give-up code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUpMatch {
    /// One of its codes, separated by `,`, `|` or spaces (Envoy's response flags).
    AnyCode,
    /// Its first letter (HAProxy's termination state), unless the value opens with one of
    /// `except`.
    FirstLetter { except: &'static [&'static str] },
    /// The whole value, trimmed.
    Whole,
}

impl ColumnMap {
    /// The roles of a line format's fields: by their names, as a CSV header's, with the
    /// format's hints where names cannot tell (`--column` and `--duration-unit` still win).
    pub fn for_format(
        path: &str,
        format: &dyn LineFormat,
        overrides: &[(Role, String)],
        duration_unit: Option<DurationUnit>,
    ) -> Result<ColumnMap, LogError> {
        let names = format.names();
        let refs: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        let hints = format.hints();
        let mut all: Vec<(Role, String)> = hints
            .columns
            .iter()
            .filter(|(role, _)| !overrides.iter().any(|(r, _)| r == role))
            .cloned()
            .collect();
        all.extend_from_slice(overrides);
        let mut map = ColumnMap::detect(path, &refs, &all, duration_unit.or(hints.duration_unit))?;
        if let Some(style) = hints.flags_style {
            map.flags_style = style;
        }
        Ok(map)
    }

    /// The header of a role's column, if it has one.
    pub fn header_of(&self, role: Role) -> Option<&str> {
        self.headers.get(self.index_of(role)?).map(String::as_str)
    }

    /// The index of a role's column, if it has one.
    pub fn index_of(&self, role: Role) -> Option<usize> {
        match role {
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
            Role::ClientAddr => self.client_addr,
            Role::ForwardedFor => self.forwarded_for,
            Role::UserAgent => self.user_agent,
            Role::RequestLength => self.request_length,
            Role::ProxyAttempts => self.proxy_attempts,
        }
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

/// For the format modules' tests: a line's fields as text, and one field by name.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Fields, LineFormat};

    /// `line` split by `format`, each field as (lossy) text; as many as `format` names.
    pub fn fields(format: &dyn LineFormat, line: &[u8]) -> Result<Vec<String>, String> {
        let mut out = Fields::default();
        format.split(line, &mut out)?;
        assert_eq!(out.ends.len(), format.names().len());
        Ok((0..out.ends.len())
            .map(|i| String::from_utf8_lossy(out.get(i).unwrap_or_default()).into_owned())
            .collect())
    }

    /// The field named `name` of `fields` (as [`fields`] gave them).
    pub fn field<'a>(format: &dyn LineFormat, fields: &'a [String], name: &str) -> &'a str {
        let i = format.names().iter().position(|n| n == name);
        &fields[i.unwrap_or_else(|| panic!("no {name} in {:?}", format.names()))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every built-in line format, each preset.
    fn all_formats() -> Vec<Box<dyn LineFormat>> {
        let mut all: Vec<Box<dyn LineFormat>> = vec![Box::new(haproxy::Haproxy)];
        for text in ["istio", "istio-1.5", "istio-1.1", "envoy"] {
            all.extend(envoy::compile(text).ok());
        }
        for (text, ..) in nginx::PRESETS {
            all.extend(nginx::compile(text).ok());
        }
        for (text, ..) in apache::PRESETS {
            all.extend(apache::compile(text).ok());
        }
        all
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Lines made of the characters the formats care about (quotes, backslashes, spaces,
        /// brackets, separators, digits): no format panics, and a line it reads gives one
        /// field per name.
        #[test]
        fn no_line_panics_any_format(
            line in proptest::collection::vec(
                prop_oneof![
                    Just(b'"'), Just(b'\\'), Just(b' '), Just(b'['), Just(b']'), Just(b'/'),
                    Just(b':'), Just(b','), Just(b'-'), Just(b'{'), Just(b'}'), Just(b'x'),
                    Just(b'.'), b'0'..=b'9', any::<u8>(),
                ],
                0..200,
            ),
            text in "[$%a-z_{}()\" :\\[\\]-]{0,40}",
        ) {
            let mut fields = Fields::default();
            for format in all_formats() {
                fields.clear();
                if format.split(&line, &mut fields).is_ok() {
                    prop_assert_eq!(fields.len(), format.names().len());
                }
            }
            for input in [InputFormat::Auto, InputFormat::Nginx, InputFormat::Apache, InputFormat::Envoy] {
                if let Ok(format) = compile(input, &text) {
                    fields.clear();
                    if format.split(&line, &mut fields).is_ok() {
                        prop_assert_eq!(fields.len(), format.names().len());
                    }
                }
            }
        }
    }
}
