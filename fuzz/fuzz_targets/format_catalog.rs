//! Every row of the formats' catalog on arbitrary bytes, line by line: its sniff, its named
//! reading and its refusal candidates never panic, and what they split has their names' count
//! of fields (see `checks::format_catalog`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::format_catalog(data);
});
