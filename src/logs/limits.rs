//! The bounds on one record, shared by the header reader and the framing. A leaf.

/// The longest record (and so field or line) read; longer ones are bad rows.
pub const MAX_RECORD: usize = 1 << 20;
/// The most fields a record may have.
pub const MAX_FIELDS: usize = 1024;
