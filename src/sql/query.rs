//! The query: `dupcost logs`'s row stage and tally written as SQL, for one engine.
//!
//! Each step mirrors the Rust it replaces (`src/logs/row`, `src/logs/tally`):
//!
//! * a row is bad when its timestamp (if mapped) or its status does not parse; a good row
//!   outside `--since`/`--until` is filtered out; `first_us`/`last_us` span the good rows in
//!   range;
//! * a mutating attempt is a row whose trimmed method is one of `--methods` (any case);
//!   `--path` is matched against the path without scheme, host, query or fragment;
//! * it timed out when its status is one of `--timeout-status`; the outcome of a timed-out
//!   attempt comes from the last status of the upstream field (`502, 200` is 200): missing,
//!   `-`, 0, a proxy give-up (408, 460, 499, 502, 504) or the client-facing status echoed is
//!   unknown, 2xx succeeded, anything else failed;
//! * routes are templated segment by segment by [`super::route`]'s regular expressions;
//! * attempts with the same key on the same endpoint, ordered by time, start a new intent
//!   when the previous one is more than the retry window before (the rule of
//!   `src/logs/tally`); an attempt without a key is an intent of its own; the keyed intents
//!   with a timed-out attempt are counted (the evidence of the retries);
//! * grouped by fingerprint (`--intents`, chosen as `src/logs/analyze.rs` chooses), the
//!   attempts of one client's same request continue an intent while the one before failed
//!   within the window, as `src/logs/tally/intents.rs` (`touch_fingerprint`), shared
//!   addresses included: `LAG`, `ROW_NUMBER` and running `SUM`/`MAX` over the fingerprint;
//! * `--client-timeout` reads a duration column as `src/logs/row` does;
//! * endpoints past the first 10,000 (by first attempt) are counted as `(other routes)`.
//!
//! The result is one table: a `total` row, one `day` row per UTC day with attempts, one
//! `endpoint` row per method and route (see [`super::observed::COLUMNS`]).

use crate::logs::{
    DurationUnit, FlagsStyle, GiveUpMatch, GiveUps, Grouping, Intents, LogOptions, LogSide,
    MAX_ENDPOINTS, PROXY_GIVE_UPS, Role,
};

use super::dialect::Engine;
use super::observed::COLUMNS;
use super::preset::Preset;
use super::route;

/// The result's columns that hold text (the rest are 64-bit integers), for their NULLs.
const TEXT_COLUMNS: [&str; 10] = [
    "flags_style",
    "log_side",
    "grouping",
    "kind",
    "day",
    "method",
    "route",
    "roles",
    "methods",
    "timeout_statuses",
];

/// The roles the query measures, in the order `--column` names them (`request_id` only with
/// `--outcomes-table`; the client's address, forwarded-for, user agent and request length
/// only for fingerprints; `duration` only with `--client-timeout`).
pub const ROLES: [Role; 14] = [
    Role::Timestamp,
    Role::Method,
    Role::Path,
    Role::Status,
    Role::UpstreamStatus,
    Role::IdempotencyKey,
    Role::Bytes,
    Role::RequestId,
    Role::Flags,
    Role::ClientAddr,
    Role::ForwardedFor,
    Role::UserAgent,
    Role::RequestLength,
    Role::Duration,
];

/// The roles of the backend's table (`--outcomes-table`, `--outcomes-column`).
pub const OUTCOME_ROLES: [Role; 3] = [Role::RequestId, Role::Status, Role::Timestamp];

/// What `dupcost sql` was asked for.
#[derive(Debug, Clone)]
pub struct QueryOptions {
    pub engine: Engine,
    pub table: String,
    pub preset: Preset,
    /// `--column ROLE=EXPR`: they win over the preset's; an empty EXPR unmaps the role.
    pub columns: Vec<(Role, String)>,
    /// The filters, with the meaning they have for `dupcost logs`.
    pub log: LogOptions,
    /// `--outcomes-table NAME`: the backend's own log, joined by request id as `--outcomes`.
    pub outcomes_table: Option<String>,
    /// `--outcomes-column ROLE=EXPR` for the backend's table (request_id, status, timestamp;
    /// by default columns of those names); `timestamp=` when it has none.
    pub outcomes_columns: Vec<(Role, String)>,
}

/// The query, or what is wrong with the options: the row stage's CTEs, the backend's (with
/// `--outcomes-table`), the intents' (by key or by fingerprint), the endpoints', and the one
/// result table.
pub fn build(o: &QueryOptions) -> Result<String, String> {
    build_with_warnings(o).map(|(query, _)| query)
}

/// [`build`], and the warnings to say on stderr: a duration column read in an assumed unit.
pub fn build_with_warnings(o: &QueryOptions) -> Result<(String, Vec<String>), String> {
    let p = resolve(o)?;
    let e = p.e;
    let flags_gave_up = p.flags_gave_up();
    // `--outcomes-table`: the backend's answers joined to the timed-out attempts by request
    // id, with the rules of `--outcomes` (src/logs/outcomes.rs): found, its status tells (any
    // 2xx row: succeeded); absent within the backend's span, never reached (failed); else the
    // proxy's outcome stands.
    let outcomes = outcomes_of(
        o,
        &p.unknown(flags_gave_up.is_some()),
        p.fingerprint() || p.server || p.traced,
    )?;
    let intents_ctes = if p.fingerprint() {
        fingerprint_ctes(&p, &outcomes)
    } else {
        key_ctes(&p, &outcomes)
    };
    let describe = format!(
        "dupcost sql --engine {}: the figures `dupcost logs` measures, for `dupcost estimate --observed FILE`",
        engine_name(e)
    );
    let unit = p.duration_unit.as_ref().map(|(column, unit, from)| {
        let limit = crate::units::Seconds(p.client_timeout.map_or(0.0, |(l, _)| l.as_secs_f64()));
        // One comment line, whatever the column expression holds.
        let column: String = column
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let how = match from {
            UnitFrom::Flag => "given by --duration-unit".to_string(),
            UnitFrom::Name => "from its name (--duration-unit overrides it)".to_string(),
            UnitFrom::Assumed => {
                "assumed: its name says no unit; --duration-unit settles it".to_string()
            }
        };
        // A value that writes its own unit is read in it (the query's Go-duration arm): the
        // unit named here is that of the plain numbers.
        let line = format!(
            "--client-timeout {limit}: the duration column {column} is read in {}, {how}; a value that writes its unit (1m30s) is read in that",
            unit.name()
        );
        (*from == UnitFrom::Assumed, line)
    });
    let warnings = unit
        .iter()
        .filter(|(assumed, _)| *assumed)
        .map(|(_, line)| line.clone())
        .collect();
    let unit_comment = unit.map_or(String::new(), |(_, line)| format!("\n{}", e.comment(&line)));
    let query = format!(
        "{comment}{unit_comment}
WITH {rows},{backend_ctes}{intents_ctes},
{endpoints}
{result}",
        comment = e.comment(&describe),
        rows = row_ctes(&p, flags_gave_up.as_deref()),
        backend_ctes = outcomes.ctes,
        endpoints = endpoint_ctes(),
        result = result_select(&p, &outcomes.stats),
    );
    Ok((query, warnings))
}

/// Where the duration column's unit came from, as `dupcost logs` tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UnitFrom {
    /// `--duration-unit`.
    Flag,
    /// The column's name (`_ms`, `request_time`).
    Name,
    /// Nothing said it: milliseconds, assumed.
    Assumed,
}

