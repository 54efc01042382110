//! The fields stage: what a log's lines are, and which field of a row plays which [`Role`].
//!
//! Each format gets one module here. CSV and TSV ([`csv`]) name their fields in a header;
//! a line-oriented format (nginx, Apache, HAProxy, Envoy, ...) is a [`LineFormat`], which
//! names its fields ([`LineFormat::names`]) and splits each line into them
//! ([`LineFormat::split`], into a reused [`Fields`]). Either way the names become one
//! [`ColumnMap`] (by the aliases in `role.rs`, `--column` overriding them): the index of each
//! role's field, the duration unit and the flags style. Everything after this stage (the
//! row's meaning, the tally) reads fields by role through a `ColumnMap` and never by format.
//!
//! [`choose`] picks an input's format: the one `--input-format` names, or (auto) the first
//! that reads its first lines, in a fixed order.
//!
//! - [`csv`]: CSV and TSV headers, recognised by name (`ColumnMap::detect`).
//! - [`template`]: a format string compiled to literals and variables, the engine of
//!   [`nginx`] (`log_format`), [`apache`] (`LogFormat`) and [`envoy`] (format strings,
//!   Istio's too).
//! - [`haproxy`]: HAProxy `option httplog` lines, with or without the syslog prefix.

pub mod alb;
mod apache;
pub mod apigateway;
pub mod cloudfront;
mod csv;
mod envoy;
mod haproxy;
pub mod haproxy_format;
pub mod iis;
pub mod json;
mod nginx;
pub mod sources;
mod template;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use csv::{CsvHeader, sniff_delimiter};

use super::detect;
use super::envelope::{Envelope, EnvelopeChoice};
use super::error::{LogError, shown};
use super::role::{Role, normalize};
use super::source::Opened;

/// Lines read ahead to tell an input's format.
pub const SNIFF_LINES: usize = 20;

/// `--input-format`: auto (sniffed from the first lines), or one format named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputFormat {
    #[default]
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
    Iis,
}

impl InputFormat {
    pub const ALL: [InputFormat; 12] = [
        InputFormat::Auto,
        InputFormat::Csv,
        InputFormat::Tsv,
        InputFormat::Nginx,
        InputFormat::Apache,
        InputFormat::Alb,
        InputFormat::Elb,
        InputFormat::Cloudfront,
        InputFormat::Haproxy,
        InputFormat::Envoy,
        InputFormat::Json,
        InputFormat::Iis,
    ];

    /// The name as written in `--input-format`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Csv => "csv",
            InputFormat::Tsv => "tsv",
            InputFormat::Nginx => "nginx",
            InputFormat::Apache => "apache",
            InputFormat::Alb => "alb",
            InputFormat::Elb => "elb",
            InputFormat::Cloudfront => "cloudfront",
            InputFormat::Haproxy => "haproxy",
            InputFormat::Envoy => "envoy",
            InputFormat::Json => "json",
            InputFormat::Iis => "iis",
        }
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
        InputFormat::ALL
            .into_iter()
            .find(|f| f.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<_> = InputFormat::ALL.iter().map(|f| f.name()).collect();
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
#[derive(Debug, Default, Clone)]
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

/// How a format detected with fields after it ends its description ("nginx combined with
/// more fields (not read)"), so a missing role's message can say where the field may be.
pub const UNREAD_FIELDS: &str = "with more fields (not read)";

/// The evidence's note for a preset detected with fields after it.
fn unread_note(examples: &str) -> String {
    format!(
        "its lines go on past that layout with fields it does not name, which are not read: \
         give the server's own format with --log-format to read them ({examples})"
    )
}

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
    pub note: Option<String>,
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
}

