//! `--sweep` on arbitrary text: never a panic, never more than MAX_STEPS values, and every
//! value makes a valid scenario and a finite estimate.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::sweep(text);
    }
});
