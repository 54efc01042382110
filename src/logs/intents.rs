//! The open intents of a [`Tally`](super::Tally): a table from 64-bit key hashes to intents,
//! built for the scanner's hot loop.
//!
//! Why not a `HashMap`: nearly every mutating row of a log is a new intent, so the table is
//! probed at a random place per row and the probe misses the cache. A `HashMap` (hashbrown)
//! keeps its control bytes apart from its entries: two misses per new key. Here a slot holds
//! its key and intent together (open addressing with linear probing), so a probe costs one
//! miss, and a key's slot is known from the key alone, so the tally prefetches it a few rows
//! before it is needed (see `Tally::attempt`), hiding that miss too. Retiring old intents
//! ([`IntentTable::retain`]) is one sequential pass over the slots, in place.

/// An intent not yet counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Intent {
    /// Timestamp of the last row so far, in file order (µs).
    pub last_ts: i64,
    /// Timestamp of the first row (µs).
    pub first_ts: i64,
    /// Attempts so far; never 0 (0 marks an empty slot).
    pub attempts: u32,
    pub endpoint: u64,
    /// The first intent of its key in this piece, near the piece's start: it may continue an
    /// intent of the previous piece.
    pub head: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    key: u64,
    it: Intent,
}

const EMPTY: Slot = Slot {
    key: 0,
    it: Intent {
        last_ts: 0,
        first_ts: 0,
        attempts: 0,
        endpoint: 0,
        head: false,
    },
};

impl Slot {
    fn is_empty(&self) -> bool {
        self.it.attempts == 0
    }
}

const MIN_SLOTS: usize = 16;

/// Open-addressing table of intents by key hash. Keys are already well-mixed hashes, so a
/// key's home slot is its low bits. At most 70% of the slots are used.
#[derive(Debug, Clone)]
pub(super) struct IntentTable {
    /// A power of two in length, with at least one empty slot.
    slots: Vec<Slot>,
    len: usize,
}

