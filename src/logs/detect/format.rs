//! The format of an input, told from its first lines or named by the flags: the one
//! [`choose`] (issue 22: detection in its own room, beside the envelopes'). When no format
//! reads the first lines, the refusal names the line, the closest format, the field that did
//! not fit and the flag that settles it.

use std::sync::Arc;

use super::super::envelope::{Envelope, EnvelopeChoice};
use super::super::error::{LogError, shown};
use super::super::formats::set::{Discover, MAX_FORMATS};
use super::super::formats::{
    ColumnMap, CsvHeader, DurationUnit, Fields, InputFormat, LineFormat, alb, apache, apigateway,
    cloudfront, compile, csv, envoy, haproxy, haproxy_format, iis, json, nginx, reads,
};
use super::super::role::Role;
use super::super::source::Opened;
use super::{ENOUGH, envelope as detect_envelope, inner_lines, non_access};

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
    for &line in lines {
        let Some(format) = sniff_one(&[line], json_paths) else {
            continue;
        };
        let name = format.describe();
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, group)) => group.push(line),
            None => groups.push((name, vec![line])),
        }
    }
    groups.retain(|(_, group)| group.len() >= 2);
    let read: usize = groups.iter().map(|(_, g)| g.len()).sum();
    // One format, whose lines are at least half: a few broken lines (a paste, a tail cut
    // mid-line) are bad rows with their line numbers, never a refusal of the file.
    if let [(_, group)] = groups.as_slice() {
        if 2 * group.len() >= lines.len() {
            return sniff_one(group, json_paths).map(|format| (format, Vec::new()));
        }
    }
    if groups.len() < 2 || groups.len() > MAX_FORMATS || (read as f64) < ENOUGH * lines.len() as f64
    {
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

/// A format family's detection: its format that reads the lines, if one does.
type Sniff = fn(&[&[u8]]) -> Option<Box<dyn LineFormat>>;

/// A format and the others of a file whose first lines take turns.
type Sniffed = (Box<dyn LineFormat>, Vec<Box<dyn LineFormat>>);

/// The format that a line no format of its file reads is read by, found by the detection's
/// order from that line alone (one file, several shapes): for [`FormatSet`]'s discovery.
pub fn discover(json_paths: Vec<String>) -> Box<Discover> {
    Box::new(move |line: &[u8]| {
        let paths: Vec<&str> = json_paths.iter().map(String::as_str).collect();
        sniff_one(&[line], &paths)
    })
}

/// The line formats auto detection tries, most particular first: the first that reads at
/// least 4 in 5 of `lines`.
fn sniff_one(lines: &[&[u8]], json_paths: &[&str]) -> Option<Box<dyn LineFormat>> {
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

/// A named format family's format for `lines`: the one that reads 4 in 5 of them, or else
/// the one that reads 4 in 5 of the lines it reads alone, when those are at least half (the
/// rest, a server's events among its access lines, are bad rows or skipped, counted with
/// their line numbers).
fn fitting(sniff: Sniff, lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    sniff(lines).or_else(|| {
        let fit: Vec<&[u8]> = lines
            .iter()
            .copied()
            .filter(|l| sniff(&[l]).is_some())
            .collect();
        (!fit.is_empty() && 2 * fit.len() >= lines.len())
            .then(|| sniff(&fit))
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
    match opts.input_format {
        InputFormat::Csv => csv(opened, None),
        InputFormat::Tsv => csv(opened, Some(b'\t')),
        InputFormat::Nginx => named(fitting(nginx::sniff, &sample), "nginx"),
        InputFormat::Apache => named(fitting(apache::sniff, &sample), "apache"),
        InputFormat::Haproxy => named(fitting(haproxy::sniff, &sample), "haproxy"),
        InputFormat::Envoy => named(fitting(envoy::sniff, &sample), "envoy"),
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
        // Traces are read before any format is looked for: named, and not found.
        InputFormat::Otlp => Err(no_format(
            &name,
            &prefix,
            &sample,
            "otlp (no OTLP/JSON document with resourceSpans at its start)",
        )),
        InputFormat::Zipkin => Err(no_format(
            &name,
            &prefix,
            &sample,
            "zipkin (no JSON array of spans with traceId and id at its start)",
        )),
        InputFormat::Json => named(
            json::JsonLines::from_lines(&sample, &json_paths(opts))
                .map(|f| Box::new(f) as Box<dyn LineFormat>),
            "json (no line among the first is a JSON object)",
        ),
        InputFormat::Auto if envelope.is_some() => match sniff_lines(&sample, &json_paths(opts)) {
            Some(found) => Ok(sniffed(found)),
            None => Err(no_format(&name, &prefix, &sample, "any")),
        },
        InputFormat::Auto => {
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
            match sniff_lines(&sample, &json_paths(opts)) {
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
            Ok(detect_envelope(raw, reads))
        }
    }
}

/// The format the options name (or any, with auto) reads `lines`.
fn inner_reads(lines: &[&[u8]], opts: &ChooseOptions<'_>) -> bool {
    if let Some(text) = opts.log_format {
        return compile(opts.input_format, text).is_ok_and(|f| reads(f.as_ref(), lines) >= ENOUGH);
    }
    match opts.input_format {
        InputFormat::Auto => sniff_lines(lines, &json_paths(opts)).is_some(),
        InputFormat::Nginx => fitting(nginx::sniff, lines).is_some(),
        InputFormat::Apache => fitting(apache::sniff, lines).is_some(),
        InputFormat::Haproxy => fitting(haproxy::sniff, lines).is_some(),
        InputFormat::Envoy => fitting(envoy::sniff, lines).is_some(),
        InputFormat::Json => json::JsonLines::from_lines(lines, &json_paths(opts)).is_some(),
        InputFormat::Alb => reads(&alb::AwsLoadBalancer::new(alb::Balancer::Alb), lines) >= ENOUGH,
        InputFormat::Elb => reads(&alb::AwsLoadBalancer::new(alb::Balancer::Elb), lines) >= ENOUGH,
        InputFormat::Cloudfront => {
            reads(&cloudfront::Cloudfront::from_lines(lines), lines) >= ENOUGH
        }
        InputFormat::Iis => reads(&iis::Iis::from_lines(lines), lines) >= ENOUGH,
        InputFormat::Csv | InputFormat::Tsv | InputFormat::Otlp | InputFormat::Zipkin => false,
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

/// The one line for an input no format reads (issue 22): the line at fault (by its number
/// when the file is bare), the closest format and the field where it stopped, and the flag
/// that settles it. `tried` is the family named (`nginx`, `haproxy`, ...) or `any`.
fn no_format(name: &str, prefix: &[u8], sample: &[&[u8]], tried: &str) -> LogError {
    if sample.is_empty() {
        if let Some(err) = nothing_to_read(name, prefix) {
            return err;
        }
    }
    let first = sample.first().copied().unwrap_or_default();
    let at = |line: &[u8]| match line_number(prefix, line) {
        Some(n) => format!("line {n}"),
        None => {
            let k = sample.iter().position(|l| *l == line).unwrap_or(0) + 1;
            format!("access line {k} inside its envelope")
        }
    };
    let flags = "give the server's own format with --log-format '...' (nginx log_format, Apache \
                 LogFormat, Envoy format string or HAProxy log-format) or name it with \
                 --input-format (csv, tsv, nginx, apache, alb, elb, cloudfront, iis, haproxy, \
                 envoy, json)";
    let family = tried.split(' ').next().unwrap_or(tried);
    if family != "any" {
        let why = match closest_of(candidates(family), first, true) {
            Some((format, Err(err))) => format!("the closest {family} format, {format}, {err}"),
            _ if family == "json" => "it is not a JSON object".to_string(),
            _ => format!("no {family} format reads it"),
        };
        let other = match closest_of(candidates("any"), first, false) {
            Some((format, Ok(()))) => format!(
                "; it is read as {format}; name that format with --input-format {} (or leave --input-format out to have it told)",
                input_format_of(&format)
            ),
            _ => format!("; {flags}"),
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
    match closest_of(candidates("any"), first, false) {
        // Its first line is read, but fewer than 4 in 5 of the first lines read alike: name the
        // first line that format does not read, and where it stopped.
        Some((format, Ok(()))) => {
            let reader = candidates("any")
                .into_iter()
                .find(|f| f.describe() == format);
            let mut fields = Fields::default();
            let misfit = sample.iter().find_map(|line| {
                fields.clear();
                let err = reader.as_ref()?.split(line, &mut fields).err()?;
                Some((line, err))
            });
            let (line, err) = match misfit {
                Some((line, err)) => (*line, err),
                None => (first, "it reads too few of them".to_string()),
            };
            LogError::Option(format!(
                "{name}: its first lines are not one log format dupcost knows: {} reads as {format}, but {} '{}' does not ({err}) and no other format reads it; name the format with --input-format {} to read the lines that fit it (the others are bad rows), or {flags}",
                at(first),
                at(line),
                shown(line),
                input_format_of(&format)
            ))
        }
        Some((format, Err(err))) => LogError::Option(format!(
            "{name}: not a log format dupcost knows: {} '{}' comes closest to {format}, which {err}; {flags}",
            at(first),
            shown(first)
        )),
        None => LogError::Option(format!(
            "{name}: not a log format dupcost knows: {} '{}' looks most like {}, and no format reads a field of it; {flags}",
            at(first),
            shown(first),
            closest(first)
        )),
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
/// records, a server's own messages): what they are, by kind, never an empty line blamed.
fn nothing_to_read(name: &str, prefix: &[u8]) -> Option<LogError> {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for line in prefix
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty())
    {
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

/// The `--input-format` that names a format described as `description`.
fn input_format_of(description: &str) -> &'static str {
    let d = description.to_ascii_lowercase();
    if d.contains("envoy") || d.contains("istio") {
        "envoy"
    } else if d.contains("haproxy") {
        "haproxy"
    } else if d.contains("apache") {
        "apache"
    } else if d.contains("json") {
        "json"
    } else {
        "nginx"
    }
}

/// The text formats of a family (`haproxy`, `envoy`, `nginx`, `apache`), or all of them
/// (`any`), for the refusal.
fn candidates(family: &str) -> Vec<Box<dyn LineFormat>> {
    let mut all: Vec<Box<dyn LineFormat>> = Vec::new();
    let any = family == "any";
    if any || family == "haproxy" {
        all.push(Box::new(haproxy::Haproxy));
    }
    if any || family == "envoy" {
        for text in ["istio", "istio-1.5", "istio-1.1", "envoy"] {
            all.extend(envoy::compile(text).ok());
        }
    }
    if any || family == "nginx" {
        for (text, ..) in nginx::PRESETS {
            all.extend(nginx::compile(text).ok());
        }
    }
    if any || family == "apache" {
        for (text, ..) in apache::PRESETS {
            all.extend(apache::compile(text).ok());
        }
    }
    all
}

/// Of `candidates`, the one that reads `line` (the first such), or else the one that read it
/// furthest before it failed (by the column its error names; one that read all its fields,
/// with more after them, first), with that error; `any_error`: one whose error names no
/// column counts too (last).
fn closest_of(
    candidates: Vec<Box<dyn LineFormat>>,
    line: &[u8],
    any_error: bool,
) -> Option<(String, Result<(), String>)> {
    let mut fields = Fields::default();
    // Reversed: of equals, max_by_key keeps the last, which is then the first tried.
    candidates
        .iter()
        .rev()
        .filter_map(|f| {
            fields.clear();
            let Err(err) = f.split(line, &mut fields) else {
                return Some(((true, usize::MAX), f.describe(), Ok(())));
            };
            let column: Option<usize> = err
                .split("column ")
                .nth(1)
                .and_then(|c| c.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|c| c.parse().ok());
            let whole = err.starts_with("expected the line to end");
            match column {
                Some(column) if column > 1 => Some(((whole, column), f.describe(), Err(err))),
                _ if any_error => Some(((false, 0), f.describe(), Err(err))),
                _ => None,
            }
        })
        .max_by_key(|(rank, ..)| *rank)
        .map(|(_, format, result)| (format, result))
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
