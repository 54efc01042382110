//! The span readers at the parser level, one document in memory (see `checks::span_reader`):
//! OTLP/JSON's scanner reads the spans its serde reader reads, or declines; Zipkin's reader
//! reads or refuses; never a panic. Cheap: no file, no assembly, no report.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::span_reader(data);
});
