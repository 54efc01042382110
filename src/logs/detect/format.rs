//! The format of an input, told from its first lines or named by the flags: the one
//! [`choose`] (detection in its own room, beside the envelopes'). When no format
//! reads the first lines, the refusal names the line, the closest format, the field that did
//! not fit and the flag that settles it.

use std::sync::Arc;

use super::super::envelope::{Envelope, EnvelopeChoice};
use super::super::error::{LogError, shown};
use super::super::formats::catalog::{self, FormatEntry, Reading, Sniff};
use super::super::formats::set::{Discover, MAX_FORMATS};
use super::super::formats::{
    ColumnMap, CsvHeader, DurationUnit, Fields, InputFormat, LineFormat, compile, csv,
    haproxy_format, reads,
};
use super::super::role::Role;
use super::super::source::Opened;
use super::{ENOUGH, envelope as detect_envelope, inner_lines, non_access, unwrapped};

/// Lines read ahead to tell an input's format.
pub const SNIFF_LINES: usize = 20;

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
    /// Fields' roles may be read from their values where they leave one reading (not with
    /// `--no-infer`).
    pub infer: bool,
}

/// How an input is read, as [`choose`] decided.
#[derive(Debug, Clone)]
pub enum Chosen {
    /// CSV or TSV, with its header.
    Csv(CsvHeader),
    /// A line format; `detected` when auto chose it (then others may be found as the file
    /// goes on: [`discover`]).
    Lines {
        format: Arc<dyn LineFormat>,
        detected: bool,
        /// What wraps its lines (`None`: they are bare).
        envelope: Option<Envelope>,
        /// Other formats that read some of the first lines (one file, several shapes).
        also: Vec<Arc<dyn LineFormat>>,
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

/// The format auto detection finds for `lines`, and the others when they take turns: the
/// one that reads at least 4 in 5 of them, or else up to [`MAX_FORMATS`] that do together
/// (each reading at least two; the first is the first line's).
fn sniff_lines(lines: &[&[u8]], json_paths: &[&str]) -> Option<Sniffed> {
    if let Some(format) = sniff_one(lines, json_paths) {
        return Some((format, Vec::new()));
    }
    // Group the lines by the format each is read by alone, then tell each group's format
    // from all of its lines.
    let mut groups: Vec<(String, Vec<&[u8]>)> = Vec::new();
    // Lines some format reads alone (a format of one line among them is found again when
    // the file is read), against the lines that may be access lines at all.
    let mut sniffed = 0usize;
    let access = lines.iter().filter(|l| non_access(l).is_none()).count();
    for &line in lines {
        let Some(format) = sniff_one(&[line], json_paths) else {
            continue;
        };
        sniffed += 1;
        let name = format.describe();
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, group)) => group.push(line),
            None => groups.push((name, vec![line])),
        }
    }
    groups.retain(|(_, group)| group.len() >= 2);
    // One format, whose lines are at least half: a few broken lines (a paste, a tail cut
    // mid-line) are bad rows with their line numbers, never a refusal of the file.
    if let [(_, group)] = groups.as_slice() {
        if 2 * group.len() >= lines.len() {
            return sniff_one(group, json_paths).map(|format| (format, Vec::new()));
        }
    }
    if groups.len() < 2 || groups.len() > MAX_FORMATS || (sniffed as f64) < ENOUGH * access as f64 {
        return None;
    }
    let mut formats = groups
        .iter()
        .map(|(_, group)| sniff_one(group, json_paths))
        .collect::<Option<Vec<_>>>()?
        .into_iter();
    let first = formats.next()?;
    Some((first, formats.collect()))
}

/// A format and the others of a file whose first lines take turns.
type Sniffed = (Box<dyn LineFormat>, Vec<Box<dyn LineFormat>>);

/// The format that a line no format of its file reads is read by, found by the detection's
/// order from that line alone (one file, several shapes): for [`FormatSet`]'s discovery.
///
/// A W3C product's default layout (no `#Fields:` line) is never found so: a line its file's
/// `#Fields:` line does not fit is a bad row, where the default would be a second reading.
pub fn discover(json_paths: Vec<String>) -> Box<Discover> {
    Box::new(move |line: &[u8]| {
        let paths: Vec<&str> = json_paths.iter().map(String::as_str).collect();
        sniff_one(&[line], &paths).filter(|f| {
            !f.hints()
                .notes
                .iter()
                .any(|n| matches!(n, crate::logs::FormatNote::DefaultLayout { .. }))
        })
    })
}

