//! Parsing and display of the input units: rates, money, counts, durations and sizes.
//!
//! Each kind is a small type with `FromStr` (used by clap, the scenario file and the TUI's
//! editor) and `Display` (the canonical short form, which parses back to the same value).
//! Error messages say what was wrong and which forms are accepted; the caller adds the flag.

use std::fmt;
use std::str::FromStr;

/// A share between 0 and 1, written as a fraction (`0.002`) or a percentage (`0.2%`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Rate(pub f64);

/// A non-negative amount of money: `40`, `40.50`, `$40`, `1,250`, `1_250`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Money(pub f64);

/// An amount of money as a flag gives it, with the currency it was written in, if any
/// (`€85`, `85 EUR`): the report's symbol follows the value unless `--currency` is given.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
pub struct Priced(pub f64, pub Option<String>);

impl FromStr for Priced {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(Priced(s.parse::<Money>()?.0, currency_of(s)))
    }
}

/// A non-negative count: `20000`, `20,000`, `20_000`, `20k`, `1.5M`, `2e4`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Count(pub f64);

/// A duration in whole seconds: `24h`, `1d`, `90m`, `30s`, `1h30m`; a bare number other than
/// 0 is refused (`--ttl 48` could mean hours), while a scenario file's `ttl_seconds` number is
/// read as seconds without coming here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Duration(pub u64);

/// A duration in seconds, fractions allowed: `10s`, `1.5s`, `500ms`, `2m`; a bare number other
/// than 0 is refused, as for [`Duration`] (the scenario file's `*_seconds` numbers do not come here).
/// For the retry schedule, where sub-second timeouts and backoffs are common.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Seconds(pub f64);

/// A size in bytes: `1000`, `1kB`/`1KB` (1000), `1KiB` (1024), `MB`, `MiB`, `GB`, `GiB`...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Size(pub u64);

const RATE_FORMS: &str = "a fraction like 0.002 or a percentage like 0.2%";
const MONEY_FORMS: &str = "an amount like 40, 40.50, $40, €85, 85 EUR or 1,250";
const COUNT_FORMS: &str = "a number like 20000, 20,000, 20k or 1.5M";
const DURATION_FORMS: &str = "a duration like 24h, 1d, 90m, 30s or 1h30m";
const SECONDS_FORMS: &str = "a duration like 10s, 1.5s, 500ms or 2m";
const SIZE_FORMS: &str = "a size like 1000, 1kB, 1KiB, 4MB or 1GiB";

/// Parses a plain decimal number, refusing NaN, infinities and the empty string.
fn finite(text: &str) -> Option<f64> {
    // `f64::from_str` accepts "inf" and "NaN"; a user never means those.
    if text.is_empty()
        || text
            .bytes()
            .any(|b| b.is_ascii_alphabetic() && b != b'e' && b != b'E')
    {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Removes `_` digit separators and `,` thousands separators, checking the grouping of the
/// latter (`1,250` yes, `1,25` no: that is a decimal comma we refuse to guess at).
fn strip_separators(text: &str) -> Option<String> {
    // `_` only between two digits (`1_250`), as in Rust literals: `__-0` is not a number.
    let bytes = text.as_bytes();
    let digit_at = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
    let misplaced = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'_' && !(digit_at(i.checked_sub(1)) && digit_at(Some(i + 1))));
    if misplaced {
        return None;
    }
    let text = text.replace('_', "");
    if !text.contains(',') {
        return Some(text);
    }
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut groups = int.split(',');
    let first = groups.next()?;
    let first_ok = !first.is_empty() && first.len() <= 3;
    if !first_ok || !groups.all(|g| g.len() == 3) || frac.is_some_and(|f| f.contains(',')) {
        return None;
    }
    Some(text.replace(',', ""))
}

impl FromStr for Rate {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        if text.starts_with('-') {
            return Err(format!("'{s}' is negative: a rate is between 0 and 1"));
        }
        let value = if let Some(pct_text) = text.strip_suffix('%') {
            let pct = finite(pct_text.trim())
                .ok_or_else(|| format!("'{s}' is not a rate: use {RATE_FORMS}"))?;
            if !(0.0..=100.0).contains(&pct) {
                return Err(format!(
                    "'{s}' is out of range: a rate is between 0% and 100%"
                ));
            }
            // "0.35e-2" parses to the double nearest 0.0035; 0.35 / 100.0 would be one ulp off.
            format!("{}e-2", pct_text.trim())
                .parse::<f64>()
                .ok()
                .filter(|_| !pct_text.contains(['e', 'E']))
                .unwrap_or(pct / 100.0)
        } else {
            let v = finite(text).ok_or_else(|| format!("'{s}' is not a rate: use {RATE_FORMS}"))?;
            if v > 1.0 {
                return Err(format!(
                    "'{s}' is above 1: a rate is a fraction from 0 to 1; did you mean {text}%?"
                ));
            }
            if v < 0.0 {
                return Err(format!("'{s}' is negative: a rate is between 0 and 1"));
            }
            v
        };
        Ok(Rate(value))
    }
}

