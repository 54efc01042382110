//! Where a scenario's inputs come from, and how they are named.
//!
//! Precedence, lowest first: the defaults of `docs/MODEL.md` < `--scenario FILE` <
//! `DUPCOST_*` environment variables < flags (clap folds the last two into one
//! [`ScenarioPatch`]).

use std::fmt;
use std::path::Path;

use serde_json::Value;

use crate::model::{InputError, Scenario};
use crate::units::{Count, Duration, Money, Rate, Size};

/// One input of the model, in the order of `docs/MODEL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    RequestsPerDay,
    TimeoutRate,
    SucceededShare,
    OrderValue,
    Retries,
    Ttl,
    KeySize,
    DaysPerMonth,
}

impl Input {
    /// Every input, in the order of the input table of `docs/MODEL.md`.
    pub const ALL: [Input; 8] = [
        Input::RequestsPerDay,
        Input::TimeoutRate,
        Input::SucceededShare,
        Input::OrderValue,
        Input::Retries,
        Input::Ttl,
        Input::KeySize,
        Input::DaysPerMonth,
    ];

    /// The JSON name (the first column of `docs/MODEL.md`'s input table).
    pub fn json_name(self) -> &'static str {
        match self {
            Input::RequestsPerDay => "requests_per_day",
            Input::TimeoutRate => "timeout_rate",
            Input::SucceededShare => "succeeded_share",
            Input::OrderValue => "order_value",
            Input::Retries => "retries",
            Input::Ttl => "ttl_seconds",
            Input::KeySize => "key_size_bytes",
            Input::DaysPerMonth => "days_per_month",
        }
    }

    /// The flag, without its dashes.
    pub fn flag(self) -> &'static str {
        match self {
            Input::RequestsPerDay => "requests-per-day",
            Input::TimeoutRate => "timeout-rate",
            Input::SucceededShare => "succeeded-share",
            Input::OrderValue => "order-value",
            Input::Retries => "retries",
            Input::Ttl => "ttl",
            Input::KeySize => "key-size",
            Input::DaysPerMonth => "days-per-month",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Input::RequestsPerDay => "requests per day",
            Input::TimeoutRate => "timeout rate",
            Input::SucceededShare => "succeeded share",
            Input::OrderValue => "order value",
            Input::Retries => "retries",
            Input::Ttl => "key TTL",
            Input::KeySize => "key size",
            Input::DaysPerMonth => "days per month",
        }
    }

    /// Finds an input by flag, JSON name or label (`timeout-rate`, `timeout_rate`, `ttl`).
    pub fn from_name(name: &str) -> Option<Input> {
        let wanted = name
            .trim()
            .trim_start_matches("--")
            .replace(['_', ' '], "-");
        Input::ALL
            .into_iter()
            .find(|input| wanted == input.flag() || wanted == input.json_name().replace('_', "-"))
    }

    /// The input's value in `scenario`, as a number in JSON units.
    pub fn get(self, scenario: &Scenario) -> f64 {
        match self {
            Input::RequestsPerDay => scenario.requests_per_day,
            Input::TimeoutRate => scenario.timeout_rate,
            Input::SucceededShare => scenario.succeeded_share,
            Input::OrderValue => scenario.order_value,
            Input::Retries => f64::from(scenario.retries),
            Input::Ttl => scenario.ttl_seconds as f64,
            Input::KeySize => scenario.key_size_bytes as f64,
            Input::DaysPerMonth => scenario.days_per_month,
        }
    }

    /// Sets the input from a number in JSON units (whole-number inputs are rounded).
    pub fn set(self, scenario: &mut Scenario, value: f64) {
        match self {
            Input::RequestsPerDay => scenario.requests_per_day = value,
            Input::TimeoutRate => scenario.timeout_rate = value,
            Input::SucceededShare => scenario.succeeded_share = value,
            Input::OrderValue => scenario.order_value = value,
            Input::Retries => scenario.retries = value.round().clamp(0.0, u32::MAX as f64) as u32,
            Input::Ttl => scenario.ttl_seconds = value.round().max(0.0) as u64,
            Input::KeySize => scenario.key_size_bytes = value.round().max(0.0) as u64,
            Input::DaysPerMonth => scenario.days_per_month = value,
        }
    }

    /// Whether the input only takes whole numbers.
    pub fn is_integer(self) -> bool {
        matches!(self, Input::Retries | Input::Ttl | Input::KeySize)
    }

    /// Parses a value in any form the input's flag accepts (`0.35%`, `$12.50`, `36h`, `2KiB`),
    /// returning it in JSON units.
    pub fn parse(self, text: &str) -> Result<f64, String> {
        match self {
            Input::RequestsPerDay | Input::DaysPerMonth => text.parse::<Count>().map(|c| c.0),
            Input::TimeoutRate | Input::SucceededShare => text.parse::<Rate>().map(|r| r.0),
            Input::OrderValue => text.parse::<Money>().map(|m| m.0),
            Input::Retries => text
                .trim()
                .parse::<u32>()
                .map(f64::from)
                .map_err(|_| format!("'{text}' is not a whole number of retries from 0 to 100")),
            Input::Ttl => text.parse::<Duration>().map(|d| d.0 as f64),
            Input::KeySize => text.parse::<Size>().map(|s| s.0 as f64),
        }
    }

    /// The value in the input's short, re-parseable form (`0.2%`, `1d`, `1kB`); money without a symbol.
    pub fn display(self, value: f64) -> String {
        match self {
            Input::TimeoutRate | Input::SucceededShare => Rate(value).to_string(),
            Input::OrderValue => Money(value).to_string(),
            Input::Ttl => Duration(value.round() as u64).to_string(),
            Input::KeySize => Size(value.round() as u64).to_string(),
            Input::RequestsPerDay | Input::DaysPerMonth | Input::Retries => value.to_string(),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}", self.flag())
    }
}

