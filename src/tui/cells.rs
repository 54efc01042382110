//! Figures for the explorer's narrow columns: no e-notation, and at most about nine
//! characters however large or small the figure, so the columns never touch and the rule of
//! thumb keeps its place beside the exact figure.
//!
//! Counts keep 3 significant figures and money whole units, as the reports print them, up
//! to a million; past it they read `1.20M`, `$4.50bn`, `1.20tn` (3 significant figures and
//! the short scale). Below a million a count is the reports' own (`report::human::count`):
//! under a thousandth it reads `<0.001`, not zero, as in every other format.

use crate::report::human;
use crate::report::model::Value;

/// Where the short scale starts: below it every digit of a whole figure is shown.
const SHORT_SCALE: f64 = 1e6;

/// The short scale's steps, largest first.
const SCALE: [(f64, &str); 3] = [(1e12, "tn"), (1e9, "bn"), (1e6, "M")];

/// `value` as a cell: `20.0`, `601`, `$24,048`, `1.20M`, `$1.20tn`, `<0.001`, `20 MB`.
pub fn show(value: Value, currency: &str) -> String {
    match value {
        Value::Count(v) => count(v),
        Value::Money(v) => money(v, currency),
        Value::Times(v) => times(v),
        other => other.show(currency),
    }
}

/// The change from `base` as a cell: `+20.0`, `-$72`, `±0`, `-0.0601`, `+<0.001x`.
pub fn delta(value: Value, base: Value, currency: &str) -> String {
    let d = value.number() - base.number();
    let sign = if d > 0.0 { "+" } else { "-" };
    match value {
        Value::Count(_) if d == 0.0 => "±0".to_string(),
        Value::Count(_) => format!("{sign}{}", count(d.abs())),
        Value::Money(_) if d.round() == 0.0 => format!("±{currency}0"),
        Value::Money(_) => format!("{sign}{}", money(d.abs(), currency)),
        Value::Times(_) if d == 0.0 => "±0x".to_string(),
        Value::Times(_) => format!("{sign}{}", times(d.abs())),
        other => other.delta(base, currency),
    }
}

/// A count: the reports' own figure below a million (3 significant figures, grouped,
/// `<0.001` under a thousandth), on the short scale above.
pub fn count(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return human::count(v);
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let rounded = crate::units::round_significant(v.abs(), 3);
    if rounded >= SHORT_SCALE {
        return format!("{sign}{}", short_scale(rounded));
    }
    human::count(v)
}

/// Money in whole units below a million (`$24,048`), on the short scale above (`$1.20M`).
pub fn money(v: f64, symbol: &str) -> String {
    if !v.is_finite() {
        return format!("{symbol}{v}");
    }
    let whole = v.round();
    if whole.abs() < SHORT_SCALE {
        return human::money(whole, symbol);
    }
    let sign = if whole < 0.0 { "-" } else { "" };
    let rounded = crate::units::round_significant(whole.abs(), 3);
    format!("{sign}{symbol}{}", short_scale(rounded))
}

/// A factor: a whole one as it is (`3x`, `243x`), any other as a count (`1.03x`).
pub fn times(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < SHORT_SCALE {
        format!("{}x", human::group_thousands(&format!("{v:.0}")))
    } else {
        format!("{}x", count(v))
    }
}

/// `rounded` (at least a million, already at 3 significant figures) on the short scale:
/// `1.20M`, `45.0bn`, `1.20tn`, and past a thousand trillion still in trillions, grouped
/// (`12,000tn`), never in e-notation.
fn short_scale(rounded: f64) -> String {
    let (unit, name) = SCALE
        .iter()
        .copied()
        .find(|&(unit, _)| rounded >= unit)
        .unwrap_or(SCALE[SCALE.len() - 1]);
    let scaled = rounded / unit;
    let magnitude = scaled.log10().floor() as i32;
    let decimals = (2 - magnitude).max(0) as usize;
    format!(
        "{}{name}",
        human::group_thousands(&format!("{scaled:.decimals$}"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_without_e_notation() {
        assert_eq!(count(20.0), "20.0");
        assert_eq!(count(601.4), "601");
        assert_eq!(count(20_000.0), "20,000");
        assert_eq!(count(999_999.0), "1.00M");
        assert_eq!(count(7_210_000.0), "7.21M");
        assert_eq!(count(1.2e12), "1.20tn");
        assert_eq!(count(4.5e10), "45.0bn");
        assert_eq!(count(1.2e16), "12,000tn");
        assert_eq!(count(0.0800), "0.0800");
        assert_eq!(count(4.72e-3), "0.00472");
        assert_eq!(count(4.72e-4), "<0.001");
        assert_eq!(count(3.2e-7), "<0.001");
        assert_eq!(count(-601.0), "-601");
        assert_eq!(count(0.0), "0");
    }

    #[test]
    fn money_is_whole_below_a_million() {
        assert_eq!(money(24_048.4, "$"), "$24,048");
        assert_eq!(money(999_999.0, "$"), "$999,999");
        assert_eq!(money(1_202_400.0, "$"), "$1.20M");
        assert_eq!(money(-1.2e12, "€"), "-€1.20tn");
    }

    #[test]
    fn deltas_say_their_sign_and_never_e_notation() {
        let c = |v| Value::Count(v);
        assert_eq!(delta(c(20.0), c(20.0), "$"), "±0");
        assert_eq!(delta(c(19.9399), c(20.0), "$"), "-0.0601");
        assert_eq!(delta(c(1.0), c(1.00472), "$"), "-0.00472");
        let t = |v| Value::Times(v);
        assert_eq!(delta(t(1.0), t(1.000_000_027), "$"), "-<0.001x");
        assert_eq!(delta(t(2.0), t(4.0), "$"), "-2x");
        let m = |v| Value::Money(v);
        assert_eq!(delta(m(23_976.0), m(24_048.0), "$"), "-$72");
        assert_eq!(delta(m(5.0e12), m(1.0), "$"), "+$5.00tn");
    }

    /// However large or small, a cell stays narrow enough for the explorer's columns.
    #[test]
    fn cells_stay_narrow() {
        let mut v = 1e-12;
        while v < 1e20 {
            for x in [v, 1.234_567 * v, 9.999 * v] {
                for cell in [count(x), money(x, "$"), times(x), count(-x)] {
                    assert!(!cell.contains('e'), "{x}: {cell}");
                    if x < 1e15 {
                        assert!(cell.chars().count() <= 9, "{x}: {cell}");
                    }
                }
            }
            v *= 10.0;
        }
    }
}
