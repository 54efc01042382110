//! Drawing the explorer: `impl Widget for &App`, which only reads the state.
//!
//! The screen, top to bottom: a title bar; the inputs (with, below them, the selected input's
//! details, the editor or a chart) beside the results; the verdict; a row of charts when
//! there is room; a status bar of keys or the last message.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use crate::findings::{AmplificationObserved, ProxyRetriesObserved};
use crate::inputs::Input;
use crate::model::Estimate;
use crate::report::model::{EstimateReport, Figure, FigureId, Value};
use crate::report::words::label;

use super::app::{App, ChartKind, KEYS};
use super::charts;
use super::steps::{self, Direction};
use super::theme::{Theme, panel};

/// The smallest terminal the layout fits; below it a short message is shown instead.
pub const MIN_WIDTH: u16 = 64;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 22;

const INPUTS_HEIGHT: u16 = Input::ALL.len() as u16 + 2;
/// Every row of the results, and the border.
const RESULTS_HEIGHT: u16 = 21 + 2;
/// The panel below the inputs: the details' or a chart's few lines and a border.
const BELOW_INPUTS_MIN: u16 = 5;
/// The details of the selected input: its meaning (two lines), flag, steps and forms.
const DETAILS_HEIGHT: u16 = 8;
/// The editor below the inputs: its text, an error of up to four wrapped lines, its keys.
const EDITOR_HEIGHT: u16 = 8;
/// The fewest rows the inputs keep (a few inputs and the border) when the panel below them
/// grows to show the selected input's kind words whole.
const INPUTS_MIN: u16 = 5;
/// The words before an input's kind in its details.
const KIND_LABEL: &str = "kind   ";
/// The top (inputs beside results) on the smallest screen; the rest of it goes to the verdict.
const TOP_MIN: u16 = 14;
const CHART_MIN_HEIGHT: u16 = 10;
const CHART_MIN_WIDTH: u16 = 36;
const LABEL_WIDTH: usize = 16;
const RESULT_LABEL_MAX: usize = 30;

/// Where each part of the screen goes at a given size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub inputs: Rect,
    /// Below the inputs: the editor while typing, else a chart (narrow screens) or the
    /// selected input's details.
    pub below_inputs: Rect,
    pub results: Rect,
    pub verdict: Rect,
    /// The row of charts, when there is room for one.
    pub charts: Vec<(Rect, ChartKind)>,
    pub status: Rect,
}

impl Areas {
    /// The layout of `area`, or `None` when it is too small for it.
    pub fn new(app: &App, area: Rect) -> Option<Areas> {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        let verdict_lines = wrapped_height(
            &crate::report::words::verdict(app.estimate(), app.style()),
            area.width,
        );
        let available = area.height - 2;
        let verdict_height = verdict_lines.clamp(1, available - TOP_MIN);
        // All the inputs with the editor below, and every result row, when there is room;
        // otherwise the inputs scroll and the least telling results are left out.
        // Charts when they fit beside that; past it, room for the details first, then charts.
        let room = available - verdict_height;
        let compact_top = RESULTS_HEIGHT.max(INPUTS_HEIGHT + BELOW_INPUTS_MIN);
        let roomy_top = compact_top.max(INPUTS_HEIGHT + DETAILS_HEIGHT);
        let charts_height = if room >= compact_top + CHART_MIN_HEIGHT {
            (room - compact_top).min(CHART_MIN_HEIGHT.max(room.saturating_sub(roomy_top)))
        } else {
            0
        };
        let [title, top, verdict, chart_row, status] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(room - charts_height),
            Constraint::Length(verdict_height),
            Constraint::Length(charts_height),
            Constraint::Length(1),
        ])
        .areas(area);
        let left_width = (area.width * 3 / 8).clamp(30, 44);
        let [left, results] =
            Layout::horizontal([Constraint::Length(left_width), Constraint::Fill(1)]).areas(top);
        // The panel below the inputs shows the selected input's kind words whole (the flag
        // that settles it is their end): it grows for them, the inputs scroll.
        let below = if app.editor().is_some() {
            EDITOR_HEIGHT
        } else {
            let wanted = kind_room(app, left_width.saturating_sub(2));
            BELOW_INPUTS_MIN.max(wanted.min(left.height.saturating_sub(INPUTS_MIN)))
        };
        let inputs_height = INPUTS_HEIGHT.min(left.height.saturating_sub(below));
        let [inputs, below_inputs] =
            Layout::vertical([Constraint::Length(inputs_height), Constraint::Fill(1)]).areas(left);

        let mut charts = Vec::new();
        if charts_height > 0 {
            let count = (area.width / CHART_MIN_WIDTH).clamp(1, 3);
            let first = if count == 3 { 0 } else { app.first_chart() };
            let rects =
                Layout::horizontal(vec![Constraint::Fill(1); count as usize]).split(chart_row);
            for (i, rect) in rects.iter().enumerate() {
                let kind = ChartKind::ALL[(first + i) % ChartKind::ALL.len()];
                charts.push((*rect, kind));
            }
        }
        Some(Areas {
            title,
            inputs,
            below_inputs,
            results,
            verdict,
            charts,
            status,
        })
    }
}

