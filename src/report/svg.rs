//! SVG line charts for documents (`--plot FILE.svg`): an opaque white card with dark ink, so
//! they read the same in light and dark viewers.

use plotters::chart::MeshStyle;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::findings::{DayRow, EndpointRow};
use crate::inputs::Input;
use crate::model::Estimate;
use crate::sweep::{Curve, Curves};
use crate::units::{Duration, Rate};

/// One line on a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Formats an axis value (`0.2%`, `2026-11-01`).
pub type Format = Box<dyn Fn(f64) -> String>;

/// A chart of one or more series against a shared x axis.
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Text for an x value (`0.2%`, `2026-11-01`); plain numbers when `None`.
    pub x_format: Option<Format>,
    /// Text for a y value; plain numbers when `None`.
    pub y_format: Option<Format>,
    /// A point to mark (the current choice), with its label.
    pub marker: Option<(f64, f64, String)>,
}

const WIDTH: u32 = 900;
const HEIGHT: u32 = 520;
const PALETTE: [RGBColor; 5] = [
    RGBColor(0x1f, 0x6f, 0xb4),
    RGBColor(0xd9, 0x5f, 0x02),
    RGBColor(0x1b, 0x9e, 0x77),
    RGBColor(0x75, 0x70, 0xb3),
    RGBColor(0xe7, 0x29, 0x8a),
];

/// Renders charts stacked top to bottom, sharing one SVG document.
pub fn render(charts: &[Chart]) -> Result<String, String> {
    let mut svg = String::new();
    let height = HEIGHT * charts.len().max(1) as u32;
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        for (chart, area) in charts
            .iter()
            .zip(root.split_evenly((charts.len().max(1), 1)))
        {
            draw(chart, &area).map_err(|e| format!("drawing the chart: {e}"))?;
        }
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// Ticks on an x axis at most (plotters' own default).
const X_TICKS: usize = 10;

/// With every finite x a whole number: how many whole numbers the axis spans, ends included.
fn whole_axis(xs: impl Iterator<Item = f64>) -> Option<usize> {
    let mut range: Option<(f64, f64)> = None;
    for x in xs.filter(|x| x.is_finite()) {
        if x.fract() != 0.0 {
            return None;
        }
        let (lo, hi) = range.unwrap_or((x, x));
        range = Some((lo.min(x), hi.max(x)));
    }
    let (lo, hi) = range?;
    // A span past the tick count has whole steps of plotters' own choosing (2, 5, 10, ...).
    Some(((hi - lo).min(X_TICKS as f64) as usize) + 1)
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if lo == hi {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - pad, hi + pad);
    }
    (lo, hi)
}

