//! The findings' JSON contract: the `observed` object of the logs report and what a report
//! needs beside it. Names here are a contract: add fields, never rename or drop.

use serde::Serialize;

use crate::inputs::Sources;
use crate::logs::Join;
use crate::model::Scenario;

use super::evidence::{DuplicatesNote, Evidence, Warning};
use super::intervals::Intervals;

/// Inputs given explicitly (by flag): they win over what the log says.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overrides {
    pub requests_per_day: Option<f64>,
    pub timeout_rate: Option<f64>,
    pub succeeded_share: Option<f64>,
    pub retries: Option<u32>,
    pub body_bytes: Option<u64>,
}

/// One model input as the logs gave it, with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// The input's JSON name (`timeout_rate`).
    pub input: &'static str,
    /// The flag that overrides it (`--timeout-rate`).
    pub flag: &'static str,
    /// The value used by the model.
    pub value: f64,
    /// The value measured from the log, when it could be.
    pub measured: Option<f64>,
    /// The value did not come from the log: from the flag, or the scenario (a default, the
    /// `--scenario` file or a preset) where the log cannot give it or gives too little.
    pub from_flag: bool,
    /// How it was obtained (`report::words` says it: `timeout rate 1.94% = 662 timed out /
    /// 34,094 mutating attempts`).
    pub evidence: Evidence,
}

/// The scenario for the model, its measured inputs, and the observed figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Findings {
    pub scenario: Scenario,
    pub measured: Vec<Measured>,
    pub observed: Observed,
    /// 95% intervals of the measured inputs and of what they cost.
    pub intervals: Intervals,
    /// Where each input of `scenario` came from (the `sources` object of the JSON report).
    pub sources: Sources,
}

/// The `observed` object of the JSON report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observed {
    pub rows: u64,
    pub mutating_attempts: u64,
    pub intents: u64,
    pub timed_out: u64,
    /// `null` when the logs have no upstream status column (and no `--outcomes`).
    pub timed_out_succeeded: Option<u64>,
    /// Timed-out attempts whose outcome the log does not tell; `null` as above.
    pub timed_out_unknown: Option<u64>,
    /// Timed-out attempts found in the backend's log; `null` without `--outcomes`.
    pub timed_out_matched: Option<u64>,
    /// Rows left out by `--since`/`--until` (and mutating rows left out by `--path`).
    pub rows_filtered: u64,
    /// What the reader noticed and the figures may suffer from (also on stderr).
    pub warnings: Vec<Warning>,
    /// The join with the backend's log; `null` without `--outcomes`.
    pub backend_log: Option<Join>,
    /// `null` without timestamps.
    pub days_covered: Option<f64>,
    pub first_timestamp: Option<String>,
    pub last_timestamp: Option<String>,
    pub bad_rows: u64,
    pub per_day: Vec<DayRow>,
    /// Retries (attempts - 1) per keyed intent; `null` when no keys were logged.
    pub retries_observed: Option<RetriesObserved>,
    /// The proxy's own retries of mutating attempts (Envoy's
    /// `%UPSTREAM_REQUEST_ATTEMPT_COUNT%`, Traefik's `RetryAttempts`), beside the client's;
    /// `null` without such a column.
    pub proxy_retries: Option<ProxyRetriesObserved>,
    /// The layers figure with the proxy's layer measured: the proxy's tries per
    /// client attempt, as its log counts them, multiply the scenario's layers above it;
    /// `null` without a proxy-attempts column.
    pub amplification: Option<AmplificationObserved>,
    /// The top 10 endpoints by estimated duplicates a month. Every endpoint's rows add up to
    /// the report's duplicates and refunds a month (docs/MODEL.md, "Endpoints").
    pub per_endpoint: Vec<EndpointRow>,
    /// The endpoints past the top 10, summed: the row that completes the list's sum to the
    /// total; `null` when every endpoint is listed.
    pub per_endpoint_other: Option<EndpointsOther>,
    /// How attempts were grouped into intents: `key`, `fingerprint` or `none`.
    pub intent_grouping: &'static str,
    /// How many intents had 1, 2, 3... attempts.
    pub attempts_per_intent: Vec<AttemptsRow>,
    /// Duplicates that happened, as far as the log (and the backend's, with `--outcomes`)
    /// shows them; `null` when attempts were not grouped into intents.
    pub observed_duplicates: Option<ObservedDuplicates>,
    /// The share of mutating attempts with a key; `null` without a key column.
    pub key_coverage: Option<KeyCoverage>,
    /// Fingerprints left out of retry grouping as shared addresses; `null` unless grouped
    /// by fingerprint.
    pub shared_addresses: Option<SharedAddresses>,
    /// How each input was read: its name and format.
    pub files: Vec<FileRead>,
    /// Intents executed more than once as the server's own log shows them; `null` unless
    /// every input is a server's own log grouped by key.
    pub processed_twice: Option<ProcessedTwice>,
}

/// One bar of `attempts_per_intent`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AttemptsRow {
    pub attempts: u32,
    pub intents: u64,
}

