//! `dupcost`: parse the command line, run the command, print what it made.

use std::io::{self, Write};
use std::process::ExitCode;

use dupcost::cli::{self, Cli, Command};
use dupcost::commands;

fn main() -> ExitCode {
    let cli = match Cli::try_read() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print them and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}", cli::one_line_error(&e));
            return ExitCode::from(2);
        }
    };

    let color = cli.color.for_stdout();
    let result = match &cli.command {
        Command::Estimate(args) => commands::estimate::run(args, color),
        Command::Logs(args) if args.follow.follow => commands::follow::run(args, color),
        Command::Logs(args) => commands::logs::run(args, color),
        Command::Tui(args) => commands::tui::run(args, color),
        Command::Sql(args) => commands::sql::run(args),
        Command::Probe(args) => return probe(args, color),
        Command::Presets { format } => commands::presets::run(*format),
        Command::Completions { shell } => commands::docs::completions(*shell),
        Command::Man { subcommand } => commands::docs::man(subcommand.as_deref()),
    };

    match result {
        Ok(bytes) => print(&bytes),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// `dupcost probe`: the report is written even when a check failed, which exits 1.
fn probe(args: &cli::ProbeArgs, color: bool) -> ExitCode {
    match commands::probe::run(args, color) {
        Ok(probed) if probed.failed => match print(&probed.bytes) {
            code if code == ExitCode::SUCCESS => ExitCode::from(1),
            code => code,
        },
        Ok(probed) => print(&probed.bytes),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Writes the output; a reader that went away (`dupcost ... | head -1`) is not an error.
fn print(bytes: &[u8]) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            ExitCode::from(1)
        }
    }
}