/// The input drawn at a screen position (for mouse clicks), if any.
pub fn input_at(app: &App, area: Rect, column: u16, row: u16) -> Option<Input> {
    let areas = Areas::new(app, area)?;
    let inner = areas.inputs.inner(ratatui::layout::Margin::new(1, 1));
    let inside = (inner.left()..inner.right()).contains(&column)
        && (inner.top()..inner.bottom()).contains(&row);
    let first = first_shown_input(app, inner.height);
    inside
        .then(|| {
            Input::ALL
                .get(first + usize::from(row - inner.top()))
                .copied()
        })
        .flatten()
}

/// The first input the inputs panel shows in `rows` rows: 0 while the selected input fits,
/// else the window that ends at it.
fn first_shown_input(app: &App, rows: u16) -> usize {
    let selected = Input::ALL
        .iter()
        .position(|&i| i == app.selected())
        .unwrap_or(0);
    (selected + 1).saturating_sub(usize::from(rows).max(1))
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme {
            color: self.style().color,
        };
        let Some(areas) = Areas::new(self, area) else {
            too_small(area, buf);
            return;
        };
        title_bar(self, areas.title, buf, theme);
        inputs_panel(self, areas.inputs, buf, theme);
        if self.editor().is_some() {
            editor_panel(self, areas.below_inputs, buf, theme);
        } else if let Some(view) = self.logs() {
            logs_panels(self, view, areas.below_inputs, buf, theme);
        } else if areas.charts.is_empty() && areas.below_inputs.height >= DETAILS_HEIGHT + 2 {
            // Room below the details for no chart row: the chart goes under them.
            let [details, chart] =
                Layout::vertical([Constraint::Length(DETAILS_HEIGHT), Constraint::Fill(1)])
                    .areas(areas.below_inputs);
            details_panel(self, details, buf, theme);
            let kind = ChartKind::ALL[self.first_chart() % ChartKind::ALL.len()];
            charts::render(self, kind, true, chart, buf, theme);
        } else {
            // The selected input's panel stays on the smallest screens; `c` is for the charts
            // when a row of them fits.
            details_panel(self, areas.below_inputs, buf, theme);
        }
        results_panel(self, areas.results, buf, theme);
        verdict_line(self, areas.verdict, buf, theme);
        let cycling = areas.charts.len() < ChartKind::ALL.len();
        for &(rect, kind) in &areas.charts {
            charts::render(self, kind, cycling, rect, buf, theme);
        }
        status_bar(self, areas.status, buf, theme);
        if self.help_shown() {
            help_overlay(self, area, buf, theme);
        }
        if let Some(cursor) = self.picker() {
            preset_picker(cursor, area, buf, theme);
        }
    }
}

/// The rows `input`'s kind words take in the panel below the inputs, `width` its inner
/// width: after `kind   ` in its details, before the evidence (and a full stop) with the
/// logs, which show no words for a measured input; 0 where its kind is not known.
fn kind_height(app: &App, input: Input, width: u16) -> u16 {
    match (app.kind(input), app.logs()) {
        (Some((crate::findings::Kind::Measured, _)), Some(_)) | (None, _) => 0,
        (Some((_, words)), Some(_)) => wrapped_height(&format!("{words}."), width),
        (Some((_, words)), None) => wrapped_height(&format!("{KIND_LABEL}{words}"), width),
    }
}

/// The rows the panel below the inputs needs so that every input's kind words read whole
/// (after its meaning in its details), borders included; the most any input needs, so
/// that the layout stands still as the selection moves. 0 where no kind is known.
fn kind_room(app: &App, width: u16) -> u16 {
    let logs = app.logs().is_some();
    Input::ALL
        .into_iter()
        .map(|input| match kind_height(app, input, width) {
            0 => 0,
            kind if logs => kind + 2,
            kind => wrapped_height(input.meaning(), width) + kind + 2,
        })
        .max()
        .unwrap_or(0)
}

