//! `--format csv`: a header row of dotted names and one row per estimate.
//!
//! Scripts pick CSV columns by position (`cut -d, -f5`), so a column keeps its place once
//! shipped: the columns of the first release come first, in their order, then the `extra`
//! columns of `logs` (which only ever grow at their end), then every estimate field added
//! since, in JSON order. JSON names each field and has no such constraint.

use crate::findings::{Intervals, Observed};
use crate::model::Estimate;

use super::model::LogsReport;

use super::fields;

/// The estimate's CSV columns as dupcost 0.1.0 wrote them, in their order.
const FIRST_RELEASE: [&str; 21] = [
    "inputs.requests_per_day",
    "inputs.timeout_rate",
    "inputs.succeeded_share",
    "inputs.order_value",
    "inputs.retries",
    "inputs.ttl_seconds",
    "inputs.key_size_bytes",
    "inputs.days_per_month",
    "duplicates.per_day",
    "duplicates.per_month",
    "duplicates.rule_of_thumb_per_day",
    "refund_cost.per_month",
    "refund_cost.per_year",
    "unanswered.zero_retries_per_day",
    "unanswered.zero_retries_per_month",
    "unanswered.charged_zero_retries_per_month",
    "unanswered.per_day",
    "unanswered.charged_per_day",
    "extra_attempts_per_day",
    "key_store.live_keys",
    "key_store.bytes",
];

/// A header row of dotted names and one value row per estimate (one for `estimate`, one per
/// value for a sweep). Extra `(name, value)` columns, the same for every row's position, come
/// after the first release's estimate columns (used by `logs` for its `observed.*` figures).
pub fn estimates(estimates: &[Estimate], extra: &[(&str, String)]) -> Vec<u8> {
    let names: Vec<&str> = fields(&Estimate::new(Default::default()))
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let (first, added) = column_order(&names);
    let mut writer = csv::Writer::from_writer(Vec::new());
    let header = first
        .iter()
        .map(|&i| names[i])
        .chain(extra.iter().map(|(name, _)| *name))
        .chain(added.iter().map(|&i| names[i]));
    writer
        .write_record(header)
        .expect("writing to memory cannot fail");
    for e in estimates {
        let values: Vec<String> = fields(e)
            .into_iter()
            .map(|(_, value)| value.to_string())
            .collect();
        let row = first
            .iter()
            .map(|&i| values[i].clone())
            .chain(extra.iter().map(|(_, value)| value.clone()))
            .chain(added.iter().map(|&i| values[i].clone()));
        writer
            .write_record(row)
            .expect("writing to memory cannot fail");
    }
    writer.into_inner().expect("writing to memory cannot fail")
}

/// The indexes into `names` of the first release's columns (in that release's order) and of
/// the ones added since (in `names`' order).
fn column_order(names: &[&str]) -> (Vec<usize>, Vec<usize>) {
    let first: Vec<usize> = FIRST_RELEASE
        .iter()
        .filter_map(|old| names.iter().position(|n| n == old))
        .collect();
    let added = (0..names.len()).filter(|i| !first.contains(i)).collect();
    (first, added)
}

/// The CSV report: the estimate's columns, then `observed.*` scalars (empty when unknown),
/// then `intervals.*.low` and `.high`.
pub fn logs(r: &LogsReport) -> Vec<u8> {
    let mut extra = observed_columns(r.observed);
    extra.extend(interval_columns(r.intervals));
    extra.extend(later_observed_columns(r.observed));
    extra.extend(bounds_columns(r));
    extra.extend(duration_unit_columns(r));
    extra.extend(amplification_columns(r.observed));
    extra.extend(kind_columns(r));
    extra.extend(other_endpoints_columns(r.observed));
    estimates(&[*r.estimate], &extra)
}

/// An absent figure as an empty CSV cell.
fn opt(v: Option<String>) -> String {
    v.unwrap_or_default()
}

/// The `observed.*` columns shipped first.
fn observed_columns(o: &Observed) -> Vec<(&'static str, String)> {
    vec![
        ("observed.rows", o.rows.to_string()),
        (
            "observed.mutating_attempts",
            o.mutating_attempts.to_string(),
        ),
        ("observed.intents", o.intents.to_string()),
        ("observed.timed_out", o.timed_out.to_string()),
        (
            "observed.timed_out_succeeded",
            opt(o.timed_out_succeeded.map(|v| v.to_string())),
        ),
        (
            "observed.days_covered",
            opt(o.days_covered.map(|v| v.to_string())),
        ),
        ("observed.first_timestamp", opt(o.first_timestamp.clone())),
        ("observed.last_timestamp", opt(o.last_timestamp.clone())),
        ("observed.bad_rows", o.bad_rows.to_string()),
        (
            "observed.retries_observed.mean",
            opt(o.retries_observed.map(|r| r.mean.to_string())),
        ),
        (
            "observed.retries_observed.max",
            opt(o.retries_observed.map(|r| r.max.to_string())),
        ),
        (
            "observed.timed_out_unknown",
            opt(o.timed_out_unknown.map(|v| v.to_string())),
        ),
        (
            "observed.timed_out_matched",
            opt(o.timed_out_matched.map(|v| v.to_string())),
        ),
        ("observed.rows_filtered", o.rows_filtered.to_string()),
    ]
}

