//! A format string compiled to literals and variables, and the lines it writes split back
//! into the variables' values: the engine of nginx `log_format`, Apache `LogFormat`, Envoy's
//! format strings and HAProxy's `httplog`.
//!
//! A line is read left to right: each literal must be there, and a variable's value runs to
//! where the next literal starts. Between quotes (`"$http_user_agent"`) it runs to the next
//! unescaped quote followed by the next literal, so a value may hold spaces and the quote
//! escaped as `\"` (Apache) or `\x22` (nginx); nginx's multi-value upstream variables
//! (`504, 200`, `0.010 : 0.002`) run on over `, ` and ` : `. A request line (`$request`,
//! `%r`) becomes three fields: method, path and protocol.
//!
//! A quoted variable also takes a bare `-` for its quoted value (`... 2814 - "Mozilla..."`):
//! nginx never writes one, but Traefik's older CLF (Elastic's sample) and other loggers
//! write the missing referer so. A line the template does not read is read again by its
//! second set of steps, where such a variable owns its quotes: the literals around it are
//! compiled without them, the variable reads `"..."` or a `-` followed by the next literal,
//! and the value before it ends where the literal is followed by either. A line that reads
//! with the quotes is read as it always was. (The second steps' checks are compiled out of
//! the first reading, `run::<false>`, whose helpers LLVM inlines after optimising them on
//! their own, so the first reading costs nearly what it would without the second steps.)

use super::{Fields, FormatHints, LineFormat};
use crate::logs::error::shown;
use std::sync::OnceLock;

/// What a variable's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One field, as written (unescaped when quoted).
    Plain,
    /// A request line, `GET /path HTTP/1.1`: three fields, method, path and protocol.
    Request,
    /// nginx's upstream lists: `504, 200` and `504 : 200` are one value.
    Multi,
    /// One field that is one word (a status, a method, a byte count): a value with a space
    /// is no match, so a line of another layout is not read into it (Nginx Proxy Manager's
    /// `standard` format is not read from a `proxy` line, whose `- 304 304` would be a status).
    Word,
    /// A client address, or a list of them where a proxy logs the forwarded chain in its
    /// place (`10.0.0.2, 10.0.0.1, 127.0.0.1`, `"10.5.1.2, 199.96.1.1" 10.2.1.185`, as
    /// Elastic's nginx samples have): one value, every word of it an address.
    Addresses,
}

/// A variable: the name(s) of the field(s) it gives, and what its value is.
#[derive(Debug, Clone)]
pub struct Var {
    /// The field's name; a [`Kind::Request`] gives `names` of three fields.
    pub name: String,
    pub kind: Kind,
}

impl Var {
    pub fn plain(name: impl Into<String>) -> Var {
        Var {
            name: name.into(),
            kind: Kind::Plain,
        }
    }
}

/// A piece of a format string.
#[derive(Debug, Clone)]
pub enum Item {
    Lit(Vec<u8>),
    Var(Var),
}

/// The three fields of a request line, named as nginx names them.
pub const REQUEST_NAMES: [&str; 3] = ["request_method", "request_uri", "server_protocol"];

#[derive(Debug, Clone)]
enum Step {
    /// A literal that must come next.
    Lit(Vec<u8>),
    /// A variable: how its value ends, then what it is; `quoted`: it owns the quotes around
    /// it (`"..."`, or a bare `-`), which the literals beside it were compiled without.
    Var {
        end: End,
        kind: Kind,
        name: String,
        quoted: bool,
    },
}

#[derive(Debug, Clone)]
enum End {
    /// At the end of the line.
    Line,
    /// Where this literal is next found (followed by the opening of a quoted variable, when
    /// one comes after it in the bare-dash steps: their [`Opening`]).
    Before(Vec<u8>),
    /// At the next unescaped quote that this literal (starting with the quote) follows (and
    /// then the opening of a quoted variable, as for `Before`).
    Quote(Vec<u8>),
}

/// How a quoted variable starts: with its quote, or with a bare `-` that `close` (the literal
/// after the variable, without its quote) follows.
#[derive(Debug, Clone)]
struct Opening {
    close: Vec<u8>,
}

impl Opening {
    /// `rest` starts with the variable: its quote, or a bare `-` then `close` (a `-` ending
    /// the line, or before a space, when nothing follows the variable).
    #[inline]
    fn at(&self, rest: &[u8]) -> bool {
        match rest.first() {
            Some(b'"') => true,
            Some(b'-') => bare(&rest[1..], &self.close),
            _ => false,
        }
    }
}

/// What follows a bare `-` of a quoted variable is `close`, the literal after it (or, with no
/// literal after it, the line ends or a space begins the fields it does not name).
#[inline]
fn bare(after: &[u8], close: &[u8]) -> bool {
    if close.is_empty() {
        after.first().is_none_or(|&b| b == b' ')
    } else {
        starts(after, close)
    }
}

