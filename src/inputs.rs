//! Where a scenario's inputs come from, and how they are named.
//!
//! Precedence, lowest first: the defaults of `docs/MODEL.md` < `--scenario FILE` <
//! `--preset NAME` < `DUPCOST_*` environment variables < flags. clap folds the last two into
//! one [`ScenarioPatch`]; `cli` asks clap which of them gave each value, and [`Sources`] says
//! [`Origin::Env`] for a value from the environment.

use std::fmt;
use std::path::Path;

use serde_json::Value;

use crate::model::{Delays, InputError, Jitter, Scenario, Store};
use crate::units::{Count, Duration, Money, Rate, Seconds, Size};

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
    AttemptTimeout,
    Backoff,
    BackoffFactor,
    BackoffMax,
    Jitter,
    Layers,
    KeyBytes,
    BodyBytes,
    Store,
}

impl Input {
    /// Every input, in the order of the input table of `docs/MODEL.md`.
    pub const ALL: [Input; 17] = [
        Input::RequestsPerDay,
        Input::TimeoutRate,
        Input::SucceededShare,
        Input::OrderValue,
        Input::Retries,
        Input::Ttl,
        Input::KeySize,
        Input::DaysPerMonth,
        Input::AttemptTimeout,
        Input::Backoff,
        Input::BackoffFactor,
        Input::BackoffMax,
        Input::Jitter,
        Input::Layers,
        Input::KeyBytes,
        Input::BodyBytes,
        Input::Store,
    ];

