//! The answer first, as a user in an 80x24 terminal meets it: `estimate` and `logs` lead with
//! the money and its range, fit their line budgets, stay within 80 columns, and `--explain`
//! still says everything; no figure is written in e-notation, however large or small, and
//! columns never touch.

use std::path::Path;

use crate::common::dupcost;

/// `dupcost ARGS` as a user runs it: no `--explain` from the environment, `COLUMNS` as given
/// (`None`: unset, as where the shell does not export it).
fn run(args: &[&str], columns: Option<&str>) -> String {
    let mut cmd = dupcost();
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("DUPCOST_EXPLAIN")
        .env_remove("COLUMNS");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Lines wider than `width` columns.
fn wide(text: &str, width: usize) -> Vec<&str> {
    text.lines().filter(|l| l.chars().count() > width).collect()
}

/// The money (refunds a month) and its range are within the first 24 lines.
fn money_first(text: &str, what: &str) {
    let first: Vec<&str> = text.lines().take(24).collect();
    let refunds = first
        .iter()
        .position(|l| l.trim_start().starts_with("refunds: "))
        .unwrap_or_else(|| panic!("{what}: no refunds in the first 24 lines:\n{text}"));
    // The range follows the figure, on its line or the one wrapped under it.
    let block = first[refunds..]
        .iter()
        .take(3)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        block.contains(" to ") && (block.contains("95%") || block.contains("share's")),
        "{what}: the refunds carry no range:\n{text}"
    );
}

/// A digit, an `e`, then a digit or a minus: `3.20e-7`, `1.00e15`.
fn e_notation(text: &str) -> Option<&str> {
    text.lines().find(|l| {
        l.as_bytes().windows(3).any(|w| {
            w[0].is_ascii_digit() && w[1] == b'e' && (w[2].is_ascii_digit() || w[2] == b'-')
        })
    })
}

#[test]
fn estimate_leads_with_the_money_in_30_lines_of_80_columns() {
    for columns in [None, Some("80")] {
        for args in [
            &["estimate"][..],
            &[
                "estimate",
                "--preset",
                "stripe",
                "--requests-per-day",
                "5000",
            ],
            &["estimate", "--retries", "0"],
            &["estimate", "--ttl", "10s"],
        ] {
            let text = run(args, columns);
            assert!(text.lines().count() <= 30, "{args:?}: {text}");
            assert!(
                wide(&text, 80).len() <= 2,
                "{args:?}: {:?}",
                wide(&text, 80)
            );
            money_first(&text, &format!("{args:?}"));
            assert!(text.contains("Verdict: "), "{args:?}: {text}");
        }
    }
    let text = run(&["estimate"], None);
    assert!(
        text.starts_with("What missing idempotency costs\n"),
        "{text}"
    );
    assert!(text.contains("--explain lists them"), "{text}");
    // Each assumed input that moves the money names the flag that settles it.
    for flag in [
        "--requests-per-day",
        "--timeout-rate",
        "--succeeded-share",
        "--order-value",
    ] {
        assert!(text.contains(flag), "{flag}: {text}");
    }
}

#[test]
fn logs_lead_with_the_money_in_40_lines_on_every_bundled_sample() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for entry in std::fs::read_dir(root.join("samples")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let path = format!("samples/{name}");
        let out = dupcost()
            .args(["logs", &path])
            .current_dir(root)
            .env("NO_COLOR", "1")
            .env_remove("DUPCOST_EXPLAIN")
            .env_remove("COLUMNS")
            .output()
            .unwrap();
        if !out.status.success() {
            // A sample the logs cannot measure alone (a backend's log, a span table) is refused.
            continue;
        }
        read += 1;
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.lines().count() <= 40,
            "{name}: {} lines\n{text}",
            text.lines().count()
        );
        assert!(wide(&text, 80).len() <= 2, "{name}: {:?}", wide(&text, 80));
        money_first(&text, &name);
        assert_eq!(e_notation(&text), None, "{name}");
    }
    assert!(read >= 15, "only {read} samples were read");
}

#[test]
fn explain_says_everything_the_answer_leaves_out() {
    let short = run(&["logs", "samples/nginx.log"], None);
    let full = run(&["logs", "samples/nginx.log", "--explain"], None);
    for needle in [
        "Measured from logs",
        "columns: ",
        "Per day",
        "95% intervals",
        "Intents",
    ] {
        assert!(!short.contains(needle), "{needle}: {short}");
        assert!(full.contains(needle), "{needle}: {full}");
    }
    // The estimate's explanation is the whole report: every input with its kind.
    let full = run(&["estimate", "--explain"], None);
    assert_eq!(full.matches("settles it").count(), 17, "{full}");
    assert!(
        full.contains("rule of thumb") && full.contains("size in Redis"),
        "{full}"
    );
}

/// What a page says: its text and its charts' labels, without the style sheet and the tags
/// (whose colours, `#3d4650`, are no figures).
fn words_of_page(html: &str) -> String {
    let body = html.split_once("</style>").map_or(html, |(_, b)| b);
    let mut out = String::new();
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// `--requests-per-day 1e12` and 1e15: no e-notation in any human format, and no two
/// figures glued into one (`1,000,000,000,0001,000,000,000,000`).
#[test]
fn huge_and_tiny_figures_read_as_words_and_columns_stay_apart() {
    for requests in ["1e12", "1e15"] {
        for format in ["table", "markdown", "html"] {
            for explain in [false, true] {
                let mut args = vec!["estimate", "--requests-per-day", requests, "-f", format];
                if explain {
                    args.push("--explain");
                }
                let mut text = run(&args, None);
                if format == "html" {
                    text = words_of_page(&text);
                }
                assert_eq!(e_notation(&text), None, "{args:?}");
                if format != "html" {
                    let glued = text
                        .split(|c: char| !(c.is_ascii_digit() || c == ','))
                        .map(|t| t.trim_matches(','))
                        .find(|t| t.split(',').skip(1).any(|g| g.len() != 3));
                    assert_eq!(glued, None, "{args:?}: {text}");
                }
            }
        }
    }
    // At 3 retries almost nobody is left unanswered: said without e-notation.
    let full = run(&["estimate", "--explain"], None);
    assert!(full.contains("<0.001"), "{full}");
    assert_eq!(e_notation(&full), None);
}

/// The page's cards carry the range the evidence allows, and the verdict keeps each flag
/// whole (a browser would break `--succeeded-share` at its hyphens).
#[test]
fn html_cards_carry_the_range() {
    let page = run(&["logs", "samples/nginx.log", "-f", "html"], None);
    assert!(
        page.contains("<span class=\"range\">$3,360 to $10,740"),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"flag\">--succeeded-share</span>"),
        "{page}"
    );
    let page = run(&["estimate", "-f", "html"], None);
    assert!(
        page.contains("<span class=\"range\">$0 to $48,096"),
        "{page}"
    );
}
