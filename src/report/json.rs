//! `--format json`: the contract of `docs/MODEL.md`, unrounded.

use serde::Serialize;

use crate::model::Estimate;

/// One estimate as a pretty JSON object, newline-terminated.
pub fn estimate(e: &Estimate) -> Vec<u8> {
    to_bytes(e)
}

/// A sweep as a JSON array of estimate objects.
pub fn sweep(estimates: &[Estimate]) -> Vec<u8> {
    to_bytes(estimates)
}

/// Any serializable report (used by `logs`, which adds `observed`) as pretty JSON.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut out =
        serde_json::to_vec_pretty(value).expect("reports hold only finite numbers and strings");
    out.push(b'\n');
    out
}
