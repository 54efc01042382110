//! The progress bar of the bytes read from the inputs.

use std::io::IsTerminal;

use super::LogInput;

/// Inputs larger than this get a progress bar (when stderr is a terminal).
const PROGRESS_BYTES: u64 = 64 << 20;

/// The progress bar: on stderr only when it is a terminal and the input is large (files
/// over 64 MB, or stdin once 64 MB have gone by).
pub struct ProgressBar {
    bar: Option<indicatif::ProgressBar>,
}

impl ProgressBar {
    pub fn new(wanted: bool, sources: &[LogInput]) -> Self {
        if !wanted || !std::io::stderr().is_terminal() {
            return ProgressBar { bar: None };
        }
        let stdin = sources.contains(&LogInput::Stdin);
        let total: u64 = sources
            .iter()
            .filter_map(|s| match s {
                LogInput::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
                LogInput::Stdin => None,
            })
            .sum();
        if !stdin && total < PROGRESS_BYTES {
            return ProgressBar { bar: None };
        }
        let bar = if stdin {
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden())
        } else {
            indicatif::ProgressBar::new(total)
        };
        let style = if stdin {
            indicatif::ProgressStyle::with_template(
                "{spinner} {binary_bytes} read ({binary_bytes_per_sec})",
            )
        } else {
            indicatif::ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes} ({binary_bytes_per_sec}, {eta} left)",
            )
        };
        if let Ok(style) = style {
            bar.set_style(style);
        }
        ProgressBar { bar: Some(bar) }
    }

    /// A callback that advances the bar by the bytes read.
    pub fn counter(&self) -> impl Fn(u64) + Send + Sync + 'static + use<> {
        let bar = self.bar.clone();
        move |n| {
            if let Some(bar) = &bar {
                bar.inc(n);
                if bar.is_hidden() && bar.position() >= PROGRESS_BYTES {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                }
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
