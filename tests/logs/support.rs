//! Helpers the logs modules share, written once: `dupcost logs` run as a user runs it (its
//! table, its JSON, its usage errors), the generator's logs written, and the library's
//! reading of files. The helpers of every area are in `tests/common`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};

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

/// Figures the logs cannot give, so that a small file still reports.
const SMALL_FILE_GIVEN: [&str; 6] = [
    "--requests-per-day",
    "1000",
    "--succeeded-share",
    "50%",
    "--min-span",
    "0s",
];

/// [`report`] of a small file made in a test: `path` and `args`, with the figures a few
/// lines cannot give.
pub fn small_report(path: &str, args: &[&str]) -> (Value, String) {
    report(&[&[path][..], &SMALL_FILE_GIVEN, args].concat())
}

/// `(rows, bad rows, mutating attempts, timed out)` of a report's `observed`.
pub fn counts(o: &Value) -> (u64, u64, u64, u64) {
    let n = |k: &str| o[k].as_u64().unwrap();
    (
        n("rows"),
        n("bad_rows"),
        n("mutating_attempts"),
        n("timed_out"),
    )
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

/// The sample log a follower is fed: its CSV header and its 3,000 rows over a week (with keys
/// and retries), a line each with its newline, to append piece by piece.
pub fn sample_lines() -> (String, Vec<String>) {
    let text = std::fs::read_to_string("samples/access-log.csv").unwrap();
    let mut lines = text.lines().map(|l| format!("{l}\n"));
    let header = lines.next().unwrap();
    (header, lines.collect())
}

/// Appends `text` to `path` (created if missing), as a server writes its log.
pub fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// A temp dir with `live/`, where a followed log grows, and `whole/`, where a copy of it is
/// read once for the batch report to compare with.
pub fn live_and_whole() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let live = tmp.path().join("live");
    let whole = tmp.path().join("whole");
    std::fs::create_dir_all(&live).unwrap();
    std::fs::create_dir_all(&whole).unwrap();
    (tmp, live, whole)
}

/// `dupcost logs NAME --format json EXTRA`, run once in `dir` (so the file's name reads the
/// same as the follower's): the report's bytes.
pub fn batch_json(dir: &Path, name: &str, extra: &[&str]) -> Vec<u8> {
    let out = common::succeed(
        dupcost()
            .current_dir(dir)
            .args(["logs", name, "--format", "json"])
            .args(extra),
    );
    out.stdout
}

/// `dupcost logs ARGS --follow --every 200ms EXTRA` started in `dir`, stdout and stderr piped
/// (a report in `DUPCOST_FORMAT` would not be the one asked for).
pub fn start_follower(dir: &Path, args: &[&str], extra: &[&str], stdin: Stdio) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("dupcost"))
        .current_dir(dir)
        .arg("logs")
        .args(args)
        .args(["--follow", "--every", "200ms"])
        .args(extra)
        .env_remove("DUPCOST_FORMAT")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Ctrl-C to a follower: its exit status once it has ended.
pub fn interrupt(child: &mut Child) -> ExitStatus {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    child.wait().unwrap()
}
