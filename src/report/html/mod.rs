//! `--format html`: one self-contained page for the people who decide, to send in a chat or
//! an email and open anywhere.
//!
//! Nothing is fetched: the style sheet and the charts (the SVG of [`super::svg`]) are inline,
//! there is no script, and a Content-Security-Policy forbids the page any request at all. The
//! verdict comes first, in one sentence, then the money and the key store, every input with
//! its kind, the logs' evidence, the charts (each with its figures as a table, the chart's
//! text alternative), and the scenario as a block that `--scenario` takes back. It reads in
//! light and dark (`prefers-color-scheme`) and prints on A4.
//!
//! The page says what the other formats say, with the same words: it renders the same
//! sections; this module only decides how they look.

mod page;

pub use page::{Cell, Kind, Page, Tone, escape};

use crate::findings::Observed;
use crate::inputs::{Input, Sources};
use crate::model::Estimate;
use crate::probe::Probe;
use crate::sweep::Curves;

use crate::report::headline::Headline;
use crate::report::model::{EstimateReport, Figure, FigureId, LogsReport};
use crate::report::svg::{self, SweepFigure};
use crate::report::words::sections as say;
use crate::report::words::{count, page as words};
use crate::report::{Style, evidence, human};
use crate::units::Rate;

/// The page of one estimate.
pub fn estimate(
    e: &Estimate,
    curves: Option<&Curves>,
    sources: &Sources,
    style: &Style,
) -> Vec<u8> {
    let c = style.currency.as_str();
    let report = EstimateReport::new(e, style);
    let mut page = Page::new(words::ESTIMATE, &verdict(&report.verdict), Tone::of(e));
    let answer = Headline::of_estimate(e, style);
    page.cards(&headline(&report, e, c, &answer));
    page.list(&answer_list(&answer));
    page.end_header();
    inputs(&mut page, e, sources, style, None);
    outputs(&mut page, &report, c);
    page.heading("charts", words::CHARTS);
    scenario_charts(&mut page, e, curves, c);
    scenario(&mut page, words::SCENARIO_AGAIN, e);
    page.finish(words::FOOTER)
}

/// The page of a sweep: the verdict over the range, one row per value, and its charts.
pub fn sweep(input: Input, estimates: &[Estimate], sources: &Sources, style: &Style) -> Vec<u8> {
    let c = style.currency.as_str();
    let title = words::by(input);
    let Some(first) = estimates.first() else {
        return Page::new(&title, "", Tone::Fine).finish(words::FOOTER);
    };
    let shown = |e: &Estimate| crate::report::words::input_value(input, input.get(&e.inputs), c);
    let span = |f: fn(&Estimate) -> f64, show: &dyn Fn(f64) -> String| {
        let (lo, hi) = estimates
            .iter()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        say::range(show(lo), show(hi))
    };
    let money = |v: f64| human::money(v, c);
    let tone = if estimates.iter().any(|e| e.refund_cost.per_month > 0.0) {
        Tone::Cost
    } else {
        Tone::Fine
    };
    let report = EstimateReport::new(first, style);
    let mut page = Page::new(
        &title,
        &sentence(&say::sweep_verdict(input, estimates, c)),
        tone,
    );
    let label = |id: FigureId| report.figure(id).standalone.clone();
    page.figures(&[
        (
            label(FigureId::RefundsPerMonth),
            span(|e| e.refund_cost.per_month, &money),
        ),
        (
            label(FigureId::RefundsPerYear),
            span(|e| e.refund_cost.per_year, &money),
        ),
        (
            label(FigureId::DuplicatesPerMonth),
            span(|e| e.duplicates.per_month, &human::count),
        ),
        (
            words::KEY_STORE.to_string(),
            span(|e| e.key_store.bytes, &human::size),
        ),
    ]);
    page.end_header();
    let range = say::sweep_range(input, estimates, c);
    inputs(&mut page, first, sources, style, Some((input, &range)));
    page.heading("outputs", words::OUTPUTS);
    let rows: Vec<Vec<Cell>> = estimates
        .iter()
        .map(|e| {
            vec![
                Cell::Figure(shown(e)),
                Cell::Figure(human::count(e.duplicates.per_day)),
                Cell::Figure(human::count(e.duplicates.per_month)),
                Cell::Figure(human::money(e.refund_cost.per_month, c)),
                Cell::Figure(human::count(e.unanswered.per_day)),
                Cell::Figure(human::count(e.extra_attempts_per_day)),
                Cell::Figure(human::size(e.key_store.bytes)),
            ]
        })
        .collect();
    let mut headers = vec![input.label()];
    headers.extend(say::SWEEP);
    page.table("", &headers, &rows);
    page.heading("charts", words::CHARTS);
    for figure in [
        SweepFigure::Refunds,
        SweepFigure::Unanswered,
        SweepFigure::KeyedDuplicates,
    ] {
        page.chart(&svg::sweep_chart(input, estimates, figure, c));
    }
    scenario(&mut page, &words::sweep_again(input), first);
    page.finish(words::FOOTER)
}

