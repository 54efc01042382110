//! Spans gathered by trace, and each trace judged once it can be (no span of it for
//! [`HOLD`] of the file's time, or the file's end): its attempts become the rows the row
//! stage already reads (method, path, time, status, what the server answered, intent),
//! through [`Direct`], so traces are counted, derived and reported exactly as logs are.
//!
//! The rules (docs/MODEL.md, "From traces"):
//! * an attempt is a CLIENT span with a mutating method;
//! * its intent is its captured `Idempotency-Key`, else the parent span it shares with its
//!   resends (with `http.request.resend_count`, a first send under the same parent starts a
//!   new intent; without, a send after one answered 2xx, or overlapping the one before, does);
//! * it timed out when it has no status and `error.type` or a recorded exception names a
//!   timeout, or it lasted `--client-timeout` or more; or its status is a give-up status;
//! * the work ran when the nearest SERVER span under it answered 2xx; a SERVER span that
//!   answered otherwise failed; no SERVER span under it in a complete trace, while the server
//!   it called is traced elsewhere in the file, never arrived (failed); otherwise unknown.

use std::collections::{HashMap, HashSet};

use super::TraceRead;
use super::otlp::SpanSink;
use super::span::{Kind, Span};
use crate::logs::error::LogError;
use crate::logs::formats::Fields;
use crate::logs::row::Direct;

/// How long (in the file's time, ns) a trace waits for more spans after its latest one ended.
pub const HOLD: i64 = 10 * 60 * 1_000_000_000;

/// Spans are looked at for traces to judge every so many.
const SWEEP_EVERY: u32 = 4096;

/// The status a row gets for a timed-out attempt without one (a give-up status of the rules).
pub const NO_ANSWER: &[u8] = b"0";
/// The status a row gets for an attempt that ended in an error without a status and without
/// a timeout (a refused connection): no give-up status, no success.
pub const NO_STATUS: &[u8] = b"1";
/// The server's answer a row gets for an attempt that never reached its server: a status the
/// row stage reads as failed (not 2xx, not a proxy's give-up).
pub const NEVER_REACHED: &[u8] = b"503";
/// The server's answer a row gets when it is not known.
pub const UNKNOWN: &[u8] = b"-";

/// What the assembly needs of the options.
#[derive(Debug, Clone)]
pub struct Rules {
    /// Mutating methods, upper-case.
    pub methods: Vec<String>,
    /// `--client-timeout` in ns.
    pub client_timeout: Option<i64>,
    /// `--sample-rate`: the share of traces kept, for every trace.
    pub sample_rate: Option<f64>,
    /// Remember which traces were judged, to count a span that comes after its trace was
    /// (Zipkin: a reporter's batches come by service, the API's traces newest first).
    pub remember_judged: bool,
}

struct Pending {
    spans: Vec<Span>,
    last_end: i64,
}

/// A row's fields, and the server it called when its outcome waits on whether that server is
/// traced.
type HeldRow = ([Vec<u8>; 7], Option<Box<str>>);

/// A trace's rows held back: one of its timed-out attempts has no server span in a whole
/// trace, to a server not yet seen traced (whether it never arrived or its server is not
/// traced is told by later traces). Held at most [`HOLD`] of the file's time, and the trace's
/// rows together, so an intent's attempts stay together and the clock never runs back more.
struct Held {
    /// Each row, with the server it called when its outcome waits on it.
    rows: Vec<HeldRow>,
    /// The trace's latest end (ns).
    at: i64,
}

pub struct Assembler<'r, 'a> {
    rules: Rules,
    rows: &'r mut Direct<'a>,
    open: HashMap<u128, Pending>,
    watermark: i64,
    since_sweep: u32,
    peers_traced: HashSet<Box<str>>,
    /// The traces judged, by a hash of their id, when the rules ask to remember them.
    judged: HashSet<u64>,
    held: Vec<Held>,
    fields: Fields,
    /// Rows handed to the row stage (their "line" in its messages).
    row: u64,
    pub read: TraceRead,
    /// An error from the row stage (`--strict`), kept to be returned as it is.
    pub failed: Option<LogError>,
}

impl SpanSink for Assembler<'_, '_> {
    fn span(&mut self, span: Span) -> Result<(), String> {
        self.read.spans += 1;
        if self.rules.remember_judged
            && !self.open.contains_key(&span.trace)
            && self.judged.contains(&trace_hash(span.trace))
        {
            self.read.late += 1;
        }
        self.watermark = self.watermark.max(span.end);
        let p = self.open.entry(span.trace).or_insert_with(|| Pending {
            spans: Vec::new(),
            last_end: i64::MIN,
        });
        p.last_end = p.last_end.max(span.end);
        p.spans.push(span);
        self.since_sweep += 1;
        if self.since_sweep >= SWEEP_EVERY {
            self.since_sweep = 0;
            let horizon = self.watermark.saturating_sub(HOLD);
            self.judge_where(|p| p.last_end < horizon)
                .map_err(|e| self.stop(e))?;
            self.release(horizon).map_err(|e| self.stop(e))?;
        }
        Ok(())
    }
}

