//! The endpoints of a tally, by the hash of method and route template: an open-addressing
//! table whose slot keeps an endpoint's counts in the same cache line as its key.
//!
//! Every mutating row updates its endpoint's counts. With a few endpoints that is free; with
//! thousands (an API's route templates) the table outgrows the CPU's nearer caches and a
//! `HashMap` costs a miss for its control bytes and one or two for the entry, whose names and
//! counts lie in several lines. Here a slot is two cache lines, the first holding the key, the
//! counts and whether the slot is used (all a row touches), the second the names (touched once
//! per new endpoint), and a key's slot is known from the key alone, so the row's reader
//! prefetches it as soon as it has hashed the route ([`EndpointMap::prefetch`]), hiding the
//! miss behind the rest of the row's parsing. It offers the part of `HashMap`'s interface the
//! tally's readers use.

use std::fmt;

use super::{Counts, Endpoint};

/// A slot: its first 64 bytes are the key, whether the slot is used, and the endpoint's
/// counts (`Endpoint` is `repr(C)` with its counts first); the names follow.
#[derive(Clone)]
#[repr(C, align(64))]
struct Slot {
    key: u64,
    used: bool,
    ep: Endpoint,
}

const MIN_SLOTS: usize = 16;

/// Tables of this many slots (128 KB) or more are prefetched.
const PREFETCHED_FROM: usize = 1024;

fn empty() -> Slot {
    Slot {
        key: 0,
        used: false,
        ep: Endpoint {
            counts: Counts::default(),
            intents: 0,
            keyed_attempts: 0,
            method: String::new(),
            route: String::new(),
        },
    }
}

/// Endpoints by a well-mixed 64-bit hash (linear probing, at most three quarters full).
#[derive(Clone, Default)]
pub struct EndpointMap {
    /// Empty, or a power of two in length with at least one unused slot.
    slots: Vec<Slot>,
    len: usize,
}

impl EndpointMap {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot holding `key`, or the unused slot where it would go (`slots` not empty).
    #[inline]
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = &self.slots[i];
            if !slot.used {
                return Err(i);
            }
            if slot.key == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(key).ok()
    }

    /// Asks the CPU to bring `key`'s slot (its first line, and the next slot's) into the
    /// cache, when the table is too big to stay there (a few endpoints always are); a hint,
    /// never needed for correctness.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if self.slots.len() >= PREFETCHED_FROM {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = &self.slots[key as usize & (self.slots.len() - 1)];
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch only reads a cache
            // line; it cannot fault or change memory, even past the end of the slots.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(slot.cast());
                _mm_prefetch::<_MM_HINT_T0>(slot.wrapping_add(1).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn contains_key(&self, key: &u64) -> bool {
        self.index(*key).is_some()
    }

    pub fn get(&self, key: &u64) -> Option<&Endpoint> {
        self.index(*key).map(|i| &self.slots[i].ep)
    }

    #[inline]
    pub fn get_mut(&mut self, key: &u64) -> Option<&mut Endpoint> {
        self.index(*key).map(|i| &mut self.slots[i].ep)
    }

    /// `key`'s endpoint, made by `new` when it has none.
    #[inline]
    pub fn get_or_insert_with(
        &mut self,
        key: u64,
        new: impl FnOnce() -> Endpoint,
    ) -> &mut Endpoint {
        if self.slots.is_empty() {
            self.slots = vec![empty(); MIN_SLOTS];
        }
        let i = match self.find(key) {
            Ok(i) => i,
            Err(i) => self.put(i, key, new()),
        };
        &mut self.slots[i].ep
    }

    /// Puts `key`'s endpoint in unused slot `i` (growing the table first when it is full
    /// enough); returns where it went.
    fn put(&mut self, mut i: usize, key: u64, ep: Endpoint) -> usize {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.resize(self.slots.len() * 2);
            i = self.find(key).unwrap_err();
        }
        self.slots[i] = Slot {
            key,
            used: true,
            ep,
        };
        self.len += 1;
        i
    }

    /// Sets `key`'s endpoint, returning the one it replaces.
    pub fn insert(&mut self, key: u64, ep: Endpoint) -> Option<Endpoint> {
        if self.slots.is_empty() {
            self.slots = vec![empty(); MIN_SLOTS];
        }
        match self.find(key) {
            Ok(i) => Some(std::mem::replace(&mut self.slots[i].ep, ep)),
            Err(i) => {
                self.put(i, key, ep);
                None
            }
        }
    }

    fn resize(&mut self, slots: usize) {
        let old = std::mem::replace(&mut self.slots, vec![empty(); slots]);
        for slot in old.into_iter().filter(|s| s.used) {
            let i = self.find(slot.key).unwrap_err();
            self.slots[i] = slot;
        }
    }

    /// Every `(key, endpoint)`, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&u64, &Endpoint)> {
        self.slots
            .iter()
            .filter(|s| s.used)
            .map(|s| (&s.key, &s.ep))
    }

    /// Every endpoint, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &Endpoint> {
        self.iter().map(|(_, ep)| ep)
    }

    /// Takes every `(key, endpoint)` out, leaving the map empty.
    pub fn drain(&mut self) -> impl Iterator<Item = (u64, Endpoint)> + use<> {
        self.len = 0;
        std::mem::take(&mut self.slots)
            .into_iter()
            .filter(|s| s.used)
            .map(|s| (s.key, s.ep))
    }
}

