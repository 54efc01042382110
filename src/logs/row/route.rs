//! Paths to route templates: `/v1/orders/123?x=1` and `/v1/orders/9f3c0a7d2b1e4c55` are both
//! `/v1/orders/{id}`.
//!
//! The scheme and host of a full URL (ALB's `request_url`), the query string and the fragment
//! are dropped; a segment becomes `{id}` when it is a number, a UUID, hex of 8 or more
//! characters with a digit in it, or a base62 token of 16 or more characters with both letters
//! and digits (optionally after a `prefix_`, as in `ch_3MmlLrLkdIwHu7ix0snN0B15`).
//!
//! [`route_key`] stands for the template without building it, so the hot loop never allocates;
//! [`route_template`] builds the string once per new endpoint.

/// The path part of a request target: no scheme, host, query or fragment.
pub fn path_only(raw: &[u8]) -> &[u8] {
    let mut p = raw;
    if p.first() == Some(&b'/') {
        // The common case: already a path.
    } else if let Some(i) = memchr::memmem::find(p, b"://") {
        let after = &p[i + 3..];
        p = match memchr::memchr(b'/', after) {
            Some(j) => &after[j..],
            None => b"/",
        };
    }
    if let Some(i) = memchr::memchr2(b'?', b'#', p) {
        p = &p[..i];
    }
    p
}

const DIGIT: u8 = 1;
const HEX_LETTER: u8 = 2;
const LETTER: u8 = 4;
const UNDERSCORE: u8 = 8;
const OTHER: u8 = 16;

/// The character class of every byte, so a segment is classified in one branch-free pass.
static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b'0'..=b'9' => DIGIT,
            b'a'..=b'f' | b'A'..=b'F' => HEX_LETTER,
            b'g'..=b'z' | b'G'..=b'Z' => LETTER,
            b'_' => UNDERSCORE,
            _ => OTHER,
        };
        c += 1;
    }
    t
};

/// Whether a path segment is an identifier rather than a fixed name.
#[inline]
pub fn is_id(seg: &[u8]) -> bool {
    let seen = seg.iter().fold(0u8, |acc, &c| acc | CLASS[usize::from(c)]);
    is_id_of_classes(seg.len(), seen, || is_uuid(seg), || is_base62(seg))
}

/// The fewest bytes of an id that is not a number (long hex; a UUID and a token are longer):
/// a shorter segment with digits is an id only when it is all digits.
const SHORTEST_MIXED_ID: usize = 8;

/// [`is_id`] for a segment of `len` bytes whose bytes' classes, or-ed together, are `seen`,
/// given the two checks that need more than classes.
#[inline]
fn is_id_of_classes(
    len: usize,
    seen: u8,
    uuid: impl FnOnce() -> bool,
    base62: impl FnOnce() -> bool,
) -> bool {
    if seen & DIGIT == 0 {
        return false; // every kind of id below has a digit
    }
    if seen == DIGIT {
        return true; // a number
    }
    if seen & !(DIGIT | HEX_LETTER) == 0 {
        return len >= SHORTEST_MIXED_ID; // long hex
    }
    if seen & OTHER != 0 {
        return len == 36 && uuid();
    }
    // (`v1`, `v2`: most segments with a digit are too short for a token)
    len >= 16 && base62()
}

/// Hex digits with dashes after the 8th, 12th, 16th and 20th.
fn is_uuid(s: &[u8]) -> bool {
    s.len() == 36
        && s.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// A base62 token of 16 or more characters with a letter, optionally after a short
/// alphabetic `prefix_`.
fn is_base62(seg: &[u8]) -> bool {
    let token = match memchr::memchr(b'_', seg) {
        Some(i) if i <= 8 && seg[..i].iter().all(u8::is_ascii_alphabetic) => &seg[i + 1..],
        _ => seg,
    };
    token.len() >= 16
        && token.iter().all(u8::is_ascii_alphanumeric)
        && token.iter().any(u8::is_ascii_alphabetic)
}

fn segments(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.split(|&b| b == b'/').filter(|s| !s.is_empty())
}

/// Where [`route_key`] writes the template of a path, segment by segment.
pub trait TemplateSink {
    /// A fixed segment, such as `orders`.
    fn fixed(&mut self, segment: &[u8]);
    /// An id segment, such as `123`.
    fn id(&mut self);
}

/// Bytes that stand for the template: each fixed segment followed by a 0, each id as a lone 1.
impl TemplateSink for Vec<u8> {
    fn fixed(&mut self, segment: &[u8]) {
        self.extend_from_slice(segment);
        self.push(0);
    }
    fn id(&mut self) {
        self.push(1);
    }
}

/// The same bytes, fed to a hasher as they come (so the hot loop neither copies nor buffers).
pub struct Hashed<'a, H>(pub &'a mut H);

