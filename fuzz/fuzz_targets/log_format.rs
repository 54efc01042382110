//! A `--log-format` string (the first line) compiled, and the lines after it split by it:
//! never a panic (see `checks::log_format`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::log_format(data);
});