/// What [`choose`] reads of the options (`LogOptions` holds them; the formats stage does not
/// import the options, which import its types).
#[derive(Debug, Clone, Copy)]
pub struct ChooseOptions<'a> {
    pub input_format: InputFormat,
    pub envelope: EnvelopeChoice,
    pub log_format: Option<&'a str>,
    pub delimiter: Option<u8>,
    pub columns: &'a [(Role, String)],
    pub duration_unit: Option<DurationUnit>,
    /// `--haproxy-captures`: the names of the captured request headers, in order.
    pub haproxy_captures: &'a [String],
}

/// How an input is read, as [`choose`] decided.
#[derive(Debug, Clone)]
pub enum Chosen {
    /// CSV or TSV, with its header.
    Csv(CsvHeader),
    /// A line format; `detected` when auto chose it.
    Lines {
        format: Arc<dyn LineFormat>,
        detected: bool,
        /// What wraps its lines (`None`: they are bare).
        envelope: Option<Envelope>,
    },
}

/// The whole lines among the first bytes of an input (without their line ends; blank lines
/// left out), at most [`SNIFF_LINES`].
pub fn first_lines(prefix: &[u8], eof: bool) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = prefix.split(|&b| b == b'\n').collect();
    if !eof {
        lines.pop(); // what follows the last newline is not a whole line yet
    }
    lines
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.trim_ascii().is_empty())
        .take(SNIFF_LINES)
        .collect()
}

/// A line format that reads `lines`: the share of them it splits without error.
fn reads(format: &dyn LineFormat, lines: &[&[u8]]) -> f64 {
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

/// The first of `candidates` that reads at least 80% of `lines` (and the first of them).
fn best_of(candidates: Vec<Box<dyn LineFormat>>, lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    candidates
        .into_iter()
        .find(|f| reads(f.as_ref(), lines) >= 0.8)
}

/// The line formats auto detection tries, most particular first, for `lines`.
fn sniff_lines(lines: &[&[u8]], json_paths: &[&str]) -> Option<Box<dyn LineFormat>> {
    // ALB/ELB, CloudFront and JSON lines first: their lines are the most particular.
    alb::sniff(lines)
        .or_else(|| cloudfront::sniff(lines))
        .or_else(|| iis::sniff(lines))
        .or_else(|| json::sniff(lines, json_paths))
        // API Gateway's text layouts, before the CLF formats its own CLF resembles.
        .or_else(|| apigateway::sniff(lines))
        .or_else(|| haproxy::sniff(lines))
        .or_else(|| envoy::sniff(lines))
        .or_else(|| nginx::sniff(lines))
        .or_else(|| apache::sniff(lines))
}

/// The `--column ROLE=PATH` names, for JSON lines: a path the first lines lack is read too.
fn json_paths<'a>(opts: &ChooseOptions<'a>) -> Vec<&'a str> {
    opts.columns.iter().map(|(_, name)| name.as_str()).collect()
}

/// The line format that `--input-format FORMAT --log-format TEXT` reads: TEXT is a format
/// string or a preset's name (nginx, apache, envoy, haproxy; `auto` tells which). For the fuzz targets and tools; `dupcost logs` picks a format with `choose`.
pub fn compile(input: InputFormat, text: &str) -> Result<Box<dyn LineFormat>, String> {
    match input {
        InputFormat::Haproxy if text.trim().is_empty() => Ok(Box::new(haproxy::Haproxy)),
        InputFormat::Haproxy => haproxy_format::compile(text),
        InputFormat::Apache => apache::compile(text),
        InputFormat::Nginx => nginx::compile(text),
        InputFormat::Envoy => envoy::compile(text),
        InputFormat::Auto if envoy::is_envoy(text) => envoy::compile(text),
        InputFormat::Auto if haproxy_format::is_haproxy(text) => haproxy_format::compile(text),
        InputFormat::Auto if apigateway::is_apigateway(text) => apigateway::compile(text),
        InputFormat::Auto if apache::is_apache(text) => apache::compile(text),
        InputFormat::Auto => nginx::compile(text),
        other => Err(format!(
            "it is for --input-format nginx, apache, envoy or haproxy, not {other}"
        )),
    }
}

