//! The open intents of a [`Tally`](super::Tally): a table from 64-bit key hashes to intents,
//! built for the scanner's hot loop and for the memory of a long `--follow`.
//!
//! Why not a `HashMap`: nearly every mutating row of a log is a new intent, so the table is
//! probed at a random place per row and the probe misses the cache. A `HashMap` (hashbrown)
//! keeps its control bytes apart from its entries: two misses per new key. Here a slot holds
//! its key and intent together (open addressing with linear probing), so a probe costs one
//! miss, and a key's slot is known from the key alone, so the tally prefetches it a few rows
//! before it is needed (see `Tally::attempt`) to hide that miss. (In part: on the benchmark
//! log, a table small enough to stay in cache still costs about 15% less CPU.) Retiring old
//! intents ([`IntentTable::retain_from`]) is one sequential pass over the slots, in place.
//!
//! Why 16 bytes a slot: a follower holds the intents of more than the retry window (millions
//! at a busy service), and its memory is that table. A slot is the full 64-bit key hash (no
//! more collisions than the key's hash itself has) and one word packing the intent as nearly
//! every intent is: its last attempt's time as microseconds since the table's base (40 bits,
//! 12.7 days), up to 63 attempts, 15 executions, 31 attempts a minute, its facts and whether it
//! is a head. A head also keeps its first attempt's time and its endpoint, which never change:
//! they go in a side map of their own, and the head is packed like any other intent (in a
//! dense log read on two threads nearly every intent of the second piece is a head). An intent
//! that does not fit (more attempts; a time out of range) is *spilled*: kept whole in a side
//! map, its slot marked, so the table gives back exactly what was put in. The slots need not be a power of two in
//! number (a key's home slot is `key * slots >> 64`), so the table grows by an eighth once
//! large, not by doubling, and it gives the old slots' memory back as it moves them.

use super::id_map::IdMap;

/// An intent not yet counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Intent {
    /// Timestamp of the last row so far, in file order (µs).
    pub last_ts: i64,
    /// Timestamp of the first row (µs). Only a head's is needed (to join it to the previous
    /// piece), so only heads keep theirs in the table: others read back as [`NO_FIRST_TS`].
    pub first_ts: i64,
    /// Attempts so far; never 0 (0 marks an empty slot).
    pub attempts: u32,
    /// Only a head's is kept in the table (see [`NO_ENDPOINT`]).
    pub endpoint: u64,
    /// The first intent of its key in this piece, near the piece's start: it may continue an
    /// intent of the previous piece.
    pub head: bool,
    /// [`Facts`] bits: whether a next attempt may continue it, and what its attempts showed.
    pub facts: u8,
    /// Attempts known to have executed at the backend.
    pub executed: u8,
    /// Attempts of its fingerprint in the minute of `last_ts` (fingerprinted intents only).
    pub per_minute: u8,
}

/// Bits of [`Intent::facts`].
pub(super) struct Facts;

impl Facts {
    /// A next attempt within the window continues the intent: always for a key; for a
    /// fingerprint, when its last attempt timed out or failed with 5xx or 0.
    pub const RETRYABLE: u8 = 1;
    /// Grouped by fingerprint, not by key.
    pub const FINGERPRINT: u8 = 2;
    /// Its fingerprint sent more than `--shared-address-rate` attempts in a minute: each of
    /// its attempts is an intent of its own.
    pub const SHARED: u8 = 4;
    /// A timed-out attempt the backend answered 2xx (upstream status).
    pub const UPSTREAM_2XX: u8 = 8;
    /// The intent's first attempt was answered 409 or 422.
    pub const FIRST_CONFLICT: u8 = 16;
    /// A later attempt was answered 409 or 422: an earlier one executed.
    pub const LATER_CONFLICT: u8 = 32;
    /// An attempt timed out: the intent is evidence of the client's retry behaviour.
    pub const TIMED_OUT: u8 = 64;
    /// A timed-out attempt the backend's own log (`--outcomes`) showed answered 2xx.
    pub const BACKEND_2XX: u8 = 128;
}

/// The `first_ts` of an intent that is not a head, as the table gives it back.
pub(super) const NO_FIRST_TS: i64 = i64::MIN;

/// The `endpoint` of an intent that is not a head, as the table gives it back: only a head's
/// is ever read (when a merge joins it to the previous piece's intent).
pub(super) const NO_ENDPOINT: u64 = 0;

/// A key hash and its intent packed in one word ([`Packed`]); a word of 0 is an empty slot.
/// Two `u64`s rather than a struct, so that a new table is zeroed memory the kernel hands out
/// as it is first touched.
type Slot = [u64; 2];
const KEY: usize = 0;
const WORD: usize = 1;

/// The layout of a slot's word, lowest bits first.
struct Packed;

impl Packed {
    /// Attempts, 1 to 63 (0 is an empty slot).
    const ATTEMPTS: u64 = 0x3f;
    const MAX_ATTEMPTS: u32 = 0x3f;
    const FACTS_SHIFT: u32 = 6;
    const EXECUTED_SHIFT: u32 = 14;
    const MAX_EXECUTED: u8 = 0xf;
    const PER_MINUTE_SHIFT: u32 = 18;
    const MAX_PER_MINUTE: u8 = 0x1f;
    /// Alone (no attempts): the intent is in [`IntentTable::spilled`]. With attempts: the
    /// intent is a head, its first time and endpoint in [`IntentTable::heads`].
    const SPILLED: u64 = 1 << 23;
    const HEAD: u64 = 1 << 23;
    /// The last attempt's time: microseconds since [`IntentTable::base`].
    const TS_SHIFT: u32 = 24;
    const TS_RANGE: u64 = 1 << 40;
    /// A new base is this far before the times it must hold, so that rows somewhat out of
    /// order still fit (38 hours).
    const BACK: i64 = 1 << 37;
}

