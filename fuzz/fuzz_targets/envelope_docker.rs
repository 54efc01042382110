//! The envelope of Docker json-file entries (entries without a newline joined) on arbitrary bytes: never a panic, and the reading keeps every
//! property of whole logs (see `checks::envelope`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::envelope(&["docker", "json-log"], data);
});