/// The page of `dupcost logs`: the measured inputs with their evidence, the estimate, what
/// the logs showed, and the charts.
pub fn logs(r: &LogsReport, curves: Option<&Curves>, style: &Style) -> Vec<u8> {
    let c = style.currency.as_str();
    let (e, o) = (r.estimate, r.observed);
    let report = &r.estimate_report;
    let preset = style.preset.as_ref().map(|t| t.name);
    let mut page = Page::new(words::LOGS, &verdict(&report.verdict), Tone::of(e));
    let answer = Headline::of_logs(r, style);
    page.cards(&headline(report, e, c, &answer));
    page.list(&answer_list(&answer));
    page.note(&say::read_summary(o));
    page.end_header();
    page.heading("inputs", words::INPUTS);
    // A schedule's retry delays after the attempt timeout, in place of the backoff.
    let delays = r.retry_delays.as_ref().map(|d| {
        vec![
            Cell::Text(crate::report::words::RETRY_DELAYS.to_string()),
            Cell::Figure(d.value.clone()),
            Cell::Kind(
                d.kind.kind,
                Some(crate::report::words::schedule_kind_detail(&d.kind, preset)),
            ),
            Cell::Text(words::NOT_IN_LOGS.to_string()),
            Cell::Figure(String::new()),
        ]
    });
    let rows: Vec<Vec<Cell>> = r
        .shown_inputs()
        .flat_map(|row| {
            let input = row.input;
            let cells = vec![
                Cell::Text(input.label().to_string()),
                Cell::Figure(row.value.clone()),
                Cell::Kind(
                    row.kind.kind,
                    crate::report::words::kind_detail(input, &row.kind, preset),
                ),
                Cell::Text(match &row.evidence {
                    Some(text) => text.clone(),
                    None => words::NOT_IN_LOGS.to_string(),
                }),
                Cell::Figure(
                    row.interval
                        .map(|(lo, hi)| evidence::interval_text(input, lo, hi, c))
                        .unwrap_or_default(),
                ),
            ];
            let after = delays.clone().filter(|_| input == Input::AttemptTimeout);
            std::iter::once(cells).chain(after)
        })
        .collect();
    page.table("", &words::LOGS_INPUTS, &rows);
    if let Some((_, text)) = &r.output_bounds {
        // The assumed share's bounds, carried to the money, as the table and markdown say.
        page.paragraph(&sentence(&format!("{text}.")));
    }
    if r.inputs.iter().any(|row| row.interval.is_some()) {
        page.paragraph(&say::over_intervals(r.intervals, c));
    }
    if !r.warnings.is_empty() {
        page.heading("warnings", words::WARNINGS);
        page.list(&r.warnings);
    }
    outputs(&mut page, report, c);
    evidence_sections(&mut page, o, c);
    intents_section(&mut page, o, r.duplicates_note.as_deref(), c);
    page.heading("charts", words::CHARTS);
    scenario_charts(&mut page, e, curves, c);
    if !o.per_day.is_empty() {
        page.chart(&svg::timeout_rate_per_day(&o.per_day));
    }
    if !o.per_endpoint.is_empty() {
        page.bars(&svg::cost_per_endpoint(&o.per_endpoint, c));
    }
    scenario(&mut page, words::SCENARIO_MEASURED, e);
    page.finish(words::FOOTER)
}

