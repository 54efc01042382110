//! A deterministic generator of realistic access logs whose true figures are known.
//!
//! Shared by the `gen-access-log` example and the tests (`#[path]`-included), so the tests
//! check `dupcost logs` against the exact counts of what was written.
//!
//! Events follow each other in time over `days` days: a GET (one row), or a mutating intent
//! whose attempts each time out with the endpoint's timeout rate; a timed-out attempt had in
//! fact succeeded upstream with probability `succeeded_share`, and is retried (same
//! idempotency key, a few seconds after the client gave up) up to `retries` times. Rows are
//! written in time order, retries among later traffic, as a server logs them.
//!
//! The harder cases real proxies make, each with its truth: timed-out attempts whose outcome
//! the proxy log does not show (`unknown_share`, in each proxy's style: nginx `-` or its own
//! 504, ALB `-`, Traefik's `OriginStatus` echoing its own status; Envoy and HAProxy logs have
//! no upstream status at all), status 0 and give-up flags (Envoy `response_flags`, HAProxy
//! `termination_state`), per-attempt request ids and the backend's own log to join them to
//! (with attempts that never reached it), per-attempt "keys", and a clock set back.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::io::{self, Write};

use dupcost::logs::civil_from_days;

/// Output layouts: header names and timestamp styles of common log formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Generic CSV: `timestamp,method,path,status,upstream_status,duration_ms,idempotency_key,bytes,user_agent`.
    Csv,
    /// The same, tab-separated.
    Tsv,
    /// nginx variables, `$time_local`, `$request_time` in seconds, multi-value upstream status.
    Nginx,
    /// AWS ALB fields (no idempotency key: ALB does not log request headers).
    Alb,
    /// Traefik fields, `Duration` in nanoseconds, `;`-separated.
    Traefik,
    /// Envoy's default access log fields (`%RESPONSE_FLAGS%`, `x-request-id`), as CSV.
    Envoy,
    /// HAProxy's httplog fields as log shippers name them (`termination_state`), as CSV.
    Haproxy,
    /// AWS ALB access log lines as delivered to S3 (no idempotency key: ALB logs no headers).
    AlbLog,
    /// AWS classic ELB access log lines.
    ElbLog,
    /// CloudFront standard log: `#Version`/`#Fields:` and tab-separated lines (no key, no
    /// origin status).
    CloudfrontLog,
    /// Caddy's JSON access log (`duration` in seconds, headers as arrays; no upstream status).
    CaddyJson,
    /// Traefik's JSON access log (`Duration` in nanoseconds).
    TraefikJson,
    /// Envoy with a JSON access log format (Envoy's field names, `duration` in ms).
    EnvoyJson,
    /// nginx `log_format ... escape=json` with nginx variable names.
    NginxJson,
    /// Raw nginx lines: `combined` plus `$request_time $upstream_status
    /// "$http_idempotency_key"` ([`NGINX_LOG_FORMAT`]), ` $request_id` with request ids.
    NginxLog,
    /// Raw Apache lines: [`APACHE_LOG_FORMAT`] (`%D` microseconds, no upstream status).
    ApacheLog,
    /// Raw HAProxy `option httplog` lines, every other one with a syslog prefix.
    HaproxyLog,
    /// Raw Envoy default-format lines.
    EnvoyLog,
    /// Raw Istio default-format lines.
    IstioLog,
    /// IIS W3C extended log (`#Fields:` with `cs(Idempotency-Key)`; `time-taken` in ms; a
    /// client that left is win32 64, ARR's timeout 502.3 with win32 12002).
    IisLog,
    /// Cloudflare Logpush http_requests (the origin timeout as 524, unix-nanosecond times).
    CloudflareJson,
    /// Google Cloud HTTP(S) load balancer LogEntry (`statusDetails`; no backend status, no
    /// request headers).
    GcpJson,
    /// Azure Application Gateway v2 records, the time key varying, a firewall record now
    /// and then (no request headers).
    AzureJson,
    /// Kong's file-log plugin (`started_at` in epoch ms, `latencies.request`).
    KongJson,
    /// AWS API Gateway's REST CLF example layout (`$context.*`; no key, no integration
    /// status, no latency; every give-up the 504 of an integration that timed out).
    ApiGatewayClf,
    /// The same fields in API Gateway's CSV example layout.
    ApiGatewayCsv,
    /// The same fields in API Gateway's XML example layout.
    ApiGatewayXml,
}

/// The `log_format` of [`Format::NginxLog`] (without request ids).
pub const NGINX_LOG_FORMAT: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time $upstream_status "$http_idempotency_key""#;
/// The `LogFormat` of [`Format::ApacheLog`].
pub const APACHE_LOG_FORMAT: &str = r#"%h %l %u %t "%r" %>s %b %D "%{Idempotency-Key}i""#;

impl Format {
    /// The proxy's log has an upstream status column.
    pub fn has_upstream(self) -> bool {
        !matches!(
            self.style(),
            Format::Envoy
                | Format::Haproxy
                | Format::CloudfrontLog
                | Format::CaddyJson
                | Format::EnvoyJson
                | Format::GcpJson
                | Format::ApiGatewayClf
                | Format::ApiGatewayCsv
                | Format::ApiGatewayXml
        ) && self != Format::ApacheLog
    }

    /// A format written as the server writes it by the writers of FMT-AWS (`native_row`).
    pub fn is_native(self) -> bool {
        matches!(
            self,
            Format::AlbLog
                | Format::ElbLog
                | Format::CloudfrontLog
                | Format::CaddyJson
                | Format::TraefikJson
                | Format::EnvoyJson
                | Format::NginxJson
                | Format::IisLog
                | Format::CloudflareJson
                | Format::GcpJson
                | Format::AzureJson
                | Format::KongJson
                | Format::ApiGatewayClf
                | Format::ApiGatewayCsv
                | Format::ApiGatewayXml
        )
    }

    /// The platform formats of issue 23: the same rows (and draws) as [`Format::Csv`].
    pub fn is_platform(self) -> bool {
        matches!(
            self,
            Format::IisLog
                | Format::CloudflareJson
                | Format::GcpJson
                | Format::AzureJson
                | Format::KongJson
                | Format::ApiGatewayClf
                | Format::ApiGatewayCsv
                | Format::ApiGatewayXml
        )
    }

    /// The proxy's log never holds an idempotency key (it logs no request headers).
    pub fn has_no_keys(self) -> bool {
        matches!(
            self.style(),
            Format::Alb | Format::Haproxy | Format::AlbLog | Format::ElbLog | Format::CloudfrontLog
        )
    }

    /// The proxy's log always carries a request id.
    pub fn has_request_id(self) -> bool {
        matches!(
            self.style(),
            Format::Envoy | Format::Haproxy | Format::EnvoyJson
        )
    }

    /// The CSV format whose rows (and random draws) a raw format shares: the same seed gives
    /// the same rows in both.
    pub fn style(self) -> Format {
        match self {
            Format::NginxLog | Format::ApacheLog => Format::Nginx,
            Format::HaproxyLog => Format::Haproxy,
            Format::EnvoyLog | Format::IstioLog => Format::Envoy,
            other => other,
        }
    }

