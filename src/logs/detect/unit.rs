//! A duration's unit from its values, when nothing else says it: units come from the
//! documentation, and are never guessed in silence.
//!
//! A known format's unit comes from its documentation (`FormatHints`), a field's name may say
//! it (`_ms`, `request_time`), and `--duration-unit` says it for any. Only when none of these
//! does are the values looked at (and not with `--no-infer`), and a unit is *inferred* only
//! when the values leave one reading. The rule:
//!
//! - at least [`MIN_VALUES`] of the first lines' durations, each a plain decimal number (an
//!   empty or `-` value is skipped; anything else, `12ms` or `1e3`, stops the inference);
//! - **range**: a unit is possible when it puts every non-zero value between [`SHORTEST`]
//!   (1 µs: no HTTP request is answered faster) and [`LONGEST`] (a day: none is held longer)
//!   in seconds; microseconds and nanoseconds are possible only when every value is a whole
//!   number (writers of those units write integers). Exactly one possible unit is inferred;
//! - values that each end in `s` after their digits (`1.512s`, as Google Cloud writes
//!   `latency`) write their unit: seconds, if each is between the bounds; some with it and
//!   some without is no reading;
//! - **typical values**, when the range leaves two or more units: fractional values whose
//!   median is under 1 are seconds (as milliseconds, half the requests would be answered in
//!   under a millisecond); fractional values whose median is under [`SECONDS_MEDIAN`] and
//!   at least half of which carry [`CLOCK_DECIMALS`] or more decimals are seconds (a float
//!   clock in seconds, Caddy's `1.512279786180121`, Python's `time.time()` differences, zap's
//!   `0.000123`); whole numbers whose median is between 1 and [`MILLIS_MEDIAN`] are
//!   milliseconds;
//! - **span**, for whole numbers the typical values leave open (a median over
//!   [`MILLIS_MEDIAN`], or milliseconds ruled out by the range): a unit is plausible only where the median request lasts no longer
//!   than the first lines' timestamps span (plus [`SPAN_SLACK_MICROS`]). Where milliseconds
//!   are ruled out (by this or by the range) and one of µs and ns is left, it is inferred;
//!   where both (or neither) are left, nothing is inferred and the assumption is a doubt
//!   ([`Judged::Doubt`]) that a warning names with `--duration-unit`. Where milliseconds are
//!   left, the assumption stands as before.
//!
//! Anything else stays ambiguous: milliseconds, assumed, said as one.
//!
//! A value that writes its unit (`16.2s`, Go's `1m30s`) is read in it whatever this rule
//! says (`row::values::parse_duration`); where every first value writes one, some in Go's
//! forms, nothing is inferred or assumed: [`settle`] marks the field's unit carried.
//!
//! So `0.000412, 0.085, 16.2` is seconds by range (as milliseconds its first would be
//! 0.4 µs), `300000000000, 85000000` nanoseconds by range (as microseconds the first would
//! be 3.5 days), `0.182484, 1.512279786180121, 0.09` seconds by their median, `85, 16200, 90`
//! milliseconds by their median; a Go `time.Duration`'s `20950259, 24479472, 56560748` in a
//! log whose first lines span a second nanoseconds by the span (as µs the median is 24 s);
//! but Rails lograge's `58.33, 12.5` (milliseconds to two decimals, median over 1) fit both s
//! and ms and stay assumed. The tempting rule "a fraction below 100 is seconds" would read
//! lograge's requests as seconds, a confident wrong timeout rate; this one does not.

use super::super::formats::{
    ColumnMap, CsvHeader, DurationUnit, Fields, LineFormat, UnitDoubt, UnitInference, UnitRule,
};
use super::super::timestamp::TimestampFormat;

