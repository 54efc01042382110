//! A private tmux server (its own socket) running one shell script in a terminal, for the
//! tests that meet the real binary as a person does (`tests/tui/terminal.rs`,
//! `tests/probe.rs`).
//!
//! Every screen a test reads comes from [`Tmux::wait_for`]: it polls `capture-pane` until the
//! expected text is there AND two captures in a row are equal, so a screen caught mid-draw
//! (which under a load average of 10+ happened) is never asserted on. Its one timeout is
//! [`DEADLINE`], generous so that only a screen that never comes fails; no test sleeps a fixed
//! time to let the terminal catch up.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a wait lasts before it fails: the only timeout of the terminal tests. Unoptimised
/// binaries on a shared 2-core machine under a load of 10+ are slow, and a screen that is
/// right comes as soon as it is drawn, so this costs time only when a test fails.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The pause between two captures.
const POLL: Duration = Duration::from_millis(50);

/// A private tmux server with one session, killed when dropped.
pub struct Tmux {
    socket: String,
    session: &'static str,
    join_wrapped: bool,
}

impl Tmux {
    /// Whether tmux is here to run `test` in a terminal; without it the test is skipped
    /// locally and fails in CI ([`super::needs`]).
    pub fn present(test: &str) -> bool {
        let available = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        let missing = if available {
            vec![]
        } else {
            vec!["tmux".to_string()]
        };
        super::needs(test, &missing, "apt-get install tmux")
    }

    /// Starts `sh SCRIPT` in a `width` x `height` terminal, in a session named `session`.
    pub fn start(session: &'static str, script: &Path, width: u16, height: u16) -> Tmux {
        static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmux = Tmux {
            socket: format!("dupcost-test-{session}-{}-{n}", std::process::id()),
            session,
            join_wrapped: false,
        };
        let command = format!("sh {}", script.display());
        let (w, h) = (width.to_string(), height.to_string());
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            &w,
            "-y",
            &h,
            &command,
        ]);
        tmux
    }

    /// Captures join the lines the terminal wrapped (`capture-pane -J`): for plain text
    /// output, whose long lines wrap, rather than a full-screen UI.
    pub fn joining_wrapped_lines(mut self) -> Tmux {
        self.join_wrapped = true;
        self
    }

    /// Runs `tmux ARGS` on this server, expecting success; returns its stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The screen once, or with `history` the scrollback above it too.
    fn capture(&self, history: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-t", self.session];
        if self.join_wrapped {
            args.push("-J");
        }
        if history {
            args.extend(["-S", "-"]);
        }
        self.run(&args)
    }

    /// Waits for a screen that satisfies `ok` and is drawn whole (the same in two captures
    /// in a row); returns it. Fails after [`DEADLINE`], showing the last screen.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.wait_stable(what, false, ok)
    }

    /// [`Tmux::wait_for`] over the scrollback and the screen: for what scrolled off the top.
    pub fn wait_for_history(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.wait_stable(what, true, ok)
    }

    fn wait_stable(&self, what: &str, history: bool, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let mut last: Option<String> = None;
        loop {
            let screen = self.capture(history);
            if ok(&screen) && last.as_deref() == Some(screen.as_str()) {
                return screen;
            }
            if start.elapsed() > DEADLINE {
                panic!(
                    "waited {DEADLINE:?} for {what} on a screen drawn whole; the last screen:\n{screen}"
                );
            }
            last = Some(screen);
            std::thread::sleep(POLL);
        }
    }

    /// A tmux format (`#{alternate_on}`, `#{pane_pid}`) of the session's pane.
    pub fn display(&self, format: &str) -> String {
        self.run(&["display-message", "-p", "-t", self.session, format])
            .trim()
            .to_string()
    }

    /// Sends keys by their tmux names (`Enter`, `C-c`, `Down`, or a letter).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.session];
        args.extend(keys);
        self.run(&args);
    }

    /// Types `text` as it is.
    pub fn literal(&self, text: &str) {
        self.run(&["send-keys", "-t", self.session, "-l", text]);
    }

    /// Resizes the terminal.
    pub fn resize(&self, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        self.run(&["resize-window", "-t", self.session, "-x", &w, "-y", &h]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}
