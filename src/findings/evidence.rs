//! What stands behind each finding: the [`Evidence`] of each measured input, one variant a
//! finding (its payload, derivation and words live in the finding's own file, re-exported
//! here), and what the derivations share: a figure picked from the log or given
//! ([`Picked`]), thin evidence, why a log falls short ([`Shortfall`]) and why a derivation
//! refuses ([`Refusal`]), with their words. Each `Display` is the sentence the reports print;
//! its `Serialize` writes that text where the JSON contract holds a sentence.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::inputs::Origin;
use crate::logs::{LogAnalysis, Role};
use crate::words::{count, duration_text, pct3, plural};

use super::{MIN_EVIDENCE, Measured};

pub use super::duplicates::{DuplicatesNote, FewerOutcomes, Gap};
pub use super::requests::{IntentsHow, RequestsEvidence, RequestsLog};
pub use super::retries::{GivenBy, Grouped, RetriesEvidence, RetriesLog};
pub use super::share::{NoUpstream, ShareEvidence, ShareLog};
pub use super::timeout::{TimeoutEvidence, TimeoutLog};
pub use super::warnings::Warning;

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

    /// What the log allows the input to be when it is assumed (`None`: nothing), and why it
    /// is assumed: each finding says it of its own evidence.
    pub fn assumed(&self) -> (Option<[f64; 2]>, Reason) {
        match self {
            Evidence::RequestsPerDay(r) => r.assumed(),
            Evidence::TimeoutRate(t) => t.assumed(),
            Evidence::SucceededShare(s, _) => s.assumed(),
            Evidence::Retries { how, .. } => how.assumed(),
            Evidence::BodyBytes(_) => (None, Reason::Default),
        }
    }
}

/// Why an input is assumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The model's default: a figure the log cannot give (the order value, the TTL ...).
    Default,
    /// The log measured it from too few attempts or intents (`MIN_EVIDENCE`).
    TooFew,
    /// No outcome of a timed-out attempt is known: no upstream status, no `--outcomes`.
    NoOutcomes,
    /// More timed-out attempts have an unknown outcome than `--max-unknown` allows.
    UnknownOutcomes,
    /// The log's timestamps span less than `--min-span`, scaled to a day all the same.
    ShortSpan,
    /// The log's timestamps span no time (one row, or all equal): the scenario's figure, at
    /// least the log's intents.
    ZeroSpan,
    /// The log has no timestamps: the scenario's figure, with no bounds (nothing says over
    /// what time the log's intents came).
    NoTimestamps,
    /// No timed-out attempt in the log to tell it, and the timeout rate used is not 0: the
    /// scenario's share, which changes every figure.
    NoTimeouts,
    /// No timed-out attempt in the log to tell it, and the timeout rate used is 0: the
    /// scenario's share, which changes no figure.
    NoEffect,
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
    pub(super) fn fmt_with(
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

impl Display for Evidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::RequestsPerDay(r) => r.fmt(f),
            Evidence::TimeoutRate(t) => t.fmt(f),
            Evidence::SucceededShare(s, by) => s.fmt_by(f, by),
            Evidence::Retries { how, proxy, layers } => {
                how.fmt_with(f, proxy.as_ref(), layers.as_ref())
            }
            Evidence::BodyBytes(b) => b.fmt(f),
        }
    }
}

impl Serialize for Evidence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Display for FingerprintFacts {
    /// `grouped by fingerprint (client, UA, method, path+query): joined 1,204 attempts into
    /// 1,100 intents`, with the attempts that had no client address.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let length = if self.request_length {
            ", request length"
        } else {
            ""
        };
        write!(
            f,
            "grouped by fingerprint (client, UA, method, path+query{length}): joined {} into {}",
            plural(self.attempts, "attempt"),
            plural(self.intents, "intent")
        )?;
        if self.unkeyed > 0 {
            write!(
                f,
                "; {} without a client address, each an intent",
                plural(self.unkeyed, "attempt")
            )?;
        }
        Ok(())
    }
}

impl Display for Shortfall {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Shortfall::NoMutating { methods } => {
                write!(f, "no mutating ({methods}) requests in the log")
            }
            Shortfall::NoTimestamp {
                file: Some((name, headers)),
            } => write!(
                f,
                "{name} has no timestamp column (looked for {}; headers found: {}; map one with --column timestamp=HEADER)",
                Role::Timestamp.aliases().join(", "),
                headers.join(", ")
            ),
            Shortfall::NoTimestamp { file: None } => f.write_str("the log has no timestamp column"),
            Shortfall::ZeroSpan => f.write_str("the log's timestamps span no time (first = last)"),
            Shortfall::TooShort { span, min } => write!(
                f,
                "the log's timestamps span only {}, less than --min-span {}: too short to scale to a day",
                duration_text(*span),
                duration_text(*min)
            ),
            Shortfall::NoUpstream(n) => n.fmt(f),
        }
    }
}

impl Display for Refusal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Underivable { figure, why, flag } => {
                write!(f, "{why}, so {figure} is unknown: give {flag}")
            }
            Refusal::UnknownOutcomes { log, max_unknown } => {
                let [low, high] = log.bounds();
                write!(
                    f,
                    "{} of {} timed-out attempts ({}, more than --max-unknown {}) have no known outcome (the proxy gave up before the backend answered), so the succeeded share is only known to lie between {} (if every unknown failed) and {} (if every unknown succeeded): give --succeeded-share, or the backend's own log with --outcomes FILE",
                    count(log.unknown),
                    count(log.timed_out),
                    pct3(log.unknown as f64 / log.timed_out as f64),
                    pct3(*max_unknown),
                    pct3(low),
                    pct3(high),
                )
            }
        }
    }
}

impl std::error::Error for Refusal {}
