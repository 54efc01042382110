//! nginx access logs: a `log_format` string (`--log-format`) or one of the presets,
//! `combined` (nginx's built-in), `main` (the default nginx.conf's), `upstreaminfo`
//! (ingress-nginx's default `log-format-upstream`), and the layouts other servers write in
//! nginx's shape: `traefik` (Traefik's CLF), `npm-proxy` and `npm-standard`
//! (Nginx Proxy Manager's two), `one-ident` (combined without `$remote_user`).
//!
//! Each `$variable` gives a field named as the variable (without `$`), so the aliases find
//! `$status`, `$upstream_status`, `$request_time` (seconds), `$http_idempotency_key` and
//! `$request_id`/`$req_id`; `$request` gives `request_method`, `request_uri` and
//! `server_protocol`; the `$upstream_*` variables keep their lists (`504, 200`).

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample, Told};
use super::template::{Compiled, Family, Item, Kind, Var};
use super::{FormatHints, LineFormat};
use crate::logs::role::Role;

/// nginx's built-in `combined`.
pub const COMBINED: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#;
/// The `main` format of the nginx.conf nginx ships.
pub const MAIN: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for""#;
/// ingress-nginx's default `log-format-upstream`.
pub const UPSTREAMINFO: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id"#;

/// Traefik's CLF access log (Traefik's docs, "Access Logs", CLF format): combined, then the
/// requests Traefik has received, the router's name, the server's URL and the duration in
/// milliseconds with its `ms`. Its fields are no nginx variables: named for their roles
/// (`duration_ms`: milliseconds, as Traefik's docs say). Older Traefik wrote a bare `-` for
/// a missing referer (Elastic's sample): any quoted variable takes one (`template`).
pub const TRAEFIK: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $requests_total "$router_name" "$server_url" ${duration_ms}ms"#;
/// Nginx Proxy Manager's `proxy` format (docker/rootfs/etc/nginx/conf.d/include/log.conf).
pub const NPM_PROXY: &str = r#"[$time_local] $upstream_cache_status $upstream_status $status - $request_method $scheme $host "$request_uri" [Client $remote_addr] [Length $body_bytes_sent] [Gzip $gzip_ratio] [Sent-to $server] "$http_user_agent" "$http_referer""#;
/// Nginx Proxy Manager's `standard` format (the same file).
pub const NPM_STANDARD: &str = r#"[$time_local] $status - $request_method $scheme $host "$request_uri" [Client $remote_addr] [Length $body_bytes_sent] [Gzip $gzip_ratio] "$http_user_agent" "$http_referer""#;
/// BunkerWeb's `bwlog` (an nginx-based WAF: src/common/confs/http.conf): the virtual host,
/// then combined with nginx's `$request_id` between the ident and the user.
pub const BUNKERWEB: &str = r#"$host $remote_addr - $request_id $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#;
/// combined with one ident field (`1.2.3.4 - [time] "GET / HTTP/1.1" ...`): a `log_format`
/// that leaves out `$remote_user`, as real logs pasted in issue trackers and READMEs show.
pub const ONE_IDENT: &str = r#"$remote_addr - [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#;

/// The presets, by name, most particular first.
pub const PRESETS: [(&str, &str, &str); 8] = [
    ("upstreaminfo", UPSTREAMINFO, "ingress-nginx upstreaminfo"),
    ("traefik", TRAEFIK, "Traefik CLF"),
    ("npm-proxy", NPM_PROXY, "Nginx Proxy Manager proxy"),
    ("npm-standard", NPM_STANDARD, "Nginx Proxy Manager standard"),
    ("bunkerweb", BUNKERWEB, "BunkerWeb"),
    ("main", MAIN, "nginx main"),
    ("combined", COMBINED, "nginx combined"),
    (
        "one-ident",
        ONE_IDENT,
        "nginx combined with one ident field",
    ),
];

