//! `dupcost logs FILE... --follow`: a report on every tick while the log grows.
//!
//! On a terminal (and `--format table`) each report is redrawn in place, its lines that
//! changed since the last one marked with `*`. Piped, or with `--format json`, each report is
//! one line of JSON: the report of `logs --format json` with a `follow` object added. Ctrl-C
//! (or SIGTERM) ends with a last complete report and exit 0; a second Ctrl-C exits at once.
//! With `--metrics ADDR`, each report is published as metrics for `GET /metrics`
//! ([`crate::serve`]) instead of written on stdout.

use std::io::{self, IsTerminal, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cli::{Format, LogArgs};
use crate::error::{Error, Result};
use crate::logs::{self, Tick};
use crate::model::Estimate;
use crate::report::metrics::{Exposition, FollowFigures};
use crate::report::model::LogsReport;
use crate::report::words::{count, plural, seconds_text};
use crate::report::{self, Style};
use crate::serve::MetricsServer;

use crate::run::{self, LogSource, Logs, Measured, measure_tick};

pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    let run = run::resolve::logs(args, color)?;
    let format = run.output.format;
    if matches!(format, Format::Csv | Format::Markdown | Format::Html) {
        return Err(Error::Usage(
            "--follow writes a table on a terminal or JSON lines (--format json); not csv, markdown or html".into(),
        ));
    }
    if run.output.plot.is_some() || run.output.save_scenario.is_some() {
        return Err(Error::Usage(
            "--plot and --save-scenario write a finished log's figures: run dupcost logs without --follow".into(),
        ));
    }
    let Some(
        logs @ Logs {
            source: LogSource::Files(sources),
            follow: Some(follow),
            ..
        },
    ) = &run.logs
    else {
        return Err(Error::Usage(
            "--follow follows log files: give the log to follow".into(),
        ));
    };
    // What the resolution changed in reading, said once; each report carries it too.
    for note in &logs.notes {
        eprintln!("warning: {note}");
    }
    let stop = stop_on_signals()?;
    let terminal = format == Format::Table && io::stdout().is_terminal();
    let style = &run.style;
    let metrics = match run.output.metrics {
        Some(addr) => Some(serve_metrics(addr, follow)?),
        None => None,
    };
    let mut previous: Vec<String> = Vec::new();
    let mut warned = 0usize;
    let mut broken = false;
    let result = logs::follow(sources, &logs.options, follow, &stop, |tick| {
        // The examples of bad rows, once each.
        for bad in tick.analysis.tally.bad_samples.iter().skip(warned) {
            eprintln!("warning: skipped bad row {bad}");
        }
        warned = warned.max(tick.analysis.tally.bad_samples.len());
        let measured = measure_tick(&tick, &run);
        if let Some(server) = &metrics {
            server.publish(exposition(&measured, tick.rows_read, &style.currency));
            return true;
        }
        let bytes = if terminal {
            let (bytes, lines) = table(&tick, &measured, &previous, style);
            previous = lines;
            bytes
        } else {
            json_line(&measured)
        };
        let mut out = io::stdout().lock();
        match out.write_all(&bytes).and_then(|()| out.flush()) {
            Ok(()) => true,
            Err(_) => {
                // The reader went away (`| head -1`): stop quietly.
                broken = true;
                false
            }
        }
    });
    match result {
        Ok(()) => Ok(Vec::new()),
        Err(_) if broken => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

/// `--metrics ADDR`: listening, and said on stderr (with the port a `:0` was given).
fn serve_metrics(addr: SocketAddr, follow: &logs::FollowOptions) -> Result<MetricsServer> {
    let first = Exposition::new(
        None,
        FollowFigures {
            rows_read: 0,
            window_seconds: follow.window.map(|w| w.as_secs_f64()),
        },
        "",
    );
    let server = MetricsServer::start(addr, first)
        .map_err(|e| Error::Usage(format!("--metrics {addr}: cannot listen there ({e})")))?;
    eprintln!(
        "serving metrics at http://{}{}",
        server.local_addr(),
        crate::serve::PATH
    );
    Ok(server)
}

/// One tick as metrics: the figures of the report `json_line` writes.
pub fn exposition(m: &Measured, rows_read: u64, currency: &str) -> Exposition {
    let follow = FollowFigures {
        rows_read,
        window_seconds: m.state.window_seconds,
    };
    match &m.derived {
        Some(d) => {
            let estimate = Estimate::new(d.scenario);
            let report = LogsReport::new(&estimate, d, &Style::default());
            Exposition::new(Some(&report), follow, currency.trim())
        }
        None => Exposition::new(None, follow, currency.trim()),
    }
}

/// A flag set by SIGINT or SIGTERM; a second one exits at once (code 130).
pub fn stop_on_signals() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&stop)))
            .map_err(|e| Error::Failure(format!("could not catch Ctrl-C: {e}")))?;
    }
    Ok(stop)
}

