//! Opening inputs: files or stdin, gzip by magic bytes, the delimiter and header.
//!
//! One configuration serves every input: a [`Source`] is opened into a byte stream
//! (decompressed while streaming when it starts with the gzip magic `1f 8b`, whatever its
//! name), the delimiter is sniffed from the header line unless given, and the header record
//! is parsed with the same CSV rules as the rows.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use csv_core::{ReadRecordResult, ReaderBuilder};

mod pieces;
mod progress;

pub use pieces::{MovableStop, Piece};
pub use progress::ProgressBar;

use super::error::LogError;
use super::limits::{MAX_FIELDS, MAX_RECORD};

/// An input: a file, or `-` for stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    Path(PathBuf),
}

impl Source {
    /// The name used in messages: the path as given, or `-`.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "-".to_string(),
            Source::Path(p) => p.display().to_string(),
        }
    }
}

impl From<&str> for Source {
    fn from(s: &str) -> Self {
        if s == "-" {
            Source::Stdin
        } else {
            Source::Path(PathBuf::from(s))
        }
    }
}

impl From<PathBuf> for Source {
    fn from(p: PathBuf) -> Self {
        if p.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::Path(p)
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The gzip magic bytes.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const READ_BUFFER: usize = 256 * 1024;

/// An opened input, positioned after its header.
pub struct Opened {
    pub name: String,
    /// The data rows, from the first byte after the header.
    pub rest: Box<dyn Read + Send>,
    pub gzip: bool,
    /// Plain files only: the path and size, so they can be read in chunks.
    pub plain_file: Option<(PathBuf, u64)>,
    /// The header fields, the delimiter, and where the data starts (byte offset and line).
    pub header: Vec<Vec<u8>>,
    pub delimiter: u8,
    pub data_start: u64,
    pub data_line: u64,
}

/// Wraps an I/O error as the right [`LogError`] for this input.
pub fn io_error(name: &str, gzip: bool) -> impl Fn(io::Error) -> LogError + use<> {
    let name = name.to_string();
    move |source| {
        if gzip {
            LogError::Gzip {
                path: name.clone(),
                source,
            }
        } else {
            LogError::Io {
                path: name.clone(),
                source,
            }
        }
    }
}

/// Counts the bytes read through it, for the progress bar.
pub struct Counted<R, F: Fn(u64)> {
    pub inner: R,
    pub on_read: F,
}

impl<R: Read, F: Fn(u64)> Read for Counted<R, F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.on_read)(n as u64);
        Ok(n)
    }
}

/// An opened input's bytes, decompressed when it was gzip.
pub struct Stream {
    pub name: String,
    pub reader: Box<dyn Read + Send>,
    pub gzip: bool,
    /// Plain files only: the path and size.
    pub plain_file: Option<(PathBuf, u64)>,
}

/// Opens `source` and detects gzip by its magic bytes.
pub fn open_stream(
    source: &Source,
    on_read: impl Fn(u64) + Send + 'static,
) -> Result<Stream, LogError> {
    let name = source.name();
    let (raw, plain_size, path): (Box<dyn Read + Send>, Option<u64>, Option<PathBuf>) = match source
    {
        Source::Stdin => (Box::new(io::stdin()), None, None),
        Source::Path(p) => {
            let file = open_file(p)?;
            let size = file.metadata().map(|m| m.len()).ok();
            (Box::new(file), size, Some(p.clone()))
        }
    };
    let mut raw = Counted {
        inner: raw,
        on_read,
    };
    // Peek at the first two bytes (a pipe may hand them over one at a time).
    let mut magic = Vec::with_capacity(2);
    while magic.len() < 2 {
        let mut byte = [0u8; 2];
        let want = 2 - magic.len();
        let n = read_retrying(&mut raw, &mut byte[..want]).map_err(io_error(&name, false))?;
        if n == 0 {
            break;
        }
        magic.extend_from_slice(&byte[..n]);
    }
    let gzip = magic == GZIP_MAGIC;
    let reader = BufReader::with_capacity(READ_BUFFER, io::Cursor::new(magic).chain(raw));
    let reader: Box<dyn Read + Send> = if gzip {
        Box::new(flate2::bufread::MultiGzDecoder::new(reader))
    } else {
        Box::new(reader)
    };
    Ok(Stream {
        name,
        reader,
        gzip,
        plain_file: match (gzip, path, plain_size) {
            (false, Some(p), Some(size)) => Some((p, size)),
            _ => None,
        },
    })
}

