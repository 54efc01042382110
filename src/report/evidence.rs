//! What the logs say about each input: its evidence and, where the logs give one, its 95%
//! interval. Shared by the markdown report and the explorer's help panel.

use crate::inputs::Input;
use crate::logs::{Derived, Measured};

/// The measured input behind `input`, when the logs gave or were asked about it.
pub fn measured(derived: &Derived, input: Input) -> Option<&Measured> {
    derived
        .measured
        .iter()
        .find(|m| m.input == input.json_name())
}

/// How the logs obtained `input` (`timeout rate 1.94% = 662 timed out / ...`), if they did.
pub fn evidence(derived: &Derived, input: Input) -> Option<&str> {
    measured(derived, input).map(|m| m.evidence.as_str())
}

/// The 95% interval of a measured input, `(low, high)` in JSON units.
///
/// The logs do not compute intervals yet (issue 10 adds an `intervals` object with
/// `requests_per_day`, `timeout_rate` and `succeeded_share`); this is the one place to read
/// them from, and every report shows an interval as soon as it returns one.
pub fn interval_for(_derived: &Derived, _input: Input) -> Option<(f64, f64)> {
    None
}
