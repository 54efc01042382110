//! Which column plays which role, recognised from the header.
//!
//! Header names are compared case-insensitively, ignoring `-`, `_`, `.`, `$`, `@` and spaces,
//! so `$request_method`, `Request-Method` and `requestmethod` are the same name. For each role
//! the aliases are tried in order and the first header that matches wins; `--column ROLE=HEADER`
//! overrides the search.

use std::fmt;
use std::str::FromStr;

use super::error::LogError;

/// What a column means to the derivation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Timestamp,
    Method,
    Path,
    Status,
    UpstreamStatus,
    Duration,
    IdempotencyKey,
    Bytes,
    /// The proxy's own account of how a request ended (Envoy `response_flags`, HAProxy
    /// `termination_state`).
    Flags,
    /// A per-attempt request id (nginx `$request_id`, ALB `trace_id`, Envoy `x-request-id`):
    /// never an intent key; it joins a timed-out attempt to the backend's own log.
    RequestId,
}

impl Role {
    pub const ALL: [Role; 10] = [
        Role::Timestamp,
        Role::Method,
        Role::Path,
        Role::Status,
        Role::UpstreamStatus,
        Role::Duration,
        Role::IdempotencyKey,
        Role::Bytes,
        Role::Flags,
        Role::RequestId,
    ];

    /// The role's name as written in `--column ROLE=HEADER`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Timestamp => "timestamp",
            Role::Method => "method",
            Role::Path => "path",
            Role::Status => "status",
            Role::UpstreamStatus => "upstream_status",
            Role::Duration => "duration",
            Role::IdempotencyKey => "idempotency_key",
            Role::Bytes => "bytes",
            Role::Flags => "flags",
            Role::RequestId => "request_id",
        }
    }

    /// Recognised header names, normalised (see [`normalize`]), best first. Generic names,
    /// then nginx variables, AWS ALB, Traefik, Envoy and HAProxy fields.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Role::Timestamp => &[
                "timestamp",
                "time",
                "datetime",
                "date",
                "ts",
                "timeiso8601",         // nginx $time_iso8601
                "timelocal",           // nginx $time_local
                "msec",                // nginx $msec
                "startutc",            // Traefik StartUTC
                "startlocal",          // Traefik StartLocal
                "requestcreationtime", // ALB request_creation_time
                "starttime",           // Envoy %START_TIME%
                "acceptdate",          // HAProxy accept_date
                "eventtime",
                "logtime",
            ],
            Role::Method => &[
                "method",
                "httpmethod",
                "requestmethod", // nginx $request_method, Traefik RequestMethod
                "verb",
                "requestverb", // ALB request_verb
                "httpverb",
            ],
            Role::Path => &[
                "path",
                "route",
                "url",
                "uri",
                "requesturi",  // nginx $request_uri
                "requestpath", // Traefik RequestPath
                "requesturl",  // ALB request_url
                "urlpath",
                "endpoint",
                "httprequest",  // HAProxy http_request (Logstash's name)
                "originalpath", // Envoy X-ENVOY-ORIGINAL-PATH (Logstash's name)
            ],
            Role::Status => &[
                "status",
                "statuscode",
                "httpstatus",
                "httpstatuscode",
                "responsestatus",
                "responsecode",
                "elbstatuscode",    // ALB elb_status_code
                "downstreamstatus", // Traefik DownstreamStatus
                "resstatuscode",    // pino-http res.statusCode (a backend's log)
            ],
            Role::UpstreamStatus => &[
                "upstreamstatus", // nginx $upstream_status
                "upstreamstatuscode",
                "targetstatuscode", // ALB target_status_code
                "originstatus",     // Traefik OriginStatus
                "backendstatus",
                "backendstatuscode",
                "serverstatus",
            ],
            Role::Duration => &[
                "durationms",
                "duration",
                "latencyms",
                "latency",
                "elapsedms",
                "elapsed",
                "responsetimems",
                "responsetime",
                "durationus",
                "durationns",
                "durations",
                "requesttime",          // nginx $request_time (seconds)
                "upstreamresponsetime", // nginx $upstream_response_time (seconds)
                "targetprocessingtime", // ALB target_processing_time (seconds)
                "tookms",
                "took",
                "timeduration", // HAProxy Ta/Tt (Logstash's time_duration, ms)
            ],
            Role::IdempotencyKey => &[
                "idempotencykey",
                "xidempotencykey",
                "httpidempotencykey", // nginx $http_idempotency_key
                "httpxidempotencykey",
                "requestidempotencykey", // Traefik request_Idempotency-Key
                "requestxidempotencykey",
            ],
            Role::Bytes => &[
                "bytes",
                "bodybytessent", // nginx $body_bytes_sent
                "bytessent",
                "sentbytes", // ALB sent_bytes
                "responsebytes",
                "responsesize",
                "size",
                "downstreamcontentsize", // Traefik
            ],
            Role::Flags => &[
                "responseflags",    // Envoy %RESPONSE_FLAGS%
                "terminationstate", // HAProxy termination_state (%tsc)
                "tsc",
                "flags",
            ],
            Role::RequestId => &[
                "requestid",                // nginx $request_id
                "reqid",                    // pino, bunyan
                "xrequestid",               // Envoy x-request-id
                "httpxrequestid",           // nginx $http_x_request_id
                "requestxrequestid",        // Traefik request_X-Request-Id
                "traceid",                  // ALB trace_id
                "uniqueid",                 // HAProxy unique-id
                "requestheadersxrequestid", // Caddy request.headers.X-Request-Id
                "xamzntraceid",             // ALB's trace id as the backend sees it
            ],
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = normalize(s.as_bytes());
        Role::ALL
            .into_iter()
            .find(|r| normalize(r.name().as_bytes()) == wanted)
            .ok_or_else(|| {
                let names: Vec<_> = Role::ALL.iter().map(|r| r.name()).collect();
                format!("unknown column role '{s}': use one of {}", names.join(", "))
            })
    }
}

