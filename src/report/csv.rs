//! `--format csv`: a header row of dotted names and one row per estimate.
//!
//! Scripts pick CSV columns by position (`cut -d, -f5`), so a column keeps its place once
//! shipped: the columns of the first release come first, in their order, then the `extra`
//! columns of `logs` (which only ever grow at their end), then every estimate field added
//! since, in JSON order. JSON names each field and has no such constraint.

use crate::model::Estimate;

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