/// One kind of format string (nginx `log_format`, Apache `LogFormat`, Envoy's): its presets as
/// (name, body, description), how a string becomes items, what its names cannot tell, what a
/// string that is no preset is called, and which presets a line may go on past (with
/// examples of such fields for the evidence). A `static`: its presets are compiled once a
/// process, when sniffing first asks for them.
pub struct Family {
    pub presets: &'static [(&'static str, &'static str, &'static str)],
    pub items: fn(&str) -> Result<Vec<Item>, String>,
    pub hints: fn() -> FormatHints,
    pub custom: &'static str,
    /// The presets, by name, that [`Family::appended`] reads with fields after them, and
    /// examples of such fields (none: the family's sniff does not try them).
    pub appended: (&'static [&'static str], &'static str),
    /// The presets and the appended ones, compiled at their first use.
    pub compiled: Compiled,
}

/// A family's compiled presets (name and format), each list compiled once a process.
pub struct Compiled {
    presets: OnceLock<Vec<(&'static str, TemplateFormat)>>,
    appended: OnceLock<Vec<(&'static str, TemplateFormat)>>,
}

impl Compiled {
    pub const fn new() -> Compiled {
        Compiled {
            presets: OnceLock::new(),
            appended: OnceLock::new(),
        }
    }
}

impl Default for Compiled {
    fn default() -> Compiled {
        Compiled::new()
    }
}

impl Family {
    pub(super) fn build(&self, body: &str, description: &str) -> Result<TemplateFormat, String> {
        Ok(TemplateFormat {
            template: Template::new((self.items)(body)?)?,
            description: description.to_string(),
            hints: (self.hints)(),
        })
    }

    /// A preset's name, or a string `unwrap` turns into a body (as pasted from the server's
    /// configuration), compiled; a body equal to a preset's is described as that preset.
    pub fn compile(
        &self,
        text: &str,
        unwrap: impl Fn(&str) -> String,
    ) -> Result<Box<dyn LineFormat>, String> {
        let text = text.trim();
        if let Some((_, body, description)) = self.presets.iter().find(|(n, ..)| *n == text) {
            return Ok(Box::new(self.build(body, description)?));
        }
        // A preset's name, then variables appended as the server's format appends them:
        // `combined $upstream_status $request_time` is combined's body and the rest.
        if let Some((name, rest)) = text.split_once(char::is_whitespace)
            && let Some((_, body, description)) = self.presets.iter().find(|(n, ..)| *n == name)
        {
            let rest = unwrap(rest.trim());
            let described = format!("{description} with {}", rest.trim());
            return Ok(Box::new(self.build(&format!("{body} {rest}"), &described)?));
        }
        let body = unwrap(text);
        let description = self
            .presets
            .iter()
            .find(|(_, preset, _)| preset.trim() == body.trim())
            .map_or(self.custom, |(_, _, description)| description);
        Ok(Box::new(self.build(&body, description)?))
    }

    /// Every preset, compiled (once a process), most particular first.
    pub fn presets(&'static self) -> &'static [(&'static str, TemplateFormat)] {
        self.compiled.presets.get_or_init(|| {
            self.presets
                .iter()
                .filter_map(|(name, body, description)| {
                    Some((*name, self.build(body, description).ok()?))
                })
                .collect()
        })
    }

    /// The presets [`Family::appended`] names (compiled once a process), reading lines that
    /// go on past them with fields they do not name (not read, and said so in the evidence
    /// with examples of such fields).
    pub fn appended(&'static self) -> &'static [(&'static str, TemplateFormat)] {
        let (names, examples) = self.appended;
        self.compiled.appended.get_or_init(|| {
            self.presets()
                .iter()
                .filter(|(name, _)| names.contains(name))
                .map(|(name, f)| {
                    let format = TemplateFormat {
                        template: f.template.clone().with_trailing(),
                        description: format!("{} {}", f.description, super::UNREAD_FIELDS),
                        hints: FormatHints {
                            notes: vec![crate::logs::FormatNote::UnreadFields { examples }],
                            ..f.hints.clone()
                        },
                    };
                    (*name, format)
                })
                .collect()
        })
    }

    /// The first of `formats` (a family's [`Family::presets`] or [`Family::appended`]) that
    /// reads at least 4 in 5 of `lines`, as `best_of` tells.
    pub fn best_of(
        formats: &[(&'static str, TemplateFormat)],
        lines: &[&[u8]],
    ) -> Option<Box<dyn LineFormat>> {
        formats
            .iter()
            .find(|(_, f)| super::reads(f, lines) >= super::BEST_OF)
            .map(|(_, f)| Box::new(f.clone()) as Box<dyn LineFormat>)
    }
}

/// A line format read by a compiled template: an nginx `log_format`, an Apache `LogFormat` or
/// an Envoy format string, with what its names cannot tell.
#[derive(Debug, Clone)]
pub struct TemplateFormat {
    pub template: Template,
    /// For the evidence: "nginx combined", "Envoy format string".
    pub description: String,
    pub hints: FormatHints,
}

impl LineFormat for TemplateFormat {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn names(&self) -> Vec<String> {
        self.template.names()
    }

    fn hints(&self) -> FormatHints {
        self.hints.clone()
    }

    #[inline]
    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.template.split(line, out)
    }
}

/// A compiled format: the steps a line is read by, and the names of the fields it gives.
#[derive(Debug, Clone)]
pub struct Template {
    steps: Vec<Step>,
    /// The steps with the quoted variables owning their quotes, taking a bare `-` for a
    /// quoted value, and the opening of the quoted variable after each step's value: tried
    /// on a line the steps do not read (when any variable is quoted), so every line the
    /// quotes' literals read is read exactly as it always was, at its cost.
    bare: Option<(Vec<Step>, Vec<Option<Opening>>)>,
    names: Vec<String>,
    /// A line may go on after the template, past a space: fields the format does not name,
    /// not read (a preset with fields appended, when auto detection found it).
    trailing: bool,
}

impl Template {
    /// Compiles `items` (adjacent literals are joined; two variables with nothing between
    /// them cannot be told apart and are an error).
    pub fn new(items: Vec<Item>) -> Result<Template, String> {
        let mut joined: Vec<Item> = Vec::new();
        for item in items {
            match (joined.last_mut(), item) {
                (_, Item::Lit(l)) if l.is_empty() => {}
                (Some(Item::Lit(prev)), Item::Lit(l)) => prev.extend_from_slice(&l),
                (Some(Item::Var(prev)), Item::Var(v)) => {
                    return Err(format!(
                        "{} and {} follow each other with nothing between them, so their values cannot be told apart",
                        prev.name, v.name
                    ));
                }
                (_, item) => joined.push(item),
            }
        }
        if !joined.iter().any(|i| matches!(i, Item::Var(_))) {
            return Err("no variables in it".into());
        }
        let names = joined
            .iter()
            .flat_map(|item| match item {
                Item::Var(v) if v.kind == Kind::Request => {
                    REQUEST_NAMES.iter().map(|n| n.to_string()).collect()
                }
                Item::Var(v) => vec![v.name.clone()],
                Item::Lit(_) => Vec::new(),
            })
            .collect();
        let owned = owned_quotes(&joined);
        Ok(Template {
            steps: steps(&joined, &vec![false; joined.len()]).0,
            bare: owned.contains(&true).then(|| steps(&joined, &owned)),
            names,
            trailing: false,
        })
    }

    /// The same template, reading a line that goes on past a space after it (the rest not
    /// read).
    pub fn with_trailing(mut self) -> Template {
        self.trailing = true;
        self
    }

    /// The names of the fields a line gives, in order.
    pub fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Splits `line` into `out`, or says what was expected where it did not match.
    #[inline]
    pub fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.read(line, out).map(|_| ())
    }

    /// [`Template::split`], returning where the template's part of the line ends (before the
    /// fields it does not name, with [`Template::with_trailing`]).
    #[inline]
    pub fn read(&self, line: &[u8], out: &mut Fields) -> Result<usize, String> {
        let (data, ends) = (out.data.len(), out.ends.len());
        match self.first(line, out) {
            Ok(at) => Ok(at),
            Err(error) => self.read_bare(line, out, error, (data, ends)),
        }
    }

    /// The first reading, by the steps with the quotes in their literals: a function of its
    /// own, so that the field counts [`Template::read`] keeps for the undo are not live across
    /// its loop.
    #[inline(never)]
    fn first(&self, line: &[u8], out: &mut Fields) -> Result<usize, String> {
        self.run::<false>(&self.steps, &[], line, out)
    }

    /// A line the steps did not read (`error`; `out` filled from `from`), read by the
    /// bare-dash steps, if any: out of line, so that the steps' loop inlined in
    /// [`Template::read`] stays as it is.
    #[cold]
    #[inline(never)]
    fn read_bare(
        &self,
        line: &[u8],
        out: &mut Fields,
        error: String,
        from: (usize, usize),
    ) -> Result<usize, String> {
        let Some((bare, openings)) = &self.bare else {
            return Err(error);
        };
        let fitted = out.ends.len();
        let undo = |out: &mut Fields| {
            out.data.truncate(from.0);
            out.ends.truncate(from.1);
        };
        undo(out);
        match self.run::<true>(bare, openings, line, out) {
            Ok(at) => Ok(at),
            // Of two misfits, the one that read further names the field at fault.
            Err(bare_error) if out.ends.len() > fitted => Err(bare_error),
            Err(_) => {
                undo(out);
                self.first(line, out)
            }
        }
    }

    /// Reads `line` by `steps` into `out`: where the template's part of it ends. `BARE`: the
    /// bare-dash steps, with the `openings` after each step (the steps' loop has no check of
    /// them otherwise).
    #[inline(always)]
    fn run<const BARE: bool>(
        &self,
        steps: &[Step],
        openings: &[Option<Opening>],
        line: &[u8],
        out: &mut Fields,
    ) -> Result<usize, String> {
        let mut at = 0;
        for (k, step) in steps.iter().enumerate() {
            match step {
                Step::Lit(l) => {
                    if !starts(&line[at..], l) {
                        return Err(format!(
                            "expected '{}' at column {}, found '{}'",
                            shown(l),
                            at + 1,
                            shown(&line[at..])
                        ));
                    }
                    at += l.len();
                }
                Step::Var {
                    end,
                    kind,
                    name,
                    quoted: owns,
                } => {
                    let mut rest = &line[at..];
                    let opening = if BARE { &openings[k] } else { &None };
                    // What may follow the end of the value: the opening of the quoted variable
                    // after it, in the bare-dash steps; anything in the first reading, where
                    // this is `true` when compiled (so `before` and `quoted` are as they were).
                    let then =
                        move |after: &[u8]| !BARE || opening.as_ref().is_none_or(|o| o.at(after));
                    if BARE && *owns {
                        let close = match end {
                            End::Quote(lit) => &lit[1..],
                            _ => &[][..],
                        };
                        match rest.first() {
                            Some(b'"') => {
                                at += 1;
                                rest = &rest[1..];
                            }
                            Some(b'-') if bare(&rest[1..], close) => {
                                // A bare `-` for the quoted value.
                                match kind {
                                    Kind::Request => request(b"-", false, out),
                                    _ => out.push(b"-"),
                                }
                                at += 1;
                                continue;
                            }
                            _ => {
                                return Err(format!(
                                    "expected '\"' (or a bare '-') before {name} at column {}, found '{}'",
                                    at + 1,
                                    shown(rest)
                                ));
                            }
                        }
                    }
                    // Whether a quoted value has a backslash: its search for the closing quote
                    // stops at each, so it knows without a second look.
                    let mut escaped = false;
                    let len = match end {
                        End::Line => {
                            let space = memchr::memchr(b' ', rest)
                                .filter(|_| matches!(kind, Kind::Plain | Kind::Word));
                            if let (Some(space), true) = (space, self.trailing) {
                                // The template's last value ends where the fields it does
                                // not name begin.
                                Some(space)
                            } else if let Some(space) = space {
                                return Err(format!(
                                    "expected the line to end after {name} at column {}, found '{}'",
                                    at + space + 1,
                                    shown(&rest[space..])
                                ));
                            } else {
                                Some(rest.len())
                            }
                        }
                        End::Before(needle) => before(needle, rest, *kind, then),
                        End::Quote(lit) => quoted(rest, lit, &mut escaped, then),
                    };
                    let Some(len) = len else {
                        // The literal as the format string writes it, with the quote of the
                        // variable after it.
                        let written = |lit: &[u8]| {
                            let quote: &[u8] = if opening.is_some() { b"\"" } else { b"" };
                            shown(&[lit, quote].concat())
                        };
                        return Err(format!(
                            "expected {} after {name} from column {}",
                            match end {
                                End::Before(needle) => format!("'{}'", written(needle)),
                                End::Quote(l) => format!("a closing '{}'", written(l)),
                                End::Line => "the end of the line".into(),
                            },
                            at + 1
                        ));
                    };
                    let value = &rest[..len];
                    if *kind == Kind::Addresses
                        && memchr::memchr(b' ', value).is_some()
                        && !address_list(value)
                    {
                        return Err(format!(
                            "expected {name} at column {} to be an address or a list of them, found '{}'",
                            at + 1,
                            shown(value)
                        ));
                    }
                    if *kind == Kind::Word && memchr::memchr(b' ', value).is_some() {
                        return Err(format!(
                            "expected {name} at column {} to be one word, found '{}'",
                            at + 1,
                            shown(value)
                        ));
                    }
                    // The line's first value, ended by a space (the client's address) or a
                    // separator (`%v:%p`'s colon, a CSV's comma), is one word: a prefix before
                    // it (a container's time, a pod), or half the line, is not read into it.
                    if at == 0
                        && *kind == Kind::Plain
                        && matches!(end, End::Before(..))
                        && memchr::memchr(b' ', value).is_some()
                    {
                        return Err(format!(
                            "expected {name} at column 1 to be one word, found '{}' (a prefix before the server's line? see --envelope)",
                            shown(value)
                        ));
                    }
                    match kind {
                        // (An unquoted request line was not searched: its path is looked at.)
                        Kind::Request => {
                            request(value, escaped || !matches!(end, End::Quote(..)), out)
                        }
                        _ if escaped => out.push_with(|data| unescape(value, data)),
                        _ => out.push(value),
                    }
                    // (and the closing quote of a variable that owns its quotes)
                    at += len + usize::from(BARE && *owns);
                }
            }
        }
        if at != line.len() && !(self.trailing && line[at] == b' ') {
            return Err(format!(
                "expected the line to end at column {}, found '{}'",
                at + 1,
                shown(&line[at..])
            ));
        }
        Ok(at)
    }
}

/// The steps that read `items`, the variables marked in `quoted` owning their quotes (read
/// `"..."` or a bare `-`; the literals beside them without those quotes).
fn steps(items: &[Item], quoted: &[bool]) -> (Vec<Step>, Vec<Option<Opening>>) {
    // The literals without the quotes their variables own.
    let lits: Vec<Vec<u8>> = items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Item::Lit(l) => {
                let from = usize::from(i > 0 && quoted[i - 1]);
                let to = l.len() - usize::from(quoted.get(i + 1) == Some(&true));
                l[from..to].to_vec()
            }
            Item::Var(_) => Vec::new(),
        })
        .collect();
    // How the quoted variable at `i` (if it is one) opens.
    let opening = |i: usize| {
        quoted.get(i).is_some_and(|q| *q).then(|| Opening {
            close: lits.get(i + 1).cloned().unwrap_or_default(),
        })
    };
    let mut steps = Vec::new();
    let mut openings = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Lit(_) if lits[i].is_empty() => {}
            Item::Lit(_) => {
                steps.push(Step::Lit(lits[i].clone()));
                openings.push(None);
            }
            Item::Var(v) => {
                let after_quote = matches!(
                    i.checked_sub(1).map(|p| &items[p]),
                    Some(Item::Lit(l)) if l.ends_with(b"\"")
                );
                let end = match items.get(i + 1) {
                    None => End::Line,
                    Some(Item::Lit(_)) if quoted[i] => {
                        End::Quote([b"\"", &lits[i + 1][..]].concat())
                    }
                    Some(Item::Lit(l)) if after_quote && l.starts_with(b"\"") => {
                        End::Quote(lits[i + 1].clone())
                    }
                    Some(Item::Lit(_)) => End::Before(lits[i + 1].clone()),
                    Some(Item::Var(_)) => unreachable!("joined: no two variables in a row"),
                };
                steps.push(Step::Var {
                    end,
                    kind: v.kind,
                    name: v.name.clone(),
                    quoted: quoted[i],
                });
                openings.push(opening(i + 2));
            }
        }
    }
    (steps, openings)
}

/// Which of `items` (joined: no two literals or variables in a row) own the quotes around
/// them: a variable between a literal ending in `"` and one starting with it, when the
/// literals keep a byte each without those quotes where another variable is beyond them
/// (`$a"$b"` is read as before: `$a`'s value ends at the quote).
fn owned_quotes(items: &[Item]) -> Vec<bool> {
    let mut owned = vec![false; items.len()];
    for i in 0..items.len() {
        let (Some(Item::Lit(open)), Item::Var(_), Some(Item::Lit(close))) = (
            i.checked_sub(1).map(|p| &items[p]),
            &items[i],
            items.get(i + 1),
        ) else {
            continue;
        };
        let shared = usize::from(i >= 2 && owned[i - 2]);
        owned[i] = open.ends_with(b"\"")
            && close.starts_with(b"\"")
            && (i == 1 || open.len() > 1 + shared)
            && (i + 2 == items.len() || close.len() > 1);
    }
    owned
}

/// The length of a value that ends where the literal `needle` is next found; a multi-value
/// runs on over `, ` and ` : `. The literal's first byte is looked for with `memchr` and the
/// rest compared: the literals are short and their first byte rare in the value before them,
/// where a `memmem` search costs more to start than it saves.
///
/// `then`: whether what may follow the literal does (the opening of a quoted variable, in the
/// bare-dash steps; always, in the first reading). Generic and `#[inline]`, not
/// `#[inline(always)]`: each reading's copy is optimised on its own, its `then` folded away
/// in the first reading's, before LLVM inlines it, as it was before the bare-dash steps.
/// Forced inline, the helpers are inlined unoptimised into the steps' loop and optimised
/// with it: the loop then spills and reloads its state around them (callgrind counts a few
/// percent more instructions a line of nginx).
#[inline]
fn before(needle: &[u8], rest: &[u8], kind: Kind, then: impl Fn(&[u8]) -> bool) -> Option<usize> {
    let multi = matches!(kind, Kind::Multi | Kind::Addresses) && needle[0] == b' ';
    let mut from = 0;
    loop {
        let end = from + find_byte(needle[0], &rest[from..])?;
        if !starts(&rest[end..], needle)
            || (multi && continues(rest, end, kind))
            || !then(&rest[end + needle.len()..])
        {
            from = end + 1;
            continue;
        }
        return Some(end);
    }
}

/// `hay` starts with `lit`, compared in line: the literals are a few bytes, for which a call
/// to `memcmp` (what `starts_with` becomes) was 17% of the time of reading an nginx log.
#[inline(always)]
fn starts(hay: &[u8], lit: &[u8]) -> bool {
    hay.len() >= lit.len() && hay.iter().zip(lit).all(|(a, b)| a == b)
}

/// The first `byte` in `hay`: the first 16 bytes one by one (most values are shorter, and
/// `memchr`'s setup costs more than it saves on them), then `memchr`.
#[inline(always)]
fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    let head = hay.len().min(16);
    match hay[..head].iter().position(|&b| b == byte) {
        Some(i) => Some(i),
        None if head == hay.len() => None,
        None => memchr::memchr(byte, &hay[head..]).map(|i| head + i),
    }
}

/// At `rest[space]`, a space inside a multi-value: after a `,`, or around a `:`; in a list of
/// addresses, after a `,`, or between two words that are each an address.
#[inline]
fn continues(rest: &[u8], space: usize, kind: Kind) -> bool {
    if kind == Kind::Addresses {
        let word_before = rest[..space]
            .rsplit(|&b| b == b' ')
            .next()
            .unwrap_or_default();
        let word_after = rest[space + 1..]
            .split(|&b| b == b' ')
            .next()
            .unwrap_or_default();
        return (space > 0 && rest[space - 1] == b',')
            || (is_address(word_before) && is_address(word_after));
    }
    (space > 0 && matches!(rest[space - 1], b',' | b':'))
        || rest.get(space + 1..space + 3) == Some(b": ")
}

/// A word of an address list: an IPv4 or IPv6 address (with a `%zone`), `localhost`, `unix:`
/// or a dotted host name; quotes around the list and commas between its words left out.
fn is_address(word: &[u8]) -> bool {
    let word = word.trim_ascii();
    let word = word.strip_prefix(b"\"").unwrap_or(word);
    let word = word.strip_suffix(b",").unwrap_or(word);
    let word = word.strip_suffix(b"\"").unwrap_or(word);
    let word = word.strip_suffix(b",").unwrap_or(word);
    if word.is_empty() || word == b"-" {
        return false;
    }
    let (addr, zone) = match memchr::memchr(b'%', word) {
        Some(i) => (&word[..i], &word[i + 1..]),
        None => (word, &b""[..]),
    };
    let ipv4 = addr.iter().all(|b| b.is_ascii_digit() || *b == b'.')
        && addr.iter().filter(|&&b| b == b'.').count() == 3;
    let ipv6 = addr.contains(&b':')
        && addr
            .iter()
            .all(|b| b.is_ascii_hexdigit() || *b == b':' || *b == b'.');
    // A name: `localhost`, `unix:` (a Unix socket's client), or a dotted host name; a plain
    // word (`alice`) may be the identd or user field after the list, never part of it.
    let host = word == b"unix:"
        || word == b"localhost"
        || (addr.first().is_some_and(u8::is_ascii_alphabetic)
            && addr.contains(&b'.')
            && addr
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')));
    (ipv4 || ipv6 || host) && zone.iter().all(u8::is_ascii_alphanumeric)
}

/// A value of several words that is a list of addresses, every word one.
fn address_list(value: &[u8]) -> bool {
    value
        .split(|&b| b == b' ')
        .filter(|w| !w.is_empty())
        .all(is_address)
}

/// The length of a quoted value: up to the first quote not escaped by a backslash that
/// `lit` (starting with the quote) follows, and then the `opening` of a quoted variable.
/// (`then` and `#[inline]` as for [`before`].)
#[inline]
fn quoted(
    rest: &[u8],
    lit: &[u8],
    escaped: &mut bool,
    then: impl Fn(&[u8]) -> bool,
) -> Option<usize> {
    let mut at = 0;
    loop {
        let i = at + memchr::memchr2(b'"', b'\\', &rest[at..])?;
        if rest[i] == b'\\' {
            *escaped = true;
            at = i + 2;
            if at > rest.len() {
                return None;
            }
            continue;
        }
        if starts(&rest[i..], lit) && then(&rest[i + lit.len()..]) {
            return Some(i);
        }
        at = i + 1;
    }
}

/// A request line as three fields: method, path (the rest but the last word when that is a
/// protocol) and protocol; `-` or a line without a space is all method. `escaped`: the value
/// may hold a backslash (else its path is not searched for one).
#[inline]
fn request(value: &[u8], escaped: bool, out: &mut Fields) {
    let Some(first) = memchr::memchr(b' ', value) else {
        out.push(value);
        out.push(b"");
        out.push(b"");
        return;
    };
    let method = &value[..first];
    let rest = &value[first + 1..];
    let (path, protocol) = match memchr::memrchr(b' ', rest) {
        Some(last) if rest[last + 1..].starts_with(b"HTTP/") => (&rest[..last], &rest[last + 1..]),
        _ => (rest, &b""[..]),
    };
    out.push(method);
    if escaped && memchr::memchr(b'\\', path).is_some() {
        out.push_with(|data| unescape(path, data));
    } else {
        out.push(path);
    }
    out.push(protocol);
}

/// Undoes the servers' escapes: `\xHH` (nginx), `\"`, `\\`, `\n`, `\t` (Apache); any other
/// backslash stays.
fn unescape(value: &[u8], data: &mut Vec<u8>) {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b != b'\\' || i + 1 == value.len() {
            data.push(b);
            i += 1;
            continue;
        }
        match value[i + 1] {
            b'x' => match (
                value.get(i + 2).and_then(|&b| hex(b)),
                value.get(i + 3).and_then(|&b| hex(b)),
            ) {
                (Some(h), Some(l)) => {
                    data.push(h << 4 | l);
                    i += 4;
                }
                _ => {
                    data.push(b);
                    i += 1;
                }
            },
            c @ (b'"' | b'\\') => {
                data.push(c);
                i += 2;
            }
            b'n' => {
                data.push(b'\n');
                i += 2;
            }
            b't' => {
                data.push(b'\t');
                i += 2;
            }
            _ => {
                data.push(b);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_lists() {
        for word in [
            &b"10.0.0.2,"[..],
            b"\"10.5.102.222,",
            b"204.246.1.1\"",
            b"2a02:cf40:add:4002:91f2:a9b2:e09a:6fc6,",
            b"fe80::d9e3:e981:da2d:427b%3",
            b"localhost,",
            b"unix:",
            b"proxy-1.internal",
        ] {
            assert!(is_address(word), "{}", String::from_utf8_lossy(word));
        }
        for word in [
            &b"-"[..],
            b"alice",
            b"[07/Dec/2026:11:05:07",
            b"10.0.0",
            b"",
        ] {
            assert!(!is_address(word), "{}", String::from_utf8_lossy(word));
        }
        assert!(address_list(b"\"10.5.1.2, 199.96.1.1\" 10.2.1.185"));
        assert!(!address_list(b"10.0.0.1 alice"));
    }

    fn lit(s: &str) -> Item {
        Item::Lit(s.as_bytes().to_vec())
    }

    fn split(t: &Template, line: &str) -> Result<Vec<String>, String> {
        let mut out = Fields::default();
        t.split(line.as_bytes(), &mut out)?;
        Ok((0..out.len())
            .map(|i| String::from_utf8_lossy(out.get(i).unwrap()).into_owned())
            .collect())
    }

    #[test]
    fn quotes_multi_values_and_requests() {
        let t = Template::new(vec![
            Item::Var(Var::plain("a")),
            lit(" ["),
            Item::Var(Var::plain("t")),
            lit("] \""),
            Item::Var(Var {
                name: "request".into(),
                kind: Kind::Request,
            }),
            lit("\" \""),
            Item::Var(Var::plain("ua")),
            lit("\" "),
            Item::Var(Var {
                name: "upstream_status".into(),
                kind: Kind::Multi,
            }),
            lit(" "),
            Item::Var(Var::plain("id")),
        ])
        .unwrap();
        assert_eq!(
            t.names(),
            [
                "a",
                "t",
                "request_method",
                "request_uri",
                "server_protocol",
                "ua",
                "upstream_status",
                "id"
            ]
        );
        assert_eq!(
            split(
                &t,
                r#"1.2.3.4 [01/Nov/2026:00:00:01 +0000] "POST /a b HTTP/1.1" "Mozilla/5.0 (X; \"q\" \x22r\x22)" 504, 200 x1"#
            )
            .unwrap(),
            [
                "1.2.3.4",
                "01/Nov/2026:00:00:01 +0000",
                "POST",
                "/a b",
                "HTTP/1.1",
                r#"Mozilla/5.0 (X; "q" "r")"#,
                "504, 200",
                "x1"
            ]
        );
        // An escaped path is unescaped; a plain one next to an escaped user agent is not.
        let fields = split(&t, r#"- [x] "POST /a\x22b HTTP/1.1" "q\x22" 200 x"#).unwrap();
        assert_eq!(fields[3], r#"/a"b"#);
        assert_eq!(fields[5], r#"q""#);
        let fields = split(&t, r#"- [x] "POST /a\b HTTP/1.1" "q\x22" 200 x"#).unwrap();
        assert_eq!(fields[3], r#"/a\b"#, "a backslash before no escape stays");
        let fields = split(&t, r#"- [x] "-" "" 502 : 200 - "#);
        assert!(fields.is_err(), "the last value has a space after it");
        let fields = split(&t, r#"- [x] "-" "" 502 : 200 -"#).unwrap();
        assert_eq!(fields[2..5], ["-", "", ""]);
        assert_eq!(fields[6], "502 : 200");
        let err = split(&t, "1.2.3.4 01/Nov").unwrap_err();
        assert!(err.contains("expected ' ['"), "{err}");
    }

    /// combined's quoted referer, user agent and request take a bare `-` (Traefik's older
    /// CLF writes the missing referer so); a `-` that begins a value is no bare `-`, and a
    /// field with neither its quote nor a bare `-` is not read.
    #[test]
    fn a_quoted_variable_takes_a_bare_dash() {
        let combined = crate::logs::formats::nginx::COMBINED;
        let f = crate::logs::formats::nginx::compile(combined).unwrap();
        let split = |line: &str| {
            let mut out = Fields::default();
            f.split(line.as_bytes(), &mut out).map(|_| {
                (0..out.len())
                    .map(|i| String::from_utf8_lossy(out.get(i).unwrap()).into_owned())
                    .collect::<Vec<_>>()
            })
        };
        let t = "1.2.3.4 - - [01/Nov/2026:10:00:01 +0000]";
        let fields = split(&format!(r#"{t} "POST /a HTTP/1.1" 200 5 - "x - y""#)).unwrap();
        assert_eq!(fields[8..], ["-", "x - y"]);
        let fields = split(&format!(r#"{t} "GET / HTTP/1.1" 200 5 "-x" -"#)).unwrap();
        assert_eq!(fields[8..], ["-x", "-"]);
        let fields = split(&format!(r#"{t} - 400 0 - -"#)).unwrap();
        assert_eq!(fields[3..6], ["-", "", ""]);
        assert_eq!(fields[8..], ["-", "-"]);
        // The quoted form reads as before: a `-` inside quotes, a quote inside a value.
        let fields = split(&format!(r#"{t} "GET / HTTP/1.1" 200 5 "-" "a \"-\" b""#)).unwrap();
        assert_eq!(fields[8..], ["-", r#"a "-" b"#]);
        for bad in [
            format!(r#"{t} "GET / HTTP/1.1" 200 5 -x "ua""#),
            format!(r#"{t} "GET / HTTP/1.1" 200 5 x "ua""#),
            format!(r#"{t} "GET / HTTP/1.1" 200 5 - ua"#),
            format!(r#"{t} "GET / HTTP/1.1" 200 5 - - more"#),
        ] {
            assert!(split(&bad).is_err(), "{bad}");
        }
        let err = split(&format!(r#"{t} "GET / HTTP/1.1" 200 5 - ua"#)).unwrap_err();
        assert!(
            err.contains("expected '\"' (or a bare '-') before http_user_agent at column 67"),
            "{err}"
        );
        // A refusal names the literal with its quote, as the format string writes it.
        let err = split(&format!("{t} GET / HTTP/1.1 200 5")).unwrap_err();
        assert!(err.contains(r#"expected '] "' after time_local"#), "{err}");
    }

    /// A quoted variable right after another variable (`$a"$b"`) keeps its quotes in the
    /// literals: `$a` ends at the quote, as before.
    #[test]
    fn quotes_next_to_a_variable_stay_literals() {
        let t = Template::new(vec![
            Item::Var(Var::plain("a")),
            lit("\""),
            Item::Var(Var::plain("b")),
            lit("\" "),
            Item::Var(Var::plain("c")),
        ])
        .unwrap();
        assert_eq!(split(&t, r#"x"y z" w"#).unwrap(), ["x", "y z", "w"]);
        assert!(split(&t, "x- w").is_err());
    }

    #[test]
    fn adjacent_variables_are_refused() {
        let err = Template::new(vec![Item::Var(Var::plain("a")), Item::Var(Var::plain("b"))])
            .unwrap_err();
        assert!(err.contains("a and b"), "{err}");
    }
}
