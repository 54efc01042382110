//! AWS API Gateway access logs in the text layouts AWS documents for a stage's access log
//! format (CLF, CSV, XML; the JSON layout is read as JSON lines, by `sources.rs`), and any
//! layout of `$context` variables given with `--log-format`.
//!
//! A `$context.NAME` variable gives a field named `NAME` (`$context.identity.sourceIp` →
//! `identity.sourceIp`), mapped to roles as the JSON layout's keys are: `requestId` the
//! request id, `httpMethod`, `resourcePath` / `routeKey` / `path`, `status`, `requestTime`
//! (CLF time) or `requestTimeEpoch` (ms), `responseLatency` / `integrationLatency` (ms) the
//! duration, `integration.status` / `integrationStatus` the backend's answer, and a logged
//! `requestOverride.header.Idempotency-Key` the key. A quoted
//! `"$context.httpMethod $context.resourcePath $context.protocol"` is read as a request line.
//! An HTTP API's `routeKey` holds the method (`POST /orders/{id}`): the row takes the path
//! after it, and names `$default` as it is (`without_method` in `row/mod.rs`).
//! The XML layout (`<request id="..."> <ip>...</ip> ... </request>`) is read by its tags, in
//! the order the first line has them, whatever the spaces between them.
//!
//! API Gateway answers 504 ("Endpoint request timed out") when its integration did not answer
//! in time (29 s by default): the client got no result, and the backend may still finish, so
//! it is a give-up with an unknown outcome unless `integration.status` or the backend's own
//! log (`--outcomes`) says otherwise.

use super::entry::{Detect, FormatEntry, Reading, Sample, Told};
use super::sources::Platform;
use super::template::{Item, Kind, Template, TemplateFormat, Var};
use super::{Fields, LineFormat};
use crate::logs::error::shown;
use crate::logs::role::Role;

/// The REST API console's CLF example as AWS documents it today (no space before the quote,
/// `$context.extendedRequestId` last).
pub const REST_CLF: &str = r#"$context.identity.sourceIp $context.identity.caller $context.identity.user [$context.requestTime]"$context.httpMethod $context.resourcePath $context.protocol" $context.status $context.responseLength $context.requestId $context.extendedRequestId"#;
/// The same with a space before the quote (the example joined from its continued lines).
pub const REST_CLF_SPACED: &str = r#"$context.identity.sourceIp $context.identity.caller $context.identity.user [$context.requestTime] "$context.httpMethod $context.resourcePath $context.protocol" $context.status $context.responseLength $context.requestId $context.extendedRequestId"#;
/// The REST API's earlier CLF example (no `$context.extendedRequestId`).
pub const REST_CLF_EARLIER: &str = r#"$context.identity.sourceIp $context.identity.caller $context.identity.user [$context.requestTime] "$context.httpMethod $context.resourcePath $context.protocol" $context.status $context.responseLength $context.requestId"#;
/// The HTTP API's CLF example (its default): the route key, not the resource path.
pub const HTTP_CLF: &str = r#"$context.identity.sourceIp - - [$context.requestTime] "$context.httpMethod $context.routeKey $context.protocol" $context.status $context.responseLength $context.requestId"#;
/// The REST API console's CSV example, today's (with `$context.extendedRequestId`).
pub const REST_CSV: &str = "$context.identity.sourceIp,$context.identity.caller,$context.identity.user,$context.requestTime,$context.httpMethod,$context.resourcePath,$context.protocol,$context.status,$context.responseLength,$context.requestId,$context.extendedRequestId";
/// The REST API's earlier CSV example.
pub const REST_CSV_EARLIER: &str = "$context.identity.sourceIp,$context.identity.caller,$context.identity.user,$context.requestTime,$context.httpMethod,$context.resourcePath,$context.protocol,$context.status,$context.responseLength,$context.requestId";
/// The HTTP API's CSV example.
pub const HTTP_CSV: &str = "$context.identity.sourceIp,$context.requestTime,$context.httpMethod,$context.routeKey,$context.protocol,$context.status,$context.responseLength,$context.requestId";

