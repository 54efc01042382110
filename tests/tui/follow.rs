//! `dupcost tui --logs FILE --follow` on ratatui's `TestBackend`: each measurement of the
//! growing log updates the measured inputs, the user's own edits stay over them, the panel
//! shows rows/s, the window and the last line's time, and nothing is redrawn when nothing
//! changed.

use std::io::Write;
use std::path::PathBuf;

use crate::common::screen;
use dupcost::findings::{Findings as Derived, Overrides};
use dupcost::inputs::Input;
use dupcost::logs::{self, LogInput, LogOptions};
use dupcost::model::Scenario;
use dupcost::report::Style;
use dupcost::tui::endpoints::{Live, LiveUpdate};
use dupcost::tui::{Action, App, Effect};

/// The sample's first `rows` rows, measured as the follower measures them (the succeeded
/// share given, as a flag would).
fn measured(rows: usize) -> Derived {
    let text = std::fs::read_to_string("samples/access-log.csv").unwrap();
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for line in text.lines().take(rows + 1) {
        writeln!(file, "{line}").unwrap();
    }
    let analysis = logs::analyze(
        &[LogInput::from(PathBuf::from(file.path()))],
        &LogOptions::default(),
    )
    .unwrap();
    let given = Overrides {
        succeeded_share: Some(0.5),
        ..Overrides::default()
    };
    analysis.derive(&Scenario::default(), &given).unwrap()
}

fn live(rows: u64, per_second: f64, waiting: Option<&str>) -> Live {
    Live {
        source: "access.csv".into(),
        rows_read: rows,
        rows_per_second: per_second,
        window: Some("1h".into()),
        last_line: Some("2026-11-07T21:13:02Z".into()),
        waiting: waiting.map(str::to_string),
    }
}

#[test]
fn live_updates_keep_the_users_edits() {
    let mut app = App::new(
        Scenario::default(),
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    );
    // Before the log gives a scenario, the title says why.
    let waiting = LiveUpdate {
        derived: None,
        live: live(12, 6.0, Some("no mutating requests in the log")),
    };
    assert_eq!(app.follow_update(waiting), Effect::Redraw);
    assert!(app.logs().is_none());
    insta::assert_snapshot!("follow_waiting_120x40", screen(&app, 120, 40).backend());

    let first = measured(2000);
    let update = LiveUpdate {
        derived: Some(first.clone()),
        live: live(2000, 1000.0, None),
    };
    assert_eq!(app.follow_update(update.clone()), Effect::Redraw);
    assert_eq!(*app.scenario(), first.scenario, "starts on the measurement");
    assert_eq!(app.baseline().map(|b| b.inputs), Some(first.scenario));
    // The same measurement again: nothing to redraw.
    assert_eq!(app.follow_update(update), Effect::None);

    // The user steps the timeout rate (a measured input) and types an order value.
    app.update(Action::Select(Input::TimeoutRate));
    app.update(Action::StepUp);
    let edited_rate = app.scenario().timeout_rate;
    assert_ne!(edited_rate, first.scenario.timeout_rate);
    app.update(Action::Select(Input::OrderValue));
    app.update(Action::StartEdit);
    app.update(Action::ClearText);
    for c in "85".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Commit);
    assert_eq!(app.scenario().order_value, 85.0);

    let second = measured(3000);
    assert_ne!(
        second.scenario.requests_per_day,
        first.scenario.requests_per_day
    );
    let effect = app.follow_update(LiveUpdate {
        derived: Some(second.clone()),
        live: live(3000, 500.0, None),
    });
    assert_eq!(effect, Effect::Redraw);
    let now = app.scenario();
    assert_eq!(now.requests_per_day, second.scenario.requests_per_day);
    assert_eq!(now.timeout_rate, edited_rate, "the user's edit stays");
    assert_eq!(now.order_value, 85.0, "the user's edit stays");
    assert_eq!(
        app.baseline().map(|b| b.inputs),
        Some(second.scenario),
        "the pinned baseline follows the log"
    );
    let shown = screen(&app, 120, 40);
    let text = format!("{:?}", shown.backend());
    assert!(text.contains("live: 3,000 rows, 500 rows/s"), "{text}");
    assert!(
        text.contains("window 1h, last 2026-11-07T21:13:02Z"),
        "{text}"
    );
    insta::assert_snapshot!("follow_live_120x40", shown.backend());
}
