//! What stands behind each finding, as data: which case of the derivation it was and the
//! numbers it used. No words here: `report::words` says each of these (their `Display`, and
//! their `Serialize` as that text where the JSON contract holds a sentence).

use std::fmt::{self, Formatter};

use crate::inputs::Origin;
use crate::logs::{BadRow, LogAnalysis};
use crate::words::count;

use super::{MIN_EVIDENCE, Measured};

pub use super::requests::{IntentsHow, RequestsEvidence, RequestsLog};
pub use super::retries::{GivenBy, Grouped, RetriesEvidence, RetriesLog};
pub use super::share::{NoUpstream, ShareEvidence, ShareLog};
pub use super::timeout::{TimeoutEvidence, TimeoutLog};

/// The evidence of one measured input (`Measured::evidence`).
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    RequestsPerDay(RequestsEvidence),
    TimeoutRate(TimeoutEvidence),
    /// The share's case, and the name a given share came by (`--succeeded-share`, or
    /// `DUPCOST_SUCCEEDED_SHARE` from the environment).
    SucceededShare(ShareEvidence, &'static str),
    Retries {
        how: RetriesEvidence,
        /// The proxy's own retries beside the client's, when a column tells them.
        proxy: Option<super::ProxyRetriesObserved>,
        /// What the proxy's measured tries make of the layers figure.
        layers: Option<super::AmplificationObserved>,
    },
    BodyBytes(super::body::BodyEvidence),
}

impl Evidence {
    /// A rate or share the log measured from fewer than `MIN_EVIDENCE` trials: still the
    /// figure used, marked thin with its count (`10 of 26`).
    pub fn thin(&self) -> Option<Thin> {
        match self {
            Evidence::TimeoutRate(t) => t.thin(),
            Evidence::SucceededShare(s, _) => s.thin(),
            _ => None,
        }
    }
}

/// A figure the log may give, unless a flag gave it.
#[derive(Debug, Clone, PartialEq)]
pub enum Picked<T> {
    Measured(T),
    Given {
        value: f64,
        flag: &'static str,
        /// What the log said beside it: its measure, or why it had none.
        log: Result<T, Shortfall>,
    },
}

impl<T> Picked<T> {
    /// A figure measured or given, as its evidence says it: `X from --flag (measured: ...)`,
    /// `X from --flag (why)`; `plain` says the figure given, `measured` the log's measure.
    pub(crate) fn fmt_with(
        &self,
        f: &mut Formatter<'_>,
        plain: impl Fn(f64) -> String,
        measured: impl Fn(&T) -> String,
    ) -> fmt::Result {
        match self {
            Picked::Measured(log) => f.write_str(&measured(log)),
            Picked::Given {
                value,
                flag,
                log: Ok(log),
            } => write!(
                f,
                "{} from {flag} (measured: {})",
                plain(*value),
                measured(log)
            ),
            Picked::Given {
                value,
                flag,
                log: Err(why),
            } => write!(f, "{} from {flag} ({why})", plain(*value)),
        }
    }
}

/// The measured value, or the flag's (given by `by`: the flag or its environment variable),
/// or the refusal naming the flag.
pub(super) fn pick<T>(
    (name, flag): (&'static str, &'static str),
    by: &'static str,
    figure: &'static str,
    given: Option<f64>,
    measured: Result<T, Shortfall>,
    value: impl Fn(&T) -> f64,
    evidence: impl Fn(Picked<T>) -> Evidence,
) -> Result<Measured, Refusal> {
    match (given, measured) {
        (Some(v), log) => Ok(Measured {
            input: name,
            flag,
            value: v,
            measured: log.as_ref().ok().map(&value),
            from_flag: true,
            evidence: evidence(Picked::Given {
                value: v,
                flag: by,
                log,
            }),
        }),
        (None, Ok(log)) => Ok(Measured {
            input: name,
            flag,
            value: value(&log),
            measured: Some(value(&log)),
            from_flag: false,
            evidence: evidence(Picked::Measured(log)),
        }),
        (None, Err(why)) => Err(Refusal::Underivable { figure, why, flag }),
    }
}

/// Attempts joined into intents by fingerprint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FingerprintFacts {
    pub attempts: u64,
    pub intents: u64,
    /// The fingerprint includes the request length.
    pub request_length: bool,
    /// Attempts without a client address, each an intent.
    pub unkeyed: u64,
}

/// Attempts joined into intents by fingerprint, with the attempts that had no client address.
pub(super) fn fingerprint_facts(a: &LogAnalysis) -> FingerprintFacts {
    let t = &a.tally;
    FingerprintFacts {
        attempts: t.fingerprinted.attempts,
        intents: t.fingerprinted.intents,
        request_length: a.files.iter().any(|f| f.columns.request_length.is_some()),
        unkeyed: t.unkeyed_intents,
    }
}

/// Why the log gives no figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Shortfall {
    /// No mutating requests (the methods counted, joined).
    NoMutating { methods: String },
    /// A file without a timestamp column (its name and headers), or none named.
    NoTimestamp { file: Option<(String, Vec<String>)> },
    /// The timestamps span no time.
    ZeroSpan,
    /// The timestamps span less than `--min-span` (both in seconds).
    TooShort { span: f64, min: f64 },
    /// No upstream status: the succeeded share cannot be told.
    NoUpstream(NoUpstream),
}

