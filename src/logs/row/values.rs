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

/// A duration field's value, read: in the field's unit, or in the unit the value writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Took {
    /// A number with no unit of its own (or nginx's list of them, summed): in the field's
    /// unit, as its name, its format's documentation or `--duration-unit` says.
    InUnit(f64),
    /// A value that writes its unit, in seconds: a number with an `s` after its digits
    /// (Google Cloud's `0.080s`), or a Go `time.Duration` as its `String()` writes one
    /// (`20.512345ms`, `1m30s`, `850µs`).
    Seconds(f64),
}

/// A duration: a number, or nginx's `0.5, 0.25` (summed), in the field's unit; a value that
/// writes its unit ([`Took::Seconds`]: `16.2s`, or a Go duration, [`go_duration`]), in that
/// unit; `-` and garbage are `None` (no duration).
#[inline]
pub fn parse_duration(b: &[u8]) -> Option<Took> {
    // Plain numbers first, as fast as before there were units: anything else fails to parse.
    let mut total = 0.0;
    for part in b.split(|&c| c == b',' || c == b':') {
        let Ok(v) = std::str::from_utf8(trim(part)).ok()?.parse::<f64>() else {
            return with_unit(b);
        };
        if !v.is_finite() {
            return None;
        }
        total += v;
    }
    // A sum past f64's range is no duration either, as a part past it is.
    total.is_finite().then_some(Took::InUnit(total))
}

/// A duration with letters in it: a Go duration, or numbers with an `s` after their digits.
#[cold]
fn with_unit(b: &[u8]) -> Option<Took> {
    // A Go duration that is also a number and an `s` (`16.2s`) is the same number either way.
    if let Some(seconds) = go_duration(trim(b)) {
        return Some(Took::Seconds(seconds));
    }
    let mut total = 0.0;
    let mut parts = 0;
    let mut with_s = false;
    for part in b.split(|&c| c == b',' || c == b':') {
        let text = std::str::from_utf8(trim(part)).ok()?;
        // Google Cloud writes "0.080s": a number, then its unit.
        let number = text
            .strip_suffix('s')
            .filter(|t| t.ends_with(|c: char| c.is_ascii_digit()));
        with_s |= number.is_some();
        let v: f64 = number.unwrap_or(text).parse().ok()?;
        if !v.is_finite() {
            return None;
        }
        total += v;
        parts += 1;
    }
    if !total.is_finite() {
        return None;
    }
    // nginx's lists are of numbers in the field's unit (an `s` after one is read off).
    Some(if with_s && parts == 1 {
        Took::Seconds(total)
    } else {
        Took::InUnit(total)
    })
}

/// A Go `time.Duration` as its `String()` writes one, in seconds: one or more decimal numbers
/// (digits, perhaps a `.` and more digits; no sign), each followed by its unit, the units in
/// the order `h`, `m`, `s`, `ms`, `us` (or `µs`, `μs`), `ns`, each at most once (`1h2m3.5s`,
/// `20.512345ms`, `850µs`, `120ns`, `0s`). Anything else (`1x`, `s`, `-5ms`, `1s2h`) is
/// `None`.
///
/// A number in ms, µs or ns is read as the decimal it writes scaled by a power of ten
/// (`20.512345ms` is `20.512345e-3` s, rounded once), minutes and hours multiplied, the parts
/// added in their order: `dupcost sql` computes the same (`go_seconds` in src/sql/query.rs).
pub fn go_duration(b: &[u8]) -> Option<f64> {
    let mut rest = b;
    let mut total = 0.0;
    // The rank of the last unit read: each must come after it.
    let mut last = 0;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let whole = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        if whole == 0 {
            return None;
        }
        let mut len = whole;
        if rest.get(len) == Some(&b'.') {
            let fraction = rest[len + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if fraction == 0 {
                return None;
            }
            len += 1 + fraction;
        }
        let (number, after) = rest.split_at(len);
        // (rank, the unit's bytes, what reads the number as seconds)
        let (rank, unit_len, scale) = match after {
            [b'h', ..] => (1, 1, Scale::Times(3600.0)),
            [b'm', b's', ..] => (4, 2, Scale::Exponent(b"e-3")),
            [b'm', ..] => (2, 1, Scale::Times(60.0)),
            [b's', ..] => (3, 1, Scale::Times(1.0)),
            [b'u', b's', ..] => (5, 2, Scale::Exponent(b"e-6")),
            // µ (the micro sign, as Go writes it) and μ (the Greek letter), in UTF-8.
            [0xC2, 0xB5, b's', ..] | [0xCE, 0xBC, b's', ..] => (5, 3, Scale::Exponent(b"e-6")),
            [b'n', b's', ..] => (6, 2, Scale::Exponent(b"e-9")),
            _ => return None,
        };
        if rank <= last {
            return None;
        }
        last = rank;
        let seconds = match scale {
            Scale::Times(by) => decimal_f64(number, b"")? * by,
            Scale::Exponent(e) => decimal_f64(number, e)?,
        };
        total += seconds;
        rest = &after[unit_len..];
    }
    total.is_finite().then_some(total)
}