const MIN_SLOTS: usize = 16;

/// Up to this many slots the table doubles as it grows; past it, it grows by an eighth, so
/// that a large table is never much larger than its intents need.
const DOUBLING_SLOTS: usize = 1 << 20;

/// Old slots moved at a time when growing a large table, the moved ones given back to the
/// system after each step.
const MOVE_STEP: usize = 1 << 18;

/// What one keyed attempt adds to its intent: whether it is known to have executed, and
/// its [`Facts`] ([`Facts::TIMED_OUT`], [`Facts::UPSTREAM_2XX`], [`Facts::BACKEND_2XX`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyedAttempt {
    pub executed: bool,
    pub facts: u8,
}

impl KeyedAttempt {
    /// The facts a keyed attempt may carry (a keyed intent is always retryable, and its
    /// conflicts are not looked at).
    pub const FACTS: u8 = Facts::TIMED_OUT | Facts::UPSTREAM_2XX | Facts::BACKEND_2XX;
}

/// What [`IntentTable::touch`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Touch {
    /// The key's intent was within the window: it has one more attempt.
    Continued,
    /// The key's intent ended more than the window before; it is in this slot.
    Stale(usize),
    /// No intent of that key; this empty slot is where it would go.
    Absent(usize),
}

/// One fingerprinted attempt, as [`IntentTable::touch_fingerprint`] needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FingerprintAttempt {
    pub ts: i64,
    /// Timed out, or failed with 5xx or 0: the client may send it again.
    pub failed: bool,
    /// Known to have executed: answered 2xx, or timed out with a backend 2xx.
    pub executed: bool,
    /// [`Facts::UPSTREAM_2XX`] (or [`Facts::BACKEND_2XX`]), [`Facts::FIRST_CONFLICT`] and
    /// [`Facts::TIMED_OUT`] as this attempt shows them.
    pub facts: u8,
}

impl FingerprintAttempt {
    /// An attempt at `ts` answered `status` to the client; `executed` when it is known to have
    /// executed (2xx, or timed out with a backend 2xx); `backend` when the backend's own log
    /// (`--outcomes`) told a timed-out attempt's outcome.
    pub fn new(
        ts: i64,
        status: u16,
        timed_out: bool,
        executed: bool,
        backend: bool,
    ) -> FingerprintAttempt {
        let upstream = match (timed_out && executed, backend) {
            (false, _) => 0,
            (true, false) => Facts::UPSTREAM_2XX,
            (true, true) => Facts::BACKEND_2XX,
        } | if timed_out { Facts::TIMED_OUT } else { 0 };
        let conflict = if matches!(status, 409 | 422) {
            Facts::FIRST_CONFLICT
        } else {
            0
        };
        FingerprintAttempt {
            ts,
            failed: timed_out || status == 0 || status >= 500,
            executed,
            facts: upstream | conflict,
        }
    }

    /// The facts of an intent this attempt starts.
    pub fn first_facts(&self) -> u8 {
        let retryable = if self.failed { Facts::RETRYABLE } else { 0 };
        Facts::FINGERPRINT | retryable | self.facts
    }
}

/// What [`IntentTable::touch_fingerprint`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FingerprintTouch {
    /// A retry: the intent has one more attempt.
    Continued,
    /// The fingerprint's intent cannot continue (its last attempt did not fail, or ended more
    /// than the window before, or the fingerprint is shared): a new intent took its slot (not
    /// a head), carrying the fingerprint's attempts this minute and whether it is shared;
    /// `ended` is the old intent, `newly_shared` when this attempt made it shared.
    New {
        ended: Intent,
        shared: bool,
        newly_shared: bool,
    },
    /// No intent of that fingerprint.
    Absent,
}

/// Microseconds in a minute, for `--shared-address-rate`.
const MINUTE: i64 = 60_000_000;

/// Open-addressing table of intents by key hash, with linear probing. Keys are already
/// well-mixed hashes, so a key's home slot is its high bits scaled to the slots. At most 70%
/// of the slots are used (85% in a [compact](IntentTable::compact) one).
#[derive(Debug, Clone)]
pub(super) struct IntentTable {
    /// At least [`MIN_SLOTS`], with at least one empty slot.
    slots: Vec<Slot>,
    len: usize,
    /// The time a packed slot's time counts from (µs). Moved forward by a sweep once the clock
    /// has gone half the packed range past it.
    base: i64,
    /// The intents that do not pack into a word ([`Packed`]), by key; their slots say so.
    spilled: IdMap<Intent>,
    /// The first time and endpoint of each packed head ([`Packed::HEAD`]), by key.
    heads: IdMap<(i64, u64)>,
    /// Grows finely and fills further ([`IntentTable::compact`]).
    compact: bool,
}

