//! The table of `dupcost logs`: a "Measured from logs" section (each derived input with its
//! evidence, how each file was read), compact per-day and top-endpoint tables, then the
//! `estimate` report.

use std::fmt::Write;

use anstyle::Style as Ansi;

use crate::findings::{Findings, Observed};
use crate::logs::{FileInfo, Role};
use crate::model::Estimate;
use crate::report::words::{count, count_f, plural, unit_names};
use crate::units::Rate;

use crate::report::model::{LogsReport, per_day_rows};
use crate::report::{Style, human, table};

/// Days shown in full; longer logs show the first and last half of this.
const DAYS_SHOWN: usize = 14;

/// The table report.
pub fn table(r: &LogsReport, files: &[FileInfo], methods: &[String], style: &Style) -> Vec<u8> {
    let (e, derived) = (r.estimate, r.findings);
    let bold = |text: &str| {
        if style.color {
            let b = Ansi::new().bold();
            format!("{}{text}{}", b.render(), b.render_reset())
        } else {
            text.to_string()
        }
    };
    let o = &derived.observed;
    let c = style.currency.as_str();
    let mut out = String::new();
    let _ = writeln!(out, "{}", bold("Measured from logs"));
    for evidence in &r.evidence {
        let _ = writeln!(out, "  {evidence}");
    }
    for f in files {
        for line in describe_file(f) {
            let _ = writeln!(out, "  {line}");
        }
    }
    let span = match (&o.first_timestamp, &o.last_timestamp) {
        (Some(a), Some(b)) => format!(" from {a} to {b}"),
        _ => String::new(),
    };
    let filtered = if o.rows_filtered > 0 {
        format!(
            " ({} kept, {} filtered out)",
            count(o.rows - o.bad_rows - o.rows_filtered),
            count(o.rows_filtered)
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "  {}{filtered}{span}: {}, {} skipped",
        plural(o.rows, "row"),
        plural(o.mutating_attempts, "mutating attempt"),
        plural(o.bad_rows, "bad row")
    );
    for w in &r.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
    out.push('\n');
    out.push_str(&intents_section(o, r.duplicates_note.as_deref(), c, &bold));
    out.push_str(&intervals_section(e, derived, c, &bold));
    if let Some((_, text)) = &r.output_bounds {
        // The assumed share's bounds, carried to the money: before the blank line.
        out.pop();
        let _ = writeln!(out, "  {text}\n");
    }

    if !o.per_day.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            bold(&format!("Per day (UTC; mutating = {})", methods.join(", ")))
        );
        let rows = per_day_rows(o, DAYS_SHOWN, |gap| vec![gap]);
        out.push_str(&grid(
            &[
                "date",
                "mutating",
                "timed out",
                "succeeded",
                "unknown",
                "timeout rate",
            ],
            &rows,
        ));
        out.push('\n');
    }

    if !o.per_endpoint.is_empty() {
        let _ = writeln!(out, "{}", bold("Top endpoints (by duplicates a month)"));
        let rows: Vec<Vec<String>> = o
            .per_endpoint
            .iter()
            .map(|p| {
                vec![
                    format!(
                        "{} {}{}",
                        p.method,
                        p.route,
                        if p.enough_evidence { "" } else { " *" }
                    ),
                    count(p.mutating),
                    // The endpoint's inputs as its estimate used them.
                    Rate(p.timeout_rate).rounded(),
                    p.succeeded_share.map_or("-".into(), |s| Rate(s).rounded()),
                    human::count(p.duplicates_per_month),
                    human::money(p.refund_per_month, c),
                ]
            })
            .collect();
        let mut rows = rows;
        if let Some(other) = &o.per_endpoint_other {
            rows.push(vec![
                crate::report::words::sections::other_endpoints(other.endpoints),
                count(other.mutating),
                crate::report::model::share(other.timed_out, other.mutating),
                "-".into(),
                human::count(other.duplicates_per_month),
                human::money(other.refund_per_month, c),
            ]);
        }
        out.push_str(&grid(
            &[
                "endpoint",
                "mutating",
                "timeout rate",
                "succeeded",
                "dup/month",
                "refunds/month",
            ],
            &rows,
        ));
        if o.per_endpoint.iter().any(|p| !p.enough_evidence) {
            let _ = writeln!(
                out,
                "  * fewer than {} mutating attempts: its own timeout rate is thin (still the one its estimate uses), and it is listed after the measured endpoints",
                crate::findings::MIN_EVIDENCE
            );
        }
        out.push('\n');
    }

    let mut bytes = out.into_bytes();
    bytes.extend(table::render(&r.estimate_report, style));
    let _ = e;
    bytes
}

