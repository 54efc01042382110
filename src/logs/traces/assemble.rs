//! Spans gathered by trace, and each trace judged once it can be (no span of it for
//! [`HOLD`] of the file's time, or the file's end): its attempts become the rows the row
//! stage already reads (method, path, time, status, what the server answered, intent),
//! through [`Direct`], so traces are counted, derived and reported exactly as logs are.
//!
//! The [`Assembler`] gathers; a [`Judge`] judges the traces that ended at each sweep, in
//! batches, on the same thread or (with several threads, see [`assemble`]) on one of its
//! own, which takes the batches in the order they were made: the same rows either way.
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

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::mpsc;

use compact_str::CompactString;

use super::TraceRead;
use super::otlp::SpanSink;
use super::span::{Kind, Method, Span};
use crate::logs::error::LogError;
use crate::logs::formats::Fields;
use crate::logs::row::Direct;
use crate::logs::timestamp::Rfc3339Writer;

/// How long (in the file's time, ns) a trace waits for more spans after its latest one ended.
pub const HOLD: i64 = 10 * 60 * 1_000_000_000;

/// Spans are looked at for traces to judge every so many.
const SWEEP_EVERY: u32 = 4096;

/// The width (ns of the file's time) of one slot of [`Ends`].
const SLOT: i64 = 1_000_000_000;

/// Span vectors of judged traces kept for new ones, at most so many, of at most
/// [`POOLED_SPANS`] spans: a trace's vector is then taken without an allocation.
const POOL: usize = 4096;
const POOLED_SPANS: usize = 8;

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

/// What a row says of a status: a code, or one of the texts above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Code(u16),
    Text(&'static [u8]),
}

impl Answer {
    fn write(self, out: &mut Vec<u8>) {
        match self {
            Answer::Code(code) => {
                out.extend_from_slice(itoa::Buffer::new().format(code).as_bytes())
            }
            Answer::Text(text) => out.extend_from_slice(text),
        }
    }
}

/// One attempt's row, its values kept as they are until the row is written for the row
/// stage (in the order of [`super::COLUMNS`]).
struct AttemptRow {
    /// Its start, µs since the epoch.
    micros: i64,
    method: CompactString,
    path: CompactString,
    status: Answer,
    upstream: Answer,
    /// Its intent.
    key: String,
    /// How long it lasted, ns.
    lasted: i64,
    /// The server it called, when its outcome waits on whether that server is traced.
    waits_on: Option<CompactString>,
}

impl AttemptRow {
    /// The row's text fields, as the row stage reads them.
    fn write(&self, fields: &mut Fields, stamps: &mut Rfc3339Writer) {
        fields.clear();
        fields.push_with(|out| stamps.write(self.micros, out));
        fields.push(self.method.as_bytes());
        fields.push(self.path.as_bytes());
        fields.push_with(|out| self.status.write(out));
        fields.push_with(|out| self.upstream.write(out));
        fields.push(self.key.as_bytes());
        fields.push_with(|out| write_millis(self.lasted, out));
    }
}

/// `ns` in milliseconds with three decimals, as `{:.3}` writes `ns as f64 / 1e6`: in whole
/// microseconds, rounded to the nearest, where that is the same text (the quotient's rounding
/// error is far below a nanosecond there, and no tie is near); through the float otherwise.
fn write_millis(ns: i64, out: &mut Vec<u8>) {
    use std::io::Write;
    let abs = ns.unsigned_abs();
    if abs < 1_000_000_000_000_000 && abs % 1000 != 500 {
        let micros = (abs + 500) / 1000;
        if ns < 0 {
            out.push(b'-');
        }
        out.extend_from_slice(itoa::Buffer::new().format(micros / 1000).as_bytes());
        let thousandths = (micros % 1000) as u16;
        out.extend_from_slice(&[
            b'.',
            b'0' + (thousandths / 100) as u8,
            b'0' + (thousandths / 10 % 10) as u8,
            b'0' + (thousandths % 10) as u8,
        ]);
    } else {
        // Writing to a Vec cannot fail.
        let _ = write!(out, "{:.3}", ns as f64 / 1e6);
    }
}

