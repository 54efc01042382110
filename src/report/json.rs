//! `--format json`: the contract of `docs/MODEL.md`, unrounded.

use serde::Serialize;

use crate::findings::{Intervals, Observed};
use crate::inputs::Sources;
use crate::model::Estimate;
use crate::probe::Probe;

use super::model::LogsReport;

/// One estimate as a pretty JSON object, newline-terminated; with `preset` after the
/// estimate's own keys when the scenario started from one, then `input_kinds` (each input
/// given or assumed, by JSON name) when the style knows where each input came from.
pub fn estimate(e: &Estimate, style: &super::Style) -> Vec<u8> {
    to_bytes(&Report::new(e, style))
}

/// An estimate's object: the estimate, its preset, its inputs' kinds.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    estimate: &'a Estimate,
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<&'a super::PresetTrace>,
    /// Each input's kind by JSON name: given (by the flag, its variable, the scenario file, the
    /// preset or the sweep) or assumed (the default), with the flag that settles it, as
    /// `dupcost logs` has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    input_kinds: Option<serde_json::Map<String, serde_json::Value>>,
}

impl<'a> Report<'a> {
    fn new(e: &'a Estimate, style: &'a super::Style) -> Report<'a> {
        let input_kinds = style.sources.map(|sources| {
            let kinds = crate::inputs::Input::ALL
                .into_iter()
                .map(|input| {
                    let kind = crate::findings::kinds::of_sources(input, &sources, &e.inputs);
                    (input.json_name(), kind)
                })
                .collect();
            kinds_object(kinds, &sources, e)
        });
        Report {
            estimate: e,
            preset: style.preset.as_ref(),
            input_kinds,
        }
    }
}

/// `input_kinds`: each input's kind by JSON name, then the retry delays'
/// (`schedule_seconds`) where a schedule is used.
pub fn kinds_object(
    kinds: Vec<(&'static str, crate::findings::InputKind)>,
    sources: &crate::inputs::Sources,
    e: &Estimate,
) -> serde_json::Map<String, serde_json::Value> {
    let schedule =
        crate::findings::kinds::of_schedule(sources, e.inputs.schedule_seconds.is_some())
            .map(|k| (crate::inputs::SCHEDULE_JSON_NAME, k));
    kinds
        .into_iter()
        .chain(schedule)
        .map(|(name, kind)| {
            let value = serde_json::to_value(&kind).expect("a kind serializes");
            (name.to_string(), value)
        })
        .collect()
}

/// A sweep as a JSON array of estimate objects, each as [`estimate`] writes it (the swept
/// input given by `--sweep`).
pub fn sweep(estimates: &[Estimate], style: &super::Style) -> Vec<u8> {
    let reports: Vec<Report> = estimates.iter().map(|e| Report::new(e, style)).collect();
    to_bytes(&reports)
}

/// Any serializable report (used by `logs`, which adds `observed`) as pretty JSON.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut out =
        serde_json::to_vec_pretty(value).expect("reports hold only finite numbers and strings");
    out.push(b'\n');
    out
}

/// The JSON report: the estimate's object with `observed` and `intervals` keys after its own.
pub fn logs(r: &LogsReport) -> Vec<u8> {
    let (e, derived) = (r.estimate, r.findings);
    #[derive(Serialize)]
    struct Report<'a> {
        #[serde(flatten)]
        estimate: &'a Estimate,
        observed: &'a Observed,
        intervals: &'a Intervals,
        /// Where each input came from: flag, log, default, scenario or preset.
        sources: &'a Sources,
        /// The preset, and the inputs it set, when there was one.
        #[serde(skip_serializing_if = "Option::is_none")]
        preset: Option<&'a super::PresetTrace>,
        /// Each input's kind by JSON name: measured, given or assumed, with an assumed one's
        /// bounds and the flag that settles it.
        input_kinds: serde_json::Map<String, serde_json::Value>,
        /// Duplicates and refunds a month over an assumed succeeded share's bounds; `null`
        /// when the share is measured or given.
        bounds: Option<&'a crate::findings::OutputBounds>,
    }
    let kinds = r
        .inputs
        .iter()
        .map(|row| (row.input.json_name(), row.kind.clone()))
        .collect();
    let input_kinds = kinds_object(kinds, &derived.sources, e);
    to_bytes(&Report {
        estimate: e,
        observed: &derived.observed,
        intervals: &derived.intervals,
        sources: &derived.sources,
        preset: r.preset.as_ref(),
        input_kinds,
        bounds: r.output_bounds.as_ref().map(|(b, _)| b),
    })
}

/// `--format json`: the contract of `docs/MODEL.md`.
pub fn probe(probe: &Probe) -> Vec<u8> {
    to_bytes(probe)
}

/// `--format json`: the contract of docs/MODEL.md, unrounded.
pub struct Json;

impl super::Renderer for Json {
    fn render(&self, r: &super::Report) -> Result<Vec<u8>, String> {
        use super::Run;
        Ok(match &r.run {
            Run::Estimate { estimate: e, .. } => estimate(e, r.style),
            Run::Sweep { estimates, .. } => sweep(estimates, r.style),
            Run::Logs { report, .. } => logs(report),
            Run::Probe { probe: p, .. } => probe(p),
        })
    }
}