/// The options resolved into what the query is written from: the roles' expressions, how
/// intents are grouped, whose log it is, the client timeout and the lists.
struct Plan<'a> {
    o: &'a QueryOptions,
    e: Engine,
    /// Each mapped role's SQL expression.
    columns: Vec<(Role, String)>,
    grouping: Grouping,
    /// A server's own log: its status is the outcome of every attempt.
    server: bool,
    /// The Collector's table of spans (`--preset otel-traces`).
    traced: bool,
    /// `--client-timeout`, and its limit in the duration column's unit.
    client_timeout: Option<(std::time::Duration, f64)>,
    /// With `--client-timeout`: the duration column, its unit and where the unit came from.
    duration_unit: Option<(String, DurationUnit, UnitFrom)>,
    /// `--methods`, trimmed and upper-case.
    methods: Vec<String>,
    /// `--retry-window` in microseconds.
    window: i64,
    /// `--timeout-status`, as SQL numbers.
    statuses: Vec<String>,
    /// The style of the flags column, when one is mapped.
    flags_style: Option<FlagsStyle>,
}

/// The options checked and resolved, in the order their errors are told.
fn resolve(o: &QueryOptions) -> Result<Plan<'_>, String> {
    let e = o.engine;
    if o.preset == Preset::OtelTraces && e != super::Engine::Clickhouse {
        return Err(format!(
            "--preset otel-traces is the ClickHouse exporter's table: give --engine clickhouse (not {})",
            engine_name(e)
        ));
    }
    let columns = columns_of(o)?;
    let expr = |role: Role| columns.iter().find(|(r, _)| *r == role).map(|(_, x)| x);
    let has = |role: Role| expr(role).is_some();
    let grouping = grouping(o.log.intents, has)?;
    // Whose log it is, as `logs` tells (`side_of` in src/logs/analyze.rs): a server's own
    // log (a webhook receiver's) has its status as the outcome of every attempt.
    let server = match o.log.log_side {
        LogSide::Server => true,
        LogSide::Proxy => false,
        LogSide::Auto => {
            !has(Role::UpstreamStatus)
                && expr(Role::IdempotencyKey)
                    .is_some_and(|x| crate::logs::is_event_id(bare_name(x)))
        }
    };
    let mut duration_unit = None;
    let client_timeout = match (o.log.client_timeout, expr(Role::Duration)) {
        (Some(_), None) => {
            return Err("--client-timeout needs the request's duration: give its column with --column duration=EXPR".into());
        }
        (Some(limit), Some(x)) => {
            let (unit, from) = match o.log.duration_unit {
                Some(unit) => (unit, UnitFrom::Flag),
                None => match crate::logs::duration_unit_named(bare_name(x).as_bytes(), false) {
                    Some(unit) => (unit, UnitFrom::Name),
                    None => (
                        crate::logs::duration_unit_from_name(bare_name(x).as_bytes(), false),
                        UnitFrom::Assumed,
                    ),
                },
            };
            duration_unit = Some((bare_name(x).to_string(), unit, from));
            Some((limit, limit.as_nanos() as f64 / unit.nanos()))
        }
        (None, _) => None,
    };
    for required in [Role::Method, Role::Status] {
        if expr(required).is_none() {
            return Err(format!(
                "the {required} role has no column: give one with --column {required}=EXPR"
            ));
        }
    }
    let methods: Vec<String> = o
        .log
        .methods
        .iter()
        .map(|m| m.trim().to_ascii_uppercase())
        .collect();
    if methods.is_empty() || methods.iter().any(String::is_empty) {
        return Err("--methods names no method".into());
    }
    // Give-up flags (`--column flags=EXPR`), read in the style its name says, as `logs` reads
    // a flags column (Envoy's response flags, HAProxy's termination state, CloudFront's
    // detailed result type).
    let flags_style = expr(Role::Flags).map(|x| FlagsStyle::from_name(bare_name(x).as_bytes()));
    Ok(Plan {
        o,
        e,
        grouping,
        server,
        traced: o.preset == Preset::OtelTraces,
        client_timeout,
        duration_unit,
        methods,
        window: i64::try_from(o.log.retry_window.as_micros()).unwrap_or(i64::MAX),
        statuses: o.log.timeout_statuses.iter().map(u16::to_string).collect(),
        flags_style,
        columns,
    })
}

/// A column's name without its quotes and spaces, as `logs` reads a header's.
fn bare_name(x: &str) -> &str {
    x.trim_matches(|c: char| c == '"' || c == '`' || c.is_whitespace())
}

/// The roles' expressions: the preset's, then `--column`'s over them, the proxy's request id
/// for `--outcomes-table`, the fingerprint's columns of the generic table.
fn columns_of(o: &QueryOptions) -> Result<Vec<(Role, String)>, String> {
    let e = o.engine;
    let mut columns = o.preset.columns(e);
    for (role, expr) in &o.columns {
        if !ROLES.contains(role) {
            return Err(format!(
                "--column {role}: dupcost sql does not use the {role} role (it measures {})",
                ROLES.map(|r| r.name()).join(", ")
            ));
        }
        columns.retain(|(r, _)| r != role);
        // `--column ROLE=` (nothing): the table has no such column.
        if !expr.trim().is_empty() {
            columns.push((*role, expr.clone()));
        }
    }
    if let Some(table) = &o.outcomes_table {
        // The proxy's request id: named, else the preset's (ALB: trace_id), else request_id.
        if !columns.iter().any(|(r, _)| *r == Role::RequestId)
            && !o.columns.iter().any(|(r, _)| *r == Role::RequestId)
        {
            let name = match o.preset {
                Preset::AthenaAlb => "trace_id",
                Preset::AthenaCloudfront | Preset::Generic | Preset::OtelTraces => "request_id",
            };
            columns.push((Role::RequestId, e.ident(name)));
        }
        if table.trim().is_empty() {
            return Err("--outcomes-table names no table".into());
        }
    } else if o.columns.iter().any(|(r, _)| *r == Role::RequestId) {
        return Err(
            "--column request_id: the request id is read only with --outcomes-table".into(),
        );
    }
    for (role, _) in &o.outcomes_columns {
        if !OUTCOME_ROLES.contains(role) {
            return Err(format!(
                "--outcomes-column {role}: the backend's table is read for {} only",
                OUTCOME_ROLES.map(|r| r.name()).join(", ")
            ));
        }
    }
    if o.outcomes_table.is_none() && !o.outcomes_columns.is_empty() {
        return Err("--outcomes-column needs --outcomes-table".into());
    }
    // `--intents fingerprint` on the generic table: the fingerprint's columns are named after
    // their roles, unless `--column` names (or unmaps) them.
    if o.log.intents == Intents::Fingerprint && o.preset == Preset::Generic {
        for role in [Role::ClientAddr, Role::UserAgent, Role::RequestLength] {
            if !o.columns.iter().any(|(r, _)| *r == role) {
                columns.push((role, e.ident(role.name())));
            }
        }
    }
    Ok(columns)
}