/// The smallest percentage [`Rate::rounded`] writes in digits (`0.000001%`): below it,
/// `<0.000001%`, so a figure for reading never turns to e-notation.
const SMALLEST_PERCENT: f64 = 1e-6;

impl Rate {
    /// For reading: a percentage to 4 significant figures (`1.942%`), a tiny one `<0.000001%`;
    /// not exact, see `Display`.
    pub fn rounded(self) -> String {
        let percent = self.0 * 100.0;
        if percent != 0.0 && percent.abs() < SMALLEST_PERCENT {
            let sign = if percent < 0.0 { "-" } else { "" };
            return format!("{sign}<0.000001%");
        }
        format!("{}%", significant(percent, 4))
    }
}

impl fmt::Display for Rate {
    /// As the shortest percentage that parses back to the same rate: `0.2%`, `0.35%`, `50%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shortest = (1..=17)
            .map(|digits| format!("{}%", significant(self.0 * 100.0, digits)))
            .find(|text| text.parse::<Rate>().is_ok_and(|back| back.0 == self.0));
        match shortest {
            Some(text) => f.write_str(&text),
            None => write!(f, "{:e}", self.0), // the exact fraction, which always parses back
        }
    }
}

impl FromStr for Money {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let bad = || format!("'{s}' is not an amount of money: use {MONEY_FORMS}");
        let number = split_currency(text).0;
        if number.starts_with('-') || text.starts_with('-') {
            return Err(format!("'{s}' is negative: an amount of money is >= 0"));
        }
        let plain = strip_separators(number).ok_or_else(bad)?;
        let value = finite(&plain).ok_or_else(bad)?;
        if value < 0.0 {
            return Err(format!("'{s}' is negative: an amount of money is >= 0"));
        }
        Ok(Money(value))
    }
}

/// The currency symbols an amount may carry (`$40`, `40€`).
fn is_symbol(c: char) -> bool {
    matches!(c, '$' | '€' | '£' | '¥' | '₹' | '₩' | '₽' | '¤')
}

/// ISO 4217 codes with a symbol of their own; another three-letter code is shown as itself.
const CODES: [(&str, &str); 8] = [
    ("USD", "$"),
    ("EUR", "€"),
    ("GBP", "£"),
    ("JPY", "¥"),
    ("CNY", "¥"),
    ("INR", "₹"),
    ("KRW", "₩"),
    ("RUB", "₽"),
];