/// The unit of numbers in the duration column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationUnit {
    Seconds,
    Millis,
    Micros,
    Nanos,
}

impl DurationUnit {
    /// Nanoseconds in one unit.
    pub fn nanos(self) -> f64 {
        match self {
            DurationUnit::Seconds => 1e9,
            DurationUnit::Millis => 1e6,
            DurationUnit::Micros => 1e3,
            DurationUnit::Nanos => 1.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DurationUnit::Seconds => "s",
            DurationUnit::Millis => "ms",
            DurationUnit::Micros => "us",
            DurationUnit::Nanos => "ns",
        }
    }
}

impl FromStr for DurationUnit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "secs" | "second" | "seconds" => Ok(DurationUnit::Seconds),
            "ms" | "milli" | "millis" | "milliseconds" => Ok(DurationUnit::Millis),
            "us" | "µs" | "micro" | "micros" | "microseconds" => Ok(DurationUnit::Micros),
            "ns" | "nano" | "nanos" | "nanoseconds" => Ok(DurationUnit::Nanos),
            _ => Err(format!("unknown duration unit '{s}': use s, ms, us or ns")),
        }
    }
}

/// The unit a duration column's name implies: a `_ms`, `_us` or `_ns` suffix says so;
/// nginx/ALB-style `request_time`, `*_response_time`, `*_processing_time` and `_s` names are
/// seconds; Traefik's `Duration` (in a header with other Traefik names) is nanoseconds; any
/// other name is taken as milliseconds.
pub fn duration_unit_from_name(header: &[u8], traefik: bool) -> DurationUnit {
    let lower: Vec<u8> = header.iter().map(u8::to_ascii_lowercase).collect();
    let norm = normalize(header);
    let ends = |s: &str| lower.ends_with(s.as_bytes());
    if ends("ms") || ends("millis") || ends("milliseconds") {
        DurationUnit::Millis
    } else if ends("us") && !ends("status") || ends("micros") || ends("microseconds") {
        DurationUnit::Micros
    } else if ends("ns") || ends("nanos") || ends("nanoseconds") || (norm == "duration" && traefik)
    {
        DurationUnit::Nanos
    } else if norm.ends_with("time")
        || ends("_s")
        || ends("-s")
        || ends("sec")
        || ends("secs")
        || ends("seconds")
    {
        DurationUnit::Seconds
    } else {
        DurationUnit::Millis
    }
}

/// Lower-cases and drops `-`, `_`, `.`, `$`, `@`, spaces and quotes, for comparing names.
pub fn normalize(name: &[u8]) -> String {
    name.iter()
        .filter(|b| !matches!(b, b'-' | b'_' | b'.' | b'$' | b'@' | b' ' | b'"' | b'\t'))
        .map(|b| b.to_ascii_lowercase() as char)
        .collect()
}

/// Column index of each role in one file's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMap {
    /// The header names as read (lossy UTF-8), for messages.
    pub headers: Vec<String>,
    pub timestamp: Option<usize>,
    pub method: usize,
    pub path: Option<usize>,
    pub status: usize,
    pub upstream_status: Option<usize>,
    pub duration: Option<usize>,
    pub idempotency_key: Option<usize>,
    pub bytes: Option<usize>,
    pub flags: Option<usize>,
    pub request_id: Option<usize>,
    /// Unit of the duration column, from its name or `--duration-unit`.
    pub duration_unit: DurationUnit,
    /// How the flags column reads, from its name.
    pub flags_style: FlagsStyle,
}