fn draw(
    chart: &Chart,
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
) -> Result<(), String> {
    let points = || chart.series.iter().flat_map(|s| s.points.iter());
    let (x_lo, x_hi) = bounds(points().map(|p| p.0));
    let (_, y_hi) = bounds(points().map(|p| p.1));
    // Money and counts start at zero: a chart that does not is misleading in a review.
    // Headroom for the legend, which sits above the lines in the upper left.
    let headroom = if chart.series.len() > 1 { 1.3 } else { 1.08 };
    let y_hi = if y_hi <= 0.0 { 1.0 } else { y_hi * headroom };

    let mut ctx = frame(root, &chart.title, 96)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(text)?;
    let x_format = chart.x_format.as_deref().unwrap_or(&plain);
    let y_format = chart.y_format.as_deref().unwrap_or(&plain);
    // Whole-number x values (retries, layers, days) get whole ticks, each once: no more
    // ticks than values, and nothing written between two whole numbers.
    let whole = whole_axis(points().map(|p| p.0));
    let x_ticks = match whole {
        Some(values) => values.clamp(2, X_TICKS),
        None => X_TICKS,
    };
    house_style(&mut ctx.configure_mesh())
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_labels(x_ticks)
        .x_label_formatter(&|x| match whole {
            Some(_) if (x - x.round()).abs() > 1e-9 => String::new(),
            Some(_) => x_format(x.round()),
            None => x_format(*x),
        })
        .y_label_formatter(&|y| y_format(*y))
        .draw()
        .map_err(text)?;

    for (i, series) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        ctx.draw_series(LineSeries::new(
            series.points.iter().copied(),
            color.stroke_width(3),
        ))
        .map_err(text)?
        .label(series.name.as_str())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3)));
        ctx.draw_series(
            series
                .points
                .iter()
                .map(|&p| Circle::new(p, 3, color.filled())),
        )
        .map_err(text)?;
    }
    if let Some((x, y, label)) = &chart.marker {
        let ink = RGBColor(0x20, 0x20, 0x20);
        ctx.draw_series(std::iter::once(Circle::new(
            (*x, *y),
            7,
            ink.stroke_width(2),
        )))
        .map_err(text)?;
        // Above the point, and towards the middle, so the label neither covers the line
        // nor leaves the chart at its right edge.
        let (anchor, dx) = if *x > (x_lo + x_hi) / 2.0 {
            (HPos::Right, -10)
        } else {
            (HPos::Left, 10)
        };
        let font = ("sans-serif", 14)
            .into_font()
            .color(&ink)
            .pos(Pos::new(anchor, VPos::Bottom));
        ctx.draw_series(std::iter::once(
            EmptyElement::at((*x, *y)) + Text::new(label.clone(), (dx, -10), font),
        ))
        .map_err(text)?;
    }
    if chart.series.len() > 1 {
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 14).into_font().color(&BLACK))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(text)?;
    }
    Ok(())
}

/// A chart's frame, the same on every chart: its title, its margins, and label areas with
/// `y_labels` pixels on the left for the y axis's labels.
fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
    y_labels: u32,
) -> ChartBuilder<'a, 'static, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", 24).into_font().color(&BLACK))
        .margin(16)
        .margin_right(48)
        .x_label_area_size(48)
        .y_label_area_size(y_labels);
    builder
}

/// The axes' look, the same on every chart: dark labels, light grid lines.
fn house_style<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.label_style(("sans-serif", 14).into_font().color(&BLACK))
        .axis_desc_style(("sans-serif", 16).into_font().color(&BLACK))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xcc, 0xcc, 0xcc))
}

/// Plotters' errors borrow the backend; keep only their text.
fn text(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// The figure a sweep chart plots against the swept input (`--plot-y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SweepFigure {
    /// Duplicate charges a month, exact and rule of thumb
    Duplicates,
    /// Refunds a month, exact and rule of thumb
    Refunds,
    /// Customers without an answer a day, at the swept scenario's retries
    Unanswered,
    /// Extra attempts a day that the retries add
    ExtraAttempts,
    /// The key store's size in each backend (flat bytes, Redis, PostgreSQL)
    KeyStore,
    /// Duplicates a month left by a key store of the scenario's TTL, beside all duplicates
    KeyedDuplicates,
}

