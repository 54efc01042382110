//! `--format markdown`: a report to paste into a design document or a pull request.
//!
//! In order: the verdict, the inputs (with the logs' evidence and intervals when there are
//! some), the outputs as tables, for logs the per-day and per-endpoint tables, and the charts
//! `--plot DIR` wrote, linked by the path given to `--plot`. Figures are rounded as in the
//! table report; every table is a GitHub/CommonMark pipe table.

use std::fmt::Write;

use super::words::{count, plural};
use crate::findings::Observed;
use crate::inputs::Input;
use crate::model::{Estimate, Store};
use crate::probe::Probe;
use crate::units::Rate;

use super::headline::Headline;
use super::model::{EstimateReport, FigureId, LogsReport, per_day_rows, share};
use super::words::probe as words;
use super::words::sections as say;
use super::{Style, evidence, human};

/// Days listed in full; longer logs list the first and last half of this.
const DAYS_SHOWN: usize = 31;

/// A chart written by `--plot DIR`, as the report links it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartLink {
    /// The chart's title, used as the image's alternative text.
    pub title: String,
    /// Where the image is, relative to where the report is read (`charts/refunds.svg`).
    pub href: String,
}

/// The report of one estimate.
pub fn estimate(e: &Estimate, style: &Style, charts: &[ChartLink]) -> Vec<u8> {
    let report = EstimateReport::new(e, style);
    let mut out = String::from("# What missing idempotency costs\n\n");
    let text = report
        .verdict
        .strip_prefix("Verdict: ")
        .unwrap_or(&report.verdict);
    let _ = writeln!(out, "**Verdict:** {}\n", escape(text));
    answer(&mut out, &Headline::of_estimate(e, style));
    out.push_str("## Inputs\n\n");
    inputs_table(&mut out, e, &report, style, None);
    outputs(&mut out, &report, style);
    chart_section(&mut out, charts);
    out.into_bytes()
}

/// The answer first, under the verdict: the money with its range, the customers left
/// unanswered, the fix and a log's costliest endpoints.
fn answer(out: &mut String, h: &Headline) {
    for f in [&h.duplicates, &h.refunds, &h.unanswered, &h.fix] {
        let range = f
            .range
            .as_ref()
            .map_or(String::new(), |r| format!(" ({r})"));
        let _ = writeln!(
            out,
            "- **{}:** {}{}",
            f.label,
            escape(&f.value),
            escape(&range)
        );
    }
    if !h.endpoints.is_empty() {
        let _ = writeln!(
            out,
            "- **costliest endpoints:** {}",
            escape(&h.endpoints.join("; "))
        );
    }
    // What the money rests on is in the verdict above.
    out.push('\n');
}

/// The report of `dupcost logs`: the measured inputs with their evidence, the estimate, and
/// the per-day and per-endpoint tables.
pub fn logs(r: &LogsReport, style: &Style, charts: &[ChartLink]) -> Vec<u8> {
    let (derived, o) = (r.findings, r.observed);
    let mut out = String::from("# What missing idempotency costs, measured from access logs\n\n");
    // The report's verdict, with what its money rests on where that is assumed.
    let text = &r.estimate_report.verdict;
    let text = text.strip_prefix("Verdict: ").unwrap_or(text);
    let _ = writeln!(out, "**Verdict:** {}\n", escape(text));
    answer(&mut out, &Headline::of_logs(r, style));
    let _ = writeln!(out, "{}\n", say::read_summary(o));

    out.push_str("## Inputs\n\n");
    let with_intervals = r.inputs.iter().any(|row| row.interval.is_some());
    let mut rows: Vec<Vec<String>> = Vec::new();
    for row in r.shown_inputs() {
        let input = row.input;
        let evidence = match &row.evidence {
            Some(text) => escape(text),
            None => format!("not in logs: the scenario's (`{input}`)"),
        };
        let mut cells = vec![
            input.label().to_string(),
            row.value.clone(),
            escape(&row.kind_text),
            evidence,
        ];
        if with_intervals {
            cells.push(
                row.interval
                    .map(|(lo, hi)| evidence::interval_text(input, lo, hi, &style.currency))
                    .unwrap_or_default(),
            );
        }
        rows.push(cells);
        // A schedule's retry delays after the attempt timeout, in place of the backoff.
        if let (Input::AttemptTimeout, Some(delays)) = (input, &r.retry_delays) {
            let mut cells = vec![
                crate::report::words::RETRY_DELAYS.to_string(),
                escape(&delays.value),
                escape(&delays.kind_text),
                format!(
                    "not in logs: the scenario's (`{}`)",
                    crate::inputs::SCHEDULE_FLAG
                ),
            ];
            if with_intervals {
                cells.push(String::new());
            }
            rows.push(cells);
        }
    }
    let (headers, align): (&[&str], &str) = if with_intervals {
        (
            &["input", "value", "kind", "evidence", "95% interval"],
            "-:--:",
        )
    } else {
        (&["input", "value", "kind", "evidence"], "-:--")
    };
    pipe_table(&mut out, headers, align, &rows);
    if let Some((_, text)) = &r.output_bounds {
        let _ = writeln!(out, "Assumed share: {}.\n", escape(text));
    }
    if with_intervals {
        let _ = writeln!(
            out,
            "{}\n",
            say::over_intervals(&derived.intervals, &style.currency)
        );
    }
    outputs(&mut out, &r.estimate_report, style);
    per_day(&mut out, o);
    per_endpoint(&mut out, o, style);
    intents(&mut out, o, r.duplicates_note.as_deref(), style);
    chart_section(&mut out, charts);
    out.into_bytes()
}

