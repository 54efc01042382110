//! `dupcost estimate --observed FILE`: the engine's result of the query read back into the
//! tally `dupcost logs` would have built, so the derivation, the evidence and the intervals
//! are the same code path as for a log read here.
//!
//! The file is CSV with a header row or JSON lines, as the engines export results (BigQuery
//! writes its integers as JSON strings: both are read). Every column of [`COLUMNS`] must be
//! there and no other (a JSON line may leave out its null ones, as Spark and BigQuery do); a
//! count is a whole number, not negative; days come in order.

use std::collections::BTreeMap;
use std::io::Read;

use crate::logs::{
    ColumnMap, Counts, Duplicates, DurationUnit, Endpoint, FileInfo, FlagsStyle, Grouping, Join,
    KeyedStats, LogAnalysis, LogOptions, Role, Shared, Tally, days_from_civil,
};

/// The result's columns, in the query's order: the contract between `dupcost sql` and
/// `dupcost estimate --observed` (documented in docs/MODEL.md).
pub const COLUMNS: [&str; 52] = [
    "kind",
    "day",
    "method",
    "route",
    "rows",
    "bad_rows",
    "out_of_range",
    "path_filtered",
    "mutating",
    "timed_out",
    "timed_out_succeeded",
    "timed_out_unknown",
    "intents",
    "keyed_intents",
    "keyed_attempts",
    "max_attempts",
    "first_us",
    "last_us",
    "response_rows",
    "response_bytes",
    "roles",
    "methods",
    "timeout_statuses",
    "retry_window_us",
    "attempts",
    "timed_out_intents",
    "matched",
    "matched_succeeded",
    "never_reached",
    "outside_span",
    "without_id",
    "backend_rows",
    "backend_bad_rows",
    "backend_first_us",
    "backend_last_us",
    "duplicates",
    "duplicates_upstream_2xx",
    "duplicates_outcomes",
    "flags_style",
    "grouping",
    "fingerprinted_intents",
    "fingerprinted_attempts",
    "fingerprinted_timed_out_intents",
    "shared_fingerprints",
    "shared_attempts",
    "shared_address_rate",
    "conflicts_409_422",
    "client_timeout_us",
    "log_side",
    "processed_twice_intents",
    "processed_twice_extra",
    "fingerprint_ties",
];

/// One row of the result: its line in the file and its values by column (`None`: empty or
/// null).
struct Record {
    line: u64,
    values: Vec<Option<String>>,
}

impl Record {
    fn get(&self, column: &str) -> Option<&str> {
        let i = COLUMNS.iter().position(|c| *c == column)?;
        self.values[i].as_deref()
    }
}

/// Reads `bytes` (named `name` in messages) into the analysis `dupcost logs` would have made
/// of the same log; `options` gives what the result does not say (`--max-unknown`,
/// `--min-span`). An error is one line naming the column and the line.
pub fn read(name: &str, bytes: &[u8], options: &LogOptions) -> Result<LogAnalysis, String> {
    let records = if looks_like_json(bytes) {
        json_lines(name, bytes)?
    } else {
        csv_rows(name, bytes)?
    };
    build(name, &records, options)
}

/// Reads `path` (`-`: stdin) whole: the result is small (a row per day and per endpoint).
pub fn read_path(path: &std::path::Path, options: &LogOptions) -> Result<LogAnalysis, String> {
    let mut bytes = Vec::new();
    let name = if path.as_os_str() == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("--observed -: {e}"))?;
        "stdin".to_string()
    } else {
        bytes = std::fs::read(path).map_err(|e| format!("--observed {}: {e}", path.display()))?;
        path.display().to_string()
    };
    read(&name, &bytes, options)
}

fn looks_like_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