/// Picks the format of `opened` (its first lines read ahead), from `--input-format` and
/// `--log-format`, or by what its first lines look like; with `--haproxy-captures`, its
/// captured request headers named.
pub fn choose(opened: &mut Opened, opts: &ChooseOptions<'_>) -> Result<Chosen, LogError> {
    let chosen = choose_format(opened, opts)?;
    if opts.haproxy_captures.is_empty() {
        return Ok(chosen);
    }
    match chosen {
        Chosen::Lines {
            format,
            detected,
            envelope,
        } => {
            let format =
                haproxy_format::with_captures(format, opts.haproxy_captures).map_err(|e| {
                    LogError::Option(format!("--haproxy-captures: {}: {e}", opened.name))
                })?;
            Ok(Chosen::Lines {
                format,
                detected,
                envelope,
            })
        }
        Chosen::Csv(_) => Err(LogError::Option(format!(
            "--haproxy-captures: {} is CSV, not an HAProxy log with captured headers",
            opened.name
        ))),
    }
}

fn choose_format(opened: &mut Opened, opts: &ChooseOptions<'_>) -> Result<Chosen, LogError> {
    let name = opened.name.clone();
    if looks_binary(&opened.prefix) {
        return Err(LogError::Option(format!(
            "{name}: not a text log (binary data in its first bytes{}): give a CSV/TSV file or an access log as the server writes it (gzip is read as it is)",
            if opened.gzip { ", after gunzip" } else { "" }
        )));
    }
    let raw: Vec<Vec<u8>> = first_lines(&opened.prefix, opened.eof)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let raw: Vec<&[u8]> = raw.iter().map(Vec::as_slice).collect();
    let envelope = pick_envelope(&name, &raw, opts)?;
    let inner = detect::inner_lines(envelope, &raw).unwrap_or_default();
    let sample: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
    let csv = |opened: &mut Opened, delimiter: Option<u8>| {
        csv::header(opened, delimiter.or(opts.delimiter)).map(Chosen::Csv)
    };
    let lines = |format: Box<dyn LineFormat>, detected: bool| Chosen::Lines {
        format: Arc::from(format),
        detected,
        envelope,
    };
    if let Some(text) = opts.log_format {
        let format = compile(opts.input_format, text)
            .map_err(|e| LogError::Option(format!("--log-format: {e}")))?;
        return Ok(lines(format, false));
    }
    let named = |found: Option<Box<dyn LineFormat>>, what: &str| match found {
        Some(format) => Ok(lines(format, false)),
        None => Err(no_format(&name, &sample, what)),
    };
    match opts.input_format {
        InputFormat::Csv => csv(opened, None),
        InputFormat::Tsv => csv(opened, Some(b'\t')),
        InputFormat::Nginx => named(nginx::sniff(&sample), "nginx"),
        InputFormat::Apache => named(apache::sniff(&sample), "apache"),
        InputFormat::Haproxy => named(haproxy::sniff(&sample), "haproxy"),
        InputFormat::Envoy => named(envoy::sniff(&sample), "envoy"),
        InputFormat::Alb => named(
            Some(Box::new(alb::AwsLoadBalancer::new(alb::Balancer::Alb))),
            "alb",
        ),
        InputFormat::Elb => named(
            Some(Box::new(alb::AwsLoadBalancer::new(alb::Balancer::Elb))),
            "elb",
        ),
        InputFormat::Cloudfront => named(
            Some(Box::new(cloudfront::Cloudfront::from_lines(&sample))),
            "cloudfront",
        ),
        InputFormat::Iis => named(Some(Box::new(iis::Iis::from_lines(&sample))), "iis"),
        InputFormat::Json => named(
            json::JsonLines::from_lines(&sample, &json_paths(opts))
                .map(|f| Box::new(f) as Box<dyn LineFormat>),
            "json (no line among the first is a JSON object)",
        ),
        InputFormat::Auto if envelope.is_some() => match sniff_lines(&sample, &json_paths(opts)) {
            Some(format) => Ok(lines(format, true)),
            None => Err(no_format(&name, &sample, "any")),
        },
        InputFormat::Auto => {
            // A CSV/TSV header that names the roles comes first: it says what it is.
            let header = csv(opened, None)?;
            if let Chosen::Csv(h) = &header {
                let refs: Vec<&[u8]> = h.fields.iter().map(Vec::as_slice).collect();
                let detect = ColumnMap::detect(&name, &refs, opts.columns, opts.duration_unit);
                if detect.is_ok() || looks_like_header(&refs) {
                    return Ok(header);
                }
            }
            let raw = first_lines(&opened.prefix, opened.eof);
            let inner = detect::inner_lines(None, &raw).unwrap_or_default();
            let sample: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
            match sniff_lines(&sample, &json_paths(opts)) {
                Some(format) => Ok(lines(format, true)),
                None => Err(no_format(&name, &sample, "any")),
            }
        }
    }
}