    /// What the input means: the one description behind both `--help` and the TUI.
    pub fn meaning(self) -> &'static str {
        match self {
            Input::RequestsPerDay => {
                "Mutating intents a day: one per customer action (pressing Pay); retries are not counted."
            }
            Input::TimeoutRate => "Share of attempts where the client gives up waiting.",
            Input::SucceededShare => {
                "Share of timed-out attempts that the server had in fact executed."
            }
            Input::OrderValue => {
                "Average money at stake per intent: what one duplicate costs to refund."
            }
            Input::Retries => "Attempts after the first, each sent only after a timeout.",
            Input::Ttl => "How long an idempotency key is kept.",
            Input::KeySize => {
                "Bytes stored per key in the flat store: the key, a request hash, the saved status and body."
            }
            Input::DaysPerMonth => "Month length used for the monthly figures.",
            Input::AttemptTimeout => {
                "How long the client waits for one attempt before it gives up."
            }
            Input::Backoff => "The client's sleep before its first retry, before jitter.",
            Input::BackoffFactor => {
                "How many times longer each backoff is than the one before (2 doubles it)."
            }
            Input::BackoffMax => "The longest backoff: the cap on the growing sleeps.",
            Input::Jitter => {
                "How the client randomises its sleeps (equal: half fixed, half random; full: all random)."
            }
            Input::Layers => {
                "Layers of the call chain that each retry (client, gateway, service ...): attempts multiply at each."
            }
            Input::KeyBytes => "Length of an idempotency key (36: a UUID as text).",
            Input::BodyBytes => {
                "The saved response body kept with each key and replayed to a retry."
            }
            Input::Store => {
                "The key store that sizes the headline: flat bytes a key, Redis or PostgreSQL."
            }
        }
    }

    /// The forms a value may take (the same for the flag, the scenario file and the TUI).
    pub fn forms(self) -> &'static str {
        match self {
            Input::RequestsPerDay => "20000, 20,000, 20k or 1.5M",
            Input::TimeoutRate | Input::SucceededShare => "0.002 or 0.2%",
            Input::OrderValue => "40, 40.50, $40 or 1,250",
            Input::Retries => "a whole number from 0 to 100",
            Input::Ttl => "24h, 1d, 90m, 30s or 1h30m",
            Input::KeySize => "1000, 1kB, 1KiB, 4MB or 1GiB",
            Input::DaysPerMonth => "30 or 30.44",
            Input::AttemptTimeout | Input::Backoff | Input::BackoffMax => "10s, 1.5s, 500ms or 2m",
            Input::BackoffFactor => "a number >= 1, like 2 or 1.5",
            Input::Jitter => "none, equal or full",
            Input::Layers => "a whole number from 1 to 20",
            Input::KeyBytes | Input::BodyBytes => "36, 900, 2kB or 1KiB",
            Input::Store => "bytes, redis or postgres",
        }
    }

    /// The `-h` text: the meaning and the default.
    pub fn short_help(self) -> String {
        let default = self.display(self.get(&Scenario::default()));
        format!("{} [default: {default}]", self.meaning())
    }

    /// The `--help` text: the meaning, the forms and the default.
    pub fn help(self) -> String {
        let default = self.display(self.get(&Scenario::default()));
        format!(
            "{} As {} [default: {default}]",
            self.meaning(),
            self.forms()
        )
    }

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
            Input::AttemptTimeout => "attempt_timeout_seconds",
            Input::Backoff => "backoff_seconds",
            Input::BackoffFactor => "backoff_factor",
            Input::BackoffMax => "backoff_max_seconds",
            Input::Jitter => "jitter",
            Input::Layers => "layers",
            Input::KeyBytes => "key_bytes",
            Input::BodyBytes => "body_bytes",
            Input::Store => "store",
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
            Input::AttemptTimeout => "attempt-timeout",
            Input::Backoff => "backoff",
            Input::BackoffFactor => "backoff-factor",
            Input::BackoffMax => "backoff-max",
            Input::Jitter => "jitter",
            Input::Layers => "layers",
            Input::KeyBytes => "key-bytes",
            Input::BodyBytes => "body-bytes",
            Input::Store => "store",
        }
    }

    /// The environment variable that gives the input when its flag is not given
    /// (`DUPCOST_TIMEOUT_RATE`): the flag's name in capitals after `DUPCOST_`.
    pub fn env_name(self) -> &'static str {
        match self {
            Input::RequestsPerDay => "DUPCOST_REQUESTS_PER_DAY",
            Input::TimeoutRate => "DUPCOST_TIMEOUT_RATE",
            Input::SucceededShare => "DUPCOST_SUCCEEDED_SHARE",
            Input::OrderValue => "DUPCOST_ORDER_VALUE",
            Input::Retries => "DUPCOST_RETRIES",
            Input::Ttl => "DUPCOST_TTL",
            Input::KeySize => "DUPCOST_KEY_SIZE",
            Input::DaysPerMonth => "DUPCOST_DAYS_PER_MONTH",
            Input::AttemptTimeout => "DUPCOST_ATTEMPT_TIMEOUT",
            Input::Backoff => "DUPCOST_BACKOFF",
            Input::BackoffFactor => "DUPCOST_BACKOFF_FACTOR",
            Input::BackoffMax => "DUPCOST_BACKOFF_MAX",
            Input::Jitter => "DUPCOST_JITTER",
            Input::Layers => "DUPCOST_LAYERS",
            Input::KeyBytes => "DUPCOST_KEY_BYTES",
            Input::BodyBytes => "DUPCOST_BODY_BYTES",
            Input::Store => "DUPCOST_STORE",
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
            Input::AttemptTimeout => "attempt timeout",
            Input::Backoff => "backoff",
            Input::BackoffFactor => "backoff factor",
            Input::BackoffMax => "backoff max",
            Input::Jitter => "jitter",
            Input::Layers => "layers",
            Input::KeyBytes => "key length",
            Input::BodyBytes => "saved body",
            Input::Store => "key store",
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
            Input::AttemptTimeout => scenario.attempt_timeout_seconds,
            Input::Backoff => scenario.backoff_seconds,
            Input::BackoffFactor => scenario.backoff_factor,
            Input::BackoffMax => scenario.backoff_max_seconds,
            Input::Jitter => choice_index(&Jitter::ALL, scenario.jitter),
            Input::Layers => f64::from(scenario.layers),
            Input::KeyBytes => scenario.key_bytes as f64,
            Input::BodyBytes => scenario.body_bytes as f64,
            Input::Store => choice_index(&Store::ALL, scenario.store),
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
            Input::AttemptTimeout => scenario.attempt_timeout_seconds = value,
            Input::Backoff => scenario.backoff_seconds = value,
            Input::BackoffFactor => scenario.backoff_factor = value,
            Input::BackoffMax => scenario.backoff_max_seconds = value,
            Input::Jitter => scenario.jitter = choice_at(&Jitter::ALL, value),
            Input::Layers => scenario.layers = value.round().clamp(0.0, u32::MAX as f64) as u32,
            Input::KeyBytes => scenario.key_bytes = value.round().max(0.0) as u64,
            Input::BodyBytes => scenario.body_bytes = value.round().max(0.0) as u64,
            Input::Store => scenario.store = choice_at(&Store::ALL, value),
        }
    }

    /// Whether the input only takes whole numbers (a choice is the index of its name).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Input::Retries
                | Input::Ttl
                | Input::KeySize
                | Input::Layers
                | Input::KeyBytes
                | Input::BodyBytes
        ) || self.is_choice()
    }

    /// Whether the input is one of a few names (`jitter`, `store`), held as the name's index.
    pub fn is_choice(self) -> bool {
        matches!(self, Input::Jitter | Input::Store)
    }

    /// Parses a value in any form the input's flag accepts (`0.35%`, `$12.50`, `36h`, `2KiB`),
    /// returning it in JSON units.
    pub fn parse(self, text: &str) -> Result<f64, String> {
        match self {
            Input::RequestsPerDay | Input::DaysPerMonth => text.parse::<Count>().map(|c| c.0),
            Input::TimeoutRate | Input::SucceededShare => text.parse::<Rate>().map(|r| r.0),
            Input::OrderValue => text.parse::<Money>().map(|m| m.0),
            Input::Retries => whole(text, "retries", 0..=100),
            Input::Ttl => text.parse::<Duration>().map(|d| d.0 as f64),
            Input::KeySize | Input::KeyBytes | Input::BodyBytes => {
                text.parse::<Size>().map(|s| s.0 as f64)
            }
            Input::AttemptTimeout | Input::Backoff | Input::BackoffMax => {
                text.parse::<Seconds>().map(|s| s.0)
            }
            Input::BackoffFactor => text.parse::<Count>().map(|c| c.0).and_then(|f| {
                if f >= 1.0 {
                    Ok(f)
                } else {
                    Err(format!("'{text}' is below 1: the backoff never shrinks"))
                }
            }),
            Input::Layers => whole(text, "layers", 1..=20),
            Input::Jitter => parse_choice(text, &Jitter::ALL.map(Jitter::name)),
            Input::Store => parse_choice(text, &Store::ALL.map(Store::name)),
        }
    }

    /// The value in the input's short, re-parseable form (`0.2%`, `1d`, `1kB`); money without a symbol.
    pub fn display(self, value: f64) -> String {
        match self {
            Input::TimeoutRate | Input::SucceededShare => Rate(value).to_string(),
            Input::OrderValue => Money(value).to_string(),
            Input::Ttl => Duration(value.round() as u64).to_string(),
            Input::KeySize | Input::KeyBytes | Input::BodyBytes => {
                Size(value.round() as u64).to_string()
            }
            Input::AttemptTimeout | Input::Backoff | Input::BackoffMax => {
                Seconds(value).to_string()
            }
            Input::Jitter => choice_at(&Jitter::ALL, value).name().to_string(),
            Input::Store => choice_at(&Store::ALL, value).name().to_string(),
            Input::RequestsPerDay
            | Input::DaysPerMonth
            | Input::Retries
            | Input::BackoffFactor
            | Input::Layers => value.to_string(),
        }
    }
}

