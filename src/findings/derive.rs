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

use super::evidence::{Evidence, Refusal, Warning};
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
    let mut warnings = super::warnings::warnings(a);
    let (n, n_interval) = super::requests::requests_per_day(a, options, base, given, sources)?;
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
    observed.observed_duplicates = super::duplicates::observed_duplicates(a, &scenario, &intervals);
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
