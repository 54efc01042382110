//! Writes a deterministic, realistic access log to stdout, and its true figures to stderr
//! (or `--truth FILE`) as JSON.
//!
//! ```text
//! cargo run --release --example gen-access-log -- --rows 1000000 --seed 7 --format nginx > big.csv
//! ```

mod generator;

use std::io::Write;

use clap::Parser;
use generator::{Config, Format};

#[derive(Parser)]
#[command(about = "Generate a realistic access log whose true figures are known")]
struct Args {
    /// Rows to write.
    #[arg(long, default_value_t = 10_000)]
    rows: u64,
    /// Seed of the generator: the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// csv, tsv, nginx, alb or traefik.
    #[arg(long, default_value = "csv")]
    format: Format,
    /// Days the timestamps span.
    #[arg(long, default_value_t = 7.0)]
    days: f64,
    /// Base timeout rate of mutating attempts.
    #[arg(long, default_value_t = 0.02)]
    timeout_rate: f64,
    /// Share of timed-out attempts that had in fact succeeded upstream.
    #[arg(long, default_value_t = 0.5)]
    succeeded_share: f64,
    /// Retries of a timed-out intent.
    #[arg(long, default_value_t = 3)]
    retries: u32,
    /// Share of events that are GETs.
    #[arg(long, default_value_t = 0.3)]
    get_share: f64,
    /// Share of mutating intents sending an idempotency key.
    #[arg(long, default_value_t = 1.0)]
    key_share: f64,
    /// CRLF line endings.
    #[arg(long)]
    crlf: bool,
    /// Quoted fields with embedded delimiters, quotes, newlines and non-UTF-8 bytes.
    #[arg(long)]
    tricky_quotes: bool,
    /// Add a bad row after every N rows.
    #[arg(long, default_value_t = 0)]
    bad_every: u64,
    /// Write the true figures here instead of stderr.
    #[arg(long)]
    truth: Option<std::path::PathBuf>,
}

fn main() -> std::io::Result<()> {
    let a = Args::parse();
    let cfg = Config {
        rows: a.rows,
        seed: a.seed,
        format: a.format,
        days: a.days,
        timeout_rate: a.timeout_rate,
        succeeded_share: a.succeeded_share,
        retries: a.retries,
        get_share: a.get_share,
        key_share: a.key_share,
        crlf: a.crlf,
        tricky_quotes: a.tricky_quotes,
        bad_every: a.bad_every,
        ..Config::default()
    };
    let stdout = std::io::stdout();
    let truth = match generator::generate(&cfg, stdout.lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        other => other?,
    };
    let json = serde_json::json!({
        "rows": truth.rows,
        "bad_rows": truth.bad_rows,
        "mutating_attempts": truth.mutating_attempts,
        "intents": truth.intents,
        "timed_out": truth.timed_out,
        "timed_out_succeeded": truth.timed_out_succeeded,
        "max_attempts": truth.max_attempts,
        "days_covered": truth.days_covered(),
        "requests_per_day": truth.requests_per_day(),
        "timeout_rate": truth.timeout_rate(),
        "succeeded_share": truth.succeeded_share(),
    });
    match a.truth {
        Some(path) => std::fs::write(path, format!("{json:#}\n")),
        None => writeln!(std::io::stderr(), "{json}"),
    }
}
