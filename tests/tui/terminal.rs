//! `dupcost tui` as a person meets it: the real binary in a real terminal (tmux). It starts
//! and shows the figures, a key changes them, it redraws on resize, it idles without CPU,
//! `q` quits, and the terminal is left out of raw mode and the alternate screen. Also
//! `dupcost logs`' progress display, which only a terminal gets.
//!
//! Without tmux the terminal test is skipped locally but FAILS when `CI` is set.

use std::process::Command;
use std::time::Duration;

use dupcost::model::{Estimate, Scenario};
use dupcost::report::human;

use crate::common::tmux::Tmux;

const SESSION: &str = "tui";

/// Session script lines run after the explorer: how it exited, and the terminal modes it left
/// (read by [`quit_restored`]).
const AFTER_EXIT: &str = "echo \"exit=$?\"\n\
    echo \"modes: $(stty -a | tr ' ;' '\\n\\n' | grep -Ex -- '-?(icanon|echo)' | tr '\\n' ' ')\"\n";

/// A temporary directory and the path of the session script a terminal test writes there, or
/// `None` when the test is skipped for want of tmux (see [`Tmux::present`]).
fn session_dir() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    if !Tmux::present("the explorer in a terminal (tests/tui/terminal.rs)") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("session.sh");
    Some((dir, script))
}

/// Quits the explorer with `q` and waits for the session script to print `after` (its
/// [`AFTER_EXIT`] lines come first): the explorer exited 0 and left the main screen,
/// canonical mode and echo on.
fn quit_restored(tmux: &Tmux, after: &str) {
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the shell after the explorer", |s| s.contains(after));
    assert!(screen.contains("exit=0"), "{screen}");
    assert_eq!(tmux.display("#{alternate_on}"), "0");
    let modes = screen
        .lines()
        .find(|l| l.starts_with("modes:"))
        .unwrap_or_default()
        .to_string();
    assert!(
        modes.contains(" icanon") && modes.contains(" echo") && !modes.contains('-'),
        "terminal modes after quitting: {modes:?}"
    );
}

