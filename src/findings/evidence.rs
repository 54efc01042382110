//! What stands behind each finding, as data: which case of the derivation it was and the
//! numbers it used. No words here: `report::words` says each of these (their `Display`, and
//! their `Serialize` as that text where the JSON contract holds a sentence).

use crate::inputs::Origin;
use crate::logs::{BadRow, FlagsStyle, Join};

use super::RetriesObserved;

/// The evidence of one measured input (`Measured::evidence`).
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    RequestsPerDay(Picked<RequestsLog>),
    /// The log's intents over a span shorter than `--min-span` (both in seconds): too short
    /// to stand for a day, the span only bounds requests a day
    /// ([`RequestsLog::short_span_bounds`]). `scenario` is the scenario's figure (the default,
    /// the `--scenario` file's), used where within those bounds, else the nearest bound; `log`
    /// is the span scaled to a day. A span of no time (`span` 0: one row, or every timestamp
    /// equal) has no pace: `log.value` is then what the log proves, its intents in a day.
    RequestsShortSpan {
        log: RequestsLog,
        span: f64,
        min: f64,
        scenario: ScenarioShare,
    },
    /// The log has no timestamps, so nothing says over what time its intents came: the
    /// scenario's figure, assumed, with no bounds (`missing` says which file lacks them).
    RequestsNoTimestamps {
        intents: u64,
        missing: Shortfall,
        scenario: ScenarioShare,
    },
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
    BodyBytes {
        /// The name a given size came by: `--body-bytes` or `DUPCOST_BODY_BYTES`.
        by: &'static str,
        /// `--body-bytes`, which wins over the log.
        given: Option<u64>,
        /// The mean size of the 2xx mutating responses, and how many there were.
        mean: f64,
        rows: u64,
    },
}

impl Evidence {
    /// A rate or share the log measured from fewer than `MIN_EVIDENCE` trials: still the
    /// figure used, marked thin with its count (`10 of 26`).
    pub fn thin(&self) -> Option<Thin> {
        let (count, of) = match self {
            Evidence::TimeoutRate(TimeoutEvidence::Picked(Picked::Measured(log))) => {
                (log.timed_out, log.mutating)
            }
            Evidence::SucceededShare(
                ShareEvidence::Measured {
                    given: None, log, ..
                },
                _,
            ) => (log.succeeded, log.timed_out - log.unknown),
            _ => return None,
        };
        (of < super::MIN_EVIDENCE).then_some(Thin { count, of })
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

/// Requests a day: intents over the days covered.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestsLog {
    pub value: f64,
    pub intents: u64,
    pub how: IntentsHow,
    pub days: f64,
    /// Traces: the factor head sampling scaled the count by, when it is not 1.
    pub sampled: Option<f64>,
}

impl RequestsLog {
    /// What a span of `span` seconds too short to stand for a day proves of requests a day:
    /// at least its intents (scaled for sampled traces); no upper bound, but for none seen
    /// over some time: the rule of three at that pace.
    pub fn short_span_bounds(&self, span: f64) -> [f64; 2] {
        let high = if self.intents == 0 && span > 0.0 {
            super::intervals::RULE_OF_THREE * 86_400.0 / span
        } else {
            f64::INFINITY
        };
        [self.intents as f64 * self.sampled.unwrap_or(1.0), high]
    }
}

/// How attempts were counted as intents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IntentsHow {
    Fingerprint(FingerprintFacts),
    /// No idempotency keys: each mutating attempt is an intent.
    NoKeys,
    /// The key column looks per-attempt: each mutating attempt is an intent.
    PerAttempt,
    Keyed,
    /// Traces: the attempts under one parent span, or with one captured key.
    Traced,
    /// Keyed intents beside attempts without a key.
    Mixed {
        keyed: u64,
        unkeyed: u64,
    },
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

/// The timeout rate: measured (thin below `MIN_EVIDENCE` attempts), given, or not
/// measured at all.
#[derive(Debug, Clone, PartialEq)]
pub enum TimeoutEvidence {
    Picked(Picked<TimeoutLog>),
    /// No mutating attempt to measure it from: the scenario's `base` is used.
    TooFew {
        base: f64,
        origin: Origin,
        log: TimeoutLog,
    },
}

/// Timed-out mutating attempts over mutating attempts, and what counted as timed out.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeoutLog {
    pub value: f64,
    pub timed_out: u64,
    pub mutating: u64,
    pub statuses: Vec<u16>,
    /// Traces: a timeout is what a CLIENT span's `error.type` or exception says.
    pub traced: bool,
    /// The proxy's flags column that also tells a give-up.
    pub flags: Option<FlagsStyle>,
    /// `--client-timeout`, in seconds.
    pub client_timeout: Option<f64>,
    /// The duration field compared with it, and its unit, when that unit is an assumption
    /// (nothing says it).
    pub assumed_unit: Option<(String, &'static str)>,
    /// The duration field compared with it, when its unit was inferred from its values
    /// (`logs::detect::unit`), and what they were.
    pub inferred_unit: Option<(String, crate::logs::UnitInference)>,
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

/// A log without an upstream status column.
#[derive(Debug, Clone, PartialEq)]
pub struct NoUpstream {
    /// The file (and which of its formats) that lacks it, as `FileInfo::lacking` names it;
    /// `None`: the log as a whole.
    pub file: Option<crate::logs::Lacking>,
    /// Its lines have fields after a detected layout that were not read.
    pub unread: bool,
    /// It was read as a line format (nginx, Envoy ...), not CSV/TSV with a header: a field is
    /// named by its variable, or `extra_N` past a detected layout.
    pub raw: bool,
}

/// The succeeded share's case.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareEvidence {
    /// No timed-out attempts (`no_mutating`: not even mutating ones): the share multiplies
    /// nothing.
    /// `scenario` is the share used when none is given (the default, the `--scenario`
    /// file's); `no_effect`: the timeout rate used is 0, so the share truly cannot change a
    /// figure (else it is assumed and changes every one).
    NoTimeouts {
        given: Option<f64>,
        no_mutating: bool,
        scenario: ScenarioShare,
        no_effect: bool,
    },
    /// No outcomes in the log; `too_few`: the scenario's share used, as too few attempts
    /// timed out to measure it anyway; `assumed`: the scenario's share used, between the
    /// bounds 0 and 1, though enough timed out.
    NoUpstream {
        given: Option<f64>,
        why: NoUpstream,
        too_few: Option<ScenarioShare>,
        assumed: Option<ScenarioShare>,
        timed_out: u64,
    },
    /// More unknown outcomes than `--max-unknown`, with the share given by flag.
    TooManyUnknown { given: f64, log: ShareLog },
    /// More unknown outcomes than `--max-unknown`, no flag: the share is bounded by the log,
    /// and `point` (the scenario's, moved into the bounds when outside them) is used.
    Bounded {
        scenario: ScenarioShare,
        point: f64,
        log: ShareLog,
    },
    Measured {
        given: Option<f64>,
        value: f64,
        log: ShareLog,
    },
}

/// The scenario's figure used instead of the log's, and where it came from (the succeeded
/// share's, or requests a day's over a span of no time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScenarioShare {
    pub base: f64,
    pub origin: Origin,
}