/// One report as one line of JSON: `logs --format json`'s object and `follow`.
pub fn json_line(m: &Measured) -> Vec<u8> {
    // The report's JSON is read back to add `follow`: serde_json's `float_roundtrip` makes
    // that exact, so a line's figures equal the batch report's to the last bit.
    let mut value = match &m.derived {
        Some(d) => {
            let estimate = Estimate::new(d.scenario);
            let bytes = report::json::logs(&LogsReport::new(&estimate, d, &Style::default()));
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|_| serde_json::json!({}))
        }
        None => serde_json::json!({}),
    };
    if let Some(object) = value.as_object_mut() {
        object.insert(
            "follow".into(),
            serde_json::to_value(&m.state).unwrap_or_default(),
        );
    }
    let mut line = serde_json::to_vec(&value).unwrap_or_default();
    line.push(b'\n');
    line
}

/// The report for a terminal: the screen cleared, the follower's lines, then `logs`' table,
/// each line that differs from the previous report's marked with `*`. Returns the bytes and
/// the unmarked lines, to compare the next report with.
fn table(tick: &Tick, m: &Measured, previous: &[String], style: &Style) -> (Vec<u8>, Vec<String>) {
    let s = &m.state;
    let names: Vec<&str> = tick
        .analysis
        .files
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    let mut lines = vec![format!(
        "Following {}: report {}{} (every {}; Ctrl-C ends)",
        names.join(", "),
        s.report,
        if s.last { ", the last" } else { "" },
        humantime::format_duration(Duration::from_secs_f64(s.every_seconds)),
    )];
    lines.push(format!(
        "  {} read (+{} since the last report, {} rows/s); last line {}",
        plural(s.rows_read, "row"),
        count(s.new_rows),
        count(s.rows_per_second.round() as u64),
        s.last_line_time.as_deref().unwrap_or("without a timestamp"),
    ));
    if let Some(w) = s.window_seconds {
        lines.push(format!(
            "  window: the last {} of log time (these rows span {})",
            seconds_text(w),
            s.span_seconds.map_or("no time".into(), seconds_text)
        ));
    }
    if s.rotations + s.truncations > 0 {
        lines.push(format!(
            "  rotated {}, truncated {} (lines written just before a truncation are only in its copy)",
            plural(s.rotations, "time"),
            plural(s.truncations, "time")
        ));
    }
    lines.push(String::new());
    match (&m.derived, &s.waiting) {
        (Some(d), _) => {
            let estimate = Estimate::new(d.scenario);
            let style = Style {
                color: false,
                ..style.clone()
            };
            let body = report::table::logs::table(
                &LogsReport::new(&estimate, d, &style),
                &tick.analysis.files,
                &tick.analysis.options.methods,
                &style,
            );
            lines.extend(String::from_utf8_lossy(&body).lines().map(str::to_string));
        }
        (None, Some(why)) => lines.push(format!("Waiting for more of the log: {why}")),
        (None, None) => {}
    }
    let mut out = String::new();
    if !s.last || s.report > 1 {
        // Home and clear: the new report replaces the last one.
        out.push_str("\x1b[H\x1b[2J");
    }
    let bold = anstyle::Style::new().bold();
    // A report taller than the terminal would scroll its top away: cut it to the screen,
    // except the last, which stays in the scrollback whole.
    let (width, height) = ratatui::crossterm::terminal::size()
        .map_or((usize::MAX, usize::MAX), |(w, h)| {
            (usize::from(w), usize::from(h))
        });
    // A line wider than the terminal would wrap and push the top off the screen: cut it
    // (the last report is printed whole).
    let fit = |line: &str| -> String {
        let room = width.saturating_sub(3);
        if s.last || line.chars().count() <= room + 1 {
            line.to_string()
        } else {
            let cut: String = line.chars().take(room).collect();
            format!("{cut}…")
        }
    };
    let room = height.saturating_sub(2).max(8);
    let shown = if s.last || lines.len() <= room {
        lines.len()
    } else {
        room - 1
    };
    for (i, full) in lines.iter().enumerate().take(shown) {
        let changed = previous.len() > 1 && previous.get(i) != Some(full) && !full.is_empty();
        let line = fit(full);
        if changed && style.color {
            out.push_str(&format!(
                "* {}{line}{}\n",
                bold.render(),
                bold.render_reset()
            ));
        } else if changed {
            out.push_str(&format!("* {line}\n"));
        } else {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if shown < lines.len() {
        out.push_str(&format!(
            "  ... {} more lines: a taller terminal shows them, Ctrl-C prints the last report whole\n",
            lines.len() - shown
        ));
    }
    if previous.len() > 1 {
        out.push_str("  (* changed since the last report)\n");
    }
    (out.into_bytes(), lines)
}
