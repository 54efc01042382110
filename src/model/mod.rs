//! The arithmetic of MODEL.md: a validated [`Scenario`] in, an [`Estimate`] out.
//!
//! Pure: no I/O, no formatting. Every formula here traces to a line of MODEL.md.

pub mod keystore;
mod scenario;

pub use scenario::{InputError, Scenario};

use serde::Serialize;

/// Seconds in a day, for the key-store steady state (`N * ttl / 86400`).
const SECONDS_PER_DAY: f64 = 86_400.0;
/// Days in a year, for the yearly refund figure.
const DAYS_PER_YEAR: f64 = 365.0;

/// Per-intent probabilities and expectations of the attempt process (MODEL.md, "The attempt process").
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
    pub bytes: f64,
}

/// Every output of MODEL.md's output table, with the inputs that produced it.
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
        } = inputs;
        let p = PerIntent::new(t, s, r);
        let dup_day = n * p.duplicates;
        let live_keys = n * ttl_seconds as f64 / SECONDS_PER_DAY;
        Estimate {
            inputs,
            duplicates: Duplicates {
                per_day: dup_day,
                per_month: dup_day * m,
                rule_of_thumb_per_day: if r >= 1 { n * t * s } else { 0.0 },
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
            },
        }
    }

    /// Every input and output of an estimate as `(dotted JSON path, value)`, in JSON order.
    ///
    /// The CSV columns; kept beside the serde structs by a test that compares the two.
    pub fn fields(&self) -> [(&'static str, f64); 21] {
        let (e, i) = (self, &self.inputs);
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

    /// The first output that is not a finite number, by its JSON path, if any.
    pub fn non_finite_output(&self) -> Option<&'static str> {
        let rule_of_thumb = (
            "rule_of_thumb.refund_per_month",
            self.rule_of_thumb_refund_per_month(),
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
/// `attempts_per_layer` attempts (MODEL.md: 3^5 = 243).
pub fn retry_amplification(attempts_per_layer: u32, layers: u32) -> f64 {
    f64::from(attempts_per_layer).powi(layers as i32)
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
