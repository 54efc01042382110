//! `--format table`: the report for people, aligned, rounded, with a one-line verdict.

use std::fmt::Write;

use anstyle::{AnsiColor, Style as Ansi};

use crate::inputs::Input;
use crate::model::{Estimate, Store};
use crate::units::{Duration, Rate, Seconds};

use super::model::EstimateReport;
use super::{PresetTrace, Style, human};

const LABEL: usize = 30;
const VALUE: usize = 16;

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
            let _ = write!(line, "{value:>VALUE$}");
        }
        self.out.push_str(line.trim_end());
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }
}

/// The scenario's inputs, one per line, in the order of `docs/MODEL.md`.
pub fn input_lines(e: &Estimate, style: &Style) -> Vec<(&'static str, String)> {
    let mut lines = Vec::with_capacity(Input::ALL.len());
    for input in Input::ALL {
        // A published schedule (`--schedule`) replaces the backoff inputs.
        if let Some(delays) = e.inputs.schedule_seconds {
            match input {
                Input::Backoff => {
                    let mut text = schedule_text(&delays);
                    if let Some(t) = style.preset.as_ref().filter(|t| t.schedule) {
                        text = format!("{text} ({})", t.name);
                    }
                    lines.push(("retry delays", text));
                    continue;
                }
                Input::BackoffFactor | Input::BackoffMax | Input::Jitter
                    if e.inputs.jitter == crate::model::Jitter::None =>
                {
                    continue;
                }
                Input::BackoffFactor | Input::BackoffMax => continue,
                _ => {}
            }
        }
        let value = input_value(input, input.get(&e.inputs), &style.currency);
        lines.push((
            input.label(),
            PresetTrace::mark(style.preset.as_ref(), input, value),
        ));
    }
    lines
}

/// A schedule of delays for reading: `5s, 5m, 30m, 2h`.
pub fn schedule_text(delays: &crate::model::Delays) -> String {
    let parts: Vec<String> = delays
        .as_slice()
        .iter()
        .map(|&d| Seconds(d).rounded())
        .collect();
    parts.join(", ")
}

/// An input's value for reading: `20,000`, `0.2%`, `$40`, `1d`, `1kB`.
pub fn input_value(input: Input, value: f64, currency: &str) -> String {
    match input {
        // Measured from logs it is intents over a fractional number of days (300.7353...):
        // four significant figures, as the rates, but never rounding away whole requests.
        Input::RequestsPerDay => human::number(four_figures(value)),
        Input::DaysPerMonth => human::number(value),
        Input::OrderValue => format!("{currency}{}", input.display(value)),
        // Rates measured from logs have many digits; four significant figures read better.
        Input::TimeoutRate | Input::SucceededShare => Rate(value).rounded(),
        Input::KeyBytes | Input::BodyBytes => human::size(value),
        _ => input.display(value),
    }
}

/// `value` to four significant figures below 1,000, to a whole number above.
fn four_figures(value: f64) -> f64 {
    if value.abs() >= 1000.0 {
        value.round()
    } else {
        crate::units::round_significant(value, 4)
    }
}

/// The one-line verdict: what the fix costs against what the missing key costs, or, first,
/// a key TTL shorter than the client's retry horizon.
pub fn verdict(e: &Estimate, style: &Style) -> String {
    let store = human::size(e.store_bytes());
    let keys = human::count(e.key_store.live_keys);
    let c = &style.currency;
    if e.ttl_shorter_than_horizon() {
        let ttl = Duration(e.inputs.ttl_seconds).to_string();
        let horizon = Seconds(e.retry_horizon_seconds).rounded();
        let left = e.duplicates.with_key_store.per_month;
        let problem = format!(
            "Verdict: the key TTL ({ttl}) is shorter than the client's retry horizon ({horizon}), so keys can expire while the client still retries"
        );
        let consequence = if left > 0.0 {
            format!(
                ": a {store} key store still lets {} of {} duplicate charges a month through ({} of refunds).",
                human::count(left),
                human::count(e.duplicates.per_month),
                human::money(e.keyed_refund_per_month(), c),
            )
        } else {
            "; on this schedule no retry is sent after its key expired, but one the server takes up late can be.".to_string()
        };
        return format!("{problem}{consequence} Keep keys at least {horizon}.");
    }
    if e.duplicates.per_month > 0.0 {
        format!(
            "Verdict: a {store} key store ({keys} live keys) stops {} a month of refunds for {} duplicate charges.",
            human::money(e.refund_cost.per_month, c),
            human::count(e.duplicates.per_month),
        )
    } else if e.inputs.retries == 0 && e.unanswered.zero_retries_per_month > 0.0 {
        format!(
            "Verdict: no duplicates without retries, but {} customers a month get no answer ({} of them charged); \
             retrying safely needs a {store} key store.",
            human::count(e.unanswered.zero_retries_per_month),
            human::count(e.unanswered.charged_zero_retries_per_month),
        )
    } else {
        format!(
            "Verdict: no duplicates in this scenario; a {store} key store ({keys} live keys) would keep it so."
        )
    }
}

/// An attempts multiplier for reading: `4x`, `1.00x`.
pub fn times(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}x", human::group_thousands(&format!("{value:.0}")))
    } else {
        format!("{}x", human::count(value))
    }
}

/// `1 layer`, `5 layers`.
pub fn layers(n: u32) -> String {
    if n == 1 {
        "1 layer".to_string()
    } else {
        format!("{n} layers")
    }
}

/// The name of a store's size figure: `size in Redis`.
pub fn store_name(store: Store) -> &'static str {
    match store {
        Store::Bytes => "size, flat per key",
        Store::Redis => "size in Redis",
        Store::Postgres => "size in PostgreSQL",
    }
}

/// The label of a store's size row; the chosen store (the headline's) is marked.
pub fn store_label(store: Store, chosen: Store) -> String {
    let name = store_name(store);
    if store == chosen {
        format!("{name} (--store)")
    } else {
        name.to_string()
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
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;

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