    /// Raw lines as the server writes them (no header), by `raw_line`.
    pub fn raw(self) -> bool {
        self.style() != self
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "csv" => Ok(Format::Csv),
            "tsv" => Ok(Format::Tsv),
            "nginx" => Ok(Format::Nginx),
            "alb" => Ok(Format::Alb),
            "traefik" => Ok(Format::Traefik),
            "envoy" => Ok(Format::Envoy),
            "haproxy" => Ok(Format::Haproxy),
            "alb-log" => Ok(Format::AlbLog),
            "elb-log" => Ok(Format::ElbLog),
            "cloudfront-log" => Ok(Format::CloudfrontLog),
            "caddy-json" => Ok(Format::CaddyJson),
            "traefik-json" => Ok(Format::TraefikJson),
            "envoy-json" => Ok(Format::EnvoyJson),
            "nginx-json" => Ok(Format::NginxJson),
            "nginx-log" => Ok(Format::NginxLog),
            "apache-log" => Ok(Format::ApacheLog),
            "haproxy-log" => Ok(Format::HaproxyLog),
            "envoy-log" => Ok(Format::EnvoyLog),
            "istio-log" => Ok(Format::IstioLog),
            "iis-log" => Ok(Format::IisLog),
            "cloudflare-json" => Ok(Format::CloudflareJson),
            "gcp-json" => Ok(Format::GcpJson),
            "azure-json" => Ok(Format::AzureJson),
            "kong-json" => Ok(Format::KongJson),
            "apigateway-clf" => Ok(Format::ApiGatewayClf),
            "apigateway-csv" => Ok(Format::ApiGatewayCsv),
            "apigateway-xml" => Ok(Format::ApiGatewayXml),
            _ => Err(format!(
                "unknown format '{s}': csv, tsv, nginx, alb, traefik, envoy, haproxy, nginx-log, \
                 apache-log, haproxy-log, envoy-log, istio-log, alb-log, elb-log, cloudfront-log, \
                 caddy-json, traefik-json, envoy-json, nginx-json, iis-log, cloudflare-json, \
                 gcp-json, azure-json, kong-json, apigateway-clf, apigateway-csv or \
                 apigateway-xml"
            )),
        }
    }
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct Config {
    /// Rows to write (the last intent is completed, so a few more may be written).
    pub rows: u64,
    pub seed: u64,
    pub format: Format,
    /// Span of the timestamps, in days.
    pub days: f64,
    /// First timestamp, seconds since the epoch (2026-11-01T00:00:00Z by default).
    pub start: i64,
    /// Base timeout rate of mutating attempts (endpoints scale it).
    pub timeout_rate: f64,
    pub succeeded_share: f64,
    pub retries: u32,
    /// Share of events that are GETs.
    pub get_share: f64,
    /// Share of mutating intents that send an idempotency key.
    pub key_share: f64,
    /// CRLF line endings.
    pub crlf: bool,
    /// Quoted user agents with embedded delimiters, quotes and (rarely) newlines.
    pub tricky_quotes: bool,
    /// Every n-th row is followed by a bad row (0: none).
    pub bad_every: u64,
    /// Share of timed-out attempts whose outcome the proxy log does not show.
    pub unknown_share: f64,
    /// Share of failed timed-out attempts that never reached the backend.
    pub never_reached_share: f64,
    /// Write a per-attempt request id column (always for Envoy and HAProxy).
    pub request_ids: bool,
    /// The key column holds a new value on every attempt (a request id under a key's name).
    pub per_attempt_keys: bool,
    /// From the middle row on, timestamps are written this many seconds earlier.
    pub clock_back_secs: i64,
    /// The backend's own log, when one is written: CSV or JSON lines.
    pub backend_json: bool,
    /// The length of the rows (the benchmark's shapes, `bench/race.sh`).
    pub row_size: RowSize,
    /// Mutating intents go to one of this many route templates
    /// (`/v1/{resource}/{id}/{action}`, 4 to 10,000, each with one method) instead of the six
    /// endpoints; 0: the six.
    pub templates: u32,
}

/// The length of the rows: the benchmark's shapes (`bench/race.sh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowSize {
    /// 32-character keys, `curl/8.5` as the CSV's user agent (about 105 bytes a CSV row).
    #[default]
    Normal,
    /// 16-character keys and no user agent (about 85 bytes a CSV row).
    Short,
    /// Browsers' and apps' user agents (quoted in CSV: they hold commas) and a query string on
    /// every path (about 255 bytes a CSV row).
    Long,
}

/// The backend's own log, with the truth of the join.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BackendTruth {
    pub rows: u64,
    /// First and last timestamp written (µs).
    pub first_ts: i64,
    pub last_ts: i64,
    /// Timed-out attempts that never reached the backend: their timestamps in the proxy log.
    pub never_reached_ts: Vec<i64>,
}

impl Config {
    /// Hex characters of an idempotency key.
    fn key_len(&self) -> usize {
        if self.row_size == RowSize::Short {
            16
        } else {
            32
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rows: 10_000,
            seed: 1,
            format: Format::Csv,
            days: 7.0,
            start: 1_793_491_200, // 2026-11-01T00:00:00Z
            timeout_rate: 0.02,
            succeeded_share: 0.5,
            retries: 3,
            get_share: 0.3,
            key_share: 1.0,
            crlf: false,
            tricky_quotes: false,
            bad_every: 0,
            unknown_share: 0.0,
            never_reached_share: 0.0,
            request_ids: false,
            per_attempt_keys: false,
            clock_back_secs: 0,
            backend_json: false,
            row_size: RowSize::Normal,
            templates: 0,
        }
    }
}

/// The exact figures of what was written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Truth {
    pub rows: u64,
    pub bad_rows: u64,
    pub mutating_attempts: u64,
    pub intents: u64,
    pub keyed_intents: u64,
    pub keyed_attempts: u64,
    pub max_attempts: u32,
    pub timed_out: u64,
    /// Timed-out attempts the proxy log shows as answered 2xx.
    pub timed_out_succeeded: u64,
    /// Timed-out attempts whose outcome the proxy log does not show.
    pub timed_out_unknown: u64,
    /// Timed-out attempts that in fact succeeded (whatever the proxy log shows).
    pub timed_out_truly_succeeded: u64,
    /// The backend's log, when one was written.
    pub backend: BackendTruth,
    /// Microseconds since the epoch, as the log shows them (after rounding).
    pub first_ts: i64,
    pub last_ts: i64,
    /// Per day: (mutating, timed out, timed out and succeeded).
    pub per_day: BTreeMap<i64, (u64, u64, u64)>,
}

impl Truth {
    pub fn days_covered(&self) -> f64 {
        (self.last_ts - self.first_ts) as f64 / 86_400e6
    }
    pub fn timeout_rate(&self) -> f64 {
        self.timed_out as f64 / self.mutating_attempts as f64
    }
    /// The share over timed-out attempts with a known outcome, as the proxy log shows them.
    pub fn succeeded_share(&self) -> f64 {
        self.timed_out_succeeded as f64 / (self.timed_out - self.timed_out_unknown) as f64
    }
    pub fn requests_per_day(&self) -> f64 {
        self.intents as f64 / self.days_covered()
    }
}

/// A small, fast, seeded PRNG (SplitMix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// Endpoints: method, path shape, weight, timeout-rate multiplier.
struct Endpoint {
    method: &'static str,
    shape: &'static [Seg],
    weight: u32,
    timeout_scale: f64,
}

#[derive(Clone, Copy)]
enum Seg {
    Fixed(&'static str),
    Num,
    Uuid,
    Hex,
    Base62(&'static str),
}

const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        method: "POST",
        shape: &[Seg::Fixed("v1"), Seg::Fixed("orders")],
        weight: 30,
        timeout_scale: 1.0,
    },
    Endpoint {
        method: "POST",
        shape: &[
            Seg::Fixed("v1"),
            Seg::Fixed("orders"),
            Seg::Num,
            Seg::Fixed("capture"),
        ],
        weight: 20,
        timeout_scale: 3.0,
    },
    Endpoint {
        method: "PUT",
        shape: &[Seg::Fixed("v1"), Seg::Fixed("orders"), Seg::Uuid],
        weight: 10,
        timeout_scale: 0.5,
    },
    Endpoint {
        method: "PATCH",
        shape: &[Seg::Fixed("v1"), Seg::Fixed("customers"), Seg::Hex],
        weight: 10,
        timeout_scale: 1.0,
    },
    Endpoint {
        method: "DELETE",
        shape: &[
            Seg::Fixed("v1"),
            Seg::Fixed("carts"),
            Seg::Num,
            Seg::Fixed("items"),
            Seg::Num,
        ],
        weight: 10,
        timeout_scale: 0.5,
    },
    Endpoint {
        method: "POST",
        shape: &[
            Seg::Fixed("v1"),
            Seg::Fixed("payments"),
            Seg::Base62("pay_"),
            Seg::Fixed("refunds"),
        ],
        weight: 20,
        timeout_scale: 2.0,
    },
];

const GETS: &[&[Seg]] = &[
    &[Seg::Fixed("v1"), Seg::Fixed("orders"), Seg::Num],
    &[Seg::Fixed("v1"), Seg::Fixed("catalog")],
];

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX: &[u8] = b"0123456789abcdef";
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A retry waiting for its time: ordered by time, then by when it was scheduled.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    ts: i64,
    seq: u64,
    ep: usize,
    path: Vec<u8>,
    key: Option<[u8; 32]>,
    attempt: u32,
}

/// One row to write.
struct Row<'a> {
    ts: i64,
    method: &'static str,
    path: &'a [u8],
    /// -1 is HAProxy's "no response sent".
    status: i32,
    upstream: Upstream,
    /// Envoy `response_flags` or HAProxy `termination_state`, when the attempt gave up.
    flags: Option<&'static str>,
    /// The status the backend logged, or `None` when it never saw the attempt.
    backend: Option<u16>,
    duration_us: u64,
    key: Option<&'a [u8]>,
    bytes: u64,
}

#[derive(Clone, Copy)]
enum Upstream {
    Status(u16),
    /// nginx tried two upstreams: `first, second`.
    Two(u16, u16),
    /// The proxy log does not tell (in the format's style).
    Unknown,
}

/// Writes the header and rows, returning the truth.
pub fn generate<W: Write>(cfg: &Config, out: W) -> io::Result<Truth> {
    generate_with_backend(cfg, out, None::<io::Sink>)
}

