//! A large plain file read through a memory map: its bytes are parsed where the page cache
//! holds them, with no copy into a buffer first (the kernel's copy of every byte was the
//! costliest part of reading a file of traces after the parsing). The pages behind the
//! reading are handed back as it moves on ([`Mapped::release`]), so the process holds a few
//! megabytes of the file at a time, whatever its size; the page cache keeps them.
//!
//! A file that shrinks while it is mapped (truncated, or rewritten in place) makes the next
//! read of a page past its new end a SIGBUS. While a file is mapped, that signal is one line
//! naming the file and exit code 2, as any input that cannot be read; once none is, the
//! signal is what it was.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// Files at least this large are mapped; smaller ones are read, which costs less than a map.
pub const MAP_AT_LEAST: u64 = 1 << 20;

/// The pages behind the reading are handed back every so many bytes.
const RELEASE_EVERY: usize = 8 << 20;

/// A plain file, mapped read-only.
pub struct Mapped {
    map: memmap2::Mmap,
}

impl Mapped {
    /// Maps the file at `path`, which the caller names `name` in messages.
    pub fn open(path: &Path, name: &str) -> io::Result<Mapped> {
        let file = File::open(path)?;
        // SAFETY: the map is read-only and private to this process; a file changed under it
        // changes what is read (as a read would), and one that shrinks is the SIGBUS the
        // handler words (the module's docs), named before any byte of the map is read.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        bus_error::name(name);
        // Read-ahead from the page cache in large steps: the file is read front to back.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Sequential);
        Ok(Mapped { map })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Hands back the pages of `from..to` (`from` at a page, `to` rounded down to one): the
    /// process's memory no longer holds them. Returns where the pages handed back end.
    pub fn release(&self, from: usize, to: usize) -> usize {
        let to = to - to % STEP;
        self.give_back(from, to);
        to.max(from)
    }

    /// Maps the pages of `range` into the process in one call, before they are read, rather
    /// than a fault every few pages as the reading meets them (a page fault is costly, in a
    /// virtual machine most). Where the kernel cannot (before Linux 5.14, or past a shrunk
    /// file's end), the reading faults them in.
    pub fn populate(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            let from = range.start - range.start % STEP;
            let to = range.end.min(self.map.len());
            if to > from {
                let _ = self
                    .map
                    .advise_range(memmap2::Advice::PopulateRead, from, to - from);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = range;
    }

    /// Hands back every page that holds a byte of `range`, those it shares with the bytes
    /// around it too: one read again comes back from the file.
    pub fn release_around(&self, range: std::ops::Range<usize>) {
        let to = range.end.next_multiple_of(STEP).min(self.map.len());
        self.give_back(range.start - range.start % STEP, to);
    }

    fn give_back(&self, from: usize, to: usize) {
        if to <= from {
            return;
        }
        #[cfg(unix)]
        // SAFETY: `DontNeed` on a read-only file mapping drops the pages from this process's
        // page tables; a later read of them would fault them in again from the file, so no
        // byte read changes.
        let _ = unsafe {
            self.map
                .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
        };
    }
}

/// Pages are handed back in whole 64 KiB steps, a multiple of any page size (the map starts
/// at a page).
const STEP: usize = 1 << 16;

impl Drop for Mapped {
    fn drop(&mut self) {
        bus_error::unnamed();
    }
}

/// A [`Mapped`] file read front to back as a [`BufRead`]: all of the rest is the buffer, the
/// pages behind released as it is consumed, and the bytes counted for the progress bar.
pub struct MappedReader<'m, F: Fn(u64)> {
    mapped: &'m Mapped,
    at: usize,
    released: usize,
    on_read: F,
}

impl<'m, F: Fn(u64)> MappedReader<'m, F> {
    /// Reads `mapped` from `at`.
    pub fn new(mapped: &'m Mapped, at: usize, on_read: F) -> Self {
        MappedReader {
            mapped,
            at,
            released: 0,
            on_read,
        }
    }
}

impl<F: Fn(u64)> Read for MappedReader<'_, F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.fill_buf()?;
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<F: Fn(u64)> BufRead for MappedReader<'_, F> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.mapped.bytes()[self.at..])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.mapped.bytes().len() - self.at);
        self.at += n;
        (self.on_read)(n as u64);
        if self.at - self.released >= RELEASE_EVERY {
            self.released = self.mapped.release(self.released, self.at);
        }
    }
}

