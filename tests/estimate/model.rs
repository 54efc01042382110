//! The model against its invariants (proptest), an exact rational computation, and a seeded
//! Monte Carlo simulation of the attempt process of `docs/MODEL.md`.

use dupcost::model::{Estimate, PerIntent, Scenario};
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(1.0),
        0.0..=1.0f64,
        (1e-9..1e-2f64), // the realistic range, down to 1e-9
    ]
}

fn retries() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), Just(1), Just(100), 0..=100u32]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn duplicates_are_never_negative(t in rate(), s in rate(), r in retries()) {
        let d = PerIntent::new(t, s, r).duplicates;
        prop_assert!(d >= 0.0 && d.is_finite(), "D = {d}");
    }

    #[test]
    fn duplicates_are_exactly_zero_without_retries_successes_or_timeouts(t in rate(), s in rate(), r in retries()) {
        prop_assert_eq!(PerIntent::new(t, s, 0).duplicates, 0.0);
        prop_assert_eq!(PerIntent::new(t, 0.0, r).duplicates, 0.0);
        prop_assert_eq!(PerIntent::new(0.0, s, r).duplicates, 0.0);
    }

    #[test]
    fn duplicates_grow_with_the_succeeded_share(t in rate(), s1 in rate(), s2 in rate(), r in retries()) {
        let (lo, hi) = if s1 <= s2 { (s1, s2) } else { (s2, s1) };
        prop_assert!(PerIntent::new(t, lo, r).duplicates <= PerIntent::new(t, hi, r).duplicates);
    }

    #[test]
    fn duplicates_grow_and_unanswered_shrinks_with_retries(t in rate(), s in rate(), r in 0..100u32) {
        let (a, b) = (PerIntent::new(t, s, r), PerIntent::new(t, s, r + 1));
        prop_assert!(a.duplicates <= b.duplicates);
        prop_assert!(b.unanswered <= a.unanswered);
        prop_assert!(b.unanswered_charged <= a.unanswered);
    }

    /// To first order D is t*s; the rest is O(t^2): |D - t*s| <= 3 t^2 for t <= 1/2.
    #[test]
    fn duplicates_are_t_times_s_to_first_order(t in 0.0..=0.5f64, s in rate(), r in 1..=100u32) {
        let d = PerIntent::new(t, s, r).duplicates;
        prop_assert!((d - t * s).abs() <= 3.0 * t * t + 1e-300, "t={t} s={s} r={r} D={d}");
    }

    #[test]
    fn probabilities_stay_probabilities(t in rate(), s in rate(), r in retries()) {
        let p = PerIntent::new(t, s, r);
        for v in [p.at_least_one_execution, p.unanswered, p.unanswered_charged] {
            prop_assert!((0.0..=1.0).contains(&v), "{p:?}");
        }
        prop_assert!(p.unanswered_charged <= p.unanswered);
        prop_assert!(p.attempts >= 1.0 && p.attempts <= f64::from(r) + 1.0);
    }

    #[test]
    fn outputs_scale_with_requests(n in 0.0..1e9f64, t in rate(), s in rate(), r in retries()) {
        let one = Estimate::new(Scenario { requests_per_day: 1.0, timeout_rate: t, succeeded_share: s, retries: r, ..Default::default() });
        let many = Estimate::new(Scenario { requests_per_day: n, ..one.inputs });
        let tol = 1e-12 * n.max(1.0);
        prop_assert!((many.duplicates.per_day - n * one.duplicates.per_day).abs() <= tol * one.duplicates.per_day.max(1e-300) + 1e-300);
        prop_assert!(many.refund_cost.per_month >= 0.0);
        prop_assert!(many.key_store.bytes >= 0.0);
    }

}

proptest! {
    // Exact rationals of 100 retries are slow to build: fewer cases, each a full check.
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// D from the cancellation-free form agrees with E - P1 computed in exact rationals, for
    /// retries up to 100 and rates down to 1e-9.
    #[test]
    fn duplicates_match_exact_rationals(t in rate(), s in rate(), r in retries()) {
        let exact = exact_duplicates(t, s, r);
        let ours = PerIntent::new(t, s, r).duplicates;
        if exact == 0.0 {
            prop_assert_eq!(ours, 0.0);
        } else {
            prop_assert!(((ours - exact) / exact).abs() < 1e-12, "t={t} s={s} r={r}: {ours} vs {exact}");
        }
    }
}

