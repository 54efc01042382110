//! Text envelopes: a prefix before the access line, taken off by position.

use super::{Stream, Unwrapped};

/// The next space-separated token of `rest` and what follows the one space after it.
fn token(rest: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memchr(b' ', rest) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[]),
    }
}

/// An RFC 3339 time as one token: `2016-10-06T00:17:09.669794202Z`, `...+02:00`.
pub fn is_rfc3339(t: &[u8]) -> bool {
    t.len() >= 20
        && t[..4].iter().all(u8::is_ascii_digit)
        && t[4] == b'-'
        && t[7] == b'-'
        && t[10] == b'T'
        && t[13] == b':'
        && t[16] == b':'
        && (t.ends_with(b"Z") || t[t.len() - 6] == b'+' || t[t.len() - 6] == b'-')
}

fn shown_token(t: &[u8]) -> String {
    let t = &t[..t.len().min(40)];
    String::from_utf8_lossy(t).into_owned()
}

/// CRI: `<RFC 3339 time> <stdout|stderr> <F|P>[:more tags] <text>`.
pub fn cri(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let (time, rest) = token(line);
    if !is_rfc3339(time) {
        return Err(format!(
            "expected a CRI line ('<RFC 3339 time> stdout|stderr F|P text'), found '{}' where the time goes",
            shown_token(time)
        ));
    }
    let (stream, rest) = token(rest);
    let stream = match stream {
        b"stdout" => Stream::Stdout,
        b"stderr" => Stream::Stderr,
        other => {
            return Err(format!(
                "expected stdout or stderr after the CRI time, found '{}'",
                shown_token(other)
            ));
        }
    };
    // The tag (`F`, `P`, or either with `:`-separated others after it); runtimes older than
    // the tags wrote the text right after the stream.
    let (tags, after) = token(rest);
    let (partial, text) = match tags.split(|&b| b == b':').next() {
        Some(b"F") => (false, after),
        Some(b"P") => (true, after),
        _ => (false, rest),
    };
    Ok(Unwrapped {
        text,
        time: Some(time),
        stream,
        partial,
    })
}

/// An optional `<PRI>`: the rest after it; Err for a PRI that is not 0..=191.
fn pri(line: &[u8]) -> Result<&[u8], String> {
    let Some(rest) = line.strip_prefix(b"<") else {
        return Ok(line);
    };
    let end = memchr::memchr(b'>', &rest[..rest.len().min(5)])
        .ok_or_else(|| "expected a syslog PRI ('<0>' to '<191>') at the start".to_string())?;
    let digits = &rest[..end];
    let value = std::str::from_utf8(digits)
        .ok()
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse::<u16>().ok());
    match value {
        Some(v) if v <= 191 => Ok(&rest[end + 1..]),
        _ => Err(format!(
            "expected a syslog PRI from <0> to <191>, found '<{}>'",
            shown_token(digits)
        )),
    }
}

/// Syslog RFC 5424: `<PRI>1 TIME HOST APP PROCID MSGID SD MSG` (PRI optional).
pub fn syslog_5424(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let rest = pri(line)?;
    let (version, rest) = token(rest);
    if version != b"1" {
        return Err(format!(
            "expected syslog RFC 5424 ('<PRI>1 TIME HOST APP PROCID MSGID SD MSG'), found '{}' where the version 1 goes",
            shown_token(version)
        ));
    }
    let (time, rest) = token(rest);
    if time != b"-" && !is_rfc3339(time) {
        return Err(format!(
            "expected an RFC 3339 time or '-' in the syslog header, found '{}'",
            shown_token(time)
        ));
    }
    let (_host, rest) = token(rest);
    let (_app, rest) = token(rest);
    let (_procid, rest) = token(rest);
    let (_msgid, rest) = token(rest);
    let msg = structured_data(rest)?;
    let msg = msg.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(msg);
    Ok(Unwrapped {
        text: msg,
        time: (time != b"-").then_some(time),
        stream: Stream::Unknown,
        partial: false,
    })
}

