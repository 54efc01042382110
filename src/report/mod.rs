//! The reports of a run, and the renderers that write them.
//!
//! Each run builds one [`Report`] (an estimate, a sweep, a measurement from logs, a probe);
//! each output format is one [`Renderer`] in a file of its own (`table`, `markdown`, `json`,
//! `csv`, `html`), and [`renderer`] is the one match that picks it. The words every format
//! shares live in `words`, beside what they word; `model` holds the figures and labels the
//! human formats show; `svg` draws the charts the markdown links and the page inlines;
//! `output` writes a run's report out, with its charts and saved scenario, in one step.

pub mod csv;
pub mod evidence;
pub mod headline;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod metrics;
pub mod model;
pub mod output;
pub mod svg;
pub mod table;
pub mod words;

/// The number formatting every human format and the explorer share (it lives below the
/// findings, which word themselves with it).
pub use crate::words::human;

use crate::inputs::Sources;
use crate::logs::FileInfo;
use crate::probe::Probe;
use crate::sweep::Curves;

use self::markdown::ChartLink;
use self::model::LogsReport;

pub use self::output::Output;

/// `--format`: how a report is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned, rounded, for people
    Table,
    /// The JSON contract of docs/MODEL.md, unrounded
    Json,
    /// A header of dotted names and one row per estimate
    Csv,
    /// A report to paste into a design document or a pull request (CommonMark, pipe tables)
    Markdown,
    /// One self-contained page to send to the people who decide (inline style and charts,
    /// nothing fetched, no script; prints on A4, reads in light and dark)
    Html,
    /// JUnit XML for CI: a test case a check of `dupcost probe`, a failure with its evidence
    Junit,
}

/// What one run found, whatever the format: the value every renderer writes out.
pub struct Report<'a> {
    pub run: Run<'a>,
    pub style: &'a Style,
    /// The charts `--plot DIR` wrote, which the markdown links to.
    pub charts: &'a [ChartLink],
    /// `--explain`: the table says everything, not the answer first.
    pub explain: bool,
}

/// The kinds of run that report.
pub enum Run<'a> {
    /// `dupcost estimate`: one scenario, each input given or assumed by `sources`; its
    /// `curves` when the output draws them ([`Output::draws_curves`]).
    Estimate {
        estimate: &'a Estimate,
        curves: Option<&'a Curves>,
        sources: &'a Sources,
    },
    /// `dupcost estimate --sweep`: one estimate a value of `input`.
    Sweep {
        input: Input,
        estimates: &'a [Estimate],
        sources: &'a Sources,
    },
    /// `dupcost logs` and `estimate --observed`: the measurement and its estimate; the table
    /// tells how each of `files` was read and which `methods` were counted.
    Logs {
        report: &'a LogsReport<'a>,
        /// The estimate's curves, when the output draws them ([`Output::draws_curves`]).
        curves: Option<&'a Curves>,
        files: &'a [FileInfo],
        methods: &'a [String],
    },
    /// `dupcost probe`: its checks, costed in the scenario of `estimate`.
    Probe {
        probe: &'a Probe,
        estimate: &'a Estimate,
        sources: &'a Sources,
    },
}

/// One output format: a report to bytes. An `Err` is a run the format cannot write, in words
/// for the user (`--format csv` of a probe).
pub trait Renderer {
    fn render(&self, report: &Report) -> Result<Vec<u8>, String>;
}

/// The renderer of `format`.
pub fn renderer(format: Format) -> &'static dyn Renderer {
    match format {
        Format::Table => &table::Table,
        Format::Json => &json::Json,
        Format::Csv => &csv::Csv,
        Format::Markdown => &markdown::Markdown,
        Format::Html => &html::Html,
        Format::Junit => &junit::Junit,
    }
}

impl Report<'_> {
    /// The report in `format`.
    pub fn render(&self, format: Format) -> Result<Vec<u8>, String> {
        renderer(format).render(self)
    }
}

use crate::inputs::Input;
use crate::model::{Estimate, Field};

/// How a human-facing report looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    /// Currency symbol put before money (`$`, `€`, `EUR `).
    pub currency: String,
    /// Whether to emit ANSI colour and bold.
    pub color: bool,
    /// The `--preset` the scenario started from, to mark the values it set.
    pub preset: Option<PresetTrace>,
    /// Where each input came from, for a report without logs (`dupcost estimate`): its
    /// Scenario section marks each input given or assumed. `None` with logs, whose report
    /// has the findings' kinds.
    pub sources: Option<crate::inputs::Sources>,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            currency: "$".to_string(),
            color: false,
            preset: None,
            sources: None,
        }
    }
}

/// A preset's trace in a report: its name and the inputs it set that no flag overrode. The
/// Scenario section marks each (`1d (stripe)`); the JSON has it as `preset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetTrace {
    pub name: &'static str,
    /// The inputs it set, in the order of [`Input::ALL`].
    pub inputs: Vec<Input>,
    /// Whether it set the schedule of retry delays (`schedule_seconds`).
    pub schedule: bool,
}

impl PresetTrace {
    /// `1d (stripe)` when the preset set `input`, else `value` as it is.
    pub fn mark(trace: Option<&PresetTrace>, input: Input, value: String) -> String {
        match trace {
            Some(t) if t.inputs.contains(&input) => format!("{value} ({})", t.name),
            _ => value,
        }
    }
}

impl serde::Serialize for PresetTrace {
    /// `{"name": "stripe", "inputs": ["ttl_seconds", ...]}`, by JSON names.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut names: Vec<&str> = self.inputs.iter().map(|i| i.json_name()).collect();
        if self.schedule {
            names.push(crate::inputs::SCHEDULE_JSON_NAME);
        }
        let mut s = serializer.serialize_struct("PresetTrace", 2)?;
        s.serialize_field("name", self.name)?;
        s.serialize_field("inputs", &names)?;
        s.end()
    }
}

/// Every input and output of an estimate as `(dotted JSON path, value)`, in JSON order: the
/// CSV columns. (The list lives with the model, which also uses it to refuse overflows.)
pub fn fields(e: &Estimate) -> Vec<(&'static str, Field)> {
    e.fields()
}

/// Words in lines of at most `width` characters (a longer word gets a line of its own);
/// continuation lines are indented by two.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let limit = if lines.is_empty() { width } else { width - 2 };
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > limit {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { l } else { format!("  {l}") })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;

    /// The flat fields name every number of the JSON contract, in its order, with its value.
    #[test]
    fn fields_match_the_json_contract() {
        let e = Estimate::new(Scenario::default());
        let json = serde_json::to_value(e).unwrap();
        let mut from_json = Vec::new();
        flatten("", &json, &mut from_json);
        let ours = fields(&e);
        assert_eq!(ours.len(), from_json.len());
        for ((name, value), (json_name, json_value)) in ours.iter().zip(&from_json) {
            assert_eq!(name, json_name);
            assert_eq!(value, json_value, "{name}");
        }
    }

    fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, Field)>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    flatten(&name, v, out);
                }
            }
            serde_json::Value::String(text) => {
                let known = ["none", "equal", "full", "bytes", "redis", "postgres"];
                let name = known
                    .into_iter()
                    .find(|k| k == text)
                    .expect("a known choice");
                out.push((prefix.to_string(), Field::Text(name)));
            }
            v => out.push((prefix.to_string(), Field::Number(v.as_f64().unwrap()))),
        }
    }

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(words.join(" "), text);
        assert!(lines[1].starts_with("  "));
        assert_eq!(wrap("", 10), Vec::<String>::new());
    }
}