impl<'r, 'a> Assembler<'r, 'a> {
    pub fn new(rules: Rules, rows: &'r mut Direct<'a>) -> Self {
        Assembler {
            rules,
            rows,
            open: HashMap::new(),
            watermark: i64::MIN,
            since_sweep: 0,
            peers_traced: HashSet::new(),
            judged: HashSet::new(),
            held: Vec::new(),
            fields: Fields::default(),
            row: 0,
            read: TraceRead::default(),
            failed: None,
        }
    }

    fn stop(&mut self, e: LogError) -> String {
        let text = e.to_string();
        self.failed = Some(e);
        text
    }

    /// The file ended: every trace still open is judged, then every row held.
    pub fn finish(&mut self) -> Result<(), LogError> {
        self.judge_where(|_| true)?;
        self.release(i64::MAX)
    }

    /// The held traces whose servers are now known traced, or that ended before `horizon`:
    /// their rows to the row stage, in order, each outcome decided.
    fn release(&mut self, horizon: i64) -> Result<(), LogError> {
        let (ready, wait): (Vec<Held>, Vec<Held>) =
            std::mem::take(&mut self.held).into_iter().partition(|h| {
                h.at < horizon
                    || h.rows.iter().all(|(_, peer)| {
                        peer.as_ref().is_none_or(|p| self.peers_traced.contains(p))
                    })
            });
        self.held = wait;
        for held in ready {
            for (mut fields, peer) in held.rows {
                if let Some(peer) = peer {
                    if self.peers_traced.contains(&peer) {
                        self.read.never_reached += 1;
                        fields[4] = NEVER_REACHED.to_vec();
                    } else {
                        self.read.server_untraced += 1;
                    }
                }
                let refs: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
                self.emit(&refs)?;
            }
        }
        Ok(())
    }

    /// Judges the open traces `ready` picks, oldest first.
    fn judge_where(&mut self, ready: impl Fn(&Pending) -> bool) -> Result<(), LogError> {
        let ids: Vec<u128> = self
            .open
            .iter()
            .filter(|(_, p)| ready(p))
            .map(|(id, _)| *id)
            .collect();
        let mut traces: Vec<Vec<Span>> = ids
            .iter()
            .filter_map(|id| self.open.remove(id))
            .map(|p| p.spans)
            .collect();
        traces.sort_by_key(|spans| spans.iter().map(|s| s.start).min().unwrap_or(0));
        for spans in traces {
            self.judge(spans)?;
        }
        Ok(())
    }

    fn emit(&mut self, fields: &[&[u8]]) -> Result<(), LogError> {
        self.fields.clear();
        for f in fields {
            self.fields.push(f);
        }
        self.row += 1;
        self.rows.record(&self.fields, self.row)
    }

