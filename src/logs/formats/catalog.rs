//! The formats as data: one [`FormatEntry`] row per format, which detection
//! (`logs::detect`), `--input-format`'s names and help, the refusal of an input no format
//! reads, docs/FORMATS.md's table, the tests and the catalog's fuzz target iterate.
//!
//! A format describes itself in its own module in `formats/`: its `LineFormat`, its `sniff`,
//! and its row (`pub const ENTRY: FormatEntry`), which holds its name, its place in
//! detection, its flags dialects (their give-up codes) and its sample lines. Adding one is
//! that file and its one line in `formats!` (`formats/mod.rs`), which declares its module
//! and lists its row in [`CATALOG`]. The trace formats' rows are here: their readers are in
//! `traces`, which depends on this room, not this room on it.
//!
//! The rows stand in the order `--input-format` lists its names; auto detection tries the
//! rows that have a [`Detect`] by its `order` (most particular first), and the refusal
//! ranks the candidates of every row, in that same order.
pub use super::entry::*;
use super::{Flags, InputFormat};

pub use super::CATALOG;

/// `--input-format auto`: each file told from its first lines.
pub(super) const AUTO: FormatEntry = FormatEntry {
    name: "auto",
    named: true,
    describe: "told from each file's first lines (the default)",
    detect: None,
    reading: Reading::Auto,
    candidates: none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

/// OTLP/JSON traces, read before any line format is looked for (by `traces`, whose
/// `TRACE_FORMATS` has the same names in the same order).
pub(super) const OTLP: FormatEntry = FormatEntry {
    name: "otlp",
    named: true,
    describe: "OpenTelemetry traces as OTLP/JSON (Collector file exporter, Tempo, Jaeger v3)",
    detect: None,
    reading: Reading::Trace {
        missing: "no OTLP/JSON document with resourceSpans at its start",
    },
    candidates: none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

/// Zipkin v2 JSON traces, read before any line format is looked for.
pub(super) const ZIPKIN: FormatEntry = FormatEntry {
    name: "zipkin",
    named: true,
    describe: "Zipkin v2 JSON traces",
    detect: None,
    reading: Reading::Trace {
        missing: "no JSON array of spans with traceId and id at its start",
    },
    candidates: none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

/// Jaeger's own JSON traces, read before any line format is looked for.
pub(super) const JAEGER: FormatEntry = FormatEntry {
    name: "jaeger",
    named: true,
    describe: "Jaeger JSON traces (its UI's download, its query API v1)",
    detect: None,
    reading: Reading::Trace {
        missing: "no Jaeger trace with traceID and spans at its start",
    },
    candidates: none,
    looks: None,
    compile: None,
    told: None,
    flags: &[],
    samples: &[],
};

/// The row of a format `--input-format` names (an `InputFormat` is only ever a named row's:
/// `FromStr` makes it from the rows, and a test checks each constant's).
pub fn entry(input: InputFormat) -> &'static FormatEntry {
    CATALOG
        .iter()
        .find(|e| e.named && e.name == input.name())
        .unwrap_or(&CATALOG[0])
}

/// The rows auto detection tries, in its order.
pub fn by_detection() -> impl Iterator<Item = (&'static FormatEntry, Sniff)> {
    let mut rows: Vec<(u8, &'static FormatEntry, Sniff)> = CATALOG
        .iter()
        .filter_map(|e| e.detect.map(|d| (d.order, e, d.sniff)))
        .collect();
    rows.sort_by_key(|(order, ..)| *order);
    rows.into_iter().map(|(_, e, sniff)| (e, sniff))
}

/// Every row, in the order the refusal ranks their candidates: auto detection's, then the
/// rows it does not try.
pub fn by_rank() -> impl Iterator<Item = &'static FormatEntry> {
    let mut rows: Vec<&'static FormatEntry> = CATALOG.iter().collect();
    rows.sort_by_key(|e| e.detect.map_or(u8::MAX, |d| d.order));
    rows.into_iter()
}

/// Every flags dialect, in the rows' order.
pub fn flags() -> impl Iterator<Item = &'static Flags> {
    CATALOG.iter().flat_map(|e| e.flags.iter().copied())
}

/// The names `--input-format` takes, in order.
pub fn names() -> impl Iterator<Item = &'static str> {
    CATALOG.iter().filter(|e| e.named).map(|e| e.name)
}

