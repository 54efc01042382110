//! CSV and TSV headers: which column plays which role, recognised from the header.
//!
//! Header names are compared case-insensitively, ignoring `-`, `_`, `.`, `$`, `@` and spaces,
//! so `$request_method`, `Request-Method` and `requestmethod` are the same name. For each role
//! the aliases are tried in order and the first header that matches wins; `--column ROLE=HEADER`
//! overrides the search.

use csv_core::{ReadRecordResult, ReaderBuilder};

use super::entry::{FormatEntry, Reading};
use super::{ColumnMap, DurationUnit, FlagsStyle};
use crate::logs::error::{LogError, escape_control};
use crate::logs::limits::{MAX_FIELDS, MAX_RECORD};
use crate::logs::role::{Role, normalize};
use crate::logs::source::Opened;

/// A CSV or TSV input's header: its fields, the delimiter, and where the data starts (byte
/// offset and line).
#[derive(Debug, Clone)]
pub struct CsvHeader {
    pub fields: Vec<Vec<u8>>,
    pub delimiter: u8,
    pub data_start: u64,
    pub data_line: u64,
}

/// Reads the header record of `opened` (reading more of it when the record is not complete
/// yet); the delimiter is sniffed from it unless given.
pub fn header(opened: &mut Opened, delimiter: Option<u8>) -> Result<CsvHeader, LogError> {
    let header_end = loop {
        if let Some(end) = header_record_end(&opened.prefix, delimiter) {
            break Some(end);
        }
        if opened.prefix.len() > MAX_RECORD {
            return Err(LogError::HeaderTooLong {
                path: opened.name.clone(),
                limit: MAX_RECORD,
            });
        }
        if !opened.read_more()? {
            break None;
        }
    };
    let prefix = &opened.prefix;
    let header_end = header_end.unwrap_or(prefix.len());
    let delimiter = delimiter.unwrap_or_else(|| sniff_delimiter(&prefix[..header_end]));
    let (fields, data_line) = parse_header(&prefix[..header_end], delimiter);
    Ok(CsvHeader {
        fields,
        delimiter,
        data_start: header_end as u64,
        data_line,
    })
}

/// The end of the header record (after its line terminator), if `bytes` holds all of it.
fn header_record_end(bytes: &[u8], delimiter: Option<u8>) -> Option<usize> {
    // Quotes make the sniffed delimiter irrelevant to where the record ends.
    let mut core = ReaderBuilder::new()
        .delimiter(delimiter.unwrap_or(b','))
        .build();
    let mut out = vec![0u8; bytes.len() + 1];
    let mut ends = vec![0usize; MAX_FIELDS];
    let (res, nin, _, _) = core.read_record(bytes, &mut out, &mut ends);
    match res {
        ReadRecordResult::Record if nin < bytes.len() || bytes.ends_with(b"\n") => {
            // Also take the `\n` of a `\r\n`.
            let mut end = nin;
            if bytes[..end].ends_with(b"\r") && bytes.get(end) == Some(&b'\n') {
                end += 1;
            }
            Some(end)
        }
        _ => None,
    }
}

/// The header fields and the line the data starts on.
fn parse_header(bytes: &[u8], delimiter: u8) -> (Vec<Vec<u8>>, u64) {
    let mut core = ReaderBuilder::new().delimiter(delimiter).build();
    let mut out = vec![0u8; bytes.len() + 1];
    let mut ends = vec![0usize; MAX_FIELDS];
    let (mut outlen, mut endlen, mut at) = (0, 0, 0);
    loop {
        let (res, nin, nout, nend) =
            core.read_record(&bytes[at..], &mut out[outlen..], &mut ends[endlen..]);
        at += nin;
        outlen += nout;
        endlen += nend;
        match res {
            ReadRecordResult::InputEmpty if at < bytes.len() => continue,
            ReadRecordResult::InputEmpty => continue,
            _ => break,
        }
    }
    let mut fields = Vec::with_capacity(endlen);
    let mut start = 0;
    for &end in &ends[..endlen] {
        fields.push(out[start..end].to_vec());
        start = end;
    }
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    (fields, 1 + lines.max(1))
}