/// A whole number of `what` in `range`, with the words for a fraction (`2.5`) or a number
/// out of range.
fn whole(text: &str, what: &str, range: std::ops::RangeInclusive<u32>) -> Result<f64, String> {
    let (low, high) = (range.start(), range.end());
    let trimmed = text.trim();
    if crate::units::is_fraction(trimmed) {
        return Err(format!(
            "'{trimmed}' is not a whole number: {what} are counted whole, from {low} to {high}"
        ));
    }
    match trimmed.parse::<u32>() {
        Ok(n) if range.contains(&n) => Ok(f64::from(n)),
        Ok(_) => Err(format!(
            "'{trimmed}' is out of range: {what} go from {low} to {high}"
        )),
        Err(_) => Err(format!(
            "'{trimmed}' is not a whole number of {what} from {low} to {high}"
        )),
    }
}

/// The index of `choice` among `all`, as an input's number.
fn choice_index<T: PartialEq>(all: &[T], choice: T) -> f64 {
    all.iter().position(|c| *c == choice).unwrap_or(0) as f64
}

/// The choice at index `value` (rounded, clamped to the list).
fn choice_at<T: Copy>(all: &[T], value: f64) -> T {
    let i = value.round().clamp(0.0, (all.len() - 1) as f64) as usize;
    all[i]
}

