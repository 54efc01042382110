//! dupcost: what missing idempotency costs.
//!
//! The library behind the `dupcost` binary: [`model`] is the pure arithmetic of `docs/MODEL.md`,
//! [`units`] parses and prints its inputs, [`inputs`] names them and merges their sources,
//! [`sweep`] varies one of them, [`logs`] measures them from access logs, and [`report`]
//! renders estimates as table, JSON or CSV.

// The unit tests of `logs` read logs from the generator of `examples/`, which names the crate.
#[cfg(test)]
extern crate self as dupcost;

pub mod cli;
pub mod commands;
pub mod error;
pub mod findings;
pub mod inputs;
pub mod logs;
pub mod model;
pub mod presets;
pub mod probe;
pub mod report;
pub mod run;
pub mod scenario_file;
pub mod serve;
pub mod sql;
pub mod sweep;
pub mod tui;
pub mod units;
pub mod words;
