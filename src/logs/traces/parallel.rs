//! Documents one a line (the Collector's files) parsed by several threads: this thread reads
//! the input in chunks of whole lines and hands each to a worker, round robin; each worker
//! parses its chunks' documents into spans; this thread takes the chunks' spans back in the
//! file's order and gives them to the assembly. The assembly sees the same spans in the same
//! order as when one thread reads, so the figures are the same.
//!
//! A line that is not a whole document (a pretty-printed one, a Zipkin array) or that fails
//! stops the chunk there: that line and everything after it are read by the one-thread
//! reader ([`super::documents`]), which reads it, or says what is wrong with it, at its line.

use std::io::{self, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::span::Span;
use super::{Collect, TraceFormat, assemble, parse_document};
use crate::logs::error::LogError;
use crate::logs::source::read_retrying;

/// The bytes of a chunk: a few of the Collector's lines, enough that handing it over costs
/// little against parsing it.
pub const CHUNK: usize = 1 << 20;

/// Chunks queued for a worker, at most: with those being parsed and those whose spans are
/// being taken, all there are (memory stays flat).
const DEPTH: usize = 2;

/// How the reading is shared.
#[derive(Debug, Clone, Copy)]
pub struct Threads {
    /// Threads parsing.
    pub workers: usize,
    /// The bytes of a chunk (more where one line is longer).
    pub chunk: usize,
}

/// A chunk to parse: `bytes[..len]` are whole lines (the last one may end at the input's
/// end); `spans` an empty vector to fill, reused from chunk to chunk.
struct Job {
    bytes: Vec<u8>,
    len: usize,
    spans: Vec<Span>,
}

/// A chunk parsed: its lines' spans, in order, up to `stop`, the offset of the first line
/// not read (`None`: all were); `lines` is the number of lines before it.
struct Parsed {
    job: Job,
    stop: Option<usize>,
    lines: u64,
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

/// The documents of `input`, one a line, to the assembly (see the module's docs).
pub fn documents(
    input: Box<dyn Read + Send>,
    threads: Threads,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    err: &dyn Fn(io::Error) -> LogError,
) -> Result<(), LogError> {
    let workers = threads.workers.max(1);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut to = Vec::with_capacity(workers);
        let mut from = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (job_tx, job_rx) = mpsc::sync_channel::<Job>(DEPTH);
            // Unbounded, so a worker never waits on this thread: the reading thread's
            // bounded queues already hold the chunks in flight to DEPTH a worker.
            let (done_tx, done_rx) = mpsc::channel::<Parsed>();
            scope.spawn(move || {
                for job in job_rx {
                    if done_tx.send(parse_chunk(job, name, format)).is_err() {
                        break;
                    }
                }
            });
            to.push(job_tx);
            from.push(done_rx);
        }
        // Chunks whose spans went on come back to the reading thread, to be filled again.
        let (spare_tx, spare_rx) = mpsc::channel::<Job>();
        let stop = &stop;
        let reader = scope.spawn(move || read_chunks(input, to, spare_rx, threads.chunk, stop));
        let mut taken = 0usize;
        let mut line = 1u64;
        loop {
            let Ok(mut parsed) = from[taken % workers].recv() else {
                // The reading thread has ended and every chunk it handed over is taken.
                let left = reader.join().map_err(|_| lost())?;
                if let Some(e) = left.failed {
                    return Err(err(e));
                }
                return if left.sent == taken {
                    Ok(())
                } else {
                    Err(lost())
                };
            };
            taken += 1;
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
            let mut rest = parsed.job.bytes[at..parsed.job.len].to_vec();
            let left = reader.join().map_err(|_| lost())?;
            while taken < left.sent {
                let later = from[taken % workers].recv().map_err(|_| lost())?;
                taken += 1;
                rest.extend_from_slice(&later.job.bytes[..later.job.len]);
            }
            rest.extend_from_slice(&left.carry);
            let mut rest = BufReader::with_capacity(
                super::READ_BUFFER,
                io::Cursor::new(rest).chain(left.input),
            );
            if let Some(e) = left.failed {
                // Read up to the error, where the one-thread reader meets it.
                return match super::documents(
                    &mut rest,
                    asm,
                    name,
                    format,
                    err,
                    line + parsed.lines,
                ) {
                    Ok(()) => Err(err(e)),
                    Err(first) => Err(first),
                };
            }
            return super::documents(&mut rest, asm, name, format, err, line + parsed.lines);
        }
    })
}

fn lost() -> LogError {
    LogError::Internal("a trace reading thread stopped (a bug in dupcost: please report it)".into())
}

/// The reading thread: chunks filled (with the vectors that came back, or new ones) and
/// handed to the workers, round robin, until the input ends, fails, or `stop` is set.
fn read_chunks(
    mut input: Box<dyn Read + Send>,
    to: Vec<mpsc::SyncSender<Job>>,
    spare: mpsc::Receiver<Job>,
    chunk: usize,
    stop: &AtomicBool,
) -> Left {
    let mut carry = Vec::new();
    let mut sent = 0;
    let mut failed = None;
    // Chunks in being, at most: those queued for each worker, and one more each being parsed
    // or having its spans taken.
    let most = to.len() * (DEPTH + 1);
    let mut made = 0;
    while !stop.load(Ordering::Relaxed) {
        let mut job = match spare.try_recv() {
            Ok(job) => job,
            Err(_) if made < most => {
                made += 1;
                Job {
                    bytes: Vec::new(),
                    len: 0,
                    spans: Vec::new(),
                }
            }
            // Every chunk is out: wait for one back (none comes once this thread is to stop).
            Err(_) => match spare.recv() {
                Ok(job) => job,
                Err(_) => break,
            },
        };
        let ended = match fill(&mut input, &mut job.bytes, &mut carry, chunk) {
            Ok((len, ended)) => {
                job.len = len;
                ended
            }
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        if job.len > 0 {
            if to[sent % to.len()].send(job).is_err() {
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

/// A worker's part: each line of the chunk that holds a document (`{` after any spaces)
/// parsed, until one is not a whole document or does not parse.
fn parse_chunk(mut job: Job, name: &str, format: TraceFormat) -> Parsed {
    let mut spans = Collect(std::mem::take(&mut job.spans));
    spans.0.clear();
    let (mut at, mut lines, mut stop) = (0, 0, None);
    let bytes = &job.bytes[..job.len];
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1);
        let line = &bytes[at..end];
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
    job.spans = spans.0;
    Parsed { job, stop, lines }
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

    fn parsed(text: &str) -> (usize, Option<usize>, u64) {
        let job = Job {
            bytes: text.as_bytes().to_vec(),
            len: text.len(),
            spans: Vec::new(),
        };
        let format = super::super::TraceFormat(&super::super::otlp::TRACE);
        let p = parse_chunk(job, "t", format);
        (p.job.spans.len(), p.stop, p.lines)
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
