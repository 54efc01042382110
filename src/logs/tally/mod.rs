//! The mergeable tally: per-day, per-endpoint and per-intent state, nothing per row.
//!
//! # Intents in bounded memory
//!
//! Mutating rows that carry an idempotency key are grouped into intents by a 64-bit hash of
//! the key (scoped by method and route, so a key reused on another endpoint is another
//! intent). Two consecutive rows of the same key (in file order) belong to the same intent
//! when their timestamps are at most the *retry window* `W` apart (`--retry-window`, 1 h by
//! default); a longer gap starts a new intent. The rule only looks at pairs of consecutive rows
//! of one key, so it does not depend on how the input is cut into pieces.
//!
//! A key is retired (counted as one intent with its attempts, and forgotten) once the log's
//! clock (the latest timestamp seen so far) is more than `W + G` past its last row, where the
//! grace `G` is `W / 4`; the open intents are looked at each time the clock moves by `W`
//! (`W / 16` in a follower's tally, [`Tally::following`]) and their table is at least half
//! full (a look reads the whole table, and the table grows only past 70%, a follower's past 85%). Memory is
//! therefore bounded by the table that holds the intents of about `2.25 W` (a follower's:
//! `1.3 W`) of the busiest traffic (plus, per piece
//! that may follow another, the first intents of its first `1.25 W`; see
//! [`Tally::without_predecessor`]), whatever the file size. This is exact as long as
//! no row is more than `G` older than the latest row before it (access logs are written in
//! completion order, so they are out of order by at most a request's duration). Without a
//! timestamp column there is no clock: keys are kept to the end (memory then grows with the
//! distinct keys).
//!
//! # Merging pieces
//!
//! A piece (a file, or a chunk of one) keeps two kinds of boundary state besides its totals:
//! the intents still *open* at its end (which a row in the next piece may continue), and its
//! *heads*: the first intent of each key whose first row lies within `W + G` of the piece's
//! first row (which may continue an intent open at the end of the previous piece). Heads and
//! open intents are not counted until [`Tally::finish`]. [`Tally::merge`] joins a head to the
//! previous piece's open intent of the same key when their rows are at most `W` apart, exactly
//! as the streaming rule would have, so reading a log whole or in any number of pieces merged
//! in order gives the same finished tally (under the same ordering assumption).

mod endpoints;
mod formats;
mod id_map;
mod intents;

use std::collections::{BTreeMap, VecDeque};

use super::error::BadRow;
pub use endpoints::EndpointMap;
pub use formats::FormatsUsed;
pub use id_map::{IdHasher, IdMap};
use intents::{Facts, FingerprintTouch, Intent, IntentTable, NO_FIRST_TS, Touch};
pub use intents::{FingerprintAttempt, KeyedAttempt};

/// Distinct endpoints kept; later ones are counted together as "(other routes)".
pub const MAX_ENDPOINTS: usize = 10_000;
/// The hash of the "(other routes)" endpoint.
const OTHER_ROUTES: u64 = 0x07e4_0a11_0de5_0000;

/// Keyed attempts queued before their intent is looked up: enough rows of parsing to cover a
/// cache miss (a row takes about 100 ns, a miss about as long).
const PIPELINE: usize = 4;

/// How many bad rows are kept as examples.
pub const BAD_ROW_SAMPLES: usize = 5;

/// What became of a timed-out attempt at the backend (its fate), as far as a log can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// The backend answered 2xx: the work was done.
    Succeeded,
    /// The backend answered something else, or never saw the request.
    Failed,
    /// The log does not say (the proxy gave up before the backend answered).
    Unknown,
}

/// Counts of mutating attempts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub mutating: u64,
    pub timed_out: u64,
    pub timed_out_succeeded: u64,
    /// Timed-out attempts whose outcome the log does not tell.
    pub timed_out_unknown: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.mutating += other.mutating;
        self.timed_out += other.timed_out;
        self.timed_out_succeeded += other.timed_out_succeeded;
        self.timed_out_unknown += other.timed_out_unknown;
    }

    #[inline]
    fn record(&mut self, timed_out: bool, outcome: Fate) {
        self.mutating += 1;
        self.timed_out += u64::from(timed_out);
        self.timed_out_succeeded += u64::from(timed_out && outcome == Fate::Succeeded);
        self.timed_out_unknown += u64::from(timed_out && outcome == Fate::Unknown);
    }

    /// A timed-out attempt's outcome becomes `new` (the backend's log told it).
    pub fn reclassify(&mut self, old: Fate, new: Fate) {
        match old {
            Fate::Succeeded => self.timed_out_succeeded -= 1,
            Fate::Unknown => self.timed_out_unknown -= 1,
            Fate::Failed => {}
        }
        match new {
            Fate::Succeeded => self.timed_out_succeeded += 1,
            Fate::Unknown => self.timed_out_unknown += 1,
            Fate::Failed => {}
        }
    }
}

/// A timed-out attempt kept for the join with the backend's log (`--outcomes`): its request
/// id's hash, when, where, and what the proxy's log said of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut {
    pub id: u64,
    pub ts: i64,
    pub endpoint: u64,
    pub outcome: Fate,
}

/// What the backend's own log (`--outcomes`) said of the timed-out attempts' request ids:
/// `true` once any of its rows for the id was 2xx; and its span, to tell an attempt that
/// never reached it from one it cannot see.
#[derive(Debug, Clone, Default)]
pub struct BackendAnswers {
    pub answers: IdMap<bool>,
    pub span: Option<(i64, i64)>,
}

