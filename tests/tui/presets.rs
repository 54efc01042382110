//! The explorer's preset picker (`o`) and the preset a scenario started from (issue 28),
//! rendered into ratatui's `TestBackend` and pinned with insta.

use std::path::PathBuf;

use crate::common::screen;
use dupcost::inputs::Input;
use dupcost::model::Scenario;
use dupcost::presets::{self, PRESETS};
use dupcost::report::Style;
use dupcost::tui::{Action, App};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn app() -> App {
    App::new(
        Scenario::default(),
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
}

/// Presses a key the way the event loop does: key -> action -> update.
fn press(app: &mut App, code: KeyCode) {
    if let Some(action) = app.key_action(KeyEvent::new(code, KeyModifiers::NONE)) {
        app.update(action);
    }
}

fn text(app: &App, width: u16, height: u16) -> String {
    screen(app, width, height).backend().to_string()
}

/// Started with `--preset svix-webhooks`: the title names it, and the backoff rows show the
/// published delays in place of the backoff they replace.
#[test]
fn the_scenario_shows_the_preset_it_started_from() {
    let preset = presets::find("svix-webhooks").unwrap();
    let mut scenario = Scenario::default();
    preset.patch().apply(&mut scenario);
    let app = App::new(
        scenario,
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_preset(preset.name);
    let terminal = screen(&app, 120, 40);
    let shown = terminal.backend().to_string();
    assert!(shown.contains("preset svix-webhooks"), "{shown}");
    assert!(shown.contains("5s, 5m, 30m"), "{shown}");
    assert!(shown.contains("(schedule)"), "{shown}");
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn o_opens_the_picker_and_enter_applies_a_preset() {
    let mut app = app();
    press(&mut app, KeyCode::Char('o'));
    assert_eq!(app.picker(), Some(0));
    let terminal = screen(&app, 120, 40);
    let shown = terminal.backend().to_string();
    assert!(shown.contains("Presets"), "{shown}");
    assert!(shown.contains("svix-webhooks"), "{shown}");
    assert!(
        shown.contains("https://docs.stripe.com/idempotency"),
        "{shown}"
    );
    insta::assert_snapshot!(terminal.backend());

    // Down to svix-webhooks, and apply it over the current inputs.
    let svix = PRESETS
        .iter()
        .position(|p| p.name == "svix-webhooks")
        .unwrap();
    for _ in 0..svix {
        press(&mut app, KeyCode::Down);
    }
    assert_eq!(app.picker(), Some(svix));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.picker(), None);
    assert_eq!(app.preset(), Some("svix-webhooks"));
    let s = app.scenario();
    assert_eq!(s.retries, 7);
    assert_eq!(s.attempt_timeout_seconds, 15.0);
    assert_eq!(app.estimate().retry_horizon_seconds, 99_425.0);
    assert_eq!(
        s.order_value, 40.0,
        "the inputs a preset does not give stay"
    );
    let note = app.message().unwrap().text.clone();
    assert!(note.contains("Preset svix-webhooks"), "{note}");
    assert!(note.contains("dupcost presets"), "{note}");
    assert!(text(&app, 120, 40).contains("preset svix-webhooks"));

    // Stepping the backoff by hand describes the schedule again: the delays go.
    app.update(Action::Select(Input::Backoff));
    app.update(Action::StepUp);
    assert_eq!(app.scenario().schedule_seconds, None);
    assert_eq!(app.scenario().retries, 7, "the retries stay");

    // r goes back to the starting scenario and its (absent) preset.
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.preset(), None);
    assert_eq!(app.scenario(), &Scenario::default());
}

#[test]
fn the_picker_stops_at_its_ends_and_esc_closes_it() {
    let mut app = app();
    press(&mut app, KeyCode::Char('o'));
    press(&mut app, KeyCode::Up);
    assert_eq!(app.picker(), Some(0));
    for _ in 0..PRESETS.len() + 3 {
        press(&mut app, KeyCode::Char('j'));
    }
    assert_eq!(app.picker(), Some(PRESETS.len() - 1));
    // On a short terminal the list scrolls: the last preset, under the cursor, is in view.
    let last = PRESETS[PRESETS.len() - 1].name;
    let small = text(&app, 80, 24);
    assert!(small.contains(&format!("▸ {last}")), "{small}");
    assert!(small.contains("Enter applies it"), "{small}");
    assert!(!small.contains("▸ stripe "), "{small}");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.picker(), None);
    assert_eq!(
        app.scenario(),
        &Scenario::default(),
        "closing applies nothing"
    );
    // The picker opens on the preset in use.
    let mut started = app.with_preset("adyen");
    press(&mut started, KeyCode::Char('o'));
    let adyen = PRESETS.iter().position(|p| p.name == "adyen").unwrap();
    assert_eq!(started.picker(), Some(adyen));
    // Small terminals draw it without panicking.
    for (w, h) in [(64, 22), (80, 24), (200, 60)] {
        let _ = text(&started, w, h);
    }
}