/// The delimiter of a header line: whichever of comma, tab, semicolon and pipe occurs most
/// often outside quotes (comma when none does).
pub fn sniff_delimiter(header: &[u8]) -> u8 {
    let mut counts = [0usize; 4];
    let mut quoted = false;
    for &b in header {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b'\t' if !quoted => counts[1] += 1,
            b';' if !quoted => counts[2] += 1,
            b'|' if !quoted => counts[3] += 1,
            _ => {}
        }
    }
    let best = (0..4).max_by_key(|&i| (counts[i], 4 - i)).unwrap_or(0);
    if counts[best] == 0 {
        b','
    } else {
        [b',', b'\t', b';', b'|'][best]
    }
}

/// The unit a duration column's name implies: a `_ms`, `_us` or `_ns` suffix says so;
/// `responseTime` (pino-http, Fastify) is milliseconds; nginx/ALB-style `request_time`,
/// `*_response_time`, `*_processing_time` and `_s` names are seconds; Traefik's `Duration` (in a header with other Traefik names) is nanoseconds; any
/// other name is taken as milliseconds.
pub fn duration_unit_from_name(header: &[u8], traefik: bool) -> DurationUnit {
    duration_unit_named(header, traefik).unwrap_or(DurationUnit::Millis)
}

/// The unit a duration column's name says (`_ms`, `request_time`, `Duration` of Traefik's);
/// `None` when it says none (`duration`, `latency`, `elapsed`): milliseconds are then an
/// assumption, said in the report (`ColumnMap::duration_unit_assumed`).
pub fn duration_unit_named(header: &[u8], traefik: bool) -> Option<DurationUnit> {
    let lower: Vec<u8> = header.iter().map(u8::to_ascii_lowercase).collect();
    let norm = normalize(header);
    let ends = |s: &str| lower.ends_with(s.as_bytes());
    if ends("ms") || ends("millis") || ends("milliseconds") {
        Some(DurationUnit::Millis)
    } else if ends("us") && !ends("status") || ends("micros") || ends("microseconds") {
        Some(DurationUnit::Micros)
    } else if ends("ns") || ends("nanos") || ends("nanoseconds") || (norm == "duration" && traefik)
    {
        Some(DurationUnit::Nanos)
    } else if norm == "responsetime" {
        // pino-http's, Fastify's and express-winston's `responseTime`: milliseconds, as
        // each documents it (nginx's `$upstream_response_time`, a longer name, is seconds).
        Some(DurationUnit::Millis)
    } else if norm.ends_with("time")
        || ends("_s")
        || ends("-s")
        || ends("sec")
        || ends("secs")
        || ends("seconds")
    {
        Some(DurationUnit::Seconds)
    } else {
        None
    }
}