    /// One trace: its attempts to the row stage.
    fn judge(&mut self, spans: Vec<Span>) -> Result<(), LogError> {
        let (mut spans, merged) = merge_parts(spans);
        self.read.merged += merged;
        spans.sort_by_key(|s| s.start);
        self.read.traces += 1;
        if self.rules.remember_judged
            && let Some(s) = spans.first()
        {
            self.judged.insert(trace_hash(s.trace));
        }
        let tree = Tree::new(&spans);
        let has_kind = |id: u64, kind: Kind| tree.has_kind(&spans, id, kind);
        let complete = spans.iter().any(|s| s.parent == 0)
            && spans
                .iter()
                .all(|s| s.parent == 0 || tree.by_id.contains_key(&s.parent));
        if !complete {
            self.read.cut += 1;
        }
        for s in spans.iter().filter(|s| s.kind == Kind::Server) {
            // Zipkin's shared span: the CLIENT half that this SERVER half answered has its id.
            if has_kind(s.id, Kind::Client) {
                self.read.shared_joined += 1;
            } else if s.parent == 0 || !has_kind(s.parent, Kind::Client) {
                self.read.server_without_client += 1;
            }
        }
        let kept = self
            .rules
            .sample_rate
            .or_else(|| spans.iter().find_map(|s| s.kept));
        if spans.iter().any(|s| s.kept.is_some()) {
            self.read.with_threshold += 1;
        }
        // A span without a time (a Zipkin span reported without `timestamp`) is placed at
        // the trace's first time.
        let first_time = spans.iter().map(|s| s.start).find(|&t| t != 0).unwrap_or(0);
        let attempts: Vec<usize> = (0..spans.len())
            .filter(|&i| {
                let s = &spans[i];
                s.kind == Kind::Client
                    && s.method
                        .as_deref()
                        .is_some_and(|m| self.rules.methods.iter().any(|x| x == m))
            })
            .collect();
        // Intents: the n-th first send under a parent (with resend counts), per method and
        // path. Without resend counts, a send is no resend of the one before it under the
        // same parent when that one was answered 2xx (no client resends a success), or when
        // it starts before that one ended (calls fanned out at once, or a proxy chain whose
        // hops report the same parent).
        let uses_resend = attempts.iter().any(|&i| spans[i].resend.is_some());
        let mut generation: HashMap<(u64, &str, &str), Generation> = HashMap::new();
        let mut intents: HashSet<Vec<u8>> = HashSet::new();
        let mut rows: Vec<HeldRow> = Vec::new();
        for &i in &attempts {
            let s = &spans[i];
            self.read.attempts += 1;
            let method = s.method.as_deref().unwrap_or("");
            let path = s.path.as_deref().unwrap_or("/");
            let key = match &s.key {
                Some(k) => format!("key:{k}"),
                None if s.parent == 0 => format!("{:032x}-{:016x}", s.trace, s.id),
                None => {
                    let g = generation.entry((s.parent, method, path)).or_default();
                    let new_intent = if uses_resend {
                        s.resend.unwrap_or(0) == 0
                    } else {
                        g.answered || s.start != 0 && s.start < g.end
                    };
                    if new_intent || g.n == 0 {
                        g.n += 1;
                    }
                    g.end = s.end;
                    g.answered = status_of(s).0.is_some_and(|c| (200..300).contains(&c));
                    format!("{:032x}-{:016x}-{method} {path}-{}", s.trace, s.parent, g.n)
                }
            };
            intents.insert(key.clone().into_bytes());
            let servers = tree.answering(&spans, s.id);
            let peer: Box<str> = s.peer.clone().unwrap_or_default();
            if !servers.is_empty() {
                self.peers_traced.insert(peer.clone());
            }
            let lasted = s.end - s.start;
            let (own, implied) = status_of(s);
            let gave_up = own.is_none()
                && (s.timeout_named
                    || self
                        .rules
                        .client_timeout
                        .is_some_and(|limit| lasted >= limit));
            let status = match own {
                Some(code) => code.to_string().into_bytes(),
                None if gave_up => NO_ANSWER.to_vec(),
                None => NO_STATUS.to_vec(),
            };
            let answers: Vec<(u16, bool)> = servers
                .iter()
                .filter_map(|&c| {
                    let (code, implied) = status_of(&spans[c]);
                    code.map(|c| (c, implied))
                })
                .collect();
            let answer = answers
                .iter()
                .find(|(c, _)| (200..300).contains(c))
                .or(answers.first());
            if implied || answer.is_some_and(|&(_, implied)| implied) {
                self.read.status_implied += 1;
            }
            let upstream = match answer {
                Some((code, _)) => code.to_string().into_bytes(),
                None if !servers.is_empty() => UNKNOWN.to_vec(),
                None if complete && self.peers_traced.contains(&peer) => {
                    if gave_up {
                        self.read.never_reached += 1;
                    }
                    NEVER_REACHED.to_vec()
                }
                None => UNKNOWN.to_vec(),
            };
            let start = if s.start == 0 { first_time } else { s.start };
            let fields: [Vec<u8>; 7] = [
                crate::logs::to_rfc3339(start.div_euclid(1000)).into_bytes(),
                method.as_bytes().to_vec(),
                path.as_bytes().to_vec(),
                status,
                upstream,
                key.into_bytes(),
                format!("{:.3}", lasted as f64 / 1e6).into_bytes(),
            ];
            let unknown_server = servers.is_empty() && fields[4] == UNKNOWN;
            if gave_up && unknown_server && complete {
                // Whether its server is traced at all may be told by a later trace.
                rows.push((fields, Some(peer)));
                continue;
            }
            if gave_up && unknown_server {
                self.read.server_untraced += 1;
            }
            rows.push((fields, None));
        }
        if rows.iter().any(|(_, peer)| peer.is_some()) {
            let at = spans.iter().map(|s| s.end).max().unwrap_or(0);
            self.held.push(Held { rows, at });
        } else {
            for (fields, _) in rows {
                let refs: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
                self.emit(&refs)?;
            }
        }
        let n = intents.len() as u64;
        self.read.intents += n;
        self.read.adjusted_intents += n as f64 / kept.filter(|&k| k > 0.0).unwrap_or(1.0);
        Ok(())
    }
}

/// The intent that sends under one parent (one method and path) make so far.
#[derive(Default)]
struct Generation {
    /// Which of them it is, from 1.
    n: u32,
    /// When its latest send ended, and whether that send was answered 2xx.
    end: i64,
    answered: bool,
}