impl BackendAnswers {
    /// The outcome of a timed-out attempt with request id hash `id` at `ts`, by the rules of
    /// `--outcomes`: the backend's status when it logged the id; failed (never reached it)
    /// when it did not and `ts` is within its span; `None` (the proxy log's stands) outside.
    pub fn outcome(&self, id: u64, ts: i64) -> Option<Fate> {
        match self.answers.get(&id) {
            Some(true) => Some(Fate::Succeeded),
            Some(false) => Some(Fate::Failed),
            None if self
                .span
                .is_some_and(|(first, last)| first <= ts && ts <= last) =>
            {
                Some(Fate::Failed)
            }
            None => None,
        }
    }
}

/// Response sizes of 2xx mutating requests (the `bytes` column): what a key store would save.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResponseBytes {
    pub rows: u64,
    pub total: u64,
}

impl ResponseBytes {
    /// Counts one response of `bytes`.
    pub fn record(&mut self, bytes: u64) {
        self.rows += 1;
        self.total = self.total.saturating_add(bytes);
    }

    fn add(&mut self, other: &ResponseBytes) {
        self.rows += other.rows;
        self.total = self.total.saturating_add(other.total);
    }

    /// The mean response size, when any was seen.
    pub fn mean(&self) -> Option<f64> {
        (self.rows > 0).then(|| self.total as f64 / self.rows as f64)
    }
}

/// The proxy's own retries of mutating attempts (Envoy's attempt count, Traefik's
/// `RetryAttempts`): how many attempts it read, how many it retried, the retries in all and
/// the most for one attempt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProxyRetries {
    pub attempts: u64,
    pub retried: u64,
    pub retries: u64,
    pub max: u64,
}

impl ProxyRetries {
    /// Counts one attempt the proxy retried `retries` times.
    pub fn record(&mut self, retries: u64) {
        self.attempts += 1;
        self.retried += u64::from(retries > 0);
        self.retries = self.retries.saturating_add(retries);
        self.max = self.max.max(retries);
    }

    fn add(&mut self, other: &ProxyRetries) {
        self.attempts += other.attempts;
        self.retried += other.retried;
        self.retries = self.retries.saturating_add(other.retries);
        self.max = self.max.max(other.max);
    }
}

/// One endpoint (method and route template) and its counts. (`EndpointMap` keeps the counts
/// and the names apart: a row touches only the counts.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub counts: Counts,
    /// Intents whose first attempt was on this endpoint (keyed and unkeyed).
    pub intents: u64,
    /// Mutating attempts that carried an idempotency key.
    pub keyed_attempts: u64,
    pub method: String,
    pub route: String,
}

/// How one mutating attempt is grouped into an intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentBy {
    /// It is an intent of its own (no key, no fingerprint).
    Own,
    /// By the hash of its idempotency key (scoped by endpoint), with whether it executed.
    Key(u64, KeyedAttempt),
    /// By the hash of its fingerprint (client, user agent, method, path with query, request
    /// length), with what the retry rule needs.
    Fingerprint(u64, FingerprintAttempt),
}

/// How many intents had 1, 2, 3... attempts: small counts in an array, the rare rest in a map.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttemptsHistogram {
    small: [u64; 16],
    large: BTreeMap<u32, u64>,
}

impl AttemptsHistogram {
    /// Counts `intents` more intents of `attempts` attempts each.
    #[inline]
    pub fn record(&mut self, attempts: u32, intents: u64) {
        match self.small.get_mut(attempts as usize) {
            Some(n) => *n += intents,
            None => *self.large.entry(attempts).or_default() += intents,
        }
    }

    fn add(&mut self, other: &AttemptsHistogram) {
        for (a, n) in other.iter() {
            self.record(a, n);
        }
    }

    /// `(attempts, intents)` for every count of attempts seen, fewest attempts first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let small = self.small.iter().enumerate();
        small
            .filter(|(_, n)| **n > 0)
            .map(|(a, n)| (a as u32, *n))
            .chain(self.large.iter().map(|(a, n)| (*a, *n)))
    }
}

/// What the grouped intents (by key or fingerprint) showed of duplicates that happened
/// (issues 13 and 24).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Duplicates {
    /// Intents with two or more attempts known to have executed.
    pub count: u64,
    /// Of those, the ones a timed-out attempt's backend 2xx (upstream status) showed.
    pub upstream_2xx: u64,
    /// Of those, the ones the backend's own log (`--outcomes`) showed (a timed-out attempt it
    /// answered 2xx), when the upstream status did not.
    pub outcomes: u64,
    /// Retried intents whose later attempt was answered 409 or 422: an earlier attempt
    /// executed, and a uniqueness check refused the duplicate (not in `count`).
    pub conflict_409_422: u64,
}

impl Duplicates {
    fn add(&mut self, o: &Duplicates) {
        self.count += o.count;
        self.upstream_2xx += o.upstream_2xx;
        self.outcomes += o.outcomes;
        self.conflict_409_422 += o.conflict_409_422;
    }
}

/// Keyed intents that executed more than once, as the server's own log shows them (a 2xx
/// per execution): a webhook receiver's deliveries processed twice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct KeyedExecutions {
    /// Intents with two or more attempts answered 2xx.
    pub intents: u64,
    /// Executions past each intent's first: the duplicates.
    pub extra: u64,
}