/// The chart of a sweep: `figure` against the swept input, one point per estimate.
pub fn sweep_chart(
    input: Input,
    estimates: &[Estimate],
    figure: SweepFigure,
    currency: &str,
) -> Chart {
    let x = |e: &Estimate| input.get(&e.inputs);
    let line = |name: &str, y: fn(&Estimate) -> f64| Series {
        name: name.to_string(),
        points: estimates.iter().map(|e| (x(e), y(e))).collect(),
    };
    // A legend names what its line holds fixed, or says that it follows the swept input.
    let fixed = estimates.first().map(|e| e.inputs);
    let unanswered = match fixed {
        Some(s) if input != Input::Retries => format!(
            "without an answer after {} {}",
            s.retries,
            if s.retries == 1 { "retry" } else { "retries" }
        ),
        _ => "without an answer after that many retries".to_string(),
    };
    let kept = match fixed {
        Some(s) if input != Input::Ttl => format!("with keys kept {}", Duration(s.ttl_seconds)),
        _ => "with keys kept that long".to_string(),
    };
    let (what, unit, series) = match figure {
        SweepFigure::Duplicates => (
            "Duplicate charges a month",
            "duplicates a month".to_string(),
            vec![
                line("exact", |e| e.duplicates.per_month),
                line("rule of thumb", |e| e.rule_of_thumb_per_month()),
            ],
        ),
        SweepFigure::Refunds => (
            "Refunds a month",
            format!("refunds a month ({currency})"),
            vec![
                line("exact", |e| e.refund_cost.per_month),
                line("rule of thumb", |e| e.rule_of_thumb_refund_per_month()),
            ],
        ),
        SweepFigure::Unanswered => (
            "Customers without an answer a day",
            "customers a day".to_string(),
            vec![
                line(&unanswered, |e| e.unanswered.per_day),
                line("of whom charged", |e| e.unanswered.charged_per_day),
            ],
        ),
        SweepFigure::ExtraAttempts => (
            "Extra attempts a day from retries",
            "attempts a day".to_string(),
            vec![line("extra attempts", |e| e.extra_attempts_per_day)],
        ),
        SweepFigure::KeyStore => (
            "Key-store size",
            "bytes".to_string(),
            vec![
                line("flat bytes a key", |e| e.key_store.by_store.bytes),
                line("Redis", |e| e.key_store.by_store.redis),
                line("PostgreSQL", |e| e.key_store.by_store.postgres),
            ],
        ),
        SweepFigure::KeyedDuplicates => (
            "Duplicates a month left by the key store",
            "duplicates a month".to_string(),
            vec![
                line("without a key store", |e| e.duplicates.per_month),
                line(&kept, |e| e.duplicates.with_key_store.per_month),
            ],
        ),
    };
    let y_format: Format = match figure {
        SweepFigure::KeyStore => Box::new(super::human::size),
        SweepFigure::Refunds => {
            let currency = currency.to_string();
            Box::new(move |v| super::human::money(v, &currency))
        }
        _ => Box::new(plain),
    };
    let x_unit = match input {
        Input::OrderValue => format!("{} ({currency})", input.label()),
        _ => input.label().to_string(),
    };
    Chart {
        title: format!("{what} against {}", input.label()),
        x_label: x_unit,
        y_label: unit,
        series,
        x_format: Some(input_ticks(input)),
        y_format: Some(y_format),
        marker: None,
    }
}

/// Tick labels of an input's axis, as the tables show the input (`1.8%`, `1d`, `20,000`):
/// plotters' ticks are computed, so `0.018000000000000002` must not print all its digits.
pub fn input_ticks(input: Input) -> Format {
    match input {
        Input::Ttl => Box::new(|v| Duration(v.round().max(0.0) as u64).to_string()),
        Input::KeySize | Input::KeyBytes | Input::BodyBytes => Box::new(super::human::size),
        Input::Retries | Input::Layers => Box::new(|v| format!("{v:.0}")),
        Input::OrderValue => Box::new(plain),
        _ => Box::new(move |v| super::words::input_value(input, v, "")),
    }
}

