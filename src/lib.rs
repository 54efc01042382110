//! dupcost: what missing idempotency costs.
//!
//! The library behind the `dupcost` binary: [`model`] is the pure arithmetic of MODEL.md,
//! [`units`] parses and prints its inputs.

pub mod model;
pub mod units;