/// `observed_duplicates`: intents with two or more attempts known to have executed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObservedDuplicates {
    pub count: u64,
    /// `count` over the days covered; `null` without timestamps.
    pub per_day: Option<f64>,
    /// The model's duplicates a day for the same inputs, and its 95% interval.
    pub predicted_per_day: f64,
    pub predicted_per_day_interval: [f64; 2],
    pub evidence: DuplicateEvidence,
    /// Why the observed and predicted figures differ by more than the interval explains;
    /// `null` when they do not.
    pub note: Option<DuplicatesNote>,
}

/// How the duplicates' executions were known.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DuplicateEvidence {
    /// A timed-out attempt the log itself shows answered 2xx by the backend.
    pub upstream_2xx: u64,
    /// A timed-out attempt the backend's own log (`--outcomes`) shows answered 2xx.
    pub outcomes: u64,
    /// Retried intents whose retry was answered 409 or 422: a duplicate a uniqueness check
    /// refused (not in `count`: it proves one execution, not two).
    pub conflict_409_422: u64,
}

/// `key_coverage`: how many mutating attempts carried an idempotency key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCoverage {
    pub keyed_attempts: u64,
    pub share: f64,
    /// Endpoints with attempts without a key, by the modelled duplicates a month of those
    /// attempts, most first ("add keys here first"); at most 10.
    pub per_endpoint: Vec<KeyCoverageRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCoverageRow {
    pub method: String,
    pub route: String,
    /// Its mutating attempts with a key.
    pub share: f64,
    /// The modelled duplicates a month of its attempts without a key.
    pub duplicates_per_month: f64,
    pub refund_per_month: f64,
}

/// `shared_addresses`: fingerprints that sent more than `rate` attempts in a minute.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SharedAddresses {
    pub rate: u8,
    pub fingerprints: u64,
    pub attempts: u64,
}

/// How one input was read, for the JSON report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileRead {
    pub name: String,
    /// `csv`, `tsv` (or another delimiter's `csv`), or the line format as the evidence names
    /// it (`nginx combined`, `HAProxy httplog`).
    pub input_format: String,
    /// The format was told from the file's first lines, not named by a flag.
    pub detected: bool,
    /// Whose log it was taken to be: `proxy` or `server` (`--log-side`).
    pub log_side: &'static str,
    /// Why: the flag, or what was detected or assumed.
    pub log_side_why: String,
    /// What wrapped its lines ("CRI container log", "syslog RFC 5424"), when something did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<String>,
    /// The JSON document its records were framed from, when it was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// Lines skipped as not access lines (a server's error log on stderr, start-up
    /// messages), by stream and kind.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedLines>,
    /// The line formats its lines were read with, in the order of their first lines, and the
    /// lines each read (one file, several shapes); empty for CSV/TSV.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<FormatLines>,
    /// Its formats took turns line by line (two containers' logs in one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub formats_interleaved: bool,
    /// What its spans showed, when it was traces (OTLP/JSON, Zipkin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traces: Option<crate::logs::TraceRead>,
    /// The fields read from their values (docs/MODEL.md, "Inferred"), each with the flag
    /// that makes it given; left out when none was.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inferred: Vec<InferredField>,
}

/// A field whose role or unit was read from its values, not named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InferredField {
    /// What was read: `upstream_status`, `request_time`, `request_id` (by an nginx
    /// layout's appended field), `duration_unit`, or `layout` (a W3C log's fields with no
    /// `#Fields:` line).
    pub field: &'static str,
    /// The field it was read from: `extra_2`; the duration's name for its unit.
    pub from: String,
    /// How it was read: `$upstream_status`; the unit (`s`) for a duration.
    pub read_as: String,
    /// The flag, as typed, that makes it given: `--log-format 'combined $upstream_status'`,
    /// `--duration-unit s`.
    pub given_by: String,
}

/// One of a file's line formats and the lines it read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormatLines {
    pub name: String,
    pub lines: u64,
    /// The first and last line it read (0 when it read none).
    pub first_line: u64,
    pub last_line: u64,
    /// The roles its fields play (`timestamp`, `status`, ...).
    pub roles: Vec<&'static str>,
    /// Why its lines could not be counted beside the file's first format's (they are bad
    /// rows), when so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// `processed_twice`: on a server's own log keyed by event id (or idempotency key), the
/// intents whose attempts were answered 2xx more than once: executed twice, as seen.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProcessedTwice {
    /// Intents with two or more executions.
    pub intents: u64,
    /// Executions past each intent's first: the duplicates that happened.
    pub extra_executions: u64,
    /// `extra_executions` over the days covered; `null` without timestamps.
    pub per_day: Option<f64>,
}

