//! Each input's kind (measured, given, assumed) as a report says it, with the flag that
//! settles an assumed one and the bounds it allows.

use crate::report::Style;

use super::*;

/// An input's kind as its line in a report says it: `measured`, `given: --ttl`, `given:
/// --preset stripe`, `assumed: the default; the log allows 0% to 100%; --succeeded-share or
/// --outcomes FILE settles it`. `preset` names the `--preset` the scenario started from.
pub fn kind_text(
    input: crate::inputs::Input,
    k: &crate::findings::InputKind,
    preset: Option<&str>,
) -> String {
    match kind_detail(input, k, preset) {
        Some(detail) => format!("{}: {detail}", kind_name(k.kind)),
        None => kind_name(k.kind).to_string(),
    }
}

/// An input the explorer's user set (its value no longer the one it started with).
pub const KIND_SET_HERE: &str = "given: set here";

/// A kind's one-letter mark after an input's value where room is short (the explorer):
/// `m`, `g`, `a`.
pub fn kind_mark(kind: crate::findings::Kind) -> char {
    kind_name(kind).chars().next().unwrap_or(' ')
}

/// A kind's name: `measured`, `given`, `assumed`.
pub fn kind_name(kind: crate::findings::Kind) -> &'static str {
    use crate::findings::Kind;
    match kind {
        Kind::Measured => "measured",
        Kind::Given => "given",
        Kind::Assumed => "assumed",
    }
}

/// What [`kind_text`] says after the kind's name (`--ttl`, `the default; --ttl settles it`);
/// `None` for a measured input, whose evidence says the rest.
pub fn kind_detail(
    input: crate::inputs::Input,
    k: &crate::findings::InputKind,
    preset: Option<&str>,
) -> Option<String> {
    use crate::findings::{Kind, kinds::Reason};
    Some(match k.kind {
        Kind::Measured if k.inferred_field.is_some() => {
            let mut detail = kind_detail(
                input,
                &crate::findings::InputKind {
                    inferred_field: None,
                    ..k.clone()
                },
                preset,
            )
            .map_or(String::new(), |d| format!("{d}; "));
            detail.push_str(
                &k.inferred_field
                    .as_ref()
                    .map_or(String::new(), inferred_text),
            );
            detail
        }
        Kind::Measured => match (&k.duration_unit, &k.thin) {
            (_, Some(t)) => format!(
                "{}{}",
                crate::findings::evidence::thin_mark(t),
                k.duration_unit
                    .as_ref()
                    .map_or(String::new(), |mark| format!(
                        "; durations read in {}, {}; {} settles it",
                        mark.unit,
                        unit_kind_text(mark.kind),
                        mark.flag
                    ))
            ),
            (Some(mark), None) => format!(
                "durations read in {}, {}; {} settles it",
                mark.unit,
                unit_kind_text(mark.kind),
                mark.flag
            ),
            (None, None) => return None,
        },
        Kind::Given if k.from_schedule => format!("one per delay of {}", given_by(k, preset)),
        Kind::Given => given_by(k, preset),
        Kind::Assumed => {
            let why = match k.reason {
                Some(Reason::TooFew) => "the scenario's, the log has too few",
                Some(Reason::NoOutcomes) => "no outcome is known",
                Some(Reason::UnknownOutcomes) => "most outcomes are unknown",
                Some(Reason::ShortSpan) => "the scenario's, a short span only bounds it",
                Some(Reason::ZeroSpan) => "the default, the log's timestamps span no time",
                Some(Reason::NoTimestamps) => "the default, the log has no timestamps",
                Some(Reason::NoTimeouts) => "the default, no timed-out attempt in the log",
                Some(Reason::NoEffect) => {
                    "the default, no timed-out attempt in the log; the timeout rate used is 0, so it changes no figure but the intervals"
                }
                Some(Reason::Default) | None => "the default",
            };
            let bounds = k.bounds.map_or(String::new(), |[lo, hi]| {
                format!("; the log allows {}", bounds_of(input, lo, hi))
            });
            format!("{why}{bounds}; {} settles it", settled_by(k))
        }
    })
}

/// A field read from its values and the flag that makes it given: `upstream_status
/// (extra_1) inferred from its values; --log-format 'combined $upstream_status' makes it
/// given`.
pub fn inferred_text(i: &crate::findings::InferredField) -> String {
    if i.field == "layout" {
        return format!(
            "layout ({}, {}) inferred from its values; {} makes it given",
            i.read_as, i.from, i.given_by
        );
    }
    format!(
        "{} ({}) inferred from its values; {} makes it given",
        i.field, i.from, i.given_by
    )
}

