//! Documents one a line (the Collector's files) parsed by several threads: the input is cut
//! into chunks of whole lines, handed round robin to the workers, each of which parses its
//! chunks' documents into spans; this thread takes the chunks' spans back in the file's order
//! and gives them to the assembly. The assembly sees the same spans in the same order as when
//! one thread reads, so the figures are the same.
//!
//! A chunk is a range of a mapped file ([`mapped`]: no byte copied, its pages handed back by
//! the worker that parsed it), or bytes a reading thread read from a stream (stdin,
//! gzip, a small file: [`streamed`]), the vectors reused from chunk to chunk.
//!
//! A line that is not a whole document (a pretty-printed one, a Zipkin array) or that fails
//! stops the chunk there: that line and everything after it are read by the one-thread
//! reader ([`super::documents`]), which reads it, or says what is wrong with it, at its line.

use std::collections::BTreeMap;
use std::io::{self, BufReader, Read};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::Scope;

use super::span::Span;
use super::{Collect, TraceFormat, assemble, parse_document};
use crate::logs::error::LogError;
use crate::logs::source::{Mapped, MappedReader, read_retrying};

/// The bytes of a chunk: a few of the Collector's lines, enough that handing it over costs
/// little against parsing it.
pub const CHUNK: usize = 1 << 20;

/// Chunks read from a stream in flight for a worker, at most (each holds its bytes): with
/// those being parsed and those whose spans are being taken, all there are (memory stays
/// flat).
const DEPTH: usize = 2;

/// Chunks of a mapped file in flight, at most (at least DEPTH a worker): each holds only its
/// spans, and a deep queue lets the workers run on while the assembly judges a batch of
/// traces.
const MAPPED_IN_FLIGHT: usize = 16;

/// How the reading is shared.
#[derive(Debug, Clone, Copy)]
pub struct Threads {
    /// Threads parsing.
    pub workers: usize,
    /// The bytes of a chunk (more where one line is longer).
    pub chunk: usize,
}

/// A chunk's bytes: whole lines (the last one may end at the input's end).
enum Chunk {
    /// `bytes[..len]`, read from a stream.
    Read { bytes: Vec<u8>, len: usize },
    /// A range of the mapped file.
    Mapped(Range<usize>),
}

/// A chunk to parse, with an empty vector for its spans, reused from chunk to chunk.
struct Job {
    chunk: Chunk,
    spans: Vec<Span>,
}

/// A chunk parsed: its lines' spans, in order, up to `stop`, the offset in the chunk of the
/// first line not read (`None`: all were); `lines` is the number of lines before it.
struct Parsed {
    job: Job,
    stop: Option<usize>,
    lines: u64,
}

/// A chunk parsed, with its number; `None`: the worker parsing it stopped (a bug).
type Done = (usize, Option<Parsed>);

/// The workers' two queues: jobs, numbered in the input's order, and the chunks parsed, in
/// the order they were done.
type Queues = (mpsc::SyncSender<(usize, Job)>, mpsc::Receiver<Done>);

/// Held by a worker while it parses chunk `i`: should the worker panic, the chunk is said
/// lost, so the thread waiting for it stops rather than waits for ever (the other workers
/// keep the queue open).
struct Parsing<'a> {
    done: &'a mpsc::Sender<Done>,
    i: usize,
}

impl Drop for Parsing<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.done.send((self.i, None));
        }
    }
}

