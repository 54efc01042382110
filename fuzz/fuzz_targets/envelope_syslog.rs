//! The envelope of syslog RFC 3164 and RFC 5424 (PRI, time, host, tag, structured data) on arbitrary bytes: never a panic, and the reading keeps every
//! property of whole logs (see `checks::envelope`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::envelope(&["syslog", "syslog5424"], data);
});
