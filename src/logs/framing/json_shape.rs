//! A JSON line's shape: the bytes between its values as its logger writes them on every line
//! (`{"time_local":"`, `","remote_addr":"`, ..., `"}`), each value's kind and its field.
//!
//! A logger with a fixed layout (nginx `escape=json`, a service's structured log) writes the
//! same keys in the same order, with the same spacing, on every line. Such a line is read by
//! comparing the bytes between its values with the shape's and finding each string's end:
//! no key is looked up, no member's comma or colon checked on its own. Anything else (an
//! escape, a control character, another key, a value of another kind, other whitespace, a
//! missing or extra member) is a [`Bail`] with the fields as they were, and the line goes
//! to the scanner, which reads every line. A line the shape takes is one the scanner reads
//! to the same fields (a property test holds the two equal).

use super::json_scan::{self, Bail, Kind, Leaf, Scan};

/// A JSON line's layout, from one line of the log (see [`Shape::of`]).
#[derive(Debug, Clone)]
pub struct Shape {
    steps: Vec<Value>,
    /// The bytes after the last value: a string's closing quote is its value's, so this is
    /// the objects' closing braces (and any spaces between them).
    tail: Box<[u8]>,
    /// The fields of a line, those after the last value's being empty.
    fields: usize,
}

/// One value of the shape.
#[derive(Debug, Clone)]
struct Value {
    /// The bytes before it since the last value: a comma, the key, the colon, a string's
    /// opening quote (and for the first, the object's brace).
    before: Box<[u8]>,
    /// The first 32 bytes of `before`, zero after its end: compared 16 at a time.
    head: [u8; 32],
    /// The bits of `head`'s bytes that are `before`'s (none when it is longer than 32).
    want: u32,
    /// A string (without escapes), or a number.
    string: bool,
    /// The fields before this value's since the last value's, which a line of this shape
    /// leaves empty (paths that other lines have).
    gap: usize,
}

impl Shape {
    /// The shape of `line`, one JSON object whose every value is a string without escapes, a
    /// number or an object of those, and whose every value's path is a field: `field(path)`
    /// gives it. The fields must come in their numbers' order (at most `fields`), so that a
    /// line of this shape is written straight to them. `None` for any other line.
    pub fn of<'a>(
        line: &'a str,
        fields: usize,
        mut field: impl FnMut(&[&'a str]) -> Option<usize>,
    ) -> Option<Shape> {
        let mut scan = Scan::new(line);
        let mut shape = Shape {
            steps: Vec::new(),
            tail: Box::default(),
            fields,
        };
        let mut walk = Walk {
            line,
            path: Vec::new(),
            done: 0,
            next_field: 0,
        };
        walk.object(&mut scan, &mut shape, &mut field).ok()?;
        scan.end().ok()?;
        shape.tail = line.as_bytes()[walk.done..].trim_ascii_end().into();
        (!shape.steps.is_empty() && walk.next_field <= fields).then_some(shape)
    }

    /// Reads `line` into `data` and `ends` (the framing's fields: back to back, each ending
    /// at its entry of `ends`) when it is a line of this shape; otherwise bails with them as
    /// they were, for the scanner to read the line. A line the shape takes is UTF-8: the
    /// bytes between its values are the first line's, and each string with a byte above
    /// ASCII is checked (the only check a line of ASCII needs: none).
    #[inline]
    pub fn read(&self, line: &[u8], data: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<(), Bail> {
        let (had_data, had_ends) = (data.len(), ends.len());
        // Every value is a part of the line: room for all of them, and a block's more.
        data.reserve(line.len() + 16);
        ends.reserve(self.fields);
        let read = self.read_into(
            line,
            &mut Copies {
                data,
                ends,
                first: had_ends,
            },
        );
        if read.is_err() {
            data.truncate(had_data);
            ends.truncate(had_ends);
        }
        read
    }

    /// [`Shape::read`] without copying: field `i` is `line[starts[i]..ends[i]]` (both
    /// cleared first).
    #[inline]
    pub fn spans(
        &self,
        line: &[u8],
        starts: &mut Vec<usize>,
        ends: &mut Vec<usize>,
    ) -> Result<(), Bail> {
        starts.clear();
        ends.clear();
        self.read_into(line, &mut Spans { starts, ends })
    }

    #[inline(always)]
    fn read_into(&self, bytes: &[u8], out: &mut impl Out) -> Result<(), Bail> {
        let mut at = 0;
        for value in &self.steps {
            if !value.is_at(bytes, at) {
                return Err(Bail);
            }
            let start = at + value.before.len();
            for _ in 0..value.gap {
                out.field(bytes, start, start);
            }
            if value.string {
                let end = json_scan::plain_string_end_in_bytes(bytes, start).ok_or(Bail)?;
                out.field(bytes, start, end);
                at = end + 1;
            } else {
                let end = json_scan::number_end(bytes, start)?;
                out.field(bytes, start, end);
                at = end;
            }
        }
        // The closing braces (a byte or two: compared without a call), then only whitespace.
        let rest = &bytes[at..];
        if rest.len() < self.tail.len()
            || !rest.iter().zip(&self.tail).all(|(a, b)| a == b)
            || !rest[self.tail.len()..].iter().all(|&b| json_scan::is_ws(b))
        {
            return Err(Bail);
        }
        for _ in out.fields()..self.fields {
            out.field(bytes, at, at);
        }
        Ok(())
    }
}

/// Where a line's fields go: `line[from..to]` each.
trait Out {
    fn field(&mut self, line: &[u8], from: usize, to: usize);
    /// The fields so far.
    fn fields(&self) -> usize;
}

/// The fields copied back to back, as the framing's [`Fields`](crate::logs::formats::Fields).
struct Copies<'o> {
    data: &'o mut Vec<u8>,
    ends: &'o mut Vec<usize>,
    /// The entries of `ends` before this line's.
    first: usize,
}

impl Out for Copies<'_> {
    /// A field of at most 16 bytes, with 16 bytes of the line from `from` and room for 16 in
    /// the data (reserved for the line beforehand), is copied as one 16-byte block instead of
    /// by a call to `memcpy`: most of a JSON line's values are that short.
    #[inline(always)]
    fn field(&mut self, line: &[u8], from: usize, to: usize) {
        debug_assert!(from <= to && to <= line.len());
        let len = to - from;
        let at = self.data.len();
        if len <= 16 && from + 16 <= line.len() && self.data.capacity() - at >= 16 {
            // SAFETY: the 16 bytes read are in `line` (`from + 16 <= line.len()`), the 16
            // written are within the data's capacity, and the new length covers only the
            // `len <= 16` bytes just written.
            unsafe {
                let dst = self.data.as_mut_ptr().add(at);
                std::ptr::copy_nonoverlapping(line.as_ptr().add(from), dst, 16);
                self.data.set_len(at + len);
            }
        } else {
            self.data.extend_from_slice(&line[from..to]);
        }
        self.ends.push(self.data.len());
    }