/// The `intervals.*.low` and `.high` columns.
fn interval_columns(i: &Intervals) -> Vec<(&'static str, String)> {
    vec![
        (
            "intervals.requests_per_day.low",
            i.requests_per_day[0].to_string(),
        ),
        (
            "intervals.requests_per_day.high",
            i.requests_per_day[1].to_string(),
        ),
        ("intervals.timeout_rate.low", i.timeout_rate[0].to_string()),
        ("intervals.timeout_rate.high", i.timeout_rate[1].to_string()),
        (
            "intervals.succeeded_share.low",
            i.succeeded_share[0].to_string(),
        ),
        (
            "intervals.succeeded_share.high",
            i.succeeded_share[1].to_string(),
        ),
        (
            "intervals.duplicates_per_month.low",
            i.duplicates_per_month[0].to_string(),
        ),
        (
            "intervals.duplicates_per_month.high",
            i.duplicates_per_month[1].to_string(),
        ),
        (
            "intervals.refund_cost_per_month.low",
            i.refund_cost_per_month[0].to_string(),
        ),
        (
            "intervals.refund_cost_per_month.high",
            i.refund_cost_per_month[1].to_string(),
        ),
    ]
}

/// The `observed.*` columns added after the first release, after every column shipped
/// before it, so a column keeps its position.
fn later_observed_columns(o: &Observed) -> Vec<(&'static str, String)> {
    vec![
        // After every column shipped before, so a column keeps its position.
        ("observed.intent_grouping", o.intent_grouping.to_string()),
        (
            "observed.observed_duplicates.count",
            opt(o.observed_duplicates.as_ref().map(|d| d.count.to_string())),
        ),
        (
            "observed.observed_duplicates.per_day",
            opt(o
                .observed_duplicates
                .as_ref()
                .and_then(|d| d.per_day)
                .map(|v| v.to_string())),
        ),
        (
            "observed.key_coverage.keyed_attempts",
            opt(o
                .key_coverage
                .as_ref()
                .map(|k| k.keyed_attempts.to_string())),
        ),
        (
            "observed.key_coverage.share",
            opt(o.key_coverage.as_ref().map(|k| k.share.to_string())),
        ),
        // The proxy's own retries (Envoy's attempt count, Traefik's RetryAttempts).
        (
            "observed.proxy_retries.attempts",
            opt(o.proxy_retries.map(|p| p.attempts.to_string())),
        ),
        (
            "observed.proxy_retries.retried",
            opt(o.proxy_retries.map(|p| p.retried.to_string())),
        ),
        (
            "observed.proxy_retries.retries",
            opt(o.proxy_retries.map(|p| p.retries.to_string())),
        ),
        (
            "observed.proxy_retries.mean",
            opt(o.proxy_retries.map(|p| p.mean.to_string())),
        ),
        (
            "observed.proxy_retries.max",
            opt(o.proxy_retries.map(|p| p.max.to_string())),
        ),
        // A server's own log (a webhook receiver's): intents executed twice, as seen.
        (
            "observed.processed_twice.intents",
            opt(o.processed_twice.map(|p| p.intents.to_string())),
        ),
        (
            "observed.processed_twice.extra_executions",
            opt(o.processed_twice.map(|p| p.extra_executions.to_string())),
        ),
        (
            "observed.processed_twice.per_day",
            opt(o
                .processed_twice
                .and_then(|p| p.per_day)
                .map(|v| v.to_string())),
        ),
    ]
}

/// After every column shipped before: an assumed share's bounds and the
/// duplicates and refunds over them, as JSON `bounds`; empty when the share is measured.
fn bounds_columns(r: &LogsReport) -> Vec<(&'static str, String)> {
    let b = r.output_bounds.as_ref().map(|(b, _)| b);
    let end = |f: fn(&crate::findings::OutputBounds) -> [f64; 2], at: usize| {
        opt(b.map(|b| f(b)[at].to_string()))
    };
    vec![
        ("bounds.succeeded_share.low", end(|b| b.succeeded_share, 0)),
        ("bounds.succeeded_share.high", end(|b| b.succeeded_share, 1)),
        (
            "bounds.duplicates_per_month.low",
            end(|b| b.duplicates_per_month, 0),
        ),
        (
            "bounds.duplicates_per_month.high",
            end(|b| b.duplicates_per_month, 1),
        ),
        (
            "bounds.refunds_per_month.low",
            end(|b| b.refunds_per_month, 0),
        ),
        (
            "bounds.refunds_per_month.high",
            end(|b| b.refunds_per_month, 1),
        ),
    ]
}

