//! The model's inputs from a finished [`Tally`](crate::logs::Tally), each with the rows
//! behind it (`docs/MODEL.md`, "From access logs").
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
//! A figure the log cannot give is a [`Refusal`] naming the flag that supplies it, unless that
//! flag was given; a given flag always wins over the measured figure.

use crate::inputs::{Input, Origin, Sources};
use crate::logs::LogAnalysis;
use crate::model::Scenario;

use super::evidence::{
    Evidence, IntentsHow, Refusal, RequestsLog, ScenarioShare, Shortfall, Warning,
    fingerprint_facts, no_mutating, pick,
};
use super::intervals::{self, Intervals};
use super::{DeriveOptions, Findings, Measured, Overrides};

/// The findings of `a`: the model's scenario from `base` (the inputs the log cannot give) and
/// the log, with `given` inputs winning over measured ones; `sources` says where each input
/// of `base` came from (the default, the `--scenario` file, a preset or a flag), for the
/// report's `sources` and for the evidence of a figure the log gives too little of.
pub fn derive(
    a: &LogAnalysis,
    options: &DeriveOptions,
    base: &Scenario,
    given: &Overrides,
    sources: &Sources,
) -> Result<Findings, Refusal> {
    let t = &a.tally;
    let c = t.counts;
    let mut warnings = super::observed::warnings(a);
    let (n, n_interval) = requests_per_day(a, options, base, given, sources)?;
    let to = super::timeout::timeout_rate(a, options, base, given, sources)?;
    if let (0, Some(d)) = (c.mutating, a.days_covered()) {
        warnings.push(Warning::NoMutating {
            methods: a.options.methods.join(", "),
            span: d * 86_400.0,
            short: d * 86_400.0 < options.min_span.as_secs_f64(),
        });
    }

    // succeeded_share
    let (s, s_interval) =
        super::share::succeeded_share(a, options, base, given, sources, to.value)?;

    // retries
    let (r, retries_observed) = super::retries::retries(a, base, given, sources, &mut warnings);

    let body = super::body::body_bytes(a, given, sources);

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
    let mut observed =
        super::observed::observed(a, options, &scenario, retries_observed, !s.from_flag);
    observed.observed_duplicates = super::observed::observed_duplicates(a, &scenario, &intervals);
    observed.warnings = warnings;
    // The retries' evidence says what the proxy's measured tries make of the layers figure.
    let mut r = r;
    if let Evidence::Retries { layers, .. } = &mut r.evidence {
        *layers = observed.amplification;
    }
    let mut sources = *sources;
    for m in [&n, &to, &s, &r].into_iter().chain(&body) {
        if !m.from_flag {
            if let Some(input) = Input::from_name(m.input) {
                sources.set(input, Origin::Log);
            }
        }
    }
    let mut measured = vec![n, to, s, r];
    measured.extend(body);
    Ok(Findings {
        scenario,
        measured,
        observed,
        intervals,
        sources,
    })
}

/// `--requests-per-day` from the log: its intents over the days it spans (scaled for
/// sampled traces), and the interval of a measured figure; a log that spans time without a
/// mutating request measures 0 (its interval by the rule of three). A span shorter than
/// `--min-span`, or of no time, only bounds the figure: the scenario's, moved into the bounds
/// where outside them, marked assumed, unless a flag gives the figure or scripts ask for the
/// refusal. Without timestamps, or with no mutating request and
/// no span to measure 0 over, it is refused.
fn requests_per_day(
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
                evidence: Evidence::RequestsShortSpan {
                    log,
                    span: *span,
                    min: *min,
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                },
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
                evidence: Evidence::RequestsShortSpan {
                    log,
                    span: 0.0,
                    min: options.min_span.as_secs_f64(),
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                },
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
                evidence: Evidence::RequestsNoTimestamps {
                    intents: t.intents(),
                    missing: missing.clone(),
                    scenario: ScenarioShare {
                        base: base.requests_per_day,
                        origin: sources.get(Input::RequestsPerDay),
                    },
                },
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
            Evidence::RequestsPerDay,
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
