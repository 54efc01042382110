//! Envoy text access logs: the default format, Istio's, or any Envoy format string
//! (`--log-format '[%START_TIME%] "%REQ(:METHOD)% ..."'`).
//!
//! Each command operator gives a field named after it in lower case: `%START_TIME%` →
//! `start_time`, `%RESPONSE_CODE%` → `response_code`, `%RESPONSE_FLAGS%` → `response_flags`
//! (the flags role, Envoy style: `UT`, `DC`, `UC`, `URX`), `%DURATION%` → `duration`
//! (milliseconds), `%REQ(X-REQUEST-ID)%` → `x_request_id` (the request id), `%REQ(:METHOD)%`
//! → `method`, `%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%` → `path`, `%UPSTREAM_HOST%` →
//! `upstream_host`, `%DOWNSTREAM_REMOTE_ADDRESS%` → `downstream_remote_address`. Envoy logs
//! no upstream status: a timed-out request's outcome at the backend is unknown unless the
//! backend's own log is joined (`--outcomes`).

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample, Told};
use super::template::{Compiled, Family, Item, Var};
use super::{DurationUnit, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps, LineFormat};
use crate::logs::role::Role;

/// Envoy's default format.
pub const DEFAULT: &str = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%""#;

/// Istio's default `accessLogFormat` (its sidecars' and gateways' text logs).
pub const ISTIO: &str = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%"#;

/// Istio 1.3 to 1.8's default (`EnvoyTextLogFormat13`, then `EnvoyTextLogFormat` of
/// Istio's pilot until 1.9 added the response code details: Mixer's policy status, the
/// transport failure reason, the route name).
pub const ISTIO_1_5: &str = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%"#;

/// Istio 1.1's default (Mixer's policy status, no transport failure reason, no route name).
pub const ISTIO_1_1: &str = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME%"#;

/// Istio 1.2's default (`EnvoyTextLogFormat12` of Istio's pilot: Mixer's policy status and
/// the transport failure reason, no route name yet).
pub const ISTIO_1_2: &str = r#"[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME%"#;

/// The presets, most particular first: Istio's defaults from today's (1.9 on) back to 1.1,
/// then Envoy's (which Istio 1.0 wrote).
pub const PRESETS: [(&str, &str, &str); 5] = [
    ("istio", ISTIO, "Istio (Envoy)"),
    ("istio-1.5", ISTIO_1_5, "Istio 1.3-1.8 (Envoy)"),
    ("istio-1.2", ISTIO_1_2, "Istio 1.2 (Envoy)"),
    ("istio-1.1", ISTIO_1_1, "Istio 1.1 (Envoy)"),
    ("envoy", DEFAULT, "Envoy default"),
];

/// A `--log-format` that is Envoy's: it has a `%COMMAND%` operator.
pub fn is_envoy(text: &str) -> bool {
    let t = text.trim();
    PRESETS.iter().any(|(n, ..)| *n == t)
        || [
            "%START_TIME",
            "%REQ(",
            "%RESPONSE_CODE%",
            "%DURATION%",
            "%RESPONSE_FLAGS%",
        ]
        .iter()
        .any(|op| t.contains(op))
}

/// Envoy's `response_flags`: comma-separated codes; `UT` (upstream timeout), `DC`
/// (downstream closed), `UC` (upstream closed), `URX` (retry limit) are give-ups. A flags
/// column whose name says no other dialect reads as this one.
pub static FLAGS: Flags = Flags {
    name: "envoy",
    field: "flags",
    give_ups: GiveUps {
        matching: GiveUpMatch::AnyCode,
        codes: &["UT", "DC", "UC", "URX"],
    },
    named_by: |_| false,
    empty_status_is_zero: false,
    no_request: Some("Envoy TCP proxy records (request \"- - -\", no HTTP request)"),
};

/// Envoy's format strings: durations in ms, its response flags.
static FAMILY: Family = Family {
    presets: &PRESETS,
    items,
    hints: || FormatHints {
        duration_unit: Some(DurationUnit::Millis),
        flags_style: Some(FlagsStyle(&FLAGS)),
        ..FormatHints::default()
    },
    custom: "Envoy format string",
    appended: (&[], ""),
    compiled: Compiled::new(),
};