/// Some inputs, each either given or not: what a scenario file or the flags say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScenarioPatch {
    values: Vec<(Input, f64)>,
}

impl ScenarioPatch {
    /// Records a value (in JSON units) for `input`; a later value for the same input wins.
    pub fn set(&mut self, input: Input, value: f64) {
        self.values.retain(|(i, _)| *i != input);
        self.values.push((input, value));
    }

    /// The value given for `input`, if any.
    pub fn get(&self, input: Input) -> Option<f64> {
        self.values
            .iter()
            .find(|(i, _)| *i == input)
            .map(|(_, v)| *v)
    }

    /// Writes the given values over `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        for &(input, value) in &self.values {
            input.set(scenario, value);
        }
    }

    /// Reads a scenario file: a JSON object of inputs by their JSON names (or any JSON dupcost
    /// writes, which has it under `inputs`: see [`crate::scenario_file`]), each a number in
    /// JSON units (`"timeout_rate": 0.002`) or a string in the flag's form (`"timeout_rate": "0.2%"`).
    pub fn from_json(text: &str) -> Result<ScenarioPatch, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let map = crate::scenario_file::inputs_object(value)?;
        let mut patch = ScenarioPatch::default();
        for (key, value) in map {
            let input = Input::ALL
                .into_iter()
                .find(|i| i.json_name() == key)
                .ok_or_else(|| {
                    let known: Vec<_> = Input::ALL.iter().map(|i| i.json_name()).collect();
                    format!("unknown input '{key}' (known: {})", known.join(", "))
                })?;
            let number = match &value {
                Value::Number(n) => n
                    .as_f64()
                    .ok_or_else(|| format!("{key}: {n} is not a number"))?,
                Value::String(s) => input.parse(s).map_err(|e| format!("{key}: {e}"))?,
                other => return Err(format!("{key}: expected a number or a string, got {other}")),
            };
            if input.is_integer() && (number.fract() != 0.0 || number < 0.0) {
                return Err(format!("{key}: {number} is not a whole number >= 0"));
            }
            if input.is_integer() && number > u32::MAX as f64 && input == Input::Retries {
                return Err(format!("{key}: {number} is out of range 0..=100"));
            }
            patch.set(input, number);
        }
        Ok(patch)
    }

    /// Reads a scenario file from disk; `-` reads standard input.
    pub fn from_file(path: &Path) -> Result<ScenarioPatch, String> {
        let shown = path.display();
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
                .map_err(|e| format!("scenario file -: {e}"))?
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("scenario file {shown}: {e}"))?
        };
        ScenarioPatch::from_json(&text).map_err(|e| format!("scenario file {shown}: {e}"))
    }
}

