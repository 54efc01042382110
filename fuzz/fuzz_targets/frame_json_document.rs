//! The JSON document framer alone, in memory: never a panic; a valid document's lines are
//! each one whole JSON value (see `checks::frame_document`); `json_document` reads it whole
//! too.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::frame_document(data);
});