/// The report of a sweep: a verdict over the range, the fixed inputs, and one row per value.
pub fn sweep(input: Input, estimates: &[Estimate], style: &Style, charts: &[ChartLink]) -> Vec<u8> {
    let c = style.currency.as_str();
    let mut out = format!("# What missing idempotency costs, by {}\n\n", input.label());
    let Some(first) = estimates.first() else {
        return out.into_bytes();
    };
    let shown = |e: &Estimate| crate::report::words::input_value(input, input.get(&e.inputs), c);
    let _ = writeln!(
        out,
        "**Verdict:** {}\n",
        say::sweep_verdict(input, estimates, c)
    );
    out.push_str("## Inputs\n\n");
    let range = say::sweep_range(input, estimates, c);
    let report = EstimateReport::new(first, style);
    inputs_table(&mut out, first, &report, style, Some((input, range)));
    out.push_str("## Outputs\n\n");
    let rows: Vec<Vec<String>> = estimates
        .iter()
        .map(|e| {
            vec![
                shown(e),
                human::count(e.duplicates.per_day),
                human::count(e.duplicates.per_month),
                human::money(e.refund_cost.per_month, c),
                human::count(e.unanswered.per_day),
                human::count(e.extra_attempts_per_day),
                human::size(e.key_store.bytes),
            ]
        })
        .collect();
    let mut headers = vec![input.label()];
    headers.extend(say::SWEEP);
    pipe_table(&mut out, &headers, "::::::::", &rows);
    chart_section(&mut out, charts);
    out.into_bytes()
}

/// The Inputs table: each input's value (a swept one's range), its kind where the style knows
/// each input's source, and its flag; the retry delays after the attempt timeout where a
/// schedule replaces the backoff.
fn inputs_table(
    out: &mut String,
    e: &Estimate,
    report: &EstimateReport,
    style: &Style,
    swept: Option<(Input, String)>,
) {
    let kind = |label: &str| {
        report
            .kinds
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, k)| escape(k))
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for input in Input::ALL {
        // An input the scenario does not use (the backoff under a schedule) is left out.
        if crate::findings::kinds::replaced_by(input, &e.inputs).is_some() {
            continue;
        }
        let mut row = input_row(e, input, style);
        if let Some((_, range)) = swept.as_ref().filter(|(i, _)| *i == input) {
            row[1] = range.clone();
        }
        // Where the style knows each input's source, its kind follows its value.
        if let Some(k) = kind(input.label()) {
            row.insert(2, k);
        }
        rows.push(row);
        if let (Input::AttemptTimeout, Some(delays)) = (input, e.inputs.schedule_seconds) {
            let value = crate::report::words::schedule_value(&delays, style);
            let mut row = vec![
                crate::report::words::RETRY_DELAYS.to_string(),
                escape(&value),
            ];
            row.extend(kind(crate::report::words::RETRY_DELAYS));
            row.push(format!("`{}`", crate::inputs::SCHEDULE_FLAG));
            rows.push(row);
        }
    }
    if report.kinds.is_empty() {
        pipe_table(out, &["input", "value", "flag"], "-:-", &rows);
    } else {
        pipe_table(out, &["input", "value", "kind", "flag"], "-:--", &rows);
    }
}

/// `| order value | $40 | --order-value |`.
fn input_row(e: &Estimate, input: Input, style: &Style) -> Vec<String> {
    let value = crate::report::words::input_value(input, input.get(&e.inputs), &style.currency);
    let value = super::PresetTrace::mark(style.preset.as_ref(), input, value);
    vec![input.label().to_string(), value, format!("`{input}`")]
}

