//! JSON documents framed as JSON lines, streamed: a top-level array (`gcloud logging read
//! --format=json`), a wrapper object whose array holds the records (`{"records": [...]}`
//! from Azure, `{"events": [...]}` from CloudWatch's `filter-log-events`, `{"entries":
//! [...]}`, `{"logEvents": [...]}`), and pretty-printed objects one after another.
//!
//! [`Documents`] is a reader over the document that yields each record as one compact line
//! (whitespace outside strings dropped), so every stage after it (envelope, format, row)
//! reads JSON lines. It keeps one record at a time: memory stays flat on a document of any
//! size. A document that ends inside a record (truncated) is an error naming the byte.

use std::io::{self, Read};

use crate::logs::limits::MAX_RECORD;

/// The keys of a wrapper object whose array holds the records.
pub const WRAPPER_KEYS: [&str; 4] = ["records", "events", "logEvents", "entries"];

/// The shape of a JSON document, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document {
    /// `[ {...}, {...} ]`.
    Array,
    /// `{"KEY": [ {...}, ... ], ...}` with KEY one of `WRAPPER_KEYS` (`records`, `events`, ...).
    Wrapper(&'static str),
    /// Objects spread over several lines each.
    Pretty,
}

impl Document {
    pub fn describe(self) -> String {
        match self {
            Document::Array => "a JSON array, one record per element".into(),
            Document::Wrapper(key) => format!("a JSON document, one record per \"{key}\" element"),
            Document::Pretty => "pretty-printed JSON, one record per object".into(),
        }
    }
}

fn skip_ws(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// The document an input's first bytes open, if it is one (and not JSON lines or a text
/// log: Envoy's `[2024-...` starts with a bracket too).
pub fn sniff(prefix: &[u8]) -> Option<Document> {
    let b = skip_ws(prefix);
    match b.first()? {
        b'[' => matches!(skip_ws(&b[1..]).first(), Some(b'{' | b']')).then_some(Document::Array),
        b'{' => {
            let rest = skip_ws(&b[1..]);
            for key in WRAPPER_KEYS {
                let Some(after) = rest
                    .strip_prefix(b"\"")
                    .and_then(|r| r.strip_prefix(key.as_bytes()))
                    .and_then(|r| r.strip_prefix(b"\""))
                else {
                    continue;
                };
                let after = skip_ws(after);
                if let Some(after) = after.strip_prefix(b":") {
                    if skip_ws(after).first() == Some(&b'[') {
                        return Some(Document::Wrapper(key));
                    }
                }
            }
            // An object not whole on its first line is pretty-printed.
            let first = &b[..memchr::memchr(b'\n', b).unwrap_or(b.len())];
            serde_json::from_slice::<serde::de::IgnoredAny>(first)
                .is_err()
                .then_some(Document::Pretty)
        }
        _ => None,
    }
}

/// A JSON document read as one compact line per record.
pub struct Documents<R> {
    input: R,
    inbuf: Vec<u8>,
    out: Vec<u8>,
    out_at: usize,
    eof: bool,
    /// Bytes of the document consumed (for messages).
    offset: u64,
    depth: usize,
    in_string: bool,
    escape: bool,
    /// The top-level value is an array (records are its elements).
    top_array: bool,
    /// The top-level object is a wrapper, and we are inside its records' array.
    in_wrapper_array: bool,
    wrapper: bool,
    /// Depth at which the record being kept started; `None` when none is.
    record_at: Option<usize>,
    record: Vec<u8>,
    /// At depth 1 of a top-level object: the last key, and whether its value comes next.
    key: Vec<u8>,
    capturing_key: bool,
    expect_key: bool,
    after_colon: bool,
}

impl<R: Read> Documents<R> {
    pub fn new(input: R) -> Self {
        Documents {
            input,
            inbuf: vec![0; 256 * 1024],
            out: Vec::with_capacity(256 * 1024),
            out_at: 0,
            eof: false,
            offset: 0,
            depth: 0,
            in_string: false,
            escape: false,
            top_array: false,
            in_wrapper_array: false,
            wrapper: false,
            record_at: None,
            record: Vec::new(),
            key: Vec::new(),
            capturing_key: false,
            expect_key: false,
            after_colon: false,
        }
    }

    fn invalid(&self, what: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("JSON document, byte {}: {what}", self.offset),
        )
    }

    #[inline]
    fn keep(&mut self, b: u8) -> io::Result<()> {
        if self.record_at.is_some() {
            if self.record.len() >= MAX_RECORD {
                return Err(self.invalid(&format!("a record longer than {MAX_RECORD} bytes")));
            }
            self.record.push(b);
        }
        Ok(())
    }

    /// The depth at which records start, now.
    fn record_depth(&self) -> Option<usize> {
        if self.top_array {
            Some(1)
        } else if self.in_wrapper_array {
            Some(2)
        } else if self.depth == 0 {
            Some(0)
        } else {
            None
        }
    }

    fn step(&mut self, b: u8) -> io::Result<()> {
        if self.in_string {
            self.keep(b)?;
            if self.escape {
                self.escape = false;
            } else if b == b'\\' {
                self.escape = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.capturing_key {
                    self.capturing_key = false;
                }
            } else if self.capturing_key && self.key.len() < 64 {
                self.key.push(b);
            }
            return Ok(());
        }
        if b.is_ascii_whitespace() {
            return Ok(());
        }
        let top_object = !self.top_array && self.depth == 1 && !self.in_wrapper_array;
        match b {
            b'{' | b'[' => {
                if self.depth == 0 {
                    self.top_array = b == b'[';
                    self.wrapper = false;
                    self.expect_key = b == b'{';
                    if b == b'{' {
                        self.record_at = Some(0);
                        self.record.clear();
                    }
                } else if top_object
                    && b == b'['
                    && self.after_colon
                    && !self.wrapper
                    && WRAPPER_KEYS.iter().any(|k| k.as_bytes() == self.key)
                {
                    self.wrapper = true;
                    self.in_wrapper_array = true;
                    self.record_at = None;
                    self.record.clear();
                    self.depth += 1;
                    self.after_colon = false;
                    return Ok(());
                } else if self.record_at.is_none() && self.record_depth() == Some(self.depth) {
                    self.record_at = Some(self.depth);
                    self.record.clear();
                }
                if top_object {
                    self.after_colon = false;
                }
                self.keep(b)?;
                self.depth += 1;
            }
            b'}' | b']' => {
                if self.depth == 0 {
                    return Err(self.invalid(&format!("'{}' closes nothing", b as char)));
                }
                self.keep(b)?;
                self.depth -= 1;
                if self.record_at == Some(self.depth) {
                    self.record_at = None;
                    if !(self.wrapper && self.depth == 0) {
                        self.out.extend_from_slice(&self.record);
                        self.out.push(b'\n');
                    }
                    self.record.clear();
                }
                if self.in_wrapper_array && self.depth == 1 {
                    self.in_wrapper_array = false;
                }
                if self.depth == 0 {
                    self.top_array = false;
                    self.wrapper = false;
                    self.record_at = None;
                }
                if self.depth == 1 && !self.top_array {
                    self.expect_key = false;
                }
            }
            _ => {
                let at_records =
                    self.record_depth() == Some(self.depth) && self.record_at.is_none();
                if at_records && b != b',' {
                    return Err(self.invalid(&format!(
                        "expected a record (a JSON object), found '{}'",
                        b as char
                    )));
                }
                self.keep(b)?;
                if b == b'"' {
                    self.in_string = true;
                    if top_object && self.expect_key {
                        self.key.clear();
                        self.capturing_key = true;
                    }
                } else if top_object {
                    match b {
                        b':' => {
                            self.after_colon = true;
                            self.expect_key = false;
                        }
                        b',' => {
                            self.expect_key = true;
                            self.after_colon = false;
                        }
                        _ => self.after_colon = false,
                    }
                }
                if top_object && b == b'"' && !self.expect_key {
                    self.after_colon = false;
                }
            }
        }
        Ok(())
    }

    /// Reads and frames input until some output is ready or the input ends.
    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.out_at = 0;
        while self.out.is_empty() && !self.eof {
            let n = crate::logs::source::read_retrying(&mut self.input, &mut self.inbuf)?;
            if n == 0 {
                self.eof = true;
                if self.depth > 0 || self.in_string {
                    return Err(self.invalid(
                        "the document ends inside a record (truncated?): the records before it were read, this one was not",
                    ));
                }
                break;
            }
            let chunk = std::mem::take(&mut self.inbuf);
            for &b in &chunk[..n] {
                if let Err(e) = self.step(b) {
                    self.inbuf = chunk;
                    return Err(e);
                }
                self.offset += 1;
            }
            self.inbuf = chunk;
        }
        Ok(())
    }
}

