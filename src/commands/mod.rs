//! One module per subcommand: each turns parsed arguments into the bytes to print.

pub mod docs;
pub mod estimate;
pub mod follow;
pub mod logs;
pub mod presets;
pub mod probe;
pub mod sql;
pub mod tui;