impl ColumnMap {
    /// Recognises the roles in `header`. `overrides` (from `--column`) win over aliases.
    pub fn detect(
        path: &str,
        header: &[&[u8]],
        overrides: &[(Role, String)],
        duration_unit: Option<DurationUnit>,
    ) -> Result<ColumnMap, LogError> {
        let headers: Vec<String> = header
            .iter()
            .map(|h| {
                String::from_utf8_lossy(h)
                    .trim()
                    .chars()
                    .flat_map(escape_control)
                    .collect()
            })
            .collect();
        let normalized: Vec<String> = header.iter().map(|h| normalize(h)).collect();
        let found = || headers.join(", ");
        let pick = |role: Role| -> Result<Option<usize>, LogError> {
            if let Some((_, wanted)) = overrides.iter().rev().find(|(r, _)| *r == role) {
                let exact = headers.iter().position(|h| h == wanted.trim());
                let loose = || {
                    let w = normalize(wanted.as_bytes());
                    normalized.iter().position(|n| *n == w)
                };
                return match exact.or_else(loose) {
                    Some(i) => Ok(Some(i)),
                    None => Err(LogError::UnknownColumn {
                        path: path.to_string(),
                        role,
                        header: wanted.clone(),
                        found: found(),
                    }),
                };
            }
            // A header given to the timestamp by name (`--column`, a format's hints) is not
            // also the duration by an alias: API Gateway's `requestTime` is the time, not
            // nginx's `request_time`. (Other roles may share a field: IIS's `sc-status` is
            // both the status and the backend's.)
            let claimed = |i: usize| {
                role == Role::Duration
                    && overrides.iter().any(|(r, w)| {
                        *r == Role::Timestamp
                            && (headers[i] == w.trim() || normalized[i] == normalize(w.as_bytes()))
                    })
            };
            Ok(role.aliases().iter().find_map(|alias| {
                normalized
                    .iter()
                    .position(|n| n == alias)
                    .filter(|&i| !claimed(i))
            }))
        };
        let mut roles = [None; Role::ALL.len()];
        for (slot, role) in roles.iter_mut().zip(Role::ALL) {
            *slot = pick(role)?;
        }
        let [
            timestamp,
            method,
            path_col,
            status,
            upstream,
            duration,
            key,
            bytes,
            flags,
            request_id,
            client_addr,
            forwarded_for,
            user_agent,
            request_length,
            proxy_attempts,
        ] = roles;
        let missing = |role: Role| LogError::MissingColumn {
            path: path.to_string(),
            role,
            aliases: role.aliases().join(", "),
            found: found(),
        };
        let method = method.ok_or_else(|| missing(Role::Method))?;
        let status = status.ok_or_else(|| missing(Role::Status))?;
        let traefik = normalized
            .iter()
            .any(|n| n == "downstreamstatus" || n == "startutc" || n == "originstatus");
        let named = duration.and_then(|i| duration_unit_named(header[i], traefik));
        let duration_unit_assumed =
            duration.is_some() && duration_unit.is_none() && named.is_none();
        let duration_unit = duration_unit.or(named).unwrap_or(DurationUnit::Millis);
        Ok(ColumnMap {
            headers,
            timestamp,
            method,
            path: path_col,
            status,
            upstream_status: upstream,
            duration,
            idempotency_key: key,
            bytes,
            flags,
            request_id,
            client_addr,
            forwarded_for,
            user_agent,
            request_length,
            proxy_attempts,
            duration_unit,
            duration_unit_assumed,
            duration_unit_inferred: None,
            duration_unit_doubt: None,
        duration_unit_carried: false,
            flags_style: flags.map_or(FlagsStyle::DEFAULT, |i| FlagsStyle::from_name(header[i])),
        })
    }
}

