//! The explorer's state, the actions that change it, and the keys that name them.
//!
//! No I/O and no drawing: [`App::update`] returns an [`Effect`] (save a file, quit) for the
//! event loop to carry out, and `ui` only reads the state.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::inputs::{self, Input};
use crate::model::{Estimate, Scenario};
use crate::report::Style;

use super::steps::{self, Direction};

/// How many retry counts the retry charts show: 0 to 6, or a window ending at the choice.
pub const RETRY_WINDOW: u32 = 7;
/// Points on the refunds-against-timeout-rate curve.
pub const TIMEOUT_POINTS: usize = 81;
/// The longest text the editor takes.
const MAX_EDIT_CHARS: usize = 40;

/// Everything a key or a click can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Select the input above (`Up`, `k`).
    SelectPrevious,
    /// Select the input below (`Down`, `j`).
    SelectNext,
    /// Select this input (a mouse click).
    Select(Input),
    /// Step the selected input down (`Left`, `h`, `-`).
    StepDown,
    /// Step the selected input up (`Right`, `l`, `+`).
    StepUp,
    /// Start typing a value for the selected input (`Enter`).
    StartEdit,
    /// Type a character into the editor.
    Type(char),
    /// Delete the character before the cursor (`Backspace`).
    DeleteBack,
    /// Clear the editor (`Ctrl-U`).
    ClearText,
    /// Apply the typed value (`Enter` while typing).
    Commit,
    /// Leave the editor, keeping the old value (`Esc` while typing).
    Cancel,
    /// Pin the current scenario as the baseline, or unpin it (`p`).
    TogglePin,
    /// Save the scenario as JSON (`s`).
    Save,
    /// The event loop's report on a save.
    Saved(Result<(), String>),
    /// Show or hide the help overlay (`?`).
    ToggleHelp,
    /// Show the next chart where not all of them fit (`c`).
    NextChart,
    /// Go back to the scenario the explorer started with (`r`).
    Reset,
    /// Leave (`q`, `Esc`, `Ctrl-C`).
    Quit,
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Nothing changed: no redraw needed.
    None,
    /// The state changed: redraw.
    Redraw,
    /// Write `contents` to `path`, report back with [`Action::Saved`], and redraw.
    Save { path: PathBuf, contents: String },
    /// Restore the terminal and exit.
    Quit,
}

/// The keys, as the help overlay and the README list them.
pub const KEYS: [(&str, &str); 12] = [
    ("Up Down  k j", "select an input"),
    ("Left Right  h l  - +", "step the input down / up"),
    ("Enter", "type a value: 0.35%, $12.50, 36h, 2KiB ..."),
    ("  Enter  Esc", "  apply / cancel the typed value"),
    ("  Ctrl-U", "  clear the typed text"),
    ("p", "pin the scenario as a baseline / unpin it"),
    ("s", "save the scenario as JSON (--scenario format)"),
    ("r", "reset to the starting scenario"),
    ("c", "next chart (when not all of them fit)"),
    ("?", "show / hide this help"),
    ("q  Esc  Ctrl-C", "quit"),
    ("mouse click", "select an input"),
];

/// The charts, in the order they are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// Duplicate charges a month against retries, the current choice highlighted.
    DuplicatesByRetries,
    /// Refunds a month against the timeout rate, with a marker at the current rate.
    RefundsByTimeoutRate,
    /// Customers left without an answer a month against retries.
    UnansweredByRetries,
}

impl ChartKind {
    pub const ALL: [ChartKind; 3] = [
        ChartKind::DuplicatesByRetries,
        ChartKind::RefundsByTimeoutRate,
        ChartKind::UnansweredByRetries,
    ];
}

/// The figures behind the charts, computed with the estimate and only when an input changes.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    /// Estimates at consecutive retry counts: 0 to 6, or the 7 counts ending at the choice.
    pub by_retries: Vec<Estimate>,
    /// `(timeout rate, refunds a month)` from 0 to about twice the current rate.
    pub by_timeout_rate: Vec<(f64, f64)>,
    /// The baseline's refunds over the same timeout rates, when one is pinned.
    pub baseline_by_timeout_rate: Option<Vec<(f64, f64)>>,
}