/// An amount split from its currency: `€85`, `85€`, `85 EUR`, `EUR 85` give (`85`, `€`); a
/// code without a symbol of its own is kept as written (`85 CHF` gives `CHF `).
fn split_currency(text: &str) -> (&str, Option<String>) {
    let text = text.trim();
    let start = text.trim_start_matches(is_symbol);
    if start.len() < text.len() {
        let symbol = &text[..text.len() - start.len()];
        return (start.trim(), Some(symbol.to_string()));
    }
    let end = text.trim_end_matches(is_symbol);
    if end.len() < text.len() {
        return (end.trim(), Some(text[end.len()..].to_string()));
    }
    let code = |word: &str| -> Option<String> {
        let upper = word.len() == 3 && word.bytes().all(|b| b.is_ascii_alphabetic());
        upper.then(|| {
            let word = word.to_ascii_uppercase();
            CODES
                .iter()
                .find(|(c, _)| *c == word)
                .map_or(format!("{word} "), |(_, s)| s.to_string())
        })
    };
    if let Some((number, word)) = text.rsplit_once(' ')
        && let Some(symbol) = code(word.trim())
    {
        return (number.trim(), Some(symbol));
    }
    if let Some((word, number)) = text.split_once(' ')
        && let Some(symbol) = code(word.trim())
    {
        return (number.trim(), Some(symbol));
    }
    (text, None)
}

/// The currency an amount was written with (`€85`, `85 EUR`), as the symbol a report shows
/// before money; `None` for a plain number.
pub fn currency_of(text: &str) -> Option<String> {
    split_currency(text).1
}

impl fmt::Display for Money {
    /// Plain number (no symbol), to cents when there are any: `40`, `12.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cents = (self.0 * 100.0).round() / 100.0;
        if (cents - self.0).abs() < 1e-9 * self.0.abs().max(1.0) {
            write!(f, "{cents}")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl FromStr for Count {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let bad = || format!("'{s}' is not a count: use {COUNT_FORMS}");
        let (number, scale) = match text.char_indices().last() {
            Some((i, 'k' | 'K')) => (&text[..i], 1e3),
            Some((i, 'M')) => (&text[..i], 1e6),
            Some((i, 'B' | 'G')) => (&text[..i], 1e9),
            _ => (text, 1.0),
        };
        if number.trim_start().starts_with('-') {
            return Err(format!("'{s}' is negative: a count is >= 0"));
        }
        let plain = strip_separators(number.trim()).ok_or_else(bad)?;
        let value = finite(&plain).ok_or_else(bad)? * scale;
        if !value.is_finite() {
            return Err(bad());
        }
        if value < 0.0 {
            return Err(format!("'{s}' is negative: a count is >= 0"));
        }
        Ok(Count(value))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Duration {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let bad = || format!("'{s}' is not a duration: use {DURATION_FORMS}");
        if text.starts_with('-') {
            return Err(format!("'{s}' is negative: a duration is > 0"));
        }
        no_unit(s, "1d, 24h, 90m or 30s", Scale::Long)?;
        let d = humantime::parse_duration(text).map_err(|_| bad())?;
        if d.subsec_nanos() != 0 {
            return Err(format!("'{s}' is not a whole number of seconds"));
        }
        Ok(Duration(d.as_secs()))
    }
}

/// The span a kind of duration lives in, for the unit a bare number most likely meant.
#[derive(Clone, Copy)]
enum Scale {
    /// An attempt's timeout, a backoff: seconds, or milliseconds from 100 up (`1500`).
    Short,
    /// A key's TTL: hours up to a week's 168, seconds above (`86400`).
    Long,
}

impl Scale {
    /// The unit that fits `value` written bare.
    fn unit(self, value: f64) -> &'static str {
        match self {
            Scale::Short if value >= 100.0 => "ms",
            Scale::Short => "s",
            Scale::Long if value <= 168.0 => "h",
            Scale::Long => "s",
        }
    }
}

/// Refuses a duration written as a bare number other than 0: `48` could be seconds, minutes or
/// hours, and a wrong guess is a silently wrong figure. `0` is 0 in every unit. The message
/// suggests the unit that fits the number for this kind of duration (`1500` -> `1500ms` for
/// an attempt's timeout, `48` -> `48h` for a TTL).
fn no_unit(s: &str, forms: &str, scale: Scale) -> Result<(), String> {
    let text = s.trim();
    match finite(text) {
        Some(v) if v != 0.0 => Err(format!(
            "'{text}' has no unit: did you mean {text}{}? (write it as {forms})",
            scale.unit(v)
        )),
        _ => Ok(()),
    }
}

/// Whether `text` is a plain number with a fractional part (`2.5`), for the whole-number
/// inputs' errors: "'2.5' is not a whole number".
pub fn is_fraction(text: &str) -> bool {
    finite(text.trim()).is_some_and(|v| v.fract() != 0.0)
}

/// A rate written as a bare fraction that reads as 1% or more (`0.2` is 20%): the number a
/// person who means `0.2%` types from memory. `None` for a percentage, 0, 1 or a small fraction.
pub fn bare_fraction_note(text: &str) -> Option<String> {
    let text = text.trim();
    let v = finite(text)?;
    if !(0.01..1.0).contains(&v) {
        return None;
    }
    let pct = Rate(v).to_string();
    Some(format!(
        "read {text} as {pct}; write {text}% for {} in a thousand",
        significant(v * 10.0, 3)
    ))
}

impl fmt::Display for Duration {
    /// Compact and parseable back: `1d`, `36h` is `1d12h`, `1h30m`, `45s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0s");
        }
        let mut rest = self.0;
        for (unit, secs) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
            if rest >= secs {
                write!(f, "{}{unit}", rest / secs)?;
                rest %= secs;
            }
        }
        Ok(())
    }
}

