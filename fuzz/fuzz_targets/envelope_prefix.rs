//! The envelope of `kubectl logs --prefix/--timestamps`, stern's prefix, `<time> <line>` and logcli's output on arbitrary bytes: never a panic, and the reading keeps every
//! property of whole logs (see `checks::envelope`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::envelope(
        &[
            "kubectl",
            "kubectl-timestamps",
            "stern",
            "timestamped",
            "logcli",
            "compose",
        ],
        data,
    );
});
