//! The report model: what a report says, built once from the [`Estimate`] (and, for `logs`,
//! the [`Findings`]), and read by every renderer: table, markdown, JSON, CSV, SVG and the
//! explorer.
//!
//! A renderer lays the model out; it does not walk the estimate or the findings again, and it
//! words nothing itself: each figure comes with its label and its value (a [`Value`], shown by
//! the one number format of its kind), each measured input with its evidence as a sentence.
//! `docs/DESIGN.md` ("The report model") says how a renderer reads it and where a new input
//! kind goes.

use crate::findings::{Findings, InputKind, Intervals, Kind, Observed, OutputBounds};
use crate::inputs::{Input, Origin, Sources};
use crate::model::{Estimate, Store};
use crate::units::{Duration, Rate, Seconds};

use super::words::{count, label};
use super::{evidence, human};

/// A figure's value, by the kind of number it is: its kind chooses its format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Count(f64),
    Money(f64),
    Size(f64),
    /// A span of time, rounded for reading (`1h 2m`).
    Seconds(f64),
    /// A span of time as given (`24h`).
    Duration(f64),
    /// A multiple (`1.04x`).
    Times(f64),
}

impl Value {
    /// The number itself.
    pub fn number(self) -> f64 {
        match self {
            Value::Count(v)
            | Value::Money(v)
            | Value::Size(v)
            | Value::Seconds(v)
            | Value::Duration(v)
            | Value::Times(v) => v,
        }
    }

    /// As every report shows it: `1,234`, `$24,048`, `1.2 MB`, `1h 2m`, `1.04x`.
    pub fn show(self, currency: &str) -> String {
        match self {
            Value::Count(v) => human::count(v),
            Value::Money(v) => human::money(v, currency),
            Value::Size(v) => human::size(v),
            Value::Seconds(v) => Seconds(v).rounded(),
            Value::Duration(v) => Duration(v as u64).to_string(),
            Value::Times(v) => crate::report::words::times(v),
        }
    }

    /// The change from `base`, signed: `+$24`, `-601`, `±0`.
    pub fn delta(self, base: Value, currency: &str) -> String {
        let d = self.number() - base.number();
        let signed = |text: String| format!("{}{text}", if d > 0.0 { "+" } else { "-" });
        match self {
            Value::Count(_) => human::count_delta(d),
            Value::Money(_) => human::money_delta(d, currency),
            Value::Size(_) if d.round() == 0.0 => "±0 B".to_string(),
            Value::Size(_) => signed(human::size(d.abs())),
            Value::Seconds(_) | Value::Duration(_) if d == 0.0 => "±0s".to_string(),
            Value::Seconds(_) | Value::Duration(_) => signed(Seconds(d.abs()).rounded()),
            Value::Times(_) if d == 0.0 => "±0x".to_string(),
            Value::Times(_) => signed(crate::report::words::times(d.abs())),
        }
    }
}

/// Which output of `docs/MODEL.md` a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureId {
    DuplicatesPerDay,
    DuplicatesPerMonth,
    RefundsPerMonth,
    RefundsPerYear,
    UnansweredNeverRetryingPerDay,
    UnansweredNeverRetryingPerMonth,
    ChargedNeverRetryingPerMonth,
    UnansweredPerDay,
    ChargedPerDay,
    ExtraAttemptsPerDay,
    AttemptsWorstCase,
    AttemptsExpected,
    /// With the logs, the layers figure with the proxy's layer measured
    /// (`observed.amplification`), where a format logs its tries.
    ProxyLayerExpected,
    ProxyLayerWorstCase,
    RetryHorizon,
    KeyTtl,
    LeftPerDay,
    LeftPerMonth,
    LiveKeys,
    StoreSize(Store),
}

/// One figure of the estimate: its label within its section, its label standing alone (a
/// markdown table row of several sections), its value, and its rule of thumb where the model
/// has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub id: FigureId,
    pub label: String,
    pub standalone: String,
    pub value: Value,
    pub rule_of_thumb: Option<Value>,
}

