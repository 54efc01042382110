//! From a finished [`Tally`](super::Tally) to the model's inputs, each with the rows behind it (`docs/MODEL.md`,
//! "From access logs").
//!
//! * requests_per_day = intents / days covered (the span between the first and last
//!   timestamp, as a float). Rows sharing an idempotency key are one intent; without a key
//!   column every mutating attempt is an intent.
//! * timeout_rate = timed-out mutating attempts / mutating attempts.
//! * succeeded_share = timed-out attempts whose upstream status is 2xx / timed-out attempts.
//! * retries = the most attempts seen for one keyed intent, minus one, clamped to 0..=100:
//!   the retry budget the clients showed (an intent retried until it gave up shows all of
//!   it). Without keys, retries come from the scenario (flag, file or default).
//! * body_bytes = the mean size of the 2xx mutating responses, when the log has a `bytes`
//!   column: the body a key store would save. Without one, it comes from the scenario.
//!
//! A figure the log cannot give is an error naming the flag that supplies it, unless that
//! flag was given; a given flag always wins over the measured figure.

use serde::Serialize;

use super::analyze::LogAnalysis;
use super::error::LogError;
use super::formats::FlagsStyle;
use super::intervals::{self, Intervals, MIN_EVIDENCE};
use super::outcomes::Join;
use super::role::Role;
use super::row::Grouping;
use super::timestamp::{MICROS_PER_DAY, date_string, to_rfc3339};
use crate::inputs::{Input, Source, Sources};
use crate::model::{Estimate, Scenario};
use crate::units::Rate;

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
    /// How it was obtained, e.g. `timeout rate 1.94% = 662 timed out / 34,094 mutating attempts`.
    pub evidence: String,
}

