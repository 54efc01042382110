//! Traces (OTLP/JSON, Zipkin v2) on arbitrary bytes as a whole file: never a panic; on
//! success the tally is what the spans' assembly found (see `checks::traces`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::traces(data);
});