/// The envelope of an input whose first lines are `raw`: the one `--envelope` names (which
/// must unwrap them), none, or (auto) the first whose unwrapped lines a format reads.
fn pick_envelope(
    name: &str,
    raw: &[&[u8]],
    opts: &ChooseOptions<'_>,
) -> Result<Option<Envelope>, LogError> {
    match opts.envelope {
        EnvelopeChoice::None => Ok(None),
        EnvelopeChoice::Named(_)
            if matches!(opts.input_format, InputFormat::Csv | InputFormat::Tsv) =>
        {
            Err(LogError::Option(format!(
                "--envelope {}: CSV and TSV are read by their header, not inside an envelope; drop --envelope or --input-format {}",
                opts.envelope, opts.input_format
            )))
        }
        EnvelopeChoice::Named(e) => {
            if raw.is_empty() || detect::inner_lines(Some(e), raw).is_some() {
                return Ok(Some(e));
            }
            let mut scratch = Vec::new();
            let why = raw
                .iter()
                .find_map(|l| e.unwrap(l, &mut scratch).err())
                .unwrap_or_default();
            Err(LogError::Option(format!(
                "{name}: --envelope {}: fewer than 4 in 5 of its first lines are {} lines; the first that is not: {why}; use --envelope auto to have it told",
                opts.envelope,
                e.describe()
            )))
        }
        EnvelopeChoice::Auto => {
            if matches!(opts.input_format, InputFormat::Csv | InputFormat::Tsv) {
                return Ok(None);
            }
            let reads = |lines: &[&[u8]]| inner_reads(lines, opts);
            // Envelopes first: a format string whose first field takes any text would read a
            // whole prefix into it. But ALB, ELB and CloudFront, named, split any line by its
            // spaces or tabs: when they read the bare lines, there is nothing to unwrap.
            if matches!(
                opts.input_format,
                InputFormat::Alb | InputFormat::Elb | InputFormat::Cloudfront
            ) && reads(raw)
            {
                return Ok(None);
            }
            Ok(detect::envelope(raw, reads))
        }
    }
}

/// The format the options name (or any, with auto) reads `lines`.
fn inner_reads(lines: &[&[u8]], opts: &ChooseOptions<'_>) -> bool {
    if let Some(text) = opts.log_format {
        return compile(opts.input_format, text)
            .is_ok_and(|f| reads(f.as_ref(), lines) >= detect::ENOUGH);
    }
    match opts.input_format {
        InputFormat::Auto => sniff_lines(lines, &json_paths(opts)).is_some(),
        InputFormat::Nginx => nginx::sniff(lines).is_some(),
        InputFormat::Apache => apache::sniff(lines).is_some(),
        InputFormat::Haproxy => haproxy::sniff(lines).is_some(),
        InputFormat::Envoy => envoy::sniff(lines).is_some(),
        InputFormat::Json => json::JsonLines::from_lines(lines, &json_paths(opts)).is_some(),
        InputFormat::Alb => {
            reads(&alb::AwsLoadBalancer::new(alb::Balancer::Alb), lines) >= detect::ENOUGH
        }
        InputFormat::Elb => {
            reads(&alb::AwsLoadBalancer::new(alb::Balancer::Elb), lines) >= detect::ENOUGH
        }
        InputFormat::Cloudfront => {
            reads(&cloudfront::Cloudfront::from_lines(lines), lines) >= detect::ENOUGH
        }
        InputFormat::Iis => reads(&iis::Iis::from_lines(lines), lines) >= detect::ENOUGH,
        InputFormat::Csv | InputFormat::Tsv => false,
    }
}

