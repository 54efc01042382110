//! What makes dupcost fit with other command-line tools: help, completions, man pages, charts.

mod common;

use clap::CommandFactory;
use common::{dupcost, succeed, usage_error};
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
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        21,
        "the table still prints"
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
