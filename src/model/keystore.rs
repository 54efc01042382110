//! Bytes a real key store uses per idempotency key (docs/MODEL.md, "Key store by backend").
//!
//! A first model from public knowledge of the two servers' data structures, **not yet
//! measured** against running servers: the calibration against real Redis and PostgreSQL
//! (`bench/keystore.sh`) replaces the constants and terms here. Every byte model of a store
//! lives in this file, and nothing else in the crate depends on its insides.
//!
//! Both functions are pure, finite and non-negative for finite non-negative inputs, and
//! never decrease when an argument grows (tests/keystore_props.rs).

/// The key as Redis stores it: `idem:` before the client's key.
const REDIS_KEY_PREFIX: f64 = 5.0;
/// The saved value besides the body: status (3 digits), a SHA-256 request hash in hex (64)
/// and two separators.
const SAVED_VALUE_OVERHEAD: f64 = 3.0 + 64.0 + 2.0;
/// A dict entry (key pointer, value pointer, next pointer), in the main dict and again in the
/// expires dict (Redis 7, 64-bit).
const REDIS_DICT_ENTRY: f64 = 24.0;
/// The value's object header (`robj`).
const REDIS_OBJECT: f64 = 16.0;
/// Strings up to this length are stored with their object in one allocation (`embstr`).
const REDIS_EMBSTR_MAX: f64 = 44.0;
/// A bucket pointer of a dict's hash table.
const REDIS_BUCKET: f64 = 8.0;

/// Bytes a Redis instance uses for `live_keys` idempotency keys stored as
/// `SET idem:<key> <value> EX <ttl> NX`, where the key is `key_bytes` long and the value
/// holds the saved response of `body_bytes` (plus status and request hash).
///
/// Per key: the key's sds string, a main-dict entry, the value's object and sds string, an
/// expires-dict entry, each rounded up to jemalloc's size class; plus the two dicts' bucket
/// arrays (a power of two at least the number of keys, 8 bytes a bucket). Over an empty
/// instance: the instance's own baseline (about 1 MB) is left out.
pub fn redis_bytes(live_keys: f64, key_bytes: f64, body_bytes: f64) -> f64 {
    let keys = live_keys.ceil();
    let key = jemalloc(sds(REDIS_KEY_PREFIX + key_bytes));
    let value_len = body_bytes + SAVED_VALUE_OVERHEAD;
    let value = if value_len <= REDIS_EMBSTR_MAX {
        jemalloc(REDIS_OBJECT + sds(value_len))
    } else {
        jemalloc(REDIS_OBJECT) + jemalloc(sds(value_len))
    };
    let per_key = key + value + 2.0 * REDIS_DICT_ENTRY;
    let buckets = if keys >= 1.0 {
        next_power_of_two(keys)
    } else {
        0.0
    };
    keys * per_key + 2.0 * REDIS_BUCKET * buckets
}

/// An sds string of `len` bytes: header (3, 5 or 9 bytes by length class) and a final NUL.
fn sds(len: f64) -> f64 {
    let header = if len < 256.0 {
        3.0
    } else if len < 65_536.0 {
        5.0
    } else {
        9.0
    };
    header + len + 1.0
}

/// jemalloc's size class for a request of `size` bytes: 8, 16, then steps of 16 up to 128,
/// then four classes per doubling (160, 192, 224, 256, 320, ...).
fn jemalloc(size: f64) -> f64 {
    if size <= 8.0 {
        return 8.0;
    }
    if size <= 128.0 {
        return (size / 16.0).ceil() * 16.0;
    }
    let group = (size - 1.0).log2().floor(); // size in (2^group, 2^(group+1)]
    let step = (group - 2.0).exp2();
    (size / step).ceil() * step
}

fn next_power_of_two(n: f64) -> f64 {
    let p = n.log2().ceil().exp2();
    // log2 of an exact power of two can round up by one.
    if p / 2.0 >= n { p / 2.0 } else { p }
}

/// A PostgreSQL page.
const PAGE: f64 = 8192.0;
/// Page header (24) and a B-tree page's special space (16).
const HEAP_PAGE_USABLE: f64 = PAGE - 24.0;
const INDEX_PAGE_USABLE: f64 = PAGE - 24.0 - 16.0;
/// A heap tuple's header (23 bytes, aligned to 24) and its line pointer.
const TUPLE_HEADER: f64 = 24.0;
const LINE_POINTER: f64 = 4.0;
/// The columns of the article's table besides the key and the body: `request_hash bytea`
/// (32 bytes and a 1-byte header), `state text` ('done': 5), `status int` (4, aligned) and
/// `claimed_at timestamptz` (8, aligned).
const FIXED_COLUMNS: f64 = 33.0 + 5.0 + 4.0 + 8.0;
/// Padding the column alignments add, on average.
const ALIGNMENT_PADDING: f64 = 4.0;
/// jsonb's own header and entry table over the text's size, for a small object.
const JSONB_OVERHEAD: f64 = 4.0 + 16.0;
/// A row is moved to TOAST past this size (TOAST_TUPLE_THRESHOLD for 8 kB pages).
const TOAST_THRESHOLD: f64 = 2032.0;
/// The pointer left in the row for a TOASTed value.
const TOAST_POINTER: f64 = 18.0;
/// Data bytes per TOAST chunk, and a chunk row's overhead (header, chunk_id, chunk_seq, varlena).
const TOAST_CHUNK: f64 = 1996.0;
const TOAST_CHUNK_OVERHEAD: f64 = 24.0 + 4.0 + 4.0 + 4.0;
/// Dead rows the sweeper's deletes leave until autovacuum reclaims them: autovacuum runs at
/// 20% dead rows (autovacuum_vacuum_scale_factor), so the heap carries up to that much more.
const DELETE_BLOAT: f64 = 1.2;
/// B-tree leaf fill: random keys (UUIDs) leave pages about ln 2 full after splits; the
/// increasing `claimed_at` fills pages to the 90% fill factor.
const RANDOM_BTREE_FILL: f64 = 0.69;
const INCREASING_BTREE_FILL: f64 = 0.9;
/// An index tuple's header.
const INDEX_TUPLE_HEADER: f64 = 8.0;
/// Pages every such table has whatever its rows: the two indexes' metapages, the TOAST
/// index's metapage, the free-space map (3 pages) and the visibility map.
const FIXED_PAGES: f64 = 3.0 + 3.0 + 1.0;

