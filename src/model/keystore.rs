//! Bytes of the idempotency key store in Redis and in Postgres, for `live_keys` live keys.
//!
//! Pure arithmetic, no I/O. Both models count what the servers count: Redis's `used_memory`
//! (every allocation at its jemalloc size class) and Postgres's `pg_total_relation_size`
//! (whole 8 kB pages of every relation and fork). `bench/keystore.sh` and
//! `tests/keystore/real.rs` hold them against real servers; the measured table and the
//! derivations are in docs/KEYSTORE.md. Sources are Redis 7.0 (`src/server.h`,
//! `src/object.c`, `src/sds.c`, `src/dict.c`, `src/db.c`) with jemalloc 5.3, and
//! PostgreSQL 15 (`src/include/access/htup_details.h`, `heaptoast.h`, `nbtree.h`,
//! `storage/bufpage.h`, `fsm_internals.h`, `access/common/heaptuple.c`,
//! `access/heap/heaptoast.c`). Inputs may be fractional (a mean key or body size, a live-key
//! count from a rate); byte lengths are rounded up to whole bytes where the servers count
//! whole bytes.
//!
//! # Redis: `SET idem:<key> <value> EX <ttl> NX`
//!
//! Per key, each allocation rounded up to its jemalloc size class (`jemalloc_size`: 8,
//! then multiples of 16 up to 128, then four classes per doubling: 160, 192, 224, 256, 320,
//! ...; Redis's `zmalloc` counts the class, `je_malloc_usable_size`):
//! - two `dictEntry`s of 24 bytes (key, value and next pointers), class 32: one in the
//!   keyspace dict, one in the expires dict (whose entry shares the key's `sds` and holds the
//!   expiry time in its value union, `db.c: setExpire`);
//! - the key `idem:<key>`, copied into an `sds` (`db.c: dbAdd` calls `sdsdup`): a header of
//!   1, 3, 5, 9 or 17 bytes by length (`sdsReqType`: under 32, 256, 2^16, 2^32 bytes), the
//!   bytes and a NUL;
//! - the value, `{"status":201,"request_hash":"<sha256 hex>","body":<body>}`: the body plus
//!   `REDIS_VALUE_ENVELOPE` bytes. Up to 44 bytes a string is `embstr`, one allocation of
//!   the 16-byte `robj`, a 3-byte `sdshdr8`, the bytes and a NUL (`object.c:
//!   OBJ_ENCODING_EMBSTR_SIZE_LIMIT`); longer it is `raw`, a 16-byte `robj` and a separate
//!   `sds` (with the envelope alone over 44 bytes, the value is always `raw` here).
//!
//! Once, for the table: the keyspace and the expires dicts each have a bucket array of 8-byte
//! pointers whose length is the power of two at or above the key count (at least 4,
//! `dict.c: _dictExpandIfNeeded`). The empty database's `used_memory` is the baseline the
//! bench subtracts; with it subtracted the model is within 50 kB of `used_memory` at every
//! measured size (to the byte at most), see docs/KEYSTORE.md.
//!
//! # Postgres: the article's `idempotency_keys` table (bench/keystore/schema.sql)
//!
//! A row is `key text` (the key), `request_hash text` (64 hex bytes), `state text`
//! (`completed`, 9 bytes), `response_status integer`, `response_body jsonb` and
//! `claimed_at timestamptz`; a B-tree on `key` (the primary key) and one on `claimed_at` (the
//! sweeper's). Its heap tuple (`row_layout`) is a 23-byte header padded to MAXALIGN (8),
//! then each column at its alignment: a `text`/`jsonb` of up to 126 bytes has a 1-byte header
//! and no padding, a longer one a 4-byte header aligned to 4; the integer aligned to 4, the
//! timestamp to 8; the tuple is padded to 8 and takes a 4-byte item pointer. Pages are 8192
//! bytes less a 24-byte header, filled to 100% (the heap's default fill factor).
//!
//! `jsonb` is larger than the JSON text: every key and value has a 4-byte `JEntry` and numbers
//! are `numeric`s. For the bench's realistic order JSON (an id, a status, an amount and line
//! items of SKU, name, quantity and price, see schema.sql) the datum is
//! `JSONB_PER_BODY_BYTE` x body + `JSONB_FIXED` bytes (fitted to `pg_column_size` over
//! bodies of 50 B to 50 kB, within 5%). Past `TOAST_TUPLE_THRESHOLD` (a 2032-byte tuple),
//! Postgres compresses the body with pglz (`default_toast_compression`); our bodies shrink to
//! `PGLZ_PER_BODY_BYTE` x body + `PGLZ_FIXED` bytes (fitted the same way: the repeated field
//! names and product words compress, the ids and hex do not). If the compressed row fits in
//! 2032 bytes it stays in the heap; otherwise the compressed body moves to the TOAST table in
//! chunks of 1996 bytes (`TOAST_MAX_CHUNK_SIZE`), each a row of its own (a 24-byte header,
//! `chunk_id oid`, `chunk_seq int4`, `chunk_data bytea`), packed into pages in insertion order
//! (`toast_pages_per_value`), and the heap keeps an 18-byte pointer. A body that does not
//! compress (random bytes, already-compressed data) would be stored at its `jsonb` size
//! instead: for a 10 kB body about 14 kB of TOAST rather than about 4 kB (see
//! docs/KEYSTORE.md).
//!
//! Index entries are an 8-byte `IndexTupleData` and the key, padded to 8, plus a 4-byte item
//! pointer, on pages of 8192 bytes less 24 of header and 16 of B-tree special space. Random
//! keys (UUIDs) split leaves in the middle, so the primary key's leaves are
//! `RANDOM_LEAF_FILL` full (measured at steady state; the textbook ln 2 = 69% is for inserts
//! alone). `claimed_at` only grows, so its leaves split at the right edge and are left 90%
//! full (`BTREE_DEFAULT_FILLFACTOR`); so is the TOAST index (`chunk_id`s are ascending OIDs).
//! Inner pages hold one entry per page below at 70% (`BTREE_NONLEAF_FILLFACTOR`); each index
//! has a metapage.
//!
//! Steady state: the sweeper deletes expired rows every `SWEEP_FRACTION` of the TTL (hourly
//! for a 24-hour TTL) and `VACUUM` runs after it, so just before a sweep the table holds the
//! live keys plus one sweep's worth of expired rows; the space stays allocated and is reused,
//! so every relation is sized for `live_keys x (1 + SWEEP_FRACTION)` rows. The `claimed_at`
//! and TOAST indexes also hold the pages the previous sweep emptied until the next `VACUUM`
//! recycles them: another sweep's worth. Vacuumed relations get a free-space map (3 pages and
//! one more per 4069 pages) and the heaps a visibility map (a page per 32672 pages).
//!
//! Real TOAST is not monotone in the body: a row just past the threshold is compressed and
//! becomes smaller than the largest uncompressed one, so the table shrinks there as the body
//! grows. `postgres_bytes` follows the server, not a monotone envelope (an envelope measured 2x
//! the real table at 1.5 kB and 1.27x at 3 kB): it is monotone in the live keys, and in the
//! body and key only on either side of that step. In the band of about 1.4 to 5 kB it reads
//! 6 to 13% low (measured), because compression depends on the body's content.

