//! `--format json`: the contract of `docs/MODEL.md`, unrounded.

use serde::Serialize;

use crate::model::Estimate;

/// One estimate as a pretty JSON object, newline-terminated; with `preset` after the
/// estimate's own keys when the scenario started from one, then `input_kinds` (each input
/// given or assumed, by JSON name) when the style knows where each input came from.
pub fn estimate(e: &Estimate, style: &super::Style) -> Vec<u8> {
    #[derive(Serialize)]
    struct Report<'a> {
        #[serde(flatten)]
        estimate: &'a Estimate,
        #[serde(skip_serializing_if = "Option::is_none")]
        preset: Option<&'a super::PresetTrace>,
        /// Each input's kind by JSON name: given (by the flag, scenario file or preset) or
        /// assumed (the default), with the flag that settles it, as `dupcost logs` has it.
        #[serde(skip_serializing_if = "Option::is_none")]
        input_kinds: Option<serde_json::Map<String, serde_json::Value>>,
    }
    let input_kinds = style.sources.map(|sources| {
        crate::inputs::Input::ALL
            .into_iter()
            .map(|input| {
                let kind = crate::findings::kinds::of_origin(input, sources.get(input));
                let value = serde_json::to_value(&kind).expect("a kind serializes");
                (input.json_name().to_string(), value)
            })
            .collect()
    });
    to_bytes(&Report {
        estimate: e,
        preset: style.preset.as_ref(),
        input_kinds,
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