/// How attempts became intents, the duplicates seen, shared addresses and key coverage (issue
/// 13); nothing when the attempts were not grouped (each is its own intent).
fn intents_section(
    o: &Observed,
    note: Option<&str>,
    currency: &str,
    bold: &dyn Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    if o.intent_grouping == "none" {
        return out;
    }
    let by = if o.intent_grouping == "key" {
        "idempotency key"
    } else {
        "fingerprint"
    };
    let _ = writeln!(out, "{}", bold(&format!("Intents (grouped by {by})")));
    let bars: Vec<String> = o
        .attempts_per_intent
        .iter()
        .map(|r| {
            format!(
                "{} with {}",
                count(r.intents),
                plural(u64::from(r.attempts), "attempt")
            )
        })
        .collect();
    let bars = if bars.is_empty() {
        "none (no mutating attempt)".to_string()
    } else {
        bars.join(", ")
    };
    let _ = writeln!(out, "  attempts per intent: {bars}");
    if let Some(d) = &o.observed_duplicates {
        let per_day = d
            .per_day
            .map_or(String::new(), |v| format!(", {} a day", human::count(v)));
        let mut how = Vec::new();
        if d.evidence.upstream_2xx > 0 {
            how.push(format!(
                "{} by a timed-out attempt's upstream 2xx",
                count(d.evidence.upstream_2xx)
            ));
        }
        if d.evidence.outcomes > 0 {
            how.push(format!(
                "{} by the backend's log",
                count(d.evidence.outcomes)
            ));
        }
        let how = if how.is_empty() {
            String::new()
        } else {
            format!(" ({})", how.join(", "))
        };
        let _ = writeln!(
            out,
            "  seen executed twice: {}{per_day}: intents with two attempts or more known to have executed{how}",
            count(d.count)
        );
        let [lo, hi] = d.predicted_per_day_interval;
        let _ = writeln!(
            out,
            "  likely, by the model: {} a day (95%: {} to {}) for the same inputs",
            human::count(d.predicted_per_day),
            human::count(lo),
            human::count(hi)
        );
        if let Some(note) = note {
            let _ = writeln!(out, "  {note}");
        }
        if d.evidence.conflict_409_422 > 0 {
            let _ = writeln!(
                out,
                "  {} answered 409 or 422 on a retry: an earlier attempt executed and a uniqueness check refused the duplicate",
                plural(d.evidence.conflict_409_422, "intent")
            );
        }
    }
    if let Some(p) = &o.processed_twice {
        let per_day = p
            .per_day
            .map_or(String::new(), |v| format!(", {} a day", human::count(v)));
        let _ = writeln!(
            out,
            "  processed twice: {} past the first{per_day}, in {} answered 2xx more than once (the server's own log: a 2xx is an execution)",
            plural(p.extra_executions, "execution"),
            plural(p.intents, "intent")
        );
    }
    if let Some(sh) = o.shared_addresses.filter(|sh| sh.fingerprints > 0) {
        let _ = writeln!(
            out,
            "  {} sent more than {} attempts a minute: likely shared addresses (NAT); their {} from then on were each counted as an intent, not grouped (--shared-address-rate)",
            plural(sh.fingerprints, "fingerprint"),
            sh.rate,
            plural(sh.attempts, "attempt")
        );
    }
    if let Some(k) = &o.key_coverage {
        let _ = writeln!(
            out,
            "  key coverage: {} of mutating attempts carried an idempotency key ({})",
            Rate(k.share).rounded(),
            count(k.keyed_attempts)
        );
        if !k.per_endpoint.is_empty() {
            out.push('\n');
            let _ = writeln!(
                out,
                "{}",
                bold(
                    "Add keys here first (endpoints with unkeyed attempts, by their duplicates a month)"
                )
            );
            let rows: Vec<Vec<String>> = k
                .per_endpoint
                .iter()
                .map(|p| {
                    vec![
                        format!("{} {}", p.method, p.route),
                        Rate(p.share).rounded(),
                        human::count(p.duplicates_per_month),
                        human::money(p.refund_per_month, currency),
                    ]
                })
                .collect();
            out.push_str(&grid(
                &["endpoint", "keyed", "dup/month", "refunds/month"],
                &rows,
            ));
        }
    }
    out.push('\n');
    out
}