/// The line formats auto detection tries, in the catalog's detection order (most
/// particular first): the first that reads at least 4 in 5 of `lines`.
fn sniff_one(lines: &[&[u8]], json_paths: &[&str]) -> Option<Box<dyn LineFormat>> {
    catalog::by_detection().find_map(|(_, sniff)| sniff(lines, json_paths))
}

/// A named format family's format for `lines`: the one that reads 4 in 5 of them, or else
/// the one that reads 4 in 5 of the lines it reads alone, when those are at least half (the
/// rest, a server's events among its access lines, are bad rows or skipped, counted with
/// their line numbers).
fn fitting(sniff: Sniff, lines: &[&[u8]], paths: &[&str]) -> Option<Box<dyn LineFormat>> {
    sniff(lines, paths).or_else(|| {
        let fit: Vec<&[u8]> = lines
            .iter()
            .copied()
            .filter(|l| sniff(&[l], paths).is_some())
            .collect();
        (!fit.is_empty() && 2 * fit.len() >= lines.len())
            .then(|| sniff(&fit, paths))
            .flatten()
    })
}

/// The `--column ROLE=PATH` names, for JSON lines: a path the first lines lack is read too.
fn json_paths<'a>(opts: &ChooseOptions<'a>) -> Vec<&'a str> {
    opts.columns.iter().map(|(_, name)| name.as_str()).collect()
}

/// Picks the format of `opened` (its first lines read ahead), from `--input-format` and
/// `--log-format`, or by what its first lines look like; with `--haproxy-captures`, its
/// captured request headers named.
pub fn choose(opened: &mut Opened, opts: &ChooseOptions<'_>) -> Result<Chosen, LogError> {
    let chosen = choose_format(opened, opts)?;
    // A W3C log with no `#Fields:` line is read by its product's default fields only as an
    // inference; `--no-infer` reads only what is named.
    if let (false, Chosen::Lines { format, .. }) = (opts.infer, &chosen) {
        let default = format.hints().notes.into_iter().find_map(|n| match n {
            crate::logs::FormatNote::DefaultLayout { layout, given_by } => Some((layout, given_by)),
            _ => None,
        });
        if let Some((layout, given_by)) = default {
            return Err(LogError::Option(format!(
                "{}: it has no #Fields: line naming its fields, and --no-infer reads only what is named (its lines fit {layout}): add the #Fields: line its server wrote, or give it with {given_by}",
                opened.name
            )));
        }
    }
    // A field named by its place (`--column upstream_status=extra_2`) keeps that name.
    let by_place = opts
        .columns
        .iter()
        .any(|(_, n)| n.trim().starts_with("extra_"));
    let chosen = if opts.infer && !by_place {
        inferred(opened, chosen)
    } else {
        chosen
    };
    if opts.haproxy_captures.is_empty() {
        return Ok(chosen);
    }
    match chosen {
        Chosen::Lines {
            format,
            detected,
            envelope,
            also,
        } => {
            let format =
                haproxy_format::with_captures(format, opts.haproxy_captures).map_err(|e| {
                    LogError::Option(format!("--haproxy-captures: {}: {e}", opened.name))
                })?;
            Ok(Chosen::Lines {
                format,
                detected,
                envelope,
                also,
            })
        }
        Chosen::Csv(_) => Err(LogError::Option(format!(
            "--haproxy-captures: {} is CSV, not an HAProxy log with captured headers",
            opened.name
        ))),
    }
}

/// Whole lines of the first bytes an inference reads its values from, at most.
const INFER_LINES: usize = 1000;

