//! The arithmetic of `docs/MODEL.md`: a validated [`Scenario`] in, an [`Estimate`] out.
//!
//! Pure: no I/O, no formatting. Every formula here traces to a line of `docs/MODEL.md`.

pub mod keystore;
mod scenario;
pub mod schedule;

pub use scenario::{DEFAULT_BODY_BYTES, InputError, MAX_LAYERS, Scenario, Store};
pub use schedule::{Delays, Jitter, Schedule};

use std::fmt;

use serde::Serialize;

/// Seconds in a day, for the key-store steady state (`N * ttl / 86400`).
const SECONDS_PER_DAY: f64 = 86_400.0;
/// Days in a year, for the yearly refund figure.
const DAYS_PER_YEAR: f64 = 365.0;

/// Per-intent probabilities and expectations of the attempt process (`docs/MODEL.md`, "The
/// attempt process").
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PerIntent {
    /// A: expected attempts.
    pub attempts: f64,
    /// E: expected executions.
    pub executions: f64,
    /// P1: probability of at least one execution.
    pub at_least_one_execution: f64,
    /// D = E - P1: expected duplicate executions.
    pub duplicates: f64,
    /// U: probability the customer never hears back.
    pub unanswered: f64,
    /// C: probability the customer never hears back and was charged.
    pub unanswered_charged: f64,
}

impl PerIntent {
    /// Computes the per-intent figures for timeout rate `t`, succeeded share `s` and `r` retries.
    ///
    /// D and C are differences of nearly equal numbers when `t` is small, so they are computed
    /// from cancellation-free forms instead of the textbook ones (same values, see the tests):
    ///
    /// * with q = t(1 - s), E = (1 - q) * sum t^k and P1 = (1 - q) * sum q^k, so
    ///   D = (1 - q) * sum_{k=1..r} t^k * (1 - (1 - s)^k), a sum of non-negative terms;
    /// * C = t^(r+1) * (1 - (1 - s)^(r+1)).
    ///
    /// `1 - (1 - s)^k` is taken as `-expm1(k * ln_1p(-s))`, exact for small `s` too.
    pub fn new(t: f64, s: f64, r: u32) -> Self {
        let q = t * (1.0 - s);
        // 1 - q, summed so that t near 1 with s tiny does not cancel.
        let answered_or_executed = (1.0 - t) + t * s;
        let mut extra_attempts = 0.0; // sum_{k=1..r} t^k = A - 1
        let mut duplicate_sum = 0.0;
        // Powers by repeated multiplication, not `powi`: the optimiser may fold a `powi` of
        // constants differently from the one computed at run time, and the same scenario
        // must give the same bits wherever it is computed (a pinned baseline is compared).
        let (mut t_k, mut q_k) = (1.0, 1.0);
        for k in 1..=r {
            t_k *= t;
            q_k *= q;
            extra_attempts += t_k;
            duplicate_sum += t_k * executed_at_least_once(s, k);
        }
        let attempts = 1.0 + extra_attempts;
        let unanswered = t_k * t;
        PerIntent {
            attempts,
            executions: answered_or_executed * attempts,
            at_least_one_execution: 1.0 - q_k * q,
            duplicates: answered_or_executed * duplicate_sum,
            unanswered,
            unanswered_charged: unanswered * executed_at_least_once(s, r + 1),
        }
    }

    /// A - 1, computed without the cancellation of `attempts - 1.0` when t is tiny.
    fn extra_attempts(t: f64, r: u32) -> f64 {
        let mut sum = 0.0;
        let mut t_k = 1.0;
        for _ in 1..=r {
            t_k *= t;
            sum += t_k;
        }
        sum
    }
}

/// 1 - (1 - s)^k: the chance that at least one of k timed-out attempts had executed.
fn executed_at_least_once(s: f64, k: u32) -> f64 {
    if s >= 1.0 {
        1.0
    } else {
        -(f64::from(k) * (-s).ln_1p()).exp_m1()
    }
}

/// Duplicate executions, exact and back-of-envelope.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Duplicates {
    pub per_day: f64,
    pub per_month: f64,
    pub rule_of_thumb_per_day: f64,
    /// The duplicates a key store of the scenario's TTL still lets through: retries sent
    /// after their key expired.
    pub with_key_store: PerDayAndMonth,
}

/// A figure a day and a month.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PerDayAndMonth {
    pub per_day: f64,
    pub per_month: f64,
}

/// Money to find and refund the duplicates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RefundCost {
    pub per_month: f64,
    pub per_year: f64,
}

