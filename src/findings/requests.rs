//! Requests a day (`--requests-per-day`): the log's intents over the days its timestamps
//! span (scaled for sampled traces). A span shorter than `--min-span`, or of no time, only
//! bounds it; without timestamps it is the scenario's, assumed. Its evidence, its derivation
//! (with its interval and how attempts became intents) and its words.

use std::fmt::{self, Display, Formatter};

use crate::inputs::{Input, Sources};
use crate::logs::LogAnalysis;
use crate::model::Scenario;
use crate::words::{bounds_of, count, count_f, duration_text, plural};

use super::evidence::{
    FingerprintFacts, Picked, Reason, Refusal, ScenarioShare, Shortfall, fingerprint_facts,
    no_mutating, pick,
};
use super::intervals;
use super::{DeriveOptions, Evidence, Measured, Overrides};

/// Requests a day: measured, given, or only bounded by a short span (the scenario's figure
/// used), or assumed without timestamps.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestsEvidence {
    /// Measured over a span of at least `--min-span`, or given.
    Picked(Picked<RequestsLog>),
    /// The log's intents over a span shorter than `--min-span` (both in seconds): too short
    /// to stand for a day, the span only bounds requests a day
    /// ([`RequestsLog::short_span_bounds`]). `scenario` is the scenario's figure (the default,
    /// the `--scenario` file's), used where within those bounds, else the nearest bound; `log`
    /// is the span scaled to a day. A span of no time (`span` 0: one row, or every timestamp
    /// equal) has no pace: `log.value` is then what the log proves, its intents in a day.
    ShortSpan {
        log: RequestsLog,
        span: f64,
        min: f64,
        scenario: ScenarioShare,
    },
    /// The log has no timestamps, so nothing says over what time its intents came: the
    /// scenario's figure, assumed, with no bounds (`missing` says which file lacks them).
    NoTimestamps {
        intents: u64,
        missing: Shortfall,
        scenario: ScenarioShare,
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

impl RequestsEvidence {
    /// What a short span proves: its intents, at least, in a day; no upper bound (JSON
    /// `null`), but for none seen over some time: the rule of three at that pace. Without
    /// timestamps, nothing.
    pub(super) fn assumed(&self) -> (Option<[f64; 2]>, Reason) {
        match self {
            RequestsEvidence::ShortSpan { log, span, .. } => (
                Some(log.short_span_bounds(*span)),
                if *span == 0.0 {
                    Reason::ZeroSpan
                } else {
                    Reason::ShortSpan
                },
            ),
            RequestsEvidence::NoTimestamps { .. } => (None, Reason::NoTimestamps),
            RequestsEvidence::Picked(_) => (None, Reason::Default),
        }
    }
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

/// `--requests-per-day` from the log: its intents over the days it spans (scaled for
/// sampled traces), and the interval of a measured figure; a log that spans time without a
/// mutating request measures 0 (its interval by the rule of three). A span shorter than
/// `--min-span`, or of no time, only bounds the figure: the scenario's, moved into the bounds
/// where outside them, marked assumed, unless a flag gives the figure or scripts ask for the
/// refusal. Without timestamps, or with no mutating request and
/// no span to measure 0 over, it is refused.
pub(super) fn requests_per_day(
    a: &LogAnalysis,
    options: &DeriveOptions,
    base: &Scenario,
    given: &Overrides,
    sources: &Sources,
) -> Result<(Measured, Option<[f64; 2]>), Refusal> {
    let t = &a.tally;
    let days = a.days_covered();
    let how = intents_how(a);
    // Traces kept by head sampling stand for the inverse of their kept share.
    let log = |d: f64| RequestsLog {
        value: t.intents() as f64 / d * a.sampling_scale(),
        intents: t.intents(),
        how,
        days: d,
        sampled: Some(a.sampling_scale()).filter(|&k| k != 1.0),
    };
    let n_measured = match days {
        None if t.counts.mutating == 0 => Err(no_mutating(a)),
        None => Err(no_timestamp(a)),
        Some(d) if d <= 0.0 => Err(Shortfall::ZeroSpan),
        Some(d) if d * 86_400.0 < options.min_span.as_secs_f64() => Err(Shortfall::TooShort {
            span: d * 86_400.0,
            min: options.min_span.as_secs_f64(),
        }),
        Some(d) => Ok(log(d)),
    };
    let n_interval = n_measured.as_ref().ok().map(|_| {
        let [lo, hi] = intervals::per_day(t.intents(), days.unwrap_or(0.0), &daily_intents(a));
        let k = a.sampling_scale();
        [lo * k, hi * k]
    });
    let short = match (&n_measured, days, given.requests_per_day) {
        // Too short to stand for a day, the span only bounds the figure: the scenario's,
        // within those bounds, else the nearest bound.
        (Err(Shortfall::TooShort { span, min }), Some(d), None) if !options.require_measured => {
            let log = log(d);
            let [low, high] = log.short_span_bounds(*span);
            Some(Measured {
                input: "requests_per_day",
                flag: "--requests-per-day",
                value: base.requests_per_day.clamp(low, high),
                measured: Some(log.value),
                from_flag: true,
                evidence: Evidence::RequestsPerDay(RequestsEvidence::ShortSpan {
                    log,
                    span: *span,
                    min: *min,
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                }),
            })
        }
        // No span, so no pace: the scenario's figure, at least what the log proves (its
        // intents in a day).
        (Err(Shortfall::ZeroSpan), Some(_), None) if !options.require_measured => {
            let log = log(1.0);
            let value = base.requests_per_day.max(log.value);
            Some(Measured {
                input: "requests_per_day",
                flag: "--requests-per-day",
                value,
                measured: None,
                from_flag: true,
                evidence: Evidence::RequestsPerDay(RequestsEvidence::ShortSpan {
                    log,
                    span: 0.0,
                    min: options.min_span.as_secs_f64(),
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                }),
            })
        }
        // No timestamps, so no time for the intents to have come in: the scenario's figure,
        // bounded by nothing (a minute's intents or a year's), as the order value is.
        (Err(missing @ Shortfall::NoTimestamp { .. }), None, None) if !options.require_measured => {
            Some(Measured {
                input: "requests_per_day",
                flag: "--requests-per-day",
                value: base.requests_per_day,
                measured: None,
                from_flag: true,
                evidence: Evidence::RequestsPerDay(RequestsEvidence::NoTimestamps {
                    intents: t.intents(),
                    missing: missing.clone(),
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                }),
            })
        }
        _ => None,
    };
    let n = match short {
        Some(m) => m,
        None => pick(
            ("requests_per_day", "--requests-per-day"),
            sources.given_by(Input::RequestsPerDay, "--requests-per-day"),
            "requests a day",
            given.requests_per_day,
            n_measured,
            |l| l.value,
            |p| Evidence::RequestsPerDay(RequestsEvidence::Picked(p)),
        )?,
    };
    Ok((n, n_interval))
}

/// How the attempts became intents, for requests a day's evidence.
fn intents_how(a: &LogAnalysis) -> IntentsHow {
    let t = &a.tally;
    if t.keyed.intents == 0 && t.fingerprinted.intents > 0 {
        IntentsHow::Fingerprint(fingerprint_facts(a))
    } else if t.keyed.intents == 0 {
        IntentsHow::NoKeys
    } else if a.all_traces() {
        IntentsHow::Traced
    } else if a.keys_look_per_attempt() {
        IntentsHow::PerAttempt
    } else if t.unkeyed_intents == 0 {
        IntentsHow::Keyed
    } else {
        IntentsHow::Mixed {
            keyed: t.keyed.intents,
            unkeyed: t.unkeyed_intents,
        }
    }
}

/// Why requests a day needs a timestamp column: the first file without one.
fn no_timestamp(a: &LogAnalysis) -> Shortfall {
    Shortfall::NoTimestamp {
        file: a
            .files
            .iter()
            .find(|f| f.columns.timestamp.is_none())
            .map(|f| (f.name.clone(), f.columns.headers.clone())),
    }
}

/// Intents on each whole UTC day strictly inside the span (0 for a day with none), from
/// the mutating attempts of the day scaled by intents per attempt.
fn daily_intents(a: &LogAnalysis) -> Vec<f64> {
    let t = &a.tally;
    let (Some(first), Some(last)) = (t.first_ts, t.last_ts) else {
        return Vec::new();
    };
    if t.counts.mutating == 0 {
        return Vec::new();
    }
    let per_attempt = t.intents() as f64 / t.counts.mutating as f64;
    let day = crate::logs::MICROS_PER_DAY;
    let (d0, d1) = (first.div_euclid(day), last.div_euclid(day));
    (d0 + 1..d1)
        .map(|d| {
            t.per_day
                .get(&d)
                .map_or(0.0, |c| c.mutating as f64 * per_attempt)
        })
        .collect()
}

impl Display for RequestsEvidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RequestsEvidence::Picked(p) => {
                p.fmt_with(f, |v| format!("requests a day {}", count_f(v)), log_text)
            }
            RequestsEvidence::ShortSpan {
                log,
                span,
                scenario,
                ..
            } if *span == 0.0 => write!(
                f,
                "requests a day {}: assumed: the log's timestamps span no time (first = last), so no pace scales its {} to a day; using {}{} (--requests-per-day, or a log that spans time, settles it)",
                count_f(log.value.max(scenario.base)),
                plural(log.intents, "intent"),
                scenario.origin.value(&count_f(scenario.base)),
                if log.value > scenario.base {
                    format!(
                        ", raised to the {} the log proves in a day",
                        count_f(log.value)
                    )
                } else {
                    format!(", at least the {} the log proves", count_f(log.value))
                }
            ),
            RequestsEvidence::NoTimestamps {
                intents,
                missing,
                scenario,
            } => write!(
                f,
                "requests a day {}: assumed: {missing}, so nothing says over what time its {} came, a minute or a year; using {} (--requests-per-day, or --column timestamp=HEADER, settles it)",
                count_f(scenario.base),
                plural(*intents, "intent"),
                scenario.origin.value(&count_f(scenario.base)),
            ),
            RequestsEvidence::ShortSpan {
                log,
                span,
                min,
                scenario,
            } => {
                let [low, high] = log.short_span_bounds(*span);
                let used = scenario.base.clamp(low, high);
                write!(
                    f,
                    "requests a day {}: assumed: the log's timestamps span only {}, less than --min-span {}, too short to stand for a day ({} at that pace); the log allows {}; using {}{} (--requests-per-day, or a longer log, settles it)",
                    count_f(used),
                    duration_text(*span),
                    duration_text(*min),
                    log_text(&RequestsLog {
                        days: span / 86_400.0,
                        ..log.clone()
                    })
                    .replacen(
                        &format!(" / {} days", count_f(span / 86_400.0)),
                        &format!(" / {}", duration_text(*span)),
                        1
                    ),
                    bounds_of(Input::RequestsPerDay, low, high),
                    scenario.origin.value(&count_f(scenario.base)),
                    if used == scenario.base {
                        ", within them".to_string()
                    } else {
                        format!(", moved to the nearest bound, {}", count_f(used))
                    }
                )
            }
        }
    }
}

