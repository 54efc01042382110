//! The inputs of `docs/MODEL.md` and their validity rules.

use serde::{Deserialize, Serialize};

use super::schedule::{Delays, Jitter};

/// The inputs of the model, by their JSON names, in the order of `docs/MODEL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Scenario {
    /// Mutating intents per day (N).
    pub requests_per_day: f64,
    /// Share of attempts where the client gives up waiting (t), 0..=1.
    pub timeout_rate: f64,
    /// Share of timed-out attempts that the server had in fact executed (s), 0..=1.
    pub succeeded_share: f64,
    /// Average money at stake per intent (v).
    pub order_value: f64,
    /// Attempts after the first, each only after a timeout (r), 0..=100.
    pub retries: u32,
    /// How long an idempotency key is kept, in seconds.
    pub ttl_seconds: u64,
    /// Bytes stored per key.
    pub key_size_bytes: u64,
    /// Month length for monthly figures (M).
    pub days_per_month: f64,
    /// The client's wait for one attempt before it gives up, in seconds.
    pub attempt_timeout_seconds: f64,
    /// The sleep before the first retry, before jitter, in seconds.
    pub backoff_seconds: f64,
    /// Each retry's backoff is this many times the last one's (>= 1).
    pub backoff_factor: f64,
    /// The longest backoff, in seconds.
    pub backoff_max_seconds: f64,
    /// How the client randomises its backoff.
    pub jitter: Jitter,
    /// Layers of the call chain that each retry (>= 1).
    pub layers: u32,
    /// Length of an idempotency key (36: a UUID as text).
    pub key_bytes: u64,
    /// The saved response body kept with each key.
    pub body_bytes: u64,
    /// The key store the headline and the verdict size.
    pub store: Store,
    /// A published list of retry delays (`--schedule`), used instead of the backoff inputs;
    /// absent (and left out of JSON) when the backoff inputs describe the schedule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_seconds: Option<Delays>,
}

/// Which key store sizes the headline: the flat `key_size_bytes` a key, or a byte model of
/// Redis or PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Store {
    #[default]
    Bytes,
    Redis,
    Postgres,
}

impl Store {
    /// Every store, in the order the reports list them.
    pub const ALL: [Store; 3] = [Store::Bytes, Store::Redis, Store::Postgres];

    /// The name used by the flag and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Store::Bytes => "bytes",
            Store::Redis => "redis",
            Store::Postgres => "postgres",
        }
    }

    /// The name for people.
    pub fn label(self) -> &'static str {
        match self {
            Store::Bytes => "flat bytes a key",
            Store::Redis => "Redis",
            Store::Postgres => "PostgreSQL",
        }
    }
}

/// The most retries the model accepts (`docs/MODEL.md`: a whole number 0..=100).
pub const MAX_RETRIES: u32 = 100;
/// The most layers the model accepts: 101^20 attempts is already past any meaning.
pub const MAX_LAYERS: u32 = 20;

/// The saved body by default: what is left of the flat store's 1 kB a key after the key (36),
/// a SHA-256 request hash (32) and the status and state, rounded down; so that the three
/// stores describe the same saved response.
pub const DEFAULT_BODY_BYTES: u64 = 900;

impl Default for Scenario {
    /// The article's scenario, with 3 retries.
    fn default() -> Self {
        Scenario {
            requests_per_day: 20_000.0,
            timeout_rate: 0.002,
            succeeded_share: 0.5,
            order_value: 40.0,
            retries: 3,
            ttl_seconds: 86_400,
            key_size_bytes: 1_000,
            days_per_month: 30.0,
            attempt_timeout_seconds: 10.0,
            backoff_seconds: 1.0,
            backoff_factor: 2.0,
            backoff_max_seconds: 30.0,
            jitter: Jitter::None,
            layers: 1,
            key_bytes: 36,
            body_bytes: DEFAULT_BODY_BYTES,
            store: Store::Bytes,
            schedule_seconds: None,
        }
    }
}

/// An input outside the "valid" column of `docs/MODEL.md`, named by its JSON name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{field}: {problem} (got {value})")]
pub struct InputError {
    pub field: &'static str,
    pub problem: &'static str,
    pub value: String,
}

impl Scenario {
    /// The client's retry schedule.
    pub fn schedule(&self) -> super::Schedule {
        super::Schedule {
            attempt_timeout: self.attempt_timeout_seconds,
            backoff: self.backoff_seconds,
            factor: self.backoff_factor,
            backoff_max: self.backoff_max_seconds,
            jitter: self.jitter,
            delays: self.schedule_seconds,
        }
    }

