//! The platforms that write JSON access records, recognised by their keys: Cloudflare
//! Logpush (`http_requests`), Google Cloud's LogEntry (`httpRequest.*`, the HTTP(S) load
//! balancer's `jsonPayload.statusDetails`), Azure Application Gateway and Front Door
//! (`properties.*`, one record per request in a `category`), Kong's log plugins (file-log,
//! http-log: `request.*`, `response.*`, `latencies.*`, `started_at`) and AWS API Gateway's
//! documented `$context` JSON layout.
//!
//! For each: which of its fields plays which role (where the role aliases cannot tell),
//! the unit of its duration, how it says the client gave up ([`FlagsStyle`]), and for Azure
//! the time key that changes between records and the records of other categories.
//! Request headers the platform logs (`RequestHeaders.*`, `request.headers.*`) become roles
//! by the header's name: a logged `Idempotency-Key` is the key, `X-Request-Id` the request id.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{DurationUnit, Flags, FlagsStyle, FormatHints, GiveUpMatch, GiveUps};
use crate::logs::FormatNote;
use crate::logs::role::{Role, normalize};

/// Cloudflare's `EdgeResponseStatus`: 499 (the client closed) and 524 (the origin did not
/// answer in time; it may still finish) are give-ups; 522 never reached the origin.
pub static CLOUDFLARE_FLAGS: Flags = Flags {
    name: "cloudflare",
    field: "edge status",
    give_ups: GiveUps {
        matching: GiveUpMatch::Whole,
        codes: &["499", "524"],
    },
    named_by: |_| false,
    empty_status_is_zero: false,
    no_request: None,
};

/// Google Cloud load balancer's `statusDetails`: `client_disconnected_before_any_response`,
/// `client_timed_out` and `backend_timeout` are give-ups. Its LogEntry is protobuf JSON,
/// which omits a zero: no status is 0.
pub static GOOGLE_CLOUD_FLAGS: Flags = Flags {
    name: "google-cloud",
    field: "statusDetails",
    give_ups: GiveUps {
        matching: GiveUpMatch::Whole,
        codes: &[
            "client_disconnected_before_any_response",
            "client_timed_out",
            "backend_timeout",
        ],
    },
    named_by: |_| false,
    empty_status_is_zero: true,
    no_request: None,
};

/// A platform whose JSON access records dupcost knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Cloudflare,
    /// A Google Cloud LogEntry with `httpRequest`; `lb` when it is the HTTP(S) load
    /// balancer's (it has `jsonPayload.statusDetails`).
    Gcp {
        lb: bool,
    },
    /// Azure Application Gateway (`front_door` false) or Front Door access records.
    Azure {
        front_door: bool,
    },
    Kong,
    ApiGateway,
}

/// The time keys of Azure's records: one of them, varying from record to record.
pub const AZURE_TIME_KEYS: [&str; 3] = ["time", "timeStamp", "timestamp"];

/// The categories of Azure records that are access records.
const AZURE_ACCESS: [&str; 4] = [
    "ApplicationGatewayAccessLog",
    "FrontDoorAccessLog",
    "FrontdoorAccessLog",
    "AzureCdnAccessLog",
];

impl Platform {
    /// The platform whose records have these field names (the first lines' leaves), if any.
    pub fn of(names: &[String]) -> Option<Platform> {
        let has = |n: &str| names.iter().any(|x| x == n);
        if has("ClientRequestMethod") && (has("EdgeResponseStatus") || has("RayID")) {
            Some(Platform::Cloudflare)
        } else if has("httpRequest.requestMethod") {
            Some(Platform::Gcp {
                lb: has("jsonPayload.statusDetails"),
            })
        } else if has("properties.httpMethod")
            && (has("properties.httpStatus") || has("properties.httpStatusCode"))
        {
            Some(Platform::Azure {
                front_door: has("properties.httpStatusCode"),
            })
        } else if has("request.method") && has("response.status") && has("started_at") {
            Some(Platform::Kong)
        } else if has("httpMethod")
            && has("requestTime")
            && has("requestId")
            && (has("routeKey") || has("resourcePath") || has("path"))
        {
            Some(Platform::ApiGateway)
        } else {
            None
        }
    }

