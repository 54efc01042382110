//! Parsers of one field's value: statuses, durations, request ids, and the outcome of a
//! timed-out attempt. Plain functions of bytes, with no state.

use std::hash::{BuildHasher, Hasher};

use foldhash::fast::FixedState;

use crate::logs::tally::Fate;
use crate::logs::timestamp;

/// Hashing of request ids, shared with the reader of the backend's log.
pub const REQUEST_ID_SEED: u64 = 0x0e9e_5715_1d5e_ed01;

/// Upstream statuses that are the proxy's own give-up, not the backend's answer: 408 and
/// 504 (timeouts), 460 and 499 (the client closed: ALB, nginx), 502 (the connection to the
/// backend broke or was cut).
pub const PROXY_GIVE_UPS: [u16; 5] = [408, 460, 499, 502, 504];

/// The hash of a request id, as kept for the join with the backend's log.
pub fn request_id_hash(id: &[u8]) -> u64 {
    let mut h = FixedState::with_seed(REQUEST_ID_SEED).build_hasher();
    h.write(id);
    h.finish()
}

/// A request id field's value, if it holds one (not empty, not `-`).
#[inline]
pub fn request_id(field: &[u8]) -> Option<&[u8]> {
    let id = trim(field);
    (!id.is_empty() && id != b"-").then_some(id)
}

/// The outcome of a timed-out attempt from its upstream status field (`None`: no such
/// column) and the client-facing `status`; `status_gave_up` when that status is itself a
/// give-up status. Missing, empty, `-`, `0`, a proxy give-up status, or the client-facing
/// give-up status echoed (Traefik's `OriginStatus`) is unknown; 2xx succeeded; any other
/// status did not.
#[inline]
pub fn outcome(upstream: Option<&[u8]>, status: u16, status_gave_up: bool) -> Fate {
    let Some(field) = upstream else {
        return Fate::Unknown;
    };
    match parse_status(last_value(field)) {
        None | Some(0) => Fate::Unknown,
        Some(s) if PROXY_GIVE_UPS.contains(&s) || (status_gave_up && s == status) => Fate::Unknown,
        Some(200..=299) => Fate::Succeeded,
        Some(_) => Fate::Failed,
    }
}

/// The client of a fingerprint: the first hop of `X-Forwarded-For` when it names one, else
/// the remote address; without its port either way (`1.2.3.4:5678`, `[2001:db8::1]:443`;
/// a bare IPv6 address keeps all of it). `None` when neither names a client (empty or `-`).
#[inline]
pub fn client<'a>(forwarded_for: Option<&'a [u8]>, remote: Option<&'a [u8]>) -> Option<&'a [u8]> {
    let named = |b: &'a [u8]| {
        let b = trim(b);
        (!b.is_empty() && b != b"-").then_some(b)
    };
    let first_hop = |b: &'a [u8]| named(memchr::memchr(b',', b).map_or(b, |i| &b[..i]));
    forwarded_for
        .and_then(first_hop)
        .or_else(|| remote.and_then(named))
        .map(without_port)
}

/// An address without its port.
#[inline]
fn without_port(addr: &[u8]) -> &[u8] {
    if let Some(rest) = addr.strip_prefix(b"[") {
        // [v6]:port or [v6]
        return memchr::memchr(b']', rest).map_or(rest, |i| &rest[..i]);
    }
    match memchr::memchr(b':', addr) {
        // One colon: host:port (two or more: a bare IPv6 address).
        Some(i) if memchr::memchr(b':', &addr[i + 1..]).is_none() => &addr[..i],
        _ => addr,
    }
}

#[inline]
pub fn trim(b: &[u8]) -> &[u8] {
    // Nearly every field has nothing to trim: two compares say so (ASCII whitespace is all at
    // or below the space).
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) if first > b' ' && last > b' ' => b,
        _ => b.trim_ascii(),
    }
}