/// The workers. They share one queue of jobs (at most `bound` waiting): whichever is free
/// takes the next, so a worker that falls behind (its core shared with the assembly) holds
/// no chunk back that another could parse. `mapped` is the mapped file (none for a stream),
/// whose pages a worker hands back once it has parsed them (a span holds its own texts).
fn workers<'s>(
    scope: &'s Scope<'s, '_>,
    threads: Threads,
    bound: usize,
    mapped: Option<&'s Mapped>,
    name: &'s str,
    format: TraceFormat,
) -> Queues {
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Job)>(bound);
    let job_rx = Arc::new(Mutex::new(job_rx));
    // Unbounded, so a worker never waits on the thread taking the spans: the chunks in
    // flight are already bounded where they are made.
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let map = mapped.map_or(&[][..], Mapped::bytes);
    for _ in 0..threads.workers.max(1) {
        let (jobs, done) = (Arc::clone(&job_rx), done_tx.clone());
        scope.spawn(move || {
            loop {
                // The lock is held only to take a job (poisoned only by a panic while one
                // was taken: then no job is taken again).
                let Ok(Ok((i, job))) = jobs.lock().map(|jobs| jobs.recv()) else {
                    break;
                };
                let parsing = Parsing { done: &done, i };
                let text = match &job.chunk {
                    Chunk::Read { bytes, len } => &bytes[..*len],
                    Chunk::Mapped(range) => {
                        if let Some(mapped) = mapped {
                            mapped.populate(range.clone());
                        }
                        &map[range.clone()]
                    }
                };
                let (spans, stop, lines) = parse_chunk(text, job.spans, name, format);
                if let (Some(mapped), Chunk::Mapped(range)) = (mapped, &job.chunk) {
                    mapped.release_around(range.clone());
                }
                let job = Job {
                    chunk: job.chunk,
                    spans,
                };
                drop(parsing);
                if done.send((i, Some(Parsed { job, stop, lines }))).is_err() {
                    break;
                }
            }
        });
    }
    (job_tx, done_rx)
}

/// The chunks parsed, taken in the input's order whatever order they were done in.
struct InOrder {
    done: mpsc::Receiver<Done>,
    /// The number of the next chunk to take.
    next: usize,
    /// Chunks done before those ahead of them, by number.
    early: BTreeMap<usize, Option<Parsed>>,
}

impl InOrder {
    fn new(done: mpsc::Receiver<Done>) -> InOrder {
        InOrder {
            done,
            next: 0,
            early: BTreeMap::new(),
        }
    }

    /// The next chunk; `None` once every worker has ended without it, or if it was lost.
    fn take(&mut self) -> Option<Parsed> {
        loop {
            if let Some(parsed) = self.early.remove(&self.next) {
                self.next += 1;
                return parsed;
            }
            let (i, parsed) = self.done.recv().ok()?;
            self.early.insert(i, parsed);
        }
    }
}

fn lost() -> LogError {
    LogError::Internal("a trace reading thread stopped (a bug in dupcost: please report it)".into())
}

/// The documents of a mapped file, one a line, to the assembly (see the module's docs); its
/// bytes are counted for the progress bar by `on_read` as their spans go on.
pub fn mapped(
    mapped: &Mapped,
    threads: Threads,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    err: &dyn Fn(io::Error) -> LogError,
    on_read: &(dyn Fn(u64) + Sync),
) -> Result<(), LogError> {
    let bytes = mapped.bytes();
    std::thread::scope(|scope| {
        let in_flight = MAPPED_IN_FLIGHT.max(DEPTH * threads.workers.max(1));
        let (to, done) = workers(scope, threads, in_flight, Some(mapped), name, format);
        let mut parsed_chunks = InOrder::new(done);
        let mut spare: Vec<Vec<Span>> = Vec::new();
        let (mut next, mut sent, mut line) = (0, 0, 1u64);
        loop {
            // At most `in_flight` chunks out: a send never waits.
            while next < bytes.len() && sent - parsed_chunks.next < in_flight {
                let end = memchr::memchr(b'\n', bytes.get(next + threads.chunk..).unwrap_or(&[]))
                    .map_or(bytes.len(), |i| next + threads.chunk + i + 1);
                let job = Job {
                    chunk: Chunk::Mapped(next..end),
                    spans: spare.pop().unwrap_or_default(),
                };
                to.send((sent, job)).map_err(|_| lost())?;
                next = end;
                sent += 1;
            }
            if parsed_chunks.next == sent {
                return Ok(());
            }
            let mut parsed = parsed_chunks.take().ok_or_else(lost)?;
            super::feed(parsed.job.spans.drain(..), asm)?;
            let Chunk::Mapped(range) = parsed.job.chunk else {
                return Err(lost());
            };
            if let Some(at) = parsed.stop {
                on_read(at as u64);
                let mut rest = MappedReader::new(mapped, range.start + at, on_read);
                return super::documents(&mut rest, asm, name, format, err, line + parsed.lines);
            }
            on_read(range.len() as u64);
            line += parsed.lines;
            spare.push(parsed.job.spans);
        }
    })
}

