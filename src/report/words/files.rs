//! How a file was read, and why a log was refused: the log reader's notes and errors, a
//! file of spans' evidence, and the findings' refusals.

use std::fmt::{self, Display, Formatter};

use crate::logs::{
    FileInfo, FormatNote, FormatRead, Lacking, LogError, Role, TraceRead, extra_fields,
};

use super::*;

impl Display for FormatNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fields = |extra: usize| extra_fields(extra).collect::<Vec<_>>().join(", ");
        let many = |extra: usize| if extra == 1 { "" } else { "s" };
        match self {
            FormatNote::UtcAcceptDate => f.write_str("accept_date has no zone: read as UTC"),
            FormatNote::HaproxyAppended { extra } => write!(
                f,
                "its lines have fields after httplog's \
                 request line, read as {} and given no role (an unnamed field is never taken \
                 for the idempotency key): name one with --column (idempotency_key=extra_1, \
                 request_id=), or give haproxy.cfg's log-format with --log-format",
                fields(*extra)
            ),
            FormatNote::NginxAppended {
                layout,
                extra,
                suggested,
                upstream_status,
                ..
            } => {
                write!(
                    f,
                    "its lines have {extra} field{many} after {layout}'s layout, read as \
                     {list} and given no role (a field is never guessed): if they are what \
                     their shapes suggest, read them with --log-format '{suggested}' (check \
                     it against the server's log_format)",
                    many = many(*extra),
                    list = fields(*extra),
                )?;
                match upstream_status {
                    Some(i) => write!(f, ", or name one with --column (upstream_status=extra_{i})"),
                    None => Ok(()),
                }
            }
            FormatNote::NginxInferred {
                layout,
                fields,
                unnamed,
                log_format,
            } => {
                let named: Vec<String> = fields
                    .iter()
                    .map(|(i, v)| format!("extra_{i} as ${v}"))
                    .collect();
                write!(
                    f,
                    "its fields after {layout}'s layout are read by their values: {}, inferred from \
                     their values (--log-format '{log_format}' makes them given; --no-infer \
                     reads them unnamed)",
                    named.join(", ")
                )?;
                if *unnamed > 0 {
                    write!(f, "; the other {unnamed} given no role")?;
                }
                Ok(())
            }
            FormatNote::EnvoyAppended { layout, extra } => write!(
                f,
                "its lines have {extra} field{many} after {layout}'s layout, read as {list} and \
                 given no role (an unnamed field is never taken for the idempotency key): \
                 name one with --column (idempotency_key=extra_1, request_id=, \
                 proxy_attempts= for %UPSTREAM_REQUEST_ATTEMPT_COUNT%), or give the whole \
                 format string with --log-format '...'",
                many = many(*extra),
                list = fields(*extra),
            ),
            FormatNote::UnreadFields { examples } => write!(
                f,
                "its lines go on past that layout with fields it does not name, which are not read: \
                 give the server's own format with --log-format to read them ({examples})"
            ),
            FormatNote::DefaultLayout { layout, given_by } => write!(
                f,
                "it has no #Fields: line: its lines are read by {layout}, inferred from their \
                 field counts and values, which fit that layout and no other ({given_by} makes \
                 them given; --no-infer refuses them)"
            ),
            FormatNote::IisLocalTime => f.write_str(
                "date-local and time-local have no zone (IIS Advanced Logging's local time): \
                 read as UTC",
            ),
            FormatNote::NoBackendStatus => f.write_str(
                "it logs no backend status: the backend outcome of a timed-out attempt is \
                 unknown from this log alone; the backend's own log (--outcomes) settles it",
            ),
            FormatNote::ApiGatewayGiveUps { integration_status } => {
                f.write_str(
                    "its give-ups are the 504s of an integration that timed out; \
                     API Gateway documents no status for a client that hung up earlier, so \
                     the timeout rate is a lower bound (--client-timeout D on a logged \
                     responseLatency counts attempts that took D as given up)",
                )?;
                if !integration_status {
                    f.write_str(
                        "; its layout logs no integration status: the backend outcome of a \
                         504 is unknown from this log alone; $context.integration.status in \
                         the stage's access log format, or the backend's own log \
                         (--outcomes), settles it",
                    )?;
                }
                Ok(())
            }
            FormatNote::OtherCategories { total, kinds } => {
                let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
                write!(
                    f,
                    "{total} record{} of other categories skipped, not access records ({})",
                    if *total == 1 { "" } else { "s" },
                    list.join(", ")
                )
            }
            FormatNote::EnvelopeTime => f.write_str(
                "its access lines have no time of their own: each takes its envelope's time",
            ),
            FormatNote::FingerprintTies(n) => write!(
                f,
                "{} of one fingerprint at the same timestamp as the one before: a table has no file \
                 order, so the query took them by status (then timed out, executed); dupcost logs \
                 takes them in file order and may group them otherwise",
                plural(*n, "attempt")
            ),
        }
    }
}

