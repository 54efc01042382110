//! The explorer's screens, rendered into ratatui's `TestBackend` and pinned with insta, and a
//! sweep of terminal sizes that must never panic.

use std::path::PathBuf;

use crate::common::screen;
use dupcost::inputs::{Input, Origin, Sources};
use dupcost::model::{Jitter, Scenario, Store};
use dupcost::report::Style;
use dupcost::tui::app::ChartKind;
use dupcost::tui::ui::{self, MIN_HEIGHT, MIN_WIDTH};
use dupcost::tui::{Action, App};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// The explorer as `dupcost tui` starts it with no flag: every input the default, assumed.
fn app() -> App {
    App::new(
        Scenario::default(),
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_sources(Sources::default())
}

fn apply(app: &mut App, actions: &[Action]) {
    for action in actions {
        app.update(action.clone());
    }
}

fn text(terminal: &Terminal<TestBackend>) -> String {
    terminal.backend().to_string()
}

#[test]
fn default_120x40() {
    let terminal = screen(&app(), 120, 40);
    assert!(text(&terminal).contains("$24,048"));
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn default_80x24() {
    let terminal = screen(&app(), 80, 24);
    assert!(text(&terminal).contains("$24,048"));
    insta::assert_snapshot!(terminal.backend());
}

/// Whether `text` holds a number in e-notation (`3.20e-7`, `1e15`, `-4.72e-4`).
fn has_e_notation(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).any(|w| {
        w[0].is_ascii_digit()
            && w[1] == 'e'
            && (w[2].is_ascii_digit() || w[2] == '-' || w[2] == '+')
    })
}

/// The results' rows (inside the panel's frame) of a screen: the text after the inputs'
/// column, one string a row.
fn results_rows(shown: &str) -> Vec<String> {
    shown
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('│').collect();
            (cells.len() >= 4).then(|| cells[3].to_string())
        })
        .collect()
}

/// At 80x24, as someone who has never seen the explorer meets it: the kinds' letters are said
/// on screen, the inputs panel says how many inputs there are and where the others are, every
/// result's label is whole, and the rule of thumb has its column.
#[test]
fn a_newcomer_at_80x24_reads_every_label_and_the_kinds() {
    let mut app = app();
    let shown = text(&screen(&app, 80, 24));
    assert!(shown.contains("a assumed"), "{shown}");
    assert!(shown.contains("Inputs 1-9 of 17 ↓"), "{shown}");
    for label in [
        "duplicates left, a month",
        "at 1 layer, worst case",
        "retry horizon (worst case)",
        "never retrying, a day",
    ] {
        assert!(shown.contains(label), "{label} cut:\n{shown}");
    }
    assert!(shown.contains("thumb"), "{shown}");
    assert!(!has_e_notation(&shown), "{shown}");
    // Every input is reachable: the last one scrolls into view, and the title says so.
    app.update(Action::Select(Input::Store));
    let shown = text(&screen(&app, 80, 24));
    assert!(shown.contains("Inputs 9-17 of 17 ↑"), "{shown}");
    assert!(shown.contains("store "), "{shown}");
    // A value set in the explorer is given: both letters are said.
    set(&mut app, Input::Retries, "2");
    let shown = text(&screen(&app, 80, 24));
    assert!(
        shown.contains("g given · a assumed") || shown.contains("g given a assumed"),
        "{shown}"
    );
}

/// However wide the figures get (a trillion requests a day), no number is in e-notation, the
/// columns stay apart and the rule of thumb keeps its column; tiny changes from a pinned
/// baseline read as decimals.
#[test]
fn wide_and_tiny_figures_read_plainly_in_their_columns() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut wide = app();
        set(&mut wide, Input::RequestsPerDay, "1e12");
        let shown = text(&screen(&wide, width, height));
        assert!(!has_e_notation(&shown), "{width}x{height}:\n{shown}");
        assert!(shown.contains("thumb"), "{width}x{height}:\n{shown}");
        assert!(shown.contains("1.00tn"), "{width}x{height}:\n{shown}");
        // Figures that touched would read as one long number (`1,000,000,0001,000,000`).
        for row in results_rows(&shown) {
            for word in row.split_whitespace() {
                let figure = word.starts_with(|c: char| c.is_ascii_digit() || "$+-".contains(c));
                assert!(
                    !figure || word.chars().count() <= 10,
                    "figures touch: {row}"
                );
            }
        }
        let mut pinned = app();
        pinned.update(Action::TogglePin);
        set(&mut pinned, Input::Retries, "1");
        let shown = text(&screen(&pinned, width, height));
        assert!(!has_e_notation(&shown), "{width}x{height}:\n{shown}");
        assert!(
            shown.contains("vs baseline") || shown.contains("change"),
            "{shown}"
        );
        assert!(shown.contains("<0.001x"), "{width}x{height}:\n{shown}");
    }
}

