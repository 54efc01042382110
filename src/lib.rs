//! dupcost: what missing idempotency costs.
//!
//! The library behind the `dupcost` binary: [`model`] is the pure arithmetic of MODEL.md,
//! [`units`] parses and prints its inputs, [`logs`] measures the inputs from access logs.

pub mod logs;
pub mod model;
pub mod units;