/// Values needed before a unit is inferred.
pub const MIN_VALUES: usize = 5;
/// The shortest plausible request, in seconds.
pub const SHORTEST: f64 = 1e-6;
/// The longest plausible request, in seconds.
pub const LONGEST: f64 = 86_400.0;
/// Fractional values with a median under this, most written by a float clock, are seconds.
pub const SECONDS_MEDIAN: f64 = 100.0;
/// Decimals a float clock in seconds writes (microseconds or finer); a writer of
/// milliseconds writes at most three (microseconds), lograge two.
pub const CLOCK_DECIMALS: usize = 6;
/// Whole numbers with a median from 1 up to this are milliseconds.
pub const MILLIS_MEDIAN: f64 = 100_000.0;

/// Added to the span the first lines' timestamps show: a log's timestamps are often to the
/// second, so the time its lines took may be up to a second more than they show.
pub const SPAN_SLACK_MICROS: i64 = 1_000_000;

/// What a duration's values say of their unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// One unit is left: inferred.
    One(UnitInference),
    /// Milliseconds are impossible, and two units or none are left: not inferred, warned.
    Doubt(UnitDoubt),
    /// Two readings or more remain, milliseconds among them, or too few values: assumed ms.
    Open,
}

/// The unit the values `values` leave, if exactly one (see the module's rule), with no
/// timestamps to judge their span by.
pub fn infer(values: &[&[u8]]) -> Option<UnitInference> {
    match judge(values, None) {
        Judged::One(found) => Some(found),
        _ => None,
    }
}

/// The unit the values `values` leave (see the module's rule); `span_micros`: the time the
/// same lines' timestamps span, where they have any.
pub fn judge(values: &[&[u8]], span_micros: Option<i64>) -> Judged {
    judge_values(values, span_micros).unwrap_or(Judged::Open)
}

fn judge_values(values: &[&[u8]], span_micros: Option<i64>) -> Option<Judged> {
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
    let fits: Vec<DurationUnit> = units.iter().copied().filter(|&u| possible(u)).collect();
    let mut sorted: Vec<f64> = read.iter().map(|(n, _)| *n).collect();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let text = |(_, t): &(f64, &[u8])| String::from_utf8_lossy(t).into_owned();
    let by = |a: &&(f64, &[u8]), b: &&(f64, &[u8])| a.0.total_cmp(&b.0);
    let (min, max) = (
        read.iter().min_by(by).map(text).unwrap_or_default(),
        read.iter().max_by(by).map(text).unwrap_or_default(),
    );
    let median_text = read
        .iter()
        .find(|(n, _)| *n == median)
        .map(text)
        .unwrap_or_default();
    let mut span_read = None;
    let (unit, rule) = match fits.as_slice() {
        [] => return None,
        [one] if suffixed > 0 => (*one, UnitRule::WrittenWithS),
        [one] => (*one, UnitRule::Range),
        _ => match typical(&read, fraction, median, &fits) {
            Some(unit) => (unit, UnitRule::Typical),
            None if fraction => return None,
            None => {
                // Whole numbers the typical values leave open: judged by the span.
                let span = span_micros.map(|s| s.max(0));
                let within = |u: DurationUnit| {
                    span.is_none_or(|s| median * u.nanos() / 1e3 <= (s + SPAN_SLACK_MICROS) as f64)
                };
                let left: Vec<DurationUnit> = fits.iter().copied().filter(|&u| within(u)).collect();
                match left.as_slice() {
                    // Milliseconds left: the assumption stands, as before.
                    l if l.contains(&DurationUnit::Millis) => return None,
                    [one] => {
                        span_read = span;
                        (*one, UnitRule::Span)
                    }
                    _ => {
                        return Some(Judged::Doubt(UnitDoubt {
                            values: read.len(),
                            min,
                            max,
                            median: median_text,
                            median_as_ms_s: (median / 1e3) as u64,
                            span_micros: span,
                            units: left,
                        }));
                    }
                }
            }
        },
    };
    Some(Judged::One(UnitInference {
        unit,
        values: read.len(),
        min,
        max,
        written_with_s: suffixed > 0,
        rule,
        median: median_text,
        span_micros: span_read,
    }))
}