/// Customers who never hear back.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Unanswered {
    pub zero_retries_per_day: f64,
    pub zero_retries_per_month: f64,
    pub charged_zero_retries_per_month: f64,
    pub per_day: f64,
    pub charged_per_day: f64,
}

/// The store the fix needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KeyStore {
    pub live_keys: f64,
    /// `live_keys * key_size_bytes`: the flat model, whatever the chosen store.
    pub bytes: f64,
    pub by_store: ByStore,
}

/// The key store's size in each backend.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ByStore {
    /// The flat model: `live_keys * key_size_bytes`.
    pub bytes: f64,
    /// The Redis byte model ([`keystore::redis_bytes`]).
    pub redis: f64,
    /// The PostgreSQL byte model ([`keystore::postgres_bytes`]).
    pub postgres: f64,
}

impl ByStore {
    /// The size in `store`.
    pub fn get(&self, store: Store) -> f64 {
        match store {
            Store::Bytes => self.bytes,
            Store::Redis => self.redis,
            Store::Postgres => self.postgres,
        }
    }
}

/// Attempts at the deepest of the scenario's layers per intent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Amplification {
    /// `(r + 1)^layers`: every attempt at every layer timed out.
    pub worst_case: f64,
    /// `A^layers`: at the scenario's timeout rate.
    pub expected: f64,
}

/// One value of [`Estimate::fields`]: a number, or the name of a choice (`jitter`, `store`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field {
    Number(f64),
    Text(&'static str),
}

impl Field {
    /// Whether the value is a finite number (a name always is).
    pub fn is_finite(self) -> bool {
        match self {
            Field::Number(v) => v.is_finite(),
            Field::Text(_) => true,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Number(v) => write!(f, "{v}"),
            Field::Text(t) => f.write_str(t),
        }
    }
}

/// Every output of the output table of `docs/MODEL.md`, with the inputs that produced it.
///
/// Serializes to exactly the JSON contract of `dupcost estimate --format json`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub inputs: Scenario,
    pub duplicates: Duplicates,
    pub refund_cost: RefundCost,
    pub unanswered: Unanswered,
    pub extra_attempts_per_day: f64,
    pub key_store: KeyStore,
    /// The client's retry horizon (worst case, first attempt's start to last attempt's end).
    pub retry_horizon_seconds: f64,
    pub amplification: Amplification,
}

impl Estimate {
    /// Runs the model. The scenario is assumed valid (see [`Scenario::validate`]).
    pub fn new(inputs: Scenario) -> Self {
        let Scenario {
            requests_per_day: n,
            timeout_rate: t,
            succeeded_share: s,
            order_value: v,
            retries: r,
            ttl_seconds,
            key_size_bytes,
            days_per_month: m,
            layers,
            key_bytes,
            body_bytes,
            ..
        } = inputs;
        let p = PerIntent::new(t, s, r);
        let dup_day = n * p.duplicates;
        let live_keys = n * ttl_seconds as f64 / SECONDS_PER_DAY;
        let schedule = inputs.schedule();
        let keyed_day = n * schedule::keyed_duplicates(t, s, r, &schedule, ttl_seconds as f64);
        let (key_bytes, body_bytes) = (key_bytes as f64, body_bytes as f64);
        Estimate {
            inputs,
            duplicates: Duplicates {
                per_day: dup_day,
                per_month: dup_day * m,
                rule_of_thumb_per_day: if r >= 1 { n * t * s } else { 0.0 },
                with_key_store: PerDayAndMonth {
                    per_day: keyed_day,
                    per_month: keyed_day * m,
                },
            },
            refund_cost: RefundCost {
                per_month: dup_day * m * v,
                per_year: dup_day * DAYS_PER_YEAR * v,
            },
            unanswered: Unanswered {
                zero_retries_per_day: n * t,
                zero_retries_per_month: n * t * m,
                charged_zero_retries_per_month: n * t * s * m,
                per_day: n * p.unanswered,
                charged_per_day: n * p.unanswered_charged,
            },
            extra_attempts_per_day: n * PerIntent::extra_attempts(t, r),
            key_store: KeyStore {
                live_keys,
                bytes: live_keys * key_size_bytes as f64,
                by_store: ByStore {
                    bytes: live_keys * key_size_bytes as f64,
                    redis: keystore::redis_bytes(live_keys, key_bytes, body_bytes),
                    postgres: keystore::postgres_bytes(live_keys, key_bytes, body_bytes),
                },
            },
            retry_horizon_seconds: schedule.horizon(r),
            amplification: Amplification {
                worst_case: power(f64::from(r) + 1.0, layers),
                expected: power(p.attempts, layers),
            },
        }
    }

