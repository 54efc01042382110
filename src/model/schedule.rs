//! The client's retry schedule against the key TTL (docs/MODEL.md, "Retry schedule and key TTL").
//!
//! Attempt 0 is sent at time 0. Attempt k + 1 is sent only after attempt k timed out, that is
//! `attempt_timeout` after attempt k was sent, plus the sleep `S_k` before the retry. With
//! `d_k = min(backoff * factor^k, backoff_max)`, the sleep is `d_k` (no jitter), uniform on
//! `[0, d_k]` (full jitter) or uniform on `[d_k / 2, d_k]` (equal jitter), the two schemes of
//! the AWS Architecture Blog's "Exponential Backoff And Jitter".
//!
//! With a key store, the first attempt that executes claims the key; a later attempt that
//! would execute finds the key and gets the saved response unless the key has expired, that
//! is unless more than the TTL has passed since the claim. Then it executes again (a
//! duplicate) and claims the key anew. [`keyed_duplicates`] gives the expected number of
//! such duplicates per intent.

use serde::{Deserialize, Serialize};

/// Cells of the grid on which the sum of jittered sleeps is computed: enough that the grid's
/// error stays far below a 10^6-intent simulation's noise (see tests/estimate/model.rs).
const GRID_CELLS: f64 = 512.0;

/// How a client randomises its backoff (AWS Architecture Blog, "Exponential Backoff And Jitter").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Jitter {
    /// Sleep exactly the backoff.
    #[default]
    None,
    /// Sleep half the backoff plus a uniform share of the other half.
    Equal,
    /// Sleep a uniform share of the backoff.
    Full,
}

impl Jitter {
    /// Every kind, from no spread to the most.
    pub const ALL: [Jitter; 3] = [Jitter::None, Jitter::Equal, Jitter::Full];

    /// The name used by the flag and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Jitter::None => "none",
            Jitter::Equal => "equal",
            Jitter::Full => "full",
        }
    }

    /// The shortest and the spread of a sleep whose backoff is `d`: it is uniform on
    /// `[low, low + width]`.
    fn sleep(self, d: f64) -> (f64, f64) {
        match self {
            Jitter::None => (d, 0.0),
            Jitter::Equal => (d / 2.0, d / 2.0),
            Jitter::Full => (0.0, d),
        }
    }
}

/// The client's retry schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    pub attempt_timeout: f64,
    pub backoff: f64,
    pub factor: f64,
    pub backoff_max: f64,
    pub jitter: Jitter,
    /// A published list of delays (`--schedule`), used instead of backoff, factor and cap.
    pub delays: Option<Delays>,
}

/// The most delays a `--schedule` lists (published schedules list a dozen or so; past the list
/// the last delay repeats, up to the model's 100 retries). Held inline: a scenario stays
/// `Copy` and small.
pub const MAX_DELAYS: usize = 32;

/// A sender's published retry delays in seconds (`--schedule 5s,5m,30m,2h,5h,10h,10h`), the
/// sleep before retry 1, 2, ...; past the list the last delay repeats. Held inline so that a
/// scenario stays `Copy`.
#[derive(Clone, Copy, PartialEq)]
pub struct Delays {
    len: u8,
    seconds: [f64; MAX_DELAYS],
}

impl Delays {
    /// The delays, checking each: finite, >= 0, 1 to 100 of them. The error names the delay
    /// at fault by its place (1-based).
    pub fn new(seconds: &[f64]) -> Result<Delays, String> {
        if seconds.is_empty() {
            return Err("a schedule needs at least one delay".to_string());
        }
        if seconds.len() > MAX_DELAYS {
            return Err(format!(
                "{} delays: a schedule lists at most {MAX_DELAYS} (past the list the last delay \
                 repeats: give --retries for more)",
                seconds.len()
            ));
        }
        let mut delays = Delays {
            len: seconds.len() as u8,
            seconds: [0.0; MAX_DELAYS],
        };
        for (i, &d) in seconds.iter().enumerate() {
            if !(d.is_finite() && d >= 0.0) {
                return Err(format!(
                    "delay {} ({d}) must be a finite number of seconds >= 0",
                    i + 1
                ));
            }
            delays.seconds[i] = d;
        }
        Ok(delays)
    }

