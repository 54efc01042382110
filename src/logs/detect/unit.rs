//! A duration's unit from its values, when nothing else says it: units come from the
//! documentation, and are never guessed in silence.
//!
//! A known format's unit comes from its documentation (`FormatHints`), a field's name may say
//! it (`_ms`, `request_time`), and `--duration-unit` says it for any. Only when none of these
//! does are the values looked at, and a unit is *inferred* only when the values leave one
//! reading. The rule, conservative by design:
//!
//! - at least [`MIN_VALUES`] of the first lines' durations, each a plain decimal number (an
//!   empty or `-` value is skipped; anything else, `12ms` or `1e3`, stops the inference);
//! - a unit is possible when it puts every non-zero value between [`SHORTEST`] (1 µs: no
//!   HTTP request is answered faster) and [`LONGEST`] (a day: none is held longer) in seconds;
//!   microseconds and nanoseconds are possible only when every value is a whole number
//!   (writers of those units write integers);
//! - when exactly one of s, ms, µs and ns is possible, it is the inferred unit; when two or
//!   more are, the values are ambiguous and the assumption (milliseconds) stays, said as one;
//! - values that each end in `s` after their digits (`1.512s`, as Google Cloud writes
//!   `latency`) write their unit: seconds, if each is between the bounds; some with it and
//!   some without is no reading.
//!
//! So `0.000412, 0.085, 16.2` is seconds (as milliseconds its first would be 0.4 µs), and
//! `300000000000, 85000000` nanoseconds (as microseconds the first would be 3.5 days), but
//! `0.085, 16.2` and Rails lograge's `58.33` (milliseconds) fit both s and ms: assumed. The
//! tempting rule "a fraction below 100 is seconds" would read lograge's fast requests as
//! seconds, a confident wrong timeout rate; this one never does.

use super::super::formats::{
    ColumnMap, CsvHeader, DurationUnit, Fields, LineFormat, UnitInference,
};

/// Values needed before a unit is inferred.
pub const MIN_VALUES: usize = 5;
/// The shortest plausible request, in seconds.
pub const SHORTEST: f64 = 1e-6;
/// The longest plausible request, in seconds.
pub const LONGEST: f64 = 86_400.0;

/// The unit the values `values` leave, if exactly one (see the module's rule).
pub fn infer(values: &[&[u8]]) -> Option<UnitInference> {
    let mut read: Vec<(f64, &[u8])> = Vec::new();
    let mut fraction = false;
    // Values that write their unit (`1.512s`, as Google Cloud's `latency`) say seconds.
    let mut suffixed = 0;
    for v in values {
        let v = v.trim_ascii();
        if v.is_empty() || v == b"-" {
            continue;
        }
        let v = match v.strip_suffix(b"s") {
            Some(number) if number.last().is_some_and(u8::is_ascii_digit) => {
                suffixed += 1;
                number
            }
            _ => v,
        };
        let plain = v.iter().all(|b| b.is_ascii_digit() || *b == b'.')
            && v.iter().filter(|&&b| b == b'.').count() <= 1
            && v.iter().any(u8::is_ascii_digit);
        if !plain {
            return None;
        }
        fraction |= v.contains(&b'.');
        let n: f64 = std::str::from_utf8(v).ok()?.parse().ok()?;
        read.push((n, v));
    }
    if read.len() < MIN_VALUES || read.iter().all(|(n, _)| *n == 0.0) {
        return None;
    }
    if suffixed > 0 && suffixed < read.len() {
        return None;
    }
    let units = [
        DurationUnit::Seconds,
        DurationUnit::Millis,
        DurationUnit::Micros,
        DurationUnit::Nanos,
    ];
    let possible = |unit: DurationUnit| {
        let whole_only = matches!(unit, DurationUnit::Micros | DurationUnit::Nanos);
        !(whole_only && fraction)
            && read.iter().all(|(n, _)| {
                let secs = n * unit.nanos() / 1e9;
                *n == 0.0 || (SHORTEST..=LONGEST).contains(&secs)
            })
    };
    let seconds = [DurationUnit::Seconds];
    let units: &[DurationUnit] = if suffixed > 0 { &seconds } else { &units };
    let mut fits = units.iter().copied().filter(|&u| possible(u));
    let unit = fits.next()?;
    if fits.next().is_some() {
        return None;
    }
    let text = |(_, t): &(f64, &[u8])| String::from_utf8_lossy(t).into_owned();
    let by = |a: &&(f64, &[u8]), b: &&(f64, &[u8])| a.0.total_cmp(&b.0);
    Some(UnitInference {
        unit,
        values: read.len(),
        min: read.iter().min_by(by).map(text).unwrap_or_default(),
        max: read.iter().max_by(by).map(text).unwrap_or_default(),
        written_with_s: suffixed > 0,
    })
}

/// Infers the unit of `columns`' duration from the first records when nothing said it
/// (`duration_unit_assumed`), and marks it inferred; otherwise leaves `columns` as it is.
pub fn settle(columns: &mut ColumnMap, values: impl FnOnce(usize) -> Vec<Vec<u8>>) {
    let Some(index) = columns.duration.filter(|_| columns.duration_unit_assumed) else {
        return;
    };
    let values = values(index);
    let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    if let Some(found) = infer(&refs) {
        columns.duration_unit = found.unit;
        columns.duration_unit_assumed = false;
        columns.duration_unit_inferred = Some(found);
    }
}