fn csv_rows(name: &str, bytes: &[u8]) -> Result<Vec<Record>, String> {
    let mut reader = csv::ReaderBuilder::new().from_reader(bytes);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| format!("{name}: {e}"))?
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_string())
        .collect();
    let order = column_order(name, &headers)?;
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| format!("{name}: {e}"))?;
        let line = record.position().map_or(0, |p| p.line());
        let mut values = vec![None; COLUMNS.len()];
        for (field, &column) in record.iter().zip(&order) {
            // ClickHouse writes NULL as \N, the others as an empty field.
            values[column] = (!field.is_empty() && field != "\\N").then(|| field.to_string());
        }
        if record.len() != headers.len() {
            return Err(format!(
                "{name}: line {line}: {} fields, the header has {}",
                record.len(),
                headers.len()
            ));
        }
        out.push(Record { line, values });
    }
    Ok(out)
}

fn json_lines(name: &str, bytes: &[u8]) -> Result<Vec<Record>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)
            .map_err(|e| format!("{name}: line {line_no}: not a JSON object: {e}"))?;
        // Spark's and BigQuery's JSON writers leave null fields out: a missing key is null.
        let mut values = vec![None; COLUMNS.len()];
        for (key, value) in &object {
            let column = COLUMNS
                .iter()
                .position(|c| c.eq_ignore_ascii_case(key))
                .ok_or_else(|| {
                    format!(
                        "{name}: line {line_no}: unknown column {key} (the result of dupcost sql has {})",
                        COLUMNS.join(", ")
                    )
                })?;
            values[column] = match value {
                serde_json::Value::Null => None,
                serde_json::Value::String(s) if s.is_empty() => None,
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                other => {
                    return Err(format!(
                        "{name}: line {line_no}, column {key}: {other} is neither a number nor a string"
                    ));
                }
            };
        }
        out.push(Record {
            line: line_no,
            values,
        });
    }
    Ok(out)
}

/// Where each header's values go in [`COLUMNS`]: every column once, no other.
fn column_order(place: &str, headers: &[String]) -> Result<Vec<usize>, String> {
    let mut order = Vec::with_capacity(headers.len());
    for h in headers {
        match COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(h)) {
            Some(i) if order.contains(&i) => {
                return Err(format!("{place}: column {h} appears twice"));
            }
            Some(i) => order.push(i),
            None => {
                return Err(format!(
                    "{place}: unknown column {h} (the result of dupcost sql has {})",
                    COLUMNS.join(", ")
                ));
            }
        }
    }
    if let Some(missing) = (0..COLUMNS.len()).find(|i| !order.contains(i)) {
        return Err(format!(
            "{place}: missing column {} (run the query dupcost sql prints, unchanged)",
            COLUMNS[missing]
        ));
    }
    Ok(order)
}

/// Reads the values of one row, naming the file, line and column at fault.
struct Reader<'a> {
    name: &'a str,
    record: &'a Record,
}

impl<'a> Reader<'a> {
    fn fail(&self, column: &str, what: String) -> String {
        format!(
            "{}: line {}, column {column}: {what}",
            self.name, self.record.line
        )
    }

