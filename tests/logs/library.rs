//! `logs` library against generated logs whose true figures are known.

use crate::generator;

use std::io::Write;
use std::path::Path;

use crate::common::write_path;
use crate::generator::{Config, Format, RowSize, Truth};
use crate::support::generated;
use dupcost::findings::Overrides;
use dupcost::logs::{self, LogError, LogInput, LogOptions};
use dupcost::model::Scenario;

fn analyze(path: &Path, opts: &LogOptions) -> Result<logs::LogAnalysis, LogError> {
    logs::analyze(&[LogInput::Path(path.to_path_buf())], opts)
}

fn check(a: &logs::LogAnalysis, truth: &Truth) {
    let t = &a.tally;
    assert_eq!(t.rows, truth.rows, "rows");
    assert_eq!(t.bad_rows, truth.bad_rows, "bad rows");
    assert_eq!(t.counts.mutating, truth.mutating_attempts, "mutating");
    assert_eq!(t.counts.timed_out, truth.timed_out, "timed out");
    assert_eq!(
        t.counts.timed_out_succeeded, truth.timed_out_succeeded,
        "succeeded"
    );
    assert_eq!(t.intents(), truth.intents, "intents");
    assert_eq!(t.keyed.intents, truth.keyed_intents, "keyed intents");
    assert_eq!(t.keyed.attempts, truth.keyed_attempts, "keyed attempts");
    assert_eq!(t.keyed.max_attempts, truth.max_attempts, "max attempts");
    assert_eq!(t.first_ts, Some(truth.first_ts), "first ts");
    assert_eq!(t.last_ts, Some(truth.last_ts), "last ts");
    let days: Vec<(i64, (u64, u64, u64))> = t
        .per_day
        .iter()
        .map(|(d, c)| (*d, (c.mutating, c.timed_out, c.timed_out_succeeded)))
        .collect();
    let want: Vec<(i64, (u64, u64, u64))> = truth.per_day.iter().map(|(d, c)| (*d, *c)).collect();
    assert_eq!(days, want, "per day");
}

fn derived(a: &logs::LogAnalysis) -> dupcost::findings::Findings {
    a.derive(&Scenario::default(), &Overrides::default())
        .unwrap()
}

#[test]
fn every_format_gives_the_true_figures() {
    let dir = tempfile::tempdir().unwrap();
    for format in [
        Format::Csv,
        Format::Tsv,
        Format::Nginx,
        Format::Alb,
        Format::Traefik,
    ] {
        let cfg = Config {
            rows: 5_000,
            seed: 3,
            format,
            ..Config::default()
        };
        let (path, truth) = generated(dir.path(), "log", &cfg);
        let a = analyze(&path, &LogOptions::default()).unwrap();
        check(&a, &truth);
        let d = derived(&a);
        let s = d.scenario;
        assert!(
            (s.requests_per_day - truth.requests_per_day()).abs() < 1e-9 * s.requests_per_day,
            "{format:?}"
        );
        assert_eq!(s.timeout_rate, truth.timeout_rate());
        assert_eq!(s.succeeded_share, truth.succeeded_share());
        if format == Format::Alb {
            assert_eq!(d.observed.retries_observed, None);
            assert_eq!(s.retries, Scenario::default().retries);
        } else {
            assert_eq!(s.retries, truth.max_attempts - 1);
        }
        assert_eq!(d.observed.days_covered, Some(truth.days_covered()));
    }
}

