//! `--format html` (issue 37): one self-contained page per report, for the people who decide.
//!
//! - Each page holds everything itself: no script, nothing linked or fetched, a policy that
//!   forbids requests, its charts inline with text alternatives, real tables.
//! - Each page says the verdict, the money and every assumed input in words, and gives the
//!   scenario back as a `--scenario` file: its text is pinned with insta.
//! - Each page is opened in Debian's headless chromium (tests/browser/check.py, Playwright as
//!   the driver, never a browser of its own): no request leaves the page, no console error,
//!   the verdict visible in the first screen of a desktop and of a phone; screenshots in light,
//!   dark and print, and the A4 PDF, are left in `target/tmp/html-shots/` to look at.
//!   Without chromium or the venv (`target/browser-venv`, made by .ci/run) the browser test
//!   is skipped locally but FAILS when `CI` is set.

use std::path::{Path, PathBuf};

use crate::common::{dupcost, succeed};
use crate::probe_server::{Kind, Server};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");

/// A report page: its name, the command that makes it, and its HTML.
struct Page {
    name: &'static str,
    html: String,
}

fn page(name: &'static str, args: &[&str]) -> Page {
    let out = succeed(dupcost().args(args).args(["--format", "html"]));
    Page {
        name,
        html: String::from_utf8(out.stdout).unwrap(),
    }
}

/// Every kind of page: an estimate (defaults, and inputs given), sweeps, logs, a probe.
fn pages() -> Vec<Page> {
    vec![
        page("estimate", &["estimate"]),
        page(
            "estimate-given",
            &[
                "estimate",
                "--requests-per-day",
                "50000",
                "--timeout-rate",
                "1%",
                "--ttl",
                "10s",
            ],
        ),
        page("sweep-retries", &["estimate", "--sweep", "retries=0..5"]),
        page(
            "sweep-timeout-rate",
            &["estimate", "--sweep", "timeout-rate=0.1%..2%:5"],
        ),
        page("logs", &["logs", SAMPLE]),
        page("logs-given", &["logs", SAMPLE, "--order-value", "120"]),
    ]
}

/// The probe's page against a loopback server, its port taken out of the text.
fn probe_page(kind: Kind, name: &'static str) -> Page {
    let server = Server::start(kind);
    let mut page = page(
        name,
        &[
            "probe",
            &server.url,
            "--data",
            r#"{"amount": 40}"#,
            "--concurrency",
            "4",
            "--rounds",
            "3",
            "--timeout",
            "5s",
        ],
    );
    page.html = page.html.replace(&server.port.to_string(), "PORT");
    // Which of the concurrent requests met the claim (409) and which came after the answer
    // was saved (the replay) depends on the machine's timing.
    let split = regex::Regex::new(r"got 409 \(\d+\) or the replay \(\d+\)").unwrap();
    page.html = split
        .replace_all(&page.html, "got 409 (N) or the replay (N)")
        .into_owned();
    page
}