/// A trace's spans by id and by parent, as indexes into its spans.
struct Tree {
    by_id: HashMap<u64, Vec<usize>>,
    children: HashMap<u64, Vec<usize>>,
}

impl Tree {
    fn new(spans: &[Span]) -> Tree {
        let mut by_id: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut children: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, s) in spans.iter().enumerate() {
            by_id.entry(s.id).or_default().push(i);
            if s.parent != 0 {
                children.entry(s.parent).or_default().push(i);
            }
        }
        Tree { by_id, children }
    }

    /// Whether a span of `kind` has the id `id` (Zipkin's shared halves share one).
    fn has_kind(&self, spans: &[Span], id: u64, kind: Kind) -> bool {
        self.by_id
            .get(&id)
            .is_some_and(|v| v.iter().any(|&i| spans[i].kind == kind))
    }

    /// The SERVER spans that answered the CLIENT span `id`, and no deeper one: the half that
    /// shares its id (Zipkin), else the SERVER spans directly under it. A SERVER child that
    /// shares a CLIENT span's id answered that call, not this one.
    fn answering(&self, spans: &[Span], id: u64) -> Vec<usize> {
        let shared: Vec<usize> = self.by_id[&id]
            .iter()
            .copied()
            .filter(|&c| spans[c].kind == Kind::Server)
            .collect();
        if !shared.is_empty() {
            return shared;
        }
        self.children
            .get(&id)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
            .filter(|&c| {
                spans[c].kind == Kind::Server && !self.has_kind(spans, spans[c].id, Kind::Client)
            })
            .collect()
    }
}

/// A trace id in 64 bits, for the set of traces judged.
fn trace_hash(trace: u128) -> u64 {
    (trace as u64) ^ ((trace >> 64) as u64).rotate_left(17)
}

/// A span's HTTP status, and whether it is implied: a Zipkin v2 HTTP span that finished
/// without a status or an error answered 2xx, as Brave (Zipkin's own instrumentation) writes
/// `http.status_code` only when it is not 2xx (read as 200).
fn status_of(s: &Span) -> (Option<u16>, bool) {
    match s.status {
        Some(code) => (Some(code), false),
        None if s.status_if_not_2xx && s.http && s.finished && !s.error && !s.timeout_named => {
            (Some(200), true)
        }
        None => (None, false),
    }
}

/// The parts of one span reported apart (Zipkin allows a span in several messages: its
/// annotations late, its tags on their own) made one, as Zipkin merges them: the same id, the
/// same local endpoint (or none said), the same kind (or none said), the same sharedness, and
/// not two different start times (two consumers of one message share an id, each started on
/// its own).
/// Returns the spans and how many parts were merged into others.
fn merge_parts(mut spans: Vec<Span>) -> (Vec<Span>, u64) {
    spans.sort_by_key(|s| s.id);
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    let mut merged = 0;
    let mut group_start = 0;
    for s in spans {
        if out.get(group_start).is_none_or(|g| g.id != s.id) {
            group_start = out.len();
        }
        let into = out[group_start..].iter_mut().find(|o| {
            (o.local == s.local || o.local == 0 || s.local == 0)
                && (o.kind == s.kind || (o.kind == Kind::Other) != (s.kind == Kind::Other))
                && (o.shared == s.shared || o.kind == Kind::Other || s.kind == Kind::Other)
                && (o.start == s.start || o.start == 0 || s.start == 0)
        });
        match into {
            Some(o) => {
                merged += 1;
                merge(o, s);
            }
            None => out.push(s),
        }
    }
    (out, merged)
}

/// `b`, another part of `a`'s span, into `a`: what one says and the other does not.
fn merge(a: &mut Span, b: Span) {
    if a.kind == Kind::Other {
        a.kind = b.kind;
    }
    a.shared |= b.shared;
    if a.local == 0 {
        a.local = b.local;
    }
    if a.parent == 0 {
        a.parent = b.parent;
    }
    match (a.start, b.start) {
        (0, _) => a.start = b.start,
        (_, 0) => {}
        (x, y) => a.start = x.min(y),
    }
    a.end = a.end.max(b.end);
    a.method = a.method.take().or(b.method);
    a.status = a.status.or(b.status);
    a.path = a.path.take().or(b.path);
    a.timeout_named |= b.timeout_named;
    a.resend = a.resend.or(b.resend);
    a.key = a.key.take().or(b.key);
    a.peer = a.peer.take().or(b.peer);
    a.kept = a.kept.or(b.kept);
    a.error |= b.error;
    a.http |= b.http;
    a.finished |= b.finished;
    a.status_if_not_2xx |= b.status_if_not_2xx;
}
