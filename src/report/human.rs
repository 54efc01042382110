//! Number formatting for people: counts to 3 significant figures, money to whole units,
//! sizes with humansize. Shared by the table report and the TUI.

use humansize::{DECIMAL, format_size};

/// Numbers this large print in scientific form: twenty digits help nobody.
const TOO_MANY_DIGITS: f64 = 1e15;

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

/// A count to 3 significant figures with thousands separators:
/// `20.0`, `601`, `1,200`, `7,210,000`, `0.500`; tiny values in scientific form (`3.20e-7`).
pub fn count(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value == 0.0 {
        return "0".to_string();
    }
    if value.abs() < 1e-3 {
        return format!("{value:.2e}");
    }
    // Round to 3 significant figures first: rounding can carry into a new digit (999.6 -> 1,000).
    let magnitude = value.abs().log10().floor() as i32;
    let scale = 10f64.powi(magnitude - 2);
    let rounded = (value / scale).round() * scale;
    // Past a thousand trillion, digits stop being readable: 1.00e18.
    if rounded.abs() >= TOO_MANY_DIGITS {
        return format!("{value:.2e}");
    }
    let magnitude = rounded.abs().log10().floor() as i32;
    let decimals = (2 - magnitude).max(0) as usize;
    group_thousands(&format!("{rounded:.decimals$}"))
}

/// Money rounded to whole units with thousands separators: `$24,048`, `-$12`.
pub fn money(value: f64, symbol: &str) -> String {
    let whole = value.round();
    if whole.abs() >= TOO_MANY_DIGITS || !whole.is_finite() {
        let sign = if whole < 0.0 { "-" } else { "" };
        return format!("{sign}{symbol}{:.2e}", whole.abs());
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

/// A byte count for reading: `20 MB`, `1 kB`, `512 B`.
pub fn size(bytes: f64) -> String {
    if !bytes.is_finite() || bytes < 0.0 {
        return bytes.to_string();
    }
    // humansize takes a u64 (up to 18 EB); say larger sizes as they are rather than cap them.
    if bytes >= 1e18 {
        return format!("{bytes:.2e} B");
    }
    format_size(bytes.round() as u64, DECIMAL)
}

/// A signed change for comparisons: `+20.0`, `-601`, `±0`.
pub fn count_delta(delta: f64) -> String {
    if delta == 0.0 {
        "±0".to_string()
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
            (3.2e-7, "3.20e-7"),
            (0.0, "0"),
            (-601.2, "-601"),
            (40.08, "40.1"),
            (999_999_999_999_999.0, "1.00e15"),
            (1e300, "1.00e300"),
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
        assert_eq!(money(1.2e303, "$"), "$1.20e303");
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
        assert_eq!(size(1e300), "1.00e300 B");
    }

    #[test]
    fn thousands() {
        assert_eq!(group_thousands("1234567.891"), "1,234,567.891");
        assert_eq!(group_thousands("-1000"), "-1,000");
        assert_eq!(group_thousands("999"), "999");
    }
}
