//! `--plot FILE.svg|DIR`: one chart to a file, or the report's charts to a directory, under
//! fixed names that `--format markdown` links to.

use std::path::Path;

use crate::error::{Error, Result};
use crate::report::markdown::ChartLink;
use crate::report::svg::{self, Bars, Chart};

/// One chart of a `--plot` directory.
pub enum Plot {
    Lines(Chart),
    Bars(Bars),
}

impl Plot {
    fn title(&self) -> &str {
        match self {
            Plot::Lines(chart) => &chart.title,
            Plot::Bars(bars) => &bars.title,
        }
    }

    fn render(&self) -> Result<String> {
        match self {
            Plot::Lines(chart) => svg::render(std::slice::from_ref(chart)),
            Plot::Bars(bars) => svg::render_bars(bars),
        }
        .map_err(Error::Failure)
    }
}

/// Whether `--plot` names one SVG file (it ends in `.svg`) rather than a directory.
pub fn is_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("svg"))
}

/// Writes charts stacked into one SVG file.
pub fn write_file(path: &Path, charts: &[Chart]) -> Result<()> {
    let svg = svg::render(charts).map_err(Error::Failure)?;
    std::fs::write(path, svg).map_err(|e| Error::Usage(format!("--plot {}: {e}", path.display())))
}

/// Writes each `(file name, chart)` into `dir` (created if missing) and returns the links
/// a markdown report puts to them: the directory as given, then the name.
pub fn write_dir(dir: &Path, plots: &[(&str, Plot)]) -> Result<Vec<ChartLink>> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| Error::Usage(format!("--plot {shown}: {e}")))?;
    let mut links = Vec::new();
    for (name, plot) in plots {
        let path = dir.join(name);
        std::fs::write(&path, plot.render()?)
            .map_err(|e| Error::Usage(format!("--plot {}: {e}", path.display())))?;
        let base = shown.to_string();
        links.push(ChartLink {
            title: plot.title().to_string(),
            href: format!("{}/{name}", base.trim_end_matches(['/', '\\'])),
        });
    }
    Ok(links)
}

/// The charts of one estimate, by file name.
pub fn estimate_plots(
    estimate: &crate::model::Estimate,
    currency: &str,
) -> Vec<(&'static str, Plot)> {
    vec![
        (
            "duplicates-by-retries.svg",
            Plot::Lines(svg::duplicates_by_retries(estimate)),
        ),
        (
            "refunds-by-timeout-rate.svg",
            Plot::Lines(svg::refunds_by_timeout_rate(estimate, currency)),
        ),
    ]
}
