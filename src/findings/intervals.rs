//! 95% intervals for the figures measured from logs (`docs/MODEL.md`, "From access logs").
//!
//! * A share `k / n` (the timeout rate, the succeeded share): the Wilson score interval,
//!   which stays inside 0..1 and behaves at k = 0 and k = n where the normal one does not.
//! * Requests a day `I / D` (intents over days covered): the wider of two standard errors,
//!   the count's (Poisson: `sqrt(I) / D`) and the per-day spread's (the standard deviation
//!   of the daily intents over the whole days inside the span, a day with no rows counting
//!   0, over the square root of their number; needs at least 2 such days), times 1.96. None
//!   seen over a span: 0 to `-ln(0.05) / D`, about 3 / D (the rule of three).
//! * Duplicates and refunds a month: the model run at every corner of the box the inputs'
//!   intervals make (8 runs), keeping the lowest and highest.

use serde::Serialize;

use crate::model::{Estimate, Scenario};

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The widest 95% interval a share measured from logs may have: 0.34, about +-17 points.
pub const MAX_WIDTH: f64 = 0.34;

/// The minimum evidence for a figure measured from logs: the fewest trials whose 95% Wilson
/// interval is at most [`MAX_WIDTH`] wide whatever the share (the widest is at 1/2), checked
/// by [`min_trials`] in a test. Below it a figure keeps the scenario's value (the default, the
/// `--scenario` file, a preset or the flag) and the evidence says so.
pub const MIN_EVIDENCE: u64 = 30;

/// The width of the 95% Wilson interval of a share of 1/2 over `n` trials: the widest.
pub fn worst_width(n: u64) -> f64 {
    let n = n as f64;
    let z2 = Z95 * Z95;
    2.0 * Z95 * (0.25 / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n)
}

/// The fewest trials whose worst 95% interval is at most `width` wide.
pub fn min_trials(width: f64) -> u64 {
    (1..).find(|&n| worst_width(n) <= width).unwrap_or(u64::MAX)
}

/// The Wilson score interval of `k` successes in `n` trials (0..1 when `n` is 0).
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At k = 0 and k = n the bound is exactly 0 or 1 (rounding would leave 1 - 1e-16).
    let low = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [low, high]
}

/// The 95% upper bound of a count seen 0 times, as a count: `-ln(0.05)`, about 3 (the
/// rule of three).
pub const RULE_OF_THREE: f64 = 2.995_732_273_553_991;

/// The interval of `intents / days`, from the count and the spread of `daily` (the intents
/// of each whole day inside the span).
pub fn per_day(intents: u64, days: f64, daily: &[f64]) -> [f64; 2] {
    if days <= 0.0 {
        return [0.0, 0.0];
    }
    if intents == 0 {
        // None seen: the count's standard error is 0, yet the log does not prove none. The
        // rule of three: 3 over the span is the 95% upper bound of a Poisson rate seen 0 times.
        return [0.0, RULE_OF_THREE / days];
    }
    let n = intents as f64 / days;
    let count_se = (intents as f64).sqrt() / days;
    let spread_se = if daily.len() >= 2 {
        let k = daily.len() as f64;
        let mean = daily.iter().sum::<f64>() / k;
        let var = daily.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (k - 1.0);
        var.sqrt() / k.sqrt()
    } else {
        0.0
    };
    let se = count_se.max(spread_se);
    [(n - Z95 * se).max(0.0), n + Z95 * se]
}

/// The 95% intervals of the `intervals` JSON object, each `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Intervals {
    pub requests_per_day: [f64; 2],
    pub timeout_rate: [f64; 2],
    pub succeeded_share: [f64; 2],
    pub duplicates_per_month: [f64; 2],
    pub refund_cost_per_month: [f64; 2],
}

