//! Every input of a report has a kind (docs/MODEL.md, "Kinds of input"): *measured* from the
//! logs with its evidence, *given* (a flag, the environment, the scenario file or a preset),
//! or *assumed* (a default, or the scenario's figure where the log cannot give one). An
//! assumed input carries the bounds the evidence allows and what settles it, and the
//! succeeded share's bounds reach the duplicates and refunds ([`OutputBounds`]). No words
//! here: `report::words` says each kind.

use serde::Serialize;

use crate::inputs::{Input, Origin};
use crate::model::{Estimate, Scenario};

use super::evidence::{Evidence, ShareEvidence, TimeoutEvidence};
use super::{Findings, intervals};

/// What an input of a report is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// From the logs, with its evidence.
    Measured,
    /// By a flag, the environment, the scenario file or a preset.
    Given,
    /// A default, or the scenario's figure where the log cannot give one.
    Assumed,
}

/// An input's kind, where its value came from, the bounds the evidence allows when it is
/// assumed, and what settles it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputKind {
    pub kind: Kind,
    /// Where the value came from (`log` for a measured one).
    pub origin: Origin,
    /// `[low, high]` in JSON units: what the log allows an assumed input to be (the
    /// succeeded share between "every unknown failed" and "every unknown succeeded", widened
    /// to their 95% intervals, 0 to 1 with no outcome known; a thin timeout rate's 95%
    /// interval); `null` when the log says nothing of it.
    pub bounds: Option<[f64; 2]>,
    /// Why an assumed input is assumed; `null` for a measured or given one.
    pub reason: Option<Reason>,
    /// The flag that settles it (`--order-value`).
    pub flag: String,
    /// A second log settles it too: the backend's, joined with `--outcomes FILE`.
    pub outcomes: bool,
}

/// Why an input is assumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The model's default: a figure the log cannot give (the order value, the TTL ...).
    Default,
    /// The log measured it from too few attempts or intents (`MIN_EVIDENCE`).
    TooFew,
    /// No outcome of a timed-out attempt is known: no upstream status, no `--outcomes`.
    NoOutcomes,
    /// More timed-out attempts have an unknown outcome than `--max-unknown` allows.
    UnknownOutcomes,
    /// The log's timestamps span less than `--min-span`, scaled to a day all the same.
    ShortSpan,
}

/// The kind of `input` in `findings`.
pub fn kind(findings: &Findings, input: Input) -> InputKind {
    let origin = findings.sources.get(input);
    let kind = match origin {
        Origin::Log => Kind::Measured,
        Origin::Flag | Origin::Scenario | Origin::Preset => Kind::Given,
        Origin::Default => Kind::Assumed,
    };
    let evidence = findings
        .measured
        .iter()
        .find(|m| m.input == input.json_name())
        .map(|m| &m.evidence);
    let bounds = match (kind, evidence) {
        (Kind::Assumed, Some(Evidence::SucceededShare(share))) => share_bounds(share),
        (Kind::Assumed, Some(Evidence::TimeoutRate(TimeoutEvidence::TooFew { log, .. }))) => {
            Some(intervals::wilson(log.timed_out, log.mutating))
        }
        _ => None,
    };
    let reason = (kind == Kind::Assumed).then_some(match evidence {
        Some(Evidence::RequestsShortSpan { .. }) => Reason::ShortSpan,
        Some(Evidence::SucceededShare(ShareEvidence::NoUpstream { too_few: None, .. })) => {
            Reason::NoOutcomes
        }
        Some(Evidence::SucceededShare(ShareEvidence::Bounded { .. })) => Reason::UnknownOutcomes,
        Some(Evidence::SucceededShare(ShareEvidence::NoUpstream { .. }))
        | Some(Evidence::SucceededShare(ShareEvidence::TooFewKnown { .. }))
        | Some(Evidence::TimeoutRate(TimeoutEvidence::TooFew { .. }))
        | Some(Evidence::Retries {
            how: super::evidence::RetriesEvidence::TooFew { .. },
            ..
        }) => Reason::TooFew,
        _ => Reason::Default,
    });
    InputKind {
        kind,
        origin,
        bounds,
        reason,
        flag: format!("{input}"),
        outcomes: input == Input::SucceededShare,
    }
}

/// What the log allows the succeeded share to be, when it does not measure it.
fn share_bounds(share: &ShareEvidence) -> Option<[f64; 2]> {
    match share {
        ShareEvidence::NoUpstream { .. } => Some([0.0, 1.0]),
        ShareEvidence::TooFewKnown { log, .. }
        | ShareEvidence::TooManyUnknown { log, .. }
        | ShareEvidence::Bounded { log, .. } => Some(log.interval()),
        ShareEvidence::NoTimeouts { .. } | ShareEvidence::Measured { .. } => None,
    }
}

/// The duplicates and refunds a month over the bounds of an assumed succeeded share: the
/// model run at each end (the other inputs as used). `None` when the share is measured or
/// given.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OutputBounds {
    pub succeeded_share: [f64; 2],
    pub duplicates_per_month: [f64; 2],
    pub refunds_per_month: [f64; 2],
}

impl OutputBounds {
    pub fn of(findings: &Findings) -> Option<OutputBounds> {
        let [low, high] = kind(findings, Input::SucceededShare).bounds?;
        let at = |share: f64| {
            Estimate::new(Scenario {
                succeeded_share: share,
                ..findings.scenario
            })
        };
        let (lo, hi) = (at(low), at(high));
        Some(OutputBounds {
            succeeded_share: [low, high],
            duplicates_per_month: [lo.duplicates.per_month, hi.duplicates.per_month],
            refunds_per_month: [lo.refund_cost.per_month, hi.refund_cost.per_month],
        })
    }
}