    fn text(&self, column: &str) -> Result<&'a str, String> {
        self.record
            .get(column)
            .ok_or_else(|| self.fail(column, format!("empty in a {} row", self.kind())))
    }

    fn kind(&self) -> &'a str {
        self.record.get("kind").unwrap_or("")
    }

    /// A count: a whole number, not negative (`12` or `12.0`, as some engines write them).
    fn count(&self, column: &str) -> Result<u64, String> {
        let text = self.text(column)?;
        let digits = text.strip_suffix(".0").unwrap_or(text);
        if digits.starts_with('-') {
            return Err(self.fail(column, format!("'{text}' is negative: a count is not")));
        }
        digits
            .parse::<u64>()
            .map_err(|_| self.fail(column, format!("'{text}' is not a whole number")))
    }

    /// Grouped intents' figures from the columns of their intents, attempts and intents
    /// with a timed-out attempt (never more than the intents).
    fn stats(
        &self,
        [intents, attempts, timed_out]: [&str; 3],
        max_attempts: u32,
        grouped: &str,
    ) -> Result<KeyedStats, String> {
        let stats = KeyedStats {
            intents: self.count(intents)?,
            attempts: self.count(attempts)?,
            max_attempts,
            timed_out_intents: self.count(timed_out)?,
        };
        if stats.timed_out_intents > stats.intents {
            return Err(self.fail(
                timed_out,
                format!(
                    "{} of {} {grouped} intents",
                    stats.timed_out_intents, stats.intents
                ),
            ));
        }
        Ok(stats)
    }

    /// A count, or none when the column is empty (a figure the query did not measure).
    fn opt_count(&self, column: &str) -> Result<Option<u64>, String> {
        match self.record.get(column) {
            None => Ok(None),
            Some(_) => self.count(column).map(Some),
        }
    }

    /// A timestamp in µs, or none (a result with no rows in range).
    fn micros(&self, column: &str) -> Result<Option<i64>, String> {
        match self.record.get(column) {
            None => Ok(None),
            Some(text) => text
                .strip_suffix(".0")
                .unwrap_or(text)
                .parse::<i64>()
                .map(Some)
                .map_err(|_| {
                    self.fail(
                        column,
                        format!("'{text}' is not microseconds since the epoch"),
                    )
                }),
        }
    }

    fn counts(&self) -> Result<Counts, String> {
        let c = Counts {
            mutating: self.count("mutating")?,
            timed_out: self.count("timed_out")?,
            timed_out_succeeded: self.count("timed_out_succeeded")?,
            timed_out_unknown: self.count("timed_out_unknown")?,
        };
        if c.timed_out > c.mutating {
            return Err(self.fail(
                "timed_out",
                format!(
                    "{} timed out of {} mutating attempts",
                    c.timed_out, c.mutating
                ),
            ));
        }
        if c.timed_out_succeeded.saturating_add(c.timed_out_unknown) > c.timed_out {
            return Err(self.fail(
                "timed_out_unknown",
                format!(
                    "{} succeeded and {} unknown of {} timed out",
                    c.timed_out_succeeded, c.timed_out_unknown, c.timed_out
                ),
            ));
        }
        Ok(c)
    }
}

/// The parts of the result, checked, as the tally and the file description derive reads.
fn build(name: &str, records: &[Record], options: &LogOptions) -> Result<LogAnalysis, String> {
    let parts = parts(name, records)?;
    let r = Reader {
        name,
        record: parts.total,
    };
    let Tallied {
        mut tally,
        grouping,
        side,
        ties,
        window,
    } = tally_of(&r, parts)?;
    let (roles, methods, timeout_statuses) = lists_of(&r)?;
    // `--outcomes-table`: the join's figures, as `dupcost logs --outcomes` reports them.
    // The duplicates seen: with the backend's table, or grouped by fingerprint.
    let counted_duplicates = r.opt_count("duplicates")?.is_some();
    if counted_duplicates {
        tally.duplicates = Duplicates {
            count: r.count("duplicates")?,
            upstream_2xx: r.count("duplicates_upstream_2xx")?,
            outcomes: r.count("duplicates_outcomes")?,
            conflict_409_422: r.opt_count("conflicts_409_422")?.unwrap_or(0),
        };
    }
    let join = join_of(&r)?;
    let flags_style = flags_style_of(&r)?;
    let columns = column_map(&roles, flags_style).ok_or_else(|| {
        r.fail(
            "roles",
            "method and status are mapped in every query".to_string(),
        )
    })?;
    Ok(LogAnalysis {
        tally,
        files: vec![FileInfo {
            name: name.to_string(),
            columns,
            // For observed.files: what was read is the engine's result, not a log.
            format: Some("dupcost sql result".to_string()),
            detected: false,
            format_notes: ties,
            delimiter: b',',
            gzip: false,
            pieces: 1,
            grouping,
            side: crate::logs::SideRead {
                side,
                why: "measured by dupcost sql".to_string(),
            },
            envelope: None,
            document: None,
            skipped: Vec::new(),
            formats: Vec::new(),
            interleaved: false,
            // Keyed intents with their duplicates counted and no backend's table: only the
            // query of a table of spans (--preset otel-traces) counts them so.
            traces: (grouping == crate::logs::Grouping::Key
                && counted_duplicates
                && join.is_none())
            .then(crate::logs::TraceRead::default),
        }],
        options: LogOptions {
            methods,
            timeout_statuses,
            retry_window: std::time::Duration::from_micros(window),
            shared_address_rate: match r.opt_count("shared_address_rate")? {
                Some(rate) => u8::try_from(rate).ok().filter(|&n| n > 0).ok_or_else(|| {
                    r.fail("shared_address_rate", format!("{rate} is not 1 to 255"))
                })?,
                None => options.shared_address_rate,
            },
            client_timeout: r
                .opt_count("client_timeout_us")?
                .map(std::time::Duration::from_micros),
            ..options.clone()
        },
        join,
    })
}

