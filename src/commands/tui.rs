//! `dupcost tui`: the explorer, started on the scenario the flags describe, or on what the
//! logs measured (`--logs`, read before the terminal is touched), live with `--follow`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::cli::TuiArgs;
use crate::error::{Error, Result};
use crate::logs;
use crate::run::{Explorer, LogSource, Logs, Run};
use crate::tui::endpoints::{Live, LiveUpdate, LogView};
use crate::tui::{self, App};

/// Resolves the starting scenario and runs the explorer; prints nothing.
pub fn run(args: &TuiArgs, color: bool) -> Result<Vec<u8>> {
    let run = crate::run::resolve::tui(args, color)?;
    let explorer = run
        .explorer
        .clone()
        .ok_or_else(|| Error::Failure("the explorer's options were not resolved".into()))?;
    let save_to = explorer.save_to.clone();
    let app = match &run.logs {
        Some(logs) if logs.follow.is_some() => return run_follow(explorer, run),
        None => App::new(run.scenario, save_to, run.style.clone()).with_sources(run.sources),
        Some(logs) => {
            let (_, derived) = crate::run::measure_logs(&run)?;
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

/// `--logs FILE --follow`: the logs are followed on a thread of their own, which measures
/// them on every tick that brought rows and sends the measurement to the explorer. The first
/// measurement (or the logs' error) comes before the terminal is touched.
fn run_follow(explorer: Explorer, run: Run) -> Result<Vec<u8>> {
    let Some(Logs {
        source: LogSource::Files(sources),
        options,
        notes,
        follow: Some(follow),
        names: source,
        ..
    }) = run.logs.clone()
    else {
        return Err(Error::Usage(
            "--follow follows the logs of --logs FILE: give the log to follow".into(),
        ));
    };
    for note in &notes {
        eprintln!("warning: {note}");
    }
    let (base, style) = (run.scenario, run.style.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<LiveUpdate>();
    let (err_tx, err_rx) = mpsc::channel::<logs::LogError>();
    {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut rows_came = true;
            let result = logs::follow(&sources, &options, &follow, &stop, |tick| {
                // Nothing new since a tick that also brought nothing: nothing to send.
                let now = tick.new_rows > 0 || tick.number == 1;
                if !now && !rows_came {
                    return true;
                }
                rows_came = now;
                let m = crate::run::measure_tick(&tick, &run);
                let live = Live {
                    source: source.clone(),
                    rows_read: tick.rows_read,
                    rows_per_second: tick.rows_per_second,
                    window: follow
                        .window
                        .map(|w| humantime::format_duration(w).to_string()),
                    last_line: m.state.last_line_time.clone(),
                    waiting: m.state.waiting.clone(),
                };
                tx.send(LiveUpdate {
                    derived: m.derived,
                    live,
                })
                .is_ok()
            });
            if let Err(e) = result {
                let _ = err_tx.send(e);
            }
        });
    }
    let first = loop {
        if let Ok(e) = err_rx.try_recv() {
            return Err(e.into());
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(update) => break update,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if let Ok(e) = err_rx.try_recv() {
                    return Err(Error::Usage(e.to_string()));
                }
                return Err(Error::Failure("the log follower stopped".into()));
            }
        }
    };
    let mut app = App::new(base, explorer.save_to, style);
    app.follow_update(first);
    let result = tui::run_live(app, explorer.mouse, Some(rx));
    stop.store(true, Ordering::Relaxed);
    result?;
    Ok(Vec::new())
}
