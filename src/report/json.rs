//! `--format json`: the contract of `docs/MODEL.md`, unrounded.

use serde::Serialize;

use crate::model::Estimate;

/// One estimate as a pretty JSON object, newline-terminated; with `preset` after the
/// estimate's own keys when the scenario started from one.
pub fn estimate(e: &Estimate, preset: Option<&super::PresetTrace>) -> Vec<u8> {
    #[derive(Serialize)]
    struct Report<'a> {
        #[serde(flatten)]
        estimate: &'a Estimate,
        #[serde(skip_serializing_if = "Option::is_none")]
        preset: Option<&'a super::PresetTrace>,
    }
    to_bytes(&Report {
        estimate: e,
        preset,
    })
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
