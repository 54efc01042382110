//! The succeeded share (`--succeeded-share`): the timed-out attempts whose outcome was a
//! success, over those with a known outcome (the upstream status, the backend's own log, a
//! server's own status, a SERVER span); bounded where too many are unknown, assumed where
//! nothing tells it. Its evidence, its derivation and its words.

use std::fmt::{self, Display, Formatter};

use crate::inputs::{Input, Sources};
use crate::logs::{FileInfo, Join, LogAnalysis, PROXY_GIVE_UPS};
use crate::model::Scenario;
use crate::words::{count, pct3, plural, rate};

use super::evidence::{Reason, Refusal, ScenarioShare, Shortfall, Thin, thin_text};
use super::intervals;
use super::{DeriveOptions, Evidence, MIN_EVIDENCE, Measured, Overrides};

/// The succeeded share's case.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareEvidence {
    /// No timed-out attempts (`no_mutating`: not even mutating ones): the share multiplies
    /// nothing.
    /// `scenario` is the share used when none is given (the default, the `--scenario`
    /// file's); `no_effect`: the timeout rate used is 0, so the share truly cannot change a
    /// figure (else it is assumed and changes every one).
    NoTimeouts {
        given: Option<f64>,
        no_mutating: bool,
        scenario: ScenarioShare,
        no_effect: bool,
    },
    /// No outcomes in the log; `too_few`: the scenario's share used, as too few attempts
    /// timed out to measure it anyway; `assumed`: the scenario's share used, between the
    /// bounds 0 and 1, though enough timed out.
    NoUpstream {
        given: Option<f64>,
        why: NoUpstream,
        too_few: Option<ScenarioShare>,
        assumed: Option<ScenarioShare>,
        timed_out: u64,
    },
    /// More unknown outcomes than `--max-unknown`, with the share given by flag.
    TooManyUnknown { given: f64, log: ShareLog },
    /// More unknown outcomes than `--max-unknown`, no flag: the share is bounded by the log,
    /// and `point` (the scenario's, moved into the bounds when outside them) is used.
    Bounded {
        scenario: ScenarioShare,
        point: f64,
        log: ShareLog,
    },
    Measured {
        given: Option<f64>,
        value: f64,
        log: ShareLog,
    },
}

/// The outcomes of the timed-out attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareLog {
    pub succeeded: u64,
    pub unknown: u64,
    pub timed_out: u64,
    /// The join with the backend's log, with `--outcomes`.
    pub join: Option<Join>,
    /// A server's own log: its status is the outcome.
    pub server: bool,
    /// Traces: the SERVER span under each attempt is its outcome.
    pub traced: bool,
}

impl ShareLog {
    /// The bounds widened by sampling: the 95% Wilson interval of the share if every unknown
    /// failed, to that of the share if every unknown succeeded (the bounds alone, from a
    /// handful of outcomes, would claim more than they know).
    pub fn interval(&self) -> [f64; 2] {
        [
            super::intervals::wilson(self.succeeded, self.timed_out)[0],
            super::intervals::wilson(self.succeeded + self.unknown, self.timed_out)[1],
        ]
    }

    /// The share if every unknown failed, and if every unknown succeeded.
    pub fn bounds(&self) -> [f64; 2] {
        let all = self.timed_out as f64;
        [
            self.succeeded as f64 / all,
            (self.succeeded + self.unknown) as f64 / all,
        ]
    }
}

impl ShareEvidence {
    /// What the log allows the share to be when it does not measure it (between "every
    /// unknown failed" and "every unknown succeeded", widened to their 95% intervals; 0 to 1
    /// with no outcome known), and why.
    pub(super) fn assumed(&self) -> (Option<[f64; 2]>, Reason) {
        let bounds = match self {
            ShareEvidence::NoUpstream { .. } | ShareEvidence::NoTimeouts { .. } => Some([0.0, 1.0]),
            ShareEvidence::TooManyUnknown { log, .. } | ShareEvidence::Bounded { log, .. } => {
                Some(log.interval())
            }
            ShareEvidence::Measured { .. } => None,
        };
        let reason = match self {
            ShareEvidence::NoTimeouts {
                no_effect: true, ..
            } => Reason::NoEffect,
            ShareEvidence::NoTimeouts { .. } => Reason::NoTimeouts,
            ShareEvidence::NoUpstream { too_few: None, .. } => Reason::NoOutcomes,
            ShareEvidence::Bounded { .. } => Reason::UnknownOutcomes,
            ShareEvidence::NoUpstream { .. } => Reason::TooFew,
            _ => Reason::Default,
        };
        (bounds, reason)
    }