impl ChartData {
    fn new(scenario: &Scenario, baseline: Option<&Scenario>) -> Self {
        let first = scenario.retries.saturating_sub(RETRY_WINDOW - 1);
        let by_retries = (first..first + RETRY_WINDOW)
            .map(|retries| {
                Estimate::new(Scenario {
                    retries,
                    ..*scenario
                })
            })
            .collect();
        let top = (2.0 * scenario.timeout_rate).clamp(0.002, 1.0);
        let rates: Vec<f64> = (0..TIMEOUT_POINTS)
            .map(|i| top * i as f64 / (TIMEOUT_POINTS - 1) as f64)
            .collect();
        let curve = |s: &Scenario| -> Vec<(f64, f64)> {
            rates
                .iter()
                .map(|&timeout_rate| {
                    let e = Estimate::new(Scenario { timeout_rate, ..*s });
                    (timeout_rate, e.refund_cost.per_month)
                })
                .collect()
        };
        ChartData {
            by_retries,
            by_timeout_rate: curve(scenario),
            baseline_by_timeout_rate: baseline.map(curve),
        }
    }
}

/// The text being typed for the selected input, and what was wrong with the last try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    pub text: String,
    pub error: Option<String>,
}

/// A one-line note on the status bar until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub is_error: bool,
}

/// The explorer's whole state.
#[derive(Debug, Clone)]
pub struct App {
    start: Scenario,
    estimate: Estimate,
    charts: ChartData,
    baseline: Option<Estimate>,
    selected: Input,
    editor: Option<Editor>,
    help: bool,
    first_chart: usize,
    save_path: PathBuf,
    style: Style,
    message: Option<Message>,
}

impl App {
    /// An explorer on a valid `scenario`; `s` saves to `save_path`; money and colour follow `style`.
    pub fn new(scenario: Scenario, save_path: PathBuf, style: Style) -> Self {
        App {
            start: scenario,
            estimate: Estimate::new(scenario),
            charts: ChartData::new(&scenario, None),
            baseline: None,
            selected: Input::ALL[0],
            editor: None,
            help: false,
            first_chart: 0,
            save_path,
            style,
            message: None,
        }
    }