/// Below the inputs with `--logs`: the selected input's evidence (what the logs measured, or
/// that they did not), then the endpoints; while the endpoints have the keys (Tab), the list
/// alone. Where the two do not fit, the evidence (live, the endpoints).
fn logs_panels(
    app: &App,
    view: &super::endpoints::LogView,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
) {
    let currency = &app.style().currency;
    let input = app.selected();
    let kind = view.kinds.iter().find(|(i, ..)| *i == input);
    let text = match (view.evidence.iter().find(|e| e.input == input), kind) {
        (Some(e), Some((_, crate::findings::Kind::Measured, _))) => e.text.clone(),
        (Some(e), Some((.., words))) => format!("{words}. {}", e.text),
        (None, Some((.., words))) => words.clone(),
        (Some(e), None) => e.text.clone(),
        (None, None) => format!("not measured by the logs: the scenario's value ({input})"),
    };
    let kind_name = match kind.map(|(_, k, _)| *k) {
        Some(crate::findings::Kind::Measured) | None => "measured",
        Some(crate::findings::Kind::Given) => "given",
        Some(crate::findings::Kind::Assumed) => "assumed",
    };
    let width = area.width.saturating_sub(2).max(1);
    // A few lines of it, and its kind words (which come first) whole.
    let evidence_height = (wrapped_height(&text, width) + 2)
        .min(6)
        .max(kind_height(app, input, width) + 2);
    let endpoints_min = 4;
    let paragraph = |area: Rect, buf: &mut Buffer| {
        Paragraph::new(text.clone())
            .wrap(Wrap { trim: true })
            .block(panel(&format!("{} · {kind_name}", input.label()), theme))
            .render(area, buf);
    };
    if view.focused || (app.live().is_some() && area.height < evidence_height + endpoints_min) {
        // The list has the keys (Tab): all of the room is its.
        super::endpoints::render(view, app.live(), area, buf, theme, currency);
    } else if area.height >= evidence_height + endpoints_min {
        let [top, rest] =
            Layout::vertical([Constraint::Length(evidence_height), Constraint::Fill(1)])
                .areas(area);
        paragraph(top, buf);
        super::endpoints::render(view, app.live(), rest, buf, theme, currency);
    } else {
        paragraph(area, buf);
    }
}

fn too_small(area: Rect, buf: &mut Buffer) {
    let text = format!(
        "Terminal too small ({}x{}): dupcost tui needs at least {MIN_WIDTH}x{MIN_HEIGHT}. \
         Enlarge the window, or press q to quit.",
        area.width, area.height
    );
    let lines = wrapped_height(&text, area.width);
    let top = area.height.saturating_sub(lines) / 2;
    let rect = Rect {
        y: area.y + top,
        height: area.height - top,
        ..area
    };
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(rect, buf);
}

fn title_bar(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let mut right = vec![];
    if let Some(name) = app.preset() {
        right.push(Span::styled("preset ", theme.dim()));
        right.push(Span::styled(format!("{name}  "), theme.highlight()));
    }
    if app.baseline().is_some() {
        right.push(Span::styled("● baseline pinned  ", theme.highlight()));
    }
    right.push(Span::styled("s saves to ", theme.dim()));
    right.push(Span::raw(format!("{} ", app.save_path().display())));
    let right = Line::from(right).alignment(Alignment::Right);
    let mut left = vec![Span::styled(
        " dupcost ",
        theme.selected().add_modifier(Modifier::BOLD),
    )];
    // Following logs that give no scenario yet: the title says why.
    let waiting = app.live().filter(|_| app.logs().is_none()).map(|live| {
        let why = live.waiting.as_deref().unwrap_or("no figures yet");
        format!(" waiting: {why} · {}", live.text())
    });
    let subtitle = waiting
        .as_deref()
        .unwrap_or(" what missing idempotency costs");
    let room = usize::from(area.width).saturating_sub(9 + 1 + right.width());
    if subtitle.chars().count() <= room {
        left.push(Span::raw(subtitle));
    } else if waiting.is_some() {
        let cut: String = subtitle.chars().take(room.saturating_sub(1)).collect();
        left.push(Span::raw(format!("{cut}…")));
    }
    Line::from(left).render(area, buf);
    right.render(area, buf);
}