/// The probe exits 1 when a check fails; its page is still written.
fn failing_probe_page() -> Page {
    let server = Server::start(Kind::IgnoresKeys);
    let out = dupcost()
        .args(["probe", &server.url, "--data", r#"{"amount": 40}"#])
        .args(["--concurrency", "4", "--rounds", "3", "--timeout", "5s"])
        .args(["--format", "html"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Page {
        name: "probe-ignores-keys",
        html: String::from_utf8(out.stdout)
            .unwrap()
            .replace(&server.port.to_string(), "PORT"),
    }
}

fn all_pages() -> Vec<Page> {
    let mut pages = pages();
    pages.push(probe_page(Kind::Correct, "probe"));
    pages.push(failing_probe_page());
    pages
}

/// The text a reader sees, one block a line: the style sheet and the charts' drawings left
/// out (their text alternatives stay), entities decoded.
fn text(html: &str) -> String {
    let drop = regex::Regex::new(r"(?s)<head>.*?</head>|<svg.*?</svg>").unwrap();
    let html = drop.replace_all(html, "");
    let blocks =
        regex::Regex::new(r"</(p|h1|h2|h3|li|tr|caption|figcaption|summary|pre|footer)>|<br>")
            .unwrap();
    let html = blocks.replace_all(&html, "\n");
    let html = html.replace("</span><span", "</span> <span");
    let cells = regex::Regex::new(r"</t[dh]>").unwrap();
    let html = cells.replace_all(&html, " | ");
    let tags = regex::Regex::new(r"<[^>]*>").unwrap();
    let html = tags.replace_all(&html, "");
    let html = html
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    html.lines()
        .map(|line| line.trim().trim_end_matches(" |").trim_end())
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The verdict's sentence, as the page has it.
fn verdict(html: &str) -> String {
    let found = regex::Regex::new(r#"(?s)<p id="verdict"[^>]*>(.*?)</p>"#).unwrap();
    let inner = &found.captures(html).expect("a verdict")[1];
    text(inner).trim().to_string()
}

#[test]
fn pages_hold_everything_themselves() {
    // No attribute points anywhere: no src, no href but to the page itself.
    let linked =
        regex::Regex::new(r##"\s(src|href|srcset|action|xlink:href)="([^"#][^"]*)""##).unwrap();
    for page in all_pages() {
        let (name, html) = (page.name, &page.html);
        assert!(html.starts_with("<!DOCTYPE html>\n"), "{name}");
        assert!(html.trim_end().ends_with("</html>"), "{name}");
        for needle in [
            "<script", "<link", "<iframe", "<object", "<embed", "<img", "url(", "@import",
        ] {
            assert!(!html.contains(needle), "{name}: {needle}");
        }
        assert!(
            linked.captures(html).is_none(),
            "{name}: {:?}",
            linked.captures(html)
        );
        assert!(
            html.contains(
                r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#
            ),
            "{name}: the page forbids itself requests"
        );
        assert_eq!(html.matches(r#"id="verdict""#).count(), 1, "{name}");
        // Every chart is inline, named, and has its figures as a table beside it.
        let svgs = html.matches("<svg ").count();
        assert!(
            svgs >= 1 || name.starts_with("probe"),
            "{name}: charts inline"
        );
        assert_eq!(html.matches(r#"role="img""#).count(), svgs, "{name}");
        assert_eq!(html.matches("<title id=\"chart-").count(), svgs, "{name}");
        assert_eq!(
            html.matches("<summary>The figures behind this chart</summary>")
                .count(),
            svgs,
            "{name}"
        );
        // Tables are tables: a header row of column headers.
        assert!(html.matches("<table").count() >= 1, "{name}");
        assert_eq!(
            html.matches("<table").count(),
            html.matches("<thead>").count(),
            "{name}"
        );
    }
}

/// The verdict is the table's verdict, word for word, and the money is in the page's words.
#[test]
fn pages_say_the_verdict_and_the_money() {
    for page in pages() {
        let (name, html) = (page.name, &page.html);
        let words = text(html);
        let v = verdict(html);
        assert!(!v.is_empty(), "{name}");
        assert!(v.starts_with(|c: char| c.is_uppercase()), "{name}: {v}");
        assert!(words.contains("refunds a month"), "{name}");
        assert!(words.contains('$'), "{name}: money");
        assert!(words.contains("key store"), "{name}");
    }
    let estimate = page("estimate", &["estimate"]);
    let table = String::from_utf8(succeed(dupcost().args(["estimate"])).stdout).unwrap();
    let table_verdict = table
        .lines()
        .find_map(|l| l.strip_prefix("Verdict: "))
        .expect("the table's verdict");
    let mut capitalised = table_verdict[..1].to_uppercase();
    capitalised.push_str(&table_verdict[1..]);
    assert_eq!(verdict(&estimate.html), capitalised);
}

/// Every input the report assumed is named as assumed, and those given as given.
#[test]
fn pages_mark_every_assumed_input() {
    let default = text(&page("estimate", &["estimate"]).html);
    let given = text(
        &page(
            "estimate-given",
            &["estimate", "--requests-per-day", "50000"],
        )
        .html,
    );
    let row = |words: &str, label: &str| -> String {
        words
            .lines()
            .find(|l| l.starts_with(&format!("{label} |")))
            .unwrap_or_else(|| panic!("no row {label}: {words}"))
            .to_string()
    };
    assert!(
        row(&default, "requests per day").contains("| assumed |"),
        "{default}"
    );
    assert!(
        row(&given, "requests per day").contains("| given |"),
        "{given}"
    );
    assert!(
        row(&given, "timeout rate").contains("| assumed |"),
        "{given}"
    );
    let logs = text(&page("logs", &["logs", SAMPLE]).html);
    assert!(
        row(&logs, "timeout rate").contains("| measured |"),
        "{logs}"
    );
    assert!(
        row(&logs, "order value")
            .contains("| assumed the default; --order-value settles it | not in logs |"),
        "{logs}"
    );
}

/// The scenario block is a `--scenario` file: given back, it gives the same estimate.
#[test]
fn the_scenario_block_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let block =
        regex::Regex::new(r#"(?s)<pre><code class="language-json">(.*?)</code></pre>"#).unwrap();
    for page in pages() {
        let json = text(&block.captures(&page.html).expect("a scenario block")[1]);
        let path = dir.path().join(format!("{}.json", page.name));
        std::fs::write(&path, &json).unwrap();
        let again = succeed(
            dupcost()
                .args(["estimate", "--format", "json", "--scenario"])
                .arg(&path),
        );
        let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
        let scenario: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(again["inputs"], scenario, "{}", page.name);
    }
}

#[test]
fn page_text_snapshots() {
    for page in all_pages() {
        insta::assert_snapshot!(format!("html_{}", page.name), text(&page.html));
    }
}

/// Where the browser test's tools are: the venv's python and Debian's chromium.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("DUPCOST_BROWSER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/browser-venv/bin/python"));
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let mut missing = vec![];
    if !chromium.is_file() {
        missing.push(format!("Chromium at {}", chromium.display()));
    }
    if !python.is_file() {
        missing.push(format!("Playwright's venv at {}", python.display()));
    }
    crate::common::needs(
        "the HTML pages in a browser (tests/outputs/html.rs)",
        &missing,
        "apt-get install chromium; bash .ci/run makes the venv from tests/browser/requirements.txt",
    )
    .then_some((python, chromium))
}

/// What check.py found on each page, by page name.
fn open_in_chromium(pages: &[(String, String)]) -> Vec<serde_json::Value> {
    let (python, chromium) = browser().expect("checked by the caller");
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, html) in pages {
        let path = dir.path().join(format!("{name}.html"));
        std::fs::write(&path, html).unwrap();
        paths.push(path);
    }
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-shots");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/check.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(&shots)
        .args(&paths)
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "check.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(found.len(), pages.len());
    found
}

/// The checker itself sees what it must refuse: a page that fetches and logs an error.
#[test]
fn the_browser_check_sees_requests_and_errors() {
    if browser().is_none() {
        return;
    }
    let bad = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>bad</title></head>\
               <body><p id=\"verdict\">Verdict</p><img src=\"http://127.0.0.1:9/x.png\" alt=\"\">\
               <script>console.error('broken')</script></body></html>";
    let tall = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>tall</title></head>\
                <body><div style=\"height:3000px\"></div><p id=\"verdict\">Verdict</p></body></html>";
    let found = open_in_chromium(&[("bad".into(), bad.into()), ("tall".into(), tall.into())]);
    assert!(
        found[0]["requests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "http://127.0.0.1:9/x.png"),
        "{:#}",
        found[0]
    );
    assert!(
        found[0]["console_errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == "broken"),
        "{:#}",
        found[0]
    );
    assert_eq!(
        found[1]["verdict"]["desktop"]["in_first_screen"], false,
        "{:#}",
        found[1]
    );
}

#[test]
fn pages_open_in_chromium_alone_and_show_the_verdict_first() {
    if browser().is_none() {
        return;
    }
    let pages = all_pages();
    let named: Vec<(String, String)> = pages
        .iter()
        .map(|p| (p.name.to_string(), p.html.clone()))
        .collect();
    for (page, found) in pages.iter().zip(open_in_chromium(&named)) {
        let name = page.name;
        assert_eq!(
            found["requests"],
            serde_json::json!([]),
            "{name}: {found:#}"
        );
        assert_eq!(
            found["console_errors"],
            serde_json::json!([]),
            "{name}: {found:#}"
        );
        for screen in ["desktop", "phone"] {
            let v = &found["verdict"][screen];
            assert_eq!(v["visible"], true, "{name} {screen}: {found:#}");
            assert_eq!(v["in_first_screen"], true, "{name} {screen}: {found:#}");
            assert_eq!(v["flags_whole"], true, "{name} {screen}: {found:#}");
            assert_eq!(
                v["text"].as_str(),
                Some(verdict(&page.html).as_str()),
                "{name}"
            );
        }
        // The money's card carries the range the evidence allows: an estimate's assumed
        // share, a log's bounds and 95% interval.
        if name.starts_with("estimate") || name.starts_with("logs") {
            let refunds = found["cards"][0].as_str().unwrap_or_default();
            assert!(
                refunds.contains("refunds a month") && refunds.contains(" to "),
                "{name}: {found:#}"
            );
        }
        let pages = found["print_pages"].as_u64().unwrap();
        assert!((1..=12).contains(&pages), "{name}: {pages} A4 pages");
        assert_ne!(
            found["dark_background"], "rgb(255, 255, 255)",
            "{name}: dark"
        );
    }
}

/// A log with no known outcome: its page marks the succeeded share assumed with the model's
/// words (the bounds the log allows, the flag that settles it), and carries those bounds to
/// the duplicates and refunds, as the table and markdown do.
#[test]
fn the_logs_page_says_an_assumed_share_and_its_bounds() {
    let words = text(&page("logs-envoy", &["logs", "samples/envoy.log"]).html);
    let share = words
        .lines()
        .find(|l| l.starts_with("succeeded share |"))
        .unwrap_or_else(|| panic!("no share row: {words}"));
    assert!(share.contains("| assumed "), "{share}");
    assert!(share.contains("the log allows 0% to 100%"), "{share}");
    assert!(
        share.contains("--succeeded-share or --outcomes FILE settles it"),
        "{share}"
    );
    let bounds = words
        .lines()
        .find(|l| l.starts_with("Duplicates ") && l.contains("over the succeeded share's bounds"))
        .unwrap_or_else(|| panic!("no bounds line: {words}"));
    assert!(bounds.contains("at the assumed 50%"), "{bounds}");
}
