//! The explorer names where each starting input came from as the reports do: a `DUPCOST_*`
//! variable by its name, retries a schedule gave by the schedule. Rendered into ratatui's
//! `TestBackend` and pinned with insta.

use std::path::PathBuf;

use crate::common::screen;
use dupcost::inputs::{Input, Origin, Sources};
use dupcost::model::{Delays, Scenario};
use dupcost::report::Style;
use dupcost::tui::{Action, App};

fn app(scenario: Scenario, sources: Sources) -> App {
    App::new(
        scenario,
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_sources(sources)
}

#[test]
fn a_variable_is_named_in_the_selected_inputs_panel() {
    let mut sources = Sources::default();
    sources.set(Input::TimeoutRate, Origin::Env);
    let scenario = Scenario {
        timeout_rate: 0.005,
        ..Scenario::default()
    };
    let mut app = app(scenario, sources);
    app.update(Action::Select(Input::TimeoutRate));
    let terminal = screen(&app, 120, 40);
    let shown = terminal.backend().to_string();
    assert!(shown.contains("given: DUPCOST_TIMEOUT_RATE"), "{shown}");
    assert!(shown.contains("┌ timeout rate · given ─"), "{shown}");
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn retries_a_schedule_gave_say_so() {
    let mut sources = Sources::default();
    sources.set_schedule(Origin::Flag);
    let scenario = Scenario {
        retries: 2,
        schedule_seconds: Some(Delays::new(&[5.0, 300.0]).unwrap()),
        ..Scenario::default()
    };
    let mut app = app(scenario, sources);
    app.update(Action::Select(Input::Retries));
    let shown = screen(&app, 120, 40).backend().to_string();
    assert!(
        shown.contains("given: one per delay of --schedule"),
        "{shown}"
    );
    // The schedule stands in for the backoff: its row carries the schedule's kind, `g`.
    let backoff = shown
        .lines()
        .find(|l| l.contains("backoff  "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(backoff.contains("5s, 5m g"), "{backoff}");
    app.update(Action::Select(Input::Backoff));
    let terminal = screen(&app, 120, 40);
    let shown = terminal.backend().to_string();
    assert!(shown.contains("given: --schedule"), "{shown}");
    insta::assert_snapshot!(terminal.backend());
}