/// The text presets as (name, layout, description), most particular first.
pub const PRESETS: [(&str, &str, &str); 7] = [
    (
        "apigateway-clf",
        REST_CLF,
        "AWS API Gateway access log (CLF)",
    ),
    (
        "apigateway-clf-spaced",
        REST_CLF_SPACED,
        "AWS API Gateway access log (CLF)",
    ),
    (
        "apigateway-clf-earlier",
        REST_CLF_EARLIER,
        "AWS API Gateway access log (CLF)",
    ),
    (
        "apigateway-http-clf",
        HTTP_CLF,
        "AWS API Gateway HTTP API access log (CLF)",
    ),
    (
        "apigateway-csv",
        REST_CSV,
        "AWS API Gateway access log (CSV)",
    ),
    (
        "apigateway-csv-earlier",
        REST_CSV_EARLIER,
        "AWS API Gateway access log (CSV)",
    ),
    (
        "apigateway-http-csv",
        HTTP_CSV,
        "AWS API Gateway HTTP API access log (CSV)",
    ),
];

/// What a layout of `$context` variables that is no preset is called.
const CUSTOM: &str = "AWS API Gateway $context layout";

/// A `--log-format` that is API Gateway's: a preset's name or `$context.` variables.
pub fn is_apigateway(text: &str) -> bool {
    let t = text.trim();
    PRESETS.iter().any(|(n, ..)| *n == t) || t == "apigateway-xml" || t.contains("$context.")
}

/// A preset's name or a layout of `$context` variables (an XML one included), compiled.
pub fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    let text = text.trim();
    if text == "apigateway-xml" {
        return Ok(Box::new(Xml::documented()));
    }
    if let Some((_, body, description)) = PRESETS.iter().find(|(n, ..)| *n == text) {
        return Ok(Box::new(build(body, description)?));
    }
    if text.starts_with("<request") {
        return Xml::from_layout(text).map(|f| Box::new(f) as Box<dyn LineFormat>);
    }
    let description = PRESETS
        .iter()
        .find(|(_, body, _)| *body == text)
        .map_or(CUSTOM, |(.., d)| d);
    Ok(Box::new(build(text, description)?))
}

fn build(body: &str, description: &str) -> Result<TemplateFormat, String> {
    let template = Template::new(items(body)?)?;
    let names = template.names();
    Ok(TemplateFormat {
        template,
        description: description.to_string(),
        hints: Platform::ApiGateway.hints(&names),
    })
}

/// The presets (and the XML layout) that read the first lines, their request ids looking like
/// API Gateway's, most particular first.
pub fn sniff(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    let first = lines.first()?;
    if first.trim_ascii_start().starts_with(b"<request") {
        let xml = Xml::from_lines(lines)?;
        return (super::reads(&xml, lines) >= 0.8).then(|| Box::new(xml) as Box<dyn LineFormat>);
    }
    // Every preset's first field is the client's address: a digit or an IPv6 address.
    if !first
        .first()
        .is_some_and(|b| b.is_ascii_hexdigit() || *b == b':')
    {
        return None;
    }
    let mut fields = Fields::default();
    PRESETS
        .iter()
        .zip(&COMPILED)
        .filter_map(|((name, body, description), compiled)| {
            let f = compiled
                .get_or_init(|| build(body, description).ok())
                .as_ref()?;
            Some((name.contains("http"), f))
        })
        .find(|(http, f)| {
            let Some(id) = f.template.names().iter().position(|n| n == "requestId") else {
                return false;
            };
            let ok = lines
                .iter()
                .filter(|l| {
                    fields.clear();
                    f.split(l, &mut fields).is_ok()
                        && fields
                            .get(id)
                            .is_some_and(|v| looks_like_request_id(v, *http))
                })
                .count();
            ok * 5 >= lines.len() * 4
        })
        .map(|(_, f)| Box::new(f.clone()) as Box<dyn LineFormat>)
}

/// Each preset compiled once a process, when detection first tries it: detection tries them on
/// every file, and on every line of a file whose lines change format, in order until one
/// reads the lines (so a file of the first preset compiles no other).
static COMPILED: [std::sync::OnceLock<Option<TemplateFormat>>; PRESETS.len()] =
    [const { std::sync::OnceLock::new() }; PRESETS.len()];

/// A REST API's request id (a UUID, `_REPLACED_INVALID_REQUEST_ID` after a client's id that
/// was not one) or, `http`, an HTTP API's (`Fd8E2jYtIAMESzQ=`): what tells API Gateway's CLF
/// from an Apache common line with a field appended, and a REST API's from an HTTP API's.
fn looks_like_request_id(id: &[u8], http: bool) -> bool {
    let uuid = id.len() >= 36
        && (id.len() == 36 || id[36..] == *b"_REPLACED_INVALID_REQUEST_ID")
        && id[..36].iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        });
    let short = (12..=24).contains(&id.len())
        && id.ends_with(b"=")
        && id[..id.len() - 1]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-'));
    if http { short } else { uuid }
}

