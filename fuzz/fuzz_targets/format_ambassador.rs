//! Ambassador's `ACCESS ` prefix reader over Envoy's presets, in memory: never a panic, and a
//! line reads the same with the prefix as without it (see `checks::ambassador`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::ambassador(data);
});