/// The index of the name `text` among `names`, case-insensitively.
fn parse_choice(text: &str, names: &[&str]) -> Result<f64, String> {
    let wanted = text.trim();
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(wanted))
        .map(|i| i as f64)
        .ok_or_else(|| format!("'{text}' is not one of {}", names.join(", ")))
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}", self.flag())
    }
}

/// Some inputs, each either given or not: what a scenario file, a preset or the flags say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScenarioPatch {
    values: Vec<(Input, f64)>,
    /// `--schedule` / `schedule_seconds`: a list of delays, not one number.
    schedule: Option<Delays>,
}

/// The JSON name of the schedule of delays in a scenario file.
pub const SCHEDULE_JSON_NAME: &str = "schedule_seconds";

impl ScenarioPatch {
    /// Records a schedule of delays (`--schedule`).
    pub fn set_schedule(&mut self, delays: Delays) {
        self.schedule = Some(delays);
    }

    /// The schedule of delays given, if any.
    pub fn schedule(&self) -> Option<Delays> {
        self.schedule
    }

    /// Whether the patch gives nothing.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.schedule.is_none()
    }

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

    /// Writes the given values over `scenario`. A schedule of delays sets the retries to its
    /// length unless the patch gives the retries too; a backoff input given without a schedule
    /// drops an earlier layer's schedule (the later layer describes the schedule).
    pub fn apply(&self, scenario: &mut Scenario) {
        for &(input, value) in &self.values {
            input.set(scenario, value);
        }
        match self.schedule {
            Some(delays) => {
                scenario.schedule_seconds = Some(delays);
                if self.get(Input::Retries).is_none() {
                    scenario.retries = delays.len();
                }
            }
            None => {
                let backoff = [Input::Backoff, Input::BackoffFactor, Input::BackoffMax];
                if backoff.iter().any(|&i| self.get(i).is_some()) {
                    scenario.schedule_seconds = None;
                }
            }
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
            if key == SCHEDULE_JSON_NAME {
                patch.schedule = Some(schedule_from_json(&value)?);
                continue;
            }
            let input = Input::ALL
                .into_iter()
                .find(|i| i.json_name() == key)
                .ok_or_else(|| {
                    let mut known: Vec<_> = Input::ALL.iter().map(|i| i.json_name()).collect();
                    known.push(SCHEDULE_JSON_NAME);
                    format!("unknown input '{key}' (known: {})", known.join(", "))
                })?;
            let number = match &value {
                Value::Number(_) if input.is_choice() => {
                    return Err(format!("{key}: expected one of {}", input.forms()));
                }
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

/// `schedule_seconds` in a scenario file: an array of seconds (`[5, 300]`) or the flag's
/// text (`"5s,5m"`).
fn schedule_from_json(value: &Value) -> Result<Delays, String> {
    let at = |e: String| format!("{SCHEDULE_JSON_NAME}: {e}");
    match value {
        Value::String(text) => text.parse::<Delays>().map_err(at),
        Value::Array(items) => {
            let mut seconds = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::Number(n) => seconds.push(n.as_f64().unwrap_or(f64::NAN)),
                    Value::String(text) => seconds.push(
                        text.parse::<crate::units::Seconds>()
                            .map_err(|e| at(format!("delay {} ('{text}'): {e}", i + 1)))?
                            .0,
                    ),
                    other => {
                        return Err(at(format!(
                            "delay {} is {other}, not a number of seconds",
                            i + 1
                        )));
                    }
                }
            }
            Delays::new(&seconds).map_err(at)
        }
        other => Err(at(format!(
            "expected an array of seconds or a string like \"5s,5m\", got {other}"
        ))),
    }
}

/// Where an input's value came from: the `sources` object of the JSON reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A flag on the command line.
    Flag,
    /// Its `DUPCOST_*` environment variable. The JSON `sources` says `flag` for it as it
    /// always has (`input_kinds.NAME.env` names the variable).
    #[serde(rename = "flag")]
    Env,
    /// Measured from the logs (`dupcost logs`, `estimate --observed`).
    Log,
    /// The default of `docs/MODEL.md`.
    #[default]
    Default,
    /// The `--scenario` file.
    Scenario,
    /// A named preset (`--preset`).
    Preset,
    /// The range of `--sweep`, for the swept input of a sweep.
    Sweep,
}