/// The page of `dupcost probe`: the checks, what the failures found cost in the user's
/// scenario, and that scenario.
pub fn probe(probe: &Probe, e: &Estimate, sources: &Sources, style: &Style) -> Vec<u8> {
    use crate::report::words::probe as said;
    let c = style.currency.as_str();
    let tone = if probe.verdict == crate::probe::Grade::Pass {
        Tone::Fine
    } else {
        Tone::Cost
    };
    let title = words::probe(&probe.method, &probe.url);
    let mut page = Page::new(&title, &sentence(&said::verdict(probe)), tone);
    let refunds = EstimateReport::new(e, style);
    page.figures(&[
        (words::CHECKS_FAILED.into(), {
            let failed = probe
                .checks
                .iter()
                .filter(|c| c.outcome == crate::probe::Grade::Fail)
                .count();
            format!("{failed} of {}", probe.checks.len())
        }),
        (words::REQUESTS_SENT.into(), probe.requests.to_string()),
        (
            words::EXTRA_EXECUTIONS.into(),
            probe.duplicates_seen.to_string(),
        ),
        (
            words::AT_STAKE.into(),
            refunds.figure(FigureId::RefundsPerMonth).value.show(c),
        ),
    ]);
    page.end_header();
    page.heading("checks", words::CHECKS);
    let rows: Vec<Vec<Cell>> = probe
        .checks
        .iter()
        .map(|check| {
            vec![
                Cell::Code(check.name.to_string()),
                Cell::Outcome(check.outcome),
                Cell::Figure(check.requests.to_string()),
                Cell::Figure(check.executions_seen.to_string()),
                Cell::Text(check.detail.clone()),
            ]
        })
        .collect();
    page.table("", &words::CHECK_COLUMNS, &rows);
    page.paragraph(&words::duplicates_seen(
        &said::duplicates_seen(probe),
        probe.requests,
    ));
    let costs = said::costs(probe, e, c);
    if !costs.is_empty() {
        page.heading("costs", words::COSTS);
        page.paragraph(&said::scenario_line(e, c));
        let rows: Vec<Vec<Cell>> = costs
            .into_iter()
            .map(|(name, text)| vec![Cell::Code(name.to_string()), Cell::Text(text)])
            .collect();
        page.table("", &words::COST_COLUMNS, &rows);
    }
    inputs(&mut page, e, sources, style, None);
    scenario(&mut page, words::SCENARIO_PROBE, e);
    page.finish(words::FOOTER)
}

/// The headline figures under the verdict: the money, the duplicates, and the key store
/// that stops them, each under the report's own label.
fn headline(
    report: &EstimateReport,
    e: &Estimate,
    c: &str,
    answer: &Headline,
) -> Vec<(String, String, Option<String>)> {
    let card = |id: FigureId| {
        let f = report.figure(id);
        let range = match id {
            FigureId::RefundsPerMonth => answer.refunds.range.clone(),
            FigureId::DuplicatesPerMonth => answer.duplicates.range.clone(),
            _ => None,
        };
        (f.standalone.clone(), f.value.show(c), range)
    };
    let keys = report.figure(FigureId::LiveKeys);
    let store = report.figure(FigureId::StoreSize(e.inputs.store));
    vec![
        card(FigureId::RefundsPerMonth),
        card(FigureId::RefundsPerYear),
        card(FigureId::DuplicatesPerMonth),
        (
            format!(
                "{} ({} {})",
                words::KEY_STORE,
                keys.value.show(c),
                keys.standalone
            ),
            store.value.show(c),
            Some(answer.ttl.clone()),
        ),
    ]
}

/// What the cards leave out of the answer: the customers left unanswered, the fix, and a
/// log's costliest endpoints.
fn answer_list(answer: &Headline) -> Vec<String> {
    let mut items = vec![
        format!("{}: {}", answer.unanswered.label, answer.unanswered.value),
        format!("{}: {}", answer.fix.label, answer.fix.value),
    ];
    if !answer.endpoints.is_empty() {
        items.push(format!(
            "costliest endpoints: {}",
            answer.endpoints.join("; ")
        ));
    }
    items
}

/// The estimate's sections, each a table under its title: exact and rule of thumb side by
/// side where the model has both.
fn outputs(page: &mut Page, report: &EstimateReport, c: &str) {
    page.heading("outputs", words::OUTPUTS);
    page.begin_columns();
    let mut columns: &[&str] = &[];
    for section in &report.sections {
        let thumbs = section.figures.iter().any(|f| f.rule_of_thumb.is_some());
        if !section.columns.is_empty() {
            columns = section.columns;
        }
        let mut headers = vec![""];
        if thumbs && columns.len() == 2 {
            headers.extend(columns);
        } else {
            headers.push(words::VALUE);
        }
        let rows: Vec<Vec<Cell>> = section
            .figures
            .iter()
            .map(|f: &Figure| {
                let mut row = vec![Cell::Text(f.label.clone()), Cell::Figure(f.value.show(c))];
                if headers.len() == 3 {
                    row.push(Cell::Figure(
                        f.rule_of_thumb.map_or(String::new(), |v| v.show(c)),
                    ));
                }
                row
            })
            .collect();
        page.table(section.title, &headers, &rows);
    }
    page.end_columns();
}

