//! Amazon CloudFront standard (access) logs: W3C extended log files, tab-separated, with a
//! `#Version: 1.0` line and a `#Fields:` line naming the fields, one file per distribution
//! and period delivered gzipped to S3.
//!
//! The field list comes from the file's `#Fields:` line (CloudFront has added fields over the
//! years; a distribution's v2 logs may choose theirs); without one, AWS's documented 33
//! fields are assumed. Fields keep CloudFront's names (`cs-method`, `cs-uri-stem`,
//! `sc-status`, `time-taken`, `x-edge-request-id`, ...). Two are dupcost's own: `timestamp`,
//! the `date` and `time` columns as one UTC instant (the time CloudFront finished
//! responding), written first; and the user agent, which CloudFront URL-encodes
//! (`Mozilla/5.0%20(X11...`), is decoded in place.
//!
//! What CloudFront tells about give-ups: `sc-status` `000` (the viewer closed the connection
//! before CloudFront answered) and `x-edge-detailed-result-type` `ClientCommError` or
//! `ClientHungUpRequest` (the viewer went away) are the client's give-ups; 504 is CloudFront
//! giving up on the origin. What it does not tell: the origin's own status. A standard log
//! has no origin status field, so the backend outcome of every timed-out attempt is unknown
//! from this log alone; the origin's log (`--outcomes`) settles it.

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample};
use super::{Fields, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps, LineFormat};
use crate::logs::formats::DurationUnit;
use crate::logs::role::Role;

/// CloudFront's `x-edge-detailed-result-type`: `ClientCommError` and `ClientHungUpRequest`
/// (the viewer went away before the answer) are give-ups.
pub static FLAGS: Flags = Flags {
    name: "cloudfront",
    field: "result type",
    give_ups: GiveUps {
        matching: GiveUpMatch::Whole,
        codes: &["ClientCommError", "ClientHungUpRequest"],
    },
    named_by: |n| n.starts_with("xedge"),
    empty_status_is_zero: false,
    no_request: None,
};

/// AWS's documented fields of a standard log, in order, for a file without `#Fields:`.
pub const DEFAULT_FIELDS: [&str; 33] = [
    "date",
    "time",
    "x-edge-location",
    "sc-bytes",
    "c-ip",
    "cs-method",
    "cs(Host)",
    "cs-uri-stem",
    "sc-status",
    "cs(Referer)",
    "cs(User-Agent)",
    "cs-uri-query",
    "cs(Cookie)",
    "x-edge-result-type",
    "x-edge-request-id",
    "x-host-header",
    "cs-protocol",
    "cs-bytes",
    "time-taken",
    "x-forwarded-for",
    "ssl-protocol",
    "ssl-cipher",
    "x-edge-response-result-type",
    "cs-protocol-version",
    "fle-status",
    "fle-encrypted-fields",
    "c-port",
    "time-to-first-byte",
    "x-edge-detailed-result-type",
    "sc-content-type",
    "sc-content-len",
    "sc-range-start",
    "sc-range-end",
];

/// The layouts of a standard log AWS has documented, by their field counts: today's 33, and
/// those of earlier years (before `cs-protocol-version`, the field-level encryption fields and
/// `c-port` ... `sc-range-end` were added), each the first fields of the next: AWS adds a
/// field at the end of the line.
pub const LAYOUTS: [usize; 4] = [23, 24, 26, 33];

/// A CloudFront standard log with its field list.
#[derive(Debug, Clone)]
pub struct Cloudfront {
    /// The `#Fields:` names, in order.
    fields: Vec<String>,
    /// Where `date`, `time` and `cs(User-Agent)` are among them.
    date: usize,
    time: usize,
    user_agent: Option<usize>,
    /// Fields a line must have: up to the last that a role reads. A line that ends earlier
    /// than its `#Fields:` (the last ones left off, as Elastic's samples show) is read with
    /// those empty.
    needed: usize,
    /// Whether the names came from the file or `--log-format` (`false`: the documented
    /// default, inferred: each line must have one of the [`LAYOUTS`]).
    from_header: bool,
    /// The field count of the first line read by the documented default (for the
    /// `--log-format` that gives its names).
    first_count: usize,
}

impl Cloudfront {
    /// The format of a log whose `#Fields:` line names `fields`; `None` when they have no
    /// `date` and `time`.
    pub fn with_fields(fields: Vec<String>, from_header: bool) -> Option<Self> {
        let at = |name: &str| fields.iter().position(|f| f == name);
        Some(Cloudfront {
            date: at("date")?,
            time: at("time")?,
            user_agent: at("cs(User-Agent)"),
            needed: needed(&fields),
            first_count: fields.len(),
            fields,
            from_header,
        })
    }