/// The 95% intervals of the measured inputs and of what they cost:
/// `refunds $24,048 a month (95%: $19,100 to $29,800)`.
fn intervals_section(
    e: &Estimate,
    derived: &Findings,
    currency: &str,
    bold: &dyn Fn(&str) -> String,
) -> String {
    let i = &derived.intervals;
    let from_flag = |input: &str| {
        derived
            .measured
            .iter()
            .any(|m| m.input == input && m.from_flag)
    };
    // Not measured: given by a flag, or the scenario's where the log gave too little.
    let not_measured = |input: &str| match crate::inputs::Input::from_name(input)
        .map(|i| derived.sources.get(i))
    {
        Some(crate::inputs::Origin::Flag | crate::inputs::Origin::Env) | None => {
            "given, not measured".to_string()
        }
        Some(crate::inputs::Origin::Default) => "assumed, not measured".to_string(),
        Some(source) => format!("{}, not measured", source.describe()),
    };
    let rate = crate::report::words::pct3;
    let mut out = String::new();
    let _ = writeln!(out, "{}", bold("95% intervals"));
    let mut line = |name: &str,
                    value: String,
                    [lo, hi]: [f64; 2],
                    shown: &dyn Fn(f64) -> String,
                    flag: Option<String>| {
        let range = if let Some(why) = flag {
            why
        } else {
            format!("95%: {} to {}", shown(lo), shown(hi))
        };
        let _ = writeln!(out, "  {name} {value} ({range})");
    };
    let s = &e.inputs;
    line(
        "requests a day",
        count_f(s.requests_per_day),
        i.requests_per_day,
        &|v| count_f(v),
        from_flag("requests_per_day").then(|| not_measured("requests_per_day")),
    );
    line(
        "timeout rate",
        Rate(s.timeout_rate).rounded(),
        i.timeout_rate,
        &rate,
        from_flag("timeout_rate").then(|| not_measured("timeout_rate")),
    );
    line(
        "succeeded share",
        Rate(s.succeeded_share).rounded(),
        i.succeeded_share,
        &rate,
        if from_flag("succeeded_share") {
            Some(not_measured("succeeded_share"))
        } else {
            (i.succeeded_share[0] == i.succeeded_share[1]).then(|| "given, not measured".into())
        },
    );
    line(
        "duplicates",
        format!("{} a month", human::count(e.duplicates.per_month)),
        i.duplicates_per_month,
        &|v| human::count(v),
        None,
    );
    line(
        "refunds",
        format!(
            "{} a month",
            human::money(e.refund_cost.per_month, currency)
        ),
        // Rounded outward, so the interval holds its figure (`$20,282 (95%: $20,200 to
        // $20,300)`, where rounding each bound to nearest gave `$20,300 to $20,300`).
        crate::units::round_outward(i.refund_cost_per_month, 3),
        &|v| human::money(v, currency),
        None,
    );
    out.push('\n');
    out
}

