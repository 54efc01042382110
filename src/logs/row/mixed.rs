//! One file, several shapes: the row stage's side of a file read with more than one
//! line format. The framing tries each line with the format of the line before; a line it
//! does not read comes here ([`LineSink::other_format`]), and is tried with the file's other
//! formats in the order they were found, then (for what may be an access line) with a format
//! found from the line itself. The format that reads it becomes current: its columns are the
//! ones the next records are read by. The lines each format read go to the tally
//! ([`FormatsUsed`](crate::logs::tally::FormatsUsed)) run by run, so the common case of one
//! format costs a counter per line.

use std::sync::Arc;

use super::Row;
use crate::logs::error::LogError;
use crate::logs::formats::Fields;
use crate::logs::formats::set::{FileFormat, Found};
use crate::logs::framing::{LineSink, Other};

/// Lines of a piece for which no format is found before none is looked for any more (each
/// look tries every format the detection knows).
pub const MAX_MISSES: u32 = 1000;

impl Row<'_> {
    /// The current format's run of lines, counted into the tally.
    pub(super) fn flush_run(&mut self) {
        if self.rules.formats.is_none() {
            return;
        }
        let (lines, first, last) = std::mem::take(&mut self.run);
        self.tally.formats.add(self.current, lines, first, last);
        self.seen.add(self.current, lines, first, last);
    }

    /// The file's formats but the current one, by name, for a bad row's reason.
    fn others(&self) -> String {
        let names: Vec<String> = (0..self.known.len())
            .filter(|&i| i != self.current)
            .map(|i| self.known[i].name())
            .collect();
        names.join(" or ")
    }

    /// Makes format `index` of the file the current one.
    fn switch(&mut self, index: usize, format: Arc<FileFormat>) {
        self.flush_run();
        let rules = self.rules;
        self.current = index;
        self.fields = format.columns.headers.len();
        self.proxy_tries = super::proxy_tries(&format.columns);
        self.client_timeout = rules.client_timeout.map(|t| {
            t * rules.columns.duration_unit.nanos() / format.columns.duration_unit.nanos()
        });
        self.other = (index != 0).then_some(format);
    }
}

impl LineSink for Row<'_> {
    fn line_format(&self) -> Option<Arc<FileFormat>> {
        match (&self.other, &self.rules.formats) {
            (Some(other), _) => Some(Arc::clone(other)),
            (None, Some(set)) => Some(set.first()),
            (None, None) => None,
        }
    }

    fn other_format(
        &mut self,
        line: &[u8],
        fields: &mut Fields,
        discover: bool,
    ) -> Result<Other, LogError> {
        let Some(set) = self.rules.formats.as_deref() else {
            return Ok(Other::None(String::new()));
        };
        if self.known.len() < set.len() {
            self.known = set.all();
        }
        for i in (0..self.known.len()).filter(|&i| i != self.current) {
            match &self.known[i] {
                Found::Read(f) => {
                    if f.format.skip(line) {
                        return Ok(Other::Skip);
                    }
                    fields.clear();
                    if f.format.split(line, fields).is_ok() {
                        let f = Arc::clone(f);
                        self.switch(i, f);
                        return Ok(Other::Read);
                    }
                }
                Found::Refused { format, .. } => {
                    fields.clear();
                    if format.split(line, fields).is_ok() {
                        return Ok(Other::Refused {
                            why: self.known[i].refusal(),
                            index: i,
                        });
                    }
                }
            }
        }
        if !discover || !set.discovers() || self.misses >= MAX_MISSES {
            return Ok(Other::None(self.others()));
        }
        let Some(i) = set.discover(line) else {
            self.misses += 1;
            return Ok(Other::None(self.others()));
        };
        self.known = set.all();
        match self.known.get(i) {
            Some(Found::Read(f)) if i != self.current => {
                fields.clear();
                if f.format.split(line, fields).is_ok() {
                    let f = Arc::clone(f);
                    self.switch(i, f);
                    return Ok(Other::Read);
                }
                self.misses += 1;
                Ok(Other::None(self.others()))
            }
            Some(refused @ Found::Refused { .. }) => Ok(Other::Refused {
                why: refused.refusal(),
                index: i,
            }),
            _ => {
                self.misses += 1;
                Ok(Other::None(self.others()))
            }
        }
    }

    /// Counted, so that the evidence says why a format is refused only where it made bad
    /// rows.
    fn refused(&mut self, index: usize) {
        if self.rules.formats.is_some() {
            self.tally.formats.refuse(index);
            self.seen.refuse(index);
        }
    }

    fn ended(&mut self, next_line: u64) {
        self.tally.formats.line_end = next_line.saturating_sub(1);
    }
}