    /// The documented default fields.
    pub fn documented() -> Self {
        let fields: Vec<String> = DEFAULT_FIELDS.iter().map(|f| f.to_string()).collect();
        Cloudfront {
            needed: needed(&fields),
            fields,
            date: 0,
            time: 1,
            user_agent: Some(10),
            from_header: false,
            first_count: DEFAULT_FIELDS.len(),
        }
    }

    /// The format from the first lines: their `#Fields:` line, or the documented fields.
    pub fn from_lines(first_lines: &[&[u8]]) -> Self {
        first_lines
            .iter()
            .find_map(|line| fields_line(line))
            .and_then(|fields| Cloudfront::with_fields(fields, true))
            .unwrap_or_else(|| {
                let count = first_lines
                    .iter()
                    .find(|l| !l.starts_with(b"#") && !l.trim_ascii().is_empty())
                    .map(|l| l.split(|&b| b == b'\t').count())
                    .filter(|n| LAYOUTS.contains(n))
                    .unwrap_or(DEFAULT_FIELDS.len());
                Cloudfront {
                    first_count: count,
                    ..Cloudfront::documented()
                }
            })
    }
}

/// A W3C field of digits only (a status, a port, a byte count).
pub(super) fn digits(f: &[u8]) -> bool {
    !f.is_empty() && f.iter().all(u8::is_ascii_digit)
}

/// A W3C field shaped as `shape`, where `9` stands for any digit (`9999-99-99`).
pub(super) fn shaped(f: &[u8], shape: &[u8]) -> bool {
    f.len() == shape.len()
        && f.iter()
            .zip(shape)
            .all(|(b, s)| if *s == b'9' { b.is_ascii_digit() } else { b == s })
}

/// A headerless line's fields fit the documented default: a date and a time, a byte count,
/// a method, a path, a status (`000` too) and, where the line reaches it, `time-taken` in
/// seconds; and its count is one of the [`LAYOUTS`].
fn fits_default(line: &[u8]) -> bool {
    let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
    let decimal = |f: &[u8]| {
        !f.is_empty()
            && f.iter().all(|b| b.is_ascii_digit() || *b == b'.')
            && f.iter().filter(|&&b| b == b'.').count() <= 1
    };
    LAYOUTS.contains(&fields.len())
        && shaped(fields[0], b"9999-99-99")
        && shaped(fields[1], b"99:99:99")
        && digits(fields[3])
        && !fields[5].is_empty()
        && fields[5].iter().all(u8::is_ascii_uppercase)
        && fields[7].starts_with(b"/")
        && fields[8].len() == 3
        && digits(fields[8])
        && decimal(fields[18])
}

/// `--input-format cloudfront --log-format '#Fields: date time ...'`: the names a file's
/// `#Fields:` line would give (the `#Fields:` may be left out).
fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    let t = text.trim();
    let line = if t.starts_with("#Fields:") {
        t.to_string()
    } else {
        format!("#Fields: {t}")
    };
    let fields = fields_line(line.as_bytes()).unwrap_or_default();
    Cloudfront::with_fields(fields, true)
        .map(|f| Box::new(f) as Box<dyn LineFormat>)
        .ok_or_else(|| "a CloudFront #Fields: line names date and time".to_string())
}

/// The fields the roles read (status, method, path, time, duration, flags, ids, sizes,
/// client): a line must reach the last of them that its `#Fields:` names.
const ROLE_FIELDS: [&str; 13] = [
    "date",
    "time",
    "sc-bytes",
    "c-ip",
    "cs-method",
    "cs-uri-stem",
    "sc-status",
    "cs(User-Agent)",
    "x-edge-result-type",
    "x-edge-request-id",
    "cs-bytes",
    "time-taken",
    "x-edge-detailed-result-type",
];

fn needed(fields: &[String]) -> usize {
    fields
        .iter()
        .rposition(|f| ROLE_FIELDS.contains(&f.as_str()) || f.starts_with("cs(Idempotency"))
        .map_or(fields.len(), |i| i + 1)
}

/// The names of a W3C extended log's `#Fields:` line (CloudFront's and IIS's).
pub(super) fn fields_line(line: &[u8]) -> Option<Vec<String>> {
    let rest = line.trim_ascii().strip_prefix(b"#Fields:")?;
    Some(
        rest.split(|b| b.is_ascii_whitespace())
            .filter(|n| !n.is_empty())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect(),
    )
}

/// `%XX` escapes decoded into `out` (CloudFront encodes spaces and other bytes of the user
/// agent; a `%` not followed by two hex digits stays as it is).
fn percent_decode(field: &[u8], out: &mut Vec<u8>) {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut i = 0;
    while i < field.len() {
        if field[i] == b'%' {
            if let (Some(hi), Some(lo)) = (
                field.get(i + 1).copied().and_then(hex),
                field.get(i + 2).copied().and_then(hex),
            ) {
                out.push(hi << 4 | lo);
                i += 3;
                continue;
            }
        }
        out.push(field[i]);
        i += 1;
    }
}

