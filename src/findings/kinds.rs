//! Every input of a report has a kind (docs/MODEL.md, "Kinds of input"): *measured* from the
//! logs with its evidence, *given* (a flag, the environment, the scenario file or a preset),
//! or *assumed* (a default, or the scenario's figure where the log cannot give one). An
//! assumed input carries the bounds the evidence allows and what settles it, and the
//! succeeded share's bounds reach the duplicates and refunds ([`OutputBounds`]). No words
//! here: `report::words` says each kind.

use serde::Serialize;

use crate::inputs::{
    Input, Origin, PRESET_ENV, SCHEDULE_ENV, SCHEDULE_FLAG, SCHEDULE_JSON_NAME, Sources,
};
use crate::model::{Estimate, Scenario};

use super::Findings;
pub use super::evidence::Reason;
use super::evidence::{Evidence, Thin, TimeoutEvidence};

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
    /// interval; requests a day from a short span or none, at least the log's intents, with
    /// `null` for no upper bound); `null` when the log says nothing of it.
    pub bounds: Option<[f64; 2]>,
    /// Why an assumed input is assumed; `null` for a measured or given one.
    pub reason: Option<Reason>,
    /// The flag that settles it (`--order-value`).
    pub flag: String,
    /// A second log settles it too: the backend's, joined with `--outcomes FILE`.
    pub outcomes: bool,
    /// The timeout rate measured with `--client-timeout` against durations whose unit no
    /// documentation, name or flag said: how they were read and the flag that
    /// settles it; left out of the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_unit: Option<UnitMark>,
    /// The environment variable that gave it (`DUPCOST_ORDER_VALUE`), where it was given so
    /// and not by its flag (`origin` then says `flag`, as it always has); left out of the JSON
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<&'static str>,
    /// The retries are the length of the retry delays (`--schedule`, a preset's or the
    /// scenario file's), given where those were; left out of the JSON otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_schedule: bool,
    /// A rate or share measured from fewer trials than the minimum evidence: still the figure
    /// used, `count` of `of` (`{"count": 10, "of": 26}`: 10 succeeded of 26 timed-out
    /// attempts with a known outcome), its 95% interval carried to the duplicates and
    /// refunds; left out of the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thin: Option<Thin>,
    /// The input the scenario uses instead of this one (`schedule_seconds`: a schedule of
    /// retry delays replaces the backoff, its factor and its cap), so that its value, and
    /// what the kind says of it, reaches no figure; left out of the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<&'static str>,
    /// A measured figure read through a field whose role was inferred from its values (the
    /// succeeded share through an nginx layout's appended upstream status, the timeout rate
    /// through its request time), with the flag that makes it given; left out of the JSON
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inferred_field: Option<super::InferredField>,
}

/// The input `scenario` uses instead of `input`, by JSON name: the retry delays
/// (`schedule_seconds`) for the backoff, its factor and its cap, where a schedule is used.
/// The jitter is not replaced: it randomises the schedule's delays as it does the backoff's.
/// Every renderer leaves out an input so replaced (the one place that decides it).
pub fn replaced_by(input: Input, scenario: &Scenario) -> Option<&'static str> {
    let backoff = matches!(
        input,
        Input::Backoff | Input::BackoffFactor | Input::BackoffMax
    );
    (backoff && scenario.schedule_seconds.is_some()).then_some(SCHEDULE_JSON_NAME)
}

/// How the durations a measured timeout rate compared with `--client-timeout` were read,
/// when nothing said their unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitMark {
    /// The unit they were read in: `s`, `ms`, `us` or `ns`.
    pub unit: &'static str,
    /// `assumed` (milliseconds, nothing said otherwise) or `inferred` (from their values).
    pub kind: UnitKind,
    /// The duration field.
    pub field: String,
    /// The flag that settles it: `--duration-unit`.
    pub flag: &'static str,
}

/// How a duration's unit was had when nothing said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Assumed,
    Inferred,
}

/// The flag that says a duration's unit.
pub const DURATION_UNIT_FLAG: &str = "--duration-unit";

/// The mark of a measured timeout rate's durations, from its evidence.
fn unit_mark(evidence: Option<&Evidence>) -> Option<UnitMark> {
    let Some(Evidence::TimeoutRate(TimeoutEvidence::Picked(super::evidence::Picked::Measured(
        log,
    )))) = evidence
    else {
        return None;
    };
    let (field, unit, kind) = match (&log.assumed_unit, &log.inferred_unit) {
        (Some((field, unit)), _) => (field.clone(), *unit, UnitKind::Assumed),
        (None, Some((field, i))) => (field.clone(), i.unit.name(), UnitKind::Inferred),
        (None, None) => return None,
    };
    Some(UnitMark {
        unit,
        kind,
        field,
        flag: DURATION_UNIT_FLAG,
    })
}

