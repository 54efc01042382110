//! A format's row as data: [`FormatEntry`] and its parts, which each format's file fills in
//! for itself (`pub const ENTRY`) and [`super::catalog::CATALOG`] lists (built by `formats!`
//! in `formats/mod.rs`, one line a format). Apart from the list,
//! so a format's file and the list each depend on this file, never on each other.
use super::super::role::Role;
use super::{Flags, LineFormat};

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
    /// The flags dialects its lines write (a format's own, or its platforms'): each is
    /// listed by one row, and the SQL builder and `FlagsStyle::from_name` find them here.
    pub flags: &'static [&'static Flags],
    /// A few lines of its logs, each read by a unit test to the fields it names, and by the
    /// catalog's fuzz target as a layout to read fuzzed lines with.
    pub samples: &'static [Sample],
}

/// Lines as a log of a format holds them.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// What they show ("combined", "Istio's default").
    pub name: &'static str,
    /// The lines, `#Fields:` or other header lines included.
    pub lines: &'static str,
    /// Auto detection tells them as this row's: no row before it in detection claims them.
    /// (Else the row reads them when named: ELB's lines are told by ALB's sniff.)
    pub detected: bool,
    /// Its last line's fields, by role, as read.
    pub reads: &'static [(Role, &'static str)],
    /// Its last line's flags say the client gave up, as the flags dialect the format gives
    /// them reads its give-up codes (`None`: no flags field).
    pub gave_up: Option<bool>,
}

impl Sample {
    /// Its lines, as the sniffs see them.
    pub fn lines(&self) -> Vec<&'static [u8]> {
        self.lines.lines().map(str::as_bytes).collect()
    }
}

impl FormatEntry {
    /// The line format this row reads `lines` with when it is named (its sniff's, for a row
    /// whose named reading is its sniff); `None` when it reads no line format (CSV, traces)
    /// or the lines do not fit.
    pub fn read_as(&self, lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
        match self.reading {
            Reading::Built { build, .. } => Some(build(lines)),
            Reading::FromLines { read, .. } => read(lines, &[]),
            Reading::Fitting | Reading::Auto => self.detect.and_then(|d| (d.sniff)(lines, &[])),
            Reading::Csv { .. } | Reading::Trace { .. } => None,
        }
    }
}

pub fn none(_: &[&[u8]]) -> Vec<Box<dyn LineFormat>> {
    Vec::new()
}

/// Each preset of a template family, compiled.
pub fn presets<const N: usize>(
    presets: &[(&str, &str, &str); N],
    compile: Compile,
) -> Vec<Box<dyn LineFormat>> {
    presets
        .iter()
        .filter_map(|(text, ..)| compile(text).ok())
        .collect()
}

/// `2026-11-01<sep>10:00:01`: a W3C log's date, `sep`, then its time.
pub fn w3c_date_then(line: &[u8], sep: u8) -> bool {
    line.len() >= 19
        && line[4] == b'-'
        && line[7] == b'-'
        && line[10] == sep
        && line[13] == b':'
        && line[16] == b':'
}
