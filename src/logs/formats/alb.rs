//! AWS Application Load Balancer and classic Elastic Load Balancer access logs, exactly as
//! delivered to S3 (`.log.gz`, one file per 5 minutes per node): space-separated fields, some
//! in double quotes (the request line, the user agent, the trace id...), `-` for a value the
//! load balancer did not have.
//!
//! Fields are named as AWS's Athena tables name them (`elb_status_code`, `target_status_code`,
//! `request_verb`, `request_url`, `trace_id`, ...), so the roles are found by the usual
//! aliases. `client:port` and `target:port` are split into `client_ip`/`client_port` and
//! `target_ip`/`target_port`; the quoted `"METHOD URL PROTO"` into `request_verb`,
//! `request_url` and `request_proto`. AWS adds fields at the end of the line from time to
//! time and says to ignore the ones a reader does not know: a line may have more fields than
//! [`ALB_NAMES`] (the rest is ignored) or fewer, as older logs have (the missing ones are
//! empty), down to the request line.
//!
//! One field is dupcost's own: `duration_s`, the sum of the three processing times in
//! seconds (request, target, response: the load balancer's whole time on the request). AWS
//! writes `-1` for a processing time when the load balancer could not dispatch the request
//! or the connection closed before the answer (a 460, a 504 or a 502); the sum is then
//! unknown and `duration_s` is `-`: such a row gives up by its status, never by a guessed
//! duration. An `elb_status_code` of `-` (no response was sent) is read as status 0, the
//! give-up other proxies write.

use super::entry::{Detect, FormatEntry, Looks, Reading, Sample};
use super::{Fields, FormatHints, LineFormat};
use crate::logs::formats::DurationUnit;
use crate::logs::role::Role;

/// ALB fields (Athena's `alb_access_logs` names), in log order, then `duration_s`.
pub const ALB_NAMES: [&str; 38] = [
    "type",
    "time",
    "elb",
    "client_ip",
    "client_port",
    "target_ip",
    "target_port",
    "request_processing_time",
    "target_processing_time",
    "response_processing_time",
    "elb_status_code",
    "target_status_code",
    "received_bytes",
    "sent_bytes",
    "request_verb",
    "request_url",
    "request_proto",
    "user_agent",
    "ssl_cipher",
    "ssl_protocol",
    "target_group_arn",
    "trace_id",
    "domain_name",
    "chosen_cert_arn",
    "matched_rule_priority",
    "request_creation_time",
    "actions_executed",
    "redirect_url",
    "lambda_error_reason",
    "target_port_list",
    "target_status_code_list",
    "classification",
    "classification_reason",
    "conn_trace_id",
    "transformed_host",
    "transformed_uri",
    "request_transform_status",
    "duration_s",
];

/// Classic ELB fields (AWS's documented names), in log order, then `duration_s`.
pub const ELB_NAMES: [&str; 20] = [
    "timestamp",
    "elb",
    "client_ip",
    "client_port",
    "backend_ip",
    "backend_port",
    "request_processing_time",
    "backend_processing_time",
    "response_processing_time",
    "elb_status_code",
    "backend_status_code",
    "received_bytes",
    "sent_bytes",
    "request_verb",
    "request_url",
    "request_proto",
    "user_agent",
    "ssl_cipher",
    "ssl_protocol",
    "duration_s",
];

/// ALB connection types, the first field of its lines.
const ALB_TYPES: [&[u8]; 6] = [b"http", b"https", b"h2", b"grpcs", b"ws", b"wss"];

/// Which of the two load balancers wrote the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balancer {
    /// Application Load Balancer (`type time elb client:port target:port ...`).
    Alb,
    /// Classic Elastic Load Balancer (`time elb client:port backend:port ...`).
    Elb,
}

/// The fixed shape of one balancer's lines.
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// Raw field index of `client:port`; `target:port` follows it.
    client: usize,
    /// Raw field index of the first processing time; two more follow it.
    times: usize,
    /// Raw field index of the quoted request line.
    request: usize,
    /// Raw fields a line has at most that are read (later ones are ignored).
    raw: usize,
}

impl Balancer {
    fn shape(self) -> Shape {
        match self {
            // Every name but duration_s is a raw field, or one of two halves of a split one.
            Balancer::Alb => Shape {
                client: 3,
                times: 5,
                request: 12,
                raw: ALB_NAMES.len() - 1 - 4,
            },
            Balancer::Elb => Shape {
                client: 2,
                times: 4,
                request: 11,
                raw: ELB_NAMES.len() - 1 - 4,
            },
        }
    }

