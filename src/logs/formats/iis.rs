//! Microsoft IIS W3C extended log files (`u_ex*.log`): space separated, with `#Software:`,
//! `#Version:`, `#Date:` and `#Fields:` directives. IIS writes the directives again, with a
//! new `#Fields:` line, whenever the logged fields change (a restart, a new custom field),
//! so the layout can change mid-file: each `#Fields:` line sets the layout of the lines
//! after it, and the file is read in one piece, in order.
//!
//! The field names are the union of the `#Fields:` lines among the first lines; a line's
//! fields go to their names, and a name its layout lacks is empty. Two are dupcost's own:
//! `timestamp`, the `date` and `time` columns as one UTC instant (IIS writes UTC), first;
//! and the user agent, whose spaces IIS writes as `+`, decoded. Custom logged request
//! headers (`cs(Idempotency-Key)`, `cs(X-Request-Id)`, `cs(X-Forwarded-For)`) become roles
//! by the header's name.
//!
//! IIS Advanced Logging (the IIS 7 module, `#Software: IIS Advanced Logging Module`) writes
//! the same directives with names of its own: `date-local` and `time-local` (the server's
//! local time, no zone written: read as UTC, and the evidence says so), `TimeTakenMS`
//! (milliseconds, as its name says), and it quotes fields that may hold spaces
//! (`"Mozilla/5.0 (X11; ...)"`, even `" garbage w/ spaces "`, a quote inside doubled as
//! `""`): a quoted field is one field, read without its quotes. Its `#Fields:` line may have several spaces between names, and
//! blank lines may sit between its directives.
//!
//! What IIS tells about give-ups: `time-taken` is in milliseconds; `sc-win32-status` 64 (the
//! network name is no longer available) or 1236 (the connection was aborted) is the client
//! going away, and 12002 with `502` substatus `3` is ARR (IIS as a reverse proxy) timing out
//! on its backend, which may still finish. `sc-status` is IIS's own answer: a 2xx means the
//! request ran (the client may not have heard it), a 502 from ARR says nothing of the backend.

use std::sync::Mutex;

use super::cloudfront::{digits, fields_line, shaped};
use super::entry::{Detect, FormatEntry, Looks, Reading, Sample};
use super::{
    DurationUnit, Fields, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps, LineFormat,
};
use crate::logs::role::{Role, normalize};

/// IIS's `sc-win32-status`: 64 and 1236 (the client's connection went away) and 12002
/// (ARR's 502.3: the proxy timed out waiting for the backend) are give-ups.
pub static FLAGS: Flags = Flags {
    name: "iis",
    field: "sc-win32-status",
    give_ups: GiveUps {
        matching: GiveUpMatch::Whole,
        codes: &["64", "1236", "12002"],
    },
    named_by: |_| false,
    empty_status_is_zero: false,
    no_request: None,
};

/// IIS's default fields, for lines before any `#Fields:` line.
pub const DEFAULT_FIELDS: [&str; 15] = [
    "date",
    "time",
    "s-ip",
    "cs-method",
    "cs-uri-stem",
    "cs-uri-query",
    "s-port",
    "cs-username",
    "c-ip",
    "cs(User-Agent)",
    "cs(Referer)",
    "sc-status",
    "sc-substatus",
    "sc-win32-status",
    "time-taken",
];

/// One `#Fields:` line: where each of its fields goes among the names.
#[derive(Debug, Clone, Default)]
struct Layout {
    /// Per field of the line, its slot among the names (`None`: not read).
    slots: Vec<Option<usize>>,
    date: Option<usize>,
    time: Option<usize>,
    /// The date and time are Advanced Logging's `date-local` and `time-local` (no zone).
    local: bool,
    /// Its `#Fields:` line is the FTP service's ([`ftp_fields`]): its lines are FTP
    /// commands, no HTTP request.
    ftp: bool,
}