impl FromStr for Seconds {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let bad = || format!("'{s}' is not a duration: use {SECONDS_FORMS}");
        if text.starts_with('-') {
            return Err(format!("'{s}' is negative: a duration is >= 0"));
        }
        no_unit(s, "10s, 1.5s, 500ms or 2m", Scale::Short)?;
        // `1.5s` exactly as the decimal 1.5 (humantime would add 1 s and 500 ms).
        let plain = text
            .strip_suffix('s')
            .filter(|n| !n.ends_with(char::is_alphabetic));
        if let Some(secs) = finite(text).or_else(|| plain.and_then(|n| finite(n.trim()))) {
            return Ok(Seconds(secs));
        }
        // humantime reads `1.5s` as 1 s 500 ms and `1.5h` as 5400 s; past its range is an error.
        let d = humantime::parse_duration(text).map_err(|_| bad())?;
        Ok(Seconds(d.as_secs_f64()))
    }
}

impl fmt::Display for Seconds {
    /// Seconds with a unit, the shortest form that parses back: `10s`, `1.5s`, `0.25s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", self.0)
    }
}

impl Seconds {
    /// For reading: `47s`, `1.5s`, `2m 3s` past a minute, to 3 significant figures below 1 s.
    pub fn rounded(self) -> String {
        let v = self.0;
        if !v.is_finite() {
            return format!("{v}s");
        }
        if v >= 60.0 {
            let total = v.round() as u64;
            return Duration(total).to_string();
        }
        format!("{}s", significant(v, 3))
    }
}

impl FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let bad = || format!("'{s}' is not a size: use {SIZE_FORMS}");
        if text.starts_with('-') {
            return Err(format!("'{s}' is negative: a size is > 0"));
        }
        let split = text
            .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let number = finite(&strip_separators(number.trim()).ok_or_else(bad)?).ok_or_else(bad)?;
        let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1.0,
            "kb" | "k" => 1e3,
            "mb" | "m" => 1e6,
            "gb" | "g" => 1e9,
            "tb" | "t" => 1e12,
            "kib" | "ki" => 1024.0,
            "mib" | "mi" => 1024.0 * 1024.0,
            "gib" | "gi" => 1024.0 * 1024.0 * 1024.0,
            "tib" | "ti" => 1024.0f64.powi(4),
            _ => return Err(bad()),
        };
        let bytes = number * scale;
        if bytes.fract() != 0.0 {
            return Err(format!("'{s}' is not a whole number of bytes"));
        }
        if bytes > u64::MAX as f64 {
            return Err(format!("'{s}' is too large"));
        }
        Ok(Size(bytes as u64))
    }
}