/// `idem:`, the article's key prefix.
const REDIS_KEY_PREFIX: f64 = 5.0;
/// `{"status":201,"request_hash":"` + 64 hex + `","body":` + `}` around the saved body.
const REDIS_VALUE_ENVELOPE: f64 = 104.0;
/// `sizeof(dictEntry)` in Redis 7.0: key, value and next pointers.
const DICT_ENTRY: f64 = 24.0;
/// `sizeof(robj)`: type, encoding, LRU, refcount and pointer.
const REDIS_OBJECT: f64 = 16.0;
/// `OBJ_ENCODING_EMBSTR_SIZE_LIMIT`: longer strings are `raw`.
const EMBSTR_MAX: f64 = 44.0;
/// `sizeof(struct sdshdr8)`, the header an `embstr` always uses.
const SDSHDR8: f64 = 3.0;
/// A bucket of a dict's hash table: one pointer.
const DICT_BUCKET: f64 = 8.0;
/// `DICT_HT_INITIAL_SIZE`.
const DICT_MIN_BUCKETS: f64 = 4.0;

/// `BLCKSZ`.
const PAGE: f64 = 8192.0;
/// `SizeOfPageHeaderData`.
const PAGE_HEADER: f64 = 24.0;
/// `sizeof(ItemIdData)`: the line pointer of every tuple.
const ITEM_POINTER: f64 = 4.0;
/// `MAXIMUM_ALIGNOF` on 64-bit platforms.
const MAXALIGN: f64 = 8.0;
/// `SizeofHeapTupleHeader`; no row has a NULL, so there is no null bitmap.
const HEAP_TUPLE_HEADER: f64 = 23.0;
/// `sizeof(BTPageOpaqueData)`, the B-tree special space at a page's end.
const BTREE_SPECIAL: f64 = 16.0;
/// `sizeof(IndexTupleData)`.
const INDEX_TUPLE_HEADER: f64 = 8.0;
/// `MaxHeapTuplesPerPage` for 8 kB pages.
const MAX_HEAP_TUPLES_PER_PAGE: f64 = 291.0;
/// `TOAST_TUPLE_THRESHOLD` (and `TOAST_TUPLE_TARGET`): longer tuples are compressed, then moved out.
const TOAST_TUPLE_THRESHOLD: f64 = 2032.0;
/// `TOAST_MAX_CHUNK_SIZE`: the data of one TOAST row.
const TOAST_CHUNK: f64 = 1996.0;
/// `VARHDRSZ`: a long varlena's header; a compressed datum's also holds 4 bytes of raw size.
const VARHDRSZ: f64 = 4.0;
/// `VARATT_SHORT_MAX` less its 1-byte header: the longest datum with a short header.
const SHORT_VARLENA_MAX_DATA: f64 = 126.0;
/// `TOAST_POINTER_SIZE`: what stays in the heap of a moved-out value.
const TOAST_POINTER: f64 = 18.0;
/// A SHA-256 in hex.
const REQUEST_HASH: f64 = 64.0;
/// `completed`, the state of a saved response.
const STATE: f64 = 9.0;
/// `integer` and `timestamptz`.
const INT4: f64 = 4.0;
const TIMESTAMPTZ: f64 = 8.0;
/// `jsonb` datum bytes per byte of the body's JSON text (measured, bench/keystore/schema.sql bodies).
const JSONB_PER_BODY_BYTE: f64 = 1.4065;
/// `jsonb` datum bytes beyond the proportional part, header included (measured).
const JSONB_FIXED: f64 = -10.6;
/// The smallest `jsonb` datum: `{}` (a header and an empty object).
const JSONB_MIN: f64 = 8.0;
/// pglz-compressed `jsonb` datum bytes per byte of body text (measured, same bodies).
const PGLZ_PER_BODY_BYTE: f64 = 0.2965;
/// pglz-compressed datum bytes beyond the proportional part, headers included (measured).
const PGLZ_FIXED: f64 = 290.0;
/// Leaf fill of a B-tree on random keys at steady state (measured: 62-63% at 10k-1M keys).
const RANDOM_LEAF_FILL: f64 = 0.63;
/// `BTREE_DEFAULT_FILLFACTOR`: leaves left by splits at the right edge.
const RIGHTMOST_LEAF_FILL: f64 = 0.90;
/// `BTREE_NONLEAF_FILLFACTOR`.
const INNER_FILL: f64 = 0.70;
/// The sweeper runs every 1/24 of the TTL (hourly for 24 hours).
const SWEEP_FRACTION: f64 = 1.0 / 24.0;
/// `SlotsPerFSMPage`: heap pages one free-space-map leaf page covers.
const FSM_SLOTS_PER_PAGE: f64 = 4069.0;
/// Heap pages one visibility-map page covers (2 bits each in 8168 bytes).
const VM_HEAP_PAGES_PER_PAGE: f64 = 32672.0;

