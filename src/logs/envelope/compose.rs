//! `docker compose logs` (and `docker-compose logs`) output: each line after its
//! service's prefix, `caddy-1  | {...}` (Compose v2, `SERVICE-N`) or `caddy_1  | ...`
//! (v1), the name padded with spaces to the longest, then `| `; with `--timestamps`, an
//! RFC 3339 time after the bar. Compose does not say the stream.

use super::text::is_rfc3339;
use super::{Stream, Unwrapped};

/// `<service>[ ...] | [<RFC 3339 time> ]<line>`.
pub fn compose(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let expected = || "expected docker compose's prefix 'SERVICE  | '".to_string();
    let bar = memchr::memmem::find(line, b" | ")
        .or_else(|| line.ends_with(b" |").then(|| line.len() - 2))
        .ok_or_else(expected)?;
    let name = line[..bar].trim_ascii_end();
    let name_ok = !name.is_empty()
        && name.len() <= 128
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !name_ok {
        return Err(expected());
    }
    let text = line.get(bar + 3..).unwrap_or_default();
    let (time, text) = match memchr::memchr(b' ', text) {
        Some(i) if is_rfc3339(&text[..i]) => (Some(&text[..i]), &text[i + 1..]),
        _ => (None, text),
    };
    Ok(Unwrapped {
        text,
        time,
        stream: Stream::Unknown,
        partial: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_prefixes() {
        let u = compose(br#"caddy-1  | {"level":"info","ts":1.5}"#).unwrap();
        assert_eq!(u.text, br#"{"level":"info","ts":1.5}"#);
        assert_eq!(u.time, None);
        let u = compose(b"web_1    | 2026-11-01T10:00:00.123456789Z 10.0.0.1 - - [x]").unwrap();
        assert_eq!(u.text, b"10.0.0.1 - - [x]");
        assert_eq!(u.time, Some(&b"2026-11-01T10:00:00.123456789Z"[..]));
        assert_eq!(compose(b"proxy-1  |").unwrap().text, b"");
        for bad in [
            &b"10.0.0.1 - - [01/Nov/2026:10:00:00 +0000] \"GET /a|b HTTP/1.1\" 200 1"[..],
            b" | x",
            b"no bar here",
        ] {
            assert!(compose(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