/// An HTTP status: one to three digits.
#[inline]
pub fn parse_status(b: &[u8]) -> Option<u16> {
    let b = trim(b);
    if b.is_empty() || b.len() > 3 {
        return None;
    }
    timestamp::decimal(b).map(|v| v as u16)
}

/// A count such as a response's bytes, read as `u64::from_str` reads it (ASCII digits after an
/// optional `+`) but from the bytes: no UTF-8 check, no `str` in between.
#[inline(always)]
pub fn parse_count(b: &[u8]) -> Option<u64> {
    let digits = b.strip_prefix(b"+").unwrap_or(b);
    match digits.len() {
        0 => None,
        1..=19 => timestamp::decimal(digits),
        // 20 digits may still fit in a u64: the rare long value goes the long way.
        _ => std::str::from_utf8(b).ok()?.parse().ok(),
    }
}

/// The last of nginx's multi-value fields: `502, 200` and `504 : 200` are 200.
#[inline]
pub fn last_value(b: &[u8]) -> &[u8] {
    match memchr::memrchr2(b',', b':', b) {
        Some(i) => &b[i + 1..],
        None => b,
    }
}

/// The proxy's tries (or retries) of one attempt: a count (`2`, HAProxy's `+1`), or
/// nginx's `$upstream_addr`, one address a try (`10.0.0.7:80, 10.0.0.8:80`; ` : ` between
/// the groups of an internal redirect). `-` or empty: the proxy did not say (no upstream was
/// tried).
pub fn proxy_tries(b: &[u8]) -> Option<u64> {
    if let Some(n) = parse_count(b) {
        return Some(n);
    }
    if b.is_empty() || b == b"-" || !b.iter().any(|&c| c == b'.' || c == b':') {
        return None;
    }
    let separators = b.windows(2).filter(|w| w == b", " || w == b" :").count();
    Some(separators as u64 + 1)
}

