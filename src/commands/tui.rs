//! `dupcost tui`: the explorer, started on the scenario the flags describe.

use crate::cli::TuiArgs;
use crate::error::{Error, Result};
use crate::report::Style;
use crate::tui::{self, App};

/// Resolves the starting scenario and runs the explorer; prints nothing.
pub fn run(args: &TuiArgs, color: bool) -> Result<Vec<u8>> {
    let scenario = args.scenario.resolve().map_err(Error::Usage)?;
    let style = Style {
        currency: args.currency.clone(),
        color,
    };
    let app = App::new(scenario, args.save_to.clone(), style);
    tui::run(app, !args.no_mouse)?;
    Ok(Vec::new())
}