/// Charts of the scenario's own figures against its inputs: the timeout rate, retries and
/// the key TTL, along the curves the run computed for the page (none without them).
fn scenario_charts(page: &mut Page, e: &Estimate, curves: Option<&Curves>, c: &str) {
    let Some(curves) = curves else { return };
    page.chart(&svg::refunds_by_timeout_rate(e, curves, c));
    page.chart(&svg::duplicates_by_retries(e, curves));
    page.chart(&svg::duplicates_by_ttl(e, curves));
}

/// The scenario as a block `--scenario` takes back.
fn scenario(page: &mut Page, intro: &str, e: &Estimate) {
    page.heading("scenario", words::SCENARIO);
    page.scenario(intro, &crate::inputs::to_scenario_json(&e.inputs));
}

/// What the logs showed: per day, and the costliest endpoints.
fn evidence_sections(page: &mut Page, o: &Observed, c: &str) {
    if !o.per_day.is_empty() {
        page.heading("per-day", say::PER_DAY_TITLE);
        let rows: Vec<Vec<Cell>> =
            crate::report::model::per_day_rows(o, DAYS_SHOWN, |gap| vec![gap])
                .into_iter()
                .map(|row| {
                    let mut cells = row.into_iter();
                    let first = Cell::Text(cells.next().unwrap_or_default());
                    std::iter::once(first)
                        .chain(cells.map(Cell::Figure))
                        .collect()
                })
                .collect();
        page.table("", &say::PER_DAY, &rows);
    }
    if !o.per_endpoint.is_empty() {
        page.heading("endpoints", say::PER_ENDPOINT_TITLE);
        let rows: Vec<Vec<Cell>> = o
            .per_endpoint
            .iter()
            .map(|p| {
                vec![
                    Cell::Code(format!(
                        "{} {}{}",
                        p.method,
                        p.route,
                        if p.enough_evidence { "" } else { " *" }
                    )),
                    Cell::Figure(count(p.mutating)),
                    Cell::Figure(crate::report::model::share(p.timed_out, p.mutating)),
                    Cell::Figure(p.succeeded_share.map_or("-".into(), |s| Rate(s).rounded())),
                    Cell::Figure(human::count(p.duplicates_per_month)),
                    Cell::Figure(human::money(p.refund_per_month, c)),
                ]
            })
            .collect();
        let mut rows = rows;
        if let Some(other) = &o.per_endpoint_other {
            rows.push(vec![
                Cell::Text(say::other_endpoints(other.endpoints)),
                Cell::Figure(count(other.mutating)),
                Cell::Figure(crate::report::model::share(other.timed_out, other.mutating)),
                Cell::Figure("-".into()),
                Cell::Figure(human::count(other.duplicates_per_month)),
                Cell::Figure(human::money(other.refund_per_month, c)),
            ]);
        }
        page.table("", &say::PER_ENDPOINT, &rows);
        if o.per_endpoint.iter().any(|p| !p.enough_evidence) {
            page.note(&format!("* {}", say::few_attempts()));
        }
    }
}

/// How attempts became intents, the duplicates the log itself shows, and where keys are
/// missing.
fn intents_section(page: &mut Page, o: &Observed, note: Option<&str>, c: &str) {
    let Some(title) = say::intents_title(o.intent_grouping) else {
        return;
    };
    page.heading("intents", &title);
    let rows: Vec<Vec<Cell>> = o
        .attempts_per_intent
        .iter()
        .map(|r| {
            vec![
                Cell::Figure(r.attempts.to_string()),
                Cell::Figure(count(r.intents)),
            ]
        })
        .collect();
    page.table("", &words::ATTEMPTS_COLUMNS, &rows);
    let plain = |text: String| text;
    if let Some(p) = &o.processed_twice {
        page.paragraph(&say::processed_twice(p, &plain));
    }
    if let Some(d) = &o.observed_duplicates {
        let mut text = say::duplicates_seen(d, &plain);
        for more in [note.map(say::duplicates_note), say::conflicts(d)]
            .into_iter()
            .flatten()
        {
            text.push(' ');
            text.push_str(&more);
        }
        page.paragraph(&text);
    }
    if let Some(sh) = o.shared_addresses.filter(|sh| sh.fingerprints > 0) {
        page.paragraph(&say::shared_addresses(&sh));
    }
    if let Some(k) = &o.key_coverage {
        page.paragraph(&say::key_coverage(k));
        if !k.per_endpoint.is_empty() {
            page.subheading(say::KEYS_FIRST_TITLE);
            let rows: Vec<Vec<Cell>> = k
                .per_endpoint
                .iter()
                .map(|p| {
                    vec![
                        Cell::Code(format!("{} {}", p.method, p.route)),
                        Cell::Figure(Rate(p.share).rounded()),
                        Cell::Figure(human::count(p.duplicates_per_month)),
                        Cell::Figure(human::money(p.refund_per_month, c)),
                    ]
                })
                .collect();
            page.table("", &say::KEYS_FIRST, &rows);
        }
    }
}

