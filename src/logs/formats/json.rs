//! JSON lines: one object per line, with nested fields (Caddy, Traefik, Envoy's JSON format,
//! nginx `log_format ... escape=json`, or anything else).
//!
//! The field names are the first lines' leaves, flattened: nested keys joined by `.`, array
//! elements by `[i]` (Caddy's `request.headers.Idempotency-Key[0]`: its headers are arrays),
//! in the order they first appear. A path given with `--column ROLE=PATH` is added when the
//! first lines lack it. Each line is parsed with serde_json straight into those fields:
//! keys are looked up in a tree of the known paths, strings are borrowed when they have no
//! escapes (unescaped otherwise, `\u00e9` included), numbers are written back as text,
//! `null` and a missing key are an empty field, a value at an unknown path is skipped
//! unread. A line that is not one JSON object is a bad row, with serde_json's account of
//! where it went wrong.
//!
//! What the names cannot tell comes from the flavour, recognised by its keys: Caddy's
//! `duration` is in seconds, Traefik's `Duration` in nanoseconds, Envoy's `duration` in
//! milliseconds and its `response_flags` are Envoy's flags.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::io::Write;

use foldhash::fast::FixedState;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample};
use super::sources::{self, AZURE_TIME_KEYS, Platform, Skipped};
use super::{DurationUnit, Fields, FlagsStyle, FormatHints, LineFormat};
use crate::logs::framing::json_scan::{self, Bail, Key as ScanKey, Kind, Leaf, Scan};
use crate::logs::framing::json_shape::Shape;
use crate::logs::role::Role;

/// Whose JSON access log it is, from its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Caddy,
    Traefik,
    Envoy,
    Nginx,
    /// A platform's records (Cloudflare, Google Cloud, Azure, Kong, API Gateway).
    Platform(Platform),
    Other,
}

impl Flavour {
    fn of(names: &[String]) -> Flavour {
        let has = |n: &str| names.iter().any(|x| x == n);
        if let Some(source) = Platform::of(names) {
            Flavour::Platform(source)
        } else if has("request.uri") && has("ts") {
            Flavour::Caddy
        } else if has("DownstreamStatus") || has("OriginStatus") {
            Flavour::Traefik
        } else if has("response_flags") || has("response_code") && has("start_time") {
            Flavour::Envoy
        } else if has("request_time") || has("time_local") || has("request_method") {
            Flavour::Nginx
        } else {
            Flavour::Other
        }
    }
}

/// A node's children by key: a short list searched by length, then bytes (an access log's
/// objects have a few keys each; this measured quicker than hashing every key), or a hash
/// map past [`Keys::LINEAR`].
#[derive(Debug, Default, Clone)]
struct Keys {
    list: Vec<(Box<str>, usize)>,
    map: HashMap<Box<str>, usize, FixedState>,
    /// Whether each key of `list` can be the scanner's hint ([`json_scan::is_plain_key`]).
    plain: Vec<bool>,
    /// For each key of `list` that can be a hint and whose node is a leaf with a field, that
    /// field: its value can take the scanner's fast lane ([`json_scan::Members::next_plain`]).
    /// Set by [`JsonLines::index_fast_lane`] once the tree is whole.
    fast: Vec<Option<usize>>,
}

impl Keys {
    const LINEAR: usize = 16;

    #[inline]
    fn get(&self, key: &str) -> Option<usize> {
        if self.map.is_empty() {
            self.list
                .iter()
                .find(|(k, _)| k.len() == key.len() && k.as_bytes() == key.as_bytes())
                .map(|&(_, n)| n)
        } else {
            self.map.get(key).copied()
        }
    }

    /// [`Keys::get`], trying the key after the one found last (`hint`) first: a log's lines
    /// mostly keep their keys' order, so that one compare is nearly always the answer.
    #[inline]
    fn get_hinted(&self, key: &str, hint: &mut usize) -> Option<usize> {
        if let Some((k, n)) = self.list.get(*hint) {
            if k.as_bytes() == key.as_bytes() {
                *hint += 1;
                return Some(*n);
            }
        }
        if self.map.is_empty() {
            let i = self
                .list
                .iter()
                .position(|(k, _)| k.as_bytes() == key.as_bytes())?;
            *hint = i + 1;
            Some(self.list[i].1)
        } else {
            self.map.get(key).copied()
        }
    }

