//! Timestamps to microseconds since the Unix epoch (UTC).
//!
//! The layouts access logs actually use are parsed by hand from bytes: RFC 3339 / ISO 8601
//! with or without a zone and fraction (`2026-11-01T00:00:01.123Z`, `2026-11-01 00:00:01`),
//! nginx `$time_local` (`01/Nov/2026:00:00:01 +0000`) and epoch numbers, whose unit (seconds,
//! milliseconds, microseconds, nanoseconds) is told apart by magnitude. Anything else, and
//! every `--timestamp-format`, goes through jiff. The hand-written path is there because it
//! measured faster (`cargo bench --bench timestamps`: 30 ns against jiff's 78 ns for RFC 3339,
//! 45 ns against 345 ns for `$time_local` via strptime, docs/PERFORMANCE.md); its results are
//! checked against jiff in the tests below and in the bench.

use std::cell::Cell;

use jiff::Timestamp;

/// Microseconds in a second and a day.
pub const MICROS_PER_SEC: i64 = 1_000_000;
pub const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SEC;

/// How timestamps are read: the built-in layouts, or one strftime format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimestampFormat {
    Auto,
    Strftime(String),
}

impl TimestampFormat {
    /// Parses a timestamp field, or `None` if it is not one.
    #[inline]
    pub fn parse(&self, field: &[u8]) -> Option<i64> {
        self.parse_after(field, &mut LastMinute::default())
    }

    /// [`TimestampFormat::parse`] for the next row of a reader that keeps `last`: the same
    /// result, quicker when the row is in the same minute as the last one.
    #[inline]
    pub fn parse_after(&self, field: &[u8], last: &mut LastMinute) -> Option<i64> {
        let field = trim(field);
        match self {
            TimestampFormat::Auto => {
                if let Some(head) = field.get(..19) {
                    let minute = match last.minute_micros {
                        Some(m) if minute_bytes(head) == last.minute => Some(m),
                        _ => last.minute_of(field),
                    };
                    if let (Some(m), Some(t)) = (minute, seconds_and_millis(field)) {
                        return Some(m + t);
                    }
                    if let Some(base) = minute.and_then(|m| Some(m + second_micros(head)?)) {
                        // What parse_auto does with this prefix: its rest, or else jiff.
                        return iso_rest(base, field, 19).or_else(|| parse_with_jiff(field));
                    }
                }
                if is_time_local(field) {
                    return last.time_local(field);
                }
                parse_auto(field)
            }
            TimestampFormat::Strftime(fmt) => parse_strftime(fmt, field),
        }
    }
}