/// Bytes a Redis instance uses for `live_keys` idempotency keys stored as
/// `SET idem:<key> <value> EX <ttl> NX`, where the key is `key_bytes` long and the value
/// holds the saved response of `body_bytes` (plus status and request hash).
pub fn redis_bytes(live_keys: f64, key_bytes: f64, body_bytes: f64) -> f64 {
    let (live_keys, key_bytes, body_bytes) = (size(live_keys), size(key_bytes), size(body_bytes));
    if live_keys == 0.0 {
        return 0.0;
    }
    let entries = 2.0 * jemalloc_size(DICT_ENTRY);
    let key = jemalloc_size(sds_bytes(REDIS_KEY_PREFIX + key_bytes));
    let value = string_object_bytes(REDIS_VALUE_ENVELOPE + body_bytes);
    let buckets = 2.0 * DICT_BUCKET * dict_buckets(live_keys);
    (live_keys * (entries + key + value) + buckets).min(f64::MAX)
}

/// Bytes of the `idempotency_keys` table with its two indexes (pg_total_relation_size) for
/// `live_keys` rows, at steady state with the sweeper deleting expired rows.
pub fn postgres_bytes(live_keys: f64, key_bytes: f64, body_bytes: f64) -> f64 {
    let (live_keys, key_bytes, body_bytes) = (size(live_keys), size(key_bytes), size(body_bytes));
    if live_keys == 0.0 {
        return 0.0;
    }
    let layout = row_layout(key_bytes, body_bytes);
    // The physical size, also past the TOAST threshold where it drops (module doc).
    table_bytes(live_keys, key_bytes, &layout).min(f64::MAX)
}