impl fmt::Display for Size {
    /// `1kB`, `2KiB`, `20MB`, or plain bytes: the shortest exact form, parseable back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units: [(&str, u64); 8] = [
            ("TiB", 1 << 40),
            ("TB", 1_000_000_000_000),
            ("GiB", 1 << 30),
            ("GB", 1_000_000_000),
            ("MiB", 1 << 20),
            ("MB", 1_000_000),
            ("KiB", 1 << 10),
            ("kB", 1_000),
        ];
        for (unit, bytes) in units {
            if self.0 >= bytes && self.0 % bytes == 0 {
                return write!(f, "{}{unit}", self.0 / bytes);
            }
        }
        write!(f, "{}", self.0)
    }
}

/// `value` rounded to `digits` significant figures, as a number (`24_048.3` to 3: `24_000`).
pub(crate) fn round_significant(value: f64, digits: i32) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(value.abs().log10().floor() as i32 + 1 - digits);
    (value / scale).round() * scale
}

/// The bounds `[low, high]` rounded outward to `digits` significant figures (`low` down,
/// `high` up), so the rounded interval still holds every value the exact one does:
/// `[20_282.4, 20_282.4]` to 3 is `[20_200, 20_300]`, where rounding each to nearest gave
/// `[20_300, 20_300]`, an interval without its own figure.
pub(crate) fn round_outward(bounds: [f64; 2], digits: i32) -> [f64; 2] {
    let towards = |value: f64, up: bool| {
        if value == 0.0 || !value.is_finite() {
            return value;
        }
        let exponent = value.abs().log10().floor() as i32 + 1 - digits;
        // Divided by a whole power of ten below 1, not multiplied by its inexact inverse:
        // 13 / 1000 is 0.013, 13 * 0.001 is 0.013000000000000001.
        let p = 10f64.powi(exponent.abs());
        let scaled = if exponent < 0 { value * p } else { value / p };
        // A scaled value a hair off a whole number (binary fractions) is that number.
        let whole = scaled.round();
        let n = if (scaled - whole).abs() < 1e-9 {
            whole
        } else if up {
            scaled.ceil()
        } else {
            scaled.floor()
        };
        if exponent < 0 { n / p } else { n * p }
    };
    [towards(bounds[0], false), towards(bounds[1], true)]
}