/// What the reading thread leaves: the input and what was read past the last chunk's lines,
/// for the one-thread reader to go on with; how many chunks it handed over; and an error of
/// the input, if one stopped it.
struct Left {
    input: Box<dyn Read + Send>,
    carry: Vec<u8>,
    sent: usize,
    failed: Option<io::Error>,
}

/// The documents of a stream, one a line, to the assembly (see the module's docs).
pub fn streamed(
    input: Box<dyn Read + Send>,
    threads: Threads,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    err: &dyn Fn(io::Error) -> LogError,
) -> Result<(), LogError> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let n = threads.workers.max(1);
        let (to, done) = workers(scope, threads, n * DEPTH, None, name, format);
        let mut parsed_chunks = InOrder::new(done);
        // Chunks whose spans went on come back to the reading thread, to be filled again.
        let (spare_tx, spare_rx) = mpsc::channel::<Job>();
        let stop = &stop;
        let reader = scope.spawn(move || read_chunks(input, to, n, spare_rx, threads.chunk, stop));
        let mut line = 1u64;
        loop {
            let Some(mut parsed) = parsed_chunks.take() else {
                // The reading thread has ended and every chunk it handed over is taken, or a
                // chunk was lost: then the reading thread is stopped.
                stop.store(true, Ordering::Relaxed);
                drop(spare_tx);
                let left = reader.join().map_err(|_| lost())?;
                if let Some(e) = left.failed {
                    return Err(err(e));
                }
                return if left.sent == parsed_chunks.next {
                    Ok(())
                } else {
                    Err(lost())
                };
            };
            super::feed(parsed.job.spans.drain(..), asm)?;
            let Some(at) = parsed.stop else {
                line += parsed.lines;
                // Its reader may have ended: then the chunk is not needed.
                let _ = spare_tx.send(parsed.job);
                continue;
            };
            // The rest by one thread, from the line that stopped the chunk: its bytes, the
            // chunks after it, what was read past them, then the input.
            stop.store(true, Ordering::Relaxed);
            drop(spare_tx);
            let mut rest = match &parsed.job.chunk {
                Chunk::Read { bytes, len } => bytes[at..*len].to_vec(),
                Chunk::Mapped(_) => return Err(lost()),
            };
            let left = reader.join().map_err(|_| lost())?;
            while parsed_chunks.next < left.sent {
                let later = parsed_chunks.take().ok_or_else(lost)?;
                if let Chunk::Read { bytes, len } = &later.job.chunk {
                    rest.extend_from_slice(&bytes[..*len]);
                }
            }
            rest.extend_from_slice(&left.carry);
            let mut rest = BufReader::with_capacity(
                super::READ_BUFFER,
                io::Cursor::new(rest).chain(left.input),
            );
            let read = super::documents(&mut rest, asm, name, format, err, line + parsed.lines);
            // An error of the input comes after the documents read before it.
            return match (read, left.failed) {
                (Ok(()), Some(e)) => Err(err(e)),
                (read, _) => read,
            };
        }
    })
}