    /// Checks every input against the "valid" column of `docs/MODEL.md`.
    pub fn validate(&self) -> Result<(), InputError> {
        fn err(field: &'static str, problem: &'static str, value: impl ToString) -> InputError {
            InputError {
                field,
                problem,
                value: value.to_string(),
            }
        }
        let finite_non_negative = |field, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(err(field, "must be a finite number >= 0", v))
            }
        };
        let share = |field, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(err(field, "must be between 0 and 1", v))
            }
        };
        finite_non_negative("requests_per_day", self.requests_per_day)?;
        share("timeout_rate", self.timeout_rate)?;
        share("succeeded_share", self.succeeded_share)?;
        finite_non_negative("order_value", self.order_value)?;
        if self.retries > MAX_RETRIES {
            return Err(err(
                "retries",
                "must be a whole number from 0 to 100",
                self.retries,
            ));
        }
        if self.ttl_seconds == 0 {
            return Err(err("ttl_seconds", "must be > 0", self.ttl_seconds));
        }
        if self.key_size_bytes == 0 {
            return Err(err("key_size_bytes", "must be > 0", self.key_size_bytes));
        }
        if !(self.days_per_month.is_finite() && self.days_per_month > 0.0) {
            return Err(err(
                "days_per_month",
                "must be a finite number > 0",
                self.days_per_month,
            ));
        }
        if !(self.attempt_timeout_seconds.is_finite() && self.attempt_timeout_seconds > 0.0) {
            return Err(err(
                "attempt_timeout_seconds",
                "must be a finite number of seconds > 0",
                self.attempt_timeout_seconds,
            ));
        }
        finite_non_negative("backoff_seconds", self.backoff_seconds)?;
        if !(self.backoff_factor.is_finite() && self.backoff_factor >= 1.0) {
            return Err(err(
                "backoff_factor",
                "must be a finite number >= 1",
                self.backoff_factor,
            ));
        }
        finite_non_negative("backoff_max_seconds", self.backoff_max_seconds)?;
        if !(1..=MAX_LAYERS).contains(&self.layers) {
            return Err(err(
                "layers",
                "must be a whole number from 1 to 20",
                self.layers,
            ));
        }
        if self.key_bytes == 0 {
            return Err(err("key_bytes", "must be > 0", self.key_bytes));
        }
        // Each input can be finite and their products not (1e300 requests x 1e300 days): refuse
        // rather than print inf or NaN.
        let estimate = super::Estimate::new(*self);
        if let Some(name) = estimate.non_finite_output() {
            return Err(err("scenario", "the inputs are too large to compute", name));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        Scenario::default().validate().unwrap();
    }

    #[test]
    fn rejects_out_of_range() {
        let bad = [
            Scenario {
                requests_per_day: -1.0,
                ..Default::default()
            },
            Scenario {
                requests_per_day: f64::INFINITY,
                ..Default::default()
            },
            Scenario {
                timeout_rate: 1.5,
                ..Default::default()
            },
            Scenario {
                timeout_rate: f64::NAN,
                ..Default::default()
            },
            Scenario {
                succeeded_share: -0.1,
                ..Default::default()
            },
            Scenario {
                order_value: f64::NAN,
                ..Default::default()
            },
            Scenario {
                retries: 101,
                ..Default::default()
            },
            Scenario {
                ttl_seconds: 0,
                ..Default::default()
            },
            Scenario {
                key_size_bytes: 0,
                ..Default::default()
            },
            Scenario {
                days_per_month: 0.0,
                ..Default::default()
            },
            Scenario {
                attempt_timeout_seconds: 0.0,
                ..Default::default()
            },
            Scenario {
                backoff_seconds: -1.0,
                ..Default::default()
            },
            Scenario {
                backoff_factor: 0.5,
                ..Default::default()
            },
            Scenario {
                backoff_max_seconds: f64::NAN,
                ..Default::default()
            },
            Scenario {
                layers: 0,
                ..Default::default()
            },
            Scenario {
                layers: 21,
                ..Default::default()
            },
            Scenario {
                key_bytes: 0,
                ..Default::default()
            },
            Scenario {
                requests_per_day: 1e300,
                days_per_month: 1e300,
                ..Default::default()
            },
            Scenario {
                requests_per_day: 1e300,
                key_size_bytes: u64::MAX,
                ..Default::default()
            },
        ];
        for s in bad {
            assert!(s.validate().is_err(), "{s:?}");
        }
    }
}