/// Opens `source`, detects gzip and the delimiter, and reads the header.
pub fn open(
    source: &Source,
    delimiter: Option<u8>,
    on_read: impl Fn(u64) + Send + 'static,
) -> Result<Opened, LogError> {
    let Stream {
        name,
        reader: mut stream,
        gzip,
        plain_file,
    } = open_stream(source, on_read)?;
    let err = io_error(&name, gzip);
    // Read until the header record is complete.
    let mut prefix = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let header_end = loop {
        if let Some(end) = header_record_end(&prefix, delimiter) {
            break Some(end);
        }
        if prefix.len() > MAX_RECORD {
            return Err(LogError::HeaderTooLong {
                path: name,
                limit: MAX_RECORD,
            });
        }
        let n = read_retrying(&mut stream, &mut chunk).map_err(&err)?;
        if n == 0 {
            break None;
        }
        prefix.extend_from_slice(&chunk[..n]);
    };
    if prefix.iter().all(u8::is_ascii_whitespace) {
        return Err(LogError::Empty { path: name });
    }
    let header_end = header_end.unwrap_or(prefix.len());
    let delimiter = delimiter.unwrap_or_else(|| sniff_delimiter(&prefix[..header_end]));
    let (header, data_line) = parse_header(&prefix[..header_end], delimiter);
    let leftover = prefix.split_off(header_end);
    Ok(Opened {
        name,
        rest: Box::new(io::Cursor::new(leftover).chain(stream)),
        gzip,
        plain_file,
        header,
        delimiter,
        data_start: header_end as u64,
        data_line,
    })
}

fn open_file(p: &Path) -> Result<File, LogError> {
    let meta = std::fs::metadata(p).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => LogError::NotFound {
            path: p.to_path_buf(),
        },
        _ => LogError::Io {
            path: p.display().to_string(),
            source: e,
        },
    })?;
    if meta.is_dir() {
        return Err(LogError::IsDirectory {
            path: p.to_path_buf(),
        });
    }
    File::open(p).map_err(|e| LogError::Io {
        path: p.display().to_string(),
        source: e,
    })
}

/// Reads into `buf`, retrying on interruption.
pub fn read_retrying<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// The end of the header record (after its line terminator), if `bytes` holds all of it.
fn header_record_end(bytes: &[u8], delimiter: Option<u8>) -> Option<usize> {
    // Quotes make the sniffed delimiter irrelevant to where the record ends.
    let mut core = ReaderBuilder::new()
        .delimiter(delimiter.unwrap_or(b','))
        .build();
    let mut out = vec![0u8; bytes.len() + 1];
    let mut ends = vec![0usize; MAX_FIELDS];
    let (res, nin, _, _) = core.read_record(bytes, &mut out, &mut ends);
    match res {
        ReadRecordResult::Record if nin < bytes.len() || bytes.ends_with(b"\n") => {
            // Also take the `\n` of a `\r\n`.
            let mut end = nin;
            if bytes[..end].ends_with(b"\r") && bytes.get(end) == Some(&b'\n') {
                end += 1;
            }
            Some(end)
        }
        _ => None,
    }
}

/// The header fields and the line the data starts on.
fn parse_header(bytes: &[u8], delimiter: u8) -> (Vec<Vec<u8>>, u64) {
    let mut core = ReaderBuilder::new().delimiter(delimiter).build();
    let mut out = vec![0u8; bytes.len() + 1];
    let mut ends = vec![0usize; MAX_FIELDS];
    let (mut outlen, mut endlen, mut at) = (0, 0, 0);
    loop {
        let (res, nin, nout, nend) =
            core.read_record(&bytes[at..], &mut out[outlen..], &mut ends[endlen..]);
        at += nin;
        outlen += nout;
        endlen += nend;
        match res {
            ReadRecordResult::InputEmpty if at < bytes.len() => continue,
            ReadRecordResult::InputEmpty => continue,
            _ => break,
        }
    }
    let mut fields = Vec::with_capacity(endlen);
    let mut start = 0;
    for &end in &ends[..endlen] {
        fields.push(out[start..end].to_vec());
        start = end;
    }
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    (fields, 1 + lines.max(1))
}

