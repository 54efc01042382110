//! A piece of an input for one thread: where it starts, and where it stops. The stop of a
//! piece being read can be moved earlier by another thread, which then reads the rest
//! ([`MovableStop`]): the work-stealing that keeps both cores busy on a shared machine.

/// Where a piece starts and stops in its file.
#[derive(Debug, Clone, Copy)]
pub struct Piece {
    /// Line number of the piece's first byte (1 for a file's first line).
    pub first_line: u64,
    /// Byte offset of the piece's first byte in the file (after decompression).
    pub start: u64,
    /// Stop after the record that reaches this offset (the next piece's start).
    pub stop: Option<u64>,
    /// Another piece may come before this one (see [`Tally::without_predecessor`](crate::logs::Tally::without_predecessor)).
    pub follows: bool,
}

/// The end of a piece being read, which another thread may move earlier to take the rest of
/// the piece over (work stealing). The scanner tells how far it has read at each read and
/// takes the end then; it reads nothing past what it has told before asking again, so an end
/// moved past that is never crossed (unless a record already begun runs over it, which the
/// merge detects as for any piece).
#[derive(Debug)]
pub struct MovableStop {
    /// (offset read up to, offset to stop at)
    state: std::sync::Mutex<(u64, u64)>,
}

impl MovableStop {
    pub fn new(start: u64, stop: u64) -> Self {
        MovableStop {
            state: std::sync::Mutex::new((start, stop)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, u64)> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How far the scanner has read, and where it will stop.
    pub fn position(&self) -> (u64, u64) {
        *self.lock()
    }

    /// The scanner has read up to `read_to`: where must it stop?
    pub fn reached(&self, read_to: u64) -> u64 {
        let mut state = self.lock();
        state.0 = state.0.max(read_to);
        state.1
    }

    /// Moves the stop back to `at`, if the scanner has not read that far yet and `at` is
    /// before the stop; returns the old stop, the end of the range now left to the caller.
    pub fn take_from(&self, at: u64) -> Option<u64> {
        let mut state = self.lock();
        let (read_to, stop) = *state;
        if read_to < at && at < stop {
            state.1 = at;
            Some(stop)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop moves back only to a place after what the scanner has read and before the
    /// stop, and the scanner is told the new stop when it next reads.
    #[test]
    fn a_stop_moves_back_only_ahead_of_the_reading() {
        let stop = MovableStop::new(0, 100);
        assert_eq!(
            stop.take_from(50),
            Some(100),
            "the range 50..100 is the taker's"
        );
        assert_eq!(stop.position(), (0, 50));
        assert_eq!(stop.reached(60), 50, "the scanner now stops at 50");
        assert_eq!(stop.take_from(55), None, "already read");
        assert_eq!(stop.take_from(60), None, "already read");
        assert_eq!(stop.take_from(70), None, "past the stop");
        assert_eq!(stop.reached(40), 50, "what was read never shrinks");
        assert_eq!(stop.position(), (60, 50));
    }
}