/// A trace's rows held back: one of its timed-out attempts has no server span in a whole
/// trace, to a server not yet seen traced (whether it never arrived or its server is not
/// traced is told by later traces). Held at most [`HOLD`] of the file's time, and the trace's
/// rows together, so an intent's attempts stay together and the clock never runs back more.
struct Held {
    /// Each row, with the server it called when its outcome waits on it.
    rows: Vec<AttemptRow>,
    /// The trace's latest end (ns).
    at: i64,
}

/// Hash maps keyed by what the spans say: foldhash, as the row stage's.
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type Set<K> = HashSet<K, foldhash::fast::RandomState>;

/// The open traces by their latest end, in slots of [`SLOT`]: each open trace has one entry,
/// at an end no later than its latest (its latest when it opened, or when the entry was last
/// looked at). The traces that ended before a horizon are then found among the entries of
/// the slots below it, not among every open trace.
#[derive(Default)]
struct Ends {
    slots: BTreeMap<i64, Vec<(i64, u128)>>,
    /// Emptied slots' vectors, for new slots.
    spare: Vec<Vec<(i64, u128)>>,
}

impl Ends {
    fn push(&mut self, end: i64, id: u128) {
        self.slots
            .entry(end.div_euclid(SLOT))
            .or_insert_with(|| self.spare.pop().unwrap_or_default())
            .push((end, id));
    }

    /// Takes the entries that ended before `horizon` into `out`.
    fn take_before(&mut self, horizon: i64, out: &mut Vec<(i64, u128)>) {
        let last = horizon.div_euclid(SLOT);
        while let Some(mut slot) = self.slots.first_entry() {
            if *slot.key() < last {
                let mut entries = slot.remove();
                out.append(&mut entries);
                self.spare.push(entries);
            } else {
                if *slot.key() == last {
                    let entries = slot.get_mut();
                    out.extend(entries.iter().filter(|&&(end, _)| end < horizon));
                    entries.retain(|&(end, _)| end >= horizon);
                    if entries.is_empty() {
                        self.spare.push(slot.remove());
                    }
                }
                break;
            }
        }
    }
}

/// The traces ended at one sweep, to be judged, then the rows held to be released that
/// ended before `horizon`.
struct Batch {
    traces: Vec<(u128, Vec<Span>)>,
    horizon: i64,
}

/// Batches waiting for the judging thread, at most: the reading runs ahead of the judging by
/// so many sweeps.
const BATCHES: usize = 4;

/// Where ended traces are judged: on the thread that reads the spans, or on a thread of
/// their own, which takes the batches in the order they were made.
enum Judging<'r, 'a> {
    Here(Box<Judge<'r, 'a>>),
    Thread {
        to: mpsc::SyncSender<Batch>,
        /// Judged traces' span vectors, emptied, coming back.
        back: mpsc::Receiver<Vec<Vec<Span>>>,
    },
}

/// Gathers the spans by trace, and hands the traces that ended to the judging.
pub struct Assembler<'r, 'a> {
    remember_judged: bool,
    judging: Judging<'r, 'a>,
    open: Map<u128, Pending>,
    /// The open traces by their latest end.
    ends: Ends,
    /// Entries of `ends` taken, kept from sweep to sweep.
    ended: Vec<(i64, u128)>,
    /// Judged traces' span vectors, emptied, for new traces.
    pool: Vec<Vec<Span>>,
    watermark: i64,
    since_sweep: u32,
    /// The traces judged, by a hash of their id, when the rules ask to remember them.
    judged: Set<u64>,
    /// Spans read, and spans of a trace already judged.
    spans: u64,
    late: u64,
    /// An error from the judging (the row stage's, with `--strict`), kept to be returned as
    /// it is.
    pub failed: Option<LogError>,
}

