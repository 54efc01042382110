//! From logs to a decision (issue 17): every JSON dupcost writes is a `--scenario` file,
//! `--format markdown` parses as CommonMark with its tables intact, `--plot DIR` writes the
//! charts the report links, and sweeps keep the decimals the user typed.
//!
//! Charts are checked as pictures: each SVG is rendered to pixels by resvg (pure Rust, pinned
//! by Cargo.lock, so the same on every machine) with its text removed, since text would be
//! drawn with whatever fonts a machine has; the picture is shrunk to a grid of characters by
//! darkness and pinned with insta. The text itself (titles, tick labels) is checked as text.

use std::path::Path;

use crate::common::{dupcost, json, succeed, usage_error};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde_json::Value;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");

fn stdout(args: &[&str]) -> String {
    String::from_utf8(succeed(dupcost().args(args)).stdout).unwrap()
}

/// The estimate `dupcost estimate --scenario FILE` gives for a file holding `document`.
fn estimate_from(document: &Value, dir: &Path, name: &str) -> Value {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(document).unwrap()).unwrap();
    // Its figures; where the inputs came from (`input_kinds`) is now the scenario file.
    estimate_part(&json(&["estimate", "--scenario", path.to_str().unwrap()]))
}

/// The estimate's own groups of a report (a logs report adds `observed`).
fn estimate_part(report: &Value) -> Value {
    let mut report = report.clone();
    let groups = report.as_object_mut().unwrap();
    groups.remove("observed");
    groups.remove("intervals");
    groups.remove("sources");
    groups.remove("input_kinds");
    groups.remove("bounds");
    report
}

#[test]
fn every_json_output_round_trips_through_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--requests-per-day",
        "1.5M",
        "--timeout-rate",
        "0.35%",
        "--order-value",
        "$12.50",
        "--ttl",
        "36h",
    ];
    let estimate = json(&[&["estimate"][..], &flags].concat());
    assert_eq!(
        estimate_from(&estimate, dir.path(), "estimate.json"),
        estimate_part(&estimate)
    );

    let sweep = json(&["estimate", "--sweep", "timeout-rate=0.1%..2%:20"]);
    let element = &sweep[17];
    assert_eq!(element["inputs"]["timeout_rate"], 0.018);
    // Each element is an estimate with its inputs' kinds (the swept one given by the sweep).
    assert_eq!(element["input_kinds"]["timeout_rate"]["origin"], "sweep");
    assert_eq!(
        estimate_from(element, dir.path(), "element.json"),
        estimate_part(element)
    );

    let logs = json(&["logs", SAMPLE]);
    assert_eq!(
        estimate_from(&logs, dir.path(), "logs.json"),
        estimate_part(&logs)
    );

    let saved = dir.path().join("measured.json");
    succeed(dupcost().args(["logs", SAMPLE, "--save-scenario", saved.to_str().unwrap()]));
    let from_saved = json(&["estimate", "--scenario", saved.to_str().unwrap()]);
    assert_eq!(
        from_saved["input_kinds"]["ttl_seconds"]["origin"],
        "scenario"
    );
    assert_eq!(estimate_part(&from_saved), estimate_part(&logs));
    // The saved scenario is the inputs object itself, as the explorer's `s` writes it.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(saved, logs["inputs"]);
}