    fn names(self) -> &'static [&'static str] {
        match self {
            Balancer::Alb => &ALB_NAMES,
            Balancer::Elb => &ELB_NAMES,
        }
    }
}

/// An ALB or classic ELB access log.
#[derive(Debug, Clone, Copy)]
pub struct AwsLoadBalancer {
    pub balancer: Balancer,
}

impl AwsLoadBalancer {
    pub fn new(balancer: Balancer) -> Self {
        AwsLoadBalancer { balancer }
    }
}

/// The raw fields of a line: space-separated, a field that starts with `"` runs to the next
/// `"` that ends the field (not escaped as `\"`, followed by a space or the end of the line),
/// so a user agent may hold spaces and quotes. The enclosing quotes are dropped.
pub fn raw_fields<'a>(
    line: &'a [u8],
    mut each: impl FnMut(&'a [u8]) -> bool,
) -> Result<(), String> {
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'"' {
            let mut j = i + 1;
            loop {
                match memchr::memchr(b'"', &line[j..]) {
                    Some(k) => {
                        let close = j + k;
                        let escaped = close > i + 1 && line[close - 1] == b'\\';
                        if !escaped && (close + 1 == line.len() || line[close + 1] == b' ') {
                            if !each(&line[i + 1..close]) {
                                return Ok(());
                            }
                            i = close + 2;
                            break;
                        }
                        j = close + 1;
                    }
                    None => {
                        return Err(format!(
                            "a quoted field opened at column {} is not closed",
                            i + 1
                        ));
                    }
                }
            }
        } else {
            let end = memchr::memchr(b' ', &line[i..]).map_or(line.len(), |k| i + k);
            if !each(&line[i..end]) {
                return Ok(());
            }
            i = end + 1;
        }
    }
    Ok(())
}

/// `10.0.0.1:443` as (`10.0.0.1`, `443`); `-` as (`-`, `-`).
fn host_port(field: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memrchr(b':', field) {
        Some(i) => (&field[..i], &field[i + 1..]),
        None => (field, b"-"),
    }
}

/// `GET https://host:443/p?q HTTP/1.1` as its three parts (`- - - ` when the request could
/// not be read: all `-`).
fn request_parts(field: &[u8]) -> [&[u8]; 3] {
    // A TCP listener's `- - - ` (with its trailing space) is three `-`.
    let field = field.trim_ascii_end();
    let Some(first) = memchr::memchr(b' ', field) else {
        return [field, b"", b""];
    };
    let (verb, rest) = (&field[..first], &field[first + 1..]);
    match memchr::memrchr(b' ', rest) {
        Some(last) => [verb, &rest[..last], &rest[last + 1..]],
        None => [verb, rest, b""],
    }
}

/// A processing time in seconds; `None` for AWS's `-1` (not dispatched, or closed before
/// the answer) and for anything that is not a number.
fn processing_time(field: &[u8]) -> Option<f64> {
    let v: f64 = std::str::from_utf8(field).ok()?.parse().ok()?;
    (v >= 0.0 && v.is_finite()).then_some(v)
}

impl LineFormat for AwsLoadBalancer {
    fn describe(&self) -> String {
        match self.balancer {
            Balancer::Alb => "AWS ALB".to_string(),
            Balancer::Elb => "AWS classic ELB".to_string(),
        }
    }

    fn names(&self) -> Vec<String> {
        self.balancer
            .names()
            .iter()
            .map(|n| n.to_string())
            .collect()
    }

