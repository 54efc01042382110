//! `dupcost tui --logs`: what the logs measured, beside the explorer.
//!
//! A [`LogView`] holds each measured input's evidence and the top endpoints, each with its own
//! scenario (its measured requests a day, timeout rate and succeeded share). Like the app it
//! is pure state: [`LogView::key_action`] names keys, [`LogView::update`] changes the state and
//! says when the explorer must start over on another scenario, and `render` only reads.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::findings::Findings as Derived;
use crate::inputs::Input;
use crate::model::Scenario;
use crate::report::evidence;
use crate::report::model::LogsReport;

use super::theme::{Theme, panel};

/// `--follow`: how the followed logs are being read, for the panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Live {
    /// The files followed (`access.log`).
    pub source: String,
    pub rows_read: u64,
    pub rows_per_second: f64,
    /// `--window`, as given (`1h`).
    pub window: Option<String>,
    /// The latest timestamp read.
    pub last_line: Option<String>,
    /// Why the logs give no scenario yet.
    pub waiting: Option<String>,
}

impl Live {
    /// `live: 12,345 rows, 1,000 rows/s, window 1h, last line 2026-...Z`.
    pub fn text(&self) -> String {
        let mut text = format!(
            "live: {}, {} rows/s",
            crate::report::words::plural(self.rows_read, "row"),
            crate::report::words::count(self.rows_per_second.round() as u64)
        );
        if let Some(w) = &self.window {
            text.push_str(&format!(", window {w}"));
        }
        match &self.last_line {
            Some(t) => text.push_str(&format!(", last line {t}")),
            None => text.push_str(", no timestamp yet"),
        }
        text
    }

    /// The same, in short lines for the panel: rows and rows/s, then the window and the last
    /// line's time.
    pub fn lines(&self) -> [String; 2] {
        let window = self
            .window
            .as_ref()
            .map_or(String::new(), |w| format!("window {w}, "));
        [
            format!(
                "live: {}, {} rows/s",
                crate::report::words::plural(self.rows_read, "row"),
                crate::report::words::count(self.rows_per_second.round() as u64)
            ),
            match &self.last_line {
                Some(t) => format!("{window}last {t}"),
                None => format!("{window}no timestamp yet"),
            },
        ]
    }
}

/// A fresh measurement for the explorer: the derivation when the logs give one.
#[derive(Debug, Clone)]
pub struct LiveUpdate {
    pub derived: Option<Derived>,
    pub live: Live,
}

/// An input the logs measured, with the rows behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub input: Input,
    pub text: String,
    /// The 95% interval, `(low, high)`, when the logs give one.
    pub interval: Option<(f64, f64)>,
}

/// One endpoint of the log and the inputs it measured itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// `POST /v1/orders/{id}/capture`.
    pub name: String,
    /// Its intents a day.
    pub requests_per_day: f64,
    /// Its timed-out share of mutating attempts.
    pub timeout_rate: f64,
    /// Its timed-out attempts with an upstream 2xx; `None` when the log cannot tell, and the
    /// scenario's share is used.
    pub succeeded_share: Option<f64>,
    /// Refunds a month as `dupcost logs` reported them.
    pub refund_per_month: f64,
}

impl Endpoint {
    /// The endpoint's scenario: its measured inputs, the rest from `rest`.
    pub fn scenario(&self, rest: &Scenario) -> Scenario {
        Scenario {
            requests_per_day: self.requests_per_day,
            timeout_rate: self.timeout_rate,
            succeeded_share: self.succeeded_share.unwrap_or(rest.succeeded_share),
            ..*rest
        }
    }
}

/// What the endpoint panel can be asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointAction {
    /// Move the keys to the endpoint list, or back to the inputs (`Tab`).
    ToggleFocus,
    /// The endpoint above (`Up`, `k` in the list).
    Previous,
    /// The endpoint below (`Down`, `j` in the list).
    Next,
    /// Explore the endpoint under the cursor (`Enter` in the list).
    Explore,
    /// Back to the whole log's scenario (`w`).
    Whole,
}

/// What the explorer does after an endpoint action.
#[derive(Debug, Clone, PartialEq)]
pub enum PanelChange {
    /// Nothing changed.
    None,
    /// The panel changed: redraw.
    Redraw,
    /// Start over on this scenario, pinned as the baseline.
    StartOver(Box<Scenario>),
}

/// The logs' side of the explorer.
#[derive(Debug, Clone, PartialEq)]
pub struct LogView {
    /// Where the scenario came from (`samples/access-log.csv`).
    pub source: String,
    /// The whole log's scenario: where the explorer starts and `w` returns.
    pub whole: Scenario,
    pub evidence: Vec<Evidence>,
    /// Each input's kind (measured, given, assumed) and its words, as the report says them.
    pub kinds: Vec<(Input, crate::findings::Kind, String)>,
    /// The top endpoints, most refunds first.
    pub endpoints: Vec<Endpoint>,
    /// The endpoint under the cursor.
    pub cursor: usize,
    /// The endpoint being explored; `None` for the whole log.
    pub exploring: Option<usize>,
    /// Whether the arrows and Enter move in the endpoint list.
    pub focused: bool,
    /// The proxy's own tries, where the log counts them: the layers figure's measured layer
    /// below the scenario's (`observed.amplification`, for the scenario of the moment).
    pub proxy: Option<crate::findings::ProxyRetriesObserved>,
}