/// Reads spans with `read` into an assembly whose traces go to `rows`, then judges those
/// still open at the end: what was read. With `threaded`, traces are judged on a thread of
/// their own while the spans are read: the same traces, in the same order, as one thread
/// judges them, so the rows and the figures are the same.
pub fn assemble(
    rules: Rules,
    rows: &mut Direct<'_>,
    threaded: bool,
    read: impl FnOnce(&mut Assembler<'_, '_>) -> Result<(), LogError>,
) -> Result<TraceRead, LogError> {
    let remember = rules.remember_judged;
    if !threaded {
        let mut asm = Assembler::new(remember, Judging::Here(Box::new(Judge::new(rules, rows))));
        read(&mut asm)?;
        asm.finish()?;
        let Judging::Here(judge) = asm.judging else {
            unreachable!("the assembly judges where it was made to");
        };
        return Ok(asm_read(judge.read, asm.spans, asm.late));
    }
    std::thread::scope(|scope| {
        let (to, from) = mpsc::sync_channel::<Batch>(BATCHES);
        let (back_tx, back) = mpsc::channel();
        let mut judge = Judge::new(rules, rows);
        let judging = scope.spawn(move || {
            let judged = judge.serve(&from, &back_tx);
            (judge.read, judged)
        });
        let mut asm = Assembler::new(remember, Judging::Thread { to, back });
        let gathered = read(&mut asm).and_then(|()| asm.finish());
        let (spans, late) = (asm.spans, asm.late);
        // Its queue closed, the judging thread ends once it has judged what is in it.
        drop(asm);
        let (read, judged) = judging.join().map_err(|_| {
            LogError::Internal(
                "the trace judging thread stopped (a bug in dupcost: please report it)".into(),
            )
        })?;
        // The judging's error first: it stopped at a trace that ended before the reading did.
        judged?;
        gathered?;
        Ok(asm_read(read, spans, late))
    })
}

fn asm_read(mut read: TraceRead, spans: u64, late: u64) -> TraceRead {
    read.spans = spans;
    read.late = late;
    read
}

impl SpanSink for Assembler<'_, '_> {
    fn span(&mut self, span: Span) -> Result<(), String> {
        self.spans += 1;
        if self.remember_judged
            && !self.open.contains_key(&span.trace)
            && self.judged.contains(&trace_hash(span.trace))
        {
            self.late += 1;
        }
        self.watermark = self.watermark.max(span.end);
        match self.open.entry(span.trace) {
            Entry::Occupied(mut e) => {
                let p = e.get_mut();
                p.last_end = p.last_end.max(span.end);
                p.spans.push(span);
            }
            Entry::Vacant(e) => {
                self.ends.push(span.end, span.trace);
                let mut spans = self.pool.pop().unwrap_or_default();
                let last_end = span.end;
                spans.push(span);
                e.insert(Pending { spans, last_end });
            }
        }
        self.since_sweep += 1;
        if self.since_sweep >= SWEEP_EVERY {
            return self.sweep();
        }
        Ok(())
    }
}

impl<'r, 'a> Assembler<'r, 'a> {
    fn new(remember_judged: bool, judging: Judging<'r, 'a>) -> Self {
        Assembler {
            remember_judged,
            judging,
            open: Map::default(),
            ends: Ends::default(),
            ended: Vec::new(),
            pool: Vec::new(),
            watermark: i64::MIN,
            since_sweep: 0,
            judged: Set::default(),
            spans: 0,
            late: 0,
            failed: None,
        }
    }

    /// The traces that ended [`HOLD`] before the latest span's end, to the judging.
    fn sweep(&mut self) -> Result<(), String> {
        self.since_sweep = 0;
        let horizon = self.watermark.saturating_sub(HOLD);
        let traces = self.take_ended(horizon);
        self.judge(traces, horizon).map_err(|e| self.stop(e))
    }

    fn stop(&mut self, e: LogError) -> String {
        let text = e.to_string();
        self.failed = Some(e);
        text
    }

    /// The file ended: every trace still open is judged, then every row held.
    fn finish(&mut self) -> Result<(), LogError> {
        let ids: Vec<u128> = self.open.keys().copied().collect();
        let traces = ids
            .iter()
            .filter_map(|id| Some((*id, self.open.remove(id)?.spans)))
            .collect();
        self.ends = Ends::default();
        self.judge(traces, i64::MAX)
    }

    /// The open traces whose latest end is before `horizon`, taken out. An entry of `ends`
    /// at an end earlier than its trace's latest is put back at the latest.
    fn take_ended(&mut self, horizon: i64) -> Vec<(u128, Vec<Span>)> {
        let mut ended = std::mem::take(&mut self.ended);
        self.ends.take_before(horizon, &mut ended);
        let mut traces = Vec::new();
        for &(_, id) in &ended {
            let Entry::Occupied(e) = self.open.entry(id) else {
                continue;
            };
            if e.get().last_end < horizon {
                traces.push((id, e.remove().spans));
            } else {
                self.ends.push(e.get().last_end, id);
            }
        }
        ended.clear();
        self.ended = ended;
        traces
    }