/// A preset's name (`envoy`, `istio`) or an Envoy format string, compiled.
pub fn compile(text: &str) -> Result<Box<dyn LineFormat>, String> {
    FAMILY.compile(text, |t| t.strip_suffix("\\n").unwrap_or(t).to_string())
}

/// The presets that read the first lines, most particular first.
pub fn sniff(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    // Ambassador's `ACCESS ` before Envoy's lines: read without it.
    if lines
        .iter()
        .any(|l| l.starts_with(super::ambassador::PREFIX))
    {
        let bare: Vec<&[u8]> = lines.iter().map(|l| super::ambassador::strip(l)).collect();
        return sniff_bare(&bare)
            .map(|f| Box::new(super::ambassador::Ambassador(f)) as Box<dyn LineFormat>);
    }
    sniff_bare(lines)
}

/// [`sniff`] on lines without Ambassador's prefix.
fn sniff_bare(lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    // Only lines that start as Envoy's do: `[2026-...`.
    if !lines
        .first()
        .is_some_and(|l| l.starts_with(b"[") && l.get(5) == Some(&b'-'))
    {
        return None;
    }
    Family::best_of(FAMILY.presets(), lines).or_else(|| super::best_of(extended(lines), lines))
}

/// The presets followed by the fields the first line has after them (an appended
/// `"%REQ(IDEMPOTENCY-KEY)%"`, `%UPSTREAM_REQUEST_ATTEMPT_COUNT%`): each read as `extra_1`,
/// `extra_2`, ... and given no role, since what they hold is unknown until the user names it
/// (`--column idempotency_key=extra_1`, or the format with `--log-format`); the evidence
/// says so.
fn extended(lines: &[&[u8]]) -> Vec<Box<dyn LineFormat>> {
    let Some(first) = lines.first() else {
        return Vec::new();
    };
    let tokens = words(first);
    let mut out: Vec<Box<dyn LineFormat>> = Vec::new();
    for (_, body, description) in PRESETS {
        let own = words(body.as_bytes()).len();
        let Some(extra) = tokens
            .len()
            .checked_sub(own)
            .filter(|n| (1..=8).contains(n))
        else {
            continue;
        };
        let mut text = body.to_string();
        let mut names = Vec::new();
        for (i, quoted) in tokens[own..].iter().enumerate() {
            let name = format!("extra_{}", i + 1);
            let op = format!("%{}%", name.to_ascii_uppercase());
            text.push(' ');
            text.push_str(&if *quoted { format!("\"{op}\"") } else { op });
            names.push(name);
        }
        let Ok(template) = items(&text).and_then(super::template::Template::new) else {
            continue;
        };
        let list = names.join(", ");
        let many = if extra == 1 { "" } else { "s" };
        out.push(Box::new(super::template::TemplateFormat {
            template,
            description: format!("{description} with {extra} more field{many} ({list})"),
            hints: FormatHints {
                notes: vec![crate::logs::FormatNote::EnvoyAppended {
                    layout: description.to_string(),
                    extra,
                }],
                ..(FAMILY.hints)()
            },
        }));
    }
    out
}

/// A line's (or a format string's) space-separated words, each quoted (`true`) or not; a
/// quoted or bracketed word may hold spaces.
fn words(line: &[u8]) -> Vec<bool> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < line.len() {
        match line[at] {
            b' ' => at += 1,
            open @ (b'"' | b'[') => {
                let close = if open == b'"' { b'"' } else { b']' };
                // To the closing byte that ends the word (a space or the line's end after it).
                let mut end = at + 1;
                loop {
                    match memchr::memchr(close, &line[end..]) {
                        Some(i) if matches!(line.get(end + i + 1), None | Some(b' ')) => {
                            end += i + 1;
                            break;
                        }
                        Some(i) => end += i + 1,
                        None => {
                            end = line.len();
                            break;
                        }
                    }
                }
                out.push(open == b'"');
                at = end;
            }
            _ => {
                at += memchr::memchr(b' ', &line[at..]).unwrap_or(line.len() - at);
                out.push(false);
            }
        }
    }
    out
}

