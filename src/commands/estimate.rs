//! `dupcost estimate`: the model run from flags, once or over a sweep.

use crate::cli::{EstimateArgs, Format};
use crate::error::{Error, Result};
use crate::model::Estimate;
use crate::report::{self, Style};

/// Runs the estimate (or the sweep) and renders it in the chosen format.
pub fn run(args: &EstimateArgs, color: bool) -> Result<Vec<u8>> {
    let scenario = args.scenario.resolve().map_err(Error::Usage)?;
    let style = Style {
        currency: args.output.currency.clone(),
        color,
    };
    let bytes = match &args.sweep {
        None => {
            let estimate = Estimate::new(scenario);
            match args.output.format {
                Format::Table => report::table::estimate(&estimate, &style),
                Format::Json => report::json::estimate(&estimate),
                Format::Csv => report::csv::estimates(&[estimate], &[]),
            }
        }
        Some(sweep) => {
            let estimates = sweep.run(&scenario);
            if let Some(path) = &args.plot {
                let chart =
                    report::svg::sweep_chart(sweep.input, &estimates, args.plot_y, &style.currency);
                write_plot(path, &[chart])?;
            }
            match args.output.format {
                Format::Table => report::table::sweep(sweep.input, &estimates, &style),
                Format::Json => report::json::sweep(&estimates),
                Format::Csv => report::csv::estimates(&estimates, &[]),
            }
        }
    };
    Ok(bytes)
}

/// Writes an SVG chart to `path`.
pub fn write_plot(path: &std::path::Path, charts: &[report::svg::Chart]) -> Result<()> {
    let svg = report::svg::render(charts).map_err(Error::Failure)?;
    std::fs::write(path, svg).map_err(|e| Error::Usage(format!("--plot {}: {e}", path.display())))
}