/// A non-negative finite size from any input (NaN and negatives are 0, infinities the largest).
fn size(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, f64::MAX)
    }
}

/// The jemalloc size class `bytes` is served from (x86-64, 16-byte quantum, 4 classes per
/// doubling), which `used_memory` counts.
fn jemalloc_size(bytes: f64) -> f64 {
    let bytes = bytes.ceil();
    if bytes <= 8.0 {
        8.0
    } else if bytes <= 128.0 {
        round_up(bytes, 16.0)
    } else if bytes >= 2f64.powi(62) {
        bytes
    } else {
        // 2^k < bytes <= 2^(k+1): classes are 2^(k-2) apart.
        let k = 63 - ((bytes as u64) - 1).leading_zeros();
        round_up(bytes, 2f64.powi(k as i32 - 2))
    }
}

/// An `sds` string's allocation request: header by length (`sdsReqType`), bytes and a NUL.
fn sds_bytes(len: f64) -> f64 {
    let len = len.ceil();
    let header = if len < 32.0 {
        1.0
    } else if len < 256.0 {
        3.0
    } else if len < 65_536.0 {
        5.0
    } else if len < 4_294_967_296.0 {
        9.0
    } else {
        17.0
    };
    header + len + 1.0
}

/// A string value's bytes: `embstr` up to 44 bytes (one allocation), else `robj` plus `sds`.
fn string_object_bytes(len: f64) -> f64 {
    let len = len.ceil();
    if len <= EMBSTR_MAX {
        jemalloc_size(REDIS_OBJECT + SDSHDR8 + len + 1.0)
    } else {
        jemalloc_size(REDIS_OBJECT) + jemalloc_size(sds_bytes(len))
    }
}

/// Buckets of a dict holding `keys` keys: the power of two at or above it, at least 4.
fn dict_buckets(keys: f64) -> f64 {
    if keys <= 0.0 {
        0.0
    } else {
        2f64.powi(keys.log2().ceil() as i32).max(DICT_MIN_BUCKETS)
    }
}

fn round_up(x: f64, to: f64) -> f64 {
    (x / to).ceil() * to
}

/// How one row is stored: its heap tuple and what it has in the TOAST table.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RowLayout {
    /// The heap tuple, MAXALIGNed, without its item pointer.
    heap_tuple: f64,
    /// Bytes of the body moved out to the TOAST table (0 if inline).
    toast_value: f64,
    /// Whether the row passed the TOAST threshold (compressed, maybe moved out).
    toasted: bool,
}

