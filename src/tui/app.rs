//! The explorer's state, the actions that change it, and the keys that name them.
//!
//! No I/O and no drawing: [`App::update`] returns an [`Effect`] (save a file, quit) for the
//! event loop to carry out, and `ui` only reads the state.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::inputs::{self, Input};
use crate::model::{Estimate, Scenario};
use crate::report::Style;

use super::endpoints::{EndpointAction, Live, LiveUpdate, LogView, PanelChange};
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
    /// Leave (`q`, `Ctrl-C`).
    Quit,
    /// `Esc` with nothing to leave: a note that `q` quits, not the end of the session.
    EscapeAtTop,
    /// With `--logs`: move in the endpoint list, explore an endpoint, or go back to the whole.
    Endpoints(EndpointAction),
    /// Open the preset picker (`o`), or close it (`o`, `Esc`).
    TogglePresets,
    /// Move the picker's cursor up (`Up`, `k`) or down (`Down`, `j`).
    PresetBy(isize),
    /// Apply the preset under the picker's cursor (`Enter`).
    ApplyPreset,
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

/// The keys, as the help overlay and docs/TUI.md list them.
pub const KEYS: [(&str, &str); 13] = [
    ("Up Down  k j", "select an input"),
    ("Left Right  h l  - +", "step the input down / up"),
    ("Enter", "type a value: 0.35%, $12.50, 36h, 2KiB ..."),
    ("  Enter  Esc", "  apply / cancel the typed value"),
    ("  Ctrl-U", "  clear the typed text"),
    ("p", "pin the scenario as a baseline / unpin it"),
    ("s", "save the scenario as JSON (--scenario format)"),
    ("r", "reset to the starting scenario"),
    ("o", "pick a provider's preset (dupcost presets)"),
    ("c", "next chart (when not all of them fit)"),
    ("?", "show / hide this help"),
    (
        "q  Ctrl-C",
        "quit (Esc only backs out of an edit or the help)",
    ),
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
                    // Refunds only: the key store's figures are not drawn here.
                    let point = Scenario { timeout_rate, ..*s };
                    (timeout_rate, Estimate::refunds_per_month(&point))
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
    /// Whether the text is still the current value as the editor opened on it: the first
    /// character typed replaces it (Backspace edits it instead).
    pub fresh: bool,
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
    logs: Option<LogView>,
    /// The preset the scenario started from (`--preset`) or was last given (`o`).
    preset: Option<&'static str>,
    /// The preset of the starting scenario, which `r` goes back to.
    start_preset: Option<&'static str>,
    /// The preset picker's cursor, while it is open.
    picker: Option<usize>,
    /// `--logs FILE --follow`: the follower's latest state.
    live: Option<Live>,
    /// Without logs, where each starting input came from (flag, scenario file, preset,
    /// default): its kind.
    sources: Option<inputs::Sources>,
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
            logs: None,
            preset: None,
            start_preset: None,
            picker: None,
            live: None,
            sources: None,
        }
    }

    /// Marks each starting input given or assumed by where it came from (no logs).
    pub fn with_sources(mut self, sources: inputs::Sources) -> Self {
        self.sources = Some(sources);
        self
    }

    /// The kind of `input` and its words, as the reports say them: set here (its value no
    /// longer the starting one), else the logs' kind, else its source's; `None` when the
    /// explorer was not told where its inputs came from.
    pub fn kind(&self, input: Input) -> Option<(crate::findings::Kind, String)> {
        use crate::report::words;
        if input.get(self.scenario()) != input.get(&self.start) {
            return Some((
                crate::findings::Kind::Given,
                words::KIND_SET_HERE.to_string(),
            ));
        }
        if let Some(view) = &self.logs {
            return view
                .kinds
                .iter()
                .find(|(i, ..)| *i == input)
                .map(|(_, k, text)| (*k, text.clone()));
        }
        let sources = self.sources?;
        // A published schedule stands in for the backoff inputs: their rows say its kind.
        let schedule = self.scenario().schedule_seconds;
        if crate::findings::kinds::replaced_by(input, self.scenario()).is_some() {
            let k = crate::findings::kinds::of_schedule(&sources, true)?;
            return Some(if schedule == self.start.schedule_seconds {
                (k.kind, words::schedule_kind_text(&k, self.start_preset))
            } else {
                (
                    crate::findings::Kind::Given,
                    words::KIND_SET_HERE.to_string(),
                )
            });
        }
        let k = crate::findings::kinds::of_sources(input, &sources, self.scenario());
        let text = words::kind_text(input, &k, self.start_preset);
        Some((k.kind, text))
    }

    /// Names the preset the starting scenario came from (`--preset`).
    pub fn with_preset(mut self, name: &'static str) -> Self {
        self.preset = Some(name);
        self.start_preset = Some(name);
        self
    }

    /// The preset the scenario started from or was last given, if any.
    pub fn preset(&self) -> Option<&'static str> {
        self.preset
    }

    /// The preset picker's cursor (an index of `crate::presets::PRESETS`), while it is open.
    pub fn picker(&self) -> Option<usize> {
        self.picker
    }

    /// An explorer on what the logs measured: the whole log's scenario, pinned as the baseline.
    pub fn with_logs(mut self, view: LogView) -> Self {
        self.restart(view.whole);
        self.logs = Some(view);
        self
    }

    /// What the logs measured, with `--logs`.
    pub fn logs(&self) -> Option<&LogView> {
        self.logs.as_ref()
    }

    /// With `--follow`: how the followed logs are being read.
    pub fn live(&self) -> Option<&Live> {
        self.live.as_ref()
    }

    /// With `--follow`: a fresh measurement of the logs. The measured inputs take their new
    /// values, except those the user changed from what was measured before, which stay as
    /// the user left them (overrides); the baseline, when pinned, and `r` follow the
    /// measurement. While an endpoint is explored only the panel changes. Redraws only when
    /// something shown changed.
    pub fn follow_update(&mut self, update: LiveUpdate) -> Effect {
        let LiveUpdate { derived, live } = update;
        let mut changed = self.live.as_ref() != Some(&live);
        if let Some(derived) = derived.as_ref() {
            let mut view = LogView::new(derived, live.source.clone());
            let before = self.logs.as_ref().map_or(self.start, |v| v.whole);
            if let Some(old) = &self.logs {
                view.cursor = old.cursor.min(view.endpoints.len().saturating_sub(1));
                view.focused = old.focused;
                view.exploring = old.exploring.filter(|&i| i < view.endpoints.len());
            }
            if view.exploring.is_none() {
                let current = *self.scenario();
                let mut next = view.whole;
                for input in Input::ALL {
                    if input.get(&current) != input.get(&before) {
                        input.set(&mut next, input.get(&current));
                    }
                }
                if next.validate().is_err() {
                    next = view.whole;
                }
                self.start = view.whole;
                if self.logs.is_none() {
                    // The first measurement: pinned as the baseline, as `--logs` pins it.
                    self.restart(view.whole);
                    changed = true;
                } else if self.baseline.is_some_and(|b| b.inputs == before) {
                    self.baseline = Some(Estimate::new(view.whole));
                    self.charts = ChartData::new(&next, self.baseline_scenario());
                }
                changed |= self.set_scenario(next);
            }
            changed |= self.logs.as_ref() != Some(&view);
            self.logs = Some(view);
        }
        self.live = Some(live);
        redraw_if(changed)
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
        if self.picker.is_some() {
            return match key.code {
                KeyCode::Up | KeyCode::Char('k') => Some(Action::PresetBy(-1)),
                KeyCode::Down | KeyCode::Char('j') => Some(Action::PresetBy(1)),
                KeyCode::Enter => Some(Action::ApplyPreset),
                KeyCode::Esc | KeyCode::Char('o') => Some(Action::TogglePresets),
                KeyCode::Char('q') => Some(Action::Quit),
                _ => None,
            };
        }
        if let Some(action) = self.logs.as_ref().and_then(|view| view.key_action(key)) {
            return Some(Action::Endpoints(action));
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
            KeyCode::Char('o') => Action::TogglePresets,
            KeyCode::Char('?') => Action::ToggleHelp,
            KeyCode::Char('q') => Action::Quit,
            // Esc leaves an edit or an overlay, never the program: a newcomer presses it to
            // back out of something, and losing the session to it is a trap.
            KeyCode::Esc => Action::EscapeAtTop,
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
                    fresh: true,
                });
                Effect::Redraw
            }
            Action::Type(c) => {
                // The first character typed replaces the value shown (`0.5%`, not `0.2%0.5%`).
                if let Some(editor) = self.editor.as_mut().filter(|e| e.fresh) {
                    editor.text.clear();
                }
                self.edit(|text| {
                    if text.chars().count() < MAX_EDIT_CHARS {
                        text.push(c);
                    }
                })
            }
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
                self.preset = self.start_preset;
                let changed = self.set_scenario(self.start);
                if changed {
                    self.note("Back to the starting scenario");
                }
                redraw_if(changed)
            }
            Action::Quit => Effect::Quit,
            Action::EscapeAtTop => {
                self.note("Esc leaves an edit, the help or the picker; q quits");
                Effect::Redraw
            }
            Action::TogglePresets => {
                self.picker = match self.picker {
                    Some(_) => None,
                    None => Some(
                        self.preset
                            .and_then(|name| {
                                crate::presets::PRESETS.iter().position(|p| p.name == name)
                            })
                            .unwrap_or(0),
                    ),
                };
                Effect::Redraw
            }
            Action::PresetBy(delta) => match self.picker {
                Some(at) => {
                    let last = crate::presets::PRESETS.len() - 1;
                    let next = at.saturating_add_signed(delta).min(last);
                    self.picker = Some(next);
                    redraw_if(next != at)
                }
                None => Effect::None,
            },
            Action::ApplyPreset => {
                let Some(at) = self.picker.take() else {
                    return Effect::None;
                };
                let preset = &crate::presets::PRESETS[at];
                let mut scenario = *self.scenario();
                preset.patch().apply(&mut scenario);
                if let Err(e) = scenario.validate() {
                    self.message = Some(Message {
                        text: format!(
                            "--preset {}: {}",
                            preset.name,
                            inputs::describe_input_error(&e)
                        ),
                        is_error: true,
                    });
                    return Effect::Redraw;
                }
                self.set_scenario(scenario);
                self.preset = Some(preset.name);
                self.note(&format!(
                    "Preset {}: {} (its sources: dupcost presets)",
                    preset.name,
                    preset_summary(preset)
                ));
                Effect::Redraw
            }
            Action::Endpoints(action) => {
                let current = *self.scenario();
                match self.logs.as_mut().map(|view| view.update(action, &current)) {
                    None | Some(PanelChange::None) => Effect::None,
                    Some(PanelChange::Redraw) => Effect::Redraw,
                    Some(PanelChange::StartOver(scenario)) => {
                        self.restart(*scenario);
                        Effect::Redraw
                    }
                }
            }
        }
    }

    /// Starts over on `scenario`: it becomes the start `r` returns to and the pinned baseline.
    fn restart(&mut self, scenario: Scenario) {
        self.start = scenario;
        self.baseline = Some(Estimate::new(scenario));
        self.estimate = Estimate::new(scenario);
        self.charts = ChartData::new(&scenario, self.baseline_scenario());
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
            let shown = crate::report::words::input_value(input, value, &self.style().currency);
            self.note(&format!(
                "{} is at its {end} step ({shown}); Enter types any value",
                input.label()
            ));
            return Effect::Redraw;
        }
        let mut scenario = *self.scenario();
        input.set(&mut scenario, next);
        drop_schedule_for(input, &mut scenario);
        self.set_scenario(scenario);
        Effect::Redraw
    }

    fn edit(&mut self, change: impl FnOnce(&mut String)) -> Effect {
        match &mut self.editor {
            Some(editor) => {
                change(&mut editor.text);
                editor.error = None;
                editor.fresh = false;
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
            drop_schedule_for(input, &mut scenario);
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

/// A backoff input set by hand describes the schedule: a published list of delays no longer
/// applies (as a backoff flag over a preset's schedule).
fn drop_schedule_for(input: Input, scenario: &mut Scenario) {
    if matches!(
        input,
        Input::Backoff | Input::BackoffFactor | Input::BackoffMax
    ) {
        scenario.schedule_seconds = None;
    }
}

/// What a preset sets, in short: `attempt timeout 15s, retry delays 5s, 5m, ...`.
pub fn preset_summary(preset: &crate::presets::Preset) -> String {
    let parts: Vec<String> = preset
        .values
        .iter()
        .filter_map(|v| match v.target {
            crate::presets::Target::Input(input) => Some(format!("{} {}", input.label(), v.value)),
            crate::presets::Target::Schedule => Some(format!("retry delays {}", v.value)),
            crate::presets::Target::Note(_) => None,
        })
        .collect();
    if parts.is_empty() {
        match preset.retry_span() {
            Some(span) => format!("no input (only a documented retry span, {})", span.value),
            None => "no input".to_string(),
        }
    } else {
        parts.join(", ")
    }
}

fn redraw_if(changed: bool) -> Effect {
    if changed {
        Effect::Redraw
    } else {
        Effect::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn app() -> App {
        App::new(
            Scenario::default(),
            PathBuf::from("out.json"),
            Style::default(),
        )
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    /// Presses a key the way the event loop does: key -> action -> update.
    fn press(app: &mut App, key: KeyEvent) -> Effect {
        match app.key_action(key) {
            Some(action) => app.update(action),
            None => Effect::None,
        }
    }

    fn press_code(app: &mut App, code: KeyCode) -> Effect {
        press(app, key(code))
    }

    fn type_text(app: &mut App, text: &str) {
        for c in text.chars() {
            press_code(app, KeyCode::Char(c));
        }
    }

    /// The estimate always matches the scenario: the model ran after every change.
    fn assert_consistent(app: &App) {
        assert_eq!(*app.estimate(), Estimate::new(*app.scenario()));
        assert_eq!(
            app.charts,
            ChartData::new(app.scenario(), app.baseline().map(|b| &b.inputs))
        );
    }

    #[test]
    fn up_down_k_j_select_and_stop_at_the_ends() {
        let mut app = app();
        assert_eq!(app.selected(), Input::RequestsPerDay);
        assert_eq!(press_code(&mut app, KeyCode::Up), Effect::None);
        assert_eq!(press_code(&mut app, KeyCode::Char('k')), Effect::None);
        assert_eq!(app.selected(), Input::RequestsPerDay);
        for (i, code) in [KeyCode::Down, KeyCode::Char('j')]
            .into_iter()
            .cycle()
            .take(Input::ALL.len() - 1)
            .enumerate()
        {
            assert_eq!(press_code(&mut app, code), Effect::Redraw);
            assert_eq!(app.selected(), Input::ALL[i + 1]);
        }
        assert_eq!(press_code(&mut app, KeyCode::Down), Effect::None);
        assert_eq!(app.selected(), Input::Store);
        press_code(&mut app, KeyCode::Up);
        press_code(&mut app, KeyCode::Char('k'));
        assert_eq!(app.selected(), Input::KeyBytes);
        assert_eq!(
            *app.scenario(),
            Scenario::default(),
            "selection changes no input"
        );
    }

    #[test]
    fn every_step_key_steps_the_selected_input() {
        let ups = [
            KeyCode::Right,
            KeyCode::Char('l'),
            KeyCode::Char('+'),
            KeyCode::Char('='),
        ];
        let downs = [KeyCode::Left, KeyCode::Char('h'), KeyCode::Char('-')];
        for code in ups {
            let mut app = app();
            assert_eq!(press_code(&mut app, code), Effect::Redraw);
            assert_eq!(app.scenario().requests_per_day, 50_000.0, "{code:?}");
            assert_consistent(&app);
        }
        for code in downs {
            let mut app = app();
            press_code(&mut app, code);
            assert_eq!(app.scenario().requests_per_day, 10_000.0, "{code:?}");
            assert_consistent(&app);
        }
    }

    #[test]
    fn steps_change_the_figures() {
        let mut app = app();
        press_code(&mut app, KeyCode::Down); // timeout rate
        press_code(&mut app, KeyCode::Right);
        assert_eq!(app.scenario().timeout_rate, 0.003);
        assert!(app.estimate().refund_cost.per_month > 30_000.0);
        press_code(&mut app, KeyCode::Left);
        press_code(&mut app, KeyCode::Left);
        assert_eq!(app.scenario().timeout_rate, 0.001);
        assert_consistent(&app);
    }

    #[test]
    fn steps_stop_at_the_ends_of_every_input() {
        for (index, input) in Input::ALL.into_iter().enumerate() {
            let mut app = app();
            for _ in 0..index {
                press_code(&mut app, KeyCode::Down);
            }
            assert_eq!(app.selected(), input);
            for (code, end) in [(KeyCode::Left, "lowest"), (KeyCode::Right, "highest")] {
                for _ in 0..400 {
                    press_code(&mut app, code);
                }
                let at_end = *app.scenario();
                assert!(at_end.validate().is_ok(), "{input} left its range");
                assert_eq!(press_code(&mut app, code), Effect::Redraw);
                assert_eq!(*app.scenario(), at_end, "{input} moved past its {end}");
                let message = app.message().expect("a note at the end");
                assert!(message.text.contains(end), "{}", message.text);
                assert_consistent(&app);
            }
        }
    }

    #[test]
    fn retries_step_by_one_up_to_100() {
        let mut app = app();
        for _ in 0..4 {
            press_code(&mut app, KeyCode::Down);
        }
        press_code(&mut app, KeyCode::Right);
        assert_eq!(app.scenario().retries, 4);
        for _ in 0..150 {
            press_code(&mut app, KeyCode::Right);
        }
        assert_eq!(app.scenario().retries, 100);
        for _ in 0..150 {
            press_code(&mut app, KeyCode::Left);
        }
        assert_eq!(app.scenario().retries, 0);
        assert_eq!(app.estimate().duplicates.per_day, 0.0);
    }

    #[test]
    fn enter_edits_a_valid_value_in_the_flag_forms() {
        let cases = [
            (0, "1.5M", 1.5e6),
            (1, "0.35%", 0.0035),
            (2, "0.9", 0.9),
            (3, "$12.50", 12.5),
            (4, "0", 0.0),
            (5, "36h", 129_600.0),
            (6, "2KiB", 2048.0),
            (7, "30.44", 30.44),
        ];
        for (index, text, value) in cases {
            let mut app = app();
            for _ in 0..index {
                press_code(&mut app, KeyCode::Down);
            }
            let input = app.selected();
            assert_eq!(press_code(&mut app, KeyCode::Enter), Effect::Redraw);
            let shown = input.display(input.get(&Scenario::default()));
            assert_eq!(app.editor().unwrap().text, shown, "prefilled");
            press(&mut app, ctrl('u'));
            assert_eq!(app.editor().unwrap().text, "");
            type_text(&mut app, text);
            assert_eq!(app.editor().unwrap().text, text);
            assert_eq!(press_code(&mut app, KeyCode::Enter), Effect::Redraw);
            assert!(app.editor().is_none(), "{input}: {text}");
            let got = input.get(app.scenario());
            assert_eq!(got, input.parse(text).unwrap(), "{input}: {text}");
            assert!(
                (got - value).abs() <= 1e-12 * value,
                "{input}: {text} -> {got}"
            );
            assert_consistent(&app);
        }
    }

    #[test]
    fn invalid_text_shows_the_error_and_keeps_the_old_value() {
        let cases = [
            (1, "2", "did you mean 2%"),
            (1, "abc", "not a rate"),
            (4, "101", "retries go from 0 to 100"),
            (5, "0", "--ttl: must be > 0"),
            (6, "1XB", "not a size"),
            (7, "0", "--days-per-month"),
            (0, "-5", "negative"),
        ];
        for (index, text, needle) in cases {
            let mut app = app();
            for _ in 0..index {
                press_code(&mut app, KeyCode::Down);
            }
            press_code(&mut app, KeyCode::Enter);
            press(&mut app, ctrl('u'));
            type_text(&mut app, text);
            press_code(&mut app, KeyCode::Enter);
            let editor = app.editor().expect("still editing");
            let error = editor.error.as_deref().expect("an error");
            assert!(error.contains(needle), "{text}: {error}");
            assert_eq!(*app.scenario(), Scenario::default());
            // Typing again clears the error; Esc leaves with the old value.
            press_code(&mut app, KeyCode::Backspace);
            assert_eq!(app.editor().unwrap().error, None);
            assert_eq!(press_code(&mut app, KeyCode::Esc), Effect::Redraw);
            assert!(app.editor().is_none());
            assert_eq!(*app.scenario(), Scenario::default());
        }
    }

    #[test]
    fn esc_cancels_an_edit_without_quitting() {
        let mut app = app();
        press_code(&mut app, KeyCode::Enter);
        type_text(&mut app, "999");
        assert_eq!(press_code(&mut app, KeyCode::Esc), Effect::Redraw);
        assert!(app.editor().is_none());
        assert_eq!(*app.scenario(), Scenario::default());
        // At the top level Esc says how to quit; it never quits.
        assert_eq!(press_code(&mut app, KeyCode::Esc), Effect::Redraw);
        assert!(app.message().is_some_and(|m| m.text.contains("q quits")));
        assert_eq!(press_code(&mut app, KeyCode::Char('q')), Effect::Quit);
    }

    /// The first key typed replaces the value the editor opened on; Backspace edits it.
    #[test]
    fn typing_replaces_the_value_and_backspace_edits_it() {
        let mut app = app();
        press_code(&mut app, KeyCode::Down); // timeout rate, 0.2%
        press_code(&mut app, KeyCode::Enter);
        assert_eq!(app.editor().unwrap().text, "0.2%");
        type_text(&mut app, "0.5%");
        assert_eq!(app.editor().unwrap().text, "0.5%");
        press_code(&mut app, KeyCode::Enter);
        assert_eq!(app.scenario().timeout_rate, 0.005);
        press_code(&mut app, KeyCode::Enter);
        press_code(&mut app, KeyCode::Backspace);
        type_text(&mut app, "5%");
        assert_eq!(app.editor().unwrap().text, "0.55%");
    }

    #[test]
    fn while_editing_letters_are_text_and_ctrl_c_still_quits() {
        let mut app = app();
        press_code(&mut app, KeyCode::Enter);
        press(&mut app, ctrl('u'));
        type_text(&mut app, "qpsjk?+-");
        assert_eq!(app.editor().unwrap().text, "qpsjk?+-");
        assert_eq!(app.baseline(), None);
        assert_eq!(app.selected(), Input::RequestsPerDay);
        press_code(&mut app, KeyCode::Backspace);
        assert_eq!(app.editor().unwrap().text, "qpsjk?+");
        // Arrows mean nothing while typing.
        assert_eq!(press_code(&mut app, KeyCode::Right), Effect::None);
        type_text(&mut app, &"x".repeat(100));
        assert_eq!(app.editor().unwrap().text.chars().count(), MAX_EDIT_CHARS);
        assert_eq!(press(&mut app, ctrl('c')), Effect::Quit);
    }

    #[test]
    fn p_pins_a_baseline_and_unpins_it() {
        let mut app = app();
        assert_eq!(press_code(&mut app, KeyCode::Char('p')), Effect::Redraw);
        let pinned = *app.baseline().unwrap();
        assert_eq!(pinned, Estimate::new(Scenario::default()));
        press_code(&mut app, KeyCode::Right);
        assert_eq!(*app.baseline().unwrap(), pinned, "the baseline stays put");
        assert_ne!(app.estimate(), &pinned);
        assert!(app.charts().baseline_by_timeout_rate.is_some());
        assert_consistent(&app);
        press_code(&mut app, KeyCode::Char('p'));
        assert_eq!(app.baseline(), None);
        assert!(app.charts().baseline_by_timeout_rate.is_none());
        assert_eq!(app.scenario().requests_per_day, 50_000.0);
    }

    #[test]
    fn s_saves_the_scenario_json_and_reports_back() {
        let mut app = app();
        press_code(&mut app, KeyCode::Right);
        let effect = press_code(&mut app, KeyCode::Char('s'));
        let Effect::Save { path, contents } = effect else {
            panic!("expected a save, got {effect:?}");
        };
        assert_eq!(path, PathBuf::from("out.json"));
        assert_eq!(contents, inputs::to_scenario_json(app.scenario()));
        let mut reread = Scenario::default();
        inputs::ScenarioPatch::from_json(&contents)
            .unwrap()
            .apply(&mut reread);
        assert_eq!(reread, *app.scenario());

        app.update(Action::Saved(Ok(())));
        let message = app.message().unwrap();
        assert!(!message.is_error);
        assert!(message.text.contains("out.json"), "{}", message.text);
        app.update(Action::Saved(Err("Permission denied".into())));
        let message = app.message().unwrap();
        assert!(message.is_error);
        assert!(message.text.contains("Permission denied"));
        // The note goes away at the next key.
        assert_eq!(press_code(&mut app, KeyCode::Up), Effect::Redraw);
        assert_eq!(app.message(), None);
    }

    #[test]
    fn question_mark_toggles_help_which_swallows_other_keys() {
        let mut app = app();
        assert_eq!(press_code(&mut app, KeyCode::Char('?')), Effect::Redraw);
        assert!(app.help_shown());
        assert_eq!(press_code(&mut app, KeyCode::Right), Effect::None);
        assert_eq!(press_code(&mut app, KeyCode::Char('p')), Effect::None);
        assert_eq!(*app.scenario(), Scenario::default());
        press_code(&mut app, KeyCode::Char('?'));
        assert!(!app.help_shown());
        press_code(&mut app, KeyCode::Char('?'));
        assert_eq!(
            press_code(&mut app, KeyCode::Esc),
            Effect::Redraw,
            "Esc closes help"
        );
        assert!(!app.help_shown());
        press_code(&mut app, KeyCode::Char('?'));
        assert_eq!(press_code(&mut app, KeyCode::Char('q')), Effect::Quit);
    }

    #[test]
    fn q_and_ctrl_c_quit_and_esc_does_not() {
        assert_eq!(press_code(&mut app(), KeyCode::Char('q')), Effect::Quit);
        assert_eq!(press_code(&mut app(), KeyCode::Esc), Effect::Redraw);
        assert_eq!(press(&mut app(), ctrl('c')), Effect::Quit);
    }

    #[test]
    fn c_cycles_the_charts_and_r_resets() {
        let mut app = app();
        for expected in [1, 2, 0] {
            press_code(&mut app, KeyCode::Char('c'));
            assert_eq!(app.first_chart(), expected);
        }
        assert_eq!(press_code(&mut app, KeyCode::Char('r')), Effect::None);
        press_code(&mut app, KeyCode::Right);
        assert_eq!(press_code(&mut app, KeyCode::Char('r')), Effect::Redraw);
        assert_eq!(*app.scenario(), Scenario::default());
        assert_consistent(&app);
    }

    #[test]
    fn only_presses_count_and_unknown_keys_do_nothing() {
        let app = app();
        let mut release = key(KeyCode::Char('q'));
        release.kind = KeyEventKind::Release;
        assert_eq!(app.key_action(release), None);
        let mut repeat = key(KeyCode::Right);
        repeat.kind = KeyEventKind::Repeat;
        repeat.state = KeyEventState::NONE;
        assert_eq!(app.key_action(repeat), None);
        for code in [
            KeyCode::Char('x'),
            KeyCode::Tab,
            KeyCode::F(1),
            KeyCode::Backspace,
        ] {
            assert_eq!(app.key_action(key(code)), None, "{code:?}");
        }
        assert_eq!(app.key_action(ctrl('s')), None);
    }

    #[test]
    fn a_click_selects_an_input_and_leaves_the_editor() {
        let mut app = app();
        press_code(&mut app, KeyCode::Enter);
        assert_eq!(app.update(Action::Select(Input::Ttl)), Effect::Redraw);
        assert_eq!(app.selected(), Input::Ttl);
        assert!(app.editor().is_none());
        assert_eq!(app.update(Action::Select(Input::Ttl)), Effect::None);
    }

    #[test]
    fn retry_window_holds_the_current_choice() {
        let mut app = app();
        let window = |app: &App| -> Vec<u32> {
            app.charts()
                .by_retries
                .iter()
                .map(|e| e.inputs.retries)
                .collect()
        };
        assert_eq!(window(&app), [0, 1, 2, 3, 4, 5, 6]);
        app.update(Action::Select(Input::Retries));
        app.update(Action::StartEdit);
        app.update(Action::ClearText);
        for c in "40".chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::Commit);
        assert_eq!(window(&app), [34, 35, 36, 37, 38, 39, 40]);
    }
}