impl<H: std::hash::Hasher> TemplateSink for Hashed<'_, H> {
    #[inline]
    fn fixed(&mut self, segment: &[u8]) {
        self.0.write(segment);
        self.0.write_u8(0);
    }
    #[inline]
    fn id(&mut self) {
        self.0.write_u8(1);
    }
}

/// Writes the route template of `raw` to `out`, segment by segment. Paths with the same template
/// make the same calls, so the hot loop hashes these instead of building the template.
#[inline]
pub fn route_key(raw: &[u8], out: &mut impl TemplateSink) {
    #[cfg(target_arch = "x86_64")]
    if raw.len() <= 64 && raw.first() == Some(&b'/') {
        // Already a path (nearly always): the masks find its query too.
        return simd::route_key(raw, out);
    }
    let path = path_only(raw);
    #[cfg(target_arch = "x86_64")]
    if path.len() <= 64 {
        return simd::route_key(path, out);
    }
    route_key_bytewise(path, out);
}

/// [`route_key`] of a path, one byte at a time.
fn route_key_bytewise(path: &[u8], out: &mut impl TemplateSink) {
    for seg in segments(path) {
        push_segment(out, seg, is_id(seg));
    }
}

#[inline]
fn push_segment(out: &mut impl TemplateSink, seg: &[u8], id: bool) {
    if id {
        out.id();
    } else {
        out.fixed(seg);
    }
}

