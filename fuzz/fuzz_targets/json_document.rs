//! JSON documents (a top-level array, `{"events": [...]}`, pretty-printed objects) framed as
//! one record a line, on arbitrary bytes: never a panic, every framed record one whole JSON
//! value (see `checks::json_document`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::json_document(data);
});
