//! `--preset`: which column of a known table plays which role, as SQL expressions.

use super::dialect::Engine;
use crate::logs::Role;

/// The table schemas users already have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// AWS's documented Athena table for ALB access logs (`alb_access_logs`: time,
    /// request_verb, request_url, elb_status_code, target_status_code, sent_bytes, client_ip,
    /// user_agent, received_bytes, ...).
    AthenaAlb,
    /// AWS's documented Athena table for CloudFront standard logs (`cloudfront_standard_logs`:
    /// date, time, cs_method, cs_uri_stem, sc_status, sc_bytes, c_ip, cs_user_agent,
    /// cs_bytes, x_forwarded_for, x_edge_detailed_result_type, ...).
    AthenaCloudfront,
    /// Columns named after the roles: timestamp, method, path, status, upstream_status,
    /// idempotency_key, bytes.
    Generic,
    /// The OpenTelemetry Collector's ClickHouse exporter's table of spans (`otel_traces`):
    /// CLIENT spans with a mutating method are the attempts, the SERVER spans under them their
    /// outcomes (--engine clickhouse).
    OtelTraces,
}

impl Preset {
    /// The roles the preset maps, each to an expression over the table's columns.
    pub fn columns(self, engine: Engine) -> Vec<(Role, String)> {
        let col = |name: &str| engine.ident(name);
        match self {
            // ALB logs have no idempotency key (they log no request header but the user
            // agent): attempts are grouped by fingerprint (client, user agent, request size),
            // as `logs` groups an ALB log, unless --column maps a key.
            Preset::AthenaAlb => vec![
                (Role::Timestamp, col("time")),
                (Role::Method, col("request_verb")),
                (Role::Path, col("request_url")),
                (Role::Status, col("elb_status_code")),
                (Role::UpstreamStatus, col("target_status_code")),
                (Role::Bytes, col("sent_bytes")),
                (Role::ClientAddr, col("client_ip")),
                (Role::UserAgent, col("user_agent")),
                (Role::RequestLength, col("received_bytes")),
            ],
            // CloudFront logs the date and the time apart (UTC), and no origin status: the
            // outcome of a timed-out attempt is unknown. The viewer's give-ups are its
            // detailed result types (`ClientCommError`, ...). No idempotency key: attempts
            // are grouped by fingerprint (c-ip or X-Forwarded-For's first hop, the user agent,
            // cs-bytes), as `logs` groups a CloudFront log.
            Preset::AthenaCloudfront => vec![
                (
                    Role::Timestamp,
                    format!(
                        "concat({}, 'T', {}, 'Z')",
                        engine.text(&col("date")),
                        col("time")
                    ),
                ),
                (Role::Method, col("cs_method")),
                (Role::Path, col("cs_uri_stem")),
                (Role::Status, col("sc_status")),
                (Role::Bytes, col("sc_bytes")),
                (Role::Flags, col("x_edge_detailed_result_type")),
                (Role::ClientAddr, col("c_ip")),
                (Role::ForwardedFor, col("x_forwarded_for")),
                (Role::UserAgent, col("cs_user_agent")),
                (Role::RequestLength, col("cs_bytes")),
            ],
            Preset::Generic => [
                Role::Timestamp,
                Role::Method,
                Role::Path,
                Role::Status,
                Role::UpstreamStatus,
                Role::IdempotencyKey,
                Role::Bytes,
            ]
            .into_iter()
            .map(|r| (r, col(r.name())))
            .collect(),
            // The attempts' derived table (src/sql/traces.rs) names its columns so.
            Preset::OtelTraces => [
                (Role::Timestamp, "timestamp"),
                (Role::Method, "method"),
                (Role::Path, "path"),
                (Role::Status, "status"),
                (Role::UpstreamStatus, "upstream_status"),
                (Role::IdempotencyKey, "idempotency_key"),
                (Role::Duration, "duration_ms"),
            ]
            .into_iter()
            .map(|(r, name)| (r, col(name)))
            .collect(),
        }
    }
}