/// The presets a refusal ranks by how far they read a line: all but BunkerWeb's, whose first
/// two fields take any word, so it reads far into a line of any other format and would be
/// named the closest to it.
fn candidates(_: &[&[u8]]) -> Vec<Box<dyn LineFormat>> {
    PRESETS
        .iter()
        .filter(|(name, ..)| *name != "bunkerweb")
        .filter_map(|(name, ..)| compile(name).ok())
        .collect()
}

/// nginx's `log_format` strings: every unit and name is told by the variables' names.
static FAMILY: Family = Family {
    presets: &PRESETS,
    items,
    hints: FormatHints::default,
    custom: "nginx log_format",
    appended: (
        &["main", "combined"],
        "e.g. $request_time, $upstream_status",
    ),
    compiled: Compiled::new(),
};

/// A preset's name or a `log_format` body, compiled. The body may be pasted as it stands in
/// nginx.conf: `log_format NAME '...' '...';` with its quoted pieces.
pub fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    FAMILY.compile(text, unwrap_conf)
}

/// The presets that read the first lines, most particular first. Then `main` or `combined`
/// with fields appended ($request_time, $upstream_status...), as most real nginx logs are:
/// their names cannot be guessed, so the preset's fields are read and the rest is not, and
/// the evidence (and any error a missing field causes) says to give the log_format.
pub fn sniff(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    Family::best_of(FAMILY.presets(), lines)
        .or_else(|| super::best_of(extended(lines), lines))
        .or_else(|| Family::best_of(FAMILY.appended(), lines))
}

/// `main` and `combined` followed by the fields the first line has after them, each read as
/// `extra_1`, `extra_2`, ... with no role (what a field holds is never guessed: MODEL.md's
/// units), and a note with a ready-to-paste `--log-format` naming the likely variable of each
/// by its shape (a 3-digit status, seconds with a decimal point, nginx's 32-hex request id).
fn extended(lines: &[&[u8]]) -> Vec<Box<dyn LineFormat>> {
    let Some(first) = lines.first() else {
        return Vec::new();
    };
    let mut out: Vec<Box<dyn LineFormat>> = Vec::new();
    // main and combined, reading a line that goes on past them.
    for (name, trailing) in FAMILY.appended() {
        let Some((_, body, description)) = PRESETS.iter().find(|(n, ..)| n == name) else {
            continue;
        };
        let Ok(at) = trailing.template.read(first, &mut super::Fields::default()) else {
            continue;
        };
        let extras = words(&first[at..]);
        if !(1..=8).contains(&extras.len()) {
            continue;
        }
        let mut text = body.to_string();
        let mut suggested = name.to_string();
        let mut names = Vec::new();
        let mut taken = Vec::new();
        for (i, (quoted, value)) in extras.iter().enumerate() {
            let field = format!("extra_{}", i + 1);
            let guess = likely_variable(value, &taken).unwrap_or(&field);
            taken.push(guess.to_string());
            let (own, paste) = if *quoted {
                (format!("\"${field}\""), format!("\"${guess}\""))
            } else {
                (format!("${field}"), format!("${guess}"))
            };
            text = format!("{text} {own}");
            suggested = format!("{suggested} {paste}");
            names.push(field);
        }
        // A field shaped as an upstream status may be a list (`502, 200`), as the variable's.
        let multi = |name: &str| {
            names
                .iter()
                .zip(&taken)
                .any(|(n, guess)| n == name && guess.starts_with("upstream_"))
        };
        let Ok(template) = items(&text)
            .map(|items| {
                items
                    .into_iter()
                    .map(|item| match item {
                        Item::Var(v) if multi(&v.name) => Item::Var(Var {
                            kind: Kind::Multi,
                            ..v
                        }),
                        other => other,
                    })
                    .collect()
            })
            .and_then(super::template::Template::new)
        else {
            continue;
        };
        let (extra, list) = (names.len(), names.join(", "));
        let many = if extra == 1 { "" } else { "s" };
        out.push(Box::new(super::template::TemplateFormat {
            template,
            description: format!("{description} with {extra} more field{many} ({list})"),
            hints: FormatHints {
                notes: vec![crate::logs::FormatNote::NginxAppended {
                    layout: description.to_string(),
                    preset: name,
                    quoted: extras.iter().map(|(quoted, _)| *quoted).collect(),
                    extra,
                    suggested,
                    upstream_status: taken
                        .iter()
                        .position(|t| t == "upstream_status")
                        .map(|i| i + 1),
                }],
                ..(FAMILY.hints)()
            },
        }));
    }
    out
}

