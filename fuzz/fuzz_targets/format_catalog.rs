//! Every row of the formats' catalog on arbitrary bytes, line by line: its sniff, its named
//! reading, its refusal candidates and the formats its samples are read with never panic, and
//! what they split has their names' count of fields (see `checks::format_catalog_row`). The
//! input's first byte picks the row, so an execution reads one row's formats. Its
//! seeds (`fuzz/seeds/format_catalog/`) hold the inputs of the per-format targets it
//! replaced; `tests/fuzz_regressions.rs` replays them and every row's samples.
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&row, lines)) = data.split_first() {
        checks::format_catalog_row(row.into(), lines);
    }
});