/// The result's rows by kind: the one `total` row, the days (in order), the endpoints, and
/// the keyed intents by their number of attempts.
struct Parts<'a> {
    total: &'a Record,
    per_day: BTreeMap<i64, Counts>,
    endpoints: Vec<Endpoint>,
    attempts: Vec<(u32, u64)>,
}

fn parts<'a>(name: &str, records: &'a [Record]) -> Result<Parts<'a>, String> {
    let mut total = None;
    let mut per_day: BTreeMap<i64, Counts> = BTreeMap::new();
    let mut last_day: Option<(i64, &str)> = None;
    let mut endpoints = Vec::new();
    let mut attempts_rows: Vec<(u32, u64)> = Vec::new();
    for record in records {
        let r = Reader { name, record };
        match r.text("kind")? {
            "total" if total.is_some() => {
                return Err(r.fail("kind", "a second total row".into()));
            }
            "total" => total = Some(record),
            "day" => {
                let text = r.text("day")?;
                let day = parse_date(text).ok_or_else(|| {
                    r.fail("day", format!("'{text}' is not a date like 2026-11-01"))
                })?;
                if let Some((previous, previous_text)) = last_day {
                    if day <= previous {
                        return Err(r.fail(
                            "day",
                            format!("{text} comes after {previous_text}: days out of order (keep the query's ORDER BY)"),
                        ));
                    }
                }
                last_day = Some((day, text));
                per_day.insert(day, r.counts()?);
            }
            "endpoint" => endpoints.push(Endpoint {
                method: r.text("method")?.to_string(),
                route: r.text("route")?.to_string(),
                counts: r.counts()?,
                intents: r.count("intents")?,
                keyed_attempts: r.count("keyed_attempts")?,
            }),
            "attempts" => {
                let attempts = r.count("attempts")?;
                let attempts = u32::try_from(attempts)
                    .ok()
                    .filter(|&a| a > 0)
                    .ok_or_else(|| r.fail("attempts", format!("{attempts} attempts an intent")))?;
                attempts_rows.push((attempts, r.count("intents")?));
            }
            other => {
                return Err(r.fail(
                    "kind",
                    format!("'{other}' is not total, day, endpoint or attempts"),
                ));
            }
        }
    }
    Ok(Parts {
        total: total.ok_or_else(|| format!("{name}: no total row (kind = total)"))?,
        per_day,
        endpoints,
        attempts: attempts_rows,
    })
}

/// The tally the total row and the other rows hold, and what the file description takes
/// from them.
struct Tallied {
    tally: Tally,
    grouping: Grouping,
    side: crate::logs::LogSide,
    /// The note on fingerprinted attempts at the same timestamp, if any.
    ties: Vec<crate::logs::FormatNote>,
    /// `--retry-window` in microseconds.
    window: u64,
}

