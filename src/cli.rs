//! The whole command line, in one place, with help on every flag.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::inputs::{self, Input};
use crate::logs::{self, DurationUnit, Role};
use crate::model::{Jitter, Store};
pub use crate::report::Format;
use crate::report::svg::SweepFigure;
use crate::sweep::Sweep;
use crate::units::{Count, Duration, Priced, Rate, Size};

const ABOUT: &str = "What missing idempotency costs: duplicate charges, refunds, unanswered customers, \
and the key store that fixes it.";

const LONG_ABOUT: &str = "\
What missing idempotency costs: duplicate charges, refunds, unanswered customers, and the key store \
that fixes it.

A client that hears nothing in time cannot tell \"never arrived\" from \"done, but the reply was lost\". \
If it retries and the server cannot recognise the retry, the work runs twice. dupcost estimates how often \
that happens, what it costs, and how big the idempotency-key store that prevents it must be.";

const ESTIMATE_EXAMPLES: &str = "\
Examples:
  dupcost estimate                                   the article's scenario (20,000 a day, 0.2% timeouts)
  dupcost estimate --requests-per-day 1.5M --timeout-rate 0.5% --order-value '$12.50'
  dupcost estimate --retries 0                       who is left without an answer if the client never retries
  dupcost estimate --sweep retries=0..5              compare retry policies
  dupcost estimate --sweep timeout-rate=0.1%..2%:20 --format csv > sweep.csv
  dupcost estimate --scenario checkout.json --format json | jq .refund_cost
  dupcost estimate --preset svix-webhooks --ttl 24h    a 24 h dedupe store against Svix
  dupcost estimate --schedule 5s,5m,30m,2h --attempt-timeout 15s
  DUPCOST_ORDER_VALUE=120 dupcost estimate";