    fn insert(&mut self, key: &str, node: usize) {
        self.list.push((key.into(), node));
        self.plain.push(json_scan::is_plain_key(key));
        if self.list.len() > Keys::LINEAR {
            self.map = self.list.iter().cloned().collect();
        }
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Traefik's times of the request's start: either one, whichever a record carries (Traefik
/// lets each field be dropped, `accessLog.fields.names.StartUTC=drop`).
const TRAEFIK_TIME_KEYS: [&str; 2] = ["StartUTC", "StartLocal"];

/// One node of the tree of known paths.
#[derive(Debug, Default, Clone)]
struct Node {
    keys: Keys,
    /// Children by array index.
    items: Vec<usize>,
    /// The field this path is, if it is one.
    slot: Option<usize>,
}

impl Node {
    /// No keys or items below: a value here is read as text.
    #[inline(always)]
    fn is_leaf(&self) -> bool {
        self.keys.is_empty() && self.items.is_empty()
    }
}

/// A JSON-lines log with the paths of its fields.
#[derive(Debug, Clone)]
pub struct JsonLines {
    names: Vec<String>,
    nodes: Vec<Node>,
    flavour: Flavour,
    /// Records of other categories skipped (Azure's firewall records among its access ones).
    skipped: Skipped,
    /// The layout most of the first lines share, read without the scanner where a line has it.
    shape: Option<Shape>,
}

/// One step of a path: a key or an array index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

impl JsonLines {
    fn empty() -> Self {
        JsonLines {
            names: Vec::new(),
            nodes: vec![Node::default()],
            flavour: Flavour::Other,
            skipped: Skipped::default(),
            shape: None,
        }
    }

    /// Top-level `keys` as one field: the first of them the first lines have (or the first),
    /// whichever a record carries (Azure's time key varies between records).
    fn alias_top_keys(&mut self, keys: &[&str]) {
        let slot_of = |f: &JsonLines, k: &str| f.nodes[0].keys.get(k).and_then(|n| f.nodes[n].slot);
        let slot = match keys.iter().find_map(|k| slot_of(self, k)) {
            Some(slot) => slot,
            None => {
                self.add(&[Step::Key(keys[0])], keys[0]);
                self.names.len() - 1
            }
        };
        for key in keys {
            match self.nodes[0].keys.get(key) {
                Some(n) if self.nodes[n].keys.is_empty() && self.nodes[n].items.is_empty() => {
                    self.nodes[n].slot = Some(slot);
                }
                Some(_) => {}
                None => {
                    let n = self.nodes.len();
                    self.nodes.push(Node {
                        slot: Some(slot),
                        ..Node::default()
                    });
                    self.nodes[0].keys.insert(key, n);
                }
            }
        }
    }

    /// The node at `steps` (created), and its field (created) named `name`.
    fn add(&mut self, steps: &[Step], name: &str) {
        let mut node = 0;
        for step in steps {
            let next = match *step {
                Step::Key(k) => self.nodes[node].keys.get(k),
                Step::Index(i) => self.nodes[node].items.get(i).copied(),
            };
            node = match next {
                Some(n) => n,
                None => {
                    let n = self.nodes.len();
                    self.nodes.push(Node::default());
                    match *step {
                        Step::Key(k) => {
                            self.nodes[node].keys.insert(k, n);
                        }
                        Step::Index(i) => {
                            let items = &mut self.nodes[node].items;
                            if items.len() <= i {
                                // Indices are added in order from real arrays; a gap from a
                                // --column path gets nodes that are no field.
                                while items.len() < i {
                                    items.push(usize::MAX);
                                }
                                items.push(n);
                            } else {
                                items[i] = n;
                            }
                        }
                    }
                    n
                }
            };
        }
        if self.nodes[node].slot.is_none() {
            self.nodes[node].slot = Some(self.names.len());
            self.names.push(name.to_string());
        }
    }

    /// Adds every leaf of `value` under `steps`.
    fn add_leaves<'v>(&mut self, value: &'v Value, steps: &mut Vec<Step<'v>>, name: &mut String) {
        let len = name.len();
        match value {
            Value::Object(map) if !map.is_empty() => {
                for (k, v) in map {
                    if !name.is_empty() {
                        name.push('.');
                    }
                    name.push_str(k);
                    steps.push(Step::Key(k));
                    self.add_leaves(v, steps, name);
                    steps.pop();
                    name.truncate(len);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                for (i, v) in items.iter().enumerate() {
                    let _ = fmt::Write::write_fmt(name, format_args!("[{i}]"));
                    steps.push(Step::Index(i));
                    self.add_leaves(v, steps, name);
                    steps.pop();
                    name.truncate(len);
                }
            }
            _ => self.add(steps, name),
        }
    }

    /// The format of a log whose first lines are `first_lines`, with the `--column` paths
    /// `extra` added. `None` when no line among them is a JSON object.
    pub fn from_lines(first_lines: &[&[u8]], extra: &[&str]) -> Option<Self> {
        let mut format = JsonLines::empty();
        let mut objects = 0;
        for line in first_lines {
            let Ok(value @ Value::Object(_)) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            objects += 1;
            format.add_leaves(&value, &mut Vec::new(), &mut String::new());
        }
        if objects == 0 {
            return None;
        }
        for path in extra {
            if format.names.iter().any(|n| n == path) {
                continue;
            }
            if let Some(steps) = parse_path(path) {
                format.add(&steps, path);
            }
        }
        format.renumber();
        format.flavour = Flavour::of(&format.names);
        match format.flavour {
            Flavour::Platform(Platform::Azure { .. }) => format.alias_top_keys(&AZURE_TIME_KEYS),
            Flavour::Traefik => format.alias_top_keys(&TRAEFIK_TIME_KEYS),
            _ => {}
        }
        format.index_fast_lane();
        format.shape = format.common_shape(first_lines);
        Some(format)
    }

    /// The shape of one of the first lines that at least half of them share, the one most
    /// share: `None` when they share none (a Caddy log's headers vary from request to request).
    fn common_shape(&self, first_lines: &[&[u8]]) -> Option<Shape> {
        let texts: Vec<&str> = first_lines
            .iter()
            .filter_map(|line| std::str::from_utf8(line).ok())
            .filter(|text| text.trim_ascii_start().starts_with('{'))
            .collect();
        let mut fields = Fields::default();
        let mut best: Option<(usize, Shape)> = None;
        for text in texts.iter().take(8) {
            let Some(shape) = Shape::of(text, self.names.len(), |path| self.field_at(path)) else {
                continue;
            };
            let shared = texts
                .iter()
                .filter(|t| {
                    fields.clear();
                    shape
                        .read(t.as_bytes(), &mut fields.data, &mut fields.ends)
                        .is_ok()
                })
                .count();
            if best.as_ref().is_none_or(|(most, _)| shared > *most) {
                best = Some((shared, shape));
            }
        }
        best.filter(|(shared, _)| 2 * shared >= texts.len())
            .map(|(_, shape)| shape)
    }

    /// The field of the leaf at the keys `path`, if the tree has one there.
    fn field_at(&self, path: &[&str]) -> Option<usize> {
        let mut node = 0;
        for key in path {
            node = self.nodes[node].keys.get(key)?;
        }
        let n = &self.nodes[node];
        n.slot.filter(|_| n.is_leaf())
    }

    /// Sets each node's [`Keys::fast`], from the tree as it is now whole.
    fn index_fast_lane(&mut self) {
        for n in 0..self.nodes.len() {
            let keys = &self.nodes[n].keys;
            let fast = (keys.list.iter().zip(&keys.plain))
                .map(|(&(_, child), &plain)| {
                    let child = &self.nodes[child];
                    child.slot.filter(|_| plain && child.is_leaf())
                })
                .collect();
            self.nodes[n].keys.fast = fast;
        }
    }

    /// Numbers the fields in the order of the tree (a node's children in the order they
    /// first appeared): a key first seen in a later line (an optional header) sits with its
    /// siblings, so most lines' values come in the fields' order and go straight to them.
    fn renumber(&mut self) {
        let mut order = Vec::with_capacity(self.names.len());
        let mut stack = vec![0];
        while let Some(node) = stack.pop() {
            let n = &self.nodes[node];
            if let Some(slot) = n.slot {
                order.push((node, slot));
            }
            let children: Vec<usize> = n
                .keys
                .list
                .iter()
                .map(|&(_, c)| c)
                .chain(n.items.iter().copied().filter(|&c| c != usize::MAX))
                .collect();
            stack.extend(children.into_iter().rev());
        }
        let names = std::mem::take(&mut self.names);
        for (new, &(node, old)) in order.iter().enumerate() {
            self.nodes[node].slot = Some(new);
            self.names.push(names[old].clone());
        }
    }

    pub fn flavour(&self) -> Flavour {
        self.flavour
    }
}

/// `request.headers.Idempotency-Key[0]` as its steps; `None` for an empty key or a bad index.
fn parse_path(path: &str) -> Option<Vec<Step<'_>>> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() {
            return None;
        }
        steps.push(Step::Key(key));
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            steps.push(Step::Index(inner[..close].parse().ok()?));
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(steps)
}

/// Where one line's values go while it is parsed, for a line whose keys are not in the
/// order of the names: their bytes and each field's span.
#[derive(Default)]
struct Scratch {
    data: Vec<u8>,
    spans: Vec<(u32, u32)>,
}

/// Where a line's values go: straight into the fields while they come in the names' order
/// (a log's lines mostly keep their keys' order), or into the scratch.
struct Sink<'o> {
    out: &'o mut Fields,
    /// The next field `out` expects, when writing straight.
    next: usize,
    straight: bool,
    scratch: &'o mut Scratch,
}

impl Sink<'_> {
    /// Writes the value of field `slot` (of `fields`) with `write`.
    #[inline]
    fn leaf(&mut self, slot: usize, fields: usize, write: impl FnOnce(&mut Vec<u8>)) {
        if self.straight && slot < self.next {
            self.move_to_scratch(fields);
        }
        if self.straight {
            while self.next < slot {
                self.out.push(b"");
                self.next += 1;
            }
            self.out.push_with(write);
            self.next += 1;
        } else {
            let scratch = &mut *self.scratch;
            let start = scratch.data.len();
            write(&mut scratch.data);
            scratch.spans[slot] = (start as u32, scratch.data.len() as u32);
        }
    }

    /// [`Sink::leaf`] for a value's text as it is, written straight when it is the next field.
    #[inline(always)]
    fn text(&mut self, slot: usize, fields: usize, text: &[u8]) {
        if self.straight && slot == self.next {
            self.out.push(text);
            self.next += 1;
        } else {
            self.leaf(slot, fields, |d| d.extend_from_slice(text));
        }
    }

    /// A value came for a field already passed: what was written moves to the scratch, and
    /// the rest of the line goes there too.
    #[cold]
    fn move_to_scratch(&mut self, fields: usize) {
        let scratch = &mut *self.scratch;
        scratch.data.clear();
        scratch.data.extend_from_slice(&self.out.data);
        scratch.spans.clear();
        let mut start = 0;
        for &end in &self.out.ends {
            scratch.spans.push(if end > start {
                (start as u32, end as u32)
            } else {
                MISSING
            });
            start = end;
        }
        scratch.spans.resize(fields, MISSING);
        self.out.clear();
        self.straight = false;
    }
}