fn inputs_panel(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let rows = area.height.saturating_sub(2);
    let first = first_shown_input(app, rows);
    let title = inputs_title(first, usize::from(rows));
    let block = panel(&title, theme);
    // The kinds' letters are said once, in the panel's bottom edge.
    let block = match kinds_legend(app, area.width.saturating_sub(2)) {
        Some(legend) => block.title_bottom(Span::styled(legend, theme.dim())),
        None => block,
    };
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width);
    // Each input's kind, where known, is one letter after its value (m, g, a).
    let marked = Input::ALL.iter().any(|&i| app.kind(i).is_some());
    let value_width = width.saturating_sub(LABEL_WIDTH + 3 + if marked { 2 } else { 0 });
    let baseline = app.baseline().map(|b| b.inputs);
    let currency = &app.style().currency;
    let lines: Vec<Line> = Input::ALL
        .into_iter()
        .skip(first)
        .map(|input| {
            let selected = input == app.selected();
            let value = input.get(app.scenario());
            // A published schedule stands in for the three backoff inputs.
            let shown = match (input, app.scenario().schedule_seconds) {
                (Input::Backoff, Some(delays)) => {
                    shorten(&crate::report::words::schedule_text(&delays), value_width)
                }
                (Input::BackoffFactor | Input::BackoffMax, Some(_)) => "(schedule)".to_string(),
                _ => input_value(input, value, currency, value_width),
            };
            let was = baseline
                .map(|b| input.get(&b))
                .filter(|&b| b != value)
                .map(|b| {
                    format!(
                        "was {}",
                        crate::report::words::input_value(input, b, currency)
                    )
                });
            let marker = if selected { "▸ " } else { "  " };
            let mut spans = vec![Span::raw(format!(
                "{marker}{:<LABEL_WIDTH$} ",
                input.label()
            ))];
            match app.editor().filter(|_| selected) {
                Some(editor) => {
                    let room = value_width.saturating_sub(1);
                    let text: String = tail(&editor.text, room);
                    let pad = room.saturating_sub(text.chars().count());
                    spans.push(Span::styled(text, theme.editing()));
                    spans.push(Span::styled(
                        " ",
                        theme.editing().add_modifier(Modifier::REVERSED),
                    ));
                    spans.push(Span::raw(" ".repeat(pad)));
                }
                None => {
                    let was_width = was.as_ref().map_or(0, |w| w.chars().count() + 2);
                    let was = was.filter(|_| value_width >= was_width + shown.chars().count());
                    let room = value_width - was.as_ref().map_or(0, |_| was_width);
                    let style = if was.is_some() {
                        theme.highlight()
                    } else {
                        Style::new()
                    };
                    spans.push(Span::styled(format!("{shown:>room$}"), style));
                    if let Some(was) = was {
                        spans.push(Span::styled(format!("  {was}"), theme.dim()));
                    }
                }
            }
            if let Some((kind, _)) = app.kind(input) {
                let mark = crate::report::words::kind_mark(kind);
                let style = if kind == crate::findings::Kind::Assumed {
                    theme.dim()
                } else {
                    Style::new()
                };
                spans.push(Span::styled(format!(" {mark}"), style));
            }
            let line = Line::from(spans);
            if selected && app.editor().is_none() {
                line.style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

/// The inputs panel's title: `Inputs`, and where not every input fits, which are shown and
/// the way to the others (`Inputs 1-9 of 17 ↓`).
fn inputs_title(first: usize, rows: usize) -> String {
    let total = Input::ALL.len();
    let last = (first + rows).min(total);
    if first == 0 && last == total {
        return "Inputs".to_string();
    }
    let more = match (first > 0, last < total) {
        (true, true) => " ↑↓",
        (true, false) => " ↑",
        _ => " ↓",
    };
    format!("Inputs {}-{last} of {total}{more}", first + 1)
}

/// One line saying the kinds' letters that the inputs show (`m measured · g given · a
/// assumed`), in the reports' order, to fit `width`; `None` where no kind is known.
fn kinds_legend(app: &App, width: u16) -> Option<String> {
    use crate::findings::Kind;
    let kinds: Vec<Kind> = [Kind::Measured, Kind::Given, Kind::Assumed]
        .into_iter()
        .filter(|&k| {
            Input::ALL
                .iter()
                .any(|&i| app.kind(i).is_some_and(|(kind, _)| kind == k))
        })
        .collect();
    if kinds.is_empty() {
        return None;
    }
    let words: Vec<String> = kinds
        .iter()
        .map(|&k| {
            format!(
                "{} {}",
                crate::report::words::kind_mark(k),
                crate::report::words::kind_name(k)
            )
        })
        .collect();
    [(" · ", " "), (" ", " "), (" ", "")]
        .into_iter()
        .map(|(between, pad)| format!("{pad}{}{pad}", words.join(between)))
        .find(|text| text.chars().count() <= usize::from(width))
}

/// `input`'s value as the reports say it, or in the explorer's short form where that does not
/// fit `width` (`1,000,000,000,000` requests a day reads `1.00tn`).
fn input_value(input: Input, value: f64, currency: &str, width: usize) -> String {
    let full = crate::report::words::input_value(input, value, currency);
    if full.chars().count() <= width {
        return full;
    }
    match input {
        Input::RequestsPerDay | Input::DaysPerMonth => super::cells::count(value),
        Input::OrderValue => super::cells::money(value, currency),
        _ => shorten(&full, width),
    }
}

/// The last `n` characters of `text`.
fn tail(text: &str, n: usize) -> String {
    let skip = text.chars().count().saturating_sub(n);
    text.chars().skip(skip).collect()
}

fn details_panel(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let input = app.selected();
    // Its kind in the title, where even the smallest screen shows it; its words below.
    let title = match app.kind(input) {
        Some((kind, _)) => format!(
            "{} · {}",
            input.label(),
            crate::report::words::kind_name(kind)
        ),
        None => input.label().to_string(),
    };
    let block = panel(&title, theme);
    let currency = &app.style().currency;
    let value = input.get(app.scenario());
    let shown = |v: f64| crate::report::words::input_value(input, v, currency);
    let down = steps::step(input, value, Direction::Down);
    let up = steps::step(input, value, Direction::Up);
    let key = |k: &'static str| Span::styled(k, theme.highlight());
    let mut lines = vec![Line::raw(input.meaning())];
    // Its kind after its meaning: the panel has room for both whole (the flag that settles
    // an assumed input ends its words); the keys after them, as room allows.
    if let Some((_, text)) = app.kind(input) {
        lines.push(Line::from(vec![
            Span::styled(KIND_LABEL, theme.dim()),
            Span::raw(text),
        ]));
    }
    lines.extend([
        Line::from(vec![
            Span::styled("flag   ", theme.dim()),
            Span::raw(format!("{input}")),
        ]),
        Line::from(vec![
            key("← →    "),
            Span::raw(format!("{} / {}", shown(down), shown(up))),
        ]),
        Line::from(vec![key("Enter  "), Span::raw(input.forms())]),
    ]);
    if let Some(base) = app.baseline() {
        lines.push(Line::from(vec![
            Span::styled("pinned ", theme.dim()),
            Span::raw(shown(input.get(&base.inputs))),
        ]));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(block)
        .render(area, buf);
}

fn editor_panel(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let input = app.selected();
    let title = format!("Type the {}", input.label());
    let block = panel(&title, theme);
    let Some(editor) = app.editor() else {
        return;
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("> ", theme.dim()),
        Span::styled(editor.text.clone(), theme.editing()),
        Span::styled(" ", theme.editing().add_modifier(Modifier::REVERSED)),
    ])];
    match &editor.error {
        Some(error) => lines.push(Line::styled(format!("✗ {error}"), theme.error())),
        None => lines.push(Line::from(vec![
            Span::styled("as ", theme.dim()),
            Span::raw(input.forms()),
        ])),
    }
    lines.push(Line::from(vec![
        Span::styled("Enter", theme.highlight()),
        Span::raw(" applies  "),
        Span::styled("Esc", theme.highlight()),
        Span::raw(" cancels  "),
        Span::styled("Ctrl-U", theme.highlight()),
        Span::raw(" clears"),
    ]));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block)
        .render(area, buf);
}

/// One line of the results: a heading, or a label with its exact figure and rule of thumb.
struct Row {
    label: String,
    exact: Option<Value>,
    thumb: Option<Value>,
    /// The figure the screen is about (refunds a month), highlighted.
    headline: bool,
    /// Where rows do not all fit, the lowest are left out first (headings go with their rows).
    keep: u8,
}

fn heading(label: &str) -> Row {
    Row {
        label: label.to_string(),
        exact: None,
        thumb: None,
        headline: false,
        keep: u8::MAX,
    }
}

fn row(f: &Figure) -> Row {
    Row {
        label: format!("  {}", f.label),
        exact: Some(f.value),
        thumb: f.rule_of_thumb,
        headline: false,
        keep: 5,
    }
}

/// `row` that is left out before (`keep` lower) or after (higher) the others.
fn ranked(keep: u8, row: Row) -> Row {
    Row { keep, ..row }
}

/// The indexes of the rows to show in `height` lines: the lowest `keep` left out first, the
/// later row of a tie first, then any heading left without rows.
fn fitting(rows: &[Row], height: usize) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..rows.len()).collect();
    while shown.len() > height {
        let lowest = shown
            .iter()
            .copied()
            .filter(|&i| rows[i].exact.is_some())
            .min_by_key(|&i| (rows[i].keep, std::cmp::Reverse(i)));
        match lowest {
            Some(i) => shown.retain(|&j| j != i),
            None => shown.truncate(height),
        }
        // A heading is kept only with a row of its own after it.
        let kept: Vec<usize> = shown
            .iter()
            .enumerate()
            .filter(|&(n, &i)| {
                rows[i].exact.is_some()
                    || shown
                        .get(n + 1)
                        .is_some_and(|&next| rows[next].exact.is_some())
            })
            .map(|(_, &i)| i)
            .collect();
        shown = kept;
    }
    shown
}

