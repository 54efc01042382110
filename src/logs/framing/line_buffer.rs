//! The input buffer of a piece: fill, roll, consume, and where the piece stops.

use std::io::{self, Read};

use crate::logs::error::LogError;
use crate::logs::limits::MAX_RECORD;
use crate::logs::source::{MovableStop, Piece, read_retrying};

/// Size of one read.
const INPUT_BUFFER: usize = 256 * 1024;

/// Input bytes read ahead of the framing, with the file offset and line number of the next
/// byte. Room for a whole record of [`MAX_RECORD`] bytes plus one read.
pub struct LineBuffer<'a, R> {
    input: R,
    /// Stop after the record that reaches this offset.
    stop: Option<u64>,
    movable: Option<&'a MovableStop>,
    io_error: &'a dyn Fn(io::Error) -> LogError,
    /// Input bytes; `buf[at..filled]` is not yet consumed.
    pub buf: Vec<u8>,
    pub at: usize,
    pub filled: usize,
    pub eof: bool,
    /// File offset of `buf[0]`.
    base: u64,
    /// Line number of `buf[at]`.
    pub line: u64,
}

impl<'a, R: Read> LineBuffer<'a, R> {
    /// A buffer over `input`, positioned at `piece.start`; it stops at the piece's stop, or at
    /// `movable`'s when given.
    pub fn new(
        input: R,
        piece: &Piece,
        movable: Option<&'a MovableStop>,
        io_error: &'a dyn Fn(io::Error) -> LogError,
    ) -> Self {
        LineBuffer {
            input,
            stop: piece.stop,
            movable,
            io_error,
            buf: vec![0u8; MAX_RECORD + INPUT_BUFFER],
            at: 0,
            filled: 0,
            eof: false,
            base: piece.start,
            line: piece.first_line,
        }
    }

    /// The file offset of the next byte.
    pub fn pos(&self) -> u64 {
        self.base + self.at as u64
    }

    /// The piece's stop is reached: the record that reached it was the last.
    pub fn at_stop(&self) -> bool {
        self.stop.is_some_and(|stop| self.pos() >= stop)
    }

    /// Moves the unconsumed bytes to the front and reads more after them.
    pub fn refill(&mut self) -> Result<(), LogError> {
        if self.at > 0 {
            self.buf.copy_within(self.at..self.filled, 0);
            self.filled -= self.at;
            self.base += self.at as u64;
            self.at = 0;
        }
        let n =
            read_retrying(&mut self.input, &mut self.buf[self.filled..]).map_err(self.io_error)?;
        self.filled += n;
        self.eof = n == 0;
        if let Some(movable) = self.movable {
            self.stop = Some(movable.reached(self.base + self.filled as u64));
        }
        Ok(())
    }

    /// Consumes input up to and including the next newline.
    pub fn skip_line(&mut self) -> Result<(), LogError> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.at..self.filled]) {
                self.at += i + 1;
                self.line += 1;
                return Ok(());
            }
            self.at = self.filled;
            if self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }
}