/// The chart of `dupcost logs --plot`: mutating requests a day above, and below, on their own
/// scale, the timeouts and the timeouts the server had in fact completed.
pub fn per_day_chart(days: &[DayRow]) -> Vec<Chart> {
    let dates: Vec<String> = days.iter().map(|d| d.date.clone()).collect();
    let date_at = move |x: f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            dates.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let series = |name: &str, y: &dyn Fn(&DayRow) -> Option<u64>| Series {
        name: name.to_string(),
        points: days
            .iter()
            .enumerate()
            .filter_map(|(i, d)| y(d).map(|v| (i as f64, v as f64)))
            .collect(),
    };
    let mut below = vec![series("timed out", &|d| Some(d.timed_out))];
    if days.iter().any(|d| d.timed_out_succeeded.is_some()) {
        below.push(series(
            "timed out, but the server completed it (upstream 2xx)",
            &|d| d.timed_out_succeeded,
        ));
    }
    vec![
        Chart {
            title: "Mutating requests a day".into(),
            x_label: "day (UTC)".into(),
            y_label: "requests a day".into(),
            series: vec![series("mutating requests", &|d| Some(d.mutating))],
            x_format: Some(Box::new(date_at.clone())),
            y_format: None,
            marker: None,
        },
        Chart {
            title: "Timeouts a day".into(),
            x_label: "day (UTC)".into(),
            y_label: "requests a day".into(),
            series: below,
            x_format: Some(Box::new(date_at)),
            y_format: None,
            marker: None,
        },
    ]
}

/// The maker of a line of one figure along `curve`: the curve's values of its input against
/// the figure of the estimate at each.
fn along(curve: &Curve) -> impl Fn(&str, fn(&Estimate) -> f64) -> Series + '_ {
    move |name: &str, y: fn(&Estimate) -> f64| Series {
        name: name.to_string(),
        points: curve.points.iter().map(|(x, e)| (*x, y(e))).collect(),
    }
}

/// Duplicate charges a month against retries, the scenario's own count marked.
pub fn duplicates_by_retries(e: &Estimate, curves: &Curves) -> Chart {
    let r = e.inputs.retries;
    let line = along(&curves.retries);
    Chart {
        title: "Duplicate charges a month against retries".into(),
        x_label: "retries".into(),
        y_label: "duplicates a month".into(),
        series: vec![
            line("exact", |e| e.duplicates.per_month),
            line("rule of thumb", |e| e.rule_of_thumb_per_month()),
        ],
        x_format: Some(input_ticks(Input::Retries)),
        y_format: Some(Box::new(plain)),
        marker: Some((
            f64::from(r),
            e.duplicates.per_month,
            format!("the scenario: {r}"),
        )),
    }
}

/// Refunds a month against the timeout rate, from 0 to twice the scenario's, which is marked.
pub fn refunds_by_timeout_rate(e: &Estimate, curves: &Curves, currency: &str) -> Chart {
    let line = along(&curves.timeout_rate);
    let symbol = currency.to_string();
    Chart {
        title: "Refunds a month against the timeout rate".into(),
        x_label: "timeout rate".into(),
        y_label: format!("refunds a month ({currency})"),
        series: vec![
            line("exact", |e| e.refund_cost.per_month),
            line("rule of thumb", |e| e.rule_of_thumb_refund_per_month()),
        ],
        x_format: Some(input_ticks(Input::TimeoutRate)),
        y_format: Some(Box::new(move |v| super::human::money(v, &symbol))),
        marker: Some((
            e.inputs.timeout_rate,
            e.refund_cost.per_month,
            format!("the scenario: {}", Rate(e.inputs.timeout_rate).rounded()),
        )),
    }
}

/// Duplicate charges a month left by the key store against its TTL, over the TTLs of the
/// curve (to twice the retry horizon): where a TTL stops being long enough. The scenario's
/// TTL is marked when it is on the chart.
pub fn duplicates_by_ttl(e: &Estimate, curves: &Curves) -> Chart {
    let ttl = e.inputs.ttl_seconds as f64;
    let top = curves.ttl.points.last().map_or(0.0, |(x, _)| *x);
    let line = along(&curves.ttl);
    Chart {
        title: "Duplicate charges a month left by the key store against its TTL".into(),
        x_label: "key TTL".into(),
        y_label: "duplicates a month".into(),
        series: vec![
            line("with keys kept that long", |e| {
                e.duplicates.with_key_store.per_month
            }),
            line("without a key store", |e| e.duplicates.per_month),
        ],
        x_format: Some(input_ticks(Input::Ttl)),
        y_format: Some(Box::new(plain)),
        marker: (ttl <= top).then(|| {
            (
                ttl,
                e.duplicates.with_key_store.per_month,
                format!("the scenario: {}", Duration(e.inputs.ttl_seconds)),
            )
        }),
    }
}

