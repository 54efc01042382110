//! The probe's table: each check with its outcome, the duplicates seen, and what each failure
//! costs in the user's scenario.

use std::fmt::Write;

use anstyle::{AnsiColor, Style as Ansi};

use crate::model::Estimate;
use crate::probe::{Grade, Probe};
use crate::report::words::probe::{costs, duplicates_seen, outcome_word, scenario_line, verdict};
use crate::report::{Style, wrap};

/// `--format table`: for people.
pub fn table(probe: &Probe, estimate: &Estimate, style: &Style) -> Vec<u8> {
    let paint = |ansi: Ansi, text: &str| {
        if style.color {
            format!("{}{text}{}", ansi.render(), ansi.render_reset())
        } else {
            text.to_string()
        }
    };
    let bold = Ansi::new().bold();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        paint(
            bold,
            &format!(
                "Probe of {} {} ({} requests)",
                probe.method, probe.url, probe.requests
            )
        )
    );
    let _ = writeln!(
        out,
        "  {:<18}{:<9}{:>9}{:>18}",
        "check", "outcome", "requests", "executions seen"
    );
    for check in &probe.checks {
        // Pad before painting: escape codes have no width.
        let outcome = format!("{:<9}", outcome_word(check.outcome));
        let _ = writeln!(
            out,
            "  {:<18}{}{:>9}{:>18}",
            check.name,
            paint(outcome_style(check.outcome), &outcome),
            check.requests,
            check.executions_seen
        );
    }
    out.push('\n');
    for check in &probe.checks {
        for line in wrap(&format!("{}: {}.", check.name, check.detail), 96) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{} {}",
        paint(bold, "Duplicates seen:"),
        duplicates_seen(probe)
    );
    let costs = costs(probe, estimate, &style.currency);
    if !costs.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "{}", paint(bold, "What a failure costs"));
        for line in wrap(&scenario_line(estimate, &style.currency), 96) {
            let _ = writeln!(out, "  {line}");
        }
        for (name, text) in &costs {
            for line in wrap(&format!("{name}: {text}"), 96) {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{}",
        paint(bold, &format!("Verdict: {}", verdict(probe)))
    );
    out.into_bytes()
}

fn outcome_style(outcome: Grade) -> Ansi {
    let color = match outcome {
        Grade::Pass => AnsiColor::Green,
        Grade::Warn => AnsiColor::Yellow,
        Grade::Fail => AnsiColor::Red,
    };
    Ansi::new().fg_color(Some(color.into())).bold()
}