impl Plan<'_> {
    /// The role's expression, if mapped.
    fn expr(&self, role: Role) -> Option<&String> {
        self.columns
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, x)| x)
    }

    fn has(&self, role: Role) -> bool {
        self.expr(role).is_some()
    }

    /// The role's value as text (trimmed or not), NULL when it is not mapped.
    fn text_of(&self, role: Role, trimmed: bool) -> String {
        let e = self.e;
        match self.expr(role) {
            Some(x) if trimmed => trim(e, &e.text(x)),
            Some(x) => e.text(x),
            None => e.null_text(),
        }
    }

    fn fingerprint(&self) -> bool {
        self.grouping == Grouping::Fingerprint
    }

    /// `--outcomes-table` was given.
    fn outcomes(&self) -> bool {
        self.o.outcomes_table.is_some()
    }

    /// The duplicates are counted: with the backend's table, by fingerprint, or from spans.
    fn dups(&self) -> bool {
        self.outcomes() || self.fingerprint() || self.traced
    }

    /// A server's keyed intents: their executions (JSON `processed_twice`).
    fn processed_twice(&self) -> bool {
        self.server && self.grouping == Grouping::Key
    }

    /// The roles mapped, in `ROLES`' order.
    fn roles(&self) -> Vec<&'static str> {
        ROLES
            .iter()
            .filter(|r| self.has(**r))
            .map(|r| r.name())
            .collect()
    }

    /// The test of a give-up in `flags_text`: the same codes as `FlagsStyle::gave_up` in
    /// `logs` (`FlagsStyle::give_ups`).
    fn flags_gave_up(&self) -> Option<String> {
        let e = self.e;
        self.flags_style.map(|style| {
            let GiveUps { matching, codes } = style.give_ups();
            match matching {
                GiveUpMatch::AnyCode => e.matches(
                    "flags_text",
                    &format!("(^|[, |])({})([, |]|$)", codes.join("|")),
                ),
                GiveUpMatch::FirstLetter { except } => {
                    let first = e.matches("flags_text", &format!("^[{}]", codes.concat()));
                    if except.is_empty() {
                        first
                    } else {
                        let not = e.matches("flags_text", &format!("^({})", except.join("|")));
                        format!("({first} AND NOT {not})")
                    }
                }
                GiveUpMatch::Whole => {
                    let codes: Vec<String> = codes.iter().map(|c| e.lit(c)).collect();
                    format!("TRIM(flags_text) IN ({})", codes.join(", "))
                }
            }
        })
    }

    /// When a timed-out attempt's upstream outcome is unknown: missing, `-`, 0, a proxy
    /// give-up, or the client-facing status echoed (with flags or a client timeout, only when
    /// that status is a give-up: an attempt may time out on another status).
    fn unknown(&self, flags: bool) -> String {
        let echoed = if flags || self.client_timeout.is_some() {
            format!(
                "(upstream = status AND status IN ({}))",
                self.statuses.join(", ")
            )
        } else {
            "upstream = status".to_string()
        };
        let give_ups: Vec<String> = PROXY_GIVE_UPS.iter().map(u16::to_string).collect();
        format!(
            "(upstream IS NULL OR upstream IN (0, {}) OR {echoed})",
            give_ups.join(", ")
        )
    }
}

/// The columns each row stage carries for the fingerprint and the client timeout.
#[derive(Default)]
struct Extras {
    /// `src`'s expressions.
    src: String,
    /// `parsed`'s columns.
    parsed: String,
    /// `mutating`'s columns.
    mutating: String,
    /// `attempts`' expressions.
    attempt: String,
    /// The arm of `timed_out` that a duration reaching the client timeout adds.
    duration_timed_out: String,
}

fn extras(p: &Plan) -> Extras {
    let e = p.e;
    let trim = |x: &str| trim(e, x);
    let mut x = Extras::default();
    if p.fingerprint() {
        // The client: the first hop of X-Forwarded-For when it names one, else the remote
        // address; without its port either way (as `client` in src/logs/row/values.rs).
        let named = |x: String| format!("CASE WHEN {x} <> '' AND {x} <> '-' THEN {x} END");
        let first_hop = match p.expr(Role::ForwardedFor) {
            Some(x) => named(trim(&e.extract(&e.text(x), "^[^,]*"))),
            None => e.null_text(),
        };
        let remote = match p.expr(Role::ClientAddr) {
            Some(x) => named(trim(&e.text(x))),
            None => e.null_text(),
        };
        let or_empty = |role: Role| match p.expr(role) {
            Some(x) => format!("COALESCE({}, '')", trim(&e.text(x))),
            None => "''".to_string(),
        };
        x.src = format!(
            ",\n    COALESCE({first_hop}, {remote}) AS client_raw,\n    {} AS ua_text,\n    {} AS len_text",
            or_empty(Role::UserAgent),
            or_empty(Role::RequestLength)
        );
        x.parsed.push_str(", client_raw, ua_text, len_text");
        x.mutating
            .push_str(", client_raw, ua_text, len_text, path_text");
        x.attempt = format!(
            ",\n    CASE WHEN {bracket} THEN {unbracketed} WHEN {one_colon} THEN {before_colon} ELSE client_raw END AS client_text,\n    ua_text, len_text, path_text",
            bracket = e.matches("client_raw", "^\\["),
            unbracketed = e.replace_all("client_raw", "^\\[|\\].*$", ""),
            one_colon = e.matches("client_raw", "^[^:]*:[^:]*$"),
            before_colon = e.replace_all("client_raw", ":[^:]*$", ""),
        );
    }
    if let Some((timeout, limit)) = p.client_timeout {
        x.src.push_str(&format!(
            ",\n    {} AS duration_text",
            e.text(p.expr(Role::Duration).map_or("NULL", |x| x.as_str()))
        ));
        x.parsed.push_str(", duration_text");
        x.mutating.push_str(", duration_text");
        let valid = e.matches("duration_text", &duration_pattern());
        let with_s = e.matches("duration_text", &seconds_pattern());
        // The signs go with the spaces and units: a `+` is only a number's or an exponent's
        // sign there (`+5`, `1e+3`), which every engine's cast may not take.
        let sum = e.sum_numbers(&e.replace_all("duration_text", "[ \\t\\n\\r\\fs+]", ""));
        // Values that write their unit are compared in seconds, as `logs` compares them.
        let limit_s = timeout.as_secs_f64();
        // A value past a double's range (an engine casts `1e310` to infinity) is no duration,
        // as `logs` reads it.
        let finite = |x: &str| format!("ABS({x}) <= {:?}", f64::MAX);
        x.duration_timed_out = format!(
            " WHEN {with_s} AND {finite_sum} AND {sum} >= {limit_s:?} THEN 1 WHEN {valid} AND NOT {with_s} AND {finite_sum} AND {sum} >= {limit:?} THEN 1 WHEN {go} AND {digit} AND NOT {valid} AND {finite_go} AND {go_s} >= {limit_s:?} THEN 1",
            finite_sum = finite(&sum),
            finite_go = finite(&go_seconds(e, "duration_text")),
            go = e.matches("duration_text", &go_pattern()),
            digit = e.matches("duration_text", "[0-9]"),
            go_s = go_seconds(e, "duration_text"),
        );
    }
    x
}