impl LineFormat for Cloudfront {
    fn describe(&self) -> String {
        if self.from_header {
            "CloudFront standard log".to_string()
        } else {
            "CloudFront standard log (no #Fields: line: its documented fields, inferred)"
                .to_string()
        }
    }

    fn names(&self) -> Vec<String> {
        std::iter::once("timestamp".to_string())
            .chain(self.fields.iter().cloned())
            .collect()
    }

    fn hints(&self) -> FormatHints {
        let notes = if self.from_header {
            Vec::new()
        } else {
            vec![crate::logs::FormatNote::DefaultLayout {
                layout: "CloudFront's documented fields (33, or the first 23, 24 or 26 on an \
                         older log's lines)"
                    .to_string(),
                given_by: format!(
                    "--input-format cloudfront --log-format '#Fields: {}'",
                    DEFAULT_FIELDS[..self.first_count].join(" ")
                ),
            }]
        };
        FormatHints {
            duration_unit: Some(DurationUnit::Seconds),
            flags_style: Some(FlagsStyle(&FLAGS)),
            notes,
            ..FormatHints::default()
        }
    }

    fn skip(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'#')
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let want = self.fields.len();
        // The timestamp first: date, `T`, time, `Z`.
        let mut date: &[u8] = b"";
        let mut time: &[u8] = b"";
        let mut found = 0;
        for (i, field) in line.split(|&b| b == b'\t').enumerate() {
            if i == self.date {
                date = field;
            } else if i == self.time {
                time = field;
            }
            found = i + 1;
        }
        if !self.from_header {
            // No `#Fields:` line: a documented layout, told by the line's count.
            if !LAYOUTS.contains(&found) {
                return Err(format!(
                    "expected CloudFront's documented {want} tab-separated fields, or the first 23, 24 or 26 of an older log (the file has no #Fields: line to say), found {found}"
                ));
            }
        } else if found < want && found >= self.needed {
            // The last fields left off: read as empty.
        } else if found != want {
            return Err(format!(
                "expected {want} tab-separated fields (the #Fields: line), found {found}"
            ));
        }
        out.data.extend_from_slice(date);
        out.data.push(b'T');
        out.data.extend_from_slice(time);
        out.data.push(b'Z');
        out.ends.push(out.data.len());
        for (i, field) in line.split(|&b| b == b'\t').enumerate() {
            if Some(i) == self.user_agent {
                percent_decode(field, &mut out.data);
                out.ends.push(out.data.len());
            } else {
                out.push(field);
            }
        }
        while out.ends.len() < want + 1 {
            out.push(b"");
        }
        Ok(())
    }
}