/// A section of the estimate: its title, the headers of its value columns, its figures, and
/// whether a blank line closes it (sections that read as one group share one).
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub title: &'static str,
    pub columns: &'static [&'static str],
    pub figures: Vec<Figure>,
    pub closes_group: bool,
}

/// The estimate as every renderer reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateReport {
    /// The inputs as `label, value`, a published schedule replacing the backoff inputs.
    pub scenario: Vec<(&'static str, String)>,
    /// With the logs, each input's kind (measured, given, assumed), worded, by its label.
    pub kinds: Vec<(&'static str, String)>,
    pub sections: Vec<Section>,
    /// The one-sentence verdict, uncoloured.
    pub verdict: String,
}

impl EstimateReport {
    pub fn new(e: &Estimate, style: &super::Style) -> EstimateReport {
        let plain = super::Style {
            color: false,
            ..style.clone()
        };
        let mut report = EstimateReport {
            scenario: crate::report::words::input_lines(e, style),
            kinds: Vec::new(),
            sections: sections(e),
            verdict: crate::report::words::verdict(e, &plain),
        };
        // Without logs, where each input came from is its kind: given, or assumed (the
        // default), and the verdict says what its money rests on where that is assumed.
        if let Some(sources) = &style.sources {
            let preset = style.preset.as_ref().map(|t| t.name);
            let kinds: Vec<(Input, InputKind)> = Input::ALL
                .into_iter()
                .map(|input| {
                    (
                        input,
                        crate::findings::kinds::of_sources(input, sources, &e.inputs),
                    )
                })
                .collect();
            report.kinds = kinds
                .iter()
                .filter(|(_, k)| k.replaced_by.is_none())
                .map(|(input, k)| (input.label(), super::words::kind_text(*input, k, preset)))
                .collect();
            report.mark_schedule(e, sources, preset);
            let assumed: Vec<(Input, &InputKind)> = kinds
                .iter()
                .filter(|(_, k)| k.kind == Kind::Assumed && k.replaced_by.is_none())
                .map(|(input, k)| (*input, k))
                .collect();
            if let Some(clause) = super::words::verdict_assumptions(&assumed, e, &style.currency) {
                report.verdict = format!("{} {clause}", report.verdict);
            }
        }
        report
    }

    /// The retry delays' kind on their line, where a schedule replaces the backoff inputs.
    pub fn mark_schedule(&mut self, e: &Estimate, sources: &Sources, preset: Option<&str>) {
        let used = e.inputs.schedule_seconds.is_some();
        if let Some(k) = crate::findings::kinds::of_schedule(sources, used) {
            let text = super::words::schedule_kind_text(&k, preset);
            self.kinds.push((super::words::RETRY_DELAYS, text));
        }
    }

    /// The figure `id`; every output of the model is in the report.
    pub fn figure(&self, id: FigureId) -> &Figure {
        self.sections
            .iter()
            .flat_map(|s| &s.figures)
            .find(|f| f.id == id)
            .expect("every figure is in the report")
    }
}

fn figure(id: FigureId, label: String, standalone: String, value: Value) -> Figure {
    Figure {
        id,
        label,
        standalone,
        value,
        rule_of_thumb: None,
    }
}

fn sections(e: &Estimate) -> Vec<Section> {
    vec![
        duplicates(e),
        refunds(e),
        unanswered(e),
        load(e),
        schedule(e),
        key_store(e),
    ]
}

/// A figure with its rule of thumb.
fn with(mut f: Figure, thumb: Value) -> Figure {
    f.rule_of_thumb = Some(thumb);
    f
}

/// Duplicate charges, with the rules of thumb.
fn duplicates(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::Count;
    Section {
        title: "Duplicate charges",
        columns: &["exact", "rule of thumb"],
        figures: vec![
            with(
                figure(
                    F::DuplicatesPerDay,
                    "a day".into(),
                    "duplicate charges a day".into(),
                    Count(e.duplicates.per_day),
                ),
                Count(e.duplicates.rule_of_thumb_per_day),
            ),
            with(
                figure(
                    F::DuplicatesPerMonth,
                    "a month".into(),
                    "duplicate charges a month".into(),
                    Count(e.duplicates.per_month),
                ),
                Count(e.rule_of_thumb_per_month()),
            ),
        ],
        closes_group: false,
    }
}

/// Refunds (closing the group the duplicates open).
fn refunds(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::Money;
    Section {
        title: "Refunds",
        columns: &[],
        figures: vec![
            with(
                figure(
                    F::RefundsPerMonth,
                    "a month".into(),
                    "refunds a month".into(),
                    Money(e.refund_cost.per_month),
                ),
                Money(e.rule_of_thumb_refund_per_month()),
            ),
            figure(
                F::RefundsPerYear,
                "a year".into(),
                "refunds a year".into(),
                Money(e.refund_cost.per_year),
            ),
        ],
        closes_group: true,
    }
}

/// Customers left without an answer.
fn unanswered(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::Count;
    let r = e.inputs.retries;
    let retrying = format!("at {r} {}, a day", if r == 1 { "retry" } else { "retries" });
    Section {
        title: "Customers left without an answer",
        columns: &[],
        figures: vec![
            figure(
                F::UnansweredNeverRetryingPerDay,
                "never retrying, a day".into(),
                "never retrying, a day".into(),
                Count(e.unanswered.zero_retries_per_day),
            ),
            figure(
                F::UnansweredNeverRetryingPerMonth,
                "never retrying, a month".into(),
                "never retrying, a month".into(),
                Count(e.unanswered.zero_retries_per_month),
            ),
            figure(
                F::ChargedNeverRetryingPerMonth,
                format!("  {}", label::CHARGED_ANYWAY),
                format!("never retrying, a month, {}", label::CHARGED),
                Count(e.unanswered.charged_zero_retries_per_month),
            ),
            figure(
                F::UnansweredPerDay,
                retrying.clone(),
                retrying.clone(),
                Count(e.unanswered.per_day),
            ),
            figure(
                F::ChargedPerDay,
                format!("  {}", label::CHARGED_ANYWAY),
                format!("{retrying}, {}", label::CHARGED),
                Count(e.unanswered.charged_per_day),
            ),
        ],
        closes_group: true,
    }
}

/// Extra load from retries.
fn load(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::{Count, Times};
    let at = crate::report::words::layers(e.inputs.layers);
    Section {
        title: "Extra load from retries",
        columns: &[],
        figures: vec![
            figure(
                F::ExtraAttemptsPerDay,
                "attempts a day".into(),
                "extra attempts a day from retries".into(),
                Count(e.extra_attempts_per_day),
            ),
            figure(
                F::AttemptsWorstCase,
                format!("at {at}, worst case"),
                format!("attempts at {at}, worst case"),
                Times(e.amplification.worst_case),
            ),
            figure(
                F::AttemptsExpected,
                format!("at {at}, expected"),
                format!("attempts at {at}, expected"),
                Times(e.amplification.expected),
            ),
        ],
        closes_group: true,
    }
}

impl EstimateReport {
    /// The layers figure with the proxy's layer measured (`observed.amplification`), after
    /// the model's in the load section (the explorer adds it for its scenario of the moment).
    pub fn add_proxy_layer(&mut self, a: &crate::findings::AmplificationObserved) {
        proxy_layer(self, a);
    }
}

/// The layers figure with the proxy's layer measured, after the model's in the load section.
fn proxy_layer(report: &mut EstimateReport, a: &crate::findings::AmplificationObserved) {
    use FigureId as F;
    let at = crate::report::words::layers(a.layers.saturating_sub(1));
    let Some(load) = report
        .sections
        .iter_mut()
        .find(|s| s.figures.iter().any(|f| f.id == F::AttemptsExpected))
    else {
        return;
    };
    load.figures.extend([
        figure(
            F::ProxyLayerExpected,
            "+ proxy's tries, expected".into(),
            format!("attempts at {at} and the proxy's measured tries, expected"),
            Value::Times(a.expected),
        ),
        figure(
            F::ProxyLayerWorstCase,
            "+ proxy's tries, at most".into(),
            format!("attempts at {at} and the proxy's measured tries, at most"),
            Value::Times(a.worst_case),
        ),
    ]);
}

/// The retry schedule against the key TTL.
fn schedule(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::Count;
    Section {
        title: "Retry schedule against the key TTL",
        columns: &[],
        figures: vec![
            figure(
                F::RetryHorizon,
                label::RETRY_HORIZON.into(),
                label::RETRY_HORIZON.into(),
                Value::Seconds(e.retry_horizon_seconds),
            ),
            figure(
                F::KeyTtl,
                "key TTL".into(),
                "key TTL".into(),
                Value::Duration(e.inputs.ttl_seconds as f64),
            ),
            figure(
                F::LeftPerDay,
                "duplicates left, a day".into(),
                "duplicates left, a day".into(),
                Count(e.duplicates.with_key_store.per_day),
            ),
            figure(
                F::LeftPerMonth,
                "duplicates left, a month".into(),
                format!(
                    "duplicates a month left by keys kept {}",
                    Duration(e.inputs.ttl_seconds)
                ),
                Count(e.duplicates.with_key_store.per_month),
            ),
        ],
        closes_group: true,
    }
}

/// The key store (the fix).
fn key_store(e: &Estimate) -> Section {
    use FigureId as F;
    use Value::{Count, Size};
    Section {
        title: "Key store (the fix)",
        columns: &[],
        figures: std::iter::once(figure(
            F::LiveKeys,
            "live keys".into(),
            "live keys".into(),
            Count(e.key_store.live_keys),
        ))
        .chain(Store::ALL.into_iter().map(|store| {
            let label = crate::report::words::store_label(store, e.inputs.store);
            figure(
                F::StoreSize(store),
                label.clone(),
                label,
                Size(e.key_store.by_store.get(store)),
            )
        }))
        .collect(),
        closes_group: true,
    }
}

/// One model input as the logs report shows it: its value, where it came from, and what the
/// logs said of it.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRow {
    pub input: Input,
    /// Its value as the reports show it (`1.94%`, `$40`).
    pub value: String,
    /// Where its value came from: measured from the logs, a flag, a preset, the scenario
    /// file, the default.
    pub origin: Origin,
    /// The logs' evidence, when the logs gave or were asked about it.
    pub evidence: Option<String>,
    /// Its 95% interval, when measured (JSON units).
    pub interval: Option<(f64, f64)>,
    /// Measured, given or assumed, with an assumed one's bounds and what settles it.
    pub kind: InputKind,
    /// [`InputRow::kind`] as its line says it (`assumed: the default; --order-value settles it`).
    pub kind_text: String,
}