impl Origin {
    /// How a report names it: `the default`, `the scenario file`, `the preset`, ...
    pub fn describe(self) -> &'static str {
        match self {
            Origin::Flag => "the flag",
            Origin::Env => "the environment",
            Origin::Log => "the log",
            Origin::Default => "the default",
            Origin::Scenario => "the scenario file",
            Origin::Preset => "the preset",
            Origin::Sweep => "the sweep",
        }
    }

    /// Its value, as a report says it is used: `the default 3`, `the scenario file's 5`.
    pub fn value(self, value: &str) -> String {
        match self {
            Origin::Default => format!("the default {value}"),
            other => format!("{}'s {value}", other.describe()),
        }
    }
}

/// Where each input came from, in the order of [`Input::ALL`], and where the retry delays
/// (`--schedule`) came from; serialised as an object of the inputs by JSON name
/// (`{"requests_per_day": "log", "order_value": "default", ...}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sources {
    inputs: [Origin; Input::ALL.len()],
    /// The retry delays' origin; `Default` when no schedule is used.
    schedule: Origin,
    /// The retries are the schedule's length, given by the layer that gave the schedule.
    retries_by_schedule: bool,
    /// `DUPCOST_PRESET` named the preset, not `--preset`.
    preset_from_env: bool,
}

/// The flag of the retry delays.
pub const SCHEDULE_FLAG: &str = "--schedule";

/// The environment variable of the retry delays (`--schedule`).
pub const SCHEDULE_ENV: &str = "DUPCOST_SCHEDULE";

/// The environment variable of `--preset`.
pub const PRESET_ENV: &str = "DUPCOST_PRESET";

impl Sources {
    /// Every input from the default, then each layer's inputs marked, lowest first:
    /// `sources.given(&file_patch, Origin::Scenario).given(&flags, Origin::Flag)`. As
    /// [`ScenarioPatch::apply`] does, a layer's schedule gives the retries too unless the layer
    /// gives them, and its backoff without a schedule drops an earlier layer's schedule.
    pub fn given(mut self, patch: &ScenarioPatch, source: Origin) -> Sources {
        for (input, _) in &patch.values {
            self.set(*input, source);
        }
        if patch.schedule.is_some() {
            self.set_schedule(source);
        } else if [Input::Backoff, Input::BackoffFactor, Input::BackoffMax]
            .iter()
            .any(|&i| patch.get(i).is_some())
        {
            self.schedule = Origin::Default;
        }
        self
    }