    /// `traces` judged, then the rows held that ended before `horizon` released: here, or
    /// handed to the judging thread.
    fn judge(&mut self, traces: Vec<(u128, Vec<Span>)>, horizon: i64) -> Result<(), LogError> {
        if self.remember_judged {
            self.judged
                .extend(traces.iter().map(|(id, _)| trace_hash(*id)));
        }
        let batch = Batch { traces, horizon };
        match &mut self.judging {
            Judging::Here(judge) => {
                judge.batch(batch)?;
                let room = POOL.saturating_sub(self.pool.len());
                self.pool.extend(judge.spare.drain(..).take(room));
            }
            Judging::Thread { to, back } => {
                while let Ok(spare) = back.try_recv() {
                    let room = POOL.saturating_sub(self.pool.len());
                    self.pool.extend(spare.into_iter().take(room));
                }
                // The judging thread has stopped: its error is returned once it is joined.
                to.send(batch)
                    .map_err(|_| LogError::Internal("the trace judging thread stopped".into()))?;
            }
        }
        Ok(())
    }
}

/// Judges traces: their attempts become rows for the row stage.
struct Judge<'r, 'a> {
    rules: Rules,
    rows: &'r mut Direct<'a>,
    peers_traced: Set<CompactString>,
    held: Vec<Held>,
    /// A trace's attempts' rows, the vector kept from trace to trace.
    attempts: Vec<AttemptRow>,
    fields: Fields,
    /// The attempts' start times' text, the last second's kept.
    stamps: Rfc3339Writer,
    /// The index of a trace's spans, kept from trace to trace.
    tree: Tree,
    /// Rows handed to the row stage (their "line" in its messages).
    row: u64,
    /// Judged traces' span vectors, emptied, for the assembly's new traces.
    spare: Vec<Vec<Span>>,
    read: TraceRead,
}

impl<'r, 'a> Judge<'r, 'a> {
    fn new(rules: Rules, rows: &'r mut Direct<'a>) -> Self {
        Judge {
            rules,
            rows,
            peers_traced: Set::default(),
            held: Vec::new(),
            attempts: Vec::new(),
            fields: Fields::default(),
            stamps: Rfc3339Writer::default(),
            tree: Tree::default(),
            row: 0,
            spare: Vec::new(),
            read: TraceRead::default(),
        }
    }

    /// The judging thread: each batch in turn, its traces' span vectors sent back, until the
    /// queue closes or a batch fails.
    fn serve(
        &mut self,
        batches: &mpsc::Receiver<Batch>,
        back: &mpsc::Sender<Vec<Vec<Span>>>,
    ) -> Result<(), LogError> {
        for batch in batches {
            self.batch(batch)?;
            // The assembly may be done reading: then they are not needed.
            let _ = back.send(std::mem::take(&mut self.spare));
        }
        Ok(())
    }

    fn batch(&mut self, batch: Batch) -> Result<(), LogError> {
        self.judge_all(batch.traces)?;
        self.release(batch.horizon)
    }

    /// The held traces whose servers are now known traced, or that ended before `horizon`:
    /// their rows to the row stage, in order, each outcome decided.
    fn release(&mut self, horizon: i64) -> Result<(), LogError> {
        if self.held.is_empty() {
            return Ok(());
        }
        let (ready, wait): (Vec<Held>, Vec<Held>) =
            std::mem::take(&mut self.held).into_iter().partition(|h| {
                h.at < horizon
                    || h.rows.iter().all(|row| {
                        row.waits_on
                            .as_ref()
                            .is_none_or(|p| self.peers_traced.contains(p))
                    })
            });
        self.held = wait;
        for held in ready {
            for mut row in held.rows {
                if let Some(peer) = row.waits_on.take() {
                    if self.peers_traced.contains(&peer) {
                        self.read.never_reached += 1;
                        row.upstream = Answer::Text(NEVER_REACHED);
                    } else {
                        self.read.server_untraced += 1;
                    }
                }
                self.emit(&row)?;
            }
        }
        Ok(())
    }

