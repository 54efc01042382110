//! What users see, byte for byte: the table, markdown, JSON and CSV of every bundled sample and
//! of the estimate's main scenarios, as the binary prints them. A refactor must leave every file
//! under `tests/golden/` as it is; a change that means to alter what users see regenerates them
//! with `UPDATE_GOLDEN=1 cargo test --test outputs golden` and the diff is reviewed in the commit.
//!
//! A command that fails is recorded too (its exit code and stderr), so a sample that starts or
//! stops being refused shows up here.

use std::path::{Path, PathBuf};

use crate::common::dupcost;

const FORMATS: [&str; 4] = ["table", "markdown", "json", "csv"];

/// `(name, arguments)` of every golden case but the per-sample ones.
const CASES: &[(&str, &[&str])] = &[
    ("estimate", &["estimate"]),
    ("estimate-zero-retries", &["estimate", "--retries", "0"]),
    (
        "estimate-stripe",
        &[
            "estimate",
            "--preset",
            "stripe",
            "--requests-per-day",
            "5000",
        ],
    ),
    ("sweep-retries", &["estimate", "--sweep", "retries=0..5"]),
    (
        "sweep-timeout-rate",
        &["estimate", "--sweep", "timeout-rate=0.1%..1%:4"],
    ),
    (
        "logs-outcomes",
        &[
            "logs",
            "samples/envoy.log",
            "--outcomes",
            "samples/envoy-backend.csv",
        ],
    ),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn samples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("samples"))
        .expect("samples/ is part of the repository")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 20, "the bundled samples: {names:?}");
    names
}

/// What one command printed, as the golden file holds it: stdout alone on success; otherwise
/// the exit code, then stderr, then any stdout.
fn run(args: &[&str]) -> Vec<u8> {
    let out = dupcost()
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env_remove("DUPCOST_EXPLAIN")
        .output()
        .unwrap();
    if out.status.success() {
        return out.stdout;
    }
    let mut text = format!("exit {:?}\n", out.status.code()).into_bytes();
    text.extend_from_slice(&out.stderr);
    text.extend_from_slice(&out.stdout);
    text
}

fn golden_path(name: &str, format: &str) -> PathBuf {
    let extension = match format {
        "markdown" => "md",
        "table" => "txt",
        other => other,
    };
    root()
        .join("tests/golden")
        .join(format!("{name}.{extension}"))
}

fn all_cases() -> Vec<(String, Vec<String>)> {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for sample in samples() {
        if sample == "envoy-backend.csv" {
            // The backend side of logs-outcomes: a service log of its own, read there.
            continue;
        }
        cases.push((
            format!("logs-{sample}"),
            vec!["logs".into(), format!("samples/{sample}")],
        ));
    }
    for (name, args) in CASES {
        cases.push((
            name.to_string(),
            args.iter().map(|a| a.to_string()).collect(),
        ));
    }
    cases
}

#[test]
fn every_output_is_as_recorded() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let cases = all_cases();
    let jobs: Vec<(String, String, Vec<String>)> = cases
        .iter()
        .flat_map(|(name, args)| {
            FORMATS.iter().map(move |format| {
                let mut args = args.clone();
                args.extend(["--format".to_string(), format.to_string()]);
                (name.clone(), format.to_string(), args)
            })
        })
        .collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = jobs.len().div_ceil(threads);
    let mut differences: Vec<String> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|jobs| {
                scope.spawn(move || {
                    let mut differences = Vec::new();
                    for (name, format, args) in jobs {
                        let args: Vec<&str> = args.iter().map(String::as_str).collect();
                        let actual = run(&args);
                        let path = golden_path(name, format);
                        if update {
                            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                            std::fs::write(&path, &actual).unwrap();
                            continue;
                        }
                        match std::fs::read(&path) {
                            Ok(expected) if expected == actual => {}
                            Ok(expected) => differences.push(format!(
                                "{} differs from `dupcost {}`:\n--- recorded\n{}\n--- now\n{}",
                                path.display(),
                                args.join(" "),
                                String::from_utf8_lossy(&expected),
                                String::from_utf8_lossy(&actual)
                            )),
                            Err(error) => differences.push(format!(
                                "{}: {error} (UPDATE_GOLDEN=1 records it)",
                                path.display()
                            )),
                        }
                    }
                    differences
                })
            })
            .collect();
        for handle in handles {
            differences.extend(handle.join().unwrap());
        }
    });
    assert!(
        differences.is_empty(),
        "{} golden outputs differ:\n{}",
        differences.len(),
        differences.join("\n\n")
    );
}

/// Every recorded file belongs to a case, so a removed case does not leave a stale golden.
#[test]
fn no_golden_without_a_case() {
    let expected: Vec<PathBuf> = all_cases()
        .iter()
        .flat_map(|(name, _)| FORMATS.iter().map(move |f| golden_path(name, f)))
        .collect();
    for entry in std::fs::read_dir(root().join("tests/golden")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // A folder of another area's golden outputs (`sql/`: tests/sql/golden.rs checks it).
            continue;
        }
        assert!(
            expected.contains(&path),
            "{} belongs to no golden case",
            path.display()
        );
    }
}