/// A file's notes as one line of its evidence (`; ` between them), if it has any.
pub fn format_notes(notes: &[FormatNote]) -> Option<String> {
    (!notes.is_empty()).then(|| {
        notes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

impl Display for Lacking {
    /// "app.log", or "app.log (its nginx combined lines)" when the file had several formats.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(formats) = &self.formats {
            write!(f, " (its {} lines)", formats.join(" and "))?;
        }
        Ok(())
    }
}

/// The evidence on a file read with more than one format: which lines each read, the
/// roles they do not share, and the formats whose lines could not be counted.
pub fn formats_evidence(file: &FileInfo) -> Vec<String> {
    let read: Vec<&FormatRead> = file.formats.iter().filter(|f| f.lines > 0).collect();
    let mut out = Vec::new();
    if read.len() > 1 {
        if file.interleaved {
            let each: Vec<String> = read
                .iter()
                .map(|f| format!("{} {} lines", f.name, count(f.lines)))
                .collect();
            out.push(format!(
                "its lines take turns between {} formats (interleaved): {}",
                read.len(),
                each.join(", ")
            ));
        } else {
            let each: Vec<String> = read
                .iter()
                .map(|f| {
                    format!(
                        "{} (lines {}-{})",
                        f.name,
                        count(f.first_line),
                        count(f.last_line)
                    )
                })
                .collect();
            out.push(format!("its lines change format: {}", each.join(", then ")));
        }
        let differ: Vec<String> = Role::ALL
            .iter()
            .filter_map(|&role| {
                let with: Vec<&str> = read
                    .iter()
                    .filter(|f| {
                        f.columns
                            .as_ref()
                            .is_some_and(|c| c.header_of(role).is_some())
                    })
                    .map(|f| f.name.as_str())
                    .collect();
                (!with.is_empty() && with.len() < read.len())
                    .then(|| format!("{role} only in {}", with.join(" and ")))
            })
            .collect();
        if !differ.is_empty() {
            out.push(format!(
                "its formats do not have the same roles: {}; a figure that needs a role counts only the lines that have it (an attempt without a key or fingerprint is an intent of its own), and one that needs it on every line (the succeeded share from upstream statuses) is not measured",
                differ.join("; ")
            ));
        }
    }
    for f in &file.formats {
        if let Some(why) = &f.refused {
            out.push(format!("lines read as {} are bad rows: {why}", f.name));
        }
    }
    out
}

// ---------------------------------------------------------------- refusals

impl Display for LogError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            LogError::NotFound { path } => write!(f, "{}: no such file", path.display()),
            LogError::IsDirectory { path } => {
                write!(f, "{}: is a directory, not a log file", path.display())
            }
            LogError::Io { path, source } => write!(f, "{path}: cannot read: {source}"),
            LogError::Gzip { path, source } => {
                write!(f, "{path}: corrupt or truncated gzip data: {source}")
            }
            LogError::Empty { path } if path == "-" => f.write_str(
                "stdin is empty: pipe a log in (cat access.log | dupcost logs) or name its FILE",
            ),
            LogError::Empty { path } => write!(f, "{path}: the file is empty: no lines to read"),
            LogError::HeaderOnly { path } => {
                write!(f, "{path}: the header has no data rows after it")
            }
            LogError::HeaderTooLong { path, limit } => write!(
                f,
                "{path}: the header line is longer than {limit} bytes: is this a log with a header row?"
            ),
            LogError::MissingColumn {
                path,
                role,
                aliases,
                found,
            } => write!(
                f,
                "{path}: no {role} column (looked for {aliases}); headers found: {found}; map one with --column {role}=HEADER"
            ),
            LogError::UnknownColumn {
                path,
                role,
                header,
                found,
            } => write!(
                f,
                "{path}: --column {role}={header}: no such header; headers found: {found}"
            ),
            LogError::StrictBadRow(row) => write!(f, "{row} (--strict makes bad rows fatal)"),
            LogError::NoUsableRows { path, rows, first } => write!(
                f,
                "{path}: none of the {rows} rows could be used (first problem: {first})"
            ),
            LogError::StdinTwice => f.write_str("stdin ('-') can be read only once"),
            LogError::NoSources => f.write_str("no log files given"),
            LogError::Option(text) => f.write_str(text),
            LogError::Internal(text) => write!(f, "internal error: {text}"),
        }
    }
}

