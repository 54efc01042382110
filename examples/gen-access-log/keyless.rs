//! Keyless access logs (issue 13): no idempotency key, but the client's address (with its
//! port), `X-Forwarded-For` for the clients behind a load balancer, the user agent and the
//! request length, so `dupcost logs` groups attempts into intents by fingerprint. The true
//! intents, retries and executed duplicates are known.
//!
//! Each intent belongs to one client (its own address and user agent) and retries a
//! timed-out or 5xx attempt a few seconds after it ended, up to `retries` times; a timed-out
//! attempt executed with probability `succeeded_share`, and the log shows it (upstream 200
//! or 500), unless `unknown_share` hides it (upstream `-`). An intent that executed and is
//! retried is answered 409 on an endpoint with a uniqueness check (`conflict_share`), else
//! executes again: a duplicate. A client often sends its next intent to the same URL with a
//! body of the same size, after the last one was answered: a new intent by the retry rule.
//!
//! `nat_clients` clients share one address and user agent and post the same event to the same
//! URL, more often than `--shared-address-rate` allows: their fingerprint is shared. They
//! fail now and then (503) without retrying, once their address has been busy for two
//! minutes: a grouping that ignored the rate would join the next client's attempt to it.
//!
//! With `keys`, an `idempotency_key` column holds each intent's own key, so grouping by key
//! and by fingerprint can be compared.
//!
//! With `request_ids`, a `request_id` column holds each attempt's own id, and
//! [`generate_keyless_with_backend`] writes the backend's own log (`timestamp,request_id,
//! status` of every attempt that reached it): a timed-out attempt that executed is logged
//! 200, one that did not is logged 500 or never reached the backend. The truth then counts
//! the intents that really executed twice or more, whatever the proxy log shows.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::io::{self, Write};

use super::generator::Rng;

/// What to generate.
#[derive(Debug, Clone)]
pub struct KeylessConfig {
    /// Mutating intents of the clients with their own address (NAT traffic comes on top).
    pub intents: u64,
    pub seed: u64,
    pub days: f64,
    /// First timestamp, seconds since the epoch.
    pub start: i64,
    pub clients: u64,
    pub timeout_rate: f64,
    /// Share of attempts answered 503 (retried like a timeout, never executed).
    pub error_rate: f64,
    pub succeeded_share: f64,
    pub unknown_share: f64,
    pub retries: u32,
    /// Share of retried intents, already executed, that a uniqueness check answers 409.
    pub conflict_share: f64,
    /// Clients behind one NAT address (0: none), each posting once a minute.
    pub nat_clients: u64,
    /// Share of own-address clients behind a load balancer: the log's address is the
    /// balancer's, `X-Forwarded-For` names the client.
    pub forwarded_share: f64,
    /// Write an `idempotency_key` column with each intent's key.
    pub keys: bool,
    /// Write the `request_length` column.
    pub request_length: bool,
    /// Write a per-attempt `request_id` column.
    pub request_ids: bool,
}

impl Default for KeylessConfig {
    fn default() -> Self {
        KeylessConfig {
            intents: 5_000,
            seed: 1,
            days: 2.0,
            start: 1_793_491_200, // 2026-11-01T00:00:00Z
            clients: 2_000,
            timeout_rate: 0.05,
            error_rate: 0.01,
            succeeded_share: 0.5,
            unknown_share: 0.0,
            retries: 3,
            conflict_share: 0.3,
            nat_clients: 0,
            forwarded_share: 0.2,
            keys: false,
            request_length: true,
            request_ids: false,
        }
    }
}

/// The exact figures of what was written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeylessTruth {
    pub rows: u64,
    pub mutating_attempts: u64,
    /// Every intent, the NAT clients' included (each of their attempts is one).
    pub intents: u64,
    pub timed_out: u64,
    /// Intents by attempts.
    pub attempts_per_intent: BTreeMap<u32, u64>,
    /// Intents with two attempts or more the log shows executed (a timed-out attempt with
    /// upstream 200, then a 201).
    pub executed_duplicates: u64,
    /// Intents that executed twice or more (every executed attempt counted, whether the proxy
    /// log shows it or not): what the backend's own log can tell.
    pub executed_twice: u64,
    /// Retried intents whose last attempt was answered 409.
    pub conflicts: u64,
    /// Rows of the backend's log, when one was written.
    pub backend_rows: u64,
    /// Attempts of the NAT clients.
    pub nat_attempts: u64,
    pub first_ts: i64,
    pub last_ts: i64,
}

impl KeylessTruth {
    pub fn max_attempts(&self) -> u32 {
        self.attempts_per_intent.keys().copied().max().unwrap_or(0)
    }
}