/// Skips RFC 5424 structured data (`-` or `[id k="v"]...`, `\]` and `\"` escaped inside
/// values): the message after it.
fn structured_data(rest: &[u8]) -> Result<&[u8], String> {
    if let Some(msg) = rest.strip_prefix(b"-") {
        return Ok(msg.strip_prefix(b" ").unwrap_or(msg));
    }
    if rest.first() != Some(&b'[') {
        return Err("expected structured data ('-' or '[...]') in the syslog header".into());
    }
    let mut i = 0;
    while rest.get(i) == Some(&b'[') {
        let mut quoted = false;
        i += 1;
        loop {
            match rest.get(i) {
                None => return Err("structured data '[...' not closed".into()),
                Some(b'\\') if quoted => i += 2,
                Some(b'"') => {
                    quoted = !quoted;
                    i += 1;
                }
                Some(b']') if !quoted => {
                    i += 1;
                    break;
                }
                Some(_) => i += 1,
            }
        }
    }
    let msg = rest.get(i..).unwrap_or_default();
    Ok(msg.strip_prefix(b" ").unwrap_or(msg))
}

const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

/// Syslog RFC 3164: `[<PRI>]Mmm dd hh:mm:ss HOST TAG[PID]: MSG`, or with an RFC 3339 time
/// (rsyslog's high-precision file format). Its `Mmm dd` time has no year: not used. A sender
/// that writes no tag (Fastly's syslog endpoint with its blank line format) leaves two spaces
/// after the host: the message follows them.
pub fn syslog_3164(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let rest = pri(line)?;
    let (time, rest) = if rest.len() >= 16
        && MONTHS.contains(&&rest[..3])
        && rest[3] == b' '
        && rest[9] == b':'
        && rest[12] == b':'
        && rest[15] == b' '
    {
        (None, &rest[16..])
    } else {
        let (time, rest) = token(rest);
        if !is_rfc3339(time) {
            return Err(format!(
                "expected syslog ('Mmm dd hh:mm:ss HOST TAG: MSG'), found '{}' where the time goes",
                shown_token(time)
            ));
        }
        (Some(time), rest)
    };
    let (_host, rest) = token(rest);
    if let Some(msg) = rest.strip_prefix(b" ")
        && msg.first().is_some_and(|&b| b != b' ')
    {
        return Ok(Unwrapped {
            text: msg,
            time,
            stream: Stream::Unknown,
            partial: false,
        });
    }
    // TAG[PID]: or TAG: ; the tag is at most 48 characters without spaces.
    let head = &rest[..rest.len().min(64)];
    let colon = memchr::memchr(b':', head)
        .filter(|&i| i > 0 && !head[..i].contains(&b' '))
        .ok_or_else(|| "expected the syslog tag ('TAG[PID]: ') after the host".to_string())?;
    let msg = &rest[colon + 1..];
    Ok(Unwrapped {
        text: msg.strip_prefix(b" ").unwrap_or(msg),
        time,
        stream: Stream::Unknown,
        partial: false,
    })
}

/// `kubectl logs --prefix [--timestamps]`: `[pod/NAME/CONTAINER] [TIME ]line`.
pub fn kubectl(line: &[u8], timestamps: bool) -> Result<Unwrapped<'_>, String> {
    let Some(rest) = line.strip_prefix(b"[") else {
        return Err("expected kubectl's prefix '[pod/NAME/CONTAINER] '".into());
    };
    let end = memchr::memchr(b']', &rest[..rest.len().min(320)])
        .filter(|&i| rest[..i].contains(&b'/') && rest.get(i + 1) == Some(&b' '))
        .ok_or_else(|| "expected kubectl's prefix '[pod/NAME/CONTAINER] '".to_string())?;
    let rest = &rest[end + 2..];
    if !timestamps {
        return Ok(Unwrapped {
            text: rest,
            time: None,
            stream: Stream::Unknown,
            partial: false,
        });
    }
    timestamped(rest)
}

/// stern: `POD CONTAINER line` (the pod's name has a '-', as Kubernetes' generated names do).
pub fn stern(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let (pod, rest) = token(line);
    let (container, text) = token(rest);
    let name = |t: &[u8]| {
        !t.is_empty()
            && t.iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    };
    if !name(pod) || !pod.contains(&b'-') || !name(container) {
        return Err("expected stern's prefix 'POD CONTAINER '".into());
    }
    Ok(Unwrapped {
        text,
        time: None,
        stream: Stream::Unknown,
        partial: false,
    })
}

/// `<RFC 3339 time> <line>`.
pub fn timestamped(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let (time, text) = token(line);
    if !is_rfc3339(time) {
        return Err(format!(
            "expected an RFC 3339 time before the line, found '{}'",
            shown_token(time)
        ));
    }
    Ok(Unwrapped {
        text,
        time: Some(time),
        stream: Stream::Unknown,
        partial: false,
    })
}

