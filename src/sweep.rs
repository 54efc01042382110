//! `--sweep NAME=FROM..TO[:STEPS]`: one input varied over a range, one estimate per value.

use std::str::FromStr;

use crate::inputs::Input;
use crate::model::{Estimate, Scenario};

/// The most values one sweep may produce.
pub const MAX_STEPS: usize = 10_000;
/// Values in a sweep of a continuous input when no `:STEPS` is given.
pub const DEFAULT_STEPS: usize = 11;
/// A whole-number input without `:STEPS` takes every whole value up to this many (retries
/// `0..100`); a wider range takes [`DEFAULT_STEPS`] (`ttl=1h..3h` would be 7,201 seconds).
pub const MAX_WHOLE_VALUES: usize = 101;

/// A parsed `--sweep` argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub input: Input,
    pub from: f64,
    pub to: f64,
    /// How many values, ends included; `None` takes every whole number for whole-number
    /// inputs of at most [`MAX_WHOLE_VALUES`] of them, and [`DEFAULT_STEPS`] values for the
    /// others.
    pub steps: Option<usize>,
}

impl FromStr for Sweep {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        const FORM: &str =
            "use NAME=FROM..TO[:STEPS], e.g. retries=0..5 or timeout-rate=0.1%..2%:20";
        let (name, range) = s.split_once('=').ok_or_else(|| format!("'{s}': {FORM}"))?;
        let input = Input::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Input::ALL.iter().map(|i| i.flag()).collect();
            format!("'{name}' is not an input (one of: {})", names.join(", "))
        })?;
        let (range, steps) = match range.rsplit_once(':') {
            Some((range, steps)) => {
                let steps: usize = steps
                    .trim()
                    .parse()
                    .map_err(|_| format!("'{steps}' is not a number of steps: {FORM}"))?;
                if !(1..=MAX_STEPS).contains(&steps) {
                    return Err(format!(
                        "{steps} steps: a sweep takes 1 to {MAX_STEPS} steps"
                    ));
                }
                (range, Some(steps))
            }
            None => (range, None),
        };
        let (from, to) = range
            .split_once("..")
            .ok_or_else(|| format!("'{s}': {FORM}"))?;
        let from = input.parse(from).map_err(|e| format!("{name}: {e}"))?;
        let to = input.parse(to).map_err(|e| format!("{name}: {e}"))?;
        let sweep = Sweep {
            input,
            from,
            to,
            steps,
        };
        // Check the values now, so the error names the sweep rather than a computed value.
        let mut scenario = Scenario::default();
        for value in [from, to] {
            input.set(&mut scenario, value);
            scenario
                .validate()
                .map_err(|e| format!("'{s}': {}", e.problem))?;
        }
        Ok(sweep)
    }
}

impl Sweep {
    /// The swept values, `from` first, ends included, whole-number inputs rounded and deduplicated.
    pub fn values(&self) -> Vec<f64> {
        let steps = match self.steps {
            Some(steps) => steps,
            None if self.input.is_integer() && self.whole_values() <= MAX_WHOLE_VALUES => {
                self.whole_values()
            }
            None => DEFAULT_STEPS,
        };
        let mut values: Vec<f64> = if steps == 1 || self.from == self.to {
            vec![self.from]
        } else {
            let step = (self.to - self.from) / (steps - 1) as f64;
            let decimals = implied_decimals(&[self.from, self.to, step]);
            (0..steps)
                .map(|i| {
                    if i == steps - 1 {
                        self.to
                    } else {
                        to_decimals(self.from + step * i as f64, decimals)
                    }
                })
                .collect()
        };
        if self.input.is_integer() {
            values.iter_mut().for_each(|v| *v = v.round());
            values.dedup();
        }
        values
    }

    /// The whole numbers from `from` to `to`, ends included.
    fn whole_values(&self) -> usize {
        ((self.to - self.from).abs().min(MAX_STEPS as f64) as usize).saturating_add(1)
    }

    /// One estimate per swept value, everything else as in `base`.
    pub fn run(&self, base: &Scenario) -> Vec<Estimate> {
        vary(base, self.input, self.values().into_iter()).collect()
    }
}

/// One estimate per value of `input`, everything else as in `base`.
fn vary(
    base: &Scenario,
    input: Input,
    values: impl Iterator<Item = f64>,
) -> impl Iterator<Item = Estimate> {
    let base = *base;
    values.map(move |value| {
        let mut scenario = base;
        input.set(&mut scenario, value);
        Estimate::new(scenario)
    })
}

/// Retry counts the retries curve holds: 0 to 6, or the 7 counts ending at the scenario's.
const RETRY_WINDOW: u32 = 7;
/// Points on the timeout-rate curve.
const TIMEOUT_POINTS: usize = 41;
/// Points on the key-TTL curve.
const TTL_POINTS: u64 = 41;