/// CSV's row of the formats' catalog: named only, its header naming the fields.
pub const CSV: FormatEntry = FormatEntry {
    name: "csv",
    named: true,
    describe: "CSV with a header naming the fields (a method and a status at least)",
    detect: None,
    reading: Reading::Csv { delimiter: None },
    candidates: super::entry::none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

/// TSV's row of the formats' catalog: named only, its header naming the fields.
pub const TSV: FormatEntry = FormatEntry {
    name: "tsv",
    named: true,
    describe: "tab-separated, with a header naming the fields",
    detect: None,
    reading: Reading::Csv {
        delimiter: Some(b'\t'),
    },
    candidates: super::entry::none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs() {
        assert_eq!(sniff_delimiter(b"a,b,c\n"), b',');
        assert_eq!(sniff_delimiter(b"a\tb\tc\n"), b'\t');
        assert_eq!(sniff_delimiter(b"a;b;c"), b';');
        assert_eq!(sniff_delimiter(b"a|b|c"), b'|');
        assert_eq!(sniff_delimiter(b"\"a,b\";c;d"), b';');
        assert_eq!(sniff_delimiter(b"abc"), b',');
    }

    #[test]
    fn header_end() {
        assert_eq!(header_record_end(b"a,b\nx,y\n", None), Some(4));
        assert_eq!(header_record_end(b"a,b\r\nx,y\n", None), Some(5));
        assert_eq!(header_record_end(b"\"a\nb\",c\nx", None), Some(8));
        assert_eq!(header_record_end(b"a,b", None), None);
        assert_eq!(header_record_end(b"a,b\n", None), Some(4));
    }

    fn detect(names: &[&str]) -> ColumnMap {
        let header: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        ColumnMap::detect("t.csv", &header, &[], None).unwrap()
    }

    #[test]
    fn generic() {
        let m = detect(&[
            "timestamp",
            "method",
            "path",
            "status",
            "upstream_status",
            "duration_ms",
            "idempotency_key",
        ]);
        assert_eq!(
            (m.timestamp, m.method, m.path, m.status),
            (Some(0), 1, Some(2), 3)
        );
        assert_eq!(
            (m.upstream_status, m.duration, m.idempotency_key),
            (Some(4), Some(5), Some(6))
        );
        assert_eq!(m.duration_unit, DurationUnit::Millis);
    }

    #[test]
    fn nginx() {
        let m = detect(&[
            "$time_local",
            "$request_method",
            "$request_uri",
            "$status",
            "$upstream_status",
            "$request_time",
            "$http_idempotency_key",
            "$body_bytes_sent",
        ]);
        assert_eq!(m.timestamp, Some(0));
        assert_eq!(m.idempotency_key, Some(6));
        assert_eq!(m.bytes, Some(7));
        assert_eq!(m.duration_unit, DurationUnit::Seconds);
    }

    #[test]
    fn alb_and_traefik() {
        let m = detect(&[
            "type",
            "time",
            "elb",
            "target_processing_time",
            "elb_status_code",
            "target_status_code",
            "request_verb",
            "request_url",
        ]);
        assert_eq!(
            (m.status, m.upstream_status, m.method, m.path),
            (4, Some(5), 6, Some(7))
        );
        assert_eq!(m.duration_unit, DurationUnit::Seconds);
        let m = detect(&[
            "StartUTC",
            "RequestMethod",
            "RequestPath",
            "DownstreamStatus",
            "OriginStatus",
            "Duration",
            "request_Idempotency-Key",
        ]);
        assert_eq!((m.status, m.upstream_status), (3, Some(4)));
        assert_eq!(m.duration_unit, DurationUnit::Nanos);
        assert_eq!(m.idempotency_key, Some(6));
    }

    #[test]
    fn overrides_and_missing() {
        let header: Vec<&[u8]> = vec![b"when", b"verb", b"code"];
        let err = ColumnMap::detect("t.csv", &header, &[], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no status column"), "{err}");
        assert!(err.contains("headers found: when, verb, code"), "{err}");
        assert!(err.contains("--column status=HEADER"), "{err}");
        let o = vec![
            (Role::Status, "code".to_string()),
            (Role::Timestamp, "when".to_string()),
        ];
        let m = ColumnMap::detect("t.csv", &header, &o, None).unwrap();
        assert_eq!((m.timestamp, m.method, m.status), (Some(0), 1, 2));
        let o = vec![(Role::Status, "nope".to_string())];
        let err = ColumnMap::detect("t.csv", &header, &o, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--column status=nope: no such header"),
            "{err}"
        );
    }

    #[test]
    fn duration_units() {
        assert_eq!(
            duration_unit_from_name(b"latency_us", false),
            DurationUnit::Micros
        );
        assert_eq!(
            duration_unit_from_name(b"took_ns", false),
            DurationUnit::Nanos
        );
        assert_eq!(
            duration_unit_from_name(b"request_time", false),
            DurationUnit::Seconds
        );
        assert_eq!(
            duration_unit_from_name(b"latency", false),
            DurationUnit::Millis
        );
        assert_eq!(
            duration_unit_from_name(b"Duration", true),
            DurationUnit::Nanos
        );
        // pino-http's `responseTime` is milliseconds, said by its name (not assumed);
        // nginx's `$upstream_response_time` stays seconds.
        assert_eq!(
            duration_unit_named(b"responseTime", false),
            Some(DurationUnit::Millis)
        );
        assert_eq!(
            duration_unit_named(b"upstream_response_time", false),
            Some(DurationUnit::Seconds)
        );
        assert_eq!("ms".parse::<DurationUnit>().unwrap(), DurationUnit::Millis);
    }
}