    /// A share the log measured from fewer than [`MIN_EVIDENCE`] timed-out attempts with a
    /// known outcome: still the figure used, marked thin with its count (`10 of 26`).
    pub fn thin(&self) -> Option<Thin> {
        match self {
            ShareEvidence::Measured {
                given: None, log, ..
            } => {
                let (count, of) = (log.succeeded, log.timed_out - log.unknown);
                (of < MIN_EVIDENCE).then_some(Thin { count, of })
            }
            _ => None,
        }
    }
}

/// A log without an upstream status column.
#[derive(Debug, Clone, PartialEq)]
pub struct NoUpstream {
    /// The file (and which of its formats) that lacks it, as `FileInfo::lacking` names it;
    /// `None`: the log as a whole.
    pub file: Option<crate::logs::Lacking>,
    /// Its lines have fields after a detected layout that were not read.
    pub unread: bool,
    /// It was read as a line format (nginx, Envoy ...), not CSV/TSV with a header: a field is
    /// named by its variable, or `extra_N` past a detected layout.
    pub raw: bool,
}

/// The succeeded share with its evidence, and its interval when measured.
pub(super) fn succeeded_share(
    a: &LogAnalysis,
    options: &DeriveOptions,
    base: &Scenario,
    given: &Overrides,
    sources: &Sources,
    timeout_rate: f64,
) -> Result<(Measured, Option<[f64; 2]>), Refusal> {
    let scenario = ScenarioShare {
        base: base.succeeded_share,
        origin: sources.get(Input::SucceededShare),
    };
    let c = a.tally.counts;
    let make =
        |value: f64, measured: Option<f64>, from_flag: bool, evidence: ShareEvidence| Measured {
            input: "succeeded_share",
            flag: "--succeeded-share",
            value,
            measured,
            from_flag,
            evidence: Evidence::SucceededShare(
                evidence,
                sources.given_by(Input::SucceededShare, "--succeeded-share"),
            ),
        };
    if c.timed_out == 0 {
        // No timed-out attempt tells the share: the scenario's, assumed. It multiplies every
        // figure unless the timeout rate used is 0 (measured 0 from enough attempts, or given).
        let evidence = ShareEvidence::NoTimeouts {
            given: given.succeeded_share,
            no_mutating: c.mutating == 0,
            scenario,
            no_effect: timeout_rate == 0.0,
        };
        let m = make(
            given.succeeded_share.unwrap_or(base.succeeded_share),
            None,
            true,
            evidence,
        );
        return Ok((m, None));
    }
    if !a.has_outcomes() {
        let why = no_upstream(a);
        let too_few =
            (given.succeeded_share.is_none() && c.timed_out < MIN_EVIDENCE).then_some(scenario);
        // Nothing tells the timed-out attempts' outcome: the scenario's share, assumed (the
        // log allows 0 to 1), unless scripts ask for the refusal.
        let assumed = (given.succeeded_share.is_none() && !options.require_measured)
            .then_some(scenario)
            .filter(|_| too_few.is_none());
        let evidence = ShareEvidence::NoUpstream {
            given: given.succeeded_share,
            why: why.clone(),
            too_few,
            assumed,
            timed_out: c.timed_out,
        };
        return match given.succeeded_share {
            Some(v) => Ok((make(v, None, true, evidence), None)),
            None if !options.require_measured => {
                Ok((make(base.succeeded_share, None, true, evidence), None))
            }
            None => Err(Refusal::Underivable {
                figure: "the succeeded share",
                why: Shortfall::NoUpstream(why),
                flag: "--succeeded-share",
            }),
        };
    }
    let (succ, unknown, all) = (c.timed_out_succeeded, c.timed_out_unknown, c.timed_out);
    let known = all - unknown;
    let log = ShareLog {
        succeeded: succ,
        unknown,
        timed_out: all,
        join: a.join.clone(),
        server: a.is_server_log(),
        traced: a.all_traces(),
    };
    let too_many = known == 0 || unknown as f64 > options.max_unknown * all as f64;
    // The interval: Wilson over the known outcomes, widened to the Wilson intervals of
    // the bounds when some are unknown. However few are known, the share is the log's (thin
    // below `MIN_EVIDENCE`, as its kind says), this interval carried to the duplicates.
    let interval = if unknown == 0 {
        intervals::wilson(succ, all)
    } else {
        [
            intervals::wilson(succ, all)[0],
            intervals::wilson(succ + unknown, all)[1],
        ]
    };
    // Where the log does not measure it, the share used is the scenario's, moved into the
    // bounds the log allows when outside them (docs/MODEL.md, "Unknown outcomes: one rule").
    let [low, high] = log.interval();
    let point = base.succeeded_share.clamp(low, high);
    // Scripts that ask for a measure are refused over too many unknown outcomes, however
    // few are known (96% unknown as 57%: one rule).
    if given.succeeded_share.is_none() && too_many && options.require_measured {
        return Err(Refusal::UnknownOutcomes {
            log: Box::new(log),
            max_unknown: options.max_unknown,
        });
    }
    if too_many {
        return match given.succeeded_share {
            Some(v) => Ok((
                make(
                    v,
                    None,
                    true,
                    ShareEvidence::TooManyUnknown { given: v, log },
                ),
                None,
            )),
            None if options.require_measured => Err(Refusal::UnknownOutcomes {
                log: Box::new(log),
                max_unknown: options.max_unknown,
            }),
            None => Ok((
                make(
                    point,
                    None,
                    true,
                    ShareEvidence::Bounded {
                        scenario,
                        point,
                        log,
                    },
                ),
                None,
            )),
        };
    }
    let v = succ as f64 / known as f64;
    let evidence = ShareEvidence::Measured {
        given: given.succeeded_share,
        value: v,
        log,
    };
    Ok(match given.succeeded_share {
        Some(g) => (make(g, Some(v), true, evidence), None),
        None => (make(v, Some(v), false, evidence), Some(interval)),
    })
}

