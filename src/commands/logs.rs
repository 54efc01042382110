//! `dupcost logs FILE...`: the inputs measured from access logs, then the estimate.

use crate::cli::LogArgs;
use crate::error::{Error, Result};
use crate::inputs;
use crate::model::Estimate;
use crate::report::{self, Style};

use super::plot;
use super::shared;

/// Reads the logs, derives the scenario, and renders the report.
pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    plot::check(args.plot.as_deref())?;
    let (analysis, derived) = shared::measure(&args.files, &args.read, &args.scenario)?;
    let estimate = Estimate::new(derived.scenario);
    let style = Style {
        currency: args.output.currency(&args.scenario),
        color,
        preset: args.scenario.preset_trace(),
        sources: None,
    };
    let charts = match &args.plot {
        Some(path) if plot::is_file(path) => {
            plot::write_file(path, &report::svg::per_day_chart(&derived.observed.per_day))?;
            Vec::new()
        }
        Some(dir) => plot::write_dir(
            dir,
            &shared::logs_plots(&estimate, &derived, &style.currency),
        )?,
        None => Vec::new(),
    };
    if let Some(path) = &args.save_scenario {
        std::fs::write(path, inputs::to_scenario_json(&derived.scenario))
            .map_err(|e| Error::Usage(format!("--save-scenario {}: {e}", path.display())))?;
    }
    shared::render(
        args.output.format,
        &estimate,
        &derived,
        (&analysis.files, &analysis.options.methods),
        &style,
        &charts,
    )
}