#[test]
fn evidence_and_observed() {
    let dir = tempfile::tempdir().unwrap();
    let (path, truth) = generated(
        dir.path(),
        "log.csv",
        &Config {
            rows: 3_000,
            ..Config::default()
        },
    );
    let d = derived(&analyze(&path, &LogOptions::default()).unwrap());
    let t = &d.measured[1];
    assert_eq!(t.input, "timeout_rate");
    let evidence = t.evidence.to_string();
    assert!(evidence.starts_with("timeout rate "), "{evidence}");
    assert!(
        evidence.contains(&format!("{} timed out", truth.timed_out)),
        "{}",
        t.evidence
    );
    let o = &d.observed;
    assert_eq!(o.rows, truth.rows);
    assert_eq!(o.per_day.len(), truth.per_day.len());
    assert_eq!(o.per_day[0].date, "2026-11-01");
    assert!(o.per_endpoint.len() <= 10 && !o.per_endpoint.is_empty());
    assert!(
        o.per_endpoint
            .windows(2)
            .all(|w| w[0].duplicates_per_month >= w[1].duplicates_per_month)
    );
    assert!(
        o.per_endpoint.iter().all(|e| e.route.starts_with("/v1/")),
        "{:?}",
        o.per_endpoint
    );
    assert!(
        o.per_endpoint
            .iter()
            .any(|e| e.route == "/v1/orders/{id}/capture")
    );
    let json = serde_json::to_value(o).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for k in [
        "rows",
        "mutating_attempts",
        "intents",
        "timed_out",
        "timed_out_succeeded",
        "days_covered",
        "first_timestamp",
        "last_timestamp",
        "bad_rows",
        "per_day",
        "retries_observed",
        "proxy_retries",
        "amplification",
        "per_endpoint",
        "per_endpoint_other",
        "timed_out_unknown",
        "timed_out_matched",
        "rows_filtered",
        "warnings",
        "backend_log",
        "intent_grouping",
        "attempts_per_intent",
        "observed_duplicates",
        "key_coverage",
        "shared_addresses",
        "files",
        "processed_twice",
    ] {
        assert!(keys.contains(&k), "{k}");
    }
    assert_eq!(keys.len(), 27);
    // A proxy's log: executions are not seen per intent.
    assert_eq!(json["processed_twice"], serde_json::Value::Null);
    // Keyed: coverage, no fingerprint figures; without the backend's log no duplicates seen
    // (a retry answered 2xx may be a key store's replay).
    assert_eq!(json["intent_grouping"], "key");
    assert_eq!(json["observed_duplicates"], serde_json::Value::Null);
    assert_eq!(json["shared_addresses"], serde_json::Value::Null);
    let k = &json["key_coverage"];
    assert_eq!(k["keyed_attempts"], truth.keyed_attempts);
    let share = truth.keyed_attempts as f64 / truth.mutating_attempts as f64;
    assert!((k["share"].as_f64().unwrap() - share).abs() < 1e-12);
    let bars = json["attempts_per_intent"].as_array().unwrap();
    let sum = |f: &dyn Fn(&serde_json::Value) -> u64| bars.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|b| b["intents"].as_u64().unwrap()), truth.intents);
    assert_eq!(
        sum(&|b| b["intents"].as_u64().unwrap() * b["attempts"].as_u64().unwrap()),
        truth.mutating_attempts
    );
}

#[test]
fn crlf_tricky_quotes_and_non_utf8() {
    let dir = tempfile::tempdir().unwrap();
    for (crlf, format) in [
        (true, Format::Csv),
        (false, Format::Csv),
        (true, Format::Tsv),
        (true, Format::Nginx),
    ] {
        let cfg = Config {
            rows: 4_000,
            crlf,
            tricky_quotes: true,
            format,
            ..Config::default()
        };
        let (path, truth) = generated(dir.path(), "q.csv", &cfg);
        check(&analyze(&path, &LogOptions::default()).unwrap(), &truth);
    }
}

#[test]
fn gzip_by_magic_not_name() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 3_000,
        format: Format::Nginx,
        ..Config::default()
    };
    let mut plain = Vec::new();
    let truth = generator::generate(&cfg, &mut plain).unwrap();
    for name in ["log.csv.gz", "log.csv"] {
        let path = dir.path().join(name);
        // Two gzip members, as `cat a.gz b.gz` makes.
        let mut f = std::fs::File::create(&path).unwrap();
        let (a, b) = plain.split_at(plain.len() / 2);
        for part in [a, b] {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(part).unwrap();
            f.write_all(&enc.finish().unwrap()).unwrap();
        }
        drop(f);
        let a = analyze(&path, &LogOptions::default()).unwrap();
        check(&a, &truth);
        assert!(a.files[0].gzip);
    }
}

