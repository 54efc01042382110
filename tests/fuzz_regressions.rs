//! Replays every input the fuzzers ever found failing (`tests/fuzz_regressions/TARGET/*`),
//! and each target's seeds (`fuzz/seeds/TARGET/*`), through the same checks the fuzz targets
//! make (`fuzz/fuzz_targets/checks.rs`). A missing directory fails: a target's seeds must be
//! there, and so must the regressions of every target in [`REGRESSIONS`] (checked against
//! the directories present, so a new one is listed).

#[path = "../fuzz/fuzz_targets/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

/// The targets with inputs under `tests/fuzz_regressions/`.
const REGRESSIONS: &[&str] = &[
    "csv_records",
    "format_catalog",
    "format_json",
    "json_document",
    "log_format",
    "traces",
    "units",
];

/// The inputs of `target`: its seeds, and its regressions if it has any; panics on a missing
/// directory, or on no input at all.
fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("fuzz/seeds").join(target)];
    if REGRESSIONS.contains(&target) {
        dirs.push(root.join("tests/fuzz_regressions").join(target));
    }
    let mut paths = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_file() {
                paths.push(path);
            }
        }
    }
    paths.sort();
    assert!(!paths.is_empty(), "{target}: no input to replay");
    paths
}

/// Replays the inputs of `target` that are UTF-8 through `check`.
fn replay(target: &str, check: fn(&str)) {
    for path in inputs(target) {
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            eprintln!("replaying {}", path.display());
            check(text);
        }
    }
}

/// Replays the inputs of `target` as bytes (gzip, non-UTF-8) through `check`.
fn replay_bytes(target: &str, check: impl Fn(&[u8])) {
    for path in inputs(target) {
        eprintln!("replaying {}", path.display());
        check(&std::fs::read(&path).unwrap());
    }
}

/// Every directory of regressions is in [`REGRESSIONS`], and every one listed is there.
#[test]
fn the_regressions_listed_are_the_ones_present() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    assert_eq!(present, REGRESSIONS);
}

/// The span readers' own inputs, and the whole-file traces target's (each a document).
#[test]
fn span_reader() {
    replay_bytes("span_reader", checks::span_reader);
    replay_bytes("traces", checks::span_reader);
}

#[test]
fn units() {
    replay("units", checks::units);
}

#[test]
fn sweep() {
    replay("sweep", checks::sweep);
}

#[test]
fn scenario_file() {
    replay("scenario_file", checks::scenario_file);
}

/// The log reader's inputs are bytes (gzip, non-UTF-8), replayed as they are, from a file and
/// in memory (what the in-memory targets read must be what a file gives).
#[test]
fn logs() {
    replay_bytes("logs", |b| {
        checks::logs(b);
        checks::same_in_memory(b);
    });
}

#[test]
fn duration_unit() {
    replay_bytes("duration_unit", checks::duration_unit);
}

#[test]
fn non_access() {
    replay_bytes("non_access", checks::non_access);
    // The seeds too: real NLB, ALB connection log and HAProxy tcplog records.
    for seed in ["elastic-alb.log", "tcplog.log"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds/non_access")
            .join(seed);
        checks::non_access(&std::fs::read(path).unwrap());
    }
}

#[test]
fn format_json() {
    replay_bytes("format_json", checks::format_json);
}

#[test]
fn format_haproxy_log() {
    replay_bytes("format_haproxy_log", checks::format_haproxy_log);
}

#[test]
fn log_format() {
    replay_bytes("log_format", checks::log_format);
}

#[test]
fn envelope_cri() {
    replay("envelope_cri", |t| checks::envelope(&["cri"], t.as_bytes()));
}

#[test]
fn envelope_docker() {
    replay("envelope_docker", |t| {
        checks::envelope(&["docker", "json-log"], t.as_bytes())
    });
}

#[test]
fn envelope_json() {
    replay("envelope_json", |t| {
        checks::envelope(
            &["json-message", "json-event-original", "json-line"],
            t.as_bytes(),
        )
    });
}

#[test]
fn envelope_syslog() {
    replay("envelope_syslog", |t| {
        checks::envelope(&["syslog", "syslog5424"], t.as_bytes())
    });
}

#[test]
fn envelope_prefix() {
    replay("envelope_prefix", |t| {
        checks::envelope(
            &[
                "kubectl",
                "kubectl-timestamps",
                "stern",
                "timestamped",
                "logcli",
            ],
            t.as_bytes(),
        )
    });
}

/// In memory, as the target reads them, and as a file (whole and in pieces). The seeds are
/// documents of access records: each is read.
#[test]
fn json_document() {
    replay("json_document", |t| {
        checks::json_document(t.as_bytes());
        checks::logs(t.as_bytes());
        checks::same_in_memory(t.as_bytes());
    });
    for seed in inputs("json_document")
        .iter()
        .filter(|p| p.starts_with(seeds_dir("json_document")))
    {
        let read = checks::json_document(&std::fs::read(seed).unwrap());
        assert!(read, "{}: not read", seed.display());
    }
}

#[test]
fn format_apigateway() {
    replay_bytes("format_apigateway", checks::format_apigateway);
}

/// In memory, as the target reads them, and as a file through the whole reading path (whole
/// and in pieces), which the target leaves to `logs`. The seeds are traces: each is read.
#[test]
fn traces() {
    replay_bytes("traces", |b| {
        checks::traces(b);
        checks::logs(b);
        checks::same_in_memory(b);
    });
    for seed in inputs("traces")
        .iter()
        .filter(|p| p.starts_with(seeds_dir("traces")))
    {
        let read = checks::traces(&std::fs::read(seed).unwrap());
        // Named as its own format and detected, at least.
        assert!(
            read >= 2,
            "{}: read as traces {read} times of 4",
            seed.display()
        );
    }
}

/// Where the seeds of `target` are.
fn seeds_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target)
}

#[test]
fn json_scan() {
    replay_bytes("json_scan", |b| {
        checks::json_scan(b);
    });
    // The scanner, not the fallback, reads real lines: the generator's nginx escape=json
    // lines (20, and the empty one after the last newline), under the input's own tree and
    // the fixed one.
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/json_scan/nginx-json");
    assert_eq!(checks::json_scan(&std::fs::read(seed).unwrap()), 2 * 21);
}

#[test]
fn csv_records() {
    replay_bytes("csv_records", |b| {
        checks::csv_records(b, b',');
        checks::csv_records(b, b'\t');
    });
}

#[test]
fn unwrap_compose() {
    replay_bytes("unwrap_compose", |b| checks::unwrap(&["compose"], b));
}

#[test]
fn format_ambassador() {
    replay_bytes("format_ambassador", checks::ambassador);
}

/// The catalog's target (`format_catalog`: every row's sniff, named reading, refusal
/// candidates and sample layouts) on its seeds and regressions, and on every row's samples.
/// Its seeds hold the inputs of the per-format targets it replaced (`nginx-`, `alb-`,
/// `platforms-`, ...).
#[test]
fn format_catalog() {
    replay_bytes("format_catalog", checks::format_catalog);
    assert!(checks::format_catalog_samples() >= 10);
}

/// The catalog's target on each real sample of the formats and suites fixtures.
#[test]
fn format_catalog_on_the_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut read = 0;
    for folder in ["formats", "suites"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            eprintln!("checking {}", path.display());
            checks::format_catalog(&std::fs::read(&path).unwrap());
            read += 1;
        }
    }
    assert!(read >= 10, "{read} fixtures");
}