/// The timeout rate's durations read in a unit nothing said (assumed or
/// inferred), as JSON `input_kinds.timeout_rate.duration_unit`; empty otherwise.
fn duration_unit_columns(r: &LogsReport) -> Vec<(&'static str, String)> {
    let mark = r
        .input(crate::inputs::Input::TimeoutRate)
        .kind
        .duration_unit
        .as_ref();
    vec![
        (
            "input_kinds.timeout_rate.duration_unit.unit",
            opt(mark.map(|m| m.unit.to_string())),
        ),
        (
            "input_kinds.timeout_rate.duration_unit.kind",
            opt(mark.map(|m| {
                serde_json::to_value(m.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            })),
        ),
    ]
}

/// The timeout rate's and the succeeded share's marks, as JSON `input_kinds.NAME.thin` (a
/// figure from fewer trials than the minimum: its count and of how many) and
/// `input_kinds.NAME.inferred_field` (the field it was read through and the flag that makes
/// it given); empty where JSON leaves them out.
fn kind_columns(r: &LogsReport) -> Vec<(&'static str, String)> {
    use crate::inputs::Input;
    let mut out = Vec::new();
    for (input, names) in [
        (
            Input::TimeoutRate,
            [
                "input_kinds.timeout_rate.thin.count",
                "input_kinds.timeout_rate.thin.of",
                "input_kinds.timeout_rate.inferred_field.field",
                "input_kinds.timeout_rate.inferred_field.given_by",
            ],
        ),
        (
            Input::SucceededShare,
            [
                "input_kinds.succeeded_share.thin.count",
                "input_kinds.succeeded_share.thin.of",
                "input_kinds.succeeded_share.inferred_field.field",
                "input_kinds.succeeded_share.inferred_field.given_by",
            ],
        ),
    ] {
        let kind = &r.input(input).kind;
        let thin = kind.thin.as_ref();
        let inferred = kind.inferred_field.as_ref();
        out.extend([
            (names[0], opt(thin.map(|t| t.count.to_string()))),
            (names[1], opt(thin.map(|t| t.of.to_string()))),
            (names[2], opt(inferred.map(|i| i.field.to_string()))),
            (names[3], opt(inferred.map(|i| i.given_by.clone()))),
        ]);
    }
    out
}

/// The endpoints past the top ones, as JSON `observed.per_endpoint_other`; empty when every
/// endpoint is listed.
fn other_endpoints_columns(o: &Observed) -> Vec<(&'static str, String)> {
    let other = o.per_endpoint_other.as_ref();
    vec![
        (
            "observed.per_endpoint_other.endpoints",
            opt(other.map(|e| e.endpoints.to_string())),
        ),
        (
            "observed.per_endpoint_other.mutating",
            opt(other.map(|e| e.mutating.to_string())),
        ),
        (
            "observed.per_endpoint_other.timed_out",
            opt(other.map(|e| e.timed_out.to_string())),
        ),
        (
            "observed.per_endpoint_other.duplicates_per_month",
            opt(other.map(|e| e.duplicates_per_month.to_string())),
        ),
        (
            "observed.per_endpoint_other.refund_per_month",
            opt(other.map(|e| e.refund_per_month.to_string())),
        ),
    ]
}

/// The layers figure with the proxy's layer measured, as JSON
/// `observed.amplification`; empty without a proxy-attempts column.
fn amplification_columns(o: &Observed) -> Vec<(&'static str, String)> {
    let a = o.amplification.as_ref();
    vec![
        (
            "observed.amplification.attempts_mean",
            opt(a.map(|a| a.attempts_mean.to_string())),
        ),
        (
            "observed.amplification.attempts_max",
            opt(a.map(|a| a.attempts_max.to_string())),
        ),
        (
            "observed.amplification.layers",
            opt(a.map(|a| a.layers.to_string())),
        ),
        (
            "observed.amplification.expected",
            opt(a.map(|a| a.expected.to_string())),
        ),
        (
            "observed.amplification.worst_case",
            opt(a.map(|a| a.worst_case.to_string())),
        ),
    ]
}

/// `--format csv`: a header of dotted names and one row an estimate.
pub struct Csv;

impl super::Renderer for Csv {
    fn render(&self, r: &super::Report) -> Result<Vec<u8>, String> {
        use super::Run;
        match &r.run {
            Run::Estimate { estimate: e, .. } => Ok(estimates(&[**e], &[])),
            Run::Sweep { estimates: all, .. } => Ok(estimates(all, &[])),
            Run::Logs { report, .. } => Ok(logs(report)),
            Run::Probe { .. } => Err(
                "--format csv: a probe's checks are not rows of figures; give --format json, \
                 table, markdown or html"
                    .to_string(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No column of the first release was dropped or renamed, and each keeps its position.
    #[test]
    fn first_release_columns_keep_their_positions() {
        let csv = estimates(
            &[Estimate::new(Default::default())],
            &[("observed.rows", "1".into())],
        );
        let header = String::from_utf8(csv).unwrap();
        let header: Vec<&str> = header.lines().next().unwrap().split(',').collect();
        assert_eq!(header[..21], FIRST_RELEASE);
        assert_eq!(header[21], "observed.rows");
        assert!(
            header[22..].contains(&"retry_horizon_seconds"),
            "{header:?}"
        );
    }
}
