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

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::io::{self, Write};

use dupcost::logs::timestamp::civil_from_days;

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
            _ => Err(format!(
                "unknown format '{s}': csv, tsv, nginx, alb or traefik"
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
    pub timed_out_succeeded: u64,
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
    pub fn succeeded_share(&self) -> f64 {
        self.timed_out_succeeded as f64 / self.timed_out as f64
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
    status: u16,
    upstream: Upstream,
    duration_us: u64,
    key: Option<&'a [u8]>,
    bytes: u64,
}

#[derive(Clone, Copy)]
enum Upstream {
    Status(u16),
    /// nginx tried two upstreams: `first, second`.
    Two(u16, u16),
    None,
}

/// Writes the header and rows, returning the truth.
pub fn generate<W: Write>(cfg: &Config, out: W) -> io::Result<Truth> {
    let mut g = Gen {
        cfg,
        rng: Rng::new(cfg.seed),
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
                upstream: Upstream::Status(status),
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
        let keyed = cfg.format != Format::Alb && g.rng.chance(cfg.key_share);
        if keyed {
            for b in key.iter_mut() {
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
    Ok(g.truth)
}

struct Gen<'a, W: Write> {
    cfg: &'a Config,
    rng: Rng,
    out: io::BufWriter<W>,
    line: Vec<u8>,
    truth: Truth,
    day_cache: (i64, [u8; 10]),
}

impl<W: Write> Gen<'_, W> {
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
        let row = if timed_out {
            let succeeded = self.rng.chance(cfg.succeeded_share);
            let status = match self.rng.below(10) {
                0 => 408,
                1..=4 => 499,
                _ => 504,
            };
            let upstream = match (succeeded, self.rng.below(4)) {
                (true, 0) => Upstream::Two(502, 200),
                (true, _) => Upstream::Status(if ep.method == "POST" { 201 } else { 200 }),
                (false, 0) => Upstream::Two(504, 502),
                (false, 1) => Upstream::None,
                (false, _) => Upstream::Status(503),
            };
            Row {
                ts,
                method: ep.method,
                path,
                status,
                upstream,
                duration_us: 30_000_000 + self.rng.below(30_000_000),
                key: key.map(|k| &k[..]),
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
                upstream: Upstream::Status(status),
                duration_us: 5_000 + self.rng.below(2_000_000),
                key: key.map(|k| &k[..]),
                bytes: self.rng.below(5_000),
            }
        };
        self.write(&row, true)?;
        let succeeded = timed_out
            && matches!(
                row.upstream,
                Upstream::Status(200..=299) | Upstream::Two(_, 200..=299)
            );
        let is_to = [408, 499, 504].contains(&row.status);
        let shown_ts = self.shown(row.ts);
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
        };
        let d = [self.delimiter()];
        let joined = names.join(std::str::from_utf8(&d).unwrap_or(","));
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

    /// The timestamp as the format shows it (its precision), in µs.
    fn shown(&self, ts: i64) -> i64 {
        match self.cfg.format {
            Format::Nginx => ts - ts.rem_euclid(1_000_000),
            Format::Csv | Format::Tsv => ts - ts.rem_euclid(1_000),
            Format::Alb | Format::Traefik => ts,
        }
    }

    fn write(&mut self, row: &Row, mutating: bool) -> io::Result<()> {
        let _ = mutating;
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
            Upstream::None => line.push(b'-'),
        };
        match self.cfg.format {
            Format::Csv | Format::Tsv => {
                self.lead(&mut line, row, 3, b"-");
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
                    line.extend_from_slice(b"curl/8.5");
                }
            }
            Format::Nginx => {
                self.time_local(&mut line, row.ts);
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
                self.iso(&mut line, row.ts, 6);
                line.push(d);
                line.extend_from_slice(b"app/my-lb/50dc6c495c0c9188");
                line.push(d);
                if matches!(row.upstream, Upstream::None) {
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
                self.lead(&mut line, row, 9, b"0");
                line.push(d);
                line.extend_from_slice(num.format(row.duration_us * 1000).as_bytes());
                line.push(d);
                if let Some(k) = row.key {
                    line.extend_from_slice(k);
                }
            }
        }
        line.extend_from_slice(self.eol());
        if self.cfg.bad_every > 0 && self.truth.rows % self.cfg.bad_every == 0 {
            self.truth.rows += 1;
            self.truth.bad_rows += 1;
            if self.truth.bad_rows % 2 == 0 {
                line.extend_from_slice(b"not,enough,fields");
            } else {
                let fields = match self.cfg.format {
                    Format::Csv | Format::Tsv => 9,
                    Format::Nginx => 8,
                    Format::Alb => 9,
                    Format::Traefik => 7,
                };
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

    /// The fields CSV, TSV and Traefik share: timestamp (with `frac` fraction digits), method,
    /// path, status, and the last upstream status (`none` when there was none).
    fn lead(&mut self, line: &mut Vec<u8>, row: &Row, frac: usize, none: &[u8]) {
        let d = self.delimiter();
        let mut num = itoa::Buffer::new();
        self.iso(line, row.ts, frac);
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
            Upstream::None => line.extend_from_slice(none),
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
