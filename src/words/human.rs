//! Number formatting for people: counts to 3 significant figures, money to whole units,
//! sizes to 3 significant figures. Shared by every human format and the TUI. Nothing here
//! writes e-notation: a figure too small to count reads `<0.001`, one too long to read as
//! digits is named (`1.00 quadrillion`).

/// From here on a figure's digits are named (`1.00 quadrillion`): sixteen digits help nobody.
const TOO_MANY_DIGITS: f64 = 1e15;

/// The smallest figure `count` shows as digits; below it, `<0.001`.
const SMALLEST: f64 = 1e-3;

/// The names of the powers of a thousand from [`TOO_MANY_DIGITS`] up.
const NAMES: [&str; 7] = [
    "quadrillion",
    "quintillion",
    "sextillion",
    "septillion",
    "octillion",
    "nonillion",
    "decillion",
];

/// `value` (at least [`TOO_MANY_DIGITS`] across) as 3 significant figures and a name:
/// `1.00 quadrillion`, `-250 quintillion`; past the last name its digits, grouped.
fn named(value: f64) -> String {
    let mut scale = TOO_MANY_DIGITS;
    for (i, name) in NAMES.iter().enumerate() {
        let last = i + 1 == NAMES.len();
        if value.abs() < scale * 1000.0 || last {
            let scaled = value / scale;
            let text = if last && scaled.abs() >= 1000.0 {
                group_thousands(&format!("{scaled:.0}"))
            } else {
                count(scaled)
            };
            // Rounding can carry into the next name (999.96 quadrillion is 1,000).
            if !last && text.trim_start_matches('-') == "1,000" {
                let next = if value < 0.0 { "-1.00" } else { "1.00" };
                return format!("{next} {}", NAMES[i + 1]);
            }
            return format!("{text} {name}");
        }
        scale *= 1000.0;
    }
    unreachable!("the last name takes every value")
}