    fn fields(&self) -> usize {
        self.ends.len() - self.first
    }
}

/// The fields as the places of their bytes in the line.
struct Spans<'o> {
    starts: &'o mut Vec<usize>,
    ends: &'o mut Vec<usize>,
}

impl Out for Spans<'_> {
    #[inline(always)]
    fn field(&mut self, _line: &[u8], from: usize, to: usize) {
        self.starts.push(from);
        self.ends.push(to);
    }

    fn fields(&self) -> usize {
        self.ends.len()
    }
}

impl Value {
    /// Whether `bytes` has this value's `before` at `at`.
    #[inline(always)]
    fn is_at(&self, bytes: &[u8], at: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.want != 0 && at + 32 <= bytes.len() {
            use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
            // SAFETY: the loads read `bytes[at..at + 32]` (in bounds: checked above) and the
            // 32 bytes of `head`; SSE2 is part of the x86_64 baseline.
            let same = unsafe {
                let line = bytes.as_ptr().add(at);
                let head = self.head.as_ptr();
                let low = _mm_cmpeq_epi8(
                    _mm_loadu_si128(line as *const __m128i),
                    _mm_loadu_si128(head as *const __m128i),
                );
                let high = _mm_cmpeq_epi8(
                    _mm_loadu_si128(line.add(16) as *const __m128i),
                    _mm_loadu_si128(head.add(16) as *const __m128i),
                );
                _mm_movemask_epi8(low) as u16 as u32 | (_mm_movemask_epi8(high) as u32) << 16
            };
            return same & self.want == self.want;
        }
        bytes.get(at..at + self.before.len()) == Some(&self.before[..])
    }
}

/// The walk over a line that [`Shape::of`] makes.
struct Walk<'a> {
    line: &'a str,
    path: Vec<&'a str>,
    /// Where the last value ended.
    done: usize,
    /// The field after the last value's.
    next_field: usize,
}

impl<'a> Walk<'a> {
    fn object(
        &mut self,
        scan: &mut Scan<'a>,
        shape: &mut Shape,
        field: &mut impl FnMut(&[&'a str]) -> Option<usize>,
    ) -> Result<(), Bail> {
        let mut members = scan.object()?;
        while let Some(key) = members.next(scan)? {
            self.path.push(key);
            match scan.peek()? {
                // An object where the tree has a leaf is a field's text: not a shape's.
                Kind::Object if field(&self.path).is_some() => return Err(Bail),
                Kind::Object => self.object(scan, shape, field)?,
                kind @ (Kind::String | Kind::Number) => {
                    let slot = field(&self.path).ok_or(Bail)?;
                    if slot < self.next_field {
                        return Err(Bail);
                    }
                    let start = scan.position();
                    let string = kind == Kind::String;
                    match scan.leaf()? {
                        Leaf::Text(_) | Leaf::Raw(_) => {}
                        Leaf::Escaped(_) | Leaf::Null => return Err(Bail),
                    }
                    // A string's opening quote is before its value; its closing quote ends it.
                    let value_start = start + usize::from(string);
                    let before = &self.line.as_bytes()[self.done..value_start];
                    let mut head = [0u8; 32];
                    let want = match before.len() {
                        n @ 0..=32 => {
                            head[..n].copy_from_slice(before);
                            ((1u64 << n) - 1) as u32
                        }
                        _ => 0,
                    };
                    shape.steps.push(Value {
                        before: before.into(),
                        head,
                        want,
                        string,
                        gap: slot - self.next_field,
                    });
                    self.done = scan.position();
                    self.next_field = slot + 1;
                }
                _ => return Err(Bail),
            }
            self.path.pop();
        }
        Ok(())
    }
}