const MISSING: (u32, u32) = (u32::MAX, u32::MAX);

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Parses the value at one node of the tree into the sink.
struct At<'s, 'o> {
    format: &'s JsonLines,
    node: usize,
    sink: &'s mut Sink<'o>,
}

impl At<'_, '_> {
    #[inline]
    fn leaf(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        if let Some(slot) = self.format.nodes[self.node].slot {
            self.sink.leaf(slot, self.format.names.len(), write);
        }
    }
}

impl<'de> DeserializeSeed<'de> for At<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(mut self, d: D) -> Result<(), D::Error> {
        let node = &self.format.nodes[self.node];
        if !(node.keys.is_empty() && node.items.is_empty()) {
            return d.deserialize_any(self);
        }
        // A leaf: its text as written, unparsed (a number is not read into an f64 and
        // written back), a string without escapes borrowed.
        let raw = <&RawValue>::deserialize(d)?.get();
        match raw.as_bytes() {
            b"null" => {}
            [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') => {
                self.leaf(|d| d.extend_from_slice(inner));
            }
            [b'"', ..] => {
                let text: String = serde_json::from_str(raw).map_err(de::Error::custom)?;
                self.leaf(|d| d.extend_from_slice(text.as_bytes()));
            }
            text => self.leaf(|d| d.extend_from_slice(text)),
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for At<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(mut self, v: bool) -> Result<(), E> {
        self.leaf(|d| d.extend_from_slice(if v { b"true" } else { b"false" }));
        Ok(())
    }

    fn visit_i64<E>(mut self, v: i64) -> Result<(), E> {
        self.leaf(|d| {
            let _ = write!(d, "{v}");
        });
        Ok(())
    }

    fn visit_u64<E>(mut self, v: u64) -> Result<(), E> {
        self.leaf(|d| {
            let _ = write!(d, "{v}");
        });
        Ok(())
    }

    fn visit_f64<E>(mut self, v: f64) -> Result<(), E> {
        self.leaf(|d| {
            let _ = write!(d, "{v}");
        });
        Ok(())
    }

    fn visit_str<E>(mut self, v: &str) -> Result<(), E> {
        self.leaf(|d| d.extend_from_slice(v.as_bytes()));
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let items = &self.format.nodes[self.node].items;
        let mut i = 0;
        loop {
            let more = match items.get(i).copied().filter(|&n| n != usize::MAX) {
                Some(node) => seq
                    .next_element_seed(At {
                        format: self.format,
                        node,
                        sink: &mut *self.sink,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let keys = &self.format.nodes[self.node].keys;
        while let Some(child) = map.next_key_seed(Key(keys))? {
            match child {
                Some(node) => map.next_value_seed(At {
                    format: self.format,
                    node,
                    sink: &mut *self.sink,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A key, looked up among a node's children without allocating.
struct Key<'k>(&'k Keys);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = Option<usize>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.get(v))
    }
}

/// The top of a line: an object, and nothing else.
struct Top<'s, 'o>(At<'s, 'o>);

impl<'de> DeserializeSeed<'de> for Top<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Top<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.0.visit_map(map)
    }
}

impl JsonLines {
    /// Parses one line into `sink`.
    fn parse(&self, line: &[u8], sink: &mut Sink) -> Result<(), String> {
        // A line of valid UTF-8 (nearly all) is checked once, whole, and read as text:
        // serde_json then does not check each key and value again (a large part of reading a
        // line). Any other line is read as bytes, so its error says where the bad bytes are.
        match std::str::from_utf8(line) {
            Ok(text) => self.parse_with(&mut serde_json::Deserializer::from_str(text), sink),
            Err(_) => self.parse_with(&mut serde_json::Deserializer::from_slice(line), sink),
        }
    }

    /// [`JsonLines::parse`] with a reader of text or of bytes.
    #[inline]
    fn parse_with<'de, R: serde_json::de::Read<'de>>(
        &self,
        de: &mut serde_json::Deserializer<R>,
        sink: &mut Sink,
    ) -> Result<(), String> {
        let top = Top(At {
            format: self,
            node: 0,
            sink,
        });
        top.deserialize(&mut *de)
            .and_then(|()| de.end())
            .map_err(|e| format!("not a JSON object: {e}"))
    }
}

impl JsonLines {
    /// Reads one line with the scanner into `sink`, as [`JsonLines::parse`] would, or bails.
    fn scan(&self, text: &str, sink: &mut Sink) -> Result<(), Bail> {
        let mut scan = Scan::new(text);
        if scan.peek()? != Kind::Object {
            return Err(Bail);
        }
        // The top is read as an object whatever the tree has there (serde_json's `Top`).
        self.scan_members(&mut scan, 0, sink)?;
        scan.end()
    }

    /// The object at the cursor, at node `node`: its keys the node's children, others skipped.
    fn scan_members(&self, scan: &mut Scan, node: usize, sink: &mut Sink) -> Result<(), Bail> {
        let keys = &self.nodes[node].keys;
        let mut members = scan.object()?;
        // The key after the last one found is the likeliest next: told by one comparison.
        let mut hint = 0;
        let fields = self.names.len();
        loop {
            // The fast lane: the expected key, and a plain string or number for its field.
            if let Some(&Some(slot)) = keys.fast.get(hint)
                && let Some(text) = members.next_plain(scan, &keys.list[hint].0)
            {
                hint += 1;
                sink.text(slot, fields, text.as_bytes());
                continue;
            }
            let key = match keys.list.get(hint) {
                Some((want, _)) if keys.plain[hint] => members.next_hinted(scan, want)?,
                _ => members.next(scan)?.map(ScanKey::Other),
            };
            let child = match key {
                None => return Ok(()),
                Some(ScanKey::Hinted) => {
                    hint += 1;
                    Some(keys.list[hint - 1].1)
                }
                Some(ScanKey::Other(key)) => keys.get_hinted(key, &mut hint),
            };
            match child {
                // A leaf (most of a log's values) is read here, without the call.
                Some(child) if self.nodes[child].is_leaf() => {
                    self.scan_leaf(scan, &self.nodes[child], sink)?;
                }
                Some(child) => self.scan_node(scan, child, sink)?,
                None => {
                    scan.skip()?;
                }
            }
        }
    }

    /// The value at the cursor as the text of node `n`'s field, if it has one: what
    /// [`JsonLines::scan_node`] does at a leaf, or with a string where the tree has more.
    #[inline(always)]
    fn scan_leaf(&self, scan: &mut Scan, n: &Node, sink: &mut Sink) -> Result<(), Bail> {
        let leaf = scan.leaf()?;
        let Some(slot) = n.slot else {
            // An escaped string is unescaped even when no field wants it, as serde_json
            // does where it visits (not at a leaf, which it reads raw).
            if let Leaf::Escaped(text) = leaf
                && !n.is_leaf()
            {
                json_scan::unescape(text, &mut Vec::new())?;
            }
            return Ok(());
        };
        let fields = self.names.len();
        match leaf {
            Leaf::Null => {}
            Leaf::Text(text) | Leaf::Raw(text) => {
                sink.leaf(slot, fields, |d| d.extend_from_slice(text.as_bytes()));
            }
            Leaf::Escaped(text) => {
                let mut ok = Ok(());
                sink.leaf(slot, fields, |d| ok = json_scan::unescape(text, d));
                ok?;
            }
        }
        Ok(())
    }

    /// The value at the cursor, at node `node` of the tree: what serde_json's [`At`] does,
    /// by hand. A number where the tree has an object or array (serde_json would convert it
    /// to a float and print it, or refuse it) bails.
    fn scan_node(&self, scan: &mut Scan, node: usize, sink: &mut Sink) -> Result<(), Bail> {
        let n = &self.nodes[node];
        let fields = self.names.len();
        let kind = scan.peek()?;
        // A string is its text whether the tree has a leaf here or not (serde_json's
        // `visit_str`).
        if n.is_leaf() || kind == Kind::String {
            return self.scan_leaf(scan, n, sink);
        }
        match kind {
            Kind::Object => self.scan_members(scan, node, sink)?,
            Kind::Array => {
                let mut items = scan.array()?;
                while let Some(i) = items.next(scan)? {
                    match n.items.get(i).copied().filter(|&c| c != usize::MAX) {
                        Some(child) => self.scan_node(scan, child, sink)?,
                        None => {
                            scan.skip()?;
                        }
                    }
                }
            }
            Kind::Null => {
                scan.skip()?;
            }
            Kind::Bool => {
                let text = scan.skip()?;
                if let Some(slot) = n.slot {
                    sink.leaf(slot, fields, |d| d.extend_from_slice(text.as_bytes()));
                }
            }
            Kind::Number => return Err(Bail),
            Kind::String => unreachable!("read as a leaf"),
        }
        Ok(())
    }
}

impl LineFormat for JsonLines {
    fn describe(&self) -> String {
        match self.flavour {
            Flavour::Caddy => "JSON lines (Caddy)",
            Flavour::Traefik => "JSON lines (Traefik)",
            Flavour::Envoy => "JSON lines (Envoy)",
            Flavour::Nginx => "JSON lines (nginx escape=json)",
            Flavour::Platform(source) => return format!("{} (JSON lines)", source.describe()),
            Flavour::Other => "JSON lines",
        }
        .to_string()
    }

    fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    fn hints(&self) -> FormatHints {
        match self.flavour {
            Flavour::Caddy => FormatHints {
                duration_unit: Some(DurationUnit::Seconds),
                flags_style: None,
                ..FormatHints::default()
            },
            // Traefik's `time` is when the line was written; `StartUTC` (or `StartLocal`, the
            // same instant with its offset, where `StartUTC` is dropped) when the request came.
            Flavour::Traefik => FormatHints {
                duration_unit: Some(DurationUnit::Nanos),
                columns: TRAEFIK_TIME_KEYS
                    .iter()
                    .find(|k| self.names.iter().any(|n| n == *k))
                    .map(|k| (Role::Timestamp, k.to_string()))
                    .into_iter()
                    .collect(),
                ..FormatHints::default()
            },
            Flavour::Envoy => FormatHints {
                duration_unit: Some(DurationUnit::Millis),
                flags_style: Some(FlagsStyle(&super::envoy::FLAGS)),
                ..FormatHints::default()
            },
            Flavour::Platform(source) => {
                let mut hints = source.hints(&self.names);
                hints.notes.extend(self.skipped.note());
                hints
            }
            // nginx's names say their units (`request_time`: seconds), as in a CSV header.
            Flavour::Nginx | Flavour::Other => FormatHints::default(),
        }
    }

    fn skip(&self, line: &[u8]) -> bool {
        if let Flavour::Platform(Platform::Azure { .. }) = self.flavour {
            if let Some(category) = sources::azure_other_category(line) {
                self.skipped.count(category);
                return true;
            }
        }
        false
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.split_by(line, out, Reader::Auto)
    }

    /// A line of the log's shape, its values where they are in the line; any other line
    /// split, without trying the shape again.
    #[inline]
    fn split_in_place(
        &self,
        line: &[u8],
        starts: &mut Vec<usize>,
        ends: &mut Vec<usize>,
        out: &mut Fields,
    ) -> Result<bool, String> {
        if let Some(shape) = &self.shape
            && shape.spans(line, starts, ends).is_ok()
        {
            return Ok(true);
        }
        self.split_unshaped(line, out, Reader::Auto).map(|()| false)
    }
}

/// Which parser [`JsonLines::split_by`] reads a line with.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// The shape, the scanner for a line not of the shape, and serde_json for a line the
    /// scanner does not take: what `split` does.
    Auto,
    /// The shape alone: a line not of it is an error.
    Shape,
    /// The scanner alone: a line it does not take is an error, "the scanner bailed".
    Scanner,
    /// serde_json alone.
    Serde,
}

impl JsonLines {
    /// [`LineFormat::split`] with the parser chosen, for the tests and fuzz targets that hold
    /// the scanner and serde_json to the same fields.
    #[doc(hidden)]
    pub fn split_by(&self, line: &[u8], out: &mut Fields, reader: Reader) -> Result<(), String> {
        // A line of the log's shape (most of a fixed layout's): read without the scanner,
        // and without checking the whole line's UTF-8 (the shape checks what it must).
        if matches!(reader, Reader::Auto | Reader::Shape)
            && let Some(shape) = &self.shape
            && shape.read(line, &mut out.data, &mut out.ends).is_ok()
        {
            return Ok(());
        }
        if reader == Reader::Shape {
            return Err("the line is not of the log's shape".to_string());
        }
        self.split_unshaped(line, out, reader)
    }

    /// [`JsonLines::split_by`] after the shape: the scanner, then serde_json.
    fn split_unshaped(&self, line: &[u8], out: &mut Fields, reader: Reader) -> Result<(), String> {
        // The line's UTF-8 is checked with simdutf8, 32 bytes a step where the CPU has AVX2:
        // about half the instructions of std's check.
        let text = simdutf8::basic::from_utf8(line).ok();
        if line.trim_ascii().is_empty() {
            // A blank line: one empty field, no row.
            out.push(b"");
            return Ok(());
        }
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let (data, ends) = (out.data.len(), out.ends.len());
            let mut sink = Sink {
                out,
                next: 0,
                straight: true,
                scratch: &mut scratch,
            };
            // The scanner first, on text (nearly every line), and serde_json for a line it
            // does not take whole: its error, or what the scanner declined to read.
            let scanned = reader != Reader::Serde
                && text.is_some_and(|text| self.scan(text, &mut sink).is_ok());
            if !scanned {
                if reader == Reader::Scanner {
                    return Err("the scanner bailed".to_string());
                }
                sink.out.data.truncate(data);
                sink.out.ends.truncate(ends);
                sink.next = 0;
                sink.straight = true;
                self.parse(line, &mut sink)?;
            }
            if sink.straight {
                while sink.next < self.names.len() {
                    sink.out.push(b"");
                    sink.next += 1;
                }
                return Ok(());
            }
            for &(start, end) in &sink.scratch.spans {
                if (start, end) == MISSING {
                    sink.out.push(b"");
                } else {
                    sink.out
                        .push(&sink.scratch.data[start as usize..end as usize]);
                }
            }
            Ok(())
        })
    }
}

/// A JSON-lines log, if the first line that is not blank is a JSON object.
pub fn sniff(first_lines: &[&[u8]], extra: &[&str]) -> Option<Box<dyn LineFormat>> {
    let first = first_lines.iter().find(|l| !l.trim_ascii().is_empty())?;
    if first.trim_ascii_start().first() != Some(&b'{') {
        return None;
    }
    serde_json::from_slice::<serde::de::IgnoredAny>(first).ok()?;
    JsonLines::from_lines(first_lines, extra).map(|f| Box::new(f) as Box<dyn LineFormat>)
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "json",
    named: true,
    describe: "JSON lines: Caddy, Traefik, Envoy, Cloudflare, Google Cloud, Kong, API Gateway, ... or any keys (`--column`)",
    detect: Some(Detect { order: 40, sniff }),
    reading: Reading::FromLines {
        read: json_lines,
        missing: "no line among the first is a JSON object",
    },
    candidates: |lines| json_lines(lines, &[]).into_iter().collect(),
    looks: Some(Looks {
        name: "JSON lines",
        test: |l| l.starts_with(b"{"),
    }),
    compile: None,
    told: None,
    flags: &[
        &super::sources::CLOUDFLARE_FLAGS,
        &super::sources::GOOGLE_CLOUD_FLAGS,
    ],
    samples: &[
        Sample {
            name: "Caddy",
            lines: r#"{"level":"info","ts":1793582395.2,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"10.0.0.7","proto":"HTTP/2.0","method":"POST","host":"api.example.com","uri":"/v1/orders/7565792/capture","headers":{"User-Agent":["okhttp/4.12.0"],"Idempotency-Key":["2d6f951336cb0b617dcc2cb17463c6aa"],"X-Request-Id":["1decbe2963acfa85"]}},"bytes_read":512,"duration":32.020386,"size":0,"status":499}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "1793582395.2"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders/7565792/capture"),
                (Role::Status, "499"),
                (Role::Duration, "32.020386"),
                (Role::IdempotencyKey, "2d6f951336cb0b617dcc2cb17463c6aa"),
            ],
            gave_up: None,
        },
        Sample {
            name: "Envoy JSON",
            lines: r#"{"start_time":"2026-11-02T01:19:55.200Z","method":"POST","path":"/v1/orders/7565792/capture","protocol":"HTTP/1.1","response_code":504,"response_flags":"UT","bytes_received":512,"bytes_sent":0,"duration":32020,"x_forwarded_for":"10.0.0.7","user_agent":"okhttp/4.12.0","x_request_id":"1decbe2963acfa85","authority":"api.example.com","upstream_host":"10.1.2.3:8080","idempotency_key":"2d6f951336cb0b617dcc2cb17463c6aa"}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-02T01:19:55.200Z"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders/7565792/capture"),
                (Role::Status, "504"),
                (Role::Duration, "32020"),
                (Role::IdempotencyKey, "2d6f951336cb0b617dcc2cb17463c6aa"),
                (Role::Flags, "UT"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Cloudflare",
            lines: r#"{"ClientIP":"10.0.0.7","ClientRequestHost":"api.example.com","ClientRequestMethod":"POST","ClientRequestURI":"/v1/orders/7565792/capture","ClientRequestUserAgent":"okhttp/4.12.0","EdgeResponseBytes":0,"EdgeResponseStatus":524,"EdgeStartTimestamp":1793594748166000000,"EdgeTimeToFirstByteMs":100000,"OriginResponseStatus":0,"RayID":"78dde6e5fd29f054","RequestHeaders":{"idempotency-key":"2d6f951336cb0b617dcc2cb17463c6aa"}}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "1793594748166000000"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders/7565792/capture"),
                (Role::Status, "524"),
                (Role::UpstreamStatus, "0"),
                (Role::Duration, "100000"),
                (Role::IdempotencyKey, "2d6f951336cb0b617dcc2cb17463c6aa"),
                (Role::Flags, "524"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Google Cloud",
            lines: r#"{"httpRequest":{"latency":"30.001s","remoteIp":"10.0.0.7","requestMethod":"POST","requestSize":"512","requestUrl":"https://api.example.com/v1/orders/7565792/capture","responseSize":"0","status":504,"userAgent":"okhttp/4.12.0"},"insertId":"78dde6e5fd29f054","jsonPayload":{"@type":"type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry","statusDetails":"backend_timeout"},"resource":{"type":"http_load_balancer"},"severity":"INFO","timestamp":"2026-11-01T15:19:53.878Z"}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T15:19:53.878Z"),
                (Role::Method, "POST"),
                (
                    Role::Path,
                    "https://api.example.com/v1/orders/7565792/capture",
                ),
                (Role::Status, "504"),
                (Role::Duration, "30.001s"),
                (Role::Flags, "backend_timeout"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Azure Application Gateway",
            lines: r#"{"category":"ApplicationGatewayAccessLog","operationName":"ApplicationGatewayAccess","properties":{"clientIP":"10.0.0.7","httpMethod":"POST","httpStatus":504,"requestUri":"/v1/orders/7565792/capture","sentBytes":0,"serverStatus":"-","timeTaken":30.001,"transactionId":"78dde6e5fd29f054","userAgent":"okhttp/4.12.0"},"timeStamp":"2026-11-01T15:19:53.878Z"}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T15:19:53.878Z"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders/7565792/capture"),
                (Role::Status, "504"),
                (Role::UpstreamStatus, "-"),
                (Role::Duration, "30.001"),
            ],
            gave_up: None,
        },
        Sample {
            name: "Kong",
            lines: r#"{"client_ip":"10.0.0.7","latencies":{"kong":1,"proxy":-1,"request":60000},"request":{"method":"POST","uri":"/v1/orders/7565792/capture","size":512,"headers":{"user-agent":"okhttp/4.12.0","x-request-id":"78dde6e5fd29f054","idempotency-key":"2d6f951336cb0b617dcc2cb17463c6aa"}},"response":{"status":504,"size":0},"started_at":1793594748166,"upstream_status":""}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "1793594748166"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/orders/7565792/capture"),
                (Role::Status, "504"),
                (Role::UpstreamStatus, ""),
                (Role::Duration, "60000"),
                (Role::IdempotencyKey, "2d6f951336cb0b617dcc2cb17463c6aa"),
            ],
            gave_up: None,
        },
        Sample {
            name: "API Gateway JSON",
            lines: r#"{"requestId":"r-1","ip":"1.2.3.4","requestTime":"01/Nov/2026:00:00:00 +0000","httpMethod":"POST","routeKey":"POST /a","status":"504","integrationStatus":"-","responseLatency":"29000"}"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:00:00:00 +0000"),
                (Role::Method, "POST"),
                (Role::Path, "POST /a"),
                (Role::Status, "504"),
                (Role::UpstreamStatus, "-"),
                (Role::Duration, "29000"),
            ],
            gave_up: None,
        },
    ],
};

fn json_lines(lines: &[&[u8]], paths: &[&str]) -> Option<Box<dyn LineFormat>> {
    JsonLines::from_lines(lines, paths).map(|f| Box::new(f) as Box<dyn LineFormat>)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{field as get, fields as split};
    use super::*;

    /// Shaped like Caddy's documented access log entry.
    const CADDY: &[u8] = br#"{"level":"info","ts":1646861401.5241024,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"127.0.0.1","remote_port":"41342","proto":"HTTP/2.0","method":"POST","host":"localhost","uri":"/v1/payments","headers":{"User-Agent":["curl/7.82.0"],"Idempotency-Key":["k-1"],"Accept":["*/*"]},"tls":{"resumed":false,"version":772}},"bytes_read":0,"user_id":"","duration":0.000929675,"size":10900,"status":200,"resp_headers":{"Server":["Caddy"]}}"#;

    #[test]
    fn caddy() {
        let caddy = sniff(&[CADDY], &[]).expect("sniffed");
        assert_eq!(caddy.describe(), "JSON lines (Caddy)");
        assert_eq!(caddy.hints().duration_unit, Some(DurationUnit::Seconds));
        let f = split(caddy.as_ref(), CADDY).unwrap();
        let g = |n| get(caddy.as_ref(), &f, n);
        assert_eq!(g("ts"), "1646861401.5241024");
        assert_eq!(g("request.method"), "POST");
        assert_eq!(g("request.uri"), "/v1/payments");
        assert_eq!(g("request.headers.Idempotency-Key[0]"), "k-1");
        assert_eq!(g("request.headers.User-Agent[0]"), "curl/7.82.0");
        assert_eq!(g("request.tls.resumed"), "false");
        assert_eq!(g("duration"), "0.000929675");
        assert_eq!(g("status"), "200");
    }

    /// The fields, or the error, of `line` read by the byte reader (the one before lines of
    /// valid UTF-8 were read as text).
    fn split_as_bytes(format: &JsonLines, line: &[u8]) -> Result<Vec<Vec<u8>>, String> {
        let (mut out, mut scratch) = (Fields::default(), Scratch::default());
        let mut sink = Sink {
            out: &mut out,
            next: 0,
            straight: true,
            scratch: &mut scratch,
        };
        format.parse_with(&mut serde_json::Deserializer::from_slice(line), &mut sink)?;
        let straight = sink.straight;
        Ok(if straight {
            (0..out.len())
                .map(|i| out.get(i).unwrap().to_vec())
                .collect()
        } else {
            scratch
                .spans
                .iter()
                .map(|&(a, b)| {
                    if (a, b) == MISSING {
                        Vec::new()
                    } else {
                        scratch.data[a as usize..b as usize].to_vec()
                    }
                })
                .collect()
        })
    }

    proptest::proptest! {
        /// A line of valid UTF-8 read as text gives what the byte reader gives: the same
        /// fields (a field the line lacks is empty in both), or the same error.
        #[test]
        fn text_and_bytes_readers_agree(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex(r#"[a-z]{1,6}"#).unwrap(),
                    proptest::string::string_regex(r#"\\(u00e9|ud83d\\ude00|ud800|"|n|q)"#).unwrap(),
                    proptest::string::string_regex("[é😀\\x00-\\x1f]").unwrap(),
                ],
                0..4,
            ),
            uri_first in proptest::bool::ANY,
            number in proptest::string::string_regex("-?[0-9]{1,4}(\\.[0-9]{1,3})?(e[0-9])?|true|null|\\[1\\]").unwrap(),
        ) {
            let caddy = JsonLines::from_lines(&[CADDY], &[]).unwrap();
            let text: String = parts.concat();
            let line = if uri_first {
                format!(r#"{{"request":{{"uri":"/{text}","method":"POST"}},"status":{number}}}"#)
            } else {
                format!(r#"{{"status":{number},"request":{{"method":"P{text}","uri":"/x"}},"ts":"{text}"}}"#)
            };
            let ours = split(&caddy, line.as_bytes()).map(|f| f.into_iter().map(String::into_bytes).collect::<Vec<_>>());
            let theirs = split_as_bytes(&caddy, line.as_bytes())
                .map(|f| f.into_iter().map(|v| String::from_utf8_lossy(&v).into_owned().into_bytes()).collect::<Vec<_>>());
            proptest::prop_assert_eq!(ours, theirs);
        }
    }

    /// A JSON value of few keys (so that keys repeat, within an object and across lines),
    /// escapes, surrogate pairs, numbers of every form and whitespace; and whether the
    /// scanner must take it (no backslash and no object with a repeated key, whose values'
    /// kinds may disagree with the tree's).
    fn json_value() -> impl proptest::strategy::Strategy<Value = (String, bool)> {
        use proptest::prelude::*;
        let ws = prop::sample::select(vec!["", "", "", " ", "\t", " \r\n "]);
        let text = prop::collection::vec(
            prop_oneof![
                "[a-z0-9 /.:-]{0,10}",
                Just(r"\u00e9".to_string()),
                Just(r"\ud83d\ude00".to_string()),
                Just(r"\ud800".to_string()),
                Just(r#"\""#.to_string()),
                Just(r"\\\n\/".to_string()),
                Just("é😀".to_string()),
            ],
            0..3,
        )
        .prop_map(|parts| parts.concat());
        let leaf = prop_oneof![
            text.prop_map(|t| {
                let clean = !t.contains('\\');
                (format!("\"{t}\""), clean)
            }),
            "-?(0|[1-9][0-9]{0,19})(\\.[0-9]{1,4})?([eE][-+]?[0-9]{1,3})?".prop_map(|n| (n, true)),
            prop::sample::select(vec!["true", "false", "null", "1e400", "[]", "{}"])
                .prop_map(|w| (w.to_string(), true)),
        ];
        let key = prop::sample::select(vec!["a", "b", "status", "k", "é", r"k\u0031"]);
        leaf.prop_recursive(4, 40, 5, move |inner| {
            prop_oneof![
                (
                    prop::collection::vec((ws.clone(), inner.clone()), 0..4),
                    ws.clone()
                )
                    .prop_map(|(items, w)| {
                        let clean = items.iter().all(|(_, (_, c))| *c);
                        let items: Vec<String> = items
                            .into_iter()
                            .map(|(w, (v, _))| format!("{w}{v}{w}"))
                            .collect();
                        (format!("[{w}{}]", items.join(",")), clean)
                    }),
                (
                    prop::collection::vec((key.clone(), ws.clone(), inner), 0..5),
                    ws.clone()
                )
                    .prop_map(|(members, w)| {
                        let mut keys: Vec<&str> = members.iter().map(|(k, _, _)| *k).collect();
                        let all = keys.len();
                        keys.sort();
                        keys.dedup();
                        let clean = keys.len() == all
                            && members.iter().all(|(k, _, (_, c))| *c && !k.contains('\\'));
                        let members: Vec<String> = members
                            .into_iter()
                            .map(|(k, w2, (v, _))| format!("{w2}\"{k}\"{w2}:{w}{v}"))
                            .collect();
                        (format!("{{{}{w}}}", members.join(",")), clean)
                    }),
            ]
        })
    }

    /// The fields of `line` read by `reader`.
    fn split_with(format: &JsonLines, line: &[u8], reader: Reader) -> Result<Vec<Vec<u8>>, String> {
        let mut out = Fields::default();
        format.split_by(line, &mut out, reader)?;
        Ok((0..out.len())
            .map(|i| out.get(i).unwrap().to_vec())
            .collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// The scanner and serde_json read every line alike: the same fields, or the same
        /// error (the scanner hands serde_json any line it does not take); and the scanner
        /// takes every line of the tree's own shape (no `--column` path added) that has no
        /// escapes and no repeated key.
        #[test]
        fn scanner_and_serde_agree(
            first in json_value(),
            line in json_value(),
            wrap in proptest::bool::ANY,
            extra in proptest::sample::select(vec!["", "a.b", "a[1].status", "k[0]"]),
        ) {
            // Lines that are objects most of the time.
            let wrapped = |v: &str| if wrap { format!("{{\"a\":{v},\"status\":200}}") } else { v.to_string() };
            let (first, line) = (wrapped(&first.0), (wrapped(&line.0), line.1));
            let extra: Vec<&str> = [extra].into_iter().filter(|e| !e.is_empty()).collect();
            for tree in [&first, &line.0] {
                let Some(format) = JsonLines::from_lines(&[tree.as_bytes()], &extra) else {
                    continue;
                };
                let auto = split_with(&format, line.0.as_bytes(), Reader::Auto);
                let serde = split_with(&format, line.0.as_bytes(), Reader::Serde);
                proptest::prop_assert_eq!(&auto, &serde, "{} with the tree of {}", line.0, tree);
                let scanned = split_with(&format, line.0.as_bytes(), Reader::Scanner);
                if let Ok(fields) = &scanned {
                    proptest::prop_assert_eq!(Ok(fields), serde.as_ref());
                }
                if std::ptr::eq(tree, &line.0) && extra.is_empty() && line.1 && serde.is_ok() {
                    proptest::prop_assert!(scanned.is_ok(), "the scanner bailed on {}", line.0);
                }
            }
        }
    }

    /// An nginx `escape=json` line as the race's generator writes it.
    const NGINX: &[u8] = br#"{"time_local":"01/Nov/2026:02:33:30 +0000","remote_addr":"10.0.0.7","request_method":"POST","request_uri":"/v1/orders/380302","status":"504","upstream_status":"200","request_time":"0.240","http_idempotency_key":"","body_bytes_sent":"6798","http_user_agent":"Mozilla/5.0 (X11; Linux x86_64)"}"#;

    /// A value for a shape's member: a plain string or number like the first line's (the
    /// shape must take it: `true`), or one it must hand to the scanner (escapes, control
    /// characters, bytes that are not UTF-8, another kind, other spacing).
    fn shaped_value() -> impl proptest::strategy::Strategy<Value = (Vec<u8>, bool)> {
        use proptest::prelude::*;
        prop_oneof![
            4 => "[a-zA-Z0-9 /.:+-]{0,40}".prop_map(|t| (format!("\"{t}\"").into_bytes(), true)),
            2 => "(é|😀|[a-z]){0,20}".prop_map(|t| (format!("\"{t}\"").into_bytes(), true)),
            2 => "-?(0|[1-9][0-9]{0,12})(\\.[0-9]{1,4})?([eE][-+]?[0-9]{1,2})?"
                .prop_map(|n| (n.into_bytes(), true)),
            1 => prop::sample::select(vec![
                r#""a\"b""#, r#""\u00e9""#, "\"tab\there\"", "null", "true", "[1]", "{}",
                "{\"x\":1}", "01", "-", "1.", "1e400", "\"open", " \"spaced\"",
            ])
            .prop_map(|v| (v.as_bytes().to_vec(), false)),
            1 => prop::collection::vec(any::<u8>(), 0..6).prop_map(|b| {
                let mut v = b"\"".to_vec();
                v.extend(b);
                v.push(b'"');
                (v, false)
            }),
        ]
    }

    /// A JSON line of `values` under the first of `KEYS`, the second's nested in `request`
    /// when `nest`, with `spacing` after each comma and colon.
    fn shaped_line(values: &[(Vec<u8>, bool)], nest: bool, spacing: &str) -> Vec<u8> {
        const KEYS: [&str; 7] = [
            "time_local",
            "status",
            "request_uri",
            "é",
            "http_idempotency_key",
            "k",
            "upstream_status",
        ];
        let mut out = b"{".to_vec();
        for (i, (v, _)) in values.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(format!(",{spacing}").as_bytes());
            }
            if nest && i == 1 {
                out.extend_from_slice(b"\"request\":{");
            }
            out.extend_from_slice(format!("\"{}\":{spacing}", KEYS[i]).as_bytes());
            out.extend_from_slice(v);
            if nest && i == 1 {
                out.push(b'}');
            }
        }
        out.push(b'}');
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// A line of the log's shape reads as serde_json reads it: the shape's fields (when
        /// it takes the line) and the whole reader's (shape, scanner, serde_json) equal
        /// serde_json's, or the same error; and the shape takes every line of its layout
        /// whose values are plain strings and numbers of the first line's kinds.
        #[test]
        fn the_shape_and_serde_agree(
            first in proptest::collection::vec(shaped_value(), 1..7),
            line in proptest::collection::vec(shaped_value(), 1..7),
            nest in proptest::bool::ANY,
            spacing in proptest::sample::select(vec!["", "", " "]),
            cut in proptest::option::of(0usize..200),
        ) {
            let first_line = shaped_line(&first, nest, "");
            let format = JsonLines::from_lines(&[&first_line], &[]);
            let first_plain = first.iter().all(|(_, plain)| *plain);
            if first_plain {
                let shape = format.as_ref().and_then(|f| f.shape.as_ref());
                proptest::prop_assert!(shape.is_some(), "no shape of {}", String::from_utf8_lossy(&first_line));
            }
            proptest::prop_assume!(format.is_some(), "serde_json refuses the first line");
            let format = format.unwrap();
            let mut bytes = shaped_line(&line, nest, spacing);
            if let Some(cut) = cut {
                bytes.truncate(cut);
            }
            let serde = split_with(&format, &bytes, Reader::Serde);
            let auto = split_with(&format, &bytes, Reader::Auto);
            proptest::prop_assert_eq!(&auto, &serde, "{}", String::from_utf8_lossy(&bytes));
            // The hot loop's one call: in place, or split, the same fields.
            let (mut starts, mut ends, mut out) = (Vec::new(), Vec::new(), Fields::default());
            let placed = format
                .split_in_place(&bytes, &mut starts, &mut ends, &mut out)
                .map(|in_place| -> Vec<Vec<u8>> {
                    if in_place {
                        starts.iter().zip(&ends).map(|(&a, &b)| bytes[a..b].to_vec()).collect()
                    } else {
                        (0..out.len()).map(|i| out.get(i).unwrap().to_vec()).collect()
                    }
                });
            proptest::prop_assert_eq!(&placed, &serde, "in place: {}", String::from_utf8_lossy(&bytes));
            let shaped = split_with(&format, &bytes, Reader::Shape);
            if let Ok(fields) = &shaped {
                proptest::prop_assert_eq!(Ok(fields), serde.as_ref());
            }
            let same_kinds = first.len() == line.len()
                && first.iter().zip(&line).all(|((a, _), (b, _))| (a[0] == b'"') == (b[0] == b'"'));
            if first_plain && same_kinds && line.iter().all(|(_, plain)| *plain) && spacing.is_empty() && cut.is_none() {
                proptest::prop_assert!(shaped.is_ok(), "the shape did not take {}", String::from_utf8_lossy(&bytes));
            }
        }
    }

    #[test]
    fn the_shape_of_a_fixed_layout() {
        let format = JsonLines::from_lines(&[NGINX], &[]).unwrap();
        assert!(format.shape.is_some());
        let other = br#"{"time_local":"01/Nov/2026:02:33:31 +0000","remote_addr":"10.0.0.9","request_method":"GET","request_uri":"/","status":"200","upstream_status":"200","request_time":"0.001","http_idempotency_key":"k-1","body_bytes_sent":"0","http_user_agent":"curl/8"}"#;
        let shaped = split_with(&format, other, Reader::Shape).unwrap();
        assert_eq!(shaped[3], b"/");
        assert_eq!(shaped[7], b"k-1");
        assert_eq!(Ok(shaped), split_with(&format, other, Reader::Serde));
        // An escape, keys in another order, a space, a line cut short: the scanner's.
        for line in [
            &br#"{"time_local":"01/Nov/2026:02:33:31 +0000","remote_addr":"10.0.0.9","request_method":"GET","request_uri":"/\u00e9","status":"200","upstream_status":"200","request_time":"0.001","http_idempotency_key":"","body_bytes_sent":"0","http_user_agent":"curl/8"}"#[..],
            br#"{"remote_addr":"10.0.0.9","time_local":"01/Nov/2026:02:33:31 +0000","request_method":"GET","request_uri":"/","status":"200","upstream_status":"200","request_time":"0.001","http_idempotency_key":"","body_bytes_sent":"0","http_user_agent":"curl/8"}"#,
            br#"{"time_local": "01/Nov/2026:02:33:31 +0000","remote_addr":"10.0.0.9","request_method":"GET","request_uri":"/","status":"200","upstream_status":"200","request_time":"0.001","http_idempotency_key":"","body_bytes_sent":"0","http_user_agent":"curl/8"}"#,
            br#"{"time_local":"01/Nov/2026:02:33:31 +0000","remote_addr":"10.0.0.9","request_method":"GET""#,
        ] {
            assert!(split_with(&format, line, Reader::Shape).is_err());
            assert_eq!(
                split_with(&format, line, Reader::Auto),
                split_with(&format, line, Reader::Serde)
            );
        }
        // A value above ASCII is checked: UTF-8 is read, other bytes are serde_json's error.
        let utf8 = r#"{"time_local":"01/Nov/2026:02:33:31 +0000","remote_addr":"10.0.0.9","request_method":"GET","request_uri":"/café","status":"200","upstream_status":"200","request_time":"0.001","http_idempotency_key":"","body_bytes_sent":"0","http_user_agent":"curl/8"}"#;
        let shaped = split_with(&format, utf8.as_bytes(), Reader::Shape).unwrap();
        assert_eq!(shaped[3], "/café".as_bytes());
        let mut bad = utf8.as_bytes().to_vec();
        let at = bad.iter().position(|&b| b == 0xc3).unwrap();
        bad[at] = 0xff;
        assert!(split_with(&format, &bad, Reader::Shape).is_err());
        assert!(split_with(&format, &bad, Reader::Auto).is_err());
        // Caddy's headers vary from request to request: no shape.
        assert!(
            JsonLines::from_lines(&[CADDY], &[])
                .unwrap()
                .shape
                .is_none()
        );
    }

    #[test]
    fn the_scanner_takes_real_lines() {
        let nginx = br#"{"time_local":"01/Nov/2026:02:33:30 +0000","remote_addr":"10.0.0.7","request_method":"POST","request_uri":"/v1/orders/380302","status":"504","upstream_status":"200","request_time":"0.240","http_idempotency_key":"k-\u00e9","body_bytes_sent":"6798","http_user_agent":"Mozilla/5.0 (X11; Linux x86_64)"}"#;
        for line in [CADDY, nginx] {
            let format = JsonLines::from_lines(&[line], &[]).unwrap();
            let scanned = split_with(&format, line, Reader::Scanner);
            assert!(scanned.is_ok(), "{scanned:?}");
            assert_eq!(scanned, split_with(&format, line, Reader::Serde));
        }
    }

    #[test]
    fn bad_utf8_is_read_as_bytes() {
        let caddy = JsonLines::from_lines(&[CADDY], &[]).unwrap();
        let line = b"{\"status\":200,\"request\":{\"uri\":\"/a\xff\"}}";
        let err = split(&caddy, line).unwrap_err();
        assert_eq!(Err(err), split_as_bytes(&caddy, line));
    }

    #[test]
    fn quirks() {
        let caddy = JsonLines::from_lines(&[CADDY], &["request.headers.X-Request-Id[0]"]).unwrap();
        // Keys in another order, a missing key and header, a number as a string, unicode
        // escapes, a null, a value where an object was, unknown nested keys skipped.
        let line = br#"{"status":"504","request":{"uri":"/caf\u00e9/\ud83d\ude00","method":"POST","headers":{"X-Request-Id":["r\"1"],"New":[{"deep":[1,2]}]},"tls":null},"duration":30.5,"ts":1646861431,"resp_headers":"odd"}"#;
        let f = split(&caddy, line).unwrap();
        let g = |n| get(&caddy, &f, n);
        assert_eq!(g("status"), "504");
        assert_eq!(g("request.uri"), "/café/😀");
        assert_eq!(g("request.headers.Idempotency-Key[0]"), "", "missing");
        assert_eq!(g("request.headers.X-Request-Id[0]"), "r\"1");
        assert_eq!(g("request.remote_ip"), "");
        assert_eq!(g("ts"), "1646861431");
        assert_eq!(g("resp_headers.Server[0]"), "");
    }

    /// A key first seen in a later line sits with its siblings, so the lines that have it
    /// still come in the fields' order; lines out of that order read the same.
    #[test]
    fn fields_in_the_order_of_the_tree() {
        let first = br#"{"a":1,"h":{"x":["1"]},"z":2}"#;
        let later = br#"{"a":1,"h":{"x":["1"],"y":["k"]},"z":2}"#;
        let f = JsonLines::from_lines(&[first, later], &[]).unwrap();
        assert_eq!(f.names(), ["a", "h.x[0]", "h.y[0]", "z"]);
        assert_eq!(split(&f, later).unwrap(), ["1", "1", "k", "2"]);
        let shuffled = br#"{"z":2,"h":{"y":["k"],"x":["1"]},"a":1}"#;
        assert_eq!(split(&f, shuffled).unwrap(), ["1", "1", "k", "2"]);
        let twice = br#"{"a":1,"z":2,"a":3}"#;
        assert_eq!(
            split(&f, twice).unwrap(),
            ["3", "", "", "2"],
            "the last value wins"
        );
    }

    #[test]
    fn flavours() {
        let traefik = br#"{"ClientHost":"10.0.0.7","DownstreamStatus":499,"Duration":30000000000,"OriginStatus":0,"RequestMethod":"POST","RequestPath":"/v1/orders","StartUTC":"2026-11-01T00:00:01.123456789Z","request_User-Agent":"curl/8.5","request_Idempotency-Key":"k"}"#;
        let f = sniff(&[traefik], &[]).unwrap();
        assert_eq!(f.describe(), "JSON lines (Traefik)");
        assert_eq!(f.hints().duration_unit, Some(DurationUnit::Nanos));
        let envoy = br#"{"start_time":"2026-11-01T00:00:01.123Z","method":"POST","path":"/v1/a","response_code":504,"response_flags":"UT","duration":30001,"x_request_id":"abc"}"#;
        let f = sniff(&[envoy], &[]).unwrap();
        assert_eq!(f.describe(), "JSON lines (Envoy)");
        assert_eq!(
            f.hints().flags_style,
            Some(FlagsStyle(&crate::logs::formats::envoy::FLAGS))
        );
        let nginx = br#"{"time_local":"01/Nov/2026:00:00:01 +0000","request_method":"POST","request_uri":"/v1/a","status":"200","request_time":"0.120","upstream_status":"502, 200"}"#;
        let f = sniff(&[nginx], &[]).unwrap();
        assert_eq!(f.describe(), "JSON lines (nginx escape=json)");
        assert_eq!(f.hints().duration_unit, None);
        let fields = split(f.as_ref(), nginx).unwrap();
        assert_eq!(get(f.as_ref(), &fields, "upstream_status"), "502, 200");
    }

    #[test]
    fn bad_lines() {
        let caddy = sniff(&[CADDY], &[]).unwrap();
        for (line, want) in [
            (&b"[1,2]"[..], "expected a JSON object"),
            (b"\"text\"", "expected a JSON object"),
            (b"42", "expected a JSON object"),
            (b"{\"status\":200", "EOF while parsing"),
            (b"{\"status\":200} trailing", "trailing characters"),
            (b"\xff\xfe\x00\x01garbage", "not a JSON object"),
            (b"{\"status\":\"\xff\"}", "invalid unicode"),
            (b"{\"status\":\"\\ud800\"}", "not a JSON object"),
        ] {
            let err = split(caddy.as_ref(), line).unwrap_err();
            assert!(
                err.contains(want),
                "{err} for {}",
                String::from_utf8_lossy(line)
            );
        }
        let mut blank = Fields::default();
        caddy.split(b"  ", &mut blank).unwrap();
        assert_eq!(
            (blank.ends.len(), blank.data.len()),
            (1, 0),
            "a blank line is no row"
        );
        assert!(sniff(&[b"not json"], &[]).is_none());
        assert!(sniff(&[b"[1,2]"], &[]).is_none());
        assert!(sniff(&[b"\x1f\x8b\x08\x00"], &[]).is_none());
        assert!(parse_path("a..b").is_none() && parse_path("a[x]").is_none());
    }
}