/// The tally of the total row `r` and the `parts`, its figures checked against each other.
fn tally_of(r: &Reader, parts: Parts) -> Result<Tallied, String> {
    let window = r.count("retry_window_us")?;
    let mut t = Tally::new(i64::try_from(window).unwrap_or(i64::MAX));
    t.rows = r.count("rows")?;
    t.bad_rows = r.count("bad_rows")?;
    t.out_of_range = r.count("out_of_range")?;
    t.path_filtered = r.count("path_filtered")?;
    if t.bad_rows + t.out_of_range + t.path_filtered > t.rows {
        return Err(r.fail(
            "rows",
            format!(
                "{} rows, fewer than {} bad and {} filtered out",
                t.rows,
                t.bad_rows,
                t.out_of_range + t.path_filtered
            ),
        ));
    }
    t.counts = r.counts()?;
    let intents = r.count("intents")?;
    let grouping = grouped(r, &mut t)?;
    let side = match r.text("log_side")? {
        "proxy" => crate::logs::LogSide::Proxy,
        "server" => crate::logs::LogSide::Server,
        other => return Err(r.fail("log_side", format!("'{other}' is not proxy or server"))),
    };
    // Attempts of one fingerprint at the same time as the one before: a table has no file
    // order, so the query took them by status; `logs` takes them in file order.
    let ties = match r.opt_count("fingerprint_ties")? {
        Some(n) if n > 0 => vec![crate::logs::FormatNote::FingerprintTies(n)],
        _ => Vec::new(),
    };
    let grouped = t.keyed.intents + t.fingerprinted.intents;
    t.unkeyed_intents = intents.checked_sub(grouped).ok_or_else(|| {
        r.fail(
            "keyed_intents",
            format!("{grouped} keyed or fingerprinted of {intents} intents"),
        )
    })?;
    // The attempts rows are the keyed intents, counted by their attempts.
    let (mut intents_seen, mut attempts_seen) = (0u64, 0u64);
    for &(attempts, intents) in &parts.attempts {
        t.attempts_per_intent.record(attempts, intents);
        intents_seen = intents_seen.saturating_add(intents);
        attempts_seen = attempts_seen.saturating_add(u64::from(attempts).saturating_mul(intents));
    }
    let grouped_attempts = t.keyed.attempts + t.fingerprinted.attempts;
    if intents_seen != grouped || attempts_seen != grouped_attempts {
        return Err(r.fail(
            "keyed_intents",
            format!(
                "{grouped} grouped intents of {grouped_attempts} attempts, and the attempts rows hold {intents_seen} of {attempts_seen}",
            ),
        ));
    }
    t.first_ts = r.micros("first_us")?;
    t.last_ts = r.micros("last_us")?;
    t.response_bytes.rows = r.count("response_rows")?;
    t.response_bytes.total = r.count("response_bytes")?;
    t.per_day = parts.per_day;
    for (i, ep) in parts.endpoints.into_iter().enumerate() {
        t.endpoints.insert(i as u64, ep);
    }
    Ok(Tallied {
        tally: t,
        grouping,
        side,
        ties,
        window,
    })
}

/// How the intents were grouped, and the grouped intents' figures into `t`: keyed,
/// fingerprinted (with the shared fingerprints), a server's executions.
fn grouped(r: &Reader, t: &mut Tally) -> Result<Grouping, String> {
    let max_attempts = u32::try_from(r.count("max_attempts")?).unwrap_or(u32::MAX);
    t.keyed = r.stats(
        ["keyed_intents", "keyed_attempts", "timed_out_intents"],
        max_attempts,
        "keyed",
    )?;
    t.keyed_attempts = t.keyed.attempts;
    // Grouped by fingerprint: the grouped intents are fingerprinted, not keyed.
    let grouping = match r.text("grouping")? {
        "key" => Grouping::Key,
        "fingerprint" => Grouping::Fingerprint,
        "none" => Grouping::None,
        other => {
            return Err(r.fail(
                "grouping",
                format!("'{other}' is not key, fingerprint or none"),
            ));
        }
    };
    if grouping == Grouping::Fingerprint {
        t.fingerprinted = r.stats(
            [
                "fingerprinted_intents",
                "fingerprinted_attempts",
                "fingerprinted_timed_out_intents",
            ],
            max_attempts,
            "fingerprinted",
        )?;
        t.keyed.max_attempts = 0;
        t.shared = Shared {
            fingerprints: r.count("shared_fingerprints")?,
            attempts: r.count("shared_attempts")?,
        };
    }
    // A server's own log: its keyed intents' executions (JSON `processed_twice`).
    if let Some(intents) = r.opt_count("processed_twice_intents")? {
        t.keyed_executions.intents = intents;
        t.keyed_executions.extra = r.count("processed_twice_extra")?;
    }
    Ok(grouping)
}