/// [`generate`], also writing the backend's own log to `backend` (every attempt that reached
/// it, with its request id and status), when given.
pub fn generate_with_backend<W: Write, B: Write>(
    cfg: &Config,
    out: W,
    backend: Option<B>,
) -> io::Result<Truth> {
    let mut g = Gen {
        cfg,
        rng: Rng::new(cfg.seed),
        backend: backend.map(|b| io::BufWriter::with_capacity(1 << 20, b)),
        shift: 0,
        id: [0u8; 16],
        out: io::BufWriter::with_capacity(1 << 20, out),
        line: Vec::with_capacity(512),
        truth: Truth {
            first_ts: i64::MAX,
            last_ts: i64::MIN,
            ..Truth::default()
        },
        day_cache: (i64::MIN, [0u8; 10]),
    };
    g.header()?;
    if let Some(b) = &mut g.backend {
        if !cfg.backend_json {
            b.write_all(b"time,request_id,method,status\n")?;
        }
    }
    g.truth.backend.first_ts = i64::MAX;
    g.truth.backend.last_ts = i64::MIN;
    let span_us = (cfg.days * 86_400e6) as i64;
    let step = (span_us / cfg.rows.max(1) as i64).max(1);
    let mut clock = cfg.start * 1_000_000;
    let total_weight: u32 = ENDPOINTS.iter().map(|e| e.weight).sum();
    let mut path = Vec::with_capacity(128);
    let mut key = [0u8; 32];
    let mut pending: BinaryHeap<Reverse<Pending>> = BinaryHeap::new();
    let mut seq = 0u64;
    while g.truth.rows < cfg.rows {
        clock += g.rng.below(step as u64 * 2) as i64;
        // Retries that are due are written first, so the log is in time order.
        g.due(&mut pending, clock)?;
        if g.rng.chance(cfg.get_share) {
            let shape = GETS[g.rng.below(GETS.len() as u64) as usize];
            g.path(shape, &mut path);
            if shape.len() == 2 {
                path.extend_from_slice(b"?page=");
                path.extend_from_slice(itoa::Buffer::new().format(g.rng.below(50)).as_bytes());
            }
            g.long_query(&mut path);
            // GETs time out too, and must not count.
            let status = if g.rng.chance(0.01) {
                504
            } else if g.rng.chance(0.05) {
                404
            } else {
                200
            };
            let row = Row {
                ts: clock,
                method: "GET",
                path: &path,
                status,
                upstream: Upstream::Status(status as u16),
                flags: None,
                backend: Some(status as u16),
                duration_us: g.rng.below(300_000),
                key: None,
                bytes: g.rng.below(20_000),
            };
            g.write(&row, false)?;
            continue;
        }
        let mut pick = g.rng.below(u64::from(total_weight)) as u32;
        let ep = ENDPOINTS
            .iter()
            .position(|e| {
                if pick < e.weight {
                    true
                } else {
                    pick -= e.weight;
                    false
                }
            })
            .unwrap_or(0);
        g.path(ENDPOINTS[ep].shape, &mut path);
        if cfg.templates > 0 {
            g.template_path(ENDPOINTS[ep].method, &mut path);
        }
        g.long_query(&mut path);
        let keyed = !cfg.format.has_no_keys() && g.rng.chance(cfg.key_share);
        if keyed {
            for b in key.iter_mut().take(cfg.key_len()) {
                *b = HEX[g.rng.below(16) as usize];
            }
        }
        let key = keyed.then_some(key);
        if let Some(next) = g.attempt(clock, ep, &path, key.as_ref(), 0)? {
            // Only a timed-out intent costs an allocation: its path waits for the retry.
            seq += 1;
            pending.push(Reverse(Pending {
                ts: next,
                seq,
                ep,
                path: path.clone(),
                key,
                attempt: 1,
            }));
        }
    }
    g.due(&mut pending, i64::MAX)?;
    g.out.flush()?;
    if let Some(b) = &mut g.backend {
        b.flush()?;
    }
    Ok(g.truth)
}

struct Gen<'a, W: Write, B: Write> {
    cfg: &'a Config,
    rng: Rng,
    backend: Option<io::BufWriter<B>>,
    /// How far back the clock is set for the row being written (µs).
    shift: i64,
    /// The request id of the row being written.
    id: [u8; 16],
    out: io::BufWriter<W>,
    line: Vec<u8>,
    truth: Truth,
    day_cache: (i64, [u8; 10]),
}