/// An input's mark where a compact form (a sweep's table) lists the inputs under its rows
/// instead of beside their values: its label, its value, its kind and what the kind says
/// after its name (`--ttl`, `the default; --ttl settles it`).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub label: &'static str,
    /// Its value as the reports show it; a swept input's range.
    pub value: String,
    pub kind: InputKind,
    /// What its kind's words say after the kind's name; `None` for a measured input.
    pub detail: Option<String>,
}

/// The marks of every input `e` uses, in the order of its Scenario lines (the retry delays in
/// the backoff's place where a schedule replaces it), the swept input's value its `range`;
/// empty where the style does not know where each input came from.
pub fn marks(e: &Estimate, style: &super::Style, swept: Option<(Input, &str)>) -> Vec<Mark> {
    let Some(sources) = &style.sources else {
        return Vec::new();
    };
    let preset = style.preset.as_ref().map(|t| t.name);
    let mut marks = Vec::new();
    for input in Input::ALL {
        let kind = crate::findings::kinds::of_sources(input, sources, &e.inputs);
        if kind.replaced_by.is_some() {
            // The schedule's delays stand where the backoff stood.
            let delays = e
                .inputs
                .schedule_seconds
                .filter(|_| input == Input::Backoff);
            let schedule = crate::findings::kinds::of_schedule(sources, delays.is_some());
            if let (Some(delays), Some(kind)) = (delays, schedule) {
                // The kind's words name the preset: the value goes without it.
                marks.push(Mark {
                    label: super::words::RETRY_DELAYS,
                    value: super::words::schedule_text(&delays),
                    detail: Some(super::words::schedule_kind_detail(&kind, preset)),
                    kind,
                });
            }
            continue;
        }
        // A preset's value goes without the preset's name: its kind's words give it.
        let value = match swept {
            Some((i, range)) if i == input => range.to_string(),
            _ => super::words::input_value(input, input.get(&e.inputs), &style.currency),
        };
        marks.push(Mark {
            label: input.label(),
            value,
            detail: super::words::kind_detail(input, &kind, preset),
            kind,
        });
    }
    marks
}

