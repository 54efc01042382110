//! `dupcost tui`: the explorer, started on the scenario the flags describe.

use crate::cli::TuiArgs;
use crate::error::{Error, Result};
use crate::report::Style;
use crate::tui::{self, App};

/// Resolves the starting scenario and runs the explorer; prints nothing.
pub fn run(args: &TuiArgs, color: bool) -> Result<Vec<u8>> {
    let scenario = if args.from_logs.is_empty() {
        args.scenario.resolve().map_err(Error::Usage)?
    } else {
        super::logs::measure(&args.from_logs, &args.read, &args.scenario)?
            .1
            .scenario
    };
    let style = Style {
        currency: args.currency.clone(),
        color,
    };
    let app = App::new(scenario, args.save_to.clone(), style);
    tui::run(app, !args.no_mouse)?;
    Ok(Vec::new())
}
