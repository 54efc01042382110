//! The prefix (kubectl, stern, logcli) envelope's parser alone, in memory, on arbitrary lines: never a panic, no
//! more text than the line (see `checks::unwrap`); thousands of runs a second, where
//! `envelope_*` runs the whole reading too.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::unwrap(
        &[
            "kubectl",
            "kubectl-timestamps",
            "stern",
            "timestamped",
            "logcli",
        ],
        data,
    );
});