/// A layout's literals and `$context.NAME` variables; a quoted method, path and protocol
/// become one request line.
fn items(body: &str) -> Result<Vec<Item>, String> {
    const VAR: &str = "$context.";
    let mut items = Vec::new();
    let mut lit = String::new();
    let mut rest = body;
    while let Some(i) = rest.find(VAR) {
        lit.push_str(&rest[..i]);
        let after = &rest[i + VAR.len()..];
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(after.len());
        let name = after[..len].trim_end_matches('.');
        if name.is_empty() {
            return Err(format!(
                "'$context.' at column {} names no variable",
                body.len() - rest.len() + i + 1
            ));
        }
        if !lit.is_empty() {
            items.push(Item::Lit(std::mem::take(&mut lit).into_bytes()));
        }
        items.push(Item::Var(Var::plain(name)));
        rest = &after[name.len()..];
    }
    lit.push_str(rest);
    if !lit.is_empty() {
        items.push(Item::Lit(lit.into_bytes()));
    }
    if !items.iter().any(|i| matches!(i, Item::Var(_))) {
        return Err("no $context variables in it".into());
    }
    Ok(fold_request(items))
}

/// `"$context.httpMethod $context.resourcePath $context.protocol"` (or the route key, or the
/// path) as one request line: the route key itself holds a space (`POST /orders`).
fn fold_request(mut items: Vec<Item>) -> Vec<Item> {
    let var =
        |i: &Item, names: &[&str]| matches!(i, Item::Var(v) if names.contains(&v.name.as_str()));
    let lit = |i: &Item, f: &dyn Fn(&[u8]) -> bool| matches!(i, Item::Lit(l) if f(l));
    let mut j = 1;
    while j + 5 < items.len() + 1 {
        let found = j + 5 <= items.len()
            && lit(&items[j - 1], &|l| l.ends_with(b"\""))
            && var(&items[j], &["httpMethod"])
            && lit(&items[j + 1], &|l| l == b" ")
            && var(&items[j + 2], &["resourcePath", "routeKey", "path"])
            && lit(&items[j + 3], &|l| l == b" ")
            && var(&items[j + 4], &["protocol"])
            && items
                .get(j + 5)
                .is_some_and(|i| lit(i, &|l| l.starts_with(b"\"")));
        if found {
            items.splice(
                j..j + 5,
                [Item::Var(Var {
                    name: "request".into(),
                    kind: Kind::Request,
                })],
            );
        }
        j += 1;
    }
    items
}

/// The XML layout: `<request id="$context.requestId">`, then one element a variable, in the
/// order of the first line, any spaces between them.
#[derive(Debug)]
pub struct Xml {
    /// `requestId` (the `id` attribute) when the layout has it, then the elements' tags.
    names: Vec<String>,
    /// The layout has the `id` attribute.
    id: bool,
}

impl Xml {
    /// The REST API console's XML example, today's.
    fn documented() -> Xml {
        let tags = [
            "extendedRequestId",
            "ip",
            "caller",
            "user",
            "requestTime",
            "httpMethod",
            "resourcePath",
            "status",
            "protocol",
            "responseLength",
        ];
        Xml {
            names: std::iter::once("requestId")
                .chain(tags)
                .map(String::from)
                .collect(),
            id: true,
        }
    }

    /// The tags of a layout written with `$context` variables (or of a line).
    fn from_layout(text: &str) -> Result<Xml, String> {
        Xml::tags(text.as_bytes())
    }

    /// The layout of the first line that has one (its tags), if any.
    pub fn from_lines(lines: &[&[u8]]) -> Option<Xml> {
        lines.iter().find_map(|l| Xml::tags(l).ok())
    }

    /// `<request id="…">` and the tags after it, in order.
    fn tags(line: &[u8]) -> Result<Xml, String> {
        let mut names = Vec::new();
        let mut id = false;
        let mut scratch = Fields::default();
        let mut at = open(line, &mut id, &mut scratch)?;
        if id {
            names.push("requestId".to_string());
        }
        loop {
            at = skip_spaces(line, at);
            if line[at..].starts_with(b"</request>") {
                break;
            }
            let (tag, _, next) = element(line, at)?;
            names.push(String::from_utf8_lossy(tag).into_owned());
            at = next;
        }
        if names.is_empty() {
            return Err("no elements in <request>".into());
        }
        Ok(Xml { names, id })
    }
}