/// A first line that reads as a CSV header rather than a log line: at least two fields,
/// each short, none quoted with spaces or starting like a number or an address.
fn looks_like_header(fields: &[&[u8]]) -> bool {
    fields.len() >= 2
        && fields.iter().all(|f| {
            let f = f.trim_ascii();
            f.len() <= 64
                && !f
                    .first()
                    .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'[' | b'{' | b'<'))
        })
}

/// NUL bytes, or mostly bytes that are neither text nor UTF-8, in the first line (rows
/// after a text header are the row stage's to judge, one by one).
fn looks_binary(prefix: &[u8]) -> bool {
    let first = memchr::memchr(b'\n', prefix).unwrap_or(prefix.len());
    let head = &prefix[..first.min(4096)];
    if head.contains(&0) {
        return true;
    }
    let text = String::from_utf8_lossy(head);
    let odd = text
        .chars()
        .filter(|c| *c == char::REPLACEMENT_CHARACTER || (c.is_control() && !c.is_whitespace()))
        .count();
    odd * 10 > text.chars().count().max(1)
}

/// The one line for an input no format reads: the closest format tried, and the flags.
fn no_format(name: &str, sample: &[&[u8]], tried: &str) -> LogError {
    let first = sample.first().copied().unwrap_or_default();
    let closest = match closest_tried(first) {
        // Read by a format other than the one named: say which, not "closest".
        Some((format, why)) if why == READS_IT => {
            let tried = if tried == "any" {
                "one format (fewer than 4 in 5 of its first lines read alike)".to_string()
            } else {
                tried.to_string()
            };
            return LogError::Option(format!(
                "{name}: not a log format dupcost knows as {tried}: its first line '{}' is read as {format}; name that format with --input-format (csv, tsv, nginx, apache, alb, elb, cloudfront, haproxy, envoy, json) or give the server's own with --log-format '...'",
                shown(first)
            ));
        }
        Some((format, why)) => format!("{format} ({why})"),
        None => closest(first).to_string(),
    };
    LogError::Option(format!(
        "{name}: not a log format dupcost knows{}: its first line '{}' comes closest to {closest}; give the server's own format with --log-format '...' (nginx log_format, Apache LogFormat, Envoy format string or HAProxy log-format) or name it with --input-format (csv, tsv, nginx, apache, alb, elb, cloudfront, iis, haproxy, envoy, json)",
        if tried == "any" {
            String::new()
        } else {
            format!(" as {tried}")
        },
        shown(first)
    ))
}

/// What [`closest_tried`] says of a format that reads the whole line.
const READS_IT: &str = "which reads it";

