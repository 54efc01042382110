//! What a column means to the derivation: the [`Role`]s, the header names each is known by,
//! and how names are compared. A leaf: the formats, the errors and the backend-log join all
//! speak of roles.

use std::fmt;
use std::str::FromStr;

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
    /// The client's address (nginx `remote_addr`, ALB `client_ip`, Envoy
    /// `downstream_remote_address`): part of a keyless log's fingerprint; a port
    /// after it is dropped.
    ClientAddr,
    /// The `X-Forwarded-For` header: its first hop is the client when a proxy is in front.
    ForwardedFor,
    /// The client's `User-Agent` header.
    UserAgent,
    /// The request's size in bytes (nginx `request_length`, Envoy `bytes_received`); not the
    /// response's, which is [`Role::Bytes`].
    RequestLength,
    /// The proxy's own count of its tries at the backend for one client attempt (Envoy
    /// `%UPSTREAM_REQUEST_ATTEMPT_COUNT%`, 1 when it did not retry) or of its retries
    /// (Traefik `RetryAttempts`, 0 when it did not): the layer's retries, measured.
    ProxyAttempts,
}

impl Role {
    pub const ALL: [Role; 15] = [
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
        Role::ClientAddr,
        Role::ForwardedFor,
        Role::UserAgent,
        Role::RequestLength,
        Role::ProxyAttempts,
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
            Role::ClientAddr => "client_addr",
            Role::ForwardedFor => "forwarded_for",
            Role::UserAgent => "user_agent",
            Role::RequestLength => "request_length",
            Role::ProxyAttempts => "proxy_attempts",
        }
    }

    /// Recognised header names, normalised (see `normalize`), best first. Generic names,
    /// then nginx variables, AWS ALB, Traefik, Envoy and HAProxy fields.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Role::Timestamp => TIMESTAMP,
            Role::Method => METHOD,
            Role::Path => PATH,
            Role::Status => STATUS,
            Role::UpstreamStatus => UPSTREAM_STATUS,
            Role::Duration => DURATION,
            Role::IdempotencyKey => IDEMPOTENCY_KEY,
            Role::Bytes => BYTES,
            Role::Flags => FLAGS,
            Role::RequestId => REQUEST_ID,
            Role::ClientAddr => CLIENT_ADDR,
            Role::ForwardedFor => FORWARDED_FOR,
            Role::UserAgent => USER_AGENT,
            Role::RequestLength => REQUEST_LENGTH,
            Role::ProxyAttempts => PROXY_ATTEMPTS,
        }
    }
}

// Each role's aliases, for [`Role::aliases`]. A proxy's field names are here, not in its
// format's file: every reader maps names by them, so a CSV export or a JSON log that keeps
// nginx's, ALB's or Envoy's names is read as the format's own lines are.

const TIMESTAMP: &[&str] = &[
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
];

const METHOD: &[&str] = &[
    "method",
    "httpmethod",
    "requestmethod", // nginx $request_method, Traefik RequestMethod
    "verb",
    "requestverb", // ALB request_verb
    "httpverb",
    "csmethod", // CloudFront cs-method
];

const PATH: &[&str] = &[
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
    "csuristem",    // CloudFront cs-uri-stem
];

const STATUS: &[&str] = &[
    "status",
    "statuscode",
    "httpstatus",
    "httpstatuscode",
    "responsestatus",
    "responsecode",
    "elbstatuscode",    // ALB elb_status_code
    "downstreamstatus", // Traefik DownstreamStatus
    "resstatuscode",    // pino-http res.statusCode (a backend's log)
    "scstatus",         // CloudFront sc-status
];

const UPSTREAM_STATUS: &[&str] = &[
    "upstreamstatus", // nginx $upstream_status
    "upstreamstatuscode",
    "targetstatuscode", // ALB target_status_code
    "originstatus",     // Traefik OriginStatus
    "backendstatus",
    "backendstatuscode",
    "serverstatus",
];

const DURATION: &[&str] = &[
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
    "timetaken",    // CloudFront time-taken (seconds)
];