/// Bytes of the `idempotency_keys` table with its two indexes (pg_total_relation_size) for
/// `live_keys` rows, at steady state with the sweeper deleting expired rows.
///
/// Heap: pages of rows (tuple header, line pointer, the columns, MAXALIGN), with the
/// body inline as jsonb up to the TOAST threshold and in 1996-byte TOAST chunks past it
/// (incompressible bodies assumed: pglz would shrink repetitive JSON); times the sweeper's
/// bloat. Indexes: the primary key on `key` and the index on `claimed_at`, at their leaf fill.
pub fn postgres_bytes(live_keys: f64, key_bytes: f64, body_bytes: f64) -> f64 {
    let key_column = varlena(key_bytes);
    let body = body_bytes + JSONB_OVERHEAD;
    let inline_row = TUPLE_HEADER + key_column + FIXED_COLUMNS + ALIGNMENT_PADDING;
    let (row, toast_per_row) = if maxalign(inline_row + varlena(body)) <= TOAST_THRESHOLD {
        (maxalign(inline_row + varlena(body)), 0.0)
    } else {
        (maxalign(inline_row + TOAST_POINTER), toast_bytes(body))
    };
    let rows_per_page = (HEAP_PAGE_USABLE / (row + LINE_POINTER)).floor().max(1.0);
    // Fractional pages: whole ones would make a row that is TOASTed look cheaper than the
    // inline row just below the threshold for a handful of keys (the last page's rounding).
    let heap = live_keys / rows_per_page * PAGE;
    let toast = live_keys * toast_per_row * PAGE / HEAP_PAGE_USABLE;
    let primary_key = index_bytes(live_keys, key_column, RANDOM_BTREE_FILL);
    let claimed_at = index_bytes(live_keys, 8.0, INCREASING_BTREE_FILL);
    (heap + toast) * DELETE_BLOAT + primary_key + claimed_at + FIXED_PAGES * PAGE
}

/// A varlena value of `len` bytes: a 1-byte header up to 126 bytes, else 4.
fn varlena(len: f64) -> f64 {
    if len <= 126.0 { len + 1.0 } else { len + 4.0 }
}

fn maxalign(len: f64) -> f64 {
    (len / 8.0).ceil() * 8.0
}

/// Heap bytes of one value's TOAST chunks, line pointers included (4 chunks fill a page).
fn toast_bytes(len: f64) -> f64 {
    let whole = (len / TOAST_CHUNK).floor();
    let rest = len - whole * TOAST_CHUNK;
    let chunk = |data: f64| maxalign(TOAST_CHUNK_OVERHEAD + data) + LINE_POINTER;
    let last = if rest > 0.0 { chunk(rest) } else { 0.0 };
    // Each chunk also has an entry in the TOAST table's (chunk_id, chunk_seq) index.
    let chunks = whole + f64::from(u8::from(rest > 0.0));
    whole * chunk(TOAST_CHUNK) + last + chunks * (INDEX_TUPLE_HEADER + 8.0 + LINE_POINTER)
}

/// A B-tree of `entries` keys of `key_len` bytes at leaf fill `fill` (inner pages are about
/// 1% more and are left out).
fn index_bytes(entries: f64, key_len: f64, fill: f64) -> f64 {
    let entry = maxalign(INDEX_TUPLE_HEADER + key_len) + LINE_POINTER;
    (entries * entry / (INDEX_PAGE_USABLE * fill)).ceil() * PAGE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jemalloc_classes() {
        let cases = [
            (1.0, 8.0),
            (9.0, 16.0),
            (45.0, 48.0),
            (128.0, 128.0),
            (129.0, 160.0),
            (975.0, 1024.0),
            (1025.0, 1280.0),
        ];
        for (size, class) in cases {
            assert_eq!(jemalloc(size), class, "{size}");
        }
        assert_eq!(next_power_of_two(20_000.0), 32_768.0);
        assert_eq!(next_power_of_two(1024.0), 1024.0);
        assert_eq!(next_power_of_two(1.0), 1.0);
    }

    #[test]
    fn article_defaults() {
        // 20,000 keys of 36 bytes with a 900-byte body.
        let redis = redis_bytes(20_000.0, 36.0, 900.0);
        assert_eq!(
            redis,
            20_000.0 * (48.0 + 16.0 + 1024.0 + 48.0) + 16.0 * 32_768.0
        );
        let pg = postgres_bytes(20_000.0, 36.0, 900.0);
        assert!(pg > 20_000.0 * 900.0 && pg < 20_000.0 * 2_000.0, "{pg}");
    }
}