/// Why the log tells no outcome of a timed-out attempt: the first file without an upstream
/// status.
fn no_upstream(a: &LogAnalysis) -> NoUpstream {
    let lacking = a
        .files
        .iter()
        .find(|f| !f.all_have(|c| c.upstream_status.is_some()));
    NoUpstream {
        file: lacking.map(|f| f.lacking(|c| c.upstream_status.is_some())),
        // A preset detected with fields after it: the status may be among those not read.
        unread: lacking.is_some_and(FileInfo::has_unread_fields),
        raw: lacking.is_some_and(|f| f.format.is_some()),
    }
}

impl ShareEvidence {
    /// The share's evidence, `by` the name a given share came by (`--succeeded-share`, or
    /// `DUPCOST_SUCCEEDED_SHARE` from the environment).
    pub fn fmt_by(&self, f: &mut Formatter<'_>, by: &str) -> fmt::Result {
        // The share --succeeded-share (or its variable, `by`) gave, with what the log says beside it.
        let given_with = |f: &mut Formatter<'_>, value: f64, note: &dyn Display| {
            write!(f, "succeeded share {} from {by} ({note})", rate(value))
        };
        match self {
            ShareEvidence::NoTimeouts {
                given,
                no_mutating,
                scenario,
                no_effect,
            } => {
                let why = if *no_mutating {
                    "no mutating requests"
                } else {
                    "no timed-out mutating attempts"
                };
                // It changes no figure only where the timeout rate used is 0.
                let effect = if *no_effect {
                    "so it cannot change the result (the timeout rate used is 0; only the 95% intervals' upper ends use it)"
                } else {
                    "yet the timeout rate used is not 0, so it changes every figure"
                };
                match given {
                    Some(v) => given_with(f, *v, &format_args!("{why} in the log to measure it")),
                    None => write!(
                        f,
                        "succeeded share not measured: {why} in the log to tell it, {effect}; using {}, assumed (the log allows 0% to 100%)",
                        scenario.origin.value(&rate(scenario.base))
                    ),
                }
            }
            ShareEvidence::NoUpstream {
                given: Some(v),
                why,
                ..
            } => given_with(f, *v, why),
            ShareEvidence::NoUpstream {
                why,
                too_few: None,
                assumed,
                timed_out,
                ..
            } => {
                let using = assumed.map_or(String::new(), |s| s.origin.value(&rate(s.base)));
                write!(
                    f,
                    "succeeded share: not measured from {}: {why}; using {using}, assumed (the log allows 0% to 100%)",
                    plural(*timed_out, "timed-out attempt"),
                )
            }
            ShareEvidence::NoUpstream {
                why,
                too_few,
                timed_out,
                ..
            } => {
                let using = too_few.map_or(String::new(), |s| s.origin.value(&rate(s.base)));
                write!(
                    f,
                    "succeeded share: not measured from {}: too few (needs {MIN_EVIDENCE}), and {why}; using {using}",
                    plural(*timed_out, "timed-out attempt"),
                )
            }
            ShareEvidence::Bounded {
                scenario,
                point,
                log,
            } => write!(
                f,
                "succeeded share: not measured: {} of {} timed-out attempts ({}) have no known outcome, more than --max-unknown allows for a measure; they lie between {} (95%: {}); using {}, assumed",
                count(log.unknown),
                count(log.timed_out),
                pct3(log.unknown as f64 / log.timed_out as f64),
                bounds_text(log),
                {
                    let [lo, hi] = log.interval();
                    format!("{} to {}", pct3(lo), pct3(hi))
                },
                point_text(scenario, *point),
            ),
            ShareEvidence::TooManyUnknown { given, log } => given_with(
                f,
                *given,
                &format_args!(
                    "measured: between {}: {} with an unknown outcome of {} timed out",
                    bounds_text(log),
                    count(log.unknown),
                    count(log.timed_out)
                ),
            ),
            ShareEvidence::Measured {
                given: Some(g),
                value,
                log,
            } => given_with(f, *g, &format_args!("measured: {}", share_log(log, *value))),
            ShareEvidence::Measured {
                given: None,
                value,
                log,
            } => {
                f.write_str(&share_log(log, *value))?;
                thin_text(f, self.thin())
            }
        }
    }
}