/// The fields of `rest` (what a line has after a layout), each quoted or not, with its text.
fn words(rest: &[u8]) -> Vec<(bool, String)> {
    let text = String::from_utf8_lossy(rest);
    let mut out = Vec::new();
    let mut chars = text.trim_start().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            word.push(n);
                        }
                    }
                    '"' => break,
                    c => word.push(c),
                }
            }
            out.push((true, word));
        } else {
            while let Some(&c) = chars.peek().filter(|c| **c != ' ') {
                word.push(c);
                chars.next();
            }
            out.push((false, word));
        }
    }
    // nginx's upstream lists (`502, 504 : 200`) are one field.
    let mut joined: Vec<(bool, String)> = Vec::new();
    for (quoted, word) in out {
        match joined.last_mut() {
            Some((false, last))
                if !quoted && (last.ends_with(',') || last.ends_with(" :") || word == ":") =>
            {
                last.push(' ');
                last.push_str(&word);
            }
            _ => joined.push((quoted, word)),
        }
    }
    joined
}

/// The nginx variable a field's value most likely is, by its shape, unless already `taken`:
/// a 3-digit status (`$upstream_status`), seconds to the millisecond (`$request_time`, then
/// `$upstream_response_time`), 32 hex digits (`$request_id`). `None` for anything else.
fn likely_variable(value: &str, taken: &[String]) -> Option<&'static str> {
    let free = |name: &'static str| (!taken.iter().any(|t| t == name)).then_some(name);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if status_list(value.as_bytes()) && value.bytes().any(|b| b.is_ascii_digit()) {
        return free("upstream_status");
    }
    if let Some((whole, frac)) = value.split_once('.')
        && digits(whole)
        && frac.len() == 3
        && digits(frac)
    {
        return free("request_time").or_else(|| free("upstream_response_time"));
    }
    if value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        return free("request_id");
    }
    None
}

/// An HTTP status (100-599), `-`, or nginx's list of them (`502, 504 : 200`).
fn status_list(value: &[u8]) -> bool {
    value.split(|&b| b == b',' || b == b':').all(|part| {
        let part = part.trim_ascii();
        part == b"-"
            || (part.len() == 3
                && part.iter().all(u8::is_ascii_digit)
                && (b'1'..=b'5').contains(&part[0]))
    })
}

/// Seconds to the millisecond, as nginx writes `$request_time` (`0.123`), under a day.
fn millisecond_seconds(value: &[u8]) -> bool {
    let Some(dot) = value.iter().position(|&b| b == b'.') else {
        return false;
    };
    let (whole, frac) = (&value[..dot], &value[dot + 1..]);
    !whole.is_empty()
        && whole.iter().all(u8::is_ascii_digit)
        && frac.len() == 3
        && frac.iter().all(u8::is_ascii_digit)
        && std::str::from_utf8(value)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| v < 86_400.0)
}

/// Lines needed before an appended field's variable is read from its values.
pub const INFER_MIN_LINES: usize = 5;

