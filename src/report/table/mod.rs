//! `--format table`: the report for people, aligned, rounded, with a one-line verdict.

use std::fmt::Write;

use anstyle::{AnsiColor, Style as Ansi};

use crate::inputs::Input;
use crate::model::Estimate;
use crate::units::Seconds;

use crate::report::headline::Headline;
use crate::report::model::EstimateReport;
use crate::report::words::input_value;
use crate::report::words::sections as say;
use crate::report::{Renderer, Report, Run};
use crate::report::{Style, human};

mod answer;
pub mod logs;
pub mod probe;

const LABEL: usize = 30;
const VALUE: usize = 16;
/// The width a sweep's marks are wrapped to (its table's rows are about as wide).
const MARKS_WIDTH: usize = 96;

/// Writes headings and highlights, in colour only when asked.
struct Painter<'a> {
    style: &'a Style,
    out: String,
}

impl Painter<'_> {
    fn paint(&self, ansi: Ansi, text: &str) -> String {
        if self.style.color {
            format!("{}{text}{}", ansi.render(), ansi.render_reset())
        } else {
            text.to_string()
        }
    }

    fn heading(&mut self, text: &str, columns: &[&str]) {
        let mut line = format!("{text:<LABEL$}");
        for column in columns {
            let _ = write!(line, "{column:>VALUE$}");
        }
        let painted = self.paint(Ansi::new().bold(), line.trim_end());
        self.out.push_str(&painted);
        self.out.push('\n');
    }

    fn row(&mut self, label: &str, values: &[String]) {
        let mut line = format!("  {label:<width$}", width = LABEL - 2);
        for value in values {
            // A value wider than its column takes more room, two spaces from its neighbour.
            let width = VALUE.max(value.chars().count() + 2);
            let _ = write!(line, "{value:>width$}");
        }
        self.out.push_str(line.trim_end());
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }
}

/// The full report of one estimate.
pub fn estimate(e: &Estimate, style: &Style) -> Vec<u8> {
    render(&EstimateReport::new(e, style), style)
}

/// The table of an estimate's report model.
pub fn render(report: &EstimateReport, style: &Style) -> Vec<u8> {
    let mut p = Painter {
        style,
        out: String::new(),
    };
    let c = style.currency.as_str();
    p.heading("Scenario", &[]);
    for (label, value) in &report.scenario {
        p.row(label, std::slice::from_ref(value));
        // With the logs, the input's kind follows its value on its line.
        if let Some((_, kind)) = report.kinds.iter().find(|(l, _)| l == label) {
            p.out.pop();
            let _ = writeln!(p.out, "  {kind}");
        }
    }
    p.blank();
    for section in &report.sections {
        p.heading(section.title, section.columns);
        for f in &section.figures {
            let mut values = vec![f.value.show(c)];
            values.extend(f.rule_of_thumb.map(|v| v.show(c)));
            p.row(&f.label, &values);
        }
        if section.closes_group {
            p.blank();
        }
    }
    let verdict = p.paint(
        Ansi::new().bold().fg_color(Some(AnsiColor::Yellow.into())),
        &report.verdict,
    );
    p.out.push_str(&verdict);
    p.out.push('\n');
    p.out.into_bytes()
}