/// Days listed in full; longer logs list the first and last half of this (as markdown).
const DAYS_SHOWN: usize = 31;

/// Every input of the estimate with its value, its kind and where it came from; a swept
/// input shows its range.
fn inputs(
    page: &mut Page,
    e: &Estimate,
    sources: &Sources,
    style: &Style,
    swept: Option<(Input, &str)>,
) {
    let preset = style.preset.as_ref().map(|t| t.name);
    page.heading("inputs", words::INPUTS);
    // An input the scenario does not use (the backoff under a schedule) is left out.
    let used = |input: &Input| crate::findings::kinds::replaced_by(*input, &e.inputs).is_none();
    let mut rows: Vec<Vec<Cell>> = Input::ALL
        .into_iter()
        .filter(used)
        .map(|input| {
            let label = Cell::Text(input.label().to_string());
            match swept {
                Some((swept, range)) if swept == input => vec![
                    label,
                    Cell::Figure(range.to_string()),
                    Cell::Kind(Kind::Given, None),
                    Cell::Text(words::SWEPT.to_string()),
                ],
                _ => {
                    let k = crate::findings::kinds::of_sources(input, sources, &e.inputs);
                    vec![
                        label,
                        Cell::Figure(crate::report::words::input_value(
                            input,
                            input.get(&e.inputs),
                            &style.currency,
                        )),
                        Cell::Kind(k.kind, None),
                        Cell::Text(
                            crate::report::words::kind_detail(input, &k, preset)
                                .unwrap_or_default(),
                        ),
                    ]
                }
            }
        })
        .collect();
    // A schedule of retry delays, with its kind, after the attempt timeout.
    let schedule = e
        .inputs
        .schedule_seconds
        .zip(crate::findings::kinds::of_schedule(
            sources,
            e.inputs.schedule_seconds.is_some(),
        ));
    if let Some((delays, k)) = schedule {
        let at = Input::ALL
            .iter()
            .filter(|i| used(i))
            .position(|&i| i == Input::AttemptTimeout)
            .map_or(rows.len(), |i| i + 1);
        let row = vec![
            Cell::Text(crate::report::words::RETRY_DELAYS.to_string()),
            Cell::Figure(crate::report::words::schedule_value(&delays, style)),
            Cell::Kind(k.kind, None),
            Cell::Text(crate::report::words::schedule_kind_detail(&k, preset)),
        ];
        rows.insert(at, row);
    }
    page.table("", &words::INPUT_COLUMNS, &rows);
}

/// `--format html`: one self-contained page.
pub struct Html;

impl crate::report::Renderer for Html {
    fn render(&self, r: &crate::report::Report) -> Result<Vec<u8>, String> {
        use crate::report::Run;
        Ok(match &r.run {
            Run::Estimate {
                estimate: e,
                curves,
                sources,
            } => estimate(e, *curves, sources, r.style),
            Run::Sweep {
                input,
                estimates,
                sources,
            } => sweep(*input, estimates, sources, r.style),
            Run::Logs { report, curves, .. } => logs(report, *curves, r.style),
            Run::Probe {
                probe: p,
                estimate: e,
                sources,
            } => probe(p, e, sources, r.style),
        })
    }
}

/// The verdict's sentence, without the table's `Verdict:` label.
fn verdict(text: &str) -> String {
    sentence(text.strip_prefix("Verdict: ").unwrap_or(text))
}

/// `text` as a sentence of its own: its first letter a capital.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
