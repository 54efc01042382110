//! `dupcost sql`: the query that measures what `dupcost logs` does, in one engine's dialect.

use crate::cli::SqlArgs;
use crate::error::{Error, Result};

/// The query, ending in a newline.
pub fn run(args: &SqlArgs) -> Result<Vec<u8>> {
    let query = crate::sql::build(&args.options()).map_err(Error::Usage)?;
    Ok(query.into_bytes())
}
