//! A run of dupcost as one plain value: what the command line asks for, resolved once.
//!
//! clap's parse ([`crate::cli`]) gives the arguments as typed; [`Run`] is what the program
//! runs on, made from them in one step ([`resolve`], as ripgrep's `HiArgs` is made from its
//! `LowArgs`): the scenario with where each input came from, the inputs that win over a log,
//! the logs to read and how, the report's style and where the output goes. That step is the one
//! place where the `--scenario` file and standard input are read, where defaults are decided
//! and where a preset is applied; a command calls it once and passes the value on.
//!
//! [`measure`] is the one measurement pipeline: the logs read, then the findings derived,
//! warned about and validated, for `logs`, each tick of `--follow`, `tui --logs` and
//! `estimate --observed` alike.

mod measure;
pub mod resolve;

use std::path::PathBuf;

pub use measure::{
    FollowState, Measured, follow_on_thread, measure, measure_logs, measure_tick, model, read, warn,
};
pub use resolve::{log_options, sql_options};

use crate::findings::{DeriveOptions, Overrides, Warning};
use crate::inputs::Sources;
use crate::logs::{FollowOptions, LogInput, LogOptions};
use crate::model::Scenario;
use crate::presets::Preset;
use crate::report::{Output, Style};
use crate::sweep::Sweep;

/// Everything a command runs on, resolved from its arguments.
#[derive(Debug, Clone)]
pub struct Run {
    /// Defaults < `--scenario` file < `--preset` < environment < flags, validated.
    pub scenario: Scenario,
    /// Where each input of [`Run::scenario`] came from (a `--sweep`'s input marked).
    pub sources: Sources,
    /// The preset the scenario started from.
    pub preset: Option<&'static Preset>,
    /// The inputs given by flag, environment or preset, which win over a log's figures.
    pub given: Overrides,
    /// The preset whose published schedule gives the retries (a sender's schedule is its
    /// retry budget: a log shows at most a lower bound of it).
    pub retries_from_preset: Option<&'static str>,
    /// How a report is written: currency, colour, the preset's marks.
    pub style: Style,
    /// `estimate --sweep`: one input varied over a range.
    pub sweep: Option<Sweep>,
    /// Where the output goes.
    pub output: Output,
    /// The logs to measure and how, for the commands that measure.
    pub logs: Option<Logs>,
    /// `dupcost tui`: how the explorer runs.
    pub explorer: Option<Explorer>,
}

/// How the explorer runs.
#[derive(Debug, Clone)]
pub struct Explorer {
    /// `--save-to FILE`: where `s` saves the scenario.
    pub save_to: PathBuf,
    /// Whether the explorer takes the mouse (`--no-mouse` leaves it to the terminal).
    pub mouse: bool,
}

/// What is measured, and how.
#[derive(Debug, Clone)]
pub struct Logs {
    /// Access logs, or an engine's result of `dupcost sql`.
    pub source: LogSource,
    /// How the logs are read (a webhook sender's preset applied).
    pub options: LogOptions,
    /// How the findings are derived from what was read.
    pub derive: DeriveOptions,
    /// What the resolution changed in reading, for the report's evidence: a preset's client
    /// timeout, a retry window widened to a schedule's horizon.
    pub notes: Vec<Warning>,
    /// `--follow`: the logs are followed as they grow.
    pub follow: Option<FollowOptions>,
    /// How the report names the logs (`a.log, b.log`).
    pub names: String,
}

/// Where the measurement comes from.
#[derive(Debug, Clone)]
pub enum LogSource {
    /// Access logs, or standard input.
    Files(Vec<LogInput>),
    /// The result of the query `dupcost sql` printed, as the engine exported it.
    SqlResult(PathBuf),
}
