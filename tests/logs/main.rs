//! `dupcost logs` and the log reader: formats, envelopes, platforms, traces, keyless, receivers, follow, bad input.
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

mod bad_input;
mod cli;
mod envelopes;
mod first_run;
mod follow;
mod formats;
mod formats_aws;
mod go_durations;
mod honest;
mod inferred;
mod keyless_intents;
mod library;
mod metrics;
mod mixed;
mod one_traffic;
mod per_line;
mod platforms;
mod prometheus;
mod props;
mod published;
mod receiver_logs;
mod refusals;
mod sources;
mod suites;
mod support;
mod tiny;
mod traces;