/// The reading thread: chunks filled (with the vectors that came back, or new ones) and
/// handed to the `workers`, numbered in order, until the input ends, fails, or `stop` is set.
fn read_chunks(
    mut input: Box<dyn Read + Send>,
    to: mpsc::SyncSender<(usize, Job)>,
    workers: usize,
    spare: mpsc::Receiver<Job>,
    chunk: usize,
    stop: &AtomicBool,
) -> Left {
    let mut carry = Vec::new();
    let mut sent = 0;
    let mut failed = None;
    // Chunks in being, at most: those queued for the workers, and one more each being
    // parsed or having its spans taken.
    let most = workers * (DEPTH + 1);
    let mut made = 0;
    while !stop.load(Ordering::Relaxed) {
        let mut job = match spare.try_recv() {
            Ok(job) => job,
            Err(_) if made < most => {
                made += 1;
                Job {
                    chunk: Chunk::Read {
                        bytes: Vec::new(),
                        len: 0,
                    },
                    spans: Vec::new(),
                }
            }
            // Every chunk is out: wait for one back (none comes once this thread is to stop).
            Err(_) => match spare.recv() {
                Ok(job) => job,
                Err(_) => break,
            },
        };
        let Chunk::Read { bytes, len } = &mut job.chunk else {
            break;
        };
        let ended = match fill(&mut input, bytes, &mut carry, chunk) {
            Ok((filled, ended)) => {
                *len = filled;
                ended
            }
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        if *len > 0 {
            if to.send((sent, job)).is_err() {
                break;
            }
            sent += 1;
        }
        if ended {
            break;
        }
    }
    Left {
        input,
        carry,
        sent,
        failed,
    }
}

/// `bytes` filled with `carry`, then the input, until full, and cut after its last newline;
/// what follows that goes back to `carry`. Its length is that of the whole lines in it (all
/// of it at the input's end), and whether the input ended. A line longer than the chunk
/// grows it.
fn fill(
    input: &mut impl Read,
    bytes: &mut Vec<u8>,
    carry: &mut Vec<u8>,
    chunk: usize,
) -> io::Result<(usize, bool)> {
    // Kept at its full length from chunk to chunk: zeroed once, not at each fill.
    let room = chunk.max(carry.len() * 2).max(1);
    if bytes.len() < room {
        bytes.resize(room, 0);
    }
    let mut len = carry.len();
    bytes[..len].copy_from_slice(carry);
    carry.clear();
    loop {
        if len == bytes.len() {
            if let Some(n) = memchr::memrchr(b'\n', &bytes[..len]) {
                carry.extend_from_slice(&bytes[n + 1..len]);
                return Ok((n + 1, false));
            }
            bytes.resize(len * 2, 0);
        }
        let n = read_retrying(input, &mut bytes[len..])?;
        if n == 0 {
            return Ok((len, true));
        }
        len += n;
    }
}

/// A worker's part: each line of `text` that holds a document (`{` after any spaces) parsed
/// into `spans`, until one is not a whole document or does not parse. The spans, the offset of
/// the line that stopped it, and the lines before that.
fn parse_chunk(
    text: &[u8],
    spans: Vec<Span>,
    name: &str,
    format: TraceFormat,
) -> (Vec<Span>, Option<usize>, u64) {
    let mut spans = Collect(spans);
    spans.0.clear();
    let (mut at, mut lines, mut stop) = (0, 0, None);
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |n| at + n + 1);
        let line = &text[at..end];
        // Spaces between documents are skipped; a document's line number only words an
        // error, which the one-thread reader gives.
        let read = match line.iter().position(|b| !b.is_ascii_whitespace()) {
            None => true,
            Some(first) => {
                line[first] == b'{'
                    && parse_document(&line[first..], &mut spans, name, format, 0).is_ok()
            }
        };
        if !read {
            stop = Some(at);
            break;
        }
        lines += u64::from(line.last() == Some(&b'\n'));
        at = end;
    }
    (spans.0, stop, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `input` cut into chunks as the reading thread cuts it: each chunk's whole lines.
    fn chunks(input: &[u8], chunk: usize) -> Vec<Vec<u8>> {
        let mut input = io::Cursor::new(input.to_vec());
        let (mut bytes, mut carry, mut out) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            let (len, ended) = fill(&mut input, &mut bytes, &mut carry, chunk).unwrap();
            if len > 0 {
                out.push(bytes[..len].to_vec());
            }
            if ended {
                return out;
            }
        }
    }

    #[test]
    fn chunks_are_whole_lines_and_lose_no_byte() {
        let text = b"{\"a\":1}\n{\"b\":22}\n\n  {\"c\":333}\n{\"d\":4}";
        for chunk in 1..text.len() + 4 {
            let parts = chunks(text, chunk);
            assert_eq!(parts.concat(), text, "chunk {chunk}");
            for part in &parts[..parts.len() - 1] {
                assert_eq!(part.last(), Some(&b'\n'), "chunk {chunk}: {part:?}");
            }
        }
        // A line longer than the chunk grows it; the input's last line needs no newline.
        let long = chunks(b"0123456789\nabcdefghijklmnopq\nz", 4);
        assert_eq!(long[0], b"0123456789\n");
        assert_eq!(long.concat(), b"0123456789\nabcdefghijklmnopq\nz");
        assert!(chunks(b"", 8).is_empty());
    }

    /// Chunks done in any order are taken in the input's order; once the workers have ended,
    /// a chunk never done is `None`.
    #[test]
    fn chunks_are_taken_in_order_whatever_order_they_were_done_in() {
        let (tx, rx) = mpsc::channel();
        let done = |lines| Parsed {
            job: Job {
                chunk: Chunk::Mapped(0..0),
                spans: Vec::new(),
            },
            stop: None,
            lines,
        };
        for i in [2usize, 0, 3, 1, 5] {
            tx.send((i, Some(done(i as u64)))).unwrap();
        }
        drop(tx);
        let mut taken = InOrder::new(rx);
        let order: Vec<u64> = std::iter::from_fn(|| taken.take().map(|p| p.lines)).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(taken.next, 4);
        // A chunk said lost ends the taking there, though its workers' queue is still open.
        let (tx, rx) = mpsc::channel();
        tx.send((1, None)).unwrap();
        tx.send((0, Some(done(0)))).unwrap();
        let mut taken = InOrder::new(rx);
        assert_eq!(taken.take().map(|p| p.lines), Some(0));
        assert!(taken.take().is_none());
        drop(tx);
    }

    /// A worker that panics while it parses a chunk says the chunk lost.
    #[test]
    fn a_worker_that_panics_says_its_chunk_lost() {
        let (tx, rx) = mpsc::channel();
        let worker = std::thread::spawn(move || {
            let _parsing = Parsing { done: &tx, i: 7 };
            panic!("a bug while parsing");
        });
        assert!(worker.join().is_err());
        assert!(matches!(rx.recv(), Ok((7, None))));
    }

    fn parsed(text: &str) -> (usize, Option<usize>, u64) {
        let format = super::super::TraceFormat(&super::super::otlp::TRACE);
        let (spans, stop, lines) = parse_chunk(text.as_bytes(), Vec::new(), "t", format);
        (spans.len(), stop, lines)
    }

    #[test]
    fn a_chunk_stops_at_the_first_line_that_is_no_whole_document() {
        let span = r#"{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","kind":3,"startTimeUnixNano":"1","endTimeUnixNano":"2"}"#;
        let doc =
            format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{span},{span}]}}]}}]}}"#);
        // Every line read: spaces and blank lines between documents, the last without a
        // newline.
        let all = format!("{doc}\n\n   {doc}\r\n{doc}");
        assert_eq!(parsed(&all), (6, None, 3));
        // A pretty-printed document's first line, a Zipkin array and a broken line each stop
        // the chunk at their line, after the spans before it.
        for odd in ["{\n", "[{\"traceId\":\"a\"}]\n", "{\"resourceSpans\":[\n"] {
            let text = format!("{doc}\n\n{odd}{doc}\n");
            assert_eq!(parsed(&text), (2, Some(doc.len() + 2), 2), "{odd:?}");
        }
    }
}