/// Builds and validates the scenario: defaults, then the file, then the flags.
///
/// A value out of range is reported by the flag name when it came from a flag, and by the
/// JSON name and the file when it came from the file.
pub fn resolve(
    file: Option<(&Path, &ScenarioPatch)>,
    flags: &ScenarioPatch,
) -> Result<Scenario, String> {
    let mut scenario = Scenario::default();
    if let Some((path, patch)) = file {
        patch.apply(&mut scenario);
        scenario
            .validate()
            .map_err(|e| format!("scenario file {}: {e}", path.display()))?;
    }
    flags.apply(&mut scenario);
    scenario.validate().map_err(|e| describe_input_error(&e))?;
    Ok(scenario)
}

/// Names the flag behind a validation error: `--days-per-month: must be ... (got 0)`.
pub fn describe_input_error(error: &InputError) -> String {
    match Input::ALL
        .into_iter()
        .find(|i| i.json_name() == error.field)
    {
        Some(input) => format!("{input}: {} (got {})", error.problem, error.value),
        None => error.to_string(),
    }
}

/// The scenario as a `--scenario` file: the `inputs` object of `docs/MODEL.md`, pretty-printed.
pub fn to_scenario_json(scenario: &Scenario) -> String {
    let mut text = serde_json::to_string_pretty(scenario).expect("a Scenario always serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for input in Input::ALL {
            assert_eq!(Input::from_name(input.flag()), Some(input));
            assert_eq!(Input::from_name(input.json_name()), Some(input));
        }
        assert_eq!(Input::from_name("ttl"), Some(Input::Ttl));
        assert_eq!(Input::from_name("nope"), None);
    }

    #[test]
    fn get_set_display_parse() {
        let mut s = Scenario::default();
        for input in Input::ALL {
            let v = input.get(&s);
            assert_eq!(input.parse(&input.display(v)).unwrap(), v, "{input}");
            input.set(&mut s, v);
        }
        assert_eq!(s, Scenario::default());
    }

    #[test]
    fn scenario_file_numbers_and_strings() {
        let patch = ScenarioPatch::from_json(
            r#"{"timeout_rate": "0.5%", "retries": 1, "ttl_seconds": "2d"}"#,
        )
        .unwrap();
        let s = resolve(None, &patch).unwrap();
        assert_eq!(s.timeout_rate, 0.005);
        assert_eq!(s.retries, 1);
        assert_eq!(s.ttl_seconds, 172_800);
    }

    #[test]
    fn scenario_file_errors() {
        for (text, needle) in [
            ("[1]", "JSON object"),
            ("{", "not valid JSON"),
            (r#"{"timeout": 1}"#, "unknown input 'timeout'"),
            (r#"{"retries": 1.5}"#, "whole number"),
            (r#"{"timeout_rate": true}"#, "expected a number or a string"),
            (r#"{"timeout_rate": "2"}"#, "did you mean 2%"),
        ] {
            let err = ScenarioPatch::from_json(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let patch = ScenarioPatch::from_json(r#"{"timeout_rate": 2}"#).unwrap();
        let err = resolve(
            Some((Path::new("s.json"), &patch)),
            &ScenarioPatch::default(),
        )
        .unwrap_err();
        assert!(err.contains("s.json: timeout_rate"), "{err}");
    }

    #[test]
    fn flags_override_file() {
        let file = ScenarioPatch::from_json(r#"{"retries": 1, "order_value": 10}"#).unwrap();
        let mut flags = ScenarioPatch::default();
        flags.set(Input::Retries, 5.0);
        let s = resolve(Some((Path::new("f"), &file)), &flags).unwrap();
        assert_eq!((s.retries, s.order_value), (5, 10.0));
    }
}
