//! Ambassador's (Emissary-ingress) access lines: Envoy's, after the word `ACCESS`
//! (`ACCESS [2020-03-09T20:48:37.498Z] "GET /backend/ HTTP/1.1" 200 ...`), beside plain
//! Envoy lines and Ambassador's own diagnostics in the same container log, or inside a
//! shipper's `{"message": "ACCESS ..."}`. The prefix is taken off and the Envoy format
//! reads the rest; a line without it is read as it is.

use super::{Fields, FormatHints, LineFormat};

/// The word Ambassador writes before each access line.
pub const PREFIX: &[u8] = b"ACCESS ";

/// `line` without Ambassador's prefix.
pub fn strip(line: &[u8]) -> &[u8] {
    line.strip_prefix(PREFIX).unwrap_or(line)
}

/// An Envoy format whose lines may carry Ambassador's prefix.
#[derive(Debug)]
pub struct Ambassador(pub Box<dyn LineFormat>);

impl LineFormat for Ambassador {
    fn describe(&self) -> String {
        format!("{} (Ambassador's ACCESS lines)", self.0.describe())
    }

    fn names(&self) -> Vec<String> {
        self.0.names()
    }

    fn hints(&self) -> FormatHints {
        self.0.hints()
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.0.split(strip(line), out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_is_taken_off_when_there() {
        assert_eq!(
            strip(b"ACCESS [2020-03-09T20:48:37.498Z] x"),
            b"[2020-03-09T20:48:37.498Z] x"
        );
        assert_eq!(
            strip(b"[2020-03-09T20:48:37.498Z] x"),
            b"[2020-03-09T20:48:37.498Z] x"
        );
    }
}
