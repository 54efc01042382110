//! The JSON scanner against serde_json on arbitrary bytes (see `checks::json_scan`): the
//! same values, the same fields, or the scanner declines and serde_json decides.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::json_scan(data);
});