/// An estimate's figures against one of its inputs, the rest of its scenario held: each
/// value of the input (as the scenario holds it) with the estimate there.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub points: Vec<(f64, Estimate)>,
}

impl Curve {
    fn of(base: &Scenario, input: Input, values: impl Iterator<Item = f64>) -> Curve {
        Curve {
            points: vary(base, input, values)
                .map(|e| (input.get(&e.inputs), e))
                .collect(),
        }
    }
}

/// What the charts of one estimate draw (`--format html`, `--plot DIR`): its figures against
/// its retries, its timeout rate and its key TTL, computed here so that a chart only draws
/// the points it is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Curves {
    /// The 7 retry counts ending at the scenario's (0 to 6 below that).
    pub retries: Curve,
    /// 41 timeout rates from 0 to twice the scenario's (at least 0.2%, at most 100%).
    pub timeout_rate: Curve,
    /// Key TTLs from 0 to twice the retry horizon, or a little past the scenario's TTL when
    /// that is near (at most 41, whole seconds): where a TTL stops being long enough.
    pub ttl: Curve,
}

impl Curves {
    pub fn of(e: &Estimate) -> Curves {
        let base = &e.inputs;
        let first = base.retries.saturating_sub(RETRY_WINDOW - 1);
        let retries = (first..first + RETRY_WINDOW).map(f64::from);
        let top = (2.0 * base.timeout_rate).clamp(0.002, 1.0);
        let rates = (0..TIMEOUT_POINTS).map(|i| top * i as f64 / (TIMEOUT_POINTS - 1) as f64);
        Curves {
            retries: Curve::of(base, Input::Retries, retries),
            timeout_rate: Curve::of(base, Input::TimeoutRate, rates),
            ttl: Curve::of(base, Input::Ttl, ttls(e).into_iter().map(|t| t as f64)),
        }
    }
}

/// The key TTLs of the TTL curve: from 0 to twice the retry horizon, or to a little past the
/// scenario's TTL when it is at most four horizons.
fn ttls(e: &Estimate) -> Vec<u64> {
    let horizon = e.retry_horizon_seconds.max(1.0);
    let ttl = e.inputs.ttl_seconds as f64;
    let top = if ttl <= 4.0 * horizon {
        (2.0 * horizon).max(1.25 * ttl)
    } else {
        2.0 * horizon
    }
    .ceil() as u64;
    let mut ttls: Vec<u64> = (0..TTL_POINTS)
        .map(|i| top * i / (TTL_POINTS - 1))
        .collect();
    ttls.dedup();
    ttls
}

/// The most decimals a swept value keeps (in JSON units: 1e-20 of a rate is far below noise).
const MAX_DECIMALS: usize = 20;

/// The decimals the user's sweep implies: the fewest at which `from`, `to` and the step are
/// all exact decimals (to 12 significant figures of the range's larger end).
///
/// Why: `0.1%..2%:20` steps by 0.1% from 0.1%, but `0.001 + 17 * 0.001` is
/// 0.018000000000000002 in binary. Every value the user can name there has 3 decimals in JSON
/// units, so each step rounded to 3 decimals is the value they meant: 0.018. A step that is
/// no short decimal (`0..1:4`, thirds) keeps 12 significant figures, which changes no figure
/// a report shows.
fn implied_decimals(numbers: &[f64]) -> usize {
    let scale = numbers.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let tolerance = 1e-12 * scale;
    (0..=MAX_DECIMALS)
        .find(|&d| {
            numbers
                .iter()
                .all(|&v| (to_decimals(v, d) - v).abs() <= tolerance)
        })
        .unwrap_or(MAX_DECIMALS)
}

