//! `dupcost estimate`, the model's invariants and the presets: flags, scenario files, worked figures.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod kinds;
mod model;
mod presets;
mod sources;