impl PartialEq for EndpointMap {
    /// The same keys with the same endpoints, wherever their slots are.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().all(|(k, ep)| other.get(k) == Some(ep))
    }
}

impl Eq for EndpointMap {}

impl fmt::Debug for EndpointMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn endpoint(n: u64) -> Endpoint {
        Endpoint {
            method: "POST".into(),
            route: format!("/r/{n}"),
            counts: Counts {
                mutating: n,
                ..Counts::default()
            },
            intents: n,
            keyed_attempts: 0,
        }
    }

    #[test]
    fn the_first_line_holds_the_counts() {
        assert_eq!(std::mem::size_of::<Slot>(), 128);
        assert_eq!(
            std::mem::offset_of!(Slot, ep) + std::mem::offset_of!(Endpoint, method),
            64
        );
    }

    proptest::proptest! {
        /// Inserts, lookups, updates and draining agree with a `HashMap`, with colliding keys.
        #[test]
        fn behaves_as_a_hash_map(
            ops in proptest::collection::vec((0u64..64, 0u8..3), 0..400),
            shift in 0u32..60,
        ) {
            let mut ours = EndpointMap::default();
            let mut theirs: HashMap<u64, Endpoint> = HashMap::new();
            for (k, op) in ops {
                // Keys that share their low bits collide in the table.
                let key = k << shift;
                match op {
                    0 => proptest::prop_assert_eq!(
                        ours.insert(key, endpoint(k)),
                        theirs.insert(key, endpoint(k))
                    ),
                    1 => {
                        ours.get_or_insert_with(key, || endpoint(k)).intents += 1;
                        theirs.entry(key).or_insert_with(|| endpoint(k)).intents += 1;
                    }
                    _ => {
                        if let Some(ep) = ours.get_mut(&key) {
                            ep.keyed_attempts += 1;
                        }
                        if let Some(ep) = theirs.get_mut(&key) {
                            ep.keyed_attempts += 1;
                        }
                    }
                }
                proptest::prop_assert_eq!(ours.len(), theirs.len());
                proptest::prop_assert_eq!(ours.contains_key(&key), theirs.contains_key(&key));
                proptest::prop_assert_eq!(ours.get(&key), theirs.get(&key));
            }
            let mut a: Vec<_> = ours.drain().collect();
            let mut b: Vec<_> = theirs.into_iter().collect();
            a.sort_by_key(|(k, _)| *k);
            b.sort_by_key(|(k, _)| *k);
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert!(ours.is_empty());
            proptest::prop_assert_eq!(ours.values().count(), 0);
        }
    }
}