/// `value` rounded to `digits` significant figures, without trailing zeros (`0.2`, `1.94`).
pub(crate) fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    if !(-6..21).contains(&magnitude) {
        // Scientific, not hundreds of zeros: `2.5e-9`.
        let text = format!("{value:.*e}", (digits - 1).max(0) as usize);
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        return format!("{mantissa}e{exponent}");
    }
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_significant_figures() {
        assert_eq!(round_significant(3_177.71, 3), 3_180.0);
        assert_eq!(round_significant(10_103.1, 3), 10_100.0);
        assert_eq!(round_significant(-0.012_345, 2), -0.012);
        assert_eq!(round_significant(0.0, 3), 0.0);
        assert_eq!(round_outward([20_282.4, 20_282.4], 3), [20_200.0, 20_300.0]);
        assert_eq!(round_outward([19_149.0, 29_751.0], 3), [19_100.0, 29_800.0]);
        assert_eq!(round_outward([24_000.0, 24_000.0], 3), [24_000.0, 24_000.0]);
        assert_eq!(round_outward([0.0, 0.012_31], 2), [0.0, 0.013]);
        assert!(round_significant(f64::NAN, 3).is_nan());
    }

    /// Tiny rates read without e-notation (their exact form is scientific, and parses back).
    #[test]
    fn tiny_rates_read_without_e_notation() {
        assert_eq!(Rate(1e-20).rounded(), "<0.000001%");
        assert_eq!(Rate(2.5e-9).rounded(), "<0.000001%");
        assert_eq!(Rate(-2.5e-9).rounded(), "-<0.000001%");
        assert_eq!(Rate(1e-8).rounded(), "0.000001%");
        assert_eq!(Rate(1.234e-8).rounded(), "0.000001234%");
        assert_eq!(Rate(0.00001234).rounded(), "0.001234%");
        assert_eq!(Rate(0.0).rounded(), "0%");
        for rate in [1e-300, 5e-324, 2.5e-9, 1e-8, 1e-5, 0.1, 1.0] {
            assert!(!Rate(rate).rounded().contains('e'), "{rate}");
        }
        for rate in [1e-300, 5e-324, 2.5e-9, 1.234_567_890_123e-15, 0.1, 1.0] {
            let shown = Rate(rate).to_string();
            assert!(shown.len() < 30, "{shown}");
            assert_eq!(shown.parse::<Rate>().unwrap().0, rate, "{shown}");
        }
    }

    #[test]
    fn rates() {
        assert_eq!("0.002".parse::<Rate>().unwrap().0, 0.002);
        assert_eq!("0.2%".parse::<Rate>().unwrap().0, 0.002);
        assert_eq!(" 50 % ".parse::<Rate>().unwrap().0, 0.5);
        assert_eq!("0.35%".parse::<Rate>().unwrap().0, 0.0035);
        assert_eq!("1e1%".parse::<Rate>().unwrap().0, 0.1);
        assert_eq!("1".parse::<Rate>().unwrap().0, 1.0);
        assert_eq!("0".parse::<Rate>().unwrap().0, 0.0);
        let err = "2".parse::<Rate>().unwrap_err();
        assert!(err.contains("did you mean 2%?"), "{err}");
        for bad in [
            "", "-0", "-0%", "abc", "-0.1", "NaN", "inf", "101%", "-1%", "0.2%%", "1e400",
        ] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
        assert_eq!(Rate(0.002).to_string(), "0.2%");
        assert_eq!(Rate(0.0194).to_string(), "1.94%");
        assert_eq!(Rate(0.5).to_string(), "50%");
        assert_eq!(Rate(0.0035).to_string(), "0.35%");
        // Found by fuzzing: four significant figures did not round-trip.
        assert_eq!(Rate(0.010502).to_string(), "1.0502%");
        assert_eq!(Rate(0.019417475728155338).rounded(), "1.942%");
        for text in [
            "1.0502%",
            "0.0001%",
            "99.99999%",
            "0.123456789",
            "1e-9",
            "0",
        ] {
            let rate: Rate = text.parse().unwrap();
            assert_eq!(rate.to_string().parse::<Rate>().unwrap(), rate, "{text}");
        }
    }

    #[test]
    fn money() {
        for (text, v) in [
            ("40", 40.0),
            ("40.50", 40.5),
            ("$40", 40.0),
            ("1,250", 1250.0),
            ("1_250", 1250.0),
            ("€12.5", 12.5),
            ("1,234,567.89", 1234567.89),
            ("0", 0.0),
        ] {
            assert_eq!(text.parse::<Money>().unwrap().0, v, "{text}");
        }
        for bad in [
            "",
            "$",
            "-5",
            "$-5",
            "1,25",
            "12,34,567",
            "abc",
            "NaN",
            "inf",
            "4O",
        ] {
            assert!(bad.parse::<Money>().is_err(), "{bad}");
        }
        assert_eq!(Money(12.5).to_string(), "12.5");
        for (text, v, symbol) in [
            ("€85", 85.0, Some("€")),
            ("85€", 85.0, Some("€")),
            ("85 EUR", 85.0, Some("€")),
            ("eur 85", 85.0, Some("€")),
            ("£1,250", 1250.0, Some("£")),
            ("85 CHF", 85.0, Some("CHF ")),
            ("85", 85.0, None),
        ] {
            assert_eq!(text.parse::<Money>().unwrap().0, v, "{text}");
            assert_eq!(currency_of(text).as_deref(), symbol, "{text}");
        }
    }

    /// A bare fraction that reads as a large percentage is noted in words; a percentage, a
    /// small fraction, 0 and 1 are not.
    #[test]
    fn bare_fractions() {
        assert_eq!(
            bare_fraction_note("0.2").unwrap(),
            "read 0.2 as 20%; write 0.2% for 2 in a thousand"
        );
        for quiet in ["0.2%", "0.002", "0", "1", "20%"] {
            assert_eq!(bare_fraction_note(quiet), None, "{quiet}");
        }
        assert!(is_fraction("2.5") && !is_fraction("2") && !is_fraction("x"));
    }

    #[test]
    fn counts() {
        for (text, v) in [
            ("20000", 20000.0),
            ("20,000", 20000.0),
            ("20_000", 20000.0),
            ("20k", 20000.0),
            ("1.5M", 1.5e6),
            ("2e4", 2e4),
            ("0", 0.0),
        ] {
            assert_eq!(text.parse::<Count>().unwrap().0, v, "{text}");
        }
        for bad in [
            "", "-1", "k", "abc", "NaN", "inf", "1e400", "2,00", "__-0", "-0",
        ] {
            assert!(bad.parse::<Count>().is_err(), "{bad}");
        }
    }

    #[test]
    fn durations() {
        for (text, v) in [
            ("24h", 86400),
            ("1d", 86400),
            ("90m", 5400),
            ("30s", 30),
            ("1h30m", 5400),
            ("0", 0),
            ("1h 30m", 5400),
            ("1.5h", 5400),
        ] {
            assert_eq!(text.parse::<Duration>().unwrap().0, v, "{text}");
        }
        for bad in ["", "-1h", "abc", "1.5s", "500ms", "h", "48", "3600"] {
            assert!(bad.parse::<Duration>().is_err(), "{bad}");
        }
        let err = "48".parse::<Duration>().unwrap_err();
        assert!(
            err.contains("'48' has no unit") && err.contains("48h"),
            "{err}"
        );
        for v in [1, 59, 60, 5400, 86400, 129600, 90061] {
            let shown = Duration(v).to_string();
            assert_eq!(shown.parse::<Duration>().unwrap().0, v, "{shown}");
        }
        assert_eq!(Duration(86400).to_string(), "1d");
        assert_eq!(Duration(5400).to_string(), "1h30m");
    }

    #[test]
    fn seconds() {
        for (text, v) in [
            ("10s", 10.0),
            ("1.5s", 1.5),
            ("500ms", 0.5),
            ("2m", 120.0),
            ("0", 0.0),
        ] {
            assert_eq!(text.parse::<Seconds>().unwrap().0, v, "{text}");
        }
        for bad in ["", "-1s", "abc", "NaN", "inf", "1e400", "10", "1.5"] {
            assert!(bad.parse::<Seconds>().is_err(), "{bad}");
        }
        assert!("10".parse::<Seconds>().unwrap_err().contains("no unit"));
        for v in [0.0, 0.1, 1.0, 10.0, 0.25, 123.456] {
            let shown = Seconds(v).to_string();
            assert_eq!(shown.parse::<Seconds>().unwrap().0, v, "{shown}");
        }
        assert_eq!(Seconds(47.0).rounded(), "47s");
        assert_eq!(Seconds(90.0).rounded(), "1m30s");
        assert_eq!(Seconds(0.1234).rounded(), "0.123s");
    }

    #[test]
    fn sizes() {
        for (text, v) in [
            ("1000", 1000),
            ("1kB", 1000),
            ("1KB", 1000),
            ("1KiB", 1024),
            ("1 KiB", 1024),
            ("4MB", 4_000_000),
            ("1MiB", 1 << 20),
            ("1GB", 1_000_000_000),
            ("1GiB", 1 << 30),
            ("1.5kB", 1500),
            ("512B", 512),
        ] {
            assert_eq!(text.parse::<Size>().unwrap().0, v, "{text}");
        }
        for bad in ["", "-1kB", "abc", "1XB", "0.5", "NaN", "inf", "1e30GB"] {
            assert!(bad.parse::<Size>().is_err(), "{bad}");
        }
        for v in [1, 1000, 1024, 2048, 1500, 20_000_000, 1 << 30] {
            let shown = Size(v).to_string();
            assert_eq!(shown.parse::<Size>().unwrap().0, v, "{shown}");
        }
        assert_eq!(Size(1000).to_string(), "1kB");
        assert_eq!(Size(2048).to_string(), "2KiB");
    }
}