/// Adds a varlena of `data` bytes at `offset`: short header if it fits, else aligned to 4.
fn add_varlena(offset: f64, data: f64) -> f64 {
    if data <= SHORT_VARLENA_MAX_DATA {
        offset + 1.0 + data
    } else {
        round_up(offset, 4.0) + VARHDRSZ + data
    }
}

/// The `jsonb` datum of a body of `body_bytes` of JSON text, header included.
fn jsonb_bytes(body_bytes: f64) -> f64 {
    (JSONB_PER_BODY_BYTE * body_bytes + JSONB_FIXED)
        .ceil()
        .max(JSONB_MIN)
}

/// The pglz-compressed `jsonb` datum, headers included.
fn compressed_jsonb_bytes(body_bytes: f64) -> f64 {
    (PGLZ_PER_BODY_BYTE * body_bytes + PGLZ_FIXED).ceil()
}

fn row_layout(key_bytes: f64, body_bytes: f64) -> RowLayout {
    // The columns before the body: header, key, request hash, state, status.
    let mut before = round_up(HEAP_TUPLE_HEADER, MAXALIGN);
    before = add_varlena(before, key_bytes.ceil());
    before = add_varlena(before, REQUEST_HASH);
    before = add_varlena(before, STATE);
    before = round_up(before, INT4) + INT4;
    let finish = |after_body: f64| round_up(round_up(after_body, MAXALIGN) + TIMESTAMPTZ, MAXALIGN);

    let jsonb = jsonb_bytes(body_bytes);
    let raw = finish(add_varlena(before, jsonb - VARHDRSZ));
    if raw <= TOAST_TUPLE_THRESHOLD {
        return RowLayout {
            heap_tuple: raw,
            toast_value: 0.0,
            toasted: false,
        };
    }
    // A compressed datum always has the 4-byte header.
    let compressed = compressed_jsonb_bytes(body_bytes).min(jsonb);
    let inline = finish(round_up(before, 4.0) + compressed);
    if inline <= TOAST_TUPLE_THRESHOLD {
        RowLayout {
            heap_tuple: inline,
            toast_value: 0.0,
            toasted: true,
        }
    } else {
        RowLayout {
            heap_tuple: finish(before + TOAST_POINTER),
            toast_value: compressed - VARHDRSZ,
            toasted: true,
        }
    }
}

/// The line pointer and tuple of one TOAST chunk holding `data` bytes.
fn toast_chunk_bytes(data: f64) -> f64 {
    // Header, chunk_id oid and chunk_seq int4, then the bytea.
    let tuple = add_varlena(round_up(HEAP_TUPLE_HEADER, MAXALIGN) + 4.0 + 4.0, data);
    round_up(tuple, MAXALIGN) + ITEM_POINTER
}

/// TOAST chunks of a value of `value` bytes.
fn toast_chunks(value: f64) -> f64 {
    (value / TOAST_CHUNK).ceil()
}

/// TOAST heap pages per value of `value` bytes: its chunks (full ones, then the rest) placed
/// one after another, each on the current page if it fits and on a new page otherwise, as
/// `heap_insert` does for a table that only grows at its end. The placement repeats with the
/// page's fill at the start of a value; the pages per value are averaged over one period.
fn toast_pages_per_value(value: f64) -> f64 {
    if value <= 0.0 {
        return 0.0;
    }
    let full = (value / TOAST_CHUNK).floor();
    let rest = value % TOAST_CHUNK;
    let usable = PAGE - PAGE_HEADER;
    let full_chunk = toast_chunk_bytes(TOAST_CHUNK);
    // Whole pages of full chunks first, then the few left over are placed like the rest.
    let per_page = (usable / full_chunk).floor();
    let whole_pages = (full / per_page).floor();
    let mut chunks = vec![full_chunk; (full % per_page) as usize];
    if rest > 0.0 {
        chunks.push(toast_chunk_bytes(rest));
    }
    // Simulate values until the fill at the start of a value repeats. Chunks are whole bytes,
    // so the fill is one of at most 8169 values.
    let mut seen: Vec<Option<(f64, f64)>> = vec![None; usable as usize + 1]; // values, pages
    let (mut fill, mut pages, mut values) = (usable, 0.0, 0.0); // `usable`: no open page
    loop {
        let slot = &mut seen[fill as usize];
        if let Some((values_then, pages_then)) = *slot {
            return whole_pages + (pages - pages_then) / (values - values_then);
        }
        *slot = Some((values, pages));
        for &chunk in &chunks {
            if fill + chunk > usable {
                pages += 1.0;
                fill = 0.0;
            }
            fill += chunk;
        }
        values += 1.0;
    }
}