/// The delimiter of a header line: whichever of comma, tab, semicolon and pipe occurs most
/// often outside quotes (comma when none does).
pub fn sniff_delimiter(header: &[u8]) -> u8 {
    let mut counts = [0usize; 4];
    let mut quoted = false;
    for &b in header {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b'\t' if !quoted => counts[1] += 1,
            b';' if !quoted => counts[2] += 1,
            b'|' if !quoted => counts[3] += 1,
            _ => {}
        }
    }
    let best = (0..4).max_by_key(|&i| (counts[i], 4 - i)).unwrap_or(0);
    if counts[best] == 0 {
        b','
    } else {
        [b',', b'\t', b';', b'|'][best]
    }
}

/// Reads `inner` on a thread of its own, a block ahead of the consumer, so decompressing (or
/// reading a pipe) and parsing use two cores. Errors arrive in order; dropping the reader
/// stops the thread at its next block.
pub fn read_ahead(mut inner: Box<dyn Read + Send>) -> ReadAhead {
    let (tx, rx) = std::sync::mpsc::sync_channel::<io::Result<Vec<u8>>>(4);
    std::thread::spawn(move || {
        loop {
            let mut block = vec![0u8; READ_BUFFER];
            let result = read_retrying(&mut inner, &mut block).map(|n| {
                block.truncate(n);
                block
            });
            let done = !matches!(&result, Ok(b) if !b.is_empty());
            if tx.send(result).is_err() || done {
                return;
            }
        }
    });
    ReadAhead {
        rx,
        block: Vec::new(),
        at: 0,
        done: false,
    }
}

/// The consumer's side of [`read_ahead`].
pub struct ReadAhead {
    rx: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    done: bool,
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.block.len() {
            if self.done {
                return Ok(0);
            }
            match self.rx.recv() {
                Ok(Ok(block)) => {
                    self.done = block.is_empty();
                    self.block = block;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => {
                    self.done = true;
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Offsets where the pieces of a plain file start: `data_start`, then the byte after the first
/// newline at or after each equal share. A guess inside a quoted field is caught later (the
/// previous piece does not end there) and that piece is read again from the right place.
pub fn plan_pieces(path: &Path, data_start: u64, size: u64, pieces: usize) -> io::Result<Vec<u64>> {
    let mut starts = vec![data_start];
    if pieces <= 1 || size <= data_start {
        return Ok(starts);
    }
    let mut file = File::open(path)?;
    let share = (size - data_start) / pieces as u64;
    for i in 1..pieces {
        let at = data_start + share * i as u64;
        if at <= *starts.last().unwrap_or(&0) {
            continue;
        }
        match next_line_start(&mut file, at, size)? {
            Some(s) => starts.push(s),
            None => break,
        }
    }
    Ok(starts)
}

/// The offset after the first newline at or after `at`, if it is before `limit`.
pub fn next_line_start(file: &mut File, mut at: u64, limit: u64) -> io::Result<Option<u64>> {
    let mut window = vec![0u8; 64 * 1024];
    file.seek(SeekFrom::Start(at))?;
    while at < limit {
        let n = file.read(&mut window)?;
        if n == 0 {
            return Ok(None);
        }
        if let Some(j) = memchr::memchr(b'\n', &window[..n]) {
            let start = at + j as u64 + 1;
            return Ok((start < limit).then_some(start));
        }
        at += n as u64;
    }
    Ok(None)
}

/// Number of newlines in the first `len` bytes of a file (for line numbers of later pieces).
pub fn count_lines(path: &Path, len: u64) -> io::Result<u64> {
    let mut file = File::open(path)?.take(len);
    let mut buf = vec![0u8; READ_BUFFER];
    let mut lines = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(lines);
        }
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs() {
        assert_eq!(sniff_delimiter(b"a,b,c\n"), b',');
        assert_eq!(sniff_delimiter(b"a\tb\tc\n"), b'\t');
        assert_eq!(sniff_delimiter(b"a;b;c"), b';');
        assert_eq!(sniff_delimiter(b"a|b|c"), b'|');
        assert_eq!(sniff_delimiter(b"\"a,b\";c;d"), b';');
        assert_eq!(sniff_delimiter(b"abc"), b',');
    }

    #[test]
    fn header_end() {
        assert_eq!(header_record_end(b"a,b\nx,y\n", None), Some(4));
        assert_eq!(header_record_end(b"a,b\r\nx,y\n", None), Some(5));
        assert_eq!(header_record_end(b"\"a\nb\",c\nx", None), Some(8));
        assert_eq!(header_record_end(b"a,b", None), None);
        assert_eq!(header_record_end(b"a,b\n", None), Some(4));
    }
}