/// Fingerprints treated as shared addresses (`--shared-address-rate`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shared {
    /// Fingerprints that sent more than the rate's attempts in one minute (counted again if
    /// one comes back after it was retired).
    pub fingerprints: u64,
    /// Their attempts from then on, each an intent of its own.
    pub attempts: u64,
}

/// Attempts per keyed intent, over finished intents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyedStats {
    pub intents: u64,
    pub attempts: u64,
    pub max_attempts: u32,
    /// Intents with a timed-out attempt: the evidence of the clients' retries (a client
    /// retries only after a timeout).
    pub timed_out_intents: u64,
}

impl KeyedStats {
    /// Counts `n` intents of `attempts` attempts each, timed out or not.
    #[inline]
    fn add_intents(&mut self, n: u64, attempts: u32, timed_out: bool) {
        self.intents += n;
        self.timed_out_intents += if timed_out { n } else { 0 };
        self.attempts += n * u64::from(attempts);
        self.max_attempts = self.max_attempts.max(attempts);
    }

    fn add(&mut self, o: &KeyedStats) {
        self.intents += o.intents;
        self.attempts += o.attempts;
        self.max_attempts = self.max_attempts.max(o.max_attempts);
        self.timed_out_intents += o.timed_out_intents;
    }
}

/// Everything the derivation needs from a log, or from a piece of one. See the module docs.
#[derive(Debug, Clone)]
pub struct Tally {
    window: i64,
    grace: i64,
    /// How far the clock moves between looks at the open intents: `W`, or less for a
    /// follower ([`Tally::following`]).
    sweep_every: i64,
    /// `--shared-address-rate`: a fingerprint with more attempts in one minute is shared.
    shared_rate: u8,
    /// Data rows read (good, bad and filtered out).
    pub rows: u64,
    /// Rows that could not be used.
    pub bad_rows: u64,
    /// Good rows outside `--since`/`--until`.
    pub out_of_range: u64,
    /// Mutating rows left out by `--path`.
    pub path_filtered: u64,
    /// Mutating attempts within the filters.
    pub counts: Counts,
    /// Mutating attempts without an idempotency key: each is its own intent.
    pub unkeyed_intents: u64,
    /// Finished keyed intents.
    pub keyed: KeyedStats,
    /// Finished intents grouped by fingerprint.
    pub fingerprinted: KeyedStats,
    /// Mutating attempts that carried an idempotency key.
    pub keyed_attempts: u64,
    /// Attempts per finished keyed or fingerprinted intent (the unkeyed ones have 1 each).
    pub attempts_per_intent: AttemptsHistogram,
    /// Duplicates seen among the fingerprinted intents.
    pub duplicates: Duplicates,
    /// Keyed intents executed more than once (the server's own log).
    pub keyed_executions: KeyedExecutions,
    /// Fingerprints left out of retry grouping as shared addresses.
    pub shared: Shared,
    /// Earliest and latest timestamp of the good rows in range (µs).
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
    /// Per UTC day (days since the epoch).
    pub per_day: BTreeMap<i64, Counts>,
    /// Per endpoint, by hash of method and route template.
    pub endpoints: EndpointMap,
    /// Examples of bad rows, in file order.
    pub bad_samples: Vec<BadRow>,
    /// Lines that are not access lines, by (stream, kind): "stderr " or "", "nginx error log".
    pub skipped: BTreeMap<(&'static str, &'static str), u64>,
    /// Timed-out attempts with a request id, in file order: kept only for `--outcomes`.
    pub timed_out_ids: Vec<TimedOut>,
    /// Timed-out attempts that had no request id to join (only counted for `--outcomes`).
    pub timed_out_without_id: u64,
    /// The most a good row's timestamp was behind the latest before it (µs; 0 when the
    /// clock never ran backwards). Mergeable: see [`Tally::merge`].
    pub most_backwards: i64,
    /// Response sizes of 2xx mutating attempts, when the log has a `bytes` column.
    pub response_bytes: ResponseBytes,
    /// The proxy's own retries, when the log has a proxy-attempts column.
    pub proxy_retries: ProxyRetries,
    /// The same, by endpoint (the key of [`Tally::endpoints`]).
    pub proxy_retries_by_endpoint: BTreeMap<u64, ProxyRetries>,
    /// Timestamp of this piece's first good row (µs).
    start_ts: Option<i64>,
    /// Heads are kept for a merge with a previous piece (not when nothing comes before).
    keeps_heads: bool,
    watermark: i64,
    /// The clock's reading at which open intents are next looked at.
    next_sweep: i64,
    open: IntentTable,
    heads: IdMap<Intent>,
    /// Keyed attempts whose open intent is looked up [`PIPELINE`] attempts later, once its
    /// slot has been prefetched: `(key, timestamp, endpoint, attempt)`, in file order.
    queued: VecDeque<(u64, i64, u64, KeyedAttempt)>,
    /// Fingerprinted attempts, queued the same way: `(fingerprint, endpoint, attempt)`.
    queued_fingerprints: VecDeque<(u64, u64, FingerprintAttempt)>,
    /// Which of the file's line formats read which lines (one file, several shapes).
    pub formats: FormatsUsed,
}

/// Looks at the open intents a window of a follower's tally ([`Tally::following`]).
pub const SWEEPS_PER_WINDOW: i64 = 16;

/// The default `--shared-address-rate`: attempts of one fingerprint in a minute.
pub const DEFAULT_SHARED_RATE: u8 = 30;