#[test]
fn bad_rows_are_counted_and_sampled() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 2_000,
        bad_every: 100,
        ..Config::default()
    };
    let (path, truth) = generated(dir.path(), "bad.csv", &cfg);
    let a = analyze(&path, &LogOptions::default()).unwrap();
    check(&a, &truth);
    assert_eq!(a.tally.bad_samples.len(), 5);
    let first = &a.tally.bad_samples[0];
    assert_eq!(first.place.line, 102, "{first}");
    assert!(
        first.reason.contains("unparseable timestamp 'yesterday'"),
        "{first}"
    );
    assert!(
        a.tally.bad_samples[1]
            .reason
            .contains("expected 9 fields, found 3"),
        "{}",
        a.tally.bad_samples[1]
    );
    let strict = LogOptions {
        strict: true,
        ..LogOptions::default()
    };
    let err = analyze(&path, &strict).unwrap_err().to_string();
    assert!(err.contains("bad.csv:102: unparseable timestamp"), "{err}");
}

#[test]
fn over_long_lines_are_bad_rows_not_buffered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.csv");
    let mut text = b"timestamp,method,path,status\n2026-11-01T00:00:00Z,POST,/a,200\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 3 << 20));
    text.extend_from_slice(b"\n2026-11-01T00:00:00Z,POST,\"/b\n");
    text.extend(std::iter::repeat_n(b'y', 2 << 20));
    text.extend_from_slice(b"\",504\n2026-11-02T00:00:00Z,POST,/c,504\n");
    std::fs::write(&path, &text).unwrap();
    let a = analyze(&path, &LogOptions::default()).unwrap();
    assert!(a.tally.bad_rows >= 2, "{:?}", a.tally.bad_samples);
    assert_eq!(a.tally.counts.timed_out, 1);
    assert!(
        a.tally.bad_samples[0].reason.contains("longer than"),
        "{:?}",
        a.tally.bad_samples
    );
    assert_eq!(
        a.tally.bad_samples[0].place.line, 3,
        "{:?}",
        a.tally.bad_samples
    );
}

#[test]
fn chunked_reading_equals_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    for tricky in [false, true] {
        let cfg = Config {
            rows: 20_000,
            tricky_quotes: tricky,
            bad_every: 997,
            ..Config::default()
        };
        let (path, truth) = generated(dir.path(), "c.csv", &cfg);
        let one = analyze(
            &path,
            &LogOptions {
                threads: 1,
                ..LogOptions::default()
            },
        )
        .unwrap();
        check(&one, &truth);
        for threads in [2, 3, 8] {
            let opts = LogOptions {
                threads,
                split_bytes: 1,
                ..LogOptions::default()
            };
            let many = analyze(&path, &opts).unwrap();
            check(&many, &truth);
            assert_eq!(many.tally, one.tally);
            assert_eq!(
                many.tally.bad_samples, one.tally.bad_samples,
                "line numbers of later pieces"
            );
        }
    }
}

/// The race's shapes (`bench/race.sh`): short rows, long rows (quoted user agents with commas,
/// query strings) and 10,000 route templates give the true figures, whole and in pieces.
#[test]
fn race_shapes_give_the_true_figures() {
    let dir = tempfile::tempdir().unwrap();
    for (row_size, templates) in [
        (RowSize::Short, 0),
        (RowSize::Long, 0),
        (RowSize::Normal, 10_000),
    ] {
        let cfg = Config {
            rows: 20_000,
            row_size,
            templates,
            bad_every: 997,
            ..Config::default()
        };
        let (path, truth) = generated(dir.path(), "race.csv", &cfg);
        let one = analyze(
            &path,
            &LogOptions {
                threads: 1,
                ..LogOptions::default()
            },
        )
        .unwrap();
        check(&one, &truth);
        // The six endpoints, query strings dropped; or thousands of the templates, each with
        // one method, all under the cap (no "other" endpoint).
        let endpoints = one.tally.endpoints.len();
        if templates == 0 {
            assert_eq!(endpoints, 6, "{row_size:?}");
        } else {
            assert!(
                (5_000..=logs::MAX_ENDPOINTS).contains(&endpoints),
                "{endpoints}"
            );
        }
        let many = analyze(
            &path,
            &LogOptions {
                threads: 3,
                split_bytes: 1,
                ..LogOptions::default()
            },
        )
        .unwrap();
        check(&many, &truth);
        assert_eq!(many.tally, one.tally, "{row_size:?}");
    }
}

