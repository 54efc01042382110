//! The words of the logs report's sections and of a sweep's verdict, as plain sentences: the
//! HTML page says them as they are; the markdown says the same (with its emphasis).

use crate::findings::{
    Intervals, KeyCoverage, MIN_EVIDENCE, Observed, ObservedDuplicates, ProcessedTwice,
    SharedAddresses,
};
use crate::inputs::Input;
use crate::model::Estimate;
use crate::report::human;
use crate::units::Rate;

use super::{count, plural};

/// The per-day table's columns.
pub const PER_DAY: [&str; 6] = [
    "date",
    "mutating",
    "timed out",
    "timed out, succeeded",
    "timed out, unknown",
    "timeout rate",
];
/// The per-endpoint table's columns.
pub const PER_ENDPOINT: [&str; 6] = [
    "endpoint",
    "mutating",
    "timeout rate",
    "succeeded share",
    "duplicates a month",
    "refunds a month",
];
/// The columns of the endpoints whose attempts lack keys.
pub const KEYS_FIRST: [&str; 4] = ["endpoint", "keyed", "duplicates a month", "refunds a month"];
/// A sweep's columns after the swept input's.
pub const SWEEP: [&str; 6] = [
    "duplicates a day",
    "duplicates a month",
    "refunds a month",
    "unanswered a day",
    "extra attempts a day",
    "key store",
];
/// `0 to 5`: the swept input's first and last values.
pub fn sweep_span(input: Input, estimates: &[crate::model::Estimate], currency: &str) -> String {
    let shown = |e: &crate::model::Estimate| {
        crate::report::words::input_value(input, input.get(&e.inputs), currency)
    };
    match (estimates.first(), estimates.last()) {
        (Some(first), Some(last)) => format!("{} to {}", shown(first), shown(last)),
        _ => String::new(),
    }
}

/// `0 to 5 (6 values)`: the swept input's range, as its line of inputs says it.
pub fn sweep_range(input: Input, estimates: &[crate::model::Estimate], currency: &str) -> String {
    let span = sweep_span(input, estimates, currency);
    format!("{span} ({} values)", estimates.len())
}

/// One input in a sweep's marks: `order value $85 (--order-value)`.
pub fn mark_item(label: &str, value: &str, detail: Option<&str>) -> String {
    match detail {
        Some(d) => format!("{label} {value} ({d})"),
        None => format!("{label} {value}"),
    }
}

/// One kind's paragraph of a sweep's marks: `given: ITEM; ITEM`, or for the defaults
/// (whose items name only their flags) `assumed, the default, each settled by its flag:
/// ITEM; ...`.
pub fn marks_line(kind: crate::findings::Kind, defaults: bool, items: &[String]) -> String {
    let name = super::kind_name(kind);
    if defaults {
        format!(
            "{name}, the default, each settled by its flag: {}",
            items.join("; ")
        )
    } else {
        format!("{name}: {}", items.join("; "))
    }
}

pub const PER_DAY_TITLE: &str = "Per day (UTC)";
pub const PER_ENDPOINT_TITLE: &str = "Top endpoints (by duplicates a month)";
pub const KEYS_FIRST_TITLE: &str = "Add keys here first";

/// `Read 3,000 rows from ... to ...: 1,020 mutating attempts, 0 bad rows skipped.`
pub fn read_summary(o: &Observed) -> String {
    let span = match (&o.first_timestamp, &o.last_timestamp) {
        (Some(a), Some(b)) => format!(" from {a} to {b}"),
        _ => String::new(),
    };
    format!(
        "Read {} rows{span}: {} mutating attempts, {} intents, {} bad rows skipped.",
        count(o.rows),
        count(o.mutating_attempts),
        count(o.intents),
        count(o.bad_rows)
    )
}

/// What the inputs' 95% intervals make of the duplicates and the refunds.
pub fn over_intervals(i: &Intervals, currency: &str) -> String {
    let refunds = crate::units::round_outward(i.refund_cost_per_month, 3);
    format!(
        "Over the inputs' 95% intervals, duplicate charges range from {} to {} a month and \
         refunds from {} to {} a month.",
        human::count(i.duplicates_per_month[0]),
        human::count(i.duplicates_per_month[1]),
        // To 3 significant figures, outward, as the table report's intervals.
        human::money(refunds[0], currency),
        human::money(refunds[1], currency),
    )
}