impl Display for NoUpstream {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // The hint fits the file's kind: a CSV header, or a line format's variable.
        let column = if self.raw {
            "name its field with --column upstream_status=NAME (extra_N for a field after a detected layout) or give the server's format with --log-format"
        } else {
            "map one with --column upstream_status=HEADER"
        };
        write!(
            f,
            "{} has no upstream status column ({column}, join the backend's own log with --outcomes FILE, or give --log-side server if the server that does the work wrote it)",
            self.file
                .as_ref()
                .map_or("the log".to_string(), ToString::to_string)
        )?;
        if self.unread {
            f.write_str("; its lines have fields after the detected layout that are not read: give the server's own format with --log-format to read them")?;
        }
        Ok(())
    }
}

/// The share used where the log does not measure it: the scenario's (`the default 50%`), or
/// the nearest the log's bounds allow to it.
fn point_text(scenario: &ScenarioShare, point: f64) -> String {
    let theirs = scenario.origin.value(&rate(scenario.base));
    if point == scenario.base {
        theirs
    } else {
        format!(
            "{}, the nearest the log's bounds allow to {theirs}",
            rate(point)
        )
    }
}

/// `47.9% to 52.1%`: the share if every unknown failed, and if every unknown succeeded.
fn bounds_text(log: &ShareLog) -> String {
    let [low, high] = log.bounds();
    format!("{} to {}", pct3(low), pct3(high))
}