#[test]
fn rotated_files_merge_in_time_order() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 4_000,
        timeout_rate: 0.3,
        ..Config::default()
    };
    let mut plain = Vec::new();
    let truth = generator::generate(&cfg, &mut plain).unwrap();
    let header_end = plain.iter().position(|&b| b == b'\n').unwrap() + 1;
    let half = header_end + (plain.len() - header_end) / 2;
    let mid = half + plain[half..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let old = dir.path().join("access.log.1");
    let new = dir.path().join("access.log");
    std::fs::write(&old, &plain[..mid]).unwrap();
    let mut second = plain[..header_end].to_vec();
    second.extend_from_slice(&plain[mid..]);
    std::fs::write(&new, &second).unwrap();
    let a = logs::analyze(
        &[LogInput::Path(new), LogInput::Path(old)],
        &LogOptions::default(),
    )
    .unwrap();
    check(&a, &truth);
}

#[test]
fn filters() {
    let dir = tempfile::tempdir().unwrap();
    let (path, truth) = generated(
        dir.path(),
        "f.csv",
        &Config {
            rows: 5_000,
            ..Config::default()
        },
    );
    // --client-timeout at 30 s flags exactly the generator's timeouts (they last 30-60 s).
    let opts = LogOptions {
        timeout_statuses: vec![],
        client_timeout: Some(std::time::Duration::from_secs(30)),
        ..LogOptions::default()
    };
    let a = analyze(&path, &opts).unwrap();
    assert_eq!(a.tally.counts.timed_out, truth.timed_out);
    // --path keeps the capture endpoint only.
    let opts = LogOptions {
        path: Some(regex::bytes::Regex::new("/capture$").unwrap()),
        ..LogOptions::default()
    };
    let a = analyze(&path, &opts).unwrap();
    assert!(a.tally.counts.mutating > 0 && a.tally.counts.mutating < truth.mutating_attempts);
    assert_eq!(a.tally.endpoints.len(), 1);
    // --since/--until keep one day.
    let since = logs::parse_time_bound("2026-11-02").unwrap();
    let until = logs::parse_time_bound("2026-11-03T00:00:00Z").unwrap();
    let a = analyze(
        &path,
        &LogOptions {
            since: Some(since),
            until: Some(until),
            ..LogOptions::default()
        },
    )
    .unwrap();
    assert_eq!(a.tally.per_day.len(), 1);
    let day = truth
        .per_day
        .iter()
        .find(|(d, _)| **d * 86_400_000_000 == since)
        .unwrap()
        .1;
    assert_eq!(a.tally.counts.mutating, day.0);
    // --methods POST only.
    let a = analyze(
        &path,
        &LogOptions {
            methods: vec!["post".into()],
            ..LogOptions::default()
        },
    )
    .unwrap();
    assert!(a.tally.endpoints.values().all(|e| e.method == "POST"));
}

