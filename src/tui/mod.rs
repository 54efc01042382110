//! `dupcost tui`: the interactive scenario explorer.
//!
//! [`app`] holds the state and turns keys into [`app::Action`]s, [`ui`] draws it as a
//! ratatui widget, and [`event_loop`] owns the terminal: it blocks on input, hands each
//! action to the app, and redraws only after a change or a resize.

pub mod app;
mod cells;
mod charts;
pub mod endpoints;
pub mod event_loop;
pub mod steps;
mod theme;
pub mod ui;

pub use app::{Action, App, Effect};
pub use event_loop::{run, run_live};