/// The timeout rate of each day of a log, against the whole log's rate; days without
/// mutating requests have no rate and no point.
pub fn timeout_rate_per_day(days: &[DayRow]) -> Chart {
    let dates: Vec<String> = days.iter().map(|d| d.date.clone()).collect();
    let rate = |timed_out: u64, mutating: u64| timed_out as f64 / mutating as f64;
    let daily: Vec<(f64, f64)> = days
        .iter()
        .enumerate()
        .filter(|(_, d)| d.mutating > 0)
        .map(|(i, d)| (i as f64, rate(d.timed_out, d.mutating)))
        .collect();
    let (timed_out, mutating) = days
        .iter()
        .fold((0, 0), |(t, m), d| (t + d.timed_out, m + d.mutating));
    let mut series = vec![Series {
        name: "timeout rate of the day".into(),
        points: daily,
    }];
    if mutating > 0 && days.len() > 1 {
        let whole = rate(timed_out, mutating);
        series.push(Series {
            name: format!("whole log: {}", Rate(whole).rounded()),
            points: vec![(0.0, whole), ((days.len() - 1) as f64, whole)],
        });
    }
    Chart {
        title: "Timeout rate a day".into(),
        x_label: "day (UTC)".into(),
        y_label: "timed-out share of mutating requests".into(),
        series,
        x_format: Some(Box::new(move |x| date_tick(&dates, x))),
        y_format: Some(Box::new(|v| Rate(v).rounded())),
        marker: None,
    }
}