/// No mutating request in the log: which methods were looked for.
pub(super) fn no_mutating(a: &LogAnalysis) -> Shortfall {
    Shortfall::NoMutating {
        methods: a.options.methods.join(", "),
    }
}

/// The scenario's figure used instead of the log's, and where it came from (the succeeded
/// share's, or requests a day's over a span of no time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScenarioShare {
    pub base: f64,
    pub origin: Origin,
}

/// What the reader noticed and the figures may suffer from.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// A server's own log without `--client-timeout`.
    ServerLogNoClientTimeout,
    /// No mutating request in a log with timestamps (the methods counted, joined, and the
    /// span in seconds): requests a day is 0 from a span, the scenario's from none or from
    /// a span shorter than `--min-span`.
    NoMutating {
        methods: String,
        span: f64,
        /// The span is shorter than `--min-span`: requests a day is not the log's 0.
        short: bool,
    },
    /// `--client-timeout` compared with a duration whose unit nothing says: the
    /// file, the field and the unit assumed.
    DurationUnitAssumed {
        file: String,
        field: String,
        unit: &'static str,
    },
    /// `--client-timeout` compared with a duration whose unit was inferred from its first
    /// values: the file, the field and what the values were.
    DurationUnitInferred {
        file: String,
        field: String,
        inferred: crate::logs::UnitInference,
    },
    /// Traces with no sampling threshold and no `--sample-rate`: taken as every request.
    Unsampled,
    /// Days without mutating requests inside the span (first and last, as dates).
    MissingDays {
        days: u64,
        first: String,
        last: String,
    },
    /// Timestamps running backwards by more than the retry window (both in seconds).
    Backwards {
        by: f64,
        window: f64,
    },
    /// A key column with no key in it.
    KeylessKeyColumn {
        header: String,
        file: String,
    },
    /// A key column whose keys were each seen once, yet attempts timed out.
    KeysPerAttempt {
        header: String,
        keys: u64,
        timed_out: u64,
    },
    /// The backend's log has no timestamps.
    BackendNoTimestamps {
        files: Vec<String>,
    },
    BackendBadRow(BadRow),
    BackendBadRows {
        rows: u64,
    },
    /// `--preset`'s attempt timeout taken as the client timeout.
    ClientTimeoutFromPreset {
        /// `DUPCOST_PRESET` named the preset, not `--preset`.
        env: bool,
        secs: f64,
        preset: &'static str,
    },
    /// The retry window widened to the schedule's horizon (seconds).
    RetryWindowWidened {
        horizon: f64,
    },
    /// `--follow --window`: the window of log time asked, and the span its rows cover
    /// (seconds) from the first to the last timestamp.
    Window {
        window: std::time::Duration,
        span: f64,
        first: Option<String>,
        last: Option<String>,
    },
    /// Measured by `dupcost sql` (the result's name): a clock running backwards is not seen.
    MeasuredBySql {
        result: String,
    },
    /// A note of the reader on how a result was read, as it wrote it.
    Reader(String),
}

/// Why the duplicates seen and predicted differ, and what bounds the count.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicatesNote {
    /// The backend's log was not joined per intent (stdin): a lower bound.
    pub lower_bound: bool,
    pub gap: Option<Gap>,
    /// Grouped by key: a replayed answer logged 2xx counts as an execution.
    pub by_key: bool,
}

/// Seen against predicted, beyond the interval.
#[derive(Debug, Clone, PartialEq)]
pub enum Gap {
    Fewer {
        /// Retried intents refused by a uniqueness check, and the duplicates a day with them.
        conflicts: Option<(u64, f64)>,
        outcomes: FewerOutcomes,
        /// Duplicates a day seen, and the model's a day with its 95% interval.
        seen: f64,
        predicted: f64,
        interval: [f64; 2],
        /// Attempts were grouped by fingerprint: the log has no idempotency key.
        fingerprint: bool,
    },
    More {
        retries: u32,
    },
}

/// What the outcomes could not show, when fewer duplicates are seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FewerOutcomes {
    NoUpstream,
    Unknown(u64),
    Known,
}

/// A model input the log cannot give: the derivation refuses.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The figure, why, and the flag that supplies it.
    Underivable {
        figure: &'static str,
        why: Shortfall,
        flag: &'static str,
    },
    /// Too many timed-out attempts have no known outcome.
    UnknownOutcomes {
        log: Box<ShareLog>,
        max_unknown: f64,
    },
}

/// A thin measure: `count` of `of` trials (timed out of mutating attempts for the timeout
/// rate; succeeded of timed-out attempts with a known outcome for the succeeded share).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Thin {
    pub count: u64,
    pub of: u64,
}

/// A thin measure's mark: `thin: 10 of 26 (under 30), its 95% interval carried to the
/// duplicates and refunds`.
pub fn thin_mark(t: &Thin) -> String {
    format!(
        "thin: {} of {} (under {MIN_EVIDENCE}), its 95% interval carried to the duplicates and refunds",
        count(t.count),
        count(t.of)
    )
}

/// `; thin: ...` after an evidence that is thin.
pub(super) fn thin_text(f: &mut Formatter<'_>, thin: Option<Thin>) -> fmt::Result {
    match thin {
        Some(t) => write!(f, "; {}", thin_mark(&t)),
        None => Ok(()),
    }
}