/// Every output group of `docs/MODEL.md`, in the `estimate` table's order, each figure with
/// the report's words for it (`report::model`).
///
/// With `proxy` (the log's own proxy tries, the whole log explored), the layers figure with
/// the proxy's layer measured follows the model's, for the scenario of the moment.
fn rows(e: &Estimate, proxy: Option<&ProxyRetriesObserved>) -> Vec<Row> {
    use FigureId as F;
    let mut report = EstimateReport::new(e, &crate::report::Style::default());
    if let Some(p) = proxy {
        report.add_proxy_layer(&AmplificationObserved::of(p, &e.inputs));
    }
    let measured = |id: FigureId| proxy.is_some().then(|| row(report.figure(id)));
    let f = |id: FigureId| row(report.figure(id));
    // A horizon past the key TTL is the screen's warning, in the row's label as in the verdict.
    let mut horizon = f(F::RetryHorizon);
    if e.ttl_shorter_than_horizon() {
        horizon.label = format!("  {}", label::HORIZON_PAST_TTL);
    }
    // One store is shown, the chosen one: its figure without the mark that tells it apart.
    let chosen = F::StoreSize(e.inputs.store);
    let store = Row {
        label: format!("  {}", crate::report::words::store_name(e.inputs.store)),
        ..f(chosen)
    };
    vec![
        heading("Duplicate charges"),
        f(F::DuplicatesPerDay),
        ranked(9, f(F::DuplicatesPerMonth)),
        ranked(8, f(F::LeftPerMonth)),
        heading("Refunds"),
        Row {
            headline: true,
            ..ranked(10, f(F::RefundsPerMonth))
        },
        ranked(3, f(F::RefundsPerYear)),
        heading("Customers left without an answer"),
        f(F::UnansweredNeverRetryingPerDay),
        ranked(2, f(F::UnansweredNeverRetryingPerMonth)),
        ranked(1, f(F::ChargedNeverRetryingPerMonth)),
        f(F::UnansweredPerDay),
        ranked(1, f(F::ChargedPerDay)),
        heading("Extra load from retries"),
        ranked(3, f(F::ExtraAttemptsPerDay)),
        ranked(4, f(F::AttemptsWorstCase)),
        f(F::AttemptsExpected),
    ]
    .into_iter()
    .chain(measured(F::ProxyLayerExpected))
    .chain(measured(F::ProxyLayerWorstCase))
    .chain([
        heading("Key store (the fix)"),
        ranked(7, horizon),
        ranked(3, f(F::LiveKeys)),
        ranked(9, store),
    ])
    .collect()
}

