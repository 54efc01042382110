//! The duplicates the log shows beside the model's prediction, and the note that says why
//! they differ and what bounds the count: their derivation and their words.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::logs::LogAnalysis;
use crate::model::{Estimate, Scenario};
use crate::words::{count_f, plural};

use super::intervals::Intervals;
use super::{DuplicateEvidence, ObservedDuplicates};

/// Why the duplicates seen and predicted differ, and what bounds the count.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicatesNote {
    /// The backend's log was not joined per intent (stdin): a lower bound.
    pub lower_bound: bool,
    pub gap: Option<Gap>,
    /// Grouped by key: a replayed answer logged 2xx counts as an execution.
    pub by_key: bool,
}

/// Seen against predicted, beyond the interval.
#[derive(Debug, Clone, PartialEq)]
pub enum Gap {
    Fewer {
        /// Retried intents refused by a uniqueness check, and the duplicates a day with them.
        conflicts: Option<(u64, f64)>,
        outcomes: FewerOutcomes,
        /// Duplicates a day seen, and the model's a day with its 95% interval.
        seen: f64,
        predicted: f64,
        interval: [f64; 2],
        /// Attempts were grouped by fingerprint: the log has no idempotency key.
        fingerprint: bool,
    },
    More {
        retries: u32,
    },
}

/// What the outcomes could not show, when fewer duplicates are seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FewerOutcomes {
    NoUpstream,
    Unknown(u64),
    Known,
}

/// The duplicates the fingerprinted intents showed, beside the model's prediction.
pub(super) fn observed_duplicates(
    a: &LogAnalysis,
    scenario: &Scenario,
    intervals: &Intervals,
) -> Option<ObservedDuplicates> {
    // With keys, a retry answered 2xx may be a key store's replay: only the backend's own
    // log (`--outcomes`) says which attempts executed.
    match a.intent_grouping() {
        "none" => return None,
        // Traces: the SERVER spans are the backend's own word.
        "key" if a.join.is_none() && !a.all_traces() => return None,
        _ => {}
    }
    let t = &a.tally;
    let d = t.duplicates;
    let per_day = a
        .days_covered()
        .filter(|d| *d > 0.0)
        .map(|days| d.count as f64 / days);
    let predicted = Estimate::new(*scenario).duplicates.per_day;
    let m = scenario.days_per_month;
    let interval = intervals.duplicates_per_month.map(|v| v / m);
    let unknown = t.counts.timed_out_unknown;
    let gap = per_day.and_then(|observed| {
        let days = observed / d.count.max(1) as f64;
        if observed < interval[0] {
            Some(Gap::Fewer {
                conflicts: (d.conflict_409_422 > 0).then(|| {
                    (
                        d.conflict_409_422,
                        (d.count + d.conflict_409_422) as f64 * days,
                    )
                }),
                outcomes: if !a.has_outcomes() {
                    FewerOutcomes::NoUpstream
                } else if unknown > 0 {
                    FewerOutcomes::Unknown(unknown)
                } else {
                    FewerOutcomes::Known
                },
                seen: observed,
                predicted,
                interval,
                fingerprint: a.intent_grouping() == "fingerprint",
            })
        } else if observed > interval[1] {
            Some(Gap::More {
                retries: scenario.retries,
            })
        } else {
            None
        }
    });
    let note = DuplicatesNote {
        // Read from stdin, the proxy log could not be read again with the backend's answers.
        lower_bound: a.join.as_ref().is_some_and(|j| !j.per_intent),
        gap,
        by_key: a.intent_grouping() == "key",
    };
    let any = note.lower_bound || note.gap.is_some() || note.by_key;
    Some(ObservedDuplicates {
        count: d.count,
        per_day,
        predicted_per_day: predicted,
        predicted_per_day_interval: interval,
        evidence: DuplicateEvidence {
            upstream_2xx: d.upstream_2xx,
            outcomes: d.outcomes,
            conflict_409_422: d.conflict_409_422,
        },
        note: any.then_some(note),
    })
}