/// What a file of spans showed and what traces cannot tell, for the evidence.
pub fn traces_evidence(t: &TraceRead) -> Vec<String> {
    if t.format.is_none() {
        return vec![
            "a table of spans read by dupcost sql: CLIENT spans are the attempts, the SERVER spans directly under them their outcomes".to_string(),
        ];
    }
    let mut out = vec![format!(
        "{} in {}; {} (CLIENT spans with a mutating method) in {}",
        plural(t.spans, "span"),
        plural(t.traces, "trace"),
        plural(t.attempts, "attempt"),
        plural(t.intents, "intent"),
    )];
    match (t.sample_rate, t.with_threshold) {
        (Some(rate), _) => out.push(format!(
            "head sampling kept {}% of traces (--sample-rate): counts scaled by {}, rates as read",
            count_f(rate * 100.0),
            count_f(t.scale())
        )),
        (None, 0) => out.push(
            "no sampling threshold in the spans' tracestate (ot=th): counts as read".to_string(),
        ),
        (None, n) => out.push(format!(
            "{} of {} carry a sampling threshold (tracestate ot=th): counts scaled by {}, rates as read",
            count(n),
            plural(t.traces, "trace"),
            count_f(t.scale())
        )),
    }
    let has = if t.server_untraced == 1 {
        "has"
    } else {
        "have"
    };
    let untraced = format!(
        "{has} no SERVER span and a server not traced (or a cut trace): unknown, not failed"
    );
    // What each count is, said where it is not zero: `3 spans came after ...`.
    let counted: [(u64, &str, &str); 8] = [
        (
            t.cut,
            "trace",
            "not whole in the file (no root span, or a span whose parent is not in it: cut at the file's edges): their attempts without a server span are unknown",
        ),
        (
            t.late,
            "span",
            "came after the rest of their trace was judged (the file is out of time order by more than 10 minutes): each read as a trace of its own, which cuts both; give the spans in time order",
        ),
        (
            t.merged,
            "span",
            "reported in parts: merged into the span with their id (Zipkin: the same id and local endpoint)",
        ),
        (
            t.shared_joined,
            "SERVER span",
            "joined to the CLIENT span that shares their id (Zipkin's shared spans): each the answer to that attempt",
        ),
        (
            t.server_without_client,
            "SERVER span",
            "with no traced CLIENT span above them or sharing their id (the trace's root, an uninstrumented caller, or a cut trace): not attempts",
        ),
        (
            t.status_implied,
            "attempt",
            "read as 2xx where a Zipkin HTTP span finished with no status and no error (Brave writes http.status_code only when it is not 2xx): inferred",
        ),
        (t.server_untraced, "timed-out attempt", &untraced),
        (
            t.never_reached,
            "timed-out attempt",
            "in whole traces with no SERVER span though their server is traced: never arrived (failed)",
        ),
    ];
    for (n, noun, says) in counted {
        if n > 0 {
            out.push(format!("{} {says}", plural(n, noun)));
        }
    }
    out
}