/// The marks under a sweep's compact table, one paragraph a kind (measured, given, assumed),
/// as the Scenario lines of the full form say them: `given: retries 0 to 5 (--sweep); order
/// value $85 (--order-value)`, then the defaults, each with only the flag that settles it.
pub fn sweep_marks(marks: &[Mark]) -> Vec<String> {
    use super::words::sections::{mark_item, marks_line};
    let mut lines = Vec::new();
    for kind in [Kind::Measured, Kind::Given, Kind::Assumed] {
        let (defaults, others): (Vec<&Mark>, Vec<&Mark>) = marks
            .iter()
            .filter(|m| m.kind.kind == kind)
            .partition(|m| m.kind.reason == Some(crate::findings::kinds::Reason::Default));
        if !others.is_empty() {
            let items: Vec<String> = others
                .iter()
                .map(|m| mark_item(m.label, &m.value, m.detail.as_deref()))
                .collect();
            lines.push(marks_line(kind, false, &items));
        }
        if !defaults.is_empty() {
            let items: Vec<String> = defaults
                .iter()
                .map(|m| {
                    let flag = super::words::settled_by(&m.kind);
                    mark_item(m.label, &m.value, Some(&flag))
                })
                .collect();
            lines.push(marks_line(kind, true, &items));
        }
    }
    lines
}