#[test]
fn errors_name_their_culprit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let msg = |p: &Path| analyze(p, &LogOptions::default()).unwrap_err().to_string();
    assert!(msg(&d.join("nope.csv")).contains("nope.csv: no such file"));
    assert!(msg(d).contains("is a directory"));
    assert!(msg(&write_path(d, "empty.csv", b"")).contains("empty.csv: the file is empty"));
    assert!(msg(&write_path(d, "ws.csv", b"\n\n")).contains("the file is empty"));
    assert!(
        msg(&write_path(d, "h.csv", b"timestamp,method,status\n"))
            .contains("h.csv: the header has no data rows")
    );
    let m = msg(&write_path(d, "m.csv", b"when,verb,path\n1,POST,/a\n"));
    assert!(m.contains("no status column"), "{m}");
    assert!(
        m.contains("headers found: when, verb, path") && m.contains("--column"),
        "{m}"
    );
    let m = msg(&write_path(
        d,
        "all-bad.csv",
        b"timestamp,method,status\nyesterday,POST,200\n",
    ));
    assert!(
        m.contains("none of the 1 rows could be used") && m.contains("all-bad.csv:2"),
        "{m}"
    );
    // Corrupt and truncated gzip.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(
        b"timestamp,method,status\n2026-11-01T00:00:00Z,POST,504\n"
            .repeat(1000)
            .as_slice(),
    )
    .unwrap();
    let gz = enc.finish().unwrap();
    let m = msg(&write_path(d, "trunc.gz", &gz[..gz.len() / 2]));
    assert!(m.contains("trunc.gz: corrupt or truncated gzip"), "{m}");
    let mut bad = gz.clone();
    bad[20..40].fill(0xff);
    let m = msg(&write_path(d, "corrupt.gz", &bad));
    assert!(m.contains("corrupt.gz: corrupt or truncated gzip"), "{m}");
    // --column naming a header that is not there.
    let p = write_path(
        d,
        "ok.csv",
        b"timestamp,method,status\n2026-11-01T00:00:00Z,POST,504\n",
    );
    let opts = LogOptions {
        columns: vec![(logs::Role::UpstreamStatus, "backend".into())],
        ..LogOptions::default()
    };
    let m = analyze(&p, &opts).unwrap_err().to_string();
    assert!(
        m.contains("--column upstream_status=backend: no such header"),
        "{m}"
    );
    let opts = LogOptions {
        client_timeout: Some(std::time::Duration::from_secs(5)),
        ..LogOptions::default()
    };
    assert!(
        analyze(&p, &opts)
            .unwrap_err()
            .to_string()
            .contains("no duration column")
    );
    assert!(matches!(
        logs::analyze(&[LogInput::Stdin, LogInput::Stdin], &LogOptions::default()),
        Err(LogError::StdinTwice)
    ));
}

