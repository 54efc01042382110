//! Findings: what a [`LogAnalysis`] means for the model.
//!
//! `logs` turns bytes into tallies and file facts; this module turns them, with the
//! [`DeriveOptions`], into [`Findings`]: the model's scenario, each measured input with its
//! typed [`Evidence`], the observed figures (the JSON contract's `observed` object), the 95%
//! intervals and where each input came from.
//!
//! Each finding is one file, which holds its evidence types, its derivation and its words:
//! [`requests`], [`timeout`], [`share`], [`retries`], [`body`]; [`evidence`] lists them (one
//! [`Evidence`] variant each) beside what they share, [`derive()`] calls each, and the
//! warnings ([`Warning`]) and the duplicates note ([`DuplicatesNote`]) are found and worded
//! in files of their own. The findings word themselves (their `Display`, which a
//! `Serialize` writes where the JSON contract holds a sentence) with the number words of
//! [`crate::words`], and never import `report`; `logs` below words nothing, and every
//! renderer reads the findings through `report::model`.

pub mod body;
mod contract;
mod derive;
mod duplicates;
pub mod evidence;
pub mod intervals;
pub mod kinds;
mod observed;
pub mod requests;
pub mod retries;
pub mod share;
pub mod timeout;
mod warnings;

use std::time::Duration;

pub use contract::*;
pub use derive::derive;
pub use evidence::{DuplicatesNote, Evidence, Refusal, Shortfall, Warning};
pub use intervals::{Intervals, MAX_WIDTH, MIN_EVIDENCE, min_trials, worst_width};
pub use kinds::{InputKind, Kind, OutputBounds};

use crate::inputs::{Input, Origin, Sources};
use crate::logs::LogAnalysis;
use crate::model::Scenario;

/// The most timed-out attempts with an unknown outcome, as a share, for a measured share.
pub const DEFAULT_MAX_UNKNOWN: f64 = 0.10;

/// The shortest span of timestamps scaled to requests a day.
pub const DEFAULT_MIN_SPAN: Duration = Duration::from_secs(3600);

/// How findings are derived from a reading (not how the logs are read: that is
/// `logs::LogOptions`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeriveOptions {
    /// The most timed-out attempts with an unknown outcome, as a share of all timed-out
    /// ones, for which the succeeded share is still derived (`--max-unknown`).
    pub max_unknown: f64,
    /// The shortest span of timestamps that is scaled to requests a day (`--min-span`).
    pub min_span: Duration,
    /// Refuse where the log cannot measure
    /// requests a day or the succeeded share, instead of reporting them assumed and bounded
    /// (`--require-measured`).
    pub require_measured: bool,
}

impl Default for DeriveOptions {
    fn default() -> Self {
        DeriveOptions {
            max_unknown: DEFAULT_MAX_UNKNOWN,
            min_span: DEFAULT_MIN_SPAN,
            require_measured: false,
        }
    }
}

/// Where each input came from when only `given` was given by flag: the defaults, and a
/// flag for each given input.
pub fn given_sources(given: &Overrides) -> Sources {
    let mut sources = Sources::default();
    for (input, given) in [
        (Input::RequestsPerDay, given.requests_per_day.is_some()),
        (Input::TimeoutRate, given.timeout_rate.is_some()),
        (Input::SucceededShare, given.succeeded_share.is_some()),
        (Input::Retries, given.retries.is_some()),
        (Input::BodyBytes, given.body_bytes.is_some()),
    ] {
        if given {
            sources.set(input, Origin::Flag);
        }
    }
    sources
}

impl Findings {
    /// Says that `input`, given, came from the `--preset` (or `DUPCOST_PRESET`) called `name`
    /// rather than its flag (a sender's published schedule gives its retries).
    pub fn given_by_preset(&mut self, input: Input, name: &'static str) {
        for m in self
            .measured
            .iter_mut()
            .filter(|m| m.input == input.json_name())
        {
            if let Evidence::Retries {
                how: evidence::RetriesEvidence::Given { by, .. },
                ..
            } = &mut m.evidence
            {
                *by = if self.sources.preset_from_env() {
                    evidence::GivenBy::PresetEnv(name)
                } else {
                    evidence::GivenBy::Preset(name)
                };
            }
        }
    }
}

impl LogAnalysis {
    /// The findings with the default [`DeriveOptions`], `base`'s inputs taken as defaults and
    /// `given` ones as flags: [`derive()`] for a test or a tool.
    pub fn derive(&self, base: &Scenario, given: &Overrides) -> Result<Findings, Refusal> {
        derive(
            self,
            &DeriveOptions::default(),
            base,
            given,
            &given_sources(given),
        )
    }
}