/// Each input's kind is one letter after its value (a flag's `g`, a default's `a`; one set in
/// the explorer turns `g`), and the selected input's panel says it in the reports' words.
#[test]
fn each_input_marks_its_kind() {
    let mut sources = Sources::default();
    sources.set(Input::OrderValue, Origin::Flag);
    let mut app = App::new(
        Scenario::default(),
        PathBuf::from("dupcost-scenario.json"),
        Style::default(),
    )
    .with_sources(sources);
    let shown = text(&screen(&app, 120, 40));
    let row = |shown: &str, label: &str| -> String {
        shown
            .lines()
            .find(|l| l.contains(label))
            .unwrap_or_else(|| panic!("no {label}: {shown}"))
            .to_string()
    };
    assert!(row(&shown, "order value").contains("$40 g"), "{shown}");
    assert!(
        row(&shown, "requests per day").contains("20,000 a"),
        "{shown}"
    );
    assert!(shown.contains("┌ requests per day · assumed ─"), "{shown}");
    apply(&mut app, &[Action::SelectNext, Action::StepUp]);
    let shown = text(&screen(&app, 120, 40));
    assert!(row(&shown, "timeout rate").contains("0.3% g"), "{shown}");
    assert!(shown.contains("┌ timeout rate · given ─"), "{shown}");
}

