//! The explorer shows each input's kind whole at 80 columns: the words of an assumed input
//! (why, and the flag that settles it) wrap in the panel of the selected input instead of
//! being cut at its edge. Screens on ratatui's `TestBackend`.

use std::path::PathBuf;

use crate::common::screen;
use crate::logs::app_of;
use dupcost::inputs::Input;
use dupcost::model::Scenario;
use dupcost::report::Style;
use dupcost::tui::{Action, App};

/// Moves the selection down to `input`.
fn select(app: &mut App, input: Input) {
    while app.selected() != input {
        app.update(Action::SelectNext);
    }
}

/// The selected input's kind words as the screen shows them: the rows of the panel below
/// the inputs (the left column, under its title), joined into one text.
fn kind_panel_text(terminal: &ratatui::Terminal<ratatui::backend::TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let rows: Vec<String> = (0..buffer.area.height)
        .map(|y| {
            (0..30)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect();
    let top = rows
        .iter()
        .rposition(|r| r.starts_with('┌'))
        .expect("a panel below the inputs");
    rows[top + 1..]
        .iter()
        .take_while(|r| !r.starts_with('└'))
        .flat_map(|r| r.trim_matches('│').split_whitespace())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The screen at 80x24, its panel below the inputs starting with `text` (spaces collapsed).
fn panel_starts(app: &App, text: &str) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    let terminal = screen(app, 80, 24);
    let shown = kind_panel_text(&terminal);
    assert!(
        shown.starts_with(text),
        "{}: {shown}\n{}",
        app.selected(),
        terminal.backend()
    );
    terminal
}

#[test]
fn the_logs_kind_words_read_whole_at_80_columns() {
    // The sample's timestamps span 24 minutes and its timeouts are few: the span only bounds
    // the requests a day (the scenario's stands), the timeout rate is the log's, thin.
    let mut app = app_of("samples/ingress-nginx.cri.log");
    assert_eq!(app.selected(), Input::RequestsPerDay);
    for (input, kind) in [
        (
            Input::RequestsPerDay,
            "assumed: the scenario's, a short span only bounds it; the log allows at least 25; \
             --requests-per-day settles it",
        ),
        (
            Input::TimeoutRate,
            "measured: thin: 4 of 28 (under 30), its 95% interval carried to the duplicates \
             and refunds",
        ),
        (
            Input::SucceededShare,
            "assumed: most outcomes are unknown; the log allows 0% to 100%; \
             --succeeded-share or --outcomes FILE settles it",
        ),
    ] {
        select(&mut app, input);
        let (_, words) = app.kind(input).expect("a kind");
        assert_eq!(words, kind);
        // A measured input's panel starts with its evidence, which says it is thin.
        if input == Input::TimeoutRate {
            continue;
        }
        let terminal = panel_starts(&app, &format!("{words}."));
        if input == Input::RequestsPerDay {
            insta::assert_snapshot!("logs_requests_per_day_kind_80x24", terminal.backend());
        }
    }
}

#[test]
fn the_details_show_the_kind_words_whole_at_80_columns() {
    let sources = dupcost::inputs::Sources::default();
    let mut app = App::new(
        Scenario::default(),
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_sources(sources);
    // Every input's meaning and kind words whole (the longest is the succeeded share's).
    for input in Input::ALL {
        select(&mut app, input);
        let (_, words) = app.kind(input).expect("a kind");
        let meaning = input.meaning().split_whitespace().collect::<Vec<_>>();
        let terminal = panel_starts(&app, &format!("{} kind {words}", meaning.join(" ")));
        if input == Input::SucceededShare {
            insta::assert_snapshot!("details_kind_80x24", terminal.backend());
        }
    }
}