/// The retry delays of a schedule (`--schedule`, a preset's, the scenario file's), where the
/// scenario uses one: a line of its own after the attempt timeout, in place of the backoff.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryDelays {
    /// The delays as the reports show them (`5s, 5m, 30m`).
    pub value: String,
    /// Given (by what) or assumed.
    pub kind: InputKind,
    /// [`RetryDelays::kind`] as its line says it (`given: --schedule`).
    pub kind_text: String,
}

/// The report of `dupcost logs` (and `estimate --observed`, `logs --follow`, the explorer's
/// `--logs`): the findings worded once, then the estimate.
#[derive(Debug, Clone)]
pub struct LogsReport<'a> {
    pub estimate: &'a Estimate,
    pub findings: &'a Findings,
    pub observed: &'a Observed,
    pub intervals: &'a Intervals,
    pub sources: &'a Sources,
    /// Each measured input's evidence, in the derivation's order.
    pub evidence: Vec<String>,
    /// Every input with its value, origin, evidence and interval, in `Input::ALL`'s order.
    pub inputs: Vec<InputRow>,
    /// The warnings about the log, worded.
    pub warnings: Vec<String>,
    /// Why the duplicates seen and predicted differ, worded.
    pub duplicates_note: Option<String>,
    pub estimate_report: EstimateReport,
    /// The `--preset` the scenario started from, and the inputs it set.
    pub preset: Option<super::PresetTrace>,
    /// The duplicates and refunds over an assumed succeeded share's bounds, and in words.
    pub output_bounds: Option<(OutputBounds, String)>,
    /// The retry delays' line, where a schedule replaces the backoff inputs.
    pub retry_delays: Option<RetryDelays>,
}

