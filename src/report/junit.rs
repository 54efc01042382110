//! `dupcost probe URL --format junit`: the probe as a JUnit XML report, the format CI systems
//! read (GitHub Actions' test reporters, GitLab, Jenkins, Azure Pipelines).
//!
//! One `<testcase>` a check, in the order they ran. A failed check has a `<failure>` whose
//! message is the check's detail and whose text is its evidence: the requests sent, the
//! executions seen, and what such a failure costs in the scenario. A check that did not apply
//! (it sent no request: a body the probe cannot change for `payload_mismatch`) is
//! `<skipped>`. A warning passes, its detail in `<system-out>`. No times are written, so a
//! report is the same for the same answers.

use std::fmt::Write;

use super::{Renderer, Report, Run, Style};
use crate::model::Estimate;
use crate::probe::{Check, Grade, Probe};

/// The JUnit renderer: a probe's checks; the reports of figures have no test cases.
pub struct Junit;

impl Renderer for Junit {
    fn render(&self, report: &Report) -> Result<Vec<u8>, String> {
        match &report.run {
            Run::Probe {
                probe, estimate, ..
            } => Ok(junit(probe, estimate, report.style)),
            _ => Err(
                "--format junit is dupcost probe's: use table, json, csv, markdown or html"
                    .to_string(),
            ),
        }
    }
}

/// The report's bytes.
fn junit(probe: &Probe, estimate: &Estimate, style: &Style) -> Vec<u8> {
    let costs = super::words::probe::costs(probe, estimate, &style.currency);
    let skipped = probe.checks.iter().filter(|c| skips(c)).count();
    let failures = probe
        .checks
        .iter()
        .filter(|c| !skips(c) && c.outcome == Grade::Fail)
        .count();
    let counts = format!(
        r#"tests="{}" failures="{failures}" errors="0" skipped="{skipped}""#,
        probe.checks.len()
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, r#"<testsuites name="dupcost probe" {counts}>"#);
    let _ = writeln!(
        out,
        r#"  <testsuite name="{}" {counts}>"#,
        escape(&format!("dupcost probe {} {}", probe.method, probe.url))
    );
    out.push_str("    <properties>\n");
    for (name, value) in [
        ("url", probe.url.clone()),
        ("method", probe.method.clone()),
        ("requests", probe.requests.to_string()),
        ("duplicates_seen", probe.duplicates_seen.to_string()),
        ("verdict", probe.verdict.name().to_string()),
        (
            "answers_tell_executions_apart",
            probe.answers_tell_executions_apart.to_string(),
        ),
    ] {
        let _ = writeln!(
            out,
            r#"      <property name="{name}" value="{}"/>"#,
            escape(&value)
        );
    }
    out.push_str("    </properties>\n");
    for check in &probe.checks {
        let open = format!(
            r#"    <testcase name="{}" classname="dupcost.probe""#,
            check.name
        );
        if skips(check) {
            let _ = writeln!(
                out,
                "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                escape(&check.detail)
            );
            continue;
        }
        match check.outcome {
            Grade::Pass => {
                let _ = writeln!(out, "{open}/>");
            }
            Grade::Warn => {
                let _ = writeln!(
                    out,
                    "{open}>\n      <system-out>warn: {}</system-out>\n    </testcase>",
                    escape(&check.detail)
                );
            }
            Grade::Fail => {
                let mut evidence = format!(
                    "{}\nrequests: {}\nexecutions seen: {}\n",
                    check.detail, check.requests, check.executions_seen
                );
                if check.extra_executions > 0 {
                    let _ = writeln!(
                        evidence,
                        "executions beyond the first for one key: {}",
                        check.extra_executions
                    );
                }
                if let Some((_, cost)) = costs.iter().find(|(name, _)| *name == check.name) {
                    let _ = writeln!(evidence, "what it costs: {cost}");
                    let _ = writeln!(
                        evidence,
                        "{}",
                        super::words::probe::scenario_line(estimate, &style.currency)
                    );
                }
                let _ = writeln!(
                    out,
                    "{open}>\n      <failure message=\"{}\" type=\"fail\">{}</failure>\n    </testcase>",
                    escape(&check.detail),
                    escape(&evidence)
                );
            }
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out.into_bytes()
}

/// A check that sent no request did not apply.
fn skips(check: &Check) -> bool {
    check.requests == 0
}

/// Text as XML character data or an attribute's value. Characters XML 1.0 cannot hold at
/// all (controls other than tab, newline and carriage return) become U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_drops_what_xml_cannot_hold() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\n"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}\n"
        );
    }
}
