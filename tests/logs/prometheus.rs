//! A real Prometheus (Debian's `prometheus`, which `.ci/run` installs) scraping `dupcost logs
//! --follow --metrics` on loopback while the log grows: its HTTP API answers each series with
//! the batch report's figure, before and after the log grows. Also the shipped rules and
//! dashboard (deploy/): `promtool check rules` and `promtool test rules` pass, and they use
//! only names `/metrics` exposes.
//!
//! Without `prometheus` or `promtool` on PATH a test is skipped with one line naming it;
//! under `CI=true` it fails instead.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::metrics::{Served, expected, logs_once};
use super::support::{append, live_and_whole, sample_lines};

/// `name` on PATH; None (a line on stderr) to skip, a panic under CI.
fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let why =
            format!("{name} is not installed (apt-get install prometheus; bash .ci/run does)");
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI: {why}");
        }
        eprintln!("skipped: {why}");
    }
    found
}

fn deploy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy")
}

#[test]
fn promtool_checks_and_tests_the_shipped_rules() {
    let Some(promtool) = tool("promtool") else {
        return;
    };
    let dir = deploy().join("prometheus");
    for args in [
        ["check", "rules", "dupcost.rules.yml"],
        ["test", "rules", "dupcost.rules.test.yml"],
    ] {
        let out = Command::new(&promtool)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "promtool {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The `dupcost_*` names in `text`.
fn names_in(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\bdupcost_[a-z_]+").unwrap();
    re.find_iter(text).map(|m| m.as_str().to_string()).collect()
}

#[test]
fn the_rules_and_the_dashboard_use_only_exposed_names() {
    let tmp = tempfile::tempdir().unwrap();
    let (header, rows) = sample_lines();
    std::fs::write(
        tmp.path().join("access.csv"),
        format!("{header}{}", rows.concat()),
    )
    .unwrap();
    let served = Served::start(tmp.path(), &["access.csv", "--window", "1h"]);
    served.wait_rows(3000);
    let exposed: Vec<String> = super::metrics::parse(&served.scrape(None).1)
        .keys()
        .map(|k| k.split('{').next().unwrap().to_string())
        .collect();
    served.stop();
    let rules = std::fs::read_to_string(deploy().join("prometheus/dupcost.rules.yml")).unwrap();
    let exprs: String = rules
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(deploy().join("grafana/dupcost.json")).unwrap(),
    )
    .unwrap();
    let queries: Vec<String> = dashboard["panels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["targets"].as_array().unwrap().iter())
        .map(|t| t["expr"].as_str().unwrap().to_string())
        .collect();
    let used_by_rules = names_in(&exprs);
    let used_by_dashboard = names_in(&queries.join("\n"));
    assert!(used_by_rules.len() >= 4, "{used_by_rules:?}");
    for name in used_by_rules.iter().chain(&used_by_dashboard) {
        assert!(exposed.contains(name), "{name} is not exposed: {exposed:?}");
    }
    let contract = [
        "dupcost_requests_per_day",
        "dupcost_timeout_ratio",
        "dupcost_succeeded_share_ratio",
        "dupcost_duplicates_per_day",
        "dupcost_refunds_per_month",
        "dupcost_key_coverage_ratio",
        "dupcost_key_store_bytes",
        "dupcost_retry_horizon_seconds",
        "dupcost_key_ttl_seconds",
        "dupcost_rows_total",
    ];
    let on_dashboard = contract
        .iter()
        .filter(|n| used_by_dashboard.iter().any(|u| u == *n))
        .count();
    assert!(on_dashboard >= 4, "{used_by_dashboard:?}");
}

/// A Prometheus server on a free loopback port, scraping `target` every second, its data in
/// a temp dir; stopped when dropped.
struct Prometheus {
    child: Child,
    api: String,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    fn start(binary: &Path, target: &str) -> Prometheus {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: dupcost\n    static_configs:\n      - targets: ['{target}']\n"
            ),
        )
        .unwrap();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(binary)
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let api = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        while ureq::get(&format!("{api}/-/ready")).call().is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "Prometheus did not become ready on {api}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        Prometheus {
            child,
            api,
            _dir: dir,
        }
    }

    /// Every `dupcost_*` series Prometheus has now, by the exposition's name and labels
    /// (without the `instance` and `job` it adds), its value read from the API's text.
    fn series(&self) -> BTreeMap<String, f64> {
        let body = ureq::get(&format!("{}/api/v1/query", self.api))
            .query("query", r#"{__name__=~"dupcost_.+"}"#)
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(answer["status"], "success", "{body}");
        answer["data"]["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let metric = r["metric"].as_object().unwrap();
                let labels: BTreeMap<&str, &str> = metric
                    .iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "__name__" | "instance" | "job"))
                    .map(|(k, v)| (k.as_str(), v.as_str().unwrap()))
                    .collect();
                let value = r["value"][1].as_str().unwrap().parse::<f64>().unwrap();
                (key(metric["__name__"].as_str().unwrap(), &labels), value)
            })
            .collect()
    }

    /// Waits until Prometheus has scraped `rows` rows; returns its series then.
    fn wait_rows(&self, rows: u64) -> BTreeMap<String, f64> {
        let start = Instant::now();
        loop {
            let series = self.series();
            if series.get("dupcost_rows_total") == Some(&(rows as f64))
                && series.get("dupcost_report_waiting") == Some(&0.0)
            {
                return series;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "Prometheus never saw {rows} rows: {series:?}"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `name{a="x",b="y"}` with the labels sorted by name, as both sides are compared.
fn key(name: &str, labels: &BTreeMap<&str, &str>) -> String {
    if labels.is_empty() {
        return name.to_string();
    }
    let inner: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    format!("{name}{{{}}}", inner.join(","))
}

/// An exposition's key (`name{b="y",a="x"}`, labels in any order) with its labels sorted.
fn sorted(series: &str) -> String {
    let Some((name, rest)) = series.split_once('{') else {
        return series.to_string();
    };
    let inner = rest.strip_suffix('}').unwrap();
    let labels: BTreeMap<&str, &str> = inner
        .split("\",")
        .map(|pair| {
            let (k, v) = pair.split_once("=\"").unwrap();
            (k, v.trim_end_matches('"'))
        })
        .collect();
    key(name, &labels)
}

/// The issue's "done when": a real Prometheus scrapes the follower and its API answers every
/// series with the batch report's figure, before and after the log grows.
#[test]
fn a_real_prometheus_answers_the_batch_reports_figures() {
    let Some(binary) = tool("prometheus") else {
        return;
    };
    let (_tmp, live, whole) = live_and_whole();
    let (header, rows) = sample_lines();
    let path = live.join("access.csv");
    std::fs::write(&path, format!("{header}{}", rows[..2000].concat())).unwrap();
    let served = Served::start(&live, &["access.csv"]);
    let target = served
        .url
        .strip_prefix("http://")
        .unwrap()
        .strip_suffix("/metrics")
        .unwrap()
        .to_string();
    let prometheus = Prometheus::start(&binary, &target);
    for written in [2000u64, 3000] {
        if written == 3000 {
            append(&path, &rows[2000..].concat());
        }
        let got = prometheus.wait_rows(written);
        std::fs::copy(&path, whole.join("access.csv")).unwrap();
        let want: BTreeMap<String, f64> = expected(&logs_once(&whole, "access.csv"), written)
            .into_iter()
            .map(|(k, v)| (sorted(&k), v))
            .collect();
        for (series, value) in &want {
            assert_eq!(
                got.get(series),
                Some(value),
                "{series} in Prometheus after {written} rows"
            );
        }
        assert_eq!(
            got.len(),
            want.len(),
            "{:?}",
            got.keys().collect::<Vec<_>>()
        );
    }
    drop(prometheus);
    served.stop();
}