    /// The delays, in order.
    pub fn as_slice(&self) -> &[f64] {
        &self.seconds[..usize::from(self.len)]
    }

    /// How many delays: the retries the schedule describes.
    pub fn len(&self) -> u32 {
        u32::from(self.len)
    }

    /// Never true: a schedule has at least one delay.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sleep before retry `k + 1` (0-based): the k-th delay, or the last past the list.
    pub fn get(&self, k: usize) -> f64 {
        let list = self.as_slice();
        list[k.min(list.len() - 1)]
    }
}

impl std::fmt::Debug for Delays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl std::fmt::Display for Delays {
    /// The `--schedule` form, re-parseable: `5s,300s,1800s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.as_slice().iter().map(|d| format!("{d}s")).collect();
        f.write_str(&parts.join(","))
    }
}

impl std::str::FromStr for Delays {
    type Err = String;

    /// `5s,5m,30m,2h`: each a duration as `--backoff` takes it; the error names the delay at
    /// fault by its place and text.
    fn from_str(text: &str) -> Result<Delays, String> {
        let mut seconds = Vec::new();
        for (i, part) in text.split(',').enumerate() {
            let d = part
                .parse::<crate::units::Seconds>()
                .map_err(|e| format!("delay {} ('{}'): {e}", i + 1, part.trim()))?;
            seconds.push(d.0);
        }
        Delays::new(&seconds)
    }
}

impl Serialize for Delays {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Delays {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Delays, D::Error> {
        let seconds = Vec::<f64>::deserialize(deserializer)?;
        Delays::new(&seconds).map_err(serde::de::Error::custom)
    }
}

impl Schedule {
    /// `d_0 .. d_{r-1}`: the backoff before each retry, before jitter, capped at
    /// `backoff_max`. By repeated multiplication (not `powi`), capped at each step so a large
    /// factor cannot overflow: the same bits in every build.
    pub fn backoffs(&self, retries: u32) -> Vec<f64> {
        self.backoff_iter().take(retries as usize).collect()
    }

    /// `d_0, d_1, ...` without end (no allocation): the published delays when there are
    /// some (the last repeating), else the capped exponential backoff.
    fn backoff_iter(&self) -> impl Iterator<Item = f64> + use<> {
        let (factor, cap, delays) = (self.factor, self.backoff_max, self.delays);
        let mut exponential = std::iter::successors(Some(self.backoff.min(cap)), move |d| {
            Some((d * factor).min(cap))
        });
        (0usize..).map(move |k| match &delays {
            Some(list) => list.get(k),
            None => exponential.next().unwrap_or(cap),
        })
    }

    /// `sum d_k` over the `retries` backoffs.
    fn backoff_sum(&self, retries: u32) -> f64 {
        self.backoff_iter().take(retries as usize).sum()
    }