/// What a column of the results holds, which sets its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ColumnKind {
    Exact,
    RuleOfThumb,
    Change,
}

/// A column of the results: its headers (the longest first, the others shorter ones for a
/// narrow screen), its cells (one per row) and the width of the widest cell.
struct Column {
    kind: ColumnKind,
    headers: &'static [&'static str],
    cells: Vec<String>,
    cells_width: usize,
}

impl Column {
    fn new(kind: ColumnKind, headers: &'static [&'static str], cells: Vec<String>) -> Column {
        let cells_width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        Column {
            kind,
            headers,
            cells,
            cells_width,
        }
    }

    /// Its header and width with the long (`true`) or the short header.
    fn header(&self, long: bool) -> (&'static str, usize) {
        let header = if long {
            self.headers[0]
        } else {
            self.headers[self.headers.len() - 1]
        };
        (header, self.cells_width.max(header.chars().count()))
    }

    fn style(&self, row: &Row, cell: &str, theme: Theme) -> Style {
        match self.kind {
            ColumnKind::Exact if row.headline => theme.highlight(),
            ColumnKind::Exact => Style::new(),
            ColumnKind::RuleOfThumb => theme.dim(),
            ColumnKind::Change if cell.starts_with('+') => theme.worse(),
            ColumnKind::Change if cell.starts_with('-') => theme.better(),
            ColumnKind::Change => theme.dim(),
        }
    }
}