    /// The current scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.estimate.inputs
    }

    /// The model's figures for the current scenario.
    pub fn estimate(&self) -> &Estimate {
        &self.estimate
    }

    /// The pinned baseline's figures, if one is pinned.
    pub fn baseline(&self) -> Option<&Estimate> {
        self.baseline.as_ref()
    }

    /// The data behind the charts.
    pub fn charts(&self) -> &ChartData {
        &self.charts
    }

    /// The selected input.
    pub fn selected(&self) -> Input {
        self.selected
    }

    /// The editor, while a value is being typed.
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.as_ref()
    }

    /// Whether the help overlay is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// The chart shown first where not all of them fit.
    pub fn first_chart(&self) -> usize {
        self.first_chart
    }

    /// Where `s` saves.
    pub fn save_path(&self) -> &std::path::Path {
        &self.save_path
    }

    /// Currency and colour.
    pub fn style(&self) -> &Style {
        &self.style
    }

    /// The note on the status bar, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The action a key press asks for in the current mode; `None` for keys that mean nothing.
    pub fn key_action(&self, key: KeyEvent) -> Option<Action> {
        if key.kind != KeyEventKind::Press {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        if ctrl && key.code == KeyCode::Char('c') {
            return Some(Action::Quit);
        }
        if self.editor.is_some() {
            return match key.code {
                KeyCode::Enter => Some(Action::Commit),
                KeyCode::Esc => Some(Action::Cancel),
                KeyCode::Backspace => Some(Action::DeleteBack),
                KeyCode::Char('u') if ctrl => Some(Action::ClearText),
                KeyCode::Char(c) if !ctrl && !alt => Some(Action::Type(c)),
                _ => None,
            };
        }
        if ctrl || alt {
            return None;
        }
        if self.help {
            return match key.code {
                KeyCode::Char('?') | KeyCode::Esc | KeyCode::Enter => Some(Action::ToggleHelp),
                KeyCode::Char('q') => Some(Action::Quit),
                _ => None,
            };
        }
        let action = match key.code {
            KeyCode::Up | KeyCode::Char('k') => Action::SelectPrevious,
            KeyCode::Down | KeyCode::Char('j') => Action::SelectNext,
            KeyCode::Left | KeyCode::Char('h' | '-') => Action::StepDown,
            KeyCode::Right | KeyCode::Char('l' | '+' | '=') => Action::StepUp,
            KeyCode::Enter => Action::StartEdit,
            KeyCode::Char('p') => Action::TogglePin,
            KeyCode::Char('s') => Action::Save,
            KeyCode::Char('r') => Action::Reset,
            KeyCode::Char('c') => Action::NextChart,
            KeyCode::Char('?') => Action::ToggleHelp,
            KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
            _ => return None,
        };
        Some(action)
    }

    /// Applies an action; the model runs again only when an input changed.
    pub fn update(&mut self, action: Action) -> Effect {
        let had_message = self.message.take().is_some();
        let effect = self.apply(action);
        if had_message && effect == Effect::None {
            Effect::Redraw
        } else {
            effect
        }
    }

    fn apply(&mut self, action: Action) -> Effect {
        match action {
            Action::SelectPrevious => self.select_by(-1),
            Action::SelectNext => self.select_by(1),
            Action::Select(input) => {
                let changed = input != self.selected || self.editor.is_some();
                self.selected = input;
                self.editor = None;
                redraw_if(changed)
            }
            Action::StepDown => self.step(Direction::Down),
            Action::StepUp => self.step(Direction::Up),
            Action::StartEdit => {
                let value = self.selected.get(self.scenario());
                self.editor = Some(Editor {
                    text: self.selected.display(value),
                    error: None,
                });
                Effect::Redraw
            }
            Action::Type(c) => self.edit(|text| {
                if text.chars().count() < MAX_EDIT_CHARS {
                    text.push(c);
                }
            }),
            Action::DeleteBack => self.edit(|text| {
                text.pop();
            }),
            Action::ClearText => self.edit(String::clear),
            Action::Commit => self.commit(),
            Action::Cancel => redraw_if(self.editor.take().is_some()),
            Action::TogglePin => {
                self.baseline = match self.baseline {
                    Some(_) => None,
                    None => Some(self.estimate),
                };
                self.charts = ChartData::new(self.scenario(), self.baseline_scenario());
                Effect::Redraw
            }
            Action::Save => Effect::Save {
                path: self.save_path.clone(),
                contents: inputs::to_scenario_json(self.scenario()),
            },
            Action::Saved(result) => {
                let path = self.save_path.display();
                self.message = Some(match result {
                    Ok(()) => Message {
                        text: format!("Saved to {path}: reuse it with --scenario {path}"),
                        is_error: false,
                    },
                    Err(e) => Message {
                        text: format!("Could not save to {path}: {e}"),
                        is_error: true,
                    },
                });
                Effect::Redraw
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                Effect::Redraw
            }
            Action::NextChart => {
                self.first_chart = (self.first_chart + 1) % ChartKind::ALL.len();
                Effect::Redraw
            }
            Action::Reset => {
                let changed = self.set_scenario(self.start);
                if changed {
                    self.note("Back to the starting scenario");
                }
                redraw_if(changed)
            }
            Action::Quit => Effect::Quit,
        }
    }

    fn select_by(&mut self, delta: isize) -> Effect {
        let index = Input::ALL
            .iter()
            .position(|&i| i == self.selected)
            .unwrap_or(0);
        let next = index.saturating_add_signed(delta).min(Input::ALL.len() - 1);
        self.selected = Input::ALL[next];
        redraw_if(next != index)
    }

    fn step(&mut self, direction: Direction) -> Effect {
        let input = self.selected;
        let value = input.get(self.scenario());
        let next = steps::step(input, value, direction);
        if next == value {
            let end = match direction {
                Direction::Down => "lowest",
                Direction::Up => "highest",
            };
            let shown = input.display(value);
            self.note(&format!(
                "{} is at its {end} step ({shown}); Enter types any value",
                input.label()
            ));
            return Effect::Redraw;
        }
        let mut scenario = *self.scenario();
        input.set(&mut scenario, next);
        self.set_scenario(scenario);
        Effect::Redraw
    }

    fn edit(&mut self, change: impl FnOnce(&mut String)) -> Effect {
        match &mut self.editor {
            Some(editor) => {
                change(&mut editor.text);
                editor.error = None;
                Effect::Redraw
            }
            None => Effect::None,
        }
    }

    fn commit(&mut self) -> Effect {
        let Some(editor) = &mut self.editor else {
            return Effect::None;
        };
        let input = self.selected;
        let mut scenario = self.estimate.inputs;
        let checked = input.parse(&editor.text).and_then(|value| {
            input.set(&mut scenario, value);
            scenario
                .validate()
                .map_err(|e| inputs::describe_input_error(&e))
        });
        match checked {
            Ok(()) => {
                self.editor = None;
                self.set_scenario(scenario);
            }
            Err(error) => editor.error = Some(error),
        }
        Effect::Redraw
    }

    /// Runs the model again if `scenario` differs; returns whether it did.
    fn set_scenario(&mut self, scenario: Scenario) -> bool {
        if scenario == self.estimate.inputs {
            return false;
        }
        self.estimate = Estimate::new(scenario);
        self.charts = ChartData::new(&scenario, self.baseline_scenario());
        true
    }

    fn baseline_scenario(&self) -> Option<&Scenario> {
        self.baseline.as_ref().map(|b| &b.inputs)
    }

    fn note(&mut self, text: &str) {
        self.message = Some(Message {
            text: text.to_string(),
            is_error: false,
        });
    }
}

fn redraw_if(changed: bool) -> Effect {
    if changed {
        Effect::Redraw
    } else {
        Effect::None
    }
}