/// Inserts `,` every three digits in the integer part of a plain decimal string.
pub fn group_thousands(plain: &str) -> String {
    let (sign, rest) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let mut out = String::with_capacity(plain.len() + int.len() / 3);
    out.push_str(sign);
    for (i, digit) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if let Some(frac) = frac {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A count to 3 significant figures with thousands separators: `20.0`, `601`, `1,200`,
/// `7,210,000`, `0.500`; a tiny value `<0.001`, a huge one `1.00 quadrillion`.
pub fn count(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value == 0.0 {
        return "0".to_string();
    }
    if value.abs() < SMALLEST {
        // As narrow as the figures beside it: a table's column keeps its width.
        return if value > 0.0 {
            "<0.001".to_string()
        } else {
            "-<0.001".to_string()
        };
    }
    // Round to 3 significant figures first: rounding can carry into a new digit (999.6 -> 1,000).
    let magnitude = value.abs().log10().floor() as i32;
    let scale = 10f64.powi(magnitude - 2);
    let rounded = (value / scale).round() * scale;
    // Past a thousand trillion, digits stop being readable: 1.00 quintillion.
    if rounded.abs() >= TOO_MANY_DIGITS {
        return named(value);
    }
    let magnitude = rounded.abs().log10().floor() as i32;
    let decimals = (2 - magnitude).max(0) as usize;
    group_thousands(&format!("{rounded:.decimals$}"))
}

/// Money rounded to whole units with thousands separators: `$24,048`, `-$12`.
pub fn money(value: f64, symbol: &str) -> String {
    let whole = value.round();
    if !whole.is_finite() {
        return format!("{symbol}{whole}");
    }
    if whole.abs() >= TOO_MANY_DIGITS {
        let sign = if whole < 0.0 { "-" } else { "" };
        return format!("{sign}{symbol}{}", named(whole.abs()));
    }
    let sign = if whole < 0.0 { "-" } else { "" };
    format!(
        "{sign}{symbol}{}",
        group_thousands(&format!("{:.0}", whole.abs()))
    )
}

/// An input as given, not rounded to 3 figures: `20,000`, `30`, `30.44`, `1,234.5678`.
pub fn number(value: f64) -> String {
    if !value.is_finite() || value.abs() >= TOO_MANY_DIGITS {
        return count(value);
    }
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    group_thousands(text)
}

/// A byte count for reading, to 3 significant figures in decimal units: `20 MB`, `143 kB`,
/// `1.43 GB`, `512 B`.
pub fn size(bytes: f64) -> String {
    const UNITS: [&str; 9] = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
    if !bytes.is_finite() || bytes < 0.0 {
        return bytes.to_string();
    }
    let mut value = bytes.round();
    let mut unit = 0;
    // Rounded to 3 figures first, so 999.6 kB reads 1 MB, not 1,000 kB.
    while unit + 1 < UNITS.len() && crate::units::round_significant(value, 3) >= 1000.0 {
        value /= 1000.0;
        unit += 1;
    }
    let digits = if value >= 1000.0 {
        // Past the last unit: its digits, grouped.
        group_thousands(&format!("{value:.0}"))
    } else if unit == 0 {
        format!("{value:.0}")
    } else {
        crate::units::significant(value, 3)
    };
    format!("{digits} {}", UNITS[unit])
}

/// A signed change for comparisons: `+20.0`, `-601`, `±0`; a tiny one `+<0.001`.
pub fn count_delta(delta: f64) -> String {
    if delta == 0.0 {
        "±0".to_string()
    } else if delta.abs() < SMALLEST {
        format!("{}<0.001", if delta > 0.0 { '+' } else { '-' })
    } else if delta > 0.0 {
        format!("+{}", count(delta))
    } else {
        count(delta)
    }
}

/// A signed change of money: `+$24`, `-$1,200`, `±$0`.
pub fn money_delta(delta: f64, symbol: &str) -> String {
    let whole = delta.round();
    if whole == 0.0 {
        format!("±{symbol}0")
    } else if whole > 0.0 {
        format!("+{}", money(whole, symbol))
    } else {
        money(whole, symbol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_to_three_significant_figures() {
        let cases = [
            (20.04, "20.0"),
            (601.2, "601"),
            (1200.0, "1,200"),
            (7_214_400.0, "7,210,000"),
            (0.5, "0.500"),
            (999.6, "1,000"),
            (9.996, "10.0"),
            (0.0012, "0.00120"),
            (3.2e-7, "<0.001"),
            (-4.72e-4, "-<0.001"),
            (0.0, "0"),
            (-601.2, "-601"),
            (40.08, "40.1"),
            (999_999_999_999_999.0, "1.00 quadrillion"),
            (1e15, "1.00 quadrillion"),
            (2.5e17, "250 quadrillion"),
            (999.9e15, "1.00 quintillion"),
            (1e18, "1.00 quintillion"),
            (-3e21, "-3.00 sextillion"),
            (1e35, "100 decillion"),
        ];
        for (value, text) in cases {
            assert_eq!(count(value), text, "{value}");
        }
    }

    #[test]
    fn money_whole_units() {
        assert_eq!(money(24_048.1, "$"), "$24,048");
        assert_eq!(money(292_585.2, "$"), "$292,585");
        assert_eq!(money(0.4, "€"), "€0");
        assert_eq!(money(-1200.0, "$"), "-$1,200");
        assert_eq!(money(1_000_000.0, "$"), "$1,000,000");
        assert_eq!(money(1.2e15, "$"), "$1.20 quadrillion");
        assert_eq!(money(-2e18, "$"), "-$2.00 quintillion");
        assert_eq!(money_delta(24.0, "$"), "+$24");
        assert_eq!(money_delta(-0.2, "$"), "±$0");
    }

    #[test]
    fn numbers_as_given() {
        assert_eq!(number(20_000.0), "20,000");
        assert_eq!(number(30.0), "30");
        assert_eq!(number(30.44), "30.44");
        assert_eq!(number(0.0), "0");
    }

    #[test]
    fn sizes() {
        assert_eq!(size(20_000_000.0), "20 MB");
        assert_eq!(size(1000.0), "1 kB");
        assert_eq!(size(512.0), "512 B");
        assert_eq!(size(143_080.0), "143 kB");
        assert_eq!(size(1_430_800.0), "1.43 MB");
        assert_eq!(size(999_600.0), "1 MB");
        assert_eq!(size(999.0), "999 B");
        assert_eq!(size(1e300).split_whitespace().last(), Some("YB"));
    }

    /// No figure, however small or large, is written in e-notation.
    #[test]
    fn no_e_notation() {
        let mut v = 1e-12;
        while v < 1e300 {
            for text in [
                count(v),
                count(-v),
                money(v, "$"),
                number(v),
                size(v),
                count_delta(-v),
            ] {
                assert!(!e_notation(&text), "{v}: {text}");
            }
            v *= 7.3;
        }
    }

    /// A digit, an `e`, then a digit or a sign: `3.2e-7`, `1.00e15`.
    pub(crate) fn e_notation(text: &str) -> bool {
        let b = text.as_bytes();
        b.windows(3).any(|w| {
            w[0].is_ascii_digit() && w[1] == b'e' && (w[2].is_ascii_digit() || w[2] == b'-')
        })
    }

    #[test]
    fn thousands() {
        assert_eq!(group_thousands("1234567.891"), "1,234,567.891");
        assert_eq!(group_thousands("-1000"), "-1,000");
        assert_eq!(group_thousands("999"), "999");
    }
}
