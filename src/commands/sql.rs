//! `dupcost sql`: the query that measures what `dupcost logs` does, in one engine's dialect.

use crate::cli::SqlArgs;
use crate::error::{Error, Result};

/// The query, ending in a newline; a duration read in an assumed unit is warned of on stderr.
pub fn run(args: &SqlArgs) -> Result<Vec<u8>> {
    let (query, warnings) =
        crate::sql::build_with_warnings(&crate::run::sql_options(args)).map_err(Error::Usage)?;
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
    Ok(query.into_bytes())
}