/// Pages of a B-tree of `entries` entries of `entry` bytes (line pointer included) whose
/// leaves are `leaf_fill` full: leaves, inner levels up to one root, and the metapage.
fn btree_pages(entries: f64, entry: f64, leaf_fill: f64) -> f64 {
    let usable = PAGE - PAGE_HEADER - BTREE_SPECIAL;
    let mut level = (entries * entry / (usable * leaf_fill)).ceil().max(1.0);
    let mut pages = level;
    let fanout = (usable * INNER_FILL / entry).floor().max(2.0);
    while level > 1.0 && level.is_finite() {
        level = (level / fanout).ceil();
        pages += level;
    }
    pages + 1.0
}

/// An index entry holding a key of `key` bytes (a varlena if `varlena`), with its line pointer.
fn index_entry(key: f64, varlena: bool) -> f64 {
    let tuple = if varlena {
        add_varlena(INDEX_TUPLE_HEADER, key)
    } else {
        INDEX_TUPLE_HEADER + key
    };
    round_up(tuple, MAXALIGN) + ITEM_POINTER
}

/// Free-space-map pages of a vacuumed relation of `pages` pages.
fn fsm_pages(pages: f64) -> f64 {
    if pages <= 0.0 {
        0.0
    } else {
        3.0 + ((pages - 1.0) / FSM_SLOTS_PER_PAGE).floor()
    }
}

/// Visibility-map pages of a vacuumed heap of `pages` pages.
fn vm_pages(pages: f64) -> f64 {
    (pages / VM_HEAP_PAGES_PER_PAGE).ceil()
}