/// A format string's literals and `%OPERATOR%`s.
fn items(body: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut lit = String::new();
    let mut rest = body;
    while let Some(i) = rest.find('%') {
        lit.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(stripped) = after.strip_prefix('%') {
            lit.push('%');
            rest = stripped;
            continue;
        }
        // An argument in parentheses may hold a `%` (`%START_TIME(%s)%`).
        let from = match (after.find('('), after.find('%')) {
            (Some(p), Some(q)) if p < q => after[p..].find(')').map_or(p, |c| p + c),
            _ => 0,
        };
        let end = after[from..].find('%').map(|e| from + e).ok_or_else(|| {
            format!(
                "'%' at column {} is not closed",
                body.len() - rest.len() + i + 1
            )
        })?;
        let op = &after[..end];
        if !lit.is_empty() {
            items.push(Item::Lit(std::mem::take(&mut lit).into_bytes()));
        }
        items.push(Item::Var(Var::plain(name(op))));
        rest = &after[end + 1..];
    }
    lit.push_str(rest);
    if !lit.is_empty() {
        items.push(Item::Lit(lit.into_bytes()));
    }
    Ok(items)
}

/// The field name of an operator: `REQ(X-ENVOY-ORIGINAL-PATH?:PATH)` → `path`,
/// `REQ(:METHOD)` → `method`, `RESP(X-Foo)` → `x_foo`, `START_TIME(%s)` → `start_time`,
/// `DURATION` → `duration`.
fn name(op: &str) -> String {
    let op = op
        .split(':')
        .next()
        .filter(|_| !op.contains('('))
        .unwrap_or(op);
    let (command, arg) = match op.split_once('(') {
        Some((c, a)) => (c, a.split(')').next().unwrap_or(a)),
        None => (op, ""),
    };
    let snake = |s: &str| {
        s.trim_start_matches(':')
            .to_ascii_lowercase()
            .replace('-', "_")
    };
    match command {
        "REQ" | "RESP" | "TRAILER" | "REQ_WITHOUT_QUERY" => {
            // `X-ENVOY-ORIGINAL-PATH?:PATH`: the header, or else the path.
            match arg.rsplit_once('?') {
                Some((_, fallback)) => snake(fallback),
                None => snake(arg),
            }
        }
        _ => snake(command),
    }
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "envoy",
    named: true,
    describe: "Envoy and Istio access logs: their default layouts, or any format string",
    detect: Some(Detect {
        order: 70,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Fitting,
    candidates: |_| super::entry::presets(&PRESETS, compile),
    looks: Some(Looks {
        name: "Envoy",
        test: |l| l.starts_with(b"[") && l.get(5) == Some(&b'-'),
    }),
    compile: Some(compile),
    told: Some(Told {
        // Before HAProxy, whose `%ST` is in `%START_TIME%`.
        order: 10,
        is: is_envoy,
    }),
    flags: &[&FLAGS],
    samples: &[
        Sample {
            name: "default",
            lines: r#"[2026-11-01T10:05:01.000Z] "POST /v1/charges HTTP/1.1" 504 UT 154 24 15001 - "10.0.35.28" "Mozilla/5.0 (X11; Linux x86_64)" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd3" "api.example.com" "10.0.2.1:8080"
[2026-11-01T10:10:01.000Z] "POST /v1/refunds/42 HTTP/2" 0 DC 80 0 9000 - "-" "okhttp/4.12.0" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd4" "api.example.com" "10.0.2.2:8080""#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T10:10:01.000Z"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/refunds/42"),
                (Role::Status, "0"),
                (Role::Duration, "9000"),
                (Role::Flags, "DC"),
            ],
            gave_up: Some(true),
        },
        Sample {
            name: "Istio's default",
            lines: r#"[2026-11-01T10:05:01.000Z] "POST /v1/charges HTTP/1.1" 504 UT upstream_response_timeout - "-" 154 24 15001 - "-" "Mozilla/5.0 (X11; Linux x86_64)" "84961386-6d84-929d-98bd-c5aee93b5c02" "api:8000" "10.44.1.27:8080" outbound|8000||api.shop.svc.cluster.local 10.44.1.23:37654 10.0.45.184:8000 10.44.1.23:46522 - default
[2026-11-01T10:10:01.000Z] "POST /v1/refunds/42 HTTP/1.1" 0 DC downstream_remote_disconnect - "-" 80 0 9000 - "-" "okhttp/4.12.0" "84961386-6d84-929d-98bd-c5aee93b5c03" "api:8000" "10.44.1.28:8080" outbound|8000||api.shop.svc.cluster.local 10.44.1.23:37656 10.0.45.184:8000 10.44.1.23:46524 - default"#,
            detected: true,
            reads: &[
                (Role::Timestamp, "2026-11-01T10:10:01.000Z"),
                (Role::Method, "POST"),
                (Role::Path, "/v1/refunds/42"),
                (Role::Status, "0"),
                (Role::Duration, "9000"),
                (Role::Flags, "DC"),
            ],
            gave_up: Some(true),
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::formats::{ColumnMap, Fields};

    #[test]
    fn envoys_own_example_reads() {
        let line = br#"[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80""#;
        let f = sniff(&[line]).unwrap();
        assert_eq!(f.describe(), "Envoy default");
        let m = ColumnMap::for_format("e.log", f.as_ref(), &[], None).unwrap();
        let name = |i: Option<usize>| i.map(|i| m.headers[i].as_str());
        assert_eq!(name(m.timestamp), Some("start_time"));
        assert_eq!(m.headers[m.method], "method");
        assert_eq!(name(m.path), Some("path"));
        assert_eq!(m.headers[m.status], "response_code");
        assert_eq!(name(m.flags), Some("response_flags"));
        assert_eq!(name(m.duration), Some("duration"));
        assert_eq!(name(m.request_id), Some("x_request_id"));
        assert_eq!(m.flags_style, FlagsStyle(&FLAGS));
        assert_eq!(m.duration_unit, DurationUnit::Millis);
        let mut out = Fields::default();
        f.split(line, &mut out).unwrap();
        assert_eq!(out.get(m.duration.unwrap()), Some(&b"226"[..]));
    }

    #[test]
    fn istios_line_reads() {
        let line = br#"[2020-11-25T21:26:18.409Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 4 4 "-" "curl/7.73.0-DEV" "84961386-6d84-929d-98bd-c5aee93b5c88" "httpbin:8000" "10.44.1.27:80" outbound|8000||httpbin.foo.svc.cluster.local 10.44.1.23:37652 10.0.45.184:8000 10.44.1.23:46520 - default"#;
        let f = sniff(&[line]).unwrap();
        assert_eq!(f.describe(), "Istio (Envoy)");
        assert!(f.names().contains(&"downstream_remote_address".to_string()));
        assert!(f.names().contains(&"upstream_cluster".to_string()));
    }

    /// A real Istio 1.2-era line (from a published write-up of Istio's access logs) and one
    /// shaped like Istio 1.5's docs: each read by its own version's preset.
    #[test]
    fn older_istio_layouts_read() {
        let v1_2 = br#"[2019-09-24T05:57:56.836Z] "POST /256/vendorRetire/list HTTP/1.1" 200 - "-" 113 6029 110 110 "-" "Apache-HttpClient/4.5.7 (Java/1.8.0_192)" "d17359bf-7b4c-4c44-8dab-003c59fa810b" "s267.tsp" "127.0.0.1:8080" inbound|80|http|s267.tsp.svc.cluster.local - 172.25.193.104:8080 172.25.123.74:33340 -"#;
        let f = sniff(&[v1_2]).unwrap();
        assert_eq!(f.describe(), "Istio 1.1 (Envoy)");
        let m = ColumnMap::for_format("e.log", f.as_ref(), &[], None).unwrap();
        let mut out = Fields::default();
        f.split(v1_2, &mut out).unwrap();
        assert_eq!(out.get(m.method), Some(&b"POST"[..]));
        assert_eq!(out.get(m.duration.unwrap()), Some(&b"110"[..]));
        assert_eq!(
            out.get(m.request_id.unwrap()),
            Some(&b"d17359bf-7b4c-4c44-8dab-003c59fa810b"[..])
        );
        let v1_5 = br#"[2020-03-06T09:31:27.360Z] "POST /status/418 HTTP/1.1" 418 - "-" "-" 0 135 5 2 "-" "curl/7.69.1" "d209e46f-9ed5-9b61-bbdd-43e22662702a" "httpbin:8000" "127.0.0.1:80" inbound|8000|http|httpbin.default.svc.cluster.local 127.0.0.1:55842 10.44.1.27:80 10.44.1.23:37652 outbound_.8000_._.httpbin.default.svc.cluster.local default"#;
        let f = sniff(&[v1_5]).unwrap();
        assert_eq!(f.describe(), "Istio 1.3-1.8 (Envoy)");
        assert_eq!(
            compile("istio-1.5").unwrap().describe(),
            "Istio 1.3-1.8 (Envoy)"
        );
        // Istio 1.2's (EnvoyTextLogFormat12): the transport failure reason after Mixer's
        // status, no route name; a POST that timed out upstream (UT, 504).
        let v1_2 = br#"[2019-07-01T10:00:01.000Z] "POST /v1/charges HTTP/1.1" 504 UT "-" "-" 412 24 15001 - "-" "curl/7.64.0" "5c8f6a1e-1b7e-9a3c-8f2d-0a6f3e1d2c4b" "api:8080" "10.44.1.27:8080" outbound|8080||api.default.svc.cluster.local - 10.0.45.184:8080 10.44.1.23:46520 -"#;
        let f = sniff(&[v1_2]).unwrap();
        assert_eq!(f.describe(), "Istio 1.2 (Envoy)");
        let m = ColumnMap::for_format("e.log", f.as_ref(), &[], None).unwrap();
        let mut out = Fields::default();
        f.split(v1_2, &mut out).unwrap();
        assert_eq!(out.get(m.status), Some(&b"504"[..]));
        assert_eq!(out.get(m.duration.unwrap()), Some(&b"15001"[..]));
        assert_eq!(
            compile("istio-1.2").unwrap().describe(),
            "Istio 1.2 (Envoy)"
        );
    }

    /// Envoy's default and Istio's with fields appended: read, the fields named extra_N with
    /// no role, and said so; a line with nothing appended still reads as the preset.
    #[test]
    fn appended_fields_are_read_but_never_guessed() {
        let line = br#"[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80" "k-1 x" 2"#;
        let f = sniff(&[line]).unwrap();
        assert_eq!(
            f.describe(),
            "Envoy default with 2 more fields (extra_1, extra_2)"
        );
        assert!(matches!(
            f.hints().notes[..],
            [crate::logs::FormatNote::EnvoyAppended { extra: 2, .. }]
        ));
        let m = ColumnMap::for_format("e.log", f.as_ref(), &[], None).unwrap();
        assert_eq!(m.idempotency_key, None, "an unnamed field is not the key");
        assert_eq!(m.proxy_attempts, None);
        let named = [(
            crate::logs::role::Role::IdempotencyKey,
            "extra_1".to_string(),
        )];
        let m = ColumnMap::for_format("e.log", f.as_ref(), &named, None).unwrap();
        let mut out = Fields::default();
        f.split(line, &mut out).unwrap();
        assert_eq!(out.get(m.idempotency_key.unwrap()), Some(&b"k-1 x"[..]));
        let istio = br#"[2020-11-25T21:26:18.409Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 4 4 "-" "curl/7.73.0-DEV" "84961386-6d84-929d-98bd-c5aee93b5c88" "httpbin:8000" "10.44.1.27:80" outbound|8000||httpbin.foo.svc.cluster.local 10.44.1.23:37652 10.0.45.184:8000 10.44.1.23:46520 - default "k-9""#;
        assert_eq!(
            sniff(&[istio]).unwrap().describe(),
            "Istio (Envoy) with 1 more field (extra_1)"
        );
        assert_eq!(
            words(b"[a b] \"c d\" e \"f\"g h\""),
            [false, true, false, true]
        );
    }

    #[test]
    fn operator_names() {
        assert_eq!(name("REQ(X-ENVOY-ORIGINAL-PATH?:PATH)"), "path");
        assert_eq!(name("REQ(:METHOD)"), "method");
        assert_eq!(name("REQ(IDEMPOTENCY-KEY)"), "idempotency_key");
        assert_eq!(name("START_TIME(%s)"), "start_time");
        assert_eq!(name("REQ(USER-AGENT):10"), "user_agent");
        assert!(is_envoy("[%START_TIME%] %RESPONSE_CODE%"));
    }
}
