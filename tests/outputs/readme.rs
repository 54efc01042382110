//! Every `$ dupcost ...` command in a `console` block of README.md runs, succeeds, and prints
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= 5,
        "the README shows its commands in console blocks"
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
            "README line {}: console examples run dupcost: {}",
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
            "README line {}: `{}` failed: {stderr}",
            example.line,
            example.command
        );
        if !example.expected.is_empty() {
            let actual = String::from_utf8_lossy(&out.stdout);
            let trim = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
            assert_eq!(
                trim(&actual).trim_end(),
                trim(&example.expected).trim_end(),
                "README line {}: output of `{}` differs",
                example.line,
                example.command
            );
        }
    }
}
