//! Opening inputs: files or stdin, gzip by magic bytes, the first lines read ahead.
//!
//! One configuration serves every input: a [`LogInput`] is opened into a byte stream
//! (decompressed while streaming when it starts with the gzip magic `1f 8b`, whatever its
//! name) and its first lines are read ahead, for the [`formats`](super::formats) stage to
//! tell the format (and read a CSV header).

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

mod mapped;
mod pieces;
mod progress;

pub use mapped::{MAP_AT_LEAST, Mapped, MappedReader};
pub use pieces::{MovableStop, Piece};
pub use progress::ProgressBar;

use super::error::LogError;

/// An input: a file, or `-` for stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogInput {
    Stdin,
    Path(PathBuf),
}

impl LogInput {
    /// The name used in messages: the path as given, or `-`.
    pub fn name(&self) -> String {
        match self {
            LogInput::Stdin => "-".to_string(),
            LogInput::Path(p) => p.display().to_string(),
        }
    }
}

impl From<&str> for LogInput {
    fn from(s: &str) -> Self {
        if s == "-" {
            LogInput::Stdin
        } else {
            LogInput::Path(PathBuf::from(s))
        }
    }
}

impl From<PathBuf> for LogInput {
    fn from(p: PathBuf) -> Self {
        if p.as_os_str() == "-" {
            LogInput::Stdin
        } else {
            LogInput::Path(p)
        }
    }
}

impl fmt::Display for LogInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The gzip magic bytes.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const READ_BUFFER: usize = 256 * 1024;

/// An opened input: its first bytes read ahead (to tell its format and read its header),
/// the rest still in the stream.
pub struct Opened {
    pub name: String,
    /// The first bytes of the input (decompressed), from offset 0.
    pub prefix: Vec<u8>,
    /// The bytes after the prefix.
    stream: Box<dyn Read + Send>,
    /// The stream has no bytes after the prefix.
    pub eof: bool,
    pub gzip: bool,
    /// Plain files only: the path and size, so they can be read in chunks.
    pub plain_file: Option<(PathBuf, u64)>,
}

impl Opened {
    /// Bytes already read (by `logs --follow`'s reader), as an input whose first lines are
    /// `prefix` and nothing more.
    pub fn from_bytes(name: String, prefix: Vec<u8>) -> Opened {
        Opened {
            name,
            prefix,
            stream: Box::new(io::empty()),
            eof: true,
            gzip: false,
            plain_file: None,
        }
    }

    /// Reads more of the input into the prefix (one block); false at the end of the input.
    pub fn read_more(&mut self) -> Result<bool, LogError> {
        if self.eof {
            return Ok(false);
        }
        let mut chunk = vec![0u8; 64 * 1024];
        let n =
            read_retrying(&mut self.stream, &mut chunk).map_err(io_error(&self.name, self.gzip))?;
        self.prefix.extend_from_slice(&chunk[..n]);
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// Its first `lines` lines read (at most 64 KiB of them); an input with nothing but
    /// whitespace there is refused as empty.
    fn first_lines(mut self, lines: usize) -> Result<Opened, LogError> {
        self.read_lines(lines, 64 * 1024)?;
        if self.prefix.iter().all(u8::is_ascii_whitespace) {
            return Err(LogError::Empty { path: self.name });
        }
        Ok(self)
    }

    /// Reads until the prefix holds `lines` whole lines, or `limit` bytes, or the whole input.
    pub fn read_lines(&mut self, lines: usize, limit: usize) -> Result<(), LogError> {
        while self.prefix.len() < limit
            && memchr::memchr_iter(b'\n', &self.prefix).count() < lines
            && self.read_more()?
        {}
        Ok(())
    }

    /// The same input read through `wrap` (a framing of its bytes, e.g. a JSON document as
    /// lines), its first `lines` lines read again through it. Read as one stream (no pieces).
    pub fn reframe(
        self,
        wrap: impl FnOnce(Box<dyn Read + Send>) -> Box<dyn Read + Send>,
        lines: usize,
    ) -> Result<Opened, LogError> {
        let (name, gzip) = (self.name.clone(), self.gzip);
        let stream = wrap(self.rest(0));
        let mut opened = Opened {
            name,
            prefix: Vec::new(),
            stream,
            eof: false,
            gzip,
            plain_file: None,
        };
        opened.read_lines(lines, 64 * 1024)?;
        Ok(opened)
    }

    /// The input from byte `skip` of the prefix on.
    pub fn rest(self, skip: usize) -> Box<dyn Read + Send> {
        let mut prefix = self.prefix;
        let leftover = prefix.split_off(skip.min(prefix.len()));
        Box::new(io::Cursor::new(leftover).chain(self.stream))
    }
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
    source: &LogInput,
    on_read: impl Fn(u64) + Send + 'static,
) -> Result<Stream, LogError> {
    let name = source.name();
    let (raw, plain_size, path): (Box<dyn Read + Send>, Option<u64>, Option<PathBuf>) = match source
    {
        LogInput::Stdin => (Box::new(io::stdin()), None, None),
        LogInput::Path(p) => {
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

/// Opens `source`, detects gzip, and reads its first `lines` lines (at most 64 KiB of them).
pub fn open(
    source: &LogInput,
    lines: usize,
    on_read: impl Fn(u64) + Send + 'static,
) -> Result<Opened, LogError> {
    let Stream {
        name,
        reader,
        gzip,
        plain_file,
    } = open_stream(source, on_read)?;
    Opened {
        name,
        prefix: Vec::new(),
        stream: reader,
        eof: false,
        gzip,
        plain_file,
    }
    .first_lines(lines)
}

/// Bytes held in memory as an input named `name`, opened as [`open`] opens a file of them
/// (gzip undone, the first `lines` lines read), for the fuzz targets: a file written and
/// opened again at each execution costs more than most readings.
#[doc(hidden)]
pub fn open_bytes(name: &str, bytes: &[u8], lines: usize) -> Result<Opened, LogError> {
    let gzip = bytes.starts_with(&GZIP_MAGIC);
    let bytes = io::Cursor::new(bytes.to_vec());
    Opened {
        name: name.to_string(),
        prefix: Vec::new(),
        stream: if gzip {
            Box::new(flate2::read::MultiGzDecoder::new(bytes))
        } else {
            Box::new(bytes)
        },
        eof: false,
        gzip,
        plain_file: None,
    }
    .first_lines(lines)
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
