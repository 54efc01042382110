//! `dupcost sql`: the measurement of `dupcost logs` as one SQL query, for the engines where
//! large logs already live (DuckDB, ClickHouse, Spark, Trino/Athena, BigQuery), and the
//! reading of its result back into the same report (`dupcost estimate --observed`).
//!
//! ```text
//! dialect    what differs between engines: literals, regular expressions, arrays, timestamps
//! preset     which column of a known table (AWS's Athena tables for ALB and CloudFront) plays which role
//! route      route templates as regular expressions (the rules of src/logs/row/route.rs)
//! query      the query: the row stage and the tally of src/logs as SQL
//! traces     the Collector's ClickHouse table of spans (otel_traces) as attempts
//! observed   the engine's result (CSV or JSON lines) read back into a tally for the derivation
//! ```

mod dialect;
mod observed;
mod preset;
mod query;
mod route;
mod traces;

pub use dialect::Engine;
pub use observed::{COLUMNS, read as read_observed, read_path as read_observed_path};
pub use preset::Preset;
pub use query::{QueryOptions, ROLES, build, build_with_warnings, engine_name};
