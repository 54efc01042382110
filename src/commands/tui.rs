//! `dupcost tui`: the explorer, started on the scenario the flags describe, or on what the
//! logs measured (`--logs`, read before the terminal is touched).

use crate::cli::TuiArgs;
use crate::error::{Error, Result};
use crate::report::Style;
use crate::tui::endpoints::LogView;
use crate::tui::{self, App};

/// Resolves the starting scenario and runs the explorer; prints nothing.
pub fn run(args: &TuiArgs, color: bool) -> Result<Vec<u8>> {
    let style = Style {
        currency: args.currency.clone(),
        color,
    };
    let app = if args.from_logs.is_empty() {
        let scenario = args.scenario.resolve().map_err(Error::Usage)?;
        App::new(scenario, args.save_to.clone(), style)
    } else {
        let (_, derived) = super::logs::measure(&args.from_logs, &args.read, &args.scenario)?;
        let names: Vec<String> = args
            .from_logs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let view = LogView::new(&derived, names.join(", "));
        App::new(derived.scenario, args.save_to.clone(), style).with_logs(view)
    };
    let app = match args.scenario.preset {
        Some(preset) => app.with_preset(preset.name),
        None => app,
    };
    tui::run(app, !args.no_mouse)?;
    Ok(Vec::new())
}
