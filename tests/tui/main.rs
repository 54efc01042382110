//! The explorer: screens on ratatui's TestBackend (insta) and the real binary in tmux.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
mod common;

mod follow;
mod kinds;
mod logs;
mod presets;
mod screens;
mod sources;
mod terminal;
