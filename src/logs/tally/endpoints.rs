//! The endpoints of a tally, by the hash of method and route template: an open-addressing
//! table whose slot is one cache line holding an endpoint's key and counts, its names kept
//! apart.
//!
//! Every mutating row updates its endpoint's counts. With a few endpoints that is free; with
//! thousands (an API's route templates) the table outgrows the CPU's nearer caches and a
//! `HashMap` costs a miss for its control bytes and one or two for the entry, whose names and
//! counts lie in several lines. Here a slot is one cache line, the key, the counts and whether
//! the slot is used (all a row touches); the names, touched once per new endpoint and read
//! once per report, are in a table of their own, slot for slot, so 10,000 endpoints' counts
//! take 1 MB of lines rather than 2 MB with their names between them (measured: the CPU's
//! neighbour-line prefetch brought the names in with the counts). A key's slot is known from
//! the key alone, so the row's reader prefetches it as soon as it has hashed the route
//! ([`EndpointMap::prefetch`]), hiding the miss behind the rest of the row's parsing. It
//! offers the part of `HashMap`'s interface the tally's readers use.

use std::fmt;

use super::{Counts, Endpoint};

/// What a row updates of its endpoint: the counts of an [`Endpoint`] without its names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EndpointCounts {
    pub counts: Counts,
    /// Intents whose first attempt was on this endpoint (keyed and unkeyed).
    pub intents: u64,
    /// Mutating attempts that carried an idempotency key.
    pub keyed_attempts: u64,
}

/// A slot: the key, whether the slot is used, and the endpoint's counts, in one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Slot {
    key: u64,
    used: bool,
    ep: EndpointCounts,
}

/// An endpoint's names: its method and route template.
type Names = (String, String);

const MIN_SLOTS: usize = 16;

/// Tables of this many slots (64 KB) or more are prefetched.
const PREFETCHED_FROM: usize = 1024;

/// Endpoints by a well-mixed 64-bit hash (linear probing, at most three quarters full).
#[derive(Clone, Default)]
pub struct EndpointMap {
    /// Empty, or a power of two in length with at least one unused slot.
    slots: Vec<Slot>,
    /// The names of the endpoint in the slot of the same index.
    names: Vec<Names>,
    len: usize,
}

fn split(ep: Endpoint) -> (EndpointCounts, Names) {
    let Endpoint {
        counts,
        intents,
        keyed_attempts,
        method,
        route,
    } = ep;
    let counts = EndpointCounts {
        counts,
        intents,
        keyed_attempts,
    };
    (counts, (method, route))
}

fn joined(ep: &EndpointCounts, (method, route): Names) -> Endpoint {
    Endpoint {
        counts: ep.counts,
        intents: ep.intents,
        keyed_attempts: ep.keyed_attempts,
        method,
        route,
    }
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

    /// Asks the CPU to bring `key`'s slot (and the next one) into the cache, when the table
    /// is too big to stay there (a few endpoints always are); a hint, never needed for
    /// correctness.
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

    /// `key`'s endpoint, names and all.
    pub fn get(&self, key: &u64) -> Option<Endpoint> {
        self.index(*key)
            .map(|i| joined(&self.slots[i].ep, self.names[i].clone()))
    }

    #[inline]
    pub fn get_mut(&mut self, key: &u64) -> Option<&mut EndpointCounts> {
        self.index(*key).map(|i| &mut self.slots[i].ep)
    }

    /// `key`'s endpoint's counts, the endpoint made by `new` when it has none.
    #[inline]
    pub fn get_or_insert_with(
        &mut self,
        key: u64,
        new: impl FnOnce() -> Endpoint,
    ) -> &mut EndpointCounts {
        if self.slots.is_empty() {
            self.resize(MIN_SLOTS);
        }
        let i = match self.find(key) {
            Ok(i) => i,
            Err(i) => self.put(i, key, new()),
        };
        &mut self.slots[i].ep
    }

    /// Puts `key`'s endpoint in unused slot `i` (growing the table first when it is full
    /// enough); returns where it went.
    #[cold]
    fn put(&mut self, mut i: usize, key: u64, ep: Endpoint) -> usize {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.resize(self.slots.len() * 2);
            i = self.find(key).unwrap_err();
        }
        let (ep, names) = split(ep);
        self.slots[i] = Slot {
            key,
            used: true,
            ep,
        };
        self.names[i] = names;
        self.len += 1;
        i
    }

    /// Sets `key`'s endpoint, returning the one it replaces.
    pub fn insert(&mut self, key: u64, ep: Endpoint) -> Option<Endpoint> {
        if self.slots.is_empty() {
            self.resize(MIN_SLOTS);
        }
        match self.find(key) {
            Ok(i) => {
                let (counts, names) = split(ep);
                let old_counts = std::mem::replace(&mut self.slots[i].ep, counts);
                let old_names = std::mem::replace(&mut self.names[i], names);
                Some(joined(&old_counts, old_names))
            }
            Err(i) => {
                self.put(i, key, ep);
                None
            }
        }
    }

    fn resize(&mut self, slots: usize) {
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); slots]);
        let mut old_names = std::mem::replace(&mut self.names, vec![Names::default(); slots]);
        for (slot, names) in old.into_iter().zip(&mut old_names).filter(|(s, _)| s.used) {
            let i = self.find(slot.key).unwrap_err();
            self.slots[i] = slot;
            self.names[i] = std::mem::take(names);
        }
    }

    /// Every `(key, endpoint)`, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Endpoint)> + '_ {
        self.slots
            .iter()
            .zip(&self.names)
            .filter(|(s, _)| s.used)
            .map(|(s, names)| (s.key, joined(&s.ep, names.clone())))
    }

    /// Every endpoint, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = Endpoint> + '_ {
        self.iter().map(|(_, ep)| ep)
    }

    /// Takes every `(key, endpoint)` out, leaving the map empty.
    pub fn drain(&mut self) -> impl Iterator<Item = (u64, Endpoint)> + use<> {
        self.len = 0;
        std::mem::take(&mut self.slots)
            .into_iter()
            .zip(std::mem::take(&mut self.names))
            .filter(|(s, _)| s.used)
            .map(|(s, names)| (s.key, joined(&s.ep, names)))
    }
}

impl PartialEq for EndpointMap {
    /// The same keys with the same endpoints, wherever their slots are.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().all(|(k, ep)| other.get(&k) == Some(ep))
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
    fn a_slot_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 64);
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
                proptest::prop_assert_eq!(ours.get(&key), theirs.get(&key).cloned());
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