/// `succeeded share 48% = 330 answered 2xx by the backend / 688 timed out (...)`.
fn share_log(log: &ShareLog, v: f64) -> String {
    let (succ, unknown, all) = (log.succeeded, log.unknown, log.timed_out);
    let known = all - unknown;
    let unknown_text = if unknown > 0 {
        format!(
            "; {} of {} unknown and left out: counted as all failed or all succeeded, {}",
            count(unknown),
            count(all),
            bounds_text(log)
        )
    } else {
        String::new()
    };
    match &log.join {
        Some(j) if j.outside_span == 0 && j.without_id == 0 => format!(
            "succeeded share {} = {} answered 2xx by the backend / {} timed out ({} never reached it, {} outside the backend log's span{unknown_text})",
            rate(v),
            count(succ),
            count(known),
            count(j.never_reached),
            count(j.outside_span),
        ),
        Some(j) => format!(
            "succeeded share {} = {} succeeded / {} timed out with a known outcome ({} answered 2xx by the backend, {} never reached it; {} outside the backend log's span and {} without a request id as the proxy logged them{unknown_text})",
            rate(v),
            count(succ),
            count(known),
            count(j.matched_succeeded),
            count(j.never_reached),
            count(j.outside_span),
            count(j.without_id),
        ),
        None if log.server && unknown == 0 => format!(
            "succeeded share {} = {} answered 2xx by the server itself after the client gave up / {} timed out (the server's own log: its status is the outcome)",
            rate(v),
            count(succ),
            count(all)
        ),
        None if log.traced && unknown == 0 => format!(
            "succeeded share {} = {} whose SERVER span answered 2xx / {} timed out (the traces see both ends)",
            rate(v),
            count(succ),
            count(all)
        ),
        None if log.traced => format!(
            "succeeded share {} = {} whose SERVER span answered 2xx / {} timed out with a known outcome ({} of {} unknown: no SERVER span from a server that is not traced, counted as all failed or all succeeded, {})",
            rate(v),
            count(succ),
            count(known),
            count(unknown),
            count(all),
            bounds_text(log),
        ),
        None if unknown == 0 => format!(
            "succeeded share {} = {} with upstream 2xx / {} timed out",
            rate(v),
            count(succ),
            count(all)
        ),
        None => format!(
            "succeeded share {} = {} with upstream 2xx / {} timed out with a known outcome ({} of {} unknown, upstream -, 0 or the proxy's own {}: counted as all failed or all succeeded, {})",
            rate(v),
            count(succ),
            count(known),
            count(unknown),
            count(all),
            PROXY_GIVE_UPS.map(|s| s.to_string()).join(", "),
            bounds_text(log),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(succeeded: u64, timed_out: u64) -> ShareLog {
        ShareLog {
            succeeded,
            unknown: 0,
            timed_out,
            join: None,
            server: false,
            traced: false,
        }
    }

    #[test]
    fn a_share_from_few_outcomes_is_marked_thin_unless_given() {
        let measured = ShareEvidence::Measured {
            given: None,
            value: 10.0 / 26.0,
            log: log(10, 26),
        };
        assert_eq!(measured.thin(), Some(Thin { count: 10, of: 26 }));
        assert_eq!(
            Evidence::SucceededShare(measured, "--succeeded-share").to_string(),
            "succeeded share 38.46% = 10 with upstream 2xx / 26 timed out; thin: 10 of 26 (under 30), its 95% interval carried to the duplicates and refunds"
        );
        let given = ShareEvidence::Measured {
            given: Some(0.5),
            value: 10.0 / 26.0,
            log: log(10, 26),
        };
        assert_eq!(given.thin(), None);
        assert_eq!(
            Evidence::SucceededShare(given, "DUPCOST_SUCCEEDED_SHARE").to_string(),
            "succeeded share 50% from DUPCOST_SUCCEEDED_SHARE (measured: succeeded share 38.46% = 10 with upstream 2xx / 26 timed out)"
        );
    }
}
