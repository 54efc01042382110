//! The three charts: duplicates a month by retries, refunds a month by timeout rate, and
//! customers left without an answer by retries. Each reads the [`ChartData`] that the app
//! computed with the estimate.
//!
//! [`ChartData`]: super::app::ChartData

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Bar, BarChart, BarGroup, Block, Chart, Dataset, GraphType, Paragraph, Widget, Wrap,
};

use crate::report::human;
use crate::units::Rate;

use super::app::{App, ChartKind};
use super::theme::{Theme, panel};

/// Bars are scaled to this many units at the tallest, so that small figures still show.
const BAR_SCALE: f64 = 10_000.0;

/// Draws one chart; `cycling` adds a hint that `c` shows the next one.
pub(super) fn render(
    app: &App,
    kind: ChartKind,
    cycling: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
) {
    let (title, by) = match kind {
        ChartKind::DuplicatesByRetries => ("Duplicates a month", ", by retries"),
        ChartKind::RefundsByTimeoutRate => ("Refunds a month", ", by timeout rate"),
        ChartKind::UnansweredByRetries => ("No answer a month", ", by retries"),
    };
    let hint = if cycling { " c: next ".len() } else { 0 };
    let long = format!("{title}{by}");
    let title = if usize::from(area.width) >= long.len() + hint + 6 {
        long.as_str()
    } else {
        title
    };
    let mut block = panel(title, theme);
    if cycling {
        block = block.title(Line::styled(" c: next ", theme.dim()).alignment(Alignment::Right));
    }
    match kind {
        ChartKind::DuplicatesByRetries => duplicates(app, block, area, buf, theme),
        ChartKind::RefundsByTimeoutRate => refunds(app, block, area, buf, theme),
        ChartKind::UnansweredByRetries => unanswered(app, block, area, buf, theme),
    }
}

/// A note in place of a chart that has nothing sensible to draw.
fn note(text: &str, block: Block, area: Rect, buf: &mut Buffer, theme: Theme) {
    Paragraph::new(Line::styled(text, theme.dim()))
        .wrap(Wrap { trim: true })
        .block(block)
        .render(area, buf);
}

/// `3 retries`, `1 retry`.
fn retries(r: u32) -> String {
    if r == 1 {
        "1 retry".to_string()
    } else {
        format!("{r} retries")
    }
}

/// The current figure under the chart: `■ 601 at 3 retries`.
fn now_line(text: String, theme: Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(" ■ ", theme.highlight()),
        Span::raw(format!("{text} ")),
    ])
}

fn duplicates(app: &App, block: Block, area: Rect, buf: &mut Buffer, theme: Theme) {
    let data = &app.charts().by_retries;
    let current = app.scenario().retries;
    let values: Vec<f64> = data.iter().map(|e| e.duplicates.per_month).collect();
    let max = values.iter().copied().fold(0.0, f64::max);
    if !max.is_finite() {
        return note("Too large to chart.", block, area, buf, theme);
    }
    if max == 0.0 {
        let text = "No duplicates at any number of retries: nothing times out, or nothing that \
                    timed out had run.";
        return note(text, block, area, buf, theme);
    }
    let now = app.estimate().duplicates.per_month;
    let block = block.title_bottom(now_line(
        format!("{} at {}", super::cells::count(now), retries(current)),
        theme,
    ));
    let inner_width = block.inner(area).width;
    let gap = 1;
    let count = values.len() as u16;
    let bar_width = ((inner_width + gap) / count.max(1))
        .saturating_sub(gap)
        .max(1);
    let bars: Vec<Bar> = data
        .iter()
        .zip(&values)
        .map(|(e, &v)| {
            let chosen = e.inputs.retries == current;
            let style = if chosen {
                theme.highlight()
            } else {
                theme.series()
            };
            let scaled = if max > 0.0 { v / max * BAR_SCALE } else { 0.0 };
            Bar::default()
                .value(scaled.round() as u64)
                .text_value(super::cells::count(v))
                .label(Line::styled(
                    retries_label(e.inputs.retries, chosen, bar_width),
                    style,
                ))
                .style(style)
                .value_style(
                    style.patch(Style::new().add_modifier(ratatui::style::Modifier::REVERSED)),
                )
        })
        .collect();
    BarChart::default()
        .block(block)
        .data(
            BarGroup::default()
                .label(Line::styled("retries", theme.dim()).alignment(Alignment::Center))
                .bars(&bars),
        )
        .bar_width(bar_width)
        .bar_gap(gap)
        .max(BAR_SCALE as u64)
        .render(area, buf);
}

/// A bar's label: the retry count, bracketed for the current choice when it fits.
fn retries_label(retries: u32, chosen: bool, width: u16) -> String {
    let plain = retries.to_string();
    if chosen && usize::from(width) >= plain.len() + 2 {
        format!("[{plain}]")
    } else {
        plain
    }
}

/// Three labels for an axis: its ends and its middle.
fn labels(low: f64, high: f64, show: impl Fn(f64) -> String) -> Vec<Line<'static>> {
    [low, (low + high) / 2.0, high]
        .map(|v| Line::raw(show(v)))
        .to_vec()
}