/// `pg_total_relation_size` of the table at steady state, for rows laid out as `row`.
fn table_bytes(live_keys: f64, key_bytes: f64, row: &RowLayout) -> f64 {
    let rows = live_keys * (1.0 + SWEEP_FRACTION);
    // Rows still awaiting the next VACUUM's page recycling in the append-only indexes.
    let appended = live_keys * (1.0 + 2.0 * SWEEP_FRACTION);

    let rows_per_page = ((PAGE - PAGE_HEADER) / (row.heap_tuple + ITEM_POINTER))
        .floor()
        .clamp(1.0, MAX_HEAP_TUPLES_PER_PAGE);
    let heap = (rows / rows_per_page).ceil();
    let heap_forks = fsm_pages(heap) + vm_pages(heap);

    let primary_key = btree_pages(rows, index_entry(key_bytes.ceil(), true), RANDOM_LEAF_FILL);
    let claimed_at = btree_pages(
        appended,
        index_entry(TIMESTAMPTZ, false),
        RIGHTMOST_LEAF_FILL,
    );
    let sweeper_index = claimed_at + fsm_pages(claimed_at);

    // The TOAST table always exists; empty, it is its index's metapage.
    let toast = if row.toast_value > 0.0 {
        let toast_heap = (rows * toast_pages_per_value(row.toast_value)).ceil();
        let chunks = appended * toast_chunks(row.toast_value);
        let toast_index = btree_pages(chunks, index_entry(8.0, false), RIGHTMOST_LEAF_FILL);
        toast_heap
            + fsm_pages(toast_heap)
            + vm_pages(toast_heap)
            + toast_index
            + fsm_pages(toast_index)
    } else {
        1.0
    };
    PAGE * (heap + heap_forks + primary_key + sweeper_index + toast)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The article's key: a UUID as text.
    const UUID: f64 = 36.0;

    fn within(model: f64, measured: f64, share: f64) -> bool {
        (model - measured).abs() <= share * measured
    }

    #[test]
    fn jemalloc_classes() {
        let requests = [
            1.0, 8.0, 9.0, 24.0, 45.0, 128.0, 129.0, 208.0, 257.0, 1110.0, 10110.0, 16385.0,
        ];
        let classes: Vec<f64> = requests.iter().map(|&b| jemalloc_size(b)).collect();
        assert_eq!(
            classes,
            [
                8.0, 8.0, 16.0, 32.0, 48.0, 128.0, 160.0, 224.0, 320.0, 1280.0, 10240.0, 20480.0
            ]
        );
    }

    #[test]
    fn redis_strings_embstr_then_raw() {
        // embstr: 16 + 3 + 44 + 1 = 64; raw: 16 + class(3 + 45 + 1 = 49) = 16 + 64.
        assert_eq!(string_object_bytes(44.0), 64.0);
        assert_eq!(string_object_bytes(45.0), 80.0);
        // The key `idem:` + 26 bytes has a 1-byte header, + 27 bytes a 3-byte one.
        assert_eq!(sds_bytes(31.0), 33.0);
        assert_eq!(sds_bytes(32.0), 36.0);
        assert_eq!(sds_bytes(256.0), 262.0);
    }

    #[test]
    fn redis_buckets_are_powers_of_two() {
        let buckets: Vec<f64> = [0.0, 0.5, 1.0, 4.0, 5.0, 16_384.0, 16_385.0]
            .iter()
            .map(|&n| dict_buckets(n))
            .collect();
        assert_eq!(buckets, [0.0, 4.0, 4.0, 4.0, 8.0, 16_384.0, 32_768.0]);
    }

    /// `used_memory` less the empty server's, measured by bench/keystore.sh (docs/KEYSTORE.md).
    #[test]
    fn redis_matches_measured_used_memory() {
        // 10,000 x (2 x 32 + 48 + 16 + 224) + 2 x 8 x 16,384
        assert_eq!(redis_bytes(10_000.0, UUID, 100.0), 3_782_144.0);
        assert_eq!(redis_bytes(100_000.0, UUID, 1_000.0), 142_897_152.0);
        assert_eq!(redis_bytes(100_000.0, UUID, 10_000.0), 1_038_897_152.0);
    }

    #[test]
    fn postgres_row_layouts() {
        // 24 header + 37 key + 65 hash + 10 state + 4 status + 127 short jsonb, to 8, + 8.
        let small = row_layout(UUID, 100.0);
        assert_eq!(
            (small.heap_tuple, small.toast_value, small.toasted),
            (280.0, 0.0, false)
        );
        // A 1 kB body is a 1396-byte jsonb: under the threshold, inline.
        assert_eq!(row_layout(UUID, 1_000.0).heap_tuple, 1_544.0);
        // 10 kB compress to 3255 bytes: too long to stay, so 18 bytes of pointer remain.
        let large = row_layout(UUID, 10_000.0);
        assert_eq!((large.heap_tuple, large.toast_value), (168.0, 3_251.0));
        // A full chunk and one of 1255 bytes: two values a page, as measured.
        assert_eq!(toast_pages_per_value(3_251.0), 0.5);
        // Three kB compress to 1180 bytes and stay in the heap, compressed.
        let middle = row_layout(UUID, 3_000.0);
        assert_eq!((middle.toast_value, middle.toasted), (0.0, true));
    }

    /// `pg_total_relation_size` after a day of sweeps, measured by bench/keystore.sh.
    #[test]
    fn postgres_matches_measured_relation_size() {
        for (keys, body, measured) in [
            (10_000.0, 100.0, 4_284_416.0),
            (100_000.0, 100.0, 41_639_936.0),
            (10_000.0, 1_000.0, 18_300_928.0),
            (100_000.0, 1_000.0, 181_870_592.0),
            (10_000.0, 10_000.0, 46_292_992.0),
        ] {
            let model = postgres_bytes(keys, UUID, body);
            assert!(
                within(model, measured, 0.01),
                "{keys} x {body}: {model} vs {measured}"
            );
        }
    }

    /// Past the TOAST threshold rows are compressed and the table is smaller, as measured
    /// (`SIZES=10000 BODIES="1300 1500 3000" MODEL=none bash bench/keystore.sh`).
    #[test]
    fn postgres_past_the_threshold_is_smaller_as_measured() {
        let just_under = postgres_bytes(10_000.0, UUID, 1_300.0);
        let just_past = postgres_bytes(10_000.0, UUID, 1_500.0);
        assert!(just_past < just_under);
        for (body, measured) in [(1_500.0, 11_360_000.0), (3_000.0, 17_800_000.0)] {
            let model = postgres_bytes(10_000.0, UUID, body);
            assert!(
                within(model, measured, 0.15),
                "{body}: {model} vs {measured}"
            );
        }
    }

    #[test]
    fn no_keys_no_bytes() {
        assert_eq!(redis_bytes(0.0, UUID, 1_000.0), 0.0);
        assert_eq!(postgres_bytes(0.0, UUID, 1_000.0), 0.0);
        assert_eq!(redis_bytes(f64::NAN, UUID, 1_000.0), 0.0);
        assert!(postgres_bytes(1.0, 0.0, 0.0) > 0.0);
    }

    /// Every byte of body across the thresholds (short varlena, TOAST, inline compressed,
    /// moved out, chunk after chunk), and every key length for a few bodies.
    /// Redis on every byte; PostgreSQL grows with the body too, except at the step where
    /// rows start being compressed.
    #[test]
    fn monotone_on_a_fine_grid() {
        let mut last = 0.0;
        let mut drops = 0;
        for body in 0..=30_000 {
            let at = postgres_bytes(10_000.0, UUID, f64::from(body));
            if at < last {
                drops += 1;
                assert!(
                    (1_000..2_100).contains(&body),
                    "body {body}: {at} < {last}, away from the TOAST step"
                );
            }
            last = at;
        }
        assert!(drops >= 1, "the TOAST step shows");
        for store in [redis_bytes] {
            let mut last = 0.0;
            for body in 0..=30_000 {
                let at = store(10_000.0, UUID, f64::from(body));
                assert!(at >= last, "body {body}: {at} < {last}");
                last = at;
            }
            for body in [0.0, 100.0, 1_000.0, 1_300.0, 3_000.0, 6_000.0, 10_000.0] {
                let mut last = 0.0;
                for key in 0..=600 {
                    let at = store(10_000.0, f64::from(key), body);
                    assert!(at >= last, "key {key}, body {body}: {at} < {last}");
                    last = at;
                }
            }
        }
    }

    fn finite_size() -> impl Strategy<Value = f64> {
        prop_oneof![
            0.0..100.0f64,
            0.0..100_000.0f64,
            0.0..1e9f64,
            Just(0.0),
            0.0..f64::MAX
        ]
    }

    proptest! {
        #[test]
        fn finite_non_negative_and_monotone(
            keys in finite_size(),
            key in 0.0..500.0f64,
            body in 0.0..100_000.0f64,
            more in 0.0..3_000.0f64,
        ) {
            for store in [redis_bytes, postgres_bytes] {
                let at = store(keys, key, body);
                prop_assert!(at.is_finite() && at >= 0.0);
                prop_assert!(store(keys * 1.5 + more, key, body) >= at);
            }
            let at = redis_bytes(keys, key, body);
            prop_assert!(redis_bytes(keys, key + more, body) >= at, "key {} -> {}", key, key + more);
            prop_assert!(redis_bytes(keys, key, body + more) >= at, "body {} -> {}", body, body + more);
        }

        #[test]
        fn finite_at_extremes(keys in finite_size(), key in finite_size(), body in finite_size()) {
            for store in [redis_bytes, postgres_bytes] {
                let at = store(keys, key, body);
                prop_assert!(at.is_finite() && at >= 0.0);
            }
        }
    }
}
