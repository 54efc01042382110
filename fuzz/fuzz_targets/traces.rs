//! Traces (OTLP/JSON, Zipkin, Jaeger's JSON) on arbitrary bytes, read in memory from the
//! first bytes to the tally (sniffing, envelopes, documents, assembly, rows): never a panic;
//! on success the tally is what the spans' assembly found (see `checks::traces`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::traces(data);
});