#[test]
fn scenario_files_refuse_what_is_no_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    // Output groups next to `inputs` are fine; a typo inside it is not.
    let fine = write(
        "fine.json",
        r#"{"inputs": {"retries": 1}, "duplicates": {}, "future": [1]}"#,
    );
    assert_eq!(
        json(&["estimate", "--scenario", &fine])["inputs"]["retries"],
        1
    );
    let typo = write(
        "typo.json",
        r#"{"inputs": {"retrys": 1}, "duplicates": {}}"#,
    );
    let err = usage_error(&["estimate", "--scenario", &typo]);
    assert!(
        err.contains("typo.json") && err.contains("unknown input 'retrys'"),
        "{err}"
    );
    let array = write("sweep.json", r#"[{"inputs": {}}]"#);
    let err = usage_error(&["estimate", "--scenario", &array]);
    assert!(err.contains("pick one element"), "{err}");
    let bad = write("bad.json", r#"{"inputs": 3}"#);
    let err = usage_error(&["estimate", "--scenario", &bad]);
    assert!(err.contains("\"inputs\" is a number"), "{err}");
    let err = usage_error(&["logs", SAMPLE, "--save-scenario", "/no/such/dir/s.json"]);
    assert!(err.contains("--save-scenario /no/such/dir/s.json"), "{err}");
}

/// A sweep whose steps are not exact in binary: the values are the decimals typed, in CSV,
/// JSON, the table and the chart's tick labels.
#[test]
fn sweep_steps_not_exact_in_binary_stay_clean() {
    let args = ["estimate", "--sweep", "timeout-rate=0.1%..2%:20"];
    let csv = stdout(&[&args[..], &["--format", "csv"]].concat());
    let rates: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    let expected: Vec<String> = (1..=20).map(|i| (i as f64 / 1000.0).to_string()).collect();
    assert_eq!(rates, expected);
    let text = stdout(&[&args[..], &["--format", "json"]].concat());
    assert!(text.contains("\"timeout_rate\": 0.018,"), "{text}");
    let swept: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\"timeout_rate\": "))
        .map(|v| v.trim_end_matches(','))
        // Not the object of `input_kinds.timeout_rate`.
        .filter(|v| *v != "{")
        .collect();
    assert_eq!(swept, expected, "the inputs as typed, without binary noise");

    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("refunds.svg");
    succeed(
        dupcost()
            .args(args)
            .args(["--plot", plot.to_str().unwrap()]),
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    let ticks = x_tick_labels(&svg);
    let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        labels,
        [
            "0.2%", "0.4%", "0.6%", "0.8%", "1%", "1.2%", "1.4%", "1.6%", "1.8%", "2%"
        ]
    );
    assert_no_overlap(&ticks);
    let y_labels = texts(&svg);
    assert!(
        y_labels.iter().any(|(_, _, t)| t == "$100,000"),
        "{y_labels:?}"
    );
}

/// Every `<text>` of an SVG as (x, y, text).
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let re = regex::Regex::new(r#"(?s)<text x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>"#).unwrap();
    re.captures_iter(svg)
        .map(|c| {
            (
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
                c[3].trim().to_string(),
            )
        })
        .collect()
}

/// The labels of the bottom axis: the lowest row of texts below the plot, left to right.
fn x_tick_labels(svg: &str) -> Vec<(f64, String)> {
    let all = texts(svg);
    // The axis title is the lowest text; the tick labels are the row above it.
    let title_y = all.iter().map(|t| t.1).fold(0.0, f64::max);
    let row_y = all
        .iter()
        .map(|t| t.1)
        .filter(|&y| y < title_y)
        .fold(0.0, f64::max);
    let mut row: Vec<(f64, String)> = all
        .into_iter()
        .filter(|t| t.1 == row_y && !t.2.is_empty())
        .map(|t| (t.0, t.2))
        .collect();
    row.sort_by(|a, b| a.0.total_cmp(&b.0));
    row
}

/// Centred labels at 11.3 px are at most 7 px a character wide: neighbours must not touch.
fn assert_no_overlap(ticks: &[(f64, String)]) {
    for pair in ticks.windows(2) {
        let ((x1, a), (x2, b)) = (&pair[0], &pair[1]);
        let half_widths = 7.0 * (a.chars().count() + b.chars().count()) as f64 / 2.0;
        assert!(
            x2 - x1 > half_widths + 4.0,
            "'{a}' at {x1} and '{b}' at {x2} overlap"
        );
    }
}

/// The tables of a CommonMark (GFM tables) document: each as rows of cell texts, the
/// header first.
fn tables(markdown: &str) -> Vec<Vec<Vec<String>>> {
    let mut tables = Vec::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell: Option<String> = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Table(_)) => table.clear(),
            Event::End(TagEnd::Table) => tables.push(std::mem::take(&mut table)),
            Event::Start(Tag::TableHead | Tag::TableRow) => row.clear(),
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => {
                table.push(std::mem::take(&mut row))
            }
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => row.push(cell.take().unwrap()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(cell) = &mut cell {
                    cell.push_str(&t);
                }
            }
            _ => {}
        }
    }
    tables
}