    /// Judges traces taken from the open ones, oldest first (by their first start, then
    /// their id).
    fn judge_all(&mut self, traces: Vec<(u128, Vec<Span>)>) -> Result<(), LogError> {
        let mut traces: Vec<(i64, u128, Vec<Span>)> = traces
            .into_iter()
            .map(|(id, spans)| {
                let first = spans.iter().map(|s| s.start).min().unwrap_or(0);
                (first, id, spans)
            })
            .collect();
        traces.sort_unstable_by_key(|&(first, id, _)| (first, id));
        let mut traces = traces.into_iter().map(|(_, _, spans)| spans).peekable();
        while let Some(spans) = traces.next() {
            if let Some(next) = traces.peek() {
                prefetch(next);
            }
            self.judge(spans)?;
        }
        Ok(())
    }

    fn emit(&mut self, row: &AttemptRow) -> Result<(), LogError> {
        row.write(&mut self.fields, &mut self.stamps);
        self.row += 1;
        self.rows.record(&self.fields, self.row)
    }

    /// One trace: its attempts to the row stage.
    fn judge(&mut self, spans: Vec<Span>) -> Result<(), LogError> {
        let (mut spans, merged) = merge_parts(spans);
        self.read.merged += merged;
        // In time order; spans of one start by id, parts of one id as they came.
        spans.sort_by_key(|s| (s.start, s.id));
        self.read.traces += 1;
        let mut tree = std::mem::take(&mut self.tree);
        tree.index(&spans);
        let judged = self.judge_indexed(&spans, &tree);
        self.tree = tree;
        if spans.capacity() <= POOLED_SPANS && self.spare.len() < POOL {
            spans.clear();
            self.spare.push(spans);
        }
        judged
    }

