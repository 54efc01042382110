//! `dupcost completions SHELL` and `dupcost man`: generated from the same clap definition.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::error::{Error, Result};

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<Vec<u8>> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "dupcost", &mut out);
    Ok(out)
}

/// The man page in roff: dupcost(1), or dupcost-SUBCOMMAND(1), as git names its pages.
pub fn man(subcommand: Option<&str>) -> Result<Vec<u8>> {
    let command = Cli::command();
    let page = match subcommand {
        None => command,
        Some(name) => {
            let sub = command.find_subcommand(name).cloned().ok_or_else(|| {
                let names: Vec<_> = command
                    .get_subcommands()
                    .map(|s| s.get_name().to_string())
                    .collect();
                Error::Usage(format!(
                    "man: no subcommand '{name}' (one of: {})",
                    names.join(", ")
                ))
            })?;
            sub.name(format!("dupcost-{name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out)?;
    Ok(out)
}