impl Default for IntentTable {
    fn default() -> Self {
        IntentTable {
            slots: vec![[0; 2]; MIN_SLOTS],
            len: 0,
            base: 0,
            spilled: IdMap::default(),
            heads: IdMap::default(),
            compact: false,
        }
    }
}

impl PartialEq for IntentTable {
    /// The same keys with the same intents, wherever their slots are.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().all(|(k, it)| other.get(k) == Some(it))
    }
}

impl IntentTable {
    /// A table for a follower, which runs for days in the memory it holds: filled to 85%
    /// rather than 70%, and, past [`DOUBLING_SLOTS`], grown by an eighth rather than doubled.
    /// Longer probes and more moves, for about half the memory of a table that doubles.
    pub fn compact() -> IntentTable {
        IntentTable {
            compact: true,
            ..IntentTable::default()
        }
    }

    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Whether `len` intents fit in `slots` slots.
    #[inline]
    fn fits(&self, len: usize, slots: usize) -> bool {
        let (used, of) = if self.compact { (17, 20) } else { (7, 10) };
        len * of <= slots * used
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Half its slots or more are taken: worth a sweep (it grows past 70% or 85%).
    #[inline]
    pub fn half_full(&self) -> bool {
        self.len * 2 >= self.slots.len()
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot after `i`, wrapping.
    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 == self.slots.len() { 0 } else { i + 1 }
    }

    /// How many slots past `from` slot `to` is, wrapping.
    #[inline]
    fn distance(&self, from: usize, to: usize) -> usize {
        if to >= from {
            to - from
        } else {
            to + self.slots.len() - from
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot[WORD] == 0 {
                return Err(i);
            }
            if slot[KEY] == key {
                return Ok(i);
            }
            i = self.next(i);
        }
    }

    /// Asks the CPU to bring `key`'s home slot and the next ones into the cache; a hint,
    /// never needed for correctness.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = &self.slots[self.home(key)];
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch only reads a cache
            // line; it cannot fault or change memory, even past the end of the slots.
            #[allow(unused_unsafe)]
            unsafe {
                // A new key probes a few slots: the home slot's line and the next.
                _mm_prefetch::<_MM_HINT_T0>(slot.cast());
                _mm_prefetch::<_MM_HINT_T0>(slot.cast::<u8>().wrapping_add(64).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The word of `it`, if it packs into one.
    #[inline]
    fn pack(&self, it: &Intent) -> Option<u64> {
        let since = it.last_ts.wrapping_sub(self.base) as u64;
        let fits = it.attempts <= Packed::MAX_ATTEMPTS
            && it.executed <= Packed::MAX_EXECUTED
            && it.per_minute <= Packed::MAX_PER_MINUTE
            && since < Packed::TS_RANGE;
        fits.then(|| {
            u64::from(it.attempts)
                | u64::from(it.facts) << Packed::FACTS_SHIFT
                | u64::from(it.executed) << Packed::EXECUTED_SHIFT
                | u64::from(it.per_minute) << Packed::PER_MINUTE_SHIFT
                | since << Packed::TS_SHIFT
                | if it.head { Packed::HEAD } else { 0 }
        })
    }

    /// Whether `word` is a packed head's (not a spilled slot's, which has no attempts).
    #[inline]
    fn is_packed_head(word: u64) -> bool {
        word & Packed::HEAD != 0 && word & Packed::ATTEMPTS != 0
    }

    /// The last attempt's time of a packed word.
    #[inline]
    fn packed_ts(&self, word: u64) -> i64 {
        self.base.wrapping_add((word >> Packed::TS_SHIFT) as i64)
    }

    /// The intent of a packed word, but for a head's first time and endpoint, which are in
    /// [`IntentTable::heads`] (see [`IntentTable::with_head`]).
    #[inline]
    fn unpack(&self, word: u64) -> Intent {
        Intent {
            last_ts: self.packed_ts(word),
            first_ts: NO_FIRST_TS,
            attempts: (word & Packed::ATTEMPTS) as u32,
            endpoint: NO_ENDPOINT,
            head: word & Packed::HEAD != 0,
            facts: (word >> Packed::FACTS_SHIFT) as u8,
            executed: (word >> Packed::EXECUTED_SHIFT) as u8 & Packed::MAX_EXECUTED,
            per_minute: (word >> Packed::PER_MINUTE_SHIFT) as u8 & Packed::MAX_PER_MINUTE,
        }
    }

    /// `it`, unpacked from a head's word, with its first time and endpoint.
    #[inline]
    fn with_head(it: Intent, (first_ts, endpoint): (i64, u64)) -> Intent {
        Intent {
            first_ts,
            endpoint,
            ..it
        }
    }

    /// The intent in the full slot `i`.
    #[inline]
    fn read(&self, i: usize) -> Intent {
        let [key, word] = self.slots[i];
        if word == Packed::SPILLED {
            self.spilled[&key]
        } else if Self::is_packed_head(word) {
            Self::with_head(self.unpack(word), self.heads[&key])
        } else {
            self.unpack(word)
        }
    }

    /// Puts `key`'s intent `it` in slot `i` (empty, or `key`'s), packed or spilled. What the
    /// table keeps of an intent that is no head: neither its first time nor its endpoint.
    #[inline]
    fn put(&mut self, i: usize, key: u64, it: Intent) {
        let old = self.slots[i][WORD];
        if old == Packed::SPILLED {
            self.spilled.remove(&key);
        }
        let packed = self.pack(&it);
        if it.head && packed.is_some() {
            self.heads.insert(key, (it.first_ts, it.endpoint));
        } else if Self::is_packed_head(old) {
            self.heads.remove(&key);
        }
        let word = match packed {
            Some(word) => word,
            None => {
                let kept = if it.head {
                    it
                } else {
                    Intent {
                        first_ts: NO_FIRST_TS,
                        endpoint: NO_ENDPOINT,
                        ..it
                    }
                };
                self.spilled.insert(key, kept);
                Packed::SPILLED
            }
        };
        self.slots[i] = [key, word];
    }

    /// Empties the full slot `i`, returning its intent.
    fn take(&mut self, i: usize) -> Intent {
        let [key, word] = self.slots[i];
        self.slots[i] = [0; 2];
        self.taken(key, word)
    }

    /// The intent of `key`'s full slot word `word`, whose slot has just been emptied: what
    /// it kept aside is taken out too.
    fn taken(&mut self, key: u64, word: u64) -> Intent {
        if word == Packed::SPILLED {
            self.spilled
                .remove(&key)
                .expect("a spilled slot's intent is kept aside")
        } else if Self::is_packed_head(word) {
            let head = self
                .heads
                .remove(&key)
                .expect("a packed head's first time is kept aside");
            Self::with_head(self.unpack(word), head)
        } else {
            self.unpack(word)
        }
    }

    pub fn get(&self, key: u64) -> Option<Intent> {
        self.find(key).ok().map(|i| self.read(i))
    }

    /// Adds an attempt at `ts` to `key`'s intent if its last one is at most `window` before;
    /// `a` says whether it executed and what it showed ([`KeyedAttempt`]).
    #[inline]
    pub fn touch(&mut self, key: u64, ts: i64, window: u64, a: KeyedAttempt) -> Touch {
        match self.find(key) {
            Ok(i) => {
                let mut it = self.read(i);
                if ts.abs_diff(it.last_ts) <= window {
                    it.attempts = it.attempts.saturating_add(1);
                    it.last_ts = ts;
                    it.executed = it.executed.saturating_add(u8::from(a.executed));
                    it.facts |= a.facts;
                    self.put(i, key, it);
                    Touch::Continued
                } else {
                    Touch::Stale(i)
                }
            }
            Err(i) => Touch::Absent(i),
        }
    }

    /// A fingerprinted attempt `a`: a retry of its fingerprint's intent when that intent's
    /// last attempt failed at most `window` before and the fingerprint is not shared (more
    /// than `shared_rate` attempts in one minute of the clock).
    #[inline]
    pub fn touch_fingerprint(
        &mut self,
        key: u64,
        endpoint: u64,
        a: &FingerprintAttempt,
        window: u64,
        shared_rate: u8,
    ) -> FingerprintTouch {
        let Ok(i) = self.find(key) else {
            return FingerprintTouch::Absent;
        };
        let mut it = self.read(i);
        // More than the window after the fingerprint's last attempt, it starts afresh, as when
        // a sweep has retired it: whether it had been swept depends on the clock's other rows,
        // and the rule must not (`dupcost sql` applies it with window functions).
        let fresh = a.ts.abs_diff(it.last_ts) > window;
        let per_minute = if !fresh && a.ts.div_euclid(MINUTE) == it.last_ts.div_euclid(MINUTE) {
            it.per_minute.saturating_add(1)
        } else {
            1
        };
        let was_shared = !fresh && it.facts & Facts::SHARED != 0;
        let shared = was_shared || per_minute > shared_rate;
        if !shared && it.facts & Facts::RETRYABLE != 0 && a.ts.abs_diff(it.last_ts) <= window {
            it.attempts = it.attempts.saturating_add(1);
            it.last_ts = a.ts;
            it.per_minute = per_minute;
            it.executed = it.executed.saturating_add(u8::from(a.executed));
            // This attempt's first-attempt conflict is a later one in the intent.
            let conflict = if a.facts & Facts::FIRST_CONFLICT != 0 {
                Facts::LATER_CONFLICT
            } else {
                0
            };
            let retryable = if a.failed { Facts::RETRYABLE } else { 0 };
            it.facts = (it.facts & !Facts::RETRYABLE)
                | retryable
                | (a.facts & (Facts::UPSTREAM_2XX | Facts::BACKEND_2XX | Facts::TIMED_OUT))
                | conflict;
            self.put(i, key, it);
            return FingerprintTouch::Continued;
        }
        // The new intent takes the slot in place: no second probe.
        let shared_bit = if shared { Facts::SHARED } else { 0 };
        let fresh = Intent {
            last_ts: a.ts,
            first_ts: NO_FIRST_TS,
            attempts: 1,
            endpoint,
            head: false,
            facts: a.first_facts() | shared_bit,
            executed: u8::from(a.executed),
            per_minute,
        };
        self.put(i, key, fresh);
        FingerprintTouch::New {
            ended: it,
            shared,
            newly_shared: shared && !was_shared,
        }
    }

    /// Puts `it` under `key`, returning the intent it replaces.
    pub fn insert(&mut self, key: u64, it: Intent) -> Option<Intent> {
        self.insert_found(self.find(key), key, it)
    }

    /// [`IntentTable::insert`] where `touch` has just found `key`'s slot (`Stale`) or the empty
    /// one where it goes (`Absent`), the table unchanged since: no second probe.
    pub fn insert_touched(&mut self, touched: Touch, key: u64, it: Intent) -> Option<Intent> {
        match touched {
            Touch::Stale(i) => self.insert_found(Ok(i), key, it),
            Touch::Absent(i) => self.insert_found(Err(i), key, it),
            Touch::Continued => self.insert(key, it),
        }
    }

    /// [`IntentTable::insert`], given what [`IntentTable::find`] says of `key`.
    #[inline]
    fn insert_found(
        &mut self,
        found: Result<usize, usize>,
        key: u64,
        it: Intent,
    ) -> Option<Intent> {
        debug_assert!(it.attempts > 0, "an intent has at least one attempt");
        debug_assert_eq!(found, self.find(key), "the table changed since the probe");
        match found {
            Ok(i) => {
                let old = self.read(i);
                self.put(i, key, it);
                Some(old)
            }
            Err(mut i) => {
                if self.len == 0 {
                    // Nothing is packed yet: the times may count from anywhere.
                    self.base = it.last_ts.saturating_sub(Packed::BACK);
                }
                if !self.fits(self.len + 1, self.slots.len()) {
                    self.grow();
                    i = self.find(key).unwrap_err();
                }
                self.put(i, key, it);
                self.len += 1;
                None
            }
        }
    }

    /// Takes `key`'s intent out. Later slots of its probe run move back into the hole
    /// (backward-shift deletion), so no tombstones are left behind.
    pub fn remove(&mut self, key: u64) -> Option<Intent> {
        let mut hole = self.find(key).ok()?;
        let it = self.take(hole);
        self.len -= 1;
        let mut j = hole;
        loop {
            j = self.next(j);
            if self.slots[j][WORD] == 0 {
                return Some(it);
            }
            // The slot at `j` may fill the hole if its home is not after the hole.
            let home = self.home(self.slots[j][KEY]);
            if self.distance(home, j) >= self.distance(hole, j) {
                self.slots[hole] = self.slots[j];
                self.slots[j] = [0; 2];
                hole = j;
            }
        }
    }

    /// Keeps the intents whose last attempt is at or after `limit` and retires the others, in
    /// one pass over the slots. A retired intent of one attempt that is no head (nearly every
    /// one) is only counted, in `singles[fingerprinted][timed out]`; any other is handed to
    /// `dropped`.
    ///
    /// The pass starts after an empty slot, so no probe run crosses its start. A kept intent
    /// after a hole in its run is taken out and put back at the first empty slot from its home
    /// on, which is never past where it was; everything before the pass's position is then a
    /// valid table, and the slots after it are untouched. A kept intent with no hole before it
    /// in its run is left alone: most are. Empty, kept and retired slots alternate at random,
    /// so the common cases (an empty slot, a kept one, a retired single) take no branch: a
    /// retired slot is emptied by writing its word back as 0 or as it was, and a single is
    /// counted by adding 0 or 1. Only a move, a spilled intent and a retired intent of more
    /// than one attempt branch, and those are rare. (The pass was about a sixth of the CPU
    /// time of `dupcost logs` on the benchmark log with a branch per kind of slot; most of it
    /// the branches' misses, not its reads.)
    ///
    /// Once `limit` is half the packed range past the base, the base moves up to it.
    pub fn retain_from(
        &mut self,
        limit: i64,
        singles: &mut [[u64; 2]; 2],
        mut dropped: impl FnMut(u64, Intent),
    ) {
        if self.len == 0 {
            return;
        }
        let n = self.slots.len();
        let start = self
            .slots
            .iter()
            .position(|s| s[WORD] == 0)
            .expect("the table always has an empty slot");
        // Whether a slot of the current probe run has been emptied: until one has, every slot
        // from a kept intent's home to it is still full, so it stays where it is, unwritten.
        let mut holed = false;
        for step in 1..n {
            let i = if start + step >= n {
                start + step - n
            } else {
                start + step
            };
            let [key, word] = self.slots[i];
            let occupied = word != 0;
            let spilled = word == Packed::SPILLED;
            let (retired, single, fingerprinted, timed_out) = if spilled {
                let it = self.spilled[&key];
                let retired = it.last_ts < limit;
                (
                    retired,
                    retired & (it.attempts == 1) & !it.head,
                    it.facts & Facts::FINGERPRINT != 0,
                    it.facts & Facts::TIMED_OUT != 0,
                )
            } else {
                let retired = occupied & (self.packed_ts(word) < limit);
                let facts = (word >> Packed::FACTS_SHIFT) as u8;
                (
                    retired,
                    retired & (word & (Packed::ATTEMPTS | Packed::HEAD) == 1),
                    facts & Facts::FINGERPRINT != 0,
                    facts & Facts::TIMED_OUT != 0,
                )
            };
            singles[usize::from(fingerprinted)][usize::from(timed_out)] += u64::from(single);
            self.slots[i][WORD] = if retired { 0 } else { word };
            self.len -= usize::from(retired);
            holed &= occupied;
            let moved = occupied & !retired & holed;
            holed |= retired;
            if retired & (spilled | !single) {
                let it = self.taken(key, word);
                if !single {
                    dropped(key, it);
                }
            }
            if moved {
                self.slots[i] = [0; 2];
                let mut at = self.home(key);
                while self.slots[at][WORD] != 0 {
                    at = self.next(at);
                }
                self.slots[at] = [key, word];
            }
        }
        if limit.saturating_sub(self.base) > (Packed::TS_RANGE / 2) as i64 {
            self.rebase(limit.saturating_sub(Packed::BACK));
        }
    }

    /// Counts the packed times from `base`, spilling an intent whose time no longer fits.
    fn rebase(&mut self, base: i64) {
        let old = std::mem::replace(&mut self.base, base);
        for i in 0..self.slots.len() {
            let [key, word] = self.slots[i];
            if word == 0 || word == Packed::SPILLED {
                continue;
            }
            let ts = old.wrapping_add((word >> Packed::TS_SHIFT) as i64);
            let since = ts.wrapping_sub(base) as u64;
            if since < Packed::TS_RANGE {
                let low = word & ((1 << Packed::TS_SHIFT) - 1);
                self.slots[i][WORD] = low | since << Packed::TS_SHIFT;
            } else {
                let mut it = Intent {
                    last_ts: ts,
                    ..self.unpack(word)
                };
                if Self::is_packed_head(word) {
                    let head = self
                        .heads
                        .remove(&key)
                        .expect("a packed head's first time is kept aside");
                    it = Self::with_head(it, head);
                }
                self.spilled.insert(key, it);
                self.slots[i][WORD] = Packed::SPILLED;
            }
        }
    }

    /// Every key and intent, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Intent)> + '_ {
        (0..self.slots.len())
            .filter(|&i| self.slots[i][WORD] != 0)
            .map(|i| (self.slots[i][KEY], self.read(i)))
    }

    /// Empties the table, returning what it held.
    pub fn take_all(&mut self) -> Vec<(u64, Intent)> {
        let all = self.iter().collect();
        *self = IntentTable {
            compact: self.compact,
            ..IntentTable::default()
        };
        all
    }

    /// Makes room for `additional` more intents without growing again.
    ///
    /// Needed before moving another table's intents in: they come in slot order, that is in
    /// order of home, and a smaller table growing under such a stream packs them into ever
    /// longer probe runs (the merge of two pieces' open intents took a quarter of a second
    /// that way; sized first, it takes milliseconds).
    pub fn reserve(&mut self, additional: usize) {
        let mut needed = self.slots.len();
        while !self.fits(self.len + additional + 1, needed) {
            needed += needed / 8;
        }
        if needed > self.slots.len() {
            self.resize(needed);
        }
    }

    /// Makes room for more intents: twice the slots, or an eighth more once a compact table
    /// is large.
    fn grow(&mut self) {
        let n = self.slots.len();
        let fine = self.compact && n >= DOUBLING_SLOTS;
        self.resize(if fine { n + n / 8 } else { n * 2 });
    }

    /// Puts every intent into a table of `slots` slots. The old slots are moved from the last
    /// in steps, each step's memory given back before the next (a large allocation is its own
    /// mapping, which shrinking unmaps in place): the new table's pages are touched in the
    /// order of the moved slots' homes, so growing holds about the larger table, not both.
    fn resize(&mut self, slots: usize) {
        let mut old = std::mem::replace(&mut self.slots, vec![[0; 2]; slots]);
        let large = old.len() >= 2 * MOVE_STEP;
        while !old.is_empty() {
            let from = old
                .len()
                .saturating_sub(if large { MOVE_STEP } else { old.len() });
            for slot in old.drain(from..).filter(|s| s[WORD] != 0) {
                let i = self.find(slot[KEY]).unwrap_err();
                self.slots[i] = slot;
            }
            if large {
                old.shrink_to_fit();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// An intent as the table gives it back: a head keeps its first attempt's time and its
    /// endpoint. Its time also decides whether it is fingerprinted and timed out, so a retain
    /// counts every kind; `size` picks its counts, some too large to pack.
    fn intent(ts: i64, head: bool, size: u8) -> Intent {
        let fingerprinted = if ts % 3 == 0 { Facts::FINGERPRINT } else { 0 };
        let timed_out = if ts % 2 == 0 { Facts::TIMED_OUT } else { 0 };
        let (attempts, executed, per_minute) = match size % 8 {
            0 => (1 + u32::from(size), size / 4, size / 3),
            1 => (63, 15, 31),
            2 => (64, 0, 0),
            3 => (2, 16, 0),
            4 => (1, 0, 32),
            5 => (u32::MAX, u8::MAX, u8::MAX),
            _ => (1, 0, 0),
        };
        Intent {
            last_ts: ts,
            first_ts: if head { ts - 5 } else { NO_FIRST_TS },
            attempts,
            endpoint: if head { 7 } else { NO_ENDPOINT },
            head,
            facts: Facts::RETRYABLE | fingerprinted | timed_out | (size & Facts::LATER_CONFLICT),
            executed,
            per_minute,
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u64, i64, bool, u8),
        Touch(u64, i64, bool),
        Fingerprint(u64, i64, u16),
        Remove(u64),
        Retain(i64),
        Reserve(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        // Few distinct keys, some with equal high bits (one home) and some homed in the last
        // slots, so probe runs collide and wrap.
        let key = prop_oneof![
            0u64..40,
            (0u64..8).prop_map(|k| k << 40 | 15),
            (0u64..8).prop_map(|k| u64::MAX - k),
        ];
        prop_oneof![
            4 => (key.clone(), 0i64..100, any::<bool>(), any::<u8>())
                .prop_map(|(k, t, h, s)| Op::Insert(k, t, h, s)),
            2 => (key.clone(), 0i64..100, any::<bool>()).prop_map(|(k, t, e)| Op::Touch(k, t, e)),
            1 => (key.clone(), 0i64..100, prop_oneof![Just(201u16), Just(504), Just(409)])
                .prop_map(|(k, t, s)| Op::Fingerprint(k, t, s)),
            2 => key.prop_map(Op::Remove),
            1 => (0i64..100).prop_map(Op::Retain),
            1 => (0usize..50).prop_map(Op::Reserve),
        ]
    }

    /// What [`IntentTable::touch_fingerprint`] does, on a plain map of the intents.
    fn touch_fingerprint(
        map: &mut HashMap<u64, Intent>,
        key: u64,
        a: &FingerprintAttempt,
        window: u64,
        rate: u8,
    ) -> FingerprintTouch {
        let Some(it) = map.get_mut(&key) else {
            return FingerprintTouch::Absent;
        };
        let within = a.ts.abs_diff(it.last_ts) <= window;
        let same_minute = a.ts.div_euclid(MINUTE) == it.last_ts.div_euclid(MINUTE);
        let per_minute = if within && same_minute {
            it.per_minute.saturating_add(1)
        } else {
            1
        };
        let was_shared = within && it.facts & Facts::SHARED != 0;
        let shared = was_shared || per_minute > rate;
        if !shared && it.facts & Facts::RETRYABLE != 0 && within {
            it.attempts = it.attempts.saturating_add(1);
            it.last_ts = a.ts;
            it.per_minute = per_minute;
            it.executed = it.executed.saturating_add(u8::from(a.executed));
            let later = if a.facts & Facts::FIRST_CONFLICT != 0 {
                Facts::LATER_CONFLICT
            } else {
                0
            };
            let retryable = if a.failed { Facts::RETRYABLE } else { 0 };
            let seen = Facts::UPSTREAM_2XX | Facts::BACKEND_2XX | Facts::TIMED_OUT;
            it.facts = (it.facts & !Facts::RETRYABLE) | retryable | (a.facts & seen) | later;
            return FingerprintTouch::Continued;
        }
        let ended = *it;
        *it = Intent {
            last_ts: a.ts,
            first_ts: NO_FIRST_TS,
            attempts: 1,
            endpoint: NO_ENDPOINT,
            head: false,
            facts: a.first_facts() | if shared { Facts::SHARED } else { 0 },
            executed: u8::from(a.executed),
            per_minute,
        };
        FingerprintTouch::New {
            ended,
            shared,
            newly_shared: shared && !was_shared,
        }
    }

    proptest! {
        /// Any sequence of inserts, touches, removes and retains leaves the table holding
        /// what a `HashMap` of the plain intents would, and every key findable: packed or
        /// spilled, before and after the base moves. `scale` spreads the times so that some
        /// fall outside the packed range and retains move the base.
        #[test]
        fn behaves_like_a_hash_map(
            ops in proptest::collection::vec(op(), 0..400),
            scale in prop_oneof![Just(1i64), Just(1i64 << 34), Just(MINUTE / 4)],
            compact in any::<bool>(),
        ) {
            let mut table = if compact { IntentTable::compact() } else { IntentTable::default() };
            let mut map: HashMap<u64, Intent> = HashMap::new();
            let window = 10 * scale as u64;
            for op in ops {
                match op {
                    Op::Insert(k, t, h, s) => {
                        let it = intent(t * scale, h, s);
                        prop_assert_eq!(table.insert(k, it), map.insert(k, it));
                    }
                    Op::Touch(k, t, executed) => {
                        let ts = t * scale;
                        let a = KeyedAttempt { executed, facts: Facts::UPSTREAM_2XX };
                        let expected = match map.get_mut(&k) {
                            Some(it) if ts.abs_diff(it.last_ts) <= window => {
                                it.attempts = it.attempts.saturating_add(1);
                                it.last_ts = ts;
                                it.executed = it.executed.saturating_add(u8::from(executed));
                                it.facts |= a.facts;
                                Touch::Continued
                            }
                            Some(_) => Touch::Stale(0),
                            None => Touch::Absent(0),
                        };
                        // What was found, not where (the slot is the table's business).
                        let kind = |t: Touch| match t {
                            Touch::Stale(_) => Touch::Stale(0),
                            Touch::Absent(_) => Touch::Absent(0),
                            t => t,
                        };
                        let touched = table.touch(k, ts, window, a);
                        prop_assert_eq!(kind(touched), expected);
                        // Half the time, a fresh intent goes where the touch found room.
                        if t % 2 == 0 && touched != Touch::Continued {
                            let fresh = intent(ts, false, 7);
                            prop_assert_eq!(
                                table.insert_touched(touched, k, fresh),
                                map.insert(k, fresh)
                            );
                        }
                    }
                    Op::Fingerprint(k, t, status) => {
                        let a = FingerprintAttempt::new(t * scale, status, status == 504, status == 201, false);
                        prop_assert_eq!(
                            table.touch_fingerprint(k, 9, &a, window, 3),
                            touch_fingerprint(&mut map, k, &a, window, 3)
                        );
                    }
                    Op::Remove(k) => prop_assert_eq!(table.remove(k), map.remove(&k)),
                    Op::Reserve(n) => {
                        table.reserve(n);
                        prop_assert!(table.fits(table.len() + n + 1, table.slots.len()));
                    }
                    Op::Retain(limit) => {
                        let limit = limit * scale;
                        let mut dropped = Vec::new();
                        let mut singles = [[0u64; 2]; 2];
                        table.retain_from(limit, &mut singles, |k, it| dropped.push((k, it)));
                        let single = |it: &Intent| it.attempts == 1 && !it.head;
                        let mut expected_singles = [[0u64; 2]; 2];
                        for it in map.values().filter(|it| it.last_ts < limit && single(it)) {
                            let fingerprinted = usize::from(it.facts & Facts::FINGERPRINT != 0);
                            let timed_out = usize::from(it.facts & Facts::TIMED_OUT != 0);
                            expected_singles[fingerprinted][timed_out] += 1;
                        }
                        prop_assert_eq!(singles, expected_singles);
                        let mut expected: Vec<(u64, Intent)> = map
                            .iter()
                            .filter(|(_, it)| it.last_ts < limit && !single(it))
                            .map(|(k, it)| (*k, *it))
                            .collect();
                        map.retain(|_, it| it.last_ts >= limit);
                        dropped.sort_by_key(|d| d.0);
                        expected.sort_by_key(|d| d.0);
                        prop_assert_eq!(dropped, expected);
                    }
                }
                prop_assert_eq!(table.len(), map.len());
                prop_assert!(table.spilled.len() + table.heads.len() <= table.len());
                // A packed head keeps its first time aside; a spilled one is whole. With the
                // base unmoved, only what cannot pack is spilled: a head too is packed.
                for (k, it) in &map {
                    let spilled = table.spilled.contains_key(k);
                    prop_assert_eq!(table.heads.contains_key(k), it.head && !spilled);
                    if scale == 1 {
                        prop_assert_eq!(spilled, table.pack(it).is_none());
                    }
                }
                for (k, it) in &map {
                    prop_assert_eq!(table.get(*k), Some(*it));
                }
            }
            let mut all = table.take_all();
            all.sort_by_key(|a| a.0);
            let mut expected: Vec<(u64, Intent)> = map.into_iter().collect();
            expected.sort_by_key(|a| a.0);
            prop_assert_eq!(all, expected);
            prop_assert_eq!(table.len(), 0);
        }
    }

    /// How far past its home `key` sits: the slots an insert of it probed.
    fn probes(table: &IntentTable, key: u64) -> usize {
        let at = table.find(key).expect("the key is in the table");
        table.distance(table.home(key), at)
    }

    /// A random table of `n` one-attempt intents (keys whose high bits, which place them, are
    /// as random as a hash's).
    fn random_table(seed: &mut u64, n: i64, compact: bool) -> IntentTable {
        let mut t = if compact {
            IntentTable::compact()
        } else {
            IntentTable::default()
        };
        for ts in 0..n {
            *seed = seed
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(0x1405_7b7e_f767_814f);
            t.insert(*seed, intent(ts, false, 7));
        }
        t
    }

    /// Moving a table's intents (in slot order, as a merge does) into a table as full as
    /// itself takes a few probes a key when room is reserved first. Without, the moved keys
    /// fill the slots around the homes they start at long before the table is full enough to
    /// grow, and each insert probes along an ever longer run. (Two tables 60% full, as the two
    /// pieces of the benchmark log were when merged.)
    #[test]
    fn reserve_keeps_a_moved_table_in_short_runs() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut reserved = random_table(&mut seed, 20_000, false);
        let mut growing = reserved.clone();
        let moved = random_table(&mut seed, 20_000, false).take_all();
        reserved.reserve(moved.len());
        let slots = reserved.slots.len();
        let (mut reserved_probes, mut growing_probes) = (0, 0);
        for &(k, it) in &moved {
            reserved.insert(k, it);
            reserved_probes += probes(&reserved, k);
            growing.insert(k, it);
            growing_probes += probes(&growing, k);
        }
        assert_eq!(reserved.slots.len(), slots, "reserve made room for all");
        assert_eq!(reserved, growing);
        let per_key = |probes: usize| probes as f64 / moved.len() as f64;
        assert!(
            per_key(reserved_probes) < 3.0,
            "{}",
            per_key(reserved_probes)
        );
        assert!(
            per_key(growing_probes) > 100.0,
            "{}",
            per_key(growing_probes)
        );
    }

    /// A large compact table grows by an eighth, and its intents stay findable across the
    /// steps in which the old slots are moved and given back.
    #[test]
    fn a_large_table_grows_by_an_eighth() {
        let mut seed = 7;
        let t = random_table(&mut seed, (DOUBLING_SLOTS as i64) * 17 / 20 + 1, true);
        assert_eq!(t.slots.len(), DOUBLING_SLOTS + DOUBLING_SLOTS / 8);
        let all = t.clone().take_all();
        assert_eq!(all.len(), t.len());
        for (k, it) in all {
            assert_eq!(t.get(k), Some(it));
        }
        assert!(t.spilled.is_empty());
        assert!(t.heads.is_empty());
    }

    #[test]
    fn a_slot_is_two_words() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
    }
}
