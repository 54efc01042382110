//! `--outcomes FILE...`: the backend's own log, where a timed-out attempt's outcome lives.
//!
//! When a client gives up, the proxy usually never hears what the backend did: its log says
//! `-`, 0 or its own 499/504. The backend logs every request it answered, with the request id
//! the proxy passed on. Each timed-out attempt that carried a request id is looked up there:
//!
//! - found: the backend's status is its outcome (2xx: succeeded; anything else: did not);
//! - absent, and its time within the backend log's span: it never reached the backend, so it
//!   did not succeed;
//! - absent, and outside that span (or the backend log has no timestamps): the backend log
//!   cannot tell, and the proxy log's own outcome stands.
//!
//! Memory stays bounded: the proxy's pass keeps only the ids of timed-out attempts (a few
//! percent of the rows), and this pass keeps only the backend rows whose id is among them.
//!
//! The backend log is CSV/TSV with a header (the delimiter sniffed as for access logs) or
//! JSON lines (one object per line; nested objects are read as dotted names, an array by its
//! first value, so Caddy's `request.headers.X-Request-Id` is found). Columns are found by the
//! same aliases as the access logs', or named with `--outcomes-column ROLE=HEADER`.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};

use serde::Serialize;

use super::error::{BadRow, LogError, RowPlace};
use super::formats;
use super::role::{Role, normalize};
use super::row::{parse_status, request_id, request_id_hash};
use super::source::{self, LogInput};
use super::tally::{BAD_ROW_SAMPLES, BackendAnswers, IdHasher, IdMap, Tally};
use super::timestamp::{MICROS_PER_DAY, parse_auto};

/// What the join found, for the evidence and the JSON report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Join {
    /// Timed-out attempts found in the backend's log.
    pub matched: u64,
    /// Of those, the ones it answered 2xx.
    pub matched_succeeded: u64,
    /// Absent from the backend's log within its span: they never reached it.
    pub never_reached: u64,
    /// Absent from the backend's log, outside its span (or it has no timestamps): the proxy
    /// log's outcome stands.
    pub outside_span: u64,
    /// Timed-out attempts that carried no request id: the proxy log's outcome stands.
    pub without_id: u64,
    /// Rows read from the backend's log, and the ones that could not be used.
    pub backend_rows: u64,
    pub backend_bad_rows: u64,
    /// The backend log's first and last timestamp (µs), when it has timestamps.
    #[serde(skip)]
    pub span: Option<(i64, i64)>,
    /// The files read.
    pub files: Vec<String>,
    /// The backend's answers were joined per intent (the proxy log read a second time with
    /// them), so an intent is known to have executed twice; `false` when the proxy log was
    /// read once (from stdin) and only the attempts' counts were moved.
    pub per_intent: bool,
    /// Examples of its bad rows.
    #[serde(skip)]
    pub bad_samples: Vec<BadRow>,
}

/// What the backend said of the ids wanted: `true` once any row of the id was 2xx.
struct Found {
    wanted: HashSet<u64, std::hash::BuildHasherDefault<IdHasher>>,
    answers: IdMap<bool>,
    span: Option<(i64, i64)>,
    rows: u64,
    bad_rows: u64,
    bad_samples: Vec<BadRow>,
}

impl Found {
    fn row(&mut self, id: &[u8], status: u16, ts: Option<i64>) {
        self.rows += 1;
        if let Some(ts) = ts {
            self.span = Some(match self.span {
                Some((a, b)) => (a.min(ts), b.max(ts)),
                None => (ts, ts),
            });
        }
        let h = request_id_hash(id);
        if self.wanted.contains(&h) {
            let ok = (200..300).contains(&status);
            *self.answers.entry(h).or_insert(false) |= ok;
        }
    }

    fn bad(&mut self, file: &str, line: u64, reason: String) {
        self.rows += 1;
        self.bad_rows += 1;
        if self.bad_samples.len() < BAD_ROW_SAMPLES {
            self.bad_samples.push(BadRow {
                place: RowPlace {
                    file: file.to_string(),
                    line,
                },
                reason,
            });
        }
    }
}

