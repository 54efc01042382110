//! Which of a file's line formats read which of its lines, mergeable like the rest of the tally: a piece counts its own lines, from 1, and
//! [`FormatsUsed::merge`] moves the next piece's line numbers past this piece's lines.

/// The lines one format of a file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatUse {
    /// Lines it read (records handed to the row stage).
    pub lines: u64,
    /// The first and last of them (line numbers of the file; 0 when it read none).
    pub first_line: u64,
    pub last_line: u64,
    /// Lines it would have read, made bad rows because it cannot be counted beside the
    /// file's first format (it lacks a role the options need).
    pub refused: u64,
}

/// The formats' lines, by the index of the format in its file's set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FormatsUsed {
    pub used: Vec<FormatUse>,
    /// Times a line was read by another format than the line before it.
    pub switches: u64,
    /// The format of the piece's first and last lines read.
    first: Option<usize>,
    last: Option<usize>,
    /// The last line number of the piece (counted from 1 at its start), blank and bad lines
    /// included: where the next piece's numbering starts.
    pub line_end: u64,
}

impl FormatsUsed {
    /// `lines` lines, `first_line` to `last_line`, read by format `index`.
    pub fn add(&mut self, index: usize, lines: u64, first_line: u64, last_line: u64) {
        if lines == 0 {
            return;
        }
        self.count(index, lines, first_line, last_line);
        if self.last.is_some_and(|l| l != index) {
            self.switches += 1;
        }
        self.first.get_or_insert(index);
        self.last = Some(index);
    }

    /// A line format `index` reads, made a bad row: it is refused.
    pub fn refuse(&mut self, index: usize) {
        self.at(index).refused += 1;
    }

    fn at(&mut self, index: usize) -> &mut FormatUse {
        if self.used.len() <= index {
            self.used.resize(index + 1, FormatUse::default());
        }
        &mut self.used[index]
    }

    fn count(&mut self, index: usize, lines: u64, first_line: u64, last_line: u64) {
        let u = self.at(index);
        u.first_line = if u.lines == 0 {
            first_line
        } else {
            u.first_line.min(first_line)
        };
        u.last_line = u.last_line.max(last_line);
        u.lines += lines;
    }

    /// The next piece's lines, after this piece's.
    pub fn merge(&mut self, next: &FormatsUsed) {
        let base = self.line_end;
        if let (Some(a), Some(b)) = (self.last, next.first)
            && a != b
        {
            self.switches += 1;
        }
        self.switches += next.switches;
        for (index, u) in next.used.iter().enumerate() {
            if u.refused > 0 {
                self.at(index).refused += u.refused;
            }
            if u.lines > 0 {
                self.count(index, u.lines, u.first_line + base, u.last_line + base);
            }
        }
        if self.first.is_none() {
            self.first = next.first;
        }
        if next.last.is_some() {
            self.last = next.last;
        }
        self.line_end += next.line_end;
    }

    /// More than one format read lines, and they took turns more often than once each
    /// (lines of two containers interleaved, rather than one layout after another).
    pub fn interleaved(&self) -> bool {
        let formats = self.used.iter().filter(|u| u.lines > 0).count() as u64;
        formats > 1 && self.switches >= formats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_merge_into_the_files_line_numbers() {
        // Lines 1-10 format 0, lines 11-15 format 1: cut after line 12.
        let mut a = FormatsUsed::default();
        a.add(0, 10, 1, 10);
        a.add(1, 2, 11, 12);
        a.line_end = 12;
        let mut b = FormatsUsed::default();
        b.add(1, 3, 1, 3);
        b.line_end = 3;
        a.merge(&b);
        assert_eq!(
            a.used[0],
            FormatUse {
                lines: 10,
                first_line: 1,
                last_line: 10,
                refused: 0
            }
        );
        assert_eq!(
            a.used[1],
            FormatUse {
                lines: 5,
                first_line: 11,
                last_line: 15,
                refused: 0
            }
        );
        assert_eq!(a.switches, 1);
        assert!(!a.interleaved());
        assert_eq!(a.line_end, 15);
        // A piece that starts with the other format is one more switch.
        let mut c = FormatsUsed::default();
        c.add(0, 1, 1, 1);
        c.line_end = 1;
        a.merge(&c);
        assert_eq!(a.switches, 2);
        assert!(a.interleaved());
        assert_eq!(a.used[0].last_line, 16);
    }
}
