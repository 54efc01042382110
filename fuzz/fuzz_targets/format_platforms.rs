//! The platforms' JSON parser on arbitrary bytes, line by line: never a panic; what it splits has its
//! names' count of fields (see `checks::format_platforms`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::format_platforms(data);
});
