//! The explorer's look: one [`Theme`] of styles (colours on a terminal that wants them, bold,
//! reverse and dim otherwise) and the bordered [`panel`] every part of the screen sits in.
//! Its own module so that `ui` and `charts` both use it without importing each other.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::Block;

/// Colours when colour is on; bold, reverse and dim otherwise.
#[derive(Debug, Clone, Copy)]
pub(super) struct Theme {
    pub(super) color: bool,
}

impl Theme {
    fn pick(self, colored: Style, plain: Style) -> Style {
        if self.color { colored } else { plain }
    }
    pub(super) fn heading(self) -> Style {
        self.pick(
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }
    pub(super) fn selected(self) -> Style {
        self.pick(
            Style::new().fg(Color::Black).bg(Color::Cyan),
            Style::new().add_modifier(Modifier::REVERSED),
        )
    }
    pub(super) fn highlight(self) -> Style {
        self.pick(
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }
    pub(super) fn series(self) -> Style {
        self.pick(Style::new().fg(Color::Cyan), Style::new())
    }
    pub(super) fn dim(self) -> Style {
        self.pick(
            Style::new().fg(Color::DarkGray),
            Style::new().add_modifier(Modifier::DIM),
        )
    }
    pub(super) fn worse(self) -> Style {
        self.pick(Style::new().fg(Color::Red), Style::new())
    }
    pub(super) fn better(self) -> Style {
        self.pick(Style::new().fg(Color::Green), Style::new())
    }
    pub(super) fn error(self) -> Style {
        self.pick(
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }
    pub(super) fn editing(self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
    }
}

/// A bordered block with a title, as every panel has.
pub(super) fn panel(title: &str, theme: Theme) -> Block<'_> {
    Block::bordered()
        .title(Span::styled(format!(" {title} "), theme.heading()))
        .border_style(theme.dim())
}
