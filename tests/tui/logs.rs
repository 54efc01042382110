//! `dupcost tui --logs`'s screens on ratatui's `TestBackend`: the measured scenario pinned as
//! the baseline, the endpoint panel, an endpoint explored, and the help with the evidence.

use std::path::PathBuf;

use crate::common::screen;
use dupcost::findings::Overrides;
use dupcost::logs::{self, LogInput, LogOptions};
use dupcost::model::Scenario;
use dupcost::report::Style;
use dupcost::tui::endpoints::{EndpointAction, LogView};
use dupcost::tui::{Action, App, Effect};

fn app() -> App {
    app_of("samples/access-log.csv")
}

/// The explorer on `sample` (a path under the crate), as `tui --logs` starts it.
pub(crate) fn app_of(sample: &str) -> App {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(sample);
    let analysis = logs::analyze(&[LogInput::from(path)], &LogOptions::default()).unwrap();
    let derived = analysis
        .derive(&Scenario::default(), &Overrides::default())
        .unwrap();
    let view = LogView::new(&derived, sample.into());
    App::new(
        derived.scenario,
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_logs(view)
}

#[test]
fn starts_on_the_measured_scenario_pinned() {
    let app = app();
    assert_eq!(app.baseline().map(|b| b.inputs), Some(*app.scenario()));
    insta::assert_snapshot!("logs_120x40", screen(&app, 120, 40).backend());
    insta::assert_snapshot!("logs_80x24", screen(&app, 80, 24).backend());
}

#[test]
fn explores_an_endpoint_and_goes_back() {
    let mut app = app();
    let whole = *app.scenario();
    for action in [EndpointAction::ToggleFocus, EndpointAction::Next] {
        assert_eq!(app.update(Action::Endpoints(action)), Effect::Redraw);
    }
    assert_eq!(
        app.update(Action::Endpoints(EndpointAction::Explore)),
        Effect::Redraw
    );
    let endpoint = app.logs().unwrap().endpoints[1].clone();
    assert_eq!(app.scenario().requests_per_day, endpoint.requests_per_day);
    assert_eq!(
        app.baseline().map(|b| b.inputs),
        Some(*app.scenario()),
        "re-pinned"
    );
    // Its own estimate, which the report scaled to its part of the whole log's.
    let own = app.estimate().refund_cost.per_month;
    assert!(
        (own * endpoint.scale.unwrap() - endpoint.refund_per_month).abs()
            <= 1e-9 * endpoint.refund_per_month,
        "{own} {endpoint:?}"
    );
    insta::assert_snapshot!(
        "logs_exploring_an_endpoint",
        screen(&app, 120, 40).backend()
    );

    // r resets to the endpoint's scenario; w goes back to the whole log.
    app.update(Action::Endpoints(EndpointAction::ToggleFocus));
    app.update(Action::StepUp);
    app.update(Action::Reset);
    assert_eq!(app.scenario().requests_per_day, endpoint.requests_per_day);
    assert_eq!(
        app.update(Action::Endpoints(EndpointAction::Whole)),
        Effect::Redraw
    );
    assert_eq!(*app.scenario(), whole);
    assert_eq!(
        app.update(Action::Endpoints(EndpointAction::Whole)),
        Effect::None
    );
}

#[test]
fn keys_reach_the_endpoint_list_only_when_it_has_focus() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
    let mut app = app();
    assert_eq!(app.key_action(key(KeyCode::Down)), Some(Action::SelectNext));
    assert_eq!(app.key_action(key(KeyCode::Esc)), Some(Action::EscapeAtTop));
    let tab = app.key_action(key(KeyCode::Tab)).unwrap();
    app.update(tab);
    for (code, action) in [
        (KeyCode::Down, EndpointAction::Next),
        (KeyCode::Char('k'), EndpointAction::Previous),
        (KeyCode::Enter, EndpointAction::Explore),
        (KeyCode::Esc, EndpointAction::ToggleFocus),
        (KeyCode::Char('w'), EndpointAction::Whole),
    ] {
        assert_eq!(
            app.key_action(key(code)),
            Some(Action::Endpoints(action)),
            "{code:?}"
        );
    }
    // Without logs, Tab and w mean nothing.
    let plain = App::new(
        Scenario::default(),
        PathBuf::from("x.json"),
        Style::default(),
    );
    assert_eq!(plain.key_action(key(KeyCode::Tab)), None);
    assert_eq!(plain.key_action(key(KeyCode::Char('w'))), None);
}

#[test]
fn help_lists_the_evidence() {
    let mut app = app();
    app.update(Action::ToggleHelp);
    let terminal = screen(&app, 120, 40);
    let text = terminal.backend().to_string();
    assert!(
        text.contains("Measured from samples/access-log.csv"),
        "{text}"
    );
    assert!(
        text.contains("succeeded share 50% = 32 with upstream 2xx / 64 timed out"),
        "{text}"
    );
    insta::assert_snapshot!("logs_help", terminal.backend());
    // At 80x24 the evidence would push the keys and the closing line out of the box.
    let small = screen(&app, 80, 24).backend().to_string();
    assert!(small.contains("? or Esc closes this help"), "{small}");
    assert!(small.contains("back to the whole log"), "{small}");
    assert!(
        small.contains("a taller terminal, or dupcost logs"),
        "{small}"
    );
    insta::assert_snapshot!("logs_help_80x24", screen(&app, 80, 24).backend());
}

/// A log that counts the proxy's own tries (HAProxy's retries counter) gives the results
/// panel the layers figure with the proxy's layer measured, after the model's, for the
/// scenario of the moment; an endpoint explored shows the model's alone.
#[test]
fn the_proxys_measured_layer_is_in_the_results() {
    let mut app = app_of("samples/haproxy.log");
    assert!(app.logs().unwrap().proxy.is_some());
    let text = format!("{}", screen(&app, 120, 40).backend());
    assert!(text.contains("+ proxy's tries, expected"), "{text}");
    assert!(text.contains("+ proxy's tries, at most"), "{text}");
    for action in [EndpointAction::ToggleFocus, EndpointAction::Explore] {
        app.update(Action::Endpoints(action));
    }
    assert!(app.logs().unwrap().exploring.is_some());
    let text = format!("{}", screen(&app, 120, 40).backend());
    assert!(!text.contains("proxy's tries"), "{text}");
    assert!(text.contains("at 1 layer, expected"), "{text}");
}

/// A tiny log (tests/logs/tiny.rs): the succeeded share nothing measured is assumed in the
/// explorer too, its letter and its panel, as in every report.
#[test]
fn a_tiny_log_without_timeouts_shows_the_share_assumed() {
    let mut app = app_of("tests/fixtures/tiny/first-twenty.csv");
    app.update(Action::SelectNext);
    app.update(Action::SelectNext);
    let shown = screen(&app, 120, 40).backend().to_string();
    let row = shown
        .lines()
        .find(|l| l.contains("succeeded share") && l.contains("50%"))
        .unwrap_or_else(|| panic!("no succeeded share row: {shown}"));
    assert!(row.contains("50% a"), "{row}");
    assert!(shown.contains("succeeded share · assumed"), "{shown}");
    assert!(!shown.contains("succeeded share · measured"), "{shown}");
    assert!(
        shown.contains("assumed: the default, no timed-out attempt"),
        "{shown}"
    );
}
