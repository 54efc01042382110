//! The table's answer first: the headline block, the inputs in three short groups, the
//! verdict and the flags it rests on, wrapped to the terminal's width. `--explain` prints
//! the whole report instead.

use crate::report::Style;
use crate::report::headline::{Figure, Headline, InputLine};

/// The width a line is wrapped to: `COLUMNS` where the shell exports it, else 80.
pub fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c >= 40)
        .unwrap_or(80)
}

/// The headline report, each line at most `width` columns (a longer word keeps its own line).
pub fn render(h: &Headline, style: &Style, width: usize) -> Vec<u8> {
    let bold = |text: &str| {
        if style.color {
            let b = anstyle::Style::new().bold();
            format!("{}{text}{}", b.render(), b.render_reset())
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    let para = |out: &mut String, indent: usize, text: &str| {
        let pad = " ".repeat(indent);
        for line in crate::report::wrap(text, width - indent) {
            out.push_str(&pad);
            out.push_str(&line);
            out.push('\n');
        }
    };
    out.push_str(&bold("What missing idempotency costs"));
    out.push('\n');
    for f in [&h.duplicates, &h.refunds, &h.unanswered, &h.fix] {
        para(&mut out, 2, &figure(f));
    }
    if !h.endpoints.is_empty() {
        out.push('\n');
        out.push_str(&bold("Costliest endpoints"));
        out.push('\n');
        for e in &h.endpoints {
            para(&mut out, 2, e);
        }
    }
    out.push('\n');
    out.push_str(&bold("Inputs"));
    out.push('\n');
    let groups: [(&str, &[InputLine]); 3] = [
        ("measured", &h.measured),
        ("given", &h.given),
        ("assumed", &h.assumed),
    ];
    for (name, lines) in groups {
        for line in lines {
            let sep = if name == "assumed" {
                ", settle it with"
            } else {
                ":"
            };
            let text = format!(
                "{name:<8}  {} {}{sep} {}",
                line.label, line.value, line.from
            );
            para(&mut out, 2, text.trim_end_matches([':', ' ']));
        }
    }
    if h.more_defaults > 0 {
        para(
            &mut out,
            2,
            &format!(
                "and {} more {}: --explain lists them",
                h.more_defaults,
                if h.more_defaults == 1 {
                    "default"
                } else {
                    "defaults"
                }
            ),
        );
    }
    out.push('\n');
    let verdict = format!("Verdict: {}", h.verdict);
    for line in crate::report::wrap(&verdict, width) {
        out.push_str(&bold(&line));
        out.push('\n');
    }
    if let Some(rests) = &h.rests_on {
        para(&mut out, 2, rests);
    }
    out.into_bytes()
}

/// `refunds: $24,048 a month ($0 to $48,096 over the succeeded share's 0% to 100%)`.
fn figure(f: &Figure) -> String {
    match &f.range {
        Some(range) => format!("{}: {} ({range})", f.label, f.value),
        None => format!("{}: {}", f.label, f.value),
    }
}