/// D = E - P1 with every operation exact.
fn exact_duplicates(t: f64, s: f64, r: u32) -> f64 {
    let q = |x: f64| BigRational::from_float(x).expect("finite");
    let one = BigRational::from_integer(BigInt::from(1));
    let (t, s) = (q(t), q(s));
    let mut attempts = BigRational::from_integer(BigInt::from(0));
    let mut t_k = one.clone();
    for _ in 0..=r {
        attempts += &t_k;
        t_k *= &t;
    }
    let executions = (&one - &t + &t * &s) * attempts;
    let miss = &t * (&one - &s);
    let mut miss_all = one.clone();
    for _ in 0..=r {
        miss_all *= &miss;
    }
    let d = executions - (one - miss_all);
    // to f64 via numerator and denominator scaled to keep precision
    let (num, den) = (d.numer().clone(), d.denom().clone());
    if num == BigInt::from(0) {
        return 0.0;
    }
    let shift = den.bits() as i64 - num.bits() as i64 + 64;
    let scaled = if shift >= 0 {
        (num << shift as usize) / den
    } else {
        num / (den << (-shift) as usize)
    };
    let mantissa: f64 = scaled.to_string().parse().unwrap();
    mantissa * 2f64.powi(-shift as i32)
}

/// Simulates `intents` intents through the attempt process, and checks the closed forms lie
/// within 4 standard errors of the simulated means.
#[test]
fn monte_carlo_agrees_with_the_closed_form() {
    let (t, s, r) = (0.3, 0.5, 3u32);
    let intents = 1_000_000u32;
    let mut rng = ChaCha8Rng::seed_from_u64(20261130);
    let mut sums = [0.0f64; 4]; // duplicates, attempts, unanswered, unanswered and charged
    let mut squares = [0.0f64; 4];
    for _ in 0..intents {
        let (mut executions, mut attempts, mut answered) = (0u32, 0u32, false);
        for _ in 0..=r {
            attempts += 1;
            if rng.random::<f64>() >= t {
                executions += 1;
                answered = true;
                break;
            }
            if rng.random::<f64>() < s {
                executions += 1;
            }
        }
        let sample = [
            f64::from(executions.saturating_sub(1)),
            f64::from(attempts),
            f64::from(u8::from(!answered)),
            f64::from(u8::from(!answered && executions > 0)),
        ];
        for i in 0..4 {
            sums[i] += sample[i];
            squares[i] += sample[i] * sample[i];
        }
    }
    let p = PerIntent::new(t, s, r);
    let expected = [p.duplicates, p.attempts, p.unanswered, p.unanswered_charged];
    let n = f64::from(intents);
    for i in 0..4 {
        let mean = sums[i] / n;
        let std_error = ((squares[i] / n - mean * mean) / n).sqrt();
        assert!(
            (mean - expected[i]).abs() <= 4.0 * std_error,
            "figure {i}: simulated {mean} ± {std_error}, closed form {}",
            expected[i]
        );
    }
}

/// The key store against the TTL: attempts are sent on the client's schedule (with jitter
/// drawn as the client would), the first execution claims the key, and an attempt that would
/// execute more than a TTL after the last claim executes again. The closed form of
/// `keyed_duplicates` must lie within 4 standard errors of the simulated mean, for each
/// jitter and for TTLs below, between and above the attempts' send times.
#[test]
fn monte_carlo_agrees_with_the_key_store_closed_form() {
    use dupcost::model::schedule::keyed_duplicates;
    use dupcost::model::{Jitter, Schedule};
    let (t, s, r) = (0.4, 0.5, 4u32);
    let intents = 150_000u32;
    let mut rng = ChaCha8Rng::seed_from_u64(20261201);
    let exponential = Jitter::ALL.map(|jitter| Schedule {
        attempt_timeout: 2.0,
        backoff: 1.0,
        factor: 2.0,
        backoff_max: 5.0,
        jitter,
        delays: None,
    });
    // A published schedule out of order, the last delay repeating past the list.
    let listed = Schedule {
        jitter: Jitter::Full,
        delays: Some(dupcost::model::Delays::new(&[6.0, 0.5, 3.0]).unwrap()),
        ..exponential[0]
    };
    for schedule in exponential.into_iter().chain([listed]) {
        let jitter = schedule.jitter;
        let backoffs = schedule.backoffs(r);
        for ttl in [1.0, 3.5, 9.0, 14.0, 30.0] {
            let (mut sum, mut squares) = (0.0f64, 0.0f64);
            for _ in 0..intents {
                let (mut sent_at, mut claimed_at, mut executions) = (0.0f64, None::<f64>, 0u32);
                for k in 0..=r {
                    if k > 0 {
                        let d = backoffs[k as usize - 1];
                        let sleep = match jitter {
                            Jitter::None => d,
                            Jitter::Equal => d / 2.0 + rng.random::<f64>() * d / 2.0,
                            Jitter::Full => rng.random::<f64>() * d,
                        };
                        sent_at += schedule.attempt_timeout + sleep;
                    }
                    let answered = rng.random::<f64>() >= t;
                    let would_execute = answered || rng.random::<f64>() < s;
                    if would_execute && claimed_at.is_none_or(|c| sent_at - c > ttl) {
                        executions += 1;
                        claimed_at = Some(sent_at);
                    }
                    if answered {
                        break;
                    }
                }
                let duplicates = f64::from(executions.saturating_sub(1));
                sum += duplicates;
                squares += duplicates * duplicates;
            }
            let n = f64::from(intents);
            let mean = sum / n;
            let std_error = ((squares / n - mean * mean) / n).sqrt();
            let closed = keyed_duplicates(t, s, r, &schedule, ttl);
            assert!(
                (mean - closed).abs() <= 4.0 * std_error + 1e-12,
                "{schedule:?} ttl {ttl}: simulated {mean} ± {std_error}, closed form {closed}"
            );
        }
    }
}

