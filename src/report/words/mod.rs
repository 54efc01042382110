//! The report's own words: how a file was read (`files`), each input's kind as its line says
//! it (`kinds`), the logs report's sections (`sections`), the HTML page's phrases (`page`) and
//! the probe's (`probe`); the estimate's own words (its scenario lines, the verdict, the
//! stores) are here. The findings word themselves, each in its own file under `findings/`
//! (their evidence, warnings and notes: their `Display`); the number formats are
//! [`crate::words`]'s, handed on from here so a renderer reads every word from one place.

mod files;
mod kinds;
pub mod page;
pub mod probe;
pub mod sections;

pub use crate::words::{
    bounds_of, count, count_f, duration_text, layers, pct3, plural, plural_verb, rate,
    seconds_text, times, unit_names,
};
pub use files::{format_notes, formats_evidence, traces_evidence};
pub use kinds::*;

use crate::inputs::Input;
use crate::model::{Estimate, Store};
use crate::units::{Duration, Rate, Seconds};

use super::{PresetTrace, Style, human};

// ---------------------------------------------------------------- the estimate's labels

/// The labels of the estimate's figures, as the table, the markdown and the explorer name
/// them: one name for one figure everywhere.
pub mod label {
    /// Customers left without an answer whose request was executed (charged) all the same.
    pub const CHARGED: &str = "charged anyway";
    /// [`CHARGED`] under the figure it is part of.
    pub const CHARGED_ANYWAY: &str = "of whom charged anyway";
    /// The retry schedule's horizon.
    pub const RETRY_HORIZON: &str = "retry horizon (worst case)";
    /// [`RETRY_HORIZON`] when it is longer than the key TTL: the explorer's warning on the
    /// row (the table and markdown say it in their verdict).
    pub const HORIZON_PAST_TTL: &str = "retry horizon > TTL";
}

// ---------------------------------------------------------------- evidence
// ---------------------------------------------------------------- the estimate's words
// (the scenario's lines, the verdict, the layers and stores: the table, markdown, HTML and
// the explorer all say them so)

/// The scenario's inputs, one per line, in the order of `docs/MODEL.md`.
pub fn input_lines(e: &Estimate, style: &Style) -> Vec<(&'static str, String)> {
    let mut lines = Vec::with_capacity(Input::ALL.len());
    for input in Input::ALL {
        // A published schedule (`--schedule`) replaces the backoff inputs: its delays take
        // the backoff's line, the factor and the cap are left out (the jitter stays: it
        // randomises the schedule's delays too).
        if crate::findings::kinds::replaced_by(input, &e.inputs).is_some() {
            if let (Input::Backoff, Some(delays)) = (input, e.inputs.schedule_seconds) {
                lines.push((RETRY_DELAYS, schedule_value(&delays, style)));
            }
            continue;
        }
        let value = input_value(input, input.get(&e.inputs), &style.currency);
        lines.push((
            input.label(),
            PresetTrace::mark(style.preset.as_ref(), input, value),
        ));
    }
    lines
}

/// A schedule of delays for reading: `5s, 5m, 30m, 2h`.
pub fn schedule_text(delays: &crate::model::Delays) -> String {
    let parts: Vec<String> = delays
        .as_slice()
        .iter()
        .map(|&d| Seconds(d).rounded())
        .collect();
    parts.join(", ")
}

/// An input's value for reading: `20,000`, `0.2%`, `$40`, `1d`, `1kB`.
pub fn input_value(input: Input, value: f64, currency: &str) -> String {
    match input {
        // Measured from logs it is intents over a fractional number of days (300.7353...):
        // four significant figures, as the rates, but never rounding away whole requests.
        Input::RequestsPerDay => human::number(four_figures(value)),
        Input::DaysPerMonth => human::number(value),
        Input::OrderValue => format!("{currency}{}", input.display(value)),
        // Rates measured from logs have many digits; four significant figures read better.
        Input::TimeoutRate | Input::SucceededShare => Rate(value).rounded(),
        Input::KeyBytes | Input::BodyBytes => human::size(value),
        _ => input.display(value),
    }
}

/// `value` to four significant figures below 1,000, to a whole number above.
fn four_figures(value: f64) -> f64 {
    if value.abs() >= 1000.0 {
        value.round()
    } else {
        crate::units::round_significant(value, 4)
    }
}

/// The one-line verdict: what the fix costs against what the missing key costs, or, first,
/// a key TTL shorter than the client's retry horizon.
pub fn verdict(e: &Estimate, style: &Style) -> String {
    let store = human::size(e.store_bytes());
    let keys = human::count(e.key_store.live_keys);
    let c = &style.currency;
    if e.ttl_shorter_than_horizon() {
        let ttl = Duration(e.inputs.ttl_seconds).to_string();
        let horizon = Seconds(e.retry_horizon_seconds).rounded();
        let left = e.duplicates.with_key_store.per_month;
        let problem = format!(
            "Verdict: the key TTL ({ttl}) is shorter than the client's retry horizon ({horizon}), so keys can expire while the client still retries"
        );
        let consequence = if left > 0.0 {
            format!(
                ": a {store} key store still lets {} of {} duplicate charges a month through ({} of refunds).",
                human::count(left),
                human::count(e.duplicates.per_month),
                human::money(e.keyed_refund_per_month(), c),
            )
        } else {
            "; on this schedule no retry is sent after its key expired, but one the server takes up late can be.".to_string()
        };
        return format!("{problem}{consequence} Keep keys at least {horizon}.");
    }
    if e.duplicates.per_month > 0.0 {
        format!(
            "Verdict: a {store} key store ({keys} live keys) stops {} a month of refunds for {} duplicate charges.",
            human::money(e.refund_cost.per_month, c),
            human::count(e.duplicates.per_month),
        )
    } else if e.inputs.retries == 0 && e.unanswered.zero_retries_per_month > 0.0 {
        format!(
            "Verdict: no duplicates without retries, but {} customers a month get no answer ({} of them charged); \
             retrying safely needs a {store} key store.",
            human::count(e.unanswered.zero_retries_per_month),
            human::count(e.unanswered.charged_zero_retries_per_month),
        )
    } else {
        format!(
            "Verdict: no duplicates in this scenario; a {store} key store ({keys} live keys) would keep it so."
        )
    }
}

/// The name of a store's size figure: `size in Redis`.
pub fn store_name(store: Store) -> &'static str {
    match store {
        Store::Bytes => "size, flat per key",
        Store::Redis => "size in Redis",
        Store::Postgres => "size in PostgreSQL",
    }
}

/// The label of a store's size row; the chosen store (the headline's) is marked.
pub fn store_label(store: Store, chosen: Store) -> String {
    let name = store_name(store);
    if store == chosen {
        format!("{name} (--store)")
    } else {
        name.to_string()
    }
}