impl Default for IntentTable {
    fn default() -> Self {
        IntentTable {
            slots: vec![EMPTY; MIN_SLOTS],
            len: 0,
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
    pub fn len(&self) -> usize {
        self.len
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    fn home(&self, key: u64) -> usize {
        key as usize & self.mask()
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mask = self.mask();
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.is_empty() {
                return Err(i);
            }
            if slot.key == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the CPU to bring `key`'s home slot into the cache; a hint, never needed for
    /// correctness.
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
                // A new key probes two or three slots (120 bytes): two lines, not one.
                _mm_prefetch::<_MM_HINT_T0>(slot.cast());
                _mm_prefetch::<_MM_HINT_T0>(slot.cast::<u8>().wrapping_add(64).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn get(&self, key: u64) -> Option<&Intent> {
        self.find(key).ok().map(|i| &self.slots[i].it)
    }

    pub fn get_mut(&mut self, key: u64) -> Option<&mut Intent> {
        self.find(key).ok().map(|i| &mut self.slots[i].it)
    }

    /// Puts `it` under `key`, returning the intent it replaces.
    pub fn insert(&mut self, key: u64, it: Intent) -> Option<Intent> {
        debug_assert!(it.attempts > 0, "an intent has at least one attempt");
        match self.find(key) {
            Ok(i) => Some(std::mem::replace(&mut self.slots[i].it, it)),
            Err(mut i) => {
                if (self.len + 1) * 10 > self.slots.len() * 7 {
                    self.grow();
                    i = self.find(key).unwrap_err();
                }
                self.slots[i] = Slot { key, it };
                self.len += 1;
                None
            }
        }
    }

    /// Takes `key`'s intent out. Later slots of its probe run move back into the hole
    /// (backward-shift deletion), so no tombstones are left behind.
    pub fn remove(&mut self, key: u64) -> Option<Intent> {
        let mut hole = self.find(key).ok()?;
        let it = self.slots[hole].it;
        self.slots[hole] = EMPTY;
        self.len -= 1;
        let mask = self.mask();
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            if self.slots[j].is_empty() {
                return Some(it);
            }
            // The slot at `j` may fill the hole if its home is not after the hole.
            let home = self.home(self.slots[j].key);
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.slots[hole] = self.slots[j];
                self.slots[j] = EMPTY;
                hole = j;
            }
        }
    }

    /// Keeps the intents for which `keep` is true, handing every other one to `dropped`, in
    /// one pass over the slots.
    ///
    /// The pass starts after an empty slot, so no probe run crosses its start. Each kept intent
    /// is taken out and put back at the first empty slot from its home on, which is never past
    /// where it was; everything before the pass's position is then a valid table, and the
    /// slots after it are untouched.
    pub fn retain(
        &mut self,
        mut keep: impl FnMut(&Intent) -> bool,
        mut dropped: impl FnMut(u64, Intent),
    ) {
        if self.len == 0 {
            return;
        }
        let mask = self.mask();
        let start = self
            .slots
            .iter()
            .position(Slot::is_empty)
            .expect("the table always has an empty slot");
        for step in 1..self.slots.len() {
            let i = (start + step) & mask;
            if self.slots[i].is_empty() {
                continue;
            }
            let slot = std::mem::replace(&mut self.slots[i], EMPTY);
            if !keep(&slot.it) {
                self.len -= 1;
                dropped(slot.key, slot.it);
                continue;
            }
            let mut at = self.home(slot.key);
            while !self.slots[at].is_empty() {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }

    /// Every key and intent, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Intent)> {
        self.slots
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| (s.key, &s.it))
    }

    /// Empties the table, returning what it held.
    pub fn take_all(&mut self) -> Vec<(u64, Intent)> {
        let all = self.iter().map(|(k, it)| (k, *it)).collect();
        *self = IntentTable::default();
        all
    }

    /// Doubles the slots and puts every intent back.
    fn grow(&mut self) {
        let doubled = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for slot in old.into_iter().filter(|s| !s.is_empty()) {
            let i = self.find(slot.key).unwrap_err();
            self.slots[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn intent(ts: i64) -> Intent {
        Intent {
            last_ts: ts,
            first_ts: ts,
            attempts: 1,
            endpoint: 7,
            head: false,
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u64, i64),
        Remove(u64),
        Retain(i64),
    }

    fn op() -> impl Strategy<Value = Op> {
        // Few distinct keys, some with equal low bits, so probe runs collide and wrap.
        let key = prop_oneof![0u64..40, (0u64..8).prop_map(|k| k << 40 | 15)];
        prop_oneof![
            4 => (key.clone(), 0i64..100).prop_map(|(k, t)| Op::Insert(k, t)),
            2 => key.prop_map(Op::Remove),
            1 => (0i64..100).prop_map(Op::Retain),
        ]
    }

    proptest! {
        /// Any sequence of inserts, removes and retains leaves the table holding what a
        /// `HashMap` would, and every key findable.
        #[test]
        fn behaves_like_a_hash_map(ops in proptest::collection::vec(op(), 0..400)) {
            let mut table = IntentTable::default();
            let mut map: HashMap<u64, Intent> = HashMap::new();
            for op in ops {
                match op {
                    Op::Insert(k, t) => {
                        prop_assert_eq!(table.insert(k, intent(t)), map.insert(k, intent(t)));
                    }
                    Op::Remove(k) => prop_assert_eq!(table.remove(k), map.remove(&k)),
                    Op::Retain(limit) => {
                        let mut dropped = Vec::new();
                        table.retain(|it| it.last_ts >= limit, |k, it| dropped.push((k, it)));
                        let mut expected: Vec<(u64, Intent)> = map
                            .iter()
                            .filter(|(_, it)| it.last_ts < limit)
                            .map(|(k, it)| (*k, *it))
                            .collect();
                        map.retain(|_, it| it.last_ts >= limit);
                        dropped.sort_by_key(|d| d.0);
                        expected.sort_by_key(|d| d.0);
                        prop_assert_eq!(dropped, expected);
                    }
                }
                prop_assert_eq!(table.len(), map.len());
                for (k, it) in &map {
                    prop_assert_eq!(table.get(*k), Some(it));
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
}
