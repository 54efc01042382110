//! The timeout rate (`--timeout-rate`): timed-out mutating attempts over mutating attempts,
//! however few (thin below [`MIN_EVIDENCE`]); with no mutating attempt, the scenario's. Its
//! evidence, its derivation and its words.

use std::fmt::{self, Display, Formatter};

use crate::inputs::{Input, Origin, Sources};
use crate::logs::{FlagsStyle, LogAnalysis, Role};
use crate::model::Scenario;
use crate::words::{plural, plural_verb, rate};

use super::evidence::{Picked, Reason, Refusal, Thin, thin_text};
use super::{DeriveOptions, Evidence, MIN_EVIDENCE, Measured, Overrides};

/// The timeout rate: measured (thin below `MIN_EVIDENCE` attempts), given, or not
/// measured at all.
#[derive(Debug, Clone, PartialEq)]
pub enum TimeoutEvidence {
    Picked(Picked<TimeoutLog>),
    /// No mutating attempt to measure it from: the scenario's `base` is used.
    TooFew {
        base: f64,
        origin: Origin,
        log: TimeoutLog,
    },
}

/// Timed-out mutating attempts over mutating attempts, and what counted as timed out.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeoutLog {
    pub value: f64,
    pub timed_out: u64,
    pub mutating: u64,
    pub statuses: Vec<u16>,
    /// Traces: a timeout is what a CLIENT span's `error.type` or exception says.
    pub traced: bool,
    /// The proxy's flags column that also tells a give-up.
    pub flags: Option<FlagsStyle>,
    /// `--client-timeout`, in seconds.
    pub client_timeout: Option<f64>,
    /// The duration field compared with it, and its unit, when that unit is an assumption
    /// (nothing says it).
    pub assumed_unit: Option<(String, &'static str)>,
    /// The duration field compared with it, when its unit was inferred from its values
    /// (`logs::detect::unit`), and what they were.
    pub inferred_unit: Option<(String, crate::logs::UnitInference)>,
}

impl TimeoutEvidence {
    /// A rate the log measured from fewer than [`MIN_EVIDENCE`] mutating attempts: still the
    /// figure used, marked thin with its count (`10 of 26`).
    pub fn thin(&self) -> Option<Thin> {
        match self {
            TimeoutEvidence::Picked(Picked::Measured(log)) if log.mutating < MIN_EVIDENCE => {
                Some(Thin {
                    count: log.timed_out,
                    of: log.mutating,
                })
            }
            _ => None,
        }
    }

    /// Too few mutating attempts: the scenario's rate, within the log's 95% interval.
    pub(super) fn assumed(&self) -> (Option<[f64; 2]>, Reason) {
        match self {
            TimeoutEvidence::TooFew { log, .. } => (
                Some(super::intervals::wilson(log.timed_out, log.mutating)),
                Reason::TooFew,
            ),
            _ => (None, Reason::Default),
        }
    }
}

/// `--timeout-rate` from the log: its timed-out share of mutating attempts, however few
/// (thin below the minimum evidence); with no mutating attempt, the scenario's.
pub(super) fn timeout_rate(
    a: &LogAnalysis,
    options: &DeriveOptions,
    base: &Scenario,
    given: &Overrides,
    sources: &Sources,
) -> Result<Measured, Refusal> {
    let c = a.tally.counts;
    // No mutating attempt: nothing measured, the scenario's rate (0 of 0 allows 0 to 1),
    // unless scripts ask for the refusal.
    if let (0, None, false) = (c.mutating, given.timeout_rate, options.require_measured) {
        return Ok(Measured {
            input: "timeout_rate",
            flag: "--timeout-rate",
            value: base.timeout_rate,
            measured: None,
            from_flag: true,
            evidence: Evidence::TimeoutRate(TimeoutEvidence::TooFew {
                base: base.timeout_rate,
                origin: sources.get(Input::TimeoutRate),
                log: timeout_log(a, 0.0),
            }),
        });
    }
    let t_measured = if c.mutating == 0 {
        Err(super::evidence::no_mutating(a))
    } else {
        Ok(timeout_log(a, c.timed_out as f64 / c.mutating as f64))
    };
    // Any evidence beats a default: a rate from fewer than `MIN_EVIDENCE` attempts is still
    // the figure, marked thin by its kind, its Wilson interval reaching the duplicates.
    super::evidence::pick(
        ("timeout_rate", "--timeout-rate"),
        sources.given_by(Input::TimeoutRate, "--timeout-rate"),
        "timeout rate",
        given.timeout_rate,
        t_measured,
        |l| l.value,
        |p| Evidence::TimeoutRate(TimeoutEvidence::Picked(p)),
    )
}