/// `value` rounded to `decimals` decimal places: the double nearest that decimal, so it
/// prints as the short decimal (`0.018`), as if the user had typed it.
fn to_decimals(value: f64, decimals: usize) -> f64 {
    format!("{value:.decimals$}").parse().unwrap_or(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_take_every_whole_number() {
        let sweep: Sweep = "retries=0..5".parse().unwrap();
        assert_eq!(sweep.values(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn rates_with_steps() {
        let sweep: Sweep = "timeout-rate=0.1%..2%:20".parse().unwrap();
        let values = sweep.values();
        assert_eq!(values.len(), 20);
        assert_eq!(values[0], 0.001);
        assert_eq!(values[19], 0.02);
        assert!((values[1] - 0.002).abs() < 1e-15);
    }

    /// Steps that are not exact in binary come out as the decimals the user meant.
    #[test]
    fn steps_are_exact_decimals() {
        let sweep: Sweep = "timeout-rate=0.1%..2%:20".parse().unwrap();
        let shown: Vec<String> = sweep.values().iter().map(f64::to_string).collect();
        let expected: Vec<String> = (1..=20).map(|i| format!("{}", i as f64 / 1000.0)).collect();
        assert_eq!(shown, expected);
        assert!(shown.contains(&"0.018".to_string()));
        // A step that is no short decimal keeps 12 significant figures.
        let thirds: Sweep = "succeeded-share=0..1:4".parse().unwrap();
        let values = thirds.values();
        assert_eq!(values[1].to_string(), "0.333333333333");
        assert_eq!(values[3], 1.0);
        // Money in cents, counts in whole numbers.
        let money: Sweep = "order-value=0.1..0.3:3".parse().unwrap();
        assert_eq!(money.values(), vec![0.1, 0.2, 0.3]);
        let big: Sweep = "requests-per-day=1k..2M:5".parse().unwrap();
        assert_eq!(
            big.values(),
            vec![1000.0, 500_750.0, 1_000_500.0, 1_500_250.0, 2_000_000.0]
        );
    }

    /// A wide whole-number range without `:STEPS` takes 11 values, not one per second or byte.
    #[test]
    fn wide_whole_ranges_take_the_default_steps() {
        let ttl: Sweep = "ttl=1h..3h".parse().unwrap();
        let values = ttl.values();
        assert_eq!(values.len(), DEFAULT_STEPS);
        assert_eq!(
            (values[0], values[1], values[10]),
            (3600.0, 4320.0, 10_800.0)
        );
        let retries: Sweep = "retries=0..100".parse().unwrap();
        assert_eq!(retries.values().len(), MAX_WHOLE_VALUES);
        let bytes: Sweep = "key-size=100..2000".parse().unwrap();
        assert_eq!(bytes.values().len(), DEFAULT_STEPS);
        let seconds: Sweep = "ttl=10s..20s".parse().unwrap();
        assert_eq!(seconds.values().len(), 11);
        let every: Sweep = "ttl=10s..1m".parse().unwrap();
        assert_eq!(every.values().len(), 51);
    }

    #[test]
    fn descending_and_single() {
        let sweep: Sweep = "retries=3..1".parse().unwrap();
        assert_eq!(sweep.values(), vec![3.0, 2.0, 1.0]);
        let sweep: Sweep = "ttl=1h..1h".parse().unwrap();
        assert_eq!(sweep.values(), vec![3600.0]);
        assert_eq!(
            "order_value=10..20"
                .parse::<Sweep>()
                .unwrap()
                .values()
                .len(),
            DEFAULT_STEPS
        );
    }

    /// Each curve holds the scenario but for its input, over the values its chart shows.
    #[test]
    fn curves_vary_one_input_each() {
        let base = Scenario {
            retries: 10,
            timeout_rate: 0.3,
            ..Scenario::default()
        };
        let curves = Curves::of(&Estimate::new(base));
        let xs = |c: &Curve| c.points.iter().map(|(x, _)| *x).collect::<Vec<f64>>();
        assert_eq!(
            xs(&curves.retries),
            vec![4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
        );
        let rates = xs(&curves.timeout_rate);
        assert_eq!(rates.len(), TIMEOUT_POINTS);
        assert_eq!((rates[0], rates[40]), (0.0, 0.6));
        for (curve, input) in [
            (&curves.retries, Input::Retries),
            (&curves.timeout_rate, Input::TimeoutRate),
            (&curves.ttl, Input::Ttl),
        ] {
            for (x, e) in &curve.points {
                let mut scenario = base;
                input.set(&mut scenario, *x);
                assert_eq!(*e, Estimate::new(scenario), "{input} at {x}");
            }
        }
        // Fewer than 7 retries start at 0; a tiny or huge rate keeps a visible range.
        let few = Curves::of(&Estimate::new(Scenario::default()));
        assert_eq!(xs(&few.retries), (0..7).map(f64::from).collect::<Vec<_>>());
        assert_eq!(few.timeout_rate.points.last().map(|p| p.0), Some(0.004));
        let tiny = Scenario {
            timeout_rate: 0.0001,
            ..Scenario::default()
        };
        let top = |s: Scenario| Curves::of(&Estimate::new(s)).timeout_rate.points[40].0;
        assert_eq!(top(tiny), 0.002);
        assert_eq!(
            top(Scenario {
                timeout_rate: 0.9,
                ..Scenario::default()
            }),
            1.0
        );
        // The TTLs: whole seconds from 0, each once.
        let ttls = xs(&few.ttl);
        assert_eq!(ttls[0], 0.0);
        assert!(ttls.windows(2).all(|w| w[0] < w[1]), "{ttls:?}");
        assert!(ttls.iter().all(|t| t.fract() == 0.0), "{ttls:?}");
    }

    #[test]
    fn errors() {
        for (text, needle) in [
            ("retries", "NAME=FROM..TO"),
            ("nope=1..2", "not an input"),
            ("retries=0..5:0", "1 to 10000 steps"),
            ("retries=0..5:x", "not a number of steps"),
            ("retries=0-5", "NAME=FROM..TO"),
            ("timeout-rate=0..2", "did you mean 2%"),
            ("retries=0..101", "0 to 100"),
            ("ttl=0s..1h", "must be > 0"),
        ] {
            let err = text.parse::<Sweep>().unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
