//! What `--scenario FILE` accepts: any JSON dupcost writes.
//!
//! A saved scenario (`s` in the explorer, `dupcost logs --save-scenario`) is the inputs object
//! itself; an estimate, a logs report and each element of a sweep's array carry it under
//! `inputs`, next to output groups (`duplicates`, `observed`, ...) that a scenario ignores.
//! Inside the inputs object every name must be an input: a typo there is an error, not a
//! silently ignored value.

use serde_json::{Map, Value};

/// The inputs object of a JSON document dupcost wrote (or a person wrote by hand).
pub fn inputs_object(document: Value) -> Result<Map<String, Value>, String> {
    match document {
        Value::Object(mut map) => match map.remove("inputs") {
            Some(Value::Object(inputs)) => Ok(inputs),
            Some(other) => Err(format!(
                "\"inputs\" is {}, not an object of inputs",
                kind(&other)
            )),
            None => Ok(map),
        },
        Value::Array(items) => Err(format!(
            "a JSON array of {} items (a sweep's output?), not a JSON object: pick one element, e.g. jq '.[0]'",
            items.len()
        )),
        other => Err(format!(
            "expected a JSON object of inputs, like {{\"timeout_rate\": 0.002}}, got {}",
            kind(&other)
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn takes_the_inputs_object_and_ignores_output_groups() {
        let estimate =
            json!({"inputs": {"retries": 1}, "duplicates": {"per_day": 2.0}, "future_group": 1});
        assert_eq!(
            inputs_object(estimate).unwrap(),
            json!({"retries": 1}).as_object().cloned().unwrap()
        );
        let flat = json!({"retries": 1, "typo": 2});
        assert_eq!(
            inputs_object(flat).unwrap().len(),
            2,
            "a flat object is the inputs themselves"
        );
    }

    #[test]
    fn refuses_what_is_no_scenario() {
        for (document, needle) in [
            (json!([{"inputs": {}}]), "pick one element, e.g. jq '.[0]'"),
            (json!({"inputs": [1]}), "\"inputs\" is an array"),
            (json!(3), "got a number"),
        ] {
            let err = inputs_object(document).unwrap_err();
            assert!(err.contains(needle), "{err}");
        }
    }
}
