//! What `logs --follow` and `tui --logs --follow` share: a follower's tick measured. No
//! command imports another: they meet here.

use serde::Serialize;

use crate::findings::Findings;
use crate::logs::{self, Tick};
use crate::run::Run;

/// What `follow` adds to a JSON report: where the follower is.
#[derive(Debug, Clone, Serialize)]
pub struct FollowState {
    /// 1 for the first report.
    pub report: u64,
    /// The last report (Ctrl-C, or stdin ended).
    pub last: bool,
    /// Rows read since the start (those of the window are `observed.rows`).
    pub rows_read: u64,
    /// Rows read since the previous report.
    pub new_rows: u64,
    /// Rows read per second of wall time since the previous report.
    pub rows_per_second: f64,
    pub every_seconds: f64,
    /// `--window`, when given.
    pub window_seconds: Option<f64>,
    /// The log time the report covers (last minus first timestamp).
    pub span_seconds: Option<f64>,
    /// The latest timestamp read.
    pub last_line_time: Option<String>,
    /// A followed file was renamed away and replaced.
    pub rotations: u64,
    /// A followed file was truncated in place (copytruncate).
    pub truncations: u64,
    /// Why there is no estimate yet (no mutating request yet, a span too short to scale to
    /// a day): the report then has only this object.
    pub waiting: Option<String>,
}

/// One tick measured: the state, and the derivation when the log can give one.
pub struct Measured {
    pub state: FollowState,
    pub derived: Option<Findings>,
}

/// The tick's measurement under `run`: the one pipeline's, or why there is none yet.
pub fn measure_tick(tick: &Tick, run: &Run) -> Measured {
    let analysis = &tick.analysis;
    let t = &analysis.tally;
    let span = t
        .first_ts
        .zip(t.last_ts)
        .filter(|_| analysis.has_timestamps())
        .map(|(a, b)| (b - a) as f64 / 1e6);
    let every = run
        .logs
        .as_ref()
        .and_then(|l| l.follow)
        .map_or(logs::DEFAULT_EVERY, |f| f.every);
    let (derived, waiting) = match crate::run::measure(analysis, run) {
        Ok(d) => (Some(d), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Measured {
        state: FollowState {
            report: tick.number,
            last: tick.last,
            rows_read: tick.rows_read,
            new_rows: tick.new_rows,
            rows_per_second: tick.rows_per_second,
            every_seconds: every.as_secs_f64(),
            window_seconds: tick.window.map(|w| w.as_secs_f64()),
            span_seconds: span,
            last_line_time: tick.last_line_ts.map(logs::to_rfc3339),
            rotations: tick.rotations,
            truncations: tick.truncations,
            waiting,
        },
        derived,
    }
}
