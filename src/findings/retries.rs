//! The retries (`--retries`): the most attempts seen for one keyed (or fingerprinted) intent,
//! minus one, clamped to 0..=100: the retry budget the clients showed; a floor when too few
//! intents timed out, the scenario's without keys. Its evidence, its derivation (with the
//! warnings of a key column that carries no key or looks per-attempt) and its words.

use std::fmt::{self, Display, Formatter};

use crate::inputs::{Input, Origin, Sources};
use crate::logs::{Grouping, LogAnalysis, Role};
use crate::model::Scenario;
use crate::words::{count, layers, plural, times};

use super::evidence::{FingerprintFacts, Reason, fingerprint_facts};
use super::warnings::Warning;
use super::{
    AmplificationObserved, Evidence, MAX_RETRIES, MIN_EVIDENCE, Measured, Overrides,
    ProxyRetriesObserved, RetriesObserved,
};

/// Retries: given, measured, measured from too few intents, or not known.
#[derive(Debug, Clone, PartialEq)]
pub enum RetriesEvidence {
    Given {
        value: u32,
        by: GivenBy,
        log: Option<RetriesLog>,
    },
    TooFew {
        measured: u32,
        timed_out_intents: u64,
        base: u32,
        origin: Origin,
        log: RetriesLog,
    },
    Measured {
        value: u32,
        log: RetriesLog,
        fingerprint: Option<FingerprintFacts>,
    },
    /// Attempts per intent are not known (no keys, or keys that look per-attempt).
    NotKnown { base: u32, per_attempt: bool },
}

/// Who gave a figure the log could have given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GivenBy {
    Flag(&'static str),
    /// A `--preset` whose published schedule sets it.
    Preset(&'static str),
    /// The same preset, named by `DUPCOST_PRESET`.
    PresetEnv(&'static str),
}

/// Retries per intent as the log showed them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetriesLog {
    pub observed: RetriesObserved,
    pub intents: u64,
    pub by: Grouped,
}

/// What the intents were grouped by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grouped {
    Key,
    Fingerprint,
}