impl<W: Write, B: Write> Gen<'_, W, B> {
    /// Writes the retries due by `clock`, in time order, scheduling their own retries.
    fn due(&mut self, pending: &mut BinaryHeap<Reverse<Pending>>, clock: i64) -> io::Result<()> {
        while pending.peek().is_some_and(|Reverse(p)| p.ts <= clock) {
            let Some(Reverse(p)) = pending.pop() else {
                break;
            };
            if let Some(next) = self.attempt(p.ts, p.ep, &p.path, p.key.as_ref(), p.attempt)? {
                pending.push(Reverse(Pending {
                    ts: next,
                    attempt: p.attempt + 1,
                    ..p
                }));
            }
        }
        Ok(())
    }

    /// Writes attempt number `attempt` (0 for the first) of an intent at `ts`, and counts it.
    /// Returns when the client retries, if it does.
    fn attempt(
        &mut self,
        ts: i64,
        ep: usize,
        path: &[u8],
        key: Option<&[u8; 32]>,
        attempt: u32,
    ) -> io::Result<Option<i64>> {
        let cfg = self.cfg;
        let ep = &ENDPOINTS[ep];
        let t = (cfg.timeout_rate * ep.timeout_scale).min(1.0);
        let timed_out = self.rng.chance(t);
        let fresh_key;
        let key = match key {
            Some(_) if cfg.per_attempt_keys => {
                let mut k = [0u8; 32];
                for b in k.iter_mut().take(cfg.key_len()) {
                    *b = HEX[self.rng.below(16) as usize];
                }
                fresh_key = k;
                Some(&fresh_key)
            }
            other => other,
        };
        let mut truly_succeeded = false;
        let row = if timed_out {
            let succeeded = self.rng.chance(cfg.succeeded_share);
            truly_succeeded = succeeded;
            let (status, flags) = self.give_up();
            let answer = if ep.method == "POST" { 201 } else { 200 };
            let upstream = match (succeeded, self.rng.below(4)) {
                (true, 0) => Upstream::Two(502, 200),
                (true, _) => Upstream::Status(answer),
                (false, 0) => Upstream::Two(504, 503),
                (false, 1) => Upstream::Status(500),
                (false, _) => Upstream::Status(503),
            };
            let reached = succeeded
                || cfg.never_reached_share <= 0.0
                || !self.rng.chance(cfg.never_reached_share);
            let unknown =
                !reached || (cfg.unknown_share > 0.0 && self.rng.chance(cfg.unknown_share));
            Row {
                ts,
                method: ep.method,
                path,
                status,
                upstream: if unknown { Upstream::Unknown } else { upstream },
                flags,
                backend: reached.then_some(if succeeded { answer } else { 503 }),
                duration_us: 30_000_000 + self.rng.below(30_000_000),
                key: key.map(|k| &k[..cfg.key_len()]),
                bytes: 0,
            }
        } else {
            let status = match self.rng.below(100) {
                0 => 500,
                1 => 409,
                2 => 422,
                _ => 200,
            };
            Row {
                ts,
                method: ep.method,
                path,
                status,
                upstream: Upstream::Status(status as u16),
                flags: None,
                backend: Some(status as u16),
                duration_us: 5_000 + self.rng.below(2_000_000),
                key: key.map(|k| &k[..cfg.key_len()]),
                bytes: self.rng.below(5_000),
            }
        };
        self.write(&row, true)?;
        let unknown =
            timed_out && (!cfg.format.has_upstream() || matches!(row.upstream, Upstream::Unknown));
        let succeeded = timed_out
            && !unknown
            && matches!(
                row.upstream,
                Upstream::Status(200..=299) | Upstream::Two(_, 200..=299)
            );
        // Every give-up the generator writes is one dupcost counts by default.
        let is_to = timed_out;
        let shown_ts = self.shown(row.ts);
        if timed_out && row.backend.is_none() {
            self.truth.backend.never_reached_ts.push(shown_ts);
        }
        let day = self
            .truth
            .per_day
            .entry(shown_ts.div_euclid(86_400_000_000))
            .or_default();
        day.0 += 1;
        day.1 += u64::from(is_to);
        day.2 += u64::from(succeeded);
        let truth = &mut self.truth;
        truth.mutating_attempts += 1;
        truth.timed_out += u64::from(is_to);
        truth.timed_out_succeeded += u64::from(succeeded);
        truth.timed_out_unknown += u64::from(unknown);
        truth.timed_out_truly_succeeded += u64::from(truly_succeeded);
        if key.is_none() {
            truth.intents += 1;
        }
        if timed_out && attempt < cfg.retries {
            // The client retries a few seconds after giving up.
            return Ok(Some(ts + 31_000_000 + self.rng.below(10_000_000) as i64));
        }
        if key.is_some() {
            truth.intents += 1;
            truth.keyed_intents += 1;
            truth.keyed_attempts += u64::from(attempt) + 1;
            truth.max_attempts = truth.max_attempts.max(attempt + 1);
        }
        Ok(None)
    }

    /// The client-facing status and flags of a give-up, in the format's style.
    fn give_up(&mut self) -> (i32, Option<&'static str>) {
        let pick = self.rng.below(10);
        if self.cfg.format == Format::ApacheLog {
            // httpd has no 499: a client that left shows as 408, the backend's timeout as 504.
            return (if pick <= 4 { 408 } else { 504 }, None);
        }
        let style = if self.cfg.format.is_platform() {
            Format::Csv
        } else {
            self.cfg.format.style()
        };
        match style {
            Format::Csv | Format::Tsv | Format::Nginx | Format::CaddyJson | Format::NginxJson => {
                match pick {
                    0 => (408, None),
                    1..=4 => (499, None),
                    _ => (504, None),
                }
            }
            // Classic ELB: the client's idle timeout (408) or the backend's (504).
            Format::ElbLog => match pick {
                0..=1 => (408, None),
                _ => (504, None),
            },
            // CloudFront: 000 when the viewer went away, 504 when the origin did not answer.
            Format::CloudfrontLog => match pick {
                0..=4 => (0, Some("ClientCommError")),
                _ => (504, Some("OriginCommError")),
            },
            Format::Alb | Format::AlbLog => match pick {
                0 => (408, None),
                1..=4 => (460, None),
                _ => (504, None),
            },
            // Traefik v3 logs 0 when the client left before an answer.
            Format::Traefik | Format::TraefikJson => match pick {
                0 => (0, None),
                1..=4 => (499, None),
                _ => (504, None),
            },
            Format::Envoy | Format::EnvoyJson => match pick {
                0..=4 => (504, Some("UT")),
                5..=7 => (0, Some("DC")),
                8 => (503, Some("UC")),
                _ => (503, Some("URX")),
            },
            // sH: server timeout; CD: client aborted (no response, -1); cR: client timeout.
            Format::Haproxy => match pick {
                0..=4 => (504, Some("sH--")),
                5..=7 => (-1, Some("CD--")),
                8 => (408, Some("cR--")),
                _ => (503, Some("SH--")),
            },
            // style() never returns a raw format.
            _ => (504, None),
        }
    }

    fn delimiter(&self) -> u8 {
        match self.cfg.format {
            Format::Tsv => b'\t',
            Format::Traefik => b';',
            _ => b',',
        }
    }

    fn eol(&self) -> &'static [u8] {
        if self.cfg.crlf { b"\r\n" } else { b"\n" }
    }

    fn header(&mut self) -> io::Result<()> {
        if self.cfg.format.is_native() {
            return self.native_header();
        }
        if self.cfg.format.raw() {
            return Ok(());
        }
        let names: &[&str] = match self.cfg.format {
            Format::Csv | Format::Tsv => &[
                "timestamp",
                "method",
                "path",
                "status",
                "upstream_status",
                "duration_ms",
                "idempotency_key",
                "bytes",
                "user_agent",
            ],
            Format::Nginx => &[
                "time_local",
                "request_method",
                "request_uri",
                "status",
                "upstream_status",
                "request_time",
                "http_idempotency_key",
                "body_bytes_sent",
            ],
            Format::Alb => &[
                "type",
                "time",
                "elb",
                "target_processing_time",
                "elb_status_code",
                "target_status_code",
                "sent_bytes",
                "request_verb",
                "request_url",
            ],
            Format::Traefik => &[
                "StartUTC",
                "RequestMethod",
                "RequestPath",
                "DownstreamStatus",
                "OriginStatus",
                "Duration",
                "request_Idempotency-Key",
            ],
            // Envoy's default format, with the idempotency key added as a user would.
            Format::Envoy => &[
                "start_time",
                "method",
                "path",
                "protocol",
                "response_code",
                "response_flags",
                "bytes_received",
                "bytes_sent",
                "duration",
                "x_forwarded_for",
                "user_agent",
                "x_request_id",
                "authority",
                "upstream_host",
                "idempotency_key",
            ],
            // Logstash's HAPROXYHTTP names.
            Format::Haproxy => &[
                "client_ip",
                "accept_date",
                "frontend_name",
                "backend_name",
                "server_name",
                "time_duration",
                "http_status_code",
                "bytes_read",
                "termination_state",
                "unique_id",
                "http_verb",
                "http_request",
            ],
            _ => &[],
        };
        let d = [self.delimiter()];
        let mut joined = names.join(std::str::from_utf8(&d).unwrap_or(","));
        if self.cfg.request_ids && !self.cfg.format.has_request_id() {
            joined.push(self.delimiter() as char);
            joined.push_str(match self.cfg.format {
                Format::Alb => "trace_id",
                Format::Traefik => "request_X-Request-Id",
                _ => "request_id",
            });
        }
        self.out.write_all(joined.as_bytes())?;
        let eol = self.eol();
        self.out.write_all(eol)
    }

    fn path(&mut self, shape: &[Seg], out: &mut Vec<u8>) {
        out.clear();
        for seg in shape {
            out.push(b'/');
            match *seg {
                Seg::Fixed(s) => out.extend_from_slice(s.as_bytes()),
                Seg::Num => out.extend_from_slice(
                    itoa::Buffer::new()
                        .format(1 + self.rng.below(10_000_000))
                        .as_bytes(),
                ),
                Seg::Hex => (0..16).for_each(|_| out.push(HEX[self.rng.below(16) as usize])),
                Seg::Uuid => {
                    for i in 0..36 {
                        out.push(if [8, 13, 18, 23].contains(&i) {
                            b'-'
                        } else {
                            HEX[self.rng.below(16) as usize]
                        });
                    }
                }
                Seg::Base62(prefix) => {
                    out.extend_from_slice(prefix.as_bytes());
                    // Always a digit and a letter, as real ids have.
                    out.push(b'7');
                    out.push(b'x');
                    (0..18).for_each(|_| out.push(BASE62[self.rng.below(62) as usize]));
                }
            }
        }
    }

    /// With [`RowSize::Long`], a query string after the path, as browsers' and SDKs' requests
    /// carry (with `&` when the path has one already).
    fn long_query(&mut self, path: &mut Vec<u8>) {
        if self.cfg.row_size != RowSize::Long {
            return;
        }
        path.push(if path.contains(&b'?') { b'&' } else { b'?' });
        path.extend_from_slice(b"expand=customer&locale=en-US&session=");
        (0..16).for_each(|_| path.push(HEX[self.rng.below(16) as usize]));
    }

    /// A path of one of `templates` route templates, `/v1/{resource}/{id}/{action}`. Each
    /// template takes one method, so there are as many endpoints (method and template) as
    /// templates.
    fn template_path(&mut self, method: &str, path: &mut Vec<u8>) {
        let slot = ["POST", "PUT", "PATCH", "DELETE"]
            .iter()
            .position(|m| *m == method)
            .unwrap_or(0);
        let templates = u64::from(self.cfg.templates.clamp(4, 10_000));
        let t = (self.rng.below(templates / 4) * 4) as usize + slot;
        let (r, a) = (t % 100, t / 100);
        path.clear();
        path.extend_from_slice(b"/v1/");
        path.extend_from_slice(RESOURCES.0[r % 10].as_bytes());
        path.extend_from_slice(RESOURCES.1[r / 10].as_bytes());
        path.push(b'/');
        let id = 1 + self.rng.below(10_000_000);
        path.extend_from_slice(itoa::Buffer::new().format(id).as_bytes());
        path.push(b'/');
        path.extend_from_slice(ACTIONS.0[a % 10].as_bytes());
        path.extend_from_slice(ACTIONS.1[a / 10].as_bytes());
    }

    /// The timestamp as the format shows it (its precision, its clock), in µs.
    fn shown(&self, ts: i64) -> i64 {
        let ts = ts - self.shift;
        match self.cfg.format.style() {
            Format::Nginx
            | Format::NginxJson
            | Format::CloudfrontLog
            | Format::IisLog
            | Format::ApiGatewayClf
            | Format::ApiGatewayCsv
            | Format::ApiGatewayXml => ts - ts.rem_euclid(1_000_000),
            Format::Csv
            | Format::Tsv
            | Format::Envoy
            | Format::Haproxy
            | Format::CaddyJson
            | Format::EnvoyJson
            | Format::CloudflareJson
            | Format::GcpJson
            | Format::AzureJson
            | Format::KongJson => ts - ts.rem_euclid(1_000),
            _ => ts,
        }
    }

    /// The backend's row for the attempt being written, if it reached the backend.
    fn backend_row(&mut self, row: &Row) -> io::Result<()> {
        let (Some(status), Some(_)) = (row.backend, self.backend.as_ref()) else {
            return Ok(());
        };
        let ts = row.ts - self.shift;
        let mut line = Vec::with_capacity(96);
        let mut time = Vec::with_capacity(32);
        self.iso(&mut time, ts, 6);
        let time = String::from_utf8_lossy(&time).into_owned();
        let id = String::from_utf8_lossy(&self.id).into_owned();
        if self.cfg.backend_json {
            let json = serde_json::json!({
                "time": time,
                "level": "info",
                "msg": "request completed",
                "req_id": id,
                "method": row.method,
                "status": status,
            });
            line.extend_from_slice(json.to_string().as_bytes());
        } else {
            line.extend_from_slice(format!("{time},{id},{},{status}", row.method).as_bytes());
        }
        line.push(b'\n');
        let b = &mut self.truth.backend;
        b.rows += 1;
        b.first_ts = b.first_ts.min(ts);
        b.last_ts = b.last_ts.max(ts);
        if let Some(out) = &mut self.backend {
            out.write_all(&line)?;
        }
        Ok(())
    }

    fn write(&mut self, row: &Row, mutating: bool) -> io::Result<()> {
        let _ = mutating;
        self.shift = if self.cfg.clock_back_secs > 0 && self.truth.rows >= self.cfg.rows / 2 {
            self.cfg.clock_back_secs * 1_000_000
        } else {
            0
        };
        let ids = self.cfg.request_ids || self.cfg.format.has_request_id();
        if ids {
            for i in 0..16 {
                self.id[i] = HEX[self.rng.below(16) as usize];
            }
            self.backend_row(row)?;
        }
        let ts = row.ts - self.shift;
        let shown = self.shown(row.ts);
        self.truth.first_ts = self.truth.first_ts.min(shown);
        self.truth.last_ts = self.truth.last_ts.max(shown);
        self.truth.rows += 1;
        let d = self.delimiter();
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let mut num = itoa::Buffer::new();
        let upstream = |line: &mut Vec<u8>, quote_multi: bool| match row.upstream {
            Upstream::Status(s) => line.extend_from_slice(itoa::Buffer::new().format(s).as_bytes()),
            // nginx logs its own 504 as the upstream's when the upstream timed out.
            Upstream::Unknown if row.status == 504 && quote_multi => line.extend_from_slice(b"504"),
            Upstream::Two(a, b) => {
                if quote_multi {
                    line.push(b'"');
                }
                line.extend_from_slice(itoa::Buffer::new().format(a).as_bytes());
                line.extend_from_slice(if a == 504 { b" : " } else { b", " });
                line.extend_from_slice(itoa::Buffer::new().format(b).as_bytes());
                if quote_multi {
                    line.push(b'"');
                }
            }
            Upstream::Unknown => line.push(b'-'),
        };
        match self.cfg.format {
            Format::Csv | Format::Tsv => {
                self.lead(&mut line, row, ts, 3);
                line.push(d);
                line.extend_from_slice(num.format(row.duration_us / 1000).as_bytes());
                line.push(d);
                if let Some(k) = row.key {
                    line.extend_from_slice(k);
                }
                line.push(d);
                line.extend_from_slice(num.format(row.bytes).as_bytes());
                line.push(d);
                if self.cfg.tricky_quotes {
                    match self.rng.below(4) {
                        0 => line.extend_from_slice(
                            b"\"Mozilla/5.0 (X11; Linux x86_64), \"\"quoted\"\"\tagent\"",
                        ),
                        1 => line.extend_from_slice(b"\"multi\nline agent\""),
                        2 => line.extend_from_slice(b"caf\xe9-client/1.0 (latin-1)"),
                        _ => line.extend_from_slice(b"curl/8.5"),
                    }
                } else {
                    match self.cfg.row_size {
                        RowSize::Normal => line.extend_from_slice(b"curl/8.5"),
                        RowSize::Short => {}
                        RowSize::Long => {
                            // No random draw: the rows stay those of the other sizes.
                            let agent = LONG_AGENTS[(self.truth.rows % 4) as usize];
                            line.push(b'"');
                            line.extend_from_slice(agent.as_bytes());
                            line.push(b'"');
                        }
                    }
                }
            }
            Format::Nginx => {
                self.time_local(&mut line, ts);
                line.push(d);
                line.extend_from_slice(row.method.as_bytes());
                line.push(d);
                line.extend_from_slice(row.path);
                line.push(d);
                line.extend_from_slice(num.format(row.status).as_bytes());
                line.push(d);
                upstream(&mut line, true);
                line.push(d);
                let ms = row.duration_us / 1000;
                line.extend_from_slice(num.format(ms / 1000).as_bytes());
                line.push(b'.');
                let frac = ms % 1000;
                line.extend_from_slice(&[
                    b'0' + (frac / 100) as u8,
                    b'0' + (frac / 10 % 10) as u8,
                    b'0' + (frac % 10) as u8,
                ]);
                line.push(d);
                match row.key {
                    Some(k) => line.extend_from_slice(k),
                    None => line.push(b'-'),
                }
                line.push(d);
                line.extend_from_slice(num.format(row.bytes).as_bytes());
            }
            Format::Alb => {
                line.extend_from_slice(b"https");
                line.push(d);
                self.iso(&mut line, ts, 6);
                line.push(d);
                line.extend_from_slice(b"app/my-lb/50dc6c495c0c9188");
                line.push(d);
                if matches!(row.upstream, Upstream::Unknown) {
                    line.extend_from_slice(b"-1");
                } else {
                    let us = row.duration_us;
                    line.extend_from_slice(num.format(us / 1_000_000).as_bytes());
                    line.push(b'.');
                    line.extend_from_slice(format!("{:06}", us % 1_000_000).as_bytes());
                }
                line.push(d);
                line.extend_from_slice(num.format(row.status).as_bytes());
                line.push(d);
                match row.upstream {
                    Upstream::Two(_, b) => line.extend_from_slice(num.format(b).as_bytes()),
                    _ => upstream(&mut line, false),
                }
                line.push(d);
                line.extend_from_slice(num.format(row.bytes).as_bytes());
                line.push(d);
                line.extend_from_slice(row.method.as_bytes());
                line.push(d);
                line.extend_from_slice(b"https://api.example.com:443");
                line.extend_from_slice(row.path);
            }
            Format::Traefik => {
                self.lead(&mut line, row, ts, 9);
                line.push(d);
                line.extend_from_slice(num.format(row.duration_us * 1000).as_bytes());
                line.push(d);
                if let Some(k) = row.key {
                    line.extend_from_slice(k);
                }
            }
            Format::Envoy => {
                self.iso(&mut line, ts, 3);
                let (status, bytes, ms) = (
                    row.status.to_string(),
                    row.bytes.to_string(),
                    (row.duration_us / 1000).to_string(),
                );
                for field in [
                    row.method.as_bytes(),
                    row.path,
                    b"HTTP/1.1",
                    status.as_bytes(),
                    row.flags.unwrap_or("-").as_bytes(),
                    b"512",
                    bytes.as_bytes(),
                    ms.as_bytes(),
                    b"10.0.0.7",
                    b"curl/8.5",
                    &self.id,
                    b"api.example.com",
                    b"10.1.2.3:8080",
                    row.key.unwrap_or(b"-"),
                ] {
                    line.push(d);
                    line.extend_from_slice(field);
                }
            }
            Format::NginxLog
            | Format::ApacheLog
            | Format::HaproxyLog
            | Format::EnvoyLog
            | Format::IstioLog => self.raw_line(&mut line, row, ts),
            Format::Haproxy => {
                line.extend_from_slice(b"10.0.0.7");
                line.push(d);
                self.iso(&mut line, ts, 3);
                let (status, bytes, ms) = (
                    row.status.to_string(),
                    row.bytes.to_string(),
                    (row.duration_us / 1000).to_string(),
                );
                for field in [
                    b"https-in".as_slice(),
                    b"api",
                    b"api-1",
                    ms.as_bytes(),
                    status.as_bytes(),
                    bytes.as_bytes(),
                    row.flags.unwrap_or("----").as_bytes(),
                    &self.id,
                    row.method.as_bytes(),
                    row.path,
                ] {
                    line.push(d);
                    line.extend_from_slice(field);
                }
            }
            _ => self.native_row(&mut line, row, ts),
        }
        if self.cfg.request_ids
            && !self.cfg.format.has_request_id()
            && !self.cfg.format.raw()
            && !self.cfg.format.is_native()
        {
            line.push(d);
            line.extend_from_slice(&self.id);
        }
        line.extend_from_slice(self.eol());
        if self.cfg.bad_every > 0 && self.truth.rows % self.cfg.bad_every == 0 {
            self.truth.rows += 1;
            self.truth.bad_rows += 1;
            if self.cfg.format.raw() {
                line.extend_from_slice(b"this is not an access log line: 1.2.3.4 [yesterday]");
            } else if self.truth.bad_rows % 2 == 0 || self.cfg.format.is_native() {
                line.extend_from_slice(b"not,enough,fields");
            } else {
                let fields =
                    match self.cfg.format {
                        Format::Csv | Format::Tsv => 9,
                        Format::Nginx => 8,
                        Format::Alb => 9,
                        Format::Traefik => 7,
                        Format::Envoy => 15,
                        Format::Haproxy => 12,
                        _ => 0,
                    } + usize::from(self.cfg.request_ids && !self.cfg.format.has_request_id());
                // Right field count, unparseable timestamp (ALB's is the second field).
                let first = if self.cfg.format == Format::Alb {
                    "https"
                } else {
                    "yesterday"
                };
                line.extend_from_slice(first.as_bytes());
                let second = if self.cfg.format == Format::Alb {
                    "yesterday"
                } else {
                    "POST"
                };
                line.push(d);
                line.extend_from_slice(second.as_bytes());
                for _ in 2..fields {
                    line.push(d);
                    line.push(b'1');
                }
            }
            line.extend_from_slice(self.eol());
        }
        self.out.write_all(&line)?;
        self.line = line;
        Ok(())
    }

    /// A raw line of a server's own format (no line end), with the same row as the CSV
    /// formats write.
    fn raw_line(&mut self, line: &mut Vec<u8>, row: &Row, ts: i64) {
        let mut num = itoa::Buffer::new();
        // Quoted user agents with spaces on every other row (no random draw: the rows stay
        // those of the CSV sibling).
        let agent: &[u8] = if self.truth.rows % 2 == 0 {
            b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
        } else {
            b"curl/8.5.0"
        };
        let ms = row.duration_us / 1000;
        match self.cfg.format {
            Format::NginxLog | Format::ApacheLog => {
                line.extend_from_slice(b"10.0.0.7 - - [");
                self.time_local(line, ts);
                line.extend_from_slice(b"] \"");
                line.extend_from_slice(row.method.as_bytes());
                line.push(b' ');
                line.extend_from_slice(row.path);
                line.extend_from_slice(b" HTTP/1.1\" ");
                line.extend_from_slice(num.format(row.status).as_bytes());
                line.push(b' ');
                line.extend_from_slice(num.format(row.bytes).as_bytes());
                if self.cfg.format == Format::ApacheLog {
                    line.push(b' ');
                    line.extend_from_slice(num.format(row.duration_us).as_bytes());
                } else {
                    line.extend_from_slice(b" \"-\" \"");
                    line.extend_from_slice(agent);
                    line.extend_from_slice(b"\" ");
                    line.extend_from_slice(num.format(ms / 1000).as_bytes());
                    line.push(b'.');
                    line.extend_from_slice(format!("{:03}", ms % 1000).as_bytes());
                    line.push(b' ');
                    match row.upstream {
                        Upstream::Status(s) => line.extend_from_slice(num.format(s).as_bytes()),
                        // nginx logs its own 504 as the upstream's when the upstream timed out.
                        Upstream::Unknown if row.status == 504 => line.extend_from_slice(b"504"),
                        Upstream::Unknown => line.push(b'-'),
                        Upstream::Two(a, b) => {
                            line.extend_from_slice(num.format(a).as_bytes());
                            line.extend_from_slice(if a == 504 { b" : " } else { b", " });
                            line.extend_from_slice(num.format(b).as_bytes());
                        }
                    }
                }
                line.extend_from_slice(b" \"");
                line.extend_from_slice(row.key.unwrap_or(b"-"));
                line.push(b'"');
                if self.cfg.request_ids && self.cfg.format == Format::NginxLog {
                    line.push(b' ');
                    line.extend_from_slice(&self.id);
                }
            }
            Format::HaproxyLog => {
                if self.truth.rows % 2 == 0 {
                    line.extend_from_slice(b"Nov  1 00:00:00 lb1 haproxy[14389]: ");
                }
                line.extend_from_slice(b"10.0.0.7:51234 [");
                self.time_local(line, ts);
                // `01/Nov/2026:00:00:01 +0000` → `01/Nov/2026:00:00:01.123`.
                line.truncate(line.len() - 6);
                line.extend_from_slice(
                    format!(".{:03}", ts.rem_euclid(1_000_000) / 1000).as_bytes(),
                );
                line.extend_from_slice(b"] https-in~ api/api-1 0/0/1/");
                let responded = row.status > 0 && row.flags.is_none_or(|f| !f.starts_with('C'));
                if responded {
                    line.extend_from_slice(num.format(ms.saturating_sub(2)).as_bytes());
                } else {
                    line.extend_from_slice(b"-1");
                }
                line.push(b'/');
                line.extend_from_slice(num.format(ms).as_bytes());
                line.push(b' ');
                line.extend_from_slice(num.format(row.status).as_bytes());
                line.push(b' ');
                line.extend_from_slice(num.format(row.bytes).as_bytes());
                line.extend_from_slice(b" - - ");
                line.extend_from_slice(row.flags.unwrap_or("----").as_bytes());
                line.extend_from_slice(b" 3/3/1/1/0 0/0 \"");
                line.extend_from_slice(row.method.as_bytes());
                line.push(b' ');
                line.extend_from_slice(row.path);
                line.extend_from_slice(b" HTTP/1.1\"");
            }
            Format::EnvoyLog | Format::IstioLog => {
                line.push(b'[');
                self.iso(line, ts, 3);
                line.extend_from_slice(b"] \"");
                line.extend_from_slice(row.method.as_bytes());
                line.push(b' ');
                line.extend_from_slice(row.path);
                line.extend_from_slice(b" HTTP/1.1\" ");
                line.extend_from_slice(num.format(row.status).as_bytes());
                line.push(b' ');
                line.extend_from_slice(row.flags.unwrap_or("-").as_bytes());
                if self.cfg.format == Format::IstioLog {
                    line.extend_from_slice(match row.flags {
                        Some("UT") => b" upstream_response_timeout - \"-\"",
                        Some("DC") => b" downstream_remote_disconnect - \"-\"",
                        Some(_) => b" upstream_reset_before_response_started{connection_termination} - \"-\"",
                        None => b" via_upstream - \"-\"",
                    });
                }
                line.extend_from_slice(b" 512 ");
                line.extend_from_slice(num.format(row.bytes).as_bytes());
                line.push(b' ');
                line.extend_from_slice(num.format(ms).as_bytes());
                line.extend_from_slice(b" - \"10.0.0.7\" \"");
                line.extend_from_slice(agent);
                line.extend_from_slice(b"\" \"");
                line.extend_from_slice(&self.id);
                line.extend_from_slice(b"\" \"api.example.com\" \"10.1.2.3:8080\"");
                if self.cfg.format == Format::IstioLog {
                    line.extend_from_slice(b" outbound|8080||api.shop.svc.cluster.local 10.44.1.23:37652 10.0.45.184:8080 10.0.0.7:46520 - default");
                }
            }
            _ => {}
        }
    }

    /// The fields CSV, TSV and Traefik share: timestamp `ts` (with `frac` fraction digits),
    /// method, path, status, and the last upstream status (an unknown one is `-` in CSV and
    /// the client-facing status echoed in Traefik).
    fn lead(&mut self, line: &mut Vec<u8>, row: &Row, ts: i64, frac: usize) {
        let d = self.delimiter();
        let mut num = itoa::Buffer::new();
        self.iso(line, ts, frac);
        for field in [
            row.method.as_bytes(),
            row.path,
            num.format(row.status).as_bytes(),
        ] {
            line.push(d);
            line.extend_from_slice(field);
        }
        line.push(d);
        match row.upstream {
            Upstream::Status(s) | Upstream::Two(_, s) => {
                line.extend_from_slice(num.format(s).as_bytes())
            }
            Upstream::Unknown if self.cfg.format == Format::Traefik => {
                line.extend_from_slice(num.format(row.status).as_bytes())
            }
            Upstream::Unknown => line.push(b'-'),
        }
    }

    /// `2026-11-01T00:00:01.123Z` with `frac` fraction digits (3, 6 or 9).
    fn iso(&mut self, line: &mut Vec<u8>, ts: i64, frac: usize) {
        let day = ts.div_euclid(86_400_000_000);
        let rest = ts.rem_euclid(86_400_000_000);
        if self.day_cache.0 != day {
            let (y, m, d) = civil_from_days(day);
            let s = format!("{y:04}-{m:02}-{d:02}");
            self.day_cache = (day, s.as_bytes().try_into().unwrap_or([b'0'; 10]));
        }
        line.extend_from_slice(&self.day_cache.1);
        line.push(b'T');
        push_hms(line, rest / 1_000_000);
        line.push(b'.');
        let us = rest % 1_000_000;
        let digits = [
            us / 100_000,
            us / 10_000 % 10,
            us / 1000 % 10,
            us / 100 % 10,
            us / 10 % 10,
            us % 10,
            0,
            0,
            0,
        ];
        for &dg in &digits[..frac] {
            line.push(b'0' + dg as u8);
        }
        line.push(b'Z');
    }

    /// `01/Nov/2026:00:00:01 +0000`.
    fn time_local(&mut self, line: &mut Vec<u8>, ts: i64) {
        let day = ts.div_euclid(86_400_000_000);
        let rest = ts.rem_euclid(86_400_000_000);
        let (y, m, d) = civil_from_days(day);
        line.extend_from_slice(&[b'0' + (d / 10) as u8, b'0' + (d % 10) as u8, b'/']);
        line.extend_from_slice(MONTHS[m as usize - 1].as_bytes());
        line.push(b'/');
        line.extend_from_slice(itoa::Buffer::new().format(y).as_bytes());
        line.push(b':');
        push_hms(line, rest / 1_000_000);
        line.extend_from_slice(b" +0000");
    }
}