/// The outcomes of the timed-out attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareLog {
    pub succeeded: u64,
    pub unknown: u64,
    pub timed_out: u64,
    /// The join with the backend's log, with `--outcomes`.
    pub join: Option<Join>,
    /// A server's own log: its status is the outcome.
    pub server: bool,
    /// Traces: the SERVER span under each attempt is its outcome.
    pub traced: bool,
}

impl ShareLog {
    /// The bounds widened by sampling: the 95% Wilson interval of the share if every unknown
    /// failed, to that of the share if every unknown succeeded (the bounds alone, from a
    /// handful of outcomes, would claim more than they know).
    pub fn interval(&self) -> [f64; 2] {
        [
            super::intervals::wilson(self.succeeded, self.timed_out)[0],
            super::intervals::wilson(self.succeeded + self.unknown, self.timed_out)[1],
        ]
    }

    /// The share if every unknown failed, and if every unknown succeeded.
    pub fn bounds(&self) -> [f64; 2] {
        let all = self.timed_out as f64;
        [
            self.succeeded as f64 / all,
            (self.succeeded + self.unknown) as f64 / all,
        ]
    }
}

/// Retries: given, measured, measured from too few intents, or not known.
#[derive(Debug, Clone, PartialEq)]
pub enum RetriesEvidence {
    Given {
        value: u32,
        by: GivenBy,
        log: Option<RetriesLog>,
    },
    TooFew {
        measured: u32,
        timed_out_intents: u64,
        base: u32,
        origin: Origin,
        log: RetriesLog,
    },
    Measured {
        value: u32,
        log: RetriesLog,
        fingerprint: Option<FingerprintFacts>,
    },
    /// Attempts per intent are not known (no keys, or keys that look per-attempt).
    NotKnown { base: u32, per_attempt: bool },
}

/// Who gave a figure the log could have given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GivenBy {
    Flag(&'static str),
    /// A `--preset` whose published schedule sets it.
    Preset(&'static str),
    /// The same preset, named by `DUPCOST_PRESET`.
    PresetEnv(&'static str),
}

/// Retries per intent as the log showed them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetriesLog {
    pub observed: RetriesObserved,
    pub intents: u64,
    pub by: Grouped,
}

/// What the intents were grouped by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grouped {
    Key,
    Fingerprint,
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
    /// `--client-timeout` compared with a duration in milliseconds, assumed, though its values
    /// rule milliseconds out and leave two units (or none): the file, the field and what the
    /// values were.
    DurationUnitImpossible {
        file: String,
        field: String,
        doubt: crate::logs::UnitDoubt,
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
