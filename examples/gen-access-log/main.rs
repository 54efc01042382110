//! Writes a deterministic, realistic access log to stdout, and its true figures to stderr
//! (or `--truth FILE`) as JSON.
//!
//! ```text
//! cargo run --release --example gen-access-log -- --rows 1000000 --seed 7 --format nginx > big.csv
//! ```

mod generator;
#[path = "keyless.rs"]
mod keyless;
#[path = "receiver.rs"]
mod receiver;

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
    /// csv, tsv, nginx, alb, traefik, envoy or haproxy (CSV with each proxy's field names),
    /// or raw lines as the server writes them: nginx-log, apache-log, haproxy-log, envoy-log,
    /// istio-log, alb-log, elb-log, cloudfront-log, caddy-json, traefik-json, envoy-json,
    /// nginx-json, iis-log, cloudflare-json, gcp-json, azure-json, kong-json, apigateway-clf,
    /// apigateway-csv, apigateway-xml.
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
    /// Share of timed-out attempts whose outcome the proxy log does not show (`-`, its own
    /// 504, Traefik's echoed status).
    #[arg(long, default_value_t = 0.0)]
    unknown_share: f64,
    /// Share of failed timed-out attempts that never reached the backend.
    #[arg(long, default_value_t = 0.0)]
    never_reached_share: f64,
    /// Add a per-attempt request id column (Envoy and HAProxy always have one).
    #[arg(long)]
    request_ids: bool,
    /// The key column holds a new value on every attempt.
    #[arg(long)]
    per_attempt_keys: bool,
    /// From the middle row on, write timestamps this many seconds earlier.
    #[arg(long, default_value_t = 0)]
    clock_back: i64,
    /// Also write the backend's own log (request id and status of every attempt that
    /// reached it) to this file.
    #[arg(long)]
    outcomes: Option<std::path::PathBuf>,
    /// Write the backend's log as JSON lines instead of CSV.
    #[arg(long)]
    outcomes_json: bool,
    /// Write a keyless log instead (issue 13): client addresses, user agents and request
    /// lengths, no idempotency key; --rows counts its intents. Uses --seed, --days,
    /// --timeout-rate, --succeeded-share, --retries, --unknown-share.
    #[arg(long)]
    keyless: bool,
    /// With --keyless: clients behind one NAT address, each posting once a minute.
    #[arg(long, default_value_t = 0)]
    nat_clients: u64,
    /// With --keyless: also write each intent's idempotency key.
    #[arg(long)]
    keyless_keys: bool,
    /// Write a webhook receiver's own log instead (issue 28): --rows events, each delivered
    /// until a delivery is answered within --sender-timeout or --schedule runs out, with the
    /// sender's event id (`headers.webhook-id`, JSON lines). Uses --seed, --days,
    /// --timeout-rate (share of deliveries past the sender's timeout), --succeeded-share
    /// (share of those the receiver processed anyway).
    #[arg(long)]
    receiver: bool,
    /// With --receiver: the sender's per-attempt timeout in seconds.
    #[arg(long, default_value_t = 15.0)]
    sender_timeout: f64,
    /// With --receiver: the sender's redelivery delays (Svix's by default).
    #[arg(long, default_value = "5s,5m,30m,2h,5h,10h,10h")]
    schedule: dupcost::model::Delays,
    /// With --receiver: CSV with a `webhook-id` column instead of JSON lines.
    #[arg(long)]
    receiver_csv: bool,
    /// Short rows: 16-character keys, no user agent (about 85 bytes a CSV row).
    #[arg(long, conflicts_with = "long_rows")]
    short_rows: bool,
    /// Long rows: browsers' user agents (CSV) and a query string on every path (about 255
    /// bytes a CSV row).
    #[arg(long)]
    long_rows: bool,
    /// Mutating intents go to one of N route templates (`/v1/{resource}/{id}/{action}`, at
    /// most 10,000, at least 4, each with one method) instead of the six endpoints.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    templates: u32,
    /// Write the true figures here instead of stderr.
    #[arg(long)]
    truth: Option<std::path::PathBuf>,
}