impl PartialEq for Tally {
    /// Equal totals, per-day and per-endpoint figures, intents and boundary state (the examples
    /// of bad rows are left out: their line numbers depend on where a piece starts).
    fn eq(&self, o: &Tally) -> bool {
        self.rows == o.rows
            && self.bad_rows == o.bad_rows
            && self.out_of_range == o.out_of_range
            && self.path_filtered == o.path_filtered
            && self.skipped == o.skipped
            && self.counts == o.counts
            && self.unkeyed_intents == o.unkeyed_intents
            && self.keyed == o.keyed
            && self.fingerprinted == o.fingerprinted
            && self.keyed_attempts == o.keyed_attempts
            && self.attempts_per_intent == o.attempts_per_intent
            && self.duplicates == o.duplicates
            && self.shared == o.shared
            && self.queued_fingerprints == o.queued_fingerprints
            && self.first_ts == o.first_ts
            && self.last_ts == o.last_ts
            && self.per_day == o.per_day
            && self.response_bytes == o.response_bytes
            && self.proxy_retries == o.proxy_retries
            && self.proxy_retries_by_endpoint == o.proxy_retries_by_endpoint
            && self.endpoints == o.endpoints
            && self.open == o.open
            && self.heads == o.heads
            && self.queued == o.queued
            && self.timed_out_ids == o.timed_out_ids
            && self.timed_out_without_id == o.timed_out_without_id
            && self.most_backwards == o.most_backwards
    }
}

impl Tally {
    /// An empty tally with a retry window of `window_micros`.
    pub fn new(window_micros: i64) -> Tally {
        let window = window_micros.max(0);
        Tally {
            window,
            grace: window / 4,
            sweep_every: window,
            shared_rate: DEFAULT_SHARED_RATE,
            rows: 0,
            bad_rows: 0,
            out_of_range: 0,
            path_filtered: 0,
            counts: Counts::default(),
            unkeyed_intents: 0,
            keyed: KeyedStats::default(),
            fingerprinted: KeyedStats::default(),
            keyed_attempts: 0,
            attempts_per_intent: AttemptsHistogram::default(),
            duplicates: Duplicates::default(),
            keyed_executions: KeyedExecutions::default(),
            shared: Shared::default(),
            first_ts: None,
            last_ts: None,
            per_day: BTreeMap::new(),
            endpoints: EndpointMap::default(),
            bad_samples: Vec::new(),
            skipped: BTreeMap::new(),
            timed_out_ids: Vec::new(),
            timed_out_without_id: 0,
            most_backwards: 0,
            response_bytes: ResponseBytes::default(),
            proxy_retries: ProxyRetries::default(),
            proxy_retries_by_endpoint: BTreeMap::new(),
            start_ts: None,
            keeps_heads: true,
            watermark: i64::MIN,
            next_sweep: i64::MIN,
            open: IntentTable::default(),
            heads: IdMap::default(),
            queued: VecDeque::with_capacity(PIPELINE),
            queued_fingerprints: VecDeque::new(),
            formats: FormatsUsed::default(),
        }
    }

    /// Sets `--shared-address-rate`: attempts of one fingerprint in a minute above which it is
    /// a shared address.
    pub fn with_shared_rate(mut self, rate: u8) -> Tally {
        self.shared_rate = rate;
        self
    }

    /// A tally that looks at its open intents `SWEEPS_PER_WINDOW` times a window rather than
    /// once: a follower runs for days, and its memory is the intents it holds, `W + G + W / 16`
    /// of them at most instead of `2.25 W`, for more reading of the table (each look reads
    /// all of it).
    pub fn following(mut self) -> Tally {
        self.sweep_every = (self.window / SWEEPS_PER_WINDOW).max(1);
        self.open = IntentTable::compact();
        self
    }

    /// Sets the time between looks at the open intents to that of `other`.
    pub fn sweeping_as(mut self, other: &Tally) -> Tally {
        if other.open.is_compact() {
            self = self.following();
        }
        self
    }

    /// A tally of the first piece of the only input: no piece will be merged before it, so
    /// its first intents are counted as they end instead of being kept as heads, which would
    /// hold the intents of the first `1.25 W` of traffic in memory to the end.
    pub fn without_predecessor(mut self) -> Tally {
        self.keeps_heads = false;
        self
    }

    /// All intents, counted so far (after [`Tally::finish`], all of them).
    pub fn intents(&self) -> u64 {
        self.keyed.intents + self.fingerprinted.intents + self.unkeyed_intents
    }

    /// Intents not yet counted (boundary state), for tests and memory checks.
    pub fn pending_intents(&mut self) -> usize {
        self.settle_queued();
        self.open.len() + self.heads.len()
    }

    /// Records a row that could not be used.
    pub fn bad(&mut self, row: impl FnOnce() -> BadRow) {
        self.rows += 1;
        self.bad_rows += 1;
        if self.bad_samples.len() < BAD_ROW_SAMPLES {
            self.bad_samples.push(row());
        }
    }

    /// Records a good row at `ts` (µs; 0 when the log has no timestamps), before filters on
    /// method and path. Advances the clock and retires intents that can no longer continue.
    #[inline]
    pub fn row_at(&mut self, ts: i64) {
        self.rows += 1;
        self.first_ts = Some(self.first_ts.map_or(ts, |f| f.min(ts)));
        self.last_ts = Some(self.last_ts.map_or(ts, |l| l.max(ts)));
        if self.start_ts.is_none() {
            self.start_ts = Some(ts);
        }
        if ts > self.watermark {
            self.watermark = ts;
            // A sweep reads every slot: it waits until the table is half full, so a table
            // sized for the busiest hours is not read through every `W` of the quiet ones.
            if ts >= self.next_sweep && self.open.half_full() {
                self.sweep();
            }
        } else {
            self.most_backwards = self.most_backwards.max(self.watermark - ts);
        }
    }

