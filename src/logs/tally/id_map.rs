//! Maps keyed by a 64-bit hash that is already well mixed: the open intents, the endpoints and
//! the request ids of the backend-log join. A leaf.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys are already well-mixed 64-bit hashes: hashing them again would be waste.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by a 64-bit hash.
pub type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;