    /// [`Judge::judge`] of a trace's spans, merged and in time order, `tree` their index.
    fn judge_indexed(&mut self, spans: &[Span], tree: &Tree) -> Result<(), LogError> {
        let complete = spans.iter().any(|s| s.parent == 0)
            && spans
                .iter()
                .all(|s| s.parent == 0 || tree.contains(s.parent));
        if !complete {
            self.read.cut += 1;
        }
        for s in spans.iter().filter(|s| s.kind == Kind::Server) {
            // Zipkin's shared span: the CLIENT half that this SERVER half answered has its id.
            if tree.has_kind(spans, s.id, Kind::Client) {
                self.read.shared_joined += 1;
            } else if s.parent == 0 || !tree.has_kind(spans, s.parent, Kind::Client) {
                self.read.server_without_client += 1;
            }
        }
        let kept = self
            .rules
            .sample_rate
            .or_else(|| spans.iter().find_map(Span::kept));
        if spans.iter().any(|s| s.kept().is_some()) {
            self.read.with_threshold += 1;
        }
        // A span without a time (a Zipkin span reported without `timestamp`) is placed at
        // the trace's first time.
        let first_time = spans.iter().map(|s| s.start).find(|&t| t != 0).unwrap_or(0);
        let is_attempt = |s: &Span| {
            s.kind == Kind::Client
                && s.method()
                    .is_some_and(|m| self.rules.methods.iter().any(|x| x == m))
        };
        // Intents: the n-th first send under a parent (with resend counts), per method and
        // path. Without resend counts, a send is no resend of the one before it under the
        // same parent when that one was answered 2xx (no client resends a success), or when
        // it starts before that one ended (calls fanned out at once, or a proxy chain whose
        // hops report the same parent).
        let uses_resend = spans.iter().any(|s| is_attempt(s) && s.resend().is_some());
        let mut generation: Map<(u64, &str, &str), Generation> = Map::default();
        let mut rows = std::mem::take(&mut self.attempts);
        for s in spans.iter().filter(|s| is_attempt(s)) {
            self.read.attempts += 1;
            let method = s.method().unwrap_or("");
            let path = s.path.as_deref().unwrap_or("/");
            // Room for the longest of the keys below, so it is written without growing.
            let mut key = String::with_capacity(72 + method.len() + path.len());
            match s.key() {
                Some(k) => {
                    key.push_str("key:");
                    key.push_str(k);
                }
                None if s.parent == 0 => {
                    push_hex(&mut key, s.trace, 32);
                    key.push('-');
                    push_hex(&mut key, s.id.into(), 16);
                }
                None => {
                    let g = generation.entry((s.parent, method, path)).or_default();
                    let new_intent = if uses_resend {
                        s.resend().unwrap_or(0) == 0
                    } else {
                        g.answered || s.start != 0 && s.start < g.end
                    };
                    if new_intent || g.n == 0 {
                        g.n += 1;
                    }
                    g.end = s.end;
                    g.answered = status_of(s).0.is_some_and(|c| (200..300).contains(&c));
                    push_hex(&mut key, s.trace, 32);
                    key.push('-');
                    push_hex(&mut key, s.parent.into(), 16);
                    for part in ["-", method, " ", path, "-", itoa::Buffer::new().format(g.n)] {
                        key.push_str(part);
                    }
                }
            }
            let servers = tree.answering(spans, s.id);
            let peer: CompactString = s.peer.clone().unwrap_or_default();
            if servers.clone().next().is_some() {
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
                Some(code) => Answer::Code(code),
                None if gave_up => Answer::Text(NO_ANSWER),
                None => Answer::Text(NO_STATUS),
            };
            // The servers' answers: the first 2xx, else the first.
            let mut answers = servers.clone().filter_map(|c| {
                let (code, implied) = status_of(&spans[c]);
                code.map(|c| (c, implied))
            });
            let first = answers.next();
            let answer = first
                .filter(|(c, _)| (200..300).contains(c))
                .or_else(|| answers.find(|(c, _)| (200..300).contains(c)))
                .or(first);
            if implied || answer.is_some_and(|(_, implied)| implied) {
                self.read.status_implied += 1;
            }
            let no_server = servers.clone().next().is_none();
            let upstream = match answer {
                Some((code, _)) => Answer::Code(code),
                None if !no_server => Answer::Text(UNKNOWN),
                None if complete && self.peers_traced.contains(&peer) => {
                    if gave_up {
                        self.read.never_reached += 1;
                    }
                    Answer::Text(NEVER_REACHED)
                }
                None => Answer::Text(UNKNOWN),
            };
            let unknown_server = no_server && upstream == Answer::Text(UNKNOWN);
            let waits_on = if gave_up && unknown_server && complete {
                // Whether its server is traced at all may be told by a later trace.
                Some(peer)
            } else {
                if gave_up && unknown_server {
                    self.read.server_untraced += 1;
                }
                None
            };
            let start = if s.start == 0 { first_time } else { s.start };
            rows.push(AttemptRow {
                micros: start.div_euclid(1000),
                method: method.into(),
                path: path.into(),
                status,
                upstream,
                key,
                lasted,
                waits_on,
            });
        }
        let n = distinct_keys(&rows);
        if rows.iter().any(|row| row.waits_on.is_some()) {
            let at = spans.iter().map(|s| s.end).max().unwrap_or(0);
            self.held.push(Held { rows, at });
        } else {
            let emitted = rows.iter().try_for_each(|row| self.emit(row));
            rows.clear();
            self.attempts = rows;
            emitted?;
        }
        self.read.intents += n;
        self.read.adjusted_intents += n as f64 / kept.filter(|&k| k > 0.0).unwrap_or(1.0);
        Ok(())
    }
}

/// How many intents a trace's rows are of: the few of most traces by comparing each with
/// those before it, more by sorting.
fn distinct_keys(rows: &[AttemptRow]) -> u64 {
    if rows.len() <= 8 {
        let first = |(i, row): &(usize, &AttemptRow)| rows[..*i].iter().all(|r| r.key != row.key);
        return rows.iter().enumerate().filter(first).count() as u64;
    }
    let mut keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len() as u64
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

/// A trace's spans by id and by parent: (id, index) pairs in order, so the spans of one id
/// are a run found by binary search, in the order of the trace's spans. Kept from trace to
/// trace, so a trace is indexed without an allocation.
#[derive(Default)]
struct Tree {
    by_id: Vec<(u64, usize)>,
    children: Vec<(u64, usize)>,
}

impl Tree {
    fn index(&mut self, spans: &[Span]) {
        self.by_id.clear();
        self.children.clear();
        for (i, s) in spans.iter().enumerate() {
            self.by_id.push((s.id, i));
            if s.parent != 0 {
                self.children.push((s.parent, i));
            }
        }
        self.by_id.sort_unstable();
        self.children.sort_unstable();
    }

    /// The indexes of the spans `pairs` holds under `id`, in the spans' order.
    fn run(pairs: &[(u64, usize)], id: u64) -> impl Iterator<Item = usize> + Clone + '_ {
        let from = pairs.partition_point(|&(k, _)| k < id);
        pairs[from..]
            .iter()
            .take_while(move |&&(k, _)| k == id)
            .map(|&(_, i)| i)
    }

    fn contains(&self, id: u64) -> bool {
        Tree::run(&self.by_id, id).next().is_some()
    }

    /// Whether a span of `kind` has the id `id` (Zipkin's shared halves share one).
    fn has_kind(&self, spans: &[Span], id: u64, kind: Kind) -> bool {
        Tree::run(&self.by_id, id).any(|i| spans[i].kind == kind)
    }

    /// The SERVER spans that answered the CLIENT span `id`, and no deeper one: the half that
    /// shares its id (Zipkin), else the SERVER spans directly under it. A SERVER child that
    /// shares a CLIENT span's id answered that call, not this one.
    fn answering<'t>(
        &'t self,
        spans: &'t [Span],
        id: u64,
    ) -> impl Iterator<Item = usize> + Clone + 't {
        let shared = Tree::run(&self.by_id, id).filter(|&c| spans[c].kind == Kind::Server);
        let any_shared = shared.clone().next().is_some();
        let children =
            Tree::run(if any_shared { &[] } else { &self.children[..] }, id).filter(|&c| {
                spans[c].kind == Kind::Server && !self.has_kind(spans, spans[c].id, Kind::Client)
            });
        shared.chain(children)
    }
}

