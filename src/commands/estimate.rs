//! `dupcost estimate`: the model run from flags, once or over a sweep.

use crate::cli::EstimateArgs;
use crate::error::Result;
use crate::report::output;
use crate::run::{measure_logs, model, resolve};

/// Runs the estimate (or the sweep) and renders it in the chosen format.
pub fn run(args: &EstimateArgs, color: bool) -> Result<Vec<u8>> {
    let run = resolve::estimate(args, color)?;
    let (out, style, sources) = (&run.output, &run.style, &run.sources);
    if run.logs.is_some() {
        // `--observed FILE`: the report of `dupcost logs`, from an engine's result of
        // `dupcost sql`. No file was read as a log: the warnings say where the figures come from.
        let (analysis, derived) = measure_logs(&run)?;
        let (estimate, curves) = model(&run, derived.scenario);
        let methods = &analysis.options.methods;
        return output::write_logs(
            out,
            style,
            &derived,
            &estimate,
            curves.as_ref(),
            &[],
            methods,
        );
    }
    match &run.sweep {
        None => {
            let (estimate, curves) = model(&run, run.scenario);
            output::write_estimate(out, style, &estimate, curves.as_ref(), sources)
        }
        Some(sweep) => {
            let estimates = sweep.run(&run.scenario);
            output::write_sweep(out, style, sweep.input, &estimates, sources)
        }
    }
}
