//! What makes dupcost fit with other command-line tools: help, completions, man pages, charts.

use crate::common::{dupcost, succeed, usage_error};
use clap::CommandFactory;
use dupcost::cli::Cli;

fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

/// `--help` of every subcommand names every one of its flags and gives examples where promised.
#[test]
fn help_is_complete_for_every_subcommand() {
    let top = dupcost().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    for name in subcommands() {
        assert!(top.contains(&name), "top-level help lists {name}");
        let out = dupcost().args([name.as_str(), "--help"]).output().unwrap();
        assert!(out.status.success(), "{name} --help");
        let text = String::from_utf8(out.stdout).unwrap();
        let cli = Cli::command();
        let sub = cli.find_subcommand(&name).unwrap();
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                assert!(
                    text.contains(&format!("--{long}")),
                    "{name} --help lacks --{long}"
                );
            }
        }
        let short = dupcost().args([name.as_str(), "-h"]).output().unwrap();
        assert!(
            short.status.success() && short.stdout.len() <= text.len(),
            "{name} -h is the short help"
        );
    }
}

/// Each command's `-h` fits a screen and starts with examples; the flags that move the money
/// come before the reading flags; `tui -h` sends the log flags to `logs -h`.
#[test]
fn short_help_fits_a_screen_and_starts_with_examples() {
    let short = |name: &str| {
        let out = dupcost().args([name, "-h"]).output().unwrap();
        assert!(out.status.success(), "{name} -h");
        String::from_utf8(out.stdout).unwrap()
    };
    for name in ["estimate", "logs", "tui", "sql", "probe"] {
        let text = short(name);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines.len() <= 40,
            "{name} -h is {} lines:\n{text}",
            lines.len()
        );
        assert_eq!(
            lines[0], "Examples:",
            "{name} -h starts with examples:\n{text}"
        );
        let examples = lines[1..]
            .iter()
            .take_while(|l| l.starts_with("  "))
            .count();
        assert!(
            (2..=4).contains(&examples),
            "{name} -h: {examples} examples"
        );
        assert!(
            lines[1..=examples].iter().all(|l| l.contains("dupcost ")),
            "{name} -h: {text}"
        );
    }
    let logs = short("logs");
    let at = |flag: &str| {
        logs.find(flag)
            .unwrap_or_else(|| panic!("logs -h lacks {flag}"))
    };
    assert!(at("--order-value") < at("--log-format"), "{logs}");
    let tui = short("tui");
    assert!(tui.contains("dupcost logs -h"), "{tui}");
    assert!(
        !tui.contains("--input-format <"),
        "tui -h repeats the log flags:\n{tui}"
    );
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = dupcost().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for name in subcommands() {
            assert!(script.contains(&name), "{shell} completion lacks {name}");
        }
        assert!(script.contains("timeout-rate"), "{shell} completes flags");
    }
    usage_error(&["completions", "tcsh"]);
}

#[test]
fn man_pages_name_every_subcommand() {
    let out = dupcost().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") || page.contains(".TH dupcost"),
        "roff"
    );
    for name in subcommands() {
        assert!(page.contains(&name), "man page lacks {name}");
        if name != "help" {
            let sub = dupcost().args(["man", name.as_str()]).output().unwrap();
            let sub = String::from_utf8(sub.stdout).unwrap();
            assert!(
                sub.contains(&format!(".TH dupcost-{name}")),
                "dupcost-{name}(1)"
            );
        }
    }
    assert!(usage_error(&["man", "nope"]).contains("no subcommand 'nope'"));
}

#[test]
fn sweep_plot_writes_an_svg_with_the_series() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sweep.svg");
    let out = succeed(
        dupcost()
            .args(["estimate", "--sweep", "timeout-rate=0.1%..2%:20", "--plot"])
            .arg(&path),
    );
    // The table still prints: its header and a row a value, then the inputs' marks.
    let table = String::from_utf8(out.stdout).unwrap();
    let (rows, marks) = table.split_once("\n\n").expect("marks under the rows");
    assert_eq!(rows.lines().count(), 21, "the table still prints");
    assert!(
        marks.starts_with("given: timeout rate 0.1% to 2% (--sweep)\n"),
        "{marks}"
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for needle in [
        "Refunds a month against timeout rate",
        "refunds a month ($)",
        "timeout rate",
        "rule of thumb",
        "exact",
        "<polyline",
        "2%",
    ] {
        assert!(svg.contains(needle), "{needle} missing");
    }
    // One point per swept value on each of the two series.
    assert_eq!(svg.matches("<circle").count(), 40);

    let retries = dir.path().join("retries.svg");
    let out = dupcost()
        .args([
            "estimate",
            "--sweep",
            "retries=0..6",
            "--plot-y",
            "unanswered",
            "--plot",
        ])
        .arg(&retries)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        std::fs::read_to_string(&retries)
            .unwrap()
            .contains("Customers without an answer a day against retries")
    );
}

#[test]
fn logs_plot_writes_the_per_day_chart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("days.svg");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");
    let out = succeed(
        dupcost()
            .args(["logs", sample, "--format", "json", "--plot"])
            .arg(&path),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let days = v["observed"]["per_day"].as_array().unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for needle in [
        "Mutating requests a day",
        "Timeouts a day",
        "timed out",
        "upstream 2xx",
        "day (UTC)",
        "requests a day",
    ] {
        assert!(svg.contains(needle), "{needle} missing");
    }
    let first = days[0]["date"].as_str().unwrap();
    assert!(svg.contains(first), "the x axis names the days");
    // One point a day on each of the three series.
    assert_eq!(svg.matches("<circle").count(), 3 * days.len());
}

