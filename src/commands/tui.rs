//! `dupcost tui`: the explorer, started on the scenario the flags describe, or on what the
//! logs measured (`--logs`, read before the terminal is touched), live with `--follow`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::TuiArgs;
use crate::error::{Error, Result};
use crate::run::{Logs, follow_on_thread, measure_logs, resolve};
use crate::tui::endpoints::{Live, LiveUpdate, LogView};
use crate::tui::{self, App};

/// Resolves the starting scenario and runs the explorer; prints nothing.
///
/// With `--logs FILE --follow`, the logs are followed on a thread of their own, which
/// measures them on every tick that brought rows and sends the measurement to the explorer;
/// the first measurement (or the logs' error) comes before the terminal is touched.
pub fn run(args: &TuiArgs, color: bool) -> Result<Vec<u8>> {
    let run = resolve::tui(args, color)?;
    let explorer = run
        .explorer
        .clone()
        .ok_or_else(|| Error::Failure("the explorer's options were not resolved".into()))?;
    let save_to = explorer.save_to.clone();
    let app = match &run.logs {
        Some(Logs {
            follow: Some(follow),
            names,
            ..
        }) => {
            let source = names.clone();
            let window = follow
                .window
                .map(|w| humantime::format_duration(w).to_string());
            let stop = Arc::new(AtomicBool::new(false));
            let (first, updates) = follow_on_thread(&run, &stop, move |m| LiveUpdate {
                live: Live {
                    source: source.clone(),
                    rows_read: m.state.rows_read,
                    rows_per_second: m.state.rows_per_second,
                    window: window.clone(),
                    last_line: m.state.last_line_time.clone(),
                    waiting: m.state.waiting.clone(),
                },
                derived: m.derived,
            })?;
            let mut app = App::new(run.scenario, save_to, run.style.clone());
            app.follow_update(first);
            let result = tui::run_live(app, explorer.mouse, Some(updates));
            stop.store(true, Ordering::Relaxed);
            result?;
            return Ok(Vec::new());
        }
        None => App::new(run.scenario, save_to, run.style.clone()).with_sources(run.sources),
        Some(logs) => {
            let (_, derived) = measure_logs(&run)?;
            let view = LogView::new(&derived, logs.names.clone());
            App::new(derived.scenario, save_to, run.style.clone()).with_logs(view)
        }
    };
    let app = match run.preset {
        Some(preset) => app.with_preset(preset.name),
        None => app,
    };
    tui::run(app, explorer.mouse)?;
    Ok(Vec::new())
}
