//! CSV and TSV headers: which column plays which role, recognised from the header.
//!
//! Header names are compared case-insensitively, ignoring `-`, `_`, `.`, `$`, `@` and spaces,
//! so `$request_method`, `Request-Method` and `requestmethod` are the same name. For each role
//! the aliases are tried in order and the first header that matches wins; `--column ROLE=HEADER`
//! overrides the search.

use super::{ColumnMap, DurationUnit, FlagsStyle};
use crate::logs::error::{LogError, escape_control};
use crate::logs::role::{Role, normalize};

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
                    .flat_map(escape_control)
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
            client_addr,
            forwarded_for,
            user_agent,
            request_length,
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
            client_addr,
            forwarded_for,
            user_agent,
            request_length,
            duration_unit,
            flags_style: flags.map_or(FlagsStyle::Envoy, |i| FlagsStyle::from_name(header[i])),
        })
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
    }
}