#[test]
fn plot_errors() {
    assert!(usage_error(&["estimate", "--plot", "x.svg"]).contains("--sweep"));
    let line = usage_error(&[
        "estimate",
        "--sweep",
        "retries=0..2",
        "--plot",
        "/no/such/dir/x.svg",
    ]);
    assert!(line.contains("/no/such/dir/x.svg"), "{line}");
}

/// The texts of an SVG's `<text>` elements, in document order.
fn svg_texts(svg: &str) -> Vec<String> {
    let text = regex::Regex::new(r"(?s)<text[^>]*>(.*?)</text>").unwrap();
    text.captures_iter(svg)
        .map(|c| c[1].trim().to_string())
        .collect()
}

/// The x axis's tick labels of a one-chart SVG: the texts on the axis's baseline (the
/// largest `y` shared by two labels or more).
fn x_ticks(svg: &str) -> Vec<String> {
    let text = regex::Regex::new(r#"(?s)<text[^>]*\by="(\d+)"[^>]*>(.*?)</text>"#).unwrap();
    let labels: Vec<(u32, String)> = text
        .captures_iter(svg)
        .map(|c| (c[1].parse().unwrap(), c[2].trim().to_string()))
        .collect();
    let baseline = labels
        .iter()
        .filter(|(y, _)| labels.iter().filter(|(other, _)| other == y).count() > 1)
        .map(|(y, _)| *y)
        .max()
        .expect("an axis of ticks");
    labels
        .into_iter()
        .filter(|(y, _)| *y == baseline)
        .map(|(_, t)| t)
        .collect()
}

/// Issue 37: `retries=0..5` was labelled `0 0 1 2 2 2 3 4 4 4 5`. A whole-number sweep gets
/// each whole number once, short or long.
#[test]
fn whole_number_sweeps_get_whole_unique_ticks() {
    let dir = tempfile::tempdir().unwrap();
    for (sweep, expected) in [
        ("retries=0..5", vec!["0", "1", "2", "3", "4", "5"]),
        ("retries=2..3", vec!["2", "3"]),
        ("layers=1..4", vec!["1", "2", "3", "4"]),
        (
            "retries=0..20",
            vec!["0", "2", "4", "6", "8", "10", "12", "14", "16", "18", "20"],
        ),
    ] {
        let path = dir.path().join("sweep.svg");
        succeed(
            dupcost()
                .args(["estimate", "--sweep", sweep, "--plot"])
                .arg(&path),
        );
        let ticks = x_ticks(&std::fs::read_to_string(&path).unwrap());
        // plotters may choose 2 or 5 as the step of a long axis; the labels are whole and
        // unique either way.
        if sweep == "retries=0..20" {
            let mut unique = ticks.clone();
            unique.dedup();
            assert_eq!(unique, ticks, "{sweep}: {ticks:?}");
            assert!(ticks.iter().all(|t| t.parse::<u32>().is_ok()), "{ticks:?}");
            assert_eq!(ticks.first().map(String::as_str), Some("0"), "{ticks:?}");
            assert_eq!(ticks.last().map(String::as_str), Some("20"), "{ticks:?}");
            continue;
        }
        assert_eq!(ticks, expected, "{sweep}");
    }
}

/// A legend names what its line holds: the retries a timeout-rate sweep keeps fixed, or,
/// when retries are what varies, that the line follows them.
#[test]
fn sweep_legends_name_what_is_varied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sweep.svg");
    let legend = |args: &[&str]| {
        succeed(dupcost().args(args).arg("--plot").arg(&path));
        svg_texts(&std::fs::read_to_string(&path).unwrap())
    };
    let by_retries = legend(&[
        "estimate",
        "--sweep",
        "retries=0..5",
        "--plot-y",
        "unanswered",
    ]);
    assert!(
        by_retries.contains(&"without an answer after that many retries".to_string()),
        "{by_retries:?}"
    );
    assert!(!by_retries.iter().any(|t| t.contains("scenario's retries")));
    let by_rate = legend(&[
        "estimate",
        "--sweep",
        "timeout-rate=1%..3%",
        "--retries",
        "2",
        "--plot-y",
        "unanswered",
    ]);
    assert!(
        by_rate.contains(&"without an answer after 2 retries".to_string()),
        "{by_rate:?}"
    );
    let by_ttl = legend(&[
        "estimate",
        "--sweep",
        "ttl=1m..1h:5",
        "--plot-y",
        "keyed-duplicates",
    ]);
    assert!(
        by_ttl.contains(&"with keys kept that long".to_string()),
        "{by_ttl:?}"
    );
    let by_retries = legend(&[
        "estimate",
        "--sweep",
        "retries=0..3",
        "--plot-y",
        "keyed-duplicates",
    ]);
    assert!(
        by_retries.contains(&"with keys kept 1d".to_string()),
        "{by_retries:?}"
    );
}

/// `--plot out.png` once made a directory named out.png with SVG files in it: another image
/// kind is refused, naming the flag, and nothing is written.
#[test]
fn plot_refuses_other_image_kinds() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["out.png", "out.PNG", "chart.jpg", "report.pdf"] {
        let path = dir.path().join(name);
        let shown = path.to_str().unwrap();
        for args in [
            &["estimate", "--sweep", "retries=0..5", "--plot", shown][..],
            &["estimate", "--plot", shown],
            &[
                "logs",
                concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv"),
                "--plot",
                shown,
            ],
        ] {
            let line = usage_error(args);
            assert!(
                line.starts_with("error: --plot ") && line.contains(name),
                "{line}"
            );
            assert!(line.contains("SVG only"), "{line}");
            assert!(!path.exists(), "{name} was created");
        }
    }
}