/// A CloudFront standard log, if the first lines are one: a `#Version:` and a `#Fields:` line
/// with `date`, `time` and `x-edge-location`, or data lines of the documented 33 fields.
pub fn sniff(first_lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    if let Some(fields) = first_lines.iter().find_map(|line| fields_line(line)) {
        if fields.iter().any(|f| f.starts_with("x-edge-")) {
            return Cloudfront::with_fields(fields, true)
                .map(|f| Box::new(f) as Box<dyn LineFormat>);
        }
        return None;
    }
    // No `#Fields:` line: the documented default, where the lines' counts and values fit it
    // (4 in 5 of them, as any format's lines).
    let lines: Vec<&[u8]> = first_lines
        .iter()
        .copied()
        .filter(|l| !l.trim_ascii().is_empty() && !l.starts_with(b"#"))
        .collect();
    let fit = lines.iter().filter(|l| fits_default(l)).count();
    (fit > 0 && fit as f64 >= super::BEST_OF * lines.len() as f64)
        .then(|| Box::new(Cloudfront::from_lines(first_lines)) as Box<dyn LineFormat>)
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "cloudfront",
    named: true,
    describe: "Amazon CloudFront standard log (W3C, tab-separated, its `#Fields:` line)",
    detect: Some(Detect {
        order: 20,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Built {
        build: cloudfront_lines,
        bare_first: true,
    },
    candidates: |lines| vec![cloudfront_lines(lines)],
    looks: Some(Looks {
        name: "CloudFront (W3C)",
        test: |l| {
            (l.starts_with(b"#") && !l.starts_with(b"#Software:"))
                || super::entry::w3c_date_then(l, b'\t')
        },
    }),
    compile: Some(compile),
    told: None,
    flags: &[&FLAGS],
    samples: &[Sample {
        name: "standard log",
        lines: "#Version: 1.0\n\
#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end\n\
2026-11-01\t10:00:05\tLAX1\t512\t192.0.2.101\tPOST\td111111abcdef8.cloudfront.net\t/v1/orders\t504\t-\tokhttp/4.12.0\t-\t-\tError\tSOKRB5drohxR1NYTlnZMBwq5USH4tVZHLSTTaxD1LF3nzPsrGkWF5Q==\td111111abcdef8.cloudfront.net\thttps\t23\t30.001\t-\tTLSv1.2\tECDHE-RSA-AES128-GCM-SHA256\tError\tHTTP/2.0\t-\t-\t11040\t30.001\tClientCommError\ttext/html\t78\t-\t-",
        detected: true,
        reads: &[
            (Role::Timestamp, "2026-11-01T10:00:05Z"),
            (Role::Method, "POST"),
            (Role::Path, "/v1/orders"),
            (Role::Status, "504"),
            (Role::Duration, "30.001"),
            (Role::Flags, "ClientCommError"),
        ],
        gave_up: Some(true),
    }],
};

fn cloudfront_lines(lines: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(Cloudfront::from_lines(lines))
}

#[cfg(test)]
mod tests {
    use super::super::testing::fields;
    use super::*;

    /// Shaped like AWS's documented example log (its field list and values).
    const HEADER: &[u8] = b"#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end";
    const LINE: &[u8] = b"2019-12-04\t21:02:31\tLAX1\t392\t192.0.2.100\tGET\td111111abcdef8.cloudfront.net\t/index.html\t200\t-\tMozilla/5.0%20(Windows%20NT%2010.0;%20Win64;%20x64)%20AppleWebKit/537.36\t-\t-\tHit\tSOKRB5drohxR1NYTlnZMBwq5USH4tVZHLSTTaxD1LF3nzPsrGkWF5Q==\td111111abcdef8.cloudfront.net\thttps\t23\t0.001\t-\tTLSv1.2\tECDHE-RSA-AES128-GCM-SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\ttext/html\t78\t-\t-";

    #[test]
    fn standard_log() {
        let cf = sniff(&[b"#Version: 1.0", HEADER, LINE]).expect("sniffed");
        assert!(cf.skip(b"#Version: 1.0") && cf.skip(HEADER) && !cf.skip(LINE));
        let names = cf.names();
        let f = fields(cf.as_ref(), LINE).unwrap();
        let get = |n: &str| f[names.iter().position(|x| x == n).unwrap()].as_str();
        assert_eq!(get("timestamp"), "2019-12-04T21:02:31Z");
        assert_eq!(get("cs-method"), "GET");
        assert_eq!(get("sc-status"), "200");
        assert_eq!(get("time-taken"), "0.001");
        assert_eq!(
            get("cs(User-Agent)"),
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36"
        );
        assert_eq!(
            get("x-edge-request-id"),
            "SOKRB5drohxR1NYTlnZMBwq5USH4tVZHLSTTaxD1LF3nzPsrGkWF5Q=="
        );
        // Without the header lines (a file cut), the documented fields are assumed.
        let cf = sniff(&[LINE]).expect("sniffed without header");
        assert!(cf.describe().contains("documented"));
    }

    #[test]
    fn chosen_fields_and_bad_lines() {
        let cf = sniff(&[
            b"#Version: 1.0",
            b"#Fields: date time cs-method cs-uri-stem sc-status time-taken x-edge-detailed-result-type",
        ])
        .unwrap();
        let f = fields(
            cf.as_ref(),
            b"2026-11-01\t00:00:01\tPOST\t/v1/pay\t000\t30.001\tClientCommError",
        )
        .unwrap();
        assert_eq!(f[0], "2026-11-01T00:00:01Z");
        assert_eq!(f[5], "000");
        let err = fields(cf.as_ref(), b"2026-11-01\t00:00:01\tPOST").unwrap_err();
        assert!(err.contains("expected 7 tab-separated fields"), "{err}");
        assert_eq!(percent_decode_str(b"a%2"), "a%2");
        assert_eq!(percent_decode_str(b"%e2%82%ac%zz"), "€%zz");
        assert!(sniff(&[b"#Fields: a b c"]).is_none());
        assert!(sniff(&[b"\xff\x00garbage"]).is_none());
        assert!(sniff(&[b"timestamp,method"]).is_none());
    }

    #[test]
    fn give_ups() {
        let flags = sniff(&[b"#Fields: date time x-edge-detailed-result-type x-edge-request-id"])
            .unwrap()
            .hints()
            .flags_style
            .unwrap();
        assert!(flags.gave_up(b"ClientCommError") && flags.gave_up(b"ClientHungUpRequest"));
        for not in [
            &b"Hit"[..],
            b"Miss",
            b"OriginCommError",
            b"Error",
            b"-",
            b"",
        ] {
            assert!(!flags.gave_up(not), "{}", String::from_utf8_lossy(not));
        }
    }

    fn percent_decode_str(b: &[u8]) -> String {
        let mut out = Vec::new();
        percent_decode(b, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}