    /// The worst case from the first attempt's start to the last attempt's end:
    /// `(r + 1) * attempt_timeout + sum d_k` (jitter only ever shortens a sleep).
    pub fn horizon(&self, retries: u32) -> f64 {
        (f64::from(retries) + 1.0) * self.attempt_timeout + self.backoff_sum(retries)
    }
}

/// Expected duplicate executions per intent that a key store of `ttl` seconds leaves, for
/// timeout rate `t`, succeeded share `s` and `r` retries on `schedule`.
///
/// With `G(m, j) = P(a_j - a_m > ttl)` (attempt j sent more than a TTL after attempt m),
/// `c_m` the chance that attempt m claims a key given attempts 0..m timed out, and `q(m, k)`
/// the chance that, after a claim at m, no attempt in between claims and attempt k finds the
/// key expired (if it executes):
///
/// * `q(m, k) = (1 - s) q(m, k - 1) + G(m, k) - G(m, k - 1)`, `q(m, m) = G(m, m) = 0`;
/// * `c_m = s ((1 - s)^m + sum_{m' < m} c_m' q(m', m))`;
/// * duplicates = `(1 - t + t s) sum_{k=1..r} t^k sum_{m < k} c_m q(m, k)`.
///
/// With `ttl` shorter than one attempt timeout every `G` is 1 and this is the model's D; with
/// `ttl` at least the longest possible `a_r` it is 0.
pub fn keyed_duplicates(t: f64, s: f64, r: u32, schedule: &Schedule, ttl: f64) -> f64 {
    if r == 0 || s == 0.0 || t == 0.0 {
        return 0.0;
    }
    // The latest attempt r can be sent: with a TTL at least that, no key ever expires in time.
    let latest_last_send = f64::from(r) * schedule.attempt_timeout + schedule.backoff_sum(r);
    if ttl >= latest_last_send {
        return 0.0;
    }
    let backoffs = schedule.backoffs(r);
    let n = r as usize;
    let expired = expiry_table(schedule, &backoffs, ttl);
    let keep = 1.0 - s;
    // c[m], built in order; q(m, k) for all m < k kept per m as the walk over k goes on.
    let mut claims = vec![0.0f64; n + 1];
    let mut q = vec![0.0f64; n + 1]; // q[m] = q(m, k) for the current k
    let mut duplicate_given_reached = vec![0.0f64; n + 1]; // sum_{m<k} c_m q(m, k)
    let mut keep_m = 1.0; // (1 - s)^m
    for k in 0..=n {
        // q(m, k) from q(m, k - 1), for every earlier claim m.
        let mut through_k = 0.0;
        for m in 0..k {
            q[m] = keep * q[m] + expired[m][k - m] - expired[m][k - m - 1];
            through_k += claims[m] * q[m];
        }
        duplicate_given_reached[k] = through_k;
        claims[k] = s * (keep_m + through_k);
        keep_m *= keep;
    }
    let executes = (1.0 - t) + t * s;
    let mut sum = 0.0;
    let mut t_k = 1.0;
    for through_k in duplicate_given_reached.iter().skip(1) {
        t_k *= t;
        sum += t_k * through_k;
    }
    executes * sum
}

/// `G(m, m + i)` for every m and i: the chance that attempt `m + i` is sent more than `ttl`
/// after attempt m. Row m has `r - m + 1` entries, the first (i = 0) being 0.
fn expiry_table(schedule: &Schedule, backoffs: &[f64], ttl: f64) -> Vec<Vec<f64>> {
    let r = backoffs.len();
    let sleeps: Vec<(f64, f64)> = backoffs.iter().map(|&d| schedule.jitter.sleep(d)).collect();
    let total_width: f64 = sleeps.iter().map(|&(_, w)| w).sum();
    // At least the smallest normal float, so that a subnormal spread cannot make a cell of 0
    // (and a span of infinitely many cells): every span stays within GRID_CELLS.
    // At least the smallest normal float, so that a subnormal spread cannot make a cell of 0
    // (and a span of infinitely many cells): every span stays within GRID_CELLS.
    let cell = (total_width / GRID_CELLS).max(f64::MIN_POSITIVE);
    // From the first retry whose backoff is capped (or constant) on, every later row is a
    // prefix of that row: the sleeps ahead of each are the same.
    let same_from = (0..r)
        .rev()
        .take_while(|&i| backoffs[i] == backoffs[r - 1])
        .last()
        .unwrap_or(r);
    let mut rows: Vec<Vec<f64>> = (0..=same_from.min(r))
        .map(|m| {
            let mut row = vec![0.0; r - m + 1];
            let mut sum = SleepSum::default();
            let mut fixed = 0.0; // (j - m) * timeout + the sleeps' lower ends
            for j in m + 1..=r {
                let (low, width) = sleeps[j - 1];
                fixed += schedule.attempt_timeout + low;
                let margin = ttl - fixed; // the jittered part must exceed this
                if margin < 0.0 {
                    // Every later attempt is later still: expired for sure.
                    row[j - m..].iter_mut().for_each(|g| *g = 1.0);
                    break;
                }
                sum.add(width, cell);
                row[j - m] = sum.exceeds(margin, cell);
            }
            row
        })
        .collect();
    for m in same_from + 1..=r {
        let prefix = rows[same_from][..=r - m].to_vec();
        rows.push(prefix);
    }
    rows
}

/// The distribution of a sum of independent uniform sleeps, as masses on a grid of cells:
/// cell c holds the mass in `[(c - 1/2) h, (c + 1/2) h)`, taken as spread evenly over it.
#[derive(Debug, Default)]
struct SleepSum {
    /// Total width so far; while 0 the sum is a point mass at 0 (no grid needed).
    width: f64,
    masses: Vec<f64>,
}

impl SleepSum {
    /// Adds a sleep uniform on `[0, width]`: each cell's mass is spread over the next
    /// `width / cell` cells and re-binned (mean-preserving).
    fn add(&mut self, width: f64, cell: f64) {
        if width <= 0.0 {
            return;
        }
        if self.masses.is_empty() {
            self.masses.push(1.0);
        }
        self.width += width;
        let span = width / cell;
        // weight(0) = min(1/2, span); weight(u >= 1) = clamp(span + 1/2 - u, 0, 1).
        let first = span.min(0.5);
        let whole = (span - 0.5).floor().max(0.0) as usize;
        let last = (span + 0.5 - (whole as f64 + 1.0)).clamp(0.0, 1.0);
        let old = std::mem::take(&mut self.masses);
        let mut prefix = Vec::with_capacity(old.len() + 1);
        prefix.push(0.0);
        for m in &old {
            prefix.push(prefix.last().copied().unwrap_or(0.0) + m);
        }
        let at = |i: isize| -> f64 {
            if i < 0 {
                0.0
            } else {
                old.get(i as usize).copied().unwrap_or(0.0)
            }
        };
        // sum of old[i] for i in [lo, hi] clamped to the vector
        let range = |lo: isize, hi: isize| -> f64 {
            let lo = lo.clamp(0, old.len() as isize) as usize;
            let hi = (hi + 1).clamp(0, old.len() as isize) as usize;
            if hi > lo {
                prefix[hi] - prefix[lo]
            } else {
                0.0
            }
        };
        let len = old.len() + whole + 2;
        self.masses = (0..len as isize)
            .map(|c| {
                let spread = first * at(c)
                    + range(c - whole as isize, c - 1)
                    + last * at(c - whole as isize - 1);
                spread / span
            })
            .collect();
    }