    fn hints(&self) -> FormatHints {
        FormatHints {
            duration_unit: Some(DurationUnit::Seconds),
            flags_style: None,
            ..FormatHints::default()
        }
    }

    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let shape = self.balancer.shape();
        let mut raw = 0;
        let mut times = [None; 3];
        let mut any_time_missing = false;
        let mut not_http = None;
        let mut no_client = None;
        raw_fields(line, |field| {
            if raw == 0 && self.balancer == Balancer::Alb && !ALB_TYPES.contains(&field) {
                // NLB's `tls` records (or any other type) in the same bucket: no request.
                not_http = Some(field);
                return false;
            }
            if raw == shape.client && !field.contains(&b':') {
                // AWS always writes the client's `ip:port`: a line without it is another
                // format's (a Heroku router line's `at=info`), however many fields it has.
                no_client = Some(field);
                return false;
            }
            if raw == shape.client || raw == shape.client + 1 {
                let (host, port) = host_port(field);
                out.push(host);
                out.push(port);
            } else if raw == shape.request {
                for part in request_parts(field) {
                    out.push(part);
                }
            } else if raw == shape.times + 3 && field == b"-" {
                // The load balancer sent no response (the connection went before one):
                // status 0, as other proxies write it, a give-up.
                out.push(b"0");
            } else {
                if (shape.times..shape.times + 3).contains(&raw) {
                    times[raw - shape.times] = processing_time(field);
                    any_time_missing |= times[raw - shape.times].is_none();
                }
                out.push(field);
            }
            raw += 1;
            raw < shape.raw
        })?;
        if let Some(kind) = not_http {
            return Err(format!(
                "expected an AWS ALB line, whose first field is its type ({}), found '{}'",
                ALB_TYPES
                    .iter()
                    .map(|t| String::from_utf8_lossy(t))
                    .collect::<Vec<_>>()
                    .join(", "),
                crate::logs::error::shown(kind)
            ));
        }
        if let Some(field) = no_client {
            return Err(format!(
                "expected the client's ip:port at column {}, found '{}'",
                field.as_ptr() as usize - line.as_ptr() as usize + 1,
                crate::logs::error::shown(field)
            ));
        }
        if raw <= shape.request {
            return Err(format!(
                "expected an {} line of at least {} space-separated fields up to the quoted \
                 request, found {raw} (the line ends at column {})",
                self.describe(),
                shape.request + 1,
                line.len() + 1
            ));
        }
        // Older logs end earlier: their later fields are empty.
        let names = self.balancer.names().len();
        while out.ends.len() < names - 1 {
            out.push(b"");
        }
        if any_time_missing {
            out.push(b"-");
        } else {
            let total: f64 = times.iter().flatten().sum();
            let start = out.data.len();
            use std::io::Write;
            let _ = write!(out.data, "{total}");
            debug_assert!(out.data.len() > start);
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

/// An ALB or classic ELB log, if the first lines are one.
pub fn sniff(first_lines: &[&[u8]]) -> Option<Box<dyn LineFormat>> {
    let line = first_lines.iter().find(|l| !l.trim_ascii().is_empty())?;
    let mut raw: Vec<&[u8]> = Vec::with_capacity(16);
    raw_fields(line.strip_suffix(b"\r").unwrap_or(line), |f| {
        raw.push(f);
        raw.len() < 16
    })
    .ok()?;
    let iso = |f: &[u8]| f.len() >= 20 && f[4] == b'-' && f[10] == b'T';
    let balancer = if raw.len() >= 13 && ALB_TYPES.contains(&raw[0]) && iso(raw[1]) {
        Balancer::Alb
    } else if raw.len() >= 12 && iso(raw[0]) && raw[2].contains(&b':') {
        Balancer::Elb
    } else {
        return None;
    };
    let format = AwsLoadBalancer::new(balancer);
    let mut fields = Fields::default();
    format.split(line, &mut fields).ok()?;
    Some(Box::new(format))
}

/// Its row of the formats' catalog (`catalog::CATALOG` lists it): how it is told, read,
/// refused and sampled.
pub const ENTRY: FormatEntry = FormatEntry {
    name: "alb",
    named: true,
    describe: "AWS Application Load Balancer access log (classic ELB's told apart)",
    detect: Some(Detect {
        order: 10,
        sniff: |lines, _| sniff(lines),
    }),
    reading: Reading::Built {
        build: alb_lb,
        bare_first: true,
    },
    candidates: |lines| vec![alb_lb(lines)],
    looks: Some(Looks {
        name: "AWS ALB",
        test: |l| {
            [&b"http "[..], b"https ", b"h2 ", b"grpcs ", b"ws ", b"wss "]
                .iter()
                .any(|t| l.starts_with(t))
        },
    }),
    compile: None,
    told: None,
    flags: &[],
    samples: &[Sample {
        name: "ALB",
        lines: r#"http 2026-11-01T10:00:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2026-11-01T10:00:00.185000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd5678ef90"#,
        detected: true,
        reads: &[
            (Role::Timestamp, "2026-11-01T10:00:00.186641Z"),
            (Role::Method, "GET"),
            (Role::Path, "http://www.example.com:80/"),
            (Role::Status, "200"),
            (Role::UpstreamStatus, "200"),
            (Role::Duration, "0.001"),
        ],
        gave_up: None,
    }],
};

/// Classic ELB's row of the formats' catalog: ALB's sniff tells it, `--input-format elb`
/// names it.
pub const ELB: FormatEntry = FormatEntry {
    name: "elb",
    named: true,
    describe: "AWS classic Elastic Load Balancer access log",
    // Told by ALB's sniff, which tells the two apart.
    detect: None,
    reading: Reading::Built {
        build: elb_lb,
        bare_first: true,
    },
    candidates: |lines| vec![elb_lb(lines)],
    looks: Some(Looks {
        name: "AWS classic ELB",
        test: |l| l.len() >= 20 && l[4] == b'-' && l[10] == b'T',
    }),
    compile: None,
    told: None,
    flags: &[],
    samples: &[Sample {
        name: "classic ELB",
        lines: r#"2026-11-01T10:00:05.945958Z my-loadbalancer 192.168.131.39:2818 10.0.0.1:80 0.000086 0.201048 0.000057 201 201 512 88 "POST https://api.example.com:443/v1/orders HTTP/1.1" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2"#,
        detected: false,
        reads: &[
            (Role::Timestamp, "2026-11-01T10:00:05.945958Z"),
            (Role::Method, "POST"),
            (Role::Path, "https://api.example.com:443/v1/orders"),
            (Role::Status, "201"),
            (Role::UpstreamStatus, "201"),
            (Role::Duration, "0.201191"),
        ],
        gave_up: None,
    }],
};

fn alb_lb(_: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(AwsLoadBalancer::new(Balancer::Alb))
}

fn elb_lb(_: &[&[u8]]) -> Box<dyn LineFormat> {
    Box::new(AwsLoadBalancer::new(Balancer::Elb))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{field, fields as split};
    use super::*;

    /// AWS's documented HTTPS example, with the fields added since.
    const ALB_LINE: &[u8] = b"https 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 \"GET https://www.example.com:443/ HTTP/1.1\" \"curl/7.46.0 (x86_64; like Gecko)\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337281-1d84f3d73c47ec4e58577259\" \"www.example.com\" \"arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012\" 1 2018-07-02T22:22:48.364000Z \"authenticate,forward\" \"-\" \"-\" \"10.0.0.1:80\" \"200\" \"-\" \"-\" TID_1234abcd5678ef90";

    /// `elb_status_code` `-`: no response was sent, read as 0 (a give-up).
    #[test]
    fn elb_status_dash_is_no_response() {
        let alb = AwsLoadBalancer::new(Balancer::Alb);
        let line = b"https 2026-11-01T00:00:01.000000Z app/lb/1 10.0.0.7:5000 - -1 -1 -1 - - 512 0 \"POST https://api.example.com:443/v1/pay HTTP/1.1\" \"curl/8\" - - - \"Root=1-a\" \"-\" \"-\" 0 2026-11-01T00:00:00.000000Z \"forward\" \"-\" \"-\" \"-\" \"-\" \"-\" \"-\" TID_1";
        let f = split(&alb, line).unwrap();
        assert_eq!(field(&alb, &f, "elb_status_code"), "0");
        assert_eq!(field(&alb, &f, "target_status_code"), "-");
        assert_eq!(field(&alb, &f, "duration_s"), "-");
    }

    #[test]
    fn alb_line() {
        let alb = sniff(&[ALB_LINE]).expect("sniffed");
        assert_eq!(alb.describe(), "AWS ALB");
        let f = split(alb.as_ref(), ALB_LINE).unwrap();
        let get = |n| field(alb.as_ref(), &f, n);
        assert_eq!(get("time"), "2018-07-02T22:23:00.186641Z");
        assert_eq!(get("client_ip"), "192.168.131.39");
        assert_eq!(get("client_port"), "2817");
        assert_eq!(get("elb_status_code"), "200");
        assert_eq!(get("request_verb"), "GET");
        assert_eq!(get("request_url"), "https://www.example.com:443/");
        assert_eq!(get("request_proto"), "HTTP/1.1");
        assert_eq!(get("user_agent"), "curl/7.46.0 (x86_64; like Gecko)");
        assert_eq!(get("trace_id"), "Root=1-58337281-1d84f3d73c47ec4e58577259");
        assert_eq!(get("actions_executed"), "authenticate,forward");
        assert_eq!(get("conn_trace_id"), "TID_1234abcd5678ef90");
        assert_eq!(get("transformed_host"), "");
        assert_eq!(get("duration_s").parse::<f64>().unwrap(), 0.171);
    }

    #[test]
    fn alb_give_up_and_dashes() {
        // A 460: the client closed before the answer; the target's status and times unknown.
        let line = b"h2 2026-11-01T00:00:31.000001Z app/lb/1 10.0.0.7:5000 10.1.2.3:8080 0.001 -1 -1 460 - 512 0 \"POST https://api.example.com:443/v1/payments HTTP/2.0\" \"Mozilla/5.0 (X11; Linux x86_64) \\\"quoted\\\" agent\" - - arn \"Root=1-abc\" \"-\" \"-\" 0 2026-11-01T00:00:01.000001Z \"forward\" \"-\" \"-\" \"10.1.2.3:8080\" \"-\" \"-\" \"-\"";
        let alb = AwsLoadBalancer::new(Balancer::Alb);
        let f = split(&alb, line).unwrap();
        let get = |n| field(&alb, &f, n);
        assert_eq!(get("target_status_code"), "-");
        assert_eq!(get("duration_s"), "-", "a -1 time makes the sum unknown");
        assert_eq!(
            get("user_agent"),
            "Mozilla/5.0 (X11; Linux x86_64) \\\"quoted\\\" agent"
        );
        assert_eq!(
            get("conn_trace_id"),
            "",
            "an older line: later fields empty"
        );
        // Extra fields AWS may add later are ignored.
        let mut longer = ALB_LINE.to_vec();
        longer.extend_from_slice(b" \"h\" \"/u\" \"s\" \"new\" more");
        let f = split(&alb, &longer).unwrap();
        assert_eq!(field(&alb, &f, "request_transform_status"), "s");
        assert_eq!(field(&alb, &f, "duration_s"), "0.171");
    }

    #[test]
    fn classic_elb() {
        let line = b"2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 \"GET http://www.example.com:80/ HTTP/1.1\" \"curl/7.38.0\" - -";
        let elb = sniff(&[line]).expect("sniffed");
        assert_eq!(elb.describe(), "AWS classic ELB");
        let f = split(elb.as_ref(), line).unwrap();
        let get = |n| field(elb.as_ref(), &f, n);
        assert_eq!(get("timestamp"), "2015-05-13T23:39:43.945958Z");
        assert_eq!(get("backend_ip"), "10.0.0.1");
        assert_eq!(get("backend_status_code"), "200");
        assert_eq!(get("request_url"), "http://www.example.com:80/");
        assert_eq!(get("user_agent"), "curl/7.38.0");
        assert!((get("duration_s").parse::<f64>().unwrap() - 0.001178).abs() < 1e-12);
        // A TCP listener's line: no request.
        let tcp = b"2015-05-13T23:39:43.945958Z my-lb 192.168.131.39:2817 10.0.0.1:80 0.001069 0.000028 0.000041 - - 82 305 \"- - - \" \"-\" - -";
        let f = split(elb.as_ref(), tcp).unwrap();
        assert_eq!(field(elb.as_ref(), &f, "request_verb"), "-");
    }

    #[test]
    fn bad_lines() {
        // A line of as many fields, but no client address where AWS writes one (Heroku's
        // router): the field and its column, never read as a classic ELB line.
        let elb = AwsLoadBalancer::new(Balancer::Elb);
        let heroku = b"2022-04-18T02:04:13.281885+00:00 heroku[router]: at=info method=POST path=\"/api\" host=a.herokuapp.com request_id=1724c365 fwd=\"209.6.143.60\" dyno=web.1 connect=0ms service=425ms status=200 bytes=2395747 protocol=https";
        let err = split(&elb, heroku).unwrap_err();
        assert_eq!(
            err,
            "expected the client's ip:port at column 50, found 'at=info'"
        );
        let alb = AwsLoadBalancer::new(Balancer::Alb);
        let err = split(&alb, b"https 2018-07-02T22:23:00Z app/x 1.2.3.4:5").unwrap_err();
        assert!(err.contains("at least 13"), "{err}");
        let err = split(&alb, b"https 2018 a b:1 c d e f g h i j \"GET / HTTP/1.1").unwrap_err();
        assert!(err.contains("not closed"), "{err}");
        for garbage in [&b""[..], b"\xff\xfe\x00", b"\"", b"\" \"", b"a b c"] {
            let _ = split(&alb, garbage);
            let _ = split(&AwsLoadBalancer::new(Balancer::Elb), garbage);
            assert!(sniff(&[garbage]).is_none());
        }
        assert!(sniff(&[b"timestamp,method,path,status"]).is_none());
    }
}