fn schedule() -> impl Strategy<Value = dupcost::model::Schedule> {
    use dupcost::model::{Jitter, Schedule};
    (
        prop_oneof![Just(1.0), 0.1..30.0f64],
        prop_oneof![Just(0.0), 0.0..10.0f64],
        1.0..3.0f64,
        prop_oneof![Just(0.0), 0.0..60.0f64],
        0usize..3,
        // A published list of delays (`--schedule`) half the time, in any order.
        proptest::option::of(proptest::collection::vec(
            prop_oneof![Just(0.0), 0.0..60.0f64],
            1..6,
        )),
    )
        .prop_map(|(timeout, backoff, factor, cap, jitter, delays)| Schedule {
            attempt_timeout: timeout,
            backoff,
            factor,
            backoff_max: cap,
            jitter: Jitter::ALL[jitter],
            delays: delays.map(|d| dupcost::model::Delays::new(&d).unwrap()),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A key store never adds duplicates, removes them all once the TTL outlasts the horizon,
    /// and none at all when the TTL is within one attempt timeout.
    #[test]
    fn keyed_duplicates_lie_between_zero_and_d(
        t in rate(), s in rate(), r in 0..=12u32, schedule in schedule(), ttl in 0.5..200.0f64,
    ) {
        use dupcost::model::schedule::keyed_duplicates;
        let d = PerIntent::new(t, s, r).duplicates;
        let k = keyed_duplicates(t, s, r, &schedule, ttl);
        prop_assert!(k >= 0.0 && k <= d * (1.0 + 1e-12) + 1e-300, "keyed {k} > D {d}");
        let horizon = schedule.horizon(r);
        prop_assert_eq!(keyed_duplicates(t, s, r, &schedule, horizon), 0.0);
        if ttl < schedule.attempt_timeout {
            prop_assert!((k - d).abs() <= 1e-12 * d, "{k} vs D {d} at a TTL under one timeout");
        }
    }

    /// A longer TTL never lets more duplicates through.
    #[test]
    fn keyed_duplicates_shrink_as_the_ttl_grows(
        t in rate(), s in rate(), r in 0..=12u32, schedule in schedule(),
        a in 0.5..200.0f64, b in 0.5..200.0f64,
    ) {
        use dupcost::model::schedule::keyed_duplicates;
        let (short, long) = if a <= b { (a, b) } else { (b, a) };
        let k_short = keyed_duplicates(t, s, r, &schedule, short);
        let k_long = keyed_duplicates(t, s, r, &schedule, long);
        prop_assert!(k_long <= k_short * (1.0 + 1e-9) + 1e-300, "ttl {short}: {k_short}, ttl {long}: {k_long}");
    }

    /// Exactly zero without timeouts, without executed timeouts or without retries; at t = 1
    /// every attempt is sent, so with no store it is D.
    #[test]
    fn keyed_duplicates_edge_cases(s in rate(), t in rate(), r in 0..=12u32, schedule in schedule(), ttl in 0.5..200.0f64) {
        use dupcost::model::schedule::keyed_duplicates;
        prop_assert_eq!(keyed_duplicates(0.0, s, r, &schedule, ttl), 0.0);
        prop_assert_eq!(keyed_duplicates(t, 0.0, r, &schedule, ttl), 0.0);
        prop_assert_eq!(keyed_duplicates(t, s, 0, &schedule, ttl), 0.0);
        let tiny_ttl = schedule.attempt_timeout * 0.5;
        let at_one = keyed_duplicates(1.0, s, r, &schedule, tiny_ttl);
        let d = PerIntent::new(1.0, s, r).duplicates;
        prop_assert!((at_one - d).abs() <= 1e-12 * d, "t = 1: {at_one} vs {d}");
    }

    /// Amplification: 1 <= expected <= worst case = (r + 1)^layers.
    #[test]
    fn amplification_is_bounded(t in rate(), r in 0..=100u32, layers in 1..=20u32) {
        let e = Estimate::new(Scenario { timeout_rate: t, retries: r, layers, ..Default::default() });
        let worst = (0..layers).fold(1.0, |p, _| p * (f64::from(r) + 1.0));
        prop_assert_eq!(e.amplification.worst_case, worst);
        prop_assert!(e.amplification.expected >= 1.0);
        prop_assert!(e.amplification.expected <= worst * (1.0 + 1e-12));
        if t == 0.0 { prop_assert_eq!(e.amplification.expected, 1.0); }
        if t == 1.0 { prop_assert_eq!(e.amplification.expected, worst); }
    }
}