fn trim(mut b: &[u8]) -> &[u8] {
    // Nearly always nothing to take off: two bytes say so.
    if let (Some(&first), Some(&last)) = (b.first(), b.last()) {
        if first > b' '
            && first != b'['
            && first != b'"'
            && last > b' '
            && last != b']'
            && last != b'"'
        {
            return b;
        }
    }
    while let [first, rest @ ..] = b {
        if first.is_ascii_whitespace() || *first == b'[' || *first == b'"' {
            b = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = b {
        if last.is_ascii_whitespace() || *last == b']' || *last == b'"' {
            b = rest;
        } else {
            break;
        }
    }
    b
}

/// Any of the built-in layouts.
#[inline]
pub fn parse_auto(b: &[u8]) -> Option<i64> {
    if b.len() >= 10 && b[4] == b'-' {
        parse_iso(b).or_else(|| parse_with_jiff(b))
    } else if is_time_local(b) {
        parse_time_local(b)
    } else if b.first().is_some_and(u8::is_ascii_digit) {
        parse_epoch(b)
    } else {
        parse_with_jiff(b)
    }
}

/// A `--timestamp-format` (strftime); without a zone in the format the time is UTC.
pub fn parse_strftime(fmt: &str, b: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(b).ok()?;
    let tm = jiff::fmt::strtime::parse(fmt, text).ok()?;
    if let Ok(ts) = tm.to_timestamp() {
        return micros(ts);
    }
    let dt = tm.to_datetime().ok().or_else(|| {
        tm.to_date()
            .ok()
            .map(|d| d.to_datetime(jiff::civil::Time::midnight()))
    })?;
    micros(jiff::tz::TimeZone::UTC.to_timestamp(dt).ok()?)
}

fn micros(ts: Timestamp) -> Option<i64> {
    Some(ts.as_microsecond())
}

/// Whatever jiff can make of it: an RFC 3339/9557 timestamp, or a civil date-time in UTC.
pub fn parse_with_jiff(b: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(b).ok()?;
    if let Ok(ts) = text.parse::<Timestamp>() {
        return micros(ts);
    }
    let dt = text.parse::<jiff::civil::DateTime>().ok()?;
    micros(jiff::tz::TimeZone::UTC.to_timestamp(dt).ok()?)
}

/// The value of a run of ASCII digits (at most 19 of them), or `None` if any byte is not one.
#[inline]
pub fn decimal(b: &[u8]) -> Option<u64> {
    if b.len() > 19 {
        return None;
    }
    let mut v = 0u64;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    Some(v)
}

#[inline]
fn digits<const N: usize>(b: &[u8], at: usize) -> Option<u32> {
    decimal(b.get(at..at + N)?).map(|v| v as u32)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number (inverse of [`days_from_civil`]).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

fn civil_micros(y: u32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> Option<i64> {
    let time = time_micros(h, mi, s)?;
    Some(day_number(y, mo, d)? * MICROS_PER_DAY + time)
}

/// `HH:MM:SS` at `b[at..at + 8]`, read as one word: its hours, minutes and seconds (not yet
/// checked against their ranges), or `None` if those bytes are not two digits, a colon, two
/// digits, a colon and two digits.
#[inline(always)]
fn clock(b: &[u8], at: usize) -> Option<(u32, u32, u32)> {
    let w = u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?);
    // Little-endian: byte `i` of the text is bits `8i..8i + 8`; the colons are bytes 2 and 5.
    const COLONS: u64 = 0x0000_ff00_00ff_0000;
    const HIGH: u64 = 0xf0f0_00f0_f000_f0f0; // the digits' high nibbles
    const ZEROS: u64 = 0x3030_0030_3000_3030;
    let digits = (w & HIGH) == ZEROS
        // `0x3a`..`0x3f` plus 6 carry into the high nibble; `0x30`..`0x39` do not.
        && (w.wrapping_add(0x0606_0006_0600_0606) & HIGH) == ZEROS
        && w & COLONS == 0x0000_3a00_003a_0000;
    if !digits {
        return None;
    }
    let d = w & 0x0f0f_000f_0f00_0f0f;
    let two = |i: u32| ((d >> (8 * i)) & 0xff) as u32 * 10 + ((d >> (8 * i + 8)) & 0xff) as u32;
    Some((two(0), two(3), two(6)))
}

/// Microseconds since midnight of a valid time of day, or `None`.
#[inline]
fn time_micros(h: u32, mi: u32, s: u32) -> Option<i64> {
    if h > 23 || mi > 59 || s > 60 {
        return None;
    }
    // A leap second (:60) is read as the last microsecond of its minute, as jiff does.
    let (s, leap) = if s == 60 { (59, 999_999) } else { (s, 0) };
    Some(i64::from(h * 3600 + mi * 60 + s) * MICROS_PER_SEC + leap)
}

thread_local! {
    /// The last date converted (`yyyymmdd`) and its day number: consecutive rows of a log
    /// are nearly always on the same day.
    static LAST_DAY: Cell<(u32, i64)> = const { Cell::new((u32::MAX, 0)) };
}

/// Days since the epoch of a valid date, or `None`.
fn day_number(y: u32, mo: u32, d: u32) -> Option<i64> {
    let key = y * 10_000 + mo * 100 + d;
    LAST_DAY.with(|last| {
        let (k, days) = last.get();
        if k == key {
            return Some(days);
        }
        let y = i64::from(y);
        if !(1..=12).contains(&mo) || d == 0 || d > days_in_month(y, mo) {
            return None;
        }
        let days = days_from_civil(y, mo, d);
        last.set((key, days));
        Some(days)
    })
}

/// `YYYY-MM-DD`, optionally followed by `T` or space, `HH:MM[:SS[.fraction]]` and a zone
/// (`Z`, `+HH:MM`, `+HHMM`, `+HH`); without a zone the time is UTC.
#[inline]
fn parse_iso(b: &[u8]) -> Option<i64> {
    let y = digits::<4>(b, 0)?;
    let mo = digits::<2>(b, 5)?;
    let d = digits::<2>(b, 8)?;
    if b[7] != b'-' {
        return None;
    }
    if b.len() == 10 {
        return civil_micros(y, mo, d, 0, 0, 0);
    }
    if !matches!(b[10], b'T' | b't' | b' ') || b.len() < 16 || b[13] != b':' {
        return None;
    }
    let h = digits::<2>(b, 11)?;
    let mi = digits::<2>(b, 14)?;
    let mut at = 16;
    let mut s = 0;
    if b.get(at) == Some(&b':') {
        s = digits::<2>(b, 17)?;
        at = 19;
    }
    iso_rest(civil_micros(y, mo, d, h, mi, s)?, b, at)
}

/// The end of an RFC 3339 timestamp from `b[at..]` (an optional fraction, then the zone), added
/// to `base`, the microseconds of its date and time.
#[inline(always)]
fn iso_rest(base: i64, b: &[u8], mut at: usize) -> Option<i64> {
    // The usual end, `.123Z`, first.
    if let Some(&[b'.', a, b, c, z]) = b.get(at..) {
        let (a, b, c) = (
            a.wrapping_sub(b'0'),
            b.wrapping_sub(b'0'),
            c.wrapping_sub(b'0'),
        );
        if a <= 9 && b <= 9 && c <= 9 && z | 0x20 == b'z' {
            let ms = i64::from(a) * 100 + i64::from(b) * 10 + i64::from(c);
            return Some(base + ms * 1_000);
        }
    }
    let mut frac = 0i64;
    if matches!(b.get(at), Some(b'.' | b',')) {
        at += 1;
        let start = at;
        let mut scale = 100_000i64;
        while let Some(c) = b.get(at).filter(|c| c.is_ascii_digit()) {
            frac += i64::from(c - b'0') * scale;
            scale /= 10;
            at += 1;
        }
        if at == start {
            return None;
        }
    }
    let offset = parse_offset(&b[at..])?;
    Some(base + frac - offset * MICROS_PER_SEC)
}

/// The last `YYYY-MM-DDTHH:MM` one reader saw, and its microseconds: a log writes many rows a
/// minute (even the benchmark's year-long logs, a row every few seconds), and the rest of a
/// timestamp (seconds, fraction and zone) is quicker to read than its start. (Caching the
/// second instead missed on nearly every row of such logs.)
/// Also the last date, `YYYY-MM-DD`, and its midnight: a log spread over months writes rows
/// seconds apart, nearly all of them on the day of the row before.
/// For nginx `$time_local`, the same: the last date, `DD/Mon/YYYY`, and its midnight.
#[derive(Debug, Clone, Default)]
pub struct LastMinute {
    /// The first 16 bytes of the last timestamp whose first 19 were `YYYY-MM-DDTHH:MM:SS`.
    minute: u128,
    minute_micros: Option<i64>,
    date: [u8; 10],
    midnight: Option<i64>,
    local_date: [u8; 11],
    local_midnight: Option<i64>,
}

impl LastMinute {
    /// The microseconds of `YYYY-MM-DDTHH:MM:SS`, the first 19 bytes of `b`, when they are
    /// exactly that (so [`parse_iso`] would read the rest from byte 19); the date is read only
    /// when it is not the last one's.
    #[inline]
    fn seconds(&mut self, b: &[u8]) -> Option<i64> {
        if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
            return None;
        }
        if !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        let date = &b[..10];
        let midnight = match self.midnight {
            Some(m) if *date == self.date => m,
            _ => {
                let days = day_number(digits::<4>(b, 0)?, digits::<2>(b, 5)?, digits::<2>(b, 8)?)?;
                self.date.copy_from_slice(date);
                self.midnight = Some(days * MICROS_PER_DAY);
                days * MICROS_PER_DAY
            }
        };
        let (h, mi, s) = clock(b, 11)?;
        Some(midnight + time_micros(h, mi, s)?)
    }

    /// The microseconds of the minute of `b`, whose first 19 bytes must be exactly
    /// `YYYY-MM-DDTHH:MM:SS` (as for [`LastMinute::seconds`]); remembered as the last minute.
    #[cold]
    fn minute_of(&mut self, b: &[u8]) -> Option<i64> {
        let minute = self.seconds(b)? - second_micros(b)?;
        self.minute = minute_bytes(b);
        self.minute_micros = Some(minute);
        Some(minute)
    }
}

/// The first 16 bytes of `b` (which has at least 19), `YYYY-MM-DDTHH:MM`, as one number.
#[inline(always)]
fn minute_bytes(b: &[u8]) -> u128 {
    u128::from_le_bytes(b[..16].try_into().expect("16 bytes"))
}

/// The microseconds into its minute of a timestamp of 24 bytes ending in `:SS.mmmZ` (or `z`),
/// the usual end, read as one word; `None` for any other end (and for a leap second), which
/// [`second_micros`] and [`iso_rest`] read.
#[inline(always)]
fn seconds_and_millis(b: &[u8]) -> Option<i64> {
    let end: [u8; 8] = b.get(16..)?.try_into().ok()?;
    let w = u64::from_le_bytes(end);
    // Little-endian: byte `i` is bits `8i..8i + 8`: the colon is byte 0, the dot byte 3, the
    // zone byte 7, digits the others.
    const MARKS: u64 = 0x0000_0000_ff00_00ff;
    const HIGH: u64 = 0x00f0_f0f0_00f0_f000; // the digits' high nibbles
    const ZEROS: u64 = 0x0030_3030_0030_3000;
    let digits = (w & HIGH) == ZEROS
        // `0x3a`..`0x3f` plus 6 carry into the high nibble; `0x30`..`0x39` do not.
        && (w.wrapping_add(0x0006_0606_0006_0600) & HIGH) == ZEROS;
    if !digits || w & MARKS != 0x0000_0000_2e00_003a || (w >> 56) as u8 | 0x20 != b'z' {
        return None;
    }
    let d = |i: u32| ((w >> (8 * i)) & 0x0f) as i64;
    let s = d(1) * 10 + d(2);
    (s < 60).then(|| s * MICROS_PER_SEC + (d(4) * 100 + d(5) * 10 + d(6)) * 1_000)
}

/// The microseconds into its minute of a timestamp's `:SS` at bytes 16..19 (a leap second,
/// `:60`, as the minute's last microsecond, as [`time_micros`] reads it).
#[inline(always)]
fn second_micros(b: &[u8]) -> Option<i64> {
    let &[b':', tens, ones] = b.get(16..19)? else {
        return None;
    };
    let (tens, ones) = (tens.wrapping_sub(b'0'), ones.wrapping_sub(b'0'));
    if tens > 9 || ones > 9 {
        return None;
    }
    match tens * 10 + ones {
        60 => Some(59 * MICROS_PER_SEC + 999_999),
        s if s < 60 => Some(i64::from(s) * MICROS_PER_SEC),
        _ => None,
    }
}

impl LastMinute {
    /// [`parse_time_local`] of `b` (which [`is_time_local`]), its date read only when it is not
    /// the last one's.
    #[inline]
    fn time_local(&mut self, b: &[u8]) -> Option<i64> {
        let date = &b[..11];
        let midnight = match self.local_midnight {
            Some(m) if *date == self.local_date => m,
            _ => {
                let m = time_local_midnight(b)?;
                self.local_date.copy_from_slice(date);
                self.local_midnight = Some(m);
                m
            }
        };
        time_local_after(midnight, b)
    }
}

/// A zone suffix in seconds east of UTC: empty (UTC), `Z`, `+HH:MM`, `+HHMM`, `+HH`, and
/// ` UTC`/` GMT`.
#[inline]
fn parse_offset(b: &[u8]) -> Option<i64> {
    // nginx's ` +0000`, and any ` ±HHMM`, first: six bytes told at once.
    if let &[b' ', sign @ (b'+' | b'-'), h1, h2, m1, m2] = b {
        let d = |c: u8| u32::from(c.wrapping_sub(b'0'));
        let (h, m) = (d(h1) * 10 + d(h2), d(m1) * 10 + d(m2));
        if [h1, h2, m1, m2].iter().all(u8::is_ascii_digit) && h <= 23 && m <= 59 {
            let secs = i64::from(h * 3600 + m * 60);
            return Some(if sign == b'-' { -secs } else { secs });
        }
        return None;
    }
    let b = match b {
        [b' ', rest @ ..] => rest,
        _ => b,
    };
    match b {
        [] | [b'Z' | b'z'] | b"UTC" | b"GMT" => Some(0),
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let h = digits::<2>(rest, 0)?;
            let m = match rest.len() {
                2 => 0,
                4 => digits::<2>(rest, 2)?,
                5 if rest[2] == b':' => digits::<2>(rest, 3)?,
                _ => return None,
            };
            if h > 23 || m > 59 {
                return None;
            }
            let secs = i64::from(h * 3600 + m * 60);
            Some(if *sign == b'-' { -secs } else { secs })
        }
        _ => None,
    }
}

/// Whether [`parse_auto`] reads `b` as nginx `$time_local`.
#[inline]
fn is_time_local(b: &[u8]) -> bool {
    !(b.len() >= 10 && b[4] == b'-') && b.len() >= 20 && b[2] == b'/'
}

/// nginx `$time_local`: `01/Nov/2026:00:00:01 +0000`; also with a fraction of a second and
/// no zone, as HAProxy's `accept_date` (`01/Nov/2026:00:00:01.123`, read as UTC).
fn parse_time_local(b: &[u8]) -> Option<i64> {
    time_local_after(time_local_midnight(b)?, b)
}

/// The microseconds of `$time_local` `b` (at least 20 bytes) after the midnight of its date:
/// `HH:MM:SS` from byte 12, then a fraction and a zone.
#[inline]
fn time_local_after(midnight: i64, b: &[u8]) -> Option<i64> {
    if b[11] != b':' {
        return None;
    }
    // `HH:MM:SS` as one 8-byte word, as RFC 3339's clock.
    let (h, mi, s) = clock(b, 12)?;
    let mut base = midnight + time_micros(h, mi, s)?;
    let mut rest = &b[20..];
    if let [b'.', frac @ ..] = rest {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        let digits = decimal(&frac[..n.min(6)])?;
        base += (digits * 10u64.pow(6 - n.min(6) as u32)) as i64;
        rest = &frac[n..];
    }
    let offset = parse_offset(rest)?;
    Some(base - offset * MICROS_PER_SEC)
}

/// The midnight (µs) of the date of `$time_local` `b`, `DD/Mon/YYYY` (at least 20 bytes).
fn time_local_midnight(b: &[u8]) -> Option<i64> {
    let d = digits::<2>(b, 0)?;
    let mo = match b.get(3..6)? {
        m if m.eq_ignore_ascii_case(b"jan") => 1,
        m if m.eq_ignore_ascii_case(b"feb") => 2,
        m if m.eq_ignore_ascii_case(b"mar") => 3,
        m if m.eq_ignore_ascii_case(b"apr") => 4,
        m if m.eq_ignore_ascii_case(b"may") => 5,
        m if m.eq_ignore_ascii_case(b"jun") => 6,
        m if m.eq_ignore_ascii_case(b"jul") => 7,
        m if m.eq_ignore_ascii_case(b"aug") => 8,
        m if m.eq_ignore_ascii_case(b"sep") => 9,
        m if m.eq_ignore_ascii_case(b"oct") => 10,
        m if m.eq_ignore_ascii_case(b"nov") => 11,
        m if m.eq_ignore_ascii_case(b"dec") => 12,
        _ => return None,
    };
    if b[2] != b'/' || b[6] != b'/' {
        return None;
    }
    let y = digits::<4>(b, 7)?;
    Some(day_number(y, mo, d)? * MICROS_PER_DAY)
}

/// Epoch seconds (optionally with a fraction, like nginx `$msec`), milliseconds, microseconds
/// or nanoseconds, told apart by magnitude: below 1e11 seconds (until the year 5138), below
/// 1e14 milliseconds, below 1e17 microseconds, else nanoseconds.
fn parse_epoch(b: &[u8]) -> Option<i64> {
    let (int, frac) = match memchr::memchr(b'.', b) {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    if int.is_empty() {
        return None;
    }
    let v = i64::try_from(decimal(int)?).ok()?;
    let mut frac_micros = 0i64;
    if let Some(frac) = frac {
        let mut scale = 100_000i64;
        for &c in frac {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                return None;
            }
            frac_micros += i64::from(d) * scale;
            scale /= 10;
        }
    }
    if v < 100_000_000_000 {
        Some(v * MICROS_PER_SEC + frac_micros)
    } else if frac.is_some() {
        None
    } else if v < 100_000_000_000_000 {
        Some(v * 1000)
    } else if v < 100_000_000_000_000_000 {
        Some(v)
    } else {
        Some(v / 1000)
    }
}

/// RFC 3339 text of a microsecond timestamp, in UTC.
pub fn to_rfc3339(micros: i64) -> String {
    let mut out = Vec::new();
    write_rfc3339(micros, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// [`to_rfc3339`] appended to `out`, without a string of its own.
pub fn write_rfc3339(micros: i64, out: &mut Vec<u8>) {
    use std::io::Write;
    // Writing to a Vec cannot fail.
    let _ = match Timestamp::from_microsecond(micros) {
        Ok(ts) => write!(out, "{ts}"),
        Err(_) => write!(out, "{micros}"),
    };
}

/// [`write_rfc3339`] for a run of timestamps, most in the second of the one before: the
/// text of the last second is kept and only the fraction is written anew, byte for byte as
/// [`write_rfc3339`] writes it (jiff: the fraction's digits without trailing zeros).
#[derive(Debug, Default)]
pub struct Rfc3339Writer {
    /// The second whose text is kept, if any.
    second: Option<i64>,
    /// That second's text, without its `Z`.
    text: Vec<u8>,
}

impl Rfc3339Writer {
    pub fn write(&mut self, micros: i64, out: &mut Vec<u8>) {
        let second = micros.div_euclid(1_000_000);
        if self.second != Some(second) {
            // Kept only for a second jiff writes from its first microsecond to its last: the
            // range of `from_microsecond` ends at its last second's first microsecond.
            let first = second.checked_mul(1_000_000).filter(|&first| {
                Timestamp::from_microsecond(first).is_ok()
                    && Timestamp::from_microsecond(first.saturating_add(999_999)).is_ok()
            });
            let Some(first) = first else {
                write_rfc3339(micros, out);
                return;
            };
            self.text.clear();
            write_rfc3339(first, &mut self.text);
            if self.text.pop() != Some(b'Z') {
                self.second = None;
                write_rfc3339(micros, out);
                return;
            }
            self.second = Some(second);
        }
        out.extend_from_slice(&self.text);
        let fraction = micros.rem_euclid(1_000_000) as u32;
        if fraction != 0 {
            let mut digits = *b".000000";
            let mut rest = fraction;
            for d in digits[1..].iter_mut().rev() {
                *d = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            // Not all zeros: the `.` is never reached.
            let mut len = digits.len();
            while digits[len - 1] == b'0' {
                len -= 1;
            }
            out.extend_from_slice(&digits[..len]);
        }
        out.push(b'Z');
    }
}

/// `YYYY-MM-DD` of a day number.
pub fn date_string(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Reading a run of timestamps with the last minute and date remembered gives what
        /// reading each alone gives: same second, date or not, valid or not (February 29th and
        /// 30th, month 13, hour 24, minute 60, leap and bad seconds), any fraction, zone or
        /// garbage after it.
        #[test]
        fn last_minute_changes_no_result(
            stamps in proptest::collection::vec(
                (
                    prop_oneof![
                        4 => (1u8..4).prop_map(|d| format!("2026-11-0{d}")),
                        1 => prop_oneof![
                            Just("2024-02-29"), Just("2026-02-29"), Just("2026-02-30"),
                            Just("2026-13-01"), Just("2026-00-10"), Just("2026-11-00"),
                            Just("2026-11-32"), Just("1969-12-31"), Just("2026-1x-01"),
                            Just("2026/11/01"),
                        ].prop_map(String::from),
                    ],
                    prop_oneof![
                        4 => (0u32..3).prop_map(|s| format!("10:00:0{s}")),
                        // Seconds apart within a minute and across minutes: the remembered
                        // minute.
                        2 => (0u32..3, 0u32..3).prop_map(|(m, s)| format!("10:0{m}:5{s}")),
                        1 => prop_oneof![
                            Just("23:59:60"), Just("23:59:61"), Just("24:00:00"), Just("10:60:00"),
                            Just("00:00:59"), Just("1a:00:00"), Just("10:00:0 "), Just("10-00-00"),
                            Just("23:59:59"), Just("23:59:6x"), Just("23:59;59"), Just("23:59:99"),
                        ].prop_map(String::from),
                        // Bytes beside the digits' and the colon's (`/`, `;`, `9`, `:`)
                        // anywhere: the clock is read as one word.
                        2 => "[0-9/:;]{2}[0-9/:;]{3}[0-9/:;]{3}",
                    ],
                    prop_oneof![
                        Just(String::new()),
                        "[.,][0-9]{0,7}",
                        "Z|z|[+-][0-9]{2}(:?[0-9]{2})?| UTC| GMT",
                        "[.][0-9]{1,6}(Z|[+-]0[0-9]:[0-5][0-9])",
                        "[.,][0-9/:]{3}[Zz]?",
                        "[.][0-9/:]{6}[Zz]?",
                        "[ -~]{0,6}",
                    ],
                    prop_oneof![Just('T'), Just(' '), Just('t'), Just('x')],
                    any::<bool>(),
                ),
                1..30,
            ),
        ) {
            let auto = TimestampFormat::Auto;
            let mut last = LastMinute::default();
            for (date, time, rest, sep, minutes_only) in stamps {
                let time = if minutes_only { &time[..5] } else { &time[..] };
                let text = format!("{date}{sep}{time}{rest}");
                // Against the plain path, which remembers nothing.
                prop_assert_eq!(
                    auto.parse_after(text.as_bytes(), &mut last),
                    parse_auto(trim(text.as_bytes())),
                    "{}", text
                );
            }
        }
    }

    proptest! {
        /// The quick readings (the clock as one word, `.123Z`) give what jiff gives, as the
        /// plain path does for `.123456Z` (invalid ones are held to the plain path above).
        #[test]
        fn quick_iso_readings_agree_with_jiff(
            text in "2026-11-0[1-3]T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9][.]([0-9]{3}|[0-9]{6})[Zz]",
        ) {
            prop_assert_eq!(parse_auto(text.as_bytes()), parse_with_jiff(text.as_bytes()), "{}", text);
            let mut last = LastMinute::default();
            prop_assert_eq!(
                TimestampFormat::Auto.parse_after(text.as_bytes(), &mut last),
                parse_with_jiff(text.as_bytes()),
                "{}", text
            );
        }
    }

    proptest! {
        /// The same for nginx `$time_local`: the remembered date changes no result, over runs
        /// of valid and invalid dates (February 29th and 30th, day 32, an unknown month, lower
        /// case, a bad separator), times, fractions and zones.
        #[test]
        fn last_date_of_time_local_changes_no_result(
            stamps in proptest::collection::vec(
                (
                    prop_oneof![
                        4 => (1u8..4).prop_map(|d| format!("0{d}/Nov/2026")),
                        1 => prop_oneof![
                            Just("29/Feb/2024"), Just("29/Feb/2026"), Just("30/Feb/2026"),
                            Just("32/Nov/2026"), Just("00/Nov/2026"), Just("01/Foo/2026"),
                            Just("01/nov/2026"), Just("01/NOV/2026"), Just("1x/Nov/2026"),
                            Just("01-Nov-2026"), Just("01/Nov/20x6"), Just("01/Nov/2026-"),
                        ].prop_map(String::from),
                    ],
                    prop_oneof![
                        4 => (0u32..3).prop_map(|s| format!("10:00:0{s}")),
                        1 => prop_oneof![
                            Just("23:59:60"), Just("23:59:61"), Just("24:00:00"), Just("10:60:00"),
                            Just("1a:00:00"), Just("10:00:0 "), Just("10-00-00"),
                        ].prop_map(String::from),
                    ],
                    prop_oneof![
                        Just(String::from(" +0000")),
                        Just(String::new()),
                        "[.][0-9]{0,10}",
                        " [+-][0-9]{2}(:?[0-9]{2})?| UTC|Z",
                        "[.][0-9]{1,6} [+-]0[0-9][0-5][0-9]",
                        "[ -~]{0,6}",
                    ],
                    prop_oneof![Just(':'), Just(' ')],
                    prop_oneof![Just(""), Just("["), Just("\"")],
                ),
                1..30,
            ),
        ) {
            let auto = TimestampFormat::Auto;
            let mut last = LastMinute::default();
            for (date, time, rest, sep, open) in stamps {
                let text = format!("{open}{date}{sep}{time}{rest}");
                prop_assert_eq!(
                    auto.parse_after(text.as_bytes(), &mut last),
                    parse_auto(trim(text.as_bytes())),
                    "{}", text
                );
            }
        }
    }

    fn jiff_micros(text: &str) -> i64 {
        text.parse::<Timestamp>().unwrap().as_microsecond()
    }

    #[test]
    fn iso_layouts() {
        for text in [
            "2026-11-01T00:00:01Z",
            "2026-11-01T00:00:01.123Z",
            "2026-11-01T00:00:01.123456789Z",
            "2026-11-01T05:30:01+05:30",
            "2026-11-01T00:00:01-0800",
            "2024-02-29T23:59:59.5+00:00",
            "1969-12-31T23:59:59Z",
        ] {
            assert_eq!(
                parse_auto(text.as_bytes()),
                Some(jiff_micros(text)),
                "{text}"
            );
        }
        let utc = jiff_micros("2026-11-01T00:00:01Z");
        assert_eq!(parse_auto(b"2026-11-01 00:00:01"), Some(utc));
        assert_eq!(parse_auto(b"2026-11-01T00:00:01"), Some(utc));
        assert_eq!(parse_auto(b"2026-11-01"), Some(utc - MICROS_PER_SEC));
        assert_eq!(parse_auto(b"2026-11-01 00:00:01 UTC"), Some(utc));
    }

    /// One to nine digits of a fraction, as jiff reads them (to the microsecond, truncated).
    #[test]
    fn fractions_of_every_length() {
        for n in 1..=9 {
            let text = format!("2026-11-01T00:00:01.{}Z", &"987654321"[..n]);
            assert_eq!(
                parse_auto(text.as_bytes()),
                Some(jiff_micros(&text)),
                "{text}"
            );
        }
        assert_eq!(parse_auto(b"2026-11-01T00:00:01.Z"), None);
    }

    #[test]
    fn nginx_time_local_and_epochs() {
        let utc = jiff_micros("2026-11-01T00:00:01Z");
        assert_eq!(parse_auto(b"01/Nov/2026:00:00:01 +0000"), Some(utc));
        let auto = TimestampFormat::Auto;
        assert_eq!(auto.parse(b"[01/Nov/2026:01:00:01 +0100]"), Some(utc));
        // HAProxy's accept_date: milliseconds, no zone.
        assert_eq!(parse_auto(b"01/Nov/2026:00:00:01.655"), Some(utc + 655_000));
        assert_eq!(
            parse_auto(b"01/Nov/2026:00:00:01.5 +0000"),
            Some(utc + 500_000)
        );
        assert_eq!(parse_auto(b"01/Nov/2026:00:00:01."), None);
        let secs = utc / MICROS_PER_SEC;
        assert_eq!(parse_auto(secs.to_string().as_bytes()), Some(utc));
        assert_eq!(
            parse_auto(format!("{secs}.250").as_bytes()),
            Some(utc + 250_000)
        );
        assert_eq!(parse_auto((secs * 1000).to_string().as_bytes()), Some(utc));
        assert_eq!(
            parse_auto((secs * 1_000_000).to_string().as_bytes()),
            Some(utc)
        );
        assert_eq!(
            parse_auto((secs * 1_000_000_000).to_string().as_bytes()),
            Some(utc)
        );
    }

    /// The six-byte zones (` +0000`, nginx's) read at once as the general path reads them.
    #[test]
    fn zones_of_time_local() {
        for (zone, want) in [
            (&b" +0000"[..], Some(0)),
            (b" -0130", Some(-5400)),
            (b" +2359", Some(86_340)),
            (b" +2400", None),
            (b" +0060", None),
            (b" +0a00", None),
            (b" *0000", None),
            (b" +05:30", Some(19_800)),
            (b"+0100", Some(3600)),
            (b" +01", Some(3600)),
        ] {
            assert_eq!(
                parse_offset(zone),
                want,
                "{}",
                String::from_utf8_lossy(zone)
            );
        }
        let utc = jiff_micros("2026-11-01T00:00:01Z");
        let auto = TimestampFormat::Auto;
        assert_eq!(auto.parse(b"31/Oct/2026:22:30:01 -0130"), Some(utc));
        assert_eq!(auto.parse(b"01/Nov/2026:00:0a:01 +0000"), None);
        assert_eq!(auto.parse(b"01/Nov/2026:00:00:01 +0a00"), None);
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "-",
            "2026-13-01T00:00:00Z",
            "2026-02-30",
            "2026-11-01T25:00:00Z",
            "2026-11-01T00:00:00+99:00",
            "32/Nov/2026:00:00:01 +0000",
            "01/Foo/2026:00:00:01 +0000",
            "12ab",
            "99999999999999999999",
            "hello",
            "2026-11-01T00:00:00Zjunk",
        ] {
            assert_eq!(parse_auto(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn strftime() {
        let f = TimestampFormat::Strftime("%d.%m.%Y %H:%M:%S".into());
        assert_eq!(
            f.parse(b"01.11.2026 00:00:01"),
            Some(jiff_micros("2026-11-01T00:00:01Z"))
        );
        let f = TimestampFormat::Strftime("%Y/%m/%d %H:%M:%S %z".into());
        assert_eq!(
            f.parse(b"2026/11/01 01:00:01 +0100"),
            Some(jiff_micros("2026-11-01T00:00:01Z"))
        );
        assert_eq!(f.parse(b"nonsense"), None);
    }

    #[test]
    fn civil_round_trip_matches_jiff() {
        // Every 7th day over 1600..2400, against jiff's own date arithmetic.
        let mut day = days_from_civil(1600, 1, 1);
        while day < days_from_civil(2400, 1, 1) {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
            let date = jiff::civil::date(y as i16, m as i8, d as i8);
            let ts = jiff::tz::TimeZone::UTC
                .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
                .unwrap();
            assert_eq!(ts.as_second(), day * 86_400);
            day += 7;
        }
        assert_eq!(date_string(0), "1970-01-01");
        assert_eq!(to_rfc3339(0), "1970-01-01T00:00:00Z");
    }

    proptest! {
        /// The writer that keeps the last second's text writes what [`write_rfc3339`] writes,
        /// whatever came before: runs within a second, across seconds, before 1970, at and
        /// beyond the ends of jiff's range.
        #[test]
        fn rfc3339_writer_writes_what_jiff_writes(
            base in prop_oneof![
                Just(0i64),
                Just(-1),
                Just(1_796_601_600_000_000),
                Just(Timestamp::MIN.as_microsecond()),
                Just(Timestamp::MAX.as_microsecond()),
                Just(i64::MIN),
                Just(i64::MAX),
                any::<i64>(),
            ],
            steps in proptest::collection::vec(
                prop_oneof![0i64..3, -3i64..3_000_000, Just(1_000_000), Just(-1_000_000)],
                1..40,
            ),
        ) {
            let mut writer = Rfc3339Writer::default();
            let mut micros = base;
            for step in steps {
                micros = micros.saturating_add(step);
                let (mut want, mut got) = (Vec::new(), b"x".to_vec());
                write_rfc3339(micros, &mut want);
                writer.write(micros, &mut got);
                prop_assert_eq!(&got[1..], &want[..], "{}", micros);
            }
        }
    }

    #[test]
    fn rfc3339_writer_trims_the_fraction_as_jiff_does() {
        let mut writer = Rfc3339Writer::default();
        let mut out = Vec::new();
        for micros in [1_500_000, 1_000_010, 1_000_000, -1, -1_000_000, 999_999] {
            writer.write(micros, &mut out);
            out.push(b' ');
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "1970-01-01T00:00:01.5Z 1970-01-01T00:00:01.00001Z 1970-01-01T00:00:01Z \
             1969-12-31T23:59:59.999999Z 1969-12-31T23:59:59Z 1970-01-01T00:00:00.999999Z "
        );
    }
}