/// The row stage (`src/logs/row`): `src` reads the roles as text, `parsed` the timestamp and
/// status, `good` the rows that parse (in range or not), `mutating` the intents' methods,
/// `filtered` the `--path` test, `attempts` each mutating attempt's route, timeout, upstream
/// outcome, key and response bytes.
fn row_ctes(p: &Plan, flags_gave_up: Option<&str>) -> String {
    let (e, o) = (p.e, p.o);
    let x = extras(p);
    let trim = |x: &str| trim(e, x);
    let outcomes = p.outcomes();
    let ts = if p.has(Role::Timestamp) {
        e.micros("ts_text")
    } else {
        e.int("0")
    };
    let status = format!(
        "CASE WHEN {} THEN {} WHEN status_text = '-1' THEN 0 END",
        e.matches("status_text", "^[0-9]{1,3}$"),
        e.int("status_text")
    );
    let mut range = Vec::new();
    if let Some(since) = o.log.since {
        range.push(format!("ts >= {since}"));
    }
    if let Some(until) = o.log.until {
        range.push(format!("ts < {until}"));
    }
    let in_range = if range.is_empty() {
        "1 = 1".to_string()
    } else {
        range.join(" AND ")
    };
    let path_ok = match &o.log.path {
        Some(re) => format!(
            "CASE WHEN {} THEN 1 ELSE 0 END",
            e.matches("path_only", re.as_str())
        ),
        None => "1".into(),
    };
    let route = if p.has(Role::Path) {
        route::template(e, "path_only")
    } else {
        "'(all)'".into()
    };
    let up_last = trim(&e.extract("upstream_text", "[^,:]*$"));
    let upstream = format!(
        "CASE WHEN {} THEN {} END",
        e.matches(&up_last, "^[0-9]{1,3}$"),
        e.int(&up_last)
    );
    let bytes = format!(
        "CASE WHEN status BETWEEN 200 AND 299 AND {} THEN {} END",
        e.matches("bytes_text", "^[+]?[0-9]{1,18}$"),
        e.int(&e.replace_all("bytes_text", "^[+]", ""))
    );
    let in_methods = p
        .methods
        .iter()
        .map(|m| e.lit(m))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "src AS (
  SELECT
    {ts_text} AS ts_text,
    {status_text} AS status_text,
    upper({method_text}) AS method_text,
    COALESCE({path_text}, '') AS path_text,
    {upstream_text} AS upstream_text,
    {key_text} AS key_text,
    {bytes_text} AS bytes_text{id_src}{flags_src}{extra_src}
  FROM {table}
),
parsed AS (
  SELECT {ts} AS ts, {status} AS status, method_text, path_text, upstream_text, key_text, bytes_text{id_col}{flags_col}{extra_col}
  FROM src
),
good AS (
  SELECT *, CASE WHEN {in_range} THEN 1 ELSE 0 END AS in_range
  FROM parsed
  WHERE ts IS NOT NULL AND status IS NOT NULL
),
mutating AS (
  SELECT ts, method_text AS method, status, upstream_text, key_text, bytes_text{id_col}{flags_col}{extra_mut},
    {path_only} AS path_only
  FROM good
  WHERE in_range = 1 AND method_text IN ({in_methods})
),
filtered AS (
  SELECT *, {path_ok} AS path_ok FROM mutating
),
attempts AS (
  SELECT ts, {day_of_ts} AS day, method, {route} AS route,
    status, CASE WHEN status IN ({statuses}) THEN 1{flags_timed_out}{duration_timed_out} ELSE 0 END AS timed_out,
    {upstream} AS upstream,
    CASE WHEN key_text <> '' AND key_text <> '-' THEN key_text END AS key_text,
    {bytes} AS response_bytes{id_attempt}{extra_attempt}
  FROM filtered
  WHERE path_ok = 1
)",
        ts_text = p.text_of(Role::Timestamp, false),
        status_text = p.text_of(Role::Status, true),
        method_text = p.text_of(Role::Method, true),
        path_text = p.text_of(Role::Path, true),
        upstream_text = if p.server && !p.has(Role::UpstreamStatus) {
            p.text_of(Role::Status, false)
        } else {
            p.text_of(Role::UpstreamStatus, false)
        },
        key_text = if p.grouping == Grouping::Key {
            p.text_of(Role::IdempotencyKey, true)
        } else {
            e.null_text()
        },
        bytes_text = p.text_of(Role::Bytes, true),
        table = match o.preset {
            Preset::OtelTraces => super::traces::attempts(&o.table),
            Preset::AthenaAlb | Preset::AthenaCloudfront | Preset::Generic => o.table.clone(),
        },
        id_src = if outcomes {
            format!(",\n    {} AS id_text", p.text_of(Role::RequestId, true))
        } else {
            String::new()
        },
        id_col = if outcomes { ", id_text" } else { "" },
        flags_src = if flags_gave_up.is_some() {
            format!(",\n    {} AS flags_text", p.text_of(Role::Flags, true))
        } else {
            String::new()
        },
        flags_col = if flags_gave_up.is_some() { ", flags_text" } else { "" },
        extra_src = x.src,
        extra_col = x.parsed,
        extra_mut = x.mutating,
        extra_attempt = x.attempt,
        duration_timed_out = x.duration_timed_out,
        flags_timed_out = flags_gave_up.map_or(String::new(), |g| format!(" WHEN {g} THEN 1")),
        id_attempt = if outcomes {
            ",\n    CASE WHEN id_text <> '' AND id_text <> '-' THEN id_text END AS id_text"
        } else {
            ""
        },
        path_only = route::path_only(e, "path_text"),
        day_of_ts = e.int("floor(ts / 86400000000.0)"),
        statuses = p.statuses.join(", "),
    )
}

/// `ROWS` from the partition's first to the current one.
const ROWS_FRAME: &str = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";

/// The table the intents' CTEs read the attempts from: the backend's answers joined, or not.
fn outcomes_from(p: &Plan) -> &'static str {
    if p.outcomes() { "told" } else { "attempts" }
}

/// The intents by fingerprint: the attempts of one client's same request, in time order (ties
/// by what they showed, so that every engine orders them alike), as
/// `IntentTable::touch_fingerprint`: a segment ends where the fingerprint was quiet for more
/// than the window; within one, more than the rate's attempts in a minute make it shared from
/// then on; an attempt starts an intent unless the one before it failed within the window and
/// the fingerprint is not shared.
fn fingerprint_ctes(p: &Plan, outcomes: &Outcomes) -> String {
    let fp = FINGERPRINT;
    let order = "ts, status, timed_out, executed, up_2xx, backend_2xx";
    let fpw = format!("PARTITION BY {fp} ORDER BY {order}");
    let (window, rows_frame) = (p.window, ROWS_FRAME);
    let rate = p.o.log.shared_address_rate;
    format!(
        "
fp_base AS (
  SELECT *,
    {unknown_col} AS unknown,
    {succeeded_col} AS succeeded,{executed_cols}
    CASE WHEN timed_out = 1 OR status = 0 OR status >= 500 THEN 1 ELSE 0 END AS failed,
    {minute} AS minute
  FROM {outcomes_from}
),
fp_lag AS (
  SELECT *,
    ROW_NUMBER() OVER ({fpw}) AS fp_nth,
    LAG(ts) OVER ({fpw}) AS prev_ts,
    LAG(failed) OVER ({fpw}) AS prev_failed
  FROM fp_base
),
fp_segments AS (
  SELECT *,
    SUM(CASE WHEN fp_nth = 1 OR ts - prev_ts > {window} THEN 1 ELSE 0 END) OVER ({fpw} {rows_frame}) AS segment
  FROM fp_lag
),
fp_minutes AS (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY {fp}, segment, minute ORDER BY {order}) AS per_minute
  FROM fp_segments
),
fp_shared AS (
  SELECT *,
    MAX(CASE WHEN per_minute > {rate} THEN 1 ELSE 0 END) OVER (PARTITION BY {fp}, segment ORDER BY {order} {rows_frame}) AS shared
  FROM fp_minutes
),
outcomes AS (
  SELECT *,
    CASE WHEN client_text IS NULL OR fp_nth = 1 OR ts - prev_ts > {window} OR shared = 1 OR prev_failed = 0
      THEN 1 ELSE 0 END AS starts
  FROM fp_shared
),
numbered AS (
  SELECT {fp}, segment, shared, timed_out, executed, up_2xx, backend_2xx,
    CASE WHEN starts = 0 AND status IN (409, 422) THEN 1 ELSE 0 END AS later_conflict,
    CASE WHEN fp_nth > 1 AND ts = prev_ts THEN 1 ELSE 0 END AS tie,
    SUM(starts) OVER ({fpw} {rows_frame}) AS intent
  FROM outcomes
  WHERE client_text IS NOT NULL
),
per_intent AS (
  SELECT COUNT(*) AS attempts, MAX(timed_out) AS timed_out, SUM(executed) AS executions,
    MAX(up_2xx) AS up_2xx, MAX(backend_2xx) AS backend_2xx, MAX(later_conflict) AS later_conflict
  FROM numbered GROUP BY {fp}, intent
)",
        unknown_col = outcomes.unknown,
        succeeded_col = outcomes.succeeded,
        executed_cols = outcomes.executed,
        outcomes_from = outcomes_from(p),
        minute = p.e.int("floor(ts / 60000000.0)"),
    )
}