/// A sweep: one compact row per value of the swept input.
pub fn sweep(input: Input, estimates: &[Estimate], style: &Style) -> Vec<u8> {
    let c = style.currency.as_str();
    let headers = [
        input.label(),
        "dup/day",
        "dup/month",
        "refunds/month",
        "no answer/day",
        "extra att/day",
        "horizon",
        "left/month",
        "key store",
    ];
    let rows: Vec<[String; 9]> = estimates
        .iter()
        .map(|e| {
            [
                input_value(input, input.get(&e.inputs), c),
                human::count(e.duplicates.per_day),
                human::count(e.duplicates.per_month),
                human::money(e.refund_cost.per_month, c),
                human::count(e.unanswered.per_day),
                human::count(e.extra_attempts_per_day),
                Seconds(e.retry_horizon_seconds).rounded(),
                human::count(e.duplicates.with_key_store.per_month),
                human::size(e.store_bytes()),
            ]
        })
        .collect();
    let mut widths = headers.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let p = Painter {
        style,
        out: String::new(),
    };
    let mut out = String::new();
    let line = |cells: &[String]| {
        let mut line = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let gap = if i == 0 { "" } else { "  " };
            let pad = w - cell.chars().count();
            let _ = write!(line, "{gap}{}{cell}", " ".repeat(pad));
        }
        line
    };
    out.push_str(&p.paint(Ansi::new().bold(), &line(&headers.map(String::from))));
    out.push('\n');
    for row in &rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    // The compact form has no input lines: each input's kind under the rows, as the full
    // form's Scenario lines say it.
    if let Some(first) = estimates.first() {
        let span = say::sweep_span(input, estimates, c);
        let marks = crate::report::model::marks(first, style, Some((input, &span)));
        let lines = crate::report::model::sweep_marks(&marks);
        if !lines.is_empty() {
            out.push('\n');
        }
        for line in lines
            .iter()
            .flat_map(|text| crate::report::wrap(text, MARKS_WIDTH))
        {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// `--format table`: for people, aligned and rounded.
pub struct Table;

impl Renderer for Table {
    fn render(&self, r: &Report) -> Result<Vec<u8>, String> {
        Ok(match &r.run {
            Run::Estimate { estimate: e, .. } if r.explain => estimate(e, r.style),
            Run::Estimate { estimate: e, .. } => {
                answer::render(&Headline::of_estimate(e, r.style), r.style, answer::width())
            }
            Run::Sweep {
                input, estimates, ..
            } => sweep(*input, estimates, r.style),
            Run::Logs {
                report,
                files,
                methods,
                ..
            } if r.explain => logs::table(report, files, methods, r.style),
            Run::Logs { report, .. } => answer::render(
                &Headline::of_logs(report, r.style),
                r.style,
                answer::width(),
            ),
            Run::Probe {
                probe, estimate: e, ..
            } => probe::table(probe, e, r.style),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;
    use crate::report::words::verdict;

    fn text(e: &Estimate) -> String {
        String::from_utf8(estimate(e, &Style::default())).unwrap()
    }

    /// A measured requests-a-day reads to four figures; a typed one as typed.
    #[test]
    fn requests_a_day_read_to_four_figures() {
        let shown = |v| input_value(Input::RequestsPerDay, v, "$");
        assert_eq!(shown(300.7353448348376), "300.7");
        assert_eq!(shown(59.59469), "59.59");
        assert_eq!(shown(0.004321), "0.0043");
        assert_eq!(shown(20_000.0), "20,000");
        assert_eq!(shown(1_500_000.0), "1,500,000");
        assert_eq!(shown(1_234.5), "1,235");
        assert_eq!(shown(0.0), "0");
    }

    #[test]
    fn default_scenario_reads_the_article_figures() {
        let t = text(&Estimate::new(Scenario::default()));
        for needle in [
            "$24,048", "$24,000", "20.0", "601", "600", "1,200", "20 MB", "20,000",
        ] {
            assert!(t.contains(needle), "{needle} missing from\n{t}");
        }
        assert!(!t.contains('\x1b'), "no colour unless asked");
    }

    #[test]
    fn verdicts() {
        let zero = Estimate::new(Scenario {
            retries: 0,
            ..Default::default()
        });
        assert!(
            verdict(&zero, &Style::default())
                .contains("1,200 customers a month get no answer (600 of them charged)")
        );
        let none = Estimate::new(Scenario {
            timeout_rate: 0.0,
            ..Default::default()
        });
        assert!(verdict(&none, &Style::default()).starts_with("Verdict: no duplicates"));
        let short = Estimate::new(Scenario {
            ttl_seconds: 20,
            ..Default::default()
        });
        let text = verdict(&short, &Style::default());
        assert!(
            text.starts_with(
                "Verdict: the key TTL (20s) is shorter than the client's retry horizon (47s)"
            ),
            "{text}"
        );
        assert!(text.ends_with("Keep keys at least 47s."), "{text}");
        // Between the last send (37 s) and the horizon: named, though nothing gets through.
        let late = Estimate::new(Scenario {
            ttl_seconds: 40,
            ..Default::default()
        });
        let text = verdict(&late, &Style::default());
        assert!(text.contains("one the server takes up late"), "{text}");
        // Without retries a short TTL harms nobody.
        let never = Estimate::new(Scenario {
            ttl_seconds: 5,
            retries: 0,
            ..Default::default()
        });
        assert!(!verdict(&never, &Style::default()).contains("TTL"));
    }

    #[test]
    fn colour_only_when_asked() {
        let style = Style {
            color: true,
            ..Default::default()
        };
        let t = String::from_utf8(estimate(&Estimate::new(Scenario::default()), &style)).unwrap();
        assert!(t.contains('\x1b'));
    }
}