const LOGS_EXAMPLES: &str = "\
Examples:
  dupcost logs samples/access-log.csv                   measure and estimate from a log
  dupcost logs access.log.1.gz access.log               rotated files, gzip detected by content
  zcat old/*.gz | dupcost logs -                        stdin
  dupcost logs --column status=code --column upstream_status=backend_code app.csv
  dupcost logs --client-timeout 30s --path '^/v1/payments' --since 2026-11-01 nginx.csv
  dupcost logs --order-value '$85' --format json access.csv | jq .observed.per_endpoint
  dupcost logs --succeeded-share 40% no-upstream-column.csv
  dupcost logs --preset svix-webhooks hooks.jsonl       a webhook receiver's own log
  dupcost logs access.log --follow --window 1h           live, during an incident (Ctrl-C ends)

Columns are recognised from the header (generic, nginx, AWS ALB and Traefik names); the
derived inputs are shown with the rows behind them, and any of them can be overridden by
its scenario flag.";

const SQL_EXAMPLES: &str = "\
Examples:
  dupcost sql --engine trino --preset athena-alb --table alb_access_logs > dupcost.sql
  dupcost sql --engine duckdb --table \"read_csv('access.csv')\" --since 2026-11-01
  dupcost sql --engine clickhouse --table logs.access --column idempotency_key=idem_key
  dupcost estimate --observed result.csv             the report, from the engine's result

The result is one small table (a total row, a row per day, a row per endpoint): export it
as CSV or JSON lines and give it to dupcost estimate --observed.";

// Each command's `-h` fits a screen: it starts with a few examples (`*_FIRST`) and shows the
// flags that move the money and the few most asked for (`*_SHORT`, by argument id); `--help`
// lists every flag, and the full examples at its end.

const ESTIMATE_FIRST: &str = "\
Examples:
  dupcost estimate --requests-per-day 1.5M --timeout-rate 0.5% --order-value '$12.50'
  dupcost estimate --preset stripe --retries 0
  dupcost estimate --sweep retries=0..5 --format csv > sweep.csv";

const ESTIMATE_SHORT: [&str; 9] = [
    "order_value",
    "requests_per_day",
    "timeout_rate",
    "succeeded_share",
    "retries",
    "preset",
    "scenario",
    "format",
    "sweep",
];

const LOGS_FIRST: &str = "\
Examples:
  dupcost logs access.log --order-value '$85'
  cat access.log | dupcost logs --format json
  dupcost logs --log-format combined --client-timeout 30s nginx.log";

const LOGS_SHORT: [&str; 8] = [
    "files",
    "order_value",
    "requests_per_day",
    "timeout_rate",
    "succeeded_share",
    "retries",
    "log_format",
    "format",
];

const TUI_FIRST: &str = "\
Examples:
  dupcost tui --order-value '$40'
  dupcost tui --logs access.log
  dupcost tui --scenario checkout.json --save-to review.json";

const TUI_LOG_FLAGS: &str = "\
--logs reads logs as dupcost logs does, with its flags (--input-format, --column, --since, ...):
see dupcost logs -h. dupcost tui --help lists every flag.";

const TUI_SHORT: [&str; 8] = [
    "order_value",
    "requests_per_day",
    "timeout_rate",
    "succeeded_share",
    "retries",
    "preset",
    "scenario",
    "from_logs",
];

const SQL_FIRST: &str = "\
Examples:
  dupcost sql --engine trino --preset athena-alb --table alb_access_logs > dupcost.sql
  dupcost sql --engine duckdb --table \"read_csv('access.csv')\" --since 2026-11-01
  dupcost estimate --observed result.csv";

const SQL_SHORT: [&str; 8] = [
    "engine",
    "table",
    "preset",
    "column",
    "since",
    "until",
    "path",
    "client_timeout",
];

const PROBE_FIRST: &str = "\
Examples:
  dupcost probe http://127.0.0.1:8080/v1/orders --data '{\"amount\": 40}'
  dupcost probe https://staging.example.com/v1/payments --data @payment.json --id /id --yes
  dupcost probe http://localhost:8080/orders --order-value 12 --format json";

const PROBE_SHORT: [&str; 10] = [
    "url",
    "data",
    "header",
    "id",
    "yes",
    "concurrency",
    "rounds",
    "format",
    "order_value",
    "requests_per_day",
];

/// Keeps `arg` in `-h` only when its id is among `shown`.
fn short(arg: clap::Arg, shown: &[&str]) -> clap::Arg {
    let keep = shown.contains(&arg.get_id().as_str());
    arg.hide_short_help(!keep)
}

/// `dupcost`: the command line.
#[derive(Debug, Parser)]
#[command(name = "dupcost", version, about = ABOUT, long_about = LONG_ABOUT, propagate_version = true)]
#[command(arg_required_else_help = true, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// When to use colour: auto (only on a terminal, never with NO_COLOR), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN", hide_short_help = true)]
    pub color: ColorChoice,
}

impl Cli {
    /// Parses the command line of this process: [`Cli::try_read_from`] over `std::env::args_os`.
    pub fn try_read() -> Result<Cli, clap::Error> {
        Cli::try_read_from(std::env::args_os())
    }

    /// Parses a command line once, in one place: clap's parse, and which scenario inputs came
    /// from their `DUPCOST_*` variable rather than a flag (clap's `ValueSource`), which the
    /// parsed struct alone cannot tell.
    pub fn try_read_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
        if let (Some(scenario), Some((_, sub))) = (cli.command.scenario_mut(), matches.subcommand())
        {
            scenario.from_env = FromEnv::of(sub);
            if let Some(note) = timeout_rate_note(sub) {
                eprintln!("{note}");
            }
        }
        Ok(cli)
    }
}

/// The subcommands.
// Parsed once per run: the size of the largest variant costs nothing worth a Box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Estimate duplicates, refunds, unanswered customers and the key store from flags.
    #[command(
        before_help = ESTIMATE_FIRST,
        after_long_help = ESTIMATE_EXAMPLES,
        mut_args(|a| short(a, &ESTIMATE_SHORT))
    )]
    Estimate(EstimateArgs),

    /// Measure the inputs from access logs (nginx, Apache, Envoy, HAProxy, AWS, JSON, CSV ...)
    /// and estimate from them.
    ///
    /// Reads nginx, Apache, Envoy and Istio, HAProxy, AWS ALB/ELB/CloudFront/API Gateway, IIS,
    /// JSON lines (Caddy, Traefik, Kong, GCP, Azure, Cloudflare ...) and CSV/TSV logs, plain or
    /// gzip, inside container envelopes or not, each told from its first lines.
    #[command(
        before_help = LOGS_FIRST,
        after_long_help = LOGS_EXAMPLES,
        mut_args(|a| short(a, &LOGS_SHORT))
    )]
    Logs(LogArgs),
    /// Explore a scenario in the terminal: move the inputs and watch the costs move.
    #[command(
        before_help = TUI_FIRST,
        after_help = TUI_LOG_FLAGS,
        after_long_help = TUI_EXAMPLES,
        mut_args(|a| short(a, &TUI_SHORT))
    )]
    Tui(TuiArgs),

    /// Print one SQL query that measures what `dupcost logs` does, for logs too big for one
    /// machine; run it in the engine and read its result with `dupcost estimate --observed`.
    #[command(
        before_help = SQL_FIRST,
        after_long_help = SQL_EXAMPLES,
        mut_args(|a| short(a, &SQL_SHORT))
    )]
    Sql(SqlArgs),

    /// Send real requests to an endpoint you own and check whether its idempotency holds:
    /// a replay, concurrent retries with one key, a key reused with another payload, no key.
    #[command(
        before_help = PROBE_FIRST,
        after_long_help = PROBE_EXAMPLES,
        mut_args(|a| short(a, &PROBE_SHORT))
    )]
    Probe(ProbeArgs),
    /// List every --preset: the payment APIs' key windows and the webhook senders' timeouts and
    /// retry schedules, each value with the documentation it comes from
    Presets {
        /// table for people, json for scripts
        #[arg(long, short = 'f', value_enum, default_value_t = PresetsFormat::Table)]
        format: PresetsFormat,
    },

    /// Print a shell completion script to stdout (e.g. `dupcost completions bash > /etc/bash_completion.d/dupcost`).
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Print a man page (roff) to stdout: dupcost(1), or dupcost-SUBCOMMAND(1) when one is named
    /// (e.g. `dupcost man > dupcost.1 && man ./dupcost.1`).
    Man {
        /// The subcommand whose page to print (estimate, logs, tui, ...)
        subcommand: Option<String>,
    },
}

impl Command {
    /// The scenario inputs of a command that takes them (estimate, logs, tui).
    fn scenario_mut(&mut self) -> Option<&mut ScenarioArgs> {
        match self {
            Command::Estimate(args) => Some(&mut args.scenario),
            Command::Logs(args) => Some(&mut args.scenario),
            Command::Tui(args) => Some(&mut args.scenario),
            _ => None,
        }
    }
}

/// `dupcost estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    // The help is an attribute, not a doc comment: rustdoc would take `[:STEPS]` for a link.
    #[arg(
        long,
        value_name = "NAME=FROM..TO[:STEPS]",
        help_heading = "Sweep and charts",
        help = "Vary one input over a range, e.g. retries=0..5 or timeout-rate=0.1%..2%:20",
        long_help = "Vary one input over a range: NAME=FROM..TO[:STEPS], e.g. retries=0..5 or \
                timeout-rate=0.1%..2%:20. STEPS counts the values, ends included (default: every \
                whole number for retries, TTL and key size, up to 101 of them; 11 values \
                otherwise)"
    )]
    pub sweep: Option<Sweep>,

    /// Also write SVG charts: FILE.svg charts a --sweep; a directory gets the report's charts
    /// (duplicates by retries, refunds by timeout rate; a sweep's figure), which --format
    /// markdown links. Charts are SVG only: another image name (out.png) is refused
    #[arg(long, value_name = "FILE.svg|DIR", help_heading = "Sweep and charts")]
    pub plot: Option<PathBuf>,

    /// With --plot: the figure to chart
    #[arg(long, value_enum, default_value_t = SweepFigure::Refunds, value_name = "FIGURE", requires = "plot", help_heading = "Sweep and charts")]
    pub plot_y: SweepFigure,

    /// The result of the query `dupcost sql` printed, as the engine exported it (CSV or JSON
    /// lines; - reads stdin): the report `dupcost logs` gives, measured inputs and evidence
    /// included; flags still win over what it measured
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "sweep",
        help_heading = "Measured by an engine"
    )]
    pub observed: Option<PathBuf>,

    /// With --observed: most timed-out attempts with an unknown outcome for a measured
    /// succeeded share
    #[arg(
        long,
        value_name = "RATE",
        default_value = Rate(crate::findings::DEFAULT_MAX_UNKNOWN).to_string(),
        value_parser = parse_rate,
        requires = "observed",
        help_heading = "Measured by an engine"
    )]
    pub max_unknown: f64,

    /// With --observed: shortest span of timestamps scaled to requests a day
    #[arg(
        long,
        value_name = "DURATION",
        default_value = duration_default(crate::findings::DEFAULT_MIN_SPAN),
        value_parser = parse_std_duration,
        requires = "observed",
        help_heading = "Measured by an engine"
    )]
    pub min_span: std::time::Duration,
}

/// `dupcost sql`.
#[derive(Debug, Args)]
pub struct SqlArgs {
    /// The engine whose SQL dialect the query is written in (trino for Athena)
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: crate::sql::Engine,

    /// The table (or view) holding the logs, as the engine names it, e.g. logs.alb_access_logs
    #[arg(long, value_name = "NAME")]
    pub table: String,

    /// The table's schema: AWS's Athena table for ALB or CloudFront logs, or columns named
    /// after the roles
    #[arg(long, value_enum, default_value_t = crate::sql::Preset::Generic, value_name = "PRESET")]
    pub preset: crate::sql::Preset,

    /// Use the SQL expression EXPR for ROLE (timestamp, method, path, status, upstream_status,
    /// idempotency_key, bytes, flags, request_id; client_addr, forwarded_for, user_agent,
    /// request_length for fingerprints; duration), over the preset's; ROLE= (nothing) when the
    /// table has no such column; repeatable
    #[arg(long, value_name = "ROLE=EXPR", value_parser = parse_column)]
    pub column: Vec<(Role, String)>,

    #[command(flatten)]
    pub filters: FilterArgs,

    /// Only requests whose path matches this regular expression (in the engine's regex
    /// syntax; the common subset of RE2 and Java reads the same everywhere)
    #[arg(long, value_name = "REGEX", value_parser = parse_regex)]
    pub path: Option<regex::bytes::Regex>,

    /// The backend's own log as a table (request_id, status, timestamp), joined to the
    /// timed-out attempts by request id with the rules of logs --outcomes; the proxy's request
    /// id is --column request_id=EXPR (default request_id; trace_id for athena-alb)
    #[arg(long, value_name = "NAME")]
    pub outcomes_table: Option<String>,

    /// Use the SQL expression EXPR for ROLE (request_id, status, timestamp) in the
    /// --outcomes-table; timestamp= when it has none; repeatable
    #[arg(long, value_name = "ROLE=EXPR", value_parser = parse_column)]
    pub outcomes_column: Vec<(Role, String)>,

    /// A mutating request whose duration (--column duration=EXPR) reached this timed out too
    /// (e.g. 30s, 1500ms)
    #[arg(long, value_name = "DURATION", value_parser = parse_std_duration)]
    pub client_timeout: Option<std::time::Duration>,

    /// Unit of the duration column's plain numbers: s, ms, us or ns [default: from its name, as logs reads
    /// a header]
    #[arg(long, value_name = "UNIT", requires = "client_timeout")]
    pub duration_unit: Option<DurationUnit>,

    /// Whose log the table holds, as for logs: proxy, server (the server's or webhook
    /// receiver's own: its status is the outcome) or auto (server when no upstream_status is
    /// mapped and the key column is named as a webhook event id)
    #[arg(long, value_name = "SIDE", default_value = "auto", value_parser = ["auto", "proxy", "server"])]
    pub log_side: String,
}

/// `dupcost logs`. The inputs the logs measure show "[default: measured from the logs]", not
/// the model's default (which a flag replaces, and the logs do first).
#[derive(Debug, Args)]
#[command(
    mut_arg("requests_per_day", |a| measured_help(a, Input::RequestsPerDay)),
    mut_arg("timeout_rate", |a| measured_help(a, Input::TimeoutRate)),
    mut_arg("succeeded_share", |a| measured_help(a, Input::SucceededShare)),
    mut_arg("retries", |a| measured_help(a, Input::Retries)),
    mut_arg("body_bytes", |a| measured_help(a, Input::BodyBytes))
)]
pub struct LogArgs {
    /// Access logs, plain or gzip; - or none reads stdin
    ///
    /// Access logs in any format --input-format names, plain or gzip, told from their first
    /// lines (docs/FORMATS.md); - reads stdin, as does no FILE when stdin is not a terminal.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    // The scenario before the reading flags: help lists the flags that move the money first.
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    #[command(flatten)]
    pub read: LogReadArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Also write SVG charts: FILE.svg charts mutating requests, timeouts and
    /// timed-out-but-succeeded per day; a directory gets the report's charts (also timeout rate
    /// per day, refunds per endpoint), which --format markdown links. Charts are SVG only:
    /// another image name (out.png) is refused
    #[arg(long, value_name = "FILE.svg|DIR", help_heading = "Output")]
    pub plot: Option<PathBuf>,

    /// Also write the scenario measured from the logs as a --scenario file
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub save_scenario: Option<PathBuf>,

    #[command(flatten)]
    pub follow: FollowArgs,

    /// With --follow: serve the report as Prometheus metrics at http://ADDR/metrics
    ///
    /// Listens only on ADDR (IP:PORT; port 0 picks a free one, named on stderr). The reports
    /// then go to /metrics instead of stdout. Every value is a figure of the report `dupcost
    /// logs --format json` gives of the same lines; the names: docs/METRICS.md.
    #[arg(
        long,
        value_name = "ADDR",
        value_parser = parse_listen_addr,
        requires = "follow",
        help_heading = "Following"
    )]
    pub metrics: Option<std::net::SocketAddr>,
}

/// `--metrics`'s address: an IP and a port, nothing resolved.
fn parse_listen_addr(text: &str) -> Result<std::net::SocketAddr, String> {
    text.parse().map_err(|_| {
        format!("'{text}' is not an address to listen on: give IP:PORT, e.g. 127.0.0.1:9464")
    })
}

/// An input's help where the logs measure it: its meaning and forms, and where its value
/// comes from instead of the model's default.
fn measured_help(arg: clap::Arg, input: Input) -> clap::Arg {
    let from = "[default: measured from the logs; a flag overrides them]";
    arg.help(format!("{} [default: measured]", input.meaning()))
        .long_help(format!("{} As {} {from}", input.meaning(), input.forms()))
}

/// `--follow`: a growing log reported on as it grows. Shared with the TUI.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Following")]
pub struct FollowArgs {
    /// Keep reading as lines are appended, and report on every tick (Ctrl-C ends)
    ///
    /// Follows across rotation and truncation. Each report is redrawn in place on a terminal,
    /// and is one JSON report per line when piped or with --format json; Ctrl-C ends with a
    /// last complete report.
    #[arg(long)]
    pub follow: bool,

    /// With --follow: a fresh report this often
    #[arg(
        long,
        value_name = "DURATION",
        default_value = duration_default(logs::DEFAULT_EVERY),
        value_parser = parse_positive_duration,
        requires = "follow"
    )]
    pub every: std::time::Duration,

    /// With --follow: report on this much log time up to the latest line (1h)
    ///
    /// Requests a day are then scaled from the window, and the report names it.
    #[arg(long, value_name = "DURATION", value_parser = parse_positive_duration, requires = "follow")]
    pub window: Option<std::time::Duration>,
}

fn parse_positive_duration(text: &str) -> Result<std::time::Duration, String> {
    match parse_std_duration(text)? {
        d if d.is_zero() => Err(format!(
            "'{text}' is no time: give a duration above 0, e.g. 2s"
        )),
        d => Ok(d),
    }
}

/// How logs are read and which rows count. Shared with the TUI's `--from-logs`.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Reading logs")]
pub struct LogReadArgs {
    // Its help names every row of the formats' catalog (`logs::catalog::help`).
    #[arg(long, value_name = "FORMAT", help = logs::catalog::help(), default_value_t = logs::InputFormat::Auto, hide_default_value = true)]
    pub input_format: logs::InputFormat,

    /// What wraps each access line: auto, none, cri, docker, json-log, json-message,
    /// json-event-original, json-line, syslog, syslog5424, kubectl, kubectl-timestamps,
    /// timestamped, logcli, stern or compose [default: auto, told from each file's first lines]
    #[arg(long, value_name = "ENVELOPE", default_value_t = logs::EnvelopeChoice::Auto, hide_default_value = true)]
    pub envelope: logs::EnvelopeChoice,

    /// The server's own format string (nginx, Apache, Envoy, HAProxy) or a preset: combined, main
    ///
    /// The server's own format: an nginx log_format ('$remote_addr ... $request_time'), an
    /// Apache LogFormat ('%h %l %u %t "%r" %>s %b %D'), an Envoy format string, an HAProxy
    /// log-format ('%ci:%cp [%tr] ... %{+Q}r'), or a preset: combined, common, vcombined,
    /// main, upstreaminfo, envoy, istio, httplog; for iis or cloudfront, a '#Fields: ...' line
    #[arg(long, value_name = "STRING")]
    pub log_format: Option<String>,

    /// The headers HAProxy captures, in their haproxy.cfg order (Host,Idempotency-Key)
    ///
    /// As 'capture request header' lists them in haproxy.cfg, comma-separated: each value of
    /// the {a|b} block becomes a field named after its header (Idempotency-Key, X-Request-Id).
    #[arg(long, value_name = "HEADERS", value_delimiter = ',')]
    pub haproxy_captures: Vec<String>,

    /// Field delimiter: , tab ; | or any one character [default: sniffed from the header]
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,

    /// Read ROLE from the field NAME (timestamp, method, path, status, upstream_status,
    /// duration, idempotency_key, bytes, flags, request_id, client_addr, forwarded_for,
    /// user_agent, request_length, proxy_attempts); repeatable
    ///
    /// NAME is a CSV/TSV header, a JSON name (dotted when nested), a log_format variable
    /// without its $ (upstream_status), or extra_N for the Nth field after a detected layout.
    #[arg(long, value_name = "ROLE=NAME", value_parser = parse_column)]
    pub column: Vec<(Role, String)>,

    /// Unit of the duration column's plain numbers: s, ms, us or ns [default: from its name]
    #[arg(long, value_name = "UNIT")]
    pub duration_unit: Option<DurationUnit>,

    /// Read only what is named: no field's role or duration's unit read from its values
    ///
    /// Without it, a duration whose unit nothing says takes it from its values where they
    /// leave one reading, and the fields after an nginx layout are named by their values
    /// (upstream status, request time, request id); each is marked "inferred from its
    /// values" with the flag that makes it given. With it, they are read as before:
    /// milliseconds assumed, extra_N unnamed.
    #[arg(long)]
    pub no_infer: bool,

    /// strftime format of the timestamps, e.g. '%d.%m.%Y %H:%M:%S' [default: RFC 3339, nginx
    /// $time_local or epoch numbers]
    #[arg(long, value_name = "FORMAT")]
    pub timestamp_format: Option<String>,

    #[command(flatten)]
    pub filters: FilterArgs,

    /// A mutating request whose duration reached this timed out too (e.g. 30s, 1500ms)
    /// [default: a webhook sender's --preset gives its timeout]
    #[arg(long, value_name = "DURATION", value_parser = parse_std_duration, help_heading = "Which requests count")]
    pub client_timeout: Option<std::time::Duration>,

    /// Traces only: the share of traces head sampling kept (e.g. 0.25), when their
    /// tracestate has no `ot=th:` threshold; counts are scaled by its inverse, rates are not
    #[arg(long, value_name = "SHARE", value_parser = parse_sample_rate)]
    pub sample_rate: Option<f64>,

    /// Whose log it is: proxy, server (a webhook receiver's own) or auto
    ///
    /// proxy: a proxy's or load balancer's, with outcomes in an upstream column; server: the
    /// server's or webhook receiver's own, whose status is the outcome; auto: server when there
    /// is no upstream column and the key column is a webhook event id.
    #[arg(long, value_name = "SIDE", default_value = "auto", value_parser = ["auto", "proxy", "server"], help_heading = "Outcomes and evidence")]
    pub log_side: String,

    /// Only requests whose path matches this regular expression
    #[arg(long, value_name = "REGEX", value_parser = parse_regex, help_heading = "Which requests count")]
    pub path: Option<regex::bytes::Regex>,

    /// The backend's own log (request id and status): timed-out attempts take its outcome
    #[arg(long, value_name = "FILE", help_heading = "Outcomes and evidence")]
    pub outcomes: Vec<PathBuf>,

    /// Use HEADER for ROLE (request_id, status, timestamp) in the --outcomes logs; nested
    /// JSON names are dotted (res.statusCode); repeatable
    #[arg(
        long,
        value_name = "ROLE=HEADER",
        value_parser = parse_column,
        hide_short_help = true, help_heading = "Outcomes and evidence")]
    pub outcomes_column: Vec<(Role, String)>,

    /// Most timed-out attempts with an unknown outcome for a measured succeeded share
    #[arg(
        long,
        value_name = "RATE",
        default_value = Rate(crate::findings::DEFAULT_MAX_UNKNOWN).to_string(),
        value_parser = parse_rate,
        help_heading = "Outcomes and evidence"
    )]
    pub max_unknown: f64,

    /// Shortest span of timestamps scaled to requests a day
    #[arg(
        long,
        value_name = "DURATION",
        default_value = duration_default(crate::findings::DEFAULT_MIN_SPAN),
        value_parser = parse_std_duration,
        help_heading = "Outcomes and evidence"
    )]
    pub min_span: std::time::Duration,

    /// Stop at the first bad row instead of skipping and counting it
    #[arg(long)]
    pub strict: bool,

    /// Threads for reading large files in chunks [default: one per core, at most 4]
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    pub threads: usize,

    /// Exit 2 where the logs cannot measure requests a day or the succeeded share, as scripts
    /// had it before, instead of a report with the figure assumed, bounded and marked
    #[arg(long, help_heading = "Outcomes and evidence")]
    pub require_measured: bool,
}

/// The filters `logs` and `sql` share: the same flags with the same meaning, so a query
/// counts what `logs` counts.
#[derive(Debug, Clone, Args)]
pub struct FilterArgs {
    /// Keep rows at or after this time: RFC 3339 or a date (midnight UTC)
    #[arg(long, value_name = "TIME", value_parser = logs::parse_time_bound, help_heading = "Which requests count")]
    pub since: Option<i64>,

    /// Keep rows before this time: RFC 3339 or a date (midnight UTC)
    #[arg(long, value_name = "TIME", value_parser = logs::parse_time_bound, help_heading = "Which requests count")]
    pub until: Option<i64>,

    /// Mutating methods: the requests that are intents
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = logs::DEFAULT_METHODS.join(","), help_heading = "Which requests count")]
    pub methods: Vec<String>,

    /// Client-facing statuses that mean the client gave up waiting
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = logs::DEFAULT_TIMEOUT_STATUSES.map(|s| s.to_string()).join(","), help_heading = "Which requests count")]
    pub timeout_status: Vec<u16>,

    /// Attempts with the same idempotency key at most this far apart are one intent
    #[arg(
        long,
        value_name = "DURATION",
        default_value = duration_default(logs::DEFAULT_RETRY_WINDOW),
        value_parser = parse_std_duration, help_heading = "Intents")]
    pub retry_window: std::time::Duration,

    /// Group attempts into intents by key, by fingerprint (client address, user agent,
    /// method, path with query, request length), or auto: by key when a key column is there
    /// (mapped, for sql), else by fingerprint when the client's address is
    #[arg(long, value_name = "HOW", default_value = "auto", value_parser = ["auto", "key", "fingerprint"], help_heading = "Intents")]
    pub intents: String,

    /// A fingerprint that sends more than N attempts in a minute is a shared address (NAT):
    /// its attempts are left out of retry grouping (1 to 255)
    #[arg(
        long,
        value_name = "N",
        default_value_t = logs::DEFAULT_SHARED_RATE,
        value_parser = clap::value_parser!(u8).range(1..), help_heading = "Intents")]
    pub shared_address_rate: u8,
}

/// A default duration as the flag shows and parses it (`1h`).
fn duration_default(d: std::time::Duration) -> String {
    humantime::format_duration(d).to_string()
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.parse::<Rate>().map(|r| r.0)
}

fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        "comma" => Ok(b','),
        "semicolon" => Ok(b';'),
        "pipe" => Ok(b'|'),
        t if t.len() == 1 => Ok(t.as_bytes()[0]),
        _ => Err(format!("'{text}' is not one character: use , tab ; or |")),
    }
}

fn parse_column(text: &str) -> Result<(Role, String), String> {
    let (role, header) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not ROLE=HEADER, e.g. status=http_code"))?;
    Ok((role.parse()?, header.to_string()))
}

fn parse_std_duration(text: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(text.trim())
        .map_err(|_| format!("'{text}' is not a duration: use 30s, 1500ms, 2m or 1h"))
}

fn parse_sample_rate(text: &str) -> Result<f64, String> {
    let share = text
        .trim()
        .strip_suffix('%')
        .map_or_else(
            || text.trim().parse::<f64>(),
            |p| p.trim().parse::<f64>().map(|v| v / 100.0),
        )
        .map_err(|_| format!("'{text}' is not a share: use 0.25 or 25%"))?;
    if share > 0.0 && share <= 1.0 {
        Ok(share)
    } else {
        Err(format!(
            "'{text}' is not a share of traces kept: give more than 0 and at most 1 (or 100%)"
        ))
    }
}

fn parse_regex(text: &str) -> Result<regex::bytes::Regex, String> {
    regex::bytes::Regex::new(text).map_err(|e| format!("not a valid regular expression: {e}"))
}

const TUI_EXAMPLES: &str = "\
Examples:
  dupcost tui                                        start from the article's scenario
  dupcost tui --scenario checkout.json               start from a saved scenario
  dupcost tui --logs access.csv                      start from what the logs measured
  dupcost tui --timeout-rate 1% --save-to review.json

Keys: Up/Down select an input, Left/Right step it, Enter types a value, p pins a baseline,
s saves the scenario, ? shows every key, q quits.";

/// `dupcost tui`.
#[derive(Debug, Args)]
pub struct TuiArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Start from the inputs measured in these access logs (as `dupcost logs` reads them),
    /// pinned as the baseline, with their evidence and top endpoints; scenario flags still
    /// override them
    #[arg(
        long = "logs",
        visible_alias = "from-logs",
        value_name = "FILE",
        num_args = 1..,
        help_heading = "Explorer"
    )]
    pub from_logs: Vec<PathBuf>,

    #[command(flatten)]
    pub read: LogReadArgs,

    /// Currency symbol shown before money [default: the one --order-value is written with
    /// (€85, 85 EUR), else $]
    #[arg(
        long,
        env = "DUPCOST_CURRENCY",
        value_name = "SYMBOL",
        help_heading = "Explorer"
    )]
    pub currency: Option<String>,

    /// Where `s` saves the scenario, as a --scenario file
    #[arg(
        long,
        value_name = "FILE",
        default_value = "dupcost-scenario.json",
        help_heading = "Explorer"
    )]
    pub save_to: PathBuf,

    /// Leave the mouse to the terminal (text selection) instead of clicking inputs
    #[arg(long, help_heading = "Explorer")]
    pub no_mouse: bool,

    /// With --logs: the measured inputs follow the logs as they grow
    #[command(flatten)]
    pub follow: FollowArgs,
}

const PROBE_EXAMPLES: &str = "\
Examples:
  dupcost probe http://127.0.0.1:8080/v1/orders --data '{\"amount\": 40}'
  dupcost probe https://staging.example.com/v1/payments --data @payment.json \\
      --header 'Authorization: Bearer ...' --id /id --yes
  dupcost probe http://localhost:8080/orders --concurrency 16 --rounds 10 --format json
  dupcost probe http://localhost:8080/orders --requests-per-day 1.5M --order-value 12

Every accepted request may create a real order, charge or message: probe an endpoint you own,
in a test environment. On a terminal dupcost shows what it will send and asks; elsewhere it
refuses any host but loopback without --yes. Exit code 0 when no check fails (warnings
allowed), 1 when one fails (the report is still written), 2 on usage errors.";

/// `dupcost probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The endpoint to probe: an http:// or https:// URL of an endpoint you own
    #[arg(value_name = "URL", value_parser = |t: &str| t.parse::<crate::probe::Target>())]
    pub url: crate::probe::Target,

    /// The HTTP method of every request
    #[arg(long, short = 'X', default_value = "POST", value_name = "METHOD", value_parser = crate::probe::parse_method)]
    pub method: ureq::http::Method,

    /// The request body: the text itself, or @FILE to read it from a file (@- reads stdin);
    /// sent as application/json when it is JSON and no --header names a Content-Type
    #[arg(long, short = 'd', value_name = "STRING|@FILE")]
    pub data: Option<String>,

    /// The body payload_mismatch sends with a key already used [default: --data with a
    /// "dupcost_probe" member (JSON object) or field (form) added]
    #[arg(long, value_name = "STRING|@FILE")]
    pub changed_data: Option<String>,

    /// A header sent with every request, as 'Name: value'; repeatable
    #[arg(long, short = 'H', value_name = "NAME: VALUE", value_parser = crate::probe::parse_header)]
    pub header: Vec<(ureq::http::HeaderName, ureq::http::HeaderValue)>,

    /// The header that carries the idempotency key (a fresh UUID per check and round)
    #[arg(long, default_value = "Idempotency-Key", value_name = "NAME", value_parser = |t: &str| crate::probe::parse_header_name(t).map(|_| t.to_string()))]
    pub key_header: String,

    /// Requests with one key released together in the concurrent check, one connection each
    #[arg(long, default_value_t = 8, value_name = "N", value_parser = clap::value_parser!(u16).range(2..=64))]
    pub concurrency: u16,

    /// Rounds of the concurrent check, each with a fresh key
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=50))]
    pub rounds: u16,

    /// The longest wait for one answer
    #[arg(long, default_value = "10s", value_name = "DURATION", value_parser = parse_std_duration)]
    pub timeout: std::time::Duration,

    /// A JSON pointer to the created resource's id in a 2xx body (/id, /data/order/id):
    /// answers are then compared by it and Location, not by the whole body
    #[arg(long, value_name = "/JSON/POINTER", value_parser = crate::probe::parse_pointer)]
    pub id: Option<String>,

    /// Send without asking, and to a host that is not loopback
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Do not verify the server's TLS certificate (a test server's self-signed one); the
    /// connection can then be read and changed by anyone on the path
    #[arg(long)]
    pub insecure: bool,

    /// Output format: a table for people, json for scripts, markdown for documents, junit for CI
    #[arg(long, short = 'f', value_parser = probe_format(), default_value = "table", help_heading = "Output")]
    pub format: Format,

    /// Currency symbol shown before money [default: the one --order-value is written with
    /// (€85, 85 EUR), else $]
    #[arg(
        long,
        env = "DUPCOST_CURRENCY",
        value_name = "SYMBOL",
        help_heading = "Output"
    )]
    pub currency: Option<String>,

    /// The scenario a failure is costed in, as for `dupcost estimate`
    #[command(flatten)]
    pub scenario: ScenarioArgs,
}

/// `dupcost probe --format`: every [`Format`] but CSV (a probe's checks are not rows of figures).
fn probe_format() -> impl clap::builder::TypedValueParser<Value = Format> {
    formats_but(Format::Csv)
}

/// `--format` of the reports of figures: every [`Format`] but JUnit (the probe's, for CI).
fn report_format() -> impl clap::builder::TypedValueParser<Value = Format> {
    formats_but(Format::Junit)
}

/// The [`Format`]s but `left_out`, as a value parser.
fn formats_but(left_out: Format) -> impl clap::builder::TypedValueParser<Value = Format> {
    let values = Format::value_variants()
        .iter()
        .filter(move |f| **f != left_out)
        .filter_map(ValueEnum::to_possible_value);
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(values)
        .map(|name| Format::from_str(&name, true).expect("one of the formats"))
}

/// The inputs of the model. Each also reads `DUPCOST_<FLAG>` from the environment; precedence,
/// lowest first: defaults < --scenario file < --preset < environment < flags.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Scenario")]
pub struct ScenarioArgs {
    // Each input's help is `Input::short_help()` and `Input::help()`: one description shared
    // with the TUI.
    #[arg(
        long,
        env = Input::RequestsPerDay.env_name(),
        allow_hyphen_values = true,
        value_name = "COUNT",
        help = Input::RequestsPerDay.short_help(),
        long_help = Input::RequestsPerDay.help()
    )]
    pub requests_per_day: Option<Count>,

    #[arg(
        long,
        env = Input::TimeoutRate.env_name(),
        allow_hyphen_values = true,
        value_name = "RATE",
        value_parser = parse_timeout_rate,
        help = Input::TimeoutRate.short_help(),
        long_help = Input::TimeoutRate.help()
    )]
    pub timeout_rate: Option<Rate>,

    #[arg(
        long,
        env = Input::SucceededShare.env_name(),
        allow_hyphen_values = true,
        value_name = "RATE",
        help = Input::SucceededShare.short_help(),
        long_help = Input::SucceededShare.help()
    )]
    pub succeeded_share: Option<Rate>,

    #[arg(
        long,
        env = Input::OrderValue.env_name(),
        allow_hyphen_values = true,
        value_name = "MONEY",
        help = Input::OrderValue.short_help(),
        long_help = Input::OrderValue.help()
    )]
    pub order_value: Option<Priced>,

    #[arg(
        long,
        env = Input::Retries.env_name(),
        allow_hyphen_values = true,
        value_name = "N",
        value_parser = |text: &str| Input::Retries.parse(text).map(|n| n as u32),
        help = Input::Retries.short_help(),
        long_help = Input::Retries.help(), help_heading = "Retries")]
    pub retries: Option<u32>,

    #[arg(
        long,
        env = Input::Ttl.env_name(),
        allow_hyphen_values = true,
        value_name = "DURATION",
        help = Input::Ttl.short_help(),
        long_help = Input::Ttl.help(), help_heading = "Key store")]
    pub ttl: Option<Duration>,

    #[arg(
        long,
        env = Input::KeySize.env_name(),
        allow_hyphen_values = true,
        value_name = "SIZE",
        help = Input::KeySize.short_help(),
        long_help = Input::KeySize.help(), help_heading = "Key store")]
    pub key_size: Option<Size>,

    #[arg(
        long,
        env = Input::DaysPerMonth.env_name(),
        allow_hyphen_values = true,
        value_name = "DAYS",
        help = Input::DaysPerMonth.short_help(),
        long_help = Input::DaysPerMonth.help()
    )]
    pub days_per_month: Option<Count>,

    #[arg(
        long,
        env = Input::AttemptTimeout.env_name(),
        allow_hyphen_values = true,
        value_name = "DURATION",
        value_parser = |text: &str| Input::AttemptTimeout.parse(text),
        help = Input::AttemptTimeout.short_help(),
        long_help = Input::AttemptTimeout.help(), help_heading = "Retries")]
    pub attempt_timeout: Option<f64>,

    #[arg(
        long,
        env = Input::Backoff.env_name(),
        allow_hyphen_values = true,
        value_name = "DURATION",
        value_parser = |text: &str| Input::Backoff.parse(text),
        help = Input::Backoff.short_help(),
        long_help = Input::Backoff.help(), help_heading = "Retries")]
    pub backoff: Option<f64>,

    #[arg(
        long,
        env = Input::BackoffFactor.env_name(),
        allow_hyphen_values = true,
        value_name = "FACTOR",
        value_parser = |text: &str| Input::BackoffFactor.parse(text),
        help = Input::BackoffFactor.short_help(),
        long_help = Input::BackoffFactor.help(), help_heading = "Retries")]
    pub backoff_factor: Option<f64>,

    #[arg(
        long,
        env = Input::BackoffMax.env_name(),
        allow_hyphen_values = true,
        value_name = "DURATION",
        value_parser = |text: &str| Input::BackoffMax.parse(text),
        help = Input::BackoffMax.short_help(),
        long_help = Input::BackoffMax.help(), help_heading = "Retries")]
    pub backoff_max: Option<f64>,

    #[arg(
        long,
        env = Input::Jitter.env_name(),
        value_name = "KIND",
        value_parser = clap::builder::PossibleValuesParser::new(Jitter::ALL.map(Jitter::name)),
        help = Input::Jitter.short_help(),
        long_help = Input::Jitter.help(), help_heading = "Retries")]
    pub jitter: Option<String>,

    #[arg(
        long,
        env = Input::Layers.env_name(),
        allow_hyphen_values = true,
        value_name = "N",
        value_parser = |text: &str| Input::Layers.parse(text).map(|n| n as u32),
        help = Input::Layers.short_help(),
        long_help = Input::Layers.help(), help_heading = "Retries")]
    pub layers: Option<u32>,

    #[arg(
        long,
        env = Input::KeyBytes.env_name(),
        allow_hyphen_values = true,
        value_name = "SIZE",
        help = Input::KeyBytes.short_help(),
        long_help = Input::KeyBytes.help(), help_heading = "Key store")]
    pub key_bytes: Option<Size>,

    #[arg(
        long,
        env = Input::BodyBytes.env_name(),
        allow_hyphen_values = true,
        value_name = "SIZE",
        help = Input::BodyBytes.short_help(),
        long_help = Input::BodyBytes.help(), help_heading = "Key store")]
    pub body_bytes: Option<Size>,

    #[arg(
        long,
        env = Input::Store.env_name(),
        value_name = "STORE",
        value_parser = clap::builder::PossibleValuesParser::new(Store::ALL.map(Store::name)),
        help = Input::Store.short_help(),
        long_help = Input::Store.help(), help_heading = "Key store")]
    pub store: Option<String>,

    /// Retry delays as a sender publishes them, e.g. 5s,5m,30m,2h,5h,10h,10h: the sleep before
    /// each retry, used instead of the backoff flags; the retries are its length unless
    /// --retries is given (past the list the last delay repeats)
    #[arg(
        long,
        env = inputs::SCHEDULE_ENV,
        allow_hyphen_values = true,
        value_name = "DELAYS",
        conflicts_with_all = ["backoff", "backoff_factor", "backoff_max"], help_heading = "Retries")]
    pub schedule: Option<crate::model::Delays>,

    /// Start from a provider's documented values (`dupcost presets` lists them)
    ///
    /// stripe, adyen, ... for the key window; svix-webhooks, stripe-webhooks, ... for a webhook
    /// sender. Over --scenario, under every flag.
    #[arg(long, env = inputs::PRESET_ENV, value_name = "NAME", value_parser = parse_preset)]
    pub preset: Option<&'static crate::presets::Preset>,

    /// Load inputs from a JSON file of inputs by their JSON names (flags override it); - reads stdin
    #[arg(long, env = "DUPCOST_SCENARIO", value_name = "FILE")]
    pub scenario: Option<PathBuf>,

    /// Which of the values above came from the environment, not a flag ([`Cli::try_read`]).
    #[arg(skip)]
    pub from_env: FromEnv,
}

/// Which of a command's scenario values came from their `DUPCOST_*` variable rather than a
/// flag, so that a report names the variable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromEnv {
    /// The inputs, in the order of [`Input::ALL`].
    pub inputs: Vec<Input>,
    /// `DUPCOST_SCHEDULE` gave the retry delays.
    pub schedule: bool,
    /// `DUPCOST_PRESET` named the preset.
    pub preset: bool,
}

impl FromEnv {
    /// What the environment gave in `matches`, a subcommand's that flattens [`ScenarioArgs`].
    fn of(matches: &ArgMatches) -> FromEnv {
        let env = |id: &str| matches.value_source(id) == Some(ValueSource::EnvVariable);
        FromEnv {
            inputs: Input::ALL
                .into_iter()
                .filter(|i| env(&i.flag().replace('-', "_")))
                .collect(),
            schedule: env("schedule"),
            preset: env("preset"),
        }
    }
}

/// `--timeout-rate`: a bare fraction that reads as 1% or more (`0.2` is 20%) is taken as
/// written, with a note on stderr naming the percentage form ([`timeout_rate_note`]), since
/// the figure people quote is a percentage (the article's 0.2%). See docs/MODEL.md, "Numbers
/// as people type them".
fn parse_timeout_rate(text: &str) -> Result<Rate, String> {
    text.parse::<Rate>()
}

/// The note on a bare fraction given as the timeout rate, naming where it was given: `note:
/// --timeout-rate: read 0.2 as 20%; ...` or `note: DUPCOST_TIMEOUT_RATE: ...`.
fn timeout_rate_note(matches: &ArgMatches) -> Option<String> {
    let id = Input::TimeoutRate.flag().replace('-', "_");
    let raw = matches.get_raw(&id)?.next()?.to_str()?;
    let note = crate::units::bare_fraction_note(raw)?;
    let by = match matches.value_source(&id) {
        Some(ValueSource::EnvVariable) => Input::TimeoutRate.env_name().to_string(),
        _ => Input::TimeoutRate.to_string(),
    };
    Some(format!("note: {by}: {note}"))
}

fn parse_preset(name: &str) -> Result<&'static crate::presets::Preset, String> {
    crate::presets::find(name)
}

/// How results are printed.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format: a table for people, json / csv for scripts, markdown for documents
    #[arg(long, short = 'f', value_parser = report_format(), default_value = "table", env = "DUPCOST_FORMAT")]
    pub format: Format,

    /// Currency symbol shown before money in tables [default: the one --order-value is
    /// written with (€85, 85 EUR), else $]
    #[arg(long, env = "DUPCOST_CURRENCY", value_name = "SYMBOL")]
    pub currency: Option<String>,

    /// The whole report in the table: the evidence, the columns read, per day, intents,
    /// intervals and every input with its kind (the table otherwise leads with the answer)
    #[arg(long, env = "DUPCOST_EXPLAIN", value_parser = clap::builder::BoolishValueParser::new())]
    pub explain: bool,
}

/// `dupcost presets --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetsFormat {
    /// A block per preset, for people
    Table,
    /// An object: the presets with their values and sources, and the providers left out
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when the output is a terminal and NO_COLOR is unset
    Auto,
    /// Always colour
    Always,
    /// Never colour
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream: `auto` means a terminal, no `NO_COLOR`, and not `TERM=dumb`.
    pub fn enabled(self, stream_is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let dumb = std::env::var_os("TERM").is_some_and(|v| v == "dumb");
                stream_is_terminal && !no_color && !dumb
            }
        }
    }

    /// Whether to colour standard output.
    pub fn for_stdout(self) -> bool {
        self.enabled(std::io::stdout().is_terminal())
    }
}

/// Turns a clap error into one line (`error: ...`, with clap's tip appended), the way every
/// other dupcost error reads.
pub fn one_line_error(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut lines = text.lines().map(str::trim);
    let mut line = lines
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    // "the following required arguments were not provided:" lists them on the next lines.
    for continued in lines.by_ref().take_while(|l| !l.is_empty()) {
        line.push(' ');
        line.push_str(continued);
    }
    let mut lines = lines.filter(|l| !l.is_empty());
    if let Some(tip) = lines.find(|l| l.starts_with("tip:")) {
        line.push_str(" (");
        line.push_str(tip);
        line.push(')');
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Origin;

    #[test]
    fn definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Each input's argument is found by the id `FromEnv::of` asks clap about, and reads the
    /// variable the reports name.
    #[test]
    fn every_input_reads_the_variable_its_reports_name() {
        for sub in ["estimate", "logs", "tui"] {
            let cmd = Cli::command();
            let cmd = cmd.find_subcommand(sub).expect(sub);
            for input in Input::ALL {
                let id = input.flag().replace('-', "_");
                let arg = cmd
                    .get_arguments()
                    .find(|a| a.get_id() == id.as_str())
                    .unwrap_or_else(|| panic!("{sub}: no argument {id}"));
                assert_eq!(arg.get_env(), Some(std::ffi::OsStr::new(input.env_name())));
            }
            for (id, env) in [
                ("schedule", inputs::SCHEDULE_ENV),
                ("preset", inputs::PRESET_ENV),
            ] {
                let arg = cmd.get_arguments().find(|a| a.get_id() == id).unwrap();
                assert_eq!(arg.get_env(), Some(std::ffi::OsStr::new(env)));
            }
        }
    }

    /// Without the environment every value is the command line's: `FromEnv` stays empty (the
    /// variables themselves are tested on the binary, tests/estimate/sources.rs).
    #[test]
    fn flags_are_not_taken_for_the_environment() {
        if std::env::vars_os().any(|(k, _)| k.to_string_lossy().starts_with("DUPCOST_")) {
            panic!("run the unit tests without DUPCOST_* variables set");
        }
        let cli =
            Cli::try_read_from(["dupcost", "estimate", "--ttl", "2d", "--schedule", "5s"]).unwrap();
        let Command::Estimate(args) = cli.command else {
            panic!("estimate")
        };
        assert_eq!(args.scenario.from_env, FromEnv::default());
        let sources = crate::run::resolve::estimate(&args, false).unwrap().sources;
        assert_eq!(sources.get(Input::Ttl), Origin::Flag);
        assert_eq!(sources.schedule(), Origin::Flag);
        assert!(sources.retries_by_schedule());
    }

    #[test]
    fn every_flag_has_help() {
        fn check(cmd: &clap::Command) {
            for arg in cmd.get_arguments() {
                assert!(arg.get_help().is_some(), "--{} has no help", arg.get_id());
            }
            cmd.get_subcommands().for_each(check);
        }
        check(&Cli::command());
    }
}