fn push_hms(line: &mut Vec<u8>, secs: i64) {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    for (i, v) in [h, m, s].into_iter().enumerate() {
        if i > 0 {
            line.push(b':');
        }
        line.push(b'0' + (v / 10) as u8);
        line.push(b'0' + (v % 10) as u8);
    }
}

/// CloudFront's documented standard-log fields.
const CLOUDFRONT_FIELDS: &str = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) \
    cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type \
    x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol \
    ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields \
    c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len \
    sc-range-start sc-range-end";

/// The `#Fields:` line of [`Format::IisLog`].
pub const IIS_FIELDS: &str = "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port \
    cs-username c-ip cs(User-Agent) cs(Idempotency-Key) sc-status sc-substatus sc-win32-status \
    time-taken";
/// The long rows' user agents, one per row in turn (quoted in CSV: they hold commas).
const LONG_AGENTS: [&str; 4] = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Shop/4.12.0 (com.example.shop; build:4120; Android 15; Pixel 8) okhttp/4.12.0",
];

/// The ten-thousand route templates' names: a resource (first part and second part, 100 in
/// all) and an action (100), letters only, so none reads as an id.
const RESOURCES: ([&str; 10], [&str; 10]) = (
    [
        "acc", "bil", "car", "dis", "inv", "led", "mer", "pay", "sub", "tax",
    ],
    [
        "ounts",
        "lings",
        "ts",
        "putes",
        "oices",
        "gers",
        "chants",
        "outs",
        "scriptions",
        "es",
    ],
);
const ACTIONS: ([&str; 10], [&str; 10]) = (
    [
        "can", "con", "ref", "ret", "set", "sub", "upd", "ver", "voi", "arc",
    ],
    [
        "cel", "firm", "und", "ry", "tle", "mit", "ate", "ify", "d", "hive",
    ],
);