    /// `refund_cost.per_month` alone, without the rest of the estimate (for curves of many
    /// points): the same bits as [`Estimate::new`] gives.
    pub fn refunds_per_month(scenario: &Scenario) -> f64 {
        let p = PerIntent::new(
            scenario.timeout_rate,
            scenario.succeeded_share,
            scenario.retries,
        );
        scenario.requests_per_day * p.duplicates * scenario.days_per_month * scenario.order_value
    }

    /// `duplicates.per_month` and `refund_cost.per_month` alone (for the report's thousands
    /// of endpoints): the same bits as [`Estimate::new`] gives.
    pub fn duplicates_and_refunds_per_month(scenario: &Scenario) -> (f64, f64) {
        let p = PerIntent::new(
            scenario.timeout_rate,
            scenario.succeeded_share,
            scenario.retries,
        );
        let dup_day = scenario.requests_per_day * p.duplicates;
        let m = scenario.days_per_month;
        (dup_day * m, dup_day * m * scenario.order_value)
    }

    /// The key store's size in the chosen store (`--store`): the headline figure.
    pub fn store_bytes(&self) -> f64 {
        self.key_store.by_store.get(self.inputs.store)
    }

    /// Whether keys can expire while the client still retries: it retries, and the TTL is
    /// shorter than its retry horizon.
    pub fn ttl_shorter_than_horizon(&self) -> bool {
        self.inputs.retries >= 1 && (self.inputs.ttl_seconds as f64) < self.retry_horizon_seconds
    }

    /// Refunds a month for the duplicates the key store leaves (`with_key_store.per_month * v`).
    pub fn keyed_refund_per_month(&self) -> f64 {
        self.duplicates.with_key_store.per_month * self.inputs.order_value
    }

    /// Every input and output of an estimate as `(dotted JSON path, value)`, in JSON order.
    ///
    /// The CSV columns; kept beside the serde structs by a test that compares the two.
    pub fn fields(&self) -> Vec<(&'static str, Field)> {
        use Field::{Number, Text};
        let (e, i) = (self, &self.inputs);
        vec![
            ("inputs.requests_per_day", Number(i.requests_per_day)),
            ("inputs.timeout_rate", Number(i.timeout_rate)),
            ("inputs.succeeded_share", Number(i.succeeded_share)),
            ("inputs.order_value", Number(i.order_value)),
            ("inputs.retries", Number(f64::from(i.retries))),
            ("inputs.ttl_seconds", Number(i.ttl_seconds as f64)),
            ("inputs.key_size_bytes", Number(i.key_size_bytes as f64)),
            ("inputs.days_per_month", Number(i.days_per_month)),
            (
                "inputs.attempt_timeout_seconds",
                Number(i.attempt_timeout_seconds),
            ),
            ("inputs.backoff_seconds", Number(i.backoff_seconds)),
            ("inputs.backoff_factor", Number(i.backoff_factor)),
            ("inputs.backoff_max_seconds", Number(i.backoff_max_seconds)),
            ("inputs.jitter", Text(i.jitter.name())),
            ("inputs.layers", Number(f64::from(i.layers))),
            ("inputs.key_bytes", Number(i.key_bytes as f64)),
            ("inputs.body_bytes", Number(i.body_bytes as f64)),
            ("inputs.store", Text(i.store.name())),
            ("duplicates.per_day", Number(e.duplicates.per_day)),
            ("duplicates.per_month", Number(e.duplicates.per_month)),
            (
                "duplicates.rule_of_thumb_per_day",
                Number(e.duplicates.rule_of_thumb_per_day),
            ),
            (
                "duplicates.with_key_store.per_day",
                Number(e.duplicates.with_key_store.per_day),
            ),
            (
                "duplicates.with_key_store.per_month",
                Number(e.duplicates.with_key_store.per_month),
            ),
            ("refund_cost.per_month", Number(e.refund_cost.per_month)),
            ("refund_cost.per_year", Number(e.refund_cost.per_year)),
            (
                "unanswered.zero_retries_per_day",
                Number(e.unanswered.zero_retries_per_day),
            ),
            (
                "unanswered.zero_retries_per_month",
                Number(e.unanswered.zero_retries_per_month),
            ),
            (
                "unanswered.charged_zero_retries_per_month",
                Number(e.unanswered.charged_zero_retries_per_month),
            ),
            ("unanswered.per_day", Number(e.unanswered.per_day)),
            (
                "unanswered.charged_per_day",
                Number(e.unanswered.charged_per_day),
            ),
            ("extra_attempts_per_day", Number(e.extra_attempts_per_day)),
            ("key_store.live_keys", Number(e.key_store.live_keys)),
            ("key_store.bytes", Number(e.key_store.bytes)),
            (
                "key_store.by_store.bytes",
                Number(e.key_store.by_store.bytes),
            ),
            (
                "key_store.by_store.redis",
                Number(e.key_store.by_store.redis),
            ),
            (
                "key_store.by_store.postgres",
                Number(e.key_store.by_store.postgres),
            ),
            ("retry_horizon_seconds", Number(e.retry_horizon_seconds)),
            (
                "amplification.worst_case",
                Number(e.amplification.worst_case),
            ),
            ("amplification.expected", Number(e.amplification.expected)),
        ]
    }