/// The names of the line formats a user names (what the refusal offers): no `auto`, no
/// traces (which are told before any format is looked for).
pub fn line_names() -> Vec<&'static str> {
    CATALOG
        .iter()
        .filter(|e| e.named)
        .filter(|e| !matches!(e.reading, Reading::Auto | Reading::Trace { .. }))
        .map(|e| e.name)
        .collect()
}

/// `--input-format`'s help: every name, and the default.
pub fn help() -> String {
    let names: Vec<&str> = names().collect();
    let (last, rest) = names.split_last().unwrap_or((&"auto", &[]));
    format!(
        "What the logs are: {} or {last} [default: auto, told from each file's first lines]",
        rest.join(", ")
    )
}

/// The format a `--log-format` text with no `--input-format` is: the first row, in
/// [`Told`]'s order, that says it is.
pub fn told_by_text(text: &str) -> Option<Compile> {
    let mut rows: Vec<(Told, Compile)> = CATALOG
        .iter()
        .filter_map(|e| Some((e.told?, e.compile?)))
        .collect();
    rows.sort_by_key(|(t, _)| t.order);
    rows.into_iter()
        .find(|(t, _)| (t.is)(text))
        .map(|(_, compile)| compile)
}

/// The formats `--log-format` compiles for, by name, as a sentence ("nginx, apache, haproxy
/// or envoy").
pub fn compiled_names() -> String {
    let names: Vec<&str> = CATALOG
        .iter()
        .filter(|e| e.compile.is_some() && e.named)
        .map(|e| e.name)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::role::Role;

    /// The `InputFormat` constants the code names.
    fn constants() -> [InputFormat; 15] {
        use InputFormat as F;
        [
            F::Auto,
            F::Csv,
            F::Tsv,
            F::Nginx,
            F::Apache,
            F::Alb,
            F::Elb,
            F::Cloudfront,
            F::Haproxy,
            F::Envoy,
            F::Json,
            F::Iis,
            F::Otlp,
            F::Zipkin,
            F::Jaeger,
        ]
    }

    #[test]
    fn every_constant_is_a_named_row_and_every_row_a_unique_name() {
        for input in constants() {
            let rows = CATALOG
                .iter()
                .filter(|e| e.named && e.name == input.name())
                .count();
            assert_eq!(rows, 1, "{input:?}");
            assert_eq!(entry(input).name, input.name());
        }
        for e in CATALOG.iter().filter(|e| e.named) {
            let input: InputFormat = e.name.parse().unwrap();
            assert_eq!(entry(input).name, e.name);
        }
        assert!("apigateway".parse::<InputFormat>().is_err());
        let mut names: Vec<&str> = CATALOG.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOG.len());
        let mut orders: Vec<u8> = CATALOG
            .iter()
            .filter_map(|e| e.detect.map(|d| d.order))
            .collect();
        orders.sort_unstable();
        orders.dedup();
        assert_eq!(
            orders.len(),
            CATALOG.iter().filter(|e| e.detect.is_some()).count()
        );
    }

    /// docs/FORMATS.md's table of formats has one row per catalog row, in its order: its
    /// name and its description, exactly. `UPDATE_GOLDEN=1` writes the table from the rows, as
    /// it writes the goldens, so a new format's docs row is generated, not written by hand.
    #[test]
    fn the_docs_table_lists_every_row() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/FORMATS.md");
        let docs = std::fs::read_to_string(path).unwrap();
        let want: Vec<String> = CATALOG
            .iter()
            .map(|e| format!("| `{}` | {} |", e.name, e.describe))
            .collect();
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            let lines: Vec<&str> = docs.lines().collect();
            let first = lines.iter().position(|l| l.starts_with("| `")).unwrap();
            let last = first
                + lines[first..]
                    .iter()
                    .take_while(|l| l.starts_with("| `"))
                    .count();
            let mut out: Vec<String> = lines[..first].iter().map(|l| l.to_string()).collect();
            out.extend(want.iter().cloned());
            out.extend(lines[last..].iter().map(|l| l.to_string()));
            std::fs::write(path, out.join("\n") + "\n").unwrap();
            return;
        }
        let rows: Vec<&str> = docs.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(
            rows, want,
            "docs/FORMATS.md's `--input-format` table (UPDATE_GOLDEN=1 writes it)"
        );
    }

    #[test]
    fn every_flags_dialect_is_listed_once() {
        use crate::logs::FlagsStyle;
        let names: Vec<&str> = flags().map(|f| f.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for f in flags() {
            assert_eq!(FlagsStyle::by_name(f.name).map(|s| s.name), Some(f.name));
            assert!(FlagsStyle::names().contains(f.name));
            assert!(!f.give_ups.codes.is_empty(), "{}", f.name);
        }
        assert_eq!(FlagsStyle::by_name("envoy"), Some(FlagsStyle::DEFAULT));
        assert_eq!(FlagsStyle::from_name(b"termination_state").name, "haproxy");
        assert_eq!(
            FlagsStyle::from_name(b"x-edge-detailed-result-type").name,
            "cloudfront"
        );
        assert_eq!(
            FlagsStyle::from_name(b"response_flags"),
            FlagsStyle::DEFAULT
        );
        assert!(FlagsStyle::by_name("squid").is_none());
    }

    /// Each row's samples: told as its own by auto detection when they say so, read by the
    /// row's format to the fields they name, by role.
    #[test]
    fn every_sample_reads_to_its_fields() {
        use crate::logs::{ColumnMap, Fields};
        let mut samples = 0;
        for row in CATALOG {
            for sample in row.samples {
                let at = format!("{} sample {:?}", row.name, sample.name);
                let lines = sample.lines();
                if sample.detected {
                    let first = by_detection().find(|(_, sniff)| sniff(&lines, &[]).is_some());
                    assert_eq!(first.map(|(e, _)| e.name), Some(row.name), "{at}");
                }
                let format = row
                    .read_as(&lines)
                    .unwrap_or_else(|| panic!("{at}: not read"));
                let map = ColumnMap::for_format(&at, format.as_ref(), &[], None)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                // Every line in order (IIS's `#Fields:` lines set the layout of the lines
                // after them); the last is the record read.
                let mut fields = Fields::default();
                for line in lines.iter().filter(|l| !format.skip(l)) {
                    fields.clear();
                    format
                        .split(line, &mut fields)
                        .unwrap_or_else(|e| panic!("{at}: {e}"));
                }
                let read: Vec<(Role, String)> = Role::ALL
                    .iter()
                    .filter_map(|&role| {
                        let i = map.index_of(role)?;
                        Some((role, String::from_utf8_lossy(fields.get(i)?).into_owned()))
                    })
                    .collect();
                for (role, want) in sample.reads {
                    let got = read
                        .iter()
                        .find(|(r, _)| r == role)
                        .map(|(_, v)| v.as_str());
                    assert_eq!(got, Some(*want), "{at}: {role}; read {read:?}");
                }
                assert!(
                    !sample.reads.is_empty(),
                    "{at}: reads nothing; read {read:?}"
                );
                let gave_up = map
                    .flags
                    .map(|i| map.flags_style.gave_up(fields.get(i).unwrap_or_default()));
                assert_eq!(gave_up, sample.gave_up, "{at}: {:?}", map.flags_style);
                samples += 1;
            }
        }
        assert!(samples >= 10, "{samples} samples");
    }

    /// Every line format's row has a sample to read.
    #[test]
    fn every_line_format_has_samples() {
        for row in CATALOG {
            let reads_lines = !matches!(row.reading, Reading::Csv { .. } | Reading::Trace { .. })
                && row.name != "auto";
            assert_eq!(!row.samples.is_empty(), reads_lines, "{}", row.name);
        }
    }

    #[test]
    fn help_names_every_input_format() {
        let help = help();
        for e in CATALOG.iter().filter(|e| e.named) {
            assert!(help.contains(e.name), "{help}");
        }
    }
}