#[test]
fn underivable_figures_name_their_flag_unless_given() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = Scenario::default();
    let derive = |text: &[u8], given: Overrides| {
        let p = write_path(d, "x.csv", text);
        analyze(&p, &LogOptions::default())
            .unwrap()
            .derive(&base, &given)
            .map(|d| d.scenario)
    };
    let err = |text: &[u8]| derive(text, Overrides::default()).unwrap_err().to_string();
    // What scripts that ask for a measure (`require_measured`) are told of `a`.
    let refused = |a: &dupcost::logs::LogAnalysis| {
        let strict = dupcost::findings::DeriveOptions {
            require_measured: true,
            ..Default::default()
        };
        let none = Overrides::default();
        dupcost::findings::derive(
            a,
            &strict,
            &base,
            &none,
            &dupcost::findings::given_sources(&none),
        )
        .unwrap_err()
        .to_string()
    };
    // No mutating request over a day: a measured 0 a day, the timeout rate the default.
    let gets = b"timestamp,method,status,upstream_status\n2026-11-01T00:00:00Z,GET,200,200\n2026-11-02T00:00:00Z,GET,200,200\n";
    let s = derive(gets, Overrides::default()).unwrap();
    assert_eq!(
        (s.requests_per_day, s.timeout_rate, s.succeeded_share),
        (0.0, base.timeout_rate, base.succeeded_share)
    );
    // Without timestamps there is no span to measure 0 over: refused, naming the flag.
    let m = err(b"method,status,upstream_status\nGET,200,200\n");
    assert!(
        m.contains("no mutating (POST, PUT, PATCH, DELETE) requests")
            && m.contains("--requests-per-day"),
        "{m}"
    );
    // Without timeouts the succeeded share is not demanded: the default, assumed, which
    // changes no figure where the timeout rate used is 0 (here the log's thin 0 of two
    // attempts).
    let ok = b"timestamp,method,status,upstream_status\n2026-11-01T00:00:00Z,POST,200,200\n2026-11-02T00:00:00Z,POST,200,200\n";
    let p = write_path(d, "ok.csv", ok);
    let measured = analyze(&p, &LogOptions::default())
        .unwrap()
        .derive(&base, &Overrides::default())
        .unwrap();
    assert_eq!(
        measured.measured[2].evidence.to_string(),
        "succeeded share not measured: no timed-out mutating attempts in the log to tell it, so it cannot change the result (the timeout rate used is 0; only the 95% intervals' upper ends use it); using the default 50%, assumed (the log allows 0% to 100%)"
    );
    assert!(measured.measured[2].from_flag, "not from the log");
    assert_eq!(measured.scenario.succeeded_share, base.succeeded_share);
    let s = derive(
        ok,
        Overrides {
            succeeded_share: Some(0.25),
            ..Overrides::default()
        },
    )
    .unwrap();
    // Two mutating attempts, none timed out: a thin timeout rate, yet the log's 0.
    assert_eq!(
        (s.succeeded_share, s.timeout_rate, s.requests_per_day),
        (0.25, 0.0, 2.0)
    );
    // One timed-out attempt is too few to ask for the succeeded share: the default stands,
    // and the evidence says why and what would measure it.
    let p = write_path(
        d,
        "one.csv",
        b"timestamp,method,status\n2026-11-01T00:00:00Z,POST,504\n2026-11-02T00:00:00Z,POST,200\n",
    );
    let few = analyze(&p, &LogOptions::default())
        .unwrap()
        .derive(&base, &Overrides::default())
        .unwrap();
    assert_eq!(few.scenario.succeeded_share, base.succeeded_share);
    let e = few.measured[2].evidence.to_string();
    assert!(
        e.starts_with(
            "succeeded share: not measured from 1 timed-out attempt: too few (needs 30), and "
        ) && e.contains("no upstream status column")
            && e.ends_with("; using the default 50%"),
        "{e}"
    );
    // With 30 timed-out attempts it could be measured, and the log cannot: the report stands
    // on the default, assumed and bounded 0% to 100% (issue 33); scripts that ask for the
    // refusal (`require_measured`) still get it, naming the flag and the second log.
    let mut many = String::from("timestamp,method,status\n");
    for i in 0..30 {
        many.push_str(&format!("2026-11-01T00:{i:02}:00Z,POST,504\n"));
    }
    many.push_str("2026-11-02T00:00:00Z,POST,200\n");
    let p = write_path(d, "many.csv", many.as_bytes());
    let a = analyze(&p, &LogOptions::default()).unwrap();
    let assumed = a.derive(&base, &Overrides::default()).unwrap();
    assert_eq!(assumed.scenario.succeeded_share, base.succeeded_share);
    let kind = dupcost::findings::kinds::kind(&assumed, dupcost::inputs::Input::SucceededShare);
    assert_eq!(kind.kind, dupcost::findings::Kind::Assumed);
    assert_eq!(kind.bounds, Some([0.0, 1.0]));
    let m = refused(&a);
    assert!(
        m.contains("no upstream status column")
            && m.contains("--succeeded-share")
            && m.contains("--outcomes"),
        "{m}"
    );
    // No timestamp column: the default requests a day, assumed with no bounds; scripts that
    // ask for a measure are refused, naming the headers and both flags.
    let p = write_path(
        d,
        "nots.csv",
        b"method,status,upstream_status\nPOST,504,200\n",
    );
    let a = analyze(&p, &LogOptions::default()).unwrap();
    let assumed = a.derive(&base, &Overrides::default()).unwrap();
    assert_eq!(assumed.scenario.requests_per_day, base.requests_per_day);
    let kind = dupcost::findings::kinds::kind(&assumed, dupcost::inputs::Input::RequestsPerDay);
    assert_eq!(kind.kind, dupcost::findings::Kind::Assumed);
    assert_eq!(kind.bounds, None);
    let m = refused(&a);
    assert!(
        m.contains("no timestamp column")
            && m.contains("headers found: method, status, upstream_status")
            && m.contains("--column timestamp=HEADER")
            && m.contains("--requests-per-day"),
        "{m}"
    );
    let s = derive(
        b"method,status,upstream_status\nPOST,504,200\nPOST,200,200\n",
        Overrides {
            requests_per_day: Some(100.0),
            ..Overrides::default()
        },
    )
    .unwrap();
    // One of two timed out, and its outcome 2xx: thin, yet the log's figures.
    assert_eq!(
        (s.requests_per_day, s.timeout_rate, s.succeeded_share),
        (100.0, 0.5, 1.0)
    );
    // A span of no time: the default requests a day (at least the log's 1), assumed.
    let s = derive(
        b"timestamp,method,status,upstream_status\n2026-11-01T00:00:00Z,POST,504,200\n",
        Overrides::default(),
    )
    .unwrap();
    assert_eq!(s.requests_per_day, base.requests_per_day);
    // A given flag wins over a measured figure.
    let s = derive(b"timestamp,method,status,upstream_status,idempotency_key\n2026-11-01T00:00:00Z,POST,504,200,k\n2026-11-01T00:00:40Z,POST,200,200,k\n2026-11-02T00:00:00Z,POST,200,200,j\n",
        Overrides { timeout_rate: Some(0.01), retries: Some(7), ..Overrides::default() }).unwrap();
    assert_eq!(
        (s.timeout_rate, s.retries, s.requests_per_day),
        (0.01, 7, 2.0)
    );
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A seeded smoke test (issue 6 adds cargo-fuzz): random mixes of header names, delimiters,
    // quotes, line ends, timestamps and binary bytes, plain and gzip, whole and truncated.
    let pieces: &[&[u8]] = &[
        b"timestamp",
        b"method",
        b"status",
        b"upstream_status",
        b"path",
        b"idempotency_key",
        b"duration_ms",
        b"time_local",
        b",",
        b",",
        b"\t",
        b";",
        b"|",
        b"\"",
        b"\"\"",
        b"\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"POST",
        b"GET",
        b"504",
        b"200",
        b"502, 200",
        b"504 : 200",
        b"2026-11-01T00:00:00Z",
        b"01/Nov/2026:00:00:01 +0000",
        b"1793491200",
        b"-",
        b"",
        b"/v1/orders/123",
        b"\xff\xfe\x00",
        b"\x1f\x8b",
        b"9999-99-99T99:99:99Z",
        b"2026-02-30",
        b"+99:99",
        b"1e400",
        b"k1",
        b"k2",
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("random.csv");
    let mut rng = generator::Rng::new(99);
    for case in 0..600 {
        let mut bytes = Vec::new();
        if case % 3 == 0 {
            bytes.extend_from_slice(b"timestamp,method,status,upstream_status,idempotency_key\n");
        }
        for _ in 0..rng.below(200) {
            bytes.extend_from_slice(pieces[rng.below(pieces.len() as u64) as usize]);
        }
        if case % 5 == 0 {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(&bytes).unwrap();
            bytes = enc.finish().unwrap();
            let keep = rng.below(bytes.len() as u64 + 1) as usize;
            bytes.truncate(if case % 10 == 0 { keep } else { bytes.len() });
        }
        std::fs::write(&path, &bytes).unwrap();
        for threads in [1, 3] {
            let opts = LogOptions {
                threads,
                split_bytes: 1,
                ..LogOptions::default()
            };
            if let Ok(a) = analyze(&path, &opts) {
                let _ = a.derive(&Scenario::default(), &Overrides::default());
                let _ = a.derive(
                    &Scenario::default(),
                    &Overrides {
                        requests_per_day: Some(1.0),
                        timeout_rate: Some(0.1),
                        succeeded_share: Some(0.5),
                        retries: Some(1),
                        body_bytes: Some(100),
                    },
                );
            }
        }
    }
}

