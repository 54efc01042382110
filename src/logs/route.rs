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
    if seen & DIGIT == 0 {
        return false; // every kind of id below has a digit
    }
    if seen == DIGIT {
        return true; // a number
    }
    if seen & !(DIGIT | HEX_LETTER) == 0 {
        return seg.len() >= 8; // long hex
    }
    if seen & OTHER != 0 {
        return is_uuid(seg);
    }
    // base62, optionally after a short `prefix_`
    let token = match memchr::memchr(b'_', seg) {
        Some(i) if i <= 8 && seg[..i].iter().all(u8::is_ascii_alphabetic) => &seg[i + 1..],
        _ => seg,
    };
    token.len() >= 16
        && token.iter().all(u8::is_ascii_alphanumeric)
        && token.iter().any(u8::is_ascii_alphabetic)
}

fn is_uuid(s: &[u8]) -> bool {
    s.len() == 36
        && s.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn segments(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.split(|&b| b == b'/').filter(|s| !s.is_empty())
}

/// Writes to `out` (cleared first) bytes that stand for the route template of `raw`: each fixed
/// segment followed by a 0, each id as a lone 1. Paths with the same template give the same
/// bytes, so the hot loop hashes these instead of building the template.
#[inline]
pub fn route_key(raw: &[u8], out: &mut Vec<u8>) {
    out.clear();
    for seg in segments(path_only(raw)) {
        if is_id(seg) {
            out.push(1);
        } else {
            out.extend_from_slice(seg);
            out.push(0);
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
