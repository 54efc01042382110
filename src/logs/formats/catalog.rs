//! The formats as data: one [`FormatEntry`] row per format, which detection
//! (`logs::detect`), `--input-format`'s names and help, the refusal of an input no format
//! reads, docs/FORMATS.md's table and the tests iterate. A new format is its own module in
//! `formats/` (its `LineFormat`, its `sniff`) and one row here.
//!
//! The rows stand in the order `--input-format` lists its names; auto detection tries the
//! rows that have a [`Detect`] by its `order` (most particular first), and the refusal
//! ranks the candidates of every row, in that same order.

use super::{
    InputFormat, LineFormat, alb, apache, apigateway, cloudfront, envoy, haproxy, haproxy_format,
    iis, json, nginx,
};

/// A format's auto detection: the format that reads at least 4 in 5 of the first lines (the
/// `--column` paths given, for JSON), if this row's does.
pub type Sniff = fn(&[&[u8]], &[&str]) -> Option<Box<dyn LineFormat>>;

/// A format's line formats for the refusal, built from the first lines: the one that fits a
/// line best is the one the refusal names.
pub type Candidates = fn(&[&[u8]]) -> Vec<Box<dyn LineFormat>>;

/// A `--log-format` text compiled as a format's.
pub type Compile = fn(&str) -> Result<Box<dyn LineFormat>, String>;

/// Whose a `--log-format` text is, with no `--input-format`: the rows are asked in `order`,
/// and the first whose `is` says yes compiles it.
#[derive(Clone, Copy)]
pub struct Told {
    pub order: u8,
    pub is: fn(&str) -> bool,
}

/// Where a row stands in auto detection.
#[derive(Clone, Copy)]
pub struct Detect {
    /// Tried in increasing order (rows apart by 10, so a new one finds its place).
    pub order: u8,
    pub sniff: Sniff,
}

/// What a line of a format looks like at a glance, for the refusal: a format built from the
/// first lines, which splits any line by its separators (ALB, ELB, CloudFront, IIS), is
/// ranked only on a line of its shape, and a line no format reads a field of is said to look
/// most like the first row whose shape it has.
#[derive(Clone, Copy)]
pub struct Looks {
    /// What the refusal calls it ("AWS ALB").
    pub name: &'static str,
    pub test: fn(&[u8]) -> bool,
}