impl<R: Read> Read for Documents<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_at == self.out.len() {
            self.fill()?;
        }
        let n = buf.len().min(self.out.len() - self.out_at);
        buf[..n].copy_from_slice(&self.out[self.out_at..self.out_at + n]);
        self.out_at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(doc: &str) -> io::Result<String> {
        let mut out = String::new();
        Documents::new(doc.as_bytes()).read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn documents_become_lines() {
        assert_eq!(
            framed("[ {\"a\": 1,\n \"b\": \"x y\"},\n {\"a\": [2, 3]} ]").unwrap(),
            "{\"a\":1,\"b\":\"x y\"}\n{\"a\":[2,3]}\n"
        );
        let cw = r#"{
    "events": [
        {"logStreamName": "s", "timestamp": 1, "message": "GET / \"x\" ]"},
        {"logStreamName": "s", "timestamp": 2, "message": "b"}
    ],
    "searchedLogStreams": [{"logStreamName": "s"}],
    "nextToken": "t"
}"#;
        assert_eq!(
            framed(cw).unwrap(),
            "{\"logStreamName\":\"s\",\"timestamp\":1,\"message\":\"GET / \\\"x\\\" ]\"}\n{\"logStreamName\":\"s\",\"timestamp\":2,\"message\":\"b\"}\n"
        );
        assert_eq!(
            framed("{\n \"a\": {\"records\": [1]}\n}\n{\"b\": 2}\n").unwrap(),
            "{\"a\":{\"records\":[1]}}\n{\"b\":2}\n"
        );
        assert_eq!(
            framed("{\"records\": [{\"x\": 1}]}").unwrap(),
            "{\"x\":1}\n"
        );
    }

    #[test]
    fn broken_documents_are_errors() {
        assert!(
            framed("[{\"a\": 1}, {\"a\"")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        assert!(framed("[1, 2]").unwrap_err().to_string().contains("record"));
        assert!(framed("]").is_err());
    }

    #[test]
    fn shapes() {
        assert_eq!(sniff(b"  [\n  {"), Some(Document::Array));
        assert_eq!(sniff(b"[2024-01-01T00:00:00.000Z] \"GET"), None);
        assert_eq!(
            sniff(b"{\n  \"events\" : [\n"),
            Some(Document::Wrapper("events"))
        );
        assert_eq!(sniff(b"{\n  \"a\": 1\n}\n"), Some(Document::Pretty));
        assert_eq!(sniff(b"{\"a\": 1}\n{\"a\": 2}\n"), None);
    }
}