/// The unit the typical values leave when their range leaves two or more (`fits`): the
/// module's "typical values" step, or `None` when both readings stay plausible.
fn typical(
    read: &[(f64, &[u8])],
    fraction: bool,
    median: f64,
    fits: &[DurationUnit],
) -> Option<DurationUnit> {
    let unit = if fraction {
        let decimals = |t: &[u8]| {
            t.iter()
                .position(|&b| b == b'.')
                .map_or(0, |i| t.len() - i - 1)
        };
        let clock = read
            .iter()
            .filter(|(_, t)| decimals(t) >= CLOCK_DECIMALS)
            .count();
        let seconds = median < 1.0 || (median < SECONDS_MEDIAN && 2 * clock >= read.len());
        seconds.then_some(DurationUnit::Seconds)?
    } else {
        (1.0..=MILLIS_MEDIAN)
            .contains(&median)
            .then_some(DurationUnit::Millis)?
    };
    fits.contains(&unit).then_some(unit)
}

/// What a duration's first values write of their unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// Some value writes no unit (a plain number), or there is no value.
    NotAll,
    /// Each is a number with an `s` after its digits (`1.512s`): the "written with an s" step
    /// of the rule reads them.
    AllWithS,
    /// Each writes its unit, some as a Go duration (`20.512345ms`, `1m30s`).
    AllUnits,
}

/// What `values` (the empty and `-` ones skipped) write of their unit.
pub fn written(values: &[&[u8]]) -> Written {
    use super::super::row::values::{Took, parse_duration};
    let mut go = false;
    let mut any = false;
    for v in values {
        let v = v.trim_ascii();
        if v.is_empty() || v == b"-" {
            continue;
        }
        any = true;
        let Some(Took::Seconds(_)) = parse_duration(v) else {
            return Written::NotAll;
        };
        let with_s = v.strip_suffix(b"s").is_some_and(|n| {
            std::str::from_utf8(n).is_ok_and(|n| {
                n.ends_with(|c: char| c.is_ascii_digit()) && n.parse::<f64>().is_ok()
            })
        });
        go |= !with_s;
    }
    match (any, go) {
        (false, _) => Written::NotAll,
        (true, false) => Written::AllWithS,
        (true, true) => Written::AllUnits,
    }
}

