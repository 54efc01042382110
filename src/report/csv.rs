//! `--format csv`: a header row of dotted names and one row per estimate.

use crate::model::Estimate;

use super::fields;

/// A header row of dotted names and one value row per estimate (one for `estimate`, one per
/// value for a sweep). Extra `(name, value)` columns, the same for every row's position, are
/// appended after the estimate's own (used by `logs` for its `observed.*` figures).
pub fn estimates(estimates: &[Estimate], extra: &[(&str, String)]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let header: Vec<&str> = fields(&Estimate::new(Default::default()))
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let extra_names = extra.iter().map(|(name, _)| *name);
    writer
        .write_record(header.iter().copied().chain(extra_names))
        .expect("writing to memory cannot fail");
    for e in estimates {
        let values = fields(e).into_iter().map(|(_, value)| value.to_string());
        let extra_values = extra.iter().map(|(_, value)| value.clone());
        writer
            .write_record(values.chain(extra_values))
            .expect("writing to memory cannot fail");
    }
    writer.into_inner().expect("writing to memory cannot fail")
}