/// The date of a day's index, or nothing between days.
fn date_tick(dates: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        dates.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// A horizontal bar chart: one labelled bar per item, the first on top.
pub struct Bars {
    pub title: String,
    /// What the bars measure (the horizontal axis).
    pub value_label: String,
    pub items: Vec<(String, f64)>,
    pub value_format: Format,
}

/// Labels longer than this are cut, so the bars keep their room.
const BAR_LABEL_CHARS: usize = 34;

/// Refunds a month per endpoint, most costly on top: where a key pays first.
pub fn cost_per_endpoint(endpoints: &[EndpointRow], currency: &str) -> Bars {
    let symbol = currency.to_string();
    Bars {
        title: "Refunds a month per endpoint".into(),
        value_label: format!("refunds a month ({currency})"),
        items: endpoints
            .iter()
            .map(|p| (format!("{} {}", p.method, p.route), p.refund_per_month))
            .collect(),
        value_format: Box::new(move |v| super::human::money(v, &symbol)),
    }
}

/// Renders a bar chart as one SVG document.
pub fn render_bars(bars: &Bars) -> Result<String, String> {
    let n = bars.items.len().max(1);
    let height = (160 + 44 * n as u32).max(HEIGHT / 2);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        draw_bars(bars, &root, n).map_err(|e| format!("drawing the chart: {e}"))?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

fn draw_bars(
    bars: &Bars,
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    n: usize,
) -> Result<(), String> {
    let (_, hi) = bounds(bars.items.iter().map(|(_, v)| *v));
    let hi = if hi <= 0.0 { 1.0 } else { hi * 1.08 };
    let labels: Vec<String> = bars
        .items
        .iter()
        .map(
            |(label, _)| match label.char_indices().nth(BAR_LABEL_CHARS) {
                Some((cut, _)) => format!("{}…", &label[..cut]),
                None => label.clone(),
            },
        )
        .collect();
    // Item i is centred on row n-1-i, so the first item is on top; rows are whole numbers
    // and every other tick is left blank.
    let row_of = |i: usize| (n - 1 - i) as f64;
    let label_of = |y: &f64| {
        let row = y.round();
        if (y - row).abs() > 1e-6 || row < 0.0 || row >= n as f64 {
            return String::new();
        }
        labels
            .get(n - 1 - row as usize)
            .cloned()
            .unwrap_or_default()
    };
    let mut ctx = frame(root, &bars.title, 300)
        .build_cartesian_2d(0.0..hi, -0.5..(n as f64 - 0.5))
        .map_err(text)?;
    house_style(&mut ctx.configure_mesh())
        .disable_y_mesh()
        .x_desc(bars.value_label.as_str())
        .x_label_formatter(&|x| (bars.value_format)(*x))
        .y_label_formatter(&label_of)
        .y_labels(n + 1)
        .draw()
        .map_err(text)?;
    let color = PALETTE[0];
    ctx.draw_series(bars.items.iter().enumerate().map(|(i, (_, v))| {
        let row = row_of(i);
        Rectangle::new([(0.0, row - 0.35), (*v, row + 0.35)], color.filled())
    }))
    .map_err(text)?;
    Ok(())
}

/// Axis ticks: whole numbers as they are (`50`, `1,200`), others to 3 significant figures.
fn plain(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        super::human::group_thousands(&format!("{v:.0}"))
    } else {
        super::human::count(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_series_titles_and_labels() {
        let chart = Chart {
            title: "Duplicate charges a month".into(),
            x_label: "retries".into(),
            y_label: "duplicates a month".into(),
            series: vec![
                Series {
                    name: "exact".into(),
                    points: vec![(0.0, 0.0), (1.0, 599.4), (2.0, 601.0)],
                },
                Series {
                    name: "rule of thumb".into(),
                    points: vec![(0.0, 0.0), (1.0, 600.0), (2.0, 600.0)],
                },
            ],
            x_format: None,
            y_format: None,
            marker: Some((1.0, 599.4, "current".into())),
        };
        let svg = render(&[chart]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        for needle in [
            "Duplicate charges a month",
            "retries",
            "duplicates a month",
            "rule of thumb",
            "<polyline",
            "current",
        ] {
            assert!(svg.contains(needle), "{needle}");
        }
    }

    /// The TTL chart spans the retry horizon: keys kept past it leave no duplicate, and the
    /// scenario's TTL, when near, is marked.
    #[test]
    fn the_ttl_chart_spans_the_retry_horizon() {
        let e = Estimate::new(crate::model::Scenario {
            ttl_seconds: 30,
            ..crate::model::Scenario::default()
        });
        let chart = duplicates_by_ttl(&e, &Curves::of(&e));
        let left = &chart.series[0].points;
        let horizon = e.retry_horizon_seconds;
        assert_eq!(left.first().map(|p| p.0), Some(0.0));
        assert!(left.last().unwrap().0 >= 2.0 * horizon, "{left:?}");
        assert!(
            left.iter().any(|p| p.1 > 0.0),
            "short TTLs leave duplicates"
        );
        assert!(
            left.iter().filter(|p| p.0 > horizon).all(|p| p.1 == 0.0),
            "{left:?}"
        );
        assert_eq!(chart.marker.as_ref().map(|m| m.0), Some(30.0));
        let far = Estimate::new(crate::model::Scenario::default());
        assert!(
            duplicates_by_ttl(&far, &Curves::of(&far)).marker.is_none(),
            "1d is far past 2 x 47s"
        );
    }

    #[test]
    fn degenerate_data_still_renders() {
        for points in [vec![], vec![(1.0, 0.0)], vec![(f64::NAN, 1.0)]] {
            let chart = Chart {
                title: "t".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                series: vec![Series {
                    name: "s".into(),
                    points,
                }],
                x_format: None,
                y_format: None,
                marker: None,
            };
            render(&[chart]).unwrap();
        }
    }
}