/// A `#Fields:` line of IIS's FTP service: it has `x-session` or `x-fullpath`, fields only
/// FTP logging writes (Microsoft, "FTP Logging" of IIS 7 and later).
pub fn ftp_fields(names: &[String]) -> bool {
    names.iter().any(|n| n == "x-session" || n == "x-fullpath")
}

/// The date and time names, UTC's (IIS's `date`, `time`) before Advanced Logging's local
/// ones (`date-local`, `time-local`).
const DATE_TIME: [(&str, &str); 3] = [
    ("date", "time"),
    ("date-UTC", "time-UTC"),
    ("date-local", "time-local"),
];

/// A name that is part of the timestamp (not a field of its own).
fn is_date_time(name: &str) -> bool {
    DATE_TIME.iter().any(|(d, t)| name == *d || name == *t)
}

#[derive(Debug, Default)]
struct State {
    layout: Layout,
    /// This line's fields, per name: their span in the line.
    spans: Vec<Option<(usize, usize)>>,
}

/// An IIS W3C log: the names of all its layouts, and the layout of the lines being read.
#[derive(Debug)]
pub struct Iis {
    /// The field names after `timestamp`.
    fields: Vec<String>,
    user_agent: Option<usize>,
    first: Layout,
    /// The writer its `#Software:` line names, when that is not IIS (Oracle Web Cache
    /// writes W3C extended logs too): its `time-taken` unit is not IIS's to say.
    other_software: Option<String>,
    /// The zone of its times, from a `#GMT-Offset: -0800` line (Oracle Web Cache writes its
    /// local time with one); `None`: UTC, as IIS writes.
    offset: Option<Vec<u8>>,
    /// No `#Fields:` line among the first lines: IIS's default fields, inferred (where the
    /// lines fit them: [`fits_default`]).
    headerless: bool,
    state: Mutex<State>,
}

impl Iis {
    /// The format of a log whose `#Fields:` lines among the first lines name `layouts`
    /// (IIS's default fields when there is none).
    pub fn new(layouts: &[Vec<String>]) -> Self {
        let default: Vec<String> = DEFAULT_FIELDS.iter().map(|f| f.to_string()).collect();
        let layouts = if layouts.is_empty() {
            std::slice::from_ref(&default)
        } else {
            layouts
        };
        let mut fields: Vec<String> = Vec::new();
        for layout in layouts {
            for f in layout {
                if !fields.contains(f) && !is_date_time(f) {
                    fields.push(f.clone());
                }
            }
        }
        let user_agent = fields.iter().position(|f| f == "cs(User-Agent)");
        let mut iis = Iis {
            fields,
            user_agent,
            first: Layout::default(),
            other_software: None,
            offset: None,
            headerless: false,
            state: Mutex::new(State::default()),
        };
        iis.first = iis.layout(&layouts[0]);
        if let Ok(mut state) = iis.state.lock() {
            state.layout = iis.first.clone();
        }
        iis
    }

    /// The format from the first lines (their `#Fields:` lines).
    pub fn from_lines(first_lines: &[&[u8]]) -> Self {
        let layouts: Vec<Vec<String>> = first_lines.iter().filter_map(|l| fields_line(l)).collect();
        let mut iis = Iis::new(&layouts);
        iis.headerless = layouts.is_empty();
        let directive = |name: &[u8]| {
            first_lines
                .iter()
                .find_map(|l| l.strip_prefix(name).map(|v| v.trim_ascii().to_vec()))
        };
        iis.other_software = directive(b"#Software:")
            .filter(|s| !is_iis_software(s))
            .map(|s| String::from_utf8_lossy(&s).into_owned());
        iis.offset = directive(b"#GMT-Offset:").filter(|o| {
            matches!(o.as_slice(), [b'+' | b'-', d @ ..] if d.len() == 4 && d.iter().all(u8::is_ascii_digit))
        });
        iis
    }

