//! Every units parser on arbitrary text: never a panic; what parses is in range and its
//! `Display` parses back to the same value.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::units(text);
    }
});
