//! The terminal side: set up, loop on events, and always restore.

use std::io::{self, IsTerminal};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::layout::Rect;

use crate::error::{Error, Result};

use super::app::{Action, App, Effect};
use super::endpoints::LiveUpdate;
use super::ui;

/// Runs the explorer until the user quits. Raw mode and the alternate screen are left on
/// every way out: a quit, an error, or a panic (ratatui's hook, and ours for the mouse).
pub fn run(app: App, mouse: bool) -> Result<()> {
    run_live(app, mouse, None)
}

/// [`run`], with `--follow`'s measurements arriving on `updates`.
pub fn run_live(mut app: App, mouse: bool, updates: Option<Receiver<LiveUpdate>>) -> Result<()> {
    // Stdin may be a pipe (`--scenario -`): crossterm then reads keys from /dev/tty.
    if !io::stdout().is_terminal() {
        return Err(Error::Failure(
            "dupcost tui needs an interactive terminal; use `dupcost estimate` in scripts".into(),
        ));
    }
    let mut terminal = ratatui::try_init().map_err(|e| {
        ratatui::restore();
        Error::Failure(format!("could not set up the terminal: {e}"))
    })?;
    let _restore = Restore { mouse };
    if mouse {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(io::stdout(), DisableMouseCapture);
            previous(info);
        }));
        execute!(io::stdout(), EnableMouseCapture)?;
    }
    event_loop(&mut terminal, &mut app, updates.as_ref())?;
    Ok(())
}

/// Leaves raw mode, the alternate screen and mouse capture when dropped.
struct Restore {
    mouse: bool,
}

impl Drop for Restore {
    fn drop(&mut self) {
        if self.mouse {
            let _ = execute!(io::stdout(), DisableMouseCapture);
        }
        ratatui::restore();
    }
}

/// How often a following explorer looks for a new measurement while no key comes.
const LIVE_POLL: Duration = Duration::from_millis(250);

fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    updates: Option<&Receiver<LiveUpdate>>,
) -> io::Result<()> {
    terminal.draw(|frame| frame.render_widget(&*app, frame.area()))?;
    loop {
        // Following logs: wait for a key at most LIVE_POLL, then take the latest measurement
        // (the follower sends one only when rows arrived), and redraw only if it changed.
        if let Some(updates) = updates
            && !event::poll(LIVE_POLL)?
        {
            if let Some(update) = updates.try_iter().last()
                && app.follow_update(update) == Effect::Redraw
            {
                terminal.draw(|frame| frame.render_widget(&*app, frame.area()))?;
            }
            continue;
        }
        // Blocks until something happens: no CPU while idle.
        let action = match event::read()? {
            Event::Key(key) if key.kind == KeyEventKind::Press => app.key_action(key),
            Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                let size = terminal.size()?;
                let area = Rect::new(0, 0, size.width, size.height);
                ui::input_at(app, area, mouse.column, mouse.row).map(Action::Select)
            }
            Event::Resize(..) => {
                terminal.autoresize()?;
                terminal.draw(|frame| frame.render_widget(&*app, frame.area()))?;
                continue;
            }
            _ => None,
        };
        let Some(action) = action else { continue };
        match dispatch(app, action) {
            Flow::Quit => return Ok(()),
            Flow::Redraw => {
                terminal.draw(|frame| frame.render_widget(&*app, frame.area()))?;
            }
            Flow::Idle => {}
        }
    }
}

/// What the loop does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Idle,
    Redraw,
    Quit,
}

/// Applies an action and carries out its effect (writing the scenario file for `s`).
pub fn dispatch(app: &mut App, action: Action) -> Flow {
    match app.update(action) {
        Effect::None => Flow::Idle,
        Effect::Redraw => Flow::Redraw,
        Effect::Quit => Flow::Quit,
        Effect::Save { path, contents } => {
            let result = std::fs::write(&path, contents).map_err(|e| e.to_string());
            app.update(Action::Saved(result));
            Flow::Redraw
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;
    use crate::report::Style;

    #[test]
    fn dispatch_saves_the_file_and_reports_failures() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scenario.json");
        let mut app = App::new(Scenario::default(), path.clone(), Style::default());
        app.update(Action::StepUp);
        assert_eq!(dispatch(&mut app, Action::Save), Flow::Redraw);
        let saved = std::fs::read_to_string(&path).unwrap();
        assert_eq!(saved, crate::inputs::to_scenario_json(app.scenario()));
        assert!(!app.message().unwrap().is_error);

        // A directory in the way: the error is shown, nothing panics, the app goes on.
        let mut app = App::new(Scenario::default(), dir.path().into(), Style::default());
        assert_eq!(dispatch(&mut app, Action::Save), Flow::Redraw);
        let message = app.message().unwrap();
        assert!(message.is_error && message.text.starts_with("Could not save"));
        // The next key clears the note (a redraw); a key that changes nothing then does not.
        assert_eq!(dispatch(&mut app, Action::SelectPrevious), Flow::Redraw);
        assert_eq!(dispatch(&mut app, Action::SelectPrevious), Flow::Idle);
        assert_eq!(dispatch(&mut app, Action::Quit), Flow::Quit);
    }
}