/// The kind of `input` where no log was read (`dupcost estimate`): given by where its value
/// came from, else assumed, the model's default, with no bounds.
pub fn of_origin(input: Input, origin: Origin) -> InputKind {
    let kind = match origin {
        Origin::Log => Kind::Measured,
        Origin::Flag | Origin::Env | Origin::Scenario | Origin::Preset | Origin::Sweep => {
            Kind::Given
        }
        Origin::Default => Kind::Assumed,
    };
    InputKind {
        kind,
        origin,
        bounds: None,
        reason: (kind == Kind::Assumed).then_some(Reason::Default),
        flag: format!("{input}"),
        outcomes: input == Input::SucceededShare,
        duration_unit: None,
        inferred_field: None,
        env: (origin == Origin::Env).then(|| input.env_name()),
        from_schedule: false,
        thin: None,
        replaced_by: None,
    }
}

/// The kind of `input` where no log was read, from `sources`: [`of_origin`], the retries
/// marked as the retry delays' length where the delays gave them, and the inputs `scenario`
/// does not use marked [`replaced_by`] what it uses instead.
pub fn of_sources(input: Input, sources: &Sources, scenario: &Scenario) -> InputKind {
    let mut k = of_origin(input, sources.get(input));
    k.replaced_by = replaced_by(input, scenario);
    if input == Input::Retries && sources.retries_by_schedule() && k.kind == Kind::Given {
        k.from_schedule = true;
        k.env = k.env.map(|_| SCHEDULE_ENV);
    }
    k.env = k.env.or(preset_env(k.origin, sources));
    k
}

/// `DUPCOST_PRESET`, for a value its preset gave.
fn preset_env(origin: Origin, sources: &Sources) -> Option<&'static str> {
    (origin == Origin::Preset && sources.preset_from_env()).then_some(PRESET_ENV)
}

/// The kind of the retry delays (`schedule_seconds`), when the scenario uses some: given by
/// `--schedule`, its variable, the scenario file or a preset.
pub fn of_schedule(sources: &Sources, used: bool) -> Option<InputKind> {
    let origin = sources.schedule();
    let kind = match origin {
        Origin::Default => Kind::Assumed,
        Origin::Log => Kind::Measured,
        _ => Kind::Given,
    };
    used.then(|| InputKind {
        kind,
        origin,
        bounds: None,
        reason: (kind == Kind::Assumed).then_some(Reason::Default),
        flag: SCHEDULE_FLAG.to_string(),
        outcomes: false,
        duration_unit: None,
        inferred_field: None,
        env: (origin == Origin::Env)
            .then_some(SCHEDULE_ENV)
            .or(preset_env(origin, sources)),
        from_schedule: false,
        thin: None,
        replaced_by: None,
    })
}

/// The kind of `input` in `findings`.
pub fn kind(findings: &Findings, input: Input) -> InputKind {
    let base = of_sources(input, &findings.sources, &findings.scenario);
    let kind = base.kind;
    let evidence = findings
        .measured
        .iter()
        .find(|m| m.input == input.json_name())
        .map(|m| &m.evidence);
    // What the log allows an assumed input to be, and why it is assumed, as its finding
    // says.
    let (bounds, reason) = match (kind, evidence) {
        (Kind::Assumed, Some(e)) => {
            let (bounds, reason) = e.assumed();
            (bounds, Some(reason))
        }
        (Kind::Assumed, None) => (None, Some(Reason::Default)),
        _ => (None, None),
    };
    InputKind {
        bounds,
        reason,
        duration_unit: (input == Input::TimeoutRate && kind == Kind::Measured)
            .then(|| unit_mark(evidence))
            .flatten(),
        thin: evidence
            .filter(|_| kind == Kind::Measured)
            .and_then(Evidence::thin),
        inferred_field: (kind == Kind::Measured)
            .then(|| inferred_field(findings, input, evidence))
            .flatten(),
        ..base
    }
}

/// The inferred field a measured `input` was read through, if one was.
fn inferred_field(
    findings: &Findings,
    input: Input,
    evidence: Option<&Evidence>,
) -> Option<super::InferredField> {
    let field = match (input, evidence) {
        (Input::SucceededShare, _) if findings.observed.backend_log.is_none() => "upstream_status",
        (
            Input::TimeoutRate,
            Some(Evidence::TimeoutRate(TimeoutEvidence::Picked(
                super::evidence::Picked::Measured(log),
            ))),
        ) if log.client_timeout.is_some() => "request_time",
        _ => "",
    };
    let inferred = || findings.observed.files.iter().flat_map(|f| &f.inferred);
    // A file's whole layout read from its values (a W3C log with no `#Fields:` line) is
    // what every rate measured from it was read through.
    inferred()
        .find(|i| !field.is_empty() && i.field == field)
        .or_else(|| {
            matches!(input, Input::TimeoutRate | Input::SucceededShare)
                .then(|| inferred().find(|i| i.field == "layout"))
                .flatten()
        })
        .cloned()
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
