//! The shapes of lines that are not access lines (issue 35: NLB TLS, ALB connection log and
//! HAProxy tcplog records among them) on arbitrary bytes, line by line: never a panic, the
//! same kind with spaces around the line, and a line told as no HTTP request is no ALB
//! request either (see `checks::non_access`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::non_access(data);
});