    /// Records a timed-out attempt for the join with the backend's log: `id` is the hash of
    /// its request id, if it had one.
    #[cold]
    pub fn timed_out_id(&mut self, id: Option<u64>, ts: i64, endpoint: u64, outcome: Fate) {
        match id {
            Some(id) => self.timed_out_ids.push(TimedOut {
                id,
                ts,
                endpoint: self.endpoint_slot(endpoint),
                outcome,
            }),
            None => self.timed_out_without_id += 1,
        }
    }

    /// Asks the CPU to bring `endpoint`'s counts into the cache, ahead of the
    /// [`Tally::attempt`] that reads them: with thousands of endpoints, they are a miss.
    #[inline]
    pub fn prefetch_endpoint(&self, endpoint: u64) {
        self.endpoints.prefetch(endpoint);
    }

    /// The endpoint an attempt on `endpoint` is counted under (the cap folds new ones).
    fn endpoint_slot(&self, endpoint: u64) -> u64 {
        if self.endpoints.len() >= MAX_ENDPOINTS && !self.endpoints.contains_key(&endpoint) {
            OTHER_ROUTES
        } else {
            endpoint
        }
    }

    /// Records a mutating attempt (after [`Tally::row_at`]) on the endpoint with hash
    /// `endpoint`, whose method and route `names()` gives when it is new, grouped into an
    /// intent `by` its key, its fingerprint, or as one of its own.
    #[inline]
    pub fn attempt(
        &mut self,
        ts: i64,
        (endpoint, names): (u64, impl FnOnce() -> (String, String)),
        by: IntentBy,
        timed_out: bool,
        outcome: Fate,
    ) {
        self.counts.record(timed_out, outcome);
        let day = ts.div_euclid(super::timestamp::MICROS_PER_DAY);
        match self.per_day.last_entry() {
            Some(mut last) if *last.key() == day => last.get_mut().record(timed_out, outcome),
            _ => self
                .per_day
                .entry(day)
                .or_default()
                .record(timed_out, outcome),
        }
        // Past the cap, new routes share one endpoint: memory stays bounded on logs whose
        // paths are all different (slugs the templating does not recognise).
        let endpoint = self.endpoint_slot(endpoint);
        let ep = self.endpoints.get_or_insert_with(endpoint, || {
            let (method, route) = if endpoint == OTHER_ROUTES {
                ("*".to_string(), "(other routes)".to_string())
            } else {
                names()
            };
            Endpoint {
                method,
                route,
                counts: Counts::default(),
                intents: 0,
                keyed_attempts: 0,
            }
        });
        ep.counts.record(timed_out, outcome);
        // Every attempt counts as its endpoint's intent now, while its counts are in the cache;
        // the few that turn out to continue an intent take theirs back
        // ([`Tally::continued_on`]), so retiring an intent need not look its endpoint up.
        ep.intents += 1;
        let (key, keyed) = match by {
            IntentBy::Key(key, a) => {
                ep.keyed_attempts += 1;
                self.keyed_attempts += 1;
                (key, a)
            }
            IntentBy::Own => {
                self.unkeyed_intents += 1;
                return;
            }
            IntentBy::Fingerprint(fingerprint, a) => {
                self.open.prefetch(fingerprint);
                if self.queued_fingerprints.len() == PIPELINE {
                    let (f, endpoint, a) = self.queued_fingerprints.pop_front().expect("full");
                    self.continue_fingerprint(f, endpoint, a);
                }
                self.queued_fingerprints
                    .push_back((fingerprint, endpoint, a));
                return;
            }
        };
        // The key's slot is fetched into the cache now and used a few rows later, when the
        // parsing of those rows has hidden the memory's latency.
        self.open.prefetch(key);
        if self.queued.len() == PIPELINE {
            let (key, ts, endpoint, a) = self.queued.pop_front().expect("the queue is full");
            self.continue_intent(key, ts, endpoint, a);
        }
        self.queued.push_back((key, ts, endpoint, keyed));
    }

    /// Looks up every queued attempt: before the open intents are read or swept.
    pub fn settle_queued(&mut self) {
        while let Some((key, ts, endpoint, a)) = self.queued.pop_front() {
            self.continue_intent(key, ts, endpoint, a);
        }
        while let Some((f, endpoint, a)) = self.queued_fingerprints.pop_front() {
            self.continue_fingerprint(f, endpoint, a);
        }
    }

    /// A fingerprinted attempt retries its fingerprint's open intent, or starts a new one.
    fn continue_fingerprint(&mut self, f: u64, endpoint: u64, a: FingerprintAttempt) {
        let window = self.window as u64;
        match self
            .open
            .touch_fingerprint(f, endpoint, &a, window, self.shared_rate)
        {
            FingerprintTouch::Continued => self.continued_on(endpoint),
            FingerprintTouch::New {
                ended,
                shared,
                newly_shared,
            } => {
                self.shared.fingerprints += u64::from(newly_shared);
                self.shared.attempts += u64::from(shared);
                self.retire(f, ended);
            }
            FingerprintTouch::Absent => {
                // A new fingerprint may be a head (first in this piece, near its start).
                let head =
                    self.keeps_heads && a.ts <= self.horizon() && !self.heads.contains_key(&f);
                let fresh = Intent {
                    last_ts: a.ts,
                    first_ts: if head { a.ts } else { NO_FIRST_TS },
                    attempts: 1,
                    endpoint,
                    head,
                    facts: a.first_facts(),
                    executed: u8::from(a.executed),
                    per_minute: 1,
                };
                self.open.insert(f, fresh);
            }
        }
    }