/// Loki's `logcli query`: `<RFC 3339 time> {label="value", ...} <line>`.
pub fn logcli(line: &[u8]) -> Result<Unwrapped<'_>, String> {
    let t = timestamped(line)?;
    let rest = t.text;
    if rest.first() != Some(&b'{') {
        return Err("expected logcli's labels '{...}' after the time".into());
    }
    let mut quoted = false;
    let mut i = 1;
    loop {
        match rest.get(i) {
            None => return Err("logcli's labels '{...' not closed".into()),
            Some(b'\\') if quoted => i += 2,
            Some(b'"') => {
                quoted = !quoted;
                i += 1;
            }
            Some(b'}') if !quoted => break,
            Some(_) => i += 1,
        }
    }
    let text = rest.get(i + 1..).unwrap_or_default();
    Ok(Unwrapped {
        text: text.trim_ascii_start(),
        ..t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cri_lines() {
        let u = cri(b"2016-10-06T00:17:09.669794202Z stdout F log content 1").unwrap();
        assert_eq!(u.text, b"log content 1");
        assert_eq!(u.stream, Stream::Stdout);
        assert!(!u.partial);
        let u = cri(b"2016-10-06T00:17:10.113242941Z stderr P log content 2").unwrap();
        assert!(u.partial);
        assert_eq!(u.stream, Stream::Stderr);
        let u = cri(b"2016-10-06T00:17:10.113242941Z stdout F").unwrap();
        assert_eq!(u.text, b"");
        assert!(cri(b"2016-10-06 stdout F x").unwrap_err().contains("time"));
        assert!(
            cri(b"2016-10-06T00:17:10Z stdin F x")
                .unwrap_err()
                .contains("stdout")
        );
        let u = cri(b"2017-09-12T22:32:21.212861448Z stdout 2017-09-12 x").unwrap();
        assert_eq!((u.text, u.partial), (&b"2017-09-12 x"[..], false), "no tag");
    }

    #[test]
    fn syslog_lines() {
        let u = syslog_5424(
            br#"<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Appl\]ication"] An application event"#,
        )
        .unwrap();
        assert_eq!(u.text, b"An application event");
        assert_eq!(u.time, Some(&b"2003-10-11T22:14:15.003Z"[..]));
        let u = syslog_5424(b"<34>1 - host app - - - msg").unwrap();
        assert_eq!((u.text, u.time), (&b"msg"[..], None));
        assert!(
            syslog_5424(b"<999>1 - h a - - - m")
                .unwrap_err()
                .contains("PRI")
        );
        let u = syslog_3164(b"<34>Oct 11 22:14:15 mymachine su[230]: 'su root' failed").unwrap();
        assert_eq!(u.text, b"'su root' failed");
        assert_eq!(u.time, None);
        let u = syslog_3164(b"2024-01-02T03:04:05.123456+00:00 web nginx: 1.2.3.4 - -").unwrap();
        assert_eq!(u.text, b"1.2.3.4 - -");
        assert!(u.time.is_some());
        assert!(syslog_3164(b"<5000000>Oct").is_err());
        // No tag: two spaces after the host (Fastly's blank format through rsyslog).
        let u = syslog_3164(b"2021-11-12T16:59:46.613304+00:00 1.1.1.1  {\"url\": \"/\"}").unwrap();
        assert_eq!((u.text, u.time.is_some()), (&b"{\"url\": \"/\"}"[..], true));
        let u = syslog_3164(b"Oct 11 22:14:15 cache-cdg20764  1.2.3.4 - -").unwrap();
        assert_eq!(u.text, b"1.2.3.4 - -");
        assert!(syslog_3164(b"Oct 11 22:14:15 host no tag here").is_err());
    }

    #[test]
    fn prefixes() {
        let u = kubectl(b"[pod/web-1/nginx] 1.2.3.4 - -", false).unwrap();
        assert_eq!(u.text, b"1.2.3.4 - -");
        let u = kubectl(b"[pod/web-1/nginx] 2024-01-02T03:04:05.1Z 1.2.3.4", true).unwrap();
        assert_eq!((u.text, u.time.is_some()), (&b"1.2.3.4"[..], true));
        let u = stern(b"web-7d9f-abcde nginx 1.2.3.4 - -").unwrap();
        assert_eq!(u.text, b"1.2.3.4 - -");
        let u = logcli(br#"2024-01-02T03:04:05Z {app="web", pod="a b"} 1.2.3.4 - -"#).unwrap();
        assert_eq!(u.text, b"1.2.3.4 - -");
        assert!(logcli(b"2024-01-02T03:04:05Z {app=").is_err());
    }
}