/// The columns of a fingerprint: one client's same request.
const FINGERPRINT: &str = "client_text, ua_text, method, path_text, len_text";

/// The intents by key (the rule of `src/logs/tally`): attempts with the same key on the same
/// endpoint, ordered by time, start a new intent when the previous one is more than the retry
/// window before; an attempt without a key is an intent of its own.
fn key_ctes(p: &Plan, outcomes: &Outcomes) -> String {
    let window_over = "PARTITION BY key_text, method, route ORDER BY ts";
    let executions = p.outcomes() || p.server || p.traced;
    format!(
        "
outcomes AS (
  SELECT *,
    {unknown_col} AS unknown,
    {succeeded_col} AS succeeded,{executed_cols}
    CASE WHEN key_text IS NULL THEN 1
      WHEN LAG(ts) OVER ({window_over}) IS NULL THEN 1
      WHEN ts - LAG(ts) OVER ({window_over}) > {window} THEN 1
      ELSE 0 END AS starts
  FROM {outcomes_from}
),
numbered AS (
  SELECT key_text, method, route, timed_out,{numbered_cols}
    SUM(starts) OVER ({window_over} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS intent
  FROM outcomes
  WHERE key_text IS NOT NULL
),
per_intent AS (
  SELECT COUNT(*) AS attempts, MAX(timed_out) AS timed_out{per_intent_cols}
  FROM numbered GROUP BY key_text, method, route, intent
)",
        unknown_col = outcomes.unknown,
        succeeded_col = outcomes.succeeded,
        executed_cols = outcomes.executed,
        outcomes_from = outcomes_from(p),
        window = p.window,
        numbered_cols = if executions {
            " executed, up_2xx, backend_2xx,"
        } else {
            ""
        },
        per_intent_cols = if executions {
            ", SUM(executed) AS executions, MAX(up_2xx) AS up_2xx, MAX(backend_2xx) AS backend_2xx"
        } else {
            ""
        },
    )
}

/// The endpoints: ranked by their first attempt, those past the first `MAX_ENDPOINTS` folded
/// into `(other routes)`.
fn endpoint_ctes() -> String {
    format!(
        "endpoint_firsts AS (
  SELECT method AS r_method, route AS r_route, MIN(ts) AS r_first FROM attempts GROUP BY method, route
),
endpoint_ranks AS (
  SELECT r_method, r_route, ROW_NUMBER() OVER (ORDER BY r_first, r_method, r_route) AS r_rank
  FROM endpoint_firsts
),
folded AS (
  SELECT o.*,
    CASE WHEN x.r_rank <= {max_endpoints} THEN o.method ELSE '*' END AS ep_method,
    CASE WHEN x.r_rank <= {max_endpoints} THEN o.route ELSE '(other routes)' END AS ep_route
  FROM outcomes o
  JOIN endpoint_ranks x ON o.method = x.r_method AND o.route = x.r_route
)",
        max_endpoints = MAX_ENDPOINTS,
    )
}

/// A result row: every column of the contract, in order; those not given are NULL.
fn result_row(e: Engine, given: &[(&str, String)]) -> String {
    debug_assert!(given.iter().all(|(name, _)| COLUMNS.contains(name)));
    COLUMNS
        .iter()
        .map(|name| {
            let x = given.iter().find(|(n, _)| n == name).map_or_else(
                || {
                    if TEXT_COLUMNS.contains(name) {
                        e.null_text()
                    } else {
                        e.null_int()
                    }
                },
                |(_, x)| x.clone(),
            );
            format!("{x} AS {}", e.ident(name))
        })
        .collect::<Vec<_>>()
        .join(",\n  ")
}

/// The `total` row's columns (the others are NULL).
fn total_columns(p: &Plan) -> Vec<(&'static str, String)> {
    let e = p.e;
    let fingerprint = p.fingerprint();
    let mut total: Vec<(&str, String)> = vec![
        ("kind", "'total'".into()),
        ("rows", "r.n_rows".into()),
        ("bad_rows", "r.n_bad".into()),
        ("out_of_range", "g.n_out".into()),
        ("path_filtered", "m.n_path_filtered".into()),
        ("mutating", "a.n_mutating".into()),
        ("timed_out", "a.n_timed_out".into()),
        ("timed_out_succeeded", "a.n_succeeded".into()),
        ("timed_out_unknown", "a.n_unknown".into()),
        ("intents", "a.n_intents".into()),
        ("keyed_intents", "a.n_keyed_intents".into()),
        ("keyed_attempts", "a.n_keyed_attempts".into()),
        ("max_attempts", "p.n_max_attempts".into()),
        ("first_us", "g.first_us".into()),
        ("last_us", "g.last_us".into()),
        ("response_rows", "a.n_response_rows".into()),
        ("response_bytes", "a.n_response_bytes".into()),
        ("roles", e.lit(&p.roles().join(","))),
        ("methods", e.lit(&p.methods.join(","))),
        ("timeout_statuses", e.lit(&p.statuses.join(","))),
        ("retry_window_us", e.int(&p.window.to_string())),
        (
            "timed_out_intents",
            if fingerprint {
                "0"
            } else {
                "p.n_timed_out_intents"
            }
            .into(),
        ),
        (
            "grouping",
            e.lit(match p.grouping {
                Grouping::Key => "key",
                Grouping::Fingerprint => "fingerprint",
                Grouping::None => "none",
            }),
        ),
    ];
    if fingerprint {
        total.extend([
            ("fingerprinted_intents", "p.n_grouped".to_string()),
            ("fingerprinted_attempts", "p.n_grouped_attempts".into()),
            (
                "fingerprinted_timed_out_intents",
                "p.n_timed_out_intents".into(),
            ),
            ("shared_fingerprints", "sh.n_shared_fingerprints".into()),
            ("shared_attempts", "sh.n_shared_attempts".into()),
            (
                "shared_address_rate",
                e.int(&p.o.log.shared_address_rate.to_string()),
            ),
            ("conflicts_409_422", "p.n_conflicts".into()),
            ("fingerprint_ties", "sh.n_ties".into()),
        ]);
    }
    total.push(("log_side", e.lit(if p.server { "server" } else { "proxy" })));
    if p.processed_twice() {
        total.extend([
            ("processed_twice_intents", "p.n_processed_twice".to_string()),
            ("processed_twice_extra", "p.n_extra_executions".into()),
        ]);
    }
    if let Some((limit, _)) = p.client_timeout {
        let micros = i64::try_from(limit.as_micros()).unwrap_or(i64::MAX);
        total.push(("client_timeout_us", e.int(&micros.to_string())));
    }
    if p.dups() {
        total.extend([
            ("duplicates", "p.n_duplicates".to_string()),
            ("duplicates_upstream_2xx", "p.n_duplicates_upstream".into()),
            ("duplicates_outcomes", "p.n_duplicates_backend".into()),
        ]);
    }
    if let Some(style) = p.flags_style {
        total.push(("flags_style", e.lit(style.name)));
    }
    if p.outcomes() {
        total.extend([
            ("matched", "j.n_matched".to_string()),
            ("matched_succeeded", "j.n_matched_succeeded".into()),
            ("never_reached", "j.n_never_reached".into()),
            ("outside_span", "j.n_outside_span".into()),
            ("without_id", "j.n_without_id".into()),
            ("backend_rows", "b.b_rows".into()),
            ("backend_bad_rows", "b.b_bad".into()),
            ("backend_first_us", "b.b_first".into()),
            ("backend_last_us", "b.b_last".into()),
        ]);
    }
    total
}

