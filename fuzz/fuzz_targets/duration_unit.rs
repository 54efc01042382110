//! A duration's unit inferred from its values (issue 35, `logs::detect::unit`) on arbitrary
//! bytes, one value a line: never a panic, the order of the values never changes the unit,
//! and an inferred unit puts each value between 1 µs and a day (see `checks::duration_unit`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::duration_unit(data);
});
