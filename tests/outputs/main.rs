//! What users read: golden outputs byte for byte, the README's commands, markdown/charts/HTML, help and man pages.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
mod common;
#[path = "../probe_server/mod.rs"]
mod probe_server;

mod answer;
mod ecosystem;
mod flow;
mod golden;
mod html;
mod marks;
mod readme;