impl Intervals {
    /// The outputs' intervals from the inputs' (the scenario gives the other inputs).
    pub fn propagate(
        scenario: &Scenario,
        requests_per_day: [f64; 2],
        timeout_rate: [f64; 2],
        succeeded_share: [f64; 2],
    ) -> Intervals {
        let mut duplicates = [f64::INFINITY, f64::NEG_INFINITY];
        let mut refunds = [f64::INFINITY, f64::NEG_INFINITY];
        for n in requests_per_day {
            for t in timeout_rate {
                for s in succeeded_share {
                    let e = Estimate::new(Scenario {
                        requests_per_day: n,
                        timeout_rate: t,
                        succeeded_share: s,
                        ..*scenario
                    });
                    duplicates[0] = duplicates[0].min(e.duplicates.per_month);
                    duplicates[1] = duplicates[1].max(e.duplicates.per_month);
                    refunds[0] = refunds[0].min(e.refund_cost.per_month);
                    refunds[1] = refunds[1].max(e.refund_cost.per_month);
                }
            }
        }
        Intervals {
            requests_per_day,
            timeout_rate,
            succeeded_share,
            duplicates_per_month: duplicates,
            refund_cost_per_month: refunds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked figures (Wilson 1927; Newcombe 1998, table I: 81/263 gives 0.2553 to 0.3662).
    #[test]
    fn wilson_worked_figures_and_edges() {
        let [lo, hi] = wilson(81, 263);
        assert!(
            (lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5,
            "{lo} {hi}"
        );
        let [lo, hi] = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 5e-5, "{hi}");
        let [lo, hi] = wilson(10, 10);
        assert!((lo - 0.7225).abs() < 5e-5 && hi == 1.0, "{lo}");
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
    }

    /// The minimum evidence is derived from the interval: 30 trials is the first count whose
    /// worst 95% interval (a share of 1/2) is at most 0.34 wide; 29 gives 0.342.
    #[test]
    fn minimum_evidence_is_derived_from_the_interval() {
        assert_eq!(min_trials(MAX_WIDTH), MIN_EVIDENCE);
        assert!(worst_width(30) <= MAX_WIDTH && worst_width(29) > MAX_WIDTH);
        // The worst case is the Wilson interval at k = n / 2.
        let [lo, hi] = wilson(15, 30);
        assert!((hi - lo - worst_width(30)).abs() < 1e-12);
        assert!(
            (worst_width(30) - 0.3369).abs() < 5e-4,
            "{}",
            worst_width(30)
        );
    }

    #[test]
    fn per_day_takes_the_wider_error() {
        // 700 intents over 7 days, every day alike: the count's error, 1.96 * sqrt(700) / 7.
        let [lo, hi] = per_day(700, 7.0, &[100.0; 6]);
        let half = Z95 * 700f64.sqrt() / 7.0;
        assert!((lo - (100.0 - half)).abs() < 1e-9 && (hi - (100.0 + half)).abs() < 1e-9);
        // Days of 0 and 200: the spread's error, sd 109.5 / sqrt(6).
        let daily = [0.0, 200.0, 0.0, 200.0, 0.0, 200.0];
        let [lo, hi] = per_day(700, 7.0, &daily);
        let sd = (6.0 * 100.0f64 * 100.0 / 5.0).sqrt();
        assert!((hi - (100.0 + Z95 * sd / 6f64.sqrt())).abs() < 1e-9);
        assert_eq!(lo, (100.0 - Z95 * sd / 6f64.sqrt()).max(0.0));
        assert_eq!(per_day(0, 0.0, &[]), [0.0, 0.0]);
    }

    #[test]
    fn propagation_brackets_the_estimate() {
        let s = Scenario::default();
        let e = Estimate::new(s);
        let i = Intervals::propagate(
            &s,
            [s.requests_per_day * 0.9, s.requests_per_day * 1.1],
            [s.timeout_rate * 0.8, s.timeout_rate * 1.2],
            [s.succeeded_share * 0.7, (s.succeeded_share * 1.3).min(1.0)],
        );
        assert!(i.duplicates_per_month[0] < e.duplicates.per_month);
        assert!(e.duplicates.per_month < i.duplicates_per_month[1]);
        assert!(i.refund_cost_per_month[0] < e.refund_cost.per_month);
        let point = Intervals::propagate(
            &s,
            [s.requests_per_day; 2],
            [s.timeout_rate; 2],
            [s.succeeded_share; 2],
        );
        assert_eq!(point.duplicates_per_month, [e.duplicates.per_month; 2]);
    }
}