    /// Where the fields of a `#Fields:` line go (a name the first lines did not have is not
    /// read).
    fn layout(&self, names: &[String]) -> Layout {
        let mut layout = Layout {
            ftp: ftp_fields(names),
            ..Layout::default()
        };
        let at = |n: &str| names.iter().position(|x| x == n);
        if let Some((date, time, local)) = DATE_TIME
            .iter()
            .find_map(|(d, t)| Some((at(d)?, at(t)?, d.ends_with("-local"))))
        {
            (layout.date, layout.time, layout.local) = (Some(date), Some(time), local);
        }
        for name in names {
            layout
                .slots
                .push(self.fields.iter().position(|f| f == name));
        }
        layout
    }
}

/// A `#Software:` value of IIS's own: its web server's or its Advanced Logging module's.
fn is_iis_software(software: &[u8]) -> bool {
    software.starts_with(b"Microsoft Internet Information Services")
        || software.starts_with(b"IIS Advanced Logging")
}

/// `+` as a space (IIS writes the user agent's spaces as `+`).
fn plus_decode(field: &[u8], out: &mut Vec<u8>) {
    out.extend(field.iter().map(|&b| if b == b'+' { b' ' } else { b }));
}

impl LineFormat for Iis {
    fn describe(&self) -> String {
        match &self.other_software {
            Some(software) => format!("W3C extended log ({software})"),
            None if self.headerless => {
                "IIS W3C extended log (no #Fields: line: IIS's default fields, inferred)"
                    .to_string()
            }
            None => "IIS W3C extended log".to_string(),
        }
    }

    fn names(&self) -> Vec<String> {
        std::iter::once("timestamp".to_string())
            .chain(self.fields.iter().cloned())
            .collect()
    }

    fn hints(&self) -> FormatHints {
        let has = |n: &str| self.fields.iter().any(|f| f == n);
        let mut columns = Vec::new();
        if has("sc-win32-status") {
            columns.push((Role::Flags, "sc-win32-status".to_string()));
        }
        if has("sc-status") {
            columns.push((Role::UpstreamStatus, "sc-status".to_string()));
        }
        // Custom logged request headers, by the header's name.
        for name in &self.fields {
            let Some(header) = name.strip_prefix("cs(").and_then(|h| h.strip_suffix(')')) else {
                continue;
            };
            let n = normalize(header.as_bytes());
            let role = [Role::IdempotencyKey, Role::RequestId, Role::ForwardedFor]
                .into_iter()
                .find(|r| r.aliases().contains(&n.as_str()));
            if let Some(role) = role {
                if !columns.iter().any(|(r, _)| *r == role) {
                    columns.push((role, name.clone()));
                }
            }
        }
        // Advanced Logging's duration field, in milliseconds as its name says.
        if has("TimeTakenMS") && !has("time-taken") {
            columns.push((Role::Duration, "TimeTakenMS".to_string()));
        }
        // Oracle Web Cache logs the whole URI, query and all, where IIS logs its stem.
        if has("cs-uri") && !has("cs-uri-stem") {
            columns.push((Role::Path, "cs-uri".to_string()));
        }
        let mut notes = Vec::new();
        if self.first.local {
            notes.push(crate::logs::FormatNote::IisLocalTime);
        }
        if self.headerless {
            notes.push(crate::logs::FormatNote::DefaultLayout {
                layout: format!("IIS's {} default fields", DEFAULT_FIELDS.len()),
                given_by: format!(
                    "--input-format iis --log-format '#Fields: {}'",
                    DEFAULT_FIELDS.join(" ")
                ),
            });
        }
        // IIS documents `time-taken` in milliseconds; another writer's unit is not IIS's to
        // say (its values, or --duration-unit, say it).
        let duration_unit = self
            .other_software
            .is_none()
            .then_some(DurationUnit::Millis);
        FormatHints {
            duration_unit,
            flags_style: Some(FlagsStyle(&FLAGS)),
            columns,
            notes,
        }
    }

    fn skip(&self, line: &[u8]) -> bool {
        // Directives other than #Fields: (which sets the layout, in split).
        line.first() == Some(&b'#') && !line.starts_with(b"#Fields:")
    }

