//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;

pub mod tmux;

use assert_cmd::Command;
use dupcost::tui::App;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The real `dupcost` binary, with no ambient `DUPCOST_*` or colour settings.
pub fn dupcost() -> Command {
    let mut cmd = Command::cargo_bin("dupcost").expect("the binary builds");
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DUPCOST_") {
            cmd.env_remove(key);
        }
    }
    cmd.env_remove("NO_COLOR");
    // The tests of what the report says read the whole of it; the answer-first table is
    // tested where a test removes this (the goldens, tests/outputs/answer.rs).
    cmd.env("DUPCOST_EXPLAIN", "1");
    cmd
}

/// Runs the command expecting success (its stderr is the failure message); returns its output.
pub fn succeed(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `dupcost ARGS` expecting success, and parses its JSON output.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = succeed(dupcost().args(args).args(["--format", "json"]));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Runs `dupcost ARGS` expecting a usage error: exit code 2 and exactly one line on stderr,
/// which is returned.
pub fn usage_error(args: &[&str]) -> String {
    let out = dupcost().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: no output on error");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: one line: {stderr}"
    );
    stderr
}

/// `a` and `b` agree to a relative `tolerance`.
pub fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(f64::MIN_POSITIVE)
}

/// The explorer `app` drawn once on a `width` x `height` test terminal.
pub fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .unwrap();
    terminal
}

/// `tests/fixtures/FOLDER/NAME`, as the path string a command line takes.
pub fn fixture(folder: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder)
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Writes `bytes` to `dir/name` and returns its path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    write_path(dir, name, bytes).to_str().unwrap().to_string()
}

/// Writes `bytes` to `dir/name` and returns its path.
pub fn write_path(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Asserts that two reports' `observed` objects (or any two JSON objects) agree on each of
/// `keys`; `what` names the case in a failure.
pub fn same_keys(a: &serde_json::Value, b: &serde_json::Value, keys: &[&str], what: &str) {
    for key in keys {
        assert_eq!(a[key], b[key], "{what} {key}");
    }
}

/// Whether the tests run in CI: `CI` is set to anything but empty, `0` or `false` (CI
/// services set `CI=true`; `.ci/run` runs with it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Whether `tool` is a command on `PATH`.
pub fn on_path(tool: &str) -> bool {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The one rule for a test that needs a tool from outside the repository (tmux, Chromium,
/// Redis, PostgreSQL, Java, a Python venv): `true` when nothing is `missing`. Otherwise, in
/// CI ([`in_ci`]) the test fails naming what is missing and how to get it; elsewhere it is
/// skipped with one line on stderr, `skipped: TEST needs MISSING (HOW)`, written past the
/// test harness's capture so that `cargo test` shows it.
pub fn needs(test: &str, missing: &[String], how: &str) -> bool {
    if missing.is_empty() {
        return true;
    }
    let line = format!("{test} needs {} ({how})", missing.join(", "));
    if in_ci() {
        panic!("CI: {line}");
    }
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {line}");
    false
}

/// The python of the venv `.ci/run` makes (target/sql-venv, or `DUPCOST_SQL_PYTHON`), when it
/// can `import` what `test` needs (`what` names it for the message); skipped or failed as
/// [`needs`] says otherwise.
pub fn venv_python(test: &str, import: &str, what: &str) -> Option<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("DUPCOST_SQL_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target/sql-venv/bin/python"));
    let ready = std::process::Command::new(&python)
        .args(["-c", &format!("import {import}")])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let missing = if ready {
        vec![]
    } else {
        vec![format!("{what} in {}", python.display())]
    };
    needs(test, &missing, "bash .ci/run makes the venv").then_some(python)
}

/// Runs the command expecting success; returns its stdout as text.
pub fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(succeed(cmd).stdout).expect("UTF-8 output")
}

/// Runs the command with `--format json` expecting success, and parses its output.
pub fn json_of(cmd: &mut Command) -> serde_json::Value {
    serde_json::from_slice(&succeed(cmd.args(["--format", "json"])).stdout).expect("valid JSON")
}

/// The line of a table report that starts with `label` (a Scenario line: `  key TTL  1d ...`).
pub fn line<'a>(table: &'a str, label: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no line {label} in:\n{table}"))
}