/// The header: generic names the aliases know.
fn header(cfg: &KeylessConfig) -> String {
    let mut h = String::from(
        "timestamp,method,path,status,upstream_status,duration_ms,remote_addr,x_forwarded_for,user_agent",
    );
    if cfg.request_length {
        h.push_str(",request_length");
    }
    if cfg.keys {
        h.push_str(",idempotency_key");
    }
    if cfg.request_ids {
        h.push_str(",request_id");
    }
    h
}

/// One row to write, ordered by time.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    ts: i64,
    seq: u64,
    line: String,
}

struct Client {
    addr: String,
    forwarded: bool,
    agent: String,
    /// The URL and body size of its last intent, and whether that intent was answered
    /// (2xx or 409): then it may send the next one alike.
    last: Option<(String, u32)>,
    busy_until: i64,
}

const PATHS: [&str; 3] = ["/v1/orders", "/v1/payments", "/v1/refunds"];
const AGENTS: [&str; 4] = [
    "Mozilla/5.0 (X11; Linux x86_64)",
    "okhttp/4.12.0",
    "python-requests/2.32.3",
    "Shop/3.1 (iPhone; iOS 18.1)",
];

/// Writes a keyless log of `cfg` to `out` and returns its truth.
pub fn generate_keyless(cfg: &KeylessConfig, out: impl Write) -> io::Result<KeylessTruth> {
    generate_keyless_with_backend(cfg, out, None::<io::Sink>)
}