/// The retries with their evidence (warning when the key column carries no key or looks
/// per-attempt), and the retries per intent observed.
pub(super) fn retries(
    a: &LogAnalysis,
    base: &Scenario,
    given: &Overrides,
    sources: &Sources,
    warnings: &mut Vec<Warning>,
) -> (Measured, Option<RetriesObserved>) {
    let t = &a.tally;
    let c = t.counts;
    let per_attempt = a.keys_look_per_attempt();
    // Keys when the log has them, else fingerprints.
    let (grouped, by) = if t.keyed.intents > 0 || t.fingerprinted.intents == 0 {
        (t.keyed, Grouped::Key)
    } else {
        (t.fingerprinted, Grouped::Fingerprint)
    };
    let retries_observed = (grouped.intents > 0).then(|| RetriesObserved {
        mean: grouped.attempts as f64 / grouped.intents as f64 - 1.0,
        max: grouped.max_attempts.saturating_sub(1),
    });
    let log = retries_observed.map(|observed| RetriesLog {
        observed,
        intents: grouped.intents,
        by,
    });
    // A key column with no key in it, beside the client's address: auto chose keys.
    let keyless_key_column = a.files.iter().find(|f| {
        f.grouping == Grouping::Key
            && (f.columns.client_addr.is_some() || f.columns.forwarded_for.is_some())
    });
    if let (Some(f), 0, true) = (keyless_key_column, t.keyed_attempts, c.mutating > 0) {
        warnings.push(Warning::KeylessKeyColumn {
            header: key_header(f.columns.header_of(Role::IdempotencyKey)),
            file: f.name.clone(),
        });
    }
    if per_attempt {
        warnings.push(Warning::KeysPerAttempt {
            header: key_header(
                a.files
                    .iter()
                    .find_map(|f| f.columns.header_of(Role::IdempotencyKey)),
            ),
            keys: t.keyed.intents,
            timed_out: c.timed_out,
        });
    }
    let measured = |log: RetriesLog| f64::from(log.observed.max.min(MAX_RETRIES));
    let (value, measured, from_flag, how) = match (given.retries, log) {
        (Some(r), log) => {
            let log = log.filter(|_| !per_attempt);
            (
                r,
                log.map(measured),
                true,
                RetriesEvidence::Given {
                    value: r,
                    by: GivenBy::Flag(sources.given_by(Input::Retries, "--retries")),
                    log,
                },
            )
        }
        (None, Some(log)) if !per_attempt && grouped.timed_out_intents < MIN_EVIDENCE => {
            // The most seen is a floor: few timeouts rarely show a client's last retry. The
            // scenario's figure stands within it, else the floor.
            let r = log.observed.max.min(MAX_RETRIES);
            (
                base.retries.max(r),
                Some(f64::from(r)),
                true,
                RetriesEvidence::TooFew {
                    measured: r,
                    timed_out_intents: grouped.timed_out_intents,
                    base: base.retries,
                    origin: sources.get(Input::Retries),
                    log,
                },
            )
        }
        (None, Some(log)) if !per_attempt => {
            let r = log.observed.max.min(MAX_RETRIES);
            let fingerprint = (by == Grouped::Fingerprint).then(|| fingerprint_facts(a));
            (
                r,
                Some(f64::from(r)),
                false,
                RetriesEvidence::Measured {
                    value: r,
                    log,
                    fingerprint,
                },
            )
        }
        (None, _) => (
            base.retries,
            None,
            true,
            RetriesEvidence::NotKnown {
                base: base.retries,
                per_attempt,
            },
        ),
    };
    let m = Measured {
        input: "retries",
        flag: "--retries",
        value: f64::from(value),
        measured,
        from_flag,
        evidence: Evidence::Retries {
            how,
            proxy: super::observed::proxy_retries(a),
            layers: None,
        },
    };
    (m, retries_observed)
}

fn key_header(header: Option<&str>) -> String {
    header.unwrap_or("idempotency_key").to_string()
}

impl RetriesEvidence {
    /// Too few timed-out intents: the most retries seen is a floor, at least that many,
    /// nothing above.
    pub(super) fn assumed(&self) -> (Option<[f64; 2]>, Reason) {
        match self {
            RetriesEvidence::TooFew { measured, .. } => {
                (Some([f64::from(*measured), f64::INFINITY]), Reason::TooFew)
            }
            _ => (None, Reason::Default),
        }
    }

    /// The retries' evidence: how they were had, then the proxy's own retries beside the
    /// client's and what they make of the layers figure, when the log tells them.
    pub(super) fn fmt_with(
        &self,
        f: &mut Formatter<'_>,
        proxy: Option<&ProxyRetriesObserved>,
        layers: Option<&AmplificationObserved>,
    ) -> fmt::Result {
        self.fmt(f)?;
        if let Some(p) = proxy {
            write!(
                f,
                "; beside the client's, the proxy retried {} of {} mutating attempts itself ({} in all, at most {} for one attempt): another layer's retries, measured: {:.3} tries at the backend a client attempt (at most {})",
                count(p.retried),
                count(p.attempts),
                count(p.retries),
                p.max,
                p.attempts_per_attempt,
                p.attempts_max
            )?;
        }
        if let Some(l) = layers {
            write!(f, "; {}", proxy_layer(l))?;
        }
        Ok(())
    }
}