/// A duration: a number, or nginx's `0.5, 0.25` (summed); `-` and garbage are `None`.
pub fn parse_duration(b: &[u8]) -> Option<f64> {
    let mut total = 0.0;
    for part in b.split(|&c| c == b',' || c == b':') {
        let text = std::str::from_utf8(trim(part)).ok()?;
        // Google Cloud writes "0.080s": the unit is the format's, the `s` is read off.
        let text = text
            .strip_suffix('s')
            .filter(|t| t.ends_with(|c: char| c.is_ascii_digit()))
            .unwrap_or(text);
        let v: f64 = text.parse().ok()?;
        if !v.is_finite() {
            return None;
        }
        total += v;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_tries_from_counts_and_upstream_addresses() {
        let cases: [(&[u8], Option<u64>); 7] = [
            (b"2", Some(2)),
            (b"+1", Some(1)),
            (b"10.0.0.7:8080", Some(1)),
            (b"10.0.0.7:8080, 10.0.0.8:8080", Some(2)),
            (b"10.0.0.7:8080, 10.0.0.8:8080 : 10.0.0.9:8080", Some(3)),
            (b"unix:/run/app.sock", Some(1)),
            (b"-", None),
        ];
        for (field, tries) in cases {
            assert_eq!(
                proxy_tries(field),
                tries,
                "{}",
                String::from_utf8_lossy(field)
            );
        }
    }

    proptest::proptest! {
        /// The quick trim is `trim_ascii`, on fields of whitespace, text and any bytes.
        #[test]
        fn trim_is_trim_ascii(
            b in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(b" \t\n\r\x0c\x0b!a".to_vec()),
                    proptest::num::u8::ANY,
                ],
                0..6,
            ),
        ) {
            proptest::prop_assert_eq!(trim(&b), b.trim_ascii());
        }
    }

    #[test]
    fn clients_without_ports() {
        let c = |xff: Option<&str>, remote: Option<&str>| {
            client(xff.map(str::as_bytes), remote.map(str::as_bytes))
                .map(|b| String::from_utf8_lossy(b).into_owned())
        };
        assert_eq!(c(None, Some("10.0.0.1:5678")).as_deref(), Some("10.0.0.1"));
        assert_eq!(c(None, Some("10.0.0.1")).as_deref(), Some("10.0.0.1"));
        assert_eq!(
            c(None, Some("[2001:db8::1]:443")).as_deref(),
            Some("2001:db8::1")
        );
        assert_eq!(c(None, Some("2001:db8::1")).as_deref(), Some("2001:db8::1"));
        assert_eq!(
            c(None, Some("::ffff:10.0.0.1")).as_deref(),
            Some("::ffff:10.0.0.1")
        );
        let xff = Some("203.0.113.9, 10.0.0.2");
        assert_eq!(c(xff, Some("10.0.0.1:80")).as_deref(), Some("203.0.113.9"));
        assert_eq!(
            c(Some("-"), Some("10.0.0.1:80")).as_deref(),
            Some("10.0.0.1")
        );
        assert_eq!(c(Some(""), None), None);
        assert_eq!(c(Some("-"), Some(" - ")), None);
    }

    #[test]
    fn statuses() {
        assert_eq!(parse_status(b" 504 "), Some(504));
        assert_eq!(parse_status(b"-"), None);
        assert_eq!(parse_status(b"5040"), None);
        assert_eq!(parse_status(last_value(b"502, 200")), Some(200));
        assert_eq!(parse_status(last_value(b"504 : 200")), Some(200));
        assert_eq!(parse_duration(b"0.5, 0.25"), Some(0.75));
        assert_eq!(parse_duration(b"-"), None);
        assert_eq!(parse_duration(b"inf"), None);
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count(b"1234"), Some(1234));
        assert_eq!(parse_count(b"+7"), Some(7));
        assert_eq!(parse_count(b"18446744073709551615"), Some(u64::MAX));
        for bad in [
            &b""[..],
            b"+",
            b"-",
            b"-1",
            b"++1",
            b"1 2",
            b"18446744073709551616",
        ] {
            assert_eq!(parse_count(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }

    proptest::proptest! {
        /// The byte parser reads every field as `u64::from_str` does.
        #[test]
        fn counts_as_from_str(b in proptest::collection::vec(
            proptest::sample::select(b"0123456789+- x\xff".to_vec()), 0..24)) {
            let from_str = std::str::from_utf8(&b).ok().and_then(|t| t.parse::<u64>().ok());
            proptest::prop_assert_eq!(parse_count(&b), from_str);
        }

        #[test]
        fn numbers_as_from_str(v: u64, plus: bool, zeros in 0usize..3) {
            let text = format!("{}{}{v}", if plus { "+" } else { "" }, "0".repeat(zeros));
            proptest::prop_assert_eq!(parse_count(text.as_bytes()), Some(v));
        }
    }

    #[test]
    fn outcomes_of_timed_out_attempts() {
        use Fate::*;
        let o = |f: &[u8], status| outcome(Some(f), status, true);
        assert_eq!(outcome(None, 504, true), Unknown, "no upstream column");
        for unknown in [
            &b""[..],
            b"-",
            b"0",
            b"408",
            b"460",
            b"499",
            b"502",
            b"504",
            b"504 : 502",
        ] {
            assert_eq!(
                o(unknown, 499),
                Unknown,
                "{}",
                String::from_utf8_lossy(unknown)
            );
        }
        assert_eq!(o(b"503", 503), Unknown, "the client-facing give-up echoed");
        assert_eq!(outcome(Some(b"503"), 503, false), Failed);
        assert_eq!(o(b"503", 504), Failed);
        assert_eq!(o(b"201", 499), Succeeded);
        assert_eq!(o(b"502, 200", 504), Succeeded);
        assert_eq!(o(b"200", 0), Succeeded);
    }
}