/// The note under the endpoints table when some had too few attempts.
pub fn few_attempts() -> String {
    format!(
        "Fewer than {MIN_EVIDENCE} mutating attempts: too few for its own timeout rate; its \
         estimate uses the whole log's, and it is listed after the measured endpoints."
    )
}

/// `Intents (grouped by idempotency key)`; `None` when attempts were not grouped.
pub fn intents_title(grouping: &str) -> Option<String> {
    let by = match grouping {
        "none" => return None,
        "key" => "idempotency key",
        _ => "fingerprint: client, user agent, method, path with query, request length",
    };
    Some(format!("Intents (grouped by {by})"))
}

fn per_day(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!(" ({} a day)", human::count(v)))
}

/// A server's own log: the intents it executed more than once; `strong` marks the
/// count (markdown's emphasis, or nothing).
pub fn processed_twice(p: &ProcessedTwice, strong: &dyn Fn(String) -> String) -> String {
    format!(
        "Processed twice: {} executions past the first{}, in {} intents answered 2xx more \
         than once (the server's own log: a 2xx is an execution).",
        strong(count(p.extra_executions)),
        per_day(p.per_day),
        count(p.intents)
    )
}

/// The duplicates the log itself shows, beside the model's; `strong` marks the count.
pub fn duplicates_seen(d: &ObservedDuplicates, strong: &dyn Fn(String) -> String) -> String {
    let [lo, hi] = d.predicted_per_day_interval;
    format!(
        "Duplicates seen in the log: {}{}, intents with two attempts or more known to have \
         executed ({} by a timed-out attempt's upstream 2xx). The model predicts {} a day \
         (95%: {} to {}) for the same inputs.",
        strong(count(d.count)),
        per_day(d.per_day),
        count(d.evidence.upstream_2xx),
        human::count(d.predicted_per_day),
        human::count(lo),
        human::count(hi)
    )
}

/// Why the duplicates seen and predicted differ: the note (a clause) as a sentence.
pub fn duplicates_note(note: &str) -> String {
    let mut chars = note.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// The retries a uniqueness check refused, when there were some.
pub fn conflicts(d: &ObservedDuplicates) -> Option<String> {
    (d.evidence.conflict_409_422 > 0).then(|| {
        format!(
            "{} answered 409 or 422 on a retry: a uniqueness check refused the duplicate.",
            plural(d.evidence.conflict_409_422, "intent")
        )
    })
}

/// Fingerprints that looked like shared addresses.
pub fn shared_addresses(sh: &SharedAddresses) -> String {
    format!(
        "{} sent more than {} attempts a minute, likely shared addresses (NAT): their \
         attempts from then on were not grouped (--shared-address-rate).",
        plural(sh.fingerprints, "fingerprint"),
        sh.rate
    )
}

/// The share of mutating attempts that carried a key.
pub fn key_coverage(k: &KeyCoverage) -> String {
    format!(
        "Key coverage: {} of mutating attempts carried an idempotency key ({}).",
        Rate(k.share).rounded(),
        count(k.keyed_attempts)
    )
}

/// `low to high`, or one value when they read the same.
pub fn range(low: String, high: String) -> String {
    if low == high {
        low
    } else {
        format!("{low} to {high}")
    }
}

/// A sweep's verdict: the refunds and the key store over the swept values.
pub fn sweep_verdict(input: Input, estimates: &[Estimate], currency: &str) -> String {
    let (Some(first), Some(last)) = (estimates.first(), estimates.last()) else {
        return String::new();
    };
    let shown = |e: &Estimate| super::input_value(input, input.get(&e.inputs), currency);
    let refunds = estimates.iter().map(|e| e.refund_cost.per_month);
    let low = refunds.clone().fold(f64::INFINITY, f64::min);
    let high = refunds.fold(0.0f64, f64::max);
    let bytes = || estimates.iter().map(|e| e.key_store.bytes);
    format!(
        "with {} from {} to {}, the missing key costs {} a month in refunds; the key store \
         that stops it takes {}.",
        input.label(),
        shown(first),
        shown(last),
        range(human::money(low, currency), human::money(high, currency)),
        range(
            human::size(bytes().fold(f64::INFINITY, f64::min)),
            human::size(bytes().fold(0.0, f64::max))
        ),
    )
}