/// The scenario for the model, its measured inputs, and the observed figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derived {
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
    pub warnings: Vec<String>,
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
    /// The top 10 endpoints by estimated duplicates a month.
    pub per_endpoint: Vec<EndpointRow>,
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
    pub note: Option<String>,
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
    fn of(p: &super::tally::ProxyRetries) -> ProxyRetriesObserved {
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

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RetriesObserved {
    /// Mean retries per keyed intent (mean attempts - 1).
    pub mean: f64,
    /// Most retries of one keyed intent (most attempts - 1).
    pub max: u32,
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
    /// its estimate uses the whole log's and it is listed after the endpoints that have it.
    pub enough_evidence: bool,
    /// The endpoint's own inputs, as its estimate used them (not in the JSON: its counts are).
    #[serde(skip)]
    pub requests_per_day: f64,
    #[serde(skip)]
    pub timeout_rate: f64,
    /// Over its known outcomes; `None` when the log cannot tell and the scenario's is used.
    #[serde(skip)]
    pub succeeded_share: Option<f64>,
    /// Its mutating attempts with an idempotency key (for `key_coverage`).
    #[serde(skip)]
    pub keyed_attempts: u64,
    /// The proxy's own retries on this endpoint, where a format logs them (left out of the
    /// JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_retries: Option<ProxyRetriesObserved>,
}

/// The most retries the model accepts (`docs/MODEL.md`: integer 0..=100).
const MAX_RETRIES: u32 = 100;

/// How many endpoints the report lists.
pub const TOP_ENDPOINTS: usize = 10;

impl LogAnalysis {
    /// Days the log covers (timestamp span), or `None` without timestamps or rows.
    pub fn days_covered(&self) -> Option<f64> {
        if !self.has_timestamps() {
            return None;
        }
        let (first, last) = (self.tally.first_ts?, self.tally.last_ts?);
        Some((last - first) as f64 / MICROS_PER_DAY as f64)
    }

    /// The key column looks per-attempt (a request id under another name): every key was
    /// seen once, yet attempts timed out, so clients that retried would have shown it.
    pub fn keys_look_per_attempt(&self) -> bool {
        let t = &self.tally;
        t.keyed.intents > 0 && t.keyed.max_attempts <= 1 && t.counts.timed_out > 0
    }

    /// The model's scenario from `base` (the inputs the log cannot give) and the log, with
    /// `given` inputs winning over measured ones; `base`'s inputs are taken as defaults.
    pub fn derive(&self, base: &Scenario, given: &Overrides) -> Result<Derived, LogError> {
        let mut sources = Sources::default();
        for (input, given) in [
            (Input::RequestsPerDay, given.requests_per_day.is_some()),
            (Input::TimeoutRate, given.timeout_rate.is_some()),
            (Input::SucceededShare, given.succeeded_share.is_some()),
            (Input::Retries, given.retries.is_some()),
            (Input::BodyBytes, given.body_bytes.is_some()),
        ] {
            if given {
                sources.set(input, Source::Flag);
            }
        }
        self.derive_from(base, given, &sources)
    }

    /// [`LogAnalysis::derive`], with where each input of `base` came from (`sources`: the
    /// default, the `--scenario` file, a preset or a flag), for the report's `sources` and for
    /// the evidence of a figure the log gives too little of.
    pub fn derive_from(
        &self,
        base: &Scenario,
        given: &Overrides,
        sources: &Sources,
    ) -> Result<Derived, LogError> {
        let t = &self.tally;
        let c = t.counts;
        let methods = self.options.methods.join(", ");
        let no_mutating = || format!("no mutating ({methods}) requests in the log");
        let days = self.days_covered();
        let mut warnings = self.warnings();
        let per_attempt = self.keys_look_per_attempt();

        // requests_per_day
        let intents_text = if t.keyed.intents == 0 && t.fingerprinted.intents > 0 {
            format!(
                "{} ({})",
                plural(t.intents(), "intent"),
                self.fingerprint_text()
            )
        } else if t.keyed.intents == 0 {
            format!(
                "{} (no idempotency keys: each mutating attempt is an intent)",
                plural(t.intents(), "intent")
            )
        } else if per_attempt {
            format!(
                "{} (the key column looks per-attempt: each mutating attempt is an intent)",
                plural(t.intents(), "intent")
            )
        } else if t.unkeyed_intents == 0 {
            format!(
                "{} (grouped by idempotency key)",
                plural(t.intents(), "intent")
            )
        } else {
            format!(
                "{} ({} keyed + {} without a key)",
                plural(t.intents(), "intent"),
                count(t.keyed.intents),
                plural(t.unkeyed_intents, "attempt")
            )
        };
        let min_span = self.options.min_span;
        let n_measured = match days {
            _ if c.mutating == 0 => Err(no_mutating()),
            None => Err(self.no_timestamp_reason()),
            Some(d) if d <= 0.0 => {
                Err("the log's timestamps span no time (first = last)".to_string())
            }
            Some(d) if d * 86_400.0 < min_span.as_secs_f64() => Err(format!(
                "the log's timestamps span only {}, less than --min-span {}: too short to scale to a day",
                duration_text(d * 86_400.0),
                duration_text(min_span.as_secs_f64())
            )),
            Some(d) => Ok(t.intents() as f64 / d),
        };
        let n_interval = n_measured
            .as_ref()
            .ok()
            .map(|_| intervals::per_day(t.intents(), days.unwrap_or(0.0), &self.daily_intents()));
        let n = pick(
            "requests_per_day",
            "--requests-per-day",
            "requests a day",
            given.requests_per_day,
            n_measured,
            |v| {
                format!(
                    "requests a day {} = {intents_text} / {} days",
                    count_f(v),
                    count_f(days.unwrap_or(0.0))
                )
            },
            |v| format!("requests a day {}", count_f(v)),
        )?;

        // timeout_rate
        let t_measured = if c.mutating == 0 {
            Err(no_mutating())
        } else {
            Ok(c.timed_out as f64 / c.mutating as f64)
        };
        let statuses: Vec<String> = self
            .options
            .timeout_statuses
            .iter()
            .map(u16::to_string)
            .collect();
        let mut also = String::new();
        if let Some(f) = self.files.iter().find(|f| f.columns.flags.is_some()) {
            also.push_str(match f.columns.flags_style {
                FlagsStyle::Envoy => " or flags UT, DC, UC, URX",
                FlagsStyle::Haproxy => " or termination state c, C, s, S",
                FlagsStyle::Cloudfront => " or result type ClientCommError, ClientHungUpRequest",
                FlagsStyle::Iis => " or sc-win32-status 64, 1236, 12002",
                FlagsStyle::Cloudflare => " or edge status 524",
                FlagsStyle::GoogleCloud => {
                    " or statusDetails client_disconnected_before_any_response, client_timed_out, backend_timeout"
                }
            });
        }
        if let Some(d) = self.options.client_timeout {
            also.push_str(&format!(" or took {}s or more", d.as_secs_f64()));
            if let Some(f) = self.files.iter().find(|f| f.columns.duration_unit_assumed) {
                also.push_str(&format!(
                    ", {} read in {}, assumed",
                    f.columns.header_of(Role::Duration).unwrap_or("duration"),
                    f.columns.duration_unit.name()
                ));
            }
        }
        let to = pick(
            "timeout_rate",
            "--timeout-rate",
            "timeout rate",
            given.timeout_rate,
            t_measured,
            |v| {
                format!(
                    "timeout rate {} = {} (status {}{also}) / {}",
                    Rate(v).rounded(),
                    plural_verb(c.timed_out, "timed out"),
                    statuses.join(", "),
                    plural(c.mutating, "mutating attempt")
                )
            },
            |v| format!("timeout rate {}", Rate(v).rounded()),
        )?;
        let to = thin(
            to,
            base.timeout_rate,
            c.mutating,
            "mutating attempt",
            sources.get(Input::TimeoutRate),
            |v| Rate(v).rounded(),
        );

        // succeeded_share
        let (s, s_interval) = self.succeeded_share(base, given, sources)?;

        // retries
        // Keys when the log has them, else fingerprints.
        let (grouped, grouped_by) = if t.keyed.intents > 0 || t.fingerprinted.intents == 0 {
            (t.keyed, "keyed intent")
        } else {
            (t.fingerprinted, "fingerprinted intent")
        };
        let retries_observed = (grouped.intents > 0).then(|| RetriesObserved {
            mean: grouped.attempts as f64 / grouped.intents as f64 - 1.0,
            max: grouped.max_attempts.saturating_sub(1),
        });
        let fingerprint_text = (grouped_by != "keyed intent").then(|| self.fingerprint_text());
        // A key column with no key in it, beside the client's address: auto chose keys.
        let keyless_key_column = self.files.iter().find(|f| {
            f.grouping == Grouping::Key
                && (f.columns.client_addr.is_some() || f.columns.forwarded_for.is_some())
        });
        if let (Some(f), 0, true) = (keyless_key_column, t.keyed_attempts, c.mutating > 0) {
            warnings.push(format!(
                "the key column {} of {} carried no key: every mutating attempt is an intent; --intents fingerprint groups them by client instead",
                f.columns.header_of(Role::IdempotencyKey).unwrap_or("idempotency_key"),
                f.name
            ));
        }
        if per_attempt {
            let header = self
                .files
                .iter()
                .find_map(|f| f.columns.header_of(Role::IdempotencyKey))
                .unwrap_or("idempotency_key");
            warnings.push(format!(
                "the key column {header} looks per-attempt ({} seen once each, yet {}): it was ignored for intents and retries; map the clients' idempotency key with --column idempotency_key=HEADER, or give --retries",
                plural(t.keyed.intents, "key"),
                plural_verb(c.timed_out, "attempt timed out"),
            ));
        }
        let mut r = match (given.retries, retries_observed) {
            (Some(r), obs) => Measured {
                input: "retries",
                flag: "--retries",
                value: f64::from(r),
                measured: obs
                    .filter(|_| !per_attempt)
                    .map(|o| f64::from(o.max.min(MAX_RETRIES))),
                from_flag: true,
                evidence: format!(
                    "retries {r} from --retries{}",
                    obs.filter(|_| !per_attempt)
                        .map(|o| format!(
                            " (measured: {})",
                            retries_text(o, grouped.intents, grouped_by)
                        ))
                        .unwrap_or_default()
                ),
            },
            (None, Some(o)) if !per_attempt && grouped.timed_out_intents < MIN_EVIDENCE => {
                let r = o.max.min(MAX_RETRIES);
                Measured {
                    input: "retries",
                    flag: "--retries",
                    value: f64::from(base.retries),
                    measured: Some(f64::from(r)),
                    from_flag: true,
                    evidence: format!(
                        "retries: measured {} from {}: too few (needs {MIN_EVIDENCE}); using {} (the log: {})",
                        if r == 1 {
                            "1 retry".to_string()
                        } else {
                            format!("{r} retries")
                        },
                        plural(
                            grouped.timed_out_intents,
                            &format!("timed-out {grouped_by}")
                        ),
                        sources.get(Input::Retries).value(&base.retries.to_string()),
                        retries_text(o, grouped.intents, grouped_by),
                    ),
                }
            }
            (None, Some(o)) if !per_attempt => {
                let r = o.max.min(MAX_RETRIES);
                Measured {
                    input: "retries",
                    flag: "--retries",
                    value: f64::from(r),
                    measured: Some(f64::from(r)),
                    from_flag: false,
                    evidence: format!(
                        "retries {r} = {}{}",
                        retries_text(o, grouped.intents, grouped_by),
                        fingerprint_text
                            .as_ref()
                            .map(|f| format!("; {f}"))
                            .unwrap_or_default()
                    ),
                }
            }
            (None, _) => Measured {
                input: "retries",
                flag: "--retries",
                value: f64::from(base.retries),
                measured: None,
                from_flag: true,
                evidence: if per_attempt {
                    format!(
                        "retries {} from the scenario (--retries): the key column looks per-attempt, so attempts per intent are not known",
                        base.retries
                    )
                } else {
                    format!(
                        "retries {} from the scenario (--retries): no idempotency keys in the log, so attempts per intent are not known",
                        base.retries
                    )
                },
            },
        };

        if let Some(p) = self.proxy_retries() {
            r.evidence.push_str(&format!(
                "; beside the client's, the proxy retried {} of {} mutating attempts itself ({} in all, at most {} for one attempt): another layer's retries, measured: {:.3} tries at the backend a client attempt (at most {})",
                count(p.retried),
                count(p.attempts),
                count(p.retries),
                p.max,
                p.attempts_per_attempt,
                p.attempts_max
            ));
        }

        // body_bytes: the mean response of 2xx mutating requests, when the log has sizes.
        let body = t.response_bytes.mean().map(|mean| {
            let text = |v: f64| crate::report::human::size(v);
            let rows = count(t.response_bytes.rows);
            match given.body_bytes {
                Some(b) => Measured {
                    input: "body_bytes",
                    flag: "--body-bytes",
                    value: b as f64,
                    measured: Some(mean.round()),
                    from_flag: true,
                    evidence: format!(
                        "saved body {} from --body-bytes (measured: mean of {rows} 2xx mutating responses, {})",
                        text(b as f64),
                        text(mean)
                    ),
                },
                None => Measured {
                    input: "body_bytes",
                    flag: "--body-bytes",
                    value: mean.round(),
                    measured: Some(mean.round()),
                    from_flag: false,
                    evidence: format!(
                        "saved body {} = mean response size of {rows} 2xx mutating requests",
                        text(mean)
                    ),
                },
            }
        });

        let scenario = Scenario {
            requests_per_day: n.value,
            timeout_rate: to.value,
            succeeded_share: s.value,
            retries: r.value as u32,
            body_bytes: body.as_ref().map_or(base.body_bytes, |b| b.value as u64),
            ..*base
        };
        let point = |m: &Measured, measured: Option<[f64; 2]>| match (m.from_flag, measured) {
            (false, Some(i)) => i,
            _ => [m.value, m.value],
        };
        let intervals = Intervals::propagate(
            &scenario,
            point(&n, n_interval),
            point(&to, Some(intervals::wilson(c.timed_out, c.mutating))),
            point(&s, s_interval),
        );
        let mut observed = self.observed(&scenario, retries_observed, !s.from_flag);
        observed.observed_duplicates = self.observed_duplicates(&scenario, &intervals);
        observed.warnings = warnings;
        let mut sources = *sources;
        for m in [&n, &to, &s, &r].into_iter().chain(&body) {
            if !m.from_flag {
                if let Some(input) = Input::from_name(m.input) {
                    sources.set(input, Source::Log);
                }
            }
        }
        let mut measured = vec![n, to, s, r];
        measured.extend(body);
        Ok(Derived {
            scenario,
            measured,
            observed,
            intervals,
            sources,
        })
    }

    /// The succeeded share with its evidence, and its interval when measured.
    fn succeeded_share(
        &self,
        base: &Scenario,
        given: &Overrides,
        sources: &Sources,
    ) -> Result<(Measured, Option<[f64; 2]>), LogError> {
        let source = sources.get(Input::SucceededShare);
        let c = self.tally.counts;
        let make =
            |value: f64, measured: Option<f64>, from_flag: bool, evidence: String| Measured {
                input: "succeeded_share",
                flag: "--succeeded-share",
                value,
                measured,
                from_flag,
                evidence,
            };
        // The share --succeeded-share gave, with what the log says beside it.
        let given_with = |value: f64, measured: Option<f64>, note: String| {
            make(
                value,
                measured,
                true,
                format!(
                    "succeeded share {} from --succeeded-share ({note})",
                    Rate(value).rounded()
                ),
            )
        };
        if c.timed_out == 0 {
            // With no timeouts the share multiplies nothing: it cannot change the result.
            let why = if c.mutating == 0 {
                "no mutating requests".to_string()
            } else {
                "no timed-out mutating attempts".to_string()
            };
            return Ok((
                match given.succeeded_share {
                    Some(v) => given_with(
                        v,
                        None,
                        format!("{why} in the log, so it cannot change the result"),
                    ),
                    None => make(
                        base.succeeded_share,
                        None,
                        false,
                        format!(
                            "succeeded share not measured: {why} in the log, so it cannot change the result"
                        ),
                    ),
                },
                None,
            ));
        }
        if !self.has_outcomes() {
            let lacking = self
                .files
                .iter()
                .find(|f| !f.all_have(|c| c.upstream_status.is_some()));
            let file = lacking.map_or("the log".to_string(), |f| {
                f.lacking(|c| c.upstream_status.is_some())
            });
            // A preset detected with fields after it: the status may be among those not read.
            let unread = lacking
                .and_then(|f| f.format.as_deref())
                .filter(|d| d.ends_with(super::formats::UNREAD_FIELDS))
                .map_or(String::new(), |_| {
                    "; its lines have fields after the detected layout that are not read: give the server's own format with --log-format to read them".to_string()
                });
            let why = format!(
                "{file} has no upstream status column (map one with --column upstream_status=HEADER, join the backend's own log with --outcomes FILE, or give --log-side server if the server that does the work wrote it){unread}"
            );
            return match given.succeeded_share {
                Some(v) => Ok((given_with(v, None, why), None)),
                // Too few timed-out attempts to measure it even with their outcomes.
                None if c.timed_out < MIN_EVIDENCE => Ok((
                    make(
                        base.succeeded_share,
                        None,
                        true,
                        format!(
                            "succeeded share: not measured from {}: too few (needs {MIN_EVIDENCE}), and {why}; using {}",
                            plural(c.timed_out, "timed-out attempt"),
                            source.value(&Rate(base.succeeded_share).rounded()),
                        ),
                    ),
                    None,
                )),
                None => Err(LogError::Underivable {
                    figure: "the succeeded share",
                    reason: why,
                    flag: "--succeeded-share",
                }),
            };
        }
        let (succ, unknown, all) = (c.timed_out_succeeded, c.timed_out_unknown, c.timed_out);
        let known = all - unknown;
        let bounds = [
            succ as f64 / all as f64,
            (succ + unknown) as f64 / all as f64,
        ];
        let too_many = known == 0 || unknown as f64 > self.options.max_unknown * all as f64;
        let bounds_text = format!("{} to {}", pct3(bounds[0]), pct3(bounds[1]));
        // The interval: Wilson over the known outcomes, widened to the Wilson intervals of
        // the bounds when some are unknown.
        let interval = if unknown == 0 {
            intervals::wilson(succ, all)
        } else {
            [
                intervals::wilson(succ, all)[0],
                intervals::wilson(succ + unknown, all)[1],
            ]
        };
        let shown = self.share_evidence(succ, unknown, all, &bounds_text);
        if given.succeeded_share.is_none() && known < MIN_EVIDENCE {
            let measured = (known > 0).then(|| succ as f64 / known as f64);
            let what = match measured {
                Some(v) => format!("measured {}", Rate(v).rounded()),
                None => "not measured".to_string(),
            };
            let the_log = match measured {
                Some(v) => format!(" (the log: {})", shown(v)),
                None => format!(" ({} timed out, all with an unknown outcome)", count(all)),
            };
            return Ok((
                make(
                    base.succeeded_share,
                    measured,
                    true,
                    format!(
                        "succeeded share: {what} from {} with a known outcome: too few (needs {MIN_EVIDENCE}); using {}{the_log}",
                        plural(known, "timed-out attempt"),
                        source.value(&Rate(base.succeeded_share).rounded()),
                    ),
                ),
                None,
            ));
        }
        if too_many {
            return match given.succeeded_share {
                Some(v) => Ok((
                    given_with(
                        v,
                        None,
                        format!(
                            "measured: between {bounds_text}: {} with an unknown outcome of {} timed out",
                            count(unknown),
                            count(all)
                        ),
                    ),
                    None,
                )),
                None => Err(LogError::unknown_outcomes(
                    &count(unknown),
                    &count(all),
                    &pct3(unknown as f64 / all as f64),
                    [&pct3(bounds[0]), &pct3(bounds[1])],
                    &pct3(self.options.max_unknown),
                )),
            };
        }
        let v = succ as f64 / known as f64;
        let evidence = shown(v);
        Ok(match given.succeeded_share {
            Some(g) => (
                given_with(g, Some(v), format!("measured: {evidence}")),
                None,
            ),
            None => (make(v, Some(v), false, evidence), Some(interval)),
        })
    }

    /// `succeeded share 48% = 330 answered 2xx by the backend / 688 timed out (...)`.
    fn share_evidence(
        &self,
        succ: u64,
        unknown: u64,
        all: u64,
        bounds_text: &str,
    ) -> impl Fn(f64) -> String {
        let known = all - unknown;
        let unknown_text = if unknown > 0 {
            format!(
                "; {} of {} unknown and left out: counted as all failed or all succeeded, {bounds_text}",
                count(unknown),
                count(all)
            )
        } else {
            String::new()
        };
        let join = self.join.clone();
        let server = self.is_server_log();
        move |v: f64| match &join {
            Some(j) if j.outside_span == 0 && j.without_id == 0 => format!(
                "succeeded share {} = {} answered 2xx by the backend / {} timed out ({} never reached it, {} outside the backend log's span{unknown_text})",
                Rate(v).rounded(),
                count(succ),
                count(known),
                count(j.never_reached),
                count(j.outside_span),
            ),
            Some(j) => format!(
                "succeeded share {} = {} succeeded / {} timed out with a known outcome ({} answered 2xx by the backend, {} never reached it; {} outside the backend log's span and {} without a request id as the proxy logged them{unknown_text})",
                Rate(v).rounded(),
                count(succ),
                count(known),
                count(j.matched_succeeded),
                count(j.never_reached),
                count(j.outside_span),
                count(j.without_id),
            ),
            None if server && unknown == 0 => format!(
                "succeeded share {} = {} answered 2xx by the server itself after the client gave up / {} timed out (the server's own log: its status is the outcome)",
                Rate(v).rounded(),
                count(succ),
                count(all)
            ),
            None if unknown == 0 => format!(
                "succeeded share {} = {} with upstream 2xx / {} timed out",
                Rate(v).rounded(),
                count(succ),
                count(all)
            ),
            None => format!(
                "succeeded share {} = {} with upstream 2xx / {} timed out with a known outcome ({} of {} unknown, upstream -, 0 or the proxy's own 408, 460, 499, 502, 504: counted as all failed or all succeeded, {bounds_text})",
                Rate(v).rounded(),
                count(succ),
                count(known),
                count(unknown),
                count(all),
            ),
        }
    }

    /// Why requests a day needs a timestamp column, naming the headers and the fix.
    fn no_timestamp_reason(&self) -> String {
        let file = self.files.iter().find(|f| f.columns.timestamp.is_none());
        match file {
            Some(f) => format!(
                "{} has no timestamp column (looked for {}; headers found: {}; map one with --column timestamp=HEADER)",
                f.name,
                Role::Timestamp.aliases().join(", "),
                f.columns.headers.join(", ")
            ),
            None => "the log has no timestamp column".to_string(),
        }
    }

    /// Intents on each whole UTC day strictly inside the span (0 for a day with none), from
    /// the mutating attempts of the day scaled by intents per attempt.
    fn daily_intents(&self) -> Vec<f64> {
        let t = &self.tally;
        let (Some(first), Some(last)) = (t.first_ts, t.last_ts) else {
            return Vec::new();
        };
        if t.counts.mutating == 0 {
            return Vec::new();
        }
        let per_attempt = t.intents() as f64 / t.counts.mutating as f64;
        let (d0, d1) = (
            first.div_euclid(MICROS_PER_DAY),
            last.div_euclid(MICROS_PER_DAY),
        );
        (d0 + 1..d1)
            .map(|d| {
                t.per_day
                    .get(&d)
                    .map_or(0.0, |c| c.mutating as f64 * per_attempt)
            })
            .collect()
    }

    /// `grouped by fingerprint (client, UA, method, path+query): joined 1,204 attempts into
    /// 1,100 intents`, with the attempts that had no client address and the shared ones.
    fn fingerprint_text(&self) -> String {
        let t = &self.tally;
        let f = t.fingerprinted;
        let length = if self
            .files
            .iter()
            .any(|f| f.columns.request_length.is_some())
        {
            ", request length"
        } else {
            ""
        };
        let mut text = format!(
            "grouped by fingerprint (client, UA, method, path+query{length}): joined {} into {}",
            plural(f.attempts, "attempt"),
            plural(f.intents, "intent")
        );
        if t.unkeyed_intents > 0 {
            let _ = std::fmt::Write::write_fmt(
                &mut text,
                format_args!(
                    "; {} without a client address, each an intent",
                    plural(t.unkeyed_intents, "attempt")
                ),
            );
        }
        text
    }

    /// How the attempts were grouped: by key where any input has a key column (and
    /// `--intents` allows it), else by fingerprint, else none.
    pub fn intent_grouping(&self) -> &'static str {
        let any = |g: Grouping| self.files.iter().any(|f| f.grouping == g);
        if any(Grouping::Key) {
            "key"
        } else if any(Grouping::Fingerprint) {
            "fingerprint"
        } else {
            "none"
        }
    }

    /// The duplicates the fingerprinted intents showed, beside the model's prediction.
    fn observed_duplicates(
        &self,
        scenario: &Scenario,
        intervals: &Intervals,
    ) -> Option<ObservedDuplicates> {
        // With keys, a retry answered 2xx may be a key store's replay: only the backend's own
        // log (`--outcomes`) says which attempts executed.
        match self.intent_grouping() {
            "none" => return None,
            "key" if self.join.is_none() => return None,
            _ => {}
        }
        let t = &self.tally;
        let d = t.duplicates;
        let per_day = self
            .days_covered()
            .filter(|d| *d > 0.0)
            .map(|days| d.count as f64 / days);
        let predicted = Estimate::new(*scenario).duplicates.per_day;
        let m = scenario.days_per_month;
        let interval = intervals.duplicates_per_month.map(|v| v / m);
        let unknown = t.counts.timed_out_unknown;
        let note = per_day.and_then(|observed| {
            let days = observed / d.count.max(1) as f64;
            if observed < interval[0] {
                let mut why = Vec::new();
                if d.conflict_409_422 > 0 {
                    why.push(format!(
                        "{} refused by a uniqueness check (409 or 422) did not execute twice ({} a day with them)",
                        plural(d.conflict_409_422, "retried intent"),
                        count_f((d.count + d.conflict_409_422) as f64 * days)
                    ));
                }
                if !self.has_outcomes() {
                    why.push("the log has no upstream status (or --outcomes) to show what a timed-out attempt did".to_string());
                } else if unknown > 0 {
                    why.push(format!(
                        "{} with an unknown outcome cannot count",
                        plural(unknown, "timed-out attempt")
                    ));
                }
                why.push(
                    "retries sent from another address or after --retry-window are not grouped"
                        .to_string(),
                );
                Some(format!(
                    "fewer duplicates are seen than the model predicts: {}",
                    why.join("; ")
                ))
            } else if observed > interval[1] {
                Some(format!(
                    "more duplicates are seen than the model predicts: clients retry more than {} (the retries input), or distinct intents share a fingerprint (clients behind one address; see --shared-address-rate)",
                    plural(u64::from(scenario.retries), "retry")
                ))
            } else {
                None
            }
        });
        // Read from stdin, the proxy log could not be read again with the backend's answers.
        let note = match (&self.join, note) {
            (Some(j), note) if !j.per_intent => Some(format!(
                "the backend log (--outcomes) is not joined per intent (the proxy log came from stdin and cannot be read twice): these duplicates are only those the proxy log shows, a lower bound{}",
                note.map(|n| format!("; {n}")).unwrap_or_default()
            )),
            (_, note) => note,
        };
        let note = if self.intent_grouping() == "key" {
            let replay = "grouped by key, an attempt is counted as executed when it was answered 2xx or the backend's log answered it 2xx: if the service replays a key's first answer and logs the replay 2xx, those replays are counted too";
            Some(note.map_or(replay.to_string(), |n| format!("{n}; {replay}")))
        } else {
            note
        };
        Some(ObservedDuplicates {
            count: d.count,
            per_day,
            predicted_per_day: predicted,
            predicted_per_day_interval: interval,
            evidence: DuplicateEvidence {
                upstream_2xx: d.upstream_2xx,
                outcomes: d.outcomes,
                conflict_409_422: d.conflict_409_422,
            },
            note,
        })
    }

    /// Warnings about the log itself: missing days, a clock running backwards, the backend
    /// log's gaps.
    fn warnings(&self) -> Vec<String> {
        let t = &self.tally;
        let mut out = Vec::new();
        if self.options.client_timeout.is_some() {
            // The timeout is compared with durations in a unit that nothing said.
            for f in self
                .files
                .iter()
                .filter(|f| f.columns.duration_unit_assumed)
            {
                out.push(format!(
                    "{}: its duration field {} says no unit (neither its name nor a format's documentation): read as {}, so --client-timeout compares with an assumed unit; give --duration-unit s, ms, us or ns",
                    f.name,
                    f.columns.header_of(Role::Duration).unwrap_or("duration"),
                    f.columns.duration_unit.name()
                ));
            }
        }
        if self.is_server_log() && self.options.client_timeout.is_none() {
            out.push(
                "a server's own log does not show when the client gave up: only give-up statuses \
                 count as timeouts; give the client's (or webhook sender's) timeout with \
                 --client-timeout, or its --preset"
                    .to_string(),
            );
        }
        if self.has_timestamps() {
            if let (Some(first), Some(last)) = (t.first_ts, t.last_ts) {
                let (d0, d1) = (
                    first.div_euclid(MICROS_PER_DAY),
                    last.div_euclid(MICROS_PER_DAY),
                );
                let missing: Vec<i64> = (d0 + 1..d1)
                    .filter(|d| !t.per_day.contains_key(d))
                    .collect();
                if let (Some(a), Some(b)) = (missing.first(), missing.last()) {
                    out.push(format!(
                        "no mutating requests on {} inside the log's span ({}{}): are files missing? requests a day counts them as days with none",
                        plural(missing.len() as u64, "day"),
                        date_string(*a),
                        if a == b { String::new() } else { format!(" to {}", date_string(*b)) }
                    ));
                }
            }
            let window = i64::try_from(self.options.retry_window.as_micros()).unwrap_or(i64::MAX);
            if t.most_backwards > window {
                out.push(format!(
                    "timestamps run backwards by up to {} (more than the retry window, {}): files that overlap in time, or a clock set back; intents near the jump may be split or joined wrongly",
                    duration_text(t.most_backwards as f64 / 1e6),
                    duration_text(self.options.retry_window.as_secs_f64())
                ));
            }
        }
        if let Some(j) = &self.join {
            if j.span.is_none() {
                out.push(format!(
                    "the backend log ({}) has no timestamp column: timed-out attempts missing from it cannot be told never to have reached it, so the proxy log's outcome stands for them",
                    j.files.join(", ")
                ));
            }
            for bad in &j.bad_samples {
                out.push(format!("skipped bad row of the backend log {bad}"));
            }
            if j.backend_bad_rows > j.bad_samples.len() as u64 {
                out.push(format!(
                    "{} of the backend log skipped in all",
                    plural(j.backend_bad_rows, "bad row")
                ));
            }
        }
        out
    }

    /// The observed figures; per-endpoint estimates use `scenario` for the inputs an
    /// endpoint does not measure itself.
    ///
    /// An endpoint's succeeded share is its own only where the whole log's was measured (a
    /// `--succeeded-share` given for the log wins for its endpoints too) and its unknown
    /// outcomes are within `--max-unknown`, as for the whole log; else the scenario's.
    pub fn observed(
        &self,
        scenario: &Scenario,
        retries_observed: Option<RetriesObserved>,
        share_measured: bool,
    ) -> Observed {
        let t = &self.tally;
        let days = self.days_covered().filter(|d| *d > 0.0);
        let stamps = self.has_timestamps();
        let outcomes = self.has_outcomes();
        // Counts of outcomes, only where the logs tell them.
        let told = |v: u64| outcomes.then_some(v);
        let endpoints: Vec<EndpointRow> = t
            .endpoints
            .iter()
            .filter(|(_, e)| e.counts.mutating > 0)
            .map(|(key, e)| {
                let ec = e.counts;
                let n = match days {
                    Some(d) => e.intents as f64 / d,
                    None if t.intents() > 0 => {
                        scenario.requests_per_day * e.intents as f64 / t.intents() as f64
                    }
                    None => 0.0,
                };
                let enough_evidence = ec.mutating >= MIN_EVIDENCE;
                let timeout_rate = if enough_evidence {
                    ec.timed_out as f64 / ec.mutating as f64
                } else {
                    scenario.timeout_rate
                };
                let known = ec.timed_out - ec.timed_out_unknown;
                let own_share = outcomes
                    && share_measured
                    && known >= MIN_EVIDENCE
                    && ec.timed_out_unknown as f64
                        <= self.options.max_unknown * ec.timed_out as f64;
                let succeeded_share =
                    own_share.then(|| ec.timed_out_succeeded as f64 / known as f64);
                let est = Estimate::new(Scenario {
                    requests_per_day: n,
                    timeout_rate,
                    succeeded_share: succeeded_share.unwrap_or(scenario.succeeded_share),
                    ..*scenario
                });
                EndpointRow {
                    method: e.method.clone(),
                    route: e.route.clone(),
                    mutating: ec.mutating,
                    timed_out: ec.timed_out,
                    timed_out_succeeded: told(ec.timed_out_succeeded),
                    timed_out_unknown: told(ec.timed_out_unknown),
                    duplicates_per_month: est.duplicates.per_month,
                    refund_per_month: est.refund_cost.per_month,
                    enough_evidence,
                    requests_per_day: n,
                    timeout_rate,
                    succeeded_share,
                    keyed_attempts: e.keyed_attempts,
                    proxy_retries: t
                        .proxy_retries_by_endpoint
                        .get(key)
                        .filter(|p| p.attempts > 0)
                        .map(ProxyRetriesObserved::of),
                }
            })
            .collect();
        // Endpoints with too little evidence are never ranked as if measured: they come last.
        // (Their places are sorted, not the rows: moving thousands of rows through a sort cost
        // more than building them.)
        let mut order: Vec<usize> = (0..endpoints.len()).collect();
        order.sort_by(|&i, &j| {
            let (a, b) = (&endpoints[i], &endpoints[j]);
            b.enough_evidence
                .cmp(&a.enough_evidence)
                .then(b.duplicates_per_month.total_cmp(&a.duplicates_per_month))
                .then(b.mutating.cmp(&a.mutating))
                .then_with(|| (&a.route, &a.method).cmp(&(&b.route, &b.method)))
        });
        let mut rows: Vec<Option<EndpointRow>> = endpoints.into_iter().map(Some).collect();
        let mut endpoints: Vec<EndpointRow> =
            order.into_iter().filter_map(|i| rows[i].take()).collect();
        let key_coverage = self.key_coverage(&endpoints);
        endpoints.truncate(TOP_ENDPOINTS);
        let mut attempts_per_intent: Vec<AttemptsRow> = t
            .attempts_per_intent
            .iter()
            .map(|(attempts, intents)| AttemptsRow { attempts, intents })
            .collect();
        // Attempts without a key or fingerprint are intents of one attempt each.
        if t.unkeyed_intents > 0 {
            match attempts_per_intent.first_mut() {
                Some(row) if row.attempts == 1 => row.intents += t.unkeyed_intents,
                _ => attempts_per_intent.insert(
                    0,
                    AttemptsRow {
                        attempts: 1,
                        intents: t.unkeyed_intents,
                    },
                ),
            }
        }
        let files = self
            .files
            .iter()
            .map(|f| FileRead {
                name: f.name.clone(),
                input_format: f.format.clone().unwrap_or_else(|| {
                    if f.delimiter == b'\t' { "tsv" } else { "csv" }.to_string()
                }),
                detected: f.format.is_some() && f.detected,
                log_side: f.side.side.name(),
                log_side_why: f.side.why.clone(),
                envelope: f.envelope.clone(),
                document: f.document.clone(),
                skipped: f
                    .skipped
                    .iter()
                    .map(|(stream, kind, lines)| SkippedLines {
                        stream: stream.clone(),
                        kind: kind.clone(),
                        lines: *lines,
                    })
                    .collect(),
                formats: f
                    .formats
                    .iter()
                    .map(|r| FormatLines {
                        name: r.name.clone(),
                        lines: r.lines,
                        first_line: r.first_line,
                        last_line: r.last_line,
                        roles: r.columns.as_ref().map_or(Vec::new(), |c| {
                            Role::ALL
                                .iter()
                                .filter(|&&role| c.header_of(role).is_some())
                                .map(|role| role.name())
                                .collect()
                        }),
                        refused: r.refused.clone(),
                    })
                    .collect(),
                formats_interleaved: f.interleaved,
            })
            .collect();
        let processed_twice = (self.is_server_log() && t.keyed.intents > 0).then(|| {
            let extra = t.keyed_executions.extra;
            ProcessedTwice {
                intents: t.keyed_executions.intents,
                extra_executions: extra,
                per_day: days.map(|d| extra as f64 / d),
            }
        });
        let fingerprinted = self.intent_grouping() == "fingerprint";
        Observed {
            intent_grouping: self.intent_grouping(),
            attempts_per_intent,
            observed_duplicates: None,
            key_coverage,
            shared_addresses: fingerprinted.then_some(SharedAddresses {
                rate: self.options.shared_address_rate,
                fingerprints: t.shared.fingerprints,
                attempts: t.shared.attempts,
            }),
            files,
            processed_twice,
            rows: t.rows,
            mutating_attempts: t.counts.mutating,
            intents: t.intents(),
            timed_out: t.counts.timed_out,
            timed_out_succeeded: told(t.counts.timed_out_succeeded),
            timed_out_unknown: told(t.counts.timed_out_unknown),
            timed_out_matched: self.join.as_ref().map(|j| j.matched),
            rows_filtered: t.out_of_range + t.path_filtered,
            warnings: Vec::new(),
            backend_log: self.join.clone(),
            days_covered: self.days_covered(),
            first_timestamp: t.first_ts.filter(|_| stamps).map(to_rfc3339),
            last_timestamp: t.last_ts.filter(|_| stamps).map(to_rfc3339),
            bad_rows: t.bad_rows,
            per_day: if stamps {
                t.per_day
                    .iter()
                    .map(|(day, c)| DayRow {
                        date: date_string(*day),
                        mutating: c.mutating,
                        timed_out: c.timed_out,
                        timed_out_succeeded: told(c.timed_out_succeeded),
                        timed_out_unknown: told(c.timed_out_unknown),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            retries_observed,
            proxy_retries: self.proxy_retries(),
            per_endpoint: endpoints,
        }
    }
}

impl LogAnalysis {
    /// The proxy's own retries, when a file has a proxy-attempts column.
    fn proxy_retries(&self) -> Option<ProxyRetriesObserved> {
        let p = self.tally.proxy_retries;
        let column = self
            .files
            .iter()
            .any(|f| f.columns.proxy_attempts.is_some());
        (column && p.attempts > 0).then(|| ProxyRetriesObserved::of(&p))
    }

    /// Key coverage, when an input was grouped by key: the endpoints' rows must be all of them
    /// (before the top 10 are kept), each with the estimate its own inputs give.
    fn key_coverage(&self, endpoints: &[EndpointRow]) -> Option<KeyCoverage> {
        if !self.files.iter().any(|f| f.grouping == Grouping::Key) {
            // Grouped by fingerprint, keys were not read: their coverage is not known.
            return None;
        }
        let t = &self.tally;
        let mut rows: Vec<KeyCoverageRow> = endpoints
            .iter()
            .filter_map(|e| {
                let share = e.keyed_attempts as f64 / e.mutating as f64;
                (share < 1.0).then(|| KeyCoverageRow {
                    method: e.method.clone(),
                    route: e.route.clone(),
                    share,
                    duplicates_per_month: e.duplicates_per_month * (1.0 - share),
                    refund_per_month: e.refund_per_month * (1.0 - share),
                })
            })
            .collect();
        rows.sort_by(|a, b| {
            b.refund_per_month
                .total_cmp(&a.refund_per_month)
                .then(b.duplicates_per_month.total_cmp(&a.duplicates_per_month))
                .then_with(|| (&a.route, &a.method).cmp(&(&b.route, &b.method)))
        });
        rows.truncate(TOP_ENDPOINTS);
        let mutating = t.counts.mutating;
        Some(KeyCoverage {
            keyed_attempts: t.keyed_attempts,
            share: if mutating == 0 {
                0.0
            } else {
                t.keyed_attempts as f64 / mutating as f64
            },
            per_endpoint: rows,
        })
    }
}

/// Below the minimum evidence ([`MIN_EVIDENCE`] trials), a figure measured from the log
/// gives way to the scenario's (`base`, from `source`), and the evidence says so: `timeout
/// rate: measured 40% from 5 mutating attempts: too few (needs 30); using the default 1%`.
fn thin(
    m: Measured,
    base: f64,
    trials: u64,
    unit: &str,
    source: Source,
    shown: impl Fn(f64) -> String,
) -> Measured {
    match m.measured {
        Some(v) if !m.from_flag && trials < MIN_EVIDENCE => {
            let figure = m.input.replace('_', " ");
            Measured {
                value: base,
                from_flag: true,
                evidence: format!(
                    "{figure}: measured {} from {}: too few (needs {MIN_EVIDENCE}); using {} (the log: {})",
                    shown(v),
                    plural(trials, unit),
                    source.value(&shown(base)),
                    m.evidence
                ),
                ..m
            }
        }
        _ => m,
    }
}

fn retries_text(o: RetriesObserved, intents: u64, what: &str) -> String {
    let clamp = if o.max > MAX_RETRIES {
        format!(", clamped to {MAX_RETRIES}")
    } else {
        String::new()
    };
    format!(
        "most attempts for one intent - 1 (mean {:.3} retries over {}{clamp})",
        o.mean,
        plural(intents, what)
    )
}

/// The measured value, or the flag's, or the error naming the flag.
#[allow(clippy::too_many_arguments)]
fn pick(
    input: &'static str,
    flag: &'static str,
    figure: &'static str,
    given: Option<f64>,
    measured: Result<f64, String>,
    evidence: impl Fn(f64) -> String,
    plain: impl Fn(f64) -> String,
) -> Result<Measured, LogError> {
    match (given, measured) {
        (Some(v), m) => Ok(Measured {
            input,
            flag,
            value: v,
            measured: m.as_ref().ok().copied(),
            from_flag: true,
            evidence: match m {
                Ok(m) => format!("{} from {flag} (measured: {})", plain(v), evidence(m)),
                Err(why) => format!("{} from {flag} ({why})", plain(v)),
            },
        }),
        (None, Ok(v)) => Ok(Measured {
            input,
            flag,
            value: v,
            measured: Some(v),
            from_flag: false,
            evidence: evidence(v),
        }),
        (None, Err(reason)) => Err(LogError::Underivable {
            figure,
            reason,
            flag,
        }),
    }
}

/// `34,094`.
pub fn count(n: u64) -> String {
    crate::report::human::group_thousands(&n.to_string())
}

/// A rate a day: whole with separators from 100 up, else 3 significant figures (so 0.0043
/// is not shown as 0).
pub fn count_f(v: f64) -> String {
    if v >= 100.0 {
        count(v.round() as u64)
    } else if v > 0.0 {
        crate::units::significant(v, 3)
    } else {
        "0".to_string()
    }
}

/// `1 intent`, `2 intents`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", count(n))
    }
}

/// `1 attempt timed out`, `3 attempts timed out`; `timed out` alone keeps its count.
fn plural_verb(n: u64, phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((noun, rest)) if noun != "timed" => format!("{} {rest}", plural(n, noun)),
        _ => format!("{} {phrase}", count(n)),
    }
}