    /// For the evidence.
    pub fn describe(self) -> &'static str {
        match self {
            Platform::Cloudflare => "Cloudflare Logpush http_requests",
            Platform::Gcp { lb: true } => "Google Cloud HTTP(S) load balancer LogEntry",
            Platform::Gcp { lb: false } => "Google Cloud LogEntry with httpRequest",
            Platform::Azure { front_door: false } => "Azure Application Gateway access log",
            Platform::Azure { front_door: true } => "Azure Front Door access log",
            Platform::Kong => "Kong log plugin",
            Platform::ApiGateway => "AWS API Gateway access log",
        }
    }

    /// Each role's field, first present of the candidates.
    fn fields(self) -> &'static [(Role, &'static [&'static str])] {
        use Role::*;
        match self {
            Platform::Cloudflare => &[
                (Timestamp, &["EdgeStartTimestamp", "EdgeEndTimestamp"]),
                (Method, &["ClientRequestMethod"]),
                (Path, &["ClientRequestURI", "ClientRequestPath"]),
                (Status, &["EdgeResponseStatus"]),
                (UpstreamStatus, &["OriginResponseStatus"]),
                (
                    Duration,
                    &["EdgeTimeToFirstByteMs", "OriginResponseDurationMs"],
                ),
                (Flags, &["EdgeResponseStatus"]),
                (RequestId, &["RayID"]),
                (ClientAddr, &["ClientIP"]),
                (UserAgent, &["ClientRequestUserAgent"]),
                (Bytes, &["EdgeResponseBytes"]),
                (RequestLength, &["ClientRequestBytes"]),
            ],
            Platform::Gcp { .. } => &[
                (Timestamp, &["timestamp", "receiveTimestamp"]),
                (Method, &["httpRequest.requestMethod"]),
                (Path, &["httpRequest.requestUrl"]),
                (Status, &["httpRequest.status"]),
                (Duration, &["httpRequest.latency"]),
                (Flags, &["jsonPayload.statusDetails"]),
                (ClientAddr, &["httpRequest.remoteIp"]),
                (UserAgent, &["httpRequest.userAgent"]),
                (Bytes, &["httpRequest.responseSize"]),
                (RequestLength, &["httpRequest.requestSize"]),
            ],
            Platform::Azure { .. } => &[
                (Timestamp, &AZURE_TIME_KEYS),
                (Method, &["properties.httpMethod"]),
                (Path, &["properties.requestUri"]),
                (
                    Status,
                    &["properties.httpStatus", "properties.httpStatusCode"],
                ),
                (UpstreamStatus, &["properties.serverStatus"]),
                (Duration, &["properties.timeTaken"]),
                (
                    RequestId,
                    &["properties.transactionId", "properties.trackingReference"],
                ),
                (ClientAddr, &["properties.clientIP", "properties.clientIp"]),
                (UserAgent, &["properties.userAgent"]),
                (Bytes, &["properties.sentBytes", "properties.responseBytes"]),
                (
                    RequestLength,
                    &["properties.receivedBytes", "properties.requestBytes"],
                ),
            ],
            Platform::Kong => &[
                (Timestamp, &["started_at"]),
                (Method, &["request.method"]),
                (Path, &["request.uri", "request.url"]),
                (Status, &["response.status"]),
                (UpstreamStatus, &["upstream_status"]),
                (Duration, &["latencies.request"]),
                (RequestId, &["request.id"]),
                (ClientAddr, &["client_ip"]),
                (Bytes, &["response.size"]),
                (RequestLength, &["request.size"]),
            ],
            Platform::ApiGateway => &[
                (Timestamp, &["requestTimeEpoch", "requestTime"]),
                (Method, &["httpMethod"]),
                (Path, &["path", "resourcePath", "routeKey"]),
                (Status, &["status"]),
                (UpstreamStatus, &["integrationStatus", "integration.status"]),
                (
                    Duration,
                    &[
                        "responseLatency",
                        "integrationLatency",
                        "integration.latency",
                    ],
                ),
                (RequestId, &["requestId"]),
                (ClientAddr, &["ip", "sourceIp", "identity.sourceIp"]),
                (UserAgent, &["userAgent", "identity.userAgent"]),
                (Bytes, &["responseLength"]),
            ],
        }
    }

    /// Where the platform writes the request's headers, when it logs them.
    fn header_prefixes(self) -> &'static [&'static str] {
        match self {
            Platform::Cloudflare => &["RequestHeaders."],
            Platform::Kong => &["request.headers."],
            // A header a mapping template set, logged by `$context.requestOverride.header.*`.
            Platform::ApiGateway => &["requestOverride.header."],
            Platform::Gcp { .. } | Platform::Azure { .. } => &[],
        }
    }

    /// The roles of `names` that the aliases cannot find, as `--column ROLE=NAME` would give
    /// them; the duration unit; the flags style.
    pub fn hints(self, names: &[String]) -> FormatHints {
        let has = |n: &str| names.iter().any(|x| x == n);
        let mut columns: Vec<(Role, String)> = Vec::new();
        for (role, candidates) in self.fields() {
            if let Some(name) = candidates.iter().find(|c| has(c)) {
                columns.push((*role, name.to_string()));
            }
        }
        // Logged request headers, by the header's name (a role the fields above gave wins).
        for name in names {
            let Some(header) = self
                .header_prefixes()
                .iter()
                .find_map(|p| name.strip_prefix(p))
            else {
                continue;
            };
            let header = header.strip_suffix("[0]").unwrap_or(header);
            if header.contains('.') || header.contains('[') {
                continue;
            }
            let n = normalize(header.as_bytes());
            let Some(role) = [
                Role::IdempotencyKey,
                Role::RequestId,
                Role::UserAgent,
                Role::ForwardedFor,
            ]
            .into_iter()
            .find(|r| r.aliases().contains(&n.as_str())) else {
                continue;
            };
            if !columns.iter().any(|(r, _)| *r == role) {
                columns.push((role, name.clone()));
            }
        }
        let duration_unit = Some(match self {
            // Logpush's `*Ms` fields; Kong's latencies and API Gateway's are milliseconds.
            Platform::Cloudflare | Platform::Kong | Platform::ApiGateway => DurationUnit::Millis,
            // Google's "0.080s" (the `s` is read off); Application Gateway v2 and Front
            // Door write seconds (0.012).
            Platform::Gcp { .. } | Platform::Azure { .. } => DurationUnit::Seconds,
        });
        let flags_style = match self {
            Platform::Cloudflare => Some(FlagsStyle(&CLOUDFLARE_FLAGS)),
            Platform::Gcp { .. } => Some(FlagsStyle(&GOOGLE_CLOUD_FLAGS)),
            _ => None,
        };
        let upstream = columns.iter().any(|(r, _)| *r == Role::UpstreamStatus);
        let notes = match self {
            Platform::Gcp { .. } | Platform::Cloudflare if !upstream => {
                vec![FormatNote::NoBackendStatus]
            }
            // API Gateway documents no status for a client that hung up: its 504s are the
            // give-ups it shows, a lower bound.
            Platform::ApiGateway => vec![FormatNote::ApiGatewayGiveUps {
                integration_status: upstream,
            }],
            Platform::Gcp { .. }
            | Platform::Cloudflare
            | Platform::Azure { .. }
            | Platform::Kong => Vec::new(),
        };
        FormatHints {
            duration_unit,
            flags_style,
            columns,
            notes,
        }
    }
}