/// The two ways a proxy writes how a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagsStyle {
    /// Envoy `response_flags`: comma-separated codes; `UT` (upstream timeout), `DC`
    /// (downstream closed), `UC` (upstream closed), `URX` (retry limit) are give-ups.
    Envoy,
    /// HAProxy `termination_state`: a first letter `c`/`C` (the client side ended it) or
    /// `s`/`S` (the server timed out or aborted) is a give-up.
    Haproxy,
}

impl FlagsStyle {
    /// HAProxy's when the column's name says termination state, Envoy's otherwise.
    pub fn from_name(header: &[u8]) -> FlagsStyle {
        let n = normalize(header);
        if n.contains("termination") || n == "tsc" {
            FlagsStyle::Haproxy
        } else {
            FlagsStyle::Envoy
        }
    }

    /// The flags say the client (or the proxy for it) gave up on the request.
    #[inline]
    pub fn gave_up(self, value: &[u8]) -> bool {
        let value = value.trim_ascii();
        match self {
            FlagsStyle::Haproxy => matches!(value.first(), Some(b'c' | b'C' | b's' | b'S')),
            FlagsStyle::Envoy => value
                .split(|&b| b == b',' || b == b'|' || b == b' ')
                .any(|code| matches!(code, b"UT" | b"DC" | b"UC" | b"URX")),
        }
    }
}

impl ColumnMap {
    /// Recognises the roles in `header`. `overrides` (from `--column`) win over aliases.
    pub fn detect(
        path: &str,
        header: &[&[u8]],
        overrides: &[(Role, String)],
        duration_unit: Option<DurationUnit>,
    ) -> Result<ColumnMap, LogError> {
        let headers: Vec<String> = header
            .iter()
            .map(|h| {
                String::from_utf8_lossy(h)
                    .trim()
                    .chars()
                    .flat_map(super::scan::escape_control)
                    .collect()
            })
            .collect();
        let normalized: Vec<String> = header.iter().map(|h| normalize(h)).collect();
        let found = || headers.join(", ");
        let pick = |role: Role| -> Result<Option<usize>, LogError> {
            if let Some((_, wanted)) = overrides.iter().rev().find(|(r, _)| *r == role) {
                let exact = headers.iter().position(|h| h == wanted.trim());
                let loose = || {
                    let w = normalize(wanted.as_bytes());
                    normalized.iter().position(|n| *n == w)
                };
                return match exact.or_else(loose) {
                    Some(i) => Ok(Some(i)),
                    None => Err(LogError::UnknownColumn {
                        path: path.to_string(),
                        role,
                        header: wanted.clone(),
                        found: found(),
                    }),
                };
            }
            Ok(role
                .aliases()
                .iter()
                .find_map(|alias| normalized.iter().position(|n| n == alias)))
        };
        let mut roles = [None; Role::ALL.len()];
        for (slot, role) in roles.iter_mut().zip(Role::ALL) {
            *slot = pick(role)?;
        }
        let [
            timestamp,
            method,
            path_col,
            status,
            upstream,
            duration,
            key,
            bytes,
            flags,
            request_id,
        ] = roles;
        let missing = |role: Role| LogError::MissingColumn {
            path: path.to_string(),
            role,
            aliases: role.aliases().join(", "),
            found: found(),
        };
        let method = method.ok_or_else(|| missing(Role::Method))?;
        let status = status.ok_or_else(|| missing(Role::Status))?;
        let traefik = normalized
            .iter()
            .any(|n| n == "downstreamstatus" || n == "startutc" || n == "originstatus");
        let duration_unit = duration_unit.unwrap_or_else(|| {
            duration.map_or(DurationUnit::Millis, |i| {
                duration_unit_from_name(header[i], traefik)
            })
        });
        Ok(ColumnMap {
            headers,
            timestamp,
            method,
            path: path_col,
            status,
            upstream_status: upstream,
            duration,
            idempotency_key: key,
            bytes,
            flags,
            request_id,
            duration_unit,
            flags_style: flags.map_or(FlagsStyle::Envoy, |i| FlagsStyle::from_name(header[i])),
        })
    }

    /// The header of a role's column, if it has one.
    pub fn header_of(&self, role: Role) -> Option<&str> {
        let index = match role {
            Role::Timestamp => self.timestamp,
            Role::Method => Some(self.method),
            Role::Path => self.path,
            Role::Status => Some(self.status),
            Role::UpstreamStatus => self.upstream_status,
            Role::Duration => self.duration,
            Role::IdempotencyKey => self.idempotency_key,
            Role::Bytes => self.bytes,
            Role::Flags => self.flags,
            Role::RequestId => self.request_id,
        }?;
        self.headers.get(index).map(String::as_str)
    }