    /// Marks the retry delays as from `source`, and the retries with them unless a layer as
    /// high gave the retries.
    pub fn set_schedule(&mut self, source: Origin) {
        self.schedule = source;
        let layer_gave_retries = self.get(Input::Retries) == source && !self.retries_by_schedule;
        if !layer_gave_retries {
            self.set(Input::Retries, source);
            self.retries_by_schedule = true;
        }
    }

    /// Marks what came from the environment rather than a flag (both were given as
    /// [`Origin::Flag`]): `inputs` and, when `schedule`, the retry delays (and the retries they
    /// gave), and when `preset`, that `DUPCOST_PRESET` named the preset.
    pub fn from_env(&mut self, inputs: &[Input], schedule: bool, preset: bool) {
        self.preset_from_env = preset;
        for &input in inputs {
            self.set(input, Origin::Env);
        }
        if schedule {
            self.schedule = Origin::Env;
            if self.retries_by_schedule {
                self.inputs[Input::Retries.index()] = Origin::Env;
            }
        }
    }

    pub fn set(&mut self, input: Input, source: Origin) {
        self.inputs[input.index()] = source;
        if input == Input::Retries {
            self.retries_by_schedule = false;
        }
    }

    /// Where the retry delays came from (`Default` when none are used).
    pub fn schedule(&self) -> Origin {
        self.schedule
    }

    /// Whether `DUPCOST_PRESET` named the preset.
    pub fn preset_from_env(&self) -> bool {
        self.preset_from_env
    }

    /// Whether the retries are the schedule's length.
    pub fn retries_by_schedule(&self) -> bool {
        self.retries_by_schedule
    }

    pub fn get(&self, input: Input) -> Origin {
        self.inputs[input.index()]
    }

    /// The name that gave `input`'s value, where a flag or its environment variable did:
    /// `DUPCOST_RETRIES` from the environment, else `flag` (`--retries`).
    pub fn given_by(&self, input: Input, flag: &'static str) -> &'static str {
        match self.get(input) {
            Origin::Env => input.env_name(),
            _ => flag,
        }
    }
}

impl serde::Serialize for Sources {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(Input::ALL.len()))?;
        for input in Input::ALL {
            map.serialize_entry(input.json_name(), &self.get(input))?;
        }
        map.end()
    }
}