/// How a duration's unit was had: `assumed`, `inferred from their values`.
fn unit_kind_text(kind: crate::findings::kinds::UnitKind) -> &'static str {
    match kind {
        crate::findings::kinds::UnitKind::Assumed => "assumed",
        crate::findings::kinds::UnitKind::Inferred => "inferred from their values",
    }
}

/// What settles an assumed input: its flag (`--ttl`), or its flag or a second log
/// (`--succeeded-share or --outcomes FILE`).
pub fn settled_by(k: &crate::findings::InputKind) -> String {
    if k.outcomes {
        format!("{} or --outcomes FILE", k.flag)
    } else {
        k.flag.to_string()
    }
}

/// What gave a given input: `--ttl`, `DUPCOST_TTL`, `the scenario file`, `--preset stripe`;
/// for the retries a schedule gave, what gave the schedule.
fn given_by(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    use crate::inputs::Origin;
    match (k.origin, preset) {
        (Origin::Scenario, _) => "the scenario file".to_string(),
        (Origin::Preset, Some(name)) => match k.env {
            Some(env) => format!("{env}={name}"),
            None => format!("--preset {name}"),
        },
        (Origin::Preset, None) => "the preset".to_string(),
        (Origin::Sweep, _) => "--sweep".to_string(),
        _ => match k.env {
            Some(env) => env.to_string(),
            None if k.from_schedule => crate::inputs::SCHEDULE_FLAG.to_string(),
            None => k.flag.clone(),
        },
    }
}

/// The label of the retry delays' line, where a schedule replaces the backoff inputs.
pub const RETRY_DELAYS: &str = "retry delays";

/// The retry delays' kind as their line says it: `given: --schedule`, `given: --preset
/// svix-webhooks`, `given: DUPCOST_SCHEDULE`.
pub fn schedule_kind_text(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    format!("{}: {}", kind_name(k.kind), schedule_kind_detail(k, preset))
}

/// What [`schedule_kind_text`] says after the kind's name: `--schedule`, `--preset
/// svix-webhooks`.
pub fn schedule_kind_detail(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    match k.kind {
        crate::findings::Kind::Given => given_by(k, preset),
        _ => format!("the default; {} settles it", k.flag),
    }
}

/// The retry delays as their line shows them: `5s, 5m (svix-webhooks)` when the preset set
/// them.
pub fn schedule_value(delays: &crate::model::Delays, style: &Style) -> String {
    let text = schedule_text(delays);
    match style.preset.as_ref().filter(|t| t.schedule) {
        Some(t) => format!("{text} ({})", t.name),
        None => text,
    }
}

/// The duplicates and refunds over an assumed share's bounds, as the intervals say them:
/// `duplicates 0 to 1,202 a month, refunds $0 to $48,096, over the succeeded share's 0% to
/// 100% (601, $24,048 at the assumed 50%)`.
pub fn output_bounds_text(
    b: &crate::findings::OutputBounds,
    e: &crate::model::Estimate,
    currency: &str,
) -> String {
    let [dlo, dhi] = b.duplicates_per_month;
    let [rlo, rhi] = b.refunds_per_month;
    let money = |v: f64| super::human::money(v, currency);
    format!(
        "duplicates {} to {} a month, refunds {} to {}, over the succeeded share's bounds {} to {} ({}, {} at the assumed {})",
        super::human::count(dlo),
        super::human::count(dhi),
        money(rlo),
        money(rhi),
        pct3(b.succeeded_share[0]),
        pct3(b.succeeded_share[1]),
        super::human::count(e.duplicates.per_month),
        money(e.refund_cost.per_month),
        rate(e.inputs.succeeded_share),
    )
}

/// What the verdict's money rests on, where assumed: `Assuming a $40 order (--order-value)
/// and a 50% succeeded share (--succeeded-share).`; `None` when nothing it rests on is.
pub fn verdict_assumptions(
    assumed: &[(crate::inputs::Input, &crate::findings::InputKind)],
    e: &crate::model::Estimate,
    currency: &str,
) -> Option<String> {
    use crate::inputs::Input;
    let parts: Vec<String> = assumed
        .iter()
        // A share that changes no figure is no assumption of the verdict's.
        .filter(|(_, k)| k.reason != Some(crate::findings::kinds::Reason::NoEffect))
        .filter_map(|(input, k)| {
            let v = input.get(&e.inputs);
            let what = match input {
                Input::OrderValue => format!("a {} order", super::human::money(v, currency)),
                Input::SucceededShare => format!("a {} succeeded share", rate(v)),
                Input::TimeoutRate => format!("a {} timeout rate", rate(v)),
                Input::RequestsPerDay => format!("{} requests a day", count_f(v)),
                _ => return None,
            };
            Some(format!("{what} ({})", k.flag))
        })
        .collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some(format!("Assuming {one}.")),
        [rest @ .., last] => Some(format!("Assuming {} and {last}.", rest.join(", "))),
    }
}