/// The variables of `main`'s or `combined`'s appended fields (`format`, as [`sniff`] found
/// it) that the values of `lines` leave one reading for, read as the `--log-format` naming
/// them would read them (docs/MODEL.md, "Inferred"); `None` when none is left one reading.
///
/// Over every line the format reads (at least [`INFER_MIN_LINES`]):
/// - a field whose every value is a status, `-` or a list of them, equal to `$status` on at
///   least half the lines and different on some, is `$upstream_status` (a byte count such as
///   `$request_length` is seldom equal to the status; a copy of `$status` never differs);
/// - a field whose every value is seconds to the millisecond (`0.123`, never `-`) is
///   `$request_time`, seconds by nginx's documentation;
/// - a field whose every value is 32 hex digits, none repeated, is `$request_id` (a value
///   sent again, as an idempotency key is on a retry, is no request id).
///
/// A variable two fields fit is read for neither: the values leave two readings.
pub fn infer_appended(format: &dyn LineFormat, lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    let (layout, preset, quoted) = format.hints().notes.into_iter().find_map(|n| match n {
        crate::logs::FormatNote::NginxAppended {
            layout,
            preset,
            quoted,
            ..
        } => Some((layout, preset, quoted)),
        _ => None,
    })?;
    let names = format.names();
    let at = |name: &str| names.iter().position(|n| n == name);
    let status = at("status")?;
    let extras: Vec<usize> = (1..=quoted.len())
        .map(|i| at(&format!("extra_{i}")))
        .collect::<Option<_>>()?;
    let mut rows: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut fields = super::Fields::default();
    for line in lines {
        fields.clear();
        if format.skip(line) || format.split(line, &mut fields).is_err() {
            continue;
        }
        let row = std::iter::once(status)
            .chain(extras.iter().copied())
            .map(|i| fields.get(i).map(|v| v.trim_ascii().to_vec()))
            .collect::<Option<Vec<_>>>();
        rows.extend(row);
    }
    if rows.len() < INFER_MIN_LINES {
        return None;
    }
    let column = |j: usize| {
        rows.iter()
            .map(move |r| (r[0].as_slice(), r[j + 1].as_slice()))
    };
    let upstream = |j: usize| {
        let equal = column(j).filter(|(st, v)| st == v).count();
        column(j).all(|(_, v)| status_list(v))
            && column(j).any(|(_, v)| v.iter().any(u8::is_ascii_digit))
            && 2 * equal >= rows.len()
            && equal < rows.len()
    };
    let seconds = |j: usize| column(j).all(|(_, v)| millisecond_seconds(v));
    // nginx's `$request_id` is new on every request: 32 hex digits that repeat (an
    // idempotency key a retry sends again) are something else.
    let hex_id = |j: usize| {
        let mut seen = std::collections::HashSet::new();
        column(j)
            .all(|(_, v)| v.len() == 32 && v.iter().all(u8::is_ascii_hexdigit) && seen.insert(v))
    };
    let tests: [(&'static str, &dyn Fn(usize) -> bool); 3] = [
        ("upstream_status", &upstream),
        ("request_time", &seconds),
        ("request_id", &hex_id),
    ];
    let mut read: Vec<Option<&'static str>> = vec![None; quoted.len()];
    for (variable, fits) in tests {
        let fitting: Vec<usize> = (0..quoted.len())
            .filter(|&j| read[j].is_none() && fits(j))
            .collect();
        if let [one] = fitting.as_slice() {
            read[*one] = Some(variable);
        }
    }
    if read.iter().all(Option::is_none) {
        return None;
    }
    let rest: Vec<String> = read
        .iter()
        .zip(&quoted)
        .enumerate()
        .map(|(j, (variable, quoted))| {
            let name = variable.map_or_else(|| format!("extra_{}", j + 1), str::to_string);
            if *quoted {
                format!("\"${name}\"")
            } else {
                format!("${name}")
            }
        })
        .collect();
    let rest = rest.join(" ");
    let body = PRESETS.iter().find(|(n, ..)| *n == preset)?.1;
    let mut built = FAMILY
        .build(&format!("{body} {rest}"), &format!("{layout} with {rest}"))
        .ok()?;
    built
        .hints
        .notes
        .push(crate::logs::FormatNote::NginxInferred {
            layout,
            fields: read
                .iter()
                .enumerate()
                .filter_map(|(j, v)| v.map(|v| (j + 1, v)))
                .collect(),
            unnamed: read.iter().filter(|v| v.is_none()).count(),
            log_format: format!("{preset} {rest}"),
        });
    Some(Box::new(built))
}

/// `log_format main '$a - $b' '"$c"';` → `$a - $b"$c"`: the contents of its quoted pieces
/// (a body without quotes around it is taken as it is).
fn unwrap_conf(text: &str) -> String {
    let mut t = text.trim().trim_end_matches(';').trim();
    if let Some(rest) = t.strip_prefix("log_format") {
        // Drop the directive and the format's name (and an `escape=` parameter).
        let mut rest = rest.trim_start();
        for _ in 0..2 {
            if rest.starts_with('\'') || rest.starts_with('"') {
                break;
            }
            rest = rest
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r.trim_start());
        }
        t = rest;
    }
    let Some(quote) = t.chars().next().filter(|c| *c == '\'' || *c == '"') else {
        return t.to_string();
    };
    let mut body = String::new();
    let mut inside = false;
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        if c == quote {
            inside = !inside;
        } else if inside {
            if c == '\\' {
                if let Some(next) = chars.next() {
                    body.push(next);
                }
            } else {
                body.push(c);
            }
        }
    }
    body
}