    /// The first output that is not a finite number, by its JSON path, if any.
    pub fn non_finite_output(&self) -> Option<&'static str> {
        let rule_of_thumb = (
            "rule_of_thumb.refund_per_month",
            Field::Number(self.rule_of_thumb_refund_per_month()),
        );
        self.fields()
            .into_iter()
            .chain([rule_of_thumb])
            .find(|(_, v)| !v.is_finite())
            .map(|(name, _)| name)
    }

    /// The rule of thumb a month (`N*t*s*M`), shown beside the exact monthly figure.
    pub fn rule_of_thumb_per_month(&self) -> f64 {
        self.duplicates.rule_of_thumb_per_day * self.inputs.days_per_month
    }

    /// The rule of thumb's refunds a month (`N*t*s*M*v`).
    pub fn rule_of_thumb_refund_per_month(&self) -> f64 {
        self.rule_of_thumb_per_month() * self.inputs.order_value
    }
}

/// Retry amplification: the load on the bottom of `layers` stacked layers that each make
/// `attempts_per_layer` attempts (`docs/MODEL.md`: 3^5 = 243).
pub fn retry_amplification(attempts_per_layer: u32, layers: u32) -> f64 {
    power(f64::from(attempts_per_layer), layers)
}

/// `base^exponent` by repeated multiplication, not `powi`: the same bits in every build
/// (see [`PerIntent::new`]).
fn power(base: f64, exponent: u32) -> f64 {
    (0..exponent).fold(1.0, |product, _| product * base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn article(retries: u32) -> Estimate {
        Estimate::new(Scenario {
            retries,
            ..Scenario::default()
        })
    }

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn worked_figures_rule_of_thumb() {
        let e = article(1);
        assert!(close(e.duplicates.rule_of_thumb_per_day, 20.0, 1e-12));
        assert!(close(e.rule_of_thumb_per_month(), 600.0, 1e-12));
        assert!(close(e.rule_of_thumb_refund_per_month(), 24_000.0, 1e-12));
    }

    #[test]
    fn worked_figures_one_retry() {
        let e = article(1);
        assert!(close(e.duplicates.per_day, 19.98, 1e-12));
        assert!(close(e.duplicates.per_month, 599.4, 1e-12));
        assert!(close(e.refund_cost.per_month, 23_976.0, 1e-12));
    }

    #[test]
    fn worked_figures_three_retries() {
        let e = article(3);
        // 20,000 * (1 - 0.001) * (0.002*0.5 + 0.002^2*0.75 + 0.002^3*0.875)
        assert!(close(e.duplicates.per_day, 20.040_079_86, 1e-9));
        assert_eq!(format!("{:.2}", e.duplicates.per_day), "20.04");
    }

    #[test]
    fn worked_figures_zero_retries() {
        let e = article(0);
        assert_eq!(e.duplicates.per_day, 0.0);
        assert_eq!(e.duplicates.rule_of_thumb_per_day, 0.0);
        assert!(close(e.unanswered.zero_retries_per_day, 40.0, 1e-12));
        assert!(close(e.unanswered.zero_retries_per_month, 1_200.0, 1e-12));
        assert!(close(
            e.unanswered.charged_zero_retries_per_month,
            600.0,
            1e-12
        ));
        assert!(close(e.unanswered.per_day, 40.0, 1e-12));
        assert!(close(e.unanswered.charged_per_day, 20.0, 1e-12));
    }

    #[test]
    fn worked_figures_key_store() {
        let e = article(3);
        assert_eq!(e.key_store.live_keys, 20_000.0);
        assert_eq!(e.key_store.bytes, 20_000_000.0);
    }

    #[test]
    fn worked_figures_amplification() {
        assert_eq!(retry_amplification(3, 5), 243.0);
        // The article's 243x: 2 retries (3 tries) a layer, 5 layers.
        let e = Estimate::new(Scenario {
            retries: 2,
            layers: 5,
            ..Scenario::default()
        });
        assert_eq!(e.amplification.worst_case, 243.0);
        // A = 1 + 0.002 + 0.002^2 a layer.
        let a: f64 = 1.0 + 0.002 + 0.002 * 0.002;
        assert!(close(e.amplification.expected, a * a * a * a * a, 1e-15));
        let one = article(3);
        assert_eq!(one.amplification.worst_case, 4.0);
        assert_eq!(
            one.amplification.expected,
            PerIntent::new(0.002, 0.5, 3).attempts
        );
    }

    #[test]
    fn worked_figures_retry_horizon() {
        let e = article(3);
        assert_eq!(e.retry_horizon_seconds, 47.0);
        assert!(!e.ttl_shorter_than_horizon());
        assert_eq!(e.duplicates.with_key_store.per_day, 0.0);
        let short = Estimate::new(Scenario {
            ttl_seconds: 20,
            ..Scenario::default()
        });
        assert!(short.ttl_shorter_than_horizon());
        assert!(short.duplicates.with_key_store.per_day > 0.0);
        assert!(short.duplicates.with_key_store.per_day < short.duplicates.per_day);
    }

    #[test]
    fn refunds_alone_are_the_same_bits() {
        for r in [0, 1, 3, 100] {
            let e = article(r);
            assert_eq!(
                Estimate::refunds_per_month(&e.inputs),
                e.refund_cost.per_month
            );
        }
        for (n, t, s, r, m, v) in [
            (1234.5, 0.0123, 0.37, 3, 30.0, 19.99),
            (0.001, 1.0, 1.0, 0, 28.0, 0.0),
            (9.9e7, 0.3, 0.5, 100, 31.0, 1e6),
            (3.0, 1e-9, 0.0, 7, 30.4375, 123.456),
        ] {
            let scenario = Scenario {
                requests_per_day: n,
                timeout_rate: t,
                succeeded_share: s,
                retries: r,
                days_per_month: m,
                order_value: v,
                ..Scenario::default()
            };
            let e = Estimate::new(scenario);
            let (dup, refunds) = Estimate::duplicates_and_refunds_per_month(&scenario);
            assert_eq!(dup.to_bits(), e.duplicates.per_month.to_bits());
            assert_eq!(refunds.to_bits(), e.refund_cost.per_month.to_bits());
        }
    }

    #[test]
    fn defaults_keep_the_article_figures() {
        let e = article(3);
        assert_eq!(e.store_bytes(), 20_000_000.0);
        assert_eq!(e.key_store.by_store.bytes, e.key_store.bytes);
    }

    #[test]
    fn textbook_forms_agree() {
        for &(t, s, r) in &[(0.3, 0.5, 3), (0.9, 0.1, 7), (1.0, 0.5, 4), (0.5, 1.0, 2)] {
            let p = PerIntent::new(t, s, r);
            let a: f64 = (0..=r).map(|k| t.powi(k as i32)).sum();
            let e = (1.0 - t + t * s) * a;
            let p1 = 1.0 - (t * (1.0 - s)).powi(r as i32 + 1);
            assert!(close(p.attempts, a, 1e-12));
            assert!(close(p.executions, e, 1e-12));
            assert!(close(p.duplicates, e - p1, 1e-9), "{t} {s} {r}");
            let c = t.powi(r as i32 + 1) - (t * (1.0 - s)).powi(r as i32 + 1);
            assert!(close(p.unanswered_charged, c, 1e-9));
        }
    }

    /// Found by the rational property test: 1 - t*(1 - s) cancelled when t = 1 and s tiny.
    #[test]
    fn no_cancellation_at_t_one_and_tiny_s() {
        let d = PerIntent::new(1.0, 1e-9, 1).duplicates;
        assert!((d - 1e-18).abs() < 1e-30, "{d}");
    }

    #[test]
    fn t_equal_one_attempts_are_r_plus_one() {
        let p = PerIntent::new(1.0, 0.5, 4);
        assert_eq!(p.attempts, 5.0);
        assert_eq!(p.unanswered, 1.0);
    }

    #[test]
    fn exact_zeros() {
        assert_eq!(PerIntent::new(0.2, 0.5, 0).duplicates, 0.0);
        assert_eq!(PerIntent::new(0.2, 0.0, 5).duplicates, 0.0);
        assert_eq!(PerIntent::new(0.0, 0.5, 5).duplicates, 0.0);
        assert_eq!(PerIntent::new(0.0, 0.5, 5).attempts, 1.0);
    }
}
