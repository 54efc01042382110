//! The report's words and number formats. Each phrase lives beside the kind of thing it
//! words: the findings' evidence (`evidence`), their warnings (`warnings`), how a file was
//! read (`files`), each input's kind (`kinds`), the logs report's sections (`sections`) and
//! the HTML page's phrases (`page`); the number formats and the estimate's own words are here.
//! The findings are data ([`crate::findings::evidence`]); these modules say them.

mod evidence;
mod files;
mod kinds;
pub mod page;
pub mod probe;
pub mod sections;
mod warnings;

pub use files::{format_notes, formats_evidence, traces_evidence};
pub use kinds::*;

use crate::inputs::Input;
use crate::model::{Estimate, Store};
use crate::units::{Duration, Rate, Seconds};

use super::{PresetTrace, Style, human};

// ---------------------------------------------------------------- number formats

/// `34,094`.
pub fn count(n: u64) -> String {
    super::human::group_thousands(&n.to_string())
}

/// A rate a day: whole with separators from 100 up, else 3 significant figures (so 0.0043
/// is not shown as 0).
pub fn count_f(v: f64) -> String {
    if v >= 1e15 {
        // Past u64's digits and anyone's reading: named (`1.00 quadrillion`).
        human::count(v)
    } else if v >= 100.0 {
        count(v.round() as u64)
    } else if v > 0.0 && v < 0.001 {
        "under 0.001".to_string()
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
pub fn plural_verb(n: u64, phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((noun, rest)) if noun != "timed" => format!("{} {rest}", plural(n, noun)),
        _ => format!("{} {phrase}", count(n)),
    }
}

/// A share to 3 significant figures: `47.9%`.
pub fn pct3(v: f64) -> String {
    if v > 0.0 && v < 1e-5 {
        return "under 0.001%".to_string();
    }
    format!("{}%", crate::units::significant(v * 100.0, 3))
}

/// A share as the reports round it: `1.94%`.
pub fn rate(v: f64) -> String {
    Rate(v).rounded()
}

/// Seconds for reading: `800ms`, `1m 14s`, `3h 12m` (whole minutes from an hour up, whole
/// seconds from a second up).
pub fn duration_text(seconds: f64) -> String {
    let millis = if seconds >= 3600.0 {
        (seconds / 60.0).round() as u64 * 60_000
    } else if seconds >= 1.0 {
        seconds.round() as u64 * 1000
    } else {
        (seconds * 1000.0).round() as u64
    };
    humantime::format_duration(std::time::Duration::from_millis(millis)).to_string()
}

/// The `--duration-unit` values that name `units` (`us or ns`); every unit when none is left.
pub fn unit_names(units: &[crate::logs::DurationUnit]) -> String {
    let names: Vec<&str> = units.iter().map(|u| u.name()).collect();
    match names.split_last() {
        None => "s, ms, us or ns".to_string(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// `1m 5s`: whole seconds.
pub fn seconds_text(seconds: f64) -> String {
    humantime::format_duration(std::time::Duration::from_secs(
        seconds.max(0.0).round() as u64
    ))
    .to_string()
}

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

/// An attempts multiplier for reading: `4x`, `1.00x`.
pub fn times(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}x", human::group_thousands(&format!("{value:.0}")))
    } else {
        format!("{}x", human::count(value))
    }
}

/// What the proxy's measured tries make of the layers figure (`observed.amplification`):
/// `the layers figure with the proxy's layer measured: 1.12x expected, 12x at most at the
/// backend an intent, over 2 layers (the model's 16x if the proxy made the client's tries)`.
pub fn proxy_layer(l: &crate::findings::AmplificationObserved) -> String {
    format!(
        "the layers figure with the proxy's layer measured: {} expected, {} at most at the backend an intent, over {} (the model's {} if the proxy made the client's tries)",
        times(l.expected),
        times(l.worst_case),
        layers(l.layers),
        times(l.modelled_worst_case)
    )
}

/// `1 layer`, `5 layers`.
pub fn layers(n: u32) -> String {
    if n == 1 {
        "1 layer".to_string()
    } else {
        format!("{n} layers")
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