/// `chosen` with the appended fields of a detected nginx layout named by their values
/// (`nginx::infer_appended`), read from every whole line of the first bytes.
fn inferred(opened: &Opened, chosen: Chosen) -> Chosen {
    let Chosen::Lines {
        format,
        detected: true,
        envelope,
        also,
    } = chosen
    else {
        return chosen;
    };
    let mut raw: Vec<&[u8]> = opened.prefix.split(|&b| b == b'\n').collect();
    if !opened.eof {
        raw.pop();
    }
    let raw: Vec<&[u8]> = raw
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.trim_ascii().is_empty())
        .take(INFER_LINES)
        .collect();
    let inner = inner_lines(envelope, &raw).unwrap_or_default();
    let lines: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
    let format = match crate::logs::formats::nginx::infer_appended(format.as_ref(), &lines) {
        Some(read) => Arc::from(read),
        None => format,
    };
    Chosen::Lines {
        format,
        detected: true,
        envelope,
        also,
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
    let prefix = opened.prefix.clone();
    let raw: Vec<Vec<u8>> = first_lines(&opened.prefix, opened.eof)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let raw: Vec<&[u8]> = raw.iter().map(Vec::as_slice).collect();
    let envelope = pick_envelope(&name, &raw, opts)?;
    let inner = inner_lines(envelope, &raw).unwrap_or_default();
    let sample: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
    let csv = |opened: &mut Opened, delimiter: Option<u8>| {
        csv::header(opened, delimiter.or(opts.delimiter)).map(Chosen::Csv)
    };
    let lines = |format: Box<dyn LineFormat>, detected: bool| Chosen::Lines {
        format: Arc::from(format),
        detected,
        envelope,
        also: Vec::new(),
    };
    let sniffed = |(format, also): Sniffed| Chosen::Lines {
        format: Arc::from(format),
        detected: true,
        envelope,
        also: also.into_iter().map(Arc::from).collect(),
    };
    if let Some(text) = opts.log_format {
        let format = compile(opts.input_format, text)
            .map_err(|e| LogError::Option(format!("--log-format: {e}")))?;
        return Ok(lines(format, false));
    }
    let named = |found: Option<Box<dyn LineFormat>>, what: &str| match found {
        Some(format) => Ok(lines(format, false)),
        None => Err(no_format(&name, &prefix, &sample, what)),
    };
    let entry = catalog::entry(opts.input_format);
    let paths = json_paths(opts);
    match entry.reading {
        Reading::Csv { delimiter } => csv(opened, delimiter),
        Reading::Fitting => named(
            entry.detect.and_then(|d| fitting(d.sniff, &sample, &paths)),
            entry.name,
        ),
        Reading::Built { build, .. } => named(Some(build(&sample)), entry.name),
        Reading::FromLines { read, missing } => named(
            read(&sample, &paths),
            &format!("{} ({missing})", entry.name),
        ),
        // Traces are read before any format is looked for: named, and not found.
        Reading::Trace { missing } => Err(no_format(
            &name,
            &prefix,
            &sample,
            &format!("{} ({missing})", entry.name),
        )),
        Reading::Auto if envelope.is_some() => match sniff_lines(&sample, &paths) {
            Some(found) => Ok(sniffed(found)),
            None => Err(no_format(&name, &prefix, &sample, "any")),
        },
        Reading::Auto => {
            // A CSV/TSV header that names the roles comes first: it says what it is.
            let header = csv(opened, None)?;
            if let Chosen::Csv(h) = &header {
                let refs: Vec<&[u8]> = h.fields.iter().map(Vec::as_slice).collect();
                let detect = ColumnMap::detect(&name, &refs, opts.columns, opts.duration_unit);
                // A server's own message first (HAProxy's events) is no header.
                let message = raw.first().is_some_and(|l| non_access(l).is_some());
                if detect.is_ok() || (looks_like_header(&refs) && !message) {
                    return Ok(header);
                }
            }
            let raw = first_lines(&opened.prefix, opened.eof);
            let inner = inner_lines(None, &raw).unwrap_or_default();
            let sample: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
            match sniff_lines(&sample, &paths) {
                Some(found) => Ok(sniffed(found)),
                None => Err(no_format(&name, &prefix, &sample, "any")),
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
    let reading = catalog::entry(opts.input_format).reading;
    match opts.envelope {
        EnvelopeChoice::None => Ok(None),
        EnvelopeChoice::Named(_) if matches!(reading, Reading::Csv { .. }) => {
            Err(LogError::Option(format!(
                "--envelope {}: CSV and TSV are read by their header, not inside an envelope; drop --envelope or --input-format {}",
                opts.envelope, opts.input_format
            )))
        }
        EnvelopeChoice::Named(e) => {
            if raw.is_empty() || inner_lines(Some(e), raw).is_some() {
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
            if matches!(reading, Reading::Csv { .. }) {
                return Ok(None);
            }
            let reads = |lines: &[&[u8]]| inner_reads(lines, opts);
            // Envelopes first: a format string whose first field takes any text would read a
            // whole prefix into it. But ALB, ELB and CloudFront, named, split any line by its
            // spaces or tabs (`bare_first`): when they read the bare lines, there is nothing
            // to unwrap.
            if matches!(
                reading,
                Reading::Built {
                    bare_first: true,
                    ..
                }
            ) && reads(raw)
            {
                return Ok(None);
            }
            if let Some(found) = detect_envelope(raw, reads) {
                return Ok(Some(found));
            }
            // Wrapped records that are no HTTP request (a Collector's TCP entries in Docker's
            // JSON): refused naming them, not read as JSON lines without a method.
            let wrapped = Envelope::ALL.iter().find_map(|&e| {
                let texts = unwrapped(e, raw)?;
                let within = format!("{name} (inside its {} lines)", e.describe());
                nothing_to_read(&within, texts.iter().map(Vec::as_slice))
            });
            match wrapped {
                Some(err) => Err(err),
                None => Ok(None),
            }
        }
    }
}

/// The format the options name (or any, with auto) reads `lines`.
fn inner_reads(lines: &[&[u8]], opts: &ChooseOptions<'_>) -> bool {
    if let Some(text) = opts.log_format {
        return compile(opts.input_format, text).is_ok_and(|f| reads(f.as_ref(), lines) >= ENOUGH);
    }
    let entry = catalog::entry(opts.input_format);
    let paths = json_paths(opts);
    match entry.reading {
        Reading::Auto => sniff_lines(lines, &paths).is_some(),
        Reading::Fitting => entry
            .detect
            .is_some_and(|d| fitting(d.sniff, lines, &paths).is_some()),
        Reading::Built { build, .. } => reads(build(lines).as_ref(), lines) >= ENOUGH,
        Reading::FromLines { read, .. } => read(lines, &paths).is_some(),
        Reading::Csv { .. } | Reading::Trace { .. } => false,
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

/// The one line for an input no format reads: the line at fault (by its number
/// when the file is bare), the closest format and the field where it stopped, and the flag
/// that settles it. `tried` is the catalog row named (`nginx`, `haproxy`, ...) or `any`.
fn no_format(name: &str, prefix: &[u8], sample: &[&[u8]], tried: &str) -> LogError {
    // Nothing but W3C directives (`#Software:`, `#Fields:`) and lines that are no access
    // line: what they are, never an empty line blamed.
    if sample.iter().all(|l| l.starts_with(b"#")) {
        let mut lines: Vec<&[u8]> = prefix.split(|&b| b == b'\n').collect();
        if !prefix.ends_with(b"\n") && lines.len() > 1 {
            lines.pop(); // a line the first bytes cut
        }
        if let Some(err) = nothing_to_read(name, lines.into_iter()) {
            return err;
        }
    }
    let Some(&first) = sample.first() else {
        return LogError::Option(format!(
            "{name}: none of its first lines is an access line to read (they are empty, or on stderr inside their envelope); give the access log itself, or {}",
            flags()
        ));
    };
    if let Some(err) = w3c_without_fields(name, prefix, sample, tried) {
        return err;
    }
    let at = |line: &[u8]| match line_number(prefix, line) {
        Some(n) => format!("line {n}"),
        None => {
            let k = sample.iter().position(|l| *l == line).unwrap_or(0) + 1;
            format!("access line {k} inside its envelope")
        }
    };
    let family = tried.split(' ').next().unwrap_or(tried);
    if family != "any" {
        let why = match closest_of(&candidates(Some(family), sample, first), first, true) {
            Some(Fit {
                describe,
                misfit: Some(misfit),
                ..
            }) => format!("the closest {family} format, {describe}: {misfit}"),
            _ if family == "json" => "it is not a JSON object".to_string(),
            _ => format!("no {family} format reads it"),
        };
        let other = match closest_of(&candidates(None, sample, first), first, false) {
            Some(Fit {
                row,
                describe,
                misfit: None,
            }) => format!(
                "; it is read as {describe}; {} (or leave --input-format out to have it told)",
                name_it(row)
            ),
            _ => format!("; {}", flags()),
        };
        return LogError::Option(format!(
            "{name}: not a log format dupcost knows as {tried}: {} '{}' does not fit it: {why}{other}",
            at(first),
            shown(first)
        ));
    }
    if is_ssl_request_log(first) {
        return LogError::Option(format!(
            "{name}: {} '{}' is mod_ssl's ssl_request_log (\"%t %h %{{SSL_PROTOCOL}}x %{{SSL_CIPHER}}x \\\"%r\\\" %b\"), which logs no status: read the access_log Apache writes beside it, or give a LogFormat with %>s to --log-format",
            at(first),
            shown(first)
        ));
    }
    let all = candidates(None, sample, first);
    match closest_of(&all, first, false) {
        // Its first line is read, but fewer than 4 in 5 of the first lines read alike: name the
        // first line that format does not read, and where it stopped.
        Some(Fit {
            row,
            describe,
            misfit: None,
        }) => {
            let reader = all.iter().find(|c| c.format.describe() == describe);
            // The lines no format reads alone are the ones at fault: a line another format
            // reads (a combined line among common ones) is never blamed before them.
            let unread: Vec<&[u8]> = sample
                .iter()
                .copied()
                .filter(|l| {
                    sniff_one(&[l], &[]).is_none()
                        && all.iter().all(|c| fit(c.format.as_ref(), l).is_some())
                })
                .collect();
            let misfit = unread.iter().chain(sample).find_map(|line| {
                let misfit = fit(reader?.format.as_ref(), line)?;
                Some((*line, misfit))
            });
            let (line, why) = match misfit {
                Some((line, misfit)) => (line, misfit.to_string()),
                None => (first, "it reads too few of them".to_string()),
            };
            let others: Vec<String> = unread
                .iter()
                .filter(|l| **l != line)
                .map(|l| format!("{} '{}'", at(l), shown(l)))
                .collect();
            let nor = match others.len() {
                0 => String::new(),
                n if n <= 4 => format!("; nor is {}", others.join(", ")),
                n => format!("; nor is {} and {} more", others[..4].join(", "), n - 4),
            };
            LogError::Option(format!(
                "{name}: its first lines are not one log format dupcost knows: {} reads as {describe}, but {} '{}' does not ({why}) and no other format reads it{nor}; {} to read the lines that fit it (the others are bad rows), or {}",
                at(first),
                at(line),
                shown(line),
                name_it(row),
                flags()
            ))
        }
        Some(Fit {
            describe,
            misfit: Some(misfit),
            ..
        }) => LogError::Option(format!(
            "{name}: not a log format dupcost knows: {} '{}' comes closest to {describe}: {misfit}; {}",
            at(first),
            shown(first),
            flags()
        )),
        None => LogError::Option(format!(
            "{name}: not a log format dupcost knows: {} '{}' looks most like {}, and no format reads a field of it; {}",
            at(first),
            shown(first),
            closest(first),
            flags()
        )),
    }
}

/// The refusal of a W3C extended log (a date and a time first, split by spaces or tabs) with
/// no `#Fields:` line whose lines fit no documented default layout: the missing line named,
/// and the flag that gives it, never another format's closest guess.
fn w3c_without_fields(
    name: &str,
    prefix: &[u8],
    sample: &[&[u8]],
    tried: &str,
) -> Option<LogError> {
    let first = *sample.first()?;
    let tab = crate::logs::formats::entry::w3c_date_then(first, b'\t');
    let w3c = tab || crate::logs::formats::entry::w3c_date_then(first, b' ');
    let family = tried.split(' ').next().unwrap_or(tried);
    if !w3c
        || !matches!(family, "any" | "iis" | "cloudfront")
        || sample.iter().any(|l| l.starts_with(b"#Fields:"))
    {
        return None;
    }
    let (product, row, sep, fields) = if tab {
        (
            "CloudFront",
            "cloudfront",
            b'\t',
            "33, or the first 23, 24 or 26 of an older log",
        )
    } else {
        ("IIS", "iis", b' ', "IIS's 15 default fields")
    };
    let count = first.split(|&b| b == sep).count();
    let at = match line_number(prefix, first) {
        Some(n) => format!("line {n}"),
        None => "its first access line".to_string(),
    };
    Some(LogError::Option(format!(
        "{name}: {at} '{}' is a W3C extended log's line ({product}'s: a date and a time first, {}-separated) with no #Fields: line to name its {count} fields, and they fit no layout {product} documents as its default ({fields}); add the #Fields: line its server wrote before its lines, or give it with --input-format {row} --log-format '#Fields: date time ...'",
        shown(first),
        if tab { "tab" } else { "space" },
    )))
}

/// The flags that settle a refusal: the server's format given, or a catalog row named.
fn flags() -> String {
    format!(
        "give the server's own format with --log-format '...' (nginx log_format, Apache \
         LogFormat, Envoy format string or HAProxy log-format) or name it with \
         --input-format ({})",
        catalog::line_names().join(", ")
    )
}

/// How the refusal says to read a row's format: by its `--input-format` name, or (a row
/// only auto detection tells) by leaving the flag out.
fn name_it(row: &FormatEntry) -> String {
    if row.named {
        format!("name that format with --input-format {}", row.name)
    } else {
        "leave --input-format out to have it told".to_string()
    }
}

/// mod_ssl's default `ssl_request_log` line: `[time] client TLSv1.2 CIPHER "request" bytes`.
fn is_ssl_request_log(line: &[u8]) -> bool {
    let Some(rest) = line
        .strip_prefix(b"[")
        .and_then(|l| memchr::memmem::find(l, b"] ").map(|i| &l[i + 2..]))
    else {
        return false;
    };
    let mut t = rest.splitn(4, |&b| b == b' ');
    let (Some(_client), Some(protocol), Some(_cipher), Some(request)) =
        (t.next(), t.next(), t.next(), t.next())
    else {
        return false;
    };
    (protocol.starts_with(b"TLSv") || protocol.starts_with(b"SSLv")) && request.starts_with(b"\"")
}

/// The refusal of an input whose first lines are all lines that are not access lines (TCP
/// records, FTP commands, a server's own messages; W3C directives aside): what they are, by
/// kind, never an empty line blamed.
fn nothing_to_read<'a>(name: &str, lines: impl Iterator<Item = &'a [u8]>) -> Option<LogError> {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for line in lines.filter(|l| !l.trim_ascii().is_empty() && !l.starts_with(b"#")) {
        let kind = non_access(line)?;
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let told: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    (!told.is_empty()).then(|| {
        LogError::Option(format!(
            "{name}: its first lines hold no HTTP access line, only lines that are not access lines ({}): there is no request to read; give the access log of the same server",
            told.join(", ")
        ))
    })
}

/// The number of `line` among the first lines of `prefix` (1-based), when it stands there as
/// it is (not inside an envelope).
fn line_number(prefix: &[u8], line: &[u8]) -> Option<u64> {
    prefix
        .split(|&b| b == b'\n')
        .take(4 * SNIFF_LINES)
        .position(|l| l.strip_suffix(b"\r").unwrap_or(l) == line)
        .map(|i| i as u64 + 1)
}

/// A line format of a catalog row, for the refusal.
struct Candidate {
    row: &'static FormatEntry,
    format: Box<dyn LineFormat>,
}

/// The line formats of the catalog row named `row`, or of every row (`None`), in the order
/// auto detection tries them, built from the first lines. Of every row, a format built from
/// the first lines, which splits any line by its separators (ALB, ELB, CloudFront, IIS), only
/// when `line` has its shape.
fn candidates(row: Option<&str>, sample: &[&[u8]], line: &[u8]) -> Vec<Candidate> {
    let splits_any = |e: &FormatEntry| matches!(e.reading, Reading::Built { .. });
    let shaped = |e: &FormatEntry| e.looks.is_some_and(|l| (l.test)(line.trim_ascii()));
    catalog::by_rank()
        .filter(|e| match row {
            Some(name) => e.name == name,
            None => !splits_any(e) || shaped(e),
        })
        .flat_map(|row| {
            (row.candidates)(sample)
                .into_iter()
                .map(move |format| Candidate { row, format })
        })
        .collect()
}

/// How far a line format read a line before the field that did not fit.
#[derive(Debug)]
struct Misfit {
    /// The fields it read before.
    fitted: usize,
    /// The name of the field that did not fit, when the format names it. Not its number
    /// among the format's fields: those are not what a user counts on the line (an ALB
    /// `client:port` is two, a quoted request line three), and a count of the line's words
    /// is no better (the quoted request is three of them, a user agent a dozen): the column
    /// is what says where, as ripgrep and compilers say it.
    field: Option<String>,
    /// The text where it stopped, when its error names a column.
    value: Option<String>,
    /// The column its error names (the byte offset on the line + 1).
    column: Option<usize>,
    /// The column is past the line's end: the field is missing.
    missing: bool,
    /// It read all its fields, with more after them.
    whole: bool,
    /// The share of its fields it read, in thousandths.
    share: usize,
    error: String,
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some(name) = &self.field else {
            return f.write_str(&self.error);
        };
        match (self.column, &self.value) {
            (Some(_), _) if self.missing => write!(f, "field {name} is missing: {}", self.error),
            (Some(column), Some(value)) => write!(
                f,
                "field {name} at column {column} '{value}' does not fit: {}",
                self.error
            ),
            _ => write!(f, "field {name} does not fit: {}", self.error),
        }
    }
}

/// How `format` reads `line`: `None` when it reads it whole, else where it stopped.
fn fit(format: &dyn LineFormat, line: &[u8]) -> Option<Misfit> {
    let mut fields = Fields::default();
    let error = format.split(line, &mut fields).err()?;
    let fitted = fields.len();
    let column: Option<usize> = error
        .split("column ")
        .nth(1)
        .and_then(|c| c.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|c| c.parse().ok());
    let whole = error.starts_with("expected the line to end");
    let names = format.names();
    // A format that read no field and names no column stopped at its layout (a count of
    // fields), not at a field.
    let field = (fitted > 0 || column.is_some())
        .then(|| names.get(fitted).cloned())
        .flatten();
    let missing = column.is_some_and(|c| c > line.len());
    let value = column
        .filter(|c| *c >= 1 && field.is_some())
        .and_then(|c| line.get(c - 1..))
        .map(|rest| {
            let end = memchr::memchr(b' ', rest).unwrap_or(rest.len()).max(1);
            shown(&rest[..end.min(rest.len())])
        });
    Some(Misfit {
        fitted,
        share: fitted * 1000 / names.len().max(1),
        field,
        value,
        column,
        missing,
        whole,
        error,
    })
}

/// A candidate's fit of a line, for the refusal.
struct Fit {
    row: &'static FormatEntry,
    describe: String,
    /// `None`: it reads the line.
    misfit: Option<Misfit>,
}

/// Of `candidates`, the one that reads `line` (the first such), or else the one whose fields
/// fitted furthest before the one that did not (one that read all its fields, with more
/// after them, first; then by the fields read, then by the share of its fields they are
/// (the fewest left unread); of equals, the one that stopped earliest on the line);
/// `any_error`: one that read no field and names no column counts too (last).
fn closest_of(candidates: &[Candidate], line: &[u8], any_error: bool) -> Option<Fit> {
    // Reversed: of equals, max_by_key keeps the last, which is then the first tried.
    candidates
        .iter()
        .rev()
        .filter_map(|c| {
            let Some(misfit) = fit(c.format.as_ref(), line) else {
                return Some(((true, true, usize::MAX, usize::MAX, None), c, None));
            };
            let column = misfit.column.unwrap_or(0);
            // Of equal fields fitted, the one with the fewest left, then the one whose fields
            // took the least of the line (the tighter fit: no text swallowed into one).
            let rank = (
                false,
                misfit.whole,
                misfit.fitted,
                misfit.share,
                misfit.column.map(std::cmp::Reverse),
            );
            (misfit.fitted > 0 || column > 1 || any_error).then_some((rank, c, Some(misfit)))
        })
        .max_by_key(|(rank, ..)| *rank)
        .map(|(_, c, misfit)| Fit {
            row: c.row,
            describe: c.format.describe(),
            misfit,
        })
}

/// The format a line looks most like, by its shape: the first catalog row's whose
/// [`catalog::Looks`] it has.
fn closest(line: &[u8]) -> &'static str {
    let line = line.trim_ascii();
    catalog::by_rank()
        .find_map(|e| e.looks.filter(|l| (l.test)(line)).map(|l| l.name))
        .unwrap_or("CSV (no header naming a method and a status)")
}

#[cfg(test)]
mod tests {
    use super::*;

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
