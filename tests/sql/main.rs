//! `dupcost sql` and `estimate --observed`: the query's errors, and the query on real engines.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../examples/gen-access-log/generator.rs"]
mod generator;
#[path = "../../examples/gen-access-log/keyless.rs"]
mod keyless;
#[path = "../../examples/gen-access-log/receiver.rs"]
#[allow(dead_code)]
mod receiver;

mod cli;
mod engines;
mod golden;
mod units;
