//! `dupcost logs FILE...`: the inputs measured from access logs, then the estimate.

use crate::cli::LogArgs;
use crate::error::Result;
use crate::run::{measure_logs, resolve};

use super::shared;

/// Reads the logs, derives the scenario, and renders the report.
pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    let resolved = resolve::logs(args, color)?;
    let (analysis, derived) = measure_logs(&resolved)?;
    shared::report(
        &resolved,
        &derived,
        &analysis.files,
        &analysis.options.methods,
    )
}