/// The per-intent figures the `total` row reads (`p`): grouped intents and attempts, the
/// duplicates, the later conflicts, a server's executions.
fn per_intent_columns(p: &Plan) -> String {
    let mut cols = format!(
        ",\n    COUNT(*) AS n_grouped, {} AS n_grouped_attempts",
        sum0("attempts")
    );
    if p.dups() {
        cols.push_str(&format!(
            ",\n    {} AS n_duplicates,\n    {} AS n_duplicates_upstream,\n    {} AS n_duplicates_backend",
            sum0("CASE WHEN executions >= 2 THEN 1 ELSE 0 END"),
            sum0("CASE WHEN executions >= 2 AND up_2xx = 1 THEN 1 ELSE 0 END"),
            sum0("CASE WHEN executions >= 2 AND up_2xx = 0 AND backend_2xx = 1 THEN 1 ELSE 0 END"),
        ));
    }
    if p.fingerprint() {
        cols.push_str(&format!(",\n    {} AS n_conflicts", sum0("later_conflict")));
    }
    if p.processed_twice() {
        cols.push_str(&format!(
            ",\n    {} AS n_processed_twice,\n    {} AS n_extra_executions",
            sum0("CASE WHEN executions >= 2 THEN 1 ELSE 0 END"),
            sum0("CASE WHEN executions >= 2 THEN executions - 1 ELSE 0 END"),
        ));
    }
    cols
}

/// Shared fingerprints: the segments that crossed the rate, and their attempts; and the ties.
fn fingerprint_joins(p: &Plan) -> String {
    if !p.fingerprint() {
        return String::new();
    }
    format!(
        "
CROSS JOIN (
  SELECT {} AS n_shared_attempts, {} AS n_ties,
    (SELECT COUNT(*) FROM (SELECT segment FROM numbered WHERE shared = 1
      GROUP BY {FINGERPRINT}, segment) s) AS n_shared_fingerprints
  FROM numbered
) sh",
        sum0("shared"),
        sum0("tie")
    )
}

/// The result table: the `total` row, a row per day, per endpoint and per number of
/// attempts, in a stable order (see [`super::observed::COLUMNS`]).
fn result_select(p: &Plan, join_stats: &str) -> String {
    let e = p.e;
    let row = |given: &[(&str, String)]| result_row(e, given);
    let counts = |kind: &str, day: String, method: String, route: String, intents: String| {
        row(&[
            ("kind", e.lit(kind)),
            ("day", day),
            ("method", method),
            ("route", route),
            ("mutating", "COUNT(*)".into()),
            ("timed_out", "SUM(timed_out)".into()),
            ("timed_out_succeeded", "SUM(succeeded)".into()),
            ("timed_out_unknown", "SUM(unknown)".into()),
            ("intents", intents),
            ("keyed_attempts", "COUNT(key_text)".into()),
        ])
    };
    let (null_text, null_int) = (e.null_text(), e.null_int());
    format!(
        "SELECT * FROM (
SELECT
  {total}
FROM (SELECT COUNT(*) AS n_rows, {bad} AS n_bad FROM parsed) r
CROSS JOIN (
  SELECT {out_of_range} AS n_out,
    MIN(CASE WHEN in_range = 1 THEN ts END) AS first_us,
    MAX(CASE WHEN in_range = 1 THEN ts END) AS last_us
  FROM good
) g
CROSS JOIN (SELECT {path_filtered} AS n_path_filtered FROM filtered) m
CROSS JOIN (
  SELECT COUNT(*) AS n_mutating, {sum_timed_out} AS n_timed_out,
    {sum_succeeded} AS n_succeeded, {sum_unknown} AS n_unknown,
    {sum_starts} AS n_intents, {keyed_starts} AS n_keyed_intents,
    COUNT(key_text) AS n_keyed_attempts,
    COUNT(response_bytes) AS n_response_rows, {sum_bytes} AS n_response_bytes
  FROM outcomes
) a
CROSS JOIN (
  SELECT COALESCE(MAX(attempts), 0) AS n_max_attempts, {sum_timed_out} AS n_timed_out_intents{p_cols}
  FROM per_intent
) p{join_stats}{fp_joins}
UNION ALL
SELECT
  {per_day}
FROM outcomes
GROUP BY day
UNION ALL
SELECT
  {per_endpoint}
FROM folded
GROUP BY ep_method, ep_route
UNION ALL
SELECT
  {per_attempts}
FROM per_intent
GROUP BY attempts
) result
ORDER BY {kind} DESC, {day}, {method}, {route_col}, {attempts_col}
",
        total = row(&total_columns(p)),
        // One row per number of attempts: how many keyed intents had exactly that many.
        per_attempts = row(&[
            ("kind", "'attempts'".into()),
            ("intents", "COUNT(*)".into()),
            ("attempts", e.int("attempts")),
        ]),
        per_day = counts(
            "day",
            e.date_of_day("day"),
            null_text.clone(),
            null_text.clone(),
            null_int,
        ),
        per_endpoint = counts(
            "endpoint",
            null_text,
            "ep_method".into(),
            "ep_route".into(),
            "SUM(starts)".into(),
        ),
        p_cols = per_intent_columns(p),
        fp_joins = fingerprint_joins(p),
        bad = sum0("CASE WHEN ts IS NULL OR status IS NULL THEN 1 ELSE 0 END"),
        out_of_range = sum0("1 - in_range"),
        path_filtered = sum0("1 - path_ok"),
        sum_timed_out = sum0("timed_out"),
        sum_succeeded = sum0("succeeded"),
        sum_unknown = sum0("unknown"),
        sum_starts = sum0("starts"),
        keyed_starts = sum0("CASE WHEN key_text IS NOT NULL THEN starts ELSE 0 END"),
        sum_bytes = sum0("response_bytes"),
        kind = e.ident("kind"),
        day = e.ident("day"),
        method = e.ident("method"),
        route_col = e.ident("route"),
        attempts_col = e.ident("attempts"),
    )
}

/// A number as `logs` reads one (`f64::from_str`): signed, `+5` too, with an exponent or not.
const NUMBER: &str = "[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?";
/// The same ending in a digit, then `s` (Google Cloud's `0.080s`).
const NUMBER_S: &str =
    "[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s";
/// Spaces as `logs` trims them.
const SPACE: &str = "[ \\t\\n\\r\\f]*";

/// A duration in the field's unit as `logs` reads one (`parse_duration` in
/// src/logs/row/values.rs), as a regular expression every engine takes: a number, or numbers
/// joined by `,` or `:` (nginx's `0.5, 0.25`, summed), each perhaps ending in `s` (in seconds
/// when it is one: [`seconds_pattern`]); anything else is no number.
fn duration_pattern() -> String {
    let part = format!("({NUMBER_S}|{NUMBER})");
    format!("^{SPACE}{part}{SPACE}([,:]{SPACE}{part}{SPACE})*$")
}

/// One number followed by `s`: `logs` reads it in seconds, whatever the field's unit.
fn seconds_pattern() -> String {
    format!("^{SPACE}{NUMBER_S}{SPACE}$")
}

/// A Go duration as `logs` reads one (`go_duration` in src/logs/row/values.rs): numbers with
/// their units in the order h, m, s, ms, us (µs, μs), ns, each at most once (and at least one:
/// the caller checks for a digit).
fn go_pattern() -> String {
    let n = "[0-9]+([.][0-9]+)?";
    format!("^{SPACE}({n}h)?({n}m)?({n}s)?({n}ms)?({n}(us|\u{b5}s|\u{3bc}s))?({n}ns)?{SPACE}$")
}