const IDEMPOTENCY_KEY: &[&str] = &[
    "idempotencykey",
    "xidempotencykey",
    "httpidempotencykey", // nginx $http_idempotency_key
    "httpxidempotencykey",
    "requestidempotencykey", // Traefik request_Idempotency-Key
    "requestxidempotencykey",
    "requestheadersidempotencykey[0]", // Caddy request.headers.Idempotency-Key[0]
    "requestheadersxidempotencykey[0]",
    // A webhook receiver's log: the sender's event id is the intent key.
    "webhookid", // Standard Webhooks webhook-id
    "httpwebhookid",
    "requestheaderswebhookid[0]",
    "headerswebhookid",
    "svixid",
    "httpsvixid",
    "requestheaderssvixid[0]",
    "headerssvixid",
    "xgithubdelivery",
    "httpxgithubdelivery",
    "requestheadersxgithubdelivery[0]",
    "headersxgithubdelivery",
    "xshopifywebhookid",
    "httpxshopifywebhookid",
    "requestheadersxshopifywebhookid[0]",
    "headersxshopifywebhookid",
    "xshopifyeventid",
    "httpxshopifyeventid",
    "headersxshopifyeventid",
    "eventid",
    "stripeeventid", // Stripe's evt_... when the receiver logs it
];

const BYTES: &[&str] = &[
    "bytes",
    "bodybytessent", // nginx $body_bytes_sent
    "bytessent",
    "sentbytes", // ALB sent_bytes
    "responsebytes",
    "responsesize",
    "size",
    "downstreamcontentsize", // Traefik
    "scbytes",               // CloudFront sc-bytes
];

const FLAGS: &[&str] = &[
    "responseflags",    // Envoy %RESPONSE_FLAGS%
    "terminationstate", // HAProxy termination_state (%tsc)
    "tsc",
    "xedgedetailedresulttype", // CloudFront x-edge-detailed-result-type
    "flags",
];

const REQUEST_ID: &[&str] = &[
    "requestid",                   // nginx $request_id
    "reqid",                       // pino, bunyan
    "xrequestid",                  // Envoy x-request-id
    "httpxrequestid",              // nginx $http_x_request_id
    "requestxrequestid",           // Traefik request_X-Request-Id
    "traceid",                     // ALB trace_id
    "uniqueid",                    // HAProxy unique-id
    "requestheadersxrequestid",    // Caddy request.headers.X-Request-Id
    "xamzntraceid",                // ALB's trace id as the backend sees it
    "xedgerequestid",              // CloudFront x-edge-request-id
    "requestheadersxrequestid[0]", // Caddy request.headers.X-Request-Id[0]
];

/// Names with a port after the address are listed too: the port is dropped.
const CLIENT_ADDR: &[&str] = &[
    "clientaddr",
    "clientip",   // ALB client_ip, HAProxy client_ip (Logstash's name)
    "remoteaddr", // nginx $remote_addr, Apache %a
    "remoteip",
    "clientaddress",
    "cip",                     // CloudFront c-ip
    "downstreamremoteaddress", // Envoy %DOWNSTREAM_REMOTE_ADDRESS%
    "requestremoteip",         // Caddy request.remote_ip
    "requestclientip",         // Caddy request.client_ip
    "clienthost",              // Traefik ClientHost
    "remotehost",              // Apache %h (not `host`: nginx $host is the server)
];

const FORWARDED_FOR: &[&str] = &[
    "forwardedfor",
    "xforwardedfor",               // Envoy x_forwarded_for
    "httpxforwardedfor",           // nginx $http_x_forwarded_for
    "requestxforwardedfor",        // Traefik request_X-Forwarded-For
    "requestheadersxforwardedfor", // Caddy request.headers.X-Forwarded-For
    "csxforwardedfor",
    "xforwardedforheader",
];

const USER_AGENT: &[&str] = &[
    "useragent",               // ALB user_agent, Envoy user_agent
    "httpuseragent",           // nginx $http_user_agent
    "cs(useragent)",           // CloudFront cs(User-Agent)
    "requestuseragent",        // Traefik request_User-Agent
    "requestheadersuseragent", // Caddy request.headers.User-Agent
    "ua",
    "agent",
];

const REQUEST_LENGTH: &[&str] = &[
    "requestlength", // nginx $request_length
    "bytesreceived", // Envoy %BYTES_RECEIVED%
    "receivedbytes", // ALB received_bytes
    "csbytes",       // CloudFront cs-bytes
    "requestbytes",
    "requestsize",
    "requestcontentsize", // Traefik RequestContentSize
    "bytesin",
];

/// Counts of tries (1 = none retried) first, then counts of retries (0 = none):
/// `retries_in` tells them apart by the name.
const PROXY_ATTEMPTS: &[&str] = &[
    "proxyattempts",
    "upstreamrequestattemptcount", // Envoy %UPSTREAM_REQUEST_ATTEMPT_COUNT%
    "retryattempts",               // Traefik RetryAttempts
    "proxyretries",
    "retries", // HAProxy's retries counter (`+` when redispatched)
    // nginx's $upstream_addr: one address a try (`a, b`; ` : ` after a redirect)
    "upstreamaddr",
];