impl Display for RetriesEvidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RetriesEvidence::Given { value, by, log } => {
                let by = match by {
                    GivenBy::Flag(flag) => flag.to_string(),
                    GivenBy::Preset(name) => format!("--preset {name}"),
                    GivenBy::PresetEnv(name) => format!("{}={name}", crate::inputs::PRESET_ENV),
                };
                write!(f, "retries {value} from {by}")?;
                if let Some(log) = log {
                    write!(f, " (measured: {log})")?;
                }
                Ok(())
            }
            RetriesEvidence::TooFew {
                measured,
                timed_out_intents,
                base,
                origin,
                log,
            } => write!(
                f,
                "retries {}: assumed: at least {} seen from {}, a floor (under {MIN_EVIDENCE}, few timeouts rarely show a client's last retry); using {}{} (the log: {log})",
                (*base).max(*measured),
                if *measured == 1 {
                    "1 retry".to_string()
                } else {
                    format!("{measured} retries")
                },
                plural(
                    *timed_out_intents,
                    &format!("timed-out {}", grouped_intent(log.by))
                ),
                origin.value(&base.to_string()),
                if base >= measured {
                    ", within it"
                } else {
                    ", raised to the floor"
                },
            ),
            RetriesEvidence::Measured {
                value,
                log,
                fingerprint,
            } => {
                write!(f, "retries {value} = {log}")?;
                if let Some(fp) = fingerprint {
                    write!(f, "; {fp}")?;
                }
                Ok(())
            }
            RetriesEvidence::NotKnown { base, per_attempt } => write!(
                f,
                "retries {base} from the scenario (--retries): {}, so attempts per intent are not known",
                if *per_attempt {
                    "the key column looks per-attempt"
                } else {
                    "no idempotency keys in the log"
                }
            ),
        }
    }
}

fn grouped_intent(by: Grouped) -> &'static str {
    match by {
        Grouped::Key => "keyed intent",
        Grouped::Fingerprint => "fingerprinted intent",
    }
}

impl Display for RetriesLog {
    /// `most attempts for one intent - 1 (mean 0.412 retries over 1,100 keyed intents)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let RetriesObserved { mean, max } = self.observed;
        let clamp = if max > MAX_RETRIES {
            format!(", clamped to {MAX_RETRIES}")
        } else {
            String::new()
        };
        write!(
            f,
            "most attempts for one intent - 1 (mean {mean:.3} retries over {}{clamp})",
            plural(self.intents, grouped_intent(self.by))
        )
    }
}

/// What the proxy's measured tries make of the layers figure (`observed.amplification`):
/// `the layers figure with the proxy's layer measured: 1.12x expected, 12x at most at the
/// backend an intent, over 2 layers (the model's 16x if the proxy made the client's tries)`.
fn proxy_layer(l: &AmplificationObserved) -> String {
    format!(
        "the layers figure with the proxy's layer measured: {} expected, {} at most at the backend an intent, over {} (the model's {} if the proxy made the client's tries)",
        times(l.expected),
        times(l.worst_case),
        layers(l.layers),
        times(l.modelled_worst_case)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(max: u32) -> RetriesLog {
        RetriesLog {
            observed: RetriesObserved { mean: 0.5, max },
            intents: 40,
            by: Grouped::Key,
        }
    }

    #[test]
    fn few_timeouts_give_a_floor_and_the_scenario_stands_above_it() {
        let floor = |base| RetriesEvidence::TooFew {
            measured: 2,
            timed_out_intents: 5,
            base,
            origin: Origin::Default,
            log: log(2),
        };
        assert_eq!(
            floor(1).to_string(),
            "retries 2: assumed: at least 2 retries seen from 5 timed-out keyed intents, a floor (under 30, few timeouts rarely show a client's last retry); using the default 1, raised to the floor (the log: most attempts for one intent - 1 (mean 0.500 retries over 40 keyed intents))"
        );
        assert!(floor(3).to_string().starts_with("retries 3: assumed"));
        assert!(
            floor(3)
                .to_string()
                .contains("using the default 3, within it")
        );
    }

    #[test]
    fn more_attempts_than_the_model_takes_are_clamped() {
        assert_eq!(
            log(MAX_RETRIES + 50).to_string(),
            "most attempts for one intent - 1 (mean 0.500 retries over 40 keyed intents, clamped to 100)"
        );
    }
}