/// The estimate's figures in three tables, each figure under its standalone label.
fn outputs(out: &mut String, report: &EstimateReport, style: &Style) {
    use FigureId as F;
    let c = style.currency.as_str();
    let row = |id: FigureId| {
        let f = report.figure(id);
        let mut cells = vec![f.standalone.clone(), f.value.show(c)];
        if matches!(
            id,
            F::DuplicatesPerDay | F::DuplicatesPerMonth | F::RefundsPerMonth | F::RefundsPerYear
        ) {
            cells.push(f.rule_of_thumb.map_or(String::new(), |v| v.show(c)));
        }
        cells
    };
    let rows = |ids: &[FigureId]| ids.iter().map(|&id| row(id)).collect::<Vec<_>>();
    out.push_str("## Duplicate charges and refunds\n\n");
    pipe_table(
        out,
        &["", "exact", "rule of thumb"],
        "-::",
        &rows(&[
            F::DuplicatesPerDay,
            F::DuplicatesPerMonth,
            F::RefundsPerMonth,
            F::RefundsPerYear,
        ]),
    );
    out.push_str("## Customers left without an answer\n\n");
    pipe_table(
        out,
        &["", "customers"],
        "-:",
        &rows(&[
            F::UnansweredNeverRetryingPerDay,
            F::UnansweredNeverRetryingPerMonth,
            F::ChargedNeverRetryingPerMonth,
            F::UnansweredPerDay,
            F::ChargedPerDay,
        ]),
    );
    out.push_str("## Load and the key store (the fix)\n\n");
    let mut load = vec![
        F::ExtraAttemptsPerDay,
        F::AttemptsWorstCase,
        F::AttemptsExpected,
    ];
    // With the logs, the layers figure with the proxy's layer measured, where it is.
    let measured = [F::ProxyLayerExpected, F::ProxyLayerWorstCase];
    load.extend(measured.into_iter().filter(|&id| {
        report
            .sections
            .iter()
            .flat_map(|s| &s.figures)
            .any(|f| f.id == id)
    }));
    load.extend([F::RetryHorizon, F::LeftPerMonth, F::LiveKeys]);
    load.extend(Store::ALL.map(F::StoreSize));
    pipe_table(out, &["", "value"], "-:", &rows(&load));
}

fn per_day(out: &mut String, o: &Observed) {
    if o.per_day.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {}\n", say::PER_DAY_TITLE);
    // The gap fills a whole row: a pipe table's rows have every column.
    let rows = per_day_rows(o, DAYS_SHOWN, |gap| {
        let mut row = vec![String::new(); 6];
        row[0] = gap;
        row
    });
    pipe_table(out, &say::PER_DAY, "-:::::", &rows);
}

fn per_endpoint(out: &mut String, o: &Observed, style: &Style) {
    if o.per_endpoint.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {}\n", say::PER_ENDPOINT_TITLE);
    let rows: Vec<Vec<String>> = o
        .per_endpoint
        .iter()
        .map(|p| {
            vec![
                format!(
                    "`{} {}`{}",
                    p.method,
                    p.route.replace('`', "'").replace('|', "\\|"),
                    if p.enough_evidence { "" } else { " \\*" }
                ),
                count(p.mutating),
                share(p.timed_out, p.mutating),
                // Over the known outcomes, as the table report and the endpoint's estimate.
                p.succeeded_share.map_or("-".into(), |s| Rate(s).rounded()),
                human::count(p.duplicates_per_month),
                human::money(p.refund_per_month, &style.currency),
            ]
        })
        .collect();
    pipe_table(out, &say::PER_ENDPOINT, "-:::::", &rows);
    if o.per_endpoint.iter().any(|p| !p.enough_evidence) {
        let _ = writeln!(out, "\\* {}\n", say::few_attempts());
    }
}

/// How attempts became intents, the duplicates the log itself shows, and where keys are
/// missing: the table report's Intents section, for a review.
fn intents(out: &mut String, o: &Observed, note: Option<&str>, style: &Style) {
    let Some(title) = say::intents_title(o.intent_grouping) else {
        return;
    };
    let _ = writeln!(out, "## {title}\n");
    let rows: Vec<Vec<String>> = o
        .attempts_per_intent
        .iter()
        .map(|r| vec![r.attempts.to_string(), count(r.intents)])
        .collect();
    pipe_table(out, &["attempts", "intents"], "::", &rows);
    let strong = |text: String| format!("**{text}**");
    if let Some(p) = &o.processed_twice {
        let _ = writeln!(out, "{}\n", say::processed_twice(p, &strong));
    }
    if let Some(d) = &o.observed_duplicates {
        out.push_str(&say::duplicates_seen(d, &strong));
        if let Some(note) = note {
            let _ = write!(out, " {}", escape(&say::duplicates_note(note)));
        }
        if let Some(conflicts) = say::conflicts(d) {
            let _ = write!(out, " {conflicts}");
        }
        out.push_str("\n\n");
    }
    if let Some(sh) = o.shared_addresses.filter(|sh| sh.fingerprints > 0) {
        let _ = writeln!(
            out,
            "{} sent more than {} attempts a minute, likely shared addresses (NAT): their \
             attempts from then on were not grouped (`--shared-address-rate`).\n",
            plural(sh.fingerprints, "fingerprint"),
            sh.rate
        );
    }
    if let Some(k) = &o.key_coverage {
        let _ = writeln!(out, "{}\n", say::key_coverage(k));
        if !k.per_endpoint.is_empty() {
            let _ = writeln!(out, "### {}\n", say::KEYS_FIRST_TITLE);
            let rows: Vec<Vec<String>> = k
                .per_endpoint
                .iter()
                .map(|p| {
                    vec![
                        format!(
                            "`{} {}`",
                            p.method,
                            p.route.replace('`', "'").replace('|', "\\|")
                        ),
                        Rate(p.share).rounded(),
                        human::count(p.duplicates_per_month),
                        human::money(p.refund_per_month, &style.currency),
                    ]
                })
                .collect();
            pipe_table(out, &say::KEYS_FIRST, "-:::", &rows);
        }
    }
}