/// How the results fit their width: which columns, with which headers, and whether the rows
/// keep their indent under the headings.
struct Fit {
    columns: Vec<(usize, &'static str, usize)>,
    indent: bool,
    label_width: usize,
}

/// The first of these that fits `width` with every label whole: long headers, then short
/// ones, then the rows without their indent; with a change column, then without the rule of
/// thumb (the baseline's change says more); last, the labels cut.
fn fit(width: usize, labels: &[&str], columns: &[Column], change: Option<usize>) -> Fit {
    let label_need = |indent: bool| {
        labels
            .iter()
            .map(|l| {
                let l = if indent { l } else { l.trim_start() };
                l.chars().count()
            })
            .max()
            .unwrap_or(0)
    };
    let all: Vec<usize> = (0..columns.len()).collect();
    let without_thumb: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| columns[i].kind != ColumnKind::RuleOfThumb)
        .collect();
    let mut tries: Vec<(&[usize], bool, bool)> = vec![
        (&all, true, true),
        (&all, false, true),
        (&all, false, false),
    ];
    if change.is_some() {
        tries.extend([
            (&without_thumb[..], true, true),
            (&without_thumb[..], false, true),
        ]);
        tries.push((&without_thumb[..], false, false));
    }
    let place = |which: &[usize], long: bool, indent: bool| -> (Fit, bool) {
        let columns: Vec<(usize, &'static str, usize)> = which
            .iter()
            .map(|&i| {
                let (header, w) = columns[i].header(long);
                (i, header, w)
            })
            .collect();
        let used: usize = columns.iter().map(|(_, _, w)| w + 2).sum();
        let room = width.saturating_sub(used);
        let need = label_need(indent);
        let fits = need <= room;
        // Past a comfortable width, the spare room goes to the right, not between label and
        // figure.
        let label_width = room.min(RESULT_LABEL_MAX.max(need));
        (
            Fit {
                columns,
                indent,
                label_width,
            },
            fits,
        )
    };
    for &(which, long, indent) in &tries {
        let (fit, fits) = place(which, long, indent);
        if fits {
            return fit;
        }
    }
    let (which, ..) = tries[tries.len() - 1];
    place(which, false, false).0
}

fn results_panel(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let currency = app.style().currency.as_str();
    // The log's proxy tries, while the whole log is explored (an endpoint has its own).
    let proxy = app
        .logs()
        .filter(|view| view.exploring.is_none())
        .and_then(|view| view.proxy.as_ref());
    let all_rows = rows(app.estimate(), proxy);
    let inner_height = area.height.saturating_sub(2);
    let shown = fitting(&all_rows, usize::from(inner_height));
    let pick = |rows: Vec<Row>| -> Vec<Row> {
        let mut rows: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
        shown.iter().filter_map(|&i| rows[i].take()).collect()
    };
    let now = pick(all_rows);
    let show = |f: Option<Value>| {
        f.map(|f| super::cells::show(f, currency))
            .unwrap_or_default()
    };

    // Columns: the exact figure, the rule of thumb, and the change from a pinned baseline
    // once a figure differs from it (`tui --logs` pins the measured scenario as it starts,
    // and a column of ±0 says nothing).
    let mut columns = vec![
        Column::new(
            ColumnKind::Exact,
            &["exact"],
            now.iter().map(|r| show(r.exact)).collect(),
        ),
        Column::new(
            ColumnKind::RuleOfThumb,
            &["rule of thumb", "thumb"],
            now.iter().map(|r| show(r.thumb)).collect(),
        ),
    ];
    let mut change = None;
    if let Some(base) = app.baseline().map(|b| pick(rows(b, proxy))) {
        let number = |v: Option<Value>| v.map(Value::number);
        if now
            .iter()
            .zip(&base)
            .any(|(n, b)| number(n.exact) != number(b.exact))
        {
            let cells = now
                .iter()
                .zip(&base)
                .map(|(n, b)| match (n.exact, b.exact) {
                    (Some(n), Some(b)) => super::cells::delta(n, b, currency),
                    _ => String::new(),
                });
            change = Some(columns.len());
            columns.push(Column::new(
                ColumnKind::Change,
                &["vs baseline", "change"],
                cells.collect(),
            ));
        }
    }
    let title = if change.is_some() {
        "Results vs the baseline"
    } else {
        "Results"
    };
    let block = panel(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);

    let labels: Vec<&str> = now
        .iter()
        .filter(|r| r.exact.is_some())
        .map(|r| r.label.as_str())
        .collect();
    let fit = fit(usize::from(inner.width), &labels, &columns, change);
    let label_width = fit.label_width;
    let label = |text: &str| {
        let text = if fit.indent { text } else { text.trim_start() };
        let text: String = if text.chars().count() > label_width {
            shorten(text, label_width)
        } else {
            text.to_string()
        };
        format!("{text:<label_width$}")
    };

    let mut lines = Vec::with_capacity(now.len());
    for (i, row) in now.iter().enumerate() {
        let spans = match row.exact {
            // The first heading carries the column headers.
            None if i == 0 => std::iter::once(Span::styled(
                format!("{:<label_width$}", shorten(&row.label, label_width)),
                theme.heading(),
            ))
            .chain(fit.columns.iter().map(|&(_, header, width)| {
                Span::styled(format!("  {header:>width$}"), theme.dim())
            }))
            .collect(),
            None => vec![Span::styled(row.label.clone(), theme.heading())],
            Some(_) => std::iter::once(Span::raw(label(&row.label)))
                .chain(fit.columns.iter().map(|&(c, _, width)| {
                    let column = &columns[c];
                    let cell = &column.cells[i];
                    Span::styled(format!("  {cell:>width$}"), column.style(row, cell, theme))
                }))
                .collect(),
        };
        lines.push(Line::from(spans));
    }
    Paragraph::new(lines).render(inner, buf);
}

fn verdict_line(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let verdict = crate::report::words::verdict(app.estimate(), app.style());
    let (head, rest) = verdict.split_once(": ").unwrap_or(("Verdict", &verdict));
    Paragraph::new(Line::from(vec![
        Span::styled(format!("{head}: "), theme.highlight()),
        Span::raw(rest.to_string()),
    ]))
    .wrap(Wrap { trim: true })
    .render(area, buf);
}

fn status_bar(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    if let Some(message) = app.message() {
        let style = if message.is_error {
            theme.error()
        } else {
            theme.highlight()
        };
        Line::styled(format!(" {}", message.text), style).render(area, buf);
        return;
    }
    let pin = if app.baseline().is_some() {
        "unpin"
    } else {
        "pin baseline"
    };
    let hints: Vec<(&str, &str)> = if app.editor().is_some() {
        vec![("Enter", "apply"), ("Esc", "cancel"), ("Ctrl-U", "clear")]
    } else if app.help_shown() {
        vec![("?/Esc", "close help"), ("q", "quit")]
    } else {
        vec![
            ("↑↓", "select"),
            ("←→", "step"),
            ("Enter", "type"),
            ("p", pin),
            ("s", "save"),
            ("r", "reset"),
            ("?", "help"),
            ("q", "quit"),
        ]
    };
    // The last two hints (`? help`, `q quit`) are kept whatever the width; the others go
    // from the end until the rest fits.
    let width = |(key, what): &(&str, &str)| key.chars().count() + what.chars().count() + 3;
    let kept = hints.len().saturating_sub(2);
    let mut room = usize::from(area.width)
        .saturating_sub(1)
        .saturating_sub(hints[kept..].iter().map(width).sum());
    let mut shown: Vec<(&str, &str)> = Vec::new();
    for hint in &hints[..kept] {
        if width(hint) > room {
            break;
        }
        room -= width(hint);
        shown.push(*hint);
    }
    shown.extend_from_slice(&hints[kept..]);
    let mut spans = vec![Span::raw(" ")];
    for (key, what) in shown {
        spans.push(Span::styled(key, theme.highlight()));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    Line::from(spans).render(area, buf);
}

fn help_overlay(app: &App, area: Rect, buf: &mut Buffer, theme: Theme) {
    let key_width = KEYS
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut lines: Vec<Line> = KEYS
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(format!("{key:<key_width$}"), theme.highlight()),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled("s saves to ", theme.dim()),
        Span::raw(app.save_path().display().to_string()),
    ]));
    let closing = Line::styled("? or Esc closes this help", theme.dim());
    if let Some(view) = app.logs() {
        let evidence = super::endpoints::help_lines(view, theme, &app.style().currency);
        let mut all = lines.clone();
        all.extend(evidence);
        all.push(closing.clone());
        // On a short terminal the evidence would push the keys and the closing line out of
        // the box: show the keys whole and say where the evidence is.
        if overlay_rows(&all, area) + 2 <= usize::from(area.height) {
            overlay(all, "Keys", area, buf, theme);
            return;
        }
        lines.push(Line::styled(
            "the measured inputs' evidence: a taller terminal, or dupcost logs",
            theme.dim(),
        ));
        lines.extend(super::endpoints::key_lines(theme));
    }
    lines.push(closing);
    overlay(lines, "Keys", area, buf, theme);
}