/// Paths of up to 64 bytes (nearly all) classified 16 bytes at a time: one bit mask per class
/// over the whole path, so finding the query, the segments, and telling numbers, hex, UUIDs and
/// tokens apart takes no loop over bytes, whose data-dependent exits the CPU mispredicts. (On
/// the benchmark log, whose paths carry UUIDs and `ch_` tokens, checking those a byte at a
/// time was a third of the templating's cycles.)
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{
        DIGIT, HEX_LETTER, LETTER, OTHER, SHORTEST_MIXED_ID, UNDERSCORE, is_id_of_classes,
        push_segment,
    };
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };

    /// Bit `i` of each mask is set when byte `i` of the path is of that kind. The first three
    /// are found for every path; the others only for a path with a segment they decide (8 or
    /// more bytes, digits and other bytes): most ids are numbers, which the first three tell.
    #[derive(Default)]
    struct Masks {
        slash: u64,
        /// `?` and `#`: the path ends at the first.
        query: u64,
        digit: u64,
        hyphen: u64,
        hex_letter: u64,
        letter: u64,
        underscore: u64,
    }

    /// Runs `add` on each 16 bytes of `path` (of up to 64): the bytes, how many of the top
    /// ones are new, and the bit of the first of those.
    #[inline(always)]
    fn chunks(path: &[u8], mut add: impl FnMut(__m128i, usize, usize)) {
        // SAFETY (loads): each reads 16 bytes inside `path` or `short`, unaligned loads being
        // allowed. Loading straight from the path, rather than from a padded copy of it, spares
        // a stalled load (a copy's small stores cannot be forwarded to a 16-byte load).
        let load = |bytes: &[u8]| {
            debug_assert!(bytes.len() >= 16);
            #[allow(unused_unsafe)]
            unsafe {
                _mm_loadu_si128(bytes.as_ptr() as *const __m128i)
            }
        };
        let full = path.len() / 16;
        for chunk in 0..full {
            add(load(&path[chunk * 16..]), 16, chunk * 16);
        }
        let rest = path.len() % 16;
        if rest > 0 {
            if full > 0 {
                // The last 16 bytes, of which the first `16 - rest` were classified already.
                add(load(&path[path.len() - 16..]), rest, full * 16);
            } else {
                let mut short = [0u8; 16];
                short[..rest].copy_from_slice(path);
                add(load(&short[..]), 16, 0);
            }
        }
    }

    /// The top `keep` bits of a byte mask's 16, from bit `shift` on.
    #[inline(always)]
    fn bits(m: __m128i, keep: usize, shift: usize) -> u64 {
        // SAFETY: SSE2 is part of the x86_64 baseline; this only computes on registers.
        #[allow(unused_unsafe)]
        unsafe {
            (_mm_movemask_epi8(m) as u16 as u64) >> (16 - keep) << shift
        }
    }

    /// The bytes of `v` in `lo..=lo + span` (unsigned): where `min(x - lo, span) == x - lo`.
    #[inline(always)]
    fn within(v: __m128i, lo: u8, span: u8) -> __m128i {
        // SAFETY: as in `bits`.
        #[allow(unused_unsafe)]
        unsafe {
            let t = _mm_add_epi8(v, _mm_set1_epi8(lo.wrapping_neg() as i8));
            _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(span as i8)), t)
        }
    }

    #[inline(always)]
    fn eq(v: __m128i, b: u8) -> __m128i {
        // SAFETY: as in `bits`.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8))
        }
    }

    /// The slashes, query marks and digits of `path`.
    fn coarse(path: &[u8]) -> Masks {
        let mut m = Masks::default();
        chunks(path, |v, keep, shift| {
            // SAFETY: as in `bits`.
            #[allow(unused_unsafe)]
            unsafe {
                m.slash |= bits(eq(v, b'/'), keep, shift);
                m.query |= bits(_mm_or_si128(eq(v, b'?'), eq(v, b'#')), keep, shift);
                m.digit |= bits(within(v, b'0', 9), keep, shift);
            }
        });
        m
    }

    /// Adds the other classes of `path` to `m`.
    fn fine(path: &[u8], m: &mut Masks) {
        chunks(path, |v, keep, shift| {
            // SAFETY: as in `bits`.
            #[allow(unused_unsafe)]
            unsafe {
                // Lower case for letters: `A`..`Z` | 0x20 is `a`..`z`, and no other byte lands
                // there.
                let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
                let alpha = bits(within(lower, b'a', 25), keep, shift);
                let hex = bits(within(lower, b'a', 5), keep, shift);
                m.hyphen |= bits(eq(v, b'-'), keep, shift);
                m.underscore |= bits(eq(v, b'_'), keep, shift);
                m.hex_letter |= hex;
                m.letter |= alpha & !hex;
            }
        });
    }

    /// [`super::route_key`] of a path of up to 64 bytes, which may still carry a query or a
    /// fragment.
    pub(super) fn route_key(path: &[u8], out: &mut impl super::TemplateSink) {
        let mut m = coarse(path);
        let mut fine_done = false;
        let path = match m.query {
            0 => path,
            q => &path[..q.trailing_zeros() as usize],
        };
        let low = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        // Bits `from..from + n` of `mask`, as the low `n` bits.
        let bits = |mask: u64, from: usize, n: usize| {
            (mask.checked_shr(from as u32).unwrap_or(0)) & low(n)
        };
        let len_mask = low(path.len());
        // Segments lie between slashes (and the path's ends).
        let mut ends = (m.slash & len_mask) | (1u128 << path.len()) as u64;
        let mut start = 0usize;
        loop {
            let end = if ends == 0 {
                path.len()
            } else {
                ends.trailing_zeros() as usize
            };
            if end > start {
                let len = end - start;
                let span = low(len) << start;
                let digits = m.digit & span;
                // What the digits alone decide (as `is_id_of_classes` would): no digit, a
                // fixed name; all digits, a number; digits and others in fewer than
                // `SHORTEST_MIXED_ID` bytes, too short for any other kind of id (`v1`).
                let id = if digits == 0 || (digits != span && len < SHORTEST_MIXED_ID) {
                    false
                } else if digits == span {
                    true
                } else {
                    if !fine_done {
                        fine(path, &mut m);
                        fine_done = true;
                    }
                    let known = m.slash | m.digit | m.hex_letter | m.letter | m.underscore;
                    let other = !known & len_mask;
                    let alpha = m.hex_letter | m.letter;
                    let alnum = alpha | m.digit;
                    let class = |mask: u64, class: u8| if mask & span != 0 { class } else { 0 };
                    let seen = DIGIT
                        | class(m.hex_letter, HEX_LETTER)
                        | class(m.letter, LETTER)
                        | class(m.underscore, UNDERSCORE)
                        | class(other, OTHER);
                    let uuid = || {
                        let dashes = bits(m.hyphen, start, len);
                        dashes == (1 << 8 | 1 << 13 | 1 << 18 | 1 << 23)
                            && bits(m.digit | m.hex_letter, start, len) == low(len) & !dashes
                    };
                    let base62 = || {
                        let (from, n) = match bits(m.underscore, start, len) {
                            0 => (start, len),
                            marks => {
                                let i = marks.trailing_zeros() as usize;
                                if i <= 8 && bits(alpha, start, i) == low(i) {
                                    (start + i + 1, len - i - 1)
                                } else {
                                    (start, len)
                                }
                            }
                        };
                        n >= 16 && bits(alnum, from, n) == low(n) && bits(alpha, from, n) != 0
                    };
                    is_id_of_classes(len, seen, uuid, base62)
                };
                push_segment(out, &path[start..end], id);
            }
            if end >= path.len() {
                return;
            }
            ends &= ends - 1;
            start = end + 1;
        }
    }
}

