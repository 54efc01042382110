//! The envoy line format (each preset) on arbitrary lines: never a panic; a line it reads
//! gives one field per name (see `checks::line_format`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::line_format("envoy", &["envoy", "istio"], data);
});