impl Display for DuplicatesNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let gap = self.gap.as_ref().map(|g| g.to_string());
        let mut parts: Vec<String> = Vec::new();
        if self.lower_bound {
            parts.push(format!(
                "the backend log (--outcomes) is not joined per intent (the proxy log came from stdin and cannot be read twice): these duplicates are only those the proxy log shows, a lower bound{}",
                gap.map(|n| format!("; {n}")).unwrap_or_default()
            ));
        } else if let Some(gap) = gap {
            parts.push(gap);
        }
        if self.by_key {
            parts.push("grouped by key, an attempt is counted as executed when it was answered 2xx or the backend's log answered it 2xx: if the service replays a key's first answer and logs the replay 2xx, those replays are counted too".to_string());
        }
        f.write_str(&parts.join("; "))
    }
}

impl Serialize for DuplicatesNote {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Display for Gap {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Gap::Fewer {
                conflicts,
                outcomes,
                seen,
                predicted,
                interval,
                fingerprint,
            } => {
                let mut why = Vec::new();
                // What would show the duplicates the log cannot.
                let mut show = Vec::new();
                if let Some((n, per_day)) = conflicts {
                    why.push(format!(
                        "{} refused by a uniqueness check (409 or 422) did not execute twice ({} a day with them)",
                        plural(*n, "retried intent"),
                        count_f(*per_day)
                    ));
                }
                match outcomes {
                    FewerOutcomes::NoUpstream => {
                        why.push("the log has no upstream status (or --outcomes) to show what a timed-out attempt did".to_string());
                        show.push("an upstream status (--log-format or --column upstream_status=NAME) or the backend's own log (--outcomes FILE) would show which timed-out attempts executed");
                    }
                    FewerOutcomes::Unknown(n) => {
                        why.push(format!(
                            "{} with an unknown outcome cannot count",
                            plural(*n, "timed-out attempt")
                        ));
                        show.push("the backend's own log (--outcomes FILE) would tell the unknown outcomes");
                    }
                    FewerOutcomes::Known => {}
                }
                if *fingerprint {
                    why.push(
                        "without idempotency keys, retries sent from another address or after --retry-window are not grouped"
                            .to_string(),
                    );
                    show.push("a logged idempotency key (--column idempotency_key=NAME) would group retries from any address");
                } else {
                    why.push(
                        "retries sent from another address or after --retry-window are not grouped"
                            .to_string(),
                    );
                }
                show.push("a longer --retry-window would group later retries");
                write!(
                    f,
                    "fewer duplicates are seen ({} a day) than the model predicts ({} a day, 95%: {} to {}) because {}; {}",
                    count_f(*seen),
                    count_f(*predicted),
                    count_f(interval[0]),
                    count_f(interval[1]),
                    why.join("; "),
                    show.join(", and ")
                )
            }
            Gap::More { retries } => write!(
                f,
                "more duplicates are seen than the model predicts: clients retry more than {} (the retries input), or distinct intents share a fingerprint (clients behind one address; see --shared-address-rate)",
                match retries {
                    1 => "1 retry".to_string(),
                    n => format!("{n} retries"),
                }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_puts_the_bound_first_then_the_gap_then_the_keys() {
        let gap = Gap::More { retries: 1 }.to_string();
        assert!(gap.starts_with(
            "more duplicates are seen than the model predicts: clients retry more than 1 retry (the retries input)"
        ));
        let gap3 = Gap::More { retries: 3 }.to_string();
        assert!(
            gap3.contains("more than 3 retries (the retries input)"),
            "{gap3}"
        );
        let value = DuplicatesNote {
            lower_bound: true,
            gap: Some(Gap::More { retries: 1 }),
            by_key: true,
        };
        let note = value.to_string();
        assert!(
            note.starts_with("the backend log (--outcomes) is not joined per intent"),
            "{note}"
        );
        assert!(
            note.contains(&format!("a lower bound; {gap}; grouped by key,")),
            "{note}"
        );
        // The JSON contract holds the same sentence.
        assert_eq!(serde_json::to_value(&value).unwrap(), note.as_str());
    }
}
