//! The words every layer that words shares: counts, plurals, shares, durations and sizes as
//! a reader reads them. The findings word themselves with these (each finding's `Display` is
//! in its own file under `findings/`), and `report::words` hands them on to the renderers, so
//! one figure reads the same in a finding's evidence and on the page. Nothing here knows a
//! finding or a report.

pub mod human;

use crate::inputs::Input;
use crate::units::Rate;

/// `34,094`.
pub fn count(n: u64) -> String {
    human::group_thousands(&n.to_string())
}

/// A rate a day: whole with separators from 100 up, else 3 significant figures (so 0.0043
/// is not shown as 0).
pub fn count_f(v: f64) -> String {
    if v >= 1e15 {
        // Past u64's digits and anyone's reading: named (`1.00 quadrillion`).
        human::count(v)
    } else if v >= 100.0 {
        count(v.round() as u64)
    } else if v > 0.0 && v < 0.001 {
        "under 0.001".to_string()
    } else if v > 0.0 {
        crate::units::significant(v, 3)
    } else {
        "0".to_string()
    }
}

/// `1 intent`, `2 intents`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", count(n))
    }
}

/// `1 attempt timed out`, `3 attempts timed out`; `timed out` alone keeps its count.
pub fn plural_verb(n: u64, phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((noun, rest)) if noun != "timed" => format!("{} {rest}", plural(n, noun)),
        _ => format!("{} {phrase}", count(n)),
    }
}

/// A share to 3 significant figures: `47.9%`.
pub fn pct3(v: f64) -> String {
    if v > 0.0 && v < 1e-5 {
        return "under 0.001%".to_string();
    }
    format!("{}%", crate::units::significant(v * 100.0, 3))
}

/// A share as the reports round it: `1.94%`.
pub fn rate(v: f64) -> String {
    Rate(v).rounded()
}

/// Seconds for reading: `800ms`, `1m 14s`, `3h 12m` (whole minutes from an hour up, whole
/// seconds from a second up).
pub fn duration_text(seconds: f64) -> String {
    let millis = if seconds >= 3600.0 {
        (seconds / 60.0).round() as u64 * 60_000
    } else if seconds >= 1.0 {
        seconds.round() as u64 * 1000
    } else {
        (seconds * 1000.0).round() as u64
    };
    humantime::format_duration(std::time::Duration::from_millis(millis)).to_string()
}

/// The `--duration-unit` values that name `units` (`us or ns`); every unit when none is left.
pub fn unit_names(units: &[crate::logs::DurationUnit]) -> String {
    let names: Vec<&str> = units.iter().map(|u| u.name()).collect();
    match names.split_last() {
        None => "s, ms, us or ns".to_string(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// `1m 5s`: whole seconds.
pub fn seconds_text(seconds: f64) -> String {
    humantime::format_duration(std::time::Duration::from_secs(
        seconds.max(0.0).round() as u64
    ))
    .to_string()
}

/// An attempts multiplier for reading: `4x`, `1.00x`.
pub fn times(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}x", human::group_thousands(&format!("{value:.0}")))
    } else {
        format!("{}x", human::count(value))
    }
}

/// `1 layer`, `5 layers`.
pub fn layers(n: u32) -> String {
    if n == 1 {
        "1 layer".to_string()
    } else {
        format!("{n} layers")
    }
}

/// `0% to 100%` for a share, `120 to 155` for a count.
pub fn bounds_of(input: Input, lo: f64, hi: f64) -> String {
    match input {
        Input::TimeoutRate | Input::SucceededShare => format!("{} to {}", pct3(lo), pct3(hi)),
        _ if hi.is_infinite() => format!("at least {}", count_f(lo)),
        _ => format!("{} to {}", count_f(lo), count_f(hi)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_rates_and_plurals() {
        assert_eq!(count_f(0.0043), "0.0043");
        assert_eq!(count_f(12.345), "12.3");
        assert_eq!(count_f(0.0), "0");
        assert_eq!(count_f(1234.4), "1,234");
        assert_eq!(plural(1, "intent"), "1 intent");
        assert_eq!(plural(0, "bad row"), "0 bad rows");
        assert_eq!(plural(2_000, "row"), "2,000 rows");
        assert_eq!(plural_verb(1, "attempt timed out"), "1 attempt timed out");
        assert_eq!(duration_text(74.0), "1m 14s");
        assert_eq!(duration_text(11_545.0), "3h 12m");
        assert_eq!(duration_text(14.0), "14s");
        assert_eq!(duration_text(3600.0), "1h");
        assert_eq!(duration_text(0.8), "800ms");
    }

    #[test]
    fn thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(34_094), "34,094");
        assert_eq!(count(1_234_567), "1,234,567");
    }
}