#[test]
fn after_stepping_the_timeout_rate_up() {
    let mut app = app();
    apply(
        &mut app,
        &[Action::SelectNext, Action::StepUp, Action::StepUp],
    );
    let terminal = screen(&app, 120, 40);
    let shown = text(&terminal);
    assert!(shown.contains("0.4%") && !shown.contains("$24,048"));
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn baseline_pinned_then_one_retry() {
    let mut app = app();
    apply(
        &mut app,
        &[Action::TogglePin, Action::Select(Input::Retries)],
    );
    apply(&mut app, &[Action::StepDown, Action::StepDown]);
    let wide = screen(&app, 120, 40);
    assert!(text(&wide).contains("vs baseline"));
    insta::assert_snapshot!("baseline_pinned_120x40", wide.backend());
    insta::assert_snapshot!("baseline_pinned_80x24", screen(&app, 80, 24).backend());
}

#[test]
fn editing_with_an_error() {
    let mut app = app();
    apply(
        &mut app,
        &[Action::SelectNext, Action::StartEdit, Action::ClearText],
    );
    apply(&mut app, &[Action::Type('2'), Action::Commit]);
    let terminal = screen(&app, 80, 24);
    assert!(text(&terminal).contains("you mean 2%?"));
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn help_overlay() {
    let mut app = app();
    app.update(Action::ToggleHelp);
    insta::assert_snapshot!(screen(&app, 120, 40).backend());
}

#[test]
fn too_small() {
    let terminal = screen(&app(), 50, 12);
    assert!(text(&terminal).contains("too small"));
    insta::assert_snapshot!(terminal.backend());
}

/// Types `text` into `input` with the editor, as a user would.
fn set(app: &mut App, input: Input, text: &str) {
    apply(
        app,
        &[Action::Select(input), Action::StartEdit, Action::ClearText],
    );
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Commit);
    assert!(app.editor().is_none(), "{input} took {text}");
}

#[test]
fn no_retries_and_no_timeouts() {
    let mut app = app();
    set(&mut app, Input::Retries, "0");
    set(&mut app, Input::TimeoutRate, "0");
    insta::assert_snapshot!(screen(&app, 120, 40).backend());
}

/// A key TTL shorter than the client's retry horizon is the verdict, and the results say
/// what gets through; stepping the new inputs moves the figures.
#[test]
fn a_ttl_shorter_than_the_horizon_shows_in_the_verdict() {
    let mut app = app();
    set(&mut app, Input::TimeoutRate, "10%");
    set(&mut app, Input::Ttl, "20s");
    let shown = text(&screen(&app, 120, 40));
    assert!(
        shown.contains("Verdict: the key TTL (20s) is shorter than the client's retry horizon"),
        "{shown}"
    );
    assert!(shown.contains("retry horizon > TTL"), "{shown}");
    assert!(app.estimate().duplicates.with_key_store.per_month > 0.0);
    // Longer timeouts stretch the horizon; full jitter keeps it; a second layer multiplies.
    apply(
        &mut app,
        &[Action::Select(Input::AttemptTimeout), Action::StepUp],
    );
    assert_eq!(app.estimate().retry_horizon_seconds, 4.0 * 15.0 + 7.0);
    apply(
        &mut app,
        &[
            Action::Select(Input::Jitter),
            Action::StepUp,
            Action::StepUp,
        ],
    );
    assert_eq!(app.scenario().jitter, dupcost::model::Jitter::Full);
    assert_eq!(app.estimate().retry_horizon_seconds, 67.0);
    apply(&mut app, &[Action::Select(Input::Layers), Action::StepUp]);
    assert_eq!(app.estimate().amplification.worst_case, 16.0);
    apply(&mut app, &[Action::Select(Input::Store), Action::StepUp]);
    let shown = text(&screen(&app, 80, 24));
    assert!(shown.contains("size in Redis"), "{shown}");
    assert!(
        shown.contains("▸ key store"),
        "the selected input scrolls into view: {shown}"
    );
}

#[test]
fn extreme_scenarios_render_at_the_snapshot_sizes() {
    let extremes: [&[(Input, &str)]; 5] = [
        &[
            (Input::RequestsPerDay, "1e300"),
            (Input::DaysPerMonth, "1e5"),
        ],
        &[
            (Input::RequestsPerDay, "1e300"),
            (Input::OrderValue, "0"),
            (Input::DaysPerMonth, "1e10"),
        ],
        &[
            (Input::TimeoutRate, "100%"),
            (Input::SucceededShare, "100%"),
            (Input::Retries, "100"),
        ],
        &[(Input::TimeoutRate, "100%"), (Input::SucceededShare, "0")],
        &[
            (Input::RequestsPerDay, "0"),
            (Input::Ttl, "1s"),
            (Input::KeySize, "1"),
            (Input::DaysPerMonth, "0.001"),
        ],
    ];
    for inputs in extremes {
        let mut app = app();
        app.update(Action::TogglePin);
        for &(input, text) in inputs {
            set(&mut app, input, text);
        }
        for (width, height) in [(120, 40), (80, 24), (100, 34), (64, 22)] {
            let shown = text(&screen(&app, width, height));
            assert!(
                shown.contains("Verdict"),
                "{inputs:?} at {width}x{height}:\n{shown}"
            );
        }
    }
}

/// A pinned baseline whose refunds curve reaches far beyond the current one (0.4% against
/// 2e-300) shares the chart's x axis with it, and every point is clamped into the axes.
/// (A clean-clone CI run hung in `any_scenario_renders`: ratatui walked a line to a point mapped
/// to u64::MAX. That random case was not recovered; this is the out-of-bounds case the clamping
/// addresses.)
#[test]
fn baseline_chart_far_wider_than_the_current_curve() {
    let mut app = app();
    app.update(Action::TogglePin);
    set(&mut app, Input::TimeoutRate, "1e-300");
    for (width, height) in [(120, 40), (80, 24), (64, 22)] {
        let shown = text(&screen(&app, width, height));
        assert!(shown.contains("Verdict"), "{width}x{height}:\n{shown}");
    }
}

/// Refunds near f64::MAX (days a month at 9.3e299) once made ratatui map the refunds chart's
/// points through an overflowing product to usize::MAX and draw a line of that many cells: the
/// clean-clone CI run that hung for 90 minutes in `any_scenario_renders`. The chart's y axis is
/// now drawn in fractions of the highest refund.
#[test]
fn refunds_near_the_largest_float_render_at_once() {
    let scenario = Scenario {
        requests_per_day: 996_711.025_548_813,
        timeout_rate: 0.0,
        succeeded_share: 1.0,
        order_value: 9_620.698_019_919_886,
        retries: 1,
        ttl_seconds: 1,
        key_size_bytes: 1,
        days_per_month: 9.298_269_281_627_328e299,
        ..Scenario::default()
    };
    assert!(scenario.validate().is_ok());
    let mut app = App::new(scenario, PathBuf::from("x.json"), Style::default());
    for pinned in [false, true] {
        if pinned {
            app.update(Action::TogglePin);
        }
        for _ in ChartKind::ALL {
            let shown = text(&screen(&app, 72, 33));
            assert!(shown.contains("Verdict"), "{shown}");
            app.update(Action::NextChart);
        }
    }
}

/// A tiny timeout rate reads as the reports write it, `<0.000001%`: no e-notation, and not as
/// a row of zeros.
#[test]
fn tiny_rates_read_as_the_reports_write_them() {
    let mut app = app();
    set(&mut app, Input::TimeoutRate, "1e-22");
    let shown = text(&screen(&app, 120, 40));
    assert!(shown.contains("<0.000001%"), "{shown}");
    assert!(!shown.contains("e-20"), "{shown}");
    assert!(!shown.contains("0.0000000"), "{shown}");
}

/// Inputs each valid but whose figures overflow are refused in the editor, like any bad value.
#[test]
fn overflowing_scenarios_are_refused() {
    let mut app = app();
    set(&mut app, Input::RequestsPerDay, "1e300");
    apply(
        &mut app,
        &[
            Action::Select(Input::DaysPerMonth),
            Action::StartEdit,
            Action::ClearText,
        ],
    );
    for c in "1e300".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Commit);
    assert!(
        app.editor().is_some(),
        "the editor stays open with the error"
    );
    assert_eq!(app.scenario().days_per_month, 30.0, "the old value is kept");
}