/// A share to 3 significant figures: `47.9%`.
fn pct3(v: f64) -> String {
    format!("{}%", crate::units::significant(v * 100.0, 3))
}

/// Seconds for reading: `800ms`, `1m 14s`, `3h 12m` (whole minutes from an hour up, whole
/// seconds from a second up).
fn duration_text(seconds: f64) -> String {
    let millis = if seconds >= 3600.0 {
        (seconds / 60.0).round() as u64 * 60_000
    } else if seconds >= 1.0 {
        seconds.round() as u64 * 1000
    } else {
        (seconds * 1000.0).round() as u64
    };
    humantime::format_duration(std::time::Duration::from_millis(millis)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_rates_and_plurals() {
        assert_eq!(count_f(0.0043), "0.0043");
        assert_eq!(count_f(12.345), "12.3");
        assert_eq!(count_f(0.0), "0");
        assert_eq!(count_f(1234.4), "1,234");
        assert_eq!(plural(1, "intent"), "1 intent");
        assert_eq!(plural(0, "bad row"), "0 bad rows");
        assert_eq!(plural(2_000, "row"), "2,000 rows");
        assert_eq!(plural_verb(1, "attempt timed out"), "1 attempt timed out");
        assert_eq!(duration_text(74.0), "1m 14s");
        assert_eq!(duration_text(11_545.0), "3h 12m");
        assert_eq!(duration_text(14.0), "14s");
        assert_eq!(duration_text(3600.0), "1h");
        assert_eq!(duration_text(0.8), "800ms");
    }

    #[test]
    fn thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(34_094), "34,094");
        assert_eq!(count(1_234_567), "1,234,567");
    }
}
