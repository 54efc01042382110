//! `dupcost logs FILE...`: the inputs measured from access logs, then the estimate.

use crate::cli::LogArgs;
use crate::error::Result;
use crate::report::output;
use crate::run::{measure_logs, model, resolve};

/// Reads the logs, derives the scenario, and renders the report.
pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    let run = resolve::logs(args, color)?;
    let (analysis, derived) = measure_logs(&run)?;
    let (estimate, curves) = model(&run, derived.scenario);
    output::write_logs(
        &run.output,
        &run.style,
        &derived,
        &estimate,
        curves.as_ref(),
        &analysis.files,
        &analysis.options.methods,
    )
}
