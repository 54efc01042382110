//! Apache httpd access logs: a `LogFormat` string (`--log-format`) or one of the presets,
//! `common`, `combined`, `vcombined` and `vhost`.
//!
//! Each `%` directive gives a field named as nginx names the same thing, so one set of
//! aliases serves both: `%h` → `remote_addr`, `%t` → `time_local`, `%r` → `request_method`,
//! `request_uri`, `server_protocol`, `%>s` → `status`, `%b` → `body_bytes_sent`, `%D` →
//! `duration_us` (microseconds), `%T` → `request_time` (seconds), `%{ms}T` → `duration_ms`,
//! `%{Idempotency-Key}i` → `http_idempotency_key`, `%{UNIQUE_ID}e` → `unique_id`.

use super::entry::{Detect, FormatEntry, Reading, Sample, Told};
use super::template::{Compiled, Family, Item, Kind, Var};
use super::{FormatHints, LineFormat};
use crate::logs::role::Role;

pub const COMMON: &str = r#"%h %l %u %t "%r" %>s %b"#;
pub const COMBINED: &str = r#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i""#;
pub const VCOMBINED: &str = r#"%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i""#;
/// combined after the virtual host, without its port: the layout Elastic's and CrowdSec's
/// parsers read for Apache and nginx (`$host $remote_addr - $remote_user ...`).
pub const VHOST: &str = r#"%v %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i""#;

/// The presets, by name, most particular first.
pub const PRESETS: [(&str, &str, &str); 4] = [
    ("vcombined", VCOMBINED, "Apache vcombined"),
    ("vhost", VHOST, "Apache combined after the virtual host"),
    ("combined", COMBINED, "Apache combined"),
    ("common", COMMON, "Apache common"),
];

/// A `--log-format` that is Apache's: `%` directives and no nginx `$variable`.
pub fn is_apache(text: &str) -> bool {
    let t = text.trim();
    PRESETS.iter().any(|(n, ..)| *n == t && *n != "combined")
        || (t.contains('%') && !t.contains('$'))
}

/// Apache's `LogFormat` strings.
static FAMILY: Family = Family {
    presets: &PRESETS,
    items,
    hints: FormatHints::default,
    custom: "Apache LogFormat",
    appended: (
        &["vhost", "combined", "common"],
        "e.g. %D, %{Idempotency-Key}i",
    ),
    compiled: Compiled::new(),
};

/// A preset's name or a `LogFormat` string, compiled. A string pasted from httpd.conf
/// (`LogFormat "%h ... \"%r\" ..." combined`) has its quotes and name dropped.
pub fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    FAMILY.compile(text, unwrap_conf)
}

/// The presets that read the first lines, most particular first; then `combined` or `common`
/// with fields appended (%D, a header), read as the preset, the rest not, as for nginx.
pub fn sniff(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    Family::best_of(FAMILY.presets(), lines).or_else(|| Family::best_of(FAMILY.appended(), lines))
}

/// `LogFormat "%h \"%r\"" name` → `%h "%r"`; a bare string with `\"` has them unescaped.
fn unwrap_conf(text: &str) -> String {
    let mut t = text.trim();
    if let Some(rest) = t.strip_prefix("LogFormat") {
        t = rest.trim();
    }
    if let Some(inner) = t.strip_prefix('"') {
        // Up to the last unescaped quote; a nickname may follow it.
        if let Some(end) = inner.rfind('"') {
            t = &inner[..end];
        }
    }
    t.replace("\\\"", "\"")
}