fn chart_section(out: &mut String, charts: &[ChartLink]) {
    if charts.is_empty() {
        return;
    }
    out.push_str("## Charts\n\n");
    for chart in charts {
        let _ = writeln!(
            out,
            "![{}](<{}>)\n",
            escape(&chart.title),
            chart.href.replace(['<', '>'], "")
        );
    }
}

/// A pipe table; `align` has one character per column: `-` left, `:` right.
fn pipe_table(out: &mut String, headers: &[&str], align: &str, rows: &[Vec<String>]) {
    let line = |cells: &mut dyn Iterator<Item = String>| {
        let mut text = String::from("|");
        for cell in cells {
            let _ = write!(text, " {cell} |");
        }
        text.push('\n');
        text
    };
    out.push_str(&line(&mut headers.iter().map(|h| escape(h))));
    out.push_str(&line(&mut align.chars().take(headers.len()).map(|a| {
        if a == ':' {
            "---:".to_string()
        } else {
            "---".to_string()
        }
    })));
    for row in rows {
        out.push_str(&line(&mut row.iter().cloned()));
    }
    out.push('\n');
}

/// Text made safe for a table cell and for inline markdown: pipes, emphasis and brackets are
/// escaped, line breaks become spaces.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '*' | '_' | '[' | ']' | '<' | '>' | '\\' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `--format markdown`: for a pull request or a design document.
pub fn probe(probe: &Probe, estimate: &Estimate, style: &Style) -> Vec<u8> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Does idempotency hold? `{} {}`\n",
        probe.method, probe.url
    );
    let _ = writeln!(out, "**Verdict:** {}\n", words::verdict(probe));
    out.push_str("| check | outcome | requests | executions seen | detail |\n");
    out.push_str("| --- | --- | ---: | ---: | --- |\n");
    for check in &probe.checks {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            check.name,
            words::outcome_word(check.outcome),
            check.requests,
            check.executions_seen,
            cell(&check.detail)
        );
    }
    let _ = writeln!(
        out,
        "\n**Duplicates seen:** {} ({} requests in all).",
        words::duplicates_seen(probe),
        probe.requests
    );
    let costs = words::costs(probe, estimate, &style.currency);
    if !costs.is_empty() {
        out.push_str("\n## What a failure costs\n\n");
        let _ = writeln!(out, "{}\n", words::scenario_line(estimate, &style.currency));
        for (name, text) in &costs {
            let _ = writeln!(out, "- **`{name}`**: {text}");
        }
    }
    out.into_bytes()
}

/// A table cell: no line breaks, pipes escaped.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

/// `--format markdown`: CommonMark with pipe tables, linking the `--plot` charts.
pub struct Markdown;

impl super::Renderer for Markdown {
    fn render(&self, r: &super::Report) -> Result<Vec<u8>, String> {
        use super::Run;
        Ok(match &r.run {
            Run::Estimate { estimate: e, .. } => estimate(e, r.style, r.charts),
            Run::Sweep {
                input, estimates, ..
            } => sweep(*input, estimates, r.style, r.charts),
            Run::Logs { report, .. } => logs(report, r.style, r.charts),
            Run::Probe {
                probe: p,
                estimate: e,
                ..
            } => probe(p, e, r.style),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;

    #[test]
    fn cells_escape_pipes() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }

    #[test]
    fn escapes_what_would_break_a_table() {
        assert_eq!(escape("a|b *c* [d]"), "a\\|b \\*c\\* \\[d\\]");
    }

    #[test]
    fn verdict_comes_first() {
        let text = String::from_utf8(estimate(
            &Estimate::new(Scenario::default()),
            &Style::default(),
            &[],
        ))
        .unwrap();
        let verdict = text.find("**Verdict:**").unwrap();
        assert!(verdict < text.find("## Inputs").unwrap());
        assert!(text.contains("$24,048"), "{text}");
    }
}
