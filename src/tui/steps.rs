//! The step ladders behind `Left`/`Right`: where an input goes one step down or up.
//!
//! Each ladder is a sorted list of values inside the input's valid range, so stepping can
//! never leave it. A value between two rungs (typed with `Enter`) steps to the nearest rung
//! in the direction of the step.

use crate::inputs::Input;
use crate::model::{MAX_LAYERS, Scenario};

/// The most retries `docs/MODEL.md` allows.
const MAX_RETRIES: f64 = 100.0;

/// Which way a step goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Down,
    Up,
}

/// The value of `input` one step from `value` in `direction`; `value` itself at either end.
pub fn step(input: Input, value: f64, direction: Direction) -> f64 {
    match input {
        Input::Retries => match direction {
            Direction::Up if value < MAX_RETRIES => (value.floor() + 1.0).min(MAX_RETRIES),
            Direction::Down if value > 0.0 => (value.ceil() - 1.0).max(0.0),
            _ => value,
        },
        Input::DaysPerMonth => along(&whole_numbers(1, 365), value, direction),
        Input::RequestsPerDay => along(&with_zero(one_two_five(0, 12)), value, direction),
        Input::OrderValue => along(&with_zero(one_two_five(-2, 9)), value, direction),
        Input::KeySize => along(&one_two_five(0, 12), value, direction),
        Input::TimeoutRate | Input::SucceededShare => along(&rates(), value, direction),
        Input::Ttl => along(&TTL_LADDER.map(|s| s as f64), value, direction),
        Input::AttemptTimeout => along(&ATTEMPT_TIMEOUTS, value, direction),
        Input::Backoff => along(&BACKOFFS, value, direction),
        Input::BackoffMax => along(&BACKOFF_CAPS, value, direction),
        Input::BackoffFactor => along(&[1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 10.0], value, direction),
        Input::Layers => along(&whole_numbers(1, MAX_LAYERS), value, direction),
        Input::Jitter | Input::Store => along(&[0.0, 1.0, 2.0], value, direction),
        Input::KeyBytes => along(&KEY_LENGTHS, value, direction),
        Input::BodyBytes => along(&with_zero(one_two_five(1, 7)), value, direction),
    }
}

/// Client timeouts people set, in seconds: 100 ms to 5 minutes.
const ATTEMPT_TIMEOUTS: [f64; 16] = [
    0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0, 90.0, 120.0, 300.0,
];
/// First backoffs, in seconds: none, 10 ms to a minute.
const BACKOFFS: [f64; 12] = [
    0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
];
/// Backoff caps, in seconds: none to 10 minutes.
const BACKOFF_CAPS: [f64; 11] = [
    0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0,
];
/// Key lengths: 8 to 256 bytes, through a ULID (26), a hex SHA-128 (32) and a UUID (36).
const KEY_LENGTHS: [f64; 9] = [8.0, 16.0, 26.0, 32.0, 36.0, 64.0, 100.0, 128.0, 256.0];

/// Key lifetimes people choose, in seconds: 1s ... 1h, 6h, 12h, 1d, 2d, 7d, 30d ... 1 year.
const TTL_LADDER: [u64; 21] = [
    1,
    10,
    30,
    60,
    5 * 60,
    10 * 60,
    30 * 60,
    3_600,
    2 * 3_600,
    6 * 3_600,
    12 * 3_600,
    86_400,
    2 * 86_400,
    3 * 86_400,
    7 * 86_400,
    14 * 86_400,
    30 * 86_400,
    60 * 86_400,
    90 * 86_400,
    180 * 86_400,
    365 * 86_400,
];

/// The next rung above or below `value`; `value` when there is none.
fn along(ladder: &[f64], value: f64, direction: Direction) -> f64 {
    // Typed values are not always bit-equal to a rung (0.3/100 vs 3e-3): compare with slack.
    let slack = 1e-9 * value.abs();
    let next = match direction {
        Direction::Up => ladder.iter().find(|&&rung| rung > value + slack),
        Direction::Down => ladder.iter().rev().find(|&&rung| rung < value - slack),
    };
    next.copied().unwrap_or(value)
}

/// The decimal `mantissa` x 10^`exponent`, as the nearest f64 (so `3e-3` is exactly 0.003).
fn decimal(mantissa: u32, exponent: i32) -> f64 {
    format!("{mantissa}e{exponent}")
        .parse()
        .expect("a decimal literal")
}

/// 1, 2, 5, 10, 20, 50 ... from 10^`from` to 10^`to`.
fn one_two_five(from: i32, to: i32) -> Vec<f64> {
    let mut ladder: Vec<f64> = (from..to)
        .flat_map(|e| [1, 2, 5].map(|m| decimal(m, e)))
        .collect();
    ladder.push(decimal(1, to));
    ladder
}

fn with_zero(mut ladder: Vec<f64>) -> Vec<f64> {
    ladder.insert(0, 0.0);
    ladder
}

fn whole_numbers(from: u32, to: u32) -> Vec<f64> {
    (from..=to).map(f64::from).collect()
}

/// 0, then 0.001% to 9% in steps of one digit (0.1%, 0.2% ... 0.9%, 1%, 2% ...), then 10% to
/// 100% in steps of 5%: fine where timeout rates live, coarse where shares do.
fn rates() -> Vec<f64> {
    let mut ladder = vec![0.0];
    for exponent in -5..=-2 {
        ladder.extend((1..=9).map(|m| decimal(m, exponent)));
    }
    ladder.extend((2..=20).map(|m| decimal(m * 5, -2)));
    ladder
}