impl LogView {
    /// The view of what `dupcost logs` measured; `source` names the files.
    pub fn new(derived: &Derived, source: String) -> LogView {
        // The inputs' evidence as the logs report words it.
        let estimate = crate::model::Estimate::new(derived.scenario);
        let report = LogsReport::new(&estimate, derived, &crate::report::Style::default());
        let kinds = report
            .inputs
            .iter()
            .map(|row| (row.input, row.kind.kind, row.kind_text.clone()))
            .collect();
        let evidence = report
            .inputs
            .into_iter()
            .filter_map(|row| {
                Some(Evidence {
                    input: row.input,
                    text: row.evidence?,
                    interval: row.interval,
                })
            })
            .collect();
        LogView {
            source,
            whole: derived.scenario,
            evidence,
            kinds,
            endpoints: endpoints(derived),
            cursor: 0,
            exploring: None,
            focused: false,
            proxy: derived.observed.proxy_retries,
        }
    }

    /// The action a key asks for, before the explorer's own keys; `None` leaves it to them.
    pub fn key_action(&self, key: KeyEvent) -> Option<EndpointAction> {
        let action = match key.code {
            KeyCode::Tab if !self.endpoints.is_empty() => EndpointAction::ToggleFocus,
            KeyCode::Char('w') => EndpointAction::Whole,
            KeyCode::Esc if self.focused => EndpointAction::ToggleFocus,
            KeyCode::Up | KeyCode::Char('k') if self.focused => EndpointAction::Previous,
            KeyCode::Down | KeyCode::Char('j') if self.focused => EndpointAction::Next,
            KeyCode::Enter if self.focused => EndpointAction::Explore,
            _ => return None,
        };
        Some(action)
    }

    /// Applies an action; `current` supplies the inputs an endpoint does not measure.
    pub fn update(&mut self, action: EndpointAction, current: &Scenario) -> PanelChange {
        let last = self.endpoints.len().saturating_sub(1);
        match action {
            EndpointAction::ToggleFocus => {
                self.focused = !self.focused;
                PanelChange::Redraw
            }
            EndpointAction::Previous => {
                let to = self.cursor.saturating_sub(1);
                moved(&mut self.cursor, to)
            }
            EndpointAction::Next => {
                let to = (self.cursor + 1).min(last);
                moved(&mut self.cursor, to)
            }
            EndpointAction::Explore => match self.endpoints.get(self.cursor) {
                Some(endpoint) => {
                    self.exploring = Some(self.cursor);
                    PanelChange::StartOver(Box::new(endpoint.scenario(current)))
                }
                None => PanelChange::None,
            },
            EndpointAction::Whole => match self.exploring.take() {
                // The inputs the logs do not give stay as the user left them.
                Some(_) => PanelChange::StartOver(Box::new(Scenario {
                    requests_per_day: self.whole.requests_per_day,
                    timeout_rate: self.whole.timeout_rate,
                    succeeded_share: self.whole.succeeded_share,
                    ..*current
                })),
                None => PanelChange::None,
            },
        }
    }

    /// What the explorer shows: the whole log, or one endpoint.
    pub fn exploring_name(&self) -> Option<&str> {
        self.exploring
            .and_then(|i| self.endpoints.get(i))
            .map(|e| e.name.as_str())
    }
}

fn moved(cursor: &mut usize, to: usize) -> PanelChange {
    if *cursor == to {
        PanelChange::None
    } else {
        *cursor = to;
        PanelChange::Redraw
    }
}

/// The top endpoints of the report, each with the inputs it measured, as `dupcost logs`
/// estimated them: its intents over the log's days (or its share of the scenario's requests
/// without timestamps), its timeout rate, and its succeeded share when it had timeouts and
/// the log an upstream status.
fn endpoints(derived: &Derived) -> Vec<Endpoint> {
    derived
        .observed
        .per_endpoint
        .iter()
        .map(|row| Endpoint {
            name: format!("{} {}", row.method, row.route),
            requests_per_day: row.requests_per_day,
            timeout_rate: row.timeout_rate,
            succeeded_share: row.succeeded_share,
            refund_per_month: row.refund_per_month,
        })
        .collect()
}