    /// A keyed attempt continues its key's open intent, or starts a new one.
    fn continue_intent(&mut self, key: u64, ts: i64, endpoint: u64, a: KeyedAttempt) {
        let touched = self.open.touch(key, ts, self.window as u64, a);
        let head = match touched {
            Touch::Continued => return self.continued_on(endpoint),
            // Too long after the key's last attempt: a new intent, not its key's first.
            Touch::Stale(_) => false,
            // A new key may be a head (first in this piece, near its start).
            Touch::Absent(_) => {
                self.keeps_heads && ts <= self.horizon() && !self.heads.contains_key(&key)
            }
        };
        let fresh = Intent {
            last_ts: ts,
            first_ts: if head { ts } else { NO_FIRST_TS },
            attempts: 1,
            endpoint,
            head,
            facts: Facts::RETRYABLE | a.facts,
            executed: u8::from(a.executed),
            per_minute: 0,
        };
        if let Some(old) = self.open.insert_touched(touched, key, fresh) {
            self.retire(key, old);
        }
    }

    /// An attempt on `endpoint` continued an intent: it is not an intent of its endpoint, as
    /// [`Tally::attempt`] counted it.
    fn continued_on(&mut self, endpoint: u64) {
        if let Some(ep) = self.endpoints.get_mut(&endpoint) {
            ep.intents -= 1;
        }
    }

    /// Heads are intents that start before this time (µs).
    fn horizon(&self) -> i64 {
        self.start_ts
            .unwrap_or(i64::MIN)
            .saturating_add(self.window)
            .saturating_add(self.grace)
    }

    /// An intent that will get no more attempts: a head waits for the merge, others count.
    fn retire(&mut self, key: u64, it: Intent) {
        if it.head {
            self.heads.entry(key).or_insert(it);
        } else {
            self.count(it);
        }
    }

    fn count(&mut self, it: Intent) {
        let d = &mut self.duplicates;
        if it.executed >= 2 {
            d.count += 1;
            if it.facts & Facts::UPSTREAM_2XX != 0 {
                d.upstream_2xx += 1;
            } else if it.facts & Facts::BACKEND_2XX != 0 {
                d.outcomes += 1;
            }
        }
        d.conflict_409_422 += u64::from(it.facts & Facts::LATER_CONFLICT != 0);
        let stats = if it.facts & Facts::FINGERPRINT != 0 {
            &mut self.fingerprinted
        } else {
            // Executions per keyed intent; reported as seen only on the server's own log
            // (`processed_twice`), where a 2xx is the work done.
            if it.executed >= 2 {
                self.keyed_executions.intents += 1;
                self.keyed_executions.extra += u64::from(it.executed) - 1;
            }
            &mut self.keyed
        };
        let timed_out = it.facts & Facts::TIMED_OUT != 0;
        stats.add_intents(1, it.attempts, timed_out);
        self.attempts_per_intent.record(it.attempts, 1);
    }

    /// Retires the open intents whose last row is more than `W + G` behind the clock, and
    /// sets the next look at `I` later (if the table is half full by then): a scan of the
    /// table in slot order, cheaper than a queue of attempts whose every entry costs a random
    /// lookup. Looks `I` apart read a table of the intents of `W + G + I` for the intents of
    /// `I`: at `I = W` that is 2.25 slots' worth a row where `W / 2` read 3.5 (measured: 3.4%
    /// less CPU on the benchmark log, for at most 2.25 W of intents held instead of 1.75 W).
    /// A follower trades the other way ([`Tally::following`]: `I = W / 16`, 21 slots a row,
    /// 1.3 W held).
    fn sweep(&mut self) {
        let limit = self
            .watermark
            .saturating_sub(self.window)
            .saturating_sub(self.grace);
        self.next_sweep = self.watermark.saturating_add(self.sweep_every.max(1));
        self.settle_queued();
        // Nearly every intent retired has one attempt and is no head: those are counted in
        // bulk ([`Tally::count_singles`]), without a trip through [`Tally::retire`] each.
        let mut singles = [[0u64; 2]; 2];
        let mut done = Vec::new();
        self.open
            .retain_from(limit, &mut singles, |k, it| done.push((k, it)));
        for (fingerprint, counts) in singles.into_iter().enumerate() {
            for (timed_out, n) in counts.into_iter().enumerate() {
                self.count_singles(fingerprint == 1, timed_out == 1, n);
            }
        }
        for (k, it) in done {
            self.retire(k, it);
        }
    }

    /// [`Tally::count`] of `n` intents of one attempt each (grouped by fingerprint or by key,
    /// timed out or not): one attempt has no duplicate, no later conflict and one execution at
    /// most, so only the grouping's totals and the histogram move.
    fn count_singles(&mut self, fingerprint: bool, timed_out: bool, n: u64) {
        if n == 0 {
            return;
        }
        let stats = if fingerprint {
            &mut self.fingerprinted
        } else {
            &mut self.keyed
        };
        stats.add_intents(n, 1, timed_out);
        self.attempts_per_intent.record(1, n);
    }