/// How a Go duration's number becomes seconds.
enum Scale {
    Times(f64),
    /// Read with this exponent written after it: rounded once, as an engine's cast rounds it.
    Exponent(&'static [u8]),
}

/// `digits` (ASCII digits and at most one `.`) with `exponent` written after them, as an
/// `f64`.
fn decimal_f64(digits: &[u8], exponent: &[u8]) -> Option<f64> {
    let mut buf = [0u8; 48];
    let len = digits.len() + exponent.len();
    let text: std::borrow::Cow<'_, [u8]> = if len <= buf.len() {
        buf[..digits.len()].copy_from_slice(digits);
        buf[digits.len()..len].copy_from_slice(exponent);
        std::borrow::Cow::Borrowed(&buf[..len])
    } else {
        std::borrow::Cow::Owned([digits, exponent].concat())
    };
    std::str::from_utf8(&text).ok()?.parse().ok()
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
        assert_eq!(parse_duration(b"0.5, 0.25"), Some(Took::InUnit(0.75)));
        assert_eq!(parse_duration(b"-"), None);
        assert_eq!(parse_duration(b"inf"), None);
        // Past f64's range, a part or the sum: no duration, as the query reads it.
        assert_eq!(parse_duration(b"1e310"), None);
        assert_eq!(parse_duration(b"1e308, 1e308"), None);
        assert_eq!(parse_duration(b"1e308s, 1e308s"), None);
    }

    /// A Go `time.Duration`'s `String()` (Go's src/time/time.go), for the round trip.
    fn go_string(nanos: u64) -> String {
        let fraction = |v: u64, digits: u32| -> String {
            let scale = 10u64.pow(digits);
            let (whole, rest) = (v / scale, v % scale);
            if rest == 0 {
                return whole.to_string();
            }
            let text = format!("{rest:0width$}", width = digits as usize);
            format!("{whole}.{}", text.trim_end_matches('0'))
        };
        match nanos {
            0 => "0s".into(),
            n if n < 1_000 => format!("{n}ns"),
            n if n < 1_000_000 => format!("{}µs", fraction(n, 3)),
            n if n < 1_000_000_000 => format!("{}ms", fraction(n, 6)),
            n => {
                let secs = fraction(n % 60_000_000_000, 9);
                let minutes = n / 60_000_000_000;
                match (minutes / 60, minutes % 60) {
                    (0, 0) => format!("{secs}s"),
                    (0, m) => format!("{m}m{secs}s"),
                    (h, m) => format!("{h}h{m}m{secs}s"),
                }
            }
        }
    }

    #[test]
    fn go_durations_in_seconds() {
        let secs = |text: &str| match parse_duration(text.as_bytes()) {
            Some(Took::Seconds(s)) => Some(s),
            other => panic!("{text:?}: {other:?}"),
        };
        let cases: [(&str, f64); 14] = [
            ("16.2s", 16.2),
            ("20.512345ms", 0.020512345),
            ("1m30s", 90.0),
            ("850µs", 0.00085),
            ("850us", 0.00085),
            ("850\u{3bc}s", 0.00085),
            ("120ns", 1.2e-7),
            ("1h2m3.5s", 3723.5),
            ("2m0s", 120.0),
            ("1h0m0s", 3600.0),
            ("0s", 0.0),
            ("1.5µs", 1.5e-6),
            (" 15s ", 15.0),
            ("1s500ms", 1.5),
        ];
        for (text, want) in cases {
            assert_eq!(secs(text), Some(want), "{text:?}");
        }
        // A plain number stays in the field's unit, and so does nginx's list.
        assert_eq!(parse_duration(b"16.2"), Some(Took::InUnit(16.2)));
        assert_eq!(parse_duration(b"0.5, 0.25"), Some(Took::InUnit(0.75)));
        assert_eq!(parse_duration(b"0.5s, 0.25s"), Some(Took::InUnit(0.75)));
        // Google Cloud's number and s, signed or not, as before: now said to be seconds.
        assert_eq!(parse_duration(b"+1.5s"), Some(Took::Seconds(1.5)));
        assert_eq!(parse_duration(b"1e3s"), Some(Took::Seconds(1000.0)));
    }

    #[test]
    fn bad_go_durations_are_no_duration() {
        for bad in [
            "1x", "s", "", " ", "-5ms", "+5ms", "ms", "1.ms", ".5ms", "1m1h", "1s1s", "1ms5s",
            "5 ms", "1e3ms", "1h 2m", "5mss", "1, 2ms", "NaNms", "infs", "1..5s", "5S",
        ] {
            assert_eq!(parse_duration(bad.as_bytes()), None, "{bad:?}");
            assert_eq!(go_duration(bad.trim().as_bytes()), None, "{bad:?}");
        }
        // Not UTF-8.
        assert_eq!(parse_duration(b"5\xffms"), None);
        // A number longer than the stack buffer is still read.
        let long = format!("{}ms", "1".repeat(60));
        assert!(go_duration(long.as_bytes()).is_some_and(|s| s > 1e50));
    }

    proptest::proptest! {
        /// Go's `String()` of any duration up to 100 days reads back as its seconds: exactly
        /// under a second (one rounding of the decimal written), to a few parts in 10^16 above.
        #[test]
        fn go_strings_round_trip(nanos in proptest::prop_oneof![
            0u64..1_000,
            0u64..1_000_000_000,
            0u64..8_640_000_000_000_000,
        ]) {
            let text = go_string(nanos);
            let want = nanos as f64 / 1e9;
            let Some(Took::Seconds(got)) = parse_duration(text.as_bytes()) else {
                return Err(proptest::test_runner::TestCaseError::fail(text));
            };
            if nanos < 1_000_000_000 {
                proptest::prop_assert_eq!(got, want, "{}", text);
            } else {
                proptest::prop_assert!((got - want).abs() <= want * 4e-16, "{} {} {}", text, got, want);
            }
        }

        /// No bytes make the parser panic, and what it reads is finite.
        #[test]
        fn any_bytes_read_or_refused(b in proptest::collection::vec(
            proptest::sample::select(b"0123456789.hmsunx:, -+\xc2\xb5\xce\xbc".to_vec()), 0..16)) {
            match parse_duration(&b) {
                Some(Took::InUnit(v) | Took::Seconds(v)) => proptest::prop_assert!(v.is_finite()),
                None => {}
            }
        }
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