impl Input {
    /// Its place in [`Input::ALL`].
    fn index(self) -> usize {
        Input::ALL
            .iter()
            .position(|i| *i == self)
            .expect("every input is in ALL")
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
    resolve_with_preset(file, None, flags)
}

/// [`resolve`] with a preset between the file and the flags: defaults < file < preset <
/// flags (see `crate::presets`).
pub fn resolve_with_preset(
    file: Option<(&Path, &ScenarioPatch)>,
    preset: Option<(&str, &ScenarioPatch)>,
    flags: &ScenarioPatch,
) -> Result<Scenario, String> {
    let mut scenario = Scenario::default();
    if let Some((path, patch)) = file {
        patch.apply(&mut scenario);
        scenario
            .validate()
            .map_err(|e| format!("scenario file {}: {e}", path.display()))?;
    }
    if let Some((name, patch)) = preset {
        patch.apply(&mut scenario);
        scenario
            .validate()
            .map_err(|e| format!("--preset {name}: {e}"))?;
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

    /// Each input's source is its highest layer: the flags over the file over the default;
    /// the JSON object names every input, in the order of the input table.
    #[test]
    fn sources_follow_the_precedence() {
        let file = ScenarioPatch::from_json(r#"{"retries": 1, "order_value": 10}"#).unwrap();
        let mut flags = ScenarioPatch::default();
        flags.set(Input::Retries, 2.0);
        let s = Sources::default()
            .given(&file, Origin::Scenario)
            .given(&flags, Origin::Flag);
        assert_eq!(s.get(Input::Retries), Origin::Flag);
        assert_eq!(s.get(Input::OrderValue), Origin::Scenario);
        assert_eq!(s.get(Input::Ttl), Origin::Default);
        let v = serde_json::to_value(s).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), Input::ALL.len());
        assert_eq!(keys[0], "requests_per_day");
        assert_eq!(v["retries"], "flag");
        assert_eq!(v["order_value"], "scenario");
        assert_eq!(v["ttl_seconds"], "default");
        assert_eq!(serde_json::to_value(Origin::Preset).unwrap(), "preset");
        assert_eq!(serde_json::to_value(Origin::Log).unwrap(), "log");
    }

    /// A layer's schedule gives the retries unless that layer gives them; a later layer's
    /// backoff drops the schedule; the environment's marks replace the flags' where it gave them.
    #[test]
    fn the_schedule_gives_the_retries_unless_its_layer_does() {
        let file = ScenarioPatch::from_json(r#"{"retries": 5}"#).unwrap();
        let preset = ScenarioPatch::from_json(r#"{"schedule_seconds": [5, 60]}"#).unwrap();
        let s = Sources::default()
            .given(&file, Origin::Scenario)
            .given(&preset, Origin::Preset);
        assert_eq!(s.get(Input::Retries), Origin::Preset);
        assert_eq!(s.schedule(), Origin::Preset);
        assert!(s.retries_by_schedule());

        let both = ScenarioPatch::from_json(r#"{"schedule_seconds": [5], "retries": 2}"#).unwrap();
        let s = Sources::default().given(&both, Origin::Flag);
        assert_eq!(
            (s.get(Input::Retries), s.schedule()),
            (Origin::Flag, Origin::Flag)
        );
        assert!(!s.retries_by_schedule());

        let mut backoff = ScenarioPatch::default();
        backoff.set(Input::Backoff, 2.0);
        let s = Sources::default()
            .given(&preset, Origin::Preset)
            .given(&backoff, Origin::Flag);
        assert_eq!(s.schedule(), Origin::Default);
        // The retries stay the preset's schedule's length, as `apply` leaves them.
        assert_eq!(s.get(Input::Retries), Origin::Preset);

        let mut s = Sources::default().given(&preset, Origin::Flag);
        s.from_env(&[Input::Ttl], true, false);
        assert_eq!(s.schedule(), Origin::Env);
        assert_eq!(s.get(Input::Retries), Origin::Env);
        assert!(s.retries_by_schedule());
        assert_eq!(s.get(Input::Ttl), Origin::Env);
        assert_eq!(s.given_by(Input::Ttl, "--ttl"), "DUPCOST_TTL");
        // The JSON `sources` says `flag` for the environment, as it always has.
        assert_eq!(serde_json::to_value(s).unwrap()["ttl_seconds"], "flag");
    }

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
            (r#"{"jitter": 2}"#, "expected one of none, equal or full"),
            (r#"{"store": "mysql"}"#, "not one of bytes, redis, postgres"),
            (r#"{"backoff_factor": "0.5"}"#, "below 1"),
            (r#"{"layers": 2.5}"#, "whole number"),
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
    fn every_input_has_one_description_for_help_and_the_tui() {
        for input in Input::ALL {
            let help = input.help();
            assert!(help.starts_with(input.meaning()), "{help}");
            assert!(help.contains(input.forms()), "{help}");
            assert!(help.contains("[default: "), "{help}");
        }
        assert_eq!(
            Input::Jitter.help(),
            "How the client randomises its sleeps (equal: half fixed, half random; full: all \
             random). As none, equal or full [default: none]"
        );
    }

    #[test]
    fn choices_and_seconds_round_trip() {
        let mut s = Scenario::default();
        for (input, text) in [
            (Input::Jitter, "full"),
            (Input::Store, "postgres"),
            (Input::AttemptTimeout, "1.5s"),
            (Input::Backoff, "100ms"),
        ] {
            let value = input.parse(text).unwrap();
            input.set(&mut s, value);
            assert_eq!(input.get(&s), value);
            assert_eq!(input.parse(&input.display(value)).unwrap(), value, "{text}");
        }
        assert_eq!(s.jitter, Jitter::Full);
        assert_eq!(s.store, Store::Postgres);
        assert_eq!(Input::Backoff.display(0.1), "0.1s");
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