/// `text` cut to `width` characters, an ellipsis marking the cut.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The preset picker (`o`): every preset, the cursor's with what it sets and where from.
fn preset_picker(cursor: usize, area: Rect, buf: &mut Buffer, theme: Theme) {
    use crate::presets::{PRESETS, Side};
    let mut list: Vec<Line> = Vec::new();
    let mut cursor_line = 0;
    let name_width = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0) + 2;
    for side in [Side::PaymentApi, Side::WebhookSender] {
        let heading = match side {
            Side::PaymentApi => "Payment APIs: the key window",
            Side::WebhookSender => "Webhook senders: timeout and redeliveries",
        };
        list.push(Line::styled(heading, theme.dim()));
        for (i, preset) in PRESETS.iter().enumerate().filter(|(_, p)| p.side == side) {
            let marker = if i == cursor { "▸ " } else { "  " };
            let text = format!("{marker}{:<name_width$}{}", preset.name, preset.provider);
            if i == cursor {
                cursor_line = list.len();
                list.push(Line::styled(text, theme.selected()));
            } else {
                list.push(Line::raw(text));
            }
        }
    }
    let preset = &PRESETS[cursor.min(PRESETS.len() - 1)];
    let mut footer = vec![
        Line::raw(""),
        Line::raw(format!("sets {}", super::app::preset_summary(preset))),
    ];
    if let Some(source) = preset.values.first().map(|v| v.source) {
        footer.push(Line::styled(
            format!("from {} (read {})", source.url, source.read),
            theme.dim(),
        ));
    }
    footer.push(Line::styled(
        "Enter applies it over the current inputs · Esc closes · every source: dupcost presets",
        theme.dim(),
    ));
    // On a short terminal the list scrolls with the cursor, so the chosen preset stays in view.
    let room = usize::from(area.height)
        .saturating_sub(2 + overlay_rows(&footer, area))
        .max(1);
    let start = if list.len() > room {
        cursor_line.saturating_sub(room / 2).min(list.len() - room)
    } else {
        0
    };
    let mut lines: Vec<Line> = list.into_iter().skip(start).take(room).collect();
    lines.extend(footer);
    overlay(lines, "Presets", area, buf, theme);
}

/// How many lines `text` takes when word-wrapped to `width` columns.
pub(super) fn wrapped_height(text: &str, width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let mut lines = 1usize;
    let mut column = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if column == 0 {
            column = len;
        } else if column + 1 + len <= width {
            column += 1 + len;
        } else {
            lines += 1;
            column = len;
        }
        while column > width {
            lines += 1;
            column -= width;
        }
    }
    u16::try_from(lines).unwrap_or(u16::MAX)
}

/// `lines` in a panel titled `title`, centred over `area` and sized to them (long lines wrap:
/// the height counts the rows they take at the panel's width).
/// The overlay's width in `area` for `lines`: the longest line and its frame, at most the area's.
fn overlay_width(lines: &[Line<'_>], area: Rect) -> usize {
    (lines.iter().map(Line::width).max().unwrap_or(0) + 4).min(usize::from(area.width))
}

/// The rows `lines` take inside the overlay's frame, word-wrapped to its width in `area`.
fn overlay_rows(lines: &[Line<'_>], area: Rect) -> usize {
    let inner = (overlay_width(lines, area) as u16).saturating_sub(4);
    lines
        .iter()
        .map(|l| usize::from(wrapped_height(&l.to_string(), inner)))
        .sum()
}

fn overlay(lines: Vec<Line<'_>>, title: &str, area: Rect, buf: &mut Buffer, theme: Theme) {
    let width = overlay_width(&lines, area);
    let height = (overlay_rows(&lines, area) + 2).min(usize::from(area.height));
    let rect = Rect {
        x: area.x + (area.width - width as u16) / 2,
        y: area.y + (area.height - height as u16) / 2,
        width: width as u16,
        height: height as u16,
    };
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(panel(title, theme).padding(ratatui::widgets::Padding::horizontal(1)))
        .render(rect, buf);
}