    /// Appends `next`, the tally of the piece that follows this one in the input.
    pub fn merge(&mut self, mut next: Tally) {
        self.settle_queued();
        next.settle_queued();
        self.rows += next.rows;
        self.bad_rows += next.bad_rows;
        self.out_of_range += next.out_of_range;
        self.path_filtered += next.path_filtered;
        for (kind, n) in &next.skipped {
            *self.skipped.entry(*kind).or_default() += n;
        }
        self.counts.add(&next.counts);
        self.response_bytes.add(&next.response_bytes);
        self.proxy_retries.add(&next.proxy_retries);
        for (endpoint, p) in &next.proxy_retries_by_endpoint {
            self.proxy_retries_by_endpoint
                .entry(*endpoint)
                .or_default()
                .add(p);
        }
        self.unkeyed_intents += next.unkeyed_intents;
        self.keyed.add(&next.keyed);
        self.fingerprinted.add(&next.fingerprinted);
        self.keyed_attempts += next.keyed_attempts;
        self.attempts_per_intent.add(&next.attempts_per_intent);
        self.duplicates.add(&next.duplicates);
        self.keyed_executions.intents += next.keyed_executions.intents;
        self.keyed_executions.extra += next.keyed_executions.extra;
        self.shared.fingerprints += next.shared.fingerprints;
        self.shared.attempts += next.shared.attempts;
        self.first_ts = min_opt(self.first_ts, next.first_ts);
        self.last_ts = max_opt(self.last_ts, next.last_ts);
        for (day, c) in &next.per_day {
            self.per_day.entry(*day).or_default().add(c);
        }
        for (hash, ep) in next.endpoints.drain() {
            match self.endpoints.get_mut(&hash) {
                Some(mine) => {
                    mine.counts.add(&ep.counts);
                    mine.intents += ep.intents;
                    mine.keyed_attempts += ep.keyed_attempts;
                }
                None => {
                    self.endpoints.insert(hash, ep);
                }
            }
        }
        self.timed_out_ids.append(&mut next.timed_out_ids);
        self.timed_out_without_id += next.timed_out_without_id;
        self.formats.merge(&next.formats);
        // The next piece's rows are behind this piece's latest row by at most
        // `watermark - (their earliest)`; behind their own latest, as the piece measured.
        self.most_backwards = self.most_backwards.max(next.most_backwards);
        if let Some(first) = next.first_ts {
            if self.watermark > first {
                self.most_backwards = self.most_backwards.max(self.watermark - first);
            }
        }
        let room = BAD_ROW_SAMPLES.saturating_sub(self.bad_samples.len());
        self.bad_samples
            .extend(next.bad_samples.drain(..).take(room));

        // Join the next piece's heads to this piece's open intents.
        let horizon = self.horizon();
        let had_start = self.start_ts.is_some();
        let heads: Vec<(u64, Intent, bool)> = next
            .heads
            .drain()
            .map(|(k, it)| (k, it, false))
            .chain(
                next.open
                    .iter()
                    .filter(|(_, it)| it.head)
                    .map(|(k, it)| (k, it, true)),
            )
            .collect();
        for (key, b, b_open) in heads {
            let it = match self.open.remove(key) {
                Some(a)
                    if b.first_ts.abs_diff(a.last_ts) <= self.window as u64 && retried(&a, &b) =>
                {
                    // Two intents become one, counted under `a`'s endpoint.
                    self.continued_on(b.endpoint);
                    Intent {
                        last_ts: b.last_ts,
                        first_ts: a.first_ts,
                        attempts: a.attempts.saturating_add(b.attempts),
                        endpoint: a.endpoint,
                        head: a.head,
                        facts: joined_facts(a.facts, b.facts),
                        executed: a.executed.saturating_add(b.executed),
                        per_minute: b.per_minute,
                    }
                }
                Some(a) => {
                    // The key had an earlier intent here: `b` is not its first any more.
                    self.retire(key, a);
                    Intent { head: false, ..b }
                }
                None => Intent {
                    head: self.keeps_heads
                        && (!had_start
                            || (b.first_ts <= horizon && !self.heads.contains_key(&key))),
                    ..b
                },
            };
            if b_open {
                next.open.insert(key, it);
            } else {
                self.retire(key, it);
            }
        }
        if !had_start {
            self.start_ts = next.start_ts;
        }
        self.watermark = self.watermark.max(next.watermark);
        // This piece's open intents that can no longer continue are retired first: after a
        // long next piece, that is all of them, and its open intents simply take their place.
        self.sweep();
        if self.open.len() == 0 {
            self.open = std::mem::take(&mut next.open);
            return;
        }
        // Intents still open after the next piece replace this piece's ones.
        self.open.reserve(next.open.len());
        for (key, it) in next.open.take_all() {
            if let Some(old) = self.open.insert(key, it) {
                self.retire(key, old);
            }
        }
    }

    /// The tally [`Tally::finish`] would give now, without ending this one: `logs --follow`
    /// reports on a log that goes on growing. The open intents and heads are counted into a
    /// copy of the totals (no copy of the intents table), so this costs one pass over it.
    pub fn snapshot(&mut self) -> Tally {
        self.settle_queued();
        let open = std::mem::take(&mut self.open);
        let heads = std::mem::take(&mut self.heads);
        let mut copy = self.clone();
        for it in open.iter().map(|(_, it)| it).chain(heads.values().copied()) {
            copy.count(it);
        }
        self.open = open;
        self.heads = heads;
        copy
    }

