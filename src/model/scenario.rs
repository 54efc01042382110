//! The inputs of `docs/MODEL.md` and their validity rules.

use serde::{Deserialize, Serialize};

/// The inputs of the model, by their JSON names, in the order of `docs/MODEL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
}

/// The most retries the model accepts (`docs/MODEL.md`: a whole number 0..=100).
pub const MAX_RETRIES: u32 = 100;

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
