//! The iis parser on arbitrary bytes, line by line: never a panic; what it splits has its
//! names' count of fields (see `checks::format_iis`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::format_iis(data);
});