/// Settles the unit of `columns`' duration from the first records where nothing said it
/// (`duration_unit_assumed`). Values that each write their unit (a Go duration, `1m30s`) are
/// read in it: marked carried, nothing assumed (with `--no-infer` too: it is no inference).
/// Otherwise, where `infer` allows, infers the unit and marks it inferred, or marks the
/// assumption a doubt where the values rule milliseconds out and leave no one unit; values
/// that each end in `s` and that the rule does not read are carried. Otherwise leaves
/// `columns` as it is. `values(index)`: field `index` of the first records;
/// their timestamps (read by `timestamps`) give the span.
pub fn settle(
    columns: &mut ColumnMap,
    timestamps: &TimestampFormat,
    infer: bool,
    mut values: impl FnMut(usize) -> Vec<Vec<u8>>,
) {
    // Where the field's unit is said (a name, a format's documentation, the flag), its values
    // are not read here: reading them counts what a format skips a second time.
    let Some(index) = columns.duration.filter(|_| columns.duration_unit_assumed) else {
        return;
    };
    let durations = values(index);
    let refs: Vec<&[u8]> = durations.iter().map(Vec::as_slice).collect();
    let written = written(&refs);
    if infer && written != Written::AllUnits {
        let span = columns.timestamp.and_then(|t| {
            let times: Vec<i64> = values(t)
                .iter()
                .filter_map(|v| timestamps.parse(v))
                .collect();
            Some(times.iter().max()? - times.iter().min()?)
        });
        match judge(&refs, span) {
            Judged::One(found) => {
                columns.duration_unit = found.unit;
                columns.duration_unit_assumed = false;
                columns.duration_unit_inferred = Some(found);
                return;
            }
            Judged::Doubt(doubt) => columns.duration_unit_doubt = Some(doubt),
            Judged::Open => {}
        }
    }
    // A unit each value writes is no assumption.
    if written != Written::NotAll {
        columns.duration_unit_carried = true;
        columns.duration_unit_assumed = false;
        columns.duration_unit_doubt = None;
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
    fn values_that_write_their_unit() {
        let w = |values: &[&str]| {
            let refs: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
            written(&refs)
        };
        assert_eq!(
            w(&["20.512345ms", "16.2s", "-", "", "1m30s", "850µs"]),
            Written::AllUnits
        );
        assert_eq!(w(&["1m30s"]), Written::AllUnits);
        // Google Cloud's `latency`: the "written with an s" step reads them, as before.
        assert_eq!(w(&["0.085s", "16.2s", "15s"]), Written::AllWithS);
        // One plain number, or one value that is none: not all.
        assert_eq!(w(&["20.5ms", "16.2"]), Written::NotAll);
        assert_eq!(w(&["20.5ms", "1x"]), Written::NotAll);
        assert_eq!(w(&["-", ""]), Written::NotAll);
        assert_eq!(w(&[]), Written::NotAll);
        // Their unit is no inference: Go's forms stop the inference, as before.
        assert_eq!(unit(&["20ms", "16.2s", "15s", "90s", "1m30s"]), None);
    }

    fn rule(values: &[&str]) -> Option<UnitRule> {
        let refs: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        infer(&refs).map(|i| i.rule)
    }

    #[test]
    fn typical_values_settle_what_their_range_leaves_open() {
        use DurationUnit::*;
        // Caddy's `duration`: seconds from a float clock; the median alone (under 1) says it.
        let caddy = ["1.512279786180121", "0.182484", "0.09", "0.3301", "0.241"];
        assert_eq!(unit(&caddy), Some(Seconds));
        assert_eq!(rule(&caddy), Some(UnitRule::Typical));
        // A median over 1, but written to the microsecond or finer: a float clock's seconds.
        let slow = ["1.512279786180121", "2.182484", "0.5", "3.301204", "1.2"];
        assert_eq!(unit(&slow), Some(Seconds));
        // As milliseconds, half of these would be answered in under a millisecond.
        assert_eq!(
            unit(&["0.085", "16.2", "15.4", "0.085", "0.085"]),
            Some(Seconds)
        );
        // Whole numbers in the thousands and below: milliseconds.
        assert_eq!(unit(&["85", "16200", "15400", "85", "90"]), Some(Millis));
        assert_eq!(
            rule(&["85", "16200", "15400", "85", "90"]),
            Some(UnitRule::Typical)
        );
        // What the range alone settles keeps its rule.
        assert_eq!(
            rule(&["0.000412", "0.085", "16.2", "1.512", "0.09"]),
            Some(UnitRule::Range)
        );
        let i = infer(&[b"85", b"16200", b"15400", b"85", b"90"]).unwrap();
        assert_eq!(i.median, "90");
    }

    proptest::proptest! {
        /// A float clock's seconds of requests under a second are seconds; lograge's
        /// milliseconds to two decimals, from 1 ms up, are never read as seconds; whole
        /// milliseconds are milliseconds.
        #[test]
        fn the_typical_values_rule_holds(
            secs in proptest::collection::vec((0.001f64..0.9, 6usize..16), 5..40),
            lograge in proptest::collection::vec(1.0f64..99.99, 5..40),
            millis in proptest::collection::vec(1u64..100_000, 5..40),
        ) {
            let written: Vec<String> = secs.iter().map(|(v, d)| format!("{v:.d$}", d = *d)).collect();
            let refs: Vec<&str> = written.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(unit(&refs), Some(DurationUnit::Seconds));
            let written: Vec<String> = lograge.iter().map(|v| format!("{v:.2}")).collect();
            let refs: Vec<&str> = written.iter().map(String::as_str).collect();
            proptest::prop_assert_ne!(unit(&refs), Some(DurationUnit::Seconds));
            let written: Vec<String> = millis.iter().map(u64::to_string).collect();
            let refs: Vec<&str> = written.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(unit(&refs), Some(DurationUnit::Millis));
        }
    }

    fn judged(values: &[&str], span_s: Option<f64>) -> Judged {
        let refs: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        judge(&refs, span_s.map(|s| (s * 1e6) as i64))
    }

    /// A Go service's `time.Duration`s, whole nanoseconds of 20 to 57 ms.
    const GO: [&str; 5] = ["20950259", "24479472", "56560748", "21004118", "36437134"];

    #[test]
    fn whole_numbers_too_large_for_ms_are_judged_by_the_span() {
        use DurationUnit::*;
        // The first lines span 0.19 s: as ms the median (24479472) is 6h 48m, as µs 24 s,
        // both longer than 1.19 s: nanoseconds.
        let Judged::One(found) = judged(&GO, Some(0.19)) else {
            panic!("{:?}", judged(&GO, Some(0.19)));
        };
        assert_eq!((found.unit, found.rule), (Nanos, UnitRule::Span));
        assert_eq!(found.span_micros, Some(190_000));
        // Spanning 4m 45s: as µs the median fits, as ms it does not: two left, a doubt.
        let Judged::Doubt(doubt) = judged(&GO, Some(285.0)) else {
            panic!("{:?}", judged(&GO, Some(285.0)));
        };
        assert_eq!(doubt.units, vec![Micros, Nanos]);
        assert_eq!(doubt.median_as_ms_s, 24_479);
        assert_eq!(doubt.span_micros, Some(285_000_000));
        // Spanning 114 hours, ms fits: assumed, as before; and with no timestamps.
        assert_eq!(judged(&GO, Some(114.0 * 3600.0)), Judged::Open);
        assert_eq!(judged(&GO, None), Judged::Open);
        // One value over a day as ms rules ms out with no span: µs and ns left, a doubt.
        let over = [
            "20950259",
            "24479472",
            "16000000000",
            "21004118",
            "36437134",
        ];
        let Judged::Doubt(doubt) = judged(&over, None) else {
            panic!("{:?}", judged(&over, None));
        };
        assert_eq!((doubt.units.len(), doubt.span_micros), (2, None));
        // Fractions are never µs or ns: the span does not judge them.
        let lograge = ["58.33", "12.5", "3.02", "80.11", "7.4"];
        assert_eq!(judged(&lograge, Some(0.0)), Judged::Open);
    }

    proptest::proptest! {
        /// The span only judges what the range and the typical values leave open: wherever
        /// they leave one unit, any span leaves the same.
        #[test]
        fn the_span_never_changes_what_the_values_settle(
            values in proptest::collection::vec(0u64..100_000_000_000, 5..30),
            span in 0i64..400_000_000_000,
        ) {
            let written: Vec<String> = values.iter().map(u64::to_string).collect();
            let refs: Vec<&[u8]> = written.iter().map(String::as_bytes).collect();
            if let Some(found) = infer(&refs) {
                proptest::prop_assert_eq!(judge(&refs, Some(span)), Judged::One(found));
            }
        }
    }

    #[test]
    fn ambiguous_values_keep_the_assumption() {
        // lograge's `duration` (milliseconds, two decimals) of a fast app: median over 1,
        // no float clock's decimals: seconds and milliseconds both plausible.
        assert_eq!(unit(&["58.33", "12.5", "3.02", "80.11", "7.4"]), None);
        // Milliseconds to the microsecond (morgan's three decimals), median over 1.
        assert_eq!(unit(&["12.345", "3.5", "48.902", "7.1", "2.25"]), None);
        // Fractions with a median of 100 or more that fit s and ms.
        assert_eq!(
            unit(&["150.123456", "220.5", "130.654321", "400.1", "101.000001"]),
            None
        );
        // Whole numbers mostly zero, or with a median past 100,000.
        assert_eq!(unit(&["0", "0", "0", "1", "2"]), None);
        assert_eq!(
            unit(&["150000", "220000", "130000", "400000", "101000"]),
            None
        );
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