#[test]
fn clicks_land_on_the_input_under_the_pointer() {
    let app = app();
    let area = Rect::new(0, 0, 120, 40);
    let terminal = screen(&app, 120, 40);
    let lines: Vec<String> = text(&terminal).lines().map(String::from).collect();
    for input in Input::ALL {
        let row = lines
            .iter()
            .position(|l| l.contains(input.label()))
            .expect("every input is on screen");
        // The backend's text is quoted: one character of quote before column 0.
        let column = lines[row].find(input.label()).unwrap() as u16 - 1;
        let row = row as u16;
        assert_eq!(
            ui::input_at(&app, area, column, row),
            Some(input),
            "{input}"
        );
    }
    assert_eq!(ui::input_at(&app, area, 100, 3), None);
    assert_eq!(ui::input_at(&app, area, 0, 0), None);
    assert_eq!(ui::input_at(&app, Rect::new(0, 0, 10, 5), 2, 2), None);
}

/// States that exercise every panel: plain, editing with an error, pinned, help.
fn states() -> Vec<App> {
    let mut editing = app();
    apply(
        &mut editing,
        &[Action::StartEdit, Action::Type('x'), Action::Commit],
    );
    let mut pinned = app();
    apply(&mut pinned, &[Action::TogglePin, Action::StepUp]);
    let mut help = app();
    help.update(Action::ToggleHelp);
    vec![app(), editing, pinned, help]
}