/// Reads the backend's logs and joins the tally's timed-out attempts to them: what the
/// backend said of each wanted id (for a second reading of the proxy log, which then knows
/// each timed-out attempt's outcome as it groups intents) and what the join found.
pub fn answers(
    tally: &Tally,
    sources: &[LogInput],
    overrides: &[(Role, String)],
) -> Result<(BackendAnswers, Join), LogError> {
    let mut found = Found {
        wanted: tally.timed_out_ids.iter().map(|a| a.id).collect(),
        answers: IdMap::default(),
        span: None,
        rows: 0,
        bad_rows: 0,
        bad_samples: Vec::new(),
    };
    let mut files = Vec::new();
    for source in sources {
        let rows_before = found.rows;
        let bad_before = found.bad_rows;
        read_backend(source, overrides, &mut found)?;
        let name = source.name();
        if found.rows == rows_before {
            return Err(LogError::HeaderOnly { path: name });
        }
        if found.rows - rows_before == found.bad_rows - bad_before {
            if let Some(first) = found.bad_samples.last().cloned() {
                return Err(LogError::NoUsableRows {
                    path: name,
                    rows: found.rows - rows_before,
                    first,
                });
            }
        }
        files.push(name);
    }
    let mut join = Join {
        without_id: tally.timed_out_without_id,
        backend_rows: found.rows,
        backend_bad_rows: found.bad_rows,
        span: found.span,
        files,
        bad_samples: std::mem::take(&mut found.bad_samples),
        ..Join::default()
    };
    let answers = BackendAnswers {
        answers: found.answers,
        span: found.span,
    };
    for a in &tally.timed_out_ids {
        match answers.answers.get(&a.id) {
            Some(&ok) => {
                join.matched += 1;
                join.matched_succeeded += u64::from(ok);
            }
            None if answers.outcome(a.id, a.ts).is_some() => join.never_reached += 1,
            None => join.outside_span += 1,
        }
    }
    Ok((answers, join))
}

/// Moves each timed-out attempt's outcome in the tally's counts (total, per day, per
/// endpoint) to what the backend's answers tell: the join when the proxy log cannot be read
/// again (stdin), which leaves its intents as they were grouped.
pub fn reclassify(tally: &mut Tally, answers: &BackendAnswers) {
    let attempts = std::mem::take(&mut tally.timed_out_ids);
    for a in &attempts {
        let Some(new) = answers.outcome(a.id, a.ts) else {
            continue;
        };
        if new == a.outcome {
            continue;
        }
        tally.counts.reclassify(a.outcome, new);
        if let Some(day) = tally.per_day.get_mut(&a.ts.div_euclid(MICROS_PER_DAY)) {
            day.reclassify(a.outcome, new);
        }
        if let Some(ep) = tally.endpoints.get_mut(&a.endpoint) {
            ep.counts.reclassify(a.outcome, new);
        }
    }
}

/// The column of `role` among `names` (normalised): the `--outcomes-column` override's
/// header (`Err` with it when it is not there), else the first alias found.
fn find(
    role: Role,
    names: &[String],
    overrides: &[(Role, String)],
) -> Result<Option<usize>, String> {
    if let Some((_, header)) = overrides.iter().rev().find(|(r, _)| *r == role) {
        let wanted = normalize(header.as_bytes());
        return match names.iter().position(|n| *n == wanted) {
            Some(i) => Ok(Some(i)),
            None => Err(header.clone()),
        };
    }
    Ok(role
        .aliases()
        .iter()
        .find_map(|alias| names.iter().position(|n| n == alias)))
}

/// The column of `role`, or the error naming the flag that maps it.
fn column(
    path: &str,
    role: Role,
    names: &[String],
    shown: &[String],
    overrides: &[(Role, String)],
) -> Result<Option<usize>, LogError> {
    find(role, names, overrides).map_err(|header| {
        LogError::Option(format!(
            "{path}: --outcomes-column {role}={header}: no such header; headers found: {}",
            shown.join(", ")
        ))
    })
}

fn missing(path: &str, role: Role, found: &[String]) -> LogError {
    LogError::Option(format!(
        "{path}: no {role} column in the backend's log (looked for {}); headers found: {}; map one with --outcomes-column {role}=HEADER",
        role.aliases().join(", "),
        found.join(", ")
    ))
}

fn read_backend(
    source: &LogInput,
    overrides: &[(Role, String)],
    found: &mut Found,
) -> Result<(), LogError> {
    let stream = source::open_stream(source, |_| {})?;
    let name = stream.name.clone();
    let err = source::io_error(&name, stream.gzip);
    let mut input = BufReader::with_capacity(256 * 1024, stream.reader);
    let first = loop {
        let buf = input.fill_buf().map_err(&err)?;
        if buf.is_empty() {
            return Err(LogError::Empty { path: name });
        }
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => break buf[i],
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    };
    if first == b'{' {
        read_json_lines(&name, input, overrides, found, &err)
    } else {
        read_csv(&name, input, overrides, found)
    }
}