    /// Counts every intent still pending: the tally of a whole input.
    pub fn finish(mut self) -> Tally {
        self.settle_queued();
        let mut pending: Vec<Intent> = self.open.take_all().into_iter().map(|(_, it)| it).collect();
        pending.extend(self.heads.drain().map(|(_, it)| it));
        for it in pending {
            self.count(it);
        }
        self
    }
}

/// Whether `b`, the first intent of its key or fingerprint in a piece, continues `a`, the
/// open intent of the piece before (their attempts within the window, checked apart): always
/// for a key; for a fingerprint, when `a`'s last attempt failed and neither is shared.
fn retried(a: &Intent, b: &Intent) -> bool {
    a.facts & Facts::RETRYABLE != 0 && (a.facts | b.facts) & Facts::SHARED == 0
}

/// The facts of `a` continued by `b`: `b`'s last attempt says whether it may continue, and
/// `b`'s first attempt is a later one of the joined intent.
fn joined_facts(a: u8, b: u8) -> u8 {
    let seen = Facts::UPSTREAM_2XX | Facts::BACKEND_2XX | Facts::TIMED_OUT;
    let kept = Facts::FINGERPRINT | Facts::FIRST_CONFLICT | seen;
    let later = Facts::RETRYABLE | Facts::SHARED | Facts::LATER_CONFLICT | seen;
    let b_first = if b & Facts::FIRST_CONFLICT != 0 {
        Facts::LATER_CONFLICT
    } else {
        0
    };
    (a & (kept | Facts::LATER_CONFLICT)) | (b & later) | b_first
}

fn min_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn max_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000_000;

    /// Three hours of one attempt a second, two attempts per key.
    fn feed(mut t: Tally) -> Tally {
        for i in 0..3 * 3_600i64 {
            let ts = i * 1_000_000;
            t.row_at(ts);
            let names = || ("POST".to_string(), "/v1/orders".to_string());
            let key = IntentBy::Key((i / 2) as u64, KeyedAttempt::default());
            t.attempt(ts, (7, names), key, false, Fate::Failed);
        }
        t
    }

    /// Counting single-attempt intents in bulk is counting each: every kind of intent of one
    /// attempt (keyed or fingerprinted, timed out or not, with any other facts).
    #[test]
    fn singles_in_bulk_are_counted_as_each() {
        for facts in 0..=u8::MAX {
            let it = Intent {
                last_ts: 5,
                first_ts: NO_FIRST_TS,
                attempts: 1,
                endpoint: 7,
                head: false,
                facts: facts & !Facts::LATER_CONFLICT,
                executed: facts & 1,
                per_minute: 1,
            };
            let (mut each, mut bulk) = (Tally::new(HOUR), Tally::new(HOUR));
            each.count(it);
            each.count(it);
            let fingerprint = it.facts & Facts::FINGERPRINT != 0;
            bulk.count_singles(fingerprint, it.facts & Facts::TIMED_OUT != 0, 2);
            assert_eq!(each, bulk, "facts {facts:#010b}");
        }
    }

    /// A shared fingerprint (more than the rate's attempts in a minute) that is quiet for more
    /// than the window starts afresh, whether or not a sweep retired it: 1.1 W later (before
    /// any sweep could), a failed attempt and its retry are one intent of two attempts.
    #[test]
    fn a_quiet_shared_fingerprint_starts_afresh() {
        let mut t = Tally::new(HOUR).with_shared_rate(3).without_predecessor();
        let at = |t: &mut Tally, ts: i64, status: u16| {
            t.row_at(ts);
            let names = || ("POST".to_string(), "/v1/orders".to_string());
            let timed_out = status == 504;
            let a = FingerprintAttempt::new(ts, status, timed_out, false, false);
            t.attempt(
                ts,
                (7, names),
                IntentBy::Fingerprint(42, a),
                timed_out,
                Fate::Unknown,
            );
        };
        for i in 0..5 {
            at(&mut t, i * 1_000_000, 504);
        }
        let later = 4_000_000 + HOUR + HOUR / 10;
        at(&mut t, later, 504);
        at(&mut t, later + 1_000_000, 201);
        let t = t.finish();
        assert_eq!(t.shared.fingerprints, 1);
        assert_eq!(t.shared.attempts, 2, "the 4th and 5th attempts");
        let per_intent: Vec<(u32, u64)> = t.attempts_per_intent.iter().collect();
        // 1-3 grouped, 4 and 5 each alone, then the retry joined to its attempt.
        assert_eq!(per_intent, vec![(1, 2), (2, 1), (3, 1)]);
    }

    /// The first piece of the only input counts its first intents as they end instead of
    /// holding them to the end as heads, and finishes with the same figures.
    #[test]
    fn without_predecessor_holds_no_heads() {
        let mut kept = feed(Tally::new(HOUR));
        let mut alone = feed(Tally::new(HOUR).without_predecessor());
        assert_eq!(alone.heads.len(), 0);
        assert!(!kept.heads.is_empty());
        assert!(alone.pending_intents() < kept.pending_intents());
        let (kept, alone) = (kept.finish(), alone.finish());
        assert_eq!(kept.keyed, alone.keyed);
        assert_eq!(alone.keyed.intents, 3 * 3_600 / 2);
        assert_eq!(alone.keyed.max_attempts, 2);
    }
}