#[test]
fn every_size_from_1x1_to_130x45_renders_without_panic() {
    let every_width: Vec<u16> = (1..=130).collect();
    // The other states: every third width, and every width around the minimum.
    let some_widths: Vec<u16> = (1..=130u16)
        .filter(|&w| w % 3 == 0 || w.abs_diff(MIN_WIDTH) <= 2)
        .collect();
    for (i, app) in states().iter().enumerate() {
        let widths = if i == 0 { &every_width } else { &some_widths };
        for &width in widths {
            for height in 1..=45 {
                let area = Rect::new(0, 0, width, height);
                let mut buf = Buffer::empty(area);
                app.render(area, &mut buf);
                if width >= MIN_WIDTH && height >= MIN_HEIGHT {
                    let shown: String = buf.content().iter().map(|c| c.symbol()).collect();
                    assert!(shown.contains("Inputs"), "{width}x{height}");
                }
            }
        }
    }
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop_oneof![Just(0.0), 0.0..1e6, 1e6..1e300],
        prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0],
        prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0],
        prop_oneof![Just(0.0), 0.0..1e4, 1e4..1e300],
        0u32..=100,
        1u64..=u64::MAX / 2,
        1u64..=u64::MAX / 2,
        prop_oneof![Just(1e-9), 0.1..400.0, 400.0..1e300],
        schedule(),
    )
        .prop_map(|(n, t, s, v, r, ttl, size, m, schedule)| Scenario {
            requests_per_day: n,
            timeout_rate: t,
            succeeded_share: s,
            order_value: v,
            retries: r,
            ttl_seconds: ttl,
            key_size_bytes: size,
            days_per_month: m,
            ..schedule
        })
}

/// The retry schedule, layers and key-store inputs, from ordinary to absurd.
fn schedule() -> impl Strategy<Value = Scenario> {
    (
        prop_oneof![Just(1e-3), 0.1..60.0, 60.0..1e12],
        prop_oneof![Just(0.0), 0.0..60.0, 60.0..1e12],
        prop_oneof![Just(1.0), 1.0..4.0, 4.0..1e12],
        prop_oneof![Just(0.0), 0.0..600.0, 600.0..1e12],
        0usize..3,
        1u32..=20,
        prop_oneof![1u64..=256, 1u64..=1 << 40],
        prop_oneof![0u64..=100_000, 0u64..=1 << 40],
        0usize..3,
    )
        .prop_map(
            |(timeout, backoff, factor, cap, jitter, layers, key, body, store)| Scenario {
                attempt_timeout_seconds: timeout,
                backoff_seconds: backoff,
                backoff_factor: factor,
                backoff_max_seconds: cap,
                jitter: Jitter::ALL[jitter],
                layers,
                key_bytes: key,
                body_bytes: body,
                store: Store::ALL[store],
                ..Scenario::default()
            },
        )
}

proptest! {
    // Each case runs in a child process with a deadline, so a drawing that never ends fails
    // the test (and is shrunk) instead of hanging the run.
    #![proptest_config(ProptestConfig { cases: 64, timeout: 20_000, ..ProptestConfig::default() })]

    /// Any valid scenario, even absurd, renders at any size without a panic or a hang.
    #[test]
    fn any_scenario_renders(
        scenario in scenario(),
        width in 1u16..=160,
        height in 1u16..=60,
        pinned in any::<bool>(),
        steps in proptest::collection::vec(0usize..4, 0..6),
    ) {
        // Absurd products of valid inputs (1e300 x 1e300) are refused by validate().
        prop_assume!(scenario.validate().is_ok());
        let mut app = App::new(scenario, PathBuf::from("x.json"), Style::default());
        if pinned {
            app.update(Action::TogglePin);
        }
        for step in steps {
            let action = [Action::StepUp, Action::StepDown, Action::SelectNext, Action::NextChart][step].clone();
            app.update(action);
        }
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        (&app).render(area, &mut buf);
    }
}

/// docs/TUI.md's capture of the explorer is what it draws at that size today.
#[test]
fn tui_guide_capture_matches_the_screen() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/TUI.md")).unwrap();
    let section = guide
        .split("## The screen")
        .nth(1)
        .expect("docs/TUI.md has a screen section");
    let capture = section
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the tui section shows a capture in a text block");
    let lines: Vec<&str> = capture.lines().collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap() as u16;
    let height = lines.len() as u16;
    let mut terminal = Terminal::new(TestBackend::new(100, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(&app(), frame.area()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let drawn: Vec<String> = (0..height)
        .map(|y| {
            let line: String = (0..100).map(|x| buffer[(x, y)].symbol()).collect();
            line.trim_end().to_string()
        })
        .collect();
    assert!(width <= 100, "the capture is 100 columns wide");
    assert_eq!(drawn.join("\n"), lines.join("\n"));
}