/// Every value `step` can reach is valid: a check used by the tests.
pub fn is_valid(input: Input, value: f64) -> bool {
    let mut scenario = Scenario::default();
    input.set(&mut scenario, value);
    scenario.validate().is_ok()
}

#[cfg(test)]
mod tests {
    use super::Direction::{Down, Up};
    use super::*;

    fn walk(input: Input, start: f64, direction: Direction) -> Vec<f64> {
        let mut values = vec![start];
        loop {
            let next = step(input, *values.last().unwrap(), direction);
            if next == *values.last().unwrap() {
                return values;
            }
            assert!(is_valid(input, next), "{input}: {next} is not valid");
            values.push(next);
            assert!(values.len() < 1000, "{input} does not stop");
        }
    }

    #[test]
    fn article_values_step_to_neighbours() {
        let cases = [
            (Input::RequestsPerDay, 20_000.0, 10_000.0, 50_000.0),
            (Input::TimeoutRate, 0.002, 0.001, 0.003),
            (Input::SucceededShare, 0.5, 0.45, 0.55),
            (Input::OrderValue, 40.0, 20.0, 50.0),
            (Input::Retries, 3.0, 2.0, 4.0),
            (Input::Ttl, 86_400.0, 43_200.0, 172_800.0),
            (Input::KeySize, 1_000.0, 500.0, 2_000.0),
            (Input::DaysPerMonth, 30.0, 29.0, 31.0),
            (Input::AttemptTimeout, 10.0, 5.0, 15.0),
            (Input::Backoff, 1.0, 0.5, 2.0),
            (Input::BackoffFactor, 2.0, 1.5, 3.0),
            (Input::BackoffMax, 30.0, 20.0, 60.0),
            (Input::Jitter, 0.0, 0.0, 1.0),
            (Input::Layers, 1.0, 1.0, 2.0),
            (Input::KeyBytes, 36.0, 32.0, 64.0),
            (Input::BodyBytes, 900.0, 500.0, 1_000.0),
            (Input::Store, 0.0, 0.0, 1.0),
        ];
        for (input, value, down, up) in cases {
            assert_eq!(step(input, value, Down), down, "{input} down");
            assert_eq!(step(input, value, Up), up, "{input} up");
        }
    }

    #[test]
    fn rates_stay_fine_below_one_percent() {
        let up = walk(Input::TimeoutRate, 0.0, Up);
        let below_1pct = up.iter().filter(|&&r| r < 0.01).count();
        assert!(below_1pct >= 25, "{below_1pct} steps below 1%");
        assert_eq!(*up.last().unwrap(), 1.0);
        // A typed value between rungs goes to the nearest rung each way.
        assert_eq!(step(Input::TimeoutRate, 0.0035, Up), 0.004);
        assert_eq!(step(Input::TimeoutRate, 0.0035, Down), 0.003);
        // The parsed "0.3%" is not bit-equal to 3e-3 but still steps to 0.4%.
        assert_eq!(step(Input::TimeoutRate, 0.3 / 100.0, Up), 0.004);
    }

    #[test]
    fn ttl_goes_through_the_usual_lifetimes() {
        let up = walk(Input::Ttl, 3_600.0, Up);
        let hours: Vec<f64> = up.iter().take(7).map(|s| s / 3_600.0).collect();
        assert_eq!(hours, [1.0, 2.0, 6.0, 12.0, 24.0, 48.0, 72.0]);
        assert!(up.contains(&(30.0 * 86_400.0)));
    }

    #[test]
    fn every_input_stays_in_range_at_both_ends() {
        let mut s = Scenario::default();
        for input in Input::ALL {
            let down = walk(input, input.get(&s), Down);
            let up = walk(input, input.get(&s), Up);
            let (low, high) = (*down.last().unwrap(), *up.last().unwrap());
            assert_eq!(step(input, low, Down), low, "{input} below {low}");
            assert_eq!(step(input, high, Up), high, "{input} above {high}");
            input.set(&mut s, high);
        }
        let lows: Vec<f64> = Input::ALL
            .iter()
            .map(|&i| walk(i, i.get(&Scenario::default()), Down))
            .map(|w| *w.last().unwrap())
            .collect();
        assert_eq!(
            lows,
            [
                0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.1, 0.0, 1.0, 0.0, 0.0, 1.0, 8.0, 0.0, 0.0
            ]
        );
    }

    #[test]
    fn typed_values_beyond_the_ladder_step_back_onto_it() {
        assert_eq!(step(Input::RequestsPerDay, 5e15, Up), 5e15);
        assert_eq!(step(Input::RequestsPerDay, 5e15, Down), 1e12);
        assert_eq!(step(Input::DaysPerMonth, 30.44, Up), 31.0);
        assert_eq!(step(Input::DaysPerMonth, 30.44, Down), 30.0);
        assert_eq!(step(Input::DaysPerMonth, 0.5, Down), 0.5);
        assert_eq!(step(Input::Retries, 100.0, Up), 100.0);
        assert_eq!(step(Input::Retries, 0.0, Down), 0.0);
    }
}