/// Lines of one kind skipped as not access lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedLines {
    /// `stderr`, or empty when the envelope has no stream.
    pub stream: String,
    pub kind: String,
    pub lines: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DayRow {
    pub date: String,
    pub mutating: u64,
    pub timed_out: u64,
    pub timed_out_succeeded: Option<u64>,
    pub timed_out_unknown: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProxyRetriesObserved {
    /// Mutating attempts whose proxy count was read.
    pub attempts: u64,
    /// Of those, the ones the proxy retried at least once.
    pub retried: u64,
    /// The proxy's retries in all.
    pub retries: u64,
    /// Mean retries per attempt.
    pub mean: f64,
    /// Most retries of one attempt.
    pub max: u64,
    /// The load this layer puts on the one below it: tries per client attempt, 1 + `mean`
    /// (the layers figure's attempts per layer, as measured for the proxy's layer).
    pub attempts_per_attempt: f64,
    /// The most tries of one client attempt, 1 + `max`.
    pub attempts_max: u64,
}

impl ProxyRetriesObserved {
    pub fn of(p: &crate::logs::ProxyRetries) -> ProxyRetriesObserved {
        let mean = p.retries as f64 / p.attempts as f64;
        ProxyRetriesObserved {
            attempts: p.attempts,
            retried: p.retried,
            retries: p.retries,
            mean,
            max: p.max,
            attempts_per_attempt: 1.0 + mean,
            attempts_max: p.max.saturating_add(1),
        }
    }
}

/// `observed.amplification`: the model's layers figure (`amplification`: the scenario's
/// `layers` layers, each making the client's r + 1 attempts) with one more layer below them
/// whose tries are measured, the proxy's (Envoy's `%UPSTREAM_REQUEST_ATTEMPT_COUNT%`,
/// Traefik's `RetryAttempts`, HAProxy's retries, nginx's `$upstream_addr`s).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AmplificationObserved {
    /// The layer measured: `proxy`.
    pub layer: &'static str,
    /// Mutating attempts whose proxy tries were read.
    pub attempts: u64,
    /// Tries the proxy made at the layer below a client attempt: the mean (1 + its mean
    /// retries) and the most of one attempt.
    pub attempts_mean: f64,
    pub attempts_max: u64,
    /// The layers counted: the scenario's (`inputs.layers`) and the proxy's.
    pub layers: u32,
    /// Expected attempts below the proxy per intent: `amplification.expected` x
    /// `attempts_mean`.
    pub expected: f64,
    /// The most, as measured at the proxy: `amplification.worst_case` x `attempts_max`.
    pub worst_case: f64,
    /// The proxy's layer as the model would have had it, making the client's r + 1 attempts
    /// (`(r + 1)^(layers + 1)` in all, worst case), for comparison.
    pub modelled_worst_case: f64,
}

impl AmplificationObserved {
    /// The proxy's measured tries `p` below the scenario's layers.
    pub fn of(p: &ProxyRetriesObserved, scenario: &Scenario) -> AmplificationObserved {
        let model = crate::model::Estimate::new(*scenario).amplification;
        let per_layer = f64::from(scenario.retries) + 1.0;
        AmplificationObserved {
            layer: "proxy",
            attempts: p.attempts,
            attempts_mean: p.attempts_per_attempt,
            attempts_max: p.attempts_max,
            layers: scenario.layers.saturating_add(1),
            expected: model.expected * p.attempts_per_attempt,
            worst_case: model.worst_case * p.attempts_max as f64,
            modelled_worst_case: model.worst_case * per_layer,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RetriesObserved {
    /// Mean retries per keyed intent (mean attempts - 1).
    pub mean: f64,
    /// Most retries of one keyed intent (most attempts - 1).
    pub max: u32,
}

/// The endpoints a report leaves out of its top list, summed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EndpointsOther {
    /// How many endpoints.
    pub endpoints: u64,
    pub mutating: u64,
    pub timed_out: u64,
    pub duplicates_per_month: f64,
    pub refund_per_month: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EndpointRow {
    pub method: String,
    pub route: String,
    pub mutating: u64,
    pub timed_out: u64,
    pub timed_out_succeeded: Option<u64>,
    pub timed_out_unknown: Option<u64>,
    pub duplicates_per_month: f64,
    pub refund_per_month: f64,
    /// It has the minimum evidence (30 mutating attempts) for its own timeout rate; when not,
    /// its own rate is thin (still the one its estimate uses) and it is listed after the
    /// endpoints that have it.
    pub enough_evidence: bool,
    /// The endpoint's own inputs, as its estimate used them (not in the JSON: its counts are).
    #[serde(skip)]
    pub requests_per_day: f64,
    #[serde(skip)]
    pub timeout_rate: f64,
    /// Over its known outcomes; `None` when the log cannot tell and the scenario's is used.
    #[serde(skip)]
    pub succeeded_share: Option<f64>,
    /// The factor its own estimate took so that the rows add up to the total (not in the
    /// JSON); `None` where no endpoint's own estimate had a duplicate and the total was
    /// shared by mutating attempts.
    #[serde(skip)]
    pub scale: Option<f64>,
    /// Its mutating attempts with an idempotency key (for `key_coverage`).
    #[serde(skip)]
    pub keyed_attempts: u64,
    /// The proxy's own retries on this endpoint, where a format logs them (left out of the
    /// JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_retries: Option<ProxyRetriesObserved>,
}

/// The most retries the model accepts (`docs/MODEL.md`: integer 0..=100).
pub const MAX_RETRIES: u32 = 100;

/// How many endpoints the report lists.
pub const TOP_ENDPOINTS: usize = 10;