/// `<request>` or `<request id="VALUE">` at the line's start (the id pushed to `out`): where
/// its elements begin.
fn open(line: &[u8], id: &mut bool, out: &mut Fields) -> Result<usize, String> {
    let at = skip_spaces(line, 0);
    let rest = &line[at..];
    if let Some(r) = rest.strip_prefix(b"<request id=\"") {
        let end = memchr::memchr(b'"', r).ok_or("expected the closing '\"' of <request id=")?;
        if !r[end + 1..].starts_with(b">") {
            return Err(format!(
                "expected '>' after <request id=\"…\" at column {}",
                at + 13 + end + 2
            ));
        }
        out.push(&r[..end]);
        *id = true;
        Ok(at + 13 + end + 2)
    } else if rest.starts_with(b"<request>") {
        Ok(at + 9)
    } else {
        Err(format!(
            "expected '<request' at column {}, found '{}'",
            at + 1,
            shown(rest)
        ))
    }
}

fn skip_spaces(line: &[u8], mut at: usize) -> usize {
    while line.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// `<TAG>VALUE</TAG>` at `at`: the tag, the value and where the element ends.
fn element(line: &[u8], at: usize) -> Result<(&[u8], &[u8], usize), String> {
    let rest = &line[at..];
    let Some(r) = rest.strip_prefix(b"<") else {
        return Err(format!(
            "expected '<' or '</request>' at column {}, found '{}'",
            at + 1,
            shown(rest)
        ));
    };
    let close = memchr::memchr(b'>', r).ok_or_else(|| {
        format!(
            "expected '>' closing the tag at column {}, found the end of the line",
            at + 1
        )
    })?;
    let tag = &r[..close];
    if tag.is_empty() || tag.iter().any(|b| matches!(b, b'/' | b' ' | b'<')) {
        return Err(format!(
            "expected an element's tag at column {}, found '{}'",
            at + 2,
            shown(tag)
        ));
    }
    let value_at = at + 1 + close + 1;
    let body = &line[value_at..];
    let end = memchr::memmem::find(body, b"</")
        .filter(|e| body[e + 2..].starts_with(tag) && body.get(e + 2 + tag.len()) == Some(&b'>'))
        .ok_or_else(|| {
            format!(
                "expected '</{}>' after column {}",
                String::from_utf8_lossy(tag),
                value_at + 1
            )
        })?;
    Ok((tag, &body[..end], value_at + end + 2 + tag.len() + 1))
}

impl LineFormat for Xml {
    fn describe(&self) -> String {
        "AWS API Gateway access log (XML)".into()
    }

    fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    fn hints(&self) -> super::FormatHints {
        Platform::ApiGateway.hints(&self.names)
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        let mut id = false;
        let mut at = open(line, &mut id, out)?;
        if id != self.id {
            return Err(if self.id {
                "expected <request id=\"…\"> as the first line has it".into()
            } else {
                "expected <request> without an id, as the first line has it".into()
            });
        }
        for name in &self.names[usize::from(self.id)..] {
            at = skip_spaces(line, at);
            let (tag, value, next) = element(line, at)?;
            if tag != name.as_bytes() {
                return Err(format!(
                    "expected <{name}> at column {}, found <{}> (the first line's elements, in its order)",
                    at + 1,
                    shown(tag)
                ));
            }
            out.push(value);
            at = next;
        }
        at = skip_spaces(line, at);
        if !line[at..].starts_with(b"</request>") || !line[at + 10..].trim_ascii().is_empty() {
            return Err(format!(
                "expected '</request>' to end the line at column {}, found '{}'",
                at + 1,
                shown(&line[at..])
            ));
        }
        Ok(())
    }
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "apigateway",
    named: false,
    describe: "(no flag: told by auto, or given with `--log-format`) AWS API Gateway's text layouts: CLF, CSV, XML; its JSON is JSON lines",
    // Before the CLF formats its own CLF resembles.
    detect: Some(Detect {
        order: 50,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Auto,
    candidates: |_| super::entry::presets(&PRESETS, compile),
    looks: None,
    compile: Some(compile),
    told: Some(Told {
        order: 30,
        is: is_apigateway,
    }),
    flags: &[],
    samples: &[
        Sample {
            name: "CLF",
            lines: r#"10.0.0.7 - - [01/Nov/2026:00:57:31 +0000]"POST /v1/orders/7565792/capture HTTP/1.1" 200 1128 78dde6e5-fd29-4f05-a054-78dde6e5fd29 78dde6e5fd29f05=
10.0.0.7 - - [01/Nov/2026:00:59:47 +0000]"GET /v1/catalog?page=46 HTTP/1.1" 200 3398 1715609f-7c74-46c6-ac69-1715609f7c74 1715609f7c746c6="#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:00:59:47 +0000"),
                (Role::Method, "GET"),
                (Role::Path, "/v1/catalog?page=46"),
                (Role::Status, "200"),
            ],
            gave_up: None,
        },
        Sample {
            name: "CSV",
            lines: "10.0.0.7,-,-,01/Nov/2026:00:57:31 +0000,POST,/v1/orders/7565792/capture,HTTP/1.1,200,1128,78dde6e5-fd29-4f05-a054-78dde6e5fd29,78dde6e5fd29f05=\n\
10.0.0.7,-,-,01/Nov/2026:00:59:47 +0000,GET,/v1/catalog?page=46,HTTP/1.1,200,3398,1715609f-7c74-46c6-ac69-1715609f7c74,1715609f7c746c6=",
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:00:59:47 +0000"),
                (Role::Method, "GET"),
                (Role::Path, "/v1/catalog?page=46"),
                (Role::Status, "200"),
            ],
            gave_up: None,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::formats::ColumnMap;

    fn roles(f: &dyn LineFormat, line: &[u8]) -> Vec<(&'static str, String)> {
        let m = ColumnMap::for_format("a.log", f, &[], None).unwrap();
        let mut out = Fields::default();
        f.split(line, &mut out).unwrap();
        let get = |i: Option<usize>| {
            i.and_then(|i| out.get(i))
                .map_or("(none)".to_string(), |v| String::from_utf8_lossy(v).into())
        };
        vec![
            ("method", get(Some(m.method))),
            ("path", get(m.path)),
            ("status", get(Some(m.status))),
            ("time", get(m.timestamp)),
            ("id", get(m.request_id)),
            ("client", get(m.client_addr)),
        ]
    }

    #[test]
    fn each_documented_layout_is_detected_and_read() {
        let clf = br#"192.0.2.10 - - [01/Nov/2026:10:00:01 +0000]"POST /orders HTTP/1.1" 504 36 c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a Fd8E2jYtIAMESzQ="#;
        let csv = b"192.0.2.10,-,-,01/Nov/2026:10:00:01 +0000,POST,/orders,HTTP/1.1,504,36,c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a,Fd8E2jYtIAMESzQ=";
        let http = br#"192.0.2.10 - - [01/Nov/2026:10:00:01 +0000] "POST POST /orders/{id} HTTP/1.1" 504 36 Fd8E2jYtIAMESzQ="#;
        let xml = br#"<request id="c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a"> <extendedRequestId>Fd8E2jYtIAMESzQ=</extendedRequestId> <ip>192.0.2.10</ip> <caller>-</caller> <user>-</user> <requestTime>01/Nov/2026:10:00:01 +0000</requestTime> <httpMethod>POST</httpMethod> <resourcePath>/orders</resourcePath> <status>504</status> <protocol>HTTP/1.1</protocol> <responseLength>36</responseLength> </request>"#;
        for (line, described, path, id) in [
            (
                &clf[..],
                "AWS API Gateway access log (CLF)",
                "/orders",
                "c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a",
            ),
            (
                &csv[..],
                "AWS API Gateway access log (CSV)",
                "/orders",
                "c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a",
            ),
            (
                &http[..],
                "AWS API Gateway HTTP API access log (CLF)",
                "POST /orders/{id}",
                "Fd8E2jYtIAMESzQ=",
            ),
            (
                &xml[..],
                "AWS API Gateway access log (XML)",
                "/orders",
                "c0a8e0f2-7c1d-4a7e-9f55-0b1f1e2d3c4a",
            ),
        ] {
            let f = sniff(&[line]).unwrap_or_else(|| panic!("{}", shown(line)));
            assert_eq!(f.describe(), described);
            let r = roles(f.as_ref(), line);
            assert_eq!(r[0].1, "POST", "{described}");
            assert_eq!(r[1].1, path, "{described}");
            assert_eq!(r[2].1, "504", "{described}");
            assert_eq!(r[3].1, "01/Nov/2026:10:00:01 +0000", "{described}");
            assert_eq!(r[4].1, id, "{described}");
            assert_eq!(r[5].1, "192.0.2.10", "{described}");
        }
    }

    /// An Apache common line with a number appended is not taken for API Gateway's CLF: its
    /// last field is no request id.
    #[test]
    fn apache_with_a_field_appended_is_not_api_gateway() {
        let line = br#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 1234"#;
        assert!(sniff(&[line]).is_none());
    }

    /// A custom layout of `$context` variables with a logged key: every role by its name.
    #[test]
    fn custom_layout_with_a_key() {
        let f = compile(r#"$context.requestTimeEpoch $context.httpMethod $context.resourcePath $context.status $context.integration.status $context.responseLatency "$context.requestOverride.header.Idempotency-Key" $context.requestId"#).unwrap();
        assert_eq!(f.describe(), "AWS API Gateway $context layout");
        let m = ColumnMap::for_format("a.log", f.as_ref(), &[], None).unwrap();
        let name = |i: Option<usize>| i.map(|i| m.headers[i].as_str());
        assert_eq!(name(m.timestamp), Some("requestTimeEpoch"));
        assert_eq!(name(m.upstream_status), Some("integration.status"));
        assert_eq!(name(m.duration), Some("responseLatency"));
        assert_eq!(
            name(m.idempotency_key),
            Some("requestOverride.header.Idempotency-Key")
        );
        assert_eq!(name(m.request_id), Some("requestId"));
        assert!(compile("$context.").is_err());
        assert!(is_apigateway("apigateway-csv") && !is_apigateway("$status"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any request written in each documented layout (CLF, CSV, XML) is detected and
        /// read back field for field: method, path, status, time, request id, client.
        #[test]
        fn each_layout_reads_back_what_was_written(
            method in proptest::sample::select(vec!["POST", "PUT", "PATCH", "DELETE", "GET"]),
            path in "/[a-z0-9_{}/-]{0,40}",
            status in 100u16..600,
            bytes in 0u32..1_000_000,
            id in proptest::prelude::any::<u128>(),
            ip in proptest::prelude::any::<[u8; 4]>(),
            second in 0u32..60,
        ) {
            let h = format!("{id:032x}");
            let id = format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..]);
            let ip = format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3]);
            let time = format!("01/Nov/2026:10:00:{second:02} +0000");
            let lines = [
                format!(r#"{ip} - - [{time}]"{method} {path} HTTP/1.1" {status} {bytes} {id} Fd8E2jYtIAMESzQ="#),
                format!("{ip},-,-,{time},{method},{path},HTTP/1.1,{status},{bytes},{id},Fd8E2jYtIAMESzQ="),
                format!(r#"<request id="{id}"> <ip>{ip}</ip> <requestTime>{time}</requestTime> <httpMethod>{method}</httpMethod> <resourcePath>{path}</resourcePath> <status>{status}</status> </request>"#),
            ];
            for line in &lines {
                let f = sniff(&[line.as_bytes()]);
                proptest::prop_assert!(f.is_some(), "{}", line);
                let r = roles(f.unwrap().as_ref(), line.as_bytes());
                let want = [method.to_string(), path.clone(), status.to_string(), time.clone(), id.clone(), ip.clone()];
                for ((name, got), want) in r.iter().zip(want) {
                    proptest::prop_assert_eq!(got, &want, "{} in {}", name, line);
                }
            }
        }
    }

    #[test]
    fn xml_elements_in_another_order_or_cut_short_are_bad_rows() {
        let first = br#"<request id="a"> <ip>1</ip> <status>200</status> </request>"#;
        let f = Xml::from_lines(&[first]).unwrap();
        let mut out = Fields::default();
        assert!(f.split(first, &mut out).is_ok());
        for bad in [
            &br#"<request id="a"> <status>200</status> <ip>1</ip> </request>"#[..],
            br#"<request id="a"> <ip>1</ip> <status>200</status>"#,
            br#"<request id="a"> <ip>1</ip> <status>200</stat"#,
            br#"<request> <ip>1</ip> <status>200</status> </request>"#,
            b"<",
        ] {
            out.clear();
            assert!(f.split(bad, &mut out).is_err(), "{}", shown(bad));
        }
    }
}