fn refunds(app: &App, block: Block, area: Rect, buf: &mut Buffer, theme: Theme) {
    let charts = app.charts();
    let curve = &charts.by_timeout_rate;
    let base = charts.baseline_by_timeout_rate.as_deref().unwrap_or(&[]);
    let currency = app.style().currency.as_str();
    let top_rate = curve.last().map_or(1.0, |p| p.0);
    let high = curve.iter().chain(base).map(|p| p.1).fold(0.0, f64::max);
    if !high.is_finite() {
        return note("Too large to chart.", block, area, buf, theme);
    }
    if high == 0.0 {
        let text = "No refunds at any timeout rate: no retries, nothing that timed out had run, \
                    or nothing at stake.";
        return note(text, block, area, buf, theme);
    }
    let rate = app.scenario().timeout_rate;
    let refund = app.estimate().refund_cost.per_month;
    // The pinned baseline may reach further right than the current curve (or the current rate
    // may be 0, where the curve has no width): the x axis spans both.
    let top_rate = curve
        .iter()
        .chain(base)
        .map(|p| p.0)
        .fold(top_rate, f64::max);
    let top_rate = if top_rate > 0.0 { top_rate } else { 0.001 };
    // The y axis is drawn in fractions of the highest refund and labelled in money: ratatui
    // maps a point by `(top - y) * rows / height`, which overflows to infinity (and a line of
    // usize::MAX cells) when the bounds are near f64::MAX (found by the render property test).
    let (x_bounds, y_bounds) = ([0.0, top_rate], [0.0, 1.0]);
    let scaled = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        let points: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x, y / high)).collect();
        inside(&points, x_bounds, y_bounds)
    };
    let marker = scaled(&[(rate, 0.0), (rate, refund)]);
    let (base, curve) = (scaled(base), scaled(curve));
    let (base, curve) = (base.as_slice(), curve.as_slice());
    let block = block.title_bottom(now_line(
        format!(
            "{} at {}",
            super::cells::money(refund, currency),
            Rate(rate).rounded()
        ),
        theme,
    ));
    let mut datasets = Vec::new();
    if !base.is_empty() {
        datasets.push(line(base, theme.dim()));
    }
    datasets.push(line(curve, theme.series()));
    datasets.push(line(&marker, theme.highlight()));
    Chart::new(datasets)
        .block(block)
        .x_axis(
            Axis::default()
                .title(Span::styled("timeout rate", theme.dim()))
                .bounds(x_bounds)
                .labels(labels(0.0, top_rate, |v| Rate(v).rounded())),
        )
        .y_axis(
            Axis::default()
                .bounds(y_bounds)
                .labels(labels(0.0, high, |v| super::cells::money(v, currency))),
        )
        .render(area, buf);
}

/// The points, clamped into the axes' bounds, without non-finite ones. Ratatui draws a line
/// cell by cell even where it runs far off the canvas, so one point out of bounds (or bounds
/// of no width) could take minutes to draw: found by the TUI's render property test.
fn inside(data: &[(f64, f64)], x: [f64; 2], y: [f64; 2]) -> Vec<(f64, f64)> {
    data.iter()
        .filter(|(px, py)| px.is_finite() && py.is_finite())
        .map(|&(px, py)| (px.clamp(x[0], x[1]), py.clamp(y[0], y[1])))
        .collect()
}

fn line(data: &[(f64, f64)], style: Style) -> Dataset<'_> {
    Dataset::default()
        .data(data)
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(style)
}

/// `10^k` for reading: `1,000`, `1`, `0.001`, and past those `10⁻⁷`, `10¹⁵` (never e-notation).
fn power_of_ten(k: f64) -> String {
    let k = k.round() as i32;
    if (0..=12).contains(&k) {
        human::group_thousands(&10u64.pow(k as u32).to_string())
    } else if (-4..0).contains(&k) {
        format!("0.{}1", "0".repeat((-k - 1) as usize))
    } else {
        const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
        let sign = if k < 0 { "⁻" } else { "" };
        let digits: String = k
            .unsigned_abs()
            .to_string()
            .bytes()
            .map(|d| DIGITS[usize::from(d - b'0')])
            .collect();
        format!("10{sign}{digits}")
    }
}

fn unanswered(app: &App, block: Block, area: Rect, buf: &mut Buffer, theme: Theme) {
    let data = &app.charts().by_retries;
    let per_month = |e: &crate::model::Estimate| e.unanswered.per_day * e.inputs.days_per_month;
    let values: Vec<f64> = data.iter().map(per_month).collect();
    if values.iter().any(|&v| v <= 0.0) {
        return note(
            "No timeouts, so every customer gets an answer.",
            block,
            area,
            buf,
            theme,
        );
    }
    let points: Vec<(f64, f64)> = data
        .iter()
        .zip(&values)
        .map(|(e, v)| (f64::from(e.inputs.retries), v.log10()))
        .collect();
    if points.iter().any(|p| !p.1.is_finite()) {
        return note("Too large to chart.", block, area, buf, theme);
    }
    let current = app.scenario().retries;
    let now = per_month(app.estimate());
    let low = points
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min)
        .floor();
    let mut high = points
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil();
    if high <= low {
        high = low + 1.0;
    }
    let first = points.first().map_or(0.0, |p| p.0);
    let last = points.last().map_or(1.0, |p| p.0);
    let marker = inside(
        &[(f64::from(current), low), (f64::from(current), now.log10())],
        [first, last],
        [low, high],
    );
    let block = block.title_bottom(now_line(
        format!("{} at {}", super::cells::count(now), retries(current)),
        theme,
    ));
    let dots = Dataset::default()
        .data(&points)
        .marker(Marker::Dot)
        .graph_type(GraphType::Scatter)
        .style(theme.series());
    Chart::new(vec![
        line(&points, theme.series()),
        dots,
        line(&marker, theme.highlight()),
    ])
    .block(block)
    .x_axis(
        Axis::default()
            .title(Span::styled("retries", theme.dim()))
            .bounds([first, last])
            .labels(labels(first, last, |v| format!("{}", v.round()))),
    )
    .y_axis(
        Axis::default()
            .title(Span::styled("log", theme.dim()))
            .bounds([low, high])
            .labels(labels(low, high, power_of_ten)),
    )
    .render(area, buf);
}