/// The Azure records of other categories skipped, by category (a few kinds; counted across
/// the threads reading one file).
#[derive(Debug, Default)]
pub struct Skipped {
    kinds: std::sync::Mutex<Vec<(String, u64)>>,
    total: AtomicU64,
}

impl Clone for Skipped {
    fn clone(&self) -> Self {
        Skipped {
            kinds: std::sync::Mutex::new(self.kinds.lock().map(|k| k.clone()).unwrap_or_default()),
            total: AtomicU64::new(self.total.load(Ordering::Relaxed)),
        }
    }
}

impl Skipped {
    /// Counts one record of `category`.
    pub fn count(&self, category: &str) {
        self.total.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut kinds) = self.kinds.lock() {
            if let Some((_, n)) = kinds.iter_mut().find(|(k, _)| k == category) {
                *n += 1;
            } else if kinds.len() < 16 {
                kinds.push((category.to_string(), 1));
            }
        }
    }

    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// The records skipped so far, by category, for the evidence.
    pub fn note(&self) -> Option<FormatNote> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let kinds = self.kinds.lock().map(|k| k.clone()).unwrap_or_default();
        Some(FormatNote::OtherCategories { total, kinds })
    }
}

/// The `category` of an Azure record when it is not an access record's: such a record is
/// skipped (counted, never a bad row). A cheap look at the line, not a parse: the first
/// `"category"` key's string value.
pub fn azure_other_category(line: &[u8]) -> Option<&str> {
    let at = memchr::memmem::find(line, b"\"category\"")?;
    let rest = &line[at + 10..];
    let rest = rest
        .trim_ascii_start()
        .strip_prefix(b":")?
        .trim_ascii_start();
    let rest = rest.strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', rest)?;
    let category = std::str::from_utf8(&rest[..end]).ok()?;
    (!AZURE_ACCESS.contains(&category)).then_some(category)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn azure_categories() {
        assert_eq!(
            azure_other_category(br#"{"category": "ApplicationGatewayFirewallLog","x":1}"#),
            Some("ApplicationGatewayFirewallLog")
        );
        assert_eq!(
            azure_other_category(br#"{"category":"ApplicationGatewayAccessLog"}"#),
            None
        );
        assert_eq!(azure_other_category(br#"{"time":"x"}"#), None);
        let skipped = Skipped::default();
        skipped.count("ApplicationGatewayFirewallLog");
        skipped.count("ApplicationGatewayFirewallLog");
        assert_eq!(
            skipped.note().unwrap(),
            FormatNote::OtherCategories {
                total: 2,
                kinds: vec![("ApplicationGatewayFirewallLog".into(), 2)]
            }
        );
    }

    #[test]
    fn headers_become_roles_by_name() {
        let names: Vec<String> = [
            "request.method",
            "request.uri",
            "response.status",
            "started_at",
            "request.headers.idempotency-key",
            "request.headers.x-request-id",
            "request.headers.user-agent",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(Platform::of(&names), Some(Platform::Kong));
        let hints = Platform::Kong.hints(&names);
        let col = |role| {
            hints
                .columns
                .iter()
                .find(|(r, _)| *r == role)
                .map(|(_, n)| n.as_str())
        };
        assert_eq!(
            col(Role::IdempotencyKey),
            Some("request.headers.idempotency-key")
        );
        assert_eq!(col(Role::RequestId), Some("request.headers.x-request-id"));
        assert_eq!(col(Role::Timestamp), Some("started_at"));
        assert_eq!(hints.duration_unit, Some(DurationUnit::Millis));
    }
}