/// `read big.csv (gzip, tab-separated, 2 pieces)` or `read access.log as nginx combined
/// (detected)`, then its columns by role, wrapped.
fn describe_file(f: &FileInfo) -> Vec<String> {
    let delimiter = match f.delimiter {
        b',' => "comma".to_string(),
        b'\t' => "tab".to_string(),
        b';' => "semicolon".to_string(),
        b'|' => "pipe".to_string(),
        d => format!("'{}'", d as char),
    };
    let mut how = match &f.format {
        None => vec![format!("{delimiter}-separated")],
        Some(_) if f.detected => vec!["detected".to_string()],
        Some(_) => Vec::new(),
    };
    if f.gzip {
        how.insert(0, "gzip".into());
    }
    if f.pieces > 1 {
        how.push(format!("{} pieces", f.pieces));
    }
    let roles: Vec<String> = Role::ALL
        .iter()
        .filter_map(|&r| {
            let header = f.columns.header_of(r)?;
            let unit = if let (Role::Duration, true, Some(doubt)) = (
                r,
                f.columns.duration_unit_assumed,
                &f.columns.duration_unit_doubt,
            ) {
                format!(
                    " ({}, assumed, though its values rule it out: --duration-unit {})",
                    f.columns.duration_unit.name(),
                    unit_names(&doubt.units)
                )
            } else if r == Role::Duration && f.columns.duration_unit_assumed {
                format!(
                    " ({}, assumed: --duration-unit)",
                    f.columns.duration_unit.name()
                )
            } else if r == Role::Duration && f.columns.duration_unit_carried {
                " (in the unit each value writes)".to_string()
            } else if r == Role::Duration && f.columns.duration_unit_inferred.is_some() {
                format!(
                    " ({}, inferred from its values: --duration-unit)",
                    f.columns.duration_unit.name()
                )
            } else if r == Role::Duration {
                format!(" ({})", f.columns.duration_unit.name())
            } else {
                String::new()
            };
            Some(format!("{r}={header}{unit}"))
        })
        .collect();
    // One file, several shapes: every format that read lines.
    let mixed: Option<String> = f.mixed().then(|| {
        let names: Vec<&str> = f
            .formats
            .iter()
            .filter(|r| r.lines > 0)
            .map(|r| r.name.as_str())
            .collect();
        names.join(" and ")
    });
    let what = match (mixed.as_ref().or(f.format.as_ref()), &f.envelope) {
        (Some(format), Some(envelope)) => {
            format!("read {}: {envelope}, inside: {format}", f.name)
        }
        (Some(format), None) => format!("read {} as {format}", f.name),
        (None, _) => format!("read {}", f.name),
    };
    let mut lines = vec![if how.is_empty() {
        what
    } else {
        format!("{what} ({})", how.join(", "))
    }];
    // Traces: the columns are the attempts' own, made from the spans, and not shown.
    if f.traces.is_none() {
        let mut line = String::from("  columns:");
        for role in roles {
            if line.len() + role.len() > 94 {
                lines.push(std::mem::replace(&mut line, "   ".to_string()));
            }
            line.push(' ');
            line.push_str(&role);
        }
        lines.push(line);
    }
    if let Some(note) = crate::report::words::format_notes(&f.format_notes) {
        lines.push(format!("  {note}"));
    }
    lines.extend(
        crate::report::words::formats_evidence(f)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    if let Some(traces) = &f.traces {
        lines.extend(
            crate::report::words::traces_evidence(traces)
                .into_iter()
                .map(|l| format!("  {l}")),
        );
    }
    if let Some(document) = &f.document {
        lines.push(format!(
            "  the file is {document}: line numbers count its records"
        ));
    }
    for (stream, kind, n) in &f.skipped {
        let stream = if stream.is_empty() {
            String::new()
        } else {
            format!("{stream} ")
        };
        lines.push(format!(
            "  {} {stream}{} skipped: {kind} (not access lines, not rows)",
            count(*n),
            if *n == 1 { "line" } else { "lines" }
        ));
    }
    lines
}

/// Left-aligned first column, right-aligned others, two spaces apart, indented by two.
fn grid(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows.iter().filter(|r| r.len() == headers.len()) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[String]| {
        let mut text = String::from("  ");
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(text, "{cell:<w$}");
            } else {
                let _ = write!(text, "  {cell:>w$}");
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&headers.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    for row in rows {
        line(row);
    }
    out
}