    /// `P(sum > margin)`, for `margin >= 0`.
    fn exceeds(&self, margin: f64, cell: f64) -> f64 {
        if self.width <= 0.0 || margin >= self.width {
            return 0.0;
        }
        let x = margin / cell;
        let p: f64 = self
            .masses
            .iter()
            .enumerate()
            .map(|(c, m)| m * (c as f64 + 0.5 - x).clamp(0.0, 1.0))
            .sum();
        p.clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn article(jitter: Jitter) -> Schedule {
        Schedule {
            attempt_timeout: 10.0,
            backoff: 1.0,
            factor: 2.0,
            backoff_max: 30.0,
            jitter,
            delays: None,
        }
    }

    #[test]
    fn horizon_of_the_article() {
        assert_eq!(article(Jitter::None).horizon(3), 47.0);
        assert_eq!(article(Jitter::Full).horizon(3), 47.0);
        assert_eq!(article(Jitter::None).horizon(0), 10.0);
        assert_eq!(
            article(Jitter::None).backoffs(7),
            [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
        );
    }

    #[test]
    fn a_ttl_shorter_than_a_timeout_is_no_store_at_all() {
        for jitter in Jitter::ALL {
            for (t, s, r) in [(0.3, 0.5, 3), (1.0, 0.5, 4), (0.002, 0.5, 3), (0.5, 1.0, 2)] {
                let d = super::super::PerIntent::new(t, s, r).duplicates;
                let k = keyed_duplicates(t, s, r, &article(jitter), 5.0);
                assert!(
                    (k - d).abs() <= 1e-12 * d,
                    "{jitter:?} {t} {s} {r}: {k} vs {d}"
                );
            }
        }
    }

    #[test]
    fn no_jitter_counts_whole_attempts() {
        // Sent at 0, 11, 23, 37: a 20 s TTL lets attempt 2 (23 s after attempt 0) and
        // attempt 3 (26 s after attempt 1) through, not attempt 1.
        let (t, s) = (0.5, 0.5);
        let k = keyed_duplicates(t, s, 3, &article(Jitter::None), 20.0);
        // By hand: claims c0 = s; c1 = s(1-s); c2 = s((1-s)^2 + c0); q(0,2)=1, q(0,3)=(1-s),
        // q(1,3)=1 (26 > 20), q(0,1)=q(1,2)=q(2,3)=0.
        let c0 = s;
        let c1 = s * (1.0 - s);
        let through2 = c0;
        let through3 = c0 * (1.0 - s) + c1;
        let expected = ((1.0 - t) + t * s) * (t * t * through2 + t * t * t * through3);
        assert!((k - expected).abs() < 1e-15, "{k} vs {expected}");
    }

    #[test]
    fn published_delays_equal_to_the_backoffs_give_the_same_figures() {
        for jitter in Jitter::ALL {
            let exponential = article(jitter);
            let listed = Schedule {
                delays: Some(Delays::new(&exponential.backoffs(3)).unwrap()),
                ..exponential
            };
            assert_eq!(
                listed.backoffs(5),
                [1.0, 2.0, 4.0, 4.0, 4.0],
                "the last repeats"
            );
            assert_eq!(listed.horizon(3), exponential.horizon(3));
            for ttl in [5.0, 15.0, 30.0] {
                assert_eq!(
                    keyed_duplicates(0.3, 0.5, 3, &listed, ttl),
                    keyed_duplicates(0.3, 0.5, 3, &exponential, ttl),
                    "{jitter:?} {ttl}"
                );
            }
        }
    }

    #[test]
    fn delays_parse_and_name_the_bad_one() {
        let d: Delays = "5s,5m,30m,2h".parse().unwrap();
        assert_eq!(d.as_slice(), [5.0, 300.0, 1800.0, 7200.0]);
        assert_eq!(d.to_string().parse::<Delays>().unwrap(), d);
        for (text, needle) in [
            ("5s,,1m", "delay 2"),
            ("-1s", "delay 1 ('-1s')"),
            ("1m,2x", "delay 2 ('2x')"),
        ] {
            let err = text.parse::<Delays>().unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
        assert!(Delays::new(&[1.0; 33]).unwrap_err().contains("at most 32"));
        assert_eq!(Delays::new(&[1.0; 32]).unwrap().len(), 32);
        assert!(Delays::new(&[]).is_err());
        assert!(
            Delays::new(&[f64::INFINITY])
                .unwrap_err()
                .contains("delay 1")
        );
    }

    #[test]
    fn zeros_at_the_edges() {
        let s = article(Jitter::Full);
        assert_eq!(keyed_duplicates(0.0, 0.5, 3, &s, 1.0), 0.0);
        assert_eq!(keyed_duplicates(0.5, 0.0, 3, &s, 1.0), 0.0);
        assert_eq!(keyed_duplicates(0.5, 0.5, 0, &s, 1.0), 0.0);
        assert_eq!(keyed_duplicates(0.5, 0.5, 3, &s, 37.0), 0.0);
        assert!(keyed_duplicates(0.5, 0.5, 3, &s, 36.0) > 0.0);
    }

    /// Spreads from subnormal to near the largest float: no panic, a probability or NaN
    /// (which `Scenario::validate` refuses as too large to compute).
    #[test]
    fn extreme_schedules_do_not_panic() {
        for (timeout, backoff, cap) in [
            (5e-324, 5e-324, 5e-324),
            (1e-300, 5e-324, 5e-324),
            (1e-300, 1e-310, 1e-310),
            (1.0, 1e308, 1e308),
            (1e300, 1e300, 1e300),
        ] {
            for jitter in Jitter::ALL {
                let schedule = Schedule {
                    attempt_timeout: timeout,
                    backoff,
                    factor: 2.0,
                    backoff_max: cap,
                    jitter,
                    delays: None,
                };
                for ttl in [1.0, 1e-320, 1e-322] {
                    let k = keyed_duplicates(0.5, 0.5, 100, &schedule, ttl);
                    assert!(k.is_nan() || (0.0..=1e3).contains(&k), "{k}");
                }
            }
        }
    }

    #[test]
    fn sleep_sum_is_a_distribution() {
        let mut sum = SleepSum::default();
        for w in [1.0, 2.0, 4.0] {
            sum.add(w, 7.0 / 512.0);
        }
        let total: f64 = sum.masses.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        // The median of U(0,1) + U(0,2) + U(0,4) is 3.5 by symmetry.
        assert!((sum.exceeds(3.5, 7.0 / 512.0) - 0.5).abs() < 1e-3);
        assert_eq!(sum.exceeds(7.0, 7.0 / 512.0), 0.0);
        assert!((sum.exceeds(0.0, 7.0 / 512.0) - 1.0).abs() < 1e-6);
    }
}
