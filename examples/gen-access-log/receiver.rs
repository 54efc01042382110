//! A webhook receiver's own access log (issue 28): every delivery of a sender's events, with
//! the event id the sender puts on each (`webhook-id`), the receiver's status and how long it
//! took. No proxy, no upstream column: the status is what the receiver's work did.
//!
//! Each event is delivered at a uniform time in `days`. A delivery is slow with probability
//! `timeout_rate`: it runs past the sender's timeout, so the sender gives up on it; a slow
//! delivery was processed anyway (200) with probability `succeeded_share`, else it failed
//! (500). A fast delivery is processed (200) well inside the timeout. After a slow delivery
//! the sender redelivers the same event id, `timeout + delay_k` after the delivery began,
//! until a delivery is fast or the schedule runs out. Without deduplication every 200 is a
//! processing: an event processed twice is a duplicate.
//!
//! The rows are written in time order, as JSON lines (`headers.webhook-id`) or CSV
//! (`webhook-id` column), with epoch-second timestamps.

use std::io::{self, Write};

use super::generator::Rng;

/// What to generate.
#[derive(Debug, Clone)]
pub struct ReceiverConfig {
    pub events: u64,
    pub seed: u64,
    pub days: f64,
    /// First possible timestamp, seconds since the epoch.
    pub start: f64,
    pub timeout_rate: f64,
    pub succeeded_share: f64,
    /// The sender's per-attempt timeout, seconds.
    pub sender_timeout: f64,
    /// The sender's delays before each redelivery, seconds.
    pub schedule: Vec<f64>,
    pub csv: bool,
}

/// The true figures, as dupcost measures them.
#[derive(Debug, Default)]
pub struct ReceiverTruth {
    pub events: u64,
    pub deliveries: u64,
    pub timed_out: u64,
    pub timed_out_processed: u64,
    /// Events processed two or more times.
    pub processed_twice: u64,
    /// Processings past each event's first.
    pub extra_processings: u64,
    pub first_ts: f64,
    pub last_ts: f64,
}

impl ReceiverTruth {
    pub fn days_covered(&self) -> f64 {
        (self.last_ts - self.first_ts) / 86_400.0
    }
}

struct Delivery {
    ts: f64,
    event: u64,
    status: u16,
    duration_ms: u64,
}

/// Writes the log and returns its truth.
pub fn generate_receiver(cfg: &ReceiverConfig, mut out: impl Write) -> io::Result<ReceiverTruth> {
    let mut rng = Rng::new(cfg.seed);
    let mut truth = ReceiverTruth {
        events: cfg.events,
        ..ReceiverTruth::default()
    };
    let mut rows = Vec::with_capacity(cfg.events as usize + cfg.events as usize / 8);
    let span = cfg.days * 86_400.0;
    for event in 0..cfg.events {
        let mut at = cfg.start + rng.unit() * span;
        let mut processed = 0u64;
        for attempt in 0..=cfg.schedule.len() {
            // Milliseconds, so the log's numbers are exact.
            at = (at * 1000.0).round() / 1000.0;
            let slow = rng.chance(cfg.timeout_rate);
            let (status, duration_ms) = if slow {
                // Past the timeout by up to half a minute.
                let ms = (cfg.sender_timeout * 1000.0) as u64 + 1 + rng.below(30_000);
                truth.timed_out += 1;
                if rng.chance(cfg.succeeded_share) {
                    truth.timed_out_processed += 1;
                    (200, ms)
                } else {
                    (500, ms)
                }
            } else {
                (200, 20 + rng.below(800))
            };
            processed += u64::from(status == 200);
            truth.deliveries += 1;
            rows.push(Delivery {
                ts: at,
                event,
                status,
                duration_ms,
            });
            if !slow || attempt == cfg.schedule.len() {
                break;
            }
            at += cfg.sender_timeout + cfg.schedule[attempt];
        }
        if processed >= 2 {
            truth.processed_twice += 1;
            truth.extra_processings += processed - 1;
        }
    }
    rows.sort_by(|a, b| a.ts.total_cmp(&b.ts).then(a.event.cmp(&b.event)));
    truth.first_ts = rows.first().map_or(0.0, |r| r.ts);
    truth.last_ts = rows.last().map_or(0.0, |r| r.ts);
    let mut out = io::BufWriter::new(&mut out);
    if cfg.csv {
        writeln!(out, "timestamp,method,path,status,duration_ms,webhook-id")?;
    }
    for r in &rows {
        let id = format!("msg_{:016x}", r.event.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        if cfg.csv {
            writeln!(
                out,
                "{:.3},POST,/webhooks/orders,{},{},{id}",
                r.ts, r.status, r.duration_ms
            )?;
        } else {
            writeln!(
                out,
                r#"{{"time":{:.3},"method":"POST","path":"/webhooks/orders","status":{},"duration_ms":{},"headers":{{"webhook-id":"{id}","content-type":"application/json"}}}}"#,
                r.ts, r.status, r.duration_ms
            )?;
        }
    }
    out.flush()?;
    Ok(truth)
}