#[test]
fn distinct_routes_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"timestamp,method,path,status,upstream_status\n".to_vec();
    let extra = 50;
    for i in 0..logs::MAX_ENDPOINTS + extra {
        // Slugs, not ids: every path is its own route.
        let slug: String = i
            .to_string()
            .bytes()
            .map(|d| (b'a' + (d - b'0')) as char)
            .collect();
        text.extend_from_slice(
            format!("2026-11-01T00:00:00Z,POST,/posts/{slug},504,200\n").as_bytes(),
        );
    }
    let path = write_path(dir.path(), "slugs.csv", &text);
    let a = analyze(&path, &LogOptions::default()).unwrap();
    assert_eq!(a.tally.endpoints.len(), logs::MAX_ENDPOINTS + 1);
    let other = a
        .tally
        .endpoints
        .values()
        .find(|e| e.route == "(other routes)")
        .unwrap();
    assert_eq!(other.counts.mutating, extra as u64);
    assert_eq!(other.intents, extra as u64);
}

#[test]
fn odd_delimiters_and_timestamp_formats() {
    let dir = tempfile::tempdir().unwrap();
    // Semicolons and pipes are sniffed; a custom strftime format and epoch milliseconds.
    let semi = write_path(dir.path(), "s.csv", b"ts;method;status;upstream_status\n01.11.2026 00:00:00;POST;504;200\n02.11.2026 00:00:00;POST;200;200\n");
    let opts = LogOptions {
        timestamp_format: Some("%d.%m.%Y %H:%M:%S".into()),
        ..LogOptions::default()
    };
    let a = analyze(&semi, &opts).unwrap();
    assert_eq!((a.files[0].delimiter, a.tally.counts.timed_out), (b';', 1));
    assert_eq!(a.days_covered(), Some(1.0));
    let pipe = write_path(
        dir.path(),
        "p.csv",
        b"msec|verb|code|origin_status\n1793491200000|PUT|499|201\n1793577600000|PUT|200|200\n",
    );
    let opts = LogOptions {
        columns: vec![
            (logs::Role::Method, "verb".into()),
            (logs::Role::Status, "code".into()),
        ],
        ..LogOptions::default()
    };
    let a = analyze(&pipe, &opts).unwrap();
    assert_eq!(
        (a.files[0].delimiter, a.tally.counts.timed_out_succeeded),
        (b'|', 1)
    );
    assert_eq!(a.days_covered(), Some(1.0));
    // Any one-character delimiter can be given.
    let q = write_path(dir.path(), "q.csv", b"method'status\nPOST'504\n");
    let opts = LogOptions {
        delimiter: Some(b'\''),
        ..LogOptions::default()
    };
    assert_eq!(analyze(&q, &opts).unwrap().tally.counts.timed_out, 1);
}

