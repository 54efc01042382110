//! The log reader on arbitrary bytes as a whole file: never a panic; on success every
//! observed figure is consistent and finite (see `checks::logs`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::logs(data);
});