/// The seconds of `x`, a Go duration [`go_pattern`] takes, as `go_duration` computes them: the
/// hours' and minutes' numbers multiplied, the smaller units' read with their power of ten
/// (`20.5ms` as `20.5e-3`), the parts added in their order.
fn go_seconds(e: Engine, x: &str) -> String {
    // Minutes are read where the milliseconds are taken out (`5ms` has no minutes).
    let no_ms = e.replace_all(x, "[0-9.]+ms", "");
    let parts = [
        (x.to_string(), "[0-9.]+h", "h", "", " * 3600"),
        (no_ms, "[0-9.]+m", "m", "", " * 60"),
        (x.to_string(), "[0-9.]+s", "s", "", ""),
        (x.to_string(), "[0-9.]+ms", "ms", "e-3", ""),
        (
            x.to_string(),
            "[0-9.]+(?:us|\u{b5}s|\u{3bc}s)",
            "(?:us|\u{b5}s|\u{3bc}s)",
            "e-6",
            "",
        ),
        (x.to_string(), "[0-9.]+ns", "ns", "e-9", ""),
    ];
    let terms: Vec<String> = parts
        .iter()
        .map(|(text, re, unit, exponent, times)| {
            format!(
                "CASE WHEN {} THEN {}{times} ELSE 0 END",
                e.matches(text, re),
                e.double(&e.replace_all(&e.extract(text, re), unit, exponent))
            )
        })
        .collect();
    format!("({})", terms.join(" + "))
}

/// How the query groups attempts into intents, as `logs` chooses for a file's columns
/// (`src/logs/analyze.rs`): by key when one is mapped (unless `--intents fingerprint`), by
/// fingerprint when the client's address and timestamps are, else none.
fn grouping(intents: Intents, has: impl Fn(Role) -> bool) -> Result<Grouping, String> {
    let fingerprintable = has(Role::ClientAddr) || has(Role::ForwardedFor);
    let timed = has(Role::Timestamp);
    Ok(match intents {
        Intents::Key | Intents::Auto if has(Role::IdempotencyKey) => Grouping::Key,
        Intents::Auto | Intents::Fingerprint if fingerprintable && timed => Grouping::Fingerprint,
        Intents::Fingerprint if fingerprintable => {
            return Err("--intents fingerprint needs timestamps (a retry is a request sent again within --retry-window): give their column with --column timestamp=EXPR".into());
        }
        Intents::Fingerprint => {
            return Err("--intents fingerprint needs the client's address: give its column with --column client_addr=EXPR (or forwarded_for=EXPR)".into());
        }
        Intents::Key | Intents::Auto => Grouping::None,
    })
}

/// The engine's name as `--engine` takes it.
pub fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Duckdb => "duckdb",
        Engine::Clickhouse => "clickhouse",
        Engine::Spark => "spark",
        Engine::Trino => "trino",
        Engine::Bigquery => "bigquery",
    }
}

/// The timed-out attempts' outcomes: with `--outcomes-table`, the backend's answers joined by
/// request id, with the rules of `--outcomes` (src/logs/outcomes.rs): found, its status tells
/// (any 2xx row: succeeded); absent within the backend's span, never reached (failed); else
/// the proxy's outcome stands. Without it, the proxy's own (`unknown`: its outcome is not
/// told); `executions`: the attempts' executions are counted (fingerprinted intents, or a
/// server's keyed ones).
fn outcomes_of(o: &QueryOptions, unknown: &str, executions: bool) -> Result<Outcomes, String> {
    let e = o.engine;
    let proxy_unknown = format!("timed_out = 1 AND {unknown}");
    let proxy_succeeded =
        format!("timed_out = 1 AND NOT {unknown} AND upstream BETWEEN 200 AND 299");
    let Some(table) = &o.outcomes_table else {
        // Fingerprinted intents count their duplicates from the proxy's log alone; a server's
        // keyed intents, their executions.
        let executed = if executions {
            format!(
                "
    CASE WHEN timed_out = 1 THEN (CASE WHEN {proxy_succeeded} THEN 1 ELSE 0 END)
      WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS executed,
    CASE WHEN {proxy_succeeded} THEN 1 ELSE 0 END AS up_2xx,
    0 AS backend_2xx,"
            )
        } else {
            String::new()
        };
        return Ok(Outcomes {
            unknown: format!("CASE WHEN {proxy_unknown} THEN 1 ELSE 0 END"),
            succeeded: format!("CASE WHEN {proxy_succeeded} THEN 1 ELSE 0 END"),
            executed,
            ctes: String::new(),
            stats: String::new(),
        });
    };
    let b = table;
    let bexpr = |role: Role| -> Option<String> {
        match o.outcomes_columns.iter().rev().find(|(r, _)| *r == role) {
            Some((_, x)) if x.trim().is_empty() => None,
            Some((_, x)) => Some(x.clone()),
            None => Some(e.ident(role.name())),
        }
    };
    let id = bexpr(Role::RequestId)
        .ok_or("--outcomes-column request_id=: the join needs the backend's request id")?;
    let st = bexpr(Role::Status)
        .ok_or("--outcomes-column status=: the join needs the backend's status")?;
    let bts = bexpr(Role::Timestamp);
    let b_ts_text = bts.as_ref().map_or(e.null_text(), |x| trim(e, &e.text(x)));
    let b_ts = if bts.is_some() {
        e.micros("ts_text")
    } else {
        e.null_int()
    };
    let b_ts_bad = if bts.is_some() { "ts IS NULL" } else { "1 = 0" };
    let ctes = format!(
        "
backend_src AS (
  SELECT {id_text} AS id_text, {status_text} AS status_text, {b_ts_text} AS ts_text
  FROM {b}
),
backend_parsed AS (
  SELECT CASE WHEN id_text <> '' AND id_text <> '-' THEN id_text END AS id,
    CASE WHEN {status_ok} THEN {status_int} END AS status,
    {b_ts} AS ts
  FROM backend_src
),
backend_good AS (
  SELECT * FROM backend_parsed WHERE id IS NOT NULL AND status IS NOT NULL AND NOT ({b_ts_bad})
),
backend_span AS (
  SELECT (SELECT COUNT(*) FROM backend_parsed) AS b_rows,
    (SELECT COUNT(*) FROM backend_parsed) - COUNT(*) AS b_bad,
    MIN(ts) AS b_first, MAX(ts) AS b_last
  FROM backend_good
),
answers AS (
  SELECT id AS answer_id, MAX(CASE WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END) AS ok
  FROM backend_good
  GROUP BY id
),
told AS (
  SELECT a.*,
    CASE WHEN a.timed_out = 1 AND a.id_text IS NOT NULL AND x.answer_id IS NOT NULL THEN
        CASE WHEN x.ok = 1 THEN 2 ELSE 1 END
      WHEN a.timed_out = 1 AND a.id_text IS NOT NULL AND s.b_first IS NOT NULL
        AND a.ts BETWEEN s.b_first AND s.b_last THEN 1
      ELSE 0 END AS told,
    CASE WHEN x.answer_id IS NOT NULL THEN 1 ELSE 0 END AS found,
    COALESCE(x.ok, 0) AS found_ok
  FROM attempts a
  LEFT JOIN answers x ON a.timed_out = 1 AND a.id_text = x.answer_id
  CROSS JOIN backend_span s
),",
        id_text = trim(e, &e.text(&id)),
        status_text = trim(e, &e.text(&st)),
        status_ok = e.matches("status_text", "^[0-9]{1,3}$"),
        status_int = e.int("status_text"),
    );
    let succeeded = format!("(told = 2 OR (told = 0 AND {proxy_succeeded}))");
    let by_backend = format!("told = 2 AND NOT ({proxy_succeeded})");
    let stats = format!(
        "
CROSS JOIN (
  SELECT {matched} AS n_matched, {matched_ok} AS n_matched_succeeded,
    {never} AS n_never_reached, {outside} AS n_outside_span, {without} AS n_without_id
  FROM told
) j
CROSS JOIN backend_span b",
        matched =
            sum0("CASE WHEN timed_out = 1 AND id_text IS NOT NULL AND found = 1 THEN 1 ELSE 0 END"),
        matched_ok = sum0(
            "CASE WHEN timed_out = 1 AND id_text IS NOT NULL AND found = 1 AND found_ok = 1 THEN 1 ELSE 0 END"
        ),
        never = sum0(
            "CASE WHEN timed_out = 1 AND id_text IS NOT NULL AND found = 0 AND told = 1 THEN 1 ELSE 0 END"
        ),
        outside =
            sum0("CASE WHEN timed_out = 1 AND id_text IS NOT NULL AND told = 0 THEN 1 ELSE 0 END"),
        without = sum0("CASE WHEN timed_out = 1 AND id_text IS NULL THEN 1 ELSE 0 END"),
    );
    Ok(Outcomes {
        unknown: format!("CASE WHEN told = 0 AND {proxy_unknown} THEN 1 ELSE 0 END"),
        succeeded: format!("CASE WHEN {succeeded} THEN 1 ELSE 0 END"),
        executed: format!(
            "
    CASE WHEN timed_out = 1 THEN (CASE WHEN {succeeded} THEN 1 ELSE 0 END)
      WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS executed,
    CASE WHEN {succeeded} AND NOT ({by_backend}) THEN 1 ELSE 0 END AS up_2xx,
    CASE WHEN {by_backend} THEN 1 ELSE 0 END AS backend_2xx,"
        ),
        ctes,
        stats,
    })
}

