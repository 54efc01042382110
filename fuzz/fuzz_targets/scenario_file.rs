//! The `--scenario` loader on arbitrary bytes: never a panic; what it accepts either resolves
//! to a valid scenario with finite figures or is refused with a message.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::scenario_file(text);
    }
});
