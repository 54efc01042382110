//! The envelope of JSON records with the line in a field (Filebeat/Vector `message`, ECS `event.original`, Loki `line`) on arbitrary bytes: never a panic, and the reading keeps every
//! property of whole logs (see `checks::envelope`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::envelope(&["json-message", "json-event-original", "json-line"], data);
});