/// The columns and CTEs the outcomes add.
struct Outcomes {
    /// A timed-out attempt's outcome is unknown (1 or 0).
    unknown: String,
    /// A timed-out attempt succeeded (1 or 0).
    succeeded: String,
    /// The executions' columns (`executed`, `up_2xx`, `backend_2xx`), when counted.
    executed: String,
    /// The backend's CTEs (`--outcomes-table`).
    ctes: String,
    /// The join's figures, joined to the `total` row.
    stats: String,
}

/// `x` without leading and trailing white space.
fn trim(e: Engine, x: &str) -> String {
    e.replace_all(x, "^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$", "")
}

/// `SUM(x)`, 0 over no rows.
fn sum0(x: &str) -> String {
    format!("COALESCE(SUM({x}), 0)")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::logs::{Took, parse_duration};

    /// What the query makes of a duration's text, computed here with the same regular
    /// expressions (the `regex` crate standing in for the engine's): the arm that takes it and
    /// the value it compares.
    fn as_the_query_reads(text: &str) -> Option<Took> {
        let re = |p: &str| regex::Regex::new(p).unwrap();
        let sum = |text: &str| -> f64 {
            let bare: String = text
                .chars()
                .filter(|c| !" \t\n\r\x0cs+".contains(*c))
                .collect();
            bare.split([',', ':'])
                .map(|p| p.parse::<f64>().unwrap())
                .sum()
        };
        // The arms take a value only within a double's range.
        let finite = |v: f64| (v.abs() <= f64::MAX).then_some(v);
        if re(&seconds_pattern()).is_match(text) {
            return finite(sum(text)).map(Took::Seconds);
        }
        if re(&duration_pattern()).is_match(text) {
            return finite(sum(text)).map(Took::InUnit);
        }
        if !(re(&go_pattern()).is_match(text) && text.contains(|c: char| c.is_ascii_digit())) {
            return None;
        }
        // go_seconds, step by step.
        let no_ms = re("[0-9.]+ms").replace_all(text, "").into_owned();
        let us = "(?:us|\u{b5}s|\u{3bc}s)";
        let parts = [
            (text, "[0-9.]+h".to_string(), "h", "", 3600.0),
            (no_ms.as_str(), "[0-9.]+m".to_string(), "m", "", 60.0),
            (text, "[0-9.]+s".to_string(), "s", "", 1.0),
            (text, "[0-9.]+ms".to_string(), "ms", "e-3", 1.0),
            (text, format!("[0-9.]+{us}"), us, "e-6", 1.0),
            (text, "[0-9.]+ns".to_string(), "ns", "e-9", 1.0),
        ];
        let mut total = 0.0;
        for (text, part, unit, exponent, times) in parts {
            let term = match re(&part).find(text) {
                Some(m) => {
                    let number = re(unit).replace_all(m.as_str(), exponent);
                    number.parse::<f64>().unwrap() * times
                }
                None => 0.0,
            };
            total += term;
        }
        finite(total).map(Took::Seconds)
    }

    /// The durations `logs` reads (`parse_duration`), in which unit, and what they come to, are
    /// the ones the query's patterns take and its sums.
    #[test]
    fn durations_as_logs_reads_them() {
        let cases: [(&str, Option<Took>); 33] = [
            ("5", Some(Took::InUnit(5.0))),
            ("+5", Some(Took::InUnit(5.0))),
            (" +5 , 2 ", Some(Took::InUnit(7.0))),
            ("+0.5, +0.25", Some(Took::InUnit(0.75))),
            ("1e+3", Some(Took::InUnit(1000.0))),
            ("-5", Some(Took::InUnit(-5.0))),
            (".5", Some(Took::InUnit(0.5))),
            ("5.", Some(Took::InUnit(5.0))),
            ("0.5s, 0.25s", Some(Took::InUnit(0.75))),
            ("+1.5s", Some(Took::Seconds(1.5))),
            ("16.2s", Some(Took::Seconds(16.2))),
            ("5.e3s", Some(Took::Seconds(5000.0))),
            ("20.512345ms", Some(Took::Seconds(0.020512345))),
            ("1m30s", Some(Took::Seconds(90.0))),
            ("1h2m3.5s", Some(Took::Seconds(3723.5))),
            ("850\u{b5}s", Some(Took::Seconds(0.00085))),
            ("850\u{3bc}s", Some(Took::Seconds(0.00085))),
            ("850us", Some(Took::Seconds(0.00085))),
            ("120ns", Some(Took::Seconds(1.2e-7))),
            (" 2m5ms ", Some(Took::Seconds(120.005))),
            ("5.s", None),
            ("-5ms", None),
            ("1s1h", None),
            ("+ 5", None),
            ("++5", None),
            ("5+", None),
            ("+", None),
            ("-", None),
            ("abc", None),
            ("  ", None),
            ("1e310", None),
            ("1e308, 1e308", None),
            ("-1e310", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration(text.as_bytes()), want, "logs: {text:?}");
            assert_eq!(as_the_query_reads(text), want, "the query: {text:?}");
        }
    }

    proptest::proptest! {
        /// On any text of a duration's characters, the query reads what `logs` reads.
        #[test]
        fn the_query_reads_durations_as_logs_does(text in proptest::collection::vec(
            proptest::sample::select(
                "0123456789.hmsun\u{b5}\u{3bc}e,: +-".chars().collect::<Vec<char>>()
            ),
            0..12,
        )) {
            let text: String = text.into_iter().collect();
            proptest::prop_assert_eq!(as_the_query_reads(&text), parse_duration(text.as_bytes()), "{:?}", text);
        }

        /// And on Go's own forms, from whole units to nine decimals.
        #[test]
        fn the_query_reads_go_durations_as_logs_does(
            parts in proptest::collection::vec((0u64..100_000, "[0-9]{0,9}"), 1..4),
            units in proptest::sample::subsequence(
                vec!["h", "m", "s", "ms", "us", "\u{b5}s", "ns"],
                1..4,
            ),
        ) {
            let text: String = parts
                .iter()
                .zip(&units)
                .map(|((whole, fraction), unit)| match fraction.as_str() {
                    "" => format!("{whole}{unit}"),
                    f => format!("{whole}.{f}{unit}"),
                })
                .collect();
            let logs = parse_duration(text.as_bytes());
            proptest::prop_assert_eq!(as_the_query_reads(&text), logs, "{:?}", text);
        }
    }
}