/// User agents, one per row in turn: ALB and classic ELB quote them, spaces and all.
const USER_AGENTS: [&str; 3] = [
    "curl/8.5.0",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
    "okhttp/4.12.0",
];

/// The formats written as the servers write them (`alb-log`, `elb-log`, `cloudfront-log`,
/// `caddy-json`, `traefik-json`, `envoy-json`, `nginx-json`): no randomness here, so a seed
/// gives the same rows (and truth) as the CSV format of the same proxy.
impl<W: Write, B: Write> Gen<'_, W, B> {
    fn native_header(&mut self) -> io::Result<()> {
        if self.cfg.format == Format::IisLog {
            let eol = self.eol();
            for line in [
                "#Software: Microsoft Internet Information Services 10.0",
                "#Version: 1.0",
                "#Date: 2026-11-01 00:00:00",
                IIS_FIELDS,
            ] {
                self.out.write_all(line.as_bytes())?;
                self.out.write_all(eol)?;
            }
        }
        if self.cfg.format == Format::CloudfrontLog {
            let eol = self.eol();
            self.out.write_all(b"#Version: 1.0")?;
            self.out.write_all(eol)?;
            self.out.write_all(b"#Fields: ")?;
            let fields: Vec<&str> = CLOUDFRONT_FIELDS.split_whitespace().collect();
            self.out.write_all(fields.join(" ").as_bytes())?;
            self.out.write_all(eol)?;
        }
        Ok(())
    }

    /// The row's request id: the generated one when ids are asked for, else one made from
    /// the row number (the servers always log one).
    fn native_id(&self) -> String {
        if self.cfg.request_ids || self.cfg.format.has_request_id() {
            String::from_utf8_lossy(&self.id).into_owned()
        } else {
            format!(
                "{:016x}",
                self.truth.rows.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            )
        }
    }

    fn native_row(&mut self, line: &mut Vec<u8>, row: &Row, ts: i64) {
        let id = self.native_id();
        let ua = USER_AGENTS[(self.truth.rows % 3) as usize];
        let status = row.status.max(0);
        let us = row.duration_us;
        let secs = format!("{}.{:06}", us / 1_000_000, us % 1_000_000);
        let mut time = Vec::with_capacity(32);
        let last = match row.upstream {
            Upstream::Status(s) | Upstream::Two(_, s) => Some(s),
            Upstream::Unknown => None,
        };
        match self.cfg.format {
            Format::AlbLog | Format::ElbLog => {
                self.iso(&mut time, ts, 6);
                let time = String::from_utf8_lossy(&time);
                let (times, target_status) = match last {
                    // The client or the target went away: AWS's -1 and `-`.
                    None => ("0.000 -1 -1".to_string(), "-".to_string()),
                    Some(s) => (format!("0.000 {secs} 0.000"), s.to_string()),
                };
                let request = format!(
                    "\"{} https://api.example.com:443{} HTTP/1.1\" \"{ua}\"",
                    row.method,
                    String::from_utf8_lossy(row.path)
                );
                let text = if self.cfg.format == Format::AlbLog {
                    let created = ts - us as i64;
                    let mut c = Vec::with_capacity(32);
                    self.iso(&mut c, created, 6);
                    format!(
                        "https {time} app/my-lb/50dc6c495c0c9188 10.0.0.7:{port} 10.1.2.3:8080 \
                         {times} {status} {target_status} 512 {bytes} {request} \
                         ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 \
                         arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/api/73e2d6bc24d8a067 \
                         \"Root=1-{id}\" \"api.example.com\" \
                         \"arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012\" \
                         1 {created} \"forward\" \"-\" \"-\" \"10.1.2.3:8080\" \"{target_status}\" \"-\" \"-\" \
                         TID_{id}",
                        port = 40_000 + self.truth.rows % 20_000,
                        bytes = row.bytes,
                        created = String::from_utf8_lossy(&c),
                    )
                } else {
                    format!(
                        "{time} my-lb 10.0.0.7:{port} 10.1.2.3:8080 {times} {status} \
                         {target_status} 512 {bytes} {request} ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2",
                        port = 40_000 + self.truth.rows % 20_000,
                        bytes = row.bytes,
                    )
                };
                line.extend_from_slice(text.as_bytes());
            }
            Format::CloudfrontLog => {
                self.iso(&mut time, ts, 0);
                let date = String::from_utf8_lossy(&time[..10]).into_owned();
                let clock = String::from_utf8_lossy(&time[11..19]).into_owned();
                let path = String::from_utf8_lossy(row.path);
                let (stem, query) = path.split_once('?').unwrap_or((&path, "-"));
                let (result, detail) = match row.flags {
                    Some(detail) => ("Error", detail),
                    None if status >= 500 => ("Error", "Error"),
                    None => ("Miss", "Miss"),
                };
                let ms = format!("{}.{:03}", us / 1_000_000, us / 1000 % 1000);
                let fields = [
                    date.as_str(),
                    &clock,
                    "IAD89-C1",
                    &row.bytes.to_string(),
                    "192.0.2.100",
                    row.method,
                    "d111111abcdef8.cloudfront.net",
                    stem,
                    &format!("{status:03}"),
                    "-",
                    &ua.replace(' ', "%20"),
                    query,
                    "-",
                    result,
                    &id,
                    "api.example.com",
                    "https",
                    "512",
                    &ms,
                    "-",
                    "TLSv1.3",
                    "TLS_AES_128_GCM_SHA256",
                    result,
                    "HTTP/2.0",
                    "-",
                    "-",
                    "443",
                    &ms,
                    detail,
                    "application/json",
                    &row.bytes.to_string(),
                    "-",
                    "-",
                ];
                line.extend_from_slice(fields.join("\t").as_bytes());
            }
            Format::CaddyJson => {
                let ts_ms = ts.div_euclid(1000);
                let mut headers = serde_json::json!({ "User-Agent": [ua] });
                if let Some(k) = row.key {
                    headers["Idempotency-Key"] = serde_json::json!([String::from_utf8_lossy(k)]);
                }
                if self.cfg.request_ids {
                    headers["X-Request-Id"] = serde_json::json!([id]);
                }
                let json = serde_json::json!({
                    "level": "info",
                    "ts": serde_json::Number::from_f64(ts_ms as f64 / 1000.0),
                    "logger": "http.log.access",
                    "msg": "handled request",
                    "request": {
                        "remote_ip": "10.0.0.7",
                        "proto": "HTTP/2.0",
                        "method": row.method,
                        "host": "api.example.com",
                        "uri": String::from_utf8_lossy(row.path),
                        "headers": headers,
                    },
                    "bytes_read": 512,
                    "duration": serde_json::Number::from_f64(us as f64 / 1e6),
                    "size": row.bytes,
                    "status": status,
                });
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::TraefikJson => {
                self.iso(&mut time, ts, 9);
                let origin = last.map_or(status as u16, |s| s);
                let mut json = serde_json::json!({
                    "ClientHost": "10.0.0.7",
                    "DownstreamContentSize": row.bytes,
                    "DownstreamStatus": status,
                    "Duration": us * 1000,
                    "OriginStatus": origin,
                    "RequestMethod": row.method,
                    "RequestPath": String::from_utf8_lossy(row.path),
                    "StartUTC": String::from_utf8_lossy(&time),
                    "request_User-Agent": ua,
                    "level": "info",
                    "msg": "",
                });
                if let Some(k) = row.key {
                    json["request_Idempotency-Key"] = String::from_utf8_lossy(k).into();
                }
                if self.cfg.request_ids {
                    json["request_X-Request-Id"] = id.into();
                }
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::IisLog => {
                self.iso(&mut time, ts, 0);
                let date = String::from_utf8_lossy(&time[..10]).into_owned();
                let clock = String::from_utf8_lossy(&time[11..19]).into_owned();
                let path = String::from_utf8_lossy(row.path);
                let (stem, query) = path.split_once('?').unwrap_or((&path, "-"));
                // What IIS writes: ARR's 502.3 (win32 12002) when it timed out on the
                // backend; the client leaving is win32 64 on what IIS had (the backend's
                // status, or ARR's 502.3 when it had none yet).
                let (sc, sub, win32) = match (status, last) {
                    (504, _) => (502, 3, 12002),
                    (408 | 499, Some(s)) => (s, 0, 64),
                    (408 | 499, None) => (502, 3, 64),
                    (s, _) => (s as u16, 0, 0),
                };
                let key = row.key.map_or("-".into(), String::from_utf8_lossy);
                let text = format!(
                    "{date} {clock} 10.0.0.5 {method} {stem} {query} 443 - 10.0.0.7 {ua} {key} \
                     {sc} {sub} {win32} {ms}",
                    method = row.method,
                    ua = ua.replace(' ', "+"),
                    ms = us / 1000,
                );
                line.extend_from_slice(text.as_bytes());
            }
            Format::CloudflareJson => {
                // The origin's timeout is Cloudflare's 524; a client that left, 499.
                let edge = if status == 504 { 524 } else { status };
                let mut json = serde_json::json!({
                    "ClientIP": "10.0.0.7",
                    "ClientRequestHost": "api.example.com",
                    "ClientRequestMethod": row.method,
                    "ClientRequestURI": String::from_utf8_lossy(row.path),
                    "ClientRequestUserAgent": ua,
                    "EdgeResponseBytes": row.bytes,
                    "EdgeResponseStatus": edge,
                    // Unix nanoseconds, of the millisecond the CSV shows.
                    "EdgeStartTimestamp": ts.div_euclid(1000) * 1_000_000,
                    "EdgeTimeToFirstByteMs": us / 1000,
                    "OriginResponseStatus": last.unwrap_or(0),
                    "RayID": id,
                    "RequestHeaders": {},
                });
                if let Some(k) = row.key {
                    json["RequestHeaders"]["idempotency-key"] = String::from_utf8_lossy(k).into();
                }
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::GcpJson => {
                self.iso(&mut time, ts, 3);
                let details = match status {
                    504 => "backend_timeout",
                    499 => "client_disconnected_before_any_response",
                    408 => "client_timed_out",
                    _ => "response_sent_by_backend",
                };
                let json = serde_json::json!({
                    "httpRequest": {
                        "latency": format!("{secs}s"),
                        "remoteIp": "10.0.0.7",
                        "requestMethod": row.method,
                        "requestSize": "512",
                        "requestUrl": format!("https://api.example.com{}", String::from_utf8_lossy(row.path)),
                        "responseSize": row.bytes.to_string(),
                        "status": status,
                        "userAgent": ua,
                    },
                    "insertId": id,
                    "jsonPayload": {
                        "@type": "type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry",
                        "statusDetails": details,
                    },
                    "resource": {"type": "http_load_balancer"},
                    "severity": "INFO",
                    "timestamp": String::from_utf8_lossy(&time),
                });
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::AzureJson => {
                self.iso(&mut time, ts, 3);
                // The time key varies between records, as Azure's do.
                let key = ["time", "timeStamp", "timestamp"][(self.truth.rows % 3) as usize];
                if self.truth.rows % 50 == 7 {
                    // A firewall record among the access records: skipped, never a row.
                    let fw = serde_json::json!({
                        "time": String::from_utf8_lossy(&time),
                        "category": "ApplicationGatewayFirewallLog",
                        "properties": {"instanceId": "appgw_0", "clientIp": "10.0.0.7", "requestUri": "/login", "ruleId": "942100", "action": "Matched"},
                    });
                    line.extend_from_slice(fw.to_string().as_bytes());
                    line.extend_from_slice(self.eol());
                }
                let mut json = serde_json::json!({
                    "category": "ApplicationGatewayAccessLog",
                    "operationName": "ApplicationGatewayAccess",
                    "properties": {
                        "clientIP": "10.0.0.7",
                        "httpMethod": row.method,
                        "httpStatus": status,
                        "requestUri": String::from_utf8_lossy(row.path),
                        "sentBytes": row.bytes,
                        "serverStatus": last.map_or("-".to_string(), |s| s.to_string()),
                        "timeTaken": serde_json::Number::from_f64(us as f64 / 1e6),
                        "transactionId": id,
                        "userAgent": ua,
                    },
                });
                json[key] = String::from_utf8_lossy(&time).into();
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::ApiGatewayClf | Format::ApiGatewayCsv | Format::ApiGatewayXml => {
                self.time_local(&mut time, ts);
                let time = String::from_utf8_lossy(&time).into_owned();
                // A REST API's request id is a UUID; the extended id, API Gateway's own.
                let n = self.truth.rows.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let id = format!(
                    "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
                    n >> 32,
                    (n >> 16) & 0xffff,
                    (n >> 4) & 0xfff,
                    n & 0xfff,
                    n >> 16
                );
                let ext = format!("{:015x}=", n >> 4);
                // API Gateway's answer when its integration timed out is 504; a client that
                // left earlier is no status it documents: each give-up is written as the 504.
                let status = if matches!(status, 408 | 499) {
                    504
                } else {
                    status
                };
                let (method, path, bytes) =
                    (row.method, String::from_utf8_lossy(row.path), row.bytes);
                let text = match self.cfg.format {
                    Format::ApiGatewayClf => format!(
                        r#"10.0.0.7 - - [{time}]"{method} {path} HTTP/1.1" {status} {bytes} {id} {ext}"#
                    ),
                    Format::ApiGatewayCsv => format!(
                        "10.0.0.7,-,-,{time},{method},{path},HTTP/1.1,{status},{bytes},{id},{ext}"
                    ),
                    _ => format!(
                        r#"<request id="{id}"> <extendedRequestId>{ext}</extendedRequestId> <ip>10.0.0.7</ip> <caller>-</caller> <user>-</user> <requestTime>{time}</requestTime> <httpMethod>{method}</httpMethod> <resourcePath>{path}</resourcePath> <status>{status}</status> <protocol>HTTP/1.1</protocol> <responseLength>{bytes}</responseLength> </request>"#
                    ),
                };
                line.extend_from_slice(text.as_bytes());
            }
            Format::KongJson => {
                let mut headers = serde_json::json!({ "user-agent": ua, "x-request-id": id });
                if let Some(k) = row.key {
                    headers["idempotency-key"] = String::from_utf8_lossy(k).into();
                }
                let ms = us / 1000;
                let mut json = serde_json::json!({
                    "client_ip": "10.0.0.7",
                    "latencies": {"kong": 1, "proxy": if last.is_some() { ms as i64 } else { -1 }, "request": ms},
                    "request": {"method": row.method, "uri": String::from_utf8_lossy(row.path), "size": 512, "headers": headers},
                    "response": {"status": status, "size": row.bytes},
                    "started_at": ts.div_euclid(1000),
                });
                if let Some(s) = last {
                    json["upstream_status"] = s.to_string().into();
                }
                line.extend_from_slice(json.to_string().as_bytes());
            }
            Format::EnvoyJson => {
                self.iso(&mut time, ts, 3);
                let json = serde_json::json!({
                    "start_time": String::from_utf8_lossy(&time),
                    "method": row.method,
                    "path": String::from_utf8_lossy(row.path),
                    "protocol": "HTTP/1.1",
                    "response_code": status,
                    "response_flags": row.flags.unwrap_or("-"),
                    "bytes_received": 512,
                    "bytes_sent": row.bytes,
                    "duration": us / 1000,
                    "x_forwarded_for": "10.0.0.7",
                    "user_agent": ua,
                    "x_request_id": id,
                    "authority": "api.example.com",
                    "upstream_host": "10.1.2.3:8080",
                    "idempotency_key": row.key.map(String::from_utf8_lossy),
                });
                line.extend_from_slice(json.to_string().as_bytes());
            }
            _ => {
                // nginx `escape=json`: every value a string, as nginx writes them.
                self.time_local(&mut time, ts);
                let upstream = match row.upstream {
                    Upstream::Status(s) => s.to_string(),
                    Upstream::Two(a, b) => format!("{a}{}{b}", if a == 504 { " : " } else { ", " }),
                    Upstream::Unknown if status == 504 => "504".to_string(),
                    Upstream::Unknown => "-".to_string(),
                };
                let ms = us / 1000;
                let mut json = serde_json::json!({
                    "time_local": String::from_utf8_lossy(&time),
                    "remote_addr": "10.0.0.7",
                    "request_method": row.method,
                    "request_uri": String::from_utf8_lossy(row.path),
                    "status": status.to_string(),
                    "upstream_status": upstream,
                    "request_time": format!("{}.{:03}", ms / 1000, ms % 1000),
                    "http_idempotency_key": row.key.map_or("".into(), String::from_utf8_lossy),
                    "body_bytes_sent": row.bytes.to_string(),
                    "http_user_agent": ua,
                });
                if self.cfg.request_ids {
                    json["request_id"] = id.into();
                }
                line.extend_from_slice(json.to_string().as_bytes());
            }
        }
    }
}
