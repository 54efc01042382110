//! Every `$ dupcost ...` command in a `console` block of README.md and docs/GUIDE.md runs, succeeds, and prints
//! exactly the output shown under it (when any is shown), so the README cannot drift.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Example {
    line: usize,
    command: String,
    expected: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (number, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                line: number + 1,
                command: command.to_string(),
                expected: String::new(),
            });
        } else if let Some(last) = examples.last_mut() {
            last.expected.push_str(line);
            last.expected.push('\n');
        }
    }
    examples
}

fn binary_dir() -> PathBuf {
    assert_cmd::cargo::cargo_bin("dupcost")
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn readme_commands_run_and_match() {
    console_examples_run_and_match("README.md", 5);
}

/// The README stays a page for users; the depth goes to docs/.
#[test]
fn readme_stays_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::metadata(root.join("README.md")).unwrap().len();
    assert!(
        bytes <= 15_000,
        "README.md is {bytes} bytes: move depth to docs/GUIDE.md"
    );
}

/// The guide's longer examples are held to the same rule as the README's.
#[test]
fn guide_commands_run_and_match() {
    console_examples_run_and_match("docs/GUIDE.md", 2);
}

fn console_examples_run_and_match(doc: &str, min: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join(doc)).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= min,
        "{doc} shows its commands in console blocks"
    );
    // Run where files the commands write (`> sweep.csv`) do not land in the repository, with
    // the repository's samples at hand.
    let work = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("samples"), work.path().join("samples")).unwrap();
    let path = format!(
        "{}:{}",
        binary_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in examples {
        assert!(
            example.command.starts_with("dupcost ") || example.command.contains(" dupcost "),
            "{doc} line {}: console examples run dupcost: {}",
            example.line,
            example.command
        );
        let out = Command::new("bash")
            .args(["-o", "pipefail", "-c", &example.command])
            .current_dir(work.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{doc} line {}: `{}` failed: {stderr}",
            example.line,
            example.command
        );
        if !example.expected.is_empty() {
            let actual = String::from_utf8_lossy(&out.stdout);
            let trim = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
            assert_eq!(
                trim(&actual).trim_end(),
                trim(&example.expected).trim_end(),
                "{doc} line {}: output of `{}` differs",
                example.line,
                example.command
            );
        }
    }
}