/// The explorer spends at most 5 clock ticks of CPU in 1.5 s left alone. The 1.5 s is the
/// window measured, not a wait for the screen: nothing is read from the terminal after it.
fn assert_idle(tmux: &Tmux) {
    #[cfg(target_os = "linux")]
    {
        let shell = tmux.display("#{pane_pid}");
        if let Some(before) = explorer_cpu_ticks(&shell) {
            std::thread::sleep(Duration::from_millis(1500));
            let after = explorer_cpu_ticks(&shell).expect("still running");
            assert!(
                after - before <= 5,
                "{} ticks of CPU while idle",
                after - before
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = tmux;
}

/// CPU time (user + system, in clock ticks) of the pane shell's child: the explorer.
#[cfg(target_os = "linux")]
fn explorer_cpu_ticks(shell_pid: &str) -> Option<u64> {
    let children =
        std::fs::read_to_string(format!("/proc/{shell_pid}/task/{shell_pid}/children")).ok()?;
    let pid = children.split_whitespace().next()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses): utime and stime are 14 and 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

#[test]
fn runs_in_a_real_terminal_and_restores_it() {
    let Some((dir, script)) = session_dir() else {
        return;
    };
    let save = dir.path().join("saved.json");
    std::fs::write(
        &script,
        format!(
            "'{bin}' tui --save-to '{save}'\n\
             {AFTER_EXIT}\
             printf 'type: '\n\
             read -r line\n\
             echo \"got:$line\"\n\
             sleep 600\n",
            bin = env!("CARGO_BIN_EXE_dupcost"),
            save = save.display(),
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 100, 30);

    // It starts on the article's scenario, in the alternate screen.
    tmux.wait_for("the default figures", |s| s.contains("$24,048"));
    assert_eq!(tmux.display("#{alternate_on}"), "1");

    // Idle: blocked on input, no CPU.
    assert_idle(&tmux);

    // Right steps requests per day from 20,000 to 50,000: the refunds follow.
    let expected = human::money(
        Estimate::new(Scenario {
            requests_per_day: 50_000.0,
            ..Scenario::default()
        })
        .refund_cost
        .per_month,
        "$",
    );
    tmux.keys(&["Right"]);
    let screen = tmux.wait_for(&expected, |s| s.contains(&expected));
    assert!(!screen.contains("$24,048"), "{screen}");
    assert!(screen.contains("50,000"), "{screen}");

    // It redraws on resize, down to the too-small note and back.
    tmux.resize(40, 10);
    tmux.wait_for("the too-small note", |s| s.contains("too small"));
    tmux.resize(100, 30);
    tmux.wait_for("the full layout again", |s| s.contains(&expected));

    // s saves the scenario where the screen says.
    tmux.keys(&["s"]);
    tmux.wait_for("the saved note", |s| s.contains("Saved to"));
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("\"requests_per_day\": 50000"), "{saved}");

    // q quits, and the terminal is as it was: main screen, canonical mode, echo on.
    quit_restored(&tmux, "type:");
    tmux.literal("typed-after-quit");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the shell to read a line", |s| s.contains("got:"));
    assert!(
        screen.contains("type: typed-after-quit"),
        "typed text echoes:\n{screen}"
    );
    assert!(screen.contains("got:typed-after-quit"), "{screen}");
}

/// `--from-logs` starts on the inputs `dupcost logs` measures from the same file.
#[test]
fn starts_from_logs() {
    // `_dir` (not `_`) keeps the directory until the test ends.
    let Some((_dir, script)) = session_dir() else {
        return;
    };
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");
    let measured = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .args(["logs", sample, "--format", "json"])
        .output()
        .unwrap();
    let measured: serde_json::Value = serde_json::from_slice(&measured.stdout).unwrap();
    let refunds = measured["refund_cost"]["per_month"].as_f64().unwrap();
    let shown = dupcost::report::human::money(refunds, "$");

    std::fs::write(
        &script,
        format!(
            "'{}' tui --from-logs '{sample}'\nsleep 600\n",
            env!("CARGO_BIN_EXE_dupcost")
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 120, 40);
    let screen = tmux.wait_for("the measured figures", |s| s.contains(&shown));
    let requests = measured["inputs"]["requests_per_day"].as_f64().unwrap();
    let requests =
        dupcost::report::words::input_value(dupcost::inputs::Input::RequestsPerDay, requests, "$");
    assert!(
        screen.contains(&requests),
        "{requests} requests a day from the log:\n{screen}"
    );
    tmux.keys(&["q"]);
}

/// `tui --logs` on the sample: the measured scenario is pinned as the baseline, the endpoint
/// panel explores one endpoint's own scenario and `w` goes back, and the terminal is restored.
#[test]
fn logs_baseline_and_endpoint_panel() {
    let Some((_dir, script)) = session_dir() else {
        return;
    };
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");
    let report = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .args(["logs", sample, "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let money = |v: &serde_json::Value| human::money(v.as_f64().unwrap(), "$");
    let whole = money(&report["refund_cost"]["per_month"]);
    let second = &report["observed"]["per_endpoint"][1];
    let second_refunds = money(&second["refund_per_month"]);
    let second_name = format!(
        "{} {}",
        second["method"].as_str().unwrap(),
        second["route"].as_str().unwrap()
    );

    std::fs::write(
        &script,
        format!(
            "'{}' tui --logs '{sample}'\n\
             {AFTER_EXIT}\
             sleep 600\n",
            env!("CARGO_BIN_EXE_dupcost")
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 120, 40);
    let screen = tmux.wait_for("the measured figures", |s| s.contains(&whole));
    assert!(screen.contains("baseline pinned"), "{screen}");
    // Pinned on the measured scenario, nothing differs yet: the rule of thumb, not a column of ±0.
    assert!(!screen.contains("vs baseline"), "{screen}");
    assert!(screen.contains("rule of thumb"), "{screen}");
    assert!(screen.contains("Endpoints · whole log"), "{screen}");
    // The selected input's evidence is above the list until the list has the keys.
    assert!(screen.contains("requests per day · measured"), "{screen}");

    // Tab moves to the list (all of the panel), Down to the second endpoint, Enter explores it.
    tmux.keys(&["Tab"]);
    let screen = tmux.wait_for("the whole list", |s| s.contains(&second_name));
    assert!(!screen.contains("· measured"), "{screen}");
    tmux.keys(&["Down", "Enter"]);
    let screen = tmux.wait_for("the endpoint's scenario", |s| s.contains("exploring one"));
    let refunds_row = screen
        .lines()
        .find(|l| {
            l.contains("a month")
                && l.contains('$')
                && !l.contains("duplicates left")
                && !l.contains(&second_name)
        })
        .unwrap_or_default();
    assert!(
        refunds_row.contains(&second_refunds),
        "{second_refunds}:\n{screen}"
    );
    assert!(screen.contains(&format!("● {second_name}")), "{screen}");
    assert!(!screen.contains(&format!("  a month {whole}")), "{screen}");

    // The help lists the evidence of each measured input.
    tmux.keys(&["Tab", "?"]);
    let screen = tmux.wait_for("the help", |s| s.contains("Measured from"));
    assert!(
        screen.contains("timeout rate 3.182% = 68 timed out"),
        "{screen}"
    );
    tmux.keys(&["?"]);

    // w goes back to the whole log.
    tmux.keys(&["w"]);
    tmux.wait_for("the whole log again", |s| {
        s.contains("Endpoints · whole log") && s.contains(&whole)
    });

    quit_restored(&tmux, "modes:");
}

#[test]
fn from_logs_errors_fail_before_the_terminal_is_touched() {
    let output = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .args(["tui", "--logs", "/no/such/access.csv"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/no/such/access.csv"), "{stderr}");
}

#[test]
fn refuses_to_start_without_a_terminal() {
    let output = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .arg("tui")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs an interactive terminal"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn bad_scenario_flags_fail_before_the_terminal_is_touched() {
    let output = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .args(["tui", "--timeout-rate", "2"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("did you mean 2%"), "{stderr}");
}

/// `dupcost logs` shows its progress on stderr when stderr is a terminal and the input is big
/// (here a stream of about 80 MB, past the 64 MiB at which a stream's spinner appears), clears
/// it when done, and writes nothing of it when stderr is not a terminal.
#[test]
fn logs_progress_shows_on_a_terminal_only() {
    let Some((dir, script)) = session_dir() else {
        return;
    };
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/access-log.csv");
    let (out, err) = (dir.path().join("out.json"), dir.path().join("err.txt"));
    // The sample's rows 260 times over (~80 MB), then the stream stays open for a while.
    std::fs::write(
        &script,
        format!(
            "stream() {{ cat '{sample}'; i=0; while [ $i -lt 260 ]; do tail -n +2 '{sample}'; i=$((i+1)); done; sleep \"$1\"; }}\n\
             stream 4 | '{bin}' logs - --format json > '{out}'\n\
             echo \"terminal exit=$?\"\n\
             stream 0 | '{bin}' logs - --format json > /dev/null 2> '{err}'\n\
             echo \"piped exit=$?\"\n\
             sleep 600\n",
            bin = env!("CARGO_BIN_EXE_dupcost"),
            out = out.display(),
            err = err.display(),
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 100, 10);
    // The bar stands still while the stream waits its 4 s with every byte read.
    let busy = tmux.wait_for("the progress of the stream", |s| s.contains("MiB read"));
    assert!(!busy.contains("exit="), "{busy}");
    let done = tmux.wait_for("both runs", |s| s.contains("piped exit="));
    assert!(done.contains("terminal exit=0"), "{done}");
    assert!(done.contains("piped exit=0"), "{done}");
    assert!(
        !done.contains("MiB read"),
        "the bar is cleared when done:\n{done}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(report["observed"]["rows"].as_u64().unwrap() > 260 * 1_000);
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(
        !stderr.contains("read ("),
        "no progress on a pipe: {stderr}"
    );
}

/// `tui --logs FILE --follow` in a real terminal: the measured inputs and the live line
/// follow the file as it grows, the user's own edit stays, the explorer idles without CPU
/// between ticks, and `q` restores the terminal.
#[test]
fn follows_a_growing_log_live() {
    let Some((dir, script)) = session_dir() else {
        return;
    };
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/access-log.csv"
    ))
    .unwrap();
    let lines: Vec<&str> = sample.lines().collect();
    let log = dir.path().join("live.csv");
    std::fs::write(&log, format!("{}\n", lines[..2001].join("\n"))).unwrap();
    std::fs::write(
        &script,
        format!(
            "'{}' tui --logs '{}' --follow --every 200ms --succeeded-share 50%\n{AFTER_EXIT}sleep 600\n",
            env!("CARGO_BIN_EXE_dupcost"),
            log.display()
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 120, 40);
    tmux.wait_for("the live line", |s| s.contains("live: 2,000 rows"));

    // The user's own order value stays over the measurement.
    tmux.keys(&["Down", "Down", "Down", "Enter", "C-u"]);
    tmux.literal("85");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the edited order value", |s| s.contains("$85"));

    // Idle between ticks: no new lines, no keys, no CPU to speak of.
    assert_idle(&tmux);

    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut f, format!("{}\n", lines[2001..].join("\n")).as_bytes())
        .unwrap();
    let whole = Command::new(env!("CARGO_BIN_EXE_dupcost"))
        .args(["logs", log.to_str().unwrap(), "--format", "json"])
        .args(["--succeeded-share", "50%"])
        .output()
        .unwrap();
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let requests = whole["inputs"]["requests_per_day"].as_f64().unwrap();
    let requests =
        dupcost::report::words::input_value(dupcost::inputs::Input::RequestsPerDay, requests, "$");
    let screen = tmux.wait_for("all 3,000 rows", |s| {
        s.contains("live: 3,000 rows") && s.contains(&requests)
    });
    assert!(screen.contains("$85"), "the edit stays:\n{screen}");
    assert!(screen.contains("last 2026-11-07T21:13:02Z"), "{screen}");
    quit_restored(&tmux, "modes:");
}

/// `logs --follow` on a terminal: each report replaces the last in place, the lines that
/// changed since the previous report are marked with `*`, and Ctrl-C prints the last report
/// whole and exits 0.
#[test]
fn logs_follow_redraws_in_place_and_marks_changes() {
    let Some((dir, script)) = session_dir() else {
        return;
    };
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/access-log.csv"
    ))
    .unwrap();
    let lines: Vec<&str> = sample.lines().collect();
    let log = dir.path().join("live.csv");
    std::fs::write(&log, format!("{}\n", lines[..2001].join("\n"))).unwrap();
    std::fs::write(
        &script,
        format!(
            // The script's shell outlives the Ctrl-C (a caught signal is reset for the child).
            // A report stands for a tick, 2 s: the one after the log grew, whose lines are
            // marked, is on the screen long enough to be read whole under any load (at 300 ms
            // a loaded machine caught the next, unmarked, report).
            "trap true INT\n'{}' logs '{}' --follow --every 2s --succeeded-share 50%\necho \"exit=$?\"\nsleep 600\n",
            env!("CARGO_BIN_EXE_dupcost"),
            log.display()
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 120, 50);
    let screen = tmux.wait_for("the first report", |s| s.contains("2,000 rows read"));
    assert!(screen.contains("Following"), "{screen}");

    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut f, format!("{}\n", lines[2001..].join("\n")).as_bytes())
        .unwrap();
    let screen = tmux.wait_for("the grown report", |s| s.contains("3,000 rows read"));
    // In place: one report on the screen, the changed lines marked.
    assert_eq!(screen.matches("Following").count(), 1, "{screen}");
    assert!(
        screen.lines().any(|l| l.starts_with("*   timeout rate")),
        "the changed timeout rate is marked:\n{screen}"
    );
    assert!(
        screen.contains("(* changed since the last report)"),
        "{screen}"
    );

    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("the exit", |s| s.contains("exit="));
    assert!(screen.contains("exit=0"), "{screen}");
    // The last report is printed whole, its top in the scrollback.
    let history = tmux.wait_for_history("the last report", |h| h.contains("Verdict:"));
    assert!(
        history.contains(", the last"),
        "the last report:\n{history}"
    );
    assert!(
        history.contains("Verdict:"),
        "the last report whole:\n{history}"
    );
}

/// The explorer as someone who has never seen it meets it, at 80x24: the footer keeps `? help`
/// and `q quit`, the selected input's panel is there, the first key typed replaces the value
/// (not `0.2%0.5%`), and Esc backs out of an edit and never quits.
#[test]
fn a_newcomer_at_80x24_edits_and_backs_out() {
    let Some((_dir, script)) = session_dir() else {
        return;
    };
    std::fs::write(
        &script,
        format!(
            "'{}' tui\n{AFTER_EXIT}sleep 600\n",
            env!("CARGO_BIN_EXE_dupcost")
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, 80, 24);
    let screen = tmux.wait_for("the default figures", |s| s.contains("$24,048"));
    let footer = screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        footer.contains("? help") && footer.contains("q quit"),
        "{footer}"
    );
    assert!(screen.contains("Mutating intents a day"), "{screen}");
    // The kinds' letters are said, the inputs say there are more below, and a result's label
    // is whole.
    for words in [
        "a assumed",
        "Inputs 1-9 of 17 ↓",
        "duplicates left, a month",
    ] {
        assert!(screen.contains(words), "{words} not in\n{screen}");
    }

    // Down to the timeout rate, Enter, type 0.5%: the value is replaced, then applied.
    let expected = human::money(
        Estimate::new(Scenario {
            timeout_rate: 0.005,
            ..Scenario::default()
        })
        .refund_cost
        .per_month,
        "$",
    );
    tmux.keys(&["Down", "Enter"]);
    tmux.wait_for("the editor", |s| s.contains("Enter apply"));
    tmux.literal("0.5%");
    let typing = tmux.wait_for("the typed text", |s| s.contains("0.5%"));
    assert!(!typing.contains("0.2%0.5%"), "{typing}");
    tmux.keys(&["Enter"]);
    tmux.wait_for(&expected, |s| s.contains(&expected));

    // Esc in an edit leaves it; Esc at the top says how to quit, and the explorer stays.
    tmux.keys(&["Enter"]);
    tmux.wait_for("the editor again", |s| s.contains("Enter apply"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the editor closed", |s| !s.contains("Enter apply"));
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for("the note on Esc", |s| s.contains("q quits"));
    assert!(screen.contains(&expected), "still running:\n{screen}");
    quit_restored(&tmux, "modes:");
}

/// `tui --logs SAMPLE` (a path under the crate) in a terminal of `width` x `height`; `None`
/// when the test is skipped for want of tmux.
fn logs_session(sample: &str, width: u16, height: u16) -> Option<(tempfile::TempDir, Tmux)> {
    let (dir, script) = session_dir()?;
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(sample);
    std::fs::write(
        &script,
        format!(
            "'{}' tui --logs '{}'\nsleep 600\n",
            env!("CARGO_BIN_EXE_dupcost"),
            sample.display()
        ),
    )
    .unwrap();
    let tmux = Tmux::start(SESSION, &script, width, height);
    Some((dir, tmux))
}

/// With `--logs` at 120x40 the selected input's evidence is on screen, and follows the
/// selection.
#[test]
fn logs_show_the_selected_inputs_evidence() {
    let Some((_dir, tmux)) = logs_session("samples/access-log.csv", 120, 40) else {
        return;
    };
    let screen = tmux.wait_for("the evidence", |s| {
        s.contains("requests per day · measured")
    });
    assert!(screen.contains("intents"), "{screen}");
    tmux.keys(&["Down"]);
    let screen = tmux.wait_for("the timeout rate's evidence", |s| {
        s.contains("timeout rate · measured")
    });
    assert!(screen.contains("timed out"), "{screen}");
    tmux.keys(&["q"]);
}

/// With `--logs` at 80x24, an input the log did not settle shows its kind words whole in the
/// real terminal: why it is assumed, the bounds the log allows, the flag that settles it.
#[test]
fn logs_at_80x24_show_an_assumed_inputs_kind_whole() {
    let Some((_dir, tmux)) = logs_session("samples/ingress-nginx.cri.log", 80, 24) else {
        return;
    };
    let screen = tmux.wait_for("the requests a day's kind", |s| {
        s.contains("requests per day · assumed") && s.contains("--requests-per-day")
    });
    // The measured scenario is pinned as it starts: no column of ±0, the rule of thumb instead.
    assert!(!screen.contains("±0"), "{screen}");
    assert!(screen.contains("thumb"), "{screen}");
    tmux.keys(&["Down"]);
    let screen = tmux.wait_for("the timeout rate's kind", |s| {
        s.contains("timeout rate · assumed")
    });
    for words in [
        "│assumed: the scenario's, the│",
        "│log has too few; the log    │",
        "│allows 5.7% to 31.5%;       │",
        "│--timeout-rate settles it.  │",
    ] {
        assert!(screen.contains(words), "{words} not in\n{screen}");
    }
    tmux.keys(&["q"]);
}