/// How the format `--input-format` names reads an input.
#[derive(Clone, Copy)]
pub enum Reading {
    /// Told from the first lines (`auto`, and a row no flag names).
    Auto,
    /// CSV or TSV: a header names the fields (`delimiter`: TSV's tab; CSV's is sniffed).
    Csv { delimiter: Option<u8> },
    /// Traces, read before any format is looked for: named here only when none was found,
    /// `missing` saying what was not.
    Trace { missing: &'static str },
    /// The row's own sniff, fitting the lines it reads when they are at least half (the
    /// rest, a server's events among its access lines, are bad rows or skipped).
    Fitting,
    /// Built from the first lines, whatever they are (ALB splits any line by its spaces);
    /// `bare_first`: when the bare lines read, no envelope is looked for.
    Built {
        build: fn(&[&[u8]]) -> Box<dyn LineFormat>,
        bare_first: bool,
    },
    /// Built from the first lines and the `--column` paths, when they hold one
    /// (`missing` says what they lack).
    FromLines { read: Sniff, missing: &'static str },
}

/// One format: its name, how it is told, read and refused.
#[derive(Clone, Copy)]
pub struct FormatEntry {
    /// Its `--input-format` name (or, for a row no flag names, the name docs use).
    pub name: &'static str,
    /// `--input-format NAME` names it (else it is told by auto detection only).
    pub named: bool,
    /// One line for the docs (markdown): docs/FORMATS.md's row says exactly this.
    pub describe: &'static str,
    /// Its place in auto detection, if it is told from the first lines.
    pub detect: Option<Detect>,
    /// How `--input-format NAME` reads.
    pub reading: Reading,
    /// Its line formats, for the refusal that names the closest.
    pub candidates: Candidates,
    /// Its lines' shape at a glance, for the refusal.
    pub looks: Option<Looks>,
    /// `--log-format TEXT` with `--input-format NAME`: TEXT compiled as this format's.
    pub compile: Option<Compile>,
    /// `--log-format TEXT` alone: where this format stands in telling whose TEXT is, and
    /// whether it is (then its `compile` reads it).
    pub told: Option<Told>,
}

fn none(_: &[&[u8]]) -> Vec<Box<dyn LineFormat>> {
    Vec::new()
}

/// Each preset of a template family, compiled.
fn presets<const N: usize>(
    presets: &[(&str, &str, &str); N],
    compile: Compile,
) -> Vec<Box<dyn LineFormat>> {
    presets
        .iter()
        .filter_map(|(text, ..)| compile(text).ok())
        .collect()
}

/// `2026-11-01<sep>10:00:01`: a W3C log's date, `sep`, then its time.
fn w3c_date_then(line: &[u8], sep: u8) -> bool {
    line.len() >= 19
        && line[4] == b'-'
        && line[7] == b'-'
        && line[10] == sep
        && line[13] == b':'
        && line[16] == b':'
}

fn alb_lb(_: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(alb::AwsLoadBalancer::new(alb::Balancer::Alb))
}

fn elb_lb(_: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(alb::AwsLoadBalancer::new(alb::Balancer::Elb))
}

fn cloudfront_lines(lines: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(cloudfront::Cloudfront::from_lines(lines))
}

fn iis_lines(lines: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(iis::Iis::from_lines(lines))
}

fn json_lines(lines: &[&[u8]], paths: &[&str]) -> Option<Box<dyn LineFormat>> {
    json::JsonLines::from_lines(lines, paths).map(|f| Box::new(f) as Box<dyn LineFormat>)
}

fn haproxy_compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    if text.trim().is_empty() {
        Ok(Box::new(haproxy::Haproxy))
    } else {
        haproxy_format::compile(text)
    }
}

/// Every format, in the order `--input-format` lists them.
pub static CATALOG: &[FormatEntry] = &[
    FormatEntry {
        name: "auto",
        named: true,
        describe: "told from each file's first lines (the default)",
        detect: None,
        reading: Reading::Auto,
        candidates: none,
        looks: None,
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "csv",
        named: true,
        describe: "CSV with a header naming the fields (a method and a status at least)",
        detect: None,
        reading: Reading::Csv { delimiter: None },
        candidates: none,
        looks: None,
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "tsv",
        named: true,
        describe: "tab-separated, with a header naming the fields",
        detect: None,
        reading: Reading::Csv {
            delimiter: Some(b'\t'),
        },
        candidates: none,
        looks: None,
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "nginx",
        named: true,
        describe: "nginx access log: combined, main, ingress-nginx upstreaminfo, Nginx Proxy Manager's, Traefik's CLF, or any `log_format`",
        detect: Some(Detect {
            order: 80,
            sniff: |lines, _| nginx::sniff(lines),
        }),
        reading: Reading::Fitting,
        candidates: |_| presets(&nginx::PRESETS, nginx::compile),
        looks: Some(Looks {
            name: "nginx combined",
            test: |l| memchr::memmem::find(l, b"] \"").is_some(),
        }),
        compile: Some(nginx::compile),
        told: Some(Told {
            order: 90,
            // Any text no other format claims.
            is: |_| true,
        }),
    },
    FormatEntry {
        name: "apache",
        named: true,
        describe: "Apache httpd access log: common, combined, vcombined, vhost (combined after the virtual host), or any `LogFormat`",
        detect: Some(Detect {
            order: 90,
            sniff: |lines, _| apache::sniff(lines),
        }),
        reading: Reading::Fitting,
        candidates: |_| presets(&apache::PRESETS, apache::compile),
        looks: None,
        compile: Some(apache::compile),
        told: Some(Told {
            order: 40,
            is: apache::is_apache,
        }),
    },
    FormatEntry {
        name: "alb",
        named: true,
        describe: "AWS Application Load Balancer access log (classic ELB's told apart)",
        detect: Some(Detect {
            order: 10,
            sniff: |lines, _| alb::sniff(lines),
        }),
        reading: Reading::Built {
            build: alb_lb,
            bare_first: true,
        },
        candidates: |lines| vec![alb_lb(lines)],
        looks: Some(Looks {
            name: "AWS ALB",
            test: |l| {
                [&b"http "[..], b"https ", b"h2 ", b"grpcs ", b"ws ", b"wss "]
                    .iter()
                    .any(|t| l.starts_with(t))
            },
        }),
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "elb",
        named: true,
        describe: "AWS classic Elastic Load Balancer access log",
        // Told by ALB's sniff, which tells the two apart.
        detect: None,
        reading: Reading::Built {
            build: elb_lb,
            bare_first: true,
        },
        candidates: |lines| vec![elb_lb(lines)],
        looks: Some(Looks {
            name: "AWS classic ELB",
            test: |l| l.len() >= 20 && l[4] == b'-' && l[10] == b'T',
        }),
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "cloudfront",
        named: true,
        describe: "Amazon CloudFront standard log (W3C, tab-separated, its `#Fields:` line)",
        detect: Some(Detect {
            order: 20,
            sniff: |lines, _| cloudfront::sniff(lines),
        }),
        reading: Reading::Built {
            build: cloudfront_lines,
            bare_first: true,
        },
        candidates: |lines| vec![cloudfront_lines(lines)],
        looks: Some(Looks {
            name: "CloudFront (W3C)",
            test: |l| {
                (l.starts_with(b"#") && !l.starts_with(b"#Software:")) || w3c_date_then(l, b'\t')
            },
        }),
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "iis",
        named: true,
        describe: "Microsoft IIS W3C extended log and IIS Advanced Logging (their `#Fields:` lines); not IIS's FTP log",
        detect: Some(Detect {
            order: 30,
            sniff: |lines, _| iis::sniff(lines),
        }),
        reading: Reading::Built {
            build: iis_lines,
            bare_first: false,
        },
        candidates: |lines| vec![iis_lines(lines)],
        looks: Some(Looks {
            name: "IIS (W3C)",
            // `#Software: Microsoft Internet Information Services` or `IIS Advanced Logging`.
            test: |l| l.starts_with(b"#Software:") || w3c_date_then(l, b' '),
        }),
        compile: None,
        told: None,
    },
    FormatEntry {
        name: "haproxy",
        named: true,
        describe: "HAProxy `option httplog` (with or without syslog's prefix), or any `log-format`",
        detect: Some(Detect {
            order: 60,
            sniff: |lines, _| haproxy::sniff(lines),
        }),
        reading: Reading::Fitting,
        candidates: |_| vec![Box::new(haproxy::Haproxy)],
        looks: Some(Looks {
            name: "HAProxy httplog",
            test: |l| {
                memchr::memmem::find(l, b"haproxy[").is_some()
                    || memchr::memmem::find(l, b"/Tw/").is_some()
            },
        }),
        compile: Some(haproxy_compile),
        told: Some(Told {
            order: 20,
            is: haproxy_format::is_haproxy,
        }),
    },
    FormatEntry {
        name: "envoy",
        named: true,
        describe: "Envoy and Istio access logs: their default layouts, or any format string",
        detect: Some(Detect {
            order: 70,
            sniff: |lines, _| envoy::sniff(lines),
        }),
        reading: Reading::Fitting,
        candidates: |_| presets(&envoy::PRESETS, envoy::compile),
        looks: Some(Looks {
            name: "Envoy",
            test: |l| l.starts_with(b"[") && l.get(5) == Some(&b'-'),
        }),
        compile: Some(envoy::compile),
        told: Some(Told {
            // Before HAProxy, whose `%ST` is in `%START_TIME%`.
            order: 10,
            is: envoy::is_envoy,
        }),
    },
    FormatEntry {
        name: "json",
        named: true,
        describe: "JSON lines: Caddy, Traefik, Envoy, Cloudflare, Google Cloud, Kong, API Gateway, ... or any keys (`--column`)",
        detect: Some(Detect {
            order: 40,
            sniff: json::sniff,
        }),
        reading: Reading::FromLines {
            read: json_lines,
            missing: "no line among the first is a JSON object",
        },
        candidates: |lines| json_lines(lines, &[]).into_iter().collect(),
        looks: Some(Looks {
            name: "JSON lines",
            test: |l| l.starts_with(b"{"),
        }),
        compile: None,
        told: None,
    },
    FormatEntry {
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
    },
    FormatEntry {
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
    },
    FormatEntry {
        name: "apigateway",
        named: false,
        describe: "(no flag: told by auto, or given with `--log-format`) AWS API Gateway's text layouts: CLF, CSV, XML; its JSON is JSON lines",
        // Before the CLF formats its own CLF resembles.
        detect: Some(Detect {
            order: 50,
            sniff: |lines, _| apigateway::sniff(lines),
        }),
        reading: Reading::Auto,
        candidates: |_| presets(&apigateway::PRESETS, apigateway::compile),
        looks: None,
        compile: Some(apigateway::compile),
        told: Some(Told {
            order: 30,
            is: apigateway::is_apigateway,
        }),
    },
];

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

    /// The `InputFormat` constants the code names.
    fn constants() -> [InputFormat; 14] {
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
    /// name and its description, exactly.
    #[test]
    fn the_docs_table_lists_every_row() {
        let docs = include_str!("../../../docs/FORMATS.md");
        let rows: Vec<&str> = docs.lines().filter(|l| l.starts_with("| `")).collect();
        let want: Vec<String> = CATALOG
            .iter()
            .map(|e| format!("| `{}` | {} |", e.name, e.describe))
            .collect();
        assert_eq!(rows, want, "docs/FORMATS.md's `--input-format` table");
    }

    #[test]
    fn help_names_every_input_format() {
        let help = help();
        for e in CATALOG.iter().filter(|e| e.named) {
            assert!(help.contains(e.name), "{help}");
        }
    }
}