/// The SIGBUS of a mapped file that shrank, worded: the handler writes a line prepared ahead
/// (a handler may only call what is async-signal-safe) and exits.
#[cfg(unix)]
mod bus_error {
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static LENGTH: AtomicUsize = AtomicUsize::new(0);
    static INSTALL: Once = Once::new();

    /// The file now mapped is `name`: its line is made, and the handler installed once.
    pub fn name(name: &str) {
        let line = format!(
            "error: {name}: cannot read: the file shrank while it was read (truncated or \
             rewritten in place); read it once its writer is done, or read a copy\n"
        );
        // Kept for the process's life: the handler may read it at any time.
        let line: &'static mut [u8] = Box::leak(line.into_bytes().into_boxed_slice());
        LENGTH.store(0, Ordering::SeqCst);
        MESSAGE.store(line.as_mut_ptr(), Ordering::SeqCst);
        LENGTH.store(line.len(), Ordering::SeqCst);
        INSTALL.call_once(|| {
            // SAFETY: a plain sigaction with a handler that only loads atomics, writes and
            // exits, which are async-signal-safe.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_bus_error as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }

    /// No file is mapped any more: a SIGBUS is no longer one of its words.
    pub fn unnamed() {
        MESSAGE.store(std::ptr::null_mut(), Ordering::SeqCst);
    }

    extern "C" fn on_bus_error(signal: libc::c_int) {
        let (message, length) = (
            MESSAGE.load(Ordering::SeqCst),
            LENGTH.load(Ordering::SeqCst),
        );
        // SAFETY: `message` is a leaked line of `length` bytes (or null); write, _exit,
        // signal and raise are async-signal-safe.
        unsafe {
            if message.is_null() {
                // Not a mapped file's: the signal as it would have been.
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
                return;
            }
            libc::write(2, message.cast(), length);
            libc::_exit(2);
        }
    }
}

#[cfg(not(unix))]
mod bus_error {
    pub fn name(_: &str) {}
    pub fn unnamed() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_reads_as_its_bytes_and_releases_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let text: Vec<u8> = (0..(RELEASE_EVERY * 2 + 12_345))
            .map(|i| {
                if i % 97 == 96 {
                    b'\n'
                } else {
                    b'a' + (i % 26) as u8
                }
            })
            .collect();
        std::fs::write(&path, &text).unwrap();
        let mapped = Mapped::open(&path, "f").unwrap();
        let counted = std::cell::Cell::new(0u64);
        let mut reader = MappedReader::new(&mapped, 10, |n| counted.set(counted.get() + n));
        let mut lines = 0;
        let mut line = Vec::new();
        while reader.read_until(b'\n', &mut line).unwrap() > 0 {
            lines += 1;
            line.clear();
        }
        assert_eq!(
            lines,
            text[10..]
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count()
        );
        assert_eq!(counted.get(), text.len() as u64 - 10);
        assert!(reader.released >= RELEASE_EVERY && reader.released % (1 << 16) == 0);
        // Released pages read again come back from the file.
        assert_eq!(mapped.bytes(), &text[..]);
        assert_eq!(mapped.release(0, 100), 0);
        assert_eq!(mapped.release(1 << 16, (3 << 16) + 5), 3 << 16);
        mapped.release_around(5..text.len());
        assert_eq!(mapped.bytes(), &text[..]);
    }
}