/// The route template of `raw`, e.g. `/v1/orders/{id}/capture`.
pub fn route_template(raw: &[u8]) -> String {
    let mut out = String::new();
    for seg in segments(path_only(raw)) {
        out.push('/');
        if is_id(seg) {
            out.push_str("{id}");
        } else {
            out.push_str(&String::from_utf8_lossy(seg));
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        for (raw, want) in [
            ("/v1/orders/123", "/v1/orders/{id}"),
            (
                "/v1/orders/9f3c0a7d2b1e4c55/capture",
                "/v1/orders/{id}/capture",
            ),
            (
                "/v1/orders/123e4567-e89b-12d3-a456-426614174000",
                "/v1/orders/{id}",
            ),
            (
                "/v1/charges/ch_3MmlLrLkdIwHu7ix0snN0B15?expand=x",
                "/v1/charges/{id}",
            ),
            (
                "https://api.example.com:443/v1/refunds/42?x=1",
                "/v1/refunds/{id}",
            ),
            ("/v1/orders", "/v1/orders"),
            ("/v1/order-summaries/latest", "/v1/order-summaries/latest"),
            ("/v2/deadbeef", "/v2/deadbeef"),
            ("/", "/"),
            ("", "/"),
            ("/v1//orders/", "/v1/orders"),
        ] {
            assert_eq!(route_template(raw.as_bytes()), want, "{raw}");
        }
    }

    #[test]
    fn key_follows_template() {
        let key = |p: &str| {
            let mut out = Vec::new();
            route_key(p.as_bytes(), &mut out);
            out
        };
        assert_eq!(key("/v1/orders/1"), key("/v1/orders/2?x"));
        assert_eq!(key("/v1/orders/1"), key("https://h/v1//orders/ab12cd34ef/"));
        assert_ne!(key("/v1/orders/1"), key("/v1/orders/1/capture"));
        assert_ne!(key("/v1/ab"), key("/v1a/b"));
        assert_eq!(key("/v1/orders/1/capture"), b"v1\0orders\0\x01capture\0");
    }

    proptest::proptest! {
        /// The 16-bytes-at-a-time key equals the bytewise one, for paths up to 64 bytes made
        /// of segments near every edge of the id rules, and of any bytes.
        #[test]
        fn simd_and_bytewise_keys_agree(
            segments in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::bytes_regex("[0-9]{1,10}").unwrap(),
                    proptest::string::bytes_regex("[0-9a-fA-F_]{6,10}").unwrap(),
                    proptest::string::bytes_regex("[a-zA-Z0-9_-]{14,18}").unwrap(),
                    proptest::string::bytes_regex("[a-z]{2,9}_[a-zA-Z0-9]{14,17}").unwrap(),
                    proptest::string::bytes_regex(
                        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-fG]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                    ).unwrap(),
                    proptest::collection::vec(proptest::num::u8::ANY, 0..20),
                ],
                0..6,
            ),
            slashes in proptest::collection::vec(1usize..3, 6),
        ) {
            let mut path = Vec::new();
            for (seg, n) in segments.iter().zip(&slashes) {
                path.extend(std::iter::repeat_n(b'/', *n));
                path.extend_from_slice(seg);
            }
            path.truncate(64);
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            route_key(&path, &mut fast);
            route_key_bytewise(path_only(&path), &mut slow);
            proptest::prop_assert_eq!(fast, slow);
        }

        /// Two paths have the same key exactly when they have the same template.
        #[test]
        fn keys_and_templates_agree(
            a in "(/([a-z0-9_-]{0,6}|[0-9a-f]{8}|[a-zA-Z0-9]{16}))*",
            b in "(/([a-z0-9_-]{0,6}|[0-9a-f]{8}|[a-zA-Z0-9]{16}))*",
        ) {
            let key = |p: &str| {
                let mut out = Vec::new();
                route_key(p.as_bytes(), &mut out);
                out
            };
            proptest::prop_assert_eq!(
                key(&a) == key(&b),
                route_template(a.as_bytes()) == route_template(b.as_bytes()),
                "{} {}", a, b
            );
        }
    }
}