/// A per-attempt request id is never an intent key (issue 10): by its name it is the
/// `request_id` role; mapped as the key anyway, it looks per-attempt (every value seen once,
/// yet timeouts) and is ignored, with a warning, and retries come from the scenario.
#[test]
fn a_request_id_is_never_an_intent_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_path(dir.path(), "r.csv", b"timestamp,method,status,upstream_status,request_id\n2026-11-01T00:00:00Z,POST,504,200,a\n2026-11-01T00:00:40Z,POST,200,200,b\n2026-11-02T00:00:00Z,POST,200,200,c\n");
    let a = analyze(&p, &LogOptions::default()).unwrap();
    assert_eq!(a.files[0].columns.idempotency_key, None);
    assert_eq!(a.files[0].columns.request_id, Some(4));
    let d = derived(&a);
    assert_eq!(d.scenario.retries, Scenario::default().retries);
    assert!(d.observed.warnings.is_empty(), "{:?}", d.observed.warnings);

    let opts = LogOptions {
        columns: vec![(logs::Role::IdempotencyKey, "request_id".into())],
        ..LogOptions::default()
    };
    let d = derived(&analyze(&p, &opts).unwrap());
    assert_eq!(
        d.scenario.retries,
        Scenario::default().retries,
        "never a silent 0"
    );
    assert_eq!(d.observed.intents, 3);
    assert!(
        d.measured[3]
            .evidence
            .to_string()
            .contains("looks per-attempt"),
        "{}",
        d.measured[3].evidence
    );
    assert!(
        d.observed.warnings[0].to_string().starts_with("the key column request_id looks per-attempt (3 keys seen once each, yet 1 attempt timed out)"),
        "{:?}",
        d.observed.warnings
    );
}

/// A log spread over months (the benchmark's shape: rows seconds apart, so nearly every row
/// starts a new second and a day holds a few hundred rows) gives the true figures, read whole
/// and in pieces: RFC 3339, whose last second and date the reader remembers, and nginx
/// `$time_local`.
#[test]
fn months_of_sparse_traffic_give_the_true_figures() {
    let dir = tempfile::tempdir().unwrap();
    for format in [Format::Csv, Format::Nginx] {
        let cfg = Config {
            rows: 20_000,
            seed: 11,
            format,
            days: 200.0,
            ..Config::default()
        };
        let (path, truth) = generated(dir.path(), "months.csv", &cfg);
        assert!(truth.days_covered() > 180.0, "{}", truth.days_covered());
        assert!(truth.per_day.len() > 180, "{}", truth.per_day.len());
        for threads in [1, 3] {
            let opts = LogOptions {
                threads,
                split_bytes: 1,
                ..LogOptions::default()
            };
            check(&analyze(&path, &opts).unwrap(), &truth);
        }
    }
}