/// The roles the query mapped, its `--methods` and its `--timeout-status`.
type Lists = (Vec<Role>, Vec<String>, Vec<u16>);

fn lists_of(r: &Reader) -> Result<Lists, String> {
    let roles: Vec<Role> = r
        .text("roles")?
        .split(',')
        .map(|role| role.trim().parse::<Role>())
        .collect::<Result<_, _>>()
        .map_err(|e| r.fail("roles", e))?;
    let methods: Vec<String> = r.text("methods")?.split(',').map(str::to_string).collect();
    let timeout_statuses = r
        .text("timeout_statuses")?
        .split(',')
        .map(|s| s.trim().parse::<u16>())
        .collect::<Result<Vec<u16>, _>>()
        .map_err(|e| r.fail("timeout_statuses", e.to_string()))?;
    Ok((roles, methods, timeout_statuses))
}

/// The join with `--outcomes-table`, when the query made one.
fn join_of(r: &Reader) -> Result<Option<Join>, String> {
    let Some(matched) = r.opt_count("matched")? else {
        return Ok(None);
    };
    let span = match (r.micros("backend_first_us")?, r.micros("backend_last_us")?) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    Ok(Some(Join {
        matched,
        matched_succeeded: r.count("matched_succeeded")?,
        never_reached: r.count("never_reached")?,
        outside_span: r.count("outside_span")?,
        without_id: r.count("without_id")?,
        backend_rows: r.count("backend_rows")?,
        backend_bad_rows: r.count("backend_bad_rows")?,
        span,
        files: vec!["the --outcomes-table".to_string()],
        bad_samples: Vec::new(),
        per_intent: true,
    }))
}

/// The flags column's style, as the query's `flags_style` names it (Envoy's when none).
fn flags_style_of(r: &Reader) -> Result<FlagsStyle, String> {
    match r.record.get("flags_style") {
        None => Ok(FlagsStyle::DEFAULT),
        Some(name) => FlagsStyle::by_name(name).ok_or_else(|| {
            r.fail(
                "flags_style",
                format!("'{name}' is not {}", FlagsStyle::names()),
            )
        }),
    }
}

/// `2026-11-01` as days since the epoch.
fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| days_from_civil(y, m, d))
}

/// The columns the query mapped, as a column map whose headers are the roles' names (the
/// derivation asks which roles a log had).
fn column_map(roles: &[Role], flags_style: FlagsStyle) -> Option<ColumnMap> {
    let headers: Vec<String> = roles.iter().map(|r| r.name().to_string()).collect();
    let at = |role: Role| roles.iter().position(|r| *r == role);
    Some(ColumnMap {
        timestamp: at(Role::Timestamp),
        method: at(Role::Method)?,
        path: at(Role::Path),
        status: at(Role::Status)?,
        upstream_status: at(Role::UpstreamStatus),
        duration: at(Role::Duration),
        idempotency_key: at(Role::IdempotencyKey),
        bytes: at(Role::Bytes),
        flags: at(Role::Flags),
        request_id: at(Role::RequestId),
        client_addr: at(Role::ClientAddr),
        forwarded_for: at(Role::ForwardedFor),
        user_agent: at(Role::UserAgent),
        request_length: at(Role::RequestLength),
        proxy_attempts: None,
        duration_unit: DurationUnit::Seconds,
        duration_unit_assumed: false,
        duration_unit_inferred: None,
        duration_unit_doubt: None,
        duration_unit_carried: false,
        flags_style,
        headers,
    })
}