/// `v`'s lowest `digits` hex digits (at most 32), lower-case, as `{:0digits$x}` writes a
/// value of that many digits at most (a trace id in 32, a span id in 16). Written into a
/// buffer and pushed once, not a char at a time (each push checks the room and encodes).
fn push_hex(out: &mut String, v: u128, digits: u32) {
    let mut hex = [0u8; 32];
    let digits = digits.min(32) as usize;
    for (i, b) in hex[..digits].iter_mut().enumerate() {
        *b = b"0123456789abcdef"[(v >> (4 * (digits - 1 - i))) as usize & 15];
    }
    // Hex digits are ASCII.
    out.push_str(std::str::from_utf8(&hex[..digits]).unwrap_or_default());
}

/// Asks for `spans`' memory to be brought into the cache while the trace before them is
/// judged: a trace's spans were gathered long before (a trace waits [`HOLD`] of the file's
/// time), and reading them cold was the costliest part of judging.
fn prefetch(spans: &[Span]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let bytes = std::mem::size_of_val(spans);
        let start = spans.as_ptr().cast::<i8>();
        for offset in (0..bytes).step_by(64) {
            // SAFETY: SSE is in every x86-64 CPU, and a prefetch only hints: it reads no
            // memory the program sees and never faults (this address is inside the slice).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = spans;
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
/// Returns the spans (by id where parts were merged, else as they came) and how many parts
/// were merged into others.
fn merge_parts(mut spans: Vec<Span>) -> (Vec<Span>, u64) {
    // No two parts of one id (OTLP's spans): nothing to merge, and the spans stay in place.
    if distinct_ids(&spans) {
        return (spans, 0);
    }
    spans.sort_by_key(|s| s.id);
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    let mut merged = 0;
    let mut group_start = 0;
    for s in spans {
        if out.get(group_start).is_none_or(|g| g.id != s.id) {
            group_start = out.len();
        }
        let into = out[group_start..].iter_mut().find(|o| {
            (o.local() == s.local() || o.local() == 0 || s.local() == 0)
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

/// Whether no two spans have one id: each compared with those before it for the few spans of
/// most traces, their ids sorted for more.
fn distinct_ids(spans: &[Span]) -> bool {
    if spans.len() <= 16 {
        return (1..spans.len()).all(|i| spans[..i].iter().all(|o| o.id != spans[i].id));
    }
    let mut ids: Vec<u64> = spans.iter().map(|s| s.id).collect();
    ids.sort_unstable();
    ids.windows(2).all(|w| w[0] != w[1])
}

/// `b`, another part of `a`'s span, into `a`: what one says and the other does not.
fn merge(a: &mut Span, b: Span) {
    if a.kind == Kind::Other {
        a.kind = b.kind;
    }
    a.shared |= b.shared;
    if a.parent == 0 {
        a.parent = b.parent;
    }
    match (a.start, b.start) {
        (0, _) => a.start = b.start,
        (_, 0) => {}
        (x, y) => a.start = x.min(y),
    }
    a.end = a.end.max(b.end);
    if a.method == Method::Unsaid {
        a.method = b.method;
    }
    a.status = a.status.or(b.status);
    a.path = a.path.take().or(b.path);
    a.timeout_named |= b.timeout_named;
    a.peer = a.peer.take().or(b.peer);
    if let Some(b) = b.rare {
        let a = a.rare_mut();
        if a.local == 0 {
            a.local = b.local;
        }
        a.resend = a.resend.or(b.resend);
        a.key = a.key.take().or(b.key);
        a.kept = a.kept.or(b.kept);
        a.method = a.method.take().or(b.method);
    }
    a.error |= b.error;
    a.http |= b.http;
    a.finished |= b.finished;
    a.status_if_not_2xx |= b.status_if_not_2xx;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids are written as `{:032x}` and `{:016x}` write them, whatever their digits.
    #[test]
    fn hex_ids_written_as_format_writes_them() {
        for v in [
            0u128,
            1,
            0xabc,
            u64::MAX.into(),
            u128::MAX,
            0x0123_4567_89ab_cdef << 60,
        ] {
            let mut trace = String::new();
            push_hex(&mut trace, v, 32);
            assert_eq!(trace, format!("{v:032x}"));
            let mut span = String::new();
            push_hex(&mut span, u128::from(v as u64), 16);
            assert_eq!(span, format!("{:016x}", v as u64));
        }
    }

    /// Parts of one span reported apart keep what either says: a method by its code or its
    /// text, a captured key, an endpoint.
    #[test]
    fn parts_merged_keep_each_others_rare_values() {
        let part = |method: Option<&str>, key: Option<&str>, local: u64| {
            let mut r = super::super::span::Reading::default();
            r.span.id = 9;
            r.span.start = 5;
            if let Some(m) = method {
                r.attribute("http.method", m);
            }
            if let Some(k) = key {
                r.attribute("http.request.header.idempotency-key", k);
            }
            r.rare.local = local;
            r.finish()
        };
        for (a, b, method) in [
            (None, Some("PURGE"), "PURGE"),
            (Some("PURGE"), None, "PURGE"),
            (Some("POST"), Some("PURGE"), "POST"),
            (None, Some("POST"), "POST"),
        ] {
            let (spans, merged) = merge_parts(vec![part(a, None, 0), part(b, Some("k1"), 42)]);
            assert_eq!((spans.len(), merged), (1, 1));
            let s = &spans[0];
            assert_eq!(s.method(), Some(method), "{a:?} + {b:?}");
            assert_eq!((s.key().map(|k| k.as_str()), s.local()), (Some("k1"), 42));
        }
    }

    /// Spans' ids are told distinct or not, among few spans and among many.
    #[test]
    fn distinct_ids_found_among_few_and_many() {
        let spans = |ids: &[u64]| -> Vec<Span> {
            ids.iter()
                .map(|&id| Span {
                    id,
                    ..Span::default()
                })
                .collect()
        };
        assert!(distinct_ids(&spans(&[])));
        assert!(distinct_ids(&spans(&[3, 1, 2])));
        assert!(!distinct_ids(&spans(&[3, 1, 3])));
        let many: Vec<u64> = (0..40).map(|i| i * 7 % 41).collect();
        assert!(distinct_ids(&spans(&many)));
        let mut twice = many.clone();
        twice.push(many[17]);
        assert!(!distinct_ids(&spans(&twice)));
    }

    /// The milliseconds' text is the float's, at ties, around them, signed and far out.
    #[test]
    fn milliseconds_written_as_the_float_writes_them() {
        let mut cases: Vec<i64> = vec![0, 1, -1, 499, 500, 501, -500, 1500, 2500, 999_999_500];
        cases.extend([
            i64::MAX,
            i64::MIN,
            999_999_999_999_999,
            1_000_000_000_000_000,
        ]);
        for base in [
            0i64,
            7_000_000,
            250_000_000,
            123_456_789_000,
            86_400_000_000_000,
        ] {
            for d in -1502..1502 {
                cases.extend([base + d, -(base + d)]);
            }
        }
        for ns in cases {
            let mut out = Vec::new();
            write_millis(ns, &mut out);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{:.3}", ns as f64 / 1e6),
                "{ns}"
            );
        }
    }
}