/// The log's timed-out mutating attempts, `value` their share, with what counted as timed out.
fn timeout_log(a: &LogAnalysis, value: f64) -> TimeoutLog {
    let c = a.tally.counts;
    TimeoutLog {
        value,
        timed_out: c.timed_out,
        mutating: c.mutating,
        statuses: a.options.timeout_statuses.clone(),
        traced: a.all_traces(),
        flags: a
            .files
            .iter()
            .find(|f| f.columns.flags.is_some())
            .map(|f| f.columns.flags_style),
        client_timeout: a.options.client_timeout.map(|d| d.as_secs_f64()),
        assumed_unit: a
            .options
            .client_timeout
            .and(a.files.iter().find(|f| f.columns.duration_unit_assumed))
            .map(|f| {
                (
                    f.columns
                        .header_of(Role::Duration)
                        .unwrap_or("duration")
                        .to_string(),
                    f.columns.duration_unit.name(),
                )
            }),
        inferred_unit: a.options.client_timeout.and_then(|_| {
            a.files.iter().find_map(|f| {
                let field = f.columns.header_of(Role::Duration).unwrap_or("duration");
                let inferred = f.columns.duration_unit_inferred.clone()?;
                Some((field.to_string(), inferred))
            })
        }),
    }
}

impl Display for TimeoutEvidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TimeoutEvidence::Picked(p) => {
                p.fmt_with(f, |v| format!("timeout rate {}", rate(v)), log_text)?;
                thin_text(f, self.thin())
            }
            TimeoutEvidence::TooFew { base, origin, log } if log.mutating == 0 => {
                write!(
                    f,
                    "timeout rate: not measured: no mutating attempts in the log; using {}, assumed (the log allows 0% to 100%)",
                    origin.value(&rate(*base)),
                )
            }
            TimeoutEvidence::TooFew { base, origin, log } => write!(
                f,
                "timeout rate: measured {} from {}: too few (needs {MIN_EVIDENCE}); using {} (the log: {})",
                rate(log.value),
                plural(log.mutating, "mutating attempt"),
                origin.value(&rate(*base)),
                log_text(log)
            ),
        }
    }
}

/// `timeout rate 1.94% = 662 timed out (status 408, 499, 504) / 34,094 mutating attempts`:
/// the log's measure and what counted as timed out.
fn log_text(l: &TimeoutLog) -> String {
    // Traces: 0 is a CLIENT span's own "no answer", not a status to list.
    let statuses: Vec<String> = l
        .statuses
        .iter()
        .filter(|&&s| !(l.traced && s == 0))
        .map(u16::to_string)
        .collect();
    let mut also = String::new();
    if let Some(style) = l.flags {
        also.push_str(&flags_give_up(style, &statuses));
    }
    if let Some(secs) = l.client_timeout {
        also.push_str(&format!(" or took {secs}s or more"));
        if let Some((field, unit)) = &l.assumed_unit {
            also.push_str(&format!(", {field} read in {unit}, assumed"));
        } else if let Some((field, i)) = &l.inferred_unit {
            also.push_str(&format!(
                ", {field} read in {}, inferred from its values",
                i.unit.name()
            ));
        }
    }
    let how = if l.traced {
        format!(
            "a CLIENT span with no status whose error.type or exception names a timeout{also}, or status {}",
            statuses.join(", ")
        )
    } else {
        format!("status {}{also}", statuses.join(", "))
    };
    format!(
        "timeout rate {} = {} ({how}) / {}",
        rate(l.value),
        plural_verb(l.timed_out, "timed out"),
        plural(l.mutating, "mutating attempt")
    )
}

/// What a proxy's flags column counts as a give-up, as the evidence says it: its field and
/// its codes (`FlagsStyle::give_ups`), less those already among the give-up `statuses`.
fn flags_give_up(style: FlagsStyle, statuses: &[String]) -> String {
    let field = style.field;
    let codes: Vec<&str> = style
        .give_ups()
        .codes
        .iter()
        .copied()
        .filter(|c| !statuses.iter().any(|s| s == c))
        .collect();
    format!(" or {field} {}", codes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(timed_out: u64, mutating: u64) -> TimeoutLog {
        TimeoutLog {
            value: timed_out as f64 / mutating as f64,
            timed_out,
            mutating,
            statuses: vec![499, 504],
            traced: false,
            flags: None,
            client_timeout: None,
            assumed_unit: None,
            inferred_unit: None,
        }
    }

    #[test]
    fn a_rate_from_few_attempts_is_marked_thin_unless_given() {
        let thin = TimeoutEvidence::Picked(Picked::Measured(log(10, 26)));
        assert_eq!(thin.thin(), Some(Thin { count: 10, of: 26 }));
        assert_eq!(
            thin.to_string(),
            "timeout rate 38.46% = 10 timed out (status 499, 504) / 26 mutating attempts; thin: 10 of 26 (under 30), its 95% interval carried to the duplicates and refunds"
        );
        let enough = TimeoutEvidence::Picked(Picked::Measured(log(10, MIN_EVIDENCE)));
        assert_eq!(enough.thin(), None);
        let given = TimeoutEvidence::Picked(Picked::Given {
            value: 0.02,
            flag: "--timeout-rate",
            log: Ok(log(10, 26)),
        });
        assert_eq!(given.thin(), None);
        assert_eq!(
            given.to_string(),
            "timeout rate 2% from --timeout-rate (measured: timeout rate 38.46% = 10 timed out (status 499, 504) / 26 mutating attempts)"
        );
    }
}