    /// A missing-column error for a role that an option needs (e.g. duration for
    /// `--client-timeout`).
    pub fn missing(&self, path: &str, role: Role) -> LogError {
        LogError::MissingColumn {
            path: path.to_string(),
            role,
            aliases: role.aliases().join(", "),
            found: self.headers.join(", "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(names: &[&str]) -> ColumnMap {
        let header: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        ColumnMap::detect("t.csv", &header, &[], None).unwrap()
    }

    #[test]
    fn normalizes_names() {
        assert_eq!(normalize(b"$request_method"), "requestmethod");
        assert_eq!(normalize(b"@Timestamp"), "timestamp");
        assert_eq!(
            normalize(b"request_Idempotency-Key"),
            "requestidempotencykey"
        );
    }

    #[test]
    fn generic() {
        let m = detect(&[
            "timestamp",
            "method",
            "path",
            "status",
            "upstream_status",
            "duration_ms",
            "idempotency_key",
        ]);
        assert_eq!(
            (m.timestamp, m.method, m.path, m.status),
            (Some(0), 1, Some(2), 3)
        );
        assert_eq!(
            (m.upstream_status, m.duration, m.idempotency_key),
            (Some(4), Some(5), Some(6))
        );
        assert_eq!(m.duration_unit, DurationUnit::Millis);
    }

    #[test]
    fn nginx() {
        let m = detect(&[
            "$time_local",
            "$request_method",
            "$request_uri",
            "$status",
            "$upstream_status",
            "$request_time",
            "$http_idempotency_key",
            "$body_bytes_sent",
        ]);
        assert_eq!(m.timestamp, Some(0));
        assert_eq!(m.idempotency_key, Some(6));
        assert_eq!(m.bytes, Some(7));
        assert_eq!(m.duration_unit, DurationUnit::Seconds);
    }

    #[test]
    fn alb_and_traefik() {
        let m = detect(&[
            "type",
            "time",
            "elb",
            "target_processing_time",
            "elb_status_code",
            "target_status_code",
            "request_verb",
            "request_url",
        ]);
        assert_eq!(
            (m.status, m.upstream_status, m.method, m.path),
            (4, Some(5), 6, Some(7))
        );
        assert_eq!(m.duration_unit, DurationUnit::Seconds);
        let m = detect(&[
            "StartUTC",
            "RequestMethod",
            "RequestPath",
            "DownstreamStatus",
            "OriginStatus",
            "Duration",
            "request_Idempotency-Key",
        ]);
        assert_eq!((m.status, m.upstream_status), (3, Some(4)));
        assert_eq!(m.duration_unit, DurationUnit::Nanos);
        assert_eq!(m.idempotency_key, Some(6));
    }

    #[test]
    fn overrides_and_missing() {
        let header: Vec<&[u8]> = vec![b"when", b"verb", b"code"];
        let err = ColumnMap::detect("t.csv", &header, &[], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no status column"), "{err}");
        assert!(err.contains("headers found: when, verb, code"), "{err}");
        assert!(err.contains("--column status=HEADER"), "{err}");
        let o = vec![
            (Role::Status, "code".to_string()),
            (Role::Timestamp, "when".to_string()),
        ];
        let m = ColumnMap::detect("t.csv", &header, &o, None).unwrap();
        assert_eq!((m.timestamp, m.method, m.status), (Some(0), 1, 2));
        let o = vec![(Role::Status, "nope".to_string())];
        let err = ColumnMap::detect("t.csv", &header, &o, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--column status=nope: no such header"),
            "{err}"
        );
    }

    #[test]
    fn duration_units() {
        assert_eq!(
            duration_unit_from_name(b"latency_us", false),
            DurationUnit::Micros
        );
        assert_eq!(
            duration_unit_from_name(b"took_ns", false),
            DurationUnit::Nanos
        );
        assert_eq!(
            duration_unit_from_name(b"request_time", false),
            DurationUnit::Seconds
        );
        assert_eq!(
            duration_unit_from_name(b"latency", false),
            DurationUnit::Millis
        );
        assert_eq!(
            duration_unit_from_name(b"Duration", true),
            DurationUnit::Nanos
        );
        assert_eq!("ms".parse::<DurationUnit>().unwrap(), DurationUnit::Millis);
        assert_eq!("method".parse::<Role>().unwrap(), Role::Method);
        assert_eq!(
            "upstream-status".parse::<Role>().unwrap(),
            Role::UpstreamStatus
        );
    }
}
