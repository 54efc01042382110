//! The SQL `dupcost sql` prints, byte for byte: every preset on every engine, and the variants
//! that change the query's shape (fingerprints, the client timeout, the backend's table, a
//! server's own log, give-up flags, the filters); and `estimate --observed` on a recorded
//! result, in every output format. A refactor of `src/sql` must leave every file under
//! `tests/golden/sql/` as it is; a change meant to alter the query regenerates them with
//! `UPDATE_GOLDEN=1 cargo test --test sql golden` and the diff is reviewed in the commit.
//!
//! A command that fails is recorded too (its exit code and stderr): `--preset otel-traces` is
//! refused on every engine but ClickHouse, and that refusal is part of what users see.

use std::path::{Path, PathBuf};

use crate::common::dupcost;

const ENGINES: [&str; 5] = ["duckdb", "clickhouse", "spark", "trino", "bigquery"];
const PRESETS: [&str; 4] = ["athena-alb", "athena-cloudfront", "generic", "otel-traces"];

/// `(name, arguments after --engine E --table logs)`: the variants of the query's shape.
const VARIANTS: &[(&str, &[&str])] = &[
    (
        "fingerprint",
        &[
            "--intents",
            "fingerprint",
            "--column",
            "client_addr=ip",
            "--column",
            "forwarded_for=xff",
        ],
    ),
    (
        "client-timeout",
        &[
            "--column",
            "duration=request_time",
            "--client-timeout",
            "30s",
        ],
    ),
    (
        "fingerprint-client-timeout",
        &[
            "--intents",
            "fingerprint",
            "--column",
            "duration=duration_ms",
            "--client-timeout",
            "1500ms",
            "--shared-address-rate",
            "12",
        ],
    ),
    (
        "outcomes-table",
        &[
            "--outcomes-table",
            "backend",
            "--outcomes-column",
            "status=code",
        ],
    ),
    (
        "outcomes-table-fingerprint",
        &[
            "--outcomes-table",
            "backend",
            "--outcomes-column",
            "timestamp=",
            "--intents",
            "fingerprint",
        ],
    ),
    ("server", &["--log-side", "server"]),
    (
        "server-auto",
        &[
            "--column",
            "upstream_status=",
            "--column",
            "idempotency_key=webhook_id",
        ],
    ),
    ("flags-envoy", &["--column", "flags=response_flags"]),
    ("flags-haproxy", &["--column", "flags=termination_state"]),
    (
        "filters",
        &[
            "--path",
            "^/v1/",
            "--since",
            "2026-11-01",
            "--until",
            "2026-11-08T12:00:00Z",
            "--methods",
            "post,put",
            "--timeout-status",
            "499,504",
            "--retry-window",
            "10m",
        ],
    ),
    (
        "keyless",
        &["--column", "idempotency_key=", "--column", "timestamp="],
    ),
];

/// The presets' variants that read columns the presets name otherwise.
const PRESET_VARIANTS: &[(&str, &str, &[&str])] = &[
    (
        "athena-alb-outcomes-table",
        "athena-alb",
        &["--outcomes-table", "backend"],
    ),
    (
        "athena-alb-key",
        "athena-alb",
        &["--column", "idempotency_key=request_id_header"],
    ),
    (
        "athena-cloudfront-key",
        "athena-cloudfront",
        &["--intents", "key", "--column", "idempotency_key=cs_headers"],
    ),
];

/// A result DuckDB exported for samples/access-log.csv, read back.
const RESULT: &str = "tests/fixtures/sql/access-log-result.csv";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What one command printed: stdout alone on success; otherwise the exit code, then stderr,
/// then any stdout.
fn run(args: &[String]) -> Vec<u8> {
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

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// `(golden file name, arguments)` of every case.
fn cases() -> Vec<(String, Vec<String>)> {
    let mut cases = Vec::new();
    for engine in ENGINES {
        let base = |preset: &str| {
            strings(&[
                "sql", "--engine", engine, "--table", "logs", "--preset", preset,
            ])
        };
        for preset in PRESETS {
            cases.push((format!("{preset}-{engine}.sql"), base(preset)));
        }
        for (name, extra) in VARIANTS {
            let mut args = base("generic");
            args.extend(strings(extra));
            cases.push((format!("generic-{name}-{engine}.sql"), args));
        }
        for (name, preset, extra) in PRESET_VARIANTS {
            let mut args = base(preset);
            args.extend(strings(extra));
            cases.push((format!("{name}-{engine}.sql"), args));
        }
    }
    for (format, extension) in [
        ("table", "txt"),
        ("markdown", "md"),
        ("json", "json"),
        ("csv", "csv"),
    ] {
        cases.push((
            format!("observed-access-log.{extension}"),
            strings(&["estimate", "--observed", RESULT, "--format", format]),
        ));
    }
    cases
}

fn golden_path(name: &str) -> PathBuf {
    root().join("tests/golden/sql").join(name)
}

#[test]
fn every_query_is_as_recorded() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let cases = cases();
    assert!(cases.len() >= 5 * 18, "{} cases", cases.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = cases.len().div_ceil(threads);
    let differences: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|cases| {
                scope.spawn(move || {
                    let mut differences = Vec::new();
                    for (name, args) in cases {
                        let actual = run(args);
                        let path = golden_path(name);
                        if update {
                            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                            std::fs::write(&path, &actual).unwrap();
                            continue;
                        }
                        match std::fs::read(&path) {
                            Ok(expected) if expected == actual => {}
                            Ok(_) => differences.push(format!(
                                "{name} differs from {} (dupcost {})",
                                path.display(),
                                args.join(" ")
                            )),
                            Err(e) => differences.push(format!(
                                "{name}: {} cannot be read ({e}); UPDATE_GOLDEN=1 records it",
                                path.display()
                            )),
                        }
                    }
                    differences
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// Every golden file is a case of the test: none is left over from a case removed.
#[test]
fn no_golden_query_is_left_over() {
    let names: Vec<String> = cases().into_iter().map(|(name, _)| name).collect();
    for entry in std::fs::read_dir(root().join("tests/golden/sql")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(names.contains(&name), "tests/golden/sql/{name} is no case");
    }
}