/// Of the line formats tried, the one that read `line` furthest before it failed (by the
/// column its error names; one that read all its fields, with more after them, first), with
/// that error.
fn closest_tried(line: &[u8]) -> Option<(String, String)> {
    let mut candidates: Vec<Box<dyn LineFormat>> = vec![Box::new(haproxy::Haproxy)];
    for text in ["istio", "istio-1.5", "istio-1.1", "envoy"] {
        candidates.extend(envoy::compile(text).ok());
    }
    for (text, ..) in nginx::PRESETS {
        candidates.extend(nginx::compile(text).ok());
    }
    for (text, ..) in apache::PRESETS {
        candidates.extend(apache::compile(text).ok());
    }
    // FMT-AWS: the ALB/ELB, CloudFront and JSON formats could join these candidates.
    let mut fields = Fields::default();
    // Reversed: of equals, max_by_key keeps the last, which is then the first tried.
    candidates
        .iter()
        .rev()
        .filter_map(|f| {
            fields.clear();
            let Err(err) = f.split(line, &mut fields) else {
                return Some(((true, usize::MAX), f.describe(), READS_IT.into()));
            };
            let column: usize = err
                .split("column ")
                .nth(1)?
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()?;
            let whole = err.starts_with("expected the line to end");
            (column > 1).then(|| ((whole, column), f.describe(), err))
        })
        .max_by_key(|(rank, ..)| *rank)
        .map(|(_, format, err)| (format, err))
}

/// The format a line looks most like, by its shape.
fn closest(line: &[u8]) -> &'static str {
    let line = line.trim_ascii();
    let has = |s: &[u8]| memchr::memmem::find(line, s).is_some();
    if line.starts_with(b"{") {
        "JSON lines"
    } else if line.starts_with(b"#Software: Microsoft") {
        "IIS (W3C)"
    } else if line.starts_with(b"#") {
        "CloudFront (W3C)"
    } else if line.starts_with(b"[") && line.get(5) == Some(&b'-') {
        "Envoy"
    } else if has(b"haproxy[") || has(b"/Tw/") {
        "HAProxy httplog"
    } else if has(b"] \"") {
        "nginx combined"
    } else if line.starts_with(b"http ") || line.starts_with(b"https ") || line.starts_with(b"h2 ")
    {
        "AWS ALB"
    } else {
        "CSV (no header naming a method and a status)"
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
    /// The fingerprint of a keyless log's attempts (issue 13): who sent it and how big.
    pub client_addr: Option<usize>,
    pub forwarded_for: Option<usize>,
    pub user_agent: Option<usize>,
    pub request_length: Option<usize>,
    /// The proxy's own tries (or retries) at the backend per attempt.
    pub proxy_attempts: Option<usize>,
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
    /// IIS `sc-win32-status`: 64 and 1236 (the client's connection went away) and 12002
    /// (ARR's 502.3: the proxy timed out waiting for the backend) are give-ups.
    Iis,
    /// Cloudflare `EdgeResponseStatus`: 499 (the client closed) and 524 (the origin did not
    /// answer in time; it may still finish) are give-ups; 522 never reached the origin.
    Cloudflare,
    /// Google Cloud load balancer `statusDetails`: `client_disconnected_before_any_response`,
    /// `client_timed_out` and `backend_timeout` are give-ups.
    GoogleCloud,
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
            FlagsStyle::Iis => matches!(value, b"64" | b"1236" | b"12002"),
            FlagsStyle::Cloudflare => matches!(value, b"499" | b"524"),
            FlagsStyle::GoogleCloud => matches!(
                value,
                b"client_disconnected_before_any_response"
                    | b"client_timed_out"
                    | b"backend_timeout"
            ),
        }
    }
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
            Role::ClientAddr => self.client_addr,
            Role::ForwardedFor => self.forwarded_for,
            Role::UserAgent => self.user_agent,
            Role::RequestLength => self.request_length,
            Role::ProxyAttempts => self.proxy_attempts,
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

    #[test]
    fn first_lines_leave_out_a_partial_last_line() {
        assert_eq!(first_lines(b"a\nb\nc", false), [&b"a"[..], b"b"]);
        assert_eq!(first_lines(b"a\r\n\nb\nc", true), [&b"a"[..], b"b", b"c"]);
    }

    #[test]
    fn binary_first_lines() {
        assert!(looks_binary(b"\x00\x01abc\n"));
        assert!(looks_binary(&[0xff, 0xfe, 0x80, 0x81, 0x82, b'\n']));
        assert!(!looks_binary("caf\u{e9} 1.2.3.4 - - [x]\n\x00".as_bytes()));
    }
}
