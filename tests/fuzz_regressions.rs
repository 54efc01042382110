//! Replays every input the fuzzers ever found failing (`tests/fuzz_regressions/TARGET/*`)
//! through the same checks the fuzz targets make (`fuzz/fuzz_targets/checks.rs`).

#[path = "../fuzz/fuzz_targets/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&str)) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            eprintln!("replaying {}", path.display());
            check(text);
        }
    }
}

#[test]
fn units() {
    replay("units", checks::units);
}

#[test]
fn sweep() {
    replay("sweep", checks::sweep);
}

#[test]
fn scenario_file() {
    replay("scenario_file", checks::scenario_file);
}

/// The log reader's inputs are bytes (gzip, non-UTF-8), replayed as they are.
#[test]
fn logs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions/logs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        eprintln!("replaying {}", path.display());
        checks::logs(&std::fs::read(&path).unwrap());
    }
}

/// Replays the byte inputs under `tests/fuzz_regressions/TARGET/` through `check`.
fn replay_bytes(target: &str, check: impl Fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        eprintln!("replaying {}", path.display());
        check(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn format_alb() {
    replay_bytes("format_alb", checks::format_alb);
}

#[test]
fn non_access() {
    replay_bytes("non_access", checks::non_access);
    // The seeds too: real NLB, ALB connection log and HAProxy tcplog records.
    for seed in ["elastic-alb.log", "tcplog.log"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds/non_access")
            .join(seed);
        checks::non_access(&std::fs::read(path).unwrap());
    }
}

#[test]
fn format_cloudfront() {
    replay_bytes("format_cloudfront", checks::format_cloudfront);
}

#[test]
fn format_json() {
    replay_bytes("format_json", checks::format_json);
}

#[test]
fn format_nginx() {
    replay_bytes("format_nginx", |b| {
        checks::line_format("nginx", &["combined", "main", "upstreaminfo"], b)
    });
}

#[test]
fn format_apache() {
    replay_bytes("format_apache", |b| {
        checks::line_format("apache", &["common", "combined", "vcombined"], b)
    });
}

#[test]
fn format_haproxy() {
    replay_bytes("format_haproxy", |b| {
        checks::line_format("haproxy", &[""], b)
    });
}

#[test]
fn format_envoy() {
    replay_bytes("format_envoy", |b| {
        checks::line_format("envoy", &["envoy", "istio"], b)
    });
}

#[test]
fn format_iis() {
    replay_bytes("format_iis", checks::format_iis);
}

#[test]
fn format_platforms() {
    replay_bytes("format_platforms", checks::format_platforms);
}

#[test]
fn format_haproxy_log() {
    replay_bytes("format_haproxy_log", checks::format_haproxy_log);
}

#[test]
fn log_format() {
    replay_bytes("log_format", checks::log_format);
}

#[test]
fn envelope_cri() {
    replay("envelope_cri", |t| checks::envelope(&["cri"], t.as_bytes()));
}

#[test]
fn envelope_docker() {
    replay("envelope_docker", |t| {
        checks::envelope(&["docker", "json-log"], t.as_bytes())
    });
}

#[test]
fn envelope_json() {
    replay("envelope_json", |t| {
        checks::envelope(
            &["json-message", "json-event-original", "json-line"],
            t.as_bytes(),
        )
    });
}

#[test]
fn envelope_syslog() {
    replay("envelope_syslog", |t| {
        checks::envelope(&["syslog", "syslog5424"], t.as_bytes())
    });
}

#[test]
fn envelope_prefix() {
    replay("envelope_prefix", |t| {
        checks::envelope(
            &[
                "kubectl",
                "kubectl-timestamps",
                "stern",
                "timestamped",
                "logcli",
            ],
            t.as_bytes(),
        )
    });
}

#[test]
fn json_document() {
    replay("json_document", |t| checks::json_document(t.as_bytes()));
}

#[test]
fn format_apigateway() {
    replay_bytes("format_apigateway", checks::format_apigateway);
}

#[test]
fn traces() {
    replay_bytes("traces", checks::traces);
}
