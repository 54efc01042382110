//! Everything that steers the reading of logs, and its defaults (here only: the CLI shows
//! and parses these same values).

use std::time::Duration;

use regex::bytes::Regex;

use super::formats::{DurationUnit, InputFormat};
use super::role::Role;
use super::source::LogInput;
use super::timestamp;

/// Files smaller than this are read by one thread (by default).
const MIN_SPLIT_BYTES: u64 = 16 << 20;

/// Everything that steers the reading of logs. [`LogOptions::default`] has the documented
/// defaults.
#[derive(Debug, Clone)]
pub struct LogOptions {
    /// `--input-format`: auto (sniffed from the first lines) or one format.
    pub input_format: InputFormat,
    /// `--envelope`: what wraps each access line (CRI, syslog, ...): auto, none or one.
    pub envelope: super::envelope::EnvelopeChoice,
    /// `--log-format`: an nginx `log_format` or Apache `LogFormat` string, or a preset name.
    pub log_format: Option<String>,
    /// `--haproxy-captures`: the names of HAProxy's captured request headers, in order.
    pub haproxy_captures: Vec<String>,
    /// Field delimiter; sniffed from the header when `None`.
    pub delimiter: Option<u8>,
    /// `--column ROLE=HEADER` overrides.
    pub columns: Vec<(Role, String)>,
    /// Unit of the duration column; from its name when `None`.
    pub duration_unit: Option<DurationUnit>,
    /// A strftime format for the timestamps; the built-in layouts when `None`.
    pub timestamp_format: Option<String>,
    /// Keep rows at or after this time (µs since the epoch).
    pub since: Option<i64>,
    /// Keep rows before this time (µs since the epoch).
    pub until: Option<i64>,
    /// Mutating methods.
    pub methods: Vec<String>,
    /// Client-facing statuses that mean the client gave up.
    pub timeout_statuses: Vec<u16>,
    /// A mutating request whose duration reached this timed out too.
    pub client_timeout: Option<Duration>,
    /// `--sample-rate`: the share of traces head sampling kept (traces only).
    pub sample_rate: Option<f64>,
    /// Only paths matching this.
    pub path: Option<Regex>,
    /// Attempts of one key at most this far apart are one intent.
    pub retry_window: Duration,
    /// The first bad row is an error.
    pub strict: bool,
    /// Show a progress bar on stderr when it is a terminal and the input is large.
    pub progress: bool,
    /// Threads for reading large plain files in chunks, and for parsing traces of a document
    /// a line (0: one per core, at most 4).
    pub threads: usize,
    /// Plain files at least this large are read in pieces, one per thread; an idle thread
    /// takes over half of what is left of a piece when that is at least this large too.
    pub split_bytes: u64,
    /// The backend's own logs (`--outcomes`), joined to timed-out attempts by request id.
    pub outcomes: Vec<LogInput>,
    /// `--outcomes-column ROLE=HEADER` overrides for the backend's logs.
    pub outcomes_columns: Vec<(Role, String)>,
    /// How attempts are grouped into intents (`--intents`).
    pub intents: Intents,
    /// Attempts of one fingerprint in a minute above which it is a shared address
    /// (`--shared-address-rate`).
    pub shared_address_rate: u8,
    /// `--log-side`: whose log it is (a proxy's, or the server's own).
    pub log_side: LogSide,
    /// A field's role or a duration's unit may be read from its values where they leave one
    /// reading; `false` (`--no-infer`) reads only what is named.
    pub infer: bool,
}

/// `--log-side`: who wrote the log. A proxy's log tells the client-facing status and, in an
/// upstream column, the backend's; a server's own log (a backend's, a webhook receiver's)
/// knows the outcome of every attempt: its status is what the work did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogSide {
    /// The server's own log when it has no upstream status column and its key column is a
    /// webhook event id (`webhook-id`, `svix-id`, `X-GitHub-Delivery`, ...); else a proxy's.
    #[default]
    Auto,
    /// A proxy's (or load balancer's) log.
    Proxy,
    /// The server's own log: a 2xx past the client timeout executed unheard.
    Server,
}

impl LogSide {
    /// The name used by the flag and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            LogSide::Auto => "auto",
            LogSide::Proxy => "proxy",
            LogSide::Server => "server",
        }
    }
}

/// Whose log one file was taken to be, and why (flag, detected or assumed).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SideRead {
    /// `proxy` or `server` (never `auto`).
    pub side: LogSide,
    pub why: String,
}

impl std::str::FromStr for LogSide {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(LogSide::Auto),
            "proxy" => Ok(LogSide::Proxy),
            "server" | "receiver" | "backend" => Ok(LogSide::Server),
            _ => Err(format!("unknown log side '{s}': use auto, proxy or server")),
        }
    }
}

/// `--intents`: how mutating attempts are grouped into intents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Intents {
    /// By key when the log has a key column, else by fingerprint when it has the client's
    /// address, else every attempt is an intent.
    #[default]
    Auto,
    /// By idempotency key only.
    Key,
    /// By fingerprint (client, user agent, method, path with query, request length), even
    /// when the log has keys.
    Fingerprint,
}

impl Default for LogOptions {
    fn default() -> Self {
        LogOptions {
            input_format: InputFormat::Auto,
            envelope: super::envelope::EnvelopeChoice::Auto,
            log_format: None,
            haproxy_captures: Vec::new(),
            delimiter: None,
            columns: Vec::new(),
            duration_unit: None,
            timestamp_format: None,
            since: None,
            until: None,
            methods: DEFAULT_METHODS.iter().map(|m| m.to_string()).collect(),
            timeout_statuses: DEFAULT_TIMEOUT_STATUSES.to_vec(),
            client_timeout: None,
            sample_rate: None,
            path: None,
            retry_window: DEFAULT_RETRY_WINDOW,
            strict: false,
            progress: false,
            threads: 0,
            split_bytes: MIN_SPLIT_BYTES,
            outcomes: Vec::new(),
            outcomes_columns: Vec::new(),
            intents: Intents::Auto,
            shared_address_rate: super::tally::DEFAULT_SHARED_RATE,
            log_side: LogSide::Auto,
            infer: true,
        }
    }
}

impl std::str::FromStr for Intents {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Intents::Auto),
            "key" => Ok(Intents::Key),
            "fingerprint" => Ok(Intents::Fingerprint),
            _ => Err(format!(
                "unknown grouping '{s}': use auto, key or fingerprint"
            )),
        }
    }
}

/// Default mutating methods.
pub const DEFAULT_METHODS: [&str; 4] = ["POST", "PUT", "PATCH", "DELETE"];
/// Default client-facing give-up statuses: 0 (no response: Envoy `DC`, Traefik when the
/// client left), 408, 460 (ALB: the client closed), 499 (nginx: the client closed), 504.
pub const DEFAULT_TIMEOUT_STATUSES: [u16; 5] = [0, 408, 460, 499, 504];
/// Default retry window.
pub const DEFAULT_RETRY_WINDOW: Duration = Duration::from_secs(3600);

/// Parses `--since`/`--until`: RFC 3339 (with or without zone) or a date (midnight UTC).
pub fn parse_time_bound(text: &str) -> Result<i64, String> {
    timestamp::parse_auto(text.trim().as_bytes())
        .filter(|_| text.trim().len() >= 10)
        .ok_or_else(|| {
            format!("'{text}' is not a time: use RFC 3339 like 2026-11-01T00:00:00Z or a date like 2026-11-01")
        })
}