/// A `LogFormat` string's literals and directives.
fn items(body: &str) -> Result<Vec<Item>, String> {
    let bytes = body.as_bytes();
    let mut items = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            lit.push(bytes[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if bytes.get(i) == Some(&b'%') {
            lit.push(b'%');
            i += 1;
            continue;
        }
        // Conditions (`%400,501{User-agent}i`, `%!200i`) and `<`/`>` (original or final).
        while i < bytes.len()
            && (bytes[i].is_ascii_digit() || matches!(bytes[i], b',' | b'!' | b'<' | b'>'))
        {
            i += 1;
        }
        let arg = if bytes.get(i) == Some(&b'{') {
            let close = body[i..]
                .find('}')
                .ok_or_else(|| format!("'%{{' at column {} is not closed", start + 1))?;
            let arg = &body[i + 1..i + close];
            i += close + 1;
            Some(arg)
        } else {
            None
        };
        let Some(&letter) = bytes.get(i) else {
            return Err(format!("'%' at column {} ends the string", start + 1));
        };
        if !letter.is_ascii() {
            let c = body[i..]
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            return Err(format!("unknown directive '%{c}' at column {}", start + 1));
        }
        i += 1;
        let mut var = directive(letter, arg).ok_or_else(|| {
            format!(
                "unknown directive '{}' at column {}",
                &body[start..i],
                start + 1
            )
        })?;
        // identd's logname is one word; so is the user in a preset, which the lines were
        // told by: read across a space, `%h %l %u` would take a prefix before the client
        // (`example.com 10.0.0.1 - - [...]`, `web-1 apache2: 10.0.0.1 - - [...]`) for the
        // client, its rest for the user. A LogFormat of its own (not a preset's text) reads
        // `%u` as written.
        if letter == b'l' || letter == b'u' && PRESETS.iter().any(|(_, p, _)| *p == body) {
            var.kind = Kind::Word;
        }
        // After the virtual host, a proxy may log the forwarded chain in the client's place
        // (Elastic's nginx samples: `example.com 10.0.0.2, 10.0.0.1 - - [...]`): one value.
        if letter == b'h' && body == VHOST {
            var.kind = Kind::Addresses;
        }
        if !lit.is_empty() {
            items.push(Item::Lit(std::mem::take(&mut lit)));
        }
        if letter == b't' && arg.is_none() {
            // `%t` is written in brackets: `[10/Oct/2000:13:55:36 -0700]`.
            items.push(Item::Lit(b"[".to_vec()));
            items.push(Item::Var(var));
            lit.push(b']');
        } else {
            items.push(Item::Var(var));
        }
    }
    if !lit.is_empty() {
        items.push(Item::Lit(lit));
    }
    Ok(items)
}

/// A header's name as nginx names its variable: `User-Agent` → `user_agent`.
fn snake(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

/// The field a directive gives (`None`: not a directive).
fn directive(letter: u8, arg: Option<&str>) -> Option<Var> {
    let name = match (letter, arg) {
        (b'h' | b'a', _) => "remote_addr".to_string(),
        (b'A', _) => "server_addr".into(),
        (b'l', _) => "remote_logname".into(),
        (b'u', _) => "remote_user".into(),
        (b't', None) => "time_local".into(),
        (b't', Some(_)) => "time".into(),
        (b'r', _) => {
            return Some(Var {
                name: "request".into(),
                kind: Kind::Request,
            });
        }
        (b's', _) => "status".into(),
        (b'b' | b'B', _) => "body_bytes_sent".into(),
        (b'O', _) => "bytes_sent".into(),
        (b'I', _) => "request_length".into(),
        (b'S', _) => "bytes_transferred".into(),
        (b'D', _) => "duration_us".into(),
        (b'T', None | Some("s")) => "request_time".into(),
        (b'T', Some("ms")) => "duration_ms".into(),
        (b'T', Some("us")) => "duration_us".into(),
        (b'm', _) => "request_method".into(),
        (b'U', _) => "uri".into(),
        (b'q', _) => "query_string".into(),
        (b'H', _) => "server_protocol".into(),
        (b'v' | b'V', _) => "server_name".into(),
        (b'p', _) => "server_port".into(),
        (b'P', _) => "pid".into(),
        (b'X', _) => "connection_status".into(),
        (b'k', _) => "keepalive_requests".into(),
        (b'L', _) => "log_id".into(),
        (b'R', _) => "handler".into(),
        (b'f', _) => "filename".into(),
        (b'i', Some(h)) => format!("http_{}", snake(h)),
        (b'o', Some(h)) => format!("sent_http_{}", snake(h)),
        (b'e', Some(e)) => snake(e),
        (b'C', Some(c)) => format!("cookie_{}", snake(c)),
        (b'n', Some(n)) => format!("note_{}", snake(n)),
        (b'^', _) => "trailer".into(),
        _ => return None,
    };
    Some(Var::plain(name))
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "apache",
    named: true,
    describe: "Apache httpd access log: common, combined, vcombined, vhost (combined after the virtual host), or any `LogFormat`",
    detect: Some(Detect {
        order: 90,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Fitting,
    candidates: |_| super::entry::presets(&PRESETS, compile),
    looks: None,
    compile: Some(compile),
    told: Some(Told {
        order: 40,
        is: is_apache,
    }),
    flags: &[],
    samples: &[Sample {
        name: "common",
        lines: r#"127.0.0.1 - frank [01/Nov/2026:10:00:01 -0700] "POST /v1/charges HTTP/1.0" 200 2326
127.0.0.1 - frank [01/Nov/2026:10:05:01 -0700] "POST /v1/charges HTTP/1.0" 504 0"#,
        detected: true,
        reads: &[
            (Role::Timestamp, "01/Nov/2026:10:05:01 -0700"),
            (Role::Method, "POST"),
            (Role::Path, "/v1/charges"),
            (Role::Status, "504"),
        ],
        gave_up: None,
    }],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::formats::{ColumnMap, DurationUnit, Fields};

    #[test]
    fn a_custom_format_maps_to_roles() {
        let f = compile(r#"LogFormat "%h %l %u %t \"%r\" %>s %b %D \"%{Idempotency-Key}i\" %{UNIQUE_ID}e" keyed"#)
            .unwrap();
        let m = ColumnMap::for_format("t.log", f.as_ref(), &[], None).unwrap();
        assert_eq!(m.headers[m.method], "request_method");
        assert_eq!(
            m.duration.map(|i| m.headers[i].as_str()),
            Some("duration_us")
        );
        assert_eq!(m.duration_unit, DurationUnit::Micros);
        assert_eq!(
            m.idempotency_key.map(|i| m.headers[i].as_str()),
            Some("http_idempotency_key")
        );
        assert_eq!(
            m.request_id.map(|i| m.headers[i].as_str()),
            Some("unique_id")
        );
        let mut out = Fields::default();
        f.split(
            br#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "POST /a.gif HTTP/1.0" 504 2326 30000512 "k-1" YZ1a"#,
            &mut out,
        )
        .unwrap();
        assert_eq!(out.get(3), Some(&b"10/Oct/2000:13:55:36 -0700"[..]));
        assert_eq!(out.get(9), Some(&b"30000512"[..]));
    }

    #[test]
    fn a_directive_letter_that_is_not_ascii_is_refused() {
        // Found by the log_format fuzz target: it panicked slicing inside the character.
        let err = compile("e%\u{7c9}%o@").err().unwrap();
        assert!(err.contains("unknown directive '%\u{7c9}'"), "{err}");
    }

    #[test]
    fn sniffs_the_presets() {
        let common = br#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#;
        assert_eq!(sniff(&[common]).unwrap().describe(), "Apache common");
        let v = br#"example.com:443 127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 2326 "-" "Mozilla/5.0 (X11; Linux)""#;
        assert_eq!(sniff(&[v]).unwrap().describe(), "Apache vcombined");
        assert!(is_apache("%h %>s"));
        assert!(!is_apache("$status"));
    }
}