/// Headings and images of a CommonMark document, in order.
fn outline(markdown: &str) -> (Vec<String>, Vec<String>) {
    let (mut headings, mut images) = (Vec::new(), Vec::new());
    let mut in_heading = false;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => {
                in_heading = true;
                headings.push(String::new());
            }
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Text(t) if in_heading => headings.last_mut().unwrap().push_str(&t),
            Event::Start(Tag::Image { dest_url, .. }) => images.push(dest_url.to_string()),
            _ => {}
        }
    }
    (headings, images)
}

/// Every table is a table (not a paragraph of pipes) and every row has the header's columns.
fn assert_tables(markdown: &str, shapes: &[(usize, usize)]) {
    let tables = tables(markdown);
    let got: Vec<(usize, usize)> = tables.iter().map(|t| (t.len(), t[0].len())).collect();
    assert_eq!(
        got, shapes,
        "tables (rows with header, columns):\n{markdown}"
    );
    for table in &tables {
        for row in table {
            assert_eq!(row.len(), table[0].len(), "{row:?}");
        }
    }
    assert!(
        !markdown
            .lines()
            .any(|l| l.starts_with('|') && l.contains("||"))
    );
}

#[test]
fn markdown_estimate() {
    let text = stdout(&["estimate", "--format", "markdown"]);
    insta::assert_snapshot!(text);
    assert_tables(&text, &[(18, 4), (5, 3), (6, 2), (10, 2)]);
    let tables = tables(&text);
    assert_eq!(
        tables[0][2],
        [
            "timeout rate",
            "0.2%",
            "assumed: the default; --timeout-rate settles it",
            "--timeout-rate"
        ]
    );
    assert_eq!(tables[1][3], ["refunds a month", "$24,048", "$24,000"]);
    let (headings, _) = outline(&text);
    assert_eq!(headings[0], "What missing idempotency costs");
    assert!(text.find("**Verdict:**").unwrap() < text.find("## Inputs").unwrap());
}

#[test]
fn markdown_sweep() {
    let text = stdout(&[
        "estimate",
        "--sweep",
        "retries=0..5",
        "--format",
        "markdown",
    ]);
    insta::assert_snapshot!(text);
    // The inputs with their kinds (the swept retries given by --sweep), then the outputs.
    assert_tables(&text, &[(18, 4), (7, 7)]);
    assert!(
        text.contains("| retries | 0 to 5 (6 values) | given: --sweep |"),
        "{text}"
    );
    assert!(text.contains("retries from 0 to 5"), "{text}");
}