/// The idempotency-key aliases that are a webhook sender's event id (`webhook-id`, `svix-id`,
/// `X-GitHub-Delivery`, ...): a log keyed by one is a receiver's own log.
pub fn is_event_id(header: &str) -> bool {
    const BASES: [&str; 7] = [
        "webhookid",
        "svixid",
        "xgithubdelivery",
        "xshopifywebhookid",
        "xshopifyeventid",
        "eventid",
        "stripeeventid",
    ];
    let n = normalize(header.as_bytes());
    let n = n.trim_end_matches("[0]");
    BASES.iter().any(|base| n.ends_with(base))
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

/// Whether a proxy-attempts column named `header` counts retries (Traefik's `RetryAttempts`:
/// 0 when none) rather than tries (Envoy's attempt count: 1 when none).
pub fn retries_in(header: &str) -> bool {
    let n = normalize(header.as_bytes());
    n.contains("retr")
}

/// Lower-cases and drops `-`, `_`, `.`, `$`, `@`, spaces and quotes, for comparing names.
pub fn normalize(name: &[u8]) -> String {
    name.iter()
        .filter(|b| !matches!(b, b'-' | b'_' | b'.' | b'$' | b'@' | b' ' | b'"' | b'\t'))
        .map(|b| b.to_ascii_lowercase() as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_names() {
        assert_eq!(normalize(b"$request_method"), "requestmethod");
        assert_eq!(normalize(b"@Timestamp"), "timestamp");
        assert_eq!(
            normalize(b"request_Idempotency-Key"),
            "requestidempotencykey"
        );
    }

    /// Every alias is written as `normalize` leaves it (or it could never match), and no name
    /// is claimed by two roles (a fingerprint role must not take the response's `bytes`).
    #[test]
    fn aliases_are_normalized_and_unclaimed_by_other_roles() {
        let mut seen = std::collections::HashMap::new();
        for role in Role::ALL {
            assert!(
                role.aliases()
                    .contains(&normalize(role.name().as_bytes()).as_str())
            );
            for alias in role.aliases() {
                assert_eq!(normalize(alias.as_bytes()), *alias, "{role}");
                if let Some(other) = seen.insert(*alias, role) {
                    panic!("'{alias}' is an alias of both {other} and {role}");
                }
            }
        }
    }

    #[test]
    fn fingerprint_fields_of_the_proxies() {
        let role_of = |name: &str| {
            let n = normalize(name.as_bytes());
            Role::ALL
                .into_iter()
                .find(|r| r.aliases().contains(&n.as_str()))
        };
        for (name, role) in [
            ("$remote_addr", Role::ClientAddr),
            ("client_ip", Role::ClientAddr),
            ("c-ip", Role::ClientAddr),
            ("downstream_remote_address", Role::ClientAddr),
            ("request.remote_ip", Role::ClientAddr),
            ("ClientHost", Role::ClientAddr),
            ("ClientAddr", Role::ClientAddr),
            ("$http_x_forwarded_for", Role::ForwardedFor),
            ("x_forwarded_for", Role::ForwardedFor),
            ("request_X-Forwarded-For", Role::ForwardedFor),
            ("request.headers.X-Forwarded-For", Role::ForwardedFor),
            ("$http_user_agent", Role::UserAgent),
            ("user_agent", Role::UserAgent),
            ("cs(User-Agent)", Role::UserAgent),
            ("request_User-Agent", Role::UserAgent),
            ("request.headers.User-Agent", Role::UserAgent),
            ("$request_length", Role::RequestLength),
            ("bytes_received", Role::RequestLength),
            ("cs-bytes", Role::RequestLength),
            ("received_bytes", Role::RequestLength),
            ("bytes", Role::Bytes),
            ("sent_bytes", Role::Bytes),
        ] {
            assert_eq!(role_of(name), Some(role), "{name}");
        }
        assert_eq!(role_of("$host"), None, "nginx $host is the server's name");
    }

    #[test]
    fn roles_by_name() {
        assert_eq!("method".parse::<Role>().unwrap(), Role::Method);
        assert_eq!(
            "upstream-status".parse::<Role>().unwrap(),
            Role::UpstreamStatus
        );
        assert_eq!("client_addr".parse::<Role>().unwrap(), Role::ClientAddr);
        assert_eq!("user-agent".parse::<Role>().unwrap(), Role::UserAgent);
    }
}
