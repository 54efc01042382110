//! SVG line charts for documents (`--plot FILE.svg`): an opaque white card with dark ink, so
//! they read the same in light and dark viewers.

use plotters::prelude::*;

use crate::inputs::Input;
use crate::logs::derive::DayRow;
use crate::model::Estimate;
use crate::units::{Duration, Rate, Seconds};

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

    let mut ctx = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 24).into_font().color(&BLACK))
        .margin(16)
        .margin_right(48)
        .x_label_area_size(48)
        .y_label_area_size(96)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(text)?;
    let x_format = chart.x_format.as_deref().unwrap_or(&plain);
    let y_format = chart.y_format.as_deref().unwrap_or(&plain);
    ctx.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_label_formatter(&|x| x_format(*x))
        .y_label_formatter(&|y| y_format(*y))
        .label_style(("sans-serif", 14).into_font().color(&BLACK))
        .axis_desc_style(("sans-serif", 16).into_font().color(&BLACK))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xcc, 0xcc, 0xcc))
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
        ctx.draw_series(std::iter::once(Text::new(
            label.clone(),
            (*x, *y),
            ("sans-serif", 14).into_font().color(&ink),
        )))
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
                line("at the scenario's retries", |e| e.unanswered.per_day),
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
                line("with a key store of the TTL", |e| {
                    e.duplicates.with_key_store.per_month
                }),
            ],
        ),
    };
    let x_format: fn(f64) -> String = match input {
        Input::TimeoutRate | Input::SucceededShare => |v| Rate(v).to_string(),
        Input::Ttl => |v| Duration(v.round().max(0.0) as u64).to_string(),
        Input::KeySize => super::human::size,
        Input::Retries | Input::Layers => |v| format!("{v:.0}"),
        Input::KeyBytes | Input::BodyBytes => super::human::size,
        Input::AttemptTimeout | Input::Backoff | Input::BackoffMax => |v| Seconds(v).rounded(),
        Input::Jitter => |v| Input::Jitter.display(v),
        Input::Store => |v| Input::Store.display(v),
        Input::RequestsPerDay | Input::OrderValue | Input::DaysPerMonth | Input::BackoffFactor => {
            plain
        }
    };
    let y_format: fn(f64) -> String = if figure == SweepFigure::KeyStore {
        super::human::size
    } else {
        plain
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
        x_format: Some(Box::new(x_format)),
        y_format: Some(Box::new(y_format)),
        marker: None,
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