/// A `log_format` body's literals and `$variables` (`${name}` too).
fn items(body: &str) -> Result<Vec<Item>, String> {
    let bytes = body.as_bytes();
    let mut items = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            lit.push(bytes[i]);
            i += 1;
            continue;
        }
        let (name, next) = if bytes.get(i + 1) == Some(&b'{') {
            let close = body[i..]
                .find('}')
                .ok_or_else(|| format!("'${{' at column {} is not closed", i + 1))?;
            (&body[i + 2..i + close], i + close + 1)
        } else {
            let len = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            (&body[i + 1..i + 1 + len], i + 1 + len)
        };
        if name.is_empty() {
            lit.push(b'$');
            i += 1;
            continue;
        }
        if !lit.is_empty() {
            items.push(Item::Lit(std::mem::take(&mut lit)));
        }
        items.push(Item::Var(var(name)));
        i = next;
    }
    if !lit.is_empty() {
        items.push(Item::Lit(lit));
    }
    Ok(items)
}

/// nginx variables whose value is one word: never read across a space.
const WORDS: [&str; 8] = [
    "status",
    "request_method",
    "scheme",
    "body_bytes_sent",
    "bytes_sent",
    "request_length",
    "request_time",
    "gzip_ratio",
];

/// The field an nginx variable gives.
fn var(name: &str) -> Var {
    let kind = match name {
        "request" => Kind::Request,
        n if n.starts_with("upstream_") => Kind::Multi,
        n if WORDS.contains(&n) => Kind::Word,
        _ => Kind::Plain,
    };
    Var {
        name: name.to_string(),
        kind,
    }
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "nginx",
    named: true,
    describe: "nginx access log: combined, main, ingress-nginx upstreaminfo, Nginx Proxy Manager's, Traefik's CLF, BunkerWeb's, or any `log_format`",
    detect: Some(Detect {
        order: 80,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Fitting,
    candidates,
    looks: Some(Looks {
        name: "nginx combined",
        test: |l| memchr::memmem::find(l, b"] \"").is_some(),
    }),
    compile: Some(compile),
    told: Some(Told {
        order: 90,
        // Any text no other format claims.
        is: |_| true,
    }),
    flags: &[],
    samples: &[
        Sample {
            name: "combined",
            lines: r#"10.1.2.3 - - [01/Nov/2026:10:00:01 +0000] "POST /v1/charges HTTP/1.1" 200 17 "-" "curl/8.5.0"
10.1.2.3 - - [01/Nov/2026:10:05:01 +0000] "POST /v1/charges HTTP/1.1" 504 160 "-" "okhttp/4.12.0""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:10:05:01 +0000"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/charges"),
                (Role::Status, "504"),
            ],
            gave_up: None,
        },
        Sample {
            name: "ingress-nginx upstreaminfo",
            lines: r#"10.1.2.3 - - [01/Nov/2026:10:00:01 +0000] "POST /v1/charges HTTP/1.1" 200 17 "-" "curl/8.5.0" 412 0.120 [default-api-80] [] 10.0.0.7:8080 17 0.118 200 5f1c3b2a01
10.1.2.3 - - [01/Nov/2026:10:05:01 +0000] "POST /v1/charges HTTP/1.1" 504 160 "-" "okhttp/4.12.0" 398 30.001 [default-api-80] [] 10.0.0.7:8080, 10.0.0.8:8080 0, 17 30.000, 0.001 504, 200 5f1c3b2a02"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:10:05:01 +0000"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/charges"),
                (Role::Status, "504"),
                (Role::UpstreamStatus, "504, 200"),
                (Role::Duration, "30.001"),
            ],
            gave_up: None,
        },
        Sample {
            name: "BunkerWeb",
            lines: r#"api.example.com 10.1.2.3 - 95386da81aa13b6ab3ce9c989e1e470e - [01/Nov/2026:10:00:01 +0000] "POST /v1/charges HTTP/2.0" 200 17 "-" "curl/8.5.0"
api.example.com 10.1.2.3 - 7bde940ef0f870cdee1f6d53fe0ff157 - [01/Nov/2026:10:05:01 +0000] "POST /v1/charges HTTP/2.0" 504 160 "-" "okhttp/4.12.0""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "01/Nov/2026:10:05:01 +0000"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/charges"),
                (Role::Status, "504"),
                (Role::RequestId, "7bde940ef0f870cdee1f6d53fe0ff157"),
            ],
            gave_up: None,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::formats::{ColumnMap, DurationUnit, Fields};

    /// combined with `fields` appended to each line (`{status}` replaced by the line's own).
    fn appended(fields: &[&str], statuses: &[u16]) -> Vec<String> {
        (0..20)
            .map(|i| {
                let status = statuses[i % statuses.len()];
                let rest = fields[i % fields.len()].replace("{status}", &status.to_string());
                format!(
                    "10.0.0.{i} - - [02/Nov/2026:08:00:{i:02} +0000] \"POST /v1/pay HTTP/1.1\" {status} 12 \"-\" \"curl/8.0\" {rest}"
                )
            })
            .collect()
    }

    /// The variables the values leave one reading for, by field, and the `--log-format` read.
    fn inferred(lines: &[String]) -> Option<(Vec<(usize, &'static str)>, String)> {
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let found = sniff(&refs[..1]).expect("an appended layout");
        let read = infer_appended(found.as_ref(), &refs)?;
        read.hints().notes.into_iter().find_map(|n| match n {
            crate::logs::FormatNote::NginxInferred {
                fields, log_format, ..
            } => Some((fields, log_format)),
            _ => None,
        })
    }

    #[test]
    fn appended_fields_are_named_only_where_their_values_leave_one_reading() {
        // An nginx list on the first line is one field; a 504 with upstream 200 differs.
        let lines = appended(
            &["502, 504 : 200 30.001 \"0a1b\"", "{status} 0.125 \"0a1b\""],
            &[504, 201, 201, 201],
        );
        let (fields, text) = inferred(&lines).unwrap();
        assert_eq!(fields, [(1, "upstream_status"), (2, "request_time")]);
        assert_eq!(
            text,
            r#"combined $upstream_status $request_time "$extra_3""#
        );
        // A copy of $status never differs: two readings, not named.
        let copy = appended(&["{status} 0.125"], &[504, 201]);
        assert_eq!(inferred(&copy).unwrap().0, [(2, "request_time")]);
        // Two fields of seconds to the millisecond: which is $request_time is not told.
        let two = appended(&["0.125 0.120"], &[201]);
        assert_eq!(inferred(&two), None);
        // A byte count seldom equal to the status is no upstream status.
        let bytes = appended(&["312", "455", "498", "201"], &[201]);
        assert_eq!(inferred(&bytes), None);
        // 32 hex digits, each new: $request_id; repeated (a key sent again): not.
        let ids: Vec<String> = (0..20)
            .map(|i| format!("10.0.0.1 - - [02/Nov/2026:08:00:{i:02} +0000] \"POST / HTTP/1.1\" 201 1 \"-\" \"c\" {i:032x}"))
            .collect();
        assert_eq!(inferred(&ids).unwrap().0, [(1, "request_id")]);
        let keys: Vec<String> = ids
            .iter()
            .map(|l| l[..l.len() - 1].to_string() + "0")
            .collect();
        assert_eq!(inferred(&keys), None);
    }

    #[test]
    fn presets_map_to_roles() {
        let f = compile("upstreaminfo").unwrap();
        let m = ColumnMap::for_format("t.log", f.as_ref(), &[], None).unwrap();
        let name = |i: Option<usize>| i.map(|i| m.headers[i].clone());
        assert_eq!(name(m.timestamp).as_deref(), Some("time_local"));
        assert_eq!(m.headers[m.method], "request_method");
        assert_eq!(name(m.path).as_deref(), Some("request_uri"));
        assert_eq!(m.headers[m.status], "status");
        assert_eq!(name(m.upstream_status).as_deref(), Some("upstream_status"));
        assert_eq!(name(m.duration).as_deref(), Some("request_time"));
        assert_eq!(m.duration_unit, DurationUnit::Seconds);
        assert_eq!(name(m.request_id).as_deref(), Some("req_id"));
        assert_eq!(name(m.bytes).as_deref(), Some("body_bytes_sent"));
    }

    #[test]
    fn a_conf_paste_compiles() {
        let f = compile(
            r#"log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for"';"#,
        )
        .unwrap();
        assert_eq!(f.names(), compile("main").unwrap().names());
    }

    #[test]
    fn ingress_nginx_line_with_retried_upstreams() {
        let f = compile("upstreaminfo").unwrap();
        let line = br#"10.1.2.3 - - [01/Nov/2026:10:00:01 +0000] "POST /v1/charges HTTP/1.1" 200 17 "-" "curl/8.5.0 (x86_64) \x22q\x22" 412 2.004 [default-api-80] [] 10.0.0.7:8080, 10.0.0.8:8080 0, 17 2.000, 0.004 504, 200 5f1c3b2a"#;
        let mut out = Fields::default();
        f.split(line, &mut out).unwrap();
        let names = f.names();
        let get = |n: &str| {
            let i = names.iter().position(|x| x == n).unwrap();
            String::from_utf8_lossy(out.get(i).unwrap()).into_owned()
        };
        assert_eq!(get("upstream_status"), "504, 200");
        assert_eq!(get("upstream_addr"), "10.0.0.7:8080, 10.0.0.8:8080");
        assert_eq!(get("upstream_response_time"), "2.000, 0.004");
        assert_eq!(get("http_user_agent"), r#"curl/8.5.0 (x86_64) "q""#);
        assert_eq!(get("req_id"), "5f1c3b2a");
        assert_eq!(get("request_method"), "POST");
    }

    #[test]
    fn sniff_prefers_the_longest_preset() {
        let combined =
            br#"1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 5 "-" "x y""#;
        let main =
            br#"1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 5 "-" "x y" "-""#;
        assert_eq!(sniff(&[combined]).unwrap().describe(), "nginx combined");
        assert_eq!(sniff(&[main]).unwrap().describe(), "nginx main");
        assert!(sniff(&[b"a,b,c"]).is_none());
    }
}