fn main() -> std::io::Result<()> {
    let a = Args::parse();
    if a.keyless {
        return keyless_main(&a);
    }
    if a.receiver {
        return receiver_main(&a);
    }
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
        unknown_share: a.unknown_share,
        never_reached_share: a.never_reached_share,
        request_ids: a.request_ids || a.outcomes.is_some(),
        per_attempt_keys: a.per_attempt_keys,
        clock_back_secs: a.clock_back,
        backend_json: a.outcomes_json,
        row_size: if a.short_rows {
            generator::RowSize::Short
        } else if a.long_rows {
            generator::RowSize::Long
        } else {
            generator::RowSize::Normal
        },
        templates: a.templates,
        ..Config::default()
    };
    let backend = a.outcomes.as_ref().map(std::fs::File::create).transpose()?;
    let stdout = std::io::stdout();
    let truth = match generator::generate_with_backend(&cfg, stdout.lock(), backend) {
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
        "timed_out_unknown": truth.timed_out_unknown,
        "timed_out_truly_succeeded": truth.timed_out_truly_succeeded,
        "never_reached": truth.backend.never_reached_ts.len(),
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

/// `--receiver`: a webhook receiver's own log on stdout, its truth as JSON.
fn receiver_main(a: &Args) -> std::io::Result<()> {
    let cfg = receiver::ReceiverConfig {
        events: a.rows,
        seed: a.seed,
        days: a.days,
        start: 1_793_491_200.0, // 2026-11-01T00:00:00Z
        timeout_rate: a.timeout_rate,
        succeeded_share: a.succeeded_share,
        sender_timeout: a.sender_timeout,
        schedule: a.schedule.as_slice().to_vec(),
        csv: a.receiver_csv,
    };
    let stdout = std::io::stdout();
    let truth = match receiver::generate_receiver(&cfg, stdout.lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        other => other?,
    };
    let days = truth.days_covered();
    let json = serde_json::json!({
        "events": truth.events,
        "deliveries": truth.deliveries,
        "timed_out": truth.timed_out,
        "timed_out_processed": truth.timed_out_processed,
        "processed_twice": truth.processed_twice,
        "extra_processings": truth.extra_processings,
        "days_covered": days,
        "events_per_day": truth.events as f64 / days,
        "timeout_rate": truth.timed_out as f64 / truth.deliveries as f64,
        "succeeded_share": truth.timed_out_processed as f64 / truth.timed_out as f64,
        "extra_processings_per_day": truth.extra_processings as f64 / days,
    });
    match &a.truth {
        Some(path) => std::fs::write(path, format!("{json:#}\n")),
        None => writeln!(std::io::stderr(), "{json}"),
    }
}

/// `--keyless`: the keyless log on stdout, its truth as JSON.
fn keyless_main(a: &Args) -> std::io::Result<()> {
    let cfg = keyless::KeylessConfig {
        intents: a.rows,
        seed: a.seed,
        days: a.days,
        timeout_rate: a.timeout_rate,
        succeeded_share: a.succeeded_share,
        retries: a.retries,
        unknown_share: a.unknown_share,
        nat_clients: a.nat_clients,
        keys: a.keyless_keys,
        request_ids: a.request_ids || a.outcomes.is_some(),
        clients: (a.rows / 2).clamp(1, 1 << 24),
        ..keyless::KeylessConfig::default()
    };
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    let backend = match &a.outcomes {
        Some(path) => Some(std::io::BufWriter::new(std::fs::File::create(path)?)),
        None => None,
    };
    let truth = match keyless::generate_keyless_with_backend(&cfg, out, backend) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        other => other?,
    };
    let histogram: Vec<_> = truth
        .attempts_per_intent
        .iter()
        .map(|(a, n)| serde_json::json!({"attempts": a, "intents": n}))
        .collect();
    let json = serde_json::json!({
        "rows": truth.rows,
        "mutating_attempts": truth.mutating_attempts,
        "intents": truth.intents,
        "timed_out": truth.timed_out,
        "attempts_per_intent": histogram,
        "executed_duplicates": truth.executed_duplicates,
        "executed_twice": truth.executed_twice,
        "backend_rows": truth.backend_rows,
        "conflicts": truth.conflicts,
        "nat_attempts": truth.nat_attempts,
    });
    match &a.truth {
        Some(path) => std::fs::write(path, format!("{json:#}\n")),
        None => writeln!(std::io::stderr(), "{json}"),
    }
}