/// Field `index` of the first whole data records of a CSV/TSV input (`first`: its first
/// bytes).
pub fn csv_values(header: &CsvHeader, first: &[u8], eof: bool, index: usize) -> Vec<Vec<u8>> {
    let data = first.get(header.data_start as usize..).unwrap_or_default();
    let lines = super::format::first_lines(data, eof);
    let whole = lines
        .iter()
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(data.len());
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(header.delimiter)
        .from_reader(&data[..whole]);
    reader
        .byte_records()
        .filter_map(Result::ok)
        .filter_map(|r| r.get(index).map(<[u8]>::to_vec))
        .collect()
}

/// Field `index` of the first lines a line format reads (`first`: the input's first bytes,
/// unwrapped from `envelope` as detection saw them).
pub fn line_values(
    format: &dyn LineFormat,
    envelope: Option<super::super::envelope::Envelope>,
    first: &[u8],
    eof: bool,
    index: usize,
) -> Vec<Vec<u8>> {
    let raw = super::format::first_lines(first, eof);
    let inner = super::inner_lines(envelope, &raw).unwrap_or_default();
    let mut fields = Fields::default();
    inner
        .iter()
        .filter(|line| !format.skip(line))
        .filter_map(|line| {
            fields.clear();
            format.split(line, &mut fields).ok()?;
            fields.get(index).map(<[u8]>::to_vec)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(values: &[&str]) -> Option<DurationUnit> {
        let refs: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        infer(&refs).map(|i| i.unit)
    }

    #[test]
    fn one_reading_left_is_inferred() {
        use DurationUnit::*;
        // As ms the first would be 0.4 µs.
        assert_eq!(
            unit(&["0.000412", "0.085", "16.2", "1.512", "0.09"]),
            Some(Seconds)
        );
        // As µs the first would be 3.5 days; as ms or s, years.
        let traefik = [
            "300000000000",
            "85000000",
            "91000000",
            "120000000",
            "15000000000",
        ];
        assert_eq!(unit(&traefik), Some(Nanos));
        // A fraction rules out µs and ns; as seconds the first would be over a day.
        assert_eq!(
            unit(&["7200000.5", "12.5", "3.25", "80.0", "8.0"]),
            Some(Millis)
        );
        let i = infer(&[b"0.000412", b"16.2", b"-", b"", b"0.085", b"1.5", b"2"]).unwrap();
        assert_eq!(
            (i.values, i.min.as_str(), i.max.as_str()),
            (5, "0.000412", "16.2")
        );
    }

    #[test]
    fn values_that_write_seconds_are_seconds() {
        use DurationUnit::*;
        assert_eq!(
            unit(&["0.085s", "16.2s", "15s", "0.09s", "1s"]),
            Some(Seconds)
        );
        // As seconds the first would be over a day: no reading.
        assert_eq!(unit(&["90000s", "16.2s", "15s", "0.09s", "1s"]), None);
        assert_eq!(unit(&["0.085s", "16.2", "15s", "0.09s", "1s"]), None);
        assert_eq!(unit(&["0.085ms", "16.2ms", "15ms", "0.09ms", "1ms"]), None);
        // Said as written with an s, not as fitting one unit by range alone.
        let written = [&b"0.085s"[..], b"16.2s", b"15s", b"0.09s", b"1s"];
        assert!(infer(&written).unwrap().written_with_s);
        let ranged = [&b"0.000412"[..], b"16.2", b"0.085", b"1.5", b"2"];
        assert!(!infer(&ranged).unwrap().written_with_s);
    }

    #[test]
    fn ambiguous_values_keep_the_assumption() {
        // Seconds or milliseconds: both put each between 1 µs and a day.
        assert_eq!(unit(&["0.085", "16.2", "15.4", "0.085", "0.085"]), None);
        // lograge's `duration` (milliseconds, two decimals) of a fast app.
        assert_eq!(unit(&["58.33", "12.5", "3.02", "80.11", "7.4"]), None);
        // Whole numbers: ms or µs.
        assert_eq!(unit(&["85", "16200", "15400", "85", "90"]), None);
        // Too few, all zero, or not plain numbers.
        assert_eq!(unit(&["0.000412", "16.2", "0.5", "1.5"]), None);
        assert_eq!(unit(&["0", "0", "0", "0", "0"]), None);
        assert_eq!(unit(&["0.000412", "16.2", "0.5", "1.5", "12ms"]), None);
        assert_eq!(unit(&["0.000412", "16.2", "0.5", "1.5", "1e3"]), None);
        assert_eq!(unit(&["0.000412", "16.2", "0.5", "1.5", "1.2.3"]), None);
        // Nothing fits: fractions of a nanosecond-sized value past a day in every unit.
        assert_eq!(unit(&["0.0000000001", "1", "1", "1", "1"]), None);
    }
}
