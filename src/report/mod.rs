//! Renderers of estimates: each format is a small module of pure functions to bytes.

pub mod csv;
pub mod human;
pub mod json;
pub mod logs;
pub mod svg;
pub mod table;

use crate::model::Estimate;

/// How a human-facing report looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    /// Currency symbol put before money (`$`, `€`, `EUR `).
    pub currency: String,
    /// Whether to emit ANSI colour and bold.
    pub color: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            currency: "$".to_string(),
            color: false,
        }
    }
}

/// Every input and output of an estimate as `(dotted JSON path, value)`, in JSON order.
///
/// The CSV columns; kept beside the serde structs by a test that compares the two.
pub fn fields(e: &Estimate) -> [(&'static str, f64); 21] {
    let i = &e.inputs;
    [
        ("inputs.requests_per_day", i.requests_per_day),
        ("inputs.timeout_rate", i.timeout_rate),
        ("inputs.succeeded_share", i.succeeded_share),
        ("inputs.order_value", i.order_value),
        ("inputs.retries", f64::from(i.retries)),
        ("inputs.ttl_seconds", i.ttl_seconds as f64),
        ("inputs.key_size_bytes", i.key_size_bytes as f64),
        ("inputs.days_per_month", i.days_per_month),
        ("duplicates.per_day", e.duplicates.per_day),
        ("duplicates.per_month", e.duplicates.per_month),
        (
            "duplicates.rule_of_thumb_per_day",
            e.duplicates.rule_of_thumb_per_day,
        ),
        ("refund_cost.per_month", e.refund_cost.per_month),
        ("refund_cost.per_year", e.refund_cost.per_year),
        (
            "unanswered.zero_retries_per_day",
            e.unanswered.zero_retries_per_day,
        ),
        (
            "unanswered.zero_retries_per_month",
            e.unanswered.zero_retries_per_month,
        ),
        (
            "unanswered.charged_zero_retries_per_month",
            e.unanswered.charged_zero_retries_per_month,
        ),
        ("unanswered.per_day", e.unanswered.per_day),
        ("unanswered.charged_per_day", e.unanswered.charged_per_day),
        ("extra_attempts_per_day", e.extra_attempts_per_day),
        ("key_store.live_keys", e.key_store.live_keys),
        ("key_store.bytes", e.key_store.bytes),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;

    /// The flat fields name every number of the JSON contract, in its order, with its value.
    #[test]
    fn fields_match_the_json_contract() {
        let e = Estimate::new(Scenario::default());
        let json = serde_json::to_value(e).unwrap();
        let mut from_json = Vec::new();
        flatten("", &json, &mut from_json);
        let ours = fields(&e);
        assert_eq!(ours.len(), from_json.len());
        for ((name, value), (json_name, json_value)) in ours.iter().zip(&from_json) {
            assert_eq!(name, json_name);
            assert_eq!(value, json_value, "{name}");
        }
    }

    fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, f64)>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    flatten(&name, v, out);
                }
            }
            v => out.push((prefix.to_string(), v.as_f64().unwrap())),
        }
    }
}
