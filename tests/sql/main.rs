//! `dupcost sql` and `estimate --observed`: the query's errors, and the query on real engines.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;
#[path = "../../examples/gen-access-log/generator.rs"]
#[allow(dead_code)]
mod generator;
#[path = "../../examples/gen-access-log/keyless.rs"]
#[allow(dead_code)]
mod keyless;
#[path = "../../examples/gen-access-log/receiver.rs"]
#[allow(dead_code)]
mod receiver;

mod cli;
mod engines;
