//! What the logs say about each input: its evidence and, where the logs give one, its 95%
//! interval. Shared by the markdown report and the explorer's help panel.

use super::human;
use crate::findings::{Findings, Measured};
use crate::inputs::Input;

/// The measured input behind `input`, when the logs gave or were asked about it.
pub fn measured(derived: &Findings, input: Input) -> Option<&Measured> {
    derived
        .measured
        .iter()
        .find(|m| m.input == input.json_name())
}

/// How the logs obtained `input` (`timeout rate 1.94% = 662 timed out / ...`), if they did.
pub fn evidence(derived: &Findings, input: Input) -> Option<String> {
    measured(derived, input).map(|m| said(derived, m))
}

/// A measured input's evidence as a sentence, with the field it was read through when that
/// field's role was inferred from its values (and the flag that makes it given).
pub fn said(derived: &Findings, m: &Measured) -> String {
    let inferred = Input::ALL
        .iter()
        .find(|i| i.json_name() == m.input)
        .and_then(|&i| crate::findings::kinds::kind(derived, i).inferred_field);
    match inferred {
        Some(i) => format!("{}; {}", m.evidence, super::words::inferred_text(&i)),
        None => m.evidence.to_string(),
    }
}

/// The 95% interval of a measured input, `(low, high)` in JSON units: `None` for an input
/// the logs do not measure, or one a flag gave (the logs' interval is then no interval of the
/// figure used).
pub fn interval_for(derived: &Findings, input: Input) -> Option<(f64, f64)> {
    let m = measured(derived, input)?;
    if m.from_flag {
        return None;
    }
    let [low, high] = match input {
        Input::RequestsPerDay => derived.intervals.requests_per_day,
        Input::TimeoutRate => derived.intervals.timeout_rate,
        Input::SucceededShare => derived.intervals.succeeded_share,
        _ => return None,
    };
    Some((low, high))
}

/// An interval to 3 significant figures, as the table report shows it: `2.52% to 4.01%`.
pub fn interval_text(input: Input, low: f64, high: f64, currency: &str) -> String {
    let shown = |v: f64| match input {
        Input::TimeoutRate | Input::SucceededShare => crate::report::words::pct3(v),
        Input::RequestsPerDay => human::count(v),
        _ => crate::report::words::input_value(input, v, currency),
    };
    format!("{} to {}", shown(low), shown(high))
}
