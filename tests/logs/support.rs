//! Helpers the logs modules share, written once: `dupcost logs` run as a user runs it (its
//! table, its JSON, its usage errors), the generator's logs written, and the library's
//! reading of files. The helpers of every area are in `tests/common`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{self, dupcost};
use crate::generator::{self, Config, Format, Truth};
use dupcost::logs::{self, LogAnalysis, LogInput, LogOptions};

/// `dupcost logs ARGS`, expecting success: its stdout and stderr.
pub fn output(args: &[&str]) -> (String, String) {
    let out = dupcost().arg("logs").args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// `dupcost logs ARGS --format json`, expecting success with no panic: the report and stderr.
pub fn report(args: &[&str]) -> (Value, String) {
    let out = dupcost()
        .arg("logs")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// `dupcost logs ARGS --format json`, expecting success: the report.
pub fn json(args: &[&str]) -> Value {
    common::json(&[&["logs"], args].concat())
}

/// `dupcost logs ARGS`, expecting a usage error (exit 2, one line, see
/// [`common::usage_error`]) that starts `error: ` and names each of `needles`; returns it.
pub fn fails(args: &[&str], needles: &[&str]) -> String {
    let err = common::usage_error(&[&["logs"], args].concat());
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
    err
}

/// The generator's log for `cfg` in memory, and its true figures.
pub fn generate(cfg: &Config) -> (Vec<u8>, Truth) {
    let mut bytes = Vec::new();
    let truth = generator::generate(cfg, &mut bytes).unwrap();
    (bytes, truth)
}

/// The generator's log for `cfg` written to `dir/name`, and its true figures.
pub fn generated(dir: &Path, name: &str, cfg: &Config) -> (PathBuf, Truth) {
    let path = dir.join(name);
    let truth = generator::generate(cfg, std::fs::File::create(&path).unwrap()).unwrap();
    (path, truth)
}

/// The traffic the platform and AWS format tests generate in `format`: 4,000 rows, a fifth of
/// the timeouts' outcomes unknown, a bad row every 700, request ids.
pub fn platform_config(format: Format) -> Config {
    Config {
        rows: 4_000,
        seed: 11,
        format,
        unknown_share: 0.2,
        bad_every: 700,
        request_ids: true,
        ..Config::default()
    }
}

/// The library's reading of `paths` with `opts` (expected to succeed).
pub fn analyze(paths: &[PathBuf], opts: &LogOptions) -> LogAnalysis {
    let sources: Vec<LogInput> = paths.iter().cloned().map(LogInput::Path).collect();
    logs::analyze(&sources, opts).unwrap()
}

/// The default options on one thread (a file is read in one piece).
pub fn one_thread() -> LogOptions {
    LogOptions {
        threads: 1,
        ..LogOptions::default()
    }
}

/// `n` with its thousands grouped, as the reports write counts (`12,345`).
pub fn group(n: u64) -> String {
    dupcost::report::human::group_thousands(&n.to_string())
}