fn read_csv(
    name: &str,
    mut input: impl BufRead,
    overrides: &[(Role, String)],
    found: &mut Found,
) -> Result<(), LogError> {
    let err = source::io_error(name, false);
    let delimiter = formats::sniff_delimiter(input.fill_buf().map_err(&err)?);
    let mut csv = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(input);
    let header = csv.byte_headers().map_err(|e| csv_error(name, e))?.clone();
    let shown: Vec<String> = header
        .iter()
        .map(|h| String::from_utf8_lossy(h).trim().to_string())
        .collect();
    let names: Vec<String> = header.iter().map(normalize).collect();
    let col = |role| column(name, role, &names, &shown, overrides);
    let id_col = col(Role::RequestId)?.ok_or_else(|| missing(name, Role::RequestId, &shown))?;
    let status_col = col(Role::Status)?.ok_or_else(|| missing(name, Role::Status, &shown))?;
    let ts_col = col(Role::Timestamp)?;
    let mut record = csv::ByteRecord::new();
    loop {
        match csv.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(name, e)),
        }
        let line = record.position().map_or(0, |p| p.line());
        let field = |i: usize| record.get(i).unwrap_or_default();
        let Some(id) = request_id(field(id_col)) else {
            found.bad(name, line, "no request id".into());
            continue;
        };
        let Some(status) = parse_status(field(status_col)) else {
            let text = String::from_utf8_lossy(field(status_col)).into_owned();
            found.bad(name, line, format!("unparseable status '{text}'"));
            continue;
        };
        let ts = match ts_col {
            Some(i) => match parse_auto(field(i).trim_ascii()) {
                Some(ts) => Some(ts),
                None => {
                    let text = String::from_utf8_lossy(field(i)).into_owned();
                    found.bad(name, line, format!("unparseable timestamp '{text}'"));
                    continue;
                }
            },
            None => None,
        };
        found.row(id, status, ts);
    }
    Ok(())
}

fn csv_error(name: &str, e: csv::Error) -> LogError {
    LogError::Io {
        path: name.to_string(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// The scalars of a JSON object, named by their dotted path (normalised); an array stands
/// for its first value.
fn flatten<'a>(
    prefix: &str,
    value: &'a serde_json::Value,
    out: &mut Vec<(String, &'a serde_json::Value)>,
) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{prefix}{}", normalize(k.as_bytes())), v, out);
            }
        }
        serde_json::Value::Array(items) => {
            if let Some(first) = items.first() {
                flatten(prefix, first, out);
            }
        }
        scalar => out.push((prefix.to_string(), scalar)),
    }
}

/// A JSON scalar as the bytes a CSV field would hold.
fn scalar_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn read_json_lines(
    name: &str,
    mut input: impl BufRead,
    overrides: &[(Role, String)],
    found: &mut Found,
    err: &dyn Fn(std::io::Error) -> LogError,
) -> Result<(), LogError> {
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(err)? == 0 {
            break;
        }
        number += 1;
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let value: serde_json::Value = match serde_json::from_slice(text) {
            Ok(v @ serde_json::Value::Object(_)) => v,
            Ok(_) => {
                found.bad(name, number, "not a JSON object".into());
                continue;
            }
            Err(e) => {
                found.bad(name, number, format!("not JSON: {e}"));
                continue;
            }
        };
        let mut fields = Vec::new();
        flatten("", &value, &mut fields);
        let names: Vec<String> = fields.iter().map(|(n, _)| n.clone()).collect();
        if number == 1 {
            for role in [Role::RequestId, Role::Status, Role::Timestamp] {
                column(name, role, &names, &names, overrides)?;
            }
        }
        let get = |role: Role| {
            find(role, &names, overrides)
                .ok()
                .flatten()
                .map(|i| scalar_text(fields[i].1))
        };
        let (Some(id), Some(status)) = (get(Role::RequestId), get(Role::Status)) else {
            let role = if get(Role::RequestId).is_none() {
                Role::RequestId
            } else {
                Role::Status
            };
            if number == 1 {
                return Err(missing(name, role, &names));
            }
            found.bad(name, number, format!("no {role} field"));
            continue;
        };
        let Some(id) = request_id(id.as_bytes()) else {
            found.bad(name, number, "no request id".into());
            continue;
        };
        let Some(status) = parse_status(status.as_bytes()) else {
            found.bad(name, number, format!("unparseable status '{status}'"));
            continue;
        };
        let ts = match get(Role::Timestamp) {
            Some(t) => match parse_auto(t.trim().as_bytes()) {
                Some(ts) => Some(ts),
                None => {
                    found.bad(name, number, format!("unparseable timestamp '{t}'"));
                    continue;
                }
            },
            None => None,
        };
        found.row(id, status, ts);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_are_flattened_and_normalised() {
        let v: serde_json::Value = serde_json::from_str(
            r#"{"ts":1646861401.52,"request":{"headers":{"X-Request-Id":["abc"]}},"status":200}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        flatten("", &v, &mut out);
        let names: Vec<String> = out.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(find(Role::RequestId, &names, &[]), Ok(Some(1)));
        assert_eq!(find(Role::Status, &names, &[]), Ok(Some(2)));
        assert_eq!(scalar_text(out[1].1), "abc");
        assert_eq!(find(Role::Timestamp, &names, &[]), Ok(Some(0)));
        let o = vec![(Role::Status, "nope".to_string())];
        assert_eq!(find(Role::Status, &names, &o), Err("nope".to_string()));
        let o = vec![(Role::RequestId, "request.headers.X-Request-Id".to_string())];
        assert_eq!(find(Role::RequestId, &names, &o), Ok(Some(1)));
    }
}
