//! The key-store byte models: their properties, and against real Redis and PostgreSQL.
//!
//! One test crate per area (tests/README.md): each module below was a test file of its own.

#[path = "../common/mod.rs"]
mod common;
mod props;
mod real;