/// `requests a day 1,100 = 1,100 intents (grouped by idempotency key) / 1 days`: the log's
/// intents over the days it spans, and how attempts became intents.
fn log_text(l: &RequestsLog) -> String {
    let intents = plural(l.intents, "intent");
    let how = match l.how {
        IntentsHow::Fingerprint(fp) => format!("{intents} ({fp})"),
        IntentsHow::NoKeys => {
            format!("{intents} (no idempotency keys: each mutating attempt is an intent)")
        }
        IntentsHow::PerAttempt => format!(
            "{intents} (the key column looks per-attempt: each mutating attempt is an intent)"
        ),
        IntentsHow::Keyed => format!("{intents} (grouped by idempotency key)"),
        IntentsHow::Traced => format!(
            "{intents} (the attempts under one parent span, or with one captured Idempotency-Key)"
        ),
        IntentsHow::Mixed { keyed, unkeyed } => format!(
            "{intents} ({} keyed + {} without a key)",
            count(keyed),
            plural(unkeyed, "attempt")
        ),
    };
    let sampled = l.sampled.map_or(String::new(), |k| {
        format!(
            " x {} (head sampling kept 1 trace in {}: the spans' tracestate ot=th or --sample-rate)",
            count_f(k),
            count_f(k)
        )
    });
    format!(
        "requests a day {} = {how}{sampled} / {} days",
        count_f(l.value),
        count_f(l.days)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Origin;

    fn short(intents: u64) -> RequestsEvidence {
        let span = 1_800.0;
        RequestsEvidence::ShortSpan {
            log: RequestsLog {
                value: intents as f64 / (span / 86_400.0),
                intents,
                how: IntentsHow::Keyed,
                days: span / 86_400.0,
                sampled: None,
            },
            span,
            min: 3_600.0,
            scenario: ScenarioShare {
                base: 20_000.0,
                origin: Origin::Default,
            },
        }
    }

    #[test]
    fn a_short_span_says_its_pace_over_its_own_time_and_only_bounds_the_figure() {
        assert_eq!(
            short(10).to_string(),
            "requests a day 20,000: assumed: the log's timestamps span only 30m, less than --min-span 1h, too short to stand for a day (requests a day 480 = 10 intents (grouped by idempotency key) / 30m at that pace); the log allows at least 10; using the default 20,000, within them (--requests-per-day, or a longer log, settles it)"
        );
        // None seen in half an hour: at most 3 in it by the rule of three, 144 a day.
        assert!(short(0).to_string().contains(
            "the log allows 0 to 144; using the default 20,000, moved to the nearest bound, 144"
        ));
    }
}
