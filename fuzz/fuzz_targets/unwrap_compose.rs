//! The `docker compose logs` envelope's parser alone, in memory, on arbitrary lines: never a
//! panic, no more text than the line (see `checks::unwrap`); `envelope_prefix` runs the whole
//! reading too.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::unwrap(&["compose"], data);
});