    fn stateful(&self) -> bool {
        true
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| "the IIS layout could not be read".to_string())?;
        if let Some(names) = fields_line(line) {
            state.layout = self.layout(&names);
            // No row: one empty field, as a blank line.
            out.push(b"");
            return Ok(());
        }
        let State { layout, spans } = &mut *state;
        if layout.ftp {
            return Err("an IIS FTP record (its #Fields: line is the FTP service's, with x-session): an FTP command, no HTTP request".to_string());
        }
        spans.clear();
        spans.resize(self.fields.len(), None);
        let (mut date, mut time) = (None, None);
        let want = layout.slots.len();
        // Fields are split at single spaces (IIS writes `-` for an empty one); a writer that
        // aligns its columns with runs of spaces (Oracle Web Cache) has more of them than
        // its `#Fields:` line names, and is read with each run as one separator.
        let runs = field_spans(line, false).count() != want;
        let mut found = 0;
        for (i, span) in field_spans(line, runs).enumerate() {
            let field = &line[span.0..span.1];
            found = i + 1;
            if Some(i) == layout.date {
                date = Some(field);
            } else if Some(i) == layout.time {
                time = Some(field);
            }
            if let Some(Some(slot)) = layout.slots.get(i) {
                spans[*slot] = Some(span);
            }
        }
        if found != want {
            return Err(format!(
                "expected {want} space-separated fields (the #Fields: line), found {found}"
            ));
        }
        let (Some(date), Some(time)) = (date, time) else {
            return Err("its #Fields: line names no date and time".to_string());
        };
        out.data.extend_from_slice(date);
        out.data.push(b'T');
        out.data.extend_from_slice(time);
        match &self.offset {
            _ if layout.local => {}
            Some(offset) => out.data.extend_from_slice(offset),
            None => out.data.push(b'Z'),
        }
        out.ends.push(out.data.len());
        for (slot, span) in spans.iter().enumerate() {
            let field = span.map_or(&b""[..], |(s, e)| &line[s..e]);
            if Some(slot) == self.user_agent {
                plus_decode(field, &mut out.data);
                out.ends.push(out.data.len());
            } else {
                out.push(field);
            }
        }
        Ok(())
    }
}

/// Where each field of a line is: split at single spaces (`runs`: at runs of spaces, those
/// at the line's ends left out), and a field that starts with `"` (IIS Advanced Logging's
/// quoted fields) runs to the `"` before the next space or the end, its span without the
/// quotes.
fn field_spans(line: &[u8], runs: bool) -> impl Iterator<Item = (usize, usize)> + '_ {
    let line = if runs { line.trim_ascii_end() } else { line };
    let skip = move |at: usize| {
        if runs {
            at + line[at..].iter().take_while(|&&b| b == b' ').count()
        } else {
            at
        }
    };
    let mut at = Some(skip(0));
    std::iter::from_fn(move || {
        let start = at?;
        let rest = &line[start..];
        let closing = (rest.first() == Some(&b'"'))
            .then(|| closing_quote(rest))
            .flatten();
        let (span, end) = match closing {
            Some(close) => ((start + 1, start + close), start + close + 1),
            None => {
                let end = memchr::memchr(b' ', rest).map_or(line.len(), |i| start + i);
                ((start, end), end)
            }
        };
        at = (end < line.len()).then(|| skip(end + 1));
        Some(span)
    })
}

/// The quote that closes the quoted field `rest` starts with: the first `"` followed by a
/// space or the end that is not one of a doubled `""` (a quote inside the field, written as
/// CSV writes it: `" ""garbage"" w/ spaces "`).
fn closing_quote(rest: &[u8]) -> Option<usize> {
    let mut i = 1;
    while i < rest.len() {
        if rest[i] == b'"' {
            match rest.get(i + 1) {
                None | Some(b' ') => return Some(i),
                Some(b'"') => i += 1,
                Some(_) => {}
            }
        }
        i += 1;
    }
    None
}