/// The endpoint panel: the top endpoints by refunds a month, the cursor, the one explored.
pub(super) fn render(
    view: &LogView,
    live: Option<&Live>,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
    currency: &str,
) {
    let title = match (view.exploring_name(), live) {
        (Some(_), _) => "Endpoints · exploring one",
        (None, Some(_)) => "Endpoints · whole log · live",
        (None, None) => "Endpoints · whole log",
    };
    let block = panel(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width);
    let hint = if view.focused {
        "↑↓ choose  Enter explore  Tab back"
    } else if view.exploring.is_some() {
        "Tab choose  w whole log"
    } else {
        "Tab choose an endpoint"
    };
    let mut lines: Vec<Line> = Vec::new();
    if let Some(live) = live {
        lines.extend(live.lines().map(|l| Line::styled(l, theme.dim())));
        if let Some(why) = &live.waiting {
            lines.push(Line::styled(format!("waiting: {why}"), theme.dim()));
        }
    }
    let rows = usize::from(inner.height).saturating_sub(1 + lines.len());
    // Keep the cursor in sight.
    let first = view.cursor.saturating_sub(rows.saturating_sub(1));
    lines.extend(
        view.endpoints
            .iter()
            .enumerate()
            .skip(first)
            .take(rows)
            .map(|(i, endpoint)| {
                let money = super::cells::money(endpoint.refund_per_month, currency);
                let mark = match (view.exploring == Some(i), view.focused && view.cursor == i) {
                    (true, _) => "● ",
                    (false, true) => "▸ ",
                    _ => "  ",
                };
                let room = width.saturating_sub(money.chars().count() + mark.chars().count() + 1);
                let name: String = if endpoint.name.chars().count() > room {
                    let cut: String = endpoint.name.chars().take(room.saturating_sub(1)).collect();
                    format!("{cut}…")
                } else {
                    endpoint.name.clone()
                };
                let line = Line::raw(format!("{mark}{name:<room$} {money}"));
                if view.focused && view.cursor == i {
                    line.style(theme.selected())
                } else if view.exploring == Some(i) {
                    line.style(theme.highlight())
                } else {
                    line
                }
            }),
    );
    if view.endpoints.is_empty() {
        lines.push(Line::styled(
            "no mutating endpoints in the log",
            theme.dim(),
        ));
    }
    lines.push(Line::styled(hint, theme.dim()));
    Paragraph::new(lines).render(inner, buf);
}

/// The help overlay's lines about the logs: the keys, then each measured input's evidence.
pub(super) fn help_lines(view: &LogView, theme: Theme, currency: &str) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::raw(""),
        Line::styled(format!("Measured from {}", view.source), theme.heading()),
    ];
    for e in &view.evidence {
        let mut spans = vec![Span::raw(e.text.clone())];
        if let Some((low, high)) = e.interval {
            spans.push(Span::styled(
                format!(
                    " (95%: {})",
                    evidence::interval_text(e.input, low, high, currency)
                ),
                theme.dim(),
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.extend(key_lines(theme));
    lines
}

/// The help overlay's lines for the endpoint panel's keys.
pub(super) fn key_lines(theme: Theme) -> Vec<Line<'static>> {
    [
        ("Tab", "choose an endpoint; Enter explores its own scenario"),
        ("w", "back to the whole log"),
    ]
    .into_iter()
    .map(|(key, what)| {
        Line::from(vec![
            Span::styled(format!("{key:<5}"), theme.highlight()),
            Span::raw(what),
        ])
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Overrides;
    use crate::logs::{self, LogInput, LogOptions};
    use crate::model::Estimate;

    fn sample() -> LogView {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");
        let analysis = logs::analyze(
            &[LogInput::from(std::path::PathBuf::from(path))],
            &LogOptions::default(),
        )
        .unwrap();
        let derived = analysis
            .derive(&Scenario::default(), &Overrides::default())
            .unwrap();
        LogView::new(&derived, "sample".into())
    }

    /// Each endpoint's own scenario gives the refunds `dupcost logs` reported for it.
    #[test]
    fn endpoint_scenarios_give_the_reported_refunds() {
        let view = sample();
        assert!(view.endpoints.len() >= 3);
        for e in &view.endpoints {
            let got = Estimate::new(e.scenario(&view.whole)).refund_cost.per_month;
            assert!(
                (got - e.refund_per_month).abs() <= 1e-9 * e.refund_per_month.max(1.0),
                "{}: {got} vs {}",
                e.name,
                e.refund_per_month
            );
        }
        assert_eq!(
            view.evidence.len(),
            5,
            "N, t, s, retries and the saved body"
        );
    }

    #[test]
    fn explore_an_endpoint_and_go_back_to_the_whole() {
        let mut view = sample();
        let mut current = view.whole;
        current.order_value = 85.0;
        assert_eq!(
            view.update(EndpointAction::Whole, &current),
            PanelChange::None
        );
        assert_eq!(
            view.update(EndpointAction::Previous, &current),
            PanelChange::None
        );
        assert_eq!(
            view.update(EndpointAction::Next, &current),
            PanelChange::Redraw
        );
        let PanelChange::StartOver(scenario) = view.update(EndpointAction::Explore, &current)
        else {
            panic!("explore starts over");
        };
        let second = &view.endpoints[1];
        assert_eq!(scenario.requests_per_day, second.requests_per_day);
        assert_eq!(scenario.timeout_rate, second.timeout_rate);
        assert_eq!(
            scenario.order_value, 85.0,
            "the rest of the scenario is kept"
        );
        assert_eq!(view.exploring_name(), Some(second.name.as_str()));
        let PanelChange::StartOver(back) = view.update(EndpointAction::Whole, &scenario) else {
            panic!("w goes back");
        };
        assert_eq!(*back, current);
        assert_eq!(view.exploring, None);
    }
}