/// [`generate_keyless`], also writing the backend's own log to `backend` (CSV:
/// `timestamp,request_id,status`; needs `request_ids`).
pub fn generate_keyless_with_backend(
    cfg: &KeylessConfig,
    mut out: impl Write,
    mut backend: Option<impl Write>,
) -> io::Result<KeylessTruth> {
    if let Some(b) = &mut backend {
        writeln!(b, "timestamp,request_id,status")?;
    }
    let mut backend_rows = 0u64;
    let mut backend_row = |ts: i64, id: u64, status: u16| -> io::Result<()> {
        if let Some(b) = &mut backend {
            backend_rows += 1;
            // The backend logs when it answered, a little after the proxy received it.
            writeln!(b, "{},r-{id},{status}", dupcost_rfc3339(ts + 5_000))?;
        }
        Ok(())
    };
    let mut rng = Rng::new(cfg.seed ^ 0x006b_6579_6c65_7373);
    let mut truth = KeylessTruth {
        first_ts: i64::MAX,
        last_ts: i64::MIN,
        ..KeylessTruth::default()
    };
    let mut clients: Vec<Client> = (0..cfg.clients)
        .map(|i| Client {
            addr: format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255),
            forwarded: rng.chance(cfg.forwarded_share),
            agent: AGENTS[rng.below(AGENTS.len() as u64) as usize].to_string(),
            last: None,
            busy_until: i64::MIN,
        })
        .collect();
    let start = cfg.start * 1_000_000;
    let span = (cfg.days * 86_400e6) as i64;
    let step = span / cfg.intents.max(1) as i64;
    let mut heap: BinaryHeap<Reverse<Row>> = BinaryHeap::new();
    let mut seq = 0u64;
    writeln!(out, "{}", header(cfg))?;
    let mut line = |ts: i64,
                    path: &str,
                    status: u16,
                    upstream: &str,
                    duration_ms: u64,
                    client: &Client,
                    length: u32,
                    key: &str,
                    heap: &mut BinaryHeap<Reverse<Row>>| {
        let port = 1024 + (ts / 1000 % 60_000);
        let (remote, forwarded) = if client.forwarded {
            (
                format!("172.31.0.5:{port}"),
                format!("\"{}, 172.31.0.5\"", client.addr),
            )
        } else {
            (format!("{}:{port}", client.addr), "-".to_string())
        };
        let stamp = dupcost_rfc3339(ts);
        let mut l = format!(
            "{stamp},POST,{path},{status},{upstream},{duration_ms},{remote},{forwarded},\"{}\"",
            client.agent
        );
        if cfg.request_length {
            l.push_str(&format!(",{length}"));
        }
        if cfg.keys {
            l.push_str(&format!(",{key}"));
        }
        seq += 1;
        if cfg.request_ids {
            l.push_str(&format!(",r-{seq}"));
        }
        heap.push(Reverse(Row { ts, seq, line: l }));
        seq
    };
    let nat = Client {
        addr: "203.0.113.7".to_string(),
        forwarded: false,
        agent: "Shop/3.2 (Android 15)".to_string(),
        last: None,
        busy_until: i64::MIN,
    };
    // NAT attempts: evenly at their rate over the whole span.
    let nat_step = if cfg.nat_clients > 0 {
        60_000_000 / cfg.nat_clients as i64
    } else {
        i64::MAX
    };
    let mut next_nat = if cfg.nat_clients > 0 { start } else { i64::MAX };
    for i in 0..cfg.intents {
        let now = start + i as i64 * step + rng.below(step.max(1) as u64) as i64;
        // NAT clients' attempts up to now: each its own intent.
        while next_nat <= now {
            let fails = next_nat >= start + 120_000_000 && rng.chance(0.05);
            let (status, upstream) = if fails { (503, "503") } else { (202, "202") };
            let id = line(
                next_nat,
                "/v1/events",
                status,
                upstream,
                40,
                &nat,
                512,
                "-",
                &mut heap,
            );
            backend_row(next_nat, id, status)?;
            truth.nat_attempts += 1;
            truth.mutating_attempts += 1;
            truth.intents += 1;
            *truth.attempts_per_intent.entry(1).or_default() += 1;
            next_nat += nat_step;
        }
        let c = rng.below(cfg.clients) as usize;
        let client = &clients[c];
        // A client answered last time may send the next intent alike: the retry rule must
        // not join it to the last one. One still retrying sends a new URL.
        let (path, length) = match &client.last {
            Some((p, l)) if client.busy_until < now && rng.chance(0.3) => (p.clone(), *l),
            _ => (
                format!(
                    "{}?cart={}",
                    PATHS[rng.below(PATHS.len() as u64) as usize],
                    rng.below(1 << 40)
                ),
                200 + rng.below(2_000) as u32,
            ),
        };
        let key = format!("k-{}-{i}", cfg.seed);
        let mut ts = now;
        let mut executed_shown = 0u32;
        let mut executions = 0u32;
        let mut executed = false;
        let mut attempts = 0u32;
        let mut answered = false;
        let mut conflict = false;
        loop {
            attempts += 1;
            truth.mutating_attempts += 1;
            let last_chance = attempts > cfg.retries;
            let roll = rng.unit();
            if roll < cfg.timeout_rate {
                truth.timed_out += 1;
                let ran = rng.chance(cfg.succeeded_share);
                executed |= ran;
                let upstream = if rng.chance(cfg.unknown_share) {
                    "-"
                } else if ran {
                    executed_shown += 1;
                    "200"
                } else {
                    // The backend answered, but not 2xx (a 504 upstream would read as the
                    // proxy's own give-up: unknown).
                    "500"
                };
                let id = line(
                    ts, &path, 504, upstream, 30_000, client, length, &key, &mut heap,
                );
                executions += u32::from(ran);
                if ran {
                    backend_row(ts, id, 200)?;
                } else if rng.chance(0.5) {
                    backend_row(ts, id, 500)?;
                }
                ts += 30_000_000;
            } else if roll < cfg.timeout_rate + cfg.error_rate {
                let id = line(ts, &path, 503, "503", 120, client, length, &key, &mut heap);
                backend_row(ts, id, 503)?;
                ts += 120_000;
            } else {
                answered = true;
                if executed && attempts > 1 && rng.chance(cfg.conflict_share) {
                    conflict = true;
                    let id = line(ts, &path, 409, "409", 80, client, length, &key, &mut heap);
                    backend_row(ts, id, 409)?;
                } else {
                    executed_shown += 1;
                    executions += 1;
                    let id = line(ts, &path, 201, "201", 80, client, length, &key, &mut heap);
                    backend_row(ts, id, 201)?;
                }
                ts += 80_000;
                break;
            }
            if last_chance {
                break;
            }
            // The client waits a few seconds before it sends the request again.
            ts += 1_000_000 + rng.below(9_000_000) as i64;
        }
        truth.intents += 1;
        *truth.attempts_per_intent.entry(attempts).or_default() += 1;
        truth.executed_duplicates += u64::from(executed_shown >= 2);
        truth.executed_twice += u64::from(executions >= 2);
        truth.conflicts += u64::from(conflict);
        let client = &mut clients[c];
        client.busy_until = ts;
        client.last = answered.then_some((path, length));
        // Rows before the next intent's time are final: write them in time order.
        while heap.peek().is_some_and(|Reverse(r)| r.ts < now) {
            let Reverse(r) = heap.pop().expect("peeked");
            write_row(&mut out, &mut truth, r)?;
        }
    }
    while let Some(Reverse(r)) = heap.pop() {
        write_row(&mut out, &mut truth, r)?;
    }
    truth.backend_rows = backend_rows;
    Ok(truth)
}

fn write_row(out: &mut impl Write, truth: &mut KeylessTruth, r: Row) -> io::Result<()> {
    truth.rows += 1;
    truth.first_ts = truth.first_ts.min(r.ts);
    truth.last_ts = truth.last_ts.max(r.ts);
    writeln!(out, "{}", r.line)
}

/// `2026-11-01T00:00:01.250000Z`.
fn dupcost_rfc3339(ts: i64) -> String {
    let days = ts.div_euclid(86_400_000_000);
    let (y, m, d) = dupcost::logs::civil_from_days(days);
    let rem = ts.rem_euclid(86_400_000_000);
    let secs = rem / 1_000_000;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:06}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        rem % 1_000_000
    )
}