/// A line without a `#Fields:` line before it fits IIS's default fields: 15 fields split at
/// single spaces, a date and a time, the server's address, a method, a path, a port, the
/// client's address, a status, a substatus, a win32 status and `time-taken`, each as IIS
/// writes it. IIS documents no other default, so a line that fits these has one reading.
pub fn fits_default(line: &[u8]) -> bool {
    let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    // An IPv4 or IPv6 address (with a `%zone`), as IIS writes `s-ip` and `c-ip`.
    let address = |f: &[u8]| {
        let f = f.split(|&b| b == b'%').next().unwrap_or_default();
        !f.is_empty()
            && (f.iter().all(|b| b.is_ascii_digit() || *b == b'.')
                && f.iter().filter(|&&b| b == b'.').count() == 3
                || f.contains(&b':')
                    && f.iter()
                        .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.')))
    };
    fields.len() == DEFAULT_FIELDS.len()
        && shaped(fields[0], b"9999-99-99")
        && shaped(fields[1], b"99:99:99")
        && address(fields[2])
        && !fields[3].is_empty()
        && fields[3].iter().all(u8::is_ascii_uppercase)
        && fields[4].starts_with(b"/")
        && digits(fields[6])
        && address(fields[8])
        && fields[11].len() == 3
        && digits(fields[11])
        && digits(fields[12])
        && digits(fields[13])
        && digits(fields[14])
}

/// An IIS log, if its first lines have IIS's `#Software:` line (or IIS Advanced Logging's),
/// or a `#Fields:` line (space-separated W3C, not CloudFront's) with a date, a time and
/// `cs-method`, or no directive at all and lines that fit IIS's default fields
/// ([`fits_default`], 4 in 5 of them).
pub fn sniff(first_lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    let software = first_lines.iter().any(|l| {
        l.starts_with(b"#Software: Microsoft Internet Information Services")
            || l.starts_with(b"#Software: IIS Advanced Logging")
    });
    let fields = first_lines.iter().find_map(|l| fields_line(l));
    let w3c = fields.as_ref().is_some_and(|f| {
        let has = |n: &str| f.iter().any(|x| x == n);
        DATE_TIME.iter().any(|(d, t)| has(d) && has(t))
            && has("cs-method")
            && !f.iter().any(|x| x.starts_with("x-edge-"))
    });
    if !(software || fields.is_some()) {
        let lines: Vec<&[u8]> = first_lines
            .iter()
            .copied()
            .filter(|l| !l.trim_ascii().is_empty() && !l.starts_with(b"#"))
            .collect();
        let fit = lines.iter().filter(|l| fits_default(l)).count();
        return (fit > 0 && fit as f64 >= super::BEST_OF * lines.len() as f64)
            .then(|| Box::new(Iis::from_lines(first_lines)) as Box<dyn LineFormat>);
    }
    // The FTP service's log (its lines are FTP commands) is no HTTP access log.
    if !(software || w3c) || fields.as_deref().is_some_and(ftp_fields) {
        return None;
    }
    Some(Box::new(Iis::from_lines(first_lines)))
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "iis",
    named: true,
    describe: "Microsoft IIS W3C extended log and IIS Advanced Logging (their `#Fields:` lines); not IIS's FTP log",
    detect: Some(Detect {
        order: 30,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Built {
        build: iis_lines,
        bare_first: false,
    },
    candidates: |lines| vec![iis_lines(lines)],
    looks: Some(Looks {
        name: "IIS (W3C)",
        // `#Software: Microsoft Internet Information Services` or `IIS Advanced Logging`.
        test: |l| l.starts_with(b"#Software:") || super::entry::w3c_date_then(l, b' '),
    }),
    compile: Some(compile),
    told: None,
    flags: &[&FLAGS],
    samples: &[
        Sample {
            name: "W3C extended",
            lines: "#Software: Microsoft Internet Information Services 10.0\n\
#Version: 1.0\n\
#Date: 2026-11-01 00:00:00\n\
#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Idempotency-Key) sc-status sc-substatus sc-win32-status time-taken\n\
2026-11-01 10:13:15 10.0.0.5 POST /v1/orders - 443 - 10.0.0.7 okhttp/4.12.0 k-1 502 3 12002 30001",
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T10:13:15Z"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders"),
                (Role::Status, "502"),
                (Role::UpstreamStatus, "502"),
                (Role::Duration, "30001"),
                (Role::IdempotencyKey, "k-1"),
                (Role::Flags, "12002"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Advanced Logging",
            lines: r#"#Software: IIS Advanced Logging Module
#Version: 1.0
#Fields:   date-local time-local c-ip cs-method cs-uri-stem cs(User-Agent) sc-status sc-substatus sc-win32-status TimeTakenMS
2012-08-15 17:00:00.660 10.10.28.140 POST /v1/orders "okhttp/4.12.0" 200 0 64 359"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2012-08-15T17:00:00.660"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders"),
                (Role::Status, "200"),
                (Role::Duration, "359"),
                (Role::Flags, "64"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Oracle Web Cache",
            lines: r#"#Version: 1.0
#GMT-Offset: -0800
#Software: Oracle9iAS Web Cache/2.0.0.2.0
#Fields:  c-ip  c-dns  c-auth-id  date  time  cs-method  cs-uri  sc-status  bytes  cs(Cookie)  cs(Referrer)  time-taken  cs(User-Agent)
10.0.0.7      client_a1      -      2026-11-01     10:13:15      POST      /v1/orders?x=1    201     350    "-"         "-"      30001      "okhttp/4.12.0 (Linux)""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T10:13:15-0800"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders?x=1"),
                (Role::Status, "201"),
                (Role::Duration, "30001"),
            ],
            gave_up: None,
        },
    ],
};

/// `--input-format iis --log-format '#Fields: date time ...'`: the names a file's `#Fields:`
/// line would give (the `#Fields:` may be left out).
fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    let t = text.trim();
    let line = if t.starts_with("#Fields:") {
        t.to_string()
    } else {
        format!("#Fields: {t}")
    };
    let names = fields_line(line.as_bytes()).unwrap_or_default();
    let has = |n: &str| names.iter().any(|x| x == n);
    if !DATE_TIME.iter().any(|(d, t)| has(d) && has(t)) {
        return Err("an IIS #Fields: line names date and time".to_string());
    }
    Ok(Box::new(Iis::new(&[names])))
}

fn iis_lines(lines: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(Iis::from_lines(lines))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{field, fields};
    use super::*;

    const FIELDS_1: &[u8] = b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken";
    const FIELDS_2: &[u8] = b"#Fields: date time cs-method cs-uri-stem c-ip cs(User-Agent) cs(Idempotency-Key) sc-status sc-substatus sc-win32-status time-taken";

    #[test]
    fn layouts_change_mid_file() {
        let iis = Iis::from_lines(&[
            b"#Software: Microsoft Internet Information Services 10.0",
            FIELDS_1,
            FIELDS_2,
        ]);
        let hints = iis.hints();
        assert!(
            hints
                .columns
                .contains(&(Role::IdempotencyKey, "cs(Idempotency-Key)".to_string()))
        );
        assert!(iis.skip(b"#Software: Microsoft Internet Information Services 10.0"));
        assert!(!iis.skip(FIELDS_2));
        let mut blank = Fields::default();
        iis.split(FIELDS_1, &mut blank).unwrap();
        assert_eq!(
            (blank.len(), blank.data.len()),
            (1, 0),
            "a #Fields: line is no row"
        );
        let f = fields(&iis, b"2018-01-01 08:09:10 127.0.0.1 POST /v1/pay - 443 - 81.2.69.143 Mozilla/5.0+(X11) - 200 0 64 31000").unwrap();
        assert_eq!(field(&iis, &f, "timestamp"), "2018-01-01T08:09:10Z");
        assert_eq!(field(&iis, &f, "cs(User-Agent)"), "Mozilla/5.0 (X11)");
        assert_eq!(field(&iis, &f, "sc-win32-status"), "64");
        assert_eq!(field(&iis, &f, "cs(Idempotency-Key)"), "");
        let mut out = Fields::default();
        iis.split(FIELDS_2, &mut out).unwrap();
        let f = fields(
            &iis,
            b"2018-01-01 08:09:11 POST /v1/pay 10.0.0.1 curl/8 k-1 502 3 12002 30001",
        )
        .unwrap();
        assert_eq!(field(&iis, &f, "cs(Idempotency-Key)"), "k-1");
        assert_eq!(field(&iis, &f, "sc-substatus"), "3");
        assert_eq!(field(&iis, &f, "s-ip"), "", "not in this layout");
        let err = fields(&iis, b"2018-01-01 08:09:11 POST /v1/pay").unwrap_err();
        assert!(err.contains("expected 11 space-separated fields"), "{err}");
    }

    /// IIS Advanced Logging's names and quoted fields (Matomo log-analytics' iis_custom.log).
    #[test]
    fn advanced_logging() {
        let first: [&[u8]; 3] = [
            b"#Software: IIS Advanced Logging Module",
            b"#Start-Date: 2014-11-18 00:00:00.128",
            b"#Fields:   date-local time-local   s-ip   cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) cs(Host) sc-status sc-substatus sc-win32-status TimeTakenMS",
        ];
        let iis = sniff(&first).unwrap();
        assert!(iis.skip(first[1]));
        let hints = iis.hints();
        assert!(
            hints
                .columns
                .contains(&(Role::Duration, "TimeTakenMS".to_string()))
        );
        assert_eq!(hints.notes, [crate::logs::FormatNote::IisLocalTime]);
        let mut out = Fields::default();
        iis.split(first[2], &mut out).unwrap();
        let line = br#"2012-08-15 17:00:00.675 10.10.28.140 GET /hello/world/6,681965 - 80 - "173.5.0.0" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1)" - "hello.example.com" 404 " garbage w/ spaces " 0 359"#;
        let f = fields(iis.as_ref(), line).unwrap();
        assert_eq!(
            field(iis.as_ref(), &f, "timestamp"),
            "2012-08-15T17:00:00.675"
        );
        assert_eq!(field(iis.as_ref(), &f, "c-ip"), "173.5.0.0");
        assert_eq!(
            field(iis.as_ref(), &f, "cs(User-Agent)"),
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1)"
        );
        assert_eq!(field(iis.as_ref(), &f, "sc-status"), "404");
        assert_eq!(
            field(iis.as_ref(), &f, "sc-substatus"),
            " garbage w/ spaces "
        );
        assert_eq!(field(iis.as_ref(), &f, "TimeTakenMS"), "359");
        // A quote inside a quoted field, doubled as CSV writes it (Matomo's later sample):
        // one field, not 4 (19 split at spaces against a `#Fields:` of 16).
        let doubled = br#"2012-08-15 17:00:00.675 10.10.28.140 GET /hello/world/6,681965 - 80 - "173.5.0.0" "Mozilla/5.0 (Macintosh)" - "hello.example.com" 404 " ""garbage"" w/ spaces " 0 359"#;
        let f = fields(iis.as_ref(), doubled).unwrap();
        assert_eq!(field(iis.as_ref(), &f, "sc-status"), "404");
        assert_eq!(
            field(iis.as_ref(), &f, "sc-substatus"),
            r#" ""garbage"" w/ spaces "#
        );
        assert_eq!(field(iis.as_ref(), &f, "sc-win32-status"), "0");
        assert_eq!(field(iis.as_ref(), &f, "TimeTakenMS"), "359");
        // Fields past the `#Fields:` line's are never read into its names.
        let longer = br#"2012-08-15 17:00:01.363 1.2.3.4 POST /v1/orders - 443 - "70.95.0.0" "curl/8.5 (x)" - "api.example.com" 201 0 0 109 "ARR" 7 -"#;
        let err = fields(iis.as_ref(), longer).unwrap_err();
        assert!(err.contains("expected 16 space-separated fields"), "{err}");
        // A quote that does not close a field is part of it.
        let spans: Vec<_> = field_spans(br#"a "b c" "d"e f "#, false).collect();
        assert_eq!(spans, [(0, 1), (3, 6), (8, 12), (13, 14), (15, 15)]);
        let spans: Vec<_> = field_spans(b"\"\" \"a\"\" b\" \"x\"\"\"", false).collect();
        assert_eq!(spans, [(1, 1), (4, 9), (12, 15)]);
    }

    /// Oracle Web Cache's W3C log (lnav's sample's shape): columns aligned with runs of
    /// spaces, quoted fields, its local time with a `#GMT-Offset:` line; its `time-taken` unit
    /// is not IIS's to say.
    #[test]
    fn oracle_web_cache_runs_of_spaces() {
        let first: [&[u8]; 4] = [
            b"#Version: 1.0",
            b"#GMT-Offset: -0800",
            b"#Software: Oracle9iAS Web Cache/2.0.0.2.0",
            b"#Fields:  c-ip  c-dns  c-auth-id  date  time  cs-method  cs-uri  sc-status  bytes  cs(Cookie)  cs(Referrer)  time-taken  cs(User-Agent)",
        ];
        let w3c = sniff(&first).unwrap();
        assert_eq!(
            w3c.describe(),
            "W3C extended log (Oracle9iAS Web Cache/2.0.0.2.0)"
        );
        assert_eq!(w3c.hints().duration_unit, None);
        let line = br#"64.103.37.2      client_joaz7      DMS.user      2001-10-31     00:00:18      POST      /admin/pay?id=7    200     350    "BIG=1443321748.19460.0000;A=%2fMP"         "http://www.example.com/nl/x.html"      370879      "Mozilla/4.5 [en] (WinNT; I)"  "#;
        let f = fields(w3c.as_ref(), line).unwrap();
        assert_eq!(
            field(w3c.as_ref(), &f, "timestamp"),
            "2001-10-31T00:00:18-0800"
        );
        assert_eq!(field(w3c.as_ref(), &f, "cs-uri"), "/admin/pay?id=7");
        assert_eq!(field(w3c.as_ref(), &f, "sc-status"), "200");
        assert_eq!(field(w3c.as_ref(), &f, "time-taken"), "370879");
        assert_eq!(
            field(w3c.as_ref(), &f, "cs(User-Agent)"),
            "Mozilla/4.5 [en] (WinNT; I)"
        );
        // IIS's own, single spaces: as before, and `time-taken` in ms.
        let iis = sniff(&[
            b"#Software: Microsoft Internet Information Services 10.0",
            FIELDS_1,
        ])
        .unwrap();
        assert_eq!(iis.describe(), "IIS W3C extended log");
        assert_eq!(iis.hints().duration_unit, Some(DurationUnit::Millis));
        let spans: Vec<_> = field_spans(b"  a   b c  ", true).collect();
        assert_eq!(spans, [(2, 3), (6, 7), (8, 9)]);
    }

    #[test]
    fn give_ups() {
        for (win32, gave_up) in [
            ("64", true),
            ("1236", true),
            ("12002", true),
            ("0", false),
            ("2", false),
        ] {
            assert_eq!(
                FlagsStyle(&FLAGS).gave_up(win32.as_bytes()),
                gave_up,
                "{win32}"
            );
        }
    }

    #[test]
    fn sniffs_iis_not_cloudfront() {
        assert!(
            sniff(&[
                b"#Software: Microsoft Internet Information Services 10.0",
                FIELDS_1
            ])
            .is_some()
        );
        assert!(sniff(&[FIELDS_1]).is_some());
        assert!(sniff(&[b"#Fields: date time x-edge-location cs-method"]).is_none());
        assert!(sniff(&[b"127.0.0.1 - - [x]"]).is_none());
    }
}