#[test]
fn markdown_logs_with_charts() {
    let dir = tempfile::tempdir().unwrap();
    let out = succeed(
        dupcost()
            .current_dir(dir.path())
            .args(["logs", SAMPLE, "--format", "markdown", "--plot", "charts"]),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!(text);
    // Inputs with their intervals, three output tables, 7 days, 6 endpoints, intents by
    // attempts (1, 2 and 3).
    assert_tables(
        &text,
        &[(18, 5), (5, 3), (6, 2), (10, 2), (8, 6), (7, 6), (4, 2)],
    );
    let tables = tables(&text);
    // Each input's kind, then its evidence.
    assert_eq!(tables[0][2][2], "measured");
    assert!(
        tables[0][2][3].starts_with("timeout rate 3.182% = 68 timed out"),
        "{:?}",
        tables[0][2]
    );
    assert_eq!(tables[5][1][0], "POST /v1/orders/{id}/capture");
    let (headings, images) = outline(&text);
    assert_eq!(
        headings,
        [
            "What missing idempotency costs, measured from access logs",
            "Inputs",
            "Duplicate charges and refunds",
            "Customers left without an answer",
            "Load and the key store (the fix)",
            "Per day (UTC)",
            "Top endpoints (by duplicates a month)",
            "Intents (grouped by idempotency key)",
            "Charts",
        ]
    );
    assert_eq!(
        images,
        [
            "charts/duplicates-by-retries.svg",
            "charts/refunds-by-timeout-rate.svg",
            "charts/timeout-rate-per-day.svg",
            "charts/cost-per-endpoint.svg",
        ]
    );
    for image in images {
        let svg = std::fs::read_to_string(dir.path().join(&image)).unwrap();
        assert!(svg.starts_with("<svg"), "{image}");
    }
}

#[test]
fn plot_names_a_file_for_one_chart_or_a_directory_for_the_report() {
    let err = usage_error(&["estimate", "--plot", "chart.svg"]);
    assert!(
        err.contains("--plot chart.svg") && err.contains("directory"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    succeed(dupcost().current_dir(dir.path()).args([
        "estimate",
        "--sweep",
        "retries=0..5",
        "--plot-y",
        "duplicates",
        "--plot",
        "out",
    ]));
    assert!(dir.path().join("out/duplicates-by-retries.svg").is_file());
    succeed(
        dupcost()
            .current_dir(dir.path())
            .args(["estimate", "--plot", "est"]),
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("est"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["duplicates-by-retries.svg", "refunds-by-timeout-rate.svg"]
    );
}

/// An SVG's shapes as a grid of characters by darkness (text removed: fonts differ between
/// machines, shapes do not).
fn picture(svg: &str) -> String {
    use resvg::{tiny_skia, usvg};
    let text = regex::Regex::new(r"(?s)<text.*?</text>").unwrap();
    let svg = text.replace_all(svg, "");
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let (cell_w, cell_h) = (12, 20);
    let (w, h) = (size.width() as usize, size.height() as usize);
    let mut out = String::new();
    for row in 0..h / cell_h {
        for col in 0..w / cell_w {
            let mut ink = 0.0;
            for y in row * cell_h..(row + 1) * cell_h {
                for x in col * cell_w..(col + 1) * cell_w {
                    let p = pixmap.pixel(x as u32, y as u32).unwrap().demultiply();
                    let light = (p.red() as f64 + p.green() as f64 + p.blue() as f64) / 765.0;
                    ink += 1.0 - light;
                }
            }
            let ink = ink / (cell_w * cell_h) as f64;
            // Four levels: anti-aliasing shifts a cell's darkness a little, not a level.
            out.push(match ink {
                i if i < 0.02 => ' ',
                i if i < 0.15 => '.',
                i if i < 0.45 => '+',
                _ => '#',
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn charts_as_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeed(
        dupcost()
            .current_dir(d)
            .args(["logs", SAMPLE, "--plot", "logs"]),
    );
    succeed(
        dupcost()
            .current_dir(d)
            .args(["logs", SAMPLE, "--plot", "per-day.svg"]),
    );
    succeed(dupcost().current_dir(d).args([
        "estimate",
        "--sweep",
        "timeout-rate=0.1%..2%:20",
        "--plot",
        "sweep.svg",
    ]));
    for (name, file) in [
        ("duplicates_by_retries", "logs/duplicates-by-retries.svg"),
        (
            "refunds_by_timeout_rate",
            "logs/refunds-by-timeout-rate.svg",
        ),
        ("timeout_rate_per_day", "logs/timeout-rate-per-day.svg"),
        ("cost_per_endpoint", "logs/cost-per-endpoint.svg"),
        ("logs_per_day", "per-day.svg"),
        ("sweep_refunds_by_timeout_rate", "sweep.svg"),
    ] {
        let svg = std::fs::read_to_string(d.join(file)).unwrap();
        insta::assert_snapshot!(format!("chart_{name}"), picture(&svg));
    }
}

#[test]
fn chart_labels_read_as_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeed(
        dupcost()
            .current_dir(d)
            .args(["logs", SAMPLE, "--plot", "logs"]),
    );
    let read = |name: &str| std::fs::read_to_string(d.join("logs").join(name)).unwrap();
    let bars = texts(&read("cost-per-endpoint.svg"));
    let labels: Vec<&str> = bars.iter().map(|t| t.2.as_str()).collect();
    for needle in [
        "POST /v1/orders/{id}/capture",
        "DELETE /v1/carts/{id}/items/{id}",
        "$2,500",
    ] {
        assert!(labels.contains(&needle), "{needle}: {labels:?}");
    }
    let refunds = read("refunds-by-timeout-rate.svg");
    assert!(refunds.contains("the scenario: 3.182%"));
    let ticks = x_tick_labels(&refunds);
    assert_no_overlap(&ticks);
    assert!(
        ticks.iter().all(|(_, t)| t.ends_with('%') && t.len() <= 6),
        "{ticks:?}"
    );
    let per_day = read("timeout-rate-per-day.svg");
    assert!(per_day.contains("whole log: 3.182%"));
    assert_no_overlap(&x_tick_labels(&per_day));
}