impl<'a> LogsReport<'a> {
    pub fn new(e: &'a Estimate, findings: &'a Findings, style: &super::Style) -> LogsReport<'a> {
        let inputs: Vec<InputRow> = Input::ALL
            .into_iter()
            .map(|input| {
                let kind = crate::findings::kinds::kind(findings, input);
                InputRow {
                    input,
                    value: super::PresetTrace::mark(
                        style.preset.as_ref(),
                        input,
                        crate::report::words::input_value(
                            input,
                            input.get(&e.inputs),
                            &style.currency,
                        ),
                    ),
                    origin: findings.sources.get(input),
                    evidence: evidence::evidence(findings, input),
                    interval: evidence::interval_for(findings, input),
                    kind_text: super::words::kind_text(
                        input,
                        &kind,
                        style.preset.as_ref().map(|t| t.name),
                    ),
                    kind,
                }
            })
            .collect();
        let mut estimate_report = EstimateReport::new(e, style);
        if let Some(a) = &findings.observed.amplification {
            estimate_report.add_proxy_layer(a);
        }
        // Each input's kind on its own line of the Scenario section, by the label it has there.
        estimate_report.kinds = inputs
            .iter()
            .filter(|row| row.kind.replaced_by.is_none())
            .map(|row| (row.input.label(), row.kind_text.clone()))
            .collect();
        estimate_report.mark_schedule(e, &findings.sources, style.preset.as_ref().map(|t| t.name));
        let assumed: Vec<(Input, &InputKind)> = inputs
            .iter()
            .filter(|row| row.kind.kind == Kind::Assumed && row.kind.replaced_by.is_none())
            .map(|row| (row.input, &row.kind))
            .collect();
        if let Some(clause) = super::words::verdict_assumptions(&assumed, e, &style.currency) {
            estimate_report.verdict = format!("{} {clause}", estimate_report.verdict);
        }
        let output_bounds = OutputBounds::of(findings)
            .map(|b| (b, super::words::output_bounds_text(&b, e, &style.currency)));
        let preset = style.preset.as_ref().map(|t| t.name);
        let retry_delays = e.inputs.schedule_seconds.and_then(|delays| {
            let kind = crate::findings::kinds::of_schedule(&findings.sources, true)?;
            Some(RetryDelays {
                value: super::words::schedule_value(&delays, style),
                kind_text: super::words::schedule_kind_text(&kind, preset),
                kind,
            })
        });
        LogsReport {
            estimate: e,
            findings,
            observed: &findings.observed,
            intervals: &findings.intervals,
            sources: &findings.sources,
            evidence: findings
                .measured
                .iter()
                .map(|m| evidence::said(findings, m))
                .collect(),
            inputs,
            warnings: findings
                .observed
                .warnings
                .iter()
                .map(ToString::to_string)
                .collect(),
            duplicates_note: findings
                .observed
                .observed_duplicates
                .as_ref()
                .and_then(|d| d.note.as_ref())
                .map(ToString::to_string),
            estimate_report,
            preset: style.preset.clone(),
            output_bounds,
            retry_delays,
        }
    }

    /// The rows a report shows: every input but those the scenario replaced (the backoff
    /// under a schedule, whose kind says `replaced_by`; JSON still lists them).
    pub fn shown_inputs(&self) -> impl Iterator<Item = &InputRow> {
        self.inputs
            .iter()
            .filter(|row| row.kind.replaced_by.is_none())
    }

    /// The row of `input`.
    pub fn input(&self, input: Input) -> &InputRow {
        self.inputs
            .iter()
            .find(|r| r.input == input)
            .expect("every input has a row")
    }
}

/// The per-day rows (date, mutating, timed out, of which succeeded, of which unknown, timeout
/// rate); a log of more than `shown` days lists the first and last half of them, with the row
/// `gap` makes of `… 17 more days` between.
pub fn per_day_rows(
    o: &Observed,
    shown: usize,
    gap: impl Fn(String) -> Vec<String>,
) -> Vec<Vec<String>> {
    let n = o.per_day.len();
    let mut rows = Vec::new();
    for (i, d) in o.per_day.iter().enumerate() {
        if n > shown && i == shown / 2 {
            rows.push(gap(format!("… {} more days", n - shown)));
        }
        if n > shown && i >= shown / 2 && i < n - shown / 2 {
            continue;
        }
        rows.push(vec![
            d.date.clone(),
            count(d.mutating),
            count(d.timed_out),
            d.timed_out_succeeded.map_or("-".into(), count),
            d.timed_out_unknown.map_or("-".into(), count),
            share(d.timed_out, d.mutating),
        ]);
    }
    rows
}

/// `part / whole` as a rounded percentage, `-` when `whole` is 0.
pub fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        Rate(part as f64 / whole as f64).rounded()
    }
}
